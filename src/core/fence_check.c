/* SPDX-License-Identifier: MIT */
/*
 * Checks every fence emitter applies, whatever the engine. The rules come
 * from kfd_events.c (kfd_event_create / lookup_signaled_event_by_partial_id /
 * kfd_signal_event_interrupt, and KFD_SIGNAL_EVENT_LIMIT in kfd_ioctl.h):
 * id 0 is reserved, ids >= 4096 are never looked up, an all-ones slot reads
 * as unsignalled, and the interrupt must name the slot it signals.
 */
#include <errno.h>

#include "core/internal.h"
#include "core/fence_check.h"

int fence_check(const struct kfdsig_target *t, const struct kfdsig_fence *f, uint32_t allowed_flags,
		uint64_t default_value, uint64_t *value)
{
	unsigned va_bits = t && t->va_bits ? t->va_bits : 48;
	uint32_t flags;
	uint64_t v, page;

	if (unlikely(!f))
		return set_error(EINVAL, "no fence description");
	flags = f->flags;
	if (unlikely(flags & ~allowed_flags))
		return set_error(EINVAL, "fence flags 0x%x are not valid for this engine",
				 flags & ~allowed_flags);
	if (unlikely(f->reserved))
		return set_error(EINVAL, "fence.reserved must be 0");
	if (unlikely(f->cache > KFDSIG_CACHE_NONE))
		return set_error(EINVAL, "unknown cache action %u", f->cache);
	if (unlikely((flags & KFDSIG_FENCE_INT_ONLY) &&
		     (flags &
		      (KFDSIG_FENCE_VALUE | KFDSIG_FENCE_32BIT | KFDSIG_FENCE_SDMA_ONE_FENCE))))
		return set_error(EINVAL, "an interrupt-only fence writes no value: drop the "
					 "value, 32-bit and one-fence options");

	v = (flags & KFDSIG_FENCE_VALUE) ? f->value : default_value;
	if (unlikely((flags & KFDSIG_FENCE_32BIT) && v > UINT32_MAX))
		return set_error(EINVAL, "value 0x%llx does not fit a 32-bit write",
				 (unsigned long long)v);
	*value = v;

	if (flags & KFDSIG_FENCE_DELIBERATELY_BAD)
		return 0;

	if (unlikely(f->event_id == 0))
		return set_error(EINVAL,
				 "event id 0: want 1 to %u (0 is reserved by the kernel and never "
				 "signalled)",
				 KFDSIG_SIGNAL_EVENT_LIMIT - 1);
	if (unlikely(f->event_id >= KFDSIG_SIGNAL_EVENT_LIMIT))
		return set_error(EINVAL,
				 "event id %u: want 1 to %u (the kernel never looks a slot "
				 "from %u up)",
				 f->event_id, KFDSIG_SIGNAL_EVENT_LIMIT - 1,
				 KFDSIG_SIGNAL_EVENT_LIMIT);
	if (unlikely((flags & KFDSIG_FENCE_CTXID) && f->ctxid != f->event_id))
		return set_error(EINVAL,
				 "context id %u differs from event id %u: the interrupt "
				 "would name another slot",
				 f->ctxid, f->event_id);
	if (flags & KFDSIG_FENCE_INT_ONLY)
		return 0;
	if (unlikely(!f->slot_va))
		return set_error(EINVAL, "slot address is 0");
	if (unlikely((f->slot_va + 7) >> va_bits))
		return set_error(EINVAL,
				 "slot address 0x%llx is beyond the %u-bit GPU virtual "
				 "address space%s%s",
				 (unsigned long long)f->slot_va, va_bits, t ? " of " : "",
				 t ? t->name : "");
	if (unlikely(f->slot_va & ((flags & KFDSIG_FENCE_32BIT) ? 3 : 7)))
		return set_error(EINVAL, "slot address 0x%llx is not %d-byte aligned",
				 (unsigned long long)f->slot_va,
				 (flags & KFDSIG_FENCE_32BIT) ? 4 : 8);
	/* kfd_events.c reads event id's slot at signal_page + 8 * id, and the
	 * signal page is a whole page (kfd_event_page_set / the 4096-aligned
	 * mmap of KFD_MMAP_TYPE_EVENTS): the slot implies the page. */
	page = (f->slot_va & ~7ull) - 8ull * f->event_id;
	if (unlikely(f->slot_va < 8ull * f->event_id || !page))
		return set_error(EINVAL,
				 "slot 0x%llx of event %u puts the signal page at 0: a "
				 "signal page is never mapped there",
				 (unsigned long long)f->slot_va, f->event_id);
	if (unlikely(page & (KFDSIG_SIGNAL_PAGE_ALIGN - 1)))
		return set_error(EINVAL,
				 "signal page 0x%llx (slot 0x%llx - 8 * event %u) is not "
				 "4096-byte aligned: the kernel reads slot id at page + 8 * "
				 "id, so every slot would be shifted",
				 (unsigned long long)page, (unsigned long long)f->slot_va,
				 f->event_id);
	if (unlikely(v == UINT64_MAX || ((flags & KFDSIG_FENCE_32BIT) && v == UINT32_MAX)))
		return set_error(EINVAL,
				 "value 0x%llx leaves the slot all-ones, which the kernel "
				 "reads as unsignalled",
				 (unsigned long long)v);
	return 0;
}

int signal_page_check(const struct kfdsig_target *t, uint64_t signal_page_va)
{
	if (!signal_page_va || (signal_page_va & (KFDSIG_SIGNAL_PAGE_ALIGN - 1)) ||
	    signal_page_va + KFDSIG_SIGNAL_PAGE_SIZE > (1ull << t->va_bits))
		return set_error(EINVAL,
				 "signal page address 0x%llx must be non-zero, 4096-byte "
				 "aligned and leave 32 KiB below 2^%u (the %s GPU virtual "
				 "address space)",
				 (unsigned long long)signal_page_va, t->va_bits, t->name);
	return 0;
}
