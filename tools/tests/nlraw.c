// SPDX-License-Identifier: GPL-2.0
/*
 * nlraw - send malformed requests to the "rblk" generic netlink family and
 * check that each is refused with the expected errno (and, for the checks
 * rblk itself makes, the expected extack message). Run as root in the test
 * guest by selftests/rblk/nl_bad_input.sh; prints KTAP, exits 1 on any
 * failure. nvmecfg cannot send these: it validates its input first.
 *
 * Every case has exactly one defect. A request the kernel wrongly accepts
 * is undone (a created controller is disconnected) and reported.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nl.h"
#include "util.h"

enum akind {
	A_END,
	A_STR,		/* NUL-terminated string */
	A_RAW,		/* .len bytes of .s, no terminator added */
	A_FILL,		/* .s then 'x' up to .len characters, terminated */
	A_U8,
	A_U16,
	A_U32,
	A_U64,
	A_S32,
	A_FLAG,		/* no payload */
	A_NEST,		/* a nest holding one u64 */
};

struct attr {
	int type;
	enum akind kind;
	const char *s;
	uint64_t v;
	size_t len;
};

enum quirk {
	Q_NONE,
	Q_RESERVED,	/* genlmsghdr.reserved set */
	Q_NLFLAGS,	/* NLM_F_CREATE set on a genl request */
	Q_TRAILING,	/* 2 bytes after the last attribute */
	Q_BADLEN,	/* an attribute longer than the message */
};

struct raw_case {
	const char *name;
	uint8_t cmd;
	bool dump;
	enum quirk quirk;
	struct attr attrs[6];
	int want;		/* negative errno */
	const char *msg;	/* expected in the extack message */
	int miss;		/* expected missing attribute, 0: none */
	uint16_t status;	/* expected NVMe status cookie, 0: none */
};

#define STR(t, x)	{ t, A_STR, x, 0, 0 }
#define RAW(t, x, n)	{ t, A_RAW, x, 0, n }
#define FILL(t, x, n)	{ t, A_FILL, x, 0, n }
#define U8(t, x)	{ t, A_U8, NULL, x, 0 }
#define U16(t, x)	{ t, A_U16, NULL, x, 0 }
#define U32(t, x)	{ t, A_U32, NULL, x, 0 }
#define U64(t, x)	{ t, A_U64, NULL, x, 0 }
#define S32(t, x)	{ t, A_S32, NULL, (uint64_t)(int64_t)(x), 0 }
#define FLAG(t)		{ t, A_FLAG, NULL, 0, 0 }
#define NEST(t)		{ t, A_NEST, NULL, 0, 0 }

/*
 * A subsystem the test target does not have: a wrongly accepted request
 * fails at the target instead of creating a controller.
 */
#define TRADDR		STR(RBLK_ATTR_TRADDR, "10.99.0.1")
#define NQN		STR(RBLK_ATTR_SUBSYSNQN, "nqn.2026-12.io.rblk:nlraw")

#define C(n, c)		.name = (n), .cmd = RBLK_CMD_##c

static const struct raw_case cases[] = {
	/* connect: types and lengths */
	{ C("connect traddr as u32", CONNECT),
	  .attrs = { U32(RBLK_ATTR_TRADDR, 0x0163630a), NQN },
	  .want = -EINVAL },
	{ C("connect traddr not NUL-terminated", CONNECT),
	  .attrs = { RAW(RBLK_ATTR_TRADDR, "10.99.0.1", 9), NQN },
	  .want = -EINVAL },
	{ C("connect traddr of 300 chars", CONNECT),
	  .attrs = { FILL(RBLK_ATTR_TRADDR, "1", 300), NQN },
	  .want = -EINVAL },
	/* One above the Linux host's limit, which nvmet would still serve. */
	{ C("connect subsysnqn of 223 chars", CONNECT),
	  .attrs = { TRADDR, FILL(RBLK_ATTR_SUBSYSNQN, "nqn.", RBLK_NQN_SIZE) },
	  .want = -EINVAL },
	{ C("connect hostnqn of 223 chars", CONNECT),
	  .attrs = { TRADDR, NQN, FILL(RBLK_ATTR_HOSTNQN, "nqn.", RBLK_NQN_SIZE) },
	  .want = -EINVAL },
	{ C("connect trsvcid of 32 chars", CONNECT),
	  .attrs = { TRADDR, NQN, FILL(RBLK_ATTR_TRSVCID, "1", 32) },
	  .want = -EINVAL },
	{ C("connect nsid as u8", CONNECT),
	  .attrs = { TRADDR, NQN, U8(RBLK_ATTR_NSID, 2) },
	  .want = -EINVAL },
	{ C("connect nsid as u64", CONNECT),
	  .attrs = { TRADDR, NQN, U64(RBLK_ATTR_NSID, 2) },
	  .want = -EINVAL },
	{ C("connect adrfam as u32", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_ADRFAM, 1) },
	  .want = -EINVAL },
	{ C("connect hostid of 15 bytes", CONNECT),
	  .attrs = { TRADDR, NQN, RAW(RBLK_ATTR_HOSTID, "0123456789abcde", 15) },
	  .want = -ERANGE },
	{ C("connect hostid of 17 bytes", CONNECT),
	  .attrs = { TRADDR, NQN,
		     RAW(RBLK_ATTR_HOSTID, "0123456789abcdef0", 17) },
	  .want = -ERANGE },
	{ C("connect empty traddr", CONNECT),
	  .attrs = { STR(RBLK_ATTR_TRADDR, ""), NQN },
	  .want = -EINVAL,
	  .msg = "traddr is not an IPv4/IPv6 address" },

	/* connect: ranges */
	{ C("connect nsid 0", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_NSID, 0) },
	  .want = -ERANGE },
	{ C("connect nsid 0xffffffff", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_NSID, 0xffffffff) },
	  .want = -ERANGE },
	{ C("connect nr_io_queues 0", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_NR_IO_QUEUES, 0) },
	  .want = -ERANGE },
	{ C("connect nr_io_queues 1000", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_NR_IO_QUEUES, 1000) },
	  .want = -ERANGE },
	{ C("connect queue_size 1", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_QUEUE_SIZE, 1) },
	  .want = -ERANGE },
	{ C("connect queue_size 4096", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_QUEUE_SIZE, 4096) },
	  .want = -ERANGE },
	{ C("connect kato 3601", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_KATO, 3601) },
	  .want = -ERANGE },
	{ C("connect reconnect_delay 0", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_RECONNECT_DELAY, 0) },
	  .want = -ERANGE },
	{ C("connect ctrl_loss_tmo -2", CONNECT),
	  .attrs = { TRADDR, NQN, S32(RBLK_ATTR_CTRL_LOSS_TMO, -2) },
	  .want = -ERANGE },
	{ C("connect fast_io_fail_tmo INT_MAX", CONNECT),
	  .attrs = { TRADDR, NQN, S32(RBLK_ATTR_FAST_IO_FAIL_TMO, 0x7fffffff) },
	  .want = -ERANGE },
	{ C("connect adrfam 3", CONNECT),
	  .attrs = { TRADDR, NQN, U8(RBLK_ATTR_ADRFAM, 3) },
	  .want = -ERANGE },

	/* connect: what rblk checks itself */
	{ C("connect missing traddr", CONNECT),
	  .attrs = { NQN },
	  .want = -EINVAL,
	  .msg = "traddr is required",
	  .miss = RBLK_ATTR_TRADDR },
	{ C("connect missing subsysnqn", CONNECT),
	  .attrs = { TRADDR },
	  .want = -EINVAL,
	  .msg = "subsystem NQN is required",
	  .miss = RBLK_ATTR_SUBSYSNQN },
	{ C("connect without attributes", CONNECT),
	  .want = -EINVAL,
	  .msg = "traddr is required",
	  .miss = RBLK_ATTR_TRADDR },
	{ C("connect trtype tcp", CONNECT),
	  .attrs = { STR(RBLK_ATTR_TRTYPE, "tcp"), TRADDR, NQN },
	  .want = -EINVAL,
	  .msg = "unsupported transport type" },
	/* Any 1-222 bytes is an NQN, as for the Linux host: only "" is not. */
	{ C("connect empty subsysnqn", CONNECT),
	  .attrs = { TRADDR, STR(RBLK_ATTR_SUBSYSNQN, "") },
	  .want = -EINVAL,
	  .msg = "invalid subsystem NQN" },
	{ C("connect empty hostnqn", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_HOSTNQN, "") },
	  .want = -EINVAL,
	  .msg = "invalid host NQN" },
	{ C("connect host_traddr hostname", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_HOST_TRADDR, "localhost") },
	  .want = -EINVAL,
	  .msg = "host_traddr is not an IPv4/IPv6 address" },
	{ C("connect host_traddr of the other family", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_HOST_TRADDR, "fd00::1") },
	  .want = -EINVAL,
	  .msg = "host_traddr is not of traddr's address family" },
	{ C("connect tos as u32", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_TOS, 1) },
	  .want = -EINVAL },
	{ C("connect traddr with three octets", CONNECT),
	  .attrs = { STR(RBLK_ATTR_TRADDR, "10.99.0"), NQN },
	  .want = -EINVAL,
	  .msg = "traddr is not an IPv4/IPv6 address" },
	{ C("connect traddr hostname", CONNECT),
	  .attrs = { STR(RBLK_ATTR_TRADDR, "localhost"), NQN },
	  .want = -EINVAL,
	  .msg = "traddr is not an IPv4/IPv6 address" },
	{ C("connect trsvcid 0", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_TRSVCID, "0") },
	  .want = -EINVAL,
	  .msg = "trsvcid is not a port number" },
	{ C("connect trsvcid 65536", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_TRSVCID, "65536") },
	  .want = -EINVAL,
	  .msg = "trsvcid is not a port number" },
	{ C("connect trsvcid abc", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_TRSVCID, "abc") },
	  .want = -EINVAL,
	  .msg = "trsvcid is not a port number" },
	{ C("connect adrfam ipv6 for an ipv4 traddr", CONNECT),
	  .attrs = { TRADDR, NQN, U8(RBLK_ATTR_ADRFAM, RBLK_ADRFAM_IPV6) },
	  .want = -EINVAL,
	  .msg = "adrfam does not match traddr" },

	/* connect: message structure */
	{ C("connect with an index attribute", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_INDEX, 0) },
	  .want = -EINVAL },
	{ C("connect with a ctrl_index attribute", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_CTRL_INDEX, 0) },
	  .want = -EINVAL },
	{ C("connect with a stats nest", CONNECT),
	  .attrs = { TRADDR, NQN, NEST(RBLK_ATTR_STATS) },
	  .want = -EINVAL },
	{ C("connect with a namespace nest", CONNECT),
	  .attrs = { TRADDR, NQN, NEST(RBLK_ATTR_NS) },
	  .want = -EINVAL },
	{ C("connect duplicate_connect with a payload", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_DUPLICATE_CONNECT, 1) },
	  .want = -ERANGE },
	{ C("connect with attribute type 200", CONNECT),
	  .attrs = { TRADDR, NQN, U32(200, 1) },
	  .want = -EINVAL },
	{ C("connect with attribute type 0", CONNECT),
	  .attrs = { TRADDR, NQN, U32(0, 1) },
	  .want = -EINVAL },
	{ C("connect with trailing bytes", CONNECT),
	  .quirk = Q_TRAILING,
	  .attrs = { TRADDR, NQN },
	  .want = -EINVAL },
	{ C("connect attribute past the message end", CONNECT),
	  .quirk = Q_BADLEN,
	  .attrs = { TRADDR, NQN },
	  .want = -EINVAL },
	{ C("connect with genl reserved field set", CONNECT),
	  .quirk = Q_RESERVED,
	  .attrs = { TRADDR, NQN },
	  .want = -EINVAL },
	{ C("connect with NLM_F_CREATE", CONNECT),
	  .quirk = Q_NLFLAGS,
	  .attrs = { TRADDR, NQN },
	  .want = -EINVAL },

	/* commands */
	{ .name = "unknown command 99", .cmd = 99, .want = -EOPNOTSUPP },
	{ C("event command sent to the kernel", EVENT), .want = -EOPNOTSUPP },
	{ C("command 0", UNSPEC), .want = -EOPNOTSUPP },

	/* naming a namespace */
	{ C("disconnect without a device", DISCONNECT),
	  .want = -EINVAL,
	  .msg = "device index or name is required",
	  .miss = RBLK_ATTR_INDEX },
	{ C("disconnect index 65535", DISCONNECT),
	  .attrs = { U32(RBLK_ATTR_INDEX, 65535) },
	  .want = -ENODEV,
	  .msg = "no device has this" },
	{ C("disconnect rblk65535", DISCONNECT),
	  .attrs = { STR(RBLK_ATTR_DISK_NAME, "rblk65535") },
	  .want = -ENODEV,
	  .msg = "no device has this" },
	{ C("disconnect name of 40 chars", DISCONNECT),
	  .attrs = { FILL(RBLK_ATTR_DISK_NAME, "rblk", 40) },
	  .want = -EINVAL },
	{ C("disconnect index 0x80000000", DISCONNECT),
	  .attrs = { U32(RBLK_ATTR_INDEX, 0x80000000) },
	  .want = -ERANGE },
	{ C("disconnect index as u16", DISCONNECT),
	  .attrs = { U16(RBLK_ATTR_INDEX, 0) },
	  .want = -EINVAL },
	{ C("disconnect with a traddr", DISCONNECT),
	  .attrs = { U32(RBLK_ATTR_INDEX, 65535), TRADDR },
	  .want = -EINVAL },
	{ C("get index 65535", GET),
	  .attrs = { U32(RBLK_ATTR_INDEX, 65535) },
	  .want = -ENODEV,
	  .msg = "no device has this" },
	{ C("get without a device", GET),
	  .want = -EINVAL,
	  .msg = "device index or name is required",
	  .miss = RBLK_ATTR_INDEX },
	{ C("get dump with a traddr", GET),
	  .dump = true,
	  .attrs = { TRADDR },
	  .want = -EINVAL },
	{ C("get_stats index 65535", GET_STATS),
	  .attrs = { U32(RBLK_ATTR_INDEX, 65535) },
	  .want = -ENODEV,
	  .msg = "no device has this" },
	{ C("get_stats name not NUL-terminated", GET_STATS),
	  .attrs = { RAW(RBLK_ATTR_DISK_NAME, "rblk0", 5) },
	  .want = -EINVAL },
	{ C("reset_stats without a device", RESET_STATS),
	  .want = -EINVAL,
	  .msg = "device index or name is required",
	  .miss = RBLK_ATTR_INDEX },

	/* naming a controller */
	{ C("disconnect ctrl_index 65535", DISCONNECT),
	  .attrs = { U32(RBLK_ATTR_CTRL_INDEX, 65535) },
	  .want = -ENODEV },
	{ C("disconnect rblk-ctrl65535", DISCONNECT),
	  .attrs = { STR(RBLK_ATTR_CTRL_NAME, "rblk-ctrl65535") },
	  .want = -ENODEV },
	{ C("disconnect ctrl name of 40 chars", DISCONNECT),
	  .attrs = { FILL(RBLK_ATTR_CTRL_NAME, "rblk-ctrl", 40) },
	  .want = -EINVAL },
	{ C("disconnect ctrl_index as u16", DISCONNECT),
	  .attrs = { U16(RBLK_ATTR_CTRL_INDEX, 0) },
	  .want = -EINVAL },
	{ C("disconnect with a duplicate_connect flag", DISCONNECT),
	  .attrs = { U32(RBLK_ATTR_CTRL_INDEX, 65535),
		     FLAG(RBLK_ATTR_DUPLICATE_CONNECT) },
	  .want = -EINVAL },
	{ C("get ctrl_index 65535", GET),
	  .attrs = { U32(RBLK_ATTR_CTRL_INDEX, 65535) },
	  .want = -ENODEV },
	{ C("get rblk-ctrl65535", GET),
	  .attrs = { STR(RBLK_ATTR_CTRL_NAME, "rblk-ctrl65535") },
	  .want = -ENODEV },
	{ C("get_stats ctrl_index 65535", GET_STATS),
	  .attrs = { U32(RBLK_ATTR_CTRL_INDEX, 65535) },
	  .want = -ENODEV },
	{ C("get_stats ctrl name not NUL-terminated", GET_STATS),
	  .attrs = { RAW(RBLK_ATTR_CTRL_NAME, "rblk-ctrl0", 10) },
	  .want = -EINVAL },
	{ C("reset_stats rblk-ctrl65535", RESET_STATS),
	  .attrs = { STR(RBLK_ATTR_CTRL_NAME, "rblk-ctrl65535") },
	  .want = -ENODEV },

	/* set (nl_bad_input loads rblk without multipath) */
	/* subsystems and heads: names, types, what each takes */
	{ C("get_subsys without a name", GET_SUBSYS),
	  .want = -EINVAL,
	  .msg = "subsystem name is required",
	  .miss = RBLK_ATTR_SUBSYS_NAME },
	{ C("get_subsys rblk-subsys65535", GET_SUBSYS),
	  .attrs = { STR(RBLK_ATTR_SUBSYS_NAME, "rblk-subsys65535") },
	  .want = -ENODEV,
	  .msg = "no subsystem has this name" },
	/* Four bytes, none of them NUL: no string. */
	{ C("get_subsys name as u32", GET_SUBSYS),
	  .attrs = { U32(RBLK_ATTR_SUBSYS_NAME, 0x31313131) },
	  .want = -EINVAL },
	{ C("get_subsys name not NUL-terminated", GET_SUBSYS),
	  .attrs = { RAW(RBLK_ATTR_SUBSYS_NAME, "rblk-subsys0", 12) },
	  .want = -EINVAL },
	{ C("get_subsys name of 40 chars", GET_SUBSYS),
	  .attrs = { FILL(RBLK_ATTR_SUBSYS_NAME, "rblk-subsys", 40) },
	  .want = -EINVAL },
	{ C("get_subsys by controller", GET_SUBSYS),
	  .attrs = { U32(RBLK_ATTR_CTRL_INDEX, 0) },
	  .want = -EINVAL },
	{ C("get_subsys dump with a traddr", GET_SUBSYS),
	  .dump = true,
	  .attrs = { TRADDR },
	  .want = -EINVAL },
	{ C("get_head without a device", GET_HEAD),
	  .want = -EINVAL,
	  .msg = "device index or name is required",
	  .miss = RBLK_ATTR_INDEX },
	{ C("get_head index 65535", GET_HEAD),
	  .attrs = { U32(RBLK_ATTR_INDEX, 65535) },
	  .want = -ENODEV,
	  .msg = "no device has this index" },
	{ C("get_head rblk65535", GET_HEAD),
	  .attrs = { STR(RBLK_ATTR_DISK_NAME, "rblk65535") },
	  .want = -ENODEV,
	  .msg = "no device has this name" },
	{ C("get_head index as u8", GET_HEAD),
	  .attrs = { U8(RBLK_ATTR_INDEX, 0) },
	  .want = -EINVAL },
	{ C("get_head index above INT_MAX", GET_HEAD),
	  .attrs = { U32(RBLK_ATTR_INDEX, 0x80000000) },
	  .want = -ERANGE },
	{ C("get_head by controller", GET_HEAD),
	  .attrs = { STR(RBLK_ATTR_CTRL_NAME, "rblk-ctrl0") },
	  .want = -EINVAL },
	{ C("get_head dump with a subsystem", GET_HEAD),
	  .dump = true,
	  .attrs = { STR(RBLK_ATTR_SUBSYS_NAME, "rblk-subsys0") },
	  .want = -EINVAL },

	{ C("set without a setting", SET),
	  .attrs = { U32(RBLK_ATTR_CTRL_INDEX, 65535) },
	  .want = -EINVAL,
	  .msg = "nothing to set",
	  .miss = RBLK_ATTR_IOPOLICY },
	{ C("set iopolicy out of range", SET),
	  .attrs = { U32(RBLK_ATTR_CTRL_INDEX, 65535),
		     U8(RBLK_ATTR_IOPOLICY, __RBLK_IOPOLICY_MAX) },
	  .want = -ERANGE },
	{ C("set iopolicy as u32", SET),
	  .attrs = { U32(RBLK_ATTR_CTRL_INDEX, 65535),
		     U32(RBLK_ATTR_IOPOLICY, RBLK_IOPOLICY_NUMA) },
	  .want = -EINVAL },
	{ C("set iopolicy without multipath", SET),
	  .attrs = { U32(RBLK_ATTR_CTRL_INDEX, 65535),
		     U8(RBLK_ATTR_IOPOLICY, RBLK_IOPOLICY_ROUND_ROBIN) },
	  .want = -EOPNOTSUPP,
	  .msg = "multipath is off" },
	/* Well-formed: the target itself refuses, and the ACK says how. */
	{ C("connect to a subsystem the target lacks", CONNECT),
	  .attrs = { TRADDR, NQN },
	  .want = -ENOENT,
	  .msg = "does not know the subsystem NQN",
	  .status = 0x182 },
	{ C("connect with an iopolicy", CONNECT),
	  .attrs = { TRADDR, NQN, U8(RBLK_ATTR_IOPOLICY, RBLK_IOPOLICY_NUMA) },
	  .want = -EINVAL },

	/*
	 * DH-HMAC-CHAP keys: the form, checked by the policy on every
	 * kernel (what the library then refuses differs: the auth tests).
	 * The messages name the form, never the key.
	 */
	{ C("connect dhchap key with another prefix", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_DHCHAP_SECRET,
				      "DHHC-2:00:QUJDRA==:") },
	  .want = -EINVAL,
	  .msg = "not a DH-HMAC-CHAP key" },
	{ C("connect dhchap key with hash 04", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_DHCHAP_SECRET,
				      "DHHC-1:04:QUJDRA==:") },
	  .want = -EINVAL,
	  .msg = "not a DH-HMAC-CHAP key" },
	{ C("connect dhchap key not base64", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_DHCHAP_SECRET,
				      "DHHC-1:00:QUJD*A==:") },
	  .want = -EINVAL,
	  .msg = "not a DH-HMAC-CHAP key" },
	{ C("connect dhchap key without the final colon", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_DHCHAP_SECRET,
				      "DHHC-1:00:QUJDRA==") },
	  .want = -EINVAL,
	  .msg = "not a DH-HMAC-CHAP key" },
	{ C("connect dhchap key of 200 chars", CONNECT),
	  .attrs = { TRADDR, NQN, FILL(RBLK_ATTR_DHCHAP_SECRET,
				       "DHHC-1:00:", 200) },
	  .want = -EINVAL },
	{ C("connect dhchap key as u32", CONNECT),
	  .attrs = { TRADDR, NQN, U32(RBLK_ATTR_DHCHAP_SECRET, 1) },
	  .want = -EINVAL },
	{ C("connect dhchap ctrl key malformed", CONNECT),
	  .attrs = { TRADDR, NQN, STR(RBLK_ATTR_DHCHAP_CTRL_SECRET,
				      "DHHC-1:00:") },
	  .want = -EINVAL,
	  .msg = "not a DH-HMAC-CHAP key" },

	/* discover */
	{ C("discover missing traddr", DISCOVER),
	  .want = -EINVAL,
	  .msg = "traddr is required",
	  .miss = RBLK_ATTR_TRADDR },
	{ C("discover with an nsid", DISCOVER),
	  .attrs = { TRADDR, U32(RBLK_ATTR_NSID, 1) },
	  .want = -EINVAL },
	{ C("discover subsysnqn of 223 chars", DISCOVER),
	  .attrs = { TRADDR, FILL(RBLK_ATTR_SUBSYSNQN, "nqn.", RBLK_NQN_SIZE) },
	  .want = -EINVAL },
	{ C("discover dhchap key malformed", DISCOVER),
	  .attrs = { TRADDR, STR(RBLK_ATTR_DHCHAP_SECRET, "DHHC-1:0:QUJD:") },
	  .want = -EINVAL,
	  .msg = "not a DH-HMAC-CHAP key" },
	{ C("discover bad traddr", DISCOVER),
	  .attrs = { STR(RBLK_ATTR_TRADDR, "10.99.0.1.5") },
	  .want = -EINVAL,
	  .msg = "traddr is not an IPv4/IPv6 address" },
};

static int put_attr(struct nl_msg *msg, const struct attr *a)
{
	struct nlattr *nest;
	char *buf;
	int ret;

	switch (a->kind) {
	case A_STR:
		return nla_put_string(msg, a->type, a->s);
	case A_RAW:
		return nla_put(msg, a->type, a->len, a->s);
	case A_FILL:
		buf = malloc(a->len + 1);
		if (!buf)
			return -NLE_NOMEM;
		memset(buf, 'x', a->len);
		memcpy(buf, a->s, strlen(a->s));
		buf[a->len] = '\0';
		ret = nla_put_string(msg, a->type, buf);
		free(buf);
		return ret;
	case A_U8:
		return nla_put_u8(msg, a->type, a->v);
	case A_U16:
		return nla_put_u16(msg, a->type, a->v);
	case A_U32:
		return nla_put_u32(msg, a->type, a->v);
	case A_U64:
		return nla_put_u64(msg, a->type, a->v);
	case A_S32:
		return nla_put_s32(msg, a->type, (int32_t)a->v);
	case A_FLAG:
		return nla_put_flag(msg, a->type);
	case A_NEST:
		nest = nla_nest_start(msg, a->type);
		if (!nest || nla_put_u64(msg, RBLK_STAT_READS, 1))
			return -NLE_NOMEM;
		return nla_nest_end(msg, nest);
	case A_END:
		break;
	}
	return 0;
}

static struct nl_msg *build(struct rnl *r, const struct raw_case *c)
{
	static const unsigned char badlen[8] = {
		/* nla_len 100, nla_type TRSVCID, then "4420" */
		100, 0, RBLK_ATTR_TRSVCID, 0, '4', '4', '2', '0',
	};
	struct nl_msg *msg;
	size_t i;

	msg = rnl_msg(r, c->cmd, c->dump ? NLM_F_DUMP : 0);
	if (!msg)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(c->attrs); i++) {
		if (c->attrs[i].kind == A_END)
			break;
		if (put_attr(msg, &c->attrs[i]) < 0)
			goto err;
	}

	switch (c->quirk) {
	case Q_RESERVED:
		((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(msg)))->reserved = 1;
		break;
	case Q_NLFLAGS:
		nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_CREATE;
		break;
	case Q_TRAILING:
		if (nlmsg_append(msg, "\x01\x02", 2, 0) < 0)
			goto err;
		break;
	case Q_BADLEN:
		if (nlmsg_append(msg, (void *)badlen, sizeof(badlen),
				 NLMSG_ALIGNTO) < 0)
			goto err;
		break;
	case Q_NONE:
		break;
	}
	return msg;

err:
	nlmsg_free(msg);
	return NULL;
}

static int parse_index(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	(void)nlh;
	if (tb[RBLK_ATTR_CTRL_INDEX])
		*(int *)arg = nla_get_u32(tb[RBLK_ATTR_CTRL_INDEX]);
	return 0;
}

/* A connect the kernel should have refused did create a controller. */
static void undo(struct rnl *r, int index)
{
	struct nl_msg *msg;

	if (index < 0)
		return;
	msg = rnl_msg(r, RBLK_CMD_DISCONNECT, 0);
	if (!msg || nla_put_u32(msg, RBLK_ATTR_CTRL_INDEX, index) < 0) {
		nlmsg_free(msg);
		return;
	}
	printf("# removing %s%d, created by mistake: %s\n",
	       RBLK_CTRL_NAME_PREFIX, index,
	       strerror(-rnl_transact(r, msg, NULL, NULL)));
}

static bool run(struct rnl *r, const struct raw_case *c)
{
	struct nl_msg *msg = build(r, c);
	bool ok = true;
	int index = -1;
	int ret;

	if (!msg) {
		printf("# cannot build the message\n");
		return false;
	}
	ret = rnl_transact(r, msg, c->cmd == RBLK_CMD_CONNECT ?
			   parse_index : NULL, &index);
	if (!r->answered) {
		printf("# no answer from the kernel: %s (%s)\n",
		       strerror(-ret), r->msg);
		return false;
	}
	if (ret != c->want) {
		printf("# got %d (%s), want %d (%s); kernel says \"%s\"\n",
		       ret, strerror(-ret), c->want, strerror(-c->want),
		       r->msg);
		ok = false;
	}
	if (c->msg && !strstr(r->msg, c->msg)) {
		printf("# extack \"%s\", want \"%s\"\n", r->msg, c->msg);
		ok = false;
	}
	if (c->miss && r->miss_type != c->miss) {
		printf("# missing attribute reported %d, want %d\n",
		       r->miss_type, c->miss);
		ok = false;
	}
	if (r->nvme_status != c->status) {
		printf("# NVMe status cookie %#x, want %#x\n", r->nvme_status,
		       c->status);
		ok = false;
	}
	if (!ret && c->cmd == RBLK_CMD_CONNECT)
		undo(r, index);
	return ok;
}

int main(void)
{
	const size_t nr = ARRAY_SIZE(cases);
	struct timeval tv = { .tv_sec = 60 };
	size_t i, failed = 0;
	struct rnl r;
	int ret;

	ret = rnl_open(&r);
	if (ret) {
		fprintf(stderr, "nlraw: cannot reach the rblk family: %s\n",
			strerror(-ret));
		return 1;
	}
	/* An answer that never comes fails the case, not the whole run. */
	setsockopt(nl_socket_get_fd(r.sk), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));

	printf("KTAP version 1\n# suite: nlraw\n1..%zu\n", nr);
	for (i = 0; i < nr; i++) {
		bool ok = run(&r, &cases[i]);

		failed += !ok;
		printf("%sok %zu %s\n", ok ? "" : "not ", i + 1, cases[i].name);
		fflush(stdout);
	}
	printf("# nlraw: %zu passed, %zu failed\n", nr - failed, failed);
	rnl_close(&r);
	return failed ? 1 : 0;
}
