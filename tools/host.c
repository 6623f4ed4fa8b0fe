// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg's host identity.
 *
 * The same machine must look like the same host to a target whether
 * nvme-cli or nvmecfg connects (allowed_hosts, reservations), so the
 * files are nvme-cli's and read as it reads them: the first line, blanks
 * around it trimmed.  Unlike nvme-cli, a file holding no valid value is an
 * error rather than silently replaced by a generated identity.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host.h"
#include "output.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR	"/etc"
#endif

#define UUID_NQN_PREFIX	"nqn.2014-08.org.nvmexpress:uuid:"
#define MODULE_DIR	"/sys/module/rblk"

/*
 * The tests point this at a directory of fake files; it only changes what
 * the caller's own process reads, as --hostnqn would.
 */
static const char *test_root(void)
{
	const char *root = getenv("NVMECFG_TEST_ROOT");

	return root ? root : "";
}

const char *host_conf_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s/nvme/%s", test_root(), SYSCONFDIR, name);
	return buf;
}

/*
 * The first line of @path, trimmed, into @buf: 1 if read, 0 if there is
 * no such file, -errno otherwise (-EFBIG: a line longer than @buf).
 */
static int read_line(const char *path, char *buf, size_t len)
{
	char line[512], *s, *e;
	FILE *f;
	int ret = 1;

	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	if (!fgets(line, sizeof(line), f)) {
		ret = ferror(f) ? -EIO : 1;
		line[0] = '\0';
	} else if (!strchr(line, '\n') && !feof(f)) {
		ret = -EFBIG;
	}
	fclose(f);
	if (ret < 0)
		return ret;
	for (s = line; isspace((unsigned char)*s); s++)
		;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	if (strlen(s) >= len)
		return -EFBIG;
	strcpy(buf, s);
	return 1;
}

static int file_err(char *err, size_t len, const char *path, int ret)
{
	snprintf(err, len, "%s: %s", path,
		 ret == -EFBIG ? "line too long" : strerror(-ret));
	return -1;
}

/* The UUID of a "nqn.2014-08.org.nvmexpress:uuid:<UUID>" host NQN. */
static bool uuid_of_nqn(const char *nqn, unsigned char *id)
{
	size_t n = strlen(UUID_NQN_PREFIX);

	return !strncmp(nqn, UUID_NQN_PREFIX, n) &&
	       !opts_parse_uuid(nqn + n, id);
}

static void read_module(struct host_info *h)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", test_root(), MODULE_DIR);
	h->module_loaded = !stat(path, &st) && S_ISDIR(st.st_mode);
	if (!h->module_loaded)
		return;
	/* Best effort: an older module has no such parameters. */
	snprintf(path, sizeof(path), "%s%s/parameters/hostnqn", test_root(),
		 MODULE_DIR);
	if (read_line(path, h->module_hostnqn, sizeof(h->module_hostnqn)) < 0)
		h->module_hostnqn[0] = '\0';
	snprintf(path, sizeof(path), "%s%s/parameters/hostid", test_root(),
		 MODULE_DIR);
	if (read_line(path, h->module_hostid, sizeof(h->module_hostid)) < 0)
		h->module_hostid[0] = '\0';
}

int host_resolve(struct host_info *h, const struct cfg *cfg, char *err,
		 size_t len)
{
	char buf[RBLK_NQN_MAX_LEN + 2];
	int ret;

	memset(h, 0, sizeof(*h));
	host_conf_path("hostnqn", h->nqn_file, sizeof(h->nqn_file));
	host_conf_path("hostid", h->id_file, sizeof(h->id_file));
	read_module(h);

	if (cfg->set & OPT(HOSTNQN)) {
		snprintf(h->hostnqn, sizeof(h->hostnqn), "%s", cfg->hostnqn);
		h->nqn_src = ID_OPTION;
	} else {
		ret = read_line(h->nqn_file, buf, sizeof(buf));
		if (ret < 0)
			return file_err(err, len, h->nqn_file, ret);
		if (ret) {
			if (!opts_nqn_valid(buf)) {
				snprintf(err, len,
					 "%s: not a host NQN (1 to %d characters)",
					 h->nqn_file, RBLK_NQN_MAX_LEN);
				return -1;
			}
			strcpy(h->hostnqn, buf);
			h->nqn_src = ID_FILE;
		}
	}

	if (cfg->set & OPT(HOSTID)) {
		memcpy(h->hostid, cfg->hostid, sizeof(h->hostid));
		h->id_src = ID_OPTION;
		return 0;
	}
	ret = read_line(h->id_file, buf, sizeof(buf));
	if (ret < 0)
		return file_err(err, len, h->id_file, ret);
	if (ret) {
		if (opts_parse_uuid(buf, h->hostid)) {
			snprintf(err, len, "%s: '%s' is not a UUID",
				 h->id_file, buf);
			return -1;
		}
		h->id_src = ID_FILE;
	} else if (h->nqn_src != ID_KERNEL &&
		   uuid_of_nqn(h->hostnqn, h->hostid)) {
		h->id_src = ID_HOSTNQN;
	}
	return 0;
}

void host_apply(const struct host_info *h, struct cfg *cfg)
{
	if (h->nqn_src != ID_KERNEL) {
		cfg->hostnqn = h->hostnqn;
		cfg->set |= OPT(HOSTNQN);
	}
	if (h->id_src != ID_KERNEL) {
		memcpy(cfg->hostid, h->hostid, sizeof(cfg->hostid));
		cfg->set |= OPT(HOSTID);
	}
}
