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
#include <net/if.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "jsonin.h"

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
	IGNORED("persistent", NO_PERSISTENT),
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

struct json_ctx {
	struct conf *c;
	const char *name;
	const struct cfg *defaults;
	const char *level;	/* "host", "subsystem", "port": read now */
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
static bool json_has_key(const struct jin_value *v)
{
	size_t i;

	switch (v->type) {
	case JIN_STRING:
		return strstr(v->str, "DHHC-1:");
	case JIN_ARRAY:
		for (i = 0; i < v->nr; i++) {
			if (json_has_key(&v->items[i]))
				return true;
		}
		return false;
	case JIN_OBJECT:
		for (i = 0; i < v->nr; i++) {
			if (strstr(v->members[i].key, "DHHC-1:") ||
			    json_has_key(&v->members[i].val))
				return true;
		}
		return false;
	default:
		return false;
	}
}

/*
 * Member @m of an object into @cfg as @keys describe it.  0, or -1 when
 * its value is malformed (said and counted); unknown and ignored keys
 * are warnings.  *@discovery: a "discovery": true.
 */
static int json_member(struct json_ctx *x, const struct key_desc *keys,
		       const struct jin_member *m, struct cfg *cfg,
		       bool *discovery)
{
	const struct key_desc *k = find_key(keys, m->key);
	const struct jin_value *v = &m->val;
	char num[32];
	long long n;
	int ret;

	/*
	 * A key where no key is taken (a misspelt name, one ignored) would
	 * connect without it: the entry is refused, the key not said.
	 */
	if ((!k || (k->kind == K_IGNORE && k->why)) &&
	    (strstr(m->key, "DHHC-1:") || json_has_key(v))) {
		say(x->c, x->name, v->line, x->level,
		    "\"%s\": a DH-HMAC-CHAP key where none is taken (%s)",
		    opts_shown(m->key), k ? k->why : "an unknown key");
		x->c->errors++;
		return -1;
	}
	if (!k) {
		warn(x->c, x->name, v->line, "ignoring unknown key \"%s\"",
		    m->key);
		return 0;
	}
	switch (k->kind) {
	case K_IGNORE:
		if (!k->why)
			return 0;
		/* Asking for nothing rblk lacks: no need to say. */
		if ((v->type == JIN_BOOL && !v->b) || v->type == JIN_NULL ||
		    (v->type == JIN_STRING && !v->str[0]))
			return 0;
		warn(x->c, x->name, v->line, "ignoring \"%s\": %s", m->key,
		    k->why);
		return 0;
	case K_REFUSE:
		/* No key ("", null) asks for nothing. */
		if (v->type == JIN_NULL ||
		    (v->type == JIN_STRING && !v->str[0]))
			return 0;
		say(x->c, x->name, v->line, x->level, "\"%s\": %s", m->key,
		    k->why);
		x->c->errors++;
		return -1;
	case K_DISCOVERY:
	case K_FLAG:
		if (v->type != JIN_BOOL)
			break;
		if (k->kind == K_DISCOVERY)
			*discovery = v->b;
		else if (v->b)
			opts_set(cfg, k->opt, NULL);
		return 0;
	case K_SECRET:
		/* No key ("", null): the level above's, if any. */
		if (v->type == JIN_NULL ||
		    (v->type == JIN_STRING && !v->str[0]))
			return 0;
		if (v->type != JIN_STRING)
			break;
		if (opts_set(cfg, k->opt, v->str) != OPTS_OK)
			goto bad_value;
		if (key_src(x->c, x->name, v->line,
			    k->opt == OPT_DHCHAP_SECRET ?
			    &cfg->dhchap_secret_src :
			    &cfg->dhchap_ctrl_secret_src)) {
			say(x->c, x->name, v->line, x->level, "%s",
			    strerror(ENOMEM));
			x->c->errors++;
			return -1;
		}
		return 0;
	case K_STRING:
		if (v->type != JIN_STRING)
			break;
		if (opts_set(cfg, k->opt, v->str) != OPTS_OK)
			goto bad_value;
		return 0;
	case K_INT:
		if (v->type != JIN_NUMBER)
			break;
		ret = jin_integer(v, &n);
		if (ret) {
			say(x->c, x->name, v->line, x->level, "\"%s\": %s is %s",
			    m->key, v->str, ret == -ERANGE ? "out of range" :
			    "not a whole number");
			x->c->errors++;
			return -1;
		}
		if (k->has_unset && n == k->unset)
			return 0;
		snprintf(num, sizeof(num), "%lld", n);
		if (opts_set(cfg, k->opt, num) != OPTS_OK)
			goto bad_value;
		return 0;
	}
	say(x->c, x->name, v->line, x->level, "\"%s\": %s expected, not %s",
	    m->key,
	    k->kind == K_STRING || k->kind == K_SECRET ? "a string" :
	    k->kind == K_INT ?
	    "a whole number" : "true or false", jin_type_name(v->type));
	x->c->errors++;
	return -1;

bad_value:
	say(x->c, x->name, v->line, x->level, "\"%s\": %s", m->key,
	    opt_err(cfg, k->opt));
	x->c->errors++;
	return -1;
}

/* An array member @key of @obj, or NULL (said and counted if not one). */
static const struct jin_value *json_array(struct json_ctx *x,
					  const struct jin_value *obj,
					  const char *key, bool *bad)
{
	const struct jin_member *m = jin_get(obj, key);

	*bad = false;
	if (!m)
		return NULL;
	if (m->val.type != JIN_ARRAY) {
		say(x->c, x->name, m->val.line, x->level,
		    "\"%s\": an array expected, not %s",
		    key, jin_type_name(m->val.type));
		x->c->errors++;
		*bad = true;
		return NULL;
	}
	return &m->val;
}

/* "what" of the item at @v: an object, or an error said and counted. */
static bool json_object(struct json_ctx *x, const struct jin_value *v,
			const char *what)
{
	if (v->type == JIN_OBJECT)
		return true;
	say(x->c, x->name, v->line, what, "an object expected, not %s",
	    jin_type_name(v->type));
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

/* A port of subsystem @subnqn of the host @host says. */
static int json_port(struct json_ctx *x, const struct jin_value *port,
		     const struct cfg *host, const char *subnqn, bool disc)
{
	const struct jin_member *tr = jin_get(port, "transport");
	struct conf_entry *e;
	bool discovery = false;
	struct cfg cfg = *host;
	size_t i;

	if (!json_object(x, port, "port"))
		return 0;
	if (!tr || tr->val.type != JIN_STRING) {
		say(x->c, x->name, tr ? tr->val.line : port->line, "port",
		    "a port needs \"transport\" (a string)");
		x->c->errors++;
		return 0;
	}
	if (strcmp(tr->val.str, "rdma")) {
		warn(x->c, x->name, tr->val.line,
		     "skipping transport %s (only rdma)",
		     opts_shown(tr->val.str));
		return 0;
	}
	x->level = "port";
	for (i = 0; i < port->nr; i++) {
		if (!strcmp(port->members[i].key, "transport"))
			continue;
		if (json_member(x, port_keys, &port->members[i], &cfg,
				&discovery))
			return 0;
	}
	if (!(cfg.set & OPT(TRADDR))) {
		say(x->c, x->name, port->line, "port", "a port needs \"traddr\"");
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
	snprintf(e->where, sizeof(e->where), "%s:%u", x->name, port->line);
	return 0;
}

static int json_subsys(struct json_ctx *x, const struct jin_value *s,
		       const struct cfg *host)
{
	const struct jin_value *ports;
	struct cfg cfg = *host, base = *host;
	bool bad, unused;
	const char *nqn;
	size_t i;
	int ret;

	if (!json_object(x, s, "subsystem"))
		return 0;
	x->level = "subsystem";
	for (i = 0; i < s->nr; i++) {
		if (json_member(x, subsys_keys, &s->members[i], &cfg, &unused))
			return 0;
	}
	if (!(cfg.set & OPT(NQN))) {
		say(x->c, x->name, s->line, "subsystem",
		    "a subsystem needs \"nqn\"");
		x->c->errors++;
		return 0;
	}
	ports = json_array(x, s, "ports", &bad);
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
	for (i = 0; i < ports->nr; i++) {
		ret = json_port(x, &ports->items[i], &base, nqn,
				!strcmp(nqn, CONF_DISC_NQN));
		if (ret)
			return ret;
	}
	return 0;
}

static int json_host(struct json_ctx *x, const struct jin_value *h)
{
	const struct jin_value *subs;
	struct cfg cfg;
	bool bad, unused;
	size_t i;
	int ret;

	if (!json_object(x, h, "host"))
		return 0;
	memset(&cfg, 0, sizeof(cfg));
	x->level = "host";
	for (i = 0; i < h->nr; i++) {
		if (json_member(x, host_keys, &h->members[i], &cfg, &unused))
			return 0;
	}
	if (!(cfg.set & OPT(HOSTNQN))) {
		say(x->c, x->name, h->line, "host", "a host needs \"hostnqn\"");
		x->c->errors++;
		return 0;
	}
	cfg.hostnqn = keep(x->c, strdup(cfg.hostnqn));
	if (!cfg.hostnqn || keep_keys(x->c, &cfg))
		return -ENOMEM;
	subs = json_array(x, h, "subsystems", &bad);
	if (!subs)
		return 0;
	for (i = 0; i < subs->nr; i++) {
		ret = json_subsys(x, &subs->items[i], &cfg);
		if (ret)
			return ret;
	}
	return 0;
}

int conf_parse_json(struct conf *c, const char *name, const char *text,
		    size_t len, const struct cfg *defaults)
{
	struct json_ctx x = { c, name, defaults, NULL };
	const struct jin_value *hosts = NULL;
	struct jin_value root;
	char err[256];
	size_t i;
	bool bad;
	int ret;

	/* Nothing but white space: no targets, as nvme-cli takes it. */
	for (i = 0; i < len && strchr(" \t\r\n", text[i]); i++)
		;
	if (i == len)
		return 0;
	ret = jin_parse(text, len, &root, err, sizeof(err));
	if (ret) {
		say(c, name, 0, NULL, "not valid JSON: %s", err);
		c->errors++;
		return ret == -ENOMEM ? ret : 0;
	}
	if (root.type == JIN_ARRAY) {
		hosts = &root;
	} else if (root.type == JIN_OBJECT) {
		/* libnvme's schema document: { "hosts": [...] } */
		for (i = 0; i < root.nr; i++) {
			const struct jin_member *m = &root.members[i];

			if (!strcmp(m->key, "hosts"))
				continue;
			if (strstr(m->key, "DHHC-1:") || json_has_key(&m->val)) {
				say(c, name, m->val.line, NULL,
				    "\"%s\": a DH-HMAC-CHAP key where none is taken (an unknown key)",
				    opts_shown(m->key));
				c->errors++;
				continue;
			}
			warn(c, name, m->val.line,
			     "ignoring unknown key \"%s\"", m->key);
		}
		hosts = json_array(&x, &root, "hosts", &bad);
		if (!hosts && !bad) {
			say(c, name, root.line, NULL, "no \"hosts\"");
			c->errors++;
		}
	} else {
		say(c, name, root.line, NULL,
		    "an array of hosts expected, not %s",
		    jin_type_name(root.type));
		c->errors++;
	}
	for (i = 0; hosts && i < hosts->nr; i++) {
		ret = json_host(&x, &hosts->items[i]);
		if (ret)
			break;
	}
	jin_free(&root);
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
