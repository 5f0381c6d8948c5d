#!/bin/sh
# run-hip-gfx8.sh KFDSIG TARGET PROGRAM: run hip_gfx8 (hipcc-built for
# gfx801-gfx803) on the emulated KFD of TARGET under `kfdsig exec`, bounded
# by timeout(1). HIP must initialize and report the device (its queues are
# gfx8 AQL queues), then its first kernel must end the program as an
# illegal instruction does on a GPU: ROCr's queue error
# HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, HIP's abort (SIGABRT, 134), not a
# wait that never ends (124) and not a kernel that "returned".
# Exit 77 when the program was not built (no hipcc) or this kfdsig has no
# `exec`.
kfdsig=$1 target=$2 prog=$3
. "$(dirname "$0")/client-lib.sh"
client_need "$prog" exec 30
out=$(env -u KFDSIG_EMU_VERBOSE $to "$kfdsig" exec --emulate "$target" -- "$prog" 2>&1)
rc=$?
echo "$out"
echo "$out" | grep -q "^hip_gfx8: device .* $target" || bad "hipGetDeviceProperties did not name $target"
[ $rc -eq 134 ] || bad "exit status $rc, not 134 (HIP's abort; 124: timed out)"
echo "$out" | grep -q 'HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION' ||
	bad "no HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION from ROCr"
! echo "$out" | grep -q 'returned' || bad "the kernel returned"
! echo "$out" | grep -q 'Queue create failed' || bad "queue creation failed"
exit $fail
