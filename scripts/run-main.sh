#!/bin/bash
# The main job: build kfdsig and run the interrupt-path suite. With an AMD GPU
# behind /dev/kfd it runs on the hardware; otherwise on the emulated KFD, one
# emulated GPU per generation kfdsig knows. It ends with one verdict line over
# every section (cases passed/failed/skipped, where the bench figures and
# plot went) and exits non-zero if any check fails.
#   KFDSIG_BIN=path   use that kfdsig instead of building (the main_job test)
#   KFDSIG_MAIN_SMOKE=1  a few cases and samples only (the main_job test)
#   KFDSIG_MAIN_OUT=dir  where the bench figures and plot go (default build/main)
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -z "${KFDSIG_BIN:-}" ]; then
  source ./scripts/deps.sh
  kfdsig_install_deps main || exit 1
  cmake --preset release >/dev/null || exit 1
  cmake --build --preset release >/dev/null || { cmake --build --preset release; exit 1; }
  kfdsig=./build/release/tools/kfdsig
else
  kfdsig=$KFDSIG_BIN
fi
out=${KFDSIG_MAIN_OUT:-build/main}
mkdir -p "$out"
smoke=${KFDSIG_MAIN_SMOKE:-}
cases=() count=200
[ -n "$smoke" ] && { cases=(--case 'events.max,irq.wrong-id,gpu.signal.pm4,gpu.ctx0-drop.pm4'); count=10; }
passed=0 failed=0 skipped=0 sections=0 status=0

# section TITLE FILTER KFDSIG-ARGS...: run one suite section, show its rows
# (through FILTER), add its summary line to the totals
section() {
  local title=$1 filter=$2 log
  shift 2
  echo "== $title"
  log=$(mktemp)
  "$kfdsig" "$@" | tee "$log" | $filter
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  read -r p f s < <(awk '/^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { print $1, $3, $5 }' "$log" | tail -n 1)
  if [ -z "${p:-}" ]; then echo "(no summary line)"; status=1; p=0 f=0 s=0; fi
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s)) sections=$((sections + 1))
  rm -f "$log"
  echo
}

# clients: programs written against the kernel's KFD by others (they link
# Debian's libhsakmt) run unmodified on the emulated KFD under `kfdsig exec`
clients() {
  local dir=${KFDSIG_CLIENTS_DIR:-build/release/test/clients} c name desc prog out argv
  echo "== unmodified libhsakmt programs on the emulated KFD (kfdsig exec -- PROGRAM)"
  if [ ! -x "$dir/client_hsakmt_events" ] || [ ! -x "$dir/client_hsakmt_queue" ]; then
    echo "SKIP: the libhsakmt clients were not built (libhsakmt-dev missing at configure time)"
    skipped=$((skipped + 1)) sections=$((sections + 1))
    echo
    return
  fi
  # name|description|program and arguments
  for c in "events|4095 events created, set, waited (any/all), reset and destroyed|hsakmt_events" \
    "pm4|a compute ring from hsaKmtCreateQueue: kfdsig's RELEASE_MEM wakes hsaKmtWaitOnEvent|hsakmt_queue gfx90a pm4" \
    "sdma|an SDMA ring from hsaKmtCreateQueue: kfdsig's FENCE + TRAP wakes hsaKmtWaitOnEvent|hsakmt_queue gfx90a sdma"; do
    IFS='|' read -r name desc prog <<<"$c"
    read -r -a argv <<<"$prog"
    if out=$("$kfdsig" exec --emulate gfx90a -- "$dir/client_${argv[0]}" "${argv[@]:1}" 2>&1); then
      echo "PASS  libhsakmt.$name: $desc"
      passed=$((passed + 1))
    else
      echo "FAIL  libhsakmt.$name: $desc: $(tail -n 1 <<<"$out")"
      failed=$((failed + 1))
    fi
  done
  sections=$((sections + 1))
  echo
}

# rocm: Debian's ROCm 5.2.3 runtime on the emulated KFD: rocminfo to its
# end with each target's product (test/clients/run-rocminfo.sh checks the
# figures), and a HIP host program's calls up to its first kernel
rocm() {
  local dir=${KFDSIG_CLIENTS_DIR:-build/release/test/clients} spec out hip
  echo "== the ROCm runtime (Debian's rocminfo and HIP 5.2.3) on the emulated KFD"
  if ! command -v rocminfo >/dev/null; then
    echo "SKIP: rocminfo not installed"
    skipped=$((skipped + 1)) sections=$((sections + 1))
    echo
    return
  fi
  for spec in gfx900 gfx90a gfx1030 gfx90a,gfx1030; do
    if out=$(test/clients/run-rocminfo.sh "$kfdsig" "$spec" 2>&1); then
      echo "PASS  rocminfo --emulate $spec: $("$kfdsig" exec --emulate "$spec" -- rocminfo 2>/dev/null |
        sed -n 's/^ *Marketing Name: *\(.*[^ ]\) *$/\1/p' | tail -n +2 | paste -sd, -)"
      passed=$((passed + 1))
    else
      echo "FAIL  rocminfo --emulate $spec: $(grep FAIL <<<"$out" | head -n 1)"
      failed=$((failed + 1))
    fi
  done
  for hip in "gfx900|AMD Radeon Instinct MI25|64|64" "gfx90a|AMD Instinct MI250X / MI250|110|64" \
    "gfx1030|AMD Radeon RX 6800 XT|36|32"; do
    IFS='|' read -r spec name cus wave <<<"$hip"
    if [ ! -x "$dir/client_hip_host" ]; then
      echo "SKIP  HIP host calls: not built (libamdhip64-dev missing at configure time)"
      skipped=$((skipped + 1))
      break
    fi
    if out=$("$kfdsig" exec --emulate "$spec" -- "$dir/client_hip_host" "$spec" "$name" "$cus" \
      "$wave" 2>&1); then
      echo "PASS  HIP: device count, properties, flags, hipMalloc/hipHostMalloc, events on $spec"
      passed=$((passed + 1))
    else
      echo "FAIL  HIP on $spec: $(tail -n 1 <<<"$out")"
      failed=$((failed + 1))
    fi
  done
  sections=$((sections + 1))
  echo
}

# kernels: compiled kernels (hip_kernel.hip, built by hipcc: a vector add,
# ROCr's blit kernels for memset and copies) on the emulated shader unit's
# kernel interpreter under `kfdsig trace`, which records each interrupt the
# GPU raises and each WAIT_EVENTS: the row counts the interrupts that set a
# KFD event and the waits they woke, the event step's among them
# (hipEventSynchronize on a blocking-sync event sleeps in WAIT_EVENTS until
# the packet processor's interrupt after the kernel)
kernels() {
  local dir=${KFDSIG_CLIENTS_DIR:-build/release/test/clients} spec out trace irqs eop wakes
  local specs=(gfx90a gfx1030 gfx900)
  [ -n "$smoke" ] && specs=(gfx90a)
  echo "== compiled kernels on the emulated shader unit (HIP, hipcc-built, under kfdsig trace)"
  if [ ! -x "$dir/hip_kernel" ]; then
    echo "SKIP: the HIP kernel program was not built (hipcc missing at configure time)"
    skipped=$((skipped + 1)) sections=$((sections + 1))
    echo
    return
  fi
  trace=$(mktemp)
  for spec in "${specs[@]}"; do
    if out=$("$kfdsig" trace -o "$trace" --emulate "$spec" -- "$dir/hip_kernel" memset d2d event 2>&1) &&
      grep -qx 'event: ok' <<<"$out" && grep -qx 'done' <<<"$out"; then
      irqs=$(grep -c '^\[pid .*\] [0-9.]* irq .*, set [0-9]*$' "$trace")
      eop=$(grep -c '^\[pid .*\] [0-9.]* irq cp-eop .*, set [0-9]*$' "$trace")
      wakes=$(grep -c '^\[pid .*\] [0-9.]* \(<\.\.\. \)\?WAIT_EVENTS .* = 0 COMPLETE' "$trace")
      echo "PASS  kernels.$spec: $(grep -E '^(vadd|memset|d2d|event):' <<<"$out" | paste -sd, - |
        sed 's/,/, /g'); GPU interrupts that set a KFD event: $irqs ($eop end-of-pipe)," \
        "WAIT_EVENTS woken: $wakes"
      passed=$((passed + 1))
    else
      echo "FAIL  kernels.$spec: $(tail -n 1 <<<"$out")"
      failed=$((failed + 1))
    fi
  done
  # device printf (hip_printf.hip): HIP's hostcall, each line formatted by
  # a wave that raises an interrupt for the hostcall's KFD event, which
  # wakes the runtime's listener thread; every line must come exactly once
  if [ -x "$dir/hip_printf" ]; then
    for spec in "${specs[@]}"; do
      if out=$("$kfdsig" trace -o "$trace" --emulate "$spec" -- "$dir/hip_printf" 2>/dev/null) &&
        [ "$(printf_want)" = "$(sort <<<"$out")" ]; then
        irqs=$(grep -c '^\[pid .*\] [0-9.]* irq sq-msg .*, set [0-9]*$' "$trace")
        wakes=$(awk '$1 == "[pid" && $3 == "tid" && $2 "]" != $4 &&
          ($6 == "WAIT_EVENTS" || $7 == "WAIT_EVENTS") &&
          / = 0 COMPLETE / { n++ } END { print n + 0 }' "$trace")
        echo "PASS  kernels.printf.$spec: $(wc -l <<<"$out") lines from 3 blocks x 4 threads x 2" \
          "launches, each once; wave interrupts that set a KFD event: $irqs, listener" \
          "WAIT_EVENTS woken: $wakes"
        passed=$((passed + 1))
      else
        echo "FAIL  kernels.printf.$spec: device printf lines lost, doubled or wrong: $(tail -n 1 <<<"$out")"
        failed=$((failed + 1))
      fi
    done
  fi
  rm -f "$trace"
  sections=$((sections + 1))
  echo
}

# the lines hip_printf prints, sorted
printf_want() {
  local r b t
  for r in 0 1; do
    for b in 0 1 2; do
      for t in 0 16 32 48; do
        printf 'round %d block %d thread %d: id %d %d.%02d\n' $r $b $t $((b * 64 + t)) \
          $((t / 4)) $((t % 4 * 25))
      done
    done
  done | sort
}

# lostwait: the lost wake-up a user files as "GPU idle, host stuck": a
# libhsakmt program writes its event's slot without the interrupt and sleeps
# with an infinite timeout; kfdsig trace's in-flight detector must name the
# event while the program hangs (--fail-on lost then kills it). The row shows
# how long the wait had been in flight when it was named, beside the bound.
lostwait() {
  local dir=${KFDSIG_CLIENTS_DIR:-build/release/test/clients} trace st line ev waited
  echo "== the lost wake-up, named while the program hangs (kfdsig trace --fail-on lost)"
  if [ ! -x "$dir/client_lost_wakeup" ]; then
    echo "SKIP: the lost wake-up program was not built (libhsakmt-dev missing at configure time)"
    skipped=$((skipped + 1)) sections=$((sections + 1))
    echo
    return
  fi
  trace=$(mktemp)
  "$kfdsig" trace --emulate gfx90a --bound 1000 --fail-on lost -o "$trace" -- \
    "$dir/client_lost_wakeup" >/dev/null 2>&1
  st=$?
  line=$(grep -m1 '!! error: lost wait: ' "$trace")
  ev=$(sed -n 's/.* on event \([0-9]*\), .*/\1/p' <<<"$line")
  waited=$(sed -n 's/.* has waited \([0-9.]*\) s on event .*/\1/p' <<<"$line")
  if [ $st -eq 1 ] && [ -n "$ev" ] && grep -q "^    event $ev: slot written (0x[0-9a-f]*), no interrupt set it during the call$" "$trace"; then
    echo "PASS  lost-wait.gfx90a: WAIT_EVENTS on event $ev (timeout=inf) named after ${waited} s" \
      "in flight (bound 1 s): slot written, no interrupt set it; program killed, exit 1"
    passed=$((passed + 1))
  else
    echo "FAIL  lost-wait.gfx90a: exit $st, finding '${line:-none}'"
    failed=$((failed + 1))
  fi
  rm -f "$trace"
  sections=$((sections + 1))
  echo
}

# judges: our programs (test/clients/judge_*.hip, built by hipcc) run AMD's
# library code on the emulated shader unit, rocPRIM's templates compiled
# here and the precompiled kernels of Debian's rocRAND/hipRAND and
# rocSPARSE/hipSPARSE, and compare every result with the host's
# (test/clients/run-judge.sh): a row per library and target
judges() {
  local dir=${KFDSIG_CLIENTS_DIR:-build/release/test/clients} c lib steps spec out
  local specs=(gfx900 gfx90a gfx1030)
  [ -n "$smoke" ] && specs=(gfx90a)
  echo "== AMD's GPU libraries on the emulated shader unit, judged against the host"
  # library|what the steps compute|steps
  for c in "rocprim|radix sort (keys, pairs), multi-block inclusive and exclusive scans, reduce (plus, max), histogram_even|sort pairs inclusive exclusive reduce histogram" \
    "rocrand|Philox, MRG32k3a, XORWOW (device API) and the host API's Philox draws, uniform and normal floats and halfs; hipRAND|philox mrg xorwow host half hiprand" \
    "rocsparse|csrmv (plain, adaptive), csr2csc, dense2csr, csrsv; hipSPARSE csrmv, dense2csr|csrmv csr2csc dense2csr csrsv hipsparse"; do
    IFS='|' read -r lib desc steps <<<"$c"
    if [ ! -x "$dir/judge_$lib" ]; then
      echo "SKIP  judge.$lib: not built (hipcc or lib$lib-dev missing at configure time)"
      skipped=$((skipped + 1))
      continue
    fi
    for spec in "${specs[@]}"; do
      # shellcheck disable=SC2086
      if out=$(test/clients/run-judge.sh "$kfdsig" "$spec" "$dir/judge_$lib" $steps 2>&1); then
        echo "PASS  judge.$lib.$spec: $desc: $(grep -c ': 0 wrong of ' <<<"$out") comparisons with the host's reference, none wrong"
        passed=$((passed + 1))
      else
        echo "FAIL  judge.$lib.$spec: $(grep -m1 'FAIL' <<<"$out")"
        failed=$((failed + 1))
      fi
    done
  done
  sections=$((sections + 1))
  echo
}

cat <<'TXT'
kfdsig makes AMD GPUs wake KFD event waiters: a GPU engine (the compute
command processor, an SDMA engine or a shader) stores into the event's slot of
the process's signal page and raises an interrupt; the kernel (amdkfd) finds
the event from the interrupt's id and wakes whoever sleeps in WAIT_EVENTS.
Each row below is one check of that path: PASS, FAIL with the reason, or SKIP
with the reason (skips: one line per reason); where kernels differ, a note
after PASS says which behaviour was expected and seen.
TXT
echo
if "$kfdsig" devices >/dev/null 2>&1; then
  echo "== this machine's GPUs"
  "$kfdsig" devices
  echo
  section "the interrupt-path suite on the hardware" cat test "${cases[@]}"
  bench=(bench)
else
  echo "== no AMD GPU here: the emulated KFD (docs/kfd-emulation.md) stands in for"
  echo "   amdkfd, with engines that execute kfdsig's packets by their own decoding"
  echo
  section "every check on one emulated GPU (gfx90a, MI200)" cat test --emulate gfx90a "${cases[@]}"
  section "the same checks on every generation kfdsig knows (failures and skips shown)" \
    "grep -v ^PASS" test --emulate all "${cases[@]}"
  section "on a v6.14-v6.18 kernel, which drops interrupts naming an unsignalled slot" cat \
    test --emulate gfx90a,gfx1100 --kernel-profile v6.14 \
    --case 'irq.wrong-id,irq.ctx0-drop,gpu.invalid-event.*'
  section "on Linux 7.1, whose GC 12.1 path trusts the end-of-pipe id without the slot (docs/gc12_1.md)" \
    cat test --emulate gfx1201,gfx1250 --kernel-profile v7.1 \
    --case 'gpu.signal.pm4,gpu.wrong-id.pm4'
  section "on Linux 7.3, which allocates no signal page in the kernel, and KFD 1.22" cat \
    test --emulate gfx90a,gfx1250,kfd=1.22 --kernel-profile v7.3 "${cases[@]}"
  clients
  rocm
  kernels
  lostwait
  judges
  echo "== what it costs on the emulator (host clocks: the emulator's cost, not a GPU's)"
  bench=(bench --emulate gfx90a)
fi
"$kfdsig" -q "${bench[@]}" --count "$count" --samples "$out/bench-samples.csv" \
  --plot "$out/bench.svg" || status=1
"$kfdsig" -q "${bench[@]}" --count "$count" --json >"$out/bench.json" || status=1
echo
verdict=PASS
[ $status -ne 0 ] || [ $failed -ne 0 ] && verdict=FAIL
echo "kfdsig main job: $verdict: $passed passed, $failed failed, $skipped skipped over $sections" \
  "suite sections; bench figures in $out/bench.json (samples $out/bench-samples.csv)," \
  "plot in $out/bench.svg"
[ "$verdict" = PASS ]
