// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg's host identity.
 *
 * The same machine must look like the same host to a target whether
 * nvme-cli or nvmecfg connects (allowed_hosts, reservations), so the
 * files are nvme-cli's and read as it reads them: the first line, blanks
 * around it trimmed.  An empty one (0 bytes) is no file, as libnvme takes
 * it (its nvmf_hostnqn_from_file() returns none); unlike nvme-cli, a file
 * holding an invalid value, a blank first line included, is an error
 * rather than silently replaced by another identity.
 *
 * Without /etc/nvme/hostnqn, nvme-cli 2.x (libnvme's nvmf_hostnqn_generate())
 * derives the host NQN from the machine's UUID, so that it survives a
 * reboot; so does nvmecfg, from the same sources in the same order (see
 * host_machine_id()).  Only where libnvme would draw a random UUID for the
 * connect does nvmecfg leave the choice to the module.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "host.h"
#include "output.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR	"/etc"
#endif

#define UUID_NQN_PREFIX	"nqn.2014-08.org.nvmexpress:uuid:"
#define MODULE_DIR	"/sys/module/rblk"

/*
 * Where libnvme (1.3 to 1.16, nvme-cli 2.3 to 2.16) looks for the
 * machine's UUID, in this order; it draws a random one after them.
 */
#define DMI_PRODUCT_UUID "/sys/class/dmi/id/product_uuid"
#define DMI_ENTRIES	"/sys/firmware/dmi/entries"
#define DT_PARTITION_UUID "/proc/device-tree/ibm,partition-uuid"
/* SMBIOS structure type 1, System Information: the UUID at offset 8. */
#define SMBIOS_SYSTEM_INFO	1
#define SMBIOS_UUID_OFFSET	8

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
	/* stdio's buffer, ours to zero: one of the files holds a key. */
	char line[512], iobuf[BUFSIZ], *s, *e;
	FILE *f;
	int ret = 1;

	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	setvbuf(f, iobuf, _IOFBF, sizeof(iobuf));
	if (!fgets(line, sizeof(line), f)) {
		ret = ferror(f) ? -EIO : 1;
		line[0] = '\0';
	} else if (!strchr(line, '\n') && !feof(f)) {
		ret = -EFBIG;
	}
	fclose(f);
	explicit_bzero(iobuf, sizeof(iobuf));
	if (ret < 0)
		goto out;
	for (s = line; isspace((unsigned char)*s); s++)
		;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	if (strlen(s) >= len) {
		ret = -EFBIG;
		goto out;
	}
	strcpy(buf, s);
out:
	/* One of the files holds a key. */
	explicit_bzero(line, sizeof(line));
	return ret;
}

static int file_err(char *err, size_t len, const char *path, int ret)
{
	snprintf(err, len, "%s: %s", path,
		 ret == -EFBIG ? "line too long" : strerror(-ret));
	return -1;
}

/*
 * /etc/nvme/hostnqn or hostid: 1 with its value in @buf (empty for a blank
 * first line, which the caller refuses), 0 when it is missing or empty
 * (0 bytes: none, as for libnvme, whose nvmf_read_file() returns none only
 * then), -1 with @err set when it cannot be read.
 */
static int read_id_file(const char *path, char *buf, size_t len, char *err,
			size_t err_len)
{
	int ret = read_line(path, buf, len);
	struct stat st;

	if (ret < 0)
		return file_err(err, err_len, path, ret);
	if (ret && !buf[0] && !stat(path, &st) && !st.st_size)
		return 0;
	return ret;
}

/*
 * Up to @len bytes of @path into @buf: the number read, -errno if it
 * cannot be opened or read.
 */
static ssize_t read_raw(const char *path, void *buf, size_t len)
{
	size_t n;
	FILE *f;
	int err;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, len, f);
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	return err ? err : (ssize_t)n;
}

/*
 * SMBIOS (DSP0134, 7.2.1): all 00h means the system has no UUID, all FFh
 * that it has none set.  QEMU without -uuid gives all 00h.  Linux does not
 * show either in product_uuid; libnvme skips an all-00h one.
 */
static bool uuid_usable(const unsigned char *id)
{
	bool zero = true, ones = true;
	int i;

	for (i = 0; i < RBLK_HOSTID_LEN; i++) {
		zero &= id[i] == 0x00;
		ones &= id[i] == 0xff;
	}
	return !zero && !ones;
}

/* Remember the first source that is there but for root only. */
static void note_denied(struct machine_id *m, const char *path, int err)
{
	if ((err == -EACCES || err == -EPERM) && !m->denied[0])
		snprintf(m->denied, sizeof(m->denied), "%s", path);
}

static bool found(struct machine_id *m, enum id_source src, const char *path)
{
	m->src = src;
	snprintf(m->path, sizeof(m->path), "%s", path);
	return true;
}

/* The kernel's rendering of the SMBIOS UUID, one line, lowercase. */
static bool from_product_uuid(struct machine_id *m)
{
	char path[512], buf[64];
	int ret;

	snprintf(path, sizeof(path), "%s%s", test_root(), DMI_PRODUCT_UUID);
	ret = read_line(path, buf, sizeof(buf));
	if (ret <= 0) {
		note_denied(m, path, ret);
		return false;
	}
	if (opts_parse_uuid(buf, m->id) || !uuid_usable(m->id))
		return false;
	return found(m, ID_DMI, path);
}

/*
 * The raw SMBIOS type 1 structure (dmi-sysfs), where product_uuid is
 * missing: its first three UUID fields are little-endian (SMBIOS 2.6 and
 * later), as libnvme reads them.
 */
static bool from_dmi_entries(struct machine_id *m)
{
	static const int order[RBLK_HOSTID_LEN] = {
		3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15
	};
	char dir[512], path[1024], type[16];
	unsigned char raw[512];
	struct dirent *de;
	bool ok = false;
	ssize_t n;
	DIR *d;
	int i;

	snprintf(dir, sizeof(dir), "%s%s", test_root(), DMI_ENTRIES);
	d = opendir(dir);
	if (!d)
		return false;
	while (!ok && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", dir, de->d_name);
		if (read_line(path, type, sizeof(type)) <= 0 ||
		    atoi(type) != SMBIOS_SYSTEM_INFO)
			continue;
		snprintf(path, sizeof(path), "%s/%s/raw", dir, de->d_name);
		n = read_raw(path, raw, sizeof(raw));
		if (n < 0)
			note_denied(m, path, n);
		if (n < SMBIOS_UUID_OFFSET + RBLK_HOSTID_LEN)
			continue;
		for (i = 0; i < RBLK_HOSTID_LEN; i++)
			m->id[i] = raw[SMBIOS_UUID_OFFSET + order[i]];
		if (uuid_usable(m->id))
			ok = found(m, ID_DMI, path);
	}
	closedir(d);
	return ok;
}

/* IBM Power LPARs: a NUL-terminated UUID string. */
static bool from_device_tree(struct machine_id *m)
{
	char path[512], buf[64], *s, *e;
	ssize_t n;

	snprintf(path, sizeof(path), "%s%s", test_root(), DT_PARTITION_UUID);
	n = read_raw(path, buf, sizeof(buf) - 1);
	if (n < 0) {
		note_denied(m, path, n);
		return false;
	}
	buf[n] = '\0';
	for (s = buf; isspace((unsigned char)*s); s++)
		;
	for (e = s; *e && !isspace((unsigned char)*e); e++)
		;
	*e = '\0';
	if (opts_parse_uuid(s, m->id) || !uuid_usable(m->id))
		return false;
	return found(m, ID_DEVICE_TREE, path);
}

int host_machine_id(struct machine_id *m)
{
	memset(m, 0, sizeof(*m));
	m->src = ID_KERNEL;
	if (from_product_uuid(m) || from_dmi_entries(m) ||
	    from_device_tree(m))
		return 0;
	memset(m->id, 0, sizeof(m->id));
	return -ENOENT;
}

static void uuid_nqn(const unsigned char *id, char *buf, size_t len)
{
	char uuid[40];

	snprintf(buf, len, "%s%s", UUID_NQN_PREFIX,
		 uuid_str(id, uuid, sizeof(uuid)));
}

int host_gen_hostnqn(char *buf, size_t len, struct machine_id *m)
{
	unsigned char id[RBLK_HOSTID_LEN];

	if (!host_machine_id(m)) {
		uuid_nqn(m->id, buf, len);
		return 0;
	}
	/* RFC 4122 version 4, as libnvme's nvme_uuid_random(). */
	if (getrandom(id, sizeof(id), 0) != sizeof(id))
		return -errno;
	id[6] = (id[6] & 0x0f) | 0x40;
	id[8] = (id[8] & 0x3f) | 0x80;
	uuid_nqn(id, buf, len);
	return 1;
}

/* The machine's UUID for @h, looked for once. */
static const struct machine_id *machine(struct host_info *h)
{
	if (!h->machine_tried) {
		h->machine_tried = true;
		host_machine_id(&h->machine);
	}
	return h->machine.src != ID_KERNEL ? &h->machine : NULL;
}

/* The UUID of a "nqn.2014-08.org.nvmexpress:uuid:<UUID>" host NQN. */
static bool uuid_of_nqn(const char *nqn, unsigned char *id)
{
	size_t n = strlen(UUID_NQN_PREFIX);

	return !strncmp(nqn, UUID_NQN_PREFIX, n) &&
	       !opts_parse_uuid(nqn + n, id);
}

static bool module_loaded(void)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", test_root(), MODULE_DIR);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int host_module_version(char *buf, size_t len)
{
	char path[512];
	int ret;

	if (!module_loaded())
		return 0;
	snprintf(path, sizeof(path), "%s%s/version", test_root(), MODULE_DIR);
	ret = read_line(path, buf, len);
	/* A module without MODULE_VERSION has no such file. */
	if (!ret || (ret > 0 && !buf[0]))
		return -ENOENT;
	return ret;
}

static void read_module(struct host_info *h)
{
	char path[512];

	h->module_loaded = module_loaded();
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

/*
 * libnvme's nvmf_hostnqn_from_file() and nvmf_hostid_from_file(): the
 * variable @var, if set, stands for the file: its value, or if empty no
 * file.  1 with the value in @buf, 0 for none, or read_id_file()'s.
 */
static int read_id(const char *var, const char *path, char *buf, size_t len,
		   char *err, size_t err_len, enum id_source *src)
{
	const char *env = getenv(var);

	if (!env) {
		*src = ID_FILE;
		return read_id_file(path, buf, len, err, err_len);
	}
	*src = ID_ENV;
	if (!*env)
		return 0;
	/* Cut one past the longest valid value: refused as invalid. */
	snprintf(buf, len, "%s", env);
	return 1;
}

int host_resolve(struct host_info *h, const struct cfg *cfg, char *err,
		 size_t len)
{
	enum id_source src;
	const struct machine_id *m;
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
		ret = read_id(HOST_ENV_NQN, h->nqn_file, buf, sizeof(buf),
			      err, len, &src);
		if (ret < 0)
			return ret;
		if (ret) {
			if (!opts_nqn_valid(buf)) {
				snprintf(err, len,
					 "%s: not a host NQN (1 to %d characters)",
					 src == ID_ENV ? HOST_ENV_NQN :
					 h->nqn_file, RBLK_NQN_MAX_LEN);
				return -1;
			}
			strcpy(h->hostnqn, buf);
			h->nqn_src = src;
		} else if (machine(h)) {
			m = machine(h);
			uuid_nqn(m->id, h->hostnqn, sizeof(h->hostnqn));
			h->nqn_src = m->src;
		}
	}

	if (cfg->set & OPT(HOSTID)) {
		memcpy(h->hostid, cfg->hostid, sizeof(h->hostid));
		h->id_src = ID_OPTION;
		return 0;
	}
	ret = read_id(HOST_ENV_ID, h->id_file, buf, sizeof(buf), err, len,
		      &src);
	if (ret < 0)
		return ret;
	if (ret) {
		if (opts_parse_uuid(buf, h->hostid)) {
			snprintf(err, len, "%s: '%s' is not a UUID",
				 src == ID_ENV ? HOST_ENV_ID : h->id_file,
				 opts_shown(buf));
			return -1;
		}
		h->id_src = src;
	} else if (h->nqn_src != ID_KERNEL &&
		   uuid_of_nqn(h->hostnqn, h->hostid)) {
		h->id_src = ID_HOSTNQN;
	} else if (h->nqn_src != ID_KERNEL && machine(h)) {
		/* Another form of NQN: libnvme's nvmf_hostid_generate(). */
		m = machine(h);
		memcpy(h->hostid, m->id, sizeof(h->hostid));
		h->id_src = m->src;
	}
	return 0;
}

int host_read_key(struct host_info *h, char *err, size_t len)
{
	int ret;

	if (h->key_read)
		return 0;
	host_conf_path("hostkey", h->key_file, sizeof(h->key_file));
	ret = read_line(h->key_file, h->key, sizeof(h->key));
	if (ret < 0) {
		host_forget_key(h);
		file_err(err, len, h->key_file, ret);
		/* Root's file (chmod 600), read by another user. */
		return ret == -EACCES || ret == -EPERM ? ret : -EINVAL;
	}
	/* Never quoted, not even in part: it is a secret. */
	if (ret && h->key[0] && !opts_dhchap_secret_valid(h->key)) {
		host_forget_key(h);
		snprintf(err, len,
			 "%s: not a DH-HMAC-CHAP key (DHHC-1:NN:<base64>:, NN 00-03)",
			 h->key_file);
		return -EINVAL;
	}
	h->key_read = true;
	h->has_key = ret && h->key[0];
	return 0;
}

void host_apply_key(struct host_info *h, struct cfg *cfg)
{
	h->key_used = h->has_key && !(cfg->set & OPT(DHCHAP_SECRET));
	if (!h->key_used)
		return;
	cfg->dhchap_secret = h->key;
	cfg->dhchap_default = true;
}

void host_forget_key(struct host_info *h)
{
	explicit_bzero(h->key, sizeof(h->key));
	h->has_key = false;
	h->key_read = false;
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
