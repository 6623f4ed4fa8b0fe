/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sample devices, statistics and discovery records for the output tests,
 * with strings that need escaping where a target could send them.
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

static inline void fix_devs(struct dev_info d[2])
{
	static const unsigned char hostid[16] = {
		0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03,
		0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	};

	memset(d, 0, 2 * sizeof(*d));
	d[0].index = 0;
	strcpy(d[0].name, "rblk0");
	strcpy(d[0].trtype, "rdma");
	d[0].adrfam = RBLK_ADRFAM_IPV4;
	strcpy(d[0].traddr, "10.99.0.1");
	strcpy(d[0].trsvcid, "4420");
	strcpy(d[0].subsysnqn, FIX_NQN);
	strcpy(d[0].hostnqn, "nqn.2014-08.org.nvmexpress:uuid:deadbeef");
	memcpy(d[0].hostid, hostid, sizeof(hostid));
	d[0].nsid = 2;
	d[0].nr_io_queues = 2;
	d[0].queue_size = 128;
	d[0].kato = 5;
	d[0].reconnect_delay = 10;
	d[0].ctrl_loss_tmo = 600;
	d[0].fast_io_fail_tmo = -1;
	d[0].state = RBLK_STATE_LIVE;
	d[0].cntlid = 1;
	d[0].size = 268435456;
	d[0].block_size = 512;
	strcpy(d[0].model, "Linux");
	strcpy(d[0].serial, "0123456789abcdef");
	strcpy(d[0].firmware, "6.1.0-57");

	d[1] = d[0];
	d[1].index = 7;
	strcpy(d[1].name, "rblk7");
	d[1].adrfam = RBLK_ADRFAM_IPV6;
	strcpy(d[1].traddr, "fd00::1");
	d[1].nsid = 1;
	d[1].state = RBLK_STATE_CONNECTING;
	d[1].ctrl_loss_tmo = -1;
	d[1].size = 1073741824;
	d[1].block_size = 4096;
	strcpy(d[1].model, FIX_NASTY);
}

static inline void fix_stats(struct dev_stats *st)
{
	int i;

	memset(st, 0, sizeof(*st));
	st->index = 0;
	strcpy(st->name, "rblk0");
	for (i = 1; i <= RBLK_STAT_MAX; i++)
		st->counter[i] = 1000 + i;
	/* Beyond 2^53: must survive as an integer, not a double. */
	st->counter[RBLK_STAT_READ_BYTES] = 18446744073709551615ULL;
	st->lat_hist[0] = 3;
	st->lat_hist[4] = 40;
	st->lat_hist[RBLK_LAT_BUCKETS - 1] = 1;
}

static inline void fix_disc(struct disc_entry e[2])
{
	memset(e, 0, 2 * sizeof(*e));
	e[0].trtype = 1;
	e[0].adrfam = 1;
	e[0].subtype = 3;
	e[0].treq = 0;
	e[0].portid = 1;
	e[0].cntlid = 0xffff;
	e[0].asqsz = 32;
	strcpy(e[0].trsvcid, "4420");
	strcpy(e[0].traddr, "10.99.0.1");
	strcpy(e[0].subnqn, "nqn.2014-08.org.nvmexpress.discovery");
	e[1] = e[0];
	e[1].subtype = 2;
	e[1].treq = 4 | 2;
	strcpy(e[1].subnqn, FIX_NQN);
}

#endif /* NVMECFG_FIXTURES_H */
