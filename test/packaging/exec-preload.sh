#!/bin/sh
# kfdsig exec refuses an interposer the loader could not preload (the loader
# would only warn and run the command without it), with one message.
# Usage: exec-preload.sh KFDSIG
set -u
k=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # ENV-VALUE WANT-MESSAGE
  KFDSIG_PRELOAD=$1 "$k" exec -- true >"$tmp/out" 2>"$tmp/err"
  st=$?
  printf 'kfdsig exec: %s\n' "$2" >"$tmp/want"
  if [ $st -ne 1 ] || ! diff -u "$tmp/want" "$tmp/err" || [ -s "$tmp/out" ]; then
    echo "FAIL: KFDSIG_PRELOAD=$1: exit $st"
    fail=1
  fi
}
printf 'not a library\n' >"$tmp/text"
head -c 64 /dev/zero >"$tmp/zeros"
check "$tmp/text" "cannot preload the interposer $tmp/text: not an ELF file"
check "$tmp/zeros" "cannot preload the interposer $tmp/zeros: not an ELF file"
[ $fail -eq 0 ] && echo "exec: unloadable interposers refused"
exit $fail
