#!/bin/sh
# run-client.sh KFDSIG SPEC CLIENT [ARG...]: run a libhsakmt client under
# `kfdsig exec --emulate SPEC`. hsakmt_props and drm_amdgpu get the values
# `kfdsig devices --json` reports for the same emulated GPU, to compare.
# Exit 77 (skip) when the client was not built (no libhsakmt-dev) or this
# kfdsig has no `exec`.
kfdsig=$1 spec=$2 client=$3
shift 3
target=${spec%%,*}
if [ ! -x "$client" ]; then
	echo "SKIP: $(basename "$client") not built: libhsakmt-dev, libhsa-runtime-dev or libamdhip64-dev not installed"
	exit 77
fi
if ! "$kfdsig" exec --help >/dev/null 2>&1; then
	echo "SKIP: this kfdsig has no 'exec' (the LD_PRELOAD interposer)"
	exit 77
fi
case $(basename "$client") in
*hsakmt_props* | *drm_amdgpu*)
	command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
	vals=$("$kfdsig" --emulate "$target" devices --json | jq -r '.devices[0] |
		"\(.gpu_id) \(.device_id) \(.simd_count) \(.gfx_target_version)
		 \(.drm_render_minor) \(.num_sdma_engines) \(.num_sdma_xgmi_engines)
		 \(.fw_version) \(.local_mem_size)"') || exit 1
	# shellcheck disable=SC2086
	set -- $vals
	;;
esac
exec "$kfdsig" exec --emulate "$spec" -- "$client" "$@"
