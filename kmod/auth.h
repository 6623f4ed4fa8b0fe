/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rblk in-band authentication, DH-HMAC-CHAP (auth.c; Documentation/auth.rst).
 * Built only where the kernel has the NVMe authentication library
 * (RBLK_HAVE_NVME_AUTH); elsewhere these stubs refuse keys and targets that
 * require authentication, so that the callers carry no #ifdef.
 */
#ifndef _RBLK_AUTH_H
#define _RBLK_AUTH_H

#include <linux/types.h>
#include "compat.h"
#include "rblk.h"	/* the stubs set rblk_ctrl's flags */

#ifdef RBLK_HAVE_NVME_AUTH
int rblk_auth_keys_parse(struct rblk_ctrl_opts *opts, const char *secret,
			 const char *ctrl_secret, bool secret_default,
			 const char **errmsg, bool *ctrl_refused);
int rblk_auth_keys_dup(struct rblk_ctrl_opts *dst,
		       const struct rblk_ctrl_opts *src);
void rblk_auth_keys_free(struct rblk_ctrl_opts *opts);
int rblk_auth_queue(struct rblk_ctrl *ctrl, u16 qid, u32 authreq,
		    const char **errmsg);
#else
static inline int rblk_auth_keys_parse(struct rblk_ctrl_opts *opts,
				       const char *secret,
				       const char *ctrl_secret,
				       bool secret_default,
				       const char **errmsg,
				       bool *ctrl_refused)
{
	/*
	 * A default key (/etc/nvme/hostkey) is no request to authenticate:
	 * dropped, so that such hosts reach targets that do not ask.
	 */
	if (secret_default)
		secret = NULL;
	/* The first key given is blamed. */
	*ctrl_refused = !secret;
	if (!secret && !ctrl_secret)
		return 0;
	*errmsg = "DH-HMAC-CHAP needs the kernel's NVMe authentication library (CONFIG_NVME_AUTH), which this kernel lacks";
	return -EOPNOTSUPP;
}

/* Without the library no options carry keys. */
static inline int rblk_auth_keys_dup(struct rblk_ctrl_opts *dst,
				     const struct rblk_ctrl_opts *src)
{
	return 0;
}

static inline void rblk_auth_keys_free(struct rblk_ctrl_opts *opts)
{
}

/*
 * A target that asks is refused for good, as auth.c refuses one: a
 * reconnect would be refused the same way until ctrl_loss_tmo.
 */
static inline int rblk_auth_queue(struct rblk_ctrl *ctrl, u16 qid,
				  u32 authreq, const char **errmsg)
{
	if (authreq & NVME_CONNECT_AUTHREQ_ASCR) {
		rblk_err(ctrl, "queue %u: target requires secure channel concatenation (TLS), which rblk cannot do\n",
			 qid);
		*errmsg = "the target requires a secure channel (TLS concatenation), which rblk cannot do";
	} else if (authreq & NVME_CONNECT_AUTHREQ_ATR) {
		rblk_err(ctrl, "queue %u: target requires DH-HMAC-CHAP authentication, which this kernel cannot do (no CONFIG_NVME_AUTH)\n",
			 qid);
		*errmsg = "target requires DH-HMAC-CHAP authentication, which this kernel cannot do (no CONFIG_NVME_AUTH)";
	} else {
		return 0;
	}
	set_bit(RBLK_CTRL_AUTH_FAILED, &ctrl->flags);
	return -EOPNOTSUPP;
}
#endif

#endif /* _RBLK_AUTH_H */
