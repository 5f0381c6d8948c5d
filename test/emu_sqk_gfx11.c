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
 *   operation the unit runs only in other forms (v_ldexp_f16), the DPP form
 *   of a true16 one, VOP3 op_sel on a 32-bit operation, VOP3 DPP,
 *   ds_cmpstore.
 * And gfx12's rules on a bare gfx1200 wave (RDNA4 ISA manual; the words
 * from llvm-mc -mcpu=gfx1200 -show-encoding): s_add_nc_u64, s_sub_nc_u64
 * and s_mul_u64 against a host model (64-bit results, SCC unchanged); the
 * sub-dword scalar loads (zero or sign extension, the 24-bit signed offset,
 * an unaligned address refused); the split barrier (the wait holds the wave after a signal);
 * and refused: a true16 VOP2 form left out (v_ldexp_f16), a _num
 * float max, MTBUF, VFLAT with an SADDR, DS with the GDS bit, a named
 * barrier, a wait with no signal, s_getreg of a register other than MODE.
 */
#include <errno.h>

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
		uint32_t w[3];
		unsigned n, size;
	} t[] = {
		{ "v_alignbit_b32 v2, v2, v4, v6.h op_sel:[0,0,1,0]",
		  { 0xd6162002, 0x041a0902 },
		  2,
		  8 },
		{ "v_ldexp_f16_e32 v0.l, v1.l, v2.l", { 0x76000501 }, 1, 4 },
		{ "v_add_f16_dpp v0.l, v1.l, v2.l quad_perm:[1,0,3,2]",
		  { 0x640004fa, 0xff00b101 },
		  2,
		  8 },
		{ "v_add_f32_e64_dpp v1, v2, v3 quad_perm:[1,0,3,2]",
		  { 0xd5030001, 0x000206fa, 0xff00b102 },
		  3,
		  12 },
		{ "ds_cmpstore_b32 v1, v2, v3", { 0xd8400000, 0x00030201 }, 2, 8 },
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

static void gfx12(void)
{
	static const struct {
		const char *what;
		uint32_t w[3];
		unsigned n, size;
	} t[] = {
		{ "v_ldexp_f16_e32 v0.l, v1.l, v2.l", { 0x76000501 }, 1, 4 },
		{ "v_max_num_f32_e32 v1, v2, v3", { 0x2c020702 }, 1, 4 },
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
		g->w.mode = 0xf0;
		CHECK(run12(g, &mode, 1, "s_getreg_b32 MODE") == 0 && g->w.s[4] == 0xf0,
		      "s_getreg of MODE: %#x", g->w.s[4]);
	}
	bare_wave_free(g);
}

int main(void)
{
	vopd();
	refused();
	gfx12();
	return t_result("emu_sqk_gfx11");
}
