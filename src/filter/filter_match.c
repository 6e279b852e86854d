// SPDX-License-Identifier: GPL-2.0
/*
 * filter_match.c - runs a compiled filter over a record.
 *
 * The predicate functions are the kernel's, with its string quirks kept on
 * purpose (a script sees them): on a char[N] field the end match "*x"
 * compares the last bytes of the whole N-byte array, not of the string, so
 * it almost never matches; on a size-0 char[] (ftrace:print's buf) "==" is
 * an exact strcmp, and "*x" and full globs never match.  Unlike the
 * kernel, every read is bounded by the record, so a malformed record can
 * make a predicate false but can not make it read out of bounds.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <string.h>

#include "filter/filter_internal.h"

/*
 * A string argument as the kernel's regex_match_* functions get it: @len
 * is their len argument, @avail how many bytes the record really has from
 * @s on (bytes past it read as NUL).
 */
struct kstr {
	const char *s;
	int len;
	int avail;
};

static char at(const struct kstr *k, int i)
{
	return i < k->avail ? k->s[i] : 0;
}

/* strncmp(str, pat, n) == 0 with @str bounded */
static bool kstrneq(const struct kstr *k, const char *pat, int n)
{
	for (int i = 0; i < n; i++) {
		char c = at(k, i);

		if (c != pat[i])
			return false;
		if (!c)
			return true;
	}
	return true;
}

/* lib/glob.c glob_match() over the NUL-terminated @str of @avail bytes */
static bool glob_match(const char *pat, const char *str, int avail)
{
	const char *back_pat = NULL;
	int si = 0, back_str = 0;

	for (;;) {
		unsigned char c = si < avail ? (unsigned char)str[si] : 0;
		unsigned char d = (unsigned char)*pat++;

		si++;
		switch (d) {
		case '?':
			if (c == '\0')
				return false;
			break;
		case '*':
			if (*pat == '\0')
				return true;
			back_pat = pat;
			back_str = --si;
			break;
		case '[': {
			bool match = false, inverted = (*pat == '!');
			const char *class = pat + inverted;
			unsigned char a = (unsigned char)*class++;

			do {
				unsigned char b = a;

				if (a == '\0')
					goto literal;
				if (class[0] == '-' && class[1] != ']') {
					b = (unsigned char)class[1];
					if (b == '\0')
						goto literal;
					class += 2;
				}
				match |= (a <= c && c <= b);
			} while ((a = (unsigned char)*class++) != ']');
			if (match == inverted)
				goto backtrack;
			pat = class;
			break;
		}
		case '\\':
			d = (unsigned char)*pat++;
			/* fall through */
		default:
literal:
			if (c == d) {
				if (d == '\0')
					return true;
				break;
			}
backtrack:
			if (c == '\0' || !back_pat)
				return false;
			pat = back_pat;
			si = ++back_str;
			break;
		}
	}
}

static bool regex_match(const struct tf_pred *p, const struct kstr *k)
{
	switch (p->match) {
	case TF_MATCH_FULL:
		if (!k->len)	/* strcmp */
			return kstrneq(k, p->pattern, p->rlen + 1);
		return kstrneq(k, p->pattern, k->len);
	case TF_MATCH_FRONT:
		if (k->len && k->len < p->rlen)
			return false;
		return kstrneq(k, p->pattern, p->rlen);
	case TF_MATCH_MIDDLE:
		if (!k->len) {	/* strstr */
			for (int i = 0; ; i++) {
				struct kstr sub = { k->s + i, 0, k->avail - i };

				if (kstrneq(&sub, p->pattern, p->rlen))
					return true;
				if (!at(k, i))
					return false;
			}
		}
		/* strnstr: memcmp over len bytes, NULs and all */
		if (!p->rlen)
			return true;
		for (int i = 0; k->len - i >= p->rlen; i++) {
			if (i + p->rlen > k->avail)
				return false;
			if (!memcmp(k->s + i, p->pattern, p->rlen))
				return true;
		}
		return false;
	case TF_MATCH_END: {
		int n = k->len - 1;

		if (n < p->rlen || n > k->avail)
			return false;
		return !memcmp(k->s + n - p->rlen, p->pattern, p->rlen);
	}
	case TF_MATCH_GLOB: {
		/* a char[N] is globbed as its N bytes: nothing when N is 0 */
		int avail = k->len && k->len < k->avail ? k->len : k->avail;

		if (p->fn == TF_FN_STRING && !k->len)
			avail = 0;
		return glob_match(p->pattern, k->s, avail);
	}
	}
	return false;
}

static inline uint64_t read_num(const struct tf_pred *p,
				const struct tf_record *r)
{
	struct tf_field f = { .offset = p->offset, .size = p->size,
			      .is_signed = p->is_signed };

	if ((uint64_t)p->offset + p->size > r->size)
		return 0;
	return tf_field_read_u64(&f, r->data);
}

static inline int num_eq(const struct tf_pred *p, uint64_t v)
{
	uint64_t mask = p->size == 8 ? ~0ULL : (1ULL << (p->size * 8)) - 1;

	return ((v & mask) == (p->val & mask)) ^ p->not;
}

static inline int num_cmp(const struct tf_pred *p, uint64_t v)
{
	unsigned shift = 64 - p->size * 8;

	if (p->op == TF_OP_BAND)
		return ((v & p->val) << shift) != 0;
	if (p->is_signed) {
		/* sign-extend the constant truncated to the field's type */
		int64_t a = (int64_t)(v << shift) >> shift;
		int64_t b = (int64_t)(p->val << shift) >> shift;

		switch (p->op) {
		case TF_OP_LT: return a < b;
		case TF_OP_LE: return a <= b;
		case TF_OP_GT: return a > b;
		case TF_OP_GE: return a >= b;
		}
	} else {
		uint64_t a = (v << shift) >> shift;
		uint64_t b = (p->val << shift) >> shift;

		switch (p->op) {
		case TF_OP_LT: return a < b;
		case TF_OP_LE: return a <= b;
		case TF_OP_GT: return a > b;
		case TF_OP_GE: return a >= b;
		}
	}
	return 0;
}

static bool mask_test(const uint64_t *mask, unsigned cpu)
{
	return mask[cpu / 64] >> (cpu % 64) & 1;
}

/* do_filter_scalar_cpumask(): @mask has two CPUs or more (or none) */
static int scalar_vs_mask(int op, unsigned cpu, const uint64_t *mask,
			  unsigned nr)
{
	switch (op) {
	case TF_OP_EQ: return 0;
	case TF_OP_NE: return 1;
	case TF_OP_BAND: return cpu < nr && mask_test(mask, cpu);
	}
	return 0;
}

/* The record's cpumask field: bit @cpu of the bytes at its data_loc. */
static bool rec_mask_bit(const uint8_t *m, unsigned bytes, unsigned cpu)
{
	return cpu / 8 < bytes && (m[cpu / 8] >> (cpu % 8) & 1);
}

static const uint8_t *rec_cpumask(const struct tf_pred *p,
				  const struct tf_record *r, unsigned *bytes)
{
	uint32_t loc;

	if ((uint64_t)p->offset + 4 > r->size)
		return NULL;
	memcpy(&loc, r->data + p->offset, 4);
	if ((loc & 0xffff) > r->size)
		return NULL;
	*bytes = loc >> 16;
	if (*bytes > r->size - (loc & 0xffff))
		*bytes = r->size - (loc & 0xffff);
	return r->data + (loc & 0xffff);
}

static int pred_cpumask(const struct tf_pred *p, const struct tf_record *r,
			unsigned nr)
{
	unsigned bytes, cpu, n = 0;
	const uint8_t *m = rec_cpumask(p, r, &bytes);
	bool equal = true, inter = false;

	if (!m)
		return 0;
	if (p->fn == TF_FN_CPUMASK_CPU) {
		cpu = (unsigned)p->val;
		for (unsigned c = 0; c < nr; c++)
			n += rec_mask_bit(m, bytes, c);
		switch (p->op) {
		case TF_OP_EQ:
			return rec_mask_bit(m, bytes, cpu) && n < 2;
		case TF_OP_NE:
			return !rec_mask_bit(m, bytes, cpu) || n >= 2;
		case TF_OP_BAND:
			return rec_mask_bit(m, bytes, cpu);
		}
		return 0;
	}
	for (unsigned c = 0; c < nr; c++) {
		bool a = rec_mask_bit(m, bytes, c), b = mask_test(p->mask, c);

		if (a != b)
			equal = false;
		if (a && b)
			inter = true;
	}
	switch (p->op) {
	case TF_OP_EQ: return equal;
	case TF_OP_NE: return !equal;
	case TF_OP_BAND: return inter;
	}
	return 0;
}

static int pred_string(const struct tf_pred *p, const struct tf_record *r)
{
	struct kstr k = { 0 };
	uint32_t loc, off;

	switch (p->fn) {
	case TF_FN_STRING:
		if (p->offset > r->size)
			return 0;
		k.s = (const char *)r->data + p->offset;
		k.len = p->field_len;
		k.avail = (int)(r->size - p->offset);
		break;
	case TF_FN_STRLOC:
	case TF_FN_STRRELLOC:
		if ((uint64_t)p->offset + 4 > r->size)
			return 0;
		memcpy(&loc, r->data + p->offset, 4);
		off = loc & 0xffff;
		if (p->fn == TF_FN_STRRELLOC)
			off += p->offset + 4;
		if (off > r->size)
			return 0;
		k.s = (const char *)r->data + off;
		k.len = (int)(loc >> 16);
		k.avail = (int)(r->size - off);
		break;
	}
	return regex_match(p, &k) ^ p->not;
}

static int pred_comm(const struct tf_pred *p, const struct tf_record *r)
{
	char comm[TF_TASK_COMM_LEN] = { 0 };
	struct kstr k = { comm, TF_TASK_COMM_LEN, TF_TASK_COMM_LEN };

	if (r->comm)
		strncpy(comm, r->comm, TF_TASK_COMM_LEN - 1);
	return regex_match(p, &k) ^ p->not;
}

static int pred_cpu(const struct tf_pred *p, const struct tf_record *r)
{
	int cpu = r->cpu, cmp = (int)p->val;

	switch (p->op) {
	case TF_OP_EQ: return cpu == cmp;
	case TF_OP_NE: return cpu != cmp;
	case TF_OP_LT: return cpu < cmp;
	case TF_OP_LE: return cpu <= cmp;
	case TF_OP_GT: return cpu > cmp;
	case TF_OP_GE: return cpu >= cmp;
	}
	return 0;
}

static int pred_call(const struct tf_pred *p, const struct tf_record *r,
		     unsigned nr)
{
	uint64_t v;

	switch (p->fn) {
	case TF_FN_NUM_EQ:
		return num_eq(p, read_num(p, r));
	case TF_FN_NUM_CMP:
		return num_cmp(p, read_num(p, r));
	case TF_FN_STRING:
	case TF_FN_STRLOC:
	case TF_FN_STRRELLOC:
		return pred_string(p, r);
	case TF_FN_COMM:
		return pred_comm(p, r);
	case TF_FN_CPU:
		return pred_cpu(p, r);
	case TF_FN_CPU_CPUMASK:
		return scalar_vs_mask(p->op, (unsigned)r->cpu, p->mask, nr);
	case TF_FN_CPUMASK:
	case TF_FN_CPUMASK_CPU:
		return pred_cpumask(p, r, nr);
	case TF_FN_SCALAR_CPUMASK: {
		struct tf_pred u = *p;

		u.is_signed = 0;	/* u##size *addr */
		v = read_num(&u, r);
		if ((unsigned)v >= nr)
			return 0;
		return scalar_vs_mask(p->op, (unsigned)v, p->mask, nr);
	}
	case TF_FN_FUNCTION: {
		int in;

		v = read_num(p, r);
		in = v >= p->val && v < p->val2;
		return p->op == TF_OP_EQ ? in : !in;
	}
	case TF_FN_PCHAR:	/* the pointed-to string is not recorded */
	case TF_FN_NOP:
	default:
		return 0;
	}
}

bool tf_filter_match(const struct tf_filter *f, const struct tf_record *rec)
{
	const struct tf_prog_entry *prog;
	int i;

	if (!f)
		return true;
	prog = f->prog;
	for (i = 0; prog[i].pred; i++) {
		const struct tf_pred *p = prog[i].pred;
		int match;

		/* numeric comparisons, the commonest, without the call */
		if (p->fn == TF_FN_NUM_CMP)
			match = num_cmp(p, read_num(p, rec));
		else if (p->fn == TF_FN_NUM_EQ)
			match = num_eq(p, read_num(p, rec));
		else
			match = pred_call(p, rec, f->nr_cpus);

		if (match == prog[i].when_to_branch)
			i = prog[i].target;
	}
	return prog[i].target;
}

const char *tf_filter_string(const struct tf_filter *f)
{
	return f ? f->string : NULL;
}

bool tf_filter_reads_pointers(const struct tf_filter *f)
{
	for (int i = 0; f && i < f->n; i++)
		if (f->preds[i].fn == TF_FN_PCHAR)
			return true;
	return false;
}
