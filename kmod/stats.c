// SPDX-License-Identifier: GPL-2.0
/*
 * rblk statistics: per-CPU counters bumped on completion without locks,
 * summed on read. Reset records a baseline instead of writing other CPUs'
 * counters, so it never races with the I/O path.
 */
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>

#include "rblk.h"

/* Status Code Type, bits 10:8 of the status field. */
enum {
	RBLK_SCT_GENERIC	= 0,
	RBLK_SCT_CMD_SPECIFIC	= 1,
	RBLK_SCT_MEDIA		= 2,
	RBLK_SCT_PATH		= 3,
	RBLK_SCT_VENDOR		= 7,
};

static DEFINE_SPINLOCK(rblk_stats_base_lock);

static enum rblk_op rblk_op_of(struct request *rq)
{
	switch (req_op(rq)) {
	case REQ_OP_READ:
		return RBLK_OP_READ;
	case REQ_OP_WRITE:
		return RBLK_OP_WRITE;
	case REQ_OP_FLUSH:
		return RBLK_OP_FLUSH;
	default:
		return RBLK_OP_DISCARD;
	}
}

static enum rblk_err_class rblk_err_class_of(u16 status)
{
	if ((status & 0x7ff) == NVME_SC_HOST_ABORTED_CMD ||
	    (status & 0x7ff) == NVME_SC_HOST_PATH_ERROR)
		return RBLK_ERR_PATH;
	switch ((status >> 8) & 0x7) {
	case RBLK_SCT_CMD_SPECIFIC:
		return RBLK_ERR_CMD;
	case RBLK_SCT_MEDIA:
		return RBLK_ERR_MEDIA;
	case RBLK_SCT_PATH:
		return RBLK_ERR_PATH;
	case RBLK_SCT_VENDOR:
		return RBLK_ERR_VENDOR;
	default:
		return RBLK_ERR_GENERIC;
	}
}

static unsigned int rblk_lat_bucket(u64 ns)
{
	u64 us = div_u64(ns, NSEC_PER_USEC);

	if (!us)
		return 0;
	return min_t(unsigned int, ilog2(us), RBLK_LAT_BUCKETS - 1);
}

/**
 * rblk_stats_account() - count one completed block layer request
 * @ctrl: controller
 * @rq: the request, before it is ended
 * @status: its NVMe status
 */
void rblk_stats_account(struct rblk_ctrl *ctrl, struct request *rq,
			u16 status)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_stats_cpu __percpu *s = ctrl->stats;
	enum rblk_op op = rblk_op_of(rq);

	if (unlikely(status)) {
		this_cpu_inc(s->errors[rblk_err_class_of(status)]);
		return;
	}
	this_cpu_inc(s->ios[op]);
	this_cpu_add(s->bytes[op], blk_rq_bytes(rq));
	/* A DSM range travels in-capsule too, but it is no write. */
	if (op == RBLK_OP_WRITE && (req->flags & RBLK_REQ_INLINE))
		this_cpu_inc(s->inline_writes);
	this_cpu_inc(s->lat_hist[rblk_lat_bucket(ktime_get_ns() -
						 req->start_ns)]);
}

static void rblk_stats_sum(struct rblk_ctrl *ctrl, struct rblk_stats *s)
{
	int cpu, i;

	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu) {
		struct rblk_stats_cpu *c = per_cpu_ptr(ctrl->stats, cpu);

		for (i = 0; i < ARRAY_SIZE(s->ios); i++) {
			s->ios[i] += READ_ONCE(c->ios[i]);
			s->bytes[i] += READ_ONCE(c->bytes[i]);
		}
		s->inline_writes += READ_ONCE(c->inline_writes);
		for (i = 0; i < RBLK_ERR_CLASSES; i++)
			s->errors[i] += READ_ONCE(c->errors[i]);
		for (i = 0; i < RBLK_LAT_BUCKETS; i++)
			s->lat_hist[i] += READ_ONCE(c->lat_hist[i]);
	}
	s->timeouts = atomic64_read(&ctrl->timeouts);
	s->reconnects = atomic64_read(&ctrl->reconnects);
	s->reconnect_attempts = atomic64_read(&ctrl->reconnect_attempts);
}

/**
 * rblk_stats_read() - counters of a device since load or the last reset
 * @ctrl: controller
 * @s: filled in
 */
void rblk_stats_read(struct rblk_ctrl *ctrl, struct rblk_stats *s)
{
	const u64 *base = (const u64 *)&ctrl->stats_base;
	u64 *v = (u64 *)s;
	int i;

	/* Under the lock: a reset between sum and subtraction would wrap. */
	spin_lock(&rblk_stats_base_lock);
	rblk_stats_sum(ctrl, s);
	for (i = 0; i < sizeof(*s) / sizeof(u64); i++)
		v[i] -= base[i];
	spin_unlock(&rblk_stats_base_lock);
}

/**
 * rblk_stats_reset() - start counting from zero
 * @ctrl: controller
 */
void rblk_stats_reset(struct rblk_ctrl *ctrl)
{
	struct rblk_stats now;

	spin_lock(&rblk_stats_base_lock);
	rblk_stats_sum(ctrl, &now);
	ctrl->stats_base = now;
	spin_unlock(&rblk_stats_base_lock);
}
