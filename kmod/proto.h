/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rblk NVMe over Fabrics wire format: building command capsules and SGL
 * descriptors, decoding statuses, properties, Identify data and the ANA
 * log page.  Pure functions of their arguments (no controller, no I/O),
 * so that KUnit (kmod/proto_test.c) can check them in isolation.
 */
#ifndef _RBLK_PROTO_H
#define _RBLK_PROTO_H

#include <linux/blk_types.h>
#include <linux/nvme.h>
#include <linux/socket.h>
#include <linux/uuid.h>
#include "compat.h"

#include <linux/rblk.h>

/* The UUID-based NQN format of the NVMe Base Specification. */
#define RBLK_UUID_NQN_PREFIX	"nqn.2014-08.org.nvmexpress:uuid:"

/* Status code type and status code: a status without DNR and More. */
#define RBLK_SC_MASK		0x7ff
/*
 * Status Code Type, bits 10:8 of a status (6.1's <linux/nvme.h> has no
 * NVME_SCT_*).
 */
#define RBLK_STATUS_SCT(status)	(((status) >> 8) & 0x7)
enum {
	RBLK_SCT_GENERIC	= 0,
	RBLK_SCT_CMD_SPECIFIC	= 1,
	RBLK_SCT_MEDIA		= 2,
	RBLK_SCT_PATH		= 3,
	RBLK_SCT_VENDOR		= 7,
};

/* Keyed SGL data blocks, the only way rblk describes remote memory. */
#define RBLK_SGLS_KEYED		(1U << 2)
/*
 * SGL Address Offset Supported: the address of a data block descriptor
 * may be an offset, which is how in-capsule data is described.
 */
#define RBLK_SGLS_OFFSET	(1U << 20)

/* Opcodes from 80h on are vendor specific (I/O), or may change formats. */
#define RBLK_CMD_VENDOR_START	0x80
/* Effects log: the scope of a command's effects, bits 31:20 (NVMe 2.0). */
#define RBLK_CMD_EFFECTS_SCOPE_MASK	GENMASK(31, 20)

/* Command Retry Delay: status bits 12:11, index + 1 into CRDT1..3. */
#define RBLK_STATUS_CRD(status)	(((status) & NVME_STATUS_CRD) >> 11)

/* Asynchronous event completion dword 0: type and information. */
#define RBLK_AEN_TYPE(result)	((result) & 0x7)
#define RBLK_AEN_INFO(result)	(((result) >> 8) & 0xff)
#define RBLK_AEN_LOG(result)	(((result) >> 16) & 0xff)

/*
 * An Asymmetric Namespace Access Change Notice: a Notice of information
 * 03h, which names log 0Ch; reading that log re-arms the event.
 */
static inline bool rblk_aen_is_ana_change(u32 result)
{
	return RBLK_AEN_TYPE(result) == NVME_AER_NOTICE &&
	       RBLK_AEN_INFO(result) == NVME_AER_NOTICE_ANA;
}

/**
 * struct rblk_ns_ids - what identifies a namespace across reconnects
 * @eui64: IEEE EUI-64, zero if not reported
 * @nguid: namespace globally unique identifier, zero if not reported
 * @uuid: namespace UUID, null if not reported
 */
struct rblk_ns_ids {
	u8 eui64[RBLK_EUI64_LEN];
	u8 nguid[RBLK_NGUID_LEN];
	uuid_t uuid;
};

/**
 * struct rblk_ns_info - a namespace as Identify describes it
 * @nsze: size in logical blocks
 * @lba_shift: log2 of the logical block size
 * @pb_size: physical (preferred write) block size in bytes
 * @shared: NMIC bit 0: the namespace may be attached to more than one
 *	controller, so that two controllers' namespaces of this NSID may be
 *	paths to one namespace
 * @anagrpid: ANA group identifier (ANAGRPID), 0 if not reported
 * @ids: identifiers
 */
struct rblk_ns_info {
	u64 nsze;
	u8 lba_shift;
	u32 pb_size;
	bool shared;
	u32 anagrpid;
	struct rblk_ns_ids ids;
};

/**
 * struct rblk_ctrl_mpath - what Identify Controller says about multipath
 *	and Asymmetric Namespace Access
 * @cmic: multi-path I/O and namespace sharing capabilities (CMIC):
 *	%NVME_CTRL_CMIC_MULTI_PORT, %NVME_CTRL_CMIC_MULTI_CTRL,
 *	%NVME_CTRL_CMIC_ANA (ANA reporting)
 * @anatt: ANA transition time in seconds (ANATT)
 * @anacap: ANA capabilities (ANACAP): bits 0-4 the states reported
 *	(optimized, non-optimized, inaccessible, persistent loss, change),
 *	bit 6 an ANAGRPID that does not change while attached
 * @anagrpmax: the largest ANA group id (ANAGRPMAX)
 * @nanagrpid: how many ANA group ids the controller supports (NANAGRPID):
 *	the most group descriptors an ANA log has
 * @nn: number of namespaces (NN): the largest NSID
 * @mnan: maximum number of allowed namespaces (MNAN): the most NSIDs an
 *	ANA log lists
 */
struct rblk_ctrl_mpath {
	u8 cmic;
	u8 anatt;
	u8 anacap;
	u32 anagrpmax;
	u32 nanagrpid;
	u32 nn;
	u32 mnan;
};

/**
 * struct rblk_ana_group - one group descriptor of an ANA log page
 * @grpid: ANA group id, 1..ANAGRPMAX
 * @nr_nsids: NSIDs listed (0 when read with RGO, Return Groups Only)
 * @chgcnt: the group's change count
 * @state: its ANA state (&enum nvme_ana_state)
 * @nsids: the NSIDs, in the log buffer; read with rblk_ana_group_nsid()
 */
struct rblk_ana_group {
	u32 grpid;
	u32 nr_nsids;
	u64 chgcnt;
	u8 state;
	const __le32 *nsids;
};

/* The @i'th NSID of a group, @i below @g->nr_nsids. */
static inline u32 rblk_ana_group_nsid(const struct rblk_ana_group *g, u32 i)
{
	return le32_to_cpu(g->nsids[i]);
}

/*
 * The builders of Read and Write and of their data pointers are inline:
 * they run once per request and are a handful of stores each.
 */

/* NLB is a 16-bit, 0's based field: 1 to 65536 blocks. */
static inline bool rblk_nlb_fits(u32 nlb)
{
	return nlb && nlb <= 0x10000;
}

/**
 * rblk_cmd_rw() - build a Read or Write command
 * @cmd: command to fill: every field but the command id and the data
 *	pointer is written, so that it can be built in a reused submission
 *	entry without clearing it first
 * @opcode: nvme_cmd_read or nvme_cmd_write
 * @nsid: namespace
 * @slba: first logical block
 * @nlb: number of logical blocks, 1 to 65536
 * @fua: force unit access
 *
 * Return: 0, or -EINVAL if @nlb does not fit the 16-bit, 0's based field
 * (@cmd is then untouched).
 */
static inline int rblk_cmd_rw(struct nvme_command *cmd, u8 opcode,
			      u32 nsid, u64 slba, u32 nlb, bool fua)
{
	struct nvme_rw_command *rw = &cmd->rw;

	if (unlikely(!rblk_nlb_fits(nlb)))
		return -EINVAL;
	rw->opcode = opcode;
	rw->flags = 0;
	rw->nsid = cpu_to_le32(nsid);
	rw->cdw2 = 0;
	rw->cdw3 = 0;
	rw->metadata = 0;
	rw->slba = cpu_to_le64(slba);
	rw->length = cpu_to_le16(nlb - 1);
	rw->control = cpu_to_le16(fua ? NVME_RW_FUA : 0);
	rw->dsmgmt = 0;
	rw->reftag = 0;
	rblk_rw_clear_lbat(cmd);
	return 0;
}

/**
 * rblk_sgl_null() - describe "no data" with a zero-length keyed descriptor
 * @cmd: command
 */
static inline void rblk_sgl_null(struct nvme_command *cmd)
{
	struct nvme_keyed_sgl_desc *sg = &cmd->common.dptr.ksgl;

	sg->addr = 0;
	put_unaligned_le24(0, sg->length);
	put_unaligned_le32(0, sg->key);
	sg->type = NVME_KEY_SGL_FMT_DATA_DESC << 4;
}

/**
 * rblk_sgl_keyed() - describe registered host memory for the target
 * @cmd: command
 * @addr: remote (I/O virtual) address of the registration
 * @len: length in bytes, below 16 MiB (24-bit field)
 * @rkey: remote key
 * @invalidate: ask the target to invalidate @rkey with its response
 *
 * Return: 0, or -EINVAL if @len does not fit the descriptor.
 */
static inline int rblk_sgl_keyed(struct nvme_command *cmd, u64 addr,
				 u32 len, u32 rkey, bool invalidate)
{
	struct nvme_keyed_sgl_desc *sg = &cmd->common.dptr.ksgl;

	if (unlikely(len >= 1U << 24))
		return -EINVAL;
	sg->addr = cpu_to_le64(addr);
	put_unaligned_le24(len, sg->length);
	put_unaligned_le32(rkey, sg->key);
	sg->type = NVME_KEY_SGL_FMT_DATA_DESC << 4;
	if (invalidate)
		sg->type |= NVME_SGL_FMT_INVALIDATE;
	return 0;
}

/**
 * rblk_sgl_inline() - describe data carried in the command capsule
 * @cmd: command
 * @offset: offset of the data in the capsule after the SQE (ICDOFF * 16)
 * @len: data length
 */
static inline void rblk_sgl_inline(struct nvme_command *cmd, u32 offset,
				   u32 len)
{
	struct nvme_sgl_desc *sg = &cmd->common.dptr.sgl;

	sg->addr = cpu_to_le64(offset);
	sg->length = cpu_to_le32(len);
	memset(sg->rsvd, 0, sizeof(sg->rsvd));
	sg->type = (NVME_SGL_FMT_DATA_DESC << 4) | NVME_SGL_FMT_OFFSET;
}

/*
 * DH-HMAC-CHAP: the buffer of one message exchange; enough for the largest
 * (a Reply or Challenge with SHA-512 and ffdhe8192: 16 + 2 * 64 + 1024).
 */
#define RBLK_AUTH_BUF_SIZE	4096

/**
 * struct rblk_auth_challenge - a DH_HMAC_CHAP_Challenge, checked
 * @hashid: hash identifier the controller chose (NVME_AUTH_HASH_*)
 * @dhgid: DH group identifier it chose (NVME_AUTH_DHGROUP_*)
 * @hl: hash length, the length of @c1
 * @dhvlen: length of @dhv, 0 with the null group
 * @s1: sequence number S1
 * @c1: challenge C1, in the message buffer
 * @dhv: the controller's DH value, in the message buffer; NULL with the
 *	null group
 */
struct rblk_auth_challenge {
	u8 hashid;
	u8 dhgid;
	u8 hl;
	u16 dhvlen;
	u32 s1;
	const u8 *c1;
	const u8 *dhv;
};

void rblk_cmd_connect(struct nvme_command *cmd, u16 qid, u16 sqsize,
		      u32 kato_ms);
void rblk_connect_data(struct nvmf_connect_data *data, const uuid_t *hostid,
		       u16 cntlid, const char *subsysnqn, const char *hostnqn);
const char *rblk_connect_error(u16 status, int *err);
const char *rblk_io_opcode_name(u8 opcode);
const char *rblk_status_name(u16 status, bool io);
void rblk_cmd_prop_get(struct nvme_command *cmd, u32 off, bool is64);
void rblk_cmd_prop_set(struct nvme_command *cmd, u32 off, u64 val);
void rblk_cmd_identify(struct nvme_command *cmd, u8 cns, u32 nsid);
void rblk_cmd_set_features(struct nvme_command *cmd, u8 fid, u32 dword11);
void rblk_cmd_set_queue_count(struct nvme_command *cmd, u32 count);
void rblk_cmd_async_event(struct nvme_command *cmd);
u32 rblk_queue_count_granted(u32 result);
int rblk_cmd_get_log(struct nvme_command *cmd, u8 lid, u64 offset,
		     size_t len);
int rblk_cmd_write_zeroes(struct nvme_command *cmd, u32 nsid, u64 slba,
			  u32 nlb);
void rblk_cmd_dsm(struct nvme_command *cmd, struct nvme_dsm_range *range,
		  u32 nsid, u64 slba, u32 nlb);

u32 rblk_cc_enable(unsigned int page_shift);
unsigned int rblk_cap_ready_timeout_ms(u64 cap);
u32 rblk_mdts_sectors(u64 cap, u8 mdts);
u32 rblk_disc_chunk(u32 max_sectors, u32 max_records);
u32 rblk_io_capsule_units(u32 ioccsz, u16 icdoff, u32 sgls);
u32 rblk_queue_size_limit(u64 cap, u16 maxcmd);
int rblk_ns_lba_shift(const struct nvme_id_ns *id, unsigned int page_shift);
int rblk_ns_info_from_id(const struct nvme_id_ns *id, unsigned int page_shift,
			 struct rblk_ns_info *info);
int rblk_ns_ids_from_descs(const void *buf, size_t len,
			   struct rblk_ns_ids *ids);
/* Whether the namespace reported each identifier (zero means not). */
static inline bool rblk_ns_has_uuid(const struct rblk_ns_ids *ids)
{
	return !uuid_is_null(&ids->uuid);
}

static inline bool rblk_ns_has_nguid(const struct rblk_ns_ids *ids)
{
	return memchr_inv(ids->nguid, 0, sizeof(ids->nguid));
}

static inline bool rblk_ns_has_eui64(const struct rblk_ns_ids *ids)
{
	return memchr_inv(ids->eui64, 0, sizeof(ids->eui64));
}

bool rblk_ns_ids_empty(const struct rblk_ns_ids *ids);
bool rblk_ns_ids_equal(const struct rblk_ns_ids *a,
		       const struct rblk_ns_ids *b);
bool rblk_ns_ids_overlap(const struct rblk_ns_ids *a,
			 const struct rblk_ns_ids *b);
void rblk_id_string(char *dst, const char *src, size_t len);
bool rblk_id_subnqn(char *dst, const struct nvme_id_ctrl *id);
void rblk_ctrl_mpath_from_id(const struct nvme_id_ctrl *id,
			     struct rblk_ctrl_mpath *mp);
u32 rblk_aen_config(u32 oaes, u8 cmic);
u32 rblk_known_effects(bool io, u8 opcode);

int rblk_ana_log_size(const struct rblk_ctrl_mpath *mp, u32 max_sectors,
		      size_t *size);
int rblk_ana_log_parse(const void *buf, size_t len, u32 anagrpmax,
		       u32 nanagrpid,
		       int (*fn)(const struct rblk_ana_group *g, void *data),
		       void *data);
bool rblk_ana_state_valid(u8 state);
bool rblk_ana_state_usable(u8 state);
bool rblk_ana_state_available(u8 state);
const char *rblk_ana_state_name(u8 state);

int rblk_status_to_errno(int status);
blk_status_t rblk_status_to_blk(u16 status);
bool rblk_status_is_path(u16 status);
bool rblk_status_is_ana(u16 status);
bool rblk_status_is_host_path(u16 status);

bool rblk_nqn_valid(const char *nqn);
bool rblk_hostnqn_uuid(const char *hostnqn, uuid_t *uuid);
int rblk_parse_traddr(const char *traddr, u16 port, u8 adrfam,
		      struct sockaddr_storage *ss);
int rblk_parse_port(const char *trsvcid, u16 *port);

bool rblk_dhchap_secret_valid(const char *s);
unsigned int rblk_auth_hash_len(u8 hashid);
int rblk_auth_dhgroup_len(u8 dhgid);
const char *rblk_auth_hash_name(u8 hashid);
const char *rblk_auth_dhgroup_name(u8 dhgid);
const char *rblk_auth_failure_name(u8 reason);
void rblk_cmd_auth_send(struct nvme_command *cmd, u32 tl);
void rblk_cmd_auth_receive(struct nvme_command *cmd, u32 al);
int rblk_auth_negotiate(void *buf, size_t size, u16 tid);
int rblk_auth_parse_challenge(const void *buf, size_t len, u16 tid,
			      struct rblk_auth_challenge *ch, u8 *reason);
int rblk_auth_reply(void *buf, size_t size, u16 tid, u8 hl, const u8 *r1,
		    const u8 *c2, u32 s2, const u8 *dhv, u16 dhvlen);
int rblk_auth_parse_success1(const void *buf, size_t len, u16 tid, u8 hl,
			     bool bidir, const u8 **r2, u8 *reason);
int rblk_auth_success2(void *buf, size_t size, u16 tid);
int rblk_auth_failure2(void *buf, size_t size, u16 tid, u8 reason);

#endif /* _RBLK_PROTO_H */
