/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmecfg's host identity, as nvme-cli finds it: the options, then
 * /etc/nvme/hostnqn and /etc/nvme/hostid, then one derived from the
 * machine's UUID (DMI, device tree), then what the rblk module has.
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
 * libnvme's variables: set, they stand for /etc/nvme/hostnqn and hostid
 * (nvmf_hostnqn_from_file(), nvmf_hostid_from_file()); set but empty, for
 * no such file.
 */
#define HOST_ENV_NQN	"LIBNVME_HOSTNQN"
#define HOST_ENV_ID	"LIBNVME_HOSTID"

/*
 * Fill @h from @cfg's --hostnqn/--hostid, the files (or their variables), the machine's UUID
 * (without a host NQN file, or for the host id of an NQN of another form
 * than ...:uuid:<UUID> without a host id file) and the module's sysfs
 * parameters.  -1 with @err set when a file is unreadable or holds an
 * invalid value; a missing file, or one whose first line is blank, is no
 * error: there is none.
 */
int host_resolve(struct host_info *h, const struct cfg *cfg, char *err,
		 size_t len);

/*
 * The machine's UUID into @m, as libnvme looks for it: DMI's product_uuid,
 * the raw SMBIOS System Information (dmi-sysfs), the device tree's
 * ibm,partition-uuid; an all-00h or all-FFh UUID is none.  0, or -ENOENT
 * with @m->src ID_KERNEL (and @m->denied naming a file only root may read,
 * if one was in the way).
 */
int host_machine_id(struct machine_id *m);

/*
 * nvme gen-hostnqn: "nqn.2014-08.org.nvmexpress:uuid:<UUID>" of the
 * machine's UUID (0, @m says where from), else of a random one (1), into
 * @buf; -errno without random numbers.
 */
int host_gen_hostnqn(char *buf, size_t len, struct machine_id *m);

/*
 * The loaded rblk module's version, /sys/module/rblk/version (below
 * $NVMECFG_TEST_ROOT if set), into @buf: 1, or 0 when the module is not
 * loaded, -errno when its version cannot be read.
 */
int host_module_version(char *buf, size_t len);

/* Put @h's identity into @cfg, for the request (@h must outlive @cfg). */
void host_apply(const struct host_info *h, struct cfg *cfg);

/*
 * The default DH-HMAC-CHAP host key, SYSCONFDIR/nvme/hostkey (as current
 * nvme-cli): its first line, trimmed, into @h (once; @h->has_key false
 * for no file or an empty one).  0, or with @err naming the file, never
 * the key: -EACCES or -EPERM when it may not be read, -EINVAL when it
 * cannot be read otherwise or is not a key.
 */
int host_read_key(struct host_info *h, char *err, size_t len);

/*
 * @cfg without -S: the default key read into @h, if any, as the request's
 * host key with RBLK_ATTR_DHCHAP_KEY_DEFAULT (@h must outlive @cfg).
 * Sets @h->key_used to whether it did.
 */
void host_apply_key(struct host_info *h, struct cfg *cfg);

/* Zero the key @h holds. */
void host_forget_key(struct host_info *h);

#endif /* NVMECFG_HOST_H */
