/* SPDX-License-Identifier: MIT */
/*
 * PM4 fence-with-interrupt emitters for KFD user compute queues (and the gfx8
 * graphics ring form), plus the field layouts of the packets they write.
 */
#ifndef KFDSIG_PM4_H
#define KFDSIG_PM4_H

#include <stddef.h>
#include <stdint.h>

#include <kfdsig/common.h>
#include <kfdsig/fence.h>
#include <kfdsig/target.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Dwords of one RELEASE_MEM: 7 on gfx8 (no INT_CTXID), 8 from gfx9 on. */
#define KFDSIG_PM4_RELEASE_MEM_DW_GFX8 7
#define KFDSIG_PM4_RELEASE_MEM_DW 8
/* Dwords of a gfx8 EVENT_WRITE_EOP. */
#define KFDSIG_PM4_EVENT_WRITE_EOP_DW 6
/* Dwords of a WRITE_DATA carrying one 64-bit value. */
#define KFDSIG_PM4_WRITE_DATA64_DW 6
/* The most any fence sequence takes (WRITE_DATA + RELEASE_MEM). */
#define KFDSIG_PM4_FENCE_MAX_DW 14

/**
 * kfdsig_pm4_fence_dw() - dwords the sequence described by @f takes on @t.
 *
 * Performs every check kfdsig_pm4_emit_fence() performs.
 * Return: the number of dwords, or -EINVAL (reason in kfdsig_last_error()).
 */
KFDSIG_API int kfdsig_pm4_fence_dw(const struct kfdsig_target *t, const struct kfdsig_fence *f);

/**
 * kfdsig_pm4_emit_fence() - write a fence-with-interrupt sequence.
 * @t:      target (kfdsig_target_by_name())
 * @f:      what to write; see struct kfdsig_fence
 * @buf:    caller's buffer, at least kfdsig_pm4_fence_dw() dwords
 *          (KFDSIG_PM4_FENCE_MAX_DW always suffices)
 * @max_dw: room in @buf, in dwords
 *
 * Default sequence (form KFDSIG_PM4_RELEASE_MEM, no flags): one RELEASE_MEM
 * of event CACHE_FLUSH_AND_INV_TS at end of pipe with the generation's L2
 * writeback+invalidate, a 64-bit write to f->slot_va, INT_SEL "interrupt
 * after write confirm", and INT_CTXID = f->event_id (gfx9 and later). The
 * value written is 1, except on gfx8: there the packet has no INT_CTXID and
 * the only id the interrupt can carry is in the written data, so the default
 * value is the event id.
 *
 * Checks (all relaxed by KFDSIG_FENCE_DELIBERATELY_BAD): event id 1..4095,
 * slot address non-zero, below 2^48 and 8-byte aligned (4 for 32-bit
 * writes), value never leaving the slot all-ones, context id equal to the
 * event id.
 *
 * Return: dwords written, -EINVAL for a refused description, -ENOSPC when
 * @max_dw is too small (nothing is written then).
 */
KFDSIG_API int kfdsig_pm4_emit_fence(const struct kfdsig_target *t, const struct kfdsig_fence *f,
				     uint32_t *buf, size_t max_dw);

/*
 * Field layouts of the packets kfdsig writes, for annotating and decoding.
 * One table (src/pm4/pm4_layout.c) per packet and generation form.
 */
struct kfdsig_field {
	const char *name;
	uint8_t dw;    /* dword index within the packet, 0 = header */
	uint8_t shift; /* lowest bit */
	uint8_t width; /* bits */
	/* Names of the values 0 .. nvalues-1 (NULL entries: no name). */
	uint8_t nvalues;
	const char *const *values;
};

struct kfdsig_packet_desc {
	const char *name; /* "RELEASE_MEM" */
	uint8_t opcode;
	uint8_t min_dw; /* dwords including the header */
	uint16_t nfields;
	const struct kfdsig_field *fields;
};

/** kfdsig_field_get() - the value of @fld in packet @pkt (no bounds check
 * on @pkt: the caller owns a packet of at least fld->dw + 1 dwords). */
static inline uint32_t kfdsig_field_get(const struct kfdsig_field *fld, const uint32_t *pkt)
{
	uint32_t v = pkt[fld->dw] >> fld->shift;

	return fld->width >= 32 ? v : v & ((1u << fld->width) - 1);
}

/**
 * kfdsig_pm4_packet_desc() - layout of PM4 type-3 opcode @opcode on @t.
 *
 * Return: the layout, or NULL with errno = ENOENT when kfdsig has none for
 * that opcode (errno = EINVAL for a NULL target).
 */
KFDSIG_API const struct kfdsig_packet_desc *kfdsig_pm4_packet_desc(const struct kfdsig_target *t,
								   unsigned int opcode);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_PM4_H */
