/* SPDX-License-Identifier: MIT */
/*
 * Cost of writing one SDMA fence (FENCE, FENCE, TRAP), against the floor of
 * copying a precomputed 10-dword sequence and patching its two addresses
 * and the id. Prints nanoseconds and (where perf counters are readable)
 * instructions per fence, and the ratios to the floor measured in the same
 * run. The goal for the prepared template is at most 1.5x the floor.
 *
 *   bench_sdma_emit [TARGET]   (default gfx90a; KFDSIG_BENCH_ITERS=N)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdsig/kfdsig.h>

#include "bench_util.h"

static unsigned ITERS = 4000000u; /* per round; KFDSIG_BENCH_ITERS overrides */
#define PAGE 0x7f0000000000ull
#define ROUNDS 7
#define RING_DW 4096u

static uint32_t ring[RING_DW + KFDSIG_SDMA_FENCE_MAX_DW];

/* Emit with the library: what a runtime's submit path would call. */
static __attribute__((noinline)) unsigned run_emit(const void *ctx)
{
	const struct kfdsig_target *t = ctx;
	struct kfdsig_fence f = { 0 };
	unsigned pos = 0;

	for (unsigned i = 0; i < ITERS; i++) {
		f.event_id = 1 + (i & 4093);
		f.slot_va = kfdsig_slot_va(PAGE, f.event_id);
		int n = kfdsig_sdma_emit_fence(t, &f, ring + pos, KFDSIG_SDMA_FENCE_MAX_DW);
		if (n < 0)
			abort();
		pos = (pos + (unsigned)n) & (RING_DW - 1);
	}
	return pos;
}

/* The prepared template, written inline per fence. */
static __attribute__((noinline)) unsigned run_tmpl(const void *ctx)
{
	const struct kfdsig_sdma_fence_tmpl *tp = ctx;
	unsigned pos = 0;

	for (unsigned i = 0; i < ITERS; i++) {
		int n = kfdsig_sdma_fence_write(tp, ring + pos, KFDSIG_SDMA_FENCE_MAX_DW,
						1 + (i & 4093));
		if (n < 0)
			abort();
		pos = (pos + (unsigned)n) & (RING_DW - 1);
	}
	return pos;
}

/* The floor: copy a precomputed template, patch address and context id. */
static __attribute__((noinline)) unsigned run_template(const void *ctx)
{
	const uint32_t *tmpl = ctx;
	unsigned pos = 0;

	for (unsigned i = 0; i < ITERS; i++) {
		uint32_t id = 1 + (i & 4093);
		uint64_t va = kfdsig_slot_va(PAGE, id);
		uint32_t *p = ring + pos;

		memcpy(p, tmpl, 10 * sizeof(uint32_t));
		p[1] = (uint32_t)va;
		p[2] = (uint32_t)(va >> 32);
		p[5] = (uint32_t)va + 4;
		p[6] = (uint32_t)(va >> 32);
		p[9] = id;
		pos = (pos + 10) & (RING_DW - 1);
	}
	return pos;
}

static struct kfdsig_sdma_fence_tmpl prepared;

/* 0: the full emitter, 1: the floor, 2: the prepared template */
static struct bench_result measure(int which, const struct kfdsig_target *t, const uint32_t *tmpl)
{
	if (which == 2)
		return bench_measure(run_tmpl, &prepared, ITERS);
	return which ? bench_measure(run_template, tmpl, ITERS) : bench_measure(run_emit, t, ITERS);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "gfx90a";
	const struct kfdsig_target *t = kfdsig_target_by_name(name);
	struct kfdsig_fence f = { .slot_va = 0x7f0000000008ull, .event_id = 1 };
	uint32_t tmpl[KFDSIG_SDMA_FENCE_MAX_DW];
	struct bench_result emit, floor_, fast;

	ITERS = bench_iters(ITERS);
	if (!t) {
		fprintf(stderr, "sdma_emit: %s\n", kfdsig_last_error());
		return 2;
	}
	if (kfdsig_sdma_emit_fence(t, &f, tmpl, KFDSIG_SDMA_FENCE_MAX_DW) < 0)
		return 1;
	f.event_id = 0;
	if (kfdsig_sdma_fence_prepare(t, &f, PAGE, 0, &prepared) < 0) {
		fprintf(stderr, "sdma_emit: %s\n", kfdsig_last_error());
		return 1;
	}
	/* Warm up every loop once, then measure in interleaved rounds (the
	 * load of a shared machine falls on all three alike), best kept. */
	for (int w = 0; w < 3; w++)
		measure(w, t, tmpl);
	emit = floor_ = fast = BENCH_RESULT_WORST;
	for (int r = 0; r < ROUNDS; r++) {
		struct bench_result m[3];

		for (int w = 0; w < 3; w++)
			m[w] = measure(w, t, tmpl);
		bench_keep_best(&emit, m[0]);
		bench_keep_best(&floor_, m[1]);
		bench_keep_best(&fast, m[2]);
	}

	bench_print_emit_report("SDMA", t->name, ROUNDS, ITERS, "kfdsig_sdma_emit_fence", emit,
				"10-dword copy + patch (floor)", floor_,
				"kfdsig_sdma_fence_write (prepared)", fast);
	return 0;
}
