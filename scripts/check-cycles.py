#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fail when two or more files of src/ depend on each other in a loop.

Edges: A -> B when A.c calls/uses a global symbol defined in B.c (from `nm`
of the objects: undefined symbols of A mapped to the object defining them)
and when A includes "B" (#include "..." between src/ files). Every strongly
connected component of more than one file is a cycle.

scripts/known-cycles.txt lists the cycles still to be removed, one per line
(the files of the component, sorted, space-separated). The check fails on a
cycle not on the list and on a listed cycle that no longer exists, so the
list only shrinks: remove a line when you break its cycle.

Usage: check-cycles.py BUILD_DIR   (the objects of BUILD_DIR's kfdsig_obj)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
KNOWN = os.path.join(ROOT, "scripts", "known-cycles.txt")


def objects(build):
    """The library's objects of this build tree only (not those of builds
    nested in it, e.g. the no-libdrm test's), and only for sources that
    still exist (a stale object of a removed file is not a file of src/)."""
    out = {}
    top = os.path.join(build, "CMakeFiles", "kfdsig_obj.dir")
    for d, _, files in os.walk(top):
        for f in files:
            if f.endswith(".c.o"):
                p = os.path.join(d, f)
                rel = os.path.relpath(p, top)[: -len(".o")]
                if rel.startswith("src" + os.sep) and os.path.exists(os.path.join(ROOT, rel)):
                    out[rel] = p
    return out


def nm(path, flag):
    r = subprocess.run(["nm", flag, path], capture_output=True, text=True, check=True)
    syms = set()
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and (flag == "-u" or parts[-2] in "TDBRCVW"):
            syms.add(parts[-1])
    return syms


def include_edges(edges):
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for d, _, files in os.walk(os.path.join(ROOT, "src")):
        for f in files:
            if not f.endswith((".c", ".h")):
                continue
            src = os.path.relpath(os.path.join(d, f), ROOT)
            with open(os.path.join(ROOT, src), errors="replace") as fh:
                for line in fh:
                    m = inc.match(line)
                    if not m:
                        continue
                    for base in (os.path.dirname(src), "src"):
                        dst = os.path.normpath(os.path.join(base, m.group(1)))
                        if os.path.isfile(os.path.join(ROOT, dst)):
                            edges.setdefault(src, set()).add(dst)
                            break


def sccs(edges):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    nodes = set(edges) | {b for v in edges.values() for b in v}

    def visit(v):  # iterative Tarjan
        work = [(v, iter(sorted(edges.get(v, ()))))]
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = n[0]
                    n[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(" ".join(sorted(comp)))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return set(out)


def main():
    if len(sys.argv) != 2:
        print("usage: check-cycles.py BUILD_DIR", file=sys.stderr)
        return 2
    objs = objects(sys.argv[1])
    if not objs:
        print("check-cycles: no src/ objects under %s (build first)" % sys.argv[1], file=sys.stderr)
        return 2
    defined = {}
    for src, o in objs.items():
        for s in nm(o, "--defined-only"):
            defined[s] = src
    edges = {}
    for src, o in objs.items():
        for s in nm(o, "-u"):
            dst = defined.get(s)
            if dst and dst != src:
                edges.setdefault(src, set()).add(dst)
    include_edges(edges)
    found = sccs(edges)
    known = set()
    with open(KNOWN) as fh:
        for line in fh:
            line = line.split("#", 1)[0].strip()
            if line:
                known.add(" ".join(sorted(line.split())))
    bad = 0
    for c in sorted(found - known):
        print("check-cycles: files depend on each other in a loop: " + c, file=sys.stderr)
        bad = 1
    for c in sorted(known - found):
        print("check-cycles: listed cycle is gone, remove it from scripts/known-cycles.txt: " + c,
              file=sys.stderr)
        bad = 1
    if not bad:
        print("check-cycles: %d files, no cycle besides the %d listed" % (len(objs), len(known)))
    return bad


sys.exit(main())
