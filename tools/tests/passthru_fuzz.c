// SPDX-License-Identifier: GPL-2.0
/*
 * passthru_fuzz - malformed NVMe passthrough ioctls
 *
 *   passthru_fuzz DEVICE ITERATIONS SEED
 *   passthru_fuzz --submit-io read|write DEVICE SLBA NBLOCKS BLOCK_SIZE FILE
 *   passthru_fuzz --read-loop DEVICE NSID COUNT TIMEOUT_MS SLBA NBLOCKS \
 *                 BLOCK_SIZE FILE
 *
 * Sends ITERATIONS ioctls of <linux/nvme_ioctl.h> to DEVICE (a controller's
 * character device or a namespace's block device) with random opcodes,
 * flags, namespace ids, lengths (0, odd, huge), buffers (NULL, unaligned,
 * unmapped, read-only) and metadata.  Opcodes with lasting effects
 * (Format NVM, Sanitize, Namespace Management and Attachment, Firmware,
 * Set Features, Security Send, writes) or without an answer (Asynchronous
 * Event Request) become Identify or Read, so the target stays as it was.  Every call must return (an errno or an NVMe
 * status); the kernel log is the test's to check.  Run in the test guest
 * by selftests/rblk/passthru.sh.
 *
 * Prints "calls N ok N status N errno N" and exits 0, or 2 on usage or
 * setup errors.
 *
 * --submit-io: one NVME_IOCTL_SUBMIT_IO (which nvme-cli 2.x no longer
 * uses) of NBLOCKS blocks at SLBA, reading into FILE or writing FILE's
 * first bytes; exits 0 if the command succeeded, 1 with the status or
 * errno printed if not.
 *
 * --read-loop: COUNT Reads of NBLOCKS blocks at SLBA of namespace NSID,
 * through NVME_IOCTL_IO_CMD and NVME_IOCTL_IO64_CMD in turn, and after
 * every fourth an Identify Namespace through NVME_IOCTL_ADMIN_CMD or
 * NVME_IOCTL_ADMIN64_CMD in turn, all with TIMEOUT_MS, on DEVICE opened
 * read-only (what a user with read access may send).  One process sends
 * them all: an nvme-cli per command costs a slow guest far more than the
 * command.  Every command must succeed and every Read return what the
 * first did, which goes to FILE; prints "reads N identifies N" and exits
 * 0, or exits 1 at the first that did not, naming it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define BUF_SIZE	(1U << 20)

static uint64_t rnd_state;

static uint32_t rnd(void)
{
	/* xorshift64: the same sequence for the same seed. */
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state >> 16);
}

/* Opcodes whose effects would outlast the test: Identify instead. */
static uint8_t harmless(uint8_t opcode, int admin)
{
	static const uint8_t admin_bad[] = {
		0x09,		/* Set Features */
		0x0c,		/* Asynchronous Event Request: never answered */
		0x0d,		/* Namespace Management */
		0x10, 0x11,	/* Firmware Commit, Image Download */
		0x15,		/* Namespace Attachment */
		0x19,		/* Directive Send */
		0x1c, 0x1d,	/* Virtualization Management, NVMe-MI Send */
		0x7c,		/* Doorbell Buffer Config */
		0x80, 0x81, 0x84,	/* Format NVM, Security Send, Sanitize */
	};
	size_t i;

	if (!admin)
		/* Writes, Write Uncorrectable, Write Zeroes, Dataset Mgmt... */
		return (opcode & 1) || opcode == 0x04 || opcode == 0x08 ||
		       opcode == 0x09 || opcode >= 0x0d ? 0x02 : opcode;
	for (i = 0; i < sizeof(admin_bad); i++)
		if (opcode == admin_bad[i])
			return 0x06;
	return opcode;
}

static uint64_t pick_buf(uint8_t *buf, uint8_t *ro)
{
	switch (rnd() % 6) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)(buf + 1 + rnd() % 4095);	/* unaligned */
	case 2:
		return 0x1000;					/* unmapped */
	case 3:
		return (uintptr_t)ro;				/* read-only */
	case 4:
		return ~0ULL - 4095;
	default:
		return (uintptr_t)buf;
	}
}

static uint32_t pick_len(void)
{
	switch (rnd() % 6) {
	case 0:
		return 0;
	case 1:
		return 1 + rnd() % 511;		/* not a multiple of 4 */
	case 2:
		return 4096;
	case 3:
		return BUF_SIZE;
	case 4:
		return 0xffffffffU;
	default:
		return rnd() % BUF_SIZE;
	}
}

static int submit_io(char **argv)
{
	unsigned long nblocks = strtoul(argv[4], NULL, 0);
	unsigned long bs = strtoul(argv[5], NULL, 0);
	int write = !strcmp(argv[1], "write");
	struct nvme_user_io io;
	size_t len = nblocks * bs;
	void *buf;
	int fd, f, ret;

	if (!nblocks || !bs || posix_memalign(&buf, 4096, len))
		return 2;
	fd = open(argv[2], write ? O_RDWR : O_RDONLY);
	f = open(argv[6], write ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || f < 0) {
		perror("open");
		return 2;
	}
	if (write && read(f, buf, len) != (ssize_t)len) {
		fprintf(stderr, "%s: shorter than %zu bytes\n", argv[6], len);
		return 2;
	}
	memset(&io, 0, sizeof(io));
	io.opcode = write ? 0x01 : 0x02;
	io.slba = strtoull(argv[3], NULL, 0);
	io.nblocks = nblocks - 1;
	io.addr = (uintptr_t)buf;
	ret = ioctl(fd, NVME_IOCTL_SUBMIT_IO, &io);
	if (ret) {
		if (ret > 0)
			fprintf(stderr, "NVMe status %#x\n", ret);
		else
			perror("NVME_IOCTL_SUBMIT_IO");
		return 1;
	}
	if (!write && (size_t)pwrite(f, buf, len, 0) != len) {
		perror(argv[6]);
		return 2;
	}
	return 0;
}

/* One passthrough ioctl; the 64-bit forms get @c's fields. */
static int passthru(int fd, unsigned long req, struct nvme_passthru_cmd *c)
{
	struct nvme_passthru_cmd64 c64;

	if (req != NVME_IOCTL_IO64_CMD && req != NVME_IOCTL_ADMIN64_CMD)
		return ioctl(fd, req, c);
	memset(&c64, 0, sizeof(c64));
	memcpy(&c64, c, offsetof(struct nvme_passthru_cmd, result));
	return ioctl(fd, req, &c64);
}

static int loop_failed(const char *what, unsigned long i, int ret)
{
	if (ret > 0)
		fprintf(stderr, "%s %lu: NVMe status %#x\n", what, i, ret);
	else
		fprintf(stderr, "%s %lu: %s\n", what, i, strerror(errno));
	return 1;
}

static int read_loop(char **argv)
{
	uint32_t nsid = strtoul(argv[2], NULL, 0);
	unsigned long count = strtoul(argv[3], NULL, 0);
	uint32_t timeout_ms = strtoul(argv[4], NULL, 0);
	uint64_t slba = strtoull(argv[5], NULL, 0);
	unsigned long nblocks = strtoul(argv[6], NULL, 0);
	unsigned long bs = strtoul(argv[7], NULL, 0);
	size_t len = nblocks * bs;
	unsigned long i, ids = 0;
	void *first, *buf, *id;
	int fd, f, ret;

	if (!count || !nblocks || nblocks > 65536 || !bs || bs > 65536 ||
	    posix_memalign(&first, 4096, len) ||
	    posix_memalign(&buf, 4096, len) || posix_memalign(&id, 4096, 4096))
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	for (i = 0; i < count; i++) {
		struct nvme_passthru_cmd c;

		/* A Read that moves no data must not pass as the last one's. */
		memset(i ? buf : first, 0xa5 ^ (int)(i & 0xff), len);
		memset(&c, 0, sizeof(c));
		c.opcode = 0x02;
		c.nsid = nsid;
		c.addr = (uintptr_t)(i ? buf : first);
		c.data_len = len;
		c.cdw10 = (uint32_t)slba;
		c.cdw11 = slba >> 32;
		c.cdw12 = nblocks - 1;
		c.timeout_ms = timeout_ms;
		ret = passthru(fd, i % 2 ? NVME_IOCTL_IO64_CMD : NVME_IOCTL_IO_CMD,
			       &c);
		if (ret)
			return loop_failed("read", i, ret);
		if (i && memcmp(buf, first, len)) {
			fprintf(stderr, "read %lu: not the data of read 0\n", i);
			return 1;
		}
		if (i % 4 != 3)
			continue;
		memset(&c, 0, sizeof(c));
		c.opcode = 0x06;	/* CNS 0: the namespace */
		c.nsid = nsid;
		c.addr = (uintptr_t)id;
		c.data_len = 4096;
		c.timeout_ms = timeout_ms;
		ret = passthru(fd, ids % 2 ? NVME_IOCTL_ADMIN64_CMD :
			       NVME_IOCTL_ADMIN_CMD, &c);
		if (ret)
			return loop_failed("identify", ids, ret);
		ids++;
	}
	f = open(argv[8], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (f < 0) {
		perror(argv[8]);
		return 2;
	}
	if (write(f, first, len) != (ssize_t)len || close(f)) {
		fprintf(stderr, "%s: short write or close\n", argv[8]);
		return 2;
	}
	close(fd);
	printf("reads %lu identifies %lu\n", count, ids);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long calls, i, ok = 0, status = 0, err = 0;
	uint8_t *buf, *ro;
	int fd;

	if (argc == 8 && !strcmp(argv[1], "--submit-io"))
		return submit_io(argv + 1);
	if (argc == 10 && !strcmp(argv[1], "--read-loop"))
		return read_loop(argv + 1);
	if (argc != 4) {
		fprintf(stderr, "usage: %s DEVICE ITERATIONS SEED\n"
			"       %s --submit-io read|write DEVICE SLBA NBLOCKS BLOCK_SIZE FILE\n"
			"       %s --read-loop DEVICE NSID COUNT TIMEOUT_MS SLBA NBLOCKS BLOCK_SIZE FILE\n",
			argv[0], argv[0], argv[0]);
		return 2;
	}
	calls = strtoul(argv[2], NULL, 0);
	rnd_state = strtoull(argv[3], NULL, 0) | 1;
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro = mmap(NULL, BUF_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || ro == MAP_FAILED) {
		perror("mmap");
		return 2;
	}

	for (i = 0; i < calls; i++) {
		struct nvme_passthru_cmd64 c64;
		struct nvme_passthru_cmd c;
		struct nvme_user_io io;
		unsigned long req;
		void *arg;
		int kind = rnd() % 5, admin = kind < 2, ret;

		memset(&c, 0, sizeof(c));
		c.opcode = harmless(rnd() % 256, admin);
		c.flags = rnd() % 8 ? 0 : rnd();
		c.nsid = rnd() % 4 ? rnd() % 4 : rnd();
		c.cdw10 = rnd() % 2 ? 1 : rnd();	/* Identify Controller */
		c.cdw11 = rnd();
		c.addr = pick_buf(buf, ro);
		c.data_len = pick_len();
		if (!(rnd() % 8)) {
			c.metadata = pick_buf(buf, ro);
			c.metadata_len = pick_len();
		}
		/* Not so short that the target's answer is called a timeout. */
		c.timeout_ms = rnd() % 4 ? 0 : 10000 + rnd() % 10000;

		switch (kind) {
		case 0:
			req = NVME_IOCTL_ADMIN_CMD;
			arg = &c;
			break;
		case 1:
			memset(&c64, 0, sizeof(c64));
			memcpy(&c64, &c, offsetof(struct nvme_passthru_cmd, result));
			req = NVME_IOCTL_ADMIN64_CMD;
			arg = &c64;
			break;
		case 2:
			req = NVME_IOCTL_IO_CMD;
			arg = &c;
			break;
		case 3:
			memset(&io, 0, sizeof(io));
			io.opcode = rnd() % 4 ? 0x02 : rnd() % 256;
			if (io.opcode != 0x02 && io.opcode != 0x05)
				io.opcode = 0x02;	/* never a write */
			io.flags = rnd() % 8 ? 0 : rnd();
			io.nblocks = rnd() % 4 ? rnd() % 64 : rnd();
			io.slba = rnd() % 2 ? rnd() % 1024 : (uint64_t)rnd() << 32;
			io.addr = pick_buf(buf, ro);
			io.metadata = rnd() % 8 ? 0 : pick_buf(buf, ro);
			req = NVME_IOCTL_SUBMIT_IO;
			arg = &io;
			break;
		default:
			/* A bad pointer to the structure itself. */
			req = rnd() % 2 ? NVME_IOCTL_ADMIN_CMD : NVME_IOCTL_IO_CMD;
			arg = (void *)(uintptr_t)(rnd() % 2 ? 0x10 : 0x1000);
			break;
		}
		ret = ioctl(fd, req, arg);
		if (ret == 0)
			ok++;
		else if (ret > 0)
			status++;
		else
			err++;
	}
	printf("calls %lu ok %lu status %lu errno %lu\n", calls, ok, status,
	       err);
	close(fd);
	return 0;
}
