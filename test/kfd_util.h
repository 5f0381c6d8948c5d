/* SPDX-License-Identifier: MIT */
/* Shared setup of the KFD tests: an emulated KFD and a backend handle on
 * it. Every test drives the real backend (src/kfd) through the seam. */
#ifndef KFDSIG_TEST_KFD_UTIL_H
#define KFDSIG_TEST_KFD_UTIL_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kfdsig/emu.h>
#include <kfdsig/kfd.h>

#include "helpers.h"

/* Abort the test (fail) when setup itself fails. */
#define T_REQUIRE(cond, ...)                                                                     \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "%s:%d: setup failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                            \
			fprintf(stderr, " (%s)\n", kfdsig_last_error());                         \
			exit(T_EXIT_FAIL);                                                       \
		}                                                                                \
	} while (0)

static inline struct kfdsig_emu *t_emu(const char *spec)
{
	struct kfdsig_emu *emu = kfdsig_emu_create_from_spec(spec);
	T_REQUIRE(emu, "emulator '%s'", spec);
	return emu;
}

static inline struct kfdsig_kfd *t_open(struct kfdsig_emu *emu)
{
	struct kfdsig_kfd *kfd = NULL;
	int r = kfdsig_kfd_open(kfdsig_emu_ops(emu), &kfd);
	T_REQUIRE(r == 0 && kfd, "kfdsig_kfd_open: %d", r);
	return kfd;
}

static inline uint32_t t_gpu(struct kfdsig_kfd *kfd, size_t i)
{
	const struct kfdsig_kfd_device *d = kfdsig_kfd_device(kfd, i);
	T_REQUIRE(d, "device %zu", i);
	return d->gpu_id;
}

static inline int t_pasid(struct kfdsig_emu *emu, struct kfdsig_kfd *kfd)
{
	int pasid = kfdsig_emu_pasid(emu, kfdsig_kfd_fd(kfd));
	T_REQUIRE(pasid > 0, "pasid");
	return pasid;
}

static inline struct kfdsig_event t_event(struct kfdsig_kfd *kfd, uint32_t type, bool auto_reset)
{
	struct kfdsig_event ev;
	int r = kfdsig_kfd_event_create(kfd, type, auto_reset, &ev);
	T_REQUIRE(r == 0, "event_create(type %u): %d", type, r);
	return ev;
}

/* What a GPU does to signal: write the slot, then raise the interrupt. */
static inline void t_gpu_signal(uint64_t *slot, uint64_t value)
{
	__atomic_store_n(slot, value, __ATOMIC_RELEASE);
}

/* A completed wait on the emulator never takes this long: the signal it
 * waits for comes from a thread of the test or an emulated engine within
 * milliseconds. One that does was woken by its timeout's re-check, i.e.
 * the wake-up was lost. */
#define T_WAKE_MAX_MS 1000

static inline uint64_t t_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* kfdsig_kfd_wait(), where a COMPLETE after T_WAKE_MAX_MS is a failure (a
 * lost wake-up rescued by the timeout). */
static inline int t_wait(struct kfdsig_kfd *kfd, struct kfdsig_wait_entry *e, uint32_t n, bool all,
			 uint32_t timeout, enum kfdsig_wait_result *res)
{
	uint64_t t0 = t_now_ms();
	int r = kfdsig_kfd_wait(kfd, e, n, all, timeout, res);
	uint64_t ms = t_now_ms() - t0;

	CHECK(r || *res != KFDSIG_WAIT_COMPLETE || ms <= T_WAKE_MAX_MS,
	      "event %u%s: woken after %llu ms (bound %d ms): a lost wake-up?",
	      n ? e[0].event_id : 0, n > 1 ? " and others" : "", (unsigned long long)ms,
	      T_WAKE_MAX_MS);
	return r;
}

/* One wait on one event; returns the kfdsig_kfd_wait() result code and
 * stores the wait result (bounded as t_wait()). */
static inline int t_wait1(struct kfdsig_kfd *kfd, uint32_t id, uint64_t *age, uint32_t timeout,
			  enum kfdsig_wait_result *res)
{
	struct kfdsig_wait_entry e = { .event_id = id, .age = age ? *age : 0 };
	int r = t_wait(kfd, &e, 1, false, timeout, res);

	if (age)
		*age = e.age;
	return r;
}

/*
 * The last interrupt the emulated handler took for @pasid must be the one
 * a correct fence for @event makes: from @src, with @bits valid id bits
 * (the generation table's width for that source), the id the event's low
 * bits, found by the fast path (>= 12 bits) or the partial-id walk (fewer),
 * and setting exactly @event. A wrong id that the slot scan rescues, or a
 * drop, fails here even when the waiter woke. Return: 0, or 1 (reported).
 */
static inline int t_irq_fast(struct kfdsig_emu *emu, int pasid, enum kfdsig_emu_irq_source src,
			     uint32_t bits, uint32_t event, const char *what)
{
	struct kfdsig_emu_irq_record r;
	uint32_t id = bits >= 32 ? event : event & ((1u << bits) - 1);
	enum kfdsig_emu_irq_path want = bits >= 12 ? KFDSIG_EMU_PATH_FAST : KFDSIG_EMU_PATH_PARTIAL;

	if (kfdsig_emu_irq_trace(emu, pasid, &r, 1) != 1) {
		fprintf(stderr, "%s: no interrupt recorded\n", what);
		return 1;
	}
	if (r.source == src && r.valid_bits == bits && r.id == id && r.path == want &&
	    r.nsignaled == 1 && r.events[0] == event)
		return 0;
	fprintf(stderr,
		"%s: interrupt source %d id %u (%u bits) took the %s path (drop %s) and set %u "
		"event(s), first %u; a correct fence is source %d id %u (%u bits), %s, setting "
		"event %u\n",
		what, (int)r.source, r.id, r.valid_bits, kfdsig_emu_irq_path_name(r.path),
		kfdsig_emu_irq_drop_name(r.drop), r.nsignaled, r.nsignaled ? r.events[0] : 0,
		(int)src, id, bits, kfdsig_emu_irq_path_name(want), event);
	return 1;
}

/* An emulated GPU (@spec), the process opened on it, its first GPU, that
 * GPU's target and the process's PASID there; @page/@page_va for the
 * caller's signal page. */
struct t_rig {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	const struct kfdsig_target *t;
	uint32_t gpu;
	int pasid;
	uint64_t *page, page_va;
};

static inline void t_rig_open(struct t_rig *r, const char *spec)
{
	memset(r, 0, sizeof(*r));
	r->emu = t_emu(spec);
	r->kfd = t_open(r->emu);
	r->gpu = t_gpu(r->kfd, 0);
	r->t = kfdsig_kfd_device(r->kfd, 0)->target;
	r->pasid = t_pasid(r->emu, r->kfd);
}

static inline void t_rig_close(struct t_rig *r)
{
	kfdsig_kfd_close(r->kfd);
	kfdsig_emu_destroy(r->emu);
}

#endif
