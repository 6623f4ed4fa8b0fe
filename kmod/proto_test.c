// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of rblk's NVMe over Fabrics wire format (kmod/proto.c).
 *
 * The expectations are byte offsets and values from the NVMe Base and
 * NVMe over Fabrics specifications, read from the raw 64-byte SQE, not via
 * struct nvme_command: a wrong union member or field in proto.c shows up
 * here as a wrong byte.  Built as rblk_kunit.ko when the kernel has KUnit.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <linux/string.h>
#include "compat.h"

#include <linux/rblk.h>

#include "proto.h"

static const u8 *sqe(const struct nvme_command *cmd)
{
	return (const u8 *)cmd;
}

static u16 le16_at(const void *p, size_t off)
{
	return get_unaligned_le16((const u8 *)p + off);
}

static u32 le32_at(const void *p, size_t off)
{
	return get_unaligned_le32((const u8 *)p + off);
}

static u64 le64_at(const void *p, size_t off)
{
	return get_unaligned_le64((const u8 *)p + off);
}

/* Bytes 40.. are CDW10.. */
#define CDW(n)	(((n) - 10) * 4 + 40)

static void rblk_test_sqe_layout(struct kunit *test)
{
	/* The capsule is 64 bytes and the offsets below assume it. */
	KUNIT_EXPECT_EQ(test, sizeof(struct nvme_command), 64);
	KUNIT_EXPECT_EQ(test, sizeof(struct nvmf_connect_data), 1024);
	KUNIT_EXPECT_EQ(test, sizeof(struct nvme_dsm_range), 16);
}

static void rblk_test_connect_admin(struct kunit *test)
{
	struct nvme_command cmd = {};

	rblk_cmd_connect(&cmd, 0, 31, 5000);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[0], 0x7f);	/* Fabrics opcode */
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[4], 0x01);	/* FCTYPE Connect */
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, 40), 0);	/* RECFMT */
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, 42), 0);	/* QID */
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, 44), 31);	/* SQSIZE, 0's based */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 48), 5000);	/* KATO, ms */
}

static void rblk_test_connect_io(struct kunit *test)
{
	struct nvme_command cmd = {};

	rblk_cmd_connect(&cmd, 3, 127, 5000);
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, 42), 3);
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, 44), 127);
	/* KATO belongs to the admin queue only. */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 48), 0);
}

static void rblk_test_connect_data(struct kunit *test)
{
	static const char sub[] = "nqn.2026-12.io.rblk:test";
	struct nvmf_connect_data *d;
	char *longnqn;
	uuid_t id;
	u8 *raw;

	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	longnqn = kunit_kzalloc(test, 400, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_NOT_NULL(test, longnqn);
	raw = (u8 *)d;
	uuid_gen(&id);

	rblk_connect_data(d, &id, 0xffff, sub, "nqn.2014-08.org.nvmexpress:uuid:x");
	KUNIT_EXPECT_EQ(test, memcmp(raw, &id, 16), 0);		/* HOSTID */
	KUNIT_EXPECT_EQ(test, le16_at(raw, 16), 0xffff);	/* CNTLID */
	KUNIT_EXPECT_STREQ(test, (char *)raw + 256, sub);	/* SUBNQN */
	KUNIT_EXPECT_STREQ(test, (char *)raw + 512,
			   "nqn.2014-08.org.nvmexpress:uuid:x");	/* HOSTNQN */

	/* An over-long NQN is cut at 223 characters, still terminated. */
	memset(longnqn, 'a', 399);
	memset(d, 0, sizeof(*d));
	rblk_connect_data(d, &id, 1, longnqn, longnqn);
	KUNIT_EXPECT_EQ(test, strnlen((char *)raw + 256, 256), NVMF_NQN_SIZE);
	KUNIT_EXPECT_EQ(test, strnlen((char *)raw + 512, 256), NVMF_NQN_SIZE);
	KUNIT_EXPECT_EQ(test, raw[256 + NVMF_NQN_SIZE], 0);
	KUNIT_EXPECT_EQ(test, raw[512 + NVMF_NQN_SIZE], 0);
}

static void rblk_test_connect_error(struct kunit *test)
{
	int err = 0;

	/* SCT 1 (command specific), Connect status codes. */
	KUNIT_EXPECT_NOT_NULL(test, rblk_connect_error(0x182, &err));
	KUNIT_EXPECT_EQ(test, err, -ENOENT);
	rblk_connect_error(0x184 | NVME_STATUS_DNR, &err);
	KUNIT_EXPECT_EQ(test, err, -EACCES);
	rblk_connect_error(0x181, &err);
	KUNIT_EXPECT_EQ(test, err, -EBUSY);
	rblk_connect_error(0x183, &err);
	KUNIT_EXPECT_EQ(test, err, -ECONNREFUSED);
	rblk_connect_error(0x006, &err);
	KUNIT_EXPECT_EQ(test, err, -ECONNREFUSED);
}

static void rblk_test_property(struct kunit *test)
{
	struct nvme_command cmd = {};

	rblk_cmd_prop_get(&cmd, NVME_REG_CAP, true);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[0], 0x7f);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[4], 0x04);	/* Property Get */
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[40], 1);	/* ATTRIB: 8 bytes */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 44), 0x00);	/* OFST: CAP */

	memset(&cmd, 0, sizeof(cmd));
	rblk_cmd_prop_get(&cmd, NVME_REG_CSTS, false);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[40], 0);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 44), 0x1c);

	memset(&cmd, 0, sizeof(cmd));
	rblk_cmd_prop_set(&cmd, NVME_REG_CC, 0x00460001);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[4], 0x00);	/* Property Set */
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[40], 0);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 44), 0x14);
	KUNIT_EXPECT_EQ(test, le64_at(&cmd, 48), 0x00460001ULL);
}

static void rblk_test_cc_cap(struct kunit *test)
{
	/* EN, CSS NVM, MPS 4K, AMS RR, SHN none, IOSQES 6, IOCQES 4. */
	KUNIT_EXPECT_EQ(test, rblk_cc_enable(12), 0x00460001);
	KUNIT_EXPECT_EQ(test, rblk_cc_enable(16), 0x00460201);	/* MPS 64K */

	/* CAP.TO, bits 31:24, in 500 ms units. */
	KUNIT_EXPECT_EQ(test, rblk_cap_ready_timeout_ms(0), 500);
	KUNIT_EXPECT_EQ(test, rblk_cap_ready_timeout_ms(0x0fULL << 24), 8000);
	KUNIT_EXPECT_EQ(test, rblk_cap_ready_timeout_ms(0xffULL << 24), 128000);

	/* MDTS in units of CAP.MPSMIN (bits 51:48); 0 means no limit. */
	KUNIT_EXPECT_EQ(test, rblk_mdts_sectors(0, 0), U32_MAX);
	KUNIT_EXPECT_EQ(test, rblk_mdts_sectors(0, 5), 256);	/* 128 KiB */
	KUNIT_EXPECT_EQ(test, rblk_mdts_sectors(1ULL << 48, 3), 128);
	KUNIT_EXPECT_EQ(test, rblk_mdts_sectors(0, 23), 1U << 26);
	KUNIT_EXPECT_EQ(test, rblk_mdts_sectors(0, 29), U32_MAX);
	KUNIT_EXPECT_EQ(test, rblk_mdts_sectors(0, 255), U32_MAX);

	/* Queue entries: MQES (bits 15:0, 0's based), then MAXCMD. */
	KUNIT_EXPECT_EQ(test, rblk_queue_size_limit(1023, 0), 1024);
	KUNIT_EXPECT_EQ(test, rblk_queue_size_limit(1023, 1024), 1024);
	KUNIT_EXPECT_EQ(test, rblk_queue_size_limit(1023, 128), 128);
	KUNIT_EXPECT_EQ(test, rblk_queue_size_limit(31, 128), 32);
	KUNIT_EXPECT_EQ(test, rblk_queue_size_limit(0xffffULL | 1ULL << 16, 0),
			65536);
}

static void rblk_test_identify(struct kunit *test)
{
	struct nvme_command cmd = {};

	rblk_cmd_identify(&cmd, NVME_ID_CNS_NS, 7);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[0], 0x06);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 4), 7);	/* NSID */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(10)), 0x00);	/* CNS 0 */

	memset(&cmd, 0, sizeof(cmd));
	rblk_cmd_identify(&cmd, NVME_ID_CNS_CTRL, 0);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 4), 0);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(10)), 0x01);
}

static void rblk_test_ns_format(struct kunit *test)
{
	struct nvme_id_ns *id;

	id = kunit_kzalloc(test, sizeof(*id), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, id);

	id->lbaf[0].ds = 9;
	id->lbaf[1].ds = 12;
	id->lbaf[2].ds = 12;
	id->lbaf[2].ms = cpu_to_le16(8);
	id->lbaf[3].ds = 16;
	id->lbaf[17].ds = 12;

	KUNIT_EXPECT_EQ(test, rblk_ns_lba_shift(id, 12), 9);
	id->flbas = 1;
	KUNIT_EXPECT_EQ(test, rblk_ns_lba_shift(id, 12), 12);
	/* Metadata rblk would have to transfer: refused. */
	id->flbas = 2;
	KUNIT_EXPECT_EQ(test, rblk_ns_lba_shift(id, 12), -EOPNOTSUPP);
	/* Blocks above the page size: refused on 4K pages, fine on 64K. */
	id->flbas = 3;
	KUNIT_EXPECT_EQ(test, rblk_ns_lba_shift(id, 12), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rblk_ns_lba_shift(id, 16), 16);
	/* FLBAS bits 6:5 are the upper bits of the format index. */
	id->flbas = 0x21;
	KUNIT_EXPECT_EQ(test, rblk_ns_lba_shift(id, 12), 12);
	id->lbaf[4].ds = 0;
	id->flbas = 4;
	KUNIT_EXPECT_EQ(test, rblk_ns_lba_shift(id, 12), -EOPNOTSUPP);
}

static void rblk_test_id_string(struct kunit *test)
{
	char out[9];

	rblk_id_string(out, "Linux   ", 8);
	KUNIT_EXPECT_STREQ(test, out, "Linux");
	rblk_id_string(out, "ABCDEFGH", 8);
	KUNIT_EXPECT_STREQ(test, out, "ABCDEFGH");
	rblk_id_string(out, "        ", 8);
	KUNIT_EXPECT_STREQ(test, out, "");
	rblk_id_string(out, "a b\0\0\0\0\0", 8);
	KUNIT_EXPECT_STREQ(test, out, "a b");
}

static void rblk_test_queue_count(struct kunit *test)
{
	struct nvme_command cmd = {};

	rblk_cmd_set_queue_count(&cmd, 4);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[0], 0x09);	/* Set Features */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(10)), 0x07);	/* FID */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(11)), 0x00030003);

	/* Dword 0: NCQA in 31:16, NSQA in 15:0, both 0's based. */
	KUNIT_EXPECT_EQ(test, rblk_queue_count_granted(0x00030001), 2);
	KUNIT_EXPECT_EQ(test, rblk_queue_count_granted(0x00000007), 1);
	KUNIT_EXPECT_EQ(test, rblk_queue_count_granted(0xfffefffe), 65535);
}

static void rblk_test_get_log(struct kunit *test)
{
	struct nvme_command cmd = {};

	KUNIT_EXPECT_EQ(test, rblk_cmd_get_log(&cmd, NVME_LOG_DISC, 0, 4096), 0);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[0], 0x02);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[CDW(10)], 0x70);	/* LID */
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, CDW(10) + 2), 1023);	/* NUMDL */
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, CDW(11)), 0);	/* NUMDU */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(12)), 0);	/* LPOL */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(13)), 0);	/* LPOU */

	memset(&cmd, 0, sizeof(cmd));
	KUNIT_EXPECT_EQ(test, rblk_cmd_get_log(&cmd, NVME_LOG_DISC,
					       0x123456789cULL, 0x40000 * 4), 0);
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, CDW(10) + 2), 0xffff);
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, CDW(11)), 3);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(12)), 0x3456789c);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(13)), 0x12);

	/* Discovery log chunks: 1 KiB records within MDTS and the buffer. */
	KUNIT_EXPECT_EQ(test, rblk_disc_chunk(U32_MAX, 32), 32);
	KUNIT_EXPECT_EQ(test, rblk_disc_chunk(rblk_mdts_sectors(0, 1), 32), 8);
	KUNIT_EXPECT_EQ(test, rblk_disc_chunk(rblk_mdts_sectors(0, 3), 32), 32);
	KUNIT_EXPECT_EQ(test, rblk_disc_chunk(17, 32), 8);	/* 8.5 KiB */
	KUNIT_EXPECT_EQ(test, rblk_disc_chunk(1, 32), 1);
	KUNIT_EXPECT_EQ(test, rblk_disc_chunk(U32_MAX, 0), 1);

	KUNIT_EXPECT_EQ(test, rblk_cmd_get_log(&cmd, NVME_LOG_DISC, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_cmd_get_log(&cmd, NVME_LOG_DISC, 0, 6), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_cmd_get_log(&cmd, NVME_LOG_DISC, 2, 4), -EINVAL);
}

static void rblk_test_rw(struct kunit *test)
{
	struct nvme_command cmd = {};

	KUNIT_EXPECT_EQ(test, rblk_cmd_rw(&cmd, nvme_cmd_write, 1,
					  0x123456789aULL, 8, true), 0);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[0], 0x01);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 4), 1);
	KUNIT_EXPECT_EQ(test, le64_at(&cmd, CDW(10)), 0x123456789aULL);
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, CDW(12)), 7);	/* NLB, 0's based */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(12)) >> 30 & 1, 1);	/* FUA */

	memset(&cmd, 0, sizeof(cmd));
	KUNIT_EXPECT_EQ(test, rblk_cmd_rw(&cmd, nvme_cmd_read, 2, 0, 0x10000,
					  false), 0);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[0], 0x02);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(12)), 0xffff);

	KUNIT_EXPECT_EQ(test, rblk_cmd_rw(&cmd, nvme_cmd_read, 2, 0, 0, false),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_cmd_rw(&cmd, nvme_cmd_read, 2, 0, 0x10001,
					  false), -EINVAL);
}

/*
 * blk.c builds Read and Write in the submission entry the tag's previous
 * command left behind: every byte but the command id (2-3) and SGL1
 * (24-39) must come out as if the entry had been zeroed.
 */
static void rblk_test_rw_reused_sqe(struct kunit *test)
{
	struct nvme_command fresh = {}, reused;
	int i;

	memset(&reused, 0xff, sizeof(reused));
	KUNIT_ASSERT_EQ(test, rblk_cmd_rw(&fresh, nvme_cmd_read, 5, 77, 16,
					  false), 0);
	KUNIT_ASSERT_EQ(test, rblk_cmd_rw(&reused, nvme_cmd_read, 5, 77, 16,
					  false), 0);
	for (i = 0; i < sizeof(reused); i++) {
		if (i == 2 || i == 3 || (i >= 24 && i < 40))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, sqe(&reused)[i], sqe(&fresh)[i],
				    "byte %d", i);
	}

	/* The inline descriptor's reserved bytes are cleared too. */
	rblk_sgl_inline(&reused, 0, 512);
	for (i = 36; i < 39; i++)
		KUNIT_EXPECT_EQ_MSG(test, sqe(&reused)[i], 0, "byte %d", i);
}

static void rblk_test_zeroes_dsm(struct kunit *test)
{
	struct nvme_command cmd = {};
	struct nvme_dsm_range range;

	KUNIT_EXPECT_EQ(test, rblk_cmd_write_zeroes(&cmd, 3, 100, 16), 0);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[0], 0x08);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 4), 3);
	KUNIT_EXPECT_EQ(test, le64_at(&cmd, CDW(10)), 100);
	KUNIT_EXPECT_EQ(test, le16_at(&cmd, CDW(12)), 15);
	KUNIT_EXPECT_EQ(test, rblk_cmd_write_zeroes(&cmd, 3, 0, 0), -EINVAL);

	memset(&cmd, 0, sizeof(cmd));
	memset(&range, 0xff, sizeof(range));
	rblk_cmd_dsm(&cmd, &range, 3, 0x1000, 0x80000);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[0], 0x09);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(10)), 0);	/* NR: one range */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, CDW(11)), 0x4);	/* AD */
	KUNIT_EXPECT_EQ(test, le32_at(&range, 0), 0);		/* context attrs */
	KUNIT_EXPECT_EQ(test, le32_at(&range, 4), 0x80000);	/* NLB, 1's based */
	KUNIT_EXPECT_EQ(test, le64_at(&range, 8), 0x1000);
}

static void rblk_test_sgl(struct kunit *test)
{
	struct nvme_command cmd;

	/* SGL1 is bytes 24-39; byte 39 is type (7:4) and subtype (3:0). */
	memset(&cmd, 0xff, sizeof(cmd));
	rblk_sgl_null(&cmd);
	KUNIT_EXPECT_EQ(test, le64_at(&cmd, 24), 0);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 32) & 0xffffff, 0);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 35), 0);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[39], 0x40);

	memset(&cmd, 0, sizeof(cmd));
	KUNIT_EXPECT_EQ(test, rblk_sgl_keyed(&cmd, 0xdeadbeef000ULL, 0x20000,
					     0x12345678, true), 0);
	KUNIT_EXPECT_EQ(test, le64_at(&cmd, 24), 0xdeadbeef000ULL);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 32) & 0xffffff, 0x20000);	/* 3 bytes */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 35), 0x12345678);		/* KEY */
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[39], 0x4f);	/* keyed, invalidate */

	KUNIT_EXPECT_EQ(test, rblk_sgl_keyed(&cmd, 0, 4096, 1, false), 0);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[39], 0x40);
	KUNIT_EXPECT_EQ(test, rblk_sgl_keyed(&cmd, 0, 1U << 24, 1, false),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_sgl_keyed(&cmd, 0, (1U << 24) - 1, 1,
					     false), 0);

	memset(&cmd, 0xff, sizeof(cmd));
	rblk_sgl_inline(&cmd, 0, 8192);
	KUNIT_EXPECT_EQ(test, le64_at(&cmd, 24), 0);	/* offset in capsule */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 32), 8192);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[39], 0x01);	/* data block, offset */
}

struct rblk_status_case {
	u16 status;
	blk_status_t blk;
	int err;
};

static const struct rblk_status_case rblk_status_cases[] = {
	{ 0x000, BLK_STS_OK, 0 },
	{ 0x001, BLK_STS_NOTSUPP, -EOPNOTSUPP },	/* invalid opcode */
	{ 0x002, BLK_STS_NOTSUPP, -EOPNOTSUPP },	/* invalid field */
	{ 0x00b, BLK_STS_IOERR, -ENODEV },		/* invalid namespace */
	{ 0x00b | NVME_STATUS_DNR, BLK_STS_IOERR, -ENODEV },
	{ 0x006, BLK_STS_IOERR, -EREMOTEIO },		/* internal error */
	{ 0x021, BLK_STS_TARGET, -EREMOTEIO },		/* command interrupted */
	{ 0x080, BLK_STS_TARGET, -EREMOTEIO },		/* LBA out of range */
	{ 0x081, BLK_STS_NOSPC, -EREMOTEIO },		/* capacity exceeded */
	{ 0x082, BLK_STS_TARGET, -EREMOTEIO },		/* namespace not ready */
	{ 0x083, BLK_STS_RESV_CONFLICT, -EREMOTEIO },		/* reservation conflict */
	{ 0x280, BLK_STS_MEDIUM, -EREMOTEIO },		/* write fault */
	{ 0x281, BLK_STS_MEDIUM, -EREMOTEIO },		/* unrecovered read */
	{ 0x282, BLK_STS_PROTECTION, -EREMOTEIO },	/* guard check */
	{ 0x286, BLK_STS_MEDIUM, -EREMOTEIO },		/* access denied */
	{ 0x370, BLK_STS_IOERR, -EIO },			/* host path error */
	{ 0x371, BLK_STS_IOERR, -EIO },			/* aborted by host */
	{ 0x7ff | NVME_STATUS_DNR | NVME_STATUS_MORE, BLK_STS_IOERR, -EREMOTEIO },
};

static void rblk_status_desc(const struct rblk_status_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "status %#x", c->status);
}

KUNIT_ARRAY_PARAM(rblk_status, rblk_status_cases, rblk_status_desc);

static void rblk_test_status(struct kunit *test)
{
	const struct rblk_status_case *c = test->param_value;

	/* blk_status_t is __bitwise: compare the raw values. */
	KUNIT_EXPECT_EQ(test, (__force u8)rblk_status_to_blk(c->status),
			(__force u8)c->blk);
	KUNIT_EXPECT_EQ(test, rblk_status_to_errno(c->status), c->err);
}

static void rblk_test_errno_passthrough(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rblk_status_to_errno(0), 0);
	KUNIT_EXPECT_EQ(test, rblk_status_to_errno(-ENOMEM), -ENOMEM);
	KUNIT_EXPECT_EQ(test, rblk_status_to_errno(-ETIMEDOUT), -ETIMEDOUT);
}

static void rblk_test_nqn(struct kunit *test)
{
	char nqn[RBLK_NQN_MAX_LEN + 2];

	KUNIT_EXPECT_TRUE(test, rblk_nqn_valid("nqn.2014-08.org.nvmexpress.discovery"));
	/* Whatever a target names its subsystem, as the Linux host. */
	KUNIT_EXPECT_TRUE(test, rblk_nqn_valid("blktests-subsystem-1"));
	KUNIT_EXPECT_TRUE(test, rblk_nqn_valid("nqn."));
	KUNIT_EXPECT_TRUE(test, rblk_nqn_valid("x"));
	KUNIT_EXPECT_FALSE(test, rblk_nqn_valid(""));

	memset(nqn, 'n', sizeof(nqn));
	nqn[RBLK_NQN_MAX_LEN] = '\0';
	KUNIT_EXPECT_TRUE(test, rblk_nqn_valid(nqn));
	nqn[RBLK_NQN_MAX_LEN] = 'n';
	nqn[RBLK_NQN_MAX_LEN + 1] = '\0';
	KUNIT_EXPECT_FALSE(test, rblk_nqn_valid(nqn));
}

static void rblk_test_hostnqn_uuid(struct kunit *test)
{
	static const uuid_t want = UUID_INIT(0x0123abcd, 0x4567, 0x89ab,
					     0xcd, 0xef, 0x01, 0x23, 0x45,
					     0x67, 0x89, 0xab);
	uuid_t u;

	KUNIT_EXPECT_TRUE(test, rblk_hostnqn_uuid(RBLK_UUID_NQN_PREFIX
				"0123abcd-4567-89ab-cdef-0123456789ab", &u));
	KUNIT_EXPECT_TRUE(test, uuid_equal(&u, &want));
	KUNIT_EXPECT_TRUE(test, rblk_hostnqn_uuid(RBLK_UUID_NQN_PREFIX
				"0123ABCD-4567-89AB-CDEF-0123456789AB", &u));
	KUNIT_EXPECT_TRUE(test, uuid_equal(&u, &want));

	KUNIT_EXPECT_FALSE(test, rblk_hostnqn_uuid(RBLK_UUID_NQN_PREFIX
				 "0123abcd-4567-89ab-cdef-0123456789ab0", &u));
	KUNIT_EXPECT_FALSE(test, rblk_hostnqn_uuid(RBLK_UUID_NQN_PREFIX
				 "0123abcd", &u));
	KUNIT_EXPECT_FALSE(test, rblk_hostnqn_uuid("nqn.2014-08.org.nvmexpress:uuid", &u));
	KUNIT_EXPECT_FALSE(test, rblk_hostnqn_uuid("nqn.2026-12.io.rblk:host", &u));
}

static void rblk_test_port(struct kunit *test)
{
	u16 port = 0;

	KUNIT_EXPECT_EQ(test, rblk_parse_port("4420", &port), 0);
	KUNIT_EXPECT_EQ(test, port, 4420);
	KUNIT_EXPECT_EQ(test, rblk_parse_port("65535", &port), 0);
	KUNIT_EXPECT_EQ(test, rblk_parse_port("0", &port), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_parse_port("65536", &port), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_parse_port("-1", &port), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_parse_port("44x", &port), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_parse_port("", &port), -EINVAL);
}

static void rblk_test_traddr(struct kunit *test)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("10.99.0.1", 4420, 0, &ss), 0);
	KUNIT_EXPECT_EQ(test, ss.ss_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohs(in4->sin_port), 4420);
	KUNIT_EXPECT_EQ(test, ntohl(in4->sin_addr.s_addr), 0x0a630001);

	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("fd00::1", 1, 0, &ss), 0);
	KUNIT_EXPECT_EQ(test, ss.ss_family, AF_INET6);
	KUNIT_EXPECT_EQ(test, ntohs(in6->sin6_port), 1);
	KUNIT_EXPECT_EQ(test, in6->sin6_addr.s6_addr[0], 0xfd);
	KUNIT_EXPECT_EQ(test, in6->sin6_addr.s6_addr[15], 1);

	/* The family asked for must match the literal. */
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("10.99.0.1", 1, RBLK_ADRFAM_IPV4, &ss), 0);
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("10.99.0.1", 1, RBLK_ADRFAM_IPV6, &ss),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("fd00::1", 1, RBLK_ADRFAM_IPV4, &ss),
			-EINVAL);

	/* A link-local address keeps its scope, by index or by name. */
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("fe80::1%7", 4420, 0, &ss), 0);
	KUNIT_EXPECT_EQ(test, ss.ss_family, AF_INET6);
	KUNIT_EXPECT_EQ(test, in6->sin6_scope_id, 7);
	KUNIT_EXPECT_EQ(test, ntohs(in6->sin6_port), 4420);
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("fe80::1%lo", 1, 0, &ss), 0);
	KUNIT_EXPECT_EQ(test, in6->sin6_scope_id, 1);
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("fe80::1%rblk-no-such-dev", 1, 0, &ss),
			-EINVAL);
	/* Nothing after the address is dropped silently. */
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("fd00::1%7", 1, 0, &ss), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("10.99.0.1%7", 1, 0, &ss), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("10.99.0.1\nx", 1, 0, &ss), -EINVAL);

	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("10.99.0", 1, 0, &ss), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("10.99.0.256", 1, 0, &ss), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("target.example", 1, 0, &ss), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_parse_traddr("", 1, 0, &ss), -EINVAL);
	/* A failed parse leaves no half-written address behind. */
	KUNIT_EXPECT_EQ(test, ss.ss_family, 0);
}

static struct kunit_case rblk_proto_cases[] = {
	KUNIT_CASE(rblk_test_sqe_layout),
	KUNIT_CASE(rblk_test_connect_admin),
	KUNIT_CASE(rblk_test_connect_io),
	KUNIT_CASE(rblk_test_connect_data),
	KUNIT_CASE(rblk_test_connect_error),
	KUNIT_CASE(rblk_test_property),
	KUNIT_CASE(rblk_test_cc_cap),
	KUNIT_CASE(rblk_test_identify),
	KUNIT_CASE(rblk_test_ns_format),
	KUNIT_CASE(rblk_test_id_string),
	KUNIT_CASE(rblk_test_queue_count),
	KUNIT_CASE(rblk_test_get_log),
	KUNIT_CASE(rblk_test_rw),
	KUNIT_CASE(rblk_test_rw_reused_sqe),
	KUNIT_CASE(rblk_test_zeroes_dsm),
	KUNIT_CASE(rblk_test_sgl),
	KUNIT_CASE_PARAM(rblk_test_status, rblk_status_gen_params),
	KUNIT_CASE(rblk_test_errno_passthrough),
	KUNIT_CASE(rblk_test_nqn),
	KUNIT_CASE(rblk_test_hostnqn_uuid),
	KUNIT_CASE(rblk_test_port),
	KUNIT_CASE(rblk_test_traddr),
	{}
};

static struct kunit_suite rblk_proto_suite = {
	.name = "rblk_proto",
	.test_cases = rblk_proto_cases,
};
kunit_test_suite(rblk_proto_suite);

MODULE_DESCRIPTION("KUnit tests of the rblk NVMe-oF wire format");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
