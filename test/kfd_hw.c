/* SPDX-License-Identifier: MIT */
/*
 * The same backend on real hardware (/dev/kfd, the render nodes, libdrm):
 * topology and DRM details agree with the generation table, the signal
 * page and events work, a CPU-set event wakes WAIT_EVENTS with its age,
 * PM4 and SDMA fences wake it, and a PM4 GPU timestamp converts (through
 * GET_CLOCK_COUNTERS) to a time between two host readings.
 * Exits 77 (skip) without a usable AMD GPU.
 */
#include <time.h>
#include <unistd.h>

#include <kfdsig/pm4.h>
#include <kfdsig/sdma.h>

#include "kfd_util.h"

int main(void)
{
	struct kfdsig_kfd *kfd = NULL;
	enum kfdsig_wait_result res;
	struct kfdsig_event ev;
	uint64_t age = 1;
	int r = kfdsig_kfd_open(NULL, &kfd);

	if (r < 0 || !kfdsig_kfd_device_count(kfd)) {
		fprintf(stderr, "kfd_hw: skipped, no usable KFD GPU (%s)\n", kfdsig_last_error());
		kfdsig_kfd_close(kfd);
		return T_EXIT_SKIP;
	}
	for (size_t i = 0; i < kfdsig_kfd_device_count(kfd); i++) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(kfd, i);
		CHECK(d->gpu_id != 0, "gpu_id");
		if (d->target && d->have_drm_info && d->drm.gc_ip[0])
			CHECK_EQ(d->drm.gc_ip[0], d->target->gc_ip[0], "GC major agrees (%s)",
				 d->target->name);
	}
	r = kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, true, &ev);
	CHECK(r == 0, "event: %s", kfdsig_last_error());
	if (!r) {
		CHECK(ev.id >= 1 && ev.slot && *ev.slot == UINT64_MAX, "slot unsignalled");
		CHECK(kfdsig_kfd_event_set(kfd, ev.id) == 0, "set");
		if (!kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_EVENT_AGE))
			age = 0;
		CHECK(t_wait1(kfd, ev.id, &age, 1000, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
		      "wait");
		CHECK(kfdsig_kfd_event_destroy(kfd, ev.id) == 0, "destroy");
	}
	/* the GPU signals: a PM4 and an SDMA fence on the first known GPU */
	for (size_t i = 0; i < kfdsig_kfd_device_count(kfd); i++) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(kfd, i);
		uint64_t va = 0;

		if (!d->target)
			continue;
		r = kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, true, &ev);
		CHECK(r == 0 && !kfdsig_kfd_signal_page(kfd, NULL, &va), "event");
		for (int sdma = 0; sdma < 2 && !r; sdma++) {
			struct kfdsig_fence f = { .slot_va = va + 8ull * ev.id, .event_id = ev.id };
			struct kfdsig_kfd_queue *q = NULL;
			uint32_t dw[32];
			int n = sdma ? kfdsig_sdma_emit_fence(d->target, &f, dw, 32)
				     : kfdsig_pm4_emit_fence(d->target, &f, dw, 32);

			if (kfdsig_kfd_queue_create(kfd, d->gpu_id,
						    sdma ? KFDSIG_QUEUE_SDMA : KFDSIG_QUEUE_PM4,
						    NULL, &q)) {
				CHECK(0, "queue on %s: %s", d->target->name, kfdsig_last_error());
				continue;
			}
			CHECK(n > 0 && !kfdsig_kfd_queue_submit(q, dw, (uint32_t)n, 1000),
			      "submit");
			CHECK(t_wait1(kfd, ev.id, NULL, 2000, &res) == 0 &&
				      res == KFDSIG_WAIT_COMPLETE,
			      "%s %s fence wakes WAIT_EVENTS", d->target->name,
			      sdma ? "SDMA" : "PM4");
			kfdsig_kfd_queue_destroy(q);
		}
		break;
	}
	/* the GPU clock: two GET_CLOCK_COUNTERS samples and a timestamp the CP
	 * writes between two host readings (bounds widened by 100 us for the
	 * ioctl's read gap; the rate is only required to be plausible) */
	for (size_t i = 0; i < kfdsig_kfd_device_count(kfd); i++) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(kfd, i);
		struct kfdsig_clock_sample s0, s1;
		struct kfdsig_kfd_queue *q = NULL;
		const struct kfdsig_kfd_bo *bo = NULL;
		struct kfdsig_gpu_clock c;
		struct timespec ts;
		uint64_t h0, h1, ns = 0, tick;
		uint32_t dw[KFDSIG_PM4_TIMESTAMP_MAX_DW];
		int n;

		if (!d->target)
			continue;
		CHECK(!kfdsig_kfd_clock_counters(kfd, d->gpu_id, &s0), "clock: %s",
		      kfdsig_last_error());
		CHECK_EQ(s0.system_freq, 1000000000ull, "system_clock_freq");
		if (kfdsig_kfd_alloc(kfd, d->gpu_id, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) ||
		    kfdsig_kfd_map(kfd, bo, &d->gpu_id, 1) ||
		    kfdsig_kfd_queue_create(kfd, d->gpu_id, KFDSIG_QUEUE_PM4, NULL, &q)) {
			CHECK(0, "timestamp setup on %s: %s", d->target->name, kfdsig_last_error());
			break;
		}
		*(volatile uint64_t *)bo->cpu = 0;
		n = kfdsig_pm4_emit_timestamp(d->target, bo->va, dw, KFDSIG_PM4_TIMESTAMP_MAX_DW);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		h0 = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		CHECK(n > 0 && !kfdsig_kfd_queue_submit(q, dw, (uint32_t)n, 1000) &&
			      !kfdsig_kfd_queue_wait_idle(q, 1000),
		      "timestamp submit");
		clock_gettime(CLOCK_MONOTONIC, &ts);
		h1 = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		tick = *(volatile uint64_t *)bo->cpu;
		usleep(20000);
		CHECK(!kfdsig_kfd_clock_counters(kfd, d->gpu_id, &s1), "clock");
		CHECK(!kfdsig_gpu_clock_calibrate(&s0, &s1, &c), "calibrate: %s",
		      kfdsig_last_error());
		CHECK(c.hz > 1e6 && c.hz < 1e10, "GPU clock rate %.0f Hz", c.hz);
		CHECK(tick > s0.gpu_ticks && tick < s1.gpu_ticks, "timestamp between the samples");
		CHECK(!kfdsig_gpu_clock_to_ns(&c, tick, &ns) && ns + 100000 >= h0 &&
			      ns <= h1 + 100000,
		      "%s: timestamp %llu converts between %llu and %llu", d->target->name,
		      (unsigned long long)ns, (unsigned long long)h0, (unsigned long long)h1);
		kfdsig_kfd_queue_destroy(q);
		kfdsig_kfd_free(kfd, bo);
		break;
	}
	kfdsig_kfd_close(kfd);
	return t_result("kfd_hw");
}
