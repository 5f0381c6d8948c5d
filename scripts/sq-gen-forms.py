#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write OUTDIR/sqk_all_<family>.s: one assembly line for every row of the
kernel interpreter's opcode tables (src/emu/sq/sqk_tab.c).

For each family it builds the same candidate words as sq-gen-tables.py,
disassembles them with LLVM 22's llvm-mc, keeps the rows the family's table
holds, and writes the first text of each that llvm-mc assembles again. The
test emu_sqk_encoding assembles these files, disassembles them with
llvm-objdump, checks the interpreter's decoding of every instruction and
that every row of each table was decoded at least once. The build runs it
(test/CMakeLists.txt) whenever the tables or these scripts change.

Each family's files are kept in CACHE/<family>-<key> (default
OUTDIR/.cache), the key a hash of its rows, the scripts and LLVM's llvm-mc
(the last 8 keys of each family): a family whose key is there takes its
files from there, so a table or script restored to a former text, as the
mutation check does after each fault, or another build directory sharing
the cache costs no second run of llvm-mc.
Usage: scripts/sq-gen-forms.py OUTDIR [/usr/lib/llvm-22/bin [CACHE]]
"""
import glob, hashlib, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
gen = __import__("sq-gen-tables")
if len(sys.argv) < 2:
    sys.exit(__doc__.strip().splitlines()[-1])
OUTDIR = sys.argv[1]
gen.LLVM = sys.argv[2] if len(sys.argv) > 2 else "/usr/lib/llvm-22/bin"
CACHE = sys.argv[3] if len(sys.argv) > 3 else os.path.join(OUTDIR, ".cache")

ENC_ID = {"SOP2": "SQK_SOP2", "SOPK": "SQK_SOPK", "SOP1": "SQK_SOP1", "SOPC": "SQK_SOPC",
          "SOPP": "SQK_SOPP", "VOP1": "SQK_VOP1", "VOP2": "SQK_VOP2", "VOPC": "SQK_VOPC",
          "VOP3": "SQK_VOP3", "VOP3P": "SQK_VOP3P", "SMEM": "SQK_SMEM", "FLAT": "SQK_FLAT",
          "FLATS": "SQK_SCRATCH", "FLATG": "SQK_GLOBAL", "DS": "SQK_DS", "MUBUF": "SQK_MUBUF",
          "VOPD": "SQK_VOPD", "VOPD3": "SQK_VOPD3"}


def table_rows(fam):
    """{(SQK_ENC, opcode): op} of sqk_tab_<fam> in src/emu/sq/sqk_tab.c"""
    rows, cur = {}, None
    for line in open(os.path.join(gen.ROOT, "src/emu/sq/sqk_tab.c")):
        m = re.match(r"const struct sqk_opent sqk_tab_(\w+)\[\]", line)
        if m:
            cur = m.group(1)
            continue
        m = re.match(r"\s*\{ (SQK_\w+), (\d+), K_(\w+) \},", line)
        if m and cur == fam and m.group(1) != "SQK_ENC_NONE":
            rows[(m.group(1), int(m.group(2)))] = m.group(3)
    return rows


def bad_lines(mcpu, lines):
    """indices of the lines llvm-mc does not assemble"""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "f.s")
        open(src, "w").write("".join("\t%s\n" % l for l in lines))
        # gfx12's true16 rows are spelt with register halves (real-true16,
        # as sq-gen-tables.py reads them)
        attrs = ["-mattr=+real-true16"] if mcpu.startswith("gfx12") else []
        p = subprocess.run([gen.LLVM + "/llvm-mc", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + mcpu] +
                           attrs + ["-filetype=obj", src, "-o", os.path.join(d, "f.o")],
                           capture_output=True, text=True)
        return set(int(m.group(1)) - 1 for m in re.finditer(r"f\.s:(\d+):\d+: error", p.stderr))


def inputs_key(fam, mcpu, g10, want):
    """what the family's files follow from: its rows, the two scripts, the
    list of implemented operations and LLVM's llvm-mc"""
    h = hashlib.sha256(repr((fam, mcpu, g10, sorted(want.items()))).encode())
    for p in (os.path.abspath(__file__), gen.__file__, gen.OPS):
        h.update(open(p, "rb").read())
    mc = os.path.join(gen.LLVM, "llvm-mc")
    st = os.stat(mc)
    h.update(repr((os.path.realpath(mc), st.st_size, st.st_mtime_ns)).encode())
    return h.hexdigest()


def outputs(fam, g10):
    out = [os.path.join(OUTDIR, "sqk_all_%s.s" % fam)]
    if g10:
        out.append(os.path.join(OUTDIR, "sqk_alias_%s.txt" % fam))
    return out


CACHE_KEEP = 8


def main():
    for fam, mcpu, g10 in gen.FAMILIES:
        want = table_rows(fam)
        cache = os.path.join(CACHE, "%s-%s" % (fam, inputs_key(fam, mcpu, g10, want)))
        if os.path.exists(os.path.join(cache, "msgs")):
            for p in outputs(fam, g10):
                shutil.copyfile(os.path.join(cache, os.path.basename(p)), p)
            sys.stderr.write(open(os.path.join(cache, "msgs")).read())  # that run's
            os.utime(cache)
            continue
        msgs = []
        texts = {}  # (enc id, opcode) -> candidate texts, in variant order
        for enc, n in gen.ranges(g10).items():
            if not gen.has_enc(mcpu, enc):
                continue
            for v in range(len(gen.variants(enc, 0, g10))):
                ops = [op for op in range(n) if (ENC_ID[enc], op) in want]
                for op, m in zip(ops, gen.disasm(mcpu, [gen.variants(enc, op, g10)[v] for op in ops])):
                    if m and gen.gfx8_name(mcpu, gen.row_name(enc, op, m, g10)) == want[(ENC_ID[enc], op)]:
                        t = texts.setdefault((ENC_ID[enc], op), [])
                        # a VGPR where the operation takes an SGPR (gfx12's
                        # v_s_*: "v2/*Invalid register, operand has
                        # 'SReg_32' register class*/"): the SGPR of that
                        # number
                        m = re.sub(r"v(\d+)\s*/\*Invalid register[^*]*\*/", r"s\1", m)
                        # a VOP3 form printed without its suffix (v_nop)
                        # assembles to the short encoding: ask for _e64
                        mn = m.split()[0]
                        if enc == "VOP3" and mn == gen.base(mn) and any(
                                e in ("SQK_VOP1", "SQK_VOP2", "SQK_VOPC") and o == mn
                                for (e, _), o in want.items()):
                            m = mn + "_e64" + m[len(mn):]
                        t.append(m)
                        # an f16 literal operand (v_fmaak_f16): the end
                        # mark read as the literal is no 16-bit value
                        if "0xbfb50003" in m and "_f16" in mn:
                            t.append(m.replace("0xbfb50003", "0x4900"))
                        # gfx90a and later want even-aligned VGPR tuples:
                        # the same text with each odd-based tuple moved up one
                        t.append(re.sub(r"v\[(\d+):(\d+)\]", lambda r: "v[%d:%d]" % (
                            int(r.group(1)) + int(r.group(1)) % 2, int(r.group(2)) + int(r.group(1)) % 2), m))
        keys = sorted(texts)
        pick = {k: 0 for k in keys}
        while True:
            lines = [texts[k][pick[k]] for k in keys]
            bad = bad_lines(mcpu, lines)
            if not bad:
                break
            for i in sorted(bad, reverse=True):
                k = keys[i]
                pick[k] += 1
                if pick[k] >= len(texts[k]):
                    msgs.append("%s: no text of %s %d assembles\n" % (fam, k[0], k[1]))
                    sys.stderr.write(msgs[-1])
                    del keys[i]
        out = os.path.join(OUTDIR, "sqk_all_%s.s" % fam)
        with open(out, "w") as f:
            f.write("// Every row of sqk_tab_%s (src/emu/sq/sqk_tab.c), as LLVM 22 prints it.\n"
                    "// Generated by scripts/sq-gen-forms.py (-mcpu=%s). Do not edit.\n" % (fam, mcpu))
            for k in keys:
                f.write("\t%s\n" % texts[k][pick[k]])
        if g10:
            # the RDNA mnemonics (and the VOPD halves') of each operation,
            # for emu_sqk_encoding's comparison with llvm-objdump
            pairs = set()
            for k in keys:
                t = texts[k][pick[k]]
                halves = t.split("::") if k[0] in ("SQK_VOPD", "SQK_VOPD3") else [t]
                for h in halves:
                    mn = gen.base(h.split()[0])
                    op = gen.op_name("", h.replace("v_dual_", "v_", 1), g10)
                    if op and mn != op:
                        pairs.add("%s %s\n" % (mn, op))
            with open(os.path.join(OUTDIR, "sqk_alias_%s.txt" % fam), "w") as f:
                f.write("".join(sorted(pairs)))
        missing = [k for k in want if k not in keys]
        if missing:  # the test names them; say it here too
            msgs.append("%s: %d of %d rows have no form: %s\n" % (fam, len(missing), len(want),
                        " ".join("%s/%d" % m for m in missing)))
            sys.stderr.write(msgs[-1])
        # written whole, then renamed: another build reading the cache at
        # once sees the entry complete or not at all
        os.makedirs(CACHE, exist_ok=True)
        tmp = tempfile.mkdtemp(dir=CACHE, prefix=".new-")
        for p in outputs(fam, g10):
            shutil.copyfile(p, os.path.join(tmp, os.path.basename(p)))
        with open(os.path.join(tmp, "msgs"), "w") as f:
            f.write("".join(msgs))
        try:
            os.rename(tmp, cache)
        except OSError:  # another build wrote it first
            shutil.rmtree(tmp, ignore_errors=True)
        old = sorted(glob.glob(os.path.join(CACHE, fam + "-*")), key=os.path.getmtime)
        for d in old[:-CACHE_KEEP]:
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
