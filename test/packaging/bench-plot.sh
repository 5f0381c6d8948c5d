#!/bin/sh
# kfdsig bench --samples/--plot on the emulated KFD: every latency sample in
# the CSV, and an SVG that rsvg-convert (librsvg2-bin) renders to a
# non-empty PNG with every panel. Every panel has y ticks and its y unit, its
# legend lies outside its frame, panels of one kind share their y axis
# across devices, and two devices get a panel comparing them. With 26
# emulated devices of every family (more than the 24 of a column of
# timelines and than three panels of 8 colours: the layout's every rule
# at work; the 8-XCC gfx940, gfx941 and gfx950 cost 2 s each and add no
# rule gfx942 does not bring): every device compared, every element inside
# the canvas, the pm4 timeline with its x axis.
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
# many devices: each one in a comparison panel (one colour per device, so
# several panels, never a silent cut), every timeline with its x axis, at
# most 24 devices a column (so that the canvas of every emulated device
# stays within what renderers take), and every element inside the canvas
# (text as a box of 0.6 em per character)
many=gfx801,gfx802,gfx803,gfx900,gfx904,gfx906,gfx908,gfx90a,gfx90c,gfx942,gfx1010,gfx1011
many=$many,gfx1030,gfx1031,gfx1033,gfx1035,gfx1036,gfx1100,gfx1101,gfx1103,gfx1150,gfx1151
many=$many,gfx1170,gfx1200,gfx1201,gfx1250
"$k" -q bench --emulate "$many" -c 3 --plot "$work/all.svg" >/dev/null
if command -v python3 >/dev/null; then
  python3 - "$work/all.svg" "$work/two.svg" "$work/p.svg" <<'PY' || exit 1
import re
import sys
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
bad = []
def num(e, a, d=0.0):
    v = e.get(a)
    return d if v is None else float(v)
def walk(e, dx=0.0, dy=0.0):
    # every element with the offset of the translate() groups around it
    m = re.match(r"translate\(([-0-9.]+),([-0-9.]+)\)", e.get("transform", ""))
    if m and e.tag.replace(ns, "") == "g":
        dx, dy = dx + float(m.group(1)), dy + float(m.group(2))
    yield e, dx, dy
    for c in e:
        yield from walk(c, dx, dy)
for path in sys.argv[1:]:
    root = ET.parse(path).getroot()
    W, H = float(root.get("width")), float(root.get("height"))
    if W > 32767 or H > 32767:
        bad.append("%s: a %gx%g canvas, above what renderers take (32767)" % (path, W, H))
    def inside(what, x, y):
        x, y = x + dx, y + dy
        if not (-0.5 <= x <= W + 0.5 and -0.5 <= y <= H + 0.5):
            bad.append("%s: %s at (%.1f, %.1f) outside the %gx%g canvas" % (path, what, x, y, W, H))
    for e, dx, dy in walk(root):
        tag = e.tag.replace(ns, "")
        if tag == "rect":
            if e.get("width", "").endswith("%"):
                continue
            x, y = num(e, "x"), num(e, "y")
            inside("rect", x, y)
            inside("rect", x + num(e, "width"), y + num(e, "height"))
        elif tag == "line":
            inside("line", num(e, "x1"), num(e, "y1"))
            inside("line", num(e, "x2"), num(e, "y2"))
        elif tag in ("polyline", "polygon"):
            v = [float(t) for t in re.split(r"[ ,]+", e.get("points").strip()) if t]
            for i in range(0, len(v) - 1, 2):
                inside(tag, v[i], v[i + 1])
        elif tag == "path":
            v = [float(t) for t in re.findall(r"-?[0-9.]+(?:e-?[0-9]+)?", e.get("d"))]
            for i in range(0, len(v) - 1, 2):
                inside("path", v[i], v[i + 1])
        elif tag == "text":
            s = "".join(e.itertext())
            size = num(e, "font-size", 12)
            wdt = 0.6 * size * len(s)
            x, y = num(e, "x"), num(e, "y")
            anchor = e.get("text-anchor", "start")
            shift = wdt / 2 if anchor == "middle" else wdt if anchor == "end" else 0
            if e.get("transform", "").startswith("rotate(-90"):
                x0, x1, y0 = x - size, x, y + shift  # written upwards about (x, y)
                y1 = y0 - wdt
            else:
                x0 = x - shift
                x1, y0, y1 = x0 + wdt, y, y - size
            inside("text '%s'" % s[:40], x0, y0)
            inside("text '%s'" % s[:40], x1, y1)
    panels = [g for g in root.iter(ns + "g") if g.get("class") == "panel"]
    ndev = sum(1 for g in panels if g.get("data-kind") == "timeline")
    shown = [t.text for g in panels if g.get("data-kind") == "devices"
             for t in g.iter(ns + "text") if t.get("class") == "legend"]
    if ndev > 1 and len(shown) != ndev:
        bad.append("%s: %d devices, %d in the comparison panels" % (path, ndev, len(shown)))
    for g in panels:
        if g.get("data-kind") == "timeline" and \
                not any(l.get("class") == "xtick" for l in g.iter(ns + "line")):
            if "no GPU timestamps" not in "".join(g.itertext()):
                bad.append("%s: a timeline without an x axis" % path)
    # at most 24 devices a column (bench_plot.c DEV_PER_COLUMN), so that
    # every emulated device's canvas stays within 32767 pixels
    cols = {}
    for e, dx, dy in walk(root):
        if e.tag == ns + "g" and e.get("class") == "panel" and e.get("data-kind") == "timeline":
            x = round(num(e.find(ns + "rect"), "x") + dx)
            cols[x] = cols.get(x, 0) + 1
    if cols and max(cols.values()) > 24:
        bad.append("%s: %d timelines in one column, more than 24" % (path, max(cols.values())))
for b in bad[:40]:
    print(b)
if len(bad) > 40:
    print("... %d more" % (len(bad) - 40))
sys.exit(1 if bad else 0)
PY
fi
command -v rsvg-convert >/dev/null || { echo "no rsvg-convert (librsvg2-bin): skip"; exit 77; }
rsvg-convert "$work/all.svg" -o "$work/all.png"
[ -s "$work/all.png" ] || { echo "empty PNG of every device"; exit 1; }
rsvg-convert "$work/p.svg" -o "$work/p.png"
[ -s "$work/p.png" ] || { echo "empty PNG"; exit 1; }
size=$(wc -c <"$work/p.png")
[ "$size" -gt 20000 ] || { echo "PNG of $size bytes: nearly blank"; exit 1; }
echo "ok: CSV, SVG and PNG ($size bytes)"
