// SPDX-License-Identifier: GPL-2.0
/*
 * rblk block layer: blk-mq tag sets for the admin and I/O queues, NVM
 * command setup, completion status handling, timeouts and the gendisk.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/module.h>

#include "rblk.h"

static int rblk_major;

static const struct block_device_operations rblk_fops = {
	.owner		= THIS_MODULE,
};

static inline u64 rblk_sect_to_lba(struct rblk_ctrl *ctrl, sector_t sector)
{
	return sector >> (ctrl->lba_shift - SECTOR_SHIFT);
}

static blk_status_t rblk_setup_rw(struct rblk_ctrl *ctrl, struct request *rq,
				  struct nvme_command *cmd, u8 opcode)
{
	if (rblk_cmd_rw(cmd, opcode, ctrl->opts.nsid,
			rblk_sect_to_lba(ctrl, blk_rq_pos(rq)),
			blk_rq_bytes(rq) >> ctrl->lba_shift,
			rq->cmd_flags & REQ_FUA))
		return BLK_STS_IOERR;
	return BLK_STS_OK;
}

static blk_status_t rblk_setup_discard(struct rblk_ctrl *ctrl,
				       struct request *rq,
				       struct nvme_command *cmd)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	/* One range per request: max_discard_segments is 1. */
	rblk_cmd_dsm(cmd, &req->range, ctrl->opts.nsid,
		     rblk_sect_to_lba(ctrl, blk_rq_pos(rq)),
		     blk_rq_sectors(rq) >> (ctrl->lba_shift - SECTOR_SHIFT));

	rq->special_vec.bv_page = virt_to_page(&req->range);
	rq->special_vec.bv_offset = offset_in_page(&req->range);
	rq->special_vec.bv_len = sizeof(req->range);
	rq->rq_flags |= RQF_SPECIAL_PAYLOAD;
	return BLK_STS_OK;
}

static blk_status_t rblk_setup_cmd(struct rblk_ctrl *ctrl, struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct nvme_command *cmd = &req->cmd;

	/* The submitter of a passthrough request filled in the command. */
	if (blk_rq_is_passthrough(rq))
		return BLK_STS_OK;

	memset(cmd, 0, sizeof(*cmd));
	req->flags = 0;
	/* Retries count across requeues, not across reuse of the tag. */
	if (!(rq->rq_flags & RQF_DONTPREP)) {
		req->retries = 0;
		rq->rq_flags |= RQF_DONTPREP;
	}
	switch (req_op(rq)) {
	case REQ_OP_READ:
		return rblk_setup_rw(ctrl, rq, cmd, nvme_cmd_read);
	case REQ_OP_WRITE:
		return rblk_setup_rw(ctrl, rq, cmd, nvme_cmd_write);
	case REQ_OP_FLUSH:
		cmd->common.opcode = nvme_cmd_flush;
		cmd->common.nsid = cpu_to_le32(ctrl->opts.nsid);
		return BLK_STS_OK;
	case REQ_OP_DISCARD:
		return rblk_setup_discard(ctrl, rq, cmd);
	case REQ_OP_WRITE_ZEROES:
		if (rblk_cmd_write_zeroes(cmd, ctrl->opts.nsid,
					  rblk_sect_to_lba(ctrl, blk_rq_pos(rq)),
					  blk_rq_bytes(rq) >> ctrl->lba_shift))
			return BLK_STS_IOERR;
		return BLK_STS_OK;
	default:
		return BLK_STS_NOTSUPP;
	}
}

/*
 * A flush held for a retired queue carries no bio to resubmit, and a
 * flush is namespace-wide: send it on I/O queue 1, which the new count
 * keeps.  If that queue failed meanwhile, the flush waits for the
 * controller like any held request.
 */
static void rblk_forward_flush(struct rblk_ctrl *ctrl, struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct nvme_command cmd = { };
	u16 sc;
	int ret;

	cmd.common.opcode = nvme_cmd_flush;
	cmd.common.nsid = cpu_to_le32(ctrl->opts.nsid);
	ret = rblk_exec_cmd(ctrl, 1, &cmd, NULL, 0, NULL);
	sc = ret > 0 ? ret & RBLK_SC_MASK : 0;
	if ((ret < 0 || sc == NVME_SC_HOST_ABORTED_CMD ||
	     sc == NVME_SC_HOST_PATH_ERROR) && rblk_ctrl_holds_io(ctrl)) {
		blk_mq_requeue_request(rq, false);
		blk_mq_delay_kick_requeue_list(rq->q, RBLK_REQUEUE_DELAY_MS);
		return;
	}
	req->status = ret < 0 ? NVME_SC_INTERNAL : ret;
	rblk_stats_account(ctrl, rq, req->status);
	blk_mq_end_request(rq, ret > 0 ? rblk_status_to_blk(ret) :
					 errno_to_blk_status(ret));
}

/**
 * rblk_forward_work() - forward the flushes held for retired queues
 * @work: &rblk_ctrl.forward_work
 *
 * Apart from rblk_resubmit_work(), which may wait for the unfreeze: the
 * freeze ends only once these flushes are done.
 */
void rblk_forward_work(struct work_struct *work)
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

/**
 * rblk_resubmit_work() - submit again the bios of requests held for
 *	retired queues
 * @work: &rblk_ctrl.resubmit_work
 *
 * Until the tag set has its new hardware queues the disk queue is frozen
 * and submit_bio_noacct() waits for that here.
 */
void rblk_resubmit_work(struct work_struct *work)
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
	/* Accepted once already: only our worker waits for the new queues. */
	for (bio = rq->bio; bio; bio = bio->bi_next)
		bio->bi_opf &= ~REQ_NOWAIT;
	blk_steal_bios(&ctrl->resubmit_bios, rq);
	ctrl->nr_resubmitted++;
	spin_unlock_irqrestore(&ctrl->resubmit_lock, flags);
	/* Before the request ends: a freeze waiting for it may end next. */
	queue_work(rblk_wq, &ctrl->resubmit_work);
	/* The bios are accounted when their new request completes. */
	rq->rq_flags &= ~RQF_IO_STAT;
	blk_mq_end_request(rq, BLK_STS_OK);
	return true;
}

/* A queue that is not live takes only its Connect; the rest wait or fail. */
static blk_status_t rblk_not_ready(struct rblk_ctrl *ctrl, struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	if (!blk_rq_is_passthrough(rq) && rblk_ctrl_holds_io(ctrl)) {
		if (!test_bit(RBLK_Q_RETIRED, &req->queue->flags))
			return BLK_STS_RESOURCE;
		if (rblk_resubmit_rq(ctrl, rq))
			return BLK_STS_OK;
	}

	req->status = NVME_SC_HOST_PATH_ERROR | NVME_STATUS_DNR;
	/* blk-mq ends it without ->complete: count it here. */
	if (!blk_rq_is_passthrough(rq))
		rblk_stats_account(ctrl, rq, req->status);
	return BLK_STS_IOERR;
}

static blk_status_t rblk_queue_rq(struct blk_mq_hw_ctx *hctx,
				  const struct blk_mq_queue_data *bd)
{
	struct rblk_queue *queue = hctx->driver_data;
	struct rblk_ctrl *ctrl = queue->ctrl;
	struct request *rq = bd->rq;
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	blk_status_t sts;
	int ret;

	if (unlikely(!test_bit(RBLK_Q_LIVE, &queue->flags)) &&
	    !((req->flags & RBLK_REQ_CONNECT) && blk_rq_is_passthrough(rq) &&
	      test_bit(RBLK_Q_TR_READY, &queue->flags)))
		return rblk_not_ready(ctrl, rq);

	sts = rblk_setup_cmd(ctrl, rq);
	if (unlikely(sts))
		return sts;

	req->status = 0;
	req->start_ns = ktime_get_ns();
	blk_mq_start_request(rq);

	ret = rblk_queue_submit(queue, rq);
	switch (ret) {
	case 0:
		return BLK_STS_OK;
	case -ENOMEM:
	case -EAGAIN:
		return BLK_STS_RESOURCE;
	case -EIO:
		/* The queue is broken: recover, and hold the request if we may. */
		rblk_error_recovery(ctrl);
		return rblk_not_ready(ctrl, rq);
	default:
		/* This request cannot be described to the target. */
		rblk_err(ctrl, "queue %u: cannot map request data: %d\n",
			 queue->qid, ret);
		req->status = NVME_SC_INTERNAL | NVME_STATUS_DNR;
		if (!blk_rq_is_passthrough(rq))
			rblk_stats_account(ctrl, rq, req->status);
		return BLK_STS_IOERR;
	}
}

enum rblk_disposition {
	RBLK_COMPLETE,
	RBLK_RETRY,
	RBLK_REQUEUE,
};

static enum rblk_disposition rblk_decide(struct rblk_ctrl *ctrl,
					 struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	if (likely(!req->status) || blk_rq_is_passthrough(rq))
		return RBLK_COMPLETE;

	/* Cancelled by recovery: wait for the controller to come back. */
	if (req->flags & RBLK_REQ_ABORTED)
		return rblk_ctrl_holds_io(ctrl) ? RBLK_REQUEUE : RBLK_COMPLETE;

	if ((req->status & NVME_STATUS_DNR) || blk_noretry_request(rq) ||
	    req->retries >= RBLK_MAX_RETRIES)
		return RBLK_COMPLETE;
	return RBLK_RETRY;
}

static void rblk_complete_rq(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_ctrl *ctrl = req->queue->ctrl;

	rblk_unmap_data(rq);

	switch (rblk_decide(ctrl, rq)) {
	case RBLK_COMPLETE:
		if (!blk_rq_is_passthrough(rq))
			rblk_stats_account(ctrl, rq, req->status);
		blk_mq_end_request(rq, rblk_status_to_blk(req->status));
		return;
	case RBLK_RETRY:
		req->retries++;
		fallthrough;
	case RBLK_REQUEUE:
		req->flags &= ~RBLK_REQ_ABORTED;
		blk_mq_requeue_request(rq, true);
		return;
	}
}

/*
 * Complete an in-flight request as aborted by the host: block I/O is then
 * requeued while the controller may come back (rblk_decide()), commands of
 * our own (Connect, properties, Identify, ...) fail.
 */
static void rblk_abort_rq(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	req->status = NVME_SC_HOST_ABORTED_CMD;
	if (blk_rq_is_passthrough(rq))
		req->status |= NVME_STATUS_DNR;
	req->flags |= RBLK_REQ_ABORTED;
	blk_mq_complete_request(rq);
}

static enum blk_eh_timer_return rblk_timeout(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_queue *queue = req->queue;
	struct rblk_ctrl *ctrl = queue->ctrl;

	rblk_warn(ctrl, "queue %u: command %#x (opcode %#x) timed out\n",
		  queue->qid, req->cmd.common.command_id,
		  req->cmd.common.opcode);
	atomic64_inc(&ctrl->timeouts);

	if (rblk_ctrl_state(ctrl) == RBLK_STATE_LIVE) {
		/* Recovery cancels this request along with the others. */
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
	if (!blk_mq_request_completed(rq))
		rblk_abort_rq(rq);
	return BLK_EH_DONE;
}

static bool rblk_cancel_rq(struct request *rq, void *data)
{
	if (!blk_mq_request_completed(rq))
		rblk_abort_rq(rq);
	return true;
}

/**
 * rblk_cancel_requests() - complete every in-flight request of a tag set
 * @set: tag set whose queues are stopped
 *
 * File system requests are requeued while the controller may come back,
 * others fail.
 */
void rblk_cancel_requests(struct blk_mq_tag_set *set)
{
	if (!set->tags)
		return;
	blk_mq_tagset_busy_iter(set, rblk_cancel_rq, NULL);
	blk_mq_tagset_wait_completed_request(set);
}

static int rblk_init_request(struct blk_mq_tag_set *set, struct request *rq,
			     unsigned int hctx_idx, unsigned int numa_node)
{
	struct rblk_ctrl *ctrl = rblk_ctrl_of_set(set);
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	req->queue = &ctrl->queues[set == &ctrl->admin_set ? 0 : hctx_idx + 1];
	req->genctr = 0;
	return 0;
}

static int rblk_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			  unsigned int hctx_idx)
{
	struct rblk_ctrl *ctrl = data;

	hctx->driver_data = &ctrl->queues[hctx_idx + 1];
	return 0;
}

static int rblk_init_admin_hctx(struct blk_mq_hw_ctx *hctx, void *data,
				unsigned int hctx_idx)
{
	struct rblk_ctrl *ctrl = data;

	hctx->driver_data = &ctrl->queues[0];
	return 0;
}

static const struct blk_mq_ops rblk_mq_ops = {
	.queue_rq	= rblk_queue_rq,
	.complete	= rblk_complete_rq,
	.init_request	= rblk_init_request,
	.init_hctx	= rblk_init_hctx,
	.timeout	= rblk_timeout,
};

static const struct blk_mq_ops rblk_admin_mq_ops = {
	.queue_rq	= rblk_queue_rq,
	.complete	= rblk_complete_rq,
	.init_request	= rblk_init_request,
	.init_hctx	= rblk_init_admin_hctx,
	.timeout	= rblk_timeout,
};

static unsigned int rblk_cmd_size(void)
{
	return sizeof(struct rblk_request) +
	       sizeof(struct scatterlist) * RBLK_INLINE_SG_CNT;
}

/* Limits both request queues share: one MR must map every request. */
static void rblk_set_queue_limits(struct rblk_ctrl *ctrl,
				  struct request_queue *q)
{
	/*
	 * An unaligned buffer spans one page more than its length: keep
	 * transfers one page below what an MR maps.
	 */
	u32 max_sectors = min_t(u32, ctrl->max_hw_sectors,
				(ctrl->max_segments - 1) <<
				(PAGE_SHIFT - SECTOR_SHIFT));

	blk_queue_max_hw_sectors(q, max_sectors);
	blk_queue_max_segments(q, ctrl->max_segments);
	blk_queue_virt_boundary(q, SZ_4K - 1);
	blk_queue_dma_alignment(q, 3);
}

/*
 * A tag set and a request queue on it without a disk: the admin queue's,
 * and the one Fabrics Connect of the I/O queues goes through.
 */
static int rblk_alloc_tagset(struct rblk_ctrl *ctrl,
			     struct blk_mq_tag_set *set,
			     const struct blk_mq_ops *ops, unsigned int depth,
			     unsigned int reserved, unsigned int flags,
			     unsigned int nr_hw_queues, unsigned int timeout,
			     struct request_queue **q)
{
	int ret;

	memset(set, 0, sizeof(*set));
	set->ops = ops;
	set->queue_depth = depth;
	set->reserved_tags = reserved;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = rblk_cmd_size();
	set->flags = flags;
	set->driver_data = ctrl;
	set->nr_hw_queues = nr_hw_queues;
	set->timeout = timeout;
	ret = blk_mq_alloc_tag_set(set);
	if (ret)
		return ret;

	*q = blk_mq_init_queue(set);
	if (IS_ERR(*q)) {
		ret = PTR_ERR(*q);
		*q = NULL;
		blk_mq_free_tag_set(set);
		return ret;
	}
	rblk_set_queue_limits(ctrl, *q);
	return 0;
}

static void rblk_free_tagset(struct blk_mq_tag_set *set,
			     struct request_queue **q)
{
	if (!*q)
		return;
	blk_mq_destroy_queue(*q);
	blk_put_queue(*q);
	*q = NULL;
	blk_mq_free_tag_set(set);
}

/**
 * rblk_alloc_admin_tagset() - tag set and request queue of the admin queue
 * @ctrl: controller whose admin queue's RDMA device is known
 *
 * Return: 0 or a negative errno.
 */
int rblk_alloc_admin_tagset(struct rblk_ctrl *ctrl)
{
	return rblk_alloc_tagset(ctrl, &ctrl->admin_set, &rblk_admin_mq_ops,
				 RBLK_AQ_TAGS, RBLK_AQ_RESERVED,
				 BLK_MQ_F_NO_SCHED, 1,
				 rblk_admin_timeout * HZ, &ctrl->admin_q);
}

/**
 * rblk_free_admin_tagset() - undo rblk_alloc_admin_tagset()
 * @ctrl: controller
 */
void rblk_free_admin_tagset(struct rblk_ctrl *ctrl)
{
	rblk_free_tagset(&ctrl->admin_set, &ctrl->admin_q);
}

/**
 * rblk_alloc_io_tagset() - tag set of the I/O queues and the queue used to
 *	send their Connect commands
 * @ctrl: controller with @nr_io_queues set
 *
 * Return: 0 or a negative errno.
 */
int rblk_alloc_io_tagset(struct rblk_ctrl *ctrl)
{
	return rblk_alloc_tagset(ctrl, &ctrl->tag_set, &rblk_mq_ops,
				 ctrl->opts.queue_size, RBLK_IOQ_RESERVED,
				 BLK_MQ_F_SHOULD_MERGE, ctrl->nr_io_queues,
				 rblk_io_timeout * HZ, &ctrl->connect_q);
}

/**
 * rblk_free_io_tagset() - undo rblk_alloc_io_tagset()
 * @ctrl: controller whose disk is gone
 */
void rblk_free_io_tagset(struct rblk_ctrl *ctrl)
{
	rblk_free_tagset(&ctrl->tag_set, &ctrl->connect_q);
}

static void rblk_set_disk_limits(struct rblk_ctrl *ctrl)
{
	struct request_queue *q = ctrl->disk->queue;
	u32 lbasz = 1U << ctrl->lba_shift;

	rblk_set_queue_limits(ctrl, q);
	blk_queue_logical_block_size(q, lbasz);
	blk_queue_physical_block_size(q, ctrl->pb_size);
	blk_queue_io_min(q, ctrl->pb_size);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_write_cache(q, ctrl->vwc & NVME_CTRL_VWC_PRESENT,
			      ctrl->vwc & NVME_CTRL_VWC_PRESENT);

	if (ctrl->oncs & NVME_CTRL_ONCS_DSM) {
		q->limits.discard_granularity = lbasz;
		blk_queue_max_discard_sectors(q, UINT_MAX >> SECTOR_SHIFT);
		blk_queue_max_discard_segments(q, 1);
	}
	if (ctrl->oncs & NVME_CTRL_ONCS_WRITE_ZEROES)
		/* NLB is 16 bits wide. */
		blk_queue_max_write_zeroes_sectors(q,
			min_t(u32, queue_max_hw_sectors(q),
			      0x10000U << (ctrl->lba_shift - SECTOR_SHIFT)));
}

static sector_t rblk_capacity(struct rblk_ctrl *ctrl)
{
	return ctrl->nsze << (ctrl->lba_shift - SECTOR_SHIFT);
}

/**
 * rblk_add_disk() - create and register /dev/rblkN
 * @ctrl: live controller with its namespace identified
 *
 * Return: 0 or a negative errno.
 */
int rblk_add_disk(struct rblk_ctrl *ctrl)
{
	struct gendisk *disk;
	int ret;

	disk = blk_mq_alloc_disk(&ctrl->tag_set, ctrl);
	if (IS_ERR(disk))
		return PTR_ERR(disk);

	disk->major = rblk_major;
	disk->first_minor = ctrl->index * RBLK_MINORS;
	disk->minors = RBLK_MINORS;
	disk->fops = &rblk_fops;
	disk->private_data = ctrl;
	strscpy(disk->disk_name, ctrl->name, DISK_NAME_LEN);
	ctrl->disk = disk;

	rblk_set_disk_limits(ctrl);
	set_capacity(disk, rblk_capacity(ctrl));

	ret = device_add_disk(NULL, disk, rblk_disk_groups);
	if (ret) {
		put_disk(disk);
		ctrl->disk = NULL;
		return ret;
	}
	set_bit(RBLK_CTRL_DISK_ADDED, &ctrl->flags);
	return 0;
}

/**
 * rblk_update_disk() - apply a namespace size change seen on reconnect
 * @ctrl: controller
 */
void rblk_update_disk(struct rblk_ctrl *ctrl)
{
	if (ctrl->disk && get_capacity(ctrl->disk) != rblk_capacity(ctrl)) {
		rblk_info(ctrl, "namespace size changed to %llu blocks\n",
			  ctrl->nsze);
		set_capacity_and_notify(ctrl->disk, rblk_capacity(ctrl));
	}
}

/**
 * rblk_del_disk() - unregister /dev/rblkN; in-flight I/O drains first
 * @ctrl: controller whose I/O queues complete or fail requests
 */
void rblk_del_disk(struct rblk_ctrl *ctrl)
{
	if (!ctrl->disk)
		return;
	if (test_and_clear_bit(RBLK_CTRL_DISK_ADDED, &ctrl->flags))
		del_gendisk(ctrl->disk);
	put_disk(ctrl->disk);
	ctrl->disk = NULL;
}

int rblk_blk_init(void)
{
	rblk_major = register_blkdev(0, "rblk");
	return rblk_major < 0 ? rblk_major : 0;
}

void rblk_blk_exit(void)
{
	unregister_blkdev(rblk_major, "rblk");
}
