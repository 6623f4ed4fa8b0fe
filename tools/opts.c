// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg command line parsing.
 *
 * A small hand-rolled parser rather than getopt_long(): it keeps no global
 * state (the unit tests call it many times), rejects repeated options, and
 * validates every value as it is read so the kernel only sees well-formed
 * requests. Option names and letters follow nvme-cli.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "util.h"

/*
 * NUM(min, max): a decimal number in [min, max]; the ranges are the UAPI's
 * limits, and both the check and the help text use them.  NAMES(table):
 * one of the names of a UAPI table, the value their index; the help text
 * lists them, as "{a|b|c}", which the bash completion reads.
 */
struct opt_desc {
	char shrt;		/* 0: long form only */
	const char *lng;
	const char *arg;	/* NULL: takes no value */
	const char *help;
	const char *dflt;	/* help: the default, NULL if none to say */
	bool num;
	long long min, max;
	const char *const *names;
	unsigned int nr_names;
};

#define NUM(lo, hi)	.num = true, .min = (lo), .max = (hi)
#define NAMES(table)	.names = (table), \
			.nr_names = sizeof(table) / sizeof((table)[0])

/* show-topology -r, nvme-cli's words; the first is the default. */
static const char *const ranking_names[] = {
	[TOPO_RANK_NAMESPACE]	= "namespace",
	[TOPO_RANK_CTRL]	= "ctrl",
};

/* The UAPI's names: sysfs, the module parameter and nvmecfg spell them so. */
static const char *const iopolicy_names[__RBLK_IOPOLICY_MAX] =
	RBLK_IOPOLICY_NAMES;

static const struct opt_desc opt_descs[NR_OPTS] = {
	[OPT_TRANSPORT]	= { 't', "transport", "TRTYPE",
			    "transport type: only rdma", "rdma" },
	[OPT_TRADDR]	= { 'a', "traddr", "ADDR",
			    "target IPv4 or IPv6 address (fe80::1%eth0)" },
	/* A string to the kernel, but only a port number is one. */
	[OPT_TRSVCID]	= { 's', "trsvcid", "PORT",
			    "target port", "4420", NUM(1, UINT16_MAX) },
	[OPT_NQN]	= { 'n', "nqn", "NQN",
			    "subsystem NQN (discover: a discovery NQN)" },
	[OPT_HOSTNQN]	= { 'q', "hostnqn", "NQN",
			    "host NQN", "/etc/nvme/hostnqn, else the module's" },
	[OPT_HOSTID]	= { 'I', "hostid", "UUID",
			    "host identifier",
			    "/etc/nvme/hostid, the hostnqn's UUID, the module's" },
	[OPT_NSID]	= { 'N', "nsid", "NSID",
			    "expose only this namespace; rblk-specific", NULL,
			    NUM(1, 0xfffffffe) },
	[OPT_NR_IO_QUEUES] = { 'i', "nr-io-queues", "N",
			    "I/O queues", "online CPUs",
			    NUM(1, RBLK_MAX_IO_QUEUES) },
	[OPT_NR_POLL_QUEUES] = { 'P', "nr-poll-queues", "N",
			    "polled I/O queues besides those", "0",
			    NUM(0, RBLK_MAX_POLL_QUEUES) },
	[OPT_NR_WRITE_QUEUES] = { 'W', "nr-write-queues", "N",
			    "queues for writes besides those (then for reads)",
			    "0", NUM(0, RBLK_MAX_WRITE_QUEUES) },
	[OPT_QUEUE_SIZE] = { 'Q', "queue-size", "N",
			    "entries per I/O queue", "128",
			    NUM(RBLK_MIN_QUEUE_SIZE, RBLK_MAX_QUEUE_SIZE) },
	[OPT_CTRL_LOSS_TMO] = { 'l', "ctrl-loss-tmo", "SEC",
			    "give up reconnecting after SEC, -1 never", "600",
			    NUM(-1, RBLK_MAX_TMO) },
	[OPT_RECONNECT_DELAY] = { 'c', "reconnect-delay", "SEC",
			    "SEC between reconnect attempts", "10",
			    NUM(1, RBLK_MAX_RECONNECT_DELAY) },
	[OPT_KATO]	= { 'k', "keep-alive-tmo", "SEC",
			    "keep-alive timeout, 0 off", "5",
			    NUM(0, RBLK_MAX_KATO) },
	/* nvme-cli's -F since 2.10 (its -f is --host-iface). */
	[OPT_FAST_IO_FAIL_TMO] = { 'F', "fast_io_fail_tmo", "SEC",
			    "fail I/O after SEC reconnecting, -1 never", "-1",
			    NUM(-1, RBLK_MAX_TMO) },
	[OPT_HOST_TRADDR] = { 'w', "host-traddr", "ADDR",
			    "local address to connect from", "by routing" },
	[OPT_TOS]	= { 'T', "tos", "TOS",
			    "IP type of service", "the RDMA CM's",
			    NUM(0, RBLK_MAX_TOS) },
	[OPT_DUPLICATE_CONNECT] = { 'D', "duplicate-connect", NULL,
			    "allow a second controller to the same target" },
	/* nvme-cli's letters and names. */
	[OPT_DHCHAP_SECRET] = { 'S', "dhchap-secret", "KEY",
			    "DH-HMAC-CHAP host key DHHC-1:NN:<base64>: (seen by ps; kernels with CONFIG_NVME_AUTH)",
			    "/etc/nvme/hostkey if there" },
	[OPT_DHCHAP_CTRL_SECRET] = { 'C', "dhchap-ctrl-secret", "KEY",
			    "DH-HMAC-CHAP controller key: authenticate the controller too (needs a host key)" },
	[OPT_OUTPUT]	= { 'o', "output-format", "FMT",
			    "output format: normal or json", "normal" },
	[OPT_DEVICE]	= { 'd', "device", "NAME",
			    "controller rblk-ctrlM or namespace rblkN" },
	[OPT_INDEX]	= { 0, "index", "N",
			    "the namespace rblkN by index N", NULL,
			    NUM(0, INT32_MAX) },
	[OPT_COUNT]	= { 0, "count", "N", "exit after N events", NULL,
			    NUM(1, UINT32_MAX) },
	/* Milliseconds of it must fit poll()'s int. */
	[OPT_TIMEOUT]	= { 0, "timeout", "SEC", "exit after SEC seconds",
			    NULL, NUM(1, INT32_MAX / 1000) },
	/*
	 * Not nvme-cli's: its connect returns once the controller exists,
	 * before the namespace scan.  No short form, as the letters left
	 * are nvme-cli's for other things.  The default is the command's:
	 * cmd_usage() says it.
	 */
	[OPT_WAIT_TIMEOUT] = { 0, "wait-timeout", "SEC",
			    "wait at most SEC for the devices or their removal, then fail",
			    NULL, NUM(1, INT32_MAX / 1000) },
	/* Not nvme-cli's (it writes sysfs): no short form. */
	[OPT_IOPOLICY]	= { 0, "iopolicy", "POLICY",
			    "I/O policy of the subsystem", NULL,
			    NAMES(iopolicy_names) },
	/* nvme-cli's -J; connect-all only. */
	[OPT_CONFIG]	= { 'J', "config", "FILE",
			    "targets in nvme-cli's JSON config, 'none' for none",
			    "/etc/nvme/config.json" },
	[OPT_RESET]	= { 'r', "reset",  NULL,
			    "zero the counters instead of printing them" },
	/*
	 * Not nvme-cli's disconnect (-n, -d, -v): no clash; long only, as
	 * nvme-cli's -f is --host-iface.
	 */
	[OPT_FORCE]	= { 0, "force", NULL,
			    "also by a namespace's name (rblkN, --index): its controller" },
	/* nvme-cli's -O of connect, connect-all and discover. */
	[OPT_DUMP_CONFIG] = { 'O', "dump-config", NULL,
			    "then print the configuration as config.json (no keys)" },
	/* nvme-cli's, long only since 2.10 (its -S was it before). */
	[OPT_QUIET]	= { 0, "quiet", NULL,
			    "do not say what is already connected" },
	/*
	 * Not nvme-cli's: long only.  rblk-autoconnect.service reads its
	 * own files (/etc/rblk), so that nvme-cli's nvmf-autoconnect.service
	 * keeps /etc/nvme's, and disconnects only what it connected.
	 */
	[OPT_CONF_DIR]	= { 0, "conf-dir", "DIR",
			    "discovery.conf and config.json of DIR", "/etc/nvme" },
	/*
	 * nvme-cli's show-topology -r; stats' -r (--reset) is never
	 * allowed with it: a letter means what the command's option is.
	 */
	[OPT_RANKING]	= { 'r', "ranking", "ORDER",
			    "order: each namespace's paths, or each controller's namespaces",
			    "namespace", NAMES(ranking_names) },
	[OPT_RECORD]	= { 0, "record", "FILE",
			    "connect-all: add what it connects to FILE; disconnect-all: only those, then remove FILE" },
	/* nvme-cli's -p of discover and connect-all. */
	[OPT_PERSISTENT] = { 'p', "persistent", NULL,
			    "keep the discovery controller connected: its log changes are events" },
	/* Not nvme-cli's (its monitor -A is gone in 2.x): long only. */
	[OPT_AUTOCONNECT] = { 0, "autoconnect", NULL,
			    "run connect-all against a discovery controller whose log changed" },
	/* nvme-cli's list -v: the subsystem, controller, namespace tree. */
	[OPT_VERBOSE]	= { 'v', "verbose", NULL,
			    "detail: list the subsystem, controller, namespace tree; list-subsys, show-topology each subsystem's identity" },
	[OPT_HELP]	= { 'h', "help", NULL,
			    "show this help (wins over everything else)" },
};

static enum opts_result usage_err(struct cfg *cfg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cfg->err, sizeof(cfg->err), fmt, ap);
	va_end(ap);
	return OPTS_ERROR;
}

/*
 * Digits only: strtoul() alone takes signs, blanks and "0x".  A negative
 * number is a number, just out of range.
 */
static int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *v)
{
	unsigned long long n;
	char *end;

	if (*s == '-' && isdigit((unsigned char)s[1])) {
		while (isdigit((unsigned char)*++s))
			;
		return *s ? -EINVAL : -ERANGE;
	}
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || n < min || n > max)
		return -ERANGE;
	*v = n;
	return 0;
}

static int parse_s32(const char *s, int32_t min, int32_t max, int32_t *v)
{
	const char *digits = *s == '-' ? s + 1 : s;
	long long n;
	char *end;

	if (!isdigit((unsigned char)*digits))
		return -EINVAL;
	errno = 0;
	n = strtoll(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || n < min || n > max)
		return -ERANGE;
	*v = n;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The canonical 8-4-4-4-12 form only, as /etc/nvme/hostid holds it. */
int opts_parse_uuid(const char *s, unsigned char id[RBLK_HOSTID_LEN])
{
	int i, hi, lo;

	if (strlen(s) != 36)
		return -EINVAL;
	for (i = 0; i < RBLK_HOSTID_LEN; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10) {
			if (*s++ != '-')
				return -EINVAL;
		}
		hi = hexval(s[0]);
		lo = hexval(s[1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		id[i] = hi << 4 | lo;
		s += 2;
	}
	return 0;
}

bool opts_nqn_valid(const char *nqn)
{
	size_t len = strlen(nqn);

	return len >= 1 && len <= RBLK_NQN_MAX_LEN;
}

const char *opts_name(enum opt_id id, char *buf, size_t len)
{
	const struct opt_desc *d = &opt_descs[id];

	if (d->shrt)
		snprintf(buf, len, "--%s (-%c)", d->lng, d->shrt);
	else
		snprintf(buf, len, "--%s", d->lng);
	return buf;
}

static enum opts_result check_len(struct cfg *cfg, enum opt_id id,
				  const char *val, size_t max)
{
	char name[48];

	if (!*val)
		return usage_err(cfg, "%s: empty value",
				 opts_name(id, name, sizeof(name)));
	if (strlen(val) > max)
		return usage_err(cfg, "%s: longer than %zu characters",
				 opts_name(id, name, sizeof(name)), max);
	return OPTS_OK;
}

static enum opts_result number_err(struct cfg *cfg, enum opt_id id,
				   const char *val, int err, long long min,
				   long long max)
{
	char name[48];

	opts_name(id, name, sizeof(name));
	if (err == -ERANGE)
		return usage_err(cfg, "%s: %s is out of range %lld-%lld",
				 name, opts_shown(val), min, max);
	return usage_err(cfg, "%s: '%s' is not a number", name,
			 opts_shown(val));
}

/* A number in option @id's range, from opt_descs[]. */
static enum opts_result set_u32(struct cfg *cfg, enum opt_id id,
				const char *val, uint32_t *dst)
{
	const struct opt_desc *d = &opt_descs[id];
	int err = parse_u32(val, d->min, d->max, dst);

	return err ? number_err(cfg, id, val, err, d->min, d->max) : OPTS_OK;
}

static enum opts_result set_s32(struct cfg *cfg, enum opt_id id,
				const char *val, int32_t *dst)
{
	const struct opt_desc *d = &opt_descs[id];
	int err = parse_s32(val, d->min, d->max, dst);

	return err ? number_err(cfg, id, val, err, d->min, d->max) : OPTS_OK;
}

/*
 * One of option @id's names: its index into *@v.  The error lists them
 * all: "--iopolicy: 'x' is not numa, round-robin or queue-depth".
 */
static enum opts_result set_name(struct cfg *cfg, enum opt_id id,
				 const char *val, uint8_t *v)
{
	const struct opt_desc *d = &opt_descs[id];
	char name[48], list[128] = "";
	unsigned int i;
	size_t n;

	for (i = 0; i < d->nr_names; i++) {
		if (d->names[i] && !strcmp(val, d->names[i])) {
			*v = i;
			return OPTS_OK;
		}
	}
	for (i = 0; i < d->nr_names; i++) {
		if (!d->names[i])
			continue;
		n = strlen(list);
		snprintf(list + n, sizeof(list) - n, "%s%s",
			 !n ? "" : i + 1 < d->nr_names ? ", " : " or ",
			 d->names[i]);
	}
	return usage_err(cfg, "%s: '%s' is not %s",
			 opts_name(id, name, sizeof(name)), opts_shown(val),
			 list);
}

/*
 * A device name, or nvme-cli's list of them, "NAME,NAME" (disconnect -d;
 * the command refuses a list where it takes one device only).
 */
static enum opts_result set_device(struct cfg *cfg, const char *val)
{
	const char *p, *end;
	size_t len;

	if (!strncmp(val, "/dev/", 5))
		val += 5;
	for (p = val;; p = end + 1) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (!strncmp(p, "/dev/", 5) && p != val) {
			p += 5;
			len -= 5;
		}
		if (!len)
			return usage_err(cfg, "empty device name");
		if (len >= RBLK_DISK_NAME_LEN)
			return usage_err(cfg, "device name '%.*s' too long",
					 (int)len, opts_shown(p));
		if (!end)
			break;
	}
	cfg->device = val;
	return OPTS_OK;
}

static enum opts_result set_opt(struct cfg *cfg, enum opt_id id,
				const char *val)
{
	enum opts_result r;
	char name[48];

	switch (id) {
	case OPT_TRANSPORT:
		if (strcmp(val, "rdma"))
			return usage_err(cfg,
					 "--transport: '%s' is not supported, only rdma",
					 opts_shown(val));
		break;
	case OPT_TRADDR:
		r = check_len(cfg, id, val, RBLK_TRADDR_MAX_LEN);
		if (r)
			return r;
		cfg->traddr = val;
		break;
	case OPT_TRSVCID: {
		uint32_t port;

		r = check_len(cfg, id, val, RBLK_TRSVCID_MAX_LEN);
		if (!r)
			r = set_u32(cfg, id, val, &port);
		if (r)
			return r;
		cfg->trsvcid = val;
		break;
	}
	case OPT_NQN:
		/* The one NQN rule (opts_nqn_valid()): length only. */
		r = check_len(cfg, id, val, RBLK_NQN_MAX_LEN);
		if (r)
			return r;
		cfg->nqn = val;
		break;
	case OPT_HOSTNQN:
		r = check_len(cfg, id, val, RBLK_NQN_MAX_LEN);
		if (r)
			return r;
		cfg->hostnqn = val;
		break;
	case OPT_HOSTID:
		if (opts_parse_uuid(val, cfg->hostid))
			return usage_err(cfg, "%s: '%s' is not a UUID",
					 opts_name(id, name, sizeof(name)),
					 opts_shown(val));
		break;
	case OPT_HOST_TRADDR:
		/* An IPv6 scope id (fe80::1%eth0) is the kernel's to parse. */
		r = check_len(cfg, id, val, RBLK_TRADDR_MAX_LEN);
		if (r)
			return r;
		cfg->host_traddr = val;
		break;
	case OPT_DHCHAP_SECRET:
	case OPT_DHCHAP_CTRL_SECRET:
		/* Never quoted: the value is a secret. */
		if (!opts_dhchap_secret_valid(val))
			return usage_err(cfg,
					 "%s: not a DH-HMAC-CHAP key (DHHC-1:NN:<base64>:, NN 00-03)",
					 opts_name(id, name, sizeof(name)));
		if (id == OPT_DHCHAP_SECRET)
			cfg->dhchap_secret = val;
		else
			cfg->dhchap_ctrl_secret = val;
		break;
	case OPT_NSID:
		return set_u32(cfg, id, val, &cfg->nsid);
	case OPT_NR_IO_QUEUES:
		return set_u32(cfg, id, val, &cfg->nr_io_queues);
	case OPT_NR_POLL_QUEUES:
		return set_u32(cfg, id, val, &cfg->nr_poll_queues);
	case OPT_NR_WRITE_QUEUES:
		return set_u32(cfg, id, val, &cfg->nr_write_queues);
	case OPT_QUEUE_SIZE:
		return set_u32(cfg, id, val, &cfg->queue_size);
	case OPT_CTRL_LOSS_TMO:
		return set_s32(cfg, id, val, &cfg->ctrl_loss_tmo);
	case OPT_RECONNECT_DELAY:
		return set_u32(cfg, id, val, &cfg->reconnect_delay);
	case OPT_KATO:
		return set_u32(cfg, id, val, &cfg->kato);
	case OPT_FAST_IO_FAIL_TMO:
		return set_s32(cfg, id, val, &cfg->fast_io_fail_tmo);
	case OPT_TOS: {
		uint32_t tos;

		r = set_u32(cfg, id, val, &tos);
		cfg->tos = tos;
		return r;
	}
	case OPT_OUTPUT:
		if (!strcmp(val, "normal"))
			cfg->format = OUT_NORMAL;
		else if (!strcmp(val, "json"))
			cfg->format = OUT_JSON;
		else
			return usage_err(cfg,
					 "%s: '%s' is not normal or json",
					 opts_name(id, name, sizeof(name)),
					 opts_shown(val));
		break;
	case OPT_DEVICE:
		return set_device(cfg, val);
	case OPT_INDEX:
		return set_u32(cfg, id, val, &cfg->index);
	case OPT_COUNT:
		return set_u32(cfg, id, val, &cfg->count);
	case OPT_TIMEOUT:
		return set_u32(cfg, id, val, &cfg->timeout);
	case OPT_WAIT_TIMEOUT:
		return set_u32(cfg, id, val, &cfg->wait_timeout);
	case OPT_IOPOLICY:
		return set_name(cfg, id, val, &cfg->iopolicy);
	case OPT_RANKING:
		return set_name(cfg, id, val, &cfg->ranking);
	case OPT_CONFIG:
		r = check_len(cfg, id, val, 4095);
		if (r)
			return r;
		cfg->config = val;
		break;
	case OPT_CONF_DIR:
		r = check_len(cfg, id, val, 4000);
		if (r)
			return r;
		cfg->conf_dir = val;
		break;
	case OPT_RECORD:
		r = check_len(cfg, id, val, 4095);
		if (r)
			return r;
		cfg->record = val;
		break;
	case OPT_DUPLICATE_CONNECT:
	case OPT_RESET:
	case OPT_VERBOSE:
	case OPT_FORCE:
	case OPT_DUMP_CONFIG:
	case OPT_QUIET:
	case OPT_PERSISTENT:
	case OPT_AUTOCONNECT:
	case OPT_HELP:
	case NR_OPTS:
		break;
	}
	return OPTS_OK;
}

bool opts_dhchap_secret_valid(const char *s)
{
	static const char pre[] = RBLK_DHCHAP_SECRET_PREFIX;
	size_t p = sizeof(pre) - 1;
	size_t len = strnlen(s, RBLK_DHCHAP_SECRET_MAX_LEN + 1);
	size_t i;

	if (len > RBLK_DHCHAP_SECRET_MAX_LEN || len < p + 5 ||
	    strncmp(s, pre, p) || s[p] != '0' || s[p + 1] < '0' ||
	    s[p + 1] > '3' || s[p + 2] != ':' || s[len - 1] != ':')
		return false;
	for (i = p + 3; i < len - 1; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '+' &&
		    s[i] != '/' && s[i] != '=')
			return false;
	}
	return true;
}

const char *opts_shown(const char *arg)
{
	return strstr(arg, "DHHC-1:") ? OPTS_KEY_SHOWN : arg;
}

/* nvme-cli spells some long options with '_': accept both. */
static bool long_name_eq(const char *arg, size_t len, const char *name)
{
	size_t i;

	if (strlen(name) != len)
		return false;
	for (i = 0; i < len; i++) {
		char a = arg[i] == '_' ? '-' : arg[i];
		char n = name[i] == '_' ? '-' : name[i];

		if (a != n)
			return false;
	}
	return true;
}

static int find_long(const char *arg, size_t len)
{
	int id;

	for (id = 0; id < NR_OPTS; id++) {
		if (long_name_eq(arg, len, opt_descs[id].lng))
			return id;
	}
	return -1;
}

/*
 * The option of letter @c that @allowed has, else the first with it: two
 * options share a letter only where nvme-cli's commands give it two
 * meanings (-r: stats --reset, show-topology --ranking), never both
 * allowed in one command.
 */
static int find_short(char c, uint64_t allowed)
{
	int id, first = -1;

	for (id = 0; id < NR_OPTS; id++) {
		if (opt_descs[id].shrt != c)
			continue;
		if (allowed & OPT_BIT(id))
			return id;
		if (first < 0)
			first = id;
	}
	return first;
}

/*
 * nvme-cli 2.x's options (fabrics.c: NVMF_ARGS and each command's own,
 * 2.10 to 2.16) that rblk has not.  Letters as 2.16 gives them, but -d,
 * which is --device of discover and connect-all since 2.10 and was
 * --disable-sqflow of them all before (still read so in old lines).
 * Never print their values: some are secrets.
 */
#define C	OPTS_CTX_CONNECT
#define D	OPTS_CTX_DISCOVER
#define X	OPTS_CTX_DISCONNECT
#define F	OPTS_CTX_CONF
#define NO_NBFT	"rblk reads no NBFT (boot firmware table)"
static const struct opts_foreign foreign_opts[] = {
	{ "host-iface", 'f', C | D | F, true, C | D | F, OPTS_WHY_IFACE },
	{ "keyring", 0, 0, true, C | D | F, OPTS_WHY_TLS },
	/* And the legacy --tls_key ID: '_' and '-' are alike. */
	{ "tls-key", 0, 0, true, C | D | F, OPTS_WHY_TLS },
	{ "tls-key-identity", 0, 0, true, C | D | F, OPTS_WHY_TLS },
	{ "tls", 0, 0, false, C | D | F, OPTS_WHY_TLS },
	{ "concat", 0, 0, false, C | D | F, OPTS_WHY_CONCAT },
	{ "hdr-digest", 'g', C | D | F, false, C | D | F, OPTS_WHY_DIGEST },
	{ "data-digest", 'G', C | D | F, false, C | D | F, OPTS_WHY_DIGEST },
	{ "disable-sqflow", 'd', C | F, false, C | D | F, OPTS_WHY_SQFLOW },
	/* An existing persistent discovery controller to ask. */
	{ "device", 'd', D, true, D | F, OPTS_WHY_PERSISTENT },
	/* "Force persistent discovery controller creation" */
	{ "force", 0, 0, false, D | F, OPTS_WHY_PERSISTENT },
	{ "raw", 'r', D | F, true, D | F, "rblk saves no raw log page" },
	{ "nbft", 0, 0, false, D | F, NO_NBFT },
	{ "no-nbft", 0, 0, false, D | F, NO_NBFT },
	{ "nbft-path", 0, 0, true, D | F, NO_NBFT },
	{ "context", 0, 0, true, C | D | F, OPTS_WHY_CONTEXT },
	{ "verbose", 'v', C | D | X | F, false, C | D | X | F,
	  "nvme-cli's log level: rblk logs to the kernel log" },
	/* nvme connect -J connects what the file lists, without discovery. */
	{ "config", 'J', C | F, true, C | F,
	  "connect-all reads config.json (-J)" },
	/* rblk's on the command line; a line's would be the command line's. */
	{ "output-format", 'o', F, true, F, "the command line's applies" },
	{ "quiet", 0, 0, false, F, "the command line's applies" },
	{ "dump-config", 'O', F, false, F, "the command line's applies" },
	{ "no-reuse", 0, 0, false, F, "an nvme-cli option" },
	{ "owner", 0, 0, true, F, "an nvme-cli option" },
};
#undef C
#undef D
#undef X
#undef F
#undef NO_NBFT

const struct opts_foreign *opts_foreign(const char *arg, unsigned int ctx)
{
	const char *eq;
	size_t i, len;

	if (arg[0] != '-' || !arg[1])
		return NULL;
	eq = arg[1] == '-' ? strchr(arg + 2, '=') : NULL;
	len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
	for (i = 0; i < ARRAY_SIZE(foreign_opts); i++) {
		const struct opts_foreign *f = &foreign_opts[i];

		if (!(f->ctx & ctx))
			continue;
		if (arg[1] == '-' ? long_name_eq(arg + 2, len, f->lng) :
		    (f->shrt && arg[1] == f->shrt && (f->shrt_ctx & ctx)))
			return f;
	}
	return NULL;
}

const char *opts_foreign_name(const struct opts_foreign *f, unsigned int ctx,
			      char *buf, size_t len)
{
	if (f->shrt && (f->shrt_ctx & ctx))
		snprintf(buf, len, "--%s (-%c)", f->lng, f->shrt);
	else
		snprintf(buf, len, "--%s", f->lng);
	return buf;
}

int opts_find(const char *arg)
{
	const char *eq;

	if (arg[0] != '-' || !arg[1])
		return -1;
	if (arg[1] != '-')
		return find_short(arg[1], 0);
	eq = strchr(arg + 2, '=');
	return find_long(arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
}

enum opts_result opts_set(struct cfg *cfg, enum opt_id id, const char *val)
{
	enum opts_result r = OPTS_OK;
	char name[48];

	if (opt_descs[id].arg && !val)
		return usage_err(cfg, "%s needs a value",
				 opts_name(id, name, sizeof(name)));
	if (opt_descs[id].arg)
		r = set_opt(cfg, id, val);
	if (!r)
		cfg->set |= OPT_BIT(id);
	return r;
}

enum opts_result opts_parse(struct cfg *cfg, int argc, char *const argv[],
			    uint64_t allowed, uint64_t required)
{
	return opts_parse_ctx(cfg, argc, argv, allowed, required, 0);
}

enum opts_result opts_parse_ctx(struct cfg *cfg, int argc,
				char *const argv[], uint64_t allowed,
				uint64_t required, unsigned int ctx)
{
	/*
	 * What names the object to act on: a device, or for disconnect also
	 * a subsystem (every controller of it).
	 */
	uint64_t selectors = OPT(DEVICE) | OPT(INDEX);
	bool only_args = false;
	enum opts_result r;
	char name[48];
	int i, id;

	if (allowed & OPT(DEVICE))
		selectors |= allowed & OPT(NQN);
	memset(cfg, 0, sizeof(*cfg));

	/*
	 * -h or --help anywhere before "--" wins over whatever else is
	 * wrong, even an error earlier on the line ("-a -h").
	 */
	for (i = 1; i < argc && (allowed & OPT(HELP)); i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cfg->set |= OPT(HELP);
			return OPTS_HELP;
		}
	}

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;

		if (only_args || arg[0] != '-' || !arg[1]) {
			/* The one positional argument: what to act on. */
			if (!(allowed & OPT(DEVICE)))
				return usage_err(cfg, "unexpected argument '%s'",
						 opts_shown(arg));
			if (cfg->set & selectors)
				return usage_err(cfg, "more than one device given");
			r = set_device(cfg, arg);
			if (r)
				return r;
			cfg->set |= OPT(DEVICE);
			continue;
		}
		if (!strcmp(arg, "--")) {
			only_args = true;
			continue;
		}

		if (arg[1] == '-') {
			const char *eq = strchr(arg + 2, '=');
			size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);

			id = find_long(arg + 2, len);
			if (eq)
				val = eq + 1;
		} else {
			id = find_short(arg[1], allowed);
			if (arg[2])
				val = arg + 2;
		}
		if (id < 0 || !(allowed & OPT_BIT(id))) {
			const struct opts_foreign *f = opts_foreign(arg, ctx);

			if (f)
				return usage_err(cfg, "%s: %s",
						 opts_foreign_name(f, ctx, name,
								   sizeof(name)),
						 f->why);
			return usage_err(cfg, "unknown option '%s'",
					 opts_shown(arg));
		}
		opts_name(id, name, sizeof(name));

		if (!opt_descs[id].arg) {
			if (val)
				return usage_err(cfg, "%s takes no value", name);
		} else if (!val) {
			/*
			 * The next argument, unless it is an option: a
			 * forgotten value must not eat "-n" ("-1" is a value).
			 */
			if (++i == argc || (argv[i][0] == '-' && argv[i][1] &&
					    !isdigit((unsigned char)argv[i][1])))
				return usage_err(cfg, "%s needs a value", name);
			val = argv[i];
		}

		if (id == OPT_HELP) {
			cfg->set |= OPT(HELP);
			continue;
		}
		if ((selectors & OPT_BIT(id)) && (cfg->set & selectors))
			return usage_err(cfg, "more than one device given");
		if (cfg->set & OPT_BIT(id))
			return usage_err(cfg, "%s given more than once", name);
		r = set_opt(cfg, id, val);
		if (r)
			return r;
		cfg->set |= OPT_BIT(id);
	}

	/* --help wins over whatever else is wrong or missing. */
	if (cfg->set & OPT(HELP))
		return OPTS_HELP;

	for (id = 0; id < NR_OPTS; id++) {
		if (!(required & OPT_BIT(id)) || (cfg->set & OPT_BIT(id)))
			continue;
		if (id == OPT_DEVICE) {
			if (cfg->set & selectors)
				continue;
			return usage_err(cfg, "no device given (rblk-ctrlM, rblkN, --device%s)",
					 selectors & OPT(NQN) ?
					 ", --index or --nqn" : " or --index");
		}
		return usage_err(cfg, "missing required option %s",
				 opts_name(id, name, sizeof(name)));
	}
	return OPTS_OK;
}

/* " {a|b|c}": the names an option takes, for its help line. */
static void names_help(const struct opt_desc *d, char *buf, size_t len)
{
	unsigned int i;
	size_t n;

	snprintf(buf, len, " {");
	for (i = 0; i < d->nr_names; i++) {
		if (!d->names[i])
			continue;
		n = strlen(buf);
		snprintf(buf + n, len - n, "%s%s", n > 2 ? "|" : "",
			 d->names[i]);
	}
	n = strlen(buf);
	snprintf(buf + n, len - n, "}");
}

void opts_help(FILE *f, uint64_t allowed)
{
	char left[48], range[64];
	int id;

	for (id = 0; id < NR_OPTS; id++) {
		const struct opt_desc *d = &opt_descs[id];

		if (!(allowed & OPT_BIT(id)))
			continue;
		if (d->shrt)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", d->shrt,
				 d->lng, d->arg ? " " : "", d->arg ?: "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", d->lng,
				 d->arg ? " " : "", d->arg ?: "");
		range[0] = '\0';
		if (d->num)
			snprintf(range, sizeof(range), ", %lld-%lld", d->min,
				 d->max);
		if (d->names)
			names_help(d, range, sizeof(range));
		fprintf(f, "  %-28s %s%s", left, d->help, range);
		if (d->dflt)
			fprintf(f, " (default: %s)", d->dflt);
		fputc('\n', f);
	}
}

void opts_merge(struct cfg *dst, const struct cfg *def)
{
	uint64_t add = def->set & ~dst->set;

#define MERGE(opt, field)					\
	do {							\
		if (add & OPT(opt))				\
			dst->field = def->field;		\
	} while (0)
	MERGE(TRADDR, traddr);
	MERGE(TRSVCID, trsvcid);
	MERGE(NQN, nqn);
	MERGE(HOSTNQN, hostnqn);
	if (add & OPT(HOSTID))
		memcpy(dst->hostid, def->hostid, sizeof(dst->hostid));
	MERGE(NSID, nsid);
	MERGE(NR_IO_QUEUES, nr_io_queues);
	MERGE(NR_POLL_QUEUES, nr_poll_queues);
	MERGE(NR_WRITE_QUEUES, nr_write_queues);
	MERGE(QUEUE_SIZE, queue_size);
	MERGE(CTRL_LOSS_TMO, ctrl_loss_tmo);
	MERGE(RECONNECT_DELAY, reconnect_delay);
	MERGE(KATO, kato);
	MERGE(FAST_IO_FAIL_TMO, fast_io_fail_tmo);
	MERGE(HOST_TRADDR, host_traddr);
	MERGE(TOS, tos);
	MERGE(DHCHAP_SECRET, dhchap_secret);
	MERGE(DHCHAP_SECRET, dhchap_secret_src);
	MERGE(DHCHAP_CTRL_SECRET, dhchap_ctrl_secret);
	MERGE(DHCHAP_CTRL_SECRET, dhchap_ctrl_secret_src);
	MERGE(OUTPUT, format);
	MERGE(WAIT_TIMEOUT, wait_timeout);
#undef MERGE
	dst->set |= add & ~(OPT(DEVICE) | OPT(INDEX) | OPT(COUNT) |
			    OPT(TIMEOUT) | OPT(CONFIG) | OPT(RESET) |
			    OPT(FORCE) | OPT(DUMP_CONFIG) | OPT(QUIET) |
			    OPT(CONF_DIR) | OPT(RECORD) | OPT(HELP));
}

/* The option an attribute of our requests comes from, or -1. */
int opts_from_attr(int attr)
{
	/* Plus one: 0 is no option. */
	static const unsigned char opt_of[RBLK_ATTR_MAX + 1] = {
		[RBLK_ATTR_TRTYPE]		= OPT_TRANSPORT + 1,
		[RBLK_ATTR_TRADDR]		= OPT_TRADDR + 1,
		[RBLK_ATTR_TRSVCID]		= OPT_TRSVCID + 1,
		[RBLK_ATTR_SUBSYSNQN]		= OPT_NQN + 1,
		[RBLK_ATTR_HOSTNQN]		= OPT_HOSTNQN + 1,
		[RBLK_ATTR_HOSTID]		= OPT_HOSTID + 1,
		[RBLK_ATTR_NSID]		= OPT_NSID + 1,
		[RBLK_ATTR_NR_IO_QUEUES]	= OPT_NR_IO_QUEUES + 1,
		[RBLK_ATTR_NR_POLL_QUEUES]	= OPT_NR_POLL_QUEUES + 1,
		[RBLK_ATTR_NR_WRITE_QUEUES]	= OPT_NR_WRITE_QUEUES + 1,
		[RBLK_ATTR_QUEUE_SIZE]		= OPT_QUEUE_SIZE + 1,
		[RBLK_ATTR_KATO]		= OPT_KATO + 1,
		[RBLK_ATTR_RECONNECT_DELAY]	= OPT_RECONNECT_DELAY + 1,
		[RBLK_ATTR_CTRL_LOSS_TMO]	= OPT_CTRL_LOSS_TMO + 1,
		[RBLK_ATTR_FAST_IO_FAIL_TMO]	= OPT_FAST_IO_FAIL_TMO + 1,
		[RBLK_ATTR_HOST_TRADDR]		= OPT_HOST_TRADDR + 1,
		[RBLK_ATTR_TOS]			= OPT_TOS + 1,
		[RBLK_ATTR_DUPLICATE_CONNECT]	= OPT_DUPLICATE_CONNECT + 1,
		[RBLK_ATTR_INDEX]		= OPT_INDEX + 1,
		[RBLK_ATTR_DISK_NAME]		= OPT_DEVICE + 1,
		[RBLK_ATTR_CTRL_NAME]		= OPT_DEVICE + 1,
		[RBLK_ATTR_IOPOLICY]		= OPT_IOPOLICY + 1,
		[RBLK_ATTR_DHCHAP_SECRET]	= OPT_DHCHAP_SECRET + 1,
		[RBLK_ATTR_DHCHAP_CTRL_SECRET]	= OPT_DHCHAP_CTRL_SECRET + 1,
	};

	return attr >= 0 && attr <= RBLK_ATTR_MAX ? opt_of[attr] - 1 : -1;
}
