#!/bin/sh
# Every command that prints reports a write error on its standard output
# (here /dev/full) with a message and exit status 1, also through the
# --pretty filter. Usage: write-errors.sh KFDSIG DATA_DIR
set -u
kfdsig=$1
data=$2
[ -w /dev/full ] || { echo "no /dev/full"; exit 77; }
fail=0
spec=gfx90a
check() {
  err=$(timeout 60 "$kfdsig" --emulate "$spec" "$@" 2>&1 >/dev/full)
  st=$?
  # one message: exactly one line of stderr
  if [ "$st" != 1 ] || ! printf '%s' "$err" | grep -q 'write error' ||
    [ "$(printf '%s\n' "$err" | grep -c .)" != 1 ]; then
    echo "FAIL: kfdsig $* >/dev/full: exit $st, stderr: $err"
    fail=1
  fi
}
for pretty in "" -p; do
  # shellcheck disable=SC2086
  set -- $pretty
  check "$@" --help
  check "$@" --version
  check "$@" help
  check "$@" targets
  check "$@" devices
  check "$@" emit -t gfx90a -e 5 --signal-page 0x200000
  check "$@" emit -t gfx90a -e 5 --signal-page 0x200000 -f json
  check "$@" decode -t gfx90a "$data/two-fences-gfx90a.bin"
  check "$@" shader -t gfx90a
  check "$@" shader -t gfx90a -f elf
  check "$@" signal
  spec=gfx90a,smi=gpu_pre_reset
  check "$@" smi -c 1 -T 2000
  spec=gfx90a
  check "$@" completion bash
  check "$@" test --list
  check "$@" test --case 'events.*'
  check "$@" test --case 'events.*' -j
  check "$@" bench -c 1
done
check test --case 'events.*' --tap
# -o FILE: a write error there too
err=$("$kfdsig" --emulate gfx90a test --case 'events.max' -o /dev/full 2>&1)
st=$?
[ "$st" = 1 ] && printf '%s' "$err" | grep -q 'write error' ||
  { echo "FAIL: kfdsig test -o /dev/full: exit $st, stderr: $err"; fail=1; }
# kfdsig debug's records: the file -o names is named, with the error of
# the write that failed (ENOSPC on /dev/full), not a later errno or EIO;
# on standard output when no COMMAND is started
for out in "-o /dev/full" "-o -"; do
  # shellcheck disable=SC2086
  err=$(timeout 60 "$kfdsig" --emulate gfx90a debug -j $out -- true 2>&1 >/dev/full)
  st=$?
  want="write error on '/dev/full': No space left on device"
  [ "$out" = "-o -" ] && want="write error on standard output: No space left on device"
  [ "$st" = 1 ] && printf '%s' "$err" | grep -qF "$want" ||
    { echo "FAIL: kfdsig debug -j $out -- true >/dev/full: exit $st, stderr: $err"; fail=1; }
done
# standard output closed: the message names the closed descriptor, not a
# stale errno of an earlier call
for cmd in "targets" "--emulate gfx90a,smi=gpu_pre_reset smi -c 1 -T 2000"; do
  # shellcheck disable=SC2086
  err=$(timeout 60 "$kfdsig" $cmd 2>&1 >&-)
  st=$?
  [ "$st" = 1 ] && [ "$(printf '%s\n' "$err" | grep -c .)" = 1 ] &&
    printf '%s' "$err" | grep -q 'write error.*: Bad file descriptor$' ||
    { echo "FAIL: kfdsig $cmd >&-: exit $st, stderr: $err"; fail=1; }
done
exit $fail
