// SPDX-License-Identifier: GPL-2.0
/*
 * rblk sysfs: the attributes of subsystems, controllers and namespaces.
 * Documented in Documentation/ABI/testing/sysfs-class-rblk,
 * sysfs-class-rblk-subsystem and sysfs-block-rblk.
 *
 *   /sys/class/rblk/rblk-ctrlM/   the controller: connect parameters,
 *                                 identity, state, its own counters,
 *                                 reset_stats and reset_controller
 *   /sys/class/rblk-subsystem/rblk-subsysK/
 *                                 a subsystem: its identity, a link to
 *                                 each controller (path) to it
 *   /sys/block/rblkN/             a namespace's identifiers, as nvme
 *                                 names them (nsid, wwid, nguid, uuid, eui)
 *   /sys/block/rblkN/rblk/        its statistics, and the state and
 *                                 reconnect counters of its controller
 *
 * The block device of a namespace is a child of its controller's device,
 * so /sys/block/rblkN/device is rblk-ctrlM.
 *
 * The counter files are made from the UAPI name table %RBLK_STAT_NAMES
 * when the module loads, so that sysfs and netlink cannot disagree on a
 * name; everything else is declared statically.
 */
#include <linux/blkdev.h>
#include <linux/device.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/uuid.h>

#include "rblk.h"
#include "stats.h"

/* The controllers' class, /sys/class/rblk/. */
struct class *rblk_class;
/* The subsystems' class, /sys/class/rblk-subsystem/. */
struct class *rblk_subsys_class;

static const char * const rblk_stat_names[__RBLK_STAT_MAX] = RBLK_STAT_NAMES;

/**
 * struct rblk_stat_attribute - a file showing one counter
 * @dattr: the attribute; its name is the counter's in %RBLK_STAT_NAMES
 * @stat: the counter, an index into &struct rblk_stats.v
 */
struct rblk_stat_attribute {
	struct device_attribute dattr;
	enum rblk_stat_attr stat;
};

static struct rblk_stat_attribute *
to_rblk_stat_attr(struct device_attribute *attr)
{
	return container_of(attr, struct rblk_stat_attribute, dattr);
}

static struct rblk_ns *rblk_dev_to_ns(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

/*
 * Counted by the controller only: a namespace has none of its own (its
 * commands share the controller's queues).
 */
static bool rblk_stat_ctrl_only(unsigned int stat)
{
	return stat == RBLK_STAT_RECONNECTS ||
	       stat == RBLK_STAT_RECONNECT_ATTEMPTS ||
	       stat == RBLK_STAT_DOORBELLS ||
	       stat == RBLK_STAT_COMMANDS_POSTED ||
	       stat == RBLK_STAT_POLL_COMPLETIONS;
}

/* Commands per doorbell since the last reset, two decimals. */
static ssize_t rblk_cmds_per_doorbell_show(struct rblk_ctrl *ctrl, char *buf)
{
	struct rblk_stats s;
	u64 posts, hundredths = 0;

	rblk_ctrl_stats(ctrl, &s);
	posts = s.v[RBLK_STAT_DOORBELLS];
	if (posts)
		hundredths = div64_u64(s.v[RBLK_STAT_COMMANDS_POSTED] * 100 +
				       posts / 2, posts);
	return sysfs_emit(buf, "%llu.%02llu\n", hundredths / 100,
			  hundredths % 100);
}

/* What rblk_ctrl_stats() fills in. */
static bool rblk_stat_of_ctrl(unsigned int stat)
{
	return stat == RBLK_STAT_TIMEOUTS || rblk_stat_ctrl_only(stat);
}

/* Every named counter has a file in /sys/block/rblkN/rblk/. */
static bool rblk_stat_of_ns(unsigned int stat)
{
	return true;
}

/* --- requests in flight, counted on demand so the I/O path pays nothing --- */

/**
 * struct rblk_busy_count - what rblk_count_busy() counts
 * @ctrl: controller whose I/O tag set is walked
 * @q: count only the requests of this queue, or NULL for all
 * @nr: entries of @count
 * @count: in-flight requests by I/O queue, qid 1 first
 */
struct rblk_busy_count {
	struct rblk_ctrl *ctrl;
	struct request_queue *q;
	u32 nr;
	u32 *count;
};

static bool rblk_count_busy(struct request *rq, void *data)
{
	struct rblk_busy_count *bc = data;
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);
	u16 qid = req->queue->qid;

	if (bc->q && rq->q != bc->q)
		return true;
	if (qid && qid <= min(bc->ctrl->nr_io_queues, bc->nr))
		bc->count[qid - 1]++;
	return true;
}

/* One field per I/O queue on one line, qid 1 first. */
static ssize_t rblk_outstanding_show(struct rblk_ctrl *ctrl,
				     struct request_queue *q, char *buf)
{
	struct rblk_busy_count bc = {
		.ctrl = ctrl,
		.q = q,
		.nr = rblk_opts_max_queues(&ctrl->opts),
	};
	int len = 0;
	u32 i, nr;

	/*
	 * Allocated before taking hw_queues_lock: a queue-count change
	 * holds it with the namespace queues frozen, and reclaim under the
	 * lock could write to one of them.  rblk_opts_max_queues() bounds the
	 * queue count of every reconnect.
	 */
	bc.count = kcalloc(bc.nr, sizeof(*bc.count), GFP_KERNEL);
	if (!bc.count)
		return -ENOMEM;
	/* A reconnect may change the number of queues and their tags. */
	mutex_lock(&ctrl->hw_queues_lock);
	/* None before the first connect allocated the tag set. */
	nr = ctrl->tag_set.tags ? min(ctrl->nr_io_queues, bc.nr) : 0;
	if (nr)
		blk_mq_tagset_busy_iter(&ctrl->tag_set, rblk_count_busy, &bc);
	for (i = 0; i < nr; i++)
		len += sysfs_emit_at(buf, len, "%u%c", bc.count[i],
				     i == nr - 1 ? '\n' : ' ');
	mutex_unlock(&ctrl->hw_queues_lock);
	kfree(bc.count);
	if (!nr)
		len = sysfs_emit(buf, "\n");
	return len;
}

/* --- /sys/class/rblk/rblk-ctrlM/ --- */

#define RBLK_CTRL_ATTR_RO(_name, _fmt, _expr)				\
static ssize_t rblk_ctrl_##_name##_show(struct device *dev,		\
					struct device_attribute *attr,	\
					char *buf)			\
{									\
	struct rblk_ctrl *ctrl = rblk_dev_to_ctrl(dev);			\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static struct device_attribute rblk_ctrl_attr_##_name =		\
	__ATTR(_name, 0444, rblk_ctrl_##_name##_show, NULL)

RBLK_CTRL_ATTR_RO(state, "%s", rblk_state_name(rblk_ctrl_state(ctrl)));
RBLK_CTRL_ATTR_RO(traddr, "%s", ctrl->opts.traddr);
RBLK_CTRL_ATTR_RO(trsvcid, "%s", ctrl->opts.trsvcid);
RBLK_CTRL_ATTR_RO(subsysnqn, "%s", ctrl->opts.subsysnqn);
RBLK_CTRL_ATTR_RO(hostnqn, "%s", ctrl->opts.hostnqn);
RBLK_CTRL_ATTR_RO(hostid, "%pUb", &ctrl->opts.hostid);
RBLK_CTRL_ATTR_RO(host_traddr, "%s", ctrl->opts.host_traddr);
RBLK_CTRL_ATTR_RO(tos, "%d", ctrl->opts.tos);
RBLK_CTRL_ATTR_RO(nsid, "%u", ctrl->opts.nsid);
RBLK_CTRL_ATTR_RO(cntlid, "%u", ctrl->cntlid);
RBLK_CTRL_ATTR_RO(model, "%s", ctrl->model);
RBLK_CTRL_ATTR_RO(serial, "%s", ctrl->serial);
RBLK_CTRL_ATTR_RO(firmware_rev, "%s", ctrl->firmware);
RBLK_CTRL_ATTR_RO(nr_io_queues, "%u", READ_ONCE(ctrl->nr_io_queues));
RBLK_CTRL_ATTR_RO(nr_poll_queues, "%u", READ_ONCE(ctrl->nr_poll_queues));
RBLK_CTRL_ATTR_RO(nr_write_queues, "%u", READ_ONCE(ctrl->nr_write_queues));
RBLK_CTRL_ATTR_RO(queue_size, "%u", ctrl->opts.queue_size);
RBLK_CTRL_ATTR_RO(kato, "%u", ctrl->opts.kato);
RBLK_CTRL_ATTR_RO(reconnect_delay, "%u", ctrl->opts.reconnect_delay);
RBLK_CTRL_ATTR_RO(ctrl_loss_tmo, "%d", ctrl->opts.ctrl_loss_tmo);
RBLK_CTRL_ATTR_RO(fast_io_fail_tmo, "%d", ctrl->opts.fast_io_fail_tmo);

/* nvme's sqsize: the I/O queues' depth minus one. */
RBLK_CTRL_ATTR_RO(sqsize, "%u", ctrl->opts.queue_size - 1);
/* nvme's queue_count: the I/O queues and the admin queue. */
RBLK_CTRL_ATTR_RO(queue_count, "%u", READ_ONCE(ctrl->nr_io_queues) + 1);
/* nvme's numa_node: the RDMA device's node (-1: none). */
RBLK_CTRL_ATTR_RO(numa_node, "%d", READ_ONCE(ctrl->numa_node));

/* As nvmf_get_address(): what nvme-cli matches controllers by. */
static ssize_t rblk_ctrl_address_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	struct rblk_ctrl *ctrl = rblk_dev_to_ctrl(dev);
	int len;

	len = sysfs_emit(buf, "traddr=%s,trsvcid=%s", ctrl->opts.traddr,
			 ctrl->opts.trsvcid);
	if (ctrl->opts.host_traddr[0])
		len += sysfs_emit_at(buf, len, ",host_traddr=%s",
				     ctrl->opts.host_traddr);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static struct device_attribute rblk_ctrl_attr_address =
	__ATTR(address, 0444, rblk_ctrl_address_show, NULL);

static ssize_t rblk_ctrl_transport_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	return sysfs_emit(buf, "rdma\n");
}
static struct device_attribute rblk_ctrl_attr_transport =
	__ATTR(transport, 0444, rblk_ctrl_transport_show, NULL);

static ssize_t rblk_ctrl_outstanding_show(struct device *dev,
					  struct device_attribute *attr,
					  char *buf)
{
	return rblk_outstanding_show(rblk_dev_to_ctrl(dev), NULL, buf);
}
static struct device_attribute rblk_ctrl_attr_outstanding =
	__ATTR(outstanding, 0444, rblk_ctrl_outstanding_show, NULL);

static ssize_t rblk_ctrl_commands_per_doorbell_show(struct device *dev,
						    struct device_attribute *attr,
						    char *buf)
{
	return rblk_cmds_per_doorbell_show(rblk_dev_to_ctrl(dev), buf);
}
static struct device_attribute rblk_ctrl_attr_commands_per_doorbell =
	__ATTR(commands_per_doorbell, 0444,
	       rblk_ctrl_commands_per_doorbell_show, NULL);

static ssize_t rblk_ctrl_stat_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct rblk_stat_attribute *sa = to_rblk_stat_attr(attr);
	struct rblk_stats s;

	rblk_ctrl_stats(rblk_dev_to_ctrl(dev), &s);
	return sysfs_emit(buf, "%llu\n", s.v[sa->stat]);
}

/*
 * The controls, write-only: a true boolean does the action (an error from
 * it is the write's), a false one nothing, anything else is EINVAL.
 */
#define RBLK_CTRL_ATTR_ACTION(_name, _action)				\
static ssize_t rblk_ctrl_##_name##_store(struct device *dev,		\
					 struct device_attribute *attr,	\
					 const char *buf, size_t count)	\
{									\
	bool doit;							\
	int ret;							\
									\
	ret = kstrtobool(buf, &doit);					\
	if (!ret && doit)						\
		ret = _action(rblk_dev_to_ctrl(dev));			\
	if (ret)							\
		return ret;						\
	return count;							\
}									\
static struct device_attribute rblk_ctrl_attr_##_name =		\
	__ATTR(_name, 0200, NULL, rblk_ctrl_##_name##_store)

/* The controller's counters and those of every namespace on it. */
static int rblk_ctrl_reset_stats(struct rblk_ctrl *ctrl)
{
	rblk_ns_reset_stats_all(ctrl);
	return 0;
}

RBLK_CTRL_ATTR_ACTION(reset_stats, rblk_ctrl_reset_stats);
RBLK_CTRL_ATTR_ACTION(reset_controller, rblk_ctrl_reset);
/* nvme's delete_controller: the disconnect runs on, as nvmecfg's does. */
RBLK_CTRL_ATTR_ACTION(delete_controller, rblk_host_delete);
/* nvme's rescan_controller: a namespace scan, not waited for. */
RBLK_CTRL_ATTR_ACTION(rescan_controller, rblk_passthru_rescan_ctrl);

static struct attribute *rblk_ctrl_fixed_attrs[] = {
	&rblk_ctrl_attr_state.attr,
	&rblk_ctrl_attr_transport.attr,
	&rblk_ctrl_attr_traddr.attr,
	&rblk_ctrl_attr_trsvcid.attr,
	&rblk_ctrl_attr_subsysnqn.attr,
	&rblk_ctrl_attr_hostnqn.attr,
	&rblk_ctrl_attr_hostid.attr,
	&rblk_ctrl_attr_host_traddr.attr,
	&rblk_ctrl_attr_tos.attr,
	&rblk_ctrl_attr_cntlid.attr,
	&rblk_ctrl_attr_model.attr,
	&rblk_ctrl_attr_serial.attr,
	&rblk_ctrl_attr_firmware_rev.attr,
	&rblk_ctrl_attr_nr_io_queues.attr,
	&rblk_ctrl_attr_nr_poll_queues.attr,
	&rblk_ctrl_attr_nr_write_queues.attr,
	&rblk_ctrl_attr_queue_size.attr,
	&rblk_ctrl_attr_kato.attr,
	&rblk_ctrl_attr_reconnect_delay.attr,
	&rblk_ctrl_attr_ctrl_loss_tmo.attr,
	&rblk_ctrl_attr_fast_io_fail_tmo.attr,
	&rblk_ctrl_attr_nsid.attr,
	&rblk_ctrl_attr_outstanding.attr,
	&rblk_ctrl_attr_commands_per_doorbell.attr,
	&rblk_ctrl_attr_reset_stats.attr,
	&rblk_ctrl_attr_reset_controller.attr,
	&rblk_ctrl_attr_delete_controller.attr,
	&rblk_ctrl_attr_rescan_controller.attr,
	&rblk_ctrl_attr_address.attr,
	&rblk_ctrl_attr_sqsize.attr,
	&rblk_ctrl_attr_queue_count.attr,
	&rblk_ctrl_attr_numa_node.attr,
	NULL,
};

/* Filled in by rblk_sysfs_init(): the counters, then the fixed ones. */
static struct rblk_stat_attribute rblk_ctrl_stat_attrs[__RBLK_STAT_MAX];
static struct attribute *rblk_ctrl_attrs[__RBLK_STAT_MAX +
					 ARRAY_SIZE(rblk_ctrl_fixed_attrs)];

static const struct attribute_group rblk_ctrl_attr_group = {
	.attrs	= rblk_ctrl_attrs,
};

/*
 * The attributes of a controller's device, /sys/class/rblk/rblk-ctrlM/:
 * host.c sets them as its &device.groups.
 */
const struct attribute_group *rblk_ctrl_groups[] = {
	&rblk_ctrl_attr_group,
	NULL,
};

/* --- /sys/class/rblk-subsystem/rblk-subsysK/, as nvme-subsystem --- */

#define RBLK_SUBSYS_ATTR_RO(_name, _field)				\
static ssize_t rblk_subsys_##_name##_show(struct device *dev,		\
					  struct device_attribute *attr, \
					  char *buf)			\
{									\
	struct rblk_subsys *subsys =					\
		container_of(dev, struct rblk_subsys, dev);		\
									\
	return sysfs_emit(buf, "%s\n", subsys->_field);		\
}									\
static struct device_attribute rblk_subsys_attr_##_name =		\
	__ATTR(_name, 0444, rblk_subsys_##_name##_show, NULL)

RBLK_SUBSYS_ATTR_RO(subsysnqn, subnqn);
RBLK_SUBSYS_ATTR_RO(serial, serial);
RBLK_SUBSYS_ATTR_RO(model, model);

static ssize_t rblk_subsys_firmware_rev_show(struct device *dev,
					     struct device_attribute *attr,
					     char *buf)
{
	struct rblk_subsys *subsys = container_of(dev, struct rblk_subsys, dev);
	ssize_t ret;

	/* A reconnect may bring a new one. */
	mutex_lock(&subsys->lock);
	ret = sysfs_emit(buf, "%s\n", subsys->firmware);
	mutex_unlock(&subsys->lock);
	return ret;
}
static struct device_attribute rblk_subsys_attr_firmware_rev =
	__ATTR(firmware_rev, 0444, rblk_subsys_firmware_rev_show, NULL);

static ssize_t rblk_subsys_iopolicy_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	struct rblk_subsys *subsys = container_of(dev, struct rblk_subsys, dev);

	return sysfs_emit(buf, "%s\n",
			  rblk_iopolicy_names[READ_ONCE(subsys->iopolicy)]);
}

static ssize_t rblk_subsys_iopolicy_store(struct device *dev,
					  struct device_attribute *attr,
					  const char *buf, size_t count)
{
	struct rblk_subsys *subsys = container_of(dev, struct rblk_subsys, dev);
	int policy = rblk_iopolicy_parse(buf);

	if (policy < 0)
		return policy;
	rblk_mpath_set_iopolicy(subsys, policy);
	return count;
}

static struct device_attribute rblk_subsys_attr_iopolicy =
	__ATTR(iopolicy, 0644, rblk_subsys_iopolicy_show,
	       rblk_subsys_iopolicy_store);

static struct attribute *rblk_subsys_attrs[] = {
	&rblk_subsys_attr_subsysnqn.attr,
	&rblk_subsys_attr_serial.attr,
	&rblk_subsys_attr_model.attr,
	&rblk_subsys_attr_firmware_rev.attr,
	&rblk_subsys_attr_iopolicy.attr,
	NULL,
};

/*
 * The I/O policy is the multipath heads': absent without them (nvme shows
 * it whenever native multipath is built, even if turned off).
 */
static umode_t rblk_subsys_attr_visible(struct kobject *kobj,
					struct attribute *attr, int n)
{
	if (attr == &rblk_subsys_attr_iopolicy.attr && !rblk_multipath)
		return 0;
	return attr->mode;
}

static const struct attribute_group rblk_subsys_attr_group = {
	.attrs		= rblk_subsys_attrs,
	.is_visible	= rblk_subsys_attr_visible,
};

/*
 * The attributes of a subsystem's device (subsys.c sets them); next to
 * them, a link to each controller bound to it.
 */
const struct attribute_group *rblk_subsys_groups[] = {
	&rblk_subsys_attr_group,
	NULL,
};

/*
 * --- /sys/block/rblkN/: the identifiers, as nvme shows them; also of a
 * multipath head, whose identifiers are fixed ---
 */

static void rblk_ns_ids(struct device *dev, struct rblk_ns_ids *ids)
{
	struct gendisk *disk = dev_to_disk(dev);
	struct rblk_ns *ns = disk->private_data;

	if (rblk_disk_is_head(disk)) {
		*ids = ((struct rblk_head *)disk->private_data)->ids;
		return;
	}
	mutex_lock(&ns->lock);
	*ids = ns->info.ids;
	mutex_unlock(&ns->lock);
}

static ssize_t rblk_ns_nsid_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct gendisk *disk = dev_to_disk(dev);

	if (rblk_disk_is_head(disk))
		return sysfs_emit(buf, "%u\n",
				  ((struct rblk_head *)disk->private_data)->nsid);
	return sysfs_emit(buf, "%u\n", rblk_dev_to_ns(dev)->nsid);
}
static struct device_attribute rblk_ns_attr_nsid =
	__ATTR(nsid, 0444, rblk_ns_nsid_show, NULL);

static ssize_t rblk_ns_wwid_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct gendisk *disk = dev_to_disk(dev);
	char wwid[RBLK_WWID_MAX_LEN];

	if (rblk_disk_is_head(disk))
		rblk_head_wwid(disk->private_data, wwid, sizeof(wwid));
	else
		rblk_ns_wwid(disk->private_data, wwid, sizeof(wwid));
	return sysfs_emit(buf, "%s\n", wwid);
}
static struct device_attribute rblk_ns_attr_wwid =
	__ATTR(wwid, 0444, rblk_ns_wwid_show, NULL);

static ssize_t rblk_ns_nguid_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct rblk_ns_ids ids;

	rblk_ns_ids(dev, &ids);
	return sysfs_emit(buf, "%pU\n", ids.nguid);
}
static struct device_attribute rblk_ns_attr_nguid =
	__ATTR(nguid, 0444, rblk_ns_nguid_show, NULL);

static ssize_t rblk_ns_uuid_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct rblk_ns_ids ids;

	rblk_ns_ids(dev, &ids);
	return sysfs_emit(buf, "%pU\n", &ids.uuid);
}
static struct device_attribute rblk_ns_attr_uuid =
	__ATTR(uuid, 0444, rblk_ns_uuid_show, NULL);

static ssize_t rblk_ns_eui_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct rblk_ns_ids ids;

	rblk_ns_ids(dev, &ids);
	return sysfs_emit(buf, "%8ph\n", ids.eui64);
}
static struct device_attribute rblk_ns_attr_eui =
	__ATTR(eui, 0444, rblk_ns_eui_show, NULL);

static struct attribute *rblk_ns_id_attrs[] = {
	&rblk_ns_attr_nsid.attr,
	&rblk_ns_attr_wwid.attr,
	&rblk_ns_attr_nguid.attr,
	&rblk_ns_attr_uuid.attr,
	&rblk_ns_attr_eui.attr,
	NULL,
};

/*
 * An identifier the namespace does not report has no file.  Decided once,
 * when the disk is added: a namespace whose identifiers change is removed
 * and found again as a new one (ns.c).
 */
static umode_t rblk_ns_id_attrs_are_visible(struct kobject *kobj,
					    struct attribute *a, int n)
{
	struct rblk_ns_ids ids;

	rblk_ns_ids(kobj_to_dev(kobj), &ids);
	if ((a == &rblk_ns_attr_nguid.attr && !rblk_ns_has_nguid(&ids)) ||
	    (a == &rblk_ns_attr_uuid.attr && !rblk_ns_has_uuid(&ids)) ||
	    (a == &rblk_ns_attr_eui.attr && !rblk_ns_has_eui64(&ids)))
		return 0;
	return a->mode;
}

static const struct attribute_group rblk_ns_id_attr_group = {
	.attrs		= rblk_ns_id_attrs,
	.is_visible	= rblk_ns_id_attrs_are_visible,
};

/* --- /sys/block/rblkN/rblk/: statistics --- */

static ssize_t rblk_ns_stat_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct rblk_stat_attribute *sa = to_rblk_stat_attr(attr);
	struct rblk_ns *ns = rblk_dev_to_ns(dev);
	struct rblk_stats s;

	if (rblk_stat_ctrl_only(sa->stat))
		rblk_ctrl_stats(ns->ctrl, &s);
	else
		rblk_iostats_read(&ns->stats, &s);
	return sysfs_emit(buf, "%llu\n", s.v[sa->stat]);
}

/* The controller's state here too, where scripts have always read it. */
static ssize_t rblk_ns_state_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct rblk_ctrl *ctrl = rblk_dev_to_ns(dev)->ctrl;

	return sysfs_emit(buf, "%s\n", rblk_state_name(rblk_ctrl_state(ctrl)));
}
static struct device_attribute rblk_ns_attr_state =
	__ATTR(state, 0444, rblk_ns_state_show, NULL);

static ssize_t rblk_ns_ctrl_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", rblk_dev_to_ns(dev)->ctrl->name);
}
static struct device_attribute rblk_ns_attr_ctrl =
	__ATTR(ctrl, 0444, rblk_ns_ctrl_show, NULL);

static ssize_t rblk_ns_latency_hist_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	struct rblk_stats s;
	int i, len = 0;

	rblk_iostats_read(&rblk_dev_to_ns(dev)->stats, &s);
	for (i = 0; i < RBLK_LAT_BUCKETS; i++)
		len += sysfs_emit_at(buf, len, "%llu%c", s.lat_hist[i],
				     i == RBLK_LAT_BUCKETS - 1 ? '\n' : ' ');
	return len;
}
static struct device_attribute rblk_ns_attr_latency_hist =
	__ATTR(latency_hist, 0444, rblk_ns_latency_hist_show, NULL);

/* The namespace's requests only: the tag set is the controller's. */
static ssize_t rblk_ns_outstanding_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	struct rblk_ns *ns = rblk_dev_to_ns(dev);

	return rblk_outstanding_show(ns->ctrl, ns->queue, buf);
}
static struct device_attribute rblk_ns_attr_outstanding =
	__ATTR(outstanding, 0444, rblk_ns_outstanding_show, NULL);

static ssize_t rblk_ns_commands_per_doorbell_show(struct device *dev,
						  struct device_attribute *attr,
						  char *buf)
{
	return rblk_cmds_per_doorbell_show(rblk_dev_to_ns(dev)->ctrl, buf);
}
static struct device_attribute rblk_ns_attr_commands_per_doorbell =
	__ATTR(commands_per_doorbell, 0444,
	       rblk_ns_commands_per_doorbell_show, NULL);

static ssize_t rblk_ns_reset_stats_store(struct device *dev,
					 struct device_attribute *attr,
					 const char *buf, size_t count)
{
	bool reset;
	int ret;

	ret = kstrtobool(buf, &reset);
	if (ret)
		return ret;
	if (reset)
		rblk_iostats_reset(&rblk_dev_to_ns(dev)->stats);
	return count;
}
static struct device_attribute rblk_ns_attr_reset_stats =
	__ATTR(reset_stats, 0200, NULL, rblk_ns_reset_stats_store);

static struct attribute *rblk_ns_fixed_attrs[] = {
	&rblk_ns_attr_state.attr,
	&rblk_ns_attr_ctrl.attr,
	&rblk_ns_attr_latency_hist.attr,
	&rblk_ns_attr_outstanding.attr,
	&rblk_ns_attr_commands_per_doorbell.attr,
	&rblk_ns_attr_reset_stats.attr,
	NULL,
};

/* Filled in by rblk_sysfs_init(): the counters, then the fixed ones. */
static struct rblk_stat_attribute rblk_ns_stat_attrs[__RBLK_STAT_MAX];
static struct attribute *rblk_ns_stat_group_attrs[__RBLK_STAT_MAX +
						  ARRAY_SIZE(rblk_ns_fixed_attrs)];

static const struct attribute_group rblk_ns_stat_attr_group = {
	.name	= "rblk",
	.attrs	= rblk_ns_stat_group_attrs,
};

/*
 * The attributes of a namespace's block device, /sys/block/rblkN/ and
 * /sys/block/rblkN/rblk/: ns.c passes them to device_add_disk().
 */
/* --- /sys/block/rblkNcM/: a multipath path's ANA group and state --- */

static ssize_t rblk_ns_ana_grpid_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(rblk_dev_to_ns(dev)->ana_grpid));
}
static struct device_attribute rblk_ns_attr_ana_grpid =
	__ATTR(ana_grpid, 0444, rblk_ns_ana_grpid_show, NULL);

static ssize_t rblk_ns_ana_state_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  rblk_ana_state_name(READ_ONCE(rblk_dev_to_ns(dev)->ana_state)));
}
static struct device_attribute rblk_ns_attr_ana_state =
	__ATTR(ana_state, 0444, rblk_ns_ana_state_show, NULL);

static struct attribute *rblk_ns_ana_attrs[] = {
	&rblk_ns_attr_ana_grpid.attr,
	&rblk_ns_attr_ana_state.attr,
	NULL,
};

/* As nvme's: only a path of a multipath head has them. */
static umode_t rblk_ns_ana_attrs_are_visible(struct kobject *kobj,
					     struct attribute *a, int n)
{
	struct gendisk *disk = dev_to_disk(kobj_to_dev(kobj));

	if (rblk_disk_is_head(disk) ||
	    !((struct rblk_ns *)disk->private_data)->head)
		return 0;
	return a->mode;
}

static const struct attribute_group rblk_ns_ana_attr_group = {
	.attrs		= rblk_ns_ana_attrs,
	.is_visible	= rblk_ns_ana_attrs_are_visible,
};

const struct attribute_group *rblk_ns_groups[] = {
	&rblk_ns_id_attr_group,
	&rblk_ns_ana_attr_group,
	&rblk_ns_stat_attr_group,
	NULL,
};

/* --- /sys/block/rblkN/multipath/: a link to each path's disk (mpath.c) --- */

/* A named group needs an attribute; this one never shows. */
static struct attribute rblk_head_mpath_dummy = { .name = "dummy" };

static struct attribute *rblk_head_mpath_attrs[] = {
	&rblk_head_mpath_dummy,
	NULL,
};

static umode_t rblk_head_mpath_attrs_are_visible(struct kobject *kobj,
						 struct attribute *a, int n)
{
	return 0;
}

static const struct attribute_group rblk_head_mpath_attr_group = {
	.name		= "multipath",
	.attrs		= rblk_head_mpath_attrs,
	.is_visible	= rblk_head_mpath_attrs_are_visible,
};

/* --- /sys/block/rblkN/rblk/ of a multipath head: its own counters --- */

#define RBLK_HEAD_COUNTER(_name)					\
static ssize_t rblk_head_##_name##_show(struct device *dev,		\
					struct device_attribute *attr,	\
					char *buf)			\
{									\
	struct rblk_head *head = dev_to_disk(dev)->private_data;	\
									\
	return sysfs_emit(buf, "%lld\n",				\
			  (long long)atomic64_read(&head->_name));	\
}									\
static struct device_attribute rblk_head_attr_##_name =		\
	__ATTR(_name, 0444, rblk_head_##_name##_show, NULL)

RBLK_HEAD_COUNTER(failovers);
RBLK_HEAD_COUNTER(no_path_requeues);
RBLK_HEAD_COUNTER(no_path_errors);

/*
 * The counters of a namespace, added up over the head's paths
 * (rblk_head_read_stats()): what /sys/block/rblkN/rblk/ shows without
 * multipath, so that scripts reading it work either way.
 */
static ssize_t rblk_head_stat_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct rblk_stat_attribute *sa = to_rblk_stat_attr(attr);
	struct rblk_head *head = dev_to_disk(dev)->private_data;
	struct rblk_stats *s;
	ssize_t ret;

	s = kmalloc_array(2, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	rblk_head_read_stats(head, &s[0], &s[1]);
	ret = sysfs_emit(buf, "%llu\n", s[0].v[sa->stat]);
	kfree(s);
	return ret;
}

static ssize_t rblk_head_latency_hist_show(struct device *dev,
					   struct device_attribute *attr,
					   char *buf)
{
	struct rblk_head *head = dev_to_disk(dev)->private_data;
	struct rblk_stats *s;
	int i, len = 0;

	s = kmalloc_array(2, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	rblk_head_read_stats(head, &s[0], &s[1]);
	for (i = 0; i < RBLK_LAT_BUCKETS; i++)
		len += sysfs_emit_at(buf, len, "%llu%c", s[0].lat_hist[i],
				     i == RBLK_LAT_BUCKETS - 1 ? '\n' : ' ');
	kfree(s);
	return len;
}
static struct device_attribute rblk_head_attr_latency_hist =
	__ATTR(latency_hist, 0444, rblk_head_latency_hist_show, NULL);

/* The best of its paths' controller states, as scripts read a namespace's. */
static ssize_t rblk_head_state_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct rblk_head *head = dev_to_disk(dev)->private_data;

	return sysfs_emit(buf, "%s\n", rblk_state_name(rblk_head_state(head)));
}
static struct device_attribute rblk_head_attr_state =
	__ATTR(state, 0444, rblk_head_state_show, NULL);

static ssize_t rblk_head_reset_stats_store(struct device *dev,
					   struct device_attribute *attr,
					   const char *buf, size_t count)
{
	bool reset;
	int ret;

	ret = kstrtobool(buf, &reset);
	if (ret)
		return ret;
	if (reset)
		rblk_head_reset_stats(dev_to_disk(dev)->private_data);
	return count;
}
static struct device_attribute rblk_head_attr_reset_stats =
	__ATTR(reset_stats, 0200, NULL, rblk_head_reset_stats_store);

static struct attribute *rblk_head_fixed_attrs[] = {
	&rblk_head_attr_failovers.attr,
	&rblk_head_attr_no_path_requeues.attr,
	&rblk_head_attr_no_path_errors.attr,
	&rblk_head_attr_latency_hist.attr,
	&rblk_head_attr_state.attr,
	&rblk_head_attr_reset_stats.attr,
	NULL,
};

/* Filled in by rblk_sysfs_init(): the counters, then the fixed ones. */
static struct rblk_stat_attribute rblk_head_sum_attrs[__RBLK_STAT_MAX];
static struct attribute *rblk_head_stat_attrs[__RBLK_STAT_MAX +
					      ARRAY_SIZE(rblk_head_fixed_attrs)];

static const struct attribute_group rblk_head_stat_attr_group = {
	.name	= "rblk",
	.attrs	= rblk_head_stat_attrs,
};

/* The attributes of a multipath head's disk: mpath.c adds them. */
const struct attribute_group *rblk_head_groups[] = {
	&rblk_ns_id_attr_group,
	&rblk_head_mpath_attr_group,
	&rblk_head_stat_attr_group,
	NULL,
};

/* --- setup --- */

/*
 * Fill @attrs with a file for each named counter @want() accepts, shown
 * by @show, followed by @fixed (NULL-terminated).  @sa has room for
 * every counter, @attrs for every counter and @fixed.
 */
static void rblk_build_attrs(struct attribute **attrs,
			     struct rblk_stat_attribute *sa,
			     bool (*want)(unsigned int stat),
			     ssize_t (*show)(struct device *dev,
					     struct device_attribute *attr,
					     char *buf),
			     struct attribute * const *fixed)
{
	unsigned int i;

	for (i = 0; i < __RBLK_STAT_MAX; i++) {
		if (!rblk_stat_names[i] || !want(i))
			continue;
		sysfs_attr_init(&sa->dattr.attr);
		sa->dattr.attr.name = rblk_stat_names[i];
		sa->dattr.attr.mode = 0444;
		sa->dattr.show = show;
		sa->stat = i;
		*attrs++ = &sa->dattr.attr;
		sa++;
	}
	while (*fixed)
		*attrs++ = *fixed++;
	*attrs = NULL;
}

/**
 * rblk_sysfs_init() - build the attribute groups, register the classes
 *
 * Context: module init, before any controller or namespace device is
 * added: their groups are complete from here on.
 *
 * Return: 0 or a negative errno.
 */
int rblk_sysfs_init(void)
{
	rblk_build_attrs(rblk_ctrl_attrs, rblk_ctrl_stat_attrs,
			 rblk_stat_of_ctrl, rblk_ctrl_stat_show,
			 rblk_ctrl_fixed_attrs);
	rblk_build_attrs(rblk_ns_stat_group_attrs, rblk_ns_stat_attrs,
			 rblk_stat_of_ns, rblk_ns_stat_show,
			 rblk_ns_fixed_attrs);
	rblk_build_attrs(rblk_head_stat_attrs, rblk_head_sum_attrs,
			 rblk_stat_of_ns, rblk_head_stat_show,
			 rblk_head_fixed_attrs);

	rblk_class = rblk_class_create("rblk");
	if (IS_ERR(rblk_class)) {
		int ret = PTR_ERR(rblk_class);

		rblk_class = NULL;
		return ret;
	}
	rblk_subsys_class = rblk_class_create("rblk-subsystem");
	if (IS_ERR(rblk_subsys_class)) {
		int ret = PTR_ERR(rblk_subsys_class);

		rblk_subsys_class = NULL;
		class_destroy(rblk_class);
		rblk_class = NULL;
		return ret;
	}
	return 0;
}

/**
 * rblk_sysfs_exit() - unregister the classes
 *
 * Context: module exit, after every controller and subsystem device is
 * gone.
 */
void rblk_sysfs_exit(void)
{
	class_destroy(rblk_subsys_class);
	rblk_subsys_class = NULL;
	class_destroy(rblk_class);
	rblk_class = NULL;
}
