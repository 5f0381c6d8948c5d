/* SPDX-License-Identifier: MIT */
/*
 * The shader unit's printer: an instruction as the decoder (sqk_isa.c,
 * sqk_dec_gfx11.c) reads it, in the syntax llvm-objdump (LLVM 22) prints
 * (mnemonic and operands, no encoding comment). It covers what the signal
 * stubs and their tests use: s_nop, s_endpgm, s_code_end, s_trap, the wait
 * instructions, s_sendmsg(MSG_INTERRUPT), s_mov_b32/b64, s_movk_i32,
 * v_mov_b32, the scalar loads, the FLAT/GLOBAL stores, buffer_wbl2 and
 * global_wb. Anything else, or an operand form it does not know, is
 * refused (-ENOTSUP), never printed as a guess. test/emu_sq_decode.c
 * compares it with llvm-objdump on every family.
 *
 * Syntax facts (LLVM AMDGPUInstPrinter.cpp): an operand code prints as
 * sN / s[N:M] (SGPRs: s0-s101 on GCN, s0-s105 from RDNA), vcc, exec, m0,
 * null (RDNA), ttmpN, an inline integer or float, or the literal in hex;
 * gfx11 and later name the loads and stores by bits (s_load_b64,
 * global_store_b32); the cache-policy bits print as glc slc dlc scc
 * (gfx8-gfx11), sc0 nt sc1 (gfx940, gfx950), th: scope: (gfx12).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "emu/sq/sqk.h"

struct pbuf {
	char *p;
	size_t len, pos;
	bool bad; /* an operand the printer does not know */
};

static void put(struct pbuf *b, const char *fmt, ...) KFDSIG_PRINTF(2, 3);

static void put(struct pbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->pos + 1 >= b->len)
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

static void range(struct pbuf *b, const char *r, unsigned n0, unsigned n)
{
	if (n == 1)
		put(b, "%s%u", r, n0);
	else
		put(b, "%s[%u:%u]", r, n0, n0 + n - 1);
}

/* An operand code (scalar 0-255 as the decoder normalises them, VGPR 256 +
 * n) of @n dwords. */
static void opnd(struct pbuf *b, const struct sqk_family *f, const struct sqk_insn *in, unsigned c,
		 unsigned n)
{
	/* SGPRs: s0-s101 on GCN (102-105 are flat_scratch and xnack_mask),
	 * s0-s105 on RDNA (GCN3 / Vega / RDNA ISA manuals, "SGPRs") */
	unsigned max_sgpr = f->gfx10 ? 105 : 101;

	if (c >= 256)
		range(b, "v", c - 256, n);
	else if (c <= max_sgpr)
		range(b, "s", c, n);
	else if (c == SQK_VCC || c == SQK_VCC + 1)
		put(b, "%s", n == 2 ? "vcc" : c == SQK_VCC ? "vcc_lo" : "vcc_hi");
	else if (c == SQK_EXEC || c == SQK_EXEC + 1)
		put(b, "%s", n == 2 ? "exec" : c == SQK_EXEC ? "exec_lo" : "exec_hi");
	else if (c == SQK_M0 && n == 1)
		put(b, "m0");
	else if (c == SQK_NULL10 && f->gfx10)
		put(b, "null");
	else if (c >= 108 && c <= 123 && f->gen >= SQK_GEN_GFX9)
		range(b, "ttmp", c - 108, n);
	else if (c >= 128 && c <= 192)
		put(b, "%u", c - 128);
	else if (c >= 193 && c <= 208)
		put(b, "-%u", c - 192);
	else if (c >= 240 && c <= 248)
		put(b, "%s", inline_float[c - 240]);
	else if (c == SQK_LIT)
		put(b, "0x%x", in->lit);
	else
		b->bad = true;
}

static void hex_offset(struct pbuf *b, int32_t off)
{
	if (off < 0)
		put(b, "-0x%x", (unsigned)-(int64_t)off);
	else
		put(b, "0x%x", (unsigned)off);
}

/* gfx940 and gfx950, GFX9's families with architected flat scratch, name
 * the cache bits sc0 nt sc1 (LLVM AMDGPUInstPrinter.cpp printCPol with
 * FeatureGFX940Insts); gfx90a and they have the fourth bit (scc / sc1) */
static bool sc_names(const struct sqk_family *f)
{
	return f->gen == SQK_GEN_GFX9 && f->arch_scratch;
}

static const char *const scope_name[4] = { "SCOPE_CU", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS" };

/* gfx12 th (3 bits) and scope (2 bits) of a store or writeback */
static void th_scope(struct pbuf *b, unsigned th, unsigned scope, bool store)
{
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

	if (th && store)
		put(b, " th:%s", th_store[th & 7]);
	else if (th)
		b->bad = true; /* load / writeback TH names: not printed */
	if (scope)
		put(b, " scope:%s", scope_name[scope & 3]);
}

/* gfx8-gfx11 cache bits of a FLAT/GLOBAL store (FLAT_Real_vi / _gfx10 /
 * _gfx11 in LLVM FLATInstructions.td) or a MUBUF (buffer_wbl2) */
static void cpol(struct pbuf *b, const struct sqk_family *f, bool glc, bool slc, bool dlc, bool scc)
{
	if (sc_names(f)) {
		put(b, "%s%s%s", glc ? " sc0" : "", slc ? " nt" : "", scc ? " sc1" : "");
		return;
	}
	put(b, "%s%s%s%s", glc ? " glc" : "", slc ? " slc" : "", dlc ? " dlc" : "",
	    scc ? " scc" : "");
}

void sqk_waitcnt_fields(enum sqk_gen g, uint16_t s, unsigned *vm, unsigned *exp, unsigned *lgkm)
{
	/* s_waitcnt simm16: vmcnt [3:0] (+ [15:14] from gfx9), expcnt [6:4],
	 * lgkmcnt [11:8] (gfx10: [13:8]); gfx11 vmcnt [15:10], expcnt
	 * [2:0], lgkmcnt [9:4] (ISA manuals, S_WAITCNT; LLVM
	 * AMDGPUBaseInfo.cpp getVmcntBitShiftLo/Hi, getExpcntBitShift,
	 * getLgkmcntBitShift/Width) */
	if (g >= SQK_GEN_GFX11) {
		*vm = s >> 10 & 63;
		*exp = s & 7;
		*lgkm = s >> 4 & 63;
	} else {
		*vm = (s & 15) | (g >= SQK_GEN_GFX9 ? (s >> 14 & 3) << 4 : 0);
		*exp = s >> 4 & 7;
		*lgkm = s >> 8 & (g >= SQK_GEN_GFX10 ? 63 : 15);
	}
}

static void waitcnt(struct pbuf *b, const struct sqk_family *f, uint16_t s)
{
	unsigned vm, exp, lgkm;
	unsigned vm_max = f->gen >= SQK_GEN_GFX9 ? 63 : 15;
	unsigned lgkm_max = f->gen >= SQK_GEN_GFX10 ? 63 : 15;
	bool all;

	sqk_waitcnt_fields(f->gen, s, &vm, &exp, &lgkm);
	/* LLVM prints the counters waited on, or all three when none is */
	all = vm == vm_max && exp == 7 && lgkm == lgkm_max;
	put(b, "s_waitcnt");
	if (all || vm != vm_max)
		put(b, " vmcnt(%u)", vm);
	if (all || exp != 7)
		put(b, " expcnt(%u)", exp);
	if (all || lgkm != lgkm_max)
		put(b, " lgkmcnt(%u)", lgkm);
}

/* Dwords of a scalar load or a store by its (GCN) name's suffix. */
static unsigned name_dwords(const char *name)
{
	const char *x = strrchr(name, '_');

	if (!x || strncmp(x, "_dword", 6))
		return 0;
	return x[6] == 'x' ? (unsigned)strtoul(x + 7, NULL, 10) : 1;
}

/* The mnemonic of a load or store: gfx11 on name the size in bits. */
static void mem_name(struct pbuf *b, const struct sqk_family *f, const char *name, unsigned n)
{
	if (f->gen < SQK_GEN_GFX11) {
		put(b, "%s", name);
		return;
	}
	put(b, "%.*s_b%u", (int)(strrchr(name, '_') - name), name, 32 * n);
}

static void smem(struct pbuf *b, const struct sqk_family *f, const struct sqk_insn *in)
{
	unsigned n = name_dwords(sqk_op_name(in->op)), w0 = in->w[0];

	mem_name(b, f, sqk_op_name(in->op), n);
	put(b, " ");
	opnd(b, f, in, in->dst, n);
	put(b, ", s[%u:%u], ", in->src[0], in->src[0] + 1);
	if (f->gen <= SQK_GEN_GFX9) {
		/* GCN: an immediate offset or an SGPR (gfx9 SOE: both) */
		if (in->soffset != 0xffff) {
			opnd(b, f, in, in->soffset, 1);
			if (in->offset)
				put(b, " offset:"), hex_offset(b, in->offset);
		} else {
			hex_offset(b, in->offset);
		}
		/* glc [16]; gfx940 keeps the name on SMEM */
		put(b, "%s", w0 >> 16 & 1 ? " glc" : "");
		return;
	}
	if (in->soffset != 0xffff) {
		opnd(b, f, in, in->soffset, 1);
		if (in->offset)
			put(b, " offset:"), hex_offset(b, in->offset);
	} else if (!in->offset && f->gen < SQK_GEN_GFX12) {
		put(b, "null"); /* gfx10/gfx11 print a zero offset as the null soffset */
	} else {
		hex_offset(b, in->offset);
	}
	if (f->gen >= SQK_GEN_GFX12) /* SMEM_Real_gfx12: scope [22:21], th [24:23] */
		th_scope(b, w0 >> 23 & 3, w0 >> 21 & 3, false);
	else if (f->gen == SQK_GEN_GFX11) /* glc [14], dlc [13] */
		put(b, "%s%s", w0 >> 14 & 1 ? " glc" : "", w0 >> 13 & 1 ? " dlc" : "");
	else /* gfx10: glc [16], dlc [14] */
		put(b, "%s%s", w0 >> 16 & 1 ? " glc" : "", w0 >> 14 & 1 ? " dlc" : "");
}

static void store(struct pbuf *b, const struct sqk_family *f, const struct sqk_insn *in)
{
	unsigned n = name_dwords(sqk_op_name(in->op)), w0 = in->w[0], w1 = in->w[1];
	bool global = in->enc == SQK_GLOBAL;

	if (!n || in->acc) {
		b->bad = true;
		return;
	}
	mem_name(b, f, sqk_op_name(in->op), n);
	put(b, " ");
	range(b, "v", in->vaddr, in->saddr == 0xffff ? 2 : 1);
	put(b, ", ");
	range(b, "v", in->vdata, n);
	if (global) {
		put(b, ", ");
		if (in->saddr == 0xffff)
			put(b, "off");
		else
			put(b, "s[%u:%u]", in->saddr, in->saddr + 1);
	}
	if (in->offset)
		put(b, " offset:%d", in->offset);
	if (f->gen >= SQK_GEN_GFX12) /* VFLAT/VGLOBAL: scope [51:50], th [54:52] */
		th_scope(b, w1 >> 20 & 7, w1 >> 18 & 3, true);
	else if (f->gen == SQK_GEN_GFX11) /* dlc [13], glc [14], slc [15] */
		cpol(b, f, w0 >> 14 & 1, w0 >> 15 & 1, w0 >> 13 & 1, false);
	else /* glc [16], slc [17]; gfx10 dlc [12]; gfx90a/gfx940 scc [25] */
		cpol(b, f, w0 >> 16 & 1, w0 >> 17 & 1, f->gfx10 && (w0 >> 12 & 1),
		     f->agpr_unified && (w0 >> 25 & 1));
}

int sqk_format(const struct sqk_family *f, const struct sqk_insn *in, char *buf, size_t len)
{
	struct pbuf b = { buf, len, 0, false };
	const char *name;

	if (!f || !in || !buf || !len)
		return -EINVAL;
	buf[0] = 0;
	name = sqk_op_name(in->op);
	switch (in->op) {
	case K_s_nop:
		put(&b, "s_nop %u", in->simm16);
		break;
	case K_s_endpgm:
	case K_s_code_end:
		put(&b, "%s", name);
		b.bad = in->simm16 != 0;
		break;
	case K_s_trap:
		/* a 16-bit immediate prints in decimal while it is an inline
		 * integer (<= 64), in hex above ("s_trap 3", "s_trap 0xff") */
		put(&b, in->simm16 <= 64 ? "s_trap %u" : "s_trap 0x%x", in->simm16);
		break;
	case K_s_waitcnt:
		waitcnt(&b, f, in->simm16);
		break;
	case K_s_waitcnt_vscnt:
	case K_s_waitcnt_vmcnt:
	case K_s_waitcnt_expcnt:
	case K_s_waitcnt_lgkmcnt:
		put(&b, "%s ", name);
		opnd(&b, f, in, in->dst, 1);
		put(&b, ", 0x%x", in->simm16);
		break;
	case K_s_wait_loadcnt:
	case K_s_wait_storecnt:
	case K_s_wait_samplecnt:
	case K_s_wait_bvhcnt:
	case K_s_wait_expcnt:
	case K_s_wait_dscnt:
	case K_s_wait_kmcnt:
		put(&b, "%s 0x%x", name, in->simm16);
		break;
	case K_s_sendmsg:
		/* SendMsg::ID_INTERRUPT (LLVM SIDefines.h); the other
		 * messages' symbolic forms are not printed */
		put(&b, "s_sendmsg sendmsg(MSG_INTERRUPT)");
		b.bad = in->simm16 != 1;
		break;
	case K_s_mov_b32:
	case K_s_mov_b64: {
		unsigned n = in->op == K_s_mov_b64 ? 2 : 1;

		put(&b, "%s ", name);
		opnd(&b, f, in, in->dst, n);
		put(&b, ", ");
		opnd(&b, f, in, in->src[0], in->src[0] < 128 ? n : 1);
		break;
	}
	case K_s_movk_i32:
		put(&b, "s_movk_i32 ");
		opnd(&b, f, in, in->dst, 1);
		put(&b, ", 0x%x", in->simm16);
		break;
	case K_v_mov_b32:
		if (in->enc == SQK_VOP3) {
			/* no modifiers: those forms are not printed */
			b.bad = in->abs || in->neg || in->clamp || in->omod || in->opsel;
			put(&b, "v_mov_b32_e64 v%u, ", in->dst - 256);
		} else {
			b.bad = in->enc != SQK_VOP1 || in->ext;
			put(&b, "v_mov_b32_e32 v%u, ", in->dst - 256);
		}
		opnd(&b, f, in, in->src[0], 1);
		break;
	case K_s_load_dword:
	case K_s_load_dwordx2:
	case K_s_load_dwordx3:
	case K_s_load_dwordx4:
	case K_s_load_dwordx8:
	case K_s_load_dwordx16:
		smem(&b, f, in);
		break;
	case K_flat_store_dword:
	case K_flat_store_dwordx2:
	case K_flat_store_dwordx3:
	case K_flat_store_dwordx4:
	case K_global_store_dword:
	case K_global_store_dwordx2:
	case K_global_store_dwordx3:
	case K_global_store_dwordx4:
		store(&b, f, in);
		break;
	case K_buffer_wbl2:
		/* LLVM 22 prints buffer_wbl2's cache bits on gfx940 only (a
		 * gfx90a "glc scc" writeback prints bare): MUBUF sc0 [14],
		 * sc1 [15], nt [17] */
		put(&b, "buffer_wbl2");
		if (sc_names(f))
			cpol(&b, f, in->w[0] >> 14 & 1, in->w[0] >> 17 & 1, false,
			     in->w[0] >> 15 & 1);
		break;
	case K_global_wb:
		put(&b, "global_wb");
		th_scope(&b, in->w[1] >> 20 & 7, in->w[1] >> 18 & 3, false);
		break;
	default:
		b.bad = true;
		break;
	}
	if (b.bad)
		return -ENOTSUP;
	return (int)b.pos;
}
