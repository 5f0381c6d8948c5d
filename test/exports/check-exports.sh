#!/bin/sh
# A shared library exports exactly the functions the public headers declare
# with KFDSIG_API: nothing internal leaks, nothing declared is missing.
#   libkfdsig:     every header but kfdsig/emu.h, each export in a KFDSIG_x.y
#                  node, plus exactly the KFDSIG_PRIVATE node (the internal
#                  functions libkfdsig-emu calls); no kfdsig_emu_* export.
#   libkfdsig-emu: kfdsig/emu.h, each export in a KFDSIG_EMU_x.y node.
# Usage: check-exports.sh kfdsig|kfdsig-emu LIB_SO INCLUDE_DIR
set -eu
which=$1
lib=$2
inc=$3
command -v nm >/dev/null || { echo "no nm: skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The private node: exactly these names, no others (src/core/internal.h).
private="kfdsig__opts_copy kfdsig__set_error"
case $which in
kfdsig)
  headers=$(ls "$inc"/kfdsig/*.h | grep -v '/emu\.h$')
  node='KFDSIG_[0-9][0-9.]*'
  ;;
kfdsig-emu)
  headers=$inc/kfdsig/emu.h
  node='KFDSIG_EMU_[0-9][0-9.]*'
  ;;
*)
  echo "usage: check-exports.sh kfdsig|kfdsig-emu LIB_SO INCLUDE_DIR"
  exit 2
  ;;
esac

nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ { print $3 }' >"$tmp/versioned"
grep -v '@@KFDSIG_PRIVATE$' "$tmp/versioned" | sed 's/@.*//' | sort -u >"$tmp/exported"
grep '@@KFDSIG_PRIVATE$' "$tmp/versioned" | sed 's/@.*//' | sort -u >"$tmp/private_exported" || true
# Declarations: the identifier before the first '(' of each KFDSIG_API declaration.
# shellcheck disable=SC2086
cat $headers | perl -0777 -pe 's{/\*.*?\*/}{}gs; s{\\\n}{}g; s{^#.*$}{}mg' | tr '\n' ' ' |
  sed 's/;/;\n/g' | grep 'KFDSIG_API' |
  sed 's/(.*//' | awk '{ print $NF }' | tr -d '*' | sort -u >"$tmp/declared"

status=0
# Every export carries the version node of its release (src/kfdsig.map,
# src/emu/kfdsig-emu.map).
grep -v "@@${node}\$" "$tmp/versioned" | grep -v '@@KFDSIG_PRIVATE$' >"$tmp/unversioned" || true
if [ "$which" = kfdsig-emu ]; then
  grep '@@KFDSIG_PRIVATE$' "$tmp/versioned" >>"$tmp/unversioned" || true
fi
if [ -s "$tmp/unversioned" ]; then
  echo "exported without a version node of $which's map:"
  cat "$tmp/unversioned"
  status=1
fi
if [ "$which" = kfdsig ]; then
  printf '%s\n' $private | sort >"$tmp/private"
  if ! diff -u "$tmp/private" "$tmp/private_exported" >"$tmp/pdiff"; then
    echo "the KFDSIG_PRIVATE node differs from the private exports (- expected, + exported):"
    grep '^[-+][a-z]' "$tmp/pdiff" || true
    status=1
  fi
  if grep '^kfdsig_emu_' "$tmp/exported" "$tmp/private_exported"; then
    echo "libkfdsig exports emulator functions (they are libkfdsig-emu's)"
    status=1
  fi
fi
if ! diff -u "$tmp/declared" "$tmp/exported" >"$tmp/diff"; then
  echo "exported symbols differ from the KFDSIG_API declarations (- declared only, + exported only):"
  grep '^[-+][a-z]' "$tmp/diff" || true
  status=1
fi
# Internal names carry no kfdsig_ prefix (docs/naming.md): every kfdsig_
# symbol the library defines, hidden ones included, is named in a public
# header (the static inline ones are emitted as local symbols without
# optimisation), or is a private export. A compiler-made clone
# (kfdsig_f.part.0, kfdsig_f.isra.0.cold: clone-base.sed) is judged as the
# function it was made from.
{
  grep -ohE '\bkfdsig_[a-z0-9_]+\b' "$inc"/kfdsig/*.h
  printf '%s\n' $private
} | sort -u >"$tmp/public"
nm --defined-only "$lib" | awk '$2 ~ /^[TtDdBbRr]$/ && $3 ~ /^kfdsig_/ { print $3 }' | sed 's/@.*//' |
  sed -f "$(dirname "$0")/clone-base.sed" | sort -u | comm -23 - "$tmp/public" >"$tmp/internal"
if [ -s "$tmp/internal" ]; then
  echo "internal symbols named like public ones (drop the kfdsig_ prefix):"
  cat "$tmp/internal"
  status=1
fi
echo "$which: $(wc -l <"$tmp/exported") symbols exported, $(wc -l <"$tmp/private_exported") private"
exit $status
