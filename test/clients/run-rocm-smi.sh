#!/bin/sh
# run-rocm-smi.sh KFDSIG SPEC [STATUS]: Debian's rocm-smi (rocm_smi_lib
# 5.2.3) under `kfdsig exec --emulate SPEC`: it finds every emulated GPU
# through /sys/class/drm/cardN and the KFD topology, prints a row per GPU
# and exits STATUS (default 0), and what it reports agrees with the
# topology: each card's device id, PCI bus and VRAM total are the node's
# device_id, location_id and memory bank (read from the emulator's own sysfs
# by a second run, which exits 0). On an APU rocm-smi 5.2.3 exits 2, as on
# the hardware: amdgpu shows no fan there (amdgpu_pm.c), and rocm-smi
# returns the status of every call that failed, the fan's included. Exit
# 77 without rocm-smi.
kfdsig=$1 spec=$2 want=${3:-0}
command -v rocm-smi >/dev/null || { echo "SKIP: rocm-smi not installed"; exit 77; }
. "$(dirname "$0")/client-lib.sh"
client_need "" exec 120
out=$($to "$kfdsig" exec --emulate "$spec" -- rocm-smi 2>&1)
rc=$?
echo "$out"
[ $rc -eq "$want" ] || bad "rocm-smi: exit status $rc, not $want"
n=$(echo "$spec" | tr ',' '\n' | grep -c '^gfx')
rows=$(echo "$out" | grep -cE '^[0-9]+ +[0-9.]+c ')
[ "$rows" -eq "$n" ] || bad "$rows GPU rows in the concise table, $n GPUs emulated"
out=$($to "$kfdsig" exec --emulate "$spec" -- rocm-smi --showid --showbus --showmeminfo vram 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || bad "rocm-smi --showid --showbus --showmeminfo vram: exit status $rc"
# the topology of the same spec, as a KFD client reads it
topo=$($to "$kfdsig" exec --emulate "$spec" -- sh -c '
	for n in /sys/class/kfd/kfd/topology/nodes/*; do
		[ "$(cat "$n/gpu_id")" = 0 ] && continue
		p=$n/properties
		size=$(awk "/size_in_bytes/ {print \$2}" "$n/mem_banks/0/properties" 2>/dev/null)
		echo "$(awk "/^device_id/ {print \$2}" "$p") $(awk "/^location_id/ {print \$2}" "$p") ${size:-0}"
	done')
i=0
echo "$topo" | while read -r did loc size; do
	want_id=$(printf '0x%x' "$did")
	want_bus=$(printf '0000:%02x:%02x.%x' $((loc >> 8)) $(((loc >> 3) & 31)) $((loc & 7)))
	echo "$out" | grep -q "^GPU\[$i\].*GPU ID: $want_id\$" || bad "GPU[$i]: no GPU ID $want_id"
	echo "$out" | grep -q "^GPU\[$i\].*PCI Bus: $want_bus\$" || bad "GPU[$i]: no PCI Bus $want_bus"
	echo "$out" | grep -q "^GPU\[$i\].*VRAM Total Memory (B): $size\$" ||
		bad "GPU[$i]: VRAM total is not the topology's $size"
	i=$((i + 1))
	[ $fail -eq 0 ] || exit 1
done || fail=1
[ -n "$topo" ] || bad "no GPU node in the topology"
exit $fail
