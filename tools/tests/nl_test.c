// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of nvmecfg's netlink plumbing (nl.c) against the host kernel's own
 * generic netlink controller, "nlctrl": requests, dumps, errors and the
 * extended ACK parsing, without rblk loaded. Skipped where the host has no
 * generic netlink.
 */
#define _GNU_SOURCE	/* memmem() */
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/socket.h>

#include "freecheck.h"
#include "ktap.h"
#include "nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

static struct rnl r;
static bool have_genl;

static int count_families(struct nlmsghdr *nlh, struct nlattr **tb,
			  void *arg)
{
	(void)nlh;
	(void)tb;
	++*(int *)arg;
	return 0;
}

static struct nl_msg *getfamily(int flags, const char *name)
{
	struct nl_msg *msg = rnl_msg(&r, CTRL_CMD_GETFAMILY, flags);

	if (msg && name && nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void request_answered(void)
{
	struct nl_msg *msg = getfamily(0, "nlctrl");
	int n = 0;

	CHECK(msg);
	CHECK(rnl_transact(&r, msg, count_families, &n) == 0);
	CHECK(r.answered);
	CHECK(n == 1);
	CHECK_STR(r.msg, "");
}

static void dump_until_done(void)
{
	struct nl_msg *msg = getfamily(NLM_F_DUMP, NULL);
	int n = 0;

	CHECK(msg);
	CHECK(rnl_transact(&r, msg, count_families, &n) == 0);
	CHECK(r.answered);
	/* At least nlctrl itself. */
	CHECK(n >= 1);
}

static void error_errno(void)
{
	struct nl_msg *msg = getfamily(0, "rblk-nosuchfam");
	int ret;

	CHECK(msg);
	ret = rnl_transact(&r, msg, NULL, NULL);
	if (ret != -ENOENT)
		printf("# got %d, \"%s\"\n", ret, r.msg);
	CHECK(ret == -ENOENT);
	CHECK(r.answered);
}

static void error_extack_message(void)
{
	/* Longer than GENL_NAMSIZ: the policy refuses it and says so. */
	struct nl_msg *msg = getfamily(0, "a-name-that-does-not-fit-genl-namsiz");

	CHECK(msg);
	CHECK(rnl_transact(&r, msg, NULL, NULL) == -EINVAL);
	CHECK(r.answered);
	CHECK(r.msg[0] != '\0');
	printf("# kernel said: %s\n", r.msg);
	/* The offset it blamed, mapped back to our request's attribute. */
	CHECK(r.bad_attr == CTRL_ATTR_FAMILY_NAME);
}

/* The blamed attribute is found whatever comes before it. */
static void error_bad_attr(void)
{
	struct nl_msg *msg = rnl_msg(&r, CTRL_CMD_GETFAMILY, 0);

	CHECK(msg);
	CHECK(!nla_put_u16(msg, CTRL_ATTR_FAMILY_ID, GENL_ID_CTRL));
	CHECK(!nla_put_string(msg, CTRL_ATTR_FAMILY_NAME,
			      "a-name-that-does-not-fit-genl-namsiz"));
	CHECK(rnl_transact(&r, msg, NULL, NULL) == -EINVAL);
	CHECK(r.bad_attr == CTRL_ATTR_FAMILY_NAME);
	if (r.bad_attr != CTRL_ATTR_FAMILY_NAME)
		printf("# bad_attr %d\n", r.bad_attr);
	/* And forgotten by the next request. */
	request_answered();
	CHECK(r.bad_attr == -1);
}

static void extack_uncapped(void)
{
	int zero = 0, one = 1;

	/* The kernel echoes the request before the TLVs: skip it right. */
	CHECK(!setsockopt(nl_socket_get_fd(r.sk), SOL_NETLINK,
			  NETLINK_CAP_ACK, &zero, sizeof(zero)));
	error_extack_message();
	error_errno();
	setsockopt(nl_socket_get_fd(r.sk), SOL_NETLINK, NETLINK_CAP_ACK, &one,
		   sizeof(one));
}

static void socket_reusable(void)
{
	/* After an error the next request on the socket still works. */
	error_extack_message();
	request_answered();
}

/*
 * A request that held a key: neither libnl's message nor our copy of it
 * (r->req) is freed with the key in it, on the next request or on close.
 */
#define ZERO_SECRET	"Zm9vYmFyWmVyb01lWmVyb01l"
static void request_zeroed(void)
{
	struct nl_msg *msg = getfamily(0, "DHHC-1:00:" ZERO_SECRET ":");
	struct rnl rr;

	CHECK(msg);
	freecheck_found = 0;
	freecheck_secret = ZERO_SECRET;
	CHECK(rnl_transact(&r, msg, count_families, NULL) < 0);
	/* The copy of the last request goes with the next one. */
	request_answered();
	freecheck_secret = NULL;
	CHECK(freecheck_found == 0);

	CHECK(!rnl_open_family(&rr, "nlctrl"));
	msg = rnl_msg(&rr, CTRL_CMD_GETFAMILY, 0);
	CHECK(msg && !nla_put_string(msg, CTRL_ATTR_FAMILY_NAME,
				     "DHHC-1:00:" ZERO_SECRET ":"));
	freecheck_secret = ZERO_SECRET;
	CHECK(rnl_transact(&rr, msg, count_families, NULL) < 0);
	rnl_close(&rr);
	freecheck_secret = NULL;
	CHECK(freecheck_found == 0);
}

static void module_missing(void)
{
	struct rnl rr;

	if (!access("/sys/module/rblk", F_OK)) {
		printf("# rblk is loaded on this host: not checked\n");
		return;
	}
	CHECK(rnl_open(&rr) == -ENOENT);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(request_answered),
	KTAP_CASE(dump_until_done),
	KTAP_CASE(error_errno),
	KTAP_CASE(error_extack_message),
	KTAP_CASE(error_bad_attr),
	KTAP_CASE(extack_uncapped),
	KTAP_CASE(socket_reusable),
	KTAP_CASE(request_zeroed),
	KTAP_CASE(module_missing),
};

int main(void)
{
	const size_t nr = ARRAY_SIZE(cases);
	size_t i;
	int ret;

	have_genl = !rnl_open_family(&r, "nlctrl");
	if (!have_genl) {
		printf("KTAP version 1\n# suite: nl\n1..%zu\n", nr);
		for (i = 0; i < nr; i++)
			printf("ok %zu %s # SKIP no generic netlink\n", i + 1,
			       cases[i].name);
		return 0;
	}
	ret = ktap_run("nl", cases, nr);
	rnl_close(&r);
	return ret;
}
