/* SPDX-License-Identifier: MIT */
/*
 * Signal -> wake latency on the emulated KFD against the floor of this
 * machine, measured in the same run: a futex ping-pong (one thread
 * FUTEX_WAKEs another sleeping in FUTEX_WAIT). For each signal path:
 *   SET_EVENT       kfdsig_kfd_event_set() from another thread
 *   interrupt       the slot written, then kfdsig_emu_interrupt() (CP EOP)
 *   PM4 fence       RELEASE_MEM submitted to a PM4 queue
 *   SDMA fence      FENCE + TRAP submitted to an SDMA queue
 * with 1 and with 8 threads each sleeping on its own event (or futex); the
 * signaller wakes one of them per round, round robin, once it sleeps.
 * Latency = the woken thread's return from WAIT_EVENTS minus the time just
 * before the signal call. Prints p50/p99 in us and as ratios to the futex
 * floor; the goals: p50 <= 1.5x the floor for the wake paths, <= 3x
 * for fences, no growth with the number of other waiters. The rows are
 * measured in interleaved blocks, so that the load of a shared machine
 * falls on the floor and the paths alike. Never a pass/fail.
 *
 *   bench_kfd_wake_latency [ROUNDS]   (default 2000 per row)
 */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <kfdsig/kfdsig.h>

#define MAX_WAITERS 8
#define SETTLE_US 40 /* let the target fall asleep before signalling */
#define BLOCKS 10

enum path { P_FUTEX, P_SET, P_IRQ, P_PM4, P_SDMA, NPATH };
static const char *const path_name[NPATH] = { "futex (floor)", "SET_EVENT", "interrupt",
					      "PM4 fence", "SDMA fence" };

static struct kfdsig_emu *emu;
static struct kfdsig_kfd *kfd;
static const struct kfdsig_target *tgt;
static uint32_t gpu;
static int pasid;
static struct kfdsig_kfd_queue *pm4q, *sdmaq;
static int rounds = 2000;

struct waiter {
	pthread_t t;
	enum path path;
	struct kfdsig_event ev;
	uint32_t futex;
	int64_t woke_ns;
	int wakes; /* completed waits */
	volatile int stop;
};

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *waiter_main(void *p)
{
	struct waiter *w = p;

	while (!w->stop) {
		if (w->path == P_FUTEX) {
			while (!__atomic_load_n(&w->futex, __ATOMIC_ACQUIRE))
				syscall(SYS_futex, &w->futex, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
			__atomic_store_n(&w->futex, 0, __ATOMIC_RELAXED);
		} else {
			struct kfdsig_wait_entry e = { .event_id = w->ev.id };
			enum kfdsig_wait_result res;
			kfdsig_kfd_wait(kfd, &e, 1, false, KFDSIG_WAIT_INFINITE, &res);
		}
		__atomic_store_n(&w->woke_ns, now_ns(), __ATOMIC_RELAXED);
		__atomic_fetch_add(&w->wakes, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void signal_waiter(struct waiter *w)
{
	uint32_t d[64];
	struct kfdsig_fence f = { .slot_va = w->ev.slot_va, .event_id = w->ev.id };
	int n;

	switch (w->path) {
	case P_FUTEX:
		__atomic_store_n(&w->futex, 1, __ATOMIC_RELEASE);
		syscall(SYS_futex, &w->futex, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		break;
	case P_SET:
		kfdsig_kfd_event_set(kfd, w->ev.id);
		break;
	case P_IRQ:
		__atomic_store_n(w->ev.slot, w->ev.id, __ATOMIC_RELEASE);
		kfdsig_emu_interrupt(emu, pasid, gpu, KFDSIG_EMU_IRQ_CP_EOP, w->ev.id);
		break;
	case P_PM4:
		n = kfdsig_pm4_emit_fence(tgt, &f, d, 64);
		if (n > 0)
			kfdsig_kfd_queue_submit(pm4q, d, (uint32_t)n, 1000);
		break;
	default:
		n = kfdsig_sdma_emit_fence(tgt, &f, d, 64);
		if (n > 0)
			kfdsig_kfd_queue_submit(sdmaq, d, (uint32_t)n, 1000);
		break;
	}
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

struct fig {
	double p50, p99;
	int lost;
};

/* @count rounds of @path with @nwaiters sleepers, latencies into @lat. */
static int run_block(enum path path, int nwaiters, struct waiter *ws, int64_t *lat, int count)
{
	int lost = 0;

	for (int i = 0; i < nwaiters; i++) {
		ws[i].path = path;
		ws[i].stop = 0;
		ws[i].wakes = 0;
		pthread_create(&ws[i].t, NULL, waiter_main, &ws[i]);
	}
	for (int r = 0; r < count; r++) {
		struct waiter *w = &ws[r % nwaiters];
		int before = __atomic_load_n(&w->wakes, __ATOMIC_ACQUIRE);
		int64_t t0, spin_end;

		usleep(SETTLE_US);
		t0 = now_ns();
		signal_waiter(w);
		/* The signaller spins, so that the wake-up is measured the same
		 * way on every row: the waiter sleeps on the other CPU. */
		spin_end = t0 + 1000000000;
		while (__atomic_load_n(&w->wakes, __ATOMIC_ACQUIRE) == before &&
		       now_ns() < spin_end)
			;
		if (__atomic_load_n(&w->wakes, __ATOMIC_ACQUIRE) == before) {
			lost++;
			lat[r] = 1000000000;
			continue;
		}
		lat[r] = __atomic_load_n(&w->woke_ns, __ATOMIC_RELAXED) - t0;
	}
	for (int i = 0; i < nwaiters; i++) {
		/* the waiter may see stop before it waits again: then the
		 * signal is left pending, and is cleared for the next block */
		ws[i].stop = 1;
		signal_waiter(&ws[i]);
		pthread_join(ws[i].t, NULL);
		if (path == P_PM4 || path == P_SDMA)
			kfdsig_kfd_queue_wait_idle(path == P_PM4 ? pm4q : sdmaq, 1000);
		kfdsig_kfd_event_reset(kfd, ws[i].ev.id);
		__atomic_store_n(&ws[i].futex, 0, __ATOMIC_RELAXED);
	}
	return lost;
}

static struct fig summarise(int64_t *lat, int lost)
{
	struct fig fg = { .lost = lost };

	qsort(lat, (size_t)rounds, sizeof(*lat), cmp64);
	fg.p50 = (double)lat[rounds / 2] / 1e3;
	fg.p99 = (double)lat[rounds * 99 / 100] / 1e3;
	return fg;
}

int main(int argc, char **argv)
{
	struct waiter ws[MAX_WAITERS];
	struct fig fig[NPATH][2];
	static const int nw[2] = { 1, MAX_WAITERS };

	if (argc > 1)
		rounds = atoi(argv[1]) > 100 ? atoi(argv[1]) : 100;
	emu = kfdsig_emu_create_from_spec("gfx90a");
	if (!emu || kfdsig_kfd_open(kfdsig_emu_ops(emu), &kfd) < 0) {
		fprintf(stderr, "kfd_wake_latency: %s\n", kfdsig_last_error());
		return 1;
	}
	gpu = kfdsig_kfd_device(kfd, 0)->gpu_id;
	tgt = kfdsig_kfd_device(kfd, 0)->target;
	pasid = kfdsig_emu_pasid(emu, kfdsig_kfd_fd(kfd));
	memset(ws, 0, sizeof(ws));
	for (int i = 0; i < MAX_WAITERS; i++)
		if (kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, true, &ws[i].ev) < 0) {
			fprintf(stderr, "kfd_wake_latency: %s\n", kfdsig_last_error());
			return 1;
		}
	if (kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, NULL, &pm4q) < 0 ||
	    kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_SDMA, NULL, &sdmaq) < 0) {
		fprintf(stderr, "kfd_wake_latency: %s\n", kfdsig_last_error());
		return 1;
	}
	/* Interleaved: BLOCKS passes over every row, so that a busy moment
	 * of the machine falls on the floor and on the paths alike. */
	{
		static int64_t *lat[NPATH][2];
		static int lost[NPATH][2];
		int per = rounds / BLOCKS;

		rounds = per * BLOCKS;
		for (int p = 0; p < NPATH; p++)
			for (int k = 0; k < 2; k++)
				lat[p][k] = calloc((size_t)rounds, sizeof(int64_t));
		for (int b = 0; b < BLOCKS; b++)
			for (int p = 0; p < NPATH; p++)
				for (int k = 0; k < 2; k++)
					lost[p][k] += run_block((enum path)p, nw[k], ws,
								lat[p][k] + b * per, per);
		for (int p = 0; p < NPATH; p++)
			for (int k = 0; k < 2; k++) {
				fig[p][k] = summarise(lat[p][k], lost[p][k]);
				free(lat[p][k]);
			}
	}
	printf("signal -> wake on the emulated KFD (gfx90a), %d rounds per row, %d us settle\n",
	       rounds, SETTLE_US);
	printf("%-14s %8s %8s %7s %7s | %8s %8s %7s %7s | %s\n", "path", "1w p50", "p99", "x50",
	       "x99", "8w p50", "p99", "x50", "x99", "8w/1w p50");
	for (int p = 0; p < NPATH; p++) {
		printf("%-14s", path_name[p]);
		for (int k = 0; k < 2; k++)
			printf(" %8.2f %8.2f %6.2fx %6.2fx |", fig[p][k].p50, fig[p][k].p99,
			       fig[p][k].p50 / fig[P_FUTEX][k].p50,
			       fig[p][k].p99 / fig[P_FUTEX][k].p99);
		printf(" %5.2fx", fig[p][1].p50 / fig[p][0].p50);
		if (fig[p][0].lost || fig[p][1].lost)
			printf("  (%d/%d lost)", fig[p][0].lost, fig[p][1].lost);
		printf("\n");
	}
	printf("goals: p50 <= 1.5x the floor for SET_EVENT/interrupt, <= 3x for "
	       "fences, 8w/1w ~ 1\n");
	kfdsig_kfd_queue_destroy(pm4q);
	kfdsig_kfd_queue_destroy(sdmaq);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	return 0;
}
