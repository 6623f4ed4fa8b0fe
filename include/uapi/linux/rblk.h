/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rblk - NVMe over Fabrics (RDMA) block device host.
 *
 * Generic netlink interface shared by the kernel module and nvmecfg.
 *
 * The objects: a controller ("rblk-ctrlM", one NVMe-oF association with
 * its admin and I/O queues) and its namespaces, each a block device
 * "rblkN" that shares the controller's queues.  Commands name a
 * controller by %RBLK_ATTR_CTRL_INDEX or %RBLK_ATTR_CTRL_NAME, or a
 * namespace by %RBLK_ATTR_INDEX or %RBLK_ATTR_DISK_NAME, which then stands
 * for its controller where a command acts on controllers.
 *
 * With multipath, two more objects: a subsystem ("rblk-subsysK", the
 * controllers to one NVM subsystem, whatever host NQN each connected
 * with: its paths), named by
 * %RBLK_ATTR_SUBSYS_NAME, and a namespace head ("rblkN", the block device
 * users open, across the paths), named by %RBLK_ATTR_INDEX or
 * %RBLK_ATTR_DISK_NAME; %RBLK_CMD_GET_SUBSYS and %RBLK_CMD_GET_HEAD
 * describe them (subsystems exist without multipath too, heads do not).
 */
#ifndef _UAPI_LINUX_RBLK_H
#define _UAPI_LINUX_RBLK_H

#define RBLK_GENL_NAME		"rblk"
#define RBLK_GENL_VERSION	3
#define RBLK_GENL_MCAST_EVENTS	"events"

/*
 * NQN fields are %RBLK_NQN_SIZE bytes (NVMF_NQN_SIZE).  An NQN given to
 * %RBLK_CMD_CONNECT or %RBLK_CMD_DISCOVER is valid when it is
 * 1..%RBLK_NQN_MAX_LEN bytes long, whatever its content: exactly what the
 * Linux host accepts (it keeps the field's last byte for the NUL).  The
 * target judges the rest; nvmet names a subsystem anything.
 */
#define RBLK_NQN_SIZE		223
#define RBLK_NQN_MAX_LEN	(RBLK_NQN_SIZE - 1)
#define RBLK_TRADDR_MAX_LEN	255
#define RBLK_TRSVCID_MAX_LEN	31
#define RBLK_DISK_NAME_LEN	32
#define RBLK_HOSTID_LEN		16
#define RBLK_NGUID_LEN		16
#define RBLK_EUI64_LEN		8
#define RBLK_UUID_LEN		16

/*
 * Name prefixes: controllers are "rblk-ctrlM", namespaces "rblkN",
 * subsystems "rblk-subsysK".
 */
#define RBLK_CTRL_NAME_PREFIX	"rblk-ctrl"
#define RBLK_NS_NAME_PREFIX	"rblk"
#define RBLK_SUBSYS_NAME_PREFIX	"rblk-subsys"

#define RBLK_MAX_IO_QUEUES	128
/* Poll queues come on top of the I/O queues: 0..RBLK_MAX_POLL_QUEUES. */
#define RBLK_MAX_POLL_QUEUES	128
/* Write queues too, when asked for: 0..RBLK_MAX_WRITE_QUEUES. */
#define RBLK_MAX_WRITE_QUEUES	128
#define RBLK_MIN_QUEUE_SIZE	16
#define RBLK_MAX_QUEUE_SIZE	1024
/* IP type of service of the RDMA CM connection (rdma_set_service_type). */
#define RBLK_MAX_TOS		255

/*
 * Discovery log records a %RBLK_CMD_DISCOVER doit reply carries at most (the
 * reply stays one netlink message, at most about 170 KiB);
 * %RBLK_ATTR_DISC_NUMREC tells when the target has more.  A dump request
 * (NLM_F_DUMP) has no such cap: it returns up to %RBLK_DISC_MAX_DUMP_RECORDS
 * records spread over as many messages as needed.
 */
#define RBLK_DISC_MAX_RECORDS		256
#define RBLK_DISC_MAX_DUMP_RECORDS	16384

/*
 * Upper bounds of the timers, in seconds: the kernel keeps them in jiffies
 * and milliseconds, which larger values would overflow.
 */
#define RBLK_MAX_KATO			3600
#define RBLK_MAX_RECONNECT_DELAY	3600
#define RBLK_MAX_TMO			(7 * 24 * 3600)

/**
 * enum rblk_cmd - generic netlink commands of the "rblk" family
 * @RBLK_CMD_UNSPEC: unused
 * @RBLK_CMD_CONNECT: create a controller on the subsystem
 *	%RBLK_ATTR_SUBSYSNQN at %RBLK_ATTR_TRADDR and a block device for
 *	each of its active namespaces (only %RBLK_ATTR_NSID if given).
 *	Answers once the controller is live, with %RBLK_CMD_CONNECT,
 *	%RBLK_ATTR_CTRL_INDEX, %RBLK_ATTR_CTRL_NAME and an %RBLK_ATTR_NS
 *	nest per namespace device already there (usually none): the
 *	namespace scan runs after the answer, announces each device with
 *	%RBLK_EVENT_NS_ADDED, and %RBLK_CMD_GET reports %RBLK_ATTR_SCANNED
 *	once it is done.  Whether %RBLK_ATTR_NSID exists is known only
 *	then (no device: it does not, or is unusable).  A second controller
 *	with the same address, subsystem and host NQN is refused
 *	(-EALREADY) unless %RBLK_ATTR_DUPLICATE_CONNECT is given; one being
 *	deleted does not count.  When the target refuses the Fabrics
 *	Connect, the error ACK's cookie (%NLMSGERR_ATTR_COOKIE) starts with
 *	its NVMe status, a u16 in host order: Status Code Type and Status
 *	Code, without DNR, More and CRD (names in %RBLK_NVME_STATUS_NAMES),
 *	0 when the refusal came later; when DH-HMAC-CHAP failed with a
 *	reason (the target's AUTH_Failure1 or the host's AUTH_Failure2), a
 *	u8 follows: the reason (%RBLK_AUTH_FAILURE_NAMES);
 *	%RBLK_CMD_DISCOVER likewise (as a dump, only on kernels from 6.10,
 *	whose dumps carry the cookie).  %RBLK_ATTR_SUBSYSNQN the
 *	well-known discovery NQN makes a persistent discovery controller:
 *	no namespaces, kept with keep-alive (%RBLK_ATTR_KATO) and reconnected
 *	like any controller, which sends %RBLK_EVENT_DISC_CHANGED for each
 *	Discovery Log Page Change notice.  Needs CAP_NET_ADMIN and
 *	CAP_SYS_ADMIN.
 * @RBLK_CMD_DISCONNECT: delete the controller named (directly or by one
 *	of its namespaces; a multipath head with several paths is refused,
 *	-EINVAL: name the controller, alone or with the head) and all its
 *	block devices, and shut the controller down.  Answers at once, with
 *	the controller in %RBLK_STATE_DELETING; the removal, which waits for
 *	the devices' I/O, runs in the background and ends with
 *	%RBLK_EVENT_REMOVED, after
 *	which lookups of the controller fail with -ENODEV.  Needs
 *	CAP_NET_ADMIN and CAP_SYS_ADMIN.
 * @RBLK_CMD_GET: describe one controller (doit) or all (dumpit): one
 *	%RBLK_CMD_GET message per controller with its parameters, state
 *	and one %RBLK_ATTR_NS nest per namespace.
 * @RBLK_CMD_GET_STATS: statistics, nested in %RBLK_ATTR_STATS: of one
 *	namespace when one is named, else the sum over the controller's
 *	namespaces; the reconnect counters are the controller's.  With
 *	multipath, a namespace named without a controller is its head:
 *	the sum over its visible paths and their controllers (which goes
 *	down when a path leaves), with %RBLK_ATTR_NR_PATHS in the answer
 *	(whose controller attributes then name one of the paths); named
 *	with a controller, the path through it.
 * @RBLK_CMD_DISCOVER: connect to the discovery controller at
 *	%RBLK_ATTR_TRADDR, read the discovery log page and answer with one
 *	%RBLK_ATTR_DISC_ENTRY nest per record, after %RBLK_ATTR_DISC_GENCTR
 *	and %RBLK_ATTR_DISC_NUMREC.  As a dump, every message carries
 *	those two and its share of the records. Needs CAP_NET_ADMIN
 *	and CAP_SYS_ADMIN.
 * @RBLK_CMD_EVENT: multicast notification on the "events" group, carrying
 *	%RBLK_ATTR_EVENT, %RBLK_ATTR_CTRL_INDEX, %RBLK_ATTR_CTRL_NAME,
 *	%RBLK_ATTR_STATE and, for namespace events, one %RBLK_ATTR_NS nest;
 *	a subsystem's event (%RBLK_EVENT_IOPOLICY_CHANGED) carries the
 *	subsystem's attributes instead of a controller's.
 * @RBLK_CMD_RESET_STATS: zero the statistics of one namespace (a head's
 *	named without a controller: of each of its paths), or of all
 *	namespaces and the controller. Needs CAP_NET_ADMIN
 *	and CAP_SYS_ADMIN.
 * @RBLK_CMD_SET: change settings of the controller named (directly or by
 *	one of its namespaces): %RBLK_ATTR_IOPOLICY sets the I/O policy of
 *	its subsystem (-EOPNOTSUPP when the module was loaded without
 *	multipath; -EAGAIN before the controller's first connect, -ENODEV
 *	once it is being deleted).  At least one setting; answers with no
 *	payload.
 *	Needs CAP_NET_ADMIN and CAP_SYS_ADMIN.
 * @RBLK_CMD_GET_SUBSYS: describe the subsystem %RBLK_ATTR_SUBSYS_NAME
 *	(doit) or every subsystem (dumpit, by instance K): one message per
 *	subsystem with %RBLK_ATTR_SUBSYS_NAME, %RBLK_ATTR_SUBSYSNQN,
 *	%RBLK_ATTR_MODEL, %RBLK_ATTR_SERIAL, %RBLK_ATTR_FIRMWARE,
 *	%RBLK_ATTR_IOPOLICY (with multipath only) and one %RBLK_ATTR_PATH
 *	nest per controller bound to it (those being deleted too, with
 *	their state), without the namespace attributes.  A subsystem has
 *	no host NQN of its own: each path carries its controller's
 *	(%RBLK_PATH_ATTR_HOSTNQN, %RBLK_PATH_ATTR_HOSTID).  -ENODEV: no such
 *	subsystem (the last controller's teardown removes it).
 * @RBLK_CMD_GET_HEAD: with multipath, describe the namespace head named
 *	by %RBLK_ATTR_INDEX or %RBLK_ATTR_DISK_NAME (doit; -EINVAL for a
 *	device that is no head: multipath is off) or every head (dumpit, by
 *	subsystem, then index): one message per head with %RBLK_ATTR_INDEX,
 *	%RBLK_ATTR_DISK_NAME, %RBLK_ATTR_NSID, %RBLK_ATTR_SUBSYS_NAME,
 *	%RBLK_ATTR_SUBSYSNQN, %RBLK_ATTR_IOPOLICY, %RBLK_ATTR_STATE (the
 *	best of its paths' controller states) and one %RBLK_ATTR_PATH nest
 *	per path users can name (attached, its disk not going away), with
 *	the path's hidden disk, ANA group and ANA state.
 * @__RBLK_CMD_MAX: number of commands
 */
enum rblk_cmd {
	RBLK_CMD_UNSPEC,
	RBLK_CMD_CONNECT,
	RBLK_CMD_DISCONNECT,
	RBLK_CMD_GET,
	RBLK_CMD_GET_STATS,
	RBLK_CMD_DISCOVER,
	RBLK_CMD_EVENT,
	RBLK_CMD_RESET_STATS,
	RBLK_CMD_SET,
	RBLK_CMD_GET_SUBSYS,
	RBLK_CMD_GET_HEAD,
	__RBLK_CMD_MAX,
};
/* Highest valid value of the enum above. */
#define RBLK_CMD_MAX (__RBLK_CMD_MAX - 1)

/**
 * enum rblk_attr - top-level attributes
 * @RBLK_ATTR_UNSPEC: unused
 * @RBLK_ATTR_INDEX: u32, index N of the namespace device /dev/rblkN
 * @RBLK_ATTR_DISK_NAME: string, "rblkN"
 * @RBLK_ATTR_TRTYPE: string, transport type; only "rdma" is accepted
 * @RBLK_ATTR_ADRFAM: u8, address family: %RBLK_ADRFAM_IPV4 or
 *	%RBLK_ADRFAM_IPV6 (default: guessed from %RBLK_ATTR_TRADDR)
 * @RBLK_ATTR_TRADDR: string, transport address (IPv4 or IPv6 literal)
 * @RBLK_ATTR_TRSVCID: string, transport service id (port, default "4420")
 * @RBLK_ATTR_SUBSYSNQN: string, NVMe qualified name of the subsystem
 * @RBLK_ATTR_NSID: u32, expose only this namespace (default: all)
 * @RBLK_ATTR_HOSTNQN: string, host NQN (default: the module's host NQN)
 * @RBLK_ATTR_HOSTID: binary, 16-byte host identifier (default: the UUID
 *	of a "nqn.2014-08.org.nvmexpress:uuid:<UUID>" host NQN, else the
 *	module's host identifier)
 * @RBLK_ATTR_NR_IO_QUEUES: u32, wanted I/O queues (default: online CPUs,
 *	at most %RBLK_MAX_IO_QUEUES)
 * @RBLK_ATTR_QUEUE_SIZE: u32, entries per I/O queue
 *	(%RBLK_MIN_QUEUE_SIZE..%RBLK_MAX_QUEUE_SIZE, default 128)
 * @RBLK_ATTR_KATO: u32, keep-alive timeout in seconds, 0 disables
 *	(0..%RBLK_MAX_KATO, default 5)
 * @RBLK_ATTR_RECONNECT_DELAY: u32, seconds between reconnect attempts
 *	(1..%RBLK_MAX_RECONNECT_DELAY, default 10)
 * @RBLK_ATTR_CTRL_LOSS_TMO: s32, seconds to keep reconnecting before the
 *	controller fails its I/O; -1 reconnects forever (-1..%RBLK_MAX_TMO,
 *	default 600)
 * @RBLK_ATTR_FAST_IO_FAIL_TMO: s32, seconds after which queued I/O fails
 *	while reconnecting; -1 holds it until ctrl_loss_tmo
 *	(-1..%RBLK_MAX_TMO, default -1)
 * @RBLK_ATTR_STATE: u8, &enum rblk_state of the controller
 * @RBLK_ATTR_CNTLID: u16, controller id the target assigned
 * @RBLK_ATTR_SIZE_V1: unused since version 2 (sizes are per namespace, in
 *	%RBLK_ATTR_NS); kept so that no attribute changes its number
 * @RBLK_ATTR_BLOCK_SIZE_V1: unused since version 2, likewise
 * @RBLK_ATTR_STATS: nest of &enum rblk_stat_attr
 * @RBLK_ATTR_DISC_ENTRY: nest of &enum rblk_disc_attr, repeated
 * @RBLK_ATTR_EVENT: u8, &enum rblk_event
 * @RBLK_ATTR_MODEL: string, controller model number
 * @RBLK_ATTR_SERIAL: string, controller serial number
 * @RBLK_ATTR_FIRMWARE: string, controller firmware revision
 * @RBLK_ATTR_PAD: padding for 64-bit attributes
 * @RBLK_ATTR_DISC_NUMREC: u64, records in the target's discovery log; more
 *	than the %RBLK_ATTR_DISC_ENTRY nests when the log is longer than
 *	%RBLK_DISC_MAX_RECORDS
 * @RBLK_ATTR_CTRL_INDEX: u32, index M of the controller "rblk-ctrlM"
 * @RBLK_ATTR_CTRL_NAME: string, "rblk-ctrlM"
 * @RBLK_ATTR_NS: nest of &enum rblk_ns_attr, one namespace; repeated
 * @RBLK_ATTR_DUPLICATE_CONNECT: flag, allow a second controller to the
 *	same address, subsystem and host NQN
 * @RBLK_ATTR_HOST_TRADDR: string, local IPv4 or IPv6 address to connect
 *	from (default: chosen by routing)
 * @RBLK_ATTR_TOS: u8, IP type of service of the connections
 *	(0..%RBLK_MAX_TOS; default: the RDMA CM's)
 * @RBLK_ATTR_DISC_GENCTR: u64, generation counter of the discovery log
 * @RBLK_ATTR_NR_POLL_QUEUES: u32, polled I/O queues wanted besides
 *	%RBLK_ATTR_NR_IO_QUEUES (0..%RBLK_MAX_POLL_QUEUES, default 0): they
 *	take the polled requests (io_uring with IORING_SETUP_IOPOLL,
 *	preadv2 RWF_HIPRI) and complete them without interrupts.  In
 *	%RBLK_CMD_GET, the poll queues in use (%RBLK_ATTR_NR_IO_QUEUES then
 *	counts them too)
 * @RBLK_ATTR_NR_WRITE_QUEUES: u32, queues for writes and everything but
 *	reads besides %RBLK_ATTR_NR_IO_QUEUES, which then take the reads
 *	only (0..%RBLK_MAX_WRITE_QUEUES, default 0: reads and writes share
 *	the I/O queues), as nvme-cli's --nr-write-queues.  In
 *	%RBLK_CMD_GET, the write queues in use (counted in
 *	%RBLK_ATTR_NR_IO_QUEUES too)
 * @RBLK_ATTR_SCANNED: flag, in %RBLK_CMD_GET: the controller's first
 *	namespace scan is over (its namespace devices as found then are
 *	there), or will never run (the controller is deleting, or dead);
 *	absent while it is pending
 * @RBLK_ATTR_IOPOLICY: u8, &enum rblk_iopolicy: in %RBLK_CMD_GET the I/O
 *	policy of the controller's subsystem (only with multipath, and
 *	while the controller is a path: from its first Identify until its
 *	deletion), in %RBLK_CMD_SET the new one
 * @RBLK_ATTR_NR_PATHS: u32, in a %RBLK_CMD_GET_STATS answer for a
 *	multipath head: the paths whose counters it adds up
 * @RBLK_ATTR_DHCHAP_SECRET: string, in %RBLK_CMD_CONNECT and
 *	%RBLK_CMD_DISCOVER the host's DH-HMAC-CHAP key, "DHHC-1:NN:<base64>:"
 *	(NN 00..03, the base64 of a 32, 48 or 64-byte secret and its
 *	CRC-32), at most %RBLK_DHCHAP_SECRET_MAX_LEN bytes: the host
 *	authenticates itself on every queue when the target asks.  Only
 *	where the kernel has the NVMe authentication library
 *	(CONFIG_NVME_AUTH; -EOPNOTSUPP elsewhere).  Never reported back
 * @RBLK_ATTR_DHCHAP_CTRL_SECRET: string, the controller's key, same form;
 *	with %RBLK_ATTR_DHCHAP_SECRET only: the controller must prove it
 *	holds it (bidirectional authentication).  Never reported back
 * @RBLK_ATTR_DHCHAP_KEY_DEFAULT: flag, with %RBLK_ATTR_DHCHAP_SECRET: the
 *	key is the tool's default (/etc/nvme/hostkey), not the user's
 *	choice: where the kernel cannot authenticate it is ignored, not
 *	refused, so hosts with the file keep connecting to targets that do
 *	not ask
 * @RBLK_ATTR_DHCHAP_HASH: u8, in %RBLK_CMD_GET: the hash function
 *	(%RBLK_DHCHAP_HASH_NAMES) the admin queue's last DH-HMAC-CHAP
 *	exchange used; absent when the last connect did not authenticate
 * @RBLK_ATTR_DHCHAP_DHGROUP: u8, in %RBLK_CMD_GET with
 *	%RBLK_ATTR_DHCHAP_HASH: its Diffie-Hellman group
 *	(%RBLK_DHCHAP_DHGROUP_NAMES, 0 the null group)
 * @RBLK_ATTR_DHCHAP_FLAGS: u8, in %RBLK_CMD_GET: &enum rblk_dhchap_flags,
 *	which keys the controller holds and how it authenticated; absent
 *	when it holds none
 * @RBLK_ATTR_SUBSYS_NAME: string, "rblk-subsysK": names a subsystem in
 *	%RBLK_CMD_GET_SUBSYS; in %RBLK_CMD_GET_HEAD and
 *	%RBLK_EVENT_IOPOLICY_CHANGED the head's, the event's subsystem
 * @RBLK_ATTR_PATH: nest of &enum rblk_path_attr, one path (controller) of
 *	a subsystem or head; repeated
 * @__RBLK_ATTR_MAX: number of attributes
 */
enum rblk_attr {
	RBLK_ATTR_UNSPEC,
	RBLK_ATTR_INDEX,
	RBLK_ATTR_DISK_NAME,
	RBLK_ATTR_TRTYPE,
	RBLK_ATTR_ADRFAM,
	RBLK_ATTR_TRADDR,
	RBLK_ATTR_TRSVCID,
	RBLK_ATTR_SUBSYSNQN,
	RBLK_ATTR_NSID,
	RBLK_ATTR_HOSTNQN,
	RBLK_ATTR_HOSTID,
	RBLK_ATTR_NR_IO_QUEUES,
	RBLK_ATTR_QUEUE_SIZE,
	RBLK_ATTR_KATO,
	RBLK_ATTR_RECONNECT_DELAY,
	RBLK_ATTR_CTRL_LOSS_TMO,
	RBLK_ATTR_FAST_IO_FAIL_TMO,
	RBLK_ATTR_STATE,
	RBLK_ATTR_CNTLID,
	RBLK_ATTR_SIZE_V1,
	RBLK_ATTR_BLOCK_SIZE_V1,
	RBLK_ATTR_STATS,
	RBLK_ATTR_DISC_ENTRY,
	RBLK_ATTR_EVENT,
	RBLK_ATTR_MODEL,
	RBLK_ATTR_SERIAL,
	RBLK_ATTR_FIRMWARE,
	RBLK_ATTR_PAD,
	RBLK_ATTR_DISC_NUMREC,
	RBLK_ATTR_CTRL_INDEX,
	RBLK_ATTR_CTRL_NAME,
	RBLK_ATTR_NS,
	RBLK_ATTR_DUPLICATE_CONNECT,
	RBLK_ATTR_HOST_TRADDR,
	RBLK_ATTR_TOS,
	RBLK_ATTR_DISC_GENCTR,
	RBLK_ATTR_NR_POLL_QUEUES,
	RBLK_ATTR_NR_WRITE_QUEUES,
	RBLK_ATTR_SCANNED,
	RBLK_ATTR_IOPOLICY,
	RBLK_ATTR_NR_PATHS,
	RBLK_ATTR_DHCHAP_SECRET,
	RBLK_ATTR_DHCHAP_CTRL_SECRET,
	RBLK_ATTR_DHCHAP_KEY_DEFAULT,
	RBLK_ATTR_DHCHAP_HASH,
	RBLK_ATTR_DHCHAP_DHGROUP,
	RBLK_ATTR_DHCHAP_FLAGS,
	RBLK_ATTR_SUBSYS_NAME,
	RBLK_ATTR_PATH,
	__RBLK_ATTR_MAX,
};
/* Highest valid value of the enum above. */
#define RBLK_ATTR_MAX (__RBLK_ATTR_MAX - 1)

/**
 * enum rblk_ns_attr - attributes of one namespace, nested in %RBLK_ATTR_NS
 * @RBLK_NS_ATTR_UNSPEC: unused
 * @RBLK_NS_ATTR_INDEX: u32, index N of /dev/rblkN
 * @RBLK_NS_ATTR_DISK_NAME: string, "rblkN"
 * @RBLK_NS_ATTR_NSID: u32, namespace id on the target
 * @RBLK_NS_ATTR_SIZE: u64, size in bytes
 * @RBLK_NS_ATTR_BLOCK_SIZE: u32, logical block size in bytes
 * @RBLK_NS_ATTR_WWID: string, world wide identifier: "uuid.<UUID>",
 *	"eui.<NGUID>", "eui.<EUI-64>" (the first the namespace reports), or
 *	"nvme.<vid>-<serial>-<model>-<nsid>" in hex when it reports none
 * @RBLK_NS_ATTR_NGUID: binary, 16-byte namespace globally unique id (only
 *	if the namespace reports one)
 * @RBLK_NS_ATTR_EUI64: binary, 8-byte IEEE EUI-64 (only if reported)
 * @RBLK_NS_ATTR_UUID: binary, 16-byte namespace UUID (only if reported)
 * @RBLK_NS_ATTR_PAD: padding for 64-bit attributes
 * @RBLK_NS_ATTR_PATH_NAME: string, with multipath: the path's hidden disk
 *	"rblkNcM" (%RBLK_NS_ATTR_INDEX and %RBLK_NS_ATTR_DISK_NAME name the
 *	head, "rblkN", the device users open)
 * @RBLK_NS_ATTR_ANA_GRPID: u32, with multipath: the path's ANA group id
 *	(0 without ANA)
 * @RBLK_NS_ATTR_ANA_STATE: u8, with multipath: the path's ANA state, the
 *	NVMe value (1 optimized, 2 non-optimized, 3 inaccessible, 4
 *	persistent loss, 15 change; names in %RBLK_ANA_STATE_NAMES);
 *	optimized (group 0) for a controller without ANA; absent while an
 *	ANA log is to say
 * @__RBLK_NS_ATTR_MAX: number of attributes
 */
enum rblk_ns_attr {
	RBLK_NS_ATTR_UNSPEC,
	RBLK_NS_ATTR_INDEX,
	RBLK_NS_ATTR_DISK_NAME,
	RBLK_NS_ATTR_NSID,
	RBLK_NS_ATTR_SIZE,
	RBLK_NS_ATTR_BLOCK_SIZE,
	RBLK_NS_ATTR_WWID,
	RBLK_NS_ATTR_NGUID,
	RBLK_NS_ATTR_EUI64,
	RBLK_NS_ATTR_UUID,
	RBLK_NS_ATTR_PAD,
	RBLK_NS_ATTR_PATH_NAME,
	RBLK_NS_ATTR_ANA_GRPID,
	RBLK_NS_ATTR_ANA_STATE,
	__RBLK_NS_ATTR_MAX,
};
/* Highest valid value of the enum above. */
#define RBLK_NS_ATTR_MAX (__RBLK_NS_ATTR_MAX - 1)

/**
 * enum rblk_path_attr - attributes of one path, nested in %RBLK_ATTR_PATH
 * @RBLK_PATH_ATTR_UNSPEC: unused
 * @RBLK_PATH_ATTR_CTRL_INDEX: u32, M of the path's controller "rblk-ctrlM"
 * @RBLK_PATH_ATTR_CTRL_NAME: string, "rblk-ctrlM"
 * @RBLK_PATH_ATTR_STATE: u8, &enum rblk_state of the controller
 * @RBLK_PATH_ATTR_TRADDR: string, the controller's transport address
 * @RBLK_PATH_ATTR_TRSVCID: string, its transport service id (port)
 * @RBLK_PATH_ATTR_HOST_TRADDR: string, the local address it connects
 *	from, only if one was asked for
 * @RBLK_PATH_ATTR_DISK_NAME: string, of a head's path: its hidden disk
 *	"rblkNcM"
 * @RBLK_PATH_ATTR_ANA_GRPID: u32, of a head's path: its ANA group id (0
 *	without ANA)
 * @RBLK_PATH_ATTR_ANA_STATE: u8, of a head's path: its ANA state, as
 *	%RBLK_NS_ATTR_ANA_STATE (names in %RBLK_ANA_STATE_NAMES); absent
 *	while an ANA log is to say
 * @RBLK_PATH_ATTR_HOSTNQN: string, the host NQN the path's controller
 *	connected with: the paths of one subsystem (and of one head) may
 *	have different ones, as nvme's (a subsystem is keyed by its NQN
 *	alone)
 * @RBLK_PATH_ATTR_HOSTID: binary, %RBLK_HOSTID_LEN bytes: the host
 *	identifier the path's controller connected with
 * @__RBLK_PATH_ATTR_MAX: number of attributes
 */
enum rblk_path_attr {
	RBLK_PATH_ATTR_UNSPEC,
	RBLK_PATH_ATTR_CTRL_INDEX,
	RBLK_PATH_ATTR_CTRL_NAME,
	RBLK_PATH_ATTR_STATE,
	RBLK_PATH_ATTR_TRADDR,
	RBLK_PATH_ATTR_TRSVCID,
	RBLK_PATH_ATTR_HOST_TRADDR,
	RBLK_PATH_ATTR_DISK_NAME,
	RBLK_PATH_ATTR_ANA_GRPID,
	RBLK_PATH_ATTR_ANA_STATE,
	RBLK_PATH_ATTR_HOSTNQN,
	RBLK_PATH_ATTR_HOSTID,
	__RBLK_PATH_ATTR_MAX,
};
/* Highest valid value of the enum above. */
#define RBLK_PATH_ATTR_MAX (__RBLK_PATH_ATTR_MAX - 1)

/* Highest ANA state value (change, 0xf): size of %RBLK_ANA_STATE_NAMES. */
#define RBLK_ANA_STATE_MAX	15

/*
 * Names of the ANA states of %RBLK_NS_ATTR_ANA_STATE, as sysfs ana_state
 * and nvme-core spell them: an initializer for a
 * "const char * const names[RBLK_ANA_STATE_MAX + 1]"; NULL for values the
 * specification does not define.
 */
#define RBLK_ANA_STATE_NAMES {				\
	[1]			= "optimized",		\
	[2]			= "non-optimized",	\
	[3]			= "inaccessible",	\
	[4]			= "persistent-loss",	\
	[RBLK_ANA_STATE_MAX]	= "change",		\
}

/* Longest RBLK_NS_ATTR_WWID, with its NUL ("nvme." form, 20 + 40 bytes). */
#define RBLK_WWID_MAX_LEN	160

/**
 * enum rblk_adrfam - address families, numbered as the NVMe-oF ADRFAM field
 * @RBLK_ADRFAM_IPV4: AF_INET
 * @RBLK_ADRFAM_IPV6: AF_INET6
 */
enum rblk_adrfam {
	RBLK_ADRFAM_IPV4 = 1,
	RBLK_ADRFAM_IPV6 = 2,
};

/**
 * enum rblk_state - controller state
 * @RBLK_STATE_NEW: created, not yet connecting
 * @RBLK_STATE_CONNECTING: establishing queues (first connect or reconnect)
 * @RBLK_STATE_LIVE: connected, I/O flows
 * @RBLK_STATE_RESETTING: an error was seen, queues are being torn down
 * @RBLK_STATE_DELETING: disconnect in progress
 * @RBLK_STATE_DEAD: gave up reconnecting, I/O fails until disconnect
 * @__RBLK_STATE_MAX: number of states
 */
enum rblk_state {
	RBLK_STATE_NEW,
	RBLK_STATE_CONNECTING,
	RBLK_STATE_LIVE,
	RBLK_STATE_RESETTING,
	RBLK_STATE_DELETING,
	RBLK_STATE_DEAD,
	__RBLK_STATE_MAX,
};

/*
 * Names of &enum rblk_state as sysfs and nvmecfg spell them: an
 * initializer for a "const char * const names[__RBLK_STATE_MAX]".
 */
#define RBLK_STATE_NAMES {			\
	[RBLK_STATE_NEW]	= "new",	\
	[RBLK_STATE_CONNECTING]	= "connecting",	\
	[RBLK_STATE_LIVE]	= "live",	\
	[RBLK_STATE_RESETTING]	= "resetting",	\
	[RBLK_STATE_DELETING]	= "deleting",	\
	[RBLK_STATE_DEAD]	= "dead",	\
}

/**
 * enum rblk_iopolicy - how a multipath head picks the path of each I/O,
 *	among its usable paths, ANA optimized ones first
 * @RBLK_IOPOLICY_NUMA: the path nearest the submitting CPU's NUMA node
 *	(the first of equals); the default
 * @RBLK_IOPOLICY_ROUND_ROBIN: each path in turn
 * @RBLK_IOPOLICY_QUEUE_DEPTH: the path whose controller has the fewest
 *	requests of multipath heads in flight
 * @__RBLK_IOPOLICY_MAX: number of policies
 */
enum rblk_iopolicy {
	RBLK_IOPOLICY_NUMA,
	RBLK_IOPOLICY_ROUND_ROBIN,
	RBLK_IOPOLICY_QUEUE_DEPTH,
	__RBLK_IOPOLICY_MAX,
};

/*
 * Names of &enum rblk_iopolicy as sysfs (iopolicy), the module parameter
 * and nvmecfg spell them: nvme's.  An initializer like %RBLK_STATE_NAMES.
 */
#define RBLK_IOPOLICY_NAMES {					\
	[RBLK_IOPOLICY_NUMA]		= "numa",		\
	[RBLK_IOPOLICY_ROUND_ROBIN]	= "round-robin",	\
	[RBLK_IOPOLICY_QUEUE_DEPTH]	= "queue-depth",	\
}

/**
 * enum rblk_event - kinds of %RBLK_CMD_EVENT notifications
 * @RBLK_EVENT_ADDED: a controller was created
 * @RBLK_EVENT_REMOVED: a controller was deleted
 * @RBLK_EVENT_STATE: a controller changed state (see %RBLK_ATTR_STATE)
 * @RBLK_EVENT_RECONNECTING: a reconnect attempt starts
 * @RBLK_EVENT_NS_ADDED: a namespace block device was created
 * @RBLK_EVENT_NS_REMOVED: a namespace block device was removed
 * @RBLK_EVENT_NS_RESIZED: a namespace changed size or logical block size
 * @RBLK_EVENT_ANA_CHANGED: with multipath, a path's ANA state or group
 *	changed (its %RBLK_ATTR_NS nest carries the new ones); one per path:
 *	a group's change is a burst, which a slow listener may lose part of
 * @RBLK_EVENT_IOPOLICY_CHANGED: with multipath, a subsystem's I/O policy
 *	changed (netlink, sysfs); names the subsystem
 *	(%RBLK_ATTR_SUBSYS_NAME, %RBLK_ATTR_SUBSYSNQN) with the new
 *	%RBLK_ATTR_IOPOLICY, and no controller nor host NQN
 * @RBLK_EVENT_DISC_CHANGED: a persistent discovery controller (one
 *	connected with the discovery NQN) got a Discovery Log Page Change
 *	notice, or reconnected (a change meanwhile sent none): its target's
 *	discovery log changed, connect-all may find new subsystems
 * @__RBLK_EVENT_MAX: one above the highest event
 */
enum rblk_event {
	RBLK_EVENT_ADDED = 1,
	RBLK_EVENT_REMOVED,
	RBLK_EVENT_STATE,
	RBLK_EVENT_RECONNECTING,
	RBLK_EVENT_NS_ADDED,
	RBLK_EVENT_NS_REMOVED,
	RBLK_EVENT_NS_RESIZED,
	RBLK_EVENT_ANA_CHANGED,
	RBLK_EVENT_IOPOLICY_CHANGED,
	RBLK_EVENT_DISC_CHANGED,
	__RBLK_EVENT_MAX,
};

/* Names of &enum rblk_event, an initializer like %RBLK_STATE_NAMES. */
#define RBLK_EVENT_NAMES {					\
	[RBLK_EVENT_ADDED]		= "added",		\
	[RBLK_EVENT_REMOVED]		= "removed",		\
	[RBLK_EVENT_STATE]		= "state",		\
	[RBLK_EVENT_RECONNECTING]	= "reconnecting",	\
	[RBLK_EVENT_NS_ADDED]		= "ns-added",		\
	[RBLK_EVENT_NS_REMOVED]		= "ns-removed",		\
	[RBLK_EVENT_NS_RESIZED]		= "ns-resized",		\
	[RBLK_EVENT_ANA_CHANGED]	= "ana-changed",	\
	[RBLK_EVENT_IOPOLICY_CHANGED]	= "iopolicy-changed",	\
	[RBLK_EVENT_DISC_CHANGED]	= "disc-changed",	\
}

/**
 * enum rblk_stat_attr - attributes nested in %RBLK_ATTR_STATS
 * @RBLK_STAT_UNSPEC: unused
 * @RBLK_STAT_READS: u64, completed reads
 * @RBLK_STAT_WRITES: u64, completed writes
 * @RBLK_STAT_FLUSHES: u64, completed flushes
 * @RBLK_STAT_DISCARDS: u64, completed discards and write-zeroes
 * @RBLK_STAT_READ_BYTES: u64, bytes read
 * @RBLK_STAT_WRITE_BYTES: u64, bytes written
 * @RBLK_STAT_DISCARD_BYTES: u64, bytes discarded or zeroed
 * @RBLK_STAT_ERRORS: u64, requests completed with an error
 * @RBLK_STAT_TIMEOUTS: u64, request timeouts
 * @RBLK_STAT_RECONNECTS: u64, successful reconnects of the controller
 * @RBLK_STAT_RECONNECT_ATTEMPTS: u64, reconnect attempts of the controller
 * @RBLK_STAT_INLINE_WRITES: u64, writes sent as in-capsule data
 * @RBLK_STAT_LAT_HIST: binary, array of u64: completions by latency, bucket
 *	i counts latencies in [2^i, 2^(i+1)) microseconds (bucket 0 also
 *	takes < 1 us, the last bucket everything above)
 * @RBLK_STAT_STATUS_GENERIC: u64, errors with status code type 0 (generic)
 * @RBLK_STAT_STATUS_CMD: u64, errors with status code type 1 (command
 *	specific)
 * @RBLK_STAT_STATUS_MEDIA: u64, errors with status code type 2 (media and
 *	data integrity)
 * @RBLK_STAT_STATUS_PATH: u64, errors with status code type 3 (path) or
 *	failed by the host (no usable path, aborted, retries exhausted)
 * @RBLK_STAT_STATUS_VENDOR: u64, errors with status code type 7 (vendor)
 * @RBLK_STAT_PAD: padding
 * @RBLK_STAT_DOORBELLS: u64, send queue doorbells of the controller's
 *	I/O queues: ib_post_send() calls that posted commands
 * @RBLK_STAT_COMMANDS_POSTED: u64, commands those calls posted; divided by
 *	%RBLK_STAT_DOORBELLS, the commands per doorbell of blk-mq batches
 * @RBLK_STAT_POLL_COMPLETIONS: u64, work completions (sends and
 *	receives) the poll queues' pollers reaped
 * @__RBLK_STAT_MAX: number of attributes
 */
enum rblk_stat_attr {
	RBLK_STAT_UNSPEC,
	RBLK_STAT_READS,
	RBLK_STAT_WRITES,
	RBLK_STAT_FLUSHES,
	RBLK_STAT_DISCARDS,
	RBLK_STAT_READ_BYTES,
	RBLK_STAT_WRITE_BYTES,
	RBLK_STAT_DISCARD_BYTES,
	RBLK_STAT_ERRORS,
	RBLK_STAT_TIMEOUTS,
	RBLK_STAT_RECONNECTS,
	RBLK_STAT_RECONNECT_ATTEMPTS,
	RBLK_STAT_INLINE_WRITES,
	RBLK_STAT_LAT_HIST,
	RBLK_STAT_STATUS_GENERIC,
	RBLK_STAT_STATUS_CMD,
	RBLK_STAT_STATUS_MEDIA,
	RBLK_STAT_STATUS_PATH,
	RBLK_STAT_STATUS_VENDOR,
	RBLK_STAT_PAD,
	RBLK_STAT_DOORBELLS,
	RBLK_STAT_COMMANDS_POSTED,
	RBLK_STAT_POLL_COMPLETIONS,
	__RBLK_STAT_MAX,
};
/* Highest valid value of the enum above. */
#define RBLK_STAT_MAX (__RBLK_STAT_MAX - 1)

/*
 * Names of the u64 counters of &enum rblk_stat_attr, as sysfs files and
 * nvmecfg keys: an initializer for "const char * const names[__RBLK_STAT_MAX]"
 * (the attributes without a name are not counters).
 */
#define RBLK_STAT_NAMES {						\
	[RBLK_STAT_READS]		= "reads",			\
	[RBLK_STAT_WRITES]		= "writes",			\
	[RBLK_STAT_FLUSHES]		= "flushes",			\
	[RBLK_STAT_DISCARDS]		= "discards",			\
	[RBLK_STAT_READ_BYTES]		= "read_bytes",			\
	[RBLK_STAT_WRITE_BYTES]		= "write_bytes",		\
	[RBLK_STAT_DISCARD_BYTES]	= "discard_bytes",		\
	[RBLK_STAT_ERRORS]		= "errors",			\
	[RBLK_STAT_TIMEOUTS]		= "timeouts",			\
	[RBLK_STAT_RECONNECTS]		= "reconnects",			\
	[RBLK_STAT_RECONNECT_ATTEMPTS]	= "reconnect_attempts",		\
	[RBLK_STAT_INLINE_WRITES]	= "inline_writes",		\
	[RBLK_STAT_STATUS_GENERIC]	= "errors_generic",		\
	[RBLK_STAT_STATUS_CMD]		= "errors_cmd_specific",	\
	[RBLK_STAT_STATUS_MEDIA]	= "errors_media",		\
	[RBLK_STAT_STATUS_PATH]		= "errors_path",		\
	[RBLK_STAT_STATUS_VENDOR]	= "errors_vendor",		\
	[RBLK_STAT_DOORBELLS]		= "doorbells",			\
	[RBLK_STAT_COMMANDS_POSTED]	= "commands_posted",		\
	[RBLK_STAT_POLL_COMPLETIONS]	= "poll_completions",		\
}

/* Number of u64 buckets in %RBLK_STAT_LAT_HIST. */
#define RBLK_LAT_BUCKETS	24

/**
 * enum rblk_disc_attr - attributes of one discovery log entry
 * @RBLK_DISC_UNSPEC: unused
 * @RBLK_DISC_TRTYPE: u8, transport type (NVMe-oF TRTYPE, 1 = RDMA)
 * @RBLK_DISC_ADRFAM: u8, address family (NVMe-oF ADRFAM)
 * @RBLK_DISC_SUBTYPE: u8, 1 = referral to a discovery subsystem,
 *	2 = NVM subsystem, 3 = current discovery subsystem
 * @RBLK_DISC_TREQ: u8, transport requirements
 * @RBLK_DISC_PORTID: u16, port id
 * @RBLK_DISC_CNTLID: u16, controller id
 * @RBLK_DISC_ASQSZ: u16, admin max submission queue size
 * @RBLK_DISC_TRSVCID: string, transport service id
 * @RBLK_DISC_TRADDR: string, transport address
 * @RBLK_DISC_SUBNQN: string, subsystem NQN
 * @RBLK_DISC_EFLAGS: u16, entry flags
 * @RBLK_DISC_RDMA_QPTYPE: u8, RDMA QP service type (1 connected, 2 datagram)
 * @RBLK_DISC_RDMA_PRTYPE: u8, RDMA provider type (1 none, 2 InfiniBand,
 *	3 RoCE, 4 RoCE v2, 5 iWARP)
 * @RBLK_DISC_RDMA_CMS: u8, RDMA connection management service (1 RDMA CM)
 * @RBLK_DISC_RDMA_PKEY: u16, RDMA partition key
 * @__RBLK_DISC_MAX: number of attributes
 */
enum rblk_disc_attr {
	RBLK_DISC_UNSPEC,
	RBLK_DISC_TRTYPE,
	RBLK_DISC_ADRFAM,
	RBLK_DISC_SUBTYPE,
	RBLK_DISC_TREQ,
	RBLK_DISC_PORTID,
	RBLK_DISC_CNTLID,
	RBLK_DISC_ASQSZ,
	RBLK_DISC_TRSVCID,
	RBLK_DISC_TRADDR,
	RBLK_DISC_SUBNQN,
	RBLK_DISC_EFLAGS,
	RBLK_DISC_RDMA_QPTYPE,
	RBLK_DISC_RDMA_PRTYPE,
	RBLK_DISC_RDMA_CMS,
	RBLK_DISC_RDMA_PKEY,
	__RBLK_DISC_MAX,
};
/* Highest valid value of the enum above. */
#define RBLK_DISC_MAX (__RBLK_DISC_MAX - 1)

/*
 * Names of NVMe completion statuses, as the NVMe and NVMe over Fabrics
 * specifications name them, indexed by status: the Status Code Type (bits
 * 10:8) and Status Code (7:0), without More and Do Not Retry.  Generic,
 * media and path statuses, and of the command specific ones (type 1) the
 * Fabrics commands' (0x180 to 0x191: Connect, Authentication); an NVM I/O
 * command's 0x180-0x183 mean other things (the kernel names those
 * itself), and 0x191 (Authentication Required) is any command's.  An
 * initializer like RBLK_STATE_NAMES, sparse, and growing with the
 * specifications (do not take its size for the last status):
 * the kernel (its log of a failed I/O) and nvmecfg name a status alike.
 */
#define RBLK_NVME_STATUS_NAMES {				\
	[0x000] = "Successful Completion",			\
	[0x001] = "Invalid Command Opcode",			\
	[0x002] = "Invalid Field in Command",			\
	[0x004] = "Data Transfer Error",			\
	[0x006] = "Internal Error",				\
	[0x007] = "Command Abort Requested",			\
	[0x003] = "Command ID Conflict",			\
	[0x005] = "Commands Aborted due to Power Loss Notification", \
	[0x008] = "Command Aborted due to SQ Deletion",		\
	[0x009] = "Command Aborted due to Failed Fused Command", \
	[0x00a] = "Command Aborted due to Missing Fused Command", \
	[0x00b] = "Invalid Namespace or Format",		\
	[0x00c] = "Command Sequence Error",			\
	[0x00d] = "Invalid SGL Segment Descriptor",		\
	[0x00e] = "Invalid Number of SGL Descriptors",		\
	[0x00f] = "Data SGL Length Invalid",			\
	[0x010] = "Metadata SGL Length Invalid",		\
	[0x011] = "SGL Descriptor Type Invalid",		\
	[0x012] = "Invalid Use of Controller Memory Buffer",	\
	[0x013] = "PRP Offset Invalid",				\
	[0x014] = "Atomic Write Unit Exceeded",			\
	[0x015] = "Operation Denied",				\
	[0x016] = "SGL Offset Invalid",				\
	[0x018] = "Host Identifier Inconsistent Format",	\
	[0x019] = "Keep Alive Timer Expired",			\
	[0x01a] = "Keep Alive Timeout Invalid",			\
	[0x01b] = "Command Aborted due to Preempt and Abort",	\
	[0x01c] = "Sanitize Failed",				\
	[0x01d] = "Sanitize In Progress",			\
	[0x01e] = "SGL Data Block Granularity Invalid",		\
	[0x01f] = "Command Not Supported for Queue in CMB",	\
	[0x020] = "Namespace is Write Protected",		\
	[0x021] = "Command Interrupted",			\
	[0x022] = "Transient Transport Error",			\
	[0x080] = "LBA Out of Range",				\
	[0x081] = "Capacity Exceeded",				\
	[0x082] = "Namespace Not Ready",			\
	[0x083] = "Reservation Conflict",			\
	[0x084] = "Format In Progress",				\
	[0x101] = "Invalid Queue Identifier",			\
	[0x102] = "Invalid Queue Size",				\
	[0x109] = "Invalid Log Page",				\
	[0x180] = "Incompatible Format",			\
	[0x181] = "Controller Busy",				\
	[0x182] = "Connect Invalid Parameters",			\
	[0x183] = "Connect Restart Discovery",			\
	[0x184] = "Connect Invalid Host",			\
	[0x185] = "Invalid Queue Type",				\
	[0x190] = "Discover Restart",				\
	[0x191] = "Authentication Required",			\
	[0x280] = "Write Fault",				\
	[0x281] = "Unrecovered Read Error",			\
	[0x282] = "End-to-end Guard Check Error",		\
	[0x283] = "End-to-end Application Tag Check Error",	\
	[0x284] = "End-to-end Reference Tag Check Error",	\
	[0x285] = "Compare Failure",				\
	[0x286] = "Access Denied",				\
	[0x287] = "Deallocated or Unwritten Logical Block",	\
	[0x288] = "End-to-End Storage Tag Check Error",		\
	[0x300] = "Internal Path Error",			\
	[0x301] = "Asymmetric Access Persistent Loss",		\
	[0x302] = "Asymmetric Access Inaccessible",		\
	[0x303] = "Asymmetric Access Transition",		\
	[0x360] = "Controller Pathing Error",			\
	[0x370] = "Host Pathing Error",				\
	[0x371] = "Command Aborted By Host",			\
}

/*
 * DH-HMAC-CHAP (in-band authentication, NVMe Base Specification 2.0,
 * 8.13.5).  A key as nvme-cli writes it: "DHHC-1:NN:<base64>:", NN the
 * hash the secret is transformed with (00 none, 01 SHA-256, 02 SHA-384,
 * 03 SHA-512), the base64 of a 32, 48 or 64-byte secret followed by its
 * CRC-32 (little endian); 103 characters at most.
 */
#define RBLK_DHCHAP_SECRET_MAX_LEN	127
#define RBLK_DHCHAP_SECRET_PREFIX	"DHHC-1:"

/*
 * Names of the hash functions (HMAC) by their identifier in the
 * protocol, as the crypto API and nvme name them.  An initializer like
 * %RBLK_STATE_NAMES.
 */
#define RBLK_DHCHAP_HASH_MAX		3
#define RBLK_DHCHAP_HASH_NAMES {				\
	[1] = "hmac(sha256)",					\
	[2] = "hmac(sha384)",					\
	[3] = "hmac(sha512)",					\
}

/* Names of the Diffie-Hellman groups by their identifier (0: none). */
#define RBLK_DHCHAP_DHGROUP_MAX		5
#define RBLK_DHCHAP_DHGROUP_NAMES {				\
	[0] = "null",						\
	[1] = "ffdhe2048",					\
	[2] = "ffdhe3072",					\
	[3] = "ffdhe4096",					\
	[4] = "ffdhe6144",					\
	[5] = "ffdhe8192",					\
}

/**
 * enum rblk_dhchap_flags - DH-HMAC-CHAP state of a controller
 * @RBLK_DHCHAP_F_HOST_KEY: it holds a host key
 * @RBLK_DHCHAP_F_CTRL_KEY: it holds a controller key
 * @RBLK_DHCHAP_F_BIDIRECTIONAL: its last connect authenticated the
 *	controller too
 */
enum rblk_dhchap_flags {
	RBLK_DHCHAP_F_HOST_KEY		= 1 << 0,
	RBLK_DHCHAP_F_CTRL_KEY		= 1 << 1,
	RBLK_DHCHAP_F_BIDIRECTIONAL	= 1 << 2,
};

/*
 * Names of the reasons a DH-HMAC-CHAP exchange fails (the explanation of
 * FAILURE1 and FAILURE2, "rescode_exp"), as the specification names them.
 */
#define RBLK_AUTH_FAILURE_MAX		7
#define RBLK_AUTH_FAILURE_NAMES {				\
	[1] = "Failed",						\
	[2] = "Authentication Protocol Not Usable",		\
	[3] = "Secure Channel Concatenation Mismatch",		\
	[4] = "Hash Function Not Usable",			\
	[5] = "DH Group Not Usable",				\
	[6] = "Incorrect Payload",				\
	[7] = "Incorrect Protocol Message",			\
}

#endif /* _UAPI_LINUX_RBLK_H */
