/* SPDX-License-Identifier: MIT */
/*
 * A bare wave of the kernel interpreter for running single instructions
 * through its executors (src/emu/sq/sqk_exec.h): a family, a lane count,
 * a register file, no memory (every access faults) and no queue.
 */
#ifndef KFDSIG_TEST_EMU_SQK_WAVE_UTIL_H
#define KFDSIG_TEST_EMU_SQK_WAVE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/sq/sqk_exec.h"
#include "helpers.h"

/* 32-bit words of a wave's VGPRs and AGPRs (w.v) */
#define BARE_NVW ((size_t)(SQK_NV + SQK_NV_SLACK) * 64)

struct bare_wave {
	struct sqk_dispatch d;
	struct sqk_env env;
	struct sqk_result res;
	struct sqk_run r;
	struct sqk_wave w;
};

static inline void *bare_no_mem(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	(void)ctx, (void)va, (void)len, (void)write, (void)ro;
	return NULL;
}

/* A zeroed wave of family @gfxv (gfx_target_version) with @lanes lanes;
 * exits the test when the family is unknown or memory runs out. */
static inline struct bare_wave *bare_wave_new(uint32_t gfxv, unsigned lanes)
{
	struct bare_wave *g = calloc(1, sizeof(*g));
	const struct sqk_family *f = sqk_family_of(gfxv);

	if (!g || !f || !(g->w.v = calloc(BARE_NVW, 4))) {
		fprintf(stderr, "bare wave of %u: setup failed\n", gfxv);
		exit(T_EXIT_FAIL);
	}
	g->d.fam = f;
	g->env.xlate = bare_no_mem;
	g->r.d = &g->d;
	g->r.f = f;
	g->r.env = &g->env;
	g->r.res = &g->res;
	g->w.lanes = (uint8_t)lanes;
	g->w.r = &g->r;
	return g;
}

/* @dst's registers and wave state made @src's. */
static inline void bare_wave_copy(struct bare_wave *dst, const struct bare_wave *src)
{
	memcpy(dst->w.s, src->w.s, sizeof(src->w.s));
	memcpy(dst->w.v, src->w.v, BARE_NVW * 4);
	dst->w.scc = src->w.scc;
	dst->w.mode = src->w.mode;
	dst->w.gpr_idx = src->w.gpr_idx;
}

/* A float's bits and back (f32v, u32f), a double's (f64v). */
static inline float f32v(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static inline uint32_t u32f(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static inline double f64v(uint64_t u)
{
	double f;

	memcpy(&f, &u, 8);
	return f;
}

static inline void bare_wave_free(struct bare_wave *g)
{
	if (g)
		free(g->w.v);
	free(g);
}

#endif
