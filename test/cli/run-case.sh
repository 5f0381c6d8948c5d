#!/bin/sh
# Run one CLI golden case: run-case.sh KFDSIG CASE [--update]
#   CASE       test/cli/<command>/<case> (one folder per kfdsig command,
#              main/ for the global options and dispatch)
#   CASE.args  one line: the arguments (shell words, run from test/cli, so
#              data/x names an input; $DATA is test/cli/data)
#   CASE.out   exact expected stdout
#   CASE.err   exact expected stderr (optional; stderr is not compared without it)
#   CASE.exit  expected exit status (optional, default 0)
# With --update the expectations are rewritten from the actual output.
set -u
kfdsig=$1
case=$2
update=${3:-}
case $kfdsig in /*) ;; *) kfdsig=$(pwd)/$kfdsig ;; esac
case $case in /*) ;; *) case=$(pwd)/$case ;; esac
# Cases name their input files relative to test/cli (this script's folder).
cd "$(dirname "$0")" || exit 1
DATA=$(pwd)/data
export DATA
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

args=$(cat "$case.args")
# shellcheck disable=SC2086
eval "set -- $args"
"$kfdsig" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
status=$?

if [ "$update" = "--update" ]; then
  cp "$tmp/out" "$case.out"
  [ -f "$case.err" ] && cp "$tmp/err" "$case.err"
  if [ "$status" -ne 0 ]; then echo "$status" >"$case.exit"; else rm -f "$case.exit"; fi
  exit 0
fi

want=0
[ -f "$case.exit" ] && want=$(cat "$case.exit")
fail=0
if [ "$status" != "$want" ]; then
  echo "exit status $status, expected $want"; fail=1
fi
if ! diff -u "$case.out" "$tmp/out"; then
  echo "stdout differs from $case.out"; fail=1
fi
if [ -f "$case.err" ] && ! diff -u "$case.err" "$tmp/err"; then
  echo "stderr differs from $case.err"; fail=1
fi
if [ $fail -ne 0 ]; then
  echo "--- stderr was:"; cat "$tmp/err"
fi
exit $fail
