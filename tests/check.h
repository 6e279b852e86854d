/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - the smallest unit-test harness that serves: CHECK() records a
 * failure with its line and goes on, check_done() prints a summary and
 * returns the exit status automake's test driver expects.
 */
#ifndef TF_TESTS_CHECK_H
#define TF_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failed, check_run;

#define CHECK(cond) do {						\
	check_run++;							\
	if (!(cond)) {							\
		check_failed++;						\
		fprintf(stderr, "%s:%d: CHECK failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
	}								\
} while (0)

#define CHECK_STR(got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	check_run++;							\
	if (!g_ || strcmp(g_, w_) != 0) {				\
		check_failed++;						\
		fprintf(stderr, "%s:%d: got  \"%s\"\n%*swant \"%s\"\n",\
			__FILE__, __LINE__, g_ ? g_ : "(null)",	\
			(int)strlen(__FILE__) + 8, "", w_);		\
	}								\
} while (0)

#define CHECK_INT(got, want) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	check_run++;							\
	if (g_ != w_) {							\
		check_failed++;						\
		fprintf(stderr, "%s:%d: %s is %lld, want %lld\n",	\
			__FILE__, __LINE__, #got, g_, w_);		\
	}								\
} while (0)

static inline int check_done(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, check_run, check_failed);
	return check_failed ? 1 : 0;
}

#endif
