/* SPDX-License-Identifier: MIT */
#ifndef KFDSIG_CORE_FENCE_CHECK_H
#define KFDSIG_CORE_FENCE_CHECK_H

#include <kfdsig/fence.h>
#include <kfdsig/target.h>

/*
 * Validate @f for an engine of target @t (NULL: any; its va_bits bound the
 * slot address) that accepts @allowed_flags. The slot must be the event's
 * slot of a 4096-byte aligned, non-zero signal page. On success store
 * the value to write (f->value with KFDSIG_FENCE_VALUE, else
 * @default_value) in *value and return 0; otherwise return -EINVAL with the
 * reason recorded for kfdsig_last_error().
 */
int fence_check(const struct kfdsig_target *t, const struct kfdsig_fence *f, uint32_t allowed_flags,
		uint64_t default_value, uint64_t *value);

/*
 * The signal page of a fence template (kfdsig_pm4_fence_prepare(),
 * kfdsig_sdma_fence_prepare()): non-zero, 4096-byte aligned, its 32 KiB
 * inside @t's GPU virtual address space. Return 0, or -EINVAL with the
 * reason recorded.
 */
int signal_page_check(const struct kfdsig_target *t, uint64_t signal_page_va);

#endif
