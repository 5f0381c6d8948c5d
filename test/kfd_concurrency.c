/* SPDX-License-Identifier: MIT */
/*
 * Many threads waiting and signalling at once, through the backend against
 * the emulated KFD. Lost wake-ups show up as timeouts (a waiter sleeps
 * although its event advanced) or as a final event age short of the number
 * of signals; spurious ones as a COMPLETE whose age did not advance or as
 * an idle event that fired.
 *
 * Every signal advances the event age by exactly one (set_event), so with
 * a signaller that waits for its slot to be acknowledged before writing it
 * again, the final age is 1 + the number of signals.
 *
 * Each wait's wake-up latency (from the first signal after the wait began
 * to its return) is measured and bounded (LAT_P99_MS, LAT_MAX_MS, far below
 * the 5 s timeout): a lost wake-up rescued by the waiter's timeout fails
 * instead of only making the test slower. The bound is on the latency, not
 * on how waiters are woken.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "kfd_util.h"

#define NEV 24 /* events, one waiter each */
#define K 200  /* signals per signaller */
#define WAIT_MS 5000
/* Wake-up latency bounds on the emulator (a lost wake-up costs WAIT_MS). */
#define LAT_P99_MS 100.0 /* over >= 100 wake-ups; loaded 2-core CI */
#define LAT_MAX_MS 1000.0

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Latencies of one test, in ns. */
struct lat {
	pthread_mutex_t lock;
	uint64_t *v;
	size_t n, cap;
};

static void lat_add(struct lat *l, uint64_t ns)
{
	pthread_mutex_lock(&l->lock);
	if (l->n < l->cap)
		l->v[l->n++] = ns;
	pthread_mutex_unlock(&l->lock);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Check p99 and max of the test's wake-up latencies and free them. */
static void lat_check(struct lat *l, const char *what)
{
	double p99, max;

	CHECK(l->n > 0, "%s: no wake-up measured", what);
	if (l->n) {
		qsort(l->v, l->n, sizeof(l->v[0]), cmp_u64);
		p99 = (double)l->v[(l->n * 99) / 100 - (l->n >= 100 ? 1 : 0)] / 1e6;
		max = (double)l->v[l->n - 1] / 1e6;
		fprintf(stderr, "%s: %zu wake-ups, latency p99 %.3f ms, max %.3f ms\n", what, l->n,
			p99, max);
		CHECK(l->n < 100 || p99 < LAT_P99_MS,
		      "%s: wake-up latency p99 %.3f ms (bound %.0f ms)", what, p99, LAT_P99_MS);
		CHECK(max < LAT_MAX_MS,
		      "%s: wake-up latency max %.3f ms (bound %.0f ms): a lost wake-up?", what, max,
		      LAT_MAX_MS);
	}
	free(l->v);
	pthread_mutex_destroy(&l->lock);
}

static void lat_init(struct lat *l, size_t cap)
{
	pthread_mutex_init(&l->lock, NULL);
	l->v = calloc(cap, sizeof(*l->v));
	T_REQUIRE(l->v, "latencies");
	l->n = 0;
	l->cap = cap;
}

/* When each signal of an event started (both signallers append). */
struct sig_log {
	uint64_t ns[2 * K];
	unsigned n;
};

struct ctx {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	int pasid;
	struct kfdsig_event ev[NEV], idle;
	struct sig_log log[NEV];
	struct lat lat;
};

static void log_signal(struct sig_log *g)
{
	unsigned i = __atomic_fetch_add(&g->n, 1, __ATOMIC_ACQ_REL);

	if (i < 2 * K)
		__atomic_store_n(&g->ns[i], now_ns(), __ATOMIC_RELEASE);
}

/* The first signal that started at or after t0, 0 if none is logged yet. */
static uint64_t first_signal_since(struct sig_log *g, uint64_t t0)
{
	unsigned n = __atomic_load_n(&g->n, __ATOMIC_ACQUIRE);
	uint64_t best = 0;

	for (unsigned i = 0; i < n && i < 2 * K; i++) {
		uint64_t t = __atomic_load_n(&g->ns[i], __ATOMIC_ACQUIRE);

		if (t >= t0 && (!best || t < best))
			best = t;
	}
	return best;
}

struct per_event {
	struct ctx *c;
	int i;
	/* results, read by main after join */
	int timeouts, errors, non_advancing, idle_fired, completes;
	uint64_t final_age;
};

static void *waiter(void *p)
{
	struct per_event *pe = p;
	struct ctx *c = pe->c;
	uint64_t age = 1;

	/* Manual-reset events stay signalled: reset after each wake-up; a
	 * signal racing with the reset still shows as a newer age. */
	while (age < 1 + 2 * K) {
		struct kfdsig_wait_entry e[2] = {
			{ .event_id = c->ev[pe->i].id, .age = age },
			{ .event_id = c->idle.id, .age = 1 },
		};
		enum kfdsig_wait_result res;
		uint64_t t0 = now_ns(), t1, ts;
		int r = kfdsig_kfd_wait(c->kfd, e, 2, false, WAIT_MS, &res);

		t1 = now_ns();
		ts = first_signal_since(&c->log[pe->i], t0);
		if (ts && ts < t1)
			lat_add(&c->lat, t1 - ts);
		if (r < 0) {
			pe->errors++;
			break;
		}
		if (res == KFDSIG_WAIT_TIMEOUT) {
			pe->timeouts++;
			break;
		}
		pe->completes++;
		if (e[1].fired)
			pe->idle_fired++;
		if (!e[0].fired || e[0].age <= age)
			pe->non_advancing++;
		age = e[0].age;
		if (!c->ev[pe->i].auto_reset && kfdsig_kfd_event_reset(c->kfd, e[0].event_id) < 0)
			pe->errors++;
	}
	pe->final_age = age;
	return NULL;
}

/* The GPU way: write the slot, raise the interrupt; every fourth one with
 * a context id that names nothing, so the exhaustive scan (racing with the
 * other signallers' scans) has to find it. */
static void *gpu_signaller(void *p)
{
	struct per_event *pe = p;
	struct ctx *c = pe->c;
	struct kfdsig_event *ev = &c->ev[pe->i];

	for (int k = 0; k < K; k++) {
		uint32_t id = (k % 4 == 3) ? 0xdead0000u : ev->id;

		__atomic_store_n(ev->slot, (uint64_t)ev->id, __ATOMIC_RELEASE);
		log_signal(&c->log[pe->i]);
		if (kfdsig_emu_signal_event_interrupt(c->emu, c->pasid, id, 32) < 0)
			pe->errors++;
		/* acknowledged by our interrupt or by someone's scan */
		while (__atomic_load_n(ev->slot, __ATOMIC_ACQUIRE) != UINT64_MAX)
			sched_yield();
		if (k % 16 == 0)
			usleep(50);
	}
	return NULL;
}

static void *cpu_signaller(void *p)
{
	struct per_event *pe = p;
	struct ctx *c = pe->c;

	for (int k = 0; k < K; k++) {
		log_signal(&c->log[pe->i]);
		if (kfdsig_kfd_event_set(c->kfd, c->ev[pe->i].id) < 0)
			pe->errors++;
		if (k % 8 == 0)
			sched_yield();
	}
	return NULL;
}

static void test_ping_pong(bool auto_reset)
{
	static struct ctx c;
	struct per_event pe[NEV], sg[NEV], sc[NEV];
	pthread_t tw[NEV], tg[NEV], tc[NEV];
	enum kfdsig_wait_result res;
	uint64_t age = 1;
	int bad = 0;

	memset(&c, 0, sizeof(c));
	lat_init(&c.lat, NEV * 2 * K);
	c.emu = t_emu("gfx90a,gfx1100");
	c.kfd = t_open(c.emu);
	c.pasid = t_pasid(c.emu, c.kfd);
	for (int i = 0; i < NEV; i++)
		c.ev[i] = t_event(c.kfd, KFDSIG_EVENT_SIGNAL, auto_reset);
	c.idle = t_event(c.kfd, KFDSIG_EVENT_SIGNAL, auto_reset);
	for (int i = 0; i < NEV; i++) {
		pe[i] = (struct per_event){ .c = &c, .i = i };
		sg[i] = pe[i];
		sc[i] = pe[i];
		pthread_create(&tw[i], NULL, waiter, &pe[i]);
	}
	for (int i = 0; i < NEV; i++) {
		pthread_create(&tg[i], NULL, gpu_signaller, &sg[i]);
		pthread_create(&tc[i], NULL, cpu_signaller, &sc[i]);
	}
	for (int i = 0; i < NEV; i++) {
		pthread_join(tg[i], NULL);
		pthread_join(tc[i], NULL);
		pthread_join(tw[i], NULL);
	}
	for (int i = 0; i < NEV; i++) {
		bad += pe[i].timeouts + pe[i].errors + sg[i].errors + sc[i].errors;
		CHECK_EQ(pe[i].timeouts, 0, "event %d: lost wake-up (waiter timed out)", i);
		CHECK_EQ(pe[i].errors + sg[i].errors + sc[i].errors, 0, "event %d: errors", i);
		CHECK_EQ(pe[i].non_advancing, 0, "event %d: spurious COMPLETE", i);
		CHECK_EQ(pe[i].idle_fired, 0, "event %d: idle event fired", i);
		CHECK_EQ(pe[i].final_age, 1 + 2 * K, "event %d: every signal counted", i);
		CHECK(pe[i].completes >= 1 && pe[i].completes <= 2 * K, "event %d: wakes", i);
	}
	/* the idle event never advanced */
	CHECK(t_wait1(c.kfd, c.idle.id, &age, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "idle event untouched");
	if (bad)
		fprintf(stderr, "ping-pong (%s reset): %d failures\n",
			auto_reset ? "auto" : "manual", bad);
	lat_check(&c.lat, auto_reset ? "ping-pong (auto reset)" : "ping-pong (manual reset)");
	kfdsig_kfd_close(c.kfd);
	kfdsig_emu_destroy(c.emu);
}

/* Many waiters on one manual-reset event: one set wakes them all. */
#define NW 32
struct one {
	struct kfdsig_kfd *kfd;
	uint32_t id;
	int ret;
	enum kfdsig_wait_result res;
	int *ready;
	uint64_t woke_ns;
};

static void *wait_one(void *p)
{
	struct one *o = p;
	enum kfdsig_wait_result res;

	__atomic_fetch_add(o->ready, 1, __ATOMIC_ACQ_REL);
	o->ret = t_wait1(o->kfd, o->id, NULL, WAIT_MS, &res);
	o->woke_ns = now_ns();
	o->res = res;
	return NULL;
}

static void test_broadcast(bool auto_reset)
{
	struct kfdsig_emu *emu = t_emu("gfx1201");
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_event ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, auto_reset);
	enum kfdsig_wait_result res;
	struct one o[NW];
	pthread_t t[NW];
	int ready = 0, woke = 0;
	struct lat lat;
	uint64_t ts;

	lat_init(&lat, NW);

	for (int i = 0; i < NW; i++) {
		o[i] = (struct one){ .kfd = kfd, .id = ev.id, .ready = &ready };
		pthread_create(&t[i], NULL, wait_one, &o[i]);
	}
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < NW)
		usleep(1000);
	usleep(20000);
	*ev.slot = ev.id;
	ts = now_ns();
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(emu, t_pasid(emu, kfd), ev.id, 32), 1, "irq");
	for (int i = 0; i < NW; i++) {
		pthread_join(t[i], NULL);
		woke += o[i].ret == 0 && o[i].res == KFDSIG_WAIT_COMPLETE;
		lat_add(&lat, o[i].woke_ns - ts);
	}
	lat_check(&lat, auto_reset ? "broadcast (auto reset)" : "broadcast (manual reset)");
	/* set_event marks every queued waiter (wake_up_all), auto-reset or
	 * not; an auto-reset event is then consumed, not latched */
	CHECK_EQ(woke, NW, "one interrupt wakes every waiter (%s reset)",
		 auto_reset ? "auto" : "manual");
	CHECK(t_wait1(kfd, ev.id, NULL, 0, &res) == 0 &&
		      res == (auto_reset ? KFDSIG_WAIT_TIMEOUT : KFDSIG_WAIT_COMPLETE),
	      "afterwards: %s", auto_reset ? "consumed" : "still signalled");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

/* wait-all over events signalled from different threads, many rounds */
#define NALL 8
#define ROUNDS 100
struct all_ctx {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	int pasid;
	struct kfdsig_event ev[NALL];
	pthread_barrier_t start;
	int errors;
	uint64_t sig_ns[ROUNDS][NALL]; /* when each signal of a round started */
};

struct all_sig {
	struct all_ctx *c;
	int i;
};

static void *all_signaller(void *p)
{
	struct all_sig *s = p;
	struct kfdsig_event *ev = &s->c->ev[s->i];

	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&s->c->start);
		__atomic_store_n(&s->c->sig_ns[r][s->i], now_ns(), __ATOMIC_RELEASE);
		if (s->i % 2) {
			__atomic_store_n(ev->slot, 1, __ATOMIC_RELEASE);
			if (kfdsig_emu_signal_event_interrupt(s->c->emu, s->c->pasid, ev->id, 28) <
			    0)
				__atomic_fetch_add(&s->c->errors, 1, __ATOMIC_RELAXED);
		} else if (kfdsig_kfd_event_set(s->c->kfd, ev->id) < 0) {
			__atomic_fetch_add(&s->c->errors, 1, __ATOMIC_RELAXED);
		}
	}
	return NULL;
}

static void test_wait_all(void)
{
	static struct all_ctx c;
	struct all_sig s[NALL];
	pthread_t t[NALL];
	int complete = 0;
	struct lat lat;

	memset(&c, 0, sizeof(c));
	lat_init(&lat, ROUNDS);
	c.emu = t_emu("gfx942");
	c.kfd = t_open(c.emu);
	c.pasid = t_pasid(c.emu, c.kfd);
	for (int i = 0; i < NALL; i++)
		c.ev[i] = t_event(c.kfd, KFDSIG_EVENT_SIGNAL, true);
	pthread_barrier_init(&c.start, NULL, NALL + 1);
	for (int i = 0; i < NALL; i++) {
		s[i] = (struct all_sig){ .c = &c, .i = i };
		pthread_create(&t[i], NULL, all_signaller, &s[i]);
	}
	for (int r = 0; r < ROUNDS; r++) {
		struct kfdsig_wait_entry e[NALL];
		enum kfdsig_wait_result res;

		for (int i = 0; i < NALL; i++)
			e[i] = (struct kfdsig_wait_entry){ .event_id = c.ev[i].id };
		pthread_barrier_wait(&c.start);
		/* auto-reset, legacy wait: each signal is latched or wakes us */
		if (kfdsig_kfd_wait(c.kfd, e, NALL, true, 2000, &res) == 0 &&
		    res == KFDSIG_WAIT_COMPLETE) {
			/* from the round's last signal to the wake-up */
			uint64_t t1 = now_ns(), last = 0;

			for (int i = 0; i < NALL; i++) {
				uint64_t ts = __atomic_load_n(&c.sig_ns[r][i], __ATOMIC_ACQUIRE);
				last = ts > last ? ts : last;
			}
			lat_add(&lat, last && last < t1 ? t1 - last : 0);
			complete++;
		}
		/* every signal of the round was consumed: nothing latched
		 * (keep going on failure so the signallers finish) */
		if (kfdsig_kfd_wait(c.kfd, e, NALL, false, 0, &res) != 0 ||
		    res != KFDSIG_WAIT_TIMEOUT)
			c.errors++;
	}
	for (int i = 0; i < NALL; i++)
		pthread_join(t[i], NULL);
	CHECK_EQ(complete, ROUNDS, "every round's wait-all completed");
	CHECK_EQ(c.errors, 0, "no errors, no leftover signals");
	lat_check(&lat, "wait-all");
	pthread_barrier_destroy(&c.start);
	kfdsig_kfd_close(c.kfd);
	kfdsig_emu_destroy(c.emu);
}

int main(void)
{
	test_ping_pong(true);
	test_ping_pong(false);
	test_broadcast(false);
	test_broadcast(true);
	test_wait_all();
	return t_result("kfd_concurrency");
}
