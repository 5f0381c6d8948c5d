/* SPDX-License-Identifier: MIT */
/*
 * The detectors of `kfdsig trace`, run inside the traced process on what
 * the recorder (trace.c) sees: they keep per-event and per-queue state and
 * answer findings (src/proto/trace.h) for the recorder to write. Called
 * with the recorder's lock held; no I/O of their own.
 */
#ifndef KFDSIG_PRELOAD_TRACE_DETECT_H
#define KFDSIG_PRELOAD_TRACE_DETECT_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/kfd_ioctl.h"
#include "proto/trace.h"

/* Consecutive instant returns on the same stale age that make a storm. */
#define DET_STORM_RETURNS 16
/* Findings one call can answer at most. */
#define DET_MAX_FINDINGS 8

/* Forget everything (a forked child has no KFD process of its own yet). */
void det_reset(void);

void det_event_created(uint32_t id, uint32_t type, bool auto_reset);
/* The type of event @id (KFD_IOC_EVENT_*), or -1 when it is not known. */
int det_event_type(uint32_t id);
/* DESTROY_EVENT: a signal left pending or unreset is a finding. */
int det_event_destroyed(uint32_t id, struct kfdsig_trace_finding *out);
/* SET_EVENT (or an interrupt: @begin DET_NO_SNAPSHOT) set @id; @begin:
 * det_set_begin() before the call, so that a waiter woken during the call
 * is seen. */
#define DET_NO_SNAPSHOT UINT64_MAX
uint64_t det_set_begin(uint32_t id);
void det_event_set(uint32_t id, uint64_t begin);
void det_event_reset(uint32_t id);

/* Is event @id known and not destroyed? (An unknown id is taken as live:
 * the tracer may have missed its creation.) */
bool det_event_live(uint32_t id);

void det_queue_created(uint32_t queue_id, uint32_t gpu_id);
/* The queues created and not destroyed. */
unsigned det_live_queues(void);
void det_queue_destroyed(uint32_t queue_id);

/* Around WAIT_EVENTS on the @n events of @d (the client's array): threads
 * waiting on an event are its waiters. */
void det_wait_begin(const abi_event_data *d, uint32_t n);
/* @w: the record of the call (its slot bits), @d: the array as the KFD
 * answered it (ages, exception data), @age_in: the ages passed in (of
 * the first KFDSIG_TRACE_WAIT_IDS; later ones are not checked). */
int det_wait_end(const struct kfdsig_trace_wait *w, const abi_event_data *d,
		 struct kfdsig_trace_finding *out);

/* An interrupt of the emulated KFD. */
int det_irq(const struct kfdsig_trace_irq *irq, struct kfdsig_trace_finding *out);

/* The process exits: what is still pending. */
int det_exit(struct kfdsig_trace_finding *out, int max);

#endif
