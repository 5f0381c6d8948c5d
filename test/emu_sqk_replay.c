/* SPDX-License-Identifier: MIT */
/*
 * Replay of waves without effects (sqk_wave.c "Replay"): kernels assembled
 * by LLVM 22's llvm-mc, 600 one-thread workgroups on one host thread, for
 * gfx90a (wave64) and gfx1030 (wave32). A loop of scalar and vector ALU
 * work that never reads its workgroup id (overwritten first) replays every
 * wave but the first, and counts as many instructions as when every wave
 * runs. A kernel that adds 1 to its workgroup id with s_addk (reading its
 * destination) and stores only in workgroup 500 replays none: the store is
 * there. One whose every wave adds 1 to a counter with a global atomic
 * replays none: the counter is exact. Over a 300 x 2 grid, a kernel that sets
 * v5 where its workgroup id Y is 0 and stores it unset where it is 1 stores
 * 0 (the registers of a wave slot after replays are zeroed as ever). On
 * gfx90a, a wave that leaves VGPR index mode on (s_set_gpr_idx_on, no
 * s_set_gpr_idx_off) does not hand it to the next wave of its slot: with
 * M0 0x1001 there (the mode bits and the index s_set_gpr_idx_on would
 * write), v_mov_b32 v3, v1 reads v1.
 * Exit 77 without LLVM 22.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu/sq/sqk_exec.h"
#include "emu_sqk_util.h"

#define CODE_VA 0x10000ull
#define KARG_VA 0x20000ull
#define OUT_VA 0x100000ull
#define GROUPS 600u

static uint8_t code[4096], karg[4096];
static uint32_t out[1024];

static const struct tvm_range ranges[] = {
	{ CODE_VA, code, sizeof(code), false },
	{ KARG_VA, karg, sizeof(karg), false },
	{ OUT_VA, out, sizeof(out), false },
};
static struct tvm vm = { ranges, 3 };

/* s[0:1] the kernel arguments, s2 the workgroup id X */
static const char src_pure[] = "  s_mov_b32 s2, 3\n"
			       "  v_mov_b32 v1, 1.0\n"
			       "LOOP:\n"
			       "  v_cvt_f32_i32 v2, s2\n"
			       "  v_log_f32 v3, v2\n"
			       "  v_exp_f32 v3, v3\n"
			       "  v_add_f32 v1, v1, v3\n"
			       "  s_add_u32 s2, s2, 1\n"
			       "  s_cmp_lt_u32 s2, 40\n"
			       "  s_cbranch_scc1 LOOP\n"
			       "  s_endpgm\n";

static const char src_addk[] = "  s_addk_i32 s2, 1\n"
			       "  s_cmpk_eq_u32 s2, 501\n"
			       "  s_cbranch_scc0 END\n"
			       "  s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
			       "  v_mov_b32 v1, 0x1234\n"
			       "  v_mov_b32 v2, 0\n"
			       "  s_waitcnt lgkmcnt(0)\n"
			       "  global_store_dword v2, v1, s[4:5] offset:8\n"
			       "END:\n"
			       "  s_endpgm\n";

static const char src_atomic[] = "  s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
				 "  v_mov_b32 v1, 1\n"
				 "  v_mov_b32 v2, 0\n"
				 "  s_waitcnt lgkmcnt(0)\n"
				 "  global_atomic_add v2, v1, s[4:5]\n"
				 "  s_endpgm\n";

/* s2 workgroup id X, s3 Y */
static const char src_slot[] = "  s_cmp_eq_u32 s3, 1\n"
			       "  s_cbranch_scc1 STORE\n"
			       "  v_mov_b32 v5, 7\n"
			       "  s_endpgm\n"
			       "STORE:\n"
			       "  s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
			       "  v_mov_b32 v2, 0\n"
			       "  s_waitcnt lgkmcnt(0)\n"
			       "  global_store_dword v2, v5, s[4:5] offset:12\n"
			       "  s_endpgm\n";

/* workgroup 0 leaves index mode on; the others store v1 through it */
static const char src_idx[] = "  s_cmp_eq_u32 s2, 0\n"
			      "  s_cbranch_scc0 SECOND\n"
			      "  s_set_gpr_idx_on s2, gpr_idx(SRC0)\n"
			      "  s_endpgm\n"
			      "SECOND:\n"
			      "  s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
			      "  v_mov_b32 v1, 5\n"
			      "  v_mov_b32 v2, 9\n"
			      "  s_mov_b32 m0, 0x1001\n"
			      "  v_mov_b32 v3, v1\n"
			      "  v_mov_b32 v4, 0\n"
			      "  s_waitcnt lgkmcnt(0)\n"
			      "  global_store_dword v4, v3, s[4:5] offset:16\n"
			      "  s_endpgm\n";

static int dispatch(uint32_t gfxv, bool wave32, bool off, bool ydim, struct sqk_result *res)
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	uint64_t o = OUT_VA;
	int rc;

	setenv("KFDSIG_EMU_SQ_THREADS", "1", 1);
	memset(out, 0, sizeof(out));
	out[3] = 0xdead; /* the slot kernel's store replaces it */
	memcpy(karg, &o, 8);
	tvm_dispatch(&d, gfxv, CODE_VA, 1, GROUPS);
	d.rsrc2 = 2 << 1 | 1u << 7; /* 2 user SGPRs, workgroup id X */
	if (ydim) {
		d.grid[0] = GROUPS / 2, d.grid[1] = 2;
		d.rsrc2 |= 1u << 8; /* workgroup id Y */
	}
	d.props = 1 << 3; /* enable_sgpr_kernarg_segment_ptr */
	d.aql = true;
	d.wave32 = wave32;
	d.kernarg = KARG_VA;
	sqk_replay_off = off;
	rc = sqk_run(&d, &env, res);
	sqk_replay_off = false;
	unsetenv("KFDSIG_EMU_SQ_THREADS");
	return rc;
}

static void run(const char *mcpu, uint32_t gfxv, const char *attrs, bool wave32)
{
	struct sqk_result res, all;
	int rc;

	T_REQUIRE(kco_asm_text(src_pure, mcpu, attrs, code, sizeof(code)), "llvm-mc for %s", mcpu);
	rc = dispatch(gfxv, wave32, true, false, &all);
	CHECK(rc == 0 && all.replayed == 0, "%s pure, every wave run: rc %d, %llu replayed", mcpu,
	      rc, (unsigned long long)all.replayed);
	rc = dispatch(gfxv, wave32, false, false, &res);
	CHECK(rc == 0, "%s pure: sqk_run %d (%s)", mcpu, rc, res.msg);
	CHECK_EQ(res.waves, GROUPS, "%s pure: waves", mcpu);
	CHECK_EQ(res.replayed, GROUPS - 1, "%s pure: waves replayed", mcpu);
	CHECK_EQ(res.insns, all.insns, "%s pure: instructions counted", mcpu);

	T_REQUIRE(kco_asm_text(src_addk, mcpu, attrs, code, sizeof(code)), "llvm-mc for %s", mcpu);
	rc = dispatch(gfxv, wave32, false, false, &res);
	CHECK(rc == 0, "%s addk: sqk_run %d (%s)", mcpu, rc, res.msg);
	CHECK_EQ(out[2], 0x1234u, "%s addk: the store of workgroup 500", mcpu);
	CHECK_EQ(res.replayed, 0u, "%s addk: waves replayed", mcpu);

	T_REQUIRE(kco_asm_text(src_atomic, mcpu, attrs, code, sizeof(code)), "llvm-mc for %s",
		  mcpu);
	rc = dispatch(gfxv, wave32, false, false, &res);
	CHECK(rc == 0, "%s atomic: sqk_run %d (%s)", mcpu, rc, res.msg);
	CHECK_EQ(out[0], GROUPS, "%s atomic: the counter", mcpu);
	CHECK_EQ(res.replayed, 0u, "%s atomic: waves replayed", mcpu);

	T_REQUIRE(kco_asm_text(src_slot, mcpu, attrs, code, sizeof(code)), "llvm-mc for %s", mcpu);
	rc = dispatch(gfxv, wave32, false, true, &res);
	CHECK(rc == 0, "%s slot: sqk_run %d (%s)", mcpu, rc, res.msg);
	CHECK_EQ(res.replayed, GROUPS / 2 - 1, "%s slot: waves replayed", mcpu);
	CHECK_EQ(out[3], 0u, "%s slot: v5 as a wave after replays finds it", mcpu);

	if (strcmp(mcpu, "gfx90a"))
		return;
	T_REQUIRE(kco_asm_text(src_idx, mcpu, attrs, code, sizeof(code)), "llvm-mc for %s", mcpu);
	rc = dispatch(gfxv, wave32, false, false, &res);
	CHECK(rc == 0, "%s index mode: sqk_run %d (%s)", mcpu, rc, res.msg);
	CHECK_EQ(out[4], 5u, "%s index mode: v1 read in the next wave", mcpu);
}

int main(void)
{
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	run("gfx90a", 90010, "", false);
	run("gfx1030", 100300, "-mattr=+wavefrontsize32", true);
	return t_result("emu_sqk_replay");
}
