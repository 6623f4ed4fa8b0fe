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
	bool answered;		/* the kernel acked or refused the request */
	struct nla_policy *policy;	/* answers are checked against it */
};

/* 0, -ENOENT if the family is not registered, or another -errno. */
int rnl_open(struct rnl *r);
/* The same for another generic netlink family (tests talk to "nlctrl"). */
int rnl_open_family(struct rnl *r, const char *name);
void rnl_close(struct rnl *r);

int rnl_connect(struct rnl *r, const struct cfg *cfg, struct dev_ref *ref);
int rnl_disconnect(struct rnl *r, const struct cfg *cfg);
int rnl_get(struct rnl *r, const struct cfg *cfg, struct dev_info *dev);
/* *devs is malloc()ed, in index order. */
int rnl_list(struct rnl *r, struct dev_info **devs, size_t *nr);
int rnl_stats(struct rnl *r, const struct cfg *cfg, struct dev_stats *st);
int rnl_reset_stats(struct rnl *r, const struct cfg *cfg);
/*
 * *entries is malloc()ed; *numrec is the length of the target's log, more
 * than *nr when it is longer than the kernel reports (RBLK_DISC_MAX_RECORDS).
 */
int rnl_discover(struct rnl *r, const struct cfg *cfg,
		 struct disc_entry **entries, size_t *nr, uint64_t *numrec);

typedef void (*rnl_event_fn)(const struct dev_event *ev, void *arg);
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

#endif /* NVMECFG_NL_H */
