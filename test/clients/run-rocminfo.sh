#!/bin/sh
# run-rocminfo.sh KFDSIG SPEC: run Debian's rocminfo under
# `kfdsig exec --emulate SPEC` and check it runs to its end and that each
# emulated GPU's answers are those of the product its target stands for
# (docs/kfd-emulation.md, "Products"): the marketing name libdrm's
# amdgpu.ids gives the PCI id and revision, CUs, SIMDs per CU, waves per
# CU, engine clock, cache sizes per level, the ISA with its sramecc/xnack
# features, the VRAM pool, and the L2's cacheline in the topology
# (ROCr 5.2.3 prints a fixed 64 as "Cacheline Size"). Also: the driver
# looks loaded (/proc/modules, /sys/module/amdgpu/initstate, emu_mode 1) in child
# processes. Exit 77 when rocminfo or `kfdsig exec` is missing.
kfdsig=$1 spec=$2
command -v rocminfo >/dev/null || { echo "SKIP: rocminfo not installed"; exit 77; }
"$kfdsig" exec --help >/dev/null 2>&1 || { echo "SKIP: this kfdsig has no 'exec'"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }

out=$("$kfdsig" exec --emulate "$spec" -- rocminfo 2>&1)
rc=$?
[ $rc -eq 0 ] || bad "rocminfo exit status $rc"
echo "$out" | grep -q '^\*\*\* Done \*\*\*' || bad "rocminfo did not reach '*** Done ***'"
echo "$out" | grep -q 'ROCk module is loaded' || bad "rocminfo: ROCk module not seen as loaded"

# The driver as child processes see it.
mods=$("$kfdsig" exec --emulate "$spec" -- sh -c 'cat /proc/modules; cat /sys/module/amdgpu/initstate
	echo "emu_mode=$(cat /sys/module/amdgpu/parameters/emu_mode)"')
echo "$mods" | grep -q '^amdgpu [0-9]* [0-9]* - Live 0x' || bad "no amdgpu line in /proc/modules: $mods"
echo "$mods" | grep -qx 'live' || bad "/sys/module/amdgpu/initstate is not 'live'"
# amdgpu's emu_mode parameter: 1, the ASIC is emulated
echo "$mods" | grep -qx 'emu_mode=1' || bad "/sys/module/amdgpu/parameters/emu_mode is not 1"
if command -v lsmod >/dev/null; then
	"$kfdsig" exec --emulate "$spec" -- sh -c 'lsmod 2>/dev/null | grep -q "^amdgpu "' ||
		bad "lsmod does not list amdgpu"
fi

# The GPU agents' blocks, in node order: agent i+1 of the GPUs is block i.
gpu_block() {
	echo "$out" | awk -v want="$1" '
		/^Agent [0-9]+/ { n++ }
		{ text[n] = text[n] $0 "\n" }
		/Device Type: *GPU/ { gpu[++g] = n }
		END { if (gpu[want]) printf "%s", text[gpu[want]] }'
}

# field VALUE: the line "FIELD: VALUE" (spaces squeezed) is in the block
has() {
	echo "$blk" | sed 's/  */ /g; s/^ //; s/ *$//' | grep -qxF "$1" || bad "GPU $i ($t): no line '$1'"
}

i=0
for t in $(echo "$spec" | tr ',' ' '); do
	case $t in *=*) continue ;; esac
	i=$((i + 1))
	blk=$(gpu_block $i)
	[ -n "$blk" ] || { bad "GPU $i ($t): no agent in rocminfo's output"; continue; }
	# name|CUs|SIMDs per CU|waves per CU|MHz|wave size|L1|L2|L3 (or -)|ISA|VRAM KiB|L2 line
	case $t in
	gfx900) want='AMD Radeon Instinct MI25|64|4|40|1500|64|16|4096|-|gfx900:xnack-|16777216|64' ;;
	gfx90a) want='AMD Instinct MI250X / MI250|110|4|32|1700|64|16|8192|-|gfx90a:sramecc+:xnack-|67108864|128' ;;
	gfx1030) want='AMD Radeon RX 6800 XT|72|2|32|2575|32|16|4096|131072|gfx1030|16777216|128' ;;
	*) continue ;;
	esac
	IFS='|' read -r name cu simd waves mhz wsz l1 l2 l3 isa vram line <<EOF
$want
EOF
	has "Marketing Name: $name"
	has "Compute Unit: $cu"
	has "SIMDs per CU: $simd"
	has "Max Waves Per CU: $waves($(printf '0x%x' "$waves"))"
	has "Max Clock Freq. (MHz): $mhz"
	has "Wavefront Size: $wsz($(printf '0x%x' "$wsz"))"
	has "L1: $l1($(printf '0x%x' "$l1")) KB"
	has "L2: $l2($(printf '0x%x' "$l2")) KB"
	if [ "$l3" = - ]; then
		echo "$blk" | grep -q ' L3:' && bad "GPU $i ($t): an L3 the product does not have"
	else
		has "L3: $l3($(printf '0x%x' "$l3")) KB"
	fi
	has "Name: amdgcn-amd-amdhsa--$isa"
	has "Size: $vram($(printf '0x%x' "$vram")) KB"
	# The topology's L2 (kfd_topology.c kfd_cache_show) and its type:
	# data + HSACU (kfd_topology.h HSA_CACHE_TYPE_*), never the CPU bit.
	caches=$("$kfdsig" exec --emulate "$spec" -- sh -c \
		"cat /sys/devices/virtual/kfd/kfd/topology/nodes/$i/caches/*/properties")
	got=$(echo "$caches" | awk '/^level /{l=$2} /^cache_line_size /{ if (l == 2) print $2 }')
	[ "$got" = "$line" ] || bad "GPU $i ($t): topology L2 cacheline '$got', want $line"
	types=$(echo "$caches" | awk '/^type /{print $2}' | sort -u | tr '\n' ' ')
	for ty in $types; do
		if [ $((ty & 8)) -eq 0 ] || [ $((ty & 4)) -ne 0 ]; then
			bad "GPU $i ($t): cache type $ty is not HSACU-only"
		fi
	done
done
[ $fail -eq 0 ] || { echo "$out" | tail -40; exit 1; }
echo "rocminfo under kfdsig exec --emulate $spec: ok ($i GPUs)"
