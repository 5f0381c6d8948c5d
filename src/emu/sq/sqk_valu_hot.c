/* SPDX-License-Identifier: MIT */
/*
 * The vector ALU's hot executors: the handful of integer instructions that
 * compiled copy and address-arithmetic code runs on every wave (moves,
 * 32-bit adds and shifts, 64-bit address adds with carry, v_lshlrev_b64,
 * v_lshl_add_u64, v_mad_u64_u32, v_cndmask_b32, integer compares),
 * each its own small function that the run loop binds to the decoded
 * instruction (sqk_valu_hot()) instead of going through sqk_exec_valu()'s
 * switch.
 *
 * What the binding checks once per decoded instruction: a VOP1, VOP2, VOPC
 * or VOP3 form without SDWA or DPP, clamp, output modifier, op_sel, source
 * modifiers (VOP3b's op_sel and abs bits are its SGPR destination) or a 64-bit
 * literal, with a VGPR destination inside the register file. What each
 * executor checks per run: the wave is not in VGPR index mode and its EXEC
 * covers every lane; otherwise it hands the instruction to sqk_exec_valu(),
 * whose results these must equal (test/emu_sqk_valu_fast.c compares them
 * on random instances). Each lane loop runs on the wave's width as a
 * constant (32 or 64), reading every source before the destination is
 * written (a destination may be one of the sources).
 */
#include "emu/sq/sqk_exec.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* VOPC layout (sqk_ops.def): per type eight conditions f, lt, eq, le, gt,
 * ne, ge, t; v_cmpx_* the same 66 operations further. */
#define CMP_BLOCK 66
_Static_assert(K_v_cmpx_f_f32 == K_v_cmp_f_f32 + CMP_BLOCK, "cmp block layout");
_Static_assert(K_v_cmp_f_u32 == K_v_cmp_f_i32 + 8, "cmp int layout");

#define HOT static SQK_LANE_CLONES __attribute__((noinline)) int
#define ALWAYS static inline __attribute__((always_inline))

/* Bit l of the result: bit 0 of @b[l] (0 or 1). */
ALWAYS uint64_t pack(const uint32_t *b, const unsigned n)
{
	uint64_t m = 0;

#ifdef __SSE2__
	for (unsigned i = 0; i < n; i += 4) {
		__m128i v =
			_mm_slli_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + i)), 31);

		m |= (uint64_t)(unsigned)_mm_movemask_ps(_mm_castsi128_ps(v)) << i;
	}
#else
	for (unsigned l = 0; l < n; l++)
		m |= (uint64_t)(b[l] & 1) << l;
#endif
	return m;
}

/* Bit l of @m in @b[l]. */
ALWAYS void unpack(uint64_t m, uint32_t *b, const unsigned n)
{
	uint32_t lo = (uint32_t)m, hi = (uint32_t)(m >> 32);

	for (unsigned l = 0; l < 32; l++)
		b[l] = lo >> l & 1;
	for (unsigned l = 32; l < n; l++)
		b[l] = hi >> (l - 32) & 1;
}

/* Whether the wave runs the hot form now: every lane on, no index mode. */
ALWAYS bool hot_ok(const struct sqk_wave *w)
{
	return !w->gpr_idx && sqk_exec(w) == sqk_mask(w);
}

/* 32-bit source @code of every lane into @buf (a VGPR column is copied, a
 * scalar spread). */
ALWAYS void src32(struct sqk_wave *w, const struct sqk_insn *in, unsigned code, uint32_t *buf,
		  const unsigned n)
{
	if (code >= 256) {
		memcpy(buf, w->v + (size_t)(code - 256) * 64, n * 4);
	} else {
		uint32_t k = (uint32_t)sqk_sread(w, in, code, false, false);

		for (unsigned l = 0; l < n; l++)
			buf[l] = k;
	}
}

/* The same for a 64-bit source: low dwords in @lo, high in @hi. */
ALWAYS void src64(struct sqk_wave *w, const struct sqk_insn *in, unsigned code, uint32_t *lo,
		  uint32_t *hi, const unsigned n)
{
	if (code >= 256) {
		const uint32_t *v = w->v + (size_t)(code - 256) * 64;

		memcpy(lo, v, n * 4);
		memcpy(hi, v + 64, n * 4);
	} else {
		uint64_t k = sqk_sread(w, in, code, true, false);

		for (unsigned l = 0; l < n; l++)
			lo[l] = (uint32_t)k, hi[l] = (uint32_t)(k >> 32);
	}
}

ALWAYS uint32_t *dst(struct sqk_wave *w, const struct sqk_insn *in)
{
	return w->v + (size_t)(in->dst - 256) * 64;
}

/* A lane mask source: VOP2's VCC, VOP3's third source as an SGPR pair (a
 * VGPR there gives none, as in the general path). */
ALWAYS uint64_t mask_in(struct sqk_wave *w, const struct sqk_insn *in)
{
	if (in->enc != SQK_VOP3)
		return sqk_get_mask(w, SQK_VCC) & sqk_mask(w);
	return (in->src[2] < 256 ? sqk_sread(w, in, in->src[2], true, false) : 0) & sqk_mask(w);
}

/* The carry-out lanes to VCC (VOP2) or VOP3b's SGPR destination (null or a
 * code past the SGPRs: nowhere, as sqk_swrite() drops them). */
ALWAYS void carry_out(struct sqk_wave *w, const struct sqk_insn *in, const uint32_t *cy,
		      const unsigned n)
{
	sqk_swrite(w, in->enc == SQK_VOP3 ? in->sdst : SQK_VCC, pack(cy, n), n == 64);
}

/* Executor @fn: the general path unless the wave runs the hot form now,
 * else body(w, in, n @more) with the wave's width n as a constant (@more
 * empty, or CY_ON/CY_OFF: the carry-out argument). */
#define CY_ON , true
#define CY_OFF , false
#define HOT_WRAP(fn, body, more)                              \
	HOT fn(struct sqk_wave *w, const struct sqk_insn *in) \
	{                                                     \
		if (!hot_ok(w))                               \
			return sqk_exec_valu(w, in);          \
		if (w->lanes == 32)                           \
			body(w, in, 32 more);                 \
		else                                          \
			body(w, in, 64 more);                 \
		return 0;                                     \
	}

/* Define hot_NAME(w, in) from BODY(w, in, n), n the wave's width. */
#define HOT_OP(name)                                                                              \
	ALWAYS void body_##name(struct sqk_wave *w, const struct sqk_insn *in, const unsigned n); \
	HOT_WRAP(hot_##name, body_##name, )                                                       \
	ALWAYS void body_##name(struct sqk_wave *w, const struct sqk_insn *in, const unsigned n)

/* The same for an operation with a carry-out: hot_NAME(w, in) writes it,
 * hot_NAME_nc(w, in) does not compute it (a VOP3 carry-out to null or past
 * the SGPRs, which goes nowhere); BODY(w, in, n, cyo). */
#define HOT_OP_CY(name)                                                                          \
	ALWAYS void body_##name(struct sqk_wave *w, const struct sqk_insn *in, const unsigned n, \
				const bool cyo);                                                 \
	HOT_WRAP(hot_##name, body_##name, CY_ON)                                                 \
	HOT_WRAP(hot_##name##_nc, body_##name, CY_OFF)                                           \
	ALWAYS void body_##name(struct sqk_wave *w, const struct sqk_insn *in, const unsigned n, \
				const bool cyo)

HOT_OP(mov)
{
	uint32_t a[64];

	src32(w, in, in->src[0], a, n);
	memcpy(dst(w, in), a, n * 4);
}

/* Two 32-bit sources, one 32-bit result per lane. */
#define BIN_OP(name, e)                              \
	HOT_OP(name)                                 \
	{                                            \
		uint32_t a[64], b[64], *d;           \
                                                     \
		src32(w, in, in->src[0], a, n);      \
		src32(w, in, in->src[1], b, n);      \
		d = dst(w, in);                      \
		for (unsigned l = 0; l < n; l++) {   \
			uint32_t x = a[l], y = b[l]; \
			d[l] = (e);                  \
		}                                    \
	}
BIN_OP(add, x + y)
BIN_OP(sub, x - y)
BIN_OP(subrev, y - x)
BIN_OP(and, x &y)
BIN_OP(or, x | y)
BIN_OP(xor, x ^ y)
BIN_OP(lshlrev, y << (x & 31))
BIN_OP(lshrrev, y >> (x & 31))
BIN_OP(ashrrev, (uint32_t)((int32_t)y >> (x & 31)))
BIN_OP(mul_lo, x *y)
BIN_OP(mul_u24, (x & 0xffffff) * (y & 0xffffff))

/* Three 32-bit sources (VOP3). */
#define TER_OP(name, e)                                        \
	HOT_OP(name)                                           \
	{                                                      \
		uint32_t a[64], b[64], c[64], *d;              \
                                                               \
		src32(w, in, in->src[0], a, n);                \
		src32(w, in, in->src[1], b, n);                \
		src32(w, in, in->src[2], c, n);                \
		d = dst(w, in);                                \
		for (unsigned l = 0; l < n; l++) {             \
			uint32_t x = a[l], y = b[l], z = c[l]; \
			d[l] = (e);                            \
		}                                              \
	}
TER_OP(add3, x + y + z)
TER_OP(mad_u24, (x & 0xffffff) * (y & 0xffffff) + z)
TER_OP(mad_u32, x *y + z)
TER_OP(lshl_add, (x << (y & 31)) + z)

HOT_OP(cndmask)
{
	uint32_t a[64], b[64], *d;
	uint64_t m = mask_in(w, in);

	src32(w, in, in->src[0], a, n);
	src32(w, in, in->src[1], b, n);
	d = dst(w, in);
	for (unsigned l = 0; l < n; l++)
		d[l] = (m >> l & 1) ? b[l] : a[l];
}

/* 32-bit adds with a carry-out (@ci: and a carry-in, k). */
#define CARRY_OP(name, ci, e, c)                                          \
	HOT_OP_CY(name)                                                   \
	{                                                                 \
		uint32_t a[64], b[64], k[64], cy[64], *d;                 \
                                                                          \
		if (ci)                                                   \
			unpack(mask_in(w, in), k, n);                     \
		src32(w, in, in->src[0], a, n);                           \
		src32(w, in, in->src[1], b, n);                           \
		d = dst(w, in);                                           \
		for (unsigned l = 0; l < n; l++) {                        \
			uint32_t x = a[l], y = b[l], z = (ci) ? k[l] : 0; \
			(void)z;                                          \
			d[l] = (e);                                       \
			if (cyo)                                          \
				cy[l] = (c);                              \
		}                                                         \
		if (cyo)                                                  \
			carry_out(w, in, cy, n);                          \
	}
CARRY_OP(add_co, 0, x + y, x + y < x)
CARRY_OP(sub_co, 0, x - y, y > x)
CARRY_OP(subrev_co, 0, y - x, x > y)
CARRY_OP(addc, 1, x + y + z, (x + y < x) | (x + y + z < x + y))

HOT_OP(lshlrev64)
{
	uint32_t a[64], lo[64], hi[64], *d;

	src32(w, in, in->src[0], a, n);
	src64(w, in, in->src[1], lo, hi, n);
	d = dst(w, in);
	if (in->src[0] < 256) { /* one shift for every lane */
		unsigned sh = a[0] & 63;

		for (unsigned l = 0; l < n; l++) {
			uint64_t v = (lo[l] | (uint64_t)hi[l] << 32) << sh;

			d[l] = (uint32_t)v;
			d[l + 64] = (uint32_t)(v >> 32);
		}
		return;
	}
	for (unsigned l = 0; l < n; l++) {
		uint64_t v = (lo[l] | (uint64_t)hi[l] << 32) << (a[l] & 63);

		d[l] = (uint32_t)v;
		d[l + 64] = (uint32_t)(v >> 32);
	}
}

/* gfx940 v_lshl_add_u64: (S0.u64 << S1[2:0]) + S2.u64 */
HOT_OP(lshl_add64)
{
	uint32_t alo[64], ahi[64], b[64], clo[64], chi[64], *d;

	src64(w, in, in->src[0], alo, ahi, n);
	src32(w, in, in->src[1], b, n);
	src64(w, in, in->src[2], clo, chi, n);
	d = dst(w, in);
	for (unsigned l = 0; l < n; l++) {
		uint64_t r = ((alo[l] | (uint64_t)ahi[l] << 32) << (b[l] & 7)) +
			     (clo[l] | (uint64_t)chi[l] << 32);

		d[l] = (uint32_t)r;
		d[l + 64] = (uint32_t)(r >> 32);
	}
}

HOT_OP_CY(mad_u64)
{
	uint32_t a[64], b[64], lo[64], hi[64], cy[64], *d;

	src32(w, in, in->src[0], a, n);
	src32(w, in, in->src[1], b, n);
	src64(w, in, in->src[2], lo, hi, n);
	d = dst(w, in);
	if (in->src[0] < 256 && in->src[1] < 256) { /* one product for every lane */
		uint64_t p = (uint64_t)a[0] * b[0];

		for (unsigned l = 0; l < n; l++) {
			uint64_t r = p + (lo[l] | (uint64_t)hi[l] << 32);

			d[l] = (uint32_t)r;
			d[l + 64] = (uint32_t)(r >> 32);
			if (cyo)
				cy[l] = r < p;
		}
		if (cyo)
			carry_out(w, in, cy, n);
		return;
	}
	for (unsigned l = 0; l < n; l++) {
		uint64_t p = (uint64_t)a[l] * b[l], r = p + (lo[l] | (uint64_t)hi[l] << 32);

		d[l] = (uint32_t)r;
		d[l + 64] = (uint32_t)(r >> 32);
		if (cyo)
			cy[l] = r < p;
	}
	if (cyo)
		carry_out(w, in, cy, n);
}

/* @cy[l] = @a[l] <cond> @b[l] for an integer compare's 8 conditions (F, LT,
 * EQ, LE, GT, NE, GE, T), the operands of either width. */
#define CMP_EACH(cy, e, n)                 \
	for (unsigned l = 0; l < (n); l++) \
		cy[l] = e;                 \
	break
#define CMP_LANES(cy, a, b, cond, n)                   \
	do {                                           \
		switch (cond) {                        \
		case 1:                                \
			CMP_EACH(cy, a[l] < b[l], n);  \
		case 2:                                \
			CMP_EACH(cy, a[l] == b[l], n); \
		case 3:                                \
			CMP_EACH(cy, a[l] <= b[l], n); \
		case 4:                                \
			CMP_EACH(cy, a[l] > b[l], n);  \
		case 5:                                \
			CMP_EACH(cy, a[l] != b[l], n); \
		case 6:                                \
			CMP_EACH(cy, a[l] >= b[l], n); \
		default:                               \
			CMP_EACH(cy, (cond) == 7, n);  \
		}                                      \
	} while (0)

/* A compare's lane bits @cy to its SGPR destination @sd (VCC for VOPC; not
 * a v_cmpx on RDNA) and, for a v_cmpx (@x), to EXEC. */
static inline void cmp_out(struct sqk_wave *w, unsigned sd, bool x, const uint32_t *cy, unsigned n)
{
	uint64_t bits = pack(cy, n);

	if (sd < 128 && !(x && w->r->f->gfx10))
		sqk_swrite(w, sd, bits, n == 64);
	if (x)
		sqk_set_mask(w, SQK_EXEC, bits);
}

/* 32-bit integer compares: the lanes' bits to VCC (VOPC) or the VOP3 SGPR
 * destination; v_cmpx to EXEC too (RDNA: EXEC only, as exec_cmp() in
 * sqk_valu.c). */
HOT_OP(cmp)
{
	bool x = in->op >= K_v_cmpx_f_f32;
	unsigned k = in->op - K_v_cmp_f_i32 - (x ? CMP_BLOCK : 0), cond = k % 8,
		 sd = in->enc == SQK_VOP3 ? in->dst - 256u : in->dst;
	uint32_t a[64], b[64], cy[64];

	src32(w, in, in->src[0], a, n);
	src32(w, in, in->src[1], b, n);
	if (k < 8) /* signed: the sign bit flipped orders them as unsigned */
		for (unsigned l = 0; l < n; l++)
			a[l] ^= 0x80000000u, b[l] ^= 0x80000000u;
	CMP_LANES(cy, a, b, cond, n);
	cmp_out(w, sd, x, cy, n);
}

/* 64-bit integer compares (i64 then u64 after the 32-bit ones), as above. */
_Static_assert(K_v_cmp_t_u64 == K_v_cmp_f_i32 + 31, "cmp int64 layout");
HOT_OP(cmp64)
{
	bool x = in->op >= K_v_cmpx_f_f32;
	unsigned k = in->op - K_v_cmp_f_i32 - (x ? CMP_BLOCK : 0), cond = k % 8,
		 sd = in->enc == SQK_VOP3 ? in->dst - 256u : in->dst;
	uint32_t alo[64], ahi[64], blo[64], bhi[64], cy[64];
	uint64_t a[64], b[64];

	src64(w, in, in->src[0], alo, ahi, n);
	src64(w, in, in->src[1], blo, bhi, n);
	for (unsigned l = 0; l < n; l++) {
		a[l] = alo[l] | (uint64_t)ahi[l] << 32;
		b[l] = blo[l] | (uint64_t)bhi[l] << 32;
	}
	if (k < 24) /* signed: the sign bit flipped orders them as unsigned */
		for (unsigned l = 0; l < n; l++)
			a[l] ^= 1ull << 63, b[l] ^= 1ull << 63;
	CMP_LANES(cy, a, b, cond, n);
	cmp_out(w, sd, x, cy, n);
}

sqk_exec_fn sqk_valu_hot(const struct sqk_family *f, const struct sqk_insn *in)
{
	unsigned op = in->op, enc = in->enc, width = 1;
	bool vop3 = enc == SQK_VOP3, vop3b = false, three = false;
	/* a carry-out that goes nowhere (sqk_swrite() drops it) */
	bool nc = vop3 && (in->sdst >= 128 || (in->sdst == SQK_NULL10 && f->gfx10));
	sqk_exec_fn fn;

	if (sqk_valu_general_only || in->ext || in->clamp || in->omod || in->neg)
		return NULL;
	if (enc != SQK_VOP1 && enc != SQK_VOP2 && enc != SQK_VOPC && !vop3)
		return NULL;
	for (int i = 0; i < 3; i++)
		if (in->src[i] == SQK_LIT64)
			return NULL;
	if ((op >= K_v_cmp_f_i32 && op <= K_v_cmp_t_u32) ||
	    (op >= K_v_cmp_f_i32 + CMP_BLOCK && op <= K_v_cmp_t_u32 + CMP_BLOCK))
		return in->opsel || (vop3 && in->abs) ? NULL : hot_cmp;
	if ((op >= K_v_cmp_f_i64 && op <= K_v_cmp_t_u64) ||
	    (op >= K_v_cmp_f_i64 + CMP_BLOCK && op <= K_v_cmp_t_u64 + CMP_BLOCK))
		return in->opsel || (vop3 && in->abs) ? NULL : hot_cmp64;
	switch (op) {
	case K_v_mov_b32:
		fn = hot_mov;
		break;
	case K_v_add_u32:
	case K_v_add_nc_u32:
		fn = hot_add;
		break;
	case K_v_sub_u32:
	case K_v_sub_nc_u32:
		fn = hot_sub;
		break;
	case K_v_subrev_u32:
	case K_v_subrev_nc_u32:
		fn = hot_subrev;
		break;
	case K_v_and_b32:
		fn = hot_and;
		break;
	case K_v_or_b32:
		fn = hot_or;
		break;
	case K_v_xor_b32:
		fn = hot_xor;
		break;
	case K_v_lshlrev_b32:
		fn = hot_lshlrev;
		break;
	case K_v_lshrrev_b32:
		fn = hot_lshrrev;
		break;
	case K_v_ashrrev_i32:
		fn = hot_ashrrev;
		break;
	case K_v_mul_lo_u32:
		fn = hot_mul_lo;
		break;
	case K_v_mul_u32_u24:
		fn = hot_mul_u24;
		break;
	case K_v_cndmask_b32:
		fn = hot_cndmask;
		break;
	case K_v_add3_u32:
		fn = hot_add3, three = true;
		break;
	case K_v_mad_u32_u24:
		fn = hot_mad_u24, three = true;
		break;
	case K_v_mad_u32:
		fn = hot_mad_u32, three = true;
		break;
	case K_v_lshl_add_u32:
		fn = hot_lshl_add, three = true;
		break;
	case K_v_add_co_u32:
		fn = nc ? hot_add_co_nc : hot_add_co, vop3b = true;
		break;
	case K_v_sub_co_u32:
		fn = nc ? hot_sub_co_nc : hot_sub_co, vop3b = true;
		break;
	case K_v_subrev_co_u32:
		fn = nc ? hot_subrev_co_nc : hot_subrev_co, vop3b = true;
		break;
	case K_v_addc_co_u32:
	case K_v_add_co_ci_u32:
		fn = nc ? hot_addc_nc : hot_addc, vop3b = true;
		break;
	case K_v_lshlrev_b64:
		fn = hot_lshlrev64, width = 2;
		break;
	case K_v_lshl_add_u64:
		fn = hot_lshl_add64, three = true, width = 2;
		break;
	case K_v_mad_u64_u32:
		fn = nc ? hot_mad_u64_nc : hot_mad_u64, vop3b = true, three = true, width = 2;
		break;
	default:
		return NULL;
	}
	if ((three || width == 2) && !vop3)
		return NULL;
	/* VOP3b: bits 14:8 are the SGPR destination, which the decoder also
	 * reads as abs and op_sel */
	if (!vop3b && (in->opsel || (vop3 && in->abs)))
		return NULL;
	if (in->dst < 256 || in->dst - 256u + width > SQK_NV)
		return NULL;
	return fn;
}
