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
	[RBLK_ATTR_SIZE]		= { .type = NLA_U64 },
	[RBLK_ATTR_BLOCK_SIZE]		= { .type = NLA_U32 },
	[RBLK_ATTR_STATS]		= { .type = NLA_NESTED },
	[RBLK_ATTR_DISC_ENTRY]		= { .type = NLA_NESTED },
	[RBLK_ATTR_EVENT]		= { .type = NLA_U8 },
	[RBLK_ATTR_MODEL]		= { .type = NLA_STRING },
	[RBLK_ATTR_SERIAL]		= { .type = NLA_STRING },
	[RBLK_ATTR_FIRMWARE]		= { .type = NLA_STRING },
	[RBLK_ATTR_DISC_NUMREC]		= { .type = NLA_U64 },
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

void rnl_close(struct rnl *r)
{
	if (r->sk)
		nl_socket_free(r->sk);
	r->sk = NULL;
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

static int rnl_valid_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[RBLK_ATTR_MAX + 1];
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct rnl_req *req = arg;
	int ret;

	if (!req->parse || req->err)
		return NL_OK;
	ret = genlmsg_parse(nlh, 0, tb, RBLK_ATTR_MAX, req->r->policy);
	if (ret < 0) {
		req->err = -EBADMSG;
		snprintf(req->r->msg, sizeof(req->r->msg),
			 "malformed answer from the kernel");
		return NL_OK;
	}
	/* Keep reading to the end of a dump, but remember the failure. */
	ret = req->parse(nlh, tb, req->arg);
	if (ret < 0)
		req->err = ret;
	return NL_OK;
}

static int rnl_finish_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct rnl_req *req = arg;
	int err;

	/* NLMSG_DONE carries the dump's own error. */
	if (nlmsg_datalen(nlh) >= (int)sizeof(err)) {
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0 && !req->err)
			req->err = err;
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

static void rnl_parse_extack(struct rnl *r, const struct nlmsghdr *nlh,
			     const struct nlmsgerr *e)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
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
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)nlh + off),
		      nlh->nlmsg_len - off, NULL) < 0)
		return;

	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(r->msg, tb[NLMSGERR_ATTR_MSG], sizeof(r->msg));
	if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    nla_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= (int)sizeof(uint32_t))
		r->miss_type = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
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
	r->answered = false;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, rnl_valid_cb, &req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, rnl_finish_cb, &req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, rnl_ack_cb, &req);
	nl_cb_err(cb, NL_CB_CUSTOM, rnl_error_cb, &req);

	ret = nl_send_auto(r->sk, msg);
	nlmsg_free(msg);
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

/* The device a command names, by index or by name. */
static int put_dev(struct nl_msg *msg, const struct cfg *cfg)
{
	if (cfg->set & OPT(INDEX))
		return nla_put_u32(msg, RBLK_ATTR_INDEX, cfg->index);
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
	return ret;
}

static int put_connect(struct nl_msg *msg, const struct cfg *cfg)
{
	int ret;

	ret = put_target(msg, cfg);
	/* Only what was asked for: the kernel owns the defaults. */
	if (!ret && (cfg->set & OPT(NSID)))
		ret = nla_put_u32(msg, RBLK_ATTR_NSID, cfg->nsid);
	if (!ret && (cfg->set & OPT(NR_IO_QUEUES)))
		ret = nla_put_u32(msg, RBLK_ATTR_NR_IO_QUEUES,
				  cfg->nr_io_queues);
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
	return ret;
}

static int parse_ref(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct dev_ref *ref = arg;

	(void)nlh;
	if (!tb[RBLK_ATTR_INDEX] || !tb[RBLK_ATTR_DISK_NAME])
		return -EBADMSG;
	ref->index = nla_get_u32(tb[RBLK_ATTR_INDEX]);
	nla_strlcpy(ref->name, tb[RBLK_ATTR_DISK_NAME], sizeof(ref->name));
	return 0;
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
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return rnl_transact(r, msg, parse, arg);
}

int rnl_connect(struct rnl *r, const struct cfg *cfg, struct dev_ref *ref)
{
	memset(ref, 0, sizeof(*ref));
	return request(r, RBLK_CMD_CONNECT, 0, put_connect, cfg, parse_ref,
		       ref);
}

int rnl_disconnect(struct rnl *r, const struct cfg *cfg)
{
	return request(r, RBLK_CMD_DISCONNECT, 0, put_dev, cfg, NULL, NULL);
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

static void decode_dev(struct nlattr **tb, struct dev_info *d)
{
	memset(d, 0, sizeof(*d));
	GET_NUM(tb, RBLK_ATTR_INDEX, d->index, nla_get_u32);
	GET_STR(tb, RBLK_ATTR_DISK_NAME, d->name);
	GET_STR(tb, RBLK_ATTR_TRTYPE, d->trtype);
	GET_NUM(tb, RBLK_ATTR_ADRFAM, d->adrfam, nla_get_u8);
	GET_STR(tb, RBLK_ATTR_TRADDR, d->traddr);
	GET_STR(tb, RBLK_ATTR_TRSVCID, d->trsvcid);
	GET_STR(tb, RBLK_ATTR_SUBSYSNQN, d->subsysnqn);
	GET_NUM(tb, RBLK_ATTR_NSID, d->nsid, nla_get_u32);
	GET_STR(tb, RBLK_ATTR_HOSTNQN, d->hostnqn);
	if (tb[RBLK_ATTR_HOSTID])
		memcpy(d->hostid, nla_data(tb[RBLK_ATTR_HOSTID]),
		       sizeof(d->hostid));
	GET_NUM(tb, RBLK_ATTR_NR_IO_QUEUES, d->nr_io_queues, nla_get_u32);
	GET_NUM(tb, RBLK_ATTR_QUEUE_SIZE, d->queue_size, nla_get_u32);
	GET_NUM(tb, RBLK_ATTR_KATO, d->kato, nla_get_u32);
	GET_NUM(tb, RBLK_ATTR_RECONNECT_DELAY, d->reconnect_delay,
		nla_get_u32);
	GET_NUM(tb, RBLK_ATTR_CTRL_LOSS_TMO, d->ctrl_loss_tmo, nla_get_s32);
	GET_NUM(tb, RBLK_ATTR_FAST_IO_FAIL_TMO, d->fast_io_fail_tmo,
		nla_get_s32);
	GET_NUM(tb, RBLK_ATTR_STATE, d->state, nla_get_u8);
	GET_NUM(tb, RBLK_ATTR_CNTLID, d->cntlid, nla_get_u16);
	GET_NUM(tb, RBLK_ATTR_SIZE, d->size, nla_get_u64);
	GET_NUM(tb, RBLK_ATTR_BLOCK_SIZE, d->block_size, nla_get_u32);
	GET_STR(tb, RBLK_ATTR_MODEL, d->model);
	GET_STR(tb, RBLK_ATTR_SERIAL, d->serial);
	GET_STR(tb, RBLK_ATTR_FIRMWARE, d->firmware);
}

static int parse_dev(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	(void)nlh;
	decode_dev(tb, arg);
	return 0;
}

int rnl_get(struct rnl *r, const struct cfg *cfg, struct dev_info *dev)
{
	memset(dev, 0, sizeof(*dev));
	return request(r, RBLK_CMD_GET, 0, put_dev, cfg, parse_dev, dev);
}

struct dev_vec {
	struct dev_info *v;
	size_t nr;
	size_t cap;
};

static int parse_dev_vec(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct dev_vec *vec = arg;

	(void)nlh;
	if (vec->nr == vec->cap) {
		size_t cap = vec->cap ? 2 * vec->cap : 8;
		struct dev_info *v = realloc(vec->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		vec->v = v;
		vec->cap = cap;
	}
	decode_dev(tb, &vec->v[vec->nr++]);
	return 0;
}

int rnl_list(struct rnl *r, struct dev_info **devs, size_t *nr)
{
	struct dev_vec vec = { 0 };
	int ret;

	ret = request(r, RBLK_CMD_GET, NLM_F_DUMP, NULL, NULL, parse_dev_vec,
		      &vec);
	if (ret) {
		free(vec.v);
		return ret;
	}
	*devs = vec.v;
	*nr = vec.nr;
	return 0;
}

static int parse_stats(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct nlattr *stb[RBLK_STAT_MAX + 1];
	struct dev_stats *st = arg;
	int i;

	(void)nlh;
	if (!tb[RBLK_ATTR_STATS] ||
	    nla_parse_nested(stb, RBLK_STAT_MAX, tb[RBLK_ATTR_STATS], NULL))
		return -EBADMSG;
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

int rnl_stats(struct rnl *r, const struct cfg *cfg, struct dev_stats *st)
{
	memset(st, 0, sizeof(*st));
	return request(r, RBLK_CMD_GET_STATS, 0, put_dev, cfg, parse_stats,
		       st);
}

int rnl_reset_stats(struct rnl *r, const struct cfg *cfg)
{
	return request(r, RBLK_CMD_RESET_STATS, 0, put_dev, cfg, NULL, NULL);
}

struct disc_vec {
	struct disc_entry *v;
	size_t nr;
	uint64_t numrec;
};

/* One RBLK_ATTR_DISC_ENTRY nest per record: walk them all. */
static int parse_disc(struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct nlattr *dtb[RBLK_DISC_MAX + 1], *nla;
	struct disc_vec *vec = arg;
	size_t n = 0;
	int rem;

	nla_for_each_attr(nla, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(nla) == RBLK_ATTR_DISC_ENTRY)
			n++;
	}
	vec->v = calloc(n ? n : 1, sizeof(*vec->v));
	if (!vec->v)
		return -ENOMEM;

	nla_for_each_attr(nla, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		struct disc_entry *e = &vec->v[vec->nr];

		if (nla_type(nla) != RBLK_ATTR_DISC_ENTRY)
			continue;
		if (nla_parse_nested(dtb, RBLK_DISC_MAX, nla, rnl_disc_policy))
			return -EBADMSG;
		GET_NUM(dtb, RBLK_DISC_TRTYPE, e->trtype, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_ADRFAM, e->adrfam, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_SUBTYPE, e->subtype, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_TREQ, e->treq, nla_get_u8);
		GET_NUM(dtb, RBLK_DISC_PORTID, e->portid, nla_get_u16);
		GET_NUM(dtb, RBLK_DISC_CNTLID, e->cntlid, nla_get_u16);
		GET_NUM(dtb, RBLK_DISC_ASQSZ, e->asqsz, nla_get_u16);
		GET_STR(dtb, RBLK_DISC_TRSVCID, e->trsvcid);
		GET_STR(dtb, RBLK_DISC_TRADDR, e->traddr);
		GET_STR(dtb, RBLK_DISC_SUBNQN, e->subnqn);
		vec->nr++;
	}
	/* A kernel without the attribute reports its whole log. */
	vec->numrec = vec->nr;
	GET_NUM(tb, RBLK_ATTR_DISC_NUMREC, vec->numrec, nla_get_u64);
	return 0;
}

int rnl_discover(struct rnl *r, const struct cfg *cfg,
		 struct disc_entry **entries, size_t *nr, uint64_t *numrec)
{
	struct disc_vec vec = { 0 };
	int ret;

	ret = request(r, RBLK_CMD_DISCOVER, 0, put_target, cfg, parse_disc,
		      &vec);
	if (ret) {
		free(vec.v);
		return ret;
	}
	*entries = vec.v;
	*nr = vec.nr;
	*numrec = vec.numrec;
	return 0;
}

/* --- monitor --- */

struct rnl_mon {
	struct rnl *r;
	rnl_event_fn fn;
	void *arg;
	uint32_t seen;
};

static int rnl_event_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[RBLK_ATTR_MAX + 1];
	struct rnl_mon *mon = arg;
	struct dev_event ev = { 0 };
	struct genlmsghdr *ghdr;

	if (nlh->nlmsg_type != mon->r->family ||
	    !genlmsg_valid_hdr(nlh, 0))
		return NL_SKIP;
	ghdr = nlmsg_data(nlh);
	if (ghdr->cmd != RBLK_CMD_EVENT ||
	    genlmsg_parse(nlh, 0, tb, RBLK_ATTR_MAX, rnl_policy) < 0 ||
	    !tb[RBLK_ATTR_EVENT])
		return NL_SKIP;

	ev.event = nla_get_u8(tb[RBLK_ATTR_EVENT]);
	GET_NUM(tb, RBLK_ATTR_INDEX, ev.index, nla_get_u32);
	GET_STR(tb, RBLK_ATTR_DISK_NAME, ev.name);
	GET_NUM(tb, RBLK_ATTR_STATE, ev.state, nla_get_u8);
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
