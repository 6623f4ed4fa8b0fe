// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of nvmecfg's output (output.c). The JSON documents are also
 * fed to a real parser by json_test.sh.
 */
#include <errno.h>

#include "fixtures.h"
#include "util.h"
#include "ktap.h"
#include "output.h"
#include "subsys.h"

static char *buf;
static size_t len;

static FILE *capture(void)
{
	free(buf);
	buf = NULL;
	return open_memstream(&buf, &len);
}

static const char *escaped(const char *s)
{
	FILE *f = capture();

	json_print_string(f, s);
	fclose(f);
	return buf;
}

static void json_escape_specials(void)
{
	CHECK_STR(escaped(""), "\"\"");
	CHECK_STR(escaped("plain"), "\"plain\"");
	CHECK_STR(escaped("a\"b"), "\"a\\\"b\"");
	CHECK_STR(escaped("a\\b"), "\"a\\\\b\"");
	CHECK_STR(escaped("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
	CHECK_STR(escaped("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"");
	CHECK_STR(escaped("/"), "\"/\"");
	CHECK_STR(escaped(FIX_NASTY), "\"" FIX_NASTY_JSON "\"");
}

static void json_escape_utf8(void)
{
	/* Valid sequences of 2, 3 and 4 bytes pass through. */
	CHECK_STR(escaped("\xc3\xa9"), "\"\xc3\xa9\"");
	CHECK_STR(escaped("\xe2\x82\xac"), "\"\xe2\x82\xac\"");
	CHECK_STR(escaped("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
	/* Invalid ones are replaced byte by byte. */
	CHECK_STR(escaped("\xff"), "\"\\ufffd\"");
	CHECK_STR(escaped("\xc3"), "\"\\ufffd\"");
	CHECK_STR(escaped("\xc3(x"), "\"\\ufffd(x\"");
	CHECK_STR(escaped("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
	CHECK_STR(escaped("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\"");
	CHECK_STR(escaped("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
	CHECK_STR(escaped("\xf4\x90\x80\x80"),
		  "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	CHECK_STR(escaped("\xe2\x82"), "\"\\ufffd\\ufffd\"");
}

static void json_writer_compact(void)
{
	FILE *f = capture();
	struct json j;

	json_init(&j, f, false);
	json_obj_open(&j, NULL);
	json_str(&j, "a", "x");
	json_arr_open(&j, "l");
	json_u64(&j, NULL, 1);
	json_s64(&j, NULL, -2);
	json_obj_open(&j, NULL);
	json_obj_close(&j);
	json_arr_close(&j);
	json_arr_open(&j, "e");
	json_arr_close(&j);
	json_u64(&j, "big", 18446744073709551615ULL);
	json_obj_close(&j);
	json_end(&j);
	fclose(f);
	CHECK_STR(buf,
		  "{\"a\":\"x\",\"l\":[1,-2,{}],\"e\":[],\"big\":18446744073709551615}\n");
}

static void json_writer_pretty(void)
{
	FILE *f = capture();
	struct json j;

	json_init(&j, f, true);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "l");
	json_u64(&j, NULL, 1);
	json_u64(&j, NULL, 2);
	json_arr_close(&j);
	json_arr_open(&j, "e");
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
	fclose(f);
	CHECK_STR(buf, "{\n  \"l\": [\n    1,\n    2\n  ],\n  \"e\": []\n}\n");
}

static void names(void)
{
	CHECK_STR(state_name(RBLK_STATE_LIVE), "live");
	CHECK_STR(state_name(RBLK_STATE_DEAD), "dead");
	CHECK_STR(state_name(__RBLK_STATE_MAX), "unknown");
	CHECK_STR(state_name(200), "unknown");
	CHECK_STR(event_name(RBLK_EVENT_ADDED), "added");
	CHECK_STR(event_name(RBLK_EVENT_NS_ADDED), "ns-added");
	CHECK_STR(event_name(RBLK_EVENT_NS_RESIZED), "ns-resized");
	CHECK_STR(event_name(0), "unknown");
	CHECK_STR(event_name(__RBLK_EVENT_MAX), "unknown");
	CHECK_STR(iopolicy_name(RBLK_IOPOLICY_NUMA), "numa");
	CHECK_STR(iopolicy_name(RBLK_IOPOLICY_ROUND_ROBIN), "round-robin");
	CHECK_STR(iopolicy_name(RBLK_IOPOLICY_QUEUE_DEPTH), "queue-depth");
	CHECK_STR(iopolicy_name(__RBLK_IOPOLICY_MAX), "unknown");
	CHECK_STR(iopolicy_name(255), "unknown");
	CHECK_STR(adrfam_name(1), "ipv4");
	CHECK_STR(adrfam_name(2), "ipv6");
	CHECK_STR(trtype_name(1), "rdma");
	CHECK_STR(subtype_name(2), "nvme subsystem");
	CHECK_STR(subtype_name(3), "current discovery subsystem");
	CHECK_STR(treq_name(0), "not specified");
	CHECK_STR(treq_name(6),
		  "not required, sq flow control disable supported");
	/* libnvme's words only: none for the reserved 3, or other bits. */
	CHECK_STR(treq_name(3), "unrecognized");
	CHECK_STR(treq_name(7), "unrecognized");
	CHECK_STR(treq_name(8), "unrecognized");
	CHECK_STR(adrfam_name(254), "unrecognized");
	CHECK_STR(trtype_name(254), "loop");
	CHECK_STR(stat_name(RBLK_STAT_READS), "reads");
	CHECK_STR(stat_name(RBLK_STAT_STATUS_CMD), "errors_cmd_specific");
	CHECK(stat_name(RBLK_STAT_UNSPEC) == NULL);
	CHECK(stat_name(RBLK_STAT_LAT_HIST) == NULL);
	CHECK(stat_name(RBLK_STAT_PAD) == NULL);
	CHECK(stat_name(__RBLK_STAT_MAX) == NULL);
	CHECK(stat_name(-1) == NULL);
}

/* One source of truth: every name is the UAPI header's. */
static void names_from_uapi(void)
{
	static const char *const states[__RBLK_STATE_MAX] = RBLK_STATE_NAMES;
	static const char *const events[__RBLK_EVENT_MAX] = RBLK_EVENT_NAMES;
	static const char *const stats[__RBLK_STAT_MAX] = RBLK_STAT_NAMES;
	static const char *const policies[__RBLK_IOPOLICY_MAX] =
		RBLK_IOPOLICY_NAMES;
	int i;

	for (i = 0; i < __RBLK_STATE_MAX; i++)
		CHECK_STR(state_name(i), states[i]);
	for (i = RBLK_EVENT_ADDED; i < __RBLK_EVENT_MAX; i++)
		CHECK_STR(event_name(i), events[i]);
	for (i = 0; i < __RBLK_STAT_MAX; i++) {
		CHECK(!stat_name(i) == !stats[i]);
		if (stats[i])
			CHECK_STR(stat_name(i), stats[i]);
	}
	for (i = 0; i < __RBLK_IOPOLICY_MAX; i++)
		CHECK_STR(iopolicy_name(i), policies[i]);
	/* DH-HMAC-CHAP: hashes, groups, failure reasons. */
	CHECK_STR(dhchap_hash_name(2), "hmac(sha384)");
	CHECK_STR(dhchap_hash_name(0), "unknown");
	CHECK_STR(dhchap_hash_name(RBLK_DHCHAP_HASH_MAX + 1), "unknown");
	CHECK_STR(dhchap_dhgroup_name(0), "null");
	CHECK_STR(dhchap_dhgroup_name(RBLK_DHCHAP_DHGROUP_MAX), "ffdhe8192");
	CHECK_STR(dhchap_dhgroup_name(RBLK_DHCHAP_DHGROUP_MAX + 1), "unknown");
	CHECK(!auth_failure_name(0));
	CHECK_STR(auth_failure_name(1), "Failed");
	CHECK_STR(auth_failure_name(RBLK_AUTH_FAILURE_MAX),
		  "Incorrect Protocol Message");
	CHECK_STR(auth_failure_name(RBLK_AUTH_FAILURE_MAX + 1), "unknown");
}

static void sizes_and_ids(void)
{
	static const unsigned char id[16] = {
		0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
	};
	char b[64];

	CHECK_STR(size_str(0, b, sizeof(b)), "0 B");
	CHECK_STR(size_str(512, b, sizeof(b)), "512 B");
	CHECK_STR(size_str(1024, b, sizeof(b)), "1 KiB");
	CHECK_STR(size_str(268435456, b, sizeof(b)), "256 MiB");
	CHECK_STR(size_str(3ULL << 29, b, sizeof(b)), "1.50 GiB");
	CHECK_STR(size_str(1ULL << 40, b, sizeof(b)), "1 TiB");
	CHECK_STR(size_str(~0ULL, b, sizeof(b)), "16.00 EiB");
	CHECK_STR(uuid_str(id, b, sizeof(b)),
		  "deadbeef-0001-0203-0405-060708090a0b");
	CHECK_STR(hex_str(id, 8, b, sizeof(b)), "deadbeef00010203");
	CHECK_STR(hex_str(id, 16, b, sizeof(b)),
		  "deadbeef000102030405060708090a0b");
	/* Cut short rather than overrun. */
	CHECK_STR(hex_str(id, 16, b, 6), "dead");
	CHECK_STR(hex_str(id, 0, b, sizeof(b)), "");
}

static struct ctrl_info fc[2];
static struct ns_info fns[3];

static void list_normal(void)
{
	FILE *f;

	f = capture();
	print_list(f, OUT_NORMAL, fc, 2);
	fclose(f);
	CHECK_STR(buf,
		  "Controller  State       Address    Port   Subsystem NQN\n"
		  "  Device    NSID        Size       Block  WWID\n"
		  "rblk-ctrl0  live        10.99.0.1  4420   " FIX_NQN "\n"
		  "  rblk0     1           1 GiB      512    " FIX_WWID0 "\n"
		  "  rblk1     2           256 MiB    4096   " FIX_WWID1 "\n"
		  "rblk-ctrl7  connecting  fd00::1    4420   " FIX_NQN "\n"
		  "  rblk9     3           64 MiB     512    " FIX_WWID2 "\n");

	f = capture();
	print_list(f, OUT_NORMAL, fc, 0);
	fclose(f);
	CHECK_STR(buf, "");
}

static void list_normal_widths(void)
{
	struct ctrl_info c = fc[0];
	struct ns_info ns = fns[0];
	FILE *f;

	/* Columns grow with their widest cell, a namespace's too. */
	strcpy(c.traddr, "fdaa:bbbb:cccc:dddd::1");
	strcpy(ns.name, "rblk123456");
	c.ns = &ns;
	c.nr_ns = 1;
	f = capture();
	print_list(f, OUT_NORMAL, &c, 1);
	fclose(f);
	CHECK_CONTAINS(buf, "Controller    State  Address                 Port");
	CHECK_CONTAINS(buf, "rblk-ctrl0    live   fdaa:bbbb:cccc:dddd::1  4420");
	CHECK_CONTAINS(buf, "  rblk123456  1      1 GiB                   512 ");
}

static void list_json(void)
{
	FILE *f;

	f = capture();
	print_list(f, OUT_JSON, fc, 2);
	fclose(f);
	/* nvme-cli 2.x's nvme list -o json: a device per namespace. */
	CHECK_PREFIX(buf, "{\n  \"Devices\": [\n    {\n"
			  "      \"NameSpace\": 1,\n"
			  "      \"DevicePath\": \"/dev/rblk0\",\n"
			  "      \"Firmware\": \"6.1.0-57\",\n"
			  "      \"ModelNumber\": \"Linux\",\n"
			  "      \"SerialNumber\": \"0123456789abcdef\",\n"
			  "      \"MaximumLBA\": 2097152,\n"
			  "      \"PhysicalSize\": 1073741824,\n"
			  "      \"SectorSize\": 512,\n"
			  "      \"Index\": 0,\n"
			  "      \"WWID\": \"" FIX_WWID0 "\",\n"
			  "      \"NGUID\": \"00112233445566778899aabbccddeeff\",\n"
			  "      \"UUID\": \"00112233-4455-6677-8899-aabbccddeeff\"\n"
			  "    },\n");
	/* rblk's controllers beside, as before. */
	CHECK_CONTAINS(buf, "  ],\n  \"controllers\": [\n    {\n"
			    "      \"index\": 0,\n");
	CHECK_CONTAINS(buf, "\"name\": \"rblk-ctrl0\",");
	CHECK_CONTAINS(buf, "\"state\": \"live\",");
	CHECK_CONTAINS(buf, "\"transport\": \"rdma\",");
	CHECK_CONTAINS(buf, "\"fast_io_fail_tmo\": -1,\n"
			    "      \"namespaces\": [\n");
	CHECK_CONTAINS(buf, "\"hostid\": \"deadbeef-0001-0203-0405-060708090a0b\"");
	CHECK_CONTAINS(buf, "\"model\": \"" FIX_NASTY_JSON "\"");
	/* The filter only where there is one. */
	CHECK_CONTAINS(buf, "\"hostid\": \"deadbeef-0001-0203-0405-060708090a0b\",\n"
			    "      \"cntlid\": 1,");
	CHECK_CONTAINS(buf, "\"nsid\": 3,\n      \"cntlid\": 2,");
	/* Identifiers only where reported. */
	CHECK_CONTAINS(buf, "\"wwid\": \"" FIX_WWID0 "\",\n"
			    "          \"nguid\": \"00112233445566778899aabbccddeeff\",\n"
			    "          \"uuid\": \"00112233-4455-6677-8899-aabbccddeeff\"\n");
	CHECK_CONTAINS(buf, "\"wwid\": \"" FIX_WWID1 "\",\n"
			    "          \"eui64\": \"0011223344556677\"\n");
	CHECK_CONTAINS(buf, "\"wwid\": \"" FIX_WWID2 "\"\n");

	f = capture();
	print_list(f, OUT_JSON, fc, 0);
	fclose(f);
	CHECK_STR(buf, "{\n  \"Devices\": [],\n  \"controllers\": []\n}\n");
}

/*
 * list -v: nvme list -v's tables of subsystems, controllers and
 * namespaces; "-" for a subsystem sysfs did not name.
 */
static void list_verbose_normal(void)
{
	FILE *f;

	f = capture();
	print_list_verbose(f, OUT_NORMAL, fc, 2, NULL);
	fclose(f);
	CHECK_PREFIX(buf, "Subsystem Subsystem-NQN            Controllers\n"
			  "--------- ------------------------ ----------------------\n"
			  "-         " FIX_NQN " rblk-ctrl0, rblk-ctrl7\n\n"
			  "Device     SN               MN ");
	CHECK_CONTAINS(buf, "rblk-ctrl0 0123456789abcdef Linux           6.1.0-57 rdma   traddr=10.99.0.1,trsvcid=4420 live       -         rblk0, rblk1\n");
	/* Target strings are made printable. */
	CHECK_CONTAINS(buf, "rblk-ctrl7 0123456789abcdef Q\"B\\N?T?C?U");
	CHECK_CONTAINS(buf, "\nDevice     NSID Size    Format Controllers\n"
			    "---------- ---- ------- ------ -----------\n"
			    "/dev/rblk0 1    1 GiB   512 B  rblk-ctrl0\n"
			    "/dev/rblk1 2    256 MiB 4096 B rblk-ctrl0\n"
			    "/dev/rblk9 3    64 MiB  512 B  rblk-ctrl7\n");

	/* No controllers: nothing, as list. */
	f = capture();
	print_list_verbose(f, OUT_NORMAL, fc, 0, NULL);
	fclose(f);
	CHECK_STR(buf, "");
}

/*
 * With multipath, an IOPolicy column before the NQN ("-" for a controller
 * not bound to a subsystem yet); without, the table of list_normal.
 */
static void list_normal_iopolicy(void)
{
	struct ctrl_info c[2] = { fc[0], fc[1] };
	FILE *f;

	c[0].has_iopolicy = true;
	c[0].iopolicy = RBLK_IOPOLICY_ROUND_ROBIN;
	f = capture();
	print_list(f, OUT_NORMAL, c, 2);
	fclose(f);
	CHECK_STR(buf,
		  "Controller  State       Address    Port   IOPolicy     Subsystem NQN\n"
		  "  Device    NSID        Size       Block  ANA          WWID\n"
		  "rblk-ctrl0  live        10.99.0.1  4420   round-robin  " FIX_NQN "\n"
		  "  rblk0     1           1 GiB      512                 " FIX_WWID0 "\n"
		  "  rblk1     2           256 MiB    4096                " FIX_WWID1 "\n"
		  "rblk-ctrl7  connecting  fd00::1    4420   -            " FIX_NQN "\n"
		  "  rblk9     3           64 MiB     512                 " FIX_WWID2 "\n");

	/* numa is a policy too; the column as wide as its widest cell. */
	c[0].iopolicy = RBLK_IOPOLICY_NUMA;
	f = capture();
	print_list(f, OUT_NORMAL, c, 2);
	fclose(f);
	CHECK_PREFIX(buf, "Controller  State       Address    Port   IOPolicy  Subsystem NQN\n"
			  "  Device    NSID        Size       Block  ANA       WWID\n"
			  "rblk-ctrl0  live        10.99.0.1  4420   numa      " FIX_NQN "\n");
	CHECK_CONTAINS(buf, "rblk-ctrl7  connecting  fd00::1    4420   -         " FIX_NQN "\n");

	/* None has one: no column at all. */
	c[0].has_iopolicy = false;
	f = capture();
	print_list(f, OUT_NORMAL, c, 2);
	fclose(f);
	CHECK(!strstr(buf, "IOPolicy"));
	CHECK_PREFIX(buf, "Controller  State       Address    Port   Subsystem NQN\n");
}

/* With multipath, each namespace is a path: its disk, ANA group and state. */
static void ns_path_ana(void)
{
	struct ctrl_info c[1] = { fc[0] };
	struct ns_info ns[2] = { fc[0].ns[0], fc[0].ns[1] };
	struct ctrl_event ev = { .event = RBLK_EVENT_ANA_CHANGED,
				 .ctrl_name = "rblk-ctrl0", .has_ns = true };
	FILE *f;

	c[0].ns = ns;
	c[0].has_iopolicy = true;
	c[0].iopolicy = RBLK_IOPOLICY_NUMA;
	strcpy(ns[0].path, "rblk0c0");
	ns[0].ana_grpid = 7;
	ns[0].has_ana_state = true;
	ns[0].ana_state = 2;
	strcpy(ns[1].path, "rblk1c0");
	ns[1].ana_grpid = 7;

	f = capture();
	print_list(f, OUT_NORMAL, c, 1);
	fclose(f);
	CHECK_STR(buf,
		  "Controller  State  Address    Port   IOPolicy       Subsystem NQN\n"
		  "  Device    NSID   Size       Block  ANA            WWID\n"
		  "rblk-ctrl0  live   10.99.0.1  4420   numa           " FIX_NQN "\n"
		  "  rblk0     1      1 GiB      512    non-optimized  " FIX_WWID0 "\n"
		  /* No log has listed it yet. */
		  "  rblk1     2      256 MiB    4096   -              " FIX_WWID1 "\n");

	f = capture();
	print_show(f, OUT_NORMAL, &c[0]);
	fclose(f);
	CHECK_CONTAINS(buf, "    path            rblk0c0\n"
			    "    ana_grpid       7\n"
			    "    ana_state       non-optimized\n");
	CHECK_CONTAINS(buf, "    path            rblk1c0\n"
			    "    ana_grpid       7\n"
			    "    ana_state       -\n");

	f = capture();
	print_show(f, OUT_JSON, &c[0]);
	fclose(f);
	CHECK_CONTAINS(buf, "\"path\": \"rblk0c0\"");
	CHECK_CONTAINS(buf, "\"ana_grpid\": 7");
	CHECK_CONTAINS(buf, "\"ana_state\": \"non-optimized\"");

	ev.ns = ns[0];
	f = capture();
	print_event(f, OUT_NORMAL, &ev);
	fclose(f);
	CHECK_CONTAINS(buf, "rblk-ctrl0: ana-changed rblk0 nsid 1");
	CHECK_CONTAINS(buf, " path rblk0c0 ana non-optimized");

	/* Without multipath: none of it. */
	f = capture();
	print_show(f, OUT_JSON, &fc[0]);
	fclose(f);
	CHECK(!strstr(buf, "ana_state"));
}

static void list_json_iopolicy(void)
{
	struct ctrl_info c[2] = { fc[0], fc[1] };
	const char *p;
	FILE *f;

	c[1].has_iopolicy = true;
	c[1].iopolicy = RBLK_IOPOLICY_QUEUE_DEPTH;
	f = capture();
	print_list(f, OUT_JSON, c, 2);
	fclose(f);
	CHECK_CONTAINS(buf, "\"subsysnqn\": \"" FIX_NQN "\",\n"
			    "      \"iopolicy\": \"queue-depth\",\n"
			    "      \"hostnqn\": ");
	/* Only the controller that has one. */
	p = strstr(buf, "\"iopolicy\"");
	CHECK(p && p > strstr(buf, "\"rblk-ctrl7\"") &&
	      !strstr(p + 1, "\"iopolicy\""));

	f = capture();
	print_list(f, OUT_JSON, fc, 2);
	fclose(f);
	CHECK(!strstr(buf, "iopolicy"));
}

static void show_iopolicy(void)
{
	struct ctrl_info c = fc[0];
	FILE *f;

	c.has_iopolicy = true;
	c.iopolicy = RBLK_IOPOLICY_NUMA;
	f = capture();
	print_show(f, OUT_NORMAL, &c);
	fclose(f);
	CHECK_CONTAINS(buf, "  subsysnqn         " FIX_NQN "\n"
			    "  iopolicy          numa\n"
			    "  hostnqn           ");

	f = capture();
	print_show(f, OUT_JSON, &c);
	fclose(f);
	CHECK_CONTAINS(buf, "  \"subsysnqn\": \"" FIX_NQN "\",\n"
			    "  \"iopolicy\": \"numa\",\n");

	/* A policy this nvmecfg has no name for. */
	c.iopolicy = __RBLK_IOPOLICY_MAX;
	f = capture();
	print_show(f, OUT_NORMAL, &c);
	print_show(f, OUT_JSON, &c);
	fclose(f);
	CHECK_CONTAINS(buf, "  iopolicy          unknown\n");
	CHECK_CONTAINS(buf, "  \"iopolicy\": \"unknown\",\n");

	/* Without multipath: neither. */
	f = capture();
	print_show(f, OUT_NORMAL, &fc[0]);
	print_show(f, OUT_JSON, &fc[0]);
	fclose(f);
	CHECK(!strstr(buf, "iopolicy"));
}

/*
 * DH-HMAC-CHAP in show: what the last exchange used, "none" for a host
 * key the target did not ask for, nothing without keys; in JSON only
 * what an exchange used.
 */
static void show_dhchap(void)
{
	struct ctrl_info c = fc[0];
	FILE *f;

	c.has_dhchap_flags = true;
	c.dhchap_flags = RBLK_DHCHAP_F_HOST_KEY | RBLK_DHCHAP_F_CTRL_KEY |
			 RBLK_DHCHAP_F_BIDIRECTIONAL;
	c.has_dhchap_hash = true;
	c.dhchap_hash = 2;
	c.dhchap_dhgroup = 1;
	f = capture();
	print_show(f, OUT_NORMAL, &c);
	fclose(f);
	CHECK_CONTAINS(buf, "  hostid            deadbeef-0001-0203-0405-060708090a0b\n"
			    "  dhchap            hmac(sha384) ffdhe2048 bidirectional\n"
			    "  cntlid            ");
	f = capture();
	print_show(f, OUT_JSON, &c);
	fclose(f);
	CHECK_CONTAINS(buf, "  \"dhchap_hash\": \"hmac(sha384)\",\n"
			    "  \"dhchap_dhgroup\": \"ffdhe2048\",\n"
			    "  \"dhchap_bidirectional\": true,\n");

	c.dhchap_flags = RBLK_DHCHAP_F_HOST_KEY;
	c.dhchap_hash = 3;
	c.dhchap_dhgroup = 0;
	f = capture();
	print_show(f, OUT_NORMAL, &c);
	print_show(f, OUT_JSON, &c);
	fclose(f);
	CHECK_CONTAINS(buf, "  dhchap            hmac(sha512) null unidirectional\n");
	CHECK_CONTAINS(buf, "  \"dhchap_hash\": \"hmac(sha512)\",\n"
			    "  \"dhchap_dhgroup\": \"null\",\n"
			    "  \"dhchap_bidirectional\": false,\n");

	/* A host key, but the target did not ask: no hash. */
	c.has_dhchap_hash = false;
	f = capture();
	print_show(f, OUT_NORMAL, &c);
	print_show(f, OUT_JSON, &c);
	fclose(f);
	CHECK_CONTAINS(buf, "  dhchap            none (target does not authenticate)\n");
	CHECK(!strstr(buf, "\"dhchap"));

	/* No flags (no keys, or an older module): nothing, hash or not. */
	c.has_dhchap_flags = false;
	c.has_dhchap_hash = true;
	f = capture();
	print_show(f, OUT_NORMAL, &c);
	print_show(f, OUT_JSON, &c);
	fclose(f);
	CHECK(!strstr(buf, "dhchap"));
}

/* list: a DH-HMAC-CHAP column only when a controller holds a key. */
static void list_normal_dhchap(void)
{
	struct ctrl_info c[2] = { fc[0], fc[1] };
	FILE *f;

	c[0].has_dhchap_flags = true;
	c[0].dhchap_flags = RBLK_DHCHAP_F_HOST_KEY;
	c[0].has_dhchap_hash = true;
	c[0].dhchap_hash = 1;
	c[0].dhchap_dhgroup = 5;
	f = capture();
	print_list(f, OUT_NORMAL, c, 2);
	fclose(f);
	CHECK_STR(buf,
		  "Controller  State       Address    Port   DH-HMAC-CHAP                           Subsystem NQN\n"
		  "  Device    NSID        Size       Block                                         WWID\n"
		  "rblk-ctrl0  live        10.99.0.1  4420   hmac(sha256) ffdhe8192 unidirectional  " FIX_NQN "\n"
		  "  rblk0     1           1 GiB      512                                           " FIX_WWID0 "\n"
		  "  rblk1     2           256 MiB    4096                                          " FIX_WWID1 "\n"
		  "rblk-ctrl7  connecting  fd00::1    4420   -                                      " FIX_NQN "\n"
		  "  rblk9     3           64 MiB     512                                           " FIX_WWID2 "\n");

	c[0].has_dhchap_hash = false;
	f = capture();
	print_list(f, OUT_NORMAL, c, 2);
	print_list(f, OUT_JSON, c, 2);
	fclose(f);
	CHECK_CONTAINS(buf, "4420   none (target does not authenticate)  " FIX_NQN "\n");
	CHECK(!strstr(buf, "\"dhchap"));

	c[0].has_dhchap_flags = false;
	f = capture();
	print_list(f, OUT_NORMAL, c, 2);
	fclose(f);
	CHECK(!strstr(buf, "DH-HMAC-CHAP"));
}

/*
 * nvme-cli 2.x's list-subsys: iopolicy only with multipath; the ANA state
 * (JSON ANAState) of each path only with a device, its head's.
 */
static void subsys_output(void)
{
	struct subsys_filter flt = { 0 };
	struct subsys_info s[2];
	struct path_info p[3], hp[2];
	struct subsys_list list;
	struct head_info h;
	FILE *f;

	fix_subsys(s, p, &h, hp, &list);
	f = capture();
	print_subsys(f, OUT_NORMAL, &list, NULL);
	fclose(f);
	CHECK_STR(buf,
		  "rblk-subsys0 - NQN=" FIX_NQN "\n"
		  "               hostnqn=" FIX_HOSTNQN "\n"
		  "               iopolicy=round-robin\n"
		  "\\\n"
		  " +- rblk-ctrl0 rdma traddr=10.99.0.1,trsvcid=4420 live\n"
		  " +- rblk-ctrl2 rdma traddr=10.99.0.2,trsvcid=4420 connecting\n"
		  "\n"
		  "rblk-subsys1 - NQN=nqn.2026-12.io.rblk:other\n"
		  "               hostnqn=" FIX_HOSTNQN "\n"
		  "\\\n"
		  " +- rblk-ctrl1 rdma traddr=10.99.0.1,trsvcid=4421 live\n");

	f = capture();
	print_subsys(f, OUT_JSON, &list, NULL);
	fclose(f);
	CHECK_PREFIX(buf, "[\n  {\n    \"HostNQN\": \"" FIX_HOSTNQN "\",\n"
			  "    \"HostID\": \"deadbeef-0001-0203-0405-060708090a0b\",\n"
			  "    \"Subsystems\": [\n");
	CHECK_CONTAINS(buf, "        \"Name\": \"rblk-subsys0\",\n"
			    "        \"NQN\": \"" FIX_NQN "\",\n"
			    "        \"Paths\": [\n"
			    "          {\n"
			    "            \"Name\": \"rblk-ctrl0\",\n"
			    "            \"Transport\": \"rdma\",\n"
			    "            \"Address\": \"traddr=10.99.0.1,trsvcid=4420\",\n"
			    "            \"State\": \"live\"\n"
			    "          },\n");
	CHECK_CONTAINS(buf, "        \"Name\": \"rblk-subsys1\",\n"
			    "        \"NQN\": \"nqn.2026-12.io.rblk:other\",\n"
			    "        \"Paths\": [\n");
	/* As nvme-cli's: no policy nor ANA state without -v, a device. */
	CHECK(!strstr(buf, "IOPolicy") && !strstr(buf, "ANAState"));

	/* -v: the subsystem's identity, nvme-cli's keys and words. */
	flt.verbose = true;
	f = capture();
	print_subsys(f, OUT_NORMAL, &list, &flt);
	print_subsys(f, OUT_JSON, &list, &flt);
	fclose(f);
	CHECK_CONTAINS(buf, "               iopolicy=round-robin\n"
			    "               model=Linux\n"
			    "               serial=abc123\n"
			    "               firmware=6.1.0\n"
			    "               type=nvm\n"
			    "\\\n");
	CHECK_CONTAINS(buf, "        \"Name\": \"rblk-subsys0\",\n"
			    "        \"NQN\": \"" FIX_NQN "\",\n"
			    "        \"Model\": \"Linux\",\n"
			    "        \"Serial\": \"abc123\",\n"
			    "        \"Firmware\": \"6.1.0\",\n"
			    "        \"IOPolicy\": \"round-robin\",\n"
			    "        \"Type\": \"nvm\",\n"
			    "        \"Paths\": [\n");

	/* A device: its subsystem only, its head's paths and ANA states. */
	memset(&flt, 0, sizeof(flt));
	flt.subsys = &s[0];
	flt.head = &h;
	f = capture();
	print_subsys(f, OUT_NORMAL, &list, &flt);
	fclose(f);
	CHECK_STR(buf,
		  "rblk-subsys0 - NQN=" FIX_NQN "\n"
		  "               hostnqn=" FIX_HOSTNQN "\n"
		  "               iopolicy=round-robin\n"
		  "\\\n"
		  " +- rblk-ctrl0 rdma traddr=10.99.0.1,trsvcid=4420 live inaccessible\n"
		  " +- rblk-ctrl2 rdma traddr=10.99.0.2,trsvcid=4420 connecting non-optimized\n");
	f = capture();
	print_subsys(f, OUT_JSON, &list, &flt);
	fclose(f);
	CHECK_CONTAINS(buf, "            \"State\": \"live\",\n"
			    "            \"ANAState\": \"inaccessible\"\n");
	CHECK_CONTAINS(buf, "            \"State\": \"connecting\",\n"
			    "            \"ANAState\": \"non-optimized\"\n");
	CHECK(!strstr(buf, "rblk-subsys1"));
	/* Before its first ANA log a path's state is "-". */
	hp[1].has_ana_state = false;
	f = capture();
	print_subsys(f, OUT_NORMAL, &list, &flt);
	fclose(f);
	CHECK_CONTAINS(buf, " connecting -\n");

	/* Without multipath: a namespace's controller, no ANA state. */
	memset(&flt, 0, sizeof(flt));
	flt.subsys = &s[1];
	flt.ctrl = "rblk-ctrl1";
	s[0].has_iopolicy = false;
	f = capture();
	print_subsys(f, OUT_NORMAL, &list, &flt);
	print_subsys(f, OUT_JSON, &list, &flt);
	fclose(f);
	CHECK(!strstr(buf, "iopolicy") && !strstr(buf, "IOPolicy") &&
	      !strstr(buf, "ANAState") && !strstr(buf, "rblk-subsys0"));
	CHECK_PREFIX(buf, "rblk-subsys1 - NQN=nqn.2026-12.io.rblk:other\n"
			  "               hostnqn=" FIX_HOSTNQN "\n"
			  "\\\n +- rblk-ctrl1 rdma traddr=10.99.0.1,trsvcid=4421 live\n[");
}

/* A path of host NQN @host (host ID ...0@id) for subsys_two_hosts. */
static void two_hosts_path(struct path_info *p, const char *name,
			   const char *port, uint8_t state, const char *host,
			   unsigned char id)
{
	memset(p, 0, sizeof(*p));
	strcpy(p->name, name);
	strcpy(p->traddr, "10.99.0.1");
	strcpy(p->trsvcid, port);
	p->state = state;
	strcpy(p->hostnqn, host);
	p->has_hostid = true;
	p->hostid[RBLK_HOSTID_LEN - 1] = id;
}

/*
 * A subsystem is one whatever host NQN its controllers connected with
 * (the kernel's, over netlink): list-subsys lists it under each host NQN
 * with that host's paths, as nvme-cli does (subsys_sort()); with a device,
 * under each host NQN of its head's paths, with that host's.
 */
static void subsys_two_hosts(void)
{
	struct subsys_filter flt = { 0 };
	struct subsys_list list = { 0 };
	struct path_info *p, *hp;
	struct head_info *h;
	struct subsys_info *s;
	FILE *f;

	s = calloc(2, sizeof(*s));
	p = calloc(3, sizeof(*p));
	h = calloc(1, sizeof(*h));
	hp = calloc(2, sizeof(*hp));
	CHECK(s && p && h && hp);
	if (!s || !p || !h || !hp)
		return;
	/* In the kernel's order: subsys_sort() sorts. */
	strcpy(s[1].name, "rblk-subsys0");
	strcpy(s[1].nqn, FIX_NQN);
	s[1].has_iopolicy = true;
	s[1].iopolicy = RBLK_IOPOLICY_ROUND_ROBIN;
	s[1].paths = p;
	s[1].nr_paths = 3;
	two_hosts_path(&p[0], "rblk-ctrl10", "4421", RBLK_STATE_CONNECTING,
		       FIX_HOSTNQN, 1);
	two_hosts_path(&p[1], "rblk-ctrl5", "4420", RBLK_STATE_LIVE,
		       "host-b", 2);
	two_hosts_path(&p[2], "rblk-ctrl3", "4420", RBLK_STATE_LIVE,
		       FIX_HOSTNQN, 1);
	strcpy(s[0].name, "rblk-subsys1");
	strcpy(s[0].nqn, "nqn.2026-12.io.rblk:other");
	s[0].paths = calloc(1, sizeof(*p));
	CHECK(s[0].paths);
	if (!s[0].paths)
		return;
	s[0].nr_paths = 1;
	two_hosts_path(s[0].paths, "rblk-ctrl4", "4420", RBLK_STATE_LIVE,
		       "host-b", 2);
	strcpy(h->name, "rblk3");
	strcpy(h->subsys, "rblk-subsys0");
	h->nsid = 1;
	h->paths = hp;
	h->nr_paths = 2;
	hp[0] = p[1];
	hp[0].has_ana_state = true;
	hp[0].ana_state = 1;	/* optimized */
	hp[1] = p[2];
	hp[1].has_ana_state = true;
	hp[1].ana_state = 3;	/* inaccessible */
	list.subsys = s;
	list.nr = 2;
	list.heads = h;
	list.nr_heads = 1;

	CHECK(subsys_sort(&list) == 0);
	CHECK(list.nr == 3);
	f = capture();
	print_subsys(f, OUT_NORMAL, &list, NULL);
	fclose(f);
	CHECK_STR(buf,
		  "rblk-subsys0 - NQN=" FIX_NQN "\n"
		  "               hostnqn=" FIX_HOSTNQN "\n"
		  "               iopolicy=round-robin\n"
		  "\\\n"
		  " +- rblk-ctrl3 rdma traddr=10.99.0.1,trsvcid=4420 live\n"
		  " +- rblk-ctrl10 rdma traddr=10.99.0.1,trsvcid=4421 connecting\n"
		  "\n"
		  "rblk-subsys0 - NQN=" FIX_NQN "\n"
		  "               hostnqn=host-b\n"
		  "               iopolicy=round-robin\n"
		  "\\\n"
		  " +- rblk-ctrl5 rdma traddr=10.99.0.1,trsvcid=4420 live\n"
		  "\n"
		  "rblk-subsys1 - NQN=nqn.2026-12.io.rblk:other\n"
		  "               hostnqn=host-b\n"
		  "\\\n"
		  " +- rblk-ctrl4 rdma traddr=10.99.0.1,trsvcid=4420 live\n");

	f = capture();
	print_subsys(f, OUT_JSON, &list, NULL);
	fclose(f);
	CHECK_PREFIX(buf, "[\n  {\n    \"HostNQN\": \"" FIX_HOSTNQN "\",\n"
			  "    \"HostID\": \"00000000-0000-0000-0000-000000000001\",\n"
			  "    \"Subsystems\": [\n"
			  "      {\n"
			  "        \"Name\": \"rblk-subsys0\",\n");
	/* host-b: rblk-subsys0 with rblk-ctrl5 only, then rblk-subsys1. */
	CHECK_CONTAINS(buf, "    \"HostNQN\": \"host-b\",\n"
			    "    \"HostID\": \"00000000-0000-0000-0000-000000000002\",\n"
			    "    \"Subsystems\": [\n"
			    "      {\n"
			    "        \"Name\": \"rblk-subsys0\",\n"
			    "        \"NQN\": \"" FIX_NQN "\",\n"
			    "        \"Paths\": [\n"
			    "          {\n"
			    "            \"Name\": \"rblk-ctrl5\",\n"
			    "            \"Transport\": \"rdma\",\n"
			    "            \"Address\": \"traddr=10.99.0.1,trsvcid=4420\",\n"
			    "            \"State\": \"live\"\n"
			    "          }\n"
			    "        ]\n"
			    "      },\n"
			    "      {\n"
			    "        \"Name\": \"rblk-subsys1\",\n");

	/* A device: its head's paths, under the host NQN of each. */
	flt.subsys = subsys_find(&list, "rblk-subsys0");
	flt.head = subsys_find_head(&list, "rblk3");
	CHECK(flt.subsys && flt.head);
	f = capture();
	print_subsys(f, OUT_NORMAL, &list, &flt);
	fclose(f);
	CHECK_STR(buf,
		  "rblk-subsys0 - NQN=" FIX_NQN "\n"
		  "               hostnqn=" FIX_HOSTNQN "\n"
		  "               iopolicy=round-robin\n"
		  "\\\n"
		  " +- rblk-ctrl3 rdma traddr=10.99.0.1,trsvcid=4420 live inaccessible\n"
		  "\n"
		  "rblk-subsys0 - NQN=" FIX_NQN "\n"
		  "               hostnqn=host-b\n"
		  "               iopolicy=round-robin\n"
		  "\\\n"
		  " +- rblk-ctrl5 rdma traddr=10.99.0.1,trsvcid=4420 live optimized\n");
	f = capture();
	print_subsys(f, OUT_JSON, &list, &flt);
	fclose(f);
	CHECK_CONTAINS(buf, "    \"HostNQN\": \"host-b\",\n"
			    "    \"HostID\": \"00000000-0000-0000-0000-000000000002\",\n"
			    "    \"Subsystems\": [\n"
			    "      {\n"
			    "        \"Name\": \"rblk-subsys0\",\n"
			    "        \"NQN\": \"" FIX_NQN "\",\n"
			    "        \"Paths\": [\n"
			    "          {\n"
			    "            \"Name\": \"rblk-ctrl5\",\n");
	CHECK(!strstr(buf, "rblk-subsys1") && !strstr(buf, "rblk-ctrl10"));

	/* Without multipath: only the host NQN of the device's controller. */
	memset(&flt, 0, sizeof(flt));
	flt.subsys = subsys_of_ctrl(&list, "rblk-ctrl5");
	flt.ctrl = "rblk-ctrl5";
	f = capture();
	print_subsys(f, OUT_NORMAL, &list, &flt);
	fclose(f);
	CHECK_STR(buf,
		  "rblk-subsys0 - NQN=" FIX_NQN "\n"
		  "               hostnqn=host-b\n"
		  "               iopolicy=round-robin\n"
		  "\\\n"
		  " +- rblk-ctrl5 rdma traddr=10.99.0.1,trsvcid=4420 live\n");

	/* show-topology: the head under each host, with that host's paths. */
	memset(&flt, 0, sizeof(flt));
	f = capture();
	print_topology(f, OUT_NORMAL, &list, &flt);
	fclose(f);
	CHECK_CONTAINS(buf, "               hostnqn=host-b\n"
			    "               iopolicy=round-robin\n"
			    "\\\n"
			    " +- ns 1\n"
			    " \\\n"
			    "  +- rblk-ctrl5 rdma traddr=10.99.0.1,trsvcid=4420 live optimized\n"
			    "\n");
	for (size_t i = 0; i < list.nr; i++)
		free(list.subsys[i].paths);
	free(list.subsys);
	free(h);
	free(hp);
}

/* nvme-cli 2.x's show-topology: namespaces, their paths, ANA states. */
static void topology_output(void)
{
	struct subsys_filter flt = { 0 };
	struct subsys_info s[2];
	struct path_info p[3], hp[2];
	struct subsys_list list;
	struct head_info h;
	struct ctrl_info c[2];
	struct ns_info ns[3];
	FILE *f;

	fix_subsys(s, p, &h, hp, &list);
	fix_ctrls(c, ns);
	/* rblk-subsys1 without multipath: its controller's namespaces. */
	strcpy(c[0].name, "rblk-ctrl1");
	flt.ctrls = c;
	flt.nr_ctrls = 2;
	f = capture();
	print_topology(f, OUT_NORMAL, &list, &flt);
	fclose(f);
	CHECK_STR(buf,
		  "rblk-subsys0 - NQN=" FIX_NQN "\n"
		  "               hostnqn=" FIX_HOSTNQN "\n"
		  "               iopolicy=round-robin\n"
		  "\\\n"
		  " +- ns 1\n"
		  " \\\n"
		  "  +- rblk-ctrl0 rdma traddr=10.99.0.1,trsvcid=4420 live inaccessible\n"
		  "  +- rblk-ctrl2 rdma traddr=10.99.0.2,trsvcid=4420 connecting non-optimized\n"
		  "\n"
		  "rblk-subsys1 - NQN=nqn.2026-12.io.rblk:other\n"
		  "               hostnqn=" FIX_HOSTNQN "\n"
		  "\\\n"
		  " +- ns 1\n"
		  " \\\n"
		  "  +- rblk-ctrl1 rdma traddr=10.99.0.1,trsvcid=4421 live\n"
		  " +- ns 2\n"
		  " \\\n"
		  "  +- rblk-ctrl1 rdma traddr=10.99.0.1,trsvcid=4421 live\n");

	flt.by_ctrl = true;
	f = capture();
	print_topology(f, OUT_NORMAL, &list, &flt);
	fclose(f);
	CHECK_CONTAINS(buf, "\\\n"
			    " +- rblk-ctrl0 rdma traddr=10.99.0.1,trsvcid=4420\n"
			    " \\\n"
			    "  +- ns 1 live inaccessible\n"
			    " +- rblk-ctrl2 rdma traddr=10.99.0.2,trsvcid=4420\n"
			    " \\\n"
			    "  +- ns 1 connecting non-optimized\n");
	CHECK_CONTAINS(buf, " +- rblk-ctrl1 rdma traddr=10.99.0.1,trsvcid=4421\n"
			    " \\\n"
			    "  +- ns 1 live\n"
			    "  +- ns 2 live\n");

	flt.by_ctrl = false;
	f = capture();
	print_topology(f, OUT_JSON, &list, &flt);
	fclose(f);
	CHECK_CONTAINS(buf, "        \"Name\": \"rblk-subsys0\",\n"
			    "        \"NQN\": \"" FIX_NQN "\",\n"
			    "        \"Namespaces\": [\n"
			    "          {\n"
			    "            \"NSID\": 1,\n"
			    "            \"Name\": \"rblk3\",\n"
			    "            \"Paths\": [\n"
			    "              {\n"
			    "                \"Name\": \"rblk-ctrl0\",\n"
			    "                \"Transport\": \"rdma\",\n"
			    "                \"Address\": \"traddr=10.99.0.1,trsvcid=4420\",\n"
			    "                \"State\": \"live\",\n"
			    "                \"ANAState\": \"inaccessible\"\n"
			    "              },\n");
	/* Without multipath, nvme-cli's "Controller" of each namespace. */
	CHECK_CONTAINS(buf, "            \"NSID\": 2,\n"
			    "            \"Name\": \"rblk1\",\n"
			    "            \"Controller\": [\n"
			    "              {\n"
			    "                \"Name\": \"rblk-ctrl1\",\n");
}

static void show_normal(void)
{
	FILE *f;

	f = capture();
	print_show(f, OUT_NORMAL, &fc[0]);
	fclose(f);
	CHECK_PREFIX(buf, "rblk-ctrl0: live\n");
	CHECK_CONTAINS(buf, "  traddr            10.99.0.1\n");
	CHECK_CONTAINS(buf, "  subsysnqn         " FIX_NQN "\n"
			    "  hostnqn           ");
	CHECK_CONTAINS(buf, "  fast_io_fail_tmo  -1\n"
			    "  namespaces        2\n"
			    "  rblk0:\n"
			    "    nsid            1\n"
			    "    size            1073741824 (1 GiB)\n"
			    "    block_size      512\n"
			    "    wwid            " FIX_WWID0 "\n"
			    "    nguid           00112233445566778899aabbccddeeff\n"
			    "    uuid            00112233-4455-6677-8899-aabbccddeeff\n"
			    "  rblk1:\n"
			    "    nsid            2\n");
	CHECK_CONTAINS(buf, "    eui64           0011223344556677\n");
	CHECK(!strstr(buf, "\n  nsid "));

	/* The filter, and a model that must not reach the terminal raw. */
	f = capture();
	print_show(f, OUT_NORMAL, &fc[1]);
	fclose(f);
	CHECK_PREFIX(buf, "rblk-ctrl7: connecting\n");
	CHECK_CONTAINS(buf, "  subsysnqn         " FIX_NQN "\n"
			    "  nsid              3\n");
	CHECK_CONTAINS(buf, "  model             Q\"B\\N?T?C?U");
	CHECK_CONTAINS(buf, "  namespaces        1\n  rblk9:\n");
}

static void show_json(void)
{
	FILE *f;

	f = capture();
	print_show(f, OUT_JSON, &fc[1]);
	fclose(f);
	CHECK_PREFIX(buf, "{\n  \"index\": 7,\n  \"name\": \"rblk-ctrl7\",\n");
	CHECK_CONTAINS(buf, "  \"namespaces\": [\n    {\n      \"index\": 9,\n"
			    "      \"name\": \"rblk9\",\n      \"nsid\": 3,\n"
			    "      \"size\": 67108864,\n"
			    "      \"block_size\": 512,\n");
	CHECK(strlen(buf) > 6 && !strcmp(buf + strlen(buf) - 6, "  ]\n}\n"));
}

static void stats_output(void)
{
	struct stats_info st;
	FILE *f;

	fix_stats(&st, true);
	f = capture();
	print_stats(f, OUT_NORMAL, &st);
	fclose(f);
	CHECK_CONTAINS(buf, "rblk0:\n  controller          rblk-ctrl0\n"
			    "  reads               1001\n");
	CHECK_CONTAINS(buf, "  read_bytes          18446744073709551615\n");
	CHECK_CONTAINS(buf, "  errors_cmd_specific 1015\n");
	CHECK_CONTAINS(buf, "  doorbells           1020\n");
	CHECK_CONTAINS(buf, "  commands_per_doorbell 1.00\n");
	CHECK_CONTAINS(buf, "    0 - 2             3\n");
	CHECK_CONTAINS(buf, "    16 - 32           40\n");
	CHECK_CONTAINS(buf, "    >= 8388608        1\n");
	CHECK(!strstr(buf, "lat_hist"));

	f = capture();
	print_stats(f, OUT_JSON, &st);
	fclose(f);
	CHECK_PREFIX(buf, "{\n  \"ctrl_index\": 0,\n"
			  "  \"controller\": \"rblk-ctrl0\",\n"
			  "  \"index\": 0,\n  \"name\": \"rblk0\",\n");
	CHECK_CONTAINS(buf, "\"reads\": 1001,");
	CHECK_CONTAINS(buf, "\"errors_vendor\": 1018,");
	CHECK_CONTAINS(buf, "\"commands_posted\": 1021,");
	CHECK_CONTAINS(buf, "\"commands_per_doorbell\": 1.00,");
	CHECK_CONTAINS(buf, "\"latency_hist_us\": [\n    3,\n    0,");

	memset(st.lat_hist, 0, sizeof(st.lat_hist));
	f = capture();
	print_stats(f, OUT_NORMAL, &st);
	fclose(f);
	CHECK_CONTAINS(buf, "    no completions\n");
}

static void stats_head(void)
{
	struct stats_info st;
	FILE *f;

	fix_stats(&st, true);
	st.is_head = true;
	st.nr_paths = 2;
	f = capture();
	print_stats(f, OUT_NORMAL, &st);
	fclose(f);
	CHECK_PREFIX(buf, "rblk0:\n  paths               2\n"
			  "  reads               1001\n");
	CHECK(!strstr(buf, "controller"));

	f = capture();
	print_stats(f, OUT_JSON, &st);
	fclose(f);
	CHECK_PREFIX(buf, "{\n  \"nr_paths\": 2,\n"
			  "  \"index\": 0,\n  \"name\": \"rblk0\",\n");
	CHECK(!strstr(buf, "\"controller\""));
}

static void stats_controller(void)
{
	struct stats_info st;
	FILE *f;

	fix_stats(&st, false);
	f = capture();
	print_stats(f, OUT_NORMAL, &st);
	fclose(f);
	CHECK_PREFIX(buf, "rblk-ctrl0:\n  reads               1001\n");
	CHECK(!strstr(buf, "controller"));

	f = capture();
	print_stats(f, OUT_JSON, &st);
	fclose(f);
	CHECK_PREFIX(buf, "{\n  \"ctrl_index\": 0,\n"
			  "  \"controller\": \"rblk-ctrl0\",\n"
			  "  \"reads\": 1001,\n");
	CHECK(!strstr(buf, "\"name\""));
	CHECK(!strstr(buf, "\"index\""));
}

/* disconnect by a namespace's name, without --force. */
static void ns_refusal(void)
{
	struct ctrl_info c[3];
	struct ns_info ns[3];
	FILE *f;

	fix_ctrls(c, ns);
	f = capture();
	CHECK(print_ns_refusal(f, "disconnect", "rblk1", c, 2) == 1);
	fclose(f);
	CHECK_STR(buf, "nvmecfg: disconnect: rblk1 is a namespace of rblk-ctrl0; disconnect rblk-ctrl0 to remove the controller and all its namespaces\n"
		       "Or give --force to disconnect it by rblk1 all the same.\n");
	f = capture();
	CHECK(print_ns_refusal(f, "disconnect", "rblk9", c, 2) == 1);
	fclose(f);
	CHECK_PREFIX(buf, "nvmecfg: disconnect: rblk9 is a namespace of rblk-ctrl7; disconnect rblk-ctrl7 ");

	/* No such namespace, or only on a controller being deleted. */
	f = capture();
	CHECK(print_ns_refusal(f, "disconnect", "rblk2", c, 2) == 0);
	CHECK(print_ns_refusal(f, "disconnect", "rblk-ctrl0", c, 2) == 0);
	c[1].state = RBLK_STATE_DELETING;
	CHECK(print_ns_refusal(f, "disconnect", "rblk9", c, 2) == 0);
	fclose(f);
	CHECK_STR(buf, "");

	/* A multipath head: rblk0 on three controllers, one leaving. */
	c[1].state = RBLK_STATE_LIVE;
	c[1].ns = &ns[0];
	c[2] = c[1];
	strcpy(c[2].name, "rblk-ctrl9");
	f = capture();
	CHECK(print_ns_refusal(f, "disconnect", "rblk0", c, 3) == 3);
	fclose(f);
	CHECK_STR(buf, "nvmecfg: disconnect: rblk0 is a namespace with several paths (controllers), rblk-ctrl0, rblk-ctrl7 and rblk-ctrl9; disconnect one of them to remove that controller and all its namespaces\n");
	c[2].state = RBLK_STATE_DELETING;
	f = capture();
	CHECK(print_ns_refusal(f, "disconnect", "rblk0", c, 3) == 2);
	fclose(f);
	CHECK_CONTAINS(buf, "(controllers), rblk-ctrl0 and rblk-ctrl7; ");
}

static void discover_output(void)
{
	struct disc_entry e[2];
	struct disc_log log;
	FILE *f;

	fix_disc(e, &log);
	f = capture();
	print_discover(f, OUT_JSON, &log);
	fclose(f);
	CHECK_PREFIX(buf, "{\n  \"genctr\": 42,\n  \"numrec\": 2,\n");
	CHECK_CONTAINS(buf, "\"subtype\": \"current discovery subsystem\"");
	CHECK_CONTAINS(buf, "\"subnqn\": \"" FIX_NQN "\"");
	CHECK_CONTAINS(buf, "\"cntlid\": 65535");
	CHECK_CONTAINS(buf, "\"rdma_prtype\": \"roce-v2\"");

	/* No RDMA fields for another transport, as nvme-cli. */
	e[1].trtype = 3;
	f = capture();
	print_discover(f, OUT_JSON, &log);
	fclose(f);
	CHECK(strstr(buf, "\"trtype\": \"tcp\""));
	CHECK(!strstr(strstr(buf, "\"trtype\": \"tcp\""), "rdma_"));
	e[1].trtype = 1;

	log.nr = 0;
	log.numrec = 0;
	log.genctr = 0;
	f = capture();
	print_discover(f, OUT_JSON, &log);
	fclose(f);
	CHECK_STR(buf, "{\n  \"genctr\": 0,\n  \"numrec\": 0,\n  \"records\": []\n}\n");

	/* A log longer than the kernel reports: the count is the target's. */
	log.nr = 2;
	log.numrec = 300;
	f = capture();
	print_discover(f, OUT_NORMAL, &log);
	fclose(f);
	CHECK_PREFIX(buf, "\nDiscovery Log Number of Records 300, Generation counter 0\n"
			  "=====Discovery Log Entry 0======\n");
}

/*
 * nvme discover's text, as nvme-cli 2.x prints a discovery log (its
 * stdout_discovery_log(), fabrics.c's print_discovery_log() before 2.5),
 * byte for byte: fix_disc()'s two records, a referral to an IPv6 port
 * and a TCP record without a traddr and with values libnvme has no words
 * for.  The empty log too.
 */
static void discover_text_golden(void)
{
	static const char want[] =
		"\n"
		"Discovery Log Number of Records 4, Generation counter 42\n"
		"=====Discovery Log Entry 0======\n"
		"trtype:  rdma\n"
		"adrfam:  ipv4\n"
		"subtype: current discovery subsystem\n"
		"treq:    not specified\n"
		"portid:  1\n"
		"trsvcid: 4420\n"
		"subnqn:  nqn.2014-08.org.nvmexpress.discovery\n"
		"traddr:  10.99.0.1\n"
		"eflags:  explicit discovery connections, duplicate discovery information\n"
		"rdma_prtype: not specified\n"
		"rdma_qptype: connected\n"
		"rdma_cms:    rdma-cm\n"
		"rdma_pkey: 0x0000\n"
		"=====Discovery Log Entry 1======\n"
		"trtype:  rdma\n"
		"adrfam:  ipv4\n"
		"subtype: nvme subsystem\n"
		"treq:    not required, sq flow control disable supported\n"
		"portid:  1\n"
		"trsvcid: 4420\n"
		"subnqn:  " FIX_NQN "\n"
		"traddr:  10.99.0.1\n"
		"eflags:  none\n"
		"rdma_prtype: roce-v2\n"
		"rdma_qptype: connected\n"
		"rdma_cms:    rdma-cm\n"
		"rdma_pkey: 0xffff\n"
		"=====Discovery Log Entry 2======\n"
		"trtype:  rdma\n"
		"adrfam:  ipv6\n"
		"subtype: discovery subsystem referral\n"
		"treq:    required, sq flow control disable supported\n"
		"portid:  65535\n"
		"trsvcid: 8009\n"
		"subnqn:  nqn.2014-08.org.nvmexpress.discovery\n"
		"traddr:  fd00::2\n"
		"eflags:  no cdc connectivity\n"
		"rdma_prtype: iwarp\n"
		"rdma_qptype: datagram\n"
		"rdma_cms:    unrecognized\n"
		"rdma_pkey: 0x0012\n"
		"=====Discovery Log Entry 3======\n"
		"trtype:  tcp\n"
		"adrfam:  \n"
		"subtype: nvme subsystem\n"
		"treq:    unrecognized\n"
		"portid:  7\n"
		"trsvcid: 4420\n"
		"subnqn:  nqn.2026-12.io.rblk:tcp\n"
		"traddr:  \n"
		"eflags:  unrecognized\n";
	struct disc_entry e[4];
	struct disc_log log;
	FILE *f;

	fix_disc(e, &log);
	e[2] = e[0];
	e[2].adrfam = 2;
	e[2].subtype = 1;
	e[2].treq = 5;
	e[2].portid = 65535;
	e[2].eflags = 4;
	e[2].rdma_prtype = 5;
	e[2].rdma_qptype = 2;
	e[2].rdma_cms = 0;
	e[2].rdma_pkey = 0x12;
	strcpy(e[2].trsvcid, "8009");
	strcpy(e[2].traddr, "fd00::2");
	memset(&e[3], 0, sizeof(e[3]));
	e[3].trtype = 3;
	e[3].adrfam = 254;
	e[3].subtype = 2;
	e[3].treq = 3;
	e[3].portid = 7;
	e[3].eflags = 8;
	/* Not RDMA: its fields are not printed, whatever they hold. */
	e[3].rdma_prtype = 2;
	strcpy(e[3].trsvcid, "4420");
	strcpy(e[3].subnqn, "nqn.2026-12.io.rblk:tcp");
	log.e = e;
	log.nr = 4;
	log.numrec = 4;

	f = capture();
	print_discover(f, OUT_NORMAL, &log);
	fclose(f);
	CHECK_STR(buf, want);

	log.nr = 0;
	log.numrec = 0;
	log.genctr = 0;
	f = capture();
	print_discover(f, OUT_NORMAL, &log);
	fclose(f);
	CHECK_STR(buf, "\nDiscovery Log Number of Records 0, Generation counter 0\n");
}

static void discover_names(void)
{
	CHECK_STR(eflags_name(0), "none");
	CHECK_STR(eflags_name(4), "no cdc connectivity");
	CHECK_STR(eflags_name(7), "explicit discovery connections, "
		  "duplicate discovery information, no cdc connectivity");
	CHECK_STR(eflags_name(8), "unrecognized");
	CHECK_STR(prtype_name(0), "unrecognized");
	CHECK_STR(prtype_name(1), "not specified");
	CHECK_STR(prtype_name(2), "infiniband");
	CHECK_STR(prtype_name(3), "roce");
	CHECK_STR(prtype_name(5), "iwarp");
	CHECK_STR(prtype_name(6), "unrecognized");
	CHECK_STR(qptype_name(1), "connected");
	CHECK_STR(qptype_name(2), "datagram");
	CHECK_STR(qptype_name(0), "unrecognized");
	CHECK_STR(cms_name(1), "rdma-cm");
	CHECK_STR(cms_name(2), "unrecognized");
}

/* Every error names its cause; kernel-found bad values exit as usage. */
static void error_words(void)
{
	CHECK_STR(errno_words(-ENETUNREACH, true), "no route to the target");
	CHECK_STR(errno_words(-ECONNREFUSED, true), "connection refused");
	CHECK_STR(errno_words(-ETIMEDOUT, true), "timed out");
	CHECK_STR(errno_words(-EACCES, true), "host not allowed by the target");
	CHECK_STR(errno_words(-ENOENT, true),
		  "subsystem or host NQN unknown to the target");
	CHECK_STR(errno_words(-EALREADY, true), "a controller to this target exists");
	CHECK_STR(errno_words(-EPERM, false),
		  "permission denied (needs CAP_SYS_ADMIN and CAP_NET_ADMIN)");
	CHECK_STR(errno_words(-EPERM, true),
		  "permission denied (needs CAP_SYS_ADMIN and CAP_NET_ADMIN)");
	/* Not a target's answer elsewhere: the C library's words. */
	CHECK_STR(errno_words(-ENOENT, false), strerror(ENOENT));
	CHECK_STR(errno_words(-ENODEV, false), strerror(ENODEV));
	CHECK_STR(errno_words(-EINVAL, true), strerror(EINVAL));

	CHECK(error_exit(-EINVAL, true) == EXIT_USAGE);
	CHECK(error_exit(-ERANGE, true) == EXIT_USAGE);
	CHECK(error_exit(-EINVAL, false) == EXIT_KERNEL);
	CHECK(error_exit(-ECONNREFUSED, true) == EXIT_KERNEL);
	CHECK(error_exit(-EPERM, false) == EXIT_PERM);
	CHECK(error_exit(-EACCES, false) == EXIT_PERM);
	CHECK(error_exit(-ETIMEDOUT, false) == EXIT_KERNEL);

	/* set-iopolicy: EOPNOTSUPP is multipath=0, exit status 1. */
	CHECK_STR(set_errno_words(-EOPNOTSUPP, true), "multipath is off");
	CHECK_STR(set_errno_words(-EOPNOTSUPP, false),
		  "not supported by the rblk module (multipath off, or a module without I/O policies)");
	CHECK(!set_errno_words(-ENODEV, true));
	CHECK(!set_errno_words(-EINVAL, false));
	CHECK(!set_errno_words(0, false));
	CHECK(error_exit(-EOPNOTSUPP, false) == EXIT_KERNEL);
	CHECK(error_exit(-EOPNOTSUPP, true) == EXIT_KERNEL);
}

/* A refused Fabrics Connect's NVMe status, named by the UAPI's table. */
static void nvme_statuses(void)
{
	static const char *const names[] = RBLK_NVME_STATUS_NAMES;
	size_t i, nr = 0;

	CHECK_STR(nvme_status_name(0x184), "Connect Invalid Host");
	CHECK_STR(nvme_status_name(0x182), "Connect Invalid Parameters");
	CHECK_STR(nvme_status_name(0x181), "Controller Busy");
	CHECK_STR(nvme_status_name(0x183), "Connect Restart Discovery");
	CHECK_STR(nvme_status_name(0x006), "Internal Error");
	CHECK(!nvme_status_name(0x0ff));
	CHECK(!nvme_status_name(0x7ff));
	CHECK(!nvme_status_name(0xffff));
	/* Which parameters, where the name does not say. */
	CHECK_STR(connect_status_words(0x182),
		  "subsystem or host NQN unknown to the target");
	CHECK(!connect_status_words(0x184));
	CHECK(!connect_status_words(0x181));
	/* The UAPI's table, whole: the Fabrics statuses and the last. */
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		CHECK(nvme_status_name(i) == names[i]);
		nr += names[i] != NULL;
	}
	CHECK(nr >= 20);
	CHECK_STR(nvme_status_name(0x191), "Authentication Required");
	CHECK_STR(nvme_status_name(0x281), "Unrecovered Read Error");
}

/* The DH-HMAC-CHAP reason of a refusal, once. */
static void auth_reasons(void)
{
	char b[96];

	CHECK_STR(auth_reason_words(0, NULL, b, sizeof(b)), "");
	CHECK_STR(auth_reason_words(1, NULL, b, sizeof(b)),
		  " (authentication: Failed)");
	CHECK_STR(auth_reason_words(5, "queue 0: timed out", b, sizeof(b)),
		  " (authentication: DH Group Not Usable)");
	/* The kernel's message names it already. */
	CHECK_STR(auth_reason_words(1, "queue 0: authentication failed: target refused the host key (Failed)",
				    b, sizeof(b)), "");
	CHECK_STR(auth_reason_words(RBLK_AUTH_FAILURE_MAX + 1, NULL, b,
				    sizeof(b)),
		  " (authentication: reason 8)");
}

static void host_output(void)
{
	struct host_info h;
	FILE *f;

	fix_host(&h);
	f = capture();
	print_host(f, OUT_NORMAL, &h);
	fclose(f);
	CHECK_STR(buf, "hostnqn             " FIX_HOSTNQN "\n"
		       "  from              option\n"
		       "hostid              deadbeef-0001-0203-0405-060708090a0b\n"
		       "  from              file /etc/nvme/hostid\n"
		       "module              loaded\n"
		       "  hostnqn           nqn.2014-08.org.nvmexpress:uuid:module\n"
		       "  hostid            00000000-0000-0000-0000-000000000001\n");

	/* Left to the module: its values, and where they come from. */
	h.nqn_src = h.id_src = ID_KERNEL;
	f = capture();
	print_host(f, OUT_NORMAL, &h);
	fclose(f);
	CHECK_PREFIX(buf, "hostnqn             nqn.2014-08.org.nvmexpress:uuid:module\n"
			  "  from              module (not persistent)\n"
			  "hostid              00000000-0000-0000-0000-000000000001\n"
			  "  from              module (not persistent)\n");

	/* Derived from the machine's UUID: which, and from what file. */
	h.nqn_src = ID_DMI;
	h.id_src = ID_HOSTNQN;
	strcpy(h.machine.path, "/sys/class/dmi/id/product_uuid");
	f = capture();
	print_host(f, OUT_NORMAL, &h);
	fclose(f);
	CHECK_PREFIX(buf, "hostnqn             " FIX_HOSTNQN "\n"
			  "  from              dmi /sys/class/dmi/id/product_uuid (derived from DMI product UUID)\n"
			  "hostid              deadbeef-0001-0203-0405-060708090a0b\n"
			  "  from              hostnqn\n");
	h.nqn_src = ID_FILE;
	h.id_src = ID_DEVICE_TREE;
	strcpy(h.machine.path, "/proc/device-tree/ibm,partition-uuid");
	f = capture();
	print_host(f, OUT_NORMAL, &h);
	fclose(f);
	CHECK_CONTAINS(buf, "  from              file /etc/nvme/hostnqn\n");
	CHECK_CONTAINS(buf, "  from              device-tree /proc/device-tree/ibm,partition-uuid (derived from device-tree partition UUID)\n");
	h.nqn_src = h.id_src = ID_KERNEL;

	h.module_loaded = false;
	h.module_hostnqn[0] = h.module_hostid[0] = '\0';
	f = capture();
	print_host(f, OUT_NORMAL, &h);
	fclose(f);
	CHECK_STR(buf, "hostnqn             -\n  from              module (not persistent)\n"
		       "hostid              -\n  from              module (not persistent)\n"
		       "module              not loaded\n");
}

static void event_lines(void)
{
	struct ctrl_event ev = {
		.event = RBLK_EVENT_ADDED, .ctrl_index = 3,
		.ctrl_name = "rblk-ctrl3", .state = RBLK_STATE_LIVE,
	};
	FILE *f;

	f = capture();
	print_event(f, OUT_NORMAL, &ev);
	ev.event = RBLK_EVENT_STATE;
	ev.state = RBLK_STATE_RESETTING;
	print_event(f, OUT_NORMAL, &ev);
	print_event(f, OUT_JSON, &ev);
	fclose(f);
	CHECK_STR(buf, "rblk-ctrl3: added (state live)\n"
		       "rblk-ctrl3: state resetting\n"
		       "{\"event\":\"state\",\"index\":3,"
		       "\"name\":\"rblk-ctrl3\",\"state\":\"resetting\"}\n");
}

static void event_namespace(void)
{
	struct ctrl_event ev;
	FILE *f;

	fix_event(&ev);
	f = capture();
	print_event(f, OUT_NORMAL, &ev);
	print_event(f, OUT_JSON, &ev);
	ev.event = RBLK_EVENT_NS_RESIZED;
	ev.ns.size *= 2;
	print_event(f, OUT_NORMAL, &ev);
	fclose(f);
	CHECK_STR(buf,
		  "rblk-ctrl0: ns-added rblk1 nsid 2 size 268435456 "
		  "block_size 4096 (state live)\n"
		  "{\"event\":\"ns-added\",\"index\":0,\"name\":\"rblk-ctrl0\","
		  "\"state\":\"live\",\"namespace\":{\"index\":1,"
		  "\"name\":\"rblk1\",\"nsid\":2,\"size\":268435456,"
		  "\"block_size\":4096,\"wwid\":\"" FIX_WWID1 "\","
		  "\"eui64\":\"0011223344556677\"}}\n"
		  "rblk-ctrl0: ns-resized rblk1 nsid 2 size 536870912 "
		  "block_size 4096 (state live)\n");
}

static void connect_output(void)
{
	struct ctrl_info c = fc[1];
	FILE *f;

	f = capture();
	print_connect(f, OUT_NORMAL, &fc[0]);
	fclose(f);
	CHECK_STR(buf, "rblk-ctrl0\nrblk0\nrblk1\n");

	/* What the connect reply tells: no controller parameters. */
	memset(&c, 0, sizeof(c));
	c.index = 7;
	strcpy(c.name, "rblk-ctrl7");
	c.ns = &fns[2];
	c.nr_ns = 1;
	f = capture();
	print_connect(f, OUT_JSON, &c);
	fclose(f);
	/* nvme-cli 2.x's nvme connect -o json, rblk's keys beside. */
	CHECK_STR(buf, "{\n  \"device\": \"rblk-ctrl7\",\n"
		       "  \"index\": 7,\n  \"name\": \"rblk-ctrl7\",\n"
		       "  \"namespaces\": [\n    {\n"
		       "      \"index\": 9,\n      \"name\": \"rblk9\",\n"
		       "      \"nsid\": 3,\n      \"size\": 67108864,\n"
		       "      \"block_size\": 512,\n"
		       "      \"wwid\": \"" FIX_WWID2 "\"\n    }\n  ]\n}\n");

	/* No namespace (yet): the controller alone. */
	c.nr_ns = 0;
	f = capture();
	print_connect(f, OUT_NORMAL, &c);
	print_connect(f, OUT_JSON, &c);
	fclose(f);
	CHECK_STR(buf, "rblk-ctrl7\n{\n  \"device\": \"rblk-ctrl7\",\n"
		       "  \"index\": 7,\n"
		       "  \"name\": \"rblk-ctrl7\",\n  \"namespaces\": []\n}\n");
}

static const struct ktap_case cases[] = {
	KTAP_CASE(json_escape_specials),
	KTAP_CASE(json_escape_utf8),
	KTAP_CASE(json_writer_compact),
	KTAP_CASE(json_writer_pretty),
	KTAP_CASE(names),
	KTAP_CASE(names_from_uapi),
	KTAP_CASE(sizes_and_ids),
	KTAP_CASE(list_normal),
	KTAP_CASE(list_normal_widths),
	KTAP_CASE(list_json),
	KTAP_CASE(nvme_statuses),
	KTAP_CASE(auth_reasons),
	KTAP_CASE(list_verbose_normal),
	KTAP_CASE(list_normal_iopolicy),
	KTAP_CASE(list_json_iopolicy),
	KTAP_CASE(ns_path_ana),
	KTAP_CASE(show_iopolicy),
	KTAP_CASE(show_dhchap),
	KTAP_CASE(list_normal_dhchap),
	KTAP_CASE(subsys_output),
	KTAP_CASE(subsys_two_hosts),
	KTAP_CASE(topology_output),
	KTAP_CASE(show_normal),
	KTAP_CASE(show_json),
	KTAP_CASE(stats_output),
	KTAP_CASE(stats_controller),
	KTAP_CASE(stats_head),
	KTAP_CASE(ns_refusal),
	KTAP_CASE(discover_output),
	KTAP_CASE(discover_text_golden),
	KTAP_CASE(discover_names),
	KTAP_CASE(host_output),
	KTAP_CASE(error_words),
	KTAP_CASE(event_lines),
	KTAP_CASE(event_namespace),
	KTAP_CASE(connect_output),
};

int main(void)
{
	int ret;

	fix_ctrls(fc, fns);
	ret = ktap_run("output", cases, ARRAY_SIZE(cases));

	free(buf);
	return ret;
}
