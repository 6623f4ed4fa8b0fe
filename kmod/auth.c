// SPDX-License-Identifier: GPL-2.0
/*
 * rblk in-band authentication: DH-HMAC-CHAP (NVMe Base Specification 2.0,
 * 8.13.5), the host's side, on kernels with the NVMe authentication library
 * (nvme-auth.ko; Documentation/auth.rst).
 *
 * Layers: called by ctrl.c when a queue's Connect asks for authentication,
 * sends its messages through fabrics.c (Authentication Send/Receive), and
 * builds and checks them with proto.c.  Keys, their transformation, the
 * Diffie-Hellman exchange and the augmented challenge are the library's;
 * the HMAC is the crypto API's.
 *
 * Secrets: the parsed keys live in the controller's options from connect
 * to release and are freed with zeroing (nvme_auth_free_key(): a
 * kfree_sensitive()); everything an exchange derives from them is freed or
 * zeroed at its end.  None is ever printed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/hash.h>
#include <crypto/kpp.h>
#include <crypto/utils.h>
#include <linux/nvme-auth.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "rblk.h"
#include "auth.h"
#include "trace.h"

/*
 * A key string into a parsed key; the copy the library reads is zeroed.
 * The library's refusals (-EINVAL for a length, -EKEYREJECTED for a CRC,
 * base64_decode()'s -1) all mean a malformed key: -EINVAL, a usage error,
 * not a key the target rejected.
 */
static int rblk_auth_key_parse(const char *secret,
			       struct nvme_dhchap_key **key)
{
	char *copy;
	int ret;

	copy = kstrdup(secret, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	ret = rblk_auth_parse_key(copy, key);
	kfree_sensitive(copy);
	if (ret == -ENOMEM)
		return ret;
	if (ret || !*key)
		ret = -EINVAL;
	return ret;
}

/**
 * rblk_auth_keys_parse() - parse the DH-HMAC-CHAP keys of a connect
 * @opts: options to hold them; their keys are NULL on entry
 * @secret: the host key, "DHHC-1:NN:<base64>:", or NULL
 * @ctrl_secret: the controller key, or NULL; needs @secret
 * @secret_default: @secret is the tool's default (/etc/nvme/hostkey), not
 *	one the user gave (only the messages differ here)
 * @errmsg: set to a static reason on failure (never quoting a key)
 * @ctrl_refused: set on failure: whether the controller key is the one
 *	refused (to blame its attribute), else the host key
 *
 * Return: 0, -EINVAL for a malformed key (the library logs why: length,
 * base64 or CRC, never the key), or -ENOMEM; @opts then holds no key.
 */
int rblk_auth_keys_parse(struct rblk_ctrl_opts *opts, const char *secret,
			 const char *ctrl_secret, bool secret_default,
			 const char **errmsg, bool *ctrl_refused)
{
	int ret;

	*ctrl_refused = false;
	if (ctrl_secret && !secret) {
		*errmsg = "a DH-HMAC-CHAP controller key needs a host key";
		*ctrl_refused = true;
		return -EINVAL;
	}
	if (secret) {
		ret = rblk_auth_key_parse(secret, &opts->host_key);
		if (ret == -ENOMEM) {
			*errmsg = "out of memory";
			return ret;
		}
		if (ret) {
			*errmsg = secret_default ?
				  "malformed DH-HMAC-CHAP host key in the default key file" :
				  "malformed DH-HMAC-CHAP host key";
			return ret;
		}
	}
	if (ctrl_secret) {
		ret = rblk_auth_key_parse(ctrl_secret, &opts->ctrl_key);
		if (ret) {
			*errmsg = ret == -ENOMEM ? "out of memory" :
				  "malformed DH-HMAC-CHAP controller key";
			*ctrl_refused = true;
			rblk_auth_keys_free(opts);
			return ret;
		}
	}
	return 0;
}

static struct nvme_dhchap_key *rblk_auth_key_dup(const struct nvme_dhchap_key *key)
{
	struct nvme_dhchap_key *copy;

	copy = nvme_auth_alloc_key(key->len, key->hash);
	if (copy)
		memcpy(copy->key, key->key, key->len);
	return copy;
}

/**
 * rblk_auth_keys_dup() - give a copy of options keys of its own
 * @dst: a copy of @src (struct assignment), whose key pointers are still
 *	@src's; replaced by copies
 * @src: the options copied
 *
 * Return: 0, or -ENOMEM with @dst holding no key.
 */
int rblk_auth_keys_dup(struct rblk_ctrl_opts *dst,
		       const struct rblk_ctrl_opts *src)
{
	dst->host_key = NULL;
	dst->ctrl_key = NULL;
	if (src->host_key) {
		dst->host_key = rblk_auth_key_dup(src->host_key);
		if (!dst->host_key)
			return -ENOMEM;
	}
	if (src->ctrl_key) {
		dst->ctrl_key = rblk_auth_key_dup(src->ctrl_key);
		if (!dst->ctrl_key) {
			rblk_auth_keys_free(dst);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * rblk_auth_keys_free() - free the keys of options, zeroing them
 * @opts: options; their keys are NULL after
 */
void rblk_auth_keys_free(struct rblk_ctrl_opts *opts)
{
	nvme_auth_free_key(opts->host_key);
	nvme_auth_free_key(opts->ctrl_key);
	opts->host_key = NULL;
	opts->ctrl_key = NULL;
}

/* The largest hash: SHA-512. */
#define RBLK_AUTH_MAX_HL	64

/**
 * struct rblk_auth_xchg - one DH-HMAC-CHAP exchange on one queue
 * @ctrl: controller
 * @qid: queue
 * @tid: transaction identifier
 * @hashid: hash the controller chose
 * @dhgid: DH group it chose
 * @hl: hash length
 * @bidir: the host authenticates the controller too (a controller key)
 * @step: how far it got (&enum rblk_auth_step)
 * @reason: the failure reason received (AUTH_Failure1) or sent
 *	(AUTH_Failure2), 0 if none
 * @status: NVMe status of an authentication command the target refused
 * @s1: the controller's sequence number
 * @s2: the host's, for @c2
 * @c1: the controller's challenge
 * @c2: the host's challenge
 * @r1: the host's response
 * @r2: the response expected from the controller
 * @shash: HMAC transform of @hashid; holds a transformed key as its key
 * @kpp: DH transform of @dhgid, holding the host's private value, or NULL
 * @dhv: the host's public DH value, @dhvlen bytes, or NULL
 * @dhvlen: its length
 * @sess_key: the session key of the DH exchange (g^xy, or H(g^xy) with the
 *	library of 7.1: rblk_auth_sess_len()), or NULL
 * @sess_len: its length
 * @buf: message buffer, %RBLK_AUTH_BUF_SIZE bytes
 *
 * On the heap, and everything secret in it zeroed when it is freed.
 */
struct rblk_auth_xchg {
	struct rblk_ctrl *ctrl;
	u16 qid;
	u16 tid;
	u8 hashid;
	u8 dhgid;
	u8 hl;
	bool bidir;
	u8 step;
	u8 reason;
	u16 status;
	u32 s1;
	u32 s2;
	u8 c1[RBLK_AUTH_MAX_HL];
	u8 c2[RBLK_AUTH_MAX_HL];
	u8 r1[RBLK_AUTH_MAX_HL];
	u8 r2[RBLK_AUTH_MAX_HL];
	struct crypto_shash *shash;
	struct crypto_kpp *kpp;
	u8 *dhv;
	u16 dhvlen;
	u8 *sess_key;
	size_t sess_len;
	void *buf;
};

static void rblk_auth_xchg_free(struct rblk_auth_xchg *x)
{
	/* crypto_free_*() zero the transforms' contexts: key, private value. */
	if (x->shash)
		crypto_free_shash(x->shash);
	if (x->kpp)
		crypto_free_kpp(x->kpp);
	kfree(x->dhv);
	kfree_sensitive(x->sess_key);
	kfree_sensitive(x->buf);
	kfree_sensitive(x);
}

/* A failure that reconnecting would not mend: stop reconnecting. */
static int rblk_auth_final(struct rblk_auth_xchg *x, int err)
{
	set_bit(RBLK_CTRL_AUTH_FAILED, &x->ctrl->flags);
	return err;
}

static int rblk_auth_send(struct rblk_auth_xchg *x, int len)
{
	return rblk_fabrics_auth(x->ctrl, x->qid, true, x->buf, len);
}

/* Zeroed first: the completion does not say how much the target wrote. */
static int rblk_auth_receive(struct rblk_auth_xchg *x)
{
	memset(x->buf, 0, RBLK_AUTH_BUF_SIZE);
	return rblk_fabrics_auth(x->ctrl, x->qid, false, x->buf,
				 RBLK_AUTH_BUF_SIZE);
}

/*
 * The answer of an Authentication Send or Receive that failed: a status
 * is the target's refusal of the command, final if it says not to retry;
 * an errno is the host's (timeout, broken queue), worth a reconnect.
 */
static int rblk_auth_cmd_failed(struct rblk_auth_xchg *x, int ret,
				const char *what, const char **errmsg)
{
	struct rblk_ctrl *ctrl = x->ctrl;

	if (ret < 0) {
		rblk_err(ctrl, "queue %u: authentication: %s did not complete: %d\n",
			 x->qid, what, ret);
		*errmsg = "DH-HMAC-CHAP: an authentication command did not complete";
		return ret;
	}
	rblk_err(ctrl, "queue %u: authentication: %s failed, status %#x (%s)\n",
		 x->qid, what, ret, rblk_status_name(ret, false));
	x->status = ret;
	ctrl->refusal.status = ret & RBLK_SC_MASK;
	*errmsg = "DH-HMAC-CHAP: the target refused an authentication command";
	if (ret & NVME_STATUS_DNR)
		return rblk_auth_final(x, rblk_status_to_errno(ret));
	return rblk_status_to_errno(ret);
}

/*
 * The host's failure after the Challenge: tell the controller
 * (AUTH_Failure2), whose own failure to take it changes nothing.
 */
static void rblk_auth_send_failure2(struct rblk_auth_xchg *x, u8 reason)
{
	int len = rblk_auth_failure2(x->buf, RBLK_AUTH_BUF_SIZE, x->tid,
				     reason);

	x->reason = reason;
	if (len > 0)
		rblk_auth_send(x, len);
}

/*
 * HMAC(transformed key, Ca || S || T_ID || 00h || role || nqn1 || 00h ||
 * nqn2) into @out, @x->hl bytes: the host's response (key the host's,
 * transformed with its NQN, role "HostHost", nqn1 the host's) and the
 * controller's (the controller key with the subsystem NQN, "Controller",
 * the NQNs swapped).  Ca is @chal augmented with the session key when
 * there is one.
 */
static int rblk_auth_response(struct rblk_auth_xchg *x,
			      struct nvme_dhchap_key *key, const u8 *chal,
			      u32 seq, const char *role, char *nqn1,
			      char *nqn2, u8 *out)
{
	SHASH_DESC_ON_STACK(desc, x->shash);
	struct nvme_dhchap_key *tkey;
	u8 aug[RBLK_AUTH_MAX_HL];
	u8 word[4];
	int ret;

	tkey = nvme_auth_transform_key(key, nqn1);
	if (IS_ERR(tkey))
		return PTR_ERR(tkey);
	ret = crypto_shash_setkey(x->shash, tkey->key, tkey->len);
	nvme_auth_free_key(tkey);
	if (ret)
		return ret;
	if (x->sess_key) {
		ret = nvme_auth_augmented_challenge(x->hashid, x->sess_key,
						    x->sess_len, (u8 *)chal,
						    aug, x->hl);
		if (ret)
			goto out;
		chal = aug;
	}

	desc->tfm = x->shash;
	ret = crypto_shash_init(desc);
	if (!ret)
		ret = crypto_shash_update(desc, chal, x->hl);
	put_unaligned_le32(seq, word);
	if (!ret)
		ret = crypto_shash_update(desc, word, 4);
	put_unaligned_le16(x->tid, word);
	if (!ret)
		ret = crypto_shash_update(desc, word, 2);
	word[0] = 0;
	if (!ret)
		ret = crypto_shash_update(desc, word, 1);
	if (!ret)
		ret = crypto_shash_update(desc, role, strlen(role));
	if (!ret)
		ret = crypto_shash_update(desc, nqn1, strlen(nqn1));
	if (!ret)
		ret = crypto_shash_update(desc, word, 1);
	if (!ret)
		ret = crypto_shash_update(desc, nqn2, strlen(nqn2));
	if (!ret)
		ret = crypto_shash_final(desc, out);
	shash_desc_zero(desc);
out:
	memzero_explicit(aug, sizeof(aug));
	return ret;
}

/*
 * The transforms the Challenge asks for, the DH exchange, the host's
 * response and, bidirectional, its challenge and the response it expects.
 * The Challenge is in @x->buf; what is kept of it is copied out.  On
 * failure *@reason is what AUTH_Failure2 says.
 */
static int rblk_auth_compute(struct rblk_auth_xchg *x,
			     const struct rblk_auth_challenge *ch, u8 *reason)
{
	struct rblk_ctrl_opts *o = &x->ctrl->opts;
	int ret;

	x->hashid = ch->hashid;
	x->dhgid = ch->dhgid;
	x->hl = ch->hl;
	x->s1 = ch->s1;
	memcpy(x->c1, ch->c1, ch->hl);

	*reason = NVME_AUTH_DHCHAP_FAILURE_HASH_UNUSABLE;
	x->shash = crypto_alloc_shash(nvme_auth_hmac_name(x->hashid), 0, 0);
	if (IS_ERR(x->shash)) {
		ret = PTR_ERR(x->shash);
		x->shash = NULL;
		return ret;
	}
	if (crypto_shash_digestsize(x->shash) != x->hl ||
	    nvme_auth_hmac_hash_len(x->hashid) != x->hl)
		return -EPROTO;

	if (x->dhgid != NVME_AUTH_DHGROUP_NULL) {
		*reason = NVME_AUTH_DHCHAP_FAILURE_DHGROUP_UNUSABLE;
		x->kpp = crypto_alloc_kpp(nvme_auth_dhgroup_kpp(x->dhgid), 0, 0);
		if (IS_ERR(x->kpp)) {
			ret = PTR_ERR(x->kpp);
			x->kpp = NULL;
			return ret;
		}
		ret = nvme_auth_gen_privkey(x->kpp, x->dhgid);
		if (ret)
			return ret;
		if (crypto_kpp_maxsize(x->kpp) != ch->dhvlen)
			return -EPROTO;
		x->dhvlen = ch->dhvlen;
		*reason = NVME_AUTH_DHCHAP_FAILURE_FAILED;
		x->dhv = kzalloc(x->dhvlen, GFP_KERNEL);
		x->sess_len = rblk_auth_sess_len(x->dhvlen, x->hl);
		x->sess_key = kzalloc(x->sess_len, GFP_KERNEL);
		if (!x->dhv || !x->sess_key)
			return -ENOMEM;
		ret = nvme_auth_gen_pubkey(x->kpp, x->dhv, x->dhvlen);
		if (ret)
			return ret;
		/* The controller's value is only read: in the buffer still. */
		*reason = NVME_AUTH_DHCHAP_FAILURE_INCORRECT_PAYLOAD;
		ret = rblk_auth_gen_sess_key(x->kpp, ch->dhv, ch->dhvlen,
					     x->sess_key, x->sess_len,
					     x->hashid);
		if (ret)
			return ret;
	}

	*reason = NVME_AUTH_DHCHAP_FAILURE_FAILED;
	ret = rblk_auth_response(x, o->host_key, x->c1, x->s1, "HostHost",
				 o->hostnqn, o->subsysnqn, x->r1);
	if (ret || !x->bidir)
		return ret;
	get_random_bytes(x->c2, x->hl);
	x->s2 = nvme_auth_get_seqnum();
	return rblk_auth_response(x, o->ctrl_key, x->c2, x->s2, "Controller",
				  o->subsysnqn, o->hostnqn, x->r2);
}

/* The exchange proper; its messages are for its queue. */
static int rblk_auth_exchange(struct rblk_auth_xchg *x, const char **errmsg)
{
	struct rblk_ctrl *ctrl = x->ctrl;
	struct rblk_auth_challenge ch;
	const u8 *r2 = NULL;
	u8 reason = 0;
	int len, ret;

	x->step = RBLK_AUTH_STEP_NEGOTIATE;
	len = rblk_auth_negotiate(x->buf, RBLK_AUTH_BUF_SIZE, x->tid);
	ret = rblk_auth_send(x, len);
	if (ret)
		return rblk_auth_cmd_failed(x, ret, "AUTH_Negotiate", errmsg);

	x->step = RBLK_AUTH_STEP_CHALLENGE;
	ret = rblk_auth_receive(x);
	if (ret)
		return rblk_auth_cmd_failed(x, ret, "receiving the Challenge",
					    errmsg);
	ret = rblk_auth_parse_challenge(x->buf, RBLK_AUTH_BUF_SIZE, x->tid,
					&ch, &reason);
	if (ret == -EKEYREJECTED) {
		x->reason = reason;
		rblk_err(ctrl, "queue %u: authentication failed: target refused to negotiate (%s)\n",
			 x->qid, rblk_auth_failure_name(reason));
		*errmsg = "DH-HMAC-CHAP: the target refused to negotiate";
		return rblk_auth_final(x, -EKEYREJECTED);
	}
	if (ret) {
		rblk_err(ctrl, "queue %u: authentication: malformed Challenge (%s)\n",
			 x->qid, rblk_auth_failure_name(reason));
		rblk_auth_send_failure2(x, reason);
		*errmsg = "DH-HMAC-CHAP: malformed Challenge from the target";
		return -EPROTO;
	}

	ret = rblk_auth_compute(x, &ch, &reason);
	if (ret) {
		rblk_err(ctrl, "queue %u: authentication: %s with %s, %s: %d (%s)\n",
			 x->qid, "cannot compute the response",
			 rblk_auth_hash_name(x->hashid),
			 rblk_auth_dhgroup_name(x->dhgid), ret,
			 rblk_auth_failure_name(reason));
		rblk_auth_send_failure2(x, reason);
		*errmsg = "DH-HMAC-CHAP: cannot compute the response";
		return ret == -ENOMEM ? ret : -EPROTO;
	}

	x->step = RBLK_AUTH_STEP_REPLY;
	len = rblk_auth_reply(x->buf, RBLK_AUTH_BUF_SIZE, x->tid, x->hl, x->r1,
			      x->bidir ? x->c2 : NULL, x->s2, x->dhv,
			      x->dhvlen);
	ret = len < 0 ? len : rblk_auth_send(x, len);
	if (ret)
		return rblk_auth_cmd_failed(x, ret, "sending the Reply",
					    errmsg);

	x->step = RBLK_AUTH_STEP_SUCCESS1;
	ret = rblk_auth_receive(x);
	if (ret)
		return rblk_auth_cmd_failed(x, ret, "receiving Success1",
					    errmsg);
	ret = rblk_auth_parse_success1(x->buf, RBLK_AUTH_BUF_SIZE, x->tid,
				       x->hl, x->bidir, &r2, &reason);
	if (ret == -EKEYREJECTED) {
		/*
		 * In place of Success1: the host's response did not match;
		 * asked to answer the host's challenge, nvmet fails the same
		 * way when it holds no controller key.
		 */
		x->reason = reason;
		rblk_err(ctrl, "queue %u: authentication failed: target refused the host key%s (%s)\n",
			 x->qid, x->bidir ? ", or has no controller key" : "",
			 rblk_auth_failure_name(reason));
		*errmsg = x->bidir ?
			  "DH-HMAC-CHAP: the target refused the host key, or has no controller key" :
			  "DH-HMAC-CHAP: the target refused the host key";
		return rblk_auth_final(x, -EKEYREJECTED);
	}
	if (ret && x->bidir && reason == NVME_AUTH_DHCHAP_FAILURE_FAILED) {
		/* It did not answer the host's challenge: not proven. */
		rblk_err(ctrl, "queue %u: controller authentication failed: no response to the host's challenge\n",
			 x->qid);
		rblk_auth_send_failure2(x, reason);
		*errmsg = "DH-HMAC-CHAP: the controller did not prove the controller key";
		return rblk_auth_final(x, -EKEYREJECTED);
	}
	if (ret) {
		rblk_err(ctrl, "queue %u: authentication: malformed Success1 (%s)\n",
			 x->qid, rblk_auth_failure_name(reason));
		rblk_auth_send_failure2(x, reason);
		*errmsg = "DH-HMAC-CHAP: malformed Success1 from the target";
		return -EPROTO;
	}
	if (x->bidir) {
		x->step = RBLK_AUTH_STEP_SUCCESS2;
		if (crypto_memneq(r2, x->r2, x->hl)) {
			rblk_err(ctrl, "queue %u: controller authentication failed: its response does not match the controller key\n",
				 x->qid);
			rblk_auth_send_failure2(x, NVME_AUTH_DHCHAP_FAILURE_FAILED);
			*errmsg = "DH-HMAC-CHAP: the controller's response does not match the controller key";
			return rblk_auth_final(x, -EKEYREJECTED);
		}
		len = rblk_auth_success2(x->buf, RBLK_AUTH_BUF_SIZE, x->tid);
		ret = rblk_auth_send(x, len);
		if (ret)
			return rblk_auth_cmd_failed(x, ret, "sending Success2",
						    errmsg);
	}
	x->step = RBLK_AUTH_STEP_DONE;
	if (!x->qid)
		rblk_info(ctrl, "authenticated: %s, %s, %s\n",
			  rblk_auth_hash_name(x->hashid),
			  rblk_auth_dhgroup_name(x->dhgid),
			  x->bidir ? "bidirectional" : "unidirectional");
	return 0;
}

/**
 * rblk_auth_queue() - authenticate a queue after its Connect
 * @ctrl: controller
 * @qid: the queue just connected, not live yet
 * @authreq: what its Connect's result asks (%NVME_CONNECT_AUTHREQ_*)
 * @errmsg: set to a static reason on failure
 *
 * Nothing when the target does not ask and no controller key was given;
 * otherwise one DH-HMAC-CHAP exchange on the queue, in the caller's
 * context.  A failure that a reconnect would repeat (no key, a key
 * refused, a controller that does not prove its key) sets
 * %RBLK_CTRL_AUTH_FAILED.
 *
 * Return: 0; -ENOKEY when the target requires authentication and there is
 * no host key; -EKEYREJECTED when a key is refused, or the controller is
 * not proven; -EOPNOTSUPP for a secure channel; -EPROTO for a malformed
 * exchange; -ETIMEDOUT or -ECONNRESET when a command did not complete;
 * another negative errno.
 */
int rblk_auth_queue(struct rblk_ctrl *ctrl, u16 qid, u32 authreq,
		    const char **errmsg)
{
	struct rblk_ctrl_opts *o = &ctrl->opts;
	struct rblk_auth_xchg *x;
	int ret;

	/* A new association: not authenticated until proven. */
	if (!qid)
		WRITE_ONCE(ctrl->auth_result, 0);
	ctrl->refusal.auth_reason = 0;
	if (authreq & NVME_CONNECT_AUTHREQ_ASCR) {
		rblk_err(ctrl, "queue %u: target requires secure channel concatenation (TLS), which rblk cannot do\n",
			 qid);
		*errmsg = "the target requires a secure channel (TLS concatenation), which rblk cannot do";
		set_bit(RBLK_CTRL_AUTH_FAILED, &ctrl->flags);
		return -EOPNOTSUPP;
	}
	if (!(authreq & NVME_CONNECT_AUTHREQ_ATR)) {
		/*
		 * -C asked for the controller to be proven: it cannot be.
		 * Unless the association proved it already: a target may
		 * leave the I/O queues of an authenticated admin queue alone
		 * (7.3's nvmet does), and nvme's host takes them so.
		 */
		if (o->ctrl_key && (!qid || !READ_ONCE(ctrl->auth_result))) {
			rblk_err(ctrl, "queue %u: controller authentication failed: the target does not authenticate, but a controller key was given\n",
				 qid);
			*errmsg = "DH-HMAC-CHAP: the target does not authenticate, so the controller key cannot be checked";
			set_bit(RBLK_CTRL_AUTH_FAILED, &ctrl->flags);
			return -EKEYREJECTED;
		}
		if (!qid && o->host_key)
			rblk_info(ctrl, "target does not require authentication: connecting unauthenticated\n");
		return 0;
	}
	if (!o->host_key) {
		rblk_err(ctrl, "queue %u: target requires DH-HMAC-CHAP authentication; no host key (-S)\n",
			 qid);
		*errmsg = "target requires DH-HMAC-CHAP authentication, and no host key was given (-S)";
		set_bit(RBLK_CTRL_AUTH_FAILED, &ctrl->flags);
		return -ENOKEY;
	}

	x = kzalloc(sizeof(*x), GFP_KERNEL);
	if (x)
		x->buf = kmalloc(RBLK_AUTH_BUF_SIZE, GFP_KERNEL);
	if (!x || !x->buf) {
		kfree(x);
		*errmsg = "out of memory";
		return -ENOMEM;
	}
	x->ctrl = ctrl;
	x->qid = qid;
	x->tid = ctrl->auth_tid++;
	x->bidir = o->ctrl_key;
	ret = rblk_auth_exchange(x, errmsg);
	trace_rblk_auth(ctrl, qid, x->step, x->hashid, x->dhgid, x->bidir,
			ret, x->status, x->reason);
	if (ret) {
		ctrl->refusal.auth_reason = x->reason;
	} else if (!qid) {
		WRITE_ONCE(ctrl->auth_result,
			   RBLK_AUTH_RESULT(x->hashid, x->dhgid, x->bidir));
	}
	rblk_auth_xchg_free(x);
	return ret;
}
