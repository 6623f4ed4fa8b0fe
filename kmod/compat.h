/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rblk's one place for the differences between the kernels it builds
 * against: Debian 12's 6.1, Debian's 6.12 and Debian 13's backports 7.3
 * (and unstable's 7.2; README.md, "Supported kernels").  Each wrapper is
 * named by what it does and covers one changed interface; the logic files
 * call the wrappers and carry no version tests.
 *
 * Each interface is told apart by one RBLK_HAVE_* below: by a macro that
 * came with it where there is one, else by LINUX_VERSION_CODE at the
 * mainline release that made the change (Debian's 6.1 gets none of them).
 * A change that Debian's 6.12 stable updates bring from a later mainline
 * (struct rq_list, the bool of blk_mq_add_to_batch(), the name of status
 * 0x183) may come with any update: rblk uses what works either way.
 *
 * wrapper                    6.1                        6.12
 * rblk_alloc_queue()         blk_mq_init_queue(set)     blk_mq_alloc_queue(set, lim, d)
 * rblk_alloc_disk()          blk_mq_alloc_disk(set, d)  blk_mq_alloc_disk(set, lim, d)
 * rblk_alloc_bio_disk()      blk_alloc_disk(node),      blk_alloc_disk(lim, node)
 *                            queue flags                (lim.features)
 * rblk_limits_start_stacking(),  blk_set_stacking_limits() on a copy,
 *   rblk_limits_stack_disk(),  blk_stack_limits(),      queue_limits_stack_bdev()
 *   rblk_limits_stack_poll()
 *   struct rblk_limits_user  by hand: the write cache,  (inherited features;
 *                            QUEUE_FLAG_POLL, the       BLK_FEAT_POLL offered
 *                            user's max_sectors_kb      anew; max_user_sectors)
 * rblk_limits_commit()       keeps read_ahead_kb: sets  puts back the
 *                            io_pages only              read_ahead_kb that
 *                                                       blk_apply_bdi_limits()
 *                                                       raised
 * struct rblk_limits,        blk_queue_*() setters,     queue_limits_start_update(),
 *   rblk_limits_*()          QUEUE_FLAG_NONROT,         ..._commit_update(), lim.features
 *                            blk_queue_write_cache()    (BLK_FEAT_WRITE_CACHE, _FUA)
 * rblk_wait_quiesce_done()   of a request queue         of a tag set
 * struct rblk_bdev_open,     ->open(block_device,       ->open(gendisk, blk_mode_t)
 *   rblk_bdev_open_disk()      fmode_t)
 * rblk_acct_start(),         bdev_start_io_acct(bdev,   bdev_start_io_acct(bdev, op, t),
 *   rblk_acct_end()            sectors, op, t), _end(   _end(bdev, op, sectors, t)
 *                            bdev, op, t)
 * rblk_mode_writable()       FMODE_WRITE                BLK_OPEN_WRITE
 * rblk_class_create()        class_create(owner, name)  class_create(name)
 * struct rblk_genl_doit_ops  genl_ops                   genl_split_ops (pre_doit's)
 * rblk_genl_dumpit_attrs()   dumpit info->attrs         dumpit info->info.attrs
 * BLK_STS_RESV_CONFLICT      BLK_STS_NEXUS              (renamed, same value)
 * RBLK_SC_CMD_SIZE_LIM_EXCEEDED  NVME_SC_ONCS_NOT_SUPPORTED, renamed by a 6.12
 *                            stable update: 0x183 by value
 * rblk_rw_clear_lbat(),      rw.apptag, rw.appmask      rw.lbat, rw.lbatm (dword 15)
 *   rblk_rw_set_lbat()
 * <linux/unaligned.h>        <asm/unaligned.h>          <linux/unaligned.h>
 * RBLK_HAVE_NVME_AUTH        no library: auth.c is not  nvme-auth.ko (CONFIG_NVME_AUTH):
 *                            built, auth.h's stubs      kmod/auth.o (Kbuild), DH-HMAC-CHAP
 *                            refuse keys
 *
 * The interfaces changed after 6.12 (met in Debian's 7.x) are each told
 * apart by a compile probe (kmod/compat-probes.c, RBLK_HAVE_* in the
 * generated compat-probes.h), so that a backport of one into a stable
 * kernel builds as well:
 *
 * wrapper                    6.1, 6.12                  7.3 (mainline release)
 * rblk_freeze_queue(),       blk_mq_freeze_queue(q),    memflags returned and
 *   rblk_unfreeze_queue()    blk_mq_unfreeze_queue(q)   restored (6.14)
 * rblk_unfreeze_started()    blk_mq_unfreeze_queue()    ..._nomemrestore(): no
 *                            after blk_freeze_queue_start()  memflags saved (6.14)
 * rblk_freeze_start_non_owner(), blk_freeze_queue_start(), ..._non_owner(): no
 *   rblk_unfreeze_non_owner() blk_mq_unfreeze_queue() lockdep owner (6.13; in
 *                                                       Debian's 6.12 too)
 * RBLK_MQ_F_NO_SCHED         BLK_MQ_F_NO_SCHED          0: a queue without a disk
 *                                                       has no elevator (6.14)
 * RBLK_MQ_F_SHOULD_MERGE     BLK_MQ_F_SHOULD_MERGE      0: merging is the default (6.14)
 * rblk_rq_map_sg()           __blk_rq_map_sg(q, rq, ..) __blk_rq_map_sg(rq, ..) (6.15)
 * rblk_rq_map_kern()         blk_rq_map_kern(q, rq, ..) blk_rq_map_kern(rq, ..) (6.16)
 * RBLK_END_IO_ARGS()         (rq, status)               (rq, status, iob) (7.0)
 * RBLK_GETGEO_ARGS(),       (bdev, geo)                (disk, geo) (7.x)
 *   rblk_getgeo_disk()       of ->getgeo()
 * rblk_numa_node_t           unsigned int               int: ->init_request()'s
 *                                                       node (7.2)
 * rblk_auth_parse_key()      nvme_auth_generate_key()   nvme_auth_parse_key() (7.1)
 * rblk_auth_sess_len(),      g^xy, the DH value's       H(g^xy), the hash's length,
 *   rblk_auth_gen_sess_key() length: the augmented      hashed no more by the
 *                            challenge hashes it        augmented challenge (7.1)
 * timer_container_of()       from_timer()               the macro itself (6.16)
 * RBLK_NS_FEAT_OPTPERF       NVME_NS_FEAT_IO_OPT        NVME_NS_FEAT_OPTPERF_*
 *                                                       (7.1): by value, bit 4
 *
 * timer_delete() and timer_delete_sync() are used directly: 6.1 and 6.12
 * have them, 6.15 removed del_timer().
 *
 * Used directly, the same on both: rq_list_peek() and rq_list_for_each()
 * (a request pointer in 6.1, &struct rq_list in 6.12.25+),
 * blk_mq_add_to_batch() given 0 for no error (int in 6.1, bool in
 * 6.12.20+), blk_mq_update_nr_hw_queues(), the ib_core and rdma_cm calls.
 * How to add a kernel: Documentation/testing.rst, "Kernels".
 */
#ifndef _RBLK_COMPAT_H
#define _RBLK_COMPAT_H

#include <linux/backing-dev-defs.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/device.h>
#include <linux/nvme.h>
#include <linux/pagemap.h>
#include <linux/version.h>
#include <net/genetlink.h>

#include "compat-probes.h"

/*
 * Which interface the headers have.  By a macro that came with it where
 * there is one; else by the mainline release that made the change.
 */
/* genl split ops: pre_doit's ops, a dump's genl_info (6.2). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define RBLK_HAVE_GENL_SPLIT_OPS
#endif
/* blk_mq_wait_quiesce_done() of a tag set (6.2). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define RBLK_HAVE_QUIESCE_TAGSET
#endif
/* class_create() without an owner (6.4). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define RBLK_HAVE_CLASS_CREATE_NAME_ONLY
#endif
/* ->open(gendisk, blk_mode_t): came with blk_mode_t's BLK_OPEN_* (6.5). */
#ifdef BLK_OPEN_READ
#define RBLK_HAVE_BDEV_OPEN_DISK
#endif
/*
 * Atomic queue limits (6.9) with the features in them (6.11): the
 * BLK_FEAT_* came last.
 */
#ifdef BLK_FEAT_WRITE_CACHE
#define RBLK_HAVE_ATOMIC_LIMITS
#endif
/* <linux/unaligned.h> (6.12; sparse 0.6.4 has no __has_include). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define RBLK_HAVE_LINUX_UNALIGNED
#endif

/*
 * The NVMe authentication library (nvme-auth.ko): by the kernel's
 * configuration, not its headers (6.1 ships <linux/nvme-auth.h> without
 * the library).  The same test as Kbuild's rblk-$(CONFIG_NVME_AUTH).
 */
#if IS_ENABLED(CONFIG_NVME_AUTH)
#define RBLK_HAVE_NVME_AUTH
#endif

#ifdef RBLK_HAVE_NVME_AUTH
#include <linux/nvme-auth.h>
#endif

#ifdef RBLK_HAVE_LINUX_UNALIGNED
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * Queue limits.  6.1 sets each limit on the live queue, one setter a
 * limit; 6.12 changes a copy and commits it whole, validated (it may
 * refuse: -EINVAL), with no request in flight (frozen, or quiesced with
 * nothing outstanding).  The rblk_limits_*() setters change the copy; on
 * 6.1 they are the old setters, and the commit has nothing left to do.
 */

/**
 * struct rblk_limits_user - what the user set on a stacked queue that its
 *	restacks keep, beside the limits (empty on 6.12, whose limits keep
 *	max_user_sectors)
 * @max_sectors: max_sectors_kb, in sectors; 0 if none (6.1)
 * @stacked: max_sectors as the last restack stacked it (6.1)
 * @set: max_sectors as the last restack set it (6.1)
 */
struct rblk_limits_user {
#ifndef RBLK_HAVE_ATOMIC_LIMITS
	unsigned int max_sectors;
	unsigned int stacked;
	unsigned int set;
#endif
};

/**
 * struct rblk_limits - a change of a request queue's limits
 * @q: the queue
 * @lim: the limits being changed (6.12)
 * @stacking: the limits are stacked anew (6.1)
 * @wc: a disk below has a volatile write cache (6.1, stacking)
 * @fua: a disk below supports FUA (6.1, stacking)
 * @poll: every disk below polls (6.1, stacking: QUEUE_FLAG_POLL)
 * @stack: the limits being stacked, applied at once by the commit (6.1)
 * @user: what the user set, kept by the commit (6.1, stacking)
 */
struct rblk_limits {
	struct request_queue *q;
#ifdef RBLK_HAVE_ATOMIC_LIMITS
	struct queue_limits lim;
#else
	bool stacking;
	bool wc;
	bool fua;
	bool poll;
	struct queue_limits stack;
	struct rblk_limits_user *user;
#endif
};

#ifdef RBLK_HAVE_ATOMIC_LIMITS

/* A request queue without a disk (limits: the defaults, then a commit). */
static inline struct request_queue *rblk_alloc_queue(struct blk_mq_tag_set *set)
{
	return blk_mq_alloc_queue(set, NULL, NULL);
}

/* A disk and its request queue, with the default limits. */
#define rblk_alloc_disk(set, queuedata) blk_mq_alloc_disk(set, NULL, queuedata)

static inline void rblk_limits_start(struct rblk_limits *l,
				     struct request_queue *q)
{
	l->q = q;
	l->lim = queue_limits_start_update(q);
}

/*
 * Applies the change; the queue frozen or with nothing in flight.  The
 * user's read_ahead_kb stays, on every rblk disk: the commit raises one
 * set below the default (blk_apply_bdi_limits()), which is put back
 * unless io_opt calls for more.  Only if nothing wrote it meanwhile: the
 * sysfs store does not take the limits lock before 6.15.
 */
static inline int rblk_limits_commit(struct rblk_limits *l)
{
	struct gendisk *disk = l->q->disk;
	unsigned long saved = disk ? READ_ONCE(disk->bdi->ra_pages) : 0;
	unsigned long raised;
	int ret;

	ret = queue_limits_commit_update(l->q, &l->lim);
	if (disk && (unsigned long)l->lim.io_opt * 2 >> PAGE_SHIFT <= saved) {
		raised = max_t(unsigned long, saved, VM_READAHEAD_PAGES);
		cmpxchg(&disk->bdi->ra_pages, raised, saved);
	}
	return ret;
}

/*
 * A bio-based disk that passes each bio on to another disk (a multipath
 * head): limits stacked from those below, no request in between.
 */
static inline struct gendisk *rblk_alloc_bio_disk(int node)
{
	struct queue_limits lim;

	blk_set_stacking_limits(&lim);
	lim.dma_alignment = 3;
	/* Not zoned: the validation refuses the stacking default. */
	lim.max_zone_append_sectors = 0;
	lim.features |= BLK_FEAT_NOWAIT | BLK_FEAT_IO_STAT | BLK_FEAT_POLL;
	return blk_alloc_disk(&lim, node);
}

/*
 * Limits stacked anew from the disks below; the queue frozen.  @user is
 * 6.1's: the limits keep the user's max_sectors_kb (max_user_sectors).
 */
static inline void rblk_limits_start_stacking(struct rblk_limits *l,
					      struct request_queue *q,
					      struct rblk_limits_user *user)
{
	unsigned int max_user;
	blk_features_t own;

	l->q = q;
	l->lim = queue_limits_start_update(q);
	max_user = l->lim.max_user_sectors;

	own = l->lim.features & ~BLK_FEAT_INHERIT_MASK;
	blk_set_stacking_limits(&l->lim);
	l->lim.dma_alignment = 3;
	l->lim.max_zone_append_sectors = 0;
	/*
	 * Polled while every path polls: blk_stack_limits() clears the
	 * feature for a path without poll queues, so it is offered anew
	 * each time (as nvme_mpath_alloc_disk() offers it), or one such
	 * path would turn it off for good.
	 */
	l->lim.features |= own | BLK_FEAT_POLL;
	/* The user's max_sectors_kb stays. */
	l->lim.max_user_sectors = max_user;
}

/* The write cache and FUA features come with the limits. */
static inline void rblk_limits_stack_disk(struct rblk_limits *l,
					  struct gendisk *disk,
					  const char *name)
{
	queue_limits_stack_bdev(&l->lim, disk->part0, 0, name);
}

/*
 * A path whose controller has no poll queues: the head does not poll.
 * Told, not stacked: 6.12's blk-mq keeps BLK_FEAT_POLL on a queue whose
 * poll map emptied (blk_mq_can_poll() decides per bio).
 */
static inline void rblk_limits_stack_poll(struct rblk_limits *l, bool poll)
{
	if (!poll)
		l->lim.features &= ~BLK_FEAT_POLL;
}

static inline void rblk_limits_max_hw_sectors(struct rblk_limits *l,
					      unsigned int sectors)
{
	l->lim.max_hw_sectors = sectors;
}

/* The value the change sets, or the queue's. */
static inline unsigned int rblk_limits_get_max_hw_sectors(struct rblk_limits *l)
{
	return l->lim.max_hw_sectors;
}

static inline void rblk_limits_max_segments(struct rblk_limits *l,
					    unsigned short segments)
{
	l->lim.max_segments = segments;
}

/*
 * A virt boundary leaves no segment size limit (6.12 refuses one, and
 * the defaults have 64 KiB): as nvme sets them.
 */
static inline void rblk_limits_virt_boundary(struct rblk_limits *l,
					     unsigned long mask)
{
	l->lim.virt_boundary_mask = mask;
	l->lim.max_segment_size = UINT_MAX;
}

static inline void rblk_limits_dma_alignment(struct rblk_limits *l, int mask)
{
	l->lim.dma_alignment = mask;
}

static inline void rblk_limits_logical_block_size(struct rblk_limits *l,
						  unsigned int size)
{
	l->lim.logical_block_size = size;
}

static inline void rblk_limits_physical_block_size(struct rblk_limits *l,
						   unsigned int size)
{
	l->lim.physical_block_size = size;
}

static inline void rblk_limits_io_min(struct rblk_limits *l, unsigned int min)
{
	l->lim.io_min = min;
}

/* Solid state: no seek penalty. */
static inline void rblk_limits_nonrot(struct rblk_limits *l)
{
	l->lim.features &= ~BLK_FEAT_ROTATIONAL;
}

static inline void rblk_limits_write_cache(struct rblk_limits *l, bool wc,
					   bool fua)
{
	l->lim.features &= ~(BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA);
	if (wc)
		l->lim.features |= BLK_FEAT_WRITE_CACHE;
	if (fua)
		l->lim.features |= BLK_FEAT_FUA;
}

static inline void rblk_limits_discard_granularity(struct rblk_limits *l,
						   unsigned int bytes)
{
	l->lim.discard_granularity = bytes;
}

static inline void rblk_limits_max_discard_sectors(struct rblk_limits *l,
						   unsigned int sectors)
{
	l->lim.max_hw_discard_sectors = sectors;
}

static inline void rblk_limits_max_discard_segments(struct rblk_limits *l,
						    unsigned short segments)
{
	l->lim.max_discard_segments = segments;
}

static inline void rblk_limits_max_write_zeroes_sectors(struct rblk_limits *l,
							unsigned int sectors)
{
	l->lim.max_write_zeroes_sectors = sectors;
}

#else /* !RBLK_HAVE_ATOMIC_LIMITS */

static inline struct request_queue *rblk_alloc_queue(struct blk_mq_tag_set *set)
{
	return blk_mq_init_queue(set);
}

#define rblk_alloc_disk(set, queuedata) blk_mq_alloc_disk(set, queuedata)

static inline void rblk_limits_start(struct rblk_limits *l,
				     struct request_queue *q)
{
	l->q = q;
	l->stacking = false;
}

/*
 * Stacked limits apply at once, with what the user set.  6.1 keeps no
 * max_user_sectors: a max_sectors other than the last restack's was
 * written to max_sectors_kb (the stacked one written back is no setting),
 * and stays, within max_hw_sectors, as 6.12's.  Not
 * disk_update_readahead(): it resets read_ahead_kb.
 */
static inline int rblk_limits_commit(struct rblk_limits *l)
{
	struct request_queue *q = l->q;
	struct queue_limits *lim = &l->stack;
	struct rblk_limits_user *u = l->user;
	unsigned int cur, hw;

	if (!l->stacking)
		return 0;
	/* As max_sectors_kb's store: under the queue lock. */
	spin_lock_irq(&q->queue_lock);
	cur = q->limits.max_sectors;
	if (u->set && cur != u->set)
		u->max_sectors = cur == u->stacked ? 0 : cur;
	u->stacked = lim->max_sectors;
	if (u->max_sectors) {
		hw = min_not_zero(lim->max_hw_sectors, lim->max_dev_sectors);
		lim->max_sectors = round_down(min(u->max_sectors, hw),
					      lim->logical_block_size >>
					      SECTOR_SHIFT);
	}
	u->set = lim->max_sectors;
	/* In one go: no discard sees a cleared limit meanwhile. */
	q->limits = *lim;
	q->disk->bdi->io_pages = lim->max_sectors >>
				 (PAGE_SHIFT - SECTOR_SHIFT);
	spin_unlock_irq(&q->queue_lock);
	blk_queue_write_cache(q, l->wc, l->fua);
	/* Polled while every path polls, as 6.12's stacking decides. */
	if (l->poll)
		blk_queue_flag_set(QUEUE_FLAG_POLL, q);
	else
		blk_queue_flag_clear(QUEUE_FLAG_POLL, q);
	return 0;
}

static inline struct gendisk *rblk_alloc_bio_disk(int node)
{
	struct gendisk *disk = blk_alloc_disk(node);

	if (!disk)
		return ERR_PTR(-ENOMEM);
	blk_set_stacking_limits(&disk->queue->limits);
	blk_queue_dma_alignment(disk->queue, 3);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
	blk_queue_flag_set(QUEUE_FLAG_NOWAIT, disk->queue);
	blk_queue_flag_set(QUEUE_FLAG_IO_STAT, disk->queue);
	return disk;
}

static inline void rblk_limits_start_stacking(struct rblk_limits *l,
					      struct request_queue *q,
					      struct rblk_limits_user *user)
{
	l->q = q;
	l->stacking = true;
	l->user = user;
	l->wc = false;
	l->fua = false;
	l->poll = true;
	blk_set_stacking_limits(&l->stack);
	l->stack.dma_alignment = 3;
}

/* 6.1 stacks no queue flag: the write cache is set by the commit. */
static inline void rblk_limits_stack_disk(struct rblk_limits *l,
					  struct gendisk *disk,
					  const char *name)
{
	struct request_queue *b = disk->queue;

	blk_stack_limits(&l->stack, &b->limits, 0);
	l->wc |= test_bit(QUEUE_FLAG_WC, &b->queue_flags);
	l->fua |= test_bit(QUEUE_FLAG_FUA, &b->queue_flags);
	l->poll &= test_bit(QUEUE_FLAG_POLL, &b->queue_flags);
}

static inline void rblk_limits_stack_poll(struct rblk_limits *l, bool poll)
{
	l->poll &= poll;
}

static inline void rblk_limits_max_hw_sectors(struct rblk_limits *l,
					      unsigned int sectors)
{
	blk_queue_max_hw_sectors(l->q, sectors);
}

static inline unsigned int rblk_limits_get_max_hw_sectors(struct rblk_limits *l)
{
	return queue_max_hw_sectors(l->q);
}

static inline void rblk_limits_max_segments(struct rblk_limits *l,
					    unsigned short segments)
{
	blk_queue_max_segments(l->q, segments);
}

static inline void rblk_limits_virt_boundary(struct rblk_limits *l,
					     unsigned long mask)
{
	blk_queue_virt_boundary(l->q, mask);
}

static inline void rblk_limits_dma_alignment(struct rblk_limits *l, int mask)
{
	blk_queue_dma_alignment(l->q, mask);
}

static inline void rblk_limits_logical_block_size(struct rblk_limits *l,
						  unsigned int size)
{
	blk_queue_logical_block_size(l->q, size);
}

static inline void rblk_limits_physical_block_size(struct rblk_limits *l,
						   unsigned int size)
{
	blk_queue_physical_block_size(l->q, size);
}

static inline void rblk_limits_io_min(struct rblk_limits *l, unsigned int min)
{
	blk_queue_io_min(l->q, min);
}

static inline void rblk_limits_nonrot(struct rblk_limits *l)
{
	blk_queue_flag_set(QUEUE_FLAG_NONROT, l->q);
}

static inline void rblk_limits_write_cache(struct rblk_limits *l, bool wc,
					   bool fua)
{
	blk_queue_write_cache(l->q, wc, fua);
}

static inline void rblk_limits_discard_granularity(struct rblk_limits *l,
						   unsigned int bytes)
{
	l->q->limits.discard_granularity = bytes;
}

static inline void rblk_limits_max_discard_sectors(struct rblk_limits *l,
						   unsigned int sectors)
{
	blk_queue_max_discard_sectors(l->q, sectors);
}

static inline void rblk_limits_max_discard_segments(struct rblk_limits *l,
						    unsigned short segments)
{
	blk_queue_max_discard_segments(l->q, segments);
}

static inline void rblk_limits_max_write_zeroes_sectors(struct rblk_limits *l,
							unsigned int sectors)
{
	blk_queue_max_write_zeroes_sectors(l->q, sectors);
}

#endif /* RBLK_HAVE_ATOMIC_LIMITS */

/*
 * Waits until every ->queue_rq() that started before a quiesce of @q is
 * done; 6.2 waits for the tag set's (one grace period covers its queues).
 */
static inline void rblk_wait_quiesce_done(struct request_queue *q)
{
#ifdef RBLK_HAVE_QUIESCE_TAGSET
	blk_mq_wait_quiesce_done(q->tag_set);
#else
	blk_mq_wait_quiesce_done(q);
#endif
}

/*
 * &block_device_operations.open: int open(struct rblk_bdev_open *arg,
 * rblk_bdev_open_mode_t mode), rblk_bdev_open_disk(arg) the disk opened.
 * 6.5 passes the gendisk and a blk_mode_t for the block device and an
 * fmode_t.
 */
#ifdef RBLK_HAVE_BDEV_OPEN_DISK
#define rblk_bdev_open		gendisk
#define rblk_bdev_open_mode_t	blk_mode_t
static inline struct gendisk *rblk_bdev_open_disk(struct gendisk *disk)
{
	return disk;
}

/* The block device was opened for writing (also ->ioctl's mode). */
static inline bool rblk_mode_writable(blk_mode_t mode)
{
	return mode & BLK_OPEN_WRITE;
}
#else
#define rblk_bdev_open		block_device
#define rblk_bdev_open_mode_t	fmode_t
static inline struct gendisk *rblk_bdev_open_disk(struct block_device *bdev)
{
	return bdev->bd_disk;
}

static inline bool rblk_mode_writable(fmode_t mode)
{
	return mode & FMODE_WRITE;
}
#endif

/* A device class of this module; 6.4 dropped the owner. */
#ifdef RBLK_HAVE_CLASS_CREATE_NAME_ONLY
#define rblk_class_create(name) class_create(name)
#else
#define rblk_class_create(name) class_create(THIS_MODULE, name)
#endif

/*
 * What a genl family's pre_doit and post_doit are given: since 6.2 a
 * split op (the doit half of the command), with the same internal_flags.
 */
#ifdef RBLK_HAVE_GENL_SPLIT_OPS
#define rblk_genl_doit_ops genl_split_ops
#else
#define rblk_genl_doit_ops genl_ops
#endif

/* The parsed attributes of a dump's request (6.2: in a genl_info). */
static inline struct nlattr **rblk_genl_dumpit_attrs(struct netlink_callback *cb)
{
#ifdef RBLK_HAVE_GENL_SPLIT_OPS
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * I/O statistics of a bio-based disk counted by a request of another
 * (a multipath head's, by its path's requests): 6.3 moved the sectors
 * from the start to the end.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
static inline unsigned long rblk_acct_start(struct block_device *bdev,
					    struct request *rq)
{
	return bdev_start_io_acct(bdev, req_op(rq), jiffies);
}

static inline void rblk_acct_end(struct block_device *bdev,
				 struct request *rq, unsigned long start)
{
	bdev_end_io_acct(bdev, req_op(rq), blk_rq_bytes(rq) >> SECTOR_SHIFT,
			 start);
}
#else
static inline unsigned long rblk_acct_start(struct block_device *bdev,
					    struct request *rq)
{
	return bdev_start_io_acct(bdev, blk_rq_bytes(rq) >> SECTOR_SHIFT,
				  req_op(rq), jiffies);
}

static inline void rblk_acct_end(struct block_device *bdev,
				 struct request *rq, unsigned long start)
{
	bdev_end_io_acct(bdev, req_op(rq), start);
}
#endif

/* A reservation conflict: 6.5 renamed BLK_STS_NEXUS (same value). */
#ifndef BLK_STS_RESV_CONFLICT
#define BLK_STS_RESV_CONFLICT	BLK_STS_NEXUS
#endif

/*
 * Status 0x183 of an I/O command: NVME_SC_ONCS_NOT_SUPPORTED in 6.1,
 * NVME_SC_CMD_SIZE_LIM_EXCEEDED after a 6.12 stable update (an enum: no
 * test can tell which a header has).  By value.
 */
#define RBLK_SC_CMD_SIZE_LIM_EXCEEDED	0x183

/*
 * Clears dword 15 of a read or write: the logical block application tag
 * and its mask, apptag and appmask in 6.1, lbat and lbatm in 6.12 (a
 * rename of the fields of &struct nvme_rw_command).  By the dword.
 */
static inline void rblk_rw_clear_lbat(struct nvme_command *cmd)
{
	cmd->common.cdw15 = 0;
}

static inline void rblk_rw_set_lbat(struct nvme_command *cmd, u16 tag,
				    u16 mask)
{
	cmd->common.cdw15 = cpu_to_le32(tag | (u32)mask << 16);
}

/*
 * Freezing a queue: since 6.14 the freeze saves the task's memalloc_noio
 * state (a frozen queue must not recurse into I/O reclaim) and the unfreeze
 * restores it.  A freeze started with blk_freeze_queue_start() saved
 * nothing: rblk_unfreeze_started() ends it.
 */
#ifdef RBLK_HAVE_FREEZE_MEMFLAGS
static inline unsigned int __must_check
rblk_freeze_queue(struct request_queue *q)
{
	return blk_mq_freeze_queue(q);
}

static inline void rblk_unfreeze_queue(struct request_queue *q,
				       unsigned int memflags)
{
	blk_mq_unfreeze_queue(q, memflags);
}

static inline void rblk_unfreeze_started(struct request_queue *q)
{
	blk_mq_unfreeze_queue_nomemrestore(q);
}
#else
static inline unsigned int __must_check
rblk_freeze_queue(struct request_queue *q)
{
	blk_mq_freeze_queue(q);
	return 0;
}

static inline void rblk_unfreeze_queue(struct request_queue *q,
				       unsigned int memflags)
{
	blk_mq_unfreeze_queue(q);
}

static inline void rblk_unfreeze_started(struct request_queue *q)
{
	blk_mq_unfreeze_queue(q);
}
#endif

/*
 * A freeze a later call ends, of many queues at once: with lockdep's owner
 * tracking each would hold two lockdep entries until its unfreeze, and a
 * command that freezes every path of a subsystem would run past
 * MAX_LOCK_DEPTH (nvme_start_freeze() uses these for the same reason).
 */
#ifdef RBLK_HAVE_FREEZE_NON_OWNER
static inline void rblk_freeze_start_non_owner(struct request_queue *q)
{
	blk_freeze_queue_start_non_owner(q);
}

static inline void rblk_unfreeze_non_owner(struct request_queue *q)
{
	blk_mq_unfreeze_queue_non_owner(q);
}
#else
static inline void rblk_freeze_start_non_owner(struct request_queue *q)
{
	blk_freeze_queue_start(q);
}

static inline void rblk_unfreeze_non_owner(struct request_queue *q)
{
	blk_mq_unfreeze_queue(q);
}
#endif

/*
 * Tag set flags that 6.14 removed: an admin queue (no disk) gets no
 * elevator, and requests merge, without asking.
 */
#ifdef RBLK_HAVE_MQ_F_NO_SCHED
#define RBLK_MQ_F_NO_SCHED	BLK_MQ_F_NO_SCHED
#else
#define RBLK_MQ_F_NO_SCHED	0
#endif
#ifdef RBLK_HAVE_MQ_F_SHOULD_MERGE
#define RBLK_MQ_F_SHOULD_MERGE	BLK_MQ_F_SHOULD_MERGE
#else
#define RBLK_MQ_F_SHOULD_MERGE	0
#endif

/* A request's segments into @sgl; @last is the cursor (6.15: no queue). */
static inline int rblk_rq_map_sg(struct request *rq, struct scatterlist *sgl,
				 struct scatterlist **last)
{
#ifdef RBLK_HAVE_MAP_SG_RQ
	return __blk_rq_map_sg(rq, sgl, last);
#else
	return __blk_rq_map_sg(rq->q, rq, sgl, last);
#endif
}

/* A kernel buffer as a passthrough request's data (6.16: no queue). */
static inline int rblk_rq_map_kern(struct request *rq, void *buf,
				   unsigned int len, gfp_t gfp)
{
#ifdef RBLK_HAVE_MAP_KERN_RQ
	return blk_rq_map_kern(rq, buf, len, gfp);
#else
	return blk_rq_map_kern(rq->q, rq, buf, len, gfp);
#endif
}

/*
 * The parameters of an rq_end_io_fn: 7.0 adds the completion batch, which
 * rblk's end_io handlers (passthrough of its own) have no use for, as
 * nvme's own keep-alive.
 */
#ifdef RBLK_HAVE_END_IO_BATCH
#define RBLK_END_IO_ARGS(rq, status) \
	struct request *rq, blk_status_t status, const struct io_comp_batch *iob
#else
#define RBLK_END_IO_ARGS(rq, status) struct request *rq, blk_status_t status
#endif

/* ->getgeo(): the disk on newer kernels (7.3), a block device on 6.1/6.12. */
#ifdef RBLK_HAVE_GETGEO_DISK
#define RBLK_GETGEO_ARGS(arg, geo) \
	struct gendisk *arg, struct hd_geometry *geo
#define rblk_getgeo_disk(arg)	(arg)
#else
#define RBLK_GETGEO_ARGS(arg, geo) \
	struct block_device *arg, struct hd_geometry *geo
#define rblk_getgeo_disk(arg)	((arg)->bd_disk)
#endif

/* ->init_request()'s NUMA node: an int since 7.2 (NUMA_NO_NODE is -1). */
#ifdef RBLK_HAVE_INIT_REQUEST_INT_NODE
#define rblk_numa_node_t	int
#else
#define rblk_numa_node_t	unsigned int
#endif

/* from_timer() as 6.16 names it. */
#ifndef timer_container_of
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

/*
 * NSFEAT's bit 4: NPWG and the other preferred sizes are valid (OPTPERF's
 * low bit since NVMe 2.1; 7.1 renamed the constant).  By value.
 */
#define RBLK_NS_FEAT_OPTPERF	(1 << 4)

#ifdef RBLK_HAVE_NVME_AUTH
/* A "DHHC-1:..." key string into a key (7.1's name of the same call). */
static inline int rblk_auth_parse_key(char *secret,
				      struct nvme_dhchap_key **key)
{
#ifdef RBLK_HAVE_NVME_AUTH_PARSE_KEY
	return nvme_auth_parse_key(secret, key);
#else
	return nvme_auth_generate_key(secret, key);
#endif
}

/*
 * The session key of a DH exchange, whose length rblk_auth_sess_len()
 * gives: from 7.1 the library returns Ks = H(g^xy) (NVMe Base 2.1,
 * 8.3.4.5.9), a hash's length, and nvme_auth_augmented_challenge() takes
 * Ks as it is; before, it returned g^xy itself, the DH value's length, and
 * the augmented challenge hashed it.  Either way the pair gives the
 * specification's Ca = HMAC(Ks, C); mixing them does not.
 */
static inline size_t rblk_auth_sess_len(size_t dh_len, size_t hash_len)
{
#ifdef RBLK_HAVE_NVME_AUTH_SESSION_KEY
	return hash_len;
#else
	return dh_len;
#endif
}

static inline int rblk_auth_gen_sess_key(struct crypto_kpp *kpp,
					 const u8 *peer, size_t peer_len,
					 u8 *key, size_t key_len, u8 hash_id)
{
#ifdef RBLK_HAVE_NVME_AUTH_SESSION_KEY
	return nvme_auth_gen_session_key(kpp, peer, peer_len, key, key_len,
					 hash_id);
#else
	return nvme_auth_gen_shared_secret(kpp, (u8 *)peer, peer_len, key,
					   key_len);
#endif
}
#endif /* RBLK_HAVE_NVME_AUTH */

#endif /* _RBLK_COMPAT_H */
