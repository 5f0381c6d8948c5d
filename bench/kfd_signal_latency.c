/* SPDX-License-Identifier: MIT */
/*
 * Costs on the emulated KFD, through the real backend: a WAIT_EVENTS
 * round trip woken by SET_EVENT from another thread; the kernel's interrupt
 * entry point with the right id (fast path) against a wrong id with 4095
 * events (the exhaustive scan); and submit-to-wake latency of a fence on a
 * PM4 queue, an SDMA queue and a dispatched shader stub. Prints figures and
 * ratios; never a pass/fail. Emulator figures show relative costs (the
 * scan is what a missing or wrong context id costs the kernel), not GPU
 * hardware latencies.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <kfdsig/kfdsig.h>

#define ROUNDS 2000

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

struct pinger {
	struct kfdsig_kfd *kfd;
	uint32_t id;
	volatile int go;
};

static void *setter(void *p)
{
	struct pinger *pg = p;

	for (int i = 0; i < ROUNDS; i++) {
		while (__atomic_load_n(&pg->go, __ATOMIC_ACQUIRE) <= i)
			;
		kfdsig_kfd_event_set(pg->kfd, pg->id);
	}
	return NULL;
}

static double bench_set_wake(struct kfdsig_kfd *kfd, uint32_t id)
{
	struct pinger pg = { .kfd = kfd, .id = id };
	enum kfdsig_wait_result res;
	pthread_t t;
	double t0;

	pthread_create(&t, NULL, setter, &pg);
	t0 = now_us();
	for (int i = 0; i < ROUNDS; i++) {
		struct kfdsig_wait_entry e = { .event_id = id };
		__atomic_store_n(&pg.go, i + 1, __ATOMIC_RELEASE);
		kfdsig_kfd_wait(kfd, &e, 1, false, KFDSIG_WAIT_INFINITE, &res);
	}
	pthread_join(t, NULL);
	return (now_us() - t0) / ROUNDS;
}

static double bench_irq(struct kfdsig_emu *emu, int pasid, struct kfdsig_event *ev,
			uint32_t partial)
{
	double t0 = now_us();

	for (int i = 0; i < ROUNDS; i++) {
		*ev->slot = ev->id;
		kfdsig_emu_signal_event_interrupt(emu, pasid, partial, 32);
	}
	return (now_us() - t0) / ROUNDS;
}

static double bench_queue(struct kfdsig_kfd *kfd, const struct kfdsig_target *t, uint32_t gpu,
			  int engine, struct kfdsig_event *ev, uint64_t page_va)
{
	struct kfdsig_kfd_queue *q = NULL;
	const struct kfdsig_kfd_bo *code = NULL;
	enum kfdsig_wait_result res;
	uint32_t d[64];
	uint64_t age = 1;
	double t0, total = 0;
	int n = 0;

	if (kfdsig_kfd_queue_create(kfd, gpu, engine == 1 ? KFDSIG_QUEUE_SDMA : KFDSIG_QUEUE_PM4,
				    NULL, &q) < 0)
		return -1;
	if (engine == 2 &&
	    (kfdsig_kfd_alloc(kfd, gpu, 65536, KFDSIG_KFD_MEM_GTT_UNCACHED, &code) < 0 ||
	     kfdsig_kfd_map(kfd, code, NULL, 0) < 0))
		return -1;
	KFDSIG_OPTS(kfdsig_code_buf, cb, .form = KFDSIG_SHADER_RAW);
	struct kfdsig_fence f = { .slot_va = page_va + 8ull * ev->id, .event_id = ev->id };
	if (code) {
		cb.cpu = code->cpu;
		cb.va = code->va;
		cb.size = code->size;
	}
	n = kfdsig_emit_signal(t,
			       engine == 2 ? KFDSIG_SIGNAL_SHADER
			       : engine	   ? KFDSIG_SIGNAL_SDMA
					   : KFDSIG_SIGNAL_PM4,
			       &f, code ? &cb : NULL, d, 64);
	for (int i = 0; i < ROUNDS / 4 && n > 0; i++) {
		struct kfdsig_wait_entry e = { .event_id = ev->id, .age = age };
		t0 = now_us();
		kfdsig_kfd_queue_submit(q, d, (uint32_t)n, 1000);
		kfdsig_kfd_wait(kfd, &e, 1, false, 1000, &res);
		total += now_us() - t0;
		age = e.age;
	}
	kfdsig_kfd_queue_destroy(q);
	return total / (ROUNDS / 4);
}

int main(void)
{
	struct kfdsig_emu *emu = kfdsig_emu_create_from_spec("gfx90a");
	struct kfdsig_kfd *kfd = NULL;
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
	struct kfdsig_event ev, last;
	uint64_t page_va = 0;
	double fast, scan;
	int pasid;

	if (!emu || kfdsig_kfd_open(kfdsig_emu_ops(emu), &kfd) < 0) {
		fprintf(stderr, "kfd_signal_latency: %s\n", kfdsig_last_error());
		return 1;
	}
	pasid = kfdsig_emu_pasid(emu, kfdsig_kfd_fd(kfd));
	kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, true, &ev);
	kfdsig_kfd_signal_page(kfd, NULL, &page_va);
	printf("emulated KFD (gfx90a), through the backend, %d rounds\n", ROUNDS);
	printf("  SET_EVENT -> WAIT_EVENTS wake (2 threads): %8.2f us\n",
	       bench_set_wake(kfd, ev.id));
	fast = bench_irq(emu, pasid, &ev, ev.id);
	for (int i = 0; i < 4094; i++)
		kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, true, &last);
	scan = bench_irq(emu, pasid, &ev, 0xdead0000u);
	printf("  interrupt, right id (fast path):           %8.3f us\n", fast);
	printf("  interrupt, wrong id, 4095 events (scan):   %8.3f us  (%.0fx the fast path)\n",
	       scan, scan / fast);
	printf("  fence -> wake, PM4 queue:                  %8.2f us\n",
	       bench_queue(kfd, t, kfdsig_kfd_device(kfd, 0)->gpu_id, 0, &ev, page_va));
	printf("  fence -> wake, SDMA queue:                 %8.2f us\n",
	       bench_queue(kfd, t, kfdsig_kfd_device(kfd, 0)->gpu_id, 1, &ev, page_va));
	printf("  shader stub -> wake, PM4 dispatch:         %8.2f us\n",
	       bench_queue(kfd, t, kfdsig_kfd_device(kfd, 0)->gpu_id, 2, &ev, page_va));
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	return 0;
}
