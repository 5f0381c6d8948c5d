#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeds of fuzz_emu_engine's kernel form (test/fuzz/emu_engine_fuzz.c,
kernel_input()): compiled code for the shader unit's kernel interpreter on
gfx900, gfx90a, gfx942 and gfx1030 (wave64 and wave32), written to
test/fuzz/corpus/emu_engine/sq-* (or DIR):

  * small kernels assembled here with LLVM 22's llvm-mc (copy, loop, LDS and
    barrier, atomics, float math, a signal by store + s_sendmsg, s_trap, and
    an s_branch to itself that never ends), dispatched through AQL and PM4;
  * the kernels of test/kernels/sqk_kernels.ll compiled with opt/llc -O3 and
    linked with ld.lld, their kernel descriptors' fields in the header (AQL);
  * the instruction forms of test/kernels/sqk_forms_*.s, straight-line, and
    the scalar and vector ALU forms of the family's opcode-table rows (one
    line per row, written by scripts/sq-gen-forms.py; memory, branch,
    program-control and EXEC-writing ones left out, so that the wave runs
    through them with every lane on).

Usage: scripts/fuzz-sq-seeds.py [DIR]   (needs /usr/lib/llvm-22/bin)
The seeds are committed; rerun after changing the input layout.
"""
import os
import struct
import subprocess
import sys
import tempfile

LLVM = os.environ.get("KFDSIG_LLVM22_BIN", "/usr/lib/llvm-22/bin")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "test/fuzz/corpus/emu_engine")

# kernel form GPU index (kgpu[] of the fuzzer) and the assembler's -mcpu
GPUS = [(0, "gfx900"), (1, "gfx90a"), (2, "gfx942"), (3, "gfx1030")]
TABLE = {"gfx900": "gfx900", "gfx90a": "gfx90a", "gfx942": "gfx940", "gfx1030": "gfx1030"}
NOT_ALU = ("s_load", "s_store", "s_buffer", "s_dcache", "s_icache", "s_gl1", "s_mem", "s_cbranch",
           "s_branch", "s_setpc", "s_swappc", "s_getpc", "s_endpgm", "s_trap", "s_sendmsg",
           "s_barrier", "s_sleep", "s_rfe", "s_set_gpr_idx", "s_movrel", "s_sethalt",
           "s_setprio", "s_ttrace", "s_waitcnt", "s_nop", "s_code_end", "s_call", "s_setkill",
           "v_movrel", "v_readlane", "v_writelane", "v_swap")
FORMS = {"gfx900": ["gfx9"], "gfx90a": ["gfx9", "gfx90a"], "gfx942": ["gfx940"],
         "gfx1030": ["gfx10"]}

# COMPUTE_PGM_RSRC1: 32 VGPRs, 24 SGPRs, denormals on, DX10_CLAMP, IEEE
RSRC1 = 0x3 | 2 << 6 | 0xf0 << 12 | 1 << 21 | 1 << 23
# COMPUTE_PGM_RSRC2: 2 user SGPRs (the kernarg pointer), workgroup id X
RSRC2 = 2 << 1 | 1 << 7
PROPS_KERNARG = 1 << 3

# Small kernels: s[0:1] the kernel arguments (K_IN at 0, K_IN + 0x2000 at 8,
# K_OUT at 16, event slot at 64, event id at 72), s2 the workgroup id.
KERNELS = {
    "copy": """
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx2 s[8:9], s[0:1], 0x10
  v_and_b32 v0, 0x3ff, v0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[6:7]
  s_waitcnt vmcnt(0)
  {add} v2, v2, v3
  v_mul_lo_u32 v3, v2, v0
  v_xor_b32 v2, v2, v3
  global_store_dword v1, v2, s[8:9]
  s_endpgm
""",
    "loop": """
  s_load_dwordx2 s[8:9], s[0:1], 0x10
  v_and_b32 v0, 0x3ff, v0
  v_mov_b32 v2, 0
  s_movk_i32 s10, 0x40
loop:
  {add} v2, v2, v0
  v_lshlrev_b32 v3, 1, v2
  v_cmp_gt_u32 {vcc}, 0x100, v2
  v_cndmask_b32 v2, v3, v2, {vcc}
  s_sub_u32 s10, s10, 1
  s_cmp_lg_u32 s10, 0
  s_cbranch_scc1 loop
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[8:9]
  s_endpgm
""",
    "hang": """
self:
  s_branch self
""",
    "lds": """
  v_and_b32 v0, 0x3ff, v0
  v_lshlrev_b32 v1, 2, v0
  s_mov_b32 m0, -1
  ds_write_b32 v1, v0
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b32 v2, v1 offset:4
  ds_add_u32 v1, v0 offset:8
  s_load_dwordx2 s[8:9], s[0:1], 0x10
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[8:9]
  s_endpgm
""",
    "atomic": """
  s_load_dwordx2 s[8:9], s[0:1], 0x10
  v_and_b32 v0, 0x3ff, v0
  v_and_b32 v1, 60, v0
  v_mov_b32 v2, 1
  s_waitcnt lgkmcnt(0)
  global_atomic_add v1, v2, s[8:9]
  global_atomic_umax v3, v1, v0, s[8:9] offset:64 {glc}
  s_waitcnt vmcnt(0)
  global_store_dword v1, v3, s[8:9] offset:128
  s_endpgm
""",
    "float": """
  s_load_dwordx2 s[8:9], s[0:1], 0x10
  v_and_b32 v0, 0x3ff, v0
  v_cvt_f32_u32 v2, v0
  v_mul_f32 v3, v2, v2
  v_sqrt_f32 v3, v3
  v_fma_f32 v4, v2, v3, 1.0
  v_cmp_gt_f32 {vcc}, v4, v2
  v_cndmask_b32 v5, v2, v4, {vcc}
  v_rcp_f32 v5, v5
  v_cvt_u32_f32 v5, v5
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v5, s[8:9]
  s_endpgm
""",
    "signal": """
  s_load_dwordx4 s[4:7], s[0:1], 0x40
  v_and_b32 v0, 0x3ff, v0
  v_cmp_eq_u32 {vcc}, 0, v0
  s_and_saveexec_b{wave} s[10:11], {vcc}
  v_mov_b32 v2, 1
  v_mov_b32 v3, 0
  v_mov_b32 v1, 0
  s_waitcnt lgkmcnt(0)
  global_store_dwordx2 v1, v[2:3], s[4:5]
  s_waitcnt vmcnt(0)
  s_mov_b32 m0, s6
  s_sendmsg sendmsg(MSG_INTERRUPT)
  s_endpgm
""",
    "trap": """
  s_trap 2
  s_endpgm
""",
}


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def assemble(src, mcpu, w32, tmp):
    s, o, b = (os.path.join(tmp, n) for n in ("k.s", "k.o", "k.bin"))
    with open(s, "w") as f:
        f.write(src)
    attr = ["-mattr=+wavefrontsize32"] if w32 else (
        ["-mattr=+wavefrontsize64"] if mcpu.startswith("gfx10") else [])
    run([f"{LLVM}/llvm-mc", "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", *attr,
         "-filetype=obj", s, "-o", o])
    run([f"{LLVM}/llvm-objcopy", "-O", "binary", "--only-section=.text", o, b])
    with open(b, "rb") as f:
        return f.read()


def seed(gpu, pm4, w32, wg, groups, rsrc1, rsrc2, rsrc3, props, priv, lds, code, kernarg=b"",
         data=b"", preload=0):
    hdr = struct.pack("<BBHBBBBIIIHHHHH", 0x10, gpu | (4 if pm4 else 0) | (8 if w32 else 0),
                      wg - 1, 0, 0, groups - 1, 0, rsrc1, rsrc2, rsrc3, props, preload, priv,
                      lds, len(code))
    return hdr + code + kernarg.ljust(256, b"\0") + data


def write(name, blob):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(blob)


def data_words(n=64):
    return b"".join(struct.pack("<I", (i * 2654435761) & 0xffffffff) for i in range(n))


def small_kernels(tmp):
    for gi, mcpu in GPUS:
        gfx10 = mcpu.startswith("gfx10")
        for w32 in ([False, True] if gfx10 else [False]):
            sub = {"add": "v_add_nc_u32" if gfx10 else "v_add_u32",
                   "vcc": "vcc_lo" if w32 else "vcc", "wave": "32" if w32 else "64",
                   "glc": "sc0" if mcpu == "gfx942" else "glc"}
            for name, src in KERNELS.items():
                if w32:
                    src = src.replace("s[10:11]", "s10")
                code = assemble(src.format(**sub), mcpu, w32, tmp)
                lds = 8192 if name == "lds" else 0
                for pm4 in (False, True):
                    if pm4 and name not in ("copy", "loop", "hang", "signal"):
                        continue
                    tag = f"sq-{mcpu}-{'w32' if w32 else 'w64'}-{'pm4' if pm4 else 'aql'}-{name}"
                    # PM4: the group segment comes from RSRC2's LDS_SIZE (512-byte units)
                    r2 = RSRC2 | ((lds // 512) << 15 if pm4 else 0)
                    write(tag, seed(gi, pm4, w32, 64, 2, RSRC1, r2, 0, PROPS_KERNARG, 0, lds,
                                    code, data=data_words()))


def compiled_kernels(tmp):
    ll = os.path.join(ROOT, "test/kernels/sqk_kernels.ll")
    for gi, mcpu in GPUS:
        bc, o, so = (os.path.join(tmp, n) for n in ("k.bc", "k.o", "k.hsaco"))
        run([f"{LLVM}/opt", "-O3", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", ll, "-o", bc])
        run([f"{LLVM}/llc", "-O3", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}",
             "-filetype=obj", bc, "-o", o])
        run([f"{LLVM}/ld.lld", "-shared", o, "-o", so])
        img = open(so, "rb").read()
        for name, kd_off, code_off, size in elf_kernels(img):
            kd = img[kd_off:kd_off + 64]
            lds, priv = struct.unpack_from("<II", kd, 0)
            rsrc3, rsrc1, rsrc2, props, preload = struct.unpack_from("<IIIHH", kd, 44)
            code = img[code_off:code_off + size]
            w32 = bool(props & 1 << 10)
            n = struct.pack("<I", 64)
            write(f"sq-{mcpu}-ll-{name}",
                  seed(gi, False, w32, 64, 2, rsrc1, rsrc2, rsrc3, props, priv % 1024, lds, code,
                       kernarg=bytes(24) + n, data=data_words(), preload=preload))


def elf_kernels(img):
    """(name, kd file offset, code file offset, code size) of each kernel of
    a linked code object whose segments map file offsets 1:1 (ld.lld's
    layout for these objects: checked against the program headers)."""
    shoff, = struct.unpack_from("<Q", img, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", img, 0x3a)
    phoff, = struct.unpack_from("<Q", img, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", img, 0x36)
    segs = []
    for i in range(phnum):
        p_type, _, p_off, p_vaddr, _, p_filesz = struct.unpack_from("<IIQQQQ", img,
                                                                     phoff + i * phentsize)
        if p_type == 1:
            segs.append((p_vaddr, p_off, p_filesz))

    def file_off(va):
        for v, o, n in segs:
            if v <= va < v + n:
                return o + va - v
        raise ValueError(hex(va))

    secs = [struct.unpack_from("<IIQQQQIIQQ", img, shoff + i * shentsize) for i in range(shnum)]
    syms = {}
    for s in secs:
        if s[1] != 2:  # SHT_SYMTAB
            continue
        strtab = secs[s[6]]
        for k in range(s[5] // 24):
            st_name, _, _, _, value, size = struct.unpack_from("<IBBHQQ", img, s[4] + k * 24)
            end = img.index(b"\0", strtab[4] + st_name)
            syms[img[strtab[4] + st_name:end].decode()] = (value, size)
    out = []
    for name, (value, _) in sorted(syms.items()):
        if name.endswith(".kd") and name[:-3] in syms:
            fv, size = syms[name[:-3]]
            kd = file_off(value)
            entry, = struct.unpack_from("<q", img, kd + 16)
            if value + entry != fv:
                raise ValueError(name)
            out.append((name[:-3], kd, file_off(fv), size))
    return out


def forms(tmp):
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/sq-gen-forms.py"), tmp, LLVM],
                   check=True)
    for gi, mcpu in GPUS:
        src = ""
        for f in FORMS[mcpu]:
            src += open(os.path.join(ROOT, f"test/kernels/sqk_forms_{f}.s")).read()
        w32 = mcpu.startswith("gfx10")  # the gfx10 forms are wave32's
        code = assemble(src + "\n  s_endpgm\n", mcpu, w32, tmp)
        # 64 VGPRs, 48 SGPRs, one wave
        write(f"sq-{mcpu}-forms", seed(gi, False, w32, 64, 1, RSRC1 | 4 | 4 << 6, RSRC2, 0,
                                      PROPS_KERNARG, 0, 4096, code, data=data_words()))
        rows = [ln.strip() + "\n" for ln in open(os.path.join(tmp, f"sqk_all_{TABLE[mcpu]}.s"))]
        alu = [ln for ln in rows
               if ln[:2] in ("s_", "v_") and not ln.startswith(NOT_ALU) and
               "exec" not in ln and not ln.startswith("v_cmpx")]  # EXEC stays whole
        code = assemble("".join(alu) + "  s_endpgm\n", mcpu, w32, tmp)
        write(f"sq-{mcpu}-alu", seed(gi, False, w32, 64, 1, RSRC1 | 4 | 4 << 6, RSRC2, 0,
                                    PROPS_KERNARG, 0, 4096, code, data=data_words()))


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        small_kernels(tmp)
        compiled_kernels(tmp)
        forms(tmp)


if __name__ == "__main__":
    main()
