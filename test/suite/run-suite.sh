#!/bin/sh
# The whole interrupt-path suite on the emulated KFD: a few targets (one per
# ISR class and fence form), each kernel profile and a KFD before event age.
# Every run must exit 0 and end with "N passed, 0 failed, N skipped"; a run
# that passes nothing fails too.
#   run-suite.sh KFDSIG
set -u
kfdsig=$1
fail=0
run() {
  out=$("$kfdsig" test "$@" </dev/null 2>&1)
  status=$?
  summary=$(printf '%s\n' "$out" | tail -n 1)
  case $summary in
    *" passed, 0 failed, "*" skipped") ;;
    *) status=99 ;;
  esac
  case $summary in 0\ passed*) status=98 ;; esac
  if [ $status -ne 0 ]; then
    echo "FAILED: kfdsig test $* (status $status)"
    printf '%s\n' "$out" | grep -v '^PASS'
    fail=1
  else
    echo "ok: kfdsig test $*: $summary"
  fi
}
targets=gfx803,gfx900,gfx90a,gfx942,gfx1030,gfx1100,gfx1201
run --emulate "$targets"
run --emulate "$targets" --kernel-profile v6.14
run --emulate gfx90a,gfx1100 --kfd-version 1.13
# multi-XCC nodes: DPX (two nodes of 4 XCCs) and CPX (8 nodes of 1)
run --emulate gfx942,partition=dpx,gfx950,partition=cpx --case 'gpu.multi-xcc.*,gpu.signal.*'
run --emulate gfx90a --kfd-version 1.2 --case 'events.*,smi.*,version.*'
exit $fail
