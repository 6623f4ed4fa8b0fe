// SPDX-License-Identifier: GPL-2.0
/*
 * rblk namespace heads: with rblk.multipath=Y, one block device /dev/rblkN
 * per namespace of a subsystem, whatever the number of controllers (paths)
 * it is reached through (Documentation/multipath.rst).  Each controller's
 * namespace is a path with a hidden disk rblkNcM; the head's bio-based
 * disk sends each bio on to a path's disk.
 *
 * Lifetimes: a head is referenced by its subsystem's list (until its last
 * path leaves), by each path, and by its disk once added (put in
 * ->free_disk), so an open /dev/rblkN keeps it.  It holds its subsystem.
 *
 * Locking: the subsystem's lock orders the head list and each head's path
 * list against each other (scan_lock > subsys->lock); head->lock orders
 * the disk's addition and its limits (ns->lock > head->lock > the head's
 * freeze).  Submitters walk the paths, or take the path cached per node
 * (numa's choice, round-robin's last), under head->srcu; writers unlink,
 * synchronize_srcu(), clear the cache and synchronize again.  No I/O
 * under either lock: a path's reconnect
 * takes head->lock while I/O waits for it, so the head's partitions are
 * read by a work and its disk deleted with no lock held.
 *
 * Without multipath (rblk.multipath=N; Y is the default, as nvme_core's)
 * the namespace's own disk is /dev/rblkN; only the device numbers live
 * here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/idr.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <trace/events/block.h>

#include "rblk.h"
#include "stats.h"
#include "trace.h"

#define RBLK_MAX_DISK_INDEX	((1U << MINORBITS) / RBLK_MINORS - 1)

/*
 * On by default, as nvme_core's: an array's second portal then adds a path,
 * not a second unprotected device with the same identifiers.
 */
bool rblk_multipath = true;
module_param_named(multipath, rblk_multipath, bool, 0444);
MODULE_PARM_DESC(multipath,
		 "one block device per namespace across controllers of a subsystem, with failover (default: Y)");

static int rblk_major;
static DEFINE_IDA(rblk_disk_ida);

/**
 * rblk_disk_index_alloc() - a free N for a new /dev/rblkN
 *
 * Return: the index, or a negative errno.
 */
int rblk_disk_index_alloc(void)
{
	return ida_alloc_max(&rblk_disk_ida, RBLK_MAX_DISK_INDEX, GFP_KERNEL);
}

/**
 * rblk_disk_index_free() - give back an index of rblk_disk_index_alloc()
 * @index: the index
 */
void rblk_disk_index_free(int index)
{
	ida_free(&rblk_disk_ida, index);
}

/**
 * rblk_disk_set_devt() - the device numbers of /dev/rblkN and its partitions
 * @disk: disk, not yet added
 * @index: N
 */
void rblk_disk_set_devt(struct gendisk *disk, int index)
{
	disk->major = rblk_major;
	disk->first_minor = index * RBLK_MINORS;
	disk->minors = RBLK_MINORS;
}

static void rblk_head_release(struct kref *ref)
{
	struct rblk_head *head = container_of(ref, struct rblk_head, ref);

	/* A kick from a controller's paths_work may still be pending. */
	cancel_delayed_work_sync(&head->requeue_work);
	cancel_work_sync(&head->partition_work);
	WARN_ON_ONCE(!bio_list_empty(&head->requeue_list));
	cancel_delayed_work_sync(&head->flush_work);
	WARN_ON_ONCE(!list_empty(&head->flushes));
	cleanup_srcu_struct(&head->srcu);
	mutex_destroy(&head->lock);
	rblk_disk_index_free(head->index);
	rblk_subsys_put(head->subsys);
	kfree(head);
}

/**
 * rblk_head_put() - drop a reference to a namespace head
 * @head: head
 */
void rblk_head_put(struct rblk_head *head)
{
	kref_put(&head->ref, rblk_head_release);
}

/**
 * rblk_head_free_disk() - &block_device_operations.free_disk of a head
 * @disk: the head's disk, which held a reference since it was added
 */
void rblk_head_free_disk(struct gendisk *disk)
{
	rblk_head_put(disk->private_data);
}

/*
 * Usable: the path takes I/O now.  Its controller's queues are ready (a
 * disconnecting controller's too, while it writes the disks back), and
 * the namespace is there.
 */
static bool rblk_path_usable(struct rblk_ns *ns)
{
	struct rblk_ctrl *ctrl = ns->ctrl;
	enum rblk_state state;

	if (test_bit(RBLK_NS_DEAD, &ns->flags) ||
	    test_bit(RBLK_NS_PATH_DOWN, &ns->flags) ||
	    !test_bit(RBLK_CTRL_IO_READY, &ctrl->flags) ||
	    test_bit(RBLK_NS_ANA_PENDING, &ns->flags) ||
	    test_bit(RBLK_NS_PATH_REST, &ns->flags) ||
	    !rblk_ana_state_usable(READ_ONCE(ns->ana_state)))
		return false;
	state = rblk_ctrl_state(ctrl);
	return state == RBLK_STATE_LIVE || state == RBLK_STATE_DELETING;
}

/*
 * Available: the path may take I/O again, so the head holds I/O for it
 * (nvme's queue_if_no_path): its controller is recovering within
 * fast_io_fail_tmo and ctrl_loss_tmo.
 */
static bool rblk_path_available(struct rblk_ns *ns)
{
	struct rblk_ctrl *ctrl = ns->ctrl;

	/*
	 * As the controller holds its own I/O: also while a delete decides
	 * whether the association still serves the write-back.
	 */
	return !test_bit(RBLK_NS_DEAD, &ns->flags) &&
	       READ_ONCE(ns->ana_state) != NVME_ANA_PERSISTENT_LOSS &&
	       rblk_ctrl_holds_io(ctrl);
}

/*
 * How far @ns is from @node for the numa policy: its controller's RDMA
 * device's distance, or local when either is unknown.
 */
static int rblk_path_distance(struct rblk_ns *ns, int node)
{
	int path_node = READ_ONCE(ns->ctrl->numa_node);

	if (node == NUMA_NO_NODE || path_node == NUMA_NO_NODE)
		return LOCAL_DISTANCE;
	return node_distance(node, path_node);
}

/*
 * Round-robin: the next usable path after the one @node took last, in
 * list order and around, the last one itself last; of the optimized
 * ones, else of the non-optimized (as nvme_round_robin_path()), in one
 * walk.  The last one counts only if the walk met it: a leaving path may
 * still be cached, and must not be stored there again.  Under
 * head->srcu.
 */
static struct rblk_ns *rblk_head_rr_path(struct rblk_head *head, int node)
{
	struct rblk_ns *old = srcu_dereference(head->current_path[node],
					       &head->srcu);
	struct rblk_ns *ns, *first[2] = { NULL, NULL }, *next[2] = { NULL, NULL };
	bool seen = false;
	int non_opt;

	list_for_each_entry_srcu(ns, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		if (ns == old) {
			seen = true;
			continue;
		}
		if (!rblk_path_usable(ns))
			continue;
		non_opt = READ_ONCE(ns->ana_state) != NVME_ANA_OPTIMIZED;
		first[non_opt] = first[non_opt] ?: ns;
		if (seen)
			next[non_opt] = next[non_opt] ?: ns;
	}
	/* A path after the last one implies one in the list at all. */
	if (first[0])
		return next[0] ?: first[0];
	if (seen && rblk_path_usable(old) &&
	    READ_ONCE(old->ana_state) == NVME_ANA_OPTIMIZED)
		return old;
	if (first[1])
		return next[1] ?: first[1];
	if (seen && rblk_path_usable(old))
		return old;
	return NULL;
}

/*
 * The best usable path for @policy (numa or queue-depth), of those in
 * ANA optimized state, else of the non-optimized; or NULL.  numa: the
 * nearest to @node; queue-depth: the one whose controller has the fewest
 * head requests in flight; the first of equals.  Under head->srcu.
 */
static struct rblk_ns *rblk_head_best_path(struct rblk_head *head,
					   int policy, int node)
{
	unsigned int best[2] = { UINT_MAX, UINT_MAX }, score;
	struct rblk_ns *ns, *found[2] = { NULL, NULL };
	bool non_opt;

	list_for_each_entry_srcu(ns, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		if (!rblk_path_usable(ns))
			continue;
		non_opt = READ_ONCE(ns->ana_state) != NVME_ANA_OPTIMIZED;
		if (policy == RBLK_IOPOLICY_QUEUE_DEPTH)
			score = atomic_read(&ns->ctrl->nr_active);
		else
			score = rblk_path_distance(ns, node);
		if (score < best[non_opt]) {
			/* An idle optimized path: none is better (as nvme). */
			if (!score && !non_opt)
				return ns;
			best[non_opt] = score;
			found[non_opt] = ns;
		}
	}
	return found[0] ?: found[1];
}

/*
 * Whether the numa policy's cached path serves as it is: attached,
 * usable and optimized.  One read of the namespace's flags for its three
 * bits: this is every bio's test.
 */
static inline bool rblk_path_optimized(struct rblk_ns *ns)
{
	struct rblk_ctrl *ctrl = ns->ctrl;

	return (READ_ONCE(ns->flags) & (BIT(RBLK_NS_ATTACHED) |
					BIT(RBLK_NS_DEAD) |
					BIT(RBLK_NS_ANA_PENDING) |
					BIT(RBLK_NS_PATH_REST))) ==
		BIT(RBLK_NS_ATTACHED) &&
	       READ_ONCE(ns->ana_state) == NVME_ANA_OPTIMIZED &&
	       test_bit(RBLK_CTRL_IO_READY, &ctrl->flags) &&
	       rblk_ctrl_state(ctrl) == RBLK_STATE_LIVE;
}

/*
 * Choose a path for the next bio of @head by @policy, and keep the numa
 * or round-robin choice (even none) for @head's next bios from @node:
 * numa's to take again, round-robin's to go on from.  A kick during
 * numa's walk may have cleared the cache before the choice, made on what
 * the kick's news replaced, is stored: then it is cleared again
 * (rblk_head_clear_current_paths() orders the other side).  Only paths
 * this walk met on the list are stored, so a leaving path is not stored
 * after rblk_head_detach() cleared it.
 * Under head->srcu.
 */
static noinline struct rblk_ns *rblk_head_choose_path(struct rblk_head *head,
						      int policy, int node)
{
	struct rblk_ns __rcu **slot = &head->current_path[node];
	struct rblk_ns *ns;
	int gen;

	if (policy == RBLK_IOPOLICY_QUEUE_DEPTH)
		return rblk_head_best_path(head, policy, NUMA_NO_NODE);
	if (policy == RBLK_IOPOLICY_ROUND_ROBIN) {
		/* Only where to go on from: checked again on use. */
		ns = rblk_head_rr_path(head, node);
		if (rcu_access_pointer(*slot) != ns)
			rcu_assign_pointer(*slot, ns);
		return ns;
	}

	gen = atomic_read(&head->path_gen);
	/* Pairs with the kick's increment: its news, then the walk. */
	smp_rmb();
	ns = rblk_head_best_path(head, policy, node);
	if (rcu_access_pointer(*slot) != ns) {
		rcu_assign_pointer(*slot, ns);
		/* Pairs with the kick's increment: the store, then its count. */
		smp_mb();
		if (atomic_read(&head->path_gen) != gen)
			RCU_INIT_POINTER(*slot, NULL);
	}
	return ns;
}

/*
 * The path for the next bio of @head by its subsystem's I/O policy, or
 * NULL.  numa keeps its choice per node while it stays optimized, until
 * the paths change (as nvme's current_path); the others choose each
 * time (round-robin from the path it took last).  Inline, the choice out
 * of line: this is every bio's.  Under head->srcu.
 */
static __always_inline struct rblk_ns *rblk_head_find_path(struct rblk_head *head)
{
	int policy = READ_ONCE(head->subsys->iopolicy);
	int node = numa_node_id();
	struct rblk_ns *ns;

	if (likely(policy == RBLK_IOPOLICY_NUMA)) {
		ns = srcu_dereference(head->current_path[node], &head->srcu);
		if (likely(ns && rblk_path_optimized(ns)))
			return ns;
	}
	return rblk_head_choose_path(head, policy, node);
}

/*
 * Forget the numa policy's choices: the paths changed.  Counted first, so
 * that a choice being made on the old news does not stay cached.
 */
static void rblk_head_clear_current_paths(struct rblk_head *head)
{
	int node;

	/*
	 * Fully ordered: the news before it, the clearing after it
	 * (rblk_head_choose_path()'s barriers pair with it).
	 */
	atomic_inc_return(&head->path_gen);
	for_each_node(node)
		RCU_INIT_POINTER(head->current_path[node], NULL);
}

/* Whether some path may come back.  Under head->srcu. */
static bool rblk_head_available(struct rblk_head *head)
{
	struct rblk_ns *ns;

	list_for_each_entry_srcu(ns, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		if (rblk_path_available(ns))
			return true;
	}
	return false;
}

/**
 * rblk_mpath_set_iopolicy() - choose how a subsystem's heads pick paths
 * @subsys: subsystem
 * @iopolicy: &enum rblk_iopolicy, valid
 *
 * rblk_subsys_set_iopolicy(), and each head forgets the paths it cached:
 * round-robin's last path is no numa choice.  Once no bio chooses by the
 * old policy any more (as nvme_subsys_iopolicy_update()).
 */
void rblk_mpath_set_iopolicy(struct rblk_subsys *subsys, int iopolicy)
{
	struct rblk_head *head;

	rblk_subsys_set_iopolicy(subsys, iopolicy);
	mutex_lock(&subsys->lock);
	list_for_each_entry(head, &subsys->heads, entry) {
		synchronize_srcu(&head->srcu);
		rblk_head_clear_current_paths(head);
	}
	mutex_unlock(&subsys->lock);
}

/**
 * rblk_head_kick() - submit a head's held bios again
 * @head: head; any context
 *
 * After a change of its paths: the numa policy chooses anew, and each held
 * bio takes a usable path, waits again, or fails.
 */
void rblk_head_kick(struct rblk_head *head)
{
	rblk_head_clear_current_paths(head);
	mod_delayed_work(rblk_wq, &head->requeue_work, 0);
}

/* Tries of a flush's stand-in, RBLK_REQUEUE_DELAY_MS apart: a second. */
#define RBLK_FLUSH_FWD_WAITS	10

/*
 * A usable path of @head other than @ns, optimized ones first; or NULL.
 * Under head->srcu.
 */
static struct rblk_ns *rblk_head_other_path_rcu(struct rblk_head *head,
						struct rblk_ns *ns)
{
	struct rblk_ns *path, *non_opt = NULL;

	list_for_each_entry_srcu(path, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		if (path == ns || !rblk_path_usable(path))
			continue;
		if (READ_ONCE(path->ana_state) == NVME_ANA_OPTIMIZED)
			return path;
		non_opt = non_opt ?: path;
	}
	return non_opt;
}

/**
 * rblk_head_other_path() - whether a path other than @ns takes I/O now
 * @head: head
 * @ns: one of its paths
 *
 * Return: true if another path of @head is usable.
 */
bool rblk_head_other_path(struct rblk_head *head, struct rblk_ns *ns)
{
	bool found;
	int srcu_idx;

	srcu_idx = srcu_read_lock(&head->srcu);
	found = rblk_head_other_path_rcu(head, ns);
	srcu_read_unlock(&head->srcu, srcu_idx);
	return found;
}

/**
 * rblk_head_other_available() - whether a path other than @ns may come
 *	back
 * @head: head
 * @ns: one of its paths
 *
 * Return: true if another path of @head is available (usable now, or may
 * be once its controller reconnects or its ANA group comes back).
 */
bool rblk_head_other_available(struct rblk_head *head, struct rblk_ns *ns)
{
	struct rblk_ns *pos;
	bool found = false;
	int srcu_idx;

	srcu_idx = srcu_read_lock(&head->srcu);
	list_for_each_entry_srcu(pos, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		if (pos != ns && rblk_path_available(pos)) {
			found = true;
			break;
		}
	}
	srcu_read_unlock(&head->srcu, srcu_idx);
	return found;
}

/**
 * rblk_head_flush_route() - where a path's data-less flush goes now
 * @ns: the path it is queued on, a head's
 *
 * The head's bios' rules, for a request that has no bio to give the head:
 * its own path if usable, else another usable one, else it waits while a
 * path may come back (rblk_head_available()), else it fails.
 *
 * Return: &enum rblk_flush_route.
 */
enum rblk_flush_route rblk_head_flush_route(struct rblk_ns *ns)
{
	struct rblk_head *head = ns->head;
	enum rblk_flush_route route = RBLK_FLUSH_FAIL;
	int srcu_idx;

	if (rblk_path_usable(ns))
		return RBLK_FLUSH_OWN;
	srcu_idx = srcu_read_lock(&head->srcu);
	if (rblk_head_other_path_rcu(head, ns))
		route = RBLK_FLUSH_OTHER;
	else if (rblk_head_available(head))
		route = RBLK_FLUSH_HOLD;
	srcu_read_unlock(&head->srcu, srcu_idx);
	return route;
}

/**
 * rblk_head_forward_flush() - flush a head's namespace on another path for
 *	a path's data-less flush
 * @head: head
 * @rq: a flush of a flush sequence (it has no bio to fail over), failed
 *	on its path with a path error; complete (blk-mq's state), not ended
 *
 * The head's flush work sends an NVMe Flush of the namespace on another
 * usable path and ends @rq with its status.  A passthrough command, not a
 * flush bio: that would wait in the other path's flush sequence, which
 * may wait for this one's, and it would be failed over in turn.  It
 * assumes the namespace's volatile write cache is one whichever
 * controller is asked, as dm-multipath does of a SCSI device's
 * SYNCHRONIZE CACHE (nvme_failover_req() ends such a flush as a success,
 * flushing nothing).  Any context.
 */
void rblk_head_forward_flush(struct rblk_head *head, struct request *rq)
{
	unsigned long flags;

	spin_lock_irqsave(&head->requeue_lock, flags);
	list_add_tail(&rq->queuelist, &head->flushes);
	spin_unlock_irqrestore(&head->requeue_lock, flags);
	kblockd_mod_delayed_work_on(WORK_CPU_UNBOUND, &head->flush_work, 0);
}

/**
 * rblk_head_flush_requeue() - a path's data-less flush waits in its own
 *	queue
 * @rq: the flush; started or not, not in flight
 *
 * As without multipath: no other path takes the flush, or it failed there
 * without a verdict of the target.  Idle in the queue's requeue list, it
 * holds no tag a recovery cancels; rblk_queue_rq() routes it again after
 * RBLK_REQUEUE_DELAY_MS.  Any context.
 */
void rblk_head_flush_requeue(struct request *rq)
{
	struct request_queue *q = rq->q;

	blk_mq_requeue_request(rq, false);
	blk_mq_delay_kick_requeue_list(q, RBLK_REQUEUE_DELAY_MS);
}

/*
 * The Flush sent for a path's flush ended.  Not under any flush lock:
 * passthrough does not go through the flush sequence.
 */
static enum rq_end_io_ret rblk_head_flush_end_io(RBLK_END_IO_ARGS(prq, sts))
{
	struct rblk_request *preq = blk_mq_rq_to_pdu(prq);
	struct rblk_ns *path = rblk_rq_ns(prq);
	struct request *rq = prq->end_io_data;
	u16 status = preq->status;
	/*
	 * Only the target's final word ends the flush (rblk's own path
	 * verdicts carry DNR for passthrough); the rest goes back to its
	 * own path, where it is retried within its count.
	 */
	bool refused = (status & NVME_STATUS_DNR) &&
		       !rblk_status_is_host_path(status);

	/* As rblk_failover_rq(): that path waits for its ANA log, or rests. */
	rblk_path_error(preq->queue->ctrl, path, status);
	if (refused)
		pr_err_ratelimited("%s: Flush for %s failed: %s (sct 0x%x / sc 0x%x)\n",
				   path->disk->disk_name,
				   rblk_rq_ns(rq)->disk->disk_name,
				   rblk_status_name(status, true),
				   RBLK_STATUS_SCT(status), status & 0xff);
	/* The pdu is the next request's once the tag is free. */
	blk_mq_free_request(prq);

	if (!sts && !status)
		blk_mq_end_request(rq, BLK_STS_OK);
	else if (refused)
		blk_mq_end_request(rq, rblk_status_to_blk(status));
	else
		rblk_head_flush_requeue(rq);
	return RQ_END_IO_NONE;
}

/*
 * Send @rq's stand-in on another usable path.  Never waits: the path @rq
 * is on may be frozen, waiting for @rq, and the other one may wait for
 * that path to come back.  Returns false if the other path has no request
 * free (or is frozen) now: @rq stays the head's and is tried again, for
 * a second at most (a frozen queue may stay so for a user's Format, and
 * @rq's own path may wait for it); then it goes back to its own path.
 */
static bool rblk_head_flush_on_path(struct rblk_head *head,
				    struct request *rq)
{
	struct rblk_request *preq;
	struct request *prq;
	struct rblk_ns *path;
	int srcu_idx;

	srcu_idx = srcu_read_lock(&head->srcu);
	path = rblk_head_other_path_rcu(head, rblk_rq_ns(rq));
	if (!path) {
		srcu_read_unlock(&head->srcu, srcu_idx);
		rblk_head_flush_requeue(rq);
		return true;
	}
	/* The request holds the path's queue from here on. */
	prq = blk_mq_alloc_request(path->queue, REQ_OP_DRV_OUT,
				   BLK_MQ_REQ_NOWAIT);
	srcu_read_unlock(&head->srcu, srcu_idx);
	if (IS_ERR(prq)) {
		struct rblk_request *req = blk_mq_rq_to_pdu(rq);

		if (++req->fwd_waits < RBLK_FLUSH_FWD_WAITS)
			return false;
		rblk_head_flush_requeue(rq);
		return true;
	}

	preq = blk_mq_rq_to_pdu(prq);
	memset(&preq->cmd, 0, sizeof(preq->cmd));
	preq->cmd.common.opcode = nvme_cmd_flush;
	preq->cmd.common.nsid = cpu_to_le32(head->nsid);
	preq->flags = 0;
	preq->status = 0;
	prq->end_io = rblk_head_flush_end_io;
	prq->end_io_data = rq;
	blk_execute_rq_nowait(prq, false);
	return true;
}

/*
 * On kblockd, not rblk_wq: a recovery there may wait for these flushes
 * (blk_mq_tagset_wait_completed_request()).
 */
static void rblk_head_flush_work(struct work_struct *work)
{
	struct rblk_head *head = container_of(to_delayed_work(work),
					      struct rblk_head, flush_work);
	struct request *rq, *next;
	LIST_HEAD(flushes);
	LIST_HEAD(busy);

	spin_lock_irq(&head->requeue_lock);
	list_splice_init(&head->flushes, &flushes);
	spin_unlock_irq(&head->requeue_lock);

	list_for_each_entry_safe(rq, next, &flushes, queuelist) {
		list_del_init(&rq->queuelist);
		if (!rblk_head_flush_on_path(head, rq))
			list_add_tail(&rq->queuelist, &busy);
	}
	if (list_empty(&busy))
		return;
	/* That path's requests are all out: its completions free some. */
	spin_lock_irq(&head->requeue_lock);
	list_splice_tail(&busy, &head->flushes);
	spin_unlock_irq(&head->requeue_lock);
	kblockd_mod_delayed_work_on(WORK_CPU_UNBOUND, &head->flush_work,
				    msecs_to_jiffies(RBLK_REQUEUE_DELAY_MS));
}

static void rblk_head_requeue_work(struct work_struct *work)
{
	struct rblk_head *head = container_of(to_delayed_work(work),
					      struct rblk_head, requeue_work);
	struct bio *bio, *next;

	spin_lock_irq(&head->requeue_lock);
	next = bio_list_get(&head->requeue_list);
	spin_unlock_irq(&head->requeue_lock);

	while ((bio = next) != NULL) {
		next = bio->bi_next;
		bio->bi_next = NULL;
		submit_bio_noacct(bio);
	}
}

/**
 * rblk_head_submit_bio() - &block_device_operations.submit_bio of a head
 * @bio: bio for /dev/rblkN
 *
 * Split to the head's limits (the paths', stacked), then sent to a path's
 * hidden disk, where it becomes a request on that controller's queues.
 */
void rblk_head_submit_bio(struct bio *bio)
{
	struct rblk_head *head = bio->bi_bdev->bd_disk->private_data;
	struct rblk_ns *ns;
	int srcu_idx;

	bio = bio_split_to_limits(bio);
	if (!bio)
		return;

	srcu_idx = srcu_read_lock(&head->srcu);
	ns = rblk_head_find_path(head);
	if (likely(ns)) {
		/*
		 * A reconnect took this path's poll queues away before the
		 * head's limits were stacked anew: not polled (its queue
		 * would refuse the bio).
		 */
		if (unlikely(bio->bi_opf & REQ_POLLED) &&
		    !READ_ONCE(ns->ctrl->nr_poll_queues))
			bio_clear_polled(bio);
		bio_set_dev(bio, ns->disk->part0);
		trace_block_bio_remap(bio, disk_devt(head->disk),
				      bio->bi_iter.bi_sector);
		submit_bio_noacct(bio);
	} else if (rblk_head_available(head)) {
		pr_info_ratelimited("%s: no usable path - requeuing I/O\n",
				    head->name);
		atomic64_inc(&head->no_path_requeues);
		trace_rblk_no_path(head, bio, true);
		spin_lock_irq(&head->requeue_lock);
		bio_list_add(&head->requeue_list, bio);
		spin_unlock_irq(&head->requeue_lock);
		/*
		 * A path that became usable, or the last one that became
		 * unavailable, meanwhile kicked before the add.  Else the
		 * paths' news kick it; and it is looked at again in a second
		 * all the same, so that held I/O never depends on one
		 * notification alone (one was seen lost, once, in testing).
		 */
		if (rblk_head_find_path(head) || !rblk_head_available(head))
			rblk_head_kick(head);
		else
			queue_delayed_work(rblk_wq, &head->requeue_work, HZ);
	} else {
		pr_warn_ratelimited("%s: no available path - failing I/O\n",
				    head->name);
		atomic64_inc(&head->no_path_errors);
		trace_rblk_no_path(head, bio, false);
		bio_io_error(bio);
	}
	srcu_read_unlock(&head->srcu, srcu_idx);
}

/**
 * rblk_head_open_path() - the path a head's I/O would take now, to send a
 *	passthrough command through
 * @head: head
 *
 * Return: the path, its disk referenced (give it back with
 * rblk_ns_close()), or NULL if none may serve.
 */
struct rblk_ns *rblk_head_open_path(struct rblk_head *head)
{
	struct rblk_ns *ns;
	int srcu_idx;

	srcu_idx = srcu_read_lock(&head->srcu);
	ns = rblk_head_find_path(head);
	/* An attached path's disk is added and stays until it detaches. */
	if (ns)
		get_device(disk_to_dev(ns->disk));
	srcu_read_unlock(&head->srcu, srcu_idx);
	return ns;
}

/**
 * rblk_head_disks_get() - the disks of the heads some namespaces are
 *	paths of
 * @nss: namespaces, referenced
 * @nr: how many
 * @disks: has room for @have + @nr entries; filled from @have on with each
 *	head disk that is added and not in it yet, referenced (put_disk())
 * @have: the entries of @disks filled already
 *
 * For a command that changes the format every path sees: its caller
 * freezes these to hold new I/O at the heads, as nvme_mpath_start_freeze().
 *
 * Return: the entries of @disks filled now.
 */
unsigned int rblk_head_disks_get(struct rblk_ns **nss, unsigned int nr,
				 struct gendisk **disks, unsigned int have)
{
	struct rblk_head *head;
	unsigned int i, j;

	for (i = 0; i < nr; i++) {
		head = nss[i]->head;
		if (!head)
			continue;
		for (j = 0; j < have && disks[j] != head->disk; j++)
			;
		if (j < have)
			continue;
		/* As the last path clears DISK_LIVE before it deletes it. */
		mutex_lock(&head->lock);
		if (test_bit(RBLK_HEAD_DISK_LIVE, &head->flags)) {
			get_device(disk_to_dev(head->disk));
			disks[have++] = head->disk;
		}
		mutex_unlock(&head->lock);
	}
	return have;
}

/**
 * rblk_head_nr_paths() - how many paths of a head users can name now
 * @head: head
 *
 * Those attached and visible whose controller is not being deleted: not
 * one still being added or on its way out.  A dead controller's path
 * counts (it stays until disconnected, and naming the head must not pick
 * the live one away from it).
 *
 * Return: the number, a snapshot.
 */
unsigned int rblk_head_nr_paths(struct rblk_head *head)
{
	enum rblk_state state;
	unsigned int nr = 0;
	struct rblk_ns *ns;
	int srcu_idx;

	srcu_idx = srcu_read_lock(&head->srcu);
	list_for_each_entry_srcu(ns, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		state = rblk_ctrl_state(ns->ctrl);
		nr += rblk_ns_visible(ns) && state != RBLK_STATE_DELETING;
	}
	srcu_read_unlock(&head->srcu, srcu_idx);
	return nr;
}

/**
 * rblk_head_read_stats() - a head's statistics: its paths' added up
 * @head: head
 * @s: filled in with the sum, over the visible paths, of each path's
 *	counters and of its controller's (reconnects, doorbells, ...)
 * @tmp: scratch space
 *
 * A path that leaves takes its counts with it: the sum may go down.
 *
 * Return: the number of paths added up.
 */
unsigned int rblk_head_read_stats(struct rblk_head *head,
				  struct rblk_stats *s, struct rblk_stats *tmp)
{
	unsigned int nr = 0;
	u64 npe;
	struct rblk_ns *ns;
	int srcu_idx;

	memset(s, 0, sizeof(*s));
	srcu_idx = srcu_read_lock(&head->srcu);
	list_for_each_entry_srcu(ns, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		if (!rblk_ns_visible(ns))
			continue;
		rblk_iostats_read(&ns->stats, tmp);
		rblk_stats_add(s, tmp);
		memset(tmp, 0, sizeof(*tmp));
		rblk_ctrl_stats(ns->ctrl, tmp);
		/*
		 * The controller's timeouts include its admin commands':
		 * left out, as for one namespace (the path's are above).
		 */
		tmp->v[RBLK_STAT_TIMEOUTS] = 0;
		rblk_stats_add(s, tmp);
		nr++;
	}
	srcu_read_unlock(&head->srcu, srcu_idx);
	/*
	 * What the head failed itself, with no path left to try: errors of
	 * the namespace, with a path status, as a path's own not-ready
	 * failures count.
	 */
	npe = atomic64_read(&head->no_path_errors);
	s->v[RBLK_STAT_ERRORS] += npe;
	s->v[RBLK_STAT_STATUS_PATH] += npe;
	return nr;
}

/**
 * rblk_head_state() - the controller state a head's users see
 * @head: head
 *
 * Return: the best of its paths' controller states: live, then
 * recovering (resetting, connecting), new, deleting, dead (also with no
 * path left).
 */
enum rblk_state rblk_head_state(struct rblk_head *head)
{
	/* Best first: a path that serves, one that may serve again, ... */
	static const enum rblk_state rank[] = {
		RBLK_STATE_LIVE, RBLK_STATE_RESETTING, RBLK_STATE_CONNECTING,
		RBLK_STATE_NEW, RBLK_STATE_DELETING, RBLK_STATE_DEAD,
	};
	unsigned int best = ARRAY_SIZE(rank) - 1, i;
	struct rblk_ns *ns;
	int srcu_idx;

	srcu_idx = srcu_read_lock(&head->srcu);
	list_for_each_entry_srcu(ns, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		enum rblk_state st = rblk_ctrl_state(ns->ctrl);

		for (i = 0; i < best; i++)
			if (rank[i] == st)
				best = i;
	}
	srcu_read_unlock(&head->srcu, srcu_idx);
	return rank[best];
}

/**
 * rblk_head_reset_stats() - count each path's statistics from zero
 * @head: head
 *
 * Those rblk_head_read_stats() adds up; the namespace counters only, as
 * for one namespace: the controllers' serve other namespaces too.
 */
void rblk_head_reset_stats(struct rblk_head *head)
{
	struct rblk_ns *ns;
	int srcu_idx;

	srcu_idx = srcu_read_lock(&head->srcu);
	list_for_each_entry_srcu(ns, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		if (rblk_ns_visible(ns))
			rblk_iostats_reset(&ns->stats);
	}
	srcu_read_unlock(&head->srcu, srcu_idx);
}

/**
 * rblk_head_nsid() - the namespace id of a head
 * @head: head
 *
 * Return: the NSID.
 */
u32 rblk_head_nsid(struct rblk_head *head)
{
	return head->nsid;
}

/**
 * rblk_subsys_next_head() - walk a subsystem's heads by index
 * @subsys: subsystem, referenced by the caller
 * @index: in: the lowest N of rblkN wanted; out: the one found
 *
 * Return: its head with the lowest index at or above *@index, referenced
 * (give it back with rblk_head_put()), or NULL.  A head whose last path
 * is leaving is no longer listed.
 */
struct rblk_head *rblk_subsys_next_head(struct rblk_subsys *subsys,
					int *index)
{
	struct rblk_head *head, *found = NULL;

	mutex_lock(&subsys->lock);
	list_for_each_entry(head, &subsys->heads, entry) {
		if (head->index >= *index &&
		    (!found || head->index < found->index))
			found = head;
	}
	if (found) {
		/* A listed head's reference is never zero. */
		kref_get(&found->ref);
		*index = found->index;
	}
	mutex_unlock(&subsys->lock);
	return found;
}

/**
 * rblk_head_walk_paths() - call @fn for each path users can name
 * @head: head, referenced by the caller
 * @arg: passed to @fn
 * @fn: called under @head->srcu with each attached, visible path (its
 *	controller and disk stay while it runs); a non-zero return stops
 *	the walk
 *
 * Return: the first non-zero return of @fn, or 0.
 */
int rblk_head_walk_paths(struct rblk_head *head, void *arg,
			 int (*fn)(struct rblk_ns *ns, void *arg))
{
	struct rblk_ns *ns;
	int srcu_idx, ret = 0;

	srcu_idx = srcu_read_lock(&head->srcu);
	list_for_each_entry_srcu(ns, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		if (!rblk_ns_visible(ns))
			continue;
		ret = fn(ns, arg);
		if (ret)
			break;
	}
	srcu_read_unlock(&head->srcu, srcu_idx);
	return ret;
}

/**
 * rblk_head_open() - whether a head's disk may be opened
 * @head: head
 *
 * Return: 0, or -ENXIO once its last path is leaving.
 */
int rblk_head_open(struct rblk_head *head)
{
	return test_bit(RBLK_HEAD_REMOVING, &head->flags) ? -ENXIO : 0;
}

/*
 * The live head of @nsid in @subsys, referenced, or NULL.  Under
 * subsys->lock: a listed head's reference is never zero.
 */
static struct rblk_head *rblk_head_lookup(struct rblk_subsys *subsys, u32 nsid)
{
	struct rblk_head *head;

	lockdep_assert_held(&subsys->lock);
	list_for_each_entry(head, &subsys->heads, entry) {
		if (head->nsid == nsid) {
			kref_get(&head->ref);
			return head;
		}
	}
	return NULL;
}

/*
 * The head's partitions, read once the disk is added: not by
 * device_add_disk() under head->lock, where a read held for a
 * reconnecting path would wait for that reconnect, which waits for
 * head->lock to update the head (as nvme defers it).
 */
static void rblk_head_partition_work(struct work_struct *work)
{
	struct rblk_head *head = container_of(work, struct rblk_head,
					      partition_work);

	if (WARN_ON_ONCE(!test_and_clear_bit(GD_SUPPRESS_PART_SCAN,
					     &head->disk->state)))
		return;
	mutex_lock(&head->disk->open_mutex);
	bdev_disk_changed(head->disk, false);
	mutex_unlock(&head->disk->open_mutex);
}

static struct rblk_head *rblk_head_alloc(struct rblk_ctrl *ctrl, u32 nsid,
					 const struct rblk_ns_info *info,
					 const struct block_device_operations *fops)
{
	struct rblk_head *head;
	int ret = -ENOMEM;

	head = kzalloc(struct_size(head, current_path, nr_node_ids),
		       GFP_KERNEL);
	if (!head)
		return ERR_PTR(-ENOMEM);
	ret = init_srcu_struct(&head->srcu);
	if (ret)
		goto out_free;
	ret = rblk_disk_index_alloc();
	if (ret < 0)
		goto out_srcu;
	head->index = ret;
	kref_init(&head->ref);
	mutex_init(&head->lock);
	INIT_LIST_HEAD(&head->paths);
	spin_lock_init(&head->requeue_lock);
	bio_list_init(&head->requeue_list);
	INIT_LIST_HEAD(&head->flushes);
	INIT_DELAYED_WORK(&head->flush_work, rblk_head_flush_work);
	INIT_DELAYED_WORK(&head->requeue_work, rblk_head_requeue_work);
	INIT_WORK(&head->partition_work, rblk_head_partition_work);
	head->nsid = nsid;
	head->ids = info->ids;
	head->shared = info->shared;
	head->vid = ctrl->vid;
	snprintf(head->name, sizeof(head->name), RBLK_NS_NAME_PREFIX "%d",
		 head->index);

	head->disk = rblk_alloc_bio_disk(ctrl->numa_node);
	if (IS_ERR(head->disk)) {
		ret = PTR_ERR(head->disk);
		goto out_index;
	}
	rblk_disk_set_devt(head->disk, head->index);
	head->disk->fops = fops;
	head->disk->private_data = head;
	strscpy(head->disk->disk_name, head->name, DISK_NAME_LEN);
	/* Last: the release function puts it. */
	rblk_subsys_get(ctrl->subsys);
	head->subsys = ctrl->subsys;
	return head;

out_index:
	mutex_destroy(&head->lock);
	rblk_disk_index_free(head->index);
out_srcu:
	cleanup_srcu_struct(&head->srcu);
out_free:
	kfree(head);
	return ERR_PTR(ret);
}

/**
 * rblk_head_get() - the head a new path of a namespace joins
 * @ctrl: the path's controller, bound to its subsystem
 * @nsid: namespace id
 * @info: what Identify Namespace said on @ctrl
 * @fops: the operations of a new head's disk
 *
 * The subsystem's head of @nsid, or a new one (its disk not added until a
 * path is attached).  As nvme_init_ns_head(): a namespace with an
 * identifier of another subsystem's, or one of another NSID of this
 * subsystem that would get a head of its own, is refused; so is a path
 * whose identifiers differ from its head's.
 *
 * Return: the head, referenced (for &rblk_ns.head) and counting the
 * path until rblk_head_detach(), or an ERR_PTR(): -EINVAL if the
 * namespace may not join or make a head, -ENOMEM.
 */
struct rblk_head *rblk_head_get(struct rblk_ctrl *ctrl, u32 nsid,
				const struct rblk_ns_info *info,
				const struct block_device_operations *fops)
{
	struct rblk_subsys *subsys = ctrl->subsys;
	struct rblk_head *head;
	int ret;

	ret = rblk_subsys_check_global_ids(ctrl, nsid, &info->ids);
	if (ret)
		return ERR_PTR(ret);
	mutex_lock(&subsys->lock);
	head = rblk_head_lookup(subsys, nsid);
	if (head) {
		if (!head->shared || !info->shared) {
			rblk_err(ctrl, "Duplicate unshared namespace %u\n",
				 nsid);
			goto refuse;
		}
		if (!rblk_ns_ids_equal(&head->ids, &info->ids)) {
			rblk_err(ctrl, "IDs don't match for shared namespace %u\n",
				 nsid);
			goto refuse;
		}
		head->nr_paths++;
		goto out_unlock;
	}
	ret = rblk_subsys_check_ids(ctrl, nsid, &info->ids);
	if (ret) {
		head = ERR_PTR(ret);
		goto out_unlock;
	}
	head = rblk_head_alloc(ctrl, nsid, info, fops);
	if (!IS_ERR(head)) {
		/* The list's reference, and the caller's. */
		kref_get(&head->ref);
		head->nr_paths = 1;
		list_add_tail(&head->entry, &subsys->heads);
	}
out_unlock:
	mutex_unlock(&subsys->lock);
	return head;

refuse:
	mutex_unlock(&subsys->lock);
	rblk_head_put(head);
	return ERR_PTR(-EINVAL);
}

/*
 * The head's limits from its paths', and its size from @from's (the path
 * that changed, or NULL), under head->lock.  Stacked anew each time, so
 * that a path whose controller or format changed changes the head, with
 * what the user set kept (max_sectors_kb within the new limits,
 * read_ahead_kb); frozen, so that no bio is split by the old limits while
 * the new apply (a bio-based freeze waits only for running submit_bio
 * calls, never for I/O a path or the head holds).
 */
static void rblk_head_restack(struct rblk_head *head, struct rblk_ns *from)
{
	struct rblk_limits l;
	struct rblk_ns *ns;
	unsigned int memflags;
	int srcu_idx, ret;

	lockdep_assert_held(&head->lock);
	/*
	 * The last path leaving: the limits stay for the dying disk, which
	 * may already be deleted while another path is still on its way
	 * out (its disk is put once that path is gone too).
	 */
	if (list_empty(&head->paths) ||
	    (test_bit(RBLK_HEAD_DISK_TRIED, &head->flags) &&
	     !test_bit(RBLK_HEAD_DISK_LIVE, &head->flags)))
		return;
	memflags = rblk_freeze_queue(head->disk->queue);
	rblk_limits_start_stacking(&l, head->disk->queue, &head->user_limits);
	srcu_idx = srcu_read_lock(&head->srcu);
	list_for_each_entry_srcu(ns, &head->paths, siblings,
				 srcu_read_lock_held(&head->srcu)) {
		rblk_limits_stack_disk(&l, ns->disk, head->name);
		rblk_limits_stack_poll(&l, READ_ONCE(ns->limits.poll));
	}
	srcu_read_unlock(&head->srcu, srcu_idx);
	ret = rblk_limits_commit(&l);
	rblk_unfreeze_queue(head->disk->queue, memflags);
	if (ret)
		pr_warn("%s: the paths' limits were refused: %d\n", head->name,
			ret);
	if (from && get_capacity(head->disk) != get_capacity(from->disk))
		set_capacity_and_notify(head->disk, get_capacity(from->disk));
}

/**
 * rblk_head_update() - a path's format, limits or size changed
 * @ns: the path, attached
 * @size: the head takes @ns's size too (not for a change of its
 *	controller's queues alone: a path on its way out has none)
 */
void rblk_head_update(struct rblk_ns *ns, bool size)
{
	struct rblk_head *head = ns->head;

	if (!head || !test_bit(RBLK_NS_ATTACHED, &ns->flags))
		return;
	mutex_lock(&head->lock);
	rblk_head_restack(head, size ? ns : NULL);
	mutex_unlock(&head->lock);
}

/**
 * rblk_head_attach() - make a namespace whose disk was added a path of its
 *	head, and add the head's disk with its first path
 * @ns: namespace with &rblk_ns.head, its hidden disk added
 * @groups: the sysfs attribute groups of the head's disk
 *
 * Return: 0, or a negative errno if the head has no disk: its addition
 * failed, now or for an earlier path (the path stays attached:
 * rblk_head_detach() takes it off).
 */
int rblk_head_attach(struct rblk_ns *ns, const struct attribute_group **groups)
{
	struct rblk_head *head = ns->head;
	struct rblk_subsys *subsys = head->subsys;
	int ret = 0;

	mutex_lock(&subsys->lock);
	list_add_tail_rcu(&ns->siblings, &head->paths);
	set_bit(RBLK_NS_ATTACHED, &ns->flags);
	mutex_unlock(&subsys->lock);

	mutex_lock(&head->lock);
	rblk_head_restack(head, ns);
	/* Once: a gendisk whose addition failed cannot be added again. */
	if (!test_and_set_bit(RBLK_HEAD_DISK_TRIED, &head->flags)) {
		/* No I/O under head->lock: partitions are read by a work. */
		set_bit(GD_SUPPRESS_PART_SCAN, &head->disk->state);
		ret = device_add_disk(&subsys->dev, head->disk, groups);
		if (ret) {
			rblk_err(ns->ctrl, "%s: namespace %u: no block device: %d\n",
				 head->name, head->nsid, ret);
			goto out_unlock;
		}
		kref_get(&head->ref);	/* put by ->free_disk */
		set_bit(RBLK_HEAD_DISK_LIVE, &head->flags);
		queue_work(rblk_wq, &head->partition_work);
	} else if (!test_bit(RBLK_HEAD_DISK_LIVE, &head->flags)) {
		ret = -ENXIO;
		goto out_unlock;
	}
	/* As nvme: a missing link is only a nuisance. */
	if (sysfs_add_link_to_group(&disk_to_dev(head->disk)->kobj, "multipath",
				    &disk_to_dev(ns->disk)->kobj,
				    ns->disk->disk_name))
		rblk_warn(ns->ctrl, "%s: failed to link path %s\n", head->name,
			  ns->disk->disk_name);
out_unlock:
	mutex_unlock(&head->lock);
	/* Held bios may take the new path. */
	rblk_head_kick(head);
	return ret;
}

/**
 * rblk_head_detach() - take a path off its head, before its disk is deleted
 * @ns: namespace being removed, or whose addition failed: with a head
 *	from rblk_head_get(), attached or not
 * @gone: the namespace left the target: the head's I/O fails at once
 *
 * The last path removes the head's disk first, so that, unless @gone,
 * what is cached is written back through it; so does the last attached
 * path, while another is still on its way (it may not make it).  A path
 * counts from rblk_head_get() on, so that a head another controller is
 * about to join is not removed under it.  No lock is held across I/O.
 *
 * Return: true if this was the last path: the caller calls
 * rblk_head_finish() once the path's own disk is deleted.
 */
bool rblk_head_detach(struct rblk_ns *ns, bool gone)
{
	struct rblk_head *head = ns->head;
	struct rblk_subsys *subsys = head->subsys;
	bool attached = test_bit(RBLK_NS_ATTACHED, &ns->flags);
	bool last, live, last_attached;

	mutex_lock(&subsys->lock);
	last = !--head->nr_paths;
	last_attached = attached && list_is_singular(&head->paths);
	if (last) {
		/* No new path joins it, no new open. */
		set_bit(RBLK_HEAD_REMOVING, &head->flags);
		list_del_init(&head->entry);
	}
	mutex_unlock(&subsys->lock);

	/*
	 * Under head->lock, as the last path clears DISK_LIVE before it
	 * deletes the disk: a path leaving at the same time (both
	 * controllers' scans remove a namespace the target deleted) never
	 * unlinks from, or restacks, a disk being deleted.
	 */
	mutex_lock(&head->lock);
	live = test_bit(RBLK_HEAD_DISK_LIVE, &head->flags);
	if (live && attached)
		sysfs_remove_link_from_group(&disk_to_dev(head->disk)->kobj,
					     "multipath", ns->disk->disk_name);
	/*
	 * The disk stays while this path writes back through it, even if
	 * the last path (one never attached) deletes and puts it meanwhile.
	 */
	if (live && (last || last_attached))
		get_device(disk_to_dev(head->disk));
	mutex_unlock(&head->lock);
	if (live && (last || last_attached)) {
		/*
		 * Held bios out first: through this path while it serves,
		 * else they fail, so that nothing below waits for them.
		 */
		rblk_head_kick(head);
		flush_delayed_work(&head->requeue_work);
		if (!last && !gone)
			sync_blockdev(head->disk->part0);
	}
	if (live && last) {
		/* Its partition scan may wait for I/O the kick released. */
		flush_work(&head->partition_work);
		mutex_lock(&head->lock);
		clear_bit(RBLK_HEAD_DISK_LIVE, &head->flags);
		mutex_unlock(&head->lock);
		if (gone)
			blk_mark_disk_dead(head->disk);
		del_gendisk(head->disk);
	}
	if (live && (last || last_attached))
		put_disk(head->disk);

	if (attached) {
		mutex_lock(&subsys->lock);
		list_del_rcu(&ns->siblings);
		clear_bit(RBLK_NS_ATTACHED, &ns->flags);
		mutex_unlock(&subsys->lock);
		synchronize_srcu(&head->srcu);
		/*
		 * No walk finds it now, nor stores it: out of the cache, and
		 * wait for those that took it from there (whatever the cache
		 * holds meanwhile).
		 */
		rblk_head_clear_current_paths(head);
		synchronize_srcu(&head->srcu);
	}

	/* What this path held goes elsewhere, or fails with no path left. */
	rblk_head_kick(head);
	if (!last) {
		mutex_lock(&head->lock);
		rblk_head_restack(head, NULL);
		mutex_unlock(&head->lock);
	}
	return last;
}

/**
 * rblk_head_finish() - let go of a head whose last path left
 * @ns: that path, its own disk deleted (its requests drained: those that
 *	failed over are on the head's list)
 *
 * What the head still holds fails (its disk is dead); then its disk and
 * the subsystem list's reference go.
 */
void rblk_head_finish(struct rblk_ns *ns)
{
	struct rblk_head *head = ns->head;

	rblk_head_kick(head);
	flush_delayed_work(&head->requeue_work);
	put_disk(head->disk);
	rblk_head_put(head);	/* the list's reference */
}

/**
 * rblk_mpath_init() - register the block major
 *
 * Return: 0 or a negative errno.
 */
int rblk_mpath_init(void)
{
	rblk_major = register_blkdev(0, RBLK_NS_NAME_PREFIX);
	return rblk_major < 0 ? rblk_major : 0;
}

/**
 * rblk_mpath_exit() - undo rblk_mpath_init(), all disks gone
 */
void rblk_mpath_exit(void)
{
	unregister_blkdev(rblk_major, RBLK_NS_NAME_PREFIX);
	ida_destroy(&rblk_disk_ida);
}
