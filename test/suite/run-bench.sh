#!/bin/sh
# kfdsig bench on the emulated KFD, short: it must exit 0 and every figure
# of the JSON must name its device, measure, path, unit and meaning, and
# carry a value (or distribution) unless it says why it was not measured.
#   run-bench.sh KFDSIG
set -u
kfdsig=$1
out=$("$kfdsig" bench --emulate gfx90a,gfx1100 --count 20 --json </dev/null) || {
  echo "kfdsig bench failed"; exit 1; }
figures=$(printf '%s\n' "$out" | grep -c '"measure": ')
bad=$(printf '%s\n' "$out" | grep '"measure": ' |
  grep -v -E '^  \{"device": "gfx(90a|1100)", "gpu_id": [0-9]+, "backend": "emulated", "kfd_version": "1\.18", "kernel": "default", "measure": "(emit|lookup|latency|throughput|irqs)", "path": "[^"]+", "size": (null|1|64|4095), "unit": "[^"]+", ("value": [-0-9.e+]+|"min": [-0-9.e+]+, "p50": [-0-9.e+]+, "p99": [-0-9.e+]+, "max": [-0-9.e+]+, "samples": 20|"value": null, "not_measured": "[^"]+"), "what": "[^"]+"\},?$')
if [ -n "$bad" ]; then
  echo "figures of an unexpected shape:"; printf '%s\n' "$bad"; exit 1
fi
# per device: 4 emit + 9 lookup + 2 irqs + 6 paths x (1 latency + 3
# throughput) + the pm4 GPU-to-wake latency
if [ "$figures" -ne 80 ]; then
  echo "expected 80 figures, got $figures"; exit 1
fi
# interrupts per fence: one for kfdsig's and the unpredicated fence on a
# one-XCC GPU
n=$(printf '%s\n' "$out" | grep '"measure": "irqs"' | grep -c '"value": 1')
[ "$n" -eq 4 ] || { echo "expected 4 irqs figures of 1 interrupt per fence, got $n"; exit 1; }
# the GPU-side figure: measured on both devices, from the emulated GPU clock
n=$(printf '%s\n' "$out" | grep '"measure": "latency", "path": "pm4 gpu-to-wake"' |
  grep -c '"p50": [-0-9.e+]*, .*"what": "GPU-to-wake: .*GET_CLOCK_COUNTERS samples (derived rate [0-9.]* MHz)')
[ "$n" -eq 2 ] || { echo "expected 2 measured pm4 gpu-to-wake figures, got $n"; exit 1; }
n=$(printf '%s\n' "$out" | grep '"measure": "latency", "path": "pm4"' | grep -c '"what": "host submit-to-wake: ')
[ "$n" -eq 2 ] || { echo "expected 2 pm4 host submit-to-wake figures, got $n"; exit 1; }
for m in emit lookup latency throughput irqs; do
  n=$(printf '%s\n' "$out" | grep -c "\"measure\": \"$m\", .*\"value\": [0-9]\|\"measure\": \"$m\", .*\"p50\": [0-9]")
  [ "$n" -gt 0 ] || { echo "no measured $m figure"; exit 1; }
done
# nothing the emulator can measure is missing: only engine paths may be
printf '%s\n' "$out" | grep '"not_measured"' | grep -v -E '"path": "(pm4|sdma|shader|aql)"' && {
  echo "a CPU or emulator figure was not measured"; exit 1; }
echo "ok: $figures figures"
