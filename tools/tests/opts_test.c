// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of nvmecfg's command line parsing (opts.c).
 */
#include "ktap.h"
#include "opts.h"

#define CONNECT_ALLOWED	(OPT(TRANSPORT) | OPT(TRADDR) | OPT(TRSVCID) |	\
			 OPT(NQN) | OPT(HOSTNQN) | OPT(HOSTID) |	\
			 OPT(NSID) | OPT(NR_IO_QUEUES) |		\
			 OPT(QUEUE_SIZE) | OPT(CTRL_LOSS_TMO) |		\
			 OPT(RECONNECT_DELAY) | OPT(KATO) |		\
			 OPT(FAST_IO_FAIL_TMO) | OPT(DUPLICATE_CONNECT) | \
			 OPT(HOST_TRADDR) | OPT(TOS) | OPT(OUTPUT) | OPT(HELP) | \
			 OPT(DHCHAP_SECRET) | OPT(DHCHAP_CTRL_SECRET))
#define CONNECT_REQUIRED (OPT(TRADDR) | OPT(NQN))
#define DEV_ALLOWED	(OPT(DEVICE) | OPT(INDEX) | OPT(OUTPUT) | OPT(HELP))

#define NQN	"nqn.2026-12.io.rblk:test"

static struct cfg cfg;

#define PARSE(allowed, required, ...)					\
	({								\
		char *__argv[] = { "cmd", __VA_ARGS__ };		\
		opts_parse(&cfg, ARRAY_SIZE(__argv),	\
			   __argv, (allowed), (required));		\
	})
#define CONNECT(...) PARSE(CONNECT_ALLOWED, CONNECT_REQUIRED, __VA_ARGS__)
#define DEV(...) PARSE(DEV_ALLOWED, OPT(DEVICE), __VA_ARGS__)

/* A connect line with the required options and one more. */
#define CONNECT_WITH(...) CONNECT("-a", "10.0.0.1", "-n", NQN, __VA_ARGS__)

static void connect_valid(void)
{
	static const unsigned char id[16] = {
		0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	};

	CHECK(CONNECT("-t", "rdma", "-a", "10.99.0.1", "-s", "4420",
		      "-n", NQN, "--hostnqn", "nqn.2014-08.org.example:host",
		      "--hostid", "12345678-9abc-def0-0123-456789ABCDEF",
		      "-N", "2", "-i", "4", "-Q", "256", "-l", "-1",
		      "-c", "3", "-k", "0", "--fast_io_fail_tmo", "30",
		      "-w", "fe80::2%dummy0", "-T", "184", "-D", "-o", "json") ==
	      OPTS_OK);
	CHECK_STR(cfg.traddr, "10.99.0.1");
	CHECK_STR(cfg.trsvcid, "4420");
	CHECK_STR(cfg.nqn, NQN);
	CHECK_STR(cfg.hostnqn, "nqn.2014-08.org.example:host");
	CHECK(!memcmp(cfg.hostid, id, sizeof(id)));
	CHECK(cfg.nsid == 2);
	CHECK(cfg.nr_io_queues == 4);
	CHECK(cfg.queue_size == 256);
	CHECK(cfg.ctrl_loss_tmo == -1);
	CHECK(cfg.reconnect_delay == 3);
	CHECK(cfg.kato == 0);
	CHECK(cfg.fast_io_fail_tmo == 30);
	CHECK_STR(cfg.host_traddr, "fe80::2%dummy0");
	CHECK(cfg.tos == 184 && (cfg.set & OPT(TOS)));
	CHECK(cfg.format == OUT_JSON);
	CHECK(cfg.set & OPT(KATO));
	CHECK(cfg.set & OPT(DUPLICATE_CONNECT));
	CHECK(!(cfg.set & OPT(HELP)));
}

static void duplicate_connect(void)
{
	CHECK(CONNECT_WITH("--duplicate-connect") == OPTS_OK);
	CHECK(cfg.set & OPT(DUPLICATE_CONNECT));
	CHECK(CONNECT_WITH("--duplicate_connect") == OPTS_OK);
	CHECK(cfg.set & OPT(DUPLICATE_CONNECT));
	/* A flag: no value, once. */
	CHECK(CONNECT_WITH("-Dx") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--duplicate-connect (-D) takes no value");
	CHECK(CONNECT_WITH("--duplicate-connect=1") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "takes no value");
	CHECK(CONNECT_WITH("-D", "-D") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "given more than once");
	/* connect only. */
	CHECK(DEV("rblk0", "-D") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '-D'");
}

static void connect_minimal(void)
{
	CHECK(CONNECT("-a", "fe80::1", "-n", NQN) == OPTS_OK);
	/* No -N: every namespace; no -D: no second controller. */
	CHECK(cfg.set == (OPT(TRADDR) | OPT(NQN)));
	CHECK(cfg.trsvcid == NULL);
	CHECK(cfg.format == OUT_NORMAL);
}

static void connect_option_spellings(void)
{
	CHECK(CONNECT("--traddr=10.0.0.1", "--nqn", NQN, "-i8",
		      "--queue_size=64", "--nr-io-queues", "2") ==
	      OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "more than once");

	CHECK(CONNECT("--traddr=10.0.0.1", "--nqn", NQN, "-i8",
		      "--queue_size=64", "--keep_alive_tmo", "7",
		      "--fast_io_fail_tmo=-1") == OPTS_OK);
	CHECK_STR(cfg.traddr, "10.0.0.1");
	CHECK(cfg.nr_io_queues == 8);
	CHECK(cfg.queue_size == 64);
	CHECK(cfg.kato == 7);
	CHECK(cfg.fast_io_fail_tmo == -1);
}

static void connect_missing_traddr(void)
{
	CHECK(CONNECT("-n", NQN) == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "missing required option --traddr (-a)");
}

static void connect_missing_nqn(void)
{
	CHECK(CONNECT("-a", "10.0.0.1") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "missing required option --nqn (-n)");
}

static void connect_missing_value(void)
{
	CHECK(CONNECT("-n", NQN, "-a") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--traddr (-a) needs a value");
}

static void connect_empty_value(void)
{
	CHECK(CONNECT_WITH("-s", "") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "empty value");
}

static void bad_numbers(void)
{
	static const char *const bad[] = {
		"", "abc", "1x", "+1", " 1", "1 ", "0x10", "1e3", "4.5",
		"-1x", "-",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		cfg.err[0] = '\0';
		CHECK(CONNECT_WITH("-i", (char *)bad[i]) == OPTS_ERROR);
		CHECK_CONTAINS(cfg.err, "is not a number");
	}
	CHECK(CONNECT_WITH("-l=1") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "'=1' is not a number");
	CHECK(CONNECT_WITH("-l", "-") == OPTS_ERROR);
	CHECK(CONNECT_WITH("-N", "two") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--nsid (-N): 'two' is not a number");
}

static void out_of_range(void)
{
	static const struct {
		const char *opt, *val, *msg;
	} cases[] = {
		{ "-i", "0", "--nr-io-queues (-i): 0 is out of range 1-128" },
		{ "-i", "129", "out of range 1-128" },
		{ "-i", "1000", "out of range 1-128" },
		{ "-i", "99999999999999999999999", "out of range" },
		{ "-Q", "1", "--queue-size (-Q): 1 is out of range 16-1024" },
		{ "-Q", "1025", "out of range 16-1024" },
		{ "-k", "3601", "out of range 0-3600" },
		{ "-c", "0", "out of range 1-3600" },
		{ "-l", "-2", "out of range -1-604800" },
		{ "-l", "604801", "out of range -1-604800" },
		{ "--fast_io_fail_tmo", "-2", "out of range -1-604800" },
		/* Negative numbers are numbers, out of range. */
		{ "-i", "-5", "--nr-io-queues (-i): -5 is out of range 1-128" },
		{ "-k", "-1", "--keep-alive-tmo (-k): -1 is out of range 0-3600" },
		{ "-T", "-1", "--tos (-T): -1 is out of range 0-255" },
		{ "-T", "256", "--tos (-T): 256 is out of range 0-255" },
		{ "-N", "-99999999999999999999", "out of range 1-4294967294" },
		{ "-l", "-99999999999999999999", "out of range" },
		{ "-N", "0", "out of range 1-4294967294" },
		{ "-N", "4294967295", "out of range 1-4294967294" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		cfg.err[0] = '\0';
		CHECK(CONNECT_WITH((char *)cases[i].opt,
				   (char *)cases[i].val) == OPTS_ERROR);
		CHECK_CONTAINS(cfg.err, cases[i].msg);
	}
}

static void range_limits(void)
{
	CHECK(CONNECT_WITH("-i", "1", "-Q", "16", "-k", "3600", "-c", "1",
			   "-l", "604800", "--fast-io-fail-tmo", "0",
			   "-N", "4294967294", "-T", "0") ==
	      OPTS_OK);
	CHECK(cfg.nsid == 4294967294u);
	CHECK(cfg.tos == 0 && (cfg.set & OPT(TOS)));
	CHECK(CONNECT_WITH("-T", "255") == OPTS_OK && cfg.tos == 255);
	CHECK(CONNECT_WITH("-i", "128", "-Q", "1024", "-c", "3600",
			   "-l", "0") == OPTS_OK);
	CHECK(cfg.nr_io_queues == 128 && cfg.queue_size == 1024);
	CHECK(cfg.ctrl_loss_tmo == 0);
}

/*
 * -s is sent as a string, but only a port number is one: checked here,
 * on the command line and through opts_set() (config.json) alike.
 */
static void trsvcid_port(void)
{
	static const struct {
		const char *val, *msg;
	} bad[] = {
		{ "abc", "--trsvcid (-s): 'abc' is not a number" },
		{ "99999", "--trsvcid (-s): 99999 is out of range 1-65535" },
		{ "65536", "--trsvcid (-s): 65536 is out of range 1-65535" },
		{ "0", "--trsvcid (-s): 0 is out of range 1-65535" },
		{ "-1", "--trsvcid (-s): -1 is out of range 1-65535" },
		{ "4420x", "--trsvcid (-s): '4420x' is not a number" },
		{ "+4420", "--trsvcid (-s): '+4420' is not a number" },
		{ " 4420", "--trsvcid (-s): ' 4420' is not a number" },
		{ "0x1144", "--trsvcid (-s): '0x1144' is not a number" },
		{ "", "--trsvcid (-s): empty value" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		cfg.err[0] = '\0';
		CHECK(CONNECT_WITH("-s", (char *)bad[i].val) == OPTS_ERROR);
		CHECK_STR(cfg.err, bad[i].msg);
		memset(&cfg, 0, sizeof(cfg));
		CHECK(opts_set(&cfg, OPT_TRSVCID, bad[i].val) == OPTS_ERROR);
		CHECK_STR(cfg.err, bad[i].msg);
		CHECK(!(cfg.set & OPT(TRSVCID)) && !cfg.trsvcid);
	}
	CHECK(CONNECT_WITH("-s", "1") == OPTS_OK);
	CHECK_STR(cfg.trsvcid, "1");
	CHECK(CONNECT_WITH("--trsvcid=65535") == OPTS_OK);
	CHECK_STR(cfg.trsvcid, "65535");
	memset(&cfg, 0, sizeof(cfg));
	CHECK(opts_set(&cfg, OPT_TRSVCID, "4421") == OPTS_OK);
	CHECK_STR(cfg.trsvcid, "4421");
	CHECK(cfg.set & OPT(TRSVCID));
}

static void unknown_option(void)
{
	CHECK(CONNECT_WITH("--bogus") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '--bogus'");
	CHECK(CONNECT_WITH("-z") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '-z'");
	/* Valid elsewhere, not for this command. */
	CHECK(CONNECT_WITH("--index", "1") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '--index'");
	CHECK(PARSE(OPT(OUTPUT) | OPT(HELP), 0, "-a", "1.2.3.4") ==
	      OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '-a'");
	/* No abbreviations: they break when options are added. */
	CHECK(CONNECT_WITH("--tradd", "x") == OPTS_ERROR);
}

static void unexpected_argument(void)
{
	CHECK(CONNECT_WITH("extra") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unexpected argument 'extra'");
}

static void duplicate_option(void)
{
	CHECK(CONNECT("-a", "10.0.0.1", "-n", NQN, "-a", "10.0.0.2") ==
	      OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--traddr (-a) given more than once");
}

static void transport(void)
{
	CHECK(CONNECT_WITH("-t", "rdma") == OPTS_OK);
	CHECK(CONNECT_WITH("-t", "tcp") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "'tcp' is not supported, only rdma");
	CHECK(CONNECT_WITH("--transport=RDMA") == OPTS_ERROR);
}

static void nqn_length(void)
{
	char nqn[RBLK_NQN_MAX_LEN + 2];

	memset(nqn, 'x', sizeof(nqn) - 1);
	nqn[sizeof(nqn) - 1] = '\0';
	memcpy(nqn, "nqn.", 4);
	/* 223 characters: one more than the Linux host takes. */
	CHECK(CONNECT("-a", "10.0.0.1", "-n", nqn) == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--nqn (-n): longer than 222 characters");
	CHECK(CONNECT_WITH("-q", nqn) == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--hostnqn (-q): longer than 222");

	nqn[RBLK_NQN_MAX_LEN] = '\0';
	CHECK(CONNECT("-a", "10.0.0.1", "-n", nqn) == OPTS_OK);
}

static void traddr_length(void)
{
	char addr[RBLK_TRADDR_MAX_LEN + 2];

	memset(addr, '1', sizeof(addr) - 1);
	addr[sizeof(addr) - 1] = '\0';
	CHECK(CONNECT("-a", addr, "-n", NQN) == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "longer than 255");
}

static void hostid(void)
{
	CHECK(CONNECT_WITH("-I", "12345678-9abc-def0-0123-456789abcdef") ==
	      OPTS_OK);
	CHECK(cfg.hostid[0] == 0x12 && cfg.hostid[15] == 0xef);
	CHECK(CONNECT_WITH("-I", "12345678-9abc-def0-0123-456789abcde") ==
	      OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "is not a UUID");
	CHECK(CONNECT_WITH("-I", "123456789abcdef00123456789abcdef") ==
	      OPTS_ERROR);
	CHECK(CONNECT_WITH("-I", "12345678-9abc-def0-0123-456789abcdeg") ==
	      OPTS_ERROR);
	CHECK(CONNECT_WITH("-I", "12345678_9abc-def0-0123-456789abcdef") ==
	      OPTS_ERROR);
}

static void output_format(void)
{
	CHECK(PARSE(OPT(OUTPUT), 0, "-o", "normal") == OPTS_OK);
	CHECK(cfg.format == OUT_NORMAL);
	CHECK(PARSE(OPT(OUTPUT), 0, "--output-format=json") == OPTS_OK);
	CHECK(cfg.format == OUT_JSON);
	CHECK(PARSE(OPT(OUTPUT), 0, "-o", "xml") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "'xml' is not normal or json");
}

static void help(void)
{
	/* --help wins over missing and even wrong options. */
	CHECK(CONNECT("--help") == OPTS_HELP);
	CHECK(CONNECT("-h") == OPTS_HELP);
	CHECK(CONNECT("-a", "10.0.0.1", "-h") == OPTS_HELP);
	CHECK(CONNECT("--help=yes") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "takes no value");
	CHECK(DEV("--help") == OPTS_HELP);
}

static void device_selection(void)
{
	CHECK(DEV("rblk0") == OPTS_OK);
	CHECK_STR(cfg.device, "rblk0");
	CHECK(!(cfg.set & OPT(INDEX)));
	CHECK(DEV("/dev/rblk3") == OPTS_OK);
	CHECK_STR(cfg.device, "rblk3");
	CHECK(DEV("-d", "rblk1") == OPTS_OK);
	CHECK_STR(cfg.device, "rblk1");
	CHECK(DEV("--device=/dev/rblk2") == OPTS_OK);
	CHECK_STR(cfg.device, "rblk2");
	CHECK(DEV("--index", "5") == OPTS_OK);
	CHECK(cfg.index == 5 && (cfg.set & OPT(INDEX)));
	CHECK(DEV("-o", "json", "--", "rblk4") == OPTS_OK);
	CHECK_STR(cfg.device, "rblk4");
	/* Controllers are named the same ways. */
	CHECK(DEV("rblk-ctrl0") == OPTS_OK);
	CHECK_STR(cfg.device, "rblk-ctrl0");
	CHECK(DEV("-d", "rblk-ctrl12") == OPTS_OK);
	CHECK_STR(cfg.device, "rblk-ctrl12");
	CHECK(DEV("--device=/dev/rblk-ctrl3") == OPTS_OK);
	CHECK_STR(cfg.device, "rblk-ctrl3");
}

static void device_errors(void)
{
	CHECK(DEV() == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "no device given");
	CHECK(DEV("-o", "json") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "no device given");
	CHECK(DEV("rblk0", "rblk1") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "more than one device");
	CHECK(DEV("rblk-ctrl0", "rblk0") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "more than one device");
	CHECK(DEV("rblk0", "-d", "rblk0") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "more than one device");
	CHECK(DEV("--index", "1", "-d", "rblk1") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "more than one device");
	CHECK(DEV("--index", "-1") == OPTS_ERROR);
	CHECK(DEV("--index", "2147483648") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "out of range 0-2147483647");
	CHECK(DEV("/dev/") == OPTS_ERROR);
	CHECK(DEV("rblk0123456789012345678901234567") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "too long");
}

static void monitor_limits(void)
{
	unsigned int mon = OPT(OUTPUT) | OPT(COUNT) | OPT(TIMEOUT);

	CHECK(PARSE(mon, 0, "--count", "3", "--timeout", "10") == OPTS_OK);
	CHECK(cfg.count == 3 && cfg.timeout == 10);
	CHECK(PARSE(mon, 0, "--count", "0") == OPTS_ERROR);
	CHECK(PARSE(mon, 0, "--timeout", "0") == OPTS_ERROR);
	CHECK(PARSE(mon, 0, "--timeout", "2147484") == OPTS_ERROR);
}

static void help_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	opts_help(f, CONNECT_ALLOWED);
	fclose(f);
	CHECK_CONTAINS(buf, "-a, --traddr ADDR");
	CHECK_CONTAINS(buf, "-N, --nsid NSID");
	CHECK_CONTAINS(buf, "expose only this namespace; rblk-specific");
	CHECK_CONTAINS(buf, "-D, --duplicate-connect ");
	CHECK_CONTAINS(buf, "-h, --help");
	CHECK(!strstr(buf, "--index"));
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	opts_help(f, DEV_ALLOWED);
	fclose(f);
	CHECK_CONTAINS(buf, "-d, --device NAME");
	CHECK_CONTAINS(buf, "rblk-ctrlM or namespace rblkN");
	CHECK_CONTAINS(buf, "--index N");
	free(buf);
}

/* A value left out never takes the next option as the value. */
static void missing_value_not_swallowed(void)
{
	CHECK(CONNECT("--traddr", "-n", "X") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--traddr (-a) needs a value");
	CHECK(CONNECT("-a", "--nqn", NQN) == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--traddr (-a) needs a value");
	CHECK(CONNECT_WITH("-q", "-I", "12345678-9abc-def0-0123-456789abcdef") ==
	      OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--hostnqn (-q) needs a value");
	CHECK(CONNECT_WITH("-i", "--queue-size", "32") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--nr-io-queues (-i) needs a value");
	/* A negative number is a value. */
	CHECK(CONNECT_WITH("-l", "-1") == OPTS_OK && cfg.ctrl_loss_tmo == -1);
	/* "-" alone is a value (and here not a number). */
	CHECK(CONNECT_WITH("-i", "-") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "'-' is not a number");
}

/* -h anywhere (before "--") wins over any error, as nvmecfg(8) says. */
static void help_mixed(void)
{
	CHECK(CONNECT("-a", "-h") == OPTS_HELP);
	CHECK(CONNECT("--traddr", "--help", "-n") == OPTS_HELP);
	CHECK(CONNECT_WITH("--frob", "-h") == OPTS_HELP);
	CHECK(CONNECT_WITH("-i", "0", "-h") == OPTS_HELP);
	CHECK(DEV("rblk0", "rblk1", "-h") == OPTS_HELP);
	/* After "--" it is a device name. */
	CHECK(DEV("--", "-h") == OPTS_OK);
	CHECK_STR(cfg.device, "-h");
	/* Not for a parser that does not take it (discovery.conf lines). */
	CHECK(PARSE(OPT(TRADDR), 0, "-h") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '-h'");
}

/* nvme-cli's -f is --host-iface: fast_io_fail_tmo has no short form. */
static void fast_io_fail_long_only(void)
{
	CHECK(CONNECT_WITH("-f", "5") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '-f'");
	CHECK(CONNECT_WITH("--fast_io_fail_tmo", "5") == OPTS_OK);
	CHECK(cfg.fast_io_fail_tmo == 5);
	CHECK(CONNECT_WITH("--fast-io-fail-tmo=6") == OPTS_OK);
	CHECK(cfg.fast_io_fail_tmo == 6);
	CHECK(CONNECT_WITH("--fast_io-fail_tmo", "7") == OPTS_OK);
	CHECK(cfg.fast_io_fail_tmo == 7);
}

static void host_traddr(void)
{
	char addr[RBLK_TRADDR_MAX_LEN + 2];

	CHECK(CONNECT_WITH("-w", "10.0.0.2") == OPTS_OK);
	CHECK_STR(cfg.host_traddr, "10.0.0.2");
	CHECK(cfg.set & OPT(HOST_TRADDR));
	CHECK(CONNECT_WITH("--host-traddr=fe80::2%dummy0") == OPTS_OK);
	CHECK_STR(cfg.host_traddr, "fe80::2%dummy0");
	CHECK(CONNECT_WITH("--host_traddr", "") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--host-traddr (-w): empty value");
	memset(addr, '1', sizeof(addr) - 1);
	addr[sizeof(addr) - 1] = '\0';
	CHECK(CONNECT_WITH("-w", addr) == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--host-traddr (-w): longer than 255");
	CHECK(CONNECT_WITH("-w", "10.0.0.2", "-w", "10.0.0.3") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "given more than once");
}

/* nvme-cli's -S and -C: the form checked, the key never in a message. */
static void dhchap_secret(void)
{
	static char key[] =
		"DHHC-1:00:ia6zGodOr4SEG0Zzaw398rpY0wqipUWj4jWjUh4HWUz6aQ2n:";
	static char bad[] = "DHHC-1:07:SECRETSECRET:";
	char longkey[RBLK_DHCHAP_SECRET_MAX_LEN + 2];

	CHECK(CONNECT_WITH("-S", key) == OPTS_OK);
	CHECK_STR(cfg.dhchap_secret, key);
	CHECK(cfg.set & OPT(DHCHAP_SECRET));
	CHECK(!(cfg.set & OPT(DHCHAP_CTRL_SECRET)));
	CHECK(CONNECT_WITH("--dhchap-secret", key, "--dhchap-ctrl-secret",
			   "DHHC-1:03:a+/=:") == OPTS_OK);
	CHECK_STR(cfg.dhchap_ctrl_secret, "DHHC-1:03:a+/=:");
	CHECK(CONNECT_WITH("--dhchap_secret=DHHC-1:01:abcd:") == OPTS_OK);
	CHECK(CONNECT_WITH("-S", bad) == OPTS_ERROR);
	CHECK_STR(cfg.err, "--dhchap-secret (-S): not a DH-HMAC-CHAP key (DHHC-1:NN:<base64>:, NN 00-03)");
	CHECK(!strstr(cfg.err, "SECRET"));
	CHECK(CONNECT_WITH("-C", "DHHC-1:00:SECRET") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--dhchap-ctrl-secret (-C): not a DH-HMAC-CHAP key");
	CHECK(!strstr(cfg.err, "SECRET"));
	CHECK(CONNECT_WITH("-S", "DHHC-1:00:ab cd:") == OPTS_ERROR);
	CHECK(CONNECT_WITH("-S", "DHHC-1:00::") == OPTS_ERROR);
	CHECK(CONNECT_WITH("-S", "") == OPTS_ERROR);
	CHECK(CONNECT_WITH("-S", key, "-S", key) == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "given more than once");
	memset(longkey, 'A', sizeof(longkey));
	memcpy(longkey, "DHHC-1:01:", 10);
	longkey[RBLK_DHCHAP_SECRET_MAX_LEN - 1] = ':';
	longkey[RBLK_DHCHAP_SECRET_MAX_LEN] = '\0';
	CHECK(opts_dhchap_secret_valid(longkey));
	longkey[RBLK_DHCHAP_SECRET_MAX_LEN - 1] = 'A';
	longkey[RBLK_DHCHAP_SECRET_MAX_LEN] = ':';
	longkey[RBLK_DHCHAP_SECRET_MAX_LEN + 1] = '\0';
	CHECK(!opts_dhchap_secret_valid(longkey));
	CHECK(opts_from_attr(RBLK_ATTR_DHCHAP_SECRET) == OPT_DHCHAP_SECRET);
	CHECK(opts_from_attr(RBLK_ATTR_DHCHAP_CTRL_SECRET) ==
	      OPT_DHCHAP_CTRL_SECRET);
}

/*
 * An argument that holds a key is never quoted in an error, wherever it
 * stands: a stray one, a misspelt option's, another option's value.
 */
#define SHOWN_KEY	"DHHC-1:02:Wm9vbUtleVNlS3JFdFNlS3JFdFNlS3JFdFNlS3JFdFNlS3JFdFNlS3JFdFNlS3JFdA==:"
static void dhchap_key_never_quoted(void)
{
	static const struct {
		char *args[2];
		const char *err;
	} cases[] = {
		{ { SHOWN_KEY }, "unexpected argument '" OPTS_KEY_SHOWN "'" },
		{ { "--dhchap-secert=" SHOWN_KEY },
		  "unknown option '" OPTS_KEY_SHOWN "'" },
		{ { "-X" SHOWN_KEY }, "unknown option '" OPTS_KEY_SHOWN "'" },
		{ { "-I", SHOWN_KEY },
		  "--hostid (-I): '" OPTS_KEY_SHOWN "' is not a UUID" },
		{ { "-i", SHOWN_KEY },
		  "--nr-io-queues (-i): '" OPTS_KEY_SHOWN "' is not a number" },
		{ { "-i", "-1" SHOWN_KEY },
		  "--nr-io-queues (-i): '" OPTS_KEY_SHOWN "' is not a number" },
		{ { "-t", SHOWN_KEY },
		  "--transport: '" OPTS_KEY_SHOWN "' is not supported, only rdma" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (cases[i].args[1])
			CHECK(CONNECT_WITH("-S", SHOWN_KEY, cases[i].args[0],
					   cases[i].args[1]) == OPTS_ERROR);
		else
			CHECK(CONNECT_WITH("-S", SHOWN_KEY,
					   cases[i].args[0]) == OPTS_ERROR);
		CHECK_STR(cfg.err, cases[i].err);
		CHECK(!strstr(cfg.err, "Wm9v"));
	}
	CHECK(DEV("-o", SHOWN_KEY) == OPTS_ERROR);
	CHECK_STR(cfg.err, "--output-format (-o): '" OPTS_KEY_SHOWN "' is not normal or json");
	CHECK(DEV(SHOWN_KEY SHOWN_KEY) == OPTS_ERROR);
	CHECK_STR(cfg.err, "device name '" OPTS_KEY_SHOWN "' too long");
	CHECK(PARSE(OPT(IOPOLICY), 0, "--iopolicy", SHOWN_KEY) == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--iopolicy: '" OPTS_KEY_SHOWN "' is not ");
	CHECK_STR(opts_shown("x DHHC-1: y"), OPTS_KEY_SHOWN);
	CHECK_STR(opts_shown("DHHC-1"), "DHHC-1");
}

/* IPv6 with a scope id passes as given: the kernel parses it. */
static void ipv6_scope_id(void)
{
	CHECK(CONNECT("-a", "fe80::1%dummy0", "-n", NQN) == OPTS_OK);
	CHECK_STR(cfg.traddr, "fe80::1%dummy0");
	CHECK(CONNECT("--traddr=fe80::1%2", "-n", NQN) == OPTS_OK);
	CHECK_STR(cfg.traddr, "fe80::1%2");
}

/* The one NQN rule: 1 to 223 bytes, nothing else. */
static void nqn_rule(void)
{
	char nqn[RBLK_NQN_MAX_LEN + 2];

	CHECK(CONNECT("-a", "10.0.0.1", "-n", "blktests-subsystem-1") ==
	      OPTS_OK);
	CHECK_STR(cfg.nqn, "blktests-subsystem-1");
	CHECK(CONNECT("-a", "10.0.0.1", "-n", "x") == OPTS_OK);
	CHECK(CONNECT_WITH("-q", "my host") == OPTS_OK);
	CHECK(CONNECT("-a", "10.0.0.1", "-n", "") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--nqn (-n): empty value");
	CHECK(opts_nqn_valid("blktests-subsystem-1"));
	CHECK(!opts_nqn_valid(""));
	memset(nqn, 'x', sizeof(nqn) - 1);
	nqn[sizeof(nqn) - 1] = '\0';
	CHECK(!opts_nqn_valid(nqn));
	nqn[RBLK_NQN_MAX_LEN] = '\0';
	CHECK(opts_nqn_valid(nqn));
}

#define DISC_ALLOWED	(OPT(DEVICE) | OPT(INDEX) | OPT(NQN) | OPT(HELP))

/* disconnect -n: a subsystem instead of a device, not both. */
static void disconnect_by_nqn(void)
{
	CHECK(PARSE(DISC_ALLOWED, OPT(DEVICE), "-n", NQN) == OPTS_OK);
	CHECK_STR(cfg.nqn, NQN);
	CHECK(PARSE(DISC_ALLOWED, OPT(DEVICE), "-n", NQN, "rblk0") ==
	      OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "more than one device");
	CHECK(PARSE(DISC_ALLOWED, OPT(DEVICE), "-d", "rblk0", "-n", NQN) ==
	      OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "more than one device");
	CHECK(PARSE(DISC_ALLOWED, OPT(DEVICE), "--index", "2", "-n", NQN) ==
	      OPTS_ERROR);
	CHECK(PARSE(DISC_ALLOWED, OPT(DEVICE)) == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "no device given (rblk-ctrlM, rblkN, --device, --index or --nqn)");
	CHECK(PARSE(DISC_ALLOWED, OPT(DEVICE), "-n") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--nqn (-n) needs a value");
	CHECK(PARSE(DISC_ALLOWED, OPT(DEVICE), "-d", "rblk-ctrl1") == OPTS_OK);
	CHECK_STR(cfg.device, "rblk-ctrl1");
}

/* A discovery.conf line over the command line: the line wins. */
static void merge(void)
{
	struct cfg def, line;

	CHECK(CONNECT_WITH("-q", "host-a", "-k", "9", "-T", "4", "-D") ==
	      OPTS_OK);
	def = cfg;
	CHECK(PARSE(CONNECT_ALLOWED, 0, "-a", "10.0.0.9", "-q", "host-b") ==
	      OPTS_OK);
	line = cfg;
	opts_merge(&line, &def);
	CHECK_STR(line.traddr, "10.0.0.9");
	CHECK_STR(line.hostnqn, "host-b");
	CHECK_STR(line.nqn, NQN);
	CHECK(line.kato == 9 && (line.set & OPT(KATO)));
	CHECK(line.tos == 4 && (line.set & OPT(TOS)));
	CHECK(line.set & OPT(DUPLICATE_CONNECT));
	CHECK(!(line.set & (OPT(QUEUE_SIZE) | OPT(HOSTID))));
}

/*
 * Every option a discovery.conf line leaves out takes the command line's
 * value, not only its "given" bit (connect-all -P/-W sent 0 queues).
 */
static void merge_every_value(void)
{
	struct cfg def, line;

	CHECK(PARSE(CONNECT_ALLOWED | OPT(NR_POLL_QUEUES) |
		    OPT(NR_WRITE_QUEUES), 0,
		    "-t", "rdma", "-a", "10.0.0.1", "-s", "4421", "-n", NQN,
		    "-q", "host-a",
		    "-I", "12345678-9abc-def0-0123-456789abcdef",
		    "-N", "3", "-i", "5", "-P", "2", "-W", "4", "-Q", "64",
		    "-l", "-1", "-c", "7", "-k", "11",
		    "--fast_io_fail_tmo", "13", "-w", "10.0.0.2", "-T", "8",
		    "-D", "-o", "json", "-S", "DHHC-1:00:SeKrEtA:",
		    "-C", "DHHC-1:01:SeKrEtB:") == OPTS_OK);
	def = cfg;
	CHECK(PARSE(CONNECT_ALLOWED, 0, "-a", "10.0.0.9") == OPTS_OK);
	line = cfg;
	opts_merge(&line, &def);
	CHECK_STR(line.traddr, "10.0.0.9");
	CHECK(line.set == def.set);
	CHECK_STR(line.trsvcid, "4421");
	CHECK_STR(line.nqn, NQN);
	CHECK_STR(line.hostnqn, "host-a");
	CHECK(!memcmp(line.hostid, def.hostid, sizeof(line.hostid)));
	CHECK(line.nsid == 3);
	CHECK(line.nr_io_queues == 5);
	CHECK(line.nr_poll_queues == 2);
	CHECK(line.nr_write_queues == 4);
	CHECK(line.queue_size == 64);
	CHECK(line.ctrl_loss_tmo == -1);
	CHECK(line.reconnect_delay == 7);
	CHECK(line.kato == 11);
	CHECK(line.fast_io_fail_tmo == 13);
	CHECK_STR(line.host_traddr, "10.0.0.2");
	CHECK(line.tos == 8);
	CHECK(line.format == OUT_JSON);
	CHECK_STR(line.dhchap_secret, "DHHC-1:00:SeKrEtA:");
	CHECK_STR(line.dhchap_ctrl_secret, "DHHC-1:01:SeKrEtB:");
}

/* The ranges in the help are the UAPI's, the ones the parser checks. */
static void help_ranges(void)
{
	char *buf = NULL, want[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	opts_help(f, CONNECT_ALLOWED);
	fclose(f);
	snprintf(want, sizeof(want), "I/O queues, 1-%d", RBLK_MAX_IO_QUEUES);
	CHECK_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "entries per I/O queue, %d-%d",
		 RBLK_MIN_QUEUE_SIZE, RBLK_MAX_QUEUE_SIZE);
	CHECK_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "-1 never, -1-%d", RBLK_MAX_TMO);
	CHECK_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "IP type of service, 0-%d", RBLK_MAX_TOS);
	CHECK_CONTAINS(buf, want);
	CHECK_CONTAINS(buf, "-w, --host-traddr ADDR");
	CHECK_CONTAINS(buf, "-T, --tos TOS");
	/* nvme-cli's -F (2.10 on); -f is its --host-iface. */
	CHECK_CONTAINS(buf, "-F, --fast_io_fail_tmo SEC");
	CHECK(!strstr(buf, "-f,"));
	free(buf);
}

/* What the kernel blames maps back to the option that said it. */
static void attr_options(void)
{
	CHECK(opts_from_attr(RBLK_ATTR_SUBSYSNQN) == OPT_NQN);
	CHECK(opts_from_attr(RBLK_ATTR_HOSTNQN) == OPT_HOSTNQN);
	CHECK(opts_from_attr(RBLK_ATTR_TRADDR) == OPT_TRADDR);
	CHECK(opts_from_attr(RBLK_ATTR_HOST_TRADDR) == OPT_HOST_TRADDR);
	CHECK(opts_from_attr(RBLK_ATTR_TOS) == OPT_TOS);
	CHECK(opts_from_attr(RBLK_ATTR_QUEUE_SIZE) == OPT_QUEUE_SIZE);
	CHECK(opts_from_attr(RBLK_ATTR_NR_POLL_QUEUES) == OPT_NR_POLL_QUEUES);
	CHECK(opts_from_attr(RBLK_ATTR_NR_WRITE_QUEUES) ==
	      OPT_NR_WRITE_QUEUES);
	CHECK(opts_from_attr(RBLK_ATTR_FAST_IO_FAIL_TMO) ==
	      OPT_FAST_IO_FAIL_TMO);
	CHECK(opts_from_attr(RBLK_ATTR_CTRL_NAME) == OPT_DEVICE);
	CHECK(opts_from_attr(RBLK_ATTR_STATE) == -1);
	CHECK(opts_from_attr(0) == -1);
	CHECK(opts_from_attr(-1) == -1);
	CHECK(opts_from_attr(RBLK_ATTR_MAX + 1) == -1);
}

/* set-iopolicy's options, as its line of nvmecfg.c's command table. */
#define SET_ALLOWED	(OPT(DEVICE) | OPT(INDEX) | OPT(IOPOLICY) | OPT(HELP))
#define SET_REQUIRED	(OPT(DEVICE) | OPT(IOPOLICY))
#define SET(...) PARSE(SET_ALLOWED, SET_REQUIRED, __VA_ARGS__)

/* Every name of the UAPI's table, and nothing else, is a policy. */
static void iopolicy_names(void)
{
	static const char *const names[__RBLK_IOPOLICY_MAX] =
		RBLK_IOPOLICY_NAMES;
	char arg[64];
	int i;

	for (i = 0; i < __RBLK_IOPOLICY_MAX; i++) {
		cfg.err[0] = '\0';
		CHECK(SET("rblk0", "--iopolicy", (char *)names[i]) == OPTS_OK);
		CHECK(cfg.iopolicy == i && (cfg.set & OPT(IOPOLICY)));
		CHECK_STR(cfg.err, "");
		snprintf(arg, sizeof(arg), "--iopolicy=%s", names[i]);
		CHECK(SET("-d", "rblk-ctrl1", arg) == OPTS_OK);
		CHECK(cfg.iopolicy == i);
		CHECK_STR(cfg.device, "rblk-ctrl1");
	}
	CHECK(SET("--index", "4", "--iopolicy", "round-robin") == OPTS_OK);
	CHECK(cfg.index == 4 && (cfg.set & OPT(INDEX)));
	CHECK(cfg.iopolicy == RBLK_IOPOLICY_ROUND_ROBIN);
	CHECK(SET("rblk0", "--iopolicy", "queue-depth") == OPTS_OK);
	CHECK(cfg.iopolicy == RBLK_IOPOLICY_QUEUE_DEPTH);
	CHECK(SET("rblk0", "--iopolicy", "numa") == OPTS_OK);
	CHECK(cfg.iopolicy == RBLK_IOPOLICY_NUMA);
}

static void iopolicy_bad_names(void)
{
	static const char *const bad[] = {
		"", "NUMA", "Numa", "round_robin", "roundrobin", "rr",
		"queue_depth", "0", "1", "numa ", " numa", "numa,round-robin",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char want[96];

		cfg.err[0] = '\0';
		CHECK(SET("rblk0", "--iopolicy", (char *)bad[i]) == OPTS_ERROR);
		snprintf(want, sizeof(want),
			 "--iopolicy: '%s' is not numa, round-robin or queue-depth",
			 bad[i]);
		CHECK_STR(cfg.err, want);
	}
}

static void iopolicy_usage_errors(void)
{
	CHECK(SET("rblk0") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "missing required option --iopolicy");
	CHECK(SET("--iopolicy", "numa") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "no device given (rblk-ctrlM, rblkN, --device or --index)");
	CHECK(SET("rblk0", "--iopolicy") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--iopolicy needs a value");
	/* A forgotten value does not eat the next option. */
	CHECK(SET("--iopolicy", "-d", "rblk0") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--iopolicy needs a value");
	CHECK(SET("rblk0", "--iopolicy", "numa", "--iopolicy=numa") ==
	      OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--iopolicy given more than once");
	CHECK(SET("rblk0", "rblk1", "--iopolicy", "numa") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "more than one device");
	/* Long only: no letter that nvme-cli gives another option. */
	CHECK(SET("rblk0", "-p", "numa") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '-p'");
	CHECK(SET("rblk0", "--io-policy", "numa") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '--io-policy'");
	/* set-iopolicy only. */
	CHECK(CONNECT_WITH("--iopolicy", "numa") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '--iopolicy'");
	CHECK(DEV("rblk0", "--iopolicy", "numa") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '--iopolicy'");
	CHECK(SET("rblk0", "--iopolicy", "bogus", "-h") == OPTS_HELP);
}

/* The help lists the names, for people and for the bash completion. */
static void iopolicy_help(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	opts_help(f, SET_ALLOWED);
	fclose(f);
	CHECK_CONTAINS(buf, "  -d, --device NAME ");
	CHECK_CONTAINS(buf, "      --iopolicy POLICY        I/O policy of the subsystem {numa|round-robin|queue-depth}\n");
	CHECK(!strstr(buf, "default"));
	free(buf);
	CHECK(opts_from_attr(RBLK_ATTR_IOPOLICY) == OPT_IOPOLICY);
}

/* connect-all -J FILE, and "none". */
static void config_option(void)
{
	CHECK(PARSE(OPT(CONFIG) | OPT(TRADDR), 0, "-J", "/x.json") == OPTS_OK);
	CHECK(cfg.set & OPT(CONFIG));
	CHECK_STR(cfg.config, "/x.json");
	CHECK(PARSE(OPT(CONFIG), 0, "--config=none") == OPTS_OK);
	CHECK_STR(cfg.config, "none");
	CHECK(PARSE(OPT(CONFIG), 0, "--config", "") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--config (-J): empty value");
	CHECK(PARSE(OPT(CONFIG), 0, "-J") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "--config (-J) needs a value");
	/* Only connect-all's. */
	CHECK(CONNECT_WITH("-J", "/x.json") == OPTS_ERROR);
	CHECK_CONTAINS(cfg.err, "unknown option '-J'");
}

/* The option an argument names, as the parser finds it. */
static void find_option(void)
{
	CHECK(opts_find("-a") == OPT_TRADDR);
	CHECK(opts_find("-a10.0.0.1") == OPT_TRADDR);
	CHECK(opts_find("--traddr") == OPT_TRADDR);
	CHECK(opts_find("--traddr=10.0.0.1") == OPT_TRADDR);
	CHECK(opts_find("--fast-io-fail-tmo") == OPT_FAST_IO_FAIL_TMO);
	CHECK(opts_find("--host_traddr") == OPT_HOST_TRADDR);
	CHECK(opts_find("-J") == OPT_CONFIG);
	CHECK(opts_find("--host-iface") == -1);
	CHECK(opts_find("-f") == -1);
	CHECK(opts_find("--tra") == -1);
	CHECK(opts_find("-") == -1);
	CHECK(opts_find("--") == -1);
	CHECK(opts_find("traddr") == -1);
}

/* A value set as the command line would, with its checks (config.json). */
static void set_option(void)
{
	memset(&cfg, 0, sizeof(cfg));
	CHECK(opts_set(&cfg, OPT_NR_IO_QUEUES, "4") == OPTS_OK);
	CHECK(cfg.nr_io_queues == 4 && (cfg.set & OPT(NR_IO_QUEUES)));
	CHECK(opts_set(&cfg, OPT_CTRL_LOSS_TMO, "-1") == OPTS_OK);
	CHECK(cfg.ctrl_loss_tmo == -1);
	CHECK(opts_set(&cfg, OPT_DUPLICATE_CONNECT, NULL) == OPTS_OK);
	CHECK(cfg.set & OPT(DUPLICATE_CONNECT));
	CHECK(opts_set(&cfg, OPT_TRADDR, "10.0.0.1") == OPTS_OK);
	CHECK_STR(cfg.traddr, "10.0.0.1");
	CHECK(opts_set(&cfg, OPT_HOSTID, "12345678-9abc-def0-0123-456789abcdef") ==
	      OPTS_OK);
	CHECK(cfg.hostid[0] == 0x12 && (cfg.set & OPT(HOSTID)));

	CHECK(opts_set(&cfg, OPT_QUEUE_SIZE, "1") == OPTS_ERROR);
	CHECK_STR(cfg.err, "--queue-size (-Q): 1 is out of range 16-1024");
	CHECK(!(cfg.set & OPT(QUEUE_SIZE)));
	CHECK(opts_set(&cfg, OPT_TOS, "x") == OPTS_ERROR);
	CHECK_STR(cfg.err, "--tos (-T): 'x' is not a number");
	CHECK(opts_set(&cfg, OPT_HOSTNQN, "") == OPTS_ERROR);
	CHECK_STR(cfg.err, "--hostnqn (-q): empty value");
	CHECK(opts_set(&cfg, OPT_TRADDR, NULL) == OPTS_ERROR);
	CHECK_STR(cfg.err, "--traddr (-a) needs a value");
}

static const struct ktap_case cases[] = {
	KTAP_CASE(connect_valid),
	KTAP_CASE(connect_minimal),
	KTAP_CASE(duplicate_connect),
	KTAP_CASE(connect_option_spellings),
	KTAP_CASE(connect_missing_traddr),
	KTAP_CASE(connect_missing_nqn),
	KTAP_CASE(connect_missing_value),
	KTAP_CASE(connect_empty_value),
	KTAP_CASE(bad_numbers),
	KTAP_CASE(out_of_range),
	KTAP_CASE(range_limits),
	KTAP_CASE(trsvcid_port),
	KTAP_CASE(unknown_option),
	KTAP_CASE(unexpected_argument),
	KTAP_CASE(duplicate_option),
	KTAP_CASE(transport),
	KTAP_CASE(nqn_length),
	KTAP_CASE(traddr_length),
	KTAP_CASE(hostid),
	KTAP_CASE(output_format),
	KTAP_CASE(help),
	KTAP_CASE(device_selection),
	KTAP_CASE(device_errors),
	KTAP_CASE(monitor_limits),
	KTAP_CASE(help_text),
	KTAP_CASE(missing_value_not_swallowed),
	KTAP_CASE(help_mixed),
	KTAP_CASE(fast_io_fail_long_only),
	KTAP_CASE(host_traddr),
	KTAP_CASE(dhchap_secret),
	KTAP_CASE(dhchap_key_never_quoted),
	KTAP_CASE(ipv6_scope_id),
	KTAP_CASE(nqn_rule),
	KTAP_CASE(disconnect_by_nqn),
	KTAP_CASE(merge),
	KTAP_CASE(merge_every_value),
	KTAP_CASE(help_ranges),
	KTAP_CASE(attr_options),
	KTAP_CASE(iopolicy_names),
	KTAP_CASE(iopolicy_bad_names),
	KTAP_CASE(iopolicy_usage_errors),
	KTAP_CASE(iopolicy_help),
	KTAP_CASE(config_option),
	KTAP_CASE(find_option),
	KTAP_CASE(set_option),
};

int main(void)
{
	return ktap_run("opts", cases, ARRAY_SIZE(cases));
}
