// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of nvmecfg's host identity (host.c): which host NQN and host
 * id a connect sends, from the options, fake /etc/nvme files and a fake
 * /sys/module/rblk under $NVMECFG_TEST_ROOT.
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

/* A fresh root: /etc/nvme empty, no module. */
static void reset(void)
{
	rm("/etc/nvme/hostnqn");
	rm("/etc/nvme/hostid");
	rm("/sys/module/rblk/parameters/hostnqn");
	rm("/sys/module/rblk/parameters/hostid");
	rmdir(strcat(strcpy(err, root), "/sys/module/rblk/parameters"));
	rmdir(strcat(strcpy(err, root), "/sys/module/rblk"));
	err[0] = '\0';
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
	put("/etc/nvme/hostnqn", "\n");
	CHECK(resolve(NULL, NULL) == -1);
	CHECK_CONTAINS(err, "/etc/nvme/hostnqn: not a host NQN (1 to 222 characters)");
	put("/etc/nvme/hostnqn", "");
	CHECK(resolve(NULL, NULL) == -1);
	CHECK_CONTAINS(err, "/etc/nvme/hostnqn: not a host NQN");

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
	put("/etc/nvme/hostnqn", "\n");
	CHECK(resolve("nqn.option", NULL) == 0);

	/* A directory where the file should be: unreadable, said so. */
	reset();
	mkdirs("/etc/nvme/hostid");
	CHECK(resolve(NULL, NULL) == -1);
	CHECK_CONTAINS(err, "/etc/nvme/hostid: ");
	rmdir(strcat(strcpy(err, root), "/etc/nvme/hostid"));
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

static const struct ktap_case cases[] = {
	KTAP_CASE(nothing_anywhere),
	KTAP_CASE(options_win),
	KTAP_CASE(files),
	KTAP_CASE(hostid_from_hostnqn),
	KTAP_CASE(bad_files),
	KTAP_CASE(module_defaults),
	KTAP_CASE(apply),
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
