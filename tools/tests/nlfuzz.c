// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz - bounded random-attribute fuzzer for the "rblk" genl family.
 *
 * Sends N requests with a random command and random attributes (random
 * types, lengths, payloads, nesting flags, occasionally valid-looking
 * strings), and checks that every request gets an answer that is either an
 * error or a well-formed message of the family. Runs in the guest; the
 * harness scans the kernel log for splats afterwards.
 *
 * usage: nlfuzz [-n ITERATIONS] [-s SEED]
 * exit:  0 all answers sane, 1 an answer was malformed or missing, 2 usage,
 *        3 family not registered
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rblk.h>

#define BUF_SIZE	65536
#define MAX_ATTRS	12

static uint32_t rng_state;

static uint32_t rnd(void)
{
	/* xorshift32: reproducible from the seed printed at start */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static int nl_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1;
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -1;
	/* Ask for extended acks so their TLVs get parsed too. */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void put_attr(char *buf, size_t *off, uint16_t type, const void *data,
		     uint16_t len)
{
	struct nlattr *nla = (struct nlattr *)(buf + *off);

	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(buf + *off + NLA_HDRLEN, data, len);
	*off += NLA_ALIGN(nla->nla_len);
}

static int resolve_family(int fd)
{
	char buf[BUF_SIZE];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g;
	struct nlattr *nla;
	size_t off;
	ssize_t n;
	int rem;

	memset(buf, 0, 1024);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 1;
	g = NLMSG_DATA(nlh);
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	off = NLMSG_HDRLEN + GENL_HDRLEN;
	put_attr(buf, &off, CTRL_ATTR_FAMILY_NAME, RBLK_GENL_NAME,
		 sizeof(RBLK_GENL_NAME));
	nlh->nlmsg_len = off;
	if (send(fd, buf, off, 0) < 0)
		return -1;
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < (ssize_t)NLMSG_HDRLEN || nlh->nlmsg_type == NLMSG_ERROR)
		return -1;
	nla = (struct nlattr *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
	rem = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	while (rem >= NLA_HDRLEN && nla->nla_len >= NLA_HDRLEN &&
	       nla->nla_len <= rem) {
		if ((nla->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)((char *)nla + NLA_HDRLEN);
		rem -= NLA_ALIGN(nla->nla_len);
		nla = (struct nlattr *)((char *)nla + NLA_ALIGN(nla->nla_len));
	}
	return -1;
}

/* Random payload: sometimes a plausible value, mostly garbage. */
static uint16_t fill_payload(char *p, uint16_t type)
{
	static const char *const strs[] = {
		"rdma", "tcp", "10.99.0.1", "::1", "4420", "0", "99999",
		"nqn.2026-12.io.rblk:test", "nqn.", "nqn.x", "rblk0",
		RBLK_CTRL_NAME_PREFIX "0", RBLK_CTRL_NAME_PREFIX, "",
	};
	uint16_t len;
	unsigned int i;

	switch (rnd() % 4) {
	case 0:
		len = rnd() % 9;	/* around scalar sizes */
		break;
	case 1: {
		const char *s = strs[rnd() % (sizeof(strs) / sizeof(strs[0]))];

		len = strlen(s) + (rnd() % 2);	/* with or without NUL */
		memcpy(p, s, len);
		return len;
	}
	case 2:
		len = 200 + rnd() % 120;	/* around NQN/TRADDR limits */
		break;
	default:
		len = rnd() % 64;
		break;
	}
	for (i = 0; i < len; i++)
		p[i] = (rnd() % 3) ? (char)('a' + rnd() % 26) : (char)rnd();
	(void)type;
	return len;
}

/* Walk the answers to one request; 0 if each is sane. */
static int check_answers(int fd, int family, uint32_t seq, int *errs)
{
	char buf[BUF_SIZE];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (;;) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		ssize_t n;
		int rem;

		/* Connect/discover attempts may take the CM timeouts. */
		if (poll(&pfd, 1, 60000) <= 0) {
			fprintf(stderr, "nlfuzz: seq %u: no answer in 60 s\n",
				seq);
			return -1;
		}
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == ENOBUFS)
				continue;
			perror("nlfuzz: recv");
			return -1;
		}
		rem = n;
		for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nlh);

				if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)) ||
				    e->error > 0) {
					fprintf(stderr, "nlfuzz: seq %u: malformed error\n",
						seq);
					return -1;
				}
				if (e->error)
					(*errs)++;
				return 0;	/* the ack ends the exchange */
			}
			if (nlh->nlmsg_type == NLMSG_DONE)
				return 0;
			if (nlh->nlmsg_type != family ||
			    nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN)) {
				fprintf(stderr, "nlfuzz: seq %u: unexpected message type %u\n",
					seq, nlh->nlmsg_type);
				return -1;
			}
		}
		if (rem) {
			fprintf(stderr, "nlfuzz: seq %u: truncated message\n", seq);
			return -1;
		}
	}
}

int main(int argc, char **argv)
{
	unsigned long iterations = 2000;
	uint32_t seed = (uint32_t)time(NULL) | 1;
	char *buf = malloc(BUF_SIZE);
	int fd, family, opt, errs = 0;
	unsigned long i;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		switch (opt) {
		case 'n':
			iterations = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoul(optarg, NULL, 0) | 1;
			break;
		default:
			fprintf(stderr, "usage: nlfuzz [-n ITERATIONS] [-s SEED]\n");
			return 2;
		}
	}
	if (!buf)
		return 1;
	rng_state = seed;
	printf("nlfuzz: seed %u, %lu iterations\n", seed, iterations);

	fd = nl_open();
	if (fd < 0) {
		perror("nlfuzz: socket");
		return 1;
	}
	family = resolve_family(fd);
	if (family < 0) {
		fprintf(stderr, "nlfuzz: family %s not registered\n",
			RBLK_GENL_NAME);
		return 3;
	}

	for (i = 0; i < iterations; i++) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		struct genlmsghdr *g;
		uint32_t seq = 100 + i;
		size_t off;
		int nattrs = rnd() % MAX_ATTRS, a;

		memset(buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
		nlh->nlmsg_type = family;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		/* Dumps for GET, sometimes for commands that have none. */
		if (rnd() % 5 == 0)
			nlh->nlmsg_flags |= NLM_F_DUMP;
		nlh->nlmsg_seq = seq;
		g = NLMSG_DATA(nlh);
		/* Known commands mostly; unknown ones too. Never DISCONNECT:
		 * a lucky index or name could hit a controller another test
		 * owns.
		 */
		do {
			g->cmd = rnd() % (RBLK_CMD_MAX + 3);
		} while (g->cmd == RBLK_CMD_DISCONNECT);
		g->version = (rnd() % 8) ? RBLK_GENL_VERSION : rnd() % 256;
		off = NLMSG_HDRLEN + GENL_HDRLEN;

		for (a = 0; a < nattrs; a++) {
			char payload[512];
			uint16_t type = rnd() % (RBLK_ATTR_MAX + 4);
			uint16_t len;

			if (rnd() % 10 == 0)
				type |= NLA_F_NESTED;
			len = fill_payload(payload, type);
			if (off + NLA_HDRLEN + len > BUF_SIZE)
				break;
			put_attr(buf, &off, type, payload, len);
		}
		/* Now and then a lying length, cut short by the message end. */
		if (nattrs && rnd() % 20 == 0) {
			struct nlattr *last = (struct nlattr *)(buf + off) - 1;

			if ((char *)last > buf + NLMSG_HDRLEN + GENL_HDRLEN)
				last->nla_len += 64;
		}
		nlh->nlmsg_len = off;

		if (send(fd, buf, off, 0) < 0) {
			perror("nlfuzz: send");
			return 1;
		}
		if (check_answers(fd, family, seq, &errs)) {
			fprintf(stderr, "nlfuzz: iteration %lu (seed %u) failed\n",
				i, seed);
			return 1;
		}
	}
	printf("nlfuzz: %lu requests, %d refused with an error, all answers well-formed\n",
	       iterations, errs);
	close(fd);
	free(buf);
	return 0;
}
