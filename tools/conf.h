/* SPDX-License-Identifier: GPL-2.0 */
/*
 * connect-all's targets, from nvme-cli's files: /etc/nvme/discovery.conf
 * (a line of nvme discover arguments per discovery controller) and
 * /etc/nvme/config.json (hosts, their subsystems and the ports of each).
 * Pure but for reading the files: messages go to the stream given, the
 * kernel is not asked.
 *
 * What rblk does not use is ignored with a warning naming the option and
 * the file's line; what is malformed is an error that skips its entry
 * (a line, a port, a subsystem, a host), counted in conf.errors, and
 * the other entries stay.
 */
#ifndef NVMECFG_CONF_H
#define NVMECFG_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "info.h"
#include "opts.h"

/* The well-known discovery subsystem NQN. */
#define CONF_DISC_NQN	"nqn.2014-08.org.nvmexpress.discovery"

/* What a discovery.conf line may say: nvme discover's arguments. */
#define CONF_LINE_OPTS	(OPT(TRANSPORT) | OPT(TRADDR) | OPT(TRSVCID) | \
			 OPT(NQN) | OPT(HOSTNQN) | OPT(HOSTID) | \
			 OPT(HOST_TRADDR) | OPT(TOS) | \
			 OPT(NR_IO_QUEUES) | OPT(NR_POLL_QUEUES) | \
			 OPT(NR_WRITE_QUEUES) | OPT(QUEUE_SIZE) | \
			 OPT(CTRL_LOSS_TMO) | OPT(RECONNECT_DELAY) | \
			 OPT(KATO) | OPT(FAST_IO_FAIL_TMO) | \
			 OPT(DUPLICATE_CONNECT) | OPT(DHCHAP_SECRET) | \
			 OPT(DHCHAP_CTRL_SECRET) | OPT(PERSISTENT))

/* A config.json larger than this is refused. */
#define CONF_JSON_MAX	(1024 * 1024)

/* One discovery controller to ask. */
struct conf_entry {
	/*
	 * Its address, host identity and the connect options of what it
	 * lists, with the command line's for what the file leaves out.
	 */
	struct cfg cfg;
	char where[320];	/* "FILE:LINE" */
	/* config.json: the port's subsystem; NULL for discovery.conf */
	const char *subnqn;
	/*
	 * Its options go to every record it lists: a discovery.conf line,
	 * or a port of a discovery subsystem in config.json.  A port of an
	 * NVM subsystem gives its options to that subsystem's records only.
	 */
	bool passes;
	/* false: an entry before asks the same discovery controller */
	bool ask;
};

struct conf {
	struct conf_entry *e;
	size_t nr;
	size_t cap;
	char **strs;		/* what the entries' strings point into */
	size_t *str_lens;	/* their sizes when kept: zeroed by them */
	size_t nr_strs;
	size_t cap_strs;
	unsigned int errors;	/* malformed entries, reported and skipped */
	FILE *log;		/* where warnings and errors go */
	const char *prefix;	/* of every message: "nvmecfg: connect-all: " */
};

void conf_init(struct conf *c, FILE *log, const char *prefix);
void conf_free(struct conf *c);

/*
 * Add the entries of the file at @path, with @defaults (the command line)
 * for what they leave out.  0 (even if some were malformed), -ENOENT with
 * nothing said when there is no such file, or another -errno, said.
 */
int conf_read_discovery(struct conf *c, const char *path,
			const struct cfg *defaults);
int conf_read_json(struct conf *c, const char *path,
		   const struct cfg *defaults);
/* The same from a stream or memory; @name is the file's for messages. */
int conf_parse_discovery(struct conf *c, const char *name, FILE *f,
			 const struct cfg *defaults);
int conf_parse_json(struct conf *c, const char *name, const char *text,
		    size_t len, const struct cfg *defaults);

/*
 * After reading: of entries that ask the same discovery controller, only
 * the first asks, or the first that passes its options on if one does.
 */
void conf_finish(struct conf *c);

/*
 * Whether @a and @b ask the same discovery controller, as the same host
 * with the same DH-HMAC-CHAP keys.
 */
bool conf_same_discovery(const struct cfg *a, const struct cfg *b);

/*
 * The config.json port of subsystem @subnqn at @traddr/@trsvcid of host
 * @hostnqn (NULL: none matches), or NULL.
 */
const struct conf_entry *conf_match(const struct conf *c, const char *hostnqn,
				    const char *subnqn, const char *traddr,
				    const char *trsvcid);

/*
 * Into @out, how to connect record @e of the log of discovery controller
 * @disc (its cfg, the host identity resolved): the options of the
 * config.json port of that subsystem and address if @c has one (@c may be
 * NULL), else @disc's if @passes, else @defaults; the host identity,
 * source address and TOS of @disc where those do not say.  The strings
 * stay @e's, @disc's and the entries'.
 */
void conf_record_cfg(const struct conf *c, const struct cfg *disc,
		     bool passes, const struct cfg *defaults,
		     const struct disc_entry *e, struct cfg *out);

/*
 * Two transport addresses alike: the same IPv4 or IPv6 address however
 * spelled (an IPv6 scope by name or number), else the same string; NULL
 * and "" alike.
 */
bool conf_addr_eq(const char *a, const char *b);

/*
 * The controller of @ctrls (not being deleted) that a connect of @cfg as
 * host @hostnqn would duplicate, as nvme-cli and the kernel see it: same
 * traddr, trsvcid, host_traddr, subsystem and host NQN.  NULL if none, or
 * if @hostnqn is NULL (not known).
 */
const struct ctrl_info *conf_connected(const struct ctrl_info *ctrls,
				       size_t nr, const struct cfg *cfg,
				       const char *hostnqn);

/*
 * --- the discovery controllers connect-all asks ---
 *
 * In order: the configured ones, then the referrals (log records of
 * subtype 1) as their logs list them.  A discovery controller already in
 * the queue is not queued again, which ends a loop of referrals; so do
 * the limits of depth and number.
 */
#define CONF_REFERRAL_MAX_DEPTH	8
#define CONF_REFERRAL_MAX	64

struct conf_disc {
	struct cfg cfg;		/* its strings: the entry's, or below */
	bool passes;		/* its options go to every record it lists */
	unsigned int depth;	/* of referrals: 0 configured */
	char where[384];	/* what named it, "" for the command line */
	/* A referral's copies of its record's strings. */
	char traddr[RBLK_TRADDR_MAX_LEN + 1];
	char trsvcid[RBLK_TRSVCID_MAX_LEN + 1];
	char nqn[RBLK_NQN_SIZE + 1];
};

struct conf_queue {
	struct conf_disc **d;
	size_t nr;
	size_t cap;
	unsigned int referrals;	/* queued so far */
};

/* Queue @cfg (its strings must outlive the queue); NULL without memory. */
struct conf_disc *conf_queue_add(struct conf_queue *q, const struct cfg *cfg,
				 bool passes, const char *where);

enum conf_referral {
	CONF_REF_QUEUED,	/* q->d[q->nr - 1] */
	CONF_REF_ASKED,		/* queued before: a loop, or a duplicate */
	CONF_REF_SAME_INFO,	/* EFLAGS.DUPRETINFO: the same log */
	CONF_REF_TOO_DEEP,	/* more than CONF_REFERRAL_MAX_DEPTH levels */
	CONF_REF_TOO_MANY,	/* more than CONF_REFERRAL_MAX */
	CONF_REF_NOMEM,
};

/*
 * Referral @e in the log of @parent: queued, with @parent's host,
 * options and source address, or why not.
 */
enum conf_referral conf_queue_referral(struct conf_queue *q,
				       const struct conf_disc *parent,
				       const struct disc_entry *e);
void conf_queue_free(struct conf_queue *q);

#endif /* NVMECFG_CONF_H */
