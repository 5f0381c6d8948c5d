#!/bin/sh
# run-debug.sh KFDSIG TARGET CLIENT: `kfdsig --emulate TARGET debug --
# CLIENT` (the trap_queue client) must print the exception of the client's
# queue as EC_QUEUE_WAVE_TRAP, for the queue and GPU the client reports,
# and the JSON form must name them too. Exit 77 (skip) when the client was
# not built or this kfdsig has no `debug`.
kfdsig=$1 target=$2 client=$3
if [ ! -x "$client" ]; then
	echo "SKIP: $(basename "$client") not built"
	exit 77
fi
if ! "$kfdsig" debug --help >/dev/null 2>&1; then
	echo "SKIP: this kfdsig has no 'debug'"
	exit 77
fi
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err" "$err.stdout"' EXIT
fail() {
	echo "FAIL: $*"
	echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"
	exit 1
}
"$kfdsig" --emulate "$target" debug --timeout 10000 -o "$out" -- "$client" >"$err.stdout" 2>"$err" ||
	fail "kfdsig debug exited $?"
line=$(grep '^trap_queue: pid' "$err") || fail "the client did not report its queue"
# trap_queue: pid P queue Q gpu 0xG
set -- $line
pid=$3 queue=$5 gpu=$7
# one line per exception, the queue's EC_QUEUE_NEW before its trap
grep -Eqx "pid $pid queue $queue gpu $gpu: EC_QUEUE_WAVE_TRAP" "$out" ||
	fail "no 'pid $pid queue $queue gpu $gpu: EC_QUEUE_WAVE_TRAP' line"
[ "$(grep -c EC_QUEUE_WAVE_TRAP "$out")" = 1 ] || fail "the trap was reported more than once"
! grep -q 'EC_[A-Z_]*, EC_' "$out" || fail "two exceptions on one line"
new=$(grep -n "queue $queue gpu $gpu: EC_QUEUE_NEW\$" "$out" | cut -d: -f1)
trap=$(grep -n "queue $queue gpu $gpu: EC_QUEUE_WAVE_TRAP\$" "$out" | cut -d: -f1)
[ -n "$new" ] && [ "$new" -lt "$trap" ] || fail "EC_QUEUE_NEW is not reported once before the trap"
[ "$(grep -c EC_QUEUE_NEW "$out")" = 1 ] || fail "EC_QUEUE_NEW was reported more than once"

grep -q "pid $pid: runtime enable answered (EC_PROCESS_RUNTIME)" "$out" ||
	fail "the client's runtime enable was not answered"

# -x: only the exceptions of the mask, each once
"$kfdsig" --emulate "$target" debug -x queue-wave-trap --timeout 10000 -o "$out" -- "$client" \
	>/dev/null 2>"$err" ||
	fail "kfdsig debug -x queue-wave-trap exited $?"
[ "$(grep -c '^pid .*: EC_' "$out")" = 1 ] && grep -q ': EC_QUEUE_WAVE_TRAP$' "$out" ||
	fail "-x queue-wave-trap printed other exceptions, or the trap not once"
# what the mask leaves out is cleared too, not reported again and again
[ "$(grep -c 'runtime enable answered' "$out")" = 1 ] ||
	fail "-x queue-wave-trap: the runtime enable was answered more than once"

"$kfdsig" --emulate "$target" debug --json --snapshot --suspend --resume --timeout 10000 \
	-o "$out" -- "$client" >/dev/null 2>"$err" || fail "kfdsig debug --json exited $?"
gpu_dec=$(printf '%d' "$gpu")
grep -q "\"type\": \"exception\", \"pid\": [0-9]*, \"source\": \"queue\", \"gpu_id\": $gpu_dec, \"queue_id\": $queue, \"exceptions\": [0-9]*, \"names\": \[.*\"EC_QUEUE_WAVE_TRAP\"" "$out" ||
	fail "no JSON exception record for queue $queue"
grep -q "\"type\": \"suspend\", .*\"queue_id\": $queue, \"status\": \"ok\"" "$out" ||
	fail "the queue was not suspended"
grep -q "\"type\": \"resume\", .*\"queue_id\": $queue, \"status\": \"ok\"" "$out" ||
	fail "the queue was not resumed"
grep -q "\"type\": \"queue\", .*\"queue_id\": $queue, \"gpu_id\": $gpu_dec, \"queue_type\": \"compute\"" "$out" ||
	fail "the snapshot does not list the queue"
grep -q "\"type\": \"device\", .*\"gpu_id\": $gpu_dec" "$out" || fail "the snapshot does not list the GPU"
grep -q '"type": "exit"' "$out" || fail "no exit record"
# without -o: the records go to standard error, the command's standard
# output stays its own
"$kfdsig" --emulate "$target" debug -x queue-wave-trap --timeout 10000 -- "$client" \
	>"$err.stdout" 2>"$err" || fail "kfdsig debug (no -o) exited $?"
[ ! -s "$err.stdout" ] || fail "records on the command's standard output: $(head -3 "$err.stdout")"
grep -q ': EC_QUEUE_WAVE_TRAP$' "$err" || fail "without -o the records are not on standard error"
echo "PASS: $target queue $queue: EC_QUEUE_WAVE_TRAP"
