#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# api.bats - libtracefuse (include/tracefuse/tracefuse.h) as a user gets
# it: installed (make install into a private root), found with
# pkg-config, linked into programs built outside the source tree; the
# examples of the kernel's in-kernel trace event API (events.rst section
# 7) through it, checked in `trace` and a histogram; a ring overrun
# accounted exactly; a producer killed mid-way.
#
# Needs FUSE and a built tree (make).

load helpers

setup_file() {
	local root=$BATS_FILE_TMPDIR/root src=$BATS_FILE_TMPDIR/src flags
	make -s -C "${TF_BUILDDIR:-$TF_TOP}" install DESTDIR="$root" \
		>/dev/null 2>&1 || return 1
	export TF_API_ROOT=$root
	export PKG_CONFIG_SYSROOT_DIR=$root
	export PKG_CONFIG_PATH=$(dirname "$(find "$root" -name libtracefuse.pc)")
	export LD_LIBRARY_PATH=$(dirname "$(find "$root" -name 'libtracefuse.so' | head -1)")
	mkdir -p "$src"
	cp "$TF_TOP"/tests/api/*.c "$src"
	flags=$(pkg-config --cflags --libs libtracefuse) || return 1
	for p in section7 overrun dies; do
		cc -Wall -Wextra -Werror -o "$src/$p" "$src/$p.c" $flags || return 1
	done
	export TF_API_BIN=$src
}

setup() {
	tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none
}

teardown() {
	tf_umount
}

@test "the installed library exports only the tfuse_ API, found by pkg-config" {
	run pkg-config --modversion libtracefuse
	assert_success
	lib=$(find "$TF_API_ROOT" -name 'libtracefuse.so.*.*' | head -1)
	[ -n "$lib" ]
	run bash -c "nm -D --defined-only '$lib' | awk '{ print \$3 }' | grep -v -E '^_*tfuse_'"
	assert_output ""
	run bash -c "nm -D --defined-only '$lib' | grep -c ' T _*tfuse_'"
	[ "$output" -ge 25 ]
	[ -f "$TF_API_ROOT"/usr/local/include/tracefuse/tracefuse.h ]
}

@test "section 7 examples: results, trace text and a histogram" {
	run "$TF_API_BIN/section7" "$TF_MNT"
	assert_success
	diff -u "$TF_TOP/tests/api/section7.out" <(echo "$output")
	# the records of the event that stays, without the context columns
	run bash -c "grep -v '^#' '$TF_MNT/trace' | sed 's/.*\\] [.a-zA-Z0-9]\\{5\\} *[0-9.]*: //'"
	diff -u "$TF_TOP/tests/api/section7-trace.out" <(echo "$output")
	# each line's task is the producer's thread (one of the removed event)
	run grep -c '^ *section7-[0-9]* ' "$TF_MNT/trace"
	assert_output 6
	diff -u "$TF_TOP/tests/api/section7-hist.out" \
		"$TF_MNT/events/synthetic/schedtest/hist"
	# gen_synth_test went, schedtest stays (its hist uses it)
	run cat "$TF_MNT/synthetic_events"
	assert_output "schedtest	pid_t next_pid_field; char[16] next_comm_field; u64 ts_ns; u64 ts_ms; unsigned int cpu; char[64] my_string_field; int my_int_field"
	# the one failure logged is the kernel's for a second create
	run grep -c 'error: Event already exists' "$TF_MNT/error_log"
	assert_output 1
}

@test "a ring overrun on purpose: delivered + lost == produced, the hist counts what was delivered" {
	pid=$(pgrep -n -f -- " $TF_MNT\$")
	[ -n "$pid" ]
	run "$TF_API_BIN/overrun" "$TF_MNT" "$pid" 10000
	echo "$output"
	assert_success
	delivered=$(echo "$output" | sed -n 's/.* delivered \([0-9]*\) .*/\1/p')
	lost=$(echo "$output" | sed -n 's/.* lost \([0-9]*\) .*/\1/p')
	[ "$delivered" -gt 0 ] && [ "$lost" -gt 0 ]
	[ $((delivered + lost)) -eq 10001 ]
	run grep 'Hits:' "$TF_MNT/events/synthetic/ovr/hist"
	assert_output "    Hits: $delivered"
}

@test "a producer killed mid-way: its events are in, what it made and nothing uses goes" {
	run "$TF_API_BIN/dies" "$TF_MNT"
	[ "$status" -eq 137 ]
	# the daemon cleans up once it sees the connection end
	for i in $(seq 50); do
		grep -q dies_unused "$TF_MNT/synthetic_events" || break
		sleep 0.1
	done
	run cat "$TF_MNT/synthetic_events"
	assert_output "dies_used	u64 a"
	run grep -E 'a: +42|Hits' "$TF_MNT/events/synthetic/dies_used/hist"
	assert_output --partial "Hits: 1"
	assert_output --partial "{ a:         42 }"
	[ ! -e "$TF_MNT/events/synthetic/dies_unused" ]
	run cat "$TF_MNT/error_log"
	assert_output ""
}
