// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of nvmecfg's side of the rblk messages (nl.c) without a kernel:
 * the decoders are fed answers built here as the module sends them, and
 * the requests the commands build are read back.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <linux/netlink.h>

#include "fixtures.h"
#include "host.h"
#include "ktap.h"
#include "nl.h"
#include "output.h"

/* Any id: the decoders do not look at it. */
#define FAMILY	0x20

#define CHECK_INT(got, want)						\
	do {								\
		long long __g = (got), __w = (want);			\
		if (__g != __w) {					\
			printf("# %s:%d: %s is %lld, want %lld\n",	\
			       __FILE__, __LINE__, #got, __g, __w);	\
			ktap_failed = 1;				\
		}							\
	} while (0)

#define CHECK_MEM(got, want)						\
	CHECK(sizeof(got) == sizeof(want) &&				\
	      !memcmp((got), (want), sizeof(got)))

/* Room for a hundred namespaces, as the kernel's dump messages have. */
static struct nl_msg *answer(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc_size(65536);

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, FAMILY, 0, 0,
				cmd, RBLK_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	if (!msg) {
		printf("# cannot build a message\n");
		exit(1);
	}
	return msg;
}

/* Every message a controller is split over names it. */
static void put_ctrl_id(struct nl_msg *msg, const struct ctrl_info *c)
{
	CHECK(!nla_put_u32(msg, RBLK_ATTR_CTRL_INDEX, c->index));
	CHECK(!nla_put_string(msg, RBLK_ATTR_CTRL_NAME, c->name));
}

/* The first message of a controller: all its attributes. */
static void put_ctrl(struct nl_msg *msg, const struct ctrl_info *c)
{
	int ret;

	put_ctrl_id(msg, c);
	ret = nla_put_string(msg, RBLK_ATTR_TRTYPE, c->trtype) ||
	      nla_put_u8(msg, RBLK_ATTR_ADRFAM, c->adrfam) ||
	      nla_put_string(msg, RBLK_ATTR_TRADDR, c->traddr) ||
	      nla_put_string(msg, RBLK_ATTR_TRSVCID, c->trsvcid) ||
	      nla_put_string(msg, RBLK_ATTR_SUBSYSNQN, c->subsysnqn) ||
	      (c->nsid && nla_put_u32(msg, RBLK_ATTR_NSID, c->nsid)) ||
	      nla_put_string(msg, RBLK_ATTR_HOSTNQN, c->hostnqn) ||
	      nla_put(msg, RBLK_ATTR_HOSTID, RBLK_HOSTID_LEN, c->hostid) ||
	      nla_put_u32(msg, RBLK_ATTR_NR_IO_QUEUES, c->nr_io_queues) ||
	      nla_put_u32(msg, RBLK_ATTR_QUEUE_SIZE, c->queue_size) ||
	      nla_put_u32(msg, RBLK_ATTR_KATO, c->kato) ||
	      nla_put_u32(msg, RBLK_ATTR_RECONNECT_DELAY,
			  c->reconnect_delay) ||
	      nla_put_s32(msg, RBLK_ATTR_CTRL_LOSS_TMO, c->ctrl_loss_tmo) ||
	      nla_put_s32(msg, RBLK_ATTR_FAST_IO_FAIL_TMO,
			  c->fast_io_fail_tmo) ||
	      nla_put_u8(msg, RBLK_ATTR_STATE, c->state) ||
	      nla_put_u16(msg, RBLK_ATTR_CNTLID, c->cntlid) ||
	      nla_put_string(msg, RBLK_ATTR_MODEL, c->model) ||
	      nla_put_string(msg, RBLK_ATTR_SERIAL, c->serial) ||
	      nla_put_string(msg, RBLK_ATTR_FIRMWARE, c->firmware) ||
	      (c->has_iopolicy &&
	       nla_put_u8(msg, RBLK_ATTR_IOPOLICY, c->iopolicy));
	CHECK(!ret);
}

/* An RBLK_ATTR_NS nest, with a pad before the u64 as the kernel may. */
static void put_ns(struct nl_msg *msg, const struct ns_info *ns)
{
	struct nlattr *nest = nla_nest_start(msg, RBLK_ATTR_NS);
	int ret;

	ret = !nest ||
	      nla_put_u32(msg, RBLK_NS_ATTR_INDEX, ns->index) ||
	      nla_put_string(msg, RBLK_NS_ATTR_DISK_NAME, ns->name) ||
	      nla_put_u32(msg, RBLK_NS_ATTR_NSID, ns->nsid) ||
	      nla_put(msg, RBLK_NS_ATTR_PAD, 0, NULL) ||
	      nla_put_u64(msg, RBLK_NS_ATTR_SIZE, ns->size) ||
	      nla_put_u32(msg, RBLK_NS_ATTR_BLOCK_SIZE, ns->block_size) ||
	      nla_put_string(msg, RBLK_NS_ATTR_WWID, ns->wwid) ||
	      (ns->has_nguid && nla_put(msg, RBLK_NS_ATTR_NGUID,
					RBLK_NGUID_LEN, ns->nguid)) ||
	      (ns->has_eui64 && nla_put(msg, RBLK_NS_ATTR_EUI64,
					RBLK_EUI64_LEN, ns->eui64)) ||
	      (ns->has_uuid && nla_put(msg, RBLK_NS_ATTR_UUID,
				       RBLK_UUID_LEN, ns->uuid));
	CHECK(!ret);
	nla_nest_end(msg, nest);
}

/* Decodes @msg into @vec as rnl_transact() would, and frees it. */
static int feed(struct nl_msg *msg, rnl_parse_fn parse, void *arg)
{
	int ret = rnl_decode(nlmsg_hdr(msg), parse, arg);

	nlmsg_free(msg);
	return ret;
}

static void check_ns(const struct ns_info *got, const struct ns_info *want)
{
	CHECK_INT(got->index, want->index);
	CHECK_STR(got->name, want->name);
	CHECK_INT(got->nsid, want->nsid);
	CHECK_INT(got->size, want->size);
	CHECK_INT(got->block_size, want->block_size);
	CHECK_STR(got->wwid, want->wwid);
	CHECK_INT(got->has_nguid, want->has_nguid);
	CHECK_INT(got->has_eui64, want->has_eui64);
	CHECK_INT(got->has_uuid, want->has_uuid);
	if (want->has_nguid)
		CHECK_MEM(got->nguid, want->nguid);
	if (want->has_eui64)
		CHECK_MEM(got->eui64, want->eui64);
	if (want->has_uuid)
		CHECK_MEM(got->uuid, want->uuid);
}

static void check_ctrl(const struct ctrl_info *got,
		       const struct ctrl_info *want)
{
	size_t i;

	CHECK_INT(got->index, want->index);
	CHECK_STR(got->name, want->name);
	CHECK_STR(got->trtype, want->trtype);
	CHECK_INT(got->adrfam, want->adrfam);
	CHECK_STR(got->traddr, want->traddr);
	CHECK_STR(got->trsvcid, want->trsvcid);
	CHECK_STR(got->subsysnqn, want->subsysnqn);
	CHECK_INT(got->nsid, want->nsid);
	CHECK_STR(got->hostnqn, want->hostnqn);
	CHECK_MEM(got->hostid, want->hostid);
	CHECK_INT(got->nr_io_queues, want->nr_io_queues);
	CHECK_INT(got->queue_size, want->queue_size);
	CHECK_INT(got->kato, want->kato);
	CHECK_INT(got->reconnect_delay, want->reconnect_delay);
	CHECK_INT(got->ctrl_loss_tmo, want->ctrl_loss_tmo);
	CHECK_INT(got->fast_io_fail_tmo, want->fast_io_fail_tmo);
	CHECK_INT(got->state, want->state);
	CHECK_INT(got->cntlid, want->cntlid);
	CHECK_STR(got->model, want->model);
	CHECK_STR(got->serial, want->serial);
	CHECK_STR(got->firmware, want->firmware);
	CHECK_INT(got->has_iopolicy, want->has_iopolicy);
	CHECK_INT(got->iopolicy, want->iopolicy);
	CHECK_INT(got->nr_ns, want->nr_ns);
	for (i = 0; i < got->nr_ns && i < want->nr_ns; i++)
		check_ns(&got->ns[i], &want->ns[i]);
}

static struct ctrl_info fc[2];
static struct ns_info fns[3];

static void get_several_namespaces(void)
{
	struct ctrl_vec vec = { 0 };
	struct nl_msg *msg = answer(RBLK_CMD_GET);

	put_ctrl(msg, &fc[0]);
	put_ns(msg, &fns[0]);
	put_ns(msg, &fns[1]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	CHECK_INT(vec.nr, 1);
	if (vec.nr == 1)
		check_ctrl(&vec.v[0], &fc[0]);
	rnl_ctrls_free(vec.v, vec.nr);
}

static void get_split_over_two_messages(void)
{
	struct ctrl_vec vec = { 0 };
	struct nl_msg *msg = answer(RBLK_CMD_GET);

	put_ctrl(msg, &fc[0]);
	put_ns(msg, &fns[0]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	/* The continuation: the controller's name and more namespaces. */
	msg = answer(RBLK_CMD_GET);
	put_ctrl_id(msg, &fc[0]);
	put_ns(msg, &fns[1]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	CHECK_INT(vec.nr, 1);
	if (vec.nr == 1)
		check_ctrl(&vec.v[0], &fc[0]);
	rnl_ctrls_free(vec.v, vec.nr);
}

static void dump_two_controllers(void)
{
	struct ctrl_vec vec = { 0 };
	struct nl_msg *msg = answer(RBLK_CMD_GET);

	put_ctrl(msg, &fc[0]);
	put_ns(msg, &fns[0]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	msg = answer(RBLK_CMD_GET);
	put_ctrl_id(msg, &fc[0]);
	put_ns(msg, &fns[1]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	msg = answer(RBLK_CMD_GET);
	put_ctrl(msg, &fc[1]);
	put_ns(msg, &fns[2]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	CHECK_INT(vec.nr, 2);
	if (vec.nr == 2) {
		check_ctrl(&vec.v[0], &fc[0]);
		/* Created with -N 3: the filter comes back. */
		check_ctrl(&vec.v[1], &fc[1]);
	}
	rnl_ctrls_free(vec.v, vec.nr);
}

/* No limit on the namespaces of a controller: 1000 over 10 messages. */
static void many_namespaces(void)
{
	struct ctrl_vec vec = { 0 };
	struct ns_info ns = fns[2];
	struct nl_msg *msg;
	int m, i, bad = 0;

	for (m = 0; m < 10; m++) {
		msg = answer(RBLK_CMD_GET);
		if (!m)
			put_ctrl(msg, &fc[1]);
		else
			put_ctrl_id(msg, &fc[1]);
		for (i = 0; i < 100; i++) {
			ns.index = ns.nsid = m * 100 + i;
			snprintf(ns.name, sizeof(ns.name), "rblk%u", ns.index);
			put_ns(msg, &ns);
		}
		CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	}
	CHECK_INT(vec.nr, 1);
	if (vec.nr != 1)
		goto out;
	CHECK_INT(vec.v[0].nr_ns, 1000);
	CHECK_STR(vec.v[0].traddr, fc[1].traddr);
	for (i = 0; i < (int)vec.v[0].nr_ns; i++)
		bad += vec.v[0].ns[i].nsid != (uint32_t)i;
	CHECK_INT(bad, 0);
	CHECK_STR(vec.v[0].ns[999].name, "rblk999");
out:
	rnl_ctrls_free(vec.v, vec.nr);
}

static void connect_reply(void)
{
	struct ctrl_vec vec = { 0 };
	struct nl_msg *msg = answer(RBLK_CMD_CONNECT);

	put_ctrl_id(msg, &fc[0]);
	put_ns(msg, &fns[0]);
	put_ns(msg, &fns[1]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	CHECK_INT(vec.nr, 1);
	if (vec.nr == 1) {
		CHECK_INT(vec.v[0].index, 0);
		CHECK_STR(vec.v[0].name, "rblk-ctrl0");
		CHECK_INT(vec.v[0].nr_ns, 2);
		if (vec.v[0].nr_ns == 2) {
			check_ns(&vec.v[0].ns[0], &fns[0]);
			check_ns(&vec.v[0].ns[1], &fns[1]);
		}
	}
	rnl_ctrls_free(vec.v, vec.nr);

	/* A controller whose subsystem has no namespace (yet). */
	memset(&vec, 0, sizeof(vec));
	msg = answer(RBLK_CMD_CONNECT);
	put_ctrl_id(msg, &fc[1]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	CHECK_INT(vec.nr, 1);
	if (vec.nr == 1) {
		CHECK_STR(vec.v[0].name, "rblk-ctrl7");
		CHECK_INT(vec.v[0].nr_ns, 0);
	}
	rnl_ctrls_free(vec.v, vec.nr);
}

static void malformed_answers(void)
{
	static const unsigned char short_id[4];
	struct ctrl_vec vec = { 0 };
	struct nlattr *nest;
	struct nl_msg *msg;

	/* Without the controller's index. */
	msg = answer(RBLK_CMD_GET);
	CHECK(!nla_put_string(msg, RBLK_ATTR_CTRL_NAME, "rblk-ctrl0"));
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), -EBADMSG);

	/* A namespace without its device name. */
	msg = answer(RBLK_CMD_GET);
	put_ctrl_id(msg, &fc[0]);
	nest = nla_nest_start(msg, RBLK_ATTR_NS);
	CHECK(!nla_put_u32(msg, RBLK_NS_ATTR_INDEX, 0));
	nla_nest_end(msg, nest);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), -EBADMSG);

	/* An NGUID of 4 bytes: it would be read past its end. */
	msg = answer(RBLK_CMD_GET);
	put_ctrl_id(msg, &fc[0]);
	nest = nla_nest_start(msg, RBLK_ATTR_NS);
	CHECK(!nla_put_u32(msg, RBLK_NS_ATTR_INDEX, 0));
	CHECK(!nla_put_string(msg, RBLK_NS_ATTR_DISK_NAME, "rblk0"));
	CHECK(!nla_put(msg, RBLK_NS_ATTR_NGUID, sizeof(short_id), short_id));
	nla_nest_end(msg, nest);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), -EBADMSG);

	/* A controller index of the wrong size fails the policy. */
	msg = answer(RBLK_CMD_GET);
	CHECK(!nla_put_u8(msg, RBLK_ATTR_CTRL_INDEX, 0));
	CHECK(!nla_put_string(msg, RBLK_ATTR_CTRL_NAME, "rblk-ctrl0"));
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), -EBADMSG);
	rnl_ctrls_free(vec.v, vec.nr);
}

static void put_stats(struct nl_msg *msg, const struct stats_info *st)
{
	struct nlattr *nest;
	int i;

	if (st->is_head)
		CHECK(!nla_put_u32(msg, RBLK_ATTR_NR_PATHS, st->nr_paths));
	CHECK(!nla_put_u32(msg, RBLK_ATTR_CTRL_INDEX, st->ctrl_index));
	CHECK(!nla_put_string(msg, RBLK_ATTR_CTRL_NAME, st->ctrl_name));
	if (st->is_ns) {
		CHECK(!nla_put_u32(msg, RBLK_ATTR_INDEX, st->index));
		CHECK(!nla_put_string(msg, RBLK_ATTR_DISK_NAME, st->name));
	}
	nest = nla_nest_start(msg, RBLK_ATTR_STATS);
	for (i = 1; i <= RBLK_STAT_MAX; i++) {
		if (stat_name(i))
			CHECK(!nla_put_u64(msg, i, st->counter[i]));
	}
	CHECK(!nla_put(msg, RBLK_STAT_LAT_HIST, sizeof(st->lat_hist),
		       st->lat_hist));
	nla_nest_end(msg, nest);
}

static void check_stats(const struct stats_info *got,
			const struct stats_info *want)
{
	int i;

	CHECK_INT(got->is_head, want->is_head);
	CHECK_INT(got->nr_paths, want->nr_paths);
	CHECK_INT(got->ctrl_index, want->ctrl_index);
	CHECK_STR(got->ctrl_name, want->ctrl_name);
	CHECK_INT(got->is_ns, want->is_ns);
	CHECK_INT(got->index, want->index);
	CHECK_STR(got->name, want->name);
	for (i = 1; i <= RBLK_STAT_MAX; i++) {
		if (stat_name(i))
			CHECK_INT(got->counter[i], want->counter[i]);
	}
	CHECK_MEM(got->lat_hist, want->lat_hist);
}

static void stats_reply(bool ns)
{
	struct stats_info want, got;
	struct nl_msg *msg = answer(RBLK_CMD_GET_STATS);

	fix_stats(&want, ns);
	put_stats(msg, &want);
	CHECK_INT(feed(msg, rnl_parse_stats, &got), 0);
	check_stats(&got, &want);
}

static void stats_namespace(void)
{
	stats_reply(true);
}

static void stats_controller(void)
{
	stats_reply(false);
}

/* A multipath head's sum over its paths (naming one path's controller). */
static void stats_head(void)
{
	struct stats_info want, got;
	struct nl_msg *msg = answer(RBLK_CMD_GET_STATS);

	fix_stats(&want, true);
	want.is_head = true;
	want.nr_paths = 2;
	put_stats(msg, &want);
	CHECK_INT(feed(msg, rnl_parse_stats, &got), 0);
	check_stats(&got, &want);

	/* A sum over paths must name the head. */
	msg = answer(RBLK_CMD_GET_STATS);
	fix_stats(&want, false);
	want.is_head = true;
	put_stats(msg, &want);
	CHECK_INT(feed(msg, rnl_parse_stats, &got), -EBADMSG);

	/* Neither a controller nor paths. */
	msg = answer(RBLK_CMD_GET_STATS);
	fix_stats(&want, true);
	CHECK(!nla_put_u32(msg, RBLK_ATTR_INDEX, want.index));
	CHECK(!nla_put_string(msg, RBLK_ATTR_DISK_NAME, want.name));
	nla_nest_end(msg, nla_nest_start(msg, RBLK_ATTR_STATS));
	CHECK_INT(feed(msg, rnl_parse_stats, &got), -EBADMSG);
}

static void event_namespace(void)
{
	struct ctrl_event want, got;
	struct nl_msg *msg = answer(RBLK_CMD_EVENT);

	fix_event(&want);
	CHECK(!nla_put_u8(msg, RBLK_ATTR_EVENT, want.event));
	CHECK(!nla_put_u32(msg, RBLK_ATTR_CTRL_INDEX, want.ctrl_index));
	CHECK(!nla_put_string(msg, RBLK_ATTR_CTRL_NAME, want.ctrl_name));
	CHECK(!nla_put_u8(msg, RBLK_ATTR_STATE, want.state));
	put_ns(msg, &want.ns);
	CHECK_INT(feed(msg, rnl_parse_event, &got), 0);
	CHECK_INT(got.event, RBLK_EVENT_NS_ADDED);
	CHECK_INT(got.ctrl_index, 0);
	CHECK_STR(got.ctrl_name, "rblk-ctrl0");
	CHECK_INT(got.state, RBLK_STATE_LIVE);
	CHECK(got.has_ns);
	check_ns(&got.ns, &want.ns);
}

static void event_controller(void)
{
	struct ctrl_event got;
	struct nl_msg *msg = answer(RBLK_CMD_EVENT);

	CHECK(!nla_put_u8(msg, RBLK_ATTR_EVENT, RBLK_EVENT_STATE));
	CHECK(!nla_put_u32(msg, RBLK_ATTR_CTRL_INDEX, 7));
	CHECK(!nla_put_string(msg, RBLK_ATTR_CTRL_NAME, "rblk-ctrl7"));
	CHECK(!nla_put_u8(msg, RBLK_ATTR_STATE, RBLK_STATE_RESETTING));
	CHECK_INT(feed(msg, rnl_parse_event, &got), 0);
	CHECK_INT(got.event, RBLK_EVENT_STATE);
	CHECK_INT(got.ctrl_index, 7);
	CHECK_STR(got.ctrl_name, "rblk-ctrl7");
	CHECK_INT(got.state, RBLK_STATE_RESETTING);
	CHECK(!got.has_ns);

	/* Not an event without its kind. */
	msg = answer(RBLK_CMD_EVENT);
	CHECK(!nla_put_u32(msg, RBLK_ATTR_CTRL_INDEX, 7));
	CHECK_INT(feed(msg, rnl_parse_event, &got), -EBADMSG);
}

/* The request's top-level attributes, as the kernel would parse them. */
static void request_attrs(struct nl_msg *msg, struct nlattr **tb)
{
	CHECK(!genlmsg_parse(nlmsg_hdr(msg), 0, tb, RBLK_ATTR_MAX, NULL));
}

static void selector(const char *device, bool by_index, int want_type)
{
	struct nlattr *tb[RBLK_ATTR_MAX + 1];
	struct cfg cfg = { .device = device, .index = 3 };
	struct nl_msg *msg = answer(RBLK_CMD_GET);
	int type, n = 0;

	if (by_index)
		cfg.set = OPT(INDEX);
	CHECK(!rnl_put_dev(msg, &cfg));
	request_attrs(msg, tb);
	for (type = 1; type <= RBLK_ATTR_MAX; type++)
		n += !!tb[type];
	CHECK_INT(n, 1);
	CHECK(tb[want_type]);
	if (tb[want_type] && want_type == RBLK_ATTR_INDEX)
		CHECK_INT(nla_get_u32(tb[want_type]), 3);
	else if (tb[want_type])
		CHECK_STR(nla_get_string(tb[want_type]), device);
	nlmsg_free(msg);
}

static void request_selectors(void)
{
	selector("rblk-ctrl0", false, RBLK_ATTR_CTRL_NAME);
	selector("rblk-ctrl12", false, RBLK_ATTR_CTRL_NAME);
	selector("rblk0", false, RBLK_ATTR_DISK_NAME);
	selector("rblk12", false, RBLK_ATTR_DISK_NAME);
	/* Not a controller name: the kernel says what it is. */
	selector("rblk-ctr", false, RBLK_ATTR_DISK_NAME);
	selector(NULL, true, RBLK_ATTR_INDEX);
}

static void request_connect(void)
{
	struct nlattr *tb[RBLK_ATTR_MAX + 1];
	struct cfg cfg = {
		.traddr = "10.99.0.1", .nqn = FIX_NQN, .nsid = 2,
	};
	struct nl_msg *msg = answer(RBLK_CMD_CONNECT);

	/* Only what the command line said: no NSID, no flag. */
	CHECK(!rnl_put_connect(msg, &cfg));
	request_attrs(msg, tb);
	CHECK_STR(nla_get_string(tb[RBLK_ATTR_TRADDR]), "10.99.0.1");
	CHECK_STR(nla_get_string(tb[RBLK_ATTR_SUBSYSNQN]), FIX_NQN);
	CHECK(!tb[RBLK_ATTR_NSID]);
	CHECK(!tb[RBLK_ATTR_DUPLICATE_CONNECT]);
	nlmsg_free(msg);

	cfg.set = OPT(NSID) | OPT(DUPLICATE_CONNECT);
	msg = answer(RBLK_CMD_CONNECT);
	CHECK(!rnl_put_connect(msg, &cfg));
	request_attrs(msg, tb);
	CHECK(tb[RBLK_ATTR_NSID] && nla_get_u32(tb[RBLK_ATTR_NSID]) == 2);
	CHECK(tb[RBLK_ATTR_DUPLICATE_CONNECT] &&
	      nla_len(tb[RBLK_ATTR_DUPLICATE_CONNECT]) == 0);
	nlmsg_free(msg);
}

#define KEY_A	"DHHC-1:00:ia6zGodOr4SEG0Zzaw398rpY0wqipUWj4jWjUh4HWUz6aQ2n:"
#define KEY_B	"DHHC-1:01:hmanLCrDbvXq5W6yb1xg0hhJeNC/qWFxMoTUwa3fJ+k4QwRN:"

/*
 * The keys: -S and -C as given; the default key (/etc/nvme/hostkey, no
 * -S) flagged as such; -S wins over it.
 */
static void request_dhchap(void)
{
	struct nlattr *tb[RBLK_ATTR_MAX + 1];
	struct cfg cfg = { .traddr = "10.99.0.1", .nqn = FIX_NQN };
	struct nl_msg *msg = answer(RBLK_CMD_CONNECT);

	CHECK(!rnl_put_connect(msg, &cfg));
	request_attrs(msg, tb);
	CHECK(!tb[RBLK_ATTR_DHCHAP_SECRET] && !tb[RBLK_ATTR_DHCHAP_CTRL_SECRET]);
	CHECK(!tb[RBLK_ATTR_DHCHAP_KEY_DEFAULT]);
	nlmsg_free(msg);

	cfg.set = OPT(DHCHAP_SECRET) | OPT(DHCHAP_CTRL_SECRET);
	cfg.dhchap_secret = KEY_A;
	cfg.dhchap_ctrl_secret = KEY_B;
	msg = answer(RBLK_CMD_CONNECT);
	CHECK(!rnl_put_connect(msg, &cfg));
	request_attrs(msg, tb);
	CHECK(tb[RBLK_ATTR_DHCHAP_SECRET] &&
	      !strcmp(nla_get_string(tb[RBLK_ATTR_DHCHAP_SECRET]), KEY_A));
	CHECK(tb[RBLK_ATTR_DHCHAP_CTRL_SECRET] &&
	      !strcmp(nla_get_string(tb[RBLK_ATTR_DHCHAP_CTRL_SECRET]), KEY_B));
	CHECK(!tb[RBLK_ATTR_DHCHAP_KEY_DEFAULT]);
	nlmsg_free(msg);

	/* The default key, with -C: both, and the flag. */
	cfg.set = OPT(DHCHAP_CTRL_SECRET);
	cfg.dhchap_default = true;
	msg = answer(RBLK_CMD_CONNECT);
	CHECK(!rnl_put_connect(msg, &cfg));
	request_attrs(msg, tb);
	CHECK(tb[RBLK_ATTR_DHCHAP_SECRET] &&
	      !strcmp(nla_get_string(tb[RBLK_ATTR_DHCHAP_SECRET]), KEY_A));
	CHECK(tb[RBLK_ATTR_DHCHAP_CTRL_SECRET]);
	CHECK(tb[RBLK_ATTR_DHCHAP_KEY_DEFAULT] &&
	      nla_len(tb[RBLK_ATTR_DHCHAP_KEY_DEFAULT]) == 0);
	nlmsg_free(msg);
}

/* From the file to the request, as connect does it. */
static void request_default_key_file(void)
{
	char root[256], path[512];
	struct nlattr *tb[RBLK_ATTR_MAX + 1];
	struct cfg cfg = { .traddr = "10.99.0.1", .nqn = FIX_NQN };
	struct host_info h;
	struct nl_msg *msg;
	char err[600];
	FILE *f;

	snprintf(root, sizeof(root), "%s/nvmecfg-decode.XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	CHECK(mkdtemp(root));
	setenv("NVMECFG_TEST_ROOT", root, 1);
	snprintf(path, sizeof(path), "%s%s", root, "/etc");
	mkdir(path, 0755);
	strcat(path, "/nvme");
	mkdir(path, 0755);
	strcat(path, "/hostkey");
	f = fopen(path, "w");
	CHECK(f && fputs(KEY_B "\n", f) >= 0 && !fclose(f));

	CHECK(!host_resolve(&h, &cfg, err, sizeof(err)));
	CHECK(!host_read_key(&h, err, sizeof(err)));
	host_apply_key(&h, &cfg);
	msg = answer(RBLK_CMD_CONNECT);
	CHECK(!rnl_put_connect(msg, &cfg));
	request_attrs(msg, tb);
	CHECK(tb[RBLK_ATTR_DHCHAP_SECRET] &&
	      !strcmp(nla_get_string(tb[RBLK_ATTR_DHCHAP_SECRET]), KEY_B));
	CHECK(tb[RBLK_ATTR_DHCHAP_KEY_DEFAULT]);
	nlmsg_free(msg);
	host_forget_key(&h);

	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	rmdir(root);
	unsetenv("NVMECFG_TEST_ROOT");
}

static void request_host_traddr_tos(void)
{
	struct nlattr *tb[RBLK_ATTR_MAX + 1];
	struct cfg cfg = {
		.traddr = "fe80::1%dummy0", .nqn = "blktests-subsystem-1",
		.host_traddr = "fe80::2%dummy0", .tos = 184,
	};
	struct nl_msg *msg = answer(RBLK_CMD_CONNECT);

	/* Neither unless given; then as given (the scope id too). */
	CHECK(!rnl_put_connect(msg, &cfg));
	request_attrs(msg, tb);
	CHECK(!tb[RBLK_ATTR_HOST_TRADDR] && !tb[RBLK_ATTR_TOS]);
	CHECK_STR(nla_get_string(tb[RBLK_ATTR_TRADDR]), "fe80::1%dummy0");
	CHECK_STR(nla_get_string(tb[RBLK_ATTR_SUBSYSNQN]),
		  "blktests-subsystem-1");
	nlmsg_free(msg);

	cfg.set = OPT(HOST_TRADDR) | OPT(TOS);
	msg = answer(RBLK_CMD_CONNECT);
	CHECK(!rnl_put_connect(msg, &cfg));
	request_attrs(msg, tb);
	CHECK(tb[RBLK_ATTR_HOST_TRADDR] &&
	      !strcmp(nla_get_string(tb[RBLK_ATTR_HOST_TRADDR]),
		      "fe80::2%dummy0"));
	CHECK(tb[RBLK_ATTR_TOS] && nla_len(tb[RBLK_ATTR_TOS]) == 1 &&
	      nla_get_u8(tb[RBLK_ATTR_TOS]) == 184);
	nlmsg_free(msg);
}

static void get_host_traddr_tos(void)
{
	struct ctrl_vec vec = { 0 };
	struct ctrl_info c[2];
	struct ns_info ns[3];
	struct nl_msg *msg;

	fix_ctrls(c, ns);
	msg = answer(RBLK_CMD_GET);
	put_ctrl(msg, &c[0]);
	CHECK(!nla_put_string(msg, RBLK_ATTR_HOST_TRADDR, "10.99.0.2"));
	CHECK(!nla_put_u8(msg, RBLK_ATTR_TOS, 0));
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	CHECK_INT(vec.nr, 1);
	if (vec.nr == 1) {
		CHECK_STR(vec.v[0].host_traddr, "10.99.0.2");
		/* TOS 0 is a value, not "not set". */
		CHECK(vec.v[0].has_tos && vec.v[0].tos == 0);
	}
	rnl_ctrls_free(vec.v, vec.nr);

	/* Not set: not reported. */
	memset(&vec, 0, sizeof(vec));
	msg = answer(RBLK_CMD_GET);
	put_ctrl(msg, &c[0]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	if (vec.nr == 1)
		CHECK(!vec.v[0].host_traddr[0] && !vec.v[0].has_tos);
	rnl_ctrls_free(vec.v, vec.nr);
}

static void put_disc_entry(struct nl_msg *msg, const struct disc_entry *e)
{
	struct nlattr *nest = nla_nest_start(msg, RBLK_ATTR_DISC_ENTRY);

	CHECK(nest);
	CHECK(!(nla_put_u8(msg, RBLK_DISC_TRTYPE, e->trtype) ||
		nla_put_u8(msg, RBLK_DISC_ADRFAM, e->adrfam) ||
		nla_put_u8(msg, RBLK_DISC_SUBTYPE, e->subtype) ||
		nla_put_u8(msg, RBLK_DISC_TREQ, e->treq) ||
		nla_put_u16(msg, RBLK_DISC_PORTID, e->portid) ||
		nla_put_u16(msg, RBLK_DISC_CNTLID, e->cntlid) ||
		nla_put_u16(msg, RBLK_DISC_ASQSZ, e->asqsz) ||
		nla_put_string(msg, RBLK_DISC_TRSVCID, e->trsvcid) ||
		nla_put_string(msg, RBLK_DISC_TRADDR, e->traddr) ||
		nla_put_string(msg, RBLK_DISC_SUBNQN, e->subnqn) ||
		nla_put_u16(msg, RBLK_DISC_EFLAGS, e->eflags) ||
		nla_put_u8(msg, RBLK_DISC_RDMA_QPTYPE, e->rdma_qptype) ||
		nla_put_u8(msg, RBLK_DISC_RDMA_PRTYPE, e->rdma_prtype) ||
		nla_put_u8(msg, RBLK_DISC_RDMA_CMS, e->rdma_cms) ||
		nla_put_u16(msg, RBLK_DISC_RDMA_PKEY, e->rdma_pkey)));
	nla_nest_end(msg, nest);
}

static void check_disc(const struct disc_entry *got,
		       const struct disc_entry *want)
{
	CHECK_INT(got->trtype, want->trtype);
	CHECK_INT(got->adrfam, want->adrfam);
	CHECK_INT(got->subtype, want->subtype);
	CHECK_INT(got->treq, want->treq);
	CHECK_INT(got->portid, want->portid);
	CHECK_INT(got->cntlid, want->cntlid);
	CHECK_INT(got->asqsz, want->asqsz);
	CHECK_INT(got->eflags, want->eflags);
	CHECK_INT(got->rdma_qptype, want->rdma_qptype);
	CHECK_INT(got->rdma_prtype, want->rdma_prtype);
	CHECK_INT(got->rdma_cms, want->rdma_cms);
	CHECK_INT(got->rdma_pkey, want->rdma_pkey);
	CHECK_STR(got->trsvcid, want->trsvcid);
	CHECK_STR(got->traddr, want->traddr);
	CHECK_STR(got->subnqn, want->subnqn);
}

static struct nl_msg *disc_msg(uint64_t genctr, uint64_t numrec)
{
	struct nl_msg *msg = answer(RBLK_CMD_DISCOVER);

	CHECK(!nla_put_u64(msg, RBLK_ATTR_DISC_GENCTR, genctr));
	CHECK(!nla_put_u64(msg, RBLK_ATTR_DISC_NUMREC, numrec));
	return msg;
}

/* A dump: the records of several messages add up, in order. */
static void discover_dump(void)
{
	struct disc_entry e[2];
	struct disc_log want, got = { 0 };
	struct nl_msg *msg;
	int i;

	fix_disc(e, &want);
	msg = disc_msg(42, 301);
	put_disc_entry(msg, &e[0]);
	put_disc_entry(msg, &e[1]);
	CHECK_INT(feed(msg, rnl_parse_disc, &got), 0);
	/* More than 256 records: the end of the log in later messages. */
	for (i = 0; i < 3; i++) {
		int k;

		msg = disc_msg(42, 301);
		for (k = 0; k < 100 - (i == 2 ? 1 : 0); k++)
			put_disc_entry(msg, &e[1]);
		CHECK_INT(feed(msg, rnl_parse_disc, &got), 0);
	}
	CHECK_INT(got.nr, 301);
	CHECK_INT(got.numrec, 301);
	CHECK_INT(got.genctr, 42);
	if (got.nr == 301) {
		check_disc(&got.e[0], &e[0]);
		check_disc(&got.e[1], &e[1]);
		check_disc(&got.e[300], &e[1]);
		CHECK_INT(got.e[1].rdma_pkey, 0xffff);
		CHECK_INT(got.e[0].eflags, 3);
	}
	rnl_disc_free(&got);

	/* An empty log: one message, no records. */
	msg = disc_msg(7, 0);
	CHECK_INT(feed(msg, rnl_parse_disc, &got), 0);
	CHECK_INT(got.nr, 0);
	CHECK_INT(got.numrec, 0);
	CHECK_INT(got.genctr, 7);
	rnl_disc_free(&got);

	/* A record that does not fit the policy: refused. */
	msg = disc_msg(7, 1);
	{
		struct nlattr *nest = nla_nest_start(msg, RBLK_ATTR_DISC_ENTRY);

		CHECK(!nla_put_u8(msg, RBLK_DISC_EFLAGS, 1));
		nla_nest_end(msg, nest);
	}
	CHECK_INT(feed(msg, rnl_parse_disc, &got), -EBADMSG);
	rnl_disc_free(&got);
}

/*
 * The subsystem's I/O policy: only with multipath, where 0 (numa) is a
 * value too; any u8, even one this nvmecfg has no name for.
 */
static void get_iopolicy(void)
{
	static const uint8_t policies[] = {
		RBLK_IOPOLICY_NUMA, RBLK_IOPOLICY_ROUND_ROBIN,
		RBLK_IOPOLICY_QUEUE_DEPTH, __RBLK_IOPOLICY_MAX, 255,
	};
	struct ctrl_info c[2];
	struct ns_info ns[3];
	struct ctrl_vec vec;
	struct nl_msg *msg;
	size_t i;

	fix_ctrls(c, ns);
	for (i = 0; i < ARRAY_SIZE(policies); i++) {
		memset(&vec, 0, sizeof(vec));
		c[0].has_iopolicy = true;
		c[0].iopolicy = policies[i];
		msg = answer(RBLK_CMD_GET);
		put_ctrl(msg, &c[0]);
		put_ns(msg, &ns[0]);
		put_ns(msg, &ns[1]);
		CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
		CHECK_INT(vec.nr, 1);
		if (vec.nr == 1) {
			check_ctrl(&vec.v[0], &c[0]);
			CHECK(vec.v[0].has_iopolicy);
			CHECK_INT(vec.v[0].iopolicy, policies[i]);
		}
		rnl_ctrls_free(vec.v, vec.nr);
	}

	/* Multipath off, or not bound to a subsystem yet: none. */
	memset(&vec, 0, sizeof(vec));
	msg = answer(RBLK_CMD_GET);
	put_ctrl(msg, &fc[1]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	if (vec.nr == 1)
		CHECK(!vec.v[0].has_iopolicy && !vec.v[0].iopolicy);
	rnl_ctrls_free(vec.v, vec.nr);

	/* A dump: each controller its own. */
	memset(&vec, 0, sizeof(vec));
	c[0].iopolicy = RBLK_IOPOLICY_QUEUE_DEPTH;
	msg = answer(RBLK_CMD_GET);
	put_ctrl(msg, &c[0]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	msg = answer(RBLK_CMD_GET);
	put_ctrl(msg, &c[1]);
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
	CHECK_INT(vec.nr, 2);
	if (vec.nr == 2) {
		CHECK(vec.v[0].has_iopolicy);
		CHECK_INT(vec.v[0].iopolicy, RBLK_IOPOLICY_QUEUE_DEPTH);
		CHECK(!vec.v[1].has_iopolicy);
	}
	rnl_ctrls_free(vec.v, vec.nr);

	/* Empty: not a u8, refused. */
	memset(&vec, 0, sizeof(vec));
	msg = answer(RBLK_CMD_GET);
	put_ctrl_id(msg, &c[0]);
	CHECK(!nla_put(msg, RBLK_ATTR_IOPOLICY, 0, NULL));
	CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), -EBADMSG);
	rnl_ctrls_free(vec.v, vec.nr);
}

/* RBLK_CMD_SET: the controller as the other commands name it, the u8. */
/*
 * DH-HMAC-CHAP of RBLK_CMD_GET: flags, hash and group as sent, each only
 * when present; out-of-range values kept for the names to say unknown.
 */
static void get_dhchap(void)
{
	static const struct {
		int flags, hash, group;	/* -1: absent */
	} cases[] = {
		{ RBLK_DHCHAP_F_HOST_KEY | RBLK_DHCHAP_F_CTRL_KEY |
		  RBLK_DHCHAP_F_BIDIRECTIONAL, 2, 1 },
		{ RBLK_DHCHAP_F_HOST_KEY, 1, 0 },
		{ RBLK_DHCHAP_F_HOST_KEY, -1, -1 },
		{ RBLK_DHCHAP_F_HOST_KEY, 200, 200 },
		{ -1, -1, -1 },
	};
	struct ctrl_vec vec;
	struct nl_msg *msg;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&vec, 0, sizeof(vec));
		msg = answer(RBLK_CMD_GET);
		put_ctrl(msg, &fc[0]);
		if (cases[i].flags >= 0)
			CHECK(!nla_put_u8(msg, RBLK_ATTR_DHCHAP_FLAGS,
					  cases[i].flags));
		if (cases[i].hash >= 0)
			CHECK(!nla_put_u8(msg, RBLK_ATTR_DHCHAP_HASH,
					  cases[i].hash) &&
			      !nla_put_u8(msg, RBLK_ATTR_DHCHAP_DHGROUP,
					  cases[i].group));
		CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), 0);
		CHECK_INT(vec.nr, 1);
		if (vec.nr == 1) {
			const struct ctrl_info *c = &vec.v[0];

			CHECK_INT(c->has_dhchap_flags, cases[i].flags >= 0);
			CHECK_INT(c->has_dhchap_hash, cases[i].hash >= 0);
			if (cases[i].flags >= 0)
				CHECK_INT(c->dhchap_flags, cases[i].flags);
			if (cases[i].hash >= 0) {
				CHECK_INT(c->dhchap_hash, cases[i].hash);
				CHECK_INT(c->dhchap_dhgroup, cases[i].group);
			}
		}
		rnl_ctrls_free(vec.v, vec.nr);
	}

	/* Shorter than a u8 (the policy checks it): a malformed answer. */
	for (i = RBLK_ATTR_DHCHAP_HASH; i <= RBLK_ATTR_DHCHAP_FLAGS; i++) {
		memset(&vec, 0, sizeof(vec));
		msg = answer(RBLK_CMD_GET);
		put_ctrl(msg, &fc[0]);
		CHECK(!nla_put(msg, i, 0, NULL));
		CHECK_INT(feed(msg, rnl_parse_ctrl, &vec), -EBADMSG);
		rnl_ctrls_free(vec.v, vec.nr);
	}
}

/*
 * An error ACK's attributes with a cookie of @n bytes of @cookie (at
 * least NLA_ALIGN(@n) bytes): the padding after them is not zeroes, as
 * nla_put() would make it, but @cookie's next bytes, so that reading
 * past the attribute's length shows.
 */
static void extack_cookie(struct rnl *r, const void *cookie, int n)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *nla;

	CHECK(msg);
	if (!msg)
		return;
	CHECK(!nla_put_string(msg, NLMSGERR_ATTR_MSG, "refused"));
	nla = nla_reserve(msg, NLMSGERR_ATTR_COOKIE, NLA_ALIGN(n));
	CHECK(nla);
	if (nla) {
		memcpy(nla_data(nla), cookie, NLA_ALIGN(n));
		nla->nla_len = NLA_HDRLEN + n;
	}
	memset(r, 0, sizeof(*r));
	rnl_decode_extack(r, nlmsg_data(nlmsg_hdr(msg)),
			  nlmsg_datalen(nlmsg_hdr(msg)));
	nlmsg_free(msg);
}

/*
 * The cookie of a refused connect: the NVMe status (u16, host order),
 * and from kernels that authenticate the DH-HMAC-CHAP reason (u8).
 */
static void error_cookie(void)
{
	uint8_t c[4];
	uint16_t status = 0x191;
	struct rnl r;

	memcpy(c, &status, sizeof(status));
	c[2] = 1;
	c[3] = 0xee;
	/* A status, and no reason: not the padding's non-zero byte. */
	extack_cookie(&r, c, 2);
	CHECK_INT(r.nvme_status, 0x191);
	CHECK_INT(r.auth_reason, 0);
	/* Too short for a status (0x91, then padding): nothing. */
	extack_cookie(&r, c, 1);
	CHECK_INT(r.nvme_status, 0);
	CHECK_INT(r.auth_reason, 0);
	CHECK_STR(r.msg, "refused");
	extack_cookie(&r, c, 3);
	CHECK_INT(r.nvme_status, 0x191);
	CHECK_INT(r.auth_reason, 1);
	/* Longer, from a later kernel: what this one knows of it. */
	extack_cookie(&r, c, 4);
	CHECK_INT(r.auth_reason, 1);
	/* Status 0 (refused after Connect) and a reason. */
	memset(c, 0, 2);
	c[2] = 6;
	extack_cookie(&r, c, 3);
	CHECK_INT(r.nvme_status, 0);
	CHECK_INT(r.auth_reason, 6);
	/* Too short for a status: nothing. */
	extack_cookie(&r, c, 1);
	CHECK_INT(r.nvme_status, 0);
	CHECK_INT(r.auth_reason, 0);
}

static void request_set(void)
{
	struct nlattr *tb[RBLK_ATTR_MAX + 1];
	struct cfg cfg = {
		.set = OPT(DEVICE) | OPT(IOPOLICY), .device = "rblk-ctrl3",
		.iopolicy = RBLK_IOPOLICY_ROUND_ROBIN,
	};
	struct nl_msg *msg = answer(RBLK_CMD_SET);
	int type, n = 0;

	CHECK(!rnl_put_set(msg, &cfg));
	request_attrs(msg, tb);
	for (type = 1; type <= RBLK_ATTR_MAX; type++)
		n += !!tb[type];
	CHECK_INT(n, 2);
	CHECK(tb[RBLK_ATTR_CTRL_NAME] &&
	      !strcmp(nla_get_string(tb[RBLK_ATTR_CTRL_NAME]), "rblk-ctrl3"));
	CHECK(tb[RBLK_ATTR_IOPOLICY] && nla_len(tb[RBLK_ATTR_IOPOLICY]) == 1 &&
	      nla_get_u8(tb[RBLK_ATTR_IOPOLICY]) == RBLK_IOPOLICY_ROUND_ROBIN);
	nlmsg_free(msg);

	/* numa is 0, and still sent; a namespace by index. */
	cfg.set = OPT(INDEX) | OPT(IOPOLICY);
	cfg.index = 7;
	cfg.iopolicy = RBLK_IOPOLICY_NUMA;
	msg = answer(RBLK_CMD_SET);
	CHECK(!rnl_put_set(msg, &cfg));
	request_attrs(msg, tb);
	CHECK(tb[RBLK_ATTR_INDEX] && nla_get_u32(tb[RBLK_ATTR_INDEX]) == 7);
	CHECK(!tb[RBLK_ATTR_CTRL_NAME] && !tb[RBLK_ATTR_DISK_NAME]);
	CHECK(tb[RBLK_ATTR_IOPOLICY] && nla_len(tb[RBLK_ATTR_IOPOLICY]) == 1 &&
	      nla_get_u8(tb[RBLK_ATTR_IOPOLICY]) == RBLK_IOPOLICY_NUMA);
	nlmsg_free(msg);

	/* Only what was given. */
	cfg.set = OPT(DEVICE);
	cfg.device = "rblk2";
	msg = answer(RBLK_CMD_SET);
	CHECK(!rnl_put_set(msg, &cfg));
	request_attrs(msg, tb);
	CHECK(tb[RBLK_ATTR_DISK_NAME] && !tb[RBLK_ATTR_IOPOLICY]);
	nlmsg_free(msg);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(get_several_namespaces),
	KTAP_CASE(get_split_over_two_messages),
	KTAP_CASE(dump_two_controllers),
	KTAP_CASE(many_namespaces),
	KTAP_CASE(connect_reply),
	KTAP_CASE(malformed_answers),
	KTAP_CASE(stats_namespace),
	KTAP_CASE(stats_controller),
	KTAP_CASE(stats_head),
	KTAP_CASE(event_namespace),
	KTAP_CASE(event_controller),
	KTAP_CASE(request_selectors),
	KTAP_CASE(request_connect),
	KTAP_CASE(request_dhchap),
	KTAP_CASE(request_default_key_file),
	KTAP_CASE(request_host_traddr_tos),
	KTAP_CASE(get_host_traddr_tos),
	KTAP_CASE(discover_dump),
	KTAP_CASE(get_iopolicy),
	KTAP_CASE(request_set),
	KTAP_CASE(get_dhchap),
	KTAP_CASE(error_cookie),
};

int main(void)
{
	fix_ctrls(fc, fns);
	return ktap_run("decode", cases, ARRAY_SIZE(cases));
}
