#!/bin/bash
# The main job: build kfdsig and show what it does. On a machine with an AMD
# GPU behind /dev/kfd it works on the hardware; otherwise on the emulated
# device.
set -eu
cd "$(dirname "$0")/.."
source ./scripts/deps.sh
kfdsig_install_deps
cmake --preset release >/dev/null
cmake --build --preset release >/dev/null
kfdsig=./build/release/tools/kfdsig

echo "== kfdsig $($kfdsig --version | cut -d' ' -f2-): the GPU targets it knows"
$kfdsig targets
echo
echo "== the fence that signals event 42 of a signal page at 0x7f0000000000, per generation"
for t in gfx803 gfx90a gfx942 gfx1030 gfx1100 gfx1201; do
  $kfdsig emit --target $t --event 42 --signal-page 0x7f0000000000 --format annotated
  echo
done
