/* SPDX-License-Identifier: MIT */
/*
 * The lint's per-packet shortcut, inline in the decoder's walk: the field
 * table of a layout (resolved once, lint.c) and the test that accepts the
 * fence nearly every stream is made of without running the rules.
 */
#ifndef KFDSIG_DECODE_LINT_FAST_H
#define KFDSIG_DECODE_LINT_FAST_H

#include "decode/decode_internal.h"
#include "pm4/pm4_defs.h"

/* The fields a RELEASE_MEM / EVENT_WRITE_EOP lint cannot do without. */
#define RM_NEEDS (1u << LF_INT_SEL | 1u << LF_DATA_SEL)

const struct lint_layout *lint_layout_slow(struct kfdsig_decoder *d,
					   const struct kfdsig_packet_desc *desc);

/* The fields of @desc the lint reads: the last layout first. */
static inline const struct lint_layout *lint_layout(struct kfdsig_decoder *d,
						    const struct kfdsig_packet_desc *desc)
{
	const struct lint_layout *l = &d->lint.lay[d->lint.last_lay];

	if (likely(l->desc == desc))
		return l;
	return lint_layout_slow(d, desc);
}

/* Field @k of @p, 0 when the layout has none; @p holds l->need dwords. */
static inline uint32_t lint_field(const struct lint_layout *l, const struct kfdsig_packet *p,
				  enum lint_field k)
{
	return p->dw[l->f[k].dw] >> l->f[k].shift & l->f[k].mask;
}

/*
 * The clean fence, checked in one go: INT_SEL interrupt-after-write-confirm
 * and DATA_SEL 64-bit (one dword in every layout, compared at once), a
 * write of a value other than all-ones to an 8-byte aligned address, an
 * INT_CTXID naming event 1..4095 (so bit 24 is clear), and with the signal
 * page that very slot. Each condition is the negation of a rule of
 * lint.c's lint_release_mem() and check_interrupt(), so no rule fires.
 * False (nothing done) for anything else, which takes the rules one by one
 * (lint_pm4_rules()).
 */
static inline bool lint_clean_fence(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	const struct lint_layout *l = lint_layout(d, p->desc);
	uint64_t addr, value;
	uint32_t ctx;

	/* multi-XCC: the rules decide whether a PRED_EXEC covers it; a
	 * user-mode queue's fences follow other rules */
	if (d->lint.num_xcc > 1 || (d->o.flags & KFDSIG_DECODE_USERQ))
		return false;
	if (p->avail < l->need || !l->sel_mask ||
	    (p->dw[l->f[LF_INT_SEL].dw] & l->sel_mask) != l->sel_clean)
		return false;
	ctx = lint_field(l, p, LF_INT_CTXID);
	addr = (uint64_t)lint_field(l, p, LF_ADDRESS_HI) << 32 | lint_field(l, p, LF_ADDRESS_LO);
	value = (uint64_t)lint_field(l, p, LF_DATA_HI) << 32 | lint_field(l, p, LF_DATA_LO);
	if (ctx - 1 >= KFDSIG_SIGNAL_EVENT_LIMIT - 1 || (addr & 7) || value == UINT64_MAX)
		return false;
	if ((d->o.flags & KFDSIG_DECODE_SIGNAL_PAGE) &&
	    (addr < d->o.signal_page_va || addr - d->o.signal_page_va != 8ull * ctx))
		return false;
	/* record() then check_interrupt() leave the write consumed; a PM4
	 * decoder never reads a consumed write's other fields (only the SDMA
	 * FENCE pairing does), so consuming it is all there is to do. */
	d->lint.w.valid = false;
	return true;
}

#endif
