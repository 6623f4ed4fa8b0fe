// SPDX-License-Identifier: GPL-2.0
/*
 * nvmecfg - configure rblk, the NVMe over Fabrics RDMA block device host,
 * over its generic netlink family. See nvmecfg(8).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <signal.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conf.h"
#include "host.h"
#include "nl.h"
#include "nvmecfg.h"
#include "opts.h"
#include "output.h"
#include "subsys.h"

struct cmd {
	const char *name;
	int (*fn)(const struct cmd *cmd, struct rnl *r, struct cfg *cfg);
	uint64_t allowed;
	uint64_t required;
	const char *args;
	const char *summary;
	/* The nvme-cli command it is: its options rblk has not, refused. */
	unsigned int ctx;
	/*
	 * nvme-cli's options that mean nothing to this command: refused,
	 * for this reason, and left out of its help.
	 */
	uint64_t refused;
	const char *refused_why;
	/* Its device may be a list, "NAME,NAME" (nvme-cli's disconnect -d). */
	bool lists;
	/* Its --wait-timeout's default, in words. */
	const char *wait_default;
};

#define TARGET_OPTS	(OPT(TRANSPORT) | OPT(TRADDR) | OPT(TRSVCID) | \
			 OPT(NQN) | OPT(HOSTNQN) | OPT(HOSTID) | \
			 OPT(HOST_TRADDR) | OPT(TOS))
/* What a connect takes beyond the target: connect-all passes them on. */
#define TUNING_OPTS	(OPT(NR_IO_QUEUES) | OPT(NR_POLL_QUEUES) | \
			 OPT(NR_WRITE_QUEUES) | \
			 OPT(QUEUE_SIZE) | OPT(CTRL_LOSS_TMO) | \
			 OPT(RECONNECT_DELAY) | OPT(KATO) | \
			 OPT(FAST_IO_FAIL_TMO) | OPT(DUPLICATE_CONNECT))
/* DH-HMAC-CHAP keys: connect, connect-all and discover. */
#define AUTH_OPTS	(OPT(DHCHAP_SECRET) | OPT(DHCHAP_CTRL_SECRET))
#define CONNECT_OPTS	(TARGET_OPTS | TUNING_OPTS | OPT(NSID) | \
			 OPT(WAIT_TIMEOUT) | AUTH_OPTS)
#define DEV_OPTS	(OPT(DEVICE) | OPT(INDEX))

/*
 * How long connect (and connect-all, per controller) waits for the first
 * namespace scan without --wait-timeout.  nvme-cli's connect returns once
 * the controller exists; nvmecfg's waits a bounded while for its devices
 * to print them, then returns all the same, the controller kept and the
 * scan going on.  With --wait-timeout, a scan not done by then fails the
 * connect (the controller removed).
 */
#define CONNECT_WAIT_DEFAULT	30
#define CONNECT_WAIT_WORDS	"30 (connect then returns, the controller kept: its devices appear when its scan ends)"

static const char exit_help[] =
	"Exit status: 0 success, 1 the kernel refused the request, 2 usage error,\n"
	"3 the rblk module is not loaded (or not in this network namespace),\n"
	"4 permission denied.\n";

/*
 * How to name what the kernel blamed: the option, or the file (and line)
 * the value came from: /etc/nvme/hostnqn, hostid, hostkey, or for a key
 * a line of connect-all's files (@cfg: the request's, NULL if none).
 */
static const char *blamed(int attr, const struct host_info *h,
			  const struct cfg *cfg, char *buf, size_t len)
{
	int opt = opts_from_attr(attr);

	if (cfg && opt == OPT_DHCHAP_SECRET && cfg->dhchap_secret_src &&
	    !cfg->dhchap_default)
		return cfg->dhchap_secret_src;
	if (cfg && opt == OPT_DHCHAP_CTRL_SECRET &&
	    cfg->dhchap_ctrl_secret_src)
		return cfg->dhchap_ctrl_secret_src;
	if (h && opt == OPT_HOSTNQN && h->nqn_src == ID_FILE)
		return h->nqn_file;
	if (h && opt == OPT_HOSTID && h->id_src == ID_FILE)
		return h->id_file;
	if (h && opt == OPT_HOSTNQN && h->nqn_src == ID_ENV)
		return HOST_ENV_NQN;
	if (h && opt == OPT_HOSTID && h->id_src == ID_ENV)
		return HOST_ENV_ID;
	if (h && opt == OPT_DHCHAP_SECRET && h->key_used)
		return h->key_file;
	if (opt < 0) {
		snprintf(buf, len, "attribute %d", attr);
		return buf;
	}
	return opts_name(opt, buf, len);
}

/*
 * Report a refused request.  A value the kernel found invalid or out of
 * range, naming the attribute, is a usage error like one found here.
 */
static int report(const char *cmd, const char *what, const struct rnl *r,
		  int err, bool target, const struct host_info *h,
		  const struct cfg *cfg)
{
	const char *name = what ?: cmd;
	const char *words;
	char buf[600], auth[96];

	if (error_exit(err, r->bad_attr >= 0) == EXIT_USAGE) {
		int opt = opts_from_attr(r->bad_attr);

		fprintf(stderr, "nvmecfg: %s: %s: %s", name,
			blamed(r->bad_attr, h, cfg, buf, sizeof(buf)),
			opt == OPT_NQN || opt == OPT_HOSTNQN ? "bad NQN" :
			errno_words(err, target));
		if (r->msg[0])
			fprintf(stderr, ": %s", r->msg);
		fprintf(stderr, "\nTry 'nvmecfg %s --help'.\n", cmd);
		return error_exit(err, true);
	}
	/*
	 * A target's NVMe status, by its name and code once, and what it
	 * means where the name does not say: the kernel's message for it
	 * says no more.
	 */
	if (target && r->nvme_status) {
		uint16_t status = r->nvme_status;
		const char *words = connect_status_words(status);

		fprintf(stderr, "nvmecfg: %s: target refused: %s (%#x)%s%s%s\n",
			name, nvme_status_name(status) ?: "NVMe status",
			status, words ? ": " : "", words ?: "",
			auth_reason_words(r->auth_reason, NULL, auth,
					  sizeof(auth)));
		return error_exit(err, false);
	}
	/* The kernel says which capability is missing when it knows. */
	words = err == -EPERM && r->msg[0] ? "permission denied" :
		errno_words(err, target);
	/* Once: a kernel message that says it already stands alone. */
	if (r->msg[0] && strstr(r->msg, words))
		fprintf(stderr, "nvmecfg: %s: %s", name, r->msg);
	else if (r->msg[0])
		fprintf(stderr, "nvmecfg: %s: %s: %s", name, words, r->msg);
	else
		fprintf(stderr, "nvmecfg: %s: %s", name, words);
	if (!r->msg[0] && r->miss_type >= 0)
		fprintf(stderr, ": missing %s",
			blamed(r->miss_type, NULL, NULL, buf, sizeof(buf)));
	/* Status 0: refused after Connect, by the exchange. */
	if (target)
		fputs(auth_reason_words(r->auth_reason, r->msg, auth,
					sizeof(auth)), stderr);
	fputc('\n', stderr);
	return error_exit(err, false);
}

static int kernel_error(const struct cmd *cmd, const struct rnl *r, int err)
{
	return report(cmd->name, NULL, r, err, false, NULL, NULL);
}

/* @path below $NVMECFG_TEST_ROOT, where the host unit tests fake sysfs. */
static const char *test_path(const char *path, char *buf, size_t len)
{
	const char *root = getenv("NVMECFG_TEST_ROOT");

	snprintf(buf, len, "%s%s", root ? root : "", path);
	return buf;
}

/* 1 in another network namespace than init's, 0 in it, -1 unknown. */
static int other_netns(void)
{
	char path[4096], self[64], init[64];
	ssize_t a, b;

	/* init's needs root (ptrace access to it): unknown otherwise. */
	a = readlink(test_path("/proc/self/ns/net", path, sizeof(path)), self,
		     sizeof(self));
	b = readlink(test_path("/proc/1/ns/net", path, sizeof(path)), init,
		     sizeof(init));
	if (a <= 0 || b <= 0)
		return -1;
	return a != b || memcmp(self, init, a);
}

/*
 * The "rblk" family is registered in the initial network namespace only
 * (the module does not set netnsok): elsewhere it is missing although the
 * module is loaded.  Say so rather than "not loaded".
 */
static bool family_elsewhere(void)
{
	char path[4096];

	if (access(test_path("/sys/module/rblk", path, sizeof(path)), F_OK))
		return false;
	if (other_netns() == 1)
		fprintf(stderr,
			"nvmecfg: the rblk module is loaded, but its \"%s\" generic netlink family serves only the initial network namespace, not this one\n",
			RBLK_GENL_NAME);
	else
		fprintf(stderr,
			"nvmecfg: the rblk module is loaded, but there is no \"%s\" generic netlink family here: it serves only the initial network namespace\n",
			RBLK_GENL_NAME);
	fprintf(stderr,
		"Run nvmecfg there (e.g. 'nsenter --net=/proc/1/ns/net nvmecfg ...'); show without a device works in any.\n");
	return true;
}

/* Opened by the commands that need it: show without a device does not. */
static int open_nl(struct rnl *r)
{
	int ret = rnl_open(r);

	if (ret == -ENOENT && family_elsewhere())
		return EXIT_NOMODULE;
	if (ret == -ENOENT) {
		fprintf(stderr,
			"nvmecfg: rblk module not loaded (no \"%s\" generic netlink family)\n"
			"Load it with 'modprobe rblk' (or 'insmod rblk.ko').\n",
			RBLK_GENL_NAME);
		return EXIT_NOMODULE;
	}
	if (ret) {
		fprintf(stderr, "nvmecfg: cannot talk to the kernel: %s\n",
			strerror(-ret));
		return EXIT_KERNEL;
	}
	return EXIT_OK;
}

/* Host identity into @cfg: options, /etc/nvme, else the kernel's. */
static int resolve_host(const char *name, struct cfg *cfg,
			struct host_info *h)
{
	char err[600];

	if (host_resolve(h, cfg, err, sizeof(err))) {
		fprintf(stderr, "nvmecfg: %s: %s\n", name, err);
		return EXIT_USAGE;
	}
	host_apply(h, cfg);
	return EXIT_OK;
}

/*
 * Without -S, the default host key (/etc/nvme/hostkey) into @cfg, read
 * only then: -S overrides a file that is not even readable.
 */
static int default_key(const char *name, struct cfg *cfg, struct host_info *h)
{
	char err[600];
	int ret;

	if (cfg->set & OPT(DHCHAP_SECRET)) {
		h->key_used = false;
		return EXIT_OK;
	}
	ret = host_read_key(h, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "nvmecfg: %s: %s\n", name, err);
		/* Permission denied, as the kernel's EPERM is. */
		return ret == -EACCES || ret == -EPERM ? EXIT_PERM : EXIT_USAGE;
	}
	host_apply_key(h, cfg);
	return EXIT_OK;
}

/*
 * The module draws its host NQN and host id at each load unless told: a
 * target's host ACL and reservations stop matching after a reboot.  Say
 * so where the identity is used or shown, on stderr (stdout stays
 * parseable), with the one command that makes it persistent.
 */
static void warn_identity(const char *name, const struct host_info *h)
{
	if (h->nqn_src == ID_KERNEL && h->machine.denied[0]) {
		fprintf(stderr,
			"nvmecfg: %s: warning: cannot read %s (root only); as root, the host NQN is derived from it\n",
			name, h->machine.denied);
	} else if (h->nqn_src == ID_KERNEL) {
		fprintf(stderr,
			"nvmecfg: %s: warning: no %s and no machine UUID (DMI, device tree): the host NQN is the rblk module's, not persistent (a new one at each load unless set as its parameter)\n"
			"Persist one with: nvmecfg gen-hostnqn > %s\n",
			name, h->nqn_file, h->nqn_file);
	} else if (h->id_src == ID_KERNEL) {
		fprintf(stderr,
			"nvmecfg: %s: warning: no %s and no machine UUID (DMI, device tree): the host id is the rblk module's, not persistent (a new one at each load unless set as its parameter)\n"
			"Persist one with: cat /proc/sys/kernel/random/uuid > %s\n",
			name, h->id_file, h->id_file);
	}
}

/*
 * --- waiting for what the kernel does after answering ---
 *
 * The kernel answers a connect once the controller is live and scans for
 * namespaces afterwards, and a disconnect once the controller is deleting:
 * a netlink handler must not wait (it would hold generic netlink's global
 * lock).  nvmecfg waits instead, polling RBLK_CMD_GET, so that connect
 * still prints the devices and disconnect returns once they are gone.
 * SIGINT, SIGTERM and SIGHUP end such a wait, as does --wait-timeout.
 */
#define WAIT_POLL_NS	50000000L	/* 50 ms between looks */

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: end the sleep */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The end of a wait of @cfg's --wait-timeout, else of @dflt s (0: none). */
static uint64_t wait_deadline(const struct cfg *cfg, uint32_t dflt)
{
	if (cfg->set & OPT(WAIT_TIMEOUT))
		return now_ms() + (uint64_t)cfg->wait_timeout * 1000;
	return dflt ? now_ms() + (uint64_t)dflt * 1000 : 0;
}

/* Sleep a little; false when the wait must end (signal or deadline). */
static bool wait_tick(uint64_t deadline)
{
	struct timespec ts = { 0, WAIT_POLL_NS };

	if (interrupted || (deadline && now_ms() >= deadline))
		return false;
	nanosleep(&ts, NULL);
	return !interrupted;
}

/* An error of our own, reported like the kernel's. */
static void set_msg(struct rnl *r, const char *msg)
{
	snprintf(r->msg, sizeof(r->msg), "%s", msg);
	r->bad_attr = -1;
	r->miss_type = -1;
}

/*
 * Whether controller @name is gone: not there, or not the one being
 * deleted (its index taken by a new controller since).
 */
static int ctrl_gone(struct rnl *r, const char *name, bool *gone)
{
	struct cfg dev = { .set = OPT(DEVICE), .device = name };
	struct ctrl_info c;
	int ret;

	ret = rnl_get(r, &dev, &c);
	if (ret == -ENODEV) {
		*gone = true;
		return 0;
	}
	if (ret)
		return ret;
	*gone = c.state != RBLK_STATE_DELETING;
	rnl_ctrl_free(&c);
	return 0;
}

/*
 * Wait until the controllers @names, each disconnected, are gone.  0, or
 * -ETIMEDOUT, -EINTR or a request's error with r->msg saying which.
 */
static int wait_gone(struct rnl *r, const char *const *names, size_t nr,
		     uint64_t deadline)
{
	size_t i = 0;
	bool gone;
	int ret;

	while (i < nr) {
		ret = ctrl_gone(r, names[i], &gone);
		if (ret)
			return ret;
		if (gone) {
			i++;
			continue;
		}
		if (!wait_tick(deadline)) {
			char msg[64 + RBLK_DISK_NAME_LEN];

			snprintf(msg, sizeof(msg), "%s still being removed%s",
				 names[i], interrupted ? "" :
				 " after --wait-timeout");
			set_msg(r, msg);
			return interrupted ? -EINTR : -ETIMEDOUT;
		}
	}
	return 0;
}

/*
 * Undo a connect that cannot be completed: disconnect the controller and,
 * unless a signal says to stop, wait until it is gone.
 */
static void cancel_connect(struct rnl *r, const char *name, uint64_t deadline)
{
	struct cfg dev = { .set = OPT(DEVICE), .device = name };
	char msg[sizeof(r->msg)];
	int ret;

	/* The reason stays what the caller reports. */
	memcpy(msg, r->msg, sizeof(msg));
	ret = rnl_disconnect(r, &dev);
	if (!ret || ret == -EALREADY)
		wait_gone(r, &name, 1, deadline);
	set_msg(r, msg);
}

/*
 * The devices of a new controller: wait for its first namespace scan and
 * replace *@ctrl by what RBLK_CMD_GET says of it then.  0, or an error
 * with r->msg set, the controller deleted.  Without --wait-timeout, a
 * scan not done within CONNECT_WAIT_DEFAULT is 0 too, with what it found
 * so far and a warning: the controller exists, as nvme-cli's connect
 * has it (@what names it in the warning).
 */
static int wait_scanned(struct rnl *r, const struct cfg *cfg,
			struct ctrl_info *ctrl, const char *what)
{
	struct cfg dev = { .set = OPT(DEVICE), .device = ctrl->name };
	uint64_t deadline = wait_deadline(cfg, CONNECT_WAIT_DEFAULT);
	bool bounded = cfg->set & OPT(WAIT_TIMEOUT);
	struct ctrl_info c;
	int ret;

	for (;;) {
		ret = rnl_get(r, &dev, &c);
		if (ret == -ENODEV || (!ret && c.state == RBLK_STATE_DELETING)) {
			if (!ret)
				rnl_ctrl_free(&c);
			set_msg(r, "disconnected while connecting");
			return -ECANCELED;
		}
		if (ret)
			return ret;
		if (c.scanned)
			break;
		if (!bounded && now_ms() >= deadline) {
			fprintf(stderr,
				"nvmecfg: %s: %s: namespace scan not done after %d s: the controller stays, its devices appear when the scan ends (--wait-timeout SEC to wait for them)\n",
				what, c.name, CONNECT_WAIT_DEFAULT);
			rnl_ctrl_free(ctrl);
			*ctrl = c;
			return 0;
		}
		rnl_ctrl_free(&c);
		if (!wait_tick(bounded ? deadline : 0)) {
			ret = interrupted ? -EINTR : -ETIMEDOUT;
			set_msg(r, interrupted ? "interrupted" :
				"namespace scan not done within --wait-timeout");
			cancel_connect(r, ctrl->name, 0);
			return ret;
		}
	}
	rnl_ctrl_free(ctrl);
	*ctrl = c;
	/* The kernel scanned for it: a controller without it is no use. */
	if ((cfg->set & OPT(NSID)) && !ctrl->nr_ns) {
		set_msg(r, "namespace not found or not usable");
		cancel_connect(r, ctrl->name, bounded ? deadline : 0);
		rnl_ctrl_free(ctrl);
		return -ENODEV;
	}
	return 0;
}

/* rnl_connect() and wait_scanned(): a connect as the user sees it. */
static int connect_wait(struct rnl *r, const struct cfg *cfg,
			struct ctrl_info *ctrl, const char *what)
{
	int ret;

	ret = rnl_connect(r, cfg, ctrl);
	if (ret)
		return ret;
	catch_signals();
	return wait_scanned(r, cfg, ctrl, what);
}

/*
 * Without multipath (rblk loaded with multipath=N: its controllers carry
 * no I/O policy) a second controller of a subsystem gives the shared
 * namespaces second devices with the same identifiers and no failover.
 * Say so once, with the persistent way out: the loaded module keeps the
 * value it was loaded with, so a modprobe option alone changes nothing.
 */
static void hint_multipath(const char *name, struct rnl *r,
			   const struct ctrl_info *ctrl)
{
	static bool hinted;
	const struct ctrl_info *self = NULL;
	struct ctrl_info *ctrls;
	size_t nr, i, peers = 0;

	/* With multipath the connect's own answer says so: no dump. */
	if (hinted || ctrl->has_iopolicy || rnl_list(r, &ctrls, &nr))
		return;
	for (i = 0; i < nr; i++) {
		if (!strcmp(ctrls[i].name, ctrl->name))
			self = &ctrls[i];
		/* A subsystem is one whatever the host NQN (as nvme's). */
		else if (!strcmp(ctrls[i].subsysnqn, ctrl->subsysnqn))
			peers++;
	}
	if (self && !self->has_iopolicy && peers) {
		/* After what stdout said (the controller's name), not before. */
		fflush(stdout);
		fprintf(stderr,
			"nvmecfg: %s: %s is a second controller of %s, and multipath is off: its namespaces appear once per controller, without failover\n"
			"For one device per namespace: put \"options rblk multipath=Y\" in /etc/modprobe.d/rblk.conf (or remove multipath=N there), run 'nvmecfg disconnect-all' and reload rblk (modprobe -r rblk; modprobe rblk).\n",
			name, ctrl->name, ctrl->subsysnqn);
		hinted = true;
	}
	rnl_ctrls_free(ctrls, nr);
}

static int do_connect(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct ctrl_info ctrl;
	struct host_info h;
	int ret;

	ret = resolve_host(cmd->name, cfg, &h);
	if (!ret)
		ret = default_key(cmd->name, cfg, &h);
	if (!ret)
		ret = open_nl(r);
	if (ret)
		goto out;
	warn_identity(cmd->name, &h);
	ret = connect_wait(r, cfg, &ctrl, cmd->name);
	if (ret) {
		int rc = report(cmd->name, NULL, r, ret, true, &h, NULL);

		/* As nvme connect: a second association only on request. */
		if (ret == -EALREADY && !(cfg->set & OPT(DUPLICATE_CONNECT)))
			fprintf(stderr,
				"nvmecfg: connect: -D (--duplicate-connect) allows a second controller\n");
		ret = rc;
		goto out;
	}
	print_connect(stdout, cfg->format, &ctrl);
	hint_multipath(cmd->name, r, &ctrl);
	rnl_ctrl_free(&ctrl);
out:
	host_forget_key(&h);
	return ret;
}

/* Gone already (deleted meanwhile, or being deleted): not a failure. */
static bool gone(int err)
{
	return err == -ENODEV || err == -EALREADY;
}

/* Whether @s is one of the comma-separated @list (nvme-cli's -n a,b). */
static bool in_list(const char *list, const char *s)
{
	size_t n = strlen(s);

	for (;;) {
		if (!strncmp(list, s, n) && (list[n] == ',' || !list[n]))
			return true;
		list = strchr(list, ',');
		if (!list++)
			return false;
	}
}

/*
 * --record FILE: the controllers connect-all made, a line each, "NAME
 * TRADDR TRSVCID SUBNQN" as the kernel lists them; disconnect-all
 * --record disconnects a controller only while its line is still the
 * same, so a name the kernel gave again (the recorded controller gone) to
 * a connection to another target is not taken for it.
 */
static int record_line(const struct ctrl_info *c, char *buf, size_t len)
{
	return snprintf(buf, len, "%s %s %s %s", c->name, c->traddr,
			c->trsvcid, c->subsysnqn);
}

/* Whether record @rec (the file's text, NUL-ended) has @c's line. */
static bool recorded(const char *rec, const struct ctrl_info *c)
{
	char line[RBLK_DISK_NAME_LEN + RBLK_TRADDR_MAX_LEN +
		  RBLK_TRSVCID_MAX_LEN + RBLK_NQN_MAX_LEN + 8];
	size_t n = record_line(c, line, sizeof(line));
	const char *p;

	for (p = rec; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* A record over this is not one connect-all wrote. */
#define RECORD_MAX	(1024 * 1024)

/*
 * The text of record @path, NUL-ended, into *@text (freed by the caller;
 * NULL when there is no such file).  EXIT_OK or the exit code, said.
 */
static int record_read(const struct cmd *cmd, const char *path, char **text)
{
	size_t len = 0;
	ssize_t n;
	char *buf;
	int fd;

	*text = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return EXIT_OK;
	buf = fd < 0 ? NULL : malloc(RECORD_MAX + 1);
	if (!buf)
		goto fail;
	while ((n = read(fd, buf + len, RECORD_MAX + 1 - len)) > 0) {
		len += n;
		if (len > RECORD_MAX) {
			errno = EFBIG;
			n = -1;
			break;
		}
	}
	if (n < 0)
		goto fail;
	close(fd);
	buf[len] = 0;
	*text = buf;
	return EXIT_OK;
fail:
	fprintf(stderr, "nvmecfg: %s: --record %s: %s\n", cmd->name, path,
		strerror(errno));
	free(buf);
	if (fd >= 0)
		close(fd);
	return EXIT_USAGE;
}

/*
 * Every controller, or every one of subsystems @nqn ("NQN,NQN..."): nvme-cli's
 * disconnect -n and disconnect-all, built from list and disconnect; then
 * wait until all of them are gone.  With @rec (disconnect-all --record),
 * only the controllers it has a line of.
 */
static int disconnect_many(const struct cmd *cmd, struct rnl *r,
			   const struct cfg *cfg, const char *nqn,
			   const char *rec)
{
	uint64_t deadline = wait_deadline(cfg, 0);
	struct ctrl_info *ctrls;
	const char **names;
	int ret, rc = EXIT_OK;
	size_t nr, i, done = 0, nr_wait = 0;

	ret = rnl_list(r, &ctrls, &nr);
	if (ret)
		return kernel_error(cmd, r, ret);
	names = calloc(nr ?: 1, sizeof(*names));
	if (!names) {
		rnl_ctrls_free(ctrls, nr);
		return kernel_error(cmd, r, -ENOMEM);
	}
	catch_signals();
	for (i = 0; i < nr; i++) {
		struct cfg one = { .set = OPT(DEVICE) };

		if (nqn && !in_list(nqn, ctrls[i].subsysnqn))
			continue;
		if (rec && !recorded(rec, &ctrls[i]))
			continue;
		one.device = ctrls[i].name;
		ret = rnl_disconnect(r, &one);
		if (!ret || ret == -EALREADY)
			names[nr_wait++] = ctrls[i].name;
		if (!ret) {
			done++;
		} else if (!gone(ret)) {
			char what[64];

			snprintf(what, sizeof(what), "%s: %s", cmd->name,
				 ctrls[i].name);
			if (rc == EXIT_OK)
				rc = report(cmd->name, what, r, ret, false, NULL, NULL);
			else
				report(cmd->name, what, r, ret, false, NULL, NULL);
		}
	}
	ret = wait_gone(r, names, nr_wait, deadline);
	if (ret) {
		if (rc == EXIT_OK)
			rc = kernel_error(cmd, r, ret);
		else
			kernel_error(cmd, r, ret);
	}
	if (nqn)
		printf("NQN:%s disconnected %zu controller(s)\n", nqn, done);
	else
		printf("disconnected %zu controller(s)\n", done);
	free(names);
	rnl_ctrls_free(ctrls, nr);
	return rc;
}

/*
 * A namespace's name stands for its controller, and disconnecting that
 * removes every other namespace on it too: only with --force, else
 * refused (exit 2) naming the controller to give instead.  EXIT_OK when
 * no controller has the namespace: the kernel says what is wrong.
 */
static int refuse_ns(const struct cmd *cmd, struct rnl *r,
		     const struct cfg *cfg)
{
	char name[RBLK_DISK_NAME_LEN];
	struct ctrl_info *ctrls;
	size_t nr, n;
	int ret;

	if (cfg->set & OPT(INDEX))
		snprintf(name, sizeof(name), RBLK_NS_NAME_PREFIX "%u",
			 cfg->index);
	else
		snprintf(name, sizeof(name), "%s", cfg->device);
	ret = rnl_list(r, &ctrls, &nr);
	if (ret)
		return kernel_error(cmd, r, ret);
	n = print_ns_refusal(stderr, cmd->name, name, ctrls, nr);
	rnl_ctrls_free(ctrls, nr);
	return n ? EXIT_USAGE : EXIT_OK;
}

/*
 * The devices of disconnect, "NAME" or nvme-cli's "NAME,NAME,...", one by
 * one into @one; NULL after the last.  @list is consumed.
 */
static const char *next_name(char **list, struct cfg *one)
{
	char *name = strsep(list, ",");

	if (!name)
		return NULL;
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	one->device = name;
	return name;
}

static int do_disconnect(const struct cmd *cmd, struct rnl *r,
			 struct cfg *cfg)
{
	char list[4096], *p;
	const char **names;
	struct ctrl_info c;
	struct cfg one;
	size_t nr = 1, nr_wait = 0;
	int ret, rc = EXIT_OK;

	ret = open_nl(r);
	if (ret)
		return ret;
	if (cfg->set & OPT(NQN))
		return disconnect_many(cmd, r, cfg, cfg->nqn, NULL);
	if (cfg->set & OPT(DEVICE)) {
		if (strlen(cfg->device) >= sizeof(list)) {
			fprintf(stderr, "nvmecfg: %s: too many devices\n",
				cmd->name);
			return EXIT_USAGE;
		}
		for (p = strchr(cfg->device, ','); p; p = strchr(p + 1, ','))
			nr++;
	}
	/*
	 * A namespace's name removes its controller's other namespaces
	 * too: refused, unless --force, before anything is disconnected.
	 */
	one = *cfg;
	if (cfg->set & OPT(DEVICE))
		snprintf(list, sizeof(list), "%s", cfg->device);
	for (p = list; !(cfg->set & OPT(FORCE));) {
		if ((cfg->set & OPT(DEVICE)) && !next_name(&p, &one))
			break;
		if (rnl_names_ns(&one)) {
			ret = refuse_ns(cmd, r, &one);
			if (ret)
				return ret;
		}
		if (!(cfg->set & OPT(DEVICE)))
			break;
	}
	names = calloc(nr, sizeof(*names) + RBLK_DISK_NAME_LEN);
	if (!names)
		return kernel_error(cmd, r, -ENOMEM);
	one = *cfg;
	if (cfg->set & OPT(DEVICE))
		snprintf(list, sizeof(list), "%s", cfg->device);
	for (p = list;;) {
		char *name = (char *)(names + nr) + nr_wait * RBLK_DISK_NAME_LEN;
		char what[64];
		bool got;

		if ((cfg->set & OPT(DEVICE)) && !next_name(&p, &one))
			break;
		/* The controller, to wait for: a namespace goes before it. */
		got = !rnl_get(r, &one, &c);
		if (got) {
			snprintf(name, RBLK_DISK_NAME_LEN, "%s", c.name);
			rnl_ctrl_free(&c);
		}
		ret = rnl_disconnect(r, &one);
		if (!ret && got) {
			names[nr_wait++] = name;
		} else if (ret) {
			snprintf(what, sizeof(what), "%s: %s", cmd->name,
				 (one.set & OPT(DEVICE)) ? one.device : "--index");
			ret = report(cmd->name, nr > 1 ? what : NULL, r, ret,
				     false, NULL, NULL);
			if (rc == EXIT_OK)
				rc = ret;
		}
		if (!(cfg->set & OPT(DEVICE)))
			break;
	}
	if (nr_wait) {
		catch_signals();
		ret = wait_gone(r, names, nr_wait, wait_deadline(cfg, 0));
		if (ret) {
			ret = kernel_error(cmd, r, ret);
			if (rc == EXIT_OK)
				rc = ret;
		}
	}
	free(names);
	return rc;
}

/*
 * reset and ns-rescan, as nvme-cli's: the controller's ioctl on
 * /dev/rblk-ctrlM, the controller named directly or by a namespace.
 */
static int ctrl_ioctl(const struct cmd *cmd, struct rnl *r, struct cfg *cfg,
		      unsigned long req)
{
	char path[sizeof("/dev/") + RBLK_DISK_NAME_LEN];
	struct ctrl_info c;
	int fd, ret;

	ret = open_nl(r);
	if (ret)
		return ret;
	ret = rnl_get(r, cfg, &c);
	if (ret)
		return kernel_error(cmd, r, ret);
	snprintf(path, sizeof(path), "/dev/%s", c.name);
	rnl_ctrl_free(&c);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return kernel_error(cmd, r, -errno);
	ret = ioctl(fd, req);
	ret = ret < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return kernel_error(cmd, r, ret);
	return EXIT_OK;
}

/* The subsystems (and with @heads the heads), sorted as nvme-cli's. */
static int subsys_read(struct rnl *r, struct subsys_list *list, bool heads)
{
	int ret = rnl_subsys_list(r, list, heads);

	if (!ret) {
		ret = subsys_sort(list);
		if (ret)
			rnl_subsys_free(list);
	}
	return ret;
}

/*
 * list-subsys [DEVICE]: the kernel's subsystems, as nvme-cli's.  With a
 * namespace device, only its subsystem, with the paths of its head and
 * their ANA states (without multipath: only the controller it is on).
 */
static int do_list_subsys(const struct cmd *cmd, struct rnl *r,
			  struct cfg *cfg)
{
	struct subsys_filter flt = { .verbose = cfg->set & OPT(VERBOSE) };
	bool by_dev = cfg->set & (OPT(DEVICE) | OPT(INDEX));
	struct subsys_list list;
	struct ctrl_info c;
	bool got_ctrl = false;
	size_t i;
	int ret;

	if (by_dev && !rnl_names_ns(cfg)) {
		fprintf(stderr,
			"nvmecfg: %s: %s is a controller: name a namespace device (rblkN)\n",
			cmd->name, cfg->device);
		return EXIT_USAGE;
	}
	ret = open_nl(r);
	if (ret)
		return ret;
	ret = subsys_read(r, &list, by_dev);
	if (ret)
		return kernel_error(cmd, r, ret);
	for (i = 0; by_dev && i < list.nr_heads; i++) {
		const struct head_info *h = &list.heads[i];

		if ((cfg->set & OPT(INDEX)) ? h->index == cfg->index :
					      !strcmp(h->name, cfg->device)) {
			flt.head = h;
			flt.subsys = subsys_find(&list, h->subsys);
		}
	}
	if (by_dev && !flt.head) {
		/* No head (multipath=N): the namespace's own controller. */
		ret = rnl_get(r, cfg, &c);
		if (ret) {
			rnl_subsys_free(&list);
			return kernel_error(cmd, r, ret);
		}
		got_ctrl = true;
		flt.ctrl = c.name;
		flt.subsys = subsys_of_ctrl(&list, c.name);
	}
	/* A device whose subsystem is gone, or not bound yet: nothing. */
	if (!by_dev || flt.subsys)
		print_subsys(stdout, cfg->format, &list, &flt);
	else if (cfg->format == OUT_JSON)
		printf("[]\n");
	if (got_ctrl)
		rnl_ctrl_free(&c);
	rnl_subsys_free(&list);
	return EXIT_OK;
}

/*
 * show-topology: every subsystem, its namespaces and their paths, as
 * nvme-cli's; without multipath each controller's namespaces (the
 * controllers' from RBLK_CMD_GET).
 */
static int do_show_topology(const struct cmd *cmd, struct rnl *r,
			    struct cfg *cfg)
{
	struct subsys_filter flt = {
		.verbose = cfg->set & OPT(VERBOSE),
		.by_ctrl = cfg->ranking == TOPO_RANK_CTRL,
	};
	struct ctrl_info *ctrls = NULL;
	struct subsys_list list;
	size_t nr = 0;
	int ret;

	ret = open_nl(r);
	if (ret)
		return ret;
	ret = subsys_read(r, &list, true);
	if (ret)
		return kernel_error(cmd, r, ret);
	/* Only without heads: their namespaces are the controllers'. */
	if (list.nr && !list.nr_heads) {
		ret = rnl_list(r, &ctrls, &nr);
		if (ret) {
			rnl_subsys_free(&list);
			return kernel_error(cmd, r, ret);
		}
	}
	flt.ctrls = ctrls;
	flt.nr_ctrls = nr;
	print_topology(stdout, cfg->format, &list, &flt);
	rnl_ctrls_free(ctrls, nr);
	rnl_subsys_free(&list);
	return EXIT_OK;
}

/*
 * The I/O policy of the subsystem of the controller named (directly or by
 * a namespace), with multipath: RBLK_CMD_SET.  nvme-cli has no command for
 * it (nvme's is the sysfs file iopolicy); show and list print it.
 */
static int do_set_iopolicy(const struct cmd *cmd, struct rnl *r,
			   struct cfg *cfg)
{
	const char *words;
	int ret;

	ret = open_nl(r);
	if (ret)
		return ret;
	ret = rnl_set(r, cfg);
	if (!ret)
		return EXIT_OK;
	words = set_errno_words(ret, r->msg[0]);
	if (!words)
		return kernel_error(cmd, r, ret);
	/* The kernel's message says what to do; say it once. */
	if (r->msg[0])
		fprintf(stderr, "nvmecfg: %s: %s\n", cmd->name, r->msg);
	else
		fprintf(stderr,
			"nvmecfg: %s: %s\nI/O policies need multipath: rblk loaded with multipath=Y, its default (look for multipath=N in /etc/modprobe.d).\n",
			cmd->name, words);
	return error_exit(ret, false);
}

static int do_reset(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	return ctrl_ioctl(cmd, r, cfg, NVME_IOCTL_RESET);
}

static int do_ns_rescan(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	return ctrl_ioctl(cmd, r, cfg, NVME_IOCTL_RESCAN);
}

/*
 * Every controller; with --record FILE, only those connect-all --record
 * FILE made (rblk-autoconnect.service's stop), then FILE is removed.  No
 * FILE, or an empty one: nothing to do, and no netlink (the module may
 * be gone).
 */
static int do_disconnect_all(const struct cmd *cmd, struct rnl *r,
			     struct cfg *cfg)
{
	char *rec = NULL;
	int ret;

	if (cfg->set & OPT(RECORD)) {
		ret = record_read(cmd, cfg->record, &rec);
		if (ret)
			return ret;
		if (!rec || !*rec) {
			free(rec);
			if (unlink(cfg->record) && errno != ENOENT) {
				fprintf(stderr, "nvmecfg: %s: --record %s: %s\n",
					cmd->name, cfg->record, strerror(errno));
				return EXIT_USAGE;
			}
			printf("disconnected 0 controller(s)\n");
			return EXIT_OK;
		}
	}
	ret = open_nl(r);
	if (!ret)
		ret = disconnect_many(cmd, r, cfg, NULL, rec);
	/* Kept if one is left: a second stop tries it again. */
	if (rec && ret == EXIT_OK && unlink(cfg->record) && errno != ENOENT) {
		fprintf(stderr, "nvmecfg: %s: --record %s: %s\n", cmd->name,
			cfg->record, strerror(errno));
		ret = EXIT_USAGE;
	}
	free(rec);
	return ret;
}

static int do_list(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct ctrl_info *ctrls;
	size_t nr;
	int ret;

	ret = open_nl(r);
	if (ret)
		return ret;
	ret = rnl_list(r, &ctrls, &nr);
	if (ret)
		return kernel_error(cmd, r, ret);
	if (cfg->set & OPT(VERBOSE)) {
		struct subsys_list subsys;
		/* The subsystems' names are the kernel's; without them, none. */
		bool named = !subsys_read(r, &subsys, false);

		print_list_verbose(stdout, cfg->format, ctrls, nr,
				   named ? &subsys : NULL);
		if (named)
			rnl_subsys_free(&subsys);
	} else {
		print_list(stdout, cfg->format, ctrls, nr);
	}
	rnl_ctrls_free(ctrls, nr);
	return EXIT_OK;
}

static int do_show(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct ctrl_info ctrl;
	struct host_info h;
	int ret;

	/* No device: the host identity connect would use, no netlink. */
	if (!(cfg->set & (OPT(DEVICE) | OPT(INDEX)))) {
		ret = resolve_host(cmd->name, cfg, &h);
		if (ret)
			return ret;
		print_host(stdout, cfg->format, &h);
		warn_identity(cmd->name, &h);
		return EXIT_OK;
	}
	if (cfg->set & (OPT(HOSTNQN) | OPT(HOSTID))) {
		fprintf(stderr,
			"nvmecfg: show: --hostnqn and --hostid only without a device\n"
			"Try 'nvmecfg show --help'.\n");
		return EXIT_USAGE;
	}
	ret = open_nl(r);
	if (ret)
		return ret;
	ret = rnl_get(r, cfg, &ctrl);
	if (ret)
		return kernel_error(cmd, r, ret);
	print_show(stdout, cfg->format, &ctrl);
	rnl_ctrl_free(&ctrl);
	return EXIT_OK;
}

/*
 * nvme show-hostnqn: the host NQN connect would send (the file's, or the
 * one derived from the machine's UUID), or the module's.
 */
static int do_show_hostnqn(const struct cmd *cmd, struct rnl *r,
			   struct cfg *cfg)
{
	struct host_info h;
	int ret;

	(void)r;
	ret = resolve_host(cmd->name, cfg, &h);
	if (ret)
		return ret;
	if (h.nqn_src != ID_KERNEL) {
		printf("%s\n", h.hostnqn);
	} else if (h.module_hostnqn[0]) {
		printf("%s\n", h.module_hostnqn);
	} else {
		fprintf(stderr,
			"nvmecfg: show-hostnqn: no %s, no machine UUID and the rblk module is not loaded\n",
			h.nqn_file);
		return EXIT_NOMODULE;
	}
	return EXIT_OK;
}

/*
 * The host id connect would use, or the module's.  nvme-cli has no such
 * command: the counterpart of show-hostnqn.
 */
static int do_show_hostid(const struct cmd *cmd, struct rnl *r,
			  struct cfg *cfg)
{
	struct host_info h;
	char id[40];
	int ret;

	(void)r;
	ret = resolve_host(cmd->name, cfg, &h);
	if (ret)
		return ret;
	if (h.id_src != ID_KERNEL) {
		printf("%s\n", uuid_str(h.hostid, id, sizeof(id)));
	} else if (h.module_hostid[0]) {
		printf("%s\n", h.module_hostid);
	} else {
		fprintf(stderr,
			"nvmecfg: show-hostid: no %s, no host id from the host NQN or the machine, and the rblk module is not loaded\n",
			h.id_file);
		return EXIT_NOMODULE;
	}
	return EXIT_OK;
}

/*
 * nvme gen-hostnqn: the host NQN of the machine's UUID, the same at every
 * run, else a random one (a note on stderr says so), for
 * 'nvmecfg gen-hostnqn > /etc/nvme/hostnqn'.
 */
static int do_gen_hostnqn(const struct cmd *cmd, struct rnl *r,
			  struct cfg *cfg)
{
	char nqn[RBLK_NQN_MAX_LEN + 1];
	struct machine_id m;
	int ret;

	(void)r;
	(void)cfg;
	ret = host_gen_hostnqn(nqn, sizeof(nqn), &m);
	if (ret < 0) {
		fprintf(stderr, "nvmecfg: %s: no random numbers: %s\n",
			cmd->name, strerror(-ret));
		return EXIT_KERNEL;
	}
	if (ret > 0 && m.denied[0])
		fprintf(stderr,
			"nvmecfg: %s: cannot read %s (root only): a random host NQN\n",
			cmd->name, m.denied);
	else if (ret > 0)
		fprintf(stderr,
			"nvmecfg: %s: no machine UUID (DMI, device tree): a random host NQN\n",
			cmd->name);
	printf("%s\n", nqn);
	return EXIT_OK;
}

static int do_stats(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct stats_info st;
	int ret;

	ret = open_nl(r);
	if (ret)
		return ret;
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

static void short_log_warning(const char *name, const struct disc_log *log)
{
	if (log->numrec > log->nr)
		fprintf(stderr, "nvmecfg: %s: the target's log has %" PRIu64
			" records, the kernel reports the first %zu\n",
			name, log->numrec, log->nr);
}

static int queue_targets(const struct cmd *cmd, const struct cfg *cfg,
			 struct conf *conf, struct conf_queue *q);

/*
 * -p: a controller of the well-known discovery NQN at @ask's address
 * (the kernel keeps it, with keep-alive, and makes each Discovery Log
 * Page Change notice an event).  One already there is kept: as nvme-cli
 * reuses it.  In *@made if new; 0 or -errno.
 */
static int keep_discovery(struct rnl *r, const struct cfg *ask,
			  struct ctrl_info *made)
{
	struct cfg p = *ask;
	int ret;

	p.nqn = CONF_DISC_NQN;
	p.set |= OPT(NQN);
	/* nvme-cli's NVMF_DEF_DISC_TMO for a persistent one. */
	if (!(p.set & OPT(KATO))) {
		p.kato = 30;
		p.set |= OPT(KATO);
	}
	/* An I/O controller's: the kernel's discovery one takes none. */
	p.set &= ~(OPT(NSID) | OPT(NR_IO_QUEUES) | OPT(NR_POLL_QUEUES) |
		   OPT(NR_WRITE_QUEUES) | OPT(QUEUE_SIZE) |
		   OPT(DUPLICATE_CONNECT));
	memset(made, 0, sizeof(*made));
	ret = rnl_connect(r, &p, made);
	return ret == -EALREADY ? 0 : ret;
}

/*
 * One discovery controller's log, printed; @where: the file and line
 * that named it, "" for -a.  *@opened: netlink is open.
 */
static int discover_one(const struct cmd *cmd, struct rnl *r,
			const struct cfg *target, const char *where,
			bool *opened)
{
	char what[RBLK_TRADDR_MAX_LEN + 512];
	struct cfg cfg = *target;	/* points into h */
	struct disc_log log;
	struct host_info h;
	int ret;

	ret = resolve_host(cmd->name, &cfg, &h);
	if (!ret)
		ret = default_key(cmd->name, &cfg, &h);
	if (!ret && !*opened) {
		ret = open_nl(r);
		*opened = !ret;
	}
	if (ret)
		goto out;
	if (where[0])
		snprintf(what, sizeof(what), "%s: %s port %s (%s)", cmd->name,
			 cfg.traddr, cfg.trsvcid ?: "4420", where);
	ret = rnl_discover(r, &cfg, &log);
	if (ret) {
		ret = report(cmd->name, where[0] ? what : NULL, r, ret, true,
			     &h, where[0] ? &cfg : NULL);
		goto out;
	}
	short_log_warning(cmd->name, &log);
	print_discover(stdout, cfg.format, &log);
	rnl_disc_free(&log);
	if (cfg.set & OPT(PERSISTENT)) {
		struct ctrl_info made;

		ret = keep_discovery(r, &cfg, &made);
		if (ret)
			ret = report(cmd->name, where[0] ? what : NULL, r, ret,
				     true, &h, &cfg);
		else
			rnl_ctrl_free(&made);
	}
out:
	host_forget_key(&h);
	return ret;
}

/*
 * nvme discover: the log of -a's discovery controller, else of each one
 * config.json and discovery.conf name, as connect-all reads them.
 */
static int do_discover(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct conf_queue q = { 0 };
	bool opened = false;
	int ret, rc = EXIT_OK;
	struct conf conf;
	size_t i;

	ret = queue_targets(cmd, cfg, &conf, &q);
	if (ret)
		return ret;
	for (i = 0; i < q.nr && !interrupted; i++) {
		ret = discover_one(cmd, r, &q.d[i]->cfg, q.d[i]->where,
				   &opened);
		/* As connect-all's: a failed request over a usage error. */
		if (ret && (rc == EXIT_OK ||
			    (rc == EXIT_USAGE && ret == EXIT_KERNEL)))
			rc = ret;
		if (ret == EXIT_NOMODULE)
			break;
	}
	if (conf.errors && rc != EXIT_KERNEL)
		rc = EXIT_USAGE;
	conf_queue_free(&q);
	conf_free(&conf);
	return rc;
}

/* --- connect-all --- */

_Static_assert(CONF_LINE_OPTS == (TARGET_OPTS | TUNING_OPTS | AUTH_OPTS |
				  OPT(PERSISTENT)),
	       "a discovery.conf line takes nvme discover's options");

struct connect_all {
	const struct cmd *cmd;
	struct rnl *r;
	const struct cfg *defaults;	/* the command line */
	const struct conf *conf;	/* the files' entries; NULL with -a */
	struct conf_queue q;		/* asked and to ask, in order */
	/* The controllers there are: before this run and made by it. */
	struct ctrl_info *ctrls;
	size_t nr_ctrls;
	size_t cap_ctrls;
	bool warned;
	bool key_bad;		/* the default key file: said, unusable */
	int rc;			/* of the first failure */
	struct json j;		/* -o json: {"connected": [...]} */
	int record_fd;		/* --record FILE, else -1 */
};

/*
 * The first failure, but a failed connect (1) over a usage error (2): the
 * boot-time service retries on 1, and stops on 2.
 */
static void ca_fail(struct connect_all *ca, int rc)
{
	if (ca->rc == EXIT_OK ||
	    (ca->rc == EXIT_USAGE && rc == EXIT_KERNEL))
		ca->rc = rc;
}

/* default_key() for a request of connect-all; a bad file said once. */
static int ca_default_key(struct connect_all *ca, struct cfg *cfg,
			  struct host_info *h)
{
	int ret;

	if (ca->key_bad && !(cfg->set & OPT(DHCHAP_SECRET)))
		return EXIT_USAGE;
	ret = default_key(ca->cmd->name, cfg, h);
	ca->key_bad |= ret != EXIT_OK;
	return ret;
}

/* @c (its namespaces not kept) among the controllers there are. */
static void add_ctrl(struct connect_all *ca, const struct ctrl_info *c)
{
	if (ca->nr_ctrls == ca->cap_ctrls) {
		size_t n = ca->cap_ctrls ? 2 * ca->cap_ctrls : 16;
		struct ctrl_info *v = realloc(ca->ctrls, n * sizeof(*v));

		/* Not kept: the kernel still refuses a duplicate. */
		if (!v)
			return;
		ca->ctrls = v;
		ca->cap_ctrls = n;
	}
	ca->ctrls[ca->nr_ctrls] = *c;
	ca->ctrls[ca->nr_ctrls].ns = NULL;
	ca->ctrls[ca->nr_ctrls].nr_ns = 0;
	ca->ctrls[ca->nr_ctrls].ns_cap = 0;
	ca->nr_ctrls++;
}

/*
 * @c's line into --record's file, at once: what an interrupted run made
 * is recorded too.  Not written: a failure (the unit's stop would not
 * disconnect it).
 */
static void record_add(struct connect_all *ca, const struct ctrl_info *c)
{
	char line[RBLK_DISK_NAME_LEN + RBLK_TRADDR_MAX_LEN +
		  RBLK_TRSVCID_MAX_LEN + RBLK_NQN_MAX_LEN + 8];
	int n;

	if (ca->record_fd < 0)
		return;
	n = record_line(c, line, sizeof(line) - 1);
	line[n++] = '\n';
	if (write(ca->record_fd, line, n) != n) {
		fprintf(stderr, "nvmecfg: %s: --record %s: %s not recorded: %s\n",
			ca->cmd->name, ca->defaults->record, c->name,
			strerror(errno ? errno : ENOSPC));
		ca_fail(ca, EXIT_KERNEL);
	}
}

/* Referral @e in the log of @parent: queued, or a warning why not. */
static void follow_referral(struct connect_all *ca,
			    const struct conf_disc *parent,
			    const struct disc_entry *e)
{
	const char *name = ca->cmd->name;

	switch (conf_queue_referral(&ca->q, parent, e)) {
	case CONF_REF_QUEUED:
		fprintf(stderr, "nvmecfg: %s: following the referral to %s port %s (%s)\n",
			name, e->traddr, e->trsvcid,
			ca->q.d[ca->q.nr - 1]->where);
		break;
	case CONF_REF_ASKED:
	case CONF_REF_SAME_INFO:
		break;
	case CONF_REF_TOO_DEEP:
		fprintf(stderr, "nvmecfg: %s: warning: not following the referral to %s port %s: more than %d levels of referrals\n",
			name, e->traddr, e->trsvcid, CONF_REFERRAL_MAX_DEPTH);
		break;
	case CONF_REF_TOO_MANY:
		fprintf(stderr, "nvmecfg: %s: warning: not following the referral to %s port %s: more than %d referrals\n",
			name, e->traddr, e->trsvcid, CONF_REFERRAL_MAX);
		break;
	case CONF_REF_NOMEM:
		fprintf(stderr, "nvmecfg: %s: %s\n", name, strerror(ENOMEM));
		ca_fail(ca, EXIT_KERNEL);
		break;
	}
}

/* The host NQN a request of @cfg sends, or NULL if not known. */
static const char *sent_hostnqn(const struct cfg *cfg,
				const struct host_info *h)
{
	if (cfg->set & OPT(HOSTNQN))
		return cfg->hostnqn;
	return h->module_hostnqn[0] ? h->module_hostnqn : NULL;
}

/*
 * Ask discovery controller @job for its log: connect every NVM subsystem
 * record (RDMA) not connected yet, and queue the referrals.  Failures
 * go into ca->rc; already connected records are none, as with nvme-cli.
 */
static void connect_all_one(struct connect_all *ca,
			    const struct conf_disc *job)
{
	const char *name = ca->cmd->name;
	struct cfg dcfg = job->cfg;	/* points into h */
	char what[RBLK_NQN_MAX_LEN + RBLK_TRADDR_MAX_LEN + 512];
	struct disc_log log;
	struct host_info h;
	struct cfg ask;
	size_t i, k;
	int ret;

	ret = resolve_host(name, &dcfg, &h);
	if (ret) {
		ca_fail(ca, ret);
		return;
	}
	/*
	 * The discovery controller gets the host key, which it uses if it
	 * authenticates, but not the controller key: that is the NVM
	 * subsystems' (the kernel refuses one where the controller does
	 * not authenticate, as nvmet's discovery controller does not).
	 */
	ask = dcfg;
	ask.set &= ~OPT(DHCHAP_CTRL_SECRET);
	ask.dhchap_ctrl_secret = NULL;
	ret = ca_default_key(ca, &ask, &h);
	if (ret) {
		ca_fail(ca, ret);
		goto out;
	}
	/* Once, not per discovery controller: the same host each time. */
	if (!ca->warned) {
		warn_identity(name, &h);
		ca->warned = true;
	}
	if (job->where[0])
		snprintf(what, sizeof(what), "%s: %s port %s (%s)", name,
			 dcfg.traddr, dcfg.trsvcid ?: "4420", job->where);
	ret = rnl_discover(ca->r, &ask, &log);
	if (ret) {
		ca_fail(ca, report(name, job->where[0] ? what : NULL, ca->r,
				   ret, true, &h, &ask));
		goto out;
	}
	short_log_warning(name, &log);
	/* The command line's -p, or the line's (a default merged in). */
	if (dcfg.set & OPT(PERSISTENT)) {
		struct ctrl_info made;

		ret = keep_discovery(ca->r, &ask, &made);
		if (ret) {
			ca_fail(ca, report(name, job->where[0] ? what : NULL,
					   ca->r, ret, true, &h, &ask));
		} else if (made.name[0]) {
			record_add(ca, &made);
			rnl_ctrl_free(&made);
		}
	}

	for (i = 0; i < log.nr && !interrupted; i++) {
		const struct disc_entry *e = &log.e[i];
		const struct ctrl_info *dup;
		struct ctrl_info ctrl;
		struct cfg one;

		/* RDMA only; discovery subsystems (3) are the same log. */
		if (e->trtype != 1)
			continue;
		if (e->subtype == 1) {
			follow_referral(ca, job, e);
			continue;
		}
		if (e->subtype != 2)
			continue;
		conf_record_cfg(ca->conf, &dcfg, job->passes, ca->defaults, e,
				&one);
		snprintf(what, sizeof(what), "%s: %s at %s port %s", name,
			 e->subnqn, e->traddr, e->trsvcid);
		dup = conf_connected(ca->ctrls, ca->nr_ctrls, &one,
				     sent_hostnqn(&one, &h));
		if (dup) {
			if (!(ca->defaults->set & OPT(QUIET)))
				fprintf(stderr, "nvmecfg: %s: already connected (%s)\n",
					what, dup->name);
			continue;
		}
		ret = ca_default_key(ca, &one, &h);
		if (ret) {
			ca_fail(ca, ret);
			continue;
		}
		ret = connect_wait(ca->r, &one, &ctrl, what);
		if (ret == -EALREADY) {
			if (!(ca->defaults->set & OPT(QUIET)))
				fprintf(stderr, "nvmecfg: %s: already connected\n",
					what);
			continue;
		}
		if (ret) {
			ca_fail(ca, report(name, what, ca->r, ret, true, &h,
					   &one));
			continue;
		}
		if (ca->defaults->format == OUT_JSON) {
			json_connected(&ca->j, &ctrl, e);
		} else {
			printf("%s %s %s %s", ctrl.name, e->subnqn, e->traddr,
			       e->trsvcid);
			for (k = 0; k < ctrl.nr_ns; k++)
				printf(" %s", ctrl.ns[k].name);
			putchar('\n');
		}
		hint_multipath(name, ca->r, &ctrl);
		record_add(ca, &ctrl);
		add_ctrl(ca, &ctrl);
		rnl_ctrl_free(&ctrl);
	}
	rnl_disc_free(&log);
out:
	host_forget_key(&h);
}

/*
 * The entries of config.json (-J, else SYSCONFDIR/nvme/config.json, not
 * with -J none) and discovery.conf, in nvme-cli's order, into @conf.
 * EXIT_OK, or the exit code when there is nothing to do.
 */
static int read_confs(const struct cmd *cmd, struct conf *conf,
		      const struct cfg *cfg)
{
	char json[4200], disc[4200];
	bool no_json = false;
	int ret;

	if (cfg->set & OPT(CONFIG) && !strcmp(cfg->config, "none"))
		no_json = true;
	else if (cfg->set & OPT(CONFIG))
		snprintf(json, sizeof(json), "%s", cfg->config);
	else if (cfg->set & OPT(CONF_DIR))
		snprintf(json, sizeof(json), "%s/config.json", cfg->conf_dir);
	else
		host_conf_path("config.json", json, sizeof(json));
	if (cfg->set & OPT(CONF_DIR))
		snprintf(disc, sizeof(disc), "%s/discovery.conf", cfg->conf_dir);
	else
		host_conf_path("discovery.conf", disc, sizeof(disc));

	if (!no_json) {
		ret = conf_read_json(conf, json, cfg);
		if (ret == -ENOENT && (cfg->set & OPT(CONFIG))) {
			fprintf(stderr, "nvmecfg: %s: %s: %s\n",
				cmd->name, json, strerror(ENOENT));
			return EXIT_USAGE;
		}
		if (ret == -ENOENT)
			no_json = true;
		else if (ret == -ENOMEM)
			return EXIT_KERNEL;
	}
	ret = conf_read_discovery(conf, disc, cfg);
	if (ret == -ENOMEM)
		return EXIT_KERNEL;
	if (ret == -ENOENT && no_json) {
		if (cfg->set & OPT(CONFIG))
			fprintf(stderr, "nvmecfg: %s: no -a given and no %s\n",
				cmd->name, disc);
		else
			fprintf(stderr, "nvmecfg: %s: no -a given and no %s or %s\n",
				cmd->name, disc, json);
		return EXIT_USAGE;
	}
	conf_finish(conf);
	if (!conf->nr && !conf->errors)
		fprintf(stderr, "nvmecfg: %s: no targets in %s%s%s\n",
			cmd->name, no_json ? "" : json,
			no_json || ret == -ENOENT ? "" :
			" or ", ret == -ENOENT ? "" : disc);
	return EXIT_OK;
}

/*
 * The discovery controllers to ask into @q: -a's, else those of the
 * files (read into @conf, which the caller frees).  EXIT_OK, or the exit
 * code when there is nothing to do.
 */
static int queue_targets(const struct cmd *cmd, const struct cfg *cfg,
			 struct conf *conf, struct conf_queue *q)
{
	static char prefix[64];	/* the conf's, for its messages */
	size_t i;
	int ret;

	snprintf(prefix, sizeof(prefix), "nvmecfg: %s: ", cmd->name);
	conf_init(conf, stderr, prefix);
	if (cfg->set & OPT(TRADDR)) {
		if (cfg->set & (OPT(CONFIG) | OPT(CONF_DIR))) {
			fprintf(stderr,
				"nvmecfg: %s: %s names targets: not with --traddr (-a)\n"
				"Try 'nvmecfg %s --help'.\n",
				cmd->name, cfg->set & OPT(CONFIG) ?
				"--config (-J)" : "--conf-dir", cmd->name);
			return EXIT_USAGE;
		}
		return conf_queue_add(q, cfg, true, NULL) ? EXIT_OK :
		       EXIT_KERNEL;
	}
	ret = read_confs(cmd, conf, cfg);
	if (ret) {
		conf_free(conf);
		return ret;
	}
	for (i = 0; i < conf->nr; i++) {
		if (conf->e[i].ask &&
		    !conf_queue_add(q, &conf->e[i].cfg, conf->e[i].passes,
				    conf->e[i].where)) {
			conf_queue_free(q);
			conf_free(conf);
			return EXIT_KERNEL;
		}
	}
	return EXIT_OK;
}

static int do_connect_all(const struct cmd *cmd, struct rnl *r,
			  struct cfg *cfg)
{
	struct connect_all ca = { .cmd = cmd, .r = r, .defaults = cfg,
				  .record_fd = -1 };
	struct ctrl_info *ctrls;
	struct conf conf;
	size_t i, nr;
	int ret;

	ret = queue_targets(cmd, cfg, &conf, &ca.q);
	if (ret)
		return ret;
	if (!(cfg->set & OPT(TRADDR)))
		ca.conf = &conf;
	if (cfg->format == OUT_JSON) {
		json_init(&ca.j, stdout, true);
		json_obj_open(&ca.j, NULL);
		json_arr_open(&ca.j, "connected");
	}
	/* Created even if nothing is to connect: the unit's, in /run. */
	if (cfg->set & OPT(RECORD)) {
		ca.record_fd = open(cfg->record,
				    O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
				    0644);
		if (ca.record_fd < 0) {
			fprintf(stderr, "nvmecfg: %s: --record %s: %s\n",
				cmd->name, cfg->record, strerror(errno));
			ca_fail(&ca, EXIT_USAGE);
			goto out;
		}
	}

	if (ca.q.nr) {
		ret = open_nl(r);
		if (ret) {
			ca_fail(&ca, ret);
			goto out;
		}
		/* What is connected already is not connected again. */
		ret = rnl_list(r, &ctrls, &nr);
		if (ret) {
			ca_fail(&ca, kernel_error(cmd, r, ret));
			goto out;
		}
		for (i = 0; i < nr; i++)
			add_ctrl(&ca, &ctrls[i]);
		rnl_ctrls_free(ctrls, nr);
	}
	/* Referrals add to the queue as it goes. */
	for (i = 0; i < ca.q.nr && !interrupted; i++)
		connect_all_one(&ca, ca.q.d[i]);
out:
	/*
	 * A malformed entry fails the run, the others connected; but a
	 * failed connect's status stays: the boot-time service retries on
	 * it (exit 2 stops it), and one bad entry must not keep the good
	 * ones from being retried.
	 */
	if (conf.errors && ca.rc != EXIT_KERNEL)
		ca.rc = EXIT_USAGE;
	if (cfg->format == OUT_JSON) {
		json_arr_close(&ca.j);
		json_obj_close(&ca.j);
		json_end(&ca.j);
	}
	if (ca.record_fd >= 0)
		close(ca.record_fd);
	conf_queue_free(&ca.q);
	free(ca.ctrls);
	conf_free(&conf);
	return ca.rc;
}

/*
 * nvmecfg's version, the first line as it always was (scripts read it),
 * then the loaded module's: the two should come from one release.
 */
static int do_version(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	char ver[64];
	int ret;

	(void)r;
	(void)cfg;
	printf("nvmecfg version %s (rblk netlink version %d)\n",
	       NVMECFG_VERSION, RBLK_GENL_VERSION);
	ret = host_module_version(ver, sizeof(ver));
	if (!ret) {
		printf("rblk module not loaded\n");
	} else if (ret < 0) {
		printf("rblk module loaded, version unknown (%s)\n",
		       strerror(-ret));
	} else {
		printf("rblk module version %s\n", ver);
		if (strcmp(ver, NVMECFG_VERSION))
			fprintf(stderr,
				"nvmecfg: %s: warning: the rblk module loaded is version %s, nvmecfg %s: install both from one release\n",
				cmd->name, ver, NVMECFG_VERSION);
	}
	return EXIT_OK;
}

struct monitor {
	const struct cfg *cfg;
	/* --autoconnect's requests: the other socket is in the event loop. */
	struct rnl req;
	bool req_open;
};

/*
 * --autoconnect: connect-all against the address, host NQN and id of
 * the discovery controller whose log changed, in a child nvmecfg (its
 * failures are its own; a key it would need is not passed on).
 */
static void autoconnect(struct monitor *m, const struct ctrl_event *ev)
{
	struct cfg dev = { .set = OPT(DEVICE), .device = ev->ctrl_name };
	char hostid[40];
	const char *argv[16];
	struct ctrl_info c;
	int n = 0, status;
	pid_t pid;

	if (!m->req_open) {
		if (rnl_open(&m->req))
			return;
		m->req_open = true;
	}
	if (rnl_get(&m->req, &dev, &c)) {
		fprintf(stderr, "nvmecfg: monitor: %s: gone before its connect-all\n",
			ev->ctrl_name);
		return;
	}
	uuid_str(c.hostid, hostid, sizeof(hostid));
	argv[n++] = "nvmecfg";
	argv[n++] = "connect-all";
	argv[n++] = "--quiet";
	argv[n++] = "-a";
	argv[n++] = c.traddr;
	argv[n++] = "-s";
	argv[n++] = c.trsvcid;
	argv[n++] = "-q";
	argv[n++] = c.hostnqn;
	argv[n++] = "-I";
	argv[n++] = hostid;
	if (c.host_traddr[0]) {
		argv[n++] = "-w";
		argv[n++] = c.host_traddr;
	}
	argv[n] = NULL;
	fprintf(stderr, "nvmecfg: monitor: %s: discovery log changed, connect-all -a %s -s %s\n",
		c.name, c.traddr, c.trsvcid);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	else
		fprintf(stderr, "nvmecfg: monitor: fork: %s\n",
			strerror(errno));
	rnl_ctrl_free(&c);
}

static void monitor_event(const struct ctrl_event *ev, void *arg)
{
	struct monitor *m = arg;

	print_event(stdout, m->cfg->format, ev);
	if (ev->event == RBLK_EVENT_DISC_CHANGED &&
	    (m->cfg->set & OPT(AUTOCONNECT)))
		autoconnect(m, ev);
}

static int do_monitor(const struct cmd *cmd, struct rnl *r, struct cfg *cfg)
{
	struct monitor m = { .cfg = cfg };
	int ret;

	ret = open_nl(r);
	if (ret)
		return ret;
	ret = rnl_monitor(r, cfg->count, cfg->timeout, monitor_event, &m);
	if (m.req_open)
		rnl_close(&m.req);
	if (ret)
		return kernel_error(cmd, r, ret);
	return EXIT_OK;
}

#define CMD(n, f, a, r, ar, su) \
	.name = (n), .fn = (f), .allowed = (a), .required = (r), \
	.args = (ar), .summary = (su)

static const struct cmd cmds[] = {
	{ CMD("connect", do_connect,
	  CONNECT_OPTS | OPT(OUTPUT) | OPT(DUMP_CONFIG) | OPT(HELP),
	  OPT(TRADDR) | OPT(NQN), "-a ADDR -n NQN [OPTIONS]",
	  "create a controller and a /dev/rblkN per namespace"),
	  .ctx = OPTS_CTX_CONNECT, .wait_default = CONNECT_WAIT_WORDS },
	{ CMD("connect-all", do_connect_all,
	  TARGET_OPTS | TUNING_OPTS | AUTH_OPTS | OPT(WAIT_TIMEOUT) |
	  OPT(CONFIG) | OPT(CONF_DIR) | OPT(RECORD) | OPT(OUTPUT) |
	  OPT(DUMP_CONFIG) | OPT(QUIET) | OPT(PERSISTENT) | OPT(HELP), 0,
	  "[-a ADDR | -J FILE | --conf-dir DIR] [-p] [--record FILE] [OPTIONS]",
	  "connect every subsystem of discovery logs (-a, or the files)"),
	  .ctx = OPTS_CTX_DISCOVER, .wait_default = CONNECT_WAIT_WORDS },
	{ CMD("disconnect", do_disconnect,
	  DEV_OPTS | OPT(NQN) | OPT(FORCE) | OPT(WAIT_TIMEOUT) | OPT(HELP),
	  OPT(DEVICE),
	  "{NAME[,NAME...] | -d NAME[,NAME...] | --index N | -n NQN[,NQN...]} [--force] [--wait-timeout SEC]",
	  "delete controllers (or a subsystem's) and their devices"),
	  .ctx = OPTS_CTX_DISCONNECT, .lists = true,
	  .wait_default = "no limit" },
	{ CMD("disconnect-all", do_disconnect_all,
	  OPT(WAIT_TIMEOUT) | OPT(RECORD) | OPT(HELP),
	  0, "[--record FILE] [--wait-timeout SEC]",
	  "delete every controller (or connect-all --record's) and its devices"),
	  .wait_default = "no limit" },
	{ CMD("reset", do_reset, DEV_OPTS | OPT(HELP), OPT(DEVICE),
	  "{NAME | -d NAME | --index N}",
	  "reset a controller; back once it is live again") },
	{ CMD("ns-rescan", do_ns_rescan, DEV_OPTS | OPT(HELP), OPT(DEVICE),
	  "{NAME | -d NAME | --index N}",
	  "scan a controller's namespaces again") },
	{ CMD("set-iopolicy", do_set_iopolicy,
	  DEV_OPTS | OPT(IOPOLICY) | OPT(HELP), OPT(DEVICE) | OPT(IOPOLICY),
	  "{NAME | -d NAME | --index N} --iopolicy POLICY",
	  "set the I/O policy of a controller's subsystem (multipath)") },
	{ CMD("list-subsys", do_list_subsys,
	  DEV_OPTS | OPT(OUTPUT) | OPT(VERBOSE) | OPT(HELP), 0,
	  "[NAME | -d NAME | --index N] [-o FORMAT] [-v]",
	  "list the subsystems and their paths (with a device: ANA states)") },
	{ CMD("show-topology", do_show_topology,
	  OPT(OUTPUT) | OPT(VERBOSE) | OPT(RANKING) | OPT(HELP), 0,
	  "[-o FORMAT] [-v] [-r namespace|ctrl]",
	  "show the subsystems, their namespaces and paths with ANA states") },
	{ CMD("list", do_list, OPT(OUTPUT) | OPT(VERBOSE) | OPT(HELP), 0,
	  "[-o FORMAT] [-v]",
	  "list the controllers and their namespaces") },
	{ CMD("show", do_show,
	  DEV_OPTS | OPT(HOSTNQN) | OPT(HOSTID) | OPT(OUTPUT) | OPT(HELP), 0,
	  "[NAME | -d NAME | --index N] [-o FORMAT]",
	  "show a controller, or without one the host identity") },
	{ CMD("show-hostnqn", do_show_hostnqn, OPT(HELP), 0, "",
	  "print the host NQN connect would use") },
	{ CMD("show-hostid", do_show_hostid, OPT(HELP), 0, "",
	  "print the host id connect would use") },
	{ CMD("gen-hostnqn", do_gen_hostnqn, OPT(HELP), 0, "",
	  "print the machine's host NQN (DMI UUID), else a random one") },
	{ CMD("stats", do_stats, DEV_OPTS | OPT(OUTPUT) | OPT(RESET) | OPT(HELP),
	  OPT(DEVICE), "{NAME | -d NAME | --index N} [-o FORMAT] [--reset]",
	  "show or reset a namespace's or controller's I/O statistics") },
	{ CMD("discover", do_discover,
	  TARGET_OPTS | AUTH_OPTS | TUNING_OPTS | OPT(OUTPUT) | OPT(CONFIG) |
	  OPT(CONF_DIR) | OPT(DUMP_CONFIG) | OPT(QUIET) | OPT(PERSISTENT) |
	  OPT(HELP),
	  0, "[-a ADDR | -J FILE | --conf-dir DIR] [-p] [OPTIONS]",
	  "read discovery controllers' log pages (-a, or the files')"),
	  .ctx = OPTS_CTX_DISCOVER, .refused = TUNING_OPTS,
	  .refused_why = "discover keeps no controller (connect-all passes it on to what it connects)" },
	{ CMD("monitor", do_monitor,
	  OPT(OUTPUT) | OPT(COUNT) | OPT(TIMEOUT) | OPT(AUTOCONNECT) |
	  OPT(HELP), 0,
	  "[-o FORMAT] [--count N] [--timeout SEC] [--autoconnect]",
	  "print controller and namespace events as they happen") },
	{ CMD("version", do_version, OPT(HELP), 0, "",
	  "print nvmecfg's and the loaded module's versions (also --version)") },
};

#define NR_CMDS	ARRAY_SIZE(cmds)

/*
 * --dump-config (-O): the controllers there are, as config.json.  The
 * command opened netlink, or failed before it could (then nothing).
 */
static int dump_config(const struct cmd *cmd, struct rnl *r)
{
	struct ctrl_info *ctrls;
	size_t nr;
	int ret;

	if (!r->sk) {
		ret = open_nl(r);
		if (ret)
			return ret;
	}
	ret = rnl_list(r, &ctrls, &nr);
	if (ret)
		return kernel_error(cmd, r, ret);
	print_config(stdout, ctrls, nr);
	rnl_ctrls_free(ctrls, nr);
	return EXIT_OK;
}

/* What opts_parse() cannot tell: a command's refused options, lists. */
static int check_cmd(const struct cmd *cmd, const struct cfg *cfg)
{
	char name[48];
	int id;

	for (id = 0; id < NR_OPTS; id++) {
		if (!(cfg->set & cmd->refused & OPT_BIT(id)))
			continue;
		fprintf(stderr, "nvmecfg: %s: %s: %s\nTry 'nvmecfg %s --help'.\n",
			cmd->name, opts_name(id, name, sizeof(name)),
			cmd->refused_why, cmd->name);
		return EXIT_USAGE;
	}
	if (!cmd->lists && (cfg->set & OPT(DEVICE)) &&
	    strchr(cfg->device, ',')) {
		fprintf(stderr, "nvmecfg: %s: one device only, not '%s'\nTry 'nvmecfg %s --help'.\n",
			cmd->name, opts_shown(cfg->device), cmd->name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

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
	opts_help(f, cmd->allowed & ~cmd->refused);
	if (cmd->wait_default)
		fprintf(f, "\n--wait-timeout's default: %s.\n",
			cmd->wait_default);
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
		fprintf(f, "  %-14s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "  %-14s %s\n", "help", "show this help, or a command's");
	fprintf(f, "\nRun 'nvmecfg COMMAND --help' for its options.\n\n%s",
		exit_help);
}

static int help_cmd(int argc, char **argv)
{
	const struct cmd *cmd;

	if (argc < 3 || !strcmp(argv[2], "help") || !strcmp(argv[2], "-h") ||
	    !strcmp(argv[2], "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	cmd = find_cmd(argv[2]);
	if (!cmd) {
		fprintf(stderr, "nvmecfg: help: unknown command '%s'\n",
			opts_shown(argv[2]));
		return EXIT_USAGE;
	}
	if (argc > 3) {
		fprintf(stderr, "nvmecfg: help: one command only\n");
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
		return finish(help_cmd(argc, argv));
	if (!strcmp(argv[1], "--version"))
		argv[1] = "version";

	cmd = find_cmd(argv[1]);
	if (!cmd) {
		fprintf(stderr,
			"nvmecfg: unknown command '%s'\nTry 'nvmecfg help'.\n",
			opts_shown(argv[1]));
		return EXIT_USAGE;
	}

	switch (opts_parse_ctx(&cfg, argc - 1, argv + 1, cmd->allowed,
			       cmd->required, cmd->ctx)) {
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
	ret = check_cmd(cmd, &cfg);
	if (ret)
		return ret;

	memset(&r, 0, sizeof(r));
	ret = cmd->fn(cmd, &r, &cfg);
	/* After what it did, as nvme-cli's; not after a usage error. */
	if ((cfg.set & OPT(DUMP_CONFIG)) &&
	    (ret == EXIT_OK || ret == EXIT_KERNEL)) {
		int rc = dump_config(cmd, &r);

		if (ret == EXIT_OK)
			ret = rc;
	}
	rnl_close(&r);
	return finish(ret);
}
