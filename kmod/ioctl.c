// SPDX-License-Identifier: GPL-2.0
/*
 * rblk passthrough: the NVMe ioctls of <linux/nvme_ioctl.h> on a
 * controller's character device /dev/rblk-ctrlM and on each namespace's
 * block device, so that nvme-cli and smartctl work on rblk as they do on
 * nvme.  Like sysfs.c, this file is a user interface of the objects below
 * it: host.c registers the character device with rblk_ctrl_fops, ns.c's
 * disks call rblk_ns_ioctl().
 *
 * The rules are nvme-core's (6.12, nvme_cmd_allowed()): CAP_SYS_ADMIN for
 * admin commands (but the Identify pages a user needs to build I/O
 * commands), for vendor-specific and Fabrics commands, and for I/O
 * commands the Commands Supported and Effects log does not mark as plain
 * (supported, at most changing logical blocks, and those only with the
 * device open for writing).  A command that the effects say changes the
 * namespaces' format or set (Format NVM, Sanitize, CSE) runs with every
 * namespace's queue frozen and is followed by a rescan; NIC/NCC by a
 * rescan.  Metadata buffers are refused: rblk exposes no namespace with
 * metadata.
 *
 * One rule is rblk's own: nvme-core takes any caller's timeout_ms, rblk
 * only CAP_SYS_ADMIN's; anyone else's command has the queue's default
 * (io_timeout, admin_timeout): a passthrough command's timeout resets the
 * controller for every user of it, and one never answered holds the
 * namespace's removal until it times out.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/cdev.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <linux/ptrace.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "rblk.h"

static dev_t rblk_ctrl_base;

/* --- the gate: passthrough only while the controller's queues exist --- */

/**
 * rblk_passthru_init() - set up a new controller's passthrough gate, shut
 * @ctrl: controller being allocated
 */
void rblk_passthru_init(struct rblk_ctrl *ctrl)
{
	init_rwsem(&ctrl->passthru_rwsem);
	ctrl->passthru_ready = false;
}

/**
 * rblk_passthru_enable() - let ioctls reach a controller
 * @ctrl: controller whose first connect made it live: its admin queue and
 *	tag sets exist until rblk_passthru_disable()
 */
void rblk_passthru_enable(struct rblk_ctrl *ctrl)
{
	down_write(&ctrl->passthru_rwsem);
	ctrl->passthru_ready = true;
	up_write(&ctrl->passthru_rwsem);
}

/**
 * rblk_passthru_disable() - wait for the ioctls under way, refuse new ones
 * @ctrl: controller being deleted, after rblk_ctrl_stop() and before its
 *	queues are freed
 *
 * An ioctl under way ends promptly: its command was cancelled by the
 * stop, or fails as not ready, and the held I/O a freeze or a scan may
 * wait for was failed by rblk_ctrl_stop_recovery().  Not bounded so: a
 * command sent before the delete that the target never answers, and that
 * holds what the namespaces' removal waits for before the stop: a Format
 * NVM (the namespaces frozen, the scan lock) or an I/O passthrough (its
 * queue's usage), until its own timeout ends it, as with nvme.
 */
void rblk_passthru_disable(struct rblk_ctrl *ctrl)
{
	down_write(&ctrl->passthru_rwsem);
	ctrl->passthru_ready = false;
	up_write(&ctrl->passthru_rwsem);
}

static int rblk_passthru_begin(struct rblk_ctrl *ctrl)
{
	down_read(&ctrl->passthru_rwsem);
	if (!ctrl->passthru_ready) {
		up_read(&ctrl->passthru_rwsem);
		return -EWOULDBLOCK;
	}
	return 0;
}

static void rblk_passthru_end(struct rblk_ctrl *ctrl)
{
	up_read(&ctrl->passthru_rwsem);
}

/**
 * rblk_passthru_rescan_ctrl() - a namespace scan a user asked for
 * @ctrl: controller
 *
 * Inside the gate: a scan queued after the teardown cancelled the scan
 * work would run on a freed controller.
 *
 * Return: 0.
 */
int rblk_passthru_rescan_ctrl(struct rblk_ctrl *ctrl)
{
	/* No queues (yet, or any more): nothing to scan, as nvme ignores it. */
	if (rblk_passthru_begin(ctrl))
		return 0;
	rblk_ns_rescan(ctrl, false);
	rblk_passthru_end(ctrl);
	return 0;
}

/* --- commands --- */

/*
 * As nvme_to_user_ptr(): a 32-bit caller's upper bits are ignored, as a
 * 32-bit kernel would.
 */
static void __user *rblk_user_ptr(u64 ptrval)
{
	if (in_compat_syscall())
		ptrval = (compat_uptr_t)ptrval;
	return (void __user *)(uintptr_t)ptrval;
}

static u32 rblk_cmd_effects(struct rblk_ctrl *ctrl, struct rblk_ns *ns,
			    u8 opcode)
{
	/* Published by a connect (rblk_get_effects_log()), then constant. */
	const struct nvme_effects_log *log = smp_load_acquire(&ctrl->effects);
	u32 effects = 0;

	if (ns) {
		if (log)
			effects = le32_to_cpu(log->iocs[opcode]);
		/* Freezing the queue this command is on would deadlock. */
		effects = (effects | rblk_known_effects(true, opcode)) &
			  ~NVME_CMD_EFFECTS_CSE_MASK;
	} else {
		if (log)
			effects = le32_to_cpu(log->acs[opcode]);
		effects |= rblk_known_effects(false, opcode);
	}
	return effects;
}

/*
 * nvme_cmd_allowed() of 6.12, with the same reasons.  *@admin: whether it
 * took CAP_SYS_ADMIN (rblk_user_timeout() need not ask again).
 */
static bool rblk_cmd_allowed(struct rblk_ctrl *ctrl, struct rblk_ns *ns,
			     struct nvme_command *c, bool partition,
			     bool open_for_write, bool *admin)
{
	u32 effects;

	*admin = false;
	/* A partition's opener must not reach the whole namespace. */
	if (partition)
		goto admin;
	/* Unknown effects. */
	if (c->common.opcode >= RBLK_CMD_VENDOR_START ||
	    c->common.opcode == nvme_fabrics_command)
		goto admin;
	if (!ns) {
		/* What user space needs to build I/O commands, nothing secret. */
		if (c->common.opcode == nvme_admin_identify) {
			switch (c->identify.cns) {
			case NVME_ID_CNS_NS:
			case NVME_ID_CNS_CS_NS:
			case NVME_ID_CNS_NS_CS_INDEP:
			case NVME_ID_CNS_CS_CTRL:
			case NVME_ID_CNS_CTRL:
				return true;
			}
		}
		goto admin;
	}
	effects = rblk_cmd_effects(ctrl, ns, c->common.opcode);
	if (!(effects & NVME_CMD_EFFECTS_CSUPP))
		goto admin;
	if (effects & ~(NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_LBCC |
			NVME_CMD_EFFECTS_UUID_SEL |
			RBLK_CMD_EFFECTS_SCOPE_MASK))
		goto admin;
	if ((nvme_is_write(c) || (effects & NVME_CMD_EFFECTS_LBCC)) &&
	    !open_for_write)
		goto admin;
	return true;
admin:
	*admin = true;
	return capable(CAP_SYS_ADMIN);
}

/*
 * The timeout of a user's command in jiffies: @timeout_ms, or the
 * module's default for 0 and for any caller without CAP_SYS_ADMIN.  A timeout
 * resets the controller for everyone, so a reader's short one could reset
 * it again and again; and a command the target never answers holds the
 * namespace's removal until it times out, so a reader's long one could
 * hold a delete for weeks.  @admin: rblk_cmd_allowed() required
 * CAP_SYS_ADMIN already.  Otherwise asked without an audit record: the
 * answer refuses nothing.
 */
static unsigned int rblk_user_timeout(struct rblk_ns *ns, u32 timeout_ms,
				      bool admin)
{
	unsigned int dflt = (ns ? rblk_io_timeout : rblk_admin_timeout) * HZ;

	if (!timeout_ms ||
	    (!admin && !ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN)))
		return dflt;
	return min_t(unsigned long, msecs_to_jiffies(timeout_ms), UINT_MAX);
}

/*
 * What is frozen around a command whose effects change the namespaces'
 * format or set (rblk_passthru_before()): this controller's namespaces,
 * those of the subsystem's other live controllers (a Format NVM or a
 * Sanitize changes them for every path) and the heads of all of them.
 */
struct rblk_passthru_freeze {
	struct rblk_ns **ns;
	unsigned int nr;
	struct rblk_ctrl **others;
	unsigned int nr_others;
	struct rblk_ns **others_ns;
	unsigned int nr_others_ns;
	struct gendisk **heads;
	unsigned int nr_heads;
	unsigned int noio;
};

static void rblk_passthru_put(struct rblk_passthru_freeze *f)
{
	unsigned int i;

	for (i = 0; i < f->nr_heads; i++)
		put_disk(f->heads[i]);
	kfree(f->heads);
	rblk_ns_put_all(f->others_ns, f->nr_others_ns);
	rblk_ns_put_all(f->ns, f->nr);
	f->heads = NULL;
	f->others_ns = NULL;
	f->ns = NULL;
	f->nr_heads = f->nr_others_ns = f->nr = 0;
}

/*
 * Everything referenced and every array allocated before the first
 * freeze: from then on an allocation's reclaim could write to a frozen
 * queue and wait for it, and a lock taken could be one such an
 * allocation holds.
 */
static int rblk_passthru_get(struct rblk_ctrl *ctrl,
			     struct rblk_passthru_freeze *f)
{
	struct rblk_ns **part, **all;
	unsigned int i, n;

	f->ns = rblk_ns_get_all(ctrl, &f->nr);
	if (!f->ns && f->nr) {
		f->nr = 0;
		goto nomem;
	}
	f->others = rblk_subsys_get_other_ctrls(ctrl, &f->nr_others);
	if (IS_ERR(f->others)) {
		f->others = NULL;
		goto nomem;
	}
	for (i = 0; i < f->nr_others; i++) {
		part = rblk_ns_get_all(f->others[i], &n);
		if (!part) {
			if (n)
				goto nomem;
			continue;
		}
		all = krealloc_array(f->others_ns, f->nr_others_ns + n,
				     sizeof(*all), GFP_KERNEL);
		if (!all) {
			rblk_ns_put_all(part, n);
			goto nomem;
		}
		memcpy(all + f->nr_others_ns, part, n * sizeof(*part));
		kfree(part);
		f->others_ns = all;
		f->nr_others_ns += n;
	}
	if (f->nr + f->nr_others_ns) {
		f->heads = kcalloc(f->nr + f->nr_others_ns, sizeof(*f->heads),
				   GFP_KERNEL);
		if (!f->heads)
			goto nomem;
		f->nr_heads = rblk_head_disks_get(f->ns, f->nr, f->heads, 0);
		f->nr_heads = rblk_head_disks_get(f->others_ns, f->nr_others_ns,
						  f->heads, f->nr_heads);
	}
	return 0;

nomem:
	rblk_passthru_put(f);
	return -ENOMEM;
}

/* Undo rblk_passthru_freeze(): the paths, then the heads' held bios. */
static void rblk_passthru_unfreeze(struct rblk_passthru_freeze *f)
{
	unsigned int i;

	rblk_ns_unfreeze_all(f->others_ns, f->nr_others_ns);
	rblk_ns_unfreeze_all(f->ns, f->nr);
	for (i = 0; i < f->nr_heads; i++)
		rblk_unfreeze_non_owner(f->heads[i]->queue);
	memalloc_noio_restore(f->noio);
}

/*
 * New I/O held at the heads first (as nvme_mpath_start_freeze()), so that
 * no bio waits on a path that might go meanwhile; then this controller's
 * I/O drained, as long as it takes (as nvme), while the other paths still
 * take what it hands on (a flush stands in there for one its path cannot
 * take); then the others', within the I/O timeout, or the command is not
 * sent (-EBUSY: a path whose I/O does not end is recovering).  A bio that
 * left a head just before its freeze may still wait at a path's queue, as
 * in nvme.
 */
static int rblk_passthru_freeze(struct rblk_ctrl *ctrl,
				struct rblk_passthru_freeze *f)
{
	unsigned int secs = max(READ_ONCE(rblk_io_timeout), 1U);
	unsigned int i;

	f->noio = memalloc_noio_save();
	for (i = 0; i < f->nr_heads; i++)
		rblk_freeze_start_non_owner(f->heads[i]->queue);
	for (i = 0; i < f->nr_heads; i++)
		blk_mq_freeze_queue_wait(f->heads[i]->queue);
	rblk_ns_freeze_start_all(f->ns, f->nr);
	rblk_ns_freeze_wait_all(f->ns, f->nr, 0);
	rblk_ns_freeze_start_all(f->others_ns, f->nr_others_ns);
	if (rblk_ns_freeze_wait_all(f->others_ns, f->nr_others_ns,
				    (unsigned long)secs * HZ))
		return 0;
	rblk_passthru_unfreeze(f);
	rblk_warn(ctrl, "another path's I/O did not end within %u s: command not sent\n",
		  secs);
	return -EBUSY;
}

/*
 * Before a command whose effects change the namespaces' format or set:
 * nothing of the old format is in flight or sent while it runs, through
 * any path of the subsystem (nvme-core freezes only the issuing
 * controller's queues), and no scan of this controller runs
 * (ctrl->scan_lock, held until rblk_passthru_after()).
 */
static int rblk_passthru_before(struct rblk_ctrl *ctrl, u32 effects,
				struct rblk_passthru_freeze *f)
{
	int ret;

	if (!(effects & NVME_CMD_EFFECTS_CSE_MASK))
		return 0;
	mutex_lock(&ctrl->scan_lock);
	ret = rblk_passthru_get(ctrl, f);
	if (!ret)
		ret = rblk_passthru_freeze(ctrl, f);
	if (ret) {
		rblk_passthru_put(f);
		rblk_ctrls_put(f->others, f->nr_others);
		f->others = NULL;
		f->nr_others = 0;
		mutex_unlock(&ctrl->scan_lock);
	}
	return ret;
}

static void rblk_passthru_after(struct rblk_ctrl *ctrl, u32 effects,
				struct rblk_passthru_freeze *f)
{
	if (effects & NVME_CMD_EFFECTS_CSE_MASK) {
		rblk_passthru_unfreeze(f);
		rblk_passthru_put(f);
		mutex_unlock(&ctrl->scan_lock);
	}
}

/*
 * Format, capacity or the set of namespaces changed: look again (the
 * scan is queued here, inside the gate, and waited for by
 * rblk_passthru_rescan_wait()).  Once the request is freed: the scan may
 * freeze or remove its queue.
 */
static bool rblk_passthru_rescan(struct rblk_ctrl *ctrl, u32 effects)
{
	if (!(effects & (NVME_CMD_EFFECTS_CSE_MASK | NVME_CMD_EFFECTS_NIC |
			 NVME_CMD_EFFECTS_NCC)))
		return false;
	rblk_ns_rescan(ctrl, false);
	return true;
}

/*
 * After the issuing controller's gate is left (one gate at a time: they
 * are of one lock class): the other paths scan too, each queued inside
 * its own gate (a delete may be under way), all at once so that no path
 * keeps the old format longer than it must; the ioctl returns once every
 * scan ended.
 */
static void rblk_passthru_rescan_wait(struct rblk_ctrl *ctrl, bool scanned,
				      struct rblk_passthru_freeze *f)
{
	unsigned int i;

	for (i = 0; i < f->nr_others; i++) {
		if (rblk_passthru_begin(f->others[i]))
			continue;
		rblk_ns_rescan(f->others[i], false);
		rblk_passthru_end(f->others[i]);
	}
	if (scanned)
		rblk_ns_scan_flush(ctrl);
	for (i = 0; i < f->nr_others; i++)
		rblk_ns_scan_flush(f->others[i]);
	rblk_ctrls_put(f->others, f->nr_others);
	f->others = NULL;
	f->nr_others = 0;
}

/*
 * Run @cmd on the admin queue, or on @ns's, with the user's data buffer,
 * inside the passthrough gate: the queues exist until it is shut.
 * @timeout: in jiffies, from rblk_user_timeout().
 * Return: 0, the positive NVMe status the controller answered with, or a
 * negative errno (-EINTR for a command recovery cancelled, as nvme).
 */
static int rblk_submit_user_cmd(struct rblk_ctrl *ctrl, struct rblk_ns *ns,
				struct nvme_command *cmd, u64 ubuf,
				u32 len, unsigned int timeout, u64 *result)
{
	blk_opf_t op = nvme_is_write(cmd) ? REQ_OP_DRV_OUT : REQ_OP_DRV_IN;
	struct rblk_passthru_freeze frozen = {};
	struct request_queue *q;
	struct rblk_request *req;
	struct bio *bio = NULL;
	struct request *rq;
	blk_status_t sts;
	bool scanned;
	u32 effects;
	int ret;

	effects = rblk_cmd_effects(ctrl, ns, cmd->common.opcode);
	ret = rblk_passthru_begin(ctrl);
	if (ret)
		return ret;
	q = ns ? ns->queue : ctrl->admin_q;
	rq = blk_mq_alloc_request(q, op, 0);
	if (IS_ERR(rq)) {
		ret = PTR_ERR(rq);
		goto out_end;
	}
	req = blk_mq_rq_to_pdu(rq);
	req->cmd = *cmd;
	req->flags = RBLK_REQ_USER;
	req->status = 0;
	memset(&req->result, 0, sizeof(req->result));
	rq->timeout = timeout;
	if (ubuf && len) {
		ret = blk_rq_map_user(q, rq, NULL, rblk_user_ptr(ubuf), len,
				      GFP_KERNEL);
		if (ret)
			goto out_free;
		bio = rq->bio;
	}

	ret = rblk_passthru_before(ctrl, effects, &frozen);
	if (ret)
		goto out_unmap;
	sts = blk_execute_rq(rq, false);
	rblk_passthru_after(ctrl, effects, &frozen);

	if ((req->status & RBLK_SC_MASK) == NVME_SC_HOST_ABORTED_CMD)
		ret = -EINTR;
	else if (req->status)
		ret = req->status;
	else
		ret = blk_status_to_errno(sts);
	if (result)
		*result = le64_to_cpu(req->result.u64);
	if (bio)
		blk_rq_unmap_user(bio);
	blk_mq_free_request(rq);
	scanned = rblk_passthru_rescan(ctrl, effects);
	rblk_passthru_end(ctrl);
	rblk_passthru_rescan_wait(ctrl, scanned, &frozen);
	return ret;

out_unmap:
	if (bio)
		blk_rq_unmap_user(bio);
out_free:
	blk_mq_free_request(rq);
out_end:
	rblk_passthru_end(ctrl);
	return ret;
}

/* The fields of a passthrough command a user may set, as nvme copies them. */
static int rblk_user_cmd_build(struct nvme_command *c, u8 opcode, u8 flags,
			       u32 nsid, u32 cdw2, u32 cdw3, const u32 *cdw10,
			       u64 metadata, u32 metadata_len)
{
	/* PSDT and fused operations are ours to set. */
	if (flags)
		return -EINVAL;
	/* Fabrics commands are the transport's: Connect, property access. */
	if (opcode == nvme_fabrics_command)
		return -EINVAL;
	/* No namespace with metadata is exposed. */
	if (metadata || metadata_len)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->common.opcode = opcode;
	c->common.nsid = cpu_to_le32(nsid);
	c->common.cdw2[0] = cpu_to_le32(cdw2);
	c->common.cdw2[1] = cpu_to_le32(cdw3);
	c->common.cdw10 = cpu_to_le32(cdw10[0]);
	c->common.cdw11 = cpu_to_le32(cdw10[1]);
	c->common.cdw12 = cpu_to_le32(cdw10[2]);
	c->common.cdw13 = cpu_to_le32(cdw10[3]);
	c->common.cdw14 = cpu_to_le32(cdw10[4]);
	c->common.cdw15 = cpu_to_le32(cdw10[5]);
	return 0;
}

/*
 * NVME_IOCTL_{ADMIN,IO}_CMD and their 64-bit forms.  @ns: the namespace
 * of the block device, or for an I/O command on the character device the
 * one its nsid names; NULL for admin commands.
 */
static int rblk_user_cmd(struct rblk_ctrl *ctrl, struct rblk_ns *ns,
			 void __user *argp, bool is64, bool partition,
			 bool open_for_write)
{
	struct nvme_passthru_cmd64 cmd = {};
	struct nvme_command c;
	u64 result = 0;
	u32 cdw[6];
	bool admin;
	int ret;

	if (is64) {
		if (copy_from_user(&cmd, argp, sizeof(cmd)))
			return -EFAULT;
	} else {
		struct nvme_passthru_cmd cmd32;

		if (copy_from_user(&cmd32, argp, sizeof(cmd32)))
			return -EFAULT;
		/* The same layout up to the result, which differs in width. */
		memcpy(&cmd, &cmd32, offsetof(struct nvme_passthru_cmd, result));
	}
	if (ns && cmd.nsid != ns->nsid) {
		rblk_err(ctrl, "%s: nsid %u in the command is not %s's (%u)\n",
			 current->comm, cmd.nsid, ns->name, ns->nsid);
		return -EINVAL;
	}
	cdw[0] = cmd.cdw10;
	cdw[1] = cmd.cdw11;
	cdw[2] = cmd.cdw12;
	cdw[3] = cmd.cdw13;
	cdw[4] = cmd.cdw14;
	cdw[5] = cmd.cdw15;
	ret = rblk_user_cmd_build(&c, cmd.opcode, cmd.flags, cmd.nsid,
				  cmd.cdw2, cmd.cdw3, cdw, cmd.metadata,
				  cmd.metadata_len);
	if (ret)
		return ret;
	if (!rblk_cmd_allowed(ctrl, ns, &c, partition, open_for_write, &admin))
		return -EACCES;

	ret = rblk_submit_user_cmd(ctrl, ns, &c, cmd.addr, cmd.data_len,
				   rblk_user_timeout(ns, cmd.timeout_ms, admin),
				   &result);
	if (ret >= 0) {
		if (is64) {
			struct nvme_passthru_cmd64 __user *u = argp;

			if (put_user(result, &u->result))
				return -EFAULT;
		} else {
			struct nvme_passthru_cmd __user *u = argp;

			if (put_user((u32)result, &u->result))
				return -EFAULT;
		}
	}
	return ret;
}

/* NVME_IOCTL_SUBMIT_IO: read, write or compare of whole blocks. */
static int rblk_submit_io(struct rblk_ns *ns, struct nvme_user_io __user *uio,
			  bool partition, bool open_for_write)
{
	struct nvme_user_io io;
	struct nvme_command c;
	u8 lba_shift;
	u64 length;
	bool admin;

	if (copy_from_user(&io, uio, sizeof(io)))
		return -EFAULT;
	if (io.flags || io.metadata)
		return -EINVAL;
	switch (io.opcode) {
	case nvme_cmd_write:
	case nvme_cmd_read:
	case nvme_cmd_compare:
		break;
	default:
		return -EINVAL;
	}
	mutex_lock(&ns->lock);
	lba_shift = ns->info.lba_shift;
	mutex_unlock(&ns->lock);
	length = ((u64)io.nblocks + 1) << lba_shift;
	if (length > UINT_MAX)
		return -EINVAL;

	memset(&c, 0, sizeof(c));
	c.rw.opcode = io.opcode;
	c.rw.nsid = cpu_to_le32(ns->nsid);
	c.rw.slba = cpu_to_le64(io.slba);
	c.rw.length = cpu_to_le16(io.nblocks);
	c.rw.control = cpu_to_le16(io.control);
	c.rw.dsmgmt = cpu_to_le32(io.dsmgmt);
	c.rw.reftag = cpu_to_le32(io.reftag);
	rblk_rw_set_lbat(&c, io.apptag, io.appmask);
	if (!rblk_cmd_allowed(ns->ctrl, ns, &c, partition, open_for_write,
			      &admin))
		return -EACCES;
	/* SUBMIT_IO has no timeout field: always the default. */
	return rblk_submit_user_cmd(ns->ctrl, ns, &c, io.addr, length,
				    rblk_user_timeout(ns, 0, true), NULL);
}

/* The namespace an I/O command on the character device names. */
static int rblk_ctrl_io_cmd(struct rblk_ctrl *ctrl, void __user *argp,
			    bool is64, bool open_for_write)
{
	struct rblk_ns *ns;
	__u32 nsid;
	int ret;

	/* nsid is at the same offset in both forms. */
	if (get_user(nsid, &((struct nvme_passthru_cmd __user *)argp)->nsid))
		return -EFAULT;
	ns = rblk_ns_open_nsid(ctrl, nsid);
	if (!ns)
		return -EINVAL;
	ret = rblk_user_cmd(ctrl, ns, argp, is64, false, open_for_write);
	rblk_ns_close(ns);
	return ret;
}

/*
 * NVME_IOCTL_RESET: as nvme_reset_ctrl_sync(), back once the reset's first
 * reconnect attempt ended: 0 if live again, -ENETRESET if not (it goes on
 * reconnecting).  Killable.
 */
static int rblk_ioctl_reset(struct rblk_ctrl *ctrl)
{
	s64 attempts = atomic64_read(&ctrl->reconnect_attempts);
	enum rblk_state state;
	int ret;

	ret = rblk_ctrl_reset(ctrl);
	if (ret)
		return ret;
	for (;;) {
		state = rblk_ctrl_state(ctrl);
		if (state == RBLK_STATE_LIVE)
			return 0;
		if (rblk_state_leaving(state))
			return -ENETRESET;
		/* An attempt failed: the next one is scheduled. */
		if (state == RBLK_STATE_CONNECTING &&
		    atomic64_read(&ctrl->reconnect_attempts) > attempts &&
		    delayed_work_pending(&ctrl->reconnect_work))
			return -ENETRESET;
		/* The reset goes on; only the wait for it ends. */
		if (signal_pending(current))
			return -EINTR;
		msleep_interruptible(20);
	}
}

/* --- the character device --- */

/**
 * rblk_ctrl_devt() - the character device number of a controller
 * @index: M of rblk-ctrlM, below %RBLK_CTRL_MINORS
 *
 * Return: its dev_t.
 */
dev_t rblk_ctrl_devt(int index)
{
	return MKDEV(MAJOR(rblk_ctrl_base), index);
}

static int rblk_ctrl_open(struct inode *inode, struct file *file)
{
	struct rblk_ctrl *ctrl = container_of(inode->i_cdev, struct rblk_ctrl,
					      cdev);

	/* The cdev's parent, the controller's device, holds it for us. */
	file->private_data = ctrl;
	return 0;
}

static long rblk_ctrl_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct rblk_ctrl *ctrl = file->private_data;
	bool open_for_write = file->f_mode & FMODE_WRITE;
	void __user *argp = (void __user *)arg;
	int ret = 0;

	switch (cmd) {
	case NVME_IOCTL_ADMIN_CMD:
		ret = rblk_user_cmd(ctrl, NULL, argp, false, false,
				    open_for_write);
		break;
	case NVME_IOCTL_ADMIN64_CMD:
		ret = rblk_user_cmd(ctrl, NULL, argp, true, false,
				    open_for_write);
		break;
	case NVME_IOCTL_IO_CMD:
		ret = rblk_ctrl_io_cmd(ctrl, argp, false, open_for_write);
		break;
	case NVME_IOCTL_IO64_CMD:
		ret = rblk_ctrl_io_cmd(ctrl, argp, true, open_for_write);
		break;
	case NVME_IOCTL_RESET:
		ret = capable(CAP_SYS_ADMIN) ? rblk_ioctl_reset(ctrl) : -EACCES;
		break;
	case NVME_IOCTL_SUBSYS_RESET:
		/* NVM Subsystem Reset would drop every host's connections. */
		ret = capable(CAP_SYS_ADMIN) ? -ENOTTY : -EACCES;
		break;
	case NVME_IOCTL_RESCAN:
		ret = capable(CAP_SYS_ADMIN) ? rblk_passthru_rescan_ctrl(ctrl) :
					       -EACCES;
		break;
	default:
		ret = -ENOTTY;
		break;
	}
	return ret;
}

/* /dev/rblk-ctrlM, as nvme's /dev/nvmeM; host.c registers it. */
const struct file_operations rblk_ctrl_fops = {
	.owner		= THIS_MODULE,
	.open		= rblk_ctrl_open,
	.unlocked_ioctl	= rblk_ctrl_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

/* --- the namespaces' block devices --- */

/* The NVMe ioctls of @bdev, a device of namespace @ns or of its head. */
static int rblk_bdev_ioctl(struct rblk_ns *ns, struct block_device *bdev,
			   rblk_bdev_open_mode_t mode, unsigned int cmd,
			   unsigned long arg)
{
	struct rblk_ctrl *ctrl = ns->ctrl;
	bool partition = bdev_is_partition(bdev);
	bool open_for_write = rblk_mode_writable(mode);
	void __user *argp = (void __user *)arg;
	int ret;

	switch (cmd) {
	case NVME_IOCTL_ID:
		force_successful_syscall_return();
		return ns->nsid;
	case NVME_IOCTL_ADMIN_CMD:
	case NVME_IOCTL_ADMIN64_CMD:
		ret = rblk_user_cmd(ctrl, NULL, argp,
				    cmd == NVME_IOCTL_ADMIN64_CMD, partition,
				    open_for_write);
		break;
	case NVME_IOCTL_IO_CMD:
	case NVME_IOCTL_IO64_CMD:
		ret = rblk_user_cmd(ctrl, ns, argp, cmd == NVME_IOCTL_IO64_CMD,
				    partition, open_for_write);
		break;
	case NVME_IOCTL_SUBMIT_IO:
		ret = rblk_submit_io(ns, argp, partition, open_for_write);
		break;
	default:
		ret = -ENOTTY;
		break;
	}
	return ret;
}

/**
 * rblk_ns_ioctl() - the NVMe ioctls of /dev/rblkN and its partitions
 * @bdev: block device opened
 * @mode: how it was opened
 * @cmd: ioctl
 * @arg: its argument
 *
 * Return: as nvme_ioctl(); -ENOTTY for what the block layer may handle.
 */
int rblk_ns_ioctl(struct block_device *bdev, rblk_bdev_open_mode_t mode,
		  unsigned int cmd, unsigned long arg)
{
	return rblk_bdev_ioctl(bdev->bd_disk->private_data, bdev, mode, cmd,
			       arg);
}

/**
 * rblk_head_ioctl() - the NVMe ioctls of a multipath head's /dev/rblkN
 * @bdev: block device opened
 * @mode: how it was opened
 * @cmd: ioctl
 * @arg: its argument
 *
 * Sent through the path the head's I/O would take, as nvme-core does.
 *
 * Return: as rblk_ns_ioctl(); -EWOULDBLOCK if no path may serve it.
 */
int rblk_head_ioctl(struct block_device *bdev, rblk_bdev_open_mode_t mode,
		    unsigned int cmd, unsigned long arg)
{
	struct rblk_ns *ns;
	int ret;

	if (cmd == NVME_IOCTL_ID) {
		force_successful_syscall_return();
		return rblk_head_nsid(bdev->bd_disk->private_data);
	}
	ns = rblk_head_open_path(bdev->bd_disk->private_data);
	if (!ns)
		return -EWOULDBLOCK;
	ret = rblk_bdev_ioctl(ns, bdev, mode, cmd, arg);
	rblk_ns_close(ns);
	return ret;
}

/**
 * rblk_ioctl_init() - reserve the controllers' character device numbers
 *
 * Return: 0 or a negative errno.
 */
int rblk_ioctl_init(void)
{
	return alloc_chrdev_region(&rblk_ctrl_base, 0, RBLK_CTRL_MINORS,
				   RBLK_CTRL_NAME_PREFIX);
}

/**
 * rblk_ioctl_exit() - release them, every controller gone
 */
void rblk_ioctl_exit(void)
{
	unregister_chrdev_region(rblk_ctrl_base, RBLK_CTRL_MINORS);
}
