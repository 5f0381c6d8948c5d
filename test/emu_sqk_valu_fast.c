/* SPDX-License-Identifier: MIT */
/*
 * The vector ALU's fast path (sqk_exec_valu_fast(), sqk_valu.c) gives the
 * results of the general path for every instruction it takes: random
 * instances of each (VOP1 / VOP2 / VOPC / VOP3 forms; VGPR, SGPR, VCC,
 * EXEC, M0, inline-constant and literal sources; SGPR, VCC and null
 * carry-outs; destinations overlapping sources; v_cmpx; values biased to equal, adjacent and extreme ones) run once
 * through the fast path, which must take them, and once through the
 * general path (sqk_valu_general_only) on a copy of the same wave; the
 * whole register files (SGPRs, VGPRs, AGPRs) must be equal after. The
 * cases the fast path must leave alone (a partial EXEC, clamp, SDWA, VOP3
 * abs/neg on a move, index mode) are checked to be refused. gfx900 and
 * gfx90a wave64, gfx1030 wave32 and wave64.
 *
 * The hot executors the run loop binds to decoded instructions
 * (sqk_valu_hot(), sqk_valu_hot.c) the same way, with a few three-source
 * operations more: each must be bound for every instance drawn, give the
 * general path's results under a full EXEC, and under a partial one hand
 * the instruction on with the same results; the forms it must not bind
 * (clamp, SDWA, op_sel, neg, abs on a move, a 64-bit literal) are checked
 * to be refused.
 *
 * The scalar ALU's hot executors (sqk_salu_hot(), sqk_salu.c) the same way
 * against sqk_exec_salu(): random sources (SGPRs, VCC, EXEC, M0, inline
 * constants, literals), SCC in either state, SGPR, VCC and (32-bit) EXEC
 * destinations,
 * taken and untaken branches; SCC, the PC and the register files must be
 * equal after, and M0, NULL and 64-bit EXEC destinations are left to the general
 * path.
 */
#include "emu_sqk_wave_util.h"

static uint64_t rs = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
	return (uint32_t)(rs >> 16);
}

static uint32_t value(void)
{
	static const uint32_t edge[] = {
		0, 1, 2, 31, 32, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x10000
	};

	switch (rnd() % 4) {
	case 0:
		return edge[rnd() % (sizeof(edge) / sizeof(edge[0]))];
	case 1:
		return rnd() % 8;
	default:
		return rnd();
	}
}

/* A scalar source code: SGPR, VCC, EXEC, M0, inline constant or literal. */
static uint16_t scalar_code(void)
{
	switch (rnd() % 8) {
	case 0:
		return SQK_VCC + rnd() % 2;
	case 1:
		return SQK_EXEC + rnd() % 2;
	case 2:
		return SQK_M0;
	case 3:
		return (uint16_t)(128 + rnd() % 81); /* 0..64, -1..-16 */
	case 4:
		return (uint16_t)(240 + rnd() % 9); /* float inline constants */
	case 5:
		return SQK_LIT;
	default:
		return (uint16_t)(rnd() % 16);
	}
}

static uint16_t vgpr(void)
{
	return (uint16_t)(256 + rnd() % 12);
}

static uint16_t any_src(void)
{
	return rnd() % 2 ? vgpr() : scalar_code();
}

static const unsigned binops[] = {
	K_v_add_u32,	   K_v_add_nc_u32,  K_v_sub_u32,       K_v_sub_nc_u32,	K_v_subrev_u32,
	K_v_subrev_nc_u32, K_v_and_b32,	    K_v_or_b32,	       K_v_xor_b32,	K_v_lshlrev_b32,
	K_v_lshrrev_b32,   K_v_ashrrev_i32, K_v_mul_lo_u32,    K_v_cndmask_b32, K_v_lshlrev_b64,
	K_v_add_co_u32,	   K_v_sub_co_u32,  K_v_subrev_co_u32, K_v_addc_co_u32, K_v_add_co_ci_u32,
	K_v_mad_u64_u32,
};

/* A random instance of an instruction the fast path takes. */
static void random_insn(struct sqk_insn *in, unsigned kind)
{
	memset(in, 0, sizeof(*in));
	in->lit = value();
	in->saddr = 0xffff;
	if (kind == 0) { /* v_mov_b32: VOP1 or VOP3 */
		in->op = K_v_mov_b32;
		in->enc = rnd() % 2 ? SQK_VOP1 : SQK_VOP3;
		in->src[0] = any_src();
		in->dst = vgpr();
	} else if (kind == 1) { /* integer compares: VOPC or VOP3 */
		/* v_cmp or v_cmpx (66 opcodes further in sqk_ops.def) */
		in->op = (uint16_t)(K_v_cmp_f_i32 + rnd() % (K_v_cmp_t_u64 - K_v_cmp_f_i32 + 1) +
				    (rnd() % 2 ? K_v_cmpx_f_f32 - K_v_cmp_f_f32 : 0));
		if (rnd() % 2) {
			in->enc = SQK_VOPC;
			in->src[0] = any_src();
			in->src[1] = vgpr();
			in->dst = SQK_VCC;
		} else {
			in->enc = SQK_VOP3;
			in->src[0] = any_src();
			in->src[1] = any_src();
			in->dst = (uint16_t)(256 + (rnd() % 3 ? rnd() % 16 : SQK_VCC));
		}
	} else {
		in->op = (uint16_t)binops[rnd() % (sizeof(binops) / sizeof(binops[0]))];
		in->dst = vgpr();
		if (in->op != K_v_lshlrev_b64 && in->op != K_v_mad_u64_u32 && rnd() % 2) {
			in->enc = SQK_VOP2;
			in->src[0] = any_src();
			in->src[1] = vgpr();
		} else {
			in->enc = SQK_VOP3;
			in->src[0] = any_src();
			in->src[1] = any_src();
			in->src[2] = rnd() % 4 ? scalar_code() : vgpr();
			/* an SGPR, VCC, or null (gfx10 on: the carry-out
			 * goes nowhere) */
			in->sdst = (uint16_t)(rnd() % 5 == 0 ? SQK_NULL10
					      : rnd() % 3    ? rnd() % 16
							     : SQK_VCC);
			/* VOP3b: bits 10:8 are the SGPR destination's, not abs */
			if (in->op == K_v_add_co_u32 || in->op == K_v_sub_co_u32 ||
			    in->op == K_v_subrev_co_u32 || in->op == K_v_addc_co_u32 ||
			    in->op == K_v_add_co_ci_u32 || in->op == K_v_mad_u64_u32)
				in->abs = (uint8_t)(in->sdst & 7),
				in->opsel = (uint8_t)(in->sdst >> 3 & 15);
		}
	}
	if (in->src[0] == SQK_LIT || in->src[1] == SQK_LIT || in->src[2] == SQK_LIT)
		in->size = 12;
	else
		in->size = in->enc == SQK_VOP3 ? 8 : 4;
}

static void randomize(struct bare_wave *g)
{
	for (size_t i = 0; i < sizeof(g->w.s) / 4; i++)
		g->w.s[i] = value();
	for (unsigned r = 0; r < 20; r++) {
		unsigned mode = rnd() % 3;
		uint32_t k = value();

		for (unsigned l = 0; l < 64; l++)
			g->w.v[r * 64 + l] = mode == 0 ? k : mode == 1 ? value() : k + l % 3;
	}
	g->w.scc = rnd() % 2;
	sqk_set_mask(&g->w, SQK_EXEC, sqk_mask(&g->w));
}

static int diff_regs(const struct bare_wave *a, const struct bare_wave *b, char *where, size_t n)
{
	for (size_t i = 0; i < sizeof(a->w.s) / 4; i++)
		if (a->w.s[i] != b->w.s[i]) {
			snprintf(where, n, "s%zu: fast 0x%x, general 0x%x", i, a->w.s[i],
				 b->w.s[i]);
			return 1;
		}
	for (size_t i = 0; i < BARE_NVW; i++)
		if (a->w.v[i] != b->w.v[i]) {
			snprintf(where, n, "v%zu lane %zu: fast 0x%x, general 0x%x", i / 64, i % 64,
				 a->w.v[i], b->w.v[i]);
			return 1;
		}
	if (a->w.scc != b->w.scc) {
		snprintf(where, n, "scc");
		return 1;
	}
	return 0;
}

/* Operations only the hot executors take among the fast ones (VOP3). */
static const unsigned hot3[] = { K_v_mul_u32_u24, K_v_add3_u32,	    K_v_mad_u32_u24,
				 K_v_mad_u32,	  K_v_lshl_add_u32, K_v_lshl_add_u64 };

static void run_hot(const char *name, uint32_t gfxv, unsigned lanes, unsigned trials)
{
	struct bare_wave *hot = bare_wave_new(gfxv, lanes), *gen = bare_wave_new(gfxv, lanes);
	const struct sqk_family *f = hot->r.f;
	unsigned bad = 0, bound = 0, partial = 0;

	for (unsigned t = 0; t < trials; t++) {
		struct sqk_insn in;
		unsigned kind = rnd() % 4;
		sqk_exec_fn h;
		char where[160];
		int rc;

		if (kind < 3) {
			random_insn(&in, kind);
		} else {
			random_insn(&in, 2);
			in.op = (uint16_t)hot3[rnd() % (sizeof(hot3) / sizeof(hot3[0]))];
			in.enc = SQK_VOP3;
			in.abs = 0, in.opsel = 0;
			in.src[2] = any_src();
		}
		h = sqk_valu_hot(f, &in);
		if (!h) {
			CHECK(0, "%s: hot executor refused %s (enc %u)", name, sqk_op_name(in.op),
			      in.enc);
			continue;
		}
		bound++;
		randomize(hot);
		if (rnd() % 4 == 0) { /* a partial EXEC: handed to sqk_exec_valu() */
			sqk_set_mask(&hot->w, SQK_EXEC,
				     sqk_mask(&hot->w) & ~(1ull << rnd() % lanes));
			partial++;
		}
		bare_wave_copy(gen, hot);
		rc = h(&hot->w, &in);
		CHECK(rc == 0, "%s: hot %s failed: %s", name, sqk_op_name(in.op), hot->res.msg);
		sqk_valu_general_only = true;
		rc = sqk_exec_valu(&gen->w, &in);
		sqk_valu_general_only = false;
		CHECK(rc == 0, "%s: general path failed on %s: %s", name, sqk_op_name(in.op),
		      gen->res.msg);
		if (diff_regs(hot, gen, where, sizeof(where)) && bad++ < 5)
			CHECK(0, "%s: hot %s (enc %u, src %u %u %u, dst %u, sdst %u, lit 0x%x): %s",
			      name, sqk_op_name(in.op), in.enc, in.src[0], in.src[1], in.src[2],
			      in.dst, in.sdst, in.lit, where);
	}
	CHECK(bad == 0, "%s: %u of %u hot instructions differ", name, bad, bound);
	CHECK(bound == trials && partial, "%s: hot executors drawn (%u, %u partial)", name, bound,
	      partial);

	/* the forms it must leave to sqk_exec_valu() */
	{
		struct sqk_insn in;

		random_insn(&in, 2);
		in.op = K_v_add_u32;
		in.enc = SQK_VOP3;
		in.abs = 0, in.opsel = 0;
		CHECK(sqk_valu_hot(f, &in) != NULL, "%s: v_add_u32 e64 bound", name);
		in.clamp = true;
		CHECK(!sqk_valu_hot(f, &in), "%s: clamp bound", name);
		in.clamp = false;
		in.opsel = 1;
		CHECK(!sqk_valu_hot(f, &in), "%s: op_sel bound", name);
		in.opsel = 0;
		in.neg = 2;
		CHECK(!sqk_valu_hot(f, &in), "%s: neg bound", name);
		in.neg = 0;
		in.ext = SQK_EXT_DPP;
		CHECK(!sqk_valu_hot(f, &in), "%s: DPP bound", name);
		in.ext = 0;
		in.src[1] = SQK_LIT64;
		CHECK(!sqk_valu_hot(f, &in), "%s: 64-bit literal bound", name);
		random_insn(&in, 0);
		in.enc = SQK_VOP3;
		in.abs = 1;
		CHECK(!sqk_valu_hot(f, &in), "%s: v_mov_b32 with abs bound", name);
		in.abs = 0;
		in.op = K_v_add_f32;
		CHECK(!sqk_valu_hot(f, &in), "%s: v_add_f32 bound", name);
	}
	bare_wave_free(hot);
	bare_wave_free(gen);
}

/* The scalar operations with hot executors: SOP2, SOP1, SOPC, SOPP. */
static const unsigned salu2[] = { K_s_add_u32,	 K_s_addc_u32, K_s_add_i32,  K_s_sub_u32,
				  K_s_mul_i32,	 K_s_and_b32,  K_s_or_b32,   K_s_xor_b32,
				  K_s_andn2_b32, K_s_lshl_b32, K_s_lshr_b32, K_s_and_b64,
				  K_s_or_b64,	 K_s_lshl_b64 };
static const unsigned salu1[] = {
	K_s_mov_b32,	     K_s_mov_b64,	  K_s_and_saveexec_b32,	  K_s_and_saveexec_b64,
	K_s_or_saveexec_b32, K_s_or_saveexec_b64, K_s_andn2_saveexec_b32, K_s_andn2_saveexec_b64
};
static const unsigned saluc[] = { K_s_cmp_eq_i32, K_s_cmp_eq_u32, K_s_cmp_lg_i32, K_s_cmp_lg_u32,
				  K_s_cmp_gt_u32, K_s_cmp_ge_u32, K_s_cmp_lt_u32, K_s_cmp_le_u32,
				  K_s_cmp_gt_i32, K_s_cmp_ge_i32, K_s_cmp_lt_i32, K_s_cmp_le_i32 };
static const unsigned salup[] = { K_s_cbranch_scc0,   K_s_cbranch_scc1, K_s_cbranch_execz,
				  K_s_cbranch_execnz, K_s_cbranch_vccz, K_s_cbranch_vccnz,
				  K_s_branch,	      K_s_nop,		K_s_clause,
				  K_s_waitcnt };
#define NOF(a) (sizeof(a) / sizeof((a)[0]))

static void random_salu(struct sqk_insn *in)
{
	unsigned kind = rnd() % 4;

	memset(in, 0, sizeof(*in));
	in->lit = value();
	in->saddr = 0xffff;
	in->pc = 0x10000 + 4 * (rnd() % 256);
	in->src[0] = scalar_code();
	in->src[1] = scalar_code();
	/* an even SGPR (64-bit operands are aligned) or VCC */
	in->dst = (uint16_t)(rnd() % 4 ? 2 * (rnd() % 8) : SQK_VCC);
	in->simm16 = (uint16_t)(rnd() % 2 ? rnd() % 64 : 0x10000 - rnd() % 64);
	switch (kind) {
	case 0:
		in->op = (uint16_t)salu2[rnd() % NOF(salu2)], in->enc = SQK_SOP2;
		break;
	case 1:
		in->op = (uint16_t)salu1[rnd() % NOF(salu1)], in->enc = SQK_SOP1;
		break;
	case 2:
		in->op = (uint16_t)saluc[rnd() % NOF(saluc)], in->enc = SQK_SOPC;
		break;
	default:
		in->op = (uint16_t)salup[rnd() % NOF(salup)], in->enc = SQK_SOPP;
		in->src[0] = in->src[1] = 0;
		break;
	}
	/* 32-bit results to EXEC's halves too (s_or_b32 exec_lo, ...) */
	if ((kind == 0 || in->op == K_s_mov_b32) && in->op != K_s_and_b64 && in->op != K_s_or_b64 &&
	    in->op != K_s_lshl_b64 && rnd() % 4 == 0)
		in->dst = (uint16_t)(SQK_EXEC + rnd() % 2);
	in->size = in->src[0] == SQK_LIT || in->src[1] == SQK_LIT ? 8 : 4;
}

static void run_salu(const char *name, uint32_t gfxv, unsigned lanes, unsigned trials)
{
	struct bare_wave *hot = bare_wave_new(gfxv, lanes), *gen = bare_wave_new(gfxv, lanes);
	unsigned bad = 0, taken = 0, scc[2] = { 0 };

	for (unsigned t = 0; t < trials; t++) {
		struct sqk_insn in;
		sqk_exec_fn h;
		char where[160];
		int rh, rg;

		random_salu(&in);
		h = sqk_salu_hot(&in);
		if (!h) {
			CHECK(0, "%s: hot executor refused %s (dst %u)", name, sqk_op_name(in.op),
			      in.dst);
			continue;
		}
		randomize(hot);
		if (rnd() % 4 == 0) /* EXEC empty or partial */
			sqk_set_mask(&hot->w, SQK_EXEC,
				     rnd() % 2 ? 0 : sqk_mask(&hot->w) & (uint64_t)value());
		hot->w.pc = gen->w.pc = in.pc;
		bare_wave_copy(gen, hot);
		rh = h(&hot->w, &in);
		rg = sqk_exec_salu(&gen->w, &in);
		taken += rh == 2;
		scc[hot->w.scc ? 1 : 0]++;
		if ((rh != rg || hot->w.pc != gen->w.pc ||
		     diff_regs(hot, gen, where, sizeof(where))) &&
		    bad++ < 5) {
			if (rh != rg || hot->w.pc != gen->w.pc)
				snprintf(where, sizeof(where), "rc %d/%d, pc 0x%llx/0x%llx", rh, rg,
					 (unsigned long long)hot->w.pc,
					 (unsigned long long)gen->w.pc);
			CHECK(0, "%s: hot %s (src %u %u, dst %u, lit 0x%x, simm 0x%x): %s", name,
			      sqk_op_name(in.op), in.src[0], in.src[1], in.dst, in.lit, in.simm16,
			      where);
		}
	}
	CHECK(bad == 0, "%s: %u of %u hot scalar instructions differ", name, bad, trials);
	CHECK(taken && scc[0] && scc[1], "%s: branches taken (%u), SCC both ways", name, taken);

	/* M0, NULL and 64-bit EXEC destinations stay with sqk_exec_salu() */
	{
		static const uint16_t far[] = { SQK_M0, SQK_NULL10 };
		struct sqk_insn in;

		memset(&in, 0, sizeof(in));
		in.enc = SQK_SOP2;
		in.op = K_s_add_u32;
		for (unsigned i = 0; i < NOF(far); i++) {
			in.dst = far[i];
			CHECK(!sqk_salu_hot(&in), "%s: s_add_u32 to %u bound", name, in.dst);
		}
		in.op = K_s_mov_b64;
		in.dst = SQK_M0 - 1;
		CHECK(!sqk_salu_hot(&in), "%s: s_mov_b64 into M0 bound", name);
		in.dst = SQK_EXEC;
		CHECK(!sqk_salu_hot(&in), "%s: s_mov_b64 to EXEC bound", name);
		in.op = K_s_endpgm;
		in.enc = SQK_SOPP;
		CHECK(!sqk_salu_hot(&in), "%s: s_endpgm bound", name);
	}
	bare_wave_free(hot);
	bare_wave_free(gen);
}

static void run(const char *name, uint32_t gfxv, unsigned lanes, unsigned trials)
{
	struct bare_wave *fast = bare_wave_new(gfxv, lanes), *gen = bare_wave_new(gfxv, lanes);
	unsigned bad = 0, kinds[3] = { 0 };

	for (unsigned t = 0; t < trials; t++) {
		struct sqk_insn in;
		unsigned kind = rnd() % 3;
		char where[160];
		int rc;

		random_insn(&in, kind);
		randomize(fast);
		bare_wave_copy(gen, fast);
		rc = sqk_exec_valu_fast(&fast->w, &in);
		CHECK(rc == 0, "%s: fast path refused %s (enc %u)", name, sqk_op_name(in.op),
		      in.enc);
		sqk_valu_general_only = true;
		rc = sqk_exec_valu(&gen->w, &in);
		sqk_valu_general_only = false;
		CHECK(rc == 0, "%s: general path failed on %s: %s", name, sqk_op_name(in.op),
		      gen->res.msg);
		kinds[kind]++;
		if (diff_regs(fast, gen, where, sizeof(where)) && bad++ < 5)
			CHECK(0, "%s: %s (enc %u, src %u %u %u, dst %u, sdst %u, lit 0x%x): %s",
			      name, sqk_op_name(in.op), in.enc, in.src[0], in.src[1], in.src[2],
			      in.dst, in.sdst, in.lit, where);
	}
	CHECK(bad == 0, "%s: %u of %u instructions differ", name, bad, trials);
	CHECK(kinds[0] && kinds[1] && kinds[2], "%s: every kind drawn", name);

	/* what the fast path must leave to the general one */
	{
		struct sqk_insn in;

		random_insn(&in, 2);
		randomize(fast);
		sqk_set_mask(&fast->w, SQK_EXEC, sqk_mask(&fast->w) & ~2ull);
		CHECK(sqk_exec_valu_fast(&fast->w, &in) == -1, "%s: partial EXEC taken", name);
		randomize(fast);
		in.clamp = true;
		CHECK(sqk_exec_valu_fast(&fast->w, &in) == -1, "%s: clamp taken", name);
		in.clamp = false;
		in.ext = SQK_EXT_SDWA;
		CHECK(sqk_exec_valu_fast(&fast->w, &in) == -1, "%s: SDWA taken", name);
		in.ext = 0;
		fast->w.gpr_idx = true;
		CHECK(sqk_exec_valu_fast(&fast->w, &in) == -1, "%s: index mode taken", name);
		fast->w.gpr_idx = false;
		random_insn(&in, 0);
		in.enc = SQK_VOP3;
		in.neg = 1;
		CHECK(sqk_exec_valu_fast(&fast->w, &in) == -1, "%s: v_mov_b32 with neg taken",
		      name);
		in.op = K_v_add_f32;
		in.neg = 0;
		CHECK(sqk_exec_valu_fast(&fast->w, &in) == -1, "%s: v_add_f32 taken", name);
	}
	bare_wave_free(fast);
	bare_wave_free(gen);
}

int main(void)
{
	run("gfx900", 90000, 64, 6000);
	run("gfx90a", 90010, 64, 6000);
	run("gfx1030 wave32", 100300, 32, 6000);
	run("gfx1030 wave64", 100300, 64, 6000);
	run_hot("gfx900 hot", 90000, 64, 4000);
	run_hot("gfx90a hot", 90010, 64, 4000);
	run_hot("gfx1030 wave32 hot", 100300, 32, 4000);
	run_hot("gfx1030 wave64 hot", 100300, 64, 4000);
	run_hot("gfx1100 wave32 hot", 110000, 32, 4000);
	run_salu("gfx900 salu", 90000, 64, 4000);
	run_salu("gfx1030 wave32 salu", 100300, 32, 4000);
	run_salu("gfx1030 wave64 salu", 100300, 64, 4000);
	run_salu("gfx1100 wave32 salu", 110000, 32, 4000);
	return t_result("emu_sqk_valu_fast");
}
