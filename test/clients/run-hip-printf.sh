#!/bin/sh
# run-hip-printf.sh KFDSIG TARGET PROGRAM: run hip_printf (hipcc-built) on
# the emulated KFD of TARGET under `kfdsig trace`, bounded by timeout(1).
# Device printf is HIP's hostcall: the waves format into a shared buffer
# and send an interrupt for the hostcall's signal event (s_sendmsg
# MSG_INTERRUPT), whose KFD event wakes the runtime's listener thread in
# WAIT_EVENTS. Every line must be printed exactly once (stdout compared
# whole with the expected lines), the waves' SQ interrupts must have set a
# KFD event and a thread other than the main one must have woken from
# WAIT_EVENTS. Exit 77 when the program was not built (no hipcc) or this
# kfdsig has no `trace`.
kfdsig=$1 target=$2 prog=$3
. "$(dirname "$0")/client-lib.sh"
client_need "$prog" trace 60
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
$to "$kfdsig" trace -o "$tmp/trace" --emulate "$target" -- "$prog" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || bad "exit status $rc (124: timed out)"
grep -qx 'printf: done' "$tmp/err" || bad "no 'printf: done' on stderr"
# the expected lines: 2 rounds x 3 blocks x threads 0, 16, 32, 48
for r in 0 1; do
	for b in 0 1 2; do
		for t in 0 16 32 48; do
			printf 'round %d block %d thread %d: id %d %d.%02d\n' $r $b $t \
				$((b * 64 + t)) $((t / 4)) $((t % 4 * 25))
		done
	done
done | sort >"$tmp/want"
sort "$tmp/out" >"$tmp/got"
diff "$tmp/want" "$tmp/got" >"$tmp/diff" || bad "stdout is not every line once: $(cat "$tmp/diff")"
# a wave's interrupt names the hostcall's event (the fast path); the CP's
# own request to the runtime for scratch names none (id 0, a scan)
sq=$(grep -c '^\[pid .*\] [0-9.]* irq sq-msg .* -> id \([1-9][0-9]*\) ([0-9]* bits): fast, set \1$' \
	"$tmp/trace")
echo "SQ interrupts that named and set a KFD event: $sq"
[ "$sq" -gt 0 ] || bad "no wave interrupt named and set a KFD event"
woke=$(awk '$1 == "[pid" && $3 == "tid" && $2 "]" != $4 &&
	($6 == "WAIT_EVENTS" || $7 == "WAIT_EVENTS") &&
	/ = 0 COMPLETE / { n++ } END { print n + 0 }' "$tmp/trace")
echo "WAIT_EVENTS of other threads completed: $woke"
[ "$woke" -gt 0 ] || bad "no thread but the main one woke from WAIT_EVENTS"
exit $fail
