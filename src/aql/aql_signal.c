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

#include "core/internal.h"

int kfdsig_amd_signal_prepare(struct kfdsig_amd_signal *s, uint64_t signal_page_va,
			      uint32_t event_id, int64_t value)
{
	if (!s)
		return kfdsig_set_error(EINVAL, "no signal");
	if (event_id == 0 || event_id >= KFDSIG_SIGNAL_EVENT_LIMIT)
		return kfdsig_set_error(EINVAL,
					"event id %u: a signal event id is 1..4095 (id 0 is "
					"reserved, the page has 4096 slots)",
					event_id);
	if (!signal_page_va || signal_page_va % KFDSIG_SIGNAL_PAGE_ALIGN ||
	    signal_page_va >= (1ull << 48))
		return kfdsig_set_error(EINVAL,
					"signal page 0x%llx: non-zero, 4096-byte aligned, "
					"below 2^48",
					(unsigned long long)signal_page_va);
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
