# SPDX-License-Identifier: GPL-2.0
# helpers.bash - shared by the Bats suites: mount a private tracefuse,
# write exactly once, run an oracle script against it.

TF_TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
# the build directory holds the binary (VPATH builds set TF_BUILDDIR)
TF_BIN=${TF_BIN:-${TF_BUILDDIR:-$TF_TOP}/tracefuse}
TF_ORACLE=$TF_TOP/tests/oracle
TF_FORMATS_612=$TF_ORACLE/formats-6.12

load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

# tf_mount [tracefuse options]: mounts on a fresh directory, sets TF_MNT.
# Defaults to the oracle kernel's formats and one CPU, so that outputs
# compare with the kernel's goldens.
tf_mount() {
	TF_MNT=$(mktemp -d "${BATS_FILE_TMPDIR:-/tmp}/mnt.XXXXXX")
	if [ $# -eq 0 ]; then
		set -- --formats "$TF_FORMATS_612" --cpus 1
	fi
	"$TF_BIN" "$@" "$TF_MNT" || return 1
	grep -q " $TF_MNT fuse.tracefuse " /proc/mounts
}

tf_umount() {
	[ -n "${TF_MNT:-}" ] || return 0
	fusermount3 -u "$TF_MNT" 2>/dev/null || umount -l "$TF_MNT"
	rmdir "$TF_MNT" 2>/dev/null || true
	TF_MNT=
}

# w FILE DATA / a FILE DATA: one write(2) of DATA with O_TRUNC (w) or
# O_APPEND (a); prints OK or the errno text, as the oracle helpers do.
_tf_write() {
	local flag=$1 f=$2 d=$3 e
	if [ "$flag" = a ]; then
		e=$(printf '%s' "$d" | dd of="$f" bs=4M oflag=append conv=notrunc 2>&1 >/dev/null)
	else
		e=$(printf '%s' "$d" | dd of="$f" bs=4M 2>&1 >/dev/null)
	fi
	if [ $? -eq 0 ]; then echo OK; else echo "$e" | grep -v records | sed 's/.*: //' | head -1; fi
}
w() { _tf_write w "$1" "$2"; }
a() { _tf_write a "$1" "$2"; }

# private_script SCRIPT: prints the path of a copy of SCRIPT whose
# scratch files go to a private directory.  Scripts written for the kernel
# oracle (tests/oracle, tests/hist-golden) keep their scratch files at
# /tmp/in, /tmp/e and /tmp/big, where two runs would overwrite each
# other's; the copy lives in the test's own temporary directory.
private_script() {
	local dir=${BATS_TEST_TMPDIR:-$BATS_FILE_TMPDIR}/scratch
	mkdir -p "$dir"
	sed "s#/tmp/#$dir/#g" "$1" > "$dir/$(basename "$1")"
	echo "$dir/$(basename "$1")"
}

# oracle_run NAME: runs tests/oracle/NAME.sh in the mount the way the
# oracle runs it in /sys/kernel/tracing; output in $BATS_FILE_TMPDIR/NAME.tf
oracle_run() {
	local name=$1 script
	script=$(private_script "$TF_ORACLE/$name.sh")
	sed -i "s#/sys/kernel/tracing#$TF_MNT#g" "$script"
	(cd "$TF_MNT" && bash "$script") > "$BATS_FILE_TMPDIR/$name.tf" 2>&1 \
		< /dev/null
}

# oracle_compare NAME: the kernel's golden against tracefuse's output.
oracle_compare() {
	local name=$1
	oracle_run "$name"
	"$TF_ORACLE/compare.sh" "$TF_ORACLE/$name.out" \
		"$BATS_FILE_TMPDIR/$name.tf" "$TF_ORACLE/$name.skip" \
		"$TF_ORACLE/$name.sed"
}
