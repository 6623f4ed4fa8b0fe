// SPDX-License-Identifier: GPL-2.0
/*
 * rblk NVMe over Fabrics wire format.  Everything here is a pure function
 * of its arguments: the callers in fabrics.c, blk.c, rdma.c and netlink.c
 * own the controller state and the I/O, and kmod/proto_test.c checks the
 * encodings byte by byte against the NVMe and NVMe-oF specifications.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/ctype.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include "compat.h"
#include <net/ipv6.h>
#include <net/net_namespace.h>

#include <linux/rblk.h>

#include "proto.h"

/**
 * rblk_cmd_connect() - build a Fabrics Connect command
 * @cmd: command to fill; zeroed by the caller
 * @qid: queue id, 0 for the admin queue
 * @sqsize: submission queue size (0's based)
 * @kato_ms: keep-alive timeout in ms; only sent on the admin queue
 */
void rblk_cmd_connect(struct nvme_command *cmd, u16 qid, u16 sqsize,
		      u32 kato_ms)
{
	cmd->connect.opcode = nvme_fabrics_command;
	cmd->connect.fctype = nvme_fabrics_type_connect;
	cmd->connect.recfmt = 0;
	cmd->connect.qid = cpu_to_le16(qid);
	cmd->connect.sqsize = cpu_to_le16(sqsize);
	/* Keep-alive is negotiated once, on the admin queue. */
	cmd->connect.kato = cpu_to_le32(qid ? 0 : kato_ms);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_connect);

/**
 * rblk_connect_data() - fill the data of a Fabrics Connect command
 * @data: the 1 KiB Connect data; zeroed by the caller
 * @hostid: host identifier
 * @cntlid: controller id from the admin Connect, 0xffff for the admin queue
 *	(dynamic controller model: "any controller")
 * @subsysnqn: subsystem NQN
 * @hostnqn: host NQN
 */
void rblk_connect_data(struct nvmf_connect_data *data, const uuid_t *hostid,
		       u16 cntlid, const char *subsysnqn, const char *hostnqn)
{
	uuid_copy(&data->hostid, hostid);
	data->cntlid = cpu_to_le16(cntlid);
	/* Up to NVMF_NQN_SIZE characters; the 256-byte fields end in NULs. */
	strscpy(data->subsysnqn, subsysnqn, NVMF_NQN_SIZE + 1);
	strscpy(data->hostnqn, hostnqn, NVMF_NQN_SIZE + 1);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_connect_data);

/**
 * rblk_connect_error() - explain a Fabrics Connect failure
 * @status: NVMe status of the Connect completion
 * @err: set to the errno to report
 *
 * Return: a static, human-readable reason.
 */
const char *rblk_connect_error(u16 status, int *err)
{
	switch (status & RBLK_SC_MASK) {
	case NVME_SC_CONNECT_INVALID_PARAM:
		*err = -ENOENT;
		return "target does not know the subsystem NQN or host NQN";
	case NVME_SC_CONNECT_INVALID_HOST:
		*err = -EACCES;
		return "target does not allow this host NQN";
	case NVME_SC_CONNECT_CTRL_BUSY:
		*err = -EBUSY;
		return "target controller busy";
	case NVME_SC_CONNECT_RESTART_DISC:
		*err = -ECONNREFUSED;
		return "target asked to restart discovery";
	default:
		*err = -ECONNREFUSED;
		return "target refused Fabrics Connect";
	}
}
EXPORT_SYMBOL_IF_KUNIT(rblk_connect_error);

/* @names[@i] of a sparse name table, or @none past its end or in a hole. */
#define rblk_table_name(names, i, none)					\
	((i) < ARRAY_SIZE(names) && (names)[i] ? (names)[i] : (none))

/**
 * rblk_io_opcode_name() - the NVM command set's name of an I/O opcode
 * @opcode: opcode of an I/O command
 *
 * Return: a static name; "Unknown" for one rblk does not name.
 */
const char *rblk_io_opcode_name(u8 opcode)
{
	static const char * const names[] = {
		[nvme_cmd_flush]	= "Flush",
		[nvme_cmd_write]	= "Write",
		[nvme_cmd_read]		= "Read",
		[nvme_cmd_write_uncor]	= "Write Uncorrectable",
		[nvme_cmd_compare]	= "Compare",
		[nvme_cmd_write_zeroes]	= "Write Zeroes",
		[nvme_cmd_dsm]		= "Dataset Management",
		[nvme_cmd_verify]	= "Verify",
		[nvme_cmd_resv_register] = "Reservation Register",
		[nvme_cmd_resv_report]	= "Reservation Report",
		[nvme_cmd_resv_acquire]	= "Reservation Acquire",
		[nvme_cmd_resv_release]	= "Reservation Release",
	};

	return rblk_table_name(names, opcode, "Unknown");
}
EXPORT_SYMBOL_IF_KUNIT(rblk_io_opcode_name);

/**
 * rblk_status_name() - the specifications' name of a completion status
 * @status: status of a completion; More and DNR are not looked at
 * @io: of an NVM I/O command, whose command specific statuses are not the
 *	Fabrics commands'
 *
 * Return: a static name, from the UAPI's table; "Unknown" for one not
 * named.
 */
const char *rblk_status_name(u16 status, bool io)
{
	static const char * const names[] = RBLK_NVME_STATUS_NAMES;
	u16 sc = status & RBLK_SC_MASK;

	/* The NVM I/O commands' own; the table has the Fabrics'. */
	if (io && RBLK_STATUS_SCT(sc) == RBLK_SCT_CMD_SPECIFIC) {
		switch (sc) {
		case 0x180:
			return "Conflicting Attributes";
		case 0x181:
			return "Invalid Protection Information";
		case 0x182:
			return "Attempted Write to Read Only Range";
		case 0x183:
			return "Command Size Limit Exceeded";
		case NVME_SC_AUTH_REQUIRED:
			/* Any command's: the table names it. */
			break;
		default:
			return "Unknown";
		}
	}
	return rblk_table_name(names, sc, "Unknown");
}
EXPORT_SYMBOL_IF_KUNIT(rblk_status_name);

/**
 * rblk_cmd_prop_get() - build a Fabrics Property Get command
 * @cmd: command to fill; zeroed by the caller
 * @off: property offset (NVME_REG_*)
 * @is64: 8-byte property (CAP); 4 bytes otherwise
 */
void rblk_cmd_prop_get(struct nvme_command *cmd, u32 off, bool is64)
{
	cmd->prop_get.opcode = nvme_fabrics_command;
	cmd->prop_get.fctype = nvme_fabrics_type_property_get;
	cmd->prop_get.attrib = is64 ? 1 : 0;
	cmd->prop_get.offset = cpu_to_le32(off);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_prop_get);

/**
 * rblk_cmd_prop_set() - build a 4-byte Fabrics Property Set command
 * @cmd: command to fill; zeroed by the caller
 * @off: property offset (NVME_REG_*)
 * @val: value
 */
void rblk_cmd_prop_set(struct nvme_command *cmd, u32 off, u64 val)
{
	cmd->prop_set.opcode = nvme_fabrics_command;
	cmd->prop_set.fctype = nvme_fabrics_type_property_set;
	cmd->prop_set.attrib = 0;
	cmd->prop_set.offset = cpu_to_le32(off);
	cmd->prop_set.value = cpu_to_le64(val);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_prop_set);

/**
 * rblk_cmd_identify() - build an Identify command
 * @cmd: command to fill; zeroed by the caller
 * @cns: controller or namespace structure (NVME_ID_CNS_*)
 * @nsid: namespace, 0 for controller structures
 */
void rblk_cmd_identify(struct nvme_command *cmd, u8 cns, u32 nsid)
{
	cmd->identify.opcode = nvme_admin_identify;
	cmd->identify.nsid = cpu_to_le32(nsid);
	cmd->identify.cns = cns;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_identify);

/**
 * rblk_cmd_set_features() - build a Set Features command
 * @cmd: command to fill; zeroed by the caller
 * @fid: feature identifier (NVME_FEAT_*)
 * @dword11: the feature's value in command dword 11
 */
void rblk_cmd_set_features(struct nvme_command *cmd, u8 fid, u32 dword11)
{
	cmd->features.opcode = nvme_admin_set_features;
	cmd->features.fid = cpu_to_le32(fid);
	cmd->features.dword11 = cpu_to_le32(dword11);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_set_features);

/**
 * rblk_cmd_set_queue_count() - build Set Features Number of Queues
 * @cmd: command to fill; zeroed by the caller
 * @count: I/O queues wanted (1 or more), as many submission as completion
 */
void rblk_cmd_set_queue_count(struct nvme_command *cmd, u32 count)
{
	u32 q = count - 1;	/* 0's based */

	rblk_cmd_set_features(cmd, NVME_FEAT_NUM_QUEUES,
			      (q & 0xffff) | (q << 16));
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_set_queue_count);

/**
 * rblk_cmd_async_event() - build an Asynchronous Event Request
 * @cmd: command to fill; zeroed by the caller
 */
void rblk_cmd_async_event(struct nvme_command *cmd)
{
	cmd->common.opcode = nvme_admin_async_event;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_async_event);

/**
 * rblk_queue_count_granted() - decode Number of Queues from its completion
 * @result: completion dword 0
 *
 * Return: queue pairs usable, the lesser of submission and completion.
 */
u32 rblk_queue_count_granted(u32 result)
{
	return min(result & 0xffff, result >> 16) + 1;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_queue_count_granted);

/**
 * rblk_cmd_get_log() - build a Get Log Page command
 * @cmd: command to fill; zeroed by the caller
 * @lid: log page id
 * @offset: byte offset into the log: a multiple of 4
 * @len: bytes to read: a multiple of 4, at least 4
 *
 * Return: 0, or -EINVAL for an offset or length the command cannot express.
 */
int rblk_cmd_get_log(struct nvme_command *cmd, u8 lid, u64 offset,
		     size_t len)
{
	u32 numd;

	if (len < 4 || len % 4 || len / 4 > (u64)U32_MAX + 1 || offset % 4)
		return -EINVAL;
	numd = len / 4 - 1;	/* 0's based, split across two fields */
	cmd->get_log_page.opcode = nvme_admin_get_log_page;
	cmd->get_log_page.lid = lid;
	cmd->get_log_page.numdl = cpu_to_le16(numd & 0xffff);
	cmd->get_log_page.numdu = cpu_to_le16(numd >> 16);
	cmd->get_log_page.lpol = cpu_to_le32(lower_32_bits(offset));
	cmd->get_log_page.lpou = cpu_to_le32(upper_32_bits(offset));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_get_log);

/**
 * rblk_cmd_write_zeroes() - build a Write Zeroes command
 * @cmd: command to fill; zeroed by the caller
 * @nsid: namespace
 * @slba: first logical block
 * @nlb: number of logical blocks, 1 to 65536
 *
 * Return: 0, or -EINVAL if @nlb does not fit.
 */
int rblk_cmd_write_zeroes(struct nvme_command *cmd, u32 nsid, u64 slba,
			  u32 nlb)
{
	if (unlikely(!rblk_nlb_fits(nlb)))
		return -EINVAL;
	cmd->write_zeroes.opcode = nvme_cmd_write_zeroes;
	cmd->write_zeroes.nsid = cpu_to_le32(nsid);
	cmd->write_zeroes.slba = cpu_to_le64(slba);
	cmd->write_zeroes.length = cpu_to_le16(nlb - 1);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_write_zeroes);

/**
 * rblk_cmd_dsm() - build a one-range Dataset Management (deallocate)
 * @cmd: command to fill; zeroed by the caller
 * @range: the range, sent as the command's data
 * @nsid: namespace
 * @slba: first logical block
 * @nlb: number of logical blocks
 */
void rblk_cmd_dsm(struct nvme_command *cmd, struct nvme_dsm_range *range,
		  u32 nsid, u64 slba, u32 nlb)
{
	range->cattr = 0;
	range->nlb = cpu_to_le32(nlb);
	range->slba = cpu_to_le64(slba);

	cmd->dsm.opcode = nvme_cmd_dsm;
	cmd->dsm.nsid = cpu_to_le32(nsid);
	cmd->dsm.nr = 0;	/* 0's based: one range */
	cmd->dsm.attributes = cpu_to_le32(NVME_DSMGMT_AD);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_dsm);

/**
 * rblk_cc_enable() - the CC value that enables an NVM controller
 * @page_shift: host memory page size, log2
 *
 * Return: CC with EN set, NVM command set, round robin arbitration and the
 * 64-byte SQE / 16-byte CQE that NVMe-oF mandates.
 */
u32 rblk_cc_enable(unsigned int page_shift)
{
	return NVME_CC_CSS_NVM | (page_shift - 12) << NVME_CC_MPS_SHIFT |
	       NVME_CC_AMS_RR | NVME_CC_SHN_NONE | NVME_CC_IOSQES |
	       NVME_CC_IOCQES | NVME_CC_ENABLE;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cc_enable);

/**
 * rblk_cap_ready_timeout_ms() - how long CSTS.RDY may take to follow CC.EN
 * @cap: the CAP property
 *
 * Return: CAP.TO (500 ms units) in ms, plus one unit of slack.
 */
unsigned int rblk_cap_ready_timeout_ms(u64 cap)
{
	return (NVME_CAP_TIMEOUT(cap) + 1) * 500;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cap_ready_timeout_ms);

/**
 * rblk_mdts_sectors() - maximum transfer size in 512-byte sectors
 * @cap: the CAP property (MPSMIN is the unit of MDTS)
 * @mdts: Identify Controller MDTS, a power of two of that unit; 0: no limit
 *
 * Return: the limit, saturated at U32_MAX.
 */
u32 rblk_mdts_sectors(u64 cap, u8 mdts)
{
	unsigned int shift = 12 + NVME_CAP_MPSMIN(cap) + mdts - SECTOR_SHIFT;

	if (!mdts || shift >= 32)
		return U32_MAX;
	return 1U << shift;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_mdts_sectors);

/**
 * rblk_io_capsule_units() - I/O command capsule size we may fill
 * @ioccsz: Identify Controller IOCCSZ, in 16-byte units
 * @icdoff: Identify Controller ICDOFF (in-capsule data offset)
 * @sgls: Identify Controller SGLS
 *
 * In-capsule data is described by an offset into the capsule: only a
 * controller that takes offsets in SGL addresses (SGLS bit 20), with the
 * data right after the command (ICDOFF 0), gets more than the command
 * itself, as nvme-rdma's use of inline data.
 *
 * Return: the capsule size to use, in 16-byte units.
 */
u32 rblk_io_capsule_units(u32 ioccsz, u16 icdoff, u32 sgls)
{
	if (icdoff || !(sgls & RBLK_SGLS_OFFSET))
		return sizeof(struct nvme_command) / 16;
	return ioccsz;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_io_capsule_units);

/**
 * rblk_disc_chunk() - discovery log records to read per Get Log Page
 * @max_sectors: the largest transfer, in 512-byte sectors, that both the
 *	controller (MDTS) and the transport take
 * @max_records: what the buffer holds
 *
 * Return: whole records within both, at least one (a transport that cannot
 * move one record cannot read the log header either).
 */
u32 rblk_disc_chunk(u32 max_sectors, u32 max_records)
{
	u64 n = ((u64)max_sectors << SECTOR_SHIFT) /
		sizeof(struct nvmf_disc_rsp_page_entry);

	return clamp_t(u64, n, 1, max(max_records, 1U));
}
EXPORT_SYMBOL_IF_KUNIT(rblk_disc_chunk);

/**
 * rblk_queue_size_limit() - the most entries an I/O queue may have
 * @cap: the CAP property; MQES is 0's based
 * @maxcmd: Identify Controller MAXCMD, commands outstanding per queue at
 *	most; 0 (not reported) sets no limit
 *
 * A queue of N entries has N - 1 commands outstanding at most, so MAXCMD
 * entries would do; like nvme-rdma, the queue is kept to MAXCMD entries
 * and the tag set, of as many tags, never exceeds MAXCMD either way.
 *
 * Return: the smaller of MQES + 1 and MAXCMD.
 */
u32 rblk_queue_size_limit(u64 cap, u16 maxcmd)
{
	u32 mqes = NVME_CAP_MQES(cap) + 1;

	return maxcmd ? min_t(u32, mqes, maxcmd) : mqes;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_queue_size_limit);

/**
 * rblk_ns_lba_shift() - the block size of a namespace's current LBA format
 * @id: Identify Namespace data
 * @page_shift: largest block size the host can use, log2
 *
 * Return: log2 of the LBA data size, or -EOPNOTSUPP for a format rblk cannot
 * use (below 512 bytes, above a page, or with metadata).
 */
int rblk_ns_lba_shift(const struct nvme_id_ns *id, unsigned int page_shift)
{
	const struct nvme_lbaf *lbaf = &id->lbaf[nvme_lbaf_index(id->flbas)];

	if (lbaf->ds < SECTOR_SHIFT || lbaf->ds > page_shift || lbaf->ms)
		return -EOPNOTSUPP;
	return lbaf->ds;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ns_lba_shift);

/**
 * rblk_ns_info_from_id() - what rblk uses of Identify Namespace
 * @id: Identify Namespace data
 * @page_shift: largest block size the host can use, log2
 * @info: filled in: size, block sizes, sharing, ANA group, and the EUI-64
 *	and NGUID fields (the UUID only comes with the descriptor list)
 *
 * Return: 0, -ENODEV for an inactive namespace (NSZE 0), or -EOPNOTSUPP
 * for an LBA format rblk cannot use.
 */
int rblk_ns_info_from_id(const struct nvme_id_ns *id, unsigned int page_shift,
			 struct rblk_ns_info *info)
{
	int shift;

	memset(info, 0, sizeof(*info));
	if (!id->nsze)
		return -ENODEV;
	shift = rblk_ns_lba_shift(id, page_shift);
	if (shift < 0)
		return shift;
	info->lba_shift = shift;
	info->nsze = le64_to_cpu(id->nsze);
	info->pb_size = 1U << shift;
	/* NPWG is 0's based, in logical blocks; the block layer caps it. */
	if ((id->nsfeat & RBLK_NS_FEAT_OPTPERF) && id->npwg)
		info->pb_size = min_t(u32, 1U << page_shift,
				      (1U + le16_to_cpu(id->npwg)) << shift);
	info->shared = id->nmic & NVME_NS_NMIC_SHARED;
	info->anagrpid = le32_to_cpu(id->anagrpid);
	memcpy(info->ids.eui64, id->eui64, sizeof(info->ids.eui64));
	memcpy(info->ids.nguid, id->nguid, sizeof(info->ids.nguid));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ns_info_from_id);

/**
 * rblk_ns_ids_from_descs() - parse a Namespace Identification Descriptor
 *	list (Identify CNS 03h)
 * @buf: the list
 * @len: its size, normally %NVME_IDENTIFY_DATA_SIZE
 * @ids: identifiers found are stored; the others are left alone
 *
 * Return: 0, or -EINVAL for a descriptor with a wrong length or one that
 * runs past the end of @buf.
 */
int rblk_ns_ids_from_descs(const void *buf, size_t len,
			   struct rblk_ns_ids *ids)
{
	const struct nvme_ns_id_desc *d;
	size_t pos = 0, dlen;

	while (pos + sizeof(*d) <= len) {
		d = buf + pos;
		if (!d->nidl)
			break;	/* end of the list */
		dlen = d->nidl;
		if (pos + sizeof(*d) + dlen > len)
			return -EINVAL;
		switch (d->nidt) {
		case NVME_NIDT_EUI64:
			if (dlen != NVME_NIDT_EUI64_LEN)
				return -EINVAL;
			memcpy(ids->eui64, d + 1, dlen);
			break;
		case NVME_NIDT_NGUID:
			if (dlen != NVME_NIDT_NGUID_LEN)
				return -EINVAL;
			memcpy(ids->nguid, d + 1, dlen);
			break;
		case NVME_NIDT_UUID:
			if (dlen != NVME_NIDT_UUID_LEN)
				return -EINVAL;
			uuid_copy(&ids->uuid, (const uuid_t *)(d + 1));
			break;
		default:
			/* CSI and later types: not an identity rblk uses. */
			break;
		}
		pos += sizeof(*d) + dlen;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ns_ids_from_descs);

/**
 * rblk_ns_ids_empty() - whether a namespace reports no identifier at all
 * @ids: identifiers
 *
 * Return: true if EUI-64, NGUID and UUID are all zero.
 */
bool rblk_ns_ids_empty(const struct rblk_ns_ids *ids)
{
	return !rblk_ns_has_eui64(ids) && !rblk_ns_has_nguid(ids) &&
	       !rblk_ns_has_uuid(ids);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ns_ids_empty);

/**
 * rblk_ns_ids_equal() - whether two sets of identifiers name the same
 *	namespace
 * @a: identifiers
 * @b: identifiers
 *
 * nvme-core's rule for a namespace seen again (a rescan, another path to a
 * shared namespace): an identifier one side reports and the other does not
 * is a mismatch, so is one side reporting none.
 *
 * Return: true if every identifier matches, absent ones included.
 */
bool rblk_ns_ids_equal(const struct rblk_ns_ids *a,
		       const struct rblk_ns_ids *b)
{
	return !memcmp(a->eui64, b->eui64, sizeof(a->eui64)) &&
	       !memcmp(a->nguid, b->nguid, sizeof(a->nguid)) &&
	       uuid_equal(&a->uuid, &b->uuid);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ns_ids_equal);

/**
 * rblk_ns_ids_overlap() - whether two namespaces share an identifier
 * @a: identifiers
 * @b: identifiers
 *
 * nvme-core's duplicate check for a namespace that would get a head of its
 * own: identifiers are globally unique, so another namespace (another NSID
 * or subsystem) reporting any of them means a broken target or a
 * namespace reachable under two names, and one disk must not become two.
 * An identifier neither reports is no match.
 *
 * Return: true if an identifier both report is equal.
 */
bool rblk_ns_ids_overlap(const struct rblk_ns_ids *a,
			 const struct rblk_ns_ids *b)
{
	return (rblk_ns_has_eui64(a) &&
		!memcmp(a->eui64, b->eui64, sizeof(a->eui64))) ||
	       (rblk_ns_has_nguid(a) &&
		!memcmp(a->nguid, b->nguid, sizeof(a->nguid))) ||
	       (rblk_ns_has_uuid(a) && uuid_equal(&a->uuid, &b->uuid));
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ns_ids_overlap);

/**
 * rblk_id_string() - copy a space-padded Identify string and terminate it
 * @dst: buffer of at least @len + 1 bytes
 * @src: the Identify field
 * @len: size of the field
 */
void rblk_id_string(char *dst, const char *src, size_t len)
{
	memcpy(dst, src, len);
	dst[len] = '\0';
	while (len && (dst[len - 1] == ' ' || dst[len - 1] == '\0'))
		dst[--len] = '\0';
}
EXPORT_SYMBOL_IF_KUNIT(rblk_id_string);

/**
 * rblk_id_subnqn() - the subsystem NQN of Identify Controller
 * @dst: buffer of %RBLK_NQN_SIZE bytes
 * @id: Identify Controller data
 *
 * SUBNQN is a NUL-padded 256-byte field.  As nvme-core: 1 to
 * %RBLK_NQN_MAX_LEN characters before the first NUL, else it counts as
 * not reported (empty before NVMe 1.2.1) and the caller falls back to the
 * NQN it connected with.
 *
 * Return: true and the NQN in @dst, or false and @dst empty.
 */
bool rblk_id_subnqn(char *dst, const struct nvme_id_ctrl *id)
{
	size_t len = strnlen(id->subnqn, RBLK_NQN_SIZE);

	dst[0] = '\0';
	if (!len || len > RBLK_NQN_MAX_LEN)
		return false;
	memcpy(dst, id->subnqn, len);
	dst[len] = '\0';
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_id_subnqn);

/**
 * rblk_ctrl_mpath_from_id() - what multipath uses of Identify Controller
 * @id: Identify Controller data
 * @mp: filled in; ANA fields as reported even when CMIC has no ANA bit
 *	(the spec makes them reserved then: callers test the bit first)
 */
void rblk_ctrl_mpath_from_id(const struct nvme_id_ctrl *id,
			     struct rblk_ctrl_mpath *mp)
{
	mp->cmic = id->cmic;
	mp->anatt = id->anatt;
	mp->anacap = id->anacap;
	mp->anagrpmax = le32_to_cpu(id->anagrpmax);
	mp->nanagrpid = le32_to_cpu(id->nanagrpid);
	mp->nn = le32_to_cpu(id->nn);
	mp->mnan = le32_to_cpu(id->mnan);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ctrl_mpath_from_id);

/**
 * rblk_aen_config() - the asynchronous events to enable
 * @oaes: Identify Controller OAES, the notices the controller can send
 * @cmic: Identify Controller CMIC
 *
 * Namespace Attribute Notices whenever offered; ANA Change Notices only
 * with ANA reporting (CMIC bit 3) too, since without it there is no ANA
 * log to read and a notice could not be re-armed.
 *
 * Return: Asynchronous Event Configuration (Set Features 0Bh) dword 11.
 */
u32 rblk_aen_config(u32 oaes, u8 cmic)
{
	u32 aens = oaes & NVME_AEN_CFG_NS_ATTR;

	if (cmic & NVME_CTRL_CMIC_ANA)
		aens |= oaes & NVME_AEN_CFG_ANA_CHANGE;
	return aens;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_aen_config);

/**
 * rblk_known_effects() - what a command does whatever the effects log says
 * @io: an I/O command (else an admin command)
 * @opcode: its opcode
 *
 * As nvme-core: Format NVM changes the format and content of the
 * namespaces, Sanitize their content, both controller-wide (CSE);
 * writes, Write Zeroes and Write Uncorrectable change logical blocks.
 *
 * Return: %NVME_CMD_EFFECTS_* bits.
 */
u32 rblk_known_effects(bool io, u8 opcode)
{
	if (io) {
		switch (opcode) {
		case nvme_cmd_write:
		case nvme_cmd_write_zeroes:
		case nvme_cmd_write_uncor:
			return NVME_CMD_EFFECTS_LBCC;
		}
		return 0;
	}
	switch (opcode) {
	case nvme_admin_format_nvm:
		return NVME_CMD_EFFECTS_LBCC | NVME_CMD_EFFECTS_NCC |
		       NVME_CMD_EFFECTS_CSE_MASK;
	case nvme_admin_sanitize_nvm:
		return NVME_CMD_EFFECTS_LBCC | NVME_CMD_EFFECTS_CSE_MASK;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_known_effects);

/**
 * rblk_ana_log_size() - the bytes to read for a whole ANA log page
 * @mp: the controller's multipath fields; CMIC says ANA reporting
 * @max_sectors: the largest transfer, in 512-byte sectors, the controller
 *	(MDTS) and the transport take: the caller passes the controller's
 *	max_hw_sectors, already capped by what one memory region maps
 * @size: the size, also set for -E2BIG (for the message)
 *
 * As nvme-core: the header, NANAGRPID group descriptors and MNAN NSIDs,
 * the most a log can hold, read in one command.
 *
 * Return: 0; -EINVAL if MNAN is 0 or above NN (nvme-core refuses such a
 * controller); -E2BIG if one command cannot read that much (nvme-core
 * then goes without ANA).
 */
int rblk_ana_log_size(const struct rblk_ctrl_mpath *mp, u32 max_sectors,
		      size_t *size)
{
	*size = 0;
	if (!mp->mnan || mp->mnan > mp->nn)
		return -EINVAL;
	/* Saturating: an overflow (a 32-bit size_t) is too big as well. */
	*size = size_add(size_add(sizeof(struct nvme_ana_rsp_hdr),
				  array_size(mp->nanagrpid,
					     sizeof(struct nvme_ana_group_desc))),
			 array_size(mp->mnan, sizeof(__le32)));
	if (*size == SIZE_MAX || *size > (u64)max_sectors << SECTOR_SHIFT)
		return -E2BIG;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ana_log_size);

/*
 * The group descriptor at @*pos of an ANA log of @len bytes, checked
 * against the log's end and the controller's group ids; @*pos moves past
 * its NSIDs.  @*pos never exceeds @len.
 */
static int rblk_ana_log_group(const void *buf, size_t len, size_t *pos,
			      u32 anagrpmax, struct rblk_ana_group *g)
{
	const struct nvme_ana_group_desc *d = buf + *pos;

	if (len - *pos < sizeof(*d))
		return -EINVAL;
	g->grpid = le32_to_cpu(d->grpid);
	g->nr_nsids = le32_to_cpu(d->nnsids);
	/* 4-byte aligned only, after a group with an odd NSID count. */
	g->chgcnt = get_unaligned_le64(&d->chgcnt);
	g->state = d->state;
	g->nsids = d->nsids;
	if (!g->grpid || g->grpid > anagrpmax ||
	    !rblk_ana_state_valid(g->state))
		return -EINVAL;
	/* Divided, not multiplied: no count can wrap the length. */
	if (g->nr_nsids > (len - *pos - sizeof(*d)) / sizeof(__le32))
		return -EINVAL;
	*pos += sizeof(*d) + (size_t)g->nr_nsids * sizeof(__le32);
	return 0;
}

/**
 * rblk_ana_log_parse() - check an ANA log page (log 0Ch), then walk its
 *	groups
 * @buf: the log as read
 * @len: bytes read
 * @anagrpmax: the controller's ANAGRPMAX: group ids are 1..@anagrpmax
 * @nanagrpid: the controller's NANAGRPID: at most this many groups
 * @fn: called for each group in log order, or NULL to check only; a
 *	non-zero return (a negative errno, or a positive value to stop a
 *	search) ends the walk
 * @data: passed to @fn
 *
 * The whole log is checked before @fn sees a group: a log that turns out
 * malformed halfway must not have changed the state of some paths.  Unlike
 * nvme-core, which only refuses states above 0Fh, a reserved state (05h
 * to 0Eh) is malformed too: rblk would not know whether to use the path.
 * NSIDs are passed in log order; ascending order is not checked (a caller
 * that merges them with its namespace list must not assume it).
 *
 * Return: 0; -EINVAL for a log shorter than its header, more groups than
 * @nanagrpid, a group id 0 or above @anagrpmax, an unknown state, or a
 * descriptor or NSID list that runs past @len; else what @fn returned.
 */
int rblk_ana_log_parse(const void *buf, size_t len, u32 anagrpmax,
		       u32 nanagrpid,
		       int (*fn)(const struct rblk_ana_group *g, void *data),
		       void *data)
{
	const struct nvme_ana_rsp_hdr *hdr = buf;
	struct rblk_ana_group g;
	unsigned int i, ngrps;
	size_t pos;
	int ret;

	if (len < sizeof(*hdr))
		return -EINVAL;
	ngrps = le16_to_cpu(hdr->ngrps);
	if (ngrps > nanagrpid)
		return -EINVAL;
	for (i = 0, pos = sizeof(*hdr); i < ngrps; i++) {
		ret = rblk_ana_log_group(buf, len, &pos, anagrpmax, &g);
		if (ret)
			return ret;
	}
	if (!fn)
		return 0;
	for (i = 0, pos = sizeof(*hdr); i < ngrps; i++) {
		/* Checked above: it succeeds again. */
		rblk_ana_log_group(buf, len, &pos, anagrpmax, &g);
		ret = fn(&g, data);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ana_log_parse);

/**
 * rblk_ana_state_valid() - whether an ANA state is one the spec defines
 * @state: ANA state
 *
 * Return: true for optimized, non-optimized, inaccessible, persistent
 * loss and change.
 */
bool rblk_ana_state_valid(u8 state)
{
	switch (state) {
	case NVME_ANA_OPTIMIZED:
	case NVME_ANA_NONOPTIMIZED:
	case NVME_ANA_INACCESSIBLE:
	case NVME_ANA_PERSISTENT_LOSS:
	case NVME_ANA_CHANGE:
		return true;
	default:
		return false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ana_state_valid);

/**
 * rblk_ana_state_usable() - whether a path in this ANA state takes I/O
 * @state: ANA state
 *
 * Return: true for optimized and non-optimized, the states in which the
 * controller executes commands to the namespace.
 */
bool rblk_ana_state_usable(u8 state)
{
	return state == NVME_ANA_OPTIMIZED || state == NVME_ANA_NONOPTIMIZED;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ana_state_usable);

/**
 * rblk_ana_state_available() - whether I/O should wait for a path in this
 *	ANA state
 * @state: ANA state
 *
 * Inaccessible and change may turn usable again, so I/O waits for such a
 * path rather than failing.  Persistent loss is final: rblk does not wait
 * for it (nvme-core does, as for any path of a live controller).
 *
 * Return: true for a usable state, inaccessible and change.
 */
bool rblk_ana_state_available(u8 state)
{
	return rblk_ana_state_usable(state) ||
	       state == NVME_ANA_INACCESSIBLE || state == NVME_ANA_CHANGE;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ana_state_available);

/**
 * rblk_ana_state_name() - an ANA state as nvme-core's sysfs names it
 * @state: ANA state
 *
 * Return: a static string; "invalid state" for one the spec does not
 * define (and 0, no state known yet).
 */
const char *rblk_ana_state_name(u8 state)
{
	static const char * const names[RBLK_ANA_STATE_MAX + 1] =
		RBLK_ANA_STATE_NAMES;

	BUILD_BUG_ON(NVME_ANA_OPTIMIZED != 1 || NVME_ANA_NONOPTIMIZED != 2 ||
		     NVME_ANA_INACCESSIBLE != 3 ||
		     NVME_ANA_PERSISTENT_LOSS != 4 ||
		     NVME_ANA_CHANGE != RBLK_ANA_STATE_MAX);
	if (state > RBLK_ANA_STATE_MAX || !names[state])
		return "invalid state";
	return names[state];
}
EXPORT_SYMBOL_IF_KUNIT(rblk_ana_state_name);

/**
 * rblk_status_to_errno() - turn a command result into an errno
 * @status: negative errno, 0, or positive NVMe status (DNR/More included)
 *
 * Return: 0 or a negative errno.
 */
int rblk_status_to_errno(int status)
{
	if (status <= 0)
		return status;
	switch (status & RBLK_SC_MASK) {
	case NVME_SC_HOST_ABORTED_CMD:
	case NVME_SC_HOST_PATH_ERROR:
		return -EIO;
	case NVME_SC_INVALID_NS:
		return -ENODEV;
	case NVME_SC_INVALID_OPCODE:
	case NVME_SC_INVALID_FIELD:
		return -EOPNOTSUPP;
	default:
		return -EREMOTEIO;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rblk_status_to_errno);

/**
 * rblk_status_to_blk() - the block layer status for an NVMe status
 * @status: NVMe status (DNR/More included)
 *
 * Return: a blk_status_t; unknown statuses are BLK_STS_IOERR.
 */
blk_status_t rblk_status_to_blk(u16 status)
{
	switch (status & RBLK_SC_MASK) {
	case NVME_SC_SUCCESS:
		return BLK_STS_OK;
	case NVME_SC_CAP_EXCEEDED:
		return BLK_STS_NOSPC;
	case NVME_SC_LBA_RANGE:
	case NVME_SC_CMD_INTERRUPTED:
	case NVME_SC_NS_NOT_READY:
		return BLK_STS_TARGET;
	case NVME_SC_BAD_ATTRIBUTES:
	case RBLK_SC_CMD_SIZE_LIM_EXCEEDED:
	case NVME_SC_INVALID_OPCODE:
	case NVME_SC_INVALID_FIELD:
		return BLK_STS_NOTSUPP;
	case NVME_SC_INVALID_NS:
		/* Gone from the target: an I/O error, not "unsupported". */
		return BLK_STS_IOERR;
	case NVME_SC_WRITE_FAULT:
	case NVME_SC_READ_ERROR:
	case NVME_SC_UNWRITTEN_BLOCK:
	case NVME_SC_ACCESS_DENIED:
	case NVME_SC_READ_ONLY:
	case NVME_SC_COMPARE_FAILED:
		return BLK_STS_MEDIUM;
	case NVME_SC_GUARD_CHECK:
	case NVME_SC_APPTAG_CHECK:
	case NVME_SC_REFTAG_CHECK:
	case NVME_SC_INVALID_PI:
		return BLK_STS_PROTECTION;
	case NVME_SC_RESERVATION_CONFLICT:
		return BLK_STS_RESV_CONFLICT;
	default:
		/* Path errors too: single path, callers expect EIO. */
		return BLK_STS_IOERR;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rblk_status_to_blk);

/**
 * rblk_status_is_path() - whether a status is about the path, not the
 *	command or the namespace
 * @status: NVMe status (DNR/More included)
 *
 * Status code type 3h (Path Related): internal, controller and host path
 * errors, rblk's own Host Path Error and Host Aborted, and the ANA
 * statuses.  As nvme-core's nvme_is_path_error(): the command may succeed
 * on another path.  DNR is the caller's to test.
 *
 * Return: true for a path related status.
 */
bool rblk_status_is_path(u16 status)
{
	return RBLK_STATUS_SCT(status) == RBLK_SCT_PATH;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_status_is_path);

/**
 * rblk_status_is_host_path() - whether a status is the host's own verdict
 *	on the path: Host Pathing Error (0x370) or Command Aborted By Host
 *	(0x371), which rblk sets for commands its queues could not send or
 *	cancelled
 * @status: status field (SCT, SC; More and DNR ignored)
 *
 * Return: true for those two.
 */
bool rblk_status_is_host_path(u16 status)
{
	u16 sc = status & RBLK_SC_MASK;

	return sc == NVME_SC_HOST_PATH_ERROR || sc == NVME_SC_HOST_ABORTED_CMD;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_status_is_host_path);

/**
 * rblk_status_is_ana() - whether a status reports the path's ANA state
 * @status: NVMe status (DNR/More included)
 *
 * ANA Persistent Loss, Inaccessible and Transition (301h-303h): the
 * controller is alive but its ANA state for the namespace changed, so the
 * ANA log is worth reading again (nvme-core's nvme_is_ana_error()).
 *
 * Return: true for an ANA status.
 */
bool rblk_status_is_ana(u16 status)
{
	switch (status & RBLK_SC_MASK) {
	case NVME_SC_ANA_PERSISTENT_LOSS:
	case NVME_SC_ANA_INACCESSIBLE:
	case NVME_SC_ANA_TRANSITION:
		return true;
	default:
		return false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rblk_status_is_ana);

/**
 * rblk_nqn_valid() - NQN check of the Linux host
 * @nqn: NUL-terminated candidate
 *
 * Return: true for 1..%RBLK_NQN_MAX_LEN bytes, the lengths nvme-fabrics
 * takes.  No syntax beyond that: a target may name a subsystem anything
 * (nvmet does), and nvme-rdma connects to it.
 */
bool rblk_nqn_valid(const char *nqn)
{
	size_t len = strnlen(nqn, RBLK_NQN_MAX_LEN + 1);

	return len && len <= RBLK_NQN_MAX_LEN;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_nqn_valid);

/**
 * rblk_hostnqn_uuid() - the UUID of a UUID-form host NQN
 * @hostnqn: host NQN
 * @uuid: set to the UUID
 *
 * nvme-cli and nvme-rdma derive the host identifier from a host NQN of the
 * form "nqn.2014-08.org.nvmexpress:uuid:<UUID>"; so does rblk, so that a
 * machine looks like the same host to a target under either.
 *
 * Return: true if @hostnqn has that form.
 */
bool rblk_hostnqn_uuid(const char *hostnqn, uuid_t *uuid)
{
	size_t plen = strlen(RBLK_UUID_NQN_PREFIX);

	return !strncmp(hostnqn, RBLK_UUID_NQN_PREFIX, plen) &&
	       strlen(hostnqn + plen) == UUID_STRING_LEN &&
	       !uuid_parse(hostnqn + plen, uuid);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_hostnqn_uuid);

/**
 * rblk_parse_port() - parse a transport service id
 * @trsvcid: decimal port number
 * @port: the port, 1-65535
 *
 * Return: 0 or -EINVAL.
 */
int rblk_parse_port(const char *trsvcid, u16 *port)
{
	if (kstrtou16(trsvcid, 10, port) || !*port)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_parse_port);

/**
 * rblk_parse_traddr() - parse an IP literal into a socket address
 * @traddr: IPv4 or IPv6 literal; a link-local IPv6 address may carry a
 *	scope, "%<interface>" or "%<index>"
 * @port: port, host order
 * @adrfam: &enum rblk_adrfam the address must be, or 0 for either
 * @ss: the address
 *
 * Return: 0, or -EINVAL if @traddr is no literal of the family asked for.
 */
int rblk_parse_traddr(const char *traddr, u16 port, u8 adrfam,
		      struct sockaddr_storage *ss)
{
	sa_family_t af = AF_UNSPEC;

	if (adrfam == RBLK_ADRFAM_IPV4)
		af = AF_INET;
	else if (adrfam == RBLK_ADRFAM_IPV6)
		af = AF_INET6;

	memset(ss, 0, sizeof(*ss));
	/* inet_pton_with_scope() stops at a newline (IPv4) or any "%...". */
	if (strchr(traddr, '\n') ||
	    inet_pton_with_scope(&init_net, af, traddr, NULL, ss))
		goto invalid;
	/* A scope only where it means something, not dropped silently. */
	if (ss->ss_family == AF_INET6 && strchr(traddr, '%') &&
	    !(ipv6_addr_type(&((struct sockaddr_in6 *)ss)->sin6_addr) &
	      IPV6_ADDR_LINKLOCAL))
		goto invalid;
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
	return 0;

invalid:
	memset(ss, 0, sizeof(*ss));
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_parse_traddr);

/* --- DH-HMAC-CHAP (in-band authentication) messages --- */

/*
 * The specification's sizes, kept here so that the parsers need no
 * library: the hash length of each hash, the DH value length of each group
 * (the size of its prime).  auth.c checks them against the transforms.
 */
/* Where the DH group identifiers start in a protocol descriptor's list. */
#define RBLK_AUTH_DHGROUP_LIST	30

static const u8 rblk_auth_hash_lens[RBLK_DHCHAP_HASH_MAX + 1] = {
	[NVME_AUTH_HASH_SHA256]	= 32,
	[NVME_AUTH_HASH_SHA384]	= 48,
	[NVME_AUTH_HASH_SHA512]	= 64,
};

static const u16 rblk_auth_dhgroup_lens[RBLK_DHCHAP_DHGROUP_MAX + 1] = {
	[NVME_AUTH_DHGROUP_NULL]	= 0,
	[NVME_AUTH_DHGROUP_2048]	= 256,
	[NVME_AUTH_DHGROUP_3072]	= 384,
	[NVME_AUTH_DHGROUP_4096]	= 512,
	[NVME_AUTH_DHGROUP_6144]	= 768,
	[NVME_AUTH_DHGROUP_8192]	= 1024,
};

/**
 * rblk_auth_hash_len() - the length of a DH-HMAC-CHAP hash
 * @hashid: hash identifier (NVME_AUTH_HASH_*)
 *
 * Return: its length in bytes, or 0 for an identifier rblk does not know.
 */
unsigned int rblk_auth_hash_len(u8 hashid)
{
	return hashid <= RBLK_DHCHAP_HASH_MAX ? rblk_auth_hash_lens[hashid] : 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_hash_len);

/**
 * rblk_auth_dhgroup_len() - the DH value length of a DH-HMAC-CHAP group
 * @dhgid: group identifier (NVME_AUTH_DHGROUP_*)
 *
 * Return: its length in bytes (0 for the null group), or -EINVAL for an
 * identifier rblk does not know.
 */
int rblk_auth_dhgroup_len(u8 dhgid)
{
	return dhgid <= RBLK_DHCHAP_DHGROUP_MAX ?
	       rblk_auth_dhgroup_lens[dhgid] : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_dhgroup_len);

/**
 * rblk_auth_hash_name() - the name of a DH-HMAC-CHAP hash
 * @hashid: hash identifier
 *
 * Return: a static name from the UAPI's table, or "unknown".
 */
const char *rblk_auth_hash_name(u8 hashid)
{
	static const char * const names[] = RBLK_DHCHAP_HASH_NAMES;

	return rblk_table_name(names, hashid, "unknown");
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_hash_name);

/**
 * rblk_auth_dhgroup_name() - the name of a DH-HMAC-CHAP group
 * @dhgid: group identifier
 *
 * Return: a static name from the UAPI's table, or "unknown".
 */
const char *rblk_auth_dhgroup_name(u8 dhgid)
{
	static const char * const names[] = RBLK_DHCHAP_DHGROUP_NAMES;

	return rblk_table_name(names, dhgid, "unknown");
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_dhgroup_name);

/**
 * rblk_auth_failure_name() - the name of a DH-HMAC-CHAP failure reason
 * @reason: reason code explanation (rescode_exp of FAILURE1 or FAILURE2)
 *
 * Return: a static name from the UAPI's table, or "Unknown".
 */
const char *rblk_auth_failure_name(u8 reason)
{
	static const char * const names[] = RBLK_AUTH_FAILURE_NAMES;

	return rblk_table_name(names, reason, "Unknown");
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_failure_name);

/**
 * rblk_dhchap_secret_valid() - whether a string has the form of a key
 * @s: NUL-terminated string
 *
 * The form only: "DHHC-1:", the transformation hash 00..03, ':', base64
 * characters, a final ':'; at most %RBLK_DHCHAP_SECRET_MAX_LEN bytes.  The
 * library checks the rest (decoded length, CRC) when it parses the key.
 *
 * Return: true if it has.
 */
bool rblk_dhchap_secret_valid(const char *s)
{
	size_t pre = strlen(RBLK_DHCHAP_SECRET_PREFIX);
	size_t len = strnlen(s, RBLK_DHCHAP_SECRET_MAX_LEN + 1);
	size_t i;

	/* The prefix, "NN:", one base64 character at least, ':'. */
	if (len > RBLK_DHCHAP_SECRET_MAX_LEN || len < pre + 5 ||
	    strncmp(s, RBLK_DHCHAP_SECRET_PREFIX, pre) || s[pre] != '0' ||
	    s[pre + 1] < '0' || s[pre + 1] > '3' || s[pre + 2] != ':' ||
	    s[len - 1] != ':')
		return false;
	for (i = pre + 3; i < len - 1; i++) {
		if (!isalnum(s[i]) && s[i] != '+' && s[i] != '/' && s[i] != '=')
			return false;
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_dhchap_secret_valid);

static void rblk_cmd_auth(struct nvme_command *cmd, u8 fctype, u32 len)
{
	struct nvmf_auth_common_command *c = &cmd->auth_common;

	c->opcode = nvme_fabrics_command;
	c->fctype = fctype;
	c->secp = NVME_AUTH_DHCHAP_PROTOCOL_IDENTIFIER;
	c->spsp0 = 0x01;
	c->spsp1 = 0x01;
	c->al_tl = cpu_to_le32(len);
}

/**
 * rblk_cmd_auth_send() - build an Authentication Send command
 * @cmd: command to fill; zeroed by the caller
 * @tl: transfer length: the message's
 */
void rblk_cmd_auth_send(struct nvme_command *cmd, u32 tl)
{
	rblk_cmd_auth(cmd, nvme_fabrics_type_auth_send, tl);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_auth_send);

/**
 * rblk_cmd_auth_receive() - build an Authentication Receive command
 * @cmd: command to fill; zeroed by the caller
 * @al: allocation length: the buffer's
 */
void rblk_cmd_auth_receive(struct nvme_command *cmd, u32 al)
{
	rblk_cmd_auth(cmd, nvme_fabrics_type_auth_receive, al);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_cmd_auth_receive);

/**
 * rblk_auth_negotiate() - build AUTH_Negotiate
 * @buf: message buffer
 * @size: its size
 * @tid: transaction identifier
 *
 * Offers DH-HMAC-CHAP without secure channel concatenation, every hash
 * (SHA-256, -384, -512) and every group (null, ffdhe2048..8192), in the
 * order nvme offers them: the controller chooses.
 *
 * Return: the message length, or -EINVAL if @size is too small.
 */
int rblk_auth_negotiate(void *buf, size_t size, u16 tid)
{
	struct nvmf_auth_dhchap_negotiate_data *data = buf;
	struct nvmf_auth_dhchap_protocol_descriptor *d;
	size_t len = sizeof(*data) + sizeof(union nvmf_auth_protocol);
	u8 i;

	if (size < len)
		return -EINVAL;
	memset(buf, 0, len);
	data->auth_type = NVME_AUTH_COMMON_MESSAGES;
	data->auth_id = NVME_AUTH_DHCHAP_MESSAGE_NEGOTIATE;
	data->t_id = cpu_to_le16(tid);
	data->sc_c = 0;
	data->napd = 1;
	d = &data->auth_protocol[0].dhchap;
	d->authid = NVME_AUTH_DHCHAP_AUTH_ID;
	d->halen = RBLK_DHCHAP_HASH_MAX;
	for (i = 0; i < RBLK_DHCHAP_HASH_MAX; i++)
		d->idlist[i] = NVME_AUTH_HASH_SHA256 + i;
	/* The group list starts after the 30 hash identifiers' room. */
	d->dhlen = RBLK_DHCHAP_DHGROUP_MAX + 1;
	for (i = 0; i <= RBLK_DHCHAP_DHGROUP_MAX; i++)
		d->idlist[RBLK_AUTH_DHGROUP_LIST + i] =
			NVME_AUTH_DHGROUP_NULL + i;
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_negotiate);

/*
 * What every received message is checked for: the header inside @len, the
 * expected type and identifier (a FAILURE1 instead ends the exchange with
 * the controller's reason), the transaction.
 */
static int rblk_auth_check_msg(const void *buf, size_t len, size_t hdr,
			       u16 tid, u8 auth_id, u8 *reason)
{
	const struct nvmf_auth_dhchap_failure_data *f = buf;

	*reason = NVME_AUTH_DHCHAP_FAILURE_INCORRECT_MESSAGE;
	if (len < sizeof(*f))
		return -EPROTO;
	if (f->auth_type == NVME_AUTH_COMMON_MESSAGES &&
	    f->auth_id == NVME_AUTH_DHCHAP_MESSAGE_FAILURE1) {
		if (le16_to_cpu(f->t_id) != tid)
			return -EPROTO;
		*reason = f->rescode_exp;
		return -EKEYREJECTED;
	}
	if (f->auth_type != NVME_AUTH_DHCHAP_MESSAGES ||
	    f->auth_id != auth_id || le16_to_cpu(f->t_id) != tid)
		return -EPROTO;
	*reason = NVME_AUTH_DHCHAP_FAILURE_INCORRECT_PAYLOAD;
	if (len < hdr)
		return -EPROTO;
	*reason = 0;
	return 0;
}

/**
 * rblk_auth_parse_challenge() - check and decode DH_HMAC_CHAP_Challenge
 * @buf: the message as received (hostile input)
 * @len: the buffer's length
 * @tid: transaction identifier it must carry
 * @ch: filled in on success; its pointers point into @buf
 * @reason: on failure, the reason: the controller's (FAILURE1), or the
 *	one FAILURE2 carries back
 *
 * Return: 0; -EKEYREJECTED for a FAILURE1; -EPROTO for a message that is
 * not a valid Challenge of this transaction (wrong type, identifier or
 * T_ID; unknown hash or group; HL not the hash's length; DHVLEN not the
 * group's value length; the values beyond @len).
 */
int rblk_auth_parse_challenge(const void *buf, size_t len, u16 tid,
			      struct rblk_auth_challenge *ch, u8 *reason)
{
	const struct nvmf_auth_dhchap_challenge_data *data = buf;
	unsigned int hl;
	int dhlen, ret;

	ret = rblk_auth_check_msg(buf, len, sizeof(*data), tid,
				  NVME_AUTH_DHCHAP_MESSAGE_CHALLENGE, reason);
	if (ret)
		return ret;
	hl = rblk_auth_hash_len(data->hashid);
	if (!hl) {
		*reason = NVME_AUTH_DHCHAP_FAILURE_HASH_UNUSABLE;
		return -EPROTO;
	}
	dhlen = rblk_auth_dhgroup_len(data->dhgid);
	if (dhlen < 0) {
		*reason = NVME_AUTH_DHCHAP_FAILURE_DHGROUP_UNUSABLE;
		return -EPROTO;
	}
	*reason = NVME_AUTH_DHCHAP_FAILURE_INCORRECT_PAYLOAD;
	if (data->hl != hl || le16_to_cpu(data->dhvlen) != dhlen ||
	    len < sizeof(*data) + hl + dhlen)
		return -EPROTO;
	*reason = 0;
	ch->hashid = data->hashid;
	ch->dhgid = data->dhgid;
	ch->hl = hl;
	ch->dhvlen = dhlen;
	ch->s1 = le32_to_cpu(data->seqnum);
	ch->c1 = data->cval;
	ch->dhv = dhlen ? data->cval + hl : NULL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_parse_challenge);

/**
 * rblk_auth_reply() - build DH_HMAC_CHAP_Reply
 * @buf: message buffer
 * @size: its size
 * @tid: transaction identifier
 * @hl: hash length
 * @r1: the host's response, @hl bytes
 * @c2: the host's challenge to the controller, @hl bytes, or NULL when
 *	the controller is not to be authenticated (its place is zeroed)
 * @s2: sequence number of @c2 (0 without it)
 * @dhv: the host's DH value, or NULL with the null group
 * @dhvlen: its length
 *
 * Return: the message length, or -EINVAL if it does not fit @size.
 */
int rblk_auth_reply(void *buf, size_t size, u16 tid, u8 hl, const u8 *r1,
		    const u8 *c2, u32 s2, const u8 *dhv, u16 dhvlen)
{
	struct nvmf_auth_dhchap_reply_data *data = buf;
	size_t len = sizeof(*data) + 2 * hl + dhvlen;

	if (size < len || (dhvlen && !dhv))
		return -EINVAL;
	memset(buf, 0, sizeof(*data));
	data->auth_type = NVME_AUTH_DHCHAP_MESSAGES;
	data->auth_id = NVME_AUTH_DHCHAP_MESSAGE_REPLY;
	data->t_id = cpu_to_le16(tid);
	data->hl = hl;
	data->cvalid = c2 ? 1 : 0;
	data->dhvlen = cpu_to_le16(dhvlen);
	data->seqnum = cpu_to_le32(c2 ? s2 : 0);
	/* Response, then challenge (always its room), then DH value. */
	memcpy(data->rval, r1, hl);
	if (c2)
		memcpy(data->rval + hl, c2, hl);
	else
		memset(data->rval + hl, 0, hl);
	if (dhvlen)
		memcpy(data->rval + 2 * hl, dhv, dhvlen);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_reply);

/**
 * rblk_auth_parse_success1() - check and decode DH_HMAC_CHAP_Success1
 * @buf: the message as received (hostile input)
 * @len: the buffer's length
 * @tid: transaction identifier it must carry
 * @hl: the hash length of the exchange (the Challenge's)
 * @bidir: the host sent a challenge (CVALID): the controller's response
 *	must be there
 * @r2: set to the controller's response in @buf (@hl bytes) when @bidir
 * @reason: on failure, as rblk_auth_parse_challenge()'s
 *
 * Return: 0; -EKEYREJECTED for a FAILURE1; -EPROTO for a message that is
 * not a valid Success1 of this transaction, also when RVALID does not
 * match @bidir: a response to a challenge never sent, or none to the one
 * sent, which is what a controller without the key would answer.
 */
int rblk_auth_parse_success1(const void *buf, size_t len, u16 tid, u8 hl,
			     bool bidir, const u8 **r2, u8 *reason)
{
	const struct nvmf_auth_dhchap_success1_data *data = buf;
	int ret;

	ret = rblk_auth_check_msg(buf, len, sizeof(*data), tid,
				  NVME_AUTH_DHCHAP_MESSAGE_SUCCESS1, reason);
	if (ret)
		return ret;
	*reason = NVME_AUTH_DHCHAP_FAILURE_INCORRECT_PAYLOAD;
	if (data->hl != hl)
		return -EPROTO;
	if (!!(data->rvalid & NVME_AUTH_DHCHAP_RESPONSE_VALID) != bidir) {
		*reason = NVME_AUTH_DHCHAP_FAILURE_FAILED;
		return -EPROTO;
	}
	if (bidir) {
		if (len < sizeof(*data) + hl)
			return -EPROTO;
		*r2 = data->rval;
	}
	*reason = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_parse_success1);

/**
 * rblk_auth_success2() - build DH_HMAC_CHAP_Success2
 * @buf: message buffer
 * @size: its size
 * @tid: transaction identifier
 *
 * Return: the message length, or -EINVAL if @size is too small.
 */
int rblk_auth_success2(void *buf, size_t size, u16 tid)
{
	struct nvmf_auth_dhchap_success2_data *data = buf;

	if (size < sizeof(*data))
		return -EINVAL;
	memset(data, 0, sizeof(*data));
	data->auth_type = NVME_AUTH_DHCHAP_MESSAGES;
	data->auth_id = NVME_AUTH_DHCHAP_MESSAGE_SUCCESS2;
	data->t_id = cpu_to_le16(tid);
	return sizeof(*data);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_success2);

/**
 * rblk_auth_failure2() - build AUTH_Failure2
 * @buf: message buffer
 * @size: its size
 * @tid: transaction identifier
 * @reason: reason code explanation (NVME_AUTH_DHCHAP_FAILURE_*)
 *
 * Return: the message length, or -EINVAL if @size is too small.
 */
int rblk_auth_failure2(void *buf, size_t size, u16 tid, u8 reason)
{
	struct nvmf_auth_dhchap_failure_data *data = buf;

	if (size < sizeof(*data))
		return -EINVAL;
	memset(data, 0, sizeof(*data));
	data->auth_type = NVME_AUTH_COMMON_MESSAGES;
	data->auth_id = NVME_AUTH_DHCHAP_MESSAGE_FAILURE2;
	data->t_id = cpu_to_le16(tid);
	data->rescode = NVME_AUTH_DHCHAP_FAILURE_REASON_FAILED;
	data->rescode_exp = reason;
	return sizeof(*data);
}
EXPORT_SYMBOL_IF_KUNIT(rblk_auth_failure2);
