#!/bin/sh
# run-hip-coop.sh KFDSIG TARGET PROGRAM: run hip_coop (hipcc-built) on the
# emulated KFD of TARGET under `kfdsig exec`, each run bounded by
# timeout(1):
#  1. a cooperative launch of 4 blocks meeting at grid.sync() three times
#     (GWS: ALLOC_QUEUE_GWS on ROCr's cooperative queue, ROCclr's
#     ds_gws_init dispatch, ds_gws_barrier): exact sums, exit 0;
#  2. 128 blocks, more than the emulator runs at once: the barrier is
#     refused as an illegal instruction (one line names it) and HIP aborts
#     (134) - never a wait without end (124);
#  3. hipMemcpyPeer between two emulated GPUs of TARGET: the bytes arrive.
# Exit 77 when the program was not built (no hipcc) or this kfdsig has no
# `exec`.
kfdsig=$1 target=$2 prog=$3
. "$(dirname "$0")/client-lib.sh"
client_need "$prog" exec 60
out=$($to "$kfdsig" exec --emulate "$target" -- "$prog" coop 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || bad "coop: exit status $rc (124: timed out)"
echo "$out" | grep -qx 'coop: 4 blocks, 0 wrong' || bad "no line 'coop: 4 blocks, 0 wrong'"
! echo "$out" | grep -q 'GWS allocation failed' || bad "ROCr: GWS allocation failed"

out=$($to "$kfdsig" exec --emulate "$target" -- "$prog" big 2>&1)
rc=$?
echo "$out"
[ $rc -eq 134 ] || bad "big: exit status $rc, not 134 (HIP's abort; 124: timed out)"
echo "$out" | grep -q "^kfdsig-emu: $target queue [0-9]*: GWS barrier with 128 workgroups, at most 64 resident ds_gws_barrier at 0x" ||
	bad "big: no line naming the refused GWS barrier"

out=$($to "$kfdsig" exec --emulate "$target,$target" -- "$prog" peer 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || bad "peer: exit status $rc (124: timed out; 139: segfault)"
echo "$out" | grep -qx 'peer: 0 wrong' || bad "no line 'peer: 0 wrong'"
exit $fail
