// SPDX-License-Identifier: GPL-2.0
/*
 * rblk block layer glue: the blk-mq operations of the admin and I/O tag
 * sets.  NVM command setup for a namespace, completion status handling,
 * retries and timeouts.  Every namespace's request queue sits on the
 * controller's one I/O tag set; rq->q->queuedata says which namespace a
 * request is for (NULL for the controller's own commands).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>

#include "rblk.h"
#include "stats.h"
#include "trace.h"

/*
 * A multipath head's disk counts its I/O as nvme's does: from the path's
 * request's dispatch to its end.  Once per request, across retries.  So
 * does the controller's count of the queue-depth policy, while it is the
 * subsystem's (as nvme_mpath_start_request()).
 */
static void rblk_head_acct_start(struct rblk_ns *ns, struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct gendisk *disk = ns->head->disk;

	if (blk_rq_is_passthrough(rq))
		return;
	if (!req->head_active && READ_ONCE(ns->head->subsys->iopolicy) ==
				 RBLK_IOPOLICY_QUEUE_DEPTH) {
		atomic_inc(&req->queue->ctrl->nr_active);
		req->head_active = true;
	}
	if (req->head_acct || !blk_queue_io_stat(disk->queue))
		return;
	req->head_acct = true;
	req->head_start = rblk_acct_start(disk->part0, rq);
}

static void __rblk_head_acct_end(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	if (req->head_active) {
		req->head_active = false;
		/* As nvme: a count gone wrong must not hide a path for good. */
		atomic_dec_if_positive(&req->queue->ctrl->nr_active);
	}
	if (!req->head_acct)
		return;
	req->head_acct = false;
	rblk_acct_end(rblk_rq_ns(rq)->head->disk->part0, rq, req->head_start);
}

/* Inline: without multipath (multipath=N) it is two tests an I/O. */
static inline void rblk_head_acct_end(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	if (req->head_active || req->head_acct)
		__rblk_head_acct_end(rq);
}

/*
 * A path request of a multipath head, which another path may serve: it
 * carries the head's bios; or it is the flush of a flush sequence, which
 * has none, and a Flush on another path stands in for it while another
 * path is usable, each time charged a retry (else rblk_route_flush()
 * holds or fails it by the head's rules).
 */
static bool rblk_rq_mpath(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_ns *ns = rblk_rq_ns(rq);

	if (!ns || !ns->head || blk_rq_is_passthrough(rq))
		return false;
	if (rq->bio)
		return true;
	return req_op(rq) == REQ_OP_FLUSH &&
	       req->retries < RBLK_MAX_RETRIES &&
	       rblk_head_other_path(ns->head, ns);
}

/* A multipath head's flush of a flush sequence: no bio for the head. */
static inline bool rblk_rq_head_flush(struct rblk_ns *ns, struct request *rq)
{
	return ns && ns->head && !rq->bio && req_op(rq) == REQ_OP_FLUSH;
}

/*
 * A path error: the path waits for its ANA log, or rests a moment, so that
 * the head does not choose it again at once (rblk_path_error()).
 */
static void rblk_path_error_seen(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	rblk_path_error(req->queue->ctrl, rblk_rq_ns(rq), req->status);
}

/*
 * Give a path request's bios back to its head, which sends them on a
 * usable path or holds them while a path may come back, and end the
 * request empty, as nvme_failover_req(); a flush without bios ends once
 * the head's Flush on another path did.  Any context.
 */
static void rblk_failover_rq(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_ns *ns = rblk_rq_ns(rq);
	struct rblk_head *head = ns->head;
	unsigned long flags;
	struct bio *bio;

	rblk_path_error_seen(rq);
	atomic64_inc(&head->failovers);
	trace_rblk_failover(ns, rq, req->status);
	rblk_head_acct_end(rq);

	if (!rq->bio) {
		req->retries++;
		req->fwd_waits = 0;
		rblk_head_forward_flush(head, rq);
		return;
	}

	spin_lock_irqsave(&head->requeue_lock, flags);
	for (bio = rq->bio; bio; bio = bio->bi_next) {
		bio_set_dev(bio, head->disk->part0);
		/* Polled on this path's queue, by a poller that may be gone. */
		if (bio->bi_opf & REQ_POLLED) {
			bio_clear_polled(bio);
			WRITE_ONCE(bio->bi_cookie, BLK_QC_T_NONE);
		}
		/* The requeue work may block; nobody waits for EAGAIN now. */
		bio->bi_opf &= ~REQ_NOWAIT;
	}
	blk_steal_bios(&head->requeue_list, rq);
	spin_unlock_irqrestore(&head->requeue_lock, flags);

	/* Before the end, which may let the namespace and its head go. */
	mod_delayed_work(rblk_wq, &head->requeue_work, 0);
	blk_mq_end_request(rq, BLK_STS_OK);
}

/*
 * Count a block request as it ends; our own commands are not counted.
 * Inline: every I/O ends here, once.
 */
static __always_inline void rblk_account(struct request *rq, u16 status,
					 u64 now)
{
	struct rblk_ns *ns = rblk_rq_ns(rq);

	if (ns && !blk_rq_is_passthrough(rq)) {
		rblk_iostats_account(&ns->stats, rq, status, now);
		rblk_head_acct_end(rq);
	}
}

static inline u64 rblk_sect_to_lba(struct rblk_ns *ns, sector_t sector)
{
	return sector >> (ns->info.lba_shift - SECTOR_SHIFT);
}

/*
 * A request built for another logical block size (queued before a format
 * change was applied) cannot be expressed in blocks of the new one.
 */
static bool rblk_rq_misaligned(struct rblk_ns *ns, struct request *rq)
{
	u32 mask = (1U << ns->info.lba_shift) - 1;

	if (req_op(rq) == REQ_OP_FLUSH)
		return false;
	return ((blk_rq_pos(rq) << SECTOR_SHIFT) | blk_rq_bytes(rq)) & mask;
}

static blk_status_t rblk_setup_discard(struct rblk_ns *ns, struct request *rq,
				       struct nvme_command *cmd)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	/* One range per request: max_discard_segments is 1. */
	rblk_cmd_dsm(cmd, &req->range, ns->nsid,
		     rblk_sect_to_lba(ns, blk_rq_pos(rq)),
		     blk_rq_bytes(rq) >> ns->info.lba_shift);

	rq->special_vec.bv_page = virt_to_page(&req->range);
	rq->special_vec.bv_offset = offset_in_page(&req->range);
	rq->special_vec.bv_len = sizeof(req->range);
	rq->rq_flags |= RQF_SPECIAL_PAYLOAD;
	return BLK_STS_OK;
}

/*
 * Build the command of block I/O in its submission entry, @cmd: Read and
 * Write, the bulk, write every field themselves; the others start from a
 * cleared entry.
 */
static blk_status_t rblk_setup_cmd(struct rblk_ns *ns, struct request *rq,
				   struct nvme_command *cmd)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	u64 slba = rblk_sect_to_lba(ns, blk_rq_pos(rq));
	u32 nlb = blk_rq_bytes(rq) >> ns->info.lba_shift;
	int ret = 0;

	req->flags = 0;
	switch (req_op(rq)) {
	case REQ_OP_READ:
		ret = rblk_cmd_rw(cmd, nvme_cmd_read, ns->nsid, slba, nlb,
				  false);
		break;
	case REQ_OP_WRITE:
		ret = rblk_cmd_rw(cmd, nvme_cmd_write, ns->nsid, slba, nlb,
				  rq->cmd_flags & REQ_FUA);
		break;
	case REQ_OP_FLUSH:
		memset(cmd, 0, sizeof(*cmd));
		cmd->common.opcode = nvme_cmd_flush;
		cmd->common.nsid = cpu_to_le32(ns->nsid);
		break;
	case REQ_OP_DISCARD:
		memset(cmd, 0, sizeof(*cmd));
		return rblk_setup_discard(ns, rq, cmd);
	case REQ_OP_WRITE_ZEROES:
		memset(cmd, 0, sizeof(*cmd));
		ret = rblk_cmd_write_zeroes(cmd, ns->nsid, slba, nlb);
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	return ret ? BLK_STS_IOERR : BLK_STS_OK;
}

/* End a request blk-mq never sees ->complete for: count it here. */
static blk_status_t rblk_fail_rq(struct request *rq, u16 status)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	req->status = status;
	/* A failure takes no latency sample: no time needed. */
	rblk_account(rq, status, 0);
	return BLK_STS_IOERR;
}

/*
 * A flush held for a retired queue carries no bio to resubmit, and a
 * flush is namespace-wide: send it on I/O queue 1, which the new count
 * keeps, on its reserved tag (counted in the queue's depth).  If that
 * queue failed meanwhile, the flush waits for the controller like any
 * held request.
 */
static void rblk_forward_flush(struct rblk_ctrl *ctrl, struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_ns *ns = rblk_rq_ns(rq);
	struct nvme_command cmd = { };
	u16 sc;
	int ret;

	cmd.common.opcode = nvme_cmd_flush;
	cmd.common.nsid = cpu_to_le32(ns->nsid);
	ret = rblk_exec_cmd(ctrl, 1, &cmd, NULL, 0, NULL);
	sc = ret > 0 ? ret & RBLK_SC_MASK : 0;
	if ((ret < 0 || sc == NVME_SC_HOST_ABORTED_CMD ||
	     sc == NVME_SC_HOST_PATH_ERROR) && rblk_ctrl_holds_io(ctrl)) {
		blk_mq_requeue_request(rq, false);
		blk_mq_delay_kick_requeue_list(rq->q, RBLK_REQUEUE_DELAY_MS);
		return;
	}
	req->status = ret < 0 ? NVME_SC_INTERNAL : ret;
	rblk_account(rq, req->status, ktime_get_ns());
	blk_mq_end_request(rq, ret > 0 ? rblk_status_to_blk(ret) :
					 errno_to_blk_status(ret));
}

/*
 * Apart from rblk_resubmit_work(), which may wait for the unfreeze: the
 * freeze ends only once these flushes are done.
 */
static void rblk_forward_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl,
					      forward_work);
	struct request *rq, *next;
	LIST_HEAD(flushes);

	spin_lock_irq(&ctrl->resubmit_lock);
	list_splice_init(&ctrl->resubmit_flushes, &flushes);
	spin_unlock_irq(&ctrl->resubmit_lock);

	list_for_each_entry_safe(rq, next, &flushes, queuelist) {
		list_del_init(&rq->queuelist);
		rblk_forward_flush(ctrl, rq);
	}
}

/*
 * Until the tag set has its new hardware queues the namespace queues are
 * frozen and submit_bio_noacct() waits for that here.
 */
static void rblk_resubmit_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl,
					      resubmit_work);
	struct bio_list bios;
	struct bio *bio;

	spin_lock_irq(&ctrl->resubmit_lock);
	bios = ctrl->resubmit_bios;
	bio_list_init(&ctrl->resubmit_bios);
	spin_unlock_irq(&ctrl->resubmit_lock);

	while ((bio = bio_list_pop(&bios)))
		submit_bio_noacct(bio);
}

/**
 * rblk_blk_init_ctrl() - set up the block layer's work of a controller
 * @ctrl: new controller
 */
void rblk_blk_init_ctrl(struct rblk_ctrl *ctrl)
{
	INIT_WORK(&ctrl->resubmit_work, rblk_resubmit_work);
	INIT_WORK(&ctrl->forward_work, rblk_forward_work);
}

/*
 * A reconnect got fewer I/O queues: a request held for one that is gone
 * cannot be sent anywhere, as its tag belongs to that hardware queue.
 * Give its bios back to the block layer, which maps them to a queue that
 * exists, and end the empty request.  A write in a flush sequence is
 * resubmitted with its PREFLUSH and FUA flags, so it flushes again on its
 * new queue.  Returns false for a request with nothing to pass on.
 */
static bool rblk_resubmit_rq(struct rblk_ctrl *ctrl, struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	unsigned long flags;
	struct bio *bio;

	if (!rq->bio) {
		if (req_op(rq) != REQ_OP_FLUSH)
			return false;
		/*
		 * Not started: no timeout or cancellation touches it while
		 * forward_work owns it.
		 */
		req->start_ns = ktime_get_ns();
		spin_lock_irqsave(&ctrl->resubmit_lock, flags);
		list_add_tail(&rq->queuelist, &ctrl->resubmit_flushes);
		ctrl->nr_resubmitted++;
		ctrl->nr_forwarded++;
		spin_unlock_irqrestore(&ctrl->resubmit_lock, flags);
		queue_work(rblk_wq, &ctrl->forward_work);
		return true;
	}

	blk_mq_start_request(rq);
	spin_lock_irqsave(&ctrl->resubmit_lock, flags);
	for (bio = rq->bio; bio; bio = bio->bi_next) {
		/* Accepted once already: only our worker waits for the queues. */
		bio->bi_opf &= ~REQ_NOWAIT;
		/*
		 * Off the poll path, as nvme's failover does it: the new
		 * layout may have no poll queue.  A polled bio from io_uring's
		 * per-CPU cache would then end in softirq, where 6.1's
		 * bio_put() warns and frees it as a plain bio anyway.
		 */
		if (bio->bi_opf & REQ_POLLED) {
			bio_clear_polled(bio);
			/* bio_poll() may read it meanwhile. */
			WRITE_ONCE(bio->bi_cookie, BLK_QC_T_NONE);
		}
	}
	blk_steal_bios(&ctrl->resubmit_bios, rq);
	ctrl->nr_resubmitted++;
	spin_unlock_irqrestore(&ctrl->resubmit_lock, flags);
	/* Before the request ends: a freeze waiting for it may end next. */
	queue_work(rblk_wq, &ctrl->resubmit_work);
	/* The bios are accounted when their new request completes. */
	rq->rq_flags &= ~RQF_IO_STAT;
	rblk_head_acct_end(rq);
	blk_mq_end_request(rq, BLK_STS_OK);
	return true;
}

/*
 * A read or write built before a reconnect lowered the queue's limits (an
 * RDMA device whose memory regions map fewer pages): no memory
 * registration can describe it.  Its bios are split anew instead.
 */
static bool rblk_rq_over_limits(struct request *rq)
{
	if (req_op(rq) != REQ_OP_READ && req_op(rq) != REQ_OP_WRITE)
		return false;
	return blk_rq_sectors(rq) > queue_max_hw_sectors(rq->q) ||
	       blk_rq_nr_phys_segments(rq) > queue_max_segments(rq->q);
}

/*
 * A multipath request the queue will not send, given to its head as if
 * its path had failed it (a host path error).  Ours from here (a flush
 * may stay a while): no timeout and no cancel of a recovery may end it
 * too.
 */
static void rblk_failover_unsent(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	if (!blk_mq_request_started(rq))
		blk_mq_start_request(rq);
	blk_mq_set_request_complete(rq);
	req->status = NVME_SC_HOST_PATH_ERROR;
	rblk_failover_rq(rq);
}

/*
 * A queue of a deleted controller that stopped (a timeout, a broken
 * association) while the controller still writes its disks back: nothing
 * recovers it.  The namespace is no usable path from then on (its other
 * queues may still serve, but the head cannot choose a queue), so that
 * the head sends a request that meets it elsewhere, holds it for a path
 * that may come back, or fails it: never straight back here, where a
 * partition scan that the detach waits for would loop for ever.  Returns
 * true to fail the request over; false to fail it here.
 */
static bool rblk_path_down(struct rblk_ctrl *ctrl, struct request *rq)
{
	struct rblk_ns *ns = rblk_rq_ns(rq);
	u32 i;

	if (!rblk_state_leaving(rblk_ctrl_state(ctrl)) ||
	    rblk_ctrl_holds_io(ctrl))
		return true;
	/*
	 * The mark is the namespace's: with no other path to take its I/O,
	 * not while another queue of the controller still serves its
	 * write-back.  This request fails here instead, as without
	 * multipath.
	 */
	if (!rblk_head_other_path(ns->head, ns)) {
		for (i = 1; i <= READ_ONCE(ctrl->nr_io_queues); i++) {
			if (test_bit(RBLK_Q_LIVE, &ctrl->queues[i].flags))
				return false;
		}
	}
	set_bit(RBLK_NS_PATH_DOWN, &ns->flags);
	return true;
}

/*
 * The queue cannot take block I/O now: it waits for recovery, or fails.
 * A REQ_FAILFAST_* request fails at once with a path error, as
 * nvmf_fail_nonready_command() does: its submitter (dm-multipath) has
 * another path to try rather than wait for this one.
 */
static blk_status_t rblk_not_ready(struct rblk_ctrl *ctrl,
				   struct rblk_queue *queue, struct request *rq)
{
	/* Multipath I/O never waits for one path (nvme does the same). */
	if (rblk_rq_mpath(rq) && !blk_noretry_request(rq) &&
	    rblk_path_down(ctrl, rq)) {
		rblk_failover_unsent(rq);
		return BLK_STS_OK;
	}
	if (!blk_rq_is_passthrough(rq) && !blk_noretry_request(rq) &&
	    rblk_ctrl_holds_io(ctrl)) {
		/*
		 * Started already (a failed post): back to blk-mq first,
		 * which hands it over unstarted next time.
		 */
		if (!test_bit(RBLK_Q_RETIRED, &queue->flags) ||
		    blk_mq_request_started(rq))
			return BLK_STS_RESOURCE;
		if (rblk_resubmit_rq(ctrl, rq))
			return BLK_STS_OK;
	}
	return rblk_fail_rq(rq, NVME_SC_HOST_PATH_ERROR | NVME_STATUS_DNR);
}

/*
 * A queue that is not live takes only its Connect.  Block I/O also waits
 * for the namespaces to be checked against the target after a reconnect
 * (RBLK_CTRL_IO_READY), so that it never uses a stale format; a user's
 * passthrough command for the controller to be live, so that it never
 * comes between the commands of a connect (as nvme's __nvmf_check_ready()).
 */
static bool rblk_queue_ready(struct rblk_ctrl *ctrl, struct rblk_queue *queue,
			     struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	if (!blk_rq_is_passthrough(rq))
		return test_bit(RBLK_Q_LIVE, &queue->flags) &&
		       test_bit(RBLK_CTRL_IO_READY, &ctrl->flags);
	if (test_bit(RBLK_Q_LIVE, &queue->flags))
		return !(req->flags & RBLK_REQ_USER) ||
		       rblk_ctrl_state(ctrl) == RBLK_STATE_LIVE;
	return (req->flags & RBLK_REQ_CONNECT) &&
	       test_bit(RBLK_Q_TR_READY, &queue->flags);
}

/*
 * A head's data-less flush on a ready queue whose path takes no I/O now
 * (its ANA state is being read again, or is inaccessible or in change):
 * sent to the target there, it would be refused, and an fsync would fail
 * (or, as nvme-core ends such a flush, return having flushed nothing).  A
 * Flush on another usable path stands in for it; else it waits in its own
 * queue, uncharged, while a path may come back, as the head holds its
 * bios; it fails only when no path may.  Returns true if it was not sent.
 */
static noinline __cold bool rblk_route_flush(struct rblk_ctrl *ctrl,
					     struct request *rq,
					     blk_status_t *sts)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	/*
	 * Only on a live controller: a reconnect's queue-count change waits
	 * for held requests to drain (CONNECTING), and a delete for the
	 * disks' (DELETING); there it is sent, its retries bound it.
	 */
	if (rblk_ctrl_state(ctrl) != RBLK_STATE_LIVE)
		return false;
	*sts = BLK_STS_OK;
	switch (rblk_head_flush_route(rblk_rq_ns(rq))) {
	case RBLK_FLUSH_OWN:
		return false;
	case RBLK_FLUSH_OTHER:
		/* Its stand-ins failed: its own path answers it. */
		if (req->retries >= RBLK_MAX_RETRIES)
			return false;
		rblk_failover_unsent(rq);
		return true;
	case RBLK_FLUSH_HOLD:
		/* Its submitter (dm-multipath) has another path to try. */
		if (blk_noretry_request(rq))
			break;
		trace_rblk_flush_held(rblk_rq_ns(rq), 0);
		rblk_head_flush_requeue(rq);
		return true;
	case RBLK_FLUSH_FAIL:
		break;
	}
	*sts = rblk_fail_rq(rq, NVME_SC_HOST_PATH_ERROR | NVME_STATUS_DNR);
	return true;
}

/* The queue did not take a request: hold it, or fail it. */
static noinline __cold blk_status_t
rblk_submit_failed(struct rblk_ctrl *ctrl, struct rblk_queue *queue,
		   struct request *rq, int ret)
{
	switch (ret) {
	case -ENOMEM:
	case -EAGAIN:
		return BLK_STS_RESOURCE;
	case -EIO:
		/* The queue is broken: recover, and hold the request if we may. */
		rblk_error_recovery(ctrl);
		return rblk_not_ready(ctrl, queue, rq);
	default:
		/* This request cannot be described to the target. */
		rblk_err(ctrl, "queue %u: cannot map request data: %d\n",
			 queue->qid, ret);
		return rblk_fail_rq(rq, NVME_SC_INTERNAL | NVME_STATUS_DNR);
	}
}

static blk_status_t rblk_queue_rq(struct blk_mq_hw_ctx *hctx,
				  const struct blk_mq_queue_data *bd)
{
	struct rblk_queue *queue = hctx->driver_data;
	struct rblk_ctrl *ctrl = queue->ctrl;
	struct request *rq = bd->rq;
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_ns *ns = rblk_rq_ns(rq);
	struct nvme_command *sqe;
	blk_status_t sts;
	int ret;

	if (ns) {
		/*
		 * Retries count across requeues, not across reuse of the tag
		 * (nor from one flush sequence's flush to the next): before
		 * anything may fail it over or hold it.
		 */
		if (!(rq->rq_flags & RQF_DONTPREP) &&
		    !blk_rq_is_passthrough(rq)) {
			req->retries = 0;
			req->path_waits = 0;
			req->head_acct = false;
			req->head_active = false;
			rq->rq_flags |= RQF_DONTPREP;
		}
		/* Gone from the target, or another namespace now. */
		if (unlikely(test_bit(RBLK_NS_DEAD, &ns->flags))) {
			/* Maybe not on another path. */
			if (rblk_rq_mpath(rq) && !blk_noretry_request(rq)) {
				/*
				 * Not started: a dead namespace's queue is
				 * not quiesced, so the cancel of a recovery
				 * may walk the tags meanwhile and must not
				 * end it too (as nvme_host_path_error()).
				 */
				blk_mq_set_request_complete(rq);
				req->status = NVME_SC_HOST_PATH_ERROR;
				rblk_failover_rq(rq);
				sts = BLK_STS_OK;
				goto out;
			}
			sts = rblk_fail_rq(rq, NVME_SC_HOST_PATH_ERROR |
					       NVME_STATUS_DNR);
			goto out;
		}
		/* A passthrough command's LBAs are its submitter's affair. */
		if (unlikely(!blk_rq_is_passthrough(rq) &&
			     rblk_rq_misaligned(ns, rq))) {
			sts = rblk_fail_rq(rq, NVME_SC_INVALID_FIELD |
					       NVME_STATUS_DNR);
			goto out;
		}
		if (unlikely(rblk_rq_over_limits(rq)) &&
		    rblk_resubmit_rq(ctrl, rq)) {
			sts = BLK_STS_OK;
			goto out;
		}
	}
	if (unlikely(!rblk_queue_ready(ctrl, queue, rq))) {
		sts = rblk_not_ready(ctrl, queue, rq);
		goto out;
	}
	if (unlikely(!rq->bio) && rblk_rq_head_flush(ns, rq) &&
	    rblk_route_flush(ctrl, rq, &sts))
		goto out;

	sqe = rblk_queue_sqe(queue, rq);
	if (ns && !blk_rq_is_passthrough(rq)) {
		sts = rblk_setup_cmd(ns, rq, sqe);
		if (unlikely(sts)) {
			/* Counted like the target's refusal of such a command. */
			rblk_fail_rq(rq, (sts == BLK_STS_NOTSUPP ?
					  NVME_SC_INVALID_OPCODE :
					  NVME_SC_INVALID_FIELD) |
					 NVME_STATUS_DNR);
			goto out;
		}
	} else {
		/* Its submitter filled in the command. */
		*sqe = req->cmd;
	}
	req->opcode = sqe->common.opcode;

	req->status = 0;
	blk_mq_start_request(rq);
	/*
	 * Reuse blk-mq's dispatch time when it took one (queue statistics,
	 * on with writeback throttling): a clock read can be costly (HPET).
	 */
	req->start_ns = rq->io_start_time_ns ?: ktime_get_ns();
	if (ns) {
		if (ns->head)
			rblk_head_acct_start(ns, rq);
	} else if (unlikely(req->flags & RBLK_REQ_CONNECT)) {
		rblk_setup_rq_started(ctrl, rq);
	}

	ret = rblk_queue_submit(queue, rq, bd->last);
	/* Queued, and posted if it was the last: nothing left to commit. */
	if (likely(!ret))
		return BLK_STS_OK;
	sts = rblk_submit_failed(ctrl, queue, rq, ret);
out:
	/*
	 * The batch ends here even if this request was not posted (failed,
	 * held, or passed on as bios, which blk-mq counts as queued and
	 * follows with no ->commit_rqs).
	 */
	if (bd->last && rblk_queue_unposted(queue))
		rblk_queue_commit(queue);
	return sts;
}

/* blk-mq ended a batch before the request it announced as the last. */
static void rblk_commit_rqs(struct blk_mq_hw_ctx *hctx)
{
	struct rblk_queue *queue = hctx->driver_data;

	if (rblk_queue_unposted(queue))
		rblk_queue_commit(queue);
}

enum rblk_disposition {
	RBLK_COMPLETE,
	RBLK_RETRY,
	RBLK_REQUEUE,
	RBLK_DELAY_RETRY,
	RBLK_FAILOVER,
	RBLK_HOLD_FLUSH,
	RBLK_WAIT_PATH,
};

static enum rblk_disposition rblk_decide(struct rblk_ctrl *ctrl,
					 struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	bool spent = req->retries >= RBLK_MAX_RETRIES;

	/* Only a status comes here; passthrough reports it to its caller. */
	if (!req->status || blk_rq_is_passthrough(rq))
		return RBLK_COMPLETE;

	/*
	 * Cancelled by recovery: wait for the controller to come back.  A
	 * request that itself timed out spends a retry each time, so that a
	 * command the target never answers fails in the end (as nvme does)
	 * instead of resetting the controller forever.
	 */
	if (req->flags & RBLK_REQ_ABORTED) {
		/*
		 * Multipath: to another path, or held by the head, whatever
		 * this path does next.  Retries do not cross a failover (as
		 * nvme; a data-less flush's do, rblk_rq_mpath()): a command
		 * that times out on every path is bounded by the
		 * controllers' ctrl_loss_tmo only.
		 */
		if (rblk_rq_mpath(rq) && !blk_noretry_request(rq))
			return RBLK_FAILOVER;
		/* Failfast: no waiting for the reconnect (see rblk_not_ready()). */
		if (!rblk_ctrl_holds_io(ctrl) || blk_noretry_request(rq))
			return RBLK_COMPLETE;
		if (!(req->flags & RBLK_REQ_TIMED_OUT))
			return RBLK_REQUEUE;
		return spent ? RBLK_COMPLETE : RBLK_RETRY;
	}

	if ((req->status & NVME_STATUS_DNR) || blk_noretry_request(rq) || spent)
		return RBLK_COMPLETE;
	/*
	 * The target asks the host to authenticate again (auth.rst): by a
	 * reconnect, which authenticates every queue and which this starts.
	 * The command waits for it, charged a retry so that a target that
	 * keeps asking fails it in the end, or goes to another path
	 * meanwhile (the reconnects it asks for are bounded too).
	 */
	if ((req->status & RBLK_SC_MASK) == NVME_SC_AUTH_REQUIRED) {
		if (!rblk_ctrl_reauth(ctrl))
			return RBLK_COMPLETE;
		return rblk_rq_mpath(rq) ? RBLK_FAILOVER : RBLK_RETRY;
	}
	/*
	 * The path, not the command: another path may serve it.  An ANA
	 * status where the log is read again, or the host's own verdict on
	 * the path: to the head, which holds it if no path takes it now.
	 * Any other path error (an ANA status with no log among them): to
	 * another path while one is usable, else retried here within the
	 * retry count, as the head would choose the same path at once.
	 */
	if (rblk_ana_status_in_use(ctrl, req->status) ||
	    rblk_status_is_host_path(req->status)) {
		if (rblk_rq_mpath(rq))
			return RBLK_FAILOVER;
		/*
		 * No other path takes it now: held, uncharged, as bios, on an
		 * ANA status (its path is not used until the log is read
		 * again), on a live controller (rblk_route_flush()).
		 */
		if (rblk_ana_status_in_use(ctrl, req->status) &&
		    rblk_rq_head_flush(rblk_rq_ns(rq), rq)) {
			struct rblk_ns *ns = rblk_rq_ns(rq);

			if (rblk_ctrl_state(ctrl) == RBLK_STATE_LIVE)
				return RBLK_HOLD_FLUSH;
			/*
			 * A deleting controller cannot hold it in its queue
			 * (its disks' removal waits for it): sent here again a
			 * moment later, uncharged, while another path may come
			 * back, for 30 s at most (a path that never comes
			 * back would hold the disconnect).  Once one serves,
			 * it stands in (rblk_rq_mpath()); if this path's
			 * group turns accessible first, this path answers it.
			 */
			if (rblk_ctrl_state(ctrl) == RBLK_STATE_DELETING &&
			    req->path_waits < RBLK_FLUSH_PATH_WAITS &&
			    rblk_head_other_available(ns->head, ns))
				return RBLK_WAIT_PATH;
		}
	} else if (rblk_status_is_path(req->status) && rblk_rq_mpath(rq) &&
		   rblk_head_other_path(rblk_rq_ns(rq)->head, rblk_rq_ns(rq))) {
		/*
		 * Any other path related status (as nvme_is_path_error()):
		 * another path may serve it while one is usable, this one
		 * resting meanwhile (rblk_path_error()).
		 */
		return RBLK_FAILOVER;
	}
	if (RBLK_STATUS_CRD(req->status) &&
	    test_bit(RBLK_CTRL_ACRE, &ctrl->flags))
		return RBLK_DELAY_RETRY;
	return RBLK_RETRY;
}

/*
 * A block I/O failed with a status: say which, where and why, as
 * nvme_log_error() does, by the specifications' names (rblk's own, not
 * behind a config option), naming the disk the request was on (with
 * multipath the path's).  A flush has no LBA.  Not the I/O of a
 * submitter that asked for quiet (RQF_QUIET), nor passthrough, whose
 * status goes to its caller.
 */
static void rblk_log_error(struct rblk_ns *ns, struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	u16 st = req->status;
	char where[48] = "";

	if (req_op(rq) != REQ_OP_FLUSH)
		snprintf(where, sizeof(where), " @ LBA %llu, %u blocks",
			 rblk_sect_to_lba(ns, blk_rq_pos(rq)),
			 blk_rq_bytes(rq) >> ns->info.lba_shift);
	pr_err_ratelimited("%s: %s(0x%x)%s, %s (sct 0x%x / sc 0x%x)%s%s\n",
			   ns->disk->disk_name,
			   rblk_io_opcode_name(req->opcode), req->opcode, where,
			   rblk_status_name(st, true), RBLK_STATUS_SCT(st),
			   st & 0xff, st & NVME_STATUS_MORE ? " MORE" : "",
			   st & NVME_STATUS_DNR ? " DNR" : "");
}

/* Out of line: a status to retry, fail over or complete with. */
static noinline __cold void rblk_complete_rq_status(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_ctrl *ctrl = req->queue->ctrl;
	unsigned long delay = 0;

	switch (rblk_decide(ctrl, rq)) {
	case RBLK_COMPLETE:
		if (req->status && (req->flags & RBLK_REQ_TIMED_OUT))
			rblk_warn(ctrl, "queue %u: command %#x (opcode %#x) failed after %u retries\n",
				  req->queue->qid, req->cid,
				  req->opcode, req->retries);
		if (req->status && rblk_rq_ns(rq) &&
		    !blk_rq_is_passthrough(rq) && !(rq->rq_flags & RQF_QUIET))
			rblk_log_error(rblk_rq_ns(rq), rq);
		rblk_account(rq, req->status, ktime_get_ns());
		blk_mq_end_request(rq, likely(!req->status) ? BLK_STS_OK :
				   rblk_status_to_blk(req->status));
		return;
	case RBLK_FAILOVER:
		rblk_failover_rq(rq);
		return;
	case RBLK_HOLD_FLUSH:
		trace_rblk_flush_held(rblk_rq_ns(rq), req->status);
		rblk_path_error_seen(rq);
		rblk_head_flush_requeue(rq);
		return;
	case RBLK_WAIT_PATH:
		trace_rblk_flush_held(rblk_rq_ns(rq), req->status);
		rblk_path_error_seen(rq);
		req->path_waits++;
		blk_mq_requeue_request(rq, false);
		blk_mq_delay_kick_requeue_list(rq->q, RBLK_FLUSH_PATH_WAIT_MS);
		return;
	case RBLK_DELAY_RETRY:
		/* Command Retry Delay: the target asked for a pause. */
		delay = ctrl->crdt[RBLK_STATUS_CRD(req->status) - 1] * 100;
		fallthrough;
	case RBLK_RETRY:
		req->retries++;
		fallthrough;
	case RBLK_REQUEUE:
		req->flags &= ~(RBLK_REQ_ABORTED | RBLK_REQ_TIMED_OUT);
		if (delay) {
			blk_mq_requeue_request(rq, false);
			blk_mq_delay_kick_requeue_list(rq->q, delay);
		} else {
			blk_mq_requeue_request(rq, true);
		}
		return;
	}
}

/* Injected faults (fault.h): a successful block I/O given a status. */
static void rblk_fault_status(struct rblk_request *req)
{
	if (rblk_fault_auth_required())
		req->status = NVME_SC_AUTH_REQUIRED;
	else if (rblk_fault_path_error(req->queue->ctrl->index))
		req->status = NVME_SC_INTERNAL_PATH_ERROR;
}

static void rblk_complete_rq(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	if (unlikely(!req->status && !blk_rq_is_passthrough(rq)))
		rblk_fault_status(req);
	trace_rblk_complete_rq(rq);
	rblk_unmap_data(rq);
	/* Success, the bulk, is what rblk_decide() would complete. */
	if (likely(!req->status)) {
		rblk_account(rq, 0, ktime_get_ns());
		blk_mq_end_request(rq, BLK_STS_OK);
		return;
	}
	rblk_complete_rq_status(rq);
}

static enum blk_eh_timer_return rblk_timeout(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_queue *queue = req->queue;
	struct rblk_ctrl *ctrl = queue->ctrl;
	struct rblk_ns *ns = rblk_rq_ns(rq);
	u8 gen = READ_ONCE(req->genctr);
	bool broken;

	/*
	 * Answered in time, but held in a poller's batch, or not reaped as
	 * no one polls: once reaped it has ended (or was retried: sent
	 * again, a new command id), and it is no timeout.
	 */
	rblk_queue_reap(queue);
	if (blk_mq_rq_state(rq) != MQ_RQ_IN_FLIGHT ||
	    READ_ONCE(req->genctr) != gen)
		return BLK_EH_DONE;
	/*
	 * Answered; the invalidation of its memory (or its SEND's
	 * completion) is under way: one more period for it.  A work
	 * completion that has not come by then never will: the queue is
	 * broken, and this is a timeout like any other.
	 */
	if (READ_ONCE(req->responded) && !(req->flags & RBLK_REQ_EXTENDED) &&
	    rblk_ctrl_state(ctrl) == RBLK_STATE_LIVE) {
		req->flags |= RBLK_REQ_EXTENDED;
		return BLK_EH_RESET_TIMER;
	}

	/*
	 * A queue broke while connecting, and rblk_ctrl_broken() ended this
	 * Connect or authentication command early: not a timeout.
	 */
	broken = (req->flags & RBLK_REQ_CONNECT) &&
		 test_bit(RBLK_CTRL_SETUP_ERROR, &ctrl->flags);
	if (broken) {
		rblk_warn(ctrl, "queue %u: command %#x (opcode %#x) aborted: a queue broke while connecting\n",
			  queue->qid, req->cid, req->opcode);
	} else {
		rblk_warn(ctrl, "queue %u: command %#x (opcode %#x%s%s) timed out\n",
			  queue->qid, req->cid, req->opcode,
			  ns ? ", " : "", ns ? ns->name : "");
		atomic64_inc(&ctrl->timeouts);
		if (ns)
			rblk_iostats_timeout(&ns->stats);
	}

	if (!broken && rblk_ctrl_state(ctrl) == RBLK_STATE_LIVE) {
		/*
		 * Recovery cancels this request along with the others; this
		 * one is charged a retry for it (rblk_decide()).
		 */
		req->flags |= RBLK_REQ_TIMED_OUT;
		rblk_error_recovery(ctrl);
		return BLK_EH_RESET_TIMER;
	}

	/*
	 * Not live (connecting, resetting, deleting, dead): the request may
	 * be one that setup or teardown waits for, so do not leave it to
	 * recovery.  Stop the queue (no completion can race with us after
	 * that) and abort it: block I/O goes back to wait for the reconnect,
	 * as it would had recovery cancelled it (many requests time out
	 * together; only the first finds the controller live).
	 */
	rblk_queue_stop(queue);
	/*
	 * Unless ended meanwhile: completed (COMPLETE), or by a batch (IDLE),
	 * or ended and sent again (a retry: another command id, whose own
	 * timer runs).
	 */
	if (blk_mq_rq_state(rq) == MQ_RQ_IN_FLIGHT &&
	    READ_ONCE(req->genctr) == gen)
		rblk_abort_rq(rq, !broken);
	return BLK_EH_DONE;
}

static int rblk_init_request(struct blk_mq_tag_set *set, struct request *rq,
			     unsigned int hctx_idx, rblk_numa_node_t numa_node)
{
	struct rblk_ctrl *ctrl = rblk_ctrl_of_set(set);
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	req->queue = &ctrl->queues[set == &ctrl->admin_set ? 0 : hctx_idx + 1];
	req->genctr = 0;
	rblk_request_init_wrs(req);
	return 0;
}

static int rblk_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			  unsigned int hctx_idx)
{
	struct rblk_ctrl *ctrl = data;

	hctx->driver_data = &ctrl->queues[hctx_idx + 1];
	return 0;
}

/*
 * The last ctrl->nr_poll_queues hardware queues are polled.  Reads share
 * the other queues with writes, unless ctrl->nr_write_queues says the
 * first ones are for writes (and everything else but reads), as
 * nvme-rdma's nr_write_queues: the default map, then the read map.
 */
static void rblk_map_queues(struct blk_mq_tag_set *set)
{
	struct rblk_ctrl *ctrl = rblk_ctrl_of_set(set);
	u32 nr_poll = set->nr_maps > HCTX_TYPE_POLL ? ctrl->nr_poll_queues : 0;
	u32 nr_write = set->nr_maps > HCTX_TYPE_READ ? ctrl->nr_write_queues : 0;
	struct blk_mq_queue_map *map = &set->map[HCTX_TYPE_DEFAULT];
	u32 nr_int;

	/*
	 * blk_mq_update_nr_hw_queues() falls back to the old queue count when
	 * it runs out of memory and maps again, with ctrl already holding the
	 * new poll and write counts: never leave a map empty (a division by
	 * zero in blk_mq_map_queues()).  Which queues poll may then disagree
	 * with the map until the next reconnect lays them out again.
	 */
	if (nr_poll >= set->nr_hw_queues)
		nr_poll = set->nr_hw_queues - 1;
	nr_int = set->nr_hw_queues - nr_poll;
	nr_write = min(nr_write, nr_int - 1);
	map->nr_queues = nr_write ?: nr_int;
	map->queue_offset = 0;
	blk_mq_map_queues(map);
	if (set->nr_maps == 1)
		return;

	map = &set->map[HCTX_TYPE_READ];
	map->nr_queues = nr_int - nr_write;
	map->queue_offset = nr_write;
	blk_mq_map_queues(map);

	map = &set->map[HCTX_TYPE_POLL];
	map->nr_queues = nr_poll;
	map->queue_offset = set->nr_hw_queues - nr_poll;
	if (nr_poll)
		blk_mq_map_queues(map);
}

/*
 * Block I/O that a poll found done without error: one clock read for the
 * latency samples of the whole batch, and blk-mq ends them together.
 */
static void rblk_complete_batch(struct io_comp_batch *iob)
{
	u64 now = ktime_get_ns();
	struct request *rq;

	rq_list_for_each(&iob->req_list, rq) {
		trace_rblk_complete_rq(rq);
		rblk_unmap_data(rq);
		rblk_account(rq, 0, now);
	}
	blk_mq_end_request_batch(iob);
}

/*
 * A request a poll found done: what rblk_complete_rq() would end at once
 * (successful block I/O) joins the poller's batch; the rest takes the
 * way of every completion.
 */
static bool rblk_poll_batch(struct request *rq, struct io_comp_batch *iob)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	if (req->status || blk_rq_is_passthrough(rq))
		return false;
	return blk_mq_add_to_batch(rq, iob, 0, rblk_complete_batch);
}

static int rblk_poll(struct blk_mq_hw_ctx *hctx, struct io_comp_batch *iob)
{
	/*
	 * Our own batch, not @iob: blk-mq would end that one after we let
	 * go of the queue, where a stop could find its requests half ended.
	 */
	return rblk_queue_poll(hctx->driver_data, rblk_poll_batch);
}

static int rblk_init_admin_hctx(struct blk_mq_hw_ctx *hctx, void *data,
				unsigned int hctx_idx)
{
	struct rblk_ctrl *ctrl = data;

	hctx->driver_data = &ctrl->queues[0];
	return 0;
}

const struct blk_mq_ops rblk_io_mq_ops = {
	.queue_rq	= rblk_queue_rq,
	.commit_rqs	= rblk_commit_rqs,
	.complete	= rblk_complete_rq,
	.init_request	= rblk_init_request,
	.init_hctx	= rblk_init_hctx,
	.timeout	= rblk_timeout,
	.map_queues	= rblk_map_queues,
	.poll		= rblk_poll,
};

const struct blk_mq_ops rblk_admin_mq_ops = {
	.queue_rq	= rblk_queue_rq,
	.commit_rqs	= rblk_commit_rqs,
	.complete	= rblk_complete_rq,
	.init_request	= rblk_init_request,
	.init_hctx	= rblk_init_admin_hctx,
	.timeout	= rblk_timeout,
};
