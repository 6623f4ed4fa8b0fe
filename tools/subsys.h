/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmecfg's view of rblk's multipath topology: subsystems, their
 * controllers (paths) and, with multipath, the namespace heads and their
 * paths with ANA states, from the kernel's netlink objects
 * (RBLK_CMD_GET_SUBSYS, RBLK_CMD_GET_HEAD, read by nl.c): plain C, no
 * netlink here.
 */
#ifndef NVMECFG_SUBSYS_H
#define NVMECFG_SUBSYS_H

#include <stdbool.h>
#include <stddef.h>

#include "info.h"

/*
 * What rnl_subsys_list() got, sorted as nvme-cli shows it: each
 * subsystem and head by name, the paths of each by controller name; then
 * each subsystem split by host NQN, as nvme-cli lists it under each host
 * with that host's paths (struct subsys_info).  -ENOMEM: @list is to be
 * freed all the same (rnl_subsys_free()).
 */
int subsys_sort(struct subsys_list *list);
/* The subsystem named @name (rblk-subsysK), or NULL. */
const struct subsys_info *subsys_find(const struct subsys_list *list,
				      const char *name);
/* The head named @name (rblkN), or NULL. */
const struct head_info *subsys_find_head(const struct subsys_list *list,
					 const char *name);
/* The subsystem whose controllers include @ctrl (rblk-ctrlM), or NULL. */
const struct subsys_info *subsys_of_ctrl(const struct subsys_list *list,
					 const char *ctrl);

#endif /* NVMECFG_SUBSYS_H */
