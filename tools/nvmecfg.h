/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmecfg.c's header.  The exit codes and ARRAY_SIZE live in util.h, below
 * every part of the tool; this stays for the files that include it.
 */
#ifndef NVMECFG_H
#define NVMECFG_H

#include "util.h"

#endif /* NVMECFG_H */
