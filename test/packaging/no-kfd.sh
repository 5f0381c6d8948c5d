#!/bin/sh
# Without a KFD, the KFD commands say how to use --emulate, once, and never
# repeat their message's prefix ("no KFD: no KFD:"). Skipped where /dev/kfd
# exists. Usage: no-kfd.sh KFDSIG
set -u
k=$1
[ -e /dev/kfd ] && { echo "this machine has a KFD: skip"; exit 77; }
unset KFDSIG_EMULATE
fail=0
for c in devices "signal" "smi -T 10" "test" "bench -c 1"; do
  # shellcheck disable=SC2086
  err=$("$k" $c 2>&1 >/dev/null </dev/null)
  st=$?
  [ $st -eq 1 ] || { echo "FAIL: kfdsig $c exited $st, expected 1"; fail=1; }
  printf '%s\n' "$err" | grep -q -- "--emulate TARGET" || { echo "FAIL: kfdsig $c: no --emulate hint: $err"; fail=1; }
  printf '%s\n' "$err" | grep -q "no KFD: no KFD\|: \([a-z ]*\): \1:" && { echo "FAIL: kfdsig $c repeats itself: $err"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: no-KFD messages"
exit $fail
