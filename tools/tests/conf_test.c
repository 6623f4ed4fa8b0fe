// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of connect-all's files (conf.c): config.json in nvme-cli's
 * schema and discovery.conf with nvme-cli's options, what is taken, what
 * is ignored with a warning and what is an error that skips its entry;
 * then which options a discovered record is connected with, and what
 * counts as connected already.
 */
#define _GNU_SOURCE	/* open_memstream(), fmemopen() */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "freecheck.h"
#include "ktap.h"
#include "conf.h"

#define HOSTNQN	"nqn.2014-08.org.nvmexpress:uuid:12345678-9abc-def0-0123-456789abcdef"
#define HOSTID	"12345678-9abc-def0-0123-456789abcdef"
#define NQN	"nqn.2026-12.io.rblk:test"
#define NQN2	"nqn.2026-12.io.rblk:other"

static struct conf conf;
static char *log_buf;
static size_t log_len;
static FILE *log_f;
static struct cfg defaults;	/* the command line: none by default */

static void start(void)
{
	log_f = open_memstream(&log_buf, &log_len);
	conf_init(&conf, log_f, "pfx: ");
}

/* The messages so far (until the next start()). */
static const char *msgs(void)
{
	fflush(log_f);
	return log_buf;
}

static void stop(void)
{
	conf_free(&conf);
	fclose(log_f);
	free(log_buf);
	log_buf = NULL;
	memset(&defaults, 0, sizeof(defaults));
}

static int json(const char *text)
{
	return conf_parse_json(&conf, "c.json", text, strlen(text), &defaults);
}

static int disc(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	ret = conf_parse_discovery(&conf, "d.conf", f, &defaults);
	fclose(f);
	return ret;
}

/* Lines of a config.json with one host, one subsystem and one port. */
#define PORT_DOC(subnqn, port)						\
	"[\n"								\
	"  {\n"								\
	"    \"hostnqn\": \"" HOSTNQN "\",\n"				\
	"    \"subsystems\": [\n"					\
	"      {\n"							\
	"        \"nqn\": \"" subnqn "\",\n"				\
	"        \"ports\": [\n"					\
	"          " port "\n"						\
	"        ]\n"							\
	"      }\n"							\
	"    ]\n"							\
	"  }\n"								\
	"]\n"
#define ONE_PORT(port)	PORT_DOC(NQN, port)
/* The line ONE_PORT()'s port is on. */
#define PORT_LINE	"c.json:8: "

static void json_valid(void)
{
	static const unsigned char id[16] = {
		0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	};
	const struct cfg *c;

	start();
	CHECK(!json("[\n"
		    " {\n"
		    "  \"hostnqn\": \"" HOSTNQN "\",\n"
		    "  \"hostid\": \"" HOSTID "\",\n"
		    "  \"subsystems\": [\n"
		    "   {\n"
		    "    \"nqn\": \"" NQN "\",\n"
		    "    \"ports\": [\n"
		    "     {\n"
		    "      \"transport\": \"rdma\",\n"
		    "      \"traddr\": \"10.99.0.1\",\n"
		    "      \"trsvcid\": \"4421\",\n"
		    "      \"host_traddr\": \"10.99.0.2\",\n"
		    "      \"nr_io_queues\": 4,\n"
		    "      \"nr_write_queues\": 2,\n"
		    "      \"nr_poll_queues\": 1,\n"
		    "      \"queue_size\": 256,\n"
		    "      \"keep_alive_tmo\": 7,\n"
		    "      \"reconnect_delay\": 3,\n"
		    "      \"ctrl_loss_tmo\": 60,\n"
		    "      \"fast_io_fail_tmo\": 20,\n"
		    "      \"tos\": 184,\n"
		    "      \"duplicate_connect\": true\n"
		    "     },\n"
		    "     { \"transport\": \"rdma\", \"traddr\": \"10.99.0.3\" }\n"
		    "    ]\n"
		    "   }\n"
		    "  ]\n"
		    " }\n"
		    "]\n"));
	CHECK_STR(msgs(), "");
	CHECK(conf.errors == 0);
	CHECK(conf.nr == 2);
	if (conf.nr != 2)
		goto out;
	c = &conf.e[0].cfg;
	CHECK_STR(conf.e[0].where, "c.json:9");
	CHECK_STR(conf.e[0].subnqn, NQN);
	CHECK(!conf.e[0].passes);
	CHECK(conf.e[0].ask);
	/* An NVM subsystem's port: asked by the well-known discovery NQN. */
	CHECK(!(c->set & OPT(NQN)) && !c->nqn);
	CHECK_STR(c->hostnqn, HOSTNQN);
	CHECK(c->set & OPT(HOSTID));
	CHECK(!memcmp(c->hostid, id, sizeof(id)));
	CHECK_STR(c->traddr, "10.99.0.1");
	CHECK_STR(c->trsvcid, "4421");
	CHECK_STR(c->host_traddr, "10.99.0.2");
	CHECK(c->nr_io_queues == 4 && (c->set & OPT(NR_IO_QUEUES)));
	CHECK(c->nr_write_queues == 2 && (c->set & OPT(NR_WRITE_QUEUES)));
	CHECK(c->nr_poll_queues == 1 && (c->set & OPT(NR_POLL_QUEUES)));
	CHECK(c->queue_size == 256 && (c->set & OPT(QUEUE_SIZE)));
	CHECK(c->kato == 7 && (c->set & OPT(KATO)));
	CHECK(c->reconnect_delay == 3 && (c->set & OPT(RECONNECT_DELAY)));
	CHECK(c->ctrl_loss_tmo == 60 && (c->set & OPT(CTRL_LOSS_TMO)));
	CHECK(c->fast_io_fail_tmo == 20 && (c->set & OPT(FAST_IO_FAIL_TMO)));
	CHECK(c->tos == 184 && (c->set & OPT(TOS)));
	CHECK(c->set & OPT(DUPLICATE_CONNECT));
	/* The second port: only what it says, and the host's. */
	c = &conf.e[1].cfg;
	CHECK_STR(conf.e[1].where, "c.json:25");
	CHECK_STR(c->traddr, "10.99.0.3");
	CHECK(!c->trsvcid && !c->host_traddr);
	CHECK_STR(c->hostnqn, HOSTNQN);
	CHECK(c->set == (OPT(TRADDR) | OPT(HOSTNQN) | OPT(HOSTID)));
out:
	stop();
}

/* Each option of a port alone, as nvme-cli writes it. */
static void json_each_option(void)
{
	static const struct {
		const char *member;
		uint64_t bit;
	} opts[] = {
		{ "\"trsvcid\": \"4420\"", OPT(TRSVCID) },
		{ "\"host_traddr\": \"fe80::2%eth0\"", OPT(HOST_TRADDR) },
		{ "\"nr_io_queues\": 1", OPT(NR_IO_QUEUES) },
		{ "\"nr_write_queues\": 1", OPT(NR_WRITE_QUEUES) },
		{ "\"nr_poll_queues\": 1", OPT(NR_POLL_QUEUES) },
		{ "\"queue_size\": 16", OPT(QUEUE_SIZE) },
		{ "\"keep_alive_tmo\": 1", OPT(KATO) },
		{ "\"reconnect_delay\": 1", OPT(RECONNECT_DELAY) },
		{ "\"ctrl_loss_tmo\": 0", OPT(CTRL_LOSS_TMO) },
		{ "\"ctrl_loss_tmo\": -1", OPT(CTRL_LOSS_TMO) },
		{ "\"fast_io_fail_tmo\": -1", OPT(FAST_IO_FAIL_TMO) },
		{ "\"tos\": 0", OPT(TOS) },
		{ "\"duplicate_connect\": true", OPT(DUPLICATE_CONNECT) },
		/* libnvme's: keep the discovery controller (-p). */
		{ "\"persistent\": true", OPT(PERSISTENT) },
	};
	char doc[2048];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(opts); i++) {
		start();
		snprintf(doc, sizeof(doc), ONE_PORT("{ \"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", %s }"),
			 opts[i].member);
		CHECK(!json(doc));
		CHECK(conf.nr == 1 && !conf.errors);
		if (conf.nr == 1 &&
		    conf.e[0].cfg.set !=
		    (OPT(TRADDR) | OPT(HOSTNQN) | opts[i].bit)) {
			printf("# %s: set %#llx\n", opts[i].member,
			       (unsigned long long)conf.e[0].cfg.set);
			CHECK(0);
		}
		CHECK_STR(msgs(), "");
		stop();
	}
}

/*
 * libnvme's "not set" values leave the option to the command line or the
 * kernel: 0 for the counts and timeouts but ctrl_loss_tmo, -1 for tos; a
 * false flag is no flag; null is no key (json-c's json_object_object_get()
 * is NULL); a key "none" is none (libnvme's __add_argument()).
 */
static void json_unset_values(void)
{
	start();
	CHECK(!json(ONE_PORT("{ \"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", "
			     "\"nr_io_queues\": 0, \"nr_write_queues\": 0, "
			     "\"nr_poll_queues\": 0, \"queue_size\": 0, "
			     "\"keep_alive_tmo\": 0, \"reconnect_delay\": 0, "
			     "\"fast_io_fail_tmo\": 0, \"tos\": -1, "
			     "\"duplicate_connect\": false, \"persistent\": false, "
			     "\"host_traddr\": null, \"trsvcid\": null, "
			     "\"ctrl_loss_tmo\": null, \"dhchap_key\": \"none\" }")));
	CHECK(conf.nr == 1 && !conf.errors);
	if (conf.nr == 1) {
		CHECK(conf.e[0].cfg.set == (OPT(TRADDR) | OPT(HOSTNQN)));
		CHECK(!conf.e[0].passes);
	}
	CHECK_STR(msgs(), "");
	stop();
}

/* nvme-cli's keys rblk has not: a warning each, the port kept. */
static void json_ignored_keys(void)
{
	static const char *const keys[] = {
		"\"host_iface\": \"eth0\"",
		"\"keyring\": \".nvme\"",
		"\"tls_key\": \"NVMeTLSkey-1:01:SeKrEt:\"",
		"\"tls_key_identity\": \"id\"",
		"\"tls\": true",
		"\"concat\": true",
		"\"hdr_digest\": true",
		"\"data_digest\": true",
		"\"disable_sqflow\": true",
	};
	char doc[2048], want[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		start();
		snprintf(doc, sizeof(doc), ONE_PORT("{ \"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", %s }"),
			 keys[i]);
		CHECK(!json(doc));
		CHECK(conf.nr == 1 && !conf.errors);
		snprintf(want, sizeof(want), "pfx: " PORT_LINE "warning: ignoring %.*s: ",
			 (int)(strchr(keys[i] + 1, '"') - keys[i] + 1), keys[i]);
		CHECK_PREFIX(msgs(), want);
		/* One line, and never a secret. */
		CHECK(strchr(msgs(), '\n') == msgs() + strlen(msgs()) - 1);
		CHECK(!strstr(msgs(), "SeKrEt"));
		stop();
	}
	/* Asking for nothing (false, "", null) is not worth a warning. */
	start();
	CHECK(!json(ONE_PORT("{ \"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", "
			     "\"tls\": false, \"hdr_digest\": false, \"dhchap_key\": \"\", "
			     "\"host_iface\": null, \"persistent\": false }")));
	CHECK(conf.nr == 1 && !conf.errors);
	CHECK_STR(msgs(), "");
	stop();
	/* Of hosts and subsystems too. */
	start();
	CHECK(!json("[{\"hostnqn\": \"h\",\n"
		    "  \"hostsymname\": \"me\", \"persistent_discovery_ctrl\": true,\n"
		    "  \"subsystems\": [{\"nqn\": \"" NQN "\", \"application\": \"a\",\n"
		    "   \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"}]}]}]"));
	CHECK(conf.nr == 1 && !conf.errors);
	CHECK_CONTAINS(msgs(), "pfx: c.json:2: warning: ignoring \"hostsymname\": ");
	CHECK_CONTAINS(msgs(), "pfx: c.json:2: warning: ignoring \"persistent_discovery_ctrl\": ");
	CHECK_CONTAINS(msgs(), "pfx: c.json:3: warning: ignoring \"application\": ");
	stop();
}

/*
 * A DH-HMAC-CHAP key, of a port, a subsystem or a host, is refused: an
 * error, what holds it skipped (never connected without it), the rest
 * taken, and the key never said.  No key ("", null) is no error.
 */
#define KEY_H	"DHHC-1:00:SeKrEtHost:"
#define KEY_S	"DHHC-1:01:SeKrEtSubsys:"
#define KEY_P	"DHHC-1:02:SeKrEtPort:"
#define KEY_C	"DHHC-1:03:SeKrEtCtrl:"
#define KEY_CMD	"DHHC-1:00:SeKrEtCmdLine:"

/* Entry @i's host key (NULL: none) and controller key. */
static void check_keys(size_t i, const char *host, const char *ctrl)
{
	const struct cfg *c;

	CHECK(i < conf.nr);
	if (i >= conf.nr)
		return;
	c = &conf.e[i].cfg;
	CHECK(!!(c->set & OPT(DHCHAP_SECRET)) == !!host);
	CHECK(!!(c->set & OPT(DHCHAP_CTRL_SECRET)) == !!ctrl);
	if (host && (c->set & OPT(DHCHAP_SECRET)))
		CHECK_STR(c->dhchap_secret, host);
	if (ctrl && (c->set & OPT(DHCHAP_CTRL_SECRET)))
		CHECK_STR(c->dhchap_ctrl_secret, ctrl);
	CHECK(!c->dhchap_default);
}

/*
 * Where entry @i's keys came from ("FILE:LINE" of the key, NULL: the
 * command line's or none): what a refused key's message names.
 */
static void check_srcs(size_t i, const char *host, const char *ctrl)
{
	const struct cfg *c;

	CHECK(i < conf.nr);
	if (i >= conf.nr)
		return;
	c = &conf.e[i].cfg;
	if (host)
		CHECK_STR(c->dhchap_secret_src ?: "(null)", host);
	else
		CHECK(!c->dhchap_secret_src);
	if (ctrl)
		CHECK_STR(c->dhchap_ctrl_secret_src ?: "(null)", ctrl);
	else
		CHECK(!c->dhchap_ctrl_secret_src);
}

/*
 * DH-HMAC-CHAP keys: "dhchap_key" of a host, a subsystem (rblk's) or a
 * port, the nearest winning ("" and null: none at that level);
 * "dhchap_ctrl_key" of a port.  Never in a message.
 */
static void json_keys(void)
{
	char *text;

	start();
	/* Held by the conf, not by the text, which goes. */
	text = strdup("[{\"hostnqn\": \"h\", \"dhchap_key\": \"" KEY_H "\",\n"
		      "  \"subsystems\": [\n"
		      "   {\"nqn\": \"" NQN "\", \"ports\": [\n"
		      "    {\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"},\n"
		      "    {\"transport\": \"rdma\", \"traddr\": \"10.0.0.2\",\n"
		      "     \"dhchap_key\": \"" KEY_P "\", \"dhchap_ctrl_key\": \"" KEY_C "\"},\n"
		      "    {\"transport\": \"rdma\", \"traddr\": \"10.0.0.3\",\n"
		      "     \"dhchap_key\": \"\", \"dhchap_ctrl_key\": \"" KEY_C "\"}]},\n"
		      "   {\"nqn\": \"" NQN2 "\", \"dhchap_key\": \"" KEY_S "\", \"ports\": [\n"
		      "    {\"transport\": \"rdma\", \"traddr\": \"10.0.0.4\"},\n"
		      "    {\"transport\": \"rdma\", \"traddr\": \"10.0.0.5\",\n"
		      "     \"dhchap_key\": \"" KEY_P "\"}]}]},\n"
		      " {\"hostnqn\": \"h2\", \"dhchap_key\": null,\n"
		      "  \"subsystems\": [{\"nqn\": \"" NQN "\", \"dhchap_key\": \"\",\n"
		      "   \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.6\",\n"
		      "    \"dhchap_key\": null}]}]}]");
	CHECK(text && !json(text));
	memset(text, 'x', strlen(text));
	free(text);
	CHECK_STR(msgs(), "");
	CHECK(!conf.errors && conf.nr == 6);
	/* The host's; the port's own; "" at the port: the host's. */
	check_keys(0, KEY_H, NULL);
	check_keys(1, KEY_P, KEY_C);
	check_keys(2, KEY_H, KEY_C);
	/* The subsystem's over the host's; the port's over both. */
	check_keys(3, KEY_S, NULL);
	check_keys(4, KEY_P, NULL);
	/* None anywhere. */
	check_keys(5, NULL, NULL);
	/* Each key's own line, whatever level it is of. */
	check_srcs(0, "c.json:1", NULL);
	check_srcs(1, "c.json:6", "c.json:6");
	check_srcs(2, "c.json:1", "c.json:8");
	check_srcs(3, "c.json:9", NULL);
	check_srcs(4, "c.json:12", NULL);
	check_srcs(5, NULL, NULL);
	stop();

	/* The command line's for entries without their own, key by key. */
	defaults.set = OPT(DHCHAP_SECRET) | OPT(DHCHAP_CTRL_SECRET);
	defaults.dhchap_secret = KEY_CMD;
	defaults.dhchap_ctrl_secret = KEY_CMD;
	start();
	CHECK(!json(ONE_PORT("{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", \"dhchap_key\": \"" KEY_P "\"}, {\"transport\": \"rdma\", \"traddr\": \"10.0.0.2\"}")));
	CHECK(!conf.errors && conf.nr == 2);
	check_keys(0, KEY_P, KEY_CMD);
	check_keys(1, KEY_CMD, KEY_CMD);
	check_srcs(0, "c.json:8", NULL);
	check_srcs(1, NULL, NULL);
	stop();
}

/*
 * A controller key but in a port, a malformed key, a key not a string:
 * errors that skip their entry, the key never said.
 */
static void json_bad_keys(void)
{
	start();
	CHECK(!json("[{\"hostnqn\": \"h\", \"dhchap_ctrl_key\": \"" KEY_C "\",\n"
		    "  \"subsystems\": [{\"nqn\": \"" NQN "\",\n"
		    "   \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"}]}]},\n"
		    " {\"hostnqn\": \"h2\",\n"
		    "  \"subsystems\": [{\"nqn\": \"" NQN "\", \"dhchap_ctrl_key\": \"" KEY_C "\",\n"
		    "   \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.2\"}]},\n"
		    "   {\"nqn\": \"" NQN2 "\",\n"
		    "   \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.3\",\n"
		    "     \"dhchap_key\": \"DHHC-1:07:SeKrEt:\"},\n"
		    "    {\"transport\": \"rdma\", \"traddr\": \"10.0.0.4\",\n"
		    "     \"dhchap_ctrl_key\": 12},\n"
		    "    {\"transport\": \"rdma\", \"traddr\": \"10.0.0.5\",\n"
		    "     \"dhchap_key\": \"" KEY_P "\"}]}]}]"));
	CHECK(conf.errors == 4 && conf.nr == 1);
	check_keys(0, KEY_P, NULL);
	CHECK_STR(msgs(),
		  "pfx: c.json:1: \"dhchap_ctrl_key\": a port's key only (where libnvme reads it); host skipped\n"
		  "pfx: c.json:5: \"dhchap_ctrl_key\": a port's key only (where libnvme reads it); subsystem skipped\n"
		  "pfx: c.json:9: \"dhchap_key\": not a DH-HMAC-CHAP key (DHHC-1:NN:<base64>:, NN 00-03); port skipped\n"
		  "pfx: c.json:11: \"dhchap_ctrl_key\": a string expected, not a number; port skipped\n");
	CHECK(!strstr(msgs(), "SeKrEt"));
	stop();
}

/*
 * A key under a name that takes none (misspelt, unknown, ignored), even
 * deep in it: an error that skips its entry, the key never said.
 */
static void json_key_misplaced(void)
{
	start();
	CHECK(!json("[{\"hostnqn\": \"h\", \"dhchap_secret\": \"" KEY_H "\",\n"
		    "  \"subsystems\": [{\"nqn\": \"" NQN "\", \"ports\": [\n"
		    "   {\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"}]}]},\n"
		    " {\"hostnqn\": \"h2\", \"subsystems\": [\n"
		    "  {\"nqn\": \"" NQN "\", \"x\": [1, {\"y\": \"k " KEY_S "\"}], \"ports\": [\n"
		    "   {\"transport\": \"rdma\", \"traddr\": \"10.0.0.2\"}]},\n"
		    "  {\"nqn\": \"" NQN2 "\", \"ports\": [\n"
		    "   {\"transport\": \"rdma\", \"traddr\": \"10.0.0.3\",\n"
		    "    \"dhchap_ctrl_secret\": \"" KEY_C "\"},\n"
		    "   {\"transport\": \"rdma\", \"traddr\": \"10.0.0.4\",\n"
		    "    \"tls_key\": \"" KEY_P "\"},\n"
		    "   {\"transport\": \"rdma\", \"traddr\": \"10.0.0.5\",\n"
		    "    \"" KEY_P "\": 1},\n"
		    "   {\"transport\": \"rdma\", \"traddr\": \"10.0.0.6\",\n"
		    "    \"dhchap_kye\": \"x\", \"tls_key\": \"NVMeTLSkey-1:01:x:\"}]}]}]"));
	CHECK(conf.errors == 5 && conf.nr == 1);
	if (conf.nr == 1)
		CHECK_STR(conf.e[0].cfg.traddr, "10.0.0.6");
	CHECK_STR(msgs(),
		  "pfx: c.json:1: \"dhchap_secret\": a DH-HMAC-CHAP key where none is taken (an unknown key); host skipped\n"
		  "pfx: c.json:5: \"x\": a DH-HMAC-CHAP key where none is taken (an unknown key); subsystem skipped\n"
		  "pfx: c.json:9: \"dhchap_ctrl_secret\": a DH-HMAC-CHAP key where none is taken (an unknown key); port skipped\n"
		  "pfx: c.json:11: \"tls_key\": a DH-HMAC-CHAP key where none is taken (TLS is NVMe/TCP's); port skipped\n"
		  "pfx: c.json:13: \"" OPTS_KEY_SHOWN "\": a DH-HMAC-CHAP key where none is taken (an unknown key); port skipped\n"
		  "pfx: c.json:15: warning: ignoring unknown key \"dhchap_kye\"\n"
		  "pfx: c.json:15: warning: ignoring \"tls_key\": TLS is NVMe/TCP's\n");
	CHECK(!strstr(msgs(), "SeKrEt"));
	stop();
	/* At the top, beside "hosts": an error, the hosts read. */
	start();
	CHECK(!json("{\"dhchap\": {\"key\": \"" KEY_H "\"},\n"
		    " \"hosts\": [{\"hostnqn\": \"h\", \"subsystems\": [\n"
		    "  {\"nqn\": \"" NQN "\", \"ports\": [\n"
		    "   {\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"}]}]}]}"));
	CHECK(conf.errors == 1 && conf.nr == 1);
	CHECK_STR(msgs(), "pfx: c.json:1: \"dhchap\": a DH-HMAC-CHAP key where none is taken (an unknown key)\n");
	stop();
}

static void json_unknown_keys(void)
{
	start();
	CHECK(!json("[{\"hostnqn\": \"h\", \"frob\": 1, \"subsystems\": [\n"
		    "{\"nqn\": \"" NQN "\", \"x\": [1, {\"y\": 2}], \"ports\": [\n"
		    "{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\",\n"
		    " \"nr_io_queue\": 4}]}]}]"));
	CHECK(conf.nr == 1 && !conf.errors);
	CHECK_CONTAINS(msgs(), "pfx: c.json:1: warning: ignoring unknown key \"frob\"\n");
	CHECK_CONTAINS(msgs(), "pfx: c.json:2: warning: ignoring unknown key \"x\"\n");
	/* A misspelt option is not taken: the warning says which. */
	CHECK_CONTAINS(msgs(), "pfx: c.json:4: warning: ignoring unknown key \"nr_io_queue\"\n");
	if (conf.nr == 1)
		CHECK(!(conf.e[0].cfg.set & OPT(NR_IO_QUEUES)));
	stop();
}

/* A value of the wrong type: an error that skips its port, and only it. */
static void json_wrong_types(void)
{
	static const struct {
		const char *member;
		const char *msg;
	} bad[] = {
		/* json-c would make 4 of these, 1 and 0, INT_MAX. */
		{ "\"nr_io_queues\": \"4x\"", "\"nr_io_queues\": '4x' is not a whole number; port skipped" },
		{ "\"queue_size\": 4.5", "\"queue_size\": 4.5 is not a whole number; port skipped" },
		{ "\"queue_size\": \"1e2\"", "\"queue_size\": '1e2' is not a whole number; port skipped" },
		{ "\"queue_size\": \"\"", "\"queue_size\": '' is not a whole number; port skipped" },
		{ "\"queue_size\": 3e9", "\"queue_size\": 3e9 is out of range; port skipped" },
		{ "\"nr_io_queues\": \"99999999999\"", "\"nr_io_queues\": '99999999999' is out of range; port skipped" },
		{ "\"nr_io_queues\": \"129\"", "\"nr_io_queues\": 129 is out of range 1-128; port skipped" },
		{ "\"tos\": 99999999999999999999", "\"tos\": 99999999999999999999 is out of range; port skipped" },
		{ "\"tos\": 256", "\"tos\": 256 is out of range 0-255; port skipped" },
		{ "\"tos\": -2", "\"tos\": -2 is out of range 0-255; port skipped" },
		{ "\"nr_io_queues\": 129", "\"nr_io_queues\": 129 is out of range 1-128; port skipped" },
		{ "\"nr_io_queues\": -1", "\"nr_io_queues\": -1 is out of range 1-128; port skipped" },
		{ "\"ctrl_loss_tmo\": -2", "\"ctrl_loss_tmo\": -2 is out of range -1-" },
		{ "\"keep_alive_tmo\": true", "\"keep_alive_tmo\": a whole number expected, not a boolean; port skipped" },
		{ "\"keep_alive_tmo\": [5]", "\"keep_alive_tmo\": a whole number expected, not an array; port skipped" },
		{ "\"trsvcid\": 4420.5", "\"trsvcid\": '4420.5' is not a number; port skipped" },
		{ "\"trsvcid\": true", "\"trsvcid\": 'true' is not a number; port skipped" },
		{ "\"trsvcid\": [\"4420\"]", "\"trsvcid\": a string expected, not an array; port skipped" },
		{ "\"host_traddr\": {}", "\"host_traddr\": a string expected, not an object; port skipped" },
		{ "\"host_traddr\": \"\"", "\"host_traddr\": empty value; port skipped" },
		/* json-c's "false" is true. */
		{ "\"duplicate_connect\": \"false\"", "\"duplicate_connect\": true or false expected, not a string; port skipped" },
		{ "\"dhchap_key\": 5", "\"dhchap_key\": a string expected, not a number; port skipped" },
	};
	char doc[2048];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		start();
		snprintf(doc, sizeof(doc), ONE_PORT("{ \"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", %s },\n"
						    "{ \"transport\": \"rdma\", \"traddr\": \"10.0.0.9\" }"),
			 bad[i].member);
		CHECK(!json(doc));
		CHECK(conf.errors == 1);
		CHECK_PREFIX(msgs(), "pfx: " PORT_LINE);
		CHECK_CONTAINS(msgs(), bad[i].msg);
		/* The other port stays. */
		CHECK(conf.nr == 1);
		if (conf.nr == 1)
			CHECK_STR(conf.e[0].cfg.traddr, "10.0.0.9");
		stop();
	}
}

/*
 * libnvme's coercions (src/nvme/json.c): json_object_get_string() of a
 * number, json_object_get_int() of a string, json_object_get_boolean() of
 * a number; a duplicate key's last value; any "discovery" makes one.
 */
static void json_libnvme_coercions(void)
{
	start();
	CHECK(!json("[{\"hostnqn\": 5, \"hostid\": \"x\",\n"
		    " \"hostid\": \"12345678-9abc-def0-0123-456789abcdef\",\n"
		    " \"subsystems\": [{\"nqn\": 7, \"ports\": [\n"
		    "  {\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", \"trsvcid\": 4420,\n"
		    "   \"nr_io_queues\": \"4\", \"queue_size\": 128.0, \"keep_alive_tmo\": \" 7\",\n"
		    "   \"tos\": \"-1\", \"duplicate_connect\": 1, \"ctrl_loss_tmo\": \"-1\"},\n"
		    "  {\"transport\": \"rdma\", \"traddr\": \"10.0.0.2\", \"discovery\": false,\n"
		    "   \"duplicate_connect\": 0.0, \"reconnect_delay\": 1e1}]}]}]"));
	CHECK(!conf.errors && conf.nr == 2);
	if (conf.nr == 2) {
		const struct cfg *a = &conf.e[0].cfg, *b = &conf.e[1].cfg;

		CHECK_STR(a->hostnqn, "5");
		CHECK(a->hostid[0] == 0x12 && a->hostid[15] == 0xef);
		CHECK_STR(conf.e[0].subnqn, "7");
		CHECK_STR(a->trsvcid, "4420");
		CHECK(a->nr_io_queues == 4);
		CHECK(a->queue_size == 128);
		CHECK(a->kato == 7);
		CHECK(!(a->set & OPT(TOS)));
		CHECK(a->set & OPT(DUPLICATE_CONNECT));
		CHECK(a->ctrl_loss_tmo == -1);
		CHECK(!conf.e[0].passes);
		CHECK_STR(conf.e[0].where, "c.json:4");
		/* "discovery": false is a discovery controller's port too. */
		CHECK(conf.e[1].passes);
		CHECK_STR(b->nqn, "7");
		CHECK(!(b->set & OPT(DUPLICATE_CONNECT)));
		CHECK(b->reconnect_delay == 10);
		CHECK_STR(conf.e[1].where, "c.json:7");
	}
	CHECK_STR(msgs(),
		  "pfx: c.json:2: warning: \"hostid\" given 2 times: the last taken, as libnvme takes it\n"
		  "pfx: c.json:7: warning: \"discovery\": false taken as true, as libnvme takes it\n");
	stop();
	/* A duplicate's error names the line of the value taken. */
	start();
	CHECK(!json(ONE_PORT("{ \"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", \"tos\": 1,\n"
			     "\"tos\": 300 }")));
	CHECK(conf.errors == 1 && !conf.nr);
	CHECK_CONTAINS(msgs(), "c.json:9: \"tos\": 300 is out of range 0-255; port skipped\n");
	stop();
}

/* Nesting of the wrong kind, at each level. */
static void json_nesting_errors(void)
{
	static const struct {
		const char *doc;
		const char *msg;
	} bad[] = {
		{ "{\"hosts\": {}}", "pfx: c.json:1: \"hosts\": an array expected, not an object\n" },
		{ "\"hosts\"", "pfx: c.json:1: an array of hosts expected, not a string\n" },
		{ "\n42\n", "pfx: c.json:2: an array of hosts expected, not a number\n" },
		{ "null\n", "pfx: c.json:1: an array of hosts expected, not null\n" },
		/* json-c takes no number at the end of the text, as libnvme. */
		{ "42", "pfx: c.json: not valid JSON: line 1, column 3: unexpected end of file\n" },
		{ "{\"host\": []}", "pfx: c.json:1: warning: ignoring unknown key \"host\"\npfx: c.json:1: no \"hosts\"\n" },
		{ "[[]]", "pfx: c.json:1: an object expected, not an array; host skipped\n" },
		{ "[\"h\"]", "pfx: c.json:1: an object expected, not a string; host skipped\n" },
		{ "[{\"hostnqn\": \"h\", \"subsystems\": {}}]", "pfx: c.json:1: \"subsystems\": an array expected, not an object; host skipped\n" },
		{ "[{\"hostnqn\": \"h\", \"subsystems\": [null]}]", "pfx: c.json:1: an object expected, not null; subsystem skipped\n" },
		{ "[{\"hostnqn\": \"h\", \"subsystems\": [{\"nqn\": \"n\", \"ports\": \"p\"}]}]", "pfx: c.json:1: \"ports\": an array expected, not a string; subsystem skipped\n" },
		{ "[{\"hostnqn\": \"h\", \"subsystems\": [{\"nqn\": \"n\", \"ports\": [7]}]}]", "pfx: c.json:1: an object expected, not a number; port skipped\n" },
		{ "[{\"hostnqn\": [5]}]", "pfx: c.json:1: \"hostnqn\": a string expected, not an array; host skipped\n" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		start();
		CHECK(!json(bad[i].doc));
		CHECK(conf.errors == 1 && conf.nr == 0);
		CHECK_STR(msgs(), bad[i].msg);
		stop();
	}
}

/* What the schema requires, and bad values of the host and subsystem. */
static void json_required(void)
{
	static const struct {
		const char *doc;
		const char *msg;
	} bad[] = {
		{ "[{\"subsystems\": []}]", "c.json:1: a host needs \"hostnqn\"; host skipped\n" },
		{ "[{\"hostnqn\": \"\"}]", "c.json:1: \"hostnqn\": empty value; host skipped\n" },
		{ "[{\"hostnqn\": \"h\", \"hostid\": \"x\"}]", "c.json:1: \"hostid\": 'x' is not a UUID; host skipped\n" },
		{ "[{\"hostnqn\": \"h\", \"subsystems\": [{\"ports\": []}]}]", "c.json:1: a subsystem needs \"nqn\"; subsystem skipped\n" },
		{ "[{\"hostnqn\": \"h\", \"subsystems\": [{\"nqn\": \"n\", \"ports\": [{\"traddr\": \"1.2.3.4\"}]}]}]", "c.json:1: a port needs \"transport\" (a string); port skipped\n" },
		{ "[{\"hostnqn\": \"h\", \"subsystems\": [{\"nqn\": \"n\", \"ports\": [{\"transport\": {}}]}]}]", "c.json:1: a port needs \"transport\" (a string); port skipped\n" },
		{ "[{\"hostnqn\": \"h\", \"subsystems\": [{\"nqn\": \"n\", \"ports\": [{\"transport\": null}]}]}]", "c.json:1: a port needs \"transport\" (a string); port skipped\n" },
		{ "[{\"hostnqn\": null}]", "c.json:1: a host needs \"hostnqn\"; host skipped\n" },
		{ "[{\"hostnqn\": \"h\", \"subsystems\": [{\"nqn\": \"n\", \"ports\": [{\"transport\": \"rdma\"}]}]}]", "c.json:1: a port needs \"traddr\"; port skipped\n" },
	};
	char doc[512];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		start();
		CHECK(!json(bad[i].doc));
		CHECK(conf.errors == 1 && conf.nr == 0);
		CHECK_CONTAINS(msgs(), bad[i].msg);
		stop();
	}
	/* An NQN of more than 223 bytes. */
	start();
	snprintf(doc, sizeof(doc), "[{\"hostnqn\": \"nqn.%0220d\"}]", 0);
	CHECK(!json(doc));
	CHECK(conf.errors == 1);
	CHECK_CONTAINS(msgs(), "\"hostnqn\": longer than 222 characters; host skipped");
	stop();
	/* A bad host skips its subsystems; the next host still counts. */
	start();
	CHECK(!json("[{\"hostnqn\": \"h\", \"hostid\": \"bad\", \"subsystems\": [{\"nqn\": \"n\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"1.1.1.1\"}]}]},\n"
		    " {\"hostnqn\": \"h2\", \"subsystems\": [{\"nqn\": \"n\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"2.2.2.2\"}]}]}]"));
	CHECK(conf.errors == 1 && conf.nr == 1);
	if (conf.nr == 1) {
		CHECK_STR(conf.e[0].cfg.traddr, "2.2.2.2");
		CHECK_STR(conf.e[0].cfg.hostnqn, "h2");
	}
	stop();
}

static void json_transport(void)
{
	start();
	CHECK(!json(ONE_PORT("{ \"transport\": \"tcp\", \"traddr\": \"10.0.0.1\", \"host_iface\": \"eth0\", \"hdr_digest\": true },"
			     "{ \"transport\": \"fc\", \"traddr\": \"nn-0x1\" },"
			     "{ \"transport\": \"loop\" },"
			     "{ \"transport\": \"rdma\", \"traddr\": \"10.0.0.2\" }")));
	CHECK(!conf.errors && conf.nr == 1);
	/* One warning per port, not one per key it has. */
	CHECK_STR(msgs(), "pfx: " PORT_LINE "warning: skipping transport tcp (only rdma)\n"
		  "pfx: " PORT_LINE "warning: skipping transport fc (only rdma)\n"
		  "pfx: " PORT_LINE "warning: skipping transport loop (only rdma)\n");
	stop();
}

/*
 * A port of a discovery subsystem (the well-known NQN, or "discovery":
 * true) is asked by that NQN and passes its options to all it lists.
 */
static void json_discovery_ports(void)
{
	start();
	CHECK(!json("[{\"hostnqn\": \"h\", \"subsystems\": [\n"
		    " {\"nqn\": \"" CONF_DISC_NQN "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", \"nr_io_queues\": 2}]},\n"
		    " {\"nqn\": \"nqn.2026-12.io.rblk:cdc\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.2\", \"discovery\": true}]},\n"
		    " {\"nqn\": \"" NQN "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.3\"}]}]}]"));
	CHECK(!conf.errors && conf.nr == 3);
	if (conf.nr == 3) {
		CHECK(conf.e[0].passes);
		CHECK_STR(conf.e[0].cfg.nqn, CONF_DISC_NQN);
		CHECK(conf.e[1].passes);
		CHECK_STR(conf.e[1].cfg.nqn, "nqn.2026-12.io.rblk:cdc");
		CHECK(!conf.e[2].passes);
		CHECK(!conf.e[2].cfg.nqn);
		CHECK_STR(conf.e[2].subnqn, NQN);
	}
	stop();
}

/* The schema document's form: an object with "hosts". */
static void json_hosts_object(void)
{
	start();
	CHECK(!json("{\"hosts\": [{\"hostnqn\": \"h\", \"subsystems\": [{\"nqn\": \"n\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"}]}]}],\n"
		    " \"$schema\": \"x\"}"));
	CHECK(!conf.errors && conf.nr == 1);
	CHECK_STR(msgs(), "pfx: c.json:2: warning: ignoring unknown key \"$schema\"\n");
	stop();
}

/*
 * What json-c takes without JSON_TOKENER_STRICT, as config.json is read:
 * comments, trailing commas, single quotes, literals in any case; the
 * lines of what follows stay right.
 */
static void json_lax(void)
{
	const struct conf_entry *e;

	start();
	CHECK(!json("[\n"
		    "  // hosts: \"a\", [b], {c}, d, /* e\n"
		    "  {\n"
		    "    \"hostnqn\": \"h\", /* \"x\": [1, { // */\n"
		    "    'subsystems': [\n"
		    "      {\n"
		    "        \"nqn\": \"n//not a comment/*\",\n"
		    "        /* over two lines, \"quoted\", ] } ,\n"
		    "           '' ** * */\n"
		    "        \"ports\": [\n"
		    "          { \"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", \"trsvcid\": 4420, \"nr_io_queues\": \"4\", \"duplicate_connect\": TRUE, },\n"
		    "          /**/ { 'transport': 'rdma', \"traddr\": '10.0.0.2', // \"x\", {\n"
		    "            \"host_iface\": \"eth\\\"0'\"/* , */, \"tos\": 0010/**/, 'hostnqn\"': Null },\n"
		    "          {\"transport\": \"rdma\", \"traddr\": \"10.0.0.3\",\n"
		    "           \"queue_size\": \"64k\",\n"
		    "          },\n"
		    "        ],\n"
		    "      },\n"
		    "    ],\n"
		    "  },\n"
		    "]\n"
		    "/* the end */\n"));
	CHECK(conf.errors == 1 && conf.nr == 2);
	CHECK_STR(msgs(),
		  "pfx: c.json:13: warning: ignoring \"host_iface\": rblk binds by host_traddr, else by routing\n"
		  "pfx: c.json:13: warning: ignoring unknown key \"hostnqn\"\"\n"
		  "pfx: c.json:15: \"queue_size\": '64k' is not a whole number; port skipped\n");
	if (conf.nr == 2) {
		e = &conf.e[0];
		CHECK_STR(e->where, "c.json:11");
		CHECK_STR(e->subnqn, "n//not a comment/*");
		CHECK_STR(e->cfg.traddr, "10.0.0.1");
		CHECK_STR(e->cfg.trsvcid, "4420");
		CHECK(e->cfg.nr_io_queues == 4);
		CHECK(e->cfg.set & OPT(DUPLICATE_CONNECT));
		e = &conf.e[1];
		CHECK_STR(e->where, "c.json:12");
		CHECK_STR(e->cfg.traddr, "10.0.0.2");
		CHECK(e->cfg.tos == 10);
	}
	stop();

	/* A comment before the value, in a member, after the last. */
	start();
	CHECK(!json("// config.json\n"
		    "{\"hosts\" /* : */ : /* [ */ [],\n"
		    " \"x\": 1, // a key\n"
		    "} // the end\n"));
	CHECK(!conf.errors && !conf.nr);
	CHECK_STR(msgs(), "pfx: c.json:3: warning: ignoring unknown key \"x\"\n");
	stop();

	/* json-c reads the first value; the rest is said, not read. */
	start();
	CHECK(!json(ONE_PORT("{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"}")
		    "// more\n"
		    "[{\"hostnqn\": \"h2\"}]\n"));
	CHECK(!conf.errors && conf.nr == 1);
	CHECK_STR(msgs(), "pfx: c.json:15: warning: ignoring what follows the JSON value (json-c reads the first only)\n");
	stop();
}

static void json_syntax_errors(void)
{
	/* What json-c refuses without JSON_TOKENER_STRICT too. */
	static const struct {
		const char *doc;
		const char *msg;
	} bad[] = {
		{ "[\n  {\"hostnqn\": \"h\"\n]", "line 3, column 1: object value separator ',' expected ']'" },
		{ "[{\"hostnqn\": \"h}]", "line 1, column 18: unexpected end of file" },
		{ "[{\"hostnqn\": \"h\"},\n ,]", "line 2, column 2: unexpected character ','" },
		{ "[{hostnqn: \"h\"}]", "line 1, column 3: quoted object property name expected 'h'" },
		{ "# a comment\n[]", "line 1, column 1: unexpected character '#'" },
		{ "[\n  {} / not a comment\n]", "line 2, column 7: expected comment" },
		{ "[] /* not ended", "line 1, column 16: unexpected end of file" },
		/* json-c ends no block comment at a "**" before its "/". */
		{ "[]\n/** a banner **/\n", "line 3, column 1: unexpected end of file" },
		{ "[] // no new line at the end", "line 1, column 29: unexpected end of file" },
		{ "['it\\'s']", "line 1, column 6: invalid string sequence '''" },
		{ "// nothing but a comment\n", "line 2, column 1: unexpected end of file" },
	};
	char want[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		start();
		CHECK(!json(bad[i].doc));
		CHECK(conf.errors == 1 && conf.nr == 0);
		snprintf(want, sizeof(want), "pfx: c.json: not valid JSON: %s\n",
			 bad[i].msg);
		CHECK_STR(msgs(), want);
		stop();
	}
	/* Nothing but white space: nvme-cli reads no targets, no error. */
	start();
	CHECK(!json(" \n\t\r\n"));
	CHECK(!conf.errors && !conf.nr);
	CHECK(!conf_parse_json(&conf, "c.json", "", 0, &defaults));
	CHECK(!conf.errors && !conf.nr);
	CHECK_STR(msgs(), "");
	stop();
	/* An empty array or object of hosts: nothing to do either. */
	start();
	CHECK(!json("[]"));
	CHECK(!json("{\"hosts\": []}"));
	CHECK(!conf.errors && !conf.nr);
	stop();
}

/* Many ports; too deep a document. */
static void json_huge(void)
{
	size_t n = 5000, i, len = 0;
	char *doc = malloc(n * 64 + 256);

	CHECK(doc != NULL);
	if (!doc)
		return;
	len += sprintf(doc, "[{\"hostnqn\": \"h\", \"subsystems\": [{\"nqn\": \"n\", \"ports\": [");
	for (i = 0; i < n; i++)
		len += sprintf(doc + len, "%s{\"transport\": \"rdma\", \"traddr\": \"10.0.%zu.%zu\"}",
			       i ? "," : "", i / 250, i % 250);
	sprintf(doc + len, "]}]}]");
	start();
	CHECK(!json(doc));
	CHECK(!conf.errors && conf.nr == n);
	if (conf.nr == n)
		CHECK_STR(conf.e[n - 1].cfg.traddr, "10.0.19.249");
	stop();
	free(doc);

	doc = malloc(200 * 5 + 1);
	CHECK(doc != NULL);
	if (!doc)
		return;
	for (i = 0; i < 100; i++)
		memcpy(doc + 5 * i, "[{\"\":", 5);
	doc[500] = '\0';
	start();
	CHECK(!json(doc));
	CHECK(conf.errors == 1 && !conf.nr);
	CHECK_CONTAINS(msgs(), "not valid JSON: line 1, column ");
	CHECK_CONTAINS(msgs(), "nesting too deep");
	stop();
	free(doc);
}

/*
 * libnvme's and nvme-cli's own config.json files (config-examples/README),
 * a copy with "transport": "rdma" for "tcp" into *@text; -1 if unread.
 */
static int example(const char *file, bool rdma, char **text)
{
	char path[256], buf[8192], *p, *out;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "config-examples/%s", file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	out = malloc(2 * len + 1);
	if (!out)
		return -1;
	for (p = buf, len = 0; *p; ) {
		if (rdma && !strncmp(p, "\"tcp\"", 5)) {
			memcpy(out + len, "\"rdma\"", 6);
			len += 6;
			p += 5;
		} else {
			out[len++] = *p++;
		}
	}
	out[len] = '\0';
	*text = out;
	return 0;
}

/*
 * Reads @file as it is: every port NVMe/TCP's, skipped with a warning, and
 * @others other warnings.
 */
static void example_tcp(const char *file, size_t ports, size_t others)
{
	char *text, name[128];
	size_t i, n = 0;
	const char *m;

	CHECK(!example(file, false, &text));
	if (!text)
		return;
	snprintf(name, sizeof(name), "config-examples/%s", file);
	start();
	CHECK(!conf_parse_json(&conf, name, text, strlen(text), &defaults));
	CHECK(!conf.errors && !conf.nr);
	for (m = msgs(); (m = strstr(m, "warning: skipping transport tcp (only rdma)\n")); m++)
		n++;
	CHECK(n == ports);
	for (i = 0, m = msgs(); *m; m++)
		i += *m == '\n';
	CHECK(i == n + others);
	stop();
	free(text);
}

static void json_examples(void)
{
	const struct conf_entry *e;
	char *text = NULL;

	example_tcp("libnvme-config-pcie-with-tcp-config.json", 4, 0);
	example_tcp("libnvme-tls_key-1.json", 1, 0);
	example_tcp("libnvme-tls_key-2.json", 1, 0);
	example_tcp("libnvme-config-pcie.json", 0, 0);
	/* "hostsymname", a host's. */
	example_tcp("nvme-cli-convert-dc-and-subsystem.json", 2, 1);

	/* Two hosts, one subsystem each, two ports; "dhchap_key": "none". */
	CHECK(!example("libnvme-config-pcie-with-tcp-config.json", true, &text));
	start();
	CHECK(text && !conf_parse_json(&conf, "c.json", text, strlen(text), &defaults));
	CHECK(!conf.errors && conf.nr == 4);
	CHECK_STR(msgs(), "");
	if (conf.nr == 4) {
		e = &conf.e[0];
		CHECK_STR(e->cfg.hostnqn, "nqn.2014-08.org.nvmexpress:uuid:2cd2c43b-a90a-45c1-a8cd-86b33ab273b5");
		CHECK(e->cfg.hostid[0] == 0x2c && e->cfg.hostid[15] == 0xb5);
		CHECK_STR(e->subnqn, "nqn.io-1");
		CHECK_STR(e->cfg.traddr, "192.168.154.144");
		CHECK_STR(e->cfg.trsvcid, "4420");
		CHECK(!(e->cfg.set & (OPT(DHCHAP_SECRET) | OPT(DHCHAP_CTRL_SECRET))));
		CHECK(!e->passes);
		CHECK_STR(e->where, "c.json:9");
		CHECK_STR(conf.e[1].cfg.trsvcid, "4421");
		CHECK_STR(conf.e[1].where, "c.json:15");
		e = &conf.e[3];
		CHECK_STR(e->cfg.hostnqn, "nqn.2014-08.org.nvmexpress:uuid:befdec4c-2234-11b2-a85c-ca77c773af36");
		CHECK_STR(e->cfg.trsvcid, "4421");
		CHECK_STR(e->where, "c.json:38");
	}
	stop();
	free(text);
	text = NULL;

	/* TLS, which rdma has not: said, the port kept. */
	CHECK(!example("libnvme-tls_key-2.json", true, &text));
	start();
	CHECK(text && !conf_parse_json(&conf, "c.json", text, strlen(text), &defaults));
	CHECK(!conf.errors && conf.nr == 1);
	CHECK_STR(msgs(),
		  "pfx: c.json:14: warning: ignoring \"tls\": TLS is NVMe/TCP's\n"
		  "pfx: c.json:15: warning: ignoring unknown key \"tls_psk_identity\"\n"
		  "pfx: c.json:16: warning: ignoring \"tls_key\": TLS is NVMe/TCP's\n");
	if (conf.nr == 1) {
		CHECK_STR(conf.e[0].cfg.traddr, "192.168.154.148");
		CHECK(conf.e[0].cfg.hostid[15] == 0xb6);
	}
	stop();
	free(text);
	text = NULL;

	/* The schema's form: a discovery subsystem's port, and an NVM's. */
	CHECK(!example("nvme-cli-convert-dc-and-subsystem.json", true, &text));
	start();
	CHECK(text && !conf_parse_json(&conf, "c.json", text, strlen(text), &defaults));
	CHECK(!conf.errors && conf.nr == 2);
	CHECK_STR(msgs(), "pfx: c.json:1: warning: ignoring \"hostsymname\": rblk sends no host symbolic name\n");
	if (conf.nr == 2) {
		e = &conf.e[0];
		CHECK_STR(e->cfg.hostnqn, "nqn.2014-08.org.nvmexpress:uuid:1111");
		CHECK(e->cfg.hostid[0] == 0x46 && e->cfg.hostid[15] == 0x80);
		CHECK_STR(e->cfg.nqn, CONF_DISC_NQN);
		CHECK_STR(e->cfg.traddr, "192.168.1.10");
		CHECK_STR(e->cfg.trsvcid, "8009");
		CHECK(e->passes);
		e = &conf.e[1];
		CHECK_STR(e->subnqn, "nqn.2024-01.com.example:data.vol1");
		CHECK_STR(e->cfg.traddr, "192.168.1.20");
		CHECK(e->cfg.nr_io_queues == 4 && (e->cfg.set & OPT(NR_IO_QUEUES)));
		CHECK(!e->passes);
	}
	stop();
	free(text);
}

/* The command line fills what the file does not say; the file wins. */
static void json_defaults(void)
{
	char *argv[] = { "connect-all", "-i", "3", "-k", "9", "-q", "cmd-host",
			 "-s", "4500", NULL };

	CHECK(opts_parse(&defaults, 9, argv, CONF_LINE_OPTS, 0) == OPTS_OK);
	start();
	CHECK(!json(ONE_PORT("{ \"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", \"nr_io_queues\": 5 }")));
	CHECK(conf.nr == 1);
	if (conf.nr == 1) {
		CHECK(conf.e[0].cfg.nr_io_queues == 5);
		CHECK(conf.e[0].cfg.kato == 9);
		CHECK_STR(conf.e[0].cfg.hostnqn, HOSTNQN);
		CHECK_STR(conf.e[0].cfg.trsvcid, "4500");
	}
	stop();
}

/* --- discovery.conf --- */

static void disc_valid(void)
{
	start();
	CHECK(!disc("# comment\n\n   \n\t# indented\n"
		    "--transport=rdma --traddr=10.0.0.1 --trsvcid=4420 -i 2\n"
		    "-a 10.0.0.2 -q host-x\r\n"));
	CHECK(!conf.errors && conf.nr == 2);
	CHECK_STR(msgs(), "");
	if (conf.nr == 2) {
		CHECK_STR(conf.e[0].where, "d.conf:5");
		CHECK(conf.e[0].passes && conf.e[0].ask && !conf.e[0].subnqn);
		CHECK_STR(conf.e[0].cfg.traddr, "10.0.0.1");
		CHECK(conf.e[0].cfg.nr_io_queues == 2);
		CHECK_STR(conf.e[1].where, "d.conf:6");
		CHECK_STR(conf.e[1].cfg.hostnqn, "host-x");
	}
	stop();
}

/*
 * Every nvme-cli option rblk has not: a warning naming it and the line,
 * its value dropped with it, the line taken.
 */
static void disc_nvme_cli_options(void)
{
	static const struct {
		const char *args;
		const char *name;
	} opts[] = {
		{ "--host-iface=eth0", "--host-iface (-f)" },
		{ "-f eth0", "--host-iface (-f)" },
		{ "-feth0", "--host-iface (-f)" },
		{ "--keyring .nvme", "--keyring" },
		{ "--tls-key NVMeTLSkey-1:01:SeKrEt:", "--tls-key" },
		{ "--tls_key 12", "--tls-key" },
		{ "--tls-key-identity x", "--tls-key-identity" },
		{ "--tls", "--tls" },
		{ "--concat", "--concat" },
		{ "--hdr-digest", "--hdr-digest (-g)" },
		{ "-g", "--hdr-digest (-g)" },
		{ "-G", "--data-digest (-G)" },
		{ "--disable-sqflow", "--disable-sqflow (-d)" },
		{ "-d", "--disable-sqflow (-d)" },
		{ "--quiet", "--quiet" },
		{ "-v", "--verbose (-v)" },
		{ "-o json", "--output-format (-o)" },
		{ "--raw=/tmp/log", "--raw (-r)" },
		{ "--force", "--force" },
		{ "--nbft-path /x", "--nbft-path" },
		{ "--context ctx", "--context" },
		{ "-J /etc/nvme/config.json", "--config (-J)" },
		{ "--dump-config", "--dump-config (-O)" },
	};
	char line[256], want[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(opts); i++) {
		start();
		snprintf(line, sizeof(line), "-t rdma %s -a 10.0.0.1 -s 4421\n",
			 opts[i].args);
		CHECK(!disc(line));
		snprintf(want, sizeof(want), "pfx: d.conf:1: warning: ignoring %s: ",
			 opts[i].name);
		CHECK_PREFIX(msgs(), want);
		CHECK(strchr(msgs(), '\n') == msgs() + strlen(msgs()) - 1);
		CHECK(!strstr(msgs(), "SeKrEt"));
		CHECK(!conf.errors && conf.nr == 1);
		if (conf.nr == 1) {
			CHECK_STR(conf.e[0].cfg.traddr, "10.0.0.1");
			CHECK_STR(conf.e[0].cfg.trsvcid, "4421");
		}
		stop();
	}
	/* At the end of the line, and several on one line. */
	start();
	CHECK(!disc("-a 10.0.0.1 --host-iface=eth0 -g --force\n"));
	CHECK(!conf.errors && conf.nr == 1);
	CHECK_STR(msgs(), "pfx: d.conf:1: warning: ignoring --host-iface (-f): rblk binds by --host-traddr, else by routing\n"
		  "pfx: d.conf:1: warning: ignoring --hdr-digest (-g): digests are NVMe/TCP's\n"
		  "pfx: d.conf:1: warning: ignoring --force: rblk asks a discovery controller of its own (kept with -p, --persistent)\n");
	stop();
	/* -p, --persistent: that discovery controller is kept (connect-all). */
	start();
	CHECK(!disc("-a 10.0.0.1 --persistent\n-a 10.0.0.2 -p\n-a 10.0.0.3\n"));
	CHECK(!conf.errors && conf.nr == 3);
	CHECK_STR(msgs(), "");
	if (conf.nr == 3)
		CHECK((conf.e[0].cfg.set & OPT(PERSISTENT)) &&
		      (conf.e[1].cfg.set & OPT(PERSISTENT)) &&
		      !(conf.e[2].cfg.set & OPT(PERSISTENT)));
	stop();
	/* A value is not taken for an option: "-f -a X" keeps -a. */
	start();
	CHECK(!disc("-f -a 10.0.0.1\n"));
	CHECK(!conf.errors && conf.nr == 1);
	stop();
}

/*
 * -S and -C on a line, in each spelling, as on the command line; the
 * command line's where the line has none, key by key.
 */
static void disc_dhchap(void)
{
	static const struct {
		const char *args;
		const char *host, *ctrl;
	} lines[] = {
		{ "--dhchap-secret " KEY_H, KEY_H, NULL },
		{ "--dhchap_secret=" KEY_H, KEY_H, NULL },
		{ "-S " KEY_H, KEY_H, NULL },
		{ "-S" KEY_H, KEY_H, NULL },
		{ "-S " KEY_H " --dhchap-ctrl-secret=" KEY_C, KEY_H, KEY_C },
		{ "-S " KEY_H " -C" KEY_C, KEY_H, KEY_C },
	};
	char line[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		start();
		snprintf(line, sizeof(line), "-t rdma %s -a 10.0.0.1 -s 4421\n",
			 lines[i].args);
		CHECK(!disc(line));
		CHECK_STR(msgs(), "");
		CHECK(!conf.errors && conf.nr == 1);
		check_keys(0, lines[i].host, lines[i].ctrl);
		if (conf.nr == 1)
			CHECK(conf.e[0].passes);
		stop();
	}
	defaults.set = OPT(DHCHAP_SECRET) | OPT(DHCHAP_CTRL_SECRET);
	defaults.dhchap_secret = KEY_CMD;
	defaults.dhchap_ctrl_secret = KEY_CMD;
	start();
	CHECK(!disc("-a 10.0.0.1 -S " KEY_H "\n-a 10.0.0.2\n"));
	CHECK(!conf.errors && conf.nr == 2);
	check_keys(0, KEY_H, KEY_CMD);
	check_keys(1, KEY_CMD, KEY_CMD);
	check_srcs(0, "d.conf:1", NULL);
	check_srcs(1, NULL, NULL);
	stop();
	/* A malformed one: the line skipped, the key not said. */
	start();
	CHECK(!disc("-a 10.0.0.1 -S DHHC-1:07:SeKrEt:\n-a 10.0.0.2\n"));
	CHECK_STR(msgs(), "pfx: d.conf:1: --dhchap-secret (-S): not a DH-HMAC-CHAP key (DHHC-1:NN:<base64>:, NN 00-03); line skipped\n");
	CHECK(conf.errors == 1 && conf.nr == 1);
	stop();
}

/*
 * A key but as the value of -S or -C (behind an option spelt otherwise:
 * grouped after one rblk drops, one dash; another option's value; a
 * stray argument): the line is refused, the key never shown.
 */
static void disc_dhchap_other_forms(void)
{
	static const char * const args[] = {
		"-gSDHHC-1:00:SeKrEt:",
		"-pS DHHC-1:00:SeKrEt:",
		"-dhchap-secret DHHC-1:00:SeKrEt:",
		"-q DHHC-1:00:SeKrEt:",
		"DHHC-1:00:SeKrEt:",
		"-S -i 2 DHHC-1:00:SeKrEt:",
	};
	char line[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(args); i++) {
		start();
		snprintf(line, sizeof(line), "-a 10.0.0.1 %s\n-a 10.0.0.2\n",
			 args[i]);
		CHECK(!disc(line));
		CHECK(strstr(msgs(), "pfx: d.conf:1: a DH-HMAC-CHAP key not given with -S or -C; line skipped\n"));
		CHECK(!strstr(msgs(), "SeKrEt"));
		CHECK(conf.errors == 1 && conf.nr == 1);
		if (conf.nr == 1)
			CHECK_STR(conf.e[0].cfg.traddr, "10.0.0.2");
		stop();
	}
}

/*
 * A DH-HMAC-CHAP key as nvme gen-dhchap-key makes it: @len bytes, then
 * their CRC-32 (zlib's, little-endian), in base64.  48 and 64 bytes end
 * in "==" and "=", 32 bytes in none.
 */
static void gen_key(char *out, size_t outlen, size_t len, unsigned int seed)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char k[64 + 4];
	uint32_t crc = 0xffffffff;
	size_t i, n = 0;
	int b;

	srand(seed);
	for (i = 0; i < len; i++) {
		k[i] = rand();
		crc ^= k[i];
		for (b = 0; b < 8; b++)
			crc = crc >> 1 ^ (0xedb88320 & -(crc & 1));
	}
	crc = ~crc;
	for (i = 0; i < 4; i++)
		k[len + i] = crc >> (8 * i);
	len += 4;
	n = snprintf(out, outlen, "DHHC-1:0%u:", len == 36 ? 1 : len == 52 ? 2 : 3);
	for (i = 0; i < len; i += 3) {
		uint32_t v = k[i] << 16 | (i + 1 < len ? k[i + 1] << 8 : 0) |
			     (i + 2 < len ? k[i + 2] : 0);

		out[n++] = b64[v >> 18 & 63];
		out[n++] = b64[v >> 12 & 63];
		out[n++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
		out[n++] = i + 2 < len ? b64[v & 63] : '=';
	}
	out[n++] = ':';
	out[n] = '\0';
}

/*
 * Real keys of 32, 48 and 64 bytes, whose base64 ends in "", "==" and
 * "=": in every spelling of -S and -C, and where '=' also joins an
 * option to its value.
 */
static void disc_dhchap_real_keys(void)
{
	static const size_t lens[] = { 32, 48, 64 };
	static const char * const forms[] = {
		"-S %s -C %s",
		"-S%s -C%s",
		"--dhchap-secret=%s --dhchap-ctrl-secret=%s",
		"--dhchap_secret %s --dhchap_ctrl_secret %s",
		"-S=%s -C=%s",
	};
	char host[128], ctrl[128], args[320], line[400];
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		gen_key(host, sizeof(host), lens[i], 1 + i);
		gen_key(ctrl, sizeof(ctrl), lens[i], 11 + i);
		CHECK(opts_dhchap_secret_valid(host));
		CHECK(strlen(host) == 11 + 4 * ((lens[i] + 4 + 2) / 3));
		CHECK((lens[i] == 32) == !strchr(host, '='));
		for (j = 0; j < ARRAY_SIZE(forms); j++) {
			start();
			snprintf(args, sizeof(args), forms[j], host, ctrl);
			snprintf(line, sizeof(line),
				 "--transport=rdma %s --traddr=10.0.0.1 -s=4421 -i 2\n",
				 args);
			CHECK(!disc(line));
			CHECK_STR(msgs(), "");
			CHECK(!conf.errors && conf.nr == 1);
			check_keys(0, host, ctrl);
			if (conf.nr == 1) {
				CHECK_STR(conf.e[0].cfg.traddr, "10.0.0.1");
				CHECK_STR(conf.e[0].cfg.trsvcid, "4421");
				CHECK(conf.e[0].cfg.nr_io_queues == 2);
			}
			stop();
		}
	}
	/* Only an option's first '=' splits it: the value keeps the rest. */
	start();
	CHECK(!disc("-a 10.0.0.1 --hostnqn=nqn.a=b\n"));
	CHECK(!conf.errors && conf.nr == 1);
	if (conf.nr == 1)
		CHECK_STR(conf.e[0].cfg.hostnqn, "nqn.a=b");
	stop();
}

/*
 * The keys read are zeroed before they are freed: the conf's copies (a
 * discovery.conf line, split into words, and config.json's), the parsed
 * JSON, stdio's buffer of the file, a comment json-c copied, a string
 * the JSON parser gave up on, what json-c had built when it gave up.
 */
static void keys_zeroed(void)
{
	char key[128], key2[128], slice[17], text[1024];
	char path[] = "/tmp/conf_test.XXXXXX";
	FILE *f;
	int fd;

	gen_key(key, sizeof(key), 48, 7);
	gen_key(key2, sizeof(key2), 48, 8);
	/* A slice of the base64 both share: none of it may be freed. */
	memcpy(slice, key + 10, 16);
	slice[16] = '\0';
	memcpy(key2 + 10, slice, 16);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	fprintf(f, "# a key\n-a 10.0.0.1 -S %s -C %s -i 2\n", key, key2);
	fclose(f);

	freecheck_found = 0;
	freecheck_secret = slice;
	start();
	CHECK(!conf_read_discovery(&conf, path, &defaults));
	CHECK(!conf.errors && conf.nr == 1);
	check_keys(0, key, key2);
	snprintf(text, sizeof(text),
		 ONE_PORT("{\"transport\": \"rdma\", \"traddr\": \"10.0.0.2\", \"dhchap_key\": \"%s\", \"dhchap_ctrl_key\": \"%s\"}"),
		 key, key2);
	CHECK(!json(text));
	CHECK(!conf.errors && conf.nr == 2);
	/*
	 * In comments, which json-c copies into its buffer (the last one
	 * left there), and in single quotes.
	 */
	snprintf(text, sizeof(text),
		 ONE_PORT("{\"transport\": \"rdma\", // \"dhchap_key\": \"%s\",\n"
			  "\"traddr\": \"10.0.0.3\", 'dhchap_key': '%s', }")
		 "/* \"dhchap_ctrl_key\": \"%s\" */\n",
		 key, key, key2);
	CHECK(!json(text));
	CHECK(!conf.errors && conf.nr == 3);
	/* Not JSON: the parser stops in the middle of the key. */
	snprintf(text, sizeof(text), "[{\"hostnqn\": \"h\", \"dhchap_key\": \"%s\\q\"}]",
		 key);
	CHECK(!json(text));
	CHECK(conf.errors == 1);
	/* Not JSON after the key: json-c had built a string of it. */
	snprintf(text, sizeof(text), "[{\"hostnqn\": \"h\", \"dhchap_key\": \"%s\" x}]",
		 key);
	CHECK(!json(text));
	CHECK(conf.errors == 2);
	stop();
	explicit_bzero(text, sizeof(text));
	freecheck_secret = NULL;
	CHECK(freecheck_found == 0);
	unlink(path);
}

/* nvme-cli's -F (2.10 on) is rblk's --fast_io_fail_tmo, as on the command line. */
static void disc_fast_io_fail_short(void)
{
	start();
	CHECK(!disc("-a 10.0.0.1 -F 10\n-a 10.0.0.2 -F20\n-a 10.0.0.3 -F x\n"));
	CHECK(conf.nr == 2 && conf.errors == 1);
	if (conf.nr == 2) {
		CHECK(conf.e[0].cfg.fast_io_fail_tmo == 10);
		CHECK(conf.e[1].cfg.fast_io_fail_tmo == 20);
	}
	CHECK_STR(msgs(), "pfx: d.conf:3: --fast_io_fail_tmo (-F): 'x' is not a number; line skipped\n");
	stop();
}

/* A malformed line is an error that skips it; the others stay. */
static void disc_errors(void)
{
	char *text, *p;
	size_t i;

	start();
	CHECK(!disc("-a 10.0.0.1 --frob\n"
		    "-a 10.0.0.2 -i 0\n"
		    "-t rdma -s 4420\n"
		    "-a 10.0.0.3 -a 10.0.0.4\n"
		    "-a 10.0.0.5 -D=1\n"
		    "-a 10.0.0.6 -h\n"
		    "-a 10.0.0.7 -N 1\n"
		    "-a 10.0.0.8 -k nine\n"
		    "-a 10.0.0.9\n"));
	CHECK(conf.errors == 8 && conf.nr == 1);
	if (conf.nr == 1)
		CHECK_STR(conf.e[0].cfg.traddr, "10.0.0.9");
	CHECK_STR(msgs(),
		  "pfx: d.conf:1: unknown option '--frob'; line skipped\n"
		  "pfx: d.conf:2: --nr-io-queues (-i): 0 is out of range 1-128; line skipped\n"
		  "pfx: d.conf:3: missing required option --traddr (-a); line skipped\n"
		  "pfx: d.conf:4: --traddr (-a) given more than once; line skipped\n"
		  "pfx: d.conf:5: unexpected argument '1'; line skipped\n"
		  "pfx: d.conf:6: unknown option '-h'; line skipped\n"
		  "pfx: d.conf:7: unknown option '-N'; line skipped\n"
		  "pfx: d.conf:8: --keep-alive-tmo (-k): 'nine' is not a number; line skipped\n");
	stop();

	/* A line too long, and one of too many arguments. */
	text = malloc(8192);
	CHECK(text != NULL);
	if (!text)
		return;
	memset(text, 'x', 5000);
	p = text + 5000;
	p += sprintf(p, "\n-a 10.0.0.1");
	for (i = 0; i < 64; i++)
		p += sprintf(p, " -g");
	p += sprintf(p, "\n-a 10.0.0.2\n");
	start();
	CHECK(!disc(text));
	CHECK(conf.errors == 2 && conf.nr == 1);
	CHECK_CONTAINS(msgs(), "pfx: d.conf:1: longer than 4094 characters; line skipped\n");
	CHECK_CONTAINS(msgs(), "pfx: d.conf:2: more than 64 arguments; line skipped\n");
	if (conf.nr == 1)
		CHECK_STR(conf.e[0].where, "d.conf:3");
	stop();
	free(text);
}

static void disc_transport(void)
{
	start();
	CHECK(!disc("-t tcp -a 10.0.0.1 --host-iface eth0\n--transport=fc -a x\n-tloop\n-t rdma -a 10.0.0.2\n"));
	CHECK(!conf.errors && conf.nr == 1);
	CHECK_STR(msgs(), "pfx: d.conf:1: warning: skipping transport tcp (only rdma)\n"
		  "pfx: d.conf:2: warning: skipping transport fc (only rdma)\n"
		  "pfx: d.conf:3: warning: skipping transport loop (only rdma)\n");
	stop();
}

/* The line wins over the command line, which fills the rest. */
static void disc_defaults(void)
{
	char *argv[] = { "connect-all", "-i", "3", "-P", "1", "-W", "1", NULL };

	CHECK(opts_parse(&defaults, 7, argv, CONF_LINE_OPTS, 0) == OPTS_OK);
	start();
	CHECK(!disc("-a 10.0.0.1 -i 2\n"));
	CHECK(conf.nr == 1);
	if (conf.nr == 1) {
		CHECK(conf.e[0].cfg.nr_io_queues == 2);
		CHECK(conf.e[0].cfg.nr_poll_queues == 1);
		CHECK(conf.e[0].cfg.nr_write_queues == 1);
	}
	stop();
}

static void read_files(void)
{
	char dir[] = "/tmp/conf_test.XXXXXX", path[64];
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	start();
	snprintf(path, sizeof(path), "%s/none.json", dir);
	CHECK(conf_read_json(&conf, path, &defaults) == -ENOENT);
	snprintf(path, sizeof(path), "%s/none.conf", dir);
	CHECK(conf_read_discovery(&conf, path, &defaults) == -ENOENT);
	/* A missing file is not an error: nothing said. */
	CHECK_STR(msgs(), "");
	CHECK(!conf.errors);

	snprintf(path, sizeof(path), "%s/config.json", dir);
	f = fopen(path, "w");
	fputs(ONE_PORT("{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"}"), f);
	fclose(f);
	CHECK(!conf_read_json(&conf, path, &defaults));
	CHECK(conf.nr == 1 && !conf.errors);
	if (conf.nr == 1)
		CHECK_CONTAINS(conf.e[0].where, "/config.json:8");
	/* Larger than CONF_JSON_MAX: refused whole. */
	f = fopen(path, "w");
	fprintf(f, "[%*s]", CONF_JSON_MAX, "");
	fclose(f);
	CHECK(conf_read_json(&conf, path, &defaults) == -EFBIG);
	CHECK_CONTAINS(msgs(), "/config.json: larger than 1 MiB\n");
	CHECK(conf.errors == 1);
	unlink(path);
	/* A directory is no file. */
	CHECK(conf_read_json(&conf, dir, &defaults) == -EFBIG);
	CHECK_CONTAINS(msgs(), ": not a regular file\n");

	snprintf(path, sizeof(path), "%s/discovery.conf", dir);
	f = fopen(path, "w");
	fputs("-a 10.0.0.2\n", f);
	fclose(f);
	CHECK(!conf_read_discovery(&conf, path, &defaults));
	CHECK(conf.nr == 2);
	unlink(path);
	stop();
	rmdir(dir);
}

/* --- what a discovered record is connected with --- */

/* Of entries asking the same, one asks: the first, or one that passes. */
static void finish_dedupe(void)
{
	start();
	CHECK(!json("[{\"hostnqn\": \"h\", \"subsystems\": [\n"
		    " {\"nqn\": \"" NQN "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"}]},\n"
		    " {\"nqn\": \"" NQN2 "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", \"trsvcid\": \"4420\"}]},\n"
		    " {\"nqn\": \"" CONF_DISC_NQN "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"}]},\n"
		    " {\"nqn\": \"" NQN "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.2\"}]},\n"
		    " {\"nqn\": \"" NQN "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", \"host_traddr\": \"10.0.0.9\"}]}]},\n"
		    " {\"hostnqn\": \"h2\", \"subsystems\": [\n"
		    " {\"nqn\": \"" NQN "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\"}]}]}]"));
	CHECK(disc("-a 10.0.0.2 -q h\n-a 10.0.0.2 -q h\n-a 10.0.0.2 -q h -s 4421\n") == 0);
	CHECK(conf.nr == 9 && !conf.errors);
	conf_finish(&conf);
	if (conf.nr == 9) {
		/* 10.0.0.1 as h: the discovery subsystem's port asks. */
		CHECK(!conf.e[0].ask && !conf.e[1].ask && conf.e[2].ask);
		/* 10.0.0.2 as h: the first; then the discovery.conf line that passes. */
		CHECK(!conf.e[3].ask);
		/* Another source address, another host: asked. */
		CHECK(conf.e[4].ask && conf.e[5].ask);
		CHECK(conf.e[6].ask && !conf.e[7].ask);
		/* Another port. */
		CHECK(conf.e[8].ask);
	}
	stop();
}

static void same_discovery(void)
{
	struct cfg a = { .set = OPT(TRADDR), .traddr = "10.0.0.1" }, b = a;

	CHECK(conf_same_discovery(&a, &b));
	b.trsvcid = "4420";
	CHECK(conf_same_discovery(&a, &b));
	b.trsvcid = "4421";
	CHECK(!conf_same_discovery(&a, &b));
	b = a;
	b.nqn = CONF_DISC_NQN;
	CHECK(conf_same_discovery(&a, &b));
	b.nqn = "nqn.x";
	CHECK(!conf_same_discovery(&a, &b));
	b = a;
	b.hostnqn = "h";
	CHECK(!conf_same_discovery(&a, &b));
	b = a;
	b.set |= OPT(HOSTID);
	CHECK(!conf_same_discovery(&a, &b));
	b = a;
	b.traddr = "10.0.0.01";
	CHECK(!conf_same_discovery(&a, &b));
	b.traddr = "10.0.0.2";
	CHECK(!conf_same_discovery(&a, &b));
	b = a;
	b.host_traddr = "10.0.0.9";
	CHECK(!conf_same_discovery(&a, &b));
	/* DH-HMAC-CHAP keys: the same strings, or none on both. */
	b = a;
	b.set |= OPT(DHCHAP_SECRET);
	b.dhchap_secret = KEY_H;
	CHECK(!conf_same_discovery(&a, &b));
	a.set |= OPT(DHCHAP_SECRET);
	a.dhchap_secret = strdupa(KEY_H);
	CHECK(conf_same_discovery(&a, &b));
	b.dhchap_secret = KEY_P;
	CHECK(!conf_same_discovery(&a, &b));
	b.dhchap_secret = KEY_H;
	b.set |= OPT(DHCHAP_CTRL_SECRET);
	b.dhchap_ctrl_secret = KEY_C;
	CHECK(!conf_same_discovery(&a, &b));
}

/* A line with keys is asked beside one without, at the same address. */
static void finish_keys(void)
{
	start();
	CHECK(!disc("-a 10.0.0.1\n-a 10.0.0.1 -S " KEY_H "\n-a 10.0.0.1 -S " KEY_H "\n"));
	conf_finish(&conf);
	CHECK(conf.nr == 3);
	if (conf.nr == 3)
		CHECK(conf.e[0].ask && conf.e[1].ask && !conf.e[2].ask);
	stop();
}

static void addr_eq(void)
{
	CHECK(conf_addr_eq("10.0.0.1", "10.0.0.1"));
	CHECK(!conf_addr_eq("10.0.0.1", "10.0.0.2"));
	CHECK(conf_addr_eq(NULL, ""));
	CHECK(!conf_addr_eq(NULL, "10.0.0.1"));
	CHECK(conf_addr_eq("fe80::1", "FE80:0:0:0:0:0:0:1"));
	CHECK(conf_addr_eq("fe80::1%1", "fe80:0::1%1"));
	CHECK(conf_addr_eq("fe80::1%lo", "fe80::1%1"));
	CHECK(!conf_addr_eq("fe80::1%1", "fe80::1"));
	CHECK(!conf_addr_eq("fe80::1", "fe80::2"));
	CHECK(!conf_addr_eq("::ffff:10.0.0.1", "10.0.0.1"));
	CHECK(conf_addr_eq("host.example", "host.example"));
	CHECK(!conf_addr_eq("host.example", "other.example"));
}

static struct disc_entry record(const char *subnqn, const char *traddr,
				const char *trsvcid)
{
	struct disc_entry e;

	memset(&e, 0, sizeof(e));
	e.trtype = 1;
	e.subtype = 2;
	snprintf(e.subnqn, sizeof(e.subnqn), "%s", subnqn);
	snprintf(e.traddr, sizeof(e.traddr), "%s", traddr);
	snprintf(e.trsvcid, sizeof(e.trsvcid), "%s", trsvcid);
	return e;
}

static void record_cfg(void)
{
	struct disc_entry e1 = record(NQN, "fe80:0::1%1", "4420");
	struct disc_entry e2 = record(NQN2, "fe80::1%1", "4420");
	struct disc_entry e3 = record(NQN, "fe80::1%1", "4421");
	char *argv[] = { "connect-all", "-k", "9", "-i", "7", NULL };
	struct cfg disc_cfg, out;

	CHECK(opts_parse(&defaults, 5, argv, CONF_LINE_OPTS, 0) == OPTS_OK);
	start();
	CHECK(!json("[{\"hostnqn\": \"h\", \"subsystems\": [\n"
		    " {\"nqn\": \"" NQN "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"fe80::1%1\", \"nr_io_queues\": 2}]},\n"
		    " {\"nqn\": \"" CONF_DISC_NQN "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"fe80::1%1\", \"trsvcid\": \"8009\", \"queue_size\": 32, \"host_traddr\": \"fe80::2%1\", \"tos\": 8}]}]}]"));
	CHECK(conf.nr == 2);
	if (conf.nr != 2)
		goto out;
	CHECK(conf_match(&conf, "h", NQN, "fe80::1%1", "4420") == &conf.e[0]);
	CHECK(conf_match(&conf, "h", NQN, "fe80::1%1", NULL) == &conf.e[0]);
	CHECK(!conf_match(&conf, "h2", NQN, "fe80::1%1", "4420"));
	CHECK(!conf_match(&conf, NULL, NQN, "fe80::1%1", "4420"));
	CHECK(!conf_match(&conf, "h", NQN, "fe80::1%1", "4421"));
	CHECK(!conf_match(NULL, "h", NQN, "fe80::1%1", "4420"));
	/* Discovery subsystems' ports are no records' ports. */
	CHECK(!conf_match(&conf, "h", CONF_DISC_NQN, "fe80::1%1", "8009"));

	/* Asked at the discovery port, host identity resolved. */
	disc_cfg = conf.e[1].cfg;
	disc_cfg.set |= OPT(HOSTID);
	memset(disc_cfg.hostid, 0xab, sizeof(disc_cfg.hostid));
	/* The record of the NQN port: that port's options. */
	conf_record_cfg(&conf, &disc_cfg, true, &defaults, &e1, &out);
	CHECK(out.nr_io_queues == 2);
	CHECK(out.kato == 9);
	CHECK(!(out.set & OPT(QUEUE_SIZE)));
	CHECK_STR(out.nqn, NQN);
	CHECK_STR(out.traddr, "fe80:0::1%1");
	CHECK_STR(out.trsvcid, "4420");
	CHECK_STR(out.hostnqn, "h");
	CHECK((out.set & OPT(HOSTID)) && out.hostid[0] == 0xab);
	/* The discovery's source address and TOS where the port says none. */
	CHECK_STR(out.host_traddr, "fe80::2%1");
	CHECK(out.tos == 8 && (out.set & OPT(TOS)));
	/* Another subsystem: the discovery port's options, which pass. */
	conf_record_cfg(&conf, &disc_cfg, true, &defaults, &e2, &out);
	CHECK(out.queue_size == 32 && out.nr_io_queues == 7);
	CHECK_STR(out.nqn, NQN2);
	/* Another port of the subsystem, from one that does not pass. */
	conf_record_cfg(&conf, &disc_cfg, false, &defaults, &e3, &out);
	CHECK(out.nr_io_queues == 7 && out.kato == 9);
	CHECK(!(out.set & OPT(QUEUE_SIZE)));
	CHECK_STR(out.hostnqn, "h");
	CHECK_STR(out.host_traddr, "fe80::2%1");
	CHECK_STR(out.trsvcid, "4421");
	/* As another host, the port of h is not ours. */
	disc_cfg.hostnqn = "h2";
	conf_record_cfg(&conf, &disc_cfg, false, &defaults, &e1, &out);
	CHECK(out.nr_io_queues == 7);
	CHECK_STR(out.hostnqn, "h2");
	/* Without files (-a): the discovery's options. */
	conf_record_cfg(NULL, &disc_cfg, true, &defaults, &e1, &out);
	CHECK(out.queue_size == 32);
out:
	stop();
}

/* The keys a record is connected with: its port's, else as the rest. */
static void record_keys(void)
{
	struct disc_entry e1 = record(NQN, "10.0.0.1", "4420");
	struct disc_entry e2 = record(NQN2, "10.0.0.1", "4420");
	struct cfg disc_cfg, out;

	defaults.set = OPT(DHCHAP_SECRET);
	defaults.dhchap_secret = KEY_CMD;
	start();
	CHECK(!json("[{\"hostnqn\": \"h\", \"subsystems\": [\n"
		    " {\"nqn\": \"" NQN "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", \"dhchap_key\": \"" KEY_P "\", \"dhchap_ctrl_key\": \"" KEY_C "\"}]},\n"
		    " {\"nqn\": \"" CONF_DISC_NQN "\", \"dhchap_key\": \"" KEY_S "\", \"ports\": [{\"transport\": \"rdma\", \"traddr\": \"10.0.0.1\", \"trsvcid\": \"8009\"}]}]}]"));
	CHECK(conf.nr == 2 && !conf.errors);
	if (conf.nr != 2)
		goto out;
	disc_cfg = conf.e[1].cfg;
	conf_record_cfg(&conf, &disc_cfg, true, &defaults, &e1, &out);
	CHECK_STR(out.dhchap_secret, KEY_P);
	CHECK((out.set & OPT(DHCHAP_CTRL_SECRET)) &&
	      !strcmp(out.dhchap_ctrl_secret, KEY_C));
	/* What a refused key's message names: its file and line. */
	CHECK_STR(out.dhchap_secret_src ?: "(null)", "c.json:2");
	CHECK_STR(out.dhchap_ctrl_secret_src ?: "(null)", "c.json:2");
	conf_record_cfg(&conf, &disc_cfg, true, &defaults, &e2, &out);
	CHECK_STR(out.dhchap_secret, KEY_S);
	CHECK_STR(out.dhchap_secret_src ?: "(null)", "c.json:3");
	CHECK(!(out.set & OPT(DHCHAP_CTRL_SECRET)));
	conf_record_cfg(&conf, &disc_cfg, false, &defaults, &e2, &out);
	CHECK_STR(out.dhchap_secret, KEY_CMD);
	CHECK(!out.dhchap_secret_src);
out:
	stop();
}

static void connected(void)
{
	struct ctrl_info c[3];
	struct cfg cfg = {
		.set = OPT(TRADDR) | OPT(TRSVCID) | OPT(NQN),
		.traddr = "fe80::1%1", .trsvcid = "4420", .nqn = NQN,
	};

	memset(c, 0, sizeof(c));
	snprintf(c[0].name, sizeof(c[0].name), "rblk-ctrl0");
	snprintf(c[0].traddr, sizeof(c[0].traddr), "fe80::1%%1");
	snprintf(c[0].trsvcid, sizeof(c[0].trsvcid), "4420");
	snprintf(c[0].subsysnqn, sizeof(c[0].subsysnqn), NQN);
	snprintf(c[0].hostnqn, sizeof(c[0].hostnqn), "h");
	c[0].state = RBLK_STATE_LIVE;
	c[1] = c[0];
	snprintf(c[1].name, sizeof(c[1].name), "rblk-ctrl1");
	snprintf(c[1].host_traddr, sizeof(c[1].host_traddr), "fe80::2%%1");

	CHECK(conf_connected(c, 1, &cfg, "h") == &c[0]);
	cfg.traddr = "FE80:0::1%1";
	CHECK(conf_connected(c, 1, &cfg, "h") == &c[0]);
	CHECK(!conf_connected(c, 1, &cfg, "h2"));
	CHECK(!conf_connected(c, 1, &cfg, NULL));
	cfg.trsvcid = NULL;	/* the default port */
	CHECK(conf_connected(c, 1, &cfg, "h") == &c[0]);
	cfg.trsvcid = "4421";
	CHECK(!conf_connected(c, 1, &cfg, "h"));
	cfg.trsvcid = "4420";
	cfg.nqn = NQN2;
	CHECK(!conf_connected(c, 1, &cfg, "h"));
	cfg.nqn = NQN;
	/* From another source address: another controller. */
	cfg.host_traddr = "fe80::2%1";
	CHECK(conf_connected(c, 2, &cfg, "h") == &c[1]);
	cfg.host_traddr = NULL;
	CHECK(conf_connected(c + 1, 1, &cfg, "h") == NULL);
	/* One being deleted is none (the kernel says the same). */
	c[0].state = RBLK_STATE_DELETING;
	CHECK(!conf_connected(c, 1, &cfg, "h"));
}

/* --- the queue of discovery controllers, and referrals --- */

static struct disc_entry referral(const char *traddr, const char *trsvcid)
{
	struct disc_entry e = record(CONF_DISC_NQN, traddr, trsvcid);

	e.subtype = 1;
	return e;
}

/* A loop of referrals ends: each discovery controller is asked once. */
static void referral_loop(void)
{
	struct cfg cmdline = {
		.set = OPT(TRADDR) | OPT(TRSVCID) | OPT(KATO) | OPT(HOSTNQN),
		.traddr = "10.0.0.1", .trsvcid = "4420", .kato = 7,
		.hostnqn = "h",
	};
	struct disc_entry to_b = referral("10.0.0.2", "4420");
	struct disc_entry to_a = referral("10.0.0.1", "4420");
	struct disc_entry to_self = referral("10.0.0.2", "4420");
	struct conf_queue q = { 0 };
	const struct conf_disc *a, *b;

	a = conf_queue_add(&q, &cmdline, true, NULL);
	CHECK(a != NULL);
	if (!a)
		return;
	CHECK_STR(a->where, "");
	CHECK(conf_queue_referral(&q, a, &to_b) == CONF_REF_QUEUED);
	CHECK(q.nr == 2 && q.referrals == 1);
	b = q.d[1];
	/* Its own copies of the record's strings, the parent's settings. */
	CHECK(b->cfg.traddr == b->traddr);
	CHECK_STR(b->cfg.traddr, "10.0.0.2");
	CHECK_STR(b->cfg.nqn, CONF_DISC_NQN);
	CHECK(b->cfg.kato == 7 && (b->cfg.set & OPT(KATO)));
	CHECK_STR(b->cfg.hostnqn, "h");
	CHECK(b->passes && b->depth == 1);
	CHECK_STR(b->where, "referral from 10.0.0.1 port 4420");
	/* Back to the first (by the well-known NQN it was asked by), or to itself. */
	CHECK(conf_queue_referral(&q, b, &to_a) == CONF_REF_ASKED);
	CHECK(conf_queue_referral(&q, b, &to_self) == CONF_REF_ASKED);
	CHECK(conf_queue_referral(&q, a, &to_b) == CONF_REF_ASKED);
	CHECK(q.nr == 2 && q.referrals == 1);
	/* The same address by another NQN or port is another one. */
	to_a.trsvcid[3] = '1';
	CHECK(conf_queue_referral(&q, b, &to_a) == CONF_REF_QUEUED);
	CHECK(q.nr == 3);
	/* "Returns the same information": not asked. */
	to_b = referral("10.0.0.9", "4420");
	to_b.eflags = 1;
	CHECK(conf_queue_referral(&q, a, &to_b) == CONF_REF_SAME_INFO);
	CHECK(q.nr == 3);
	conf_queue_free(&q);
	CHECK(!q.nr && !q.d);
}

/* A chain of distinct referrals ends at the depth limit... */
static void referral_depth(void)
{
	struct cfg cmdline = { .set = OPT(TRADDR), .traddr = "10.0.0.1" };
	struct conf_queue q = { 0 };
	const struct conf_disc *d;
	struct disc_entry e;
	char addr[32];
	unsigned int i;

	d = conf_queue_add(&q, &cmdline, false, "d.conf:1");
	for (i = 0; d && i < CONF_REFERRAL_MAX_DEPTH; i++) {
		snprintf(addr, sizeof(addr), "10.0.1.%u", i);
		e = referral(addr, "4420");
		CHECK(conf_queue_referral(&q, d, &e) == CONF_REF_QUEUED);
		d = q.d[q.nr - 1];
		CHECK(!d->passes);
	}
	CHECK(d && d->depth == CONF_REFERRAL_MAX_DEPTH);
	e = referral("10.0.2.1", "4420");
	if (d)
		CHECK(conf_queue_referral(&q, d, &e) == CONF_REF_TOO_DEEP);
	CHECK(q.nr == CONF_REFERRAL_MAX_DEPTH + 1);
	/* ... and a loop back past it is still a loop. */
	e = referral("10.0.0.1", "4420");
	if (d)
		CHECK(conf_queue_referral(&q, d, &e) == CONF_REF_ASKED);
	conf_queue_free(&q);
}

/* ... and a fan-out at the count limit. */
static void referral_count(void)
{
	struct cfg cmdline = { .set = OPT(TRADDR), .traddr = "10.0.0.1" };
	struct conf_queue q = { 0 };
	const struct conf_disc *a;
	struct disc_entry e;
	char addr[32];
	unsigned int i;

	a = conf_queue_add(&q, &cmdline, true, NULL);
	CHECK(a != NULL);
	if (!a)
		return;
	for (i = 0; i < CONF_REFERRAL_MAX; i++) {
		snprintf(addr, sizeof(addr), "10.0.%u.%u", 1 + i / 200, i % 200);
		e = referral(addr, "4420");
		CHECK(conf_queue_referral(&q, q.d[0], &e) == CONF_REF_QUEUED);
	}
	e = referral("10.9.9.9", "4420");
	CHECK(conf_queue_referral(&q, q.d[0], &e) == CONF_REF_TOO_MANY);
	CHECK(q.nr == CONF_REFERRAL_MAX + 1);
	conf_queue_free(&q);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(json_valid),
	KTAP_CASE(json_each_option),
	KTAP_CASE(json_unset_values),
	KTAP_CASE(json_ignored_keys),
	KTAP_CASE(json_keys),
	KTAP_CASE(json_bad_keys),
	KTAP_CASE(json_key_misplaced),
	KTAP_CASE(json_unknown_keys),
	KTAP_CASE(json_wrong_types),
	KTAP_CASE(json_libnvme_coercions),
	KTAP_CASE(json_nesting_errors),
	KTAP_CASE(json_required),
	KTAP_CASE(json_transport),
	KTAP_CASE(json_discovery_ports),
	KTAP_CASE(json_hosts_object),
	KTAP_CASE(json_lax),
	KTAP_CASE(json_syntax_errors),
	KTAP_CASE(json_huge),
	KTAP_CASE(json_defaults),
	KTAP_CASE(json_examples),
	KTAP_CASE(disc_valid),
	KTAP_CASE(disc_nvme_cli_options),
	KTAP_CASE(disc_dhchap),
	KTAP_CASE(disc_dhchap_other_forms),
	KTAP_CASE(disc_dhchap_real_keys),
	KTAP_CASE(keys_zeroed),
	KTAP_CASE(disc_fast_io_fail_short),
	KTAP_CASE(disc_errors),
	KTAP_CASE(disc_transport),
	KTAP_CASE(disc_defaults),
	KTAP_CASE(read_files),
	KTAP_CASE(finish_dedupe),
	KTAP_CASE(same_discovery),
	KTAP_CASE(finish_keys),
	KTAP_CASE(addr_eq),
	KTAP_CASE(record_cfg),
	KTAP_CASE(record_keys),
	KTAP_CASE(connected),
	KTAP_CASE(referral_loop),
	KTAP_CASE(referral_depth),
	KTAP_CASE(referral_count),
};

int main(void)
{
	return ktap_run("conf", cases, ARRAY_SIZE(cases));
}
