// SPDX-License-Identifier: GPL-2.0
/*
 * iopoll_idle - a polled read that no one reaps for a while
 *
 *   iopoll_idle DEVICE OFFSET SECONDS OUTFILE
 *
 * Submits one 4 KiB O_DIRECT read at OFFSET (bytes) on an io_uring set up
 * with IORING_SETUP_IOPOLL, so it goes to a poll queue, then sleeps
 * SECONDS without asking for completions: only a poll by the kernel
 * itself can complete it meanwhile.  Then it reaps the read and writes the
 * data to OUTFILE.  Run in the test guest by selftests/rblk/poll_idle.sh.
 * Raw system calls: no liburing in the guest.
 *
 * Exit: 0 the read returned 4096 bytes, 1 it failed, 2 usage or setup.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BS 4096

static int setup(unsigned int entries, struct io_uring_params *p)
{
	return syscall(__NR_io_uring_setup, entries, p);
}

static int enter(int fd, unsigned int submit, unsigned int min_complete,
		 unsigned int flags)
{
	return syscall(__NR_io_uring_enter, fd, submit, min_complete, flags,
		       NULL, 0);
}

static void *map(int fd, size_t len, off_t off)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, fd, off);

	if (p == MAP_FAILED) {
		perror("iopoll_idle: mmap");
		exit(2);
	}
	return p;
}

int main(int argc, char **argv)
{
	struct io_uring_params p = { .flags = IORING_SETUP_IOPOLL };
	unsigned int *sq_tail, *sq_array, *cq_head, *cq_tail;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqe;
	void *sq, *cq, *buf;
	int ring, dev, out, ret;
	long long off;

	if (argc != 5) {
		fprintf(stderr, "usage: iopoll_idle DEVICE OFFSET SECONDS OUTFILE\n");
		return 2;
	}
	off = atoll(argv[2]);
	dev = open(argv[1], O_RDONLY | O_DIRECT);
	if (dev < 0) {
		perror(argv[1]);
		return 2;
	}
	if (posix_memalign(&buf, BS, BS))
		return 2;
	memset(buf, 0, BS);
	ring = setup(4, &p);
	if (ring < 0) {
		perror("iopoll_idle: io_uring_setup");
		return 2;
	}
	sq = map(ring, p.sq_off.array + p.sq_entries * sizeof(unsigned int),
		 IORING_OFF_SQ_RING);
	cq = map(ring, p.cq_off.cqes + p.cq_entries * sizeof(*cqe),
		 IORING_OFF_CQ_RING);
	sqes = map(ring, p.sq_entries * sizeof(*sqes), IORING_OFF_SQES);
	sq_tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	sq_array = (unsigned int *)((char *)sq + p.sq_off.array);
	cq_head = (unsigned int *)((char *)cq + p.cq_off.head);
	cq_tail = (unsigned int *)((char *)cq + p.cq_off.tail);
	cqe = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes);

	memset(&sqes[0], 0, sizeof(sqes[0]));
	sqes[0].opcode = IORING_OP_READ;
	sqes[0].fd = dev;
	sqes[0].addr = (uintptr_t)buf;
	sqes[0].len = BS;
	sqes[0].off = off;
	sqes[0].user_data = 1;
	sq_array[0] = 0;
	__atomic_store_n(sq_tail, 1, __ATOMIC_RELEASE);

	/* Submit only: IOPOLL reaps when asked to (IORING_ENTER_GETEVENTS). */
	ret = enter(ring, 1, 0, 0);
	if (ret != 1) {
		fprintf(stderr, "iopoll_idle: submit: %d (%s)\n", ret,
			ret < 0 ? strerror(errno) : "not taken");
		return 2;
	}
	sleep(atoi(argv[3]));

	while (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head) {
		ret = enter(ring, 0, 1, IORING_ENTER_GETEVENTS);
		if (ret < 0 && errno != EINTR && errno != EAGAIN) {
			perror("iopoll_idle: io_uring_enter");
			return 2;
		}
	}
	ret = cqe[*cq_head & (p.cq_entries - 1)].res;
	__atomic_store_n(cq_head, *cq_head + 1, __ATOMIC_RELEASE);
	if (ret != BS) {
		fprintf(stderr, "iopoll_idle: read returned %d%s%s\n", ret,
			ret < 0 ? ": " : "", ret < 0 ? strerror(-ret) : "");
		return 1;
	}
	out = open(argv[4], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0 || write(out, buf, BS) != BS || close(out)) {
		perror(argv[4]);
		return 2;
	}
	return 0;
}
