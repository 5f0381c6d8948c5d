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
 * constant (32 or 64), eight lanes at a time, reading VGPR sources in
 * place; a group's sources are read before its results are written (a
 * destination may be one of the sources).
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

/* An executor: its own function (bound by address, never inlined into
 * another); clang refuses noinline beside target_clones, whose functions
 * it never inlines anyway. */
#if defined(__clang__)
#define HOT static SQK_LANE_CLONES int
#else
#define HOT static SQK_LANE_CLONES __attribute__((noinline)) int
#endif
#define ALWAYS static inline __attribute__((always_inline))

/* Eight lanes at a time: GCC/clang vector extensions (AVX2 registers in
 * the AVX2 clone, SSE2 pairs otherwise). A group's sources are loaded
 * before its results are stored: registers overlapping in any way meet
 * only in the same lanes, so a destination may be any of the sources. */
#define V 8
typedef uint32_t vu __attribute__((vector_size(V * 4)));
typedef int32_t vi __attribute__((vector_size(V * 4)));
/* The vectors pass only between always-inlined functions of this file, so
 * their calling convention does not matter. */
#pragma GCC diagnostic ignored "-Wpsabi"

ALWAYS vu ld(const uint32_t *p)
{
	vu x;

	memcpy(&x, p, sizeof(x));
	return x;
}

ALWAYS void st(uint32_t *p, vu x)
{
	memcpy(p, &x, sizeof(x));
}

ALWAYS vu splat(uint32_t k)
{
	vu r = { 0 };

	/* lane 0 to every lane (GCC 12 builds {k, k, ...} lane by lane) */
	r[0] = k;
#ifdef __clang__
	return __builtin_shufflevector(r, r, 0, 0, 0, 0, 0, 0, 0, 0);
#else
	return __builtin_shuffle(r, (vu){ 0 });
#endif
}

/* Lanes 0-3 (@hi false) or 4-7 of @x. */
typedef int32_t vi4 __attribute__((vector_size(16)));
ALWAYS vi4 half(vi x, const bool hi)
{
	return hi ? __builtin_shufflevector(x, x, 4, 5, 6, 7)
		  : __builtin_shufflevector(x, x, 0, 1, 2, 3);
}

/* Bit l of the result: lane l of the compare results @r (8 lanes each, 0
 * or -1), two vectors at a time packed to bytes for one movemask. */
ALWAYS uint64_t packv(const vi *r, const unsigned n)
{
	uint64_t m = 0;

#ifdef __SSE2__
	_Pragma("GCC unroll 4") for (unsigned j = 0; j < n / V; j += 2)
	{
		/* halves by shuffles, not through memory: a 16-byte load of
		 * a 32-byte store's upper half stalls store forwarding */
		__m128i h0 = (__m128i)half(r[j], 0), h1 = (__m128i)half(r[j], 1),
			h2 = (__m128i)half(r[j + 1], 0), h3 = (__m128i)half(r[j + 1], 1);

		m |= (uint64_t)(unsigned)_mm_movemask_epi8(
			     _mm_packs_epi16(_mm_packs_epi32(h0, h1), _mm_packs_epi32(h2, h3)))
		     << j * V;
	}
#else
	for (unsigned l = 0; l < n; l++)
		m |= (uint64_t)(r[l / V][l % V] & 1) << l;
#endif
	return m;
}

/* Lanes @i..@i+7 of the lane mask @m as -1 (on) or 0: in the AVX2 clone
 * one AND and one compare with constants (after unrolling). */
ALWAYS vi lanes_on(uint64_t m, unsigned i)
{
	const vu bit = (vu){ 1, 2, 4, 8, 16, 32, 64, 128 } << (i % 32);

	return (vi)((splat((uint32_t)(m >> (i & 32))) & bit) == bit);
}

/* Each group of eight lanes in @n lanes (unrolled: @n is a constant). */
#define EACH8(i, n) _Pragma("GCC unroll 8") for (unsigned i = 0; i < (n); i += V)

/* Whether the wave runs the hot form now: every lane on, no index mode. */
ALWAYS bool hot_ok(const struct sqk_wave *w)
{
	return !w->gpr_idx && sqk_exec(w) == sqk_mask(w);
}

/* The lanes of 32-bit source @code: a VGPR column in place, a scalar
 * spread into @buf. */
ALWAYS const uint32_t *src32(struct sqk_wave *w, const struct sqk_insn *in, unsigned code,
			     uint32_t *buf, const unsigned n)
{
	vu k;

	if (code >= 256)
		return w->v + (size_t)(code - 256) * 64;
	k = splat((uint32_t)sqk_sread(w, in, code, false, false));
	EACH8(i, n)
	st(buf + i, k);
	return buf;
}

/* The same for a 64-bit source: lane l's low dword at [l], its high dword
 * at [l + 64] (@buf: 128 dwords). */
ALWAYS const uint32_t *src64(struct sqk_wave *w, const struct sqk_insn *in, unsigned code,
			     uint32_t *buf, const unsigned n)
{
	uint64_t k;

	if (code >= 256)
		return w->v + (size_t)(code - 256) * 64;
	k = sqk_sread(w, in, code, true, false);
	EACH8(i, n)
	{
		st(buf + i, splat((uint32_t)k));
		st(buf + 64 + i, splat((uint32_t)(k >> 32)));
	}
	return buf;
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

/* The carry-out lanes to VCC (VOP2) or VOP3b's SGPR destination, as
 * sqk_swrite() writes them: the executors that compute a carry-out are
 * bound only to a destination below 128 that is not gfx10's null (the
 * others go nowhere: the _nc executors). */
ALWAYS void carry_out(struct sqk_wave *w, const struct sqk_insn *in, uint64_t cy, const unsigned n)
{
	unsigned sd = in->enc == SQK_VOP3 ? in->sdst : SQK_VCC;

	w->s[sd] = (uint32_t)cy;
	if (n == 64 && sd < 127)
		w->s[sd + 1] = (uint32_t)(cy >> 32);
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
	uint32_t *d = dst(w, in);

	if (in->src[0] >= 256) {
		const uint32_t *a = w->v + (size_t)(in->src[0] - 256) * 64;

		EACH8(i, n)
		st(d + i, ld(a + i));
	} else {
		vu k = splat((uint32_t)sqk_sread(w, in, in->src[0], false, false));

		EACH8(i, n)
		st(d + i, k);
	}
}

/* Two 32-bit sources, one 32-bit result per lane (x, y: eight lanes). */
#define BIN_OP(name, e)                                              \
	HOT_OP(name)                                                 \
	{                                                            \
		uint32_t ab[64], bb[64], *d;                         \
		const uint32_t *a = src32(w, in, in->src[0], ab, n), \
			       *b = src32(w, in, in->src[1], bb, n); \
                                                                     \
		d = dst(w, in);                                      \
		EACH8(i, n)                                          \
		{                                                    \
			vu x = ld(a + i), y = ld(b + i);             \
			st(d + i, (e));                              \
		}                                                    \
	}
BIN_OP(add, x + y)
BIN_OP(sub, x - y)
BIN_OP(subrev, y - x)
BIN_OP(and, x &y)
BIN_OP(or, x | y)
BIN_OP(xor, x ^ y)
BIN_OP(lshlrev, y << (x & 31))
BIN_OP(lshrrev, y >> (x & 31))
BIN_OP(ashrrev, (vu)((vi)y >> (vi)(x & 31)))
BIN_OP(mul_lo, x *y)
BIN_OP(mul_u24, (x & 0xffffff) * (y & 0xffffff))

/* Three 32-bit sources (VOP3). */
#define TER_OP(name, e)                                                 \
	HOT_OP(name)                                                    \
	{                                                               \
		uint32_t ab[64], bb[64], cb[64], *d;                    \
		const uint32_t *a = src32(w, in, in->src[0], ab, n),    \
			       *b = src32(w, in, in->src[1], bb, n),    \
			       *c = src32(w, in, in->src[2], cb, n);    \
                                                                        \
		d = dst(w, in);                                         \
		EACH8(i, n)                                             \
		{                                                       \
			vu x = ld(a + i), y = ld(b + i), z = ld(c + i); \
			st(d + i, (e));                                 \
		}                                                       \
	}
TER_OP(add3, x + y + z)
TER_OP(mad_u24, (x & 0xffffff) * (y & 0xffffff) + z)
TER_OP(mad_u32, x *y + z)
TER_OP(lshl_add, (x << (y & 31)) + z)

HOT_OP(cndmask)
{
	uint32_t ab[64], bb[64], *d;
	uint64_t m = mask_in(w, in);
	const uint32_t *a = src32(w, in, in->src[0], ab, n), *b = src32(w, in, in->src[1], bb, n);

	d = dst(w, in);
	EACH8(i, n)
	{
		vu on = (vu)lanes_on(m, i);

		st(d + i, (ld(b + i) & on) | (ld(a + i) & ~on));
	}
}

/* 32-bit adds with a carry-out c (@ci: and a carry-in z, -1 or 0); x
 * loaded by @lx (a scalar source 0, VOP2's usual form, stays in a
 * register: loop-invariant terms of c are computed once). */
#define CARRY_LOOP(ci, e, c, lx)                                                      \
	EACH8(i, n)                                                                   \
	{                                                                             \
		vu x = (lx), y = ld(b + i), z = (ci) ? (vu)lanes_on(k, i) : splat(0); \
		(void)z;                                                              \
		st(d + i, (e));                                                       \
		if (cyo)                                                              \
			r[i / V] = (c);                                               \
	}
#define CARRY_OP(name, ci, e, c)                                                             \
	HOT_OP_CY(name)                                                                      \
	{                                                                                    \
		uint32_t bb[64], *d;                                                         \
		uint64_t k = (ci) ? mask_in(w, in) : 0;                                      \
		vi r[8];                                                                     \
		const uint32_t *b = src32(w, in, in->src[1], bb, n);                         \
                                                                                             \
		d = dst(w, in);                                                              \
		if (in->src[0] < 256) {                                                      \
			vu xk = splat((uint32_t)sqk_sread(w, in, in->src[0], false, false)); \
                                                                                             \
			CARRY_LOOP(ci, e, c, xk);                                            \
		} else {                                                                     \
			const uint32_t *a = w->v + (size_t)(in->src[0] - 256) * 64;          \
                                                                                             \
			CARRY_LOOP(ci, e, c, ld(a + i));                                     \
		}                                                                            \
		if (cyo)                                                                     \
			carry_out(w, in, packv(r, n), n);                                    \
	}
CARRY_OP(add_co, 0, x + y, x + y < x)
CARRY_OP(sub_co, 0, x - y, y > x)
CARRY_OP(subrev_co, 0, y - x, x > y)
CARRY_OP(addc, 1, x + y - z, (x + y < x) | (x + y - z < x + y))

HOT_OP(lshlrev64)
{
	uint32_t ab[64], sb[128], *d;
	const uint32_t *a, *s = src64(w, in, in->src[1], sb, n);

	d = dst(w, in);
	if (in->src[0] < 256) { /* one shift for every lane */
		uint32_t k = (uint32_t)sqk_sread(w, in, in->src[0], false, false);
		unsigned sh = k & 63;

		EACH8(i, n)
		{
			vu lo = ld(s + i), hi = ld(s + 64 + i);

			if (sh >= 32)
				hi = lo << (sh - 32), lo = (vu){ 0 };
			else if (sh)
				hi = hi << sh | lo >> (32 - sh), lo = lo << sh;
			st(d + i, lo);
			st(d + 64 + i, hi);
		}
		return;
	}
	a = src32(w, in, in->src[0], ab, n);
	for (unsigned l = 0; l < n; l++) {
		uint64_t v = (s[l] | (uint64_t)s[l + 64] << 32) << (a[l] & 63);

		d[l] = (uint32_t)v;
		d[l + 64] = (uint32_t)(v >> 32);
	}
}

/* gfx940 v_lshl_add_u64: (S0.u64 << S1[2:0]) + S2.u64 (lane by lane: each
 * lane's sources read before its result is written) */
HOT_OP(lshl_add64)
{
	uint32_t ab[128], bb[64], cb[128], *d;
	const uint32_t *a = src64(w, in, in->src[0], ab, n), *b = src32(w, in, in->src[1], bb, n),
		       *c = src64(w, in, in->src[2], cb, n);

	d = dst(w, in);
	for (unsigned l = 0; l < n; l++) {
		uint64_t r = ((a[l] | (uint64_t)a[l + 64] << 32) << (b[l] & 7)) +
			     (c[l] | (uint64_t)c[l + 64] << 32);

		d[l] = (uint32_t)r;
		d[l + 64] = (uint32_t)(r >> 32);
	}
}

HOT_OP_CY(mad_u64)
{
	uint32_t ab[64], bb[64], cb[128], *d;
	const uint32_t *a, *b, *c = src64(w, in, in->src[2], cb, n);
	uint64_t cy = 0;
	vi cv[8];

	d = dst(w, in);
	if (in->src[0] < 256 && in->src[1] < 256) { /* one product for every lane */
		uint32_t ka = (uint32_t)sqk_sread(w, in, in->src[0], false, false),
			 kb = (uint32_t)sqk_sread(w, in, in->src[1], false, false);
		uint64_t p = (uint64_t)ka * kb;
		vu plo = splat((uint32_t)p), phi = splat((uint32_t)(p >> 32));

		/* the 64-bit sum as two 32-bit adds; its carry-out as addc's */
		EACH8(i, n)
		{
			vu lo = ld(c + i) + plo, t = ld(c + 64 + i) + phi;
			vi c0 = lo < plo;
			vu hi = t - (vu)c0;

			st(d + i, lo);
			st(d + 64 + i, hi);
			if (cyo)
				cv[i / V] = (t < phi) | (hi < t);
		}
		if (cyo)
			carry_out(w, in, packv(cv, n), n);
		return;
	}
	a = src32(w, in, in->src[0], ab, n);
	b = src32(w, in, in->src[1], bb, n);
	for (unsigned l = 0; l < n; l++) {
		uint64_t p = (uint64_t)a[l] * b[l], r = p + (c[l] | (uint64_t)c[l + 64] << 32);

		d[l] = (uint32_t)r;
		d[l + 64] = (uint32_t)(r >> 32);
		if (cyo)
			cy |= (uint64_t)(r < p) << l;
	}
	if (cyo)
		carry_out(w, in, cy, n);
}

/* An integer compare's condition (F, LT, EQ, LE, GT, NE, GE, T) as a test
 * of the operands, swapped (@sw) or not, for less (or equal: @eq), the
 * lanes' bits inverted or not (@inv); F and T: false, *@bits their lanes'
 * bits (@m: the wave's lanes). */
ALWAYS bool cmp_form(unsigned cond, uint64_t m, bool *sw, bool *eq, bool *inv, uint64_t *bits)
{
	*sw = *eq = *inv = false;
	switch (cond) {
	case 1: /* a < b */
		return true;
	case 2: /* a == b */
		*eq = true;
		return true;
	case 3: /* a <= b: !(b < a) */
		*sw = *inv = true;
		return true;
	case 4: /* a > b: b < a */
		*sw = true;
		return true;
	case 5: /* a != b */
		*eq = *inv = true;
		return true;
	case 6: /* a >= b: !(a < b) */
		*inv = true;
		return true;
	default:
		*bits = cond == 7 ? m : 0;
		return false;
	}
}

/* A compare's lane bits to its SGPR destination @sd (VCC for VOPC; not
 * a v_cmpx on RDNA) and, for a v_cmpx (@x), to EXEC. */
static inline void cmp_out(struct sqk_wave *w, unsigned sd, bool x, uint64_t bits, unsigned n)
{
	bool gfx10 = w->r->f->gfx10;

	/* as sqk_swrite(): gfx10's null and codes past the SGPRs go nowhere */
	if (sd < 128 && !(x && gfx10) && !(sd == SQK_NULL10 && gfx10)) {
		w->s[sd] = (uint32_t)bits;
		if (n == 64 && sd < 127)
			w->s[sd + 1] = (uint32_t)(bits >> 32);
	}
	if (x)
		sqk_set_mask(w, SQK_EXEC, bits);
}

/* 32-bit integer compares: the lanes' bits to VCC (VOPC) or the VOP3 SGPR
 * destination; v_cmpx to EXEC too (RDNA: EXEC only, as exec_cmp() in
 * sqk_valu.c). Unsigned with the sign bits flipped: signed compares. */
HOT_OP(cmp)
{
	bool x = in->op >= K_v_cmpx_f_f32, sw, eq, inv;
	unsigned k = in->op - K_v_cmp_f_i32 - (x ? CMP_BLOCK : 0), cond = k % 8,
		 sd = in->enc == SQK_VOP3 ? in->dst - 256u : in->dst;
	uint64_t m = n == 64 ? ~0ull : 0xffffffffull, bits = 0;
	vi r[8];
	uint32_t ab[64], bb[64];
	const uint32_t *a = src32(w, in, in->src[0], ab, n), *b = src32(w, in, in->src[1], bb, n);
	vu f = splat(0x80000000u); /* unsigned, as signed after the flip */

	if (k < 8) /* signed */
		f = splat(0);
	if (cmp_form(cond, m, &sw, &eq, &inv, &bits)) {
		const uint32_t *p = sw ? b : a, *q = sw ? a : b;

		if (eq) {
			EACH8(i, n)
			{
				r[i / V] = (vi)ld(p + i) == (vi)ld(q + i);
			}
		} else {
			EACH8(i, n)
			{
				r[i / V] = (vi)(ld(p + i) ^ f) < (vi)(ld(q + i) ^ f);
			}
		}
		bits = packv(r, n);
		if (inv)
			bits = ~bits & m;
	}
	cmp_out(w, sd, x, bits, n);
}

/* 64-bit integer compares (i64 then u64 after the 32-bit ones), as above:
 * the high dwords decide unless equal, then the low dwords (unsigned). */
_Static_assert(K_v_cmp_t_u64 == K_v_cmp_f_i32 + 31, "cmp int64 layout");
/* Signed "less" of 64-bit lanes from sign-flipped dwords (ul, uh) and
 * (vl, vh): the high dwords decide unless equal. */
#define LT64(ul, uh, vl, vh) (((uh) < (vh)) | (((uh) == (vh)) & ((ul) < (vl))))

HOT_OP(cmp64)
{
	bool x = in->op >= K_v_cmpx_f_f32, sw, eq, inv;
	unsigned k = in->op - K_v_cmp_f_i32 - (x ? CMP_BLOCK : 0), cond = k % 8,
		 sd = in->enc == SQK_VOP3 ? in->dst - 256u : in->dst;
	uint64_t m = n == 64 ? ~0ull : 0xffffffffull, bits = 0;
	vi r[8];
	vu fl = splat(0x80000000u), fh = fl;

	if (k < 24) /* signed */
		fh = splat(0);
	if (cmp_form(cond, m, &sw, &eq, &inv, &bits)) {
		/* the operands in the order the test takes them */
		unsigned cp = in->src[sw], cq = in->src[!sw];
		uint32_t pb[128], qb[128];

		if (!eq && cq < 256 && cp >= 256) { /* q the same in every lane */
			uint64_t kq = sqk_sread(w, in, cq, true, false);
			const uint32_t *p = w->v + (size_t)(cp - 256) * 64;
			vi vl = (vi)(splat((uint32_t)kq) ^ fl),
			   vh = (vi)(splat((uint32_t)(kq >> 32)) ^ fh);

			EACH8(i, n)
			{
				vi ul = (vi)(ld(p + i) ^ fl), uh = (vi)(ld(p + 64 + i) ^ fh);

				r[i / V] = LT64(ul, uh, vl, vh);
			}
		} else if (!eq && cp < 256 && cq >= 256) { /* p the same in every lane */
			uint64_t kp = sqk_sread(w, in, cp, true, false);
			const uint32_t *q = w->v + (size_t)(cq - 256) * 64;
			vi ul = (vi)(splat((uint32_t)kp) ^ fl),
			   uh = (vi)(splat((uint32_t)(kp >> 32)) ^ fh);

			EACH8(i, n)
			{
				vi xl = (vi)(ld(q + i) ^ fl), xh = (vi)(ld(q + 64 + i) ^ fh);

				r[i / V] = LT64(ul, uh, xl, xh);
			}
		} else {
			const uint32_t *p = src64(w, in, cp, pb, n), *q = src64(w, in, cq, qb, n);

			if (eq) {
				EACH8(i, n)
				{
					vi le = (vi)ld(p + i) == (vi)ld(q + i);

					r[i / V] = le & ((vi)ld(p + 64 + i) == (vi)ld(q + 64 + i));
				}
			} else {
				EACH8(i, n)
				{
					vi ul = (vi)(ld(p + i) ^ fl), vl = (vi)(ld(q + i) ^ fl);
					vi uh = (vi)(ld(p + 64 + i) ^ fh),
					   vh = (vi)(ld(q + 64 + i) ^ fh);

					r[i / V] = LT64(ul, uh, vl, vh);
				}
			}
		}
		bits = packv(r, n);
		if (inv)
			bits = ~bits & m;
	}
	cmp_out(w, sd, x, bits, n);
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
