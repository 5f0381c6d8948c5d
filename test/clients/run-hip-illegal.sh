#!/bin/sh
# run-hip-illegal.sh KFDSIG TARGET PROGRAM: run hip_illegal (hipcc-built) on
# the emulated KFD of TARGET under `kfdsig exec` (without -v), bounded by
# timeout(1). The illegal instruction must reach ROCr as on a GPU: its
# trap handler's queue error, ROCr's HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION
# to HIP's queue callback, which aborts (SIGABRT, 134) - not a wait that
# never ends (113: the stall report, --stall; 124). Exactly one line from
# the emulator names the instruction: target, queue, reason, mnemonic,
# address and its one dword.
# Exit 77 when the program was not built (no hipcc) or this kfdsig has no
# `exec`.
kfdsig=$1 target=$2 prog=$3
. "$(dirname "$0")/client-lib.sh"
client_need "$prog" exec 60
# --stall: a program left waiting (ROCr never told of the error) ends
# with status 113 once nothing has happened for 5 s, not at the timeout
out=$(env -u KFDSIG_EMU_VERBOSE $to "$kfdsig" exec --emulate "$target" --stall 5000 -- "$prog" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 134 ] || bad "exit status $rc, not 134 (HIP's abort; 113: stalled, waiting for what nothing will signal; 124: timed out)"
echo "$out" | grep -q 'callbackQueue aborting with error : HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: ' ||
	bad "no HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION from ROCr through HIP's queue callback"
! echo "$out" | grep -q '^illegal: hipDeviceSynchronize returned' ||
	bad "hipDeviceSynchronize returned"
# gfx8/gfx9: SOPP opcode 31 is no instruction; gfx10.3: s_code_end, not to be run
case $target in
gfx8* | gfx9*) what='unimplemented instruction unknown' ;;
*) what='illegal instruction s_code_end' ;;
esac
n=$(echo "$out" | grep -c '^kfdsig-emu: ')
[ "$n" -eq 1 ] || bad "$n lines from the emulator, not 1"
echo "$out" | grep -q "^kfdsig-emu: $target queue [0-9]*: $what at 0x[0-9a-f]*: 0xbf9f0000 (SOPP opcode 31)\$" ||
	bad "no line 'kfdsig-emu: $target queue N: $what at ADDRESS: 0xbf9f0000 (SOPP opcode 31)'"
exit $fail
