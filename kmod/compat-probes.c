// SPDX-License-Identifier: GPL-2.0
/*
 * Compile probes: which form of each changed kernel interface the headers
 * being built against have.  Kbuild compiles this file once per
 * RBLK_PROBE_* below, that part only, with the module's own flags, all in
 * parallel, and writes RBLK_HAVE_<name> into compat-probes.h for each that
 * compiles; compat.h wraps the interface by it.  A probe compiles only with
 * the new form: by the feature, not the version, so that a distribution's
 * backport of an interface (a Debian stable update) builds too.  Never
 * linked into the module.
 *
 * One probe per interface, each as small as the interface: a call that
 * fails to compile with the old arguments, or a type compared with
 * __same_type() where the old form would only warn.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/build_bug.h>
#include <linux/hdreg.h>
#include <linux/nvme-auth.h>
#include <linux/nvme.h>
#include <linux/scatterlist.h>

int rblk_probe(void *a, void *b, void *c);

/* blk_mq_freeze_queue() returns the memflags its unfreeze restores (6.14). */
#ifdef RBLK_PROBE_FREEZE_MEMFLAGS
int rblk_probe(void *a, void *b, void *c)
{
	unsigned int memflags = blk_mq_freeze_queue(a);

	blk_mq_unfreeze_queue(a, memflags);
	return 0;
}
#endif

/*
 * A freeze without lockdep's owner tracking (6.13; in Debian's 6.12 too),
 * as nvme_start_freeze() uses.
 */
#ifdef RBLK_PROBE_FREEZE_NON_OWNER
int rblk_probe(void *a, void *b, void *c)
{
	blk_freeze_queue_start_non_owner(a);
	blk_mq_unfreeze_queue_non_owner(a);
	return 0;
}
#endif

/* BLK_MQ_F_NO_SCHED: gone in 6.14, a queue without a disk has no elevator. */
#ifdef RBLK_PROBE_MQ_F_NO_SCHED
int rblk_probe(void *a, void *b, void *c)
{
	return BLK_MQ_F_NO_SCHED;
}
#endif

/* BLK_MQ_F_SHOULD_MERGE: gone in 6.14, merging is the default. */
#ifdef RBLK_PROBE_MQ_F_SHOULD_MERGE
int rblk_probe(void *a, void *b, void *c)
{
	return BLK_MQ_F_SHOULD_MERGE;
}
#endif

/* __blk_rq_map_sg() without the request queue (6.15). */
#ifdef RBLK_PROBE_MAP_SG_RQ
int rblk_probe(void *a, void *b, void *c)
{
	return __blk_rq_map_sg(a, b, c);
}
#endif

/* blk_rq_map_kern() without the request queue (6.16). */
#ifdef RBLK_PROBE_MAP_KERN_RQ
int rblk_probe(void *a, void *b, void *c)
{
	return blk_rq_map_kern(a, b, 512, GFP_KERNEL);
}
#endif

/* rq_end_io_fn is given the completion batch (7.0). */
#ifdef RBLK_PROBE_END_IO_BATCH
static enum rq_end_io_ret rblk_probe_end_io(struct request *rq,
					    blk_status_t status,
					    const struct io_comp_batch *iob)
{
	return RQ_END_IO_NONE;
}

int rblk_probe(void *a, void *b, void *c)
{
	static_assert(__same_type(rq_end_io_fn *, &rblk_probe_end_io));
	return 0;
}
#endif

/* ->init_request()'s NUMA node is an int (7.2). */
#ifdef RBLK_PROBE_INIT_REQUEST_INT_NODE
static int rblk_probe_init_request(struct blk_mq_tag_set *set,
				   struct request *rq, unsigned int hctx_idx,
				   int numa_node)
{
	return 0;
}

int rblk_probe(void *a, void *b, void *c)
{
	static_assert(__same_type(((struct blk_mq_ops *)NULL)->init_request,
				  &rblk_probe_init_request));
	return 0;
}
#endif

/* nvme_auth_generate_key() renamed nvme_auth_parse_key() (7.1). */
#ifdef RBLK_PROBE_NVME_AUTH_PARSE_KEY
int rblk_probe(void *a, void *b, void *c)
{
	return nvme_auth_parse_key(a, b);
}
#endif

/*
 * nvme_auth_gen_session_key(): the hashed session key, for an augmented
 * challenge that no longer hashes it (7.1, with nvme_auth_gen_shared_secret()
 * gone).
 */
#ifdef RBLK_PROBE_NVME_AUTH_SESSION_KEY
int rblk_probe(void *a, void *b, void *c)
{
	return nvme_auth_gen_session_key(a, b, 32, c, 32, NVME_AUTH_HASH_SHA256);
}
#endif

/* ->getgeo() takes the disk, not a block device (after 6.12; 7.3 has it). */
#ifdef RBLK_PROBE_GETGEO_DISK
static int rblk_probe_getgeo(struct gendisk *disk, struct hd_geometry *geo)
{
	return 0;
}

int rblk_probe(void *a, void *b, void *c)
{
	static_assert(__same_type(((const struct block_device_operations *)NULL)->getgeo,
				  &rblk_probe_getgeo));
	return 0;
}
#endif
