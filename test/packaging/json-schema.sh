#!/bin/sh
# Every command's JSON output validates against its schema in docs/schema/
# (python3-jsonschema): one document, or for the streaming commands (decode,
# smi, signal) every JSON Lines record; --pretty and --json-seq keep the
# same documents. Usage: json-schema.sh KFDSIG SCHEMA_DIR DATA_DIR WORK
set -u
k=$1
schemas=$2
data=$3
work=$4
python3 -c 'import jsonschema' 2>/dev/null || { echo "no python3-jsonschema: skip"; exit 77; }
rm -rf "$work"; mkdir -p "$work"
fail=0
check() { # check SCHEMA MODE(doc|lines|seq) ARGS...
  schema=$1; mode=$2; shift 2
  "$k" "$@" >"$work/out" 2>"$work/err" </dev/null
  st=$?
  [ $st -le 1 ] || { echo "FAIL: kfdsig $* exited $st: $(cat "$work/err")"; fail=1; return; }
  python3 - "$schemas/$schema.json" "$mode" "$work/out" <<'PY' || { echo "FAIL: kfdsig $*"; fail=1; }
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
mode, text = sys.argv[2], open(sys.argv[3]).read()
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
if mode == "doc":
    docs = [json.loads(text)]
elif mode in ("lines", "lines0"):
    docs = [json.loads(l) for l in text.splitlines() if l.strip()]
else:  # RFC 7464: RS before every record
    assert text.startswith("\x1e"), "no RS before the first record"
    docs = [json.loads(r) for r in text.split("\x1e")[1:]]
assert docs or mode == "lines0", "no JSON"
for d in docs:
    errs = sorted(v.iter_errors(d), key=str)
    if errs:
        print(errs[0].message, "at", list(errs[0].path)); sys.exit(1)
PY
}
check targets doc targets -j
check targets doc -p targets gfx90a gfx1100
check emit doc emit -t gfx90a -e 5 --signal-page 0x7f0000000000 -j
check emit doc -j emit -E sdma -t gfx1100 -e 42 --signal-page 0x100000
check emit doc emit -t gfx942 -e 77 --signal-page 0x100000 --format json --pretty
check decode lines decode -t gfx90a --lint --signal-page 0x7f0000200000 -j "$data/pm4-fence-gfx90a.hex"
check decode seq decode -t gfx1100 -E sdma --json-seq "$data/sdma-one-fence-gfx1100.hex"
check devices doc --emulate gfx90a,gfx1100 devices -j
check devices doc devices --emulate=gfx942,kfd=1.13 --pretty
check signal lines --emulate gfx90a signal -E sdma -c 2 -j
check signal seq signal --emulate gfx1100 -E shader -e 300 --json-seq
# the emulated KFD raises no SMI event by itself: the records, if any, validate
check smi lines0 --emulate gfx90a smi -j -T 10
check shader doc shader -t gfx90a -j
check shader doc shader -t gfx803 -e 300 --signal-page 0x7f00000000 -f json -q
check test doc test --emulate gfx90a --case 'events.*,irq.wrong-id' -j
check test-list doc test --list -j
check bench doc bench --emulate gfx90a -c 10 -j
[ $fail -eq 0 ] && echo "ok: every command's JSON matches its schema"
exit $fail
