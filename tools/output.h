/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmecfg output: human-readable text and JSON. Everything here writes to
 * a FILE and touches nothing else, so it can be tested without a kernel.
 */
#ifndef NVMECFG_OUTPUT_H
#define NVMECFG_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "info.h"

enum out_format {
	OUT_NORMAL,
	OUT_JSON,
};

#define JSON_MAX_DEPTH	12

/*
 * A streaming JSON writer. Members are separated and indented as they come;
 * a key is given inside objects and NULL inside arrays and at the top.
 */
struct json {
	FILE *f;
	bool pretty;
	int depth;
	bool has_members[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f, bool pretty);
void json_obj_open(struct json *j, const char *key);
void json_obj_close(struct json *j);
void json_arr_open(struct json *j, const char *key);
void json_arr_close(struct json *j);
void json_str(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_s64(struct json *j, const char *key, int64_t val);
void json_flag(struct json *j, const char *key, bool val);
/* Ends the document: a newline after the top-level value. */
void json_end(struct json *j);

/* @s as a quoted JSON string; invalid UTF-8 becomes U+FFFD. */
void json_print_string(FILE *f, const char *s);

const char *state_name(uint8_t state);
const char *event_name(uint8_t event);
const char *iopolicy_name(uint8_t iopolicy);
const char *dhchap_hash_name(uint8_t hash);
const char *dhchap_dhgroup_name(uint8_t group);
/* A DH-HMAC-CHAP failure reason's name, NULL for 0 (none). */
const char *auth_failure_name(uint8_t reason);
/*
 * What show says of @c's DH-HMAC-CHAP: "hmac(sha384) ffdhe2048
 * bidirectional", "none (target does not authenticate)" for a host key
 * the target did not ask for, or NULL (no keys, or not known).
 */
const char *dhchap_str(const struct ctrl_info *c, char *buf, size_t len);
const char *ana_state_name(const struct ns_info *ns);
/*
 * A discovery log record's fields (and a controller's adrfam) in libnvme's
 * words, as nvme-cli 2.x prints them; "unrecognized" for a value it has
 * none for.
 */
const char *adrfam_name(uint8_t adrfam);
const char *trtype_name(uint8_t trtype);
const char *subtype_name(uint8_t subtype);
const char *treq_name(uint8_t treq);
const char *eflags_name(uint16_t eflags);
const char *prtype_name(uint8_t prtype);
const char *qptype_name(uint8_t qptype);
const char *cms_name(uint8_t cms);
/* "option", "file", "hostnqn", "dmi", "device-tree", "module" */
const char *id_source_name(enum id_source src);
/* The counter's name, NULL for the attributes that are not counters. */
const char *stat_name(int type);
/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", @buf of at least 37 bytes. */
const char *uuid_str(const unsigned char *id, char *buf, size_t len);
/* @n bytes as lowercase hex, @buf of at least 2 * @n + 1 bytes. */
const char *hex_str(const unsigned char *bytes, size_t n, char *buf,
		    size_t len);
/* "256 MiB", "1.50 GiB": binary units, two decimals when not exact. */
const char *size_str(uint64_t bytes, char *buf, size_t len);

/*
 * Plain words for a failed request's errno; @target: of a request that
 * talks to a target (connect, discover), where ENOENT, EACCES, ... are the
 * target's answers.
 */
const char *errno_words(int err, bool target);
/*
 * Plain words for a refused RBLK_CMD_SET (set-iopolicy), or NULL where
 * errno_words() has them: EOPNOTSUPP is a module loaded without multipath
 * when the kernel says why (@reason), else possibly one that predates the
 * command (generic netlink's answer to an unknown command).
 */
const char *set_errno_words(int err, bool reason);
/*
 * The NVMe status a target refused a Fabrics Connect with, as the errno
 * of a connect or discover tells it (ENOENT, EACCES, EBUSY: see
 * Documentation/netlink.rst); 0 when the errno does not say.
 */
/* The name of NVMe status @status (the UAPI's), NULL if it has none. */
const char *nvme_status_name(uint16_t status);
/*
 * " (authentication: Failed)" for DH-HMAC-CHAP failure @reason, "" for
 * none or when the kernel's message @msg (NULL: none) names it already.
 */
const char *auth_reason_words(uint8_t reason, const char *msg, char *buf,
			      size_t len);
/* What a Connect status means where its name does not say it, or NULL. */
const char *connect_status_words(uint16_t status);
/* The exit code of a refused request; @blamed: the kernel named a value. */
int error_exit(int err, bool blamed);
/*
 * disconnect NAME of namespace @name (rblkN) without --force, which would
 * remove its controller with every other namespace on it: the controllers
 * of @ctrls it is on (one; with multipath each path's), not counting
 * those being deleted.  When there are any, why nvmecfg @cmd refuses and
 * what to do, on @f.  Their number.
 */
size_t print_ns_refusal(FILE *f, const char *cmd, const char *name,
			const struct ctrl_info *ctrls, size_t nr);

void print_connect(FILE *f, enum out_format fmt, const struct ctrl_info *c);
/* A head's path's ANA state, as sysfs ana_state; "-" before a log says. */
const char *path_ana_name(const struct path_info *p);

/* What list-subsys and show-topology show of the subsystems. */
struct subsys_filter {
	/* list-subsys DEVICE: only this subsystem (by name), ... */
	const struct subsys_info *subsys;
	/* ... the paths of this head, with their ANA states, ... */
	const struct head_info *head;
	/* ... or without multipath, only this controller. */
	const char *ctrl;
	bool verbose;		/* -v: model, serial, firmware, type */
	bool by_ctrl;		/* show-topology -r ctrl */
	/* show-topology without multipath: the controllers' namespaces. */
	const struct ctrl_info *ctrls;
	size_t nr_ctrls;
};

/*
 * list-subsys: nvme-cli 2.x's shape, a subsystem once per host NQN with
 * that host's paths (as subsys_sort() split them; with a device, under
 * each host NQN of its head's paths).  JSON: an array of hosts (HostNQN,
 * HostID), each with its Subsystems (Name, NQN; -v: Model, Serial,
 * Firmware, IOPolicy, Type) and their Paths (Name, Transport, Address,
 * State; with a device, ANAState).  Text: per subsystem "NAME - NQN=...",
 * its host NQN and I/O policy (with multipath), then " +- " and a line per
 * path, its ANA state last with a device.  @flt may be NULL: everything.
 */
void print_subsys(FILE *f, enum out_format fmt,
		  const struct subsys_list *list,
		  const struct subsys_filter *flt);
/*
 * show-topology: nvme-cli 2.x's.  Each subsystem as list-subsys heads it,
 * then its namespaces and under each its paths with their ANA states
 * (-r ctrl: its controllers and under each the namespaces through it).
 * JSON: hosts, Subsystems, Namespaces (NSID, Name) with their Paths
 * (Name, Transport, Address, State, ANAState); without multipath each
 * namespace's Controller instead of Paths, as nvme-cli's.
 */
void print_topology(FILE *f, enum out_format fmt,
		    const struct subsys_list *list,
		    const struct subsys_filter *flt);
/*
 * list: JSON in nvme-cli 2.x's nvme list shape, {"Devices": [...]}, a
 * device per namespace, and rblk's "controllers" beside (each as show
 * prints it).
 */
void print_list(FILE *f, enum out_format fmt, const struct ctrl_info *ctrls,
		size_t nr);
/*
 * list -v: nvme list -v's tree of hosts, subsystems, controllers and
 * namespaces; the subsystem names from @subsys, NULL if unknown.
 */
void print_list_verbose(FILE *f, enum out_format fmt,
			const struct ctrl_info *ctrls, size_t nr,
			const struct subsys_list *subsys);
void print_show(FILE *f, enum out_format fmt, const struct ctrl_info *c);
void print_stats(FILE *f, enum out_format fmt, const struct stats_info *st);
void print_discover(FILE *f, enum out_format fmt, const struct disc_log *log);
/*
 * connect-all -o json: controller @c made for log record @e, an object
 * of the array open in @j.
 */
void json_connected(struct json *j, const struct ctrl_info *c,
		    const struct disc_entry *e);
/*
 * --dump-config: the controllers @ctrls (not those being deleted) as
 * nvme-cli's config.json, hosts, their subsystems and ports, with the
 * options in use; no DH-HMAC-CHAP key.  connect-all -J reads it back.
 */
void print_config(FILE *f, const struct ctrl_info *ctrls, size_t nr);
/* nvmecfg show without a device: the identity connect would use. */
void print_host(FILE *f, enum out_format fmt, const struct host_info *h);
/* One line per event: monitor output is read as it comes. */
void print_event(FILE *f, enum out_format fmt, const struct ctrl_event *ev);

#endif /* NVMECFG_OUTPUT_H */
