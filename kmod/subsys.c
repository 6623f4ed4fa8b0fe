// SPDX-License-Identifier: GPL-2.0
/*
 * rblk subsystems: the controllers to one NVM subsystem are paths to the
 * same namespaces (Documentation/multipath.rst), whatever host NQN each
 * connected with: as nvme-core, a subsystem is known by its NQN alone.
 *
 * A controller binds to its subsystem when Identify Controller is read on
 * its first association (&rblk_ctrl_ops.identified), creating the
 * subsystem; it unbinds when it is torn down, and the last controller to
 * leave unregisters the subsystem.  As nvme-core: a controller id that
 * another live controller of the subsystem has, or a second controller of
 * a subsystem whose CMIC does not allow several, is refused at the first
 * connect; a reconnect must find the same subsystem NQN, and refreshes the
 * firmware revision.
 *
 * Namespace identifiers are checked here as nvme-core checks them: a new
 * namespace reporting an identifier of another namespace of its
 * subsystem (another NSID) or of any other subsystem is refused.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/idr.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "rblk.h"

/* Subsystems with a reference, by subsystem NQN. */
static LIST_HEAD(rblk_subsys_list);
static DEFINE_MUTEX(rblk_subsys_mutex);
static DEFINE_IDA(rblk_subsys_ida);

const char * const rblk_iopolicy_names[__RBLK_IOPOLICY_MAX] =
	RBLK_IOPOLICY_NAMES;

/* The policy of new subsystems; sysfs changes each one's (as nvme_core). */
static int rblk_iopolicy = RBLK_IOPOLICY_NUMA;

/**
 * rblk_iopolicy_parse() - an I/O policy by its name
 * @buf: "numa", "round-robin" or "queue-depth", a trailing newline allowed
 *
 * Return: the &enum rblk_iopolicy, or -EINVAL.
 */
int rblk_iopolicy_parse(const char *buf)
{
	int policy = sysfs_match_string(rblk_iopolicy_names, buf);

	return policy < 0 ? -EINVAL : policy;
}

static int rblk_iopolicy_param_set(const char *val,
				   const struct kernel_param *kp)
{
	int policy = rblk_iopolicy_parse(val);

	if (policy < 0)
		return policy;
	WRITE_ONCE(*(int *)kp->arg, policy);
	return 0;
}

static int rblk_iopolicy_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n",
			  rblk_iopolicy_names[READ_ONCE(*(int *)kp->arg)]);
}

static const struct kernel_param_ops rblk_iopolicy_param_ops = {
	.set = rblk_iopolicy_param_set,
	.get = rblk_iopolicy_param_get,
};
module_param_cb(iopolicy, &rblk_iopolicy_param_ops, &rblk_iopolicy, 0644);
MODULE_PARM_DESC(iopolicy,
		 "I/O policy of new subsystems with multipath: numa (default), round-robin or queue-depth");

static void rblk_subsys_release(struct device *dev)
{
	struct rblk_subsys *subsys = container_of(dev, struct rblk_subsys, dev);

	if (subsys->instance >= 0)
		ida_free(&rblk_subsys_ida, subsys->instance);
	mutex_destroy(&subsys->lock);
	kfree(subsys);
}

/* Called with rblk_subsys_mutex held, by kref_put_mutex(); releases it. */
static void rblk_subsys_free(struct kref *ref)
{
	struct rblk_subsys *subsys = container_of(ref, struct rblk_subsys, ref);

	list_del(&subsys->entry);
	mutex_unlock(&rblk_subsys_mutex);
	WARN_ON_ONCE(!list_empty(&subsys->ctrls));
	WARN_ON_ONCE(!list_empty(&subsys->heads));
	WARN_ON_ONCE(!list_empty(&subsys->nss));
	device_del(&subsys->dev);
	put_device(&subsys->dev);
}

/**
 * rblk_subsys_get() - take another reference to a subsystem
 * @subsys: subsystem, referenced by the caller
 */
void rblk_subsys_get(struct rblk_subsys *subsys)
{
	kref_get(&subsys->ref);
}

/**
 * rblk_subsys_put() - drop a subsystem reference
 * @subsys: subsystem; the last reference unregisters it
 */
void rblk_subsys_put(struct rblk_subsys *subsys)
{
	kref_put_mutex(&subsys->ref, rblk_subsys_free, &rblk_subsys_mutex);
}

/* Under rblk_subsys_mutex: a listed subsystem's reference is never zero. */
static struct rblk_subsys *__rblk_subsys_find(const char *subnqn)
{
	struct rblk_subsys *subsys;

	lockdep_assert_held(&rblk_subsys_mutex);
	list_for_each_entry(subsys, &rblk_subsys_list, entry) {
		if (!strcmp(subsys->subnqn, subnqn)) {
			kref_get(&subsys->ref);
			return subsys;
		}
	}
	return NULL;
}

/*
 * The subsystem of @ctrl's SUBNQN, with a reference: the
 * listed one, or a new one registered with the first controller's
 * identity.  Created under the mutex, so that two controllers connecting
 * at once find the same.
 */
static struct rblk_subsys *rblk_subsys_lookup_or_add(struct rblk_ctrl *ctrl)
{
	struct rblk_subsys *subsys, *found;
	int ret;

	subsys = kzalloc(sizeof(*subsys), GFP_KERNEL);
	if (!subsys)
		return ERR_PTR(-ENOMEM);
	kref_init(&subsys->ref);
	mutex_init(&subsys->lock);
	INIT_LIST_HEAD(&subsys->ctrls);
	INIT_LIST_HEAD(&subsys->heads);
	INIT_LIST_HEAD(&subsys->nss);
	strscpy(subsys->subnqn, ctrl->subnqn, sizeof(subsys->subnqn));
	memcpy(subsys->serial, ctrl->serial, sizeof(subsys->serial));
	memcpy(subsys->model, ctrl->model, sizeof(subsys->model));
	memcpy(subsys->firmware, ctrl->firmware, sizeof(subsys->firmware));
	subsys->iopolicy = READ_ONCE(rblk_iopolicy);
	device_initialize(&subsys->dev);
	subsys->dev.class = rblk_subsys_class;
	subsys->dev.groups = rblk_subsys_groups;
	subsys->dev.release = rblk_subsys_release;
	subsys->instance = -1;

	mutex_lock(&rblk_subsys_mutex);
	found = __rblk_subsys_find(subsys->subnqn);
	if (found) {
		mutex_unlock(&rblk_subsys_mutex);
		put_device(&subsys->dev);
		return found;
	}
	ret = ida_alloc(&rblk_subsys_ida, GFP_KERNEL);
	if (ret < 0)
		goto out_unlock;
	subsys->instance = ret;
	ret = dev_set_name(&subsys->dev, "rblk-subsys%d", subsys->instance) ?:
	      device_add(&subsys->dev);
	if (ret)
		goto out_unlock;
	list_add_tail(&subsys->entry, &rblk_subsys_list);
	mutex_unlock(&rblk_subsys_mutex);
	return subsys;

out_unlock:
	mutex_unlock(&rblk_subsys_mutex);
	/* The release frees the index, if any. */
	put_device(&subsys->dev);
	return ERR_PTR(ret);
}

/*
 * Whether @ctrl may be a path of @subsys next to the controllers already
 * bound (not those being deleted or given up), as nvme_validate_cntlid().
 * Only a live peer's id counts: one that lost its association keeps the
 * id the target has freed and may give @ctrl.  Caller holds @subsys->lock.
 */
static int rblk_subsys_check(struct rblk_subsys *subsys,
			     struct rblk_ctrl *ctrl, const char **errmsg)
{
	struct rblk_ctrl *pos;

	lockdep_assert_held(&subsys->lock);
	list_for_each_entry(pos, &subsys->ctrls, subsys_entry) {
		enum rblk_state state = rblk_ctrl_state(pos);

		if (pos == ctrl || rblk_state_leaving(state))
			continue;
		/* A peer's id changes only when it reconnects: a snapshot. */
		if (state == RBLK_STATE_LIVE &&
		    READ_ONCE(pos->cntlid) == ctrl->cntlid) {
			rblk_err(ctrl, "Duplicate cntlid %u with %s, subsys %s, rejecting\n",
				 ctrl->cntlid, pos->name, subsys->subnqn);
			*errmsg = "duplicate controller id in the subsystem";
			return -EINVAL;
		}
		if (!(ctrl->mpath.cmic & NVME_CTRL_CMIC_MULTI_CTRL)) {
			rblk_err(ctrl, "Subsystem %s does not support multiple controllers (%s is one), rejecting\n",
				 subsys->subnqn, pos->name);
			*errmsg = "subsystem not multi-controller capable";
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * A reconnect: the same subsystem.  As nvme-core, the controller id is
 * not checked again: the association it was checked for is gone, and a
 * peer reconnecting at the same time may hold the id the target now gives.
 */
static int rblk_subsys_rebind(struct rblk_ctrl *ctrl, const char **errmsg)
{
	struct rblk_subsys *subsys = ctrl->subsys;

	if (strcmp(ctrl->subnqn, subsys->subnqn)) {
		rblk_err(ctrl, "subsystem NQN changed from %s to %s, rejecting\n",
			 subsys->subnqn, ctrl->subnqn);
		*errmsg = "subsystem NQN changed";
		return -EINVAL;
	}
	/* A firmware update shows, as in nvme_init_subsystem(). */
	mutex_lock(&subsys->lock);
	memcpy(subsys->firmware, ctrl->firmware, sizeof(subsys->firmware));
	mutex_unlock(&subsys->lock);
	return 0;
}

/**
 * rblk_subsys_bind() - make a controller a path of its subsystem
 * @ctrl: controller whose Identify Controller was just read
 * @errmsg: set to a static reason on failure
 *
 * At every connect of a non-discovery controller.  The first binds it,
 * creating the subsystem; a reconnect checks that the binding still
 * holds.  The controller stays bound until rblk_subsys_unbind(), also
 * after a failed reconnect.
 *
 * Return: 0, -EINVAL if the subsystem refuses the controller, or another
 * negative errno if it could not be registered.
 */
int rblk_subsys_bind(struct rblk_ctrl *ctrl, const char **errmsg)
{
	struct rblk_subsys *subsys;
	int ret;

	if (ctrl->subsys)
		return rblk_subsys_rebind(ctrl, errmsg);

	subsys = rblk_subsys_lookup_or_add(ctrl);
	if (IS_ERR(subsys)) {
		*errmsg = "failed to register the subsystem";
		return PTR_ERR(subsys);
	}
	mutex_lock(&subsys->lock);
	ret = rblk_subsys_check(subsys, ctrl, errmsg);
	if (!ret)
		list_add_tail(&ctrl->subsys_entry, &subsys->ctrls);
	mutex_unlock(&subsys->lock);
	if (ret) {
		rblk_subsys_put(subsys);
		return ret;
	}
	mutex_lock(&rblk_subsys_mutex);
	ctrl->subsys = subsys;
	mutex_unlock(&rblk_subsys_mutex);
	/* As nvme: a missing link is only a nuisance. */
	if (sysfs_create_link(&subsys->dev.kobj, &ctrl->dev.kobj,
			      dev_name(&ctrl->dev)))
		rblk_warn(ctrl, "failed to link %s to its controllers\n",
			  dev_name(&subsys->dev));
	rblk_dbg(ctrl, "path of %s (%s)\n", dev_name(&subsys->dev),
		 subsys->subnqn);
	return 0;
}

/**
 * rblk_subsys_nr_paths() - how many controllers a subsystem has now
 * @subsys: subsystem
 *
 * Those bound and not being deleted or given up.
 *
 * Return: the number, a snapshot.
 */
unsigned int rblk_subsys_nr_paths(struct rblk_subsys *subsys)
{
	struct rblk_ctrl *pos;
	unsigned int nr = 0;

	mutex_lock(&subsys->lock);
	list_for_each_entry(pos, &subsys->ctrls, subsys_entry)
		nr += !rblk_state_leaving(rblk_ctrl_state(pos));
	mutex_unlock(&subsys->lock);
	return nr;
}

/**
 * rblk_subsys_unbind() - take a controller off its subsystem
 * @ctrl: controller being torn down, no connect running, before its
 *	device is deleted; not bound is fine
 *
 * The last controller to leave unregisters the subsystem.
 */
void rblk_subsys_unbind(struct rblk_ctrl *ctrl)
{
	struct rblk_subsys *subsys = ctrl->subsys;

	if (!subsys)
		return;
	sysfs_remove_link(&subsys->dev.kobj, dev_name(&ctrl->dev));
	mutex_lock(&subsys->lock);
	list_del_init(&ctrl->subsys_entry);
	mutex_unlock(&subsys->lock);
	mutex_lock(&rblk_subsys_mutex);
	ctrl->subsys = NULL;
	mutex_unlock(&rblk_subsys_mutex);
	rblk_subsys_put(subsys);
}

/**
 * rblk_ctrl_get_subsys() - the subsystem a controller is a path of
 * @ctrl: controller, referenced by the caller
 *
 * Return: the subsystem, referenced (give it back with rblk_subsys_put()),
 * or NULL before the controller's first Identify and after its teardown.
 */
struct rblk_subsys *rblk_ctrl_get_subsys(struct rblk_ctrl *ctrl)
{
	struct rblk_subsys *subsys;

	/* The binding holds its reference until it is cleared. */
	mutex_lock(&rblk_subsys_mutex);
	subsys = ctrl->subsys;
	if (subsys)
		kref_get(&subsys->ref);
	mutex_unlock(&rblk_subsys_mutex);
	return subsys;
}

/**
 * rblk_subsys_get_other_ctrls() - the other live controllers of a
 *	controller's subsystem
 * @ctrl: controller, referenced by the caller
 * @nr: set to the number returned
 *
 * For a command that changes what every path of the subsystem sees (a
 * Format NVM, a Sanitize): their namespaces are frozen around it and
 * scanned again after it.  A controller not live now (connecting, being
 * deleted) is left out: its I/O is held or failed anyway, and its next
 * connect reads the namespaces again.
 *
 * Return: the controllers, each referenced (give them back with
 * rblk_ctrls_put()), NULL if there are none (@nr 0), or
 * ERR_PTR(-ENOMEM).
 */
struct rblk_ctrl **rblk_subsys_get_other_ctrls(struct rblk_ctrl *ctrl,
					       unsigned int *nr)
{
	struct rblk_subsys *subsys = rblk_ctrl_get_subsys(ctrl);
	struct rblk_ctrl **ctrls = NULL, *pos;
	unsigned int n = 0;

	*nr = 0;
	if (!subsys)
		return NULL;
	mutex_lock(&subsys->lock);
	list_for_each_entry(pos, &subsys->ctrls, subsys_entry)
		n += pos != ctrl;
	mutex_unlock(&subsys->lock);
	if (n) {
		ctrls = kcalloc(n, sizeof(*ctrls), GFP_KERNEL);
		if (!ctrls) {
			rblk_subsys_put(subsys);
			return ERR_PTR(-ENOMEM);
		}
		/* Those bound meanwhile are left out: they read the new format. */
		mutex_lock(&subsys->lock);
		list_for_each_entry(pos, &subsys->ctrls, subsys_entry) {
			if (*nr == n)
				break;
			if (pos == ctrl ||
			    rblk_ctrl_state(pos) != RBLK_STATE_LIVE)
				continue;
			rblk_ctrl_get(pos);
			ctrls[(*nr)++] = pos;
		}
		mutex_unlock(&subsys->lock);
	}
	rblk_subsys_put(subsys);
	if (ctrls && !*nr) {
		kfree(ctrls);
		ctrls = NULL;
	}
	return ctrls;
}

/**
 * rblk_ctrls_put() - give back rblk_subsys_get_other_ctrls()'s controllers
 * @ctrls: what it returned
 * @nr: how many
 */
void rblk_ctrls_put(struct rblk_ctrl **ctrls, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		rblk_ctrl_put(ctrls[i]);
	kfree(ctrls);
}

/**
 * rblk_subsys_next() - walk the subsystems by instance
 * @instance: in: the lowest instance K wanted; out: the one found
 *
 * For dumps: a subsystem that comes or goes meanwhile may or may not be
 * seen, the others are seen once.
 *
 * Return: the listed subsystem with the lowest instance at or above
 * *@instance, referenced (give it back with rblk_subsys_put()), or NULL.
 */
struct rblk_subsys *rblk_subsys_next(int *instance)
{
	struct rblk_subsys *subsys, *found = NULL;

	mutex_lock(&rblk_subsys_mutex);
	list_for_each_entry(subsys, &rblk_subsys_list, entry) {
		if (subsys->instance >= *instance &&
		    (!found || subsys->instance < found->instance))
			found = subsys;
	}
	if (found) {
		kref_get(&found->ref);
		*instance = found->instance;
	}
	mutex_unlock(&rblk_subsys_mutex);
	return found;
}

/**
 * rblk_subsys_find() - a subsystem by its name
 * @name: "rblk-subsysK"
 *
 * Return: the subsystem, referenced (give it back with rblk_subsys_put()),
 * or NULL if none has that name.
 */
struct rblk_subsys *rblk_subsys_find(const char *name)
{
	struct rblk_subsys *subsys, *found = NULL;

	mutex_lock(&rblk_subsys_mutex);
	list_for_each_entry(subsys, &rblk_subsys_list, entry) {
		if (!strcmp(dev_name(&subsys->dev), name)) {
			kref_get(&subsys->ref);
			found = subsys;
			break;
		}
	}
	mutex_unlock(&rblk_subsys_mutex);
	return found;
}

/**
 * rblk_subsys_firmware() - a subsystem's firmware revision, as last seen
 * @subsys: subsystem
 * @buf: filled in, NUL-terminated
 * @len: size of @buf
 */
void rblk_subsys_firmware(struct rblk_subsys *subsys, char *buf, size_t len)
{
	mutex_lock(&subsys->lock);
	strscpy(buf, subsys->firmware, len);
	mutex_unlock(&subsys->lock);
}

/**
 * rblk_subsys_walk_ctrls() - call @fn for each controller of a subsystem
 * @subsys: subsystem, referenced by the caller
 * @arg: passed to @fn
 * @fn: called under @subsys->lock (it must not take it, nor sleep for
 *	long) with each bound controller, in the order they bound; a
 *	non-zero return stops the walk
 *
 * Return: the first non-zero return of @fn, or 0.
 */
int rblk_subsys_walk_ctrls(struct rblk_subsys *subsys, void *arg,
			   int (*fn)(struct rblk_ctrl *ctrl, void *arg))
{
	struct rblk_ctrl *ctrl;
	int ret = 0;

	mutex_lock(&subsys->lock);
	list_for_each_entry(ctrl, &subsys->ctrls, subsys_entry) {
		ret = fn(ctrl, arg);
		if (ret)
			break;
	}
	mutex_unlock(&subsys->lock);
	return ret;
}

/**
 * rblk_subsys_set_iopolicy() - choose how a subsystem's heads pick paths
 * @subsys: subsystem
 * @iopolicy: &enum rblk_iopolicy, valid
 *
 * Takes effect with the next bio; a request in flight under queue-depth
 * still leaves its controller's count when it ends.  The heads' cached
 * paths are rblk_mpath_set_iopolicy()'s to clear.
 */
void rblk_subsys_set_iopolicy(struct rblk_subsys *subsys, int iopolicy)
{
	int old = xchg(&subsys->iopolicy, iopolicy);

	if (old != iopolicy) {
		pr_notice("%s: iopolicy changed from %s to %s\n",
			  dev_name(&subsys->dev), rblk_iopolicy_names[old],
			  rblk_iopolicy_names[iopolicy]);
		rblk_notify_subsys(subsys, RBLK_EVENT_IOPOLICY_CHANGED);
	}
}

/*
 * Whether a namespace of @subsys other than @nsid (0: any) reports one of
 * @ids, as nvme_subsys_check_duplicate_ids(): with multipath a head (the
 * last path's removal takes it off the list), without one a namespace of
 * a controller of @subsys that is not being removed (a namespace's
 * identifiers never change: one of another identity is replaced).
 * Caller holds @subsys->lock.
 */
static bool rblk_subsys_has_ids(struct rblk_subsys *subsys, u32 nsid,
				const struct rblk_ns_ids *ids)
{
	struct rblk_head *head;
	struct rblk_ns *ns;

	lockdep_assert_held(&subsys->lock);
	list_for_each_entry(head, &subsys->heads, entry) {
		if (head->nsid != nsid && rblk_ns_ids_overlap(ids, &head->ids))
			return true;
	}
	list_for_each_entry(ns, &subsys->nss, subsys_entry) {
		if (ns->nsid != nsid && rblk_ns_ids_overlap(ids, &ns->info.ids))
			return true;
	}
	return false;
}

/**
 * rblk_subsys_check_global_ids() - whether a namespace's identifiers are
 *	another subsystem's
 * @ctrl: the namespace's controller, bound
 * @nsid: its id
 * @ids: what Identify said
 *
 * nvme_global_check_duplicate_ids(), for every new namespace: an
 * identifier another subsystem's namespace reports means two names for
 * one disk, or a broken target.  nvme-core refuses such a namespace on
 * fabrics (it clears the identifiers, NVME_QUIRK_BOGUS_NID, of a
 * single-ported PCIe device only); so does rblk, with its messages.  As
 * nvme's, racy against another subsystem's scan: a sanity check, without
 * a global lock over every namespace's creation.  No lock held.
 *
 * Return: 0, or -EINVAL if refused.
 */
int rblk_subsys_check_global_ids(struct rblk_ctrl *ctrl, u32 nsid,
				 const struct rblk_ns_ids *ids)
{
	struct rblk_subsys *subsys;
	bool found = false;

	if (rblk_ns_ids_empty(ids))
		return 0;
	mutex_lock(&rblk_subsys_mutex);
	list_for_each_entry(subsys, &rblk_subsys_list, entry) {
		if (subsys == ctrl->subsys)
			continue;
		mutex_lock(&subsys->lock);
		found = rblk_subsys_has_ids(subsys, 0, ids);
		mutex_unlock(&subsys->lock);
		if (found)
			break;
	}
	mutex_unlock(&rblk_subsys_mutex);
	if (!found)
		return 0;
	rblk_err(ctrl, "VID:%04x model:%s firmware:%s\n", ctrl->vid,
		 ctrl->subsys->model, ctrl->firmware);
	rblk_err(ctrl, "ignoring nsid %u because of duplicate IDs\n", nsid);
	return -EINVAL;
}

/**
 * rblk_subsys_check_ids() - whether a namespace's identifiers are those
 *	of another namespace of its subsystem
 * @ctrl: the namespace's controller, bound
 * @nsid: its id
 * @ids: what Identify said
 *
 * nvme_subsys_check_duplicate_ids() for a namespace with no head yet:
 * another NSID reporting one of its identifiers is refused, with
 * nvme-core's message.  Caller holds the subsystem's lock, and adds the
 * head (or namespace) under it.
 *
 * Return: 0, or -EINVAL if refused.
 */
int rblk_subsys_check_ids(struct rblk_ctrl *ctrl, u32 nsid,
			  const struct rblk_ns_ids *ids)
{
	if (!rblk_subsys_has_ids(ctrl->subsys, nsid, ids))
		return 0;
	rblk_err(ctrl, "duplicate IDs in subsystem for nsid %u\n", nsid);
	return -EINVAL;
}

/**
 * rblk_subsys_add_ns() - put a new namespace without a head on its
 *	controller's list, unless its identifiers are taken
 * @ctrl: controller, bound
 * @ns: namespace, not on the list
 *
 * Without multipath: rblk_subsys_check_ids() and the addition under the
 * subsystem's lock, so that two controllers' scans do not both add a
 * namespace with one identifier.
 *
 * Return: 0, or -EINVAL if refused.
 */
int rblk_subsys_add_ns(struct rblk_ctrl *ctrl, struct rblk_ns *ns)
{
	struct rblk_subsys *subsys = ctrl->subsys;
	int ret;

	mutex_lock(&subsys->lock);
	ret = rblk_subsys_check_ids(ctrl, ns->nsid, &ns->info.ids);
	if (!ret)
		list_add_tail(&ns->subsys_entry, &subsys->nss);
	mutex_unlock(&subsys->lock);
	if (!ret)
		rblk_ctrl_add_ns(ctrl, ns);
	return ret;
}

/**
 * rblk_subsys_del_ns() - a namespace without a head no longer holds its
 *	identifiers in its subsystem
 * @ns: namespace being removed or abandoned (nothing if never added)
 */
void rblk_subsys_del_ns(struct rblk_ns *ns)
{
	struct rblk_subsys *subsys = ns->ctrl->subsys;

	if (list_empty_careful(&ns->subsys_entry))
		return;
	mutex_lock(&subsys->lock);
	list_del_init(&ns->subsys_entry);
	mutex_unlock(&subsys->lock);
}

/**
 * rblk_subsys_exit() - module exit, after every controller is gone
 */
void rblk_subsys_exit(void)
{
	WARN_ON_ONCE(!list_empty(&rblk_subsys_list));
	ida_destroy(&rblk_subsys_ida);
}
