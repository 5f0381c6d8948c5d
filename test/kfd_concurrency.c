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
 */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "kfd_util.h"

#define NEV 24 /* events, one waiter each */
#define K 200  /* signals per signaller */
#define WAIT_MS 5000

struct ctx {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	int pasid;
	struct kfdsig_event ev[NEV], idle;
};

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
		int r = kfdsig_kfd_wait(c->kfd, e, 2, false, WAIT_MS, &res);

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
		if (kfdsig_kfd_event_set(c->kfd, c->ev[pe->i].id) < 0)
			pe->errors++;
		if (k % 8 == 0)
			sched_yield();
	}
	return NULL;
}

static void test_ping_pong(bool auto_reset)
{
	struct ctx c = { 0 };
	struct per_event pe[NEV], sg[NEV], sc[NEV];
	pthread_t tw[NEV], tg[NEV], tc[NEV];
	enum kfdsig_wait_result res;
	uint64_t age = 1;
	int bad = 0;

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
};

static void *wait_one(void *p)
{
	struct one *o = p;
	enum kfdsig_wait_result res;

	__atomic_fetch_add(o->ready, 1, __ATOMIC_ACQ_REL);
	o->ret = t_wait1(o->kfd, o->id, NULL, WAIT_MS, &res);
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

	for (int i = 0; i < NW; i++) {
		o[i] = (struct one){ .kfd = kfd, .id = ev.id, .ready = &ready };
		pthread_create(&t[i], NULL, wait_one, &o[i]);
	}
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < NW)
		usleep(1000);
	usleep(20000);
	*ev.slot = ev.id;
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(emu, t_pasid(emu, kfd), ev.id, 32), 1, "irq");
	for (int i = 0; i < NW; i++) {
		pthread_join(t[i], NULL);
		woke += o[i].ret == 0 && o[i].res == KFDSIG_WAIT_COMPLETE;
	}
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
	struct all_ctx c = { 0 };
	struct all_sig s[NALL];
	pthread_t t[NALL];
	int complete = 0;

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
		    res == KFDSIG_WAIT_COMPLETE)
			complete++;
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
