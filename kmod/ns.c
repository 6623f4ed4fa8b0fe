// SPDX-License-Identifier: GPL-2.0
/*
 * rblk namespaces: the scan of the Active Namespace ID list, the identity
 * and format checks after every reconnect and namespace change notice,
 * and the block device of each namespace.
 *
 * Locking: scan_lock serialises scans (the only place namespaces are
 * created); within one, the Identify commands and the disk additions of a
 * batch of ids run in parallel, waited for under scan_lock, the rest in
 * nsid order.  ns->lock orders format changes of the scan against those of
 * a reconnect; the scan freezes a queue before taking it, because a
 * reconnect holding it waits for nothing but the target, while a freeze
 * waits for I/O the reconnect holds.  Namespaces are removed with no lock
 * held: deleting a disk waits for its I/O.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/async.h>
#include <linux/blkdev.h>
#include <linux/hdreg.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "fault.h"
#include "rblk.h"
#include "stats.h"

/* Namespace ids one Identify Active Namespace ID list page holds. */
#define RBLK_NS_LIST_LEN	(NVME_IDENTIFY_DATA_SIZE / sizeof(__le32))
/*
 * Namespace ids a scan identifies, and then adds, at once at most: enough
 * to keep the admin queue's tags busy and the partition reads of many
 * disks in flight, few enough to bound the kworkers that wait on them.
 * Each async item blocks a kworker of the system's unbound pool while it
 * waits on the target, so a batch may have the pool spawn up to this many
 * kworkers (with their stacks), which linger idle for a while after.
 */
#define RBLK_SCAN_BATCH		64

static void rblk_ns_release(struct kref *ref)
{
	struct rblk_ns *ns = container_of(ref, struct rblk_ns, ref);

	rblk_iostats_exit(&ns->stats);
	if (ns->head)
		rblk_head_put(ns->head);
	else
		rblk_disk_index_free(ns->index);
	mutex_destroy(&ns->lock);
	rblk_ctrl_put(ns->ctrl);
	kfree(ns);
}

/**
 * rblk_ns_put() - drop a namespace reference
 * @ns: namespace
 */
void rblk_ns_put(struct rblk_ns *ns)
{
	kref_put(&ns->ref, rblk_ns_release);
}

static int rblk_ns_open(struct rblk_bdev_open *arg, rblk_bdev_open_mode_t mode)
{
	struct rblk_ns *ns = rblk_bdev_open_disk(arg)->private_data;

	if (test_bit(RBLK_NS_REMOVING, &ns->flags))
		return -ENXIO;
	return 0;
}

/* The disk's reference on the namespace, taken when it was added. */
static void rblk_ns_free_disk(struct gendisk *disk)
{
	rblk_ns_put(disk->private_data);
}

/*
 * A made-up geometry, nvme's: partitioning tools and multipath-tools ask
 * (HDIO_GETGEO) and log an error when refused.
 */
static int rblk_getgeo(RBLK_GETGEO_ARGS(arg, geo))
{
	geo->heads = 1 << 6;
	geo->sectors = 1 << 5;
	geo->cylinders = get_capacity(rblk_getgeo_disk(arg)) >> 11;
	return 0;
}

static const struct block_device_operations rblk_ns_fops = {
	.owner		= THIS_MODULE,
	.open		= rblk_ns_open,
	.getgeo		= rblk_getgeo,
	.ioctl		= rblk_ns_ioctl,
	.compat_ioctl	= blkdev_compat_ptr_ioctl,
	.free_disk	= rblk_ns_free_disk,
};

static int rblk_head_bdev_open(struct rblk_bdev_open *arg,
			       rblk_bdev_open_mode_t mode)
{
	return rblk_head_open(rblk_bdev_open_disk(arg)->private_data);
}

/* /dev/rblkN with multipath: the paths' disks are hidden. */
static const struct block_device_operations rblk_head_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= rblk_head_submit_bio,
	.open		= rblk_head_bdev_open,
	.getgeo		= rblk_getgeo,
	.ioctl		= rblk_head_ioctl,
	.compat_ioctl	= blkdev_compat_ptr_ioctl,
	.free_disk	= rblk_head_free_disk,
};

/**
 * rblk_disk_is_head() - whether a disk of rblk's is a multipath head's
 * @disk: /dev/rblkN's disk or a path's
 *
 * Return: true if @disk->private_data is a &struct rblk_head, false if a
 * &struct rblk_ns.
 */
bool rblk_disk_is_head(struct gendisk *disk)
{
	return disk->fops == &rblk_head_fops;
}

/*
 * The first identifier the namespace reports: UUID, NGUID, EUI-64; else
 * one made of the controller's vendor id, serial and model and the nsid.
 */
static void rblk_wwid(const struct rblk_ns_ids *ids, u16 vid,
		      const char *serial, const char *model, u32 nsid,
		      char *buf, size_t len)
{
	if (rblk_ns_has_uuid(ids))
		snprintf(buf, len, "uuid.%pU", &ids->uuid);
	else if (rblk_ns_has_nguid(ids))
		snprintf(buf, len, "eui.%16phN", ids->nguid);
	else if (rblk_ns_has_eui64(ids))
		snprintf(buf, len, "eui.%8phN", ids->eui64);
	else
		snprintf(buf, len, "nvme.%04x-%*phN-%*phN-%08x", vid,
			 (int)strlen(serial), serial, (int)strlen(model),
			 model, nsid);
}

/**
 * rblk_ns_wwid() - world wide identifier of a namespace, as nvme spells it
 * @ns: namespace
 * @buf: output
 * @len: its size, %RBLK_WWID_MAX_LEN is enough
 */
void rblk_ns_wwid(struct rblk_ns *ns, char *buf, size_t len)
{
	struct rblk_ctrl *ctrl = ns->ctrl;
	struct rblk_ns_ids ids;

	if (ns->head) {
		rblk_head_wwid(ns->head, buf, len);
		return;
	}
	mutex_lock(&ns->lock);
	ids = ns->info.ids;
	mutex_unlock(&ns->lock);
	rblk_wwid(&ids, ctrl->vid, ctrl->serial, ctrl->model, ns->nsid, buf,
		  len);
}

/**
 * rblk_head_wwid() - world wide identifier of a multipath head
 * @head: head
 * @buf: output
 * @len: its size, %RBLK_WWID_MAX_LEN is enough
 *
 * As a path's: a head's identifiers are those of each of its paths.
 */
void rblk_head_wwid(struct rblk_head *head, char *buf, size_t len)
{
	rblk_wwid(&head->ids, head->vid, head->subsys->serial,
		  head->subsys->model, head->nsid, buf, len);
}

static sector_t rblk_ns_capacity(const struct rblk_ns_info *info)
{
	return info->nsze << (info->lba_shift - SECTOR_SHIFT);
}

static bool rblk_ns_format_changed(const struct rblk_ns_info *a,
				   const struct rblk_ns_info *b)
{
	return a->lba_shift != b->lba_shift || a->pb_size != b->pb_size;
}

/* The controller's limits changed since they were applied (a reconnect). */
static bool rblk_ns_limits_changed(struct rblk_ns *ns)
{
	struct rblk_ctrl *ctrl = ns->ctrl;

	return ns->limits.max_hw_sectors != ctrl->max_hw_sectors ||
	       ns->limits.max_segments != ctrl->max_segments ||
	       ns->limits.oncs != ctrl->oncs || ns->limits.vwc != ctrl->vwc;
}

/*
 * Limits of the namespace's format; the queue is frozen, or quiesced with
 * nothing in flight.  Return: 0, or -EINVAL if the kernel refuses them
 * (6.12 validates the limits): the queue keeps its old ones, which do not
 * fit the format or the RDMA device, so the I/O of a namespace that has
 * its disk fails from then on (the scan removes it if the target still
 * reports it so), as nvme does with a namespace it cannot update.
 */
static int rblk_ns_set_limits(struct rblk_ns *ns)
{
	struct rblk_ctrl *ctrl = ns->ctrl;
	u32 lbasz = 1U << ns->info.lba_shift;
	struct rblk_limits l;
	int ret;

	rblk_limits_start(&l, ns->queue);
	rblk_set_ctrl_limits(ctrl, &l);
	rblk_limits_logical_block_size(&l, lbasz);
	rblk_limits_physical_block_size(&l, ns->info.pb_size);
	rblk_limits_io_min(&l, ns->info.pb_size);
	rblk_limits_nonrot(&l);
	rblk_limits_write_cache(&l, ctrl->vwc & NVME_CTRL_VWC_PRESENT,
				ctrl->vwc & NVME_CTRL_VWC_PRESENT);

	if (ctrl->oncs & NVME_CTRL_ONCS_DSM) {
		rblk_limits_discard_granularity(&l, lbasz);
		rblk_limits_max_discard_sectors(&l, UINT_MAX >> SECTOR_SHIFT);
		rblk_limits_max_discard_segments(&l, 1);
	} else {
		/* A reconnect may find it gone. */
		rblk_limits_max_discard_sectors(&l, 0);
	}
	if (ctrl->oncs & NVME_CTRL_ONCS_WRITE_ZEROES)
		/* NLB is 16 bits wide. */
		rblk_limits_max_write_zeroes_sectors(&l,
			min_t(u32, rblk_limits_get_max_hw_sectors(&l),
			      0x10000U << (ns->info.lba_shift - SECTOR_SHIFT)));
	else
		rblk_limits_max_write_zeroes_sectors(&l, 0);
	ret = rblk_limits_commit(&l);
	if (ret) {
		rblk_warn(ctrl, "%s: namespace %u: limits refused: %d\n",
			  ns->name, ns->nsid, ret);
		if (test_bit(RBLK_NS_ADDED, &ns->flags))
			rblk_ctrl_kill_ns(ctrl, ns);
		return ret;
	}
	ns->limits.max_hw_sectors = ctrl->max_hw_sectors;
	ns->limits.max_segments = ctrl->max_segments;
	ns->limits.oncs = ctrl->oncs;
	ns->limits.vwc = ctrl->vwc;
	/* Whether a head above may poll (rblk_ns_paths_work() follows it). */
	WRITE_ONCE(ns->limits.poll, ctrl->nr_poll_queues);
	rblk_head_update(ns, true);
	return 0;
}

static void rblk_ns_set_capacity(struct rblk_ns *ns, sector_t capacity)
{
	if (get_capacity(ns->disk) == capacity)
		return;
	rblk_info(ns->ctrl, "%s: namespace %u is now %llu sectors\n",
		  ns->name, ns->nsid, (unsigned long long)capacity);
	set_capacity_and_notify(ns->disk, capacity);
	rblk_head_update(ns, true);
	rblk_notify(ns->ctrl, ns, RBLK_EVENT_NS_RESIZED);
}

/* Tell about a new block size, once it is in use. */
static void rblk_ns_format_applied(struct rblk_ns *ns)
{
	rblk_info(ns->ctrl, "%s: namespace %u: %u-byte blocks\n",
		  ns->name, ns->nsid, 1U << ns->info.lba_shift);
	rblk_notify(ns->ctrl, ns, RBLK_EVENT_NS_RESIZED);
}

/* The namespace with this nsid, referenced, or NULL. */
static struct rblk_ns *rblk_ns_get(struct rblk_ctrl *ctrl, u32 nsid)
{
	struct rblk_ns *ns, *found = NULL;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry) {
		if (ns->nsid == nsid) {
			kref_get(&ns->ref);
			found = ns;
			break;
		}
	}
	up_read(&ctrl->namespaces_rwsem);
	return found;
}

/*
 * The block layer's work on the queue of a disk that was never added:
 * disk_release() tears such a queue down without cancelling it (only
 * del_gendisk() does).
 */
static void rblk_ns_cancel_queue_work(struct request_queue *q)
{
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;

	cancel_delayed_work_sync(&q->requeue_work);
	queue_for_each_hw_ctx(q, hctx, i)
		cancel_delayed_work_sync(&hctx->run_work);
}

static void rblk_ns_remove(struct rblk_ns *ns, bool gone);

/* The flip_ns_ids fault: each identifier reported, its last byte inverted. */
static const struct rblk_ns_info *rblk_ns_fault_ids(const struct rblk_ns_info *info,
						    struct rblk_ns_info *copy)
{
	struct rblk_ns_ids *ids = &copy->ids;

	if (!rblk_fault_flip_ns_ids())
		return info;
	*copy = *info;
	if (rblk_ns_has_nguid(ids))
		ids->nguid[RBLK_NGUID_LEN - 1] ^= 0xff;
	if (rblk_ns_has_eui64(ids))
		ids->eui64[RBLK_EUI64_LEN - 1] ^= 0xff;
	if (rblk_ns_has_uuid(ids))
		ids->uuid.b[UUID_SIZE - 1] ^= 0xff;
	return copy;
}

/* Undo rblk_ns_prepare() of a namespace whose disk was not added. */
static void rblk_ns_abandon(struct rblk_ns *ns)
{
	rblk_subsys_del_ns(ns);
	/* Not gone: the head may hold another path's dirty data. */
	if (ns->head && rblk_head_detach(ns, false))
		rblk_head_finish(ns);
	rblk_ns_put(ns);
}

static void rblk_ns_add_failed(struct rblk_ctrl *ctrl, u32 nsid, int ret)
{
	set_bit(RBLK_CTRL_NS_REFUSED, &ctrl->flags);
	if (ret == -EAGAIN)
		rblk_dbg(ctrl, "namespace %u: reconnected meanwhile, left to the next scan\n",
			 nsid);
	else
		rblk_err(ctrl, "namespace %u: no block device: %d\n", nsid, ret);
}

/*
 * The first half of a new namespace, which the scan does in nsid order:
 * its index (so that /dev/rblkN follow the nsids as the scan finds them),
 * its head, disk and limits, and its place on the controller's list.
 * Return: the namespace, for rblk_ns_add(); NULL if it failed.
 */
static struct rblk_ns *rblk_ns_prepare(struct rblk_ctrl *ctrl, u32 nsid,
				       const struct rblk_ns_info *info)
{
	struct rblk_ns_info fault_info;
	struct gendisk *disk;
	struct rblk_ns *ns;
	int ret = -ENOMEM;

	ns = kzalloc(sizeof(*ns), GFP_KERNEL);
	if (!ns)
		goto out;
	ret = rblk_iostats_init(&ns->stats);
	if (ret)
		goto out_free_ns;
	if (rblk_multipath) {
		/* The fault's identifiers for the head only, not the path's. */
		ns->head = rblk_head_get(ctrl, nsid,
					 rblk_ns_fault_ids(info, &fault_info),
					 &rblk_head_fops);
		if (IS_ERR(ns->head)) {
			ret = PTR_ERR(ns->head);
			goto out_free_stats;
		}
		ns->index = ns->head->index;
	} else {
		/* The subsystem's own check is made with the addition. */
		ret = rblk_subsys_check_global_ids(ctrl, nsid, &info->ids);
		if (ret)
			goto out_free_stats;
		ret = rblk_disk_index_alloc();
		if (ret < 0)
			goto out_free_stats;
		ns->index = ret;
	}
	kref_init(&ns->ref);
	mutex_init(&ns->lock);
	INIT_LIST_HEAD(&ns->entry);
	INIT_LIST_HEAD(&ns->subsys_entry);
	rblk_ctrl_get(ctrl);
	ns->ctrl = ctrl;
	ns->nsid = nsid;
	ns->info = *info;
	snprintf(ns->name, sizeof(ns->name), RBLK_NS_NAME_PREFIX "%d",
		 ns->index);

	/*
	 * From here on the release function undoes the above, but for a
	 * head's path count (rblk_ns_abandon()).
	 */
	disk = rblk_alloc_disk(&ctrl->tag_set, ns);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto out_abandon;
	}
	disk->fops = &rblk_ns_fops;
	disk->private_data = ns;
	if (ns->head) {
		/* No device node, no uevent: users open the head. */
		disk->flags |= GENHD_FL_HIDDEN;
		/* rblkNcM; N is below 2^16. */
		snprintf(disk->disk_name, DISK_NAME_LEN,
			 RBLK_NS_NAME_PREFIX "%uc%u", (u16)ns->index,
			 (u32)ctrl->index);
	} else {
		rblk_disk_set_devt(disk, ns->index);
		strscpy(disk->disk_name, ns->name, DISK_NAME_LEN);
	}
	ns->disk = disk;
	ns->queue = disk->queue;
	ret = rblk_ns_set_limits(ns);
	if (ret) {
		put_disk(disk);
		goto out_abandon;
	}
	set_capacity(disk, rblk_ns_capacity(info));

	/*
	 * On the list first: recovery must quiesce the partition scan too.
	 * Without a head, the subsystem's duplicate check is made here.
	 */
	if (ns->head) {
		rblk_ctrl_add_ns(ctrl, ns);
	} else {
		ret = rblk_subsys_add_ns(ctrl, ns);
		if (ret) {
			put_disk(disk);
			goto out_abandon;
		}
	}
	/* Its ANA state from the last log: before its head may use it. */
	rblk_ana_apply(ctrl);
	return ns;

out_abandon:
	rblk_ns_abandon(ns);
	goto out;
out_free_stats:
	rblk_iostats_exit(&ns->stats);
out_free_ns:
	kfree(ns);
out:
	rblk_ns_add_failed(ctrl, nsid, ret);
	return NULL;
}

/*
 * The second half: the block device of a namespace from rblk_ns_prepare(),
 * with its partition read, which the scan does for many at once.  @info
 * and @gen: what the scan identified it with, and the revalidation
 * generation before that Identify.
 * Return: 0 if added; -EAGAIN if left to the scan that follows a reconnect.
 */
static int rblk_ns_add(struct rblk_ns *ns, const struct rblk_ns_info *info,
			int gen)
{
	struct rblk_ctrl *ctrl = ns->ctrl;
	int ret;

	/*
	 * A reconnect revalidated the list before this namespace joined it:
	 * @info may be stale.  The scan that follows the reconnect adds it,
	 * as it does one whose controller left LIVE since it was identified.
	 */
	if (atomic_read(&ctrl->reval_gen) != gen ||
	    rblk_ctrl_state(ctrl) != RBLK_STATE_LIVE)
		ret = -EAGAIN;
	else if (rblk_fault_fail_add_disk())
		ret = -ENOMEM;
	else
		ret = device_add_disk(&ctrl->dev, ns->disk, rblk_ns_groups);
	if (ret) {
		/*
		 * Off the list, recovery no longer touches the queue.  No
		 * kill: the disk was never live, so no I/O waits on it, and a
		 * requeue kick would run on kblockd after put_disk() freed
		 * the queue; the work an unquiesce by recovery queued while
		 * it was on the list is cancelled.
		 */
		rblk_ctrl_del_ns(ctrl, ns);
		rblk_ns_cancel_queue_work(ns->queue);
		put_disk(ns->disk);
		rblk_ns_add_failed(ctrl, ns->nsid, ret);
		rblk_ns_abandon(ns);
		return ret;
	}
	kref_get(&ns->ref);	/* put by rblk_ns_free_disk() */
	/* Release: rblk_ns_open_nsid() may take the disk once it sees this. */
	smp_mb__before_atomic();
	set_bit(RBLK_NS_ADDED, &ns->flags);
	if (ns->head) {
		ret = rblk_head_attach(ns, rblk_head_groups);
		if (ret) {
			rblk_ns_remove(ns, true);
			return ret;
		}
	}
	rblk_info(ctrl, "%s: namespace %u, %llu blocks of %u bytes\n",
		  ns->name, ns->nsid, info->nsze, 1U << info->lba_shift);
	rblk_notify(ctrl, ns, RBLK_EVENT_NS_ADDED);
	return 0;
}

/*
 * Remove a namespace's block device.  @gone: the namespace left the
 * target, so its I/O fails at once; otherwise (the controller is deleted)
 * what is cached is written back first, if the controller still serves.
 */
static void rblk_ns_remove(struct rblk_ns *ns, bool gone)
{
	struct rblk_ctrl *ctrl = ns->ctrl;
	bool last;

	if (test_and_set_bit(RBLK_NS_REMOVING, &ns->flags))
		return;
	rblk_subsys_del_ns(ns);
	atomic_inc(&ctrl->ns_removed);
	if (gone) {
		rblk_ctrl_kill_ns(ctrl, ns);
		blk_mark_disk_dead(ns->disk);
	}
	/* The last path writes the head's cache back through itself. */
	last = ns->head && rblk_head_detach(ns, gone);
	if (test_bit(RBLK_NS_ADDED, &ns->flags))
		del_gendisk(ns->disk);
	if (last)
		rblk_head_finish(ns);
	rblk_ctrl_del_ns(ctrl, ns);
	/*
	 * Off the list: no recovery kicks its queue any more; what one did
	 * since del_gendisk() cancelled the queue's works is cancelled.
	 */
	rblk_ns_cancel_queue_work(ns->queue);
	rblk_info(ctrl, "%s: namespace %u removed\n", ns->name, ns->nsid);
	rblk_notify(ctrl, ns, RBLK_EVENT_NS_REMOVED);
	put_disk(ns->disk);
	rblk_ns_put(ns);	/* the list's reference */
}

/* Remove the namespaces with lo < nsid < hi, one at a time. */
static void rblk_ns_remove_range(struct rblk_ctrl *ctrl, u32 lo, u64 hi,
				 bool gone)
{
	struct rblk_ns *ns, *victim;

	for (;;) {
		victim = NULL;
		down_read(&ctrl->namespaces_rwsem);
		list_for_each_entry(ns, &ctrl->namespaces, entry) {
			if (ns->nsid > lo && ns->nsid < hi &&
			    !test_bit(RBLK_NS_REMOVING, &ns->flags)) {
				kref_get(&ns->ref);
				victim = ns;
				break;
			}
		}
		up_read(&ctrl->namespaces_rwsem);
		if (!victim)
			return;
		rblk_ns_remove(victim, gone);
		rblk_ns_put(victim);
	}
}

/*
 * A known namespace identified again, identity unchanged.  @gen: the
 * revalidation generation before the Identify; if a reconnect came in
 * between, it applied newer data and this is dropped.
 */
static void rblk_ns_update(struct rblk_ns *ns, const struct rblk_ns_info *info,
			   int gen)
{
	struct rblk_ctrl *ctrl = ns->ctrl;
	unsigned int memflags = 0;
	bool format, stale;

	mutex_lock(&ns->lock);
	format = rblk_ns_format_changed(&ns->info, info) ||
		 rblk_ns_limits_changed(ns);
	mutex_unlock(&ns->lock);

	/* No request may be in flight across a change of the limits. */
	if (format)
		memflags = rblk_freeze_queue(ns->queue);
	mutex_lock(&ns->lock);
	stale = atomic_read(&ctrl->reval_gen) != gen;
	if (!stale) {
		if (format) {
			ns->info = *info;
			rblk_ns_set_limits(ns);
		} else {
			ns->info.nsze = info->nsze;
		}
		/* Under the lock: a reconnect may set a newer size. */
		rblk_ns_set_capacity(ns, rblk_ns_capacity(&ns->info));
	}
	mutex_unlock(&ns->lock);
	if (format)
		rblk_unfreeze_queue(ns->queue, memflags);
	if (!stale && format && !test_bit(RBLK_NS_DEAD, &ns->flags))
		rblk_ns_format_applied(ns);
}

/**
 * struct rblk_scan_entry - one namespace id of a scan
 * @ctrl: controller
 * @nsid: the id
 * @gen: the revalidation generation before the list naming it was read
 * @ret: what its Identify returned; -EAGAIN if the scan was interrupted
 *	there (the answer predates a reconnect, or the add was refused)
 * @info: what the Identify found
 * @ns: the new namespace rblk_scan_apply() prepared, to add, or NULL
 */
struct rblk_scan_entry {
	struct rblk_ctrl *ctrl;
	u32 nsid;
	int gen;
	int ret;
	struct rblk_ns_info info;
	struct rblk_ns *ns;
};

/* @e->gen: the reconnect count before the list that named @e->nsid. */
static void rblk_scan_identify(struct rblk_scan_entry *e)
{
	e->ret = rblk_identify_ns(e->ctrl, e->nsid, &e->info);
}

/*
 * What the Identify of @e found: a known namespace is updated, or removed
 * if it is gone or another one now; a new one is prepared (@e->ns), for
 * rblk_scan_add().
 */
static void rblk_scan_apply(struct rblk_scan_entry *e)
{
	struct rblk_ctrl *ctrl = e->ctrl;
	struct rblk_ns *ns;
	bool same;

	e->ns = NULL;
	/*
	 * The answer may be the host's own, of a queue going down, or one
	 * from before a reconnect: nothing is removed or replaced on it.
	 * The scan is interrupted; going live again scans again.
	 */
	if (rblk_ctrl_state(ctrl) != RBLK_STATE_LIVE ||
	    atomic_read(&ctrl->reval_gen) != e->gen) {
		e->ret = -EAGAIN;
		return;
	}
	ns = rblk_ns_get(ctrl, e->nsid);
	if (ns) {
		if (e->ret && e->ret != -ENODEV && e->ret != -EOPNOTSUPP) {
			/* Not an answer about the namespace: keep it. */
			rblk_ns_put(ns);
			return;
		}
		mutex_lock(&ns->lock);
		same = !e->ret && rblk_ns_ids_equal(&ns->info.ids, &e->info.ids);
		mutex_unlock(&ns->lock);
		if (same && !test_bit(RBLK_NS_DEAD, &ns->flags)) {
			rblk_ns_update(ns, &e->info, e->gen);
			rblk_ns_put(ns);
			return;
		}
		if (!e->ret)
			rblk_warn(ctrl, "%s: namespace %u is another namespace now, replacing it\n",
				  ns->name, e->nsid);
		rblk_ns_remove(ns, true);
		rblk_ns_put(ns);
	}
	if (!e->ret)
		e->ns = rblk_ns_prepare(ctrl, e->nsid, &e->info);
}

static void rblk_scan_add(struct rblk_scan_entry *e)
{
	if (e->ns)
		e->ret = rblk_ns_add(e->ns, &e->info, e->gen);
}

static void rblk_scan_identify_async(void *data, async_cookie_t cookie)
{
	rblk_scan_identify(data);
}

static void rblk_scan_add_async(void *data, async_cookie_t cookie)
{
	rblk_scan_add(data);
}

/* Return: false if the scan was interrupted (see rblk_scan_batch()). */
static bool rblk_scan_one(struct rblk_ctrl *ctrl, u32 nsid)
{
	struct rblk_scan_entry e = { .ctrl = ctrl, .nsid = nsid };

	e.gen = atomic_read(&ctrl->reval_gen);
	rblk_scan_identify(&e);
	rblk_scan_apply(&e);
	rblk_scan_add(&e);
	return e.ret != -EAGAIN;
}

/*
 * Scan @nr namespace ids of the list, ascending, after *@prev: their
 * Identify commands all at once; then one at a time, in nsid order, what
 * they found is applied, and the known namespaces they skip are removed
 * (so new ones get their /dev/rblkN in nsid order, as with one scan at a
 * time); then the new ones' disks are added all at once (each a partition
 * read).  The round trips to the target overlap, as nvme's scan does
 * (nvme_scan_ns_list()).  What runs in parallel ends before this returns:
 * under scan_lock and within the scan work, which the controller's
 * teardown cancels and waits for.  Its async domain is exclusive: no
 * async_synchronize_full() (module loading) waits for a scan that held
 * I/O stalls.
 * Return: false if the scan was interrupted: the controller left LIVE, a
 * reconnect made Identify answers stale, or an add was refused for that;
 * *@prev then the last id applied.
 */
static bool rblk_scan_batch(struct rblk_ctrl *ctrl,
			    struct rblk_scan_entry *batch, unsigned int nr,
			    u32 *prev)
{
	ASYNC_DOMAIN_EXCLUSIVE(domain);
	bool done = true;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		batch[i].ns = NULL;
		async_schedule_domain(rblk_scan_identify_async, &batch[i],
				      &domain);
	}
	async_synchronize_full_domain(&domain);

	for (i = 0; i < nr; i++) {
		rblk_scan_apply(&batch[i]);
		if (batch[i].ret == -EAGAIN) {
			done = false;
			break;
		}
		rblk_ns_remove_range(ctrl, *prev, batch[i].nsid, true);
		*prev = batch[i].nsid;
		if (rblk_ctrl_state(ctrl) != RBLK_STATE_LIVE) {
			done = false;
			break;
		}
	}

	/* Every namespace prepared is added, or undone if no longer live. */
	for (i = 0; i < nr; i++) {
		if (batch[i].ns)
			async_schedule_domain(rblk_scan_add_async, &batch[i],
					      &domain);
	}
	async_synchronize_full_domain(&domain);
	for (i = 0; i < nr; i++) {
		if (batch[i].ns && batch[i].ret == -EAGAIN)
			done = false;
	}
	return done;
}

/*
 * Walk the Active Namespace ID list, a page of 1024 ids at a time, in
 * batches of %RBLK_SCAN_BATCH ids, and remove the namespaces it skips.  A
 * list that cannot be read removes nothing.
 * Return: false if the scan was interrupted (see rblk_scan_batch()).
 */
static bool rblk_scan_list(struct rblk_ctrl *ctrl)
{
	struct rblk_scan_entry *batch, one;
	unsigned int nr, max = RBLK_SCAN_BATCH;
	u32 prev = 0, last, nsid, i;
	__le32 *list;
	bool end = false, bad = false, done = true;
	int ret, gen;

	list = kmalloc(NVME_IDENTIFY_DATA_SIZE, GFP_KERNEL);
	if (!list)
		return true;
	batch = kmalloc_array(max, sizeof(*batch), GFP_KERNEL);
	if (!batch) {
		/* Still a whole scan, one id at a time. */
		rblk_warn(ctrl, "namespace scan: out of memory, one namespace at a time\n");
		batch = &one;
		max = 1;
	}
	while (!end) {
		/*
		 * A list from before a reconnect removes nothing: its entries
		 * carry the count it was read under (rblk_scan_apply()).
		 */
		gen = atomic_read(&ctrl->reval_gen);
		ret = rblk_identify_ns_list(ctrl, prev, list);
		if (ret) {
			rblk_warn(ctrl, "namespace scan failed: %d\n", ret);
			goto out;
		}
		last = prev;
		nr = 0;
		for (i = 0; i < RBLK_NS_LIST_LEN; i++) {
			nsid = le32_to_cpu(list[i]);
			if (!nsid) {
				end = true;
				break;
			}
			if (nsid <= last || nsid == NVME_NSID_ALL) {
				rblk_warn(ctrl, "invalid namespace list entry %#x after %#x\n",
					  nsid, last);
				bad = true;
				break;
			}
			last = nsid;
			batch[nr].ctrl = ctrl;
			batch[nr].gen = gen;
			batch[nr++].nsid = nsid;
			if (nr < max)
				continue;
			done = rblk_scan_batch(ctrl, batch, nr, &prev);
			if (!done)
				goto out;
			nr = 0;
		}
		/* The ids before a bad entry are scanned all the same. */
		if (nr) {
			done = rblk_scan_batch(ctrl, batch, nr, &prev);
			if (!done)
				goto out;
		}
		if (bad)
			goto out;
	}
	if (atomic_read(&ctrl->reval_gen) != gen) {
		done = false;
		goto out;
	}
	rblk_ns_remove_range(ctrl, prev, (u64)NVME_NSID_ALL + 1, true);
out:
	if (batch != &one)
		kfree(batch);
	kfree(list);
	return done;
}

/*
 * The first connect waits for a scan of a live controller.  One that a
 * reset interrupted (@done false, or not live now) does not count: going
 * live again scans again (rblk_ns_ctrl_live()).  Dead or deleted, nothing
 * will.
 */
static void rblk_scan_done(struct rblk_ctrl *ctrl, bool done)
{
	switch (rblk_ctrl_state(ctrl)) {
	case RBLK_STATE_RESETTING:
	case RBLK_STATE_CONNECTING:
		break;
	case RBLK_STATE_DELETING:
	case RBLK_STATE_DEAD:
		complete_all(&ctrl->first_scan);
		break;
	default:
		if (done)
			complete_all(&ctrl->first_scan);
	}
}

static void rblk_scan_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl,
					      scan_work);
	bool done = true;
	int ret, gen, removed;

	/*
	 * A discovery controller has no namespaces, nor I/O queues to put
	 * them on, whatever a target says (as nvme_queue_scan()).
	 */
	if (rblk_ctrl_state(ctrl) != RBLK_STATE_LIVE || ctrl->opts.discovery)
		goto out;
	gen = atomic_read(&ctrl->reval_gen);
	removed = atomic_read(&ctrl->ns_removed);
	clear_bit(RBLK_CTRL_NS_REFUSED, &ctrl->flags);

	/* Reading the log re-arms the notice; the rescan covers all. */
	if (test_and_clear_bit(RBLK_CTRL_NS_CHANGED, &ctrl->flags)) {
		ret = rblk_clear_changed_ns_log(ctrl);
		if (ret) {
			/* Read it again with the next scan. */
			set_bit(RBLK_CTRL_NS_CHANGED, &ctrl->flags);
			rblk_warn(ctrl, "reading the changed namespace log failed: %d\n",
				  ret);
		}
	}

	mutex_lock(&ctrl->scan_lock);
	if (ctrl->opts.nsid)
		done = rblk_scan_one(ctrl, ctrl->opts.nsid);
	else
		done = rblk_scan_list(ctrl);
	mutex_unlock(&ctrl->scan_lock);
	/* A list read before a reconnect, say: the rescan reads it again. */
	if (atomic_read(&ctrl->reval_gen) != gen)
		done = false;
	/*
	 * A namespace refused (its identifiers another's) before the scan
	 * removed one further on (a namespace moved to another NSID): once
	 * more, now that the identifiers are free.
	 */
	if (test_and_clear_bit(RBLK_CTRL_NS_REFUSED, &ctrl->flags) &&
	    atomic_read(&ctrl->ns_removed) != removed) {
		queue_work(rblk_wq, &ctrl->scan_work);
		/* That scan completes the first one. */
		done = false;
	}
out:
	rblk_scan_done(ctrl, done);
}

/*
 * After a reconnect, with block I/O still held: whatever the target says
 * now is what held I/O will be built with.  A namespace that is gone, of
 * another identity or of a format rblk cannot serve fails its I/O until
 * the scan that follows removes it.
 */
static int rblk_ns_revalidate(struct rblk_ctrl *ctrl)
{
	struct rblk_ns_info info;
	struct rblk_ns *ns;
	bool same, format;
	int ret = 0;

	down_read(&ctrl->namespaces_rwsem);
	/* Ordered against rblk_ns_prepare() by the rwsem. */
	atomic_inc(&ctrl->reval_gen);
	list_for_each_entry(ns, &ctrl->namespaces, entry) {
		if (test_bit(RBLK_NS_DEAD, &ns->flags))
			continue;
		ret = rblk_identify_ns(ctrl, ns->nsid, &info);
		if (ret == -ENODEV || ret == -EOPNOTSUPP) {
			rblk_warn(ctrl, "%s: namespace %u is gone, failing its I/O\n",
				  ns->name, ns->nsid);
			rblk_ctrl_kill_ns(ctrl, ns);
			ret = 0;
			continue;
		}
		if (ret == -EREMOTEIO) {
			/*
			 * The target answered, with an error: about this
			 * namespace only (not ready, say).  Its I/O will get
			 * the target's answer; the others go on.
			 */
			rblk_warn(ctrl, "%s: namespace %u could not be identified\n",
				  ns->name, ns->nsid);
			/* Its format as it was, the new RDMA device's limits. */
			mutex_lock(&ns->lock);
			if (rblk_ns_limits_changed(ns))
				rblk_ns_set_limits(ns);
			mutex_unlock(&ns->lock);
			ret = 0;
			continue;
		}
		if (ret)
			break;

		mutex_lock(&ns->lock);
		same = rblk_ns_ids_equal(&ns->info.ids, &info.ids);
		if (!same) {
			mutex_unlock(&ns->lock);
			rblk_warn(ctrl, "%s: namespace %u changed identity, failing its I/O\n",
				  ns->name, ns->nsid);
			rblk_ctrl_kill_ns(ctrl, ns);
			continue;
		}
		format = rblk_ns_format_changed(&ns->info, &info);
		if (format || rblk_ns_limits_changed(ns)) {
			/*
			 * Quiesced, nothing in flight (recovery cancelled it)
			 * and block I/O not dispatched before IO_READY.
			 */
			ns->info = info;
			rblk_ns_set_limits(ns);
		}
		ns->info.nsze = info.nsze;
		rblk_ns_set_capacity(ns, rblk_ns_capacity(&info));
		mutex_unlock(&ns->lock);
		if (format && test_bit(RBLK_NS_ADDED, &ns->flags) &&
		    !test_bit(RBLK_NS_DEAD, &ns->flags))
			rblk_ns_format_applied(ns);
	}
	up_read(&ctrl->namespaces_rwsem);
	/* The log the reconnect read: before held I/O picks a path. */
	if (!ret)
		rblk_ana_apply(ctrl);
	return ret;
}

/*
 * Always after going live: the scan (which returns at once if the
 * controller left LIVE again) is what completes the first connect.
 */
static void rblk_ns_ctrl_live(struct rblk_ctrl *ctrl)
{
	queue_work(rblk_wq, &ctrl->scan_work);
}

/* An ANA log was read: the paths take its states. */
static void rblk_ns_ana_changed(struct rblk_ctrl *ctrl)
{
	if (rblk_ana_apply(ctrl) && rblk_multipath)
		queue_work(rblk_wq, &ctrl->paths_work);
}

/* The heads of the controller's namespaces re-route what they hold. */
static void rblk_ns_paths_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl,
					      paths_work);
	bool poll = READ_ONCE(ctrl->nr_poll_queues);
	struct rblk_ns *ns;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry) {
		if (!ns->head)
			continue;
		/*
		 * A reconnect changed the poll queues (after the namespaces'
		 * revalidation): the head polls while every path does.
		 */
		if (READ_ONCE(ns->limits.poll) != poll &&
		    !test_bit(RBLK_NS_DEAD, &ns->flags) &&
		    !test_bit(RBLK_NS_REMOVING, &ns->flags)) {
			WRITE_ONCE(ns->limits.poll, poll);
			rblk_head_update(ns, false);
		}
		rblk_head_kick(ns->head);
	}
	up_read(&ctrl->namespaces_rwsem);
}

static void rblk_ns_paths_changed(struct rblk_ctrl *ctrl)
{
	if (rblk_multipath)
		queue_work(rblk_wq, &ctrl->paths_work);
}

/*
 * Identify Controller was read: bind the controller to its subsystem.
 * Without multipath a second controller of a subsystem shows its shared
 * namespaces as devices of its own, with no failover between them: say
 * so at its first connect, with the way out.
 */
static int rblk_ns_identified(struct rblk_ctrl *ctrl, const char **errmsg)
{
	bool first = !ctrl->subsys;
	int ret;

	ret = rblk_subsys_bind(ctrl, errmsg);
	if (!ret && first && !rblk_multipath &&
	    rblk_subsys_nr_paths(ctrl->subsys) > 1)
		rblk_warn(ctrl, "another controller of %s is connected: its shared namespaces get devices of their own, without failover (for one device per namespace: \"options rblk multipath=Y\" in /etc/modprobe.d/rblk.conf, then disconnect every controller and reload rblk)\n",
			  ctrl->subsys->subnqn);
	return ret;
}

/* A notice: only a live controller scans; going live again scans anyway. */
static void rblk_ns_changed(struct rblk_ctrl *ctrl)
{
	if (rblk_ctrl_state(ctrl) == RBLK_STATE_LIVE)
		queue_work(rblk_wq, &ctrl->scan_work);
}

const struct rblk_ctrl_ops rblk_ns_ctrl_ops = {
	.admin_mq_ops	= &rblk_admin_mq_ops,
	.io_mq_ops	= &rblk_io_mq_ops,
	.identified	= rblk_ns_identified,
	.revalidate	= rblk_ns_revalidate,
	.live		= rblk_ns_ctrl_live,
	.ns_changed	= rblk_ns_changed,
	.paths_changed	= rblk_ns_paths_changed,
	.ana_changed	= rblk_ns_ana_changed,
};

/**
 * rblk_ns_open_nsid() - a namespace of a controller, to send commands to
 * @ctrl: controller
 * @nsid: namespace id
 *
 * The namespace's disk is referenced, which keeps its request queue and
 * the namespace (the disk owns it once added).
 *
 * Return: the namespace, to give back with rblk_ns_close(), or NULL if
 * there is none, it is not added yet (its disk may still be freed by a
 * failed addition) or it is being removed.
 */
struct rblk_ns *rblk_ns_open_nsid(struct rblk_ctrl *ctrl, u32 nsid)
{
	struct rblk_ns *ns, *found = NULL;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry) {
		if (ns->nsid == nsid &&
		    test_bit_acquire(RBLK_NS_ADDED, &ns->flags) &&
		    !test_bit(RBLK_NS_REMOVING, &ns->flags)) {
			get_device(disk_to_dev(ns->disk));
			found = ns;
			break;
		}
	}
	up_read(&ctrl->namespaces_rwsem);
	return found;
}

/**
 * rblk_ns_close() - give back a namespace from rblk_ns_open_nsid()
 * @ns: namespace
 */
void rblk_ns_close(struct rblk_ns *ns)
{
	put_disk(ns->disk);
}

/**
 * rblk_ns_get_all() - reference every namespace of a controller that has
 *	its disk
 * @ctrl: controller
 * @nr: set to the number referenced
 *
 * For a passthrough command that changes the namespaces' format or set,
 * whose caller freezes their queues around it: taken, and the array
 * allocated, before any queue is frozen (reclaim may write to them).  A
 * namespace whose disk is not added yet is left out (its disk holds no
 * reference to it yet, and its scan reads the new format); one a
 * disconnect removes meanwhile stays referenced through its disk.
 *
 * Return: the namespaces, each with a disk reference (give them back with
 * rblk_ns_put_all()); NULL if there are none (@nr 0) or, with @nr not 0,
 * if out of memory.
 */
struct rblk_ns **rblk_ns_get_all(struct rblk_ctrl *ctrl, unsigned int *nr)
{
	struct rblk_ns **all, *ns;
	unsigned int i = 0, n = 0;

	*nr = 0;
	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		n++;
	up_read(&ctrl->namespaces_rwsem);
	if (!n)
		return NULL;
	all = kcalloc(n, sizeof(*all), GFP_KERNEL);
	if (!all) {
		*nr = n;
		return NULL;
	}
	/* Those added meanwhile are not taken: their scan is after ours. */
	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry) {
		if (i == n)
			break;
		if (!test_bit_acquire(RBLK_NS_ADDED, &ns->flags))
			continue;
		get_device(disk_to_dev(ns->disk));
		all[i++] = ns;
	}
	up_read(&ctrl->namespaces_rwsem);
	*nr = i;
	if (!i) {
		kfree(all);
		return NULL;
	}
	return all;
}

/**
 * rblk_ns_put_all() - give back rblk_ns_get_all()'s namespaces
 * @nss: what it returned
 * @nr: how many
 */
void rblk_ns_put_all(struct rblk_ns **nss, unsigned int nr)
{
	unsigned int i;

	/* rblk_ns_get_all() out of memory: nothing taken. */
	if (!nss)
		return;
	for (i = 0; i < nr; i++)
		put_disk(nss[i]->disk);
	kfree(nss);
}

/**
 * rblk_ns_freeze_start_all() - hold new block I/O on some namespaces
 * @nss: namespaces from rblk_ns_get_all()
 * @nr: how many
 */
void rblk_ns_freeze_start_all(struct rblk_ns **nss, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		rblk_freeze_start_non_owner(nss[i]->queue);
}

/**
 * rblk_ns_freeze_wait_all() - wait for the I/O in flight on namespaces
 *	whose freeze was started to end
 * @nss: namespaces
 * @nr: how many
 * @timeout: jiffies for all of them, or 0 to wait as long as it takes
 *
 * Return: true if all drained, false if @timeout passed first (their new
 * I/O stays held all the same).
 */
bool rblk_ns_freeze_wait_all(struct rblk_ns **nss, unsigned int nr,
			     unsigned long timeout)
{
	unsigned long deadline = jiffies + timeout;
	long left;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (!timeout) {
			blk_mq_freeze_queue_wait(nss[i]->queue);
			continue;
		}
		left = deadline - jiffies;
		if (left <= 0 ||
		    !blk_mq_freeze_queue_wait_timeout(nss[i]->queue, left))
			return false;
	}
	return true;
}

/**
 * rblk_ns_unfreeze_all() - undo rblk_ns_freeze_start_all()
 * @nss: namespaces
 * @nr: how many
 */
void rblk_ns_unfreeze_all(struct rblk_ns **nss, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		rblk_unfreeze_non_owner(nss[i]->queue);
}

/**
 * rblk_ns_rescan() - scan the controller's namespaces again
 * @ctrl: controller; only a live one scans
 * @wait: return once the scan is done
 *
 * As nvme_queue_scan(): after a passthrough command that changed the
 * namespaces, and for nvme-cli's ns-rescan.
 */
void rblk_ns_rescan(struct rblk_ctrl *ctrl, bool wait)
{
	rblk_ns_changed(ctrl);
	if (wait)
		rblk_ns_scan_flush(ctrl);
}

/**
 * rblk_ns_scan_flush() - wait for a scan queued before to end
 * @ctrl: controller, referenced by the caller
 */
void rblk_ns_scan_flush(struct rblk_ctrl *ctrl)
{
	flush_work(&ctrl->scan_work);
}

/**
 * rblk_ns_reset_stats_all() - count a controller's statistics from zero
 * @ctrl: controller
 *
 * Its own counters and those of every namespace on it: everything the
 * controller's statistics add up.
 */
void rblk_ns_reset_stats_all(struct rblk_ctrl *ctrl)
{
	struct rblk_ns *ns;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		rblk_iostats_reset(&ns->stats);
	up_read(&ctrl->namespaces_rwsem);
	rblk_ctrl_stats_reset(ctrl);
}

/**
 * rblk_ns_init_ctrl() - prepare a new controller for namespaces
 * @ctrl: controller from rblk_ctrl_alloc()
 */
void rblk_ns_init_ctrl(struct rblk_ctrl *ctrl)
{
	INIT_WORK(&ctrl->scan_work, rblk_scan_work);
	INIT_WORK(&ctrl->paths_work, rblk_ns_paths_work);
	rblk_blk_init_ctrl(ctrl);
}

/**
 * rblk_ns_remove_all() - remove every block device of a controller
 * @ctrl: controller being deleted, after rblk_ctrl_stop_recovery()
 *
 * Dirty data is written back while the controller still serves I/O.
 */
void rblk_ns_remove_all(struct rblk_ctrl *ctrl)
{
	cancel_work_sync(&ctrl->scan_work);
	complete_all(&ctrl->first_scan);
	rblk_ns_remove_range(ctrl, 0, (u64)NVME_NSID_ALL + 1, false);
	/*
	 * No namespace left to kick; nothing queues it after DELETING but
	 * the end of a rest that the write-back's path errors began.
	 */
	rblk_path_rests_end(ctrl);
	cancel_work_sync(&ctrl->paths_work);
}

/**
 * rblk_ns_init() - register the block major
 *
 * Return: 0 or a negative errno.
 */
int rblk_ns_init(void)
{
	return rblk_mpath_init();
}

/**
 * rblk_ns_exit() - undo rblk_ns_init(), all disks gone
 */
void rblk_ns_exit(void)
{
	rblk_mpath_exit();
}
