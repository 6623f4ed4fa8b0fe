/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rblk tracepoints: commands as they go to the target and come back,
 * controller state changes, queue connects and the start of error
 * recovery (Documentation/tracing.rst).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rblk

#if !defined(_RBLK_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RBLK_TRACE_H

#include <linux/blk-mq.h>
#include <linux/tracepoint.h>

#include "rblk.h"

/* Exported so that user-space tools can resolve __print_symbolic(). */
TRACE_DEFINE_ENUM(RBLK_STATE_NEW);
TRACE_DEFINE_ENUM(RBLK_STATE_CONNECTING);
TRACE_DEFINE_ENUM(RBLK_STATE_LIVE);
TRACE_DEFINE_ENUM(RBLK_STATE_RESETTING);
TRACE_DEFINE_ENUM(RBLK_STATE_DELETING);
TRACE_DEFINE_ENUM(RBLK_STATE_DEAD);

#define show_rblk_state(state)					\
	__print_symbolic(state,					\
		{ RBLK_STATE_NEW,		"new" },	\
		{ RBLK_STATE_CONNECTING,	"connecting" },	\
		{ RBLK_STATE_LIVE,		"live" },	\
		{ RBLK_STATE_RESETTING,		"resetting" },	\
		{ RBLK_STATE_DELETING,		"deleting" },	\
		{ RBLK_STATE_DEAD,		"dead" })

#ifndef _RBLK_TRACE_HELPERS
#define _RBLK_TRACE_HELPERS
/* The block device a request is for, "" for the controller's own. */
static inline const char *rblk_trace_disk(struct request *rq)
{
	struct rblk_ns *ns = rblk_rq_ns(rq);

	return ns ? ns->name : "";
}

/* Read, Write and Write Zeroes carry a range at the same offsets. */
static inline bool rblk_trace_has_range(u16 qid, u8 opcode)
{
	return qid && (opcode == nvme_cmd_read || opcode == nvme_cmd_write ||
		       opcode == nvme_cmd_write_zeroes);
}
#endif /* _RBLK_TRACE_HELPERS */

TRACE_EVENT(rblk_setup_cmd,
	TP_PROTO(struct rblk_queue *queue, struct request *rq,
		 const struct nvme_command *cmd),
	TP_ARGS(queue, rq, cmd),
	TP_STRUCT__entry(
		__field(int, ctrl)
		__array(char, disk, RBLK_DISK_NAME_LEN)
		__field(u16, qid)
		__field(u16, cid)
		__field(u8, opcode)
		__field(u8, fctype)
		__field(u32, nsid)
		__field(u64, slba)
		__field(u32, nlb)
		__field(u32, bytes)
	),
	TP_fast_assign(
		const struct rblk_request *req = blk_mq_rq_to_pdu(rq);

		__entry->ctrl = queue->ctrl->index;
		strscpy(__entry->disk, rblk_trace_disk(rq), RBLK_DISK_NAME_LEN);
		__entry->qid = queue->qid;
		__entry->cid = req->cid;
		__entry->opcode = cmd->common.opcode;
		__entry->fctype = cmd->common.opcode == nvme_fabrics_command ?
				  cmd->fabrics.fctype : 0;
		__entry->nsid = le32_to_cpu(cmd->common.nsid);
		if (rblk_trace_has_range(queue->qid, cmd->common.opcode)) {
			__entry->slba = le64_to_cpu(cmd->rw.slba);
			__entry->nlb = le16_to_cpu(cmd->rw.length) + 1;
		} else {
			__entry->slba = 0;
			__entry->nlb = 0;
		}
		__entry->bytes = blk_rq_payload_bytes(rq);
	),
	TP_printk("rblk-ctrl%d disk=%s qid=%u cmdid=%#x opcode=%#x fctype=%#x nsid=%u slba=%llu nlb=%u bytes=%u",
		  __entry->ctrl, __entry->disk, __entry->qid, __entry->cid,
		  __entry->opcode, __entry->fctype, __entry->nsid,
		  __entry->slba, __entry->nlb, __entry->bytes)
);

TRACE_EVENT(rblk_complete_rq,
	TP_PROTO(struct request *rq),
	TP_ARGS(rq),
	TP_STRUCT__entry(
		__field(int, ctrl)
		__array(char, disk, RBLK_DISK_NAME_LEN)
		__field(u16, qid)
		__field(u16, cid)
		__field(u16, status)
		__field(u8, retries)
		__field(u8, flags)
		__field(u64, result)
	),
	TP_fast_assign(
		const struct rblk_request *req = blk_mq_rq_to_pdu(rq);

		__entry->ctrl = req->queue->ctrl->index;
		strscpy(__entry->disk, rblk_trace_disk(rq), RBLK_DISK_NAME_LEN);
		__entry->qid = req->queue->qid;
		__entry->cid = req->cid;
		__entry->status = req->status;
		__entry->retries = req->retries;
		__entry->flags = req->flags;
		__entry->result = le64_to_cpu(req->result.u64);
	),
	TP_printk("rblk-ctrl%d disk=%s qid=%u cmdid=%#x status=%#x retries=%u flags=%#x result=%#llx",
		  __entry->ctrl, __entry->disk, __entry->qid, __entry->cid,
		  __entry->status, __entry->retries, __entry->flags,
		  __entry->result)
);

TRACE_EVENT(rblk_ctrl_state,
	TP_PROTO(struct rblk_ctrl *ctrl, enum rblk_state old,
		 enum rblk_state new),
	TP_ARGS(ctrl, old, new),
	TP_STRUCT__entry(
		__field(int, ctrl)
		__field(int, old)
		__field(int, new)
	),
	TP_fast_assign(
		__entry->ctrl = ctrl->index;
		__entry->old = old;
		__entry->new = new;
	),
	TP_printk("rblk-ctrl%d %s -> %s", __entry->ctrl,
		  show_rblk_state(__entry->old), show_rblk_state(__entry->new))
);

TRACE_EVENT(rblk_queue_connect,
	TP_PROTO(struct rblk_ctrl *ctrl, u16 qid, u32 size, int result),
	TP_ARGS(ctrl, qid, size, result),
	TP_STRUCT__entry(
		__field(int, ctrl)
		__field(u16, qid)
		__field(u32, size)
		__field(int, result)
	),
	TP_fast_assign(
		__entry->ctrl = ctrl->index;
		__entry->qid = qid;
		__entry->size = size;
		__entry->result = result;
	),
	TP_printk("rblk-ctrl%d qid=%u size=%u result=%d",
		  __entry->ctrl, __entry->qid, __entry->size,
		  __entry->result)
);

TRACE_DEFINE_ENUM(RBLK_AUTH_STEP_NEGOTIATE);
TRACE_DEFINE_ENUM(RBLK_AUTH_STEP_CHALLENGE);
TRACE_DEFINE_ENUM(RBLK_AUTH_STEP_REPLY);
TRACE_DEFINE_ENUM(RBLK_AUTH_STEP_SUCCESS1);
TRACE_DEFINE_ENUM(RBLK_AUTH_STEP_SUCCESS2);
TRACE_DEFINE_ENUM(RBLK_AUTH_STEP_DONE);

/*
 * One DH-HMAC-CHAP exchange on a queue, at its end: how far it got, what
 * was negotiated, and why it failed.  Identifiers only: never a key,
 * challenge, response or DH value.
 */
TRACE_EVENT(rblk_auth,
	TP_PROTO(struct rblk_ctrl *ctrl, u16 qid, u8 step, u8 hashid,
		 u8 dhgid, bool bidir, int result, u16 status, u8 reason),
	TP_ARGS(ctrl, qid, step, hashid, dhgid, bidir, result, status,
		reason),
	TP_STRUCT__entry(
		__field(int, ctrl)
		__field(u16, qid)
		__field(u8, step)
		__field(u8, hashid)
		__field(u8, dhgid)
		__field(bool, bidir)
		__field(int, result)
		__field(u16, status)
		__field(u8, reason)
	),
	TP_fast_assign(
		__entry->ctrl = ctrl->index;
		__entry->qid = qid;
		__entry->step = step;
		__entry->hashid = hashid;
		__entry->dhgid = dhgid;
		__entry->bidir = bidir;
		__entry->result = result;
		__entry->status = status;
		__entry->reason = reason;
	),
	TP_printk("rblk-ctrl%d qid=%u step=%s hash=%u dhgroup=%u bidir=%d result=%d status=%#x reason=%u",
		  __entry->ctrl, __entry->qid,
		  __print_symbolic(__entry->step,
				   { RBLK_AUTH_STEP_NEGOTIATE, "negotiate" },
				   { RBLK_AUTH_STEP_CHALLENGE, "challenge" },
				   { RBLK_AUTH_STEP_REPLY, "reply" },
				   { RBLK_AUTH_STEP_SUCCESS1, "success1" },
				   { RBLK_AUTH_STEP_SUCCESS2, "success2" },
				   { RBLK_AUTH_STEP_DONE, "done" }),
		  __entry->hashid, __entry->dhgid, __entry->bidir,
		  __entry->result, __entry->status, __entry->reason)
);

TRACE_EVENT(rblk_error_recovery,
	TP_PROTO(struct rblk_ctrl *ctrl),
	TP_ARGS(ctrl),
	TP_STRUCT__entry(
		__field(int, ctrl)
	),
	TP_fast_assign(
		__entry->ctrl = ctrl->index;
	),
	TP_printk("rblk-ctrl%d", __entry->ctrl)
);

/* A multipath path's request whose bios go back to the head. */
TRACE_EVENT(rblk_failover,
	TP_PROTO(struct rblk_ns *ns, struct request *rq, u16 status),
	TP_ARGS(ns, rq, status),
	TP_STRUCT__entry(
		__field(int, ctrl)
		__array(char, path, RBLK_DISK_NAME_LEN)
		__field(u32, nsid)
		__field(u16, status)
		__field(u32, bytes)
	),
	TP_fast_assign(
		__entry->ctrl = ns->ctrl->index;
		strscpy(__entry->path, ns->disk->disk_name, RBLK_DISK_NAME_LEN);
		__entry->nsid = ns->nsid;
		__entry->status = status;
		__entry->bytes = blk_rq_bytes(rq);
	),
	TP_printk("rblk-ctrl%d path=%s nsid=%u status=%#x bytes=%u",
		  __entry->ctrl, __entry->path, __entry->nsid,
		  __entry->status, __entry->bytes)
);

/* A head's bio that no path can take now: held, or failed. */
/*
 * A head's data-less flush waits for a path: it met a path error (@status),
 * or its path takes no I/O now (0; again every RBLK_REQUEUE_DELAY_MS).
 */
TRACE_EVENT(rblk_flush_held,
	TP_PROTO(struct rblk_ns *ns, u16 status),
	TP_ARGS(ns, status),
	TP_STRUCT__entry(
		__field(int, ctrl)
		__array(char, path, RBLK_DISK_NAME_LEN)
		__field(u32, nsid)
		__field(u16, status)
	),
	TP_fast_assign(
		__entry->ctrl = ns->ctrl->index;
		strscpy(__entry->path, ns->disk->disk_name, RBLK_DISK_NAME_LEN);
		__entry->nsid = ns->nsid;
		__entry->status = status;
	),
	TP_printk("rblk-ctrl%d path=%s nsid=%u status=%#x",
		  __entry->ctrl, __entry->path, __entry->nsid,
		  __entry->status)
);

TRACE_EVENT(rblk_no_path,
	TP_PROTO(struct rblk_head *mph, struct bio *bio, bool held),
	TP_ARGS(mph, bio, held),
	TP_STRUCT__entry(
		__array(char, head, RBLK_DISK_NAME_LEN)
		__field(u64, sector)
		__field(u32, bytes)
		__field(bool, held)
	),
	TP_fast_assign(
		strscpy(__entry->head, mph->name, RBLK_DISK_NAME_LEN);
		__entry->sector = bio->bi_iter.bi_sector;
		__entry->bytes = bio->bi_iter.bi_size;
		__entry->held = held;
	),
	TP_printk("%s sector=%llu bytes=%u %s", __entry->head,
		  __entry->sector, __entry->bytes,
		  __entry->held ? "held" : "failed")
);

#endif /* _RBLK_TRACE_H */

/* Out of tree: define_trace.h finds this file beside the sources. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace

#include <trace/define_trace.h>
