#!/bin/sh
# The README's AQL example (emit --signal-out FILE | decode --mem ADDR=FILE -),
# taken from README.md and run as written, 20 times, each in a fresh
# temporary directory: every run must exit 0 with the packet decoded and
# linted clean. emit writes FILE before its packets and decode reads --mem
# files once its input has begun to arrive, so no run depends on which of
# the two starts first. Usage: readme-aql.sh KFDSIG README
set -u
k=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
readme=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
ln -s "$k" "$tmp/bin/kfdsig"
# the block: the "$ kfdsig emit ... -E aql" line and its continuation lines
awk '/^    \$ kfdsig emit -t gfx90a -E aql/ { on = 1 }
     on { line = $0; sub(/^    (\$ )?/, "", line); print line; if ($0 !~ /\\$/) exit }' \
  "$readme" >"$tmp/example.sh"
grep -q -- '--signal-out sig.bin' "$tmp/example.sh" ||
  { echo "README: no AQL example with --signal-out sig.bin"; cat "$tmp/example.sh"; exit 1; }
fail=0
for i in $(seq 1 20); do
  mkdir "$tmp/run$i"
  (cd "$tmp/run$i" && PATH="$tmp/bin:$PATH" sh "$tmp/example.sh") >"$tmp/out" 2>&1
  st=$?
  if [ $st -ne 0 ] || ! grep -q '^summary: 1 packets, 16 dwords (64 bytes); BARRIER_AND 1; findings: 0 error, 0 warning, 0 info' "$tmp/out"; then
    echo "FAIL: run $i: exit $st"
    cat "$tmp/out"
    fail=1
    break
  fi
done
[ $fail -eq 0 ] && echo "README AQL example: 20 runs as written, each clean"
exit $fail
