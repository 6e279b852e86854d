#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# hygiene.bats - the suites leave the machine as they found it, so that
# two runs can share a machine: no mount (tracefuse or host tracefs), no
# process, no file in /tmp is left behind, and no test writes a fixed
# path there (a second run would overwrite it).
#
# The suites that mount the host's tracefs (differential) or run scripts
# written for the kernel oracle (hist goldens, oracle scripts, which use
# /tmp/in and /tmp/e as scratch) run in a private mount namespace with
# an empty tmpfs on /tmp; afterwards that /tmp must be empty, the
# namespace's mount table as it was, and no process but the checking
# shell left in the namespace.  (Not a pid namespace: the differential
# suite compares the host's records of its own kill(2)s.)  A fixed path
# is caught by a trap: /tmp/in, /tmp/e and /tmp/big exist as unwritable
# directories, so a script that writes them fails, and the suite with
# it.

load helpers

@test "differential, hist and oracle suites leave no mount, process or /tmp file and write no fixed path" {
	command -v unshare >/dev/null || skip "unshare(1) missing"
	[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespace)"
	run unshare --mount --propagation private \
		bash -c '
		set -u
		# a checkout under /tmp stays where it is: keep a handle on
		# it and bind it back into the empty /tmp at the same path
		exec 3<"$1"
		mount -t tmpfs -o mode=1777 tracefuse-hygiene /tmp || exit 90
		keep=
		case "$1" in
		/tmp/*)
			mkdir -p "$1" && mount --no-canonicalize --bind /proc/self/fd/3 "$1" || exit 91
			keep=${1#/tmp/}; keep=/tmp/${keep%%/*}
			;;
		esac
		exec 3<&-
		before=$(awk "{ print \$2, \$3 }" /proc/mounts | sort)
		mkdir -m 0 /tmp/in /tmp/e /tmp/big
		cd "$1"
		# differential: the host tracefs; hist and oracle: scripts
		# written for the kernel oracle
		bats --tap bats/differential.bats || echo "SUITE FAILED: differential"
		bats --tap -f "errors.sh" bats/hist.bats || echo "SUITE FAILED: hist"
		bats --tap -f "oracle: set_event.sh" bats/oracle.bats || echo "SUITE FAILED: oracle"
		rmdir /tmp/in /tmp/e /tmp/big
		echo "left in /tmp:"; find /tmp -mindepth 1 -maxdepth 1 ! -path "${keep:-/tmp}"
		after=$(awk "{ print \$2, \$3 }" /proc/mounts | sort)
		echo "mounts left:"; comm -13 <(echo "$before") <(echo "$after")
		echo "processes left:"
		# processes of this namespace but this shell and its helpers
		ns=$(readlink /proc/self/ns/mnt)
		for p in /proc/[0-9]*; do
			[ "${p#/proc/}" = $$ ] && continue
			[ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$ns" ] || continue
			[ "$(awk "/^PPid:/ { print \$2 }" "$p/status" 2>/dev/null)" = $$ ] && continue
			cat "$p/comm" 2>/dev/null
		done
		# leaving the namespace unmounts its /tmp
		' hygiene "$TF_TOP"
	echo "$output"
	assert_success
	refute_output --partial "SUITE FAILED"
	refute_output --partial "not ok"
	# each listing is empty: its header is followed by the next header
	assert_output --partial $'left in /tmp:\nmounts left:\nprocesses left:'
	[ "${lines[${#lines[@]} - 1]}" = "processes left:" ]
}
