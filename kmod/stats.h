/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rblk statistics (stats.c): per-CPU counters of a namespace.  The
 * counting of one request is inline here, for the I/O path; the counters
 * themselves (struct rblk_iostats) are in rblk.h, in each namespace.
 */
#ifndef _RBLK_STATS_H
#define _RBLK_STATS_H

#include <linux/blk-mq.h>
#include <linux/log2.h>
#include <linux/math64.h>

#include "rblk.h"

int rblk_iostats_init(struct rblk_iostats *st);
void rblk_iostats_exit(struct rblk_iostats *st);
void rblk_iostats_error(struct rblk_iostats *st, u16 status);
void rblk_iostats_timeout(struct rblk_iostats *st);
void rblk_iostats_read(struct rblk_iostats *st, struct rblk_stats *s);
void rblk_iostats_reset(struct rblk_iostats *st);
void rblk_stats_add(struct rblk_stats *sum, const struct rblk_stats *s);
u64 rblk_stats_errors(const struct rblk_stats *s);

static inline unsigned int rblk_lat_bucket(u64 ns)
{
	u64 us = div_u64(ns, NSEC_PER_USEC);

	if (!us)
		return 0;
	return min_t(unsigned int, ilog2(us), RBLK_LAT_BUCKETS - 1);
}

/**
 * rblk_iostats_account() - count one block request as it ends
 * @st: counters of the request's namespace
 * @rq: the request, before it is ended
 * @status: its NVMe status; nonzero counts one error by status class
 * @now: ktime_get_ns() at completion, read once for a batch of them;
 *	unused (and may be 0) when @status is nonzero
 *
 * Inline: every I/O is counted, and a success with a constant @status
 * is then a few per-CPU increments.
 */
static __always_inline void rblk_iostats_account(struct rblk_iostats *st,
						 struct request *rq,
						 u16 status, u64 now)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	struct rblk_stats __percpu *s = st->cpu;
	enum rblk_stat_attr ios, bytes;

	if (unlikely(status)) {
		rblk_iostats_error(st, status);
		return;
	}
	switch (req_op(rq)) {
	case REQ_OP_READ:
		ios = RBLK_STAT_READS;
		bytes = RBLK_STAT_READ_BYTES;
		break;
	case REQ_OP_WRITE:
		ios = RBLK_STAT_WRITES;
		bytes = RBLK_STAT_WRITE_BYTES;
		/* A DSM range travels in-capsule too, but it is no write. */
		if (req->flags & RBLK_REQ_INLINE)
			this_cpu_inc(s->v[RBLK_STAT_INLINE_WRITES]);
		break;
	case REQ_OP_FLUSH:
		ios = RBLK_STAT_FLUSHES;
		bytes = 0;
		break;
	default:
		ios = RBLK_STAT_DISCARDS;
		bytes = RBLK_STAT_DISCARD_BYTES;
		break;
	}
	this_cpu_inc(s->v[ios]);
	if (bytes)
		this_cpu_add(s->v[bytes], blk_rq_bytes(rq));
	this_cpu_inc(s->lat_hist[rblk_lat_bucket(now - req->start_ns)]);
}

#endif /* _RBLK_STATS_H */
