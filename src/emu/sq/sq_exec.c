/* SPDX-License-Identifier: MIT */
/*
 * Emulated shader unit: the one-wave interpreter (sq_run) for the
 * instructions of kfdsig's signal stubs, decoded by sq_decode.c; and the
 * IV context words of an s_sendmsg interrupt. SQ interrupt data width:
 * the target's sq_msg_id_bits (the kfd_signal_event_interrupt() calls of
 * cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c); per-generation
 * release rules: LLVM AMDGPUUsage "Memory Model" (SIMemoryLegalizer.cpp
 * insertRelease).
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

#include "emu/sq/sq_priv.h"

/* ------------------------------------------------------------------ */
/* Interpreter                                                          */

#define MAX_OPS 64

/* An outstanding or finished memory operation, for the counters. */
struct mem_op {
	unsigned classes;  /* bit per counter it increments */
	unsigned done;	   /* counters that have drained it */
	bool out_of_order; /* SMEM: drained only by a wait for 0 */
	enum sq_event_kind kind;
	enum sq_scope scope;
	int event;	   /* index in the report, or -1 */
	uint64_t sgprs[2]; /* LOAD: SGPRs it writes (pending until done) */
	uint64_t pc;
};

struct wave {
	struct emu_gen gen; /* derived from the target's GC IP version */
	const struct emu_gen *t;
	const struct sq_enc *enc; /* its encodings (sq_enc.c) */
	const struct sq_wave *w;
	const struct sq_env *env;
	struct sq_report *rep;
	uint32_t sgpr[128];
	uint32_t m0;
	uint64_t exec;
	uint32_t (*vgpr)[64];
	struct mem_op ops[MAX_OPS];
	unsigned nops;
	bool last_salu_m0; /* the previous instruction was an SALU m0 write */
};

static int fail(struct wave *s, const struct sq_insn *in, int err, const char *fmt, ...)
	KFDSIG_PRINTF(4, 5);

static int fail(struct wave *s, const struct sq_insn *in, int err, const char *fmt, ...)
{
	char what[160], text[80];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	emu_sq_format(s->enc, in, text, sizeof(text));
	return set_error(err, "%s at 0x%" PRIx64 " (%s)", what, in->pc, text);
}

static int add_event(struct wave *s, const struct sq_insn *in, enum sq_event_kind kind,
		     struct sq_event **out)
{
	struct sq_report *r = s->rep;
	struct sq_event *e = NULL;

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

static int add_op(struct wave *s, const struct sq_insn *in, unsigned classes, bool ooo,
		  enum sq_event_kind kind, int event, struct mem_op **out)
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
static void drain(struct wave *s, enum sq_counter c, int n)
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
static unsigned store_counters(const struct sq_enc *enc, const struct sq_insn *in)
{
	bool flat = in->seg == 0;

	return (1u << enc->store_cnt) | (flat ? 1u << enc->flat_store_cnt : 0);
}

static unsigned smem_counter(const struct sq_enc *enc)
{
	return 1u << enc->smem_cnt;
}

/* Does the target's system-scope release need a cache writeback?
 * gfx90a / gfx94x: buffer_wbl2 sc0 sc1 + vmcnt(0); gfx12.0: global_wb
 * scope:SCOPE_SYS + s_wait_storecnt 0 (LLVM SIMemoryLegalizer.cpp
 * SIGfx90ACacheControl / SIGfx940CacheControl / SIGfx12CacheControl
 * insertRelease, LLVM AMDGPUUsage "Memory Model"). Others: waits only. */
static bool release_needs_writeback(const struct sq_enc *enc)
{
	return enc->release_wb;
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

static int check_sgpr_read(struct wave *s, const struct sq_insn *in, unsigned c, unsigned n)
{
	uint64_t load_pc;

	if (c > s->enc->max_sgpr || !sgpr_pending(s, c, n, &load_pc))
		return 0;
	return fail(s, in, EPROTO,
		    "s%u read before the scalar load at 0x%" PRIx64
		    " that writes it was waited for",
		    c, load_pc);
}

/* Value of a 32-bit scalar-or-inline source. */
static uint32_t read_scalar(const struct wave *s, const struct sq_insn *in, unsigned c)
{
	static const uint32_t fl[9] = { 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
					0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983 };

	if (c <= s->enc->max_sgpr || c == 106 || c == 107)
		return s->sgpr[c];
	if (c == 126)
		return (uint32_t)s->exec;
	if (c == 127)
		return (uint32_t)(s->exec >> 32);
	if (c == s->enc->m0)
		return s->m0;
	if (c == s->enc->null)
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
	if (c <= s->enc->max_sgpr || c == 106 || c == 107)
		s->sgpr[c] = v;
	else if (c == 126)
		s->exec = (s->exec & ~0xffffffffull) | v;
	else if (c == 127)
		s->exec = (s->exec & 0xffffffffull) | ((uint64_t)v << 32);
	else if (c == s->enc->m0)
		s->m0 = v;
	/* null: discarded */
}

static uint64_t lane_mask(const struct wave *s)
{
	return s->w->wave_size == 64 ? ~0ull : (1ull << s->w->wave_size) - 1;
}

static int exec_wait(struct wave *s, const struct sq_insn *in)
{
	struct sq_event *e = NULL;
	int ev;

	for (unsigned c = 0; c < KFDSIG_SQ_CNT_COUNT; c++)
		drain(s, (enum sq_counter)c, in->wait[c]);
	ev = add_event(s, in, KFDSIG_SQ_EV_WAIT, &e);
	if (ev < 0)
		return ev;
	memcpy(e->wait, in->wait, sizeof(e->wait));
	return 0;
}

static int exec_load(struct wave *s, const struct sq_insn *in)
{
	struct sq_event *e = NULL;
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
	if ((r = add_op(s, in, smem_counter(s->enc), true, KFDSIG_SQ_EV_LOAD, ev, &op)) < 0)
		return r;
	for (unsigned i = 0; i < in->ndw; i++) {
		s->sgpr[in->dst + i] = data[i];
		op->sgprs[(in->dst + i) / 64] |= 1ull << ((in->dst + i) % 64);
	}
	return 0;
}

static int exec_store(struct wave *s, const struct sq_insn *in)
{
	uint64_t exec = s->exec & lane_mask(s), prev_addr = 0;
	uint32_t prev[4] = { 0 };
	struct sq_event *e = NULL;
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
	return add_op(s, in, store_counters(s->enc, in), false, KFDSIG_SQ_EV_STORE, ev, &op);
}

static int exec_writeback(struct wave *s, const struct sq_insn *in)
{
	struct sq_event *e = NULL;
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
	bool wb = release_needs_writeback(s->enc);

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

static int exec_sendmsg(struct wave *s, const struct sq_insn *in)
{
	struct sq_event *e = NULL;
	unsigned bits = s->t->sq_bits;
	int ev;

	ev = add_event(s, in, KFDSIG_SQ_EV_MSG, &e);
	if (ev < 0)
		return ev;
	e->simm16 = in->simm16;
	/* Message type: simm16[3:0] before gfx11, simm16[7:0] from gfx11
	 * (LLVM SIDefines.h SendMsg: ID_MASK_GFX11Plus_ = 0xff). */
	e->msg_id = in->simm16 & s->enc->msg_id_mask;
	e->interrupt = e->msg_id == KFDSIG_SQ_MSG_INTERRUPT;
	e->m0 = s->m0;
	/* The IV carries m0 cut to the handler's width (the kfd_signal_event_interrupt() calls of cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c). */
	e->sq_data = bits >= 32 ? s->m0 : s->m0 & ((1u << bits) - 1);
	emu_gen_sq_iv_context(s->t, s->m0, &e->ctx0, &e->ctx1);
	e->unreleased = first_unreleased_store(s);
	e->released = e->unreleased < 0;
	/* GFX6-GFX9: an SALU m0 write needs one wait state before s_sendmsg
	 * (Mesa aco_insert_NOPs.cpp). Flagged, not modelled. */
	e->m0_hazard = s->enc->m0_hazard && s->last_salu_m0;
	if (s->env->message) {
		int r = s->env->message(s->env->ctx, e);

		if (r < 0)
			return fail(s, in, -r, "message hook failed (%d)", r);
	}
	return 0;
}

/*
 * s_trap: the wave enters the trap handler with TRAP_ID = simm16[7:0] in
 * the saved PC_HI (ROCr trap_handler.s: SQ_WAVE_PC_HI_TRAP_ID_SHIFT 16,
 * _SIZE 8). The emulator has no trap handler code: env->trap plays it and
 * says whether the wave goes on past the s_trap (1) or stops there (0, or
 * no hook), as a halted wave with the PC at the s_trap.
 */
static int exec_trap(struct wave *s, const struct sq_insn *in, bool *end)
{
	struct sq_event *e = NULL;
	int ev = add_event(s, in, KFDSIG_SQ_EV_TRAP, &e);
	int r = 0;

	if (ev < 0)
		return ev;
	e->simm16 = in->simm16;
	e->trap_id = (uint8_t)(in->simm16 & 0xff);
	if (s->env->trap) {
		r = s->env->trap(s->env->ctx, e);
		if (r < 0)
			return fail(s, in, -r, "trap hook failed (%d)", r);
	}
	if (r > 0)
		return 0;
	*end = true;
	s->rep->trapped = true;
	s->rep->trap_id = e->trap_id;
	return 0;
}

static int exec_insn(struct wave *s, const struct sq_insn *in, bool *end)
{
	uint64_t exec = s->exec & lane_mask(s);
	int r;

	switch (in->op) {
	case KFDSIG_SQ_OP_S_NOP:
		return 0;
	case KFDSIG_SQ_OP_S_ENDPGM: {
		struct sq_event *e;

		*end = true;
		r = add_event(s, in, KFDSIG_SQ_EV_END, &e);
		return r < 0 ? r : 0;
	}
	case KFDSIG_SQ_OP_S_CODE_END:
		return fail(s, in, EPROTO, "s_code_end executed (ran past s_endpgm)");
	case KFDSIG_SQ_OP_S_TRAP:
		return exec_trap(s, in, end);
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

static bool writes_m0_salu(const struct sq_enc *enc, const struct sq_insn *in)
{
	return (in->op == KFDSIG_SQ_OP_S_MOV_B32 || in->op == KFDSIG_SQ_OP_S_MOVK_I32) &&
	       in->dst == enc->m0;
}

/* Without a code buffer, instructions come through env->read: up to 16
 * bytes at pc (fewer at the end of a mapping). An instruction that cannot
 * be fetched whole is a memory fault on the fetch. */
static int fetch_decode(struct wave *s, uint64_t pc, struct sq_insn *in)
{
	uint8_t buf[16];
	uint32_t n;

	for (n = 16; n; n -= 4)
		if (s->env->read(s->env->ctx, pc, buf, n) == 0)
			break;
	if (n) {
		int r = emu_sq_decode(s->enc, buf, n, pc, pc, in);

		if (r != -EFAULT)
			return r;
	}
	s->rep->fault = true;
	s->rep->fault_va = pc + n;
	return set_error(EFAULT, "memory fault: instruction fetch at 0x%" PRIx64, pc);
}

static int check_wave(const struct sq_wave *w, const struct sq_env *env, struct emu_gen *gen)
{
	if (!w || !env || !w->target || !env->read || !env->write)
		return set_error(EINVAL, "sq run: NULL argument");
	if (emu_sq_gen(w->target, gen) < 0)
		return -ENOENT;
	if (w->wave_size != 64 && w->wave_size != 32)
		return set_error(EINVAL, "sq run: wave size %u is not 32 or 64", w->wave_size);
	if (w->wave_size == 32 && !emu_sq_enc(gen)->wave32)
		return set_error(EINVAL, "sq run: %s has no wave32 (gfx10 and later only)",
				 w->target->name);
	if (w->num_sgprs > KFDSIG_SQ_MAX_USER_SGPRS || (w->num_sgprs && !w->sgprs))
		return set_error(EINVAL, "sq run: %u initial SGPRs (at most %d)", w->num_sgprs,
				 KFDSIG_SQ_MAX_USER_SGPRS);
	if (w->entry_va & 3)
		return set_error(EINVAL, "sq run: entry 0x%" PRIx64 " is not 4-byte aligned",
				 w->entry_va);
	if (w->code && (w->entry_va < w->code_va || w->entry_va - w->code_va >= w->code_size))
		return set_error(EINVAL,
				 "sq run: entry 0x%" PRIx64 " is not an aligned address of"
				 " the code at 0x%" PRIx64 " (+%zu bytes)",
				 w->entry_va, w->code_va, w->code_size);
	return 0;
}

int sq_run(const struct sq_wave *w, const struct sq_env *env, struct sq_report *rep)
{
	struct wave *s;
	struct emu_gen gen;
	uint32_t max = w && w->max_insns ? w->max_insns : KFDSIG_SQ_DEFAULT_MAX_INSNS;
	uint64_t pc;
	bool end = false;
	int r;

	if (!rep)
		return set_error(EINVAL, "sq run: NULL report");
	memset(rep, 0, sizeof(*rep));
	r = check_wave(w, env, &gen);
	if (r < 0)
		goto out_noalloc;
	s = calloc(1, sizeof(*s));
	if (s)
		s->vgpr = calloc(256, sizeof(*s->vgpr));
	if (!s || !s->vgpr) {
		free(s);
		r = set_error(ENOMEM, "sq run: out of memory");
		goto out_noalloc;
	}
	s->gen = gen;
	s->t = &s->gen;
	s->enc = emu_sq_enc(s->t);
	s->w = w;
	s->env = env;
	s->rep = rep;
	for (unsigned i = 0; i < w->num_sgprs; i++)
		s->sgpr[i] = w->sgprs[i];
	s->exec = w->exec ? w->exec : lane_mask(s);

	pc = w->entry_va;
	while (!end) {
		struct sq_insn in;

		rep->pc = pc;
		if (rep->insns >= max) {
			r = set_error(ELOOP, "more than %u instructions (at 0x%" PRIx64 ")", max,
				      pc);
			break;
		}
		if (w->code) {
			r = emu_sq_decode(s->enc, w->code, w->code_size, w->code_va, pc, &in);
		} else {
			r = fetch_decode(s, pc, &in);
			if (r == -EFAULT)
				break;
		}
		if (r == -EFAULT)
			r = set_error(EPROTO,
				      "ran off the code buffer at 0x%" PRIx64
				      " (no s_endpgm before it)",
				      pc);
		if (r < 0)
			break;
		r = exec_insn(s, &in, &end);
		if (r < 0)
			break;
		rep->insns++;
		s->last_salu_m0 = writes_m0_salu(s->enc, &in);
		if (!end)
			pc += in.size;
	}
	rep->ended = end && r >= 0 && !rep->trapped;
	free(s->vgpr);
	free(s);
	if (r >= 0)
		return rep->trapped ? KFDSIG_SQ_TRAPPED : 0;
out_noalloc:
	rep->error = r;
	snprintf(rep->msg, sizeof(rep->msg), "%s", kfdsig_last_error());
	return r;
}

int sq_iv_context(const struct kfdsig_target *target, uint32_t m0, uint32_t *ctx0, uint32_t *ctx1)
{
	struct emu_gen g;

	if (!target || !ctx0 || !ctx1)
		return set_error(EINVAL, "sq iv context: NULL argument");
	if (emu_sq_gen(target, &g) < 0)
		return -ENOENT;
	return emu_gen_sq_iv_context(&g, m0, ctx0, ctx1);
}
