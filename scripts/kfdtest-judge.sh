#!/bin/bash
# Build AMD's kfdtest (with the libhsakmt beside it) from a source tree and run
# its cases on the emulated KFD, each case in its own process under
# `kfdsig exec --emulate TARGET,kfd=VERSION` with a timeout; print one row per
# case and target and a summary line. Not part of CI (the source is fetched by
# hand); docs/testing.md says how to get it.
#
#   scripts/kfdtest-judge.sh [options] SRC
#     SRC   the libhsakmt directory (holding tests/kfdtest), or a ROCm source
#           tree holding projects/rocr-runtime/libhsakmt or libhsakmt
#   -t TARGET    emulated GPU, repeatable (default gfx90a)
#   -k VERSION   KFD ioctl version to report (default 1.22)
#   -f FILTER    gtest filter of the cases to run (default '*'), e.g.
#                'KFDQMTest.*:KFDEventTest.*'
#   -T SECONDS   per-case timeout (default 60)
#   -w MS        kfdtest's own wait timeout, its --timeout (default 10000; its
#                built-in 60000 would make a case that waits for a timeout on
#                purpose, KFDEventTest.SignalEventExt, outlast -T)
#   -b DIR       build directory (default build/kfdtest)
#   -K KFDSIG    the kfdsig binary (default build/default/tools/kfdsig)
#   -l DIR       keep each case's output in DIR/TARGET/CASE.log
#   -n           do not build: use DIR/kfdtest/kfdtest as built before
# Needs cmake, a C++ compiler, libdrm-dev, libnuma-dev and llvm-dev (kfdtest
# assembles its shaders with LLVM's AMDGPU assembler).
# Rows: PASS, SKIP (the case returned early, printing "Skip..."), FAIL,
# TIMEOUT (killed after SECONDS), CRASH (killed by a signal), DISABLED (a
# DISABLED_ case, not run, as gtest and run_kfdtest.sh do). Exit status 0
# when no case failed, timed out or crashed, 1 otherwise, 2 on usage errors.
# The cases in `timed` compare wall-clock dispatch times across CU masks,
# which the emulator does not model (its waves run on host threads, with no
# CU whose removal slows them): they run (each dispatch's waves after the
# first are replayed, src/emu/sq/sqk_wave.c, so a case takes seconds) and
# FAIL on the time ratio; the reason is added to their log. AMD's
# kfdtest.exclude leaves them out on every ASIC
# (PERMANENT_BLACKLIST_ALL_ASICS).
set -uo pipefail

targets=() kfdver=1.22 filter='*' tmo=60 wait_ms=10000 bdir=build/kfdtest
kfdsig=build/default/tools/kfdsig logdir='' build=1
declare -A timed=(
	[KFDQMTest.BasicCuMaskingLinear]="times dispatches against the CU mask"
	[KFDQMTest.BasicCuMaskingEven]="times dispatches against the CU mask"
)
usage() {
	awk 'NR > 7 && /^#/ { print; next } NR > 7 { exit }' "$0" >&2
	exit 2
}
while getopts t:k:f:T:w:b:K:l:nh o; do
	case $o in
	t) targets+=("$OPTARG") ;;
	k) kfdver=$OPTARG ;;
	f) filter=$OPTARG ;;
	T) tmo=$OPTARG ;;
	w) wait_ms=$OPTARG ;;
	b) bdir=$OPTARG ;;
	K) kfdsig=$OPTARG ;;
	l) logdir=$OPTARG ;;
	n) build= ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
[ ${#targets[@]} -gt 0 ] || targets=(gfx90a)
case $tmo in '' | *[!0-9]*) echo "kfdtest-judge: -T wants seconds" >&2; exit 2 ;; esac
case $wait_ms in '' | *[!0-9]*) echo "kfdtest-judge: -w wants milliseconds" >&2; exit 2 ;; esac

src=$1
for d in "$src" "$src/projects/rocr-runtime/libhsakmt" "$src/libhsakmt"; do
	if [ -d "$d/tests/kfdtest/src" ]; then
		src=$d
		break
	fi
done
[ -d "$src/tests/kfdtest/src" ] || {
	echo "kfdtest-judge: no tests/kfdtest under $1" >&2
	exit 2
}
[ -x "$kfdsig" ] || {
	echo "kfdtest-judge: $kfdsig is not executable (build kfdsig or pass -K)" >&2
	exit 2
}
mkdir -p "$bdir" || exit 1
bdir=$(cd "$bdir" && pwd)
src=$(cd "$src" && pwd)
bin=$bdir/kfdtest/kfdtest

if [ -n "$build" ]; then
	llvm_dir=$(llvm-config --cmakedir 2>/dev/null)
	for c in /usr/lib/llvm-*/lib/cmake/llvm; do
		[ -n "$llvm_dir" ] && break
		[ -f "$c/LLVMConfig.cmake" ] && llvm_dir=$c
	done
	[ -n "$llvm_dir" ] || {
		echo "kfdtest-judge: no LLVMConfig.cmake (install llvm-dev)" >&2
		exit 1
	}
	mkdir -p "$bdir/libhsakmt" "$bdir/kfdtest"
	echo "building libhsakmt and kfdtest in $bdir (logs: build.log there)"
	(cd "$bdir/libhsakmt" &&
		cmake -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF "$src" &&
		nice make -j"$(nproc)") >"$bdir/libhsakmt/build.log" 2>&1 || {
		echo "kfdtest-judge: libhsakmt failed to build, see $bdir/libhsakmt/build.log" >&2
		exit 1
	}
	(cd "$bdir/kfdtest" &&
		LIBHSAKMT_PATH=$bdir/libhsakmt cmake -DCMAKE_BUILD_TYPE=Release \
			-DLLVM_DIR="$llvm_dir" "$src/tests/kfdtest" &&
		nice make -j"$(nproc)") >"$bdir/kfdtest/build.log" 2>&1 || {
		echo "kfdtest-judge: kfdtest failed to build, see $bdir/kfdtest/build.log" >&2
		exit 1
	}
fi
[ -x "$bin" ] || {
	echo "kfdtest-judge: no $bin (build it, or drop -n)" >&2
	exit 1
}

# The case list: gtest prints "Suite." lines and indented case names.
mapfile -t cases < <("$bin" --gtest_list_tests --gtest_filter="$filter" 2>/dev/null |
	awk '/^[A-Za-z_][A-Za-z0-9_/]*\.$/ { s = $1; next } s != "" && /^  [A-Za-z_]/ { print s $1 }')
[ ${#cases[@]} -gt 0 ] || {
	echo "kfdtest-judge: no case matches '$filter'" >&2
	exit 1
}

fails=0
declare -A count
printf '%-8s %-58s %-8s %6s\n' TARGET CASE RESULT SECONDS
for t in "${targets[@]}"; do
	for c in "${cases[@]}"; do
		case $c in
		*.DISABLED_*)
			# gtest runs these only on request; so does AMD's run_kfdtest.sh
			count[DISABLED]=$((${count[DISABLED]:-0} + 1))
			printf '%-8s %-58s %-8s %6s\n' "$t" "$c" DISABLED -
			continue
			;;
		esac
		out=$(mktemp)
		start=$(date +%s.%N)
		# its own session, so that processes the case forked and left
		# behind (KFDIPCTest's child waits for a parent that failed) go
		# with it
		setsid --wait timeout -k 5 "$tmo" "$kfdsig" exec --emulate "$t,kfd=$kfdver" -- \
			"$bin" --timeout="$wait_ms" --gtest_filter="$c" >"$out" 2>&1 &
		pid=$!
		wait "$pid"
		rc=$?
		kill -KILL -- -"$pid" 2>/dev/null
		secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			r=TIMEOUT
		elif [ $rc -gt 128 ]; then
			r=CRASH
		elif [ $rc -ne 0 ] || ! grep -q '^\[  PASSED  \] 1 test' "$out"; then
			r=FAIL
		elif grep -qi '^\[ *\] *skip\|skipping test\|skip test' "$out"; then
			r=SKIP
		else
			r=PASS
		fi
		if [ $r != PASS ] && [ -n "${timed[$c]:-}" ]; then
			echo "kfdtest-judge: this case ${timed[$c]}, which the emulator" \
				"does not model (no CU whose removal slows a dispatch)" >>"$out"
		fi
		case $r in FAIL | TIMEOUT | CRASH) fails=$((fails + 1)) ;; esac
		count[$r]=$((${count[$r]:-0} + 1))
		printf '%-8s %-58s %-8s %6.1f\n' "$t" "$c" "$r" "$secs"
		if [ -n "$logdir" ]; then
			mkdir -p "$(dirname "$logdir/$t/$c.log")"
			cp "$out" "$logdir/$t/$c.log"
		fi
		rm -f "$out"
	done
done
echo "summary: ${count[PASS]:-0} passed, ${count[SKIP]:-0} skipped, ${count[FAIL]:-0} failed," \
	"${count[TIMEOUT]:-0} timed out, ${count[CRASH]:-0} crashed, ${count[DISABLED]:-0} disabled (not run)"
[ $fails -eq 0 ]
