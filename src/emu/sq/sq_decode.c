/* SPDX-License-Identifier: MIT */
/*
 * The shader unit's decoder: one instruction of kfdsig's signal stubs
 * from its bytes, for the target's encoding generation (sq_enc.c).
 *
 * Encodings are our own reading of LLVM's AMDGPU instruction definitions
 * (LLVM llvm/lib/Target/AMDGPU: SOPInstructions.td SOP1/SOPK/SOPP *_Real
 * records, SMInstructions.td SMEM_Real_vi/_gfx10/_gfx11/_gfx12,
 * VOP1Instructions.td / VOP3 *_Real, FLATInstructions.td FLAT_Real_vi,
 * _gfx10, _gfx11 and VFLAT/VGLOBAL _gfx12, BUFInstructions.td MUBUF_Real
 * (buffer_wbl2), and the AMDGPU operand docs gfx*_waitcnt / gfx*_msg), each
 * field checked against the encodings LLVM 22 llvm-mc -show-encoding emits
 * for the target (test/emu_sq_decode.c compares every instruction of the
 * stubs with llvm-objdump).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "emu/sq/sq_priv.h"

/* ------------------------------------------------------------------ */
/* Decoder                                                              */

static int32_t sext(uint32_t v, unsigned bits)
{
	uint32_t m = 1u << (bits - 1);

	v &= (bits == 32) ? 0xffffffffu : ((1u << bits) - 1);
	return (int32_t)((v ^ m) - m);
}

static int refuse(struct sq_insn *in, const char *why)
{
	char words[40];

	if (in->size > 4)
		snprintf(words, sizeof(words), "0x%08x 0x%08x", in->words[0], in->words[1]);
	else
		snprintf(words, sizeof(words), "0x%08x", in->words[0]);
	return set_error(ENOTSUP, "unimplemented instruction at 0x%" PRIx64 ": %s (%s%s%s)", in->pc,
			 words, in->enc, why ? ": " : "", why ? why : "");
}

/* Is a scalar source operand code one we can read? */
static bool scalar_src_ok(const struct sq_enc *e, unsigned c)
{
	if (c <= e->max_sgpr)
		return true;
	if (c == 106 || c == 107 || c == 126 || c == 127)
		return true; /* vcc_lo/hi, exec_lo/hi */
	if (c == e->m0 || c == e->null)
		return true;
	if (c >= 128 && c <= 208)
		return true; /* inline integers 0..64, -1..-16 */
	if (c >= 240 && c <= 248)
		return true; /* inline floats, 1/(2*pi) */
	return c == 255;     /* literal */
}

static bool scalar_dst_ok(const struct sq_enc *e, unsigned c)
{
	return c <= e->max_sgpr || c == 106 || c == 107 || c == 126 || c == 127 || c == e->m0 ||
	       c == e->null;
}

/* Fetch dword i of the instruction at pc; -EFAULT past the buffer. */
static int fetch(const void *code, size_t size, uint64_t code_va, uint64_t pc, unsigned i,
		 uint32_t *w)
{
	uint64_t off = pc - code_va + 4ull * i;

	if (pc < code_va || off + 4 > size || off + 4 < off)
		return -EFAULT;
	memcpy(w, (const uint8_t *)code + off, 4);
	return 0;
}

static int take_literal(const void *code, size_t size, uint64_t va, struct sq_insn *in)
{
	unsigned i = in->size / 4;

	if (fetch(code, size, va, in->pc, i, &in->words[i]))
		return set_error(EFAULT,
				 "literal of the instruction at 0x%" PRIx64
				 " runs past the code buffer",
				 in->pc);
	in->literal = in->words[i];
	in->has_literal = true;
	in->size += 4;
	return 0;
}

static int decode_sopp(const struct sq_enc *e, struct sq_insn *in)
{
	unsigned op = (in->words[0] >> 16) & 0x7f;
	uint16_t s = in->words[0] & 0xffff;
	enum sq_op o = KFDSIG_SQ_OP_INVALID;

	in->enc = "SOPP";
	in->opcode = op;
	in->simm16 = s;
	/* s_wait_loadcnt .. s_wait_kmcnt in opcode order (gfx12) */
	static const enum sq_op waits[8] = {
		KFDSIG_SQ_OP_S_WAIT_LOADCNT,   KFDSIG_SQ_OP_S_WAIT_STORECNT,
		KFDSIG_SQ_OP_S_WAIT_SAMPLECNT, KFDSIG_SQ_OP_S_WAIT_BVHCNT,
		KFDSIG_SQ_OP_S_WAIT_EXPCNT,    KFDSIG_SQ_OP_INVALID,
		KFDSIG_SQ_OP_S_WAIT_DSCNT,     KFDSIG_SQ_OP_S_WAIT_KMCNT,
	};

	/* the generation's SOPP opcodes (sq_enc.c) */
	if (op == 0x00)
		o = KFDSIG_SQ_OP_S_NOP;
	else if (op == e->sopp_endpgm)
		o = KFDSIG_SQ_OP_S_ENDPGM;
	else if (op == e->sopp_waitcnt)
		o = KFDSIG_SQ_OP_S_WAITCNT;
	else if (op == e->sopp_sendmsg)
		o = KFDSIG_SQ_OP_S_SENDMSG;
	else if (op == e->sopp_code_end)
		o = KFDSIG_SQ_OP_S_CODE_END;
	else if (op == e->sopp_trap)
		o = KFDSIG_SQ_OP_S_TRAP;
	else if (e->sopp_wait_first != SQ_NONE && op >= e->sopp_wait_first &&
		 op < e->sopp_wait_first + 8u)
		o = waits[op - e->sopp_wait_first];
	if (o == KFDSIG_SQ_OP_INVALID)
		return refuse(in, "SOPP opcode not implemented");
	in->op = o;

	if (o == KFDSIG_SQ_OP_S_WAITCNT) {
		/* the generation's s_waitcnt fields (sq_enc.c) */
		unsigned vm = (s >> e->vm_shift) & ((1u << e->vm_bits) - 1);
		unsigned exp = (s >> e->exp_shift) & 7;
		unsigned lgkm = (s >> e->lgkm_shift) & ((1u << e->lgkm_bits) - 1);

		vm |= ((s >> e->vm_hi_shift) & ((1u << e->vm_hi_bits) - 1)) << e->vm_bits;
		in->wait[KFDSIG_SQ_CNT_VM] = vm;
		in->wait[KFDSIG_SQ_CNT_EXP] = exp;
		in->wait[KFDSIG_SQ_CNT_LGKM] = lgkm;
	} else if (o >= KFDSIG_SQ_OP_S_WAIT_LOADCNT && o <= KFDSIG_SQ_OP_S_WAIT_KMCNT) {
		static const enum sq_counter cnt[] = {
			[KFDSIG_SQ_OP_S_WAIT_LOADCNT - KFDSIG_SQ_OP_S_WAIT_LOADCNT] =
				KFDSIG_SQ_CNT_LOAD,
			[KFDSIG_SQ_OP_S_WAIT_STORECNT - KFDSIG_SQ_OP_S_WAIT_LOADCNT] =
				KFDSIG_SQ_CNT_STORE,
			[KFDSIG_SQ_OP_S_WAIT_SAMPLECNT - KFDSIG_SQ_OP_S_WAIT_LOADCNT] =
				KFDSIG_SQ_CNT_SAMPLE,
			[KFDSIG_SQ_OP_S_WAIT_BVHCNT - KFDSIG_SQ_OP_S_WAIT_LOADCNT] =
				KFDSIG_SQ_CNT_BVH,
			[KFDSIG_SQ_OP_S_WAIT_EXPCNT - KFDSIG_SQ_OP_S_WAIT_LOADCNT] =
				KFDSIG_SQ_CNT_EXP,
			[KFDSIG_SQ_OP_S_WAIT_DSCNT - KFDSIG_SQ_OP_S_WAIT_LOADCNT] =
				KFDSIG_SQ_CNT_DS,
			[KFDSIG_SQ_OP_S_WAIT_KMCNT - KFDSIG_SQ_OP_S_WAIT_LOADCNT] =
				KFDSIG_SQ_CNT_KM,
		};
		in->wait[cnt[o - KFDSIG_SQ_OP_S_WAIT_LOADCNT]] = (int16_t)(s > 0x7fff ? 0x7fff : s);
	}
	return 0;
}

static int decode_sop1(const struct sq_enc *e, const void *code, size_t size, uint64_t va,
		       struct sq_insn *in)
{
	unsigned op = (in->words[0] >> 8) & 0xff;
	unsigned mov32 = e->sop1_mov_b32; /* s_mov_b64 is mov32 + 1 */

	in->enc = "SOP1";
	in->opcode = op;
	in->dst = (in->words[0] >> 16) & 0x7f;
	in->src0 = in->words[0] & 0xff;
	if (op == mov32)
		in->op = KFDSIG_SQ_OP_S_MOV_B32, in->ndw = 1;
	else if (op == mov32 + 1)
		in->op = KFDSIG_SQ_OP_S_MOV_B64, in->ndw = 2;
	else
		return refuse(in, "SOP1 opcode not implemented");

	if (!scalar_dst_ok(e, in->dst) || !scalar_src_ok(e, in->src0))
		return refuse(in, "s_mov operand not implemented");
	if (in->ndw == 2) {
		/* 64-bit: register pairs and inline integers only. */
		bool pair_ok = (in->src0 <= e->max_sgpr && !(in->src0 & 1)) || in->src0 == 106 ||
			       in->src0 == 126 || (in->src0 >= 128 && in->src0 <= 208);
		bool dst_ok = (in->dst <= e->max_sgpr && !(in->dst & 1)) || in->dst == 106 ||
			      in->dst == 126;

		if (!pair_ok || !dst_ok)
			return refuse(in, "s_mov_b64 operand not implemented");
	}
	if (in->src0 == 255)
		return take_literal(code, size, va, in);
	return 0;
}

static int decode_sopk(const struct sq_enc *e, struct sq_insn *in)
{
	unsigned op = (in->words[0] >> 23) & 0x1f;

	in->enc = "SOPK";
	in->opcode = op;
	in->dst = (in->words[0] >> 16) & 0x7f;
	in->simm16 = in->words[0] & 0xffff;
	if (op == 0) {
		in->op = KFDSIG_SQ_OP_S_MOVK_I32;
		in->ndw = 1;
		if (!scalar_dst_ok(e, in->dst))
			return refuse(in, "s_movk_i32 destination not implemented");
		return 0;
	}
	/* s_waitcnt_vscnt (gfx10, gfx11; gfx12 has s_wait_storecnt
	 * instead). Only the "null" register form. */
	if (op == e->sopk_waitcnt_vscnt) {
		in->op = KFDSIG_SQ_OP_S_WAITCNT_VSCNT;
		if (in->dst != e->null)
			return refuse(in, "s_waitcnt_vscnt with an SGPR operand not implemented");
		in->wait[KFDSIG_SQ_CNT_VS] = (int16_t)(in->simm16 > 0x7fff ? 0x7fff : in->simm16);
		return 0;
	}
	return refuse(in, "SOPK opcode not implemented");
}

static const uint8_t smem_ndw[6] = { 1, 2, 4, 8, 16, 3 };

static int decode_smem(const struct sq_enc *e, const void *code, size_t size, uint64_t va,
		       struct sq_insn *in)
{
	uint32_t w0 = in->words[0], w1;
	unsigned op;

	in->enc = "SMEM";
	if (fetch(code, size, va, in->pc, 1, &in->words[1]))
		return set_error(EFAULT,
				 "SMEM instruction at 0x%" PRIx64 " runs past the code buffer",
				 in->pc);
	in->size = 8;
	w1 = in->words[1];
	in->sbase = (w0 & 0x3f) << 1;
	in->dst = (w0 >> 6) & 0x7f;
	in->soffset = KFDSIG_SQ_OPND_NONE;

	if (e->smem == SQ_SMEM_VI) {
		/* SMEM_Real_vi: sbase [5:0], sdata [12:6], soe [14] (gfx9),
		 * nv [15], glc [16], imm [17], op [25:18]; offset in the
		 * second dword: 20 bits (gfx8) / 21 bits (gfx9) when imm=1,
		 * else an SGPR code in [7:0]. */
		op = (w0 >> 18) & 0xff;
		in->glc = (w0 >> e->smem_glc_bit) & 1;
		if ((w0 >> 14) & 3)
			return refuse(in, "SMEM soe/nv forms not implemented");
		if ((w0 >> 17) & 1) {
			in->offset = (int32_t)(w1 & ((1u << e->smem_offset_bits) - 1));
		} else {
			in->soffset = w1 & 0xff;
			in->soffset_is_imm_slot = true;
			if (in->soffset > e->max_sgpr)
				return refuse(in, "SMEM soffset operand not implemented");
		}
	} else {
		unsigned so = w1 >> 25;

		if (e->smem == SQ_SMEM_GFX12) {
			/* SMEM_Real_gfx12: op [18:13], scope [22:21], th [24:23];
			 * offset [23:0] signed in dword 1. */
			op = (w0 >> 13) & 0x3f;
			in->scope = (w0 >> 21) & 3;
			in->th = (w0 >> 23) & 3;
			in->offset = sext(w1, e->smem_offset_bits);
		} else {
			/* SMEM_Real_gfx10/_gfx11: op [25:18]; gfx10 dlc [14] glc [16],
			 * gfx11 dlc [13] glc [14]; offset [20:0] signed. */
			op = (w0 >> 18) & 0xff;
			in->dlc = (w0 >> e->smem_dlc_bit) & 1;
			in->glc = (w0 >> e->smem_glc_bit) & 1;
			in->offset = sext(w1, e->smem_offset_bits);
		}
		if (so != e->null) {
			if (so > e->max_sgpr)
				return refuse(in, "SMEM soffset operand not implemented");
			in->soffset = so;
		}
	}
	in->opcode = op;
	if (op > e->smem_max_op)
		return refuse(in, "SMEM opcode not implemented (only s_load)");
	in->op = KFDSIG_SQ_OP_S_LOAD;
	in->ndw = smem_ndw[op];
	if ((unsigned)(in->dst + in->ndw - 1) > e->max_sgpr || (in->ndw >= 2 && (in->dst & 1)))
		return refuse(in, "s_load destination not implemented");
	return 0;
}

static int decode_vop_src(const struct sq_enc *e, const void *code, size_t size, uint64_t va,
			  struct sq_insn *in)
{
	if (in->src0 >= 256)
		return 0; /* VGPR */
	if (!scalar_src_ok(e, in->src0))
		return refuse(in, "v_mov_b32 source operand not implemented");
	if (in->src0 == 255) {
		if (in->e64 && !e->vop3_literal)
			return refuse(in, "VOP3 literal does not exist before gfx10");
		return take_literal(code, size, va, in);
	}
	return 0;
}

static int decode_vop1(const struct sq_enc *e, const void *code, size_t size, uint64_t va,
		       struct sq_insn *in)
{
	uint32_t w0 = in->words[0];

	/* VOP1: src0 [8:0], op [16:9], vdst [24:17], 0x3f [31:25]. */
	in->enc = "VOP1";
	in->opcode = (w0 >> 9) & 0xff;
	in->dst = (w0 >> 17) & 0xff;
	in->src0 = w0 & 0x1ff;
	if (in->opcode != 1)
		return refuse(in, "VOP1 opcode not implemented (only v_mov_b32)");
	in->op = KFDSIG_SQ_OP_V_MOV_B32;
	in->ndw = 1;
	if (in->src0 == 0xf9 || in->src0 == 0xfa || in->src0 == 0xe9 || in->src0 == 0xea)
		return refuse(in, "SDWA/DPP forms not implemented");
	return decode_vop_src(e, code, size, va, in);
}

static int decode_vop3(const struct sq_enc *e, const void *code, size_t size, uint64_t va,
		       struct sq_insn *in)
{
	uint32_t w0 = in->words[0], w1;
	unsigned base = e->vop3_vop1_base; /* VOP3 opcode of VOP1 op 0 */

	in->enc = "VOP3";
	in->opcode = (w0 >> 16) & 0x3ff;
	if (fetch(code, size, va, in->pc, 1, &in->words[1]))
		return set_error(EFAULT,
				 "VOP3 instruction at 0x%" PRIx64 " runs past the code buffer",
				 in->pc);
	in->size = 8;
	w1 = in->words[1];
	if (in->opcode != base + 1)
		return refuse(in, "VOP3 opcode not implemented (only v_mov_b32_e64)");
	in->op = KFDSIG_SQ_OP_V_MOV_B32;
	in->e64 = true;
	in->ndw = 1;
	in->dst = w0 & 0xff;
	in->src0 = w1 & 0x1ff;
	/* abs [10:8], op_sel [14:11] (gfx10+), clamp [15]; omod [28:27],
	 * neg [31:29]: none of the modifiers is implemented. */
	if ((w0 & 0xff00) || (w1 & 0xf8000000))
		return refuse(in, "VOP3 modifiers not implemented");
	return decode_vop_src(e, code, size, va, in);
}

/* Normalised scope of gfx8-11 cache bits on a store or writeback. */
static enum sq_scope cpol_scope(const struct sq_enc *e, const struct sq_insn *in)
{
	if (e->sc1) {
		/* gfx940: sc0 (bit 14) + sc1 (bit 15) = system, sc1 = agent,
		 * sc0 = workgroup; gfx90a system scope is glc + scc, the bits
		 * LLVM sets for CPol::SC0 | CPol::SC1 (LLVM SIDefines.h SendMsg::ID_INTERRUPT). */
		if (in->glc && in->scc)
			return KFDSIG_SQ_SCOPE_SYS;
		if (in->scc)
			return KFDSIG_SQ_SCOPE_DEV;
		return in->glc ? KFDSIG_SQ_SCOPE_SE : KFDSIG_SQ_SCOPE_CU;
	}
	return KFDSIG_SQ_SCOPE_CU;
}

static int decode_flat(const struct sq_enc *e, const void *code, size_t size, uint64_t va,
		       struct sq_insn *in)
{
	uint32_t w0 = in->words[0], w1, w2 = 0;
	unsigned op, nwords = e->flat == SQ_FLAT_GFX12 ? 3 : 2;

	in->enc = "FLAT";
	for (unsigned i = 1; i < nwords; i++)
		if (fetch(code, size, va, in->pc, i, &in->words[i]))
			return set_error(EFAULT,
					 "FLAT instruction at 0x%" PRIx64
					 " runs past the code buffer",
					 in->pc);
	in->size = 4 * nwords;
	w1 = in->words[1];
	in->saddr = KFDSIG_SQ_OPND_NONE;

	if (e->flat == SQ_FLAT_GFX12) {
		/* VFLAT/VGLOBAL gfx12 (96 bits): saddr [6:0], op [21:14],
		 * seg [25:24], 0x3b [31:26]; th [54:52], scope [51:50],
		 * vdata [62:55]; vaddr [71:64], offset [95:72] signed. */
		unsigned saddr = w0 & 0x7f;

		w2 = in->words[2];
		op = (w0 >> 14) & 0xff;
		in->seg = (w0 >> 24) & 3;
		in->enc = in->seg == 2 ? "VGLOBAL" : in->seg == 1 ? "VSCRATCH" : "VFLAT";
		in->scope = (w1 >> 18) & 3;
		in->th = (w1 >> 20) & 7;
		in->vdata = (w1 >> 23) & 0xff;
		in->vaddr = w2 & 0xff;
		in->offset = sext(w2 >> 8, 24);
		in->mem_scope = (enum sq_scope)in->scope;
		in->opcode = op;
		if (in->seg == 1 || in->seg == 3)
			return refuse(in, "scratch access not implemented");
		if (saddr != e->null && saddr != 0x7f) {
			if (saddr > e->max_sgpr || (saddr & 1) || in->seg != 2)
				return refuse(in, "saddr operand not implemented");
			in->saddr = saddr;
		}
		if (op == 0x2c && in->seg == 2) {
			in->op = KFDSIG_SQ_OP_GLOBAL_WB;
			return 0;
		}
		if (op >= e->flat_store_op && op < e->flat_store_op + 4u) {
			in->op = KFDSIG_SQ_OP_STORE;
			in->ndw = e->flat_store_ndw[op - e->flat_store_op];
			return 0;
		}
		return refuse(in, "opcode not implemented (only stores and global_wb)");
	}

	/* FLAT_Real_vi/_gfx10/_gfx11: op [24:18]; vaddr [39:32],
	 * vdata [47:40], saddr [54:48] (gfx9+). */
	op = (w0 >> 18) & 0x7f;
	in->opcode = op;
	in->vaddr = w1 & 0xff;
	in->vdata = (w1 >> 8) & 0xff;
	if (e->flat == SQ_FLAT_GFX8) {
		/* gfx8: glc [16], slc [17]; no offset, no segment. */
		in->glc = (w0 >> 16) & 1;
		in->slc = (w0 >> 17) & 1;
		in->seg = 0;
	} else if (e->flat == SQ_FLAT_GFX9) {
		/* gfx9: offset [12:0] (signed for global), lds [13],
		 * seg [15:14], glc/sc0 [16], slc/nt [17], scc/sc1 [25]
		 * (gfx90a, gfx940). */
		in->seg = (w0 >> 14) & 3;
		in->offset = in->seg ? sext(w0, 13) : (int32_t)(w0 & 0xfff);
		in->glc = (w0 >> 16) & 1;
		in->slc = (w0 >> 17) & 1;
		if (e->sc1)
			in->scc = (w0 >> 25) & 1;
		if ((w0 >> 13) & 1)
			return refuse(in, "LDS form not implemented");
	} else if (e->flat == SQ_FLAT_GFX10) {
		/* gfx10: offset [11:0] signed, dlc [12], lds [13],
		 * seg [15:14], glc [16], slc [17]. */
		in->seg = (w0 >> 14) & 3;
		in->offset = sext(w0, 12);
		in->dlc = (w0 >> 12) & 1;
		in->glc = (w0 >> 16) & 1;
		in->slc = (w0 >> 17) & 1;
		if ((w0 >> 13) & 1)
			return refuse(in, "LDS form not implemented");
	} else {
		/* gfx11: offset [12:0] signed, dlc [13], glc [14], slc [15],
		 * seg [17:16]. */
		in->seg = (w0 >> 16) & 3;
		in->offset = sext(w0, 13);
		in->dlc = (w0 >> 13) & 1;
		in->glc = (w0 >> 14) & 1;
		in->slc = (w0 >> 15) & 1;
	}
	in->mem_scope = cpol_scope(e, in);
	if (in->seg == 2)
		in->enc = "GLOBAL";
	if (in->seg == 1 || in->seg == 3)
		return refuse(in, "scratch access not implemented");
	if (e->flat != SQ_FLAT_GFX8 && in->seg == 2) {
		/* saddr is a GLOBAL operand; FLAT leaves the field unused. */
		unsigned saddr = (w1 >> 16) & 0x7f;

		if (saddr != e->flat_saddr_off) {
			if (in->seg != 2 || saddr > e->max_sgpr || (saddr & 1))
				return refuse(in, "saddr operand not implemented");
			in->saddr = saddr;
		}
	}

	/* the generation's store opcodes (sq_enc.c: gfx10 swaps x3 and x4) */
	if (op >= e->flat_store_op && op < e->flat_store_op + 4u)
		in->ndw = e->flat_store_ndw[op - e->flat_store_op];
	if (!in->ndw)
		return refuse(in, "FLAT opcode not implemented (only dword stores)");
	in->op = KFDSIG_SQ_OP_STORE;
	return 0;
}

static int decode_mubuf(const struct sq_enc *e, const void *code, size_t size, uint64_t va,
			struct sq_insn *in)
{
	uint32_t w0 = in->words[0];

	in->enc = "MUBUF";
	if (fetch(code, size, va, in->pc, 1, &in->words[1]))
		return set_error(EFAULT,
				 "MUBUF instruction at 0x%" PRIx64 " runs past the code buffer",
				 in->pc);
	in->size = 8;
	/* MUBUF_Real_vi: offset [11:0], offen [12], idxen [13], glc/sc0 [14],
	 * scc/sc1 [15] (gfx90a, gfx940), lds [16], slc/nt [17], op [24:18].
	 * buffer_wbl2 is op 0x28 on gfx90a and gfx940 only. */
	in->opcode = (w0 >> 18) & 0x7f;
	if (!e->wbl2 || in->opcode != 0x28)
		return refuse(in,
			      "MUBUF opcode not implemented (only buffer_wbl2 on gfx90a/gfx94x)");
	in->op = KFDSIG_SQ_OP_BUFFER_WBL2;
	in->glc = (w0 >> 14) & 1;
	in->scc = (w0 >> 15) & 1;
	in->slc = (w0 >> 17) & 1;
	in->mem_scope = cpol_scope(e, in);
	return 0;
}

int emu_sq_decode(const struct sq_enc *e, const void *code, size_t code_size, uint64_t code_va,
		  uint64_t pc, struct sq_insn *in)
{
	uint32_t w0;
	unsigned enc6;
	int r;

	if (!e || !code || !in)
		return set_error(EINVAL, "sq decode: NULL argument");
	memset(in, 0, sizeof(*in));
	for (unsigned i = 0; i < KFDSIG_SQ_CNT_COUNT; i++)
		in->wait[i] = -1;
	in->pc = pc;
	in->enc = "?";
	if (pc & 3)
		return set_error(EINVAL, "sq decode: pc 0x%" PRIx64 " is not 4-byte aligned", pc);
	if (fetch(code, code_size, code_va, pc, 0, &w0))
		return set_error(EFAULT, "pc 0x%" PRIx64 " is outside the code buffer", pc);
	in->words[0] = w0;
	in->size = 4;
	enc6 = w0 >> 26;

	if ((w0 >> 23) == 0x17f) {
		r = decode_sopp(e, in);
	} else if ((w0 >> 23) == 0x17d) {
		r = decode_sop1(e, code, code_size, code_va, in);
	} else if ((w0 >> 23) == 0x17e) {
		in->enc = "SOPC";
		r = refuse(in, NULL);
	} else if ((w0 >> 28) == 0xb) {
		r = decode_sopk(e, in);
	} else if ((w0 >> 30) == 0x2) {
		in->enc = "SOP2";
		r = refuse(in, NULL);
	} else if ((w0 >> 25) == 0x3f) {
		r = decode_vop1(e, code, code_size, code_va, in);
	} else if (!(w0 >> 31)) {
		in->enc = (w0 >> 25) == 0x3e ? "VOPC" : "VOP2";
		r = refuse(in, NULL);
	} else if (enc6 == e->enc_smem) {
		r = decode_smem(e, code, code_size, code_va, in);
	} else if (enc6 == e->enc_vop3) {
		r = decode_vop3(e, code, code_size, code_va, in);
	} else if (enc6 == e->enc_flat) {
		r = decode_flat(e, code, code_size, code_va, in);
	} else if (enc6 == e->enc_mubuf) {
		r = decode_mubuf(e, code, code_size, code_va, in);
	} else {
		r = refuse(in, "encoding not implemented");
	}
	return r < 0 ? r : in->size;
}
int sq_decode(const struct kfdsig_target *target, const void *code, size_t code_size,
	      uint64_t code_va, uint64_t pc, struct sq_insn *in)
{
	struct emu_gen g;

	if (!target || !code || !in)
		return set_error(EINVAL, "sq decode: NULL argument");
	if (emu_sq_gen(target, &g) < 0)
		return -ENOENT;
	return emu_sq_decode(emu_sq_enc(&g), code, code_size, code_va, pc, in);
}
