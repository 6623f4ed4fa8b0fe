// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of nvmecfg's host identity (host.c): which host NQN and host
 * id a connect sends, from the options, fake /etc/nvme files, a fake
 * machine UUID (DMI, device tree) and a fake /sys/module/rblk under
 * $NVMECFG_TEST_ROOT.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host.h"
#include "ktap.h"
#include "output.h"

#define UUID_A		"12345678-9abc-def0-0123-456789abcdef"
#define UUID_B		"fedcba98-7654-3210-fedc-ba9876543210"
#define UUID_NQN_A	"nqn.2014-08.org.nvmexpress:uuid:" UUID_A
#define UUID_NQN_B	"nqn.2014-08.org.nvmexpress:uuid:" UUID_B
/* As a machine's firmware may give it: uppercase. */
#define UUID_DMI	"4C4C4544-0042-3510-8052-B4C04F4E4B31"
#define UUID_DMI_LOW	"4c4c4544-0042-3510-8052-b4c04f4e4b31"
#define UUID_NQN_DMI	"nqn.2014-08.org.nvmexpress:uuid:" UUID_DMI_LOW
#define UUID_ZERO	"00000000-0000-0000-0000-000000000000"
#define PRODUCT_UUID	"/sys/class/dmi/id/product_uuid"
#define DMI_ENTRY	"/sys/firmware/dmi/entries/1-0"
#define DT_UUID		"/proc/device-tree/ibm,partition-uuid"

static char root[256];
static struct host_info h;
static char err[600];

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		printf("# cannot write %s\n", path);
		exit(1);
	}
}

static void rm(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	unlink(path);
}

static void mkdirs(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	mkdir(path, 0755);
}

/* @len bytes, NULs and all. */
static void put_raw(const char *rel, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		printf("# cannot write %s\n", path);
		exit(1);
	}
}

/* The machine's UUID sources, each empty. */
static void no_machine_id(void)
{
	char cmd[3 * sizeof(root) + 64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/class' '%s/sys/firmware' '%s/proc'",
		 root, root, root);
	if (system(cmd))
		exit(1);
	mkdirs("/sys/class");
	mkdirs("/sys/class/dmi");
	mkdirs("/sys/class/dmi/id");
	mkdirs("/sys/firmware");
	mkdirs("/sys/firmware/dmi");
	mkdirs("/sys/firmware/dmi/entries");
	mkdirs("/proc");
	mkdirs("/proc/device-tree");
}

/*
 * An SMBIOS type 1 structure (System Information) with the UUID
 * 4c4c4544-0042-3510-8052-b4c04f4e4b31, or @fill in each UUID byte
 * (>= 0), at /sys/firmware/dmi/entries/1-0.
 */
static void put_dmi_entry(int type, int fill)
{
	static const unsigned char uuid[16] = {
		/* The first three fields little-endian (SMBIOS 2.6+). */
		0x44, 0x45, 0x4c, 0x4c, 0x42, 0x00, 0x10, 0x35,
		0x80, 0x52, 0xb4, 0xc0, 0x4f, 0x4e, 0x4b, 0x31,
	};
	unsigned char raw[27] = { 1, 27, 0x01, 0x00, 1, 2, 3, 4 };
	char t[8];

	if (fill >= 0)
		memset(raw + 8, fill, 16);
	else
		memcpy(raw + 8, uuid, 16);
	mkdirs(DMI_ENTRY);
	snprintf(t, sizeof(t), "%d\n", type);
	put(DMI_ENTRY "/type", t);
	put_raw(DMI_ENTRY "/raw", raw, sizeof(raw));
}

/* A fresh root: /etc/nvme empty, no module. */
static void reset(void)
{
	rm("/etc/nvme/hostnqn");
	rm("/etc/nvme/hostid");
	rm("/etc/nvme/hostkey");
	rm("/sys/module/rblk/parameters/hostnqn");
	rm("/sys/module/rblk/parameters/hostid");
	rmdir(strcat(strcpy(err, root), "/sys/module/rblk/parameters"));
	rmdir(strcat(strcpy(err, root), "/sys/module/rblk"));
	err[0] = '\0';
	no_machine_id();
}

static int resolve(const char *hostnqn, const char *hostid)
{
	struct cfg cfg = { 0 };

	if (hostnqn) {
		cfg.hostnqn = hostnqn;
		cfg.set |= OPT(HOSTNQN);
	}
	if (hostid) {
		if (opts_parse_uuid(hostid, cfg.hostid))
			return -2;
		cfg.set |= OPT(HOSTID);
	}
	err[0] = '\0';
	return host_resolve(&h, &cfg, err, sizeof(err));
}

static const char *id(void)
{
	static char buf[40];

	return uuid_str(h.hostid, buf, sizeof(buf));
}

static void nothing_anywhere(void)
{
	reset();
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_KERNEL && h.id_src == ID_KERNEL);
	CHECK(!h.module_loaded);
	CHECK_CONTAINS(h.nqn_file, "/etc/nvme/hostnqn");
	CHECK_PREFIX(h.nqn_file, root);
}

static void options_win(void)
{
	reset();
	put("/etc/nvme/hostnqn", "nqn.file\n");
	put("/etc/nvme/hostid", UUID_B "\n");
	CHECK(resolve("nqn.option", UUID_A) == 0);
	CHECK_STR(h.hostnqn, "nqn.option");
	CHECK(h.nqn_src == ID_OPTION);
	CHECK_STR(id(), UUID_A);
	CHECK(h.id_src == ID_OPTION);
}

static void files(void)
{
	reset();
	/* First line only, blanks around it trimmed, as nvme-cli. */
	put("/etc/nvme/hostnqn", "  nqn.2014-08.org.example:host \t\nsecond\n");
	put("/etc/nvme/hostid", "\t" UUID_B "  ");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK_STR(h.hostnqn, "nqn.2014-08.org.example:host");
	CHECK(h.nqn_src == ID_FILE);
	CHECK_STR(id(), UUID_B);
	CHECK(h.id_src == ID_FILE);

	/* Any NQN the kernel accepts. */
	put("/etc/nvme/hostnqn", "blktests-host-1\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK_STR(h.hostnqn, "blktests-host-1");
}

static void hostid_from_hostnqn(void)
{
	reset();
	put("/etc/nvme/hostnqn", UUID_NQN_A "\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_FILE);
	CHECK_STR(id(), UUID_A);
	CHECK(h.id_src == ID_HOSTNQN);

	/* From the option's NQN as well. */
	reset();
	CHECK(resolve(UUID_NQN_A, NULL) == 0);
	CHECK(h.id_src == ID_HOSTNQN);
	CHECK_STR(id(), UUID_A);

	/* The hostid file comes first. */
	put("/etc/nvme/hostid", UUID_B "\n");
	CHECK(resolve(UUID_NQN_A, NULL) == 0);
	CHECK(h.id_src == ID_FILE);
	CHECK_STR(id(), UUID_B);

	/* Not a UUID form: the kernel's host id. */
	reset();
	CHECK(resolve("nqn.2014-08.org.nvmexpress:uuid:not-a-uuid", NULL) == 0);
	CHECK(h.id_src == ID_KERNEL);
	CHECK(resolve("nqn.2014-08.org.example:" UUID_A, NULL) == 0);
	CHECK(h.id_src == ID_KERNEL);
}

static void bad_files(void)
{
	char nqn[300];

	reset();
	put("/etc/nvme/hostid", "not-a-uuid\n");
	CHECK(resolve(NULL, NULL) == -1);
	CHECK_CONTAINS(err, "/etc/nvme/hostid: 'not-a-uuid' is not a UUID");
	CHECK_PREFIX(err, root);
	/* --hostid makes the file irrelevant. */
	CHECK(resolve(NULL, UUID_A) == 0);

	reset();
	memset(nqn, 'x', RBLK_NQN_MAX_LEN + 1);
	strcpy(nqn + RBLK_NQN_MAX_LEN + 1, "\n");
	put("/etc/nvme/hostnqn", nqn);
	CHECK(resolve(NULL, NULL) == -1);
	CHECK_CONTAINS(err, "/etc/nvme/hostnqn: ");
	nqn[RBLK_NQN_MAX_LEN] = '\n';
	nqn[RBLK_NQN_MAX_LEN + 1] = '\0';
	put("/etc/nvme/hostnqn", nqn);
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(strlen(h.hostnqn) == RBLK_NQN_MAX_LEN);
	/* --hostnqn makes it irrelevant. */
	CHECK(resolve("nqn.option", NULL) == 0);

	/* A directory where the file should be: unreadable, said so. */
	reset();
	mkdirs("/etc/nvme/hostid");
	CHECK(resolve(NULL, NULL) == -1);
	CHECK_CONTAINS(err, "/etc/nvme/hostid: ");
	rmdir(strcat(strcpy(err, root), "/etc/nvme/hostid"));
}

/*
 * An empty file (0 bytes) is no file, as libnvme takes it: the next source
 * is used, no error.  A blank first line is a value libnvme would pass on
 * empty (nvme-cli then leaves the choice to the kernel): an error here.
 */
static void blank_files(void)
{
	static const char *const blank[] = { "" };
	static const char *const bad[] = { "\n", " \t \n", "  ", "\nnqn.second\n" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		reset();
		put("/etc/nvme/hostnqn", bad[i]);
		CHECK(resolve(NULL, NULL) == -1);
		CHECK_CONTAINS(err, "/etc/nvme/hostnqn: not a host NQN");
		reset();
		put("/etc/nvme/hostid", bad[i]);
		CHECK(resolve(NULL, NULL) == -1);
		CHECK_CONTAINS(err, "/etc/nvme/hostid: ");
	}
	for (i = 0; i < ARRAY_SIZE(blank); i++) {
		reset();
		put("/etc/nvme/hostnqn", blank[i]);
		put("/etc/nvme/hostid", blank[i]);
		CHECK(resolve(NULL, NULL) == 0);
		CHECK_STR(err, "");
		CHECK(h.nqn_src == ID_KERNEL && h.id_src == ID_KERNEL);

		/* The next source: the machine's UUID. */
		put(PRODUCT_UUID, UUID_DMI "\n");
		CHECK(resolve(NULL, NULL) == 0);
		CHECK_STR(h.hostnqn, UUID_NQN_DMI);
		CHECK(h.nqn_src == ID_DMI);
		CHECK(h.id_src == ID_HOSTNQN);
		CHECK_STR(id(), UUID_DMI_LOW);

		/* Each file on its own. */
		put("/etc/nvme/hostnqn", UUID_NQN_A "\n");
		CHECK(resolve(NULL, NULL) == 0);
		CHECK(h.nqn_src == ID_FILE && h.id_src == ID_HOSTNQN);
		CHECK_STR(id(), UUID_A);
		put("/etc/nvme/hostnqn", blank[i]);
		put("/etc/nvme/hostid", UUID_B "\n");
		CHECK(resolve(NULL, NULL) == 0);
		CHECK(h.nqn_src == ID_DMI && h.id_src == ID_FILE);
		CHECK_STR(id(), UUID_B);
	}
}

static void module_defaults(void)
{
	reset();
	mkdirs("/sys/module/rblk");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.module_loaded);
	CHECK_STR(h.module_hostnqn, "");

	mkdirs("/sys/module/rblk/parameters");
	put("/sys/module/rblk/parameters/hostnqn", UUID_NQN_A "\n");
	put("/sys/module/rblk/parameters/hostid", UUID_B "\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.module_loaded);
	CHECK_STR(h.module_hostnqn, UUID_NQN_A);
	CHECK_STR(h.module_hostid, UUID_B);
	/* Not sent: the kernel applies its own. */
	CHECK(h.nqn_src == ID_KERNEL && h.id_src == ID_KERNEL);
}

static void apply(void)
{
	struct cfg cfg = { 0 };

	reset();
	put("/etc/nvme/hostnqn", UUID_NQN_A "\n");
	CHECK(resolve(NULL, NULL) == 0);
	host_apply(&h, &cfg);
	CHECK((cfg.set & (OPT(HOSTNQN) | OPT(HOSTID))) ==
	      (OPT(HOSTNQN) | OPT(HOSTID)));
	CHECK_STR(cfg.hostnqn, UUID_NQN_A);
	CHECK(!memcmp(cfg.hostid, h.hostid, sizeof(cfg.hostid)));

	reset();
	memset(&cfg, 0, sizeof(cfg));
	CHECK(resolve(NULL, NULL) == 0);
	host_apply(&h, &cfg);
	CHECK(!cfg.set && !cfg.hostnqn);
}

/* A key of 32 bytes and its CRC, as nvme gen-dhchap-key writes one. */
#define KEY_A	"DHHC-1:00:ia6zGodOr4SEG0Zzaw398rpY0wqipUWj4jWjUh4HWUz6aQ2n:"
#define KEY_B	"DHHC-1:01:hmanLCrDbvXq5W6yb1xg0hhJeNC/qWFxMoTUwa3fJ+k4QwRN:"

/* host_read_key() after a fresh resolve; its error, never the key. */
static int read_key(void)
{
	struct cfg cfg = { 0 };

	err[0] = '\0';
	CHECK(host_resolve(&h, &cfg, err, sizeof(err)) == 0);
	return host_read_key(&h, err, sizeof(err));
}

/* /etc/nvme/hostkey: present, absent, empty, malformed; -S overrides it. */
static void default_key(void)
{
	struct cfg cfg = { 0 };
	char want[600];

	reset();
	CHECK(read_key() == 0 && !h.has_key);
	CHECK_CONTAINS(h.key_file, "/etc/nvme/hostkey");
	CHECK_PREFIX(h.key_file, root);
	host_apply_key(&h, &cfg);
	CHECK(!cfg.dhchap_default && !cfg.dhchap_secret && !h.key_used);

	/* The first line, trimmed, as the other files. */
	put("/etc/nvme/hostkey", "  " KEY_A " \n" KEY_B "\n");
	CHECK(read_key() == 0 && h.has_key);
	host_apply_key(&h, &cfg);
	CHECK(cfg.dhchap_default && h.key_used);
	CHECK_STR(cfg.dhchap_secret, KEY_A);
	CHECK(!(cfg.set & OPT(DHCHAP_SECRET)));

	/* -S wins: the file's key is not used. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.set = OPT(DHCHAP_SECRET);
	cfg.dhchap_secret = KEY_B;
	host_apply_key(&h, &cfg);
	CHECK(!cfg.dhchap_default && !h.key_used);
	CHECK_STR(cfg.dhchap_secret, KEY_B);

	/* Forgotten: zeroed. */
	host_forget_key(&h);
	CHECK(!h.has_key && !h.key[0]);

	/* Empty, or blanks only: no key, as no file. */
	put("/etc/nvme/hostkey", "");
	CHECK(read_key() == 0 && !h.has_key);
	put("/etc/nvme/hostkey", " \t\n" KEY_A "\n");
	CHECK(read_key() == 0 && !h.has_key);

	/* Malformed: an error naming the file, without the key. */
	put("/etc/nvme/hostkey", "DHHC-1:07:SeKrEt:\n");
	CHECK(read_key() == -EINVAL && !h.has_key && !h.key[0]);
	snprintf(want, sizeof(want),
		 "%s/etc/nvme/hostkey: not a DH-HMAC-CHAP key (DHHC-1:NN:<base64>:, NN 00-03)",
		 root);
	CHECK_STR(err, want);
	CHECK(!strstr(err, "SeKrEt"));
	put("/etc/nvme/hostkey", "SeKrEt\n");
	CHECK(read_key() == -EINVAL);
	CHECK(!strstr(err, "SeKrEt"));
	/* Longer than a key can be. */
	memset(want, 'A', 300);
	want[300] = '\0';
	put("/etc/nvme/hostkey", want);
	CHECK(read_key() == -EINVAL);
	CHECK_CONTAINS(err, "/etc/nvme/hostkey: line too long");
	CHECK(!strstr(err, "AAAA"));

	/* Unreadable (a directory will do, for root too). */
	rm("/etc/nvme/hostkey");
	mkdirs("/etc/nvme/hostkey");
	CHECK(read_key() == -EINVAL);
	CHECK_CONTAINS(err, "/etc/nvme/hostkey: ");
	rmdir(strcat(strcpy(want, root), "/etc/nvme/hostkey"));
}

/* Without /etc/nvme/hostnqn: the NQN of the DMI product UUID, lowercase. */
static void dmi_without_file(void)
{
	reset();
	put(PRODUCT_UUID, UUID_DMI "\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK_STR(h.hostnqn, UUID_NQN_DMI);
	CHECK(h.nqn_src == ID_DMI);
	CHECK_CONTAINS(h.machine.path, PRODUCT_UUID);
	CHECK_PREFIX(h.machine.path, root);
	/* The host id: the UUID of that NQN. */
	CHECK_STR(id(), UUID_DMI_LOW);
	CHECK(h.id_src == ID_HOSTNQN);

	/* The hostid file still comes first for the host id. */
	put("/etc/nvme/hostid", UUID_B "\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK_STR(h.hostnqn, UUID_NQN_DMI);
	CHECK(h.id_src == ID_FILE);
	CHECK_STR(id(), UUID_B);
}

static void file_wins_over_dmi(void)
{
	char nqn[RBLK_NQN_MAX_LEN + 3];

	reset();
	put(PRODUCT_UUID, UUID_DMI "\n");
	put("/etc/nvme/hostnqn", UUID_NQN_A "\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK_STR(h.hostnqn, UUID_NQN_A);
	CHECK(h.nqn_src == ID_FILE);
	CHECK_STR(id(), UUID_A);
	CHECK(h.id_src == ID_HOSTNQN);
	/* Not even looked at. */
	CHECK(!h.machine_tried);

	/* And the option over both. */
	CHECK(resolve(UUID_NQN_B, NULL) == 0);
	CHECK_STR(h.hostnqn, UUID_NQN_B);
	CHECK(h.nqn_src == ID_OPTION);
	CHECK_STR(id(), UUID_B);

	/* A bad file is an error, not replaced by the machine's. */
	memset(nqn, 'x', RBLK_NQN_MAX_LEN + 1);
	strcpy(nqn + RBLK_NQN_MAX_LEN + 1, "\n");
	put("/etc/nvme/hostnqn", nqn);
	CHECK(resolve(NULL, NULL) == -1);
	CHECK_CONTAINS(err, "/etc/nvme/hostnqn: not a host NQN");
}

/* An NQN of another form: the host id from the machine, as libnvme. */
static void dmi_hostid_for_other_nqn(void)
{
	reset();
	put(PRODUCT_UUID, UUID_DMI "\n");
	put("/etc/nvme/hostnqn", "nqn.2014-08.org.example:host\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_FILE);
	CHECK(h.id_src == ID_DMI);
	CHECK_STR(id(), UUID_DMI_LOW);
	CHECK(resolve(NULL, UUID_A) == 0);
	CHECK(h.id_src == ID_OPTION);
}

/*
 * What libnvme does not take: all 00h (QEMU without -uuid), all FFh
 * (SMBIOS: not set), not a UUID, empty, unreadable.
 */
static void invalid_dmi_falls_back(void)
{
	static const char *const bad[] = {
		UUID_ZERO "\n", "ffffffff-ffff-ffff-ffff-ffffffffffff\n",
		"Not Settable\n", "\n", "", UUID_DMI "0\n",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		reset();
		put(PRODUCT_UUID, bad[i]);
		CHECK(resolve(NULL, NULL) == 0);
		CHECK(h.nqn_src == ID_KERNEL && h.id_src == ID_KERNEL);
		CHECK(h.machine_tried && h.machine.src == ID_KERNEL);
	}

	/* Unreadable: a directory where the file should be. */
	reset();
	mkdirs(PRODUCT_UUID);
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_KERNEL);

	/* The module's then, as before. */
	reset();
	put(PRODUCT_UUID, UUID_ZERO "\n");
	mkdirs("/sys/module/rblk");
	mkdirs("/sys/module/rblk/parameters");
	put("/sys/module/rblk/parameters/hostnqn", UUID_NQN_B "\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_KERNEL);
	CHECK_STR(h.module_hostnqn, UUID_NQN_B);
}

/* Only root may read product_uuid: said, for show's warning. */
static void dmi_root_only(void)
{
	char path[512];

	if (!geteuid()) {
		printf("# %s: not checked as root (root reads any file)\n",
		       __func__);
		return;
	}
	reset();
	put(PRODUCT_UUID, UUID_DMI "\n");
	snprintf(path, sizeof(path), "%s%s", root, PRODUCT_UUID);
	chmod(path, 0);
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_KERNEL);
	CHECK_CONTAINS(h.machine.denied, PRODUCT_UUID);
}

/* Without product_uuid: the raw SMBIOS System Information (dmi-sysfs). */
static void dmi_entries(void)
{
	reset();
	put_dmi_entry(1, -1);
	CHECK(resolve(NULL, NULL) == 0);
	CHECK_STR(h.hostnqn, UUID_NQN_DMI);
	CHECK(h.nqn_src == ID_DMI);
	CHECK_CONTAINS(h.machine.path, DMI_ENTRY "/raw");

	/* product_uuid first. */
	put(PRODUCT_UUID, UUID_A "\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK_STR(h.hostnqn, UUID_NQN_A);
	CHECK_CONTAINS(h.machine.path, PRODUCT_UUID);

	/* All 00h, as QEMU without -uuid; another type; all FFh. */
	reset();
	put_dmi_entry(1, 0x00);
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_KERNEL);
	reset();
	put_dmi_entry(2, -1);
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_KERNEL);
	reset();
	put_dmi_entry(1, 0xff);
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_KERNEL);
	/* Too short to hold a UUID. */
	reset();
	put_dmi_entry(1, -1);
	put_raw(DMI_ENTRY "/raw", "\x01\x08\x01\x00", 4);
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_KERNEL);
}

/* No DMI (IBM Power): the device tree's partition UUID. */
static void device_tree(void)
{
	static const char dt[] = UUID_B "\0";

	reset();
	put_raw(DT_UUID, dt, sizeof(dt));
	CHECK(resolve(NULL, NULL) == 0);
	CHECK_STR(h.hostnqn, UUID_NQN_B);
	CHECK(h.nqn_src == ID_DEVICE_TREE);
	CHECK_CONTAINS(h.machine.path, DT_UUID);
	CHECK(h.id_src == ID_HOSTNQN);

	/* DMI first. */
	put(PRODUCT_UUID, UUID_DMI "\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_DMI);
	/* An invalid DMI UUID does not hide it. */
	put(PRODUCT_UUID, UUID_ZERO "\n");
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_DEVICE_TREE);

	reset();
	put_raw(DT_UUID, "\0", 1);
	CHECK(resolve(NULL, NULL) == 0);
	CHECK(h.nqn_src == ID_KERNEL);
}

static bool nqn_form(const char *nqn)
{
	unsigned char id[16];

	return !strncmp(nqn, "nqn.2014-08.org.nvmexpress:uuid:", 32) &&
	       !opts_parse_uuid(nqn + 32, id);
}

/* nvme gen-hostnqn: the machine's, the same each time; else random. */
static void gen_hostnqn(void)
{
	char a[RBLK_NQN_MAX_LEN + 1], b[RBLK_NQN_MAX_LEN + 1];
	struct machine_id m;

	reset();
	put(PRODUCT_UUID, UUID_DMI "\n");
	/* The file is not what it generates from. */
	put("/etc/nvme/hostnqn", UUID_NQN_A "\n");
	CHECK(host_gen_hostnqn(a, sizeof(a), &m) == 0);
	CHECK_STR(a, UUID_NQN_DMI);
	CHECK(m.src == ID_DMI);
	CHECK(host_gen_hostnqn(b, sizeof(b), &m) == 0);
	CHECK_STR(b, a);

	reset();
	put(PRODUCT_UUID, UUID_ZERO "\n");
	CHECK(host_gen_hostnqn(a, sizeof(a), &m) == 1);
	CHECK(m.src == ID_KERNEL);
	CHECK(nqn_form(a));
	/* RFC 4122 version 4, variant 10. */
	CHECK(a[32 + 14] == '4');
	CHECK(strchr("89ab", a[32 + 19]) != NULL);
	CHECK(host_gen_hostnqn(b, sizeof(b), &m) == 1);
	CHECK(nqn_form(b) && strcmp(a, b));
}

static const struct ktap_case cases[] = {
	KTAP_CASE(nothing_anywhere),
	KTAP_CASE(options_win),
	KTAP_CASE(files),
	KTAP_CASE(hostid_from_hostnqn),
	KTAP_CASE(bad_files),
	KTAP_CASE(blank_files),
	KTAP_CASE(module_defaults),
	KTAP_CASE(apply),
	KTAP_CASE(dmi_without_file),
	KTAP_CASE(file_wins_over_dmi),
	KTAP_CASE(dmi_hostid_for_other_nqn),
	KTAP_CASE(invalid_dmi_falls_back),
	KTAP_CASE(dmi_root_only),
	KTAP_CASE(dmi_entries),
	KTAP_CASE(device_tree),
	KTAP_CASE(gen_hostnqn),
	KTAP_CASE(default_key),
};

int main(void)
{
	char cmd[300];
	int ret;

	snprintf(root, sizeof(root), "%s/nvmecfg-host.XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("NVMECFG_TEST_ROOT", root, 1);
	mkdirs("/etc");
	mkdirs("/etc/nvme");
	mkdirs("/sys");
	mkdirs("/sys/module");
	ret = ktap_run("host", cases, ARRAY_SIZE(cases));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		ret = 1;
	return ret;
}
