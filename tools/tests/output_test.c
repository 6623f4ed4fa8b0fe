// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of nvmecfg's output (output.c). The JSON documents are also
 * fed to a real parser by json_test.sh.
 */
#include "fixtures.h"
#include "ktap.h"
#include "output.h"

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
	char b[80];

	CHECK_STR(state_name(RBLK_STATE_LIVE), "live");
	CHECK_STR(state_name(RBLK_STATE_DEAD), "dead");
	CHECK_STR(state_name(200), "unknown");
	CHECK_STR(event_name(RBLK_EVENT_ADDED), "added");
	CHECK_STR(event_name(0), "unknown");
	CHECK_STR(adrfam_name(1), "ipv4");
	CHECK_STR(adrfam_name(2), "ipv6");
	CHECK_STR(trtype_name(1), "rdma");
	CHECK_STR(subtype_name(2), "nvme subsystem");
	CHECK_STR(subtype_name(3), "current discovery subsystem");
	CHECK_STR(treq_name(0, b, sizeof(b)), "not specified");
	CHECK_STR(treq_name(6, b, sizeof(b)),
		  "not required, sq flow control disable supported");
	CHECK_STR(stat_name(RBLK_STAT_READS), "reads");
	CHECK(stat_name(RBLK_STAT_LAT_HIST) == NULL);
	CHECK(stat_name(RBLK_STAT_PAD) == NULL);
	CHECK(stat_name(-1) == NULL);
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
}

static void list_normal(void)
{
	struct dev_info d[2];
	FILE *f;

	fix_devs(d);
	f = capture();
	print_list(f, OUT_NORMAL, d, 2);
	fclose(f);
	CHECK_CONTAINS(buf, "Device State      Address   Port    NSID  Size");
	CHECK_CONTAINS(buf, "rblk0  live       10.99.0.1 4420    2     "
			    "256 MiB    " FIX_NQN "\n");
	CHECK_CONTAINS(buf, "rblk7  connecting fd00::1   4420    1     1 GiB");

	f = capture();
	print_list(f, OUT_NORMAL, d, 0);
	fclose(f);
	CHECK_STR(buf, "");
}

static void list_json(void)
{
	struct dev_info d[2];
	FILE *f;

	fix_devs(d);
	f = capture();
	print_list(f, OUT_JSON, d, 2);
	fclose(f);
	CHECK(!strncmp(buf, "{\n  \"devices\": [\n    {\n      \"index\": 0,\n", 40));
	CHECK_CONTAINS(buf, "\"name\": \"rblk0\",");
	CHECK_CONTAINS(buf, "\"state\": \"live\",");
	CHECK_CONTAINS(buf, "\"transport\": \"rdma\",");
	CHECK_CONTAINS(buf, "\"nsid\": 2,");
	CHECK_CONTAINS(buf, "\"size\": 268435456,");
	CHECK_CONTAINS(buf, "\"fast_io_fail_tmo\": -1\n");
	CHECK_CONTAINS(buf, "\"hostid\": \"deadbeef-0001-0203-0405-060708090a0b\"");
	CHECK_CONTAINS(buf, "\"model\": \"" FIX_NASTY_JSON "\"");

	f = capture();
	print_list(f, OUT_JSON, d, 0);
	fclose(f);
	CHECK_STR(buf, "{\n  \"devices\": []\n}\n");
}

static void show_normal(void)
{
	struct dev_info d[2];
	FILE *f;

	fix_devs(d);
	f = capture();
	print_show(f, OUT_NORMAL, &d[0]);
	fclose(f);
	CHECK(!strncmp(buf, "rblk0: live\n", 12));
	CHECK_CONTAINS(buf, "  traddr            10.99.0.1\n");
	CHECK_CONTAINS(buf, "  size              268435456 (256 MiB)\n");
	CHECK_CONTAINS(buf, "  fast_io_fail_tmo  -1\n");
}

static void stats_output(void)
{
	struct dev_stats st;
	FILE *f;

	fix_stats(&st);
	f = capture();
	print_stats(f, OUT_NORMAL, &st);
	fclose(f);
	CHECK_CONTAINS(buf, "rblk0:\n  reads               1001\n");
	CHECK_CONTAINS(buf, "  read_bytes          18446744073709551615\n");
	CHECK_CONTAINS(buf, "    0 - 2             3\n");
	CHECK_CONTAINS(buf, "    16 - 32           40\n");
	CHECK_CONTAINS(buf, "    >= 8388608        1\n");
	CHECK(!strstr(buf, "lat_hist"));

	f = capture();
	print_stats(f, OUT_JSON, &st);
	fclose(f);
	CHECK_CONTAINS(buf, "\"reads\": 1001,");
	CHECK_CONTAINS(buf, "\"status_vendor\": 1018,");
	CHECK_CONTAINS(buf, "\"latency_hist_us\": [\n    3,\n    0,");

	memset(st.lat_hist, 0, sizeof(st.lat_hist));
	f = capture();
	print_stats(f, OUT_NORMAL, &st);
	fclose(f);
	CHECK_CONTAINS(buf, "    no completions\n");
}

static void discover_output(void)
{
	struct disc_entry e[2];
	FILE *f;

	fix_disc(e);
	f = capture();
	print_discover(f, OUT_NORMAL, e, 2, 2);
	fclose(f);
	CHECK(!strncmp(buf, "Discovery Log Number of Records 2\n", 34));
	CHECK_CONTAINS(buf, "=====Discovery Log Entry 1======\n"
			    "trtype:  rdma\nadrfam:  ipv4\n"
			    "subtype: nvme subsystem\n");
	CHECK_CONTAINS(buf, "subnqn:  " FIX_NQN "\ntraddr:  10.99.0.1\n");

	f = capture();
	print_discover(f, OUT_JSON, e, 2, 2);
	fclose(f);
	CHECK_CONTAINS(buf, "\"numrec\": 2,");
	CHECK_CONTAINS(buf, "\"subtype\": \"current discovery subsystem\"");
	CHECK_CONTAINS(buf, "\"subnqn\": \"" FIX_NQN "\"");
	CHECK_CONTAINS(buf, "\"cntlid\": 65535");

	f = capture();
	print_discover(f, OUT_JSON, e, 0, 0);
	fclose(f);
	CHECK_STR(buf, "{\n  \"numrec\": 0,\n  \"records\": []\n}\n");

	/* A log longer than the kernel reports: the count is the target's. */
	f = capture();
	print_discover(f, OUT_NORMAL, e, 2, 300);
	fclose(f);
	CHECK(!strncmp(buf, "Discovery Log Number of Records 300\n", 36));
}

static void event_lines(void)
{
	struct dev_event ev = {
		.event = RBLK_EVENT_ADDED, .index = 3, .name = "rblk3",
		.state = RBLK_STATE_LIVE,
	};
	FILE *f;

	f = capture();
	print_event(f, OUT_NORMAL, &ev);
	ev.event = RBLK_EVENT_STATE;
	ev.state = RBLK_STATE_RESETTING;
	print_event(f, OUT_NORMAL, &ev);
	print_event(f, OUT_JSON, &ev);
	fclose(f);
	CHECK_STR(buf, "rblk3: added (state live)\n"
		       "rblk3: state resetting\n"
		       "{\"event\":\"state\",\"index\":3,"
		       "\"name\":\"rblk3\",\"state\":\"resetting\"}\n");
}

static void connect_output(void)
{
	struct dev_ref ref = { .index = 1, .name = "rblk1" };
	FILE *f;

	f = capture();
	print_connect(f, OUT_NORMAL, &ref);
	print_connect(f, OUT_JSON, &ref);
	fclose(f);
	CHECK_STR(buf, "rblk1\n{\n  \"index\": 1,\n  \"name\": \"rblk1\"\n}\n");
}

static const struct ktap_case cases[] = {
	KTAP_CASE(json_escape_specials),
	KTAP_CASE(json_escape_utf8),
	KTAP_CASE(json_writer_compact),
	KTAP_CASE(json_writer_pretty),
	KTAP_CASE(names),
	KTAP_CASE(sizes_and_ids),
	KTAP_CASE(list_normal),
	KTAP_CASE(list_json),
	KTAP_CASE(show_normal),
	KTAP_CASE(stats_output),
	KTAP_CASE(discover_output),
	KTAP_CASE(event_lines),
	KTAP_CASE(connect_output),
};

int main(void)
{
	int ret = ktap_run("output", cases, ARRAY_SIZE(cases));

	free(buf);
	return ret;
}
