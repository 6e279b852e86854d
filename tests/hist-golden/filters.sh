# SPDX-License-Identifier: GPL-2.0
# filters.sh: hist triggers with `if` filters on ftrace:print (buf globs, numeric,
# CPUS{}, compound), each counting the trace_marker writes it lets through.
W() { local f=$1; shift; local d="$*"; local r; printf '%s' "$d" > /tmp/in; if dd if=/tmp/in bs=4M 2>/tmp/e > "$f"; then r=OK; else r=$(grep -v records /tmp/e | sed 's/.*: //' | head -1); fi; printf 'W %s %q -> %s\n' "$f" "$d" "$r"; }
EL() { echo "--- error_log:"; sed -E 's/^\[ *[0-9.]+\] //' error_log; echo "--- end"; echo > error_log; }
T=events/ftrace/print/trigger; H=events/ftrace/print/hist
feed() { for m in hello hello help a bb ccc xhello "he*llo" "" h 'q"q' 'a b'; do echo -n "$m" > trace_marker; done; }
echo > error_log
for f in 'buf == "hello"' 'buf != "hello"' 'buf ~ "he*"' 'buf ~ "*lo"' 'buf ~ "*ell*"' 'buf ~ "h?llo"' \
	'buf ~ "[ab]*"' 'buf ~ "h[!e]*"' 'buf == ""' 'buf ~ "*"' 'buf ~ "he\*llo"' 'buf == "a b"' \
	'buf ~ "q\"q"' 'common_type == 5' 'common_type != 5 || buf == "h"' '!(buf ~ "h*")' \
	'(buf == "a" || buf == "bb") && common_cpu == 0' 'CPUS{0}' 'common_cpu & CPUS{1}' \
	'common_preempt_count < 1000' 'common_flags & 0' 'buf < "b"' 'buf ~ "hello" && !(buf ~ "x*")' \
	'buf == hello' 'buf ~ he*' 'common_type == "5"' 'common_type ~ "5"' 'buf > 1' 'buf & 1'; do
	W $T "hist:keys=common_type:vals=hitcount if $f"
	feed
	sed -n 's/^{ common_type: *5 } hitcount: *\([0-9]*\)$/  matched \1/p; /Hits:/p' $H
	EL
	W $T ''
done
