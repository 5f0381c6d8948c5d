/* SPDX-License-Identifier: MIT */
/*
 * Speed of the emulated shader unit's kernel interpreter (src/emu/sq):
 * wave-instructions per second on a loop of integer and float VALU, SALU
 * and a branch, per family and wave size, through sqk_run() on host memory
 * (no queue: the interpreter alone). The program, assembled by LLVM 22's
 * llvm-mc -show-encoding (gfx900 and gfx1030 encodings):
 *
 *	s_mov_b32 s2, 0
 *   L:	v_add_u32 v1, v1, v0        (gfx1030: v_add_nc_u32)
 *	v_mul_lo_u32 v2, v1, v1
 *	v_xor_b32 v3, v2, v1
 *	v_fma_f32 v4, v1, v2, v4
 *	s_add_u32 s2, s2, 1
 *	s_cmp_lt_u32 s2, s3          (s3: the iteration count, user data)
 *	s_cbranch_scc1 L
 *	s_endpgm
 *
 * and a loop of a store and its wait (the release check notes both:
 * src/emu/sq/sqk_rel.c):
 *
 *	s_mov_b32 s2, 0
 *	v_lshlrev_b32 v5, 2, v0
 *   L:	global_store_dword v5, v1, s[4:5]
 *	s_waitcnt vmcnt(0)           (gfx1030: s_waitcnt_vscnt null, 0x0)
 *	v_add_u32 v1, v1, v0         (gfx1030: v_add_nc_u32)
 *	s_add_u32 s2, s2, 1
 *	s_cmp_lt_u32 s2, s3
 *	s_cbranch_scc1 L
 *	s_endpgm
 *
 * and the shape of kfdtest's CU-mask timing kernel (KFDQMTest's
 * TimeConsumedwithCUMask(): ShaderStore.cpp LoopIsa, assembled by LLVM 22
 * for gfx90a, the same words for gfx942): one-work-item workgroups of 247
 * passes of 8 v_add_f32, 4 v_log_f32, 8 v_mul_f32, 8 v_exp_f32, 4
 * v_sqrt_f32, 4 v_rsq_f32 and 12 v_add_f32 with a compare and two
 * branches, storing nothing: once with every wave run (the interpreter's
 * speed on it) and once as kfdtest dispatches it, 1024 x 16 x 16
 * workgroups, where every wave after a thread's first is replayed
 * (sqk_wave.c "Replay"). The floor, measured in the same run: the same
 * float math of one wave in C on the host; the figure is the time per wave
 * over the floor's.
 *
 * Prints figures; never a pass/fail.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/sq/sqk_exec.h"

static const uint32_t prog9[] = { 0xbe820080, 0x68020101, 0xd2850002, 0x00020301,
				  0x2a060302, 0xd1cb0004, 0x04120501, 0x80028102,
				  0xbf0a0302, 0xbf85fff7, 0xbf810000 };
static const uint32_t prog10[] = { 0xbe820380, 0x4a020101, 0xd5690002, 0x00020301,
				   0x3a060302, 0xd54b0004, 0x04120501, 0x80028102,
				   0xbf0a0302, 0xbf85fff7, 0xbf810000 };

static const uint32_t store9[] = { 0xbe820080, 0x240a0082, 0xdc708000, 0x00040105, 0xbf8c0f70,
				   0x68020101, 0x80028102, 0xbf0a0302, 0xbf85fff9, 0xbf810000 };
static const uint32_t store10[] = { 0xbe820380, 0x340a0082, 0xdc708000, 0x00040105, 0xbbfd0000,
				    0x4a020101, 0x80028102, 0xbf0a0302, 0xbf85fff9, 0xbf810000 };

static const uint32_t cumask9[] = {
	0xb0000008, 0xb00100ff, 0xbe840080, 0xbe850080, 0xbe860080, 0xbe870080, 0xbe8c0080,
	0xbe8d0080, 0xbe8e0080, 0xbe8f0080, 0x7e000280, 0x7e020280, 0x7e040280, 0x7e060280,
	0x7e080280, 0x7e0a0280, 0x7e0c0280, 0x7e0e0280, 0x7e100280, 0x7e120280, 0x7e140280,
	0x7e160280, 0x7e180280, 0x7e1a0280, 0x7e1c0280, 0x7e1e0280, 0x7e200280, 0xbe880004,
	0xbe890001, 0xbe8a0006, 0xbe8b0007, 0xbf050001, 0xbf85003d, 0x020000f4, 0x7e220a01,
	0xbf8cc07f, 0x02242208, 0x02262209, 0x0228220a, 0x022a220b, 0x022c220c, 0x022e220d,
	0x0230220e, 0x0222220f, 0x7e324312, 0x0a323316, 0x7e324119, 0x7e344313, 0x0a343517,
	0x7e34411a, 0x7e364314, 0x0a363718, 0x7e36411b, 0x7e384315, 0x0a383911, 0x7e38411c,
	0x020a3305, 0x020c3506, 0x020e3707, 0x02103908, 0x0a2424ff, 0x3fb8aa3b, 0x7e244112,
	0x0a2626ff, 0x3fb8aa3b, 0x7e264113, 0x0a2828ff, 0x3fb8aa3b, 0x7e284114, 0x0a2a2aff,
	0x3fb8aa3b, 0x7e2a4115, 0x02122509, 0x0214270a, 0x0216290b, 0x02182b0c, 0x7e244f16,
	0x7e264f17, 0x7e284f18, 0x7e2a4f11, 0x021a250d, 0x021c270e, 0x021e290f, 0x02202b10,
	0x7e244916, 0x7e264917, 0x7e284918, 0x7e224911, 0x02022501, 0x02042702, 0x02062903,
	0x02082304, 0x80008100, 0xbf82ffbd, 0xbf810000
};

#define CODE_VA 0x100000000ull
#define DATA_VA 0x200000000ull

static uint8_t page[4096], data[4096];

static void *xlate(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	(void)ctx, (void)write;
	*ro = false;
	if (len > sizeof(page))
		return NULL;
	return va == CODE_VA ? page : va == DATA_VA ? data : NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* sqk_run() of @d, its wall time in *t; on failure a line naming @name and
 * @what. */
static int timed_run(const char *name, const char *what, const struct sqk_dispatch *d,
		     const struct sqk_env *env, struct sqk_result *res, double *t)
{
	double t0 = now();
	int rc = sqk_run(d, env, res);

	*t = now() - t0;
	if (rc)
		printf("%-8s %s: failed (%d): %s\n", name, what, rc, res->msg);
	return rc;
}

static void run(const char *name, uint32_t gfxv, const uint32_t *prog, size_t n, bool w32,
		uint32_t groups)
{
	struct sqk_env env = { .xlate = xlate };
	uint32_t user[16] = { 0, 0, 0, 2000, (uint32_t)DATA_VA, (uint32_t)(DATA_VA >> 32) };
	struct sqk_dispatch d = { 0 };
	struct sqk_result res;
	double t;

	memset(page, 0, sizeof(page));
	memcpy(page, prog, n * 4);
	d.fam = sqk_family_of(gfxv);
	d.entry = CODE_VA;
	d.rsrc1 = 1;	   /* 8 VGPRs */
	d.rsrc2 = 6u << 1; /* USER_SGPR_COUNT 6 */
	d.user_data = user;
	d.wave32 = w32;
	d.wg[0] = 256, d.wg[1] = d.wg[2] = 1;
	d.grid[0] = 256 * groups, d.grid[1] = d.grid[2] = 1;
	if (timed_run(name, w32 ? "wave32" : "wave64", &d, &env, &res, &t))
		return;
	printf("%-8s %s  %6llu waves  %10llu wave-insns  %7.3f s  %6.2f M wave-insns/s  "
	       "%7.1f M lane-ops/s\n",
	       name, w32 ? "wave32" : "wave64", (unsigned long long)res.waves,
	       (unsigned long long)res.insns, t, (double)res.insns / t / 1e6,
	       (double)res.insns * (w32 ? 32 : 64) / t / 1e6);
}

/* One wave of the CU-mask kernel's math in C: s1 = 255, s0 from 8 to 254;
 * the sources of the logs are s1 + (float)s1 and the zero SGPRs plus it.
 * Returns a sum so that nothing is optimised away. */
static float cumask_floor_wave(int s1)
{
	float v[29] = { 0 };

	for (int s0 = 8; s0 < s1; s0++) {
		float a = (float)s1, b[8];

		v[0] += 2.0f;
		b[0] = 0.0f + a, b[1] = (float)s1 + a, b[2] = 0.0f + a, b[3] = 0.0f + a;
		b[4] = 0.0f + a, b[5] = 0.0f + a, b[6] = 0.0f + a, b[7] = 0.0f + a;
		for (int i = 0; i < 4; i++) {
			v[5 + i] += exp2f(b[4 + i] * log2f(b[i]));
			v[9 + i] += exp2f(b[i] * 1.44269502f);
			v[13 + i] += sqrtf(b[4 + i]);
			v[1 + i] += 1.0f / sqrtf(b[4 + i]);
		}
	}
	return v[0] + v[1] + v[5] + v[9] + v[13];
}

static void run_cumask(const char *name, uint32_t gfxv)
{
	struct sqk_env env = { .xlate = xlate };
	uint32_t user[16] = { 0 };
	struct sqk_dispatch d = { 0 };
	struct sqk_result res;
	volatile float sink = 0;
	volatile int top = 255; /* s1, unknown to the compiler */
	double t0, tf, t1, t2;
	unsigned nf = 2000;
	int rc;

	memset(page, 0, sizeof(page));
	memcpy(page, cumask9, sizeof(cumask9));
	t0 = now();
	for (unsigned i = 0; i < nf; i++)
		sink = sink + cumask_floor_wave(top);
	tf = (now() - t0) / nf;
	d.fam = sqk_family_of(gfxv);
	d.entry = CODE_VA;
	d.rsrc1 = 4;		     /* 40 VGPRs, as kfdtest's Dispatch */
	d.rsrc2 = 4u << 1 | 1u << 7; /* 4 user SGPRs, workgroup id X */
	d.user_data = user;
	d.wg[0] = d.wg[1] = d.wg[2] = 1;
	d.grid[0] = 64, d.grid[1] = d.grid[2] = 1;
	sqk_replay_off = true;
	rc = timed_run(name, "cu-mask kernel", &d, &env, &res, &t1);
	sqk_replay_off = false;
	if (rc)
		return;
	printf("%-8s cu-mask kernel, every wave run: %llu waves  %10llu wave-insns  %7.3f s  "
	       "%6.2f M wave-insns/s  %8.1f us/wave  floor %6.2f us/wave  ratio %6.0f\n",
	       name, (unsigned long long)res.waves, (unsigned long long)res.insns, t1,
	       (double)res.insns / t1 / 1e6, t1 / (double)res.waves * 1e6, tf * 1e6,
	       t1 / (double)res.waves / tf);
	d.grid[0] = 1024, d.grid[1] = 16, d.grid[2] = 16;
	if (timed_run(name, "cu-mask kernel", &d, &env, &res, &t2))
		return;
	printf("%-8s cu-mask kernel, 1024x16x16: %llu waves (%llu replayed)  %7.3f s  "
	       "%8.3f us/wave  ratio %8.4f\n",
	       name, (unsigned long long)res.waves, (unsigned long long)res.replayed, t2,
	       t2 / (double)res.waves * 1e6, t2 / (double)res.waves / tf);
}

/* The loops' rows: each program on gfx900 and gfx90a in wave64, on gfx1030
 * in wave32 and wave64. */
static void run_loop(const uint32_t *p9, size_t n9, const uint32_t *p10, size_t n10)
{
	run("gfx900", 90000, p9, n9, false, 16);
	run("gfx90a", 90010, p9, n9, false, 16);
	run("gfx1030", 100300, p10, n10, true, 16);
	run("gfx1030", 100300, p10, n10, false, 16);
}

int main(void)
{
	printf("shader unit: a 7-instruction loop, 2000 iterations per wave\n");
	run_loop(prog9, sizeof(prog9) / 4, prog10, sizeof(prog10) / 4);
	printf("shader unit: a store, its wait and 4 ALU instructions, 2000 iterations per wave\n");
	run_loop(store9, sizeof(store9) / 4, store10, sizeof(store10) / 4);
	printf("shader unit: kfdtest's CU-mask timing kernel (one-work-item workgroups)\n");
	run_cumask("gfx90a", 90010);
	run_cumask("gfx942", 90402);
	return 0;
}
