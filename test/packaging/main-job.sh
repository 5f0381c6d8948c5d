#!/bin/sh
# scripts/run-main.sh on the built kfdsig, a few cases only: it must end with
# one verdict line summing every section and naming the bench figures and
# plot, which it must have written, and run Debian's libhsakmt clients,
# rocminfo, a HIP host program and a HIP program with compiled kernels under
# kfdsig exec / trace. Usage: main-job.sh KFDSIG SOURCE WORK CLIENTS-DIR
set -u
k=$1
src=$2
work=$3
clients=$4
rm -rf "$work"; mkdir -p "$work"
KFDSIG_BIN=$k KFDSIG_CLIENTS_DIR=$clients KFDSIG_MAIN_SMOKE=1 KFDSIG_MAIN_OUT=$work "$src/scripts/run-main.sh" >"$work/log" 2>&1
st=$?
last=$(tail -n 1 "$work/log")
echo "$last"
[ $st -eq 0 ] || { echo "run-main.sh exited $st"; tail -n 30 "$work/log"; exit 1; }
# sections: gfx90a (3 cases), all targets (3 x N), v6.14 on 2 devices (1 + ... cases),
# v7.1 on 2 devices (2 x 2 cases), v7.3 with KFD 1.22 on 2 devices (the smoke cases), the
# libhsakmt clients (one row each, or one SKIP when they were not built) and the ROCm runtime
# (a row per rocminfo spec and HIP target, or one SKIP without rocminfo / the HIP program),
# compiled kernels (a row for gfx90a and one for its device printf, or one SKIP without the
# hipcc-built program), the lost wake-up (a row, or one SKIP without the libhsakmt program),
# the library judges (a row per library on gfx90a, or a SKIP per library not built)
sum=$(awk '/^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { p += $1; f += $3; s += $5 }
	/^PASS  (libhsakmt\.|rocminfo |HIP|kernels\.|lost-wait\.|judge\.)/ { p++ }
	/^FAIL  (libhsakmt\.|rocminfo |HIP|kernels\.|lost-wait\.|judge\.)/ { f++ }
	/^SKIP: the lost wake-up program/ { s++ } /^SKIP  judge\./ { s++ }
	/^SKIP: the libhsakmt clients/ { s++ } /^SKIP: rocminfo not installed/ { s++ }
	/^SKIP  HIP host calls/ { s++ } /^SKIP: the HIP kernel program/ { s++ }
	END { print p, f, s }' "$work/log")
set -- $sum
echo "$last" | grep -q "^kfdsig main job: PASS: $1 passed, $2 failed, $3 skipped over 10 suite sections; bench figures in $work/bench.json (samples $work/bench-samples.csv), plot in $work/bench.svg$" ||
  { echo "verdict does not sum the sections ($sum)"; exit 1; }
[ "$1" -gt 0 ] || { echo "nothing passed"; exit 1; }
if [ -x "$clients/client_hsakmt_queue" ]; then
	[ "$(grep -c '^PASS  libhsakmt\.' "$work/log")" -eq 3 ] || { echo "libhsakmt clients did not all pass"; grep libhsakmt "$work/log"; exit 1; }
fi
grep -qx '== compiled kernels on the emulated shader unit (HIP, hipcc-built, under kfdsig trace)' "$work/log" ||
	{ echo "no compiled-kernels section"; exit 1; }
if [ -x "$clients/hip_kernel" ]; then
	grep -q '^PASS  kernels\.gfx90a: vadd: 0 wrong, .*event: ok; GPU interrupts that set a KFD event: [1-9][0-9]* ([1-9][0-9]* end-of-pipe), WAIT_EVENTS woken: [1-9]' "$work/log" ||
		{ echo "the compiled kernel did not pass"; grep -A2 '^== compiled kernels' "$work/log"; exit 1; }
	if [ -x "$clients/hip_printf" ]; then
		grep -q '^PASS  kernels\.printf\.gfx90a: 24 lines from .*, each once; wave interrupts that set a KFD event: [1-9][0-9]*, listener WAIT_EVENTS woken: [1-9]' "$work/log" ||
			{ echo "device printf did not pass"; grep 'kernels\.printf' "$work/log"; exit 1; }
	fi
else
	grep -qx 'SKIP: the HIP kernel program was not built (hipcc missing at configure time)' "$work/log" ||
		{ echo "no skip line for the compiled-kernels section"; exit 1; }
fi
if [ -x "$clients/client_lost_wakeup" ]; then
	grep -q '^PASS  lost-wait\.gfx90a: WAIT_EVENTS on event [0-9]* (timeout=inf) named after [0-9.]* s in flight (bound 1 s): slot written, no interrupt set it; program killed, exit 1$' "$work/log" ||
		{ echo "no lost-wait row"; grep -A2 '^== the lost wake-up' "$work/log"; exit 1; }
fi
for lib in rocprim rocrand rocsparse; do
	if [ -x "$clients/judge_$lib" ]; then
		grep -q "^PASS  judge\.$lib\.gfx90a: .*: [1-9][0-9]* comparisons with the host's reference, none wrong$" "$work/log" ||
			{ echo "the $lib judge did not pass"; grep "judge\.$lib" "$work/log"; exit 1; }
	else
		grep -q "^SKIP  judge\.$lib: not built" "$work/log" || { echo "no skip row for the $lib judge"; exit 1; }
	fi
done
grep -q '<svg' "$work/bench.svg" || { echo "no plot"; exit 1; }
grep -q '"figures"' "$work/bench.json" || { echo "no bench figures"; exit 1; }
[ "$(wc -l <"$work/bench-samples.csv")" -gt 10 ] || { echo "no samples"; exit 1; }
echo "ok: main job"
