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
#include "rblk.h"

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

	/* In-capsule data only with SGL offsets (SGLS bit 20) and ICDOFF 0. */
	KUNIT_EXPECT_EQ(test, rblk_io_capsule_units(260, 0, BIT(20) | BIT(2)), 260);
	KUNIT_EXPECT_EQ(test, rblk_io_capsule_units(260, 0, BIT(2)), 4);
	KUNIT_EXPECT_EQ(test, rblk_io_capsule_units(260, 16, BIT(20) | BIT(2)), 4);
	KUNIT_EXPECT_EQ(test, rblk_io_capsule_units(4, 0, BIT(20)), 4);

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
	bool path;	/* SCT 3h: another path may succeed */
	bool ana;	/* an ANA status: the ANA log changed */
	bool host;	/* the host's own path verdict */
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
	{ 0x300, BLK_STS_IOERR, -EREMOTEIO, true },	/* internal path error */
	{ 0x301, BLK_STS_IOERR, -EREMOTEIO, true, true },	/* ANA persistent loss */
	{ 0x302, BLK_STS_IOERR, -EREMOTEIO, true, true },	/* ANA inaccessible */
	{ 0x303, BLK_STS_IOERR, -EREMOTEIO, true, true },	/* ANA transition */
	{ 0x302 | NVME_STATUS_DNR, BLK_STS_IOERR, -EREMOTEIO, true, true },
	{ 0x304, BLK_STS_IOERR, -EREMOTEIO, true },	/* reserved, still SCT 3h */
	{ 0x360, BLK_STS_IOERR, -EREMOTEIO, true },	/* controller path error */
	{ 0x370, BLK_STS_IOERR, -EIO, true, false, true },	/* host path error */
	{ 0x371, BLK_STS_IOERR, -EIO, true, false, true },	/* aborted by host */
	{ 0x370 | NVME_STATUS_DNR, BLK_STS_IOERR, -EIO, true, false, true },
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
	KUNIT_EXPECT_EQ(test, rblk_status_is_path(c->status), c->path);
	KUNIT_EXPECT_EQ(test, rblk_status_is_ana(c->status), c->ana);
	KUNIT_EXPECT_EQ(test, rblk_status_is_host_path(c->status), c->host);
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

/* Identify Controller: the multipath and ANA fields at their offsets. */
static void rblk_test_id_ctrl_mpath(struct kunit *test)
{
	struct rblk_ctrl_mpath mp;
	struct nvme_id_ctrl *id;
	u8 *raw;

	id = kunit_kzalloc(test, NVME_IDENTIFY_DATA_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, id);
	raw = (u8 *)id;
	KUNIT_EXPECT_EQ(test, sizeof(*id), NVME_IDENTIFY_DATA_SIZE);

	raw[76] = 0x0b;				/* CMIC: ports, ctrls, ANA */
	raw[342] = 10;				/* ANATT */
	raw[343] = 0x5f;			/* ANACAP */
	put_unaligned_le32(128, raw + 344);	/* ANAGRPMAX */
	put_unaligned_le32(64, raw + 348);	/* NANAGRPID */
	put_unaligned_le32(1024, raw + 516);	/* NN */
	put_unaligned_le32(512, raw + 540);	/* MNAN */
	rblk_ctrl_mpath_from_id(id, &mp);
	KUNIT_EXPECT_EQ(test, mp.cmic, 0x0b);
	KUNIT_EXPECT_TRUE(test, mp.cmic & NVME_CTRL_CMIC_ANA);
	KUNIT_EXPECT_TRUE(test, mp.cmic & NVME_CTRL_CMIC_MULTI_CTRL);
	KUNIT_EXPECT_EQ(test, mp.anatt, 10);
	KUNIT_EXPECT_EQ(test, mp.anacap, 0x5f);
	KUNIT_EXPECT_EQ(test, mp.anagrpmax, 128);
	KUNIT_EXPECT_EQ(test, mp.nanagrpid, 64);
	KUNIT_EXPECT_EQ(test, mp.nn, 1024);
	KUNIT_EXPECT_EQ(test, mp.mnan, 512);

	/* Asynchronous event configuration: ANA notices need CMIC bit 3. */
	KUNIT_EXPECT_EQ(test, rblk_aen_config(0x900, 0x0b), 0x900);
	KUNIT_EXPECT_EQ(test, rblk_aen_config(0x900, 0x03), 0x100);
	KUNIT_EXPECT_EQ(test, rblk_aen_config(0x800, 0x08), 0x800);
	/* Firmware activation and the rest: no handlers, not enabled. */
	KUNIT_EXPECT_EQ(test, rblk_aen_config(0x80000300, 0x08), 0x100);
	KUNIT_EXPECT_EQ(test, rblk_aen_config(0, 0x0b), 0);
}

static void rblk_test_id_subnqn(struct kunit *test)
{
	struct nvme_id_ctrl *id;
	char *nqn;
	u8 *raw;

	id = kunit_kzalloc(test, NVME_IDENTIFY_DATA_SIZE, GFP_KERNEL);
	nqn = kunit_kzalloc(test, RBLK_NQN_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, id);
	KUNIT_ASSERT_NOT_NULL(test, nqn);
	raw = (u8 *)id;

	/* Not reported: empty, and so said. */
	nqn[0] = 'x';
	KUNIT_EXPECT_FALSE(test, rblk_id_subnqn(nqn, id));
	KUNIT_EXPECT_STREQ(test, nqn, "");

	/* SUBNQN is bytes 1023:768, NUL-padded. */
	strscpy((char *)raw + 768, "nqn.2026-12.io.rblk:sub", 256);
	KUNIT_EXPECT_TRUE(test, rblk_id_subnqn(nqn, id));
	KUNIT_EXPECT_STREQ(test, nqn, "nqn.2026-12.io.rblk:sub");

	/* The longest NQN nvme takes, and one character more. */
	memset(raw + 768, 'n', RBLK_NQN_MAX_LEN);
	KUNIT_EXPECT_TRUE(test, rblk_id_subnqn(nqn, id));
	KUNIT_EXPECT_EQ(test, strlen(nqn), RBLK_NQN_MAX_LEN);
	raw[768 + RBLK_NQN_MAX_LEN] = 'n';
	KUNIT_EXPECT_FALSE(test, rblk_id_subnqn(nqn, id));
	KUNIT_EXPECT_STREQ(test, nqn, "");
	/* Unterminated over the whole field. */
	memset(raw + 768, 'n', 256);
	KUNIT_EXPECT_FALSE(test, rblk_id_subnqn(nqn, id));
}

/* Identify Namespace: NMIC (byte 30) and ANAGRPID (bytes 95:92). */
static void rblk_test_ns_mpath(struct kunit *test)
{
	struct rblk_ns_info info;
	struct nvme_id_ns *id;
	u8 *raw;

	id = kunit_kzalloc(test, sizeof(*id), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, id);
	raw = (u8 *)id;
	put_unaligned_le64(1024, raw);		/* NSZE */
	id->lbaf[0].ds = 9;

	KUNIT_ASSERT_EQ(test, rblk_ns_info_from_id(id, 12, &info), 0);
	KUNIT_EXPECT_FALSE(test, info.shared);
	KUNIT_EXPECT_EQ(test, info.anagrpid, 0);

	raw[30] = 0x01;
	put_unaligned_le32(0x01020304, raw + 92);
	KUNIT_ASSERT_EQ(test, rblk_ns_info_from_id(id, 12, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.shared);
	KUNIT_EXPECT_EQ(test, info.anagrpid, 0x01020304);
	KUNIT_EXPECT_EQ(test, info.nsze, 1024);
	/* Bits 7:1 are reserved: only bit 0 says shared. */
	raw[30] = 0xfe;
	KUNIT_ASSERT_EQ(test, rblk_ns_info_from_id(id, 12, &info), 0);
	KUNIT_EXPECT_FALSE(test, info.shared);
}

/*
 * nvme-core's two rules: equal (a namespace seen again, another path to
 * a shared one) compares absent identifiers too; overlap (a new head)
 * compares only identifiers both report.
 */
static void rblk_test_ns_ids_match(struct kunit *test)
{
	static const uuid_t u1 = UUID_INIT(0x11111111, 0x1111, 0x1111, 0x11,
					   0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
					   0x11);
	static const uuid_t u2 = UUID_INIT(0x22222222, 0x2222, 0x2222, 0x22,
					   0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
					   0x22);
	struct rblk_ns_ids none = {}, a = {}, b = {};

	/* Same NGUID and UUID: equal, overlapping. */
	memset(a.nguid, 0xa5, sizeof(a.nguid));
	uuid_copy(&a.uuid, &u1);
	b = a;
	KUNIT_EXPECT_TRUE(test, rblk_ns_ids_equal(&a, &b));
	KUNIT_EXPECT_TRUE(test, rblk_ns_ids_overlap(&a, &b));

	/* A UUID one reports and the other not: a mismatch; NGUID shared. */
	memset(&b.uuid, 0, sizeof(b.uuid));
	KUNIT_EXPECT_FALSE(test, rblk_ns_ids_equal(&a, &b));
	KUNIT_EXPECT_TRUE(test, rblk_ns_ids_overlap(&a, &b));
	KUNIT_EXPECT_TRUE(test, rblk_ns_ids_overlap(&b, &a));

	/* Different UUIDs, same NGUID: still a duplicate. */
	uuid_copy(&b.uuid, &u2);
	KUNIT_EXPECT_FALSE(test, rblk_ns_ids_equal(&a, &b));
	KUNIT_EXPECT_TRUE(test, rblk_ns_ids_overlap(&a, &b));

	/* Nothing in common. */
	memset(b.nguid, 0x5a, sizeof(b.nguid));
	memset(b.eui64, 0x01, sizeof(b.eui64));
	KUNIT_EXPECT_FALSE(test, rblk_ns_ids_overlap(&a, &b));
	KUNIT_EXPECT_FALSE(test, rblk_ns_ids_overlap(&b, &a));

	/* None vs some: not equal; none vs none: equal, no duplicate. */
	KUNIT_EXPECT_FALSE(test, rblk_ns_ids_equal(&none, &a));
	KUNIT_EXPECT_FALSE(test, rblk_ns_ids_equal(&a, &none));
	KUNIT_EXPECT_FALSE(test, rblk_ns_ids_overlap(&none, &a));
	KUNIT_EXPECT_FALSE(test, rblk_ns_ids_overlap(&a, &none));
	KUNIT_EXPECT_TRUE(test, rblk_ns_ids_equal(&none, &none));
	KUNIT_EXPECT_FALSE(test, rblk_ns_ids_overlap(&none, &none));

	/* The EUI-64 alone counts too. */
	b = none;
	memcpy(b.eui64, "\x00\x11\x22\x33\x44\x55\x66\x77", 8);
	a = b;
	KUNIT_EXPECT_TRUE(test, rblk_ns_ids_equal(&a, &b));
	KUNIT_EXPECT_TRUE(test, rblk_ns_ids_overlap(&a, &b));
}

static void rblk_test_ana_log_size(struct kunit *test)
{
	/* nvmet: 128 groups, 1024 namespaces. */
	struct rblk_ctrl_mpath mp = {
		.cmic = NVME_CTRL_CMIC_ANA, .anagrpmax = 128, .nanagrpid = 128,
		.nn = 1024, .mnan = 1024,
	};
	size_t size;

	KUNIT_EXPECT_EQ(test, rblk_ana_log_size(&mp, rblk_mdts_sectors(0, 8),
						&size), 0);
	KUNIT_EXPECT_EQ(test, size, 16 + 128 * 32 + 1024 * 4);
	KUNIT_EXPECT_EQ(test, size % 4, 0);	/* a Get Log Page length */
	KUNIT_EXPECT_EQ(test, rblk_ana_log_size(&mp, U32_MAX, &size), 0);
	/* 17 sectors hold its 8208 bytes, 16 do not. */
	KUNIT_EXPECT_EQ(test, rblk_ana_log_size(&mp, 8208 / 512 + 1, &size), 0);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_size(&mp, 8208 / 512, &size), -E2BIG);
	KUNIT_EXPECT_EQ(test, size, 8208);
	mp.nanagrpid = 0;
	mp.mnan = 1;
	KUNIT_EXPECT_EQ(test, rblk_ana_log_size(&mp, 1, &size), 0);
	KUNIT_EXPECT_EQ(test, size, 20);

	/* The largest counts do not wrap (and fit 2 TiB). */
	mp.nanagrpid = U32_MAX;
	mp.nn = U32_MAX;
	mp.mnan = U32_MAX;
	KUNIT_EXPECT_EQ(test, rblk_ana_log_size(&mp, U32_MAX, &size), 0);
	KUNIT_EXPECT_EQ(test, size, 16 + 36 * (size_t)U32_MAX);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_size(&mp, 2048, &size), -E2BIG);
	KUNIT_EXPECT_EQ(test, size, 16 + 36 * (size_t)U32_MAX);

	/* MNAN 0 or above NN: refused, as nvme. */
	mp.nanagrpid = 128;
	mp.nn = 1024;
	mp.mnan = 0;
	KUNIT_EXPECT_EQ(test, rblk_ana_log_size(&mp, U32_MAX, &size), -EINVAL);
	mp.mnan = 1025;
	KUNIT_EXPECT_EQ(test, rblk_ana_log_size(&mp, U32_MAX, &size), -EINVAL);
	mp.mnan = 1024;
	KUNIT_EXPECT_EQ(test, rblk_ana_log_size(&mp, U32_MAX, &size), 0);
}

struct rblk_test_ana_grp {
	u32 grpid;
	u8 state;
	u32 nr;		/* NSIDs below, at most 4 */
	u32 nsids[4];
};

/* An ANA log page laid out byte by byte: its length. */
static size_t rblk_test_ana_log(u8 *buf, size_t size,
				const struct rblk_test_ana_grp *g, u16 ngrps)
{
	size_t pos = 16;
	u32 i, j;

	memset(buf, 0, size);
	put_unaligned_le64(0x1234, buf);		/* CHGCNT */
	put_unaligned_le16(ngrps, buf + 8);		/* NGRPS */
	for (i = 0; i < ngrps; i++) {
		put_unaligned_le32(g[i].grpid, buf + pos);	/* ANAGRPID */
		put_unaligned_le32(g[i].nr, buf + pos + 4);	/* NNSIDS */
		put_unaligned_le64(100 + i, buf + pos + 8);	/* CHGCNT */
		buf[pos + 16] = g[i].state;			/* ANAS */
		pos += 32;
		for (j = 0; j < g[i].nr; j++, pos += 4)
			put_unaligned_le32(g[i].nsids[j], buf + pos);
	}
	return pos;
}

struct rblk_test_ana_seen {
	unsigned int groups;
	u32 grpid[4];
	u8 state[4];
	u64 chgcnt[4];
	u32 nr_nsids[4];
	u32 nsids[8];
	unsigned int nr_seen;
	unsigned int stop_at;	/* return 1 after this many groups; 0: never */
};

static int rblk_test_ana_cb(const struct rblk_ana_group *g, void *data)
{
	struct rblk_test_ana_seen *s = data;
	u32 i;

	if (s->groups < ARRAY_SIZE(s->grpid)) {
		s->grpid[s->groups] = g->grpid;
		s->state[s->groups] = g->state;
		s->chgcnt[s->groups] = g->chgcnt;
		s->nr_nsids[s->groups] = g->nr_nsids;
	}
	for (i = 0; i < g->nr_nsids; i++)
		if (s->nr_seen < ARRAY_SIZE(s->nsids))
			s->nsids[s->nr_seen++] = rblk_ana_group_nsid(g, i);
	s->groups++;
	return s->groups == s->stop_at ? 1 : 0;
}

static const struct rblk_test_ana_grp rblk_test_ana_good[] = {
	{ 1, NVME_ANA_OPTIMIZED, 2, { 1, 2 } },
	{ 2, NVME_ANA_INACCESSIBLE, 1, { 3 } },
	{ 128, NVME_ANA_CHANGE, 0 },
};

static void rblk_test_ana_log_good(struct kunit *test)
{
	struct rblk_test_ana_seen *s;
	size_t len;
	u8 *buf;

	buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, s);
	len = rblk_test_ana_log(buf, 512, rblk_test_ana_good, 3);
	KUNIT_ASSERT_EQ(test, len, 16 + 3 * 32 + 3 * 4);

	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), 0);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 3,
						 rblk_test_ana_cb, s), 0);
	KUNIT_EXPECT_EQ(test, s->groups, 3);
	KUNIT_EXPECT_EQ(test, s->grpid[0], 1);
	KUNIT_EXPECT_EQ(test, s->state[0], NVME_ANA_OPTIMIZED);
	KUNIT_EXPECT_EQ(test, s->chgcnt[0], 100);
	KUNIT_EXPECT_EQ(test, s->nr_nsids[0], 2);
	KUNIT_EXPECT_EQ(test, s->grpid[1], 2);
	KUNIT_EXPECT_EQ(test, s->state[1], NVME_ANA_INACCESSIBLE);
	KUNIT_EXPECT_EQ(test, s->chgcnt[1], 101);
	KUNIT_EXPECT_EQ(test, s->nr_nsids[1], 1);
	KUNIT_EXPECT_EQ(test, s->grpid[2], 128);
	KUNIT_EXPECT_EQ(test, s->state[2], NVME_ANA_CHANGE);
	/* At offset 92: its change count is 4-byte aligned only. */
	KUNIT_EXPECT_EQ(test, s->chgcnt[2], 102);
	KUNIT_EXPECT_EQ(test, s->nr_nsids[2], 0);
	KUNIT_EXPECT_EQ(test, s->nr_seen, 3);
	KUNIT_EXPECT_EQ(test, s->nsids[0], 1);
	KUNIT_EXPECT_EQ(test, s->nsids[1], 2);
	KUNIT_EXPECT_EQ(test, s->nsids[2], 3);

	/* A buffer longer than the log (the size read): fine. */
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, 512, 128, 128, NULL,
						 NULL), 0);

	/* The callback's non-zero return ends the walk and is returned. */
	memset(s, 0, sizeof(*s));
	s->stop_at = 2;
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128,
						 rblk_test_ana_cb, s), 1);
	KUNIT_EXPECT_EQ(test, s->groups, 2);

	/* No groups: a header alone. */
	memset(s, 0, sizeof(*s));
	len = rblk_test_ana_log(buf, 512, NULL, 0);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128,
						 rblk_test_ana_cb, s), 0);
	KUNIT_EXPECT_EQ(test, s->groups, 0);
}

/* Read with RGO (Return Groups Only): descriptors without NSIDs. */
static void rblk_test_ana_log_rgo(struct kunit *test)
{
	static const struct rblk_test_ana_grp grps[] = {
		{ 1, NVME_ANA_NONOPTIMIZED, 0 },
		{ 2, NVME_ANA_PERSISTENT_LOSS, 0 },
	};
	struct rblk_test_ana_seen *s;
	size_t len;
	u8 *buf;

	buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, s);
	len = rblk_test_ana_log(buf, 512, grps, 2);
	KUNIT_ASSERT_EQ(test, len, 16 + 2 * 32);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 2, 2,
						 rblk_test_ana_cb, s), 0);
	KUNIT_EXPECT_EQ(test, s->groups, 2);
	KUNIT_EXPECT_EQ(test, s->state[1], NVME_ANA_PERSISTENT_LOSS);
	KUNIT_EXPECT_EQ(test, s->nr_seen, 0);
}

static void rblk_test_ana_log_bad(struct kunit *test)
{
	struct rblk_test_ana_grp grps[ARRAY_SIZE(rblk_test_ana_good)];
	struct rblk_test_ana_seen *s;
	size_t len;
	u8 *buf;

	buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, s);
	memcpy(grps, rblk_test_ana_good, sizeof(grps));
	len = rblk_test_ana_log(buf, 512, grps, 3);

	/* Shorter than its header. */
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, 15, 128, 128, NULL,
						 NULL), -EINVAL);
	/* More groups than NANAGRPID. */
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 2, NULL,
						 NULL), -EINVAL);
	/* A group id above ANAGRPMAX. */
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 127, 128, NULL,
						 NULL), -EINVAL);
	/* Cut off in an NSID list, in a descriptor, in the last one. */
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len - 4 - 32, 128, 128,
						 NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len - 4 - 33, 128, 128,
						 NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len - 1, 128, 128,
						 NULL, NULL), -EINVAL);
	/* NGRPS promises a group the log does not have. */
	put_unaligned_le16(4, buf + 8);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), -EINVAL);

	/* Group id 0. */
	grps[1].grpid = 0;
	len = rblk_test_ana_log(buf, 512, grps, 3);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), -EINVAL);
	grps[1].grpid = 2;

	/* States: 0, reserved 05h-0Eh, above 0Fh. */
	grps[2].state = 0;
	len = rblk_test_ana_log(buf, 512, grps, 3);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), -EINVAL);
	grps[2].state = 0x05;
	len = rblk_test_ana_log(buf, 512, grps, 3);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), -EINVAL);
	grps[2].state = 0x1f;
	len = rblk_test_ana_log(buf, 512, grps, 3);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), -EINVAL);
	grps[2].state = NVME_ANA_CHANGE;

	/* A bad last group: the callback saw none of the good ones. */
	grps[2].state = 0x05;
	len = rblk_test_ana_log(buf, 512, grps, 3);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128,
						 rblk_test_ana_cb, s), -EINVAL);
	KUNIT_EXPECT_EQ(test, s->groups, 0);
	grps[2].state = NVME_ANA_CHANGE;

	/* A short NSID list: NNSIDS 3, two NSIDs before the log ends. */
	len = rblk_test_ana_log(buf, 512, grps, 1);
	KUNIT_ASSERT_EQ(test, len, 16 + 32 + 2 * 4);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), 0);
	put_unaligned_le32(3, buf + 16 + 4);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), -EINVAL);
	/* Claiming more, a group swallows the next one's header: refused. */
	len = rblk_test_ana_log(buf, 512, grps, 3);
	put_unaligned_le32(3, buf + 16 + 4);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), -EINVAL);
	/* An NSID count that would wrap a 32-bit length. */
	put_unaligned_le32(0x40000001, buf + 16 + 4);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), -EINVAL);
	put_unaligned_le32(U32_MAX, buf + 16 + 4);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), -EINVAL);
	/*
	 * The last group (at 16 + 40 + 36) claiming 2^30 NSIDs: times 4 that
	 * is 0 in a 32-bit length, and nothing follows it.
	 */
	len = rblk_test_ana_log(buf, 512, grps, 3);
	put_unaligned_le32(0x40000000, buf + 92 + 4);
	KUNIT_EXPECT_EQ(test, rblk_ana_log_parse(buf, len, 128, 128, NULL,
						 NULL), -EINVAL);
}

static void rblk_test_ana_state(struct kunit *test)
{
	unsigned int st;

	KUNIT_EXPECT_TRUE(test, rblk_ana_state_usable(NVME_ANA_OPTIMIZED));
	KUNIT_EXPECT_TRUE(test, rblk_ana_state_usable(NVME_ANA_NONOPTIMIZED));
	KUNIT_EXPECT_FALSE(test, rblk_ana_state_usable(NVME_ANA_INACCESSIBLE));
	KUNIT_EXPECT_FALSE(test, rblk_ana_state_usable(NVME_ANA_PERSISTENT_LOSS));
	KUNIT_EXPECT_FALSE(test, rblk_ana_state_usable(NVME_ANA_CHANGE));
	KUNIT_EXPECT_FALSE(test, rblk_ana_state_usable(0));

	/* Worth waiting for: all but persistent loss. */
	KUNIT_EXPECT_TRUE(test, rblk_ana_state_available(NVME_ANA_OPTIMIZED));
	KUNIT_EXPECT_TRUE(test, rblk_ana_state_available(NVME_ANA_NONOPTIMIZED));
	KUNIT_EXPECT_TRUE(test, rblk_ana_state_available(NVME_ANA_INACCESSIBLE));
	KUNIT_EXPECT_TRUE(test, rblk_ana_state_available(NVME_ANA_CHANGE));
	KUNIT_EXPECT_FALSE(test, rblk_ana_state_available(NVME_ANA_PERSISTENT_LOSS));
	KUNIT_EXPECT_FALSE(test, rblk_ana_state_available(0));

	/* The spec's values, and only those. */
	KUNIT_EXPECT_EQ(test, NVME_ANA_OPTIMIZED, 0x01);
	KUNIT_EXPECT_EQ(test, NVME_ANA_NONOPTIMIZED, 0x02);
	KUNIT_EXPECT_EQ(test, NVME_ANA_INACCESSIBLE, 0x03);
	KUNIT_EXPECT_EQ(test, NVME_ANA_PERSISTENT_LOSS, 0x04);
	KUNIT_EXPECT_EQ(test, NVME_ANA_CHANGE, 0x0f);
	for (st = 0; st <= 0xff; st++)
		KUNIT_EXPECT_EQ_MSG(test, rblk_ana_state_valid(st),
				    (st >= 1 && st <= 4) || st == 0x0f,
				    "state %#x", st);

	KUNIT_EXPECT_STREQ(test, rblk_ana_state_name(NVME_ANA_OPTIMIZED),
			   "optimized");
	KUNIT_EXPECT_STREQ(test, rblk_ana_state_name(NVME_ANA_NONOPTIMIZED),
			   "non-optimized");
	KUNIT_EXPECT_STREQ(test, rblk_ana_state_name(NVME_ANA_INACCESSIBLE),
			   "inaccessible");
	KUNIT_EXPECT_STREQ(test, rblk_ana_state_name(NVME_ANA_PERSISTENT_LOSS),
			   "persistent-loss");
	KUNIT_EXPECT_STREQ(test, rblk_ana_state_name(NVME_ANA_CHANGE),
			   "change");
	KUNIT_EXPECT_STREQ(test, rblk_ana_state_name(0), "invalid state");
	KUNIT_EXPECT_STREQ(test, rblk_ana_state_name(5), "invalid state");
}

/* Completion dword 0: type 2:0, information 15:8, log page 23:16. */
static void rblk_test_aen_ana(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, rblk_aen_is_ana_change(0x000c0302));
	KUNIT_EXPECT_FALSE(test, rblk_aen_is_ana_change(0x00040002));	/* NS */
	KUNIT_EXPECT_FALSE(test, rblk_aen_is_ana_change(0x000c0300));	/* error */
	KUNIT_EXPECT_FALSE(test, rblk_aen_is_ana_change(0x000c0301));	/* SMART */
}

/* The names a failed I/O is logged with: the UAPI's status table. */
static void rblk_test_status_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, rblk_status_name(0x281, true),
			   "Unrecovered Read Error");
	/* More and DNR are not part of the name. */
	KUNIT_EXPECT_STREQ(test, rblk_status_name(0x6006, true),
			   "Internal Error");
	KUNIT_EXPECT_STREQ(test, rblk_status_name(0x180, true),
			   "Conflicting Attributes");
	KUNIT_EXPECT_STREQ(test, rblk_status_name(0x180, false),
			   "Incompatible Format");
	KUNIT_EXPECT_STREQ(test, rblk_status_name(0x191, true),
			   "Authentication Required");
	KUNIT_EXPECT_STREQ(test, rblk_status_name(0x190, true), "Unknown");
	KUNIT_EXPECT_STREQ(test, rblk_status_name(0x7ff, false), "Unknown");
	KUNIT_EXPECT_STREQ(test, rblk_io_opcode_name(nvme_cmd_read), "Read");
	KUNIT_EXPECT_STREQ(test, rblk_io_opcode_name(nvme_cmd_flush), "Flush");
	KUNIT_EXPECT_STREQ(test, rblk_io_opcode_name(0x7f), "Unknown");
}

/* Passthrough: the effects known whatever a log says, as nvme-core's. */
static void rblk_test_known_effects(struct kunit *test)
{
	u32 cse = NVME_CMD_EFFECTS_CSE_MASK;

	KUNIT_EXPECT_EQ(test, rblk_known_effects(false, nvme_admin_format_nvm),
			NVME_CMD_EFFECTS_LBCC | NVME_CMD_EFFECTS_NCC | cse);
	KUNIT_EXPECT_EQ(test, rblk_known_effects(false, nvme_admin_sanitize_nvm),
			NVME_CMD_EFFECTS_LBCC | cse);
	KUNIT_EXPECT_EQ(test, rblk_known_effects(false, nvme_admin_identify), 0);
	KUNIT_EXPECT_EQ(test, rblk_known_effects(true, nvme_cmd_write),
			NVME_CMD_EFFECTS_LBCC);
	KUNIT_EXPECT_EQ(test, rblk_known_effects(true, nvme_cmd_write_zeroes),
			NVME_CMD_EFFECTS_LBCC);
	KUNIT_EXPECT_EQ(test, rblk_known_effects(true, nvme_cmd_read), 0);
	/* Opcode 0x80 is Format NVM only among admin commands. */
	KUNIT_EXPECT_EQ(test, rblk_known_effects(true, nvme_admin_format_nvm), 0);
}

/* --- DH-HMAC-CHAP messages --- */

static void rblk_test_auth_cmds(struct kunit *test)
{
	struct nvme_command cmd = {};

	rblk_cmd_auth_send(&cmd, 0x123);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[0], 0x7f);	/* Fabrics opcode */
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[4], 0x05);	/* Authentication Send */
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[40], 0);	/* reserved */
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[41], 0x01);	/* SPSP0 */
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[42], 0x01);	/* SPSP1 */
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[43], 0xe9);	/* SECP */
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 44), 0x123);	/* TL */
	KUNIT_EXPECT_TRUE(test, nvme_is_write(&cmd));

	memset(&cmd, 0, sizeof(cmd));
	rblk_cmd_auth_receive(&cmd, 4096);
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[4], 0x06);	/* Authentication Receive */
	KUNIT_EXPECT_EQ(test, sqe(&cmd)[43], 0xe9);
	KUNIT_EXPECT_EQ(test, le32_at(&cmd, 44), 4096);	/* AL */
	KUNIT_EXPECT_FALSE(test, nvme_is_write(&cmd));
}

static void rblk_test_auth_names(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rblk_auth_hash_len(0), 0);
	KUNIT_EXPECT_EQ(test, rblk_auth_hash_len(1), 32);
	KUNIT_EXPECT_EQ(test, rblk_auth_hash_len(2), 48);
	KUNIT_EXPECT_EQ(test, rblk_auth_hash_len(3), 64);
	KUNIT_EXPECT_EQ(test, rblk_auth_hash_len(4), 0);
	KUNIT_EXPECT_EQ(test, rblk_auth_hash_len(0xff), 0);
	KUNIT_EXPECT_EQ(test, rblk_auth_dhgroup_len(0), 0);
	KUNIT_EXPECT_EQ(test, rblk_auth_dhgroup_len(1), 256);
	KUNIT_EXPECT_EQ(test, rblk_auth_dhgroup_len(5), 1024);
	KUNIT_EXPECT_EQ(test, rblk_auth_dhgroup_len(6), -EINVAL);
	KUNIT_EXPECT_STREQ(test, rblk_auth_hash_name(2), "hmac(sha384)");
	KUNIT_EXPECT_STREQ(test, rblk_auth_hash_name(0), "unknown");
	KUNIT_EXPECT_STREQ(test, rblk_auth_dhgroup_name(0), "null");
	KUNIT_EXPECT_STREQ(test, rblk_auth_dhgroup_name(3), "ffdhe4096");
	KUNIT_EXPECT_STREQ(test, rblk_auth_dhgroup_name(6), "unknown");
	KUNIT_EXPECT_STREQ(test, rblk_auth_failure_name(1), "Failed");
	KUNIT_EXPECT_STREQ(test, rblk_auth_failure_name(7),
			   "Incorrect Protocol Message");
	KUNIT_EXPECT_STREQ(test, rblk_auth_failure_name(0), "Unknown");
	KUNIT_EXPECT_STREQ(test, rblk_auth_failure_name(8), "Unknown");
}

static void rblk_test_dhchap_secret(struct kunit *test)
{
	/* 32 bytes and CRC: 48 base64 characters. */
	static const char good[] =
		"DHHC-1:00:ia6zGodOr4SEG0Zzaw398rpY0wqipUWj4jWjUh4HWUz6aQ2n:";
	char buf[RBLK_DHCHAP_SECRET_MAX_LEN + 2];

	KUNIT_EXPECT_TRUE(test, rblk_dhchap_secret_valid(good));
	KUNIT_EXPECT_TRUE(test, rblk_dhchap_secret_valid("DHHC-1:03:a+/=:"));
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid(""));
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid("DHHC-1:00::"));
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid("DHHC-2:00:abcd:"));
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid("dhhc-1:00:abcd:"));
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid("DHHC-1:04:abcd:"));
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid("DHHC-1:10:abcd:"));
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid("DHHC-1:0:abcd:"));
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid("DHHC-1:00:abcd"));
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid("DHHC-1:00:ab cd:"));
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid("DHHC-1:00:ab:cd:"));
	/* The longest accepted, and one more. */
	memset(buf, 'A', sizeof(buf));
	memcpy(buf, "DHHC-1:01:", 10);
	buf[RBLK_DHCHAP_SECRET_MAX_LEN - 1] = ':';
	buf[RBLK_DHCHAP_SECRET_MAX_LEN] = '\0';
	KUNIT_EXPECT_TRUE(test, rblk_dhchap_secret_valid(buf));
	buf[RBLK_DHCHAP_SECRET_MAX_LEN - 1] = 'A';
	buf[RBLK_DHCHAP_SECRET_MAX_LEN] = ':';
	buf[RBLK_DHCHAP_SECRET_MAX_LEN + 1] = '\0';
	KUNIT_EXPECT_FALSE(test, rblk_dhchap_secret_valid(buf));
}

static void rblk_test_auth_negotiate(struct kunit *test)
{
	u8 buf[80];
	int len, i;

	memset(buf, 0xaa, sizeof(buf));
	KUNIT_EXPECT_EQ(test, rblk_auth_negotiate(buf, 71, 7), -EINVAL);
	len = rblk_auth_negotiate(buf, sizeof(buf), 0x1234);
	/* 8-byte header and one 64-byte protocol descriptor. */
	KUNIT_ASSERT_EQ(test, len, 72);
	KUNIT_EXPECT_EQ(test, buf[0], 0x00);	/* common message */
	KUNIT_EXPECT_EQ(test, buf[1], 0x00);	/* AUTH_Negotiate */
	KUNIT_EXPECT_EQ(test, le16_at(buf, 2), 0);
	KUNIT_EXPECT_EQ(test, le16_at(buf, 4), 0x1234);	/* T_ID */
	KUNIT_EXPECT_EQ(test, buf[6], 0);	/* SC_C */
	KUNIT_EXPECT_EQ(test, buf[7], 1);	/* NAPD */
	KUNIT_EXPECT_EQ(test, buf[8], 0x01);	/* AUTHID DH-HMAC-CHAP */
	KUNIT_EXPECT_EQ(test, buf[10], 3);	/* HALEN */
	KUNIT_EXPECT_EQ(test, buf[11], 6);	/* DHLEN */
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, buf[12 + i], i + 1);
	for (i = 3; i < 30; i++)
		KUNIT_EXPECT_EQ(test, buf[12 + i], 0);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, buf[12 + 30 + i], i);
	for (i = 36; i < 60; i++)
		KUNIT_EXPECT_EQ(test, buf[12 + i], 0);
	KUNIT_EXPECT_EQ(test, buf[72], 0xaa);	/* nothing beyond */
}

/* A Challenge: hash @hashid, group @dhgid, T_ID 5, S1 0x01020304. */
static size_t rblk_test_challenge(u8 *buf, u8 hashid, u8 hl, u8 dhgid,
				  u16 dhvlen)
{
	memset(buf, 0, RBLK_AUTH_BUF_SIZE);
	buf[0] = 0x01;	/* DH-HMAC-CHAP message */
	buf[1] = 0x01;	/* Challenge */
	put_unaligned_le16(5, buf + 4);
	buf[6] = hl;
	buf[8] = hashid;
	buf[9] = dhgid;
	put_unaligned_le16(dhvlen, buf + 10);
	put_unaligned_le32(0x01020304, buf + 12);
	memset(buf + 16, 0xc1, hl);
	memset(buf + 16 + hl, 0xd1, dhvlen);
	return 16 + hl + dhvlen;
}

static void rblk_test_auth_challenge(struct kunit *test)
{
	struct rblk_auth_challenge ch = {};
	u8 reason = 0xff;
	size_t len;
	u8 *buf;

	buf = kunit_kmalloc(test, RBLK_AUTH_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);

	/* SHA-256, null group. */
	len = rblk_test_challenge(buf, 1, 32, 0, 0);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), 0);
	KUNIT_EXPECT_EQ(test, reason, 0);
	KUNIT_EXPECT_EQ(test, ch.hashid, 1);
	KUNIT_EXPECT_EQ(test, ch.dhgid, 0);
	KUNIT_EXPECT_EQ(test, ch.hl, 32);
	KUNIT_EXPECT_EQ(test, ch.dhvlen, 0);
	KUNIT_EXPECT_EQ(test, ch.s1, 0x01020304);
	KUNIT_EXPECT_PTR_EQ(test, ch.c1, (const u8 *)buf + 16);
	KUNIT_EXPECT_NULL(test, ch.dhv);
	/* One byte short. */
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len - 1, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 6);	/* incorrect payload */

	/* SHA-512 with ffdhe8192: the largest, in the 4 KiB buffer. */
	len = rblk_test_challenge(buf, 3, 64, 5, 1024);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), 0);
	KUNIT_EXPECT_EQ(test, ch.dhvlen, 1024);
	KUNIT_EXPECT_PTR_EQ(test, ch.dhv, (const u8 *)buf + 16 + 64);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len - 1, 5, &ch,
							&reason), -EPROTO);

	/* Shorter than the fixed header. */
	len = rblk_test_challenge(buf, 1, 32, 0, 0);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, 15, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, 7, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 7);	/* incorrect message */
	/* Wrong T_ID, type, identifier. */
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 6, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 7);
	buf[0] = 0x00;
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), -EPROTO);
	buf[0] = 0x01;
	buf[1] = 0x03;	/* a Success1 */
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 7);

	/* Unknown hash; HL not its length. */
	len = rblk_test_challenge(buf, 4, 32, 0, 0);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 4);	/* hash not usable */
	len = rblk_test_challenge(buf, 0, 32, 0, 0);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 4);
	len = rblk_test_challenge(buf, 2, 32, 0, 0);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 6);

	/* Unknown group; DHVLEN not its value's; DHVLEN with null. */
	len = rblk_test_challenge(buf, 1, 32, 6, 256);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 5);	/* group not usable */
	len = rblk_test_challenge(buf, 1, 32, 1, 255);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 6);
	len = rblk_test_challenge(buf, 1, 32, 1, 512);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), -EPROTO);
	len = rblk_test_challenge(buf, 1, 32, 0, 256);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 6);
	/* A DHVLEN that would reach beyond the buffer. */
	len = rblk_test_challenge(buf, 1, 32, 1, 256);
	put_unaligned_le16(0xffff, buf + 10);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, len, 5, &ch,
							&reason), -EPROTO);
}

static void rblk_test_auth_failure1(struct kunit *test)
{
	struct rblk_auth_challenge ch;
	const u8 *r2 = NULL;
	u8 buf[16] = {};
	u8 reason, i;

	buf[0] = 0x00;	/* common message */
	buf[1] = 0xf1;	/* AUTH_Failure1 */
	put_unaligned_le16(5, buf + 4);
	buf[6] = 0x01;	/* Failed */
	for (i = 1; i <= 7; i++) {
		buf[7] = i;
		reason = 0;
		KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, 8, 5,
								&ch, &reason),
				-EKEYREJECTED);
		KUNIT_EXPECT_EQ(test, reason, i);
		reason = 0;
		KUNIT_EXPECT_EQ(test, rblk_auth_parse_success1(buf, 8, 5, 32,
							       true, &r2,
							       &reason),
				-EKEYREJECTED);
		KUNIT_EXPECT_EQ(test, reason, i);
	}
	/* Another transaction's. */
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, 8, 4, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 7);
	/* Truncated. */
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_challenge(buf, 7, 5, &ch,
							&reason), -EPROTO);
	KUNIT_EXPECT_NULL(test, r2);
}

static void rblk_test_auth_reply(struct kunit *test)
{
	u8 r1[48], c2[48], dhv[384];
	u8 *buf;
	int len;

	buf = kunit_kmalloc(test, RBLK_AUTH_BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(r1, 0x11, sizeof(r1));
	memset(c2, 0x22, sizeof(c2));
	memset(dhv, 0x33, sizeof(dhv));

	/* Unidirectional, null group: C2's room zeroed, S2 0. */
	memset(buf, 0xaa, RBLK_AUTH_BUF_SIZE);
	len = rblk_auth_reply(buf, RBLK_AUTH_BUF_SIZE, 9, 32, r1, NULL, 77,
			      NULL, 0);
	KUNIT_ASSERT_EQ(test, len, 16 + 2 * 32);
	KUNIT_EXPECT_EQ(test, buf[0], 0x01);
	KUNIT_EXPECT_EQ(test, buf[1], 0x02);	/* Reply */
	KUNIT_EXPECT_EQ(test, le16_at(buf, 2), 0);
	KUNIT_EXPECT_EQ(test, le16_at(buf, 4), 9);
	KUNIT_EXPECT_EQ(test, buf[6], 32);	/* HL */
	KUNIT_EXPECT_EQ(test, buf[7], 0);
	KUNIT_EXPECT_EQ(test, buf[8], 0);	/* CVALID */
	KUNIT_EXPECT_EQ(test, buf[9], 0);
	KUNIT_EXPECT_EQ(test, le16_at(buf, 10), 0);	/* DHVLEN */
	KUNIT_EXPECT_EQ(test, le32_at(buf, 12), 0);	/* SEQNUM */
	KUNIT_EXPECT_EQ(test, memcmp(buf + 16, r1, 32), 0);
	KUNIT_EXPECT_FALSE(test, memchr_inv(buf + 48, 0, 32));
	KUNIT_EXPECT_EQ(test, buf[80], 0xaa);

	/* Bidirectional with ffdhe3072. */
	len = rblk_auth_reply(buf, RBLK_AUTH_BUF_SIZE, 9, 48, r1, c2,
			      0x0a0b0c0d, dhv, sizeof(dhv));
	KUNIT_ASSERT_EQ(test, len, 16 + 2 * 48 + 384);
	KUNIT_EXPECT_EQ(test, buf[8], 1);
	KUNIT_EXPECT_EQ(test, le16_at(buf, 10), 384);
	KUNIT_EXPECT_EQ(test, le32_at(buf, 12), 0x0a0b0c0d);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 16, r1, 48), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 64, c2, 48), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 112, dhv, 384), 0);

	/* Too small a buffer; a length without a value. */
	KUNIT_EXPECT_EQ(test, rblk_auth_reply(buf, 16 + 2 * 48 + 383, 9, 48,
					      r1, c2, 1, dhv, sizeof(dhv)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rblk_auth_reply(buf, RBLK_AUTH_BUF_SIZE, 9, 48,
					      r1, c2, 1, NULL, 384), -EINVAL);
}

static void rblk_test_auth_success1(struct kunit *test)
{
	const u8 *r2 = NULL;
	u8 buf[16 + 64];
	u8 reason;

	memset(buf, 0, sizeof(buf));
	buf[0] = 0x01;
	buf[1] = 0x03;	/* Success1 */
	put_unaligned_le16(5, buf + 4);
	buf[6] = 32;	/* HL */
	memset(buf + 16, 0x44, 32);

	/* Unidirectional: no response asked, none given. */
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_success1(buf, 16, 5, 32, false,
						       &r2, &reason), 0);
	KUNIT_EXPECT_NULL(test, r2);
	/* A response never asked for. */
	buf[8] = 0x01;	/* RVALID */
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_success1(buf, 48, 5, 32, false,
						       &r2, &reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 1);
	/* Bidirectional: the response, in full. */
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_success1(buf, 48, 5, 32, true,
						       &r2, &reason), 0);
	KUNIT_EXPECT_PTR_EQ(test, r2, (const u8 *)buf + 16);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_success1(buf, 47, 5, 32, true,
						       &r2, &reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 6);
	/* No response to the host's challenge: an impostor's answer. */
	buf[8] = 0;
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_success1(buf, 48, 5, 32, true,
						       &r2, &reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 1);
	/* HL not the Challenge's; wrong T_ID; wrong identifier; short. */
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_success1(buf, 48, 5, 48, false,
						       &r2, &reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 6);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_success1(buf, 48, 4, 32, false,
						       &r2, &reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 7);
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_success1(buf, 15, 5, 32, false,
						       &r2, &reason), -EPROTO);
	buf[1] = 0x01;
	KUNIT_EXPECT_EQ(test, rblk_auth_parse_success1(buf, 48, 5, 32, false,
						       &r2, &reason), -EPROTO);
	KUNIT_EXPECT_EQ(test, reason, 7);
}

static void rblk_test_auth_success2_failure2(struct kunit *test)
{
	u8 buf[20];

	memset(buf, 0xaa, sizeof(buf));
	KUNIT_EXPECT_EQ(test, rblk_auth_success2(buf, 15, 3), -EINVAL);
	KUNIT_ASSERT_EQ(test, rblk_auth_success2(buf, sizeof(buf), 0xbeef),
			16);
	KUNIT_EXPECT_EQ(test, buf[0], 0x01);
	KUNIT_EXPECT_EQ(test, buf[1], 0x04);	/* Success2 */
	KUNIT_EXPECT_EQ(test, le16_at(buf, 4), 0xbeef);
	KUNIT_EXPECT_FALSE(test, memchr_inv(buf + 6, 0, 10));
	KUNIT_EXPECT_EQ(test, buf[16], 0xaa);

	memset(buf, 0xaa, sizeof(buf));
	KUNIT_EXPECT_EQ(test, rblk_auth_failure2(buf, 7, 3, 1), -EINVAL);
	KUNIT_ASSERT_EQ(test, rblk_auth_failure2(buf, sizeof(buf), 0x0102, 6),
			8);
	KUNIT_EXPECT_EQ(test, buf[0], 0x00);	/* common message */
	KUNIT_EXPECT_EQ(test, buf[1], 0xf0);	/* AUTH_Failure2 */
	KUNIT_EXPECT_EQ(test, le16_at(buf, 2), 0);
	KUNIT_EXPECT_EQ(test, le16_at(buf, 4), 0x0102);
	KUNIT_EXPECT_EQ(test, buf[6], 0x01);	/* reason code: Failed */
	KUNIT_EXPECT_EQ(test, buf[7], 6);	/* its explanation */
	KUNIT_EXPECT_EQ(test, buf[8], 0xaa);
}

/* The bound on reconnects a target asks for with 191h. */
static void rblk_test_reauth_window(struct kunit *test)
{
	u64 now = 1000000, start = 0;
	unsigned int count = 0, i;

	/* The first ask opens a window. */
	KUNIT_EXPECT_TRUE(test, rblk_reauth_window(&start, &count, now));
	KUNIT_EXPECT_EQ(test, start, now);
	for (i = 0; i < RBLK_MAX_REAUTHS; i++) {
		KUNIT_EXPECT_TRUE(test, rblk_reauth_window(&start, &count,
							   now + i));
		count++;
	}
	/* The budget spent, to the window's last jiffy. */
	KUNIT_EXPECT_FALSE(test, rblk_reauth_window(&start, &count, now + 1));
	KUNIT_EXPECT_FALSE(test, rblk_reauth_window(&start, &count,
						    now + RBLK_REAUTH_WINDOW));
	KUNIT_EXPECT_EQ(test, count, RBLK_MAX_REAUTHS);
	/* A new window after it. */
	KUNIT_EXPECT_TRUE(test, rblk_reauth_window(&start, &count,
						   now + RBLK_REAUTH_WINDOW + 1));
	KUNIT_EXPECT_EQ(test, count, 0U);
	KUNIT_EXPECT_EQ(test, start, now + RBLK_REAUTH_WINDOW + 1);
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
	KUNIT_CASE(rblk_test_id_ctrl_mpath),
	KUNIT_CASE(rblk_test_id_subnqn),
	KUNIT_CASE(rblk_test_ns_mpath),
	KUNIT_CASE(rblk_test_ns_ids_match),
	KUNIT_CASE(rblk_test_ana_log_size),
	KUNIT_CASE(rblk_test_ana_log_good),
	KUNIT_CASE(rblk_test_ana_log_rgo),
	KUNIT_CASE(rblk_test_ana_log_bad),
	KUNIT_CASE(rblk_test_ana_state),
	KUNIT_CASE(rblk_test_aen_ana),
	KUNIT_CASE(rblk_test_known_effects),
	KUNIT_CASE(rblk_test_status_names),
	KUNIT_CASE(rblk_test_auth_cmds),
	KUNIT_CASE(rblk_test_auth_names),
	KUNIT_CASE(rblk_test_dhchap_secret),
	KUNIT_CASE(rblk_test_auth_negotiate),
	KUNIT_CASE(rblk_test_auth_challenge),
	KUNIT_CASE(rblk_test_auth_failure1),
	KUNIT_CASE(rblk_test_auth_reply),
	KUNIT_CASE(rblk_test_auth_success1),
	KUNIT_CASE(rblk_test_auth_success2_failure2),
	KUNIT_CASE(rblk_test_reauth_window),
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
