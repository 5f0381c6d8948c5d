#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One instruction form per operation of the kernel interpreter's opcode
tables (src/emu/sq/sqk_tab.c) that the hand-written forms
(test/kernels/sqk_forms_gfx9.s, _gfx90a.s, _gfx940.s, _gfx10.s) leave out,
per family: test/kernels/sqk_forms_ops_<family>.s, which
test/emu_sqk_encoding.c assembles with llvm-mc and decodes. For each
operation the first operand pattern below that LLVM 22's llvm-mc accepts for
the family's processor is kept (for a VALU operation, a VGPR or vcc pattern
before an SGPR one, so that its short encoding is the one kept), in its VOP3
(_e64) spelling too for the VALU operations that have one.

Usage: scripts/sq-gen-forms.py   (needs /usr/lib/llvm-22/bin/llvm-mc)
Rerun after adding operations to the tables (scripts/sq-gen-tables.py).
"""
import os
import re
import subprocess
import tempfile

LLVM = os.environ.get("KFDSIG_LLVM22_BIN", "/usr/lib/llvm-22/bin")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMS = {  # table name: (mcpu, extra llvm-mc arguments, hand-written forms)
    "gfx900": ("gfx900", [], ["gfx9"]),
    "gfx906": ("gfx906", [], ["gfx9"]),
    "gfx908": ("gfx908", [], ["gfx9"]),
    "gfx90a": ("gfx90a", [], ["gfx9", "gfx90a"]),
    "gfx940": ("gfx942", [], ["gfx90a", "gfx940"]),
    "gfx1030": ("gfx1030", ["-mattr=+wavefrontsize32"], ["gfx10"]),
}

# Operand patterns, tried in order; {vcc} is vcc (wave64) or vcc_lo (wave32).
PATTERNS = [
    "", "s1, s2, s3", "s[2:3], s[4:5], s[6:7]", "s[2:3], s[4:5], s6", "s1, s[4:5], s6",
    "s1, s2", "s[2:3], s[4:5]", "s1, s[4:5]", "s[2:3], s4", "s1, 0x10", "s[2:3], 0x10",
    "s2, s[4:5]", "s[2:3], s[4:5], 0x10", "0x10", "s[2:3]", "s1", "s1, hwreg(HW_REG_MODE)",
    "hwreg(HW_REG_MODE), s1", "hwreg(HW_REG_MODE), 0x1", "sendmsg(MSG_INTERRUPT)",
    "s1, s[2:3], 0x10", "s[2:3], s[4:5], 0x10", "s[4:7], s[2:3], 0x10",
    "s[8:15], s[2:3], 0x10", "s[16:31], s[2:3], 0x10", "s1, s[4:7], 0x10",
    "s[2:3], s[4:7], 0x10", "s[8:11], s[4:7], 0x10", "s[8:15], s[4:7], 0x10",
    "s[16:31], s[4:7], 0x10",
    "v1, v2", "v1, v2, v3", "v1, v2, v3, v4", "v[2:3], v[4:5]", "v[2:3], v[4:5], v[6:7]",
    "v[2:3], v[4:5], v[6:7], v[8:9]", "v1, v[2:3]", "v[2:3], v1", "v1, v[2:3], v[4:5]",
    "v[2:3], v1, v[4:5]", "v[2:3], v[4:5], v1", "v1, v[2:3], v4", "v[2:3], v1, v2",
    "v1, v2, v[4:5]", "v[2:3], v4, v[6:7]", "v[2:3], v[4:5], v6", "v1, v2, s3", "v1, s2, v3",
    "v1, {vcc}, v2, v3", "v1, {vcc}, v2, v3, {vcc}", "v1, v2, v3, {vcc}", "{vcc}, v1, v2",
    "{vcc}, v[2:3], v[4:5]", "{vcc}, v1, v[2:3]", "{vcc}, v[2:3], v1", "v1, s2", "s1, v2, s3",
    "s1, v2", "v1, s2, s3", "v1, {vcc}, v2, v3, v4", "v[2:3], {vcc}, v[4:5], v[6:7], v[8:9]",
    "v[2:3], s[4:5], v1, v2, v[6:7]", "v[2:3], s4, v1, v2, v[6:7]", "v1, 0x10", "v1",
    "v1, v2, v3 offset1:1", "v[2:3], v1 offset1:1", "v1, v[2:3], v[4:5] offset1:1",
    "v[4:7], v1 offset1:1", "v1, v2 offset:0xffff", "v1, v[2:4]", "v1, v[4:7]", "v[2:4], v1",
    "v[4:7], v1", "v[2:3], v1, v[4:5], v[6:7]", "v1, v[2:3], v[4:5]", "v1 offset:4",
    "v1, v[2:3], off", "v[2:3], v[4:5], off", "v[2:4], v[4:5], off", "v[4:7], v[2:3], off",
    "v[2:3], v1, off", "v[2:3], v[4:5], off", "v[2:3], v[4:6], off", "v[2:3], v[4:7], off",
    "v1, v[2:3], v4, off glc", "v1, v[2:3], v4, off sc0", "v[2:3], v[4:5], v[6:7], off glc",
    "v[2:3], v[4:5], v[6:7], off sc0", "v1, v[2:3], v[4:5], off glc",
    "v1, v[2:3], v[4:5], off sc0", "v[2:3], v[4:5], v[6:9], off glc",
    "v[2:3], v[4:5], v[6:9], off sc0", "v[2:3], v[4:7], off",
    "v1, v[2:3]", "v[2:3], v[4:5]", "v[2:4], v[4:5]", "v[4:7], v[2:3]", "v[2:3], v[4:6]",
    "v[2:3], v[4:7]", "v1, v[2:3], v4 glc", "v1, v[2:3], v4 sc0", "v[2:3], v[4:5], v[6:7] glc",
    "v[2:3], v[4:5], v[6:7] sc0", "v[2:3], v[4:5], v[6:9] glc", "v[2:3], v[4:5], v[6:9] sc0",
    "v1, v2, off", "v2, v1, off", "v[2:3], v4, off", "v4, v[2:3], off", "v[2:4], v5, off",
    "v5, v[2:4], off", "v[4:7], v1, off", "v1, v[4:7], off",
    "v1, off, s[4:7], s1", "v[2:3], off, s[4:7], s1", "v[2:4], off, s[4:7], s1",
    "v[4:7], off, s[4:7], s1", "v1, off, s[4:7], s1 glc", "v1, off, s[4:7], s1 sc0",
    "v[2:3], off, s[4:7], s1 glc", "v[2:3], off, s[4:7], s1 sc0",
    "v[4:7], off, s[4:7], s1 glc", "v[4:7], off, s[4:7], s1 sc0",
    "a[0:3], v1, v2, a[0:3]", "a[0:15], v1, v2, a[0:15]", "a[0:31], v1, v2, a[0:31]",
    "a[0:3], v[2:3], v[4:5], a[0:3]", "a[0:15], v[2:3], v[4:5], a[0:15]",
    "v[0:3], v[4:5], v[6:7], v[0:3]", "v[0:15], v[16:17], v[18:19], v[0:15]",
    "v[0:3], v4, v5, v[0:3]", "v[0:15], v16, v17, v[0:15]", "v[0:31], v32, v33, v[0:31]",
    "v[0:7], v[8:9], v[10:11], v[0:7]", "v[0:1], v[2:3], v[4:5], v[0:1]",
    "a[0:1], v[2:3], v[4:5], a[0:1]", "a[0:7], v[2:3], v[4:5], a[0:7]",
    "a1, v2", "v1, a2", "a1, a2", "s[2:3], s4, s5", "gpr_idx(SRC0)", "s1, gpr_idx(SRC0)",
    "v1, v2, v3, 0x40000000", "v1, v2, 0x40000000, v3", "v1, s2, m0", "v1, 2, s3",
]
VALU_E64 = ("SQK_VOP1", "SQK_VOP2", "SQK_VOPC")


def table_ops():
    """{family: [(enc, op name)]} from sqk_tab.c."""
    out, cur = {}, None
    for line in open(os.path.join(ROOT, "src/emu/sq/sqk_tab.c")):
        m = re.match(r"const struct sqk_opent sqk_tab_(\w+)\[\]", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*\{ (SQK_\w+), (\d+), K_(\w+) \}", line)
        if m and cur is not None and m.group(1) != "SQK_ENC_NONE":
            cur.append((m.group(1), m.group(3)))
    return out


def hand_ops(files):
    ops = set()
    for f in files:
        for line in open(os.path.join(ROOT, f"test/kernels/sqk_forms_{f}.s")):
            line = line.split("//")[0].strip()
            if line:
                ops.add(re.sub(r"_(e32|e64|sdwa|dpp)$", "", line.split()[0]))
    return ops


def accepted(lines, mcpu, args, tmp):
    """The indices of @lines llvm-mc assembles for @mcpu."""
    src = os.path.join(tmp, "t.s")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    r = subprocess.run([f"{LLVM}/llvm-mc", "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", *args,
                        "-show-encoding", src, "-o", os.devnull], capture_output=True, text=True)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"t\.s:(\d+):\d+: error", r.stderr)}
    return [i for i in range(len(lines)) if i not in bad]


def main():
    tabs = table_ops()
    with tempfile.TemporaryDirectory() as tmp:
        for fam, (mcpu, args, hand) in FAMS.items():
            done = hand_ops(hand)
            vcc = "vcc_lo" if "wavefrontsize32" in " ".join(args) else "vcc"
            want = []  # (mnemonic, e64) still without a form
            for enc, op in tabs[fam]:
                if op not in done and (op, False) not in want:
                    want.append((op, False))
                if enc in VALU_E64 and (op, True) not in want:
                    want.append((op, True))
            forms = {}
            # a VALU operation tries the VGPR and vcc patterns first, so that
            # its short (VOP1/VOP2/VOPC) encoding is the one kept rather than
            # a VOP3 spelling with SGPR sources; others go in list order
            vfirst = [p for p in PATTERNS if not p.startswith("s")] + \
                [p for p in PATTERNS if p.startswith("s")]
            for k in range(len(PATTERNS)):
                left = [w for w in want if w not in forms]
                if not left:
                    break
                lines = [f"{op}{'_e64' if e64 else ''} "
                         f"{(vfirst if op.startswith('v_') else PATTERNS)[k].format(vcc=vcc)}"
                         .strip() for op, e64 in left]
                for i in accepted(lines, mcpu, args, tmp):
                    forms[left[i]] = lines[i]
            path = os.path.join(ROOT, f"test/kernels/sqk_forms_ops_{fam}.s")
            with open(path, "w") as f:
                f.write("// SPDX-License-Identifier: MIT\n"
                        f"// One form per operation of the {fam} table that the hand-written\n"
                        "// forms leave out, in its VOP3 spelling too (test/emu_sqk_encoding.c).\n"
                        "// Generated by scripts/sq-gen-forms.py with LLVM 22's llvm-mc: do not\n"
                        "// edit.\n")
                for w in want:
                    if w in forms:
                        f.write(forms[w] + "\n")
            missing = sorted({op for op, e64 in want if (op, e64) not in forms and not e64})
            print(f"{fam}: {len(forms)} forms; no pattern for {len(missing)}: "
                  f"{' '.join(missing)}")


if __name__ == "__main__":
    main()
