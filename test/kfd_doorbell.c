/* SPDX-License-Identifier: MIT */
/*
 * Doorbells that wake their engine: an idle emulated engine
 * sleeps on its doorbell instead of polling it, and the doorbell write of
 * kfdsig_kfd_queue_submit() wakes it. With the fallback poll lengthened to
 * 10 s, an idle queue's engine must not wake at all, and a fence submitted
 * to it must still wake its waiter well within the fallback period (a
 * latency bound, so a missing wake cannot hide behind the timeout). Every
 * target class of doorbell: 64-bit (gfx90a, gfx1100) and 32-bit (gfx803),
 * PM4 and SDMA.
 */
#include <time.h>
#include <unistd.h>

#include "emu/emu_priv.h"
#include "kfd_util.h"

#define BOUND_MS 2000 /* far below the 10 s fallback */

static int64_t ms_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t idle_wakeups(struct kfdsig_emu *emu, int pasid)
{
	struct emu_proc *p = emu_proc_get(emu, pasid);
	uint64_t n = 0;

	T_REQUIRE(p, "proc");
	pthread_mutex_lock(&p->lock);
	for (struct emu_queue *q = p->queues; q; q = q->next)
		n += __atomic_load_n(&q->idle_wakeups, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	return n;
}

static void test_target(const char *spec, bool sdma)
{
	struct kfdsig_emu *emu = t_emu(spec);
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t gpu = t_gpu(kfd, 0);
	int pasid = t_pasid(emu, kfd);
	const struct kfdsig_target *t = kfdsig_kfd_device(kfd, 0)->target;
	struct kfdsig_event ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, true);
	struct kfdsig_fence f = { .slot_va = ev.slot_va, .event_id = ev.id };
	struct kfdsig_kfd_queue *q = NULL;
	uint32_t d[64];
	uint64_t before;
	int n;

	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, gpu, sdma ? KFDSIG_QUEUE_SDMA : KFDSIG_QUEUE_PM4,
					   NULL, &q),
		  "%s queue", spec);
	n = sdma ? kfdsig_sdma_emit_fence(t, &f, d, 64) : kfdsig_pm4_emit_fence(t, &f, d, 64);
	T_REQUIRE(n > 0, "fence");
	usleep(20000); /* let the new engine fall asleep */
	before = idle_wakeups(emu, pasid);
	usleep(100000);
	CHECK(idle_wakeups(emu, pasid) - before <= 1,
	      "%s %s: an idle engine sleeps on its doorbell (%llu wake-ups in 100 ms)", spec,
	      sdma ? "sdma" : "pm4", (unsigned long long)(idle_wakeups(emu, pasid) - before));
	for (int i = 0; i < 3; i++) {
		enum kfdsig_wait_result res;
		int64_t t0 = ms_now(), ms;
		int r;

		CHECK(kfdsig_kfd_queue_submit(q, d, (uint32_t)n, 1000) == 0, "submit");
		r = t_wait1(kfd, ev.id, NULL, 10000, &res);
		ms = ms_now() - t0;
		CHECK(r == 0 && res == KFDSIG_WAIT_COMPLETE && ms < BOUND_MS,
		      "%s %s fence %d: woken after %lld ms (the submit wakes the engine)", spec,
		      sdma ? "sdma" : "pm4", i, (long long)ms);
		usleep(20000);
	}
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

int main(void)
{
	static const char *const specs[] = { "gfx803", "gfx90a", "gfx1100" };

	emu_engine_set_fallback(10000000000L, 10000000000L);
	for (size_t i = 0; i < KFDSIG_ARRAY_SIZE(specs); i++)
		for (int sdma = 0; sdma < 2; sdma++)
			test_target(specs[i], sdma);
	emu_engine_set_fallback(0, 0);
	return t_result("kfd_doorbell");
}
