#!/bin/sh
# Instructions per PM4 fence, counted by callgrind (repeatable whatever the
# machine is doing), for the three loops of bench_pm4_emit, and the ratios to
# the template-copy floor. Usage: pm4_emit_insns.sh BENCH_BINARY [TARGET]
set -eu
bench=$1
target=${2:-gfx90a}
iters=100000
command -v valgrind >/dev/null || { echo "valgrind not installed (apt-get install valgrind)"; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
KFDSIG_BENCH_ITERS=$iters valgrind --tool=callgrind --callgrind-out-file="$out" "$bench" "$target" >/dev/null 2>&1
# Each loop runs twice (warm-up and measurement).
callgrind_annotate --inclusive=yes "$out" 2>/dev/null | awk -v n=$((2 * iters)) -v t="$target" '
  /run_emit[.a-z0-9]* \[/     { gsub(",", "", $1); emit = $1 / n }
  /run_tmpl[.a-z0-9]* \[/     { gsub(",", "", $1); tmpl = $1 / n }
  /run_template[.a-z0-9]* \[/ { gsub(",", "", $1); floor = $1 / n }
  END {
    printf "PM4 fence emission on %s, instructions per fence (callgrind)\n", t
    printf "  %-34s %6.1f\n", "kfdsig_pm4_emit_fence", emit
    printf "  %-34s %6.1f\n", "kfdsig_pm4_fence_write (prepared)", tmpl
    printf "  %-34s %6.1f\n", "8-dword template copy + patch", floor
    printf "  ratio prepared/template: %.2fx (goal: <= 1.5x); emit/template: %.2fx\n", tmpl / floor, emit / floor
  }'
