#!/bin/sh
# Every command's JSON output validates against its schema in docs/schema/
# (python3-jsonschema): one document, or for the streaming commands (decode,
# smi, signal) every JSON Lines record; --pretty and --json-seq keep the
# same documents. Each kind of record a command prints is produced at least
# once: `want KEY...` before a check makes it fail unless some record has
# each KEY at its top level (`never KEY...`: unless no record has it).
# Usage: json-schema.sh KFDSIG SCHEMA_DIR DATA_DIR WORK
set -u
k=$1
schemas=$2
data=$3
work=$4
python3 -c 'import jsonschema' 2>/dev/null || { echo "no python3-jsonschema: skip"; exit 77; }
rm -rf "$work"; mkdir -p "$work"
fail=0
ncase=0
: >"$work/cases"
want_keys=
never_keys=
want() { want_keys="$*"; }
never() { never_keys="$*"; }
check() { # check SCHEMA MODE(doc|lines|lines0|seq|stream|text) ARGS...
  schema=$1; mode=$2; shift 2
  ncase=$((ncase + 1))
  if [ "$mode" = text ]; then # a record given as text (one the tests cannot make)
    printf '%s\n' "$1" >"$work/out.$ncase"; mode=doc; st=0
  else
    "$k" "$@" >"$work/out.$ncase" 2>"$work/err" </dev/null
    st=$?
  fi
  w=$want_keys; n=$never_keys; want_keys=; never_keys=
  [ $st -le 1 ] || { echo "FAIL: kfdsig $* exited $st: $(cat "$work/err")"; fail=1; return; }
  # validated all at once below (one python3 start, not one per case)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$ncase" "$schema" "$mode" "$w" "$n" "$*" >>"$work/cases"
}
validate() {
  python3 - "$schemas" "$work" <<'PY' || fail=1
import json, os, sys, jsonschema
schemas, work = sys.argv[1], sys.argv[2]
validators, bad = {}, 0
for line in open(os.path.join(work, "cases")):
    num, name, mode, want, never, what = line.rstrip("\n").split("\t")
    want, never = want.split(), never.split()
    try:
        if name not in validators:
            schema = json.load(open(os.path.join(schemas, name + ".json")))
            jsonschema.Draft202012Validator.check_schema(schema)
            validators[name] = jsonschema.Draft202012Validator(schema)
        v = validators[name]
        text = open(os.path.join(work, "out." + num)).read()
        if mode == "doc":
            docs = [json.loads(text)]
        elif mode in ("lines", "lines0"):
            docs = [json.loads(l) for l in text.splitlines() if l.strip()]
        elif mode == "stream":  # --pretty: indented documents one after the other
            docs, dec, i = [], json.JSONDecoder(), 0
            while text[i:].strip():
                i += len(text[i:]) - len(text[i:].lstrip())
                d, i = dec.raw_decode(text, i)
                docs.append(d)
            assert "\n  " in text, "not indented"
        else:  # RFC 7464: RS before every record
            assert text.startswith("\x1e"), "no RS before the first record"
            recs = text.split("\x1e")[1:]
            assert all(r.endswith("\n") for r in recs), "a record does not end in LF"
            docs = [json.loads(r) for r in recs]
        assert docs or mode == "lines0", "no JSON"
        for d in docs:
            errs = sorted(v.iter_errors(d), key=str)
            if errs:
                raise AssertionError("%s at %s in %s" % (errs[0].message, list(errs[0].path), json.dumps(d)[:300]))
        for key in want:
            assert any(isinstance(d, dict) and key in d for d in docs), "no record has " + key
        for key in never:
            assert not any(isinstance(d, dict) and key in d for d in docs), "a record has " + key
    except Exception as e:  # a failed assertion, bad JSON, a bad schema
        print(e)
        print("FAIL: kfdsig " + what)
        bad = 1
sys.exit(bad)
PY
}
check targets doc targets -j
check targets doc -p targets gfx90a gfx1100
check emit doc emit -t gfx90a -e 5 --signal-page 0x7f0000000000 -j
check emit doc -j emit -E sdma -t gfx1100 -e 42 --signal-page 0x100000
check emit doc emit -t gfx942 -e 77 --signal-page 0x100000 --format json --pretty
check emit doc emit -t gfx90a -E aql -e 5 --signal-page 0x7f0000000000 --signal-va 0x7f0000010040 -j
check emit doc emit -t gfx1151 -E userq --fence-va 0x2000 --wptr 8 --wait 0x1000=1 -j
want name summary
check decode lines decode -t gfx90a --lint --signal-page 0x7f0000200000 -j "$data/pm4-fence-gfx90a.hex"
want name summary
check decode seq decode -t gfx1100 -E sdma --json-seq "$data/sdma-one-fence-gfx1100.hex"
want name summary
check decode stream -p decode -t gfx1100 -E sdma "$data/sdma-one-fence-gfx1100.hex"
# a SKIPPED range and its resync finding, raw dwords (-v)
want skipped raw finding summary
check decode lines decode -t gfx90a -j -v "$data/garbage-front-gfx90a.bin"
want skipped finding summary
check decode seq decode -t gfx90a -E sdma --json-seq --lint "$data/garbage-front-sdma-gfx90a.bin"
# an IB followed into a --mem image: records with ib_depth/ib_va
want ib_depth ib_va finding summary
check decode lines decode -t gfx90a -j --lint --mem 0x10000="$data/ib-image-gfx90a.bin" "$data/ib-ring-gfx90a.bin"
want finding
never summary
check decode lines decode -t gfx90a -j --no-summary --mem 0x20000="$data/ib-loop-gfx90a.bin" "$data/ib-loop-ring-gfx90a.bin"
# a ring window (debugfs header), payload data and a truncated packet
want name summary
check decode lines decode -t gfx90a -j --lint "$data/amdgpu_ring_comp_1.0.0"
printf '0xC0043700 0x00100500 0x200150 0x7f00 0x7 0x0 0xC0043700 0x00100500\n' >"$work/write-data.hex"
want data finding summary
check decode lines decode -t gfx90a -j "$work/write-data.hex"
# the aql engine: packets, completion-signal findings, an AQL_PM4_IB's IB
want name finding summary
check decode lines decode -t gfx90a -E aql -j --lint --signal-page 0x7f0000000000 --mem 0x7f0000010000="$data/aql-signals-gfx90a.bin" "$data/aql-ring-gfx90a.hex"
want ib_depth summary
check decode lines decode -t gfx90a -E aql -j --mem 0x10000="$data/ib-image-gfx90a.bin" "$data/aql-pm4-ib-gfx90a.hex"
check devices doc --emulate gfx90a,gfx1100 devices -j
check devices doc devices --emulate=gfx942,kfd=1.13 --pretty
check signal lines --emulate gfx90a signal -E sdma -c 2 -j
check signal seq signal --emulate gfx1100 -E shader -e 300 --json-seq
check signal lines --emulate gfx1201,mec=3050 signal --userq -c 2 -v -j
check signal lines --emulate gfx90a signal -E aql -e 9 -c 2 -j
# -v: the emulated handler's interrupt records (a dropped one too)
want gpu_id irq
check signal lines --emulate gfx90a signal -E sdma -c 2 -v -j --no-time
want irq
check signal seq --emulate gfx90a,profile=v6.14 signal -e 7 --ctxid 0 -T 50 -v --json-seq
want irq
check signal stream --emulate gfx1030 signal -e 7 --ctxid 5 -v -p
# without the emulator (a GPU) -v prints this once (tools/cmd_signal.c print_trace)
check signal text '{"irq_trace": null}'
# every kind of SMI record, raised by the emulated KFD's smi= injection
want time pid task bitmask counter seq cause ns addr size node from to trigger error flag
check smi lines --emulate gfx90a,smi=vmfault+thermal_throttle+gpu_pre_reset+migrate_end+page_fault_start smi -j -c 5 -T 5000
never time
check smi seq --emulate gfx90a,smi=process_start+queue_eviction smi --json-seq --no-time -c 2 -T 5000
check shader doc shader -t gfx90a -j
check shader doc shader -t gfx803 -e 300 --signal-page 0x7f00000000 -f json -q
check shader doc shader -t gfx1201 --trap -j
# kfdsig debug: a command with no KFD use (attached, exit; -o -: the records on
# standard output, where a started command does not put them), then records as
# a debugged trap_queue client prints them (test/clients/run-debug.sh runs it)
want emulated
check debug lines --emulate gfx90a debug -j -o - -- sh -c true
check debug text '{"type": "exception", "pid": 7, "source": "queue", "gpu_id": 16501, "queue_id": 0, "exceptions": 2, "names": ["EC_QUEUE_WAVE_TRAP"]}'
check debug text '{"type": "queue", "pid": 7, "queue_id": 0, "gpu_id": 16501, "queue_type": "compute", "ring_base_address": 140028782989312, "ring_size": 65536, "ctx_save_restore_address": 140028647829504, "ctx_save_restore_area_size": 36638720, "exceptions": 0, "names": []}'
check debug text '{"type": "device", "pid": 7, "gpu_id": 16501, "gfx_target_version": 90010, "location_id": 256, "device_id": 29708, "simd_count": 240, "capability": 537362432, "debug_prop": 470, "exceptions": 0, "names": []}'
check debug text '{"type": "suspend", "pid": 7, "queue_id": 0, "status": "ok"}'
check debug text '{"type": "runtime", "pid": 7}'
check test doc test --emulate gfx90a --case 'events.*,irq.wrong-id' -j
check test-list doc test --list -j
check bench doc bench --emulate gfx90a -c 10 -j
check bench doc bench --emulate gfx90a -c 3 -j --no-time
validate
[ $fail -eq 0 ] && echo "ok: every command's JSON matches its schema"
exit $fail
