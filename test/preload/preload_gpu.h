/* SPDX-License-Identifier: MIT */
/*
 * A GPU queue for the interposer tests, made with libkfdsig's linux
 * backend (which under kfdsig exec reaches the emulator through the
 * interposer, like any client): the signal page libkfdsig supplies, a PM4
 * queue, and a fence whose wake-up is checked with a latency bound.
 */
#ifndef KFDSIG_TEST_PRELOAD_GPU_H
#define KFDSIG_TEST_PRELOAD_GPU_H

#include <kfdsig/kfdsig.h>

#include "preload_util.h"

/* A GPU queue of this process (through libkfdsig's linux backend, i.e.
 * the interposer) whose PM4 fence signals an event. */
struct gpu {
	struct kfdsig_kfd *kfd;
	const struct kfdsig_kfd_device *dev;
	struct kfdsig_kfd_queue *q;
	struct kfdsig_event ev;
	uint64_t page_va;
};

static inline bool gpu_open(const char *who, struct gpu *g)
{
	int r;

	memset(g, 0, sizeof(*g));
	r = kfdsig_kfd_open(NULL, &g->kfd);
	CHECK(r == 0, "%s: kfdsig_kfd_open: %s", who, kfdsig_last_error());
	if (r)
		return false;
	g->dev = kfdsig_kfd_device(g->kfd, 0);
	r = !g->dev || !g->dev->target ? -ENODEV : kfdsig_kfd_acquire_vm(g->kfd, g->dev->gpu_id);
	if (!r)
		r = kfdsig_kfd_event_create(g->kfd, KFDSIG_EVENT_SIGNAL, true, &g->ev);
	if (!r)
		r = kfdsig_kfd_signal_page(g->kfd, NULL, &g->page_va);
	if (!r)
		r = kfdsig_kfd_queue_create(g->kfd, g->dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &g->q);
	CHECK(r == 0, "%s: GPU setup: %s", who, kfdsig_last_error());
	return r == 0;
}

/* Submit @pre (PM4 packets, may be NULL) and the fence, and wait for it:
 * the GPU's wake-up, promptly. */
static inline void gpu_signal_after(const char *who, struct gpu *g, const uint32_t *pre,
				    uint32_t npre)
{
	struct kfdsig_fence f = { .slot_va = g->page_va + 8ull * g->ev.id, .event_id = g->ev.id };
	struct kfdsig_wait_entry w = { .event_id = g->ev.id };
	enum kfdsig_wait_result res = KFDSIG_WAIT_TIMEOUT;
	uint32_t dw[64];
	double t0;
	int n, r;

	if (npre > 32)
		npre = 32;
	if (npre)
		memcpy(dw, pre, npre * 4);
	n = kfdsig_pm4_emit_fence(g->dev->target, &f, dw + npre, 64 - npre);
	CHECK(n > 0, "%s: emit", who);
	n += n > 0 ? (int)npre : 0;
	t0 = p_now_ms();
	r = n > 0 ? kfdsig_kfd_queue_submit(g->q, dw, (uint32_t)n, 1000) : n;
	CHECK(r == 0, "%s: submit: %s", who, kfdsig_last_error());
	r = kfdsig_kfd_wait(g->kfd, &w, 1, false, P_TIMEOUT_MS, &res);
	CHECK(r == 0 && res == KFDSIG_WAIT_COMPLETE, "%s: the fence's WAIT_EVENTS: %d/%d", who, r,
	      (int)res);
	CHECK(p_now_ms() - t0 < P_WAKE_BOUND_MS, "%s: fence woke after %.1f ms", who,
	      p_now_ms() - t0);
}

static inline void gpu_signal(const char *who, struct gpu *g)
{
	gpu_signal_after(who, g, NULL, 0);
}

#endif
