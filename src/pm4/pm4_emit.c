/* SPDX-License-Identifier: MIT */
/*
 * PM4 fence-with-interrupt emitters. The packet forms follow the kernel's
 * own fence emitters with the interrupt enabled, the 64-bit write and the
 * event id in INT_CTXID (amdgpu vid.h / soc15d.h / nvd.h):
 *   gfx8   gfx_v8_0_ring_emit_fence_compute: RELEASE_MEM, 7 dwords
 *   gfx9   gfx_v9_0_ring_emit_fence / gfx_v9_4_3_ring_emit_fence: 8 dwords
 *   gfx10+ gfx_v10_0/v11_0/v12_0_ring_emit_fence: 8 dwords, GCR bits
 *   GC 12.1 gfx_v12_1_ring_emit_fence: 8 dwords, gfx_v12_1_pkt.h GCR bits
 */
#include <errno.h>

#include "core/fence_check.h"
#include "core/internal.h"
#include "pm4/pm4_defs.h"

/* The inline kfdsig_pm4_fence_write() (kfdsig/pm4.h) patches the fast
 * layouts at fixed dwords: they must be where pm4_fields.def puts them. */
_Static_assert(PM4_DW(RM, address_lo) == 3 && PM4_DW(RM, address_hi) == 4 &&
		       PM4_DW(RM, data_lo) == 5 && PM4_DW(RM, int_ctxid) == 7,
	       "kfdsig_pm4_fence_write() fast layouts disagree with pm4_fields.def");

#define EOP_EVENT(type) \
	(PM4_PUT(EOP, event_type, type) | PM4_PUT(EOP, event_index, PM4_EVENT_INDEX_EOP))
#define FLUSH_EVENT EOP_EVENT(PM4_EVENT_CACHE_FLUSH_AND_INV_TS)
/* No cache action: a bottom-of-pipe timestamp event (Mesa does the same for
 * an end-of-pipe write that needs no flush). */
#define NOFLUSH_EVENT EOP_EVENT(PM4_EVENT_BOTTOM_OF_PIPE_TS)
#define NV_BYPASS PM4_PUT(EOP, cache_policy, PM4_RM_CACHE_POLICY_BYPASS)
/* gfx_v12_1_ring_emit_fence(): GCR_SEQ(1) | GCR_GLV_WB | GCR_GL2_WB |
 * GCR_GL2_SCOPE(2) | TEMPORAL(3) besides the event (gfx_v12_1_pkt.h). */
#define GC121_FENCE                                                                             \
	(PM4_PUT(EOP121, gcr_seq, 1) | PM4_BIT(EOP121, gcr_glv_wb) | PM4_BIT(EOP, gcr_gl2_wb) | \
	 PM4_PUT(EOP121, gcr_gl2_scope, 2) | PM4_PUT(EOP, temporal, 3))

/* RELEASE_MEM / EVENT_WRITE_EOP dword 1 by fence form and cache action. */
static const uint32_t eop_dw1[4][3] = {
	/* gfx8: gfx_v8_0_ring_emit_fence_compute uses TCL1 + TC + TC_WB. */
	[KFDSIG_PM4_FENCE_VI] = {
		[KFDSIG_CACHE_FLUSH_INV] = FLUSH_EVENT | PM4_BIT(EOP, tcl1_action_ena) |
					   PM4_BIT(EOP, tc_action_ena) | PM4_BIT(EOP, tc_wb_action_ena),
		[KFDSIG_CACHE_WB] = FLUSH_EVENT | PM4_BIT(EOP, tc_wb_action_ena),
		[KFDSIG_CACHE_NONE] = NOFLUSH_EVENT,
	},
	/* gfx9, gfx94x: gfx_v9_0 / gfx_v9_4_3 fence: TCL1 + TC + TC_MD + TC_WB,
	 * or TC_WB + TC_NC for their writeback-only form. */
	[KFDSIG_PM4_FENCE_AI] = {
		[KFDSIG_CACHE_FLUSH_INV] = FLUSH_EVENT | PM4_BIT(EOP, tcl1_action_ena) |
					   PM4_BIT(EOP, tc_action_ena) | PM4_BIT(EOP, tc_md_action_ena) |
					   PM4_BIT(EOP, tc_wb_action_ena),
		[KFDSIG_CACHE_WB] = FLUSH_EVENT | PM4_BIT(EOP, tc_wb_action_ena) |
				    PM4_BIT(EOP, tc_nc_action_ena),
		[KFDSIG_CACHE_NONE] = NOFLUSH_EVENT,
	},
	/* gfx10-12: gfx_v10_0_ring_emit_fence GCR set, cache policy bypass. */
	[KFDSIG_PM4_FENCE_NV] = {
		[KFDSIG_CACHE_FLUSH_INV] = FLUSH_EVENT | NV_BYPASS | PM4_BIT(EOP, gcr_seq) |
					   PM4_BIT(EOP, gcr_gl2_wb) | PM4_BIT(EOP, gcr_gl2_inv) |
					   PM4_BIT(EOP, gcr_gl2_us) | PM4_BIT(EOP, gcr_gl1_inv) |
					   PM4_BIT(EOP, gcr_glv_inv) | PM4_BIT(EOP, gcr_glm_inv) |
					   PM4_BIT(EOP, gcr_glm_wb),
		[KFDSIG_CACHE_WB] = FLUSH_EVENT | NV_BYPASS | PM4_BIT(EOP, gcr_seq) |
				    PM4_BIT(EOP, gcr_gl2_wb) | PM4_BIT(EOP, gcr_glm_wb),
		[KFDSIG_CACHE_NONE] = NOFLUSH_EVENT | NV_BYPASS,
	},
	/* GC 12.1: flush-inv and writeback are both gfx_v12_1_ring_emit_fence's
	 * DW1 exactly (the kernel's fence sets no invalidate bit; commit
	 * 90ddf2794258 kept that DW1); none keeps the kernel's TEMPORAL 3 on a
	 * bottom-of-pipe event. */
	[KFDSIG_PM4_FENCE_GC12_1] = {
		[KFDSIG_CACHE_FLUSH_INV] = FLUSH_EVENT | GC121_FENCE,
		[KFDSIG_CACHE_WB] = FLUSH_EVENT | GC121_FENCE,
		[KFDSIG_CACHE_NONE] = NOFLUSH_EVENT | PM4_PUT(EOP, temporal, 3),
	},
};

#define PM4_FLAGS                                                                               \
	(KFDSIG_FENCE_VALUE | KFDSIG_FENCE_32BIT | KFDSIG_FENCE_INT_ONLY | KFDSIG_FENCE_CTXID | \
	 KFDSIG_FENCE_DELIBERATELY_BAD)

/* Validate; return the sequence length in dwords and the value to write. */
static int pm4_fence_prepare(const struct kfdsig_target *t, const struct kfdsig_fence *f,
			     uint64_t *value)
{
	int ret, rm_dw;

	if (unlikely(!t || !f))
		return set_error(EINVAL, "no target or no fence description");
	/* gfx8 default value: the event id, since the written data is the only
	 * place the interrupt can take an id from (no INT_CTXID). */
	ret = fence_check(t, f, PM4_FLAGS, t->pm4_fence == KFDSIG_PM4_FENCE_VI ? f->event_id : 1,
			  value);
	if (unlikely(ret))
		return ret;

	rm_dw = t->pm4_fence == KFDSIG_PM4_FENCE_VI ? KFDSIG_PM4_RELEASE_MEM_DW_GFX8
						    : KFDSIG_PM4_RELEASE_MEM_DW;
	if (unlikely((f->flags & KFDSIG_FENCE_CTXID) && t->pm4_fence == KFDSIG_PM4_FENCE_VI))
		return set_error(
			EINVAL, "%s RELEASE_MEM has no INT_CTXID dword: a context id cannot be set",
			t->name);
	switch (f->form) {
	case KFDSIG_PM4_RELEASE_MEM:
		return rm_dw;
	case KFDSIG_PM4_WRITE_DATA_INT:
		if (unlikely(f->flags & KFDSIG_FENCE_INT_ONLY))
			return set_error(
				EINVAL,
				"WRITE_DATA form always writes the slot: drop interrupt-only");
		return rm_dw + ((f->flags & KFDSIG_FENCE_32BIT) ? 5 : 6);
	case KFDSIG_PM4_EVENT_WRITE_EOP:
		if (unlikely(t->level != KFDSIG_GFX8))
			return set_error(EINVAL,
					 "EVENT_WRITE_EOP is a gfx8 graphics-ring packet; "
					 "%s uses RELEASE_MEM",
					 t->name);
		return KFDSIG_PM4_EVENT_WRITE_EOP_DW;
	default:
		return set_error(EINVAL, "unknown PM4 form %u", f->form);
	}
}

int kfdsig_pm4_fence_dw(const struct kfdsig_target *t, const struct kfdsig_fence *f)
{
	uint64_t value;

	return pm4_fence_prepare(t, f, &value);
}

static uint32_t *emit_release_mem(uint32_t *p, const struct kfdsig_target *t, uint32_t dw1,
				  uint32_t dw2, uint64_t addr, uint64_t value, uint32_t ctxid)
{
	int vi = t->pm4_fence == KFDSIG_PM4_FENCE_VI;

	p[0] = PM4_HDR(PM4_OP_RELEASE_MEM, vi ? 6 : 7);
	p[PM4_DW(EOP, event_type)] = dw1;
	p[PM4_DW(RM, int_sel)] = dw2;
	p[PM4_DW(RM, address_lo)] = (uint32_t)addr;
	p[PM4_DW(RM, address_hi)] = (uint32_t)(addr >> 32);
	p[PM4_DW(RM, data_lo)] = (uint32_t)value;
	p[PM4_DW(RM, data_hi)] = (uint32_t)(value >> 32);
	if (vi)
		return p + PM4_DW(RM, int_ctxid);
	p[PM4_DW(RM, int_ctxid)] = ctxid;
	return p + PM4_DW(RM, int_ctxid) + 1;
}

int kfdsig_pm4_emit_fence(const struct kfdsig_target *t, const struct kfdsig_fence *f,
			  uint32_t *buf, size_t max_dw)
{
	uint32_t flags, dw1, data_sel, ctxid;
	uint64_t value, addr;
	int n;

	/* The default fence in a handful of compares and eight stores; any
	 * other description, and every refusal, takes the full path below. */
	if (likely(t && f && buf && !f->flags && !f->form && !f->reserved &&
		   f->cache <= KFDSIG_CACHE_NONE &&
		   f->event_id - 1u < KFDSIG_SIGNAL_EVENT_LIMIT - 1u &&
		   f->slot_va > 8ull * f->event_id && !(f->slot_va & 7) &&
		   !((f->slot_va - 8ull * f->event_id) & (KFDSIG_SIGNAL_PAGE_ALIGN - 1)) &&
		   !((f->slot_va + 7) >> t->va_bits) && max_dw >= KFDSIG_PM4_RELEASE_MEM_DW)) {
		uint32_t *end = emit_release_mem(
			buf, t, eop_dw1[t->pm4_fence][f->cache],
			PM4_PUT(RM, data_sel, PM4_DATA_SEL_64) |
				PM4_PUT(RM, int_sel, PM4_INT_SEL_INT_AFTER_WRITE_CONFIRM),
			f->slot_va, t->pm4_fence == KFDSIG_PM4_FENCE_VI ? f->event_id : 1,
			f->event_id);

		return (int)(end - buf);
	}

	n = pm4_fence_prepare(t, f, &value);
	if (unlikely(n < 0))
		return n;
	if (unlikely(!buf || max_dw < (size_t)n))
		return set_error(ENOSPC, "fence needs %d dwords, buffer has %zu", n,
				 buf ? max_dw : 0);

	flags = f->flags;
	dw1 = eop_dw1[t->pm4_fence][f->cache];
	ctxid = (flags & KFDSIG_FENCE_CTXID) ? f->ctxid : f->event_id;
	data_sel = (flags & KFDSIG_FENCE_32BIT) ? PM4_DATA_SEL_32 : PM4_DATA_SEL_64;
	addr = f->slot_va;

	switch (f->form) {
	case KFDSIG_PM4_RELEASE_MEM:
		if (flags & KFDSIG_FENCE_INT_ONLY)
			emit_release_mem(buf, t, dw1,
					 PM4_PUT(RM, data_sel, PM4_DATA_SEL_NONE) |
						 PM4_PUT(RM, int_sel, PM4_INT_SEL_INT_ONLY),
					 0, 0, ctxid);
		else
			emit_release_mem(
				buf, t, dw1,
				PM4_PUT(RM, data_sel, data_sel) |
					PM4_PUT(RM, int_sel, PM4_INT_SEL_INT_AFTER_WRITE_CONFIRM),
				addr, value, ctxid);
		break;
	case KFDSIG_PM4_WRITE_DATA_INT: {
		/* WRITE_DATA to memory with write confirm, as the kernel's KIQ
		 * fence does; the slot is written when the CP reaches the packet.
		 * The interrupt-only RELEASE_MEM then fires at end of pipe. */
		int ndata = data_sel == PM4_DATA_SEL_32 ? 1 : 2;
		uint32_t *p = buf;

		p[0] = PM4_HDR(PM4_OP_WRITE_DATA, 3 + ndata);
		p[1] = PM4_PUT(WD, dst_sel, PM4_WD_DST_SEL_MEMORY) | PM4_BIT(WD, wr_confirm);
		p[PM4_DW(WD, dst_addr_lo)] = (uint32_t)addr;
		p[PM4_DW(WD, dst_addr_hi)] = (uint32_t)(addr >> 32);
		p[PM4_DW(WD, dst_addr_hi) + 1] = (uint32_t)value;
		if (ndata == 2)
			p[PM4_DW(WD, dst_addr_hi) + 2] = (uint32_t)(value >> 32);
		emit_release_mem(p + 3 + 1 + ndata, t, dw1,
				 PM4_PUT(RM, data_sel, PM4_DATA_SEL_NONE) |
					 PM4_PUT(RM, int_sel, PM4_INT_SEL_INT_ONLY),
				 0, 0, ctxid);
		break;
	}
	case KFDSIG_PM4_EVENT_WRITE_EOP: {
		/* gfx_v8_0_ring_emit_fence_gfx's second packet (the first, a
		 * non-interrupting "dummy" write of seq - 1, is a kernel cache
		 * workaround for its own fences and is not emitted). */
		uint32_t int_sel = PM4_INT_SEL_INT_AFTER_WRITE_CONFIRM;

		if (flags & KFDSIG_FENCE_INT_ONLY) {
			addr = 0;
			value = 0;
			data_sel = PM4_DATA_SEL_NONE;
			int_sel = PM4_INT_SEL_INT_ONLY;
		}
		buf[0] = PM4_HDR(PM4_OP_EVENT_WRITE_EOP, 5);
		buf[PM4_DW(EOP, event_type)] = dw1;
		buf[PM4_DW(EWE, address_lo)] = (uint32_t)addr;
		buf[PM4_DW(EWE, address_hi)] = PM4_PUT(EWE, address_hi, addr >> 32) |
					       PM4_PUT(EWE, int_sel, int_sel) |
					       PM4_PUT(EWE, data_sel, data_sel);
		buf[PM4_DW(EWE, data_lo)] = (uint32_t)value;
		buf[PM4_DW(EWE, data_hi)] = (uint32_t)(value >> 32);
		break;
	}
	}
	return n;
}

int kfdsig_pm4_timestamp_dw(const struct kfdsig_target *t)
{
	if (unlikely(!t))
		return set_error(EINVAL, "no target");
	return t->pm4_fence == KFDSIG_PM4_FENCE_VI ? KFDSIG_PM4_TIMESTAMP_DW_GFX8
						   : KFDSIG_PM4_TIMESTAMP_DW;
}

/*
 * GPU timestamp: RELEASE_MEM with DATA_SEL 3 "send_gpu_clock_counter"
 * (gfx_v8_0.c gfx_v8_0_ring_emit_fence_compute(), kfd_pm4_headers_vi.h VI enum, kfd_pm4_headers_ai.h AI enum; the gfx10+ nvd.h PACKET3_RELEASE_MEM
 * field is the same 3 bits at [31:29]) and INT_SEL 0. Event and cache
 * action are the fence table's no-flush column: a bottom-of-pipe timestamp
 * event, cache policy bypass from gfx10, as Mesa writes its timestamp
 * queries; the counter needs no cache flush before it.
 */
int kfdsig_pm4_emit_timestamp(const struct kfdsig_target *t, uint64_t dst_va, uint32_t *buf,
			      size_t max_dw)
{
	int n = kfdsig_pm4_timestamp_dw(t);
	unsigned bits;

	if (unlikely(n < 0))
		return n;
	/* 48 bits, or the target's wider GPU VA (57 on GC 12.1). */
	bits = t->va_bits > 48 ? t->va_bits : 48;
	if (unlikely(!dst_va || (dst_va & 7) || (dst_va >> bits)))
		return set_error(EINVAL,
				 "timestamp address 0x%llx must be non-zero, 8-byte aligned "
				 "and below 2^%u",
				 (unsigned long long)dst_va, bits);
	if (unlikely(!buf || max_dw < (size_t)n))
		return set_error(ENOSPC, "timestamp needs %d dwords, buffer has %zu", n,
				 buf ? max_dw : 0);
	emit_release_mem(buf, t, eop_dw1[t->pm4_fence][KFDSIG_CACHE_NONE],
			 PM4_PUT(RM, data_sel, PM4_DATA_SEL_GPU_CLOCK) |
				 PM4_PUT(RM, int_sel, PM4_INT_SEL_NONE),
			 dst_va, 0, 0);
	return n;
}

int kfdsig_pm4_fence_prepare(const struct kfdsig_target *t, const struct kfdsig_fence *f,
			     uint64_t signal_page_va, struct kfdsig_pm4_fence_tmpl *tmpl)
{
	struct kfdsig_fence probe;
	int vi, n;

	if (unlikely(!t || !f || !tmpl))
		return set_error(EINVAL, "no target, fence description or template");
	if (unlikely(f->flags & (KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD)))
		return set_error(EINVAL,
				 "templates always carry the event id: use kfdsig_pm4_emit_fence() "
				 "for a chosen context id or a deliberately bad packet");
	if (unlikely(f->form == KFDSIG_PM4_EVENT_WRITE_EOP))
		return set_error(EINVAL, "no template for EVENT_WRITE_EOP (gfx8 graphics "
					 "rings): use kfdsig_pm4_emit_fence()");
	if (unlikely(signal_page_check(t, signal_page_va)))
		return -EINVAL;
	/* Emit for event 1 of the page; every check runs on the real options. */
	probe = *f;
	probe.event_id = 1;
	probe.slot_va = kfdsig_slot_va(signal_page_va, 1);
	n = kfdsig_pm4_emit_fence(t, &probe, tmpl->dw, KFDSIG_PM4_FENCE_MAX_DW);
	if (n < 0)
		return n;

	vi = t->pm4_fence == KFDSIG_PM4_FENCE_VI;
	tmpl->signal_page_va = signal_page_va;
	tmpl->ndw = (uint8_t)n;
	tmpl->addr_dw = KFDSIG_TMPL_NONE;
	tmpl->ctxid_dw = vi ? KFDSIG_TMPL_NONE : (uint8_t)(n - 1);
	tmpl->id_value_dw = KFDSIG_TMPL_NONE;
	tmpl->fast = 0;
	if (f->flags & KFDSIG_FENCE_INT_ONLY)
		return 0;
	switch (f->form) {
	case KFDSIG_PM4_RELEASE_MEM:
		tmpl->addr_dw = PM4_DW(RM, address_lo);
		if (!vi)
			tmpl->fast = KFDSIG_TMPL_RM8;
		/* The gfx8 default value is the event id (data_lo). */
		if (vi && !(f->flags & KFDSIG_FENCE_VALUE)) {
			tmpl->id_value_dw = PM4_DW(RM, data_lo);
			tmpl->fast = KFDSIG_TMPL_RM7_ID;
		}
		break;
	case KFDSIG_PM4_WRITE_DATA_INT:
		tmpl->addr_dw = PM4_DW(WD, dst_addr_lo);
		if (vi && !(f->flags & KFDSIG_FENCE_VALUE))
			tmpl->id_value_dw = PM4_DW(WD, dst_addr_hi) + 1;
		break;
	}
	return 0;
}

int kfdsig_pm4_fence_write_error(const struct kfdsig_pm4_fence_tmpl *tmpl, size_t max_dw,
				 uint32_t event_id)
{
	if (event_id == 0 || event_id >= KFDSIG_SIGNAL_EVENT_LIMIT)
		return set_error(EINVAL, "event id %u is outside 1..4095", event_id);
	return set_error(ENOSPC, "fence needs %u dwords, buffer has %zu", tmpl->ndw, max_dw);
}
