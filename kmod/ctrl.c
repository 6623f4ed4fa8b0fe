// SPDX-License-Identifier: GPL-2.0
/*
 * rblk controller: the state machine, bring-up of the admin and I/O
 * queues, error recovery and reconnect, and teardown.
 *
 * Ownership: err_work tears the queues down, reconnect_work builds them
 * again; both are cancelled by rblk_ctrl_stop() before it releases
 * anything, so at most one of the three touches the queues at a time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "rblk.h"

static const char * const rblk_state_names[] = {
	[RBLK_STATE_NEW]	= "new",
	[RBLK_STATE_CONNECTING]	= "connecting",
	[RBLK_STATE_LIVE]	= "live",
	[RBLK_STATE_RESETTING]	= "resetting",
	[RBLK_STATE_DELETING]	= "deleting",
	[RBLK_STATE_DEAD]	= "dead",
};

/**
 * rblk_state_name() - name of a controller state, as sysfs shows it
 * @state: state
 *
 * Return: a static string.
 */
const char *rblk_state_name(enum rblk_state state)
{
	if (state < ARRAY_SIZE(rblk_state_names) && rblk_state_names[state])
		return rblk_state_names[state];
	return "unknown";
}

/**
 * rblk_ctrl_state() - current state
 * @ctrl: controller
 *
 * Return: the state; it may change right after.
 */
enum rblk_state rblk_ctrl_state(struct rblk_ctrl *ctrl)
{
	return READ_ONCE(ctrl->state);
}

/**
 * rblk_change_state() - move to a new state if the transition is allowed
 * @ctrl: controller
 * @new: wanted state
 *
 * Every transition goes through here; callers act only if it succeeded,
 * which is how concurrent recovery, reconnect and delete agree on who
 * does what.
 *
 * Return: true if the state is now @new.
 */
bool rblk_change_state(struct rblk_ctrl *ctrl, enum rblk_state new)
{
	enum rblk_state old;
	unsigned long flags;
	bool ok = false;

	spin_lock_irqsave(&ctrl->lock, flags);
	old = ctrl->state;
	switch (new) {
	case RBLK_STATE_CONNECTING:
		ok = old == RBLK_STATE_NEW || old == RBLK_STATE_RESETTING;
		break;
	case RBLK_STATE_LIVE:
		ok = old == RBLK_STATE_CONNECTING;
		break;
	case RBLK_STATE_RESETTING:
		ok = old == RBLK_STATE_LIVE;
		break;
	case RBLK_STATE_DEAD:
		ok = old == RBLK_STATE_CONNECTING;
		break;
	case RBLK_STATE_DELETING:
		ok = old != RBLK_STATE_DELETING;
		break;
	default:
		break;
	}
	if (ok)
		WRITE_ONCE(ctrl->state, new);
	spin_unlock_irqrestore(&ctrl->lock, flags);

	if (ok && ctrl->index >= 0) {
		rblk_dbg(ctrl, "state %s -> %s\n", rblk_state_name(old),
			 rblk_state_name(new));
		rblk_nl_notify(ctrl, RBLK_EVENT_STATE);
	}
	return ok;
}

/**
 * rblk_ctrl_holds_io() - whether block I/O waits for the controller
 * @ctrl: controller
 *
 * Return: true while I/O is to be requeued rather than failed.
 */
bool rblk_ctrl_holds_io(struct rblk_ctrl *ctrl)
{
	enum rblk_state state = rblk_ctrl_state(ctrl);

	if (test_bit(RBLK_CTRL_FAILFAST, &ctrl->flags))
		return false;
	return state == RBLK_STATE_LIVE || state == RBLK_STATE_RESETTING ||
	       state == RBLK_STATE_CONNECTING;
}

/* LIVE -> RESETTING and hand over to err_work; false if not live. */
static bool rblk_begin_reset(struct rblk_ctrl *ctrl)
{
	if (!rblk_change_state(ctrl, RBLK_STATE_RESETTING))
		return false;
	queue_work(rblk_wq, &ctrl->err_work);
	return true;
}

/**
 * rblk_error_recovery() - start recovery of a live controller
 * @ctrl: controller
 *
 * Callable from any context; only the first caller after a failure does
 * anything.
 */
void rblk_error_recovery(struct rblk_ctrl *ctrl)
{
	if (rblk_begin_reset(ctrl))
		rblk_warn(ctrl, "starting error recovery\n");
}

/**
 * rblk_ctrl_reset() - drop the association and reconnect, holding I/O
 * @ctrl: controller
 *
 * The same path as error recovery, asked for by the user (nvme-cli's
 * reset).
 *
 * Return: 0, or -EBUSY if the controller is not live.
 */
int rblk_ctrl_reset(struct rblk_ctrl *ctrl)
{
	if (!rblk_begin_reset(ctrl))
		return -EBUSY;
	rblk_info(ctrl, "resetting the controller\n");
	return 0;
}

static void rblk_quiesce_io(struct rblk_ctrl *ctrl)
{
	if (ctrl->disk && !test_and_set_bit(RBLK_CTRL_IO_QUIESCED, &ctrl->flags))
		blk_mq_quiesce_queue(ctrl->disk->queue);
}

static void rblk_unquiesce_io(struct rblk_ctrl *ctrl)
{
	if (!ctrl->disk)
		return;
	if (test_and_clear_bit(RBLK_CTRL_IO_QUIESCED, &ctrl->flags))
		blk_mq_unquiesce_queue(ctrl->disk->queue);
	blk_mq_kick_requeue_list(ctrl->disk->queue);
}

static void rblk_teardown_admin_queue(struct rblk_ctrl *ctrl, bool remove)
{
	if (!ctrl->admin_q)
		return;
	blk_mq_quiesce_queue(ctrl->admin_q);
	/* A timeout handler still running could complete what we cancel. */
	blk_sync_queue(ctrl->admin_q);
	rblk_queue_stop(&ctrl->queues[0]);
	rblk_cancel_requests(&ctrl->admin_set);
	rblk_queue_free(&ctrl->queues[0]);
	/* New admin commands now fail fast instead of waiting. */
	blk_mq_unquiesce_queue(ctrl->admin_q);
	if (remove)
		rblk_free_admin_tagset(ctrl);
}

static void rblk_teardown_io_queues(struct rblk_ctrl *ctrl)
{
	u32 i;

	if (!ctrl->connect_q)
		return;
	rblk_quiesce_io(ctrl);
	blk_mq_quiesce_queue(ctrl->connect_q);
	/* A timeout handler still running could complete what we cancel. */
	if (ctrl->disk)
		blk_sync_queue(ctrl->disk->queue);
	blk_sync_queue(ctrl->connect_q);
	for (i = 1; i <= ctrl->nr_io_queues; i++)
		rblk_queue_stop(&ctrl->queues[i]);
	rblk_cancel_requests(&ctrl->tag_set);
	for (i = 1; i <= ctrl->nr_io_queues; i++)
		rblk_queue_free(&ctrl->queues[i]);
	blk_mq_unquiesce_queue(ctrl->connect_q);
}

static const char *rblk_cm_errmsg(int err)
{
	switch (err) {
	case -EHOSTUNREACH:
		return "cannot resolve the target address";
	case -ENETUNREACH:
		return "no route to the target";
	case -ECONNREFUSED:
		return "target rejected the RDMA connection";
	case -ETIMEDOUT:
		return "timed out connecting to the target";
	case -EINTR:
		return "interrupted";
	case -EINVAL:
		return "invalid transport address or service id";
	default:
		return "RDMA connection failed";
	}
}

static int rblk_configure_admin_queue(struct rblk_ctrl *ctrl, bool new,
				      const char **errmsg)
{
	int ret;

	ret = rblk_queue_alloc(ctrl, 0, RBLK_AQ_DEPTH);
	if (ret) {
		*errmsg = rblk_cm_errmsg(ret);
		return ret;
	}

	if (new) {
		ctrl->max_segments =
			rblk_device_max_segments(ctrl->queues[0].device);
		ctrl->max_hw_sectors = UINT_MAX;
		ret = rblk_alloc_admin_tagset(ctrl);
		if (ret) {
			*errmsg = "out of memory";
			goto out_free_queue;
		}
	}

	ctrl->queues[0].tags = ctrl->admin_set.tags[0];
	ret = rblk_fabrics_connect(ctrl, 0, errmsg);
	if (ret)
		goto out_teardown;
	set_bit(RBLK_Q_LIVE, &ctrl->queues[0].flags);

	ret = rblk_enable_ctrl(ctrl);
	if (ret) {
		*errmsg = "controller did not become ready";
		goto out_teardown;
	}
	ret = rblk_identify_ctrl(ctrl);
	if (ret) {
		*errmsg = "Identify Controller failed";
		goto out_teardown;
	}
	if (new)
		blk_queue_max_hw_sectors(ctrl->admin_q,
			min_t(u32, ctrl->max_hw_sectors,
			      (ctrl->max_segments - 1) <<
			      (PAGE_SHIFT - SECTOR_SHIFT)));
	return 0;

out_teardown:
	rblk_teardown_admin_queue(ctrl, new);
	return ret;
out_free_queue:
	rblk_queue_free(&ctrl->queues[0]);
	return ret;
}

/* Connect I/O queues @first to @last; the caller tears down on failure. */
static int rblk_start_io_queues(struct rblk_ctrl *ctrl, u32 first, u32 last,
				const char **errmsg)
{
	u32 i;
	int ret;

	for (i = first; i <= last; i++) {
		ret = rblk_queue_alloc(ctrl, i, ctrl->opts.queue_size);
		if (ret) {
			*errmsg = rblk_cm_errmsg(ret);
			return ret;
		}
		/* Stable from here: an update reallocates only the array. */
		ctrl->queues[i].tags = ctrl->tag_set.tags[i - 1];
		ret = rblk_fabrics_connect(ctrl, i, errmsg);
		if (ret)
			return ret;
		set_bit(RBLK_Q_LIVE, &ctrl->queues[i].flags);
	}
	return 0;
}

/*
 * The target granted another number of I/O queues on reconnect.  blk-mq
 * changes the number of hardware queues only with every request gone, so
 * with the disk queue frozen (new I/O waits) let the held requests drain
 * through the queues connected so far; requests held for queues beyond
 * @nr are resubmitted as bios (rblk_resubmit_rq()) and wait for the new
 * mapping.
 */
static int rblk_change_nr_io_queues(struct rblk_ctrl *ctrl, u32 nr,
				    const char **errmsg)
{
	struct request_queue *q = ctrl->disk ? ctrl->disk->queue : NULL;
	u32 old = ctrl->nr_io_queues;
	int ret = 0;
	u32 i;

	rblk_info(ctrl, "target granted %u I/O queues, had %u\n", nr, old);
	if (q) {
		/* Counted under resubmit_lock once a queue is retired. */
		ctrl->nr_resubmitted = 0;
		ctrl->nr_forwarded = 0;
		for (i = nr + 1; i <= old; i++)
			set_bit(RBLK_Q_RETIRED, &ctrl->queues[i].flags);
		blk_freeze_queue_start(q);
		rblk_unquiesce_io(ctrl);
		if (!blk_mq_freeze_queue_wait_timeout(q, rblk_io_timeout * HZ)) {
			*errmsg = "held I/O did not drain to change the queue count";
			ret = -ETIMEDOUT;
		}
		/*
		 * Quiesced again (LIVE or the teardown undoes it): no dispatch
		 * may still run on a hardware queue the update removes.
		 */
		if (!ret)
			rblk_quiesce_io(ctrl);
		for (i = nr + 1; i <= old; i++)
			clear_bit(RBLK_Q_RETIRED, &ctrl->queues[i].flags);
		if (READ_ONCE(ctrl->nr_resubmitted))
			rblk_info(ctrl, "resubmitted %u held requests (%u flushes) of retired queues\n",
				  READ_ONCE(ctrl->nr_resubmitted),
				  READ_ONCE(ctrl->nr_forwarded));
	}
	if (!ret) {
		mutex_lock(&ctrl->hw_queues_lock);
		blk_mq_update_nr_hw_queues(&ctrl->tag_set, nr);
		/* Out of memory, blk-mq keeps the old count. */
		ctrl->nr_io_queues = ctrl->tag_set.nr_hw_queues;
		mutex_unlock(&ctrl->hw_queues_lock);
		if (ctrl->nr_io_queues != nr) {
			*errmsg = "out of memory changing the queue count";
			ret = -ENOMEM;
		}
	}
	if (q)
		blk_mq_unfreeze_queue(q);
	return ret;
}

static int rblk_configure_io_queues(struct rblk_ctrl *ctrl, bool new,
				    const char **errmsg)
{
	/* blk-mq maps at most one hardware queue per CPU. */
	u32 nr = min(ctrl->opts.nr_io_queues, num_online_cpus());
	u32 nr_now;
	int ret;

	if (new && nr < ctrl->opts.nr_io_queues)
		rblk_info(ctrl, "%u I/O queues asked for, using one per CPU (%u)\n",
			  ctrl->opts.nr_io_queues, nr);

	ret = rblk_set_queue_count(ctrl, &nr);
	if (ret) {
		*errmsg = "Set Features (Number of Queues) failed";
		return ret;
	}
	if (!nr) {
		*errmsg = "target granted no I/O queues";
		return -ENOSPC;
	}

	if (new) {
		u32 mqes = NVME_CAP_MQES(ctrl->cap) + 1;

		if (ctrl->opts.queue_size > mqes) {
			rblk_warn(ctrl, "queue_size %u capped to the target's %u\n",
				  ctrl->opts.queue_size, mqes);
			ctrl->opts.queue_size = mqes;
		}
		ctrl->nr_io_queues = nr;
		ret = rblk_alloc_io_tagset(ctrl);
		if (ret) {
			*errmsg = "out of memory";
			return ret;
		}
	}

	/* The queues the tag set has hardware queues for already. */
	nr_now = min(nr, ctrl->nr_io_queues);
	ret = rblk_start_io_queues(ctrl, 1, nr_now, errmsg);
	if (ret)
		goto out_teardown;
	if (nr != ctrl->nr_io_queues) {
		ret = rblk_change_nr_io_queues(ctrl, nr, errmsg);
		if (ret)
			goto out_teardown;
		ret = rblk_start_io_queues(ctrl, nr_now + 1, nr, errmsg);
		if (ret)
			goto out_teardown;
	}
	return 0;

out_teardown:
	rblk_teardown_io_queues(ctrl);
	if (new)
		rblk_free_io_tagset(ctrl);
	return ret;
}

static int rblk_setup_ctrl(struct rblk_ctrl *ctrl, bool new,
			   const char **errmsg)
{
	int ret;

	ret = rblk_configure_admin_queue(ctrl, new, errmsg);
	if (ret)
		return ret;
	if (ctrl->opts.discovery)
		return 0;

	ret = rblk_identify_ns(ctrl);
	if (ret) {
		*errmsg = ret == -ENODEV ? "namespace not found on the target" :
					   "Identify Namespace failed";
		goto out_teardown_admin;
	}
	ret = rblk_configure_io_queues(ctrl, new, errmsg);
	if (ret)
		goto out_teardown_admin;
	if (!new)
		rblk_update_disk(ctrl);
	return 0;

out_teardown_admin:
	rblk_teardown_admin_queue(ctrl, new);
	return ret;
}

static void rblk_failfast_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(to_delayed_work(work),
					      struct rblk_ctrl, failfast_work);

	if (rblk_ctrl_state(ctrl) != RBLK_STATE_CONNECTING)
		return;
	rblk_info(ctrl, "fast_io_fail_tmo expired, failing I/O\n");
	set_bit(RBLK_CTRL_FAILFAST, &ctrl->flags);
	rblk_unquiesce_io(ctrl);
}

static void rblk_give_up(struct rblk_ctrl *ctrl)
{
	if (!rblk_change_state(ctrl, RBLK_STATE_DEAD))
		return;
	rblk_err(ctrl, "ctrl_loss_tmo expired, failing all I/O until disconnect\n");
	set_bit(RBLK_CTRL_FAILFAST, &ctrl->flags);
	rblk_unquiesce_io(ctrl);
}

static void rblk_reconnect_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(to_delayed_work(work),
					      struct rblk_ctrl, reconnect_work);
	const char *errmsg = NULL;
	int ret;

	if (rblk_ctrl_state(ctrl) != RBLK_STATE_CONNECTING)
		return;

	atomic64_inc(&ctrl->reconnect_attempts);
	rblk_nl_notify(ctrl, RBLK_EVENT_RECONNECTING);

	ret = rblk_setup_ctrl(ctrl, false, &errmsg);
	if (!ret) {
		/* Lost against a delete: it tears down what we built. */
		if (!rblk_change_state(ctrl, RBLK_STATE_LIVE))
			return;
		cancel_delayed_work(&ctrl->failfast_work);
		clear_bit(RBLK_CTRL_FAILFAST, &ctrl->flags);
		atomic64_inc(&ctrl->reconnects);
		rblk_info(ctrl, "reconnected, %u I/O queues\n",
			  ctrl->nr_io_queues);
		rblk_unquiesce_io(ctrl);
		rblk_start_keep_alive(ctrl);
		return;
	}

	rblk_warn(ctrl, "reconnect failed: %d (%s)\n", ret,
		  errmsg ?: "unknown");
	if (ctrl->opts.ctrl_loss_tmo >= 0 &&
	    time_after(jiffies + ctrl->opts.reconnect_delay * HZ,
		       ctrl->loss_deadline)) {
		rblk_give_up(ctrl);
		return;
	}
	queue_delayed_work(rblk_wq, &ctrl->reconnect_work,
			   ctrl->opts.reconnect_delay * HZ);
}

static void rblk_err_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl, err_work);

	rblk_stop_keep_alive(ctrl);
	rblk_teardown_io_queues(ctrl);
	rblk_teardown_admin_queue(ctrl, false);

	if (!rblk_change_state(ctrl, RBLK_STATE_CONNECTING))
		return;	/* deleting */

	ctrl->loss_deadline = jiffies + ctrl->opts.ctrl_loss_tmo * HZ;
	if (ctrl->opts.fast_io_fail_tmo >= 0)
		queue_delayed_work(rblk_wq, &ctrl->failfast_work,
				   ctrl->opts.fast_io_fail_tmo * HZ);
	rblk_info(ctrl, "reconnecting in %u seconds\n",
		  ctrl->opts.reconnect_delay);
	queue_delayed_work(rblk_wq, &ctrl->reconnect_work,
			   ctrl->opts.reconnect_delay * HZ);
}

/**
 * rblk_ctrl_alloc() - allocate a controller in the NEW state
 * @opts: options, copied
 *
 * Return: the controller with one reference, or NULL.
 */
struct rblk_ctrl *rblk_ctrl_alloc(const struct rblk_ctrl_opts *opts)
{
	struct rblk_ctrl *ctrl;
	u32 i;

	ctrl = kzalloc(sizeof(*ctrl), GFP_KERNEL);
	if (!ctrl)
		return NULL;
	ctrl->opts = *opts;
	ctrl->queues = kcalloc(opts->nr_io_queues + 1, sizeof(*ctrl->queues),
			       GFP_KERNEL);
	if (!ctrl->queues)
		goto out_free;
	for (i = 0; i <= opts->nr_io_queues; i++)
		mutex_init(&ctrl->queues[i].stop_lock);
	mutex_init(&ctrl->hw_queues_lock);
	spin_lock_init(&ctrl->resubmit_lock);
	bio_list_init(&ctrl->resubmit_bios);
	INIT_LIST_HEAD(&ctrl->resubmit_flushes);
	INIT_WORK(&ctrl->resubmit_work, rblk_resubmit_work);
	INIT_WORK(&ctrl->forward_work, rblk_forward_work);
	ctrl->stats = alloc_percpu(struct rblk_stats_cpu);
	if (!ctrl->stats)
		goto out_free_queues;

	kref_init(&ctrl->ref);
	INIT_LIST_HEAD(&ctrl->entry);
	spin_lock_init(&ctrl->lock);
	ctrl->state = RBLK_STATE_NEW;
	ctrl->index = -1;
	strscpy(ctrl->name, opts->discovery ? "rblk-discovery" : "rblk",
		sizeof(ctrl->name));
	INIT_WORK(&ctrl->err_work, rblk_err_work);
	INIT_DELAYED_WORK(&ctrl->reconnect_work, rblk_reconnect_work);
	INIT_DELAYED_WORK(&ctrl->failfast_work, rblk_failfast_work);
	rblk_keep_alive_init(ctrl);
	return ctrl;

out_free_queues:
	kfree(ctrl->queues);
out_free:
	kfree(ctrl);
	return NULL;
}

/**
 * rblk_ctrl_free() - free a controller that rblk_ctrl_stop() tore down
 * @ctrl: controller
 */
void rblk_ctrl_free(struct rblk_ctrl *ctrl)
{
	u32 i;

	for (i = 0; i <= ctrl->opts.nr_io_queues; i++)
		mutex_destroy(&ctrl->queues[i].stop_lock);
	mutex_destroy(&ctrl->hw_queues_lock);
	free_percpu(ctrl->stats);
	kfree(ctrl->queues);
	kfree(ctrl);
}

/**
 * rblk_ctrl_start() - first connect of a new controller
 * @ctrl: controller in the NEW state
 * @errmsg: set to a static reason on failure
 *
 * Return: 0 with the controller LIVE, or a negative errno with nothing
 * left allocated but the tag sets rblk_ctrl_stop() releases.
 */
int rblk_ctrl_start(struct rblk_ctrl *ctrl, const char **errmsg)
{
	int ret;

	if (!rblk_change_state(ctrl, RBLK_STATE_CONNECTING))
		return -EBUSY;

	ret = rblk_setup_ctrl(ctrl, true, errmsg);
	if (ret)
		return ret;

	if (!rblk_change_state(ctrl, RBLK_STATE_LIVE))
		return -EINTR;
	rblk_start_keep_alive(ctrl);
	rblk_info(ctrl, "connected to %s at %s:%s, cntlid %u, %u I/O queues of %u\n",
		  ctrl->opts.subsysnqn, ctrl->opts.traddr, ctrl->opts.trsvcid,
		  ctrl->cntlid, ctrl->nr_io_queues, ctrl->opts.queue_size);
	return 0;
}

/**
 * rblk_ctrl_stop() - tear down a controller in the DELETING state
 * @ctrl: controller
 *
 * In-flight I/O completes if the queues are live and fails otherwise; the
 * disk is removed and the controller shut down if it still answers.
 */
void rblk_ctrl_stop(struct rblk_ctrl *ctrl)
{
	u32 i;
	bool live = ctrl->nr_io_queues || ctrl->opts.discovery;

	cancel_work_sync(&ctrl->err_work);
	cancel_delayed_work_sync(&ctrl->reconnect_work);
	cancel_delayed_work_sync(&ctrl->failfast_work);
	rblk_stop_keep_alive(ctrl);

	for (i = 1; i <= ctrl->nr_io_queues; i++)
		live &= test_bit(RBLK_Q_LIVE, &ctrl->queues[i].flags);
	/* Nothing will serve held I/O: let it fail. */
	if (!live)
		set_bit(RBLK_CTRL_FAILFAST, &ctrl->flags);
	/*
	 * Also when live: a reconnect that lost the race to LIVE against
	 * this delete leaves the disk queue quiesced.
	 */
	rblk_unquiesce_io(ctrl);
	/* What a queue-count change moved goes back in before the disk drains. */
	flush_work(&ctrl->forward_work);
	flush_work(&ctrl->resubmit_work);

	rblk_del_disk(ctrl);
	rblk_teardown_io_queues(ctrl);
	if (test_bit(RBLK_Q_LIVE, &ctrl->queues[0].flags))
		rblk_shutdown_ctrl(ctrl);
	rblk_free_io_tagset(ctrl);
	rblk_teardown_admin_queue(ctrl, true);
}
