#!/bin/sh
# trace.sh KFDSIG CLIENT MODE WORK SCHEMA_DIR PRELOAD CLIENTS_DIR: `kfdsig trace`
# on the emulated KFD.
#   storm | lost | no-waiter | never-reset | queue-fault: trace_client MODE
#     makes that detector fire (in the trace as it happens and in the
#     summary), and no other;
#   ok: on a correct program every detector stays quiet; its stdout, stderr
#     and exit status come through unchanged; a forked child is traced;
#   json: -j output of each mode validates against docs/schema/trace.json;
#   stack: the recorder over the real backend (kfdsig_kfd_linux_ops()),
#     stacked on a second copy of the interposer that emulates the KFD
#     below it;
#   clients: Debian's libhsakmt (and ROCr) clients through the tracer.
set -u
k=$1 client=$2 mode=$3 work=$4 schemas=$5 preload=$6 clients=$7
rm -rf "$work"
mkdir -p "$work"
fail=0
die() { echo "FAIL: $*"; fail=1; }

# summary N: the count of detector N in the JSON summary of $work/trace.json
count() {
	python3 -c 'import json,sys
s=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]
s=[d for d in s if d["type"]=="summary"]
print(s[-1]["findings"][sys.argv[2]] if s else -1)' "$work/trace.json" "$1"
}

# run MODE [SPEC]: trace the client in MODE, text and JSON
run() {
	"$k" trace --emulate "${2:-gfx90a}" -o "$work/trace.txt" -- "$client" "$1" \
		>"$work/out" 2>"$work/err" </dev/null
	st=$?
	[ $st -eq 0 ] || die "$1: exit $st: $(cat "$work/err")"
	grep -qx "$1 done" "$work/out" || die "$1: the program's stdout is not its own"
	"$k" trace --emulate "${2:-gfx90a}" -j -o "$work/trace.json" -- "$client" "$1" \
		>/dev/null 2>&1 </dev/null || die "$1: -j exit $?"
}

detectors="storm slept-through no-waiter never-reset queue-error"

fires() { # fires MODE DETECTOR
	run "$1"
	for d in $detectors; do
		n=$(count "$d")
		if [ "$d" = "$2" ]; then
			[ "$n" -ge 1 ] || die "$1: $d did not fire (summary $n)"
		else
			[ "$n" -eq 0 ] || die "$1: $d fired ($n) on a fault of another kind"
		fi
	done
	grep -q "\"type\": \"finding\", .*\"detector\": \"$2\"" "$work/trace.json" ||
		die "$1: no $2 finding when it happened"
	grep -q "^  pid [0-9]*: " "$work/trace.txt" || die "$1: no finding in the text summary"
}

case $mode in
storm)
	fires storm storm
	grep -q '"detector": "storm", "event_id": [0-9]*, "stale_age": 1, "real_age": [2-9]' \
		"$work/trace.json" || die "the storm does not name the stale and the real age"
	;;
lost) fires lost slept-through ;;
no-waiter) fires no-waiter no-waiter ;;
never-reset) fires never-reset never-reset ;;
queue-fault)
	fires queue-fault queue-error
	grep -q '"detector": "queue-error".*"queue_id": [0-9]' "$work/trace.json" ||
		die "the queue error does not name the queue"
	;;
ok)
	run ok
	for d in $detectors; do
		[ "$(count "$d")" -eq 0 ] || die "ok: $d fired on a correct program"
	done
	grep -qx "child done" "$work/out" || die "ok: the child's output is missing"
	grep -q 'WAIT_EVENTS ids=\[[0-9]* age [0-9]*->[0-9]*\]' "$work/trace.txt" ||
		die "ok: WAIT_EVENTS without its ids and ages"
	for w in CREATE_EVENT SET_EVENT RESET_EVENT DESTROY_EVENT CREATE_QUEUE DESTROY_QUEUE; do
		grep -q " $w " "$work/trace.txt" || die "ok: no $w"
	done
	grep -q ' irq cp-eop .*: fast, set ' "$work/trace.txt" ||
		die "ok: the fence's interrupt and the handler's decision are missing"
	grep -q 'signal_page=user handle=0x[0-9a-f]* at 0x[1-9a-f]' "$work/trace.txt" ||
		die "ok: the signal page's creation and mapping are missing"
	pids=$(sed -n 's/^\[pid \([0-9]*\) .* start comm=.*/\1/p' "$work/trace.txt" | sort -u | wc -l)
	[ "$pids" -eq 2 ] || die "ok: $pids processes traced, not the parent and its child"
	grep -q '^findings: 0$' "$work/trace.txt" || die "ok: the text summary has findings"
	grep -q '"type": "summary", .*"processes": 2,' "$work/trace.json" ||
		die "ok: the summary does not count the parent and its child"
	# a KFD client started by exec from a child of the program
	"$k" trace --emulate gfx90a -j -o "$work/trace.json" -- sh -c "\"$client\" never-reset; true" \
		>/dev/null 2>&1 </dev/null || die "exec: exit $?"
	[ "$(count never-reset)" -eq 1 ] || die "exec: the exec'd client was not traced"
	# under kfdsig exec: the same tracer, on its emulated KFD
	"$k" exec --emulate gfx90a -- "$k" trace -j -o "$work/trace.json" -- "$client" storm \
		>/dev/null 2>&1 </dev/null || die "under kfdsig exec: exit $?"
	[ "$(count storm)" -eq 1 ] || die "under kfdsig exec: the storm was not seen"
	# the program's streams and status untouched
	echo in | "$k" trace --emulate gfx90a -o "$work/t2" -- sh -c 'cat; echo err >&2; exit 3' \
		>"$work/o2" 2>"$work/e2"
	st=$?
	[ $st -eq 3 ] || die "exit status $st, not the program's 3"
	[ "$(cat "$work/o2")" = in ] || die "stdin/stdout not passed through"
	[ "$(cat "$work/e2")" = err ] || die "stderr not the program's own: $(cat "$work/e2")"
	grep -q '^no process made a KFD call' "$work/t2" || die "no note of a trace without KFD calls"
	# --summary-only: no records, the summary
	"$k" trace --emulate gfx90a --summary-only -- "$client" storm >/dev/null 2>"$work/e3" ||
		die "--summary-only exit $?"
	! grep -q 'WAIT_EVENTS ids=' "$work/e3" || die "--summary-only printed records"
	grep -q 'instant-return storm' "$work/e3" || die "--summary-only lost the findings"
	"$k" trace --emulate gfx90a >/dev/null 2>&1
	[ $? -eq 2 ] || die "no PROGRAM is not a usage error"
	"$k" trace --emulate gfx90a -- /nonexistent/program >/dev/null 2>&1
	[ $? -eq 127 ] || die "a missing PROGRAM does not exit 127"
	;;
json)
	python3 -c 'import jsonschema' 2>/dev/null || { echo "no python3-jsonschema: skip"; exit 77; }
	for m in ok storm lost queue-fault; do
		run "$m"
		python3 - "$schemas/trace.json" "$work/trace.json" <<'PY' || die "$m: -j output"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
types = set()
for line in open(sys.argv[2]):
    d = json.loads(line)
    types.add(d["type"])
    errs = sorted(v.iter_errors(d), key=str)
    if errs:
        print(errs[0].message, "in", line[:300]); sys.exit(1)
assert {"start", "ioctl", "wait", "summary"} <= types, types
PY
	done
	;;
stack)
	# a second copy of the interposer: the loader keeps both
	cp "$preload" "$work/tracer.so" || exit 1
	LD_PRELOAD=$preload KFDSIG_PRELOAD=$work/tracer.so KFDSIG_TRACE_STACK=$work/tracer.so \
		KFDSIG_EMULATE='' "$k" trace -j -o "$work/trace.json" -- "$client" ok \
		>"$work/out" 2>"$work/err" </dev/null
	st=$?
	[ $st -eq 0 ] || die "stack: exit $st: $(cat "$work/err")"
	grep -q '"type": "start", .*"kfd": "real"' "$work/trace.json" ||
		die "stack: the recorder did not run over the real backend"
	! grep -q '"kfd": "emulated"' "$work/trace.json" || die "stack: the emulating copy traced"
	grep -q '"ioctl": "WAIT_EVENTS", "events": \[{"id": [0-9]*, "age_in"' "$work/trace.json" ||
		die "stack: no WAIT_EVENTS"
	grep -q '"ioctl": "CREATE_QUEUE"' "$work/trace.json" || die "stack: no CREATE_QUEUE"
	for d in $detectors; do
		[ "$(count "$d")" -eq 0 ] || die "stack: $d fired on a correct program"
	done
	;;
clients)
	ran=0
	for c in hsakmt_events hsakmt_queue hsakmt_fork rocr_signal rocr_queue; do
		[ -x "$clients/client_$c" ] || continue
		ran=$((ran + 1))
		case $c in
		hsakmt_queue) args="gfx90a pm4" ;;
		rocr*) args=gfx90a ;;
		*) args= ;;
		esac
		# shellcheck disable=SC2086
		"$k" trace --emulate gfx90a -o "$work/$c.txt" -- "$clients/client_$c" $args \
			>"$work/$c.out" 2>&1 </dev/null
		st=$?
		# shellcheck disable=SC2086
		"$k" exec --emulate gfx90a -- "$clients/client_$c" $args >"$work/$c.plain" 2>&1 \
			</dev/null
		[ $st -eq $? ] || die "$c: exit $st traced, not the untraced status"
		[ $st -eq 0 ] || die "$c: exit $st: $(tail -3 "$work/$c.out")"
		grep -q 'WAIT_EVENTS ids=\[[0-9]' "$work/$c.txt" || die "$c: no WAIT_EVENTS with ids"
		grep -q 'CREATE_EVENT type=SIGNAL' "$work/$c.txt" || die "$c: no CREATE_EVENT"
	done
	[ $ran -gt 0 ] || { echo "no libhsakmt or ROCr client built: skip"; exit 77; }
	;;
*)
	echo "unknown mode $mode"
	exit 2
	;;
esac
[ $fail -eq 0 ] && echo "trace $mode: ok"
exit $fail
