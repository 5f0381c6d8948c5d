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

# (table id, -mcpu, layout: False GCN, True RDNA1/2, "gfx11" RDNA3/3.5,
# "gfx12" RDNA4)
FAMILIES = [("gfx900", "gfx900", False), ("gfx906", "gfx906", False), ("gfx908", "gfx908", False),
            ("gfx90a", "gfx90a", False), ("gfx940", "gfx942", False), ("gfx1030", "gfx1030", True),
            ("gfx1010", "gfx1010", True), ("gfx1011", "gfx1011", True), ("gfx950", "gfx950", False),
            ("gfx1100", "gfx1100", "gfx11"), ("gfx803", "gfx803", False),
            ("gfx1150", "gfx1150", "gfx11"),
            ("gfx1200", "gfx1200", "gfx12"), ("gfx1250", "gfx1250", "gfx12")]


def g11(g10):
    """the RDNA3 and later layouts (gfx11, gfx12)"""
    return g10 in ("gfx11", "gfx12")

# GCN3 (gfx8) names its carry-out adds as gfx9 names its carry-less ones: the
# interpreter's operation is the gfx9 _co one (GCN3 ISA manual, V_ADD_U32:
# "VCC = carry out"; LLVM VOP2Instructions.td, V_ADD_CO_U32 "v_add_u32" on VI)
GFX8_NAMES = {"v_add_u32": "v_add_co_u32", "v_sub_u32": "v_sub_co_u32",
              "v_subrev_u32": "v_subrev_co_u32", "v_addc_u32": "v_addc_co_u32",
              "v_subb_u32": "v_subb_co_u32", "v_subbrev_u32": "v_subbrev_co_u32"}

def gfx8(mcpu):
    return mcpu.startswith("gfx8")

def gfx8_name(mcpu, mn):
    """the interpreter's operation for row name mn on mcpu (gfx8 renames)"""
    return GFX8_NAMES.get(mn, mn) if mn and gfx8(mcpu) else mn

# encodings a family does not have (gfx8: no VOP3P, FLAT without segments;
# VOPD3 is gfx1250's alone: LLVM VOPDInstructions.td, GFX1250GenD3)
def has_enc(mcpu, enc):
    if enc == "VOPD3":
        return mcpu == "gfx1250"
    return not (gfx8(mcpu) and enc in ("VOP3P", "FLATS", "FLATG"))

# gfx11 renamed most memory and some ALU operations (LLVM's *_Real_gfx11 defs
# and their MnemonicAlias entries for the older names): the gfx11 mnemonic ->
# the sqk_ops.def operation with the same semantics. Operations whose operands
# changed with the name are operations of their own: ds_cmpstore_* (data
# operands in the other order than ds_cmpst_*), and every true16 form
# (register halves) is read as such (sqk_t16[]).
GFX11_ALIAS = {
    "s_ctz_i32_b32": "s_ff1_i32_b32", "s_ctz_i32_b64": "s_ff1_i32_b64",
    "s_clz_i32_u32": "s_flbit_i32_b32", "s_clz_i32_u64": "s_flbit_i32_b64",
    "s_cls_i32": "s_flbit_i32", "s_cls_i32_i64": "s_flbit_i32_i64",
    "s_set_inst_prefetch_distance": "s_inst_prefetch",
    "v_clz_i32_u32": "v_ffbh_u32", "v_ctz_i32_b32": "v_ffbl_b32", "v_cls_i32": "v_ffbh_i32",
    "v_cvt_nearest_i32_f32": "v_cvt_rpi_i32_f32", "v_cvt_floor_i32_f32": "v_cvt_flr_i32_f32",
    "v_cvt_pk_rtz_f16_f32": "v_cvt_pkrtz_f16_f32", "v_cvt_pk_norm_i16_f32": "v_cvt_pknorm_i16_f32",
    "v_cvt_pk_norm_u16_f32": "v_cvt_pknorm_u16_f32", "v_mul_dx9_zero_f32": "v_mul_legacy_f32",
    "v_fmac_dx9_zero_f32": "v_fmac_legacy_f32", "v_fma_dx9_zero_f32": "v_fma_legacy_f32",
    "v_dot2acc_f32_f16": "v_dot2c_f32_f16",
    "ds_storexchg_rtn_b32": "ds_wrxchg_rtn_b32", "ds_storexchg_rtn_b64": "ds_wrxchg_rtn_b64",
}
# 16-bit operations run in their true16 form (an operand is one half of a
# 32-bit VGPR: LLVM SIRegisterInfo.td VGPR_16 / VGPR_16_Lo128, the t16
# VOP1/VOP2/VOPC/VOP3 definitions in VOP*Instructions.td): the decoder turns
# the half select (bit 7 of a VOP1/VOP2/VOPC VGPR field, VOP3 op_sel) into
# the op_sel the 16-bit executors read. Only these: every other true16 form
# stays out (an illegal instruction). Which operands are halves is read from
# the disassembly into sqk_t16[] (bits 0-2 sources, 3 the destination).
GFX11_T16 = {
    "v_add_f16", "v_sub_f16", "v_subrev_f16", "v_mul_f16", "v_fma_f16", "v_fmac_f16",
    "v_fmaak_f16", "v_fmamk_f16", "v_max_f16", "v_min_f16", "v_cvt_f16_f32", "v_cvt_f32_f16",
    "v_cvt_f16_u16", "v_cvt_f16_i16", "v_cvt_u16_f16", "v_cvt_i16_f16", "v_rcp_f16",
    "v_sqrt_f16", "v_rsq_f16", "v_floor_f16", "v_ceil_f16", "v_trunc_f16", "v_rndne_f16",
    "v_fract_f16", "v_add_nc_u16", "v_sub_nc_u16", "v_add_nc_i16", "v_sub_nc_i16",
    "v_mul_lo_u16", "v_lshlrev_b16", "v_lshrrev_b16", "v_ashrrev_i16", "v_max_u16",
    "v_min_u16", "v_max_i16", "v_min_i16", "v_mad_u16", "v_mad_i16", "v_mov_b16",
    "v_cndmask_b16", "v_ldexp_f16", "v_med3_f16", "v_min3_f16", "v_max3_f16", "v_med3_i16",
    "v_med3_u16", "v_min3_i16", "v_min3_u16", "v_max3_i16", "v_max3_u16", "v_exp_f16",
    "v_log_f16", "v_sin_f16", "v_cos_f16", "v_frexp_mant_f16", "v_max_num_f16",
    "v_min_num_f16", "v_max3_num_f16", "v_min3_num_f16", "v_div_fixup_f16", "v_maximum_f16",
    "v_minimum_f16",
}


# the families whose true16 forms are checked against the host model
# (test/emu_sqk_valu16.c)
T16_CPUS = ("gfx1100", "gfx1150", "gfx1200", "gfx1250")


def t16_ok(mn):
    """a true16 form the interpreter runs: the listed operations and the
    16-bit compares (f16 / i16 / u16 conditions and f16 class, whose mask
    operand is a register half too)"""
    return mn in GFX11_T16 or re.match(r"v_cmpx?_\w+_(f16|i16|u16)$", mn) is not None


def t16_mask(line):
    """bits 0-2: the sources that name a register half, 3: the destination"""
    parts = line.split(None, 1)
    if len(parts) < 2:
        return 0
    ops = [o.strip().split()[0] for o in parts[1].split(",") if o.strip()]
    if not parts[0].startswith("v_cmpx"):  # v_cmpx writes EXEC alone on gfx11
        dst, ops = ops[0], ops[1:]
    else:
        dst = ""
    if "mamk" in parts[0]:  # vdst, src0, K, src1: the literal is no source
        ops = ops[:1] + ops[2:]
    half = lambda o: re.match(r"^[-|]*v\d+\.[lh]\|?$", o) is not None
    m = 8 if half(dst) else 0
    for i, o in enumerate(ops[:3]):
        if half(o):
            m |= 1 << i
    return m


# 32-bit operations whose shift operand (src2) is a 16-bit register half on
# gfx11: the low half read gives the same shift; the decoder refuses op_sel.
GFX11_SRC2_T16 = {"v_alignbit_b32", "v_alignbyte_b32"}
GFX11_MEM = {"b32": "dword", "b64": "dwordx2", "b96": "dwordx3", "b128": "dwordx4",
             "u8": "ubyte", "i8": "sbyte", "u16": "ushort", "i16": "sshort"}
GFX11_ATOM = {"swap_b32": "swap", "swap_b64": "swap_x2", "cmpswap_b32": "cmpswap",
              "cmpswap_b64": "cmpswap_x2", "add_u32": "add", "add_u64": "add_x2", "sub_u32": "sub",
              "sub_u64": "sub_x2", "min_i32": "smin", "min_i64": "smin_x2", "min_u32": "umin",
              "min_u64": "umin_x2", "max_i32": "smax", "max_i64": "smax_x2", "max_u32": "umax",
              "max_u64": "umax_x2", "and_b32": "and", "and_b64": "and_x2", "or_b32": "or",
              "or_b64": "or_x2", "xor_b32": "xor", "xor_b64": "xor_x2", "inc_u32": "inc",
              "inc_u64": "inc_x2", "dec_u32": "dec", "dec_u64": "dec_x2", "add_f32": "add_f32",
              "min_f32": "fmin", "max_f32": "fmax", "min_f64": "fmin_x2", "max_f64": "fmax_x2",
              "add_f64": "add_f64",
              # gfx12's names of the f32 ones (LLVM FLATInstructions.td
              # *_Real_gfx12 "global_atomic_min_num_f32")
              "min_num_f32": "fmin", "max_num_f32": "fmax"}


# gfx12 renamed the carry forms of the scalar adds and the 64-bit VALU
# multiply-adds (LLVM SOPInstructions.td / VOP3Instructions.td: the
# *_Real_gfx12 defs with their gfx12 names, MnemonicAlias for the old ones),
# and s_waitcnt_depctr is s_wait_alu (SOPP opcode 8 on both).
GFX12_ALIAS = {
    "s_add_co_u32": "s_add_u32", "s_add_co_ci_u32": "s_addc_u32", "s_add_co_i32": "s_add_i32",
    "s_sub_co_u32": "s_sub_u32", "s_sub_co_ci_u32": "s_subb_u32", "s_sub_co_i32": "s_sub_i32",
    "v_mad_co_u64_u32": "v_mad_u64_u32", "v_mad_co_i64_i32": "v_mad_i64_i32",
    "s_wait_alu": "s_waitcnt_depctr",
    # RDNA4 ISA manual S_ADDK_CO_I32: gfx11's S_ADDK_I32 (SCC the signed
    # overflow) by its gfx12 name
    "s_addk_co_i32": "s_addk_i32",
    # the LDS float min / max by their gfx12 names (LLVM DSInstructions.td
    # *_Real_gfx12 "ds_min_num_f32"), the atomics of sqk_atomic.c's fmin0()
    "ds_min_num_f32": "ds_min_f32", "ds_max_num_f32": "ds_max_f32",
    "ds_min_num_rtn_f32": "ds_min_rtn_f32", "ds_max_num_rtn_f32": "ds_max_rtn_f32",
    "ds_min_num_f64": "ds_min_f64", "ds_max_num_f64": "ds_max_f64",
    "ds_min_num_rtn_f64": "ds_min_rtn_f64", "ds_max_num_rtn_f64": "ds_max_rtn_f64",
    # gfx1250 names the PC operations by their type (LLVM SOPInstructions.td,
    # S_GET_PC_I64 ... defined with the S_GETPC_B64 encodings' operands)
    "s_get_pc_i64": "s_getpc_b64", "s_set_pc_i64": "s_setpc_b64", "s_swap_pc_i64": "s_swappc_b64",
}


def gfx11_name(mn):
    """the sqk_ops.def name of a gfx11 mnemonic (itself when unchanged)"""
    if mn in GFX12_ALIAS:
        return GFX12_ALIAS[mn]
    if mn in GFX11_ALIAS:
        return GFX11_ALIAS[mn]
    for a, b in (("s_andn2", "s_and_not1"), ("s_orn2", "s_or_not1"), ("s_andn1", "s_and_not0"),
                 ("s_orn1", "s_or_not0")):
        if mn.startswith(b):
            return a + mn[len(b):]
    m = re.match(r"s_(buffer_)?load_b(32|64|96|128|256|512)$", mn)
    if m:
        return "s_%sload_dword%s" % (m.group(1) or "", {"32": "", "64": "x2", "96": "x3", "128": "x4",
                                                         "256": "x8", "512": "x16"}[m.group(2)])
    m = re.match(r"(flat|global|scratch|buffer)_(load|store)_(d16_hi_|d16_)?([biu]\d+)$", mn)
    if m:
        seg, ls, d16, t = m.groups()
        if ls == "store":
            t = {"b8": "byte", "b16": "short"}.get(t, GFX11_MEM.get(t))
        elif d16:
            t = {"u8": "ubyte", "i8": "sbyte", "b16": "short"}.get(t)
        else:
            t = GFX11_MEM.get(t)
        return t and "%s_%s_%s%s" % (seg, ls, t, "" if not d16 else "_" + d16[:-1])
    m = re.match(r"(flat|global|buffer)_atomic_(\w+)$", mn)
    if m and m.group(2) in GFX11_ATOM:
        return "%s_atomic_%s" % (m.group(1), GFX11_ATOM[m.group(2)])
    m = re.match(r"ds_(load|store)_(2addr_stride64_|2addr_)?([biu]\d+)(_d16_hi|_d16)?$", mn)
    if m:
        ls, two, t, d16 = m.groups()
        rw = "read" if ls == "load" else "write"
        if two:
            rw += "2st64" if "stride64" in two else "2"
        return "ds_%s_%s%s" % (rw, t, d16 or "")
    return mn

def variants(enc, op, g10):
    """candidate instruction dwords of opcode op in encoding enc (the
    disassembler refuses unused fields that are not zero)"""
    if enc == "SOP2": return [[0x80000000 | op << 23 | 5 << 16 | 2 << 8 | 1]]
    if enc == "SOPK": return [[0xB0000000 | op << 23 | 5 << 16 | 0x10], [0xB0000000 | op << 23 | 0x10]] + \
        ([[0xB0000000 | op << 23 | 124 << 16 | 0x10]] if g11(g10) else [])  # null (s_waitcnt_*)
    if enc == "SOP1": return [[0xBE800000 | 4 << 16 | op << 8 | 2], [0xBE800000 | op << 8 | 2],
                              [0xBE800000 | 4 << 16 | op << 8]]
    if enc == "SOPC": return [[0xBF000000 | op << 16 | 2 << 8 | 1]]
    if enc == "SOPP": return [[0xBF800000 | op << 16 | 0]]
    if enc == "VOPD":  # X opcodes 0-15 (Y v_dual_mov_b32), Y opcodes as 32 + op
        x, y = (op, 8) if op < 32 else (8, op - 32)
        vx, vy = (3, 0) if op < 32 else (0, 4)  # the other half's unused VSRC1 is 0
        w0, w1 = 0xC8000000 | x << 22 | y << 17 | 0x101, 5 << 24 | 3 << 17 | 0x102
        return [[w0 | vx << 9, w1 | vy << 9], [w0, w1]]
    if enc == "VOPD3":
        # gfx1250's three-operand dual issue, 96 bits (LLVM
        # VOPDInstructions.td VOPD3e): src0X [8:0], opY [17:12], opX [23:18],
        # 0xcf [31:24]; src0Y [40:32], neg [46:41], vsrc1X [55:48], vsrc2X
        # [63:56]; vdstX [71:64], vsrc1Y [79:72], vsrc2Y (or bitop3)
        # [87:80], vdstY [95:88]. X opcodes 0-63 (Y v_dual_mov_b32), Y
        # opcodes as 64 + op (X v_dual_mov_b32); the sources in different
        # banks, as the assembler wants them (sq-gen-forms.py), the two
        # destinations even, which VOPD cannot encode (so the assembler
        # writes VOPD3)
        x, y = (op, 8) if op < 64 else (8, op - 64)
        w0 = 0xCF000000 | x << 18 | y << 12 | 0x102
        if op < 64:
            return [[w0, 0x109 | a << 16 | b << 24, 8 | 14 << 24] for a, b in ((4, 6), (4, 0), (0, 0))]
        return [[w0, 0x109, 8 | a << 8 | b << 16 | 14 << 24] for a, b in ((11, 13), (11, 0), (0, 0))]
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
        if g10 == "gfx12":  # opcode [18:13], offset [55:32], soffset NULL 124 at [63:57]
            return [[0xF4000000 | op << 13 | 4 << 6 | 2, 0x7C << 25], [0xF4000000 | op << 13, 0x7C << 25],
                    [0xF4000000 | op << 13 | 4 << 6, 0x7C << 25]]
        if g10 == "gfx11":  # soffset NULL is 124 on gfx11
            return [[0xF4000000 | op << 18 | 4 << 6 | 2, 0x7C << 25], [0xF4000000 | op << 18, 0x7C << 25],
                    [0xF4000000 | op << 18 | 4 << 6, 0x7C << 25]]
        if g10: return [[0xF4000000 | op << 18 | 4 << 6 | 2, 0x7D << 25], [0xF4000000 | op << 18, 0x7D << 25],
                        [0xF4000000 | op << 18 | 4 << 6, 0x7D << 25]]
        return [[0xC0000000 | op << 18 | 1 << 17 | 4 << 6 | 2, 0], [0xC0000000 | op << 18 | 1 << 17, 0],
                [0xC0000000 | op << 18 | 1 << 17 | 4 << 6, 0], [0xC0000000 | op << 18 | 4 << 6, 0],
                [0xC0000000 | op << 18, 0]]
    if enc.startswith("FLAT") and g10 == "gfx12":
        # VFLAT / VSCRATCH / VGLOBAL: 96 bits, [31:24] 0xec + segment, saddr
        # [6:0] (NULL 124), opcode [21:14]; vdst [39:32], SVE [49], vdata
        # [62:55]; vaddr [71:64], offset [95:72]
        seg = {"FLAT": 0, "FLATS": 1, "FLATG": 2}[enc]
        w0 = 0xEC000000 | seg << 24 | op << 14
        return [[w0 | 0x7C, d, a] for d, a in ((6 | 4 << 23, 2), (4 << 23, 2), (6, 2), (0, 2),
                                                (6 | 4 << 23 | 1 << 17, 2), (4 << 23 | 1 << 17, 2),
                                                (6 | 1 << 17, 2), (6, 0), (0, 0))] + \
            [[w0 | 4, d, a] for d, a in ((6 | 4 << 23, 2), (4 << 23, 2), (6, 2), (0, 2))]
    if enc.startswith("FLAT"):
        seg = {"FLAT": 0, "FLATS": 1, "FLATG": 2}[enc]
        off = 0x7C if g11(g10) else 0x7D if g10 else 0x7F
        w0 = 0xDC000000 | op << 18 | seg << (16 if g10 == "gfx11" else 14)
        return [[w0, 6 << 24 | off << 16 | 4 << 8 | 2], [w0, off << 16 | 4 << 8 | 2],
                [w0, 6 << 24 | off << 16 | 2], [w0, off << 16 | 2], [w0, 6 << 24 | 4 << 8 | 2], [w0, 4 << 8 | 2],
                [w0, 6 << 24 | 2], [w0, 2]]
    if enc == "DS":
        w0 = 0xD8000000 | op << (18 if g10 else 17)
        gds = 1 << (17 if g10 else 16)  # the GWS operations exist only with it
        return [[w0, d] for d in (6 << 24 | 5 << 16 | 4 << 8 | 2, 4 << 8 | 2, 5 << 16 | 4 << 8 | 2,
                                  6 << 24 | 2, 6 << 24 | 4 << 8 | 2, 2, 6 << 24, 0)] + \
            [[w0 | gds, d] for d in (4 << 8, 0)]
    if enc == "MUBUF" and g10 == "gfx12":
        # VBUFFER: 96 bits, [31:26] 0x31, soffset [7:0], opcode [21:14];
        # vdata [39:32], rsrc [49:41] (the SGPR number), format [61:55] (1 for
        # MUBUF), offen [62]; vaddr [71:64], offset [95:72]
        w0 = 0xC4000000 | op << 14 | 0x7C
        return [[w0, 2 | 8 << 9 | 1 << 23 | 1 << 30, 6], [w0, 2 | 8 << 9 | 1 << 23, 0], [w0, 1 << 23, 0]]
    if enc == "MUBUF" and g10 == "gfx11":  # opcode [25:18], offen in the second dword
        w0 = 0xE0000000 | op << 18
        return [[w0, 0x80 << 24 | 1 << 22 | 2 << 16 | 4 << 8 | 2], [w0, 0]]
    if enc == "MUBUF":
        w0 = 0xE0000000 | (op & 0x7F) << 18 | (op >> 7) << 25
        return [[w0 | 1 << 12, 0x80 << 24 | 2 << 16 | 4 << 8 | 2], [w0, 0]]
    raise ValueError(enc)

MARK = 0xBF8F0003  # s_setprio 3
MARK2 = 0xBF8F0002  # s_setprio 2: the line's end
MARK11, MARK211 = 0xBFB50003, 0xBFB50002  # the same on gfx11 (SOPP opcode 0x35)

RANGES = {"SOP2": 96, "SOPK": 29, "SOP1": 256, "SOPC": 128, "SOPP": 128, "VOP1": 256,
          "VOP2": 62, "VOPC": 256, "VOP3": 1024, "VOP3P": 128, "SMEM": 256, "FLAT": 128,
          "FLATS": 128, "FLATG": 128, "DS": 256, "MUBUF": 128}
RANGES11 = dict(RANGES, VOPD=64)  # gfx11 adds VOPD
RANGES12 = dict(RANGES11, SMEM=64, FLAT=256, FLATS=256, FLATG=256,  # gfx12 opcode widths
                VOPD3=128)  # gfx1250 (has_enc)


def ranges(g10):
    return RANGES12 if g10 == "gfx12" else RANGES11 if g10 == "gfx11" else RANGES

def disasm(mcpu, insns):
    """mnemonic line of each instruction, or None where LLVM refuses it"""
    marks = [MARK11, MARK211] if mcpu.startswith(("gfx11", "gfx12")) else [MARK, MARK2]
    # gfx1250's v_fmamk_f64 takes a 64-bit literal: two dwords of marks
    # before the line's end, so that the end is never read as a literal
    if mcpu == "gfx1250":
        marks = [MARK11, MARK11, MARK211]
    text = "".join(",".join("0x%02x" % b for w in ws + marks
                            for b in w.to_bytes(4, "little")) + "\n" for ws in insns)
    # gfx12's VOP1/VOP2/VOPC 16-bit operands name register halves as
    # gfx11's do (a VGPR field's bit 7 is the high half); LLVM 22 prints
    # them so only with real-true16, which it defaults to on gfx11 alone:
    # asked for here, so that true16() leaves those forms out on gfx12 too
    attrs = ["-mattr=+real-true16"] if mcpu.startswith("gfx12") else []
    p = subprocess.run([LLVM + "/llvm-mc", "--disassemble", "-triple=amdgcn-amd-amdhsa",
                        "-mcpu=" + mcpu] + attrs, input=text, capture_output=True, text=True)
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


def true16(line):
    """a true16 form: an operand names a register half (v1.l, v2.h)"""
    return re.search(r"\bv\d+\.[lh]\b", line) is not None


def row_name(enc, op, m, g10):
    """the sqk_ops.def name of opcode op's disassembled line m, or None"""
    if enc in ("VOPD", "VOPD3"):  # the half the opcode names
        m = m.split("::")[0 if op < (32 if enc == "VOPD" else 64) else 1].strip().replace(
            "v_dual_", "v_", 1)
    return op_name(enc, m, g10)


# RDNA (gfx10 on) names GFX9's VOP3 signed adds "no carry" (LLVM
# VOP3Instructions.td: V_ADD_I32 / V_SUB_I32 printed v_add_nc_i32 /
# v_sub_nc_i32 from gfx10; RDNA2 ISA manual V_ADD_NC_I32: D = S0 + S1, clamp
# saturating): the same operations
RDNA_ALIAS = {"v_add_nc_i32": "v_add_i32", "v_sub_nc_i32": "v_sub_i32"}


def op_name(enc, m, g10):
    """the sqk_ops.def name of a disassembled line's operation, or None"""
    mn = base(m.split()[0])
    if g10 and mn in RDNA_ALIAS:
        return RDNA_ALIAS[mn]
    if not g11(g10):
        return mn
    if true16(m) and not (mn in GFX11_SRC2_T16 and not true16(m.rsplit(",", 1)[0])):
        return gfx11_name(mn) if t16_ok(gfx11_name(mn)) else None
    return gfx11_name(mn)


def main():
    ENC_ID = {"SOP2": "SQK_SOP2", "SOPK": "SQK_SOPK", "SOP1": "SQK_SOP1", "SOPC": "SQK_SOPC",
              "SOPP": "SQK_SOPP", "VOP1": "SQK_VOP1", "VOP2": "SQK_VOP2", "VOPC": "SQK_VOPC",
              "VOP3": "SQK_VOP3", "VOP3P": "SQK_VOP3P", "SMEM": "SQK_SMEM", "FLAT": "SQK_FLAT",
              "FLATS": "SQK_SCRATCH", "FLATG": "SQK_GLOBAL", "DS": "SQK_DS", "MUBUF": "SQK_MUBUF",
              "VOPD": "SQK_VOPD", "VOPD3": "SQK_VOPD3"}

    out = ["/* SPDX-License-Identifier: MIT */",
           "/*",
           " * Opcode tables of the kernel interpreter, one per family: {encoding,",
           " * opcode, operation}. Generated by scripts/sq-gen-tables.py, which reads",
           " * each opcode's mnemonic with LLVM 22's disassembler (llvm-mc",
           " * --disassemble) and keeps the operations of sqk_ops.def. Do not edit.",
           " */",
           '#include "emu/sq/sqk.h"', ""]
    missing, t16 = {}, {}
    for fam, mcpu, g10 in FAMILIES:
        rows, seen = [], set()
        for enc, n in ranges(g10).items():
            if not has_enc(mcpu, enc):
                continue
            found = {}
            nv = len(variants(enc, 0, g10))
            for v in range(nv):
                # VOPD: X opcodes are 4 bits, Y's are at 32 and up
                ops = [op for op in range(n) if op not in found and not (enc == "VOPD" and 16 <= op < 32)]
                for op, m in zip(ops, disasm(mcpu, [variants(enc, op, g10)[v] for op in ops])):
                    if m:
                        found[op] = m
            for op, m in sorted(found.items()):
                mn = gfx8_name(mcpu, row_name(enc, op, m, g10))
                if mn is None:
                    continue
                if enc.startswith("FLAT") and not mn.startswith(("flat_", "global_", "scratch_")):
                    continue
                if g11(g10) and enc not in ("VOPD", "VOPD3") and true16(m) and t16_ok(mn):
                    if mcpu not in T16_CPUS:
                        continue
                    t16[mn] = t16.get(mn, 0) | t16_mask(m)
                if mn in known:
                    rows.append("\t{ %s, %d, K_%s }," % (ENC_ID[enc], op, mn))
                    seen.add(mn)
        missing[fam] = [x for x in names if x not in seen]
        out.append("const struct sqk_opent sqk_tab_%s[] = {" % fam)
        out += rows
        out.append("\t{ SQK_ENC_NONE, 0, K_INVALID },")
        out.append("};")
        out.append("")
    out.append("/* 16-bit operands of the true16 forms the gfx11 and gfx12 tables keep:")
    out.append(" * bits 0-2 the sources that are register halves, 3 the destination */")
    out.append("const uint8_t sqk_t16[K_COUNT] = {")
    out += ["\t[K_%s] = 0x%x," % (mn, t16[mn]) for mn in names if mn in t16]
    out.append("};")
    out.append("")
    open(OUT, "w").write("\n".join(out))
    subprocess.run(["clang-format", "-i", OUT], check=False)  # the tree's .clang-format
    for fam, ms in missing.items():
        print(fam, "not in this family:", " ".join(ms), file=sys.stderr)


if __name__ == "__main__":
    main()
