/* SPDX-License-Identifier: MIT */
/*
 * The shader unit's per-generation encodings: one row per ISA generation,
 * every fact the decoder (sq_decode.c), the printer (sq_print.c) and the
 * interpreter (sq_exec.c) key on a generation. Sources (LLVM
 * llvm/lib/Target/AMDGPU): operand codes SIRegisterInfo.td and the
 * AMDGPU operand docs (gfx1100 s_mov_b32 m0 = 0xbefd....); SOPP/SOP1/SOPK
 * opcodes SOPInstructions.td *_Real_gfx6_gfx7_gfx8_gfx9_gfx10 / _gfx10 /
 * _gfx11 / _gfx12 (s_trap: SOPP 0x12 through gfx10, 0x10 from gfx11, checked
 * with LLVM 22 llvm-mc -show-encoding: gfx900 0xbf920003, gfx1100 0xbf900003); s_waitcnt fields the operand docs gfx*_waitcnt; SMEM
 * SMInstructions.td SMEM_Real_vi / _gfx10 / _gfx11 / _gfx12; VOP3
 * VOP3_Real_vi / _gfx10 / _gfx11 / _gfx12; FLAT FLATInstructions.td
 * FLAT_Real_vi / _gfx10 / _gfx11, VFLAT/VGLOBAL _gfx12; MUBUF
 * BUFInstructions.td MUBUF_Real (buffer_wbl2); counters and releases
 * SIInsertWaitcnts.cpp and SIMemoryLegalizer.cpp (SIGfx90ACacheControl /
 * SIGfx940CacheControl / SIGfx12CacheControl insertRelease, LLVM
 * AMDGPUUsage "Memory Model"); message id SIDefines.h SendMsg
 * (ID_MASK_GFX11Plus_ = 0xff); the m0 hazard Mesa aco_insert_NOPs.cpp
 * (GFX6-GFX9: an SALU m0 write needs one wait state before s_sendmsg).
 * Each field is checked against LLVM 22 (test/emu_sq_decode.c compares
 * every instruction of the stubs with llvm-objdump).
 */
#include "emu/sq/sq_priv.h"

/*
 * The shader unit reads no field of the generation table but the GC IP
 * version (and what the kernel keys on with it): the encoding generation
 * comes from the emulator's own table (emu_gen.c).
 */
int emu_sq_gen(const struct kfdsig_target *target, struct emu_gen *g)
{
	return emu_gen_derive(g, target->gc_ip, target->sdma_ip, target->gfx_target_version, 0, 0);
}

/* gfx8 and gfx9: m0 124, no null; s0-s101 (102-105 are flat_scratch and
 * xnack_mask); SMEM 0x30, VOP3 0x34 (VOP1 op + 0x140), FLAT 0x37, MUBUF
 * 0x38; s_waitcnt vmcnt [3:0] (gfx9 adds [15:14]), expcnt [6:4], lgkmcnt
 * [11:8]; flat stores dword 0x1c .. x4 0x1f; FLAT counts on vmcnt and
 * lgkmcnt (both waited for: the safe reading, as the gfx8 stub does). */
static const struct sq_enc enc_gfx8 = {
	.name = "gfx8",
	.m0 = 124,
	.null = KFDSIG_SQ_OPND_NONE,
	.max_sgpr = 101,
	.flat_saddr_off = 0x7f,
	.enc_smem = 0x30,
	.enc_vop3 = 0x34,
	.enc_flat = 0x37,
	.enc_mubuf = 0x38,
	.sopp_endpgm = 0x01,
	.sopp_waitcnt = 0x0c,
	.sopp_sendmsg = 0x10,
	.sopp_code_end = SQ_NONE,
	.sopp_trap = 0x12,
	.sopp_wait_first = SQ_NONE,
	.vm_shift = 0,
	.vm_bits = 4,
	.exp_shift = 4,
	.lgkm_shift = 8,
	.lgkm_bits = 4,
	.sop1_mov_b32 = 0,
	.sopk_waitcnt_vscnt = SQ_NONE,
	.smem = SQ_SMEM_VI,
	.smem_offset_bits = 20,
	.smem_glc_bit = 16,
	.smem_max_op = 4,
	.vop3_vop1_base = 0x140,
	.vop3_literal = false,
	.flat = SQ_FLAT_GFX8,
	.flat_store_op = 0x1c,
	.flat_store_ndw = { 1, 2, 3, 4 },
	.cpol = SQ_CPOL_GLC,
	.store_cnt = KFDSIG_SQ_CNT_VM,
	.flat_store_cnt = KFDSIG_SQ_CNT_LGKM,
	.smem_cnt = KFDSIG_SQ_CNT_LGKM,
	.msg_id_mask = 0xf,
	.m0_hazard = true,
};

/* gfx9, gfx90a, gfx94x: gfx8 with vmcnt[5:4] at simm16[15:14], SMEM
 * offset 21 bits, FLAT offset and segment (the rows differ in their cache
 * policy only). */
#define SQ_ENC_GFX9_FAMILY                                                                         \
	.m0 = 124, .null = KFDSIG_SQ_OPND_NONE, .max_sgpr = 101, .flat_saddr_off = 0x7f,           \
	.enc_smem = 0x30, .enc_vop3 = 0x34, .enc_flat = 0x37, .enc_mubuf = 0x38,                   \
	.sopp_endpgm = 0x01, .sopp_waitcnt = 0x0c, .sopp_sendmsg = 0x10, .sopp_code_end = SQ_NONE, \
	.sopp_trap = 0x12, .sopp_wait_first = SQ_NONE, .vm_shift = 0, .vm_bits = 4,                \
	.vm_hi_shift = 14, .vm_hi_bits = 2, .exp_shift = 4, .lgkm_shift = 8, .lgkm_bits = 4,       \
	.sop1_mov_b32 = 0, .sopk_waitcnt_vscnt = SQ_NONE, .smem = SQ_SMEM_VI,                      \
	.smem_offset_bits = 21, .smem_glc_bit = 16, .smem_max_op = 4, .vop3_vop1_base = 0x140,     \
	.vop3_literal = false, .flat = SQ_FLAT_GFX9, .flat_store_op = 0x1c,                        \
	.flat_store_ndw = { 1, 2, 3, 4 }, .store_cnt = KFDSIG_SQ_CNT_VM,                           \
	.flat_store_cnt = KFDSIG_SQ_CNT_LGKM, .smem_cnt = KFDSIG_SQ_CNT_LGKM, .msg_id_mask = 0xf,  \
	.m0_hazard = true

static const struct sq_enc enc_gfx9 = {
	.name = "gfx9",
	SQ_ENC_GFX9_FAMILY,
	.cpol = SQ_CPOL_GLC,
};

/* gfx90a: scc on FLAT [25] and MUBUF [15], buffer_wbl2 (MUBUF op 0x28);
 * system-scope release is buffer_wbl2 sc0 sc1 + vmcnt(0). */
static const struct sq_enc enc_gfx90a = {
	.name = "gfx90a",
	SQ_ENC_GFX9_FAMILY,
	.cpol = SQ_CPOL_GLC,
	.sc1 = true,
	.wbl2 = true,
	.release_wb = true,
};

/* gfx94x: gfx90a with the bits named sc0 / nt / sc1. */
static const struct sq_enc enc_gfx94x = {
	.name = "gfx94x",
	SQ_ENC_GFX9_FAMILY,
	.cpol = SQ_CPOL_SC,
	.sc1 = true,
	.wbl2 = true,
	.release_wb = true,
};

/* gfx10 (GC 10.1 and 10.3): null 125, s0-s105; SMEM 0x3d, VOP3 0x35 (VOP1
 * op + 0x180, literal allowed); s_code_end; lgkmcnt [13:8]; s_mov_b32 is
 * SOP1 3 (SOP1_Real_gfx10 renumbering); s_waitcnt_vscnt SOPK 0x17; SMEM dlc
 * [14] glc [16]; flat stores dword 0x1c, x2 0x1d, x4 0x1e, x3 0x1f; stores
 * count on vscnt; wave32. */
static const struct sq_enc enc_gfx10 = {
	.name = "gfx10",
	.m0 = 124,
	.null = 125,
	.max_sgpr = 105,
	.flat_saddr_off = 125,
	.enc_smem = 0x3d,
	.enc_vop3 = 0x35,
	.enc_flat = 0x37,
	.enc_mubuf = 0x38,
	.sopp_endpgm = 0x01,
	.sopp_waitcnt = 0x0c,
	.sopp_sendmsg = 0x10,
	.sopp_code_end = 0x1f,
	.sopp_trap = 0x12,
	.sopp_wait_first = SQ_NONE,
	.vm_shift = 0,
	.vm_bits = 4,
	.vm_hi_shift = 14,
	.vm_hi_bits = 2,
	.exp_shift = 4,
	.lgkm_shift = 8,
	.lgkm_bits = 6,
	.sop1_mov_b32 = 3,
	.sopk_waitcnt_vscnt = 0x17,
	.smem = SQ_SMEM_GFX10,
	.smem_offset_bits = 21,
	.smem_glc_bit = 16,
	.smem_dlc_bit = 14,
	.smem_max_op = 4,
	.vop3_vop1_base = 0x180,
	.vop3_literal = true,
	.flat = SQ_FLAT_GFX10,
	.flat_store_op = 0x1c,
	.flat_store_ndw = { 1, 2, 4, 3 },
	.cpol = SQ_CPOL_GLC,
	.store_cnt = KFDSIG_SQ_CNT_VS,
	.flat_store_cnt = KFDSIG_SQ_CNT_LGKM,
	.smem_cnt = KFDSIG_SQ_CNT_LGKM,
	.msg_id_mask = 0xf,
	.wave32 = true,
};

/* gfx11: m0 125, null 124; SOPP renumbered (s_endpgm 0x30, s_waitcnt 0x09,
 * s_sendmsg 0x36); s_waitcnt expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10];
 * s_waitcnt_vscnt SOPK 0x18; SMEM dlc [13] glc [14]; store_b32 .. b128
 * 0x1a .. 0x1d; _b32 names; message id simm16[7:0]. */
static const struct sq_enc enc_gfx11 = {
	.name = "gfx11",
	.m0 = 125,
	.null = 124,
	.max_sgpr = 105,
	.flat_saddr_off = 124,
	.enc_smem = 0x3d,
	.enc_vop3 = 0x35,
	.enc_flat = 0x37,
	.enc_mubuf = 0x38,
	.sopp_endpgm = 0x30,
	.sopp_waitcnt = 0x09,
	.sopp_sendmsg = 0x36,
	.sopp_code_end = 0x1f,
	.sopp_trap = 0x10,
	.sopp_wait_first = SQ_NONE,
	.vm_shift = 10,
	.vm_bits = 6,
	.exp_shift = 0,
	.lgkm_shift = 4,
	.lgkm_bits = 6,
	.sop1_mov_b32 = 0,
	.sopk_waitcnt_vscnt = 0x18,
	.smem = SQ_SMEM_GFX10,
	.smem_offset_bits = 21,
	.smem_glc_bit = 14,
	.smem_dlc_bit = 13,
	.smem_max_op = 4,
	.vop3_vop1_base = 0x180,
	.vop3_literal = true,
	.flat = SQ_FLAT_GFX11,
	.flat_store_op = 0x1a,
	.flat_store_ndw = { 1, 2, 3, 4 },
	.cpol = SQ_CPOL_GLC,
	.b_names = true,
	.store_cnt = KFDSIG_SQ_CNT_VS,
	.flat_store_cnt = KFDSIG_SQ_CNT_LGKM,
	.smem_cnt = KFDSIG_SQ_CNT_LGKM,
	.msg_id_mask = 0xff,
	.wave32 = true,
};

/* gfx12: s_wait_loadcnt .. s_wait_kmcnt (SOPP 0x40 .. 0x47) instead of
 * s_waitcnt; SMEM_Real_gfx12 (offset 24 bits, s_load_b96); VFLAT/VGLOBAL
 * 0x3b, no MUBUF; th/scope; stores count on storecnt (+ dscnt for FLAT),
 * SMEM on kmcnt; system-scope release is global_wb scope:SCOPE_SYS +
 * s_wait_storecnt 0. */
static const struct sq_enc enc_gfx12 = {
	.name = "gfx12",
	.m0 = 125,
	.null = 124,
	.max_sgpr = 105,
	.flat_saddr_off = 124,
	.enc_smem = 0x3d,
	.enc_vop3 = 0x35,
	.enc_flat = 0x3b,
	.enc_mubuf = SQ_NONE,
	.sopp_endpgm = 0x30,
	.sopp_waitcnt = SQ_NONE,
	.sopp_sendmsg = 0x36,
	.sopp_code_end = 0x1f,
	.sopp_trap = 0x10,
	.sopp_wait_first = 0x40,
	.sop1_mov_b32 = 0,
	.sopk_waitcnt_vscnt = SQ_NONE,
	.smem = SQ_SMEM_GFX12,
	.smem_offset_bits = 24,
	.smem_max_op = 5,
	.vop3_vop1_base = 0x180,
	.vop3_literal = true,
	.flat = SQ_FLAT_GFX12,
	.flat_store_op = 0x1a,
	.flat_store_ndw = { 1, 2, 3, 4 },
	.cpol = SQ_CPOL_TH,
	.b_names = true,
	.store_cnt = KFDSIG_SQ_CNT_STORE,
	.flat_store_cnt = KFDSIG_SQ_CNT_DS,
	.smem_cnt = KFDSIG_SQ_CNT_KM,
	.release_wb = true,
	.msg_id_mask = 0xff,
	.wave32 = true,
};

const struct sq_enc *emu_sq_enc(const struct emu_gen *t)
{
	switch (t->level) {
	case KFDSIG_GFX8:
		return &enc_gfx8;
	case KFDSIG_GFX9:
		if (t->family == KFDSIG_FAMILY_GFX90A)
			return &enc_gfx90a;
		return t->family == KFDSIG_FAMILY_GFX94X ? &enc_gfx94x : &enc_gfx9;
	case KFDSIG_GFX10:
	case KFDSIG_GFX10_3:
		return &enc_gfx10;
	case KFDSIG_GFX11:
		return &enc_gfx11;
	default:
		return &enc_gfx12; /* GFX12 */
	}
}
