#!/bin/sh
# The shared library exports exactly the functions the public headers declare
# with KFDSIG_API: nothing internal leaks, nothing declared is missing.
# Usage: check-exports.sh LIBKFDSIG_SO INCLUDE_DIR
set -eu
lib=$1
inc=$2
command -v nm >/dev/null || { echo "no nm: skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | sed 's/@.*//' | sort -u >"$tmp/exported"
# Declarations: the identifier before the first '(' of each KFDSIG_API declaration.
cat "$inc"/kfdsig/*.h | perl -0777 -pe 's{/\*.*?\*/}{}gs; s{\\\n}{}g; s{^#.*$}{}mg' | tr '\n' ' ' |
  sed 's/;/;\n/g' | grep 'KFDSIG_API' |
  sed 's/(.*//' | awk '{ print $NF }' | tr -d '*' | sort -u >"$tmp/declared"

status=0
# Every export carries the version node of its release (src/kfdsig.map).
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | grep -v '@@*KFDSIG_[0-9][0-9.]*$' >"$tmp/unversioned" || true
if [ -s "$tmp/unversioned" ]; then
  echo "exported without a KFDSIG_x.y version node (list them in src/kfdsig.map):"
  cat "$tmp/unversioned"
  status=1
fi
if ! diff -u "$tmp/declared" "$tmp/exported" >"$tmp/diff"; then
  echo "exported symbols differ from the KFDSIG_API declarations (- declared only, + exported only):"
  grep '^[-+][a-z]' "$tmp/diff" || true
  status=1
fi
# Internal names carry no kfdsig_ prefix (docs/naming.md): every kfdsig_
# symbol the library defines, hidden ones included, is named in a public
# header (the static inline ones are emitted as local symbols without
# optimisation).
grep -ohE '\bkfdsig_[a-z0-9_]+\b' "$inc"/kfdsig/*.h | sort -u >"$tmp/public"
nm --defined-only "$lib" | awk '$2 ~ /^[TtDdBbRr]$/ && $3 ~ /^kfdsig_/ { print $3 }' | sed 's/@.*//' |
  sort -u | comm -23 - "$tmp/public" >"$tmp/internal"
if [ -s "$tmp/internal" ]; then
  echo "internal symbols named like public ones (drop the kfdsig_ prefix):"
  cat "$tmp/internal"
  status=1
fi
echo "$(wc -l <"$tmp/exported") symbols exported"
exit $status
