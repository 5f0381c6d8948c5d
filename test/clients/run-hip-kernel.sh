#!/bin/sh
# run-hip-kernel.sh KFDSIG TARGET PROGRAM [sdma|blit]: run hip_kernel
# (hipcc-built) on the emulated KFD of TARGET, each run bounded by
# timeout(1) so that a wait that never ends fails the test:
#  1. every step that must succeed, under `kfdsig trace` (with the shader
#     unit's diagnostics, KFDSIG_EMU_VERBOSE=1), each step's line checked;
#     sdma: ROCr's default copies (SDMA queues), blit: HSA_ENABLE_SDMA=0,
#     ROCr copies with its blit kernels on an AQL queue (no SDMA queue);
#  2. sdma only: the sync step (hipDeviceScheduleBlockingSync) under
#     `kfdsig trace`: its waits must be WAIT_EVENTS of the main thread
#     that complete (the interrupt-signal path, not a spin), without an
#     instant-return storm or a wait that slept through its signal;
#  3. sdma only: the fault step (a store to an unmapped page): ROCr's VM
#     fault handler reports the fault and aborts (SIGABRT, 134) within the
#     timeout, and the emulated shader unit names the faulting store; a
#     program left waiting (ROCr never told of the fault) ends with the
#     stall report's status 113 (--stall) once nothing has happened for 5 s.
# Exit 77 when the program was not built (no hipcc) or this kfdsig has no
# `exec`.
kfdsig=$1 target=$2 prog=$3 mode=${4:-sdma}
. "$(dirname "$0")/client-lib.sh"
client_need "$prog" exec 60
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
want_lines() {
	for want in "$@"; do
		echo "$out" | grep -qx "$want" || bad "no line '$want'"
	done
}

# 1. the steps that must succeed
if [ "$mode" = blit ]; then
	HSA_ENABLE_SDMA=0
	export HSA_ENABLE_SDMA
	steps="memset d2d unaligned event"
else
	steps="memset d2d unaligned event reduce atomics"
fi
# shellcheck disable=SC2086
out=$(KFDSIG_EMU_VERBOSE=1 $to "$kfdsig" trace -o "$tmp/steps" --emulate "$target" -- \
	"$prog" $steps 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || bad "steps: exit status $rc (124: timed out)"
want_lines 'vadd: 0 wrong' 'memset: 0 wrong' 'd2d: 0 wrong' 'unaligned: 0 wrong' 'event: ok' 'done'
sdma=$(grep -c 'CREATE_QUEUE .*type=SDMA' "$tmp/steps")
if [ "$mode" = blit ]; then
	[ "$sdma" -eq 0 ] || bad "HSA_ENABLE_SDMA=0 and still $sdma SDMA queues"
	[ "$(grep -c 'CREATE_QUEUE .*type=COMPUTE_AQL' "$tmp/steps")" -ge 3 ] ||
		bad "no AQL queue for ROCr's blit kernels"
	exit $fail
fi
[ "$sdma" -gt 0 ] || bad "no SDMA queue: ROCr's copies did not take the SDMA path"
for want in reduce atomics; do
	echo "$out" | grep -q "^$want: 0 wrong " || bad "no line '$want: 0 wrong ...'"
done

# 2. blocking waits
out=$($to "$kfdsig" trace -o "$tmp/sync" --emulate "$target" -- "$prog" sync 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || bad "sync: exit status $rc (124: timed out)"
want_lines 'sync: ok' 'done'
# the main thread's waits: "[pid P tid P] T WAIT_EVENTS ... = 0 COMPLETE", or
# "[pid P tid P] T <... WAIT_EVENTS resumed> ... = 0 COMPLETE" for a call that blocked
waits=$(awk '$1 == "[pid" && $3 == "tid" && $2 "]" == $4 &&
	($6 == "WAIT_EVENTS" || $7 == "WAIT_EVENTS") &&
	/ = 0 COMPLETE / { n++ } END { print n + 0 }' "$tmp/sync")
echo "main-thread WAIT_EVENTS completed: $waits"
[ "$waits" -ge 2 ] || bad "sync: $waits main-thread WAIT_EVENTS (want >= 2: the waits spun)"
! grep -q 'instant-return storm\|slept through a signal' "$tmp/sync" ||
	bad "sync: $(grep -m1 'instant-return storm\|slept through a signal' "$tmp/sync")"

# 3. a memory access fault
out=$($to "$kfdsig" exec -v --emulate "$target" --stall 5000 -- "$prog" fault 2>&1)
rc=$?
echo "$out" | grep -v '^	\|^PtrInfo:\|^Nearby memory map:\|^0x\|^$'
[ $rc -eq 134 ] || bad "fault: exit status $rc, not 134 (ROCr's abort; 113: stalled, waiting for what nothing will signal; 124: timed out)"
echo "$out" | grep -q '^kfdsig-emu: gfx[0-9a-f]* queue [0-9]*: page fault global_store_dword at 0x[0-9a-f]*: 0x[0-9a-f]* 0x[0-9a-f]* (GLOBAL opcode [0-9]*)$' ||
	bad "fault: the shader unit did not report the faulting store"
echo "$out" | grep -q '^Memory access fault by GPU node-[0-9]* (Agent handle: 0x[0-9a-f]*) on address 0x7ffffff00000\. Reason: Page not present or supervisor privilege\.$' ||
	bad "fault: no 'Memory access fault by GPU node-N ... on address 0x7ffffff00000' from ROCr"
! echo "$out" | grep -q '^fault: hipDeviceSynchronize returned' ||
	bad "fault: hipDeviceSynchronize returned"
exit $fail
