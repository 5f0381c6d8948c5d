#!/bin/sh
# kfdsig bench --samples/--plot on the emulated KFD: every latency sample in
# the CSV, and an SVG that rsvg-convert (librsvg2-bin) renders to a
# non-empty PNG with every panel. Usage: bench-plot.sh KFDSIG WORK
set -eu
k=$1
work=$2
rm -rf "$work"; mkdir -p "$work"
"$k" -q bench --emulate gfx90a -c 20 --samples "$work/s.csv" --plot "$work/p.svg" >"$work/out.txt"
[ "$(head -n 1 "$work/s.csv")" = "device,path,index,latency_ns" ] || { echo "bad CSV header"; exit 1; }
# 5 host paths + pm4 gpu-to-wake, 20 samples each
for p in cpu-set-event emu-interrupt pm4 sdma shader "pm4 gpu-to-wake"; do
  n=$(grep -c "^gfx90a,$p,[0-9]*,-\{0,1\}[0-9][0-9]*$" "$work/s.csv" || true)
  [ "$n" -eq 20 ] || { echo "path $p: $n samples, expected 20"; exit 1; }
done
for t in "latency CDF per path" "latency histogram per path" "fast path vs slot scan" \
  "throughput per path and batch size" "pm4 timeline: submit -&gt; GPU timestamp"; do
  grep -q "$t" "$work/p.svg" || { echo "SVG lacks the panel '$t'"; exit 1; }
done
grep -q '<polyline' "$work/p.svg" || { echo "SVG has no curve"; exit 1; }
# the throughput panel draws every path the table measured (its series come
# from the data): each path is labelled as often as cpu-set-event (in the
# latency legend and the throughput panel)
want=$(grep -c '>cpu-set-event</text>' "$work/p.svg")
for p in $(awk '$1 == "throughput" && $NF == "events/s" { print $2 }' "$work/out.txt" | sort -u); do
  [ "$(grep -c ">$p</text>" "$work/p.svg")" = "$want" ] ||
    { echo "SVG: path $p is not in every panel of its measures"; exit 1; }
done
command -v rsvg-convert >/dev/null || { echo "no rsvg-convert (librsvg2-bin): skip"; exit 77; }
rsvg-convert "$work/p.svg" -o "$work/p.png"
[ -s "$work/p.png" ] || { echo "empty PNG"; exit 1; }
size=$(wc -c <"$work/p.png")
[ "$size" -gt 20000 ] || { echo "PNG of $size bytes: nearly blank"; exit 1; }
echo "ok: CSV, SVG and PNG ($size bytes)"
