// SPDX-License-Identifier: GPL-2.0
/*
 * rblk control plane: the "rblk" generic netlink family.
 *
 * Requests are validated by strict per-command policies, so a handler only
 * sees attributes its command accepts, in range. What a policy cannot
 * express (address syntax, NQN form) is checked by validation callbacks
 * that point extack at the offending attribute.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/genetlink.h>

#include "rblk.h"

#define RBLK_TRTYPE_MAX_LEN	15

enum rblk_nl_mcgrp {
	RBLK_MCGRP_EVENTS,
};

/*
 * rblk_nl_notify() runs in any context, also while the family is being
 * unregistered: it multicasts only under RCU after seeing this set, and
 * rblk_nl_exit() clears it and waits for a grace period first.
 */
static bool rblk_nl_registered;

static struct genl_family rblk_genl_family;

/*
 * NL_SET_ERR_MSG() wants a literal; these take the static strings the core
 * and the NQN check pick at run time.
 */
static void rblk_nl_set_err_msg(struct netlink_ext_ack *extack,
				const char *msg)
{
	if (extack && msg)
		extack->_msg = msg;
}

static void rblk_nl_set_err_attr(struct netlink_ext_ack *extack,
				 const struct nlattr *attr, const char *msg)
{
	if (extack) {
		extack->_msg = msg;
		extack->bad_attr = attr;
	}
}

static int rblk_nl_validate_nqn(const struct nlattr *attr,
				struct netlink_ext_ack *extack,
				const char *msg)
{
	if (!rblk_nqn_valid(nla_data(attr))) {
		rblk_nl_set_err_attr(extack, attr, msg);
		return -EINVAL;
	}
	return 0;
}

static int rblk_nl_validate_subsysnqn(const struct nlattr *attr,
				      struct netlink_ext_ack *extack)
{
	return rblk_nl_validate_nqn(attr, extack, "invalid subsystem NQN");
}

static int rblk_nl_validate_hostnqn(const struct nlattr *attr,
				    struct netlink_ext_ack *extack)
{
	return rblk_nl_validate_nqn(attr, extack, "invalid host NQN");
}

static int rblk_nl_validate_trtype(const struct nlattr *attr,
				   struct netlink_ext_ack *extack)
{
	if (strcmp(nla_data(attr), "rdma")) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "unsupported transport type, only rdma");
		return -EINVAL;
	}
	return 0;
}

static int rblk_nl_validate_traddr(const struct nlattr *attr,
				   struct netlink_ext_ack *extack)
{
	struct sockaddr_storage ss;

	if (rblk_parse_traddr(nla_data(attr), 0, 0, &ss)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "traddr is not an IPv4/IPv6 address");
		return -EINVAL;
	}
	return 0;
}

static int rblk_nl_validate_trsvcid(const struct nlattr *attr,
				    struct netlink_ext_ack *extack)
{
	u16 port;

	if (rblk_parse_port(nla_data(attr), &port)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "trsvcid is not a port number 1-65535");
		return -EINVAL;
	}
	return 0;
}

/* Not const: the 6.1 policy macros take non-const range pointers. */
static struct netlink_range_validation rblk_index_range = {
	.max = INT_MAX,
};

/* NVME_NSID_ALL (0xffffffff) is a broadcast value, not a namespace. */
static struct netlink_range_validation rblk_nsid_range = {
	.min = 1,
	.max = NVME_NSID_ALL - 1,
};

static struct netlink_range_validation_signed rblk_tmo_range = {
	.min = -1,
	.max = RBLK_MAX_TMO,
};

#define RBLK_POLICY_TRTYPE						\
	NLA_POLICY_VALIDATE_FN(NLA_NUL_STRING, rblk_nl_validate_trtype,	\
			       RBLK_TRTYPE_MAX_LEN)
#define RBLK_POLICY_TRADDR						\
	NLA_POLICY_VALIDATE_FN(NLA_NUL_STRING, rblk_nl_validate_traddr,	\
			       RBLK_TRADDR_MAX_LEN)
#define RBLK_POLICY_TRSVCID						\
	NLA_POLICY_VALIDATE_FN(NLA_NUL_STRING, rblk_nl_validate_trsvcid, \
			       RBLK_TRSVCID_MAX_LEN)
#define RBLK_POLICY_SUBSYSNQN						\
	NLA_POLICY_VALIDATE_FN(NLA_NUL_STRING, rblk_nl_validate_subsysnqn, \
			       RBLK_NQN_MAX_LEN)
#define RBLK_POLICY_HOSTNQN						\
	NLA_POLICY_VALIDATE_FN(NLA_NUL_STRING, rblk_nl_validate_hostnqn, \
			       RBLK_NQN_MAX_LEN)

/*
 * Every policy spans all attributes so that info->attrs can be indexed by
 * any RBLK_ATTR_*; the ones a command does not take stay NLA_UNSPEC, which
 * strict validation rejects.
 */
static const struct nla_policy rblk_connect_policy[RBLK_ATTR_MAX + 1] = {
	[RBLK_ATTR_TRTYPE]		= RBLK_POLICY_TRTYPE,
	[RBLK_ATTR_ADRFAM]		= NLA_POLICY_RANGE(NLA_U8,
							   RBLK_ADRFAM_IPV4,
							   RBLK_ADRFAM_IPV6),
	[RBLK_ATTR_TRADDR]		= RBLK_POLICY_TRADDR,
	[RBLK_ATTR_TRSVCID]		= RBLK_POLICY_TRSVCID,
	[RBLK_ATTR_SUBSYSNQN]		= RBLK_POLICY_SUBSYSNQN,
	[RBLK_ATTR_NSID]		= NLA_POLICY_FULL_RANGE(NLA_U32,
								&rblk_nsid_range),
	[RBLK_ATTR_HOSTNQN]		= RBLK_POLICY_HOSTNQN,
	[RBLK_ATTR_HOSTID]		= NLA_POLICY_EXACT_LEN(RBLK_HOSTID_LEN),
	[RBLK_ATTR_NR_IO_QUEUES]	= NLA_POLICY_RANGE(NLA_U32, 1,
							   RBLK_MAX_IO_QUEUES),
	[RBLK_ATTR_QUEUE_SIZE]		= NLA_POLICY_RANGE(NLA_U32,
							   RBLK_MIN_QUEUE_SIZE,
							   RBLK_MAX_QUEUE_SIZE),
	[RBLK_ATTR_KATO]		= NLA_POLICY_MAX(NLA_U32, RBLK_MAX_KATO),
	[RBLK_ATTR_RECONNECT_DELAY]	= NLA_POLICY_RANGE(NLA_U32, 1,
							   RBLK_MAX_RECONNECT_DELAY),
	[RBLK_ATTR_CTRL_LOSS_TMO]	= NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32,
							&rblk_tmo_range),
	[RBLK_ATTR_FAST_IO_FAIL_TMO]	= NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32,
							&rblk_tmo_range),
};

/* Commands that name one existing device. */
static const struct nla_policy rblk_dev_policy[RBLK_ATTR_MAX + 1] = {
	[RBLK_ATTR_INDEX]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&rblk_index_range),
	[RBLK_ATTR_DISK_NAME]	= { .type = NLA_NUL_STRING,
				    .len = RBLK_DISK_NAME_LEN - 1 },
};

static const struct nla_policy rblk_discover_policy[RBLK_ATTR_MAX + 1] = {
	[RBLK_ATTR_TRTYPE]	= RBLK_POLICY_TRTYPE,
	[RBLK_ATTR_ADRFAM]	= NLA_POLICY_RANGE(NLA_U8, RBLK_ADRFAM_IPV4,
						   RBLK_ADRFAM_IPV6),
	[RBLK_ATTR_TRADDR]	= RBLK_POLICY_TRADDR,
	[RBLK_ATTR_TRSVCID]	= RBLK_POLICY_TRSVCID,
	[RBLK_ATTR_SUBSYSNQN]	= RBLK_POLICY_SUBSYSNQN,
	[RBLK_ATTR_HOSTNQN]	= RBLK_POLICY_HOSTNQN,
	[RBLK_ATTR_HOSTID]	= NLA_POLICY_EXACT_LEN(RBLK_HOSTID_LEN),
};

static int rblk_nl_put_str(struct sk_buff *skb, int type, const char *s,
			   size_t size)
{
	size_t len = strnlen(s, size);
	struct nlattr *nla;

	nla = nla_reserve(skb, type, len + 1);
	if (!nla)
		return -EMSGSIZE;
	memcpy(nla_data(nla), s, len);
	((char *)nla_data(nla))[len] = '\0';
	return 0;
}

/*
 * Discovery log strings are fixed-size fields padded with spaces, maybe
 * unterminated: their length without the padding.
 */
static size_t rblk_padded_len(const char *s, size_t size)
{
	size_t len = strnlen(s, size);

	while (len && s[len - 1] == ' ')
		len--;
	return len;
}

static int rblk_nl_put_padded(struct sk_buff *skb, int type, const char *s,
			      size_t size)
{
	return rblk_nl_put_str(skb, type, s, rblk_padded_len(s, size));
}

/*
 * Parse the address of a connect or discover request into @o. The address
 * is stored canonically so that duplicate detection compares addresses,
 * not spellings.
 */
static int rblk_nl_parse_addr(struct genl_info *info,
			      struct rblk_ctrl_opts *o)
{
	struct nlattr *attr = info->attrs[RBLK_ATTR_TRADDR];
	const char *addr = nla_data(attr);
	struct sockaddr_storage ss;
	u8 adrfam = 0;

	if (info->attrs[RBLK_ATTR_ADRFAM])
		adrfam = nla_get_u8(info->attrs[RBLK_ATTR_ADRFAM]);

	if (rblk_parse_traddr(addr, 0, 0, &ss)) {
		/* The policy let it through: cannot happen. */
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "traddr is not an IPv4/IPv6 address");
		return -EINVAL;
	}
	if (ss.ss_family == AF_INET) {
		o->adrfam = RBLK_ADRFAM_IPV4;
		snprintf(o->traddr, sizeof(o->traddr), "%pI4",
			 &((struct sockaddr_in *)&ss)->sin_addr);
	} else {
		o->adrfam = RBLK_ADRFAM_IPV6;
		snprintf(o->traddr, sizeof(o->traddr), "%pI6c",
			 &((struct sockaddr_in6 *)&ss)->sin6_addr);
	}
	if (adrfam && adrfam != o->adrfam) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[RBLK_ATTR_ADRFAM],
				    "adrfam does not match traddr");
		return -EINVAL;
	}

	if (info->attrs[RBLK_ATTR_TRSVCID]) {
		u16 port;

		/* Checked by the policy; parsed again to drop leading 0s. */
		if (rblk_parse_port(nla_data(info->attrs[RBLK_ATTR_TRSVCID]),
				    &port))
			return -EINVAL;
		snprintf(o->trsvcid, sizeof(o->trsvcid), "%u", port);
	}
	return 0;
}

static void rblk_nl_parse_host(struct genl_info *info,
			       struct rblk_ctrl_opts *o)
{
	if (info->attrs[RBLK_ATTR_HOSTNQN])
		nla_strscpy(o->hostnqn, info->attrs[RBLK_ATTR_HOSTNQN],
			    sizeof(o->hostnqn));
	if (info->attrs[RBLK_ATTR_HOSTID])
		memcpy(&o->hostid, nla_data(info->attrs[RBLK_ATTR_HOSTID]),
		       sizeof(o->hostid));
}

static int rblk_nl_parse_connect(struct genl_info *info,
				 struct rblk_ctrl_opts *o)
{
	struct nlattr **attrs = info->attrs;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, RBLK_ATTR_TRADDR)) {
		NL_SET_ERR_MSG(info->extack, "traddr is required");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, RBLK_ATTR_SUBSYSNQN)) {
		NL_SET_ERR_MSG(info->extack, "subsystem NQN is required");
		return -EINVAL;
	}

	rblk_opts_init(o);
	ret = rblk_nl_parse_addr(info, o);
	if (ret)
		return ret;

	nla_strscpy(o->subsysnqn, attrs[RBLK_ATTR_SUBSYSNQN],
		    sizeof(o->subsysnqn));
	if (!strcmp(o->subsysnqn, NVME_DISC_SUBSYS_NAME)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[RBLK_ATTR_SUBSYSNQN],
				    "the discovery subsystem has no namespaces, use discover");
		return -EINVAL;
	}
	rblk_nl_parse_host(info, o);

	if (attrs[RBLK_ATTR_NSID])
		o->nsid = nla_get_u32(attrs[RBLK_ATTR_NSID]);
	if (attrs[RBLK_ATTR_NR_IO_QUEUES])
		o->nr_io_queues = nla_get_u32(attrs[RBLK_ATTR_NR_IO_QUEUES]);
	if (attrs[RBLK_ATTR_QUEUE_SIZE])
		o->queue_size = nla_get_u32(attrs[RBLK_ATTR_QUEUE_SIZE]);
	if (attrs[RBLK_ATTR_KATO])
		o->kato = nla_get_u32(attrs[RBLK_ATTR_KATO]);
	if (attrs[RBLK_ATTR_RECONNECT_DELAY])
		o->reconnect_delay =
			nla_get_u32(attrs[RBLK_ATTR_RECONNECT_DELAY]);
	if (attrs[RBLK_ATTR_CTRL_LOSS_TMO])
		o->ctrl_loss_tmo = nla_get_s32(attrs[RBLK_ATTR_CTRL_LOSS_TMO]);
	if (attrs[RBLK_ATTR_FAST_IO_FAIL_TMO])
		o->fast_io_fail_tmo =
			nla_get_s32(attrs[RBLK_ATTR_FAST_IO_FAIL_TMO]);
	return 0;
}

static int rblk_nl_connect(struct sk_buff *skb, struct genl_info *info)
{
	const char *errmsg = NULL;
	struct rblk_ctrl_opts *opts;
	struct rblk_ctrl *ctrl;
	struct sk_buff *reply;
	void *hdr;
	int ret;

	/* Too big for the stack: three NQN-sized strings. */
	opts = kzalloc(sizeof(*opts), GFP_KERNEL);
	if (!opts)
		return -ENOMEM;
	ret = rblk_nl_parse_connect(info, opts);
	if (ret)
		goto out_free_opts;

	/*
	 * Allocate the answer before connecting: once the device exists,
	 * failing the request would tell the user it does not.
	 */
	reply = genlmsg_new(nla_total_size(sizeof(u32)) +
			    nla_total_size(RBLK_DISK_NAME_LEN), GFP_KERNEL);
	if (!reply) {
		ret = -ENOMEM;
		goto out_free_opts;
	}
	hdr = genlmsg_put_reply(reply, info, &rblk_genl_family, 0,
				RBLK_CMD_CONNECT);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto out_free_reply;
	}

	ctrl = rblk_ctrl_create(opts, &errmsg);
	if (IS_ERR(ctrl)) {
		ret = PTR_ERR(ctrl);
		rblk_nl_set_err_msg(info->extack, errmsg);
		goto out_free_reply;
	}

	/* Sized for this: cannot fail, and the device is there anyway. */
	ret = nla_put_u32(reply, RBLK_ATTR_INDEX, ctrl->index) ?:
	      nla_put_string(reply, RBLK_ATTR_DISK_NAME, ctrl->name);
	rblk_ctrl_put(ctrl);
	kfree(opts);
	if (WARN_ON_ONCE(ret)) {
		nlmsg_free(reply);
		return 0;
	}
	genlmsg_end(reply, hdr);
	return genlmsg_reply(reply, info);

out_free_reply:
	nlmsg_free(reply);
out_free_opts:
	kfree(opts);
	return ret;
}

/* The device a request names by index or by name (both must agree). */
static struct rblk_ctrl *rblk_nl_find_ctrl(struct genl_info *info)
{
	struct nlattr *index_attr = info->attrs[RBLK_ATTR_INDEX];
	struct nlattr *name_attr = info->attrs[RBLK_ATTR_DISK_NAME];
	struct rblk_ctrl *ctrl;

	if (!index_attr && !name_attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, RBLK_ATTR_INDEX);
		NL_SET_ERR_MSG(info->extack, "device index or name is required");
		return ERR_PTR(-EINVAL);
	}

	if (index_attr)
		ctrl = rblk_ctrl_find(nla_get_u32(index_attr), NULL);
	else
		ctrl = rblk_ctrl_find(-1, nla_data(name_attr));
	if (!ctrl) {
		if (index_attr)
			NL_SET_ERR_MSG_ATTR(info->extack, index_attr,
					    "no device has this index");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
					    "no device has this name");
		return ERR_PTR(-ENODEV);
	}
	if (index_attr && name_attr && strcmp(ctrl->name, nla_data(name_attr))) {
		rblk_ctrl_put(ctrl);
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "device index and name do not match");
		return ERR_PTR(-EINVAL);
	}
	return ctrl;
}

static int rblk_nl_disconnect(struct sk_buff *skb, struct genl_info *info)
{
	struct rblk_ctrl *ctrl;
	int ret;

	ctrl = rblk_nl_find_ctrl(info);
	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);

	ret = rblk_ctrl_delete(ctrl);
	if (ret == -EBUSY)
		NL_SET_ERR_MSG(info->extack, "device is still connecting");
	else if (ret == -EALREADY)
		NL_SET_ERR_MSG(info->extack, "device is already being deleted");
	rblk_ctrl_put(ctrl);
	return ret;
}

static int rblk_nl_fill_ctrl(struct sk_buff *skb, struct rblk_ctrl *ctrl,
			     u32 portid, u32 seq, int flags)
{
	const struct rblk_ctrl_opts *o = &ctrl->opts;
	u8 adrfam = o->adrfam;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &rblk_genl_family, flags,
			  RBLK_CMD_GET);
	if (!hdr)
		return -EMSGSIZE;

	if (!adrfam)
		adrfam = ctrl->addr.ss_family == AF_INET6 ? RBLK_ADRFAM_IPV6 :
							    RBLK_ADRFAM_IPV4;

	if (nla_put_u32(skb, RBLK_ATTR_INDEX, ctrl->index) ||
	    nla_put_string(skb, RBLK_ATTR_DISK_NAME, ctrl->name) ||
	    nla_put_string(skb, RBLK_ATTR_TRTYPE, "rdma") ||
	    nla_put_u8(skb, RBLK_ATTR_ADRFAM, adrfam) ||
	    nla_put_string(skb, RBLK_ATTR_TRADDR, o->traddr) ||
	    nla_put_string(skb, RBLK_ATTR_TRSVCID, o->trsvcid) ||
	    nla_put_string(skb, RBLK_ATTR_SUBSYSNQN, o->subsysnqn) ||
	    nla_put_u32(skb, RBLK_ATTR_NSID, o->nsid) ||
	    nla_put_string(skb, RBLK_ATTR_HOSTNQN, o->hostnqn) ||
	    nla_put(skb, RBLK_ATTR_HOSTID, sizeof(o->hostid), &o->hostid) ||
	    nla_put_u32(skb, RBLK_ATTR_NR_IO_QUEUES,
			READ_ONCE(ctrl->nr_io_queues)) ||
	    nla_put_u32(skb, RBLK_ATTR_QUEUE_SIZE, o->queue_size) ||
	    nla_put_u32(skb, RBLK_ATTR_KATO, o->kato) ||
	    nla_put_u32(skb, RBLK_ATTR_RECONNECT_DELAY, o->reconnect_delay) ||
	    nla_put_s32(skb, RBLK_ATTR_CTRL_LOSS_TMO, o->ctrl_loss_tmo) ||
	    nla_put_s32(skb, RBLK_ATTR_FAST_IO_FAIL_TMO,
			o->fast_io_fail_tmo) ||
	    nla_put_u8(skb, RBLK_ATTR_STATE, rblk_ctrl_state(ctrl)) ||
	    nla_put_u16(skb, RBLK_ATTR_CNTLID, READ_ONCE(ctrl->cntlid)) ||
	    nla_put_u64_64bit(skb, RBLK_ATTR_SIZE,
			      ctrl->nsze << ctrl->lba_shift, RBLK_ATTR_PAD) ||
	    nla_put_u32(skb, RBLK_ATTR_BLOCK_SIZE, 1U << ctrl->lba_shift) ||
	    rblk_nl_put_str(skb, RBLK_ATTR_MODEL, ctrl->model,
			    sizeof(ctrl->model)) ||
	    rblk_nl_put_str(skb, RBLK_ATTR_SERIAL, ctrl->serial,
			    sizeof(ctrl->serial)) ||
	    rblk_nl_put_str(skb, RBLK_ATTR_FIRMWARE, ctrl->firmware,
			    sizeof(ctrl->firmware))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int rblk_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rblk_ctrl *ctrl;
	struct sk_buff *reply;
	int ret;

	ctrl = rblk_nl_find_ctrl(info);
	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);

	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply) {
		ret = -ENOMEM;
		goto out_put;
	}
	ret = rblk_nl_fill_ctrl(reply, ctrl, info->snd_portid, info->snd_seq,
				0);
	if (ret) {
		nlmsg_free(reply);
		goto out_put;
	}
	ret = genlmsg_reply(reply, info);
out_put:
	rblk_ctrl_put(ctrl);
	return ret;
}

static int rblk_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	/* cb->args[0]: the lowest index not dumped yet. */
	int index = cb->args[0];
	struct rblk_ctrl *ctrl;
	int ret = 0;

	while ((ctrl = rblk_ctrl_next(&index))) {
		ret = rblk_nl_fill_ctrl(skb, ctrl,
					NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI);
		rblk_ctrl_put(ctrl);
		if (ret)
			break;
		index++;
	}
	cb->args[0] = index;

	/* A device that alone does not fit would otherwise end the dump. */
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

static int rblk_nl_put_stats(struct sk_buff *skb, const struct rblk_stats *s)
{
	static const struct {
		u16 type;
		u16 off;
	} map[] = {
#define RBLK_STAT(attr, field) \
		{ RBLK_STAT_##attr, offsetof(struct rblk_stats, field) }
		RBLK_STAT(READS, ios[RBLK_OP_READ]),
		RBLK_STAT(WRITES, ios[RBLK_OP_WRITE]),
		RBLK_STAT(FLUSHES, ios[RBLK_OP_FLUSH]),
		RBLK_STAT(DISCARDS, ios[RBLK_OP_DISCARD]),
		RBLK_STAT(READ_BYTES, bytes[RBLK_OP_READ]),
		RBLK_STAT(WRITE_BYTES, bytes[RBLK_OP_WRITE]),
		RBLK_STAT(DISCARD_BYTES, bytes[RBLK_OP_DISCARD]),
		RBLK_STAT(TIMEOUTS, timeouts),
		RBLK_STAT(RECONNECTS, reconnects),
		RBLK_STAT(RECONNECT_ATTEMPTS, reconnect_attempts),
		RBLK_STAT(INLINE_WRITES, inline_writes),
		RBLK_STAT(STATUS_GENERIC, errors[RBLK_ERR_GENERIC]),
		RBLK_STAT(STATUS_CMD, errors[RBLK_ERR_CMD]),
		RBLK_STAT(STATUS_MEDIA, errors[RBLK_ERR_MEDIA]),
		RBLK_STAT(STATUS_PATH, errors[RBLK_ERR_PATH]),
		RBLK_STAT(STATUS_VENDOR, errors[RBLK_ERR_VENDOR]),
#undef RBLK_STAT
	};
	struct nlattr *nest;
	u64 errors = 0;
	int i;

	nest = nla_nest_start(skb, RBLK_ATTR_STATS);
	if (!nest)
		return -EMSGSIZE;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		const u64 *v = (const void *)s + map[i].off;

		if (nla_put_u64_64bit(skb, map[i].type, *v, RBLK_STAT_PAD))
			goto cancel;
	}
	for (i = 0; i < RBLK_ERR_CLASSES; i++)
		errors += s->errors[i];
	if (nla_put_u64_64bit(skb, RBLK_STAT_ERRORS, errors, RBLK_STAT_PAD) ||
	    nla_put_64bit(skb, RBLK_STAT_LAT_HIST, sizeof(s->lat_hist),
			  s->lat_hist, RBLK_STAT_PAD))
		goto cancel;

	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int rblk_nl_get_stats(struct sk_buff *skb, struct genl_info *info)
{
	struct rblk_ctrl *ctrl;
	struct rblk_stats *s;
	struct sk_buff *reply;
	void *hdr;
	int ret;

	ctrl = rblk_nl_find_ctrl(info);
	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);

	ret = -ENOMEM;
	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		goto out_put;
	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply)
		goto out_free;

	ret = -EMSGSIZE;
	hdr = genlmsg_put_reply(reply, info, &rblk_genl_family, 0,
				RBLK_CMD_GET_STATS);
	if (!hdr)
		goto out_free_reply;

	rblk_stats_read(ctrl, s);
	if (nla_put_u32(reply, RBLK_ATTR_INDEX, ctrl->index) ||
	    nla_put_string(reply, RBLK_ATTR_DISK_NAME, ctrl->name) ||
	    rblk_nl_put_stats(reply, s))
		goto out_free_reply;
	genlmsg_end(reply, hdr);

	ret = genlmsg_reply(reply, info);
	reply = NULL;
out_free_reply:
	nlmsg_free(reply);
out_free:
	kfree(s);
out_put:
	rblk_ctrl_put(ctrl);
	return ret;
}

static int rblk_nl_reset_stats(struct sk_buff *skb, struct genl_info *info)
{
	struct rblk_ctrl *ctrl;

	ctrl = rblk_nl_find_ctrl(info);
	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);
	rblk_stats_reset(ctrl);
	rblk_ctrl_put(ctrl);
	return 0;
}

/*
 * The exact size of a record's nest: sized for the largest record, a full
 * log's reply would be ~160 KiB, and with the ACK behind it overrun a
 * default (208 KiB) socket receive buffer.
 */
static size_t rblk_nl_disc_entry_size(const struct nvmf_disc_rsp_page_entry *e)
{
	return nla_total_size(0) +			/* the nest */
	       4 * nla_total_size(sizeof(u8)) +		/* trtype..treq */
	       3 * nla_total_size(sizeof(u16)) +	/* portid..asqsz */
	       nla_total_size(rblk_padded_len(e->trsvcid,
					      sizeof(e->trsvcid)) + 1) +
	       nla_total_size(rblk_padded_len(e->traddr,
					      sizeof(e->traddr)) + 1) +
	       nla_total_size(rblk_padded_len(e->subnqn,
					      sizeof(e->subnqn)) + 1);
}

static int rblk_nl_put_disc_entry(struct sk_buff *skb,
				  const struct nvmf_disc_rsp_page_entry *e)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, RBLK_ATTR_DISC_ENTRY);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, RBLK_DISC_TRTYPE, e->trtype) ||
	    nla_put_u8(skb, RBLK_DISC_ADRFAM, e->adrfam) ||
	    nla_put_u8(skb, RBLK_DISC_SUBTYPE, e->subtype) ||
	    nla_put_u8(skb, RBLK_DISC_TREQ, e->treq) ||
	    nla_put_u16(skb, RBLK_DISC_PORTID, le16_to_cpu(e->portid)) ||
	    nla_put_u16(skb, RBLK_DISC_CNTLID, le16_to_cpu(e->cntlid)) ||
	    nla_put_u16(skb, RBLK_DISC_ASQSZ, le16_to_cpu(e->asqsz)) ||
	    rblk_nl_put_padded(skb, RBLK_DISC_TRSVCID, e->trsvcid,
			       sizeof(e->trsvcid)) ||
	    rblk_nl_put_padded(skb, RBLK_DISC_TRADDR, e->traddr,
			       sizeof(e->traddr)) ||
	    rblk_nl_put_padded(skb, RBLK_DISC_SUBNQN, e->subnqn,
			       sizeof(e->subnqn))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int rblk_nl_discover(struct sk_buff *skb, struct genl_info *info)
{
	struct nvmf_disc_rsp_page_entry *entries = NULL;
	const char *errmsg = NULL;
	struct rblk_ctrl_opts *opts;
	struct sk_buff *reply;
	u32 i, nr = 0;
	u64 numrec = 0;
	size_t size;
	void *hdr;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, RBLK_ATTR_TRADDR)) {
		NL_SET_ERR_MSG(info->extack, "traddr is required");
		return -EINVAL;
	}

	opts = kzalloc(sizeof(*opts), GFP_KERNEL);
	if (!opts)
		return -ENOMEM;
	rblk_opts_init(opts);
	ret = rblk_nl_parse_addr(info, opts);
	if (ret)
		goto out_free_opts;
	/* Empty: rblk_discover() asks the well-known discovery NQN. */
	if (info->attrs[RBLK_ATTR_SUBSYSNQN])
		nla_strscpy(opts->subsysnqn, info->attrs[RBLK_ATTR_SUBSYSNQN],
			    sizeof(opts->subsysnqn));
	rblk_nl_parse_host(info, opts);

	ret = rblk_discover(opts, &entries, &nr, &numrec, &errmsg);
	if (ret) {
		rblk_nl_set_err_msg(info->extack, errmsg);
		goto out_free_opts;
	}

	size = nla_total_size_64bit(sizeof(u64));
	for (i = 0; i < nr; i++)
		size += rblk_nl_disc_entry_size(&entries[i]);
	ret = -ENOMEM;
	reply = genlmsg_new(size, GFP_KERNEL);
	if (!reply)
		goto out_free_entries;
	ret = -EMSGSIZE;
	hdr = genlmsg_put_reply(reply, info, &rblk_genl_family, 0,
				RBLK_CMD_DISCOVER);
	if (!hdr ||
	    nla_put_u64_64bit(reply, RBLK_ATTR_DISC_NUMREC, numrec,
			      RBLK_ATTR_PAD))
		goto out_free_reply;
	for (i = 0; i < nr; i++) {
		if (rblk_nl_put_disc_entry(reply, &entries[i]))
			goto out_free_reply;
	}
	genlmsg_end(reply, hdr);

	ret = genlmsg_reply(reply, info);
	reply = NULL;
out_free_reply:
	nlmsg_free(reply);
out_free_entries:
	kvfree(entries);
out_free_opts:
	kfree(opts);
	return ret;
}

static const struct genl_ops rblk_genl_ops[] = {
	{
		.cmd		= RBLK_CMD_CONNECT,
		.flags		= GENL_ADMIN_PERM,
		.policy		= rblk_connect_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_connect,
	},
	{
		.cmd		= RBLK_CMD_DISCONNECT,
		.flags		= GENL_ADMIN_PERM,
		.policy		= rblk_dev_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_disconnect,
	},
	{
		.cmd		= RBLK_CMD_GET,
		.policy		= rblk_dev_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_get_doit,
		.dumpit		= rblk_nl_get_dumpit,
	},
	{
		.cmd		= RBLK_CMD_GET_STATS,
		.policy		= rblk_dev_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_get_stats,
	},
	{
		.cmd		= RBLK_CMD_DISCOVER,
		.flags		= GENL_ADMIN_PERM,
		.policy		= rblk_discover_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_discover,
	},
	{
		.cmd		= RBLK_CMD_RESET_STATS,
		.flags		= GENL_ADMIN_PERM,
		.policy		= rblk_dev_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_reset_stats,
	},
};

static const struct genl_multicast_group rblk_genl_mcgrps[] = {
	[RBLK_MCGRP_EVENTS] = { .name = RBLK_GENL_MCAST_EVENTS },
};

/*
 * Deliberately no MODULE_ALIAS_GENL_FAMILY(): the module takes parameters
 * (hostnqn) and is loaded by the administrator, not by a family lookup.
 */
static struct genl_family rblk_genl_family __ro_after_init = {
	.name		= RBLK_GENL_NAME,
	.version	= RBLK_GENL_VERSION,
	.module		= THIS_MODULE,
	.ops		= rblk_genl_ops,
	.n_ops		= ARRAY_SIZE(rblk_genl_ops),
	.mcgrps		= rblk_genl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(rblk_genl_mcgrps),
	/*
	 * A new family: every command gets strict attribute validation and
	 * has the reserved header fields and unknown nlmsg flags rejected.
	 */
	.resv_start_op	= 0,
	/* Connect and discover wait for the target: don't hold genl_mutex. */
	.parallel_ops	= true,
	.netnsok	= false,
};

/**
 * rblk_nl_notify() - multicast a device event on the "events" group
 * @ctrl: the device
 * @event: what happened
 *
 * Callable in atomic context; does nothing if nobody listens. Events are
 * advisory: one lost to memory pressure is not reported.
 */
void rblk_nl_notify(struct rblk_ctrl *ctrl, enum rblk_event event)
{
	struct sk_buff *skb;
	void *hdr;

	/* Discovery controllers are not devices. */
	if (ctrl->index < 0)
		return;

	rcu_read_lock();
	if (!READ_ONCE(rblk_nl_registered) ||
	    !genl_has_listeners(&rblk_genl_family, &init_net,
				RBLK_MCGRP_EVENTS))
		goto out_unlock;

	skb = genlmsg_new(2 * nla_total_size(sizeof(u8)) +
			  nla_total_size(sizeof(u32)) +
			  nla_total_size(RBLK_DISK_NAME_LEN), GFP_ATOMIC);
	if (!skb)
		goto out_unlock;
	hdr = genlmsg_put(skb, 0, 0, &rblk_genl_family, 0, RBLK_CMD_EVENT);
	if (!hdr)
		goto out_free;
	if (nla_put_u8(skb, RBLK_ATTR_EVENT, event) ||
	    nla_put_u32(skb, RBLK_ATTR_INDEX, ctrl->index) ||
	    nla_put_string(skb, RBLK_ATTR_DISK_NAME, ctrl->name) ||
	    nla_put_u8(skb, RBLK_ATTR_STATE, rblk_ctrl_state(ctrl)))
		goto out_free;
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&rblk_genl_family, skb, 0, RBLK_MCGRP_EVENTS,
			  GFP_ATOMIC);
	goto out_unlock;

out_free:
	nlmsg_free(skb);
out_unlock:
	rcu_read_unlock();
}

/**
 * rblk_nl_init() - register the generic netlink family
 *
 * Return: 0 or a negative errno.
 */
int rblk_nl_init(void)
{
	int ret;

	ret = genl_register_family(&rblk_genl_family);
	if (ret) {
		pr_err("cannot register generic netlink family: %d\n", ret);
		return ret;
	}
	WRITE_ONCE(rblk_nl_registered, true);
	return 0;
}

/**
 * rblk_nl_exit() - unregister the family
 *
 * Waits for running commands; later events are dropped.
 */
void rblk_nl_exit(void)
{
	WRITE_ONCE(rblk_nl_registered, false);
	synchronize_rcu();
	genl_unregister_family(&rblk_genl_family);
}
