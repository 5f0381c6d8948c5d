#!/bin/sh
# run-hip-gfx8.sh KFDSIG TARGET PROGRAM: run hip_gfx8 (hipcc-built for
# gfx801-gfx803) on the emulated KFD of TARGET under `kfdsig exec`, bounded
# by timeout(1). HIP must initialize and report the device (its queues are
# gfx8 AQL queues), then its kernel must run on the emulated shader unit to
# the host's answer ("hip_gfx8: ok", exit 0; 124: timed out).
# Exit 77 when the program was not built (no hipcc) or this kfdsig has no
# `exec`.
kfdsig=$1 target=$2 prog=$3
. "$(dirname "$0")/client-lib.sh"
client_need "$prog" exec 30
out=$(env -u KFDSIG_EMU_VERBOSE $to "$kfdsig" exec --emulate "$target" -- "$prog" 2>&1)
rc=$?
echo "$out"
echo "$out" | grep -q "^hip_gfx8: device .* $target" || bad "hipGetDeviceProperties did not name $target"
[ $rc -eq 0 ] || bad "exit status $rc, not 0 (124: timed out)"
echo "$out" | grep -q '^hip_gfx8: ok$' || bad "the kernel's results are not the host's"
! echo "$out" | grep -q 'HSA_STATUS_ERROR' || bad "ROCr reported a queue error"
! echo "$out" | grep -q 'Queue create failed' || bad "queue creation failed"
exit $fail
