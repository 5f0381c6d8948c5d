/* SPDX-License-Identifier: MIT */
/*
 * The shader unit's printer: a decoded instruction the way llvm-objdump
 * (LLVM 22) prints it, and the names of events and scopes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emu/sq/sq_priv.h"

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

static void put_scalar(struct strbuf *b, const struct sq_enc *e, const struct sq_insn *in,
		       unsigned c, unsigned ndw)
{
	if (c >= 256) {
		if (ndw == 1)
			sb_put(b, "v%u", c - 256);
		else
			sb_put(b, "v[%u:%u]", c - 256, c - 256 + ndw - 1);
	} else if (c <= e->max_sgpr) {
		if (ndw == 1)
			sb_put(b, "s%u", c);
		else
			sb_put(b, "s[%u:%u]", c, c + ndw - 1);
	} else if (c == 106 || c == 107) {
		sb_put(b, ndw == 2 ? "vcc" : c == 106 ? "vcc_lo" : "vcc_hi");
	} else if (c == 126 || c == 127) {
		sb_put(b, ndw == 2 ? "exec" : c == 126 ? "exec_lo" : "exec_hi");
	} else if (c == e->m0) {
		sb_put(b, "m0");
	} else if (c == e->null) {
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

static void put_cpol(struct strbuf *b, const struct sq_enc *e, const struct sq_insn *in)
{
	if (e->cpol == SQ_CPOL_TH) {
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
	if (e->cpol == SQ_CPOL_SC) {
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

static void put_waitcnt(struct strbuf *b, const struct sq_enc *e, const struct sq_insn *in)
{
	int vm_max = (1 << (e->vm_bits + e->vm_hi_bits)) - 1;
	int lgkm_max = (1 << e->lgkm_bits) - 1;
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

int emu_sq_format(const struct sq_enc *e, const struct sq_insn *in, char *buf, size_t len)
{
	struct strbuf b = { buf, len, 0 };
	bool b_names = e->b_names;

	if (!e || !in || !buf || !len)
		return set_error(EINVAL, "sq format: bad argument");
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
	case KFDSIG_SQ_OP_S_TRAP:
		/* LLVM prints a 16-bit immediate in decimal while it is an
		 * inline integer (<= 64), in hex above (llvm-objdump 22:
		 * "s_trap 3", "s_trap 0xff"). */
		sb_put(&b, in->simm16 <= 64 ? "s_trap %u" : "s_trap 0x%x", in->simm16);
		break;
	case KFDSIG_SQ_OP_S_WAITCNT:
		put_waitcnt(&b, e, in);
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
		put_scalar(&b, e, in, in->dst, in->ndw);
		sb_put(&b, ", ");
		put_scalar(&b, e, in, in->src0, in->src0 < 128 ? in->ndw : 1);
		break;
	case KFDSIG_SQ_OP_S_MOVK_I32:
		sb_put(&b, "s_movk_i32 ");
		put_scalar(&b, e, in, in->dst, 1);
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
		put_scalar(&b, e, in, in->dst, n);
		sb_put(&b, ", s[%u:%u], ", in->sbase, in->sbase + 1);
		if (e->smem == SQ_SMEM_VI) {
			if (in->soffset_is_imm_slot)
				put_scalar(&b, e, in, in->soffset, 1);
			else
				put_offset(&b, in->offset);
		} else if (in->soffset != KFDSIG_SQ_OPND_NONE) {
			put_scalar(&b, e, in, in->soffset, 1);
			if (in->offset)
				sb_put(&b, " offset:"), put_offset(&b, in->offset);
		} else if (!in->offset && e->smem == SQ_SMEM_GFX10) {
			/* gfx10/gfx11 print a zero offset as the null soffset */
			sb_put(&b, "null");
		} else {
			put_offset(&b, in->offset);
		}
		if (e->cpol == SQ_CPOL_TH) {
			put_cpol(&b, e, in);
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
		put_scalar(&b, e, in, in->src0, 1);
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
		put_cpol(&b, e, in);
		break;
	}
	case KFDSIG_SQ_OP_BUFFER_WBL2:
		sb_put(&b, "buffer_wbl2");
		/* LLVM 22 prints the cache bits of buffer_wbl2 on gfx940 only
		 * (a gfx90a "glc scc" writeback prints as bare buffer_wbl2). */
		if (e->cpol == SQ_CPOL_SC)
			put_cpol(&b, e, in);
		break;
	case KFDSIG_SQ_OP_GLOBAL_WB:
		sb_put(&b, "global_wb");
		put_cpol(&b, e, in);
		break;
	default:
		sb_put(&b, "<unimplemented %s 0x%08x>", in->enc, in->words[0]);
		break;
	}
	return (int)b.pos;
}
const char *sq_event_name(enum sq_event_kind k)
{
	static const char *const n[] = {
		"load", "store", "writeback", "wait", "msg", "end", "trap"
	};

	return (unsigned)k < KFDSIG_ARRAY_SIZE(n) ? n[k] : "?";
}

const char *sq_scope_name(enum sq_scope sc)
{
	static const char *const n[] = { "cu", "se", "dev", "sys" };

	return (unsigned)sc < KFDSIG_ARRAY_SIZE(n) ? n[sc] : "?";
}

int sq_format(const struct kfdsig_target *target, const struct sq_insn *in, char *buf, size_t len)
{
	struct emu_gen g;

	if (!target || !in || !buf || !len)
		return set_error(EINVAL, "sq format: bad argument");
	if (emu_sq_gen(target, &g) < 0)
		return -ENOENT;
	return emu_sq_format(emu_sq_enc(&g), in, buf, len);
}
