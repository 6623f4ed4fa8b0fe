/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of nvmecfg may use and that depends on none of them:
 * the exit codes (documented in nvmecfg(8), scripts rely on them) and
 * ARRAY_SIZE.  Below output.c and nvmecfg.c both, so that neither
 * includes the other's header for them.
 */
#ifndef NVMECFG_UTIL_H
#define NVMECFG_UTIL_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum nvmecfg_exit {
	EXIT_OK		= 0,
	EXIT_KERNEL	= 1,	/* the kernel refused the request */
	EXIT_USAGE	= 2,	/* bad command line */
	EXIT_NOMODULE	= 3,	/* the "rblk" family is not registered */
	EXIT_PERM	= 4,	/* EPERM or EACCES from the kernel */
};

#endif /* NVMECFG_UTIL_H */
