/* SPDX-License-Identifier: MIT */
/*
 * A dispatch of many workgroups runs on several host threads (sqk_wave.c:
 * 64 workgroups or more; KFDSIG_EMU_SQ_THREADS sets the number) with the
 * results of one: a kernel (assembled by LLVM 22's llvm-mc) in which every
 * work-item adds 1 to a counter with a global atomic and every workgroup
 * stores its id at out[1 + id], over 1000 workgroups, on 4 threads and on
 * 1, for gfx90a (wave64) and gfx1030 (wave32). The counter must be exact
 * (the atomics are host compare-and-swaps) and every id in place; the
 * result names the threads that ran. A small dispatch stays on one thread.
 * And a dispatch whose workgroups from 512 on store outside the mapped
 * buffer reports the fault of workgroup 512 (the lowest that failed),
 * whichever thread ran it; so does one whose workgroup 1 fails behind
 * workgroup 0's long loop while the later ones fail at once (a thread
 * taking several workgroups still runs those below the failed one). Exit
 * 77 without LLVM 22.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "emu/sq/sqk.h"
#include "emu_sqk_util.h"

#ifndef KFDSIG_LLVM22_BIN
#define KFDSIG_LLVM22_BIN "/usr/lib/llvm-22/bin"
#endif

#define CODE_VA 0x10000ull
#define KARG_VA 0x20000ull
#define OUT_VA 0x100000ull
#define OUT_SIZE 8192u
#define GROUPS 1000u

static uint8_t code[4096], karg[4096];
static uint32_t out[OUT_SIZE / 4];

static const struct tvm_range ranges[] = {
	{ CODE_VA, code, sizeof(code), false },
	{ KARG_VA, karg, sizeof(karg), false },
	{ OUT_VA, out, OUT_SIZE, false },
};
static struct tvm vm = { ranges, 3 };

/* s[0:1] the kernel arguments (out), s2 the workgroup id X */
static const char src_ids[] = "  s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
			      "  v_mov_b32 v1, 1\n"
			      "  v_mov_b32 v2, 0\n"
			      "  s_lshl_b32 s6, s2, 2\n"
			      "  v_mov_b32 v3, s6\n"
			      "  v_mov_b32 v4, s2\n"
			      "  s_waitcnt lgkmcnt(0)\n"
			      "  global_atomic_add v2, v1, s[4:5]\n"
			      "  global_store_dword v3, v4, s[4:5] offset:4\n"
			      "  s_endpgm\n";

/* workgroup id X * 16 bytes past out: from workgroup 512 on outside */
static const char src_far[] = "  s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
			      "  s_lshl_b32 s6, s2, 4\n"
			      "  v_mov_b32 v3, s6\n"
			      "  v_mov_b32 v4, s2\n"
			      "  s_waitcnt lgkmcnt(0)\n"
			      "  global_store_dword v3, v4, s[4:5]\n"
			      "  s_endpgm\n";

/* workgroup 0 a long scalar loop, every other one a store past out (at
 * 16 bytes per workgroup id beyond its end) at once */
static const char src_slow0[] = "  s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
				"  s_cmp_eq_u32 s2, 0\n"
				"  s_cbranch_scc0 .Lfault\n"
				"  s_mov_b32 s7, 0x100000\n"
				".Lloop:\n"
				"  s_sub_u32 s7, s7, 1\n"
				"  s_cmp_lg_u32 s7, 0\n"
				"  s_cbranch_scc1 .Lloop\n"
				"  s_endpgm\n"
				".Lfault:\n"
				"  s_lshl_b32 s6, s2, 4\n"
				"  s_add_u32 s6, s6, 0x2000\n"
				"  v_mov_b32 v3, s6\n"
				"  s_waitcnt lgkmcnt(0)\n"
				"  global_store_dword v3, v3, s[4:5]\n"
				"  s_endpgm\n";

static int dispatch(uint32_t gfxv, bool wave32, uint32_t groups, const char *threads,
		    struct sqk_result *res)
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	uint64_t o = OUT_VA;
	unsigned lanes = wave32 ? 32 : 64;

	if (threads)
		setenv("KFDSIG_EMU_SQ_THREADS", threads, 1);
	else
		unsetenv("KFDSIG_EMU_SQ_THREADS");
	memset(out, 0, sizeof(out));
	memcpy(karg, &o, 8);
	tvm_dispatch(&d, gfxv, CODE_VA, lanes, lanes * groups);
	d.rsrc2 = 2 << 1 | 1u << 7; /* 2 user SGPRs, workgroup id X */
	d.props = 1 << 3;	    /* enable_sgpr_kernarg_segment_ptr */
	d.aql = true;
	d.wave32 = wave32;
	d.kernarg = KARG_VA;
	return sqk_run(&d, &env, res);
}

static void run(const char *mcpu, uint32_t gfxv, const char *attrs, bool wave32)
{
	unsigned lanes = wave32 ? 32 : 64;
	struct sqk_result res;
	int rc;

	T_REQUIRE(kco_asm_text(src_ids, mcpu, attrs, code, sizeof(code)), "llvm-mc for %s", mcpu);
	for (int pass = 0; pass < 2; pass++) {
		const char *thr = pass ? "1" : "4";
		unsigned bad = 0;

		rc = dispatch(gfxv, wave32, GROUPS, thr, &res);
		CHECK(rc == 0, "%s, %s threads: sqk_run %d (%s)", mcpu, thr, rc, res.msg);
		CHECK_EQ(res.threads, pass ? 1u : 4u, "%s: threads that ran", mcpu);
		CHECK_EQ(res.waves, GROUPS, "%s, %s threads: waves", mcpu, thr);
		CHECK_EQ(out[0], GROUPS * lanes, "%s, %s threads: the atomic counter", mcpu, thr);
		for (uint32_t g = 0; g < GROUPS; g++)
			bad += out[1 + g] != g;
		CHECK(bad == 0, "%s, %s threads: %u of %u workgroup ids wrong", mcpu, thr, bad,
		      GROUPS);
	}
	/* a small dispatch: one thread whatever the CPUs; a setting past the
	 * maximum is the maximum, one that is no number is no setting */
	rc = dispatch(gfxv, wave32, 8, NULL, &res);
	CHECK(rc == 0 && res.threads == 1 && out[0] == 8 * lanes,
	      "%s: 8 workgroups: rc %d, %u threads, counter %u", mcpu, rc, res.threads, out[0]);
	rc = dispatch(gfxv, wave32, 100, "99", &res);
	CHECK(rc == 0 && res.threads == 8 && out[0] == 100 * lanes,
	      "%s: 99 threads asked: rc %d, %u threads", mcpu, rc, res.threads);
	rc = dispatch(gfxv, wave32, 8, "two", &res);
	CHECK(rc == 0 && res.threads == 1, "%s: 'two' threads asked: rc %d, %u threads", mcpu, rc,
	      res.threads);

	/* the lowest failing workgroup's fault, on 4 threads, several times */
	T_REQUIRE(kco_asm_text(src_far, mcpu, attrs, code, sizeof(code)), "llvm-mc for %s", mcpu);
	for (int k = 0; k < 5; k++) {
		rc = dispatch(gfxv, wave32, GROUPS, "4", &res);
		CHECK(rc == -EFAULT && res.err == -EFAULT, "%s far: sqk_run %d", mcpu, rc);
		CHECK_EQ(res.fault_va, OUT_VA + OUT_SIZE, "%s far: the fault of workgroup %u", mcpu,
			 OUT_SIZE / 16);
		CHECK(res.fault_write, "%s far: a write", mcpu);
	}
	/* workgroup 1 fails, behind workgroup 0's long loop on its thread,
	 * while the other threads' workgroups fail at once: still the fault
	 * of workgroup 1 (the thread that took it runs it after the others'
	 * failure, as it would have started had it taken one at a time) */
	T_REQUIRE(kco_asm_text(src_slow0, mcpu, attrs, code, sizeof(code)), "llvm-mc for %s", mcpu);
	rc = dispatch(gfxv, wave32, GROUPS, "4", &res);
	CHECK(rc == -EFAULT && res.fault_va == OUT_VA + OUT_SIZE + 16,
	      "%s slow 0: sqk_run %d, the fault at 0x%llx (workgroup %lld)", mcpu, rc,
	      (unsigned long long)res.fault_va, (long long)(res.fault_va - OUT_VA - OUT_SIZE) / 16);
	unsetenv("KFDSIG_EMU_SQ_THREADS");
}

int main(void)
{
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	run("gfx90a", 90010, "", false);
	run("gfx1030", 100300, "-mattr=+wavefrontsize32", true);
	return t_result("emu_sqk_parallel");
}
