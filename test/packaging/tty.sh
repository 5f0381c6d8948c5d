#!/bin/sh
# What kfdsig prints only on a terminal, and what the main job installs.
# Usage: tty.sh KFDSIG SOURCE. Skips (77) without script(1) (bsdutils).
set -u
k=$1
src=$2
fail=0
bad() { echo "FAIL: $*"; fail=1; }
command -v script >/dev/null || { echo "SKIP: script(1) not installed"; exit 77; }
# script -qec CMD /dev/null: CMD on a pseudo-terminal, its output on ours
ontty() { script -qec "$1" /dev/null; }

# smi says what it listens to on a terminal, and only there
out=$(ontty "'$k' --emulate gfx90a,gfx1100 smi --events vmfault -T 50")
echo "$out" | grep -q "kfdsig smi: listening for SMI events on 2 GPUs (Ctrl-C to stop)" ||
	bad "smi on a tty does not say it is listening: $out"
out=$("$k" --emulate gfx90a smi --events vmfault -T 50 2>&1)
echo "$out" | grep -q listening && bad "smi says it is listening into a pipe"
out=$(ontty "'$k' -q --emulate gfx90a smi --events vmfault -T 50")
echo "$out" | grep -q listening && bad "smi -q says it is listening"

# bench draws a progress line (rewritten in place) on a terminal only
out=$(ontty "'$k' --emulate gfx90a bench -c 20 >/dev/null" | tr '\r' '\n')
echo "$out" | grep -q '^.\[K\[1/1\] gfx90a: latency pm4$' ||
	bad "bench on a tty has no progress line for pm4 latency"
# the throughput rows differ by their batch size, and the progress says it
echo "$out" | grep -q '^.\[K\[1/1\] gfx90a: throughput (batch [0-9][0-9]*) ' ||
	bad "bench's throughput progress does not name the batch size"
out=$("$k" --emulate gfx90a bench -c 20 2>&1 >/dev/null)
[ -z "$out" ] || bad "bench writes progress into a pipe: $(echo "$out" | head -n 2)"

# kfdsig test: the same progress, the same rule
out=$(ontty "'$k' --emulate gfx90a test --case events.max >/dev/null" | tr '\r' '\n')
echo "$out" | grep -q 'events.max' || bad "test on a tty has no progress line"

# the main job installs the build list and libhsakmt-dev only; the test
# command's tools (format check, LLVM freshness, fuzzing) are not in it
. "$src/scripts/deps.sh"
for p in clang-format llvm-22 lld-22 clang jq python3-jsonschema; do
	case " $KFDSIG_MAIN_DEBS " in *" $p "*) bad "the main job installs $p" ;; esac
	case " $KFDSIG_CHECK_DEBS " in *" $p "*) ;; *) bad "the test command does not install $p" ;; esac
done
for p in cmake libdrm-dev scdoc libhsakmt-dev hipcc librocprim-dev librocrand-dev libhiprand-dev \
	librocsparse-dev libhipsparse-dev; do
	case " $KFDSIG_MAIN_DEBS " in *" $p "*) ;; *) bad "the main job lacks $p" ;; esac
done
grep -q '^  kfdsig_install_deps main ' "$src/scripts/run-main.sh" ||
	bad "run-main.sh does not install the main list"
grep -q "^kfdsig_install_deps all" "$src/scripts/run-tests.sh" ||
	bad "run-tests.sh does not install everything"
[ $fail -eq 0 ] && echo "ok: tty output and dependency lists"
exit $fail
