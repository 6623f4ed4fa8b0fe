// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg output: human-readable text and JSON.
 *
 * The JSON field names and value spellings follow nvme-cli where it has an
 * equivalent (discover), so scripts written for one read the other.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
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

void json_flag(struct json *j, const char *key, bool val)
{
	json_member(j, key);
	fputs(val ? "true" : "false", j->f);
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

/* The UAPI's tables: sysfs and nvmecfg spell the names the same. */
static const char *const state_names[__RBLK_STATE_MAX] = RBLK_STATE_NAMES;
static const char *const event_names[__RBLK_EVENT_MAX] = RBLK_EVENT_NAMES;
static const char *const stat_names[__RBLK_STAT_MAX] = RBLK_STAT_NAMES;
static const char *const iopolicy_names[__RBLK_IOPOLICY_MAX] =
	RBLK_IOPOLICY_NAMES;
static const char *const ana_state_names[RBLK_ANA_STATE_MAX + 1] =
	RBLK_ANA_STATE_NAMES;
static const char *const dhchap_hash_names[RBLK_DHCHAP_HASH_MAX + 1] =
	RBLK_DHCHAP_HASH_NAMES;
static const char *const dhchap_dhgroup_names[RBLK_DHCHAP_DHGROUP_MAX + 1] =
	RBLK_DHCHAP_DHGROUP_NAMES;
static const char *const auth_failure_names[RBLK_AUTH_FAILURE_MAX + 1] =
	RBLK_AUTH_FAILURE_NAMES;

const char *state_name(uint8_t state)
{
	return name_of(state_names, ARRAY_SIZE(state_names), state);
}

const char *event_name(uint8_t event)
{
	return name_of(event_names, ARRAY_SIZE(event_names), event);
}

const char *iopolicy_name(uint8_t iopolicy)
{
	return name_of(iopolicy_names, ARRAY_SIZE(iopolicy_names), iopolicy);
}

const char *dhchap_hash_name(uint8_t hash)
{
	return name_of(dhchap_hash_names, ARRAY_SIZE(dhchap_hash_names), hash);
}

const char *dhchap_dhgroup_name(uint8_t group)
{
	return name_of(dhchap_dhgroup_names, ARRAY_SIZE(dhchap_dhgroup_names),
		       group);
}

const char *auth_failure_name(uint8_t reason)
{
	if (!reason)
		return NULL;
	return name_of(auth_failure_names, ARRAY_SIZE(auth_failure_names),
		       reason);
}

/* What the admin queue's last exchange used, if there was one. */
static bool dhchap_done(const struct ctrl_info *c)
{
	return c->has_dhchap_flags && c->has_dhchap_hash;
}

const char *dhchap_str(const struct ctrl_info *c, char *buf, size_t len)
{
	if (dhchap_done(c)) {
		snprintf(buf, len, "%s %s %s", dhchap_hash_name(c->dhchap_hash),
			 dhchap_dhgroup_name(c->dhchap_dhgroup),
			 c->dhchap_flags & RBLK_DHCHAP_F_BIDIRECTIONAL ?
			 "bidirectional" : "unidirectional");
		return buf;
	}
	/* A host key the target did not ask for (nvme connects so too). */
	if (c->has_dhchap_flags && (c->dhchap_flags & RBLK_DHCHAP_F_HOST_KEY)) {
		snprintf(buf, len, "none (target does not authenticate)");
		return buf;
	}
	return NULL;
}

/* A path's ANA state; "-" before a log has listed it. */
const char *ana_state_name(const struct ns_info *ns)
{
	if (!ns->has_ana_state)
		return "-";
	return name_of(ana_state_names, ARRAY_SIZE(ana_state_names),
		       ns->ana_state);
}

/*
 * NVMe-oF ADRFAM and TRTYPE codes, spelled as nvme-cli does (libnvme has
 * no word for ADRFAM 254, intra-host, though it does for TRTYPE loop).
 */
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

/*
 * Secure channel (bits 1:0) and SQ flow control disable (bit 2): libnvme
 * names the combinations it knows only, the reserved 3 none.
 */
const char *treq_name(uint8_t treq)
{
	static const char *const names[] = {
		[0] = "not specified",
		[1] = "required",
		[2] = "not required",
		[4] = "not specified, sq flow control disable supported",
		[5] = "required, sq flow control disable supported",
		[6] = "not required, sq flow control disable supported",
	};

	if (treq >= ARRAY_SIZE(names) || !names[treq])
		return "unrecognized";
	return names[treq];
}

/* The libnvme spellings nvme-cli 2.x prints. */
const char *eflags_name(uint16_t eflags)
{
	static const char *const names[] = {
		[0] = "none",
		[1] = "explicit discovery connections",
		[2] = "duplicate discovery information",
		[3] = "explicit discovery connections, duplicate discovery information",
		[4] = "no cdc connectivity",
		[5] = "explicit discovery connections, no cdc connectivity",
		[6] = "duplicate discovery information, no cdc connectivity",
		[7] = "explicit discovery connections, duplicate discovery information, no cdc connectivity",
	};

	if (eflags >= ARRAY_SIZE(names))
		return "unrecognized";
	return names[eflags];
}

const char *prtype_name(uint8_t prtype)
{
	switch (prtype) {
	case 1:
		return "not specified";
	case 2:
		return "infiniband";
	case 3:
		return "roce";
	case 4:
		return "roce-v2";
	case 5:
		return "iwarp";
	}
	return "unrecognized";
}

const char *qptype_name(uint8_t qptype)
{
	switch (qptype) {
	case 1:
		return "connected";
	case 2:
		return "datagram";
	}
	return "unrecognized";
}

const char *cms_name(uint8_t cms)
{
	return cms == 1 ? "rdma-cm" : "unrecognized";
}

const char *id_source_name(enum id_source src)
{
	switch (src) {
	case ID_OPTION:
		return "option";
	case ID_FILE:
		return "file";
	case ID_ENV:
		return "env";
	case ID_HOSTNQN:
		return "hostnqn";
	case ID_DMI:
		return "dmi";
	case ID_DEVICE_TREE:
		return "device-tree";
	case ID_KERNEL:
		break;
	}
	return "module";
}

const char *stat_name(int type)
{
	if (type < 0 || (size_t)type >= ARRAY_SIZE(stat_names))
		return NULL;
	return stat_names[type];
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

const char *hex_str(const unsigned char *bytes, size_t n, char *buf,
		    size_t len)
{
	size_t i;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < n && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", bytes[i]);
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

/* The identifiers a namespace reports: @fn(key, value, @arg) for each. */
static void ns_ids(const struct ns_info *ns,
		   void (*fn)(const char *key, const char *val, void *arg),
		   void *arg)
{
	char buf[40];

	if (ns->has_nguid)
		fn("nguid", hex_str(ns->nguid, sizeof(ns->nguid), buf,
				    sizeof(buf)), arg);
	if (ns->has_eui64)
		fn("eui64", hex_str(ns->eui64, sizeof(ns->eui64), buf,
				    sizeof(buf)), arg);
	if (ns->has_uuid)
		fn("uuid", uuid_str(ns->uuid, buf, sizeof(buf)), arg);
}

static void json_id(const char *key, const char *val, void *j)
{
	json_str(j, key, val);
}

static void json_ns(struct json *j, const char *key, const struct ns_info *ns)
{
	json_obj_open(j, key);
	json_u64(j, "index", ns->index);
	json_str(j, "name", ns->name);
	json_u64(j, "nsid", ns->nsid);
	json_u64(j, "size", ns->size);
	json_u64(j, "block_size", ns->block_size);
	json_str(j, "wwid", ns->wwid);
	ns_ids(ns, json_id, j);
	if (ns->path[0]) {
		json_str(j, "path", ns->path);
		json_u64(j, "ana_grpid", ns->ana_grpid);
		if (ns->has_ana_state)
			json_str(j, "ana_state", ana_state_name(ns));
	}
	json_obj_close(j);
}

static void json_namespaces(struct json *j, const struct ctrl_info *c)
{
	size_t i;

	json_arr_open(j, "namespaces");
	for (i = 0; i < c->nr_ns; i++)
		json_ns(j, NULL, &c->ns[i]);
	json_arr_close(j);
}

void print_connect(FILE *f, enum out_format fmt, const struct ctrl_info *c)
{
	struct json j;
	size_t i;

	if (fmt == OUT_NORMAL) {
		/* The controller first, then one device per line. */
		fprintf(f, "%s\n", c->name);
		for (i = 0; i < c->nr_ns; i++)
			fprintf(f, "%s\n", c->ns[i].name);
		return;
	}
	/* nvme-cli 2.x's {"device": ...}, and rblk's keys beside it. */
	json_init(&j, f, true);
	json_obj_open(&j, NULL);
	json_str(&j, "device", c->name);
	json_u64(&j, "index", c->index);
	json_str(&j, "name", c->name);
	json_namespaces(&j, c);
	json_obj_close(&j);
	json_end(&j);
}

void json_connected(struct json *j, const struct ctrl_info *c,
		    const struct disc_entry *e)
{
	json_obj_open(j, NULL);
	json_str(j, "device", c->name);
	json_u64(j, "index", c->index);
	json_str(j, "name", c->name);
	json_str(j, "subsysnqn", e->subnqn);
	json_str(j, "transport", "rdma");
	json_str(j, "traddr", e->traddr);
	json_str(j, "trsvcid", e->trsvcid);
	json_namespaces(j, c);
	json_obj_close(j);
}

/* Whether controller @i of @ctrls is the first of its host (@sub: and subsystem). */
static bool first_of(const struct ctrl_info *ctrls, size_t i, bool sub)
{
	size_t k;

	for (k = 0; k < i; k++) {
		if (ctrls[k].state == RBLK_STATE_DELETING ||
		    strcmp(ctrls[k].hostnqn, ctrls[i].hostnqn) ||
		    memcmp(ctrls[k].hostid, ctrls[i].hostid,
			   sizeof(ctrls[i].hostid)))
			continue;
		if (!sub || !strcmp(ctrls[k].subsysnqn, ctrls[i].subsysnqn))
			return false;
	}
	return true;
}

static bool same_host(const struct ctrl_info *a, const struct ctrl_info *b)
{
	return !strcmp(a->hostnqn, b->hostnqn) &&
	       !memcmp(a->hostid, b->hostid, sizeof(a->hostid));
}

static void config_port(struct json *j, const struct ctrl_info *c)
{
	json_obj_open(j, NULL);
	json_str(j, "transport", "rdma");
	json_str(j, "traddr", c->traddr);
	json_str(j, "trsvcid", c->trsvcid);
	if (c->host_traddr[0])
		json_str(j, "host_traddr", c->host_traddr);
	json_u64(j, "nr_io_queues", c->nr_io_queues);
	json_u64(j, "queue_size", c->queue_size);
	json_u64(j, "keep_alive_tmo", c->kato);
	json_u64(j, "reconnect_delay", c->reconnect_delay);
	json_s64(j, "ctrl_loss_tmo", c->ctrl_loss_tmo);
	/* -1, off, is the kernel's default: libnvme's 0, not set. */
	if (c->fast_io_fail_tmo >= 0)
		json_s64(j, "fast_io_fail_tmo", c->fast_io_fail_tmo);
	if (c->has_tos)
		json_u64(j, "tos", c->tos);
	json_obj_close(j);
}

void print_config(FILE *f, const struct ctrl_info *ctrls, size_t nr)
{
	char uuid[40];
	struct json j;
	size_t h, s, p;

	json_init(&j, f, true);
	json_arr_open(&j, NULL);
	for (h = 0; h < nr; h++) {
		if (ctrls[h].state == RBLK_STATE_DELETING ||
		    !first_of(ctrls, h, false))
			continue;
		json_obj_open(&j, NULL);
		json_str(&j, "hostnqn", ctrls[h].hostnqn);
		json_str(&j, "hostid",
			 uuid_str(ctrls[h].hostid, uuid, sizeof(uuid)));
		json_arr_open(&j, "subsystems");
		for (s = h; s < nr; s++) {
			if (ctrls[s].state == RBLK_STATE_DELETING ||
			    !same_host(&ctrls[s], &ctrls[h]) ||
			    !first_of(ctrls, s, true))
				continue;
			json_obj_open(&j, NULL);
			json_str(&j, "nqn", ctrls[s].subsysnqn);
			json_arr_open(&j, "ports");
			for (p = s; p < nr; p++) {
				if (ctrls[p].state != RBLK_STATE_DELETING &&
				    same_host(&ctrls[p], &ctrls[s]) &&
				    !strcmp(ctrls[p].subsysnqn,
					    ctrls[s].subsysnqn))
					config_port(&j, &ctrls[p]);
			}
			json_arr_close(&j);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_end(&j);
}

static void json_ctrl(struct json *j, const struct ctrl_info *c)
{
	char uuid[40];

	json_obj_open(j, NULL);
	json_u64(j, "index", c->index);
	json_str(j, "name", c->name);
	json_str(j, "state", state_name(c->state));
	json_str(j, "transport", c->trtype);
	json_str(j, "adrfam", adrfam_name(c->adrfam));
	json_str(j, "traddr", c->traddr);
	json_str(j, "trsvcid", c->trsvcid);
	json_str(j, "subsysnqn", c->subsysnqn);
	if (c->has_iopolicy)
		json_str(j, "iopolicy", iopolicy_name(c->iopolicy));
	json_str(j, "hostnqn", c->hostnqn);
	json_str(j, "hostid", uuid_str(c->hostid, uuid, sizeof(uuid)));
	if (c->nsid)
		json_u64(j, "nsid", c->nsid);
	json_u64(j, "cntlid", c->cntlid);
	json_str(j, "model", c->model);
	json_str(j, "serial", c->serial);
	json_str(j, "firmware", c->firmware);
	json_u64(j, "nr_io_queues", c->nr_io_queues);
	json_u64(j, "queue_size", c->queue_size);
	json_u64(j, "kato", c->kato);
	json_u64(j, "reconnect_delay", c->reconnect_delay);
	json_s64(j, "ctrl_loss_tmo", c->ctrl_loss_tmo);
	json_s64(j, "fast_io_fail_tmo", c->fast_io_fail_tmo);
	if (c->host_traddr[0])
		json_str(j, "host_traddr", c->host_traddr);
	if (c->has_tos)
		json_u64(j, "tos", c->tos);
	/* Only what an exchange used: never a key. */
	if (dhchap_done(c)) {
		json_str(j, "dhchap_hash", dhchap_hash_name(c->dhchap_hash));
		json_str(j, "dhchap_dhgroup",
			 dhchap_dhgroup_name(c->dhchap_dhgroup));
		json_flag(j, "dhchap_bidirectional",
			  c->dhchap_flags & RBLK_DHCHAP_F_BIDIRECTIONAL);
	}
	json_namespaces(j, c);
	json_obj_close(j);
}

/*
 * --- list -o json and list -v: nvme-cli 2.x's shapes ---
 *
 * nvme list -o json is {"Devices": [...]}, an object per block device
 * (namespace) in nvme-cli's keys; nvme list -v the tree of hosts,
 * subsystems, controllers and namespaces.  rblk's keys that nvme-cli has
 * no equivalent for go beside them, spelled as nvme-cli spells its own.
 * nvme-cli's UsedBytes (the namespace's utilization), GenericPath and
 * Generic (the char device) and a controller's Paths have none in rblk:
 * left out.
 */

/* Namespace @k of controller @i is a device an earlier one has too. */
static bool ns_seen(const struct ctrl_info *ctrls, size_t i, size_t k)
{
	const char *name = ctrls[i].ns[k].name;
	size_t a, b;

	for (a = 0; a <= i; a++)
		for (b = 0; b < (a == i ? k : ctrls[a].nr_ns); b++)
			if (!strcmp(ctrls[a].ns[b].name, name))
				return true;
	return false;
}

static uint64_t lba_count(const struct ns_info *ns)
{
	return ns->block_size ? ns->size / ns->block_size : 0;
}

/* ns_ids()' keys, upper case: NGUID, EUI64, UUID. */
static void json_id_upper(const char *key, const char *val, void *j)
{
	char up[16];
	size_t i;

	for (i = 0; key[i] && i < sizeof(up) - 1; i++)
		up[i] = key[i] >= 'a' && key[i] <= 'z' ? key[i] - 'a' + 'A' :
			key[i];
	up[i] = '\0';
	json_str(j, up, val);
}

/* rblk's keys of a namespace: its index (rblkN), WWID and identifiers. */
static void json_ns_rblk(struct json *j, const struct ns_info *ns)
{
	json_u64(j, "Index", ns->index);
	json_str(j, "WWID", ns->wwid);
	ns_ids(ns, json_id_upper, j);
}

/* One entry of nvme list -o json's Devices. */
static void json_device(struct json *j, const struct ctrl_info *c,
			const struct ns_info *ns)
{
	char path[sizeof("/dev/") + RBLK_DISK_NAME_LEN];

	snprintf(path, sizeof(path), "/dev/%s", ns->name);
	json_obj_open(j, NULL);
	json_u64(j, "NameSpace", ns->nsid);
	json_str(j, "DevicePath", path);
	json_str(j, "Firmware", c->firmware);
	json_str(j, "ModelNumber", c->model);
	json_str(j, "SerialNumber", c->serial);
	json_u64(j, "MaximumLBA", lba_count(ns));
	json_u64(j, "PhysicalSize", ns->size);
	json_u64(j, "SectorSize", ns->block_size);
	json_ns_rblk(j, ns);
	json_obj_close(j);
}

/* A namespace in nvme list -v's Namespaces: its name, not its NSID. */
static void json_detail_ns(struct json *j, const struct ns_info *ns)
{
	json_obj_open(j, NULL);
	json_str(j, "NameSpace", ns->name);
	json_u64(j, "NSID", ns->nsid);
	json_u64(j, "MaximumLBA", lba_count(ns));
	json_u64(j, "PhysicalSize", ns->size);
	json_u64(j, "SectorSize", ns->block_size);
	json_ns_rblk(j, ns);
	json_obj_close(j);
}

/* The sysfs "address" of a controller: nvme's, and rblk's sysfs's. */
static const char *ctrl_address(const struct ctrl_info *c, char *buf,
				size_t len)
{
	int n = snprintf(buf, len, "traddr=%s,trsvcid=%s", c->traddr,
			 c->trsvcid);

	if (c->host_traddr[0] && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ",host_traddr=%s", c->host_traddr);
	return buf;
}

/* The subsystem rblk-subsysK of controller @c; NULL if unknown. */
static const char *ctrl_subsys(const struct subsys_list *l,
			       const struct ctrl_info *c)
{
	size_t i, k;

	for (i = 0; l && i < l->nr; i++)
		for (k = 0; k < l->subsys[i].nr_paths; k++)
			if (!strcmp(l->subsys[i].paths[k].name, c->name))
				return l->subsys[i].name;
	return NULL;
}

/*
 * Whether controllers @a and @b are of one subsystem (and host): by the
 * kernel's subsystem where known, else by NQN.
 */
static bool same_subsys(const struct subsys_list *l, const struct ctrl_info *a,
			const struct ctrl_info *b)
{
	const char *x = ctrl_subsys(l, a), *y = ctrl_subsys(l, b);

	if (strcmp(a->hostnqn, b->hostnqn))
		return false;
	if (x || y)
		return x && y && !strcmp(x, y);
	return !strcmp(a->subsysnqn, b->subsysnqn);
}

/*
 * The subsystem of controller @first, with the controllers after it.
 * With multipath (an I/O policy says so) a namespace's device is its
 * subsystem's, in nvme-cli's subsystem Namespaces; else the controller's.
 */
static void json_detail_subsys(struct json *j, const struct ctrl_info *ctrls,
			       size_t nr, size_t first,
			       const struct subsys_list *l)
{
	const struct ctrl_info *s = &ctrls[first];
	const char *name = ctrl_subsys(l, s);
	char addr[sizeof(s->traddr) * 2 + sizeof(s->trsvcid) + 40];
	size_t i, k;

	json_obj_open(j, NULL);
	if (name)
		json_str(j, "Subsystem", name);
	json_str(j, "SubsystemNQN", s->subsysnqn);
	if (s->has_iopolicy)
		json_str(j, "IOPolicy", iopolicy_name(s->iopolicy));
	json_arr_open(j, "Controllers");
	for (i = first; i < nr; i++) {
		const struct ctrl_info *c = &ctrls[i];

		if (!same_subsys(l, s, c))
			continue;
		json_obj_open(j, NULL);
		json_str(j, "Controller", c->name);
		json_str(j, "SerialNumber", c->serial);
		json_str(j, "ModelNumber", c->model);
		json_str(j, "Firmware", c->firmware);
		json_str(j, "Transport", c->trtype);
		json_str(j, "Address", ctrl_address(c, addr, sizeof(addr)));
		json_str(j, "State", state_name(c->state));
		json_arr_open(j, "Namespaces");
		for (k = 0; !c->has_iopolicy && k < c->nr_ns; k++)
			json_detail_ns(j, &c->ns[k]);
		json_arr_close(j);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_arr_open(j, "Namespaces");
	for (i = first; i < nr; i++) {
		const struct ctrl_info *c = &ctrls[i];

		if (!c->has_iopolicy || !same_subsys(l, s, c))
			continue;
		for (k = 0; k < c->nr_ns; k++)
			if (!ns_seen(ctrls, i, k))
				json_detail_ns(j, &c->ns[k]);
	}
	json_arr_close(j);
	json_obj_close(j);
}

static void json_detail_list(FILE *f, const struct ctrl_info *ctrls,
			     size_t nr, const struct subsys_list *l)
{
	char uuid[40];
	struct json j;
	size_t i, k, m;

	json_init(&j, f, true);
	json_obj_open(&j, NULL);
	json_arr_open(&j, "Devices");
	for (i = 0; i < nr; i++) {
		/* Each host NQN once, where it first appears. */
		for (k = 0; k < i; k++)
			if (!strcmp(ctrls[k].hostnqn, ctrls[i].hostnqn))
				break;
		if (k < i)
			continue;
		json_obj_open(&j, NULL);
		json_str(&j, "HostNQN", ctrls[i].hostnqn);
		json_str(&j, "HostID", uuid_str(ctrls[i].hostid, uuid,
						 sizeof(uuid)));
		json_arr_open(&j, "Subsystems");
		for (k = i; k < nr; k++) {
			if (strcmp(ctrls[k].hostnqn, ctrls[i].hostnqn))
				continue;
			/* Each subsystem once, where it first appears. */
			for (m = i; m < k; m++)
				if (same_subsys(l, &ctrls[m], &ctrls[k]))
					break;
			if (m == k)
				json_detail_subsys(&j, ctrls, nr, k, l);
		}
		json_arr_close(&j);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
}

/*
 * Text tables in columns as wide as their widest cell, the last one
 * unpadded: each table is walked twice, to measure and to print.
 */
#define COLS_MAX	9

struct cols {
	FILE *f;
	bool print;
	int n;
	int width[COLS_MAX];
};

static void cols_row(struct cols *t, const char *const *cell)
{
	int i, len;

	for (i = 0; i < t->n; i++) {
		if (!t->print) {
			len = strlen(cell[i]);
			if (len > t->width[i])
				t->width[i] = len;
		} else if (i == t->n - 1) {
			fprintf(t->f, "%s\n", cell[i]);
		} else {
			fprintf(t->f, "%-*s ", t->width[i], cell[i]);
		}
	}
}

/* The header's underline, as nvme-cli draws it. */
static void cols_dashes(struct cols *t)
{
	int i, k;

	if (!t->print)
		return;
	for (i = 0; i < t->n; i++) {
		for (k = 0; k < t->width[i]; k++)
			fputc('-', t->f);
		fputc(i == t->n - 1 ? '\n' : ' ', t->f);
	}
}

/* Append ", @s" (or "@s" first) to @buf. */
static void join(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s%s", n ? ", " : "", s);
}

#define JOIN_LEN	256

static void text_detail_subsys(struct cols *t, const struct ctrl_info *ctrls,
			       size_t nr, const struct subsys_list *l)
{
	char list[JOIN_LEN], safe[SAFE_LEN];
	size_t i, k;

	for (i = 0; i < nr; i++) {
		const char *name = ctrl_subsys(l, &ctrls[i]);
		const char *cell[3];

		for (k = 0; k < i; k++)
			if (same_subsys(l, &ctrls[k], &ctrls[i]))
				break;
		if (k < i)
			continue;
		list[0] = '\0';
		for (k = i; k < nr; k++)
			if (same_subsys(l, &ctrls[i], &ctrls[k]))
				join(list, sizeof(list), ctrls[k].name);
		cell[0] = name ?: "-";
		cell[1] = SAFE(ctrls[i].subsysnqn);
		cell[2] = list;
		cols_row(t, cell);
	}
}

static void text_detail_ctrls(struct cols *t, const struct ctrl_info *ctrls,
			      size_t nr, const struct subsys_list *l)
{
	char sn[SAFE_LEN], mn[SAFE_LEN], fr[SAFE_LEN], addr[SAFE_LEN];
	char list[JOIN_LEN], buf[SAFE_LEN];
	size_t i, k;

	for (i = 0; i < nr; i++) {
		const struct ctrl_info *c = &ctrls[i];
		const char *name = ctrl_subsys(l, c);
		const char *cell[9] = {
			c->name, printable(c->serial, sn, sizeof(sn)),
			printable(c->model, mn, sizeof(mn)),
			printable(c->firmware, fr, sizeof(fr)), c->trtype,
			printable(ctrl_address(c, buf, sizeof(buf)), addr,
				  sizeof(addr)),
			state_name(c->state), name ?: "-", list,
		};

		list[0] = '\0';
		for (k = 0; k < c->nr_ns; k++)
			join(list, sizeof(list), c->ns[k].name);
		cols_row(t, cell);
	}
}

static void text_detail_ns(struct cols *t, const struct ctrl_info *ctrls,
			   size_t nr)
{
	char dev[sizeof("/dev/") + RBLK_DISK_NAME_LEN], nsid[16], size[32];
	char format[16], list[JOIN_LEN];
	const char *cell[5] = { dev, nsid, size, format, list };
	size_t i, k, a, b;

	for (i = 0; i < nr; i++) {
		for (k = 0; k < ctrls[i].nr_ns; k++) {
			const struct ns_info *ns = &ctrls[i].ns[k];

			if (ns_seen(ctrls, i, k))
				continue;
			snprintf(dev, sizeof(dev), "/dev/%s", ns->name);
			snprintf(nsid, sizeof(nsid), "%u", ns->nsid);
			size_str(ns->size, size, sizeof(size));
			snprintf(format, sizeof(format), "%u B",
				 ns->block_size);
			/* Every controller with the device: its paths. */
			list[0] = '\0';
			for (a = i; a < nr; a++)
				for (b = 0; b < ctrls[a].nr_ns; b++)
					if (!strcmp(ctrls[a].ns[b].name,
						    ns->name))
						join(list, sizeof(list),
						     ctrls[a].name);
			cols_row(t, cell);
		}
	}
}

/* nvme list -v's three tables: subsystems, controllers, namespaces. */
static void text_detail_list(FILE *f, const struct ctrl_info *ctrls,
			     size_t nr, const struct subsys_list *l)
{
	static const char *const subsys_head[] = {
		"Subsystem", "Subsystem-NQN", "Controllers",
	};
	static const char *const ctrl_head[] = {
		"Device", "SN", "MN", "FR", "TxPort", "Address", "State",
		"Subsystem", "Namespaces",
	};
	static const char *const ns_head[] = {
		"Device", "NSID", "Size", "Format", "Controllers",
	};
	struct cols t;
	int pass;

	memset(&t, 0, sizeof(t));
	t.f = f;
	t.n = ARRAY_SIZE(subsys_head);
	for (pass = 0; pass < 2; pass++, t.print = true) {
		cols_row(&t, subsys_head);
		cols_dashes(&t);
		text_detail_subsys(&t, ctrls, nr, l);
	}
	fputc('\n', f);
	memset(&t, 0, sizeof(t));
	t.f = f;
	t.n = ARRAY_SIZE(ctrl_head);
	for (pass = 0; pass < 2; pass++, t.print = true) {
		cols_row(&t, ctrl_head);
		cols_dashes(&t);
		text_detail_ctrls(&t, ctrls, nr, l);
	}
	fputc('\n', f);
	memset(&t, 0, sizeof(t));
	t.f = f;
	t.n = ARRAY_SIZE(ns_head);
	for (pass = 0; pass < 2; pass++, t.print = true) {
		cols_row(&t, ns_head);
		cols_dashes(&t);
		text_detail_ns(&t, ctrls, nr);
	}
}

void print_list_verbose(FILE *f, enum out_format fmt,
			const struct ctrl_info *ctrls, size_t nr,
			const struct subsys_list *subsys)
{
	if (fmt == OUT_JSON)
		json_detail_list(f, ctrls, nr, subsys);
	else if (nr)
		text_detail_list(f, ctrls, nr, subsys);
}

/*
 * The list table: a line per controller and under it an indented line per
 * namespace, in columns as wide as their widest cell.  list_rows() hands
 * each line to a callback, once to measure and once to print.  The
 * IOPolicy column (the controller's subsystem's) is there only when a
 * controller has one, with multipath, and the DH-HMAC-CHAP one only when
 * a controller holds a key: otherwise the table stays as it was.
 */
#define LIST_COLS	7
#define LIST_POLICY	4
#define LIST_AUTH	5

typedef void (*list_row_fn)(const char *const *cell, void *arg);

struct list_table {
	FILE *f;
	bool policy;		/* print the LIST_POLICY column */
	bool auth;		/* print the LIST_AUTH column */
	int width[LIST_COLS];
};

static void list_ns_row(const struct ns_info *ns, list_row_fn fn, void *arg)
{
	char name[RBLK_DISK_NAME_LEN + 2], nsid[16], size[32], bs[16];
	char safe[SAFE_LEN];
	const char *cell[LIST_COLS] = {
		name, nsid, size, bs, ns->path[0] ? ana_state_name(ns) : "",
		"", SAFE(ns->wwid),
	};

	snprintf(name, sizeof(name), "  %s", ns->name);
	snprintf(nsid, sizeof(nsid), "%u", ns->nsid);
	size_str(ns->size, size, sizeof(size));
	snprintf(bs, sizeof(bs), "%u", ns->block_size);
	fn(cell, arg);
}

static void list_rows(const struct ctrl_info *ctrls, size_t nr,
		      list_row_fn fn, void *arg)
{
	static const char *const ctrl_head[LIST_COLS] = {
		"Controller", "State", "Address", "Port", "IOPolicy",
		"DH-HMAC-CHAP", "Subsystem NQN",
	};
	static const char *const ns_head[LIST_COLS] = {
		"  Device", "NSID", "Size", "Block", "ANA", "", "WWID",
	};
	char safe[SAFE_LEN], auth[80];
	size_t i, k;

	fn(ctrl_head, arg);
	fn(ns_head, arg);
	for (i = 0; i < nr; i++) {
		const struct ctrl_info *c = &ctrls[i];
		const char *dhchap = dhchap_str(c, auth, sizeof(auth));
		const char *cell[LIST_COLS] = {
			c->name, state_name(c->state), c->traddr, c->trsvcid,
			c->has_iopolicy ? iopolicy_name(c->iopolicy) : "-",
			dhchap ?: "-", SAFE(c->subsysnqn),
		};

		fn(cell, arg);
		for (k = 0; k < c->nr_ns; k++)
			list_ns_row(&c->ns[k], fn, arg);
	}
}

static void list_measure(const char *const *cell, void *arg)
{
	struct list_table *t = arg;
	int i, n;

	for (i = 0; i < LIST_COLS - 1; i++) {
		n = strlen(cell[i]);
		if (n > t->width[i])
			t->width[i] = n;
	}
}

static void list_print(const char *const *cell, void *arg)
{
	struct list_table *t = arg;
	int i;

	for (i = 0; i < LIST_COLS - 1; i++) {
		if ((i != LIST_POLICY || t->policy) &&
		    (i != LIST_AUTH || t->auth))
			fprintf(t->f, "%-*s  ", t->width[i], cell[i]);
	}
	fprintf(t->f, "%s\n", cell[LIST_COLS - 1]);
}

void print_list(FILE *f, enum out_format fmt, const struct ctrl_info *ctrls,
		size_t nr)
{
	struct list_table t = { .f = f };
	struct json j;
	size_t i, k;

	if (fmt == OUT_JSON) {
		json_init(&j, f, true);
		json_obj_open(&j, NULL);
		json_arr_open(&j, "Devices");
		for (i = 0; i < nr; i++)
			for (k = 0; k < ctrls[i].nr_ns; k++)
				if (!ns_seen(ctrls, i, k))
					json_device(&j, &ctrls[i],
						    &ctrls[i].ns[k]);
		json_arr_close(&j);
		/* rblk's own, as before: show -o json of each. */
		json_arr_open(&j, "controllers");
		for (i = 0; i < nr; i++)
			json_ctrl(&j, &ctrls[i]);
		json_arr_close(&j);
		json_obj_close(&j);
		json_end(&j);
		return;
	}

	/* No controllers, no table: nothing to parse for scripts either. */
	if (!nr)
		return;
	for (i = 0; i < nr; i++) {
		t.policy |= ctrls[i].has_iopolicy;
		t.auth |= ctrls[i].has_dhchap_flags;
	}
	list_rows(ctrls, nr, list_measure, &t);
	list_rows(ctrls, nr, list_print, &t);
}

/* --- list-subsys and show-topology: nvme-cli 2.x's shapes --- */

/* A path's address as libnvme spells a controller's (sysfs "address"). */
static const char *path_address(const struct path_info *p, char *buf,
				size_t len)
{
	int n = snprintf(buf, len, "traddr=%s,trsvcid=%s", p->traddr,
			 p->trsvcid);

	if (p->host_traddr[0] && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ",host_traddr=%s", p->host_traddr);
	return buf;
}

/* A head's path's ANA state, as sysfs ana_state; "-" before a log says. */
const char *path_ana_name(const struct path_info *p)
{
	if (!p->has_ana_state)
		return "-";
	return name_of(ana_state_names, ARRAY_SIZE(ana_state_names),
		       p->ana_state);
}

/*
 * Whether a head's path @p is shown under subsystem entry @s: the entries
 * are per host NQN (subsys_sort()), each with the paths of its host.
 */
static bool head_path_shown(const struct path_info *p,
			    const struct subsys_info *s)
{
	return !strcmp(p->hostnqn, s->hostnqn);
}

/*
 * Whether subsystem entry @s is shown: with a device, its subsystem under
 * each host NQN one of the head's paths (without multipath: the
 * controller) connected with.
 */
static bool subsys_shown(const struct subsys_info *s,
			 const struct subsys_filter *flt)
{
	const struct head_info *h;
	size_t k;

	if (!flt || !flt->subsys)
		return true;
	if (strcmp(flt->subsys->name, s->name))
		return false;
	h = flt->head;
	if (h) {
		for (k = 0; k < h->nr_paths; k++)
			if (head_path_shown(&h->paths[k], s))
				return true;
		return !h->nr_paths;
	}
	if (flt->ctrl) {
		for (k = 0; k < s->nr_paths; k++)
			if (!strcmp(flt->ctrl, s->paths[k].name))
				return true;
		return false;
	}
	return true;
}

/* Whether path @p of a subsystem's controllers is shown. */
static bool ctrl_shown(const struct path_info *p,
		       const struct subsys_filter *flt)
{
	return !flt || !flt->ctrl || !strcmp(flt->ctrl, p->name);
}

/*
 * The head named by @flt's ctrl-less filter, or the subsystem's first:
 * list-subsys shows the paths of a device's namespace.
 */
static bool is_head_of(const struct head_info *h, const struct subsys_info *s)
{
	return !strcmp(h->subsys, s->name);
}

/*
 * The subsystem's lines before its paths, as nvme-cli 2.x's (libnvme's
 * iopolicy, only with multipath here); -v adds its identity.
 */
static void text_subsys_head(FILE *f, const struct subsys_info *s,
			     bool verbose, bool first)
{
	char safe[SAFE_LEN];
	int w = (int)strlen(s->name) + 3;

	fprintf(f, "%s%s - NQN=%s\n", first ? "" : "\n", s->name,
		SAFE(s->nqn));
	fprintf(f, "%*shostnqn=%s\n", w, "", SAFE(s->hostnqn));
	if (s->has_iopolicy)
		fprintf(f, "%*siopolicy=%s\n", w, "",
			iopolicy_name(s->iopolicy));
	if (verbose) {
		fprintf(f, "%*smodel=%s\n", w, "", SAFE(s->model));
		fprintf(f, "%*sserial=%s\n", w, "", SAFE(s->serial));
		fprintf(f, "%*sfirmware=%s\n", w, "", SAFE(s->firmware));
		fprintf(f, "%*stype=nvm\n", w, "");
	}
	fprintf(f, "\\\n");
}

static void json_subsys_head(struct json *j, const struct subsys_info *s,
			     bool verbose)
{
	json_str(j, "Name", s->name);
	json_str(j, "NQN", s->nqn);
	if (verbose) {
		json_str(j, "Model", s->model);
		json_str(j, "Serial", s->serial);
		json_str(j, "Firmware", s->firmware);
		if (s->has_iopolicy)
			json_str(j, "IOPolicy", iopolicy_name(s->iopolicy));
		json_str(j, "Type", "nvm");
	}
}

/* A controller as nvme-cli's JSON has one: Name, Transport, Address, State. */
static void json_path_ctrl(struct json *j, const struct path_info *p)
{
	char addr[2 * RBLK_TRADDR_MAX_LEN + RBLK_TRSVCID_MAX_LEN + 40];

	json_str(j, "Name", p->name);
	json_str(j, "Transport", "rdma");
	json_str(j, "Address", path_address(p, addr, sizeof(addr)));
	json_str(j, "State", state_name(p->state));
}

/* The subsystems shown, grouped by host NQN as nvme-cli's JSON: callback per subsystem. */
typedef void (*subsys_json_fn)(struct json *j, const struct subsys_list *l,
			       const struct subsys_info *s,
			       const struct subsys_filter *flt);

static void json_hosts(FILE *f, const struct subsys_list *l,
		       const struct subsys_filter *flt, subsys_json_fn fn)
{
	char uuid[40];
	struct json j;
	size_t i, k;

	json_init(&j, f, true);
	json_arr_open(&j, NULL);
	for (i = 0; i < l->nr; i++) {
		const struct subsys_info *hs = &l->subsys[i];
		const unsigned char *hostid = NULL;

		if (!subsys_shown(hs, flt))
			continue;
		/* Each host NQN once, where it first appears. */
		for (k = 0; k < i; k++)
			if (subsys_shown(&l->subsys[k], flt) &&
			    !strcmp(l->subsys[k].hostnqn, hs->hostnqn))
				break;
		if (k < i)
			continue;
		for (k = i; k < l->nr && !hostid; k++)
			if (!strcmp(l->subsys[k].hostnqn, hs->hostnqn) &&
			    l->subsys[k].has_hostid)
				hostid = l->subsys[k].hostid;
		json_obj_open(&j, NULL);
		json_str(&j, "HostNQN", hs->hostnqn);
		if (hostid)
			json_str(&j, "HostID",
				 uuid_str(hostid, uuid, sizeof(uuid)));
		json_arr_open(&j, "Subsystems");
		for (k = i; k < l->nr; k++) {
			const struct subsys_info *s = &l->subsys[k];

			if (!subsys_shown(s, flt) ||
			    strcmp(s->hostnqn, hs->hostnqn))
				continue;
			json_obj_open(&j, NULL);
			json_subsys_head(&j, s, flt && flt->verbose);
			fn(&j, l, s, flt);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_end(&j);
}

static void json_subsys_paths(struct json *j, const struct subsys_list *l,
			      const struct subsys_info *s,
			      const struct subsys_filter *flt)
{
	const struct head_info *h = flt ? flt->head : NULL;
	size_t k;

	(void)l;
	json_arr_open(j, "Paths");
	if (h) {
		for (k = 0; k < h->nr_paths; k++) {
			if (!head_path_shown(&h->paths[k], s))
				continue;
			json_obj_open(j, NULL);
			json_path_ctrl(j, &h->paths[k]);
			json_str(j, "ANAState", path_ana_name(&h->paths[k]));
			json_obj_close(j);
		}
	} else {
		for (k = 0; k < s->nr_paths; k++) {
			if (!ctrl_shown(&s->paths[k], flt))
				continue;
			json_obj_open(j, NULL);
			json_path_ctrl(j, &s->paths[k]);
			json_obj_close(j);
		}
	}
	json_arr_close(j);
}

/*
 * A head's path as nvme-cli prints it under list-subsys DEVICE and
 * show-topology, below @indent: name, transport, address, state, ANA state.
 */
static void text_head_path(FILE *f, const char *indent,
			   const struct path_info *p)
{
	char addr[2 * RBLK_TRADDR_MAX_LEN + RBLK_TRSVCID_MAX_LEN + 40];
	char safe[SAFE_LEN];

	fprintf(f, "%s+- %s rdma %s %s %s\n", indent, p->name,
		SAFE(path_address(p, addr, sizeof(addr))),
		state_name(p->state), path_ana_name(p));
}

void print_subsys(FILE *f, enum out_format fmt, const struct subsys_list *l,
		  const struct subsys_filter *flt)
{
	const struct head_info *h = flt ? flt->head : NULL;
	char addr[2 * RBLK_TRADDR_MAX_LEN + RBLK_TRSVCID_MAX_LEN + 40];
	char safe[SAFE_LEN];
	bool first = true;
	size_t i, k;

	if (fmt == OUT_JSON) {
		json_hosts(f, l, flt, json_subsys_paths);
		return;
	}
	for (i = 0; i < l->nr; i++) {
		const struct subsys_info *s = &l->subsys[i];

		if (!subsys_shown(s, flt))
			continue;
		text_subsys_head(f, s, flt && flt->verbose, first);
		first = false;
		if (h) {
			for (k = 0; k < h->nr_paths; k++) {
				const struct path_info *p = &h->paths[k];

				if (head_path_shown(p, s))
					text_head_path(f, " ", p);
			}
			continue;
		}
		for (k = 0; k < s->nr_paths; k++) {
			const struct path_info *p = &s->paths[k];

			if (!ctrl_shown(p, flt))
				continue;
			fprintf(f, " +- %s rdma %s %s\n", p->name,
				SAFE(path_address(p, addr, sizeof(addr))),
				state_name(p->state));
		}
	}
}

/* Whether subsystem @s has heads: multipath, nvme-cli's nvme_is_multipath(). */
static bool has_heads(const struct subsys_list *l, const struct subsys_info *s)
{
	size_t i;

	for (i = 0; i < l->nr_heads; i++)
		if (is_head_of(&l->heads[i], s))
			return true;
	return false;
}

/* The controller @name of @flt's controller list, or NULL. */
static const struct ctrl_info *topo_ctrl(const struct subsys_filter *flt,
					 const char *name)
{
	size_t i;

	for (i = 0; i < flt->nr_ctrls; i++)
		if (!strcmp(flt->ctrls[i].name, name))
			return &flt->ctrls[i];
	return NULL;
}

static void json_topo_ns(struct json *j, const struct subsys_list *l,
			 const struct subsys_info *s,
			 const struct subsys_filter *flt)
{
	size_t i, k;

	json_arr_open(j, "Namespaces");
	if (has_heads(l, s)) {
		for (i = 0; i < l->nr_heads; i++) {
			const struct head_info *h = &l->heads[i];

			if (!is_head_of(h, s))
				continue;
			json_obj_open(j, NULL);
			json_u64(j, "NSID", h->nsid);
			json_str(j, "Name", h->name);
			json_arr_open(j, "Paths");
			for (k = 0; k < h->nr_paths; k++) {
				if (!head_path_shown(&h->paths[k], s))
					continue;
				json_obj_open(j, NULL);
				json_path_ctrl(j, &h->paths[k]);
				json_str(j, "ANAState",
					 path_ana_name(&h->paths[k]));
				json_obj_close(j);
			}
			json_arr_close(j);
			json_obj_close(j);
		}
		json_arr_close(j);
		return;
	}
	/* Without multipath, each controller's namespaces, as nvme-cli's. */
	for (i = 0; i < s->nr_paths; i++) {
		const struct ctrl_info *c = topo_ctrl(flt, s->paths[i].name);

		for (k = 0; c && k < c->nr_ns; k++) {
			json_obj_open(j, NULL);
			json_u64(j, "NSID", c->ns[k].nsid);
			json_str(j, "Name", c->ns[k].name);
			json_arr_open(j, "Controller");
			json_obj_open(j, NULL);
			json_path_ctrl(j, &s->paths[i]);
			json_obj_close(j);
			json_arr_close(j);
			json_obj_close(j);
		}
	}
	json_arr_close(j);
}

static void text_topo_mpath(FILE *f, const struct subsys_list *l,
			    const struct subsys_info *s, bool by_ctrl)
{
	char addr[2 * RBLK_TRADDR_MAX_LEN + RBLK_TRSVCID_MAX_LEN + 40];
	char safe[SAFE_LEN];
	size_t i, k, c;

	if (!by_ctrl) {
		for (i = 0; i < l->nr_heads; i++) {
			const struct head_info *h = &l->heads[i];

			if (!is_head_of(h, s))
				continue;
			fprintf(f, " +- ns %u\n \\\n", h->nsid);
			for (k = 0; k < h->nr_paths; k++) {
				const struct path_info *p = &h->paths[k];

				if (head_path_shown(p, s))
					text_head_path(f, "  ", p);
			}
		}
		return;
	}
	for (c = 0; c < s->nr_paths; c++) {
		const struct path_info *cp = &s->paths[c];

		fprintf(f, " +- %s rdma %s\n \\\n", cp->name,
			SAFE(path_address(cp, addr, sizeof(addr))));
		for (i = 0; i < l->nr_heads; i++) {
			const struct head_info *h = &l->heads[i];

			if (!is_head_of(h, s))
				continue;
			for (k = 0; k < h->nr_paths; k++)
				if (!strcmp(h->paths[k].name, cp->name))
					fprintf(f, "  +- ns %u %s %s\n",
						h->nsid,
						state_name(h->paths[k].state),
						path_ana_name(&h->paths[k]));
		}
	}
}

static void text_topo_plain(FILE *f, const struct subsys_info *s,
			    const struct subsys_filter *flt, bool by_ctrl)
{
	char addr[2 * RBLK_TRADDR_MAX_LEN + RBLK_TRSVCID_MAX_LEN + 40];
	char safe[SAFE_LEN];
	size_t i, k;

	for (i = 0; i < s->nr_paths; i++) {
		const struct path_info *p = &s->paths[i];
		const struct ctrl_info *c = topo_ctrl(flt, p->name);

		path_address(p, addr, sizeof(addr));
		if (by_ctrl)
			fprintf(f, " +- %s rdma %s\n \\\n", p->name,
				SAFE(addr));
		for (k = 0; c && k < c->nr_ns; k++) {
			if (by_ctrl) {
				fprintf(f, "  +- ns %u %s\n", c->ns[k].nsid,
					state_name(p->state));
				continue;
			}
			fprintf(f, " +- ns %u\n \\\n", c->ns[k].nsid);
			fprintf(f, "  +- %s rdma %s %s\n", p->name,
				SAFE(addr), state_name(p->state));
		}
	}
}

void print_topology(FILE *f, enum out_format fmt, const struct subsys_list *l,
		    const struct subsys_filter *flt)
{
	bool first = true;
	size_t i;

	if (fmt == OUT_JSON) {
		json_hosts(f, l, flt, json_topo_ns);
		return;
	}
	for (i = 0; i < l->nr; i++) {
		const struct subsys_info *s = &l->subsys[i];

		text_subsys_head(f, s, flt->verbose, first);
		first = false;
		if (has_heads(l, s))
			text_topo_mpath(f, l, s, flt->by_ctrl);
		else
			text_topo_plain(f, s, flt, flt->by_ctrl);
	}
}

/* A "key value" line of show; values align whatever the indentation. */
__attribute__((format(printf, 4, 5)))
static void show_kv(FILE *f, int indent, const char *key, const char *fmt,
		    ...)
{
	va_list ap;

	fprintf(f, "%*s%-*s ", indent, "", 19 - indent, key);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

static void show_id(const char *key, const char *val, void *f)
{
	show_kv(f, 4, key, "%s", val);
}

static void show_ns(FILE *f, const struct ns_info *ns)
{
	char size[32], safe[SAFE_LEN];

	fprintf(f, "  %s:\n", ns->name);
	show_kv(f, 4, "nsid", "%u", ns->nsid);
	show_kv(f, 4, "size", "%" PRIu64 " (%s)", ns->size,
		size_str(ns->size, size, sizeof(size)));
	show_kv(f, 4, "block_size", "%u", ns->block_size);
	show_kv(f, 4, "wwid", "%s", SAFE(ns->wwid));
	ns_ids(ns, show_id, f);
	if (ns->path[0]) {
		show_kv(f, 4, "path", "%s", ns->path);
		show_kv(f, 4, "ana_grpid", "%u", ns->ana_grpid);
		show_kv(f, 4, "ana_state", "%s", ana_state_name(ns));
	}
}

void print_show(FILE *f, enum out_format fmt, const struct ctrl_info *c)
{
	char buf[64], safe[SAFE_LEN];
	struct json j;
	size_t i;

	if (fmt == OUT_JSON) {
		json_init(&j, f, true);
		json_ctrl(&j, c);
		json_end(&j);
		return;
	}

	fprintf(f, "%s: %s\n", c->name, state_name(c->state));
	show_kv(f, 2, "transport", "%s", c->trtype);
	show_kv(f, 2, "adrfam", "%s", adrfam_name(c->adrfam));
	show_kv(f, 2, "traddr", "%s", c->traddr);
	show_kv(f, 2, "trsvcid", "%s", c->trsvcid);
	show_kv(f, 2, "subsysnqn", "%s", SAFE(c->subsysnqn));
	if (c->has_iopolicy)
		show_kv(f, 2, "iopolicy", "%s", iopolicy_name(c->iopolicy));
	if (c->nsid)
		show_kv(f, 2, "nsid", "%u", c->nsid);
	show_kv(f, 2, "hostnqn", "%s", SAFE(c->hostnqn));
	show_kv(f, 2, "hostid", "%s", uuid_str(c->hostid, buf, sizeof(buf)));
	if (dhchap_str(c, buf, sizeof(buf)))
		show_kv(f, 2, "dhchap", "%s", buf);
	show_kv(f, 2, "cntlid", "%u", c->cntlid);
	show_kv(f, 2, "model", "%s", SAFE(c->model));
	show_kv(f, 2, "serial", "%s", SAFE(c->serial));
	show_kv(f, 2, "firmware", "%s", SAFE(c->firmware));
	show_kv(f, 2, "nr_io_queues", "%u", c->nr_io_queues);
	show_kv(f, 2, "queue_size", "%u", c->queue_size);
	show_kv(f, 2, "kato", "%u", c->kato);
	show_kv(f, 2, "reconnect_delay", "%u", c->reconnect_delay);
	show_kv(f, 2, "ctrl_loss_tmo", "%d", c->ctrl_loss_tmo);
	show_kv(f, 2, "fast_io_fail_tmo", "%d", c->fast_io_fail_tmo);
	if (c->host_traddr[0])
		show_kv(f, 2, "host_traddr", "%s", SAFE(c->host_traddr));
	if (c->has_tos)
		show_kv(f, 2, "tos", "%u", c->tos);
	show_kv(f, 2, "namespaces", "%zu", c->nr_ns);
	for (i = 0; i < c->nr_ns; i++)
		show_ns(f, &c->ns[i]);
}

/*
 * Commands per doorbell in hundredths, rounded: how many commands the
 * controller's queues posted with one ib_post_send(); 0 before any.
 */
static uint64_t cmds_per_doorbell(const struct stats_info *st)
{
	uint64_t posts = st->counter[RBLK_STAT_DOORBELLS];

	if (!posts)
		return 0;
	return (st->counter[RBLK_STAT_COMMANDS_POSTED] * 100 + posts / 2) /
	       posts;
}

void print_stats(FILE *f, enum out_format fmt, const struct stats_info *st)
{
	uint64_t cpd = cmds_per_doorbell(st);
	struct json j;
	bool any = false;
	int i;

	if (fmt == OUT_JSON) {
		json_init(&j, f, true);
		json_obj_open(&j, NULL);
		if (st->is_head) {
			json_u64(&j, "nr_paths", st->nr_paths);
		} else {
			json_u64(&j, "ctrl_index", st->ctrl_index);
			json_str(&j, "controller", st->ctrl_name);
		}
		if (st->is_ns) {
			json_u64(&j, "index", st->index);
			json_str(&j, "name", st->name);
		}
		for (i = 0; i <= RBLK_STAT_MAX; i++) {
			if (stat_name(i))
				json_u64(&j, stat_name(i), st->counter[i]);
		}
		/* A JSON number with two decimals. */
		json_member(&j, "commands_per_doorbell");
		fprintf(f, "%" PRIu64 ".%02" PRIu64, cpd / 100, cpd % 100);
		/* Bucket i: completions in [2^i, 2^(i+1)) microseconds. */
		json_arr_open(&j, "latency_hist_us");
		for (i = 0; i < RBLK_LAT_BUCKETS; i++)
			json_u64(&j, NULL, st->lat_hist[i]);
		json_arr_close(&j);
		json_obj_close(&j);
		json_end(&j);
		return;
	}

	fprintf(f, "%s:\n", st->is_ns ? st->name : st->ctrl_name);
	if (st->is_head)
		fprintf(f, "  %-19s %" PRIu32 "\n", "paths", st->nr_paths);
	else if (st->is_ns)
		fprintf(f, "  %-19s %s\n", "controller", st->ctrl_name);
	for (i = 0; i <= RBLK_STAT_MAX; i++) {
		if (stat_name(i))
			fprintf(f, "  %-19s %" PRIu64 "\n", stat_name(i),
				st->counter[i]);
	}
	fprintf(f, "  %-19s %" PRIu64 ".%02" PRIu64 "\n",
		"commands_per_doorbell", cpd / 100, cpd % 100);
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

/*
 * The text nvme-cli 2.x's "nvme discover" prints, line for line: a blank
 * line, the count and generation on one line, then per record its block,
 * the adrfam left empty without a traddr, RDMA's transport fields for
 * RDMA records only (rdma_pkey as nvme-cli 2.0 to 2.8, Debian 12's 2.3,
 * print it; 2.9 and later print "%#04x", the same from 0x0100 up).
 * Neither cntlid nor asqsz, which nvme-cli does not print (JSON has them),
 * nor TCP's sectype, which the kernel does not pass on.  Strings a target
 * sent are made safe for a terminal.
 */
static void print_discover_text(FILE *f, const struct disc_log *log)
{
	char safe[SAFE_LEN];
	size_t i;

	fprintf(f, "\nDiscovery Log Number of Records %" PRIu64
		", Generation counter %" PRIu64 "\n", log->numrec, log->genctr);
	for (i = 0; i < log->nr; i++) {
		const struct disc_entry *e = &log->e[i];

		fprintf(f, "=====Discovery Log Entry %zu======\n", i);
		fprintf(f, "trtype:  %s\n", trtype_name(e->trtype));
		fprintf(f, "adrfam:  %s\n",
			e->traddr[0] ? adrfam_name(e->adrfam) : "");
		fprintf(f, "subtype: %s\n", subtype_name(e->subtype));
		fprintf(f, "treq:    %s\n", treq_name(e->treq));
		fprintf(f, "portid:  %u\n", e->portid);
		fprintf(f, "trsvcid: %s\n", SAFE(e->trsvcid));
		fprintf(f, "subnqn:  %s\n", SAFE(e->subnqn));
		fprintf(f, "traddr:  %s\n", SAFE(e->traddr));
		fprintf(f, "eflags:  %s\n", eflags_name(e->eflags));
		if (e->trtype != 1)
			continue;
		fprintf(f, "rdma_prtype: %s\n", prtype_name(e->rdma_prtype));
		fprintf(f, "rdma_qptype: %s\n", qptype_name(e->rdma_qptype));
		fprintf(f, "rdma_cms:    %s\n", cms_name(e->rdma_cms));
		fprintf(f, "rdma_pkey: 0x%04x\n", e->rdma_pkey);
	}
}

void print_discover(FILE *f, enum out_format fmt, const struct disc_log *log)
{
	struct json j;
	size_t i;

	if (fmt != OUT_JSON) {
		print_discover_text(f, log);
		return;
	}
	/* nvme-cli 2.x's keys and values, and cntlid and asqsz. */
	json_init(&j, f, true);
	json_obj_open(&j, NULL);
	json_u64(&j, "genctr", log->genctr);
	json_u64(&j, "numrec", log->numrec);
	json_arr_open(&j, "records");
	for (i = 0; i < log->nr; i++) {
		const struct disc_entry *e = &log->e[i];

		json_obj_open(&j, NULL);
		json_str(&j, "trtype", trtype_name(e->trtype));
		json_str(&j, "adrfam", adrfam_name(e->adrfam));
		json_str(&j, "subtype", subtype_name(e->subtype));
		json_str(&j, "treq", treq_name(e->treq));
		json_u64(&j, "portid", e->portid);
		json_str(&j, "trsvcid", e->trsvcid);
		json_str(&j, "subnqn", e->subnqn);
		json_str(&j, "traddr", e->traddr);
		json_str(&j, "eflags", eflags_name(e->eflags));
		if (e->trtype == 1) {
			json_str(&j, "rdma_prtype", prtype_name(e->rdma_prtype));
			json_str(&j, "rdma_qptype", qptype_name(e->rdma_qptype));
			json_str(&j, "rdma_cms", cms_name(e->rdma_cms));
			json_u64(&j, "rdma_pkey", e->rdma_pkey);
		}
		json_u64(&j, "cntlid", e->cntlid);
		json_u64(&j, "asqsz", e->asqsz);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
}

static bool derived(enum id_source src)
{
	return src == ID_DMI || src == ID_DEVICE_TREE;
}

/* Where a value comes from, in words: show's "from" lines. */
static void show_from(FILE *f, enum id_source src, const char *file,
		      const struct host_info *h)
{
	char safe[SAFE_LEN];

	switch (src) {
	case ID_FILE:
		show_kv(f, 2, "from", "file %s", SAFE(file));
		break;
	case ID_ENV:
		show_kv(f, 2, "from", "env %s", file == h->nqn_file ?
			"LIBNVME_HOSTNQN" : "LIBNVME_HOSTID");
		break;
	case ID_DMI:
		show_kv(f, 2, "from", "dmi %s (derived from DMI product UUID)",
			SAFE(h->machine.path));
		break;
	case ID_DEVICE_TREE:
		show_kv(f, 2, "from",
			"device-tree %s (derived from device-tree partition UUID)",
			SAFE(h->machine.path));
		break;
	case ID_KERNEL:
		show_kv(f, 2, "from", "module (not persistent)");
		break;
	default:
		show_kv(f, 2, "from", "%s", id_source_name(src));
		break;
	}
}

void print_host(FILE *f, enum out_format fmt, const struct host_info *h)
{
	const char *nqn = h->nqn_src != ID_KERNEL ? h->hostnqn :
			  h->module_hostnqn;
	char id[40], safe[SAFE_LEN];
	struct json j;

	if (h->id_src != ID_KERNEL)
		uuid_str(h->hostid, id, sizeof(id));
	else
		snprintf(id, sizeof(id), "%s", h->module_hostid);

	if (fmt == OUT_JSON) {
		json_init(&j, f, true);
		json_obj_open(&j, NULL);
		/* No value when the module would choose and is not loaded. */
		if (*nqn)
			json_str(&j, "hostnqn", nqn);
		json_str(&j, "hostnqn_source", id_source_name(h->nqn_src));
		json_str(&j, "hostnqn_file", h->nqn_file);
		if (derived(h->nqn_src))
			json_str(&j, "hostnqn_derived_from", h->machine.path);
		if (*id)
			json_str(&j, "hostid", id);
		json_str(&j, "hostid_source", id_source_name(h->id_src));
		json_str(&j, "hostid_file", h->id_file);
		if (derived(h->id_src))
			json_str(&j, "hostid_derived_from", h->machine.path);
		/* The module's own: a new one at each load. */
		json_flag(&j, "persistent", h->nqn_src != ID_KERNEL &&
					    h->id_src != ID_KERNEL);
		if (h->module_loaded) {
			json_obj_open(&j, "module");
			json_str(&j, "hostnqn", h->module_hostnqn);
			json_str(&j, "hostid", h->module_hostid);
			json_obj_close(&j);
		}
		json_obj_close(&j);
		json_end(&j);
		return;
	}

	show_kv(f, 0, "hostnqn", "%s", *nqn ? SAFE(nqn) : "-");
	show_from(f, h->nqn_src, h->nqn_file, h);
	show_kv(f, 0, "hostid", "%s", *id ? id : "-");
	show_from(f, h->id_src, h->id_file, h);
	if (!h->module_loaded) {
		show_kv(f, 0, "module", "not loaded");
		return;
	}
	show_kv(f, 0, "module", "loaded");
	show_kv(f, 2, "hostnqn", "%s",
		*h->module_hostnqn ? SAFE(h->module_hostnqn) : "-");
	show_kv(f, 2, "hostid", "%s",
		*h->module_hostid ? h->module_hostid : "-");
}

/* A subsystem's event (iopolicy-changed): no controller. */
static void print_subsys_event(FILE *f, enum out_format fmt,
			       const struct ctrl_event *ev)
{
	char safe[SAFE_LEN];
	struct json j;

	if (fmt == OUT_JSON) {
		json_init(&j, f, false);
		json_obj_open(&j, NULL);
		json_str(&j, "event", event_name(ev->event));
		json_str(&j, "subsystem", ev->subsys);
		json_str(&j, "subsysnqn", ev->subsysnqn);
		if (ev->has_iopolicy)
			json_str(&j, "iopolicy", iopolicy_name(ev->iopolicy));
		json_obj_close(&j);
		json_end(&j);
	} else {
		fprintf(f, "%s: %s", ev->subsys, event_name(ev->event));
		if (ev->has_iopolicy)
			fprintf(f, " %s", iopolicy_name(ev->iopolicy));
		fprintf(f, " (NQN %s)\n", SAFE(ev->subsysnqn));
	}
	fflush(f);
}

void print_event(FILE *f, enum out_format fmt, const struct ctrl_event *ev)
{
	const struct ns_info *ns = &ev->ns;
	struct json j;

	if (ev->has_subsys) {
		print_subsys_event(f, fmt, ev);
		return;
	}
	if (fmt == OUT_JSON) {
		json_init(&j, f, false);
		json_obj_open(&j, NULL);
		json_str(&j, "event", event_name(ev->event));
		json_u64(&j, "index", ev->ctrl_index);
		json_str(&j, "name", ev->ctrl_name);
		json_str(&j, "state", state_name(ev->state));
		if (ev->has_ns)
			json_ns(&j, "namespace", ns);
		json_obj_close(&j);
		json_end(&j);
	} else if (ev->event == RBLK_EVENT_STATE) {
		fprintf(f, "%s: state %s\n", ev->ctrl_name,
			state_name(ev->state));
	} else {
		fprintf(f, "%s: %s", ev->ctrl_name, event_name(ev->event));
		if (ev->has_ns)
			fprintf(f, " %s nsid %u size %" PRIu64 " block_size %u",
				ns->name, ns->nsid, ns->size, ns->block_size);
		if (ev->has_ns && ns->path[0])
			fprintf(f, " path %s ana %s", ns->path,
				ana_state_name(ns));
		fprintf(f, " (state %s)\n", state_name(ev->state));
	}
	fflush(f);
}

/*
 * Plain words for what a connection to a target can fail with; the
 * kernel's extack message, printed after them, says more (the NVMe
 * status of a refused Connect, for one).
 */
const char *errno_words(int err, bool target)
{
	if (err == -EPERM)
		return "permission denied (needs CAP_SYS_ADMIN and CAP_NET_ADMIN)";
	if (!target)
		return strerror(-err);
	switch (-err) {
	case ENETUNREACH:
		return "no route to the target";
	case EHOSTUNREACH:
		return "target unreachable";
	case ECONNREFUSED:
		return "connection refused";
	case ECONNRESET:
		return "connection reset by the target";
	case ETIMEDOUT:
		return "timed out";
	case EACCES:
		return "host not allowed by the target";
	case ENOENT:
		return "subsystem or host NQN unknown to the target";
	case EALREADY:
		return "a controller to this target exists";
	case EBUSY:
		return "target busy";
	}
	return strerror(-err);
}

/* The UAPI's names, the kernel's too. */
static const char *const nvme_status_names[] = RBLK_NVME_STATUS_NAMES;

const char *nvme_status_name(uint16_t status)
{
	if (status < ARRAY_SIZE(nvme_status_names))
		return nvme_status_names[status];
	return NULL;
}

const char *auth_reason_words(uint8_t reason, const char *msg, char *buf,
			      size_t len)
{
	const char *name = auth_failure_name(reason);
	char named[64];

	buf[0] = '\0';
	if (!name)
		return buf;
	/* The kernel's messages name it so: "... (Failed)". */
	snprintf(named, sizeof(named), "(%s)", name);
	if (msg && strstr(msg, named))
		return buf;
	if (reason > RBLK_AUTH_FAILURE_MAX)
		snprintf(buf, len, " (authentication: reason %u)", reason);
	else
		snprintf(buf, len, " (authentication: %s)", name);
	return buf;
}

const char *connect_status_words(uint16_t status)
{
	/* What nvmet, and rblk's kernel message, mean by it. */
	if (status == 0x182)
		return errno_words(-ENOENT, true);
	return NULL;
}

const char *set_errno_words(int err, bool reason)
{
	if (err != -EOPNOTSUPP)
		return NULL;
	if (reason)
		return "multipath is off";
	return "not supported by the rblk module (multipath off, or a module without I/O policies)";
}

int error_exit(int err, bool blamed)
{
	/* What the kernel found wrong with a value is a usage error too. */
	if ((err == -EINVAL || err == -ERANGE) && blamed)
		return EXIT_USAGE;
	return err == -EPERM || err == -EACCES ? EXIT_PERM : EXIT_KERNEL;
}

/* Whether @c, not being deleted, has namespace @name. */
static bool ns_on(const struct ctrl_info *c, const char *name)
{
	size_t i;

	if (c->state == RBLK_STATE_DELETING)
		return false;
	for (i = 0; i < c->nr_ns; i++) {
		if (!strcmp(c->ns[i].name, name))
			return true;
	}
	return false;
}

size_t print_ns_refusal(FILE *f, const char *cmd, const char *name,
			const struct ctrl_info *ctrls, size_t nr)
{
	const struct ctrl_info *on = NULL;
	size_t i, n = 0, k = 0;

	for (i = 0; i < nr; i++) {
		if (ns_on(&ctrls[i], name) && !n++)
			on = &ctrls[i];
	}
	if (n == 1) {
		fprintf(f,
			"nvmecfg: %s: %s is a namespace of %s; disconnect %s to remove the controller and all its namespaces\n"
			"Or give --force to disconnect it by %s all the same.\n",
			cmd, name, on->name, on->name, name);
		return n;
	}
	if (!n)
		return n;
	/* A multipath head: which path to remove is not ours to guess. */
	fprintf(f, "nvmecfg: %s: %s is a namespace with several paths (controllers), ",
		cmd, name);
	for (i = 0; i < nr; i++) {
		if (!ns_on(&ctrls[i], name))
			continue;
		k++;
		fprintf(f, "%s%s", k == 1 ? "" : k == n ? " and " : ", ",
			ctrls[i].name);
	}
	fprintf(f, "; disconnect one of them to remove that controller and all its namespaces\n");
	return n;
}
