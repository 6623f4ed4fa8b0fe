// SPDX-License-Identifier: GPL-2.0
/*
 * rblk control plane: the "rblk" generic netlink family.
 *
 * Requests are validated by strict per-command policies, so a handler only
 * sees attributes its command accepts, in range. What a policy cannot
 * express (address syntax, NQN form) is checked by validation callbacks
 * that point extack at the offending attribute.
 *
 * A request names a controller (CTRL_INDEX, CTRL_NAME) or a namespace
 * (INDEX, DISK_NAME); commands that act on controllers take a namespace
 * for its controller. A controller is described in one message, or, when
 * its namespaces do not fit, in several: each names the controller, the
 * first also carries its parameters, the others only more namespaces.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include <net/genetlink.h>

#include "rblk.h"
#include "stats.h"
#include "auth.h"

#define RBLK_TRTYPE_MAX_LEN	15

/*
 * Payload of the largest message a controller's answer is built in (a
 * 32 KiB buffer, what netlink_dump() uses at most): about a hundred
 * namespaces; a controller with more continues in further messages.
 */
#define RBLK_NL_MSG_MAX	(SKB_WITH_OVERHEAD(32768) - NLMSG_HDRLEN - GENL_HDRLEN)

enum rblk_nl_mcgrp {
	RBLK_MCGRP_EVENTS,
};

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

/*
 * What a target refused a connect with, as the ACK's cookie: the NVMe
 * status (u16, host order), then the DH-HMAC-CHAP reason (u8) if there is
 * one.  The message alone cannot name every status.
 */
static void rblk_nl_set_err_refusal(struct netlink_ext_ack *extack,
				    const struct rblk_refusal *refusal)
{
	u8 *cookie;

	if (!extack || (!refusal->status && !refusal->auth_reason))
		return;
	BUILD_BUG_ON(sizeof(refusal->status) + sizeof(refusal->auth_reason) >
		     NETLINK_MAX_COOKIE_LEN);
	cookie = extack->cookie;
	memcpy(cookie, &refusal->status, sizeof(refusal->status));
	extack->cookie_len = sizeof(refusal->status);
	if (refusal->auth_reason)
		cookie[extack->cookie_len++] = refusal->auth_reason;
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

/* The form of a key only; never quoted back. */
static int rblk_nl_validate_dhchap(const struct nlattr *attr,
				   struct netlink_ext_ack *extack)
{
	if (!rblk_dhchap_secret_valid(nla_data(attr))) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "not a DH-HMAC-CHAP key (DHHC-1:NN:<base64>:)");
		return -EINVAL;
	}
	return 0;
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

static int rblk_nl_validate_addr(const struct nlattr *attr,
				 struct netlink_ext_ack *extack,
				 const char *msg)
{
	struct sockaddr_storage ss;

	if (rblk_parse_traddr(nla_data(attr), 0, 0, &ss)) {
		rblk_nl_set_err_attr(extack, attr, msg);
		return -EINVAL;
	}
	return 0;
}

static int rblk_nl_validate_traddr(const struct nlattr *attr,
				   struct netlink_ext_ack *extack)
{
	return rblk_nl_validate_addr(attr, extack,
				     "traddr is not an IPv4/IPv6 address");
}

static int rblk_nl_validate_host_traddr(const struct nlattr *attr,
					struct netlink_ext_ack *extack)
{
	return rblk_nl_validate_addr(attr, extack,
				     "host_traddr is not an IPv4/IPv6 address");
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
#define RBLK_POLICY_HOST_TRADDR						\
	NLA_POLICY_VALIDATE_FN(NLA_NUL_STRING,				\
			       rblk_nl_validate_host_traddr,		\
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
 * On every kernel, so that one without the library refuses a key by name,
 * not as an unknown attribute.
 */
#define RBLK_POLICY_DHCHAP						\
	NLA_POLICY_VALIDATE_FN(NLA_NUL_STRING, rblk_nl_validate_dhchap,	\
			       RBLK_DHCHAP_SECRET_MAX_LEN)
#define RBLK_POLICY_INDEX						\
	NLA_POLICY_FULL_RANGE(NLA_U32, &rblk_index_range)
#define RBLK_POLICY_NAME						\
	{ .type = NLA_NUL_STRING, .len = RBLK_DISK_NAME_LEN - 1 }

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
	[RBLK_ATTR_NR_POLL_QUEUES]	= NLA_POLICY_MAX(NLA_U32,
							 RBLK_MAX_POLL_QUEUES),
	[RBLK_ATTR_NR_WRITE_QUEUES]	= NLA_POLICY_MAX(NLA_U32,
							 RBLK_MAX_WRITE_QUEUES),
	[RBLK_ATTR_KATO]		= NLA_POLICY_MAX(NLA_U32, RBLK_MAX_KATO),
	[RBLK_ATTR_RECONNECT_DELAY]	= NLA_POLICY_RANGE(NLA_U32, 1,
							   RBLK_MAX_RECONNECT_DELAY),
	[RBLK_ATTR_CTRL_LOSS_TMO]	= NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32,
							&rblk_tmo_range),
	[RBLK_ATTR_FAST_IO_FAIL_TMO]	= NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32,
							&rblk_tmo_range),
	[RBLK_ATTR_DUPLICATE_CONNECT]	= { .type = NLA_FLAG },
	[RBLK_ATTR_HOST_TRADDR]		= RBLK_POLICY_HOST_TRADDR,
	[RBLK_ATTR_TOS]			= { .type = NLA_U8 },
	[RBLK_ATTR_DHCHAP_SECRET]	= RBLK_POLICY_DHCHAP,
	[RBLK_ATTR_DHCHAP_CTRL_SECRET]	= RBLK_POLICY_DHCHAP,
	[RBLK_ATTR_DHCHAP_KEY_DEFAULT]	= { .type = NLA_FLAG },
};

/* Commands that name one existing controller or namespace. */
static const struct nla_policy rblk_dev_policy[RBLK_ATTR_MAX + 1] = {
	[RBLK_ATTR_INDEX]	= RBLK_POLICY_INDEX,
	[RBLK_ATTR_DISK_NAME]	= RBLK_POLICY_NAME,
	[RBLK_ATTR_CTRL_INDEX]	= RBLK_POLICY_INDEX,
	[RBLK_ATTR_CTRL_NAME]	= RBLK_POLICY_NAME,
};

/* RBLK_CMD_SET: what names a controller, and the settings. */
static const struct nla_policy rblk_set_policy[RBLK_ATTR_MAX + 1] = {
	[RBLK_ATTR_INDEX]	= RBLK_POLICY_INDEX,
	[RBLK_ATTR_DISK_NAME]	= RBLK_POLICY_NAME,
	[RBLK_ATTR_CTRL_INDEX]	= RBLK_POLICY_INDEX,
	[RBLK_ATTR_CTRL_NAME]	= RBLK_POLICY_NAME,
	[RBLK_ATTR_IOPOLICY]	= NLA_POLICY_MAX(NLA_U8,
						 __RBLK_IOPOLICY_MAX - 1),
};

/* RBLK_CMD_GET_SUBSYS: a subsystem by name, or none for a dump. */
static const struct nla_policy rblk_subsys_policy[RBLK_ATTR_MAX + 1] = {
	[RBLK_ATTR_SUBSYS_NAME]	= RBLK_POLICY_NAME,
};

/* RBLK_CMD_GET_HEAD: a head by index or name, or none for a dump. */
static const struct nla_policy rblk_head_policy[RBLK_ATTR_MAX + 1] = {
	[RBLK_ATTR_INDEX]	= RBLK_POLICY_INDEX,
	[RBLK_ATTR_DISK_NAME]	= RBLK_POLICY_NAME,
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
	[RBLK_ATTR_HOST_TRADDR]	= RBLK_POLICY_HOST_TRADDR,
	[RBLK_ATTR_TOS]		= { .type = NLA_U8 },
	[RBLK_ATTR_DHCHAP_SECRET]	= RBLK_POLICY_DHCHAP,
	[RBLK_ATTR_DHCHAP_CTRL_SECRET]	= RBLK_POLICY_DHCHAP,
	[RBLK_ATTR_DHCHAP_KEY_DEFAULT]	= { .type = NLA_FLAG },
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
 * An address attribute in canonical form into @buf, so that duplicate
 * detection compares addresses, not spellings; a link-local IPv6 address
 * keeps its scope as an interface index.  *@adrfam: the family it must be,
 * or 0 for either; set to the one it is.  The policy checked the syntax:
 * -EINVAL means the family was wrong.
 */
static int rblk_nl_canon_addr(struct nlattr *attr, u8 *adrfam, char *buf,
			      size_t len)
{
	struct sockaddr_storage ss;

	if (rblk_parse_traddr(nla_data(attr), 0, *adrfam, &ss))
		return -EINVAL;
	if (ss.ss_family == AF_INET) {
		*adrfam = RBLK_ADRFAM_IPV4;
		snprintf(buf, len, "%pI4",
			 &((struct sockaddr_in *)&ss)->sin_addr);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		*adrfam = RBLK_ADRFAM_IPV6;
		if (in6->sin6_scope_id)
			snprintf(buf, len, "%pI6c%%%u", &in6->sin6_addr,
				 in6->sin6_scope_id);
		else
			snprintf(buf, len, "%pI6c", &in6->sin6_addr);
	}
	return 0;
}

/* The addresses of a connect or discover request into @o. */
static int rblk_nl_parse_addr(struct genl_info *info,
			      struct rblk_ctrl_opts *o)
{
	struct nlattr **attrs = info->attrs;
	u8 adrfam = 0;

	if (attrs[RBLK_ATTR_ADRFAM])
		adrfam = nla_get_u8(attrs[RBLK_ATTR_ADRFAM]);
	if (rblk_nl_canon_addr(attrs[RBLK_ATTR_TRADDR], &adrfam, o->traddr,
			       sizeof(o->traddr))) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[RBLK_ATTR_ADRFAM],
				    "adrfam does not match traddr");
		return -EINVAL;
	}
	o->adrfam = adrfam;
	if (attrs[RBLK_ATTR_HOST_TRADDR] &&
	    rblk_nl_canon_addr(attrs[RBLK_ATTR_HOST_TRADDR], &adrfam,
			       o->host_traddr, sizeof(o->host_traddr))) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[RBLK_ATTR_HOST_TRADDR],
				    "host_traddr is not of traddr's address family");
		return -EINVAL;
	}

	if (attrs[RBLK_ATTR_TRSVCID]) {
		u16 port;

		/* Checked by the policy; parsed again to drop leading 0s. */
		if (rblk_parse_port(nla_data(attrs[RBLK_ATTR_TRSVCID]), &port))
			return -EINVAL;
		snprintf(o->trsvcid, sizeof(o->trsvcid), "%u", port);
	}
	return 0;
}

static int rblk_nl_parse_host(struct genl_info *info,
			      struct rblk_ctrl_opts *o)
{
	struct nlattr **attrs = info->attrs;

	if (attrs[RBLK_ATTR_HOSTNQN]) {
		nla_strscpy(o->hostnqn, attrs[RBLK_ATTR_HOSTNQN],
			    sizeof(o->hostnqn));
		if (!attrs[RBLK_ATTR_HOSTID] &&
		    rblk_default_hostid(o->hostnqn, &o->hostid))
			return -ENOMEM;
	}
	if (attrs[RBLK_ATTR_HOSTID])
		memcpy(&o->hostid, nla_data(attrs[RBLK_ATTR_HOSTID]),
		       sizeof(o->hostid));
	if (attrs[RBLK_ATTR_TOS])
		o->tos = nla_get_u8(attrs[RBLK_ATTR_TOS]);
	return 0;
}

/*
 * The DH-HMAC-CHAP keys of a connect or discover into @o, parsed: the
 * strings are not kept.  The attribute blamed is the one refused.
 */
static int rblk_nl_parse_keys(struct genl_info *info,
			      struct rblk_ctrl_opts *o)
{
	struct nlattr *host = info->attrs[RBLK_ATTR_DHCHAP_SECRET];
	struct nlattr *ctrl = info->attrs[RBLK_ATTR_DHCHAP_CTRL_SECRET];
	bool is_default = nla_get_flag(info->attrs[RBLK_ATTR_DHCHAP_KEY_DEFAULT]);
	const char *errmsg = NULL;
	bool ctrl_refused;
	int ret;

	ret = rblk_auth_keys_parse(o, host ? nla_data(host) : NULL,
				   ctrl ? nla_data(ctrl) : NULL, is_default,
				   &errmsg, &ctrl_refused);
	if (ret)
		rblk_nl_set_err_attr(info->extack, ctrl_refused ? ctrl : host,
				     errmsg);
	return ret;
}

/* Options from a request, with the keys it may hold. */
static void rblk_nl_free_opts(struct rblk_ctrl_opts *o)
{
	rblk_auth_keys_free(o);
	kfree(o);
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
	/* As nvme-fabrics: a persistent discovery controller. */
	o->discovery = !strcmp(o->subsysnqn, NVME_DISC_SUBSYS_NAME);
	ret = rblk_nl_parse_host(info, o);
	if (ret)
		return ret;

	/* Without it, every namespace of the subsystem. */
	if (attrs[RBLK_ATTR_NSID])
		o->nsid = nla_get_u32(attrs[RBLK_ATTR_NSID]);
	if (attrs[RBLK_ATTR_NR_IO_QUEUES])
		o->nr_io_queues = nla_get_u32(attrs[RBLK_ATTR_NR_IO_QUEUES]);
	if (attrs[RBLK_ATTR_QUEUE_SIZE])
		o->queue_size = nla_get_u32(attrs[RBLK_ATTR_QUEUE_SIZE]);
	if (attrs[RBLK_ATTR_NR_POLL_QUEUES])
		o->nr_poll_queues = nla_get_u32(attrs[RBLK_ATTR_NR_POLL_QUEUES]);
	if (attrs[RBLK_ATTR_NR_WRITE_QUEUES])
		o->nr_write_queues =
			nla_get_u32(attrs[RBLK_ATTR_NR_WRITE_QUEUES]);
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
	o->duplicate_connect =
		nla_get_flag(attrs[RBLK_ATTR_DUPLICATE_CONNECT]);
	if (o->discovery) {
		/*
		 * As recent nvme-core: without keep-alive the target
		 * drops an idle persistent discovery controller.
		 */
		if (!o->kato)
			o->kato = RBLK_DEF_KATO;
		/* Its log is all it serves. */
		o->nsid = 0;
		o->nr_io_queues = 0;
		o->nr_poll_queues = 0;
		o->nr_write_queues = 0;
	}
	/* Last: nothing after it fails, so nothing else frees them. */
	return rblk_nl_parse_keys(info, o);
}

/* --- naming a controller or a namespace --- */

/*
 * The namespace named by INDEX or DISK_NAME (both must agree), on @ctrl
 * if not NULL: with multipath, a head's path through that controller.
 */
static struct rblk_ns *rblk_nl_lookup_ns(struct genl_info *info,
					 struct rblk_ctrl *ctrl)
{
	struct nlattr *index_attr = info->attrs[RBLK_ATTR_INDEX];
	struct nlattr *name_attr = info->attrs[RBLK_ATTR_DISK_NAME];
	struct rblk_ns *ns;

	if (index_attr)
		ns = rblk_ns_find(ctrl, nla_get_u32(index_attr), NULL);
	else
		ns = rblk_ns_find(ctrl, -1, nla_data(name_attr));
	if (!ns && ctrl) {
		/* Elsewhere, or nowhere? */
		ns = rblk_nl_lookup_ns(info, NULL);
		if (IS_ERR(ns))
			return ns;
		rblk_ns_put(ns);
		NL_SET_ERR_MSG(info->extack,
			       "the device is not on this controller");
		return ERR_PTR(-EINVAL);
	}
	if (!ns) {
		if (index_attr)
			NL_SET_ERR_MSG_ATTR(info->extack, index_attr,
					    "no device has this index");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
					    "no device has this name");
		return ERR_PTR(-ENODEV);
	}
	if (index_attr && name_attr && strcmp(ns->name, nla_data(name_attr))) {
		rblk_ns_put(ns);
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "device index and name do not match");
		return ERR_PTR(-EINVAL);
	}
	return ns;
}

/* The controller named by CTRL_INDEX or CTRL_NAME (both must agree). */
static struct rblk_ctrl *rblk_nl_lookup_ctrl(struct genl_info *info)
{
	struct nlattr *index_attr = info->attrs[RBLK_ATTR_CTRL_INDEX];
	struct nlattr *name_attr = info->attrs[RBLK_ATTR_CTRL_NAME];
	struct rblk_ctrl *ctrl;

	if (index_attr)
		ctrl = rblk_ctrl_find(nla_get_u32(index_attr), NULL);
	else
		ctrl = rblk_ctrl_find(-1, nla_data(name_attr));
	if (!ctrl) {
		if (index_attr)
			NL_SET_ERR_MSG_ATTR(info->extack, index_attr,
					    "no controller has this index");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
					    "no controller has this name");
		return ERR_PTR(-ENODEV);
	}
	if (index_attr && name_attr && strcmp(ctrl->name, nla_data(name_attr))) {
		rblk_ctrl_put(ctrl);
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "controller index and name do not match");
		return ERR_PTR(-EINVAL);
	}
	return ctrl;
}

/* Whether a request names a controller (maybe besides a namespace). */
static bool rblk_nl_names_ctrl(struct genl_info *info)
{
	return info->attrs[RBLK_ATTR_CTRL_INDEX] ||
	       info->attrs[RBLK_ATTR_CTRL_NAME];
}

/*
 * What a request names: a controller, or a namespace and its controller.
 * *@ctrlp is set with a reference; so is *@nsp, to the namespace or NULL,
 * unless @nsp is NULL: the command acts on controllers, and a namespace
 * only stands for its own. A request naming both must name a namespace of
 * that controller.
 */
static int rblk_nl_find(struct genl_info *info, struct rblk_ctrl **ctrlp,
			struct rblk_ns **nsp)
{
	struct nlattr **attrs = info->attrs;
	bool by_ns = attrs[RBLK_ATTR_INDEX] || attrs[RBLK_ATTR_DISK_NAME];
	bool by_ctrl = rblk_nl_names_ctrl(info);
	struct rblk_ctrl *ctrl = NULL;
	struct rblk_ns *ns = NULL;

	if (!by_ns && !by_ctrl) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, RBLK_ATTR_INDEX);
		NL_SET_ERR_MSG(info->extack, "device index or name is required");
		return -EINVAL;
	}

	if (by_ctrl) {
		ctrl = rblk_nl_lookup_ctrl(info);
		if (IS_ERR(ctrl))
			return PTR_ERR(ctrl);
	}
	if (by_ns) {
		ns = rblk_nl_lookup_ns(info, ctrl);
		if (IS_ERR(ns)) {
			if (ctrl)
				rblk_ctrl_put(ctrl);
			return PTR_ERR(ns);
		}
		if (!ctrl) {
			/* The namespace holds it: safe to take another. */
			ctrl = ns->ctrl;
			rblk_ctrl_get(ctrl);
		}
	}

	*ctrlp = ctrl;
	if (nsp)
		*nsp = ns;
	else if (ns)
		rblk_ns_put(ns);
	return 0;
}

/* --- describing controllers and namespaces --- */

/* The largest RBLK_ATTR_NS nest rblk_nl_put_ns() makes. */
static size_t rblk_nl_ns_size(void)
{
	return nla_total_size(0) +			/* the nest */
	       3 * nla_total_size(sizeof(u32)) +	/* index, nsid, lbs */
	       nla_total_size(RBLK_DISK_NAME_LEN) +
	       nla_total_size_64bit(sizeof(u64)) +	/* size */
	       nla_total_size(RBLK_WWID_MAX_LEN) +
	       nla_total_size(RBLK_NGUID_LEN) +
	       nla_total_size(RBLK_EUI64_LEN) +
	       nla_total_size(RBLK_UUID_LEN) +
	       nla_total_size(RBLK_DISK_NAME_LEN) +	/* path name */
	       nla_total_size(sizeof(u32)) +		/* ANA group */
	       nla_total_size(sizeof(u8));		/* ANA state */
}

/* CTRL_INDEX and CTRL_NAME, in every message about a controller. */
static size_t rblk_nl_ctrl_id_size(void)
{
	return nla_total_size(sizeof(u32)) +
	       nla_total_size(RBLK_DISK_NAME_LEN);
}

/* What rblk_nl_put_ctrl_attrs() adds at most. */
static size_t rblk_nl_ctrl_attrs_size(void)
{
	return nla_total_size(sizeof("rdma")) +
	       7 * nla_total_size(sizeof(u8)) +	/* adrfam .. iopolicy, dhchap */
	       2 * nla_total_size(RBLK_TRADDR_MAX_LEN + 1) +	/* and host's */
	       nla_total_size(RBLK_TRSVCID_MAX_LEN + 1) +
	       2 * nla_total_size(NVMF_NQN_SIZE + 1) +	/* subsys, host */
	       nla_total_size(sizeof(uuid_t)) +		/* hostid */
	       9 * nla_total_size(sizeof(u32)) +	/* nsid .. tmos, poll, write */
	       nla_total_size(sizeof(u16)) +		/* cntlid */
	       nla_total_size(0) +			/* scanned */
	       nla_total_size(sizeof_field(struct rblk_ctrl, model)) +
	       nla_total_size(sizeof_field(struct rblk_ctrl, serial)) +
	       nla_total_size(sizeof_field(struct rblk_ctrl, firmware));
}

/*
 * Which DH-HMAC-CHAP keys the controller holds and, if its last connect
 * authenticated, with what: never a key.
 */
static int rblk_nl_put_dhchap(struct sk_buff *skb, struct rblk_ctrl *ctrl)
{
	const struct rblk_ctrl_opts *o = &ctrl->opts;
	u32 result = READ_ONCE(ctrl->auth_result);
	u8 flags = 0;

	if (o->host_key)
		flags |= RBLK_DHCHAP_F_HOST_KEY;
	if (o->ctrl_key)
		flags |= RBLK_DHCHAP_F_CTRL_KEY;
	if (RBLK_AUTH_RESULT_BIDIR(result))
		flags |= RBLK_DHCHAP_F_BIDIRECTIONAL;
	if (flags && nla_put_u8(skb, RBLK_ATTR_DHCHAP_FLAGS, flags))
		return -EMSGSIZE;
	if (result &&
	    (nla_put_u8(skb, RBLK_ATTR_DHCHAP_HASH,
			RBLK_AUTH_RESULT_HASH(result)) ||
	     nla_put_u8(skb, RBLK_ATTR_DHCHAP_DHGROUP,
			RBLK_AUTH_RESULT_DHGROUP(result))))
		return -EMSGSIZE;
	return 0;
}

/* The I/O policy of the controller's subsystem, with multipath. */
static int rblk_nl_put_iopolicy(struct sk_buff *skb, struct rblk_ctrl *ctrl)
{
	struct rblk_subsys *subsys;
	int ret = 0;

	if (!rblk_multipath)
		return 0;
	subsys = rblk_ctrl_get_subsys(ctrl);
	if (subsys) {
		ret = nla_put_u8(skb, RBLK_ATTR_IOPOLICY,
				 READ_ONCE(subsys->iopolicy));
		rblk_subsys_put(subsys);
	}
	return ret;
}

static int rblk_nl_put_ctrl_attrs(struct sk_buff *skb,
				  struct rblk_ctrl *ctrl)
{
	const struct rblk_ctrl_opts *o = &ctrl->opts;
	u8 adrfam = o->adrfam;

	if (!adrfam)
		adrfam = ctrl->addr.ss_family == AF_INET6 ? RBLK_ADRFAM_IPV6 :
							    RBLK_ADRFAM_IPV4;

	if (nla_put_string(skb, RBLK_ATTR_TRTYPE, "rdma") ||
	    nla_put_u8(skb, RBLK_ATTR_ADRFAM, adrfam) ||
	    nla_put_string(skb, RBLK_ATTR_TRADDR, o->traddr) ||
	    nla_put_string(skb, RBLK_ATTR_TRSVCID, o->trsvcid) ||
	    (o->host_traddr[0] &&
	     nla_put_string(skb, RBLK_ATTR_HOST_TRADDR, o->host_traddr)) ||
	    (o->tos >= 0 && nla_put_u8(skb, RBLK_ATTR_TOS, o->tos)) ||
	    nla_put_string(skb, RBLK_ATTR_SUBSYSNQN, o->subsysnqn) ||
	    /* Only a filter: without it, every namespace is there. */
	    (o->nsid && nla_put_u32(skb, RBLK_ATTR_NSID, o->nsid)) ||
	    nla_put_string(skb, RBLK_ATTR_HOSTNQN, o->hostnqn) ||
	    nla_put(skb, RBLK_ATTR_HOSTID, sizeof(o->hostid), &o->hostid) ||
	    nla_put_u32(skb, RBLK_ATTR_NR_IO_QUEUES,
			READ_ONCE(ctrl->nr_io_queues)) ||
	    nla_put_u32(skb, RBLK_ATTR_QUEUE_SIZE, o->queue_size) ||
	    nla_put_u32(skb, RBLK_ATTR_NR_POLL_QUEUES,
			READ_ONCE(ctrl->nr_poll_queues)) ||
	    nla_put_u32(skb, RBLK_ATTR_NR_WRITE_QUEUES,
			READ_ONCE(ctrl->nr_write_queues)) ||
	    nla_put_u32(skb, RBLK_ATTR_KATO, o->kato) ||
	    nla_put_u32(skb, RBLK_ATTR_RECONNECT_DELAY, o->reconnect_delay) ||
	    nla_put_s32(skb, RBLK_ATTR_CTRL_LOSS_TMO, o->ctrl_loss_tmo) ||
	    nla_put_s32(skb, RBLK_ATTR_FAST_IO_FAIL_TMO,
			o->fast_io_fail_tmo) ||
	    nla_put_u8(skb, RBLK_ATTR_STATE, rblk_ctrl_state(ctrl)) ||
	    (completion_done(&ctrl->first_scan) &&
	     nla_put_flag(skb, RBLK_ATTR_SCANNED)) ||
	    nla_put_u16(skb, RBLK_ATTR_CNTLID, READ_ONCE(ctrl->cntlid)) ||
	    rblk_nl_put_str(skb, RBLK_ATTR_MODEL, ctrl->model,
			    sizeof(ctrl->model)) ||
	    rblk_nl_put_str(skb, RBLK_ATTR_SERIAL, ctrl->serial,
			    sizeof(ctrl->serial)) ||
	    rblk_nl_put_str(skb, RBLK_ATTR_FIRMWARE, ctrl->firmware,
			    sizeof(ctrl->firmware)) ||
	    rblk_nl_put_dhchap(skb, ctrl) ||
	    rblk_nl_put_iopolicy(skb, ctrl))
		return -EMSGSIZE;
	return 0;
}

/*
 * With multipath, which path @ns is and its ANA group and state (racy
 * reads: also in atomic context, for events).
 */
static int rblk_nl_put_path(struct sk_buff *skb, const struct rblk_ns *ns)
{
	u8 state = READ_ONCE(ns->ana_state);

	if (!ns->head)
		return 0;
	if (nla_put_string(skb, RBLK_NS_ATTR_PATH_NAME, ns->disk->disk_name) ||
	    nla_put_u32(skb, RBLK_NS_ATTR_ANA_GRPID, READ_ONCE(ns->ana_grpid)) ||
	    (state && nla_put_u8(skb, RBLK_NS_ATTR_ANA_STATE, state)))
		return -EMSGSIZE;
	return 0;
}

/* What names a namespace, and its format as @nsze and @lba_shift say. */
static int rblk_nl_put_ns_id(struct sk_buff *skb, const struct rblk_ns *ns,
			     u64 nsze, u8 lba_shift)
{
	if (nla_put_u32(skb, RBLK_NS_ATTR_INDEX, ns->index) ||
	    nla_put_string(skb, RBLK_NS_ATTR_DISK_NAME, ns->name) ||
	    nla_put_u32(skb, RBLK_NS_ATTR_NSID, ns->nsid) ||
	    nla_put_u64_64bit(skb, RBLK_NS_ATTR_SIZE, nsze << lba_shift,
			      RBLK_NS_ATTR_PAD) ||
	    nla_put_u32(skb, RBLK_NS_ATTR_BLOCK_SIZE, 1U << lba_shift))
		return -EMSGSIZE;
	return rblk_nl_put_path(skb, ns);
}

/* One RBLK_ATTR_NS nest with everything known of @ns; may sleep. */
static int rblk_nl_put_ns(struct sk_buff *skb, struct rblk_ns *ns)
{
	char wwid[RBLK_WWID_MAX_LEN];
	struct rblk_ns_info info;
	const struct rblk_ns_ids *ids = &info.ids;
	struct nlattr *nest;

	/* A copy: a rescan or reconnect may change the format meanwhile. */
	mutex_lock(&ns->lock);
	info = ns->info;
	mutex_unlock(&ns->lock);
	/* Takes ns->lock itself. */
	rblk_ns_wwid(ns, wwid, sizeof(wwid));

	nest = nla_nest_start(skb, RBLK_ATTR_NS);
	if (!nest)
		return -EMSGSIZE;
	if (rblk_nl_put_ns_id(skb, ns, info.nsze, info.lba_shift) ||
	    nla_put_string(skb, RBLK_NS_ATTR_WWID, wwid) ||
	    /* The identifiers only if the namespace reports them. */
	    (rblk_ns_has_nguid(ids) &&
	     nla_put(skb, RBLK_NS_ATTR_NGUID, sizeof(ids->nguid),
		     ids->nguid)) ||
	    (rblk_ns_has_eui64(ids) &&
	     nla_put(skb, RBLK_NS_ATTR_EUI64, sizeof(ids->eui64),
		     ids->eui64)) ||
	    (rblk_ns_has_uuid(ids) &&
	     nla_put(skb, RBLK_NS_ATTR_UUID, sizeof(ids->uuid), &ids->uuid))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Namespaces of @ctrl that users see, from nsid @pos on. */
static unsigned int rblk_nl_count_ns(struct rblk_ctrl *ctrl, u32 pos)
{
	unsigned int nr = 0;
	struct rblk_ns *ns;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		nr += ns->nsid >= pos && rblk_ns_visible(ns);
	up_read(&ctrl->namespaces_rwsem);
	return nr;
}

/*
 * Room for the message rblk_nl_fill_ctrl() makes next, within one
 * message's limit; at least one namespace fits, should one appear.
 */
static size_t rblk_nl_ctrl_msg_size(struct rblk_ctrl *ctrl, u8 cmd, u32 pos)
{
	size_t size = rblk_nl_ctrl_id_size();
	unsigned int nr = rblk_nl_count_ns(ctrl, pos);

	if (cmd == RBLK_CMD_GET && !pos)
		size += rblk_nl_ctrl_attrs_size();
	size += max(nr, 1U) * rblk_nl_ns_size();
	return min_t(size_t, size, RBLK_NL_MSG_MAX);
}

/*
 * One @cmd message about @ctrl in @skb: its name, for the first message
 * (*@pos 0) of RBLK_CMD_GET its parameters, then as many of its
 * namespaces with nsid *@pos or above as fit (the list is sorted by nsid).
 *
 * Return: 0 when the controller is complete; 1 when the message is full
 * and the controller continues at namespace *@pos in another one; or
 * -EMSGSIZE when nothing of it fit (@skb is left as it was).
 */
static int rblk_nl_fill_ctrl(struct sk_buff *skb, struct rblk_ctrl *ctrl,
			     u8 cmd, u32 portid, u32 seq, int flags, u32 *pos)
{
	bool attrs = cmd == RBLK_CMD_GET && !*pos;
	bool progress = attrs;
	struct rblk_ns *ns;
	u32 next = 0;
	int ret = 0;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &rblk_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, RBLK_ATTR_CTRL_INDEX, ctrl->index) ||
	    nla_put_string(skb, RBLK_ATTR_CTRL_NAME, ctrl->name) ||
	    (attrs && rblk_nl_put_ctrl_attrs(skb, ctrl)))
		goto cancel;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry) {
		if (ns->nsid < *pos || !rblk_ns_visible(ns))
			continue;
		if (rblk_nl_put_ns(skb, ns)) {
			next = ns->nsid;
			ret = 1;
			break;
		}
		progress = true;
	}
	up_read(&ctrl->namespaces_rwsem);

	/* A message with nothing new would repeat forever. */
	if (ret && !progress)
		goto cancel;
	genlmsg_end(skb, hdr);
	if (ret)
		*pos = next;
	return ret;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * Answer @info with @ctrl, in as many @cmd messages as its namespaces
 * need. @skb: the first message's buffer, allocated in advance by a caller
 * that must not fail later, or NULL.
 */
static int rblk_nl_reply_ctrl(struct genl_info *info, struct rblk_ctrl *ctrl,
			      u8 cmd, struct sk_buff *skb)
{
	u32 pos = 0;
	int ret;

	for (;;) {
		if (!skb) {
			skb = genlmsg_new(rblk_nl_ctrl_msg_size(ctrl, cmd, pos),
					  GFP_KERNEL);
			if (!skb)
				return -ENOMEM;
		}
		ret = rblk_nl_fill_ctrl(skb, ctrl, cmd, info->snd_portid,
					info->snd_seq, 0, &pos);
		if (ret < 0) {
			nlmsg_free(skb);
			return ret;
		}
		if (!ret)
			return genlmsg_reply(skb, info);
		ret = genlmsg_reply(skb, info);
		if (ret)
			return ret;
		skb = NULL;
	}
}

/* --- the commands --- */

static int rblk_nl_connect(struct sk_buff *skb, struct genl_info *info)
{
	const char *errmsg = NULL;
	struct rblk_refusal refusal = {};
	struct rblk_ctrl_opts *opts;
	struct rblk_ctrl *ctrl;
	struct sk_buff *reply;
	int ret;

	/* Too big for the stack: three NQN-sized strings. */
	opts = kzalloc(sizeof(*opts), GFP_KERNEL);
	if (!opts)
		return -ENOMEM;
	ret = rblk_nl_parse_connect(info, opts);
	if (ret)
		goto out_free_opts;

	/*
	 * Allocate the answer before connecting: once the controller exists,
	 * failing the request would tell the user it does not. A page holds
	 * its name and a dozen namespaces; more go in further messages.
	 */
	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply) {
		ret = -ENOMEM;
		goto out_free_opts;
	}

	ctrl = rblk_host_connect(opts, &errmsg, &refusal);
	rblk_nl_free_opts(opts);
	if (IS_ERR(ctrl)) {
		rblk_nl_set_err_msg(info->extack, errmsg);
		rblk_nl_set_err_refusal(info->extack, &refusal);
		nlmsg_free(reply);
		return PTR_ERR(ctrl);
	}

	ret = rblk_nl_reply_ctrl(info, ctrl, RBLK_CMD_CONNECT, reply);
	if (ret == -ENOMEM || ret == -EMSGSIZE) {
		/* Only a further message failed: the controller is there. */
		rblk_warn(ctrl, "connect answer lists only some namespaces: %d\n",
			  ret);
		ret = 0;
	}
	rblk_ctrl_put(ctrl);
	return ret;

out_free_opts:
	rblk_nl_free_opts(opts);
	return ret;
}

static int rblk_nl_disconnect(struct sk_buff *skb, struct genl_info *info)
{
	struct rblk_ctrl *ctrl;
	struct rblk_ns *ns;
	int ret;

	ret = rblk_nl_find(info, &ctrl, &ns);
	if (ret)
		return ret;

	/*
	 * A multipath head's name stands for every path: which controller
	 * to delete is not the user's guess to leave to us.
	 */
	if (ns && ns->head && !rblk_nl_names_ctrl(info) &&
	    rblk_head_nr_paths(ns->head) > 1) {
		NL_SET_ERR_MSG(info->extack,
			       "the device has several paths (controllers): name the controller to disconnect");
		rblk_ns_put(ns);
		rblk_ctrl_put(ctrl);
		return -EINVAL;
	}
	if (ns)
		rblk_ns_put(ns);

	ret = rblk_host_delete(ctrl);
	if (ret == -EALREADY)
		NL_SET_ERR_MSG(info->extack,
			       "controller is already being deleted");
	rblk_ctrl_put(ctrl);
	return ret;
}

static int rblk_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rblk_ctrl *ctrl;
	int ret;

	ret = rblk_nl_find(info, &ctrl, NULL);
	if (ret)
		return ret;
	ret = rblk_nl_reply_ctrl(info, ctrl, RBLK_CMD_GET, NULL);
	rblk_ctrl_put(ctrl);
	return ret;
}

static int rblk_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	/*
	 * cb->args[0]: the lowest controller index not dumped completely;
	 * cb->args[1]: the nsid its next message continues at, 0 if none
	 * was sent yet.
	 */
	int index = cb->args[0];
	u32 pos = cb->args[1];
	struct rblk_ctrl *ctrl;
	int ret = 0;

	ctrl = rblk_ctrl_next(&index);
	/* The controller to continue is gone: start the next afresh. */
	if (ctrl && index != cb->args[0])
		pos = 0;
	while (ctrl) {
		ret = rblk_nl_fill_ctrl(skb, ctrl, RBLK_CMD_GET,
					NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI, &pos);
		rblk_ctrl_put(ctrl);
		if (ret)
			break;
		index++;
		pos = 0;
		ctrl = rblk_ctrl_next(&index);
	}
	cb->args[0] = index;
	cb->args[1] = pos;

	/* A message that alone does not fit would otherwise end the dump. */
	if (ret < 0 && !skb->len)
		return ret;
	return skb->len;
}

static int rblk_nl_put_stats(struct sk_buff *skb, const struct rblk_stats *s)
{
	/* The counters are the attributes with a name. */
	static const char * const names[__RBLK_STAT_MAX] = RBLK_STAT_NAMES;
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, RBLK_ATTR_STATS);
	if (!nest)
		return -EMSGSIZE;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (names[i] &&
		    nla_put_u64_64bit(skb, i, s->v[i], RBLK_STAT_PAD))
			goto cancel;
	}
	if (nla_put_64bit(skb, RBLK_STAT_LAT_HIST, sizeof(s->lat_hist),
			  s->lat_hist, RBLK_STAT_PAD))
		goto cancel;

	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * @ns's counters into @s, or with @ns NULL the sum over @ctrl's
 * namespaces; the reconnect counters are always the controller's. @tmp is
 * scratch space.
 */
static void rblk_nl_read_stats(struct rblk_ctrl *ctrl, struct rblk_ns *ns,
			       struct rblk_stats *s, struct rblk_stats *tmp)
{
	struct rblk_ns *pos;

	if (ns) {
		rblk_iostats_read(&ns->stats, s);
	} else {
		memset(s, 0, sizeof(*s));
		down_read(&ctrl->namespaces_rwsem);
		list_for_each_entry(pos, &ctrl->namespaces, entry) {
			if (!rblk_ns_visible(pos))
				continue;
			rblk_iostats_read(&pos->stats, tmp);
			rblk_stats_add(s, tmp);
		}
		up_read(&ctrl->namespaces_rwsem);
	}

	rblk_ctrl_stats(ctrl, tmp);
	s->v[RBLK_STAT_RECONNECTS] = tmp->v[RBLK_STAT_RECONNECTS];
	s->v[RBLK_STAT_RECONNECT_ATTEMPTS] =
		tmp->v[RBLK_STAT_RECONNECT_ATTEMPTS];
	s->v[RBLK_STAT_DOORBELLS] = tmp->v[RBLK_STAT_DOORBELLS];
	s->v[RBLK_STAT_COMMANDS_POSTED] = tmp->v[RBLK_STAT_COMMANDS_POSTED];
	s->v[RBLK_STAT_POLL_COMPLETIONS] = tmp->v[RBLK_STAT_POLL_COMPLETIONS];
	/* The controller's count also has its admin commands' timeouts. */
	if (!ns)
		s->v[RBLK_STAT_TIMEOUTS] = tmp->v[RBLK_STAT_TIMEOUTS];
	s->v[RBLK_STAT_ERRORS] = rblk_stats_errors(s);
}

static int rblk_nl_get_stats(struct sk_buff *skb, struct genl_info *info)
{
	unsigned int nr_paths;
	struct rblk_ctrl *ctrl;
	struct rblk_stats *s;
	struct sk_buff *reply;
	struct rblk_ns *ns;
	void *hdr;
	int ret;

	ret = rblk_nl_find(info, &ctrl, &ns);
	if (ret)
		return ret;

	ret = -ENOMEM;
	/* Too big for the stack: the snapshot and scratch space. */
	s = kmalloc_array(2, sizeof(*s), GFP_KERNEL);
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

	if (ns && ns->head && !rblk_nl_names_ctrl(info)) {
		/* A head: its paths together, through whichever controllers. */
		nr_paths = rblk_head_read_stats(ns->head, &s[0], &s[1]);
		if (!nr_paths) {
			NL_SET_ERR_MSG(info->extack, "the device is going away");
			ret = -ENODEV;
			goto out_free_reply;
		}
		if (nla_put_u32(reply, RBLK_ATTR_NR_PATHS, nr_paths))
			goto out_free_reply;
	} else {
		rblk_nl_read_stats(ctrl, ns, &s[0], &s[1]);
	}
	/*
	 * A head's sum names the path looked up too, so that a reply
	 * parser that requires a controller (nvmecfg before NR_PATHS)
	 * still reads it.
	 */
	if (nla_put_u32(reply, RBLK_ATTR_CTRL_INDEX, ctrl->index) ||
	    nla_put_string(reply, RBLK_ATTR_CTRL_NAME, ctrl->name) ||
	    (ns && (nla_put_u32(reply, RBLK_ATTR_INDEX, ns->index) ||
		    nla_put_string(reply, RBLK_ATTR_DISK_NAME, ns->name))) ||
	    rblk_nl_put_stats(reply, &s[0]))
		goto out_free_reply;
	genlmsg_end(reply, hdr);

	ret = genlmsg_reply(reply, info);
	reply = NULL;
out_free_reply:
	nlmsg_free(reply);
out_free:
	kfree(s);
out_put:
	if (ns)
		rblk_ns_put(ns);
	rblk_ctrl_put(ctrl);
	return ret;
}

static int rblk_nl_reset_stats(struct sk_buff *skb, struct genl_info *info)
{
	struct rblk_ctrl *ctrl;
	struct rblk_ns *ns;
	int ret;

	ret = rblk_nl_find(info, &ctrl, &ns);
	if (ret)
		return ret;

	if (ns) {
		if (ns->head && !rblk_nl_names_ctrl(info))
			rblk_head_reset_stats(ns->head);
		else
			rblk_iostats_reset(&ns->stats);
		rblk_ns_put(ns);
	} else {
		rblk_ns_reset_stats_all(ctrl);
	}
	rblk_ctrl_put(ctrl);
	return 0;
}

static int rblk_nl_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *policy_attr = info->attrs[RBLK_ATTR_IOPOLICY];
	struct rblk_subsys *subsys;
	enum rblk_state state;
	struct rblk_ctrl *ctrl;
	int ret;

	if (!policy_attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, RBLK_ATTR_IOPOLICY);
		NL_SET_ERR_MSG(info->extack, "nothing to set");
		return -EINVAL;
	}
	if (!rblk_multipath) {
		NL_SET_ERR_MSG_ATTR(info->extack, policy_attr,
				    "multipath is off (rblk loaded with multipath=N)");
		return -EOPNOTSUPP;
	}
	ret = rblk_nl_find(info, &ctrl, NULL);
	if (ret)
		return ret;
	subsys = rblk_ctrl_get_subsys(ctrl);
	state = rblk_ctrl_state(ctrl);
	rblk_ctrl_put(ctrl);
	if (!subsys) {
		/* Bound from its first Identify until its teardown. */
		if (rblk_state_leaving(state)) {
			NL_SET_ERR_MSG(info->extack,
				       "the controller is being deleted");
			return -ENODEV;
		}
		NL_SET_ERR_MSG(info->extack,
			       "the controller has not connected yet: try again once it is live");
		return -EAGAIN;
	}
	rblk_mpath_set_iopolicy(subsys, nla_get_u8(policy_attr));
	rblk_subsys_put(subsys);
	return 0;
}

/* --- subsystems and heads --- */

/* Measure-and-fill rounds of a doit whose object grows meanwhile. */
#define RBLK_NL_OBJ_TRIES	3

/* What rblk_nl_put_path_nest() adds for a path on @ctrl, at most. */
static size_t rblk_nl_path_size(struct rblk_ctrl *ctrl)
{
	const struct rblk_ctrl_opts *o = &ctrl->opts;

	return nla_total_size(0) +			/* the nest */
	       2 * nla_total_size(sizeof(u32)) +	/* ctrl index, group */
	       2 * nla_total_size(sizeof(u8)) +		/* state, ANA state */
	       2 * nla_total_size(RBLK_DISK_NAME_LEN) +	/* ctrl, path disk */
	       nla_total_size(strlen(o->traddr) + 1) +
	       nla_total_size(strlen(o->trsvcid) + 1) +
	       nla_total_size(strlen(o->host_traddr) + 1) +
	       nla_total_size(strlen(o->hostnqn) + 1) +
	       nla_total_size(sizeof(o->hostid));
}

/*
 * One RBLK_ATTR_PATH nest: the path's controller with the host NQN and
 * host ID it connected with (a subsystem's controllers may have several,
 * as nvme's) and, for a head's path @ns (else NULL), its hidden disk, ANA
 * group and state (racy reads).
 */
static int rblk_nl_put_path_nest(struct sk_buff *skb, struct rblk_ctrl *ctrl,
				 const struct rblk_ns *ns)
{
	const struct rblk_ctrl_opts *o = &ctrl->opts;
	struct nlattr *nest;
	u8 ana;

	nest = nla_nest_start(skb, RBLK_ATTR_PATH);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, RBLK_PATH_ATTR_CTRL_INDEX, ctrl->index) ||
	    nla_put_string(skb, RBLK_PATH_ATTR_CTRL_NAME, ctrl->name) ||
	    nla_put_u8(skb, RBLK_PATH_ATTR_STATE, rblk_ctrl_state(ctrl)) ||
	    nla_put_string(skb, RBLK_PATH_ATTR_TRADDR, o->traddr) ||
	    nla_put_string(skb, RBLK_PATH_ATTR_TRSVCID, o->trsvcid) ||
	    (o->host_traddr[0] &&
	     nla_put_string(skb, RBLK_PATH_ATTR_HOST_TRADDR, o->host_traddr)) ||
	    nla_put_string(skb, RBLK_PATH_ATTR_HOSTNQN, o->hostnqn) ||
	    nla_put(skb, RBLK_PATH_ATTR_HOSTID, sizeof(o->hostid), &o->hostid))
		goto cancel;
	if (ns) {
		ana = READ_ONCE(ns->ana_state);
		if (nla_put_string(skb, RBLK_PATH_ATTR_DISK_NAME,
				   ns->disk->disk_name) ||
		    nla_put_u32(skb, RBLK_PATH_ATTR_ANA_GRPID,
				READ_ONCE(ns->ana_grpid)) ||
		    (ana && nla_put_u8(skb, RBLK_PATH_ATTR_ANA_STATE, ana)))
			goto cancel;
	}
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* Adds up the room of a subsystem's or a head's paths. */
static int rblk_nl_size_ctrl(struct rblk_ctrl *ctrl, void *arg)
{
	*(size_t *)arg += rblk_nl_path_size(ctrl);
	return 0;
}

static int rblk_nl_size_ns(struct rblk_ns *ns, void *arg)
{
	return rblk_nl_size_ctrl(ns->ctrl, arg);
}

/* A subsystem's controller, as a path. */
static int rblk_nl_subsys_put_ctrl(struct rblk_ctrl *ctrl, void *arg)
{
	return rblk_nl_put_path_nest(arg, ctrl, NULL);
}

/*
 * Room for rblk_nl_fill_subsys()'s message; a path that comes meanwhile
 * may not fit: the doit measures again (RBLK_NL_OBJ_TRIES).
 */
static size_t rblk_nl_subsys_msg_size(struct rblk_subsys *subsys)
{
	size_t size = nla_total_size(RBLK_DISK_NAME_LEN) +	/* name */
		      nla_total_size(NVMF_NQN_SIZE + 1) +	/* NQN */
		      nla_total_size(RBLK_MODEL_SIZE) +
		      nla_total_size(RBLK_SERIAL_SIZE) +
		      nla_total_size(RBLK_FIRMWARE_SIZE) +
		      nla_total_size(sizeof(u8));		/* iopolicy */

	rblk_subsys_walk_ctrls(subsys, &size, rblk_nl_size_ctrl);
	return min_t(size_t, size, RBLK_NL_MSG_MAX);
}

/*
 * One RBLK_CMD_GET_SUBSYS message about @subsys in @skb.
 *
 * Return: 0, or -EMSGSIZE when it did not fit (@skb is left as it was).
 */
static int rblk_nl_fill_subsys(struct sk_buff *skb, struct rblk_subsys *subsys,
			       u32 portid, u32 seq, int flags)
{
	char firmware[RBLK_FIRMWARE_SIZE];
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &rblk_genl_family, flags,
			  RBLK_CMD_GET_SUBSYS);
	if (!hdr)
		return -EMSGSIZE;
	rblk_subsys_firmware(subsys, firmware, sizeof(firmware));
	if (nla_put_string(skb, RBLK_ATTR_SUBSYS_NAME, dev_name(&subsys->dev)) ||
	    nla_put_string(skb, RBLK_ATTR_SUBSYSNQN, subsys->subnqn) ||
	    rblk_nl_put_str(skb, RBLK_ATTR_MODEL, subsys->model,
			    sizeof(subsys->model)) ||
	    rblk_nl_put_str(skb, RBLK_ATTR_SERIAL, subsys->serial,
			    sizeof(subsys->serial)) ||
	    nla_put_string(skb, RBLK_ATTR_FIRMWARE, firmware) ||
	    (rblk_multipath &&
	     nla_put_u8(skb, RBLK_ATTR_IOPOLICY, READ_ONCE(subsys->iopolicy))))
		goto cancel;
	/* No host NQN of its own: each path carries its controller's. */
	if (rblk_subsys_walk_ctrls(subsys, skb, rblk_nl_subsys_put_ctrl))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int rblk_nl_get_subsys_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name_attr = info->attrs[RBLK_ATTR_SUBSYS_NAME];
	struct rblk_subsys *subsys;
	struct sk_buff *reply;
	int tries, ret;

	if (!name_attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, RBLK_ATTR_SUBSYS_NAME);
		NL_SET_ERR_MSG(info->extack, "subsystem name is required");
		return -EINVAL;
	}
	subsys = rblk_subsys_find(nla_data(name_attr));
	if (!subsys) {
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "no subsystem has this name");
		return -ENODEV;
	}
	for (tries = 0; tries < RBLK_NL_OBJ_TRIES; tries++) {
		reply = genlmsg_new(rblk_nl_subsys_msg_size(subsys),
				    GFP_KERNEL);
		if (!reply) {
			ret = -ENOMEM;
			break;
		}
		ret = rblk_nl_fill_subsys(reply, subsys, info->snd_portid,
					  info->snd_seq, 0);
		if (!ret) {
			ret = genlmsg_reply(reply, info);
			break;
		}
		nlmsg_free(reply);
	}
	rblk_subsys_put(subsys);
	return ret;
}

/*
 * Dump of every subsystem, one message each.
 *	cb->args[0]: the lowest subsystem instance not dumped yet
 */
/*
 * A subsystem or head goes whole in one message, up to RBLK_NL_MSG_MAX as
 * the doit's: the dump's skb as large, so that one that fits the doit's
 * never ends a dump with -EMSGSIZE (netlink's first skb may otherwise be
 * NLMSG_GOODSIZE).
 */
static int rblk_nl_big_dump_start(struct netlink_callback *cb)
{
	cb->min_dump_alloc = RBLK_NL_MSG_MAX + NLMSG_HDRLEN + GENL_HDRLEN;
	return 0;
}

static int rblk_nl_get_subsys_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	int instance = cb->args[0];
	struct rblk_subsys *subsys;
	int ret = 0;

	while ((subsys = rblk_subsys_next(&instance))) {
		ret = rblk_nl_fill_subsys(skb, subsys,
					  NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, NLM_F_MULTI);
		rblk_subsys_put(subsys);
		if (ret)
			break;
		instance++;
	}
	cb->args[0] = instance;
	/* A message that alone does not fit would otherwise end the dump. */
	if (ret < 0 && !skb->len)
		return ret;
	return skb->len;
}

static int rblk_nl_head_put_path(struct rblk_ns *ns, void *arg)
{
	return rblk_nl_put_path_nest(arg, ns->ctrl, ns);
}

static size_t rblk_nl_head_msg_size(struct rblk_head *head)
{
	size_t size = 2 * nla_total_size(sizeof(u32)) +	/* index, nsid */
		      2 * nla_total_size(RBLK_DISK_NAME_LEN) + /* its, subsys */
		      nla_total_size(NVMF_NQN_SIZE + 1) +
		      2 * nla_total_size(sizeof(u8));	/* iopolicy, state */

	rblk_head_walk_paths(head, &size, rblk_nl_size_ns);
	return min_t(size_t, size, RBLK_NL_MSG_MAX);
}

/*
 * One RBLK_CMD_GET_HEAD message about @head in @skb.
 *
 * Return: 0, or -EMSGSIZE when it did not fit (@skb is left as it was).
 */
static int rblk_nl_fill_head(struct sk_buff *skb, struct rblk_head *head,
			     u32 portid, u32 seq, int flags)
{
	struct rblk_subsys *subsys = head->subsys;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &rblk_genl_family, flags,
			  RBLK_CMD_GET_HEAD);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, RBLK_ATTR_INDEX, head->index) ||
	    nla_put_string(skb, RBLK_ATTR_DISK_NAME, head->name) ||
	    nla_put_u32(skb, RBLK_ATTR_NSID, rblk_head_nsid(head)) ||
	    nla_put_string(skb, RBLK_ATTR_SUBSYS_NAME, dev_name(&subsys->dev)) ||
	    nla_put_string(skb, RBLK_ATTR_SUBSYSNQN, subsys->subnqn) ||
	    nla_put_u8(skb, RBLK_ATTR_IOPOLICY, READ_ONCE(subsys->iopolicy)) ||
	    nla_put_u8(skb, RBLK_ATTR_STATE, rblk_head_state(head)) ||
	    rblk_head_walk_paths(head, skb, rblk_nl_head_put_path)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int rblk_nl_get_head_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *reply;
	struct rblk_ns *ns;
	int tries, ret;

	if (!info->attrs[RBLK_ATTR_INDEX] && !info->attrs[RBLK_ATTR_DISK_NAME]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, RBLK_ATTR_INDEX);
		NL_SET_ERR_MSG(info->extack, "device index or name is required");
		return -EINVAL;
	}
	/* A path of the head: it holds the head. */
	ns = rblk_nl_lookup_ns(info, NULL);
	if (IS_ERR(ns))
		return PTR_ERR(ns);
	if (!ns->head) {
		NL_SET_ERR_MSG(info->extack,
			       "the device is no multipath head (rblk loaded with multipath=N)");
		ret = -EINVAL;
		goto out_put;
	}
	for (tries = 0; tries < RBLK_NL_OBJ_TRIES; tries++) {
		reply = genlmsg_new(rblk_nl_head_msg_size(ns->head),
				    GFP_KERNEL);
		if (!reply) {
			ret = -ENOMEM;
			break;
		}
		ret = rblk_nl_fill_head(reply, ns->head, info->snd_portid,
					info->snd_seq, 0);
		if (!ret) {
			ret = genlmsg_reply(reply, info);
			break;
		}
		nlmsg_free(reply);
	}
out_put:
	rblk_ns_put(ns);
	return ret;
}

/*
 * Dump of every head, by subsystem, then index; one message each.
 *	cb->args[0]: the subsystem instance being dumped
 *	cb->args[1]: the lowest head index of it not dumped yet
 */
static int rblk_nl_get_head_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	int instance = cb->args[0];
	int index = cb->args[1];
	struct rblk_subsys *subsys;
	struct rblk_head *head;
	int ret = 0;

	while ((subsys = rblk_subsys_next(&instance))) {
		/* The subsystem to continue is gone: start the next afresh. */
		if (instance != cb->args[0])
			index = 0;
		while ((head = rblk_subsys_next_head(subsys, &index))) {
			ret = rblk_nl_fill_head(skb, head,
						NETLINK_CB(cb->skb).portid,
						cb->nlh->nlmsg_seq,
						NLM_F_MULTI);
			rblk_head_put(head);
			if (ret)
				break;
			index++;
		}
		rblk_subsys_put(subsys);
		cb->args[0] = instance;
		cb->args[1] = index;
		if (ret)
			break;
		instance++;
		index = 0;
		cb->args[0] = instance;
		cb->args[1] = 0;
	}
	if (ret < 0 && !skb->len)
		return ret;
	return skb->len;
}

/*
 * The exact size of a record's nest: sized for the largest record, a full
 * log's reply would be ~170 KiB, and with the ACK behind it overrun a
 * default (208 KiB) socket receive buffer.
 */
static size_t rblk_nl_disc_entry_size(const struct nvmf_disc_rsp_page_entry *e)
{
	return nla_total_size(0) +			/* the nest */
	       7 * nla_total_size(sizeof(u8)) +		/* trtype..treq, rdma */
	       5 * nla_total_size(sizeof(u16)) +	/* portid..eflags, pkey */
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
	    nla_put_u16(skb, RBLK_DISC_EFLAGS, le16_to_cpu(e->eflags)) ||
	    rblk_nl_put_padded(skb, RBLK_DISC_TRSVCID, e->trsvcid,
			       sizeof(e->trsvcid)) ||
	    rblk_nl_put_padded(skb, RBLK_DISC_TRADDR, e->traddr,
			       sizeof(e->traddr)) ||
	    rblk_nl_put_padded(skb, RBLK_DISC_SUBNQN, e->subnqn,
			       sizeof(e->subnqn))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	/* The transport specific address subtype means RDMA's only here. */
	if (e->trtype == NVMF_TRTYPE_RDMA &&
	    (nla_put_u8(skb, RBLK_DISC_RDMA_QPTYPE, e->tsas.rdma.qptype) ||
	     nla_put_u8(skb, RBLK_DISC_RDMA_PRTYPE, e->tsas.rdma.prtype) ||
	     nla_put_u8(skb, RBLK_DISC_RDMA_CMS, e->tsas.rdma.cms) ||
	     nla_put_u16(skb, RBLK_DISC_RDMA_PKEY,
			 le16_to_cpu((__force __le16)e->tsas.rdma.pkey)))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The log header attributes every discover message carries. */
static int rblk_nl_put_disc_hdr(struct sk_buff *skb,
				const struct rblk_disc_log *log)
{
	if (nla_put_u64_64bit(skb, RBLK_ATTR_DISC_GENCTR, log->genctr,
			      RBLK_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, RBLK_ATTR_DISC_NUMREC, log->numrec,
			      RBLK_ATTR_PAD))
		return -EMSGSIZE;
	return 0;
}

/* Connect to the discovery controller a request names and read its log. */
static int rblk_nl_read_disc_log(struct genl_info *info, u32 max,
				 struct rblk_disc_log *log)
{
	const char *errmsg = NULL;
	struct rblk_refusal refusal = {};
	struct rblk_ctrl_opts *opts;
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
	ret = rblk_nl_parse_host(info, opts) ?:
	      rblk_nl_parse_keys(info, opts);
	if (ret)
		goto out_free_opts;

	ret = rblk_discover(opts, max, log, &errmsg, &refusal);
	if (ret) {
		rblk_nl_set_err_msg(info->extack, errmsg);
		rblk_nl_set_err_refusal(info->extack, &refusal);
	}
out_free_opts:
	rblk_nl_free_opts(opts);
	return ret;
}

static int rblk_nl_discover(struct sk_buff *skb, struct genl_info *info)
{
	struct rblk_disc_log log = {};
	struct sk_buff *reply;
	size_t size;
	void *hdr;
	u32 i;
	int ret;

	ret = rblk_nl_read_disc_log(info, RBLK_DISC_MAX_RECORDS, &log);
	if (ret)
		return ret;

	size = 2 * nla_total_size_64bit(sizeof(u64));
	for (i = 0; i < log.nr; i++)
		size += rblk_nl_disc_entry_size(&log.entries[i]);
	ret = -ENOMEM;
	reply = genlmsg_new(size, GFP_KERNEL);
	if (!reply)
		goto out_free_entries;
	ret = -EMSGSIZE;
	hdr = genlmsg_put_reply(reply, info, &rblk_genl_family, 0,
				RBLK_CMD_DISCOVER);
	if (!hdr || rblk_nl_put_disc_hdr(reply, &log))
		goto out_free_reply;
	for (i = 0; i < log.nr; i++) {
		if (rblk_nl_put_disc_entry(reply, &log.entries[i]))
			goto out_free_reply;
	}
	genlmsg_end(reply, hdr);

	ret = genlmsg_reply(reply, info);
	reply = NULL;
out_free_reply:
	nlmsg_free(reply);
out_free_entries:
	kvfree(log.entries);
	return ret;
}

/*
 * DISCOVER as a dump.  The log is read by the first ->dumpit call, not by
 * ->start: only ->dumpit has an extended ACK (6.1 runs ->start without
 * one), so there a failure still reaches the requester with its reason,
 * in NLMSG_DONE.  Later calls hand the records out, as many messages as it
 * takes.
 *	cb->args[0]: the &struct rblk_disc_log, allocated by ->start
 *	cb->args[1]: the next record to send
 *	cb->args[2]: the log has been read
 */
static int rblk_nl_discover_start(struct netlink_callback *cb)
{
	struct rblk_disc_log *log;

	/* Dumps skip pre_doit; the same privilege as the doit. */
	if (!netlink_capable(cb->skb, CAP_SYS_ADMIN))
		return -EPERM;
	log = kzalloc(sizeof(*log), GFP_KERNEL);
	if (!log)
		return -ENOMEM;
	cb->args[0] = (long)log;
	return 0;
}

static int rblk_nl_discover_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct rblk_disc_log *log = (struct rblk_disc_log *)cb->args[0];
	u32 i = cb->args[1], sent = 0;
	void *hdr;
	int ret;

	if (!cb->args[2]) {
		struct genl_info info = {
			.attrs	= rblk_genl_dumpit_attrs(cb),
			.extack	= cb->extack,
		};

		ret = rblk_nl_read_disc_log(&info, RBLK_DISC_MAX_DUMP_RECORDS,
					    log);
		if (ret)
			return ret;
		cb->args[2] = 1;
	} else if (i >= log->nr) {
		return 0;
	}

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			  cb->nlh->nlmsg_seq, &rblk_genl_family, NLM_F_MULTI,
			  RBLK_CMD_DISCOVER);
	if (!hdr || rblk_nl_put_disc_hdr(skb, log)) {
		if (hdr)
			genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	for (; i < log->nr; i++, sent++) {
		if (rblk_nl_put_disc_entry(skb, &log->entries[i]))
			break;
	}
	/* Not even one record fits a dump buffer: cannot happen. */
	if (i < log->nr && !sent) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	cb->args[1] = i;
	return skb->len;
}

static int rblk_nl_discover_done(struct netlink_callback *cb)
{
	struct rblk_disc_log *log = (struct rblk_disc_log *)cb->args[0];

	if (log) {
		kvfree(log->entries);
		kfree(log);
	}
	return 0;
}

/*
 * Creating and removing block devices needs CAP_SYS_ADMIN, as opening
 * /dev/nvme-fabrics does in practice; the family's GENL_ADMIN_PERM only
 * asks for CAP_NET_ADMIN.
 */
#define RBLK_NL_SYS_ADMIN	BIT(0)

static int rblk_nl_pre_doit(const struct rblk_genl_doit_ops *ops,
			    struct sk_buff *skb, struct genl_info *info)
{
	if ((ops->internal_flags & RBLK_NL_SYS_ADMIN) &&
	    !netlink_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack, "needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	return 0;
}

static const struct genl_ops rblk_genl_ops[] = {
	{
		.cmd		= RBLK_CMD_CONNECT,
		.flags		= GENL_ADMIN_PERM,
		.internal_flags	= RBLK_NL_SYS_ADMIN,
		.policy		= rblk_connect_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_connect,
	},
	{
		.cmd		= RBLK_CMD_DISCONNECT,
		.flags		= GENL_ADMIN_PERM,
		.internal_flags	= RBLK_NL_SYS_ADMIN,
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
		.internal_flags	= RBLK_NL_SYS_ADMIN,
		.policy		= rblk_discover_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_discover,
		.start		= rblk_nl_discover_start,
		.dumpit		= rblk_nl_discover_dumpit,
		.done		= rblk_nl_discover_done,
	},
	{
		.cmd		= RBLK_CMD_RESET_STATS,
		.flags		= GENL_ADMIN_PERM,
		.internal_flags	= RBLK_NL_SYS_ADMIN,
		.policy		= rblk_dev_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_reset_stats,
	},
	{
		.cmd		= RBLK_CMD_SET,
		.flags		= GENL_ADMIN_PERM,
		.internal_flags	= RBLK_NL_SYS_ADMIN,
		.policy		= rblk_set_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_set,
	},
	{
		.cmd		= RBLK_CMD_GET_SUBSYS,
		.policy		= rblk_subsys_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_get_subsys_doit,
		.start		= rblk_nl_big_dump_start,
		.dumpit		= rblk_nl_get_subsys_dumpit,
	},
	{
		.cmd		= RBLK_CMD_GET_HEAD,
		.policy		= rblk_head_policy,
		.maxattr	= RBLK_ATTR_MAX,
		.doit		= rblk_nl_get_head_doit,
		.start		= rblk_nl_big_dump_start,
		.dumpit		= rblk_nl_get_head_dumpit,
	},
};

static const struct genl_multicast_group rblk_genl_mcgrps[] = {
	[RBLK_MCGRP_EVENTS] = { .name = RBLK_GENL_MCAST_EVENTS },
};

static struct genl_family rblk_genl_family __ro_after_init = {
	.name		= RBLK_GENL_NAME,
	.version	= RBLK_GENL_VERSION,
	.module		= THIS_MODULE,
	.ops		= rblk_genl_ops,
	.n_ops		= ARRAY_SIZE(rblk_genl_ops),
	.mcgrps		= rblk_genl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(rblk_genl_mcgrps),
	.pre_doit	= rblk_nl_pre_doit,
	/*
	 * A new family: every command gets strict attribute validation and
	 * has the reserved header fields and unknown nlmsg flags rejected.
	 */
	.resv_start_op	= 0,
	/*
	 * Connect and discover wait for the target: don't hold genl_mutex.
	 * They still hold cb_lock (read), which a family registration waits
	 * for, and every request after it: no handler waits unbounded (see
	 * Documentation/netlink.rst, "Blocking").
	 */
	.parallel_ops	= true,
	.netnsok	= false,
};

/* --- events --- */

static size_t rblk_nl_event_size(void)
{
	return 2 * nla_total_size(sizeof(u8)) +		/* event, state */
	       nla_total_size(0) +			/* scanned */
	       rblk_nl_ctrl_id_size() +
	       rblk_nl_ns_size();
}

/*
 * The RBLK_ATTR_NS nest of a namespace event. Atomic context: neither
 * ns->lock nor namespaces_rwsem can be taken, so only what names the
 * namespace and its format, read racily (events are advisory).
 */
static int rblk_nl_put_ns_event(struct sk_buff *skb, struct rblk_ns *ns)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, RBLK_ATTR_NS);
	if (!nest)
		return -EMSGSIZE;
	if (rblk_nl_put_ns_id(skb, ns, READ_ONCE(ns->info.nsze),
			      READ_ONCE(ns->info.lba_shift))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* A subsystem's event: which one, and its I/O policy. */
static size_t rblk_nl_subsys_event_size(void)
{
	return 2 * nla_total_size(sizeof(u8)) +		/* event, iopolicy */
	       nla_total_size(RBLK_DISK_NAME_LEN) +
	       nla_total_size(NVMF_NQN_SIZE + 1);
}

static int rblk_nl_put_subsys_event(struct sk_buff *skb,
				    struct rblk_subsys *subsys)
{
	if (nla_put_string(skb, RBLK_ATTR_SUBSYS_NAME, dev_name(&subsys->dev)) ||
	    nla_put_string(skb, RBLK_ATTR_SUBSYSNQN, subsys->subnqn) ||
	    nla_put_u8(skb, RBLK_ATTR_IOPOLICY, READ_ONCE(subsys->iopolicy)))
		return -EMSGSIZE;
	return 0;
}

static int rblk_nl_put_ctrl_event(struct sk_buff *skb, struct rblk_ctrl *ctrl,
				  struct rblk_ns *ns)
{
	if (nla_put_u32(skb, RBLK_ATTR_CTRL_INDEX, ctrl->index) ||
	    nla_put_string(skb, RBLK_ATTR_CTRL_NAME, ctrl->name) ||
	    nla_put_u8(skb, RBLK_ATTR_STATE, rblk_ctrl_state(ctrl)) ||
	    (completion_done(&ctrl->first_scan) &&
	     nla_put_flag(skb, RBLK_ATTR_SCANNED)) ||
	    (ns && rblk_nl_put_ns_event(skb, ns)))
		return -EMSGSIZE;
	return 0;
}

/*
 * Multicast a controller, namespace or subsystem event on the "events"
 * group. Called by rblk_notify() and rblk_notify_subsys() in atomic
 * context; does nothing if nobody listens. One lost to memory pressure is
 * not reported.
 */
static int rblk_nl_event(struct notifier_block *nb, unsigned long event,
			 void *data)
{
	const struct rblk_event_info *ev = data;
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&rblk_genl_family, &init_net,
				RBLK_MCGRP_EVENTS))
		return NOTIFY_DONE;

	skb = genlmsg_new(ev->subsys ? rblk_nl_subsys_event_size() :
				       rblk_nl_event_size(), GFP_ATOMIC);
	if (!skb)
		return NOTIFY_DONE;
	hdr = genlmsg_put(skb, 0, 0, &rblk_genl_family, 0, RBLK_CMD_EVENT);
	if (!hdr)
		goto out_free;
	if (nla_put_u8(skb, RBLK_ATTR_EVENT, event) ||
	    (ev->subsys ? rblk_nl_put_subsys_event(skb, ev->subsys) :
			  rblk_nl_put_ctrl_event(skb, ev->ctrl, ev->ns)))
		goto out_free;
	genlmsg_end(skb, hdr);
	/* -ESRCH: the last listener left meanwhile. */
	genlmsg_multicast(&rblk_genl_family, skb, 0, RBLK_MCGRP_EVENTS,
			  GFP_ATOMIC);
	return NOTIFY_DONE;

out_free:
	nlmsg_free(skb);
	return NOTIFY_DONE;
}

static struct notifier_block rblk_nl_event_nb = {
	.notifier_call	= rblk_nl_event,
};

/**
 * rblk_nl_init() - register the generic netlink family
 *
 * Also starts multicasting controller and namespace events.
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
	/* After the family: the events need its multicast group. */
	ret = rblk_event_register(&rblk_nl_event_nb);
	if (ret) {
		pr_err("cannot listen to events: %d\n", ret);
		genl_unregister_family(&rblk_genl_family);
		return ret;
	}
	return 0;
}

/**
 * rblk_nl_exit() - unregister the family
 *
 * Waits for running commands; later events are dropped.
 */
void rblk_nl_exit(void)
{
	/* Waits for a running notifier: none uses the family after this. */
	rblk_event_unregister(&rblk_nl_event_nb);
	genl_unregister_family(&rblk_genl_family);
}

/* A lookup of the family by name (nvmecfg's first step) loads rblk. */
MODULE_ALIAS_GENL_FAMILY(RBLK_GENL_NAME);
