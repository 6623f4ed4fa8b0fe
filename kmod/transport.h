/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rblk RDMA transport: the interface rdma.c offers to the files above it.
 *
 * A queue is one NVMe queue pair carried by one RDMA RC queue pair.  Its
 * owner (the controller) fills in @ctrl, @qid and @ops, then the transport
 * connects it, posts capsules for it and reports back only through @ops,
 * and through the callback a poller passes to rblk_queue_poll(): the
 * transport never calls into the controller or the block layer.
 */
#ifndef _RBLK_TRANSPORT_H
#define _RBLK_TRANSPORT_H

#include <linux/blk-mq.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/nvme.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

struct rblk_ctrl;
struct rblk_queue;
struct rblk_request;

/* A DMA-mapped array of fixed-size entries: submission or receive ring. */
struct rblk_ring {
	void *buf;
	u64 dma;
	size_t entry_size;
	unsigned int nr;
	enum dma_data_direction dir;
};

static inline void *rblk_ring_entry(struct rblk_ring *ring, unsigned int i)
{
	return ring->buf + i * ring->entry_size;
}

static inline u64 rblk_ring_dma(struct rblk_ring *ring, unsigned int i)
{
	return ring->dma + i * ring->entry_size;
}

/**
 * struct rblk_device - an RDMA device and the protection domain all our
 *	queues on it share
 * @dev: the RDMA device
 * @pd: protection domain
 * @ref: one per queue on the device
 * @entry: link in the transport's device list
 * @queues: queues with transport resources on this device
 */
struct rblk_device {
	struct ib_device *dev;
	struct ib_pd *pd;
	struct kref ref;
	struct list_head entry;
	struct list_head queues;
};

/**
 * struct rblk_queue_ops - how a queue reports to its owner
 * @error: the queue is broken (a work request failed, the connection or
 *	the RDMA device went away) and must be torn down; any context
 * @async_event: an Asynchronous Event Request completed on the admin
 *	queue with NVMe @status (without the phase bit) and dword 0 @result;
 *	softirq context
 */
struct rblk_queue_ops {
	void (*error)(struct rblk_queue *queue);
	void (*async_event)(struct rblk_queue *queue, u16 status, u32 result);
};

enum rblk_queue_flags {
	RBLK_Q_ALLOCATED,	/* cm_id exists */
	RBLK_Q_TR_READY,	/* QP, CQ and rings exist */
	RBLK_Q_CONNECTED,	/* RDMA CM connection established */
	RBLK_Q_LIVE,		/* Fabrics Connect done, commands may flow */
	RBLK_Q_RETIRED,		/* not coming back: resubmit what it holds */
	RBLK_Q_SQ_CLOSED,	/* stopped: nothing joins the send chain */
};

/**
 * struct rblk_rsp_wr - the receive work request of one receive buffer
 * @cqe: its completion (rblk_recv_done)
 * @wr: the work request, reposted as it is after every completion
 * @sge: the buffer (@sge.addr its DMA address)
 * @buf: the buffer, for the CPU
 */
struct rblk_rsp_wr {
	struct ib_cqe cqe;
	struct ib_recv_wr wr;
	struct ib_sge sge;
	struct nvme_completion *buf;
};

/**
 * struct rblk_queue - one NVMe queue pair over one RDMA queue pair
 * @ctrl: owning controller, for its name, address and capsule sizes
 * @ops: owner's callbacks
 * @qid: NVMe queue id, 0 for the admin queue
 * @flags: &enum rblk_queue_flags
 * @queue_size: submission queue entries, and receive buffers
 * @depth: commands outstanding at most: tags, plus the AER slot of the
 *	admin queue
 * @tags: tags of the blk-mq hardware queue behind this queue, set before
 *	its Connect
 * @device: RDMA device and PD
 * @dev_entry: link in @device's queue list
 * @cm_id: RDMA CM identifier
 * @qp: RDMA queue pair
 * @poll: a poll queue: @cq is IB_POLL_DIRECT, reaped by rblk_queue_poll()
 * @cq: completion queue for sends and receives, from the device's CQ pool
 *	(a poll queue's own)
 * @nr_cqe: entries of @cq this queue reserved
 * @sqes: one NVMe command buffer per tag (and the AER's)
 * @rsps: receive buffers for completions
 * @rsp_wrs: one receive work request per receive buffer, built once
 * @bad_recv_wr: where ib_post_recv() reports a failed work request; never
 *	read (a local would cost every completion a stack canary)
 * @lkey: the local DMA lkey of @device's protection domain
 * @mrs: one fast registration memory region per tag (@depth of them)
 * @aer_cqe: completion of the AER's SEND
 * @cm_done: signalled when a CM step finished
 * @cm_error: result of the last CM step
 * @stop_lock: serialises stopping the queue (timeout vs error recovery) and
 *	posting the AER against it
 * @inline_data_size: bytes of in-capsule data the target accepts
 * @max_inline_segs: send SGEs available for in-capsule data
 * @sq_lock: protects @sq_head, @sq_last and the two counters; the
 *	hardware queues of every namespace on the controller feed this queue.
 *	Taken in process context only (dispatch, commit, stop), and not with
 *	bottom halves off: rdma_rxe would then run its send tasklet inline
 *	at the unlock, in the submitter's time (measured: rblk/nvme-rdma
 *	IOPS at queue depth 32 fell from 0.85-1.4 to 0.4-0.6)
 * @sq_head: first work request of the capsules not posted yet, or NULL
 * @sq_last: last work request of that chain
 * @bad_send_wr: where ib_post_send() reports the first work request it
 *	did not post (@sq_lock), for rblk_sq_post_failed()
 * @nr_posts: ib_post_send() calls that carried commands (doorbells)
 * @nr_cmds: commands those calls posted
 * @poll_lock: held while a poller reaps @cq, so that rblk_queue_stop()
 *	can wait for it before draining; protects @nr_polled
 * @nr_polled: work completions pollers reaped
 * @iob: the batch rblk_queue_poll() collects, while it runs (poll lock)
 * @iob_add: its caller's choice of what joins that batch
 */
struct rblk_queue {
	struct rblk_ctrl *ctrl;
	const struct rblk_queue_ops *ops;
	u16 qid;
	unsigned long flags;
	u32 queue_size;
	u32 depth;
	struct blk_mq_tags *tags;
	struct rblk_device *device;
	struct list_head dev_entry;
	struct rdma_cm_id *cm_id;
	struct ib_qp *qp;
	bool poll;
	struct ib_cq *cq;
	u32 nr_cqe;
	spinlock_t poll_lock;
	u64 nr_polled;
	struct io_comp_batch *iob;
	bool (*iob_add)(struct request *rq, struct io_comp_batch *iob);
	struct rblk_ring sqes;
	struct rblk_ring rsps;
	struct rblk_rsp_wr *rsp_wrs;
	const struct ib_recv_wr *bad_recv_wr;
	u32 lkey;
	struct ib_mr **mrs;
	struct ib_cqe aer_cqe;
	struct completion cm_done;
	int cm_error;
	struct mutex stop_lock;
	u32 inline_data_size;
	u32 max_inline_segs;
	spinlock_t sq_lock;
	struct ib_send_wr *sq_head;
	struct ib_send_wr *sq_last;
	const struct ib_send_wr *bad_send_wr;
	u64 nr_posts;
	u64 nr_cmds;
};

static inline bool rblk_queue_is_admin(struct rblk_queue *queue)
{
	return queue->qid == 0;
}

/**
 * rblk_queue_sqe() - the submission entry of a request, to build its command in
 * @queue: queue that takes the request (live, or connecting for a Connect)
 * @rq: request (started or not); its tag selects the entry
 *
 * The entry is the request's until its SEND completes, which is before the
 * request can complete and its tag be reused.  The caller writes the whole
 * command but the command id and the data pointer, then calls
 * rblk_queue_submit().
 *
 * Return: the entry, owned by the CPU.
 */
static inline struct nvme_command *rblk_queue_sqe(struct rblk_queue *queue,
						  struct request *rq)
{
	ib_dma_sync_single_for_cpu(queue->device->dev,
				   rblk_ring_dma(&queue->sqes, rq->tag),
				   sizeof(struct nvme_command), DMA_TO_DEVICE);
	return rblk_ring_entry(&queue->sqes, rq->tag);
}

/**
 * rblk_queue_unposted() - whether capsules wait for rblk_queue_commit()
 * @queue: queue
 *
 * Only the caller's own earlier capsules matter, and it sees those.
 *
 * Return: true if the send chain is not empty.
 */
static inline bool rblk_queue_unposted(struct rblk_queue *queue)
{
	return READ_ONCE(queue->sq_head);
}

int rblk_rdma_init(void);
void rblk_rdma_exit(void);
int rblk_queue_alloc(struct rblk_queue *queue, u32 queue_size, u32 depth);
void rblk_queue_stop(struct rblk_queue *queue);
void rblk_queue_free(struct rblk_queue *queue);
int rblk_queue_submit(struct rblk_queue *queue, struct request *rq,
		      bool last);
void rblk_queue_commit(struct rblk_queue *queue);
void rblk_request_init_wrs(struct rblk_request *req);
int rblk_queue_poll(struct rblk_queue *queue,
		    bool (*iob_add)(struct request *rq,
				    struct io_comp_batch *iob));
void rblk_queue_reap(struct rblk_queue *queue);
int rblk_queue_submit_aer(struct rblk_queue *queue,
			  const struct nvme_command *cmd);
void rblk_unmap_data(struct request *rq);
int rblk_device_max_segments(struct rblk_device *device);
int rblk_device_numa_node(struct rblk_device *device);

#endif /* _RBLK_TRANSPORT_H */
