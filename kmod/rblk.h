/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rblk - NVMe over Fabrics RDMA host: private definitions shared by all
 * files of the module.
 */
#ifndef _RBLK_H
#define _RBLK_H

#include <linux/bio.h>
#include <linux/blk-mq.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/nvme.h>
#include <linux/nvme-rdma.h>
#include <linux/scatterlist.h>
#include <linux/socket.h>
#include <linux/uuid.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/mr_pool.h>
#include <rdma/rdma_cm.h>

#include <linux/rblk.h>

#include "proto.h"

#define RBLK_MINORS		16
#define RBLK_AQ_DEPTH		NVME_AQ_DEPTH
/* Admin tags: one below the SQ size (a full SQ holds size - 1 entries). */
#define RBLK_AQ_TAGS		(RBLK_AQ_DEPTH - 1)
/* Reserved admin tags: Connect and keep-alive must never wait for I/O. */
#define RBLK_AQ_RESERVED	2
/* Reserved I/O tag: each I/O queue's Connect; on queue 1 a forwarded flush. */
#define RBLK_IOQ_RESERVED	1
/* Pace of retrying a forwarded flush whose queue failed. */
#define RBLK_REQUEUE_DELAY_MS	100
#define RBLK_MAX_SEGMENTS	256
#define RBLK_MAX_INLINE_SEGS	4
#define RBLK_INLINE_SG_CNT	2
/* Each request may post REG_MR, SEND and LOCAL_INV. */
#define RBLK_SEND_WR_FACTOR	3
#define RBLK_CM_TIMEOUT_MS	3000
#define RBLK_MAX_RETRIES	5
#define RBLK_DEF_QUEUE_SIZE	128
#define RBLK_DEF_KATO		5
#define RBLK_DEF_RECONNECT	10
#define RBLK_DEF_LOSS_TMO	600
#define RBLK_SHUTDOWN_TIMEOUT	5

/* Command id: a 4-bit generation above the tag exposes stale completions. */
#define RBLK_CID(gen, tag)	((u16)((((gen) & 0xf) << 12) | (tag)))
#define RBLK_CID_TAG(cid)	((cid) & 0xfff)
#define RBLK_CID_GEN(cid)	(((cid) >> 12) & 0xf)

#define rblk_err(c, fmt, ...)	pr_err("%s: " fmt, (c)->name, ##__VA_ARGS__)
#define rblk_warn(c, fmt, ...)	pr_warn("%s: " fmt, (c)->name, ##__VA_ARGS__)
#define rblk_info(c, fmt, ...)	pr_info("%s: " fmt, (c)->name, ##__VA_ARGS__)
#define rblk_dbg(c, fmt, ...)	pr_debug("%s: " fmt, (c)->name, ##__VA_ARGS__)

/**
 * struct rblk_ctrl_opts - what the user asked for when connecting
 * @traddr: transport address, IPv4 or IPv6 literal
 * @trsvcid: transport service id (port)
 * @adrfam: &enum rblk_adrfam, 0 to guess from @traddr
 * @subsysnqn: subsystem NQN
 * @hostnqn: host NQN
 * @hostid: host identifier
 * @nsid: namespace exposed as the block device
 * @nr_io_queues: I/O queues wanted
 * @queue_size: entries per I/O queue
 * @kato: keep-alive timeout in seconds, 0 for none
 * @reconnect_delay: seconds between reconnect attempts
 * @ctrl_loss_tmo: seconds of reconnecting before giving up, -1 forever
 * @fast_io_fail_tmo: seconds of reconnecting before failing I/O, -1 never
 * @discovery: the controller is a discovery controller (no I/O queues)
 */
struct rblk_ctrl_opts {
	char traddr[RBLK_TRADDR_MAX_LEN + 1];
	char trsvcid[RBLK_TRSVCID_MAX_LEN + 1];
	u8 adrfam;
	char subsysnqn[NVMF_NQN_SIZE + 1];
	char hostnqn[NVMF_NQN_SIZE + 1];
	uuid_t hostid;
	u32 nsid;
	u32 nr_io_queues;
	u32 queue_size;
	u32 kato;
	u32 reconnect_delay;
	int ctrl_loss_tmo;
	int fast_io_fail_tmo;
	bool discovery;
};

/* A DMA-mapped array of fixed-size entries: submission or receive ring. */
struct rblk_ring {
	void *buf;
	u64 dma;
	size_t entry_size;
	unsigned int nr;
	enum dma_data_direction dir;
};

/* An RDMA device and the protection domain all our queues on it share. */
struct rblk_device {
	struct ib_device *dev;
	struct ib_pd *pd;
	struct kref ref;
	struct list_head entry;
};

enum rblk_queue_flags {
	RBLK_Q_ALLOCATED,	/* cm_id exists */
	RBLK_Q_TR_READY,	/* QP, CQ and rings exist */
	RBLK_Q_CONNECTED,	/* RDMA CM connection established */
	RBLK_Q_LIVE,		/* Fabrics Connect done, commands may flow */
	RBLK_Q_RETIRED,		/* not coming back: resubmit what it holds */
};

/**
 * struct rblk_queue - one NVMe queue pair over one RDMA queue pair
 * @ctrl: owning controller
 * @qid: NVMe queue id, 0 for the admin queue
 * @flags: &enum rblk_queue_flags
 * @queue_size: submission queue entries
 * @tags: tags of the blk-mq hardware queue behind this queue, set before
 *	its Connect
 * @device: RDMA device and PD
 * @cm_id: RDMA CM identifier
 * @qp: RDMA queue pair
 * @cq: completion queue for sends and receives
 * @sqes: one NVMe command buffer per tag
 * @rsps: receive buffers for completions
 * @rsp_cqes: one &struct ib_cqe per receive buffer
 * @cm_done: signalled when a CM step finished
 * @cm_error: result of the last CM step
 * @stop_lock: serialises stopping the queue (timeout vs error recovery)
 * @inline_data_size: bytes of in-capsule data the target accepts
 * @max_inline_segs: send SGEs available for in-capsule data
 */
struct rblk_queue {
	struct rblk_ctrl *ctrl;
	u16 qid;
	unsigned long flags;
	u32 queue_size;
	struct blk_mq_tags *tags;
	struct rblk_device *device;
	struct rdma_cm_id *cm_id;
	struct ib_qp *qp;
	struct ib_cq *cq;
	struct rblk_ring sqes;
	struct rblk_ring rsps;
	struct ib_cqe *rsp_cqes;
	struct completion cm_done;
	int cm_error;
	struct mutex stop_lock;
	u32 inline_data_size;
	u32 max_inline_segs;
};

enum rblk_req_flags {
	RBLK_REQ_CONNECT	= 1 << 0,	/* Fabrics Connect */
	RBLK_REQ_ABORTED	= 1 << 1,	/* cancelled by the host */
	RBLK_REQ_INLINE		= 1 << 2,	/* data sent in-capsule */
};

/**
 * struct rblk_request - per-request driver data (blk-mq pdu)
 * @queue: queue the request is sent on
 * @cmd: command of a driver-private (passthrough) request
 * @sge: command SGE followed by in-capsule data SGEs
 * @num_sge: SGEs in use
 * @send_cqe: completion of the SEND
 * @reg_cqe: completion (errors only) of the memory registration
 * @inv_cqe: completion of the local invalidation
 * @reg_wr: fast registration work request
 * @mr: memory region describing the data, or NULL
 * @ref: SEND completion and response both must arrive before completion
 * @sgt: data scatterlist
 * @nents: mapped scatterlist entries
 * @status: NVMe status (without phase bit), or a host status
 * @result: NVMe completion result
 * @flags: &enum rblk_req_flags
 * @genctr: generation of the command id, to reject stale completions
 * @retries: retries after retryable errors
 * @start_ns: submission time, for the latency histogram
 * @range: DSM range buffer for discard
 * @first_sgl: inline scatterlist storage, must be last
 */
struct rblk_request {
	struct rblk_queue *queue;
	struct nvme_command cmd;
	struct ib_sge sge[1 + RBLK_MAX_INLINE_SEGS];
	u32 num_sge;
	struct ib_cqe send_cqe;
	struct ib_cqe reg_cqe;
	struct ib_cqe inv_cqe;
	struct ib_reg_wr reg_wr;
	struct ib_mr *mr;
	refcount_t ref;
	struct sg_table sgt;
	int nents;
	u16 status;
	union nvme_result result;
	u8 flags;
	u8 genctr;
	u8 retries;
	u64 start_ns;
	struct nvme_dsm_range range __aligned(16);
	struct scatterlist first_sgl[];
};

/**
 * struct rblk_stats_cpu - per-CPU counters, written without locks
 * @ios: completed requests by &enum rblk_op
 * @bytes: bytes by &enum rblk_op
 * @inline_writes: writes sent as in-capsule data
 * @errors: errors by NVMe status code type (see rblk_stats_status_class())
 * @lat_hist: completions by power-of-two latency bucket in microseconds
 */
struct rblk_stats_cpu {
	u64 ios[4];
	u64 bytes[4];
	u64 inline_writes;
	u64 errors[5];
	u64 lat_hist[RBLK_LAT_BUCKETS];
};

enum rblk_op {
	RBLK_OP_READ,
	RBLK_OP_WRITE,
	RBLK_OP_FLUSH,
	RBLK_OP_DISCARD,
};

enum rblk_err_class {
	RBLK_ERR_GENERIC,
	RBLK_ERR_CMD,
	RBLK_ERR_MEDIA,
	RBLK_ERR_PATH,
	RBLK_ERR_VENDOR,
	RBLK_ERR_CLASSES,
};

/**
 * struct rblk_stats - a snapshot of a device's statistics
 * @ios: completed requests by &enum rblk_op
 * @bytes: bytes by &enum rblk_op
 * @inline_writes: writes sent as in-capsule data
 * @errors: errors by &enum rblk_err_class
 * @lat_hist: latency histogram
 * @timeouts: request timeouts
 * @reconnects: successful reconnects
 * @reconnect_attempts: reconnect attempts
 */
struct rblk_stats {
	u64 ios[4];
	u64 bytes[4];
	u64 inline_writes;
	u64 errors[RBLK_ERR_CLASSES];
	u64 lat_hist[RBLK_LAT_BUCKETS];
	u64 timeouts;
	u64 reconnects;
	u64 reconnect_attempts;
};

enum rblk_ctrl_flags {
	RBLK_CTRL_FAILFAST,	/* fail I/O instead of holding it */
	RBLK_CTRL_REGISTERED,	/* in the device list */
	RBLK_CTRL_DISK_ADDED,	/* gendisk registered */
	RBLK_CTRL_IO_QUIESCED,	/* disk queue quiesced by recovery */
};

/**
 * struct rblk_ctrl - one NVMe controller and the block device on it
 * @entry: link in the device list
 * @ref: lifetime of this structure
 * @index: N of rblkN, -1 for a discovery controller
 * @name: "rblkN"
 * @opts: connect options
 * @addr: resolved transport address
 * @lock: protects @state
 * @state: &enum rblk_state
 * @flags: &enum rblk_ctrl_flags
 * @queues: admin queue followed by the I/O queues
 * @nr_io_queues: I/O queues in use, the tag set's hardware queues
 * @hw_queues_lock: serialises changes of @nr_io_queues with sysfs walks of
 *	the tag set
 * @admin_set: tags of the admin queue
 * @tag_set: tags of the I/O queues
 * @admin_q: request queue for admin commands
 * @connect_q: request queue for Fabrics Connect on I/O queues
 * @disk: the block device
 * @cap: CAP property
 * @vs: VS property
 * @ctrl_config: CC property as last written
 * @cntlid: controller id
 * @ioccsz: I/O queue command capsule size in 16-byte units
 * @icdoff: in-capsule data offset in 16-byte units
 * @max_hw_sectors: largest transfer in 512-byte sectors
 * @max_segments: most data segments one memory registration maps
 * @oncs: optional NVM commands supported
 * @vwc: volatile write cache present
 * @kas: keep-alive granularity
 * @rtd3e: resume latency, bounds the shutdown wait
 * @serial: serial number
 * @model: model number
 * @firmware: firmware revision
 * @nsze: namespace size in logical blocks
 * @lba_shift: log2 of the logical block size
 * @pb_size: physical (preferred write) block size
 * @err_work: error recovery
 * @reconnect_work: reconnect attempts
 * @ka_work: keep-alive timer
 * @failfast_work: fast_io_fail_tmo expiry
 * @loss_deadline: jiffies after which reconnecting stops
 * @stats: per-CPU counters
 * @timeouts: request timeouts
 * @reconnects: successful reconnects
 * @reconnect_attempts: reconnect attempts
 * @stats_base: counter values at the last reset
 * @resubmit_lock: protects @resubmit_bios and @resubmit_flushes
 * @resubmit_bios: bios of requests held for a retired queue
 * @resubmit_flushes: flush requests held for a retired queue
 * @resubmit_work: submits @resubmit_bios again
 * @forward_work: forwards @resubmit_flushes to I/O queue 1
 * @nr_resubmitted: requests passed on by the current queue-count change
 * @nr_forwarded: flushes among them
 */
struct rblk_ctrl {
	struct list_head entry;
	struct kref ref;
	int index;
	char name[RBLK_DISK_NAME_LEN];
	struct rblk_ctrl_opts opts;
	struct sockaddr_storage addr;

	spinlock_t lock;
	enum rblk_state state;
	unsigned long flags;

	struct rblk_queue *queues;
	u32 nr_io_queues;
	struct mutex hw_queues_lock;
	struct blk_mq_tag_set admin_set;
	struct blk_mq_tag_set tag_set;
	struct request_queue *admin_q;
	struct request_queue *connect_q;
	struct gendisk *disk;

	u64 cap;
	u32 vs;
	u32 ctrl_config;
	u16 cntlid;
	u32 ioccsz;
	u16 icdoff;
	u32 max_hw_sectors;
	u32 max_segments;
	u16 oncs;
	u8 vwc;
	u16 kas;
	u32 rtd3e;
	char serial[21];
	char model[41];
	char firmware[9];

	u64 nsze;
	u8 lba_shift;
	u32 pb_size;

	struct work_struct err_work;
	struct delayed_work reconnect_work;
	struct delayed_work ka_work;
	struct delayed_work failfast_work;
	unsigned long loss_deadline;

	struct rblk_stats_cpu __percpu *stats;
	atomic64_t timeouts;
	atomic64_t reconnects;
	atomic64_t reconnect_attempts;
	struct rblk_stats stats_base;

	spinlock_t resubmit_lock;
	struct bio_list resubmit_bios;
	struct list_head resubmit_flushes;
	struct work_struct resubmit_work;
	struct work_struct forward_work;
	u32 nr_resubmitted;
	u32 nr_forwarded;
};

static inline struct rblk_ctrl *rblk_ctrl_of_set(struct blk_mq_tag_set *set)
{
	return set->driver_data;
}

static inline bool rblk_queue_is_admin(struct rblk_queue *queue)
{
	return queue->qid == 0;
}

extern struct workqueue_struct *rblk_wq;
extern unsigned int rblk_io_timeout;
extern unsigned int rblk_admin_timeout;

/* main.c: device registry and the interface the control plane uses */
void rblk_opts_init(struct rblk_ctrl_opts *opts);
struct rblk_ctrl *rblk_ctrl_create(const struct rblk_ctrl_opts *opts,
				   const char **errmsg);
int rblk_ctrl_delete(struct rblk_ctrl *ctrl);
struct rblk_ctrl *rblk_ctrl_find(int index, const char *name);
struct rblk_ctrl *rblk_ctrl_next(int *index);
void rblk_ctrl_put(struct rblk_ctrl *ctrl);
void rblk_ctrls_on_device_removal(struct ib_device *ibdev);
int rblk_discover(const struct rblk_ctrl_opts *opts,
		  struct nvmf_disc_rsp_page_entry **entries, u32 *nr,
		  u64 *numrec, const char **errmsg);

/* ctrl.c: state machine, setup, error recovery, teardown */
const char *rblk_state_name(enum rblk_state state);
enum rblk_state rblk_ctrl_state(struct rblk_ctrl *ctrl);
bool rblk_change_state(struct rblk_ctrl *ctrl, enum rblk_state new);
struct rblk_ctrl *rblk_ctrl_alloc(const struct rblk_ctrl_opts *opts);
void rblk_ctrl_free(struct rblk_ctrl *ctrl);
int rblk_ctrl_start(struct rblk_ctrl *ctrl, const char **errmsg);
void rblk_ctrl_stop(struct rblk_ctrl *ctrl);
void rblk_error_recovery(struct rblk_ctrl *ctrl);
int rblk_ctrl_reset(struct rblk_ctrl *ctrl);
bool rblk_ctrl_holds_io(struct rblk_ctrl *ctrl);

/* rdma.c: RDMA transport */
int rblk_rdma_init(void);
void rblk_rdma_exit(void);
int rblk_queue_alloc(struct rblk_ctrl *ctrl, u16 qid, u32 queue_size);
void rblk_queue_stop(struct rblk_queue *queue);
void rblk_queue_free(struct rblk_queue *queue);
int rblk_queue_submit(struct rblk_queue *queue, struct request *rq);
void rblk_unmap_data(struct request *rq);
int rblk_device_max_segments(struct rblk_device *device);

/* fabrics.c: NVMe-oF capsules and controller bring-up */
int rblk_exec_cmd(struct rblk_ctrl *ctrl, u16 qid, struct nvme_command *cmd,
		  void *buf, unsigned int len, union nvme_result *result);
int rblk_fabrics_connect(struct rblk_ctrl *ctrl, u16 qid,
			 const char **errmsg);
int rblk_prop_get(struct rblk_ctrl *ctrl, u32 off, bool is64, u64 *val);
int rblk_prop_set(struct rblk_ctrl *ctrl, u32 off, u32 val);
int rblk_enable_ctrl(struct rblk_ctrl *ctrl);
int rblk_shutdown_ctrl(struct rblk_ctrl *ctrl);
int rblk_identify_ctrl(struct rblk_ctrl *ctrl);
int rblk_identify_ns(struct rblk_ctrl *ctrl);
int rblk_set_queue_count(struct rblk_ctrl *ctrl, u32 *count);
int rblk_get_disc_log(struct rblk_ctrl *ctrl,
		      struct nvmf_disc_rsp_page_entry **entries, u32 *nr,
		      u64 *numrec);
void rblk_keep_alive_init(struct rblk_ctrl *ctrl);
void rblk_start_keep_alive(struct rblk_ctrl *ctrl);
void rblk_stop_keep_alive(struct rblk_ctrl *ctrl);

/* blk.c: blk-mq and the gendisk */
int rblk_alloc_admin_tagset(struct rblk_ctrl *ctrl);
void rblk_free_admin_tagset(struct rblk_ctrl *ctrl);
int rblk_alloc_io_tagset(struct rblk_ctrl *ctrl);
void rblk_free_io_tagset(struct rblk_ctrl *ctrl);
int rblk_add_disk(struct rblk_ctrl *ctrl);
void rblk_del_disk(struct rblk_ctrl *ctrl);
void rblk_update_disk(struct rblk_ctrl *ctrl);
void rblk_cancel_requests(struct blk_mq_tag_set *set);
void rblk_resubmit_work(struct work_struct *work);
void rblk_forward_work(struct work_struct *work);
int rblk_blk_init(void);
void rblk_blk_exit(void);

/* stats.c: per-CPU statistics */
void rblk_stats_account(struct rblk_ctrl *ctrl, struct request *rq,
			u16 status);
void rblk_stats_read(struct rblk_ctrl *ctrl, struct rblk_stats *s);
void rblk_stats_reset(struct rblk_ctrl *ctrl);

/* sysfs.c: /sys/block/rblkN/rblk/ */
extern const struct attribute_group *rblk_disk_groups[];

/* netlink.c: generic netlink control plane */
int rblk_nl_init(void);
void rblk_nl_exit(void);
void rblk_nl_notify(struct rblk_ctrl *ctrl, enum rblk_event event);

#endif /* _RBLK_H */
