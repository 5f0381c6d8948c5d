/* SPDX-License-Identifier: MIT */
/*
 * What the cases of the interrupt-path suite are written with (suite.h is
 * what the CLI calls).
 *
 * A case is a named check of one kernel behaviour, run once per device (and
 * once per engine for the engine cases) in a fresh KFD process. Cases only
 * use the public backend API (kfdsig/kfd.h), so the same code runs on a real
 * GPU and on the emulated KFD. Cases flagged SUITE_EMU_ONLY drive the
 * emulated kernel's interrupt entry point directly (kfdsig/emu.h): they
 * check the kernel side of the path, not an engine, and are skipped on
 * hardware. Cases flagged SUITE_QUEUES have the GPU raise the interrupt
 * from a user queue and go through the engine layer (engine.c).
 *
 * Layout: registry.c (all groups), runner.c (rows, JSON, summary),
 * engine.c (signal an event through a PM4/SDMA/shader queue), one
 * case_*.c file per group, devices.c (the devices to run on), bench.c and
 * bench_plot.c (kfdsig bench).
 */
#ifndef KFDSIG_SUITE_CASE_H
#define KFDSIG_SUITE_CASE_H

#include <kfdsig/emu.h>
#include <kfdsig/kfd.h>
#include <kfdsig/kfdsig.h>

#include "suite.h"

enum suite_result { SUITE_PASS = 0, SUITE_FAIL, SUITE_SKIP };

/* Case flags */
#define SUITE_EMU_ONLY (1u << 0) /* drives the emulated kernel's entry points */
#define SUITE_QUEUES (1u << 1)	 /* the GPU raises the interrupt (user queues) */

/* What a running case sees. */
struct suite_ctx {
	const struct suite_case *cs;
	const struct suite_device *d;
	struct kfdsig_kfd *kfd; /* a fresh KFD process, closed after the case */
	const struct kfdsig_kfd_device *dev;
	const struct kfdsig_target *t;
	int engine;	  /* the case's engine or SUITE_ENGINE_NONE */
	int pasid;	  /* emulator only, else 0 */
	uint32_t wait_ms; /* kfdsig test -T: bound on each wait (0: the case's own) */
	char why[320];
};

struct suite_case {
	const char *name;   /* "events.max", "signal.pm4" */
	const char *checks; /* the kernel behaviour it checks */
	/* What it expects and why, where the kernel's behaviour depends on its
	 * version or the generation; NULL when it does not. */
	const char *expect;
	int engine; /* SUITE_ENGINE_NONE or one engine */
	unsigned flags;
	enum suite_result (*run)(struct suite_ctx *c);
};

/* Record the reason and return SUITE_FAIL / SUITE_SKIP. */
enum suite_result suite_fail(struct suite_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
enum suite_result suite_skip(struct suite_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Pass, saying which of several kernel behaviours was expected and seen
 * (printed after the PASS row, "reason" in JSON). */
enum suite_result suite_note(struct suite_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Fail the case when @cond is false. */
#define SUITE_CHECK(c, cond, ...)                            \
	do {                                                 \
		if (!(cond))                                 \
			return suite_fail((c), __VA_ARGS__); \
	} while (0)

/* Groups (case_*.c) and the registry */
struct suite_group {
	const char *name;
	const struct suite_case *cases;
	size_t n;
};
extern const struct suite_group suite_group_events;
extern const struct suite_group suite_group_wait;
extern const struct suite_group suite_group_version;
extern const struct suite_group suite_group_smi;
extern const struct suite_group suite_group_irq;
extern const struct suite_group suite_group_gpu;
extern const struct suite_group suite_group_xcc; /* case_xcc.c: gpu.multi-xcc.* */
extern const struct suite_group suite_group_debug;
extern const struct suite_group suite_group_trap;
extern const struct suite_group suite_group_process; /* case_process.c */
extern const struct suite_group suite_group_userq;   /* case_userq.c */

/* How long a case waits for something it expects to happen (an event, a
 * queue going idle, a byte on dbg_fd): @dflt, or kfdsig test -T's bound. */
static inline uint32_t suite_bound_ms(const struct suite_ctx *c, uint32_t dflt)
{
	return c->wait_ms ? c->wait_ms : dflt;
}

/* Run one case on one device (fresh KFD process) with waits bounded by
 * @wait_ms (0: the case's own bounds); fills c->why. */
enum suite_result suite_run_one(const struct suite_case *cs, const struct suite_device *d,
				uint32_t wait_ms, struct suite_ctx *c);

/* Helpers for cases */
/* Create a SIGNAL event or fail the case. */
enum suite_result suite_event(struct suite_ctx *c, bool auto_reset, struct kfdsig_event *ev);
/* Wait on one event; returns kfdsig_kfd_wait()'s code, *res the result,
 * *age (if given) in/out. */
int suite_wait1(struct suite_ctx *c, uint32_t id, uint64_t *age, uint32_t timeout_ms,
		enum kfdsig_wait_result *res);
/* Is the (manual-reset) event signalled now? Does not consume it. */
bool suite_signalled(struct suite_ctx *c, uint32_t id);
const char *suite_wait_result_name(enum kfdsig_wait_result r);
bool suite_has_age(const struct suite_ctx *c);
uint64_t suite_now_ns(void);

/* The engine layer (engine.c): a queue of one engine on the case's GPU
 * that signals events the way the GPU does. */
struct suite_queue;

/* Open a queue of @engine (ring of @ring_bytes, 0: default). SKIP with the
 * reason when the engine cannot signal on this target (no shader stub). */
enum suite_result suite_queue_open(struct suite_ctx *c, int engine, uint32_t ring_bytes,
				   struct suite_queue **out);
void suite_queue_close(struct suite_queue *q);
/* Append the engine's signal of @ev (its fence: slot write + interrupt),
 * with extra KFDSIG_FENCE_* @flags and @ctxid (KFDSIG_FENCE_CTXID), to the
 * queue's pending batch. */
enum suite_result suite_queue_signal(struct suite_ctx *c, struct suite_queue *q, uint32_t event_id,
				     uint32_t flags, uint32_t ctxid);
/* Append raw dwords of the queue's engine to the pending batch. */
/* AQL: an interrupt signal for @event_id whose mailbox is the slot of
 * @mailbox_id (another event's slot: a wrong mailbox, on purpose). */
enum suite_result suite_queue_signal_aql_mailbox(struct suite_ctx *c, struct suite_queue *q,
						 uint32_t event_id, uint32_t mailbox_id);
enum suite_result suite_queue_raw(struct suite_ctx *c, struct suite_queue *q, const uint32_t *dw,
				  uint32_t ndw);
/* Submit the pending batch (one doorbell) and wait for the engine to go
 * idle. */
enum suite_result suite_queue_flush(struct suite_ctx *c, struct suite_queue *q);
/* Submit the pending batch without waiting: for work that faults or stops
 * the engine (it never goes idle). */
enum suite_result suite_queue_kick(struct suite_ctx *c, struct suite_queue *q);

/* The library's engine for a suite engine (the same numbers). */
static inline enum kfdsig_signal_engine suite_signal_engine(int engine)
{
	return engine == SUITE_ENGINE_SDMA     ? KFDSIG_SIGNAL_SDMA
	       : engine == SUITE_ENGINE_SHADER ? KFDSIG_SIGNAL_SHADER
	       : engine == SUITE_ENGINE_AQL    ? KFDSIG_SIGNAL_AQL
					       : KFDSIG_SIGNAL_PM4;
}

#endif
