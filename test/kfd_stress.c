/* SPDX-License-Identifier: MIT */
/*
 * Bounded stress of the emulated KFD's wake-up paths: 8 threads,
 * each with its own 8 events (auto- and manual-reset), wait on random
 * subsets (any or all, with and without event age) while one signaller
 * thread signals them through SET_EVENT, the interrupt entry
 * (kfdsig_emu_interrupt after writing the slot, as a GPU does), a PM4
 * queue (RELEASE_MEM) and an SDMA queue (FENCE + TRAP).
 *
 * Every wait must complete after its signals (0 spurious: a wait that
 * returns before the signaller has signalled what it needs), within a
 * per-wait latency bound far below its timeout (0 lost: a lost wake-up is
 * found only by the timeout's last check, so it shows as a late wait or a
 * TIMEOUT, never hidden by it), with the slot acknowledged by the
 * interrupt handler.
 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

#define THREADS 8
#define EVENTS 8
#define ROUNDS 400
#define WAIT_MS 5000	      /* a wait longer than this is a lost wake-up */
#define LATENCY_BOUND_MS 1000 /* signal -> wake, per wait */

enum src { SRC_SET, SRC_IRQ, SRC_PM4, SRC_SDMA, NSRC };

struct req {
	uint32_t ids[EVENTS];
	uint32_t n;
	enum src src;
	int pending; /* 1: posted, 0: taken */
};

struct worker {
	int idx;
	struct kfdsig_event ev[EVENTS];
	uint64_t age[EVENTS];
	struct req req;
	int signalled; /* signals of this round begun (before the signal) */
	int done;      /* and finished */
	int64_t t_signal_ns;
	int lost, spurious, slow, errors;
	int64_t worst_ns;
	unsigned seed;
};

static struct kfdsig_emu *emu;
static struct kfdsig_kfd *kfd;
static const struct kfdsig_target *tgt;
static uint32_t gpu;
static int pasid;
static struct kfdsig_kfd_queue *pm4q, *sdmaq;
static struct worker workers[THREADS];
static pthread_mutex_t req_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t req_cond = PTHREAD_COND_INITIALIZER;
static int active;

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int signal_one(enum src s, const struct kfdsig_event *ev)
{
	uint32_t d[KFDSIG_PM4_FENCE_MAX_DW + KFDSIG_SDMA_FENCE_MAX_DW];
	struct kfdsig_fence f = { .slot_va = ev->slot_va, .event_id = ev->id };
	int n;

	switch (s) {
	case SRC_SET:
		return kfdsig_kfd_event_set(kfd, ev->id);
	case SRC_IRQ:
		/* the GPU writes the slot, then raises the interrupt */
		__atomic_store_n(ev->slot, ev->id, __ATOMIC_RELEASE);
		return kfdsig_emu_interrupt(emu, pasid, gpu, KFDSIG_EMU_IRQ_CP_EOP, ev->id) == 1
			       ? 0
			       : -EIO;
	case SRC_PM4:
		n = kfdsig_pm4_emit_fence(tgt, &f, d, KFDSIG_PM4_FENCE_MAX_DW);
		return n < 0 ? n : kfdsig_kfd_queue_submit(pm4q, d, (uint32_t)n, WAIT_MS);
	default:
		n = kfdsig_sdma_emit_fence(tgt, &f, d, KFDSIG_SDMA_FENCE_MAX_DW);
		return n < 0 ? n : kfdsig_kfd_queue_submit(sdmaq, d, (uint32_t)n, WAIT_MS);
	}
}

/* The signaller: takes posted requests and signals their events. */
static void *signaller(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&req_lock);
	for (;;) {
		struct worker *w = NULL;
		struct req r;

		for (int i = 0; i < THREADS && !w; i++)
			if (workers[i].req.pending)
				w = &workers[i];
		if (!w) {
			if (!active)
				break;
			pthread_cond_wait(&req_cond, &req_lock);
			continue;
		}
		r = w->req;
		w->req.pending = 0;
		pthread_mutex_unlock(&req_lock);
		if (rand_r(&w->seed) % 2)
			usleep(rand_r(&w->seed) % 200); /* let the waiter sleep first */
		__atomic_store_n(&w->t_signal_ns, now_ns(), __ATOMIC_RELEASE);
		for (uint32_t i = 0; i < r.n; i++) {
			__atomic_fetch_add(&w->signalled, 1, __ATOMIC_RELEASE);
			if (signal_one(r.src, &w->ev[r.ids[i]]))
				__atomic_fetch_add(&w->errors, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&w->done, 1, __ATOMIC_RELEASE);
		}
		pthread_mutex_lock(&req_lock);
	}
	pthread_mutex_unlock(&req_lock);
	return NULL;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	for (int round = 0; round < ROUNDS; round++) {
		struct kfdsig_wait_entry e[EVENTS];
		bool all = rand_r(&w->seed) % 2, use_age = rand_r(&w->seed) % 2;
		uint32_t n = 1 + rand_r(&w->seed) % 3, nsig, need;
		enum kfdsig_wait_result res;
		int rc, got;
		int64_t lat;

		/* n distinct events of this worker */
		for (uint32_t i = 0; i < n; i++) {
			uint32_t k;
			bool dup;
			do {
				k = rand_r(&w->seed) % EVENTS;
				dup = false;
				for (uint32_t j = 0; j < i; j++)
					dup |= w->req.ids[j] == k;
			} while (dup);
			w->req.ids[i] = k;
			e[i] = (struct kfdsig_wait_entry){ .event_id = w->ev[k].id,
							   .age = use_age ? w->age[k] : 0 };
		}
		/* wait-any: one of them is signalled; wait-all: every one */
		nsig = all ? n : 1;
		need = nsig;
		__atomic_store_n(&w->signalled, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&w->done, 0, __ATOMIC_RELEASE);
		pthread_mutex_lock(&req_lock);
		if (!all) {
			uint32_t pick = rand_r(&w->seed) % n, t = w->req.ids[0];
			struct kfdsig_wait_entry te = e[0];
			w->req.ids[0] = w->req.ids[pick];
			w->req.ids[pick] = t;
			e[0] = e[pick];
			e[pick] = te;
		}
		w->req.n = nsig;
		w->req.src = (enum src)(rand_r(&w->seed) % NSRC);
		w->req.pending = 1;
		pthread_cond_signal(&req_cond);
		pthread_mutex_unlock(&req_lock);

		rc = kfdsig_kfd_wait(kfd, e, n, all, WAIT_MS, &res);
		got = __atomic_load_n(&w->signalled, __ATOMIC_ACQUIRE);
		lat = now_ns() - __atomic_load_n(&w->t_signal_ns, __ATOMIC_ACQUIRE);
		if (rc == 0 && res == KFDSIG_WAIT_TIMEOUT) {
			w->lost++;
		} else if (rc || res != KFDSIG_WAIT_COMPLETE) {
			{
				w->errors++;
				fprintf(stderr, "wait rc %d res %d\n", rc, res);
			}
		} else if (all ? got < (int)need : got < 1) {
			w->spurious++; /* woke before its signal(s) */
		} else {
			if (lat > w->worst_ns)
				w->worst_ns = lat;
			if (lat > (int64_t)LATENCY_BOUND_MS * 1000000)
				w->slow++;
		}
		/* wait for the signaller to finish this round */
		for (int i = 0;
		     i < 100000 && __atomic_load_n(&w->done, __ATOMIC_ACQUIRE) < (int)nsig; i++)
			usleep(50);
		/* each signal moved its event's age by one; an age wait
		 * returned the same; manual-reset events are reset */
		for (uint32_t i = 0; i < nsig; i++)
			w->age[w->req.ids[i]]++;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t k = w->req.ids[i];
			if (use_age && e[i].age != w->age[k] && rc == 0) {
				w->errors++;
				fprintf(stderr, "age %llu want %llu\n",
					(unsigned long long)e[i].age,
					(unsigned long long)w->age[k]);
			}
			if (!w->ev[k].auto_reset)
				kfdsig_kfd_event_reset(kfd, w->ev[k].id);
		}
		/* every GPU path acknowledged its slot (the ISR writes it
		 * back to all ones before setting the event) */
		if (w->req.src != SRC_SET)
			for (uint32_t i = 0; i < nsig; i++)
				if (__atomic_load_n(w->ev[w->req.ids[i]].slot, __ATOMIC_ACQUIRE) !=
				    UINT64_MAX) {
					w->errors++;
					fprintf(stderr, "slot src %d\n", w->req.src);
				}
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS], sig;
	int lost = 0, spurious = 0, slow = 0, errors = 0;
	int64_t worst = 0;
	int64_t t0 = now_ns();

	emu = t_emu("gfx90a");
	kfd = t_open(emu);
	gpu = t_gpu(kfd, 0);
	pasid = t_pasid(emu, kfd);
	tgt = kfdsig_kfd_device(kfd, 0)->target;
	T_REQUIRE(!kfdsig_kfd_acquire_vm(kfd, gpu), "vm");
	for (int i = 0; i < THREADS; i++) {
		workers[i].idx = i;
		workers[i].seed = 0x1600u + (unsigned)i;
		for (int k = 0; k < EVENTS; k++) {
			workers[i].ev[k] = t_event(kfd, KFDSIG_EVENT_SIGNAL, (i + k) % 2);
			workers[i].age[k] = 1;
		}
	}
	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, NULL, &pm4q), "pm4 queue");
	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_SDMA, NULL, &sdmaq),
		  "sdma queue");
	active = 1;
	T_REQUIRE(!pthread_create(&sig, NULL, signaller, NULL), "signaller");
	for (int i = 0; i < THREADS; i++)
		T_REQUIRE(!pthread_create(&t[i], NULL, worker_main, &workers[i]), "worker");
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	pthread_mutex_lock(&req_lock);
	active = 0;
	pthread_cond_signal(&req_cond);
	pthread_mutex_unlock(&req_lock);
	pthread_join(sig, NULL);
	for (int i = 0; i < THREADS; i++) {
		lost += workers[i].lost;
		spurious += workers[i].spurious;
		slow += workers[i].slow;
		errors += workers[i].errors;
		if (workers[i].worst_ns > worst)
			worst = workers[i].worst_ns;
	}
	printf("kfd_stress: %d threads x %d rounds in %.2f s: lost %d, spurious %d, over %d ms "
	       "%d, errors %d, worst signal->wake %.3f ms\n",
	       THREADS, ROUNDS, (double)(now_ns() - t0) / 1e9, lost, spurious, LATENCY_BOUND_MS,
	       slow, errors, (double)worst / 1e6);
	CHECK_EQ(lost, 0, "no lost wake-up");
	CHECK_EQ(spurious, 0, "no spurious wake-up");
	CHECK_EQ(slow, 0, "every wait within %d ms of its signal", LATENCY_BOUND_MS);
	CHECK_EQ(errors, 0, "no failed signal or wait, slots acknowledged");
	kfdsig_kfd_queue_destroy(pm4q);
	kfdsig_kfd_queue_destroy(sdmaq);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	return t_result("kfd_stress");
}
