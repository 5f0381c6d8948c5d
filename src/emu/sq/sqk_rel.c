/* SPDX-License-Identifier: MIT */
/*
 * The release check of the kernel interpreter: on any code, an
 * s_sendmsg(MSG_INTERRUPT) sent while a store of its wave before it was not
 * released at system scope is reported (sqk_env.check, sqk_result), as the
 * event the message raises may reach the host before the data it signals.
 * Memory runs at issue in the interpreter (a store is in memory when its
 * instruction ends); the counters are modelled only to decide this.
 *
 * The counters (ISA manuals "Data Dependency Resolution" and S_WAITCNT:
 * GCN3, Vega, MI200/MI300, RDNA1/2/3; LLVM SIInsertWaitcnts.cpp):
 * - VM_CNT: vector memory loads, and on GCN (gfx8, gfx9) stores and
 *   atomics; from gfx10 loads and atomics returning data only;
 * - VS_CNT (gfx10, gfx11): stores and atomics without return;
 * - LGKM_CNT: SMEM (returning out of order: only a wait for 0 drains it),
 *   LDS/GDS, s_sendmsg; FLAT counts on the counter of where it goes
 *   (LGKM_CNT for LDS, else VM_CNT or VS_CNT; LLVM SIInsertWaitcnts.cpp
 *   mayAccessLDSThroughFlat: a FLAT access that cannot reach LDS needs
 *   no LGKM_CNT wait), which the check reads from the first active lane's
 *   address;
 * - a wait for a count N drains the oldest operations on that counter
 *   until N are left.
 * - gfx12 (RDNA4 ISA manual, "Dependency Checking"; LLVM AMDGPUUsage
 *   "Memory Model GFX12"): LOADCNT (loads, atomics returning data),
 *   STORECNT (stores, atomics without return, global_wb), DSCNT (LDS),
 *   KMCNT (SMEM, messages), each with its s_wait_*cnt (s_wait_loadcnt_dscnt
 *   and s_wait_storecnt_dscnt: the first count in simm16[13:8], DSCNT in
 *   [5:0], as llvm-mc 22 encodes them).
 * A store is released at system scope when every counter it counts on has
 * drained it and, where the release writes L2 back (gfx90a, gfx940-942,
 * gfx950: buffer_wbl2 sc0 sc1, the glc and scc bits on gfx90a), a
 * system-scope write-back issued after it has drained too (LLVM AMDGPUUsage
 * "Memory Model GFX90A, GFX942", SIMemoryLegalizer.cpp
 * SIGfx90ACacheControl / SIGfx940CacheControl insertRelease; LLVM 22's llc
 * emits 0xe0a0c000 for a system-scope release fence on both; gfx12:
 * global_wb scope:SCOPE_SYS, SCOPE [51:50] = 3, then s_wait_storecnt 0,
 * SIGfx12CacheControl insertRelease, as llc 22 emits it). On the other
 * families the waits alone release (AMDGPUUsage "Memory Model GFX6-GFX9",
 * "GFX10-GFX11").
 *
 * Not stores here: SCRATCH and swizzled (private) MUBUF stores, which no
 * one else can see; s_store_dword* (the scalar cache, written back by
 * s_dcache_wb, is not modelled: LLVM does not emit them). Cache
 * invalidates (buffer_wbinvl1*, buffer_gl*_inv, buffer_inv) concern
 * acquires and count on nothing here. A s_waitcnt_*cnt with an SGPR
 * operand drains nothing (its count is not read: the safe side, as it can
 * only report more).
 *
 * GFX6-GFX9 need one wait state between an SALU write of m0 and
 * s_sendmsg (Mesa aco_insert_NOPs.cpp); the check reports it, the
 * message goes out with the new m0.
 */
#include "emu/sq/sqk_exec.h"

/* Instruction classes (struct sqk_insn.rc). */
enum {
	RC_NONE = 0,
	RC_LOAD,   /* a vector memory load (FLAT, GLOBAL, SCRATCH, MUBUF) */
	RC_STORE,  /* a store */
	RC_ATOMIC, /* an atomic */
	RC_WB,	   /* a cache write-back */
	RC_SMEM,   /* a scalar memory operation writing no SGPR */
	RC_SLOAD,  /* a scalar load: the SGPRs it writes from wlgkm to wvm */
	RC_DS,
	RC_WAIT,   /* s_waitcnt */
	RC_WAITK,  /* s_waitcnt_{vs,vm,lgkm}cnt */
	RC_WAIT12, /* gfx12 s_wait_*cnt */
	RC_MSG,	   /* s_sendmsg, s_sendmsghalt */
	RC_M0,	   /* an SALU write of m0 (gfx8, gfx9) */
};

/* The SGPRs @c to @c + @n - 1 below VCC: from @lo to @hi, none: 0, 0. */
static inline void sgpr_range(unsigned c, unsigned n, unsigned *lo, unsigned *hi)
{
	unsigned e = c + n < SQK_VCC ? c + n : SQK_VCC;

	*lo = c < e ? c : 0;
	*hi = c < e ? e : 0;
}

/* below[x]: SGPRs 0 to x - 1 as bits of two words. */
#define BELOW(x)                                                 \
	{                                                        \
		(x) >= 64 ? ~0ull : (1ull << ((x)&63)) - 1,      \
			(x) > 64 ? (1ull << ((x)&63)) - 1 : 0ull \
	}
#define BELOW8(x)                                                                       \
	BELOW(x), BELOW(x + 1), BELOW(x + 2), BELOW(x + 3), BELOW(x + 4), BELOW(x + 5), \
		BELOW(x + 6), BELOW(x + 7)
static const uint64_t below[112][2] = {
	BELOW8(0),  BELOW8(8),	BELOW8(16), BELOW8(24), BELOW8(32), BELOW8(40), BELOW8(48),
	BELOW8(56), BELOW8(64), BELOW8(72), BELOW8(80), BELOW8(88), BELOW8(96), BELOW8(104),
};

/* @m: the SGPRs from @lo to @hi (sgpr_range()) as bits of two words. */
static inline void range_mask(uint64_t m[2], unsigned lo, unsigned hi)
{
	m[0] = below[hi][0] & ~below[lo][0];
	m[1] = below[hi][1] & ~below[lo][1];
}

/* SGPRs a scalar load writes (its dwords from the destination on), 0: a
 * store or a cache operation. */
static unsigned smem_sgprs(unsigned op)
{
	unsigned n = sqk_smem_load_dwords(op);

	if (n)
		return n;
	if (sqk_smem_subdword(op))
		return 1;
	/* s_memtime, s_memrealtime: two; stores, cache operations: none */
	return op == K_s_memtime || op == K_s_memrealtime ? 2 : 0;
}

uint8_t sqk_rel_class(const struct sqk_family *f, struct sqk_insn *in)
{
	switch (in->enc) {
	case SQK_FLAT:
	case SQK_GLOBAL:
	case SQK_SCRATCH:
	case SQK_MUBUF: {
		unsigned kind = sqk_mem_kind(in->op),
			 sc = f->gen >= SQK_GEN_GFX10 ? SQK_CNT_VS : SQK_CNT_VM;
		bool ret = kind == 1 || (kind == 3 && in->glc);

		/* a load, store or atomic: the counter of its access to
		 * memory in wvm, returning data (the kind of store) in wlgkm */
		in->wvm = (uint8_t)(ret ? SQK_CNT_VM : sc);
		in->wlgkm = ret;
		switch (kind) {
		case 1:
			return RC_LOAD;
		case 2:
			return RC_STORE;
		case 3:
			return RC_ATOMIC;
		case 4: /* the invalidates count on nothing here */
			return in->op == K_buffer_wbl2 || in->op == K_global_wb ||
					       in->op == K_global_wbinv
				       ? RC_WB
				       : RC_NONE;
		default:
			return RC_NONE;
		}
	}
	case SQK_SMEM: {
		unsigned n = smem_sgprs(in->op), lo, hi;

		if (!n)
			return RC_SMEM;
		sgpr_range(in->dst, n, &lo, &hi);
		in->wlgkm = (uint8_t)lo;
		in->wvm = (uint8_t)hi;
		return RC_SLOAD;
	}
	case SQK_DS:
		return RC_DS;
	case SQK_SOPP:
		if (in->op == K_s_waitcnt) {
			unsigned vm, exp, lgkm;

			sqk_waitcnt_fields(f->gen, in->simm16, &vm, &exp, &lgkm);
			in->wvm = (uint8_t)vm;
			in->wlgkm = (uint8_t)lgkm;
			return RC_WAIT;
		}
		if (in->op == K_s_wait_loadcnt || in->op == K_s_wait_storecnt ||
		    in->op == K_s_wait_dscnt || in->op == K_s_wait_kmcnt ||
		    in->op == K_s_wait_loadcnt_dscnt || in->op == K_s_wait_storecnt_dscnt)
			return RC_WAIT12;
		if (in->op == K_s_sendmsg || in->op == K_s_sendmsghalt)
			return RC_MSG;
		return RC_NONE;
	case SQK_SOPK:
		if (in->op == K_s_waitcnt_vscnt || in->op == K_s_waitcnt_vmcnt ||
		    in->op == K_s_waitcnt_lgkmcnt)
			return RC_WAITK;
		/* fall through */
	case SQK_SOP1:
	case SQK_SOP2:
		return f->gen <= SQK_GEN_GFX9 && in->dst == SQK_M0 ? RC_M0 : RC_NONE;
	default:
		return RC_NONE;
	}
}

void sqk_rel_reset(struct sqk_wave *w)
{
	struct sqk_rel *r = &w->rel;

	memset(r->issued, 0, sizeof(r->issued));
	memset(r->drained, 0, sizeof(r->drained));
	memset(r->ooo, 0, sizeof(r->ooo));
	memset(r->nst, 0, sizeof(r->nst));
	r->spending = false;
	r->nsl = 0;
	r->um[0] = r->um[1] = 0;
	r->stores = r->nwb = 0;
	r->m0_next = 0;
}

static uint64_t issue(struct sqk_rel *r, unsigned c, bool ooo)
{
	uint64_t s = r->issued[c]++;

	if (ooo && !r->ooo[c])
		r->ooo[c] = s + 1;
	return s;
}

/* A wait until counter @c is at most @n. */
static void drain(struct sqk_rel *r, unsigned c, uint64_t n)
{
	uint64_t to;

	if (!n) {
		r->drained[c] = r->issued[c];
		r->ooo[c] = 0;
		if (c == SQK_CNT_LGKM) /* the scalar loads are done */
			r->spending = false, r->nsl = 0, r->um[0] = r->um[1] = 0;
		return;
	}
	to = r->issued[c] > n ? r->issued[c] - n : 0;
	if (r->ooo[c] && to > r->ooo[c] - 1)
		to = r->ooo[c] - 1;
	if (to > r->drained[c])
		r->drained[c] = to;
}

/* The cases of sqk_rel_note() beyond the commonest (a load, an LDS
 * access, s_waitcnt) are functions of their own: the note of every
 * instruction then sets up no frame for them. */
static __attribute__((noinline)) void vmem(struct sqk_wave *w, const struct sqk_insn *in)
{
	struct sqk_rel *r = &w->rel;
	bool load = in->rc == RC_LOAD;
	struct sqk_rel_store *s;
	uint64_t seq;

	if (in->rc == RC_WB) {
		/* buffer_wbl2 (gfx90a on): on VM; system scope with SC0 and
		 * SC1 (bits 14 and 15); gfx12 global_wb and global_wbinv: on
		 * STORECNT, system scope with SCOPE 3 */
		unsigned c = SQK_CNT_VM;
		bool sys = false;

		if (in->op == K_buffer_wbl2)
			sys = (in->w[0] & 0xc000) == 0xc000;
		else
			c = SQK_CNT_VS, sys = (in->w[1] >> 18 & 3) == 3;
		seq = issue(r, c, false);
		if (sys) {
			r->wb[r->nwb % SQK_REL_WB].seq = seq;
			r->wb[r->nwb % SQK_REL_WB].cnt = c;
			r->wb[r->nwb % SQK_REL_WB].cover = r->stores;
			r->nwb++;
		}
		return;
	}
	if (in->enc == SQK_FLAT) {
		/* where the first active lane's address goes: LDS (the
		 * shared aperture) counts on LGKM, memory on VM or VS */
		uint64_t ex = sqk_exec(w), a;
		unsigned l = ex ? (unsigned)__builtin_ctzll(ex) : 0;
		uint32_t hi;

		a = sqk_flat_addr(w, in, l, 4);
		hi = (uint32_t)(a >> 32);
		if (hi == (uint32_t)(w->r->d->shared_base >> 32)) {
			issue(r, w->r->f->gen >= SQK_GEN_GFX12 ? SQK_CNT_DS : SQK_CNT_LGKM, false);
			return;
		}
		if (hi == (uint32_t)(w->r->d->private_base >> 32))
			load = true; /* private: counted, not a store */
	}
	seq = issue(r, in->wvm, false);
	if (load || in->enc == SQK_SCRATCH ||
	    (in->enc == SQK_MUBUF && (w->s[(in->srsrc & 0x7f) + 3] >> 23 & 1)))
		return; /* a load, or private memory */
	s = &r->st[in->wlgkm][r->nst[in->wlgkm]++ % SQK_REL_RING];
	s->seq = seq;
	s->idx = r->stores++;
	s->pc = in->pc;
}

static bool released(const struct sqk_wave *w, const struct sqk_rel_store *s, unsigned k,
		     uint64_t cover)
{
	const struct sqk_rel *r = &w->rel;
	unsigned c = k || w->r->f->gen < SQK_GEN_GFX10 ? SQK_CNT_VM : SQK_CNT_VS;

	if (s->seq >= r->drained[c])
		return false;
	return !w->r->f->release_wb || s->idx < cover;
}

/* The first store of the wave not released at system scope, NULL: none. */
static const struct sqk_rel_store *unreleased(const struct sqk_wave *w)
{
	const struct sqk_rel *r = &w->rel;
	const struct sqk_rel_store *first = NULL;
	uint64_t cover = 0;

	if (!r->stores)
		return NULL;
	if (w->r->f->release_wb)
		for (uint64_t i = r->nwb > SQK_REL_WB ? r->nwb - SQK_REL_WB : 0; i < r->nwb; i++)
			if (r->wb[i % SQK_REL_WB].seq < r->drained[r->wb[i % SQK_REL_WB].cnt] &&
			    r->wb[i % SQK_REL_WB].cover > cover)
				cover = r->wb[i % SQK_REL_WB].cover;
	for (unsigned k = 0; k < 2; k++) {
		uint64_t n = r->nst[k], i = n > SQK_REL_RING ? n - SQK_REL_RING : 0;

		/* in a kind, stores drain in order: if the last is released,
		 * so is every one before it */
		if (!n || released(w, &r->st[k][(n - 1) % SQK_REL_RING], k, cover))
			continue;
		for (; i < n; i++) {
			const struct sqk_rel_store *s = &r->st[k][i % SQK_REL_RING];

			if (!released(w, s, k, cover)) {
				if (!first || s->idx < first->idx)
					first = s;
				break;
			}
		}
	}
	return first;
}

/* @m: the SGPRs @c to @c + @n - 1 below VCC, as bits of two words. */
static inline void sgpr_mask(uint64_t m[2], unsigned c, unsigned n)
{
	unsigned lo, hi;

	sgpr_range(c, n, &lo, &hi);
	range_mask(m, lo, hi);
}

/* The SGPRs a scalar load writes are pending until a wait for 0 on its
 * counter. A load issued while SQK_REL_SL are pending: the last entry
 * takes its SGPRs, those of the load it held no longer checked. */
static inline void smem_pending(struct sqk_rel *r, const struct sqk_insn *in)
{
	unsigned k = r->nsl < SQK_REL_SL ? r->nsl++ : SQK_REL_SL - 1;
	uint64_t m[2];

	r->spending = true;
	range_mask(m, in->wlgkm, in->wvm);
	r->sl[k].m[0] = m[0], r->sl[k].m[1] = m[1];
	r->sl[k].pc = in->pc;
	if (k < SQK_REL_SL - 1) {
		r->um[0] |= m[0], r->um[1] |= m[1];
		return;
	}
	r->um[0] = r->um[1] = 0;
	for (k = 0; k < SQK_REL_SL; k++)
		r->um[0] |= r->sl[k].m[0], r->um[1] |= r->sl[k].m[1];
}

static void report(struct sqk_wave *w, unsigned kind, uint64_t pc, uint64_t store_pc)
{
	struct sqk_result *res = w->r->res;
	const struct sqk_env *env = w->r->env;

	if (kind == SQK_CHECK_UNRELEASED) {
		if (!res->unreleased++)
			res->unreleased_pc = pc, res->unreleased_store_pc = store_pc;
	} else if (kind == SQK_CHECK_SGPR_UNWAITED) {
		if (!res->sgpr_unwaited++)
			res->sgpr_unwaited_pc = pc, res->sgpr_unwaited_load_pc = store_pc;
	} else if (!res->m0_hazards++) {
		res->m0_hazard_pc = pc;
	}
	if (env->check)
		env->check(env->ctx, kind, pc, store_pc);
}

static __attribute__((noinline)) void message(struct sqk_wave *w, const struct sqk_insn *in)
{
	struct sqk_rel *r = &w->rel;
	unsigned id = in->simm16 & (w->r->f->gen >= SQK_GEN_GFX11 ? 0xff : 0xf);

	if (r->m0_next == in->pc)
		report(w, SQK_CHECK_M0_HAZARD, in->pc, 0);
	/* MSG_INTERRUPT (LLVM SIDefines.h SendMsg::ID_INTERRUPT) from the
	 * program: the trap handler's (PRIV) carry a doorbell and a trap
	 * code the kernel reads, no event (kfd_int_process_v9.c) */
	if (id == 1 && !w->in_trap) {
		const struct sqk_rel_store *s = unreleased(w);

		w->r->res->interrupts++;
		if (s)
			report(w, SQK_CHECK_UNRELEASED, in->pc, s->pc);
	}
	issue(r, SQK_CNT_LGKM, false);
}

/* s_waitcnt_*cnt (gfx10, gfx11) and the gfx12 waits. */
static __attribute__((noinline)) void wait_other(struct sqk_rel *r, const struct sqk_insn *in)
{
	unsigned s = in->simm16;

	if (in->rc == RC_WAITK) {
		/* SOPK s_waitcnt_*cnt null, simm16 (gfx10, gfx11) */
		if (in->dst != SQK_NULL10)
			return;
		drain(r,
		      in->op == K_s_waitcnt_vscnt   ? SQK_CNT_VS
		      : in->op == K_s_waitcnt_vmcnt ? SQK_CNT_VM
						    : SQK_CNT_LGKM,
		      s);
		return;
	}
	switch (in->op) {
	case K_s_wait_loadcnt:
		drain(r, SQK_CNT_VM, s);
		break;
	case K_s_wait_storecnt:
		drain(r, SQK_CNT_VS, s);
		break;
	case K_s_wait_dscnt:
		drain(r, SQK_CNT_DS, s);
		break;
	case K_s_wait_kmcnt:
		drain(r, SQK_CNT_LGKM, s);
		break;
	default: /* s_wait_{load,store}cnt_dscnt */
		drain(r, in->op == K_s_wait_loadcnt_dscnt ? SQK_CNT_VM : SQK_CNT_VS, s >> 8 & 63);
		drain(r, SQK_CNT_DS, s & 63);
		break;
	}
}

void sqk_rel_note(struct sqk_wave *w, const struct sqk_insn *in)
{
	struct sqk_rel *r = &w->rel;

	if (in->rc == RC_SLOAD) { /* the commonest */
		issue(r, SQK_CNT_LGKM, true);
		smem_pending(r, in);
		return;
	}
	switch (in->rc) {
	case RC_LOAD:
		if (in->enc != SQK_FLAT) { /* on VM (LOADCNT) alone */
			issue(r, SQK_CNT_VM, false);
			break;
		}
		/* fall through */
	case RC_STORE:
	case RC_ATOMIC:
	case RC_WB:
		vmem(w, in);
		break;
	case RC_SMEM:
		issue(r, SQK_CNT_LGKM, true);
		break;
	case RC_DS:
		issue(r, w->r->f->gen >= SQK_GEN_GFX12 ? SQK_CNT_DS : SQK_CNT_LGKM, false);
		break;
	case RC_WAIT12:
	case RC_WAITK:
		wait_other(r, in);
		break;
	case RC_WAIT:
		drain(r, SQK_CNT_VM, in->wvm);
		drain(r, SQK_CNT_LGKM, in->wlgkm);
		break;
	case RC_MSG:
		message(w, in);
		break;
	case RC_M0:
		r->m0_next = in->pc + in->size;
		break;
	}
}

/* Is SGPR @c (@n of them from it) written by a scalar load not waited for?
 * Report the first such read of an instruction. */
static bool unwaited(struct sqk_wave *w, const struct sqk_insn *in, unsigned c, unsigned n)
{
	const struct sqk_rel *r = &w->rel;
	uint64_t m[2], first = ~0ull;
	unsigned at = 0;

	if (c >= SQK_VCC || !r->nsl)
		return false;
	sgpr_mask(m, c, n);
	/* the load writing the lowest register read (the first one pending
	 * of the registers in order, then of the loads in order) */
	for (unsigned k = 0; k < r->nsl; k++) {
		uint64_t lo = r->sl[k].m[0] & m[0], hi = r->sl[k].m[1] & m[1];
		uint64_t i = lo	  ? (uint64_t)__builtin_ctzll(lo)
			     : hi ? 64 + (uint64_t)__builtin_ctzll(hi)
				  : ~0ull;

		if (i < first)
			first = i, at = k;
	}
	if (first == ~0ull)
		return false;
	report(w, SQK_CHECK_SGPR_UNWAITED, in->pc, r->sl[at].pc);
	return true;
}

/*
 * The SGPRs an instruction reads where its fields say so for certain: the
 * SALU sources (SOP1 but s_getpc_b64, SOP2, SOPC), the first source of the
 * vector ALU (VOP1, VOP2, VOPC, VOP3, VOP3P: the only one every form has),
 * SMEM's base pair and soffset, the saddr pair of GLOBAL and SCRATCH,
 * MUBUF's V# and soffset. The other operands are not looked at (the check
 * may miss a read, never report one that is not there). A read before the
 * wait gives what the register held (ISA manuals: SMEM returns data
 * asynchronously, s_waitcnt lgkmcnt(0) before using it).
 *
 * The reads in order: the operand codes @c, @n registers from each (a code
 * of no SGPR below VCC reads none); how many.
 */
static inline unsigned reads_of(const struct sqk_insn *in, unsigned c[2], unsigned n[2])
{
	n[0] = n[1] = 1;
	c[1] = 0xffff;
	switch (in->enc) {
	case SQK_SOP2:
	case SQK_SOPC:
		c[0] = in->src[0], c[1] = in->src[1];
		return 2;
	case SQK_SOP1:
		if (in->op == K_s_getpc_b64)
			return 0;
		c[0] = in->src[0];
		return 1;
	case SQK_VOP1:
	case SQK_VOP2:
	case SQK_VOPC:
	case SQK_VOP3:
	case SQK_VOP3P:
		c[0] = in->src[0];
		return 1;
	case SQK_SMEM:
		c[0] = in->src[0], n[0] = 2, c[1] = in->soffset;
		return 2;
	case SQK_FLAT: /* an SADDR on gfx1250 */
	case SQK_GLOBAL:
	case SQK_SCRATCH:
		c[0] = in->saddr, n[0] = in->enc == SQK_SCRATCH ? 1 : 2;
		return 1;
	case SQK_MUBUF:
		c[0] = in->srsrc, n[0] = 4, c[1] = in->soffset;
		return 2;
	default:
		return 0;
	}
}

/* Does a pending load write one of the @n (at most 4) SGPRs from @c? Of
 * the registers of them all (no bit at VCC or above). */
static inline bool pending(const struct sqk_rel *r, unsigned c, unsigned n)
{
	uint64_t win;

	if (c >= SQK_VCC)
		return false;
	win = c < 64 ? r->um[0] >> c | r->um[1] << 1 << (63 - c) : r->um[1] >> (c - 64);
	return win & ((1ull << n) - 1);
}

/* The first read of @in a pending load writes, reported. */
static __attribute__((noinline)) void reads_walk(struct sqk_wave *w, const struct sqk_insn *in)
{
	unsigned c[2], n[2], k = reads_of(in, c, n);

	for (unsigned i = 0; i < k; i++)
		if (unwaited(w, in, c[i], n[i]))
			return;
}

uint64_t sqk_rel_read_mask(const struct sqk_insn *in)
{
	unsigned c[2], n[2], k = reads_of(in, c, n);
	uint64_t m = 0;

	for (unsigned i = 0; i < k; i++)
		for (unsigned r = c[i]; r < c[i] + n[i] && r < SQK_VCC; r++)
			m |= 1ull << (r < 63 ? r : 63);
	return m;
}

void sqk_rel_reads(struct sqk_wave *w, const struct sqk_insn *in)
{
	unsigned c[2], n[2];

	if (reads_of(in, c, n) && (pending(&w->rel, c[0], n[0]) || pending(&w->rel, c[1], n[1])))
		reads_walk(w, in);
}
