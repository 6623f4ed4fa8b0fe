// SPDX-License-Identifier: GPL-2.0
/*
 * rblk controller: the state machine, bring-up of the admin and I/O
 * queues, error recovery and reconnect, keep-alive, the Asynchronous Event
 * Request, and teardown.
 *
 * Ownership: err_work tears the queues down, reconnect_work builds them
 * again; both are cancelled by rblk_ctrl_stop_recovery() before anything
 * is released, so at most one of the three touches the queues at a time.
 * The namespaces on the controller belong to the layer above (ns.c); this
 * file only quiesces, drains and fails their queues, and asks the layer
 * above (&rblk_ctrl_ops) to check them after every reconnect.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/slab.h>

#include "rblk.h"
#include "auth.h"
#include "trace.h"

/**
 * rblk_state_name() - name of a controller state, as sysfs shows it
 * @state: state
 *
 * Return: a static string.
 */
const char *rblk_state_name(enum rblk_state state)
{
	static const char * const names[__RBLK_STATE_MAX] = RBLK_STATE_NAMES;

	if (state < ARRAY_SIZE(names) && names[state])
		return names[state];
	return "unknown";
}

/* News for multipath heads: see &rblk_ctrl_ops.paths_changed. */
static void rblk_paths_changed(struct rblk_ctrl *ctrl)
{
	if (ctrl->ops->paths_changed)
		ctrl->ops->paths_changed(ctrl);
}

/**
 * rblk_change_state() - move to a new state if the transition is allowed
 * @ctrl: controller
 * @new: wanted state
 *
 * Every transition goes through here; callers act only if it succeeded,
 * which is how concurrent recovery, reconnect and delete agree on who
 * does what.  Becoming live also ends a fast_io_fail_tmo expiry, in the
 * same critical section that rblk_failfast_work() tests the state in, and
 * is refused while %RBLK_CTRL_SETUP_ERROR is set (the state then stays
 * CONNECTING).
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
		/* Not on queues one of which broke during the setup. */
		ok = old == RBLK_STATE_CONNECTING &&
		     !test_bit(RBLK_CTRL_SETUP_ERROR, &ctrl->flags);
		if (ok) {
			clear_bit(RBLK_CTRL_FAILFAST, &ctrl->flags);
			/*
			 * Under the lock: a reset right after this arms a new
			 * timer only once it has moved the state on, so this
			 * cancel never takes the next outage's timer, and a
			 * running one sees LIVE and does nothing.
			 */
			cancel_delayed_work(&ctrl->failfast_work);
		}
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
	if (ok) {
		WRITE_ONCE(ctrl->state, new);
		/* Under the lock: the trace shows transitions in their order. */
		trace_rblk_ctrl_state(ctrl, old, new);
	}
	spin_unlock_irqrestore(&ctrl->lock, flags);

	if (ok) {
		rblk_dbg(ctrl, "state %s -> %s\n", rblk_state_name(old),
			 rblk_state_name(new));
		rblk_notify(ctrl, NULL, RBLK_EVENT_STATE);
		/*
		 * Going live tells once the queues run again
		 * (rblk_ctrl_went_live()): a head kicked before that sends
		 * I/O to a quiesced queue, which 6.1's blk-mq may not run
		 * again when unquiesced at the same moment.
		 */
		if (new != RBLK_STATE_LIVE)
			rblk_paths_changed(ctrl);
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
	/*
	 * DELETING too, until rblk_ctrl_stop_recovery() has decided whether
	 * the association still serves the disks' write-back: a user's
	 * reset cleared IO_READY, and a delete that cancels its work before
	 * it ran sets it again.  Bounded: every path into DELETING ends in
	 * rblk_ctrl_stop_recovery(), which sets FAILFAST.  (nvme-core
	 * flushes the reset instead, and fails not-ready I/O in DELETING.)
	 */
	return state == RBLK_STATE_LIVE || state == RBLK_STATE_RESETTING ||
	       state == RBLK_STATE_CONNECTING || state == RBLK_STATE_DELETING;
}

/*
 * LIVE -> RESETTING and hand over to err_work; false if not live.  @user:
 * asked for (by the user, or the ANATT timer) on an association that may
 * well be healthy; @fault: the hold_reset fault applies (a user's reset).
 */
static bool rblk_begin_reset(struct rblk_ctrl *ctrl, bool user, bool fault)
{
	if (!rblk_change_state(ctrl, RBLK_STATE_RESETTING))
		return false;
	if (user)
		set_bit(RBLK_CTRL_USER_RESET, &ctrl->flags);
	/* Until the namespaces are checked again after the reconnect. */
	clear_bit(RBLK_CTRL_IO_READY, &ctrl->flags);
	if (fault && rblk_fault_hold_reset()) {
		rblk_info(ctrl, "fault injected: the reset's work is not queued\n");
		return true;
	}
	queue_work(rblk_wq, &ctrl->err_work);
	return true;
}

/**
 * rblk_error_recovery() - start recovery of a live controller
 * @ctrl: controller
 *
 * Callable from any context; only the first caller after a failure does
 * anything.  A controller that is still connecting gets no recovery: its
 * setup fails on the broken queue and is retried.
 */
void rblk_error_recovery(struct rblk_ctrl *ctrl)
{
	/* Also when a user's reset is pending: the association is broken. */
	clear_bit(RBLK_CTRL_USER_RESET, &ctrl->flags);
	if (rblk_begin_reset(ctrl, false, false)) {
		trace_rblk_error_recovery(ctrl);
		rblk_warn(ctrl, "starting error recovery\n");
	}
}

/**
 * rblk_ctrl_reauth() - reconnect, because the target asks the host to
 *	authenticate again (a command completed with status 191h, no DNR)
 * @ctrl: controller
 *
 * The reconnect authenticates every queue (Documentation/auth.rst:
 * Re-authentication), at once, as a user's reset: the association is
 * healthy.  Callable from any context; only the first caller of a live
 * controller starts it.
 *
 * Return: true if the command may wait for that reconnect (one began, or
 * one is under way); false if it should fail: the controller holds no
 * host key (it could not authenticate), it is not coming back (deleting,
 * dead), or the target asked %RBLK_MAX_REAUTHS times within
 * %RBLK_REAUTH_WINDOW.
 */
bool rblk_ctrl_reauth(struct rblk_ctrl *ctrl)
{
	enum rblk_state state = rblk_ctrl_state(ctrl);
	unsigned long flags;
	bool allowed, say;

	if (!ctrl->opts.host_key)
		return false;
	if (state == RBLK_STATE_RESETTING || state == RBLK_STATE_CONNECTING)
		return true;
	if (state != RBLK_STATE_LIVE)
		return false;

	spin_lock_irqsave(&ctrl->lock, flags);
	allowed = rblk_reauth_window(&ctrl->reauth_at, &ctrl->reauths,
				     get_jiffies_64());
	if (allowed)
		ctrl->reauth_refused = false;
	/* Once a window: every refused command gets its own error line. */
	say = !allowed && !ctrl->reauth_refused;
	if (say)
		ctrl->reauth_refused = true;
	spin_unlock_irqrestore(&ctrl->lock, flags);
	if (say)
		rblk_warn(ctrl, "target asked for authentication again %d times within %d s: failing its commands\n",
			  RBLK_MAX_REAUTHS, RBLK_REAUTH_WINDOW / HZ);
	if (!allowed)
		return false;

	if (rblk_begin_reset(ctrl, true, false)) {
		spin_lock_irqsave(&ctrl->lock, flags);
		ctrl->reauths++;
		spin_unlock_irqrestore(&ctrl->lock, flags);
		rblk_info(ctrl, "target asks for authentication again: reconnecting\n");
	}
	return true;
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
	if (!rblk_begin_reset(ctrl, true, true))
		return -EBUSY;
	rblk_info(ctrl, "resetting the controller\n");
	return 0;
}

/*
 * A group still in change state twice ANATT after the log said so: the
 * controller is stuck, reset it (nvme_anatt_timeout()).  The reconnect
 * reads the log again.
 */
static void rblk_anatt_timeout(struct timer_list *t)
{
	struct rblk_ctrl *ctrl = timer_container_of(ctrl, t, anatt_timer);
	enum rblk_state state;

	if (rblk_begin_reset(ctrl, true, false)) {
		rblk_info(ctrl, "ANATT timeout, resetting controller.\n");
		return;
	}
	/*
	 * Still connecting (a slow attempt that read the log early), or
	 * already resetting: look again, so that the group is not left
	 * unwatched once live.  A reset or delete stops the timer.
	 */
	state = rblk_ctrl_state(ctrl);
	if (state == RBLK_STATE_CONNECTING || state == RBLK_STATE_RESETTING)
		mod_timer(&ctrl->anatt_timer, jiffies + HZ);
}

/*
 * The association is broken.  A connecting controller has no recovery to
 * start, but the attempt must not go live on it (an RDMA device going
 * away waits for the queues on it): the attempt fails, and is retried.
 */
static void rblk_ctrl_broken(struct rblk_ctrl *ctrl)
{
	unsigned long flags;

	spin_lock_irqsave(&ctrl->lock, flags);
	if (ctrl->state == RBLK_STATE_CONNECTING) {
		set_bit(RBLK_CTRL_SETUP_ERROR, &ctrl->flags);
		/*
		 * Its answer will not come (nvmet tears an association down
		 * right after refusing a host key, and the teardown may
		 * overtake the refusal): end it now, through the timeout
		 * handler, rather than at the admin timeout.
		 */
		if (ctrl->setup_rq)
			blk_abort_request(ctrl->setup_rq);
	}
	spin_unlock_irqrestore(&ctrl->lock, flags);
	rblk_error_recovery(ctrl);
}

static void rblk_queue_error(struct rblk_queue *queue)
{
	rblk_ctrl_broken(queue->ctrl);
}

/* A queue broke during this attempt: fail it instead of going on. */
static int rblk_setup_broken(struct rblk_ctrl *ctrl, const char **errmsg)
{
	if (!test_bit(RBLK_CTRL_SETUP_ERROR, &ctrl->flags))
		return 0;
	*errmsg = "a queue failed while connecting";
	return -ECONNRESET;
}

static void rblk_queue_async_event(struct rblk_queue *queue, u16 status,
				   u32 result)
{
	struct rblk_ctrl *ctrl = queue->ctrl;

	/*
	 * An error status: no event, and no new request (the target's abort
	 * at teardown, or a target that refuses them).
	 */
	if (status) {
		if ((status & RBLK_SC_MASK) == NVME_SC_ABORT_REQ)
			rblk_dbg(ctrl, "async event request aborted\n");
		else
			rblk_warn(ctrl, "async event request failed, status %#x: no namespace change notices\n",
				  status);
		return;
	}
	WRITE_ONCE(ctrl->aen_result, result);
	/* Here, not in the work: a reset that cancels it keeps the notice. */
	if (RBLK_AEN_TYPE(result) == NVME_AER_NOTICE &&
	    RBLK_AEN_INFO(result) == NVME_AER_NOTICE_NS_CHANGED)
		set_bit(RBLK_CTRL_NS_CHANGED, &ctrl->flags);
	queue_work(rblk_wq, &ctrl->event_work);
}

static const struct rblk_queue_ops rblk_ctrl_queue_ops = {
	.error		= rblk_queue_error,
	.async_event	= rblk_queue_async_event,
};

/* --- namespace queues --- */

/*
 * The quiesce of a namespace queue by recovery is recorded in its
 * RBLK_NS_QUIESCED bit, so that each quiesce is undone exactly once: by
 * the recovery, or by rblk_ctrl_kill_ns() for a namespace that is gone.
 * ns_lock orders the two.
 */
static void rblk_ns_quiesce_nowait(struct rblk_ctrl *ctrl,
				   struct rblk_ns *ns)
{
	spin_lock(&ctrl->ns_lock);
	if (!test_bit(RBLK_NS_DEAD, &ns->flags) &&
	    !test_and_set_bit(RBLK_NS_QUIESCED, &ns->flags))
		blk_mq_quiesce_queue_nowait(ns->queue);
	spin_unlock(&ctrl->ns_lock);
}

static void rblk_ns_unquiesce(struct rblk_ctrl *ctrl, struct rblk_ns *ns)
{
	spin_lock(&ctrl->ns_lock);
	if (test_and_clear_bit(RBLK_NS_QUIESCED, &ns->flags))
		blk_mq_unquiesce_queue(ns->queue);
	spin_unlock(&ctrl->ns_lock);
	blk_mq_kick_requeue_list(ns->queue);
}

/* Caller holds namespaces_rwsem. */
static void __rblk_quiesce_io(struct rblk_ctrl *ctrl)
{
	struct rblk_ns *ns;

	if (test_and_set_bit(RBLK_CTRL_IO_QUIESCED, &ctrl->flags))
		return;
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		rblk_ns_quiesce_nowait(ctrl, ns);
	/* One grace period covers every queue of the (non-blocking) set. */
	if (ctrl->connect_q)
		rblk_wait_quiesce_done(ctrl->connect_q);
}

static void __rblk_unquiesce_io(struct rblk_ctrl *ctrl)
{
	struct rblk_ns *ns;

	clear_bit(RBLK_CTRL_IO_QUIESCED, &ctrl->flags);
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		rblk_ns_unquiesce(ctrl, ns);
}

/*
 * Every quiesce and unquiesce of the namespace queues is under
 * quiesce_lock: a quiesce that finds them quiesced already knows that its
 * quiescer waited for the dispatches under way, and that nobody undoes it
 * before its holder lets go.
 */
static void rblk_quiesce_io_locked(struct rblk_ctrl *ctrl)
{
	lockdep_assert_held(&ctrl->quiesce_lock);
	down_read(&ctrl->namespaces_rwsem);
	__rblk_quiesce_io(ctrl);
	up_read(&ctrl->namespaces_rwsem);
}

static void rblk_quiesce_io(struct rblk_ctrl *ctrl)
{
	mutex_lock(&ctrl->quiesce_lock);
	rblk_quiesce_io_locked(ctrl);
	mutex_unlock(&ctrl->quiesce_lock);
}

static void rblk_unquiesce_io_locked(struct rblk_ctrl *ctrl)
{
	lockdep_assert_held(&ctrl->quiesce_lock);
	down_read(&ctrl->namespaces_rwsem);
	__rblk_unquiesce_io(ctrl);
	up_read(&ctrl->namespaces_rwsem);
}

static void rblk_unquiesce_io(struct rblk_ctrl *ctrl)
{
	mutex_lock(&ctrl->quiesce_lock);
	rblk_unquiesce_io_locked(ctrl);
	mutex_unlock(&ctrl->quiesce_lock);
}

/*
 * Teardown: with no dispatch running, every namespace queue on the list
 * is quiesced (a dead one is not: it fails what it is given).  A dispatch
 * beside the cancel could end a request twice (rblk_not_ready() starts a
 * request before it marks it complete).
 */
static void rblk_check_quiesced(struct rblk_ctrl *ctrl)
{
	struct rblk_ns *ns;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry) {
		/* Against rblk_ctrl_kill_ns(), which unquiesces a dead one. */
		spin_lock(&ctrl->ns_lock);
		WARN_ON_ONCE(!test_bit(RBLK_NS_DEAD, &ns->flags) &&
			     !blk_queue_quiesced(ns->queue));
		spin_unlock(&ctrl->ns_lock);
	}
	up_read(&ctrl->namespaces_rwsem);
}

/* Let running timeout handlers finish: they could complete what we cancel. */
static void rblk_sync_io(struct rblk_ctrl *ctrl)
{
	struct rblk_ns *ns;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		blk_sync_queue(ns->queue);
	up_read(&ctrl->namespaces_rwsem);
}

/**
 * rblk_ctrl_add_ns() - put a namespace on the controller's list
 * @ctrl: controller
 * @ns: namespace with its request queue, not yet on the list
 *
 * A queue that joins while recovery holds I/O is quiesced like the others.
 */
void rblk_ctrl_add_ns(struct rblk_ctrl *ctrl, struct rblk_ns *ns)
{
	struct rblk_ns *pos;
	bool quiesced;

	down_write(&ctrl->namespaces_rwsem);
	list_for_each_entry(pos, &ctrl->namespaces, entry) {
		if (pos->nsid > ns->nsid)
			break;
	}
	list_add_tail(&ns->entry, &pos->entry);
	quiesced = test_bit(RBLK_CTRL_IO_QUIESCED, &ctrl->flags);
	if (quiesced)
		rblk_ns_quiesce_nowait(ctrl, ns);
	up_write(&ctrl->namespaces_rwsem);
	if (quiesced)
		rblk_wait_quiesce_done(ns->queue);
}

/**
 * rblk_ctrl_kill_ns() - fail all I/O of a namespace from now on
 * @ctrl: controller
 * @ns: namespace that is gone or changed identity on the target
 *
 * Callable with namespaces_rwsem held.  I/O that recovery holds for it is
 * released, to fail.
 */
void rblk_ctrl_kill_ns(struct rblk_ctrl *ctrl, struct rblk_ns *ns)
{
	spin_lock(&ctrl->ns_lock);
	set_bit(RBLK_NS_DEAD, &ns->flags);
	if (test_and_clear_bit(RBLK_NS_QUIESCED, &ns->flags))
		blk_mq_unquiesce_queue(ns->queue);
	spin_unlock(&ctrl->ns_lock);
	blk_mq_kick_requeue_list(ns->queue);
	/* A head may hold I/O for this path: it is no longer available. */
	rblk_paths_changed(ctrl);
}

/**
 * rblk_ctrl_del_ns() - take a namespace off the controller's list
 * @ctrl: controller
 * @ns: namespace whose disk is deleted
 */
void rblk_ctrl_del_ns(struct rblk_ctrl *ctrl, struct rblk_ns *ns)
{
	down_write(&ctrl->namespaces_rwsem);
	list_del_init(&ns->entry);
	up_write(&ctrl->namespaces_rwsem);
}

/* --- cancellation --- */

/**
 * rblk_abort_rq() - complete an in-flight request as aborted by the host
 * @rq: request whose queue is stopped
 * @timed_out: the request itself timed out (counts as a retry)
 *
 * Block I/O is then requeued while the controller may come back, commands
 * of our own (Connect, properties, Identify, ...) fail.
 */
void rblk_abort_rq(struct request *rq, bool timed_out)
{
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	req->status = NVME_SC_HOST_ABORTED_CMD;
	if (blk_rq_is_passthrough(rq))
		req->status |= NVME_STATUS_DNR;
	req->flags |= RBLK_REQ_ABORTED;
	if (timed_out)
		req->flags |= RBLK_REQ_TIMED_OUT;
	blk_mq_complete_request(rq);
}

static bool rblk_cancel_rq(struct request *rq, void *data)
{
	if (!blk_mq_request_completed(rq))
		rblk_abort_rq(rq, false);
	return true;
}

/* Complete every in-flight request of a tag set whose queues are stopped. */
static void rblk_cancel_requests(struct blk_mq_tag_set *set)
{
	if (!set->tags)
		return;
	blk_mq_tagset_busy_iter(set, rblk_cancel_rq, NULL);
	blk_mq_tagset_wait_completed_request(set);
}

/* --- keep-alive --- */

static enum rq_end_io_ret rblk_keep_alive_end_io(RBLK_END_IO_ARGS(rq, status))
{
	struct rblk_ctrl *ctrl = rq->end_io_data;
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	u16 nvme_status = req->status;
	bool aborted = req->flags & RBLK_REQ_ABORTED;
	bool timed_out = req->flags & RBLK_REQ_TIMED_OUT;

	/* The pdu is the next request's once the tag is free. */
	blk_mq_free_request(rq);

	/* Our own teardown cancelled it: no news about the target. */
	if (aborted && !timed_out)
		return RQ_END_IO_NONE;
	if (status || nvme_status) {
		rblk_err(ctrl, "keep-alive failed (block status %d, NVMe status %#x)\n",
			 status, nvme_status);
		/* Also while connecting: keep-alive runs from the enable. */
		rblk_ctrl_broken(ctrl);
		return RQ_END_IO_NONE;
	}
	if (test_bit(RBLK_Q_LIVE, &ctrl->queues[0].flags))
		queue_delayed_work(rblk_wq, &ctrl->ka_work,
				   ctrl->opts.kato * HZ / 2);
	return RQ_END_IO_NONE;
}

static void rblk_keep_alive_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(to_delayed_work(work),
					      struct rblk_ctrl, ka_work);

	if (!test_bit(RBLK_Q_LIVE, &ctrl->queues[0].flags))
		return;
	/* Allocation failure is no sign of a dead target. */
	if (rblk_send_keep_alive(ctrl, rblk_keep_alive_end_io))
		queue_delayed_work(rblk_wq, &ctrl->ka_work, HZ);
}

/*
 * From the moment the admin queue is enabled: the target's keep-alive
 * timer runs from its Connect, however long the I/O queues take.
 */
static void rblk_start_keep_alive(struct rblk_ctrl *ctrl)
{
	if (ctrl->opts.kato)
		queue_delayed_work(rblk_wq, &ctrl->ka_work,
				   ctrl->opts.kato * HZ / 2);
}

static void rblk_stop_keep_alive(struct rblk_ctrl *ctrl)
{
	cancel_delayed_work_sync(&ctrl->ka_work);
}

/* --- asynchronous events --- */

static void rblk_aer_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl, aer_work);
	struct nvme_command cmd = {};
	int ret;

	/* teardown_admin_queue() cancels this work before the queue goes. */
	if (rblk_ctrl_state(ctrl) != RBLK_STATE_LIVE ||
	    !test_bit(RBLK_Q_LIVE, &ctrl->queues[0].flags))
		return;
	rblk_cmd_async_event(&cmd);
	/* No data, but RDMA targets want an SGL in every command. */
	rblk_sgl_null(&cmd);
	ret = rblk_queue_submit_aer(&ctrl->queues[0], &cmd);
	/* A stopped queue: recovery is already under way. */
	if (ret && ret != -ESHUTDOWN)
		rblk_error_recovery(ctrl);
}

/*
 * A persistent discovery controller's log changed, or may have: told on
 * netlink, and as nvme-core tells it, a change uevent on the
 * controller's device with @uevent (NVME_AEN=... for a notice,
 * NVME_EVENT=rediscover after a reconnect).
 */
static void rblk_disc_changed(struct rblk_ctrl *ctrl, char *uevent)
{
	char *envp[2] = { uevent };

	rblk_notify(ctrl, NULL, RBLK_EVENT_DISC_CHANGED);
	kobject_uevent_env(&ctrl->dev.kobj, KOBJ_CHANGE, envp);
}

static void rblk_disc_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl,
					      disc_work);
	char aen[24];

	/* First: a change after the listener's read is noticed. */
	if (rblk_rearm_disc_change(ctrl))
		rblk_warn(ctrl, "discovery log not read: no change is noticed until a reconnect\n");
	snprintf(aen, sizeof(aen), "NVME_AEN=%#08x",
		 NVME_AER_NOTICE << 0 | NVME_AER_NOTICE_DISC_CHANGED << 8 |
		 NVME_LOG_DISC << 16);
	rblk_disc_changed(ctrl, aen);
}

static void rblk_event_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl,
					      event_work);
	u32 result = READ_ONCE(ctrl->aen_result);

	if (RBLK_AEN_TYPE(result) == NVME_AER_NOTICE &&
	    RBLK_AEN_INFO(result) == NVME_AER_NOTICE_NS_CHANGED) {
		rblk_info(ctrl, "namespace attributes changed, rescanning\n");
		if (ctrl->ops->ns_changed)
			ctrl->ops->ns_changed(ctrl);
	} else if (RBLK_AEN_TYPE(result) == NVME_AER_NOTICE &&
		   RBLK_AEN_INFO(result) == NVME_AER_NOTICE_DISC_CHANGED &&
		   ctrl->opts.discovery) {
		rblk_info(ctrl, "discovery log changed\n");
		/* Its log read waits for the target: not here. */
		queue_work(rblk_wq, &ctrl->disc_work);
	} else if (rblk_aen_is_ana_change(result)) {
		/*
		 * Not read here: see rblk_ana_work().  A reset that cancels
		 * the work reads the log at the reconnect anyway.
		 */
		rblk_dbg(ctrl, "ANA change notice\n");
		queue_work(rblk_wq, &ctrl->ana_work);
	} else {
		/* Not enabled by rblk; its log page stays unread. */
		rblk_warn(ctrl, "asynchronous event %#010x (type %u, info %#x, log page %#x)\n",
			  result, RBLK_AEN_TYPE(result), RBLK_AEN_INFO(result),
			  RBLK_AEN_LOG(result));
	}
	queue_work(rblk_wq, &ctrl->aer_work);
}

/* --- tag sets and limits --- */

/**
 * rblk_set_ctrl_limits() - the limits every request queue of a
 *	controller shares: one memory registration must map any request
 * @ctrl: controller with its memory registration limits known
 * @l: a change of a request queue's limits
 */
void rblk_set_ctrl_limits(struct rblk_ctrl *ctrl, struct rblk_limits *l)
{
	rblk_limits_max_hw_sectors(l, rblk_ctrl_max_sectors(ctrl));
	rblk_limits_max_segments(l, ctrl->max_segments);
	rblk_limits_virt_boundary(l, SZ_4K - 1);
	rblk_limits_dma_alignment(l, 3);
}

/*
 * The controller's limits on a request queue without a disk (admin, our
 * own commands), nothing in flight.  Return: 0, or -EINVAL if the kernel
 * refuses them (6.12 validates the limits).
 */
static int rblk_set_queue_limits(struct rblk_ctrl *ctrl,
				 struct request_queue *q)
{
	struct rblk_limits l;

	rblk_limits_start(&l, q);
	rblk_set_ctrl_limits(ctrl, &l);
	return rblk_limits_commit(&l);
}

static unsigned int rblk_cmd_size(void)
{
	return sizeof(struct rblk_request) +
	       sizeof(struct scatterlist) * RBLK_INLINE_SG_CNT;
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

/*
 * A tag set and a request queue on it without a disk: the admin queue's,
 * and the one our own commands on the I/O queues go through.
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
	/* Default, read and poll maps when write or poll queues are asked for. */
	if (set == &ctrl->tag_set &&
	    (ctrl->opts.nr_poll_queues || ctrl->opts.nr_write_queues))
		set->nr_maps = HCTX_MAX_TYPES;
	set->timeout = timeout;
	ret = blk_mq_alloc_tag_set(set);
	if (ret)
		return ret;

	*q = rblk_alloc_queue(set);
	if (IS_ERR(*q)) {
		ret = PTR_ERR(*q);
		*q = NULL;
		blk_mq_free_tag_set(set);
		return ret;
	}
	ret = rblk_set_queue_limits(ctrl, *q);
	if (ret)
		rblk_free_tagset(set, q);
	return ret;
}

static int rblk_alloc_admin_tagset(struct rblk_ctrl *ctrl)
{
	return rblk_alloc_tagset(ctrl, &ctrl->admin_set,
				 ctrl->ops->admin_mq_ops, RBLK_AQ_TAGS,
				 RBLK_AQ_RESERVED, RBLK_MQ_F_NO_SCHED, 1,
				 rblk_admin_timeout * HZ, &ctrl->admin_q);
}

/*
 * One tag fewer than the queue has entries: a full SQ holds size - 1
 * commands, the reserved tag (Connect, a forwarded flush) included.
 */
static int rblk_alloc_io_tagset(struct rblk_ctrl *ctrl)
{
	int ret;

	/* sysfs walks the tag set under hw_queues_lock. */
	mutex_lock(&ctrl->hw_queues_lock);
	ret = rblk_alloc_tagset(ctrl, &ctrl->tag_set, ctrl->ops->io_mq_ops,
				ctrl->opts.queue_size - 1, RBLK_IOQ_RESERVED,
				/*
				 * No elevator unless asked for: the target
				 * orders its own I/O, and a multipath path's
				 * hidden disk gets no udev rule to say so.
				 */
				RBLK_MQ_F_SHOULD_MERGE |
				BLK_MQ_F_NO_SCHED_BY_DEFAULT,
				ctrl->nr_io_queues,
				rblk_io_timeout * HZ, &ctrl->connect_q);
	mutex_unlock(&ctrl->hw_queues_lock);
	return ret;
}

static void rblk_free_io_tagset(struct rblk_ctrl *ctrl)
{
	mutex_lock(&ctrl->hw_queues_lock);
	rblk_free_tagset(&ctrl->tag_set, &ctrl->connect_q);
	mutex_unlock(&ctrl->hw_queues_lock);
}

/* --- queue bring-up and teardown --- */

/* Stop the admin queue, its commands cancelled; the request queue stays. */
static void rblk_stop_admin_queue(struct rblk_ctrl *ctrl)
{
	if (!ctrl->admin_q)
		return;
	rblk_stop_keep_alive(ctrl);
	blk_mq_quiesce_queue(ctrl->admin_q);
	/* A timeout handler still running could complete what we cancel. */
	blk_sync_queue(ctrl->admin_q);
	rblk_queue_stop(&ctrl->queues[0]);
	/*
	 * The queue is drained: no AER completion can queue them again.  The
	 * AER's SQE slot goes away with the queue below.
	 */
	cancel_work_sync(&ctrl->event_work);
	cancel_work_sync(&ctrl->aer_work);
	rblk_cancel_requests(&ctrl->admin_set);
	/* A keep-alive that completed before the stop may have re-armed. */
	rblk_stop_keep_alive(ctrl);
	rblk_queue_free(&ctrl->queues[0]);
	/* New admin commands now fail fast instead of waiting. */
	blk_mq_unquiesce_queue(ctrl->admin_q);
	/*
	 * Only now: its Get Log Page was cancelled above or fails at once.
	 * The notice it was for is not lost: every connect reads the log.
	 */
	rblk_ana_stop(ctrl);
	cancel_work_sync(&ctrl->disc_work);
}

static void rblk_teardown_admin_queue(struct rblk_ctrl *ctrl, bool remove)
{
	rblk_stop_admin_queue(ctrl);
	if (remove)
		rblk_free_tagset(&ctrl->admin_set, &ctrl->admin_q);
}

static void rblk_teardown_io_queues(struct rblk_ctrl *ctrl)
{
	u32 i;

	if (!ctrl->connect_q)
		return;
	/*
	 * Held to the end: a reconnect that went live just before the error
	 * that brought us here must not unquiesce under the cancel.
	 */
	mutex_lock(&ctrl->quiesce_lock);
	rblk_quiesce_io_locked(ctrl);
	if (rblk_fault_pause_teardown())
		msleep(500);
	blk_mq_quiesce_queue(ctrl->connect_q);
	rblk_sync_io(ctrl);
	blk_sync_queue(ctrl->connect_q);
	for (i = 1; i <= ctrl->nr_io_queues; i++)
		rblk_queue_stop(&ctrl->queues[i]);
	rblk_check_quiesced(ctrl);
	rblk_cancel_requests(&ctrl->tag_set);
	for (i = 1; i <= ctrl->nr_io_queues; i++)
		rblk_queue_free(&ctrl->queues[i]);
	blk_mq_unquiesce_queue(ctrl->connect_q);
	mutex_unlock(&ctrl->quiesce_lock);
}

static const char *rblk_cm_errmsg(struct rblk_ctrl *ctrl, int err)
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
	case -ENODEV:
		return "the RDMA device is going away";
	case -EOPNOTSUPP:
		return "the RDMA device does not support fast memory registration";
	case -EINVAL:
		return "invalid transport address or service id";
	case -EADDRNOTAVAIL:
		/* Also what the CM says when it runs out of ports. */
		if (ctrl->opts.host_traddr[0])
			return "host_traddr is not an address of this host";
		return "no local address or port for the connection";
	default:
		return "RDMA connection failed";
	}
}

static int rblk_connect_queue(struct rblk_ctrl *ctrl, u16 qid, u32 size,
			      u32 depth, struct blk_mq_tags *tags,
			      const char **errmsg)
{
	struct rblk_queue *queue = &ctrl->queues[qid];
	u32 authreq;
	int ret;

	/* By the layout its hardware queue has now (see the count change). */
	queue->poll = qid && rblk_qid_is_poll(ctrl, qid);
	ret = rblk_queue_alloc(queue, size, depth);
	if (ret) {
		*errmsg = rblk_cm_errmsg(ctrl, ret);
		return ret;
	}
	if (!tags)
		return 0;
	/* Stable from here: an update reallocates only the array. */
	queue->tags = tags;
	ret = rblk_fabrics_connect(ctrl, qid, &authreq, errmsg) ?:
	      rblk_auth_queue(ctrl, qid, authreq, errmsg);
	if (ret)
		return ret;
	set_bit(RBLK_Q_LIVE, &queue->flags);
	return 0;
}

static int rblk_configure_admin_queue(struct rblk_ctrl *ctrl, bool new,
				      const char **errmsg)
{
	int segments, ret;
	u32 authreq;

	ret = rblk_connect_queue(ctrl, 0, RBLK_AQ_DEPTH,
				 RBLK_AQ_TAGS + RBLK_NR_AEN, NULL, errmsg);
	if (ret)
		return ret;

	/*
	 * On every connect, as nvme-rdma derives max_fr_pages: a reconnect
	 * may land on another RDMA device, whose memory regions map fewer
	 * pages.  The namespaces take the new limits when they are
	 * revalidated, before I/O flows; held requests built for larger
	 * ones are split again (blk.c).
	 */
	segments = rblk_device_max_segments(ctrl->queues[0].device);
	if (segments < 2) {
		/* Not even a 4 KiB buffer that crosses a page would fit. */
		*errmsg = "the RDMA device's memory regions map too few pages";
		rblk_queue_free(&ctrl->queues[0]);
		return -EOPNOTSUPP;
	}
	ctrl->max_segments = segments;
	/* As nvme-rdma's: the node of the RDMA device this connect uses. */
	WRITE_ONCE(ctrl->numa_node,
		   rblk_device_numa_node(ctrl->queues[0].device));
	if (new) {
		ctrl->max_hw_sectors = UINT_MAX;
		ret = rblk_alloc_admin_tagset(ctrl);
		if (ret) {
			*errmsg = "out of memory";
			rblk_queue_free(&ctrl->queues[0]);
			return ret;
		}
	}

	ctrl->queues[0].tags = ctrl->admin_set.tags[0];
	/*
	 * Authenticated before anything else: the target refuses any other
	 * command on a queue that has not (nvmet: 4191h).
	 */
	ret = rblk_fabrics_connect(ctrl, 0, &authreq, errmsg) ?:
	      rblk_auth_queue(ctrl, 0, authreq, errmsg);
	if (ret)
		goto out_teardown;
	set_bit(RBLK_Q_LIVE, &ctrl->queues[0].flags);

	ret = rblk_enable_ctrl(ctrl);
	if (ret) {
		*errmsg = "controller did not become ready";
		goto out_teardown;
	}
	rblk_start_keep_alive(ctrl);
	ret = rblk_identify_ctrl(ctrl);
	if (ret) {
		*errmsg = "Identify Controller failed";
		goto out_teardown;
	}
	if (!ctrl->opts.discovery) {
		ret = ctrl->ops->identified ?
		      ctrl->ops->identified(ctrl, errmsg) : 0;
		if (ret)
			goto out_teardown;
		rblk_get_effects_log(ctrl);
		/* First: it decides whether ANA Change Notices are wanted. */
		ret = rblk_ana_setup(ctrl, errmsg);
		if (ret)
			goto out_teardown;
		ret = rblk_configure_aen(ctrl) ?: rblk_configure_acre(ctrl);
		if (ret) {
			*errmsg = "Set Features failed";
			goto out_teardown;
		}
		/*
		 * After enabling the notice: a change before this read is in
		 * the log, and the read re-arms the notice for any after it.
		 * Only a broken association fails the attempt here; a log
		 * the controller will not give means no ANA.
		 */
		if (rblk_ana_read(ctrl) == -EIO) {
			ret = -EIO;
			*errmsg = "Get Log Page failed";
			goto out_teardown;
		}
	} else if (rblk_ctrl_persistent_disc(ctrl)) {
		/*
		 * As nvme-core: the notice is what keeping it is for.  Then
		 * the log read re-arms it (nvmet masks it until a read), a
		 * change while we were away included.
		 */
		ret = rblk_configure_aen(ctrl);
		if (ret) {
			*errmsg = "Set Features failed";
			goto out_teardown;
		}
		/* As the ANA log's: only a broken association fails it. */
		if (rblk_rearm_disc_change(ctrl) == -EIO) {
			ret = -EIO;
			*errmsg = "Get Log Page failed";
			goto out_teardown;
		}
	}
	if (new) {
		ret = rblk_set_queue_limits(ctrl, ctrl->admin_q);
		if (ret) {
			*errmsg = "admin queue limits refused";
			goto out_teardown;
		}
	}
	return 0;

out_teardown:
	rblk_teardown_admin_queue(ctrl, new);
	return ret;
}

/* Connect I/O queues @first to @last; the caller tears down on failure. */
static int rblk_start_io_queues(struct rblk_ctrl *ctrl, u32 first, u32 last,
				const char **errmsg)
{
	u32 i;
	int ret;

	for (i = first; i <= last; i++) {
		ret = rblk_setup_broken(ctrl, errmsg) ?:
		      rblk_connect_queue(ctrl, i, ctrl->opts.queue_size,
					 ctrl->opts.queue_size - 1,
					 ctrl->tag_set.tags[i - 1], errmsg);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The target granted another number of I/O queues on reconnect.  blk-mq
 * changes the number of hardware queues only with every request gone, so
 * with the namespace queues frozen (new I/O waits) let the held requests
 * drain through the queues connected so far; requests held for queues
 * beyond @nr are resubmitted as bios (blk.c) and wait for the new
 * mapping.
 */
static int rblk_change_nr_io_queues(struct rblk_ctrl *ctrl, u32 nr,
				    u32 nr_poll, u32 nr_write,
				    const char **errmsg)
{
	unsigned long deadline = jiffies + rblk_io_timeout * HZ;
	u32 old = ctrl->nr_io_queues;
	struct rblk_ns *ns;
	int ret = 0;
	u32 i;

	rblk_info(ctrl, "target granted %u I/O queues, had %u\n", nr, old);
	mutex_lock(&ctrl->quiesce_lock);
	down_read(&ctrl->namespaces_rwsem);
	/* Counted under resubmit_lock once a queue is retired. */
	ctrl->nr_resubmitted = 0;
	ctrl->nr_forwarded = 0;
	for (i = nr + 1; i <= old; i++)
		set_bit(RBLK_Q_RETIRED, &ctrl->queues[i].flags);
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		blk_freeze_queue_start(ns->queue);
	__rblk_unquiesce_io(ctrl);
	list_for_each_entry(ns, &ctrl->namespaces, entry) {
		long left = max_t(long, deadline - jiffies, 1);

		if (!blk_mq_freeze_queue_wait_timeout(ns->queue, left)) {
			*errmsg = "held I/O did not drain to change the queue count";
			ret = -ETIMEDOUT;
			break;
		}
	}
	/*
	 * Quiesced again (LIVE or the teardown undoes it): no dispatch may
	 * still run on a hardware queue the update removes.
	 */
	if (!ret)
		__rblk_quiesce_io(ctrl);
	for (i = nr + 1; i <= old; i++)
		clear_bit(RBLK_Q_RETIRED, &ctrl->queues[i].flags);
	if (READ_ONCE(ctrl->nr_resubmitted))
		rblk_info(ctrl, "resubmitted %u held requests (%u flushes) of retired queues\n",
			  READ_ONCE(ctrl->nr_resubmitted),
			  READ_ONCE(ctrl->nr_forwarded));
	if (!ret) {
		u32 old_poll = ctrl->nr_poll_queues;
		u32 old_write = ctrl->nr_write_queues;

		mutex_lock(&ctrl->hw_queues_lock);
		/* ->map_queues lays the poll and write queues out from them. */
		ctrl->nr_poll_queues = nr_poll;
		ctrl->nr_write_queues = nr_write;
		blk_mq_update_nr_hw_queues(&ctrl->tag_set, nr);
		/* Out of memory, blk-mq keeps the old count. */
		ctrl->nr_io_queues = ctrl->tag_set.nr_hw_queues;
		if (ctrl->nr_io_queues != nr) {
			ctrl->nr_poll_queues = old_poll;
			ctrl->nr_write_queues = old_write;
		}
		mutex_unlock(&ctrl->hw_queues_lock);
		if (ctrl->nr_io_queues != nr) {
			*errmsg = "out of memory changing the queue count";
			ret = -ENOMEM;
		}
	}
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		rblk_unfreeze_started(ns->queue);
	up_read(&ctrl->namespaces_rwsem);
	mutex_unlock(&ctrl->quiesce_lock);
	return ret;
}

static int rblk_configure_io_queues(struct rblk_ctrl *ctrl, bool new,
				    const char **errmsg)
{
	/* blk-mq maps at most one hardware queue per CPU (and type). */
	u32 nr_read = min(ctrl->opts.nr_io_queues, num_online_cpus());
	u32 nr_poll = min(ctrl->opts.nr_poll_queues, num_online_cpus());
	u32 nr_write = min(ctrl->opts.nr_write_queues, num_online_cpus());
	u32 nr = nr_read;
	u32 nr_now, limit, i;
	int ret;

	if (new && nr < ctrl->opts.nr_io_queues)
		rblk_info(ctrl, "%u I/O queues asked for, using one per CPU (%u)\n",
			  ctrl->opts.nr_io_queues, nr);

	nr += nr_poll + nr_write;
	ret = rblk_set_queue_count(ctrl, &nr);
	if (ret) {
		*errmsg = "Set Features (Number of Queues) failed";
		return ret;
	}
	if (!nr) {
		*errmsg = "target granted no I/O queues";
		return -ENOSPC;
	}
	/*
	 * Short of queues, as nvme-rdma: the -i queues first (at least one,
	 * taking interrupts), then write queues, then poll queues.
	 */
	nr_write = min(nr_write, nr - min(nr_read, nr));
	nr_poll = min(nr_poll, nr - min(nr_read, nr) - nr_write);

	/*
	 * MQES and MAXCMD are read again on every connect.  The tag set's
	 * depth is fixed at the first: a target that lowered them meanwhile
	 * could be sent more commands than its queues hold, so the attempt
	 * fails (and is retried) instead.  The admin queue is not held to
	 * MAXCMD: it is known only after Identify on that queue, and our
	 * admin depth is small (as nvme-rdma, which does the same).
	 */
	limit = rblk_queue_size_limit(ctrl->cap, ctrl->maxcmd);
	if (limit < RBLK_MIN_QUEUE_SIZE) {
		rblk_err(ctrl, "target takes only %u entries per queue\n", limit);
		*errmsg = "target's queues are too small (MQES or MAXCMD)";
		return -ENOSPC;
	}
	if (new && ctrl->opts.queue_size > limit) {
		rblk_warn(ctrl, "queue_size %u capped to the target's %u\n",
			  ctrl->opts.queue_size, limit);
		ctrl->opts.queue_size = limit;
	} else if (ctrl->opts.queue_size > limit) {
		rblk_err(ctrl, "target now takes %u entries per queue, %u are in use: reconnect with a smaller queue size (-Q) if it stays so\n",
			 limit, ctrl->opts.queue_size);
		*errmsg = "target lowered its queue size limit (MQES or MAXCMD)";
		return -ENOSPC;
	}

	if (new) {
		ctrl->nr_io_queues = nr;
		ctrl->nr_poll_queues = nr_poll;
		ctrl->nr_write_queues = nr_write;
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
	/* Block I/O may flow on live queues from here (see blk.c). */
	set_bit(RBLK_CTRL_IO_READY, &ctrl->flags);
	if (nr != ctrl->nr_io_queues) {
		ret = rblk_change_nr_io_queues(ctrl, nr, nr_poll, nr_write,
					       errmsg);
		if (ret)
			goto out_teardown;
		/*
		 * The queues connected above got their completion type by the
		 * old layout; one whose hardware queue changed type must be
		 * reconnected: the next attempt does it, with the new layout.
		 */
		for (i = 1; i <= nr_now; i++) {
			if (ctrl->queues[i].poll != rblk_qid_is_poll(ctrl, i)) {
				*errmsg = "the poll queues moved with the queue count";
				ret = -EAGAIN;
				goto out_teardown;
			}
		}
		ret = rblk_start_io_queues(ctrl, nr_now + 1, nr, errmsg);
		if (ret)
			goto out_teardown;
	}
	return 0;

out_teardown:
	clear_bit(RBLK_CTRL_IO_READY, &ctrl->flags);
	rblk_teardown_io_queues(ctrl);
	if (new)
		rblk_free_io_tagset(ctrl);
	return ret;
}

static int rblk_setup_ctrl(struct rblk_ctrl *ctrl, bool new,
			   const char **errmsg)
{
	int ret;

	/* The queues of an earlier attempt are gone, and their errors. */
	clear_bit(RBLK_CTRL_SETUP_ERROR, &ctrl->flags);
	ret = rblk_configure_admin_queue(ctrl, new, errmsg);
	if (ret)
		return ret;
	if (ctrl->opts.discovery)
		return 0;

	/*
	 * Before any held I/O flows again: it must not be sent with the
	 * format of a namespace that changed while we were away.
	 */
	if (!new && ctrl->ops->revalidate) {
		/*
		 * Nothing dispatched from here to LIVE (or the teardown): a
		 * request checked against the old format must not be built
		 * with the new one.  Not earlier: I/O that may fail fast
		 * fails at once while the transport connects.
		 */
		rblk_quiesce_io(ctrl);
		ret = ctrl->ops->revalidate(ctrl);
		if (ret) {
			*errmsg = "Identify Namespace failed";
			goto out_teardown_admin;
		}
	}
	ret = rblk_configure_io_queues(ctrl, new, errmsg);
	if (ret)
		goto out_teardown_admin;
	return 0;

out_teardown_admin:
	rblk_teardown_admin_queue(ctrl, new);
	return ret;
}

/* Live: I/O flows, namespaces get checked, events are asked for. */
static void rblk_ctrl_went_live(struct rblk_ctrl *ctrl)
{
	if (ctrl->opts.discovery) {
		char rediscover[] = "NVME_EVENT=rediscover";

		/* No namespaces to scan: the connect's waiter is done. */
		complete_all(&ctrl->first_scan);
		queue_work(rblk_wq, &ctrl->aer_work);
		/* As nvme-core: a change while away sent no notice. */
		if (atomic64_read(&ctrl->reconnects))
			rblk_disc_changed(ctrl, rediscover);
		return;
	}
	if (rblk_fault_live_error()) {
		rblk_error_recovery(ctrl);
		/* Its teardown finds the queues quiesced, and waits there. */
		msleep(100);
	}
	/*
	 * Only while live: an error right after going live started a
	 * recovery, whose teardown found the queues quiesced (revalidation
	 * left them so) and unquiesces them itself once it is done.
	 */
	mutex_lock(&ctrl->quiesce_lock);
	if (rblk_ctrl_state(ctrl) == RBLK_STATE_LIVE)
		rblk_unquiesce_io_locked(ctrl);
	mutex_unlock(&ctrl->quiesce_lock);
	rblk_paths_changed(ctrl);
	if (ctrl->ops->live)
		ctrl->ops->live(ctrl);
	queue_work(rblk_wq, &ctrl->aer_work);
}

/* --- recovery --- */

static void rblk_failfast_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(to_delayed_work(work),
					      struct rblk_ctrl, failfast_work);
	unsigned long flags;
	bool expired;

	/* Under the lock that going live clears the flag under. */
	spin_lock_irqsave(&ctrl->lock, flags);
	expired = ctrl->state == RBLK_STATE_CONNECTING;
	if (expired)
		set_bit(RBLK_CTRL_FAILFAST, &ctrl->flags);
	spin_unlock_irqrestore(&ctrl->lock, flags);
	if (!expired)
		return;
	rblk_info(ctrl, "fast_io_fail_tmo expired, failing I/O\n");
	rblk_unquiesce_io(ctrl);
	rblk_paths_changed(ctrl);
}

static void rblk_give_up(struct rblk_ctrl *ctrl, const char *why)
{
	if (!rblk_change_state(ctrl, RBLK_STATE_DEAD))
		return;
	rblk_err(ctrl, "%s, failing all I/O until disconnect\n", why);
	/* A first connect waiting for its scan gets no namespaces. */
	complete_all(&ctrl->first_scan);
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
	rblk_notify(ctrl, NULL, RBLK_EVENT_RECONNECTING);
	clear_bit(RBLK_CTRL_AUTH_FAILED, &ctrl->flags);

	ret = rblk_setup_ctrl(ctrl, false, &errmsg);
	if (!ret && rblk_change_state(ctrl, RBLK_STATE_LIVE)) {
		atomic64_inc(&ctrl->reconnects);
		rblk_info(ctrl, "reconnected, %u I/O queues\n",
			  ctrl->nr_io_queues);
		rblk_ctrl_went_live(ctrl);
		return;
	}
	if (!ret) {
		/* Lost against a delete: it tears down what we built. */
		if (rblk_ctrl_state(ctrl) != RBLK_STATE_CONNECTING)
			return;
		ret = rblk_setup_broken(ctrl, &errmsg);
		clear_bit(RBLK_CTRL_IO_READY, &ctrl->flags);
		rblk_teardown_io_queues(ctrl);
		rblk_teardown_admin_queue(ctrl, false);
	}

	rblk_warn(ctrl, "reconnect failed: %d (%s)\n", ret,
		  errmsg ?: "unknown");
	/* A key refused, or missing, stays so: as 6.12's nvme. */
	if (test_bit(RBLK_CTRL_AUTH_FAILED, &ctrl->flags)) {
		rblk_give_up(ctrl, "authentication failed, not reconnecting");
		return;
	}
	if (ctrl->opts.ctrl_loss_tmo >= 0 &&
	    time_after(jiffies + ctrl->opts.reconnect_delay * HZ,
		       ctrl->loss_deadline)) {
		rblk_give_up(ctrl, "ctrl_loss_tmo expired");
		return;
	}
	rblk_unquiesce_io(ctrl);
	queue_delayed_work(rblk_wq, &ctrl->reconnect_work,
			   ctrl->opts.reconnect_delay * HZ);
}

static void rblk_err_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl, err_work);
	/*
	 * Before the teardown: the disconnects it makes echo back as queue
	 * errors, which clear the flag (rblk_error_recovery()).
	 */
	bool user = test_bit(RBLK_CTRL_USER_RESET, &ctrl->flags);

	rblk_teardown_io_queues(ctrl);
	rblk_teardown_admin_queue(ctrl, false);
	/*
	 * The expiry of an earlier reset may still be pending or running:
	 * it must not find this reset's CONNECTING state and fail its I/O
	 * before this reset's own fast_io_fail_tmo.
	 */
	cancel_delayed_work_sync(&ctrl->failfast_work);

	if (!rblk_change_state(ctrl, RBLK_STATE_CONNECTING))
		return;	/* deleting */

	ctrl->loss_deadline = jiffies + ctrl->opts.ctrl_loss_tmo * HZ;
	if (ctrl->opts.fast_io_fail_tmo >= 0)
		queue_delayed_work(rblk_wq, &ctrl->failfast_work,
				   ctrl->opts.fast_io_fail_tmo * HZ);
	/*
	 * Between attempts the namespace queues run, as nvme's do: held
	 * requests go back to blk-mq from ->queue_rq (BLK_STS_RESOURCE),
	 * and REQ_FAILFAST_* ones fail there at once, for dm-multipath to
	 * retry on another path.  Each attempt quiesces them again.
	 */
	rblk_unquiesce_io(ctrl);
	/*
	 * A user's reset of a healthy association reconnects at once, as
	 * nvme-rdma's reset work does; after a failure the target gets
	 * reconnect_delay to recover first.
	 */
	if (user) {
		rblk_info(ctrl, "reconnecting\n");
		queue_delayed_work(rblk_wq, &ctrl->reconnect_work, 0);
		return;
	}
	rblk_info(ctrl, "reconnecting in %u seconds\n",
		  ctrl->opts.reconnect_delay);
	queue_delayed_work(rblk_wq, &ctrl->reconnect_work,
			   ctrl->opts.reconnect_delay * HZ);
}

/* --- lifetime --- */

static void rblk_ctrl_release(struct device *dev)
{
	struct rblk_ctrl *ctrl = rblk_dev_to_ctrl(dev);
	u32 i;

	for (i = 0; i <= rblk_opts_max_queues(&ctrl->opts); i++)
		mutex_destroy(&ctrl->queues[i].stop_lock);
	mutex_destroy(&ctrl->hw_queues_lock);
	mutex_destroy(&ctrl->quiesce_lock);
	mutex_destroy(&ctrl->scan_lock);
	rblk_ana_free(ctrl);
	rblk_auth_keys_free(&ctrl->opts);
	kfree(ctrl->effects);
	kfree(ctrl->queues);
	kfree(ctrl);
}

/**
 * rblk_ctrl_alloc() - allocate a controller in the NEW state
 * @opts: options, copied
 * @ops: the layer above
 *
 * The controller's &struct device is initialized, not added: the caller
 * names and adds it if it is to be seen in sysfs.
 *
 * Return: the controller with one reference, or NULL.
 */
struct rblk_ctrl *rblk_ctrl_alloc(const struct rblk_ctrl_opts *opts,
				  const struct rblk_ctrl_ops *ops)
{
	struct rblk_ctrl *ctrl;
	u32 i;

	ctrl = kzalloc(sizeof(*ctrl), GFP_KERNEL);
	if (!ctrl)
		return NULL;
	ctrl->opts = *opts;
	ctrl->ops = ops;
	/* The caller keeps its keys: the controller gets copies. */
	if (rblk_auth_keys_dup(&ctrl->opts, opts)) {
		kfree(ctrl);
		return NULL;
	}
	ctrl->queues = kcalloc(rblk_opts_max_queues(opts) + 1,
			       sizeof(*ctrl->queues), GFP_KERNEL);
	if (!ctrl->queues) {
		rblk_auth_keys_free(&ctrl->opts);
		kfree(ctrl);
		return NULL;
	}
	/*
	 * Every queue knows its controller from the start: a hardware queue
	 * that a queue-count change added may be dispatched to (or time out)
	 * before its queue ever connected, when that reconnect attempt fails
	 * after the change.  As nvme-rdma, which sets them up before it
	 * resizes the tag set.
	 */
	for (i = 0; i <= rblk_opts_max_queues(opts); i++) {
		ctrl->queues[i].ctrl = ctrl;
		ctrl->queues[i].qid = i;
		ctrl->queues[i].ops = &rblk_ctrl_queue_ops;
		mutex_init(&ctrl->queues[i].stop_lock);
		spin_lock_init(&ctrl->queues[i].sq_lock);
		spin_lock_init(&ctrl->queues[i].poll_lock);
	}

	device_initialize(&ctrl->dev);
	ctrl->dev.release = rblk_ctrl_release;
	INIT_LIST_HEAD(&ctrl->entry);
	spin_lock_init(&ctrl->lock);
	spin_lock_init(&ctrl->ns_lock);
	ctrl->state = RBLK_STATE_NEW;
	ctrl->index = -1;
	ctrl->numa_node = NUMA_NO_NODE;
	strscpy(ctrl->name, opts->discovery ? "rblk-discovery" : "rblk",
		sizeof(ctrl->name));
	mutex_init(&ctrl->hw_queues_lock);
	mutex_init(&ctrl->quiesce_lock);
	INIT_LIST_HEAD(&ctrl->namespaces);
	init_rwsem(&ctrl->namespaces_rwsem);
	mutex_init(&ctrl->scan_lock);
	init_completion(&ctrl->first_scan);
	spin_lock_init(&ctrl->resubmit_lock);
	bio_list_init(&ctrl->resubmit_bios);
	INIT_LIST_HEAD(&ctrl->resubmit_flushes);
	INIT_WORK(&ctrl->err_work, rblk_err_work);
	INIT_DELAYED_WORK(&ctrl->reconnect_work, rblk_reconnect_work);
	INIT_DELAYED_WORK(&ctrl->failfast_work, rblk_failfast_work);
	INIT_DELAYED_WORK(&ctrl->ka_work, rblk_keep_alive_work);
	INIT_WORK(&ctrl->aer_work, rblk_aer_work);
	INIT_WORK(&ctrl->event_work, rblk_event_work);
	INIT_WORK(&ctrl->disc_work, rblk_disc_work);
	/* ana.c arms the ANATT timer; its expiry is the controller's. */
	rblk_ana_init(ctrl, rblk_anatt_timeout);
	return ctrl;
}

/**
 * rblk_ctrl_get() - take a controller reference
 * @ctrl: controller
 */
void rblk_ctrl_get(struct rblk_ctrl *ctrl)
{
	get_device(&ctrl->dev);
}

/**
 * rblk_ctrl_put() - drop a controller reference
 * @ctrl: controller
 */
void rblk_ctrl_put(struct rblk_ctrl *ctrl)
{
	put_device(&ctrl->dev);
}

/**
 * rblk_ctrl_start() - first connect of a new controller
 * @ctrl: controller in the NEW state, its address in @ctrl->addr
 * @errmsg: set to a static reason on failure
 *
 * Return: 0 with the controller LIVE, or a negative errno with nothing
 * left allocated but what rblk_ctrl_teardown() releases; -ECANCELED if
 * a delete came first.
 */
int rblk_ctrl_start(struct rblk_ctrl *ctrl, const char **errmsg)
{
	int ret;

	if (!rblk_change_state(ctrl, RBLK_STATE_CONNECTING))
		return -EBUSY;

	ret = rblk_setup_ctrl(ctrl, true, errmsg);
	if (ret)
		return ret;

	if (!rblk_change_state(ctrl, RBLK_STATE_LIVE)) {
		/* rblk_ctrl_teardown() releases the queues. */
		ret = rblk_setup_broken(ctrl, errmsg);
		if (ret && rblk_ctrl_state(ctrl) == RBLK_STATE_CONNECTING)
			return ret;
		*errmsg = "disconnected while connecting";
		return -ECANCELED;
	}
	rblk_info(ctrl, "connected to %s at %s:%s, cntlid %u, %u I/O queues of %u\n",
		  ctrl->opts.subsysnqn, ctrl->opts.traddr, ctrl->opts.trsvcid,
		  ctrl->cntlid, ctrl->nr_io_queues, ctrl->opts.queue_size);
	if (!ctrl->opts.discovery || rblk_ctrl_persistent_disc(ctrl))
		rblk_ctrl_went_live(ctrl);
	return 0;
}

/**
 * rblk_ctrl_stop_recovery() - end recovery of a controller being deleted
 * @ctrl: controller in the DELETING state
 *
 * After this no recovery, reconnect, event or ANA work runs; I/O it held
 * fails unless every queue is live, and the namespaces' queues are
 * running, so that removing the disks drains them.  Until it decides,
 * block I/O that is not ready waits (rblk_ctrl_holds_io()); from then on
 * it fails.  That wait includes the cancels below: a reconnect attempt
 * under way ends first (its connects, admin commands and revalidation are
 * bounded by the CM and command timeouts), and so does an ANA log read,
 * within the admin timeout if the association broke under it (as
 * nvme_mpath_stop() waits for nvme's ana_work).
 */
void rblk_ctrl_stop_recovery(struct rblk_ctrl *ctrl)
{
	bool live = ctrl->nr_io_queues;
	u32 i;

	cancel_work_sync(&ctrl->err_work);
	cancel_delayed_work_sync(&ctrl->reconnect_work);
	cancel_delayed_work_sync(&ctrl->failfast_work);
	cancel_work_sync(&ctrl->event_work);
	/*
	 * Its Get Log Page ends: answered, or, on an association that broke
	 * (err_work cancelled above), timed out within the admin timeout.
	 */
	rblk_ana_stop(ctrl);
	cancel_work_sync(&ctrl->disc_work);

	/*
	 * Decide with no dispatch running, so that none sees the old
	 * IO_READY together with the new FAILFAST and fails a request the
	 * association would have served.  One grace period per delete.
	 */
	rblk_quiesce_io(ctrl);
	for (i = 1; i <= ctrl->nr_io_queues; i++)
		live &= test_bit(RBLK_Q_LIVE, &ctrl->queues[i].flags);
	/* Queues of an attempt refused LIVE are broken, whatever they say. */
	live &= !test_bit(RBLK_CTRL_SETUP_ERROR, &ctrl->flags);
	if (!live) {
		clear_bit(RBLK_CTRL_IO_READY, &ctrl->flags);
	} else if (test_bit(RBLK_CTRL_USER_RESET, &ctrl->flags)) {
		/*
		 * A user's reset whose err_work was cancelled before it ran
		 * left the association, and the namespaces on it, as they
		 * were: what del_gendisk() writes back goes out on it.  Not
		 * after a failure: the association is broken.
		 */
		set_bit(RBLK_CTRL_IO_READY, &ctrl->flags);
	}
	/*
	 * Nothing recovers from here: I/O the queues cannot take now (not
	 * ready, a path error) fails instead of waiting.
	 */
	set_bit(RBLK_CTRL_FAILFAST, &ctrl->flags);
	/*
	 * Also when live: a reconnect that lost the race to LIVE against
	 * this delete leaves the queues quiesced.
	 */
	rblk_unquiesce_io(ctrl);
	rblk_paths_changed(ctrl);
	/* What a queue-count change moved goes back in before the disks drain. */
	flush_work(&ctrl->forward_work);
	flush_work(&ctrl->resubmit_work);
}

/**
 * rblk_ctrl_stop() - stop the queues of a controller whose namespaces
 *	are gone, every command in flight cancelled
 * @ctrl: controller in the DELETING state, after rblk_ctrl_stop_recovery()
 *
 * The controller is shut down if it still answers.  The request queues and
 * tag sets stay until rblk_ctrl_free_queues(): a passthrough command may
 * still hold one, and ends now (cancelled, or failed as not ready).
 */
void rblk_ctrl_stop(struct rblk_ctrl *ctrl)
{
	rblk_stop_keep_alive(ctrl);
	rblk_teardown_io_queues(ctrl);
	if (test_bit(RBLK_Q_LIVE, &ctrl->queues[0].flags))
		rblk_shutdown_ctrl(ctrl);
	rblk_stop_admin_queue(ctrl);
}

/**
 * rblk_ctrl_free_queues() - free what rblk_ctrl_stop() left
 * @ctrl: controller after rblk_ctrl_stop(), with no user of its request
 *	queues left
 */
void rblk_ctrl_free_queues(struct rblk_ctrl *ctrl)
{
	rblk_free_io_tagset(ctrl);
	rblk_teardown_admin_queue(ctrl, true);
	/* Queued by an event that arrived while the disks were removed. */
	cancel_work_sync(&ctrl->scan_work);
}

/**
 * rblk_ctrl_teardown() - rblk_ctrl_stop(), then rblk_ctrl_free_queues()
 * @ctrl: controller in the DELETING state, after rblk_ctrl_stop_recovery()
 */
void rblk_ctrl_teardown(struct rblk_ctrl *ctrl)
{
	rblk_ctrl_stop(ctrl);
	rblk_ctrl_free_queues(ctrl);
}

/* --- statistics --- */

/*
 * Doorbells and commands posted, summed over the I/O queues (every one
 * there ever was: the counts survive reconnects and queue-count changes).
 */
static void rblk_ctrl_sq_counts(struct rblk_ctrl *ctrl, u64 *posts, u64 *cmds,
				u64 *polled)
{
	u32 i;

	*posts = 0;
	*cmds = 0;
	*polled = 0;
	for (i = 1; i <= rblk_opts_max_queues(&ctrl->opts); i++) {
		*posts += READ_ONCE(ctrl->queues[i].nr_posts);
		*cmds += READ_ONCE(ctrl->queues[i].nr_cmds);
		*polled += READ_ONCE(ctrl->queues[i].nr_polled);
	}
}

/**
 * rblk_ctrl_stats() - the controller's own counters into a snapshot
 * @ctrl: controller
 * @s: %RBLK_STAT_TIMEOUTS (of all commands), %RBLK_STAT_RECONNECTS,
 *	%RBLK_STAT_RECONNECT_ATTEMPTS, %RBLK_STAT_DOORBELLS,
 *	%RBLK_STAT_COMMANDS_POSTED and %RBLK_STAT_POLL_COMPLETIONS are set,
 *	since the last reset
 */
void rblk_ctrl_stats(struct rblk_ctrl *ctrl, struct rblk_stats *s)
{
	u64 posts, cmds, polled;

	s->v[RBLK_STAT_TIMEOUTS] = atomic64_read(&ctrl->timeouts) -
				   READ_ONCE(ctrl->stats_base.timeouts);
	s->v[RBLK_STAT_RECONNECTS] = atomic64_read(&ctrl->reconnects) -
				     READ_ONCE(ctrl->stats_base.reconnects);
	s->v[RBLK_STAT_RECONNECT_ATTEMPTS] =
		atomic64_read(&ctrl->reconnect_attempts) -
		READ_ONCE(ctrl->stats_base.reconnect_attempts);
	rblk_ctrl_sq_counts(ctrl, &posts, &cmds, &polled);
	s->v[RBLK_STAT_DOORBELLS] = posts - READ_ONCE(ctrl->stats_base.posts);
	s->v[RBLK_STAT_COMMANDS_POSTED] =
		cmds - READ_ONCE(ctrl->stats_base.cmds);
	s->v[RBLK_STAT_POLL_COMPLETIONS] =
		polled - READ_ONCE(ctrl->stats_base.polled);
}

/**
 * rblk_ctrl_stats_reset() - count the controller's counters from zero
 * @ctrl: controller
 */
void rblk_ctrl_stats_reset(struct rblk_ctrl *ctrl)
{
	u64 posts, cmds, polled;

	WRITE_ONCE(ctrl->stats_base.timeouts, atomic64_read(&ctrl->timeouts));
	WRITE_ONCE(ctrl->stats_base.reconnects,
		   atomic64_read(&ctrl->reconnects));
	WRITE_ONCE(ctrl->stats_base.reconnect_attempts,
		   atomic64_read(&ctrl->reconnect_attempts));
	rblk_ctrl_sq_counts(ctrl, &posts, &cmds, &polled);
	WRITE_ONCE(ctrl->stats_base.posts, posts);
	WRITE_ONCE(ctrl->stats_base.cmds, cmds);
	WRITE_ONCE(ctrl->stats_base.polled, polled);
}
