// SPDX-License-Identifier: GPL-2.0
/*
 * rblk Asymmetric Namespace Access: a controller's copy of the ANA log
 * page, read at every connect and after every ANA Change Notice.  The
 * controller (ctrl.c) calls in at its connect and teardown; news goes up
 * through &rblk_ctrl_ops.ana_changed.  The wire format (log size, parser,
 * state names) is proto.c's.
 *
 * Nothing here changes how I/O is sent, and only a broken association
 * fails a connect: a controller whose log rblk cannot use says so once
 * and works without ANA (Documentation/multipath.rst, step 2).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/slab.h>

#include "fault.h"
#include "rblk.h"

/*
 * Once per controller until a read succeeds: a target whose ANA log rblk
 * cannot use would say so at every reconnect, and the controller works
 * without it.
 */
static __printf(2, 3) void rblk_ana_warn(struct rblk_ctrl *ctrl,
					 const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (!test_and_set_bit(RBLK_CTRL_ANA_WARNED, &ctrl->flags))
		rblk_warn(ctrl, "%pV", &vaf);
	else
		rblk_dbg(ctrl, "%pV", &vaf);
	va_end(args);
}

/**
 * rblk_ana_setup() - whether this association reads the ANA log, and how
 *	many bytes
 * @ctrl: controller, Identify Controller read on this association
 * @errmsg: set to the reason of a refusal
 *
 * At every connect, before the asynchronous events are configured.  The
 * buffer grows when a reconnect reports more groups or namespaces (as
 * nvme_mpath_init_identify() reallocates).  As nvme-core, a log too large
 * for one command means no ANA, and with multipath an MNAN of 0 or above
 * NN refuses the controller (without multipath it means no ANA); unlike
 * nvme-core, running out of memory means no ANA too.
 *
 * Return: 0, or -EINVAL for the refusal (@errmsg says why).
 */
int rblk_ana_setup(struct rblk_ctrl *ctrl, const char **errmsg)
{
	const struct rblk_ctrl_mpath *mp = &ctrl->mpath;
	u32 max_sectors;
	size_t size;
	void *log;
	int ret = 0;

	mutex_lock(&ctrl->ana_lock);
	WRITE_ONCE(ctrl->ana_log_size, 0);
	ctrl->ana_log_valid = false;
	if (!(mp->cmic & NVME_CTRL_CMIC_ANA))
		goto out;
	if (rblk_fault_no_ana()) {
		rblk_ana_warn(ctrl, "ANA log buffer not allocated (injected), going on without ANA\n");
		goto out;
	}
	/*
	 * Also what blk_rq_map_kern() lets through: the admin queue keeps
	 * the limits of the first connect.
	 */
	max_sectors = min(rblk_ctrl_max_sectors(ctrl),
			  queue_max_hw_sectors(ctrl->admin_q));
	ret = rblk_ana_log_size(mp, max_sectors, &size);
	if (ret == -EINVAL && rblk_multipath) {
		/* The attempt's failure says so; the values once here. */
		rblk_ana_warn(ctrl, "invalid MNAN %u (NN %u) with ANA\n",
			      mp->mnan, mp->nn);
		*errmsg = "invalid MNAN";
		goto out;
	}
	if (ret == -EINVAL) {
		ret = 0;
		rblk_ana_warn(ctrl, "invalid MNAN %u (NN %u), going on without ANA\n",
			      mp->mnan, mp->nn);
		goto out;
	}
	if (ret) {
		ret = 0;
		/* size is SIZE_MAX when it overflowed. */
		rblk_ana_warn(ctrl, "ANA log page (NANAGRPID %u, MNAN %u) larger than the largest transfer (%llu bytes), going on without ANA\n",
			      mp->nanagrpid, mp->mnan,
			      (u64)max_sectors << SECTOR_SHIFT);
		goto out;
	}
	if (size > ctrl->ana_log_alloc) {
		/*
		 * Up to max_sectors: a vmalloc fallback, as nvme-core.  Out
		 * of memory (the allocator says so), without ANA.
		 */
		log = kvmalloc(size, GFP_KERNEL);
		if (!log)
			goto out;
		kvfree(ctrl->ana_log);
		ctrl->ana_log = log;
		ctrl->ana_log_alloc = size;
	}
	WRITE_ONCE(ctrl->ana_log_size, size);
out:
	mutex_unlock(&ctrl->ana_lock);
	return ret;
}

/* Put @ns to rest (RBLK_NS_PATH_REST) until rest_work, queued here, ends it. */
static void rblk_path_rest(struct rblk_ctrl *ctrl, struct rblk_ns *ns)
{
	set_bit(RBLK_NS_PATH_REST, &ns->flags);
	/* Not postponed by later errors: each rest ends within two. */
	queue_delayed_work(rblk_wq, &ctrl->rest_work, RBLK_PATH_REST);
}

/**
 * rblk_path_error() - a command on a path ended with a path related status
 * @ctrl: the path's controller
 * @ns: the path
 * @status: the NVMe status (Status Code Type 3h)
 *
 * An ANA status where this association reads the ANA log: the path's ANA
 * state changed, and the path is not chosen until the log, read again,
 * says what it is now (as nvme_update_ana()).  Another path error (an
 * internal or controller pathing error, an ANA status with no log to read
 * again): the path rests for %RBLK_PATH_REST, so that the head does not
 * choose it again at once (nvme-core would, and a path that keeps failing
 * would take the same I/O back for ever); the rest ends by itself.  The
 * host's own verdicts (Host Pathing Error, Command Aborted By Host) are
 * the controller's state: nothing here.  Any context.
 */
void rblk_path_error(struct rblk_ctrl *ctrl, struct rblk_ns *ns, u16 status)
{
	/* A failover for another reason (191h: a re-authentication). */
	if (!rblk_status_is_path(status) || rblk_status_is_host_path(status))
		return;
	if (!rblk_ana_status_in_use(ctrl, status)) {
		rblk_path_rest(ctrl, ns);
		return;
	}
	set_bit(RBLK_NS_ANA_PENDING, &ns->flags);
	queue_work(rblk_wq, &ctrl->ana_work);
}

/**
 * rblk_path_rests_end() - end the rests of a controller's paths at once
 * @ctrl: controller going down (reset, delete) or removing its namespaces;
 *	the caller does not hold its namespaces_rwsem
 *
 * The rests end, they are not dropped: a delete's write-back goes through
 * these paths, with no reconnect to end them.  The caller kicks the heads
 * (a reset's reconnect, a delete's stop of recovery) or has no path left.
 */
void rblk_path_rests_end(struct rblk_ctrl *ctrl)
{
	struct rblk_ns *ns;

	cancel_delayed_work_sync(&ctrl->rest_work);
	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		clear_bit(RBLK_NS_PATH_REST, &ns->flags);
	up_read(&ctrl->namespaces_rwsem);
}

/* The rests are over: the heads look at these paths again. */
static void rblk_rest_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(to_delayed_work(work),
					      struct rblk_ctrl, rest_work);
	bool changed = false;
	struct rblk_ns *ns;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		changed |= test_and_clear_bit(RBLK_NS_PATH_REST, &ns->flags);
	up_read(&ctrl->namespaces_rwsem);
	if (changed && ctrl->ops->paths_changed)
		ctrl->ops->paths_changed(ctrl);
}

/*
 * The log was asked for and could not be read, or was malformed, on an
 * association that reads it: the states stay what the last log said (as
 * nvme_read_ana_log()'s failure), and the paths that waited for it rest
 * instead; an ANA status after the rest asks for the log again.
 */
static void rblk_ana_pending_rest(struct rblk_ctrl *ctrl)
{
	struct rblk_ns *ns;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry)
		if (test_and_clear_bit(RBLK_NS_ANA_PENDING, &ns->flags))
			rblk_path_rest(ctrl, ns);
	up_read(&ctrl->namespaces_rwsem);
}

struct rblk_ana_scan {
	struct rblk_ctrl *ctrl;
	unsigned int nr_change;
};

/* Each group read: for dynamic debug, and the groups in change state. */
static int rblk_ana_group_scan(const struct rblk_ana_group *g, void *data)
{
	struct rblk_ana_scan *scan = data;

	rblk_dbg(scan->ctrl, "ANA group %u: %s, %u namespaces, change count %llu\n",
		 g->grpid, rblk_ana_state_name(g->state), g->nr_nsids,
		 g->chgcnt);
	scan->nr_change += g->state == NVME_ANA_CHANGE;
	return 0;
}

/* Arm the ANATT timer while a group is changing, else stop it. */
static void rblk_anatt_update(struct rblk_ctrl *ctrl, unsigned int nr_change)
{
	if (nr_change)
		mod_timer(&ctrl->anatt_timer,
			  jiffies + 2 * max_t(u8, ctrl->mpath.anatt, 1) * HZ);
	else
		timer_delete(&ctrl->anatt_timer);
}

/**
 * rblk_ana_read() - read the whole ANA log into @ctrl->ana_log and check it
 * @ctrl: controller whose admin queue is live
 *
 * At connect, after rblk_ana_setup() and the notices' configuration, and
 * after an ANA Change Notice.  A log that the controller refuses or that
 * is malformed leaves the association without one, as nvme-core:
 * @ctrl->ana_log_valid stays false until a later read succeeds.  Messages
 * are debug only, but the first such failure's warning.
 *
 * Return: 0 if @ctrl->ana_log holds a checked log; -EIO if the host
 * failed the command (the association broke); -ENODATA if this
 * association reads no ANA log; another negative errno otherwise.
 */
int rblk_ana_read(struct rblk_ctrl *ctrl)
{
	struct rblk_ana_scan scan = { .ctrl = ctrl };
	const struct nvme_ana_rsp_hdr *hdr;
	int ret;

	mutex_lock(&ctrl->ana_lock);
	ctrl->ana_log_valid = false;
	if (!ctrl->ana_log_size) {
		ret = -ENODATA;
		goto out;
	}
	/* A target may send less than asked: the parser sees no stale bytes. */
	memset(ctrl->ana_log, 0, ctrl->ana_log_size);
	ret = rblk_get_ana_log(ctrl, ctrl->ana_log, ctrl->ana_log_size);
	if (rblk_status_to_errno(ret) == -EIO) {
		/* Recovery or a failed attempt follows: no warning for that. */
		rblk_dbg(ctrl, "ANA log page not read: %d\n", ret);
		ret = -EIO;
		goto out;
	}
	if (ret > 0) {
		rblk_ana_warn(ctrl, "Get Log Page ANA failed, status %#x, going on without ANA\n",
			      ret);
		ret = rblk_status_to_errno(ret);
		goto out;
	}
	if (ret) {
		rblk_ana_warn(ctrl, "Get Log Page ANA failed: %d, going on without ANA\n",
			      ret);
		goto out;
	}
	ret = rblk_ana_log_parse(ctrl->ana_log, ctrl->ana_log_size,
				 ctrl->mpath.anagrpmax, ctrl->mpath.nanagrpid,
				 rblk_ana_group_scan, &scan);
	if (ret) {
		rblk_ana_warn(ctrl, "malformed ANA log page, going on without ANA\n");
		goto out;
	}
	ctrl->ana_log_valid = true;
	rblk_anatt_update(ctrl, scan.nr_change);
	/* A later failure is news again. */
	clear_bit(RBLK_CTRL_ANA_WARNED, &ctrl->flags);
	hdr = ctrl->ana_log;
	rblk_dbg(ctrl, "ANA log: change count %llu, %u groups\n",
		 le64_to_cpu(hdr->chgcnt), le16_to_cpu(hdr->ngrps));
out:
	/*
	 * Going on without ANA: the paths turn optimized when applied, no
	 * group is watched.  (A broken association's reset stops it too.)
	 */
	if (!ctrl->ana_log_valid)
		timer_delete(&ctrl->anatt_timer);
	mutex_unlock(&ctrl->ana_lock);
	return ret;
}

/*
 * After an ANA Change Notice: read the log, which re-arms the notice, and
 * tell the layer above.  Not in event_work: the admin queue's teardown
 * waits for event_work before it cancels the commands in flight, so a
 * Get Log Page there could never end.  This work is waited for only once
 * they are cancelled (rblk_teardown_admin_queue()), or by a delete
 * (rblk_ctrl_stop_recovery()), which waits for its command to end.
 */
static void rblk_ana_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl,
					      ana_work);
	int ret;

	/* Not live: going live again reads the log at the connect. */
	if (rblk_ctrl_state(ctrl) != RBLK_STATE_LIVE)
		return;
	ret = rblk_ana_read(ctrl);
	/* The association broke: the reconnect reads and applies it. */
	if (ret == -EIO)
		return;
	/*
	 * Read, or none on this association (every path optimized, no
	 * mark left).
	 */
	if (!ret || ret == -ENODATA) {
		if (ctrl->ops->ana_changed)
			ctrl->ops->ana_changed(ctrl);
		return;
	}
	rblk_ana_pending_rest(ctrl);
}

struct rblk_ana_apply {
	struct rblk_ctrl *ctrl;
	bool changed;
	u32 grpid;	/* rblk_ana_find_group(): the group wanted */
	u8 state;	/* and its state, 0 if the log has no such group */
};

/* One path's ANA group and state; under ana_lock. */
static void rblk_ana_set(struct rblk_ana_apply *a, struct rblk_ns *ns,
			 u32 grpid, u8 state)
{
	u32 old_grpid = ns->ana_grpid;
	u8 old = ns->ana_state;

	WRITE_ONCE(ns->ana_grpid, grpid);
	/* Usable again, maybe in the same state: the heads look again. */
	if (test_and_clear_bit(RBLK_NS_ANA_PENDING, &ns->flags))
		a->changed = true;
	if (old != state) {
		WRITE_ONCE(ns->ana_state, state);
		a->changed = true;
		if (ns->head)
			rblk_info(a->ctrl, "%s: ANA group %u: %s -> %s\n",
				  ns->disk->disk_name, grpid,
				  old ? rblk_ana_state_name(old) : "unknown",
				  rblk_ana_state_name(state));
	} else if (old_grpid == grpid) {
		return;
	}
	/*
	 * A new state, or another group in the same state.  A path not yet
	 * announced is announced with its state.
	 */
	if (ns->head && rblk_ns_visible(ns))
		rblk_notify(a->ctrl, ns, RBLK_EVENT_ANA_CHANGED);
}

static int rblk_ana_apply_group(const struct rblk_ana_group *g, void *data)
{
	struct rblk_ana_apply *a = data;
	struct list_head *list = &a->ctrl->namespaces;
	struct rblk_ns *ns = list_first_entry(list, struct rblk_ns, entry);
	u32 i, nsid, prev = 0;

	/*
	 * Both in ascending NSID order, as the log lists them (nvme too): one
	 * walk of the list for the group, not one per NSID of it (the scan
	 * applies the log once per new namespace).
	 */
	for (i = 0; i < g->nr_nsids; i++) {
		nsid = rblk_ana_group_nsid(g, i);
		/* A log out of order: from the start again. */
		if (nsid < prev)
			ns = list_first_entry(list, struct rblk_ns, entry);
		prev = nsid;
		list_for_each_entry_from(ns, list, entry) {
			if (ns->nsid >= nsid)
				break;
		}
		if (!list_entry_is_head(ns, list, entry) && ns->nsid == nsid)
			rblk_ana_set(a, ns, g->grpid, g->state);
	}
	return 0;
}

static int rblk_ana_find_group(const struct rblk_ana_group *g, void *data)
{
	struct rblk_ana_apply *a = data;

	if (g->grpid != a->grpid)
		return 0;
	a->state = g->state;
	return 1;
}

/**
 * rblk_ana_apply() - give a controller's namespaces (paths) the ANA group
 *	and state of its last ANA log
 * @ctrl: controller; its namespaces_rwsem not held
 *
 * Without ANA (not reported, or going on without it) every path is
 * optimized.  A namespace the log does not list keeps what it had; a new
 * one (added since the log was read) takes the state of its Identify
 * ANAGRPID's group, and if the log has no such group either, is not used
 * until the log, read again, lists it (as nvme_mpath_add_disk()).
 *
 * Return: true if a path's state changed: the caller kicks the heads.
 */
bool rblk_ana_apply(struct rblk_ctrl *ctrl)
{
	struct rblk_ana_apply a = { .ctrl = ctrl };
	bool reread = false;
	struct rblk_ns *ns;

	mutex_lock(&ctrl->ana_lock);
	down_read(&ctrl->namespaces_rwsem);
	if (ctrl->ana_log_valid) {
		/* Checked when read: this parse does not fail. */
		rblk_ana_log_parse(ctrl->ana_log, ctrl->ana_log_size,
				   ctrl->mpath.anagrpmax, ctrl->mpath.nanagrpid,
				   rblk_ana_apply_group, &a);
		/* New since the log: by its group, else read it again. */
		list_for_each_entry(ns, &ctrl->namespaces, entry) {
			if (ns->ana_state)
				continue;
			a.grpid = ns->info.anagrpid;
			a.state = 0;
			if (a.grpid)
				rblk_ana_log_parse(ctrl->ana_log,
						   ctrl->ana_log_size,
						   ctrl->mpath.anagrpmax,
						   ctrl->mpath.nanagrpid,
						   rblk_ana_find_group, &a);
			if (a.state)
				rblk_ana_set(&a, ns, a.grpid, a.state);
			else if (!test_and_set_bit(RBLK_NS_ANA_PENDING,
						   &ns->flags))
				reread = true;
		}
	} else {
		list_for_each_entry(ns, &ctrl->namespaces, entry)
			rblk_ana_set(&a, ns, 0, NVME_ANA_OPTIMIZED);
	}
	up_read(&ctrl->namespaces_rwsem);
	mutex_unlock(&ctrl->ana_lock);
	/* ana_work reads only while live; a reconnect reads it itself. */
	if (reread)
		queue_work(rblk_wq, &ctrl->ana_work);
	return a.changed;
}

/**
 * rblk_ana_init() - set up a new controller's ANA state
 * @ctrl: controller being allocated
 * @anatt_expired: what to do when a group stays in change state past
 *	twice ANATT (the controller's: reset it); runs from the timer
 */
void rblk_ana_init(struct rblk_ctrl *ctrl,
		   void (*anatt_expired)(struct timer_list *t))
{
	mutex_init(&ctrl->ana_lock);
	INIT_WORK(&ctrl->ana_work, rblk_ana_work);
	INIT_DELAYED_WORK(&ctrl->rest_work, rblk_rest_work);
	timer_setup(&ctrl->anatt_timer, anatt_expired, 0);
}

/**
 * rblk_ana_stop() - stop the ANA work and timer of a controller that goes
 *	down (reset or delete), as nvme_mpath_stop()
 * @ctrl: controller whose admin queue no longer serves
 *
 * The reconnect reads the log again, and arms the timer again if a group
 * still changes.
 */
void rblk_ana_stop(struct rblk_ctrl *ctrl)
{
	cancel_work_sync(&ctrl->ana_work);
	rblk_path_rests_end(ctrl);
	/*
	 * Only ana_work and a connect's read arm it, and the expiry itself
	 * while the controller connects; timer_delete_sync() waits for that.
	 */
	timer_delete_sync(&ctrl->anatt_timer);
}

/**
 * rblk_ana_free() - free a released controller's ANA log
 * @ctrl: controller whose admin teardown cancelled @ctrl->ana_work
 */
void rblk_ana_free(struct rblk_ctrl *ctrl)
{
	WARN_ON_ONCE(timer_pending(&ctrl->anatt_timer));
	/* As ana_work: stopped with the queues (rblk_ana_stop()). */
	WARN_ON_ONCE(delayed_work_pending(&ctrl->rest_work));
	kvfree(ctrl->ana_log);
	mutex_destroy(&ctrl->ana_lock);
}
