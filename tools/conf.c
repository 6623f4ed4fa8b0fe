// SPDX-License-Identifier: GPL-2.0
/*
 * connect-all's targets from nvme-cli's files, discovery.conf and
 * config.json.  See conf.h.
 *
 * nvme-cli's schema of config.json (libnvme's json.c and
 * doc/config-schema.json): an array of hosts, each an object with
 * "hostnqn" (required), "hostid", "dhchap_key", "hostsymname",
 * "persistent_discovery_ctrl" and "subsystems", an array of objects with
 * "nqn" (required), "application" and "ports", an array of objects with
 * "transport" (required), "traddr", "trsvcid", "host_traddr",
 * "host_iface", the keys and TLS settings, and the connect options named
 * as in the kernel's fabrics options ("nr_io_queues", ...).  The schema
 * document's form, an object with "hosts", is read too.
 */
#define _GNU_SOURCE	/* asprintf() */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "conf.h"

#define CONF_MAX_ARGS	64
#define CONF_LINE_MAX	4096

void conf_init(struct conf *c, FILE *log, const char *prefix)
{
	memset(c, 0, sizeof(*c));
	c->log = log;
	c->prefix = prefix ?: "";
}

void conf_free(struct conf *c)
{
	size_t i;

	/*
	 * Some are DH-HMAC-CHAP keys, or lines that hold one: zeroed by the
	 * size they had when kept, as a line split into words has NULs.
	 */
	for (i = 0; i < c->nr_strs; i++) {
		explicit_bzero(c->strs[i], c->str_lens[i]);
		free(c->strs[i]);
	}
	free(c->strs);
	free(c->str_lens);
	free(c->e);
	memset(c, 0, sizeof(*c));
}

__attribute__((format(printf, 6, 0)))
static void vsay(const struct conf *c, const char *name, unsigned int line,
		 const char *kind, const char *skipped, const char *fmt,
		 va_list ap)
{
	if (line)
		fprintf(c->log, "%s%s:%u: %s", c->prefix, name, line, kind);
	else
		fprintf(c->log, "%s%s: %s", c->prefix, name, kind);
	vfprintf(c->log, fmt, ap);
	if (skipped)
		fprintf(c->log, "; %s skipped", skipped);
	fputc('\n', c->log);
}

/*
 * An error, of the entry @skipped ("line", "port", ...; NULL: of the
 * file): the caller counts it.
 */
__attribute__((format(printf, 5, 6)))
static void say(const struct conf *c, const char *name, unsigned int line,
		const char *skipped, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(c, name, line, "", skipped, fmt, ap);
	va_end(ap);
}

/* Something ignored, the rest of the entry taken. */
__attribute__((format(printf, 4, 5)))
static void warn(const struct conf *c, const char *name, unsigned int line,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(c, name, line, "warning: ", NULL, fmt, ap);
	va_end(ap);
}

/*
 * Keep @s (malloc'ed) until conf_free(), which zeroes its strlen() + 1
 * bytes as they are now, whatever is written into it since; NULL, @s
 * zeroed and freed, if it cannot.
 */
static char *keep(struct conf *c, char *s)
{
	if (!s)
		return NULL;
	if (c->nr_strs == c->cap_strs) {
		size_t n = c->cap_strs ? 2 * c->cap_strs : 16;
		char **p = realloc(c->strs, n * sizeof(*p));
		size_t *l;

		if (p)
			c->strs = p;
		l = p ? realloc(c->str_lens, n * sizeof(*l)) : NULL;
		if (!l) {
			explicit_bzero(s, strlen(s));
			free(s);
			return NULL;
		}
		c->str_lens = l;
		c->cap_strs = n;
	}
	c->str_lens[c->nr_strs] = strlen(s) + 1;
	c->strs[c->nr_strs++] = s;
	return s;
}

/* "@name:@line" kept, the source of a key: 0 or -ENOMEM. */
static int key_src(struct conf *c, const char *name, unsigned int line,
		   const char **src)
{
	char *s;

	if (asprintf(&s, "%s:%u", name, line) < 0)
		return -ENOMEM;
	*src = keep(c, s);
	return *src ? 0 : -ENOMEM;
}

static struct conf_entry *add_entry(struct conf *c)
{
	struct conf_entry *e;

	if (c->nr == c->cap) {
		size_t n = c->cap ? 2 * c->cap : 8;

		e = realloc(c->e, n * sizeof(*e));
		if (!e)
			return NULL;
		c->e = e;
		c->cap = n;
	}
	e = &c->e[c->nr++];
	memset(e, 0, sizeof(*e));
	e->ask = true;
	return e;
}

/* --- discovery.conf --- */

/* The next argument is a value, not an option ("-1" is a value). */
static bool is_value(const char *arg)
{
	return arg && !(arg[0] == '-' && arg[1] &&
			!isdigit((unsigned char)arg[1]));
}

static bool is_key_opt(int id)
{
	return id == OPT_DHCHAP_SECRET || id == OPT_DHCHAP_CTRL_SECRET;
}

/*
 * Argument @arg (option @id, or -1) is the value of -S or -C: the one
 * after (@after) "-S" or "--dhchap-secret", or "-SKEY".
 */
static bool key_value(const char *arg, int id, bool after)
{
	if (after)
		return arg[0] != '-';
	return is_key_opt(id) && arg[1] != '-' && arg[2];
}

/*
 * Drop from @argv the nvme-cli options rblk has not (and their values),
 * each with a warning; what is neither rblk's nor nvme-cli's stays, for
 * opts_parse() to refuse.  Returns the new argc, 0 when the line is
 * refused (said and counted), or -1 without memory.
 */
static int drop_foreign(struct conf *c, const char *name, unsigned int line,
			int argc, char **argv)
{
	bool key = false;
	int i, n = 1, key_at = -1;

	for (i = 1; i < argc; i++) {
		const struct opts_foreign *f;
		char oname[48];
		char *arg = argv[i];
		int id;

		/*
		 * A key anywhere but as the value of -S or -C (an option
		 * spelt as nvme-cli's getopt_long_only() also takes it,
		 * grouped after a letter dropped here, one dash, a stray
		 * argument) refuses the line: never dropped with the line
		 * kept, nor quoted in a message.
		 */
		id = arg[0] == '-' && arg[1] ? opts_find(arg) : -1;
		if (strstr(arg, "DHHC-1:") && !key_value(arg, id, i == key_at))
			key = true;
		if (arg[0] != '-' || !arg[1] || !strcmp(arg, "--")) {
			argv[n++] = arg;
			continue;
		}
		if (id >= 0 && (CONF_LINE_OPTS & OPT_BIT(id))) {
			/* "-S KEY", "--dhchap-secret KEY": the next one. */
			if (is_key_opt(id) && (arg[1] == '-' || !arg[2]))
				key_at = i + 1;
			argv[n++] = arg;
			continue;
		}
		/* The command line refuses them for the same reasons. */
		f = opts_foreign(arg, OPTS_CTX_CONF);
		if (!f) {
			argv[n++] = arg;
			continue;
		}
		warn(c, name, line, "ignoring %s: %s",
		     opts_foreign_name(f, OPTS_CTX_CONF, oname,
				       sizeof(oname)),
		     f->why);
		/* "-fVALUE" holds its value; "--name" and "-f" the next. */
		if (f->arg && (arg[1] == '-' || !arg[2]) && i + 1 < argc &&
		    is_value(argv[i + 1]))
			i++;
	}
	if (key) {
		say(c, name, line, "line",
		    "a DH-HMAC-CHAP key not given with -S or -C");
		c->errors++;
		return 0;
	}
	argv[n] = NULL;
	return n;
}

/* The transport a line names, "rdma" if none. */
static const char *line_transport(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "-t") ||
		     !strcmp(argv[i], "--transport")) && i + 1 < argc)
			return argv[i + 1];
		if (!strncmp(argv[i], "-t", 2) && argv[i][2])
			return argv[i] + 2;
	}
	return "rdma";
}

/* One line of discovery.conf, not blank or a comment; 0 or -ENOMEM. */
static int conf_line(struct conf *c, const char *name, unsigned int lineno,
		     const char *text, const struct cfg *defaults)
{
	char *argv[CONF_MAX_ARGS + 2], *p, *tok, *copy;
	struct conf_entry *e;
	const char *tr;
	struct cfg cfg;
	int argc = 1;

	copy = keep(c, strdup(text));
	if (!copy)
		return -ENOMEM;
	argv[0] = "connect-all";
	for (p = copy; (tok = strsep(&p, " \t\r\n"));) {
		char *eq = NULL;

		if (!*tok)
			continue;
		/*
		 * "--name=value" and "-x=value" are two arguments, split at
		 * their first '=' only: a key's base64 ends in '=' or '=='
		 * (48 and 64 bytes), and no other argument is split.
		 */
		if (tok[0] == '-' && tok[1] == '-' && tok[2] != '=')
			eq = strchr(tok + 2, '=');
		else if (tok[0] == '-' && tok[1] && tok[1] != '-' &&
			 tok[2] == '=')
			eq = tok + 2;
		if (argc + !!eq > CONF_MAX_ARGS) {
			say(c, name, lineno, "line", "more than %d arguments",
			    CONF_MAX_ARGS);
			c->errors++;
			return 0;
		}
		if (eq)
			*eq++ = '\0';
		argv[argc++] = tok;
		if (eq && *eq)
			argv[argc++] = eq;
	}
	argv[argc] = NULL;
	tr = line_transport(argc, argv);
	if (strcmp(tr, "rdma")) {
		warn(c, name, lineno, "skipping transport %s (only rdma)",
		     opts_shown(tr));
		return 0;
	}
	argc = drop_foreign(c, name, lineno, argc, argv);
	if (argc < 0)
		return -ENOMEM;
	if (!argc)
		return 0;
	if (opts_parse(&cfg, argc, argv, CONF_LINE_OPTS, OPT(TRADDR)) !=
	    OPTS_OK) {
		say(c, name, lineno, "line", "%s", cfg.err);
		c->errors++;
		return 0;
	}
	if ((cfg.set & OPT(DHCHAP_SECRET) &&
	     key_src(c, name, lineno, &cfg.dhchap_secret_src)) ||
	    (cfg.set & OPT(DHCHAP_CTRL_SECRET) &&
	     key_src(c, name, lineno, &cfg.dhchap_ctrl_secret_src)))
		return -ENOMEM;
	opts_merge(&cfg, defaults);
	e = add_entry(c);
	if (!e)
		return -ENOMEM;
	e->cfg = cfg;
	e->passes = true;
	snprintf(e->where, sizeof(e->where), "%s:%u", name, lineno);
	return 0;
}

/*
 * Read as nvme-cli does: every line that is not blank or a '#' comment
 * holds nvme discover arguments, separated by blanks, and "--name=value"
 * at its first '='.
 */
int conf_parse_discovery(struct conf *c, const char *name, FILE *f,
			 const struct cfg *defaults)
{
	char buf[CONF_LINE_MAX];
	unsigned int lineno = 0;
	bool skip = false;
	int ret;

	while (fgets(buf, sizeof(buf), f)) {
		bool whole = strchr(buf, '\n') || feof(f);
		char *p;

		if (skip) {
			/* The rest of a line too long. */
			skip = !whole;
			continue;
		}
		lineno++;
		if (!whole) {
			say(c, name, lineno, "line", "longer than %d characters",
			    CONF_LINE_MAX - 2);
			c->errors++;
			skip = true;
			continue;
		}
		p = buf + strspn(buf, " \t\r");
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		ret = conf_line(c, name, lineno, p, defaults);
		if (ret)
			return ret;
	}
	/* The last line may hold a key. */
	explicit_bzero(buf, sizeof(buf));
	if (ferror(f)) {
		say(c, name, 0, NULL, "%s", strerror(EIO));
		c->errors++;
		return -EIO;
	}
	return 0;
}

int conf_read_discovery(struct conf *c, const char *path,
			const struct cfg *defaults)
{
	/* stdio's buffer, ours to zero: a line may hold a key. */
	char iobuf[BUFSIZ];
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		if (ret != -ENOENT) {
			say(c, path, 0, NULL, "%s", strerror(-ret));
			c->errors++;
		}
		return ret;
	}
	setvbuf(f, iobuf, _IOFBF, sizeof(iobuf));
	ret = conf_parse_discovery(c, path, f, defaults);
	fclose(f);
	explicit_bzero(iobuf, sizeof(iobuf));
	return ret;
}

/* --- config.json --- */

enum key_kind {
	K_STRING,	/* a string option */
	K_INT,		/* a whole number option */
	K_FLAG,		/* a boolean option: true sets it */
	K_IGNORE,	/* nvme-cli's, not rblk's: a warning */
	K_REFUSE,	/* nvme-cli's, not rblk's: an error, the entry skipped */
	K_SECRET,	/* a key: a string option, "" or null none here */
	K_DISCOVERY,	/* "discovery": a discovery controller's port */
};

struct key_desc {
	const char *key;
	enum key_kind kind;
	int opt;		/* enum opt_id of K_STRING, K_INT, K_FLAG */
	/*
	 * K_INT: libnvme's "not set", which it does not pass on: the option
	 * is left to the command line or the kernel (0 for the counts and
	 * most timeouts, -1 for tos; ctrl_loss_tmo has none).
	 */
	bool has_unset;
	int unset;
	const char *why;	/* K_IGNORE, K_REFUSE */
};

#define KEY(k, kd, o)	{ .key = (k), .kind = (kd), .opt = (o) }
#define INT_KEY(k, o, u) \
	{ .key = (k), .kind = K_INT, .opt = (o), .has_unset = true, .unset = (u) }
#define IGNORED(k, w)	{ .key = (k), .kind = K_IGNORE, .opt = -1, .why = (w) }
#define REFUSED(k, w)	{ .key = (k), .kind = K_REFUSE, .opt = -1, .why = (w) }
#define WALKED(k)	{ .key = (k), .kind = K_IGNORE, .opt = -1 }

/*
 * A controller key (dhchap_ctrl_key) anywhere but in a port is refused,
 * not ignored: the controller would not be authenticated.
 */
#define NO_CTRL_KEY	"a port's key only (where libnvme reads it)"
/* The command line's and discovery.conf's reasons (opts_foreign()). */
#define NO_TLS		OPTS_WHY_TLS
#define NO_DIGEST	OPTS_WHY_DIGEST
#define NO_PERSISTENT	OPTS_WHY_PERSISTENT

/* The keys of a port besides "transport". */
static const struct key_desc port_keys[] = {
	KEY("traddr", K_STRING, OPT_TRADDR),
	KEY("trsvcid", K_STRING, OPT_TRSVCID),
	KEY("host_traddr", K_STRING, OPT_HOST_TRADDR),
	INT_KEY("nr_io_queues", OPT_NR_IO_QUEUES, 0),
	INT_KEY("nr_write_queues", OPT_NR_WRITE_QUEUES, 0),
	INT_KEY("nr_poll_queues", OPT_NR_POLL_QUEUES, 0),
	INT_KEY("queue_size", OPT_QUEUE_SIZE, 0),
	INT_KEY("keep_alive_tmo", OPT_KATO, 0),
	INT_KEY("reconnect_delay", OPT_RECONNECT_DELAY, 0),
	KEY("ctrl_loss_tmo", K_INT, OPT_CTRL_LOSS_TMO),
	INT_KEY("fast_io_fail_tmo", OPT_FAST_IO_FAIL_TMO, 0),
	INT_KEY("tos", OPT_TOS, -1),
	KEY("duplicate_connect", K_FLAG, OPT_DUPLICATE_CONNECT),
	KEY("discovery", K_DISCOVERY, -1),
	IGNORED("host_iface", "rblk binds by host_traddr, else by routing"),
	KEY("dhchap_key", K_SECRET, OPT_DHCHAP_SECRET),
	KEY("dhchap_ctrl_key", K_SECRET, OPT_DHCHAP_CTRL_SECRET),
	IGNORED("keyring", NO_TLS),
	IGNORED("tls_key", NO_TLS),
	IGNORED("tls_key_identity", NO_TLS),
	IGNORED("tls", NO_TLS),
	IGNORED("concat", OPTS_WHY_CONCAT),
	IGNORED("hdr_digest", NO_DIGEST),
	IGNORED("data_digest", NO_DIGEST),
	IGNORED("disable_sqflow", OPTS_WHY_SQFLOW),
	/* libnvme's: a discovery port's controller is kept (-p). */
	KEY("persistent", K_FLAG, OPT_PERSISTENT),
	{ NULL },
};

static const struct key_desc subsys_keys[] = {
	KEY("nqn", K_STRING, OPT_NQN),
	WALKED("ports"),
	IGNORED("application", OPTS_WHY_CONTEXT),
	/* rblk's: libnvme reads a host's and a port's only. */
	KEY("dhchap_key", K_SECRET, OPT_DHCHAP_SECRET),
	REFUSED("dhchap_ctrl_key", NO_CTRL_KEY),
	{ NULL },
};

static const struct key_desc host_keys[] = {
	KEY("hostnqn", K_STRING, OPT_HOSTNQN),
	KEY("hostid", K_STRING, OPT_HOSTID),
	WALKED("subsystems"),
	KEY("dhchap_key", K_SECRET, OPT_DHCHAP_SECRET),
	REFUSED("dhchap_ctrl_key", NO_CTRL_KEY),
	IGNORED("hostsymname", "rblk sends no host symbolic name"),
	IGNORED("persistent_discovery_ctrl", NO_PERSISTENT),
	{ NULL },
};

/*
 * The file is parsed with json-c's tokener at its default depth and in
 * its default, non-strict mode, as the project decided (issue: nvme-cli's
 * files as nvme-cli takes them, never one refused that nvme-cli reads).
 * libnvme 1.0 and 1.1 (json_object_from_fd()) and nvme-cli 3's converter
 * (json_object_from_file()) parse that way; libnvme 1.2 and later set
 * JSON_TOKENER_STRICT (src/nvme/json.c, parse_json()), which takes less:
 * what strict json-c takes, non-strict json-c takes too, so no libnvme's
 * file is refused.  Non-strict json-c also takes // and block comments
 * where white space may be, a trailing comma in an object or an array,
 * strings and keys in single quotes, true, false, null, NaN and Infinity
 * in any case, leading zeros, and text after the value, which it does
 * not read (a warning here).  Both modes take what RFC 8259 does not: a
 * duplicate key (the last value wins), NaN and Infinity, control
 * characters in strings.
 */
#define CONF_JSON_FLAGS	0

/*
 * json-c keeps no positions.  After it has taken the file, a scan of the
 * text, which it has checked, finds the line of each value and hangs it on
 * the object or array holding it (json-c's userdata), as messages need.
 */
struct jloc_at {
	char *key;		/* an object's member; NULL: an array's item */
	unsigned int line;	/* where its value starts */
	const char *text;	/* the value as written, while parsed */
	size_t len;
};

struct jloc {
	unsigned int line;	/* of the '{' or '[' */
	size_t nr;
	size_t cap;
	struct jloc_at *at;	/* in the file's order, duplicates too */
};

struct jscan {
	const char *p;
	const char *end;
	unsigned int line;
	json_tokener *tok;	/* decodes the keys */
};

/* Zero the strings of @v and of what it holds, keys too: some are keys. */
static void jzero(struct json_object *v)
{
	size_t i, n;

	switch (json_object_get_type(v)) {
	case json_type_string:
		explicit_bzero((char *)json_object_get_string(v),
			       json_object_get_string_len(v));
		break;
	case json_type_array:
		n = json_object_array_length(v);
		for (i = 0; i < n; i++)
			jzero(json_object_array_get_idx(v, i));
		break;
	case json_type_object: {
		json_object_object_foreach(v, key, val) {
			jzero(val);
			explicit_bzero(key, strlen(key));
		}
		break;
	}
	default:
		break;
	}
}

/*
 * Zero what @tok holds: its buffer, and what it had built when it gave up.
 * json-c frees these without zeroing them.  The fields are json-c's own
 * (json_tokener.h); libnvme sets tok->flags the same way.
 */
static void jzero_tokener(json_tokener *tok)
{
	int i;

	for (i = 0; i <= tok->depth && i < tok->max_depth; i++) {
		jzero(tok->stack[i].current);
		jzero(tok->stack[i].obj);
		if (tok->stack[i].obj_field_name)
			explicit_bzero(tok->stack[i].obj_field_name,
				       strlen(tok->stack[i].obj_field_name));
	}
	explicit_bzero(tok->pb->buf, tok->pb->size);
}

static void jloc_free(struct json_object *v, void *data)
{
	struct jloc *l = data;
	size_t i;

	(void)v;
	for (i = 0; i < l->nr; i++) {
		if (l->at[i].key) {
			explicit_bzero(l->at[i].key, strlen(l->at[i].key));
			free(l->at[i].key);
		}
	}
	free(l->at);
	free(l);
}

/*
 * Past the comment at s->p, where json-c's tokener ends it (states
 * _comment, _comment_end; the same from 0.10 to 0.19): a line comment
 * before the new line, a block comment at a '/' after an odd number of
 * '*', not counting the opening one: json-c takes them in pairs, so a
 * comment closed by two stars, unlike C's, is not ended there.
 */
static void scan_comment(struct jscan *s)
{
	if (s->p[1] == '/') {
		while (s->p < s->end && *s->p != '\n')
			s->p++;
		return;
	}
	for (s->p += 2; s->p < s->end; s->p++) {
		if (*s->p == '\n') {
			s->line++;
		} else if (*s->p == '*' && s->p + 1 < s->end) {
			s->p++;
			if (*s->p == '/') {
				s->p++;
				return;
			}
			if (*s->p == '\n')
				s->line++;
		}
	}
}

/*
 * Past white space and comments: json-c's tokener skips both wherever it
 * skips white space (without JSON_TOKENER_STRICT).
 */
static void scan_ws(struct jscan *s)
{
	while (s->p < s->end) {
		switch (*s->p) {
		case '\n':
			s->line++;
			/* fall through */
		case ' ':
		case '\t':
		case '\r':
			s->p++;
			break;
		case '/':
			if (s->p + 1 == s->end ||
			    (s->p[1] != '/' && s->p[1] != '*'))
				return;
			scan_comment(s);
			break;
		default:
			return;
		}
	}
}

/*
 * Past the string at s->p, in double or (json-c's) single quotes: json-c
 * takes a raw new line in one, and a quote of the other kind as it is.
 */
static void scan_string(struct jscan *s)
{
	char quote = *s->p;

	for (s->p++; s->p < s->end && *s->p != quote; s->p++) {
		if (*s->p == '\\')
			s->p++;
		else if (*s->p == '\n')
			s->line++;
	}
	s->p++;
}

/* A key as json-c decodes it, from @len bytes at @q; NULL: no memory. */
static char *scan_key(struct jscan *s, const char *q, size_t len)
{
	struct json_object *k;
	char *key;

	json_tokener_reset(s->tok);
	k = json_tokener_parse_ex(s->tok, q, len);
	if (!k)
		return NULL;
	key = strdup(json_object_get_string(k));
	jzero(k);
	json_object_put(k);
	return key;
}

static int scan_value(struct jscan *s, struct json_object *v);

/*
 * The object or array at s->p, json-c's @v (NULL: none to mark, as for
 * the earlier values of a duplicate key).  0 or -ENOMEM.
 */
static int scan_container(struct jscan *s, struct json_object *v, char close)
{
	struct jloc *l = NULL;
	size_t items = 0;
	int ret;

	if (v) {
		l = calloc(1, sizeof(*l));
		if (!l)
			return -ENOMEM;
		l->line = s->line;
	}
	for (s->p++; ; ) {
		struct json_object *child = NULL;
		char *key = NULL;

		scan_ws(s);
		if (s->p >= s->end)
			break;
		if (*s->p == close) {
			s->p++;
			break;
		}
		if (*s->p == ',') {
			s->p++;
			continue;
		}
		if (close == '}') {
			const char *q = s->p;

			scan_string(s);
			if (l) {
				key = scan_key(s, q, s->p - q);
				if (!key)
					goto nomem;
				/* json-c's value: the last one. */
				child = json_object_object_get(v, key);
			}
			scan_ws(s);
			s->p++;		/* ':' */
			scan_ws(s);
		} else if (l) {
			child = json_object_array_get_idx(v, items);
		}
		items++;
		if (l) {
			if (l->nr == l->cap) {
				size_t n = l->cap ? 2 * l->cap : 8;
				struct jloc_at *at = realloc(l->at,
							     n * sizeof(*at));

				if (!at) {
					free(key);
					goto nomem;
				}
				l->at = at;
				l->cap = n;
			}
			l->at[l->nr].key = key;
			l->at[l->nr].line = s->line;
			l->at[l->nr++].text = s->p;
		}
		ret = scan_value(s, child);
		if (ret) {
			if (l)
				jloc_free(NULL, l);
			return ret;
		}
		if (l)
			l->at[l->nr - 1].len = s->p - l->at[l->nr - 1].text;
	}
	/* A later duplicate's replaces an earlier one's. */
	if (l)
		json_object_set_userdata(v, l, jloc_free);
	return 0;

nomem:
	jloc_free(NULL, l);
	return -ENOMEM;
}

static int scan_value(struct jscan *s, struct json_object *v)
{
	scan_ws(s);
	if (s->p >= s->end)
		return 0;
	switch (*s->p) {
	case '{':
		return scan_container(s, json_object_is_type(v, json_type_object) ?
				      v : NULL, '}');
	case '[':
		return scan_container(s, json_object_is_type(v, json_type_array) ?
				      v : NULL, ']');
	case '"':
	case '\'':
		scan_string(s);
		return 0;
	default:
		/*
		 * A number, true, false, null, NaN, Infinity (json-c takes
		 * them in any case), up to what may follow: a comment too.
		 */
		while (s->p < s->end && !strchr(",]}/ \t\r\n", *s->p))
			s->p++;
		return 0;
	}
}

/* The line of object or array @v's '{' or '['; 0 if not known. */
static unsigned int jline(struct json_object *v)
{
	struct jloc *l = v ? json_object_get_userdata(v) : NULL;

	return l ? l->line : 0;
}

/*
 * Where the value of @obj's @key is, the one json-c has: the last; NULL if
 * not known.  *@times: how many times the key is given.
 */
static const struct jloc_at *member_at(struct json_object *obj,
				       const char *key, size_t *times)
{
	struct jloc *l = json_object_get_userdata(obj);
	const struct jloc_at *at = NULL;
	size_t i;

	*times = 0;
	for (i = 0; l && i < l->nr; i++) {
		if (l->at[i].key && !strcmp(l->at[i].key, key)) {
			at = &l->at[i];
			(*times)++;
		}
	}
	return at;
}

static unsigned int member_line(struct json_object *obj, const char *key)
{
	size_t times;
	const struct jloc_at *at = member_at(obj, key, &times);

	return at ? at->line : jline(obj);
}

/* The line of item @i of array @arr. */
static unsigned int item_line(struct json_object *arr, size_t i)
{
	struct jloc *l = json_object_get_userdata(arr);

	return l && i < l->nr ? l->at[i].line : jline(arr);
}

static const char *jtype_name(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:	return "null";
	case json_type_boolean:	return "a boolean";
	case json_type_double:
	case json_type_int:	return "a number";
	case json_type_string:	return "a string";
	case json_type_array:	return "an array";
	case json_type_object:	return "an object";
	}
	return "?";
}

/* "" or, for a key (libnvme's __add_argument()), "none": no value. */
static bool no_value(struct json_object *v, bool none)
{
	const char *s;

	if (!json_object_is_type(v, json_type_string))
		return false;
	s = json_object_get_string(v);
	return !*s || (none && !strcmp(s, "none"));
}

struct json_ctx {
	struct conf *c;
	const char *name;
	const struct cfg *defaults;
	const char *level;	/* "host", "subsystem", "port": read now */
};

/* A member of an object: json-c's value (NULL for null), where it is. */
struct jmember {
	const char *key;
	struct json_object *val;
	unsigned int line;
	const char *text;	/* as written */
	int len;
};

static const struct key_desc *find_key(const struct key_desc *keys,
				       const char *key)
{
	for (; keys->key; keys++) {
		if (!strcmp(keys->key, key))
			return keys;
	}
	return NULL;
}

/*
 * opts_set()'s error without the option's name ("--tos (-T): ..."): the
 * message names the key instead.
 */
static const char *opt_err(const struct cfg *cfg, int opt)
{
	char name[48];
	size_t n;

	opts_name(opt, name, sizeof(name));
	n = strlen(name);
	if (!strncmp(cfg->err, name, n) && !strncmp(cfg->err + n, ": ", 2))
		return cfg->err + n + 2;
	return cfg->err;
}

/* Whether @v is, or holds, a string with a DH-HMAC-CHAP key in it. */
static bool cj_has_key(struct json_object *v)
{
	size_t i, n;

	switch (json_object_get_type(v)) {
	case json_type_string:
		return strstr(json_object_get_string(v), "DHHC-1:");
	case json_type_array:
		n = json_object_array_length(v);
		for (i = 0; i < n; i++) {
			if (cj_has_key(json_object_array_get_idx(v, i)))
				return true;
		}
		return false;
	case json_type_object: {
		json_object_object_foreach(v, key, val) {
			if (strstr(key, "DHHC-1:") || cj_has_key(val))
				return true;
		}
		return false;
	}
	default:
		return false;
	}
}

/*
 * A whole number as libnvme reads it, json_object_get_int(): of a number,
 * or of a string ("4"), through strtoll().  0, -EINVAL where json-c would
 * make another number of it than the one written (a fraction, "4x",
 * "abc": 4, 4, 0), -ERANGE where it would clamp it (to int).
 */
static int cj_int(struct json_object *v, int *n)
{
	const char *s;
	long long ll;
	double d;
	char *end;

	switch (json_object_get_type(v)) {
	case json_type_int:
		ll = json_object_get_int64(v);
		if (ll < INT_MIN || ll > INT_MAX)
			return -ERANGE;
		break;
	case json_type_double:
		d = json_object_get_double(v);
		if (d != d)
			return -EINVAL;
		if (d < INT_MIN || d > INT_MAX)
			return -ERANGE;
		if (d != (double)(int)d)
			return -EINVAL;
		break;
	case json_type_string:
		s = json_object_get_string(v);
		errno = 0;
		ll = strtoll(s, &end, 10);
		if (end == s || *end)
			return -EINVAL;
		if (errno == ERANGE || ll < INT_MIN || ll > INT_MAX)
			return -ERANGE;
		break;
	default:
		return -EINVAL;
	}
	*n = json_object_get_int(v);
	return 0;
}

/*
 * Member @m of an object into @cfg as @keys describe it.  0, or -1 when
 * its value is malformed (said and counted); unknown and ignored keys
 * are warnings.  *@discovery: a "discovery".
 *
 * Values are coerced as libnvme coerces them: json_object_get_string()
 * of a number or boolean where a string is taken ("trsvcid": 4420 is
 * "4420"), json_object_get_int() of a string where a number is ("4" is
 * 4), json_object_get_boolean() of a number where a boolean is, and null
 * is as if the key were not there.  What json-c would turn into another
 * value than the one written, or that has no sense there (an array or an
 * object where a string or a number is taken), is an error.
 */
static int cj_member(struct json_ctx *x, const struct key_desc *keys,
		     const struct jmember *m, struct cfg *cfg,
		     bool *discovery)
{
	const struct key_desc *k = find_key(keys, m->key);
	struct json_object *v = m->val;
	enum json_type type = json_object_get_type(v);
	char num[32];
	int n, ret;

	/*
	 * A key where no key is taken (a misspelt name, one ignored) would
	 * connect without it: the entry is refused, the key not said.
	 */
	if ((!k || (k->kind == K_IGNORE && k->why)) &&
	    (strstr(m->key, "DHHC-1:") || cj_has_key(v))) {
		say(x->c, x->name, m->line, x->level,
		    "\"%s\": a DH-HMAC-CHAP key where none is taken (%s)",
		    opts_shown(m->key), k ? k->why : "an unknown key");
		x->c->errors++;
		return -1;
	}
	if (!k) {
		warn(x->c, x->name, m->line, "ignoring unknown key \"%s\"",
		     m->key);
		return 0;
	}
	switch (k->kind) {
	case K_IGNORE:
		if (!k->why)
			return 0;
		/* Asking for nothing rblk lacks: no need to say. */
		if ((type == json_type_boolean && !json_object_get_boolean(v)) ||
		    type == json_type_null || no_value(v, false))
			return 0;
		warn(x->c, x->name, m->line, "ignoring \"%s\": %s", m->key,
		     k->why);
		return 0;
	case K_REFUSE:
		/* No key (null, "", "none") asks for nothing. */
		if (type == json_type_null || no_value(v, true))
			return 0;
		say(x->c, x->name, m->line, x->level, "\"%s\": %s", m->key,
		    k->why);
		x->c->errors++;
		return -1;
	case K_DISCOVERY:
		/* libnvme takes the key, whatever its value. */
		*discovery = true;
		if (type != json_type_boolean || !json_object_get_boolean(v))
			warn(x->c, x->name, m->line,
			     "\"discovery\": %s taken as true, as libnvme takes it",
			     type == json_type_boolean ? "false" :
			     jtype_name(v));
		return 0;
	case K_FLAG:
		if (type == json_type_null)
			return 0;
		/* A string: json-c's "false" is true. */
		if (type != json_type_boolean && type != json_type_int &&
		    type != json_type_double)
			break;
		if (json_object_get_boolean(v))
			opts_set(cfg, k->opt, NULL);
		return 0;
	case K_SECRET:
		/* No key (null, "", "none"): the level above's, if any. */
		if (type == json_type_null || no_value(v, true))
			return 0;
		if (type != json_type_string)
			break;
		if (opts_set(cfg, k->opt, json_object_get_string(v)) != OPTS_OK)
			goto bad_value;
		if (key_src(x->c, x->name, m->line,
			    k->opt == OPT_DHCHAP_SECRET ?
			    &cfg->dhchap_secret_src :
			    &cfg->dhchap_ctrl_secret_src)) {
			say(x->c, x->name, m->line, x->level, "%s",
			    strerror(ENOMEM));
			x->c->errors++;
			return -1;
		}
		return 0;
	case K_STRING:
		if (type == json_type_null)
			return 0;
		if (type == json_type_array || type == json_type_object)
			break;
		if (opts_set(cfg, k->opt, json_object_get_string(v)) != OPTS_OK)
			goto bad_value;
		return 0;
	case K_INT:
		if (type == json_type_null)
			return 0;
		if (type != json_type_int && type != json_type_double &&
		    type != json_type_string)
			break;
		ret = cj_int(v, &n);
		if (ret && type == json_type_string) {
			say(x->c, x->name, m->line, x->level,
			    "\"%s\": '%s' is %s", m->key,
			    opts_shown(json_object_get_string(v)),
			    ret == -ERANGE ? "out of range" :
			    "not a whole number");
			x->c->errors++;
			return -1;
		}
		if (ret) {
			/* As written: json-c's int64 would clamp it. */
			say(x->c, x->name, m->line, x->level,
			    "\"%s\": %.*s is %s", m->key, m->len, m->text,
			    ret == -ERANGE ? "out of range" :
			    "not a whole number");
			x->c->errors++;
			return -1;
		}
		if (k->has_unset && n == k->unset)
			return 0;
		snprintf(num, sizeof(num), "%d", n);
		if (opts_set(cfg, k->opt, num) != OPTS_OK)
			goto bad_value;
		return 0;
	}
	say(x->c, x->name, m->line, x->level, "\"%s\": %s expected, not %s",
	    m->key,
	    k->kind == K_STRING || k->kind == K_SECRET ? "a string" :
	    k->kind == K_INT ?
	    "a whole number" : "true or false", jtype_name(v));
	x->c->errors++;
	return -1;

bad_value:
	say(x->c, x->name, m->line, x->level, "\"%s\": %s", m->key,
	    opt_err(cfg, k->opt));
	x->c->errors++;
	return -1;
}

/* Each member of @obj through cj_member(); -1 at the first malformed. */
static int cj_members(struct json_ctx *x, const struct key_desc *keys,
		      struct json_object *obj, const char *skip,
		      struct cfg *cfg, bool *discovery)
{
	json_object_object_foreach(obj, key, val) {
		struct jmember m = { key, val, jline(obj), "?", 1 };
		const struct jloc_at *at;
		size_t times;

		at = member_at(obj, key, &times);
		if (at) {
			m.line = at->line;
			m.text = at->text;
			m.len = at->len;
		}
		if (times > 1)
			warn(x->c, x->name, m.line,
			     "\"%s\" given %zu times: the last taken, as libnvme takes it",
			     opts_shown(key), times);
		if (skip && !strcmp(key, skip))
			continue;
		if (cj_member(x, keys, &m, cfg, discovery))
			return -1;
	}
	return 0;
}

/*
 * An array member @key of @obj, or NULL: none, null (libnvme's none), or
 * said and counted if not an array.
 */
static struct json_object *cj_array(struct json_ctx *x,
				    struct json_object *obj, const char *key,
				    bool *bad)
{
	struct json_object *v = NULL;

	*bad = false;
	if (!json_object_object_get_ex(obj, key, &v) || !v)
		return NULL;
	if (!json_object_is_type(v, json_type_array)) {
		say(x->c, x->name, member_line(obj, key), x->level,
		    "\"%s\": an array expected, not %s", key, jtype_name(v));
		x->c->errors++;
		*bad = true;
		return NULL;
	}
	return v;
}

/* "what", item @i of @arr: an object, or an error said and counted. */
static bool cj_object(struct json_ctx *x, struct json_object *arr, size_t i,
		      const char *what)
{
	struct json_object *v = json_object_array_get_idx(arr, i);

	if (json_object_is_type(v, json_type_object))
		return true;
	say(x->c, x->name, item_line(arr, i), what,
	    "an object expected, not %s", jtype_name(v));
	x->c->errors++;
	return false;
}

/*
 * @cfg's keys into the conf, the level above's (nearest wins) already
 * there or not; 0 or -ENOMEM.
 */
static int keep_keys(struct conf *c, struct cfg *cfg)
{
	if (cfg->set & OPT(DHCHAP_SECRET)) {
		cfg->dhchap_secret = keep(c, strdup(cfg->dhchap_secret));
		if (!cfg->dhchap_secret)
			return -ENOMEM;
	}
	if (cfg->set & OPT(DHCHAP_CTRL_SECRET)) {
		cfg->dhchap_ctrl_secret = keep(c, strdup(cfg->dhchap_ctrl_secret));
		if (!cfg->dhchap_ctrl_secret)
			return -ENOMEM;
	}
	return 0;
}

/*
 * The port, item @i of @ports, of subsystem @subnqn of the host @host
 * says.  Its "transport" as libnvme takes it, json_object_get_string():
 * a number is its digits, and so not "rdma".
 */
static int cj_port(struct json_ctx *x, struct json_object *ports, size_t i,
		   const struct cfg *host, const char *subnqn, bool disc)
{
	struct json_object *port = json_object_array_get_idx(ports, i);
	struct json_object *tr = NULL;
	struct conf_entry *e;
	bool discovery = false;
	struct cfg cfg = *host;
	const char *trs;

	if (!cj_object(x, ports, i, "port"))
		return 0;
	json_object_object_get_ex(port, "transport", &tr);
	if (!tr || json_object_is_type(tr, json_type_array) ||
	    json_object_is_type(tr, json_type_object)) {
		say(x->c, x->name, tr ? member_line(port, "transport") :
		    jline(port), "port",
		    "a port needs \"transport\" (a string)");
		x->c->errors++;
		return 0;
	}
	trs = json_object_get_string(tr);
	if (strcmp(trs, "rdma")) {
		warn(x->c, x->name, member_line(port, "transport"),
		     "skipping transport %s (only rdma)", opts_shown(trs));
		return 0;
	}
	x->level = "port";
	if (cj_members(x, port_keys, port, "transport", &cfg, &discovery))
		return 0;
	if (!(cfg.set & OPT(TRADDR))) {
		say(x->c, x->name, jline(port), "port",
		    "a port needs \"traddr\"");
		x->c->errors++;
		return 0;
	}
	/* Its strings into the conf: the JSON tree goes. */
	if ((cfg.traddr && !(cfg.traddr = keep(x->c, strdup(cfg.traddr)))) ||
	    (cfg.trsvcid &&
	     !(cfg.trsvcid = keep(x->c, strdup(cfg.trsvcid)))) ||
	    (cfg.host_traddr &&
	     !(cfg.host_traddr = keep(x->c, strdup(cfg.host_traddr)))) ||
	    keep_keys(x->c, &cfg))
		return -ENOMEM;
	/* A discovery controller is asked by its subsystem's NQN. */
	if (disc || discovery) {
		cfg.nqn = subnqn;
		cfg.set |= OPT(NQN);
	}
	opts_merge(&cfg, x->defaults);
	e = add_entry(x->c);
	if (!e)
		return -ENOMEM;
	e->cfg = cfg;
	e->subnqn = subnqn;
	e->passes = disc || discovery;
	snprintf(e->where, sizeof(e->where), "%s:%u", x->name, jline(port));
	return 0;
}

static int cj_subsys(struct json_ctx *x, struct json_object *subs, size_t i,
		     const struct cfg *host)
{
	struct json_object *s = json_object_array_get_idx(subs, i);
	struct json_object *ports;
	struct cfg cfg = *host, base = *host;
	bool bad, unused;
	const char *nqn;
	size_t n;
	int ret;

	if (!cj_object(x, subs, i, "subsystem"))
		return 0;
	x->level = "subsystem";
	if (cj_members(x, subsys_keys, s, NULL, &cfg, &unused))
		return 0;
	if (!(cfg.set & OPT(NQN))) {
		say(x->c, x->name, jline(s), "subsystem",
		    "a subsystem needs \"nqn\"");
		x->c->errors++;
		return 0;
	}
	ports = cj_array(x, s, "ports", &bad);
	if (!ports)
		return 0;
	nqn = keep(x->c, strdup(cfg.nqn));
	if (!nqn)
		return -ENOMEM;
	/* Its ports start from the host, but with its key if it has one. */
	if (cfg.set & OPT(DHCHAP_SECRET)) {
		base.dhchap_secret = keep(x->c, strdup(cfg.dhchap_secret));
		if (!base.dhchap_secret)
			return -ENOMEM;
		base.dhchap_secret_src = cfg.dhchap_secret_src;
		base.set |= OPT(DHCHAP_SECRET);
	}
	n = json_object_array_length(ports);
	for (i = 0; i < n; i++) {
		ret = cj_port(x, ports, i, &base, nqn,
			      !strcmp(nqn, CONF_DISC_NQN));
		if (ret)
			return ret;
	}
	return 0;
}

static int cj_host(struct json_ctx *x, struct json_object *hosts, size_t i)
{
	struct json_object *h = json_object_array_get_idx(hosts, i);
	struct json_object *subs;
	struct cfg cfg;
	bool bad, unused;
	size_t n;
	int ret;

	if (!cj_object(x, hosts, i, "host"))
		return 0;
	memset(&cfg, 0, sizeof(cfg));
	x->level = "host";
	if (cj_members(x, host_keys, h, NULL, &cfg, &unused))
		return 0;
	if (!(cfg.set & OPT(HOSTNQN))) {
		say(x->c, x->name, jline(h), "host", "a host needs \"hostnqn\"");
		x->c->errors++;
		return 0;
	}
	cfg.hostnqn = keep(x->c, strdup(cfg.hostnqn));
	if (!cfg.hostnqn || keep_keys(x->c, &cfg))
		return -ENOMEM;
	subs = cj_array(x, h, "subsystems", &bad);
	if (!subs)
		return 0;
	n = json_object_array_length(subs);
	for (i = 0; i < n; i++) {
		ret = cj_subsys(x, subs, i, &cfg);
		if (ret)
			return ret;
	}
	return 0;
}

/* The line and column of byte @off of @text, for a message. */
static void text_pos(const char *text, size_t off, unsigned int *line,
		     size_t *col)
{
	size_t i, start = 0;

	*line = 1;
	for (i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			start = i + 1;
		}
	}
	*col = off - start + 1;
}

/* The hosts of @root: an array, or the schema document's "hosts". */
static struct json_object *cj_hosts(struct json_ctx *x,
				    struct json_object *root,
				    unsigned int line)
{
	struct json_object *hosts;
	struct conf *c = x->c;
	bool bad;

	if (json_object_is_type(root, json_type_array))
		return root;
	if (!json_object_is_type(root, json_type_object)) {
		say(c, x->name, line, NULL,
		    "an array of hosts expected, not %s", jtype_name(root));
		c->errors++;
		return NULL;
	}
	/* libnvme's schema document: { "hosts": [...] } */
	{
		json_object_object_foreach(root, key, val) {
			unsigned int at = member_line(root, key);

			if (!strcmp(key, "hosts"))
				continue;
			if (strstr(key, "DHHC-1:") || cj_has_key(val)) {
				say(c, x->name, at, NULL,
				    "\"%s\": a DH-HMAC-CHAP key where none is taken (an unknown key)",
				    opts_shown(key));
				c->errors++;
				continue;
			}
			warn(c, x->name, at, "ignoring unknown key \"%s\"", key);
		}
	}
	hosts = cj_array(x, root, "hosts", &bad);
	if (!hosts && !bad) {
		say(c, x->name, line, NULL, "no \"hosts\"");
		c->errors++;
	}
	return hosts;
}

int conf_parse_json(struct conf *c, const char *name, const char *text,
		    size_t len, const struct cfg *defaults)
{
	struct json_ctx x = { c, name, defaults, NULL };
	struct json_object *root, *hosts;
	enum json_tokener_error err;
	struct jscan s;
	json_tokener *tok;
	unsigned int line;
	size_t i, n, col, rest;
	char at[8];
	int ret = 0;

	/* Nothing but white space: no targets, as nvme-cli takes it. */
	for (i = 0; i < len && strchr(" \t\r\n", text[i]); i++)
		;
	if (i == len)
		return 0;
	if (len > CONF_JSON_MAX) {
		say(c, name, 0, NULL, "larger than 1 MiB");
		c->errors++;
		return 0;
	}
	tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, CONF_JSON_FLAGS);
	/*
	 * Its buffer as large as the file, so that it never grows: realloc()
	 * would free a copy of a key unzeroed.
	 */
	if (printbuf_memset(tok->pb, 0, 0, len + 1) < 0) {
		json_tokener_free(tok);
		return -ENOMEM;
	}
	printbuf_reset(tok->pb);
	root = json_tokener_parse_ex(tok, text, len);
	err = json_tokener_get_error(tok);
	if (err != json_tokener_success) {
		i = json_tokener_get_parse_end(tok);
		text_pos(text, i, &line, &col);
		/* json-c's words, and the character it stopped at. */
		at[0] = '\0';
		if (i < len && isgraph((unsigned char)text[i]))
			snprintf(at, sizeof(at), " '%c'", text[i]);
		say(c, name, 0, NULL, "not valid JSON: line %u, column %zu: %s%s",
		    line, col, err == json_tokener_continue ?
		    "unexpected end of file" : json_tokener_error_desc(err),
		    err == json_tokener_continue ? "" : at);
		c->errors++;
		goto out;
	}
	/* Where json-c stopped: text after the value, unread. */
	rest = json_tokener_get_parse_end(tok);
	/* The lines of the values, for the messages. */
	s.p = text;
	s.end = text + len;
	s.line = 1;
	s.tok = tok;
	scan_ws(&s);
	line = s.line;
	ret = scan_value(&s, root);
	if (ret)
		goto out;
	hosts = cj_hosts(&x, root, line);
	n = hosts ? json_object_array_length(hosts) : 0;
	for (i = 0; i < n; i++) {
		ret = cj_host(&x, hosts, i);
		if (ret)
			break;
	}
	if (!ret && rest < len) {
		text_pos(text, rest, &line, &col);
		warn(c, name, line,
		     "ignoring what follows the JSON value (json-c reads the first only)");
	}
out:
	jzero(root);
	json_object_put(root);
	jzero_tokener(tok);
	json_tokener_free(tok);
	return ret;
}

int conf_read_json(struct conf *c, const char *path,
		   const struct cfg *defaults)
{
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > CONF_JSON_MAX) {
		say(c, path, 0, NULL, "%s", S_ISREG(st.st_mode) ?
		    "larger than 1 MiB" : "not a regular file");
		c->errors++;
		ret = -EFBIG;
		goto out_said;
	}
	/* One byte more than the file: one that grew is seen. */
	text = malloc(st.st_size + 1);
	if (!text) {
		ret = -ENOMEM;
		goto out;
	}
	while ((n = read(fd, text + len, st.st_size + 1 - len)) > 0)
		len += n;
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	if (len > (size_t)st.st_size) {
		say(c, path, 0, NULL, "changed while read");
		c->errors++;
		ret = -EAGAIN;
		goto out_said;
	}
	ret = conf_parse_json(c, path, text, len, defaults);
	goto out_said;
out:
	if (ret != -ENOENT) {
		say(c, path, 0, NULL, "%s", strerror(-ret));
		c->errors++;
	}
out_said:
	/* It may hold keys. */
	if (text)
		explicit_bzero(text, len);
	free(text);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* --- matching --- */

static const char *or_default(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/* An IPv6 scope (after '%') as an interface index; 0 if none. */
static unsigned int scope_index(const char *scope)
{
	char *end;
	unsigned long n;

	if (!scope)
		return 0;
	n = strtoul(scope, &end, 10);
	if (*scope && !*end)
		return n;
	return if_nametoindex(scope);
}

bool conf_addr_eq(const char *a, const char *b)
{
	unsigned char x[16], y[16];
	char sa[64], sb[64];
	const char *pa, *pb;

	a = or_default(a, "");
	b = or_default(b, "");
	if (!strcmp(a, b))
		return true;
	if (inet_pton(AF_INET, a, x) == 1 && inet_pton(AF_INET, b, y) == 1)
		return !memcmp(x, y, 4);
	/* IPv6, with a scope perhaps: fe80::1%eth0 and fe80::1%2 alike. */
	snprintf(sa, sizeof(sa), "%s", a);
	snprintf(sb, sizeof(sb), "%s", b);
	pa = strchr(sa, '%');
	pb = strchr(sb, '%');
	if (pa)
		sa[pa++ - sa] = '\0';
	if (pb)
		sb[pb++ - sb] = '\0';
	if (inet_pton(AF_INET6, sa, x) != 1 || inet_pton(AF_INET6, sb, y) != 1)
		return false;
	return !memcmp(x, y, 16) && scope_index(pa) == scope_index(pb);
}

static bool str_eq(const char *a, const char *b)
{
	return !strcmp(a ?: "", b ?: "");
}

/* Option @opt's key the same in @a and @b: none in both, or equal. */
static bool key_eq(const struct cfg *a, const char *ka, const struct cfg *b,
		   const char *kb, unsigned int opt)
{
	if ((a->set & opt) != (b->set & opt))
		return false;
	return !(a->set & opt) || str_eq(ka, kb);
}

bool conf_same_discovery(const struct cfg *a, const struct cfg *b)
{
	/*
	 * Other keys are another host to the target, and pass other keys
	 * to what it lists: two lines to one address with different keys
	 * are both asked.
	 */
	if (!key_eq(a, a->dhchap_secret, b, b->dhchap_secret,
		    OPT(DHCHAP_SECRET)) ||
	    !key_eq(a, a->dhchap_ctrl_secret, b, b->dhchap_ctrl_secret,
		    OPT(DHCHAP_CTRL_SECRET)))
		return false;
	return str_eq(a->hostnqn, b->hostnqn) &&
	       (a->set & OPT(HOSTID)) == (b->set & OPT(HOSTID)) &&
	       (!(a->set & OPT(HOSTID)) ||
		!memcmp(a->hostid, b->hostid, sizeof(a->hostid))) &&
	       conf_addr_eq(a->traddr, b->traddr) &&
	       !strcmp(or_default(a->trsvcid, "4420"),
		       or_default(b->trsvcid, "4420")) &&
	       !strcmp(or_default(a->nqn, CONF_DISC_NQN),
		       or_default(b->nqn, CONF_DISC_NQN)) &&
	       conf_addr_eq(a->host_traddr, b->host_traddr);
}

void conf_finish(struct conf *c)
{
	size_t i, j;

	for (i = 0; i < c->nr; i++) {
		struct conf_entry *first = &c->e[i];

		if (!first->ask)
			continue;
		for (j = i + 1; j < c->nr; j++) {
			struct conf_entry *e = &c->e[j];

			if (!e->ask || !conf_same_discovery(&first->cfg, &e->cfg))
				continue;
			if (e->passes && !first->passes) {
				first->ask = false;
				first = e;
			} else {
				e->ask = false;
			}
		}
	}
}

const struct conf_entry *conf_match(const struct conf *c, const char *hostnqn,
				    const char *subnqn, const char *traddr,
				    const char *trsvcid)
{
	size_t i;

	if (!c || !hostnqn)
		return NULL;
	for (i = 0; i < c->nr; i++) {
		const struct conf_entry *e = &c->e[i];

		/* A discovery controller's port lists, it is not listed. */
		if (e->passes)
			continue;
		if (e->subnqn && !strcmp(e->subnqn, subnqn) &&
		    str_eq(e->cfg.hostnqn, hostnqn) &&
		    conf_addr_eq(e->cfg.traddr, traddr) &&
		    !strcmp(or_default(e->cfg.trsvcid, "4420"),
			    or_default(trsvcid, "4420")))
			return e;
	}
	return NULL;
}

void conf_record_cfg(const struct conf *c, const struct cfg *disc,
		     bool passes, const struct cfg *defaults,
		     const struct disc_entry *e, struct cfg *out)
{
	const struct conf_entry *m;
	struct cfg host;

	m = conf_match(c, disc->set & OPT(HOSTNQN) ? disc->hostnqn : NULL,
		       e->subnqn, e->traddr, e->trsvcid);
	if (m)
		*out = m->cfg;
	else if (passes)
		*out = *disc;
	else
		*out = *defaults;
	/* The host side of the discovery where the options do not say. */
	memset(&host, 0, sizeof(host));
	host.set = disc->set & (OPT(HOSTNQN) | OPT(HOSTID) |
				OPT(HOST_TRADDR) | OPT(TOS));
	host.hostnqn = disc->hostnqn;
	memcpy(host.hostid, disc->hostid, sizeof(host.hostid));
	host.host_traddr = disc->host_traddr;
	host.tos = disc->tos;
	opts_merge(out, &host);
	out->traddr = e->traddr;
	out->trsvcid = e->trsvcid;
	out->nqn = e->subnqn;
	out->set |= OPT(TRADDR) | OPT(TRSVCID) | OPT(NQN);
}

const struct ctrl_info *conf_connected(const struct ctrl_info *ctrls,
				       size_t nr, const struct cfg *cfg,
				       const char *hostnqn)
{
	size_t i;

	if (!hostnqn)
		return NULL;
	for (i = 0; i < nr; i++) {
		const struct ctrl_info *c = &ctrls[i];

		if (c->state == RBLK_STATE_DELETING)
			continue;
		if (!strcmp(c->subsysnqn, cfg->nqn ?: "") &&
		    !strcmp(c->hostnqn, hostnqn) &&
		    conf_addr_eq(c->traddr, cfg->traddr) &&
		    !strcmp(c->trsvcid, or_default(cfg->trsvcid, "4420")) &&
		    conf_addr_eq(c->host_traddr, cfg->host_traddr))
			return c;
	}
	return NULL;
}

/* --- the queue of discovery controllers --- */

struct conf_disc *conf_queue_add(struct conf_queue *q, const struct cfg *cfg,
				 bool passes, const char *where)
{
	struct conf_disc *d;

	if (q->nr == q->cap) {
		size_t n = q->cap ? 2 * q->cap : 16;
		struct conf_disc **v = realloc(q->d, n * sizeof(*v));

		if (!v)
			return NULL;
		q->d = v;
		q->cap = n;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->cfg = *cfg;
	d->passes = passes;
	snprintf(d->where, sizeof(d->where), "%s", where ?: "");
	q->d[q->nr++] = d;
	return d;
}

enum conf_referral conf_queue_referral(struct conf_queue *q,
				       const struct conf_disc *parent,
				       const struct disc_entry *e)
{
	struct conf_disc *d;
	struct cfg cfg;
	size_t i;

	/* "Returns the same information" as the one that listed it. */
	if (e->eflags & 1)
		return CONF_REF_SAME_INFO;
	cfg = parent->cfg;
	cfg.traddr = e->traddr;
	cfg.trsvcid = e->trsvcid;
	cfg.nqn = e->subnqn;
	cfg.set |= OPT(TRADDR) | OPT(TRSVCID) | OPT(NQN);
	for (i = 0; i < q->nr; i++) {
		if (conf_same_discovery(&cfg, &q->d[i]->cfg))
			return CONF_REF_ASKED;
	}
	if (parent->depth >= CONF_REFERRAL_MAX_DEPTH)
		return CONF_REF_TOO_DEEP;
	if (q->referrals >= CONF_REFERRAL_MAX)
		return CONF_REF_TOO_MANY;
	d = conf_queue_add(q, &cfg, parent->passes, NULL);
	if (!d)
		return CONF_REF_NOMEM;
	q->referrals++;
	snprintf(d->traddr, sizeof(d->traddr), "%s", e->traddr);
	snprintf(d->trsvcid, sizeof(d->trsvcid), "%s", e->trsvcid);
	snprintf(d->nqn, sizeof(d->nqn), "%s", e->subnqn);
	d->cfg.traddr = d->traddr;
	d->cfg.trsvcid = d->trsvcid;
	d->cfg.nqn = d->nqn;
	d->depth = parent->depth + 1;
	snprintf(d->where, sizeof(d->where), "referral from %s port %s",
		 parent->cfg.traddr ?: "?", parent->cfg.trsvcid ?: "4420");
	return CONF_REF_QUEUED;
}

void conf_queue_free(struct conf_queue *q)
{
	size_t i;

	for (i = 0; i < q->nr; i++)
		free(q->d[i]);
	free(q->d);
	memset(q, 0, sizeof(*q));
}
