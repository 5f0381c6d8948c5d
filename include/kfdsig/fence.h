/* SPDX-License-Identifier: MIT */
/*
 * What a fence-with-interrupt sequence must do, independent of the engine:
 * store a value into the event's slot of the process signal page and raise
 * an interrupt that names the event. The PM4 and SDMA emitters take the same
 * description and apply the same checks.
 */
#ifndef KFDSIG_FENCE_H
#define KFDSIG_FENCE_H

#include <stdint.h>

#include <kfdsig/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* KFD_SIGNAL_EVENT_LIMIT (kfd_ioctl.h): slots of a signal page. */
#define KFDSIG_SIGNAL_EVENT_LIMIT 4096u
/* A full signal page: 4096 slots of 8 bytes (kfd_events.c). */
#define KFDSIG_SIGNAL_PAGE_SIZE (KFDSIG_SIGNAL_EVENT_LIMIT * 8u)
/* Alignment of a signal page (a whole page: the kernel allocates or maps it
 * page by page, kfd_events.c kfd_event_page_set / kfd_event_mmap); the
 * emitters refuse a slot whose implied page (slot - 8 * id) is not aligned
 * or is 0. */
#define KFDSIG_SIGNAL_PAGE_ALIGN 4096u
/* UNSIGNALED_EVENT_SLOT (kfd_events.h): any other slot value is "signalled". */
#define KFDSIG_SLOT_UNSIGNALED UINT64_MAX

/** kfdsig_slot_va() - GPU address of an event's slot: page + 8 * id. */
static inline uint64_t kfdsig_slot_va(uint64_t signal_page_va, uint32_t event_id)
{
	return signal_page_va + 8ull * event_id;
}

/* Cache action performed at end of pipe, before the slot write. */
enum kfdsig_cache {
	KFDSIG_CACHE_FLUSH_INV = 0, /* L2 writeback + invalidate (default) */
	KFDSIG_CACHE_WB,	    /* L2 writeback only */
	KFDSIG_CACHE_NONE,	    /* no cache action */
};

/* PM4 packet shape of the sequence. */
enum kfdsig_pm4_form {
	KFDSIG_PM4_RELEASE_MEM = 0, /* RELEASE_MEM writes and interrupts */
	KFDSIG_PM4_WRITE_DATA_INT,  /* WRITE_DATA, then interrupt-only
					  RELEASE_MEM */
	KFDSIG_PM4_EVENT_WRITE_EOP, /* gfx8 graphics rings only */
};

/* Write kfdsig_fence.value instead of the engine's default value. */
#define KFDSIG_FENCE_VALUE (1u << 0)
/* Write 32 bits instead of 64: the slot's high dword stays all-ones, which
 * the kernel still reads as signalled. */
#define KFDSIG_FENCE_32BIT (1u << 1)
/* Raise the interrupt without writing the slot (someone else writes it). */
#define KFDSIG_FENCE_INT_ONLY (1u << 2)
/* Use kfdsig_fence.ctxid as the interrupt context id instead of event_id. */
#define KFDSIG_FENCE_CTXID (1u << 3)
/* SDMA: one FENCE (low dword) instead of two. */
#define KFDSIG_FENCE_SDMA_ONE_FENCE (1u << 4)
/*
 * Emit what the checks would refuse: event id 0 or >= 4096, a context id
 * that differs from the event id (0, bit 24 ...), an unaligned or zero slot
 * address, an all-ones value. For driver developers provoking the kernel's
 * slow and drop paths on purpose; never needed otherwise.
 */
#define KFDSIG_FENCE_DELIBERATELY_BAD (1u << 31)

#define KFDSIG_FENCE_ALL_FLAGS                                                                  \
	(KFDSIG_FENCE_VALUE | KFDSIG_FENCE_32BIT | KFDSIG_FENCE_INT_ONLY | KFDSIG_FENCE_CTXID | \
	 KFDSIG_FENCE_SDMA_ONE_FENCE | KFDSIG_FENCE_DELIBERATELY_BAD)

struct kfdsig_fence {
	uint64_t slot_va;  /* kfdsig_slot_va(signal_page_va, event_id) */
	uint64_t value;	   /* with KFDSIG_FENCE_VALUE */
	uint32_t event_id; /* 1 .. 4095 */
	uint32_t ctxid;	   /* with KFDSIG_FENCE_CTXID */
	uint32_t flags;	   /* KFDSIG_FENCE_* */
	uint8_t cache;	   /* enum kfdsig_cache */
	uint8_t form;	   /* enum kfdsig_pm4_form (PM4 only) */
	uint16_t reserved; /* must be 0 */
};

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_FENCE_H */
