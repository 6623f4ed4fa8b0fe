// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg: rblk's subsystems and namespace heads (list-subsys,
 * show-topology, list -v), as the kernel describes them over netlink,
 * put in the order nvme-cli shows them: by name, "version" order
 * (rblk-subsys2 before rblk-subsys10).
 */
#define _GNU_SOURCE	/* strverscmp() */
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

void subsys_sort(struct subsys_list *list)
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
