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
#   clients: Debian's libhsakmt (and ROCr) clients through the tracer;
#   inflight: the lost wake-up with an infinite timeout: the WAIT_EVENTS
#     line '<unfinished ...>' when it starts, the lost-wait finding naming
#     the event while the program hangs, --fail-on lost, the closing block;
#   lost-other: a fence whose interrupt names another id, dropped (v6.14):
#     the lost wait names that id;
#   sigint: SIGINT of the tracer while the program hangs: passed on, the
#     closing block, the program's death reported;
#   dead: a wait on an event another thread destroys, a wait with every
#     queue gone;
#   output: write errors, unknown ioctls, -e, --json-seq, -p, hex strings,
#     --time, a program killed by a signal;
#   lost-wakeup: the main job's libhsakmt program, named;
#   attach-real: -P on a machine with /dev/kfd (77 without one);
#   hip: a correct HIP program (kernels, events, a stream, blocking sync),
#     traced 20 times: no warning and no error;
#   userq: user queues on the render node: the USERQ and syncobj calls in
#     the text and JSON (schema), no finding on a correct program; with
#     the emulator's lose-userq-irq the lost-fence finding while the
#     program hangs, --fail-on lost.
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

# run MODE [SPEC]: trace the client in MODE, text and JSON (a bound no
# wait of these reaches: the lost-wait detector's tests are its own)
run() {
	"$k" trace --emulate "${2:-gfx90a}" --bound 60000 -o "$work/trace.txt" -- "$client" "$1" \
		>"$work/out" 2>"$work/err" </dev/null
	st=$?
	[ $st -eq 0 ] || die "$1: exit $st: $(cat "$work/err")"
	grep -qx "$1 done" "$work/out" || die "$1: the program's stdout is not its own"
	"$k" trace --emulate "${2:-gfx90a}" --bound 60000 -j -o "$work/trace.json" -- "$client" "$1" \
		>/dev/null 2>&1 </dev/null || die "$1: -j exit $?"
}

detectors="storm slept-through no-waiter never-reset queue-error lost-wait dead-wait lost-fence"

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
	grep -q '"detector": "storm", "severity": "warning", "event_id": [0-9]*, "stale_age": "0x1", "real_age": "0x[2-9]"' \
		"$work/trace.json" || die "the storm does not name the stale and the real age"
	;;
lost) fires lost slept-through ;;
userq)
	spec=gfx1100,mec=2600
	run userq "$spec"
	for d in $detectors; do
		n=$(count "$d")
		[ "$n" -eq 0 ] || die "userq: $d fired ($n) on a correct program"
	done
	t=$work/trace.txt
	grep -q "DRM_AMDGPU_USERQ create ip=compute doorbell=0 ring=0x[0-9a-f]*+4096 wptr=0x[0-9a-f]* -> queue=1 = 0 " "$t" ||
		die "userq: no DRM_AMDGPU_USERQ create line"
	grep -q "SYNCOBJ_CREATE flags=0x0 -> handle=1 = 0 " "$t" || die "userq: no SYNCOBJ_CREATE line"
	seq=$(sed -n 's/.* DRM_AMDGPU_USERQ_SIGNAL queue=1 syncobjs=\[1\] fence=\([0-9]*\) = 0 .*/\1/p' "$t")
	[ -n "$seq" ] && [ "$seq" -gt 0 ] || die "userq: USERQ_SIGNAL does not name its fence ($seq)"
	grep -q "DRM_AMDGPU_USERQ_WAIT queue=2 syncobjs=\[1\] -> fences=\[0x[0-9a-f]*:$seq\] = 0 " "$t" ||
		die "userq: USERQ_WAIT does not name the pair it returned"
	grep -q "SYNCOBJ_WAIT handles=\[2\] flags=0x0 timeout=[0-9.]*s -> first=0 = 0 " "$t" ||
		die "userq: no SYNCOBJ_WAIT line"
	grep -q "SYNCOBJ_DESTROY handle=2 = 0 " "$t" || die "userq: no SYNCOBJ_DESTROY line"
	grep -q '^ *1 *0 .*  SYNCOBJ_WAIT$' "$t" || die "userq: the summary does not count SYNCOBJ_WAIT"
	grep -q '"ioctl": "DRM_AMDGPU_USERQ_SIGNAL", "nr": 87, "device": "render", "queue_id": 1, "syncobjs": \[1\], "fence": '"$seq" \
		"$work/trace.json" || die "userq: JSON USERQ_SIGNAL"
	if python3 -c 'import jsonschema' 2>/dev/null; then
		python3 - "$schemas/trace.json" "$work/trace.json" <<'PY' || die "userq: -j output against the schema"
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
for l in open(sys.argv[2]):
    if l.strip():
        v.validate(json.loads(l))
PY
	fi
	[ $fail -eq 0 ] || exit 1
	# the lost fence: found while the program sleeps, then killed
	"$k" trace --emulate "$spec,lose-userq-irq" --bound 400 --fail-on lost -o "$work/t.txt" -- \
		"$client" userq-lost >"$work/out" 2>"$work/err" </dev/null
	st=$?
	[ $st -eq 1 ] || die "userq-lost: exit $st, not 1: $(cat "$work/err")"
	seq=$(sed -n 's/.* DRM_AMDGPU_USERQ_SIGNAL queue=2 syncobjs=\[2\] fence=\([0-9]*\) = 0 .*/\1/p' "$work/t.txt")
	grep -q "!! error: lost fence: tid [0-9]* has waited [0-9.]* s on syncobj 2 (user queue 2, fence $seq), whose fences' seq64 slots have passed them, but no interrupt woke it$" \
		"$work/t.txt" || die "userq-lost: no lost-fence finding naming the syncobj, queue and fence"
	grep -q "^killed by SIGKILL" "$work/t.txt" || die "userq-lost: the program was not killed"
	"$k" trace --emulate "$spec,lose-userq-irq" --bound 400 --fail-on lost -j -o "$work/l.json" -- \
		"$client" userq-lost >/dev/null 2>&1 </dev/null
	grep -q '"detector": "lost-fence", "severity": "error", "class": "no-interrupt", "syncobj": 2, "syncobjs": 1, "queue_id": 2, "fence": [0-9]*, "waiter_tid": [0-9]*, "wait_s": ' \
		"$work/l.json" || die "userq-lost: JSON lost-fence finding"
	grep -q '"type": "summary", .*"lost-fence": 1' "$work/l.json" || die "userq-lost: JSON summary"
	;;

no-waiter)
	fires no-waiter no-waiter
	grep -q '"detector": "no-waiter", "severity": "info", "class": "cpu-set"' "$work/trace.json" ||
		die "SET_EVENT with nobody waiting is not classified cpu-set (info)"
	# an interrupt that set an event nobody slept on: a runtime that polled
	fires polled no-waiter
	grep -q '"detector": "no-waiter", "severity": "info", "class": "polled"' "$work/trace.json" ||
		die "an interrupt with nobody waiting is not classified polled (info)"
	grep -q '^  pid [0-9]*: info: signal polled: auto-reset event [0-9]* was set by an interrupt' \
		"$work/trace.txt" || die "the text summary does not say polled"
	;;
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
	grep -q '<\.\.\. WAIT_EVENTS resumed> ids=\[[0-9]* age [0-9]*->[0-9]*\] = 0 COMPLETE' "$work/trace.txt" ||
		die "ok: WAIT_EVENTS without its ids and ages"
	grep -q ' WAIT_EVENTS ids=\[[0-9]* age [0-9]*\] all=0 timeout=5000 <unfinished \.\.\.>$' "$work/trace.txt" ||
		die "ok: no '<unfinished ...>' line where a blocking WAIT_EVENTS starts"
	awk '$1 == "[pid" { t = $5 + 0; if (t < last) { print "out of order: " $0; bad = 1 } last = t }
		END { exit bad }' "$work/trace.txt" || die "ok: the lines are not in time order"
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
	validate() { # validate FILE TYPES...
		python3 - "$schemas/trace.json" "$@" <<'PY'
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
want = set(sys.argv[3:])
assert want <= types, (want, types)
PY
	}
	for m in ok storm lost queue-fault; do
		run "$m"
		validate "$work/trace.json" start ioctl wait summary || die "$m: -j output"
	done
	"$k" trace --emulate gfx90a --bound 200 --fail-on lost -r -j -o "$work/trace.json" -- \
		"$client" lost-inf >/dev/null 2>&1 </dev/null
	validate "$work/trace.json" wait_begin in_flight finding in_flight_at_end summary ||
		die "lost-inf: -j output"
	"$k" trace --emulate gfx90a --time wall-us -j -o "$work/trace.json" -- "$client" unknown \
		>/dev/null 2>&1 </dev/null
	validate "$work/trace.json" ioctl summary || die "unknown: -j output"
	"$k" trace --emulate gfx90a -j -o "$work/trace.json" -- "$client" segv >/dev/null 2>&1 </dev/null
	validate "$work/trace.json" summary || die "segv: -j output"
	;;
stack)
	# a second copy of the interposer: the loader keeps both
	cp "$preload" "$work/tracer.so" || exit 1
	LD_PRELOAD=$preload KFDSIG_PRELOAD=$work/tracer.so KFDSIG_TRACE_STACK=$work/tracer.so \
		KFDSIG_EMULATE='' "$k" trace -j -o "$work/trace.json" -- "$client" ok \
		>"$work/out" 2>"$work/err" </dev/null
	st=$?
	[ $st -eq 0 ] || die "stack: exit $st: $(cat "$work/err")"
	# the rest (the lost wait over the real backend above all) needs it
	grep -q '"type": "start", .*"kfd": "real"' "$work/trace.json" ||
		{ die "stack: the recorder did not run over the real backend"; exit 1; }
	! grep -q '"kfd": "emulated"' "$work/trace.json" || die "stack: the emulating copy traced"
	grep -q '"ioctl": "WAIT_EVENTS", "events": \[{"id": [0-9]*, "age_in"' "$work/trace.json" ||
		die "stack: no WAIT_EVENTS"
	grep -q '"ioctl": "CREATE_QUEUE"' "$work/trace.json" || die "stack: no CREATE_QUEUE"
	for d in $detectors; do
		[ "$(count "$d")" -eq 0 ] || die "stack: $d fired on a correct program"
	done
	# the lost wait over the real backend: the slot read from the signal
	# page the process mapped, no interrupt to see
	LD_PRELOAD=$preload KFDSIG_PRELOAD=$work/tracer.so KFDSIG_TRACE_STACK=$work/tracer.so \
		KFDSIG_EMULATE='' "$k" trace --bound 400 --fail-on lost -o "$work/t.txt" -- \
		"$client" lost-inf >"$work/out" 2>"$work/err" </dev/null
	st=$?
	[ $st -eq 1 ] || die "stack lost-inf: exit $st: $(cat "$work/err")"
	grep -q '!! error: lost wait: tid [0-9]* has waited [0-9.]* s on event [0-9]*, whose slot in the signal page is written (0x[0-9a-f]*), but no interrupt set it$' \
		"$work/t.txt" || die "stack: the lost wait on the real backend was not named"
	grep -q '^    event [0-9]*: slot written (0x[0-9a-f]*), interrupts not visible (real GPU)$' \
		"$work/t.txt" || die "stack: the closing block does not say what the real backend knows"
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
inflight)
	# text: hangs until the detector fires, then killed (--fail-on lost)
	"$k" trace --emulate gfx90a --bound 400 --fail-on lost -o "$work/t.txt" -- "$client" lost-inf \
		>"$work/out" 2>"$work/err" </dev/null
	st=$?
	# the rest is about this run, and the JSON run would hang the same way
	[ $st -eq 1 ] || { die "--fail-on lost: exit $st, not 1: $(cat "$work/err")"; exit 1; }
	id=$(sed -n 's/.* CREATE_EVENT type=SIGNAL .* -> id=\([0-9]*\) .*/\1/p' "$work/t.txt")
	[ -n "$id" ] || die "no CREATE_EVENT"
	hexid=$(printf %x "$id")
	grep -q "\] [0-9.]* WAIT_EVENTS ids=\[$id\] all=1 timeout=inf <unfinished \.\.\.>$" "$work/t.txt" ||
		die "no '<unfinished ...>' line when the infinite wait began"
	grep -q "!! error: lost wait: tid [0-9]* has waited [0-9.]* s on event $id, whose slot in the signal page is written (0x$hexid), but no interrupt set it$" \
		"$work/t.txt" || die "the lost wait was not reported while it happened"
	grep -q "^calls in flight: 1$" "$work/t.txt" || die "no closing block"
	grep -q "^  \[pid [0-9]* tid [0-9]*\] WAIT_EVENTS ids=\[$id\] all=1 timeout=inf: in flight for [0-9.]* s$" \
		"$work/t.txt" || die "the closing block does not list the wait"
	grep -q "^    event $id: slot written (0x[0-9a-f]*), no interrupt set it during the call$" \
		"$work/t.txt" || die "the closing block does not say what is known of the event"
	grep -q "^    no interrupt taken$" "$work/t.txt" || die "the closing block: no last interrupt"
	grep -q "^killed by SIGKILL" "$work/t.txt" || die "the program was not killed"
	# JSON: the same, as records
	"$k" trace --emulate gfx90a --bound 400 --fail-on lost -j -o "$work/trace.json" -- \
		"$client" lost-inf >/dev/null 2>&1 </dev/null
	[ $? -eq 1 ] || die "-j --fail-on lost: exit not 1"
	grep -q '"type": "wait_begin", .*"timeout_ms": 4294967295}' "$work/trace.json" ||
		die "JSON: no wait_begin record"
	grep -q '"detector": "lost-wait", "severity": "error", "class": "no-interrupt", "event_id": [0-9]*, "waiter_tid": [0-9]*, "wait_s": [0-9.]*, "slot_value": "0x' \
		"$work/trace.json" || die "JSON: no lost-wait finding"
	grep -q '"type": "in_flight_at_end", .*"state": \[{"id": [0-9]*, "slot": "written", "slot_value": "0x[0-9a-f]*", "interrupt": false, "destroyed": false}\]' \
		"$work/trace.json" || die "JSON: no closing record with the event's state"
	grep -q '"type": "summary", .*"lost-wait": 1, .*"in_flight": 1, .*"signal": "SIGKILL"' \
		"$work/trace.json" || die "JSON: the summary does not count it"
	;;
lost-other)
	"$k" trace --emulate gfx90a,profile=v6.14 --bound 400 --fail-on lost -o "$work/t.txt" -- \
		"$client" lost-other >"$work/out" 2>"$work/err" </dev/null
	st=$?
	[ $st -eq 1 ] || die "exit $st, not 1: $(cat "$work/err")"
	ids=$(sed -n 's/.* CREATE_EVENT type=SIGNAL .* -> id=\([0-9]*\).*/\1/p' "$work/t.txt" | paste -sd' ')
	set -- $ids
	[ $# -eq 2 ] || die "not two events: $ids"
	grep -q "!! error: lost wait: tid [0-9]* has waited [0-9.]* s on event $1, whose slot in the signal page is written (0x[0-9a-f]*), but the last interrupt named id $2 (dropped path) instead$" \
		"$work/t.txt" || die "the lost wait does not name the id the interrupt went to"
	grep -q "^    the last interrupt (#[0-9]*) named id $2: dropped (v6.14)$" "$work/t.txt" ||
		die "the closing block does not name the last interrupt"
	# under the default profile the slot scan finds the event: the wait
	# returns (the client says so and exits 1), and no lost wait is claimed
	"$k" trace --emulate gfx90a --bound 400 --fail-on lost -j -o "$work/trace.json" -- \
		"$client" lost-other >/dev/null 2>&1 </dev/null
	[ "$(count lost-wait)" -eq 0 ] || die "a lost wait where the slot scan delivered the signal"
	;;
sigint)
	# as from a terminal: SIGINT not ignored (sh ignores it in the jobs it
	# starts with &, and the program keeps what kfdsig trace was given)
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$k" trace --emulate gfx90a --bound 200 -o "$work/t.txt" -- \
		"$client" lost-inf >"$work/out" 2>"$work/err" </dev/null &
	tracer=$!
	i=0
	while ! grep -q '!! error: lost wait' "$work/t.txt" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q '!! error: lost wait' "$work/t.txt" || die "no lost wait while the program hangs"
	kill -INT $tracer
	wait $tracer
	st=$?
	# the SIGTERM run below would hang the same way
	[ $st -eq 130 ] || { die "exit $st, not the program's 130 (SIGINT): $(cat "$work/err")"; exit 1; }
	grep -q "^calls in flight: 1$" "$work/t.txt" || die "no closing block after SIGINT"
	grep -q "^    event [0-9]*: slot written" "$work/t.txt" || die "the closing block lost the state"
	grep -q "^killed by SIGINT (exit status 130)$" "$work/t.txt" || die "no 'killed by SIGINT'"
	# SIGTERM the same way
	"$k" trace --emulate gfx90a --bound 200 -o "$work/t2.txt" -- "$client" lost-inf \
		>"$work/out" 2>"$work/err" </dev/null &
	tracer=$!
	i=0
	while ! grep -q '!! error: lost wait' "$work/t2.txt" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -TERM $tracer
	wait $tracer
	st=$?
	[ $st -eq 143 ] || die "SIGTERM: exit $st, not the program's 143"
	grep -q "^calls in flight: 1$" "$work/t2.txt" || die "no closing block after SIGTERM"
	grep -q "^killed by SIGTERM (exit status 143)$" "$work/t2.txt" || die "no 'killed by SIGTERM'"
	;;
dead)
	"$k" trace --emulate gfx90a -j -o "$work/trace.json" -- "$client" dead-destroy \
		>/dev/null 2>&1 </dev/null || die "dead-destroy: exit $?"
	grep -q '"detector": "dead-wait", "severity": "error", "class": "destroyed"' "$work/trace.json" ||
		die "no dead-wait finding for a destroyed event"
	"$k" trace --emulate gfx90a --bound 200 -o "$work/t.txt" -- "$client" dead-queue \
		>/dev/null 2>&1 </dev/null || die "dead-queue: exit $?"
	grep -q '!! warning: dead wait: tid [0-9]* has waited [0-9.]* s on event [0-9]* and the process has no queue left' \
		"$work/t.txt" || die "no dead-wait finding with every queue gone"
	# a wait on a queue's event while the queue lives: no finding
	"$k" trace --emulate gfx90a --bound 200 -j -o "$work/trace.json" -- "$client" ok \
		>/dev/null 2>&1 </dev/null || die "ok: exit $?"
	[ "$(count dead-wait)" -eq 0 ] || die "a dead wait on a correct program"
	;;
output)
	# under the sanitizers: no leak report (the recorder's threads at exit)
	# beside the one message
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		"$k" trace --emulate gfx90a -o /dev/full -- "$client" ok >/dev/null 2>"$work/err" </dev/null
	st=$?
	[ $st -eq 1 ] || die "-o /dev/full: exit $st, not 1"
	[ "$(wc -l <"$work/err")" -eq 1 ] &&
		grep -q "^kfdsig trace: cannot write the trace to '/dev/full': No space left on device$" "$work/err" ||
		die "-o /dev/full: not one message: $(cat "$work/err")"
	# unknown numbers and unreadable arguments: named, counted with their errors
	"$k" trace --emulate gfx90a -o "$work/t.txt" -- "$client" unknown >/dev/null 2>&1 </dev/null ||
		die "unknown: exit $?"
	grep -q '\] [0-9.]* IOCTL_0x7f = -1 ENOTTY (Inappropriate ioctl for device) <' "$work/t.txt" ||
		die "an unknown ioctl is not named by its number"
	grep -q '\] [0-9.]* GET_VERSION <argument not readable> = -1 EFAULT (Bad address) <' "$work/t.txt" ||
		die "an ioctl with an unreadable argument is not traced"
	grep -q '\] [0-9.]* CREATE_EVENT <argument not readable> = -1 EFAULT (Bad address) <' "$work/t.txt" ||
		die "CREATE_EVENT with an unreadable argument is not traced undecoded"
	grep -q '^ *1 *1 .*  IOCTL_0x7f$' "$work/t.txt" || die "the summary does not count the unknown ioctl"
	grep -q '^ *[0-9]* *1 .*  GET_VERSION$' "$work/t.txt" || die "the summary does not count EFAULT"
	# -e: the lines of one class, the summary of all
	"$k" trace --emulate gfx90a -e queues -o "$work/t.txt" -- "$client" ok >/dev/null 2>&1 </dev/null
	grep -q ' CREATE_QUEUE ' "$work/t.txt" || die "-e queues: no CREATE_QUEUE"
	! grep -q '\] [0-9.]* \(CREATE_EVENT\|WAIT_EVENTS\|ALLOC_MEMORY_OF_GPU\|mmap\|irq\) ' "$work/t.txt" ||
		die "-e queues: other calls printed"
	grep -q '  CREATE_EVENT$' "$work/t.txt" || die "-e queues: the summary lost the other calls"
	"$k" trace --emulate gfx90a -e events,memory -o "$work/t.txt" -- "$client" ok >/dev/null 2>&1 </dev/null
	grep -q ' CREATE_EVENT ' "$work/t.txt" && grep -q ' ALLOC_MEMORY_OF_GPU ' "$work/t.txt" ||
		die "-e events,memory: a class missing"
	! grep -q ' CREATE_QUEUE ' "$work/t.txt" || die "-e events,memory: queues printed"
	"$k" trace --emulate gfx90a -e bogus -- true >/dev/null 2>&1
	[ $? -eq 2 ] || die "-e bogus is not a usage error"
	# --json-seq: RS before every record; -p: indented, one JSON text per record
	"$k" trace --emulate gfx90a --json-seq -o "$work/seq" -- "$client" ok >/dev/null 2>&1 </dev/null
	python3 - "$work/seq" <<'PY' || die "--json-seq"
import json, sys
data = open(sys.argv[1], "rb").read().decode()
recs = data.split("\x1e")
assert recs[0] == "" and len(recs) > 10, len(recs)
for r in recs[1:]:
    json.loads(r)
assert json.loads(recs[-1])["type"] == "summary"
PY
	"$k" trace --emulate gfx90a -p -o "$work/pretty" -- "$client" ok >/dev/null 2>&1 </dev/null
	python3 - "$work/pretty" <<'PY' || die "-p"
import json, sys
text = open(sys.argv[1]).read()
dec, i, n = json.JSONDecoder(), 0, 0
while i < len(text):
    while i < len(text) and text[i].isspace():
        i += 1
    if i == len(text):
        break
    d, i = dec.raw_decode(text, i)
    n += 1
assert n > 10 and d["type"] == "summary", n
assert '\n  "type": "start",' in text, "not indented"
PY
	# 64-bit values as hex strings
	"$k" trace --emulate gfx90a -j -o "$work/trace.json" -- "$client" ok >/dev/null 2>&1 </dev/null
	grep -q '"ioctl": "CREATE_QUEUE", .*"ring_base": "0x[0-9a-f]*", .*"doorbell_offset": "0x[0-9a-f]*"' \
		"$work/trace.json" || die "CREATE_QUEUE's 64-bit fields are not hex strings"
	grep -q '"type": "mmap", .*"offset": "0x[0-9a-f]*", "addr": "0x' "$work/trace.json" ||
		die "mmap's 64-bit fields are not hex strings"
	# --time
	"$k" trace --emulate gfx90a --time wall-us -o "$work/t.txt" -- "$client" ok >/dev/null 2>&1 </dev/null
	grep -q '^\[pid [0-9]* tid [0-9]*\] [0-2][0-9]:[0-5][0-9]:[0-5][0-9]\.[0-9]\{6\} start ' "$work/t.txt" ||
		die "--time wall-us"
	"$k" trace --emulate gfx90a --time wall -o "$work/t.txt" -- "$client" ok >/dev/null 2>&1 </dev/null
	grep -q '^\[pid [0-9]* tid [0-9]*\] [0-2][0-9]:[0-5][0-9]:[0-5][0-9] start ' "$work/t.txt" ||
		die "--time wall"
	"$k" trace --emulate gfx90a -r -o "$work/t.txt" -- "$client" ok >/dev/null 2>&1 </dev/null
	awk '$1 == "[pid" { s += $5 } END { exit !(s < 30) }' "$work/t.txt" || die "-r: not deltas"
	"$k" trace --emulate gfx90a --time never -- true >/dev/null 2>&1
	[ $? -eq 2 ] || die "--time never is not a usage error"
	# a program killed by a signal
	# under ASan the client's SIGSEGV must kill it, not ASan's handler
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
	"$k" trace --emulate gfx90a -o "$work/t.txt" -- "$client" segv >/dev/null 2>&1 </dev/null
	st=$?
	[ $st -eq 139 ] || die "segv: exit $st, not 139"
	grep -q '^killed by SIGSEGV\(, core dumped\)\? (exit status 139)$' "$work/t.txt" ||
		die "no 'killed by SIGSEGV'"
	"$k" trace --emulate gfx90a -j -o "$work/trace.json" -- "$client" segv >/dev/null 2>&1 </dev/null
	grep -q '"exit_status": 139, "signal": "SIGSEGV"}$' "$work/trace.json" || die "JSON: no signal"
	# attach: the emulated KFD lives in the process
	"$k" trace --emulate gfx90a -P $$ >/dev/null 2>"$work/err"
	st=$?
	[ $st -eq 1 ] && grep -q "attaching needs it started under 'kfdsig trace'" "$work/err" ||
		die "-P on the emulator: exit $st: $(cat "$work/err")"
	;;
attach-real)
	# -P on a machine with a GPU: says why not, exit 1
	[ -e /dev/kfd ] || { echo "no /dev/kfd: skip"; exit 77; }
	sleep 30 &
	sleeper=$!
	"$k" trace -P $sleeper >/dev/null 2>"$work/err"
	st=$?
	kill $sleeper
	[ $st -eq 1 ] && grep -q "kfdsig-trace(1), ATTACHING" "$work/err" ||
		die "-P on the real KFD: exit $st: $(cat "$work/err")"
	;;
lost-wakeup)
	# the main job's program: libhsakmt's hsaKmtWaitOnEvent() on a slot
	# written without its interrupt
	prog=$clients/client_lost_wakeup
	[ -x "$prog" ] || { echo "client_lost_wakeup not built (no libhsakmt): skip"; exit 77; }
	"$k" trace --emulate gfx90a --fail-on lost -o "$work/t.txt" -- "$prog" >/dev/null 2>&1 </dev/null
	st=$?
	[ $st -eq 1 ] || die "exit $st, not 1"
	grep -q '!! error: lost wait: tid [0-9]* has waited [0-9.]* s on event 1, whose slot in the signal page is written (0x1), but no interrupt set it$' \
		"$work/t.txt" || die "the lost wait of libhsakmt's program was not named"
	grep -q '^    event 1: slot written (0x1), no interrupt set it during the call$' "$work/t.txt" ||
		die "no closing block"
	;;
hip)
	prog=$clients/hip_kernel
	[ -x "$prog" ] || { echo "hip_kernel not built (no hipcc): skip"; exit 77; }
	i=0
	while [ $i -lt 20 ]; do
		i=$((i + 1))
		timeout 120 "$k" trace --emulate gfx90a -j -o "$work/hip.json" -- "$prog" event sync \
			>"$work/out" 2>&1 </dev/null
		st=$?
		[ $st -eq 0 ] || { die "run $i: exit $st: $(tail -3 "$work/out")"; break; }
		bad=$(python3 -c 'import json,sys
s=[json.loads(l) for l in open(sys.argv[1])]
f=[d for d in s if d["type"]=="finding" and d["severity"]!="info"]
print(f[0]["message"] if f else "")
sv=s[-1]["severity"]
assert sv["error"]==sv["warning"]==0 or f' "$work/hip.json")
		[ -z "$bad" ] || { die "run $i: $bad"; break; }
		grep -q '"type": "wait", .*"result": "COMPLETE", .*"resumed": true' "$work/hip.json" ||
			{ die "run $i: no blocking wait completed"; break; }
	done
	;;
*)
	echo "unknown mode $mode"
	exit 2
	;;
esac
[ $fail -eq 0 ] && echo "trace $mode: ok"
exit $fail
