/* SPDX-License-Identifier: MIT */
/*
 * Event batches on the emulated KFD: signal a batch of events, wait for all
 * of them with one WAIT_EVENTS, reset them; repeated. The signals come from
 * CPU SET_EVENT, from PM4 fences (one RELEASE_MEM per event, the batch in
 * one submission) or from SDMA fences (FENCE, FENCE, TRAP per event, one
 * submission). Prints events/s and ns/event per batch size, and as the
 * ratio to the floor measured in the same run, ns/event of the 16-event
 * batch of the same path (the batch whose WAIT_EVENTS array lives on the
 * caller's stack): a batch of 4095 should cost no more per event than one
 * of 16. Rows are measured in interleaved rounds, best round kept, so
 * that the load of a shared machine falls on every row alike. Goals:
 * >= 3 M events/s for SET_EVENT and >= 2 M/s for the fence batches at
 * 4095, ns/event at 4095 within 1.5x of 16. Never a pass/fail.
 *
 *   bench_event_batch [ROUNDS]   (default 7)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kfdsig/kfdsig.h>

enum path { P_SET, P_PM4, P_SDMA, NPATH };
static const char *const path_name[NPATH] = { "SET_EVENT", "PM4 fences", "SDMA fences" };
static const uint32_t sizes[] = { 16, 64, 4095 };
#define NSIZE (sizeof(sizes) / sizeof(sizes[0]))
#define MAXB 4095u
#define EVENTS_PER_ROUND 65520u /* events signalled per measurement */

static struct kfdsig_kfd *kfd;
static const struct kfdsig_target *tgt;
static struct kfdsig_kfd_queue *q[NPATH];
static struct kfdsig_event ev[MAXB];
static struct kfdsig_wait_entry we[MAXB];
static uint32_t *cmd;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One batch: signal @n events, wait for all, reset them. */
static int batch(enum path p, uint32_t n)
{
	enum kfdsig_wait_result res;
	uint32_t ndw = 0;

	for (uint32_t i = 0; i < n; i++) {
		struct kfdsig_fence f = { .slot_va = ev[i].slot_va, .event_id = ev[i].id };
		int k = 0;

		if (p == P_SET)
			k = kfdsig_kfd_event_set(kfd, ev[i].id);
		else if (p == P_PM4)
			k = kfdsig_pm4_emit_fence(tgt, &f, cmd + ndw, KFDSIG_PM4_FENCE_MAX_DW);
		else
			k = kfdsig_sdma_emit_fence(tgt, &f, cmd + ndw, KFDSIG_SDMA_FENCE_MAX_DW);
		if (k < 0)
			return -1;
		ndw += (uint32_t)k;
	}
	if (p != P_SET && kfdsig_kfd_queue_submit(q[p], cmd, ndw, 5000) < 0)
		return -1;
	if (kfdsig_kfd_wait(kfd, we, n, true, 5000, &res) < 0 || res != KFDSIG_WAIT_COMPLETE)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		kfdsig_kfd_event_reset(kfd, ev[i].id);
	return 0;
}

/* ns per event over EVENTS_PER_ROUND events in batches of @n. */
static double measure(enum path p, uint32_t n)
{
	uint32_t iters = EVENTS_PER_ROUND / n;
	double t0;

	if (batch(p, n)) /* warm */
		return -1;
	t0 = now_ns();
	for (uint32_t i = 0; i < iters; i++)
		if (batch(p, n))
			return -1;
	return (now_ns() - t0) / ((double)iters * n);
}

int main(int argc, char **argv)
{
	struct kfdsig_queue_opts qo = { .sz = sizeof(qo), .ring_size = 1u << 20 };
	struct kfdsig_emu *emu = kfdsig_emu_create_from_spec("gfx90a");
	double best[NPATH][NSIZE];
	int rounds = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 7;
	uint32_t gpu;

	if (!emu || kfdsig_kfd_open(kfdsig_emu_ops(emu), &kfd) < 0) {
		fprintf(stderr, "event_batch: %s\n", kfdsig_last_error());
		return 1;
	}
	gpu = kfdsig_kfd_device(kfd, 0)->gpu_id;
	tgt = kfdsig_kfd_device(kfd, 0)->target;
	cmd = malloc((size_t)MAXB * KFDSIG_SDMA_FENCE_MAX_DW * sizeof(uint32_t));
	if (!cmd || kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &qo, &q[P_PM4]) < 0 ||
	    kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_SDMA, &qo, &q[P_SDMA]) < 0) {
		fprintf(stderr, "event_batch: %s\n", kfdsig_last_error());
		return 1;
	}
	for (uint32_t i = 0; i < MAXB; i++) {
		if (kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, false, &ev[i]) < 0) {
			fprintf(stderr, "event_batch: event %u: %s\n", i, kfdsig_last_error());
			return 1;
		}
		we[i].event_id = ev[i].id;
	}
	for (int p = 0; p < NPATH; p++)
		for (size_t s = 0; s < NSIZE; s++)
			best[p][s] = 1e30;
	for (int r = 0; r < rounds; r++)
		for (int p = 0; p < NPATH; p++)
			for (size_t s = 0; s < NSIZE; s++) {
				double ns = measure((enum path)p, sizes[s]);

				if (ns < 0) {
					fprintf(stderr, "event_batch: %s, batch %u: %s\n",
						path_name[p], sizes[s], kfdsig_last_error());
					return 1;
				}
				if (ns < best[p][s])
					best[p][s] = ns;
			}
	printf("event batches on the emulated KFD (gfx90a): signal, wait for all, reset; "
	       "best of %d rounds of %u events\n",
	       rounds, EVENTS_PER_ROUND);
	printf("%-12s %6s %10s %12s %12s\n", "path", "batch", "ns/event", "M events/s",
	       "x batch 16");
	for (int p = 0; p < NPATH; p++)
		for (size_t s = 0; s < NSIZE; s++)
			printf("%-12s %6u %10.1f %12.2f %11.2fx\n", path_name[p], sizes[s],
			       best[p][s], 1e3 / best[p][s], best[p][s] / best[p][0]);
	printf("goals: >= 3 M/s SET_EVENT, >= 2 M/s fence batches at 4095; "
	       "x batch 16 <= 1.5x\n");
	for (int p = P_PM4; p < NPATH; p++)
		kfdsig_kfd_queue_destroy(q[p]);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	free(cmd);
	return 0;
}
