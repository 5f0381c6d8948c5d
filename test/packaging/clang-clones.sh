#!/bin/sh
# The sources that build functions in several versions for the CPU
# (target_clones: the shader unit's lane loops, SQK_LANE_CLONES) compile
# with clang as well as with GCC: clang refuses some attributes beside
# target_clones that GCC takes. Exit 77 without clang.
# Usage: clang-clones.sh SOURCE_DIR
set -eu
src=$1
command -v clang >/dev/null || { echo "clang not installed: skipped"; exit 77; }
status=0
files=$(grep -l 'SQK_LANE_CLONES' "$src"/src/emu/sq/*.c)
[ -n "$files" ] || { echo "FAIL: no source uses SQK_LANE_CLONES"; exit 1; }
for f in $files; do
  if ! clang -std=gnu11 -O2 -Wall -Wextra -Werror -Wno-unknown-warning-option \
      -I"$src/include" -I"$src/src" -fsyntax-only "$f"; then
    echo "FAIL: $f with clang"; status=1
  fi
done
[ $status = 0 ] && echo "the target_clones sources compile with $(clang --version | head -n 1)"
exit $status
