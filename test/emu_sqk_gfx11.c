/* SPDX-License-Identifier: MIT */
/*
 * The gfx11 decoder's and VOPD's rules on a bare gfx1100 wave, from
 * instruction words written here (RDNA3 ISA manual "Microcode Formats";
 * the words are those LLVM 22's llvm-mc -mcpu=gfx1100 -show-encoding prints
 * for the forms named):
 * - VOPD: both halves read their operands before either writes (RDNA3
 *   manual, "VOPD": X and Y issue together), so a Y half that reads X's
 *   destination sees its old value; VOPDY's destination is [7:1] of its
 *   field and bit 0 the opposite of VOPDX's; VOPD in wave64 is refused;
 * - what the unit cannot run is refused (op K_INVALID: the illegal-
 *   instruction path), never run as something else: a true16 form of an
 *   operation the unit runs only in other forms (v_frexp_exp_i16_f16), the DPP form
 *   of a true16 one, VOP3 op_sel on a 32-bit operation, VOP3 DPP on a
 *   compare or with a literal. ds_cmpstore against the manual (ds_cmpstore()).
 * And gfx12's rules on a bare gfx1200 wave (RDNA4 ISA manual; the words
 * from llvm-mc -mcpu=gfx1200 -show-encoding): s_add_nc_u64, s_sub_nc_u64
 * and s_mul_u64 against a host model (64-bit results, SCC unchanged); the
 * sub-dword scalar loads (zero or sign extension, the 24-bit signed offset,
 * an unaligned address refused); the split barrier (the wait holds the wave after a signal);
 * and refused: a true16 VOP1 form left out (v_frexp_exp_i16_f16), a
 * lane permute by a VGPR (v_permlane16_var_b32), MTBUF, VFLAT with an SADDR, DS with the GDS bit, a named
 * barrier, a wait with no signal, s_getreg of a register other than MODE.
 * And gfx1250's VOPD3 on a bare wave32 against a host model (vopd3()). And
 * the older v_max / v_min (f32, f64, 3-operand f32) on gfx900 and gfx1100,
 * signed zeros and NaNs included, against a host model (minmax_ieee()).
 */
#include <errno.h>
#include <math.h>

#include "emu_sqk_wave_util.h"

static void vopd(void)
{
	struct bare_wave *g = bare_wave_new(110000, 32);
	struct sqk_insn in;
	/* v_dual_mov_b32 v1, v2 :: v_dual_add_nc_u32 v2, v1, v3: X opcode 8
	 * (MOV_B32) [25:22], Y opcode 16 (ADD_NC_U32) [21:17], SRC0X [8:0];
	 * SRC0Y [40:32], VSRC1Y [48:41], VDSTY>>1 [55:49], VDSTX [63:56] */
	const uint32_t w[2] = { 0xC8000000u | 8u << 22 | 16u << 17 | 0x102u,
				1u << 24 | (2u >> 1) << 17 | 3u << 9 | 0x101u };

	if (sqk_decode(g->r.f, w, 2, &in) != 8) {
		CHECK(0, "VOPD decodes to 8 bytes");
		return;
	}
	CHECK(in.op == K_v_mov_b32 && in.opy == K_v_add_nc_u32, "VOPD halves: %s, %s",
	      sqk_op_name(in.op), sqk_op_name(in.opy));
	CHECK(in.dst == 256 + 1 && in.dsty == 256 + 2, "VOPD destinations v%u, v%u", in.dst - 256,
	      in.dsty - 256);
	sqk_set_mask(&g->w, SQK_EXEC, sqk_mask(&g->w));
	for (unsigned l = 0; l < 32; l++) {
		g->w.v[1 * 64 + l] = 1000 + l;
		g->w.v[2 * 64 + l] = 2000 + l;
		g->w.v[3 * 64 + l] = 30 * l;
	}
	CHECK_EQ(sqk_exec_vopd(&g->w, &in), 0, "VOPD runs");
	for (unsigned l = 0; l < 32; l++) {
		/* host model: X = old v2; Y = old v1 + v3 */
		CHECK_EQ(g->w.v[1 * 64 + l], 2000 + l, "lane %u: v1 = old v2", l);
		CHECK_EQ(g->w.v[2 * 64 + l], 1000 + l + 30 * l, "lane %u: v2 = old v1 + v3", l);
	}
	bare_wave_free(g);

	g = bare_wave_new(110000, 64);
	CHECK_EQ(sqk_decode(g->r.f, w, 2, &in), 8, "VOPD decodes");
	CHECK_EQ(sqk_exec_vopd(&g->w, &in), -ENOTSUP, "VOPD in wave64 refused");
	bare_wave_free(g);
}

static void refused(void)
{
	static const struct {
		const char *what;
		uint32_t w[4];
		unsigned n, size;
	} t[] = {
		{ "v_alignbit_b32 v2, v2, v4, v6.h op_sel:[0,0,1,0]",
		  { 0xd6162002, 0x041a0902 },
		  2,
		  8 },
		{ "v_frexp_exp_i16_f16_e32 v1.l, v2.l", { 0x7e02b502 }, 1, 4 },
		{ "v_add_f16_dpp v0.l, v1.l, v2.l quad_perm:[1,0,3,2]",
		  { 0x640004fa, 0xff00b101 },
		  2,
		  8 },
		{ "v_cmp_lt_f32_e64_dpp s1, v2, v3 quad_perm:[1,0,3,2]",
		  { 0xd4110001, 0x000206fa, 0xff00b102 },
		  3,
		  12 },
		{ "v_add_f32_e64_dpp v1, v2, a literal quad_perm:[1,0,3,2]",
		  { 0xd5030001, 0x0001fefa, 0xff00b102, 0x12345678 },
		  4,
		  16 },
	};
	const struct sqk_family *f = sqk_family_of(110000);
	struct sqk_insn in;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unsigned size = sqk_decode(f, t[i].w, t[i].n, &in);

		CHECK(size == t[i].size && in.op == K_INVALID,
		      "%s: refused (size %u, decoded as %s)", t[i].what, size, sqk_op_name(in.op));
	}
	/* the same alignbit without op_sel runs */
	{
		const uint32_t w[2] = { 0xd6160002, 0x041a0902 };

		CHECK(sqk_decode(f, w, 2, &in) == 8 && in.op == K_v_alignbit_b32,
		      "v_alignbit_b32 v2, v2, v4, v6.l decodes");
	}
}

/* gfx12 scalar memory: one page at 0x10000 */
static uint8_t page12[4096];

static void *mem12(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	(void)ctx, (void)write, (void)ro;
	return va == 0x10000 && len == 4096 ? page12 : NULL;
}

static int run12(struct bare_wave *g, const uint32_t *w, unsigned n, const char *what)
{
	struct sqk_insn in;

	if (sqk_decode(g->r.f, w, n, &in) != 4 * n || in.op == K_INVALID) {
		CHECK(0, "%s decodes", what);
		return -1000;
	}
	return in.enc == SQK_SMEM ? sqk_exec_smem(&g->w, &in) : sqk_exec_salu(&g->w, &in);
}

/* the env's placement of a workgroup: HW_ID1 of workgroup @group */
static uint32_t hw_id1_of(void *ctx, uint64_t group)
{
	(void)ctx;
	return 0x00140c00u | (uint32_t)group;
}

/* a gfx12 VALU instruction of @n words on @g: 0, or the executor's error */
static int run12v(struct bare_wave *g, const uint32_t *w, unsigned n, const char *what)
{
	struct sqk_insn in;

	if (sqk_decode(g->r.f, w, n, &in) != 4 * n || in.op == K_INVALID) {
		CHECK(0, "gfx1200 %s decodes (%u words)", what, n);
		return -1000;
	}
	return sqk_exec_valu(&g->w, &in);
}

static void gfx12(void)
{
	static const struct {
		const char *what;
		uint32_t w[3];
		unsigned n, size;
	} t[] = {
		{ "v_frexp_exp_i16_f16_e32 v1.l, v2.l", { 0x7e02b502 }, 1, 4 },
		{ "v_permlane16_var_b32 v1, v2, v3", { 0xd70f0001, 0x00020702 }, 2, 8 },
		{ "tbuffer_load_format_x v1, off, s[8:11], null format:[BUF_FMT_32_FLOAT]",
		  { 0xc420007c, 0x0b001001, 0x00001000 },
		  3,
		  12 },
		{ "flat_load_b32 v1, v[2:3] with SADDR s4",
		  { 0xec050004, 0x00000001, 0x00000002 },
		  3,
		  12 },
		{ "buffer_load_b32 v1, off, s[8:11], null with TFE",
		  { 0xc445007c, 0x00801001, 0x00001000 },
		  3,
		  12 },
		{ "ds_load_b32 v1, v2 with GDS", { 0xd8da0010, 0x01000002 }, 2, 8 },
	};
	static const uint64_t a[] = { 0xffffffff00000001ull, 0x123456789abcdef0ull, 5 },
			      b[] = { 0x00000001ffffffffull, 0xfedcba9876543210ull, 7 };
	const struct sqk_family *f = sqk_family_of(120000);
	struct bare_wave *g = bare_wave_new(120001, 32);
	struct sqk_insn in;

	if (!f || f != g->r.f) {
		CHECK(0, "gfx1200 and gfx1201: one family");
		bare_wave_free(g);
		return;
	}
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unsigned size = sqk_decode(f, t[i].w, t[i].n, &in);

		CHECK(size == t[i].size && in.op == K_INVALID,
		      "gfx1200 %s: refused (size %u, decoded as %s)", t[i].what, size,
		      sqk_op_name(in.op));
	}
	/* scratch_load_b32 v1, off, s3 offset:4 (SVE 0: no VADDR) and
	 * scratch_load_b32 v1, v2, off offset:4 (SVE 1); global_atomic_add_u32
	 * with TH_ATOMIC_RETURN (TH[0]) and without; global_load_b32 v1,
	 * v[2:3], off offset:-8388608; buffer_load_b32 v5, v3, s[8:11], s4
	 * offen offset:8388607 and idxen offset:4 */
	{
		const uint32_t s0[3] = { 0xed050003, 0x00000001, 0x00000400 },
			       s1[3] = { 0xed05007c, 0x00020001, 0x00000402 },
			       ar[3] = { 0xee0d407c, 0x02100001, 0x00000002 },
			       an[3] = { 0xee0d407c, 0x02000001, 0x00000002 },
			       gl[3] = { 0xee05007c, 0x00000001, 0x80000002 },
			       bo[3] = { 0xc4050004, 0x40801005, 0x7fffff03 },
			       bi[3] = { 0xc4050004, 0x80801005, 0x00000403 };

		CHECK(sqk_decode(f, s0, 3, &in) == 12 && in.vaddr_off && in.saddr == 3 &&
			      in.offset == 4,
		      "scratch_load_b32 v1, off, s3 offset:4: no VADDR");
		CHECK(sqk_decode(f, s1, 3, &in) == 12 && !in.vaddr_off && in.vaddr == 2 &&
			      in.saddr == 0xffff,
		      "scratch_load_b32 v1, v2, off offset:4: VADDR v2");
		CHECK(sqk_decode(f, gl, 3, &in) == 12 && in.offset == -8388608 && in.vaddr == 2,
		      "global_load_b32 offset:-8388608: %d", in.offset);
		CHECK(sqk_decode(f, bo, 3, &in) == 12 && in.offset == 8388607 && in.offen &&
			      !in.idxen && in.srsrc == 8 && in.soffset == 4 && in.vdata == 5,
		      "buffer_load_b32 offen offset:8388607: offset %d offen %d idxen %d",
		      in.offset, in.offen, in.idxen);
		CHECK(sqk_decode(f, bi, 3, &in) == 12 && in.offset == 4 && !in.offen && in.idxen,
		      "buffer_load_b32 idxen offset:4: offen %d idxen %d", in.offen, in.idxen);
		CHECK(sqk_decode(f, ar, 3, &in) == 12 && in.op != K_INVALID && in.glc,
		      "global_atomic_add_u32 th:TH_ATOMIC_RETURN returns");
		CHECK(sqk_decode(f, an, 3, &in) == 12 && in.op != K_INVALID && !in.glc,
		      "global_atomic_add_u32 without TH[0] does not return");
	}
	/* s_add_nc_u64 / s_sub_nc_u64 / s_mul_u64 s[4:5], s[6:7], s[8:9] */
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		static const uint32_t op[3] = { 0xa9840806, 0xaa040806, 0xaa840806 };
		const uint64_t want[3] = { a[i] + b[i], a[i] - b[i], a[i] * b[i] };

		for (int k = 0; k < 3; k++) {
			bool scc = (i + k) & 1;

			g->w.s[6] = (uint32_t)a[i], g->w.s[7] = (uint32_t)(a[i] >> 32);
			g->w.s[8] = (uint32_t)b[i], g->w.s[9] = (uint32_t)(b[i] >> 32);
			g->w.scc = scc;
			CHECK_EQ(run12(g, &op[k], 1, "64-bit SALU"), 0, "64-bit SALU %d runs", k);
			CHECK(((uint64_t)g->w.s[5] << 32 | g->w.s[4]) == want[k] && g->w.scc == scc,
			      "64-bit SALU %d of %#llx, %#llx: %#x%08x scc %d", k,
			      (unsigned long long)a[i], (unsigned long long)b[i], g->w.s[5],
			      g->w.s[4], g->w.scc);
		}
	}
	/* s_load_u16 s4, s[2:3], 0x2 / s_load_i8 s4, s[2:3], 0x3 /
	 * s_load_u16 s4, s[2:3], 0x3 (unaligned) */
	{
		const uint32_t u16[2] = { 0xf4016101, 0xf8000002 },
			       i8[2] = { 0xf4010101, 0xf8000003 },
			       bad[2] = { 0xf4016101, 0xf8000003 };

		g->env.xlate = mem12;
		page12[2] = 0x34, page12[3] = 0x92;
		g->w.s[2] = 0x10000, g->w.s[3] = 0;
		CHECK(run12(g, u16, 2, "s_load_u16") == 0 && g->w.s[4] == 0x9234,
		      "s_load_u16 zero-extends: %#x", g->w.s[4]);
		CHECK(run12(g, i8, 2, "s_load_i8") == 0 && g->w.s[4] == 0xffffff92u,
		      "s_load_i8 sign-extends: %#x", g->w.s[4]);
		CHECK_EQ(run12(g, bad, 2, "s_load_u16 unaligned"), -ENOTSUP,
			 "unaligned s_load_u16 refused");
		/* s_load_u16 s4, s[2:3], -0x7ffffe: the 24-bit signed offset */
		{
			const uint32_t far[2] = { 0xf4016101, 0xf8800002 };

			g->w.s[2] = 0x10002 + 0x7ffffe;
			CHECK(run12(g, far, 2, "s_load_u16 -0x7ffffe") == 0 && g->w.s[4] == 0x9234,
			      "s_load_u16 at a -0x7ffffe offset: %#x", g->w.s[4]);
			g->w.s[2] = 0x10000;
		}
	}
	/* the split barrier; named barriers and other registers refused */
	{
		const uint32_t sig = 0xbe804ec1, wait = 0xbf94ffff, named = 0xbe804e7d,
			       hwid = 0xb884f817, mode = 0xb884f801;

		g->w.bar_signalled = false;
		CHECK_EQ(run12(g, &wait, 1, "s_barrier_wait"), -ENOTSUP,
			 "s_barrier_wait without a signal refused");
		CHECK_EQ(run12(g, &sig, 1, "s_barrier_signal -1"), 0,
			 "s_barrier_signal -1 runs on");
		CHECK(run12(g, &wait, 1, "s_barrier_wait -1") == 1 && g->w.state == SQK_BARRIER,
		      "s_barrier_wait holds the wave");
		g->w.state = SQK_RUNNING;
		g->w.s[SQK_M0] = 0x10000;
		CHECK_EQ(run12(g, &named, 1, "s_barrier_signal m0"), -ENOTSUP,
			 "named barrier refused");
		CHECK_EQ(run12(g, &hwid, 1, "s_getreg_b32 HW_ID1"), -ENOTSUP,
			 "s_getreg of HW_ID1 refused");
		/* with the env's hook: the placement of the wave's workgroup */
		g->env.hw_id1 = hw_id1_of;
		g->w.group = 3;
		CHECK(run12(g, &hwid, 1, "s_getreg_b32 HW_ID1 (hook)") == 0 &&
			      g->w.s[4] == 0x00140c03u,
		      "s_getreg of HW_ID1 asks the env for workgroup 3: %#x", g->w.s[4]);
		g->env.hw_id1 = NULL;
		g->w.mode = 0xf0;
		CHECK(run12(g, &mode, 1, "s_getreg_b32 MODE") == 0 && g->w.s[4] == 0xf0,
		      "s_getreg of MODE: %#x", g->w.s[4]);
	}
	bare_wave_free(g);
}

/* A gfx1250 instruction of @n words (the literal included) decoded to
 * @size bytes and run on @g: the executor's return, -1000 when it does not
 * decode to an operation. */
static int run1250(struct bare_wave *g, const uint32_t *w, unsigned n, const char *what)
{
	struct sqk_insn in;

	if (sqk_decode(g->r.f, w, n, &in) != 4 * n || in.op == K_INVALID) {
		CHECK(0, "gfx1250 %s decodes (%u words)", what, n);
		return -1000;
	}
	if (!sqk_operands_ok(g->r.f, &in))
		return -1001;
	g->res.err = 0;
	in.pc = 0x1000;
	return in.enc == SQK_SOPP || in.enc == SQK_SOP1 || in.enc == SQK_SOPK
		       ? sqk_exec_salu(&g->w, &in)
		       : sqk_exec_valu(&g->w, &in);
}

static uint64_t v64(const struct bare_wave *g, unsigned r, unsigned l)
{
	return g->w.v[(size_t)r * 64 + l] | (uint64_t)g->w.v[(size_t)(r + 1) * 64 + l] << 32;
}

static void set64(struct bare_wave *g, unsigned r, unsigned l, uint64_t x)
{
	g->w.v[(size_t)r * 64 + l] = (uint32_t)x;
	g->w.v[(size_t)(r + 1) * 64 + l] = (uint32_t)(x >> 32);
}

/* GC 12.5 on a bare gfx1250 wave, against a host model written from the
 * operations' pseudo-code: V_ADD_NC_U64 D = S0 + S1, V_SUB_NC_U64 D = S0 -
 * S1, V_MUL_U64 the low 64 bits of S0 * S1 (modulo 2^64), V_MAD_U32 D =
 * S0 * S1 + S2 modulo 2^32, V_MAD_NC_U64_U32 D = S0.u32 * S1.u32 + S2.u64
 * modulo 2^64, V_FMAMK_F64 D = fma(S0, K, S1); the 64-bit literal (code
 * 254); s_get_pc_i64; IB_STS2[9:6]; scale_offset; and what is refused.
 * Words from llvm-mc -mcpu=gfx1250 -show-encoding. */
static void gfx1250(void)
{
	struct bare_wave *g = bare_wave_new(120500, 32);
	const struct sqk_family *f = g->r.f;
	struct sqk_insn in;
	unsigned bad;

	g->w.s[SQK_EXEC] = 0xffffffffu;
	for (unsigned l = 0; l < 32; l++) {
		set64(g, 4, l, 0xfffffff0ull * (l + 1) + 0x9e3779b97f4a7c15ull * l);
		set64(g, 6, l, 0x100000011ull * (l + 3) ^ 0xc2b2ae3d27d4eb4full * (l & 5));
		set64(g, 8, l, ~0ull - 7ull * l);
	}
	/* v_add_nc_u64 / v_sub_nc_u64 / v_mul_u64 v[2:3], v[4:5], v[6:7] */
	{
		static const uint32_t op[3] = { 0x50040d04, 0x52040d04, 0x54040d04 };
		static const char *const name[3] = { "v_add_nc_u64", "v_sub_nc_u64", "v_mul_u64" };

		for (int k = 0; k < 3; k++) {
			CHECK_EQ(run1250(g, &op[k], 1, name[k]), 0, "%s runs", name[k]);
			bad = 0;
			for (unsigned l = 0; l < 32; l++) {
				uint64_t a = v64(g, 4, l), b = v64(g, 6, l);
				uint64_t want = k == 0 ? a + b : k == 1 ? a - b : a * b;

				bad += v64(g, 2, l) != want;
			}
			CHECK(bad == 0, "gfx1250 %s: %u of 32 lanes wrong", name[k], bad);
		}
	}
	/* v_mad_u32 v1, v4, v6, v8; v_mad_nc_u64_u32 v[2:3], v4, v6, v[8:9] */
	{
		static const uint32_t mad[2] = { 0xd6350001, 0x04220d04 },
				      madnc[2] = { 0xd6fa0002, 0x04220d04 };

		CHECK_EQ(run1250(g, mad, 2, "v_mad_u32"), 0, "v_mad_u32 runs");
		bad = 0;
		for (unsigned l = 0; l < 32; l++) {
			uint32_t a = g->w.v[4 * 64 + l], b = g->w.v[6 * 64 + l],
				 c = g->w.v[8 * 64 + l];

			bad += g->w.v[64 + l] != (uint32_t)((uint64_t)a * b + c);
		}
		CHECK(bad == 0, "gfx1250 v_mad_u32: %u of 32 lanes wrong", bad);
		CHECK_EQ(run1250(g, madnc, 2, "v_mad_nc_u64_u32"), 0, "v_mad_nc_u64_u32 runs");
		bad = 0;
		for (unsigned l = 0; l < 32; l++) {
			uint64_t a = g->w.v[4 * 64 + l], b = g->w.v[6 * 64 + l];

			bad += v64(g, 2, l) != a * b + v64(g, 8, l);
		}
		CHECK(bad == 0, "gfx1250 v_mad_nc_u64_u32: %u of 32 lanes wrong", bad);
	}
	/* v_fmamk_f64 v[2:3], v[4:5], 0x400921fb54442d18 (pi), v[6:7] */
	{
		static const uint32_t fk[3] = { 0x46040d04, 0x54442d18, 0x400921fb };
		double pi;
		uint64_t kb = 0x400921fb54442d18ull;

		memcpy(&pi, &kb, 8);
		for (unsigned l = 0; l < 32; l++) {
			double a = 1.0 / (l + 3), b = -(double)l * 0.7;
			uint64_t ab, bb;

			memcpy(&ab, &a, 8), memcpy(&bb, &b, 8);
			set64(g, 4, l, ab), set64(g, 6, l, bb);
		}
		g->w.mode = 0xf0; /* no denormal flush */
		CHECK_EQ(run1250(g, fk, 3, "v_fmamk_f64"), 0, "v_fmamk_f64 runs");
		bad = 0;
		for (unsigned l = 0; l < 32; l++) {
			double a = 1.0 / (l + 3), b = -(double)l * 0.7, want = fma(a, pi, b), got;
			uint64_t gb = v64(g, 2, l);

			memcpy(&got, &gb, 8);
			bad += got != want;
		}
		CHECK(bad == 0, "gfx1250 v_fmamk_f64 (64-bit K): %u of 32 lanes wrong", bad);
	}
	/* the 64-bit literal: s_mov_b64 s[2:3], 0x123456789 and
	 * v_add_nc_u64 v[2:3], 0x123456789, v[4:5] */
	{
		static const uint32_t sm[3] = { 0xbe8201fe, 0x23456789, 0x00000001 },
				      va[3] = { 0x500408fe, 0x23456789, 0x00000001 };

		CHECK(run1250(g, sm, 3, "s_mov_b64 lit64") == 0 &&
			      ((uint64_t)g->w.s[3] << 32 | g->w.s[2]) == 0x123456789ull,
		      "s_mov_b64 s[2:3], lit64(0x123456789): %#x%08x", g->w.s[3], g->w.s[2]);
		set64(g, 4, 5, 0xfffffffff0000000ull);
		CHECK(run1250(g, va, 3, "v_add_nc_u64 lit64") == 0 &&
			      v64(g, 2, 5) == 0xfffffffff0000000ull + 0x123456789ull,
		      "v_add_nc_u64 v[2:3], lit64(0x123456789), v[4:5]: %#llx",
		      (unsigned long long)v64(g, 2, 5));
	}
	/* s_get_pc_i64 s[0:1]: the next instruction's address;
	 * s_getreg_b32 s4, hwreg(HW_REG_IB_STS2, 6, 4): 0 (no cluster) */
	{
		static const uint32_t pc = 0xbe804700, ib = 0xb884199c, iball = 0xb884f81c,
				      ib74 = 0xb884191c, xcnt = 0xbfc50001;

		CHECK(run1250(g, &pc, 1, "s_get_pc_i64") == 0 && g->w.s[0] == 0x1004 &&
			      g->w.s[1] == 0,
		      "s_get_pc_i64: %#x%08x", g->w.s[1], g->w.s[0]);
		g->w.s[4] = 0xdead;
		CHECK(run1250(g, &ib, 1, "s_getreg IB_STS2[9:6]") == 0 && g->w.s[4] == 0,
		      "IB_STS2[9:6] reads 0: %#x", g->w.s[4]);
		CHECK_EQ(run1250(g, &iball, 1, "s_getreg IB_STS2"), -ENOTSUP,
			 "the whole of IB_STS2 refused");
		CHECK_EQ(run1250(g, &ib74, 1, "s_getreg IB_STS2[7:4]"), -ENOTSUP,
			 "IB_STS2[7:4] refused");
		CHECK_EQ(run1250(g, &xcnt, 1, "s_wait_xcnt"), 0, "s_wait_xcnt runs");
	}
	/* global_load_b32 v2, v0, s[2:3] scale_offset offset:8 and the same
	 * store (v2 to 4 * v0 + 8), v0 = lane + 2: the VGPR offset times 4
	 * (consecutive lanes under a full EXEC: the whole-wave path) */
	{
		static const uint32_t ld[3] = { 0xee050002, 0x00010002, 0x00000800 },
				      st[3] = { 0xee068002, 0x01010000, 0x00000800 };

		g->env.xlate = mem12;
		memset(page12, 0, sizeof(page12));
		for (unsigned l = 0; l < 32; l++) {
			uint32_t x = 0x1000 + l;

			memcpy(page12 + 16 + 4 * l, &x, 4);
			g->w.v[l] = l + 2;
		}
		g->w.s[2] = 0x10000, g->w.s[3] = 0;
		CHECK(sqk_decode(f, ld, 3, &in) == 12 && in.scale && in.offset == 8,
		      "global_load_b32 scale_offset offset:8 decodes");
		g->res.err = 0;
		CHECK_EQ(sqk_exec_mem(&g->w, &in), 0, "global_load_b32 scale_offset runs");
		bad = 0;
		for (unsigned l = 0; l < 32; l++)
			bad += g->w.v[2 * 64 + l] != 0x1000 + l;
		CHECK(bad == 0, "global_load_b32 scale_offset: %u of 32 lanes wrong (lane 1 %#x)",
		      bad, g->w.v[2 * 64 + 1]);
		for (unsigned l = 0; l < 32; l++)
			g->w.v[2 * 64 + l] = 0x2000 + l;
		CHECK(sqk_decode(f, st, 3, &in) == 12 && in.scale && in.op != K_INVALID,
		      "global_store_b32 scale_offset decodes");
		CHECK_EQ(sqk_exec_mem(&g->w, &in), 0, "global_store_b32 scale_offset runs");
		bad = 0;
		for (unsigned l = 0; l < 32; l++) {
			uint32_t x;

			memcpy(&x, page12 + 16 + 4 * l, 4);
			bad += x != 0x2000 + l;
		}
		CHECK(bad == 0, "global_store_b32 scale_offset: %u of 32 lanes wrong", bad);
		/* the load again with v0 = 33 - lane: not consecutive, lane
		 * by lane; lane l reads element 31 - l of the store */
		for (unsigned l = 0; l < 32; l++)
			g->w.v[l] = 33 - l;
		CHECK(sqk_decode(f, ld, 3, &in) == 12, "global_load_b32 scale_offset decodes");
		CHECK_EQ(sqk_exec_mem(&g->w, &in), 0,
			 "global_load_b32 scale_offset lane by lane runs");
		bad = 0;
		for (unsigned l = 0; l < 32; l++)
			bad += g->w.v[2 * 64 + l] != 0x2000 + 31 - l;
		CHECK(bad == 0, "global_load_b32 scale_offset lane by lane: %u of 32 lanes wrong",
		      bad);
		/* gfx1250's FLAT with an SADDR, as GLOBAL's (LLVM 22 emits it):
		 * flat_load_b32 v2, v0, s[2:3] scale_offset offset:8 and the
		 * store, the whole wave and lane by lane */
		{
			static const uint32_t fld[3] = { 0xec050002, 0x00010002, 0x00000800 },
					      fst[3] = { 0xec068002, 0x01010000, 0x00000800 };

			/* the apertures away from the page (a bare wave has 0) */
			g->d.shared_base = 1ull << 48, g->d.private_base = 2ull << 48;
			for (unsigned l = 0; l < 32; l++)
				g->w.v[l] = l + 2, g->w.v[2 * 64 + l] = 0x3000 + l;
			CHECK(sqk_decode(f, fst, 3, &in) == 12 && in.op != K_INVALID &&
				      in.enc == SQK_FLAT && in.saddr == 2 && in.scale &&
				      sqk_exec_mem(&g->w, &in) == 0,
			      "flat_store_b32 v0, v2, s[2:3] offset:8 scale_offset runs");
			for (unsigned l = 0; l < 32; l++)
				g->w.v[l] = 33 - l;
			CHECK(sqk_decode(f, fld, 3, &in) == 12 && in.op != K_INVALID &&
				      sqk_exec_mem(&g->w, &in) == 0,
			      "flat_load_b32 v2, v0, s[2:3] offset:8 scale_offset runs");
			bad = 0;
			for (unsigned l = 0; l < 32; l++)
				bad += g->w.v[2 * 64 + l] != 0x3000 + 31 - l;
			CHECK(bad == 0,
			      "gfx1250 flat with SADDR: %u of 32 lanes wrong (lane 0 %#x)", bad,
			      g->w.v[2 * 64]);
			CHECK(sqk_decode(sqk_family_of(120000), fld, 3, &in) == 12 &&
				      in.op == K_INVALID,
			      "gfx1200: flat_load_b32 with an SADDR refused");
		}
		g->env.xlate = bare_no_mem;
	}
	/* refused: a 64-bit literal in a 32-bit source (v_add_nc_u32 v1,
	 * 254, v2) and in VOP3 (v_sub_nc_u64_e64 v[2:3], v[4:5], lit64);
	 * clamp on v_add_nc_u64_e64; scale_offset on FLAT; code 254 on gfx1200 */
	{
		static const uint32_t l32[3] = { 0x4a0204fe, 0x23456789, 1 },
				      vop3[4] = { 0xd5290002, 0x0001fd04, 0x23456789, 1 },
				      clamp[2] = { 0xd5288002, 0x00020d04 },
				      fl[3] = { 0xec05007c, 0x00010002, 0 },
				      gl[3] = { 0xee050002, 0x00010002, 0 };
		const struct sqk_family *f12 = sqk_family_of(120000);

		CHECK_EQ(run1250(g, l32, 3, "v_add_nc_u32 lit64"), -ENOTSUP,
			 "a 64-bit literal in a 32-bit source refused");
		CHECK(sqk_decode(f, vop3, 4, &in) == 16 && in.op == K_INVALID,
		      "a 64-bit literal in VOP3 refused (size %u, %s)", in.size,
		      sqk_op_name(in.op));
		CHECK_EQ(run1250(g, clamp, 2, "v_add_nc_u64 clamp"), -ENOTSUP,
			 "clamp on v_add_nc_u64 refused");
		CHECK(sqk_decode(f, fl, 3, &in) == 12 && in.op == K_INVALID,
		      "flat_load_b32 scale_offset refused");
		CHECK(sqk_decode(f, gl, 3, &in) == 12 && in.op != K_INVALID && in.scale &&
			      in.saddr == 2,
		      "global_load_b32 v2, v0, s[2:3] scale_offset decodes with its scale");
		CHECK(sqk_decode(f12, l32, 3, &in) == 4 && !sqk_operands_ok(f12, &in),
		      "gfx1200: operand 254 refused");
	}
	bare_wave_free(g);
}

/* bitop3's table as the sum of its minterms: entry 4*a + 2*b + c is the
 * result for the source bits a, b, c (c = 0 for bitop2) */
static uint32_t host_bitop2(uint8_t tt, uint32_t a, uint32_t b)
{
	uint32_t r = 0;

	if (tt & 0x01)
		r |= ~a & ~b;
	if (tt & 0x04)
		r |= ~a & b;
	if (tt & 0x10)
		r |= a & ~b;
	if (tt & 0x40)
		r |= a & b;
	return r;
}

static float lf(const struct bare_wave *g, unsigned r, unsigned l)
{
	float x;

	memcpy(&x, &g->w.v[(size_t)r * 64 + l], 4);
	return x;
}

/* the value of register @r (a double: @r and @r + 1) before the run */
static uint32_t vopd3_before[24][32];
#define OLDF(r) bf(r, l)
#define OLDD(r) bd(r, l)

static float bf(unsigned r, unsigned l)
{
	float x;

	memcpy(&x, &vopd3_before[r][l], 4);
	return x;
}

static double bd(unsigned r, unsigned l)
{
	uint64_t u = vopd3_before[r][l] | (uint64_t)vopd3_before[r + 1][l] << 32;
	double x;

	memcpy(&x, &u, 8);
	return x;
}

static double ld(const struct bare_wave *g, unsigned r, unsigned l)
{
	uint64_t u = g->w.v[(size_t)r * 64 + l] | (uint64_t)g->w.v[(size_t)(r + 1) * 64 + l] << 32;
	double x;

	memcpy(&x, &u, 8);
	return x;
}

/* RDNA4 ISA manual, V_MAX_NUM_F32 / V_MIN_NUM_F32 / _F64 (IEEE 754-2019
 * maximumNumber / minimumNumber), in the pseudo-code's order of cases,
 * on the operands' bits: 1 a quiet NaN is wanted (both sources NaN),
 * else 0 and *r the source the result is */
static int num_model(bool max, unsigned bits, uint64_t a, uint64_t b, uint64_t *r)
{
	uint64_t sgn = 1ull << (bits - 1), ex = bits == 32 ? 0x7f800000ull : 0x7ff0ull << 48;
	bool na = (a & ex) == ex && (a & (ex - 1) & ~sgn & (sgn - 1) & ~ex),
	     nb = (b & ex) == ex && (b & (ex - 1) & ~sgn & (sgn - 1) & ~ex);
	double fa = bits == 32 ? f32v((uint32_t)a) : f64v(a),
	       fb = bits == 32 ? f32v((uint32_t)b) : f64v(b);
	bool zz = fa == 0 && fb == 0;

	if (na && nb)
		return 1;
	if (na || nb) {
		*r = na ? b : a;
		return 0;
	}
	if (max)
		*r = fa > fb || (zz && !(a & sgn) && (b & sgn)) ? a : b;
	else
		*r = fa < fb || (zz && (a & sgn) && !(b & sgn)) ? a : b;
	return 0;
}

/* num_model()'s result as bits: the source it names, or the default quiet
 * NaN when both are NaN. */
static uint32_t num32(bool max, uint32_t a, uint32_t b)
{
	uint64_t r = 0;

	return num_model(max, 32, a, b, &r) ? 0x7fc00000u : (uint32_t)r;
}

/* V_MED3_NUM_F32 as V_MED3_F32 of the RDNA3.5 ISA manual with the _NUM
 * operations: a NaN among the three (isNAN of each): the minimumNumber of
 * the three; else their maximumNumber compared (a float ==, so +0 equals
 * -0) with S0: maximumNumber(S1, S2); else with S1: maximumNumber(S0,
 * S2); else maximumNumber(S0, S1). */
static uint32_t med3_num_model(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t mx;

	if (isnan(f32v(a)) || isnan(f32v(b)) || isnan(f32v(c)))
		return num32(false, num32(false, a, b), c);
	mx = num32(true, num32(true, a, b), c);
	if (f32v(mx) == f32v(a))
		return num32(true, b, c);
	if (f32v(mx) == f32v(b))
		return num32(true, a, c);
	return num32(true, a, b);
}

/* gfx12's v_max_num / v_min_num f32 and f64 on a bare gfx1200 wave
 * against num_model(): every pair of edge values (zeros of both signs,
 * infinities, quiet and signaling NaNs, a denormal, the largest finite);
 * MODE keeps denormals; v_med3_num_f32 against med3_num_model() on every
 * triple of the f32 values. And VOP3 DPP (DPP16 with row_mask, bound_ctrl on
 * an inactive source lane, DPP8 with FI; VOP3's abs / neg on the moved
 * source) against the lane map of the ISA's DPP description. Words from
 * llvm-mc -mcpu=gfx1200 -show-encoding. */
static void gfx12_num_dpp(void)
{
	static const uint32_t e32[] = { 0x00000000, 0x80000000, 0x3f800000, 0xbf800000,
					0x40200000, 0xff800000, 0x7f800000, 0x7fc00000,
					0x7f800001, 0xffc00123, 0x7f7fffff, 0x00000001 };
	static const uint64_t e64[] = { 0,
					1ull << 63,
					0x3ff0000000000000ull,
					0xbff0000000000000ull,
					0x7ff0000000000000ull,
					0xfff0000000000000ull,
					0x7ff8000000000000ull,
					0x7ff0000000000001ull,
					0xfff8000000000123ull,
					0x0000000000000001ull };
	static const uint32_t op32[2] = { 0x2c020702, 0x2a020702 }, /* max, min v1, v2, v3 */
		op64[2] = { 0x1c081106, 0x1a081106 };		    /* v[4:5], v[6:7], v[8:9] */
	const unsigned n32 = sizeof(e32) / sizeof(e32[0]), n64 = sizeof(e64) / sizeof(e64[0]);
	struct bare_wave *g = bare_wave_new(120000, 32);
	unsigned bad = 0, runs = 0;

	g->w.mode = 0xf0; /* no denormal flush */
	g->w.s[SQK_EXEC] = 0xffffffffu;
	for (int k = 0; k < 2; k++)
		for (unsigned p = 0; p < n32; p++) {
			for (unsigned l = 0; l < 32; l++) {
				g->w.v[2 * 64 + l] = e32[l % n32];
				g->w.v[3 * 64 + l] = e32[(l / n32 + l + p) % n32];
			}
			if (run12v(g, &op32[k], 1, k ? "v_min_num_f32" : "v_max_num_f32") != 0) {
				bad++;
				continue;
			}
			for (unsigned l = 0; l < 32; l++) {
				uint32_t a = g->w.v[2 * 64 + l], b = g->w.v[3 * 64 + l],
					 got = g->w.v[64 + l];
				uint64_t want = 0;

				runs++;
				if (num_model(!k, 32, a, b, &want)
					    ? !((got & 0x7f800000) == 0x7f800000 &&
						(got & 0x400000))
					    : got != (uint32_t)want) {
					if (bad++ < 4)
						fprintf(stderr, "%s 0x%08x 0x%08x: 0x%08x\n",
							k ? "v_min_num_f32" : "v_max_num_f32", a, b,
							got);
				}
			}
		}
	for (int k = 0; k < 2; k++)
		for (unsigned p = 0; p < n64; p++) {
			for (unsigned l = 0; l < 32; l++) {
				set64(g, 6, l, e64[l % n64]);
				set64(g, 8, l, e64[(l / n64 + l + p) % n64]);
			}
			if (run12v(g, &op64[k], 1, k ? "v_min_num_f64" : "v_max_num_f64") != 0) {
				bad++;
				continue;
			}
			for (unsigned l = 0; l < 32; l++) {
				uint64_t a = v64(g, 6, l), b = v64(g, 8, l), got = v64(g, 4, l),
					 want = 0;

				runs++;
				if (num_model(!k, 64, a, b, &want)
					    ? !((got >> 52 & 0x7ff) == 0x7ff && (got >> 51 & 1))
					    : got != want) {
					if (bad++ < 4)
						fprintf(stderr,
							"%s 0x%016llx 0x%016llx: 0x%016llx\n",
							k ? "v_min_num_f64" : "v_max_num_f64",
							(unsigned long long)a,
							(unsigned long long)b,
							(unsigned long long)got);
				}
			}
		}
	CHECK(bad == 0 && runs == 2 * 32 * (n32 + n64), "gfx1200 v_max_num / v_min_num: %u wrong",
	      bad);

	/* v_med3_num_f32 v1, v2, v3, v10 against med3_num_model(): S2 too,
	 * every (S1, S2) in each lane */
	bad = runs = 0;
	for (unsigned p = 0; p < n32 * n32; p++) {
		static const uint32_t med3[2] = { 0xd6310001, 0x042a0702 };

		for (unsigned l = 0; l < 32; l++) {
			g->w.v[2 * 64 + l] = e32[l % n32];
			g->w.v[3 * 64 + l] = e32[(l / n32 + l + p) % n32];
			g->w.v[10 * 64 + l] = e32[(l + p / n32) % n32];
		}
		if (run12v(g, med3, 2, "v_med3_num_f32") != 0) {
			bad++;
			continue;
		}
		for (unsigned l = 0; l < 32; l++) {
			uint32_t a = g->w.v[2 * 64 + l], b = g->w.v[3 * 64 + l],
				 c = g->w.v[10 * 64 + l], got = g->w.v[64 + l],
				 want = med3_num_model(a, b, c);

			runs++;
			if ((isnan(f32v(want)) ? !(isnan(f32v(got)) && (got & 0x400000))
					       : got != want) &&
			    bad++ < 4)
				fprintf(stderr, "v_med3_num_f32 0x%08x 0x%08x 0x%08x: 0x%08x\n", a,
					b, c, got);
		}
	}
	CHECK(bad == 0 && runs == 32 * n32 * n32, "gfx1200 v_med3_num_f32: %u wrong", bad);

	/* VOP3 DPP: v1 = src0 from the lane DPP names, modifiers VOP3's */
	{
		static const uint32_t w[4][3] = {
			/* v_add_f32_e64_dpp v1, -v2, |v3| quad_perm:[1,0,3,2]
			 * row_mask:0x5 bank_mask:0xf */
			{ 0xd5030201, 0x200206fa, 0x5f00b102 },
			/* v_add_f32_e64_dpp v1, v2, v3 quad_perm:[3,2,1,0]
			 * row_mask:0xf bank_mask:0xf bound_ctrl:1 */
			{ 0xd5030001, 0x000206fa, 0xff081b02 },
			/* v_mul_f32_e64_dpp v1, v2, -v3
			 * dpp8:[7,6,5,4,3,2,1,0] fi:1 */
			{ 0xd5080001, 0x400206ea, 0x05397702 },
			/* v_add_f16_e64_dpp v1, v2, v3 quad_perm:[1,0,3,2]
			 * row_mask:0xf bank_mask:0xf bound_ctrl:1 */
			{ 0xd5320001, 0x000206fa, 0xff08b102 },
		};
		const uint32_t exec = ~(1u << 5); /* lane 5 inactive */

		bad = 0;
		for (int k = 0; k < 4; k++) {
			for (unsigned l = 0; l < 32; l++) {
				g->w.v[64 + l] = 0xdeadbeefu;
				if (k == 3) {
					_Float16 a = (_Float16)(l * 0.5f + 1),
						 b = (_Float16)(l * 0.25f - 3);

					memcpy(&g->w.v[2 * 64 + l], &a, 2);
					memcpy(&g->w.v[3 * 64 + l], &b, 2);
					g->w.v[2 * 64 + l] =
						(g->w.v[2 * 64 + l] & 0xffff) | 0x12340000u;
					g->w.v[3 * 64 + l] =
						(g->w.v[3 * 64 + l] & 0xffff) | 0x56780000u;
				} else {
					g->w.v[2 * 64 + l] = u32f(l * 1.5f - 7);
					g->w.v[3 * 64 + l] = u32f(2.0f - l * 0.75f);
				}
			}
			g->w.s[SQK_EXEC] = k == 1 || k == 2 ? exec : 0xffffffffu;
			if (run12v(g, w[k], 3, "VOP3 DPP") != 0) {
				bad++;
				continue;
			}
			for (unsigned l = 0; l < 32; l++) {
				uint32_t got = g->w.v[64 + l], want;
				float a = 0, b = f32v(g->w.v[3 * 64 + l]);
				unsigned s = k == 0 || k == 3 ? l ^ 1
					     : k == 1	      ? (l & ~3u) | (3 - (l & 3))
							      : (l & ~7u) | (7 - (l & 7));

				if (!(g->w.s[SQK_EXEC] >> l & 1) || (k == 0 && l >= 16)) {
					want = 0xdeadbeefu; /* not written: inactive, row_mask */
				} else if (k == 3) {
					_Float16 ha, hb, hr;

					memcpy(&ha, &g->w.v[2 * 64 + s], 2);
					memcpy(&hb, &g->w.v[3 * 64 + l], 2);
					hr = (_Float16)((float)ha + (float)hb);
					want = 0;
					memcpy(&want, &hr, 2);
					got &= 0xffff;
				} else {
					/* bound_ctrl: an inactive source lane reads 0;
					 * DPP8 with FI its value */
					if (!(k == 1 && !(g->w.s[SQK_EXEC] >> s & 1)))
						a = f32v(g->w.v[2 * 64 + s]);
					want = u32f(k == 0   ? -a + fabsf(b)
						    : k == 1 ? a + b
							     : a * -b);
				}
				if (got != want && bad++ < 4)
					fprintf(stderr,
						"VOP3 DPP %d lane %u: 0x%08x, want 0x%08x\n", k, l,
						got, want);
			}
		}
		CHECK(bad == 0, "gfx1200 VOP3 DPP: %u lanes wrong", bad);
	}
	bare_wave_free(g);
}

/*
 * gfx1250's VOPD3 on a bare wave32, against a host model of each half's
 * pseudo-code (V_FMA_F32 / V_FMA_F64 D = S0 * S1 + S2 rounded once, the
 * neg bits negating their sources; V_CNDMASK_B32 D = the condition's lane
 * bit ? S1 : S0; V_SUB_F32, V_ADD_NC_U32, V_MAX_I32, V_MUL_F64; bitop2 the
 * truth table of two sources), both halves reading every operand before
 * either writes (a half reading the other's destination sees its old
 * value, a 64-bit one's high register included); and what is refused. The
 * words are llvm-mc -mcpu=gfx1250 -show-encoding's.
 */
static void vopd3(void)
{
	static const struct {
		const char *what;
		uint32_t w[3];
	} t[] = {
		{ "v_dual_fma_f32 v7, -v5, v4, v3 :: v_dual_fma_f32 v8, -v6, v4, v3",
		  { 0xcf4d3105, 0x03041306, 0x08030407 } },
		{ "v_dual_cndmask_b32 v6, -v2, v3, s4 :: v_dual_bitop2_b32 v10, s1, v12 "
		  "bitop3:0x30",
		  { 0xcf252102, 0x04030201, 0x0a300c06 } },
		{ "v_dual_fma_f64 v[8:9], -v[2:3], v[4:5], -v[6:7] :: v_dual_sub_f32 v14, -v9, v11",
		  { 0xcf805102, 0x06041b09, 0x0e000b08 } },
		{ "v_dual_add_nc_u32 v4, v1, v6 :: v_dual_max_i32 v6, v4, v9",
		  { 0xcf417101, 0x00060104, 0x06000904 } },
		{ "v_dual_mul_f64 v[20:21], s[2:3], v[4:5] :: v_dual_cndmask_b32 v22, v9, v11, "
		  "vcc_lo",
		  { 0xcf889002, 0x00040109, 0x166a0b14 } },
	};
	struct bare_wave *g = bare_wave_new(120500, 32);
	uint32_t(*before)[32] = vopd3_before;
	struct sqk_insn in;

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		unsigned bad = 0;

		g->w.s[SQK_EXEC] = 0xffffffffu;
		g->w.s[1] = 0x0ff0f00fu;
		g->w.s[2] = 0x9999999au, g->w.s[3] = 0x3ff19999u; /* 1.1 */
		g->w.s[4] = 0xa5a5c33cu;
		g->w.s[SQK_VCC] = 0x3c0ff0c3u;
		for (unsigned r = 0; r < 24; r++)
			for (unsigned l = 0; l < 32; l++) {
				/* normal floats (no denormal flushing), odd
				 * registers the high halves of doubles near 1 */
				uint32_t v = (r & 1) ? 0x3ff00000u + ((r * 7919u + l * 104729u) &
								      0xfffffu)
						     : u32f(1.5f + (float)(r * 3 + l) / 7.0f);

				if (r == 6 && k == 3)
					v = 0x80000000u + l * 977u; /* max_i32's signs */
				g->w.v[r * 64 + l] = v;
				before[r][l] = v;
			}
		if (sqk_decode(g->r.f, t[k].w, 3, &in) != 12 || in.op == K_INVALID ||
		    !sqk_operands_ok(g->r.f, &in)) {
			CHECK(0, "%s decodes", t[k].what);
			continue;
		}
		g->res.err = 0;
		CHECK_EQ(sqk_exec_vopd(&g->w, &in), 0, "%s runs", t[k].what);
		for (unsigned l = 0; l < 32; l++) {
			switch (k) {
			case 0:
				bad += u32f(lf(g, 7, l)) != u32f(fmaf(-OLDF(5), OLDF(4), OLDF(3)));
				bad += u32f(lf(g, 8, l)) != u32f(fmaf(-OLDF(6), OLDF(4), OLDF(3)));
				break;
			case 1:
				bad += g->w.v[6 * 64 + l] != ((g->w.s[4] >> l & 1)
								      ? before[3][l]
								      : before[2][l] ^ 0x80000000u);
				bad += g->w.v[10 * 64 + l] !=
				       host_bitop2(0x30, g->w.s[1], before[12][l]);
				break;
			case 2:
				bad += ld(g, 8, l) != fma(-OLDD(2), OLDD(4), -OLDD(6));
				/* Y reads v9 as it was before X wrote v[8:9] */
				bad += u32f(lf(g, 14, l)) != u32f(-OLDF(9) - OLDF(11));
				break;
			case 3:
				bad += g->w.v[4 * 64 + l] != before[1][l] + before[6][l];
				bad += g->w.v[6 * 64 + l] !=
				       (uint32_t)((int32_t)before[4][l] > (int32_t)before[9][l]
							  ? before[4][l]
							  : before[9][l]);
				break;
			default:
				bad += ld(g, 20, l) != 1.1 * OLDD(4);
				bad += g->w.v[22 * 64 + l] !=
				       ((g->w.s[SQK_VCC] >> l & 1) ? before[11][l] : before[9][l]);
				break;
			}
		}
		CHECK(bad == 0, "%s: %u lanes differ from the host model", t[k].what, bad);
	}

	/* refused: a neg bit on an integer half, the reserved bits [11:9]
	 * and [47], a literal, a Y destination inside X's pair, a Y opcode
	 * LLVM does not define */
	{
		const uint32_t *a = t[3].w, *d = t[2].w;
		const uint32_t r[][3] = {
			{ a[0], a[1] | 1u << 9, a[2] },			 /* neg src0X */
			{ a[0], a[1] | 1u << 13, a[2] },		 /* neg src1Y */
			{ a[0] | 1u << 9, a[1], a[2] },			 /* [11:9] */
			{ a[0], a[1] | 1u << 15, a[2] },		 /* [47] */
			{ (a[0] & ~0x1ffu) | 0xff, a[1], a[2] },	 /* literal src0X */
			{ d[0], d[1], (d[2] & 0x00ffffffu) | 9u << 24 }, /* vdstY v9 */
			{ (a[0] & ~0x3f000u) | 63u << 12, a[1], a[2] },	 /* Y opcode 63 */
		};

		for (size_t k = 0; k < sizeof(r) / sizeof(r[0]); k++) {
			uint32_t w4[4] = { r[k][0], r[k][1], r[k][2], 0x3f800000u };

			CHECK(sqk_decode(g->r.f, w4, 4, &in) == 12 && in.op == K_INVALID,
			      "VOPD3 refusal %zu: an illegal instruction (op %s)", k,
			      sqk_op_name(in.op));
		}
	}
	bare_wave_free(g);

	g = bare_wave_new(120500, 64);
	CHECK(sqk_decode(g->r.f, t[3].w, 3, &in) == 12 && in.op != K_INVALID, "VOPD3 decodes");
	CHECK_EQ(sqk_exec_vopd(&g->w, &in), -ENOTSUP, "VOPD3 in wave64 refused");
	bare_wave_free(g);
}

/* The min / max before RDNA4's minimumNumber: V_MAX_F32 of the RDNA3 and
 * CDNA3 ISA manuals, in the pseudo-code's order of cases with MODE.IEEE
 * set (as for compute): S0 a signaling NaN: S0 made quiet; else S1 one:
 * S1 made quiet; else a NaN source: the other; +0 and -0 (either order):
 * the +0; else S0 >= S1 ? S0 : S1. V_MIN_F32 the mirror (-0 below +0, S0
 * <= S1 ? S0 : S1); _F64 the same on 64 bits; V_MAX3 / V_MIN3 the
 * operation twice. On the operands' bits: the result's bits. */
static uint64_t ieee_model(bool max, unsigned bits, uint64_t a, uint64_t b);

/* V_MED3_F32 of the RDNA3.5 and CDNA4 ISA manuals: a NaN among the
 * three (isNAN of each as f64): V_MIN3_F32 of them; else V_MAX3_F32 of
 * them compared (a float ==, so +0 equals -0) with S0: V_MAX_F32(S1, S2);
 * else with S1: V_MAX_F32(S0, S2); else V_MAX_F32(S0, S1). */
static uint32_t med3_model(uint32_t a, uint32_t b, uint32_t c)
{
	uint64_t mx;

	if (isnan(f32v(a)) || isnan(f32v(b)) || isnan(f32v(c)))
		return (uint32_t)ieee_model(false, 32, ieee_model(false, 32, a, b), c);
	mx = ieee_model(true, 32, ieee_model(true, 32, a, b), c);
	if (f32v((uint32_t)mx) == f32v(a))
		return (uint32_t)ieee_model(true, 32, b, c);
	if (f32v((uint32_t)mx) == f32v(b))
		return (uint32_t)ieee_model(true, 32, a, c);
	return (uint32_t)ieee_model(true, 32, a, b);
}

static uint64_t ieee_model(bool max, unsigned bits, uint64_t a, uint64_t b)
{
	uint64_t sgn = 1ull << (bits - 1), quiet = bits == 32 ? 1ull << 22 : 1ull << 51;
	uint64_t ex = bits == 32 ? 0x7f800000ull : 0x7ffull << 52, man = quiet * 2 - 1;
	bool na = (a & ex) == ex && (a & man), nb = (b & ex) == ex && (b & man);
	double fa = bits == 32 ? f32v((uint32_t)a) : f64v(a),
	       fb = bits == 32 ? f32v((uint32_t)b) : f64v(b);

	if (na && !(a & quiet))
		return a | quiet;
	if (nb && !(b & quiet))
		return b | quiet;
	if (na || nb)
		return na ? b : a;
	if (fa == 0 && fb == 0 && (a & sgn) != (b & sgn))
		return (max ? !(a & sgn) : !!(a & sgn)) ? a : b;
	return (max ? fa >= fb : fa <= fb) ? a : b;
}

/* v_max / v_min f32 and f64 and v_max3 / v_min3 f32 on bare gfx900
 * (wave64) and gfx1100 (wave32) waves against ieee_model(): every pair of
 * edge values (zeros of both signs, infinities, quiet and signaling NaNs of
 * two payloads, a denormal, the largest finite); v_med3_f32 against
 * med3_model() on every triple of them. MODE keeps denormals.
 * Words from llvm-mc -mcpu=gfx900 / gfx1100 -show-encoding: v_max_f32 v1, v2, v3;
 * v_min_f32; v_max_f64 v[4:5], v[6:7], v[8:9]; v_min_f64; v_max3_f32 v1,
 * v2, v3, v3; v_min3_f32; v_med3_f32 v1, v2, v3, v10. */
static void minmax_ieee(void)
{
	static const uint32_t e32[] = { 0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0xff800000,
					0x7f800000, 0x7fc00000, 0x7f800001, 0xffc00123, 0x7f7fffff,
					0x00000001, 0x80000001, 0xff800123 };
	static const uint64_t e64[] = { 0,
					1ull << 63,
					0x3ff0000000000000ull,
					0xbff0000000000000ull,
					0x7ff0000000000000ull,
					0xfff0000000000000ull,
					0x7ff8000000000000ull,
					0x7ff0000000000001ull,
					0xfff8000000000123ull,
					0x0000000000000001ull,
					0xfff0000000000123ull };
	static const struct {
		uint32_t gfxv;
		unsigned lanes;
		uint32_t w[7][2]; /* max, min f32; max, min f64; max3, min3, med3 f32 */
	} fam[] = {
		{ 90000,
		  64,
		  { { 0x16020702 },
		    { 0x14020702 },
		    { 0xd2830004, 0x00021106 },
		    { 0xd2820004, 0x00021106 },
		    { 0xd1d30001, 0x040e0702 },
		    { 0xd1d00001, 0x040e0702 },
		    { 0xd1d60001, 0x042a0702 } } },
		{ 110000,
		  32,
		  { { 0x20020702 },
		    { 0x1e020702 },
		    { 0xd72a0004, 0x00021106 },
		    { 0xd7290004, 0x00021106 },
		    { 0xd61c0001, 0x040e0702 },
		    { 0xd6190001, 0x040e0702 },
		    { 0xd61f0001, 0x042a0702 } } },
	};
	static const char *const nm[7] = { "v_max_f32",	 "v_min_f32",  "v_max_f64", "v_min_f64",
					   "v_max3_f32", "v_min3_f32", "v_med3_f32" };
	const unsigned n32 = sizeof(e32) / sizeof(e32[0]), n64 = sizeof(e64) / sizeof(e64[0]);
	unsigned bad = 0, runs = 0, want_runs = 0;

	for (size_t f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		struct bare_wave *g = bare_wave_new(fam[f].gfxv, fam[f].lanes);
		unsigned L = fam[f].lanes;

		g->w.mode = 0xf0 | 1u << 9; /* denormals kept, IEEE */
		g->w.s[SQK_EXEC] = 0xffffffffu;
		g->w.s[SQK_EXEC + 1] = L == 64 ? 0xffffffffu : 0;
		for (int k = 0; k < 7; k++) {
			bool f64 = k == 2 || k == 3;
			unsigned n = f64 ? n64 : n32;
			struct sqk_insn in;

			/* med3: S2 too, every (S1, S2) in each lane */
			for (unsigned p = 0; p < (k == 6 ? n * n : n); p++) {
				for (unsigned l = 0; l < L; l++) {
					if (f64) {
						set64(g, 6, l, e64[l % n]);
						set64(g, 8, l, e64[(l / n + l + p) % n]);
					} else {
						g->w.v[2 * 64 + l] = e32[l % n];
						g->w.v[3 * 64 + l] = e32[(l / n + l + p) % n];
						g->w.v[10 * 64 + l] = e32[(l + p / n) % n];
					}
				}
				want_runs += L;
				if (sqk_decode(g->r.f, fam[f].w[k], f64 || k > 3 ? 2 : 1, &in) !=
					    (f64 || k > 3 ? 8 : 4) ||
				    in.op == K_INVALID || sqk_exec_valu(&g->w, &in) != 0) {
					if (bad++ < 4)
						fprintf(stderr, "%u %s: not run\n", fam[f].gfxv,
							nm[k]);
					continue;
				}
				for (unsigned l = 0; l < L; l++) {
					uint64_t a = f64 ? v64(g, 6, l) : g->w.v[2 * 64 + l];
					uint64_t b = f64 ? v64(g, 8, l) : g->w.v[3 * 64 + l];
					uint64_t got = f64 ? v64(g, 4, l) : g->w.v[64 + l];
					uint64_t want = ieee_model(!(k & 1), f64 ? 64 : 32, a, b);

					if (k == 6)
						want = med3_model((uint32_t)a, (uint32_t)b,
								  g->w.v[10 * 64 + l]);
					else if (k > 3) /* S2 is S1 again */
						want = ieee_model(!(k & 1), 32, want, b);
					runs++;
					if (got != want && bad++ < 4)
						fprintf(stderr,
							"%u %s 0x%llx 0x%llx: 0x%llx, want "
							"0x%llx\n",
							fam[f].gfxv, nm[k], (unsigned long long)a,
							(unsigned long long)b,
							(unsigned long long)got,
							(unsigned long long)want);
				}
			}
		}
		bare_wave_free(g);
	}
	CHECK(bad == 0 && runs == want_runs,
	      "gfx900 / gfx1100 v_max / v_min (f32, f64, 3-operand), v_med3_f32: %u wrong", bad);
}

/* A three-source VOP3 form (two-source without @three), its words @w
 * (sources v2, v3, v10; result v1), on a bare wave of @gfxv (64 lanes
 * before gfx10, else 32) in MODE @mode: v2 and v3 every pair of the @n
 * values @e, v10 (@three) every triple; each lane against @model(@arg, S0,
 * S1, S2), a NaN from it meaning any quiet NaN where @fnan. The lanes
 * wrong (printed, the first few), *@runs and *@want_runs counting the
 * lanes checked and to check. */
typedef uint32_t (*edge_model)(const void *arg, uint32_t a, uint32_t b, uint32_t c);
static unsigned edge_run(const char *name, uint32_t gfxv, uint32_t mode, const uint32_t w[2],
			 bool three, const uint32_t *e, unsigned n, edge_model model,
			 const void *arg, bool fnan, unsigned *runs, unsigned *want_runs)
{
	unsigned L = gfxv < 100000 ? 64 : 32, bad = 0;
	struct bare_wave *g = bare_wave_new(gfxv, L);
	struct sqk_insn in;

	g->w.mode = mode;
	g->w.s[SQK_EXEC] = 0xffffffffu;
	g->w.s[SQK_EXEC + 1] = L == 64 ? 0xffffffffu : 0;
	for (unsigned p = 0; p < (three ? n * n : n); p++) {
		for (unsigned l = 0; l < L; l++) {
			g->w.v[2 * 64 + l] = e[l % n];
			g->w.v[3 * 64 + l] = e[(l / n + l + p) % n];
			g->w.v[10 * 64 + l] = e[(l + p / n) % n];
		}
		*want_runs += L;
		if (sqk_decode(g->r.f, w, 2, &in) != 8 || in.op == K_INVALID ||
		    sqk_exec_valu(&g->w, &in) != 0) {
			fprintf(stderr, "%u %s: not run\n", gfxv, name);
			bad++;
			break;
		}
		for (unsigned l = 0; l < L; l++) {
			uint32_t a = g->w.v[2 * 64 + l], b = g->w.v[3 * 64 + l],
				 c = g->w.v[10 * 64 + l], got = g->w.v[64 + l],
				 want = model(arg, a, b, c);

			++*runs;
			if ((fnan && isnan(f32v(want)) ? !(isnan(f32v(got)) && (got & 0x400000))
						       : got != want) &&
			    bad++ < 4)
				fprintf(stderr, "%u %s 0x%x 0x%x 0x%x: 0x%x, want 0x%x\n", gfxv,
					name, a, b, c, got, want);
		}
	}
	bare_wave_free(g);
	return bad;
}

/* The f32 edge values of the checks below: zeros of both signs, +-1,
 * infinities, quiet and signaling NaNs, the largest finite, a denormal. */
static const uint32_t edge_f32[] = { 0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0xff800000,
				     0x7f800000, 0x7fc00000, 0x7f800001, 0x7f7fffff, 0x00000001 };

struct maxmin_op {
	const char *name;
	uint32_t gfxv, w0;
	int kind; /* 0 ieee f32, 1 num f32, 2 i32, 3 u32, 4 add / sub i32 clamp */
	bool maxmin;
};

/* struct maxmin_op @arg's result: the two-operand models composed */
static uint32_t maxmin_model(const void *arg, uint32_t a, uint32_t b, uint32_t c)
{
	const struct maxmin_op *op = arg;
	bool mx = op->maxmin;

	switch (op->kind) {
	case 0:
		return (uint32_t)ieee_model(!mx, 32, ieee_model(mx, 32, a, b), c);
	case 1:
		return num32(!mx, num32(mx, a, b), c);
	case 2: {
		int32_t ab = mx ? ((int32_t)a > (int32_t)b ? (int32_t)a : (int32_t)b)
				: ((int32_t)a < (int32_t)b ? (int32_t)a : (int32_t)b);

		return (uint32_t)(mx ? (ab < (int32_t)c ? ab : (int32_t)c)
				     : (ab > (int32_t)c ? ab : (int32_t)c));
	}
	case 3: {
		uint32_t ab = mx ? (a > b ? a : b) : (a < b ? a : b);

		return mx ? (ab < c ? ab : c) : (ab > c ? ab : c);
	}
	default: {
		int64_t r =
			mx ? (int64_t)(int32_t)a + (int32_t)b : (int64_t)(int32_t)a - (int32_t)b;

		return (uint32_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
	}
	}
}

/* gfx11's v_maxmin / v_minmax f32, i32 and u32 (RDNA3 ISA manual: the
 * min of S2 and the max of S0 and S1; the max of S2 and the min of S0 and
 * S1) on a bare gfx1100 wave (MODE.IEEE set: ieee_model()), and gfx12's
 * (_num f32: num_model()) on a gfx1200 wave: every triple of edge values
 * against the two-operand models composed; and RDNA's v_add_nc_i32 /
 * v_sub_nc_i32 with clamp (gfx1030, gfx1100, gfx1200) on every pair
 * against a saturating host sum. Words from llvm-mc -show-encoding:
 * v_maxmin_f32 v1, v2, v3, v10 and the others alike. */
static void maxmin3(void)
{
	static const uint32_t ei[] = {
		0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 5, 0x80000001u
	};
	static const struct maxmin_op op[] = {
		{ "v_maxmin_f32", 110000, 0xd65e0001, 0, true },
		{ "v_minmax_f32", 110000, 0xd65f0001, 0, false },
		{ "v_maxmin_i32", 110000, 0xd6640001, 2, true },
		{ "v_minmax_i32", 110000, 0xd6650001, 2, false },
		{ "v_maxmin_u32", 110000, 0xd6620001, 3, true },
		{ "v_minmax_u32", 110000, 0xd6630001, 3, false },
		{ "v_maxmin_num_f32", 120000, 0xd6690001, 1, true },
		{ "v_minmax_num_f32", 120000, 0xd6680001, 1, false },
		{ "v_maxmin_i32", 120000, 0xd6640001, 2, true },
		{ "v_minmax_u32", 120000, 0xd6630001, 3, false },
		/* RDNA's v_add_nc_i32 / v_sub_nc_i32 v1, v2, v3 clamp (GFX9's
		 * VOP3 v_add_i32 renamed: S0 + S1, S0 - S1, saturated) */
		{ "v_add_nc_i32", 100300, 0xd77f8001, 4, true },
		{ "v_sub_nc_i32", 100300, 0xd7768001, 4, false },
		{ "v_add_nc_i32", 110000, 0xd7268001, 4, true },
		{ "v_sub_nc_i32", 120000, 0xd7258001, 4, false },
	};
	unsigned bad = 0, runs = 0, want_runs = 0;

	for (size_t k = 0; k < sizeof(op) / sizeof(op[0]); k++) {
		bool f32 = op[k].kind < 2, three = op[k].kind != 4;
		const uint32_t w[2] = { op[k].w0, three ? 0x042a0702 : 0x00020702 };

		/* no flush; IEEE before gfx12 (which has no such bit) */
		bad += edge_run(op[k].name, op[k].gfxv, 0xf0 | (op[k].gfxv < 120000 ? 1u << 9 : 0),
				w, three, f32 ? edge_f32 : ei,
				f32 ? sizeof(edge_f32) / 4 : sizeof(ei) / 4, maxmin_model, &op[k],
				op[k].kind == 1, &runs, &want_runs);
	}
	CHECK(bad == 0 && runs == want_runs,
	      "gfx1100 / gfx1200 v_maxmin / v_minmax (f32, num f32, i32, u32), RDNA "
	      "v_add_nc_i32 / v_sub_nc_i32: %u wrong",
	      bad);
}

/* IEEE 754-2019 minimum / maximum of the bits @a, @b: a NaN source gives
 * a NaN (0x7fc00000 here: the check asks only for a quiet NaN), -0 below
 * +0, else the smaller or larger value. */
static uint32_t m754(bool max, uint32_t a, uint32_t b)
{
	float fa = f32v(a), fb = f32v(b);

	if (isnan(fa) || isnan(fb))
		return 0x7fc00000u;
	if (fa == fb)
		return (max ? !(a >> 31) : a >> 31) ? a : b;
	return (max ? fa > fb : fa < fb) ? a : b;
}

struct m754_op {
	const char *name;
	uint32_t gfxv, w0;
	bool three, first, second; /* max first (of S0, S1), max second (with S2) */
};

static uint32_t m754_model(const void *arg, uint32_t a, uint32_t b, uint32_t c)
{
	const struct m754_op *op = arg;
	uint32_t r = m754(op->first, a, b);

	return op->three ? m754(op->second, r, c) : r;
}

/* gfx12's v_minimum_f32 / v_maximum_f32 and their three-source forms
 * (RDNA4 ISA), gfx950's v_minimum3_f32 / v_maximum3_f32 (CDNA4 ISA): the
 * IEEE 754-2019 minimum and maximum (m754()) on every pair, or triple, of
 * edge values, on a bare gfx1200 wave32 and a gfx950 wave64. Words from
 * llvm-mc -show-encoding: v_minimum_f32 v1, v2, v3 and v_minimum3_f32 v1,
 * v2, v3, v10 and the others alike. */
static void minmax754_ops(void)
{
	static const struct m754_op op[] = {
		{ "v_minimum_f32", 120000, 0xd7650001, false, false, false },
		{ "v_maximum_f32", 120000, 0xd7660001, false, true, true },
		{ "v_minimum3_f32", 120000, 0xd62d0001, true, false, false },
		{ "v_maximum3_f32", 120000, 0xd62e0001, true, true, true },
		{ "v_minimummaximum_f32", 120000, 0xd66c0001, true, false, true },
		{ "v_maximumminimum_f32", 120000, 0xd66d0001, true, true, false },
		{ "v_minimum3_f32", 90500, 0xd2a80001, true, false, false },
		{ "v_maximum3_f32", 90500, 0xd2a90001, true, true, true },
	};
	unsigned bad = 0, runs = 0, want_runs = 0;

	for (size_t k = 0; k < sizeof(op) / sizeof(op[0]); k++) {
		const uint32_t w[2] = { op[k].w0, op[k].three ? 0x042a0702 : 0x00020702 };

		bad += edge_run(op[k].name, op[k].gfxv, 0xf0 /* no flush */, w, op[k].three,
				edge_f32, sizeof(edge_f32) / 4, m754_model, &op[k], true, &runs,
				&want_runs);
	}
	CHECK(bad == 0 && runs == want_runs,
	      "gfx1200 / gfx950 v_minimum / v_maximum (2 and 3 sources): %u wrong", bad);
}

/* GC 12.5's 64-bit integer max / min (v_max_i64 v[2:3], v[4:5], v[6:7]
 * and the others alike, llvm-mc -mcpu=gfx1250 -show-encoding) on a bare
 * gfx1250 wave: every pair of edge values against the host's. */
/* A VOP3 operation (@w) of the 64-bit sources v[4:5] and v[6:7] into
 * v[2:3] on the bare wave32 @g over every pair of the @n values @e, each
 * lane judged by @ok(@arg, S0, S1, D): the lanes wrong (the first few
 * printed with @name), *@runs counting the lanes checked. */
typedef bool (*pair64_ok)(const void *arg, uint64_t a, uint64_t b, uint64_t got);
static unsigned edge_run64(struct bare_wave *g, const char *name, const uint32_t w[2],
			   const uint64_t *e, unsigned n, pair64_ok ok, const void *arg,
			   unsigned *runs)
{
	unsigned bad = 0;
	struct sqk_insn in;

	for (unsigned p = 0; p < n; p++) {
		for (unsigned l = 0; l < 32; l++) {
			set64(g, 4, l, e[l % n]);
			set64(g, 6, l, e[(l / n + l + p) % n]);
		}
		if (sqk_decode(g->r.f, w, 2, &in) != 8 || in.op == K_INVALID ||
		    sqk_exec_valu(&g->w, &in) != 0) {
			fprintf(stderr, "%s: not run\n", name);
			return bad + 1;
		}
		for (unsigned l = 0; l < 32; l++) {
			uint64_t a = v64(g, 4, l), b = v64(g, 6, l), got = v64(g, 2, l);

			++*runs;
			if (!ok(arg, a, b, got) && bad++ < 4)
				fprintf(stderr, "%s 0x%llx 0x%llx: 0x%llx\n", name,
					(unsigned long long)a, (unsigned long long)b,
					(unsigned long long)got);
		}
	}
	return bad;
}

struct minmax64_op {
	const char *name;
	uint32_t w0;
	bool max, sgn;
};

/* the larger or smaller of @a and @b, signed or not, as @arg names */
static bool minmax64_ok(const void *arg, uint64_t a, uint64_t b, uint64_t got)
{
	const struct minmax64_op *op = arg;
	bool gt = op->sgn ? (int64_t)a > (int64_t)b : a > b;

	return got == (op->max ? (gt ? a : b) : (gt ? b : a));
}

static void minmax64_gfx1250(void)
{
	static const uint64_t e[] = {
		0,	    1,		~0ull,	       1ull << 63,
		~0ull >> 1, 1ull << 32, 0xffffffffull, 0xffffffff00000000ull
	};
	static const struct minmax64_op op[] = {
		{ "v_max_i64", 0xd71b0002, true, true },
		{ "v_min_u64", 0xd7180002, false, false },
		{ "v_max_u64", 0xd7190002, true, false },
		{ "v_min_i64", 0xd71a0002, false, true },
	};
	const unsigned n = sizeof(e) / sizeof(e[0]);
	struct bare_wave *g = bare_wave_new(120500, 32);
	unsigned bad = 0, runs = 0;

	g->w.s[SQK_EXEC] = 0xffffffffu;
	for (size_t k = 0; k < sizeof(op) / sizeof(op[0]); k++) {
		const uint32_t w[2] = { op[k].w0, 0x00020d04 };

		bad += edge_run64(g, op[k].name, w, e, n, minmax64_ok, &op[k], &runs);
	}
	bare_wave_free(g);
	CHECK(bad == 0 && runs == 4 * 32 * n, "gfx1250 v_max / v_min i64 / u64: %u wrong", bad);
}

/* gfx11's and gfx12's ds_cmpstore (RDNA3 ISA manual, DS_CMPSTORE_B32 /
 * _RTN_B32 / _B64 / _RTN_B64: tmp = MEM[ADDR]; src = DATA; cmp = DATA2;
 * MEM[ADDR] = tmp == cmp ? src : tmp; the _rtn forms return tmp; LLVM 22
 * lowers an LDS cmpxchg (ptr, cmp, new) to it with data0 the new value)
 * on a bare wave32 of gfx1100 and gfx1201 with 1 KiB of LDS: each lane's
 * slot, the compare equal on the even lanes, the old value returned.
 * Words from llvm-mc -show-encoding. */
static void ds_cmpstore(void)
{
	/* ds_cmpstore_rtn_b32 v1, v2, v3, v4 */
	static const uint32_t rtn32[2] = { 0xd8c00000, 0x01040302 };
	/* ds_cmpstore_rtn_b64 v[6:7], v5, v[8:9], v[10:11] offset:256 */
	static const uint32_t rtn64[2] = { 0xd9c00100, 0x060a0805 };
	/* ds_cmpstore_b32 v2, v3, v4 offset:128 */
	static const uint32_t st32[2] = { 0xd8400080, 0x00040302 };
	static const uint32_t fam[] = { 110000, 120001 };

	for (unsigned f = 0; f < 2; f++) {
		struct bare_wave *g = bare_wave_new(fam[f], 32);
		uint32_t lds[256];
		unsigned bad = 0;
		struct sqk_insn in;

		g->r.lds = (uint8_t *)lds;
		g->r.lds_size = sizeof(lds);
		g->w.s[SQK_EXEC] = 0xffffffffu;
		for (unsigned i = 0; i < 256; i++)
			lds[i] = 0x1000u + i;
		for (unsigned l = 0; l < 32; l++) {
			g->w.v[2 * 64 + l] = 4 * l;	  /* address */
			g->w.v[5 * 64 + l] = 8 * l;	  /* the 64-bit forms' address */
			g->w.v[3 * 64 + l] = 0xa000u + l; /* data0: new */
			g->w.v[4 * 64 + l] = l % 2 ? 7 : 0x1000u + l; /* data1: compare */
			g->w.v[8 * 64 + l] = 0xb000u + l, g->w.v[9 * 64 + l] = 0xc000u + l;
			g->w.v[10 * 64 + l] = l % 2 ? 9 : 0x1000u + 64 + 2 * l;
			g->w.v[11 * 64 + l] = l % 2 ? 9 : 0x1000u + 64 + 2 * l + 1;
		}
		CHECK(sqk_decode(g->r.f, rtn32, 2, &in) == 8 && in.op == K_ds_cmpstore_rtn_b32 &&
			      sqk_exec_ds(&g->w, &in) == 0,
		      "%u ds_cmpstore_rtn_b32 runs", fam[f]);
		for (unsigned l = 0; l < 32; l++) {
			uint32_t want = l % 2 ? 0x1000u + l : 0xa000u + l;

			if ((lds[l] != want || g->w.v[64 + l] != 0x1000u + l) && bad++ < 3)
				fprintf(stderr, "%u lane %u: lds 0x%x (want 0x%x), returned 0x%x\n",
					fam[f], l, lds[l], want, g->w.v[64 + l]);
		}
		CHECK(sqk_decode(g->r.f, rtn64, 2, &in) == 8 && in.op == K_ds_cmpstore_rtn_b64 &&
			      sqk_exec_ds(&g->w, &in) == 0,
		      "%u ds_cmpstore_rtn_b64 runs", fam[f]);
		for (unsigned l = 0; l < 32; l++) {
			/* offset 256: qword 32 + l over dwords 64 + 2l, 65 + 2l */
			uint32_t w0 = l % 2 ? 0x1000u + 64 + 2 * l : 0xb000u + l,
				 w1 = l % 2 ? 0x1000u + 65 + 2 * l : 0xc000u + l;

			if ((lds[64 + 2 * l] != w0 || lds[65 + 2 * l] != w1 ||
			     g->w.v[6 * 64 + l] != 0x1000u + 64 + 2 * l ||
			     g->w.v[7 * 64 + l] != 0x1000u + 65 + 2 * l) &&
			    bad++ < 3)
				fprintf(stderr,
					"%u lane %u b64: lds 0x%x 0x%x, returned 0x%x 0x%x\n",
					fam[f], l, lds[64 + 2 * l], lds[65 + 2 * l],
					g->w.v[6 * 64 + l], g->w.v[7 * 64 + l]);
		}
		/* without return, offset 128 (dword 32 + l): the compare of v4
		 * against 0x1000 + 32 + l equal on no lane, nothing stored */
		CHECK(sqk_decode(g->r.f, st32, 2, &in) == 8 && in.op == K_ds_cmpstore_b32 &&
			      sqk_exec_ds(&g->w, &in) == 0,
		      "%u ds_cmpstore_b32 runs", fam[f]);
		for (unsigned l = 0; l < 32; l++)
			if (lds[32 + l] != 0x1000u + 32 + l && bad++ < 3)
				fprintf(stderr,
					"%u lane %u: stored 0x%x without an equal compare\n",
					fam[f], l, lds[32 + l]);
		CHECK(bad == 0, "%u ds_cmpstore: %u lanes wrong", fam[f], bad);
		bare_wave_free(g);
	}
}

/* gfx12's ds_max_num_rtn_f32 / ds_min_num_rtn_f32 (RDNA4 ISA manual:
 * maximumNumber / minimumNumber of the LDS value and the data, the old
 * value returned) on a bare gfx1201 wave32: each lane a pair of edge
 * values (signed zeros both ways, a NaN on either side, infinities),
 * against the model. Words from llvm-mc -mcpu=gfx1201 -show-encoding:
 * ds_max_num_rtn_f32 v1, v2, v3 and ds_min_num_rtn_f32 v1, v2, v3. */
static void ds_num_f32(void)
{
	static const uint32_t pairs[][2] = {
		{ 0x00000000, 0x80000000 }, { 0x80000000, 0x00000000 }, { 0x7fc00000, 0x3f800000 },
		{ 0x3f800000, 0x7fc00000 }, { 0x40000000, 0x40400000 }, { 0xff800000, 0x40a00000 },
		{ 0x7f800000, 0xc0000000 }, { 0xbf800000, 0xbf800000 },
	};
	static const uint32_t wmax[2] = { 0xd8cc0000, 0x01000302 },
			      wmin[2] = { 0xd8c80000, 0x01000302 };
	struct bare_wave *g = bare_wave_new(120001, 32);
	unsigned bad = 0, np = sizeof(pairs) / sizeof(pairs[0]);
	uint32_t lds[32];
	struct sqk_insn in;

	g->r.lds = (uint8_t *)lds;
	g->r.lds_size = sizeof(lds);
	g->w.s[SQK_EXEC] = 0xffffffffu;
	for (int mx = 1; mx >= 0; mx--) {
		for (unsigned l = 0; l < 32; l++) {
			lds[l] = pairs[l % np][0];
			g->w.v[2 * 64 + l] = 4 * l;
			g->w.v[3 * 64 + l] = pairs[l % np][1];
		}
		CHECK(sqk_decode(g->r.f, mx ? wmax : wmin, 2, &in) == 8 &&
			      in.op == (mx ? K_ds_max_rtn_f32 : K_ds_min_rtn_f32) &&
			      sqk_exec_ds(&g->w, &in) == 0,
		      "ds_%s_num_rtn_f32 runs", mx ? "max" : "min");
		for (unsigned l = 0; l < 32; l++) {
			uint32_t a = pairs[l % np][0], b = pairs[l % np][1];
			uint32_t want = num32(mx, a, b);

			if ((lds[l] != want || g->w.v[64 + l] != a) && bad++ < 4)
				fprintf(stderr,
					"ds_%s_num_rtn_f32 0x%x 0x%x: 0x%x (want 0x%x), old 0x%x\n",
					mx ? "max" : "min", a, b, lds[l], want, g->w.v[64 + l]);
		}
	}
	CHECK(bad == 0, "gfx1201 ds_max/min_num_rtn_f32: %u lanes wrong", bad);
	bare_wave_free(g);
}

/* IEEE 754-2019 maximum (*@arg true) or minimum of the f64 @a and @b: a
 * NaN source gives a quiet NaN, -0 below +0 */
static bool m754d_ok(const void *arg, uint64_t a, uint64_t b, uint64_t got)
{
	bool mx = *(const bool *)arg;
	double x = f64v(a), y = f64v(b);

	if (isnan(x) || isnan(y))
		return isnan(f64v(got)) && (got >> 51 & 1);
	if (x == y)
		return got == ((mx ? !(a >> 63) : a >> 63) ? a : b);
	return got == ((mx ? x > y : x < y) ? a : b);
}

/* gfx12's v_minimum_f64 / v_maximum_f64 (IEEE 754-2019: a NaN source
 * gives a quiet NaN, -0 below +0; "v_minimum_f64 v[2:3], v[4:5], v[6:7]",
 * llvm-mc -mcpu=gfx1200 -show-encoding) on a bare gfx1201 wave32, every
 * pair of f64 edge values against the model; and S_ADDK_CO_I32 (gfx11's
 * S_ADDK_I32 by its gfx12 name: D += the signed 16-bit constant, SCC the
 * signed overflow; "s_addk_co_i32 s1, 0x8001" is 0xb7818001). */
static void gfx12_f64_addk(void)
{
	static const uint64_t e[] = {
		0,
		1ull << 63,
		0x3ff0000000000000ull,
		0xbff0000000000000ull,
		0x7ff0000000000000ull,
		0xfff0000000000000ull,
		0x7ff8000000000000ull,
		0x7ff0000000000001ull,
		0x0000000000000001ull,
		0x7fefffffffffffffull,
	};
	const unsigned n = sizeof(e) / sizeof(e[0]);
	struct bare_wave *g = bare_wave_new(120001, 32);
	unsigned bad = 0, runs = 0;

	g->w.s[SQK_EXEC] = 0xffffffffu;
	g->w.mode = 0xf0;
	for (int mx = 0; mx < 2; mx++) {
		static const bool is_max[2] = { false, true };
		const uint32_t w[2] = { mx ? 0xd7420002 : 0xd7410002, 0x00020d04 };

		bad += edge_run64(g, mx ? "v_maximum_f64" : "v_minimum_f64", w, e, n, m754d_ok,
				  &is_max[mx], &runs);
	}
	CHECK(bad == 0 && runs == 2 * 32 * n, "gfx1201 v_minimum / v_maximum f64: %u wrong", bad);
	{
		static const uint32_t w[1] = { 0xb7818001 }; /* s_addk_co_i32 s1, 0x8001 */
		static const struct {
			uint32_t a, r;
			bool scc;
		} t[] = {
			{ 5, 5u - 0x7fff, false },
			{ 0x80000000u, 0x80000000u - 0x7fff, true },
			{ 0x7fffffffu, 0x7fffffffu - 0x7fff, false },
		};
		struct sqk_insn in;

		for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			g->w.s[1] = t[i].a;
			g->w.scc = !t[i].scc;
			CHECK(sqk_decode(g->r.f, w, 1, &in) == 4 && in.op == K_s_addk_i32 &&
				      sqk_exec_salu(&g->w, &in) == 0 && g->w.s[1] == t[i].r &&
				      g->w.scc == t[i].scc,
			      "gfx1201 s_addk_co_i32 0x%x + -32767: 0x%x scc %d", t[i].a, g->w.s[1],
			      g->w.scc);
		}
	}
	bare_wave_free(g);
}

/* The IEEE 754-2019 maximum (@mx) or minimum of two f16 values by their
 * bits: -1 when a NaN is the result */
static int m754h(bool mx, uint16_t a, uint16_t b)
{
	_Float16 x, y;

	memcpy(&x, &a, 2);
	memcpy(&y, &b, 2);
	if (x != x || y != y)
		return -1;
	if (x == y)
		return (mx ? !(a >> 15) : a >> 15) ? a : b;
	return (mx ? x > y : x < y) ? a : b;
}

/* gfx950's v_pk_maximum3_f16 / v_pk_minimum3_f16 (CDNA4 ISA: each half
 * the IEEE 754-2019 maximum / minimum of the three sources' halves; words
 * of "v_pk_maximum3_f16 v1, v2, v3, v10" from llvm-mc -mcpu=gfx950) on a
 * bare gfx950 wave64: every triple of packed edge values, each half
 * against m754h() (a NaN: any quiet NaN). */
static void pk_m754_gfx950(void)
{
	static const uint32_t e[] = { 0x80000000, 0x3c00bc00, 0x7c00fc00, 0x7e007c01,
				      0x7bff0001, 0x00008000, 0xc500c500, 0x35557e00 };
	const unsigned n = sizeof(e) / sizeof(e[0]);
	struct bare_wave *g = bare_wave_new(90500, 64);
	unsigned bad = 0, runs = 0;

	g->w.s[SQK_EXEC] = g->w.s[SQK_EXEC + 1] = 0xffffffffu;
	g->w.mode = 0xf0;
	for (int mx = 0; mx < 2; mx++) {
		const uint32_t w[2] = { mx ? 0xd39c4001 : 0xd39b4001, 0x1c2a0702 };
		struct sqk_insn in;

		for (unsigned p = 0; p < n * n; p++) {
			for (unsigned l = 0; l < 64; l++) {
				g->w.v[2 * 64 + l] = e[l % n];
				g->w.v[3 * 64 + l] = e[(l / n + l + p) % n];
				g->w.v[10 * 64 + l] = e[(l + p / n) % n];
			}
			if (sqk_decode(g->r.f, w, 2, &in) != 8 || in.op == K_INVALID ||
			    sqk_exec_valu(&g->w, &in) != 0) {
				bad++;
				break;
			}
			for (unsigned l = 0; l < 64; l++)
				for (unsigned h = 0; h < 2; h++) {
					uint16_t a = (uint16_t)(g->w.v[2 * 64 + l] >> 16 * h),
						 b = (uint16_t)(g->w.v[3 * 64 + l] >> 16 * h),
						 c = (uint16_t)(g->w.v[10 * 64 + l] >> 16 * h),
						 got = (uint16_t)(g->w.v[64 + l] >> 16 * h);
					int ab = m754h(mx, a, b),
					    want = ab < 0 ? -1 : m754h(mx, (uint16_t)ab, c);
					bool ok = want < 0 ? (got & 0x7e00) == 0x7e00 : got == want;

					runs++;
					if (!ok && bad++ < 4)
						fprintf(stderr,
							"v_pk_%s3_f16 0x%x 0x%x 0x%x: 0x%x\n",
							mx ? "maximum" : "minimum", a, b, c, got);
				}
		}
	}
	CHECK(bad == 0 && runs == 2 * 64 * 2 * n * n,
	      "gfx950 v_pk_minimum3 / maximum3 f16: %u wrong", bad);
	bare_wave_free(g);
}

int main(void)
{
	maxmin3();
	minmax64_gfx1250();
	minmax754_ops();
	vopd();
	vopd3();
	refused();
	ds_cmpstore();
	ds_num_f32();
	gfx12_f64_addk();
	pk_m754_gfx950();
	gfx12();
	gfx1250();
	gfx12_num_dpp();
	minmax_ieee();
	return t_result("emu_sqk_gfx11");
}
