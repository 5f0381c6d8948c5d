#!/bin/sh
# The clone rule of check-exports.sh (clone-base.sed) on names written out
# here: a clone is judged as the function it was made from, and nothing but
# a clone suffix is stripped.
# Usage: clone-base.sh SED_FILE
set -eu
sed_file=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# name<TAB>what the rule must make of it
cat >"$tmp/cases" <<'CASES'
kfdsig_decode_input_detect.part.0	kfdsig_decode_input_detect
kfdsig_decode_input_detect.part.12	kfdsig_decode_input_detect
kfdsig_pm4_emit_fence.cold	kfdsig_pm4_emit_fence
kfdsig_pm4_emit_fence.cold.3	kfdsig_pm4_emit_fence
kfdsig_x.isra.0	kfdsig_x
kfdsig_x.constprop.7	kfdsig_x
kfdsig_x.lto_priv.0	kfdsig_x
kfdsig_x.constprop.0.isra.0	kfdsig_x
kfdsig_x.isra.0.cold	kfdsig_x
kfdsig_x.part.0.constprop.1.cold.2	kfdsig_x
kfdsig_x.localalias	kfdsig_x
kfdsig_x.llvm.1234567890	kfdsig_x
kfdsig_plain	kfdsig_plain
kfdsig_x.part	kfdsig_x.part
kfdsig_x.partial.0	kfdsig_x.partial.0
kfdsig_x.isra.a	kfdsig_x.isra.a
kfdsig_x.cold.x	kfdsig_x.cold.x
kfdsig_x.other.0	kfdsig_x.other.0
kfdsig_part.0	kfdsig_part.0
CASES
cut -f1 "$tmp/cases" | sed -f "$sed_file" >"$tmp/got"
cut -f2 "$tmp/cases" >"$tmp/want"
if ! diff -u "$tmp/want" "$tmp/got"; then
  echo "the clone rule strips the wrong suffixes (- wanted, + got)"
  exit 1
fi
echo "clone rule: $(wc -l <"$tmp/want") names as wanted"
