// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_tree.h - the tree a fuzz target works on: the registry of the
 * oracle kernel's formats (TF_FUZZ_FORMATS, from the environment or the
 * build) and a tracing context over it, with the hist engine if asked.
 * Exits the fuzzer when they cannot be made: no input can be run then.
 */
#ifndef TF_FUZZ_TREE_H
#define TF_FUZZ_TREE_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "events/registry.h"
#include "hist/hist.h"
#include "trace/trace_array.h"

#ifndef TF_FUZZ_FORMATS
#define TF_FUZZ_FORMATS "tests/oracle/formats-6.12"
#endif

static inline void fuzz_tree_init(const char *who, struct tf_registry **reg,
				  struct tf_tracing *t, unsigned nr_cpus,
				  bool hist)
{
	const char *dir = getenv("TF_FUZZ_FORMATS");
	int fd = open(dir ? dir : TF_FUZZ_FORMATS, O_RDONLY | O_DIRECTORY);

	if (fd < 0 || tf_registry_load(reg, fd, NULL, "fuzz") < 0) {
		fprintf(stderr, "%s: cannot load formats (TF_FUZZ_FORMATS)\n",
			who);
		exit(1);
	}
	close(fd);
	if (tf_tracing_init(t, *reg, nr_cpus) < 0 ||
	    (hist && tf_hist_init(t) < 0)) {
		fprintf(stderr, "%s: cannot make the tree\n", who);
		exit(1);
	}
}

#endif
