#!/usr/bin/env bats
#
# package.bats - the Debian packages (tracefuse, libtracefuse0,
# libtracefuse-dev): built from a copy of this tree with
# dpkg-buildpackage (debian/), installed into the system with dpkg -i,
# used (the daemon on a temporary mount, tracefuse run, tracefuse-inject,
# the Bats helper and the example suite from /usr/share/doc, the man
# pages, a program built with pkg-config against the installed library),
# then purged.  The machine is left as found: the test skips where
# a tracefuse package or binary is already installed, and purges what it
# installed even when it fails.
#
# The build skips make check (DEB_BUILD_OPTIONS=nocheck: the unit tests
# run in the suite anyway), which keeps the file near 1.5 minutes on an
# idle 2-core machine; TRACEFUSE_DEB_CHECK=1 runs make check inside the
# build, under Debian's hardening flags (_FORTIFY_SOURCE and the rest),
# about a minute more.

load helpers

setup_file() {
	PKG_SKIP=
	if [ "$(id -u)" != 0 ]; then
		PKG_SKIP="installing a package needs root"
	elif ! command -v dpkg-buildpackage >/dev/null || ! command -v dh >/dev/null; then
		PKG_SKIP="dpkg-buildpackage or debhelper missing (scripts/setup.sh installs debhelper)"
	elif dpkg -s tracefuse >/dev/null 2>&1 || [ -e /usr/bin/tracefuse ] ||
	     [ -e /usr/share/tracefuse ] || dpkg -s libtracefuse0 >/dev/null 2>&1 ||
	     [ -e /usr/include/tracefuse ]; then
		PKG_SKIP="a tracefuse is already installed; the test would replace it"
	elif ! git -C "$TF_TOP" rev-parse --git-dir >/dev/null 2>&1; then
		PKG_SKIP="the source is not a git checkout (the build copies its files)"
	fi
	export PKG_SKIP
	PKG_DIR=$(mktemp -d)
	export PKG_DIR
}

teardown_file() {
	if [ -e "$PKG_DIR/installed" ]; then
		DEBIAN_FRONTEND=noninteractive dpkg --purge tracefuse \
			libtracefuse-dev libtracefuse0 >/dev/null 2>&1
	fi
	rm -rf "$PKG_DIR"
}

setup() {
	[ -z "$PKG_SKIP" ] || skip "$PKG_SKIP"
}

@test "dpkg-buildpackage builds tracefuse (daemon, inject tool, man pages, data, Bats helper), libtracefuse0 and libtracefuse-dev" {
	# the tracked and new files of this tree, not its build products
	mkdir "$PKG_DIR/src"
	git -C "$TF_TOP" ls-files -co --exclude-standard -z |
		(cd "$TF_TOP" && tar --null -T - -cf -) | tar -xf - -C "$PKG_DIR/src"
	local opts="parallel=$(nproc)"
	[ "${TRACEFUSE_DEB_CHECK:-0}" = 1 ] || opts="$opts nocheck"
	run bash -c 'cd "$1/src" && DEB_BUILD_OPTIONS="$2" \
		dpkg-buildpackage -us -uc -b > "$1/build.log" 2>&1' sh "$PKG_DIR" "$opts"
	[ "$status" -eq 0 ] || { tail -40 "$PKG_DIR/build.log"; false; }
	if [ "${TRACEFUSE_DEB_CHECK:-0}" = 1 ]; then
		grep -q '^PASS: tests/test_filter$' "$PKG_DIR/build.log"
		! grep -qE '^(FAIL|ERROR):' "$PKG_DIR/build.log" || false
	fi
	local deb
	deb=$(ls "$PKG_DIR"/tracefuse_*_*.deb)
	dpkg-deb -c "$deb" | awk '{ print $6 }' > "$PKG_DIR/contents"
	for f in ./usr/bin/tracefuse ./usr/bin/tracefuse-inject \
		 ./usr/share/man/man8/tracefuse.8.gz ./usr/share/man/man8/tracefuse-inject.8.gz \
		 ./usr/share/tracefuse/bats/tracefuse.bash ./usr/share/tracefuse/sample.dat \
		 ./usr/share/tracefuse/formats/sched/sched_switch/format \
		 ./usr/share/doc/tracefuse/examples/wakeup-latency.bats \
		 ./usr/share/doc/tracefuse/copyright; do
		grep -qx -- "$f" "$PKG_DIR/contents" || { echo "missing: $f"; false; }
	done
	[ "$(dpkg-deb -f "$deb" Package)" = tracefuse ]
	dpkg-deb -f "$deb" Depends | grep -q 'libfuse3-3'
	# the library: the shared object alone, and what a build needs
	local lib dev
	lib=$(ls "$PKG_DIR"/libtracefuse0_*_*.deb)
	dev=$(ls "$PKG_DIR"/libtracefuse-dev_*_*.deb)
	dpkg-deb -c "$lib" | awk '{ print $6 }' > "$PKG_DIR/lib.contents"
	grep -qE '^\./usr/lib/[^/]+/libtracefuse\.so\.0\.0\.0$' "$PKG_DIR/lib.contents"
	! grep -qE '\.(h|pc|la)$|libtracefuse\.so$' "$PKG_DIR/lib.contents" || false
	dpkg-deb -c "$dev" | awk '{ print $6 }' > "$PKG_DIR/dev.contents"
	for f in ./usr/include/tracefuse/tracefuse.h \
		 ./usr/share/man/man3/libtracefuse.3.gz ./usr/share/man/man3/tfuse_connect.3.gz; do
		grep -qx -- "$f" "$PKG_DIR/dev.contents" || { echo "missing: $f"; false; }
	done
	grep -qE '^\./usr/lib/[^/]+/pkgconfig/libtracefuse\.pc$' "$PKG_DIR/dev.contents"
	grep -qE '^\./usr/lib/[^/]+/libtracefuse\.so$' "$PKG_DIR/dev.contents"
	dpkg-deb -f "$dev" Depends | grep -q 'libtracefuse0 (= '
	! grep -q 'usr/lib\|usr/include\|man3' "$PKG_DIR/contents" || false
}

@test "the package installs with dpkg -i and its tracefuse works from /usr" {
	local deb
	deb=$(ls "$PKG_DIR"/tracefuse_*_*.deb) || skip "the build failed"
	touch "$PKG_DIR/installed"
	run env DEBIAN_FRONTEND=noninteractive dpkg -i "$deb" \
		"$PKG_DIR"/libtracefuse0_*_*.deb "$PKG_DIR"/libtracefuse-dev_*_*.deb
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(dpkg-query -W -f '${Status}' tracefuse)" = "install ok installed" ]
	[ "$(dpkg-query -W -f '${Status}' libtracefuse-dev)" = "install ok installed" ]
	[ "$(command -v tracefuse)" = /usr/bin/tracefuse ]
	[ "$(/usr/bin/tracefuse --version)" = "tracefuse 0.1.0" ]
	# the installed data, not the tree it was built from (which still exists)
	[ "$(/usr/bin/tracefuse --bats-helper)" = /usr/share/tracefuse/bats/tracefuse.bash ]
	# tracefuse-inject's page is tracefuse(8), through a link
	[ "$(readlink /usr/share/man/man8/tracefuse-inject.8.gz)" = tracefuse.8.gz ]
	LC_ALL=C MANWIDTH=200 man -P cat 8 tracefuse-inject 2>/dev/null | grep -q 'tracefuse - the Linux tracefs event interface'
	# the daemon on a temporary mount, with the bundled formats, fed by the
	# installed tracefuse-inject
	local mnt="$PKG_DIR/mnt"
	mkdir "$mnt"
	/usr/bin/tracefuse --source none --formats /usr/share/tracefuse/formats "$mnt"
	echo 'hist:keys=next_pid' > "$mnt/events/sched/sched_switch/trigger"
	echo 'sched:sched_switch next_pid=42' | /usr/bin/tracefuse-inject "$mnt"
	grep -q '^{ next_pid:         42 } hitcount:          1$' "$mnt/events/sched/sched_switch/hist"
	fusermount3 -u "$mnt"
	# tracefuse run, and the sample trace replayed when no source is given
	# and the formats are the bundled ones
	run /usr/bin/tracefuse run --formats /usr/share/tracefuse/formats -- \
		sh -c 'echo 1 > /sys/kernel/tracing/events/sched/sched_switch/enable &&
		       grep -c sched_switch /sys/kernel/debug/tracing/trace'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" -gt 0 ]
	# a producer built against the installed library writes a synthetic
	# event through its ring (the events.rst section 7 program)
	cc -o "$PKG_DIR/section7" "$TF_TOP/tests/api/section7.c" \
		$(pkg-config --cflags --libs libtracefuse)
	[ "$(readlink -f "$(ldd "$PKG_DIR/section7" | awk '/libtracefuse/ { print $3 }')")" = \
	  "$(readlink -f /usr/lib/*/libtracefuse.so.0)" ]
	mkdir "$PKG_DIR/mnt2"
	/usr/bin/tracefuse --source none --formats /usr/share/tracefuse/formats "$PKG_DIR/mnt2"
	run "$PKG_DIR/section7" "$PKG_DIR/mnt2"
	echo "$output"
	grep -q 'schedtest' "$PKG_DIR/mnt2/trace" || { fusermount3 -u "$PKG_DIR/mnt2"; false; }
	fusermount3 -u "$PKG_DIR/mnt2"
	[ "$status" -eq 0 ]
}

@test "the installed Bats helper runs the installed example suite" {
	[ -e "$PKG_DIR/installed" ] || skip "not installed"
	cp -r /usr/share/doc/tracefuse/examples "$PKG_DIR/examples"
	run env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin \
		HOME=/ bats "$PKG_DIR/examples/wakeup-latency.bats"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ok ' <<< "$output")" = 5 ]
}

@test "dpkg --purge removes every file of the package" {
	[ -e "$PKG_DIR/installed" ] || skip "not installed"
	run env DEBIAN_FRONTEND=noninteractive dpkg --purge tracefuse \
		libtracefuse-dev libtracefuse0
	echo "$output"
	[ "$status" -eq 0 ]
	rm -f "$PKG_DIR/installed"
	# (a `! cmd` line cannot fail a test: bash's errexit ignores it)
	run dpkg -s tracefuse
	[ "$status" -ne 0 ]
	[ ! -e /usr/bin/tracefuse ]
	[ ! -e /usr/bin/tracefuse-inject ]
	[ ! -e /usr/share/tracefuse ]
	[ ! -e /usr/share/doc/tracefuse ]
	[ ! -e /usr/share/man/man8/tracefuse.8.gz ]
	run dpkg -s libtracefuse0
	[ "$status" -ne 0 ]
	[ -z "$(compgen -G '/usr/lib/*/libtracefuse.so*')" ]
	[ ! -e /usr/include/tracefuse ]
	[ ! -e /usr/share/man/man3/libtracefuse.3.gz ]
}
