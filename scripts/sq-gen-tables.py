#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate src/emu/sq/sqk_tab.c: the opcode tables of the kernel interpreter.

For each family it builds one instruction word per opcode of each encoding
(operand fields fixed to plain registers), disassembles them with LLVM 22's
llvm-mc --disassemble, and keeps the opcodes whose mnemonic is one the
interpreter implements (src/emu/sq/sqk_ops.def). The tables are facts of the
ISA as LLVM's disassembler reads it; the interpreter's semantics are its own.
Usage: scripts/sq-gen-tables.py [/usr/lib/llvm-22/bin]
"""
import os, re, subprocess, sys

LLVM = sys.argv[1] if len(sys.argv) > 1 else "/usr/lib/llvm-22/bin"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPS = os.path.join(ROOT, "src/emu/sq/sqk_ops.def")
OUT = os.path.join(ROOT, "src/emu/sq/sqk_tab.c")

names = []
for line in open(OPS):
    m = re.match(r"\s*X\((\w+)\)", line)
    if m:
        names.append(m.group(1))
known = set(names)

# (table id, -mcpu, gfx10 layout)
FAMILIES = [("gfx900", "gfx900", False), ("gfx906", "gfx906", False), ("gfx908", "gfx908", False),
            ("gfx90a", "gfx90a", False), ("gfx940", "gfx942", False), ("gfx1030", "gfx1030", True),
            ("gfx1010", "gfx1010", True), ("gfx1011", "gfx1011", True), ("gfx950", "gfx950", False)]

def variants(enc, op, g10):
    """candidate instruction dwords of opcode op in encoding enc (the
    disassembler refuses unused fields that are not zero)"""
    if enc == "SOP2": return [[0x80000000 | op << 23 | 5 << 16 | 2 << 8 | 1]]
    if enc == "SOPK": return [[0xB0000000 | op << 23 | 5 << 16 | 0x10], [0xB0000000 | op << 23 | 0x10]]
    if enc == "SOP1": return [[0xBE800000 | 4 << 16 | op << 8 | 2], [0xBE800000 | op << 8 | 2],
                              [0xBE800000 | 4 << 16 | op << 8]]
    if enc == "SOPC": return [[0xBF000000 | op << 16 | 2 << 8 | 1]]
    if enc == "SOPP": return [[0xBF800000 | op << 16 | 0]]
    if enc == "VOP1": return [[0x7E000000 | 2 << 17 | op << 9 | 0x104], [0x7E000000 | op << 9]]
    if enc == "VOP2": return [[op << 25 | 2 << 17 | 3 << 9 | 0x104]]
    if enc == "VOPC": return [[0x7C000000 | op << 17 | 3 << 9 | 0x104]]
    if enc == "VOP3":
        w0 = (0xD4000000 if g10 else 0xD0000000) | op << 16
        return [[w0 | 2, 0x106 << 18 | 0x104 << 9 | 0x102], [w0 | 2, 0x104 << 9 | 0x102],
                [w0 | 0x7e, 0x104 << 9 | 0x102],
                [w0 | 2, 0x102], [w0 | 2 | 106 << 8, 0x106 << 18 | 0x104 << 9 | 0x102],
                [w0 | 2 | 106 << 8, 0x104 << 9 | 0x102], [w0 | 2, 0x104 << 9 | 0x2], [w0 | 2, 0x4 << 9 | 0x102],
                [w0 | 2, 0x4 << 9 | 0x2], [w0, 0]]
    if enc == "VOP3P":
        w0 = (0xCC000000 if g10 else 0xD3800000) | op << 16 | 2
        return [[w0, 3 << 27 | 0x106 << 18 | 0x104 << 9 | 0x102], [w0, 3 << 27 | 0x104 << 9 | 0x102],
                [w0, 3 << 27 | 0x102], [w0, 0x102], [w0, 2]]
    if enc == "SMEM":
        if g10: return [[0xF4000000 | op << 18 | 4 << 6 | 2, 0x7D << 25], [0xF4000000 | op << 18, 0x7D << 25],
                        [0xF4000000 | op << 18 | 4 << 6, 0x7D << 25]]
        return [[0xC0000000 | op << 18 | 1 << 17 | 4 << 6 | 2, 0], [0xC0000000 | op << 18 | 1 << 17, 0],
                [0xC0000000 | op << 18 | 1 << 17 | 4 << 6, 0], [0xC0000000 | op << 18 | 4 << 6, 0],
                [0xC0000000 | op << 18, 0]]
    if enc.startswith("FLAT"):
        seg = {"FLAT": 0, "FLATS": 1, "FLATG": 2}[enc]
        off = 0x7D if g10 else 0x7F
        w0 = 0xDC000000 | op << 18 | seg << 14
        return [[w0, 6 << 24 | off << 16 | 4 << 8 | 2], [w0, off << 16 | 4 << 8 | 2],
                [w0, 6 << 24 | off << 16 | 2], [w0, off << 16 | 2], [w0, 6 << 24 | 4 << 8 | 2], [w0, 4 << 8 | 2],
                [w0, 6 << 24 | 2], [w0, 2]]
    if enc == "DS":
        w0 = 0xD8000000 | op << (18 if g10 else 17)
        gds = 1 << (17 if g10 else 16)  # the GWS operations exist only with it
        return [[w0, d] for d in (6 << 24 | 5 << 16 | 4 << 8 | 2, 4 << 8 | 2, 5 << 16 | 4 << 8 | 2,
                                  6 << 24 | 2, 6 << 24 | 4 << 8 | 2, 2, 6 << 24, 0)] + \
            [[w0 | gds, d] for d in (4 << 8, 0)]
    if enc == "MUBUF":
        w0 = 0xE0000000 | (op & 0x7F) << 18 | (op >> 7) << 25
        return [[w0 | 1 << 12, 0x80 << 24 | 2 << 16 | 4 << 8 | 2], [w0, 0]]
    raise ValueError(enc)

MARK = 0xBF8F0003  # s_setprio 3
MARK2 = 0xBF8F0002  # s_setprio 2: the line's end

RANGES = {"SOP2": 96, "SOPK": 29, "SOP1": 256, "SOPC": 128, "SOPP": 128, "VOP1": 256,
          "VOP2": 62, "VOPC": 256, "VOP3": 1024, "VOP3P": 128, "SMEM": 256, "FLAT": 128,
          "FLATS": 128, "FLATG": 128, "DS": 256, "MUBUF": 128}

def disasm(mcpu, insns):
    """mnemonic line of each instruction, or None where LLVM refuses it"""
    text = "".join(",".join("0x%02x" % b for w in ws + [MARK, MARK2]
                            for b in w.to_bytes(4, "little")) + "\n" for ws in insns)
    p = subprocess.run([LLVM + "/llvm-mc", "--disassemble", "-triple=amdgcn-amd-amdhsa",
                        "-mcpu=" + mcpu], input=text, capture_output=True, text=True)
    bad = set(int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):1: warning: invalid instruction encoding", p.stderr))
    out = [l.strip() for l in p.stdout.splitlines() if l.strip() and not l.strip().startswith(".")]
    isend = lambda l: l.split() == ["s_setprio", "2"]
    res, k = [], 0
    for i in range(len(insns)):
        res.append(None if (i + 1) in bad or k >= len(out) else out[k])
        while k < len(out) and not isend(out[k]):
            k += 1
        k += 1
    return res

def base(m):
    return re.sub(r"_(e32|e64|sdwa|dpp)$", "", m)


def main():
    ENC_ID = {"SOP2": "SQK_SOP2", "SOPK": "SQK_SOPK", "SOP1": "SQK_SOP1", "SOPC": "SQK_SOPC",
              "SOPP": "SQK_SOPP", "VOP1": "SQK_VOP1", "VOP2": "SQK_VOP2", "VOPC": "SQK_VOPC",
              "VOP3": "SQK_VOP3", "VOP3P": "SQK_VOP3P", "SMEM": "SQK_SMEM", "FLAT": "SQK_FLAT",
              "FLATS": "SQK_SCRATCH", "FLATG": "SQK_GLOBAL", "DS": "SQK_DS", "MUBUF": "SQK_MUBUF"}

    out = ["/* SPDX-License-Identifier: MIT */",
           "/*",
           " * Opcode tables of the kernel interpreter, one per family: {encoding,",
           " * opcode, operation}. Generated by scripts/sq-gen-tables.py, which reads",
           " * each opcode's mnemonic with LLVM 22's disassembler (llvm-mc",
           " * --disassemble) and keeps the operations of sqk_ops.def. Do not edit.",
           " */",
           '#include "emu/sq/sqk.h"', ""]
    missing = {}
    for fam, mcpu, g10 in FAMILIES:
        rows, seen = [], set()
        for enc, n in RANGES.items():
            found = {}
            nv = len(variants(enc, 0, g10))
            for v in range(nv):
                ops = [op for op in range(n) if op not in found]
                for op, m in zip(ops, disasm(mcpu, [variants(enc, op, g10)[v] for op in ops])):
                    if m:
                        found[op] = m
            for op, m in sorted(found.items()):
                mn = base(m.split()[0])
                if enc.startswith("FLAT") and not mn.startswith(("flat_", "global_", "scratch_")):
                    continue
                if mn in known:
                    rows.append("\t{ %s, %d, K_%s }," % (ENC_ID[enc], op, mn))
                    seen.add(mn)
        missing[fam] = [x for x in names if x not in seen]
        out.append("const struct sqk_opent sqk_tab_%s[] = {" % fam)
        out += rows
        out.append("\t{ SQK_ENC_NONE, 0, K_INVALID },")
        out.append("};")
        out.append("")
    open(OUT, "w").write("\n".join(out))
    subprocess.run(["clang-format", "-i", OUT], check=False)  # the tree's .clang-format
    for fam, ms in missing.items():
        print(fam, "not in this family:", " ".join(ms), file=sys.stderr)


if __name__ == "__main__":
    main()
