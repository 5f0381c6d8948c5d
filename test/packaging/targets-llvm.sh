#!/bin/sh
# SPDX-License-Identifier: MIT
# kfdsig targets' llvm22 column against LLVM 22 itself: for every target of
# the table, llc -mcpu=NAME either accepts the name (column "yes") or
# answers "is not a recognized processor" (column "no"). Skips (77) without
# LLVM 22's llc.
# Usage: targets-llvm.sh KFDSIG LLVM22_BIN
set -eu
kfdsig=$1
llc=$2/llc
[ -x "$llc" ] || { echo "no $llc: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'define void @f() {\n  ret void\n}\n' >"$work/f.ll"
"$kfdsig" targets >"$work/table"
col=$(head -1 "$work/table" | tr -s ' ' '\n' | grep -n '^llvm22$' | cut -d: -f1)
[ -n "$col" ] || { echo "no llvm22 column in kfdsig targets"; exit 1; }

tail -n +2 "$work/table" | while read -r line; do
	name=$(echo "$line" | awk '{print $1}')
	said=$(echo "$line" | awk -v c="$col" '{print $c}')
	if "$llc" -mtriple=amdgcn-amd-amdhsa -mcpu="$name" -o /dev/null "$work/f.ll" 2>&1 |
		grep -q 'not a recognized processor'; then
		llvm=no
	else
		llvm=yes
	fi
	if [ "$said" != "$llvm" ]; then
		echo "FAIL: $name: kfdsig targets says llvm22=$said, LLVM 22's llc says $llvm"
		echo x >>"$work/failed"
	fi
done
n=$(($(wc -l <"$work/table") - 1))
if [ -e "$work/failed" ]; then
	exit 1
fi
"$kfdsig" targets -j >"$work/json"
python3 - "$work/json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
bad = [r["name"] for r in rows if "llvm_removed_in" not in r]
if bad:
    sys.exit("FAIL: no llvm_removed_in for " + ", ".join(bad))
PY
echo "targets-llvm: $n targets agree with LLVM 22's llc"
