// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg: rblk's subsystems and namespace heads (list-subsys,
 * show-topology, list -v), as the kernel describes them over netlink,
 * put in the order nvme-cli shows them: by name, "version" order
 * (rblk-subsys2 before rblk-subsys10).
 */
#define _GNU_SOURCE	/* strverscmp() */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subsys.h"

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

static int by_head_name(const void *a, const void *b)
{
	const struct head_info *x = a, *y = b;

	return strverscmp(x->name, y->name);
}

/*
 * @s as host NQN @hostnqn reaches it, into @out: the paths connected with
 * that host NQN, the host ID of the first.
 */
static int subsys_of_host(const struct subsys_info *s, const char *hostnqn,
			  struct subsys_info *out)
{
	size_t k;

	*out = *s;
	out->paths = NULL;
	out->nr_paths = 0;
	out->paths_cap = 0;
	snprintf(out->hostnqn, sizeof(out->hostnqn), "%s", hostnqn);
	out->has_hostid = false;
	for (k = 0; k < s->nr_paths; k++) {
		if (strcmp(s->paths[k].hostnqn, hostnqn))
			continue;
		if (!out->nr_paths) {
			out->paths = calloc(s->nr_paths, sizeof(*out->paths));
			if (!out->paths)
				return -ENOMEM;
			out->paths_cap = s->nr_paths;
			out->has_hostid = s->paths[k].has_hostid;
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
 * one entry per (subsystem, host NQN), in the subsystems' order, each host
 * NQN where its first path is.  The heads are left as they are: their
 * paths carry their host NQN.
 */
static int split_by_host(struct subsys_list *list)
{
	struct subsys_info *out = NULL, *n;
	size_t i, k, m, nr = 0, cap = 0;
	int ret = 0;

	for (i = 0; i < list->nr && !ret; i++) {
		const struct subsys_info *s = &list->subsys[i];

		for (k = 0; k < s->nr_paths || (!k && !s->nr_paths); k++) {
			const char *h = s->nr_paths ? s->paths[k].hostnqn : "";

			/* Each host NQN once, where its first path is. */
			for (m = 0; m < k; m++)
				if (!strcmp(s->paths[m].hostnqn, h))
					break;
			if (m < k)
				continue;
			if (nr == cap) {
				cap = cap ? 2 * cap : 4;
				n = realloc(out, cap * sizeof(*n));
				if (!n) {
					ret = -ENOMEM;
					break;
				}
				out = n;
			}
			ret = subsys_of_host(s, h, &out[nr]);
			if (ret)
				break;
			nr++;
		}
	}
	for (i = 0; i < list->nr; i++)
		free(list->subsys[i].paths);
	free(list->subsys);
	list->subsys = out;
	list->nr = nr;
	list->cap = cap;
	return ret;
}

int subsys_sort(struct subsys_list *list)
{
	size_t i;

	if (list->nr)
		qsort(list->subsys, list->nr, sizeof(*list->subsys),
		      by_subsys_name);
	for (i = 0; i < list->nr; i++)
		if (list->subsys[i].nr_paths)
			qsort(list->subsys[i].paths, list->subsys[i].nr_paths,
			      sizeof(struct path_info), by_path_name);
	if (list->nr_heads)
		qsort(list->heads, list->nr_heads, sizeof(*list->heads),
		      by_head_name);
	for (i = 0; i < list->nr_heads; i++)
		if (list->heads[i].nr_paths)
			qsort(list->heads[i].paths, list->heads[i].nr_paths,
			      sizeof(struct path_info), by_path_name);
	return split_by_host(list);
}

const struct subsys_info *subsys_find(const struct subsys_list *list,
				      const char *name)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		if (!strcmp(list->subsys[i].name, name))
			return &list->subsys[i];
	return NULL;
}

const struct head_info *subsys_find_head(const struct subsys_list *list,
					 const char *name)
{
	size_t i;

	for (i = 0; i < list->nr_heads; i++)
		if (!strcmp(list->heads[i].name, name))
			return &list->heads[i];
	return NULL;
}

const struct subsys_info *subsys_of_ctrl(const struct subsys_list *list,
					 const char *ctrl)
{
	size_t i, k;

	for (i = 0; list && i < list->nr; i++)
		for (k = 0; k < list->subsys[i].nr_paths; k++)
			if (!strcmp(list->subsys[i].paths[k].name, ctrl))
				return &list->subsys[i];
	return NULL;
}
