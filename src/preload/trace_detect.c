/* SPDX-License-Identifier: MIT */
/*
 * The four detectors of `kfdsig trace` (docs/man/kfdsig-trace.1.scd):
 *
 *   - instant-return storm: WAIT_EVENTS keeps returning at once because
 *     the age it passes for an event is stale (kfd_events.c
 *     copy_signaled_event_data() and kfd_wait_on_events(): a signal event
 *     whose last_event_age differs from the event's age counts as
 *     signalled, KFD 1.14);
 *   - slept through a signal: a wait timed out while its event's slot in
 *     the signal page reads signalled, i.e. the GPU wrote the slot but no
 *     interrupt set the event (the interrupt path acknowledges the slot:
 *     kfd_events.c acknowledge_signal() from set_event_from_interrupt());
 *   - signal without waiter / never reset: an auto-reset event signalled
 *     while nobody waited and never consumed, a manual-reset event left
 *     signalled, seen when the event is destroyed or the process exits;
 *   - queue error: a MEMORY or HW_EXCEPTION event came back with exception
 *     data, or the emulated interrupt handler took an exception interrupt
 *     (CP bad opcode, its context id is the queue's).
 *
 * A signal without waiter is classified by what set it: an interrupt that
 * set an event nobody slept on is a runtime that polled the signal's
 * value instead (ROCr src/core/runtime/interrupt_signal.cpp
 * InterruptSignal::WaitRelaxed() polls the value for kMaxElapsed, 5 ms,
 * before it calls hsaKmtWaitOnEvent(), and returns as soon as the value
 * meets the condition, so a GPU that signals within the poll leaves the
 * event set with nobody asleep); a SET_EVENT nobody waited for is the
 * CPU's (InterruptSignal::StoreRelaxed() and every other store call
 * SetEvent(), waiter or not). Both leave an event pending that the next
 * wait consumes at once: information, not a fault.
 *
 * The lost and dead waits (a call in flight) are the recorder's watchdog
 * (trace.c); this file answers what it asks: live events and queues.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/kfd_ioctl.h>

#include <kfdsig/emu.h>

#include "preload/trace_detect.h"

#define DIRECT_IDS 4096 /* signal event ids are slot indices below this */

struct det_ev {
	uint32_t id, type;
	bool live, auto_reset;
	bool pending;	     /* auto-reset: signalled with nobody waiting */
	bool pending_cpu;    /* ... and the last to set it was SET_EVENT */
	bool set;	     /* manual-reset: signalled since the last reset */
	bool slept_reported; /* one slept-through finding per event */
	bool exc_reported;   /* one queue-error finding per event */
	bool storm_reported; /* one finding per storm */
	int waiters;
	uint64_t wakes;	      /* waits on it that completed */
	uint32_t storm;	      /* consecutive instant returns on one age */
	uint64_t last_age_in; /* of the previous wait */
};

struct det_queue {
	uint32_t id, gpu_id;
	bool live;
};

static struct det_ev *evs;
static size_t nev, cap_ev;
static uint32_t direct[DIRECT_IDS]; /* index + 1 of a direct id's entry */
static struct det_queue *queues;
static size_t nq, cap_q;

void det_reset(void)
{
	free(evs);
	free(queues);
	evs = NULL;
	queues = NULL;
	nev = cap_ev = nq = cap_q = 0;
	memset(direct, 0, sizeof(direct));
}

static struct det_ev *find(uint32_t id)
{
	if (id < DIRECT_IDS)
		return direct[id] ? &evs[direct[id] - 1] : NULL;
	for (size_t i = 0; i < nev; i++)
		if (evs[i].id == id && evs[i].live)
			return &evs[i];
	return NULL;
}

void det_event_created(uint32_t id, uint32_t type, bool auto_reset)
{
	struct det_ev *e = find(id);

	if (!e) {
		if (nev == cap_ev) {
			size_t cap = cap_ev ? 2 * cap_ev : 64;
			struct det_ev *n = realloc(evs, cap * sizeof(*n));
			if (!n)
				return; /* not tracked: no findings on it */
			evs = n;
			cap_ev = cap;
		}
		e = &evs[nev++];
		if (id < DIRECT_IDS)
			direct[id] = (uint32_t)nev;
	}
	memset(e, 0, sizeof(*e));
	e->id = id;
	e->type = type;
	e->auto_reset = auto_reset;
	e->live = true;
}

int det_event_type(uint32_t id)
{
	struct det_ev *e = find(id);

	return e ? (int)e->type : -1;
}

/* What is left on an event that goes away. */
static int leftover(struct det_ev *e, struct kfdsig_trace_finding *out)
{
	if (e->type != KFD_IOC_EVENT_SIGNAL)
		return 0;
	if (e->auto_reset && e->pending) {
		*out = (struct kfdsig_trace_finding){
			.detector = KFDSIG_DET_NO_WAITER,
			.event_id = e->id,
			.cls = e->pending_cpu ? KFDSIG_CLASS_CPU_SET : KFDSIG_CLASS_POLLED,
		};
		return 1;
	}
	if (!e->auto_reset && e->set) {
		*out = (struct kfdsig_trace_finding){ .detector = KFDSIG_DET_NEVER_RESET,
						      .event_id = e->id };
		return 1;
	}
	return 0;
}

int det_event_destroyed(uint32_t id, struct kfdsig_trace_finding *out)
{
	struct det_ev *e = find(id);
	int n;

	if (!e)
		return 0;
	n = leftover(e, out);
	e->live = false;
	if (id < DIRECT_IDS)
		direct[id] = 0;
	return n;
}

/* What a SET_EVENT that began with @e so compares against at its end. */
static uint64_t snapshot(const struct det_ev *e)
{
	return e->wakes << 1 | (e->waiters > 0);
}

uint64_t det_set_begin(uint32_t id)
{
	struct det_ev *e = find(id);

	return e ? snapshot(e) : DET_NO_SNAPSHOT;
}

void det_event_set(uint32_t id, uint64_t begin)
{
	struct det_ev *e = find(id);

	if (!e)
		return;
	if (!e->auto_reset)
		e->set = true;
	/* nobody waited from the start of the call to its end (a waiter
	 * that left meanwhile was woken by it) */
	else if (!e->waiters && (begin == DET_NO_SNAPSHOT || begin == snapshot(e))) {
		e->pending = true;
		e->pending_cpu = begin != DET_NO_SNAPSHOT;
	}
}

bool det_event_live(uint32_t id)
{
	if (find(id))
		return true;
	for (size_t i = 0; i < nev; i++)
		if (evs[i].id == id)
			return false; /* seen destroyed */
	return true;
}

unsigned det_live_queues(void)
{
	unsigned n = 0;

	for (size_t i = 0; i < nq; i++)
		n += queues[i].live;
	return n;
}

void det_event_reset(uint32_t id)
{
	struct det_ev *e = find(id);

	if (e) {
		e->set = false;
		e->pending = false;
		e->slept_reported = false;
	}
}

void det_queue_created(uint32_t queue_id, uint32_t gpu_id)
{
	if (nq == cap_q) {
		size_t cap = cap_q ? 2 * cap_q : 16;
		struct det_queue *n = realloc(queues, cap * sizeof(*n));
		if (!n)
			return;
		queues = n;
		cap_q = cap;
	}
	queues[nq++] = (struct det_queue){ .id = queue_id, .gpu_id = gpu_id, .live = true };
}

void det_queue_destroyed(uint32_t queue_id)
{
	for (size_t i = 0; i < nq; i++)
		if (queues[i].id == queue_id)
			queues[i].live = false;
}

/* The queue an exception on @gpu_id names: the GPU's newest live queue. */
static uint32_t queue_on(uint32_t gpu_id)
{
	for (size_t i = nq; i-- > 0;)
		if (queues[i].live && (!gpu_id || queues[i].gpu_id == gpu_id))
			return queues[i].id;
	return UINT32_MAX;
}

void det_wait_begin(const abi_event_data *d, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct det_ev *e = find(d[i].event_id);
		if (e)
			e->waiters++;
	}
}

static void storm_check(struct det_ev *e, const struct kfdsig_trace_wait *w, uint32_t i,
			struct kfdsig_trace_finding *out, int *n)
{
	bool instant;

	if (e->type != KFD_IOC_EVENT_SIGNAL || !w->age_in[i]) {
		e->storm = 0;
		return;
	}
	/* Returned because the age passed is not the event's: the KFD
	 * answers the event's age, which the next call should pass. */
	instant = w->wait_result == KFD_IOC_WAIT_RESULT_COMPLETE && w->age_out[i] != w->age_in[i];
	if (instant && e->storm && w->age_in[i] == e->last_age_in) {
		e->storm++;
	} else {
		e->storm = instant;
		e->storm_reported = false;
	}
	e->last_age_in = w->age_in[i];
	if (e->storm >= DET_STORM_RETURNS && !e->storm_reported && *n < DET_MAX_FINDINGS) {
		e->storm_reported = true;
		out[(*n)++] = (struct kfdsig_trace_finding){
			.detector = KFDSIG_DET_STORM,
			.event_id = e->id,
			.stale_age = w->age_in[i],
			.real_age = w->age_out[i],
			.count = e->storm,
		};
	}
}

/* The exception data a MEMORY or HW_EXCEPTION event came back with. */
static bool exception_of(const struct det_ev *e, const abi_event_data *d, uint32_t *gpu,
			 uint64_t *va)
{
	if (e->type == KFD_IOC_EVENT_MEMORY) {
		*gpu = d->memory_exception_data.gpu_id;
		*va = d->memory_exception_data.va;
	} else if (e->type == KFD_IOC_EVENT_HW_EXCEPTION) {
		*gpu = d->hw_exception_data.gpu_id;
		*va = 0;
	} else {
		return false;
	}
	return *gpu != 0;
}

int det_wait_end(const struct kfdsig_trace_wait *w, const abi_event_data *d,
		 struct kfdsig_trace_finding *out)
{
	uint32_t n_ids = w->n_events < KFDSIG_TRACE_WAIT_IDS ? w->n_events : KFDSIG_TRACE_WAIT_IDS;
	uint32_t all = n_ids >= 32 ? UINT32_MAX : (1u << n_ids) - 1;
	bool complete = w->wait_result == KFD_IOC_WAIT_RESULT_COMPLETE;
	/* wait-all sleeps until every slot is set, wait-any until one is;
	 * slots are known for the first KFDSIG_TRACE_WAIT_IDS events only */
	bool through = w->wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT && n_ids == w->n_events &&
		       w->slot_known == all &&
		       (w->wait_all ? w->slot_set == all : w->slot_set != 0);
	int n = 0;

	for (uint32_t i = 0; i < w->n_events; i++) {
		struct det_ev *e = find(d[i].event_id);
		uint32_t gpu;
		uint64_t va;

		if (!e)
			continue;
		if (e->waiters)
			e->waiters--;
		if (i < n_ids)
			storm_check(e, w, i, out, &n);
		if (complete) {
			e->wakes++;
			e->pending = false; /* consumed (or another one was) */
			e->slept_reported = false;
		}
		if (through && ((w->slot_set >> i) & 1) && !e->slept_reported &&
		    n < DET_MAX_FINDINGS) {
			e->slept_reported = true;
			out[n++] =
				(struct kfdsig_trace_finding){ .detector = KFDSIG_DET_SLEPT_THROUGH,
							       .event_id = e->id };
		}
		if (complete && !e->exc_reported && n < DET_MAX_FINDINGS &&
		    exception_of(e, &d[i], &gpu, &va)) {
			e->exc_reported = true;
			out[n++] = (struct kfdsig_trace_finding){
				.detector = KFDSIG_DET_QUEUE_ERROR,
				.event_id = e->id,
				.gpu_id = gpu,
				.queue_id = queue_on(gpu),
				.va = va,
			};
		}
	}
	return n;
}

int det_irq(const struct kfdsig_trace_irq *irq, struct kfdsig_trace_finding *out)
{
	if (irq->path == KFDSIG_EMU_PATH_EXCEPTION) {
		*out = (struct kfdsig_trace_finding){ .detector = KFDSIG_DET_QUEUE_ERROR,
						      .event_id = UINT32_MAX,
						      .gpu_id = irq->gpu_id,
						      .queue_id = irq->context_id0 };
		return 1;
	}
	if (irq->path == KFDSIG_EMU_PATH_DROPPED)
		return 0;
	for (uint32_t i = 0; i < irq->nsignaled && i < 4; i++)
		det_event_set(irq->events[i], DET_NO_SNAPSHOT);
	return 0;
}

int det_exit(struct kfdsig_trace_finding *out, int max)
{
	int n = 0;

	for (size_t i = 0; i < nev && n < max; i++)
		if (evs[i].live)
			n += leftover(&evs[i], &out[n]);
	return n;
}
