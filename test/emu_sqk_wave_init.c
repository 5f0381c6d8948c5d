/* SPDX-License-Identifier: MIT */
/*
 * The state a wave starts with, through sqk_run() alone.
 *
 * Work-item ids (AMDGPUUsage "Initial Kernel Execution State": v0-v2 for
 * x, y and z, or packed in v0 as x | y << 10 | z << 20 on gfx90a and
 * gfx940): each lane stores its ids
 * as x | y << 10 | z << 20 at its flat index (z * dim_y + y) * dim_x + x.
 * Workgroups of 64 x 2 x 2 (every wave within one row of x: the ids
 * written straight, y and z the same in every lane), 96 x 2 x 1 (waves
 * that run into the next row), 4 x 4 x 4 and 80 x 3 x 1 with its last
 * wave partial, on gfx900 (wave64), gfx90a (packed) and gfx1030 (wave32).
 *
 * Registers: the SGPRs beyond the initial ones, the VGPRs the dispatch
 * grants (every lane, wave32 on gfx1030 too) and its AGPRs (gfx908: as
 * many as VGPRs; gfx90a: those after COMPUTE_PGM_RSRC3.ACCUM_OFFSET), read
 * zero in every wave, though each wave leaves them all ones for the next
 * workgroup on the same wave slot (4 workgroups, one host thread). An
 * emulator choice: real waves start with whatever the registers held.
 *
 * Exit 77 without LLVM 22.
 */
#include <stdio.h>
#include <unistd.h>

#include "emu/sq/sqk.h"
#include "emu_sqk_util.h"

#define CODE_VA 0x10000ull
#define OUT_VA 0x40000ull
#define OUT_MAX 1024

static uint8_t code[4096];
static uint32_t out[OUT_MAX];

static const struct tvm_range ranges[] = {
	{ CODE_VA, code, sizeof(code), false },
	{ OUT_VA, out, sizeof(out), false },
};
static struct tvm vm = { ranges, 2 };

/* s[0:1]: the output; s2, s3: dim x, dim y. v0-v2 hold x, y, z (the
 * packed form first unpacks them with v_bfe_u32); %s: the unpacking,
 * then this family's 32-bit add twice. */
static const char prog[] = "%s"
			   "  v_lshlrev_b32 v3, 10, v1\n"
			   "  v_lshlrev_b32 v4, 20, v2\n"
			   "  v_or_b32 v3, v3, v0\n"
			   "  v_or_b32 v3, v3, v4\n"
			   "  v_mul_lo_u32 v5, v2, s3\n"
			   "  %s v5, v5, v1\n"
			   "  v_mul_lo_u32 v5, v5, s2\n"
			   "  %s v5, v5, v0\n"
			   "  v_lshlrev_b32 v5, 2, v5\n"
			   "  global_store_dword v5, v3, s[0:1]\n"
			   "  s_endpgm\n";
static const char unpack[] = "  v_bfe_u32 v2, v0, 20, 10\n"
			     "  v_bfe_u32 v1, v0, 10, 10\n"
			     "  v_and_b32 v0, 0x3ff, v0\n";

static void run(const char *mcpu, uint32_t gfxv, bool packed, bool w32, const uint32_t wg[3])
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	struct sqk_result res;
	uint32_t user[16] = { (uint32_t)OUT_VA, (uint32_t)(OUT_VA >> 32), wg[0], wg[1] };
	uint32_t n = wg[0] * wg[1] * wg[2];
	const char *add = gfxv >= 100000 ? "v_add_nc_u32" : "v_add_u32";
	char src[1024];
	unsigned bad = 0, first = 0;
	int rc;

	snprintf(src, sizeof(src), prog, packed ? unpack : "", add, add);
	T_REQUIRE(kco_asm_text(src, mcpu, w32 ? "-mattr=+wavefrontsize32" : "", code, sizeof(code)),
		  "llvm-mc for %s", mcpu);
	T_REQUIRE(n <= OUT_MAX, "workgroup size");
	memset(out, 0xee, sizeof(out));
	T_REQUIRE(tvm_dispatch(&d, gfxv, CODE_VA, wg[0], wg[0]), "family of %s", mcpu);
	d.user_data = user;
	d.wave32 = w32;
	for (int i = 1; i < 3; i++)
		d.wg[i] = d.grid[i] = wg[i];
	rc = sqk_run(&d, &env, &res);
	CHECK(rc == 0, "%s %ux%ux%u: sqk_run %d (%s)", mcpu, wg[0], wg[1], wg[2], rc, res.msg);
	for (uint32_t z = 0; z < wg[2]; z++)
		for (uint32_t y = 0; y < wg[1]; y++)
			for (uint32_t x = 0; x < wg[0]; x++) {
				uint32_t i = (z * wg[1] + y) * wg[0] + x;

				if (out[i] != (x | y << 10 | z << 20) && !bad++)
					first = i;
			}
	for (uint32_t i = n; i < OUT_MAX; i++)
		bad += out[i] != 0xeeeeeeeeu;
	CHECK(bad == 0, "%s %ux%ux%u: %u ids wrong, first at %u: 0x%x", mcpu, wg[0], wg[1], wg[2],
	      bad, first, out[first]);
}

/* Registers at the start: s[0:1] the output, s4 the workgroup id. The
 * OR of v6-v15, s6-s15, s100, s101 (and a0-a7 when @agprs) to out[wg * 64
 * + lane], then all of them to all ones. */
static const char regs[] = "  v_or_b32 v3, v6, v7\n"
			   "  v_or3_b32 v3, v3, v8, v9\n"
			   "  v_or3_b32 v3, v3, v10, v11\n"
			   "  v_or3_b32 v3, v3, v12, v13\n"
			   "  v_or3_b32 v3, v3, v14, v15\n"
			   "  s_or_b64 s[16:17], s[6:7], s[8:9]\n"
			   "  s_or_b64 s[16:17], s[16:17], s[10:11]\n"
			   "  s_or_b64 s[16:17], s[16:17], s[12:13]\n"
			   "  s_or_b64 s[16:17], s[16:17], s[14:15]\n"
			   "  s_or_b64 s[16:17], s[16:17], s[100:101]\n"
			   "  s_or_b32 s16, s16, s17\n"
			   "  v_or_b32 v3, s16, v3\n"
			   "%s"
			   "  s_lshl_b32 s5, s4, 6\n"
			   "  %s v5, s5, v0\n"
			   "  v_lshlrev_b32 v5, 2, v5\n"
			   "  global_store_dword v5, v3, s[0:1]\n"
			   "  v_mov_b32 v6, -1\n"
			   "  v_mov_b32 v7, -1\n"
			   "  v_mov_b32 v8, -1\n"
			   "  v_mov_b32 v9, -1\n"
			   "  v_mov_b32 v10, -1\n"
			   "  v_mov_b32 v11, -1\n"
			   "  v_mov_b32 v12, -1\n"
			   "  v_mov_b32 v13, -1\n"
			   "  v_mov_b32 v14, -1\n"
			   "  v_mov_b32 v15, -1\n"
			   "  s_mov_b64 s[6:7], -1\n"
			   "  s_mov_b64 s[8:9], -1\n"
			   "  s_mov_b64 s[10:11], -1\n"
			   "  s_mov_b64 s[12:13], -1\n"
			   "  s_mov_b64 s[14:15], -1\n"
			   "  s_mov_b64 s[100:101], -1\n"
			   "%s"
			   "  s_endpgm\n";
static const char agpr_read[] = "  v_accvgpr_read_b32 v4, a0\n  v_or_b32 v3, v3, v4\n"
				"  v_accvgpr_read_b32 v4, a1\n  v_or_b32 v3, v3, v4\n"
				"  v_accvgpr_read_b32 v4, a2\n  v_or_b32 v3, v3, v4\n"
				"  v_accvgpr_read_b32 v4, a3\n  v_or_b32 v3, v3, v4\n"
				"  v_accvgpr_read_b32 v4, a4\n  v_or_b32 v3, v3, v4\n"
				"  v_accvgpr_read_b32 v4, a5\n  v_or_b32 v3, v3, v4\n"
				"  v_accvgpr_read_b32 v4, a6\n  v_or_b32 v3, v3, v4\n"
				"  v_accvgpr_read_b32 v4, a7\n  v_or_b32 v3, v3, v4\n";
static const char agpr_write[] = "  v_accvgpr_write_b32 a0, v6\n"
				 "  v_accvgpr_write_b32 a1, v6\n"
				 "  v_accvgpr_write_b32 a2, v6\n"
				 "  v_accvgpr_write_b32 a3, v6\n"
				 "  v_accvgpr_write_b32 a4, v6\n"
				 "  v_accvgpr_write_b32 a5, v6\n"
				 "  v_accvgpr_write_b32 a6, v6\n"
				 "  v_accvgpr_write_b32 a7, v6\n";

/* @rsrc1, @rsrc3: the registers granted (VGPR granule field; gfx90a's
 * ACCUM_OFFSET); @w32: wave32 (two waves per workgroup of 64). */
static void run_regs(const char *mcpu, uint32_t gfxv, bool agprs, uint32_t rsrc1, uint32_t rsrc3,
		     bool w32)
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	struct sqk_result res;
	uint32_t user[16] = { (uint32_t)OUT_VA, (uint32_t)(OUT_VA >> 32) };
	char src[2048];
	unsigned bad = 0;
	int rc;

	snprintf(src, sizeof(src), regs, agprs ? agpr_read : "",
		 gfxv >= 100000 ? "v_add_nc_u32" : "v_add_u32", agprs ? agpr_write : "");
	T_REQUIRE(kco_asm_text(src, mcpu, w32 ? "-mattr=+wavefrontsize32" : "", code, sizeof(code)),
		  "llvm-mc for %s", mcpu);
	memset(out, 0xee, sizeof(out));
	T_REQUIRE(tvm_dispatch(&d, gfxv, CODE_VA, 64, 256), "family of %s", mcpu);
	d.rsrc1 = rsrc1;
	d.rsrc2 = 4u << 1 | 1u << 7; /* user data s0-s3, then the workgroup id x */
	d.rsrc3 = rsrc3;
	d.user_data = user;
	d.wave32 = w32;
	rc = sqk_run(&d, &env, &res);
	CHECK(rc == 0, "%s registers: sqk_run %d (%s)", mcpu, rc, res.msg);
	for (uint32_t i = 0; i < 256; i++)
		bad += out[i] != 0;
	CHECK(bad == 0, "%s: %u lanes saw a register not zero (workgroup 1: 0x%x)", mcpu, bad,
	      out[64]);
}

int main(void)
{
	static const uint32_t wgs[][3] = { { 64, 2, 2 }, { 96, 2, 1 }, { 4, 4, 4 }, { 80, 3, 1 } };

	if (kco_asm_missing())
		return T_EXIT_SKIP;
	for (size_t i = 0; i < sizeof(wgs) / sizeof(wgs[0]); i++) {
		run("gfx900", 90000, false, false, wgs[i]);
		run("gfx90a", 90010, true, false, wgs[i]);
		run("gfx1030", 100300, false, true, wgs[i]);
	}
	run_regs("gfx900", 90000, false, 1, 0, false);
	run_regs("gfx908", 90008, true, 1, 0, false);	/* 16 VGPRs, 16 AGPRs */
	run_regs("gfx90a", 90010, true, 3, 3, false);	/* 32: AGPRs from 16 */
	run_regs("gfx1030", 100300, false, 1, 0, true); /* wave32, 16 VGPRs */
	return t_result("emu_sqk_wave_init");
}
