/* SPDX-License-Identifier: MIT */
/*
 * Waits on an emulated queue that fail at once when what they wait for can
 * no longer come, instead of running out their (generous) bound.
 *
 * An emulated engine runs in its own thread and handles the interrupts it
 * raises in that thread (emu_engine_irq() -> emu_interrupt_xcc()). It
 * sleeps on its doorbell only when the doorbell shows nothing left for it
 * to run (emu_doorbell.c engine_main(): pending() is 0, or the queue
 * halted), and counts each sleep that ends (idle_wakeups). So once it has
 * ended two sleeps after a point in time, it has looked at its doorbell
 * after that point, run all the doorbell showed, published the read
 * pointer and handled every interrupt of those packets: nothing more will
 * happen on that queue until someone writes its doorbell or memory it
 * polls (an engine polling a WAIT_REG_MEM or an AQL barrier's dependency
 * never sleeps, so it is never called stuck). The verdicts are drawn from
 * that ordering, never from how long something took:
 *   - the queue halted (a bad packet, a fault): stuck;
 *   - the engine slept with the library's write pointer still ahead of the
 *     read pointer: the doorbell it was given never reached the engine;
 *   - the engine slept with the queue drained and the event not set: the
 *     signal was lost (no mailbox, no interrupt, the wrong id, dropped).
 * A stuck queue ends the test (exit T_EXIT_FAIL) with what was seen: what
 * follows depends on it.
 */
#ifndef KFDSIG_TEST_KFD_STALL_H
#define KFDSIG_TEST_KFD_STALL_H

#include <unistd.h>

#include "emu/emu_priv.h"
#include "kfd_util.h"

/* A wait slice: longer than T_WAKE_MAX_MS, so that a wake-up lost inside
 * it returns COMPLETE late and t_wait() reports it. */
#define T_STALL_SLICE_MS (T_WAKE_MAX_MS + 500)

struct t_engine {
	bool found, halted;
	uint32_t exception;
	uint64_t sleeps;   /* idle_wakeups */
	uint64_t consumed; /* the engine's position */
};

/* The state of the engine of @q (of the process of @pasid). */
static inline struct t_engine t_engine_of(struct kfdsig_emu *emu, int pasid,
					  const struct kfdsig_kfd_queue *q)
{
	struct emu_proc *p = emu_proc_get(emu, pasid);
	struct t_engine e = { 0 };
	uint32_t id = (uint32_t)kfdsig_kfd_queue_id(q);

	T_REQUIRE(p, "no process of pasid %d", pasid);
	pthread_mutex_lock(&p->lock);
	for (struct emu_queue *eq = p->queues; eq; eq = eq->next) {
		if (eq->id != id)
			continue;
		e.found = true;
		e.halted = __atomic_load_n(&eq->halted, __ATOMIC_ACQUIRE);
		e.exception = eq->exception;
		e.sleeps = __atomic_load_n(&eq->idle_wakeups, __ATOMIC_ACQUIRE);
		e.consumed = __atomic_load_n(&eq->consumed, __ATOMIC_ACQUIRE);
		break;
	}
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	T_REQUIRE(e.found, "no emulated queue %u", id);
	return e;
}

#define T_STUCK(what, ...)                                        \
	do {                                                      \
		fprintf(stderr, "%s:%d: %s: ", file, line, what); \
		fprintf(stderr, __VA_ARGS__);                     \
		fputc('\n', stderr);                              \
		exit(T_EXIT_FAIL);                                \
	} while (0)

/*
 * Wait until the engine of @q has ended two sleeps after this call (it has
 * run all its doorbell shows) or @timeout_ms passed (it is busy: polling
 * memory the test is to write, say). A halted queue ends the test.
 * Return: true when it went idle.
 */
static inline bool t_engine_settle(const char *file, int line, struct kfdsig_emu *emu, int pasid,
				   const struct kfdsig_kfd_queue *q, uint64_t timeout_ms,
				   const char *what)
{
	struct t_engine e = t_engine_of(emu, pasid, q);
	uint64_t mark = e.sleeps, t0 = t_now_ms();

	for (;;) {
		if (e.halted)
			T_STUCK(what, "queue %d halted (exception %u) at engine position %llu",
				kfdsig_kfd_queue_id(q), e.exception,
				(unsigned long long)e.consumed);
		if (e.sleeps >= mark + 2)
			return true;
		if (t_now_ms() - t0 > timeout_ms)
			return false;
		usleep(100);
		e = t_engine_of(emu, pasid, q);
	}
}

/* The engine idle with the library's work still in flight: the doorbell. */
static inline void t_doorbell_check(const char *file, int line, struct kfdsig_kfd_queue *q,
				    const char *what)
{
	if (kfdsig_kfd_queue_wait_idle(q, 0))
		T_STUCK(what,
			"queue %d: its engine has run all its doorbell shows and sleeps, "
			"but the read pointer is short of the write pointer: the doorbell "
			"write never reached the engine",
			kfdsig_kfd_queue_id(q));
}

/*
 * kfdsig_kfd_queue_wait_idle(@q, @timeout_ms) on the emulated KFD, failing
 * the test at once when @q halted or its engine went idle short of the
 * write pointer. Return: 0 or -ETIMEDOUT (a busy engine, after the bound).
 */
#define t_queue_idle(...) t_queue_idle_at(__FILE__, __LINE__, __VA_ARGS__)
static inline int t_queue_idle_at(const char *file, int line, struct kfdsig_emu *emu, int pasid,
				  struct kfdsig_kfd_queue *q, int timeout_ms, const char *what)
{
	uint64_t t0 = t_now_ms(), mark = 0;
	bool marked = false;

	while (kfdsig_kfd_queue_wait_idle(q, 0)) {
		struct t_engine e = t_engine_of(emu, pasid, q);

		if (e.halted)
			T_STUCK(what, "queue %d halted (exception %u) at engine position %llu",
				kfdsig_kfd_queue_id(q), e.exception,
				(unsigned long long)e.consumed);
		/* not idle after the submit: once the engine has slept, it
		 * must be */
		if (!marked)
			mark = e.sleeps;
		marked = true;
		if (e.sleeps >= mark + 2)
			t_doorbell_check(file, line, q, what);
		if (t_now_ms() - t0 > (uint64_t)timeout_ms)
			return -ETIMEDOUT;
		usleep(50);
	}
	return 0;
}

/*
 * A blocking wait on @id (with @age as t_wait1(), or NULL) for a signal that work
 * already submitted to @q is to raise: COMPLETE within @timeout_ms, as
 * t_wait1() bounds it (a lost wake-up fails). Waits in slices of
 * T_STALL_SLICE_MS; after a slice that timed out, once the engine of @q
 * has gone idle, the event must be set now or never: not set, the test
 * ends at once (the library's work still in flight: the doorbell; drained:
 * the signal was lost).
 * Return: true when the event was signalled.
 */
#define t_fence(...) t_fence_at(__FILE__, __LINE__, __VA_ARGS__)
static inline bool t_fence_at(const char *file, int line, struct kfdsig_emu *emu, int pasid,
			      struct kfdsig_kfd *kfd, struct kfdsig_kfd_queue *q, uint32_t id,
			      uint64_t *age, uint32_t timeout_ms, const char *what)
{
	uint64_t t0 = t_now_ms();

	for (;;) {
		enum kfdsig_wait_result res = KFDSIG_WAIT_TIMEOUT;
		uint64_t spent = t_now_ms() - t0;
		uint32_t slice;

		if (spent >= timeout_ms)
			return false;
		slice = timeout_ms - spent < T_STALL_SLICE_MS ? (uint32_t)(timeout_ms - spent)
							      : T_STALL_SLICE_MS;
		if (t_wait1(kfd, id, age, slice, &res))
			return false;
		if (res == KFDSIG_WAIT_COMPLETE)
			return true;
		spent = t_now_ms() - t0;
		if (spent >= timeout_ms ||
		    !t_engine_settle(file, line, emu, pasid, q, timeout_ms - spent, what))
			continue;
		t_doorbell_check(file, line, q, what);
		/* idle and drained: every interrupt of the work was handled */
		if (t_wait1(kfd, id, age, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE)
			return true; /* set after the slice's end: late, not lost */
		T_STUCK(what,
			"queue %d ran everything submitted and its engine sleeps, but event "
			"%u was never set: the signal was lost",
			kfdsig_kfd_queue_id(q), id);
	}
}

#endif
