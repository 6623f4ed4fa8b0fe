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

#include <linux/nvme-auth.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "rblk.h"
#include "auth.h"

/* A key string into a parsed key; the copy the library reads is zeroed. */
static int rblk_auth_key_parse(const char *secret,
			       struct nvme_dhchap_key **key)
{
	char *copy;
	int ret;

	copy = kstrdup(secret, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	ret = nvme_auth_generate_key(copy, key);
	kfree_sensitive(copy);
	if (!ret && !*key)
		ret = -EINVAL;
	return ret;
}

/**
 * rblk_auth_keys_parse() - parse the DH-HMAC-CHAP keys of a connect
 * @opts: options to hold them; their keys are NULL on entry
 * @secret: the host key, "DHHC-1:NN:<base64>:", or NULL
 * @ctrl_secret: the controller key, or NULL; needs @secret
 * @errmsg: set to a static reason on failure (never quoting a key)
 *
 * Return: 0, -EINVAL for a malformed key (the library logs why: length,
 * base64 or CRC, never the key), or -ENOMEM; @opts then holds no key.
 */
int rblk_auth_keys_parse(struct rblk_ctrl_opts *opts, const char *secret,
			 const char *ctrl_secret, const char **errmsg)
{
	int ret;

	if (ctrl_secret && !secret) {
		*errmsg = "a DH-HMAC-CHAP controller key needs a host key";
		return -EINVAL;
	}
	if (secret) {
		ret = rblk_auth_key_parse(secret, &opts->host_key);
		if (ret) {
			*errmsg = "malformed DH-HMAC-CHAP host key";
			return ret;
		}
	}
	if (ctrl_secret) {
		ret = rblk_auth_key_parse(ctrl_secret, &opts->ctrl_key);
		if (ret) {
			*errmsg = "malformed DH-HMAC-CHAP controller key";
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
