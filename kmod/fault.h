/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rblk's injected faults (fault.c; debugfs, kernels with
 * CONFIG_FAULT_INJECTION_DEBUG_FS): one hook per layer that has one, each
 * false on other kernels.
 */
#ifndef _RBLK_FAULT_H
#define _RBLK_FAULT_H

#include <linux/types.h>

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
bool rblk_fault_drop_completion(void);
bool rblk_fault_fail_add_disk(void);
bool rblk_fault_hold_reset(void);
bool rblk_fault_flip_ns_ids(void);
bool rblk_fault_auth_required(void);
bool rblk_fault_live_error(void);
bool rblk_fault_pause_teardown(void);
bool rblk_fault_no_ana(void);
bool rblk_fault_path_error(int ctrl_index);
void rblk_fault_init(void);
void rblk_fault_exit(void);
#else
static inline bool rblk_fault_drop_completion(void)
{
	return false;
}

static inline bool rblk_fault_fail_add_disk(void)
{
	return false;
}

static inline bool rblk_fault_hold_reset(void)
{
	return false;
}

static inline bool rblk_fault_flip_ns_ids(void)
{
	return false;
}

static inline bool rblk_fault_auth_required(void)
{
	return false;
}

static inline bool rblk_fault_live_error(void)
{
	return false;
}

static inline bool rblk_fault_pause_teardown(void)
{
	return false;
}

static inline bool rblk_fault_no_ana(void)
{
	return false;
}

static inline bool rblk_fault_path_error(int ctrl_index)
{
	return false;
}

static inline void rblk_fault_init(void)
{
}

static inline void rblk_fault_exit(void)
{
}
#endif

#endif /* _RBLK_FAULT_H */
