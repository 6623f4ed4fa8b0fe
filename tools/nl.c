// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg's side of the "rblk" generic netlink family.
 *
 * libnl 3.7 knows nothing of extended ACKs: the socket asks for them and
 * the error callback digs the kernel's message out of the NLMSG_ERROR.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <linux/netlink.h>

#include "nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/* Answers are checked against what we expect, whatever the kernel sends. */
static struct nla_policy rnl_policy[RBLK_ATTR_MAX + 1] = {
	[RBLK_ATTR_INDEX]		= { .type = NLA_U32 },
	[RBLK_ATTR_DISK_NAME]		= { .type = NLA_STRING },
	[RBLK_ATTR_TRTYPE]		= { .type = NLA_STRING },
	[RBLK_ATTR_ADRFAM]		= { .type = NLA_U8 },
	[RBLK_ATTR_TRADDR]		= { .type = NLA_STRING },
	[RBLK_ATTR_TRSVCID]		= { .type = NLA_STRING },
	[RBLK_ATTR_SUBSYSNQN]		= { .type = NLA_STRING },
	[RBLK_ATTR_NSID]		= { .type = NLA_U32 },
	[RBLK_ATTR_HOSTNQN]		= { .type = NLA_STRING },
	[RBLK_ATTR_HOSTID]		= { .minlen = RBLK_HOSTID_LEN },
	[RBLK_ATTR_NR_IO_QUEUES]	= { .type = NLA_U32 },
	[RBLK_ATTR_QUEUE_SIZE]		= { .type = NLA_U32 },
	[RBLK_ATTR_KATO]		= { .type = NLA_U32 },
	[RBLK_ATTR_RECONNECT_DELAY]	= { .type = NLA_U32 },
	[RBLK_ATTR_CTRL_LOSS_TMO]	= { .type = NLA_S32 },
	[RBLK_ATTR_FAST_IO_FAIL_TMO]	= { .type = NLA_S32 },
	[RBLK_ATTR_STATE]		= { .type = NLA_U8 },
	[RBLK_ATTR_CNTLID]		= { .type = NLA_U16 },
	[RBLK_ATTR_STATS]		= { .type = NLA_NESTED },
	[RBLK_ATTR_DISC_ENTRY]		= { .type = NLA_NESTED },
	[RBLK_ATTR_EVENT]		= { .type = NLA_U8 },
	[RBLK_ATTR_MODEL]		= { .type = NLA_STRING },
	[RBLK_ATTR_SERIAL]		= { .type = NLA_STRING },
	[RBLK_ATTR_FIRMWARE]		= { .type = NLA_STRING },
	[RBLK_ATTR_DISC_NUMREC]		= { .type = NLA_U64 },
	[RBLK_ATTR_CTRL_INDEX]		= { .type = NLA_U32 },
	[RBLK_ATTR_CTRL_NAME]		= { .type = NLA_STRING },
	[RBLK_ATTR_NS]			= { .type = NLA_NESTED },
	[RBLK_ATTR_DUPLICATE_CONNECT]	= { .type = NLA_FLAG },
	[RBLK_ATTR_HOST_TRADDR]		= { .type = NLA_STRING },
	[RBLK_ATTR_TOS]			= { .type = NLA_U8 },
	[RBLK_ATTR_DISC_GENCTR]		= { .type = NLA_U64 },
	[RBLK_ATTR_SCANNED]		= { .type = NLA_FLAG },
	[RBLK_ATTR_IOPOLICY]		= { .type = NLA_U8 },
	[RBLK_ATTR_NR_PATHS]		= { .type = NLA_U32 },
	[RBLK_ATTR_DHCHAP_HASH]		= { .type = NLA_U8 },
	[RBLK_ATTR_DHCHAP_DHGROUP]	= { .type = NLA_U8 },
	[RBLK_ATTR_DHCHAP_FLAGS]	= { .type = NLA_U8 },
	[RBLK_ATTR_SUBSYS_NAME]		= { .type = NLA_STRING },
	[RBLK_ATTR_PATH]		= { .type = NLA_NESTED },
};

static struct nla_policy rnl_path_policy[RBLK_PATH_ATTR_MAX + 1] = {
	[RBLK_PATH_ATTR_CTRL_INDEX]	= { .type = NLA_U32 },
	[RBLK_PATH_ATTR_CTRL_NAME]	= { .type = NLA_STRING },
	[RBLK_PATH_ATTR_STATE]		= { .type = NLA_U8 },
	[RBLK_PATH_ATTR_TRADDR]		= { .type = NLA_STRING },
	[RBLK_PATH_ATTR_TRSVCID]	= { .type = NLA_STRING },
	[RBLK_PATH_ATTR_HOST_TRADDR]	= { .type = NLA_STRING },
	[RBLK_PATH_ATTR_DISK_NAME]	= { .type = NLA_STRING },
	[RBLK_PATH_ATTR_ANA_GRPID]	= { .type = NLA_U32 },
	[RBLK_PATH_ATTR_ANA_STATE]	= { .type = NLA_U8 },
	[RBLK_PATH_ATTR_HOSTNQN]	= { .type = NLA_STRING },
	[RBLK_PATH_ATTR_HOSTID]		= { .minlen = RBLK_HOSTID_LEN },
};

static struct nla_policy rnl_ns_policy[RBLK_NS_ATTR_MAX + 1] = {
	[RBLK_NS_ATTR_INDEX]		= { .type = NLA_U32 },
	[RBLK_NS_ATTR_DISK_NAME]	= { .type = NLA_STRING },
	[RBLK_NS_ATTR_NSID]		= { .type = NLA_U32 },
	[RBLK_NS_ATTR_SIZE]		= { .type = NLA_U64 },
	[RBLK_NS_ATTR_BLOCK_SIZE]	= { .type = NLA_U32 },
	[RBLK_NS_ATTR_WWID]		= { .type = NLA_STRING },
	[RBLK_NS_ATTR_NGUID]		= { .minlen = RBLK_NGUID_LEN },
	[RBLK_NS_ATTR_EUI64]		= { .minlen = RBLK_EUI64_LEN },
	[RBLK_NS_ATTR_UUID]		= { .minlen = RBLK_UUID_LEN },
	[RBLK_NS_ATTR_PATH_NAME]	= { .type = NLA_STRING },
	[RBLK_NS_ATTR_ANA_GRPID]	= { .type = NLA_U32 },
	[RBLK_NS_ATTR_ANA_STATE]	= { .type = NLA_U8 },
};

static struct nla_policy rnl_disc_policy[RBLK_DISC_MAX + 1] = {
	[RBLK_DISC_TRTYPE]	= { .type = NLA_U8 },
	[RBLK_DISC_ADRFAM]	= { .type = NLA_U8 },
	[RBLK_DISC_SUBTYPE]	= { .type = NLA_U8 },
	[RBLK_DISC_TREQ]	= { .type = NLA_U8 },
	[RBLK_DISC_PORTID]	= { .type = NLA_U16 },
	[RBLK_DISC_CNTLID]	= { .type = NLA_U16 },
	[RBLK_DISC_ASQSZ]	= { .type = NLA_U16 },
	[RBLK_DISC_TRSVCID]	= { .type = NLA_STRING },
	[RBLK_DISC_TRADDR]	= { .type = NLA_STRING },
	[RBLK_DISC_SUBNQN]	= { .type = NLA_STRING },
	[RBLK_DISC_EFLAGS]	= { .type = NLA_U16 },
	[RBLK_DISC_RDMA_QPTYPE]	= { .type = NLA_U8 },
	[RBLK_DISC_RDMA_PRTYPE]	= { .type = NLA_U8 },
	[RBLK_DISC_RDMA_CMS]	= { .type = NLA_U8 },
	[RBLK_DISC_RDMA_PKEY]	= { .type = NLA_U16 },
};

/* libnl's own error codes, for the few failures that are not the kernel's. */
static int nlerr_to_errno(int err)
{
	switch (-err) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_INTR:
		return -EINTR;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_MSGSIZE:
		return -EMSGSIZE;
	}
	return -EIO;
}

int rnl_open(struct rnl *r)
{
	return rnl_open_family(r, RBLK_GENL_NAME);
}

int rnl_open_family(struct rnl *r, const char *name)
{
	int one = 1, ret;

	memset(r, 0, sizeof(*r));
	r->miss_type = -1;
	r->bad_attr = -1;
	r->sk = nl_socket_alloc();
	if (!r->sk)
		return -ENOMEM;
	ret = genl_connect(r->sk);
	if (ret < 0)
		goto err;
	/* Best effort: older kernels answer without the reason. */
	setsockopt(nl_socket_get_fd(r->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	/* Don't echo our request back in error messages. */
	setsockopt(nl_socket_get_fd(r->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	/* A discovery log answer is bigger than a page. */
	nl_socket_enable_msg_peek(r->sk);
	/*
	 * And can be ~160 KiB, with the ACK behind it: more than the default
	 * receive buffer, which would drop the ACK (ENOBUFS).  Capped by
	 * net.core.rmem_max; best effort.
	 */
	nl_socket_set_buffer_size(r->sk, 1 << 20, 0);

	ret = genl_ctrl_resolve(r->sk, name);
	if (ret < 0)
		goto err;
	r->family = ret;
	if (!strcmp(name, RBLK_GENL_NAME))
		r->policy = rnl_policy;
	return 0;

err:
	nl_socket_free(r->sk);
	r->sk = NULL;
	return nlerr_to_errno(ret);
}

/*
 * Free @msg zeroed: a connect or discover holds DH-HMAC-CHAP keys.  Its
 * header says how much of libnl's buffer it wrote (the rest is calloc()'s
 * zeroes); libnl itself keeps no other copy (it sends from that buffer).
 */
static void rnl_msg_free(struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	explicit_bzero(nlh, nlh->nlmsg_len);
	nlmsg_free(msg);
}

/* Our copy of the last request, zeroed: it may hold keys. */
static void rnl_req_free(struct rnl *r)
{
	if (r->req)
		explicit_bzero(r->req, r->req_len);
	free(r->req);
	r->req = NULL;
	r->req_len = 0;
}

void rnl_close(struct rnl *r)
{
	if (r->sk)
		nl_socket_free(r->sk);
	r->sk = NULL;
	rnl_req_free(r);
}

struct nl_msg *rnl_msg(struct rnl *r, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, r->family, 0, flags,
			 cmd, RBLK_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct rnl_req {
	struct rnl *r;
	rnl_parse_fn parse;
	void *arg;
	int err;
	bool done;
};

/* -EBADMSG if @nlh does not fit @policy, else what @parse says. */
static int decode(struct nlmsghdr *nlh, struct nla_policy *policy,
		  rnl_parse_fn parse, void *arg)
{
	struct nlattr *tb[RBLK_ATTR_MAX + 1];

	if (genlmsg_parse(nlh, 0, tb, RBLK_ATTR_MAX, policy) < 0)
		return -EBADMSG;
	return parse(nlh, tb, arg);
}

int rnl_decode(struct nlmsghdr *nlh, rnl_parse_fn parse, void *arg)
{
	return decode(nlh, rnl_policy, parse, arg);
}

static int rnl_valid_cb(struct nl_msg *msg, void *arg)
{
	struct rnl_req *req = arg;
	int ret;

	if (!req->parse || req->err)
		return NL_OK;
	/* Keep reading to the end of a dump, but remember the failure. */
	ret = decode(nlmsg_hdr(msg), req->r->policy, req->parse, req->arg);
	if (ret == -EBADMSG && !req->r->msg[0])
		snprintf(req->r->msg, sizeof(req->r->msg),
			 "malformed answer from the kernel");
	if (ret < 0)
		req->err = ret;
	return NL_OK;
}

static int rnl_finish_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct rnl_req *req = arg;
	int err;

	/* NLMSG_DONE carries the dump's own error, and its reason. */
	if (nlmsg_datalen(nlh) >= (int)sizeof(err)) {
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0 && !req->err) {
			req->err = err;
			if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
				rnl_decode_extack(req->r,
						(char *)nlmsg_data(nlh) +
						NLA_ALIGN(sizeof(err)),
						nlmsg_datalen(nlh) -
						NLA_ALIGN(sizeof(err)));
		}
	}
	req->done = true;
	req->r->answered = true;
	return NL_STOP;
}

static int rnl_ack_cb(struct nl_msg *msg, void *arg)
{
	struct rnl_req *req = arg;

	(void)msg;
	req->done = true;
	req->r->answered = true;
	return NL_STOP;
}

/* The type of the attribute at offset @off of our last request, or -1. */
static int req_attr_at(const struct rnl *r, uint32_t off)
{
	const struct nlattr *nla;

	if (!r->req || off < NLMSG_HDRLEN + GENL_HDRLEN ||
	    off + NLA_HDRLEN > r->req_len)
		return -1;
	nla = (const struct nlattr *)((const char *)r->req + off);
	if (nla->nla_len < NLA_HDRLEN || off + nla->nla_len > r->req_len)
		return -1;
	return nla->nla_type & NLA_TYPE_MASK;
}

/* The extended ACK attributes at @data: the reason, what was wrong. */
void rnl_decode_extack(struct rnl *r, void *data, int len)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	const uint8_t *cookie;
	int n;

	if (len <= 0 || nla_parse(tb, NLMSGERR_ATTR_MAX, data, len, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(r->msg, tb[NLMSGERR_ATTR_MSG], sizeof(r->msg));
	if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    nla_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= (int)sizeof(uint32_t))
		r->miss_type = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
	if (tb[NLMSGERR_ATTR_OFFS] &&
	    nla_len(tb[NLMSGERR_ATTR_OFFS]) >= (int)sizeof(uint32_t))
		r->bad_attr = req_attr_at(r,
					  nla_get_u32(tb[NLMSGERR_ATTR_OFFS]));
	/*
	 * RBLK_CMD_CONNECT and _DISCOVER: the NVMe status of a refusal (a
	 * u16), and after it, from the kernels that authenticate, the
	 * DH-HMAC-CHAP reason (a u8).
	 */
	if (!tb[NLMSGERR_ATTR_COOKIE])
		return;
	cookie = nla_data(tb[NLMSGERR_ATTR_COOKIE]);
	n = nla_len(tb[NLMSGERR_ATTR_COOKIE]);
	if (n >= (int)sizeof(uint16_t))
		memcpy(&r->nvme_status, cookie, sizeof(uint16_t));
	if (n >= (int)sizeof(uint16_t) + 1)
		r->auth_reason = cookie[sizeof(uint16_t)];
}

static void rnl_parse_extack(struct rnl *r, const struct nlmsghdr *nlh,
			     const struct nlmsgerr *e)
{
	size_t off;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	/* The TLVs follow the error and, unless capped, our request. */
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < NLMSG_HDRLEN)
			return;
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	}
	off = NLMSG_HDRLEN + NLMSG_ALIGN(off);
	if (nlh->nlmsg_len <= off)
		return;
	rnl_decode_extack(r, (char *)nlh + off, nlh->nlmsg_len - off);
}

static int rnl_error_cb(struct sockaddr_nl *nla, struct nlmsgerr *e,
			void *arg)
{
	/* libnl hands over the payload; the header is right before it. */
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)e - 1;
	struct rnl_req *req = arg;

	(void)nla;
	req->err = e->error;
	rnl_parse_extack(req->r, nlh, e);
	req->done = true;
	req->r->answered = true;
	return NL_STOP;
}

int rnl_transact(struct rnl *r, struct nl_msg *msg, rnl_parse_fn parse,
		 void *arg)
{
	struct rnl_req req = { .r = r, .parse = parse, .arg = arg };
	struct nl_cb *cb;
	int ret;

	r->msg[0] = '\0';
	r->miss_type = -1;
	r->bad_attr = -1;
	r->nvme_status = 0;
	r->auth_reason = 0;
	r->answered = false;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		rnl_msg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, rnl_valid_cb, &req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, rnl_finish_cb, &req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, rnl_ack_cb, &req);
	nl_cb_err(cb, NL_CB_CUSTOM, rnl_error_cb, &req);

	ret = nl_send_auto(r->sk, msg);
	/* Kept to find the attribute an error points at (NETLINK_CAP_ACK). */
	rnl_req_free(r);
	r->req = malloc(nlmsg_hdr(msg)->nlmsg_len);
	if (r->req) {
		r->req_len = nlmsg_hdr(msg)->nlmsg_len;
		memcpy(r->req, nlmsg_hdr(msg), r->req_len);
	}
	rnl_msg_free(msg);
	if (ret < 0) {
		req.err = nlerr_to_errno(ret);
		goto out;
	}
	while (!req.done) {
		ret = nl_recvmsgs(r->sk, cb);
		if (ret < 0 && !req.done) {
			req.err = nlerr_to_errno(ret);
			snprintf(r->msg, sizeof(r->msg), "%s",
				 nl_geterror(ret));
			break;
		}
	}
out:
	nl_cb_put(cb);
	return req.err;
}

/* --- requests --- */

static bool is_ctrl_name(const char *name)
{
	return !strncmp(name, RBLK_CTRL_NAME_PREFIX,
			strlen(RBLK_CTRL_NAME_PREFIX));
}

bool rnl_names_ns(const struct cfg *cfg)
{
	if (cfg->set & OPT(INDEX))
		return true;
	return (cfg->set & OPT(DEVICE)) && !is_ctrl_name(cfg->device);
}

/*
 * The controller or namespace a command names: a namespace by --index, or
 * either by name ("rblk-ctrl" also starts with "rblk": test it first).
 */
int rnl_put_dev(struct nl_msg *msg, const struct cfg *cfg)
{
	if (cfg->set & OPT(INDEX))
		return nla_put_u32(msg, RBLK_ATTR_INDEX, cfg->index);
	if (is_ctrl_name(cfg->device))
		return nla_put_string(msg, RBLK_ATTR_CTRL_NAME, cfg->device);
	return nla_put_string(msg, RBLK_ATTR_DISK_NAME, cfg->device);
}

/* What connect and discover share: the target and who we are. */
static int put_target(struct nl_msg *msg, const struct cfg *cfg)
{
	int ret;

	ret = nla_put_string(msg, RBLK_ATTR_TRTYPE, "rdma");
	if (!ret && cfg->traddr)
		ret = nla_put_string(msg, RBLK_ATTR_TRADDR, cfg->traddr);
	if (!ret && cfg->trsvcid)
		ret = nla_put_string(msg, RBLK_ATTR_TRSVCID, cfg->trsvcid);
	if (!ret && cfg->nqn)
		ret = nla_put_string(msg, RBLK_ATTR_SUBSYSNQN, cfg->nqn);
	if (!ret && cfg->hostnqn)
		ret = nla_put_string(msg, RBLK_ATTR_HOSTNQN, cfg->hostnqn);
	if (!ret && (cfg->set & OPT(HOSTID)))
		ret = nla_put(msg, RBLK_ATTR_HOSTID, RBLK_HOSTID_LEN,
			      cfg->hostid);
	if (!ret && (cfg->set & OPT(HOST_TRADDR)))
		ret = nla_put_string(msg, RBLK_ATTR_HOST_TRADDR,
				     cfg->host_traddr);
	if (!ret && (cfg->set & OPT(TOS)))
		ret = nla_put_u8(msg, RBLK_ATTR_TOS, cfg->tos);
	if (!ret && ((cfg->set & OPT(DHCHAP_SECRET)) || cfg->dhchap_default))
		ret = nla_put_string(msg, RBLK_ATTR_DHCHAP_SECRET,
				     cfg->dhchap_secret);
	/* Not the user's choice: where it cannot be used, it is ignored. */
	if (!ret && !(cfg->set & OPT(DHCHAP_SECRET)) && cfg->dhchap_default)
		ret = nla_put_flag(msg, RBLK_ATTR_DHCHAP_KEY_DEFAULT);
	if (!ret && (cfg->set & OPT(DHCHAP_CTRL_SECRET)))
		ret = nla_put_string(msg, RBLK_ATTR_DHCHAP_CTRL_SECRET,
				     cfg->dhchap_ctrl_secret);
	return ret;
}

int rnl_put_connect(struct nl_msg *msg, const struct cfg *cfg)
{
	int ret;

	ret = put_target(msg, cfg);
	/* Only what was asked for: the kernel owns the defaults. */
	if (!ret && (cfg->set & OPT(NSID)))
		ret = nla_put_u32(msg, RBLK_ATTR_NSID, cfg->nsid);
	if (!ret && (cfg->set & OPT(NR_IO_QUEUES)))
		ret = nla_put_u32(msg, RBLK_ATTR_NR_IO_QUEUES,
				  cfg->nr_io_queues);
	if (!ret && (cfg->set & OPT(NR_POLL_QUEUES)))
		ret = nla_put_u32(msg, RBLK_ATTR_NR_POLL_QUEUES,
				  cfg->nr_poll_queues);
	if (!ret && (cfg->set & OPT(NR_WRITE_QUEUES)))
		ret = nla_put_u32(msg, RBLK_ATTR_NR_WRITE_QUEUES,
				  cfg->nr_write_queues);
	if (!ret && (cfg->set & OPT(QUEUE_SIZE)))
		ret = nla_put_u32(msg, RBLK_ATTR_QUEUE_SIZE, cfg->queue_size);
	if (!ret && (cfg->set & OPT(KATO)))
		ret = nla_put_u32(msg, RBLK_ATTR_KATO, cfg->kato);
	if (!ret && (cfg->set & OPT(RECONNECT_DELAY)))
		ret = nla_put_u32(msg, RBLK_ATTR_RECONNECT_DELAY,
				  cfg->reconnect_delay);
	if (!ret && (cfg->set & OPT(CTRL_LOSS_TMO)))
		ret = nla_put_s32(msg, RBLK_ATTR_CTRL_LOSS_TMO,
				  cfg->ctrl_loss_tmo);
	if (!ret && (cfg->set & OPT(FAST_IO_FAIL_TMO)))
		ret = nla_put_s32(msg, RBLK_ATTR_FAST_IO_FAIL_TMO,
				  cfg->fast_io_fail_tmo);
	if (!ret && (cfg->set & OPT(DUPLICATE_CONNECT)))
		ret = nla_put_flag(msg, RBLK_ATTR_DUPLICATE_CONNECT);
	return ret;
}

/* RBLK_CMD_SET: the controller, and the settings given. */
int rnl_put_set(struct nl_msg *msg, const struct cfg *cfg)
{
	int ret;

	ret = rnl_put_dev(msg, cfg);
	if (!ret && (cfg->set & OPT(IOPOLICY)))
		ret = nla_put_u8(msg, RBLK_ATTR_IOPOLICY, cfg->iopolicy);
	return ret;
}

/* Build, send, wait: the shape of every request but monitor. */
static int request(struct rnl *r, uint8_t cmd, int flags,
		   int (*put)(struct nl_msg *, const struct cfg *),
		   const struct cfg *cfg, rnl_parse_fn parse, void *arg)
{
	struct nl_msg *msg;

	msg = rnl_msg(r, cmd, flags);
	if (!msg)
		return -ENOMEM;
	if (put && put(msg, cfg) < 0) {
		rnl_msg_free(msg);
		return -EMSGSIZE;
	}
	return rnl_transact(r, msg, parse, arg);
}

/*
 * @v with room for @want entries of @size bytes (it has *@cap): @v itself,
 * a bigger copy, or NULL (@v untouched) when out of memory.
 */
static void *vec_grow(void *v, size_t *cap, size_t want, size_t size)
{
	size_t n = *cap ? *cap : 4;

	if (want <= *cap)
		return v;
	while (n < want)
		n *= 2;
	v = realloc(v, n * size);
	if (v)
		*cap = n;
	return v;
}

#define GET_STR(tb, attr, dst)						\
	do {								\
		if ((tb)[attr])						\
			nla_strlcpy((dst), (tb)[attr], sizeof(dst));	\
	} while (0)
#define GET_NUM(tb, attr, dst, getter)					\
	do {								\
		if ((tb)[attr])						\
			(dst) = getter((tb)[attr]);			\
	} while (0)

/* A binary attribute, if present; the policy checked its length. */
static bool get_bin(const struct nlattr *nla, void *dst, size_t len)
{
	if (!nla)
		return false;
	memcpy(dst, nla_data(nla), len);
	return true;
}

/* Each top-level attribute of a generic netlink message. */
#define for_each_msg_attr(pos, nlh, rem)				\
	nla_for_each_attr(pos, genlmsg_attrdata(nlmsg_data(nlh), 0),	\
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem)

static int decode_ns(struct nlattr *nest, struct ns_info *ns)
{
	struct nlattr *tb[RBLK_NS_ATTR_MAX + 1];

	memset(ns, 0, sizeof(*ns));
	if (nla_parse_nested(tb, RBLK_NS_ATTR_MAX, nest, rnl_ns_policy) ||
	    !tb[RBLK_NS_ATTR_INDEX] || !tb[RBLK_NS_ATTR_DISK_NAME])
		return -EBADMSG;
	GET_NUM(tb, RBLK_NS_ATTR_INDEX, ns->index, nla_get_u32);
	GET_STR(tb, RBLK_NS_ATTR_DISK_NAME, ns->name);
	GET_NUM(tb, RBLK_NS_ATTR_NSID, ns->nsid, nla_get_u32);
	GET_NUM(tb, RBLK_NS_ATTR_SIZE, ns->size, nla_get_u64);
	GET_NUM(tb, RBLK_NS_ATTR_BLOCK_SIZE, ns->block_size, nla_get_u32);
	GET_STR(tb, RBLK_NS_ATTR_WWID, ns->wwid);
	ns->has_nguid = get_bin(tb[RBLK_NS_ATTR_NGUID], ns->nguid,
				sizeof(ns->nguid));
	ns->has_eui64 = get_bin(tb[RBLK_NS_ATTR_EUI64], ns->eui64,
				sizeof(ns->eui64));
	ns->has_uuid = get_bin(tb[RBLK_NS_ATTR_UUID], ns->uuid,
			       sizeof(ns->uuid));
	GET_STR(tb, RBLK_NS_ATTR_PATH_NAME, ns->path);
	GET_NUM(tb, RBLK_NS_ATTR_ANA_GRPID, ns->ana_grpid, nla_get_u32);
	ns->has_ana_state = tb[RBLK_NS_ATTR_ANA_STATE] != NULL;
	GET_NUM(tb, RBLK_NS_ATTR_ANA_STATE, ns->ana_state, nla_get_u8);
	return 0;
}

/*
 * Only the attributes present: a controller's first message has them all,
 * the ones after it only more namespaces.
 */
static void decode_ctrl(struct nlattr **tb, struct ctrl_info *c)
{
	GET_STR(tb, RBLK_ATTR_CTRL_NAME, c->name);
	GET_STR(tb, RBLK_ATTR_TRTYPE, c->trtype);
	GET_NUM(tb, RBLK_ATTR_ADRFAM, c->adrfam, nla_get_u8);
	GET_STR(tb, RBLK_ATTR_TRADDR, c->traddr);
	GET_STR(tb, RBLK_ATTR_TRSVCID, c->trsvcid);
	GET_STR(tb, RBLK_ATTR_SUBSYSNQN, c->subsysnqn);
	GET_NUM(tb, RBLK_ATTR_NSID, c->nsid, nla_get_u32);
	GET_STR(tb, RBLK_ATTR_HOSTNQN, c->hostnqn);
	get_bin(tb[RBLK_ATTR_HOSTID], c->hostid, sizeof(c->hostid));
	GET_NUM(tb, RBLK_ATTR_NR_IO_QUEUES, c->nr_io_queues, nla_get_u32);
	GET_NUM(tb, RBLK_ATTR_QUEUE_SIZE, c->queue_size, nla_get_u32);
	GET_NUM(tb, RBLK_ATTR_KATO, c->kato, nla_get_u32);
	GET_NUM(tb, RBLK_ATTR_RECONNECT_DELAY, c->reconnect_delay,
		nla_get_u32);
	GET_NUM(tb, RBLK_ATTR_CTRL_LOSS_TMO, c->ctrl_loss_tmo, nla_get_s32);
	GET_NUM(tb, RBLK_ATTR_FAST_IO_FAIL_TMO, c->fast_io_fail_tmo,
		nla_get_s32);
	GET_NUM(tb, RBLK_ATTR_STATE, c->state, nla_get_u8);
	GET_NUM(tb, RBLK_ATTR_CNTLID, c->cntlid, nla_get_u16);
	GET_STR(tb, RBLK_ATTR_MODEL, c->model);
	GET_STR(tb, RBLK_ATTR_SERIAL, c->serial);
	GET_STR(tb, RBLK_ATTR_FIRMWARE, c->firmware);
	GET_STR(tb, RBLK_ATTR_HOST_TRADDR, c->host_traddr);
	if (tb[RBLK_ATTR_TOS]) {
		c->tos = nla_get_u8(tb[RBLK_ATTR_TOS]);
		c->has_tos = true;
	}
	if (tb[RBLK_ATTR_SCANNED])
		c->scanned = true;
	if (tb[RBLK_ATTR_IOPOLICY]) {
		c->iopolicy = nla_get_u8(tb[RBLK_ATTR_IOPOLICY]);
		c->has_iopolicy = true;
	}
	if (tb[RBLK_ATTR_DHCHAP_FLAGS]) {
		c->dhchap_flags = nla_get_u8(tb[RBLK_ATTR_DHCHAP_FLAGS]);
		c->has_dhchap_flags = true;
	}
	if (tb[RBLK_ATTR_DHCHAP_HASH]) {
		c->dhchap_hash = nla_get_u8(tb[RBLK_ATTR_DHCHAP_HASH]);
		c->has_dhchap_hash = true;
	}
	GET_NUM(tb, RBLK_ATTR_DHCHAP_DHGROUP, c->dhchap_dhgroup, nla_get_u8);
}

/* The entry of controller @index: the one seen before, or a new one. */
static struct ctrl_info *ctrl_entry(struct ctrl_vec *vec, uint32_t index)
{
	struct ctrl_info *c;
	size_t i;

	for (i = 0; i < vec->nr; i++) {
		if (vec->v[i].index == index)
			return &vec->v[i];
	}
	c = vec_grow(vec->v, &vec->cap, vec->nr + 1, sizeof(*c));
	if (!c)
		return NULL;
	vec->v = c;
	c = &vec->v[vec->nr++];
	memset(c, 0, sizeof(*c));
	c->index = index;
	return c;
}

/* Appends the message's RBLK_ATTR_NS nests to @c's namespaces. */
static int add_namespaces(struct nlmsghdr *nlh, struct ctrl_info *c)
{
	struct ns_info *ns;
	struct nlattr *nla;
	int rem, ret;

	for_each_msg_attr(nla, nlh, rem) {
		if (nla_type(nla) != RBLK_ATTR_NS)
			continue;
		ns = vec_grow(c->ns, &c->ns_cap, c->nr_ns + 1, sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		c->ns = ns;
		ret = decode_ns(nla, &c->ns[c->nr_ns]);
		if (ret)
			return ret;
		c->nr_ns++;
	}
	return 0;
}

int rnl_parse_ctrl(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct ctrl_info *c;

	if (!tb[RBLK_ATTR_CTRL_INDEX] || !tb[RBLK_ATTR_CTRL_NAME])
		return -EBADMSG;
	c = ctrl_entry(arg, nla_get_u32(tb[RBLK_ATTR_CTRL_INDEX]));
	if (!c)
		return -ENOMEM;
	decode_ctrl(tb, c);
	return add_namespaces(nlh, c);
}

void rnl_ctrl_free(struct ctrl_info *ctrl)
{
	free(ctrl->ns);
	ctrl->ns = NULL;
	ctrl->nr_ns = ctrl->ns_cap = 0;
}

void rnl_ctrls_free(struct ctrl_info *ctrls, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		rnl_ctrl_free(&ctrls[i]);
	free(ctrls);
}

/* A request answered by the messages of exactly one controller. */
static int request_ctrl(struct rnl *r, uint8_t cmd,
			int (*put)(struct nl_msg *, const struct cfg *),
			const struct cfg *cfg, struct ctrl_info *ctrl)
{
	struct ctrl_vec vec = { 0 };
	int ret;

	memset(ctrl, 0, sizeof(*ctrl));
	ret = request(r, cmd, 0, put, cfg, rnl_parse_ctrl, &vec);
	if (!ret && vec.nr != 1) {
		snprintf(r->msg, sizeof(r->msg),
			 "the kernel answered with %zu controllers", vec.nr);
		ret = -EBADMSG;
	}
	if (ret) {
		rnl_ctrls_free(vec.v, vec.nr);
		return ret;
	}
	*ctrl = vec.v[0];
	free(vec.v);
	return 0;
}

int rnl_connect(struct rnl *r, const struct cfg *cfg, struct ctrl_info *ctrl)
{
	return request_ctrl(r, RBLK_CMD_CONNECT, rnl_put_connect, cfg, ctrl);
}

int rnl_disconnect(struct rnl *r, const struct cfg *cfg)
{
	return request(r, RBLK_CMD_DISCONNECT, 0, rnl_put_dev, cfg, NULL, NULL);
}

int rnl_get(struct rnl *r, const struct cfg *cfg, struct ctrl_info *ctrl)
{
	return request_ctrl(r, RBLK_CMD_GET, rnl_put_dev, cfg, ctrl);
}

int rnl_list(struct rnl *r, struct ctrl_info **ctrls, size_t *nr)
{
	struct ctrl_vec vec = { 0 };
	int ret;

	ret = request(r, RBLK_CMD_GET, NLM_F_DUMP, NULL, NULL, rnl_parse_ctrl,
		      &vec);
	if (ret) {
		rnl_ctrls_free(vec.v, vec.nr);
		return ret;
	}
	*ctrls = vec.v;
	*nr = vec.nr;
	return 0;
}

/* The RBLK_ATTR_PATH nests of a message, appended to @v (*@nr of *@cap). */
static int decode_paths(struct nlmsghdr *nlh, struct path_info **v,
			size_t *nr, size_t *cap)
{
	struct nlattr *tb[RBLK_PATH_ATTR_MAX + 1];
	struct nlattr *attrs = genlmsg_attrdata(nlmsg_data(nlh), 0);
	int len = genlmsg_attrlen(nlmsg_data(nlh), 0);
	struct path_info *p, *grown;
	struct nlattr *nla;
	int rem;

	nla_for_each_attr(nla, attrs, len, rem) {
		if (nla_type(nla) != RBLK_ATTR_PATH)
			continue;
		if (nla_parse_nested(tb, RBLK_PATH_ATTR_MAX, nla,
				     rnl_path_policy) ||
		    !tb[RBLK_PATH_ATTR_CTRL_NAME] || !tb[RBLK_PATH_ATTR_STATE])
			return -EBADMSG;
		grown = vec_grow(*v, cap, *nr + 1, sizeof(**v));
		if (!grown)
			return -ENOMEM;
		*v = grown;
		p = &(*v)[(*nr)++];
		memset(p, 0, sizeof(*p));
		GET_NUM(tb, RBLK_PATH_ATTR_CTRL_INDEX, p->ctrl_index,
			nla_get_u32);
		GET_STR(tb, RBLK_PATH_ATTR_CTRL_NAME, p->name);
		GET_NUM(tb, RBLK_PATH_ATTR_STATE, p->state, nla_get_u8);
		GET_STR(tb, RBLK_PATH_ATTR_TRADDR, p->traddr);
		GET_STR(tb, RBLK_PATH_ATTR_TRSVCID, p->trsvcid);
		GET_STR(tb, RBLK_PATH_ATTR_HOST_TRADDR, p->host_traddr);
		GET_STR(tb, RBLK_PATH_ATTR_HOSTNQN, p->hostnqn);
		p->has_hostid = get_bin(tb[RBLK_PATH_ATTR_HOSTID], p->hostid,
					sizeof(p->hostid));
		GET_STR(tb, RBLK_PATH_ATTR_DISK_NAME, p->disk);
		GET_NUM(tb, RBLK_PATH_ATTR_ANA_GRPID, p->ana_grpid,
			nla_get_u32);
		p->has_ana_state = tb[RBLK_PATH_ATTR_ANA_STATE] != NULL;
		GET_NUM(tb, RBLK_PATH_ATTR_ANA_STATE, p->ana_state,
			nla_get_u8);
	}
	return 0;
}

int rnl_parse_subsys(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct subsys_list *l = arg;
	struct subsys_info *s;
	int ret;

	if (!tb[RBLK_ATTR_SUBSYS_NAME] || !tb[RBLK_ATTR_SUBSYSNQN])
		return -EBADMSG;
	s = vec_grow(l->subsys, &l->cap, l->nr + 1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	l->subsys = s;
	s = &l->subsys[l->nr++];
	memset(s, 0, sizeof(*s));
	GET_STR(tb, RBLK_ATTR_SUBSYS_NAME, s->name);
	GET_STR(tb, RBLK_ATTR_SUBSYSNQN, s->nqn);
	GET_STR(tb, RBLK_ATTR_MODEL, s->model);
	GET_STR(tb, RBLK_ATTR_SERIAL, s->serial);
	GET_STR(tb, RBLK_ATTR_FIRMWARE, s->firmware);
	s->has_iopolicy = tb[RBLK_ATTR_IOPOLICY] != NULL;
	GET_NUM(tb, RBLK_ATTR_IOPOLICY, s->iopolicy, nla_get_u8);
	ret = decode_paths(nlh, &s->paths, &s->nr_paths, &s->paths_cap);
	return ret;
}

int rnl_parse_head(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct subsys_list *l = arg;
	struct head_info *h;

	if (!tb[RBLK_ATTR_INDEX] || !tb[RBLK_ATTR_DISK_NAME] ||
	    !tb[RBLK_ATTR_NSID] || !tb[RBLK_ATTR_SUBSYS_NAME])
		return -EBADMSG;
	h = vec_grow(l->heads, &l->heads_cap, l->nr_heads + 1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	l->heads = h;
	h = &l->heads[l->nr_heads++];
	memset(h, 0, sizeof(*h));
	GET_NUM(tb, RBLK_ATTR_INDEX, h->index, nla_get_u32);
	GET_STR(tb, RBLK_ATTR_DISK_NAME, h->name);
	GET_NUM(tb, RBLK_ATTR_NSID, h->nsid, nla_get_u32);
	GET_STR(tb, RBLK_ATTR_SUBSYS_NAME, h->subsys);
	GET_NUM(tb, RBLK_ATTR_STATE, h->state, nla_get_u8);
	return decode_paths(nlh, &h->paths, &h->nr_paths, &h->paths_cap);
}

int rnl_subsys_list(struct rnl *r, struct subsys_list *l, bool heads)
{
	int ret;

	memset(l, 0, sizeof(*l));
	ret = request(r, RBLK_CMD_GET_SUBSYS, NLM_F_DUMP, NULL, NULL,
		      rnl_parse_subsys, l);
	if (!ret && heads)
		ret = request(r, RBLK_CMD_GET_HEAD, NLM_F_DUMP, NULL, NULL,
			      rnl_parse_head, l);
	if (ret)
		rnl_subsys_free(l);
	return ret;
}

void rnl_subsys_free(struct subsys_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->subsys[i].paths);
	for (i = 0; i < l->nr_heads; i++)
		free(l->heads[i].paths);
	free(l->subsys);
	free(l->heads);
	memset(l, 0, sizeof(*l));
}

int rnl_set(struct rnl *r, const struct cfg *cfg)
{
	return request(r, RBLK_CMD_SET, 0, rnl_put_set, cfg, NULL, NULL);
}

int rnl_parse_stats(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct nlattr *stb[RBLK_STAT_MAX + 1];
	struct stats_info *st = arg;
	int i;

	(void)nlh;
	memset(st, 0, sizeof(*st));
	/* A namespace's statistics name it; a controller's sum does not. */
	st->is_ns = tb[RBLK_ATTR_INDEX] || tb[RBLK_ATTR_DISK_NAME];
	/* A head's sum over its paths names the head. */
	if (!tb[RBLK_ATTR_CTRL_INDEX] || !tb[RBLK_ATTR_CTRL_NAME] ||
	    (tb[RBLK_ATTR_NR_PATHS] && !st->is_ns))
		return -EBADMSG;
	if (!tb[RBLK_ATTR_STATS] ||
	    nla_parse_nested(stb, RBLK_STAT_MAX, tb[RBLK_ATTR_STATS], NULL))
		return -EBADMSG;
	st->is_head = tb[RBLK_ATTR_NR_PATHS];
	GET_NUM(tb, RBLK_ATTR_NR_PATHS, st->nr_paths, nla_get_u32);
	GET_NUM(tb, RBLK_ATTR_CTRL_INDEX, st->ctrl_index, nla_get_u32);
	GET_STR(tb, RBLK_ATTR_CTRL_NAME, st->ctrl_name);
	GET_NUM(tb, RBLK_ATTR_INDEX, st->index, nla_get_u32);
	GET_STR(tb, RBLK_ATTR_DISK_NAME, st->name);
	for (i = 1; i <= RBLK_STAT_MAX; i++) {
		if (!stb[i] || i == RBLK_STAT_PAD)
			continue;
		if (i == RBLK_STAT_LAT_HIST) {
			size_t len = nla_len(stb[i]);

			if (len > sizeof(st->lat_hist))
				len = sizeof(st->lat_hist);
			memcpy(st->lat_hist, nla_data(stb[i]), len);
		} else if (nla_len(stb[i]) >= (int)sizeof(uint64_t)) {
			st->counter[i] = nla_get_u64(stb[i]);
		}
	}
	return 0;
}

int rnl_stats(struct rnl *r, const struct cfg *cfg, struct stats_info *st)
{
	memset(st, 0, sizeof(*st));
	return request(r, RBLK_CMD_GET_STATS, 0, rnl_put_dev, cfg,
		       rnl_parse_stats, st);
}

int rnl_reset_stats(struct rnl *r, const struct cfg *cfg)
{
	return request(r, RBLK_CMD_RESET_STATS, 0, rnl_put_dev, cfg, NULL,
		       NULL);
}

/*
 * One RBLK_ATTR_DISC_ENTRY nest per record; a dump spreads them over
 * several messages, each with the log's GENCTR and NUMREC.
 */
int rnl_parse_disc(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct nlattr *dtb[RBLK_DISC_MAX + 1], *nla;
	struct disc_log *log = arg;
	size_t n = log->nr;
	struct disc_entry *e;
	int rem;

	for_each_msg_attr(nla, nlh, rem) {
		if (nla_type(nla) == RBLK_ATTR_DISC_ENTRY)
			n++;
	}
	e = vec_grow(log->e, &log->cap, n ? n : 1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	log->e = e;

	for_each_msg_attr(nla, nlh, rem) {
		if (nla_type(nla) != RBLK_ATTR_DISC_ENTRY)
			continue;
		if (nla_parse_nested(dtb, RBLK_DISC_MAX, nla, rnl_disc_policy))
			return -EBADMSG;
		e = &log->e[log->nr];
		memset(e, 0, sizeof(*e));
		GET_NUM(dtb, RBLK_DISC_TRTYPE, e->trtype, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_ADRFAM, e->adrfam, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_SUBTYPE, e->subtype, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_TREQ, e->treq, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_PORTID, e->portid, nla_get_u16);
		GET_NUM(dtb, RBLK_DISC_CNTLID, e->cntlid, nla_get_u16);
		GET_NUM(dtb, RBLK_DISC_ASQSZ, e->asqsz, nla_get_u16);
		GET_NUM(dtb, RBLK_DISC_EFLAGS, e->eflags, nla_get_u16);
		GET_NUM(dtb, RBLK_DISC_RDMA_QPTYPE, e->rdma_qptype, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_RDMA_PRTYPE, e->rdma_prtype, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_RDMA_CMS, e->rdma_cms, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_RDMA_PKEY, e->rdma_pkey, nla_get_u16);
		GET_STR(dtb, RBLK_DISC_TRSVCID, e->trsvcid);
		GET_STR(dtb, RBLK_DISC_TRADDR, e->traddr);
		GET_STR(dtb, RBLK_DISC_SUBNQN, e->subnqn);
		log->nr++;
	}
	GET_NUM(tb, RBLK_ATTR_DISC_GENCTR, log->genctr, nla_get_u64);
	/* A kernel without the attribute reports its whole log. */
	if (tb[RBLK_ATTR_DISC_NUMREC])
		log->numrec = nla_get_u64(tb[RBLK_ATTR_DISC_NUMREC]);
	else if (log->numrec < log->nr)
		log->numrec = log->nr;
	return 0;
}

void rnl_disc_free(struct disc_log *log)
{
	free(log->e);
	memset(log, 0, sizeof(*log));
}

int rnl_discover(struct rnl *r, const struct cfg *cfg, struct disc_log *log)
{
	int ret;

	memset(log, 0, sizeof(*log));
	/* A dump: the log may be longer than one message holds. */
	ret = request(r, RBLK_CMD_DISCOVER, NLM_F_DUMP, put_target, cfg,
		      rnl_parse_disc, log);
	/* A module without the dump: its doit, up to RBLK_DISC_MAX_RECORDS. */
	if (ret == -EOPNOTSUPP && !log->nr) {
		rnl_disc_free(log);
		ret = request(r, RBLK_CMD_DISCOVER, 0, put_target, cfg,
			      rnl_parse_disc, log);
	}
	if (ret)
		rnl_disc_free(log);
	return ret;
}

/* --- monitor --- */

struct rnl_mon {
	struct rnl *r;
	rnl_event_fn fn;
	void *arg;
	uint32_t seen;
};

int rnl_parse_event(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct ctrl_event *ev = arg;

	(void)nlh;
	memset(ev, 0, sizeof(*ev));
	if (!tb[RBLK_ATTR_EVENT])
		return -EBADMSG;
	ev->event = nla_get_u8(tb[RBLK_ATTR_EVENT]);
	GET_NUM(tb, RBLK_ATTR_CTRL_INDEX, ev->ctrl_index, nla_get_u32);
	GET_STR(tb, RBLK_ATTR_CTRL_NAME, ev->ctrl_name);
	GET_NUM(tb, RBLK_ATTR_STATE, ev->state, nla_get_u8);
	if (tb[RBLK_ATTR_NS]) {
		if (decode_ns(tb[RBLK_ATTR_NS], &ev->ns))
			return -EBADMSG;
		ev->has_ns = true;
	}
	ev->has_subsys = tb[RBLK_ATTR_SUBSYS_NAME] != NULL;
	GET_STR(tb, RBLK_ATTR_SUBSYS_NAME, ev->subsys);
	GET_STR(tb, RBLK_ATTR_SUBSYSNQN, ev->subsysnqn);
	ev->has_iopolicy = tb[RBLK_ATTR_IOPOLICY] != NULL;
	GET_NUM(tb, RBLK_ATTR_IOPOLICY, ev->iopolicy, nla_get_u8);
	return 0;
}

static int rnl_event_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct rnl_mon *mon = arg;
	struct ctrl_event ev;
	struct genlmsghdr *ghdr;

	if (nlh->nlmsg_type != mon->r->family ||
	    !genlmsg_valid_hdr(nlh, 0))
		return NL_SKIP;
	ghdr = nlmsg_data(nlh);
	if (ghdr->cmd != RBLK_CMD_EVENT ||
	    rnl_decode(nlh, rnl_parse_event, &ev))
		return NL_SKIP;
	mon->fn(&ev, mon->arg);
	mon->seen++;
	return NL_OK;
}

static int rnl_no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int rnl_monitor(struct rnl *r, uint32_t count, uint32_t timeout,
		rnl_event_fn fn, void *arg)
{
	struct rnl_mon mon = { .r = r, .fn = fn, .arg = arg };
	int64_t deadline = now_ms() + (int64_t)timeout * 1000;
	struct pollfd pfd;
	struct nl_cb *cb;
	int grp, ret;

	r->msg[0] = '\0';
	grp = genl_ctrl_resolve_grp(r->sk, RBLK_GENL_NAME,
				    RBLK_GENL_MCAST_EVENTS);
	if (grp < 0)
		return nlerr_to_errno(grp);
	ret = nl_socket_add_membership(r->sk, grp);
	if (ret < 0)
		return nlerr_to_errno(ret);

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, rnl_event_cb, &mon);
	/* Notifications are not answers: they have no sequence numbers. */
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, rnl_no_seq_check, NULL);

	pfd.fd = nl_socket_get_fd(r->sk);
	pfd.events = POLLIN;
	ret = 0;
	while (!count || mon.seen < count) {
		int wait = -1;

		if (timeout) {
			int64_t left = deadline - now_ms();

			if (left <= 0)
				break;
			wait = left;
		}
		ret = poll(&pfd, 1, wait);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		ret = 0;
		if (!(pfd.revents & POLLIN))
			continue;
		ret = nl_recvmsgs(r->sk, cb);
		if (ret == -NLE_NOMEM) {
			/* Receive buffer overrun: say so, keep going. */
			snprintf(r->msg, sizeof(r->msg), "events were lost");
			fprintf(stderr, "nvmecfg: monitor: events were lost\n");
			ret = 0;
			continue;
		}
		if (ret < 0) {
			ret = nlerr_to_errno(ret);
			break;
		}
	}
	nl_cb_put(cb);
	return ret < 0 ? ret : 0;
}
