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
 *   instruction path), never run as something else: a true16 form,
 *   VOP3 op_sel on a 32-bit operation, VOP3 DPP, ds_cmpstore.
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
		{ "v_add_f16_e32 v0.l, v1.l, v2.l", { 0x64000501 }, 1, 4 },
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

int main(void)
{
	vopd();
	refused();
	return t_result("emu_sqk_gfx11");
}
