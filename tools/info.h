/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What nvmecfg learns from the kernel, decoded from netlink into plain C
 * structures: nl.c fills them, output.c prints them.
 */
#ifndef NVMECFG_INFO_H
#define NVMECFG_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/rblk.h>

/* One namespace of a controller: the block device rblkN (RBLK_ATTR_NS). */
struct ns_info {
	uint32_t index;
	char name[RBLK_DISK_NAME_LEN];
	uint32_t nsid;
	uint64_t size;		/* bytes */
	uint32_t block_size;
	char wwid[RBLK_WWID_MAX_LEN];
	/* The identifiers the namespace reports, if it does. */
	bool has_nguid;
	bool has_eui64;
	bool has_uuid;
	unsigned char nguid[RBLK_NGUID_LEN];
	unsigned char eui64[RBLK_EUI64_LEN];
	unsigned char uuid[RBLK_UUID_LEN];
	/* With multipath: the path's hidden disk, ANA group and state. */
	char path[RBLK_DISK_NAME_LEN];
	uint32_t ana_grpid;
	bool has_ana_state;
	uint8_t ana_state;
};

/*
 * A path (RBLK_ATTR_PATH): a controller of a subsystem or, of a head,
 * the namespace through that controller with its ANA group and state.
 */
struct path_info {
	uint32_t ctrl_index;
	char name[RBLK_DISK_NAME_LEN];		/* the controller rblk-ctrlM */
	uint8_t state;				/* enum rblk_state */
	char traddr[RBLK_TRADDR_MAX_LEN + 1];
	char trsvcid[RBLK_TRSVCID_MAX_LEN + 1];
	char host_traddr[RBLK_TRADDR_MAX_LEN + 1];	/* "" if not set */
	/* The host identity its controller connected with. */
	char hostnqn[RBLK_NQN_MAX_LEN + 1];
	bool has_hostid;
	unsigned char hostid[RBLK_HOSTID_LEN];
	/* A head's path only: its hidden disk rblkNcM, ANA group, state. */
	char disk[RBLK_DISK_NAME_LEN];
	uint32_t ana_grpid;
	bool has_ana_state;
	uint8_t ana_state;
};

/* A namespace head rblkN (RBLK_CMD_GET_HEAD), with its paths. */
struct head_info {
	uint32_t index;
	char name[RBLK_DISK_NAME_LEN];
	uint32_t nsid;
	char subsys[RBLK_DISK_NAME_LEN];	/* rblk-subsysK */
	uint8_t state;				/* its best path's */
	struct path_info *paths;
	size_t nr_paths;
	size_t paths_cap;
};

/*
 * A subsystem rblk-subsysK (RBLK_CMD_GET_SUBSYS) as one host NQN reaches
 * it, with the controllers (paths) of that host NQN: the kernel's
 * subsystem is one whatever host NQN its controllers connected with, and
 * one connected with two is listed once for each, as nvme-cli lists it
 * under each host (subsys_sort() splits it).
 */
struct subsys_info {
	char name[RBLK_DISK_NAME_LEN];
	char nqn[RBLK_NQN_MAX_LEN + 1];
	char hostnqn[RBLK_NQN_MAX_LEN + 1];	/* "" if it has no path */
	bool has_hostid;			/* of its first path */
	unsigned char hostid[RBLK_HOSTID_LEN];
	char model[64];
	char serial[32];
	char firmware[16];
	bool has_iopolicy;			/* with multipath only */
	uint8_t iopolicy;			/* enum rblk_iopolicy */
	struct path_info *paths;
	size_t nr_paths;
	size_t paths_cap;
};

/*
 * What list-subsys and show-topology show: the subsystems and, with
 * multipath, the heads (none without); each sorted by name.
 */
struct subsys_list {
	struct subsys_info *subsys;
	size_t nr;
	size_t cap;
	struct head_info *heads;
	size_t nr_heads;
	size_t heads_cap;
};

/*
 * A controller rblk-ctrlM as RBLK_CMD_GET describes it, with its
 * namespaces; the RBLK_CMD_CONNECT reply fills only index, name and ns.
 */
struct ctrl_info {
	uint32_t index;
	char name[RBLK_DISK_NAME_LEN];
	char trtype[16];
	uint8_t adrfam;
	char traddr[RBLK_TRADDR_MAX_LEN + 1];
	char trsvcid[RBLK_TRSVCID_MAX_LEN + 1];
	char subsysnqn[RBLK_NQN_MAX_LEN + 1];
	char hostnqn[RBLK_NQN_MAX_LEN + 1];
	unsigned char hostid[RBLK_HOSTID_LEN];
	uint32_t nsid;		/* connect -N filter; 0: all namespaces */
	uint32_t nr_io_queues;
	uint32_t queue_size;
	uint32_t kato;
	uint32_t reconnect_delay;
	int32_t ctrl_loss_tmo;
	int32_t fast_io_fail_tmo;
	uint8_t state;
	uint16_t cntlid;
	char model[64];
	char serial[32];
	char firmware[16];
	char host_traddr[RBLK_TRADDR_MAX_LEN + 1];	/* "" if not set */
	bool has_tos;
	uint8_t tos;
	bool scanned;		/* the first namespace scan is over */
	/* Its subsystem's I/O policy: only with multipath, once bound. */
	bool has_iopolicy;
	uint8_t iopolicy;	/* enum rblk_iopolicy */
	/*
	 * DH-HMAC-CHAP: which keys it holds (enum rblk_dhchap_flags), if
	 * any; what its admin queue's last exchange used, if there was one.
	 */
	bool has_dhchap_flags;
	uint8_t dhchap_flags;
	bool has_dhchap_hash;
	uint8_t dhchap_hash;
	uint8_t dhchap_dhgroup;
	struct ns_info *ns;	/* nr_ns of them; nl.c allocates them */
	size_t nr_ns;
	size_t ns_cap;		/* allocated entries of ns */
};

/* RBLK_CMD_GET_STATS: counters indexed by enum rblk_stat_attr. */
struct stats_info {
	bool is_head;		/* a multipath head's sum over its paths */
	uint32_t nr_paths;	/* the paths it adds up */
	uint32_t ctrl_index;
	char ctrl_name[RBLK_DISK_NAME_LEN];
	bool is_ns;		/* of namespace index/name, else the sum */
	uint32_t index;
	char name[RBLK_DISK_NAME_LEN];
	uint64_t counter[RBLK_STAT_MAX + 1];
	uint64_t lat_hist[RBLK_LAT_BUCKETS];
};

/* One discovery log record; strings already trimmed by the kernel. */
struct disc_entry {
	uint8_t trtype;
	uint8_t adrfam;
	uint8_t subtype;
	uint8_t treq;
	uint16_t portid;
	uint16_t cntlid;
	uint16_t asqsz;
	uint16_t eflags;
	uint8_t rdma_qptype;
	uint8_t rdma_prtype;
	uint8_t rdma_cms;
	uint16_t rdma_pkey;
	char trsvcid[RBLK_TRSVCID_MAX_LEN + 1];
	char traddr[RBLK_TRADDR_MAX_LEN + 1];
	char subnqn[RBLK_NQN_SIZE + 1];
};

/* A discovery log as nvmecfg got it: @nr records of the target's @numrec. */
struct disc_log {
	uint64_t genctr;
	uint64_t numrec;
	struct disc_entry *e;
	size_t nr;
	size_t cap;
};

/* Where the host NQN or host id a connect uses comes from. */
enum id_source {
	ID_KERNEL,	/* not sent: the rblk module's */
	ID_OPTION,	/* --hostnqn, --hostid */
	ID_FILE,	/* /etc/nvme/hostnqn, /etc/nvme/hostid */
	ID_ENV,		/* LIBNVME_HOSTNQN, LIBNVME_HOSTID, as libnvme's */
	ID_HOSTNQN,	/* the UUID of a ...nvmexpress:uuid:<UUID> host NQN */
	ID_DMI,		/* derived from the DMI (SMBIOS) system UUID */
	ID_DEVICE_TREE,	/* derived from the device tree's partition UUID */
};

/*
 * The machine's own UUID, where libnvme's nvmf_hostnqn_generate() finds
 * it (nvmecfg gen-hostnqn, and the identity without /etc/nvme/hostnqn).
 */
struct machine_id {
	unsigned char id[RBLK_HOSTID_LEN];
	enum id_source src;		/* ID_DMI, ID_DEVICE_TREE; else none */
	char path[1024];		/* the file it was read from */
	char denied[1024];		/* a source only root may read, if any */
};

/* The host identity of connect and discover (nvmecfg show, no device). */
struct host_info {
	char hostnqn[RBLK_NQN_MAX_LEN + 1];	/* unless ID_KERNEL */
	enum id_source nqn_src;
	char nqn_file[256];			/* the file it would come from */
	unsigned char hostid[RBLK_HOSTID_LEN];	/* unless ID_KERNEL */
	enum id_source id_src;
	char id_file[256];
	/* Looked at when a file does not say: see ID_DMI, ID_DEVICE_TREE. */
	bool machine_tried;
	struct machine_id machine;
	/* The module's defaults, from sysfs; empty when unreadable. */
	bool module_loaded;
	char module_hostnqn[RBLK_NQN_MAX_LEN + 1];
	char module_hostid[40];
	/*
	 * The default DH-HMAC-CHAP host key, read by host_read_key() only
	 * (connect, connect-all, discover), never printed; key_used: the
	 * last host_apply_key() sent it, to blame the file for it.
	 */
	char key_file[256];
	bool key_read;
	bool has_key;
	bool key_used;
	char key[RBLK_DHCHAP_SECRET_MAX_LEN + 1];
};

/*
 * An RBLK_CMD_EVENT notification; ns only for the namespace events; a
 * subsystem's event (has_subsys) names no controller.
 */
struct ctrl_event {
	uint8_t event;
	uint32_t ctrl_index;
	char ctrl_name[RBLK_DISK_NAME_LEN];
	uint8_t state;
	bool has_ns;
	struct ns_info ns;
	bool has_subsys;
	char subsys[RBLK_DISK_NAME_LEN];
	char subsysnqn[RBLK_NQN_MAX_LEN + 1];
	bool has_iopolicy;
	uint8_t iopolicy;
};

#endif /* NVMECFG_INFO_H */
