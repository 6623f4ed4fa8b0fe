// SPDX-License-Identifier: GPL-2.0
/*
 * rblk events: what happens to controllers and namespaces (added,
 * removed, resized, ANA state changed) and subsystems (I/O policy
 * changed), told to whoever listens (netlink's
 * multicast group) through an atomic notifier chain.  The bottom of the
 * module: every layer may raise an event, and none calls up to do it.
 */
#include <linux/notifier.h>

#include "rblk.h"

static ATOMIC_NOTIFIER_HEAD(rblk_event_chain);

/**
 * rblk_event_register() - listen to controller and namespace events
 * @nb: notifier; called in atomic context with the &enum rblk_event and a
 *	&struct rblk_event_info
 *
 * Return: 0.
 */
int rblk_event_register(struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&rblk_event_chain, nb);
}

/**
 * rblk_event_unregister() - stop listening
 * @nb: notifier given to rblk_event_register()
 */
void rblk_event_unregister(struct notifier_block *nb)
{
	atomic_notifier_chain_unregister(&rblk_event_chain, nb);
}

/**
 * rblk_notify() - tell the listeners what happened to a controller
 * @ctrl: the controller
 * @ns: its namespace, for namespace events; else NULL
 * @event: what happened
 *
 * Callable from any context.  The discovery controller a discover reads
 * the log through (no index) is not announced.
 */
void rblk_notify(struct rblk_ctrl *ctrl, struct rblk_ns *ns,
		 enum rblk_event event)
{
	struct rblk_event_info info = { .ctrl = ctrl, .ns = ns };

	if (ctrl->index >= 0)
		atomic_notifier_call_chain(&rblk_event_chain, event, &info);
}

/**
 * rblk_notify_subsys() - tell the listeners what happened to a subsystem
 * @subsys: the subsystem, referenced by the caller
 * @event: what happened
 *
 * Callable from any context.
 */
void rblk_notify_subsys(struct rblk_subsys *subsys, enum rblk_event event)
{
	struct rblk_event_info info = { .subsys = subsys };

	atomic_notifier_call_chain(&rblk_event_chain, event, &info);
}
