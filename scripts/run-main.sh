#!/bin/bash
# The main job: build kfdsig and run the interrupt-path suite. With an AMD GPU
# behind /dev/kfd it runs on the hardware; otherwise on the emulated KFD, one
# emulated GPU per generation kfdsig knows. Exits non-zero if any check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source ./scripts/deps.sh
kfdsig_install_deps
cmake --preset release >/dev/null
cmake --build --preset release >/dev/null
kfdsig=./build/release/tools/kfdsig

cat <<'TXT'
kfdsig makes AMD GPUs wake KFD event waiters: a GPU engine (the compute
command processor, an SDMA engine or a shader) stores into the event's slot of
the process's signal page and raises an interrupt; the kernel (amdkfd) finds
the event from the interrupt's id and wakes whoever sleeps in WAIT_EVENTS.
Each row below is one check of that path: PASS, FAIL with the reason, or SKIP
with the reason; where kernels differ, a note after PASS says which behaviour
was expected and seen.
TXT
echo
if $kfdsig devices >/dev/null 2>&1; then
  echo "== this machine's GPUs"
  $kfdsig devices
  echo
  echo "== the interrupt-path suite on the hardware"
  $kfdsig test
  echo
  echo "== what it costs"
  $kfdsig bench --count 200
  exit 0
fi

echo "== no AMD GPU here: the emulated KFD (docs/kfd-emulation.md) stands in for"
echo "   amdkfd, with engines that execute kfdsig's packets by their own decoding"
echo
echo "== every check on one emulated GPU (gfx90a, MI200)"
$kfdsig test --emulate gfx90a
echo
echo "== the same checks on every generation kfdsig knows (failures and skips shown)"
$kfdsig test --emulate all | grep -v '^PASS'
echo
echo "== on a v6.14-v6.18 kernel, which drops interrupts naming an unsignalled slot"
$kfdsig test --emulate gfx90a,gfx1100 --kernel-profile v6.14 \
  --case 'irq.wrong-id,irq.ctx0-drop,gpu.invalid-event.*'
echo
echo "== what it costs on the emulator (host clocks: the emulator's cost, not a GPU's)"
$kfdsig bench --emulate gfx90a --count 200
