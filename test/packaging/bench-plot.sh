#!/bin/sh
# kfdsig bench --samples/--plot on the emulated KFD: every latency sample in
# the CSV, and an SVG that rsvg-convert (librsvg2-bin) renders to a
# non-empty PNG with every panel. Every panel has y ticks and its y unit, its
# legend lies outside its frame, panels of one kind share their y axis
# across devices, and two devices get a panel comparing them.
# Usage: bench-plot.sh KFDSIG WORK
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
# two devices: the layout rules (python3 reads the SVG as XML)
"$k" -q bench --emulate gfx90a,gfx1100 -c 10 --plot "$work/two.svg" >/dev/null
grep -q 'devices compared' "$work/two.svg" || { echo "SVG of two devices lacks the comparison panel"; exit 1; }
if command -v python3 >/dev/null; then
  python3 - "$work/two.svg" "$work/p.svg" <<'PY' || exit 1
import sys
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
bad = []
for path in sys.argv[1:]:
    root = ET.parse(path).getroot()
    axes = {}
    panels = [g for g in root.iter(ns + "g") if g.get("class") == "panel"]
    if not panels:
        bad.append(path + ": no panels")
    for g in panels:
        kind = g.get("data-kind")
        frame = g.find(ns + "rect")
        x, y = float(frame.get("x")), float(frame.get("y"))
        w, h = float(frame.get("width")), float(frame.get("height"))
        ticks = [t.text for t in g.iter(ns + "text") if t.get("class") == "ytick"]
        units = [t.text for t in g.iter(ns + "text") if t.get("class") == "yunit"]
        if len(ticks) < 2:
            bad.append("%s panel %s: %d y ticks" % (path, kind, len(ticks)))
        if len(units) != 1 or not units[0]:
            bad.append("%s panel %s: no y unit" % (path, kind))
        for r in g.iter(ns + "rect"):
            if r.get("class") != "legend":
                continue
            lx, ly = float(r.get("x")), float(r.get("y"))
            if x <= lx <= x + w and y <= ly <= y + h:
                bad.append("%s panel %s: a legend inside the frame" % (path, kind))
        axes.setdefault(kind, set()).add(tuple(ticks))
    for kind, seen in axes.items():
        if kind not in ("timeline",) and len(seen) != 1:
            bad.append("%s: the %s panels have different y axes: %s" % (path, kind, sorted(seen)))
    if path == sys.argv[1] and "devices" not in axes:
        bad.append(path + ": no devices panel")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
fi
command -v rsvg-convert >/dev/null || { echo "no rsvg-convert (librsvg2-bin): skip"; exit 77; }
rsvg-convert "$work/p.svg" -o "$work/p.png"
[ -s "$work/p.png" ] || { echo "empty PNG"; exit 1; }
size=$(wc -c <"$work/p.png")
[ "$size" -gt 20000 ] || { echo "PNG of $size bytes: nearly blank"; exit 1; }
echo "ok: CSV, SVG and PNG ($size bytes)"
