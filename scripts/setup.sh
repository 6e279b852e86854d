#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# setup.sh - installs what tracefuse needs on Debian 12 and builds it.
# Called by demo.sh and test.sh; safe to run again (it skips what is done).
set -eu
cd "$(dirname "$0")/.."

PKGS="build-essential autoconf automake libtool pkg-config \
libfuse3-dev fuse3 liburcu-dev libtraceevent-dev libtracefs-dev \
libtracecmd-dev trace-cmd perf-tools-unstable debhelper bats bats-assert \
bats-support \
libprotobuf-c-dev protobuf-c-compiler protobuf-compiler libmicrohttpd-dev \
libjson-c-dev curl python3-prometheus-client"
# promtool and a Prometheus server for bats/metrics.bats, without the
# exporters and web assets its recommendations pull in
PKGS_NO_RECOMMENDS="prometheus"

missing="" missing_nr=""
for p in $PKGS; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
for p in $PKGS_NO_RECOMMENDS; do
	dpkg -s "$p" >/dev/null 2>&1 || missing_nr="$missing_nr $p"
done
if [ -n "$missing$missing_nr" ]; then
	echo "setup: installing$missing$missing_nr"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	[ -z "$missing" ] ||
		DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
	[ -z "$missing_nr" ] ||
		DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
			--no-install-recommends $missing_nr
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] ||
   [ Makefile.am -nt configure ]; then
	autoreconf -fi >/dev/null
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ]; then
	./configure -q
fi
make -j"$(nproc)" >/dev/null
echo "setup: built $(pwd)/tracefuse"
