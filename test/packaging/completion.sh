#!/bin/bash
# The bash completion generated from the command table: source it and ask
# _kfdsig for completions with COMP_WORDS/COMP_CWORD set, no bash-completion
# helpers. Usage: completion.sh KFDSIG [SCRIPT]
set -u
k=$1
script=${2:-}
if [ -z "$script" ]; then script=$(mktemp); "$k" completion bash >"$script"; fi
# shellcheck disable=SC1090
source "$script"
fail=0
ask() { # ask "WANT" WORD...: the last word is completed
  local want=$1; shift
  COMP_WORDS=(kfdsig "$@"); COMP_CWORD=$#
  COMPREPLY=()
  _kfdsig
  local got="${COMPREPLY[*]}"
  if [ "$got" != "$want" ]; then
    echo "FAIL: kfdsig $* -> '$got', expected '$want'"; fail=1
  fi
}
ask "emit" em
ask "decode devices debug" de
ask "--target" emit --tar
ask "gfx1100 gfx1101 gfx1102 gfx1103" emit -t gfx110
ask "gfx1100 gfx1101 gfx1102 gfx1103" emit --target gfx110
ask "gfx1100 gfx1101 gfx1102 gfx1103" emit --target = gfx110
ask "pm4 sdma aql userq" emit --engine ""
ask "pm4 sdma shader aql" signal -E ""
ask "--engine --event --emulate" signal --e
ask "gfx900 gfx902 gfx904 gfx906 gfx908 gfx909 gfx90a gfx90c" --emulate gfx90
ask "gfx803,gfx90a" --emulate gfx803,gfx90a
ask "devices" --emulate gfx90a dev
ask "vmfault,queue_eviction vmfault,queue_restore" smi --events vmfault,queue_
ask "events.max events.manual-reset" test --case events.ma
ask "--tap" test --ta
ask "--samples" bench --sa
ask "--json --json-seq" targets --js
ask "gfx940 gfx941 gfx942" targets gfx94
ask "text json" decode -f ""
ask "gfx90a,smi=thermal_throttle" --emulate gfx90a,smi=therm
ask "gfx90a,smi=vmfault+thermal_throttle" --emulate gfx90a,smi=vmfault+therm
ask "--version" --vers
d=$(mktemp -d); touch "$d/input-one"
ask "$d/input-one" exec -- cat "$d/input-o"
rm -rf "$d"
ask "--pretty" emit -t gfx90a --pre
# every command's options are offered, from the table
for c in $("$k" completion commands); do
  for o in $("$k" completion options "$c" | sed 's/^-. //'); do
    COMP_WORDS=(kfdsig "$c" "$o"); COMP_CWORD=2; COMPREPLY=(); _kfdsig
    case " ${COMPREPLY[*]} " in *" $o "*) ;; *) echo "FAIL: $c $o not offered"; fail=1 ;; esac
  done
done
[ $fail -eq 0 ] && echo "ok: completion"
exit $fail
