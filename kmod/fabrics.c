// SPDX-License-Identifier: GPL-2.0
/*
 * rblk NVMe over Fabrics protocol: command capsules for Connect, Property
 * Get/Set, Identify, Set Features, Get Log Page and Keep Alive, and the
 * controller enable/shutdown sequences built on them.  Everything here is
 * one exchange with the target; the controller (ctrl.c) decides when.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "rblk.h"
#include "trace.h"

/*
 * Discovery log records per Get Log Page at most (32 KiB, one bounce
 * buffer); fewer when MDTS or the transport take less.
 */
#define RBLK_DISC_CHUNK		32
/* A whole discovery log within this, however slowly the target answers. */
#define RBLK_DISC_READ_TMO	(30 * HZ)

/*
 * Part of connecting a queue: Fabrics Connect, and the Authentication
 * Send/Receive that may follow it before the queue is live.
 */
static bool rblk_is_connecting_cmd(struct nvme_command *cmd)
{
	if (!nvme_is_fabrics(cmd))
		return false;
	switch (cmd->fabrics.fctype) {
	case nvme_fabrics_type_connect:
	case nvme_fabrics_type_auth_send:
	case nvme_fabrics_type_auth_receive:
		return true;
	default:
		return false;
	}
}

/*
 * Connect and authentication run one at a time (the connect is
 * serialised); should two ever overlap, the second is not tracked and
 * ends at its timeout.
 */
static void rblk_track_setup_rq(struct rblk_ctrl *ctrl, struct request *rq,
				bool start)
{
	unsigned long flags;

	spin_lock_irqsave(&ctrl->lock, flags);
	if (start && !ctrl->setup_rq)
		ctrl->setup_rq = rq;
	else if (!start && ctrl->setup_rq == rq)
		ctrl->setup_rq = NULL;
	spin_unlock_irqrestore(&ctrl->lock, flags);
}

/**
 * rblk_setup_rq_started() - a Connect or authentication command was
 *	started (its timer armed) on its queue
 * @ctrl: controller
 * @rq: the request, started
 *
 * rblk_ctrl_broken()'s abort only moves the timer of a started request:
 * one that a queue broke before it started (or before a requeue started
 * it again) is aborted now, under the lock that orders the two.
 */
void rblk_setup_rq_started(struct rblk_ctrl *ctrl, struct request *rq)
{
	unsigned long flags;

	spin_lock_irqsave(&ctrl->lock, flags);
	if (ctrl->setup_rq == rq &&
	    test_bit(RBLK_CTRL_SETUP_ERROR, &ctrl->flags))
		blk_abort_request(rq);
	spin_unlock_irqrestore(&ctrl->lock, flags);
}

/**
 * rblk_exec_cmd() - run one command synchronously
 * @ctrl: controller
 * @qid: queue to send it on; I/O queues for Fabrics Connect and the
 *	flushes of a queue-count change
 * @cmd: the command (command id is filled in on submission)
 * @buf: data buffer (kmalloc'ed, or kvmalloc'ed: blk_rq_map_kern() maps
 *	vmalloc memory too), or NULL
 * @len: data length
 * @result: completion result, or NULL
 *
 * Return: 0, a negative errno if the command could not be executed, or the
 * positive NVMe status the controller answered with.
 */
int rblk_exec_cmd(struct rblk_ctrl *ctrl, u16 qid, struct nvme_command *cmd,
		  void *buf, unsigned int len, union nvme_result *result)
{
	blk_opf_t op = nvme_is_write(cmd) ? REQ_OP_DRV_OUT : REQ_OP_DRV_IN;
	bool connect = rblk_is_connecting_cmd(cmd);
	/*
	 * Connect and authentication, and our commands on I/O queues, never
	 * wait for a tag.
	 */
	blk_mq_req_flags_t flags = connect || qid ? BLK_MQ_REQ_RESERVED : 0;
	struct request_queue *q = qid ? ctrl->connect_q : ctrl->admin_q;
	struct rblk_request *req;
	struct request *rq;
	blk_status_t sts;
	int ret;

	if (qid)
		rq = blk_mq_alloc_request_hctx(q, op, flags | BLK_MQ_REQ_NOWAIT,
					       qid - 1);
	else
		rq = blk_mq_alloc_request(q, op, flags);
	if (IS_ERR(rq))
		return PTR_ERR(rq);

	req = blk_mq_rq_to_pdu(rq);
	/* blk_execute_rq() polls for it: complete it where it is polled. */
	if (rq->mq_hctx->type == HCTX_TYPE_POLL)
		rq->cmd_flags |= REQ_POLLED;
	req->cmd = *cmd;
	req->flags = connect ? RBLK_REQ_CONNECT : 0;
	req->status = 0;
	rq->timeout = rblk_admin_timeout * HZ;

	if (buf && len) {
		ret = rblk_rq_map_kern(rq, buf, len, GFP_KERNEL);
		if (ret)
			goto out;
	}

	if (connect)
		rblk_track_setup_rq(ctrl, rq, true);
	sts = blk_execute_rq(rq, false);
	if (connect)
		rblk_track_setup_rq(ctrl, rq, false);
	if (req->status)
		ret = req->status;
	else
		ret = blk_status_to_errno(sts);
	if (result)
		*result = req->result;
out:
	blk_mq_free_request(rq);
	return ret;
}

/**
 * rblk_fabrics_connect() - send Fabrics Connect on a queue
 * @ctrl: controller; for I/O queues @ctrl->cntlid from the admin connect
 * @qid: queue id
 * @authreq: set to the authentication the target requires (the AUTHREQ
 *	bits of the result: %NVME_CONNECT_AUTHREQ_ATR, _ASCR)
 * @errmsg: set to a static reason on failure
 *
 * Return: 0 or a negative errno.
 */
int rblk_fabrics_connect(struct rblk_ctrl *ctrl, u16 qid, u32 *authreq,
			 const char **errmsg)
{
	struct nvmf_connect_data *data;
	struct nvme_command cmd = {};
	union nvme_result res;
	int ret;

	rblk_cmd_connect(&cmd, qid, (qid ? ctrl->queues[qid].queue_size :
				     RBLK_AQ_DEPTH) - 1,
			 ctrl->opts.kato * 1000);

	data = kzalloc(sizeof(*data), GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	rblk_connect_data(data, &ctrl->opts.hostid, qid ? ctrl->cntlid : 0xffff,
			  ctrl->opts.subsysnqn, ctrl->opts.hostnqn);

	ret = rblk_exec_cmd(ctrl, qid, &cmd, data, sizeof(*data), &res);
	kfree(data);
	trace_rblk_queue_connect(ctrl, qid, le16_to_cpu(cmd.connect.sqsize) + 1,
				 ret);
	/*
	 * The host's own verdict (timed out, cancelled, queue not ready):
	 * the target never answered, so it refused nothing.
	 */
	if (ret > 0 && rblk_status_is_host_path(ret)) {
		*errmsg = "Fabrics Connect did not complete";
		rblk_err(ctrl, "queue %u: Connect failed, host status %#x\n",
			 qid, ret);
		return (ret & RBLK_SC_MASK) == NVME_SC_HOST_ABORTED_CMD ?
		       -ETIMEDOUT : -ECONNRESET;
	}
	if (ret > 0) {
		int status = ret;

		*errmsg = rblk_connect_error(status, &ret);
		ctrl->refusal.status = status & RBLK_SC_MASK;
		rblk_err(ctrl, "queue %u: Connect failed, status %#x: %s\n",
			 qid, status, *errmsg);
		return ret;
	}
	if (ret < 0) {
		*errmsg = "Fabrics Connect did not complete";
		rblk_err(ctrl, "queue %u: Connect failed: %d\n", qid, ret);
		return ret == -EIO ? -ETIMEDOUT : ret;
	}
	if (!qid)
		WRITE_ONCE(ctrl->cntlid, le16_to_cpu(res.u16));
	*authreq = le32_to_cpu(res.u32) &
		   (NVME_CONNECT_AUTHREQ_ATR | NVME_CONNECT_AUTHREQ_ASCR);
	return 0;
}

/**
 * rblk_fabrics_auth() - send or receive one authentication message
 * @ctrl: controller
 * @qid: queue being connected
 * @send: Authentication Send of @len bytes of @buf; else Authentication
 *	Receive into @buf, of @len bytes
 * @buf: message buffer, kmalloc'ed
 * @len: message length (Send), buffer size (Receive)
 *
 * DH-HMAC-CHAP (auth.c) between Connect and the queue going live.
 *
 * Return: 0; the positive NVMe status the target answered with;
 * -ETIMEDOUT or -ECONNRESET if the host gave up on the command (timed out,
 * or the queue broke); another negative errno if it could not be sent.
 */
int rblk_fabrics_auth(struct rblk_ctrl *ctrl, u16 qid, bool send, void *buf,
		      u32 len)
{
	struct nvme_command cmd = {};
	int ret;

	if (send)
		rblk_cmd_auth_send(&cmd, len);
	else
		rblk_cmd_auth_receive(&cmd, len);
	ret = rblk_exec_cmd(ctrl, qid, &cmd, buf, len, NULL);
	/* As for Connect: the host's verdict is no answer. */
	if (ret > 0 && rblk_status_is_host_path(ret))
		return (ret & RBLK_SC_MASK) == NVME_SC_HOST_ABORTED_CMD ?
		       -ETIMEDOUT : -ECONNRESET;
	if (ret == -EIO)
		return -ETIMEDOUT;
	return ret;
}

/**
 * rblk_prop_get() - read a controller property
 * @ctrl: controller
 * @off: property offset (NVME_REG_*)
 * @is64: 8-byte property
 * @val: value read
 *
 * Return: 0 or a negative errno.
 */
int rblk_prop_get(struct rblk_ctrl *ctrl, u32 off, bool is64, u64 *val)
{
	struct nvme_command cmd = {};
	union nvme_result res;
	int ret;

	rblk_cmd_prop_get(&cmd, off, is64);

	ret = rblk_exec_cmd(ctrl, 0, &cmd, NULL, 0, &res);
	if (ret) {
		rblk_err(ctrl, "Property Get %#x failed: %d\n", off, ret);
		return rblk_status_to_errno(ret);
	}
	*val = is64 ? le64_to_cpu(res.u64) : le32_to_cpu(res.u32);
	return 0;
}

/**
 * rblk_prop_set() - write a 4-byte controller property
 * @ctrl: controller
 * @off: property offset (NVME_REG_*)
 * @val: value
 *
 * Return: 0 or a negative errno.
 */
int rblk_prop_set(struct rblk_ctrl *ctrl, u32 off, u32 val)
{
	struct nvme_command cmd = {};
	int ret;

	rblk_cmd_prop_set(&cmd, off, val);

	ret = rblk_exec_cmd(ctrl, 0, &cmd, NULL, 0, NULL);
	if (ret)
		rblk_err(ctrl, "Property Set %#x failed: %d\n", off, ret);
	return rblk_status_to_errno(ret);
}

static int rblk_wait_csts(struct rblk_ctrl *ctrl, u32 mask, u32 val,
			  unsigned long timeout, const char *what)
{
	unsigned long deadline = jiffies + timeout;
	u64 csts;
	int ret;

	for (;;) {
		ret = rblk_prop_get(ctrl, NVME_REG_CSTS, false, &csts);
		if (ret)
			return ret;
		if (csts == ~0U)
			return -ENODEV;
		if ((csts & mask) == val)
			return 0;
		if (csts & NVME_CSTS_CFS) {
			rblk_err(ctrl, "controller fatal status while waiting for %s\n",
				 what);
			return -EIO;
		}
		if (fatal_signal_pending(current))
			return -EINTR;
		if (time_after(jiffies, deadline)) {
			rblk_err(ctrl, "timed out waiting for %s (CSTS %#llx)\n",
				 what, csts);
			return -ETIMEDOUT;
		}
		msleep(20);
	}
}

/**
 * rblk_enable_ctrl() - read CAP/VS, set CC.EN and wait for CSTS.RDY
 * @ctrl: controller with a live admin queue
 *
 * Return: 0 or a negative errno.
 */
int rblk_enable_ctrl(struct rblk_ctrl *ctrl)
{
	u64 vs;
	int ret;

	ret = rblk_prop_get(ctrl, NVME_REG_CAP, true, &ctrl->cap);
	if (ret)
		return ret;
	ret = rblk_prop_get(ctrl, NVME_REG_VS, false, &vs);
	if (ret)
		return ret;
	ctrl->vs = vs;

	if (NVME_CAP_MPSMIN(ctrl->cap) > PAGE_SHIFT - 12) {
		rblk_err(ctrl, "minimum controller page size %u is too large\n",
			 1U << (NVME_CAP_MPSMIN(ctrl->cap) + 12));
		return -ENODEV;
	}

	ctrl->ctrl_config = rblk_cc_enable(PAGE_SHIFT);
	ret = rblk_prop_set(ctrl, NVME_REG_CC, ctrl->ctrl_config);
	if (ret)
		return ret;

	return rblk_wait_csts(ctrl, NVME_CSTS_RDY, NVME_CSTS_RDY,
			      msecs_to_jiffies(rblk_cap_ready_timeout_ms(ctrl->cap)),
			      "CSTS.RDY");
}

/**
 * rblk_shutdown_ctrl() - request a normal shutdown and wait for it
 * @ctrl: controller with a live admin queue
 *
 * Return: 0 or a negative errno.
 */
int rblk_shutdown_ctrl(struct rblk_ctrl *ctrl)
{
	unsigned long timeout = RBLK_SHUTDOWN_TIMEOUT * HZ;
	int ret;

	if (ctrl->rtd3e)
		timeout = max(timeout,
			      usecs_to_jiffies(min_t(u32, ctrl->rtd3e,
						     60 * USEC_PER_SEC)));

	ctrl->ctrl_config &= ~NVME_CC_SHN_MASK;
	ctrl->ctrl_config |= NVME_CC_SHN_NORMAL;
	ret = rblk_prop_set(ctrl, NVME_REG_CC, ctrl->ctrl_config);
	if (ret)
		return ret;
	return rblk_wait_csts(ctrl, NVME_CSTS_SHST_MASK, NVME_CSTS_SHST_CMPLT,
			      timeout, "shutdown");
}

static int rblk_identify(struct rblk_ctrl *ctrl, u8 cns, u32 nsid, void *id)
{
	struct nvme_command cmd = {};

	rblk_cmd_identify(&cmd, cns, nsid);
	return rblk_exec_cmd(ctrl, 0, &cmd, id, NVME_IDENTIFY_DATA_SIZE, NULL);
}

/**
 * rblk_identify_ctrl() - read Identify Controller and keep what we use
 * @ctrl: enabled controller
 *
 * Return: 0 or a negative errno.
 */
int rblk_identify_ctrl(struct rblk_ctrl *ctrl)
{
	struct nvme_id_ctrl *id;
	int ret;

	id = kmalloc(sizeof(*id), GFP_KERNEL);
	if (!id)
		return -ENOMEM;
	ret = rblk_identify(ctrl, NVME_ID_CNS_CTRL, 0, id);
	if (ret) {
		rblk_err(ctrl, "Identify Controller failed: %d\n", ret);
		ret = rblk_status_to_errno(ret);
		goto out;
	}

	rblk_id_string(ctrl->serial, id->sn, sizeof(id->sn));
	rblk_id_string(ctrl->model, id->mn, sizeof(id->mn));
	rblk_id_string(ctrl->firmware, id->fr, sizeof(id->fr));
	if (!rblk_id_subnqn(ctrl->subnqn, id))
		strscpy(ctrl->subnqn, ctrl->opts.subsysnqn, sizeof(ctrl->subnqn));
	ctrl->ioccsz = le32_to_cpu(id->ioccsz);
	ctrl->icdoff = le16_to_cpu(id->icdoff);
	ctrl->oncs = le16_to_cpu(id->oncs);
	ctrl->oaes = le32_to_cpu(id->oaes);
	ctrl->vwc = id->vwc;
	ctrl->lpa = id->lpa;
	ctrl->vid = le16_to_cpu(id->vid);
	ctrl->crdt[0] = le16_to_cpu(id->crdt1);
	ctrl->crdt[1] = le16_to_cpu(id->crdt2);
	ctrl->crdt[2] = le16_to_cpu(id->crdt3);
	ctrl->kas = le16_to_cpu(id->kas);
	ctrl->rtd3e = le32_to_cpu(id->rtd3e);
	ctrl->maxcmd = le16_to_cpu(id->maxcmd);
	ctrl->max_hw_sectors = rblk_mdts_sectors(ctrl->cap, id->mdts);
	rblk_ctrl_mpath_from_id(id, &ctrl->mpath);

	/* We only describe data with keyed SGL descriptors. */
	if (!ctrl->opts.discovery &&
	    !(le32_to_cpu(id->sgls) & RBLK_SGLS_KEYED)) {
		rblk_err(ctrl, "target does not support keyed SGL data blocks\n");
		ret = -EOPNOTSUPP;
	}
	if (ctrl->icdoff)
		rblk_warn(ctrl, "in-capsule data offset %u not supported, disabling inline data\n",
			  ctrl->icdoff);
	ctrl->ioccsz = rblk_io_capsule_units(ctrl->ioccsz, ctrl->icdoff,
					     le32_to_cpu(id->sgls));
	ctrl->icdoff = 0;
out:
	kfree(id);
	return ret;
}

/*
 * Only the target saying Invalid Namespace means the namespace is gone; a
 * status the host made up (aborted, no path) says nothing about it.
 */
static int rblk_identify_ns_errno(int status)
{
	int err = rblk_status_to_errno(status);

	return err == -ENODEV || err == -EIO ? err : -EREMOTEIO;
}

/**
 * rblk_identify_ns() - identify one namespace
 * @ctrl: enabled controller
 * @nsid: namespace id
 * @info: filled in: format, size and identifiers (Identify Namespace, and
 *	the Namespace Identification Descriptor list where the controller
 *	has one: NVMe 1.3 and later)
 *
 * Return: 0; -ENODEV if the namespace is not active (also when the target
 * answers Invalid Namespace); -EOPNOTSUPP for an LBA format rblk cannot
 * use; -EIO if the host failed the commands (no path, aborted);
 * -EREMOTEIO for another error status; another negative errno if the
 * commands could not be executed.
 */
int rblk_identify_ns(struct rblk_ctrl *ctrl, u32 nsid,
		     struct rblk_ns_info *info)
{
	struct nvme_lbaf *lbaf;
	struct nvme_id_ns *id;
	int ret;

	/* One buffer for both structures: each is 4 KiB. */
	id = kmalloc(NVME_IDENTIFY_DATA_SIZE, GFP_KERNEL);
	if (!id)
		return -ENOMEM;
	ret = rblk_identify(ctrl, NVME_ID_CNS_NS, nsid, id);
	if (ret) {
		if (ret > 0 && (ret & RBLK_SC_MASK) != NVME_SC_INVALID_NS)
			rblk_err(ctrl, "Identify Namespace %u failed, status %#x\n",
				 nsid, ret);
		ret = rblk_identify_ns_errno(ret);
		goto out;
	}
	ret = rblk_ns_info_from_id(id, PAGE_SHIFT, info);
	if (ret == -EOPNOTSUPP) {
		lbaf = &id->lbaf[nvme_lbaf_index(id->flbas)];
		rblk_err(ctrl, "namespace %u: unsupported LBA format (2^%u bytes, %u metadata)\n",
			 nsid, lbaf->ds, le16_to_cpu(lbaf->ms));
	}
	if (ret || ctrl->vs < NVME_VS(1, 3, 0))
		goto out;

	memset(id, 0, NVME_IDENTIFY_DATA_SIZE);
	ret = rblk_identify(ctrl, NVME_ID_CNS_NS_DESC_LIST, nsid, id);
	if (ret > 0 && rblk_status_to_errno(ret) == -EIO) {
		/* Failed by the host: no answer, not an absent list. */
		ret = -EIO;
	} else if (ret > 0) {
		/* Optional before NVMe 1.4: keep the Identify fields. */
		rblk_dbg(ctrl, "namespace %u: no descriptor list, status %#x\n",
			 nsid, ret);
		ret = 0;
	} else if (!ret && rblk_ns_ids_from_descs(id, NVME_IDENTIFY_DATA_SIZE,
						  &info->ids)) {
		rblk_warn(ctrl, "namespace %u: malformed identification descriptors\n",
			  nsid);
	}
out:
	kfree(id);
	return ret;
}

/**
 * rblk_identify_ns_list() - one page of the Active Namespace ID list
 * @ctrl: enabled controller
 * @prev: list the namespaces above this nsid (0 for the first page)
 * @list: %NVME_IDENTIFY_DATA_SIZE bytes (1024 ids), kmalloc'ed; ends at
 *	the first 0 if the page is not full
 *
 * Return: 0, -EOPNOTSUPP if the controller has no such list (before
 * NVMe 1.1), or another negative errno.
 */
int rblk_identify_ns_list(struct rblk_ctrl *ctrl, u32 prev, __le32 *list)
{
	int ret;

	if (ctrl->vs < NVME_VS(1, 1, 0))
		return -EOPNOTSUPP;
	ret = rblk_identify(ctrl, NVME_ID_CNS_NS_ACTIVE_LIST, prev, list);
	if (ret > 0) {
		rblk_warn(ctrl, "Identify Active Namespace List failed, status %#x\n",
			  ret);
		return -EOPNOTSUPP;
	}
	return ret;
}

/* Set Features with a value in dword 11 and no data; 0, status or errno. */
static int rblk_set_features(struct rblk_ctrl *ctrl, u8 fid, u32 dword11,
			     void *buf, unsigned int len, u32 *result)
{
	struct nvme_command cmd = {};
	union nvme_result res;
	int ret;

	rblk_cmd_set_features(&cmd, fid, dword11);
	ret = rblk_exec_cmd(ctrl, 0, &cmd, buf, len, &res);
	if (!ret && result)
		*result = le32_to_cpu(res.u32);
	return ret;
}

/**
 * rblk_configure_aen() - ask for the asynchronous events rblk handles
 * @ctrl: enabled controller, Identify Controller read and
 *	@ctrl->ana_log_size set for this association
 *
 * Namespace Attribute Notices, and ANA Change Notices when this
 * association reads the ANA log: a notice is re-armed only by reading
 * that log, so without it one notice would be all.  The rest would need
 * handlers rblk does not have.  A controller without them gets nothing
 * enabled.
 *
 * Return: 0, or a negative errno if the command could not be executed (a
 * refusal is only logged: the controller works without events).
 */
int rblk_configure_aen(struct rblk_ctrl *ctrl)
{
	u8 cmic = ctrl->mpath.cmic;
	u32 aens;
	int ret;

	if (!ctrl->ana_log_size)
		cmic &= ~NVME_CTRL_CMIC_ANA;
	if (ctrl->opts.discovery)
		aens = ctrl->oaes & NVME_AEN_CFG_DISC_CHANGE;
	else
		aens = rblk_aen_config(ctrl->oaes, cmic);
	if (!aens)
		return 0;
	ret = rblk_set_features(ctrl, NVME_FEAT_ASYNC_EVENT, aens, NULL, 0,
				NULL);
	if (ret > 0) {
		rblk_warn(ctrl, "Set Features Asynchronous Event Configuration failed, status %#x\n",
			  ret);
		return 0;
	}
	return ret;
}

/**
 * rblk_configure_acre() - enable the Command Retry Delay if the controller
 *	offers retry delay times
 * @ctrl: enabled controller, Identify Controller read
 *
 * Return: 0 or a negative errno if the command could not be executed;
 * %RBLK_CTRL_ACRE tells whether delays are in force.
 */
int rblk_configure_acre(struct rblk_ctrl *ctrl)
{
	struct nvme_feat_host_behavior *host;
	int ret;

	clear_bit(RBLK_CTRL_ACRE, &ctrl->flags);
	if (!ctrl->crdt[0])
		return 0;
	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host)
		return -ENOMEM;
	host->acre = NVME_ENABLE_ACRE;
	ret = rblk_set_features(ctrl, NVME_FEAT_HOST_BEHAVIOR, 0, host,
				sizeof(*host), NULL);
	kfree(host);
	if (!ret)
		set_bit(RBLK_CTRL_ACRE, &ctrl->flags);
	else if (ret > 0)
		ret = 0;	/* retries then go without delay */
	return ret;
}

/**
 * rblk_set_queue_count() - negotiate the number of I/O queues
 * @ctrl: enabled controller
 * @count: in: queues wanted; out: queues granted (may be 0)
 *
 * Return: 0 or a negative errno.
 */
int rblk_set_queue_count(struct rblk_ctrl *ctrl, u32 *count)
{
	struct nvme_command cmd = {};
	union nvme_result res;
	int ret;

	rblk_cmd_set_queue_count(&cmd, *count);
	ret = rblk_exec_cmd(ctrl, 0, &cmd, NULL, 0, &res);
	if (ret < 0)
		return ret;
	if (ret > 0) {
		/* A controller may refuse and still serve its default. */
		rblk_warn(ctrl, "Set Features Number of Queues failed, status %#x\n",
			  ret);
		*count = 0;
		return 0;
	}
	*count = min(*count, rblk_queue_count_granted(le32_to_cpu(res.u32)));
	return 0;
}

/* Get Log Page into @buf: 0, a negative errno or the NVMe status. */
static int __rblk_get_log(struct rblk_ctrl *ctrl, u8 lid, u64 offset,
			  void *buf, size_t len)
{
	struct nvme_command cmd = {};
	int ret;

	ret = rblk_cmd_get_log(&cmd, lid, offset, len);
	if (ret)
		return ret;
	return rblk_exec_cmd(ctrl, 0, &cmd, buf, len, NULL);
}

/* Get Log Page, a status logged and turned into an errno. */
static int rblk_get_log(struct rblk_ctrl *ctrl, u8 lid, u64 offset,
			void *buf, size_t len)
{
	int ret = __rblk_get_log(ctrl, lid, offset, buf, len);

	if (ret > 0)
		rblk_err(ctrl, "Get Log Page %#x at %llu failed, status %#x\n",
			 lid, offset, ret);
	return rblk_status_to_errno(ret);
}

/**
 * rblk_get_ana_log() - read the whole Asymmetric Namespace Access log page
 * @ctrl: enabled controller
 * @buf: kmalloc'ed or kvmalloc'ed buffer
 * @len: bytes to read: rblk_ana_log_size()'s, a multiple of 4 that one
 *	command transfers
 *
 * With NSIDs (no RGO) and without Retain Asynchronous Event: the read
 * re-arms the ANA Change Notice.  Nothing is logged: the caller decides
 * how loud a failure is (a controller goes on without ANA).
 *
 * Return: 0, a negative errno if the command could not be executed, or
 * the positive NVMe status the controller answered with.
 */
int rblk_get_ana_log(struct rblk_ctrl *ctrl, void *buf, size_t len)
{
	return __rblk_get_log(ctrl, NVME_LOG_ANA, 0, buf, len);
}

/**
 * rblk_get_effects_log() - keep the Commands Supported and Effects log
 * @ctrl: enabled controller, Identify Controller read
 *
 * Read once, by the first connect of a controller that has it (LPA bit
 * 1), as nvme-core: passthrough decides with it which commands an
 * unprivileged user may send and which need the namespaces frozen.
 * Without it, only the effects rblk_known_effects() knows.
 */
void rblk_get_effects_log(struct rblk_ctrl *ctrl)
{
	struct nvme_effects_log *log;
	int ret;

	if (ctrl->effects || !(ctrl->lpa & NVME_CTRL_LPA_CMD_EFFECTS_LOG))
		return;
	log = kzalloc(sizeof(*log), GFP_KERNEL);
	if (!log)
		return;
	ret = rblk_get_log(ctrl, NVME_LOG_CMD_EFFECTS, 0, log, sizeof(*log));
	if (ret) {
		rblk_warn(ctrl, "no Commands Supported and Effects log: %d\n",
			  ret);
		kfree(log);
		return;
	}
	/* Passthrough may be reading it already (a reconnect's read). */
	smp_store_release(&ctrl->effects, log);
}

/**
 * rblk_clear_changed_ns_log() - read the Changed Namespace List log page
 * @ctrl: live controller
 *
 * Reading the log re-arms the Namespace Attribute Notice.  Its content is
 * not used: the rescan compares every namespace anyway, and a list that
 * overflowed (more than 1024 changes) names none.
 *
 * Return: 0 or a negative errno.
 */
int rblk_clear_changed_ns_log(struct rblk_ctrl *ctrl)
{
	size_t len = NVME_MAX_CHANGED_NAMESPACES * sizeof(__le32);
	void *log;
	int ret;

	log = kmalloc(len, GFP_KERNEL);
	if (!log)
		return -ENOMEM;
	ret = rblk_get_log(ctrl, NVME_LOG_CHANGED_NS, 0, log, len);
	kfree(log);
	return ret;
}

/**
 * rblk_get_disc_log() - read the discovery log page
 * @ctrl: enabled discovery controller
 * @max: records to read at most
 * @log: filled in; the caller kvfree()s @log->entries
 *
 * The header, the records in chunks, then the header again: a generation
 * counter that moved means the log changed while it was read, and reading
 * starts over.  No read starts after %RBLK_DISC_READ_TMO, and each ends
 * within admin_timeout (a timeout starts recovery, which ends it): the
 * caller holds generic netlink's cb_lock for at most
 * %RBLK_DISC_READ_TMO + admin_timeout here.
 *
 * Return: 0 or a negative errno (-ETIMEDOUT past the deadline).
 */
int rblk_get_disc_log(struct rblk_ctrl *ctrl, u32 max,
		      struct rblk_disc_log *log)
{
	const size_t esz = sizeof(struct nvmf_disc_rsp_page_entry);
	struct nvmf_disc_rsp_page_entry *e = NULL;
	struct nvmf_disc_rsp_page_hdr *hdr;
	int ret, tries = 3;
	u64 genctr, total;
	u32 n, i, chunk, max_chunk;
	void *buf;

	unsigned long deadline = jiffies + RBLK_DISC_READ_TMO;

	/*
	 * ctrl->max_hw_sectors is MDTS; the admin queue's limit is what
	 * blk_rq_map_kern() lets through (MDTS and one memory registration),
	 * unless it predates this association's Identify.
	 */
	max_chunk = rblk_disc_chunk(min(ctrl->max_hw_sectors,
					queue_max_hw_sectors(ctrl->admin_q)),
				    RBLK_DISC_CHUNK);

	/* One bounce buffer for header and chunks: kmalloc'ed, DMA-able. */
	buf = kmalloc(max(sizeof(*hdr), max_chunk * esz), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	hdr = buf;
again:
	if (time_after(jiffies, deadline))
		goto expired;
	ret = rblk_get_log(ctrl, NVME_LOG_DISC, 0, hdr, sizeof(*hdr));
	if (ret)
		goto out;
	genctr = le64_to_cpu(hdr->genctr);
	total = le64_to_cpu(hdr->numrec);
	n = min_t(u64, total, max);

	kvfree(e);
	/* Up to 16 MiB held for a netlink dump: charged to its caller. */
	e = kvcalloc(max(n, 1U), esz, GFP_KERNEL_ACCOUNT);
	if (!e) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i += chunk) {
		chunk = min(n - i, max_chunk);
		ret = rblk_get_log(ctrl, NVME_LOG_DISC,
				   sizeof(*hdr) + (u64)i * esz, buf,
				   chunk * esz);
		if (ret)
			goto out;
		memcpy(&e[i], buf, chunk * esz);
		/*
		 * The caller holds the netlink cb_lock: a slow target must not
		 * keep it for up to admin_timeout per chunk.
		 */
		if (time_after(jiffies, deadline))
			goto expired;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto out;
		}
	}

	if (time_after(jiffies, deadline))
		goto expired;
	ret = rblk_get_log(ctrl, NVME_LOG_DISC, 0, hdr, sizeof(*hdr));
	if (ret)
		goto out;
	if (le64_to_cpu(hdr->genctr) != genctr) {
		if (--tries)
			goto again;
		rblk_err(ctrl, "discovery log changed on every read\n");
		ret = -EAGAIN;
		goto out;
	}
	if (total > n)
		rblk_warn(ctrl, "discovery log has %llu records, reporting the first %u\n",
			  total, n);
	log->entries = e;
	log->nr = n;
	log->numrec = total;
	log->genctr = genctr;
	e = NULL;
	goto out;

expired:
	rblk_err(ctrl, "discovery log not read within %u s\n",
		 RBLK_DISC_READ_TMO / HZ);
	ret = -ETIMEDOUT;
out:
	kvfree(e);
	kfree(buf);
	return ret;
}

/**
 * rblk_rearm_disc_change() - read the discovery log's header, which
 *	re-arms the Discovery Log Page Change notice
 * @ctrl: enabled discovery controller
 *
 * Return: 0 or a negative errno.
 */
int rblk_rearm_disc_change(struct rblk_ctrl *ctrl)
{
	struct nvmf_disc_rsp_page_hdr *hdr;
	int ret;

	/* kmalloc'ed: DMA-able. */
	hdr = kmalloc(sizeof(*hdr), GFP_KERNEL);
	if (!hdr)
		return -ENOMEM;
	ret = rblk_get_log(ctrl, NVME_LOG_DISC, 0, hdr, sizeof(*hdr));
	kfree(hdr);
	return ret;
}

/**
 * rblk_send_keep_alive() - send a Keep Alive command without waiting
 * @ctrl: controller with a live admin queue
 * @done: called with the request when it completes (its &rblk_request
 *	status holds the NVMe status); must free it; rq->end_io_data is @ctrl
 *
 * On a reserved tag, so that I/O never delays it; it times out after the
 * keep-alive timeout, as the target's timer would.
 *
 * Return: 0 if sent, -ENOMEM or -EWOULDBLOCK if no request was available.
 */
int rblk_send_keep_alive(struct rblk_ctrl *ctrl, rq_end_io_fn *done)
{
	struct rblk_request *req;
	struct request *rq;

	rq = blk_mq_alloc_request(ctrl->admin_q, REQ_OP_DRV_OUT,
				  BLK_MQ_REQ_RESERVED | BLK_MQ_REQ_NOWAIT);
	if (IS_ERR(rq))
		return PTR_ERR(rq);
	req = blk_mq_rq_to_pdu(rq);
	memset(&req->cmd, 0, sizeof(req->cmd));
	req->cmd.common.opcode = nvme_admin_keep_alive;
	req->flags = 0;
	req->status = 0;
	rq->timeout = ctrl->opts.kato * HZ;
	rq->end_io = done;
	rq->end_io_data = ctrl;
	blk_execute_rq_nowait(rq, false);
	return 0;
}
