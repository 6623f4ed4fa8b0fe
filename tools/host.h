/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmecfg's host identity, as nvme-cli finds it: the options, then
 * /etc/nvme/hostnqn and /etc/nvme/hostid, then what the rblk module has.
 */
#ifndef NVMECFG_HOST_H
#define NVMECFG_HOST_H

#include <stddef.h>

#include "info.h"
#include "opts.h"

/*
 * SYSCONFDIR/nvme/@name ("hostnqn", "hostid", "discovery.conf"), below
 * $NVMECFG_TEST_ROOT if set (host unit tests only, see nvmecfg(8)).
 */
const char *host_conf_path(const char *name, char *buf, size_t len);

/*
 * Fill @h from @cfg's --hostnqn/--hostid, the files and the module's
 * sysfs parameters.  -1 with @err set when a file is unreadable or holds
 * no valid value; a missing file is no error.
 */
int host_resolve(struct host_info *h, const struct cfg *cfg, char *err,
		 size_t len);

/* Put @h's identity into @cfg, for the request (@h must outlive @cfg). */
void host_apply(const struct host_info *h, struct cfg *cfg);

#endif /* NVMECFG_HOST_H */
