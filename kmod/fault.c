// SPDX-License-Identifier: GPL-2.0
/*
 * rblk fault injection, for what the test fabric cannot produce on demand
 * (kernels with CONFIG_FAULT_INJECTION_DEBUG_FS; the standard fault_attr
 * knobs, see Documentation/fault-injection/fault-injection.rst):
 *
 *   /sys/kernel/debug/rblk/drop_completion/
 *	a successful SEND or LOCAL_INV work completion of an I/O queue is
 *	ignored, as if the device never delivered it: the request, answered
 *	by the target or not, can only end through its timeout.
 *
 *   /sys/kernel/debug/rblk/fail_add_disk/
 *	a scanned namespace's block device is not added: after 100 ms (a
 *	window in which recovery may quiesce and unquiesce the listed new
 *	queue), the addition fails with -ENOMEM.
 *
 *   /sys/kernel/debug/rblk/hold_reset/
 *	a user's reset (reset_controller) changes the state but does not
 *	start its work, as if the worker had not run yet: what a disconnect
 *	then finds is a reset that never began.  The controller stays
 *	RESETTING, its I/O held and its recovery off (errors, timers and
 *	further resets do nothing), until it is deleted.
 *
 *   /sys/kernel/debug/rblk/flip_ns_ids/
 *	with multipath, a namespace about to become a path reports other
 *	identifiers (each one reported, NGUID, EUI-64 or UUID, with its
 *	last byte inverted) than the target gave: a second controller's
 *	namespace whose identifiers do not match its head's.
 *
 *   /sys/kernel/debug/rblk/auth_required/
 *	a successful block I/O completes with status 191h (Authentication
 *	Required) without DNR, as from a target that asks the host to
 *	authenticate again (nvmet always sets DNR).
 *
 *   /sys/kernel/debug/rblk/live_error/
 *	a controller that goes live (a reconnect, a first connect) starts
 *	error recovery at once, 100 ms before it unquiesces its namespace
 *	queues, and that recovery's teardown waits 500 ms after its quiesce:
 *	an error right after a reconnect went live, with the unquiesce of
 *	going live inside the teardown's window.
 *
 *   /sys/kernel/debug/rblk/no_ana/
 *	a connect to a controller that reports ANA reads no ANA log, as when
 *	its buffer cannot be allocated: the association goes on without
 *	ANA, while the target still answers with ANA statuses.
 *
 *   /sys/kernel/debug/rblk/path_error/
 *	a successful block I/O of the controller whose index (M of
 *	rblk-ctrlM) is in path_error/ctrl_index completes with status 300h
 *	(Internal Path Error) without DNR: a path that fails while another
 *	serves.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fault-inject.h>

#include "fault.h"

static struct dentry *rblk_debugfs;
static DECLARE_FAULT_ATTR(rblk_drop_completion);
static DECLARE_FAULT_ATTR(rblk_fail_add_disk);
static DECLARE_FAULT_ATTR(rblk_hold_reset);
static DECLARE_FAULT_ATTR(rblk_flip_ns_ids);
static DECLARE_FAULT_ATTR(rblk_auth_required);
static DECLARE_FAULT_ATTR(rblk_live_error);
static DECLARE_FAULT_ATTR(rblk_no_ana);
static DECLARE_FAULT_ATTR(rblk_path_error);
static u32 rblk_path_error_ctrl;
static atomic_t rblk_teardown_pause = ATOMIC_INIT(0);

/**
 * rblk_fault_drop_completion() - whether to ignore a work completion
 *
 * Return: true if the injected fault says so.
 */
bool rblk_fault_drop_completion(void)
{
	return should_fail(&rblk_drop_completion, 1);
}

/**
 * rblk_fault_fail_add_disk() - whether a namespace's disk is not added
 *
 * Sleeps 100 ms first when it says so.
 *
 * Return: true if the injected fault says so.
 */
bool rblk_fault_fail_add_disk(void)
{
	if (!should_fail(&rblk_fail_add_disk, 1))
		return false;
	msleep(100);
	return true;
}

/**
 * rblk_fault_hold_reset() - whether a user's reset leaves its work unqueued
 *
 * Return: true if the injected fault says so.
 */
bool rblk_fault_hold_reset(void)
{
	return should_fail(&rblk_hold_reset, 1);
}

/**
 * rblk_fault_flip_ns_ids() - whether a new path reports other identifiers
 *
 * Return: true if the injected fault says so.
 */
bool rblk_fault_flip_ns_ids(void)
{
	return should_fail(&rblk_flip_ns_ids, 1);
}

/**
 * rblk_fault_auth_required() - whether a successful I/O asks for
 *	authentication instead
 *
 * Return: true if the injected fault says so.
 */
bool rblk_fault_auth_required(void)
{
	return should_fail(&rblk_auth_required, 1);
}

/**
 * rblk_fault_live_error() - whether a controller going live fails at once
 *
 * The next teardown then pauses (rblk_fault_pause_teardown()).
 *
 * Return: true if the injected fault says so.
 */
bool rblk_fault_live_error(void)
{
	if (!should_fail(&rblk_live_error, 1))
		return false;
	atomic_set(&rblk_teardown_pause, 1);
	return true;
}

/**
 * rblk_fault_pause_teardown() - whether a teardown waits after its quiesce
 *
 * Return: true once after rblk_fault_live_error() said true.
 */
bool rblk_fault_pause_teardown(void)
{
	return atomic_xchg(&rblk_teardown_pause, 0);
}

/**
 * rblk_fault_no_ana() - whether a connect goes on without the ANA log
 *
 * Return: true if the injected fault says so.
 */
bool rblk_fault_no_ana(void)
{
	return should_fail(&rblk_no_ana, 1);
}

/**
 * rblk_fault_path_error() - whether a successful I/O fails with a path error
 * @ctrl_index: the index of the I/O's controller
 *
 * Return: true if the injected fault says so for that controller.
 */
bool rblk_fault_path_error(int ctrl_index)
{
	return (u32)ctrl_index == READ_ONCE(rblk_path_error_ctrl) &&
	       should_fail(&rblk_path_error, 1);
}

/** rblk_fault_init() - create the debugfs knobs; failures are ignored */
void rblk_fault_init(void)
{
	struct dentry *dir;

	rblk_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	fault_create_debugfs_attr("drop_completion", rblk_debugfs,
				  &rblk_drop_completion);
	fault_create_debugfs_attr("fail_add_disk", rblk_debugfs,
				  &rblk_fail_add_disk);
	fault_create_debugfs_attr("hold_reset", rblk_debugfs, &rblk_hold_reset);
	fault_create_debugfs_attr("flip_ns_ids", rblk_debugfs,
				  &rblk_flip_ns_ids);
	fault_create_debugfs_attr("auth_required", rblk_debugfs,
				  &rblk_auth_required);
	fault_create_debugfs_attr("live_error", rblk_debugfs, &rblk_live_error);
	fault_create_debugfs_attr("no_ana", rblk_debugfs, &rblk_no_ana);
	dir = fault_create_debugfs_attr("path_error", rblk_debugfs,
					&rblk_path_error);
	if (!IS_ERR(dir))
		debugfs_create_u32("ctrl_index", 0600, dir,
				   &rblk_path_error_ctrl);
}

/** rblk_fault_exit() - remove them */
void rblk_fault_exit(void)
{
	debugfs_remove_recursive(rblk_debugfs);
}
