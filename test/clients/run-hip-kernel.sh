#!/bin/sh
# run-hip-kernel.sh KFDSIG TARGET PROGRAM: run hip_kernel (hipcc-built)
# under `kfdsig exec -v --emulate TARGET` with every step, bounded by
# timeout(1) so that a wait that never ends fails the test, and check each
# step's line. Exit 77 when the program was not built (no hipcc) or this
# kfdsig has no `exec`.
kfdsig=$1 target=$2 prog=$3
if [ ! -x "$prog" ]; then
	echo "SKIP: $(basename "$prog") not built: hipcc not installed"
	exit 77
fi
"$kfdsig" exec --help >/dev/null 2>&1 || { echo "SKIP: this kfdsig has no 'exec'"; exit 77; }
to=
command -v timeout >/dev/null && to="timeout 60"
out=$($to "$kfdsig" exec -v --emulate "$target" -- "$prog" memset d2d event 2>&1)
rc=$?
echo "$out"
fail=0
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc (124: timed out)"; fail=1; }
for want in 'vadd: 0 wrong' 'memset: 0 wrong' 'd2d: 0 wrong' 'event: ok' 'done'; do
	echo "$out" | grep -qx "$want" || { echo "FAIL: no line '$want'"; fail=1; }
done
exit $fail
