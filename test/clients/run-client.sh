#!/bin/sh
# run-client.sh KFDSIG TARGET CLIENT: run a libhsakmt client under
# `kfdsig exec --emulate TARGET`. hsakmt_props gets the values
# `kfdsig devices --json` reports for the same emulated GPU, to compare.
# Exit 77 (skip) when the client was not built (no libhsakmt-dev) or this
# kfdsig has no `exec`.
kfdsig=$1 target=$2 client=$3
if [ ! -x "$client" ]; then
	echo "SKIP: $(basename "$client") not built: libhsakmt-dev (pkg-config libhsakmt) not found"
	exit 77
fi
if ! "$kfdsig" exec --help >/dev/null 2>&1; then
	echo "SKIP: this kfdsig has no 'exec' (the LD_PRELOAD interposer)"
	exit 77
fi
args=
case $(basename "$client") in
*hsakmt_props*)
	command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
	args=$("$kfdsig" --emulate "$target" devices --json | jq -r '.devices[0] |
		"\(.gpu_id) \(.device_id) \(.simd_count) \(.gfx_target_version)
		 \(.drm_render_minor) \(.num_sdma_engines) \(.num_sdma_xgmi_engines)
		 \(.fw_version) \(.local_mem_size)"') || exit 1
	;;
esac
# shellcheck disable=SC2086
exec "$kfdsig" exec --emulate "$target" -- "$client" $args
