// SPDX-License-Identifier: GPL-2.0
/*
 * rblk host: the registry of controllers, their names and the connect,
 * delete and lookup operations the control plane calls.
 *
 * A connect registers its controller before it connects, so that a
 * concurrent connect to the same target is refused and a disconnect can
 * find it.  While RBLK_CTRL_STARTING is set the connecting caller owns the
 * teardown: a disconnect then only moves the controller to DELETING, and
 * the connect notices and cleans up.
 *
 * The netlink handlers run under generic netlink's global cb_lock (read):
 * a wait there stalls every generic netlink request of the machine as soon
 * as some module registers a family.  So a connect returns once the
 * controller is live (the namespace scan runs in the background, as in
 * nvme-fabrics), and a disconnect only moves the controller to DELETING
 * and leaves the teardown, which waits for I/O, to delete_work.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/idr.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include "rblk.h"

/* Controller indexes; namespaces have their own (ns.c). */
/* One character device number per controller. */
#define RBLK_MAX_CTRL_INDEX	(RBLK_CTRL_MINORS - 1)

/*
 * The default host identity, fixed for the module's life: a target sees
 * the same host on every connect that does not name another.
 */
static char rblk_hostnqn[NVMF_NQN_SIZE + 1];
module_param_string(hostnqn, rblk_hostnqn, sizeof(rblk_hostnqn), 0444);
MODULE_PARM_DESC(hostnqn,
		 "default host NQN (default: nqn.2014-08.org.nvmexpress:uuid:<hostid>)");

static char rblk_hostid_str[UUID_STRING_LEN + 1];
module_param_string(hostid, rblk_hostid_str, sizeof(rblk_hostid_str), 0444);
MODULE_PARM_DESC(hostid,
		 "default host identifier, a UUID (default: the UUID of a UUID-form hostnqn, else random)");

static uuid_t rblk_hostid;

/* Identifiers drawn for other host NQNs: see rblk_default_hostid(). */
struct rblk_host_id {
	struct list_head entry;
	uuid_t id;
	char nqn[];
};
static LIST_HEAD(rblk_host_ids);
static DEFINE_MUTEX(rblk_host_ids_mutex);

static LIST_HEAD(rblk_ctrl_list);
static DEFINE_MUTEX(rblk_ctrl_mutex);
static DEFINE_IDA(rblk_ctrl_ida);

/* Teardowns of deleted controllers (delete_work), as nvme_delete_wq. */
static struct workqueue_struct *rblk_delete_wq;

static void rblk_host_delete_work(struct work_struct *work);

/**
 * rblk_opts_init() - connect options with every default filled in
 * @opts: options to initialise
 */
void rblk_opts_init(struct rblk_ctrl_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	strscpy(opts->trsvcid, "4420", sizeof(opts->trsvcid));
	strscpy(opts->hostnqn, rblk_hostnqn, sizeof(opts->hostnqn));
	uuid_copy(&opts->hostid, &rblk_hostid);
	opts->nr_io_queues = min_t(u32, num_online_cpus(), RBLK_MAX_IO_QUEUES);
	opts->queue_size = RBLK_DEF_QUEUE_SIZE;
	opts->kato = RBLK_DEF_KATO;
	opts->reconnect_delay = RBLK_DEF_RECONNECT;
	opts->ctrl_loss_tmo = RBLK_DEF_LOSS_TMO;
	opts->fast_io_fail_tmo = -1;
	opts->tos = -1;
}

/*
 * What nvme-cli calls a duplicate: same target port, source address,
 * subsystem and host.
 */
static bool rblk_opts_same_target(const struct rblk_ctrl_opts *a,
				  const struct rblk_ctrl_opts *b)
{
	return !strcmp(a->traddr, b->traddr) &&
	       !strcmp(a->trsvcid, b->trsvcid) &&
	       !strcmp(a->host_traddr, b->host_traddr) &&
	       !strcmp(a->subsysnqn, b->subsysnqn) &&
	       !strcmp(a->hostnqn, b->hostnqn);
}

static int rblk_opts_check(const struct rblk_ctrl_opts *o, const char **errmsg)
{
	if (!o->traddr[0]) {
		*errmsg = "transport address missing";
		return -EINVAL;
	}
	if (!rblk_nqn_valid(o->subsysnqn) || !rblk_nqn_valid(o->hostnqn)) {
		*errmsg = "an NQN must be 1-223 bytes";
		return -EINVAL;
	}
	if (o->discovery)
		return 0;
	if (o->nsid == NVME_NSID_ALL) {
		*errmsg = "invalid namespace id";
		return -EINVAL;
	}
	if (!o->nr_io_queues || o->nr_io_queues > RBLK_MAX_IO_QUEUES) {
		*errmsg = "nr_io_queues out of range";
		return -EINVAL;
	}
	if (o->nr_poll_queues > RBLK_MAX_POLL_QUEUES) {
		*errmsg = "nr_poll_queues out of range";
		return -EINVAL;
	}
	if (o->nr_write_queues > RBLK_MAX_WRITE_QUEUES) {
		*errmsg = "nr_write_queues out of range";
		return -EINVAL;
	}
	if (o->queue_size < RBLK_MIN_QUEUE_SIZE ||
	    o->queue_size > RBLK_MAX_QUEUE_SIZE) {
		*errmsg = "queue_size out of range";
		return -EINVAL;
	}
	if (!o->reconnect_delay) {
		*errmsg = "reconnect_delay must be at least 1 second";
		return -EINVAL;
	}
	return 0;
}

/* A controller of the options' target, ready for rblk_ctrl_start(). */
static struct rblk_ctrl *rblk_host_alloc(const struct rblk_ctrl_opts *opts,
					 const struct rblk_ctrl_ops *ops,
					 const char **errmsg)
{
	struct rblk_ctrl *ctrl;
	u16 port;
	int ret;

	ret = rblk_opts_check(opts, errmsg);
	if (ret)
		return ERR_PTR(ret);

	ctrl = rblk_ctrl_alloc(opts, ops);
	if (!ctrl) {
		*errmsg = "out of memory";
		return ERR_PTR(-ENOMEM);
	}
	rblk_ns_init_ctrl(ctrl);
	rblk_passthru_init(ctrl);
	INIT_WORK(&ctrl->delete_work, rblk_host_delete_work);
	if (rblk_parse_port(opts->trsvcid, &port) ||
	    rblk_parse_traddr(opts->traddr, port, opts->adrfam, &ctrl->addr)) {
		*errmsg = "invalid transport address or service id";
		goto out_put;
	}
	if (opts->host_traddr[0]) {
		struct sockaddr_in6 *src = (struct sockaddr_in6 *)&ctrl->src_addr;
		struct sockaddr_in6 *dst = (struct sockaddr_in6 *)&ctrl->addr;

		if (rblk_parse_traddr(opts->host_traddr, 0, opts->adrfam,
				      &ctrl->src_addr)) {
			*errmsg = "host_traddr is not an address of traddr's family";
			goto out_put;
		}
		/*
		 * With a source address the CM binds to its scope and ignores
		 * the target's: they must agree, and a link-local source needs
		 * one.
		 */
		if (src->sin6_family == AF_INET6 &&
		    (ipv6_addr_type(&src->sin6_addr) & IPV6_ADDR_LINKLOCAL) &&
		    !src->sin6_scope_id) {
			*errmsg = "a link-local host_traddr needs a scope (%interface)";
			goto out_put;
		}
		if (src->sin6_family == AF_INET6 && dst->sin6_scope_id &&
		    src->sin6_scope_id != dst->sin6_scope_id) {
			*errmsg = "host_traddr and traddr have different scopes";
			goto out_put;
		}
	}
	return ctrl;

out_put:
	rblk_ctrl_put(ctrl);
	return ERR_PTR(-EINVAL);
}

/* Take a controller off the list: lookups no longer find it. */
static void rblk_host_unregister(struct rblk_ctrl *ctrl)
{
	mutex_lock(&rblk_ctrl_mutex);
	if (test_and_clear_bit(RBLK_CTRL_REGISTERED, &ctrl->flags))
		list_del_init(&ctrl->entry);
	mutex_unlock(&rblk_ctrl_mutex);
}

/*
 * Everything after DELETING: end recovery, remove the disks (written back
 * if the controller serves), shut the controller down, leave the list and
 * sysfs.  Drops the list's reference.  Run once, by whoever moved the
 * controller to DELETING outside RBLK_CTRL_STARTING (delete_work), or by
 * the connect that found it DELETING or failed.  The controller stays on
 * the list (in DELETING) until its devices are gone, so that a tool
 * waiting for the disconnect sees it until then; its index is freed only
 * after it left the list.
 */
static void rblk_host_teardown(struct rblk_ctrl *ctrl)
{
	rblk_ctrl_stop_recovery(ctrl);
	rblk_ns_remove_all(ctrl);
	rblk_ctrl_stop(ctrl);
	/*
	 * An open /dev/rblk-ctrlM stays, but reaches no queue from here.
	 * Once stopped: the commands of the ioctls under way were cancelled
	 * (as nvme's teardown cancels the admin tag set), or fail as not
	 * ready (but see rblk_passthru_disable()).
	 */
	rblk_passthru_disable(ctrl);
	rblk_ctrl_free_queues(ctrl);
	rblk_host_unregister(ctrl);
	rblk_subsys_unbind(ctrl);
	rblk_notify(ctrl, NULL, RBLK_EVENT_REMOVED);
	cdev_device_del(&ctrl->cdev, &ctrl->dev);
	ida_free(&rblk_ctrl_ida, ctrl->index);
	rblk_ctrl_put(ctrl);
}

static void rblk_host_delete_work(struct work_struct *work)
{
	struct rblk_ctrl *ctrl = container_of(work, struct rblk_ctrl,
					      delete_work);

	rblk_host_teardown(ctrl);
}

static int rblk_host_register(struct rblk_ctrl *ctrl, const char **errmsg)
{
	struct rblk_ctrl *pos;
	int ret;

	mutex_lock(&rblk_ctrl_mutex);
	if (!ctrl->opts.duplicate_connect) {
		list_for_each_entry(pos, &rblk_ctrl_list, entry) {
			/* As nvme-fabrics: one being deleted is no duplicate. */
			if (rblk_ctrl_state(pos) == RBLK_STATE_DELETING)
				continue;
			if (rblk_opts_same_target(&pos->opts, &ctrl->opts)) {
				*errmsg = "already connected to this subsystem (use --duplicate-connect)";
				ret = -EALREADY;
				goto out_unlock;
			}
		}
	}
	ret = ida_alloc_max(&rblk_ctrl_ida, RBLK_MAX_CTRL_INDEX, GFP_KERNEL);
	if (ret < 0) {
		*errmsg = "no free device index";
		goto out_unlock;
	}
	ctrl->index = ret;
	snprintf(ctrl->name, sizeof(ctrl->name), RBLK_CTRL_NAME_PREFIX "%d",
		 ctrl->index);
	ctrl->dev.class = rblk_class;
	ctrl->dev.groups = rblk_ctrl_groups;
	/* /dev/rblk-ctrlM, root only (devtmpfs' default), as nvme's. */
	ctrl->dev.devt = rblk_ctrl_devt(ctrl->index);
	cdev_init(&ctrl->cdev, &rblk_ctrl_fops);
	ctrl->cdev.owner = THIS_MODULE;
	ret = dev_set_name(&ctrl->dev, "%s", ctrl->name) ?:
	      cdev_device_add(&ctrl->cdev, &ctrl->dev);
	if (ret) {
		*errmsg = "failed to register the controller device";
		ida_free(&rblk_ctrl_ida, ctrl->index);
		ctrl->index = -1;
		goto out_unlock;
	}
	/* The list holds one reference, the caller keeps its own. */
	rblk_ctrl_get(ctrl);
	set_bit(RBLK_CTRL_STARTING, &ctrl->flags);
	set_bit(RBLK_CTRL_REGISTERED, &ctrl->flags);
	list_add_tail(&ctrl->entry, &rblk_ctrl_list);
	ret = 0;
out_unlock:
	mutex_unlock(&rblk_ctrl_mutex);
	return ret;
}

/**
 * rblk_host_connect() - connect to a subsystem
 * @opts: connect options
 * @errmsg: set to a static reason on failure
 * @refusal: set to what the target refused (the Fabrics Connect's or an
 *	authentication command's status, the DH-HMAC-CHAP reason), on such a
 *	failure
 *
 * Returns once the controller is live, as nvme-fabrics does: the first
 * namespace scan runs in the background and announces each block device
 * it creates (%RBLK_EVENT_NS_ADDED); &rblk_ctrl.first_scan tells when it
 * is done (%RBLK_ATTR_SCANNED).  Whether a namespace asked for with
 * @opts->nsid exists is known only then: the caller's to check.
 *
 * Return: the live controller with a reference for the caller, or an
 * ERR_PTR: -EINVAL, -EALREADY, -ECONNREFUSED, -ECONNRESET, -ENOENT,
 * -EACCES, -EHOSTUNREACH, -ENETUNREACH, -ETIMEDOUT, -ENODEV, -ENOMEM,
 * -ECANCELED (disconnected meanwhile) or -EINTR (a fatal signal: netlink
 * sends no answer for -EINTR, which only a dying caller can do without).
 */
struct rblk_ctrl *rblk_host_connect(const struct rblk_ctrl_opts *opts,
				    const char **errmsg,
				    struct rblk_refusal *refusal)
{
	struct rblk_ctrl *ctrl;
	bool deleted;
	int ret;

	ctrl = rblk_host_alloc(opts, &rblk_ns_ctrl_ops, errmsg);
	if (IS_ERR(ctrl))
		return ctrl;
	ret = rblk_host_register(ctrl, errmsg);
	if (ret) {
		rblk_ctrl_put(ctrl);
		return ERR_PTR(ret);
	}
	rblk_notify(ctrl, NULL, RBLK_EVENT_ADDED);

	ret = rblk_ctrl_start(ctrl, errmsg);
	/* While STARTING keeps a delete from tearing down under us. */
	if (!ret)
		rblk_passthru_enable(ctrl);

	/*
	 * A delete that comes after this finds the controller either LIVE
	 * (and tears it down itself) or DELETING (and leaves it to us).
	 */
	mutex_lock(&rblk_ctrl_mutex);
	clear_bit(RBLK_CTRL_STARTING, &ctrl->flags);
	deleted = rblk_ctrl_state(ctrl) == RBLK_STATE_DELETING;
	if (ret && !deleted)
		rblk_change_state(ctrl, RBLK_STATE_DELETING);
	mutex_unlock(&rblk_ctrl_mutex);
	if (!ret && deleted) {
		/* Live already: its scan may be adding disks, wait for none. */
		*errmsg = "disconnected while connecting";
		queue_work(rblk_delete_wq, &ctrl->delete_work);
		rblk_ctrl_put(ctrl);
		return ERR_PTR(-ECANCELED);
	}
	if (ret) {
		*refusal = ctrl->refusal;
		/* Never live, so no namespace: no block I/O to wait for. */
		rblk_host_teardown(ctrl);
		rblk_ctrl_put(ctrl);
		return ERR_PTR(ret);
	}
	return ctrl;
}

/**
 * rblk_host_delete() - start disconnecting a controller
 * @ctrl: controller, referenced by the caller
 *
 * Moves it to DELETING and returns: the removal of its devices and its
 * shutdown, which wait for I/O, run in delete_work, and the controller
 * stays listed (DELETING) until they are done.
 *
 * Return: 0, or -EALREADY if another caller is deleting it.
 */
int rblk_host_delete(struct rblk_ctrl *ctrl)
{
	bool starting;

	mutex_lock(&rblk_ctrl_mutex);
	if (!test_bit(RBLK_CTRL_REGISTERED, &ctrl->flags) ||
	    !rblk_change_state(ctrl, RBLK_STATE_DELETING)) {
		mutex_unlock(&rblk_ctrl_mutex);
		return -EALREADY;
	}
	starting = test_bit(RBLK_CTRL_STARTING, &ctrl->flags);
	mutex_unlock(&rblk_ctrl_mutex);

	rblk_info(ctrl, "disconnecting\n");
	/* No first scan is to come: say so to a waiter at once (SCANNED). */
	complete_all(&ctrl->first_scan);
	/* The connecting caller sees DELETING and tears down. */
	if (!starting)
		queue_work(rblk_delete_wq, &ctrl->delete_work);
	return 0;
}

/**
 * rblk_ctrl_find() - look a controller up by index or name
 * @index: index M of rblk-ctrlM, or negative to match by @name
 * @name: "rblk-ctrlM", used when @index is negative
 *
 * Return: the controller with a reference, or NULL.
 */
struct rblk_ctrl *rblk_ctrl_find(int index, const char *name)
{
	struct rblk_ctrl *ctrl, *found = NULL;

	mutex_lock(&rblk_ctrl_mutex);
	list_for_each_entry(ctrl, &rblk_ctrl_list, entry) {
		if (index >= 0 ? ctrl->index == index :
				 (name && !strcmp(ctrl->name, name))) {
			rblk_ctrl_get(ctrl);
			found = ctrl;
			break;
		}
	}
	mutex_unlock(&rblk_ctrl_mutex);
	return found;
}

/**
 * rblk_ctrl_next() - the controller with the lowest index at or above
 *	*@index
 * @index: cursor; set to the index of the controller returned
 *
 * Return: the controller with a reference, or NULL at the end.
 */
struct rblk_ctrl *rblk_ctrl_next(int *index)
{
	struct rblk_ctrl *ctrl, *found = NULL;

	mutex_lock(&rblk_ctrl_mutex);
	list_for_each_entry(ctrl, &rblk_ctrl_list, entry) {
		if (ctrl->index >= *index &&
		    (!found || ctrl->index < found->index))
			found = ctrl;
	}
	if (found) {
		rblk_ctrl_get(found);
		*index = found->index;
	}
	mutex_unlock(&rblk_ctrl_mutex);
	return found;
}

/* @ctrl's visible namespace of that index or name, referenced, or NULL. */
static struct rblk_ns *rblk_ns_find_on(struct rblk_ctrl *ctrl, int index,
				       const char *name)
{
	struct rblk_ns *ns, *found = NULL;

	down_read(&ctrl->namespaces_rwsem);
	list_for_each_entry(ns, &ctrl->namespaces, entry) {
		if (!rblk_ns_visible(ns))
			continue;
		if (index >= 0 ? ns->index == index :
				 (name && !strcmp(ns->name, name))) {
			kref_get(&ns->ref);
			found = ns;
			break;
		}
	}
	up_read(&ctrl->namespaces_rwsem);
	return found;
}

/**
 * rblk_ns_find() - look a namespace device up by index or name
 * @on: only on this controller, or NULL for any
 * @index: N of rblkN, or negative to match by @name
 * @name: "rblkN", used when @index is negative
 *
 * With multipath, several controllers have a namespace (path) of the
 * same name: without @on, one whose controller is not being deleted or
 * dead is preferred.
 *
 * Return: the namespace with a reference (rblk_ns_put()), or NULL.  A
 * namespace being removed is not found.
 */
struct rblk_ns *rblk_ns_find(struct rblk_ctrl *on, int index, const char *name)
{
	struct rblk_ns *ns, *found = NULL;
	struct rblk_ctrl *ctrl;
	int ci = 0;

	if (on)
		return rblk_ns_find_on(on, index, name);
	/*
	 * Not under rblk_ctrl_mutex: a controller in recovery may hold its
	 * namespaces_rwsem for long, and must not stall every other one.
	 */
	while ((ctrl = rblk_ctrl_next(&ci))) {
		ns = rblk_ns_find_on(ctrl, index, name);
		rblk_ctrl_put(ctrl);
		ci++;
		if (!ns)
			continue;
		/* A match found before is on a leaving controller. */
		if (found) {
			if (rblk_state_leaving(rblk_ctrl_state(ns->ctrl))) {
				rblk_ns_put(ns);
				continue;
			}
			rblk_ns_put(found);
		}
		found = ns;
		if (!rblk_state_leaving(rblk_ctrl_state(found->ctrl)))
			break;
	}
	return found;
}

/**
 * rblk_discover() - read the discovery log of a discovery controller
 * @opts: address of the discovery controller; an empty subsystem NQN means
 *	the well-known discovery NQN
 * @max: records to read at most
 * @log: filled in; the caller kvfree()s @log->entries
 * @errmsg: set to a static reason on failure
 * @refusal: set to what the target refused (the Fabrics Connect's or an
 *	authentication command's status, the DH-HMAC-CHAP reason), on such a
 *	failure
 *
 * Return: 0 or a negative errno.
 */
int rblk_discover(const struct rblk_ctrl_opts *opts, u32 max,
		  struct rblk_disc_log *log, const char **errmsg,
		  struct rblk_refusal *refusal)
{
	static const struct rblk_ctrl_ops disc_ops = {
		.admin_mq_ops	= &rblk_admin_mq_ops,
	};
	struct rblk_ctrl_opts o = *opts;
	struct rblk_ctrl *ctrl;
	int ret;

	o.discovery = true;
	o.kato = 0;
	o.nr_io_queues = 0;
	o.nsid = 0;
	if (!o.subsysnqn[0])
		strscpy(o.subsysnqn, NVME_DISC_SUBSYS_NAME, sizeof(o.subsysnqn));

	ctrl = rblk_host_alloc(&o, &disc_ops, errmsg);
	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);
	ret = rblk_ctrl_start(ctrl, errmsg);
	if (!ret) {
		ret = rblk_get_disc_log(ctrl, max, log);
		if (ret)
			*errmsg = "failed to read the discovery log page";
	} else {
		*refusal = ctrl->refusal;
	}
	rblk_change_state(ctrl, RBLK_STATE_DELETING);
	rblk_ctrl_stop_recovery(ctrl);
	rblk_ctrl_teardown(ctrl);
	rblk_ctrl_put(ctrl);
	return ret;
}

/**
 * rblk_host_init() - set the default host identity
 *
 * Return: 0, -EINVAL if a module parameter is malformed, or -ENOMEM.
 */
int rblk_host_init(void)
{
	if (rblk_hostid_str[0]) {
		if (uuid_parse(rblk_hostid_str, &rblk_hostid)) {
			pr_err("hostid=%s is not a UUID\n", rblk_hostid_str);
			return -EINVAL;
		}
	} else if (!rblk_hostnqn_uuid(rblk_hostnqn, &rblk_hostid)) {
		uuid_gen(&rblk_hostid);
	}
	if (!rblk_hostnqn[0])
		snprintf(rblk_hostnqn, sizeof(rblk_hostnqn),
			 RBLK_UUID_NQN_PREFIX "%pUb", &rblk_hostid);
	if (!rblk_nqn_valid(rblk_hostnqn)) {
		pr_err("hostnqn is not a valid NQN\n");
		return -EINVAL;
	}
	rblk_delete_wq = alloc_workqueue("rblk_delete_wq",
					 WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!rblk_delete_wq)
		return -ENOMEM;
	/* Canonical, as sysfs and nvmecfg print it. */
	snprintf(rblk_hostid_str, sizeof(rblk_hostid_str), "%pUb",
		 &rblk_hostid);
	pr_info("host NQN %s, host ID %s\n", rblk_hostnqn, rblk_hostid_str);
	return 0;
}

/**
 * rblk_default_hostid() - the host identifier to use for a host NQN
 * @hostnqn: the host NQN of a connect that named no host identifier
 * @hostid: set to the module's for the module's host NQN, else to the UUID
 *	of a UUID-form @hostnqn, else to one drawn for @hostnqn and kept for
 *	the module's life (as nvme-fabrics keeps a host per NQN): a target
 *	never sees one identifier under two host NQNs, nor a host NQN change
 *	its identifier between connects.
 *
 * Return: 0 or -ENOMEM.
 */
int rblk_default_hostid(const char *hostnqn, uuid_t *hostid)
{
	struct rblk_host_id *h;
	size_t len;

	if (!strcmp(hostnqn, rblk_hostnqn)) {
		uuid_copy(hostid, &rblk_hostid);
		return 0;
	}
	if (rblk_hostnqn_uuid(hostnqn, hostid))
		return 0;

	mutex_lock(&rblk_host_ids_mutex);
	list_for_each_entry(h, &rblk_host_ids, entry) {
		if (!strcmp(h->nqn, hostnqn))
			goto found;
	}
	len = strlen(hostnqn) + 1;
	h = kmalloc(struct_size(h, nqn, len), GFP_KERNEL);
	if (!h) {
		mutex_unlock(&rblk_host_ids_mutex);
		return -ENOMEM;
	}
	memcpy(h->nqn, hostnqn, len);
	uuid_gen(&h->id);
	list_add(&h->entry, &rblk_host_ids);
found:
	uuid_copy(hostid, &h->id);
	mutex_unlock(&rblk_host_ids_mutex);
	return 0;
}

/**
 * rblk_host_exit() - delete every controller
 *
 * The control plane is gone, so no new controller appears meanwhile.
 * Waits for the teardowns, also those of earlier disconnects.
 */
void rblk_host_exit(void)
{
	struct rblk_ctrl *ctrl;
	int index = 0;

	while ((ctrl = rblk_ctrl_next(&index))) {
		rblk_host_delete(ctrl);
		rblk_ctrl_put(ctrl);
		index++;
	}
	destroy_workqueue(rblk_delete_wq);
	ida_destroy(&rblk_ctrl_ida);

	while (!list_empty(&rblk_host_ids)) {
		struct rblk_host_id *h = list_first_entry(&rblk_host_ids,
							  struct rblk_host_id,
							  entry);

		list_del(&h->entry);
		kfree(h);
	}
}
