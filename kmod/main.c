// SPDX-License-Identifier: GPL-2.0
/*
 * rblk - NVMe over Fabrics RDMA host exposing one namespace as /dev/rblkN.
 *
 * This file holds the module entry points and the device registry: the
 * list of controllers, their index allocation, and the create/delete
 * interface the netlink control plane calls.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/idr.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "rblk.h"

#define RBLK_MAX_INDEX	((1U << MINORBITS) / RBLK_MINORS - 1)

struct workqueue_struct *rblk_wq;

unsigned int rblk_io_timeout = 30;
module_param_named(io_timeout, rblk_io_timeout, uint, 0644);
MODULE_PARM_DESC(io_timeout, "I/O command timeout in seconds (default 30)");

unsigned int rblk_admin_timeout = 10;
module_param_named(admin_timeout, rblk_admin_timeout, uint, 0644);
MODULE_PARM_DESC(admin_timeout,
		 "admin and Fabrics command timeout in seconds (default 10)");

static char rblk_hostnqn[NVMF_NQN_SIZE + 1];
module_param_string(hostnqn, rblk_hostnqn, sizeof(rblk_hostnqn), 0444);
MODULE_PARM_DESC(hostnqn, "default host NQN (default: derived from a random UUID)");

static uuid_t rblk_hostid;

static LIST_HEAD(rblk_ctrl_list);
static DEFINE_MUTEX(rblk_ctrl_mutex);
static DEFINE_IDA(rblk_index_ida);

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
	opts->nsid = 1;
	opts->nr_io_queues = min_t(u32, num_online_cpus(), RBLK_MAX_IO_QUEUES);
	opts->queue_size = RBLK_DEF_QUEUE_SIZE;
	opts->kato = RBLK_DEF_KATO;
	opts->reconnect_delay = RBLK_DEF_RECONNECT;
	opts->ctrl_loss_tmo = RBLK_DEF_LOSS_TMO;
	opts->fast_io_fail_tmo = -1;
}

static bool rblk_opts_same_target(const struct rblk_ctrl_opts *a,
				  const struct rblk_ctrl_opts *b)
{
	return !strcmp(a->traddr, b->traddr) &&
	       !strcmp(a->trsvcid, b->trsvcid) &&
	       !strcmp(a->subsysnqn, b->subsysnqn) &&
	       !strcmp(a->hostnqn, b->hostnqn) &&
	       a->nsid == b->nsid;
}

static int rblk_opts_check(const struct rblk_ctrl_opts *o, const char **errmsg)
{
	if (!o->traddr[0]) {
		*errmsg = "transport address missing";
		return -EINVAL;
	}
	if (strncmp(o->subsysnqn, "nqn.", 4) ||
	    strncmp(o->hostnqn, "nqn.", 4)) {
		*errmsg = "NQN must begin with \"nqn.\"";
		return -EINVAL;
	}
	if (o->discovery)
		return 0;
	if (!o->nsid || o->nsid == NVME_NSID_ALL) {
		*errmsg = "invalid namespace id";
		return -EINVAL;
	}
	if (!o->nr_io_queues || o->nr_io_queues > RBLK_MAX_IO_QUEUES) {
		*errmsg = "nr_io_queues out of range";
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

static void rblk_ctrl_release(struct kref *ref)
{
	struct rblk_ctrl *ctrl = container_of(ref, struct rblk_ctrl, ref);

	if (ctrl->index >= 0)
		ida_free(&rblk_index_ida, ctrl->index);
	rblk_ctrl_free(ctrl);
}

/**
 * rblk_ctrl_put() - drop a controller reference
 * @ctrl: controller
 */
void rblk_ctrl_put(struct rblk_ctrl *ctrl)
{
	kref_put(&ctrl->ref, rblk_ctrl_release);
}

static void rblk_ctrl_unregister(struct rblk_ctrl *ctrl)
{
	mutex_lock(&rblk_ctrl_mutex);
	if (test_and_clear_bit(RBLK_CTRL_REGISTERED, &ctrl->flags))
		list_del_init(&ctrl->entry);
	mutex_unlock(&rblk_ctrl_mutex);
}

/**
 * rblk_ctrl_create() - connect to a namespace and create /dev/rblkN
 * @opts: connect options
 * @errmsg: set to a static reason on failure
 *
 * Return: the live controller with a reference for the caller, or an
 * ERR_PTR: -EINVAL, -EEXIST, -ECONNREFUSED, -ENOENT, -EACCES,
 * -EHOSTUNREACH, -ENETUNREACH, -ETIMEDOUT, -ENODEV, -EINTR or -ENOMEM.
 */
struct rblk_ctrl *rblk_ctrl_create(const struct rblk_ctrl_opts *opts,
				   const char **errmsg)
{
	struct rblk_ctrl *ctrl, *pos;
	int ret;

	ret = rblk_opts_check(opts, errmsg);
	if (ret)
		return ERR_PTR(ret);

	ctrl = rblk_ctrl_alloc(opts);
	if (!ctrl) {
		*errmsg = "out of memory";
		return ERR_PTR(-ENOMEM);
	}

	mutex_lock(&rblk_ctrl_mutex);
	list_for_each_entry(pos, &rblk_ctrl_list, entry) {
		if (rblk_opts_same_target(&pos->opts, opts)) {
			mutex_unlock(&rblk_ctrl_mutex);
			*errmsg = "already connected to this namespace";
			rblk_ctrl_put(ctrl);
			return ERR_PTR(-EEXIST);
		}
	}
	ret = ida_alloc_max(&rblk_index_ida, RBLK_MAX_INDEX, GFP_KERNEL);
	if (ret < 0) {
		mutex_unlock(&rblk_ctrl_mutex);
		*errmsg = "no free device index";
		rblk_ctrl_put(ctrl);
		return ERR_PTR(ret);
	}
	ctrl->index = ret;
	snprintf(ctrl->name, sizeof(ctrl->name), "rblk%d", ctrl->index);
	/* The list holds one reference, the caller gets another. */
	kref_get(&ctrl->ref);
	list_add_tail(&ctrl->entry, &rblk_ctrl_list);
	set_bit(RBLK_CTRL_REGISTERED, &ctrl->flags);
	mutex_unlock(&rblk_ctrl_mutex);

	ret = rblk_ctrl_start(ctrl, errmsg);
	if (!ret) {
		ret = rblk_add_disk(ctrl);
		if (ret)
			*errmsg = "failed to register the block device";
	}
	if (ret) {
		rblk_ctrl_unregister(ctrl);
		rblk_change_state(ctrl, RBLK_STATE_DELETING);
		rblk_ctrl_stop(ctrl);
		rblk_ctrl_put(ctrl);
		rblk_ctrl_put(ctrl);
		return ERR_PTR(ret);
	}

	rblk_info(ctrl, "namespace %u: %llu blocks of %u bytes\n",
		  ctrl->opts.nsid, ctrl->nsze, 1U << ctrl->lba_shift);
	rblk_nl_notify(ctrl, RBLK_EVENT_ADDED);
	return ctrl;
}

/**
 * rblk_ctrl_delete() - disconnect and remove a device
 * @ctrl: controller, referenced by the caller
 *
 * Return: 0, -EBUSY while its first connect runs, -EALREADY if another
 * caller is deleting it.
 */
int rblk_ctrl_delete(struct rblk_ctrl *ctrl)
{
	if (rblk_ctrl_state(ctrl) == RBLK_STATE_DELETING)
		return -EALREADY;
	if (!test_bit(RBLK_CTRL_DISK_ADDED, &ctrl->flags))
		return -EBUSY;
	if (!rblk_change_state(ctrl, RBLK_STATE_DELETING))
		return -EALREADY;

	rblk_info(ctrl, "disconnecting\n");
	rblk_ctrl_unregister(ctrl);
	rblk_ctrl_stop(ctrl);
	rblk_nl_notify(ctrl, RBLK_EVENT_REMOVED);
	rblk_ctrl_put(ctrl);
	return 0;
}

/**
 * rblk_ctrl_find() - look a device up by index or name
 * @index: index N of rblkN, or negative to match by @name
 * @name: "rblkN", used when @index is negative
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
			kref_get(&ctrl->ref);
			found = ctrl;
			break;
		}
	}
	mutex_unlock(&rblk_ctrl_mutex);
	return found;
}

/**
 * rblk_ctrl_next() - the device with the lowest index at or above *@index
 * @index: cursor; set to the index of the device returned
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
		kref_get(&found->ref);
		*index = found->index;
	}
	mutex_unlock(&rblk_ctrl_mutex);
	return found;
}

/**
 * rblk_ctrls_on_device_removal() - drop everything held on an RDMA device
 * @ibdev: device going away
 *
 * Live controllers go through error recovery, which frees their queues;
 * they reconnect when the address is served again.
 */
void rblk_ctrls_on_device_removal(struct ib_device *ibdev)
{
	struct rblk_ctrl *ctrl;

	mutex_lock(&rblk_ctrl_mutex);
	list_for_each_entry(ctrl, &rblk_ctrl_list, entry) {
		struct rblk_device *dev = READ_ONCE(ctrl->queues[0].device);

		if (dev && dev->dev != ibdev)
			continue;
		rblk_info(ctrl, "RDMA device %s removed\n",
			  dev_name(&ibdev->dev));
		rblk_error_recovery(ctrl);
		flush_work(&ctrl->err_work);
	}
	mutex_unlock(&rblk_ctrl_mutex);
}

/**
 * rblk_discover() - read the discovery log of a discovery controller
 * @opts: address of the discovery controller; an empty subsystem NQN means
 *	the well-known discovery NQN
 * @entries: set to a kvmalloc'ed array, caller kvfree()s
 * @nr: set to the number of entries
 * @numrec: set to the number of records in the target's log (more than @nr
 *	if the log is longer than %RBLK_DISC_MAX_RECORDS)
 * @errmsg: set to a static reason on failure
 *
 * Return: 0 or a negative errno.
 */
int rblk_discover(const struct rblk_ctrl_opts *opts,
		  struct nvmf_disc_rsp_page_entry **entries, u32 *nr,
		  u64 *numrec, const char **errmsg)
{
	struct rblk_ctrl_opts o = *opts;
	struct rblk_ctrl *ctrl;
	int ret;

	o.discovery = true;
	o.kato = 0;
	o.nr_io_queues = 0;
	if (!o.subsysnqn[0])
		strscpy(o.subsysnqn, NVME_DISC_SUBSYS_NAME, sizeof(o.subsysnqn));
	ret = rblk_opts_check(&o, errmsg);
	if (ret)
		return ret;

	ctrl = rblk_ctrl_alloc(&o);
	if (!ctrl) {
		*errmsg = "out of memory";
		return -ENOMEM;
	}
	ret = rblk_ctrl_start(ctrl, errmsg);
	if (!ret) {
		ret = rblk_get_disc_log(ctrl, entries, nr, numrec);
		if (ret)
			*errmsg = "failed to read the discovery log page";
	}
	rblk_change_state(ctrl, RBLK_STATE_DELETING);
	rblk_ctrl_stop(ctrl);
	rblk_ctrl_put(ctrl);
	return ret;
}

static void rblk_delete_all(void)
{
	struct rblk_ctrl *ctrl;
	int index = 0;

	while ((ctrl = rblk_ctrl_next(&index))) {
		rblk_ctrl_delete(ctrl);
		rblk_ctrl_put(ctrl);
		index++;
	}
}

static int __init rblk_init(void)
{
	int ret;

	uuid_gen(&rblk_hostid);
	if (!rblk_hostnqn[0])
		snprintf(rblk_hostnqn, sizeof(rblk_hostnqn),
			 "nqn.2014-08.org.nvmexpress:uuid:%pUb", &rblk_hostid);

	rblk_wq = alloc_workqueue("rblk_wq", WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
	if (!rblk_wq)
		return -ENOMEM;
	ret = rblk_blk_init();
	if (ret)
		goto out_destroy_wq;
	ret = rblk_rdma_init();
	if (ret)
		goto out_blk_exit;
	ret = rblk_nl_init();
	if (ret)
		goto out_rdma_exit;
	pr_info("loaded, host NQN %s\n", rblk_hostnqn);
	return 0;

out_rdma_exit:
	rblk_rdma_exit();
out_blk_exit:
	rblk_blk_exit();
out_destroy_wq:
	destroy_workqueue(rblk_wq);
	return ret;
}

static void __exit rblk_exit(void)
{
	/* No new commands first, then nothing left to serve them. */
	rblk_nl_exit();
	rblk_delete_all();
	rblk_rdma_exit();
	rblk_blk_exit();
	destroy_workqueue(rblk_wq);
	ida_destroy(&rblk_index_ida);
}

module_init(rblk_init);
module_exit(rblk_exit);

MODULE_AUTHOR("The rblk authors");
MODULE_DESCRIPTION("NVMe over Fabrics RDMA host block device");
MODULE_LICENSE("GPL");
