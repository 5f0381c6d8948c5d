/* SPDX-License-Identifier: MIT */
/*
 * Emulated shader unit: decoder, llvm-objdump-style printer and a one-wave
 * interpreter for the instructions of kfdsig's signal stubs.
 *
 * Encodings are our own reading of LLVM's AMDGPU instruction definitions
 * (LLVM llvm/lib/Target/AMDGPU: SOPInstructions.td SOP1/SOPK/SOPP *_Real
 * records, SMInstructions.td SMEM_Real_vi/_gfx10/_gfx11/_gfx12,
 * VOP1Instructions.td / VOP3 *_Real, FLATInstructions.td FLAT_Real_vi,
 * _gfx10, _gfx11 and VFLAT/VGLOBAL _gfx12, BUFInstructions.td MUBUF_Real
 * (buffer_wbl2), and the AMDGPU operand docs gfx*_waitcnt / gfx*_msg), each
 * field checked against the encodings LLVM 22 llvm-mc -show-encoding emits
 * for the target (test/emu_sq_decode.c compares every instruction of the
 * stubs with llvm-objdump). Per-generation release rules: LLVM AMDGPUUsage "Memory Model" (SIMemoryLegalizer.cpp)
 * (LLVM SIMemoryLegalizer.cpp insertRelease); SQ interrupt data width:
 * the target's sq_msg_id_bits (the kfd_signal_event_interrupt() calls of cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c).
 *
 * The interpreter executes memory accesses at issue (stores reach memory
 * through the write callback right away) and models the wait counters only
 * to decide whether a store was released before a message: a store is
 * complete when a wait on every counter it increments has drained it, and
 * on targets whose system-scope release needs a cache writeback (gfx90a,
 * gfx94x: buffer_wbl2 sc0 sc1; gfx12: global_wb scope:SCOPE_SYS) a
 * completed system-scope writeback must also follow it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "emu/sq/sq.h"

/*
 * The shader unit reads no field of the generation table but the GC IP
 * version (and what the kernel keys on with it): the encoding generation
 * comes from the emulator's own table (emu_gen.c).
 */
static int sq_gen(const struct kfdsig_target *target, struct emu_gen *g)
{
	return emu_gen_derive(g, target->gc_ip, target->sdma_ip, target->gfx_target_version, 0, 0);
}

/* ------------------------------------------------------------------ */
/* Per-level encoding facts (t->level / t->family of emu_gen.c).       */

static bool is_gfx8_9(const struct emu_gen *t)
{
	return t->level <= KFDSIG_GFX9;
}

static bool is_gfx10(const struct emu_gen *t)
{
	return t->level == KFDSIG_GFX10 || t->level == KFDSIG_GFX10_3;
}

static bool is_gfx11_plus(const struct emu_gen *t)
{
	return t->level >= KFDSIG_GFX11;
}

static bool is_gfx940(const struct emu_gen *t)
{
	return t->family == KFDSIG_FAMILY_GFX94X;
}

/* Scalar operand codes that move between generations: m0 is 124 up to
 * gfx10 and 125 from gfx11; null is 125 on gfx10 and 124 from gfx11
 * (SIRegisterInfo / operand docs; gfx1100 s_mov_b32 m0 = 0xbefd....). */
static unsigned code_m0(const struct emu_gen *t)
{
	return is_gfx11_plus(t) ? 125 : 124;
}

static unsigned code_null(const struct emu_gen *t)
{
	if (is_gfx11_plus(t))
		return 124;
	return is_gfx10(t) ? 125 : KFDSIG_SQ_OPND_NONE;
}

/* Highest plain SGPR number: gfx8/9 keep 102-105 for flat_scratch and
 * xnack_mask, gfx10 and later address s0-s105. */
static unsigned max_sgpr(const struct emu_gen *t)
{
	return is_gfx8_9(t) ? 101 : 105;
}

/* FLAT/GLOBAL saddr value meaning "off": 0x7f on gfx9, null on gfx10+. */
static unsigned flat_saddr_off(const struct emu_gen *t)
{
	return is_gfx8_9(t) ? 0x7f : code_null(t);
}

/* ------------------------------------------------------------------ */
/* Decoder                                                              */

static int32_t sext(uint32_t v, unsigned bits)
{
	uint32_t m = 1u << (bits - 1);

	v &= (bits == 32) ? 0xffffffffu : ((1u << bits) - 1);
	return (int32_t)((v ^ m) - m);
}

static int refuse(struct kfdsig_sq_insn *in, const char *why)
{
	char words[40];

	if (in->size > 4)
		snprintf(words, sizeof(words), "0x%08x 0x%08x", in->words[0], in->words[1]);
	else
		snprintf(words, sizeof(words), "0x%08x", in->words[0]);
	return kfdsig_set_error(ENOTSUP, "unimplemented instruction at 0x%" PRIx64 ": %s (%s%s%s)",
				in->pc, words, in->enc, why ? ": " : "", why ? why : "");
}

/* Is a scalar source operand code one we can read? */
static bool scalar_src_ok(const struct emu_gen *t, unsigned c)
{
	if (c <= max_sgpr(t))
		return true;
	if (c == 106 || c == 107 || c == 126 || c == 127)
		return true; /* vcc_lo/hi, exec_lo/hi */
	if (c == code_m0(t) || c == code_null(t))
		return true;
	if (c >= 128 && c <= 208)
		return true; /* inline integers 0..64, -1..-16 */
	if (c >= 240 && c <= 248)
		return true; /* inline floats, 1/(2*pi) */
	return c == 255;     /* literal */
}

static bool scalar_dst_ok(const struct emu_gen *t, unsigned c)
{
	return c <= max_sgpr(t) || c == 106 || c == 107 || c == 126 || c == 127 ||
	       c == code_m0(t) || c == code_null(t);
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

static int take_literal(const void *code, size_t size, uint64_t va, struct kfdsig_sq_insn *in)
{
	unsigned i = in->size / 4;

	if (fetch(code, size, va, in->pc, i, &in->words[i]))
		return kfdsig_set_error(EFAULT,
					"literal of the instruction at 0x%" PRIx64
					" runs past the code buffer",
					in->pc);
	in->literal = in->words[i];
	in->has_literal = true;
	in->size += 4;
	return 0;
}

static int decode_sopp(const struct emu_gen *t, struct kfdsig_sq_insn *in)
{
	unsigned op = (in->words[0] >> 16) & 0x7f;
	uint16_t s = in->words[0] & 0xffff;
	enum kfdsig_sq_op o = KFDSIG_SQ_OP_INVALID;

	in->enc = "SOPP";
	in->opcode = op;
	in->simm16 = s;
	if (!is_gfx11_plus(t)) {
		/* gfx8-gfx10 SOPP opcodes (SOPP_Real_32_gfx6_gfx7_gfx8_gfx9_gfx10). */
		if (op == 0x00)
			o = KFDSIG_SQ_OP_S_NOP;
		else if (op == 0x01)
			o = KFDSIG_SQ_OP_S_ENDPGM;
		else if (op == 0x0c)
			o = KFDSIG_SQ_OP_S_WAITCNT;
		else if (op == 0x10)
			o = KFDSIG_SQ_OP_S_SENDMSG;
		else if (op == 0x1f && is_gfx10(t))
			o = KFDSIG_SQ_OP_S_CODE_END;
	} else {
		/* gfx11/gfx12 renumbered SOPP (SOPP_Real_32_gfx11/_gfx12). */
		static const enum kfdsig_sq_op gfx12_wait[8] = {
			KFDSIG_SQ_OP_S_WAIT_LOADCNT,   KFDSIG_SQ_OP_S_WAIT_STORECNT,
			KFDSIG_SQ_OP_S_WAIT_SAMPLECNT, KFDSIG_SQ_OP_S_WAIT_BVHCNT,
			KFDSIG_SQ_OP_S_WAIT_EXPCNT,    KFDSIG_SQ_OP_INVALID,
			KFDSIG_SQ_OP_S_WAIT_DSCNT,     KFDSIG_SQ_OP_S_WAIT_KMCNT,
		};
		if (op == 0x00)
			o = KFDSIG_SQ_OP_S_NOP;
		else if (op == 0x30)
			o = KFDSIG_SQ_OP_S_ENDPGM;
		else if (op == 0x36)
			o = KFDSIG_SQ_OP_S_SENDMSG;
		else if (op == 0x1f)
			o = KFDSIG_SQ_OP_S_CODE_END;
		else if (op == 0x09 && t->level == KFDSIG_GFX11)
			o = KFDSIG_SQ_OP_S_WAITCNT;
		else if (op >= 0x40 && op <= 0x47 && t->level >= KFDSIG_GFX12)
			o = gfx12_wait[op - 0x40];
	}
	if (o == KFDSIG_SQ_OP_INVALID)
		return refuse(in, "SOPP opcode not implemented");
	in->op = o;

	if (o == KFDSIG_SQ_OP_S_WAITCNT) {
		unsigned vm, exp, lgkm;

		if (t->level == KFDSIG_GFX11) {
			/* gfx11_waitcnt: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10] */
			exp = s & 7;
			lgkm = (s >> 4) & 0x3f;
			vm = (s >> 10) & 0x3f;
		} else {
			/* gfx8: vmcnt [3:0]; gfx9/10 add vmcnt[5:4] at [15:14];
			 * expcnt [6:4]; lgkmcnt [11:8] (gfx10: [13:8]). */
			vm = s & 0xf;
			if (t->level >= KFDSIG_GFX9)
				vm |= ((s >> 14) & 3) << 4;
			exp = (s >> 4) & 7;
			lgkm = (s >> 8) & (is_gfx10(t) ? 0x3f : 0xf);
		}
		in->wait[KFDSIG_SQ_CNT_VM] = vm;
		in->wait[KFDSIG_SQ_CNT_EXP] = exp;
		in->wait[KFDSIG_SQ_CNT_LGKM] = lgkm;
	} else if (o >= KFDSIG_SQ_OP_S_WAIT_LOADCNT && o <= KFDSIG_SQ_OP_S_WAIT_KMCNT) {
		static const enum kfdsig_sq_counter cnt[] = {
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

static int decode_sop1(const struct emu_gen *t, const void *code, size_t size, uint64_t va,
		       struct kfdsig_sq_insn *in)
{
	unsigned op = (in->words[0] >> 8) & 0xff;
	/* s_mov_b32 / s_mov_b64: 0/1 on gfx8, gfx9, gfx11, gfx12; 3/4 on gfx10
	 * (SOP1_Real_gfx10 renumbering). */
	unsigned mov32 = is_gfx10(t) ? 3 : 0;

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

	if (!scalar_dst_ok(t, in->dst) || !scalar_src_ok(t, in->src0))
		return refuse(in, "s_mov operand not implemented");
	if (in->ndw == 2) {
		/* 64-bit: register pairs and inline integers only. */
		bool pair_ok = (in->src0 <= max_sgpr(t) && !(in->src0 & 1)) || in->src0 == 106 ||
			       in->src0 == 126 || (in->src0 >= 128 && in->src0 <= 208);
		bool dst_ok = (in->dst <= max_sgpr(t) && !(in->dst & 1)) || in->dst == 106 ||
			      in->dst == 126;

		if (!pair_ok || !dst_ok)
			return refuse(in, "s_mov_b64 operand not implemented");
	}
	if (in->src0 == 255)
		return take_literal(code, size, va, in);
	return 0;
}

static int decode_sopk(const struct emu_gen *t, struct kfdsig_sq_insn *in)
{
	unsigned op = (in->words[0] >> 23) & 0x1f;

	in->enc = "SOPK";
	in->opcode = op;
	in->dst = (in->words[0] >> 16) & 0x7f;
	in->simm16 = in->words[0] & 0xffff;
	if (op == 0) {
		in->op = KFDSIG_SQ_OP_S_MOVK_I32;
		in->ndw = 1;
		if (!scalar_dst_ok(t, in->dst))
			return refuse(in, "s_movk_i32 destination not implemented");
		return 0;
	}
	/* s_waitcnt_vscnt: SOPK 0x17 on gfx10, 0x18 on gfx11; gfx12 has
	 * s_wait_storecnt instead. Only the "null" register form. */
	if ((is_gfx10(t) && op == 0x17) || (t->level == KFDSIG_GFX11 && op == 0x18)) {
		in->op = KFDSIG_SQ_OP_S_WAITCNT_VSCNT;
		if (in->dst != code_null(t))
			return refuse(in, "s_waitcnt_vscnt with an SGPR operand not implemented");
		in->wait[KFDSIG_SQ_CNT_VS] = (int16_t)(in->simm16 > 0x7fff ? 0x7fff : in->simm16);
		return 0;
	}
	return refuse(in, "SOPK opcode not implemented");
}

static const uint8_t smem_ndw[6] = { 1, 2, 4, 8, 16, 3 };

static int decode_smem(const struct emu_gen *t, const void *code, size_t size, uint64_t va,
		       struct kfdsig_sq_insn *in)
{
	uint32_t w0 = in->words[0], w1;
	unsigned op;

	in->enc = "SMEM";
	if (fetch(code, size, va, in->pc, 1, &in->words[1]))
		return kfdsig_set_error(
			EFAULT, "SMEM instruction at 0x%" PRIx64 " runs past the code buffer",
			in->pc);
	in->size = 8;
	w1 = in->words[1];
	in->sbase = (w0 & 0x3f) << 1;
	in->dst = (w0 >> 6) & 0x7f;
	in->soffset = KFDSIG_SQ_OPND_NONE;

	if (is_gfx8_9(t)) {
		/* SMEM_Real_vi: sbase [5:0], sdata [12:6], soe [14] (gfx9),
		 * nv [15], glc [16], imm [17], op [25:18]; offset in the
		 * second dword: 20 bits (gfx8) / 21 bits (gfx9) when imm=1,
		 * else an SGPR code in [7:0]. */
		op = (w0 >> 18) & 0xff;
		in->glc = (w0 >> 16) & 1;
		if ((w0 >> 14) & 3)
			return refuse(in, "SMEM soe/nv forms not implemented");
		if ((w0 >> 17) & 1) {
			in->offset = (int32_t)(w1 & (t->level == KFDSIG_GFX8 ? 0xfffff : 0x1fffff));
		} else {
			in->soffset = w1 & 0xff;
			in->soffset_is_imm_slot = true;
			if (in->soffset > max_sgpr(t))
				return refuse(in, "SMEM soffset operand not implemented");
		}
	} else {
		unsigned so = w1 >> 25;

		if (t->level >= KFDSIG_GFX12) {
			/* SMEM_Real_gfx12: op [18:13], scope [22:21], th [24:23];
			 * offset [23:0] signed in dword 1. */
			op = (w0 >> 13) & 0x3f;
			in->scope = (w0 >> 21) & 3;
			in->th = (w0 >> 23) & 3;
			in->offset = sext(w1, 24);
		} else {
			/* SMEM_Real_gfx10/_gfx11: op [25:18]; gfx10 dlc [14] glc [16],
			 * gfx11 dlc [13] glc [14]; offset [20:0] signed. */
			op = (w0 >> 18) & 0xff;
			if (is_gfx10(t)) {
				in->dlc = (w0 >> 14) & 1;
				in->glc = (w0 >> 16) & 1;
			} else {
				in->dlc = (w0 >> 13) & 1;
				in->glc = (w0 >> 14) & 1;
			}
			in->offset = sext(w1, 21);
		}
		if (so != code_null(t)) {
			if (so > max_sgpr(t))
				return refuse(in, "SMEM soffset operand not implemented");
			in->soffset = so;
		}
	}
	in->opcode = op;
	if (op > 5 || (op == 5 && t->level < KFDSIG_GFX12))
		return refuse(in, "SMEM opcode not implemented (only s_load)");
	in->op = KFDSIG_SQ_OP_S_LOAD;
	in->ndw = smem_ndw[op];
	if ((unsigned)(in->dst + in->ndw - 1) > max_sgpr(t) || (in->ndw >= 2 && (in->dst & 1)))
		return refuse(in, "s_load destination not implemented");
	return 0;
}

static int decode_vop_src(const struct emu_gen *t, const void *code, size_t size, uint64_t va,
			  struct kfdsig_sq_insn *in)
{
	if (in->src0 >= 256)
		return 0; /* VGPR */
	if (!scalar_src_ok(t, in->src0))
		return refuse(in, "v_mov_b32 source operand not implemented");
	if (in->src0 == 255) {
		if (in->e64 && is_gfx8_9(t))
			return refuse(in, "VOP3 literal does not exist before gfx10");
		return take_literal(code, size, va, in);
	}
	return 0;
}

static int decode_vop1(const struct emu_gen *t, const void *code, size_t size, uint64_t va,
		       struct kfdsig_sq_insn *in)
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
	return decode_vop_src(t, code, size, va, in);
}

static int decode_vop3(const struct emu_gen *t, const void *code, size_t size, uint64_t va,
		       struct kfdsig_sq_insn *in)
{
	uint32_t w0 = in->words[0], w1;
	/* VOP3 encoding of a VOP1 opcode: 0x140 + op on gfx8/9, 0x180 + op
	 * from gfx10 (VOP3_Real_vi / _gfx10 / _gfx11 / _gfx12). */
	unsigned base = is_gfx8_9(t) ? 0x140 : 0x180;

	in->enc = "VOP3";
	in->opcode = (w0 >> 16) & 0x3ff;
	if (fetch(code, size, va, in->pc, 1, &in->words[1]))
		return kfdsig_set_error(
			EFAULT, "VOP3 instruction at 0x%" PRIx64 " runs past the code buffer",
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
	return decode_vop_src(t, code, size, va, in);
}

/* Normalised scope of gfx8-11 cache bits on a store or writeback. */
static enum kfdsig_sq_scope cpol_scope(const struct emu_gen *t, const struct kfdsig_sq_insn *in)
{
	if (t->family == KFDSIG_FAMILY_GFX90A || is_gfx940(t)) {
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

static int decode_flat(const struct emu_gen *t, const void *code, size_t size, uint64_t va,
		       struct kfdsig_sq_insn *in)
{
	uint32_t w0 = in->words[0], w1, w2 = 0;
	unsigned op, nwords = t->level >= KFDSIG_GFX12 ? 3 : 2;

	in->enc = "FLAT";
	for (unsigned i = 1; i < nwords; i++)
		if (fetch(code, size, va, in->pc, i, &in->words[i]))
			return kfdsig_set_error(EFAULT,
						"FLAT instruction at 0x%" PRIx64
						" runs past the code buffer",
						in->pc);
	in->size = 4 * nwords;
	w1 = in->words[1];
	in->saddr = KFDSIG_SQ_OPND_NONE;

	if (t->level >= KFDSIG_GFX12) {
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
		in->mem_scope = (enum kfdsig_sq_scope)in->scope;
		in->opcode = op;
		if (in->seg == 1 || in->seg == 3)
			return refuse(in, "scratch access not implemented");
		if (saddr != code_null(t) && saddr != 0x7f) {
			if (saddr > max_sgpr(t) || (saddr & 1) || in->seg != 2)
				return refuse(in, "saddr operand not implemented");
			in->saddr = saddr;
		}
		if (op == 0x2c && in->seg == 2) {
			in->op = KFDSIG_SQ_OP_GLOBAL_WB;
			return 0;
		}
		if (op >= 0x1a && op <= 0x1d) {
			in->op = KFDSIG_SQ_OP_STORE;
			in->ndw = op - 0x1a + 1;
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
	if (t->level == KFDSIG_GFX8) {
		/* gfx8: glc [16], slc [17]; no offset, no segment. */
		in->glc = (w0 >> 16) & 1;
		in->slc = (w0 >> 17) & 1;
		in->seg = 0;
	} else if (t->level == KFDSIG_GFX9) {
		/* gfx9: offset [12:0] (signed for global), lds [13],
		 * seg [15:14], glc/sc0 [16], slc/nt [17], scc/sc1 [25]
		 * (gfx90a, gfx940). */
		in->seg = (w0 >> 14) & 3;
		in->offset = in->seg ? sext(w0, 13) : (int32_t)(w0 & 0xfff);
		in->glc = (w0 >> 16) & 1;
		in->slc = (w0 >> 17) & 1;
		if (t->family == KFDSIG_FAMILY_GFX90A || is_gfx940(t))
			in->scc = (w0 >> 25) & 1;
		if ((w0 >> 13) & 1)
			return refuse(in, "LDS form not implemented");
	} else if (is_gfx10(t)) {
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
	in->mem_scope = cpol_scope(t, in);
	if (in->seg == 2)
		in->enc = "GLOBAL";
	if (in->seg == 1 || in->seg == 3)
		return refuse(in, "scratch access not implemented");
	if (t->level >= KFDSIG_GFX9 && in->seg == 2) {
		/* saddr is a GLOBAL operand; FLAT leaves the field unused. */
		unsigned saddr = (w1 >> 16) & 0x7f;

		if (saddr != flat_saddr_off(t)) {
			if (in->seg != 2 || saddr > max_sgpr(t) || (saddr & 1))
				return refuse(in, "saddr operand not implemented");
			in->saddr = saddr;
		}
	}

	if (t->level >= KFDSIG_GFX11) {
		/* store_b32 .. store_b128: 0x1a .. 0x1d */
		if (op >= 0x1a && op <= 0x1d)
			in->ndw = op - 0x1a + 1;
	} else if (is_gfx10(t)) {
		/* gfx10 swaps x3 and x4: dword 0x1c, x2 0x1d, x4 0x1e, x3 0x1f */
		static const uint8_t n[4] = { 1, 2, 4, 3 };

		if (op >= 0x1c && op <= 0x1f)
			in->ndw = n[op - 0x1c];
	} else {
		/* gfx8/9: dword 0x1c, x2 0x1d, x3 0x1e, x4 0x1f */
		if (op >= 0x1c && op <= 0x1f)
			in->ndw = op - 0x1c + 1;
	}
	if (!in->ndw)
		return refuse(in, "FLAT opcode not implemented (only dword stores)");
	in->op = KFDSIG_SQ_OP_STORE;
	return 0;
}

static int decode_mubuf(const struct emu_gen *t, const void *code, size_t size, uint64_t va,
			struct kfdsig_sq_insn *in)
{
	uint32_t w0 = in->words[0];

	in->enc = "MUBUF";
	if (fetch(code, size, va, in->pc, 1, &in->words[1]))
		return kfdsig_set_error(
			EFAULT, "MUBUF instruction at 0x%" PRIx64 " runs past the code buffer",
			in->pc);
	in->size = 8;
	/* MUBUF_Real_vi: offset [11:0], offen [12], idxen [13], glc/sc0 [14],
	 * scc/sc1 [15] (gfx90a, gfx940), lds [16], slc/nt [17], op [24:18].
	 * buffer_wbl2 is op 0x28 on gfx90a and gfx940 only. */
	in->opcode = (w0 >> 18) & 0x7f;
	if (!(t->family == KFDSIG_FAMILY_GFX90A || is_gfx940(t)) || in->opcode != 0x28)
		return refuse(in,
			      "MUBUF opcode not implemented (only buffer_wbl2 on gfx90a/gfx94x)");
	in->op = KFDSIG_SQ_OP_BUFFER_WBL2;
	in->glc = (w0 >> 14) & 1;
	in->scc = (w0 >> 15) & 1;
	in->slc = (w0 >> 17) & 1;
	in->mem_scope = cpol_scope(t, in);
	return 0;
}

static int sq_decode(const struct emu_gen *t, const void *code, size_t code_size, uint64_t code_va,
		     uint64_t pc, struct kfdsig_sq_insn *in)
{
	uint32_t w0;
	unsigned enc6;
	int r;

	if (!t || !code || !in)
		return kfdsig_set_error(EINVAL, "sq decode: NULL argument");
	memset(in, 0, sizeof(*in));
	for (unsigned i = 0; i < KFDSIG_SQ_CNT_COUNT; i++)
		in->wait[i] = -1;
	in->pc = pc;
	in->enc = "?";
	if (pc & 3)
		return kfdsig_set_error(EINVAL, "sq decode: pc 0x%" PRIx64 " is not 4-byte aligned",
					pc);
	if (fetch(code, code_size, code_va, pc, 0, &w0))
		return kfdsig_set_error(EFAULT, "pc 0x%" PRIx64 " is outside the code buffer", pc);
	in->words[0] = w0;
	in->size = 4;
	enc6 = w0 >> 26;

	if ((w0 >> 23) == 0x17f) {
		r = decode_sopp(t, in);
	} else if ((w0 >> 23) == 0x17d) {
		r = decode_sop1(t, code, code_size, code_va, in);
	} else if ((w0 >> 23) == 0x17e) {
		in->enc = "SOPC";
		r = refuse(in, NULL);
	} else if ((w0 >> 28) == 0xb) {
		r = decode_sopk(t, in);
	} else if ((w0 >> 30) == 0x2) {
		in->enc = "SOP2";
		r = refuse(in, NULL);
	} else if ((w0 >> 25) == 0x3f) {
		r = decode_vop1(t, code, code_size, code_va, in);
	} else if (!(w0 >> 31)) {
		in->enc = (w0 >> 25) == 0x3e ? "VOPC" : "VOP2";
		r = refuse(in, NULL);
	} else if ((is_gfx8_9(t) && enc6 == 0x30) || (!is_gfx8_9(t) && enc6 == 0x3d)) {
		r = decode_smem(t, code, code_size, code_va, in);
	} else if ((is_gfx8_9(t) && enc6 == 0x34) || (!is_gfx8_9(t) && enc6 == 0x35)) {
		r = decode_vop3(t, code, code_size, code_va, in);
	} else if ((t->level < KFDSIG_GFX12 && enc6 == 0x37) ||
		   (t->level >= KFDSIG_GFX12 && enc6 == 0x3b)) {
		r = decode_flat(t, code, code_size, code_va, in);
	} else if (t->level < KFDSIG_GFX12 && enc6 == 0x38) {
		r = decode_mubuf(t, code, code_size, code_va, in);
	} else {
		r = refuse(in, "encoding not implemented");
	}
	return r < 0 ? r : in->size;
}

/* ------------------------------------------------------------------ */
/* Printer (llvm-objdump syntax)                                       */

struct strbuf {
	char *p;
	size_t len, pos;
};

static void sb_put(struct strbuf *b, const char *fmt, ...) KFDSIG_PRINTF(2, 3);

static void sb_put(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->pos >= b->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->pos, b->len - b->pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->pos += (size_t)n < b->len - b->pos ? (size_t)n : b->len - b->pos - 1;
}

static const char *const inline_float[9] = {
	"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494",
};

static void put_scalar(struct strbuf *b, const struct emu_gen *t, const struct kfdsig_sq_insn *in,
		       unsigned c, unsigned ndw)
{
	if (c >= 256) {
		if (ndw == 1)
			sb_put(b, "v%u", c - 256);
		else
			sb_put(b, "v[%u:%u]", c - 256, c - 256 + ndw - 1);
	} else if (c <= max_sgpr(t)) {
		if (ndw == 1)
			sb_put(b, "s%u", c);
		else
			sb_put(b, "s[%u:%u]", c, c + ndw - 1);
	} else if (c == 106 || c == 107) {
		sb_put(b, ndw == 2 ? "vcc" : c == 106 ? "vcc_lo" : "vcc_hi");
	} else if (c == 126 || c == 127) {
		sb_put(b, ndw == 2 ? "exec" : c == 126 ? "exec_lo" : "exec_hi");
	} else if (c == code_m0(t)) {
		sb_put(b, "m0");
	} else if (c == code_null(t)) {
		sb_put(b, "null");
	} else if (c >= 128 && c <= 192) {
		sb_put(b, "%u", c - 128);
	} else if (c >= 193 && c <= 208) {
		sb_put(b, "-%u", c - 192);
	} else if (c >= 240 && c <= 248) {
		sb_put(b, "%s", inline_float[c - 240]);
	} else if (c == 255) {
		sb_put(b, "0x%x", in->literal);
	} else {
		sb_put(b, "?%u", c);
	}
}

static void put_vgprs(struct strbuf *b, unsigned v, unsigned n)
{
	if (n == 1)
		sb_put(b, "v%u", v);
	else
		sb_put(b, "v[%u:%u]", v, v + n - 1);
}

static const char *const scope_name[4] = { "SCOPE_CU", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS" };

static void put_cpol(struct strbuf *b, const struct emu_gen *t, const struct kfdsig_sq_insn *in)
{
	if (t->level >= KFDSIG_GFX12) {
		static const char *const th_store[8] = {
			NULL,
			"TH_STORE_NT",
			"TH_STORE_HT",
			"TH_STORE_RT_WB",
			"TH_STORE_NT_RT",
			"TH_STORE_RT_NT",
			"TH_STORE_NT_HT",
			"TH_STORE_BYPASS",
		};
		if (in->th && in->op == KFDSIG_SQ_OP_STORE)
			sb_put(b, " th:%s", th_store[in->th & 7]);
		else if (in->th)
			sb_put(b, " th:%u", in->th);
		if (in->scope)
			sb_put(b, " scope:%s", scope_name[in->scope & 3]);
		return;
	}
	if (is_gfx940(t)) {
		if (in->glc)
			sb_put(b, " sc0");
		if (in->slc)
			sb_put(b, " nt");
		if (in->scc)
			sb_put(b, " sc1");
		return;
	}
	if (in->glc)
		sb_put(b, " glc");
	if (in->slc)
		sb_put(b, " slc");
	if (in->dlc)
		sb_put(b, " dlc");
	if (in->scc)
		sb_put(b, " scc");
}

static void put_waitcnt(struct strbuf *b, const struct emu_gen *t, const struct kfdsig_sq_insn *in)
{
	int vm_max = t->level == KFDSIG_GFX8 ? 15 : 63;
	int lgkm_max = (is_gfx10(t) || t->level == KFDSIG_GFX11) ? 63 : 15;
	int vm = in->wait[KFDSIG_SQ_CNT_VM], exp = in->wait[KFDSIG_SQ_CNT_EXP];
	int lgkm = in->wait[KFDSIG_SQ_CNT_LGKM];
	bool all = vm == vm_max && exp == 7 && lgkm == lgkm_max;

	/* LLVM prints only the counters that are waited on, or all three
	 * when none is. */
	sb_put(b, "s_waitcnt");
	if (all || vm != vm_max)
		sb_put(b, " vmcnt(%d)", vm);
	if (all || exp != 7)
		sb_put(b, " expcnt(%d)", exp);
	if (all || lgkm != lgkm_max)
		sb_put(b, " lgkmcnt(%d)", lgkm);
}

static void put_offset(struct strbuf *b, int32_t off)
{
	if (off < 0)
		sb_put(b, "-0x%x", (unsigned)-(int64_t)off);
	else
		sb_put(b, "0x%x", (unsigned)off);
}

static int sq_format(const struct emu_gen *t, const struct kfdsig_sq_insn *in, char *buf,
		     size_t len)
{
	struct strbuf b = { buf, len, 0 };
	bool b_names = is_gfx11_plus(t);

	if (!t || !in || !buf || !len)
		return kfdsig_set_error(EINVAL, "sq format: bad argument");
	buf[0] = 0;
	switch (in->op) {
	case KFDSIG_SQ_OP_S_NOP:
		sb_put(&b, "s_nop %u", in->simm16);
		break;
	case KFDSIG_SQ_OP_S_ENDPGM:
		sb_put(&b, "s_endpgm");
		break;
	case KFDSIG_SQ_OP_S_CODE_END:
		sb_put(&b, "s_code_end");
		break;
	case KFDSIG_SQ_OP_S_WAITCNT:
		put_waitcnt(&b, t, in);
		break;
	case KFDSIG_SQ_OP_S_WAITCNT_VSCNT:
		sb_put(&b, "s_waitcnt_vscnt null, 0x%x", in->simm16);
		break;
	case KFDSIG_SQ_OP_S_WAIT_LOADCNT:
	case KFDSIG_SQ_OP_S_WAIT_STORECNT:
	case KFDSIG_SQ_OP_S_WAIT_SAMPLECNT:
	case KFDSIG_SQ_OP_S_WAIT_BVHCNT:
	case KFDSIG_SQ_OP_S_WAIT_EXPCNT:
	case KFDSIG_SQ_OP_S_WAIT_DSCNT:
	case KFDSIG_SQ_OP_S_WAIT_KMCNT: {
		static const char *const n[] = { "loadcnt", "storecnt", "samplecnt", "bvhcnt",
						 "expcnt",  "dscnt",	"kmcnt" };
		sb_put(&b, "s_wait_%s 0x%x", n[in->op - KFDSIG_SQ_OP_S_WAIT_LOADCNT], in->simm16);
		break;
	}
	case KFDSIG_SQ_OP_S_SENDMSG:
		if (in->simm16 == KFDSIG_SQ_MSG_INTERRUPT)
			sb_put(&b, "s_sendmsg sendmsg(MSG_INTERRUPT)");
		else
			sb_put(&b, "s_sendmsg 0x%x", in->simm16);
		break;
	case KFDSIG_SQ_OP_S_MOV_B32:
	case KFDSIG_SQ_OP_S_MOV_B64:
		sb_put(&b, "s_mov_b%u ", in->ndw * 32);
		put_scalar(&b, t, in, in->dst, in->ndw);
		sb_put(&b, ", ");
		put_scalar(&b, t, in, in->src0, in->src0 < 128 ? in->ndw : 1);
		break;
	case KFDSIG_SQ_OP_S_MOVK_I32:
		sb_put(&b, "s_movk_i32 ");
		put_scalar(&b, t, in, in->dst, 1);
		sb_put(&b, ", 0x%x", in->simm16);
		break;
	case KFDSIG_SQ_OP_S_LOAD: {
		static const char *const dw[] = { "", "dword", "dwordx2", "dwordx3", "dwordx4" };
		unsigned n = in->ndw;

		if (b_names)
			sb_put(&b, "s_load_b%u ", n * 32);
		else if (n <= 4)
			sb_put(&b, "s_load_%s ", dw[n]);
		else
			sb_put(&b, "s_load_dwordx%u ", n);
		put_scalar(&b, t, in, in->dst, n);
		sb_put(&b, ", s[%u:%u], ", in->sbase, in->sbase + 1);
		if (is_gfx8_9(t)) {
			if (in->soffset_is_imm_slot)
				put_scalar(&b, t, in, in->soffset, 1);
			else
				put_offset(&b, in->offset);
		} else if (in->soffset != KFDSIG_SQ_OPND_NONE) {
			put_scalar(&b, t, in, in->soffset, 1);
			if (in->offset)
				sb_put(&b, " offset:"), put_offset(&b, in->offset);
		} else if (!in->offset && t->level < KFDSIG_GFX12) {
			/* gfx10/gfx11 print a zero offset as the null soffset */
			sb_put(&b, "null");
		} else {
			put_offset(&b, in->offset);
		}
		if (t->level >= KFDSIG_GFX12) {
			put_cpol(&b, t, in);
		} else {
			/* SMEM keeps the glc/dlc names on gfx940 too. */
			if (in->glc)
				sb_put(&b, " glc");
			if (in->dlc)
				sb_put(&b, " dlc");
		}
		break;
	}
	case KFDSIG_SQ_OP_V_MOV_B32:
		sb_put(&b, "v_mov_b32_%s v%u, ", in->e64 ? "e64" : "e32", in->dst);
		put_scalar(&b, t, in, in->src0, 1);
		break;
	case KFDSIG_SQ_OP_STORE: {
		const char *seg = in->seg == 2 ? "global" : "flat";

		if (b_names)
			sb_put(&b, "%s_store_b%u ", seg, in->ndw * 32);
		else if (in->ndw == 1)
			sb_put(&b, "%s_store_dword ", seg);
		else
			sb_put(&b, "%s_store_dwordx%u ", seg, in->ndw);
		put_vgprs(&b, in->vaddr, in->saddr == KFDSIG_SQ_OPND_NONE ? 2 : 1);
		sb_put(&b, ", ");
		put_vgprs(&b, in->vdata, in->ndw);
		if (in->seg == 2) {
			sb_put(&b, ", ");
			if (in->saddr == KFDSIG_SQ_OPND_NONE)
				sb_put(&b, "off");
			else
				sb_put(&b, "s[%u:%u]", in->saddr, in->saddr + 1);
		}
		if (in->offset)
			sb_put(&b, " offset:%d", in->offset);
		put_cpol(&b, t, in);
		break;
	}
	case KFDSIG_SQ_OP_BUFFER_WBL2:
		sb_put(&b, "buffer_wbl2");
		/* LLVM 22 prints the cache bits of buffer_wbl2 on gfx940 only
		 * (a gfx90a "glc scc" writeback prints as bare buffer_wbl2). */
		if (is_gfx940(t))
			put_cpol(&b, t, in);
		break;
	case KFDSIG_SQ_OP_GLOBAL_WB:
		sb_put(&b, "global_wb");
		put_cpol(&b, t, in);
		break;
	default:
		sb_put(&b, "<unimplemented %s 0x%08x>", in->enc, in->words[0]);
		break;
	}
	return (int)b.pos;
}

/* ------------------------------------------------------------------ */
/* Interpreter                                                          */

#define MAX_OPS 64

/* An outstanding or finished memory operation, for the counters. */
struct mem_op {
	unsigned classes;  /* bit per counter it increments */
	unsigned done;	   /* counters that have drained it */
	bool out_of_order; /* SMEM: drained only by a wait for 0 */
	enum kfdsig_sq_event_kind kind;
	enum kfdsig_sq_scope scope;
	int event;	   /* index in the report, or -1 */
	uint64_t sgprs[2]; /* LOAD: SGPRs it writes (pending until done) */
	uint64_t pc;
};

struct wave {
	struct emu_gen gen; /* derived from the target's GC IP version */
	const struct emu_gen *t;
	const struct kfdsig_sq_wave *w;
	const struct kfdsig_sq_env *env;
	struct kfdsig_sq_report *rep;
	uint32_t sgpr[128];
	uint32_t m0;
	uint64_t exec;
	uint32_t (*vgpr)[64];
	struct mem_op ops[MAX_OPS];
	unsigned nops;
	bool last_salu_m0; /* the previous instruction was an SALU m0 write */
};

static int fail(struct wave *s, const struct kfdsig_sq_insn *in, int err, const char *fmt, ...)
	KFDSIG_PRINTF(4, 5);

static int fail(struct wave *s, const struct kfdsig_sq_insn *in, int err, const char *fmt, ...)
{
	char what[160], text[80];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	sq_format(s->t, in, text, sizeof(text));
	return kfdsig_set_error(err, "%s at 0x%" PRIx64 " (%s)", what, in->pc, text);
}

static int add_event(struct wave *s, const struct kfdsig_sq_insn *in,
		     enum kfdsig_sq_event_kind kind, struct kfdsig_sq_event **out)
{
	struct kfdsig_sq_report *r = s->rep;
	struct kfdsig_sq_event *e = NULL;

	if (r->nevents >= KFDSIG_SQ_MAX_EVENTS)
		return fail(s, in, E2BIG, "event log full (%d events)", KFDSIG_SQ_MAX_EVENTS);
	e = &r->ev[r->nevents];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->pc = in->pc;
	e->unreleased = -1;
	for (unsigned i = 0; i < KFDSIG_SQ_CNT_COUNT; i++)
		e->wait[i] = -1;
	*out = e;
	return (int)r->nevents++;
}

static int add_op(struct wave *s, const struct kfdsig_sq_insn *in, unsigned classes, bool ooo,
		  enum kfdsig_sq_event_kind kind, int event, struct mem_op **out)
{
	struct mem_op *op = NULL;

	if (s->nops >= MAX_OPS)
		return fail(s, in, E2BIG, "too many memory operations (%d)", MAX_OPS);
	op = &s->ops[s->nops++];
	memset(op, 0, sizeof(*op));
	op->classes = classes;
	op->out_of_order = ooo;
	op->kind = kind;
	op->event = event;
	op->scope = in->mem_scope;
	op->pc = in->pc;
	*out = op;
	return 0;
}

static bool op_complete(const struct mem_op *op)
{
	return (op->done & op->classes) == op->classes;
}

/* A wait until counter c is at most n: the oldest operations of that
 * counter drain first; out-of-order ones (SMEM) only when n is 0. */
static void drain(struct wave *s, enum kfdsig_sq_counter c, int n)
{
	unsigned bit = 1u << c, pending = 0;

	if (n < 0)
		return;
	for (unsigned i = 0; i < s->nops; i++)
		if ((s->ops[i].classes & bit) && !(s->ops[i].done & bit))
			pending++;
	for (unsigned i = 0; i < s->nops && pending > (unsigned)n; i++) {
		struct mem_op *op = &s->ops[i];

		if (!(op->classes & bit) || (op->done & bit))
			continue;
		if (op->out_of_order && n != 0)
			break;
		op->done |= bit;
		pending--;
	}
}

/* Counters a store / load / writeback increments, per generation. */
static unsigned store_counters(const struct emu_gen *t, const struct kfdsig_sq_insn *in)
{
	bool flat = in->seg == 0;

	if (t->level >= KFDSIG_GFX12)
		return (1u << KFDSIG_SQ_CNT_STORE) | (flat ? 1u << KFDSIG_SQ_CNT_DS : 0);
	if (t->level >= KFDSIG_GFX10)
		return (1u << KFDSIG_SQ_CNT_VS) | (flat ? 1u << KFDSIG_SQ_CNT_LGKM : 0);
	/* gfx8/9: FLAT uses VM_CNT and LGKM_CNT; wait for both (the safe
	 * reading, as the gfx8 stub does). */
	return (1u << KFDSIG_SQ_CNT_VM) | (flat ? 1u << KFDSIG_SQ_CNT_LGKM : 0);
}

static unsigned smem_counter(const struct emu_gen *t)
{
	return t->level >= KFDSIG_GFX12 ? 1u << KFDSIG_SQ_CNT_KM : 1u << KFDSIG_SQ_CNT_LGKM;
}

/* Does the target's system-scope release need a cache writeback?
 * gfx90a / gfx94x: buffer_wbl2 sc0 sc1 + vmcnt(0); gfx12.0: global_wb
 * scope:SCOPE_SYS + s_wait_storecnt 0 (LLVM SIMemoryLegalizer.cpp
 * SIGfx90ACacheControl / SIGfx940CacheControl / SIGfx12CacheControl
 * insertRelease, LLVM AMDGPUUsage "Memory Model"). Others: waits only. */
static bool release_needs_writeback(const struct emu_gen *t)
{
	return t->family == KFDSIG_FAMILY_GFX90A || t->family == KFDSIG_FAMILY_GFX94X ||
	       t->family == KFDSIG_FAMILY_GFX12;
}

static bool sgpr_pending(const struct wave *s, unsigned c, unsigned n, uint64_t *load_pc)
{
	for (unsigned i = 0; i < s->nops; i++) {
		const struct mem_op *op = &s->ops[i];

		if (op->kind != KFDSIG_SQ_EV_LOAD || op_complete(op))
			continue;
		for (unsigned r = c; r < c + n && r < 128; r++)
			if (op->sgprs[r / 64] & (1ull << (r % 64))) {
				*load_pc = op->pc;
				return true;
			}
	}
	return false;
}

static int check_sgpr_read(struct wave *s, const struct kfdsig_sq_insn *in, unsigned c, unsigned n)
{
	uint64_t load_pc;

	if (c > max_sgpr(s->t) || !sgpr_pending(s, c, n, &load_pc))
		return 0;
	return fail(s, in, EPROTO,
		    "s%u read before the scalar load at 0x%" PRIx64
		    " that writes it was waited for",
		    c, load_pc);
}

/* Value of a 32-bit scalar-or-inline source. */
static uint32_t read_scalar(const struct wave *s, const struct kfdsig_sq_insn *in, unsigned c)
{
	static const uint32_t fl[9] = { 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
					0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983 };

	if (c <= max_sgpr(s->t) || c == 106 || c == 107)
		return s->sgpr[c];
	if (c == 126)
		return (uint32_t)s->exec;
	if (c == 127)
		return (uint32_t)(s->exec >> 32);
	if (c == code_m0(s->t))
		return s->m0;
	if (c == code_null(s->t))
		return 0;
	if (c >= 128 && c <= 192)
		return c - 128;
	if (c >= 193 && c <= 208)
		return (uint32_t) - (int32_t)(c - 192);
	if (c >= 240 && c <= 248)
		return fl[c - 240];
	return in->literal; /* 255 */
}

static void write_scalar(struct wave *s, unsigned c, uint32_t v)
{
	if (c <= max_sgpr(s->t) || c == 106 || c == 107)
		s->sgpr[c] = v;
	else if (c == 126)
		s->exec = (s->exec & ~0xffffffffull) | v;
	else if (c == 127)
		s->exec = (s->exec & 0xffffffffull) | ((uint64_t)v << 32);
	else if (c == code_m0(s->t))
		s->m0 = v;
	/* null: discarded */
}

static uint64_t lane_mask(const struct wave *s)
{
	return s->w->wave_size == 64 ? ~0ull : (1ull << s->w->wave_size) - 1;
}

static int exec_wait(struct wave *s, const struct kfdsig_sq_insn *in)
{
	struct kfdsig_sq_event *e = NULL;
	int ev;

	for (unsigned c = 0; c < KFDSIG_SQ_CNT_COUNT; c++)
		drain(s, (enum kfdsig_sq_counter)c, in->wait[c]);
	ev = add_event(s, in, KFDSIG_SQ_EV_WAIT, &e);
	if (ev < 0)
		return ev;
	memcpy(e->wait, in->wait, sizeof(e->wait));
	return 0;
}

static int exec_load(struct wave *s, const struct kfdsig_sq_insn *in)
{
	struct kfdsig_sq_event *e = NULL;
	struct mem_op *op = NULL;
	uint32_t data[16];
	uint64_t addr;
	int ev, r;

	if ((r = check_sgpr_read(s, in, in->sbase, 2)) < 0)
		return r;
	if (in->soffset != KFDSIG_SQ_OPND_NONE && (r = check_sgpr_read(s, in, in->soffset, 1)) < 0)
		return r;
	addr = ((uint64_t)s->sgpr[in->sbase + 1] << 32 | s->sgpr[in->sbase]) + (int64_t)in->offset;
	if (in->soffset != KFDSIG_SQ_OPND_NONE)
		addr += read_scalar(s, in, in->soffset);
	addr &= ~3ull; /* SMEM ignores the two low address bits */
	r = s->env->read(s->env->ctx, addr, data, in->ndw * 4u);
	if (r < 0) {
		s->rep->fault = true;
		s->rep->fault_va = addr;
		return fail(s, in, EFAULT, "memory fault: scalar load from 0x%" PRIx64, addr);
	}
	ev = add_event(s, in, KFDSIG_SQ_EV_LOAD, &e);
	if (ev < 0)
		return ev;
	e->va = addr;
	e->bytes = in->ndw * 4u;
	memcpy(&e->value, data, in->ndw >= 2 ? 8 : 4);
	e->lanes = 1;
	if ((r = add_op(s, in, smem_counter(s->t), true, KFDSIG_SQ_EV_LOAD, ev, &op)) < 0)
		return r;
	for (unsigned i = 0; i < in->ndw; i++) {
		s->sgpr[in->dst + i] = data[i];
		op->sgprs[(in->dst + i) / 64] |= 1ull << ((in->dst + i) % 64);
	}
	return 0;
}

static int exec_store(struct wave *s, const struct kfdsig_sq_insn *in)
{
	uint64_t exec = s->exec & lane_mask(s), prev_addr = 0;
	uint32_t prev[4] = { 0 };
	struct kfdsig_sq_event *e = NULL;
	struct mem_op *op = NULL;
	unsigned lanes = 0, writes = 0;
	bool have_prev = false;
	int ev, r;

	if (in->saddr != KFDSIG_SQ_OPND_NONE && (r = check_sgpr_read(s, in, in->saddr, 2)) < 0)
		return r;
	ev = add_event(s, in, KFDSIG_SQ_EV_STORE, &e);
	if (ev < 0)
		return ev;
	e->bytes = in->ndw * 4u;
	e->scope = in->mem_scope;
	for (unsigned l = 0; l < s->w->wave_size; l++) {
		uint32_t data[4];
		uint64_t addr;

		if (!(exec & (1ull << l)))
			continue;
		if (in->saddr == KFDSIG_SQ_OPND_NONE)
			addr = (uint64_t)s->vgpr[(in->vaddr + 1) & 0xff][l] << 32 |
			       s->vgpr[in->vaddr][l];
		else
			addr = ((uint64_t)s->sgpr[in->saddr + 1] << 32 | s->sgpr[in->saddr]) +
			       s->vgpr[in->vaddr][l];
		addr += (int64_t)in->offset;
		for (unsigned i = 0; i < in->ndw; i++)
			data[i] = s->vgpr[(in->vdata + i) & 0xff][l];
		if (!lanes) {
			e->va = addr;
			memcpy(&e->value, data, in->ndw >= 2 ? 8 : 4);
		}
		lanes++;
		/* Lanes writing the same data to the same place coalesce. */
		if (have_prev && addr == prev_addr && !memcmp(prev, data, in->ndw * 4u))
			continue;
		r = s->env->write(s->env->ctx, addr, data, in->ndw * 4u);
		if (r < 0) {
			s->rep->fault = true;
			s->rep->fault_write = true;
			s->rep->fault_va = addr;
			e->lanes = lanes;
			e->writes = writes;
			return fail(s, in, EFAULT, "memory fault: store to 0x%" PRIx64 " (lane %u)",
				    addr, l);
		}
		writes++;
		have_prev = true;
		prev_addr = addr;
		memcpy(prev, data, in->ndw * 4u);
	}
	e->lanes = lanes;
	e->writes = writes;
	return add_op(s, in, store_counters(s->t, in), false, KFDSIG_SQ_EV_STORE, ev, &op);
}

static int exec_writeback(struct wave *s, const struct kfdsig_sq_insn *in)
{
	struct kfdsig_sq_event *e = NULL;
	struct mem_op *op = NULL;
	unsigned cnt = in->op == KFDSIG_SQ_OP_GLOBAL_WB ? 1u << KFDSIG_SQ_CNT_STORE
							: 1u << KFDSIG_SQ_CNT_VM;
	int ev = add_event(s, in, KFDSIG_SQ_EV_WRITEBACK, &e);

	if (ev < 0)
		return ev;
	e->scope = in->mem_scope;
	return add_op(s, in, cnt, false, KFDSIG_SQ_EV_WRITEBACK, ev, &op);
}

/* Was every store before this point released at system scope? */
static int first_unreleased_store(const struct wave *s)
{
	bool wb = release_needs_writeback(s->t);

	for (unsigned i = 0; i < s->nops; i++) {
		const struct mem_op *st = &s->ops[i];
		bool ok;

		if (st->kind != KFDSIG_SQ_EV_STORE)
			continue;
		ok = op_complete(st);
		if (ok && wb) {
			ok = false;
			for (unsigned j = i + 1; j < s->nops; j++) {
				const struct mem_op *w = &s->ops[j];

				if (w->kind == KFDSIG_SQ_EV_WRITEBACK &&
				    w->scope == KFDSIG_SQ_SCOPE_SYS && op_complete(w)) {
					ok = true;
					break;
				}
			}
		}
		if (!ok)
			return st->event;
	}
	return -1;
}

static int exec_sendmsg(struct wave *s, const struct kfdsig_sq_insn *in)
{
	struct kfdsig_sq_event *e = NULL;
	unsigned bits = s->t->sq_bits;
	int ev;

	ev = add_event(s, in, KFDSIG_SQ_EV_MSG, &e);
	if (ev < 0)
		return ev;
	e->simm16 = in->simm16;
	/* Message type: simm16[3:0] before gfx11, simm16[7:0] from gfx11
	 * (LLVM SIDefines.h SendMsg: ID_MASK_GFX11Plus_ = 0xff). */
	e->msg_id = is_gfx11_plus(s->t) ? in->simm16 & 0xff : in->simm16 & 0xf;
	e->interrupt = e->msg_id == KFDSIG_SQ_MSG_INTERRUPT;
	e->m0 = s->m0;
	/* The IV carries m0 cut to the handler's width (the kfd_signal_event_interrupt() calls of cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c). */
	e->sq_data = bits >= 32 ? s->m0 : s->m0 & ((1u << bits) - 1);
	emu_sq_iv_context(s->t, s->m0, &e->ctx0, &e->ctx1);
	e->unreleased = first_unreleased_store(s);
	e->released = e->unreleased < 0;
	/* GFX6-GFX9: an SALU m0 write needs one wait state before s_sendmsg
	 * (Mesa aco_insert_NOPs.cpp). Flagged, not modelled. */
	e->m0_hazard = is_gfx8_9(s->t) && s->last_salu_m0;
	if (s->env->message) {
		int r = s->env->message(s->env->ctx, e);

		if (r < 0)
			return fail(s, in, -r, "message hook failed (%d)", r);
	}
	return 0;
}

static int exec_insn(struct wave *s, const struct kfdsig_sq_insn *in, bool *end)
{
	uint64_t exec = s->exec & lane_mask(s);
	int r;

	switch (in->op) {
	case KFDSIG_SQ_OP_S_NOP:
		return 0;
	case KFDSIG_SQ_OP_S_ENDPGM: {
		struct kfdsig_sq_event *e;

		*end = true;
		r = add_event(s, in, KFDSIG_SQ_EV_END, &e);
		return r < 0 ? r : 0;
	}
	case KFDSIG_SQ_OP_S_CODE_END:
		return fail(s, in, EPROTO, "s_code_end executed (ran past s_endpgm)");
	case KFDSIG_SQ_OP_S_WAITCNT:
	case KFDSIG_SQ_OP_S_WAITCNT_VSCNT:
	case KFDSIG_SQ_OP_S_WAIT_LOADCNT:
	case KFDSIG_SQ_OP_S_WAIT_STORECNT:
	case KFDSIG_SQ_OP_S_WAIT_SAMPLECNT:
	case KFDSIG_SQ_OP_S_WAIT_BVHCNT:
	case KFDSIG_SQ_OP_S_WAIT_EXPCNT:
	case KFDSIG_SQ_OP_S_WAIT_DSCNT:
	case KFDSIG_SQ_OP_S_WAIT_KMCNT:
		return exec_wait(s, in);
	case KFDSIG_SQ_OP_S_SENDMSG:
		return exec_sendmsg(s, in);
	case KFDSIG_SQ_OP_S_MOV_B32:
		if ((r = check_sgpr_read(s, in, in->src0, 1)) < 0)
			return r;
		write_scalar(s, in->dst, read_scalar(s, in, in->src0));
		return 0;
	case KFDSIG_SQ_OP_S_MOV_B64: {
		uint32_t lo, hi;

		if ((r = check_sgpr_read(s, in, in->src0, 2)) < 0)
			return r;
		lo = read_scalar(s, in, in->src0);
		if (in->src0 >= 128) /* inline integer: sign-extended */
			hi = (int32_t)lo < 0 ? 0xffffffffu : 0;
		else
			hi = read_scalar(s, in, in->src0 + 1);
		write_scalar(s, in->dst, lo);
		write_scalar(s, in->dst + 1, hi);
		return 0;
	}
	case KFDSIG_SQ_OP_S_MOVK_I32:
		write_scalar(s, in->dst, (uint32_t)(int32_t)(int16_t)in->simm16);
		return 0;
	case KFDSIG_SQ_OP_S_LOAD:
		return exec_load(s, in);
	case KFDSIG_SQ_OP_V_MOV_B32: {
		uint32_t v = 0;

		if (in->src0 < 256) {
			if ((r = check_sgpr_read(s, in, in->src0, 1)) < 0)
				return r;
			v = read_scalar(s, in, in->src0);
		}
		for (unsigned l = 0; l < s->w->wave_size; l++)
			if (exec & (1ull << l))
				s->vgpr[in->dst][l] =
					in->src0 >= 256 ? s->vgpr[in->src0 - 256][l] : v;
		return 0;
	}
	case KFDSIG_SQ_OP_STORE:
		return exec_store(s, in);
	case KFDSIG_SQ_OP_BUFFER_WBL2:
	case KFDSIG_SQ_OP_GLOBAL_WB:
		return exec_writeback(s, in);
	default:
		return fail(s, in, ENOTSUP, "instruction not implemented");
	}
}

static bool writes_m0_salu(const struct emu_gen *t, const struct kfdsig_sq_insn *in)
{
	return (in->op == KFDSIG_SQ_OP_S_MOV_B32 || in->op == KFDSIG_SQ_OP_S_MOVK_I32) &&
	       in->dst == code_m0(t);
}

/* Without a code buffer, instructions come through env->read: up to 16
 * bytes at pc (fewer at the end of a mapping). An instruction that cannot
 * be fetched whole is a memory fault on the fetch. */
static int fetch_decode(struct wave *s, uint64_t pc, struct kfdsig_sq_insn *in)
{
	uint8_t buf[16];
	uint32_t n;

	for (n = 16; n; n -= 4)
		if (s->env->read(s->env->ctx, pc, buf, n) == 0)
			break;
	if (n) {
		int r = sq_decode(s->t, buf, n, pc, pc, in);

		if (r != -EFAULT)
			return r;
	}
	s->rep->fault = true;
	s->rep->fault_va = pc + n;
	return kfdsig_set_error(EFAULT, "memory fault: instruction fetch at 0x%" PRIx64, pc);
}

static int check_wave(const struct kfdsig_sq_wave *w, const struct kfdsig_sq_env *env,
		      struct emu_gen *gen)
{
	if (!w || !env || !w->target || !env->read || !env->write)
		return kfdsig_set_error(EINVAL, "sq run: NULL argument");
	if (sq_gen(w->target, gen) < 0)
		return -ENOENT;
	if (w->wave_size != 64 && w->wave_size != 32)
		return kfdsig_set_error(EINVAL, "sq run: wave size %u is not 32 or 64",
					w->wave_size);
	if (w->wave_size == 32 && gen->level < KFDSIG_GFX10)
		return kfdsig_set_error(EINVAL, "sq run: %s has no wave32 (gfx10 and later only)",
					w->target->name);
	if (w->num_sgprs > KFDSIG_SQ_MAX_USER_SGPRS || (w->num_sgprs && !w->sgprs))
		return kfdsig_set_error(EINVAL, "sq run: %u initial SGPRs (at most %d)",
					w->num_sgprs, KFDSIG_SQ_MAX_USER_SGPRS);
	if (w->entry_va & 3)
		return kfdsig_set_error(EINVAL, "sq run: entry 0x%" PRIx64 " is not 4-byte aligned",
					w->entry_va);
	if (w->code && (w->entry_va < w->code_va || w->entry_va - w->code_va >= w->code_size))
		return kfdsig_set_error(EINVAL,
					"sq run: entry 0x%" PRIx64 " is not an aligned address of"
					" the code at 0x%" PRIx64 " (+%zu bytes)",
					w->entry_va, w->code_va, w->code_size);
	return 0;
}

int kfdsig_sq_run(const struct kfdsig_sq_wave *w, const struct kfdsig_sq_env *env,
		  struct kfdsig_sq_report *rep)
{
	struct wave *s;
	struct emu_gen gen;
	uint32_t max = w && w->max_insns ? w->max_insns : KFDSIG_SQ_DEFAULT_MAX_INSNS;
	uint64_t pc;
	bool end = false;
	int r;

	if (!rep)
		return kfdsig_set_error(EINVAL, "sq run: NULL report");
	memset(rep, 0, sizeof(*rep));
	r = check_wave(w, env, &gen);
	if (r < 0)
		goto out_noalloc;
	s = calloc(1, sizeof(*s));
	if (s)
		s->vgpr = calloc(256, sizeof(*s->vgpr));
	if (!s || !s->vgpr) {
		free(s);
		r = kfdsig_set_error(ENOMEM, "sq run: out of memory");
		goto out_noalloc;
	}
	s->gen = gen;
	s->t = &s->gen;
	s->w = w;
	s->env = env;
	s->rep = rep;
	for (unsigned i = 0; i < w->num_sgprs; i++)
		s->sgpr[i] = w->sgprs[i];
	s->exec = w->exec ? w->exec : lane_mask(s);

	pc = w->entry_va;
	while (!end) {
		struct kfdsig_sq_insn in;

		rep->pc = pc;
		if (rep->insns >= max) {
			r = kfdsig_set_error(ELOOP, "more than %u instructions (at 0x%" PRIx64 ")",
					     max, pc);
			break;
		}
		if (w->code) {
			r = sq_decode(s->t, w->code, w->code_size, w->code_va, pc, &in);
		} else {
			r = fetch_decode(s, pc, &in);
			if (r == -EFAULT)
				break;
		}
		if (r == -EFAULT)
			r = kfdsig_set_error(EPROTO,
					     "ran off the code buffer at 0x%" PRIx64
					     " (no s_endpgm before it)",
					     pc);
		if (r < 0)
			break;
		r = exec_insn(s, &in, &end);
		if (r < 0)
			break;
		rep->insns++;
		s->last_salu_m0 = writes_m0_salu(s->t, &in);
		if (!end)
			pc += in.size;
	}
	rep->ended = end && r >= 0;
	free(s->vgpr);
	free(s);
	if (r >= 0)
		return 0;
out_noalloc:
	rep->error = r;
	snprintf(rep->msg, sizeof(rep->msg), "%s", kfdsig_last_error());
	return r;
}

int emu_sq_iv_context(const struct emu_gen *t, uint32_t m0, uint32_t *ctx0, uint32_t *ctx1)
{
	if (!t || !ctx0 || !ctx1)
		return kfdsig_set_error(EINVAL, "sq iv context: NULL argument");
	switch (t->irq) {
	case KFDSIG_IRQ_V9:
	case KFDSIG_IRQ_V9_4_3:
		/* kfd_int_process_v9.c: DATA ctx0[11:0], ENCODING ctx0[27:26],
		 * and the rest of the 24 bits in ctx0[31:28] and ctx1[7:0]. */
		*ctx0 = (m0 & 0xfff) | (1u << 26) | ((m0 & 0xf000) << 16);
		*ctx1 = (m0 >> 16) & 0xff;
		break;
	case KFDSIG_IRQ_V10:
		/* kfd_int_process_v10.c: DATA ctx0[22:0], ENCODING ctx1[7:6]. */
		*ctx0 = m0 & 0x7fffff;
		*ctx1 = 1u << 6;
		break;
	case KFDSIG_IRQ_V11:
	case KFDSIG_IRQ_V12_1:
		/* kfd_int_process_v11.c / _v12_1.c: DATA ctx0[23:0], ENCODING
		 * ctx1[7:6]. */
		*ctx0 = m0 & 0xffffff;
		*ctx1 = 1u << 6;
		break;
	default:
		/* cik_event_interrupt.c reads data & 0xff (UNVERIFIED beyond). */
		*ctx0 = m0 & 0xff;
		*ctx1 = 0;
		break;
	}
	return 0;
}

const char *kfdsig_sq_event_name(enum kfdsig_sq_event_kind k)
{
	static const char *const n[] = { "load", "store", "writeback", "wait", "msg", "end" };

	return (unsigned)k < KFDSIG_ARRAY_SIZE(n) ? n[k] : "?";
}

const char *kfdsig_sq_scope_name(enum kfdsig_sq_scope sc)
{
	static const char *const n[] = { "cu", "se", "dev", "sys" };

	return (unsigned)sc < KFDSIG_ARRAY_SIZE(n) ? n[sc] : "?";
}

int kfdsig_sq_decode(const struct kfdsig_target *target, const void *code, size_t code_size,
		     uint64_t code_va, uint64_t pc, struct kfdsig_sq_insn *in)
{
	struct emu_gen g;

	if (!target || !code || !in)
		return kfdsig_set_error(EINVAL, "sq decode: NULL argument");
	if (sq_gen(target, &g) < 0)
		return -ENOENT;
	return sq_decode(&g, code, code_size, code_va, pc, in);
}

int kfdsig_sq_format(const struct kfdsig_target *target, const struct kfdsig_sq_insn *in, char *buf,
		     size_t len)
{
	struct emu_gen g;

	if (!target || !in || !buf || !len)
		return kfdsig_set_error(EINVAL, "sq format: bad argument");
	if (sq_gen(target, &g) < 0)
		return -ENOENT;
	return sq_format(&g, in, buf, len);
}

int kfdsig_sq_iv_context(const struct kfdsig_target *target, uint32_t m0, uint32_t *ctx0,
			 uint32_t *ctx1)
{
	struct emu_gen g;

	if (!target || !ctx0 || !ctx1)
		return kfdsig_set_error(EINVAL, "sq iv context: NULL argument");
	if (sq_gen(target, &g) < 0)
		return -ENOENT;
	return emu_sq_iv_context(&g, m0, ctx0, ctx1);
}
