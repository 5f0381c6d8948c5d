#!/bin/sh
# The kfdsig test rows shown in README.md and the man pages look like the
# tool's: every "PASS  " / "FAIL  " row carries the duration column where
# kfdsig test prints it. Usage: result-rows.sh KFDSIG SOURCE_DIR
set -u
k=$1
src=$2
row=$("$k" test --emulate gfx90a --case events.max | grep '^PASS  ')
col=$(printf '%s\n' "$row" | awk '{ print index($0, " ms  ") }')
[ "${col:-0}" -gt 0 ] || { echo "kfdsig test prints no duration column: $row"; exit 1; }
fail=0
for f in "$src/README.md" "$src"/docs/man/*.scd; do
  sed -n -e 's/^    //' -e '/^\(PASS\|FAIL\)  /p' "$f" |
    awk -v col="$col" -v f="$(basename "$f")" '
      index($0, " ms  ") != col { print "FAIL: " f ": a row without the duration column where kfdsig test prints it: " $0; bad = 1 }
      END { exit bad }' || fail=1
done
[ $fail -eq 0 ] && echo "result rows: README and man pages as kfdsig test prints them"
exit $fail
