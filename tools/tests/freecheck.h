/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What is freed, checked for a secret: this free() stands in for libc's
 * in the test program and in the libraries it uses (stdio's buffers,
 * libnl's messages), by ELF interposition, as glibc allows for malloc.
 * Set freecheck_secret to a string that must not be in a block freed;
 * freecheck_found counts the blocks that held it.  glibc only.
 */
#ifndef NVMECFG_TESTS_FREECHECK_H
#define NVMECFG_TESTS_FREECHECK_H

#include <malloc.h>
#include <string.h>

void __libc_free(void *p);

static const char *freecheck_secret;
static unsigned int freecheck_found;

void free(void *p)
{
	if (p && freecheck_secret &&
	    memmem(p, malloc_usable_size(p), freecheck_secret,
		   strlen(freecheck_secret)))
		freecheck_found++;
	__libc_free(p);
}

#endif /* NVMECFG_TESTS_FREECHECK_H */
