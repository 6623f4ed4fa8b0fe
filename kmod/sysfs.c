// SPDX-License-Identifier: GPL-2.0
/*
 * rblk sysfs: /sys/block/rblkN/rblk/, the controller's parameters, state
 * and statistics. Documented in Documentation/ABI/testing/sysfs-block-rblk.
 */
#include <linux/blkdev.h>
#include <linux/sysfs.h>

#include "rblk.h"

static struct rblk_ctrl *rblk_dev_to_ctrl(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

#define RBLK_ATTR_RO(_name, _fmt, _expr)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct rblk_ctrl *ctrl = rblk_dev_to_ctrl(dev);			\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static DEVICE_ATTR_RO(_name)

RBLK_ATTR_RO(state, "%s", rblk_state_name(rblk_ctrl_state(ctrl)));
static ssize_t transport_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "rdma\n");
}
static DEVICE_ATTR_RO(transport);

RBLK_ATTR_RO(traddr, "%s", ctrl->opts.traddr);
RBLK_ATTR_RO(trsvcid, "%s", ctrl->opts.trsvcid);
RBLK_ATTR_RO(subsysnqn, "%s", ctrl->opts.subsysnqn);
RBLK_ATTR_RO(hostnqn, "%s", ctrl->opts.hostnqn);
RBLK_ATTR_RO(hostid, "%pUb", &ctrl->opts.hostid);
RBLK_ATTR_RO(nsid, "%u", ctrl->opts.nsid);
RBLK_ATTR_RO(cntlid, "%u", ctrl->cntlid);
RBLK_ATTR_RO(model, "%s", ctrl->model);
RBLK_ATTR_RO(serial, "%s", ctrl->serial);
RBLK_ATTR_RO(firmware_rev, "%s", ctrl->firmware);
RBLK_ATTR_RO(nr_io_queues, "%u", ctrl->nr_io_queues);
RBLK_ATTR_RO(queue_size, "%u", ctrl->opts.queue_size);
RBLK_ATTR_RO(kato, "%u", ctrl->opts.kato);
RBLK_ATTR_RO(reconnect_delay, "%u", ctrl->opts.reconnect_delay);
RBLK_ATTR_RO(ctrl_loss_tmo, "%d", ctrl->opts.ctrl_loss_tmo);
RBLK_ATTR_RO(fast_io_fail_tmo, "%d", ctrl->opts.fast_io_fail_tmo);

/* Statistics: one value per file, read from a fresh snapshot. */
#define RBLK_STAT_ATTR(_name, _expr)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct rblk_ctrl *ctrl = rblk_dev_to_ctrl(dev);			\
	struct rblk_stats s;						\
									\
	rblk_stats_read(ctrl, &s);					\
	return sysfs_emit(buf, "%llu\n", (unsigned long long)(_expr));	\
}									\
static DEVICE_ATTR_RO(_name)

RBLK_STAT_ATTR(reads, s.ios[RBLK_OP_READ]);
RBLK_STAT_ATTR(writes, s.ios[RBLK_OP_WRITE]);
RBLK_STAT_ATTR(flushes, s.ios[RBLK_OP_FLUSH]);
RBLK_STAT_ATTR(discards, s.ios[RBLK_OP_DISCARD]);
RBLK_STAT_ATTR(read_bytes, s.bytes[RBLK_OP_READ]);
RBLK_STAT_ATTR(write_bytes, s.bytes[RBLK_OP_WRITE]);
RBLK_STAT_ATTR(discard_bytes, s.bytes[RBLK_OP_DISCARD]);
RBLK_STAT_ATTR(inline_writes, s.inline_writes);
RBLK_STAT_ATTR(timeouts, s.timeouts);
RBLK_STAT_ATTR(reconnects, s.reconnects);
RBLK_STAT_ATTR(reconnect_attempts, s.reconnect_attempts);
RBLK_STAT_ATTR(errors_generic, s.errors[RBLK_ERR_GENERIC]);
RBLK_STAT_ATTR(errors_cmd_specific, s.errors[RBLK_ERR_CMD]);
RBLK_STAT_ATTR(errors_media, s.errors[RBLK_ERR_MEDIA]);
RBLK_STAT_ATTR(errors_path, s.errors[RBLK_ERR_PATH]);
RBLK_STAT_ATTR(errors_vendor, s.errors[RBLK_ERR_VENDOR]);

static ssize_t latency_hist_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct rblk_ctrl *ctrl = rblk_dev_to_ctrl(dev);
	struct rblk_stats s;
	int i, len = 0;

	rblk_stats_read(ctrl, &s);
	for (i = 0; i < RBLK_LAT_BUCKETS; i++)
		len += sysfs_emit_at(buf, len, "%llu%c",
				     (unsigned long long)s.lat_hist[i],
				     i == RBLK_LAT_BUCKETS - 1 ? '\n' : ' ');
	return len;
}
static DEVICE_ATTR_RO(latency_hist);

struct rblk_busy_count {
	struct rblk_ctrl *ctrl;
	u32 *count;
};

static bool rblk_count_busy(struct request *rq, void *data)
{
	struct rblk_busy_count *bc = data;
	struct rblk_request *req = blk_mq_rq_to_pdu(rq);

	if (req->queue->qid && req->queue->qid <= bc->ctrl->nr_io_queues)
		bc->count[req->queue->qid - 1]++;
	return true;
}

/* Counted on demand from the tags, so the I/O path pays nothing. */
static ssize_t outstanding_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct rblk_ctrl *ctrl = rblk_dev_to_ctrl(dev);
	struct rblk_busy_count bc = { .ctrl = ctrl };
	int len = 0;
	u32 i;

	/*
	 * A reconnect may change the number of queues and their tags.  No
	 * allocation under the lock: reclaim could write to this disk
	 * while a change holds it frozen.
	 */
	bc.count = kcalloc(ctrl->opts.nr_io_queues, sizeof(u32), GFP_KERNEL);
	if (!bc.count)
		return -ENOMEM;
	mutex_lock(&ctrl->hw_queues_lock);
	blk_mq_tagset_busy_iter(&ctrl->tag_set, rblk_count_busy, &bc);
	for (i = 0; i < ctrl->nr_io_queues; i++)
		len += sysfs_emit_at(buf, len, "%u%c", bc.count[i],
				     i == ctrl->nr_io_queues - 1 ? '\n' : ' ');
	mutex_unlock(&ctrl->hw_queues_lock);
	kfree(bc.count);
	return len;
}
static DEVICE_ATTR_RO(outstanding);

static ssize_t reset_stats_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	bool reset;
	int ret;

	ret = kstrtobool(buf, &reset);
	if (ret)
		return ret;
	if (reset)
		rblk_stats_reset(rblk_dev_to_ctrl(dev));
	return count;
}
static DEVICE_ATTR_WO(reset_stats);

static ssize_t reset_controller_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf, size_t count)
{
	bool reset;
	int ret;

	ret = kstrtobool(buf, &reset);
	if (ret)
		return ret;
	if (reset) {
		ret = rblk_ctrl_reset(rblk_dev_to_ctrl(dev));
		if (ret)
			return ret;
	}
	return count;
}
static DEVICE_ATTR_WO(reset_controller);

static struct attribute *rblk_attrs[] = {
	&dev_attr_state.attr,
	&dev_attr_transport.attr,
	&dev_attr_traddr.attr,
	&dev_attr_trsvcid.attr,
	&dev_attr_subsysnqn.attr,
	&dev_attr_hostnqn.attr,
	&dev_attr_hostid.attr,
	&dev_attr_nsid.attr,
	&dev_attr_cntlid.attr,
	&dev_attr_model.attr,
	&dev_attr_serial.attr,
	&dev_attr_firmware_rev.attr,
	&dev_attr_nr_io_queues.attr,
	&dev_attr_queue_size.attr,
	&dev_attr_kato.attr,
	&dev_attr_reconnect_delay.attr,
	&dev_attr_ctrl_loss_tmo.attr,
	&dev_attr_fast_io_fail_tmo.attr,
	&dev_attr_reads.attr,
	&dev_attr_writes.attr,
	&dev_attr_flushes.attr,
	&dev_attr_discards.attr,
	&dev_attr_read_bytes.attr,
	&dev_attr_write_bytes.attr,
	&dev_attr_discard_bytes.attr,
	&dev_attr_inline_writes.attr,
	&dev_attr_timeouts.attr,
	&dev_attr_reconnects.attr,
	&dev_attr_reconnect_attempts.attr,
	&dev_attr_errors_generic.attr,
	&dev_attr_errors_cmd_specific.attr,
	&dev_attr_errors_media.attr,
	&dev_attr_errors_path.attr,
	&dev_attr_errors_vendor.attr,
	&dev_attr_latency_hist.attr,
	&dev_attr_outstanding.attr,
	&dev_attr_reset_stats.attr,
	&dev_attr_reset_controller.attr,
	NULL,
};

static const struct attribute_group rblk_attr_group = {
	.name	= "rblk",
	.attrs	= rblk_attrs,
};

const struct attribute_group *rblk_disk_groups[] = {
	&rblk_attr_group,
	NULL,
};
