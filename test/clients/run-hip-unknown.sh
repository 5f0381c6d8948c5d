#!/bin/sh
# run-hip-unknown.sh KFDSIG HIP_HOST TARGET...: targets ROCm 5.2.3 does not
# know (its ROCr has no ISA for their gfx_target_version: gfx94x, gfx1036,
# gfx11, gfx12) fail under `kfdsig exec --emulate TARGET` as on the
# hardware: ROCr's GpuAgent throws HSA_STATUS_ERROR_INVALID_ISA, ROCr
# prints "Warning: Agent creation failed." and "The GPU node has an
# unrecognized id." and leaves the GPU out, so rocminfo lists no GPU agent
# (and exits 0) and HIP answers hipErrorNoDevice (hip_host exits 1). Exit
# 77 when hip_host was not built (no libamdhip64-dev) or this kfdsig has
# no `exec`; rocminfo's part is left out when rocminfo is not installed.
kfdsig=$1 prog=$2
shift 2
. "$(dirname "$0")/client-lib.sh"
client_need "$prog" exec 60
for target in "$@"; do
	if command -v rocminfo >/dev/null; then
		out=$($to "$kfdsig" exec --emulate "$target" -- rocminfo 2>&1)
		rc=$?
		[ $rc -eq 0 ] || bad "$target: rocminfo exit status $rc"
		echo "$out" | grep -qx 'The GPU node has an unrecognized id.' ||
			bad "$target: rocminfo: no 'unrecognized id' from ROCr"
		! echo "$out" | grep -qE '^ +Name: +gfx' || bad "$target: rocminfo lists a GPU agent"
	fi
	out=$($to "$kfdsig" exec --emulate "$target" -- "$prog" "$target" x 1 64 2>&1)
	rc=$?
	echo "$out" | sed "s/^/  $target | /"
	[ $rc -eq 1 ] || bad "$target: hip_host exit status $rc, not 1"
	echo "$out" | grep -qx 'Warning: Agent creation failed.' ||
		bad "$target: no 'Agent creation failed.' from ROCr"
	echo "$out" | grep -q 'hipGetDeviceCount.*hipErrorNoDevice' ||
		bad "$target: HIP did not answer hipErrorNoDevice"
done
exit $fail
