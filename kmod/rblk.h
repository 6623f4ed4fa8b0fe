/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rblk - NVMe over Fabrics RDMA host: private definitions shared by all
 * files of the module.
 *
 * Layers, each calling only the ones below it (upward news travels through
 * &struct rblk_ctrl_ops, &struct rblk_queue_ops and the event notifier):
 *
 *   main.c       module init/exit
 *   netlink.c    generic netlink control plane
 *   host.c       the controller registry: connect, delete, lookup
 *   sysfs.c      controller and namespace attributes
 *   ns.c         namespaces: scan, identity, asynchronous events, gendisk
 *   blk.c        blk-mq operations: NVM command setup, completion, timeout
 *   ctrl.c       controller state machine, queues, recovery, keep-alive
 *   fabrics.c    NVMe-oF commands: Connect, properties, Identify, logs
 *   rdma.c       RDMA transport (transport.h)
 *   stats.c, proto.c   per-CPU counters; the wire format
 */
#ifndef _RBLK_H
#define _RBLK_H

#include <linux/bio.h>
#include <linux/blk-mq.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/nvme.h>
#include <linux/nvme-rdma.h>
#include <linux/rwsem.h>
#include <linux/scatterlist.h>
#include <linux/socket.h>
#include <linux/srcu.h>
#include <linux/uuid.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include <linux/rblk.h>

#include "compat.h"
#include "proto.h"
#include "fault.h"
#include "transport.h"

#define RBLK_MINORS		16
#define RBLK_AQ_DEPTH		NVME_AQ_DEPTH
/* One Asynchronous Event Request, outside the blk-mq tags. */
#define RBLK_NR_AEN		1
/*
 * Admin tags: a full SQ holds size - 1 entries, one of which the AER
 * takes.  The AER uses the SQE slot and command id right after them.
 */
#define RBLK_AQ_TAGS		(RBLK_AQ_DEPTH - 1 - RBLK_NR_AEN)
#define RBLK_AER_TAG		RBLK_AQ_TAGS
/* Reserved admin tags: Connect and keep-alive must never wait for I/O. */
#define RBLK_AQ_RESERVED	2
/*
 * Reserved I/O tag: each I/O queue's Connect and authentication commands;
 * on queue 1 a forwarded flush too.  They cannot wait on each other: a
 * forwarded flush gets through only while queue 1 is live, and a queue is
 * not live from its Connect to the end of its authentication; an internal
 * command on a queue not live fails at once, releasing the tag.  At worst
 * an exchange finds the tag taken (NOWAIT) and fails transiently: not
 * final, the connect is tried again (Documentation/auth.rst).
 */
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
/*
 * How long a path rests after a path error that no ANA log will explain
 * (rblk_path_error()): the head sends I/O elsewhere meanwhile, or holds
 * it for the path when there is no other.
 */
#define RBLK_PATH_REST		HZ
/*
 * A data-less flush refused by the path of a controller being deleted waits
 * for another path at most this many times this long (30 s): the
 * disconnect waits for it meanwhile.
 */
#define RBLK_FLUSH_PATH_WAITS	120
#define RBLK_FLUSH_PATH_WAIT_MS	250
/*
 * Reconnects to authenticate again a target may ask for (191h) within a
 * minute; beyond, the command fails: a target that asks again after every
 * reconnect would otherwise reset the controller forever.
 */
#define RBLK_MAX_REAUTHS	RBLK_MAX_RETRIES
#define RBLK_REAUTH_WINDOW	(60 * HZ)

/**
 * rblk_reauth_window() - whether a target may have one more reconnect
 *	to authenticate again
 * @start: when the current window began (jiffies64); a new one begins
 *	when it is over
 * @count: reconnects counted in it (by the caller); zeroed with a new
 *	window
 * @now: get_jiffies_64()
 *
 * Return: true if fewer than %RBLK_MAX_REAUTHS began in the window.
 */
static inline bool rblk_reauth_window(u64 *start, unsigned int *count,
				      u64 now)
{
	if (time_after64(now, *start + RBLK_REAUTH_WINDOW)) {
		*start = now;
		*count = 0;
	}
	return *count < RBLK_MAX_REAUTHS;
}

/* &rblk_ctrl.auth_result: hash and DH group identifiers, bidirectional. */
#define RBLK_AUTH_RESULT(hashid, dhgid, bidir)				\
	((u32)(hashid) | (u32)(dhgid) << 8 | (u32)!!(bidir) << 16)
#define RBLK_AUTH_RESULT_HASH(r)	((u8)(r))
#define RBLK_AUTH_RESULT_DHGROUP(r)	((u8)((r) >> 8))
#define RBLK_AUTH_RESULT_BIDIR(r)	(!!((r) >> 16))

/**
 * enum rblk_auth_step - how far a DH-HMAC-CHAP exchange got (tracepoint
 *	rblk_auth)
 * @RBLK_AUTH_STEP_NEGOTIATE: sending AUTH_Negotiate
 * @RBLK_AUTH_STEP_CHALLENGE: receiving and answering the Challenge
 * @RBLK_AUTH_STEP_REPLY: sending the Reply
 * @RBLK_AUTH_STEP_SUCCESS1: receiving Success1 (or Failure1)
 * @RBLK_AUTH_STEP_SUCCESS2: checking the controller, sending Success2
 * @RBLK_AUTH_STEP_DONE: authenticated
 */
enum rblk_auth_step {
	RBLK_AUTH_STEP_NEGOTIATE,
	RBLK_AUTH_STEP_CHALLENGE,
	RBLK_AUTH_STEP_REPLY,
	RBLK_AUTH_STEP_SUCCESS1,
	RBLK_AUTH_STEP_SUCCESS2,
	RBLK_AUTH_STEP_DONE,
};
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

struct nvme_dhchap_key;

/**
 * struct rblk_ctrl_opts - what the user asked for when connecting
 * @traddr: transport address, IPv4 or IPv6 literal
 * @trsvcid: transport service id (port)
 * @adrfam: &enum rblk_adrfam, 0 to guess from @traddr
 * @subsysnqn: subsystem NQN
 * @hostnqn: host NQN
 * @hostid: host identifier
 * @nsid: the only namespace to expose, 0 for all
 * @nr_io_queues: I/O queues wanted
 * @nr_poll_queues: polled I/O queues wanted besides them
 * @nr_write_queues: queues for all but reads wanted besides them (then
 *	@nr_io_queues take only the reads)
 * @queue_size: entries per I/O queue
 * @kato: keep-alive timeout in seconds, 0 for none
 * @reconnect_delay: seconds between reconnect attempts
 * @ctrl_loss_tmo: seconds of reconnecting before giving up, -1 forever
 * @fast_io_fail_tmo: seconds of reconnecting before failing I/O, -1 never
 * @duplicate_connect: allow a second controller to the same target
 * @host_traddr: local address to connect from, "" for the routing's choice
 * @tos: IP type of service of the connections, -1 for the RDMA CM default
 * @discovery: the controller is a discovery controller (no I/O queues)
 * @host_key: DH-HMAC-CHAP host key, or NULL; secret: only auth.c reads
 *	it, and each copy of the options has its own (rblk_auth_keys_dup()),
 *	freed by rblk_auth_keys_free()
 * @ctrl_key: DH-HMAC-CHAP controller key (bidirectional), or NULL; as
 *	@host_key
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
	u32 nr_poll_queues;
	u32 nr_write_queues;
	u32 queue_size;
	u32 kato;
	u32 reconnect_delay;
	int ctrl_loss_tmo;
	int fast_io_fail_tmo;
	bool duplicate_connect;
	char host_traddr[RBLK_TRADDR_MAX_LEN + 1];
	int tos;
	bool discovery;
	struct nvme_dhchap_key *host_key;
	struct nvme_dhchap_key *ctrl_key;
};

/**
 * struct rblk_disc_log - a discovery log page as read
 * @entries: kvmalloc'ed records, kvfree() them
 * @nr: records in @entries
 * @numrec: records in the target's log (more than @nr if it was cut)
 * @genctr: generation counter of the log read
 */
struct rblk_disc_log {
	struct nvmf_disc_rsp_page_entry *entries;
	u32 nr;
	u64 numrec;
	u64 genctr;
};

enum rblk_req_flags {
	RBLK_REQ_CONNECT	= 1 << 0,	/* Connect or authentication */
	RBLK_REQ_ABORTED	= 1 << 1,	/* cancelled by the host */
	RBLK_REQ_INLINE		= 1 << 2,	/* data sent in-capsule */
	RBLK_REQ_TIMED_OUT	= 1 << 3,	/* cancelled after a timeout */
	RBLK_REQ_EXTENDED	= 1 << 4,	/* answered, timer extended once */
	RBLK_REQ_USER		= 1 << 5,	/* a user's passthrough command */
};

/**
 * struct rblk_request - per-request driver data (blk-mq pdu)
 * @queue: queue the request is sent on
 * @cmd: command of a driver-private (passthrough) request, copied to the
 *	submission entry; block I/O is built in the entry directly
 * @sge: command SGE followed by in-capsule data SGEs (the first one's
 *	length is rblk_request_init_wrs()'s)
 * @send_wr: the SEND of the capsule, chained to the queue's batch; all but
 *	@send_wr.next and @send_wr.num_sge is set once, by
 *	rblk_request_init_wrs(): nothing else may clear it
 * @send_cqe: completion of the SEND (set once, as @send_wr)
 * @reg_cqe: completion (errors only) of the memory registration (set once)
 * @inv_cqe: completion of the local invalidation
 * @reg_wr: fast registration work request; all but @reg_wr.wr.next,
 *	@reg_wr.mr and @reg_wr.key is set once, as @send_wr
 * @mr: memory region describing the data, or NULL
 * @ref: SEND completion and response both must arrive before completion
 * @sgt: data scatterlist
 * @last_sg: __blk_rq_map_sg()'s cursor
 * @nents: mapped scatterlist entries
 * @status: NVMe status (without phase bit), or a host status
 * @result: NVMe completion result
 * @cid: command id of the last submission
 * @flags: &enum rblk_req_flags
 * @genctr: generation of the command id, to reject stale completions
 * @retries: retries after retryable errors and timeouts
 * @fwd_waits: tries of a data-less flush's stand-in on another path that
 *	found no request free there (rblk_head_forward_flush())
 * @path_waits: times a data-less flush on a deleted controller's path was
 *	sent again while another path might come back (RBLK_WAIT_PATH)
 * @opcode: opcode of the last submission, for messages (the entry may be
 *	gone by then)
 * @responded: the response to the current command id arrived; another
 *	one is the target's error
 * @start_ns: submission time, for the latency histogram
 * @head_start: when the head's disk started counting it (jiffies)
 * @head_acct: the multipath head's disk counts it: end that once
 * @head_active: counted in its controller's @nr_active (queue-depth
 *	policy): uncount that once
 * @range: DSM range buffer for discard
 * @first_sgl: inline scatterlist storage, must be last
 */
struct rblk_request {
	struct rblk_queue *queue;
	struct nvme_command cmd;
	struct ib_sge sge[1 + RBLK_MAX_INLINE_SEGS];
	struct ib_send_wr send_wr;
	struct ib_cqe send_cqe;
	struct ib_cqe reg_cqe;
	struct ib_cqe inv_cqe;
	struct ib_reg_wr reg_wr;
	struct ib_mr *mr;
	refcount_t ref;
	struct sg_table sgt;
	struct scatterlist *last_sg;
	int nents;
	u16 status;
	union nvme_result result;
	u16 cid;
	u8 flags;
	u8 genctr;
	u8 retries;
	u8 fwd_waits;
	u8 path_waits;
	u8 opcode;
	bool responded;
	bool head_acct;
	bool head_active;
	u64 start_ns;
	unsigned long head_start;
	struct nvme_dsm_range range __aligned(16);
	struct scatterlist first_sgl[];
};

/**
 * struct rblk_stats - counters, by &enum rblk_stat_attr
 * @v: u64 counters; only the ones %RBLK_STAT_NAMES names are used
 * @lat_hist: completions by power-of-two latency bucket in microseconds
 */
struct rblk_stats {
	u64 v[__RBLK_STAT_MAX];
	u64 lat_hist[RBLK_LAT_BUCKETS];
};

/**
 * struct rblk_iostats - per-CPU counters, written without locks
 * @cpu: the counters
 * @base: their sum at the last reset, subtracted on read
 */
struct rblk_iostats {
	struct rblk_stats __percpu *cpu;
	struct rblk_stats base;
};

enum rblk_ns_flags {
	RBLK_NS_ADDED,		/* gendisk registered */
	RBLK_NS_QUIESCED,	/* queue quiesced by controller recovery */
	RBLK_NS_DEAD,		/* gone from the target: fail all I/O */
	RBLK_NS_REMOVING,	/* rblk_ns_remove() owns it */
	RBLK_NS_ATTACHED,	/* on its head's path list (mpath.c) */
	RBLK_NS_ANA_PENDING,	/* an ANA status came back: the log is reread */
	RBLK_NS_PATH_DOWN,	/* its leaving controller's queue stopped (blk.c) */
	RBLK_NS_PATH_REST,	/* a path error: not chosen for a while (ana.c) */
};

enum rblk_head_flags {
	RBLK_HEAD_DISK_TRIED,	/* the head's disk was added, or failed to */
	RBLK_HEAD_DISK_LIVE,	/* the head's disk is added */
	RBLK_HEAD_REMOVING,	/* the last path is leaving */
};

/**
 * struct rblk_head - a namespace of a subsystem, exposed as /dev/rblkN
 *	across its paths (mpath.c; only with rblk.multipath=Y)
 * @entry: link in the subsystem's head list
 * @ref: the list's reference, each path's, the disk's once added
 * @subsys: subsystem (referenced)
 * @nsid: namespace id
 * @index: N of rblkN
 * @name: "rblkN"
 * @vid: PCI vendor id of the first controller, for the wwid
 * @shared: the namespace may be reached through several controllers
 * @ids: identifiers, those of every path
 * @disk: the bio-based block device
 * @srcu: protects @paths for submitters
 * @paths: the namespaces (paths) attached; changed under the subsystem's
 *	lock
 * @nr_paths: paths from rblk_head_get() to rblk_head_detach(), under
 *	the subsystem's lock
 * @flags: &enum rblk_head_flags
 * @lock: orders the disk's addition, removal and limits
 * @user_limits: what the user set on the disk's queue, kept by each
 *	restack of its limits (under @lock)
 * @requeue_lock: protects @requeue_list (any context)
 * @requeue_list: bios waiting for a path: failed over, or held while no
 *	path is usable but one may come back
 * @flushes: data-less flushes that failed on their path, waiting for a
 *	Flush on another (rblk_head_forward_flush()); under @requeue_lock
 * @requeue_work: submits @requeue_list to the head again: at once after
 *	a kick, else a second after a bio was held
 * @flush_work: sends the Flushes for @flushes (on kblockd); never waits
 * @partition_work: reads the partitions of the disk once added
 * @failovers: path requests whose bios came back to the head to be sent
 *	again (rblk_failover_rq()), and data-less flushes sent to another
 *	path
 * @no_path_requeues: bios held because no path was usable but one may
 *	come back (each time one is held)
 * @no_path_errors: bios failed because no path was available
 * @path_gen: kicks so far (rblk_head_kick()), so that a choice made
 *	during one is not kept
 * @current_path: per NUMA node, the path the numa policy chose last, so
 *	that a bio need not walk @paths while it stays live and optimized,
 *	or the path round-robin took last, to go on from; read under @srcu,
 *	written without a lock, cleared by every kick
 */
struct rblk_head {
	struct list_head entry;
	struct kref ref;
	struct rblk_subsys *subsys;
	u32 nsid;
	int index;
	char name[RBLK_DISK_NAME_LEN];
	u16 vid;
	bool shared;
	struct rblk_ns_ids ids;
	struct gendisk *disk;
	struct srcu_struct srcu;
	struct list_head paths;
	unsigned int nr_paths;
	unsigned long flags;
	struct mutex lock;
	struct rblk_limits_user user_limits;
	spinlock_t requeue_lock;
	struct bio_list requeue_list;
	struct list_head flushes;
	struct delayed_work requeue_work;
	struct delayed_work flush_work;
	struct work_struct partition_work;
	atomic64_t failovers;
	atomic64_t no_path_requeues;
	atomic64_t no_path_errors;
	/* Round-robin writes @current_path per bio: a line of their own. */
	atomic_t path_gen ____cacheline_aligned_in_smp;
	struct rblk_ns __rcu *current_path[];
};

/**
 * struct rblk_ns - one namespace of a controller, exposed as /dev/rblkN
 * @entry: link in the controller's namespace list, ordered by nsid
 * @ref: the list's reference, the gendisk's and those of lookups
 * @ctrl: controller whose queues carry the I/O (referenced)
 * @disk: the block device
 * @queue: its request queue
 * @nsid: namespace id
 * @index: N of rblkN
 * @name: "rblkN"
 * @flags: &enum rblk_ns_flags
 * @lock: serialises format updates (scan against reconnect)
 * @info: format and identifiers in use; the format is changed only with
 *	the queue quiesced
 * @limits: the controller's values the queue limits were last set from
 * @stats: I/O statistics
 * @head: with multipath, the head this namespace is a path of (referenced);
 *	@disk is then hidden and @name the head's
 * @siblings: link in the head's path list
 * @subsys_entry: without multipath, link in the subsystem's @nss
 * @ana_grpid: ANA group of the namespace on this controller, 0 if none
 * @ana_state: its ANA state (&enum nvme_ana_state) as the controller's last
 *	ANA log said (optimized without ANA; 0 while not known); written
 *	under the controller's ana_lock, read without a lock
 */
struct rblk_ns {
	struct list_head entry;
	struct kref ref;
	struct rblk_ctrl *ctrl;
	struct gendisk *disk;
	struct request_queue *queue;
	u32 nsid;
	int index;
	char name[RBLK_DISK_NAME_LEN];
	unsigned long flags;
	struct mutex lock;
	struct rblk_ns_info info;
	struct {
		u32 max_hw_sectors;
		u32 max_segments;
		u16 oncs;
		u8 vwc;
		bool poll;
	} limits;
	struct rblk_iostats stats;
	struct rblk_head *head;
	struct list_head siblings;
	struct list_head subsys_entry;
	u32 ana_grpid;
	u8 ana_state;
};

/**
 * struct rblk_ctrl_ops - what the controller needs from the layer above
 * @admin_mq_ops: blk-mq operations of the admin tag set
 * @io_mq_ops: blk-mq operations of the I/O tag set
 * @identified: Identify Controller was read on a new association (first
 *	connect and every reconnect), before the I/O queues: bind the
 *	controller to its subsystem; a negative errno, with @errmsg set,
 *	fails the attempt
 * @revalidate: the queues are connected again, I/O is still quiesced:
 *	make the namespaces agree with the target before it flows; a
 *	negative errno fails the reconnect attempt
 * @live: the controller became live (first connect and every reconnect)
 * @ns_changed: the target reported a namespace attribute change
 * @paths_changed: whether the controller's namespaces may serve I/O
 *	changed (its state, or fast_io_fail expired); any context: it may
 *	only queue work
 * @ana_changed: the target reported an ANA change and the ANA log was
 *	read again: @ctrl->ana_log holds it (read it under @ctrl->ana_lock);
 *	from the controller's ana_work, so it may send admin commands; not
 *	after rblk_ctrl_stop_recovery() returned
 */
struct rblk_ctrl_ops {
	const struct blk_mq_ops *admin_mq_ops;
	const struct blk_mq_ops *io_mq_ops;
	int (*identified)(struct rblk_ctrl *ctrl, const char **errmsg);
	int (*revalidate)(struct rblk_ctrl *ctrl);
	void (*live)(struct rblk_ctrl *ctrl);
	void (*ns_changed)(struct rblk_ctrl *ctrl);
	void (*ana_changed)(struct rblk_ctrl *ctrl);
	void (*paths_changed)(struct rblk_ctrl *ctrl);
};

enum rblk_ctrl_flags {
	RBLK_CTRL_STARTING,	/* first connect runs; its caller cleans up */
	RBLK_CTRL_FAILFAST,	/* fail I/O instead of holding it */
	RBLK_CTRL_REGISTERED,	/* in the controller list */
	RBLK_CTRL_IO_QUIESCED,	/* namespace queues quiesced by recovery */
	RBLK_CTRL_NS_CHANGED,	/* a namespace change notice is pending */
	RBLK_CTRL_ACRE,		/* Command Retry Delay enabled */
	RBLK_CTRL_IO_READY,	/* namespaces checked: block I/O may flow */
	RBLK_CTRL_SETUP_ERROR,	/* a queue broke during this connect attempt */
	RBLK_CTRL_USER_RESET,	/* the last reset was the user's, no failure */
	RBLK_CTRL_ANA_WARNED,	/* said once that ANA is not used */
	RBLK_CTRL_AUTH_FAILED,	/* authentication failed for good */
	RBLK_CTRL_NS_REFUSED,	/* this scan refused a namespace */
};

/* Identify Controller strings, trailing spaces removed, NUL-terminated. */
#define RBLK_SERIAL_SIZE	(sizeof_field(struct nvme_id_ctrl, sn) + 1)
#define RBLK_MODEL_SIZE		(sizeof_field(struct nvme_id_ctrl, mn) + 1)
#define RBLK_FIRMWARE_SIZE	(sizeof_field(struct nvme_id_ctrl, fr) + 1)

/**
 * struct rblk_subsys - an NVM subsystem: the controllers to it are its
 *	paths, whatever host NQN each connected with (as nvme-core)
 * @dev: rblk-subsysK in /sys/class/rblk-subsystem/; its reference count
 *	keeps the memory
 * @ref: held by each bound controller and each lookup; the last put
 *	takes the subsystem off the list and unregisters @dev
 * @entry: in the subsystem list, under rblk_subsys_mutex, while @ref is
 *	not zero
 * @instance: K of rblk-subsysK
 * @lock: protects @ctrls, @heads and @nss
 * @ctrls: &struct rblk_ctrl bound to it, by @subsys_entry
 * @heads: its multipath heads (&struct rblk_head)
 * @nss: without multipath, its controllers' namespaces (&struct rblk_ns,
 *	by @subsys_entry) that are not being removed, for the
 *	duplicate-identifier checks: no controller's namespaces_rwsem is
 *	taken under @lock
 * @subnqn: subsystem NQN (Identify SUBNQN, else the connect's NQN): its
 *	key, as nvme-core's; a namespace a target shows to one host NQN
 *	only has the paths of that host NQN's controllers
 * @serial: serial number of the first controller
 * @model: model number of the first controller
 * @firmware: firmware revision of the controller that connected last;
 *	under @lock
 * @iopolicy: &enum rblk_iopolicy of its heads; read locklessly
 */
struct rblk_subsys {
	struct device dev;
	struct kref ref;
	struct list_head entry;
	int instance;
	struct mutex lock;
	struct list_head ctrls;
	struct list_head heads;
	struct list_head nss;
	char subnqn[RBLK_NQN_SIZE];
	char serial[RBLK_SERIAL_SIZE];
	char model[RBLK_MODEL_SIZE];
	char firmware[RBLK_FIRMWARE_SIZE];
	int iopolicy;
};

/**
 * struct rblk_refusal - why a target last refused a connect, for the
 *	netlink error's cookie
 * @status: NVMe status (DNR and More cleared) of the last Fabrics Connect
 *	or authentication command the target refused, 0 if none did
 * @auth_reason: DH-HMAC-CHAP failure reason of the last exchange that
 *	failed with one (the target's AUTH_Failure1 or the host's
 *	AUTH_Failure2), 0 if none
 */
struct rblk_refusal {
	u16 status;
	u8 auth_reason;
};

/**
 * struct rblk_ctrl - one NVMe controller and the namespaces on it
 * @dev: sysfs device "rblk-ctrlM"; its reference count is the
 *	controller's
 * @cdev: the character device /dev/rblk-ctrlM (ioctl.c); an open file
 *	holds @dev
 * @passthru_rwsem: ioctls hold it for reading while they use the queues
 * @passthru_ready: the queues exist: set once live, cleared before the
 *	teardown frees them; under @passthru_rwsem
 * @effects: the Commands Supported and Effects log of the first connect
 *	that read one, or NULL
 * @entry: link in the controller list
 * @ops: the layer above
 * @index: M of rblk-ctrlM, -1 for a discovery controller
 * @name: "rblk-ctrlM"
 * @opts: connect options
 * @addr: resolved transport address
 * @src_addr: address to connect from, %AF_UNSPEC for the routing's choice
 * @lock: protects @state and the %RBLK_CTRL_FAILFAST and
 *	%RBLK_CTRL_SETUP_ERROR transitions, the re-authentication window
 *	(@reauths, @reauth_at, @reauth_refused) and @setup_rq
 * @ns_lock: orders recovery's quiesce of a namespace queue against
 *	rblk_ctrl_kill_ns()
 * @quiesce_lock: one quiesce or unquiesce of the namespace queues at a
 *	time, and none while a teardown stops their queues and cancels their
 *	requests; taken before @namespaces_rwsem
 * @state: &enum rblk_state
 * @flags: &enum rblk_ctrl_flags
 * @setup_rq: the Connect or authentication command in flight, or NULL:
 *	ended at once when a queue breaks while connecting (its answer will
 *	not come), not at the admin timeout
 * @queues: admin queue followed by the I/O queues
 * @nr_io_queues: I/O queues in use, the tag set's hardware queues; the
 *	last @nr_poll_queues of them are polled
 * @nr_poll_queues: poll queues among them (HCTX_TYPE_POLL); changed with
 *	@nr_io_queues, under @hw_queues_lock
 * @nr_write_queues: the first queues, HCTX_TYPE_DEFAULT, when reads have
 *	their own (HCTX_TYPE_READ, the next ones); 0 when they share;
 *	changed like @nr_poll_queues
 * @hw_queues_lock: serialises changes of @nr_io_queues with sysfs walks of
 *	the tag set
 * @admin_set: tags of the admin queue
 * @tag_set: tags of the I/O queues, shared by every namespace
 * @admin_q: request queue for admin commands
 * @connect_q: request queue for our own commands on I/O queues
 * @namespaces: &struct rblk_ns, by nsid
 * @namespaces_rwsem: protects @namespaces
 * @scan_lock: one namespace scan at a time
 * @scan_work: namespace scan (ns.c)
 * @paths_work: kicks the heads of the namespaces after @paths_changed
 *	(ns.c)
 * @first_scan: completed when the first scan finished (or will never
 *	run: deleted, or reconnecting given up); reported as
 *	%RBLK_ATTR_SCANNED
 * @reval_gen: bumped by every revalidation, so that a scan whose Identify
 *	data predates a reconnect does not apply it
 * @ns_removed: namespaces removed from @namespaces so far (a scan that
 *	refused one and then removed one scans again)
 * @cap: CAP property
 * @vs: VS property
 * @ctrl_config: CC property as last written
 * @cntlid: controller id
 * @refusal: what the target last refused a connect with; under the
 *	connect's serialisation (first connect, then reconnect_work)
 * @auth_tid: DH-HMAC-CHAP transaction identifier of the next exchange
 *	(auth.c), one per exchange on any queue; same serialisation
 * @auth_result: what the admin queue's last exchange negotiated,
 *	RBLK_AUTH_RESULT(); 0 when the last connect did not authenticate.
 *	One word: written by the connect, read locklessly by %RBLK_CMD_GET
 * @reauths: reconnects a target asked for with 191h (re-authentication)
 *	in the window that began at @reauth_at (rblk_reauth_window()); under
 *	@lock
 * @reauth_at: jiffies64
 * @reauth_refused: the window's refusal was logged; under @lock
 * @subnqn: the subsystem NQN this association's Identify Controller
 *	reports (the connect's NQN if it reports none)
 * @subsys: the subsystem the controller is a path of, from its first
 *	Identify until rblk_subsys_unbind(); set and cleared under
 *	rblk_subsys_mutex too, for rblk_ctrl_get_subsys()
 * @subsys_entry: in @subsys->ctrls, under @subsys->lock
 * @nr_active: requests of multipath heads in flight on the controller,
 *	counted while its subsystem's policy is queue-depth
 * @ioccsz: I/O queue command capsule size in 16-byte units
 * @icdoff: in-capsule data offset in 16-byte units
 * @max_hw_sectors: largest transfer in 512-byte sectors
 * @max_segments: most data segments one memory registration maps
 * @oncs: optional NVM commands supported
 * @oaes: optional asynchronous events supported
 * @mpath: what Identify Controller says about multipath and ANA
 * @vwc: volatile write cache present
 * @lpa: log page attributes (LPA)
 * @numa_node: node of the RDMA device of the last connect, else
 *	%NUMA_NO_NODE
 * @kas: keep-alive granularity
 * @rtd3e: resume latency, bounds the shutdown wait
 * @maxcmd: commands outstanding per queue at most (Identify MAXCMD), 0 if
 *	not reported
 * @crdt: command retry delay times, in 100 ms units
 * @vid: PCI vendor id, for the wwid of a namespace without identifiers
 * @serial: serial number
 * @model: model number
 * @firmware: firmware revision
 * @err_work: error recovery
 * @reconnect_work: reconnect attempts
 * @ka_work: keep-alive timer
 * @delete_work: teardown of a disconnected controller (host.c), off the
 *	netlink handler that asked for it
 * @failfast_work: fast_io_fail_tmo expiry
 * @aer_work: (re)submits the Asynchronous Event Request
 * @event_work: handles a completed Asynchronous Event Request; never waits
 *	for an admin command (the admin queue's teardown cancels it before
 *	it cancels the commands)
 * @disc_work: a persistent discovery controller's Discovery Log Page
 *	Change notice: reads the log (re-arming the notice), then tells
 *	user space; cancelled once the admin queue fails commands at once
 * @aen_result: dword 0 of the last Asynchronous Event Request completion
 * @ana_lock: serialises reading the ANA log into @ana_log with looking at
 *	it
 * @ana_log: the ANA log page last read, kvmalloc'ed by the first connect
 *	whose controller reports ANA, grown by a reconnect that needs more,
 *	freed with the controller
 * @ana_log_alloc: bytes at @ana_log
 * @ana_log_size: bytes of a whole ANA log on this association; 0 when
 *	it reads none (no ANA reporting, or a log rblk cannot read); read
 *	locklessly by rblk_path_error()
 * @ana_log_valid: @ana_log holds a log read and checked on this
 *	association; under @ana_lock
 * @ana_work: reads the ANA log again after an ANA Change Notice
 * @rest_work: ends the rest of the paths that a path error put to rest
 *	(%RBLK_NS_PATH_REST), %RBLK_PATH_REST after the first
 * @anatt_timer: armed while the last ANA log has a group in ANA change
 *	state, for twice ANATT; its expiry resets the controller (as nvme)
 * @loss_deadline: jiffies after which reconnecting stops
 * @timeouts: command timeouts
 * @reconnects: successful reconnects
 * @reconnect_attempts: reconnect attempts
 * @stats_base: @timeouts, @reconnects, @reconnect_attempts and the
 *	queues' doorbell and command counts at the last reset
 * @resubmit_lock: protects @resubmit_bios and @resubmit_flushes
 * @resubmit_bios: bios of requests held for a retired queue
 * @resubmit_flushes: flush requests held for a retired queue
 * @resubmit_work: submits @resubmit_bios again (blk.c)
 * @forward_work: forwards @resubmit_flushes to I/O queue 1 (blk.c)
 * @nr_resubmitted: requests passed on by the current queue-count change
 * @nr_forwarded: flushes among them
 */
struct rblk_ctrl {
	struct device dev;
	struct list_head entry;
	const struct rblk_ctrl_ops *ops;
	int index;
	char name[RBLK_DISK_NAME_LEN];
	struct rblk_ctrl_opts opts;
	struct sockaddr_storage addr;
	struct sockaddr_storage src_addr;

	spinlock_t lock;
	spinlock_t ns_lock;
	struct mutex quiesce_lock;
	enum rblk_state state;
	unsigned long flags;
	struct request *setup_rq;

	struct rblk_queue *queues;
	u32 nr_io_queues;
	u32 nr_poll_queues;
	u32 nr_write_queues;
	struct mutex hw_queues_lock;
	struct blk_mq_tag_set admin_set;
	struct blk_mq_tag_set tag_set;
	struct request_queue *admin_q;
	struct request_queue *connect_q;
	struct cdev cdev;
	struct rw_semaphore passthru_rwsem;
	bool passthru_ready;
	struct nvme_effects_log *effects;

	struct list_head namespaces;
	struct rw_semaphore namespaces_rwsem;
	struct mutex scan_lock;
	struct work_struct scan_work;
	struct work_struct paths_work;
	struct completion first_scan;
	atomic_t reval_gen;
	atomic_t ns_removed;

	u64 cap;
	u32 vs;
	u32 ctrl_config;
	u16 cntlid;
	struct rblk_refusal refusal;
	u16 auth_tid;
	u32 auth_result;
	unsigned int reauths;
	u64 reauth_at;
	bool reauth_refused;
	char subnqn[RBLK_NQN_SIZE];
	struct rblk_subsys *subsys;
	struct list_head subsys_entry;
	/* Written per request under queue-depth: off the I/O path's line. */
	atomic_t nr_active ____cacheline_aligned_in_smp;
	u32 ioccsz;
	u16 icdoff;
	u32 max_hw_sectors;
	u32 max_segments;
	u16 oncs;
	u32 oaes;
	struct rblk_ctrl_mpath mpath;
	u8 vwc;
	u8 lpa;
	int numa_node;
	u16 kas;
	u32 rtd3e;
	u16 maxcmd;
	u16 crdt[3];
	u16 vid;
	char serial[RBLK_SERIAL_SIZE];
	char model[RBLK_MODEL_SIZE];
	char firmware[RBLK_FIRMWARE_SIZE];

	struct work_struct err_work;
	struct delayed_work reconnect_work;
	struct delayed_work ka_work;
	struct work_struct delete_work;
	struct delayed_work failfast_work;
	struct work_struct aer_work;
	struct work_struct event_work;
	struct work_struct disc_work;
	u32 aen_result;
	struct mutex ana_lock;
	void *ana_log;
	size_t ana_log_alloc;
	size_t ana_log_size;
	bool ana_log_valid;
	struct work_struct ana_work;
	struct delayed_work rest_work;
	struct timer_list anatt_timer;
	unsigned long loss_deadline;

	atomic64_t timeouts;
	atomic64_t reconnects;
	atomic64_t reconnect_attempts;
	struct {
		u64 timeouts;
		u64 reconnects;
		u64 reconnect_attempts;
		u64 posts;
		u64 cmds;
		u64 polled;
	} stats_base;

	spinlock_t resubmit_lock;
	struct bio_list resubmit_bios;
	struct list_head resubmit_flushes;
	struct work_struct resubmit_work;
	struct work_struct forward_work;
	u32 nr_resubmitted;
	u32 nr_forwarded;
};

/* Every I/O queue a controller may ever have: the size of its array. */
static inline u32 rblk_opts_max_queues(const struct rblk_ctrl_opts *o)
{
	return o->nr_io_queues + o->nr_poll_queues + o->nr_write_queues;
}

/* I/O queue @qid is polled in the queue layout now in effect. */
static inline bool rblk_qid_is_poll(struct rblk_ctrl *ctrl, u16 qid)
{
	return qid > ctrl->nr_io_queues - ctrl->nr_poll_queues;
}

static inline struct rblk_ctrl *rblk_ctrl_of_set(struct blk_mq_tag_set *set)
{
	return set->driver_data;
}

static inline struct rblk_ctrl *rblk_dev_to_ctrl(struct device *dev)
{
	return container_of(dev, struct rblk_ctrl, dev);
}

/* A controller state on the way out: deleting, or given up (until deleted). */
static inline bool rblk_state_leaving(enum rblk_state state)
{
	return state == RBLK_STATE_DELETING || state == RBLK_STATE_DEAD;
}

/**
 * rblk_ctrl_state() - current state
 * @ctrl: controller
 *
 * Return: the state; it may change right after.
 */
static inline enum rblk_state rblk_ctrl_state(struct rblk_ctrl *ctrl)
{
	return READ_ONCE(ctrl->state);
}

/**
 * rblk_ctrl_persistent_disc() - a discovery controller kept connected
 * @ctrl: controller
 *
 * Listed (an index), unlike the one a discover reads the log through.
 *
 * Return: true if it is one.
 */
static inline bool rblk_ctrl_persistent_disc(const struct rblk_ctrl *ctrl)
{
	return ctrl->opts.discovery && ctrl->index >= 0;
}

/**
 * rblk_ctrl_max_sectors() - the largest transfer of one request
 * @ctrl: controller, Identify Controller read on this association
 *
 * MDTS, and what one memory registration maps.  MRs map 4 KiB
 * controller pages whatever PAGE_SIZE is; an unaligned buffer spans one
 * page more than its length, so transfers stay one page below what an MR
 * maps.
 *
 * Return: the limit in 512-byte sectors.
 */
static inline u32 rblk_ctrl_max_sectors(struct rblk_ctrl *ctrl)
{
	return min_t(u32, ctrl->max_hw_sectors,
		     (ctrl->max_segments - 1) << (ilog2(SZ_4K) - SECTOR_SHIFT));
}

/*
 * An ANA status on an association that reads the ANA log: the path waits
 * for the log, read again (rblk_ana_error()).  Without the log, a path
 * error like any other.
 */
static inline bool rblk_ana_status_in_use(struct rblk_ctrl *ctrl, u16 status)
{
	return rblk_status_is_ana(status) && READ_ONCE(ctrl->ana_log_size);
}

/* A namespace users can name: its disk is there and not going away. */
static inline bool rblk_ns_visible(struct rblk_ns *ns)
{
	return test_bit(RBLK_NS_ADDED, &ns->flags) &&
	       !test_bit(RBLK_NS_REMOVING, &ns->flags);
}

/* The namespace a block request is for; NULL for our own commands. */
static inline struct rblk_ns *rblk_rq_ns(struct request *rq)
{
	return rq->q->queuedata;
}

/**
 * struct rblk_event_info - what the event notifier chain carries
 * @ctrl: the controller; NULL for a subsystem's event
 * @ns: the namespace of a namespace event, else NULL
 * @subsys: the subsystem of a subsystem's event, else NULL
 */
struct rblk_event_info {
	struct rblk_ctrl *ctrl;
	struct rblk_ns *ns;
	struct rblk_subsys *subsys;
};

extern struct workqueue_struct *rblk_wq;
extern unsigned int rblk_io_timeout;
extern unsigned int rblk_admin_timeout;

/* host.c: the controller registry, as the control plane sees it */
void rblk_opts_init(struct rblk_ctrl_opts *opts);
struct rblk_ctrl *rblk_host_connect(const struct rblk_ctrl_opts *opts,
				    const char **errmsg,
				    struct rblk_refusal *refusal);
int rblk_host_delete(struct rblk_ctrl *ctrl);
struct rblk_ctrl *rblk_ctrl_find(int index, const char *name);
struct rblk_ctrl *rblk_ctrl_next(int *index);
struct rblk_ns *rblk_ns_find(struct rblk_ctrl *on, int index, const char *name);
int rblk_discover(const struct rblk_ctrl_opts *opts, u32 max,
		  struct rblk_disc_log *log, const char **errmsg,
		  struct rblk_refusal *refusal);
int rblk_default_hostid(const char *hostnqn, uuid_t *hostid);
int rblk_host_init(void);
void rblk_host_exit(void);

/* subsys.c: subsystems, the controllers (paths) to each */
int rblk_subsys_bind(struct rblk_ctrl *ctrl, const char **errmsg);
void rblk_subsys_unbind(struct rblk_ctrl *ctrl);
unsigned int rblk_subsys_nr_paths(struct rblk_subsys *subsys);
void rblk_subsys_get(struct rblk_subsys *subsys);
void rblk_subsys_put(struct rblk_subsys *subsys);
struct rblk_subsys *rblk_ctrl_get_subsys(struct rblk_ctrl *ctrl);
struct rblk_ctrl **rblk_subsys_get_other_ctrls(struct rblk_ctrl *ctrl,
					       unsigned int *nr);
void rblk_ctrls_put(struct rblk_ctrl **ctrls, unsigned int nr);
void rblk_subsys_set_iopolicy(struct rblk_subsys *subsys, int iopolicy);
int rblk_subsys_check_global_ids(struct rblk_ctrl *ctrl, u32 nsid,
				 const struct rblk_ns_ids *ids);
int rblk_subsys_check_ids(struct rblk_ctrl *ctrl, u32 nsid,
			  const struct rblk_ns_ids *ids);
int rblk_subsys_add_ns(struct rblk_ctrl *ctrl, struct rblk_ns *ns);
void rblk_subsys_del_ns(struct rblk_ns *ns);
struct rblk_subsys *rblk_subsys_next(int *instance);
struct rblk_subsys *rblk_subsys_find(const char *name);
void rblk_subsys_firmware(struct rblk_subsys *subsys, char *buf, size_t len);
int rblk_subsys_walk_ctrls(struct rblk_subsys *subsys, void *arg,
			   int (*fn)(struct rblk_ctrl *ctrl, void *arg));
int rblk_iopolicy_parse(const char *buf);
extern const char * const rblk_iopolicy_names[__RBLK_IOPOLICY_MAX];
void rblk_subsys_exit(void);

/* mpath.c: namespace heads across paths; block device numbers */
extern bool rblk_multipath;
int rblk_disk_index_alloc(void);
void rblk_disk_index_free(int index);
void rblk_disk_set_devt(struct gendisk *disk, int index);
struct rblk_head *rblk_head_get(struct rblk_ctrl *ctrl, u32 nsid,
				const struct rblk_ns_info *info,
				const struct block_device_operations *fops);
void rblk_head_put(struct rblk_head *head);
int rblk_head_attach(struct rblk_ns *ns, const struct attribute_group **groups);
bool rblk_head_detach(struct rblk_ns *ns, bool gone);
void rblk_head_finish(struct rblk_ns *ns);
void rblk_head_update(struct rblk_ns *ns, bool size);
void rblk_head_submit_bio(struct bio *bio);
int rblk_head_open(struct rblk_head *head);
void rblk_head_kick(struct rblk_head *head);
bool rblk_head_other_path(struct rblk_head *head, struct rblk_ns *ns);
bool rblk_head_other_available(struct rblk_head *head, struct rblk_ns *ns);

/**
 * enum rblk_flush_route - where a head's data-less flush goes now
 * @RBLK_FLUSH_OWN: its own path takes I/O: sent there
 * @RBLK_FLUSH_OTHER: another path does: a Flush there stands in for it
 * @RBLK_FLUSH_HOLD: none does, but one may come back: it waits
 * @RBLK_FLUSH_FAIL: none may: it fails
 */
enum rblk_flush_route {
	RBLK_FLUSH_OWN,
	RBLK_FLUSH_OTHER,
	RBLK_FLUSH_HOLD,
	RBLK_FLUSH_FAIL,
};

enum rblk_flush_route rblk_head_flush_route(struct rblk_ns *ns);
void rblk_head_flush_requeue(struct request *rq);
void rblk_head_forward_flush(struct rblk_head *head, struct request *rq);
void rblk_mpath_set_iopolicy(struct rblk_subsys *subsys, int iopolicy);
struct rblk_ns *rblk_head_open_path(struct rblk_head *head);
u32 rblk_head_nsid(struct rblk_head *head);
struct rblk_head *rblk_subsys_next_head(struct rblk_subsys *subsys,
					int *index);
int rblk_head_walk_paths(struct rblk_head *head, void *arg,
			 int (*fn)(struct rblk_ns *ns, void *arg));
unsigned int rblk_head_nr_paths(struct rblk_head *head);
unsigned int rblk_head_disks_get(struct rblk_ns **nss, unsigned int nr,
				 struct gendisk **disks, unsigned int have);
unsigned int rblk_head_read_stats(struct rblk_head *head,
				  struct rblk_stats *s, struct rblk_stats *tmp);
void rblk_head_reset_stats(struct rblk_head *head);
enum rblk_state rblk_head_state(struct rblk_head *head);
void rblk_head_free_disk(struct gendisk *disk);
int rblk_mpath_init(void);
void rblk_mpath_exit(void);

/* ns.c: namespaces */
extern const struct rblk_ctrl_ops rblk_ns_ctrl_ops;
void rblk_ns_init_ctrl(struct rblk_ctrl *ctrl);
void rblk_ns_remove_all(struct rblk_ctrl *ctrl);
void rblk_ns_put(struct rblk_ns *ns);
struct rblk_ns *rblk_ns_open_nsid(struct rblk_ctrl *ctrl, u32 nsid);
void rblk_ns_close(struct rblk_ns *ns);
struct rblk_ns **rblk_ns_get_all(struct rblk_ctrl *ctrl, unsigned int *nr);
void rblk_ns_put_all(struct rblk_ns **nss, unsigned int nr);
void rblk_ns_freeze_start_all(struct rblk_ns **nss, unsigned int nr);
bool rblk_ns_freeze_wait_all(struct rblk_ns **nss, unsigned int nr,
			     unsigned long timeout);
void rblk_ns_unfreeze_all(struct rblk_ns **nss, unsigned int nr);
void rblk_ns_rescan(struct rblk_ctrl *ctrl, bool wait);
void rblk_ns_scan_flush(struct rblk_ctrl *ctrl);
void rblk_ns_wwid(struct rblk_ns *ns, char *buf, size_t len);
void rblk_head_wwid(struct rblk_head *head, char *buf, size_t len);
bool rblk_disk_is_head(struct gendisk *disk);
void rblk_ns_reset_stats_all(struct rblk_ctrl *ctrl);
int rblk_ns_init(void);
void rblk_ns_exit(void);

/* ioctl.c: NVMe passthrough on /dev/rblk-ctrlM and the namespaces */
#define RBLK_CTRL_MINORS	(1U << MINORBITS)
extern const struct file_operations rblk_ctrl_fops;
dev_t rblk_ctrl_devt(int index);
void rblk_passthru_init(struct rblk_ctrl *ctrl);
void rblk_passthru_enable(struct rblk_ctrl *ctrl);
void rblk_passthru_disable(struct rblk_ctrl *ctrl);
int rblk_passthru_rescan_ctrl(struct rblk_ctrl *ctrl);
int rblk_ns_ioctl(struct block_device *bdev, rblk_bdev_open_mode_t mode,
		  unsigned int cmd, unsigned long arg);
int rblk_head_ioctl(struct block_device *bdev, rblk_bdev_open_mode_t mode,
		    unsigned int cmd, unsigned long arg);
int rblk_ioctl_init(void);
void rblk_ioctl_exit(void);

/* sysfs.c: attributes of subsystems, controllers and namespaces */
extern const struct attribute_group *rblk_ctrl_groups[];
extern const struct attribute_group *rblk_subsys_groups[];
extern struct class *rblk_subsys_class;
extern const struct attribute_group *rblk_ns_groups[];
extern const struct attribute_group *rblk_head_groups[];
int rblk_sysfs_init(void);
void rblk_sysfs_exit(void);
extern struct class *rblk_class;

/* blk.c: blk-mq operations */
extern const struct blk_mq_ops rblk_admin_mq_ops;
extern const struct blk_mq_ops rblk_io_mq_ops;
void rblk_blk_init_ctrl(struct rblk_ctrl *ctrl);

/* ctrl.c: state machine, setup, error recovery, teardown */
const char *rblk_state_name(enum rblk_state state);
bool rblk_change_state(struct rblk_ctrl *ctrl, enum rblk_state new);
struct rblk_ctrl *rblk_ctrl_alloc(const struct rblk_ctrl_opts *opts,
				  const struct rblk_ctrl_ops *ops);
void rblk_ctrl_get(struct rblk_ctrl *ctrl);
void rblk_ctrl_put(struct rblk_ctrl *ctrl);
int rblk_ctrl_start(struct rblk_ctrl *ctrl, const char **errmsg);
void rblk_ctrl_stop_recovery(struct rblk_ctrl *ctrl);
void rblk_ctrl_teardown(struct rblk_ctrl *ctrl);
void rblk_ctrl_stop(struct rblk_ctrl *ctrl);
void rblk_ctrl_free_queues(struct rblk_ctrl *ctrl);
void rblk_error_recovery(struct rblk_ctrl *ctrl);
bool rblk_ctrl_reauth(struct rblk_ctrl *ctrl);
int rblk_ctrl_reset(struct rblk_ctrl *ctrl);
bool rblk_ctrl_holds_io(struct rblk_ctrl *ctrl);
void rblk_abort_rq(struct request *rq, bool timed_out);
void rblk_ctrl_add_ns(struct rblk_ctrl *ctrl, struct rblk_ns *ns);
void rblk_ctrl_kill_ns(struct rblk_ctrl *ctrl, struct rblk_ns *ns);
void rblk_ctrl_del_ns(struct rblk_ctrl *ctrl, struct rblk_ns *ns);
void rblk_set_ctrl_limits(struct rblk_ctrl *ctrl, struct rblk_limits *l);
void rblk_ctrl_stats(struct rblk_ctrl *ctrl, struct rblk_stats *s);
void rblk_ctrl_stats_reset(struct rblk_ctrl *ctrl);

/* event.c: the news of controllers and namespaces, up to its listeners */
void rblk_notify(struct rblk_ctrl *ctrl, struct rblk_ns *ns,
		 enum rblk_event event);
void rblk_notify_subsys(struct rblk_subsys *subsys, enum rblk_event event);
int rblk_event_register(struct notifier_block *nb);
void rblk_event_unregister(struct notifier_block *nb);

/* ana.c: the controller's copy of the ANA log page */
void rblk_ana_init(struct rblk_ctrl *ctrl,
		   void (*anatt_expired)(struct timer_list *t));
void rblk_ana_stop(struct rblk_ctrl *ctrl);
void rblk_ana_free(struct rblk_ctrl *ctrl);
int rblk_ana_setup(struct rblk_ctrl *ctrl, const char **errmsg);
int rblk_ana_read(struct rblk_ctrl *ctrl);
bool rblk_ana_apply(struct rblk_ctrl *ctrl);
void rblk_path_error(struct rblk_ctrl *ctrl, struct rblk_ns *ns, u16 status);
void rblk_path_rests_end(struct rblk_ctrl *ctrl);

/* fabrics.c: NVMe-oF capsules and controller bring-up */
int rblk_exec_cmd(struct rblk_ctrl *ctrl, u16 qid, struct nvme_command *cmd,
		  void *buf, unsigned int len, union nvme_result *result);
void rblk_setup_rq_started(struct rblk_ctrl *ctrl, struct request *rq);
int rblk_fabrics_connect(struct rblk_ctrl *ctrl, u16 qid, u32 *authreq,
			 const char **errmsg);
int rblk_fabrics_auth(struct rblk_ctrl *ctrl, u16 qid, bool send, void *buf,
		      u32 len);
int rblk_prop_get(struct rblk_ctrl *ctrl, u32 off, bool is64, u64 *val);
int rblk_prop_set(struct rblk_ctrl *ctrl, u32 off, u32 val);
int rblk_enable_ctrl(struct rblk_ctrl *ctrl);
int rblk_shutdown_ctrl(struct rblk_ctrl *ctrl);
int rblk_identify_ctrl(struct rblk_ctrl *ctrl);
int rblk_identify_ns(struct rblk_ctrl *ctrl, u32 nsid,
		     struct rblk_ns_info *info);
int rblk_identify_ns_list(struct rblk_ctrl *ctrl, u32 prev, __le32 *list);
int rblk_set_queue_count(struct rblk_ctrl *ctrl, u32 *count);
int rblk_configure_aen(struct rblk_ctrl *ctrl);
int rblk_configure_acre(struct rblk_ctrl *ctrl);
int rblk_clear_changed_ns_log(struct rblk_ctrl *ctrl);
int rblk_get_ana_log(struct rblk_ctrl *ctrl, void *buf, size_t len);
void rblk_get_effects_log(struct rblk_ctrl *ctrl);
int rblk_get_disc_log(struct rblk_ctrl *ctrl, u32 max,
		      struct rblk_disc_log *log);
int rblk_send_keep_alive(struct rblk_ctrl *ctrl, rq_end_io_fn *done);
int rblk_rearm_disc_change(struct rblk_ctrl *ctrl);

/* netlink.c: generic netlink control plane */
int rblk_nl_init(void);
void rblk_nl_exit(void);

#endif /* _RBLK_H */
