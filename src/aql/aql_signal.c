/* SPDX-License-Identifier: MIT */
/*
 * amd_signal_t for KFD events: prepare one whose completion wakes an event,
 * and tell why one would not. The packet processor stores event_id at
 * event_mailbox_ptr and interrupts with context id event_id (ROCR-Runtime
 * core/runtime/interrupt_signal.cpp, InterruptSignal: mailbox = the event's
 * slot, event_id = the KFD event id). The kernel then finds the event by
 * that id (kfd_events.c kfd_signal_event_interrupt): id 0 is never a signal
 * event on the v9+ ISRs (kfd_int_process_v9.c drops a zero context id on
 * GC >= 9.4.1), and only ids below KFD_SIGNAL_EVENT_LIMIT (4096) have a slot.
 */
#include <errno.h>
#include <string.h>

#include <kfdsig/aql.h>
#include <kfdsig/fence.h>

#include "aql/aql_internal.h"
#include "core/fence_check.h"
#include "core/internal.h"
#include "core/opts.h"

int kfdsig_amd_signal_prepare(struct kfdsig_amd_signal *s, uint64_t signal_page_va,
			      uint32_t event_id, int64_t value)
{
	if (!s)
		return set_error(EINVAL, "no signal");
	if (event_id == 0 || event_id >= KFDSIG_SIGNAL_EVENT_LIMIT)
		return set_error(EINVAL,
				 "event id %u: a signal event id is 1..4095 (id 0 is "
				 "reserved, the page has 4096 slots)",
				 event_id);
	if (!signal_page_va || signal_page_va % KFDSIG_SIGNAL_PAGE_ALIGN ||
	    signal_page_va >= AQL_VA_LIMIT)
		return set_error(EINVAL,
				 "signal page 0x%llx: non-zero, 4096-byte aligned, "
				 "below 2^%d",
				 (unsigned long long)signal_page_va, AQL_VA_BITS);
	memset(s, 0, sizeof(*s));
	s->kind = KFDSIG_AMD_SIGNAL_KIND_USER;
	s->value = value;
	s->event_mailbox_ptr = kfdsig_slot_va(signal_page_va, event_id);
	s->event_id = event_id;
	return 0;
}

unsigned int kfdsig_amd_signal_check(const struct kfdsig_amd_signal *s, uint64_t signal_page_va)
{
	unsigned int f = 0;

	if (!s)
		return KFDSIG_AMD_SIGNAL_BAD_KIND;
	if (s->kind != KFDSIG_AMD_SIGNAL_KIND_USER)
		f |= KFDSIG_AMD_SIGNAL_BAD_KIND;
	if (!s->event_mailbox_ptr)
		f |= KFDSIG_AMD_SIGNAL_NO_MAILBOX;
	else if (s->event_mailbox_ptr % 8)
		f |= KFDSIG_AMD_SIGNAL_UNALIGNED;
	if (s->event_id == 0)
		f |= KFDSIG_AMD_SIGNAL_ID_ZERO;
	else if (s->event_id >= KFDSIG_SIGNAL_EVENT_LIMIT)
		f |= KFDSIG_AMD_SIGNAL_ID_RANGE;
	if (signal_page_va && s->event_mailbox_ptr &&
	    s->event_mailbox_ptr != kfdsig_slot_va(signal_page_va, s->event_id))
		f |= KFDSIG_AMD_SIGNAL_WRONG_SLOT;
	return f;
}

/*
 * KFDSIG_SIGNAL_AQL: the fence's slot is the mailbox and its event id the
 * event_id (ROCr InterruptSignal, above); with KFDSIG_FENCE_CTXID |
 * KFDSIG_FENCE_DELIBERATELY_BAD the event_id is f->ctxid, and a deliberately
 * bad fence may name another event's slot. The signal goes at the first
 * KFDSIG_AMD_SIGNAL_ALIGN-aligned GPU address at or after code->used.
 */
int aql_signal_emit(const struct kfdsig_target *t, const struct kfdsig_fence *f,
		    struct kfdsig_code_buf *code, uint32_t *buf, size_t max_dw)
{
	const uint32_t ndw = KFDSIG_AQL_PACKET_SIZE / 4;
	struct kfdsig_amd_signal s;
	struct kfdsig_code_buf c;
	uint64_t value, off;
	int ret;

	if (unlikely(!buf || !code))
		return set_error(EINVAL, "no output buffer or code buffer");
	ret = opts_copy(&c, sizeof(c), code, "kfdsig_code_buf");
	if (ret)
		return ret;
	if (unlikely(!c.cpu || c.pad_0))
		return set_error(EINVAL, "code buffer without memory, or pad_0 not 0");
	/* the signal's value is its own (1, decremented once); the slot gets
	 * event_id, not a fence value */
	ret = fence_check(t, f, KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD, 1, &value);
	if (ret)
		return ret;
	if (unlikely(max_dw < ndw))
		return set_error(ENOSPC, "an AQL packet needs %u dwords, the buffer has %zu", ndw,
				 max_dw);
	off = c.used + (KFDSIG_AMD_SIGNAL_ALIGN - (c.va + c.used) % KFDSIG_AMD_SIGNAL_ALIGN) %
			       KFDSIG_AMD_SIGNAL_ALIGN;
	if (unlikely(c.used > c.size || off > c.size || c.size - off < sizeof(s)))
		return set_error(ENOSPC, "no room for a %zu-byte signal in the code buffer",
				 sizeof(s));
	ret = kfdsig_aql_emit_barrier(buf, KFDSIG_AQL_TYPE_BARRIER_AND, NULL, 0, c.va + off,
				      KFDSIG_AQL_CTL_DEFAULT);
	if (ret < 0)
		return ret;
	memset(&s, 0, sizeof(s));
	s.kind = KFDSIG_AMD_SIGNAL_KIND_USER;
	s.value = (int64_t)value;
	s.event_mailbox_ptr = f->slot_va;
	s.event_id = (f->flags & KFDSIG_FENCE_CTXID) ? f->ctxid : f->event_id;
	memcpy((uint8_t *)c.cpu + off, &s, sizeof(s));
	code->used = off + sizeof(s);
	return (int)ndw;
}
