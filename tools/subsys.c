// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg: rblk's subsystems from sysfs (list-subsys).  The module has no
 * netlink objects for subsystems yet; sysfs is their documented ABI, and
 * it is where nvme-cli reads nvme's.
 */
#define _GNU_SOURCE	/* strverscmp() */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "subsys.h"

#define CLASS_DIR	"/sys/class/rblk-subsystem"

/* One line of a sysfs file, without its newline; "" if unreadable. */
static void read_attr(const char *dir, const char *name, char *buf,
		      size_t len)
{
	char path[4096];
	FILE *f;

	buf[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static int by_path_name(const void *a, const void *b)
{
	const struct path_info *x = a, *y = b;

	return strverscmp(x->name, y->name);
}

static int by_subsys_name(const void *a, const void *b)
{
	const struct subsys_info *x = a, *y = b;

	return strverscmp(x->name, y->name);
}

/* The rblk-ctrlM links of a subsystem's directory, as its paths. */
static int read_paths(const char *dir, struct subsys_info *s)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char ctrl_dir[4096];
		struct path_info *p;

		if (strncmp(de->d_name, RBLK_CTRL_NAME_PREFIX,
			    strlen(RBLK_CTRL_NAME_PREFIX)))
			continue;
		if (s->nr_paths == cap) {
			cap = cap ? 2 * cap : 4;
			p = realloc(s->paths, cap * sizeof(*p));
			if (!p) {
				closedir(d);
				return -ENOMEM;
			}
			s->paths = p;
		}
		p = &s->paths[s->nr_paths];
		memset(p, 0, sizeof(*p));
		/* Longer than rblk makes them: not a controller of ours. */
		if (snprintf(p->name, sizeof(p->name), "%s",
			     de->d_name) >= (int)sizeof(p->name) ||
		    snprintf(ctrl_dir, sizeof(ctrl_dir), "%s/%s", dir,
			     de->d_name) >= (int)sizeof(ctrl_dir))
			continue;
		s->nr_paths++;
		read_attr(ctrl_dir, "transport", p->transport,
			  sizeof(p->transport));
		read_attr(ctrl_dir, "address", p->address, sizeof(p->address));
		read_attr(ctrl_dir, "state", p->state, sizeof(p->state));
		read_attr(ctrl_dir, "hostnqn", p->hostnqn, sizeof(p->hostnqn));
		read_attr(ctrl_dir, "hostid", p->hostid, sizeof(p->hostid));
	}
	closedir(d);
	if (s->nr_paths)
		qsort(s->paths, s->nr_paths, sizeof(*s->paths), by_path_name);
	return 0;
}

/*
 * @s as host NQN @hostnqn reaches it, into @out: the paths connected with
 * that host NQN.
 */
static int subsys_of_host(const struct subsys_info *s, const char *hostnqn,
			  struct subsys_info *out)
{
	size_t k;

	*out = *s;
	out->paths = NULL;
	out->nr_paths = 0;
	snprintf(out->hostnqn, sizeof(out->hostnqn), "%s", hostnqn);
	out->hostid[0] = '\0';
	for (k = 0; k < s->nr_paths; k++) {
		if (strcmp(s->paths[k].hostnqn, hostnqn))
			continue;
		if (!out->nr_paths) {
			out->paths = calloc(s->nr_paths, sizeof(*out->paths));
			if (!out->paths)
				return -ENOMEM;
			memcpy(out->hostid, s->paths[k].hostid,
			       sizeof(out->hostid));
		}
		out->paths[out->nr_paths++] = s->paths[k];
	}
	return 0;
}

/*
 * A subsystem is one whatever host NQN its controllers connected with
 * (as nvme's); nvme-cli lists it under each host, with that host's paths:
 * one entry per (subsystem, host NQN), in the subsystems' order.
 */
static int split_by_host(struct subsys_list *list)
{
	struct subsys_list out = { NULL, 0 };
	size_t i, k, m, cap = 0;
	int ret = 0;

	for (i = 0; i < list->nr && !ret; i++) {
		const struct subsys_info *s = &list->subsys[i];

		for (k = 0; k < s->nr_paths || (!k && !s->nr_paths); k++) {
			const char *h = s->nr_paths ? s->paths[k].hostnqn : "";
			struct subsys_info *n;

			/* Each host NQN once, where its first path is. */
			for (m = 0; m < k; m++)
				if (!strcmp(s->paths[m].hostnqn, h))
					break;
			if (m < k)
				continue;
			if (out.nr == cap) {
				cap = cap ? 2 * cap : 4;
				n = realloc(out.subsys, cap * sizeof(*n));
				if (!n) {
					ret = -ENOMEM;
					break;
				}
				out.subsys = n;
			}
			ret = subsys_of_host(s, h, &out.subsys[out.nr]);
			if (ret)
				break;
			out.nr++;
		}
	}
	subsys_list_free(list);
	*list = out;
	return ret;
}

int subsys_read(const char *root, struct subsys_list *list)
{
	char class_dir[4096];
	struct dirent *de;
	size_t cap = 0;
	int ret = 0;
	DIR *d;

	memset(list, 0, sizeof(*list));
	if (snprintf(class_dir, sizeof(class_dir), "%s%s", root,
		     CLASS_DIR) >= (int)sizeof(class_dir))
		return -ENAMETOOLONG;
	d = opendir(class_dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct subsys_info *s;
		char dir[4096];

		if (de->d_name[0] == '.')
			continue;
		if (list->nr == cap) {
			cap = cap ? 2 * cap : 4;
			s = realloc(list->subsys, cap * sizeof(*s));
			if (!s) {
				ret = -ENOMEM;
				break;
			}
			list->subsys = s;
		}
		s = &list->subsys[list->nr];
		memset(s, 0, sizeof(*s));
		if (snprintf(s->name, sizeof(s->name), "%s",
			     de->d_name) >= (int)sizeof(s->name) ||
		    snprintf(dir, sizeof(dir), "%s/%s", class_dir,
			     de->d_name) >= (int)sizeof(dir))
			continue;
		list->nr++;
		read_attr(dir, "subsysnqn", s->nqn, sizeof(s->nqn));
		/* Only with multipath, as nvme's. */
		read_attr(dir, "iopolicy", s->iopolicy, sizeof(s->iopolicy));
		ret = read_paths(dir, s);
		/* Gone meanwhile: not listed. */
		if (ret == -ENOENT) {
			free(s->paths);
			list->nr--;
			ret = 0;
		}
		if (ret)
			break;
	}
	closedir(d);
	if (ret) {
		subsys_list_free(list);
		return ret;
	}
	if (list->nr)
		qsort(list->subsys, list->nr, sizeof(*list->subsys),
		      by_subsys_name);
	ret = split_by_host(list);
	if (ret)
		subsys_list_free(list);
	return ret;
}

void subsys_list_free(struct subsys_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		free(list->subsys[i].paths);
	free(list->subsys);
	memset(list, 0, sizeof(*list));
}
