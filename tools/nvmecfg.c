// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg - configure rblk, the NVMe over Fabrics RDMA block device host,
 * over its generic netlink family. See nvmecfg(8).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nl.h"
#include "nvmecfg.h"
#include "opts.h"
#include "output.h"

struct cmd {
	const char *name;
	int (*fn)(const struct cmd *cmd, struct rnl *r, struct cfg *cfg);
	unsigned int allowed;
	unsigned int required;
	const char *args;
	const char *summary;
};

#define TARGET_OPTS	(OPT(TRANSPORT) | OPT(TRADDR) | OPT(TRSVCID) | \
			 OPT(NQN) | OPT(HOSTNQN) | OPT(HOSTID))
#define CONNECT_OPTS	(TARGET_OPTS | OPT(NSID) | OPT(NR_IO_QUEUES) | \
			 OPT(NR_POLL_QUEUES) | \
			 OPT(QUEUE_SIZE) | OPT(CTRL_LOSS_TMO) | \
			 OPT(RECONNECT_DELAY) | OPT(KATO) | \
			 OPT(FAST_IO_FAIL_TMO) | OPT(DUPLICATE_CONNECT))
#define DEV_OPTS	(OPT(DEVICE) | OPT(INDEX))

static const char exit_help[] =
	"Exit status: 0 success, 1 the kernel refused the request, 2 usage error,\n"
	"3 the rblk module is not loaded, 4 permission denied.\n";

static int kernel_error(const struct cmd *cmd, const struct rnl *r, int err)
{
	fprintf(stderr, "nvmecfg: %s: %s", cmd->name, strerror(-err));
	if (r->msg[0])
		fprintf(stderr, ": %s", r->msg);
	else if (r->miss_type >= 0)
		fprintf(stderr, ": missing attribute %d", r->miss_type);
	else if (err == -EPERM)
		fprintf(stderr, ": needs CAP_NET_ADMIN");
	fputc('\n', stderr);
	return err == -EPERM || err == -EACCES ? EXIT_PERM : EXIT_KERNEL;
}

static int do_connect(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct ctrl_info ctrl;
	int ret;

	ret = rnl_connect(r, cfg, &ctrl);
	if (ret) {
		int rc = kernel_error(cmd, r, ret);

		/* As nvme connect: a second association only on request. */
		if (ret == -EALREADY && !(cfg->set & OPT(DUPLICATE_CONNECT)))
			fprintf(stderr,
				"nvmecfg: connect: -D (--duplicate-connect) allows a second controller\n");
		return rc;
	}
	print_connect(stdout, cfg->format, &ctrl);
	rnl_ctrl_free(&ctrl);
	return EXIT_OK;
}

static int do_disconnect(const struct cmd *cmd, struct rnl *r,
			 struct cfg *cfg)
{
	int ret;

	ret = rnl_disconnect(r, cfg);
	if (ret)
		return kernel_error(cmd, r, ret);
	return EXIT_OK;
}

static int do_list(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct ctrl_info *ctrls;
	size_t nr;
	int ret;

	ret = rnl_list(r, &ctrls, &nr);
	if (ret)
		return kernel_error(cmd, r, ret);
	print_list(stdout, cfg->format, ctrls, nr);
	rnl_ctrls_free(ctrls, nr);
	return EXIT_OK;
}

static int do_show(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct ctrl_info ctrl;
	int ret;

	ret = rnl_get(r, cfg, &ctrl);
	if (ret)
		return kernel_error(cmd, r, ret);
	print_show(stdout, cfg->format, &ctrl);
	rnl_ctrl_free(&ctrl);
	return EXIT_OK;
}

static int do_stats(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct stats_info st;
	int ret;

	if (cfg->set & OPT(RESET)) {
		ret = rnl_reset_stats(r, cfg);
		return ret ? kernel_error(cmd, r, ret) : EXIT_OK;
	}
	ret = rnl_stats(r, cfg, &st);
	if (ret)
		return kernel_error(cmd, r, ret);
	print_stats(stdout, cfg->format, &st);
	return EXIT_OK;
}

static int do_discover(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct disc_entry *entries;
	uint64_t numrec;
	size_t nr;
	int ret;

	ret = rnl_discover(r, cfg, &entries, &nr, &numrec);
	if (ret)
		return kernel_error(cmd, r, ret);
	if (numrec > nr)
		fprintf(stderr, "nvmecfg: discover: the target's log has %" PRIu64
			" records, the kernel reports the first %zu\n",
			numrec, nr);
	print_discover(stdout, cfg->format, entries, nr, numrec);
	free(entries);
	return EXIT_OK;
}

static void monitor_event(const struct ctrl_event *ev, void *arg)
{
	const struct cfg *cfg = arg;

	print_event(stdout, cfg->format, ev);
}

static int do_monitor(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	int ret;

	ret = rnl_monitor(r, cfg->count, cfg->timeout, monitor_event, cfg);
	if (ret)
		return kernel_error(cmd, r, ret);
	return EXIT_OK;
}

static const struct cmd cmds[] = {
	{ "connect", do_connect, CONNECT_OPTS | OPT(OUTPUT) | OPT(HELP),
	  OPT(TRADDR) | OPT(NQN), "-a ADDR -n NQN [OPTIONS]",
	  "create a controller and a /dev/rblkN per namespace" },
	{ "disconnect", do_disconnect, DEV_OPTS | OPT(HELP), OPT(DEVICE),
	  "{NAME | -d NAME | --index N}",
	  "delete a controller and its namespaces' devices" },
	{ "list", do_list, OPT(OUTPUT) | OPT(HELP), 0, "[-o FORMAT]",
	  "list the controllers and their namespaces" },
	{ "show", do_show, DEV_OPTS | OPT(OUTPUT) | OPT(HELP), OPT(DEVICE),
	  "{NAME | -d NAME | --index N} [-o FORMAT]",
	  "show a controller's parameters, state and namespaces" },
	{ "stats", do_stats, DEV_OPTS | OPT(OUTPUT) | OPT(RESET) | OPT(HELP),
	  OPT(DEVICE), "{NAME | -d NAME | --index N} [-o FORMAT] [--reset]",
	  "show or reset a namespace's or controller's I/O statistics" },
	{ "discover", do_discover, TARGET_OPTS | OPT(OUTPUT) | OPT(HELP),
	  OPT(TRADDR), "-a ADDR [OPTIONS]",
	  "read a discovery controller's log page" },
	{ "monitor", do_monitor,
	  OPT(OUTPUT) | OPT(COUNT) | OPT(TIMEOUT) | OPT(HELP), 0,
	  "[-o FORMAT] [--count N] [--timeout SEC]",
	  "print controller and namespace events as they happen" },
};

#define NR_CMDS	ARRAY_SIZE(cmds)

static const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NR_CMDS; i++) {
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	}
	return NULL;
}

static void cmd_usage(FILE *f, const struct cmd *cmd)
{
	fprintf(f, "Usage: nvmecfg %s %s\n", cmd->name, cmd->args);
	fprintf(f, "%c%s.\n\nOptions:\n",
		toupper((unsigned char)cmd->summary[0]), cmd->summary + 1);
	opts_help(f, cmd->allowed);
	fprintf(f, "\n%s", exit_help);
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: nvmecfg COMMAND [OPTIONS]\n"
		"Configure rblk, the NVMe over Fabrics RDMA block device host.\n"
		"\nCommands:\n");
	for (i = 0; i < NR_CMDS; i++)
		fprintf(f, "  %-11s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "  %-11s %s\n", "help", "show this help, or a command's");
	fprintf(f, "\nRun 'nvmecfg COMMAND --help' for its options.\n\n%s",
		exit_help);
}

static int help(int argc, char **argv)
{
	const struct cmd *cmd;

	if (argc < 3) {
		usage(stdout);
		return EXIT_OK;
	}
	cmd = find_cmd(argv[2]);
	if (!cmd || argc > 3) {
		fprintf(stderr, "nvmecfg: help: unknown command '%s'\n",
			argv[2]);
		return EXIT_USAGE;
	}
	cmd_usage(stdout, cmd);
	return EXIT_OK;
}

static int finish(int ret)
{
	/* A full disk or a closed pipe must not look like success. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "nvmecfg: write error: %s\n", strerror(errno));
		if (ret == EXIT_OK)
			ret = EXIT_KERNEL;
	}
	return ret;
}

int main(int argc, char **argv)
{
	const struct cmd *cmd;
	struct cfg cfg;
	struct rnl r;
	int ret;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h"))
		return finish(help(argc, argv));

	cmd = find_cmd(argv[1]);
	if (!cmd) {
		fprintf(stderr,
			"nvmecfg: unknown command '%s'\nTry 'nvmecfg help'.\n",
			argv[1]);
		return EXIT_USAGE;
	}

	switch (opts_parse(&cfg, argc - 1, argv + 1, cmd->allowed,
			   cmd->required)) {
	case OPTS_HELP:
		cmd_usage(stdout, cmd);
		return finish(EXIT_OK);
	case OPTS_ERROR:
		fprintf(stderr, "nvmecfg: %s: %s\nTry 'nvmecfg %s --help'.\n",
			cmd->name, cfg.err, cmd->name);
		return EXIT_USAGE;
	case OPTS_OK:
		break;
	}

	ret = rnl_open(&r);
	if (ret == -ENOENT) {
		fprintf(stderr,
			"nvmecfg: rblk module not loaded (no \"%s\" generic netlink family)\n",
			RBLK_GENL_NAME);
		return EXIT_NOMODULE;
	}
	if (ret) {
		fprintf(stderr, "nvmecfg: cannot talk to the kernel: %s\n",
			strerror(-ret));
		return EXIT_KERNEL;
	}
	ret = cmd->fn(cmd, &r, &cfg);
	rnl_close(&r);
	return finish(ret);
}
