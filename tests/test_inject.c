// SPDX-License-Identifier: GPL-2.0
/*
 * test_inject.c - the injection line parser and packer
 * (src/source/inject_parse.c): every field kind, number bases, signed
 * ranges, strings, the variable part's layout, every error, streams.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "events/registry.h"
#include "source/inject.h"

static struct tf_registry *reg;
static struct tf_inject *p;

/* An event with a field of every kind. */
static const char kinds_format[] =
"name: kinds\n"
"ID: 60001\n"
"format:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
"\n"
"\tfield:u8 u8v;\toffset:8;\tsize:1;\tsigned:0;\n"
"\tfield:s8 s8v;\toffset:9;\tsize:1;\tsigned:1;\n"
"\tfield:u16 u16v;\toffset:10;\tsize:2;\tsigned:0;\n"
"\tfield:int s32v;\toffset:12;\tsize:4;\tsigned:1;\n"
"\tfield:unsigned long u64v;\toffset:16;\tsize:8;\tsigned:0;\n"
"\tfield:long s64v;\toffset:24;\tsize:8;\tsigned:1;\n"
"\tfield:char name[8];\toffset:32;\tsize:8;\tsigned:0;\n"
"\tfield:__data_loc char[] str;\toffset:40;\tsize:4;\tsigned:0;\n"
"\tfield:__rel_loc char[] rel;\toffset:44;\tsize:4;\tsigned:0;\n"
"\tfield:u32 arr[4];\toffset:48;\tsize:16;\tsigned:0;\n"
"\tfield:__data_loc u16[] darr;\toffset:64;\tsize:4;\tsigned:0;\n"
"\tfield:const char * ptr;\toffset:72;\tsize:8;\tsigned:0;\n"
"\tfield:__data_loc char[] str2;\toffset:80;\tsize:4;\tsigned:0;\n"
"\n"
"print fmt: \"u8v=%u\", REC->u8v\n";

static uint64_t rd(const struct tf_record *r, unsigned off, unsigned size)
{
	uint64_t v = 0;

	memcpy(&v, r->data + off, size);
	return v;
}

static int parse(const char *line)
{
	return tf_inject_parse(p, line, strlen(line), 7);
}

#define CHECK_ERR(line, msg) do {					\
	CHECK_INT(parse(line), -1);					\
	CHECK_STR(tf_inject_error(p), msg);				\
} while (0)

static void test_sched_switch(void)
{
	const struct tf_record *r;
	struct tf_event *ev = tf_registry_find(reg, "sched", "sched_switch");

	CHECK_INT(parse("sched:sched_switch ts=1000 cpu=1 pid=12 comm=bash "
			"prev_comm=bash prev_pid=12 prev_prio=120 "
			"prev_state=1 next_comm=swapper/0 next_pid=0 "
			"next_prio=120"), 1);
	r = tf_inject_record(p);
	CHECK(r->event == ev);
	CHECK_INT(r->size, 64);
	CHECK_INT(r->ts, 1000);
	CHECK_INT(r->cpu, 1);
	CHECK_STR(r->comm, "bash");
	CHECK_INT(r->nr_stack, 0);
	CHECK_INT(rd(r, 0, 2), ev->id);
	CHECK_INT(rd(r, 2, 2), 0);		/* flags, preempt count */
	CHECK_INT(rd(r, 4, 4), 12);		/* common_pid */
	CHECK(memcmp(r->data + 8, "bash\0\0\0\0\0\0\0\0\0\0\0\0", 16) == 0);
	CHECK_INT(rd(r, 24, 4), 12);
	CHECK_INT(rd(r, 28, 4), 120);
	CHECK_INT(rd(r, 32, 8), 1);
	CHECK(memcmp(r->data + 40, "swapper/0\0\0\0\0\0\0\0", 16) == 0);
	CHECK_INT(rd(r, 56, 4), 0);
	CHECK_INT(rd(r, 60, 4), 120);

	/* fields not given are 0; no ts: now; no comm: looked up by pid */
	CHECK_INT(parse("sched:sched_switch"), 1);
	r = tf_inject_record(p);
	CHECK_INT(r->size, 64);
	CHECK(r->ts > 0);
	CHECK(r->comm == NULL);
	for (unsigned i = 2; i < 64; i++)
		if (r->data[i]) {
			CHECK(!"field not zero");
			break;
		}
	/* tabs, a trailing CR, fields in any order */
	CHECK_INT(parse("\tsched:sched_switch\tnext_prio=5 prev_prio=-3\r"), 1);
	r = tf_inject_record(p);
	CHECK_INT(rd(r, 60, 4), 5);
	CHECK_INT(rd(r, 28, 4), 0xfffffffd);
	/* common_flags and common_preempt_count by name */
	CHECK_INT(parse("sched:sched_switch common_flags=0x9 "
			"common_preempt_count=2"), 1);
	r = tf_inject_record(p);
	CHECK_INT(rd(r, 2, 1), 9);
	CHECK_INT(rd(r, 3, 1), 2);
}

static void test_blank_and_comments(void)
{
	CHECK_INT(parse(""), 0);
	CHECK_INT(parse("   \t "), 0);
	CHECK_INT(parse("# sched:sched_switch prev_pid=x"), 0);
	CHECK_INT(parse("  # indented comment"), 0);
}

static void test_numbers(void)
{
	const struct tf_record *r;

	/* kstrtoull base 0: decimal, 0x hex, leading 0 octal */
	CHECK_INT(parse("inject_test:kinds u8v=255 s8v=-128 u16v=0xffff "
			"s32v=-2147483648 u64v=0xffffffffffffffff "
			"s64v=-9223372036854775808"), 1);
	r = tf_inject_record(p);
	CHECK_INT(rd(r, 8, 1), 255);
	CHECK_INT(rd(r, 9, 1), 0x80);
	CHECK_INT(rd(r, 10, 2), 0xffff);
	CHECK_INT(rd(r, 12, 4), 0x80000000u);
	CHECK(rd(r, 16, 8) == UINT64_MAX);
	CHECK(rd(r, 24, 8) == 0x8000000000000000ull);
	CHECK_INT(parse("inject_test:kinds u8v=017 s8v=127 u16v=0X1F "
			"s32v=0xffffffff s64v=+42 u64v=0"), 1);
	r = tf_inject_record(p);
	CHECK_INT(rd(r, 8, 1), 15);
	CHECK_INT(rd(r, 9, 1), 127);
	CHECK_INT(rd(r, 10, 2), 31);
	CHECK_INT(rd(r, 12, 4), 0xffffffffu);	/* a signed field's bit pattern */
	CHECK_INT(rd(r, 24, 8), 42);
	CHECK_INT(parse("inject_test:kinds u64v=18446744073709551615 "
			"ptr=0xffffffff81000000"), 1);
	r = tf_inject_record(p);
	CHECK(rd(r, 16, 8) == UINT64_MAX);
	CHECK(rd(r, 72, 8) == 0xffffffff81000000ull);

	CHECK_ERR("inject_test:kinds u8v=256",
		  "line 7: field \"u8v\": number out of range \"256\"");
	CHECK_ERR("inject_test:kinds s8v=-129",
		  "line 7: field \"s8v\": number out of range \"-129\"");
	CHECK_ERR("inject_test:kinds s8v=256",
		  "line 7: field \"s8v\": number out of range \"256\"");
	CHECK_INT(parse("inject_test:kinds s8v=0xff"), 1);
	CHECK_INT(rd(tf_inject_record(p), 9, 1), 0xff);
	CHECK_ERR("inject_test:kinds u16v=-1", "line 7: field \"u16v\": "
		  "negative value for an unsigned field \"-1\"");
	CHECK_ERR("inject_test:kinds u64v=18446744073709551616",
		  "line 7: field \"u64v\": number out of range "
		  "\"18446744073709551616\"");
	CHECK_ERR("inject_test:kinds s64v=-9223372036854775809",
		  "line 7: field \"s64v\": number out of range "
		  "\"-9223372036854775809\"");
	CHECK_ERR("inject_test:kinds s32v=12a",
		  "line 7: field \"s32v\": invalid number \"12a\"");
	CHECK_ERR("inject_test:kinds s32v=",
		  "line 7: field \"s32v\": invalid number \"\"");
	CHECK_ERR("inject_test:kinds s32v=0x",
		  "line 7: field \"s32v\": invalid number \"0x\"");
	CHECK_ERR("inject_test:kinds s32v=09",
		  "line 7: field \"s32v\": invalid number \"09\"");
	CHECK_ERR("inject_test:kinds s32v=-",
		  "line 7: field \"s32v\": invalid number \"-\"");
	CHECK_ERR("inject_test:kinds s32v=1.5",
		  "line 7: field \"s32v\": invalid number \"1.5\"");
	CHECK_INT(parse("inject_test:kinds s32v=\"12\""), 1);	/* quoted */
	CHECK_INT(rd(tf_inject_record(p), 12, 4), 12);
}

static void test_strings(void)
{
	const struct tf_record *r;
	unsigned len;
	const char *s;
	struct tf_event *ev = tf_registry_find(reg, "inject_test", "kinds");

	CHECK_INT(parse("inject_test:kinds name=abcdefg str=\"hello world\" "
			"rel=xy str2=\"a\\\"b\\\\c\\td\\x41\""), 1);
	r = tf_inject_record(p);
	CHECK(memcmp(r->data + 32, "abcdefg\0", 8) == 0);
	/* the fixed part is 88 bytes (84 rounded up to the u64 alignment);
	 * the variable parts follow in field order, each with its NUL */
	CHECK_INT(rd(r, 40, 4), (12u << 16) | 88);
	CHECK(memcmp(r->data + 88, "hello world", 12) == 0);
	/* __rel_loc: the offset counts from the end of the field */
	CHECK_INT(rd(r, 44, 4), (3u << 16) | (100 - 48));
	CHECK(memcmp(r->data + 100, "xy", 3) == 0);
	/* darr not given: empty, where it would be */
	CHECK_INT(rd(r, 64, 4), 103);
	CHECK_INT(rd(r, 80, 4), (9u << 16) | 103);
	CHECK(memcmp(r->data + 103, "a\"b\\c\tdA", 9) == 0);
	CHECK_INT(r->size, 112);
	s = tf_field_read_str(tf_event_field(ev, "str"), r->data, r->size,
			      &len);
	CHECK(s && len == 11 && memcmp(s, "hello world", 11) == 0);
	s = tf_field_read_str(tf_event_field(ev, "rel"), r->data, r->size,
			      &len);
	CHECK(s && len == 2 && memcmp(s, "xy", 2) == 0);

	/* not given: empty strings (just the NUL) */
	CHECK_INT(parse("inject_test:kinds"), 1);
	r = tf_inject_record(p);
	CHECK_INT(rd(r, 40, 4), (1u << 16) | 88);
	CHECK_INT(rd(r, 44, 4), (1u << 16) | (89 - 48));
	CHECK_INT(rd(r, 80, 4), (1u << 16) | 90);
	CHECK_INT(r->size, 91);
	CHECK_INT(parse("inject_test:kinds name=\"\" str=\"\""), 1);

	CHECK_ERR("inject_test:kinds name=abcdefgh",
		  "line 7: field \"name\": string of 8 bytes too long for "
		  "char[8] (at most 7)");
	CHECK_ERR("inject_test:kinds str=\"abc",
		  "line 7: field \"str\": unterminated quoted string");
	CHECK_ERR("inject_test:kinds str=\"abc\"def",
		  "line 7: field \"str\": text after the closing quote");
	CHECK_ERR("inject_test:kinds str=\"a\\qb\"",
		  "line 7: field \"str\": unknown escape");
	CHECK_ERR("inject_test:kinds str=\"\\x4\"",
		  "line 7: field \"str\": bad \\x escape");
	CHECK_ERR("inject_test:kinds str=\"a\\0b\"",
		  "line 7: field \"str\": NUL byte in string \"a\"");
	CHECK_ERR("sched:sched_switch comm=0123456789abcdef",
		  "line 7: field \"comm\": string longer than 15 bytes "
		  "\"0123456789abcdef\"");
	CHECK_INT(parse("sched:sched_switch comm=0123456789abcde"), 1);
	CHECK_STR(tf_inject_record(p)->comm, "0123456789abcde");
	{
		/* a record longer than a sub-buffer's payload */
		char line[5000];
		int n = snprintf(line, sizeof(line), "inject_test:kinds str=");

		memset(line + n, 'x', 3900);
		line[n + 3900] = '\0';
		CHECK_INT(parse(line), 1);
		strcat(line, " str2=yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
		       "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy");
		CHECK_ERR(line, "line 7: record longer than 4072 bytes");
	}
}

static void test_arrays_and_stack(void)
{
	const struct tf_record *r;
	struct tf_event *ev = tf_registry_find(reg, "raw_syscalls",
					       "sys_enter");

	CHECK_INT(parse("inject_test:kinds arr=1,0x2,3 darr=7,8,0xffff"), 1);
	r = tf_inject_record(p);
	CHECK_INT(rd(r, 48, 4), 1);
	CHECK_INT(rd(r, 52, 4), 2);
	CHECK_INT(rd(r, 56, 4), 3);
	CHECK_INT(rd(r, 60, 4), 0);
	CHECK_INT(rd(r, 64, 4), (6u << 16) | 90);
	CHECK_INT(rd(r, 90, 2), 7);
	CHECK_INT(rd(r, 92, 2), 8);
	CHECK_INT(rd(r, 94, 2), 0xffff);
	CHECK_ERR("inject_test:kinds arr=1,2,3,4,5",
		  "line 7: field \"arr\": too many elements \"1,2,3,4,5\"");
	CHECK_ERR("inject_test:kinds arr=1,,2",
		  "line 7: field \"arr\": invalid number \"1,,2\"");
	CHECK_ERR("inject_test:kinds darr=65536",
		  "line 7: field \"darr\": number out of range \"65536\"");

	/* unsigned long args[6] */
	CHECK_INT(parse("raw_syscalls:sys_enter id=-1 args=3,0x7ffd0000,-1"), 1);
	r = tf_inject_record(p);
	CHECK(r->event == ev);
	CHECK(rd(r, 8, 8) == UINT64_MAX);
	CHECK_INT(rd(r, 16, 8), 3);
	CHECK_INT(rd(r, 24, 8), 0x7ffd0000);
	CHECK(rd(r, 32, 8) == UINT64_MAX);
	CHECK_INT(r->size, 64);

	/* a kernel stack carried with the record */
	CHECK_INT(parse("sched:sched_switch stack=0xffffffff81000010,"
			"0xffffffff81000020"), 1);
	r = tf_inject_record(p);
	CHECK_INT(r->nr_stack, 2);
	CHECK(r->stack && r->stack[0] == 0xffffffff81000010ull &&
	      r->stack[1] == 0xffffffff81000020ull);
	CHECK_ERR("sched:sched_switch stack=0xffffffff81000010,zz",
		  "line 7: field \"stack\": invalid number "
		  "\"0xffffffff81000010,zz\"");

	/* __data_loc cpumask_t: 64-bit words, lowest CPUs first */
	CHECK_INT(parse("ipi:ipi_send_cpumask cpumask=0x5,0x1 "
			"callsite=0xffffffff81000000"), 1);
	r = tf_inject_record(p);
	CHECK_INT(rd(r, 8, 4), (16u << 16) | 32);
	CHECK_INT(rd(r, 32, 8), 5);
	CHECK_INT(rd(r, 40, 8), 1);
	CHECK_INT(r->size, 48);
	/* ftrace:bprint's u32 buf[] runs to the end of the record */
	CHECK_INT(parse("ftrace:bprint ip=1 fmt=2 buf=7,8"), 1);
	r = tf_inject_record(p);
	CHECK_INT(r->size, 24 + 8);
	CHECK_INT(rd(r, 24, 4), 7);
	CHECK_INT(rd(r, 28, 4), 8);

	/* ftrace:print's char buf[] runs to the end of the record */
	CHECK_INT(parse("ftrace:print ip=0 buf=\"hello\\n\""), 1);
	r = tf_inject_record(p);
	CHECK_INT(r->size, 16 + 7);
	CHECK(memcmp(r->data + 16, "hello\n", 7) == 0);
}

static void test_names(void)
{
	const struct tf_record *r;

	/* the event's own pid/comm win; common_* reach the record's */
	CHECK_INT(parse("sched:sched_process_exec pid=13 common_pid=14 "
			"common_comm=true filename=/bin/true old_pid=13"), 1);
	r = tf_inject_record(p);
	CHECK_INT(rd(r, 4, 4), 14);
	CHECK_INT(rd(r, 12, 4), 13);
	CHECK_STR(r->comm, "true");
	CHECK_INT(rd(r, 8, 4), (10u << 16) | 20);
	CHECK(memcmp(r->data + 20, "/bin/true", 10) == 0);
	CHECK_INT(parse("sched:sched_process_exec common_timestamp=5 "
			"common_cpu=3"), 1);
	r = tf_inject_record(p);
	CHECK_INT(r->ts, 5);
	CHECK_INT(r->cpu, 3);
	/* seconds as trace prints them */
	CHECK_INT(parse("sched:sched_switch ts=12.345678"), 1);
	CHECK_INT(tf_inject_record(p)->ts, 12345678000ull);
	CHECK_INT(parse("sched:sched_switch ts=1.000000001"), 1);
	CHECK_INT(tf_inject_record(p)->ts, 1000000001ull);
	CHECK_ERR("sched:sched_switch ts=1.", "line 7: field \"ts\": invalid "
		  "timestamp \"1.\"");
	CHECK_ERR("sched:sched_switch ts=1.0000000001", "line 7: field \"ts\": "
		  "invalid timestamp \"1.0000000001\"");
	CHECK_ERR("sched:sched_switch cpu=-1", "line 7: field \"cpu\": "
		  "negative value for an unsigned field \"-1\"");

	CHECK_ERR("sched:no_such_event", "line 7: unknown event "
		  "\"sched:no_such_event\"");
	CHECK_ERR("sched_switch prev_pid=1", "line 7: \"sched_switch\": "
		  "expected SYSTEM:EVENT");
	CHECK_ERR("sched:sched_switch bogus=1", "line 7: field \"bogus\": no "
		  "such field in sched:sched_switch");
	CHECK_ERR("sched:sched_switch prev_pid", "line 7: \"prev_pid\": "
		  "expected NAME=VALUE");
	CHECK_ERR("sched:sched_switch =3", "line 7: \"\": expected NAME=VALUE");
	CHECK_ERR("sched:sched_switch prev_pid=1 prev_pid=2",
		  "line 7: field \"prev_pid\": given twice");
	CHECK_ERR("sched:sched_switch ts=1 ts=2",
		  "line 7: field \"ts\": given twice");
	CHECK_ERR("sched:sched_switch common_type=3",
		  "line 7: field \"common_type\": set by the event name");
}

struct errs {
	char text[2048];
	int n;
};

static void on_error(void *arg, const char *msg)
{
	struct errs *e = arg;
	size_t l = strlen(e->text);

	snprintf(e->text + l, sizeof(e->text) - l, "%s|", msg);
	e->n++;
}

static void test_stream(void)
{
	struct tf_inject_stream st;
	struct errs e = { "", 0 };
	const char *in = "sched:sched_switch prev_pid=1\n"
			 "# comment\n"
			 "\n"
			 "sched:sched_switch prev_pid=x\n"
			 "sched:sched_switch next_pid=2\n"
			 "sched:bogus\n"
			 "sched:sched_switch";
	char *big;

	/* every way of cutting the input gives the same result */
	for (size_t cut = 0; cut <= strlen(in); cut++) {
		e.text[0] = '\0';
		e.n = 0;
		tf_inject_stream_init(&st, p, NULL, on_error, &e);
		tf_inject_stream_feed(&st, in, cut);
		tf_inject_stream_feed(&st, in + cut, strlen(in) - cut);
		tf_inject_stream_finish(&st);
		CHECK_INT(st.records, 3);
		CHECK_INT(st.errors, 2);
		CHECK_INT(st.lineno, 7);
		CHECK_STR(e.text, "line 4: field \"prev_pid\": invalid number "
			  "\"x\"|line 6: unknown event \"sched:bogus\"|");
		tf_inject_stream_release(&st);
	}
	/* a line over the limit is refused; the next one counts */
	big = malloc(TF_INJECT_MAX_LINE + 100);
	memset(big, 'a', TF_INJECT_MAX_LINE + 10);
	e.text[0] = '\0';
	tf_inject_stream_init(&st, p, NULL, on_error, &e);
	tf_inject_stream_feed(&st, big, 1000);
	tf_inject_stream_feed(&st, big, TF_INJECT_MAX_LINE + 10);
	tf_inject_stream_feed(&st, "\nsched:sched_switch\n", 20);
	tf_inject_stream_feed(&st, big, TF_INJECT_MAX_LINE + 10);
	tf_inject_stream_feed(&st, "\nsched:sched_switch\n", 20);
	tf_inject_stream_finish(&st);
	CHECK_INT(st.records, 2);
	CHECK_STR(e.text, "line 1: line longer than 65536 bytes|"
		  "line 3: line longer than 65536 bytes|");
	tf_inject_stream_release(&st);
	free(big);
}

int main(void)
{
	const char *srcdir = getenv("srcdir");
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/tests/oracle/formats-6.12",
		 srcdir ? srcdir : ".");
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || tf_registry_load(&reg, fd, NULL, "test") < 0) {
		fprintf(stderr, "cannot load %s\n", path);
		return 99;
	}
	close(fd);
	if (tf_registry_add_format(reg, "inject_test", kinds_format,
				   strlen(kinds_format)) < 0) {
		fprintf(stderr, "cannot add the test format\n");
		return 99;
	}
	p = tf_inject_new(reg);
	if (!p)
		return 99;
	test_sched_switch();
	test_blank_and_comments();
	test_numbers();
	test_strings();
	test_arrays_and_stack();
	test_names();
	test_stream();
	tf_inject_free(p);
	tf_registry_free(reg);
	return check_done("test_inject");
}
