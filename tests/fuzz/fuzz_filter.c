// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_filter.c - libFuzzer target for the filter language.
 *
 * Input: one byte choosing the nr_cpu_ids, then the filter string.  Each
 * input is compiled for an event with every kind of field; what compiles
 * is matched against records built from the input's bytes (including
 * records with data_loc words pointing anywhere), what fails is rendered
 * as the filter file and error_log texts.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I src \
 *	src/filter/filter_*.c src/events/schema.c tests/fuzz/fuzz_filter.c \
 *	-o fuzz_filter
 *   ./fuzz_filter -max_total_time=600 tests/filter-corpus/fuzz-seeds
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdlib.h>
#include <string.h>

#include "filter/filter.h"

/* what the filters compile with (a tree's tf_tracing.filter_env) */
static struct tf_filter_env env;

static const struct tf_field fields[] = {
	{ "common_type", "unsigned short", 0, 2, false, true, TF_FIELD_NUM },
	{ "common_flags", "unsigned char", 2, 1, false, true, TF_FIELD_NUM },
	{ "common_pid", "int", 4, 4, true, true, TF_FIELD_NUM },
	{ "sig", "int", 8, 4, true, false, TF_FIELD_NUM },
	{ "b", "s8", 12, 1, true, false, TF_FIELD_NUM },
	{ "h", "u16", 14, 2, false, false, TF_FIELD_NUM },
	{ "call_site", "unsigned long", 16, 8, false, false, TF_FIELD_NUM },
	{ "name", "char[16]", 24, 16, false, false, TF_FIELD_STR_STATIC },
	{ "file", "__data_loc char[]", 40, 4, false, false, TF_FIELD_STR_DYN },
	{ "rel", "__rel_loc char[]", 44, 4, false, false, TF_FIELD_STR_REL },
	{ "cpumask", "__data_loc cpumask_t", 48, 4, false, false, TF_FIELD_CPUMASK },
	{ "ptr", "const char *", 56, 8, false, false, TF_FIELD_STR_PTR },
	{ "arr", "u8[6]", 64, 6, false, false, TF_FIELD_ARRAY },
	{ "buf", "char[]", 70, 0, false, false, TF_FIELD_STR_STATIC },
};
static const struct tf_event ev = {
	.system = "fuzz", .name = "all", .id = 1,
	.nr_fields = sizeof(fields) / sizeof(fields[0]), .fields = fields,
};

static uint64_t sym_name(void *d, const char *n)
{
	(void)d;
	return n[0] == 'f' ? 0x1000 : 0;
}

static bool sym_addr(void *d, uint64_t a, uint64_t *s, uint64_t *e)
{
	(void)d;
	*s = a & ~0xffULL;
	*e = *s + 0x100;
	return a != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct tf_filter_symbols syms = { sym_name, sym_addr, 0 };
	struct tf_filter_error e;
	struct tf_filter *f;
	uint8_t rec[128];
	char *str, *t;

	if (size < 1 || size > 4096)
		return 0;
	env.nr_cpus = 1 + data[0] % 130;
	if (data[0] & 0x80)
		env.symbols = syms;
	else
		memset(&env.symbols, 0, sizeof(env.symbols));
	str = strndup((const char *)data + 1, size - 1);
	if (!str)
		return 0;
	tf_filter_is_clear(str);
	if (tf_filter_compile(&env, &ev, str, &f, &e) == 0) {
		struct tf_record r = { .event = &ev, .data = rec,
				       .comm = "comm" };

		t = tf_filter_file_text(f);
		free(t);
		/* records from the input bytes, whole and truncated */
		for (unsigned k = 0; k < 4; k++) {
			for (unsigned i = 0; i < sizeof(rec); i++)
				rec[i] = data[(i * 7 + k) % size] ^ (uint8_t)(i * k);
			r.size = k == 3 ? (unsigned)(size % sizeof(rec)) : sizeof(rec);
			r.cpu = (int)(data[size - 1] % 200) - k;
			r.comm = k == 2 ? NULL : "bash";
			(void)tf_filter_match(f, &r);
		}
		tf_filter_free(f);
	} else {
		t = tf_filter_error_file_text(str, &e);
		free(t);
		t = tf_filter_error_log_entry(str, &e);
		free(t);
		(void)tf_filter_err_text(e.err);
	}
	free(str);
	return 0;
}
