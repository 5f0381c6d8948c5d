/* SPDX-License-Identifier: MIT */
/*
 * The scalar float operations of GFX11.5 and gfx12 (S_ADD_F32 to
 * S_CMP_NLT_F16: "RDNA 3.5 Instruction Set Architecture" and "RDNA4
 * Instruction Set Architecture", SALU opcodes) on a bare wave, every pair
 * (and for the fused forms every triple) of edge values against host
 * models written from the manuals' descriptions: f32 arithmetic as the
 * host's (round to nearest even), with MODE's f32 denormals kept (MODE
 * 0xf0) and flushed (MODE 0); minimumNumber / maximumNumber for S_MIN /
 * S_MAX (_NUM), IEEE 754-2019 minimum / maximum for S_MINIMUM / S_MAXIMUM;
 * the conversions saturating with NaN to 0; S_CVT_PK_RTZ_F16_F32 rounding
 * toward zero; f16 results rounded once from the exact value (binary128
 * on the host), the SGPR's high half 0; the fourteen compares setting SCC
 * and the arithmetic leaving it; an inline constant binary16 in an f16
 * operand and binary32 in an f32 one; S_FMAAK / S_FMAMK's literal K.
 * A NaN result is checked as a quiet NaN. And gfx12's VOP3 v_s_* (exp,
 * log, rcp, rsq, sqrt in f32 and f16 with an SGPR destination: vs_ops()).
 */
#include <fenv.h>
#include <math.h>

#include "emu_sqk_wave_util.h"

#define MODE_KEEP 0xf0u
#define MODE_FLUSH 0x00u

static const uint32_t e32[] = {
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
	0x7fc00000, 0x7f800001, 0x7f7fffff, 0x00000001, 0x000116c2, 0x3fc00000,
	0xc0100000, 0x7e61bcca, 0x3dcccccd, 0xc0f00000, 0x4f000000, 0x4f800000,
	0xcf000001, 0x3f000000, 0x40200000, 0xbf000000, 0x80400000,
};
#define N32 (sizeof(e32) / sizeof(e32[0]))

static const uint16_t e16[] = {
	0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01,
	0x7bff, 0x0001, 0x03ff, 0x3555, 0xc500, 0x3e00, 0x4100, 0xb800,
};
#define N16 (sizeof(e16) / sizeof(e16[0]))

static double hv(uint16_t h)
{
	_Float16 x;

	memcpy(&x, &h, 2);
	return (double)x;
}

/* The exact value @q rounded to binary16 (nearest even), as bits */
static uint32_t hq(__float128 q)
{
	_Float16 x = (_Float16)q;
	uint16_t h;

	memcpy(&h, &x, 2);
	return h;
}

static bool nan32(uint32_t u)
{
	return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu);
}

static bool nan16(uint32_t u)
{
	return (u & 0x7c00u) == 0x7c00u && (u & 0x3ffu);
}

/* MODE 0: a denormal f32 input or result is the zero of its sign */
static uint32_t flush32(uint32_t u, uint32_t mode)
{
	return !(mode >> 4 & 3) && !(u & 0x7f800000u) ? u & 0x80000000u : u;
}

/* minimumNumber / maximumNumber on @bits-bit values (a NaN loses to a
 * number; -0 below +0); both NaN: a quiet NaN (*nan). */
static uint32_t num_m(bool max, bool h, uint32_t a, uint32_t b, bool *nan)
{
	bool na = h ? nan16(a) : nan32(a), nb = h ? nan16(b) : nan32(b);
	double x = h ? hv((uint16_t)a) : f32v(a), y = h ? hv((uint16_t)b) : f32v(b);
	uint32_t sg = h ? 0x8000u : 0x80000000u;

	*nan = na && nb;
	if (na || nb)
		return na ? b : a;
	if (x == y)
		return max ? ((a & sg) ? b : a) : ((a & sg) ? a : b);
	return (max ? x > y : x < y) ? a : b;
}

/* IEEE 754-2019 minimum / maximum: a NaN source gives a NaN (*nan) */
static uint32_t ieee19_m(bool max, bool h, uint32_t a, uint32_t b, bool *nan)
{
	*nan = h ? nan16(a) || nan16(b) : nan32(a) || nan32(b);
	return num_m(max, h, a, b, &(bool){ false });
}

/* f32 to binary16 rounded toward zero, as bits (finite magnitudes past
 * the largest finite half give it; NaN: *nan) */
static uint32_t rtz16(uint32_t u, bool *nan)
{
	float f = fabsf(f32v(u));
	uint32_t s = u >> 16 & 0x8000u;
	int e;

	*nan = nan32(u);
	if (isinf(f))
		return s | 0x7c00u;
	if (f >= 65504.0f)
		return s | 0x7bffu;
	if (f < 0x1p-14f) /* subnormal half: multiples of 2^-24 */
		return s | (uint32_t)truncf(ldexpf(f, 24));
	frexpf(f, &e); /* f in [2^(e-1), 2^e) */
	return s | (uint32_t)(e - 1 + 15) << 10 | ((uint32_t)truncf(ldexpf(f, 11 - e)) - 1024u);
}

static int32_t cvt_i(float f)
{
	if (isnan(f))
		return 0;
	if (f >= 2147483648.0f)
		return INT32_MAX;
	if (f < -2147483648.0f)
		return INT32_MIN;
	return (int32_t)f;
}

static uint32_t cvt_u(float f)
{
	if (isnan(f) || f <= 0.0f)
		return 0;
	if (f >= 4294967296.0f)
		return UINT32_MAX;
	return (uint32_t)f;
}

/* the fourteen SALU float compares in the manuals' order, on numbers */
static bool cmp_m(unsigned k, double a, double b)
{
	bool un = isnan(a) || isnan(b);

	switch (k) {
	case 0:
		return a < b;
	case 1:
		return a == b;
	case 2:
		return a <= b;
	case 3:
		return a > b;
	case 4:
		return a < b || a > b;
	case 5:
		return a >= b;
	case 6:
		return !un;
	case 7:
		return un;
	case 8:
		return !(a >= b);
	case 9:
		return !(a < b || a > b);
	case 10:
		return !(a > b);
	case 11:
		return !(a <= b);
	case 12:
		return !(a == b);
	default:
		return !(a < b);
	}
}

static struct bare_wave *g;
static unsigned runs, bad;

/* @op with sources s2 (@a), s3 (@b), destination s1 (@d before): 0 and
 * the result in *r (SCC in *scc), or the executor's error. @enc SOP1 /
 * SOP2 / SOPC; @src1 a code other than s3 when not 0; @lit the literal. */
static int run(unsigned op, unsigned enc, uint32_t mode, uint32_t a, uint32_t b, uint32_t d,
	       unsigned src1, uint32_t lit, uint32_t *r, bool *scc)
{
	struct sqk_insn in;
	int rc;

	memset(&in, 0, sizeof(in));
	in.op = (uint16_t)op;
	in.enc = (uint8_t)enc;
	in.src[0] = 2;
	in.src[1] = (uint16_t)(src1 ? src1 : 3);
	in.dst = 1;
	in.lit = lit;
	g->w.mode = mode;
	g->w.s[1] = d;
	g->w.s[2] = a;
	g->w.s[3] = b;
	g->w.scc = true;
	rc = sqk_exec_salu(&g->w, &in);
	*r = g->w.s[1];
	*scc = g->w.scc;
	runs++;
	return rc;
}

static void judge(const char *name, uint32_t a, uint32_t b, uint32_t got, uint32_t want,
		  bool want_nan, bool h, int rc, bool scc)
{
	bool ok = rc == 0 && scc;

	if (ok && want_nan)
		ok = h ? nan16(got) && (got & 0x200u) && !(got >> 16)
		       : nan32(got) && (got & 0x400000u);
	else if (ok)
		ok = got == want;
	if (!ok && bad++ < 8)
		fprintf(stderr, "%s 0x%x 0x%x: 0x%x (rc %d, scc %d), want 0x%x%s\n", name, a, b,
			got, rc, scc, want, want_nan ? " (a quiet NaN)" : "");
}

static void f32_binary(void)
{
	static const uint32_t modes[] = { MODE_KEEP, MODE_FLUSH };

	for (unsigned m = 0; m < 2; m++)
		for (unsigned i = 0; i < N32; i++)
			for (unsigned j = 0; j < N32; j++) {
				uint32_t mode = modes[m], a = e32[i], b = e32[j], r;
				float x = f32v(flush32(a, mode)), y = f32v(flush32(b, mode));
				bool scc, nan;
				static const unsigned ar[] = { K_s_add_f32, K_s_sub_f32,
							       K_s_mul_f32 };

				for (unsigned k = 0; k < 3; k++) {
					float w = k == 0 ? x + y : k == 1 ? x - y : x * y;
					int rc =
						run(ar[k], SQK_SOP2, mode, a, b, 0, 0, 0, &r, &scc);

					judge(sqk_op_name(ar[k]), a, b, r, flush32(u32f(w), mode),
					      isnan(w), false, rc, scc);
				}
				for (unsigned k = 0; k < 6; k++) {
					static const unsigned mm[] = {
						K_s_min_f32,	 K_s_max_f32,	  K_s_min_num_f32,
						K_s_max_num_f32, K_s_minimum_f32, K_s_maximum_f32
					};
					bool max = k & 1;
					uint32_t want =
						k < 4 ? num_m(max, false, flush32(a, mode),
							      flush32(b, mode), &nan)
						      : ieee19_m(max, false, flush32(a, mode),
								 flush32(b, mode), &nan);
					int rc =
						run(mm[k], SQK_SOP2, mode, a, b, 0, 0, 0, &r, &scc);

					judge(sqk_op_name(mm[k]), a, b, r, want, nan, false, rc,
					      scc);
				}
				{
					bool n0, n1;
					uint32_t lo = rtz16(flush32(a, mode), &n0),
						 hi = rtz16(flush32(b, mode), &n1);
					int rc = run(K_s_cvt_pk_rtz_f16_f32, SQK_SOP2, mode, a, b,
						     0, 0, 0, &r, &scc);

					/* each half: a NaN a quiet one */
					if (n0 && nan16(r & 0xffff) && (r & 0x200))
						lo = r & 0xffff;
					if (n1 && nan16(r >> 16) && (r >> 16 & 0x200))
						hi = r >> 16;
					judge("s_cvt_pk_rtz_f16_f32", a, b, r, lo | hi << 16, false,
					      false, rc, scc);
				}
				for (unsigned k = 0; k < 14; k++) {
					bool want = cmp_m(k, x, y);
					int rc = run(K_s_cmp_lt_f32 + k, SQK_SOPC, mode, a, b, 0, 0,
						     0, &r, &scc);

					judge(sqk_op_name(K_s_cmp_lt_f32 + k), a, b, scc, want,
					      false, false, rc, true);
				}
				/* fused: d = a * b + d, K the literal */
				for (unsigned t = 0; t < N32; t += 3) {
					uint32_t z = e32[t];
					float zf = f32v(flush32(z, mode)), w = fmaf(x, y, zf);
					int rc = run(K_s_fmac_f32, SQK_SOP2, mode, a, b, z, 0, 0,
						     &r, &scc);

					judge("s_fmac_f32", a, b, r, flush32(u32f(w), mode),
					      isnan(w), false, rc, scc);
					w = fmaf(x, y, f32v(z));
					rc = run(K_s_fmaak_f32, SQK_SOP2, mode, a, b, 0, 0, z, &r,
						 &scc);
					judge("s_fmaak_f32", a, b, r, flush32(u32f(w), mode),
					      isnan(w), false, rc, scc);
					w = fmaf(x, f32v(z), y);
					rc = run(K_s_fmamk_f32, SQK_SOP2, mode, a, b, 0, 0, z, &r,
						 &scc);
					judge("s_fmamk_f32", a, b, r, flush32(u32f(w), mode),
					      isnan(w), false, rc, scc);
				}
			}
}

static void f32_unary(void)
{
	for (unsigned m = 0; m < 2; m++)
		for (unsigned i = 0; i < N32; i++) {
			uint32_t mode = m ? MODE_FLUSH : MODE_KEEP, a = e32[i], r;
			float x = f32v(flush32(a, mode));
			bool scc;
			int rc;
			struct {
				unsigned op;
				float w;
			} fl[] = {
				{ K_s_ceil_f32, ceilf(x) },
				{ K_s_floor_f32, floorf(x) },
				{ K_s_trunc_f32, truncf(x) },
				{ K_s_rndne_f32, nearbyintf(x) },
				{ K_s_cvt_f32_i32, (float)(int32_t)a },
				{ K_s_cvt_f32_u32, (float)a },
			};

			for (unsigned k = 0; k < sizeof(fl) / sizeof(fl[0]); k++) {
				rc = run(fl[k].op, SQK_SOP1, mode, a, 0, 0, 0, 0, &r, &scc);
				judge(sqk_op_name(fl[k].op), a, 0, r, flush32(u32f(fl[k].w), mode),
				      isnan(fl[k].w), false, rc, scc);
			}
			rc = run(K_s_cvt_i32_f32, SQK_SOP1, mode, a, 0, 0, 0, 0, &r, &scc);
			judge("s_cvt_i32_f32", a, 0, r, (uint32_t)cvt_i(x), false, false, rc, scc);
			rc = run(K_s_cvt_u32_f32, SQK_SOP1, mode, a, 0, 0, 0, 0, &r, &scc);
			judge("s_cvt_u32_f32", a, 0, r, cvt_u(x), false, false, rc, scc);
			rc = run(K_s_cvt_f16_f32, SQK_SOP1, MODE_KEEP, a, 0, 0, 0, 0, &r, &scc);
			judge("s_cvt_f16_f32", a, 0, r, hq((__float128)f32v(a)), isnan(f32v(a)),
			      true, rc, scc);
		}
}

static void f16_ops(void)
{
	for (unsigned i = 0; i < N16; i++)
		for (unsigned j = 0; j < N16; j++) {
			/* the high halves hold junk the operations ignore */
			uint32_t a = e16[i] | 0xabcd0000u, b = e16[j] | 0x12340000u, r;
			__float128 x = hv(e16[i]), y = hv(e16[j]);
			bool scc, nan;
			struct {
				unsigned op;
				__float128 w;
			} ar[] = {
				{ K_s_add_f16, x + y },
				{ K_s_sub_f16, x - y },
				{ K_s_mul_f16, x * y },
			};

			for (unsigned k = 0; k < 3; k++) {
				int rc =
					run(ar[k].op, SQK_SOP2, MODE_KEEP, a, b, 0, 0, 0, &r, &scc);

				judge(sqk_op_name(ar[k].op), a, b, r, hq(ar[k].w),
				      isnan((double)ar[k].w), true, rc, scc);
			}
			for (unsigned k = 0; k < 6; k++) {
				static const unsigned mm[] = { K_s_min_f16,	K_s_max_f16,
							       K_s_min_num_f16, K_s_max_num_f16,
							       K_s_minimum_f16, K_s_maximum_f16 };
				bool max = k & 1;
				uint32_t want = k < 4 ? num_m(max, true, e16[i], e16[j], &nan)
						      : ieee19_m(max, true, e16[i], e16[j], &nan);
				int rc = run(mm[k], SQK_SOP2, MODE_KEEP, a, b, 0, 0, 0, &r, &scc);

				judge(sqk_op_name(mm[k]), a, b, r, want, nan, true, rc, scc);
			}
			for (unsigned t = 0; t < N16; t += 2) {
				__float128 w = x * y + hv(e16[t]);
				int rc = run(K_s_fmac_f16, SQK_SOP2, MODE_KEEP, a, b,
					     e16[t] | 0x55550000u, 0, 0, &r, &scc);

				judge("s_fmac_f16", a, b, r, hq(w), isnan((double)w), true, rc,
				      scc);
			}
			for (unsigned k = 0; k < 14; k++) {
				bool want = cmp_m(k, (double)x, (double)y);
				int rc = run(K_s_cmp_lt_f16 + k, SQK_SOPC, MODE_KEEP, a, b, 0, 0, 0,
					     &r, &scc);

				judge(sqk_op_name(K_s_cmp_lt_f16 + k), a, b, scc, want, false,
				      false, rc, true);
			}
		}
	for (unsigned i = 0; i < N16; i++) {
		uint32_t a = e16[i] | 0x3c000000u, hi = (uint32_t)e16[i] << 16 | 0x1234u, r;
		double x = hv(e16[i]);
		bool scc;
		int rc;
		struct {
			unsigned op;
			double w;
		} fl[] = {
			{ K_s_ceil_f16, ceil(x) },
			{ K_s_floor_f16, floor(x) },
			{ K_s_trunc_f16, trunc(x) },
			{ K_s_rndne_f16, nearbyint(x) },
		};

		for (unsigned k = 0; k < 4; k++) {
			rc = run(fl[k].op, SQK_SOP1, MODE_KEEP, a, 0, 0, 0, 0, &r, &scc);
			judge(sqk_op_name(fl[k].op), a, 0, r, hq(fl[k].w), isnan(fl[k].w), true, rc,
			      scc);
		}
		rc = run(K_s_cvt_f32_f16, SQK_SOP1, MODE_KEEP, a, 0, 0, 0, 0, &r, &scc);
		judge("s_cvt_f32_f16", a, 0, r, u32f((float)x), isnan(x), false, rc, scc);
		rc = run(K_s_cvt_hi_f32_f16, SQK_SOP1, MODE_KEEP, hi, 0, 0, 0, 0, &r, &scc);
		judge("s_cvt_hi_f32_f16", hi, 0, r, u32f((float)x), isnan(x), false, rc, scc);
	}
}

/* Inline float constants: binary16 in an f16 operand, binary32 in an
 * f32 one (242: 1.0, 246: 4.0, 243: -1.0). */
static void constants(void)
{
	uint32_t r;
	bool scc;
	int rc;

	rc = run(K_s_add_f16, SQK_SOP2, MODE_KEEP, 0x3e00, 0, 0, 242, 0, &r, &scc);
	judge("s_add_f16 s1, s2, 1.0", 0x3e00, 242, r, 0x4100, false, true, rc, scc);
	rc = run(K_s_mul_f16, SQK_SOP2, MODE_KEEP, 0x3e00, 0, 0, 246, 0, &r, &scc);
	judge("s_mul_f16 s1, s2, 4.0", 0x3e00, 246, r, 0x4600, false, true, rc, scc);
	rc = run(K_s_add_f32, SQK_SOP2, MODE_KEEP, 0x3fc00000, 0, 0, 243, 0, &r, &scc);
	judge("s_add_f32 s1, s2, -1.0", 0x3fc00000, 243, r, 0x3f000000, false, false, rc, scc);
	rc = run(K_s_cmp_eq_f16, SQK_SOPC, MODE_KEEP, 0x3c00, 0, 0, 242, 0, &r, &scc);
	judge("s_cmp_eq_f16 s2, 1.0", 0x3c00, 242, scc, 1, false, false, rc, true);
}

/* ULPs between two finite f32 of one sign (the distance of their bits) */
static uint32_t ulps(uint32_t a, uint32_t b)
{
	return a > b ? a - b : b - a;
}

/* gfx12's VOP3 v_s_* on a bare gfx1201 wave, decoded from LLVM 22's words
 * (llvm-mc -mcpu=gfx1201 -show-encoding), the SGPR destination s5, s2
 * the source: against the host's value of the function in double,
 * rounded once (the emulator gives correctly rounded values of the
 * approximate operations: 1/x and sqrt exactly, exp2, log2 and 1/sqrt
 * within one ULP of the host's libm); the f16 forms from the binary128
 * value (rcp, sqrt exact; exp, log, rsq within one ULP); VOP3 modifiers
 * (neg, abs, div:2, mul:4, clamp) and an inline constant; EXEC 0 does
 * not keep them from writing; a VGPR source refused. */
static uint32_t vs_run(const uint32_t w[2], uint32_t a, bool *ok)
{
	struct sqk_insn in;

	g->w.s[2] = a;
	g->w.s[5] = 0xdeadbeefu;
	g->w.s[SQK_EXEC] = 0;
	g->w.mode = MODE_KEEP;
	*ok = sqk_decode(g->r.f, w, 2, &in) == 8 && in.op != K_INVALID &&
	      sqk_exec_valu(&g->w, &in) == 0;
	runs++;
	return g->w.s[5];
}

static void vs_ops(void)
{
	static const struct {
		const char *name;
		uint32_t w0;
		bool h;
		unsigned ulp;
	} op[] = {
		{ "v_s_exp_f32", 0xd6800005, false, 1 },  { "v_s_exp_f16", 0xd6810005, true, 1 },
		{ "v_s_log_f32", 0xd6820005, false, 1 },  { "v_s_log_f16", 0xd6830005, true, 1 },
		{ "v_s_rcp_f32", 0xd6840005, false, 0 },  { "v_s_rcp_f16", 0xd6850005, true, 0 },
		{ "v_s_rsq_f32", 0xd6860005, false, 1 },  { "v_s_rsq_f16", 0xd6870005, true, 1 },
		{ "v_s_sqrt_f32", 0xd6880005, false, 0 }, { "v_s_sqrt_f16", 0xd6890005, true, 0 },
	};

	for (unsigned k = 0; k < sizeof(op) / sizeof(op[0]); k++)
		for (unsigned i = 0; i < (op[k].h ? N16 : N32); i++) {
			const uint32_t w[2] = { op[k].w0, 0x00000002 };
			uint32_t a = op[k].h ? e16[i] | 0x77770000u : e32[i], got, want;
			double x = op[k].h ? hv(e16[i]) : f32v(a), y;
			bool ok, nan;

			switch (k / 2) {
			case 0:
				y = exp2(x);
				break;
			case 1:
				y = log2(x);
				break;
			case 2:
				y = 1.0 / x;
				break;
			case 3:
				y = 1.0 / sqrt(x);
				break;
			default:
				y = sqrt(x);
				break;
			}
			/* 1/x and sqrt exactly: binary128 before the one rounding */
			if (op[k].h && k / 2 == 2)
				want = hq(1 / (__float128)x);
			else if (op[k].h && k / 2 == 4)
				want = hq(x < 0 ? (__float128)NAN : (__float128)sqrt(x));
			else
				want = op[k].h ? hq((__float128)y) : u32f((float)y);
			got = vs_run(w, a, &ok);
			nan = op[k].h ? nan16(want) : nan32(want);
			if (ok && !nan && got != want && ulps(got, want) <= op[k].ulp &&
			    (got ^ want) >> (op[k].h ? 15 : 31) == 0 &&
			    !(op[k].h ? (got & 0x7c00) == 0x7c00
				      : (got & 0x7f800000) == 0x7f800000))
				want = got; /* within the operation's ULPs */
			judge(op[k].name, a, 0, got, want, nan, op[k].h, ok ? 0 : -1, true);
		}
	{
		/* v_s_rcp_f32 s5, -|s2| div:2: -1/(2|a|) */
		static const uint32_t w1[2] = { 0xd6840105, 0x38000002 };
		/* v_s_sqrt_f16 s5, s2 clamp: within [0, 1] */
		static const uint32_t w2[2] = { 0xd6898005, 0x00000002 };
		/* v_s_exp_f32 s5, 1.0 */
		static const uint32_t w3[2] = { 0xd6800005, 0x000000f2 };
		/* v_s_log_f32 s5, s2 mul:4 */
		static const uint32_t w4[2] = { 0xd6820005, 0x10000002 };
		/* v_s_rcp_f32 s5, v2: refused (an SGPR source only) */
		static const uint32_t w5[2] = { 0xd6840005, 0x00000102 };
		bool ok;
		uint32_t r;

		r = vs_run(w1, u32f(0.25f), &ok);
		judge("v_s_rcp_f32 -|s2| div:2", u32f(0.25f), 0, r, u32f(-2.0f), false, false,
		      ok ? 0 : -1, true);
		r = vs_run(w1, u32f(-0.25f), &ok);
		judge("v_s_rcp_f32 -|s2| div:2", u32f(-0.25f), 0, r, u32f(-2.0f), false, false,
		      ok ? 0 : -1, true);
		r = vs_run(w2, 0x4400, &ok); /* sqrt(4) = 2, clamped to 1 */
		judge("v_s_sqrt_f16 clamp", 0x4400, 0, r, 0x3c00, false, true, ok ? 0 : -1, true);
		r = vs_run(w3, 0, &ok);
		judge("v_s_exp_f32 1.0", 242, 0, r, u32f(2.0f), false, false, ok ? 0 : -1, true);
		r = vs_run(w4, u32f(8.0f), &ok);
		judge("v_s_log_f32 mul:4", u32f(8.0f), 0, r, u32f(12.0f), false, false, ok ? 0 : -1,
		      true);
		vs_run(w5, 0, &ok);
		CHECK(!ok, "v_s_rcp_f32 with a VGPR source is refused");
	}
}

int main(void)
{
	g = bare_wave_new(120001, 32);
	f32_binary();
	f32_unary();
	f16_ops();
	constants();
	vs_ops();
	CHECK(bad == 0, "%u of %u scalar float results differ from the models", bad, runs);
	bare_wave_free(g);
	/* the family tables: GFX11.5 has the operations, gfx1100 none */
	CHECK(sqk_family_of(110501)->lookup[SQK_SOP2][64] == K_s_add_f32,
	      "gfx1151: s_add_f32 is SOP2 opcode 64");
	CHECK(sqk_family_of(110000)->lookup[SQK_SOP2][64] == K_INVALID,
	      "gfx1100: no scalar float (SOP2 opcode 64 illegal)");
	CHECK(sqk_family_of(120001)->lookup[SQK_SOP2][66] == K_s_min_num_f32,
	      "gfx1201: SOP2 opcode 66 is s_min_num_f32");
	printf("%u scalar float operations run\n", runs);
	return t_result("emu_sqk_salu_float");
}
