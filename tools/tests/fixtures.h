/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sample controllers, namespaces, statistics, events and discovery records
 * for the output tests, with strings that need escaping where a target
 * could send them.
 */
#ifndef NVMECFG_FIXTURES_H
#define NVMECFG_FIXTURES_H

#include <string.h>

#include "info.h"

#define FIX_NQN		"nqn.2026-12.io.rblk:test"
/* Quote, backslash, newline, tab, a control char, UTF-8, invalid UTF-8. */
#define FIX_NASTY	"Q\"B\\N\nT\tC\x01U\xc3\xa9X\xff"
#define FIX_NASTY_JSON	"Q\\\"B\\\\N\\nT\\tC\\u0001U\xc3\xa9X\\ufffd"
/* What a JSON parser reads back from FIX_NASTY_JSON. */
#define FIX_NASTY_READ	"Q\"B\\N\nT\tC\x01U\xc3\xa9X\xef\xbf\xbd"

#define FIX_HOSTNQN	"nqn.2014-08.org.nvmexpress:uuid:deadbeef"
#define FIX_WWID0	"uuid.00112233-4455-6677-8899-aabbccddeeff"
#define FIX_WWID1	"eui.0011223344556677"
#define FIX_WWID2	"nvme.0000-3031-4c696e7578-00000003"

/*
 * Two controllers: rblk-ctrl0 (live, IPv4, all namespaces: rblk0 with an
 * NGUID and a UUID, rblk1 with an EUI-64) and rblk-ctrl7 (connecting,
 * IPv6, created with -N 3: rblk9 without identifiers, a nasty model).
 * @ns holds the three namespaces.
 */
static inline void fix_ctrls(struct ctrl_info c[2], struct ns_info ns[3])
{
	static const unsigned char hostid[16] = {
		0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03,
		0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	};
	static const unsigned char id[16] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
		0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	};

	memset(ns, 0, 3 * sizeof(*ns));
	ns[0].index = 0;
	strcpy(ns[0].name, "rblk0");
	ns[0].nsid = 1;
	ns[0].size = 1073741824;
	ns[0].block_size = 512;
	strcpy(ns[0].wwid, FIX_WWID0);
	ns[0].has_nguid = true;
	memcpy(ns[0].nguid, id, sizeof(ns[0].nguid));
	ns[0].has_uuid = true;
	memcpy(ns[0].uuid, id, sizeof(ns[0].uuid));

	ns[1].index = 1;
	strcpy(ns[1].name, "rblk1");
	ns[1].nsid = 2;
	ns[1].size = 268435456;
	ns[1].block_size = 4096;
	strcpy(ns[1].wwid, FIX_WWID1);
	ns[1].has_eui64 = true;
	memcpy(ns[1].eui64, id, sizeof(ns[1].eui64));

	ns[2].index = 9;
	strcpy(ns[2].name, "rblk9");
	ns[2].nsid = 3;
	ns[2].size = 67108864;
	ns[2].block_size = 512;
	strcpy(ns[2].wwid, FIX_WWID2);

	memset(c, 0, 2 * sizeof(*c));
	c[0].index = 0;
	strcpy(c[0].name, "rblk-ctrl0");
	strcpy(c[0].trtype, "rdma");
	c[0].adrfam = RBLK_ADRFAM_IPV4;
	strcpy(c[0].traddr, "10.99.0.1");
	strcpy(c[0].trsvcid, "4420");
	strcpy(c[0].subsysnqn, FIX_NQN);
	strcpy(c[0].hostnqn, FIX_HOSTNQN);
	memcpy(c[0].hostid, hostid, sizeof(hostid));
	c[0].nr_io_queues = 2;
	c[0].queue_size = 128;
	c[0].kato = 5;
	c[0].reconnect_delay = 10;
	c[0].ctrl_loss_tmo = 600;
	c[0].fast_io_fail_tmo = -1;
	c[0].state = RBLK_STATE_LIVE;
	c[0].cntlid = 1;
	strcpy(c[0].model, "Linux");
	strcpy(c[0].serial, "0123456789abcdef");
	strcpy(c[0].firmware, "6.1.0-57");
	c[0].ns = &ns[0];
	c[0].nr_ns = 2;

	c[1] = c[0];
	c[1].index = 7;
	strcpy(c[1].name, "rblk-ctrl7");
	c[1].adrfam = RBLK_ADRFAM_IPV6;
	strcpy(c[1].traddr, "fd00::1");
	c[1].nsid = 3;
	c[1].state = RBLK_STATE_CONNECTING;
	c[1].cntlid = 2;
	c[1].ctrl_loss_tmo = -1;
	strcpy(c[1].model, FIX_NASTY);
	c[1].ns = &ns[2];
	c[1].nr_ns = 1;
}

/* The statistics of namespace rblk0 of rblk-ctrl0; @ns false: the sum. */
static inline void fix_stats(struct stats_info *st, bool ns)
{
	int i;

	memset(st, 0, sizeof(*st));
	st->ctrl_index = 0;
	strcpy(st->ctrl_name, "rblk-ctrl0");
	st->is_ns = ns;
	if (ns) {
		st->index = 0;
		strcpy(st->name, "rblk0");
	}
	for (i = 1; i <= RBLK_STAT_MAX; i++)
		st->counter[i] = 1000 + i;
	/* Beyond 2^53: must survive as an integer, not a double. */
	st->counter[RBLK_STAT_READ_BYTES] = 18446744073709551615ULL;
	st->lat_hist[0] = 3;
	st->lat_hist[4] = 40;
	st->lat_hist[RBLK_LAT_BUCKETS - 1] = 1;
}

/* A namespace event: rblk1 appeared on rblk-ctrl0. */
static inline void fix_event(struct ctrl_event *ev)
{
	struct ctrl_info c[2];
	struct ns_info ns[3];

	fix_ctrls(c, ns);
	memset(ev, 0, sizeof(*ev));
	ev->event = RBLK_EVENT_NS_ADDED;
	ev->ctrl_index = 0;
	strcpy(ev->ctrl_name, "rblk-ctrl0");
	ev->state = RBLK_STATE_LIVE;
	ev->has_ns = true;
	ev->ns = ns[1];
}

/*
 * A log of two records (the discovery subsystem itself, and FIX_NQN with
 * every RDMA transport field set) in @e, and @log describing them.
 */
static inline void fix_disc(struct disc_entry e[2], struct disc_log *log)
{
	memset(e, 0, 2 * sizeof(*e));
	e[0].trtype = 1;
	e[0].adrfam = 1;
	e[0].subtype = 3;
	e[0].treq = 0;
	e[0].portid = 1;
	e[0].cntlid = 0xffff;
	e[0].asqsz = 32;
	e[0].eflags = 3;
	e[0].rdma_qptype = 1;
	e[0].rdma_prtype = 1;
	e[0].rdma_cms = 1;
	strcpy(e[0].trsvcid, "4420");
	strcpy(e[0].traddr, "10.99.0.1");
	strcpy(e[0].subnqn, "nqn.2014-08.org.nvmexpress.discovery");
	e[1] = e[0];
	e[1].subtype = 2;
	e[1].treq = 4 | 2;
	e[1].eflags = 0;
	e[1].rdma_prtype = 4;
	e[1].rdma_pkey = 0xffff;
	strcpy(e[1].subnqn, FIX_NQN);

	memset(log, 0, sizeof(*log));
	log->genctr = 42;
	log->numrec = 2;
	log->e = e;
	log->nr = 2;
}

/*
 * The host identity of a connect given --hostnqn only, with the module
 * loaded.
 */
static inline void fix_host(struct host_info *h)
{
	static const unsigned char id[16] = {
		0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03,
		0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	};

	memset(h, 0, sizeof(*h));
	strcpy(h->hostnqn, FIX_HOSTNQN);
	h->nqn_src = ID_OPTION;
	strcpy(h->nqn_file, "/etc/nvme/hostnqn");
	memcpy(h->hostid, id, sizeof(id));
	h->id_src = ID_FILE;
	strcpy(h->id_file, "/etc/nvme/hostid");
	h->module_loaded = true;
	strcpy(h->module_hostnqn, "nqn.2014-08.org.nvmexpress:uuid:module");
	strcpy(h->module_hostid, "00000000-0000-0000-0000-000000000001");
}

/*
 * Two subsystems of one host, as list-subsys gets them over netlink:
 * rblk-subsys0 with multipath's iopolicy (round-robin) and two paths,
 * rblk-subsys1 without one (multipath off) and one path; rblk-subsys0 has
 * the head rblk3 (nsid 1) with a path on each controller, inaccessible on
 * rblk-ctrl0 and non-optimized on rblk-ctrl2.  @p holds the subsystems'
 * paths, @hp the head's, @s the subsystems, @h the head, @list describes
 * them.
 */
static inline void fix_subsys(struct subsys_info s[2], struct path_info p[3],
			      struct head_info *h, struct path_info hp[2],
			      struct subsys_list *list)
{
	static const unsigned char hostid[RBLK_HOSTID_LEN] = {
		0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03,
		0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	};

	memset(p, 0, 3 * sizeof(*p));
	strcpy(p[0].name, "rblk-ctrl0");
	strcpy(p[0].traddr, "10.99.0.1");
	strcpy(p[0].trsvcid, "4420");
	p[0].state = RBLK_STATE_LIVE;
	strcpy(p[0].hostnqn, FIX_HOSTNQN);
	p[0].has_hostid = true;
	memcpy(p[0].hostid, hostid, sizeof(hostid));
	p[1] = p[0];
	p[1].ctrl_index = 2;
	strcpy(p[1].name, "rblk-ctrl2");
	strcpy(p[1].traddr, "10.99.0.2");
	p[1].state = RBLK_STATE_CONNECTING;
	p[2] = p[0];
	p[2].ctrl_index = 1;
	strcpy(p[2].name, "rblk-ctrl1");
	strcpy(p[2].trsvcid, "4421");

	memset(s, 0, 2 * sizeof(*s));
	strcpy(s[0].name, "rblk-subsys0");
	strcpy(s[0].nqn, FIX_NQN);
	strcpy(s[0].hostnqn, FIX_HOSTNQN);
	s[0].has_hostid = true;
	memcpy(s[0].hostid, hostid, sizeof(hostid));
	strcpy(s[0].model, "Linux");
	strcpy(s[0].serial, "abc123");
	strcpy(s[0].firmware, "6.1.0");
	s[0].has_iopolicy = true;
	s[0].iopolicy = RBLK_IOPOLICY_ROUND_ROBIN;
	s[0].paths = &p[0];
	s[0].nr_paths = 2;
	s[1] = s[0];
	strcpy(s[1].name, "rblk-subsys1");
	strcpy(s[1].nqn, "nqn.2026-12.io.rblk:other");
	s[1].has_iopolicy = false;
	s[1].paths = &p[2];
	s[1].nr_paths = 1;

	hp[0] = p[0];
	strcpy(hp[0].disk, "rblk3c0n1");
	hp[0].ana_grpid = 1;
	hp[0].has_ana_state = true;
	hp[0].ana_state = 3;		/* inaccessible */
	hp[1] = p[1];
	strcpy(hp[1].disk, "rblk3c2n1");
	hp[1].ana_grpid = 1;
	hp[1].has_ana_state = true;
	hp[1].ana_state = 2;		/* non-optimized */
	memset(h, 0, sizeof(*h));
	h->index = 3;
	strcpy(h->name, "rblk3");
	h->nsid = 1;
	strcpy(h->subsys, "rblk-subsys0");
	h->state = RBLK_STATE_LIVE;
	h->paths = hp;
	h->nr_paths = 2;

	memset(list, 0, sizeof(*list));
	list->subsys = s;
	list->nr = 2;
	list->heads = h;
	list->nr_heads = 1;
}

#endif /* NVMECFG_FIXTURES_H */
