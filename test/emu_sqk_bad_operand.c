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

#include "emu_sqk_util.h"
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

/*
 * Source codes the ISA reserves, or that the unit does not model, in a
 * fetched instruction: the wave stops with an illegal operand before the
 * instruction runs (it used to read 0). v_mov_b32 v1, <code>, as VOP1
 * (op 1 on every family here) or, for the codes that mark SDWA, DPP and
 * DPP8 in VOP1, as VOP3 (v_mov_b32_e64: op 0x141 on GFX9, 0x181 on
 * RDNA), then s_endpgm; each family's legal neighbours run.
 */
#define CODE_VA 0x10000ull
static uint8_t code[4096];
static const struct tvm_range ranges[] = { { CODE_VA, code, sizeof(code), false } };
static struct tvm vm = { ranges, 1 };

static void fetch(const char *name, uint32_t gfxv, unsigned c, bool legal, bool vop3)
{
	static const uint32_t user[16];
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	/* s_endpgm: SOPP op 1, op 48 from RDNA3 */
	uint32_t end = gfxv >= 110000 ? 0xbfb00000u : 0xbf810000u;
	uint32_t w[4] = { 0x7e020200u | c, end, 0, 0 };
	struct sqk_dispatch d;
	struct sqk_result res;
	int rc;

	if (vop3) {
		w[0] = gfxv >= 100000 ? 0xd5810001u : 0xd1410001u;
		w[1] = c;
		w[2] = c == 255 ? 0x3f800000u : end; /* the literal, then s_endpgm */
		w[3] = end;
	}
	memset(code, 0, sizeof(code));
	memcpy(code, w, sizeof(w));
	T_REQUIRE(tvm_dispatch(&d, gfxv, CODE_VA, 64, 64), "family of %s", name);
	d.user_data = user;
	memset(&res, 0, sizeof(res));
	rc = sqk_run(&d, &env, &res);
	if (legal) {
		CHECK_EQ(rc, 0, "%s: v_mov_b32 v1, <code %u> runs (%s)", name, c, res.msg);
	} else {
		CHECK_EQ(rc, -ENOTSUP, "%s: v_mov_b32 v1, <code %u> refused", name, c);
		CHECK(strstr(res.msg, "illegal operand") && strstr(res.msg, "v_mov_b32"),
		      "%s: code %u: message '%s' names the operand and the instruction", name, c,
		      res.msg);
	}
}

static void test_reserved_codes(void)
{
	static const unsigned refused[] = { 209, 220, 239, 254 };
	static const unsigned markers[] = { 249, 250, 233, 234 };

	for (size_t i = 0; i < 4; i++) {
		fetch("gfx90a", 90010, refused[i], false, false);
		fetch("gfx1030", 100300, refused[i], false, false);
		fetch("gfx90a", 90010, markers[i], false, true);
		fetch("gfx1030", 100300, markers[i], false, true);
	}
	fetch("gfx90a", 90010, 125, false, false);  /* reserved before RDNA */
	fetch("gfx90a", 90010, 234, false, false);  /* no DPP8 on GFX9 */
	fetch("gfx90a", 90010, 235, true, false);   /* src_shared_base */
	fetch("gfx90a", 90010, 253, true, false);   /* scc */
	fetch("gfx90a", 90010, 255, false, true);   /* no VOP3 literal before RDNA */
	fetch("gfx1030", 100300, 255, true, true);  /* a literal after the VOP3 */
	fetch("gfx1030", 100300, 125, true, false); /* null */
	fetch("gfx1030", 100300, 128, true, true);
	fetch("gfx803", 80003, 235, false, false); /* no aperture registers on GCN3 */
	fetch("gfx803", 80003, 208, true, false);
	fetch("gfx1100", 110000, 124, true, false);  /* null on RDNA3 */
	fetch("gfx1100", 110000, 254, false, false); /* no LDS direct operand on RDNA3 */
}

int main(void)
{
	run("gfx90a", 90010, 64);
	run("gfx1030 wave32", 100300, 32);
	test_reserved_codes();
	return t_result("emu_sqk_bad_operand");
}
