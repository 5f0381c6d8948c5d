#!/bin/sh
# Every ```c block of the README is a whole program: it compiles as C11
# with -Wall -Wextra -Werror against the public headers, links against the
# library just built and exits 0. Usage: readme-c.sh README INCLUDE_DIR LIBRARY
set -u
readme=$1 inc=$2 lib=$3
cc=${CC:-cc}
command -v "$cc" >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '
  /^```c[ \t]*$/ { n++; f = dir "/block" n ".c"; inb = 1; next }
  /^```/ { inb = 0; next }
  inb { print > f }' "$readme"
n=0 status=0
for c in "$tmp"/block*.c; do
  [ -f "$c" ] || break
  n=$((n + 1))
  b=${c%.c}
  if ! "$cc" -std=c11 -Wall -Wextra -Werror -I"$inc" "$c" -o "$b" "$lib" \
      -Wl,-rpath,"$(dirname "$lib")"; then
    echo "FAIL: README C block $n does not compile:"; cat -n "$c"; status=1; continue
  fi
  if ! out=$("$b" 2>&1); then
    echo "FAIL: README C block $n exits non-zero: $out"; status=1; continue
  fi
  echo "ok: README C block $n: $out"
done
[ "$n" -gt 0 ] || { echo "FAIL: no C block in $readme"; exit 1; }
exit $status
