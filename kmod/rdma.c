// SPDX-License-Identifier: GPL-2.0
/*
 * rblk RDMA transport: connection management, queue pairs, completion
 * handling and FRWR memory registration for NVMe/RDMA capsules.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_cm.h>

#include "rblk.h"
#include "trace.h"

static LIST_HEAD(rblk_device_list);
static DEFINE_MUTEX(rblk_device_mutex);
static DECLARE_WAIT_QUEUE_HEAD(rblk_device_wq);
static struct ib_client rblk_ib_client;

/*
 * The device leaves the list only once its PD is gone: the list is what
 * device removal waits on (rblk_device_wait_unused()), and the RDMA core
 * frees the device when our remove callback returns.  Everything else a
 * queue allocates on the device goes before the queue's reference.
 * Meanwhile kref_get_unless_zero() keeps rblk_device_get() off it.
 */
static void rblk_device_free(struct kref *ref)
{
	struct rblk_device *device = container_of(ref, struct rblk_device, ref);

	ib_dealloc_pd(device->pd);

	mutex_lock(&rblk_device_mutex);
	list_del(&device->entry);
	mutex_unlock(&rblk_device_mutex);

	kfree(device);
	wake_up_all(&rblk_device_wq);
}

static void rblk_device_put(struct rblk_device *device)
{
	kref_put(&device->ref, rblk_device_free);
}

/*
 * A device is ours to use from our ib_client add callback until our remove
 * callback starts: its client data says so.  The RDMA CM's own callbacks
 * run around ours (added before, removed after), so it may resolve a
 * connection to a device we have already let go, which must not get
 * queues.  The core clears the data after our remove returns.
 */
static bool rblk_device_dying(struct ib_device *ibdev)
{
	lockdep_assert_held(&rblk_device_mutex);
	return ib_get_client_data(ibdev, &rblk_ib_client) != &rblk_ib_client;
}

/*
 * One PD per RDMA device, shared by every queue that lands on it; the
 * queue joins the device's list, which device removal walks.
 */
static struct rblk_device *rblk_device_get(struct rblk_queue *queue)
{
	struct ib_device *ibdev = queue->cm_id->device;
	struct rblk_device *device;

	mutex_lock(&rblk_device_mutex);
	if (rblk_device_dying(ibdev)) {
		device = ERR_PTR(-ENODEV);
		goto out;
	}
	list_for_each_entry(device, &rblk_device_list, entry) {
		if (device->dev == ibdev && kref_get_unless_zero(&device->ref))
			goto found;
	}

	if (!(ibdev->attrs.device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS)) {
		pr_err("%s does not support fast registration\n",
		       dev_name(&ibdev->dev));
		device = ERR_PTR(-EOPNOTSUPP);
		goto out;
	}

	device = kzalloc(sizeof(*device), GFP_KERNEL);
	if (!device) {
		device = ERR_PTR(-ENOMEM);
		goto out;
	}
	device->dev = ibdev;
	device->pd = ib_alloc_pd(ibdev, 0);
	if (IS_ERR(device->pd)) {
		struct ib_pd *pd = device->pd;

		kfree(device);
		device = ERR_CAST(pd);
		goto out;
	}
	kref_init(&device->ref);
	INIT_LIST_HEAD(&device->queues);
	list_add(&device->entry, &rblk_device_list);
found:
	list_add_tail(&queue->dev_entry, &device->queues);
out:
	mutex_unlock(&rblk_device_mutex);
	return device;
}

static void rblk_device_put_queue(struct rblk_queue *queue)
{
	mutex_lock(&rblk_device_mutex);
	list_del_init(&queue->dev_entry);
	mutex_unlock(&rblk_device_mutex);
	rblk_device_put(queue->device);
	queue->device = NULL;
}

/* Listed: queues use it, or its PD is still being freed. */
static bool rblk_device_in_use(struct ib_device *ibdev)
{
	struct rblk_device *device;
	bool used = false;

	mutex_lock(&rblk_device_mutex);
	list_for_each_entry(device, &rblk_device_list, entry)
		used |= device->dev == ibdev;
	mutex_unlock(&rblk_device_mutex);
	return used;
}

/*
 * Sleep until nothing of ours is left on @ibdev.  Not wait_event(): the
 * check takes rblk_device_mutex, which must not be slept on while the task
 * is queued as not running; wait_woken() keeps the check in TASK_RUNNING
 * and still sees a wake-up that comes between the check and the sleep.
 * The wait queue is shared by all devices: a wake-up only means "look
 * again", the list is the answer.
 */
static void rblk_device_wait_unused(struct ib_device *ibdev)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);

	add_wait_queue(&rblk_device_wq, &wait);
	while (rblk_device_in_use(ibdev))
		wait_woken(&wait, TASK_UNINTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);
	remove_wait_queue(&rblk_device_wq, &wait);
}

/**
 * rblk_device_max_segments() - pages one fast registration can map
 * @device: RDMA device
 *
 * Return: the page list length we use per memory region on @device, 0
 * for a device that maps fewer than two pages.
 */
int rblk_device_max_segments(struct rblk_device *device)
{
	u32 len = device->dev->attrs.max_fast_reg_page_list_len;

	/* One page is lost when the first element is not page aligned. */
	return len < 2 ? 0 : min_t(u32, RBLK_MAX_SEGMENTS, len - 1);
}

/**
 * rblk_device_numa_node() - the NUMA node an RDMA device is attached to
 * @device: RDMA device
 *
 * Return: its node, or %NUMA_NO_NODE.
 */
int rblk_device_numa_node(struct rblk_device *device)
{
	return ibdev_to_node(device->dev);
}

static int rblk_ring_alloc(struct ib_device *ibdev, struct rblk_ring *ring,
			   unsigned int nr, size_t entry_size,
			   enum dma_data_direction dir)
{
	ring->buf = kcalloc_node(nr, entry_size, GFP_KERNEL,
				 ibdev_to_node(ibdev));
	if (!ring->buf)
		return -ENOMEM;
	ring->dma = ib_dma_map_single(ibdev, ring->buf, nr * entry_size, dir);
	if (ib_dma_mapping_error(ibdev, ring->dma)) {
		kfree(ring->buf);
		ring->buf = NULL;
		return -ENOMEM;
	}
	ring->nr = nr;
	ring->entry_size = entry_size;
	ring->dir = dir;
	return 0;
}

static void rblk_ring_free(struct ib_device *ibdev, struct rblk_ring *ring)
{
	if (!ring->buf)
		return;
	ib_dma_unmap_single(ibdev, ring->dma, ring->nr * ring->entry_size,
			    ring->dir);
	kfree(ring->buf);
	ring->buf = NULL;
}

static void rblk_wr_error(struct rblk_queue *queue, struct ib_wc *wc,
			  const char *op)
{
	/* Flushes are the expected echo of a queue being torn down. */
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		rblk_warn(queue->ctrl, "queue %u: %s failed: %s (%d)\n",
			  queue->qid, op, ib_wc_status_msg(wc->status),
			  wc->status);
	queue->ops->error(queue);
}

/* Inline: both completions of every I/O end here. */
static __always_inline void rblk_end_request(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_queue *queue = req->queue;

	if (!refcount_dec_and_test(&req->ref))
		return;
	/*
	 * Reaped by rblk_queue_poll(): the owner may take it into the
	 * poller's batch, which ends before the poller lets go of the
	 * queue, so that a stop, which waits for the poller, never finds
	 * it half ended.
	 */
	if (queue->iob && queue->iob_add(rq, queue->iob))
		return;
	blk_mq_complete_request(rq);
}

static void rblk_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rblk_request *req =
		container_of(wc->wr_cqe, struct rblk_request, send_cqe);

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		rblk_wr_error(wc->qp->qp_context, wc, "send");
		return;
	}
	if (unlikely(req->queue->qid && rblk_fault_drop_completion()))
		return;
	rblk_end_request(blk_mq_rq_from_pdu(req));
}

static void rblk_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	/* Registration is unsignaled: we only get here on failure. */
	if (unlikely(wc->status != IB_WC_SUCCESS))
		rblk_wr_error(wc->qp->qp_context, wc, "memory registration");
}

static void rblk_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rblk_request *req =
		container_of(wc->wr_cqe, struct rblk_request, inv_cqe);

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		rblk_wr_error(wc->qp->qp_context, wc, "local invalidate");
		return;
	}
	if (unlikely(req->queue->qid && rblk_fault_drop_completion()))
		return;
	rblk_end_request(blk_mq_rq_from_pdu(req));
}

/* Out of line: its work request on the stack would cost every completion. */
static noinline int rblk_post_inv(struct rblk_queue *queue,
				  struct rblk_request *req)
{
	struct ib_send_wr wr = {
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = req->mr->rkey,
		.wr_cqe = &req->inv_cqe,
	};

	req->inv_cqe.done = rblk_inv_done;
	return ib_post_send(queue->qp, &wr, NULL);
}

/*
 * ib_post_send() and ib_post_recv() keep a local for a NULL bad_wr; the
 * kernel keeps NULL pointer checks, so even given the queue's, its
 * address is taken and costs every caller a stack canary.  Telling the
 * compiler the queue's is never NULL drops it.
 */
static inline int rblk_ib_post_send(struct ib_qp *qp,
				    const struct ib_send_wr *wr,
				    const struct ib_send_wr **bad_wr)
{
	if (!bad_wr)
		__builtin_unreachable();
	return ib_post_send(qp, wr, bad_wr);
}

static int rblk_post_recv(struct rblk_queue *queue, struct rblk_rsp_wr *rsp)
{
	const struct ib_recv_wr **bad_wr = &queue->bad_recv_wr;

	if (!bad_wr)
		__builtin_unreachable();
	return ib_post_recv(queue->qp, &rsp->wr, bad_wr);
}

/* Find the request a completion names; refuse stale or unknown ids. */
static struct request *rblk_find_rq(struct rblk_queue *queue, u16 cid)
{
	unsigned int tag = RBLK_CID_TAG(cid);
	struct rblk_request *req;
	struct request *rq;

	rq = blk_mq_tag_to_rq(queue->tags, tag);
	if (unlikely(!rq))
		return NULL;
	req = blk_mq_rq_to_pdu(rq);
	/*
	 * Answered already: a poller may hold it, ended but in flight, in
	 * its batch, and a second response could come before the SEND's
	 * completion anyway.
	 */
	if (unlikely(RBLK_CID_GEN(cid) != (req->genctr & 0xf) ||
		     blk_mq_rq_state(rq) != MQ_RQ_IN_FLIGHT || req->responded))
		return NULL;
	return rq;
}

static void rblk_aer_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	if (unlikely(wc->status != IB_WC_SUCCESS))
		rblk_wr_error(wc->qp->qp_context, wc, "async event send");
}

/*
 * The response to a request with a memory region: if the target did not
 * invalidate the rkey for us, invalidate it ourselves before the request
 * ends.  Returns false if rblk_inv_done() ends it, or recovery does (a
 * request whose rkey may still be valid must not end before the QP is
 * flushed: the target could still write to the pages).
 */
static bool rblk_rsp_invalidate(struct rblk_queue *queue,
				struct rblk_request *req, struct ib_wc *wc)
{
	if (wc->wc_flags & IB_WC_WITH_INVALIDATE) {
		if (likely(req->mr && wc->ex.invalidate_rkey == req->mr->rkey))
			return true;
		rblk_err(queue->ctrl, "queue %u: target invalidated rkey %#x, expected %#x\n",
			 queue->qid, wc->ex.invalidate_rkey,
			 req->mr ? req->mr->rkey : 0);
		queue->ops->error(queue);
		/*
		 * Stricter than nvme-rdma, which ends the request: our rkey
		 * was not the one invalidated, so leave it to recovery.
		 */
		return !req->mr;
	}
	if (!req->mr)
		return true;
	if (unlikely(rblk_post_inv(queue, req))) {
		rblk_err(queue->ctrl, "queue %u: failed to post local invalidate of rkey %#x\n",
			 queue->qid, req->mr->rkey);
		queue->ops->error(queue);
	}
	return false;
}

static void rblk_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	/* The CQ may be shared (CQ pool): the QP says whose this is. */
	struct rblk_queue *queue = wc->qp->qp_context;
	struct rblk_rsp_wr *rsp = container_of(wc->wr_cqe, struct rblk_rsp_wr,
					       cqe);
	struct ib_device *ibdev = queue->device->dev;
	struct nvme_completion *cqe_data = rsp->buf;
	struct rblk_request *req;
	struct request *rq;
	u16 cid, status;
	u32 result;

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		rblk_wr_error(queue, wc, "receive");
		return;
	}
	if (unlikely(wc->byte_len < sizeof(*cqe_data))) {
		rblk_err(queue->ctrl, "queue %u: short completion (%u bytes)\n",
			 queue->qid, wc->byte_len);
		queue->ops->error(queue);
		return;
	}

	ib_dma_sync_single_for_cpu(ibdev, rsp->sge.addr, sizeof(*cqe_data),
				   DMA_FROM_DEVICE);
	cid = cqe_data->command_id;
	status = le16_to_cpu(cqe_data->status) >> 1;
	result = le32_to_cpu(cqe_data->result.u32);

	/* The AER is no blk-mq request: its slot follows the admin tags. */
	if (rblk_queue_is_admin(queue) &&
	    cid == RBLK_CID(0, RBLK_AER_TAG)) {
		rq = NULL;
	} else {
		rq = rblk_find_rq(queue, cid);
		if (unlikely(!rq)) {
			rblk_err(queue->ctrl, "queue %u: completion for unknown or stale command id %#x\n",
				 queue->qid, cid);
			queue->ops->error(queue);
			return;
		}
		req = blk_mq_rq_to_pdu(rq);
		/* Read by the timeout handler too. */
		WRITE_ONCE(req->responded, true);
		req->status = status;
		req->result = cqe_data->result;
	}

	ib_dma_sync_single_for_device(ibdev, rsp->sge.addr, sizeof(*cqe_data),
				      DMA_FROM_DEVICE);
	if (unlikely(rblk_post_recv(queue, rsp))) {
		rblk_err(queue->ctrl, "queue %u: failed to repost receive\n",
			 queue->qid);
		queue->ops->error(queue);
	}

	if (!rq) {
		queue->ops->async_event(queue, status, result);
		return;
	}
	if (rblk_rsp_invalidate(queue, req, wc))
		rblk_end_request(rq);
}

/**
 * rblk_unmap_data() - release the data mapping of a finished request
 * @rq: request whose sends and receives have all completed or been flushed
 */
void rblk_unmap_data(struct request *rq)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_queue *queue = req->queue;

	if (!req->nents)
		return;
	/* The MR is the tag's own: it is free again once the request ends. */
	req->mr = NULL;
	ib_dma_unmap_sg(queue->device->dev, req->sgt.sgl, req->sgt.nents,
			rq_dma_dir(rq));
	sg_free_table_chained(&req->sgt, RBLK_INLINE_SG_CNT);
	req->nents = 0;
}

static void rblk_map_inline(struct rblk_queue *queue, struct rblk_request *req,
			    struct nvme_command *cmd, int count)
{
	struct scatterlist *sgl;
	u32 len = 0;
	int i;

	for_each_sg(req->sgt.sgl, sgl, count, i) {
		req->sge[1 + i].addr = sg_dma_address(sgl);
		req->sge[1 + i].length = sg_dma_len(sgl);
		req->sge[1 + i].lkey = queue->lkey;
		len += sg_dma_len(sgl);
	}
	req->send_wr.num_sge += count;

	rblk_sgl_inline(cmd, queue->ctrl->icdoff * 16, len);
	req->flags |= RBLK_REQ_INLINE;
}

static int rblk_map_frwr(struct rblk_queue *queue, struct request *rq,
			 struct nvme_command *cmd, int count)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	/*
	 * One MR per tag: a request ends only once its rkey is invalidated,
	 * so the next request on the tag finds the MR free, and neither
	 * needs a lock shared with the completion path.
	 */
	struct ib_mr *mr = queue->mrs[rq->tag];
	int nr, ret;

	/* The virt boundary set on the queue guarantees one MR suffices. */
	nr = ib_map_mr_sg(mr, req->sgt.sgl, count, NULL, SZ_4K);
	if (unlikely(nr < count))
		return nr < 0 ? nr : -EINVAL;

	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey));
	/* Ask the target to invalidate for us and save a LOCAL_INV. */
	ret = rblk_sgl_keyed(cmd, mr->iova, mr->length, mr->rkey, true);
	if (unlikely(ret))
		return ret;

	req->mr = mr;
	/* The rest of the work request is rblk_request_init_wrs()'s. */
	req->reg_wr.mr = mr;
	req->reg_wr.key = mr->rkey;
	return 0;
}

static int rblk_map_data(struct rblk_queue *queue, struct request *rq,
			 struct nvme_command *cmd)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct ib_device *ibdev = queue->device->dev;
	int count, ret;

	req->send_wr.num_sge = 1;
	req->nents = 0;
	req->mr = NULL;

	if (!blk_rq_nr_phys_segments(rq)) {
		rblk_sgl_null(cmd);
		return 0;
	}

	req->sgt.sgl = req->first_sgl;
	ret = sg_alloc_table_chained(&req->sgt, blk_rq_nr_phys_segments(rq),
				     req->sgt.sgl, RBLK_INLINE_SG_CNT);
	if (ret)
		return -ENOMEM;

	/* Not blk_rq_map_sg(): its local would cost a stack canary. */
	req->last_sg = NULL;
	req->sgt.nents = rblk_rq_map_sg(rq, req->sgt.sgl, &req->last_sg);
	count = ib_dma_map_sg(ibdev, req->sgt.sgl, req->sgt.nents,
			      rq_dma_dir(rq));
	if (unlikely(count <= 0)) {
		/* Fails just this request; -EIO would mean a broken queue. */
		ret = -EINVAL;
		goto out_free_table;
	}
	req->nents = count;

	if (rq_data_dir(rq) == WRITE && !rblk_queue_is_admin(queue) &&
	    count <= queue->max_inline_segs &&
	    blk_rq_payload_bytes(rq) <= queue->inline_data_size) {
		rblk_map_inline(queue, req, cmd, count);
		return 0;
	}

	ret = rblk_map_frwr(queue, rq, cmd, count);
	if (ret)
		goto out_unmap;
	return 0;

out_unmap:
	ib_dma_unmap_sg(ibdev, req->sgt.sgl, req->sgt.nents, rq_dma_dir(rq));
	req->nents = 0;
out_free_table:
	sg_free_table_chained(&req->sgt, RBLK_INLINE_SG_CNT);
	return ret;
}

static void rblk_complete_unposted(struct list_head *unposted)
{
	struct request *rq, *next;

	list_for_each_entry_safe(rq, next, unposted, queuelist) {
		list_del_init(&rq->queuelist);
		rq->q->mq_ops->complete(rq);
	}
}

/*
 * A post of the queue's batch failed: the requests whose work requests
 * were not posted are completed as aborted by the host, except @cur (the
 * caller's, which fails) and a request whose REG_MR went out but not its
 * SEND: its MR may still be registered, so it stays started for recovery
 * to cancel after the QP is flushed, as a posted one would.  The others'
 * state is set to complete here, under @sq_lock, so that no cancellation
 * or timeout (which stop the queue, taking the lock, before they look)
 * completes them again; ->complete runs after the unlock, which is ours
 * here: the hot path then keeps no list on its stack.  Returns -EIO if
 * @cur was not posted (its data unmapped; the caller recovers); otherwise
 * reports the queue broken and returns 0.
 */
static noinline __cold int rblk_sq_post_failed(struct rblk_queue *queue,
					       struct ib_send_wr *first,
					       int ret,
					       struct rblk_request *cur)
	__releases(&queue->sq_lock)
{
	const struct ib_send_wr *bad_wr = queue->bad_send_wr;
	struct ib_send_wr *wr, *next;
	bool cur_failed = false;
	LIST_HEAD(unposted);

	if (bad_wr && bad_wr != first)
		queue->nr_posts++;	/* it posted some */

	rblk_err(queue->ctrl, "queue %u: post send failed: %d\n", queue->qid,
		 ret);
	/* Everything from bad_wr on was not posted. */
	for (wr = (struct ib_send_wr *)(bad_wr ?: first); wr; wr = next) {
		struct rblk_request *req;
		struct request *rq;

		next = wr->next;
		if (wr->opcode != IB_WR_SEND)
			continue;	/* the REG_MR before a SEND */
		req = container_of(wr->wr_cqe, struct rblk_request, send_cqe);
		if (wr == bad_wr && req->mr)
			continue;	/* half posted: recovery's */
		queue->nr_cmds--;
		if (req == cur) {
			cur_failed = true;
			continue;
		}
		rq = blk_mq_rq_from_pdu(req);
		req->status = NVME_SC_HOST_ABORTED_CMD;
		if (blk_rq_is_passthrough(rq))
			req->status |= NVME_STATUS_DNR;
		req->flags |= RBLK_REQ_ABORTED;
		if (!blk_mq_complete_request_remote(rq))
			list_add_tail(&rq->queuelist, &unposted);
	}
	spin_unlock(&queue->sq_lock);

	rblk_complete_unposted(&unposted);
	if (cur_failed) {
		/* The caller recovers the queue (and may hold the request). */
		rblk_unmap_data(blk_mq_rq_from_pdu(cur));
		return -EIO;
	}
	/* Ours went out (or half of it): the queue is broken all the same. */
	queue->ops->error(queue);
	return 0;
}

/*
 * Post the queue's batch of capsules with one doorbell and release
 * @sq_lock.  Returns 0, or -EIO if @cur (the caller's request, or NULL)
 * was not posted; rblk_sq_post_failed() deals with the rest of a failed
 * post.  Inline: this is every I/O's doorbell.
 */
static __always_inline int rblk_sq_post_unlock(struct rblk_queue *queue,
					       struct rblk_request *cur)
	__releases(&queue->sq_lock)
{
	struct ib_send_wr *first = queue->sq_head;
	int ret;

	lockdep_assert_held(&queue->sq_lock);
	if (!first) {
		spin_unlock(&queue->sq_lock);
		return 0;
	}
	WRITE_ONCE(queue->sq_head, NULL);
	queue->sq_last = NULL;
	queue->bad_send_wr = NULL;
	ret = rblk_ib_post_send(queue->qp, first, &queue->bad_send_wr);
	if (unlikely(ret))
		return rblk_sq_post_failed(queue, first, ret, cur);
	queue->nr_posts++;
	spin_unlock(&queue->sq_lock);
	return 0;
}

/**
 * rblk_queue_submit() - map a request's data and queue its capsule
 * @queue: live queue
 * @rq: request; its command is in the entry rblk_queue_sqe() gave
 * @last: the last request of a batch (blk-mq's bd->last): post the batch
 *
 * The capsules of a batch are chained and posted with one ib_post_send()
 * when the last arrives, or by rblk_queue_commit().  Every SEND stays
 * signalled: its completion releases the request's SQE.
 *
 * Return: 0 once queued (and posted, if @last), -EAGAIN/-ENOMEM to retry
 * later, -EIO if the queue is broken (the request may be retried after
 * recovery), other errors are final for this request.
 */
int rblk_queue_submit(struct rblk_queue *queue, struct request *rq, bool last)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct ib_device *ibdev = queue->device->dev;
	u64 sqe_dma = rblk_ring_dma(&queue->sqes, rq->tag);
	struct nvme_command *sqe = rblk_ring_entry(&queue->sqes, rq->tag);
	struct ib_send_wr *send_wr = &req->send_wr, *first;
	int ret;

	/* Read by the timeout handler too. */
	WRITE_ONCE(req->genctr, req->genctr + 1);
	req->cid = RBLK_CID(req->genctr, rq->tag);
	sqe->common.command_id = req->cid;
	/* Fabrics data is always described by SGLs (PSDT 01b). */
	sqe->common.flags |= NVME_CMD_SGL_METABUF;

	ret = rblk_map_data(queue, rq, sqe);
	if (unlikely(ret))
		return ret;
	WRITE_ONCE(req->responded, false);

	/* The rest of the work request is rblk_request_init_wrs()'s. */
	req->sge[0].addr = sqe_dma;
	req->sge[0].lkey = queue->lkey;
	send_wr->next = NULL;

	/* Completion needs both the SEND and the response. */
	refcount_set(&req->ref, 2);

	first = send_wr;
	if (req->mr) {
		req->reg_wr.wr.next = send_wr;
		first = &req->reg_wr.wr;
	}

	/*
	 * Before it joins the chain: once posted, the response may end the
	 * request at any time.
	 */
	trace_rblk_setup_cmd(queue, rq, sqe);
	/* The entry is the device's from here on. */
	ib_dma_sync_single_for_device(ibdev, sqe_dma, sizeof(*sqe),
				      DMA_TO_DEVICE);

	spin_lock(&queue->sq_lock);
	/* After rblk_queue_stop() nothing may be posted past its drain. */
	if (unlikely(test_bit(RBLK_Q_SQ_CLOSED, &queue->flags))) {
		spin_unlock(&queue->sq_lock);
		rblk_unmap_data(rq);
		return -EIO;
	}
	if (queue->sq_last)
		queue->sq_last->next = first;
	else
		WRITE_ONCE(queue->sq_head, first);
	queue->sq_last = send_wr;
	queue->nr_cmds++;
	if (last)
		return rblk_sq_post_unlock(queue, req);
	spin_unlock(&queue->sq_lock);
	return 0;
}

/**
 * rblk_queue_commit() - post the capsules queued without @last
 * @queue: queue
 *
 * blk-mq calls this (->commit_rqs) when a batch ended early, and the
 * dispatch of the last request of a batch that was not posted; both look
 * at rblk_queue_unposted() first.  A failed post completes the requests
 * not posted as aborted and reports the queue broken.
 */
void rblk_queue_commit(struct rblk_queue *queue)
{
	spin_lock(&queue->sq_lock);
	rblk_sq_post_unlock(queue, NULL);
}

/**
 * rblk_request_init_wrs() - set up what a request's work requests never change
 * @req: a request's driver data, as blk-mq allocates it
 *
 * The completion handlers, opcodes and flags of the SEND and the REG_MR,
 * and the SEND's first SGE (the capsule) but its address and lkey, which
 * depend on the tag and the device: set once per request, not per I/O.
 */
void rblk_request_init_wrs(struct rblk_request *req)
{
	memset(&req->send_wr, 0, sizeof(req->send_wr));
	req->send_cqe.done = rblk_send_done;
	req->send_wr.wr_cqe = &req->send_cqe;
	req->send_wr.sg_list = req->sge;
	req->send_wr.opcode = IB_WR_SEND;
	req->send_wr.send_flags = IB_SEND_SIGNALED;
	req->sge[0].length = sizeof(struct nvme_command);

	req->reg_cqe.done = rblk_reg_done;
	memset(&req->reg_wr, 0, sizeof(req->reg_wr));
	req->reg_wr.wr.opcode = IB_WR_REG_MR;
	req->reg_wr.wr.wr_cqe = &req->reg_cqe;
	req->reg_wr.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
			     IB_ACCESS_REMOTE_WRITE;
}

/**
 * rblk_queue_submit_aer() - post the Asynchronous Event Request
 * @queue: live admin queue
 * @cmd: the command; its command id is set here
 *
 * The AER has its own SQE slot and command id beyond the admin tags and
 * stays outstanding until the target has an event: it is no blk-mq
 * request and never times out.  Its completion goes to
 * &rblk_queue_ops.async_event.  The caller submits one at a time.
 *
 * Return: 0, -ESHUTDOWN if the queue was stopped, or another negative
 * errno.
 */
int rblk_queue_submit_aer(struct rblk_queue *queue,
			  const struct nvme_command *cmd)
{
	struct ib_device *ibdev = queue->device->dev;
	u64 sqe_dma = rblk_ring_dma(&queue->sqes, RBLK_AER_TAG);
	struct nvme_command *sqe = rblk_ring_entry(&queue->sqes, RBLK_AER_TAG);
	struct ib_sge sge = {
		.addr = sqe_dma,
		.length = sizeof(*sqe),
		.lkey = queue->lkey,
	};
	struct ib_send_wr wr = {
		.wr_cqe = &queue->aer_cqe,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	int ret;

	if (WARN_ON_ONCE(!rblk_queue_is_admin(queue)))
		return -EINVAL;
	/* Not into a queue that rblk_queue_stop() drained meanwhile. */
	mutex_lock(&queue->stop_lock);
	if (!test_bit(RBLK_Q_LIVE, &queue->flags)) {
		mutex_unlock(&queue->stop_lock);
		return -ESHUTDOWN;
	}
	ib_dma_sync_single_for_cpu(ibdev, sqe_dma, sizeof(*sqe), DMA_TO_DEVICE);
	*sqe = *cmd;
	sqe->common.command_id = RBLK_CID(0, RBLK_AER_TAG);
	sqe->common.flags |= NVME_CMD_SGL_METABUF;
	ib_dma_sync_single_for_device(ibdev, sqe_dma, sizeof(*sqe),
				      DMA_TO_DEVICE);

	queue->aer_cqe.done = rblk_aer_send_done;
	ret = ib_post_send(queue->qp, &wr, NULL);
	mutex_unlock(&queue->stop_lock);
	if (unlikely(ret))
		rblk_err(queue->ctrl, "queue 0: post of the async event request failed: %d\n",
			 ret);
	return ret;
}

static void rblk_qp_event(struct ib_event *event, void *context)
{
	struct rblk_queue *queue = context;

	switch (event->event) {
	case IB_EVENT_COMM_EST:
		/* A receive beat the RTU; tell the CM the link is up. */
		rdma_notify(queue->cm_id, event->event);
		break;
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
		rblk_err(queue->ctrl, "queue %u: QP event %s\n", queue->qid,
			 ib_event_msg(event->event));
		queue->ops->error(queue);
		break;
	default:
		rblk_dbg(queue->ctrl, "queue %u: QP event %s\n", queue->qid,
			 ib_event_msg(event->event));
		break;
	}
}

static void rblk_free_cq(struct rblk_queue *queue)
{
	if (queue->poll)
		ib_free_cq(queue->cq);
	else
		ib_cq_pool_put(queue->cq, queue->nr_cqe);
	queue->cq = NULL;
}

static void rblk_free_mrs(struct rblk_queue *queue)
{
	u32 i;

	if (!queue->mrs)
		return;
	for (i = 0; i < queue->depth; i++) {
		if (queue->mrs[i])
			ib_dereg_mr(queue->mrs[i]);
	}
	kfree(queue->mrs);
	queue->mrs = NULL;
}

static int rblk_alloc_mrs(struct rblk_queue *queue)
{
	struct ib_device *ibdev = queue->device->dev;
	/*
	 * One page entry more than a request can use: rdma_rxe in 6.1 reads
	 * one entry past the end of a completely full page map (seen with
	 * KASAN on unaligned 1 MiB writes).
	 */
	u32 pages = rblk_device_max_segments(queue->device) + 1;
	u32 i;

	queue->mrs = kcalloc_node(queue->depth, sizeof(*queue->mrs),
				  GFP_KERNEL, ibdev_to_node(ibdev));
	if (!queue->mrs)
		return -ENOMEM;
	for (i = 0; i < queue->depth; i++) {
		struct ib_mr *mr = ib_alloc_mr(queue->device->pd,
					       IB_MR_TYPE_MEM_REG, pages);

		if (IS_ERR(mr)) {
			rblk_free_mrs(queue);
			return PTR_ERR(mr);
		}
		queue->mrs[i] = mr;
	}
	return 0;
}

static void rblk_destroy_transport(struct rblk_queue *queue)
{
	struct ib_device *ibdev;

	if (!test_and_clear_bit(RBLK_Q_TR_READY, &queue->flags))
		return;

	ibdev = queue->device->dev;
	rblk_free_mrs(queue);
	/* The cm_id may already be gone: destroy the QP directly. */
	ib_destroy_qp(queue->qp);
	queue->qp = NULL;
	rblk_free_cq(queue);
	rblk_ring_free(ibdev, &queue->rsps);
	rblk_ring_free(ibdev, &queue->sqes);
	kfree(queue->rsp_wrs);
	queue->rsp_wrs = NULL;
	rblk_device_put_queue(queue);
}

static int rblk_create_transport(struct rblk_queue *queue)
{
	struct rblk_ctrl *ctrl = queue->ctrl;
	struct ib_qp_init_attr attr = {};
	struct ib_device *ibdev;
	u32 send_wr, recv_wr, depth = queue->depth;
	int comp_vector, ret, i;

	queue->device = rblk_device_get(queue);
	if (IS_ERR(queue->device)) {
		ret = PTR_ERR(queue->device);
		queue->device = NULL;
		return ret;
	}
	ibdev = queue->device->dev;
	queue->lkey = queue->device->pd->local_dma_lkey;

	send_wr = RBLK_SEND_WR_FACTOR * depth + 1;
	recv_wr = queue->queue_size + 1;

	comp_vector = (queue->qid ? queue->qid - 1 : 0) %
		      ibdev->num_comp_vectors;
	queue->nr_cqe = send_wr + recv_wr;
	if (queue->poll)
		queue->cq = ib_alloc_cq(ibdev, queue, queue->nr_cqe,
					comp_vector, IB_POLL_DIRECT);
	else
		/* Shared with the vector's other queues: fewer polls. */
		queue->cq = ib_cq_pool_get(ibdev, queue->nr_cqe, comp_vector,
					   IB_POLL_SOFTIRQ);
	if (IS_ERR(queue->cq)) {
		ret = PTR_ERR(queue->cq);
		queue->cq = NULL;
		goto out_put_device;
	}

	queue->max_inline_segs = 0;
	queue->inline_data_size = 0;
	if (!rblk_queue_is_admin(queue) && ctrl->ioccsz > 4) {
		queue->max_inline_segs =
			min_t(u32, RBLK_MAX_INLINE_SEGS,
			      ibdev->attrs.max_send_sge - 1);
		queue->inline_data_size = ctrl->ioccsz * 16 -
					  sizeof(struct nvme_command);
	}

	attr.event_handler = rblk_qp_event;
	attr.qp_context = queue;
	attr.cap.max_send_wr = send_wr;
	attr.cap.max_recv_wr = recv_wr;
	attr.cap.max_send_sge = 1 + queue->max_inline_segs;
	attr.cap.max_recv_sge = 1;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	attr.send_cq = queue->cq;
	attr.recv_cq = queue->cq;
	ret = rdma_create_qp(queue->cm_id, queue->device->pd, &attr);
	if (ret)
		goto out_free_cq;
	queue->qp = queue->cm_id->qp;

	ret = rblk_ring_alloc(ibdev, &queue->sqes, depth,
			      sizeof(struct nvme_command), DMA_TO_DEVICE);
	if (ret)
		goto out_destroy_qp;
	ret = rblk_ring_alloc(ibdev, &queue->rsps, queue->queue_size,
			      sizeof(struct nvme_completion), DMA_FROM_DEVICE);
	if (ret)
		goto out_free_sqes;
	queue->rsp_wrs = kcalloc_node(queue->queue_size,
				      sizeof(*queue->rsp_wrs), GFP_KERNEL,
				      ibdev_to_node(ibdev));
	if (!queue->rsp_wrs) {
		ret = -ENOMEM;
		goto out_free_rsps;
	}
	for (i = 0; i < queue->queue_size; i++) {
		struct rblk_rsp_wr *rsp = &queue->rsp_wrs[i];

		rsp->cqe.done = rblk_recv_done;
		rsp->sge.addr = rblk_ring_dma(&queue->rsps, i);
		rsp->buf = rblk_ring_entry(&queue->rsps, i);
		rsp->sge.length = sizeof(struct nvme_completion);
		rsp->sge.lkey = queue->lkey;
		rsp->wr.wr_cqe = &rsp->cqe;
		rsp->wr.sg_list = &rsp->sge;
		rsp->wr.num_sge = 1;
	}

	ret = rblk_alloc_mrs(queue);
	if (ret) {
		rblk_err(ctrl, "queue %u: failed to allocate %u MRs: %d\n",
			 queue->qid, depth, ret);
		goto out_free_rsp_wrs;
	}

	set_bit(RBLK_Q_TR_READY, &queue->flags);
	return 0;

out_free_rsp_wrs:
	kfree(queue->rsp_wrs);
	queue->rsp_wrs = NULL;
out_free_rsps:
	rblk_ring_free(ibdev, &queue->rsps);
out_free_sqes:
	rblk_ring_free(ibdev, &queue->sqes);
out_destroy_qp:
	rdma_destroy_qp(queue->cm_id);
	queue->qp = NULL;
out_free_cq:
	rblk_free_cq(queue);
out_put_device:
	rblk_device_put_queue(queue);
	return ret;
}

static int rblk_addr_resolved(struct rblk_queue *queue)
{
	int ret;

	ret = rblk_create_transport(queue);
	if (ret)
		return ret;
	return rdma_resolve_route(queue->cm_id, RBLK_CM_TIMEOUT_MS);
}

static int rblk_route_resolved(struct rblk_queue *queue)
{
	struct rdma_conn_param param = {};
	struct nvme_rdma_cm_req priv = {};
	int ret;

	param.qp_num = queue->qp->qp_num;
	param.flow_control = 1;
	param.responder_resources = queue->device->dev->attrs.max_qp_rd_atom;
	/* Infinite RNR retries: the target may be briefly out of buffers. */
	param.retry_count = 7;
	param.rnr_retry_count = 7;
	param.private_data = &priv;
	param.private_data_len = sizeof(priv);

	priv.recfmt = cpu_to_le16(NVME_RDMA_CM_FMT_1_0);
	priv.qid = cpu_to_le16(queue->qid);
	if (rblk_queue_is_admin(queue)) {
		priv.hrqsize = cpu_to_le16(RBLK_AQ_DEPTH);
		priv.hsqsize = cpu_to_le16(RBLK_AQ_DEPTH - 1);
	} else {
		priv.hrqsize = cpu_to_le16(queue->queue_size);
		priv.hsqsize = cpu_to_le16(queue->queue_size - 1);
	}

	ret = rdma_connect_locked(queue->cm_id, &param);
	if (ret)
		rblk_err(queue->ctrl, "queue %u: rdma_connect failed: %d\n",
			 queue->qid, ret);
	return ret;
}

static int rblk_conn_rejected(struct rblk_queue *queue,
			      struct rdma_cm_event *ev)
{
	struct rdma_cm_id *cm_id = queue->cm_id;
	int status = ev->status;
	const struct nvme_rdma_cm_rej *rej;
	u8 len = 0;

	rej = rdma_consumer_reject_data(cm_id, ev, &len);
	if (rej && len >= sizeof(*rej))
		rblk_warn(queue->ctrl, "queue %u: connect rejected by target, NVMe/RDMA status %u\n",
			  queue->qid, le16_to_cpu(rej->sts));
	else
		rblk_warn(queue->ctrl, "queue %u: connect rejected: %s\n",
			  queue->qid, rdma_reject_msg(cm_id, status));
	return -ECONNREFUSED;
}

static int rblk_conn_established(struct rblk_queue *queue)
{
	unsigned int i;
	int ret;

	/* From here on the QP may hold work requests and must be drained. */
	set_bit(RBLK_Q_CONNECTED, &queue->flags);
	for (i = 0; i < queue->queue_size; i++) {
		ret = rblk_post_recv(queue, &queue->rsp_wrs[i]);
		if (ret) {
			rblk_err(queue->ctrl, "queue %u: failed to post receives: %d\n",
				 queue->qid, ret);
			return ret;
		}
	}
	return 0;
}

static int rblk_cm_handler(struct rdma_cm_id *cm_id, struct rdma_cm_event *ev)
{
	struct rblk_queue *queue = cm_id->context;
	int error = 0;

	rblk_dbg(queue->ctrl, "queue %u: %s (%d)\n", queue->qid,
		 rdma_event_msg(ev->event), ev->status);

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		error = rblk_addr_resolved(queue);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		error = rblk_route_resolved(queue);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		error = rblk_conn_established(queue);
		if (!error) {
			queue->cm_error = 0;
			complete(&queue->cm_done);
			return 0;
		}
		break;
	case RDMA_CM_EVENT_REJECTED:
		error = rblk_conn_rejected(queue, ev);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		error = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		error = -ENETUNREACH;
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		error = -ETIMEDOUT;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		/* Our own disconnect echoes back once the queue is stopped. */
		if (test_bit(RBLK_Q_LIVE, &queue->flags))
			rblk_info(queue->ctrl, "queue %u: %s\n", queue->qid,
				  rdma_event_msg(ev->event));
		/* RBLK_Q_CONNECTED stays: the QP still needs draining. */
		queue->ops->error(queue);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/*
		 * Usually our ib_client callback released the device already;
		 * this is a connection the CM bound to it meanwhile.  The CM
		 * waits until the owner destroys the id.
		 */
		if (test_bit(RBLK_Q_CONNECTED, &queue->flags))
			queue->ops->error(queue);
		else
			error = -ENODEV;
		break;
	default:
		break;
	}

	if (error) {
		queue->cm_error = error;
		complete(&queue->cm_done);
	}
	return 0;
}

/*
 * Undo rblk_queue_alloc(), from any point after the cm_id exists: the QP
 * is drained first, so that no completion handler runs on what is freed.
 */
static void rblk_queue_release(struct rblk_queue *queue)
{
	rblk_queue_stop(queue);
	/* Waits out a CM handler still running; none can start after it. */
	rdma_destroy_id(queue->cm_id);
	queue->cm_id = NULL;
	/* That handler may have established the connection after the stop. */
	rblk_queue_stop(queue);
	rblk_destroy_transport(queue);
	clear_bit(RBLK_Q_ALLOCATED, &queue->flags);
}

/**
 * rblk_queue_alloc() - create and RDMA-connect one queue
 * @queue: queue with @ctrl, @qid and @ops set; the address to connect to
 *	is @ctrl->addr, from @ctrl->src_addr if set, with @ctrl->opts.tos
 * @queue_size: receive and submission queue entries
 * @depth: commands outstanding at most (tags and AER slot)
 *
 * Return: 0 when the RDMA connection is established (Fabrics Connect is
 * the caller's next step), a negative errno otherwise: -EINTR if a fatal
 * signal interrupted the wait, -ENODEV if the RDMA device is going away.
 */
int rblk_queue_alloc(struct rblk_queue *queue, u32 queue_size, u32 depth)
{
	struct rblk_ctrl *ctrl = queue->ctrl;
	long left;
	int ret;

	queue->queue_size = queue_size;
	queue->depth = depth;
	queue->flags = 0;
	queue->cm_error = -ETIMEDOUT;
	INIT_LIST_HEAD(&queue->dev_entry);
	init_completion(&queue->cm_done);

	queue->cm_id = rdma_create_id(&init_net, rblk_cm_handler, queue,
				      RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(queue->cm_id)) {
		ret = PTR_ERR(queue->cm_id);
		queue->cm_id = NULL;
		return ret;
	}
	set_bit(RBLK_Q_ALLOCATED, &queue->flags);

	if (ctrl->opts.tos >= 0)
		rdma_set_service_type(queue->cm_id, ctrl->opts.tos);
	ret = rdma_resolve_addr(queue->cm_id,
				ctrl->src_addr.ss_family ?
				(struct sockaddr *)&ctrl->src_addr : NULL,
				(struct sockaddr *)&ctrl->addr,
				RBLK_CM_TIMEOUT_MS);
	if (ret)
		goto out_release;

	/* Address, route and connect each have a CM timeout; add slack. */
	left = wait_for_completion_killable_timeout(&queue->cm_done,
			msecs_to_jiffies(4 * RBLK_CM_TIMEOUT_MS));
	if (left == 0)
		ret = -ETIMEDOUT;
	else if (left < 0)
		ret = -EINTR;
	else
		ret = queue->cm_error;
	if (ret)
		goto out_release;
	return 0;

out_release:
	rblk_queue_release(queue);
	return ret;
}

/* Reap a poll queue's CQ, its poll lock held; @iob may be NULL. */
static int __rblk_queue_reap(struct rblk_queue *queue,
			     struct io_comp_batch *iob,
			     bool (*iob_add)(struct request *rq,
					     struct io_comp_batch *iob))
{
	int found;

	lockdep_assert_held(&queue->poll_lock);
	/*
	 * Not while rblk_queue_stop() drains the QP: ib_drain_qp() reaps a
	 * direct CQ itself, and the handlers of one queue never run side by
	 * side (``responded``, the batch).
	 */
	if (!test_bit(RBLK_Q_CONNECTED, &queue->flags) || !queue->poll)
		return 0;
	queue->iob = iob;
	queue->iob_add = iob_add;
	found = ib_process_cq_direct(queue->cq, queue->nr_cqe);
	queue->iob = NULL;
	if (iob && rq_list_peek(&iob->req_list))
		iob->complete(iob);
	queue->nr_polled += found;
	return found;
}

/**
 * rblk_queue_poll() - reap the completions of a poll queue
 * @queue: queue of a HCTX_TYPE_POLL hardware queue
 * @iob_add: offered each request the poll finds done; takes it into the
 *	batch (blk_mq_add_to_batch(), with the &struct io_comp_batch.complete
 *	that ends them) or returns false, and the request is completed on
 *	its own
 *
 * At most a CQ's worth of completions is reaped, with the queue's poll
 * lock held, and the batch ends before the lock is let go; blk-mq polls
 * again for the rest.
 *
 * Return: the completions handled (blk-mq's ->poll).
 */
int rblk_queue_poll(struct rblk_queue *queue,
		    bool (*iob_add)(struct request *rq,
				    struct io_comp_batch *iob))
{
	DEFINE_IO_COMP_BATCH(iob);
	int found;

	/* Another poller is at it, or the queue is being stopped. */
	if (!spin_trylock(&queue->poll_lock))
		return 0;
	found = __rblk_queue_reap(queue, &iob, iob_add);
	spin_unlock(&queue->poll_lock);
	return found;
}

/**
 * rblk_queue_reap() - complete what a poll queue's target has answered
 * @queue: queue
 *
 * For a timeout: waits for a running poller, whose batch may hold a
 * request started and not yet ended, then reaps the CQ itself, as the
 * submitter that should poll may not be polling (io_uring IOPOLL with
 * no one reaping).  Afterwards a request the target answered before the
 * call has ended, or has its response and waits for the completion of
 * its local invalidation.  Nothing to do on a queue that is not polled:
 * its CQ's own context completes it.
 */
void rblk_queue_reap(struct rblk_queue *queue)
{
	if (!queue->poll)
		return;
	spin_lock(&queue->poll_lock);
	__rblk_queue_reap(queue, NULL, NULL);
	spin_unlock(&queue->poll_lock);
}

/**
 * rblk_queue_stop() - stop a queue: no more sends, completions flushed
 * @queue: queue, possibly already stopped
 *
 * After this returns no completion handler of the queue runs, so its
 * in-flight requests may be completed by the caller.
 */
void rblk_queue_stop(struct rblk_queue *queue)
{
	mutex_lock(&queue->stop_lock);
	clear_bit(RBLK_Q_LIVE, &queue->flags);
	/*
	 * Capsules queued but not posted stay started requests for the
	 * caller to cancel; closed, nothing joins or posts after the drain
	 * (until the next rblk_queue_alloc()).
	 */
	spin_lock(&queue->sq_lock);
	set_bit(RBLK_Q_SQ_CLOSED, &queue->flags);
	WRITE_ONCE(queue->sq_head, NULL);
	queue->sq_last = NULL;
	spin_unlock(&queue->sq_lock);
	if (test_and_clear_bit(RBLK_Q_CONNECTED, &queue->flags)) {
		/* A poller saw RBLK_Q_CONNECTED clear, or is done. */
		spin_lock(&queue->poll_lock);
		spin_unlock(&queue->poll_lock);
		if (queue->cm_id)
			rdma_disconnect(queue->cm_id);
		ib_drain_qp(queue->qp);
	}
	mutex_unlock(&queue->stop_lock);
}

/**
 * rblk_queue_free() - release everything rblk_queue_alloc() created
 * @queue: queue; stopped here if the caller did not
 */
void rblk_queue_free(struct rblk_queue *queue)
{
	if (test_bit(RBLK_Q_ALLOCATED, &queue->flags))
		rblk_queue_release(queue);
}

static int rblk_ib_add_one(struct ib_device *ibdev)
{
	mutex_lock(&rblk_device_mutex);
	ib_set_client_data(ibdev, &rblk_ib_client, &rblk_ib_client);
	mutex_unlock(&rblk_device_mutex);
	return 0;
}

static void rblk_ib_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct rblk_device *device;
	struct rblk_queue *queue;
	unsigned int nr = 0;

	/*
	 * Everything we hold on the device must go before the RDMA core
	 * frees it: every queue on it fails, its owner tears it down, and
	 * reconnects once a device serves the address again (a controller
	 * still connecting fails that attempt).  No new queue may land on
	 * the device from here on.
	 */
	mutex_lock(&rblk_device_mutex);
	ib_set_client_data(ibdev, &rblk_ib_client, NULL);
	list_for_each_entry(device, &rblk_device_list, entry) {
		if (device->dev != ibdev)
			continue;
		list_for_each_entry(queue, &device->queues, dev_entry) {
			queue->ops->error(queue);
			nr++;
		}
	}
	mutex_unlock(&rblk_device_mutex);

	if (nr)
		pr_info("RDMA device %s is going away: releasing %u queues\n",
			dev_name(&ibdev->dev), nr);
	rblk_device_wait_unused(ibdev);
	if (nr)
		pr_info("RDMA device %s released\n", dev_name(&ibdev->dev));
}

static struct ib_client rblk_ib_client = {
	.name	= "rblk",
	.add	= rblk_ib_add_one,
	.remove	= rblk_ib_remove_one,
};

int rblk_rdma_init(void)
{
	return ib_register_client(&rblk_ib_client);
}

void rblk_rdma_exit(void)
{
	ib_unregister_client(&rblk_ib_client);
}
