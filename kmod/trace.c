// SPDX-License-Identifier: GPL-2.0
/*
 * rblk tracepoints: the one file that instantiates them (kmod/trace.h).
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
