#!/bin/sh
# run-judge.sh KFDSIG TARGET PROGRAM STEP...: run one of our library
# judges (judge_rocprim, judge_rocrand, judge_rocsparse: hipcc-built
# programs that compare what AMD's libraries compute on the GPU with a
# host reference) on the emulated KFD of TARGET, bounded by timeout(1) so
# that a wave that never ends fails the test. Every step must print
# "NAME: 0 wrong of N" lines only, and the program "done" and exit 0.
# Exit 77 when the program was not built (hipcc or the library's -dev
# package missing at configure time) or this kfdsig has no `exec`.
kfdsig=$1 target=$2 prog=$3
shift 3
if [ ! -x "$prog" ]; then
	echo "SKIP: $(basename "$prog") not built: hipcc or its library's -dev package not installed"
	exit 77
fi
"$kfdsig" exec --help >/dev/null 2>&1 || { echo "SKIP: this kfdsig has no 'exec'"; exit 77; }
to=
command -v timeout >/dev/null && to="timeout 120"
out=$($to "$kfdsig" exec --emulate "$target" -- "$prog" "$@" 2>&1)
rc=$?
echo "$out"
fail=0
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc (1: a wrong answer, 124: timed out)"; fail=1; }
echo "$out" | grep -qx done || { echo "FAIL: no line 'done'"; fail=1; }
# each step prints at least one line; none may count a wrong element
for step in "$@"; do
	echo "$out" | grep -q "^$step[.a-z_0-9]*: 0 wrong of [1-9][0-9]*$" ||
		{ echo "FAIL: no line '$step: 0 wrong of N'"; fail=1; }
done
bad=$(echo "$out" | grep ': [0-9]* wrong of ' | grep -v ': 0 wrong of ')
[ -z "$bad" ] || { echo "FAIL: $bad"; fail=1; }
exit $fail
