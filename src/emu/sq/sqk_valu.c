/* SPDX-License-Identifier: MIT */
/*
 * Vector ALU of the kernel interpreter (VOP1, VOP2, VOPC, VOP3, VOP3P, with
 * SDWA and DPP sources). Semantics are our reading of the ISA manuals'
 * instruction descriptions. Integer results are exact; FP32/FP64 use the
 * host's IEEE arithmetic (round to nearest even; the kernel descriptor's
 * FLOAT_DENORM_MODE 0 flushes denormal inputs and outputs). Approximate
 * hardware ops return the correctly rounded value of what they
 * approximate: v_rcp = 1/x, v_rsq = 1/sqrt(x), v_sqrt = sqrt(x), v_exp =
 * exp2(x), v_log = log2(x), v_sin/v_cos = sin/cos(2*pi*x); v_div_scale
 * never scales (VCC 0) and v_div_fixup returns the IEEE quotient's special
 * values (docs/emu-shader-unit.md). f16 results are the exact value (or a
 * sticky bit beside it) rounded once to binary16 in MODE's f64/f16
 * rounding mode, with MODE's f64/f16 denormal flush (f16_round(), WH()).
 */
#include <fenv.h>
#include <math.h>
#include <pthread.h>

#include "emu/sq/sqk_exec.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct vsrc {
	const uint32_t *v; /* VGPR column (v[l], next register at v[l + 64]) */
	const uint32_t *p; /* the 32-bit value of each lane: v, or k32 in every lane */
	uint32_t k32;
	uint64_t k64;
};

struct vctx {
	struct sqk_wave *w;
	const struct sqk_insn *in;
	struct vsrc s[3];
	uint8_t abs, neg;
	bool clamp;
	uint8_t omod;
	bool ftz32, ftz64;	  /* ftz64: f64 and f16 (MODE[7:6]) */
	uint8_t opsel;		  /* VOP3 op_sel of 16-bit operands: [2:0] sources, [3] dst */
	uint8_t rm16;		  /* MODE[3:2]: f64 and f16 rounding */
	uint32_t t0[128], t1[64]; /* DPP / SDWA source copies */
	uint32_t bc[3][64];	  /* scalar sources, one copy per lane */
	uint64_t out[64];
	uint64_t bits;	/* VOPC / carry-out mask */
	uint8_t cy[64]; /* the same, a byte (0 or 1) per lane */
	uint8_t ci[64]; /* carry-in / condition lanes, a byte per lane */
};

static bool f64src[K_COUNT];
/* Sources (bit i) that are f16: an inline float constant is binary16
 * there. A 16-bit integer operand reads the f32 constant (its low half),
 * as LLVM's code emitter encodes them (AMDGPUMCCodeEmitter.cpp,
 * getLit16IntEncoding() is getLit32Encoding()). */
static uint8_t src16[K_COUNT];
/* Inline float constants 240-248 as binary16 (0.5, -0.5, 1, -1, 2, -2,
 * 4, -4, 1/(2*pi)): a 16-bit operand's value, zero-extended. */
static const uint16_t fc16[9] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
				  0xc000, 0x4400, 0xc400, 0x3118 };
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_f64(void)
{
	for (unsigned i = 1; i < K_COUNT; i++) {
		const char *n = sqk_op_name(i);

		f64src[i] = strstr(n, "_f64") && strncmp(n, "v_cvt_f64_", 10) != 0;
		{ /* f16 sources: the type of the last suffix is theirs */
			const char *t = strrchr(n, '_');

			if (t && strcmp(t, "_f16") == 0 && n[0] == 'v')
				src16[i] = 7;
			if (i == K_v_dot2_f32_f16)
				src16[i] = 3;
			if (i >= K_v_mad_mix_f32 && i <= K_v_fma_mixhi_f16)
				src16[i] = 0; /* per source: MIXF() */
		}
	}
}

static inline __attribute__((always_inline)) uint32_t U(const struct vctx *c, int i, unsigned l)
{
	return c->s[i].p[l];
}

static inline __attribute__((always_inline)) uint64_t U64(const struct vctx *c, int i, unsigned l)
{
	return c->s[i].v ? (c->s[i].v[l] | (uint64_t)c->s[i].v[l + 64] << 32) : c->s[i].k64;
}

/* Denormal flush, abs and neg on the bits: a zero exponent field is a
 * zero or a denormal, either of which becomes the signed zero. */
static inline __attribute__((always_inline)) float F(const struct vctx *c, int i, unsigned l)
{
	uint32_t u = U(c, i, l);

	if (c->ftz32 && !(u & 0x7f800000u))
		u &= 0x80000000u;
	if (c->abs >> i & 1)
		u &= 0x7fffffffu;
	if (c->neg >> i & 1)
		u ^= 0x80000000u;
	return sqk_f32(u);
}

static inline __attribute__((always_inline)) double D(const struct vctx *c, int i, unsigned l)
{
	uint64_t u = U64(c, i, l);

	if (c->ftz64 && !(u & 0x7ff0000000000000ull))
		u &= 0x8000000000000000ull;
	if (c->abs >> i & 1)
		u &= 0x7fffffffffffffffull;
	if (c->neg >> i & 1)
		u ^= 0x8000000000000000ull;
	return sqk_f64(u);
}

/* 16-bit operand i: the low half, or the high one where VOP3 op_sel picks
 * it. */
static inline __attribute__((always_inline)) uint32_t H(const struct vctx *c, int i, unsigned l)
{
	uint32_t v = U(c, i, l);

	return (c->opsel >> i & 1) ? v >> 16 : v & 0xffff;
}

/* An f16 operand as a double (exact): denormal flush (MODE[7:6] 0), abs and
 * neg on its bits. Defined below the conversions. */
static inline double HF(const struct vctx *c, int i, unsigned l);

static inline __attribute__((always_inline)) uint64_t WF(const struct vctx *c, float f)
{
	if (c->omod == 1)
		f *= 2.0f;
	else if (c->omod == 2)
		f *= 4.0f;
	else if (c->omod == 3)
		f *= 0.5f;
	if (c->clamp)
		f = isnan(f) ? 0.0f : fminf(fmaxf(f, 0.0f), 1.0f);
	{
		uint32_t u = sqk_u32(f);

		if (c->ftz32 && !(u & 0x7f800000u))
			u &= 0x80000000u;
		return u;
	}
}

static inline __attribute__((always_inline)) uint64_t WD(const struct vctx *c, double f)
{
	if (c->omod == 1)
		f *= 2.0;
	else if (c->omod == 2)
		f *= 4.0;
	else if (c->omod == 3)
		f *= 0.5;
	if (c->clamp)
		f = isnan(f) ? 0.0 : fmin(fmax(f, 0.0), 1.0);
	{
		uint64_t u = sqk_u64(f);

		if (c->ftz64 && !(u & 0x7ff0000000000000ull))
			u &= 0x8000000000000000ull;
		return u;
	}
}

/* f32 <-> f16 (IEEE binary16), round to nearest even or toward zero. */
static uint16_t f32_to_f16(float f, bool rtz)
{
	uint32_t u = sqk_u32(f), sign = u >> 16 & 0x8000, mant = u & 0x7fffff;
	int e = (int)(u >> 23 & 0xff);

	if (e == 255)
		return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
	e = e - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | (rtz ? 0x7bff : 0x7c00));
	if (e <= 0) {
		uint32_t m, rem, half;
		unsigned sh;

		if (e < -10)
			return (uint16_t)sign;
		mant |= 0x800000;
		sh = (unsigned)(14 - e);
		m = mant >> sh;
		rem = mant & ((1u << sh) - 1);
		half = 1u << (sh - 1);
		if (!rtz && (rem > half || (rem == half && (m & 1))))
			m++;
		return (uint16_t)(sign | m);
	}
	{
		uint32_t m = mant >> 13, rem = mant & 0x1fff, r = sign | (uint32_t)e << 10 | m;

		if (!rtz && (rem > 0x1000 || (rem == 0x1000 && (m & 1))))
			r++;
		return (uint16_t)r;
	}
}

static float f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = h >> 10 & 0x1f, m = h & 0x3ff;

	if (e == 31)
		return sqk_f32(sign | 0x7f800000 | m << 13);
	if (e == 0) {
		float f = ldexpf((float)m, -24);

		return sign ? -f : f;
	}
	return sqk_f32(sign | (e + 112) << 23 | m << 13);
}

/* A double rounded to IEEE binary16 in MODE rounding mode @rm (MODE[3:2]:
 * 0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero). @dir says
 * where the exact value lies when @x is not exact: 0 @x is exact, 1 its
 * magnitude is a little larger, -1 a little smaller (a sticky bit: the
 * callers compute exact sums and products, or their error, in double). */
static uint16_t f16_round(double x, int dir, unsigned rm)
{
	uint64_t u = sqk_u64(x), mant = u & 0xfffffffffffffull, q, rem, half;
	uint32_t sign = (uint32_t)(u >> 48) & 0x8000, base;
	int e = (int)(u >> 52 & 0x7ff), e16;
	unsigned sh;
	bool up, inexact, gt, tie;

	if (e == 0x7ff) /* inf; NaN quieted, its payload's top bits kept */
		return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 | (uint32_t)(mant >> 42) : 0));
	if (e == 0 && !mant && !dir)
		return (uint16_t)sign;
	if (e == 0) /* double denormals: far below binary16's range */
		e = 1;
	else
		mant |= 1ull << 52;
	e16 = e - 1023 + 15;
	if (e16 >= 31) { /* overflow: inf, or the largest finite value */
		bool away = rm == 0 || (rm == 1 && !sign) || (rm == 2 && sign);

		return (uint16_t)(sign | (away ? 0x7c00 : 0x7bff));
	}
	if (e16 >= 1) {
		sh = 42;
		base = (uint32_t)(e16 - 1) << 10;
	} else {
		sh = (unsigned)(42 + 1 - e16);
		base = 0;
	}
	if (sh >= 64) {
		q = 0, rem = mant ? 1 : 0, half = 2; /* below half the least denormal */
		if (!rem && dir)
			rem = 1, dir = 0;
	} else {
		q = mant >> sh;
		rem = mant & ((1ull << sh) - 1);
		half = 1ull << (sh - 1);
	}
	if (!rem && dir < 0) { /* just below q * 2^sh */
		q -= 1;
		rem = half + 1;
		dir = 0;
	}
	inexact = rem || dir;
	gt = rem > half || (rem == half && dir > 0);
	tie = rem == half && !dir;
	switch (rm) {
	case 0:
		up = gt || (tie && (q & 1));
		break;
	case 1:
		up = inexact && !sign;
		break;
	case 2:
		up = inexact && sign;
		break;
	default:
		up = false;
		break;
	}
	return (uint16_t)(sign | (base + (uint32_t)q + (up ? 1 : 0)));
}

static double f16_to_d(uint16_t h)
{
	return (double)f16_to_f32(h);
}

static inline double HF(const struct vctx *c, int i, unsigned l)
{
	uint32_t u = H(c, i, l);

	if (c->ftz64 && !(u & 0x7c00))
		u &= 0x8000;
	if (c->abs >> i & 1)
		u &= 0x7fff;
	if (c->neg >> i & 1)
		u ^= 0x8000;
	return f16_to_d((uint16_t)u);
}

/* An f16 result: output modifier, rounding (@dir: see f16_round()), clamp
 * to [0, 1], denormal flush. */
static uint32_t WH(const struct vctx *c, double x, int dir)
{
	uint32_t r;

	if (c->omod == 1)
		x *= 2.0;
	else if (c->omod == 2)
		x *= 4.0;
	else if (c->omod == 3)
		x *= 0.5;
	r = f16_round(x, dir, c->rm16);
	if (c->clamp) {
		if ((r & 0x7fff) > 0x7c00 || (r & 0x8000))
			r = 0; /* NaN, negative */
		else if (r > 0x3c00)
			r = 0x3c00;
	}
	if (c->ftz64 && !(r & 0x7c00))
		r &= 0x8000;
	return r;
}

/* 1/a and sqrt(a) of an f16 (as a double) rounded once to f16, the
 * sticky bit from the remainder */
static uint32_t rcp16(const struct vctx *c, double a)
{
	double q = 1.0 / a, r = fma(-q, a, 1.0);

	return WH(c, q, (r == 0 || isnan(r) || isinf(q)) ? 0 : r > 0 ? 1 : -1);
}

static uint32_t sqrt16(const struct vctx *c, double a)
{
	double q = sqrt(a), r = fma(-q, q, a);

	return WH(c, q, (r == 0 || isnan(r) || isinf(q)) ? 0 : r > 0 ? 1 : -1);
}

/* The rounding error of s = a + b in double (TwoSum): a + b - s, exact. */
static double twosum_err(double a, double b, double s)
{
	double bb = s - a;

	return isinf(s) || isnan(s) ? 0 : (a - (s - bb)) + (b - bb);
}

/* Sticky direction of a + b (rounded to s in double): the sign of the
 * error relative to s's magnitude (TwoSum, exact). */
static int sum_dir(double a, double b, double s)
{
	double bb = s - a, err = (a - (s - bb)) + (b - bb);

	if (err == 0 || isnan(err) || isinf(s))
		return 0;
	return (err > 0) == (s > 0) ? 1 : -1;
}

/* a * b + c of f16 (or f32) values, fused, rounded once to f16. */
static uint32_t fma16(const struct vctx *c, double a, double b, double z)
{
	double p = a * b, s = p + z; /* the product is exact (at most 48 bits) */

	return WH(c, s, sum_dir(p, z, s));
}

/* 2^x of an f16 (as a double): past 2^64 every binary16 rounding is the
 * same, and the double would overflow where the f16 result must not (its
 * largest finite value under round toward zero). */
static double exp2_16(double x)
{
	return exp2(x > 64 ? 64 : x);
}

/* sin(2*pi*x) and cos(2*pi*x) of an f16 (exact in double): the argument
 * reduced exactly to [-1/2, 1/2] first; the exact zeros are +0 (sin(+-0)
 * keeps the sign). */
static double sin2pi(double x)
{
	double r = x - nearbyint(x);

	if (x == 0)
		return x;
	if (r == 0 || fabs(r) == 0.5)
		return isnan(r) ? NAN : 0.0;
	return sin(6.283185307179586 * r);
}

static double cos2pi(double x)
{
	double r = x - nearbyint(x);

	if (fabs(r) == 0.25)
		return 0.0;
	return cos(6.283185307179586 * r);
}

/*
 * V_MIN_* / V_MAX_* before RDNA4's minimumNumber, as the RDNA3 and CDNA3
 * ISA manuals' pseudo-code of V_MAX_F32 has it (V_MIN_F32 the mirror, the
 * f64 forms the same; the 3-operand forms apply it pairwise): with
 * MODE.IEEE, a signaling S0 gives S0 made quiet, else a signaling S1 S1
 * made quiet; else a NaN source gives the other; +0 is above -0 ("+0.0 >
 * -0.0, differs from IEEE"); else S0 >= S1 ? S0 : S1 (S0 > S1 without
 * MODE.IEEE, the same value). The GCN3, Vega, CDNA1/2 and RDNA1/2
 * manuals give only max(S0, S1) and the IEEE-mode NaN rules: the zero
 * order there is UNVERIFIED, the same chosen so that no family's answer
 * depends on the host's libm (C's fmax may return either zero). The
 * invalid-operation flag (TRAPSTS) is not modelled.
 */
static float mmf(bool max, bool ieee, float a, float b)
{
	uint32_t ua = sqk_u32(a), ub = sqk_u32(b);

	if (ieee && isnan(a) && !(ua & 0x400000u))
		return sqk_f32(ua | 0x400000u);
	if (ieee && isnan(b) && !(ub & 0x400000u))
		return sqk_f32(ub | 0x400000u);
	if (isnan(a) || isnan(b))
		return isnan(a) ? b : a;
	if (a == 0 && b == 0 && signbit(a) != signbit(b))
		return !signbit(a) == max ? a : b;
	return (max ? a >= b : a <= b) ? a : b;
}

static double mmd(bool max, bool ieee, double a, double b)
{
	uint64_t ua = sqk_u64(a), ub = sqk_u64(b);

	if (ieee && isnan(a) && !(ua >> 51 & 1))
		return sqk_f64(ua | 1ull << 51);
	if (ieee && isnan(b) && !(ub >> 51 & 1))
		return sqk_f64(ub | 1ull << 51);
	if (isnan(a) || isnan(b))
		return isnan(a) ? b : a;
	if (a == 0 && b == 0 && signbit(a) != signbit(b))
		return !signbit(a) == max ? a : b;
	return (max ? a >= b : a <= b) ? a : b;
}

/* MODE.IEEE (MODE[9]) */
#define IEEE(c) ((c)->w->mode >> 9 & 1)

/*
 * IEEE 754-2019 maximumNumber / minimumNumber: RDNA4's V_MAX_NUM_* and
 * V_MIN_NUM_* (f16, f32, f64; the 3-operand and packed forms apply it
 * pairwise). "RDNA4 Instruction Set Architecture", VOP2 / VOP3 opcodes,
 * V_MAX_NUM_F32: with both sources NaN the result is S0 made quiet; with
 * one NaN (quiet or signaling) the other source; else the larger, +0
 * above -0. LLVM 22 selects them for llvm.maxnum / llvm.maximumnum on
 * gfx12, after quieting each source with v_max_num x, x (its
 * fcanonicalize; llc -mcpu=gfx1200 on test/kernels/sqk_half.ll); LLVM's
 * gfx12 assembler takes the old names as aliases of them
 * (llvm/test/MC/AMDGPU/gfx12_asm_vop2_aliases.s: v_max_f32 is
 * v_max_num_f32_e32). The two-NaN result as S0 quieted: UNVERIFIED
 * beyond the manual's pseudo-code (any quiet NaN is what LLVM relies on).
 * Denormals: the sources are flushed under MODE as for every other VALU
 * float operation here, which LLVM's canonicalize through v_max_num
 * relies on; whether the hardware flushes them here: UNVERIFIED.
 * A signaling NaN's invalid-operation flag (TRAPSTS) is not modelled.
 * The f16 and f32 operands arrive here converted to double, which
 * quiets a signaling NaN and keeps its payload; an f64 one is quieted
 * here.
 */
static double nan_quiet(double a)
{
	return sqk_f64(sqk_u64(a) | 1ull << 51);
}

/* a NaN among the sources: true, *r the result */
static bool num_nan(double a, double b, double *r)
{
	if (!isnan(a) && !isnan(b))
		return false;
	*r = isnan(a) ? (isnan(b) ? nan_quiet(a) : b) : a;
	return true;
}

/* +0 and -0 (or equal values): the one with the sign @neg */
static double num_zero(double a, double b, bool neg)
{
	return !signbit(a) == !neg ? a : b;
}

static double maxnum19(double a, double b)
{
	double r;

	if (num_nan(a, b, &r))
		return r;
	return a == b ? num_zero(a, b, false) : a > b ? a : b;
}

static double minnum19(double a, double b)
{
	double r;

	if (num_nan(a, b, &r))
		return r;
	return a == b ? num_zero(a, b, true) : a < b ? a : b;
}

/* An accumulator read from the destination (v_mac_f16, v_fmac_f16,
 * v_pk_fmac_f16, v_dot2c_f32_f16): an input, flushed as one. */
static double acc16(const struct vctx *c, uint32_t u)
{
	u &= 0xffff;
	if (c->ftz64 && !(u & 0x7c00))
		u &= 0x8000;
	return f16_to_d((uint16_t)u);
}

static uint32_t acc32(const struct vctx *c, uint32_t u)
{
	if (c->ftz32 && !(u & 0x7f800000u))
		u &= 0x80000000u;
	return u;
}

/* v_cmp_class with an f16 source: S1's bit mask over the class of S0. */
static bool fclass16(uint32_t h, uint32_t mask)
{
	unsigned e = h >> 10 & 0x1f, m = h & 0x3ff, neg = h >> 15 & 1, k;

	if (e == 31 && m)
		k = (m & 0x200) ? 1 : 0; /* quiet, signaling NaN */
	else if (e == 31)
		k = neg ? 2 : 9;
	else if (e == 0 && !m)
		k = neg ? 5 : 6;
	else if (e == 0)
		k = neg ? 4 : 7;
	else
		k = neg ? 3 : 8;
	return mask >> k & 1;
}

/* f32 / f16 to a 16-bit normalized integer (v_cvt_*norm*): clamped to
 * [-1, 1] (snorm, times 32767) or [0, 1] (unorm, times 65535), rounded to
 * nearest even; NaN gives 0. The ISA names the conversion without its
 * rounding: nearest even is our choice (unverified on hardware). */
static uint32_t cvt_norm16(double x, bool sg)
{
	if (isnan(x))
		return 0;
	if (sg)
		return (uint32_t)(int32_t)nearbyint(fmin(fmax(x, -1.0), 1.0) * 32767.0) & 0xffff;
	return (uint32_t)nearbyint(fmin(fmax(x, 0.0), 1.0) * 65535.0);
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int32_t sext32(uint32_t v, unsigned bits)
{
	return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

/* Half @h (0 low, 1 high) of packed operand i: VOP3P takes the half
 * op_sel (low result) or op_sel_hi (high result) picks; VOP2 (v_pk_fmac,
 * v_dot*c) the same half. */
static inline uint32_t PH(const struct vctx *c, int i, unsigned l, unsigned h)
{
	const struct sqk_insn *in = c->in;
	unsigned sel = in->enc == SQK_VOP3P ? ((h ? in->opsel_hi : in->opsel) >> i & 1) : h;

	return sel ? U(c, i, l) >> 16 : U(c, i, l) & 0xffff;
}

/* The same as an f16: flush, neg (VOP3P: neg for the low result, neg_hi
 * for the high one). */
static inline double PF(const struct vctx *c, int i, unsigned l, unsigned h)
{
	const struct sqk_insn *in = c->in;
	uint32_t u = PH(c, i, l, h);
	unsigned ng =
		in->enc == SQK_VOP3P ? ((h ? in->neg_hi : in->neg) >> i & 1) : (c->neg >> i & 1);

	if (c->ftz64 && !(u & 0x7c00))
		u &= 0x8000;
	if (in->enc != SQK_VOP3P && (c->abs >> i & 1))
		u &= 0x7fff;
	return f16_to_d((uint16_t)(ng ? u ^ 0x8000 : u));
}

/* A source of v_mad_mix / v_fma_mix: op_sel_hi bit i set, the f16 half
 * op_sel picks (an inline float constant as binary16), else the f32; abs
 * (the neg_hi field), then neg. */
static inline double MIXF(const struct vctx *c, int i, unsigned l)
{
	const struct sqk_insn *in = c->in;
	double v;

	if (in->opsel_hi >> i & 1) {
		uint32_t u =
			(in->src[i] >= 240 && in->src[i] <= 248)
				? fc16[in->src[i] - 240]
				: ((in->opsel >> i & 1) ? U(c, i, l) >> 16 : U(c, i, l) & 0xffff);

		if (c->ftz64 && !(u & 0x7c00))
			u &= 0x8000;
		v = f16_to_d((uint16_t)u);
	} else {
		uint32_t u = U(c, i, l);

		if (c->ftz32 && !(u & 0x7f800000u))
			u &= 0x80000000u;
		v = sqk_f32(u);
	}
	if (in->neg_hi >> i & 1)
		v = fabs(v);
	return (in->neg >> i & 1) ? -v : v;
}

/* A double rounded to f32 (nearest even) knowing where the exact value
 * lies (@dir, see f16_round()): only an exact tie needs it. */
static float f32_round_sticky(double x, int dir)
{
	float f = (float)x;
	double back = f, other;

	if (!dir || x == back || isinf(f) || isnan(f))
		return f;
	other = nextafterf(f, x > back ? INFINITY : -INFINITY);
	if (x - back == other - x) { /* a tie in double: the sticky bit decides */
		bool larger = fabs(other) > fabs(back);

		return (float)((dir > 0) == larger ? other : back);
	}
	return f;
}

static inline __attribute__((always_inline)) bool fcmp(unsigned cond, double a, double b)
{
	bool un = isnan(a) || isnan(b);

	switch (cond) {
	case 0: /* f */
		return false;
	case 1:
		return a < b;
	case 2:
		return a == b;
	case 3:
		return a <= b;
	case 4:
		return a > b;
	case 5: /* lg */
		return !un && a != b;
	case 6:
		return a >= b;
	case 7: /* o */
		return !un;
	case 8: /* u */
		return un;
	case 9: /* nge */
		return !(a >= b);
	case 10: /* nlg */
		return un || a == b;
	case 11:
		return !(a > b);
	case 12:
		return !(a <= b);
	case 13: /* neq */
		return !(a == b);
	case 14:
		return !(a < b);
	default: /* tru */
		return true;
	}
}

/* v_cmp_class: S1 bit mask over the class of S0. */
static bool fclass(double f, uint32_t mask, bool is32, uint64_t bits)
{
	unsigned k;

	if (isnan(f)) {
		bool quiet = is32 ? (bits >> 22 & 1) : (bits >> 51 & 1);

		k = quiet ? 1 : 0;
	} else if (isinf(f)) {
		k = f < 0 ? 2 : 9;
	} else if (f == 0) {
		k = signbit(f) ? 5 : 6;
	} else if (is32 ? fpclassify((float)f) == FP_SUBNORMAL : fpclassify(f) == FP_SUBNORMAL) {
		k = f < 0 ? 4 : 7;
	} else {
		k = f < 0 ? 3 : 8;
	}
	return mask >> k & 1;
}

static uint32_t bfe(uint32_t v, uint32_t off, uint32_t wid, bool sgn)
{
	off &= 31, wid &= 31;
	if (!wid)
		return 0;
	if (off + wid < 32) {
		return sgn ? (uint32_t)((int32_t)(v << (32 - off - wid)) >> (32 - wid))
			   : (v >> off) & ((1u << wid) - 1);
	}
	return sgn ? (uint32_t)((int32_t)v >> off) : v >> off;
}

static uint32_t perm(uint32_t s0, uint32_t s1, uint32_t sel)
{
	uint64_t x = (uint64_t)s0 << 32 | s1;
	uint32_t r = 0;

	for (unsigned i = 0; i < 4; i++) {
		unsigned s = sel >> (8 * i) & 0xff, b;

		if (s >= 13)
			b = 0xff;
		else if (s == 12)
			b = 0;
		else if (s >= 8)
			b = (x >> (16 * (s - 8) + 15) & 1) ? 0xff : 0;
		else
			b = x >> (8 * s) & 0xff;
		r |= b << (8 * i);
	}
	return r;
}

/*
 * V_MED3_F32 as the RDNA3.5 and CDNA4 ISA manuals' pseudo-code has it
 * (VOP3 opcodes 543 and 470): a NaN among the three gives V_MIN3_F32 of
 * them; else V_MAX3_F32 of them is compared with S0 (a float ==: +0
 * equals -0), giving V_MAX_F32(S1, S2), else with S1, giving
 * V_MAX_F32(S0, S2), else V_MAX_F32(S0, S1); V_MAX/V_MIN as mmf(),
 * MODE.IEEE's signaling NaNs included. The other families' manuals were
 * not read for this: the same rule is taken for them (UNVERIFIED), over
 * mmf()'s order, so that no family's answer depends on the host's libm.
 */
static float med3f(bool ieee, float a, float b, float c)
{
	float mx;

	if (isnan(a) || isnan(b) || isnan(c))
		return mmf(false, ieee, mmf(false, ieee, a, b), c);
	mx = mmf(true, ieee, mmf(true, ieee, a, b), c);
	if (mx == a)
		return mmf(true, ieee, b, c);
	if (mx == b)
		return mmf(true, ieee, a, c);
	return mmf(true, ieee, a, b);
}

/*
 * V_MED3_NUM_F32 (RDNA4, GC 12.5: VOP3 opcode 561 in LLVM 22's
 * disassembler): med3f()'s rule with the minimumNumber / maximumNumber
 * operations of V_MIN_NUM_F32 / V_MAX_NUM_F32 (minnum19(), maxnum19()): a
 * NaN among the three gives the minimum of the others (one NaN ignored),
 * else the maximum of the three compared with S0, then S1, picks the
 * maximum of the other two. The RDNA4 manual's pseudo-code for it was not
 * read (UNVERIFIED): the rule is V_MED3_F32's of the RDNA3.5 manual, which
 * is also how LLVM folds llvm.amdgcn.fmed3 (AMDGPUInstCombineIntrinsic.cpp
 * fmed3AMDGCN(): a NaN operand to minnum of the other two, else the max3
 * compared with each source).
 */
static double med3_rule(double a, double b, double c, double (*mn)(double, double),
			double (*mx)(double, double));

static double med3num(double a, double b, double c)
{
	return med3_rule(a, b, c, minnum19, maxnum19);
}

/*
 * IEEE 754-2019 minimum / maximum (RDNA4 ISA V_MINIMUM_F32 / V_MAXIMUM_F32,
 * gfx12; CDNA4 V_MINIMUM3_F32 / V_MAXIMUM3_F32, gfx950; the f16 and f64
 * forms alike): a NaN source gives a NaN (S0's if it is one, else S1's,
 * made quiet; which payload the hardware keeps is UNVERIFIED), -0 below
 * +0, else the smaller or larger. On doubles: an f32 or f16 operand
 * converts exactly (a signaling NaN made quiet, its payload kept), and
 * the result back.
 */
static double minmax754(bool max, double a, double b)
{
	if (isnan(a) || isnan(b))
		return nan_quiet(isnan(a) ? a : b);
	if (a == b)
		return (max ? !signbit(a) : signbit(a)) ? a : b;
	return (max ? a > b : a < b) ? a : b;
}

/* v_med3_f16 (ISA manuals): a NaN operand gives MIN3 of the three (NaNs
 * ignored as v_min's are), else the middle value. */
static double med3d(double a, double b, double c)
{
	return med3_rule(a, b, c, sqk_minz, sqk_maxz);
}

/* The median rule of med3d() and med3num() over their min @mn and max @mx:
 * a NaN among the three gives the min of the three, else the max of the
 * three compared with S0, then S1, picks the max of the other two. */
static double med3_rule(double a, double b, double c, double (*mn)(double, double),
			double (*mx)(double, double))
{
	double m;

	if (isnan(a) || isnan(b) || isnan(c))
		return mn(mn(a, b), c);
	m = mx(mx(a, b), c);
	if (m == a)
		return mx(b, c);
	if (m == b)
		return mx(a, c);
	return mx(a, b);
}

static int32_t med3i(int32_t a, int32_t b, int32_t c)
{
	int32_t lo = a < b ? a : b, hi = a < b ? b : a;

	return c < lo ? lo : c > hi ? hi : c;
}

static uint32_t med3u(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a;

	return c < lo ? lo : c > hi ? hi : c;
}

static int32_t cvt_i32(double f)
{
	if (isnan(f))
		return 0;
	if (f >= 2147483647.0)
		return INT32_MAX;
	if (f <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)f;
}

static uint32_t cvt_u32(double f)
{
	if (isnan(f) || f <= 0)
		return 0;
	if (f >= 4294967295.0)
		return UINT32_MAX;
	return (uint32_t)f;
}

static float fixup32(float q, float den, float num)
{
	if (isnan(num) || isnan(den) || isinf(num) || isinf(den) || den == 0 || num == 0)
		return num / den;
	return q;
}

static double fixup64(double q, double den, double num)
{
	if (isnan(num) || isnan(den) || isinf(num) || isinf(den) || den == 0 || num == 0)
		return num / den;
	return q;
}

/* SDWA operand select: BYTE_0..3, WORD_0..1, DWORD (6). */
static uint32_t sdwa_sel(uint32_t v, unsigned sel, bool sx)
{
	if (sel < 4) {
		v = v >> (8 * sel) & 0xff;
		return sx ? (uint32_t)(int32_t)(int8_t)v : v;
	}
	if (sel < 6) {
		v = v >> (16 * (sel - 4)) & 0xffff;
		return sx ? (uint32_t)(int32_t)(int16_t)v : v;
	}
	return v;
}

/* DPP16 source lane of lane @l, or -1 for an invalid lane (out of the row
 * or wave), -2 for a control the family does not have (LLVM SIDefines.h
 * DppCtrl; AMDGPUModifierSyntax "dpp_ctrl", "dpp16_ctrl" (gfx10: no wave
 * shifts and rotates, no row_bcast; row_share, row_xmask), "dpp32_ctrl"
 * (gfx90a and gfx940: row_newbcast, the lane of the row every lane reads,
 * as row_share); ISA manuals "DPP"). row_bcast:15 in row 0 and
 * row_bcast:31 in rows 0-1 have no source lane: read as invalid lanes
 * (UNVERIFIED; LLVM masks those rows off with row_mask 0xa / 0xc). */
static int dpp_lane(const struct sqk_family *f, unsigned ctl, unsigned l, unsigned n)
{
	unsigned row = l & ~15u, r = l & 15;
	int s;

	if (ctl <= 0xff)
		return (int)((l & ~3u) | (ctl >> (2 * (l & 3)) & 3));
	if (ctl >= 0x101 && ctl <= 0x10f) { /* row_shl */
		s = (int)r + (int)(ctl & 15);
		return s < 16 ? (int)(row + (unsigned)s) : -1;
	}
	if (ctl >= 0x111 && ctl <= 0x11f) { /* row_shr */
		s = (int)r - (int)(ctl & 15);
		return s >= 0 ? (int)(row + (unsigned)s) : -1;
	}
	if (ctl >= 0x121 && ctl <= 0x12f) /* row_ror */
		return (int)(row + ((r + 16 - (ctl & 15)) & 15));
	if (f->gfx10 && ctl >= 0x130 && ctl <= 0x143 && ctl != 0x140 && ctl != 0x141)
		return -2;
	switch (ctl) {
	case 0x130: /* wave_shl1 */
		return l + 1 < n ? (int)l + 1 : -1;
	case 0x134: /* wave_rol1 */
		return (int)((l + 1) % n);
	case 0x138: /* wave_shr1 */
		return l ? (int)l - 1 : -1;
	case 0x13c: /* wave_ror1 */
		return (int)((l + n - 1) % n);
	case 0x140: /* row_mirror */
		return (int)(row + 15 - r);
	case 0x141: /* row_half_mirror */
		return (int)((l & ~7u) + 7 - (l & 7));
	case 0x142: /* row_bcast:15 */
		return row ? (int)row - 1 : -1;
	case 0x143: /* row_bcast:31 */
		return l >= 32 ? 31 : -1;
	default:
		break;
	}
	if (ctl >= 0x150 && ctl <= 0x15f && (f->gfx10 || f->dpp_newbcast))
		return (int)(row + (ctl & 15));	      /* row_share, row_newbcast */
	if (ctl >= 0x160 && ctl <= 0x16f && f->gfx10) /* row_xmask */
		return (int)(row + (r ^ (ctl & 15)));
	return -2;
}

/* VOP3b: an SGPR destination where VOP3a has abs and op_sel. */
static bool is_vop3b(unsigned op)
{
	switch (op) {
	case K_v_add_co_u32:
	case K_v_sub_co_u32:
	case K_v_subrev_co_u32:
	case K_v_addc_co_u32:
	case K_v_subb_co_u32:
	case K_v_subbrev_co_u32:
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

/* VOP3 abs / neg of an untyped 32-bit move (v_cndmask_b32, v_mov_b32):
 * clear / flip bit 31 of sources 0 and 1. */
static void bitmods(struct vctx *c, unsigned n)
{
	for (int i = 0; i < 2; i++) {
		uint32_t clr = (c->abs >> i & 1) ? 0x80000000u : 0,
			 flip = (c->neg >> i & 1) ? 0x80000000u : 0;
		uint32_t *t = i ? c->t1 : c->t0;

		if (!clr && !flip)
			continue;
		if (c->s[i].v) {
			for (unsigned l = 0; l < n; l++)
				t[l] = (c->s[i].v[l] & ~clr) ^ flip;
			c->s[i].v = t;
		} else {
			c->s[i].k32 = (c->s[i].k32 & ~clr) ^ flip;
		}
	}
}

/*
 * Whether source @i of @op is 64 bits wide, where gfx1250's 64-bit literal
 * (SQK_LIT64) may stand: the f64 sources, the 64-bit integer compares and
 * the 64-bit integer sources named below (the ISA's operand types, LLVM
 * VOP1/VOP2/VOP3Instructions.td VOP_I64_* / VOP_F64_* profiles). A 64-bit
 * literal anywhere else is refused.
 */
static bool src_is_64(unsigned op, int i)
{
	const char *n = sqk_op_name(op);

	switch (op) {
	case K_v_mov_b64:
	case K_v_add_nc_u64:
	case K_v_sub_nc_u64:
	case K_v_mul_u64:
	case K_v_max_i64:
	case K_v_min_i64:
	case K_v_max_u64:
	case K_v_min_u64:
		return i < 2;
	case K_v_lshl_add_u64:
		return i != 1;
	case K_v_mad_u64_u32:
	case K_v_mad_i64_i32:
	case K_v_mad_nc_u64_u32:
		return i == 2;
	case K_v_lshlrev_b64:
	case K_v_lshrrev_b64:
	case K_v_ashrrev_i64:
		return i == 1;
	case K_v_ldexp_f64:
	case K_v_cmp_class_f64:
	case K_v_cmpx_class_f64:
		return i == 0;
	default:
		if (strncmp(n, "v_cmp", 5) == 0 && (strstr(n, "_i64") || strstr(n, "_u64")))
			return true;
		return f64src[op];
	}
}

static void src_setup(struct vctx *c, int i, unsigned code, unsigned op)
{
	struct sqk_wave *w = c->w;

	if (code >= 256) {
		c->s[i].v = w->v + (size_t)(code - 256) * 64;
	} else if (code == SQK_LIT64) { /* a 64-bit source: exec_valu checked */
		c->s[i].v = NULL;
		c->s[i].k64 = sqk_sread(w, c->in, code, true, true);
		c->s[i].k32 = (uint32_t)c->s[i].k64;
	} else {
		c->s[i].v = NULL;
		c->s[i].k32 = (uint32_t)sqk_sread(w, c->in, code, false, false);
		c->s[i].k64 = sqk_sread(w, c->in, code, true, f64src[op]);
	}
}

/* The per-lane views of the sources, once their setup is final. */
static void bind(struct vctx *c, unsigned n)
{
	for (int i = 0; i < 3; i++) {
		if (c->s[i].v) {
			c->s[i].p = c->s[i].v;
			continue;
		}
		for (unsigned l = 0; l < n; l++)
			c->bc[i][l] = c->s[i].k32;
		c->s[i].p = c->bc[i];
	}
}

/* Lanes of EXEC @ex as l: every lane of the wave in a straight loop when
 * @full (EXEC covers the wave), else lane by lane. */
#define EACH_LANE(ex, full, n)                                                \
	for (uint64_t m_ = (ex); m_; m_ = (full) ? 0 : m_ & (m_ - 1))         \
		for (unsigned l = (full) ? 0 : (unsigned)__builtin_ctzll(m_), \
			      e_ = (full) ? (n) : l + 1;                      \
		     l < e_; l++)

/* Lane mask of the first @n (32 or 64) bytes of @b (each 0 or 1). */
static uint64_t pack_lanes(const uint8_t *b, unsigned n)
{
	uint64_t m = 0;

#ifdef __SSE2__
	for (unsigned i = 0; i < n; i += 16) {
		__m128i v =
			_mm_slli_epi16(_mm_loadu_si128((const __m128i *)(const void *)(b + i)), 7);

		m |= (uint64_t)(uint16_t)_mm_movemask_epi8(v) << i;
	}
#else
	for (unsigned l = 0; l < n; l++)
		m |= (uint64_t)(b[l] & 1) << l;
#endif
	return m;
}

/* Bytes (0 or 1) of the first @n lanes of mask @m. */
static void unpack_lanes(uint64_t m, uint8_t *b, unsigned n)
{
	for (unsigned i = 0; i < n; i += 8) {
		/* bit k of the byte to byte k of the word */
		uint64_t x = m >> i & 0xff;

		x = (x | x << 28) & 0x0000000f0000000full;
		x = (x | x << 14) & 0x0003000300030003ull;
		x = (x | x << 7) & 0x0101010101010101ull;
		for (unsigned k = 0; k < 8; k++)
			b[i + k] = (uint8_t)(x >> 8 * k);
	}
}

/* VOPC condition index of op (see the order in sqk_ops.def). */
#define CMP_BLOCK 66
_Static_assert(K_v_cmpx_f_f32 == K_v_cmp_f_f32 + CMP_BLOCK, "cmp block layout");
_Static_assert(K_v_cmp_class_f32 == K_v_cmp_f_f32 + 16, "cmp class layout");
_Static_assert(K_v_cmp_f_i32 == K_v_cmp_f_f32 + 34, "cmp int layout");
#define CMP16_BLOCK 33 /* 16 f16 conditions, class, 8 i16, 8 u16 */
_Static_assert(K_v_cmpx_f_f16 == K_v_cmp_f_f16 + CMP16_BLOCK, "cmp16 block layout");
_Static_assert(K_v_cmp_f_i16 == K_v_cmp_f_f16 + 17 && K_v_cmp_f_u16 == K_v_cmp_f_f16 + 25,
	       "cmp16 int layout");

static int exec_cmp(struct vctx *c, uint64_t ex, unsigned n)
{
	const struct sqk_insn *in = c->in;
	struct sqk_wave *w = c->w;
	unsigned k = in->op - K_v_cmp_f_f32;
	bool x = k >= CMP_BLOCK;
	uint64_t bits, ex0 = ex;
	const bool full = ex == sqk_mask(w);

	if (in->op >= K_v_cmp_f_f16 && in->op < K_v_cmp_f_f16 + 2 * CMP16_BLOCK) {
		/* 16-bit: the low halves (VOP3 op_sel: either half; SDWA: the
		 * selected field's low 16 bits) */
		k = in->op - K_v_cmp_f_f16;
		x = k >= CMP16_BLOCK;
		k %= CMP16_BLOCK;
		EACH_LANE(ex, full, n)
		{
			bool b;

			if (k < 16) {
				b = fcmp(k, HF(c, 0, l), HF(c, 1, l));
			} else if (k == 16) {
				uint32_t h = H(c, 0, l);

				if (c->ftz64 && !(h & 0x7c00))
					h &= 0x8000;
				if (c->abs & 1)
					h &= 0x7fff;
				if (c->neg & 1)
					h ^= 0x8000;
				/* the mask: bits [9:0] of S1, a register
				 * half in the true16 form (op_sel) */
				b = fclass16(h, H(c, 1, l));
			} else {
				unsigned cond = (k - 17) % 8;
				bool sg = k < 25;
				int32_t a = sg ? (int16_t)H(c, 0, l) : (int32_t)H(c, 0, l),
					bb = sg ? (int16_t)H(c, 1, l) : (int32_t)H(c, 1, l);

				b = cond == 0	? false
				    : cond == 1 ? a < bb
				    : cond == 2 ? a == bb
				    : cond == 3 ? a <= bb
				    : cond == 4 ? a > bb
				    : cond == 5 ? a != bb
				    : cond == 6 ? a >= bb
						: true;
			}
			c->cy[l] = b;
		}
		goto out;
	}
	k %= CMP_BLOCK;
	if (k >= 34) {
		/* integers: the sources widened to 64 bits (i32 sign-extended)
		 * once, then every lane (the result masked by EXEC) */
		unsigned t = (k - 34) / 8, cond = (k - 34) % 8;
		/* signed: the sign bit flipped, then every order unsigned */
		uint64_t a[2][64], flip = (t == 0 || t == 2) ? 1ull << 63 : 0;

		for (int i = 0; i < 2; i++) {
			const uint32_t *v = c->s[i].v;

			if (t == 0)
				for (unsigned l = 0; l < n; l++)
					a[i][l] = (uint64_t)(int64_t)(int32_t)c->s[i].p[l];
			else if (t == 1)
				for (unsigned l = 0; l < n; l++)
					a[i][l] = c->s[i].p[l];
			else if (v)
				for (unsigned l = 0; l < n; l++)
					a[i][l] = v[l] | (uint64_t)v[l + 64] << 32;
			else
				for (unsigned l = 0; l < n; l++)
					a[i][l] = c->s[i].k64;
		}
		for (unsigned l = 0; l < n; l++)
			a[0][l] ^= flip, a[1][l] ^= flip;
#define ICMP(e)                                          \
	for (unsigned l = 0; l < n; l++)                 \
		c->cy[l] = (uint8_t)(a[0][l] e a[1][l]); \
	break
		switch (cond) {
		case 0: /* f */
			memset(c->cy, 0, n);
			break;
		case 1:
			ICMP(<);
		case 2:
			ICMP(==);
		case 3:
			ICMP(<=);
		case 4:
			ICMP(>);
		case 5:
			ICMP(!=);
		case 6:
			ICMP(>=);
		default: /* t */
			memset(c->cy, 1, n);
			break;
		}
#undef ICMP
		ex = 0;
	}
	EACH_LANE(ex, full, n)
	{
		bool b;

		if (k < 16)
			b = fcmp(k, F(c, 0, l), F(c, 1, l));
		else if (k == 16)
			b = fclass(F(c, 0, l), U(c, 1, l), true, U(c, 0, l));
		else if (k < 33)
			b = fcmp(k - 17, D(c, 0, l), D(c, 1, l));
		else
			b = fclass(D(c, 0, l), U(c, 1, l), false, U64(c, 0, l));
		c->cy[l] = b;
	}
out:
	bits = pack_lanes(c->cy, n) & ex0;
	/* e32: VCC (gfx10 v_cmpx: EXEC only); e64: the SGPR destination
	 * (gfx10 v_cmpx e64: EXEC only: LLVM 22's llvm-mc refuses an SGPR
	 * destination for gfx1030's v_cmpx_*_e64 and encodes SDST as EXEC,
	 * 0x7e; gfx900 takes one) */
	if (!(x && w->r->f->gfx10)) {
		unsigned d = in->enc == SQK_VOP3 ? (in->dst - 256) : in->dst;

		if (d < 128)
			sqk_swrite(w, d, bits, w->lanes == 64);
	}
	if (x)
		sqk_set_mask(w, SQK_EXEC, bits);
	return 0;
}

bool sqk_valu_general_only;

/* A source of the fast path: its VGPR column, or its scalar value in every
 * lane of @buf (@hi: the high dwords of a 64-bit source, else NULL). */
static const uint32_t *fast_src(struct sqk_wave *w, const struct sqk_insn *in, unsigned code,
				bool b64, uint32_t *buf, const uint32_t **hi, unsigned n)
{
	uint64_t k;

	if (code >= 256) {
		const uint32_t *v = w->v + (size_t)(code - 256) * 64;

		if (hi)
			*hi = v + 64;
		return v;
	}
	k = sqk_sread(w, in, code, b64, false);
	for (unsigned l = 0; l < n; l++)
		buf[l] = (uint32_t)k;
	if (b64)
		for (unsigned l = 0; l < n; l++)
			buf[l + 64] = (uint32_t)(k >> 32);
	if (hi)
		*hi = buf + 64;
	return buf;
}

/* Carry-in and v_cndmask's condition: VOP2 reads VCC, VOP3 its third
 * source as an SGPR pair (a VGPR there gives none, as in the general path). */
static uint64_t fast_carry_in(struct sqk_wave *w, const struct sqk_insn *in, bool vop3)
{
	if (!vop3)
		return sqk_get_mask(w, SQK_VCC);
	return in->src[2] < 256 ? sqk_sread(w, in, in->src[2], true, false) : 0;
}

/* The statements for each lane l with ax its src0 value (axh: the high dword of a
 * 64-bit src0, SRC0_LANES64): one loop for a scalar src0, one for a column. */
#define SRC0_LANES(...)                                    \
	do {                                               \
		if (as) {                                  \
			const uint32_t ax = (uint32_t)k0;  \
			for (unsigned l = 0; l < n; l++) { \
				__VA_ARGS__                \
			}                                  \
		} else {                                   \
			for (unsigned l = 0; l < n; l++) { \
				const uint32_t ax = a[l];  \
				__VA_ARGS__                \
			}                                  \
		}                                          \
	} while (0)
#define SRC0_LANES64(...)                                                             \
	do {                                                                          \
		if (as) {                                                             \
			const uint32_t ax = (uint32_t)k0, axh = (uint32_t)(k0 >> 32); \
			for (unsigned l = 0; l < n; l++) {                            \
				__VA_ARGS__                                           \
			}                                                             \
		} else {                                                              \
			for (unsigned l = 0; l < n; l++) {                            \
				const uint32_t ax = a[l], axh = ahi[l];               \
				__VA_ARGS__                                           \
			}                                                             \
		}                                                                     \
	} while (0)

SQK_LANE_CLONES int sqk_exec_valu_fast(struct sqk_wave *w, const struct sqk_insn *in)
{
	unsigned op = in->op, n = w->lanes, enc = in->enc;
	bool vop3 = enc == SQK_VOP3;
	uint32_t kb[128], *d;
	const uint32_t *a, *b, *ahi = NULL, *bhi = NULL;
	uint8_t cy[64];
	uint64_t cin, k0 = 0;
	/* src0 scalar (an SGPR, a constant): its value k0 in every lane
	 * instead of a column (SRC0_LANES); else a VGPR column, which
	 * fast_src() returns without a buffer */
	bool as = in->src[0] < 256, nocy;

	if (w->gpr_idx || in->ext || sqk_exec(w) != sqk_mask(w))
		return -1;
	if (enc != SQK_VOP1 && enc != SQK_VOP2 && enc != SQK_VOPC && !vop3)
		return -1;
	if (in->clamp || (vop3 && (in->omod || ((in->abs | in->neg) &&
						(op == K_v_mov_b32 || op == K_v_cndmask_b32)))))
		return -1;
	if ((op >= K_v_cmp_f_i32 && op <= K_v_cmp_t_u64) ||
	    (op >= K_v_cmp_f_i32 + CMP_BLOCK && op <= K_v_cmp_t_u64 + CMP_BLOCK)) {
		/* integer VOPC: the lanes' bits to VCC or the VOP3 SGPR
		 * destination; v_cmpx to EXEC too (gfx10: EXEC only, as in
		 * exec_cmp()) */
		bool x = op >= K_v_cmpx_f_f32;
		unsigned k = op - K_v_cmp_f_i32 - (x ? CMP_BLOCK : 0), t = k / 8, cond = k % 8,
			 sd = vop3 ? in->dst - 256u : in->dst;
		uint64_t bits;

		if (as)
			k0 = sqk_sread(w, in, in->src[0], t >= 2, false);
		if (t < 2) {
			a = as ? NULL : fast_src(w, in, in->src[0], false, NULL, NULL, n);
			b = fast_src(w, in, in->src[1], false, kb, NULL, n);
		} else {
			a = as ? NULL : fast_src(w, in, in->src[0], true, NULL, &ahi, n);
			b = fast_src(w, in, in->src[1], true, kb, &bhi, n);
		}
#define FCMP(e)                                                                           \
	do {                                                                              \
		if (t == 0)                                                               \
			SRC0_LANES(cy[l] = (int32_t)ax e(int32_t) b[l];);                 \
		else if (t == 1)                                                          \
			SRC0_LANES(cy[l] = ax e b[l];);                                   \
		else if (t == 2)                                                          \
			SRC0_LANES64(cy[l] = (int64_t)(ax | (uint64_t)axh << 32)          \
					     e(int64_t)(b[l] | (uint64_t)bhi[l] << 32);); \
		else                                                                      \
			SRC0_LANES64(cy[l] = (ax | (uint64_t)axh << 32)                   \
					     e(b[l] | (uint64_t)bhi[l] << 32););          \
	} while (0)
		switch (cond) {
		case 1:
			FCMP(<);
			break;
		case 2:
			FCMP(==);
			break;
		case 3:
			FCMP(<=);
			break;
		case 4:
			FCMP(>);
			break;
		case 5:
			FCMP(!=);
			break;
		case 6:
			FCMP(>=);
			break;
		default:
			memset(cy, cond == 7, n);
			break;
		}
#undef FCMP
		bits = pack_lanes(cy, n);
		if (sd < 128 && !(x && w->r->f->gfx10))
			sqk_swrite(w, sd, bits, n == 64);
		if (x)
			sqk_set_mask(w, SQK_EXEC, bits);
		return 0;
	}
	if (in->dst < 256 ||
	    in->dst - 256u + (op == K_v_lshlrev_b64 || op == K_v_mad_u64_u32 ? 2 : 1) > SQK_NV)
		return -1;
	d = w->v + (size_t)(in->dst - 256) * 64;
	/* a VOP3 carry-out to no SGPR (null, or a code past the SGPRs, which
	 * sqk_swrite() drops): the lanes' results alone */
	nocy = vop3 && (in->sdst >= 128 || (in->sdst == SQK_NULL10 && w->r->f->gfx10));
	if (as)
		k0 = sqk_sread(w, in, in->src[0], false, false);
	a = as ? NULL : fast_src(w, in, in->src[0], false, NULL, NULL, n);
	b = enc == SQK_VOP1 ? NULL
			    : fast_src(w, in, in->src[1], op == K_v_lshlrev_b64, kb, &bhi, n);
#define BIN(e)                                              \
	SRC0_LANES(uint32_t x = ax, y = b[l]; d[l] = (e);); \
	return 0
	switch (op) {
	case K_v_mov_b32:
		SRC0_LANES(d[l] = ax;);
		return 0;
	case K_v_add_u32:
	case K_v_add_nc_u32:
		BIN(x + y);
	case K_v_sub_u32:
	case K_v_sub_nc_u32:
		BIN(x - y);
	case K_v_subrev_u32:
	case K_v_subrev_nc_u32:
		BIN(y - x);
	case K_v_and_b32:
		BIN(x & y);
	case K_v_or_b32:
		BIN(x | y);
	case K_v_xor_b32:
		BIN(x ^ y);
	case K_v_lshlrev_b32:
		BIN(y << (x & 31));
	case K_v_lshrrev_b32:
		BIN(y >> (x & 31));
	case K_v_ashrrev_i32:
		BIN((uint32_t)((int32_t)y >> (x & 31)));
	case K_v_mul_lo_u32:
		BIN(x * y);
	case K_v_cndmask_b32:
		cin = fast_carry_in(w, in, vop3) & sqk_mask(w);
		if (cin == sqk_mask(w)) {
			for (unsigned l = 0; l < n; l++)
				d[l] = b[l];
			return 0;
		}
		if (!cin) {
			SRC0_LANES(d[l] = ax;);
			return 0;
		}
		SRC0_LANES(d[l] = (cin >> l & 1) ? b[l] : ax;);
		return 0;
	case K_v_mad_u64_u32: {
		const uint32_t *c, *chi;
		uint32_t kc[128];

		if (!vop3)
			return -1;
		c = fast_src(w, in, in->src[2], true, kc, &chi, n);
		/* in blocks of 8 lanes, each read whole before its results
		 * are written (the destination pair may overlap a source:
		 * lanes apart, never one lane's inputs after its outputs), so
		 * that the compiler takes them in vector registers */
		for (unsigned l0 = 0; l0 < n; l0 += 8) {
			uint32_t xa[8], xb[8], xc[8], xh[8];

			for (unsigned i = 0; i < 8; i++) {
				xa[i] = as ? (uint32_t)k0 : a[l0 + i];
				xb[i] = b[l0 + i];
				xc[i] = c[l0 + i];
				xh[i] = chi[l0 + i];
			}
			for (unsigned i = 0; i < 8; i++) {
				uint64_t p = (uint64_t)xa[i] * xb[i],
					 r = p + (xc[i] | (uint64_t)xh[i] << 32);

				d[l0 + i] = (uint32_t)r;
				d[l0 + i + 64] = (uint32_t)(r >> 32);
				if (!nocy) /* apart: without it the loop is vectors */
					cy[l0 + i] = r < p;
			}
		}
		if (nocy)
			return 0;
		break; /* its carry-out below */
	}
	case K_v_lshlrev_b64:
		SRC0_LANES(uint64_t v = (b[l] | (uint64_t)bhi[l] << 32) << (ax & 63);
			   d[l] = (uint32_t)v, d[l + 64] = (uint32_t)(v >> 32););
		return 0;
#define CARRY(e, c)                                                                       \
	do {                                                                              \
		if (nocy) {                                                               \
			SRC0_LANES(uint32_t x = ax, y = b[l]; d[l] = (e););               \
			return 0;                                                         \
		}                                                                         \
		SRC0_LANES(uint32_t x = ax, y = b[l]; d[l] = (e); cy[l] = (uint8_t)(c);); \
	} while (0);                                                                      \
	break
	case K_v_add_co_u32:
		CARRY(x + y, x + y < x);
	case K_v_sub_co_u32:
		CARRY(x - y, y > x);
	case K_v_subrev_co_u32:
		CARRY(y - x, x > y);
	case K_v_addc_co_u32:
	case K_v_add_co_ci_u32: {
		uint8_t ci[64];

		unpack_lanes(fast_carry_in(w, in, vop3), ci, n);
		CARRY(x + y + ci[l], (x + y < x) | (x + y + ci[l] < x + y));
	}
#undef CARRY
	default:
		return -1;
	}
#undef BIN
	/* the carry-out lanes (every case that breaks) to VCC or the VOP3
	 * SGPR destination */
	sqk_swrite(w, vop3 ? in->sdst : SQK_VCC, pack_lanes(cy, n), n == 64);
	return 0;
}
#undef SRC0_LANES
#undef SRC0_LANES64

/*
 * Scalar float (GFX11.5: gfx1150, gfx1151; gfx12; gfx1250): SOP1 / SOP2 / SOPC
 * operations on SGPR values ("RDNA 3.5 Instruction Set Architecture" and
 * "RDNA4 Instruction Set Architecture", SALU opcodes: S_ADD_F32 to
 * S_CMP_NLT_F16; LLVM SOPInstructions.td, the SALU float definitions under
 * FeatureSALUFloatInsts). The vector unit's semantics, one lane: MODE's
 * denormal flush and f16 rounding as for VALU (F(), WF(), HF(), WH()),
 * the host's nearest-even rounding for f32, gfx12's minimumNumber /
 * maximumNumber for S_MIN/MAX_F32 and _NUM (one opcode: GFX11.5 names it
 * without _num; its signaling-NaN rule is UNVERIFIED, LLVM quiets the
 * sources before it), IEEE 754-2019 minimum / maximum for S_MINIMUM /
 * S_MAXIMUM, fcmp()'s predicates for the compares (SCC; the arithmetic
 * leaves SCC alone; a NaN result a quiet NaN, a signaling source made
 * quiet as IEEE 754 has it). An f16 source is the SGPR's low half (S_CVT_HI_F32_F16:
 * the high one), an inline float constant binary16; an f16 result is
 * written with the SGPR's high half 0 (what the hardware leaves there is
 * UNVERIFIED; LLVM reads only the low half).
 */
static uint32_t sf_bits(struct sqk_wave *w, const struct sqk_insn *in, int i, bool h16)
{
	unsigned code = in->src[i];

	if (h16 && code >= 240 && code <= 248)
		return fc16[code - 240];
	return (uint32_t)sqk_sread(w, in, code, false, false);
}

/* An f32 result of the scalar float operations: WF(), a NaN made quiet
 * (the host's ceilf() and the like, and a float / double round trip the
 * compiler folds, may pass a signaling NaN through) */
static uint32_t WFQ(const struct vctx *c, float f)
{
	uint32_t r = (uint32_t)WF(c, f);

	return (r & 0x7f800000u) == 0x7f800000u && (r & 0x7fffffu) ? r | 0x400000u : r;
}

int sqk_exec_salu_float(struct sqk_wave *w, const struct sqk_insn *in)
{
	struct vctx *c = &(struct vctx){ .w = w, .in = in };
	unsigned op = in->op, d = in->dst;
	bool h16 = false;
	uint32_t r;
	double x, y;
	float a, b;

	switch (op) {
	case K_s_add_f16 ... K_s_maximum_f16:
	case K_s_cvt_f32_f16:
	case K_s_cvt_hi_f32_f16:
	case K_s_ceil_f16 ... K_s_rndne_f16:
	case K_s_cmp_lt_f16 ... K_s_cmp_nlt_f16:
	case K_v_s_exp_f16:
	case K_v_s_log_f16:
	case K_v_s_rcp_f16:
	case K_v_s_rsq_f16:
	case K_v_s_sqrt_f16:
		h16 = true;
		break;
	default:
		break;
	}
	c->ftz32 = !(w->mode >> 4 & 3);
	c->ftz64 = !(w->mode >> 6 & 3);
	c->rm16 = w->mode >> 2 & 3;
	/* VOP3 (v_s_*): its source modifiers, clamp and output modifier */
	c->abs = in->abs, c->neg = in->neg, c->clamp = in->clamp, c->omod = in->omod;
	c->s[0].p = c->bc[0];
	c->s[1].p = c->bc[1];
	c->bc[0][0] = sf_bits(w, in, 0, h16);
	if (in->enc == SQK_SOP2 || in->enc == SQK_SOPC)
		c->bc[1][0] = sf_bits(w, in, 1, h16);
	if (op == K_s_cvt_hi_f32_f16)
		c->opsel = 1;
	if (h16) {
		x = HF(c, 0, 0);
		y = in->enc == SQK_SOP1 ? 0 : HF(c, 1, 0);
		a = b = 0;
	} else {
		a = F(c, 0, 0);
		b = in->enc == SQK_SOP1 ? 0 : F(c, 1, 0);
		x = y = 0;
	}
	switch (op) {
	case K_s_add_f32:
		r = WFQ(c, a + b);
		break;
	case K_s_sub_f32:
		r = WFQ(c, a - b);
		break;
	case K_s_mul_f32:
		r = WFQ(c, a * b);
		break;
	case K_s_fmac_f32:
		r = WFQ(c,
			fmaf(a, b, sqk_f32(acc32(c, (uint32_t)sqk_sread(w, in, d, false, false)))));
		break;
	case K_s_fmaak_f32:
		r = WFQ(c, fmaf(a, b, sqk_f32(in->lit)));
		break;
	case K_s_fmamk_f32:
		r = WFQ(c, fmaf(a, sqk_f32(in->lit), b));
		break;
	case K_s_min_f32:
	case K_s_min_num_f32:
		r = WFQ(c, (float)minnum19(a, b));
		break;
	case K_s_max_f32:
	case K_s_max_num_f32:
		r = WFQ(c, (float)maxnum19(a, b));
		break;
	case K_s_minimum_f32:
	case K_s_maximum_f32:
		r = WFQ(c, (float)minmax754(op == K_s_maximum_f32, a, b));
		break;
	case K_s_cvt_pk_rtz_f16_f32:
		r = (uint32_t)f32_to_f16(a, true) | (uint32_t)f32_to_f16(b, true) << 16;
		break;
	case K_s_add_f16:
		r = WH(c, x + y, 0);
		break;
	case K_s_sub_f16:
		r = WH(c, x - y, 0);
		break;
	case K_s_mul_f16:
		r = WH(c, x * y, 0);
		break;
	case K_s_fmac_f16:
		r = fma16(c, x, y, acc16(c, (uint32_t)sqk_sread(w, in, d, false, false)));
		break;
	case K_s_min_f16:
	case K_s_min_num_f16:
		r = WH(c, minnum19(x, y), 0);
		break;
	case K_s_max_f16:
	case K_s_max_num_f16:
		r = WH(c, maxnum19(x, y), 0);
		break;
	case K_s_minimum_f16:
	case K_s_maximum_f16:
		r = WH(c, minmax754(op == K_s_maximum_f16, x, y), 0);
		break;
	case K_s_cvt_f32_i32:
		r = WFQ(c, (float)(int32_t)c->bc[0][0]);
		break;
	case K_s_cvt_f32_u32:
		r = WFQ(c, (float)c->bc[0][0]);
		break;
	case K_s_cvt_i32_f32:
		r = (uint32_t)cvt_i32(a);
		break;
	case K_s_cvt_u32_f32:
		r = cvt_u32(a);
		break;
	case K_s_cvt_f16_f32:
		r = WH(c, (double)a, 0);
		break;
	case K_s_cvt_f32_f16:
	case K_s_cvt_hi_f32_f16:
		r = WFQ(c, (float)x);
		break;
	case K_s_ceil_f32:
		r = WFQ(c, ceilf(a));
		break;
	case K_s_floor_f32:
		r = WFQ(c, floorf(a));
		break;
	case K_s_trunc_f32:
		r = WFQ(c, truncf(a));
		break;
	case K_s_rndne_f32:
		r = WFQ(c, nearbyintf(a));
		break;
	case K_s_ceil_f16:
		r = WH(c, ceil(x), 0);
		break;
	case K_s_floor_f16:
		r = WH(c, floor(x), 0);
		break;
	case K_s_trunc_f16:
		r = WH(c, trunc(x), 0);
		break;
	case K_s_rndne_f16:
		r = WH(c, nearbyint(x), 0);
		break;
	/* gfx12 VOP3 with an SGPR destination ("RDNA4 Instruction Set
	 * Architecture" V_S_EXP_F32 ... V_S_SQRT_F16; LLVM
	 * VOP3Instructions.td, SReg_32 operands): the VALU operations'
	 * values on the scalar */
	case K_v_s_exp_f32:
		r = WFQ(c, exp2f(a));
		break;
	case K_v_s_log_f32:
		r = WFQ(c, log2f(a));
		break;
	case K_v_s_rcp_f32:
		r = WFQ(c, 1.0f / a);
		break;
	case K_v_s_rsq_f32:
		r = WFQ(c, 1.0f / sqrtf(a));
		break;
	case K_v_s_sqrt_f32:
		r = WFQ(c, sqrtf(a));
		break;
	case K_v_s_exp_f16:
		r = WH(c, exp2_16(x), 0);
		break;
	case K_v_s_log_f16:
		r = WH(c, log2(x), 0);
		break;
	case K_v_s_rcp_f16:
		r = rcp16(c, x);
		break;
	case K_v_s_rsq_f16:
		r = WH(c, 1.0 / sqrt(x), 0);
		break;
	case K_v_s_sqrt_f16:
		r = sqrt16(c, x);
		break;
	case K_s_cmp_lt_f32 ... K_s_cmp_nlt_f32:
		w->scc = fcmp(op - K_s_cmp_lt_f32 + 1, a, b);
		return 0;
	case K_s_cmp_lt_f16 ... K_s_cmp_nlt_f16:
		w->scc = fcmp(op - K_s_cmp_lt_f16 + 1, x, y);
		return 0;
	default:
		return sqk_fail(w, in, -ENOTSUP, "unimplemented instruction");
	}
	/* a VOP3's scalar destination: 256 + its code (sqk_decode()) */
	sqk_swrite(w, in->enc == SQK_VOP3 ? d - 256 : d, r, false);
	return 0;
}

int sqk_exec_valu(struct sqk_wave *w, const struct sqk_insn *in)
{
	struct vctx c;
	unsigned op = in->op, n = w->lanes, dw = 1, nsrc = 3;
	uint64_t ex = sqk_exec(w), cin = 0;
	bool vop3 = in->enc == SQK_VOP3, wcarry = false, full;
	unsigned dst = in->dst;
	uint8_t dst_sel = 6, dst_unused = 0;
	bool h16 = false; /* a 16-bit result: the high half as the family keeps it */

	if (sqk_op_v_s(in->op))
		return sqk_exec_salu_float(w, in);
	if (in->src[0] == SQK_LIT64 || in->src[1] == SQK_LIT64 || in->src[2] == SQK_LIT64) {
		pthread_once(&once, init_f64);
		for (int i = 0; i < 3; i++)
			if (in->src[i] == SQK_LIT64 && !src_is_64(op, i))
				return sqk_fail(w, in, -ENOTSUP,
						"64-bit literal in a 32-bit operand");
	}
	if (!sqk_valu_general_only) {
		int rc = sqk_exec_valu_fast(w, in);

		if (rc >= 0)
			return rc;
	}
	pthread_once(&once, init_f64);
	if (w->gpr_idx) { /* VGPR index mode: M0[7:0] added to the chosen operands */
		static __thread struct sqk_insn t;
		unsigned idx = w->s[SQK_M0] & 0xff, mode = w->s[SQK_M0] >> 12 & 15;

		t = *in;
		for (int i = 0; i < 3; i++)
			if ((mode >> i & 1) && t.src[i] >= 256)
				t.src[i] = (uint16_t)(t.src[i] + idx);
		if ((mode & 8) && t.dst >= 256)
			t.dst = (uint16_t)(t.dst + idx);
		in = &t;
		dst = in->dst;
	}
	c.w = w;
	c.in = in;
	c.abs = vop3 ? in->abs : 0;
	c.neg = (vop3 || in->enc == SQK_VOP3P) ? in->neg : 0;
	c.clamp = in->clamp;
	c.omod = vop3 ? in->omod : 0;
	c.ftz32 = !(w->mode >> 4 & 3);
	c.ftz64 = !(w->mode >> 6 & 3);
	c.rm16 = w->mode >> 2 & 3;
	/* op_sel: VOP3's, or the register halves a gfx11 decoder read from
	 * a VOP1/VOP2/VOPC true16 form (0 on every other family) */
	c.opsel = (vop3 && !is_vop3b(op)) || in->enc == SQK_VOP1 || in->enc == SQK_VOP2 ||
				  in->enc == SQK_VOPC
			  ? in->opsel
			  : 0;
	c.bits = 0;
	memset(c.cy, 0, sizeof(c.cy));
	for (unsigned i = 0; i < nsrc; i++)
		src_setup(&c, (int)i, in->src[i], op);
	/* f16 operands: inline float constants are binary16 */
	for (unsigned i = 0; i < nsrc; i++)
		if ((src16[op] >> i & 1) && in->src[i] >= 240 && in->src[i] <= 248)
			c.s[i].k32 = fc16[in->src[i] - 240];
	/* VOP1 / VOP2 / VOPC: src[] beyond their operands read s0, unused */
	if (vop3 && is_vop3b(op))
		c.abs = 0; /* those bits are the SGPR destination */
	if (in->ext == SQK_EXT_SDWA) {
		uint32_t e = in->extw;
		unsigned sel0 = e >> 16 & 7, sel1 = e >> 24 & 7;

		if (c.s[0].v) {
			for (unsigned l = 0; l < n; l++)
				c.t0[l] = sdwa_sel(c.s[0].v[l], sel0, e >> 19 & 1);
			c.s[0].v = c.t0;
		} else {
			c.s[0].k32 = sdwa_sel(c.s[0].k32, sel0, e >> 19 & 1);
		}
		if (in->enc != SQK_VOP1) {
			if (e >> 31 & 1) /* src1 is a scalar */
				src_setup(&c, 1, in->src[1] - 256, op);
			if (c.s[1].v) {
				for (unsigned l = 0; l < n; l++)
					c.t1[l] = sdwa_sel(c.s[1].v[l], sel1, e >> 27 & 1);
				c.s[1].v = c.t1;
			} else {
				c.s[1].k32 = sdwa_sel(c.s[1].k32, sel1, e >> 27 & 1);
			}
		}
		c.abs = (e >> 21 & 1) | (e >> 29 & 1) << 1;
		c.neg = (e >> 20 & 1) | (e >> 28 & 1) << 1;
		if (in->enc != SQK_VOPC) {
			dst_sel = e >> 8 & 7;
			dst_unused = e >> 11 & 3;
			c.clamp = e >> 13 & 1;
			c.omod = w->r->f->gfx10 ? 0 : e >> 14 & 3;
		}
	} else if (in->ext == SQK_EXT_DPP || in->ext == SQK_EXT_DPP8) {
		uint32_t e = in->extw;
		const uint32_t *sv = c.s[0].v;

		for (unsigned l = 0; l < n; l++) {
			int sl;

			if (in->ext == SQK_EXT_DPP8) {
				sl = (int)((l & ~7u) | (e >> (8 + 3 * (l & 7)) & 7));
			} else {
				unsigned row = l >> 4;

				sl = dpp_lane(w->r->f, e >> 8 & 0x1ff, l, n);
				if (sl == -2)
					return sqk_fail(w, in, -ENOTSUP,
							"unimplemented DPP control");
				if (!(e >> (28 + row % 4) & 1) || !(e >> (24 + (l >> 2 & 3)) & 1)) {
					ex &= ~(1ull << l); /* row_mask / bank_mask */
					continue;
				}
			}
			/* An inactive source lane (AMDGPUModifierSyntax "fi",
			 * "bound_ctrl"): DPP8 reads 0, or its value with FI
			 * (src0 0xea); DPP16 reads its value with FI (gfx10,
			 * bit 18), else it is an invalid lane. An invalid lane
			 * reads 0 with BOUND_CTRL (bit 19), else the lane is not
			 * written. */
			if (sl >= 0 && (unsigned)sl < n && !(sqk_exec(w) >> sl & 1)) {
				bool fi = in->ext == SQK_EXT_DPP8 ? (in->w[vop3] & 0x1ff) == 0xea
								  : w->r->f->gfx10 && (e >> 18 & 1);

				if (fi) {
					c.t0[l] = sv[sl], c.t0[l + 64] = sv[sl + 64];
					continue;
				}
				if (in->ext == SQK_EXT_DPP8) {
					c.t0[l] = 0, c.t0[l + 64] = 0;
					continue;
				}
				sl = -1;
			}
			if (sl < 0 || (unsigned)sl >= n) {
				if (in->ext == SQK_EXT_DPP && (e >> 19 & 1)) {
					c.t0[l] = 0, c.t0[l + 64] = 0;
					continue;
				}
				ex &= ~(1ull << l);
				continue;
			}
			c.t0[l] = sv[sl];
			c.t0[l + 64] = sv[sl + 64];
		}
		c.s[0].v = c.t0;
		if (in->ext == SQK_EXT_DPP && !vop3) { /* VOP3 DPP: VOP3's modifiers */
			c.abs = (e >> 21 & 1) | (e >> 23 & 1) << 1;
			c.neg = (e >> 20 & 1) | (e >> 22 & 1) << 1;
		}
	}
	if ((c.abs | c.neg) && (op == K_v_cndmask_b32 || op == K_v_mov_b32))
		bitmods(&c, n); /* abs / neg on the sign bit of untyped moves */
	bind(&c, n);
	full = ex == sqk_mask(w);
	if ((op >= K_v_cmp_f_f32 && op < K_v_cmp_f_f32 + 2 * CMP_BLOCK) ||
	    (op >= K_v_cmp_f_f16 && op < K_v_cmp_f_f16 + 2 * CMP16_BLOCK))
		return exec_cmp(&c, ex, n);

	/* carry-in: VOP2 reads VCC, VOP3 its third source */
	cin = vop3 ? c.s[2].k64 : sqk_get_mask(w, SQK_VCC);
	if (vop3 && c.s[2].v)
		cin = 0;

#define LANES EACH_LANE(ex, full, n)
#define O(v) (c.out[l] = (uint64_t)(v))
#define CY(b) (c.cy[l] = (uint8_t)((b) ? 1 : 0))
#define CI (c.ci[l])
	switch (op) {
	case K_v_nop:
		return 0;
	case K_v_mov_b32:
		LANES O(U(&c, 0, l));
		break;
	case K_v_mov_b64:
		dw = 2;
		LANES O(U64(&c, 0, l));
		break;
	case K_v_swap_b32: {
		uint32_t *a, *b;

		/* both operands are VGPRs in the ISA; a scalar source code in
		 * src0 is no instruction the hardware defines */
		if (in->src[0] < 256)
			return sqk_fail(w, in, -ENOTSUP, "v_swap_b32 with a scalar source");
		a = w->v + (size_t)(dst - 256) * 64;
		b = w->v + (size_t)(in->src[0] - 256) * 64;
		LANES
		{
			uint32_t t = a[l];
			a[l] = b[l], b[l] = t;
		}
		return 0;
	}
	case K_v_readfirstlane_b32: {
		unsigned d = dst - 256;
		uint64_t e = sqk_exec(w);
		unsigned l = e ? (unsigned)__builtin_ctzll(e) : 0;

		sqk_swrite(w, d, U(&c, 0, l), false);
		return 0;
	}
	case K_v_readlane_b32:
		sqk_swrite(w, dst - 256, U(&c, 0, U(&c, 1, 0) % n), false);
		return 0;
	case K_v_writelane_b32:
		w->v[(size_t)(dst - 256) * 64 + U(&c, 1, 0) % n] = U(&c, 0, 0);
		return 0;
	case K_v_accvgpr_read_b32:
		c.s[0].v = w->v + (size_t)(in->src[0] - 256 + 256) * 64;
		c.s[0].p = c.s[0].v;
		LANES O(U(&c, 0, l));
		break;
	case K_v_accvgpr_write_b32:
		dst += 256;
		LANES O(U(&c, 0, l));
		break;
	case K_v_accvgpr_mov_b32:
		dst += 256;
		c.s[0].v = w->v + (size_t)(in->src[0] - 256 + 256) * 64;
		c.s[0].p = c.s[0].v;
		LANES O(U(&c, 0, l));
		break;
	case K_v_movrels_b32: /* relative to M0 */
		c.s[0].v = w->v + (size_t)((in->src[0] - 256 + w->s[SQK_M0]) & (SQK_NV - 1)) * 64;
		c.s[0].p = c.s[0].v;
		LANES O(U(&c, 0, l));
		break;
	case K_v_movreld_b32:
		dst = 256 + ((dst - 256 + w->s[SQK_M0]) & 255);
		LANES O(U(&c, 0, l));
		break;
	case K_v_movrelsd_b32:
		c.s[0].v = w->v + (size_t)((in->src[0] - 256 + w->s[SQK_M0]) & (SQK_NV - 1)) * 64;
		c.s[0].p = c.s[0].v;
		dst = 256 + ((dst - 256 + w->s[SQK_M0]) & 255);
		LANES O(U(&c, 0, l));
		break;
	case K_v_cndmask_b32:
		unpack_lanes(cin, c.ci, n);
		LANES O(CI ? U(&c, 1, l) : U(&c, 0, l));
		break;
	/* 16-bit moves (RDNA3 ISA manual V_MOV_B16, V_CNDMASK_B16: D.b16 =
	 * S0.b16, D.b16 = VCC or S2's lane bit ? S1.b16 : S0.b16); abs / neg
	 * on them are not modelled */
	case K_v_mov_b16:
	case K_v_cndmask_b16:
		if (c.abs | c.neg)
			return sqk_fail(w, in, -ENOTSUP, "abs / neg on a 16-bit move");
		h16 = true;
		unpack_lanes(op == K_v_cndmask_b16 ? cin : 0, c.ci, n);
		LANES O(CI ? H(&c, 1, l) : H(&c, 0, l));
		break;
	/* f32 arithmetic */
	case K_v_add_f32:
		LANES O(WF(&c, F(&c, 0, l) + F(&c, 1, l)));
		break;
	case K_v_sub_f32:
		LANES O(WF(&c, F(&c, 0, l) - F(&c, 1, l)));
		break;
	case K_v_subrev_f32:
		LANES O(WF(&c, F(&c, 1, l) - F(&c, 0, l)));
		break;
	case K_v_mul_f32:
		LANES O(WF(&c, F(&c, 0, l) * F(&c, 1, l)));
		break;
	case K_v_mul_legacy_f32:
		LANES
		{
			float a = F(&c, 0, l), b = F(&c, 1, l);
			O(WF(&c, (a == 0 || b == 0) ? 0.0f : a * b));
		}
		break;
	case K_v_min_f32:
		LANES O(WF(&c, mmf(false, IEEE(&c), F(&c, 0, l), F(&c, 1, l))));
		break;
	case K_v_max_f32:
		LANES O(WF(&c, mmf(true, IEEE(&c), F(&c, 0, l), F(&c, 1, l))));
		break;
	/* RDNA3 ISA manual V_MAXMIN_F32 / V_MINMAX_F32 (gfx11):
	 * v_min_f32(v_max_f32(S0, S1), S2) and v_max_f32(v_min_f32(S0, S1),
	 * S2); RDNA4 V_MAXMIN_NUM_F32 / V_MINMAX_NUM_F32 (gfx12) the same of
	 * the _NUM operations (LLVM 22 clamps an f32 with them) */
	case K_v_maxmin_f32:
		LANES O(WF(&c, mmf(false, IEEE(&c), mmf(true, IEEE(&c), F(&c, 0, l), F(&c, 1, l)),
				   F(&c, 2, l))));
		break;
	case K_v_minmax_f32:
		LANES O(WF(&c, mmf(true, IEEE(&c), mmf(false, IEEE(&c), F(&c, 0, l), F(&c, 1, l)),
				   F(&c, 2, l))));
		break;
	case K_v_maxmin_num_f32:
		LANES O(WF(&c, (float)minnum19(maxnum19(F(&c, 0, l), F(&c, 1, l)), F(&c, 2, l))));
		break;
	case K_v_minmax_num_f32:
		LANES O(WF(&c, (float)maxnum19(minnum19(F(&c, 0, l), F(&c, 1, l)), F(&c, 2, l))));
		break;
	case K_v_min_num_f32:
		LANES O(WF(&c, (float)minnum19(F(&c, 0, l), F(&c, 1, l))));
		break;
	case K_v_minimum_f32:
	case K_v_maximum_f32:
		LANES O(WF(&c, (float)minmax754(op == K_v_maximum_f32, F(&c, 0, l), F(&c, 1, l))));
		break;
	/* the three-source forms: the first two, then S2 (minimum3: the
	 * minimum of the three; minimummaximum: the maximum of S2 and the
	 * minimum of S0 and S1; maximumminimum the mirror) */
	case K_v_minimum3_f32:
	case K_v_maximum3_f32:
	case K_v_minimummaximum_f32:
	case K_v_maximumminimum_f32:
		LANES
		{
			bool first = op == K_v_maximum3_f32 || op == K_v_maximumminimum_f32,
			     second = op == K_v_maximum3_f32 || op == K_v_minimummaximum_f32;

			O(WF(&c,
			     (float)minmax754(second, minmax754(first, F(&c, 0, l), F(&c, 1, l)),
					      F(&c, 2, l))));
		}
		break;
	case K_v_max_num_f32:
		LANES O(WF(&c, (float)maxnum19(F(&c, 0, l), F(&c, 1, l))));
		break;
	case K_v_min3_num_f32:
		LANES O(WF(&c, (float)minnum19(minnum19(F(&c, 0, l), F(&c, 1, l)), F(&c, 2, l))));
		break;
	case K_v_max3_num_f32:
		LANES O(WF(&c, (float)maxnum19(maxnum19(F(&c, 0, l), F(&c, 1, l)), F(&c, 2, l))));
		break;
	case K_v_med3_num_f32:
		LANES O(WF(&c, (float)med3num(F(&c, 0, l), F(&c, 1, l), F(&c, 2, l))));
		break;
	case K_v_mac_f32:
		LANES O(WF(&c, F(&c, 0, l) * F(&c, 1, l) +
				       sqk_f32(w->v[(size_t)(dst - 256) * 64 + l])));
		break;
	case K_v_fmac_f32:
		LANES O(WF(&c, fmaf(F(&c, 0, l), F(&c, 1, l),
				    sqk_f32(w->v[(size_t)(dst - 256) * 64 + l]))));
		break;
	case K_v_madmk_f32:
		LANES O(WF(&c, F(&c, 0, l) * sqk_f32(in->lit) + F(&c, 1, l)));
		break;
	case K_v_madak_f32:
		LANES O(WF(&c, F(&c, 0, l) * F(&c, 1, l) + sqk_f32(in->lit)));
		break;
	case K_v_fmamk_f32:
		LANES O(WF(&c, fmaf(F(&c, 0, l), sqk_f32(in->lit), F(&c, 1, l))));
		break;
	case K_v_fmaak_f32:
		LANES O(WF(&c, fmaf(F(&c, 0, l), F(&c, 1, l), sqk_f32(in->lit))));
		break;
	case K_v_mad_f32:
		LANES O(WF(&c, F(&c, 0, l) * F(&c, 1, l) + F(&c, 2, l)));
		break;
	case K_v_mad_legacy_f32:
		LANES
		{
			float a = F(&c, 0, l), b = F(&c, 1, l);
			O(WF(&c, ((a == 0 || b == 0) ? 0.0f : a * b) + F(&c, 2, l)));
		}
		break;
	case K_v_fma_f32:
		LANES O(WF(&c, fmaf(F(&c, 0, l), F(&c, 1, l), F(&c, 2, l))));
		break;
	case K_v_div_fmas_f32:
		LANES O(WF(&c,
			   fmaf(F(&c, 0, l), F(&c, 1, l), F(&c, 2, l)) *
				   ((sqk_get_mask(w, SQK_VCC) >> l & 1) ? 4294967296.0f : 1.0f)));
		break;
	case K_v_div_scale_f32:
		wcarry = true;
		LANES O(WF(&c, F(&c, 0, l)));
		break;
	case K_v_div_fixup_f32:
		LANES O(WF(&c, fixup32(F(&c, 0, l), F(&c, 1, l), F(&c, 2, l))));
		break;
	case K_v_min3_f32:
		LANES O(WF(&c, mmf(false, IEEE(&c), mmf(false, IEEE(&c), F(&c, 0, l), F(&c, 1, l)),
				   F(&c, 2, l))));
		break;
	case K_v_max3_f32:
		LANES O(WF(&c, mmf(true, IEEE(&c), mmf(true, IEEE(&c), F(&c, 0, l), F(&c, 1, l)),
				   F(&c, 2, l))));
		break;
	case K_v_med3_f32:
		LANES O(WF(&c, med3f(IEEE(&c), F(&c, 0, l), F(&c, 1, l), F(&c, 2, l))));
		break;
	case K_v_ldexp_f32:
		LANES O(WF(&c, ldexpf(F(&c, 0, l), (int32_t)U(&c, 1, l))));
		break;
	case K_v_fract_f32:
		LANES
		{
			float a = F(&c, 0, l);
			O(WF(&c, isinf(a) ? NAN : fminf(a - floorf(a), 0x1.fffffep-1f)));
		}
		break;
	case K_v_trunc_f32:
		LANES O(WF(&c, truncf(F(&c, 0, l))));
		break;
	case K_v_ceil_f32:
		LANES O(WF(&c, ceilf(F(&c, 0, l))));
		break;
	case K_v_floor_f32:
		LANES O(WF(&c, floorf(F(&c, 0, l))));
		break;
	case K_v_rndne_f32:
		LANES O(WF(&c, nearbyintf(F(&c, 0, l))));
		break;
	case K_v_exp_f32:
		LANES O(WF(&c, exp2f(F(&c, 0, l))));
		break;
	case K_v_log_f32:
		LANES O(WF(&c, log2f(F(&c, 0, l))));
		break;
	case K_v_rcp_f32:
	case K_v_rcp_iflag_f32:
		LANES O(WF(&c, 1.0f / F(&c, 0, l)));
		break;
	case K_v_rsq_f32:
		LANES O(WF(&c, 1.0f / sqrtf(F(&c, 0, l))));
		break;
	case K_v_sqrt_f32:
		LANES O(WF(&c, sqrtf(F(&c, 0, l))));
		break;
	case K_v_sin_f32:
		LANES O(WF(&c, (float)sin(6.283185307179586 * F(&c, 0, l))));
		break;
	case K_v_cos_f32:
		LANES O(WF(&c, (float)cos(6.283185307179586 * F(&c, 0, l))));
		break;
	case K_v_frexp_mant_f32:
		LANES
		{
			float a = F(&c, 0, l);
			int e;
			O(WF(&c, (isinf(a) || isnan(a)) ? a : frexpf(a, &e)));
		}
		break;
	case K_v_frexp_exp_i32_f32:
		LANES
		{
			float a = F(&c, 0, l);
			int e = 0;
			if (!isinf(a) && !isnan(a))
				frexpf(a, &e);
			O((uint32_t)e);
		}
		break;
		/* 16-bit integer (results in the low half; h16 says what the high
	 * half gets, below the switch) */
#define I16OP(name, expr)               \
	case K_##name:                  \
		h16 = true;             \
		LANES O((expr)&0xffff); \
		break;
		I16OP(v_mul_lo_u16, H(&c, 0, l) * H(&c, 1, l))
		I16OP(v_lshlrev_b16, H(&c, 1, l) << (H(&c, 0, l) & 15))
		I16OP(v_lshrrev_b16, H(&c, 1, l) >> (H(&c, 0, l) & 15))
		I16OP(v_ashrrev_i16, (uint32_t)((int16_t)H(&c, 1, l) >> (H(&c, 0, l) & 15)))
		I16OP(v_max_u16, H(&c, 0, l) > H(&c, 1, l) ? H(&c, 0, l) : H(&c, 1, l))
		I16OP(v_min_u16, H(&c, 0, l) < H(&c, 1, l) ? H(&c, 0, l) : H(&c, 1, l))
		I16OP(v_max_i16,
		      (int16_t)H(&c, 0, l) > (int16_t)H(&c, 1, l) ? H(&c, 0, l) : H(&c, 1, l))
		I16OP(v_min_i16,
		      (int16_t)H(&c, 0, l) < (int16_t)H(&c, 1, l) ? H(&c, 0, l) : H(&c, 1, l))
		I16OP(v_med3_i16, (uint32_t)med3i((int16_t)H(&c, 0, l), (int16_t)H(&c, 1, l),
						  (int16_t)H(&c, 2, l)))
		I16OP(v_med3_u16, med3u(H(&c, 0, l), H(&c, 1, l), H(&c, 2, l)))
		I16OP(v_min3_i16,
		      (uint32_t)med3i(INT16_MIN, (int16_t)H(&c, 0, l),
				      med3i(INT16_MIN, (int16_t)H(&c, 1, l), (int16_t)H(&c, 2, l))))
		I16OP(v_max3_i16,
		      (uint32_t)med3i(INT16_MAX, (int16_t)H(&c, 0, l),
				      med3i(INT16_MAX, (int16_t)H(&c, 1, l), (int16_t)H(&c, 2, l))))
		I16OP(v_min3_u16, med3u(0, H(&c, 0, l), med3u(0, H(&c, 1, l), H(&c, 2, l))))
		I16OP(v_max3_u16,
		      med3u(0xffff, H(&c, 0, l), med3u(0xffff, H(&c, 1, l), H(&c, 2, l))))
		I16OP(v_sat_pk_u8_i16, ({
			      int32_t lo_ = (int16_t)U(&c, 0, l),
				      hi_ = (int16_t)(U(&c, 0, l) >> 16);
			      (uint32_t)(lo_ < 0     ? 0
					 : lo_ > 255 ? 255
						     : lo_) |
				      (uint32_t)(hi_ < 0     ? 0
						 : hi_ > 255 ? 255
							     : hi_)
					      << 8;
		      }))
#undef I16OP
	case K_v_add_u16:
	case K_v_add_nc_u16:
	case K_v_sub_u16:
	case K_v_sub_nc_u16:
	case K_v_subrev_u16:
	case K_v_mad_u16:
	case K_v_mad_legacy_u16:
		/* unsigned; clamp saturates to [0, 0xffff] */
		h16 = true;
		LANES
		{
			int64_t a = H(&c, 0, l), b = H(&c, 1, l), r;

			if (op == K_v_add_u16 || op == K_v_add_nc_u16)
				r = a + b;
			else if (op == K_v_sub_u16 || op == K_v_sub_nc_u16)
				r = a - b;
			else if (op == K_v_subrev_u16)
				r = b - a;
			else
				r = a * b + H(&c, 2, l);
			if (c.clamp)
				r = r < 0 ? 0 : r > 0xffff ? 0xffff : r;
			O((uint32_t)r & 0xffff);
		}
		break;
	case K_v_add_i16:
	case K_v_add_nc_i16:
	case K_v_sub_i16:
	case K_v_sub_nc_i16:
	case K_v_mad_i16:
	case K_v_mad_legacy_i16:
		/* signed; clamp saturates to [-0x8000, 0x7fff] */
		h16 = true;
		LANES
		{
			int64_t a = (int16_t)H(&c, 0, l), b = (int16_t)H(&c, 1, l), r;

			if (op == K_v_add_i16 || op == K_v_add_nc_i16)
				r = a + b;
			else if (op == K_v_sub_i16 || op == K_v_sub_nc_i16)
				r = a - b;
			else
				r = a * b + (int16_t)H(&c, 2, l);
			if (c.clamp)
				r = r < INT16_MIN ? INT16_MIN : r > INT16_MAX ? INT16_MAX : r;
			O((uint32_t)r & 0xffff);
		}
		break;
	case K_v_mad_u32_u16:
		LANES O(H(&c, 0, l) * H(&c, 1, l) + U(&c, 2, l));
		break;
	case K_v_mad_i32_i16:
		/* the product fits in 32 bits; the sum wraps (no clamp) */
		LANES O((uint32_t)((int32_t)(int16_t)H(&c, 0, l) * (int16_t)H(&c, 1, l)) +
			U(&c, 2, l));
		break;
	case K_v_sad_u16:
		LANES O((H(&c, 0, l) > H(&c, 1, l) ? H(&c, 0, l) - H(&c, 1, l)
						   : H(&c, 1, l) - H(&c, 0, l)) +
			U(&c, 2, l));
		break;
	case K_v_cvt_pk_u16_u32:
		LANES O((U(&c, 0, l) > 0xffff ? 0xffff : U(&c, 0, l)) |
			(U(&c, 1, l) > 0xffff ? 0xffff : U(&c, 1, l)) << 16);
		break;
	case K_v_cvt_pk_i16_i32:
		LANES
		{
			int32_t a = (int32_t)U(&c, 0, l), b = (int32_t)U(&c, 1, l);

			a = a < INT16_MIN ? INT16_MIN : a > INT16_MAX ? INT16_MAX : a;
			b = b < INT16_MIN ? INT16_MIN : b > INT16_MAX ? INT16_MAX : b;
			O(((uint32_t)a & 0xffff) | ((uint32_t)b & 0xffff) << 16);
		}
		break;
	case K_v_pack_b32_f16: /* {S1.f16, S0.f16}: abs / neg on the bits */
		LANES
		{
			uint32_t a = H(&c, 0, l), b = H(&c, 1, l);

			a = ((c.abs & 1) ? a & 0x7fff : a) ^ ((c.neg & 1) ? 0x8000 : 0);
			b = ((c.abs & 2) ? b & 0x7fff : b) ^ ((c.neg & 2) ? 0x8000 : 0);
			O(a | b << 16);
		}
		break;
	case K_v_cvt_pknorm_i16_f32:
	case K_v_cvt_pknorm_u16_f32:
	case K_v_cvt_pknorm_i16_f16:
	case K_v_cvt_pknorm_u16_f16:
		LANES
		{
			bool sg = op == K_v_cvt_pknorm_i16_f32 || op == K_v_cvt_pknorm_i16_f16,
			     h = op == K_v_cvt_pknorm_i16_f16 || op == K_v_cvt_pknorm_u16_f16;
			uint32_t r = 0;

			for (int i = 0; i < 2; i++)
				r |= cvt_norm16(h ? HF(&c, i, l) : F(&c, i, l), sg) << (16 * i);
			O(r);
		}
		break;
	case K_v_cvt_norm_i16_f16:
	case K_v_cvt_norm_u16_f16:
		h16 = true;
		LANES O(cvt_norm16(HF(&c, 0, l), op == K_v_cvt_norm_i16_f16));
		break;
	case K_v_cvt_u16_f16:
	case K_v_cvt_i16_f16:
		/* toward zero, saturated; NaN 0 */
		h16 = true;
		LANES
		{
			double a = trunc(HF(&c, 0, l)), lo = op == K_v_cvt_i16_f16 ? -32768.0 : 0.0,
			       hi = op == K_v_cvt_i16_f16 ? 32767.0 : 65535.0;

			O(isnan(a) ? 0
				   : (uint32_t)(int32_t)(a < lo	  ? lo
							 : a > hi ? hi
								  : a) &
					     0xffff);
		}
		break;
	case K_v_cvt_f16_u16:
		h16 = true;
		LANES O(WH(&c, (double)H(&c, 0, l), 0));
		break;
	case K_v_cvt_f16_i16:
		h16 = true;
		LANES O(WH(&c, (double)(int16_t)H(&c, 0, l), 0));
		break;
		/* f16 arithmetic: exact in double, rounded once (f16_round()) */
#define H16OP(name, expr)                 \
	case K_##name:                    \
		h16 = true;               \
		LANES O(WH(&c, expr, 0)); \
		break;
		H16OP(v_add_f16, HF(&c, 0, l) + HF(&c, 1, l))
		H16OP(v_sub_f16, HF(&c, 0, l) - HF(&c, 1, l))
		H16OP(v_subrev_f16, HF(&c, 1, l) - HF(&c, 0, l))
		H16OP(v_mul_f16, HF(&c, 0, l) * HF(&c, 1, l))
		H16OP(v_max_f16, sqk_maxz(HF(&c, 0, l), HF(&c, 1, l)))
		H16OP(v_min_f16, sqk_minz(HF(&c, 0, l), HF(&c, 1, l)))
		H16OP(v_max_num_f16, maxnum19(HF(&c, 0, l), HF(&c, 1, l)))
		H16OP(v_min_num_f16, minnum19(HF(&c, 0, l), HF(&c, 1, l)))
		/* gfx12's IEEE 754-2019 f16 minimum / maximum */
		H16OP(v_minimum_f16, minmax754(false, HF(&c, 0, l), HF(&c, 1, l)))
		H16OP(v_maximum_f16, minmax754(true, HF(&c, 0, l), HF(&c, 1, l)))
		H16OP(v_max3_num_f16, maxnum19(maxnum19(HF(&c, 0, l), HF(&c, 1, l)), HF(&c, 2, l)))
		H16OP(v_min3_num_f16, minnum19(minnum19(HF(&c, 0, l), HF(&c, 1, l)), HF(&c, 2, l)))
		H16OP(v_max3_f16, sqk_maxz(sqk_maxz(HF(&c, 0, l), HF(&c, 1, l)), HF(&c, 2, l)))
		H16OP(v_min3_f16, sqk_minz(sqk_minz(HF(&c, 0, l), HF(&c, 1, l)), HF(&c, 2, l)))
		H16OP(v_med3_f16, med3d(HF(&c, 0, l), HF(&c, 1, l), HF(&c, 2, l)))
		H16OP(v_ldexp_f16, ldexp(HF(&c, 0, l), ({
						 int k_ = (int16_t)H(&c, 1, l);
						 k_<-64 ? -64 : k_> 64 ? 64 : k_;
					 })))
		H16OP(v_trunc_f16, trunc(HF(&c, 0, l)))
		H16OP(v_ceil_f16, ceil(HF(&c, 0, l)))
		H16OP(v_floor_f16, floor(HF(&c, 0, l)))
		H16OP(v_rndne_f16, nearbyint(HF(&c, 0, l)))
		H16OP(v_exp_f16, exp2_16(HF(&c, 0, l)))
		H16OP(v_log_f16, log2(HF(&c, 0, l)))
		H16OP(v_rsq_f16, 1.0 / sqrt(HF(&c, 0, l)))
		H16OP(v_sin_f16, sin2pi(HF(&c, 0, l)))
		H16OP(v_cos_f16, cos2pi(HF(&c, 0, l)))
		H16OP(v_fract_f16, ({
			      double a_ = HF(&c, 0, l);
			      isinf(a_) ? NAN : fmin(a_ - floor(a_), 0x1.ffcp-1);
		      }))
		H16OP(v_frexp_mant_f16, ({
			      double a_ = HF(&c, 0, l);
			      int x_;
			      (isinf(a_) || isnan(a_)) ? a_ : frexp(a_, &x_);
		      }))
#undef H16OP
	case K_v_frexp_exp_i16_f16:
		h16 = true;
		LANES
		{
			double a = HF(&c, 0, l);
			int e = 0;

			if (!isinf(a) && !isnan(a))
				frexp(a, &e);
			O((uint32_t)e & 0xffff);
		}
		break;
	case K_v_rcp_f16:
		h16 = true;
		LANES O(rcp16(&c, HF(&c, 0, l)));
		break;
	case K_v_sqrt_f16:
		h16 = true;
		LANES O(sqrt16(&c, HF(&c, 0, l)));
		break;
	case K_v_fma_f16:
	case K_v_fma_legacy_f16:
		h16 = true;
		LANES O(fma16(&c, HF(&c, 0, l), HF(&c, 1, l), HF(&c, 2, l)));
		break;
	case K_v_mad_f16: /* multiply rounded, then add rounded */
	case K_v_mad_legacy_f16:
	case K_v_mac_f16:
	case K_v_madak_f16:
	case K_v_madmk_f16:
	case K_v_fmac_f16:
	case K_v_fmaak_f16:
	case K_v_fmamk_f16:
		h16 = true;
		LANES
		{
			double a = HF(&c, 0, l), b = HF(&c, 1, l), z;
			uint32_t dv = w->v[(size_t)(dst - 256) * 64 + l];
			bool fused =
				op == K_v_fmac_f16 || op == K_v_fmaak_f16 || op == K_v_fmamk_f16;

			if (op == K_v_mac_f16 || op == K_v_fmac_f16) /* the accumulator: D's half */
				z = acc16(&c, (c.opsel & 8) ? dv >> 16 : dv);
			else if (op == K_v_madak_f16 || op == K_v_fmaak_f16)
				z = f16_to_d((uint16_t)in->lit);
			else if (op == K_v_madmk_f16 || op == K_v_fmamk_f16)
				z = b, b = f16_to_d((uint16_t)in->lit);
			else
				z = HF(&c, 2, l);
			if (fused) {
				O(fma16(&c, a, b, z));
			} else {
				uint16_t p = f16_round(a * b, 0, c.rm16);

				if (c.ftz64 && !(p & 0x7c00))
					p &= 0x8000;
				O(WH(&c, f16_to_d(p) + z, 0));
			}
		}
		break;
	case K_v_div_fixup_f16:
	case K_v_div_fixup_legacy_f16:
		h16 = true;
		LANES
		{
			double q = HF(&c, 0, l), den = HF(&c, 1, l), num = HF(&c, 2, l);

			/* the special quotients as IEEE division gives them;
			 * else |S0| with the sign of S1 xor S2 (ISA manuals,
			 * V_DIV_FIXUP_F16) */
			if (isnan(num) || isnan(den) || isinf(num) || isinf(den) || den == 0 ||
			    num == 0)
				q = num / den;
			else
				q = (signbit(num) != signbit(den)) ? -fabs(q) : fabs(q);
			O(WH(&c, q, 0));
		}
		break;
	/* VOP3P packed 16-bit: the low result from the source halves op_sel
	 * picks (neg: negate), the high one from those op_sel_hi picks
	 * (neg_hi); v_pk_fmac_f16 (VOP2): the low halves and the high halves */
	case K_v_pk_add_u16:
	case K_v_pk_sub_u16:
	case K_v_pk_add_i16:
	case K_v_pk_sub_i16:
	case K_v_pk_mul_lo_u16:
	case K_v_pk_lshlrev_b16:
	case K_v_pk_lshrrev_b16:
	case K_v_pk_ashrrev_i16:
	case K_v_pk_max_u16:
	case K_v_pk_min_u16:
	case K_v_pk_max_i16:
	case K_v_pk_min_i16:
	case K_v_pk_mad_u16:
	case K_v_pk_mad_i16:
		LANES
		{
			uint32_t r = 0;

			for (unsigned h = 0; h < 2; h++) {
				uint32_t a = PH(&c, 0, l, h), b = PH(&c, 1, l, h),
					 z = PH(&c, 2, l, h);
				int32_t sa = (int16_t)a, sb = (int16_t)b;
				int64_t v;

				switch (op) {
				case K_v_pk_add_u16:
					v = c.clamp ? clamp64((int64_t)a + b, 0, 0xffff) : a + b;
					break;
				case K_v_pk_sub_u16:
					v = c.clamp ? clamp64((int64_t)a - b, 0, 0xffff) : a - b;
					break;
				case K_v_pk_add_i16:
					v = c.clamp ? clamp64(sa + sb, INT16_MIN, INT16_MAX)
						    : sa + sb;
					break;
				case K_v_pk_sub_i16:
					v = c.clamp ? clamp64(sa - sb, INT16_MIN, INT16_MAX)
						    : sa - sb;
					break;
				case K_v_pk_mul_lo_u16:
					v = a * b;
					break;
				case K_v_pk_lshlrev_b16:
					v = b << (a & 15);
					break;
				case K_v_pk_lshrrev_b16:
					v = b >> (a & 15);
					break;
				case K_v_pk_ashrrev_i16:
					v = sb >> (a & 15);
					break;
				case K_v_pk_max_u16:
					v = a > b ? a : b;
					break;
				case K_v_pk_min_u16:
					v = a < b ? a : b;
					break;
				case K_v_pk_max_i16:
					v = sa > sb ? sa : sb;
					break;
				case K_v_pk_min_i16:
					v = sa < sb ? sa : sb;
					break;
				case K_v_pk_mad_u16:
					v = (int64_t)a * b + z;
					if (c.clamp)
						v = clamp64(v, 0, 0xffff);
					break;
				default: /* v_pk_mad_i16 */
					v = (int64_t)sa * sb + (int16_t)z;
					if (c.clamp)
						v = clamp64(v, INT16_MIN, INT16_MAX);
					break;
				}
				r |= ((uint32_t)v & 0xffff) << (16 * h);
			}
			O(r);
		}
		break;
	case K_v_pk_add_f16:
	case K_v_pk_mul_f16:
	case K_v_pk_fma_f16:
	case K_v_pk_min_f16:
	case K_v_pk_max_f16:
	case K_v_pk_min_num_f16:
	case K_v_pk_max_num_f16:
	case K_v_pk_fmac_f16:
	case K_v_pk_minimum3_f16:
	case K_v_pk_maximum3_f16:
		LANES
		{
			uint32_t r = 0, dv = w->v[(size_t)(dst - 256) * 64 + l];

			for (unsigned h = 0; h < 2; h++) {
				double a = PF(&c, 0, l, h), b = PF(&c, 1, l, h), v;

				if (op == K_v_pk_fma_f16 || op == K_v_pk_fmac_f16) {
					double z = op == K_v_pk_fma_f16 ? PF(&c, 2, l, h)
									: acc16(&c, dv >> (16 * h));

					r |= fma16(&c, a, b, z) << (16 * h);
					continue;
				}
				/* gfx950 (CDNA4 ISA, V_PK_MAXIMUM3_F16): each half
				 * the IEEE 754-2019 maximum (minimum) of the three */
				if (op == K_v_pk_minimum3_f16 || op == K_v_pk_maximum3_f16) {
					bool mx = op == K_v_pk_maximum3_f16;
					double m =
						minmax754(mx, minmax754(mx, a, b), PF(&c, 2, l, h));

					r |= WH(&c, m, 0) << (16 * h);
					continue;
				}
				v = op == K_v_pk_add_f16       ? a + b
				    : op == K_v_pk_mul_f16     ? a * b
				    : op == K_v_pk_min_f16     ? sqk_minz(a, b)
				    : op == K_v_pk_max_f16     ? sqk_maxz(a, b)
				    : op == K_v_pk_min_num_f16 ? minnum19(a, b)
							       : maxnum19(a, b);
				r |= WH(&c, v, 0) << (16 * h);
			}
			O(r);
		}
		break;
	/* mixed precision (VOP3P encoding, VOP3 modifiers): op_sel_hi bit i
	 * set: source i is the f16 half op_sel picks, else an f32; neg, and
	 * abs in the neg_hi field. mad: the product rounded to f32 first;
	 * fma: fused. mix_f32: an f32; mixlo / mixhi: an f16 into the low /
	 * high half, the other kept. */
	case K_v_mad_mix_f32:
	case K_v_mad_mixlo_f16:
	case K_v_mad_mixhi_f16:
	case K_v_fma_mix_f32:
	case K_v_fma_mixlo_f16:
	case K_v_fma_mixhi_f16:
		LANES
		{
			double s[3], p, sum;
			bool fused = op == K_v_fma_mix_f32 || op == K_v_fma_mixlo_f16 ||
				     op == K_v_fma_mixhi_f16;

			for (int i = 0; i < 3; i++)
				s[i] = MIXF(&c, i, l);
			p = s[0] * s[1]; /* exact: 24-bit significands */
			if (!fused) {	 /* v_mad_mix: the product rounded to f32 */
				float pf = (float)p;

				if (c.ftz32 && !(sqk_u32(pf) & 0x7f800000u))
					pf = copysignf(0.0f, pf);
				p = pf;
			}
			if (op == K_v_mad_mix_f32 || op == K_v_fma_mix_f32) {
				sum = p + s[2];
				O(WF(&c, f32_round_sticky(sum, sum_dir(p, s[2], sum))));
			} else {
				uint32_t dv = w->v[(size_t)(dst - 256) * 64 + l], hv;

				sum = p + s[2];
				hv = WH(&c, sum, sum_dir(p, s[2], sum));
				O(op == K_v_mad_mixlo_f16 || op == K_v_fma_mixlo_f16
					  ? (dv & 0xffff0000u) | hv
					  : (dv & 0xffff) | hv << 16);
			}
		}
		break;
	/* dot products: the products exact, their sum with S2 (or D, the
	 * "c" forms) in double; integers exact (clamp: saturate) */
	case K_v_dot2_f32_f16:
	case K_v_dot2c_f32_f16:
		LANES
		{
			double z = op == K_v_dot2_f32_f16
					   ? (double)F(&c, 2, l)
					   : (double)sqk_f32(
						     acc32(&c, w->v[(size_t)(dst - 256) * 64 + l]));
			/* the products are exact; the two sums carry their
			 * errors (TwoSum) into one rounding to f32. The ISA
			 * does not say how the hardware rounds inside the dot
			 * product: one rounding of the exact value is our
			 * choice (unverified on hardware). */
			double p1 = PF(&c, 0, l, 0) * PF(&c, 1, l, 0),
			       p2 = PF(&c, 0, l, 1) * PF(&c, 1, l, 1), s1 = p1 + p2, s2 = s1 + z,
			       e = twosum_err(p1, p2, s1) + twosum_err(s1, z, s2), r = s2 + e;

			O(WF(&c, f32_round_sticky(r, sum_dir(s2, e, r))));
		}
		break;
	case K_v_dot2_i32_i16:
	case K_v_dot2_u32_u16:
	case K_v_dot2c_i32_i16:
	case K_v_dot4_i32_i8:
	case K_v_dot4_u32_u8:
	case K_v_dot4c_i32_i8:
	case K_v_dot8_i32_i4:
	case K_v_dot8_u32_u4:
	case K_v_dot8c_i32_i4:
		LANES
		{
			bool sg = op != K_v_dot2_u32_u16 && op != K_v_dot4_u32_u8 &&
				  op != K_v_dot8_u32_u4;
			bool acc = op == K_v_dot2c_i32_i16 || op == K_v_dot4c_i32_i8 ||
				   op == K_v_dot8c_i32_i4;
			unsigned bits = (op == K_v_dot2_i32_i16 || op == K_v_dot2_u32_u16 ||
					 op == K_v_dot2c_i32_i16)
						? 16
					: (op == K_v_dot4_i32_i8 || op == K_v_dot4_u32_u8 ||
					   op == K_v_dot4c_i32_i8)
						? 8
						: 4;
			uint32_t x = U(&c, 0, l), y = U(&c, 1, l),
				 z = acc ? w->v[(size_t)(dst - 256) * 64 + l] : U(&c, 2, l);
			int64_t sum = sg ? (int64_t)(int32_t)z : (int64_t)z;

			if (bits == 16) { /* the halves op_sel / op_sel_hi pick */
				x = PH(&c, 0, l, 0) | PH(&c, 0, l, 1) << 16;
				y = PH(&c, 1, l, 0) | PH(&c, 1, l, 1) << 16;
			}
			for (unsigned k = 0; k < 32 / bits; k++) {
				uint32_t m = (1u << bits) - 1, a = x >> (bits * k) & m,
					 b = y >> (bits * k) & m;

				if (sg)
					sum += (int64_t)sext32(a, bits) * sext32(b, bits);
				else
					sum += (int64_t)a * b;
			}
			if (c.clamp)
				sum = sg ? clamp64(sum, INT32_MIN, INT32_MAX)
					 : clamp64(sum, 0, UINT32_MAX);
			O((uint32_t)sum);
		}
		break;
	/* conversions */
	case K_v_cvt_f32_i32:
		LANES O(WF(&c, (float)(int32_t)U(&c, 0, l)));
		break;
	case K_v_cvt_f32_u32:
		LANES O(WF(&c, (float)U(&c, 0, l)));
		break;
	case K_v_cvt_i32_f32:
		LANES O((uint32_t)cvt_i32(F(&c, 0, l)));
		break;
	case K_v_cvt_u32_f32:
		LANES O(cvt_u32(F(&c, 0, l)));
		break;
	case K_v_cvt_rpi_i32_f32:
		LANES O((uint32_t)cvt_i32(floor((double)F(&c, 0, l) + 0.5)));
		break;
	case K_v_cvt_flr_i32_f32:
		LANES O((uint32_t)cvt_i32(floorf(F(&c, 0, l))));
		break;
	case K_v_cvt_f16_f32:
		h16 = true;
		LANES O(WH(&c, (double)F(&c, 0, l), 0));
		break;
	case K_v_cvt_pkrtz_f16_f32:
		LANES O((uint32_t)f32_to_f16(F(&c, 0, l), true) |
			(uint32_t)f32_to_f16(F(&c, 1, l), true) << 16);
		break;
	case K_v_cvt_f32_f16:
		LANES O(WF(&c, (float)HF(&c, 0, l)));
		break;
	case K_v_cvt_f32_ubyte0:
	case K_v_cvt_f32_ubyte1:
	case K_v_cvt_f32_ubyte2:
	case K_v_cvt_f32_ubyte3: {
		unsigned sh = 8 * (op - K_v_cvt_f32_ubyte0);

		LANES O(WF(&c, (float)(U(&c, 0, l) >> sh & 0xff)));
		break;
	}
	case K_v_cvt_f32_f64:
		LANES O(WF(&c, (float)D(&c, 0, l)));
		break;
	case K_v_cvt_f64_f32:
		dw = 2;
		LANES O(WD(&c, (double)F(&c, 0, l)));
		break;
	case K_v_cvt_i32_f64:
		LANES O((uint32_t)cvt_i32(D(&c, 0, l)));
		break;
	case K_v_cvt_u32_f64:
		LANES O(cvt_u32(D(&c, 0, l)));
		break;
	case K_v_cvt_f64_i32:
		dw = 2;
		LANES O(WD(&c, (double)(int32_t)U(&c, 0, l)));
		break;
	case K_v_cvt_f64_u32:
		dw = 2;
		LANES O(WD(&c, (double)U(&c, 0, l)));
		break;
		/* f64 */
#define F64OP(name, expr)              \
	case K_##name:                 \
		dw = 2;                \
		LANES O(WD(&c, expr)); \
		break;
		F64OP(v_add_f64, D(&c, 0, l) + D(&c, 1, l))
		F64OP(v_mul_f64, D(&c, 0, l) * D(&c, 1, l))
		F64OP(v_min_f64, mmd(false, IEEE(&c), D(&c, 0, l), D(&c, 1, l)))
		F64OP(v_max_f64, mmd(true, IEEE(&c), D(&c, 0, l), D(&c, 1, l)))
		F64OP(v_min_num_f64, minnum19(D(&c, 0, l), D(&c, 1, l)))
		F64OP(v_max_num_f64, maxnum19(D(&c, 0, l), D(&c, 1, l)))
		F64OP(v_minimum_f64, minmax754(false, D(&c, 0, l), D(&c, 1, l)))
		F64OP(v_maximum_f64, minmax754(true, D(&c, 0, l), D(&c, 1, l)))
		F64OP(v_fma_f64, fma(D(&c, 0, l), D(&c, 1, l), D(&c, 2, l)))
		F64OP(v_div_fixup_f64, fixup64(D(&c, 0, l), D(&c, 1, l), D(&c, 2, l)))
		F64OP(v_ldexp_f64, ldexp(D(&c, 0, l), (int32_t)U(&c, 1, l)))
		F64OP(v_trunc_f64, trunc(D(&c, 0, l)))
		F64OP(v_ceil_f64, ceil(D(&c, 0, l)))
		F64OP(v_floor_f64, floor(D(&c, 0, l)))
		F64OP(v_rndne_f64, nearbyint(D(&c, 0, l)))
		F64OP(v_rcp_f64, 1.0 / D(&c, 0, l))
		F64OP(v_rsq_f64, 1.0 / sqrt(D(&c, 0, l)))
		F64OP(v_sqrt_f64, sqrt(D(&c, 0, l)))
	case K_v_fmac_f64:
		dw = 2;
		LANES
		{
			const uint32_t *dv = w->v + (size_t)(dst - 256) * 64;
			O(WD(&c, fma(D(&c, 0, l), D(&c, 1, l),
				     sqk_f64(dv[l] | (uint64_t)dv[l + 64] << 32))));
		}
		break;
	case K_v_div_fmas_f64:
		dw = 2;
		LANES O(WD(&c, fma(D(&c, 0, l), D(&c, 1, l), D(&c, 2, l)) *
				       ((sqk_get_mask(w, SQK_VCC) >> l & 1) ? 0x1p64 : 1.0)));
		break;
	case K_v_div_scale_f64:
		dw = 2;
		wcarry = true;
		LANES O(WD(&c, D(&c, 0, l)));
		break;
	case K_v_fract_f64:
		dw = 2;
		LANES
		{
			double a = D(&c, 0, l);
			O(WD(&c, isinf(a) ? NAN : fmin(a - floor(a), 0x1.fffffffffffffp-1)));
		}
		break;
	case K_v_frexp_mant_f64:
		dw = 2;
		LANES
		{
			double a = D(&c, 0, l);
			int e;
			O(WD(&c, (isinf(a) || isnan(a)) ? a : frexp(a, &e)));
		}
		break;
	case K_v_frexp_exp_i32_f64:
		LANES
		{
			double a = D(&c, 0, l);
			int e = 0;
			if (!isinf(a) && !isnan(a))
				frexp(a, &e);
			O((uint32_t)e);
		}
		break;
		/* integer */
#define I32OP(name, expr)      \
	case K_##name:         \
		LANES O(expr); \
		break;
		I32OP(v_and_b32, U(&c, 0, l) & U(&c, 1, l))
		I32OP(v_or_b32, U(&c, 0, l) | U(&c, 1, l))
		I32OP(v_xor_b32, U(&c, 0, l) ^ U(&c, 1, l))
		I32OP(v_xnor_b32, ~(U(&c, 0, l) ^ U(&c, 1, l)))
		I32OP(v_not_b32, ~U(&c, 0, l))
		I32OP(v_lshlrev_b32, U(&c, 1, l) << (U(&c, 0, l) & 31))
		I32OP(v_lshrrev_b32, U(&c, 1, l) >> (U(&c, 0, l) & 31))
		I32OP(v_ashrrev_i32, (uint32_t)((int32_t)U(&c, 1, l) >> (U(&c, 0, l) & 31)))
		I32OP(v_min_i32,
		      (int32_t)U(&c, 0, l) < (int32_t)U(&c, 1, l) ? U(&c, 0, l) : U(&c, 1, l))
		I32OP(v_max_i32,
		      (int32_t)U(&c, 0, l) > (int32_t)U(&c, 1, l) ? U(&c, 0, l) : U(&c, 1, l))
		I32OP(v_min_u32, U(&c, 0, l) < U(&c, 1, l) ? U(&c, 0, l) : U(&c, 1, l))
		I32OP(v_max_u32, U(&c, 0, l) > U(&c, 1, l) ? U(&c, 0, l) : U(&c, 1, l))
		I32OP(v_mul_u32_u24, (U(&c, 0, l) & 0xffffff) * (U(&c, 1, l) & 0xffffff))
		I32OP(v_mul_hi_u32_u24,
		      (uint32_t)(((uint64_t)(U(&c, 0, l) & 0xffffff) * (U(&c, 1, l) & 0xffffff)) >>
				 32))
		I32OP(v_mul_i32_i24, (uint32_t)((int64_t)((int32_t)(U(&c, 0, l) << 8) >> 8) *
						((int32_t)(U(&c, 1, l) << 8) >> 8)))
		I32OP(v_mul_hi_i32_i24, (uint32_t)(((int64_t)((int32_t)(U(&c, 0, l) << 8) >> 8) *
						    ((int32_t)(U(&c, 1, l) << 8) >> 8)) >>
						   32))
		I32OP(v_mad_u32_u24,
		      (U(&c, 0, l) & 0xffffff) * (U(&c, 1, l) & 0xffffff) + U(&c, 2, l))
		I32OP(v_mad_i32_i24, (uint32_t)((int64_t)((int32_t)(U(&c, 0, l) << 8) >> 8) *
							((int32_t)(U(&c, 1, l) << 8) >> 8) +
						(int32_t)U(&c, 2, l)))
		I32OP(v_mul_lo_u32, U(&c, 0, l) * U(&c, 1, l))
		I32OP(v_mul_lo_i32, U(&c, 0, l) * U(&c, 1, l))
		I32OP(v_mul_hi_u32, (uint32_t)(((uint64_t)U(&c, 0, l) * U(&c, 1, l)) >> 32))
		I32OP(v_mul_hi_i32,
		      (uint32_t)(((int64_t)(int32_t)U(&c, 0, l) * (int32_t)U(&c, 1, l)) >> 32))
		I32OP(v_bfe_u32, bfe(U(&c, 0, l), U(&c, 1, l), U(&c, 2, l), false))
		I32OP(v_bfe_i32, bfe(U(&c, 0, l), U(&c, 1, l), U(&c, 2, l), true))
		I32OP(v_bfi_b32, (U(&c, 0, l) & U(&c, 1, l)) | (~U(&c, 0, l) & U(&c, 2, l)))
		I32OP(v_bfm_b32, ((U(&c, 0, l) & 31) ? ((1u << (U(&c, 0, l) & 31)) - 1) : 0)
					 << (U(&c, 1, l) & 31))
		I32OP(v_alignbit_b32, (uint32_t)((((uint64_t)U(&c, 0, l) << 32) | U(&c, 1, l)) >>
						 (U(&c, 2, l) & 31)))
		I32OP(v_alignbyte_b32, (uint32_t)((((uint64_t)U(&c, 0, l) << 32) | U(&c, 1, l)) >>
						  (8 * (U(&c, 2, l) & 3))))
		I32OP(v_min3_i32, (uint32_t)med3i(INT32_MIN, (int32_t)U(&c, 0, l),
						  (int32_t)U(&c, 1, l) < (int32_t)U(&c, 2, l)
							  ? (int32_t)U(&c, 1, l)
							  : (int32_t)U(&c, 2, l)))
		I32OP(v_max3_i32, (uint32_t)med3i(INT32_MAX, (int32_t)U(&c, 0, l),
						  (int32_t)U(&c, 1, l) > (int32_t)U(&c, 2, l)
							  ? (int32_t)U(&c, 1, l)
							  : (int32_t)U(&c, 2, l)))
		I32OP(v_min3_u32,
		      med3u(0, U(&c, 0, l), U(&c, 1, l) < U(&c, 2, l) ? U(&c, 1, l) : U(&c, 2, l)))
		I32OP(v_max3_u32, med3u(UINT32_MAX, U(&c, 0, l),
					U(&c, 1, l) > U(&c, 2, l) ? U(&c, 1, l) : U(&c, 2, l)))
		I32OP(v_med3_i32, (uint32_t)med3i((int32_t)U(&c, 0, l), (int32_t)U(&c, 1, l),
						  (int32_t)U(&c, 2, l)))
		I32OP(v_med3_u32, med3u(U(&c, 0, l), U(&c, 1, l), U(&c, 2, l)))
		/* RDNA3/RDNA4 ISA manuals V_MAXMIN_{I,U}32: min(max(S0, S1),
		 * S2); V_MINMAX_{I,U}32: max(min(S0, S1), S2); a min or max
		 * as the median with the type's bound, as v_min3 / v_max3 */
		I32OP(v_maxmin_i32,
		      (uint32_t)med3i(INT32_MIN,
				      med3i(INT32_MAX, (int32_t)U(&c, 0, l), (int32_t)U(&c, 1, l)),
				      (int32_t)U(&c, 2, l)))
		I32OP(v_minmax_i32,
		      (uint32_t)med3i(INT32_MAX,
				      med3i(INT32_MIN, (int32_t)U(&c, 0, l), (int32_t)U(&c, 1, l)),
				      (int32_t)U(&c, 2, l)))
		I32OP(v_maxmin_u32,
		      med3u(0, med3u(UINT32_MAX, U(&c, 0, l), U(&c, 1, l)), U(&c, 2, l)))
		I32OP(v_minmax_u32,
		      med3u(UINT32_MAX, med3u(0, U(&c, 0, l), U(&c, 1, l)), U(&c, 2, l)))
		I32OP(v_lshl_add_u32, (U(&c, 0, l) << (U(&c, 1, l) & 31)) + U(&c, 2, l))
		I32OP(v_add_lshl_u32, (U(&c, 0, l) + U(&c, 1, l)) << (U(&c, 2, l) & 31))
		I32OP(v_add3_u32, U(&c, 0, l) + U(&c, 1, l) + U(&c, 2, l))
		I32OP(v_lshl_or_b32, (U(&c, 0, l) << (U(&c, 1, l) & 31)) | U(&c, 2, l))
		I32OP(v_and_or_b32, (U(&c, 0, l) & U(&c, 1, l)) | U(&c, 2, l))
		I32OP(v_or3_b32, U(&c, 0, l) | U(&c, 1, l) | U(&c, 2, l))
		I32OP(v_xor3_b32, U(&c, 0, l) ^ U(&c, 1, l) ^ U(&c, 2, l))
		I32OP(v_xad_u32, (U(&c, 0, l) ^ U(&c, 1, l)) + U(&c, 2, l))
		I32OP(v_perm_b32, perm(U(&c, 0, l), U(&c, 1, l), U(&c, 2, l)))
		I32OP(v_sad_u32, (U(&c, 0, l) > U(&c, 1, l) ? U(&c, 0, l) - U(&c, 1, l)
							    : U(&c, 1, l) - U(&c, 0, l)) +
					 U(&c, 2, l))
		I32OP(v_bfrev_b32, ({
			      uint32_t x_ = U(&c, 0, l), r_ = 0;
			      for (int i_ = 0; i_ < 32; i_++)
				      r_ |= (x_ >> i_ & 1) << (31 - i_);
			      r_;
		      }))
		I32OP(v_ffbh_u32, U(&c, 0, l) ? (uint32_t)__builtin_clz(U(&c, 0, l)) : ~0u)
		I32OP(v_ffbl_b32, U(&c, 0, l) ? (uint32_t)__builtin_ctz(U(&c, 0, l)) : ~0u)
		I32OP(v_ffbh_i32, ({
			      uint32_t x_ = U(&c, 0, l);
			      if ((int32_t)x_ < 0)
				      x_ = ~x_;
			      x_ ? (uint32_t)__builtin_clz(x_) : ~0u;
		      }))
		I32OP(v_bcnt_u32_b32, (uint32_t)__builtin_popcount(U(&c, 0, l)) + U(&c, 1, l))
		I32OP(v_mbcnt_lo_u32_b32,
		      (uint32_t)__builtin_popcount(U(&c, 0, l) & (l >= 32 ? ~0u : (1u << l) - 1)) +
			      U(&c, 1, l))
		I32OP(v_mbcnt_hi_u32_b32,
		      (uint32_t)__builtin_popcount(U(&c, 0, l) &
						   (l < 32 ? 0u : ((1ull << (l - 32)) - 1))) +
			      U(&c, 1, l))
	case K_v_add_u32:
	case K_v_add_nc_u32:
		LANES
		{
			uint64_t s = (uint64_t)U(&c, 0, l) + U(&c, 1, l);
			O(c.clamp && s > UINT32_MAX ? UINT32_MAX : (uint32_t)s);
		}
		break;
	case K_v_sub_u32:
	case K_v_sub_nc_u32:
		LANES O(c.clamp && U(&c, 1, l) > U(&c, 0, l) ? 0 : U(&c, 0, l) - U(&c, 1, l));
		break;
	case K_v_subrev_u32:
	case K_v_subrev_nc_u32:
		LANES O(c.clamp && U(&c, 0, l) > U(&c, 1, l) ? 0 : U(&c, 1, l) - U(&c, 0, l));
		break;
	case K_v_add_i32:
	case K_v_sub_i32:
		LANES
		{
			int64_t s = op == K_v_add_i32
					    ? (int64_t)(int32_t)U(&c, 0, l) + (int32_t)U(&c, 1, l)
					    : (int64_t)(int32_t)U(&c, 0, l) - (int32_t)U(&c, 1, l);
			if (c.clamp)
				s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
			O((uint32_t)s);
		}
		break;
	case K_v_add_co_u32:
		wcarry = true;
		LANES
		{
			uint32_t a = U(&c, 0, l), r = a + U(&c, 1, l);
			O(r), CY(r < a);
		}
		break;
	case K_v_sub_co_u32:
		wcarry = true;
		LANES O(U(&c, 0, l) - U(&c, 1, l)), CY(U(&c, 1, l) > U(&c, 0, l));
		break;
	case K_v_subrev_co_u32:
		wcarry = true;
		LANES O(U(&c, 1, l) - U(&c, 0, l)), CY(U(&c, 0, l) > U(&c, 1, l));
		break;
	case K_v_addc_co_u32:
	case K_v_add_co_ci_u32:
		wcarry = true;
		unpack_lanes(cin, c.ci, n);
		LANES
		{
			uint32_t a = U(&c, 0, l), t = a + U(&c, 1, l), r = t + CI;
			O(r), CY((t < a) | (r < t));
		}
		break;
	case K_v_subb_co_u32:
	case K_v_sub_co_ci_u32:
		wcarry = true;
		unpack_lanes(cin, c.ci, n);
		LANES O(U(&c, 0, l) - U(&c, 1, l) - (uint32_t)CI),
			CY((uint64_t)U(&c, 1, l) + CI > U(&c, 0, l));
		break;
	case K_v_subbrev_co_u32:
	case K_v_subrev_co_ci_u32:
		wcarry = true;
		unpack_lanes(cin, c.ci, n);
		LANES O(U(&c, 1, l) - U(&c, 0, l) - (uint32_t)CI),
			CY((uint64_t)U(&c, 0, l) + CI > U(&c, 1, l));
		break;
	case K_v_mad_u64_u32:
		dw = 2;
		wcarry = true;
		LANES
		{
			unsigned __int128 p =
				(unsigned __int128)((uint64_t)U(&c, 0, l) * U(&c, 1, l)) +
				U64(&c, 2, l);
			O((uint64_t)p), CY((uint64_t)(p >> 64));
		}
		break;
	case K_v_mad_i64_i32:
		dw = 2;
		wcarry = true;
		LANES
		{
			__int128 p =
				(__int128)((int64_t)(int32_t)U(&c, 0, l) * (int32_t)U(&c, 1, l)) +
				(int64_t)U64(&c, 2, l);
			O((uint64_t)p), CY(p > INT64_MAX || p < INT64_MIN);
		}
		break;
	case K_v_lshlrev_b64:
		dw = 2;
		LANES O(U64(&c, 1, l) << (U(&c, 0, l) & 63));
		break;
	case K_v_lshrrev_b64:
		dw = 2;
		LANES O(U64(&c, 1, l) >> (U(&c, 0, l) & 63));
		break;
	case K_v_ashrrev_i64:
		dw = 2;
		LANES O((uint64_t)((int64_t)U64(&c, 1, l) >> (U(&c, 0, l) & 63)));
		break;
	case K_v_lshl_add_u64:
		dw = 2;
		LANES O((U64(&c, 0, l) << (U(&c, 1, l) & 7)) + U64(&c, 2, l));
		break;
	/* GC 12.5 integer operations ("CDNA/GC 12.5 ISA" pseudo-code as LLVM
	 * VOP2Instructions.td / VOP3Instructions.td define them: V_ADD_NC_U64
	 * D = S0 + S1, V_SUB_NC_U64 D = S0 - S1, V_MUL_U64 the low 64 bits of
	 * S0 * S1, V_MAD_U32 D = S0 * S1 + S2 in 32 bits, V_MAD_NC_U64_U32
	 * D = S0.u32 * S1.u32 + S2.u64 without a carry-out). Clamp and the
	 * input modifiers are not modelled on them: refused. */
	case K_v_add_nc_u64:
	case K_v_sub_nc_u64:
	case K_v_mul_u64:
	case K_v_max_i64:
	case K_v_min_i64:
	case K_v_max_u64:
	case K_v_min_u64:
	case K_v_mad_u32:
	case K_v_mad_nc_u64_u32:
		if (c.clamp || c.abs || c.neg || c.omod)
			return sqk_fail(w, in, -ENOTSUP, "modifiers on a 64-bit integer operation");
		dw = op == K_v_mad_u32 ? 1 : 2;
		switch (op) {
		case K_v_add_nc_u64:
			LANES O(U64(&c, 0, l) + U64(&c, 1, l));
			break;
		case K_v_sub_nc_u64:
			LANES O(U64(&c, 0, l) - U64(&c, 1, l));
			break;
		case K_v_mul_u64:
			LANES O(U64(&c, 0, l) * U64(&c, 1, l));
			break;
		/* GC 12.5 (gfx1250) 64-bit integer max / min, VOP3 opcodes
		 * 792-795 in LLVM 22's gfx1250 disassembler (its selection
		 * of llvm.smax / llvm.umin ... on i64): D = the larger or
		 * smaller of S0 and S1, signed or unsigned as named */
		case K_v_max_i64:
		case K_v_min_i64:
			LANES
			{
				int64_t a = (int64_t)U64(&c, 0, l), b = (int64_t)U64(&c, 1, l);

				O((uint64_t)((op == K_v_max_i64) == (a > b) ? a : b));
			}
			break;
		case K_v_max_u64:
		case K_v_min_u64:
			LANES
			{
				uint64_t a = U64(&c, 0, l), b = U64(&c, 1, l);

				O((op == K_v_max_u64) == (a > b) ? a : b);
			}
			break;
		case K_v_mad_u32:
			LANES O((uint32_t)(U(&c, 0, l) * U(&c, 1, l) + U(&c, 2, l)));
			break;
		default:
			LANES O((uint64_t)U(&c, 0, l) * U(&c, 1, l) + U64(&c, 2, l));
			break;
		}
		break;
	case K_v_fmamk_f64: /* D = S0 * K + S1, K the 64-bit literal */
		dw = 2;
		LANES O(WD(&c, fma(D(&c, 0, l), sqk_f64(in->lit | (uint64_t)in->lit_hi << 32),
				   D(&c, 1, l))));
		break;
	/* VOP3P (gfx90a, gfx940): two 32-bit halves of 64-bit sources;
	 * op_sel picks the half for the low result, op_sel_hi for the high */
	case K_v_pk_mov_b32:
		dw = 2;
		LANES
		{
			uint64_t a = U64(&c, 0, l), b = U64(&c, 1, l);
			uint32_t lo = (uint32_t)(in->opsel & 1 ? a >> 32 : a),
				 hi = (uint32_t)(in->opsel & 2 ? b >> 32 : b);
			O(lo | (uint64_t)hi << 32);
		}
		break;
	case K_v_pk_add_f32:
	case K_v_pk_mul_f32:
	case K_v_pk_fma_f32:
		dw = 2;
		LANES
		{
			float r[2];

			for (unsigned h = 0; h < 2; h++) {
				float s[3];

				for (unsigned i = 0; i < 3; i++) {
					uint64_t v = U64(&c, (int)i, l);
					unsigned sel =
						h ? (in->opsel_hi >> i & 1) : (in->opsel >> i & 1);
					unsigned ng =
						h ? (in->neg_hi >> i & 1) : (in->neg >> i & 1);

					s[i] = sqk_f32((uint32_t)(sel ? v >> 32 : v));
					if (ng)
						s[i] = -s[i];
				}
				r[h] = op == K_v_pk_add_f32   ? s[0] + s[1]
				       : op == K_v_pk_mul_f32 ? s[0] * s[1]
							      : fmaf(s[0], s[1], s[2]);
			}
			c.neg = 0;
			O(WF(&c, r[0]) | WF(&c, r[1]) << 32);
		}
		break;
	default:
		return sqk_fail(w, in, -ENOTSUP, "unimplemented instruction");
	}
	/* write back the active lanes */
	{
		uint32_t *dv = w->v + (size_t)(dst - 256) * 64;

		if (dst < 256 || dst - 256 + dw > SQK_NV)
			return sqk_fail(w, in, -EPROTO, "bad destination register");
		if (h16 && in->ext != SQK_EXT_SDWA) {
			/* The other half of a 16-bit result's register: RDNA
			 * keeps it; gfx9 zeroes it, except that v_mac_f16,
			 * v_madak_f16, v_madmk_f16 (and the fmac/fmaak/fmamk
			 * forms) keep it (LLVM GCNSubtarget.cpp,
			 * zeroesHigh16BitsOfDest()). That list leaves some
			 * gfx9 16-bit results out (v_cvt_u16_f16, v_cvt_i16_f16,
			 * v_cvt_norm*, v_sat_pk_u8_i16): zeroed here too, which
			 * no compiled code can rely on either way (unverified).
			 * VOP3 op_sel[3] writes the high half and keeps the low
			 * one (ISA manuals, VOP3 OPSEL). */
			bool keep = w->r->f->gfx10 || op == K_v_mac_f16 || op == K_v_madak_f16 ||
				    op == K_v_madmk_f16 || op == K_v_fmac_f16 ||
				    op == K_v_fmaak_f16 || op == K_v_fmamk_f16;

			for (uint64_t m = ex; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctzll(m);
				uint32_t old = dv[l], r = (uint32_t)c.out[l] & 0xffff;

				c.out[l] = (c.opsel & 8) ? (old & 0xffff) | r << 16
					   : keep	 ? (old & 0xffff0000u) | r
							 : r;
			}
		}
		if (dst_sel != 6 || dst_unused) {
			for (uint64_t m = ex; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctzll(m), sh, bits;
				uint32_t v = (uint32_t)c.out[l], keep = dv[l], mk;

				if (dst_sel >= 6) { /* DWORD (7: reserved, read as DWORD) */
					dv[l] = v;
					continue;
				}
				sh = dst_sel < 4 ? 8 * dst_sel : 16 * (dst_sel - 4);
				bits = dst_sel < 4 ? 8 : 16;
				mk = ((1u << bits) - 1) << sh;
				v = (v << sh) & mk;
				if (dst_unused == 2)
					v |= keep & ~mk;
				else if (dst_unused == 1 && (v >> (sh + bits - 1) & 1))
					v |= ~mk & ~((1u << sh) - 1);
				dv[l] = v;
			}
		} else if (ex == sqk_mask(w) && dw == 1) {
			for (unsigned l = 0; l < n; l++)
				dv[l] = (uint32_t)c.out[l];
		} else {
			for (uint64_t m = ex; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctzll(m);

				dv[l] = (uint32_t)c.out[l];
				if (dw == 2)
					dv[l + 64] = (uint32_t)(c.out[l] >> 32);
			}
		}
	}
	if (wcarry) {
		unsigned sd = vop3 ? in->sdst : SQK_VCC;

		c.bits = pack_lanes(c.cy, n) & ex;
		sqk_swrite(w, sd, c.bits, w->lanes == 64);
	}
	return 0;
}

/*
 * VOPD (gfx11 dual issue): two VOP2-like operations (VOP1 for v_mov_b32) in
 * one word, both reading their operands before either writes ("RDNA3
 * Instruction Set Architecture", "VOPD": the X and Y instructions issue
 * together; LLVM GCNVOPDUtils.cpp keeps the destinations in different
 * banks, so they never collide). X runs first and its destination is held
 * aside while Y reads, then put back. Wave32 only (LLVM forms VOPD only in
 * wave32); in wave64 it is refused as an illegal instruction.
 *
 * VOPD3 (gfx1250) the same with halves of the VOP3 kind (LLVM
 * VOPDInstructions.td VOPD3: "VOPD3 uses promoted form of VOP2
 * instructions"): three sources and neg bits, v_cndmask_b32's condition an
 * SGPR operand, X's destination a VGPR pair for the 64-bit operations (the
 * decoder refuses destinations that overlap). v_dual_bitop2_b32 (Y only)
 * is run here: bit i of the result is bit (S0[i] * 4 + S1[i] * 2) of the
 * 8-bit table, the third index bit 0 (LLVM AMDGPUISelDAGToDAG.cpp
 * BitOp3_Op: the sources stand for 0xf0, 0xcc, 0xaa; the VOPD3 combiner
 * gives v_and_b32 the table 0x40).
 */
static int vopd_half(struct sqk_wave *w, const struct sqk_insn *h)
{
	if (h->op == K_v_bitop2_b32) {
		const uint32_t *a = NULL, *b = w->v + (size_t)(h->src[1] - 256) * 64;
		uint32_t *d = w->v + (size_t)(h->dst - 256) * 64, k = 0;
		uint64_t ex = sqk_exec(w);

		if (h->src[0] >= 256)
			a = w->v + (size_t)(h->src[0] - 256) * 64;
		else
			k = (uint32_t)sqk_sread(w, h, h->src[0], false, false);
		if (w->r->res->err)
			return w->r->res->err;
		for (unsigned l = 0; l < w->lanes; l++) {
			uint32_t x = a ? a[l] : k, y = b[l], r = 0;

			if (!(ex >> l & 1))
				continue;
			for (unsigned i = 0; i < 32; i++)
				r |= (uint32_t)(h->bitop3 >> ((x >> i & 1) * 4 + (y >> i & 1) * 2) &
						1)
				     << i;
			d[l] = r;
		}
		return 0;
	}
	return sqk_exec_valu(w, h);
}

int sqk_exec_vopd(struct sqk_wave *w, const struct sqk_insn *in)
{
	struct sqk_insn x = *in, y = *in;
	uint32_t keep[128], xres[128], *xcol;
	size_t nb;
	int rc;

	if (w->lanes != 32)
		return sqk_fail(w, in, -ENOTSUP, "VOPD in wave64");
	y.op = in->opy;
	y.src[0] = in->srcy[0];
	y.src[1] = in->srcy[1];
	y.src[2] = in->srcy[2];
	y.dst = in->dsty;
	if (in->enc == SQK_VOPD3) {
		x.enc = y.enc = SQK_VOP3;
		y.neg = in->negy;
	} else {
		x.enc = in->op == K_v_mov_b32 ? SQK_VOP1 : SQK_VOP2;
		y.enc = in->opy == K_v_mov_b32 ? SQK_VOP1 : SQK_VOP2;
	}
	/* the X destination's columns: two for the 64-bit operations */
	nb = (in->op == K_v_fma_f64 || in->op == K_v_add_f64 || in->op == K_v_mul_f64 ? 2 : 1) *
	     64 * sizeof(uint32_t);
	if (x.dst - 256u + nb / (64 * sizeof(uint32_t)) > SQK_NV)
		return sqk_fail(w, in, -ENOTSUP, "VOPD destination past the VGPRs");
	xcol = w->v + (size_t)(x.dst - 256) * 64;
	memcpy(keep, xcol, nb);
	rc = vopd_half(w, &x);
	if (rc)
		return rc;
	memcpy(xres, xcol, nb);
	memcpy(xcol, keep, nb);
	rc = vopd_half(w, &y);
	memcpy(xcol, xres, nb);
	return rc;
}
