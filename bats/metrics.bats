#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# metrics.bats - `tracefuse hist --json` and `tracefuse metrics`: hist
# files read back (tracefuse's, and every histogram the kernel printed
# in tests/hist-golden), served over HTTP and read by real clients:
# curl, Prometheus's own parsers (promtool check metrics for the text
# format, prometheus_client's OpenMetrics parser) and a Prometheus
# server scraping the endpoint.
#
# Needs FUSE and a built ./tracefuse; curl, promtool (Debian's
# prometheus) and python3-prometheus-client, or the tests that need
# them skip.

load helpers

INJECT=${TF_BUILDDIR:-$TF_TOP}/tracefuse-inject
GOLD=$TF_TOP/tests/metrics
PY=/usr/bin/python3

setup() {
	tf_mount --formats "$TF_FORMATS_612" --cpus 1 --source none
	(cd "$TF_MNT" && sh "$GOLD/triggers.sh")
	"$INJECT" "$TF_MNT" < "$GOLD/events.txt"
	SERVER_PID=
	PROM_PID=
}

teardown() {
	[ -z "$PROM_PID" ] || { kill "$PROM_PID"; wait "$PROM_PID" 2>/dev/null || true; }
	[ -z "$SERVER_PID" ] || { kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; }
	[ -z "${TF_MNT:-}" ] || rmdir "$TF_MNT/instances/foo" 2>/dev/null || true
	tf_umount
}

# Starts the server on a free loopback port; sets PORT and SERVER_PID.
serve() {
	"$TF_BIN" metrics --listen 127.0.0.1:0 "$TF_MNT" 2> "$BATS_TEST_TMPDIR/server.err" &
	SERVER_PID=$!
	for _ in $(seq 100); do
		PORT=$(sed -n 's#.*:\([0-9]*\)/metrics$#\1#p' "$BATS_TEST_TMPDIR/server.err")
		[ -n "$PORT" ] && return 0
		sleep 0.05
	done
	cat "$BATS_TEST_TMPDIR/server.err"
	return 1
}

@test "hist --json: keys with execname, hex, log2 and buckets, values with hex, percent and graph (golden)" {
	cd "$TF_MNT"
	run "$TF_BIN" hist --json events/sched/sched_switch/hist
	[ "$status" -eq 0 ]
	diff -u "$GOLD/sched_switch.json" - <<< "$output"
}

@test "hist --json: stacktrace keys as frames, onmax() lines with their saved values" {
	run "$TF_BIN" hist --json "$TF_MNT/events/sched/sched_waking/hist"
	[ "$status" -eq 0 ]
	echo "$output" > "$BATS_TEST_TMPDIR/w.json"
	run "$PY" - "$BATS_TEST_TMPDIR/w.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
stack, onmax = d["histograms"]
frames = sorted(len(e["key"]["common_stacktrace"]["frames"]) for e in stack["entries"])
assert frames == [0, 2], frames
assert onmax["handlers"] == ["onmax($t).save(prio,pid)"], onmax["handlers"]
assert onmax["variables"] == ["t=common_timestamp"], onmax["variables"]
acts = {e["key"]["common_pid"]["value"]: e["actions"] for e in onmax["entries"]}
assert acts == {40: [{"handler": "max", "value": 9500, "saved": {"prio": 120, "pid": 12}}],
                12: [{"handler": "max", "value": 9000, "saved": {"prio": 120, "pid": 41}}]}, acts
assert onmax["totals"] == {"hits": 3, "entries": 2, "dropped": 0}
print("ok")
PYEOF
	[ "$output" = ok ]
}

@test "hist --json reads back every histogram the kernel printed (tests/hist-golden): entries and hits match Totals" {
	for f in "$TF_TOP"/tests/hist-golden/*.out; do
		"$TF_BIN" hist --json "$f"
	done > "$BATS_TEST_TMPDIR/all.json"
	run "$PY" - "$BATS_TEST_TMPDIR/all.json" <<'PYEOF'
import json, sys
text = open(sys.argv[1]).read()
dec = json.JSONDecoder()
pos, tables, bad = 0, 0, []
while pos < len(text):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos == len(text):
        break
    d, pos = dec.raw_decode(text, pos)
    for h in d["histograms"]:
        t = h.get("totals")
        if not t:
            continue
        tables += 1
        if len(h["entries"]) != t["entries"]:
            bad.append((d["path"], h["trigger"], "entries"))
        hits = [e["values"].get("hitcount") for e in h["entries"]]
        if all(isinstance(x, int) for x in hits) and sum(hits) != t["hits"]:
            bad.append((d["path"], h["trigger"], "hits"))
        for e in h["entries"]:
            for k in e["key"].values():
                if "value" not in k and "frames" not in k and not k["text"]:
                    bad.append((d["path"], h["trigger"], "key"))
print(tables, bad)
PYEOF
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^[0-9]+" []"$ ]]
	[ "${output%% *}" -ge 100 ]
}

@test "hist --json: usage and a missing file" {
	run "$TF_BIN" hist "$TF_MNT/events/sched/sched_switch/hist"
	[ "$status" -eq 2 ]
	run "$TF_BIN" hist --json "$TF_MNT/no/such/hist"
	[ "$status" -eq 1 ]
	[ "$output" = "tracefuse hist: $TF_MNT/no/such/hist: No such file or directory" ]
}

@test "metrics: curl gets OpenMetrics that prometheus_client's parser accepts, with every hist of the mount and its instances" {
	command -v curl >/dev/null || skip "curl missing"
	"$PY" -c 'import prometheus_client' 2>/dev/null || skip "python3-prometheus-client missing"
	serve
	curl -sfS -D "$BATS_TEST_TMPDIR/hdr" "http://127.0.0.1:$PORT/metrics" > "$BATS_TEST_TMPDIR/om"
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$BATS_TEST_TMPDIR/hdr"
	[ "$(tail -1 "$BATS_TEST_TMPDIR/om")" = "# EOF" ]
	run "$PY" - "$BATS_TEST_TMPDIR/om" <<'PYEOF'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
got = {}
for fam in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in fam.samples:
        got[(s.name, tuple(sorted(s.labels.items())))] = s.value
def v(name, **labels):
    return got[(name, tuple(sorted(labels.items())))]
top = dict(trace_array="", system="sched", event="sched_switch")
assert v("tracefuse_hist_hitcount_total", hist="0", next_pid="40", next_comm='kw"x', **top) == 2
assert v("tracefuse_hist_value_total", hist="0", next_pid="40", next_comm='kw"x', value="next_prio", **top) == 200
assert v("tracefuse_hist_hitcount_total", hist="1", common_pid="12", common_pid_execname="bash", **top) == 2
assert v("tracefuse_hist_value_total", hist="1", common_pid="40", common_pid_execname="kworker", value="prev_prio", **top) == 200
assert v("tracefuse_hist_percent", hist="2", prev_pid="2^4", value="prev_prio", **top) == 54.54
assert v("tracefuse_hist_hitcount_total", hist="3", prev_prio="100-149", prev_state="0x1", **top) == 2
assert v("tracefuse_hist_hits", hist="3", **top) == 4
assert v("tracefuse_hist_entries", hist="0", **top) == 3
assert v("tracefuse_hist_dropped", hist="0", **top) == 0
wk = dict(trace_array="", system="sched", event="sched_waking")
assert v("tracefuse_hist_max", hist="1", common_pid="40", **wk) == 9500
assert v("tracefuse_hist_saved", hist="1", common_pid="12", handler="max", field="pid", **wk) == 41
stacks = [l for (n, l) in got if n == "tracefuse_hist_hitcount_total" and dict(l).get("event") == "sched_waking" and dict(l)["hist"] == "0" and dict(l)["trace_array"] == ""]
# an empty label is an absent one to OpenMetrics: the entry without frames
assert sorted(dict(l).get("common_stacktrace", "").count(";") for l in stacks) == [0, 1], stacks
assert v("tracefuse_hist_hitcount_total", trace_array="foo", system="sched", event="sched_waking", hist="0", target_cpu="0") == 3
assert v("tracefuse_hist_value_total", trace_array="foo", system="sched", event="sched_waking", hist="0", target_cpu="0", value="prio") == 340
assert v("tracefuse_hist_info", trace_array="foo", system="sched", event="sched_waking", hist="0",
         trigger="hist:keys=target_cpu:vals=hitcount,prio:sort=hitcount:size=2048 [active]") == 1
print("ok", len(got))
PYEOF
	[ "$status" -eq 0 ]
	[ "${lines[-1]%% *}" = ok ]
}

@test "metrics: a text/plain client gets format 0.0.4 that promtool check metrics accepts; scrapes follow the hist" {
	command -v curl >/dev/null || skip "curl missing"
	command -v promtool >/dev/null || skip "promtool missing (apt-get install prometheus)"
	serve
	curl -sfS -D "$BATS_TEST_TMPDIR/hdr" -H 'Accept: text/plain; version=0.0.4' \
		"http://127.0.0.1:$PORT/metrics" > "$BATS_TEST_TMPDIR/txt"
	grep -qi '^content-type: text/plain; version=0.0.4' "$BATS_TEST_TMPDIR/hdr"
	run promtool check metrics < "$BATS_TEST_TMPDIR/txt"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	grep -qx '# TYPE tracefuse_hist_hitcount_total counter' "$BATS_TEST_TMPDIR/txt"
	! grep -q '^# EOF' "$BATS_TEST_TMPDIR/txt" || false
	# another event, another scrape: the counter follows the hist
	echo 'sched:sched_switch ts=9999 prev_pid=40 next_comm=kw"x next_pid=40 next_prio=1' | "$INJECT" "$TF_MNT"
	run curl -sfS "http://127.0.0.1:$PORT/metrics"
	[[ "$output" == *'tracefuse_hist_hitcount_total{trace_array="",system="sched",event="sched_switch",hist="0",next_pid="40",next_comm="kw\"x"} 3'* ]]
	# a removed hist is gone from the next scrape
	echo '!hist:keys=target_cpu:vals=hitcount,prio' > "$TF_MNT/instances/foo/events/sched/sched_waking/trigger"
	run curl -sfS "http://127.0.0.1:$PORT/metrics"
	[[ "$output" != *'trace_array="foo"'* ]]
}

@test "metrics: a Prometheus server scrapes the endpoint and answers a query over it" {
	command -v prometheus >/dev/null || skip "prometheus missing"
	serve
	prom_port=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat > "$BATS_TEST_TMPDIR/prom.yml" <<YML
global:
  scrape_interval: 2s
  scrape_timeout: 2s
scrape_configs:
  - job_name: tracefuse
    static_configs:
      - targets: ['127.0.0.1:$PORT']
YML
	prometheus --config.file="$BATS_TEST_TMPDIR/prom.yml" \
		--storage.tsdb.path="$BATS_TEST_TMPDIR/tsdb" \
		--web.listen-address="127.0.0.1:$prom_port" \
		> "$BATS_TEST_TMPDIR/prom.log" 2>&1 &
	PROM_PID=$!
	q='tracefuse_hist_hitcount_total{event="sched_switch",hist="0",next_pid="40"}'
	for _ in $(seq 60); do
		out=$(curl -sf -G "http://127.0.0.1:$prom_port/api/v1/query" --data-urlencode "query=$q" || true)
		[[ "$out" == *'"value":['*',"2"]'* ]] && break
		sleep 0.5
	done
	[[ "$out" == *'"next_comm":"kw\"x"'* ]]
	[[ "$out" == *'"value":['*',"2"]'* ]]
	# Prometheus asked for OpenMetrics and parsed it (its scrape is up)
	out=$(curl -sf -G "http://127.0.0.1:$prom_port/api/v1/query" --data-urlencode 'query=up{job="tracefuse"}')
	[[ "$out" == *'"value":['*',"1"]'* ]]
}

@test "metrics: 404 and 405, a bad --listen, and a directory that is no tracefs tree" {
	command -v curl >/dev/null || skip "curl missing"
	serve
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/nope")" = 404 ]
	[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$PORT/metrics")" = 405 ]
	run "$TF_BIN" metrics --listen nowhere "$TF_MNT"
	[ "$status" -eq 2 ]
	[ "$output" = "tracefuse metrics: --listen nowhere: not ADDR:PORT" ]
	run "$TF_BIN" metrics --listen 127.0.0.1:0 "$BATS_TEST_TMPDIR"
	[ "$status" -eq 1 ]
	[[ "$output" == "tracefuse metrics: $BATS_TEST_TMPDIR/events: No such file or directory"* ]]
}
