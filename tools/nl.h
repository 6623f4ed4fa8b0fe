/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmecfg's side of the "rblk" generic netlink family (libnl-genl-3).
 *
 * Every request returns 0 or a negative errno; when the kernel refused it,
 * rnl.msg holds the reason it gave in the extended ACK.
 */
#ifndef NVMECFG_NL_H
#define NVMECFG_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netlink/netlink.h>

#include "info.h"
#include "opts.h"

struct rnl {
	struct nl_sock *sk;
	int family;
	char msg[256];		/* extack message of the last request */
	int miss_type;		/* attribute the kernel missed, or -1 */
	int bad_attr;		/* type of the attribute it blamed, or -1 */
	uint16_t nvme_status;	/* a target's Connect status (cookie), or 0 */
	uint8_t auth_reason;	/* DH-HMAC-CHAP failure (cookie), or 0 */
	void *req;		/* a copy of the last request, to find it */
	size_t req_len;
	bool answered;		/* the kernel acked or refused the request */
	struct nla_policy *policy;	/* answers are checked against it */
};

/* 0, -ENOENT if the family is not registered, or another -errno. */
int rnl_open(struct rnl *r);
/* The same for another generic netlink family (tests talk to "nlctrl"). */
int rnl_open_family(struct rnl *r, const char *name);
void rnl_close(struct rnl *r);

/* *ctrl: the new controller and its namespaces; rnl_ctrl_free() it. */
int rnl_connect(struct rnl *r, const struct cfg *cfg, struct ctrl_info *ctrl);
int rnl_disconnect(struct rnl *r, const struct cfg *cfg);
/* The controller cfg names, directly or by a namespace; rnl_ctrl_free() it. */
int rnl_get(struct rnl *r, const struct cfg *cfg, struct ctrl_info *ctrl);
/* All controllers, in the kernel's order; rnl_ctrls_free() them. */
int rnl_list(struct rnl *r, struct ctrl_info **ctrls, size_t *nr);
void rnl_ctrl_free(struct ctrl_info *ctrl);
void rnl_ctrls_free(struct ctrl_info *ctrls, size_t nr);
/*
 * RBLK_CMD_SET: the settings @cfg gives (--iopolicy) of the controller it
 * names, directly or by a namespace.  -EOPNOTSUPP: the module was loaded
 * without multipath (or predates the command).
 */
int rnl_set(struct rnl *r, const struct cfg *cfg);
/*
 * Every subsystem (RBLK_CMD_GET_SUBSYS) and with @heads every multipath
 * head (RBLK_CMD_GET_HEAD), in the kernel's order; rnl_subsys_free() them.
 */
int rnl_subsys_list(struct rnl *r, struct subsys_list *l, bool heads);
void rnl_subsys_free(struct subsys_list *l);
int rnl_stats(struct rnl *r, const struct cfg *cfg, struct stats_info *st);
int rnl_reset_stats(struct rnl *r, const struct cfg *cfg);
/*
 * The discovery log, as a dump (every record, up to
 * RBLK_DISC_MAX_DUMP_RECORDS); log->numrec is the length of the target's
 * log, more than log->nr if the kernel reports fewer.  rnl_disc_free() it.
 */
int rnl_discover(struct rnl *r, const struct cfg *cfg, struct disc_log *log);
void rnl_disc_free(struct disc_log *log);
/* @log: struct disc_log; appends the message's records. */
int rnl_parse_disc(struct nlmsghdr *nlh, struct nlattr **tb, void *log);

typedef void (*rnl_event_fn)(const struct ctrl_event *ev, void *arg);
/* Until @count events (0: no limit) or @timeout seconds (0: none). */
int rnl_monitor(struct rnl *r, uint32_t count, uint32_t timeout,
		rnl_event_fn fn, void *arg);

/*
 * The building blocks, for requests the commands above do not make (the
 * nlraw test tool sends malformed ones on purpose).
 */
typedef int (*rnl_parse_fn)(struct nlmsghdr *nlh, struct nlattr **tb,
			    void *arg);
struct nl_msg *rnl_msg(struct rnl *r, uint8_t cmd, int flags);
/* Sends and frees @msg; @parse sees each answer (NULL: ignore them). */
int rnl_transact(struct rnl *r, struct nl_msg *msg, rnl_parse_fn parse,
		 void *arg);
/*
 * The attributes of the commands' requests: the controller or namespace
 * cfg names (CTRL_NAME for "rblk-ctrlM", DISK_NAME for other names, INDEX
 * for --index), and those of connect.
 */
int rnl_put_dev(struct nl_msg *msg, const struct cfg *cfg);
/* Whether @cfg names a namespace (rblkN, --index), not a controller. */
bool rnl_names_ns(const struct cfg *cfg);
int rnl_put_connect(struct nl_msg *msg, const struct cfg *cfg);
/* Those of RBLK_CMD_SET: the controller or namespace, then the settings. */
int rnl_put_set(struct nl_msg *msg, const struct cfg *cfg);

/*
 * The decoders of the answers, exposed for the unit tests, which feed them
 * hand-built messages.  rnl_decode() checks @nlh against the rblk policy
 * and hands its attributes to @parse, as rnl_transact() does.
 */
int rnl_decode(struct nlmsghdr *nlh, rnl_parse_fn parse, void *arg);
/* The extended ACK attributes at @data into @r (message, cookie, ...). */
void rnl_decode_extack(struct rnl *r, void *data, int len);

/*
 * Controllers collected from RBLK_CMD_GET or RBLK_CMD_CONNECT answers: a
 * controller may come in several messages, all with its CTRL_INDEX, and
 * these are merged into one entry.
 */
struct ctrl_vec {
	struct ctrl_info *v;
	size_t nr;
	size_t cap;
};
int rnl_parse_ctrl(struct nlmsghdr *nlh, struct nlattr **tb, void *vec);
/* @st: struct stats_info */
int rnl_parse_stats(struct nlmsghdr *nlh, struct nlattr **tb, void *st);
/* @l: struct subsys_list; appends the message's subsystem, or head. */
int rnl_parse_subsys(struct nlmsghdr *nlh, struct nlattr **tb, void *l);
int rnl_parse_head(struct nlmsghdr *nlh, struct nlattr **tb, void *l);
/* @ev: struct ctrl_event */
int rnl_parse_event(struct nlmsghdr *nlh, struct nlattr **tb, void *ev);

#endif /* NVMECFG_NL_H */
