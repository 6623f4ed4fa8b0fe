// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg output: human-readable text and JSON.
 *
 * The JSON field names and value spellings follow nvme-cli where it has an
 * equivalent (discover), so scripts written for one read the other.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "nvmecfg.h"
#include "output.h"

/* --- JSON writer --- */

void json_init(struct json *j, FILE *f, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
}

static void json_newline(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator, indentation and key of the next member. */
static void json_member(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->has_members[j->depth])
			fputc(',', j->f);
		j->has_members[j->depth] = true;
		json_newline(j);
	}
	if (key) {
		json_print_string(j->f, key);
		fputs(j->pretty ? ": " : ":", j->f);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	/* Our documents are shallow: deeper nesting is a bug. */
	if (j->depth >= JSON_MAX_DEPTH - 1)
		abort();
	json_member(j, key);
	fputc(c, j->f);
	j->depth++;
	j->has_members[j->depth] = false;
}

static void json_close(struct json *j, char c)
{
	bool empty = !j->has_members[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		json_newline(j);
	fputc(c, j->f);
}

void json_obj_open(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_obj_close(struct json *j)
{
	json_close(j, '}');
}

void json_arr_open(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_arr_close(struct json *j)
{
	json_close(j, ']');
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_member(j, key);
	json_print_string(j->f, val);
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	json_member(j, key);
	fprintf(j->f, "%" PRIu64, val);
}

void json_s64(struct json *j, const char *key, int64_t val)
{
	json_member(j, key);
	fprintf(j->f, "%" PRId64, val);
}

void json_end(struct json *j)
{
	fputc('\n', j->f);
}

/* Length of the valid UTF-8 sequence at @s, 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (s[0] == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		if (s[0] == 0xf0)
			lo = 0x90;	/* overlong */
		else if (s[0] == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else {
		return 0;
	}
	/* A NUL ends the string and fails the range check: no overrun. */
	for (i = 1; i < n; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

void json_print_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', f);
	while (*s) {
		switch (*s) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(f, "\\u%04x", *s);
				break;
			}
			/*
			 * Controller strings come from the target and may be
			 * anything; a JSON document must be valid UTF-8.
			 */
			n = utf8_len(s);
			if (!n) {
				fputs("\\ufffd", f);
				break;
			}
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', f);
}

/* --- names --- */

static const char *name_of(const char *const *names, size_t nr,
			   unsigned int val)
{
	if (val < nr && names[val])
		return names[val];
	return "unknown";
}

const char *state_name(uint8_t state)
{
	static const char *const names[] = {
		[RBLK_STATE_NEW]	= "new",
		[RBLK_STATE_CONNECTING]	= "connecting",
		[RBLK_STATE_LIVE]	= "live",
		[RBLK_STATE_RESETTING]	= "resetting",
		[RBLK_STATE_DELETING]	= "deleting",
		[RBLK_STATE_DEAD]	= "dead",
	};

	return name_of(names, ARRAY_SIZE(names), state);
}

const char *event_name(uint8_t event)
{
	static const char *const names[] = {
		[RBLK_EVENT_ADDED]		= "added",
		[RBLK_EVENT_REMOVED]		= "removed",
		[RBLK_EVENT_STATE]		= "state",
		[RBLK_EVENT_RECONNECTING]	= "reconnecting",
	};

	return name_of(names, ARRAY_SIZE(names), event);
}

/* NVMe-oF ADRFAM and TRTYPE codes, spelled as nvme-cli does. */
const char *adrfam_name(uint8_t adrfam)
{
	switch (adrfam) {
	case 0:
		return "pci";
	case 1:
		return "ipv4";
	case 2:
		return "ipv6";
	case 3:
		return "infiniband";
	case 4:
		return "fibre-channel";
	case 254:
		return "loop";
	}
	return "unrecognized";
}

const char *trtype_name(uint8_t trtype)
{
	switch (trtype) {
	case 1:
		return "rdma";
	case 2:
		return "fc";
	case 3:
		return "tcp";
	case 254:
		return "loop";
	}
	return "unrecognized";
}

const char *subtype_name(uint8_t subtype)
{
	switch (subtype) {
	case 1:
		return "discovery subsystem referral";
	case 2:
		return "nvme subsystem";
	case 3:
		return "current discovery subsystem";
	}
	return "unrecognized";
}

const char *treq_name(uint8_t treq, char *buf, size_t len)
{
	static const char *const secure[] = {
		"not specified", "required", "not required", "reserved",
	};

	snprintf(buf, len, "%s%s", secure[treq & 3],
		 treq & 4 ? ", sq flow control disable supported" : "");
	return buf;
}

const char *stat_name(int type)
{
	static const char *const names[] = {
		[RBLK_STAT_READS]		= "reads",
		[RBLK_STAT_WRITES]		= "writes",
		[RBLK_STAT_FLUSHES]		= "flushes",
		[RBLK_STAT_DISCARDS]		= "discards",
		[RBLK_STAT_READ_BYTES]		= "read_bytes",
		[RBLK_STAT_WRITE_BYTES]		= "write_bytes",
		[RBLK_STAT_DISCARD_BYTES]	= "discard_bytes",
		[RBLK_STAT_ERRORS]		= "errors",
		[RBLK_STAT_TIMEOUTS]		= "timeouts",
		[RBLK_STAT_RECONNECTS]		= "reconnects",
		[RBLK_STAT_RECONNECT_ATTEMPTS]	= "reconnect_attempts",
		[RBLK_STAT_INLINE_WRITES]	= "inline_writes",
		[RBLK_STAT_STATUS_GENERIC]	= "status_generic",
		[RBLK_STAT_STATUS_CMD]		= "status_cmd",
		[RBLK_STAT_STATUS_MEDIA]	= "status_media",
		[RBLK_STAT_STATUS_PATH]		= "status_path",
		[RBLK_STAT_STATUS_VENDOR]	= "status_vendor",
	};

	if (type < 0 || (size_t)type >= ARRAY_SIZE(names))
		return NULL;
	return names[type];
}

const char *uuid_str(const unsigned char *id, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x",
		 id[0], id[1], id[2], id[3], id[4], id[5], id[6], id[7],
		 id[8], id[9], id[10], id[11], id[12], id[13], id[14], id[15]);
	return buf;
}

const char *size_str(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	unsigned int u = 0;

	while (u < ARRAY_SIZE(units) - 1 && bytes >= (1ULL << (10 * (u + 1))))
		u++;
	if (!u || !(bytes & ((1ULL << (10 * u)) - 1)))
		snprintf(buf, len, "%" PRIu64 " %s", bytes >> (10 * u),
			 units[u]);
	else
		snprintf(buf, len, "%.2f %s",
			 (double)bytes / (double)(1ULL << (10 * u)), units[u]);
	return buf;
}

/*
 * Strings from the target end up on a terminal: replace control characters
 * so that a hostile model number cannot send escape sequences.
 */
static const char *printable(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i < len - 1; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}

/* Fits every string in info.h. */
#define SAFE_LEN	260
#define SAFE(s)		printable((s), safe, sizeof(safe))

/* --- commands --- */

void print_connect(FILE *f, enum out_format fmt, const struct dev_ref *ref)
{
	struct json j;

	if (fmt == OUT_NORMAL) {
		fprintf(f, "%s\n", ref->name);
		return;
	}
	json_init(&j, f, true);
	json_obj_open(&j, NULL);
	json_u64(&j, "index", ref->index);
	json_str(&j, "name", ref->name);
	json_obj_close(&j);
	json_end(&j);
}

static void json_dev(struct json *j, const struct dev_info *d)
{
	char uuid[40];

	json_obj_open(j, NULL);
	json_u64(j, "index", d->index);
	json_str(j, "name", d->name);
	json_str(j, "state", state_name(d->state));
	json_str(j, "transport", d->trtype);
	json_str(j, "adrfam", adrfam_name(d->adrfam));
	json_str(j, "traddr", d->traddr);
	json_str(j, "trsvcid", d->trsvcid);
	json_str(j, "subsysnqn", d->subsysnqn);
	json_str(j, "hostnqn", d->hostnqn);
	json_str(j, "hostid", uuid_str(d->hostid, uuid, sizeof(uuid)));
	json_u64(j, "nsid", d->nsid);
	json_u64(j, "cntlid", d->cntlid);
	json_str(j, "model", d->model);
	json_str(j, "serial", d->serial);
	json_str(j, "firmware", d->firmware);
	json_u64(j, "nr_io_queues", d->nr_io_queues);
	json_u64(j, "queue_size", d->queue_size);
	json_u64(j, "size", d->size);
	json_u64(j, "block_size", d->block_size);
	json_u64(j, "kato", d->kato);
	json_u64(j, "reconnect_delay", d->reconnect_delay);
	json_s64(j, "ctrl_loss_tmo", d->ctrl_loss_tmo);
	json_s64(j, "fast_io_fail_tmo", d->fast_io_fail_tmo);
	json_obj_close(j);
}

void print_list(FILE *f, enum out_format fmt, const struct dev_info *devs,
		size_t nr)
{
	int wname = 6, waddr = 7;
	char size[32], safe[SAFE_LEN];
	struct json j;
	size_t i;

	if (fmt == OUT_JSON) {
		json_init(&j, f, true);
		json_obj_open(&j, NULL);
		json_arr_open(&j, "devices");
		for (i = 0; i < nr; i++)
			json_dev(&j, &devs[i]);
		json_arr_close(&j);
		json_obj_close(&j);
		json_end(&j);
		return;
	}

	/* No devices, no table: nothing to parse for scripts either. */
	if (!nr)
		return;
	for (i = 0; i < nr; i++) {
		if ((int)strlen(devs[i].name) > wname)
			wname = strlen(devs[i].name);
		if ((int)strlen(devs[i].traddr) > waddr)
			waddr = strlen(devs[i].traddr);
	}
	fprintf(f, "%-*s %-10s %-*s %-7s %-5s %-10s %s\n", wname, "Device",
		"State", waddr, "Address", "Port", "NSID", "Size",
		"Subsystem NQN");
	for (i = 0; i < nr; i++) {
		const struct dev_info *d = &devs[i];

		fprintf(f, "%-*s %-10s %-*s %-7s %-5u %-10s %s\n", wname,
			d->name, state_name(d->state), waddr, d->traddr,
			d->trsvcid, d->nsid,
			size_str(d->size, size, sizeof(size)),
			SAFE(d->subsysnqn));
	}
}

void print_show(FILE *f, enum out_format fmt, const struct dev_info *d)
{
	char buf[64], safe[SAFE_LEN];
	struct json j;

	if (fmt == OUT_JSON) {
		json_init(&j, f, true);
		json_dev(&j, d);
		json_end(&j);
		return;
	}

#define SHOW(key, fmtstr, ...) \
	fprintf(f, "  %-17s " fmtstr "\n", key, __VA_ARGS__)
	fprintf(f, "%s: %s\n", d->name, state_name(d->state));
	SHOW("transport", "%s", d->trtype);
	SHOW("adrfam", "%s", adrfam_name(d->adrfam));
	SHOW("traddr", "%s", d->traddr);
	SHOW("trsvcid", "%s", d->trsvcid);
	SHOW("subsysnqn", "%s", SAFE(d->subsysnqn));
	SHOW("nsid", "%u", d->nsid);
	SHOW("hostnqn", "%s", SAFE(d->hostnqn));
	SHOW("hostid", "%s", uuid_str(d->hostid, buf, sizeof(buf)));
	SHOW("cntlid", "%u", d->cntlid);
	SHOW("model", "%s", SAFE(d->model));
	SHOW("serial", "%s", SAFE(d->serial));
	SHOW("firmware", "%s", SAFE(d->firmware));
	SHOW("size", "%" PRIu64 " (%s)", d->size,
	     size_str(d->size, buf, sizeof(buf)));
	SHOW("block_size", "%u", d->block_size);
	SHOW("nr_io_queues", "%u", d->nr_io_queues);
	SHOW("queue_size", "%u", d->queue_size);
	SHOW("kato", "%u", d->kato);
	SHOW("reconnect_delay", "%u", d->reconnect_delay);
	SHOW("ctrl_loss_tmo", "%d", d->ctrl_loss_tmo);
	SHOW("fast_io_fail_tmo", "%d", d->fast_io_fail_tmo);
#undef SHOW
}

void print_stats(FILE *f, enum out_format fmt, const struct dev_stats *st)
{
	struct json j;
	bool any = false;
	int i;

	if (fmt == OUT_JSON) {
		json_init(&j, f, true);
		json_obj_open(&j, NULL);
		json_u64(&j, "index", st->index);
		json_str(&j, "name", st->name);
		for (i = 0; i <= RBLK_STAT_MAX; i++) {
			if (stat_name(i))
				json_u64(&j, stat_name(i), st->counter[i]);
		}
		/* Bucket i: completions in [2^i, 2^(i+1)) microseconds. */
		json_arr_open(&j, "latency_hist_us");
		for (i = 0; i < RBLK_LAT_BUCKETS; i++)
			json_u64(&j, NULL, st->lat_hist[i]);
		json_arr_close(&j);
		json_obj_close(&j);
		json_end(&j);
		return;
	}

	fprintf(f, "%s:\n", st->name);
	for (i = 0; i <= RBLK_STAT_MAX; i++) {
		if (stat_name(i))
			fprintf(f, "  %-19s %" PRIu64 "\n", stat_name(i),
				st->counter[i]);
	}
	fprintf(f, "  latency (us):\n");
	for (i = 0; i < RBLK_LAT_BUCKETS; i++) {
		char range[32];

		if (!st->lat_hist[i])
			continue;
		any = true;
		if (i == RBLK_LAT_BUCKETS - 1)
			snprintf(range, sizeof(range), ">= %llu",
				 1ULL << i);
		else
			snprintf(range, sizeof(range), "%llu - %llu",
				 i ? 1ULL << i : 0ULL, 1ULL << (i + 1));
		fprintf(f, "    %-17s %" PRIu64 "\n", range, st->lat_hist[i]);
	}
	if (!any)
		fprintf(f, "    no completions\n");
}

void print_discover(FILE *f, enum out_format fmt,
		    const struct disc_entry *entries, size_t nr,
		    uint64_t numrec)
{
	char treq[64], safe[SAFE_LEN];
	struct json j;
	size_t i;

	if (fmt == OUT_JSON) {
		json_init(&j, f, true);
		json_obj_open(&j, NULL);
		json_u64(&j, "numrec", numrec);
		json_arr_open(&j, "records");
		for (i = 0; i < nr; i++) {
			const struct disc_entry *e = &entries[i];

			json_obj_open(&j, NULL);
			json_str(&j, "trtype", trtype_name(e->trtype));
			json_str(&j, "adrfam", adrfam_name(e->adrfam));
			json_str(&j, "subtype", subtype_name(e->subtype));
			json_str(&j, "treq",
				 treq_name(e->treq, treq, sizeof(treq)));
			json_u64(&j, "portid", e->portid);
			json_str(&j, "trsvcid", e->trsvcid);
			json_str(&j, "subnqn", e->subnqn);
			json_str(&j, "traddr", e->traddr);
			json_u64(&j, "cntlid", e->cntlid);
			json_u64(&j, "asqsz", e->asqsz);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_obj_close(&j);
		json_end(&j);
		return;
	}

	fprintf(f, "Discovery Log Number of Records %" PRIu64 "\n", numrec);
	for (i = 0; i < nr; i++) {
		const struct disc_entry *e = &entries[i];

		fprintf(f, "=====Discovery Log Entry %zu======\n", i);
		fprintf(f, "trtype:  %s\n", trtype_name(e->trtype));
		fprintf(f, "adrfam:  %s\n", adrfam_name(e->adrfam));
		fprintf(f, "subtype: %s\n", subtype_name(e->subtype));
		fprintf(f, "treq:    %s\n", treq_name(e->treq, treq,
						       sizeof(treq)));
		fprintf(f, "portid:  %u\n", e->portid);
		fprintf(f, "trsvcid: %s\n", SAFE(e->trsvcid));
		fprintf(f, "subnqn:  %s\n", SAFE(e->subnqn));
		fprintf(f, "traddr:  %s\n", SAFE(e->traddr));
		fprintf(f, "cntlid:  %u\n", e->cntlid);
		fprintf(f, "asqsz:   %u\n", e->asqsz);
	}
}

void print_event(FILE *f, enum out_format fmt, const struct dev_event *ev)
{
	struct json j;

	if (fmt == OUT_JSON) {
		json_init(&j, f, false);
		json_obj_open(&j, NULL);
		json_str(&j, "event", event_name(ev->event));
		json_u64(&j, "index", ev->index);
		json_str(&j, "name", ev->name);
		json_str(&j, "state", state_name(ev->state));
		json_obj_close(&j);
		json_end(&j);
	} else if (ev->event == RBLK_EVENT_STATE) {
		fprintf(f, "%s: state %s\n", ev->name, state_name(ev->state));
	} else {
		fprintf(f, "%s: %s (state %s)\n", ev->name,
			event_name(ev->event), state_name(ev->state));
	}
	fflush(f);
}
