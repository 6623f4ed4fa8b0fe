/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmecfg command line parsing. Pure: it reads argv, fills struct cfg and
 * reports errors in cfg->err, and never prints or exits by itself.
 */
#ifndef NVMECFG_OPTS_H
#define NVMECFG_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/rblk.h>

#include "output.h"

/* show-topology's order (-r), nvme-cli's. */
enum topo_ranking {
	TOPO_RANK_NAMESPACE,
	TOPO_RANK_CTRL,
};

enum opt_id {
	OPT_TRANSPORT,
	OPT_TRADDR,
	OPT_TRSVCID,
	OPT_NQN,
	OPT_HOSTNQN,
	OPT_HOSTID,
	OPT_NSID,
	OPT_NR_IO_QUEUES,
	OPT_NR_POLL_QUEUES,
	OPT_NR_WRITE_QUEUES,
	OPT_QUEUE_SIZE,
	OPT_CTRL_LOSS_TMO,
	OPT_RECONNECT_DELAY,
	OPT_KATO,
	OPT_FAST_IO_FAIL_TMO,
	OPT_HOST_TRADDR,
	OPT_TOS,
	OPT_DUPLICATE_CONNECT,
	OPT_DHCHAP_SECRET,	/* -S: the host's DH-HMAC-CHAP key */
	OPT_DHCHAP_CTRL_SECRET,	/* -C: the controller's */
	OPT_OUTPUT,
	OPT_DEVICE,	/* -d NAME or a bare NAME: rblk-ctrlM or rblkN */
	OPT_INDEX,
	OPT_COUNT,
	OPT_TIMEOUT,
	OPT_WAIT_TIMEOUT,
	OPT_IOPOLICY,
	OPT_CONFIG,	/* connect-all -J FILE: config.json */
	OPT_RESET,
	OPT_VERBOSE,
	OPT_FORCE,	/* disconnect: a namespace's name for its controller */
	OPT_DUMP_CONFIG,	/* -O: the configuration as config.json */
	OPT_QUIET,	/* connect-all: no "already connected" */
	OPT_CONF_DIR,	/* connect-all: discovery.conf, config.json of DIR */
	OPT_RECORD,	/* connect-all, disconnect-all: the controllers made */
	OPT_RANKING,	/* show-topology -r: namespace or ctrl */
	OPT_PERSISTENT,	/* discover, connect-all: keep the discovery ctrl */
	OPT_AUTOCONNECT,	/* monitor: connect-all on a discovery change */
	OPT_HELP,
	NR_OPTS,
};

/* A set of options: a bit each. */
#define OPT(x)		(1ULL << OPT_##x)
#define OPT_BIT(id)	(1ULL << (id))
_Static_assert(NR_OPTS <= 64, "an option is a bit of a uint64_t");

/* Everything a command line can say; cfg->set tells what it did say. */
struct cfg {
	uint64_t set;
	const char *traddr;
	const char *trsvcid;
	const char *nqn;
	const char *hostnqn;
	unsigned char hostid[RBLK_HOSTID_LEN];
	uint32_t nsid;
	uint32_t nr_io_queues;
	uint32_t nr_poll_queues;
	uint32_t nr_write_queues;
	uint32_t queue_size;
	int32_t ctrl_loss_tmo;
	uint32_t reconnect_delay;
	uint32_t kato;
	int32_t fast_io_fail_tmo;
	const char *host_traddr;
	uint8_t tos;
	const char *dhchap_secret;	/* never printed */
	const char *dhchap_ctrl_secret;	/* never printed */
	/*
	 * Where each key came from, for messages: "FILE:LINE" of
	 * connect-all's files; NULL for the command line's.  Carried with
	 * the key (opts_merge()).
	 */
	const char *dhchap_secret_src;
	const char *dhchap_ctrl_secret_src;
	/*
	 * No -S: dhchap_secret is the default key (/etc/nvme/hostkey), sent
	 * with RBLK_ATTR_DHCHAP_KEY_DEFAULT.  Not an option: host_apply_key()
	 * sets it.
	 */
	bool dhchap_default;
	enum out_format format;
	const char *device;	/* "rblk-ctrlM" or "rblkN", without /dev/ */
	uint32_t index;		/* of a namespace, rblkN */
	uint32_t count;
	uint32_t timeout;
	uint32_t wait_timeout;	/* with OPT(WAIT_TIMEOUT) only */
	uint8_t iopolicy;	/* enum rblk_iopolicy */
	uint8_t ranking;	/* show-topology: enum topo_ranking */
	const char *config;	/* -J: a config.json, or "none" */
	const char *conf_dir;	/* --conf-dir: instead of SYSCONFDIR/nvme */
	const char *record;	/* --record: connect-all's list of its own */
	char err[256];
};

enum opts_result {
	OPTS_ERROR = -1,	/* usage error, cfg->err says why */
	OPTS_OK = 0,
	OPTS_HELP = 1,		/* --help was given */
};

/*
 * Parse the arguments of one command; argv[0] is the command name.
 * @allowed: OPT() bits of the options the command takes
 * @required: OPT() bits of the options it cannot do without
 */
enum opts_result opts_parse(struct cfg *cfg, int argc, char *const argv[],
			    uint64_t allowed, uint64_t required);

/*
 * The nvme-cli command a command line or a discovery.conf line is read
 * as: which of nvme-cli's options rblk has not it knows (opts_foreign()).
 */
enum opts_ctx {
	OPTS_CTX_CONNECT	= 1 << 0,	/* nvme connect */
	OPTS_CTX_DISCOVER	= 1 << 1,	/* nvme discover, connect-all */
	OPTS_CTX_DISCONNECT	= 1 << 2,	/* nvme disconnect */
	OPTS_CTX_CONF		= 1 << 3,	/* a line of discovery.conf */
};

/*
 * opts_parse() of nvme-cli command @ctx (0: none): an option nvme-cli
 * takes there and rblk has not is refused with opts_foreign()'s reason,
 * "--hdr-digest (-g): digests are NVMe/TCP's", rather than as unknown.
 */
enum opts_result opts_parse_ctx(struct cfg *cfg, int argc,
				char *const argv[], uint64_t allowed,
				uint64_t required, unsigned int ctx);

/*
 * nvme-cli 2.x's options that rblk has not, one table for the command
 * line (refused) and discovery.conf (ignored, with a warning), with the
 * reason both give; config.json's keys of the same name give the same
 * reasons (OPTS_WHY_*).
 */
struct opts_foreign {
	const char *lng;
	char shrt;		/* 0: long form only */
	unsigned int shrt_ctx;	/* where nvme-cli gives it that letter */
	bool arg;		/* takes a value */
	unsigned int ctx;	/* the nvme-cli commands that take it */
	const char *why;
};

#define OPTS_WHY_TLS		"TLS is NVMe/TCP's"
#define OPTS_WHY_DIGEST		"digests are NVMe/TCP's"
#define OPTS_WHY_PERSISTENT	"rblk asks a discovery controller of its own (kept with -p, --persistent)"
#define OPTS_WHY_IFACE		"rblk binds by --host-traddr, else by routing"
#define OPTS_WHY_SQFLOW		"rblk keeps SQ flow control"
#define OPTS_WHY_CONCAT		"secure concatenation is NVMe/TCP's"
#define OPTS_WHY_CONTEXT	"rblk has no nvme-cli --context"

/*
 * The foreign option argument @arg ("--name", "--name=VALUE", "-x",
 * "-xVALUE") names in nvme-cli command @ctx, or NULL.
 */
const struct opts_foreign *opts_foreign(const char *arg, unsigned int ctx);

/* "--hdr-digest (-g)": how messages name @f; @buf of 48 bytes. */
const char *opts_foreign_name(const struct opts_foreign *f, unsigned int ctx,
			      char *buf, size_t len);

/* One help line per option in @allowed. */
void opts_help(FILE *f, uint64_t allowed);

/* "--traddr (-a)": how messages name option @id; @buf of 48 bytes. */
const char *opts_name(enum opt_id id, char *buf, size_t len);

/*
 * Give @dst every option @defaults has and @dst has not (connect-all: a
 * line of discovery.conf on top of the command line).  The strings stay
 * @defaults' own.
 */
void opts_merge(struct cfg *dst, const struct cfg *defaults);

/*
 * The option an argument names ("--name", "--name=VALUE", "-x", "-xVALUE";
 * '_' and '-' alike in long names), or -1.
 */
int opts_find(const char *arg);

/*
 * Set option @id to @val (NULL for one that takes no value) as a command
 * line would, with the same checks: connect-all's config.json.  The
 * string stays the caller's.
 */
enum opts_result opts_set(struct cfg *cfg, enum opt_id id, const char *val);

/* The canonical 8-4-4-4-12 UUID form; 0 or -EINVAL. */
int opts_parse_uuid(const char *s, unsigned char id[RBLK_HOSTID_LEN]);

/* The option an attribute of the requests comes from, or -1. */
int opts_from_attr(int attr);

/*
 * The form of a DH-HMAC-CHAP key, as the kernel checks it: "DHHC-1:NN:"
 * (NN 00..03), base64, ':'; at most RBLK_DHCHAP_SECRET_MAX_LEN bytes.
 */
bool opts_dhchap_secret_valid(const char *s);

/*
 * How a message quotes argument @arg: "<DH-HMAC-CHAP key>" for one that
 * holds a key ("DHHC-1:" anywhere in it), else @arg.  Every message that
 * quotes an argument, a value or a line's word goes through it.
 */
#define OPTS_KEY_SHOWN	"<DH-HMAC-CHAP key>"
const char *opts_shown(const char *arg);

/* The one NQN rule, the kernel's: 1..RBLK_NQN_MAX_LEN bytes. */
bool opts_nqn_valid(const char *nqn);

#endif /* NVMECFG_OPTS_H */
