#!/bin/sh
# run-debug-exact.sh KFDSIG TARGET CLIENT: the exact standard output of
# `kfdsig --emulate TARGET debug -x MASK --count N -- CLIENT MODE` (the
# trap_queue client in its step and together modes, which leave nothing
# to the scheduler: see trap_queue.c), line for line and in order: one
# line per exception, only those of the mask, EC_QUEUE_NEW before the
# queue's trap, each exception once (cleared when reported). --count N
# stops the debugger (and kills the client) after the N exceptions the
# mask lets through; --timeout bounds a run that never gets there.
# Exit 77 (skip) when the client was not built or this kfdsig has no
# `debug`.
kfdsig=$1 target=$2 client=$3
set -f # the words split below are not file patterns
if [ ! -x "$client" ]; then
	echo "SKIP: $(basename "$client") not built"
	exit 77
fi
if ! "$kfdsig" debug --help >/dev/null 2>&1; then
	echo "SKIP: this kfdsig has no 'debug'"
	exit 77
fi
out=$(mktemp) err=$(mktemp) want=$(mktemp)
trap 'rm -f "$out" "$err" "$want"' EXIT

# check MODE COUNT MASK EXPECTED...: EXPECTED are the lines, with P Q G
# for the client's pid, queue and GPU id; MASK - is the default (no -x).
check() {
	mode=$1 count=$2 mask=$3
	shift 3
	if [ "$mask" = - ]; then
		"$kfdsig" --emulate "$target" debug --count "$count" --timeout 20000 \
			-o "$out" -- "$client" "$mode" >/dev/null 2>"$err"
	else
		"$kfdsig" --emulate "$target" debug -x "$mask" --count "$count" --timeout 20000 \
			-o "$out" -- "$client" "$mode" >/dev/null 2>"$err"
	fi
	rc=$?
	# (no line: placeholders that match nothing)
	line=$(grep '^trap_queue: pid' "$err") || line='trap_queue: pid ? queue ? gpu ?'
	# trap_queue: pid P queue Q gpu 0xG
	set -- $line "$@"
	pid=$3 queue=$5 gpu=$7
	shift 7
	: >"$want"
	for l in "$@"; do
		printf '%s\n' "$l" | sed "s/\\bP\\b/$pid/; s/\\bQ\\b/$queue/; s/\\bG\\b/$gpu/" >>"$want"
	done
	if [ "$rc" != 0 ] || ! cmp -s "$want" "$out"; then
		echo "FAIL: $mode -x $mask --count $count (exit $rc)"
		echo "--- want"; cat "$want"
		echo "--- stdout"; cat "$out"
		echo "--- stderr"; cat "$err"
		# the first failure is the verdict: a fault that loses or
		# repeats a report leaves each later check waiting out its
		# --timeout for a line that never comes
		exit 1
	else
		echo "ok: $mode -x $mask --count $count"
	fi
}

rt='pid P: runtime enable answered (EC_PROCESS_RUNTIME)'
# (the together mode first: a debugger that clears too little fails its
# checks at once, where the step mode's client waits for the clear)
for mode in together step; do
	# the default mask: every exception printed
	check $mode 3 - \
		'pid P process: EC_PROCESS_RUNTIME' "$rt" \
		'pid P queue Q gpu G: EC_QUEUE_NEW' \
		'pid P queue Q gpu G: EC_QUEUE_WAVE_TRAP'
	# without EC_QUEUE_NEW: it is not printed, and not reported again
	check $mode 1 queue-wave-trap \
		"$rt" 'pid P queue Q gpu G: EC_QUEUE_WAVE_TRAP'
	check $mode 2 queue-wave-trap,process-runtime \
		'pid P process: EC_PROCESS_RUNTIME' "$rt" \
		'pid P queue Q gpu G: EC_QUEUE_WAVE_TRAP'
done
# only EC_QUEUE_NEW: the runtime enable, left out, is answered once. (In
# the together mode the report comes after the client has named its
# queue; in the step mode --count 1 could stop it before it does.)
check together 1 queue-new "$rt" 'pid P queue Q gpu G: EC_QUEUE_NEW'
exit 0
