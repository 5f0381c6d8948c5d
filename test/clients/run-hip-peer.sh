#!/bin/sh
# run-hip-peer.sh KFDSIG SPEC PROGRAM: run hip_peer (hipcc-built) on the
# emulated KFD of SPEC, two GPUs: of one XGMI hive (the two GCDs of an
# MI250X, an XGMI io_link) or two PCIe cards with large BARs (the kernel's
# p2p_links, with which libhsakmt 5.2.3 gives ROCr a path between them), so
# on the hardware peer access is reported both ways either way. Within a
# timeout: peer access reported and enabled both ways, hipMemcpyPeer,
# hipMemcpyPeerAsync and a kernel reading the peer's memory all give the
# host's values. Exit 77 when the program was not built (no hipcc) or this
# kfdsig has no `exec`.
kfdsig=$1 spec=$2 prog=$3
. "$(dirname "$0")/client-lib.sh"
client_need "$prog" exec 120
out=$($to "$kfdsig" exec --emulate "$spec" -- "$prog" 2>&1)
rc=$?
echo "$out"
fail=0
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc (124: timed out)"; fail=1; }
for want in 'devices: 2' 'can access peer: 1 1' 'peer access enabled' 'memcpy peer: 0 wrong' \
	'memcpy peer async: 0 wrong' 'kernel reads peer: 0 wrong' 'done'; do
	echo "$out" | grep -qx "$want" || { echo "FAIL: no line '$want'"; fail=1; }
done
exit $fail
