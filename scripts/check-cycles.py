#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fail when two or more C files of src/ and tools/ depend on each other in a loop.

Nodes: every .c and .h file under src/ and tools/ (found by walking the
tree, so files that move are followed without a list to update).

Edges, A -> B:
  - calls and uses: A.c's object has an undefined global symbol that B.c's
    object defines (`nm`). The objects are found through the build's
    compile_commands.json (source -> object), whatever target or library
    they belong to. Symbols the C library defines are not edges (the
    LD_PRELOAD interposer defines open(), ioctl(), ... under libc's names).
  - includes: A has `#include "B"` (resolved against A's directory, then
    src/, tools/ and the top of the tree).
  - inline functions: a header's `static inline` function bodies belong to
    the header; every function they call that a C file defines is an edge
    header -> that file (so lint_fast.h -> lint.c is seen even where no
    object calls the inline function).

A header and its C file count as one node: x.h with x.c of the same
directory, and a header with the one C file that both includes it and
implements the calls of its inline functions (an inline fast path with an
out-of-line slow path, e.g. lint_fast.h and lint.c). Every strongly
connected component of more than one node is a cycle.

It prints how many of the C files of src/ and tools/ it examined (had an
object in the build) and fails below 90 %, and on any cycle, naming it.

Usage: check-cycles.py [--root TREE] BUILD_DIR
  TREE defaults to the tree this script is in; BUILD_DIR holds
  compile_commands.json and the objects (CMAKE_EXPORT_COMPILE_COMMANDS).
"""
import json
import os
import re
import shlex
import subprocess
import sys

DIRS = ("src", "tools")
MIN_EXAMINED = 0.90


def tree_files(root):
    """Every .c and .h file of src/ and tools/, relative to root."""
    out = []
    for top in DIRS:
        for d, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs.sort()
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), root))
    return out


def objects(root, build):
    """source (relative to root) -> set of its objects, from compile_commands.json."""
    path = os.path.join(build, "compile_commands.json")
    try:
        with open(path) as fh:
            entries = json.load(fh)
    except OSError as e:
        sys.exit("check-cycles: cannot read %s (%s): configure and build first" % (path, e.strerror))
    root = os.path.realpath(root)
    out = {}
    for e in entries:
        d = e.get("directory", build)
        src = os.path.realpath(os.path.join(d, e["file"]))
        rel = os.path.relpath(src, root)
        if rel.startswith("..") or rel.split(os.sep, 1)[0] not in DIRS:
            continue
        obj = e.get("output")
        if not obj:
            args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
            for i, a in enumerate(args):
                if a == "-o" and i + 1 < len(args):
                    obj = args[i + 1]
                elif a.startswith("-o") and len(a) > 2:
                    obj = a[2:]
        if not obj:
            continue
        obj = os.path.join(d, obj)
        if os.path.isfile(obj):
            out.setdefault(rel, set()).add(obj)
    return out


def nm(paths, defined):
    """object path -> its global defined (or undefined) symbols, one nm run."""
    args = ["nm", "-A", "--defined-only" if defined else "-u"] + sorted(paths)
    r = subprocess.run(args, capture_output=True, text=True, check=True)
    out = {p: set() for p in paths}
    for line in r.stdout.splitlines():
        path, _, rest = line.partition(":")
        parts = rest.split()
        if path in out and len(parts) >= 2 and (not defined or parts[-2] in "TDBRCVWGS"):
            out[path].add(parts[-1].split("@", 1)[0])
    return out


def libc_symbols():
    """Names the C library defines (an interposer redefining them is not a dependency)."""
    try:
        lib = subprocess.run(["cc", "-print-file-name=libc.so.6"], capture_output=True,
                             text=True, check=True).stdout.strip()
        r = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True,
                           check=True)
    except (OSError, subprocess.CalledProcessError):
        return set()
    return {line.split()[-1].split("@", 1)[0] for line in r.stdout.splitlines() if line.split()}


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def include_edges(root, files, edges):
    known = set(files)
    for src in files:
        with open(os.path.join(root, src), errors="replace") as fh:
            text = fh.read()
        for m in INCLUDE.finditer(text):
            for base in (os.path.dirname(src),) + DIRS + ("",):
                dst = os.path.normpath(os.path.join(base, m.group(1)))
                if os.path.isfile(os.path.join(root, dst)):
                    if dst in known and dst != src:
                        edges.setdefault(src, set()).add(dst)
                    break


def strip_c(text):
    """Comments, strings and character constants blanked out; lines kept."""
    pat = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pat.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


INLINE_HEAD = re.compile(r"\bstatic\s+(?:__inline__|__inline|inline)\b[^;{}()]*?\b(\w+)\s*\(", re.S)
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def inline_calls(text):
    """Names called in the bodies of the static inline functions of @text."""
    text = strip_c(text)
    calls = set()
    for m in INLINE_HEAD.finditer(text):
        # skip the parameter list, then take the body if this is a definition
        i, depth = m.end(), 1
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        j = i
        while j < len(text) and text[j] not in "{;":
            j += 1
        if j >= len(text) or text[j] != "{":
            continue
        k, depth = j + 1, 1
        while k < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
        calls.update(CALL.findall(text[j:k]))
    return calls


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
                        out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(out)


def merge_pairs(files, edges, inline_edges):
    """Node names after joining each header with its C file: x.h with x.c of
    the same directory, and a header with the one C file that includes it
    directly and defines what its inline functions call."""
    name = {}
    have = set(files)
    for h in files:
        c = h[:-2] + ".c"
        if h.endswith(".h") and c in have:
            name[h] = name[c] = c + "+" + os.path.basename(h)
    for h, dsts in inline_edges.items():
        if h in name:
            continue
        own = [c for c in dsts if h in edges.get(c, ())]
        if len(own) == 1:
            name[h] = own[0] + "+" + os.path.basename(h)
            name[own[0]] = name[h]
    merged = {}
    for a, dsts in edges.items():
        for b in dsts:
            na, nb = name.get(a, a), name.get(b, b)
            if na != nb:
                merged.setdefault(na, set()).add(nb)
    return merged


def main(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    args = argv[1:]
    if len(args) == 3 and args[0] == "--root":
        root, args = args[1], args[2:]
    if len(args) != 1:
        print("usage: check-cycles.py [--root TREE] BUILD_DIR", file=sys.stderr)
        return 2
    files = tree_files(root)
    cfiles = [f for f in files if f.endswith(".c")]
    objs = objects(root, args[0])
    examined = [f for f in cfiles if f in objs]
    libc = libc_symbols()

    defined, ambiguous = {}, set()
    undefined = {}
    allobjs = {o for src in examined for o in objs[src]}
    defs, undefs = (nm(allobjs, True), nm(allobjs, False)) if allobjs else ({}, {})
    for src in examined:
        for o in sorted(objs[src]):
            for s in defs[o]:
                if defined.setdefault(s, src) != src:
                    ambiguous.add(s)
            undefined.setdefault(src, set()).update(undefs[o])
    for s in ambiguous | libc:
        defined.pop(s, None)

    edges = {}
    for src, syms in undefined.items():
        for s in syms:
            dst = defined.get(s)
            if dst and dst != src:
                edges.setdefault(src, set()).add(dst)
    include_edges(root, files, edges)
    inline_edges = {}
    for h in (f for f in files if f.endswith(".h")):
        with open(os.path.join(root, h), errors="replace") as fh:
            for s in inline_calls(fh.read()):
                dst = defined.get(s)
                if dst:
                    inline_edges.setdefault(h, set()).add(dst)
    for h, dsts in inline_edges.items():
        edges.setdefault(h, set()).update(dsts)

    share = len(examined) / len(cfiles) if cfiles else 0.0
    print("check-cycles: examined %d of the %d C files of %s (%.0f %%), %d headers, "
          "%d edges (%d from header inline functions)"
          % (len(examined), len(cfiles), " and ".join(d + "/" for d in DIRS), 100 * share,
             len(files) - len(cfiles), sum(len(v) for v in edges.values()),
             sum(len(v) for v in inline_edges.values())))
    bad = 0
    if share < MIN_EXAMINED:
        missing = sorted(set(cfiles) - set(examined))
        print("check-cycles: fewer than %d %% of the C files have an object in %s (build "
              "first); without one: %s" % (100 * MIN_EXAMINED, args[0], " ".join(missing)),
              file=sys.stderr)
        bad = 1
    for comp in sccs(merge_pairs(files, edges, inline_edges)):
        print("check-cycles: files depend on each other in a loop: " + " ".join(comp),
              file=sys.stderr)
        bad = 1
    if not bad:
        print("check-cycles: no cycle")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
