/* SPDX-License-Identifier: MIT */
/*
 * An instruction whose operand the ISA does not allow is refused as an
 * illegal instruction (-ENOTSUP, the queue's EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION
 * path), never run on memory outside the register file: v_swap_b32 swaps
 * two VGPRs, and a scalar source code in its src0 (bytes LLVM never
 * assembles, fuzz_emu_engine reproducer
 * test/fuzz/corpus/emu_engine/regress-sq-swap-scalar-src) once indexed
 * the VGPR array 256 columns before its start. The register file must be
 * unchanged and the message must name the instruction. A VGPR src0 still
 * swaps. gfx90a wave64, gfx1030 wave32.
 */
#include <errno.h>

#include "emu_sqk_wave_util.h"

static void run(const char *name, uint32_t gfxv, unsigned lanes)
{
	struct bare_wave *g = bare_wave_new(gfxv, lanes), *before = bare_wave_new(gfxv, lanes);
	struct sqk_insn in = { 0 };
	int rc;

	for (size_t i = 0; i < BARE_NVW; i++)
		g->w.v[i] = (uint32_t)(i * 2654435761u);
	sqk_set_mask(&g->w, SQK_EXEC, sqk_mask(&g->w));
	bare_wave_copy(before, g);
	in.enc = SQK_VOP1;
	in.op = K_v_swap_b32;
	in.size = 4;
	in.saddr = 0xffff;
	in.dst = 256 + 3;
	for (unsigned code = 0; code < 256; code += 17) {
		in.src[0] = (uint16_t)code; /* SGPRs, constants, literal */
		rc = sqk_exec_valu(&g->w, &in);
		CHECK_EQ(rc, -ENOTSUP, "%s: v_swap_b32 v3, <scalar %u>", name, code);
		CHECK(strstr(g->res.msg, "v_swap_b32") != NULL, "%s: message '%s' names it", name,
		      g->res.msg);
		CHECK(memcmp(g->w.v, before->w.v, BARE_NVW * 4) == 0,
		      "%s: registers unchanged by a refused swap (src %u)", name, code);
		memset(&g->res, 0, sizeof(g->res));
	}
	in.src[0] = 256 + 7; /* v7 */
	CHECK_EQ(sqk_exec_valu(&g->w, &in), 0, "%s: v_swap_b32 v3, v7", name);
	CHECK_EQ(g->w.v[3 * 64 + 1], before->w.v[7 * 64 + 1], "%s: v3 got v7", name);
	CHECK_EQ(g->w.v[7 * 64 + lanes - 1], before->w.v[3 * 64 + lanes - 1], "%s: v7 got v3",
		 name);
	bare_wave_free(g);
	bare_wave_free(before);
}

int main(void)
{
	run("gfx90a", 90010, 64);
	run("gfx1030 wave32", 100300, 32);
	return t_result("emu_sqk_bad_operand");
}
