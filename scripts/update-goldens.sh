#!/bin/sh
# Rewrite the expected output of every CLI golden case (test/cli/<command>/
# <case>.out, and .err / .exit where the case has them) from what the
# kfdsig of BUILD_DIR prints now. Review the diff before committing: a
# golden file is only right when the output it records is.
#
#   scripts/update-goldens.sh [BUILD_DIR] [COMMAND...]
#     BUILD_DIR  default build/default (build it first)
#     COMMAND    only these folders of test/cli (default: all)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build/default}
[ $# -gt 0 ] && shift
kfdsig=$build/tools/kfdsig
if [ ! -x "$kfdsig" ]; then
  echo "update-goldens: no $kfdsig (cmake --build --preset default first)" >&2
  exit 2
fi
kfdsig=$(cd "$(dirname "$kfdsig")" && pwd)/kfdsig
dirs=${*:-$(cd test/cli && for d in */; do [ "$d" = data/ ] || echo "${d%/}"; done)}
n=0
for d in $dirs; do
  if [ ! -d "test/cli/$d" ]; then
    echo "update-goldens: no folder test/cli/$d" >&2
    exit 2
  fi
  for args in test/cli/"$d"/*.args; do
    [ -e "$args" ] || continue
    test/cli/run-case.sh "$kfdsig" "${args%.args}" --update
    n=$((n + 1))
  done
done
python3 test/cli/check-cases.py test/cli
echo "update-goldens: $n cases rewritten; review with git diff test/cli"
