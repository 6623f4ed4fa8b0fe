// SPDX-License-Identifier: GPL-2.0
/*
 * rblk statistics: per-CPU counters of a namespace, bumped on completion
 * without locks and summed on read.  A reset records a baseline instead
 * of writing other CPUs' counters, so it never races with the I/O path.
 */
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>

#include "rblk.h"
#include "stats.h"

/* Orders a reset's new baseline against readers subtracting the old one. */
static DEFINE_SPINLOCK(rblk_stats_base_lock);

static enum rblk_stat_attr rblk_error_stat(u16 status)
{
	u16 sc = status & RBLK_SC_MASK;

	/* Host-side failures of the path count as path errors. */
	if (sc == NVME_SC_HOST_ABORTED_CMD || sc == NVME_SC_HOST_PATH_ERROR)
		return RBLK_STAT_STATUS_PATH;
	switch (RBLK_STATUS_SCT(status)) {
	case RBLK_SCT_CMD_SPECIFIC:
		return RBLK_STAT_STATUS_CMD;
	case RBLK_SCT_MEDIA:
		return RBLK_STAT_STATUS_MEDIA;
	case RBLK_SCT_PATH:
		return RBLK_STAT_STATUS_PATH;
	case RBLK_SCT_VENDOR:
		return RBLK_STAT_STATUS_VENDOR;
	default:
		return RBLK_STAT_STATUS_GENERIC;
	}
}

/**
 * rblk_iostats_init() - allocate zeroed counters
 * @st: counters to set up
 *
 * Return: 0 or -ENOMEM.
 */
int rblk_iostats_init(struct rblk_iostats *st)
{
	memset(&st->base, 0, sizeof(st->base));
	st->cpu = alloc_percpu(struct rblk_stats);
	return st->cpu ? 0 : -ENOMEM;
}

/**
 * rblk_iostats_exit() - free what rblk_iostats_init() allocated
 * @st: counters, unused from now on
 */
void rblk_iostats_exit(struct rblk_iostats *st)
{
	free_percpu(st->cpu);
	st->cpu = NULL;
}

/**
 * rblk_iostats_error() - count one block request that ends with an error
 * @st: counters of the request's namespace
 * @status: its NVMe status, nonzero: one error by status class
 */
void rblk_iostats_error(struct rblk_iostats *st, u16 status)
{
	this_cpu_inc(st->cpu->v[rblk_error_stat(status)]);
}

/**
 * rblk_iostats_timeout() - count a timed-out request of the namespace
 * @st: counters
 */
void rblk_iostats_timeout(struct rblk_iostats *st)
{
	this_cpu_inc(st->cpu->v[RBLK_STAT_TIMEOUTS]);
}

static void rblk_iostats_sum(struct rblk_iostats *st, struct rblk_stats *s)
{
	int cpu, i;

	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu) {
		struct rblk_stats *c = per_cpu_ptr(st->cpu, cpu);

		for (i = 0; i < __RBLK_STAT_MAX; i++)
			s->v[i] += READ_ONCE(c->v[i]);
		for (i = 0; i < RBLK_LAT_BUCKETS; i++)
			s->lat_hist[i] += READ_ONCE(c->lat_hist[i]);
	}
}

/**
 * rblk_iostats_read() - counters since creation or the last reset
 * @st: counters
 * @s: filled in; %RBLK_STAT_ERRORS is the sum of the status classes
 */
void rblk_iostats_read(struct rblk_iostats *st, struct rblk_stats *s)
{
	int i;

	/* Under the lock: a reset between sum and subtraction would wrap. */
	spin_lock(&rblk_stats_base_lock);
	rblk_iostats_sum(st, s);
	for (i = 0; i < __RBLK_STAT_MAX; i++)
		s->v[i] -= st->base.v[i];
	for (i = 0; i < RBLK_LAT_BUCKETS; i++)
		s->lat_hist[i] -= st->base.lat_hist[i];
	spin_unlock(&rblk_stats_base_lock);
	s->v[RBLK_STAT_ERRORS] = rblk_stats_errors(s);
}

/**
 * rblk_iostats_reset() - count from zero
 * @st: counters
 */
void rblk_iostats_reset(struct rblk_iostats *st)
{
	struct rblk_stats now;

	spin_lock(&rblk_stats_base_lock);
	rblk_iostats_sum(st, &now);
	st->base = now;
	spin_unlock(&rblk_stats_base_lock);
}

/**
 * rblk_stats_add() - add one snapshot to another
 * @sum: accumulator
 * @s: snapshot
 */
void rblk_stats_add(struct rblk_stats *sum, const struct rblk_stats *s)
{
	int i;

	for (i = 0; i < __RBLK_STAT_MAX; i++)
		sum->v[i] += s->v[i];
	for (i = 0; i < RBLK_LAT_BUCKETS; i++)
		sum->lat_hist[i] += s->lat_hist[i];
}

/**
 * rblk_stats_errors() - failed requests of a snapshot
 * @s: snapshot
 *
 * Return: the sum of the per status class counters.
 */
u64 rblk_stats_errors(const struct rblk_stats *s)
{
	return s->v[RBLK_STAT_STATUS_GENERIC] + s->v[RBLK_STAT_STATUS_CMD] +
	       s->v[RBLK_STAT_STATUS_MEDIA] + s->v[RBLK_STAT_STATUS_PATH] +
	       s->v[RBLK_STAT_STATUS_VENDOR];
}
