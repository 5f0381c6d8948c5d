#!/bin/bash
# The test job: install dependencies, check formatting, build with warnings
# as errors and run every test, the mutation check, the Debian packages,
# every test again under ASan + UBSan, and a bounded fuzz run.
# pipefail: ctest's status survives the tee that keeps its summary.
set -euo pipefail
cd "$(dirname "$0")/.."
source ./scripts/deps.sh
kfdsig_install_deps all

# The tests' TMPDIR: a directory of /dev/shm where it suits them
# (scripts/shm-tmpdir.sh), removed at the end with the sysfs trees of
# processes that exec'd or were killed.
. ./scripts/shm-tmpdir.sh
if [ -z "${TMPDIR:-}" ] && TMPDIR=$(kfdsig_shm_tmpdir kfdsig-tests); then
  export TMPDIR
  trap 'rm -rf "$TMPDIR"' EXIT
fi

echo "== [$((SECONDS / 60)) min] format check (clang-format, .clang-format)"
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find include src tools test bench -name '*.[ch]')
# shellcheck disable=SC2086
clang-format --dry-run --Werror $files

# One optimised build runs every test: the release configuration (-O3,
# warnings as errors), the one the main job and the benchmarks use. The
# other optimisation levels are compiled too: -O1 by the mutation check,
# -O0 under the sanitizers, -O2 by the Debian package build (its tests).
echo "== [$((SECONDS / 60)) min] build the release configuration (-O3, warnings as errors), as the main job does"
cmake --preset release >/dev/null
cmake --build --preset release
echo "== [$((SECONDS / 60)) min] no cycle between the C files of src/ and tools/ (calls, includes, header inline calls)"
python3 ./scripts/check-cycles.py build/release
echo "== [$((SECONDS / 60)) min] every test on the release build"
mkdir -p build
ctest --preset release | tee build/ctest-release.log

echo "== [$((SECONDS / 60)) min] mutation check: every deliberate fault of test/mutations/faults.txt must fail a test"
./scripts/mutation-check.sh -j 2

echo "== [$((SECONDS / 60)) min] the Debian packages: dpkg-buildpackage in a scratch copy (unit and install tests inside), installed, used, lintian-clean"
st=0
KFDSIG_DEB_TESTS=quick ./test/packaging/deb.sh . build/deb-work || st=$?
[ $st -eq 0 ] || [ $st -eq 77 ] || exit $st

echo "== [$((SECONDS / 60)) min] build and test under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset sanitize |
  tee build/ctest-sanitize.log

echo "== [$((SECONDS / 60)) min] fuzz the decoders and the decode input formats (${KFDSIG_FUZZ_SECONDS:-12} s each), the emulated KFD's ioctls and engines" \
  "and the CLI (${KFDSIG_FUZZ_EMU_SECONDS:-10} s each) (libFuzzer + ASan/UBSan)"
CC=clang cmake -S . -B build/fuzz -DKFDSIG_FUZZ=ON -DKFDSIG_BUILD_TESTS=OFF -DKFDSIG_BUILD_BENCH=OFF \
  -DKFDSIG_BUILD_TOOLS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/fuzz -j2 --target fuzz_decode_pm4 fuzz_decode_sdma fuzz_decode_aql fuzz_decode_input fuzz_emu_ioctl fuzz_emu_engine \
  fuzz_cli
# two lanes at once, one per CPU; each lane's targets one after another
fuzz_one() {
  local target=$1 corpus seconds scratch
  case $target in
    decode_*) corpus=${target#decode_} seconds=${KFDSIG_FUZZ_SECONDS:-12} ;;
    *) corpus=$target seconds=${KFDSIG_FUZZ_EMU_SECONDS:-10} ;;
  esac
  scratch=build/fuzz/corpus-$corpus
  mkdir -p "$scratch"
  # -close_fd_mask=2: the CLI's own error messages; crashes are still reported
  (cd build/fuzz && ./test/fuzz/fuzz_$target -max_total_time="$seconds" -close_fd_mask=2 \
    -print_final_stats=1 "../../$scratch" ../../test/fuzz/corpus/$corpus 2>fuzz-$target.log) ||
    { tail -n 40 "build/fuzz/fuzz-$target.log"; echo "fuzz_$target found a failure"; return 1; }
}
fuzz_lane() {
  for target in "$@"; do fuzz_one "$target" || return 1; done
}
fuzz_lane decode_pm4 decode_sdma emu_ioctl cli &
lane1=$!
fuzz_lane decode_aql decode_input emu_engine &
lane2=$!
fst=0
wait "$lane1" || fst=1
wait "$lane2" || fst=1
for target in decode_pm4 decode_sdma decode_aql decode_input emu_ioctl emu_engine cli; do
  { grep -E 'stat::number_of_executed_units' "build/fuzz/fuzz-$target.log" || true; } | sed "s/^/  $target: /"
done
[ "$fst" = 0 ] || exit 1
echo "fuzzing: no findings"

# One closing line over the ctest runs: "N passed, N failed, N skipped".
cat build/ctest-release.log build/ctest-sanitize.log | awk '
  /tests passed, .* tests failed out of/ { total += $NF; failed += $(NF - 4) }
  /Test +#[0-9]+: .*Skipped/ { skipped++ }
  END { printf "kfdsig: %d passed, %d failed, %d skipped\n", total - failed - skipped, failed, skipped }'
