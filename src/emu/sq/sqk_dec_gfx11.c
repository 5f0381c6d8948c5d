/* SPDX-License-Identifier: MIT */
/*
 * The kernel interpreter's decoder for the RDNA3 / RDNA3.5 encodings
 * (SQK_GEN_GFX11), normalised into struct sqk_insn as sqk_isa.c's decoder
 * does for GCN and RDNA1/2, so that the executors stay shared. Field
 * layouts: "RDNA3 Instruction Set Architecture", chapter "Microcode
 * Formats", and LLVM's *_Real_gfx11 encodings (SOPInstructions.td,
 * SMInstructions.td: SMEM_Real_gfx11; VOPInstructions.td: VOP3e_gfx11,
 * VOP3be_gfx11, VOP_DPP16/VOP_DPP8; VOP3PInstructions.td: VOP3Pe_gfx11;
 * VOPDInstructions.td / VOPInstructions.td: VOPD_MADK, VOPDe;
 * FLATInstructions.td: FLAT_Real_gfx11; DSInstructions.td: DS_Real_gfx11;
 * BUFInstructions.td: MUBUF_Real_gfx11). test/emu_sqk_encoding.c checks it
 * against LLVM 22's llvm-objdump -mcpu=gfx1100.
 *
 * RDNA4 (SQK_GEN_GFX12) keeps the SALU, VALU and DS layouts and changes the
 * memory ones ("RDNA4 Instruction Set Architecture", chapter "Microcode
 * Formats"; LLVM SMInstructions.td SMEM_Real_gfx12, FLATInstructions.td
 * VFLAT_Real, BUFInstructions.td VBUFFER_Real): SMEM with a 6-bit opcode,
 * SCOPE and TH, a 24-bit signed offset; VFLAT/VSCRATCH/VGLOBAL and VBUFFER
 * in 96 bits with SCOPE [51:50] and TH [54:52] (TH[0] on an atomic: return
 * the old value) and a 24-bit offset. SCOPE and the other TH bits are cache
 * policy, which the interpreter has no use for (memory is coherent here).
 * test/emu_sqk_encoding.c checks it against llvm-objdump -mcpu=gfx1200.
 *
 * GC 12.5 (SQK_GEN_GFX12_5, gfx1250) keeps RDNA4's layouts and adds a 64-bit
 * literal: source code 254 ("lit64", LLVM SIDefines.h LITERAL64_CONST) takes
 * the two dwords after the instruction, low dword first, as the whole
 * operand of a 64-bit source; v_fmamk_f64's constant K is always such a
 * 64-bit literal (llvm-mc -mcpu=gfx1250 -show-encoding: 12 bytes). A 64-bit
 * literal in VOPD, VOP3 or VOP3P or in a 32-bit source is refused
 * (sqk_valu.c, sqk_sread_code).
 * test/emu_sqk_encoding.c checks it against llvm-objdump -mcpu=gfx1250.
 *
 * Operand codes: gfx11 swaps M0 and NULL (M0 125, NULL 124; LLVM
 * SIRegisterInfo.td M0_gfx11plus / SGPR_NULL_gfx11plus, the RDNA3 manual's
 * "Scalar Operands" table). The decoder maps them to the codes the
 * executors use (SQK_M0, SQK_NULL10), so no executor keys on them.
 */
#include <string.h>

#include "emu/sq/sqk.h"

/* a gfx11 scalar operand code as the executors read one */
static unsigned sc(unsigned code)
{
	if (code == 124)
		return SQK_NULL10;
	if (code == 125)
		return SQK_M0;
	return code;
}

/* a 9-bit VALU source: VGPRs 256-511, scalar codes below */
static unsigned vsrc(unsigned code)
{
	return code >= 256 ? code : sc(code);
}

static inline int32_t sext(uint32_t v, unsigned bits)
{
	return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

static bool madk(unsigned op)
{
	return op == K_v_madmk_f32 || op == K_v_madak_f32 || op == K_v_fmamk_f32 ||
	       op == K_v_fmaak_f32 || op == K_v_madmk_f16 || op == K_v_madak_f16 ||
	       op == K_v_fmamk_f16 || op == K_v_fmaak_f16;
}

/* VOP3SD: a scalar destination at [14:8] where VOP3 has ABS, OP_SEL and
 * CLAMP's neighbours (LLVM VOPInstructions.td VOP3be_gfx11) */
static bool vop3sd(unsigned op)
{
	switch (op) {
	case K_v_add_co_u32:
	case K_v_sub_co_u32:
	case K_v_subrev_co_u32:
	case K_v_add_co_ci_u32:
	case K_v_sub_co_ci_u32:
	case K_v_subrev_co_ci_u32:
	case K_v_div_scale_f32:
	case K_v_div_scale_f64:
	case K_v_mad_u64_u32:
	case K_v_mad_i64_i32:
		return true;
	default:
		return false;
	}
}

/*
 * VOPD3 (gfx1250): two operations of the VOP3 kind in one 96-bit word, the
 * X and Y halves each with up to three sources and a neg bit per source
 * (LLVM VOPDInstructions.td VOPD3e; llvm-mc -mcpu=gfx1250 -show-encoding):
 * src0X [8:0], opY [17:12], opX [23:18], 0xcf [31:24]; src0Y [40:32],
 * neg X [43:41] and Y [46:44], vsrc1X [55:48], vsrc2X [63:56]; vdstX
 * [71:64], vsrc1Y [79:72], vsrc2Y [87:80], vdstY [95:88]. vsrc1 and vsrc2
 * are VGPRs, but v_dual_cndmask_b32's condition (vsrc2) is a scalar
 * operand (VOPD3: "a real SGPR will be used as an operand instead" of
 * VCC) and v_dual_bitop2_b32's vsrc2 field is its truth table. Unlike
 * VOPD the destinations are full 8-bit fields.
 *
 * A half's third source field: a VGPR, cndmask's scalar condition, or (no
 * source: read as 0) bitop2's table.
 */
static uint16_t vopd3_src2(unsigned op, unsigned field)
{
	if (op == K_v_cndmask_b32)
		return (uint16_t)sc(field);
	if (op == K_v_bitop2_b32)
		return SQK_NULL10;
	return (uint16_t)(256 + field);
}

/* A VOPD3 the interpreter does not run as written: neg bits on a half
 * without float source modifiers (moves, integer and bit operations: LLVM's
 * assembler takes none there, VOPD3e encodes 0; v_dual_dot2acc_f32_f16,
 * whose neg on packed halves is not modelled), the reserved bits [11:9] and
 * [47], the two destinations overlapping (a 64-bit X destination is a
 * pair), a literal (LLVM 22's assembler takes none in VOPD3: "invalid
 * operand", and picks VOPD for one; whether the hardware reads one after
 * the 96 bits is unverified) */
static bool vopd3_refused(unsigned opx, const struct sqk_insn *in)
{
	static const uint16_t mods[] = {
		K_v_fmac_f32,	K_v_mul_f32,	    K_v_add_f32,     K_v_sub_f32,
		K_v_subrev_f32, K_v_mul_legacy_f32, K_v_fma_f32,     K_v_fma_f64,
		K_v_add_f64,	K_v_mul_f64,	    K_v_cndmask_b32,
	};
	bool mx = false, my = false;
	unsigned dx = in->dst, nx = opx == K_v_fma_f64 || opx == K_v_add_f64 ||
						    opx == K_v_mul_f64 || opx == K_v_max_num_f64 ||
						    opx == K_v_min_num_f64
					    ? 2
					    : 1;

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		mx |= opx == mods[i];
		my |= in->opy == mods[i];
	}
	if ((in->neg && !mx) || (in->negy && !my))
		return true;
	if ((in->w[0] >> 9 & 7) || (in->w[1] >> 15 & 1))
		return true;
	if (in->src[0] == SQK_LIT || in->srcy[0] == SQK_LIT || in->src[0] == SQK_LIT64 ||
	    in->srcy[0] == SQK_LIT64)
		return true;
	return in->dsty >= dx && in->dsty < dx + nx;
}

unsigned sqk_decode_gfx11(const struct sqk_family *f, const uint32_t *w, unsigned avail,
			  struct sqk_insn *in)
{
	uint32_t w0 = w[0], w1 = avail > 1 ? w[1] : 0;
	unsigned size = 4, e6 = w0 >> 26;
	bool need_lit = false, refuse = false, lit64 = false;

	memset(in, 0, sizeof(*in));
	in->w[0] = w0;
	in->saddr = 0xffff;
	in->soffset = 0xffff;
	if ((w0 >> 23) == 0x17d) { /* SOP1 */
		in->enc = SQK_SOP1;
		in->opcode = w0 >> 8 & 0xff;
		in->dst = sc(w0 >> 16 & 0x7f);
		in->src[0] = sc(w0 & 0xff);
		need_lit = in->src[0] == SQK_LIT;
	} else if ((w0 >> 23) == 0x17e) { /* SOPC */
		in->enc = SQK_SOPC;
		in->opcode = w0 >> 16 & 0x7f;
		in->src[0] = sc(w0 & 0xff);
		in->src[1] = sc(w0 >> 8 & 0xff);
		need_lit = in->src[0] == SQK_LIT || in->src[1] == SQK_LIT;
	} else if ((w0 >> 23) == 0x17f) { /* SOPP */
		in->enc = SQK_SOPP;
		in->opcode = w0 >> 16 & 0x7f;
		in->simm16 = w0 & 0xffff;
	} else if ((w0 >> 28) == 0xb) { /* SOPK */
		in->enc = SQK_SOPK;
		in->opcode = w0 >> 23 & 0x1f;
		in->dst = sc(w0 >> 16 & 0x7f);
		in->simm16 = w0 & 0xffff;
		need_lit = f->lookup[SQK_SOPK][in->opcode] == K_s_setreg_imm32_b32;
	} else if ((w0 >> 30) == 2) { /* SOP2 */
		in->enc = SQK_SOP2;
		in->opcode = w0 >> 23 & 0x7f;
		in->dst = sc(w0 >> 16 & 0x7f);
		in->src[0] = sc(w0 & 0xff);
		in->src[1] = sc(w0 >> 8 & 0xff);
		/* s_fmaak_f32 / s_fmamk_f32 carry the constant K as the
		 * literal (one literal: a literal source is K too) */
		need_lit = in->src[0] == SQK_LIT || in->src[1] == SQK_LIT ||
			   f->lookup[SQK_SOP2][in->opcode] == K_s_fmaak_f32 ||
			   f->lookup[SQK_SOP2][in->opcode] == K_s_fmamk_f32;
	} else if ((w0 >> 25) == 0x3f || (w0 >> 25) == 0x3e || (w0 >> 31) == 0) {
		unsigned s0 = w0 & 0x1ff;

		if ((w0 >> 25) == 0x3f) { /* VOP1 */
			in->enc = SQK_VOP1;
			in->opcode = w0 >> 9 & 0xff;
			in->dst = 256 + (w0 >> 17 & 0xff);
		} else if ((w0 >> 25) == 0x3e) { /* VOPC */
			in->enc = SQK_VOPC;
			in->opcode = w0 >> 17 & 0xff;
			in->src[1] = 256 + (w0 >> 9 & 0xff);
			in->dst = SQK_VCC;
		} else { /* VOP2 */
			in->enc = SQK_VOP2;
			in->opcode = w0 >> 25 & 0x3f;
			in->dst = 256 + (w0 >> 17 & 0xff);
			in->src[1] = 256 + (w0 >> 9 & 0xff);
		}
		in->src[0] = vsrc(s0);
		/* src0 0xfa: DPP16, 0xe9/0xea: DPP8 (FI 0/1); gfx11 has no
		 * SDWA (0xf9 is reserved) */
		if (s0 == 0xfa || s0 == 0xe9 || s0 == 0xea) {
			if (avail < 2)
				return 0;
			in->extw = w1;
			in->w[1] = w1;
			in->ext = s0 == 0xfa ? SQK_EXT_DPP : SQK_EXT_DPP8;
			in->src[0] = (w1 & 0xff) | 256u;
			size = 8;
		} else if (s0 == 0xf9) {
			refuse = true;
		}
		need_lit = s0 == SQK_LIT ||
			   (in->enc == SQK_VOP2 && madk(f->lookup[SQK_VOP2][in->opcode]));
		/* true16: a 16-bit operand's 8-bit VGPR field names v0-v127,
		 * bit 7 the high half (LLVM SIRegisterInfo.td VGPR_16_Lo128;
		 * "v_add_f16_e32 v1.h, v2.h, v3.l" is 0x65020782): as the
		 * VOP3 op_sel bit the executors read. DPP forms of them are
		 * refused (not modelled). */
		{
			unsigned t = sqk_t16[f->lookup[in->enc][in->opcode]];

			if (t && in->ext)
				refuse = true;
			for (unsigned i = 0; i < 2; i++)
				if ((t >> i & 1) && in->src[i] >= 256 && (in->src[i] & 0x80)) {
					in->src[i] &= (uint16_t)~0x80u;
					in->opsel |= (uint8_t)(1u << i);
				}
			if ((t & 8) && in->enc != SQK_VOPC && (in->dst & 0x80)) {
				in->dst &= (uint16_t)~0x80u;
				in->opsel |= 8;
			}
		}
	} else {
		size = 8;
		if (avail < 2)
			return 0;
		in->w[1] = w1;
		if (e6 == 0x35 || (w0 >> 24) == 0xcc) { /* VOP3 / VOP3SD, VOP3P */
			bool p = (w0 >> 24) == 0xcc;

			in->enc = p ? SQK_VOP3P : SQK_VOP3;
			in->opcode = p ? (w0 >> 16 & 0x7f) : (w0 >> 16 & 0x3ff);
			in->dst = 256 + (w0 & 0xff);
			in->sdst = sc(w0 >> 8 & 0x7f);
			in->clamp = w0 >> 15 & 1;
			in->src[0] = vsrc(w1 & 0x1ff);
			in->src[1] = vsrc(w1 >> 9 & 0x1ff);
			in->src[2] = vsrc(w1 >> 18 & 0x1ff);
			in->neg = w1 >> 29 & 7;
			if (!p) {
				in->abs = w0 >> 8 & 7;
				in->opsel = w0 >> 11 & 0xf;
				in->omod = w1 >> 27 & 3;
				/* op_sel names 16-bit register halves
				 * (true16): only of the operands the
				 * operation's true16 form has as halves
				 * (sqk_t16[]); else refused (not in VOP3SD,
				 * where [14:8] is SDST) */
				unsigned op3 = f->lookup[SQK_VOP3][in->opcode], s0 = w1 & 0x1ff;

				if ((in->opsel & ~sqk_t16[op3]) && !vop3sd(op3))
					refuse = true;
				/* VOP3 DPP (src0 0xfa: DPP16, 0xe9 / 0xea:
				 * DPP8 with FI 0 / 1): a third dword laid out
				 * as VOP1/VOP2's DPP one, src0's VGPR in
				 * [7:0] (LLVM VOPInstructions.td
				 * VOP3_DPP16_Gen / VOP3_DPP8_Gen, Inst{71-64}
				 * src0, {80-72} dpp_ctrl, {82} fi, {83}
				 * bound_ctrl, {91-88} bank_mask, {95-92}
				 * row_mask; "v_add_f16_e64_dpp v3, v5, v3
				 * quad_perm:[1,0,3,2] row_mask:0xf
				 * bank_mask:0xf bound_ctrl:1" is d5320003
				 * 000206fa ff08b105). Its source modifiers
				 * are VOP3's (abs [10:8], neg [63:61]): the
				 * DPP word's [23:20] are reserved there and
				 * refused unless zero. Not for VOP3SD (a
				 * carry operand beside DPP) nor the compares
				 * (opcodes 0-0xff: the mask bit of a lane
				 * row_mask / bank_mask turn off): not
				 * modelled */
				if (s0 == 0xfa || s0 == 0xe9 || s0 == 0xea) {
					uint32_t w2 = avail > 2 ? w[2] : 0;

					size = 12;
					if (avail < 3)
						return 0;
					in->w[2] = w2;
					in->extw = w2;
					in->ext = s0 == 0xfa ? SQK_EXT_DPP : SQK_EXT_DPP8;
					in->src[0] = (uint16_t)(256 + (w2 & 0xff));
					if (vop3sd(op3) || in->opcode < 0x100 ||
					    (s0 == 0xfa && (w2 >> 20 & 0xf)))
						refuse = true;
				}
			} else {
				in->neg_hi = w0 >> 8 & 7;
				in->opsel = w0 >> 11 & 7;
				in->opsel_hi = (w1 >> 27 & 3) | (w0 >> 14 & 1) << 2;
			}
			need_lit = in->src[0] == SQK_LIT || in->src[1] == SQK_LIT ||
				   in->src[2] == SQK_LIT;
			/* a literal beside VOP3 DPP: LLVM 22's assembler
			 * encodes none; where the hardware reads it is
			 * unverified: refused */
			if (need_lit && in->ext)
				refuse = true;
		} else if ((w0 >> 24) == 0xcf && f->gen >= SQK_GEN_GFX12_5) {
			/* VOPD3: two VOP3-like halves in 96 bits */
			uint32_t w2 = avail > 2 ? w[2] : 0;

			size = 12;
			if (avail < 3)
				return 0;
			in->w[2] = w2;
			in->enc = SQK_VOPD3;
			in->opcode = w0 >> 18 & 0x3f;
			in->opy = f->lookup[SQK_VOPD3][64 + (w0 >> 12 & 0x3f)];
			in->src[0] = vsrc(w0 & 0x1ff);
			in->src[1] = 256 + (w1 >> 16 & 0xff);
			in->src[2] = vopd3_src2(f->lookup[SQK_VOPD3][in->opcode], w1 >> 24);
			in->neg = w1 >> 9 & 7;
			in->dst = 256 + (w2 & 0xff);
			in->srcy[0] = vsrc(w1 & 0x1ff);
			in->srcy[1] = 256 + (w2 >> 8 & 0xff);
			in->srcy[2] = vopd3_src2(in->opy, w2 >> 16 & 0xff);
			in->negy = w1 >> 12 & 7;
			in->dsty = 256 + (w2 >> 24);
			if (in->opy == K_v_bitop2_b32)
				in->bitop3 = w2 >> 16 & 0xff;
			if (in->opy == K_INVALID ||
			    vopd3_refused(f->lookup[SQK_VOPD3][in->opcode], in))
				refuse = true;
		} else if (e6 == 0x32) { /* VOPD: two VOP2-like halves */
			unsigned vdx = w1 >> 24;

			in->enc = SQK_VOPD;
			in->opcode = w0 >> 22 & 0xf;
			in->src[0] = vsrc(w0 & 0x1ff);
			in->src[1] = 256 + (w0 >> 9 & 0xff);
			in->dst = 256 + vdx;
			in->opy = f->lookup[SQK_VOPD][32 + (w0 >> 17 & 0x1f)];
			in->srcy[0] = vsrc(w1 & 0x1ff);
			in->srcy[1] = 256 + (w1 >> 9 & 0xff);
			/* VDSTY: [7:1] in the field, bit 0 the opposite of
			 * VDSTX's (the two destinations are in different
			 * banks) */
			in->dsty = 256 + ((w1 >> 17 & 0x7f) << 1 | ((vdx & 1) ^ 1));
			need_lit = in->src[0] == SQK_LIT || in->srcy[0] == SQK_LIT ||
				   madk(f->lookup[SQK_VOPD][in->opcode]) || madk(in->opy);
			if (in->opy == K_INVALID)
				refuse = true;
		} else if (e6 == 0x3d && f->gen >= SQK_GEN_GFX12) { /* SMEM */
			in->enc = SQK_SMEM;
			in->opcode = w0 >> 13 & 0x3f;
			in->dst = sc(w0 >> 6 & 0x7f);
			in->src[0] = (w0 & 0x3f) << 1; /* sbase pair */
			in->offset = sext(w1 & 0xffffff, 24);
			if (sc(w1 >> 25) != SQK_NULL10)
				in->soffset = sc(w1 >> 25);
			/* gfx1250 scale_offset (bit 56): not modelled */
			if (f->gen >= SQK_GEN_GFX12_5 && (w1 >> 24 & 1))
				refuse = true;
		} else if ((e6 == 0x3b || e6 == 0x31) && f->gen >= SQK_GEN_GFX12) {
			uint32_t w2 = avail > 2 ? w[2] : 0;

			size = 12;
			if (avail < 3)
				return 0;
			in->w[2] = w2;
			/* TH[0]: an atomic returns the pre-op value */
			in->glc = w1 >> 20 & 1;
			in->opcode = w0 >> 14 & 0xff;
			if (e6 == 0x3b) { /* VFLAT / VSCRATCH / VGLOBAL */
				unsigned seg = w0 >> 24 & 3;

				in->enc = seg == 0   ? SQK_FLAT
					  : seg == 1 ? SQK_SCRATCH
					  : seg == 2 ? SQK_GLOBAL
						     : SQK_ENC_NONE;
				/* SADDR: SCRATCH's and GLOBAL's, and from gfx1250
				 * on VFLAT's too (LLVM 22 emits "flat_store_b32
				 * v0, v1, s[2:3]": the SGPR pair plus a 32-bit
				 * VGPR offset, as GLOBAL's; FLATInstructions.td
				 * FLAT_*_SADDR on GFX1250); gfx12's VFLAT must
				 * have NULL there */
				if (sc(w0 & 0x7f) != SQK_NULL10) {
					in->saddr = sc(w0 & 0x7f);
					if (!seg && f->gen < SQK_GEN_GFX12_5)
						refuse = true;
				}
				in->dst = 256 + (w1 & 0xff);
				in->vdata = w1 >> 23 & 0xff;
				in->vaddr = w2 & 0xff;
				in->offset = sext(w2 >> 8, 24);
				/* SCRATCH: SVE (bit 49) says whether VADDR is used */
				if (seg == 1)
					in->vaddr_off = !(w1 >> 17 & 1);
				/* gfx1250 scale_offset (bit 48): the 32-bit VGPR
				 * offset of GLOBAL with SADDR and of SCRATCH times
				 * the size of the memory operand (llvm-mc
				 * -mcpu=gfx1250 -show-encoding; LLVM
				 * FLATInstructions.td "scale_offset"); a 64-bit
				 * address (FLAT or GLOBAL without SADDR) is
				 * refused */
				if (f->gen >= SQK_GEN_GFX12_5 && (w1 >> 16 & 1)) {
					in->scale = true;
					if (seg != 1 && in->saddr == 0xffff)
						refuse = true;
				}
			} else { /* VBUFFER: MUBUF opcodes; MTBUF's (128 on) have no row */
				in->enc = SQK_MUBUF;
				in->soffset = sc(w0 & 0xff);
				in->vdata = w1 & 0xff;
				/* RSRC [49:41]: the V#'s first SGPR */
				in->srsrc = w1 >> 9 & 0x7f;
				if (w1 >> 9 & 0x180)
					refuse = true;
				in->offen = w1 >> 30 & 1;
				in->idxen = w1 >> 31 & 1;
				in->vaddr = w2 & 0xff;
				in->offset = (int32_t)(w2 >> 8);
				if (w0 >> 22 & 1) /* TFE */
					refuse = true;
			}
		} else if (e6 == 0x3d) { /* SMEM */
			in->enc = SQK_SMEM;
			in->opcode = w0 >> 18 & 0xff;
			in->dst = sc(w0 >> 6 & 0x7f);
			in->src[0] = (w0 & 0x3f) << 1; /* sbase pair */
			in->glc = w0 >> 14 & 1;
			in->offset = sext(w1 & 0x1fffff, 21);
			if (sc(w1 >> 25) != SQK_NULL10)
				in->soffset = sc(w1 >> 25);
		} else if (e6 == 0x37 && f->gen < SQK_GEN_GFX12) { /* FLAT / SCRATCH / GLOBAL */
			unsigned seg = w0 >> 16 & 3, sa = w1 >> 16 & 0x7f;

			in->enc = seg == 0   ? SQK_FLAT
				  : seg == 1 ? SQK_SCRATCH
				  : seg == 2 ? SQK_GLOBAL
					     : SQK_ENC_NONE;
			in->opcode = w0 >> 18 & 0x7f;
			in->glc = w0 >> 14 & 1;
			in->slc = w0 >> 15 & 1;
			/* offset [12:0]: signed for GLOBAL and SCRATCH,
			 * 12 bits unsigned for FLAT (bit 12 refused) */
			in->offset = seg ? sext(w0 & 0x1fff, 13) : (int32_t)(w0 & 0xfff);
			if (!seg && (w0 >> 12 & 1))
				refuse = true;
			in->vaddr = w1 & 0xff;
			in->vdata = w1 >> 8 & 0xff;
			in->dst = 256 + (w1 >> 24);
			if (seg && sc(sa) != SQK_NULL10)
				in->saddr = sc(sa);
			/* SCRATCH: SVE (bit 55) says whether VADDR is used */
			if (seg == 1)
				in->vaddr_off = !(w1 >> 23 & 1);
		} else if (e6 == 0x36) { /* DS */
			in->enc = SQK_DS;
			in->opcode = w0 >> 18 & 0xff;
			in->gds = w0 >> 17 & 1;
			in->offset0 = w0 & 0xff;
			in->offset1 = w0 >> 8 & 0xff;
			in->offset = (int32_t)(w0 & 0xffff);
			in->vaddr = w1 & 0xff;
			in->src[0] = w1 >> 8 & 0xff;  /* data0 */
			in->src[1] = w1 >> 16 & 0xff; /* data1 */
			in->dst = 256 + (w1 >> 24);
			/* no GDS on gfx12: the bit is reserved */
			if (in->gds && f->gen >= SQK_GEN_GFX12)
				refuse = true;
		} else if (e6 == 0x38 && f->gen < SQK_GEN_GFX12) { /* MUBUF */
			in->enc = SQK_MUBUF;
			in->opcode = w0 >> 18 & 0xff;
			in->offset = (int32_t)(w0 & 0xfff);
			in->slc = w0 >> 12 & 1;
			in->glc = w0 >> 14 & 1;
			in->vaddr = w1 & 0xff;
			in->vdata = w1 >> 8 & 0xff;
			in->srsrc = (w1 >> 16 & 0x1f) << 2;
			in->offen = w1 >> 22 & 1;
			in->idxen = w1 >> 23 & 1;
			in->soffset = sc(w1 >> 24);
			if (w1 >> 21 & 1) /* TFE */
				refuse = true;
		}
		/* MTBUF, MIMG, EXP, VINTERP, LDSDIR: not decoded */
	}
	in->size = (uint8_t)size;
	if (f->gen >= SQK_GEN_GFX12_5 && in->enc != SQK_ENC_NONE && in->enc != SQK_SOPK &&
	    in->enc != SQK_SOPP && in->enc != SQK_SMEM &&
	    (in->enc < SQK_FLAT || in->enc == SQK_VOPD || in->enc == SQK_VOPD3)) {
		for (unsigned i = 0; i < 3; i++)
			lit64 |= in->src[i] == SQK_LIT64;
		if ((in->enc == SQK_VOPD || in->enc == SQK_VOPD3) &&
		    (lit64 || in->srcy[0] == SQK_LIT64))
			refuse = true, lit64 = false;
		/* VOP3 / VOP3P: LLVM 22's assembler encodes no 64-bit
		 * literal there (its disassembler reads one); whether the
		 * hardware does is unverified: refused */
		if (lit64 && (in->enc == SQK_VOP3 || in->enc == SQK_VOP3P))
			refuse = true;
		if (in->enc == SQK_VOP2 && f->lookup[SQK_VOP2][in->opcode] == K_v_fmamk_f64)
			lit64 = true;
		/* one literal per instruction: a 32-bit one beside it is no
		 * instruction LLVM encodes */
		if (lit64 && need_lit &&
		    !(in->enc == SQK_VOP2 && f->lookup[SQK_VOP2][in->opcode] == K_v_fmamk_f64))
			refuse = true;
	}
	if (lit64) {
		unsigned k = in->size / 4;

		if (avail <= k + 1)
			return 0;
		in->lit = w[k];
		in->lit_hi = w[k + 1];
		in->w[k] = w[k];
		in->w[k + 1] = w[k + 1];
		in->size += 8;
	} else if (need_lit) {
		unsigned k = in->size / 4;

		if (avail <= k)
			return 0;
		in->lit = w[k];
		in->w[k] = w[k];
		in->size += 4;
	}
	if (in->enc == SQK_ENC_NONE)
		return 0;
	in->op = refuse ? K_INVALID : f->lookup[in->enc][in->opcode & 1023];
	/* gfx12's v_s_* (VOP3 with an SGPR destination): a scalar source
	 * (LLVM's SReg_32 operand), no VOP3 DPP; the others refused */
	if (sqk_op_v_s(in->op) && (in->src[0] >= 256 || in->ext))
		in->op = K_INVALID;
	/* a scalar destination in the VGPR destination field: VOPC promoted
	 * to VOP3 (opcodes 0-0xff), v_readlane, v_readfirstlane, v_s_* */
	if ((in->enc == SQK_VOP3 && in->opcode < 0x100) || in->op == K_v_readlane_b32 ||
	    in->op == K_v_readfirstlane_b32 || sqk_op_v_s(in->op))
		in->dst = 256 + sc(in->dst - 256);
	return in->size;
}
