# SPDX-License-Identifier: GPL-2.0
# oracle: which files each ftrace-system event directory has
for d in events/ftrace/*/; do printf '%s:' "$d"; for f in "$d"*; do printf ' %s' "${f##*/}"; done; echo; done
