/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmecfg's view of rblk's subsystems, read from sysfs as nvme-cli reads
 * nvme's: /sys/class/rblk-subsystem/rblk-subsysK/ and the controllers it
 * links (Documentation/ABI/testing/sysfs-class-rblk-subsystem).
 */
#ifndef NVMECFG_SUBSYS_H
#define NVMECFG_SUBSYS_H

#include <stddef.h>

#include "info.h"

/*
 * Every subsystem below @root ("" for the real sysfs; a fake tree in the
 * host unit tests), sorted by name, each with its paths sorted by name.
 * Returns 0 with @list filled (free with subsys_list_free()), or a
 * negative errno (-ENOENT: no rblk module, so no class directory).
 */
int subsys_read(const char *root, struct subsys_list *list);
void subsys_list_free(struct subsys_list *list);

#endif /* NVMECFG_SUBSYS_H */
