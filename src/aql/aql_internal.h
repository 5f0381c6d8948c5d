/* SPDX-License-Identifier: MIT */
/* Internal interface of src/aql: the AQL engine of kfdsig_emit_signal(). */
#ifndef KFDSIG_AQL_INTERNAL_H
#define KFDSIG_AQL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <kfdsig/fence.h>
#include <kfdsig/signal.h>
#include <kfdsig/target.h>

/* The AQL builders take no target: they accept any address below the
 * widest GPUVM of the generation table, GC 12.1's 57 bits (target.h
 * va_bits; amdgpu "drm/amdgpu: GPU vm support 5-level page table",
 * f6b1c1f5fd72, and "drm/amdgpu: Update vm start, end, hole to support 57bit
 * address", cf856ca9b999). Whether a 48-bit GPU can reach one is the
 * caller's target's business (kfdsig_lint_amd_signal() checks it). */
#define AQL_VA_BITS 57
#define AQL_VA_LIMIT (1ull << AQL_VA_BITS)

/* KFDSIG_SIGNAL_AQL (signal.h): an interrupt signal placed in @code, then a
 * barrier-AND packet completing it; 16 dwords or a negative errno, nothing
 * written (and code->used unchanged) on error. */
int aql_signal_emit(const struct kfdsig_target *t, const struct kfdsig_fence *f,
		    struct kfdsig_code_buf *code, uint32_t *buf, size_t max_dw);

#endif
