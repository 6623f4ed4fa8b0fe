/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit test harness printing KTAP: one "ok N name" or
 * "not ok N name" per case, failed checks as "# " diagnostics before it.
 * One test program is one translation unit, hence the statics.
 */
#ifndef NVMECFG_KTAP_H
#define NVMECFG_KTAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ktap_case {
	const char *name;
	void (*fn)(void);
};

#define KTAP_CASE(fn)	{ #fn, fn }

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

static int ktap_failed;

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("# %s:%d: CHECK(%s) failed\n", __FILE__,	\
			       __LINE__, #cond);			\
			ktap_failed = 1;				\
		}							\
	} while (0)

#define CHECK_STR(got, want)						\
	do {								\
		const char *__g = (got), *__w = (want);			\
		if (!__g || strcmp(__g, __w)) {				\
			printf("# %s:%d: %s is \"%s\", want \"%s\"\n",	\
			       __FILE__, __LINE__, #got,		\
			       __g ? __g : "(null)", __w);		\
			ktap_failed = 1;				\
		}							\
	} while (0)

#define CHECK_CONTAINS(hay, needle)					\
	do {								\
		const char *__h = (hay), *__n = (needle);		\
		if (!__h || !strstr(__h, __n)) {			\
			printf("# %s:%d: \"%s\" lacks \"%s\"\n",	\
			       __FILE__, __LINE__, __h ? __h : "(null)", \
			       __n);					\
			ktap_failed = 1;				\
		}							\
	} while (0)

#define CHECK_PREFIX(str, prefix)					\
	do {								\
		const char *__s = (str), *__p = (prefix);		\
		if (!__s || strncmp(__s, __p, strlen(__p))) {		\
			printf("# %s:%d: \"%s\" does not start with \"%s\"\n", \
			       __FILE__, __LINE__, __s ? __s : "(null)", \
			       __p);					\
			ktap_failed = 1;				\
		}							\
	} while (0)

static inline int ktap_run(const char *suite, const struct ktap_case *cases,
			   size_t nr)
{
	size_t i, failures = 0;

	printf("KTAP version 1\n# suite: %s\n1..%zu\n", suite, nr);
	for (i = 0; i < nr; i++) {
		ktap_failed = 0;
		cases[i].fn();
		failures += ktap_failed;
		printf("%sok %zu %s\n", ktap_failed ? "not " : "", i + 1,
		       cases[i].name);
		fflush(stdout);
	}
	return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* NVMECFG_KTAP_H */
