#!/bin/sh
# The long fuzzing run: each libFuzzer target for RUNS executions
# (default 10 million), one after the other, with ASan/UBSan, logging to
# build/fuzz/long-TARGET.log and one summary line per target to
# build/fuzz/long-summary.txt. Meant for the background:
#   nohup scripts/fuzz-long.sh > build/fuzz-long.out 2>&1 &
#   scripts/fuzz-long.sh 10000000 emu_ioctl emu_engine   # some targets only
# Exit status 1 when a target finds a failure (its crash-* file stays in
# build/fuzz). docs/results.md ("Long fuzzing runs") records the results.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-10000000}
[ $# -gt 0 ] && shift
targets=${*:-decode_pm4 decode_sdma decode_aql decode_input emu_ioctl emu_engine cli}
# Under ASan, fuzz_emu_engine gains about 12 memory mappings and 200 KB of
# resident memory per 1000 inputs: clang 14's ASan keeps the registry context
# of every thread even after pthread_join, and each input starts an engine
# thread (none without ASan; docs/results.md):
# 10 million need about 125 000 mappings, twice Linux's default
# vm.max_map_count, and about 2.3 GB, past libFuzzer's default 2 GB RSS
# limit (hence -rss_limit_mb below).
case " $targets " in *" emu_engine "*)
  maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
  need=$((runs / 1000 * 13 + 5000))
  if [ "$maps" -lt "$need" ]; then
    echo "fuzz-long.sh: vm.max_map_count is $maps; fuzz_emu_engine needs about $need for $runs runs" >&2
    echo "fuzz-long.sh: raise it (sysctl -w vm.max_map_count=$need) or run fewer" >&2
    exit 2
  fi ;;
esac
CC=clang cmake -S . -B build/fuzz -DKFDSIG_FUZZ=ON -DKFDSIG_BUILD_TESTS=OFF -DKFDSIG_BUILD_BENCH=OFF \
  -DKFDSIG_BUILD_TOOLS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
for t in $targets; do
  cmake --build build/fuzz -j2 --target "fuzz_$t" >/dev/null
done
status=0
for t in $targets; do
  case $t in decode_*) corpus=${t#decode_} ;; *) corpus=$t ;; esac
  scratch=build/fuzz/long-corpus-$corpus
  mkdir -p "$scratch"
  start=$(date +%s)
  if (cd build/fuzz && ./test/fuzz/fuzz_"$t" -runs="$runs" -close_fd_mask=2 -print_final_stats=1 \
      -rss_limit_mb=$((2048 + runs / 1000000 * 300)) \
      "../../$scratch" "../../test/fuzz/corpus/$corpus" 2>"long-$t.log"); then
    verdict="no findings"
  else
    verdict="FAILURE (see build/fuzz/long-$t.log)"
    status=1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build/fuzz/long-$t.log")
  line="$(date -u +%Y-%m-%dT%H:%MZ) fuzz_$t: ${execs:-?} executions in $(($(date +%s) - start)) s: $verdict"
  echo "$line" | tee -a build/fuzz/long-summary.txt
done
exit $status
