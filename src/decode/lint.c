/* SPDX-License-Identifier: MIT */
/*
 * Lint: will the kernel accept the interrupt packets of a stream as event
 * signals? Each rule and the kernel code it follows:
 *
 *   ctxid-zero        kfd_events.c kfd_event_init_process() reserves id 0,
 *                     and kfd_int_process_v9.c event_interrupt_isr_v9()
 *                     drops a CP end-of-pipe interrupt with context id 0
 *                     (context_id_expected(); the rows of emu_gen.c)
 *   event-id-range    kfd_events.c: signal ids below signal_mapped_size / 8
 *                     (KFD_SIGNAL_EVENT_LIMIT, 4096) are the only ones an
 *                     interrupt can find; id 0 reserved (as above)
 *   ctxid-bit24       kfd_int_process_v11.c event_interrupt_isr_v11() drops
 *                     a CP end-of-pipe context with
 *                     AMDGPU_FENCE_MES_QUEUE_FLAG (bit 24, amdgpu_mes_ctx.h)
 *   trap-context-wide the kernel masks the SDMA TRAP context to 28 bits
 *                     (kfd_int_process_v9.c event_interrupt_wq_v9 and
 *                     cik_event_interrupt.c cik_event_interrupt_wq:
 *                     kfd_signal_event_interrupt(pasid, context_id &
 *                     0xfffffff, 28)): bits 31:28 are ignored, a warning
 *   sdma-short-submit ROCr amd_blit_sdma.cpp (BlitSdma::SubmitCommand pads
 *                     "Some GFX9 devices require a minimum of 64 DWORDS per
 *                     ring buffer submission"): a stream shorter than the
 *                     target's sdma_min_submit_dw, a warning
 *   ctxid-mismatch    kfd_events.c kfd_signal_event_interrupt(): the id the
 *                     interrupt carries names the slot it reads, so it must
 *                     be the slot written (needs the signal page)
 *   slot-misaligned,  kfd_events.c page_slots(): the page is an array of
 *   slot-outside-page KFD_SIGNAL_EVENT_LIMIT uint64_t slots
 *   value-unsignalled kfd_events.c UNSIGNALED_EVENT_SLOT (all ones): such a
 *                     slot reads as not signalled
 *   write-32bit       legal: the scan compares the whole u64 with
 *                     UNSIGNALED_EVENT_SLOT, so the untouched all-ones high
 *                     dword still makes it differ
 *   int-without-write kfd_events.c lookup_signaled_event_by_partial_id()
 *                     and the scan of kfd_signal_event_interrupt() skip a
 *                     slot that still reads UNSIGNALED_EVENT_SLOT: write it
 *                     before the interrupt
 *   sel-combination   soc15d.h / PM4 RELEASE_MEM DATA_SEL and INT_SEL: the
 *                     combinations that write or raise nothing
 *   gfx8-no-ctxid,    gfx_v8_0.c gfx_v8_0_ring_emit_fence_compute(): the gfx8
 *   gfx8-value        RELEASE_MEM has no INT_CTXID; cik_event_interrupt.c
 *                     cik_event_interrupt_wq() passes the IV data's low 28
 *                     bits, so the written value is the only id
 *                     (UNVERIFIED on hardware)
 *   xcc-duplicate-signal
 *                     multi-XCC nodes (GC 9.4.3 / 9.4.4 / 9.5.0 / 12.1, num_xcc > 1:
 *                     the decode option, else the target's max_xcc): every
 *                     XCC runs the PM4 ring (kfd_mqd_manager_v9.c
 *                     init_mqd_v9_4_3()), so an interrupting fence that no
 *                     PRED_EXEC naming one XCC covers signals num_xcc times:
 *                     a warning (docs/multi-xcc.md)
 *   eop-ctxid-trusted the v12_1 class (GC 12.1): kfd_int_process_v12_1.c
 *                     passes signal_mailbox_updated = false for the CP
 *                     end-of-pipe ("drm/amdkfd: Don't expect signal mailbox
 *                     update", 2026), so such a kernel wakes the event
 *                     INT_CTXID names without reading the slot: an info
 *                     note on every interrupting RELEASE_MEM of such a
 *                     target (docs/gc12_1.md)
 *   userq-interrupt   user-mode queue rings (KFDSIG_DECODE_USERQ): Mesa
 *                     amdgpu_cs.cpp amdgpu_cs_add_userq_packets() ends a
 *                     submission with a RELEASE_MEM of INT_SEL 0 and
 *                     PROTECTED_FENCE_SIGNAL, whose end-of-pipe interrupt
 *                     the CP tags with the queue's doorbell offset;
 *                     gfx_v11_0.c / gfx_v12_0.c *_eop_irq() read the
 *                     interrupt's source data as that doorbell offset and
 *                     look the fence driver up by it (userq_doorbell_xa),
 *                     so a RELEASE_MEM interrupt's INT_CTXID names no queue
 *                     and no KFD event: an error
 *   userq-trailer-value  with the ring position known
 *                     (KFDSIG_DECODE_RING_POS): the value the RELEASE_MEM
 *                     before PROTECTED_FENCE_SIGNAL writes must be the ring
 *                     position after the signal (Mesa's user_fence_seq_num
 *                     "+ 8 + 2", matched with the kernel's fence, whose
 *                     sequence number is the queue's wptr:
 *                     amdgpu_userq_fence.c amdgpu_userq_signal_ioctl())
 *   userq-fwm-entries FENCE_WAIT_MULTI above the target's entries per packet
 *                     (kfdsig_target.userq_fwm_max: Mesa's 32 / 4), or not
 *                     four dwords per entry
 *   userq-target      PROTECTED_FENCE_SIGNAL or FENCE_WAIT_MULTI on a target
 *                     without user-queue packets (pm4_check(), an error),
 *                     and PROTECTED_FENCE_SIGNAL on one whose GFX user
 *                     queues no kernel creates (userq_mec_fw 0:
 *                     gfx_v11_0.c gfx_v11_0_sw_init() leaves GC 11.0.1 and
 *                     11.5.x disabled), a warning
 *   userq-firmware    with the GPU's MEC firmware known (decode option
 *                     mec_fw): older than the kernel's user-queue minimum
 *                     (kfdsig_target.userq_mec_fw, gfx_v11_0.c / gfx_v12_0.c
 *                     *_sw_init()), a warning
 *   aql-pm4-ib-gen    ROCr sends the AQL_PM4_IB vendor packet to gfx9 queues
 *                     only (amd_aql_queue.cpp AqlQueue::ExecutePM4): a
 *                     warning on other generations
 *   aql-no-signal,    AQL: a packet's completion interrupts only through a
 *   aql-signal-unaligned  64-byte aligned amd_signal_t (lint_aql())
 *   aql-signal-*      the amd_signal_t a completion names, when its memory
 *                     is at hand (kfdsig_lint_amd_signal(): ROCr's
 *                     amd_signal.h layout, the slot rules above)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <kfdsig/aql.h>
#include <kfdsig/pm4.h>

#include "decode/decode_internal.h"
#include "decode/lint_fast.h"
#include "pm4/pm4_defs.h"
#include "sdma/sdma_defs.h"

/*
 * The fields the lint reads, by their name in the layouts: each names a
 * field of pm4_fields.def / sdma_fields.def (the "[0 * ...]" refers to it,
 * so a name the lists do not have does not compile). Layouts of other
 * packets with a field of the same name (EVENT_WRITE_EOP's int_sel, SDMA
 * WRITE's dst_addr_lo) are read through the same name.
 */
#define PM4_NAME(pkt, n) (&(#n)[0 * PM4_DW(pkt, n)])
#define SDMA_NAME(pkt, n) (&(#n)[0 * SDMA_DW(pkt, n)])
static const char *const lint_field_names[LF_COUNT] = {
	[LF_INT_SEL] = PM4_NAME(RM, int_sel),	      [LF_DATA_SEL] = PM4_NAME(RM, data_sel),
	[LF_ADDRESS_LO] = PM4_NAME(RM, address_lo),   [LF_ADDRESS_HI] = PM4_NAME(RM, address_hi),
	[LF_DATA_LO] = PM4_NAME(RM, data_lo),	      [LF_DATA_HI] = PM4_NAME(RM, data_hi),
	[LF_INT_CTXID] = PM4_NAME(RM, int_ctxid),     [LF_DST_SEL] = PM4_NAME(WD, dst_sel),
	[LF_DST_ADDR_LO] = PM4_NAME(WD, dst_addr_lo), [LF_DST_ADDR_HI] = PM4_NAME(WD, dst_addr_hi),
	[LF_ADDR_LO] = SDMA_NAME(FENCE, addr_lo),     [LF_ADDR_HI] = SDMA_NAME(FENCE, addr_hi),
	[LF_DATA] = SDMA_NAME(FENCE, data),
};

/* The fields of @desc the lint reads, resolved by name (lint_layout()
 * calls this once per decoder and layout). */
const struct lint_layout *lint_layout_slow(struct kfdsig_decoder *d,
					   const struct kfdsig_packet_desc *desc)
{
	struct lint_layout *l;

	for (unsigned i = 0; i < LINT_LAYOUTS; i++)
		if (d->lint.lay[i].desc == desc) {
			d->lint.last_lay = i;
			return &d->lint.lay[i];
		}
	d->lint.last_lay = d->lint.next_lay++ % LINT_LAYOUTS;
	l = &d->lint.lay[d->lint.last_lay];
	l->desc = desc;
	l->need = 0;
	l->present = 0;
	for (unsigned k = 0; k < LF_COUNT; k++) {
		l->f[k].dw = 0;
		l->f[k].shift = 0;
		l->f[k].mask = 0;
		for (unsigned i = 0; i < desc->nfields; i++) {
			const struct kfdsig_field *f = &desc->fields[i];

			if (strcmp(f->name, lint_field_names[k]))
				continue;
			l->f[k].dw = f->dw;
			l->f[k].shift = f->shift;
			l->f[k].mask = f->width >= 32 ? UINT32_MAX : (1u << f->width) - 1;
			if (f->dw + 1u > l->need)
				l->need = f->dw + 1u;
			l->present |= 1u << k;
			break;
		}
	}
	/* The clean fence's selects, when INT_SEL, DATA_SEL and INT_CTXID
	 * are all there and the selects share a dword. None on the v12_1
	 * class, whose every interrupting fence gets eop-ctxid-trusted. */
	l->sel_mask = l->sel_clean = 0;
	if (d->o.target->irq_class != KFDSIG_IRQ_V12_1 &&
	    (l->present & (RM_NEEDS | 1u << LF_INT_CTXID)) == (RM_NEEDS | 1u << LF_INT_CTXID) &&
	    l->f[LF_INT_SEL].dw == l->f[LF_DATA_SEL].dw) {
		l->sel_mask = l->f[LF_INT_SEL].mask << l->f[LF_INT_SEL].shift |
			      l->f[LF_DATA_SEL].mask << l->f[LF_DATA_SEL].shift;
		l->sel_clean = PM4_INT_SEL_INT_AFTER_WRITE_CONFIRM << l->f[LF_INT_SEL].shift |
			       PM4_DATA_SEL_64 << l->f[LF_DATA_SEL].shift;
	}
	return l;
}

/* Field @k of @p through layout @l; false when absent or beyond avail. */
static inline bool get(const struct lint_layout *l, const struct kfdsig_packet *p,
		       enum lint_field k, uint32_t *v)
{
	if (!(l->present >> k & 1) || l->f[k].dw >= p->avail)
		return false;
	*v = p->dw[l->f[k].dw] >> l->f[k].shift & l->f[k].mask;
	return true;
}

static void record(struct kfdsig_decoder *d, const struct kfdsig_packet *p, uint64_t addr,
		   bool is64, uint64_t value)
{
	struct lint_write *w = &d->lint.w;

	w->valid = true;
	w->is64 = is64;
	w->sdma_lo = false;
	w->addr = addr;
	w->value = value;
	w->offset = p->offset;
}

static inline __attribute__((always_inline)) void
check_interrupt(struct kfdsig_decoder *d, const struct kfdsig_packet *p, bool has_ctx, uint32_t ctx)
{
	const struct kfdsig_target *t = d->o.target;
	struct lint_write *w = &d->lint.w;
	bool sdma = d->o.engine == KFDSIG_ENGINE_SDMA;
	uint32_t id = sdma ? ctx & SDMA_TRAP_INT_CONTEXT_MASK : ctx;
	uint64_t o = p->offset;

	if (has_ctx) {
		if (sdma && (ctx & ~SDMA_TRAP_INT_CONTEXT_MASK))
			add_finding(d, o, KFDSIG_SEV_WARNING, "trap-context-wide",
				    "TRAP context 0x%08x sets bits 31:28, which the kernel masks "
				    "off (context_id & 0xfffffff): it reads event id %u",
				    ctx, id);
		if (id == 0)
			add_finding(d, o, KFDSIG_SEV_ERROR, "ctxid-zero",
				    sdma ? "TRAP context 0 names event 0, which the kernel "
					   "reserves and never signals"
					 : "INT_CTXID 0: the v9 ISR drops such end-of-pipe "
					   "interrupts (GC >= 9.4.1 or new MEC firmware) and "
					   "event id 0 is reserved");
		else if (id >= KFDSIG_SIGNAL_EVENT_LIMIT)
			add_finding(d, o, KFDSIG_SEV_ERROR, "event-id-range",
				    "the interrupt names event %u: ids >= 4096 are never "
				    "looked up, the kernel falls back to scanning every slot",
				    id);
		if (!sdma && t->drops_ctxid_bit24 && (ctx & (1u << 24)))
			add_finding(d, o, KFDSIG_SEV_ERROR, "ctxid-bit24",
				    "INT_CTXID 0x%x has bit 24 (AMDGPU_FENCE_MES_QUEUE_FLAG) "
				    "set: the %s ISR drops the interrupt",
				    ctx, kfdsig_irq_class_name(t->irq_class));
	}
	if (!w->valid) {
		add_finding(d, o, KFDSIG_SEV_WARNING, "int-without-write",
			    "interrupt with no slot write since the previous one: KFD only "
			    "signals an event whose slot something else wrote");
		return;
	}
	if (w->addr & 7)
		add_finding(d, o, KFDSIG_SEV_ERROR, "slot-misaligned",
			    "the slot write at 0x%llx is not 8-byte aligned",
			    (unsigned long long)w->addr);
	if (w->is64 ? w->value == UINT64_MAX : (uint32_t)w->value == UINT32_MAX)
		add_finding(d, o, KFDSIG_SEV_ERROR, "value-unsignalled",
			    "the value written leaves the slot all-ones, which the kernel "
			    "reads as unsignalled");
	else if (!w->is64)
		add_finding(d, o, KFDSIG_SEV_INFO, "write-32bit",
			    "the slot write is 32 bits: the high dword stays all-ones (the slot "
			    "reads 0xffffffff_%08x), which the kernel still reads as signalled",
			    (uint32_t)w->value);
	if (d->o.flags & KFDSIG_DECODE_SIGNAL_PAGE) {
		uint64_t page = d->o.signal_page_va, slot;

		if (w->addr < page || w->addr - page >= KFDSIG_SIGNAL_PAGE_SIZE) {
			add_finding(d, o, KFDSIG_SEV_ERROR, "slot-outside-page",
				    "the slot write at 0x%llx is outside the signal page "
				    "0x%llx .. +32 KiB",
				    (unsigned long long)w->addr, (unsigned long long)page);
		} else {
			slot = (w->addr - page) / 8;
			if (slot == 0)
				add_finding(d, o, KFDSIG_SEV_ERROR, "event-id-range",
					    "the write targets slot 0: event id 0 is reserved "
					    "and never signalled");
			if (has_ctx && id != slot)
				add_finding(d, o, KFDSIG_SEV_ERROR, "ctxid-mismatch",
					    "the interrupt names event %u but the write targets "
					    "slot %llu",
					    id, (unsigned long long)slot);
			if (!has_ctx && t->level == KFDSIG_GFX8 && (uint32_t)w->value != slot)
				add_finding(d, o, KFDSIG_SEV_WARNING, "gfx8-value",
					    "gfx8: the value written (%u) is not the event id "
					    "%llu, the only id the packet can carry",
					    (uint32_t)w->value, (unsigned long long)slot);
		}
	}
	w->valid = false;
}

/* RELEASE_MEM on a user-mode queue ring: no interrupt; remember the value
 * for the PROTECTED_FENCE_SIGNAL that should follow. */
static void lint_userq_release_mem(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	const struct lint_layout *l = lint_layout(d, p->desc);
	uint32_t int_sel, data_sel, lo = 0, hi = 0, ctx = 0;

	d->lint.uq_rm_valid = false;
	if (!get(l, p, LF_INT_SEL, &int_sel) || !get(l, p, LF_DATA_SEL, &data_sel))
		return;
	get(l, p, LF_INT_CTXID, &ctx);
	if (int_sel != PM4_INT_SEL_NONE)
		add_finding(d, p->offset, KFDSIG_SEV_ERROR, "userq-interrupt",
			    "%s with INT_SEL %u on a user-mode queue: the end-of-pipe handler "
			    "(gfx_v11_0/gfx_v12_0 eop_irq) reads the interrupt as the doorbell "
			    "offset of a user queue, so INT_CTXID %u names no queue and no KFD "
			    "event; the queue's fence is PROTECTED_FENCE_SIGNAL, the "
			    "RELEASE_MEM before it takes INT_SEL 0",
			    p->name, int_sel, ctx);
	get(l, p, LF_DATA_LO, &lo);
	get(l, p, LF_DATA_HI, &hi);
	if (data_sel == PM4_DATA_SEL_64 || data_sel == PM4_DATA_SEL_32) {
		d->lint.uq_rm_valid = true;
		d->lint.uq_rm_end = p->offset + p->ndw;
		d->lint.uq_rm_value = data_sel == PM4_DATA_SEL_64 ? (uint64_t)hi << 32 | lo : lo;
	}
}

/* PROTECTED_FENCE_SIGNAL: a target whose GFX user queues no kernel makes,
 * and the trailer's value against the ring position after it. */
static void lint_protected_signal(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	const struct kfdsig_target *t = d->o.target;
	uint64_t want;

	if (!t->userq_mec_fw)
		add_finding(d, p->offset, KFDSIG_SEV_WARNING, "userq-target",
			    "PROTECTED_FENCE_SIGNAL on %s: no kernel creates GFX or compute user "
			    "queues on GC %u.%u.%u (gfx_v11_0_sw_init() leaves it disabled), so no "
			    "ring of it runs this packet",
			    t->name, t->gc_ip[0], t->gc_ip[1], t->gc_ip[2]);
	else if (d->o.mec_fw && d->o.mec_fw < t->userq_mec_fw)
		add_finding(d, p->offset, KFDSIG_SEV_WARNING, "userq-firmware",
			    "PROTECTED_FENCE_SIGNAL on %s with MEC firmware %u: the kernel creates "
			    "user queues on GC %u.%u.%u from MEC %u on (gfx_v11_0_sw_init() / "
			    "gfx_v12_0_sw_init(), with ME, PFP and MES minimums too), so no ring "
			    "of this GPU runs this packet",
			    t->name, d->o.mec_fw, t->gc_ip[0], t->gc_ip[1], t->gc_ip[2],
			    t->userq_mec_fw);
	if ((d->o.flags & KFDSIG_DECODE_RING_POS) && d->lint.uq_rm_valid &&
	    d->lint.uq_rm_end == p->offset) {
		want = d->o.ring_pos + p->offset + p->ndw;
		if (d->lint.uq_rm_value != want)
			add_finding(d, p->offset, KFDSIG_SEV_ERROR, "userq-trailer-value",
				    "the RELEASE_MEM before PROTECTED_FENCE_SIGNAL writes %llu "
				    "(0x%llx) but the ring position after the signal is %llu "
				    "(0x%llx): the user fence and the kernel's fence (sequence "
				    "number: the queue's wptr) disagree",
				    (unsigned long long)d->lint.uq_rm_value,
				    (unsigned long long)d->lint.uq_rm_value,
				    (unsigned long long)want, (unsigned long long)want);
	}
	d->lint.uq_rm_valid = false;
}

/* FENCE_WAIT_MULTI: four dwords per entry, at most the target's entries. */
static void lint_fence_wait_multi(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	const struct kfdsig_target *t = d->o.target;
	uint32_t body = p->ndw >= 2 ? p->ndw - 2 : 0, n = body / 4;

	if (body % 4)
		add_finding(d, p->offset, KFDSIG_SEV_ERROR, "userq-fwm-entries",
			    "FENCE_WAIT_MULTI of %u dwords: after the control dword each entry "
			    "is 4 (address, 64-bit value), %u are left over",
			    p->ndw, body % 4);
	if (n > t->userq_fwm_max)
		add_finding(d, p->offset, KFDSIG_SEV_ERROR, "userq-fwm-entries",
			    "FENCE_WAIT_MULTI with %u entries: %s takes at most %u per packet "
			    "(Mesa amdgpu_cs_add_userq_packets() splits them)",
			    n, t->name, t->userq_fwm_max);
}

static __attribute__((noinline)) void lint_release_mem(struct kfdsig_decoder *d,
						       const struct kfdsig_packet *p)
{
	const struct lint_layout *l = lint_layout(d, p->desc);
	uint32_t int_sel, data_sel, lo = 0, hi = 0, dlo = 0, dhi = 0, ctx = 0;
	bool has_ctx, irq;
	uint64_t o = p->offset;

	if (d->o.flags & KFDSIG_DECODE_USERQ) {
		lint_userq_release_mem(d, p);
		return;
	}
	if (likely(p->avail >= l->need && (l->present & RM_NEEDS) == RM_NEEDS)) {
		/* The whole packet is there: no bounds check per field. */
		int_sel = lint_field(l, p, LF_INT_SEL);
		data_sel = lint_field(l, p, LF_DATA_SEL);
		lo = lint_field(l, p, LF_ADDRESS_LO);
		hi = lint_field(l, p, LF_ADDRESS_HI);
		dlo = lint_field(l, p, LF_DATA_LO);
		dhi = lint_field(l, p, LF_DATA_HI);
		has_ctx = l->present >> LF_INT_CTXID & 1;
		ctx = lint_field(l, p, LF_INT_CTXID);
	} else {
		if (!get(l, p, LF_INT_SEL, &int_sel) || !get(l, p, LF_DATA_SEL, &data_sel))
			return; /* truncated or short: already reported */
		get(l, p, LF_ADDRESS_LO, &lo);
		get(l, p, LF_ADDRESS_HI, &hi);
		get(l, p, LF_DATA_LO, &dlo);
		get(l, p, LF_DATA_HI, &dhi);
		has_ctx = get(l, p, LF_INT_CTXID, &ctx);
	}

	if (data_sel == PM4_DATA_SEL_NONE && int_sel == PM4_INT_SEL_NONE)
		add_finding(d, o, KFDSIG_SEV_WARNING, "sel-combination",
			    "%s with DATA_SEL none and INT_SEL none writes nothing and raises "
			    "nothing",
			    p->name);
	else if (int_sel == PM4_INT_SEL_NONE || int_sel == 3)
		add_finding(d, o, KFDSIG_SEV_INFO, "sel-combination",
			    "%s writes the slot but raises no interrupt (INT_SEL %u): a "
			    "polling fence, no KFD event is signalled",
			    p->name, int_sel);
	else if (int_sel == PM4_INT_SEL_INT_AFTER_WRITE_CONFIRM && data_sel == PM4_DATA_SEL_NONE)
		add_finding(d, o, KFDSIG_SEV_WARNING, "sel-combination",
			    "%s: INT_SEL interrupt-after-write-confirm with DATA_SEL none: there "
			    "is no write to confirm",
			    p->name);
	else if (int_sel == PM4_INT_SEL_INT_ONLY && data_sel != PM4_DATA_SEL_NONE)
		add_finding(d, o, KFDSIG_SEV_WARNING, "sel-combination",
			    "%s: INT_SEL interrupt-only with DATA_SEL %u: the kernel pairs "
			    "interrupt-only with DATA_SEL none; whether the data is written is "
			    "unverified",
			    p->name, data_sel);
	else if (int_sel > 3)
		add_finding(d, o, KFDSIG_SEV_WARNING, "sel-combination",
			    "%s: INT_SEL %u (send INT_CTXID variants): semantics unverified; "
			    "kfdsig and the kernel use 1 or 2",
			    p->name, int_sel);
	if (data_sel >= PM4_DATA_SEL_32 && data_sel <= 5 && int_sel != PM4_INT_SEL_INT_ONLY) {
		/* 3/4 store a counter, 5 GDS data: a value, but not one we know. */
		uint64_t v = data_sel <= PM4_DATA_SEL_64 ? ((uint64_t)dhi << 32 | dlo) : 0;

		if (data_sel == PM4_DATA_SEL_32)
			v = dlo;
		record(d, p, (uint64_t)hi << 32 | lo, data_sel != PM4_DATA_SEL_32, v);
	}
	irq = int_sel == PM4_INT_SEL_INT_ONLY || int_sel == PM4_INT_SEL_INT_AFTER_WRITE_CONFIRM ||
	      int_sel > 3;
	if (!irq)
		return;
	if (d->lint.num_xcc > 1 && !(d->lint.pred_one && p->offset + p->ndw <= d->lint.pred_end))
		add_finding(d, o, KFDSIG_SEV_WARNING, "xcc-duplicate-signal",
			    "%s interrupt outside a one-XCC PRED_EXEC: all %u XCCs of the node "
			    "run it, event %u gets %u interrupts and is set by each that finds "
			    "its slot still signalled (1 to %u times, as the XCCs race the "
			    "handler); predicate it inside an IB",
			    p->name, d->lint.num_xcc, ctx, d->lint.num_xcc, d->lint.num_xcc);
	if (has_ctx && d->o.target->irq_class == KFDSIG_IRQ_V12_1)
		add_finding(d, o, KFDSIG_SEV_INFO, "eop-ctxid-trusted",
			    "%s on %s (v12_1 class): kernels with the mailbox-free fast path "
			    "wake the event INT_CTXID %u names without reading the slot, so the "
			    "slot value is not what wakes the waiter; the slot write is kept for "
			    "kernels that still check it",
			    p->name, d->o.target->name, ctx);
	if (!has_ctx)
		add_finding(d, o, KFDSIG_SEV_INFO, "gfx8-no-ctxid",
			    "%s on %s has no INT_CTXID: which id the interrupt carries is "
			    "unverified, the kernel may have to scan every slot",
			    p->name, d->o.target->name);
	check_interrupt(d, p, has_ctx, ctx);
}

/* The first data dword of WRITE_DATA: after the destination address. */
#define WD_DATA_DW (PM4_DW(WD, dst_addr_hi) + 1)

static void lint_write_data(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	const struct lint_layout *l = lint_layout(d, p->desc);
	uint32_t dst, lo, hi, d0, d1;

	if (!get(l, p, LF_DST_SEL, &dst) || !get(l, p, LF_DST_ADDR_LO, &lo) ||
	    !get(l, p, LF_DST_ADDR_HI, &hi) || !dw_at(p->dw, p->avail, WD_DATA_DW, &d0))
		return;
	/* 1 memory (sync), 2 TC L2, 5 memory: writes that land in the slot. */
	if (dst != 1 && dst != 2 && dst != PM4_WD_DST_SEL_MEMORY)
		return;
	if (p->ndw >= WD_DATA_DW + 2 && dw_at(p->dw, p->avail, WD_DATA_DW + 1, &d1))
		record(d, p, (uint64_t)hi << 32 | lo, true, (uint64_t)d1 << 32 | d0);
	else
		record(d, p, (uint64_t)hi << 32 | lo, false, d0);
}

/* PRED_EXEC: the dwords after it up to pred_end run on the XCCs of its
 * mask (one bit: once). */
static void lint_pred_exec(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	uint32_t v;

	if (!dw_at(p->dw, p->avail, PM4_DW(PRED, exec_count), &v))
		return;
	d->lint.pred_end = p->offset + p->ndw + PM4_GET(PRED, exec_count, v);
	v = PM4_GET(PRED, xcc_mask, v);
	d->lint.pred_one = v && !(v & (v - 1));
}

/* DISPATCH_DIRECT: CS_W32_EN (COMPUTE_DISPATCH_INITIATOR bit 15) exists
 * from gfx10 on (wave32 is an RDNA mode: LLVM AMDGPUUsage
 * ENABLE_WAVEFRONT_SIZE32 "GFX6-GFX9: Reserved, must be 0"; Mesa and
 * kfdtest set it for gfx10+ only). */
static void lint_dispatch(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	const struct kfdsig_target *t = d->o.target;
	uint32_t v;

	if (!t || !dw_at(p->dw, p->avail, PM4_DW(DD, cs_w32_en), &v))
		return;
	if (PM4_GET(DD, cs_w32_en, v) && t->level < KFDSIG_GFX10)
		add_finding(d, p->offset, KFDSIG_SEV_ERROR, "dispatch-wave32",
			    "DISPATCH_DIRECT sets CS_W32_EN on %s: wave32 exists from gfx10 on, "
			    "the waves of a wave32 kernel run as wave64 here",
			    t->name);
}

/* SET_SH_REG: COMPUTE_PGM_RSRC3 sits at 0x22d on gfx90a/gfx94x, at 0x228
 * from gfx10 to gfx12.0 and at 0x223 on GC 12.1 (kfdsig/pm4.h): another
 * generation's offset is not this target's RSRC3. */
static void lint_set_sh_reg(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	const struct kfdsig_target *t = d->o.target;
	uint32_t off, n = p->ndw >= 2 ? p->ndw - 2 : 0;
	static const struct {
		uint32_t off;
		const char *gen;
	} rsrc3[] = { { KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GFX90A, "gfx90a/gfx94x" },
		      { KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GFX10, "gfx10 to gfx12.0" },
		      { KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GC12_1, "GC 12.1" } };
	char own[32];

	if (!t || !dw_at(p->dw, p->avail, PM4_DW(SSR, reg_offset), &off))
		return;
	off = PM4_GET(SSR, reg_offset, off);
	if (t->sh_compute_pgm_rsrc3)
		snprintf(own, sizeof(own), "it at 0x%x", t->sh_compute_pgm_rsrc3);
	else
		snprintf(own, sizeof(own), "no COMPUTE_PGM_RSRC3");
	for (unsigned i = 0; i < KFDSIG_ARRAY_SIZE(rsrc3); i++)
		if (rsrc3[i].off != t->sh_compute_pgm_rsrc3 && off <= rsrc3[i].off &&
		    rsrc3[i].off < off + n)
			add_finding(d, p->offset, KFDSIG_SEV_WARNING, "sh-reg-rsrc3",
				    "SET_SH_REG writes SH offset 0x%x, COMPUTE_PGM_RSRC3 of %s; %s "
				    "has %s",
				    rsrc3[i].off, rsrc3[i].gen, t->name, own);
}

/* The PM4 packets the lint reads: fences, slot writes, XCC predicates,
 * dispatches. */
bool lint_pm4_wants(const struct kfdsig_packet *p)
{
	return p->sub_op == 3 && p->desc &&
	       (p->opcode == PM4_OP_RELEASE_MEM || p->opcode == PM4_OP_EVENT_WRITE_EOP ||
		p->opcode == PM4_OP_WRITE_DATA || p->opcode == PM4_OP_PRED_EXEC ||
		p->opcode == PM4_OP_DISPATCH_DIRECT || p->opcode == PM4_OP_SET_SH_REG ||
		p->opcode == PM4_OP_PROTECTED_FENCE_SIGNAL || p->opcode == PM4_OP_FENCE_WAIT_MULTI);
}

static void lint_pm4(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	if (!lint_pm4_wants(p))
		return;
	switch (p->opcode) {
	case PM4_OP_PRED_EXEC:
		lint_pred_exec(d, p);
		break;
	case PM4_OP_RELEASE_MEM:
	case PM4_OP_EVENT_WRITE_EOP:
		lint_release_mem(d, p);
		break;
	case PM4_OP_WRITE_DATA:
		lint_write_data(d, p);
		break;
	case PM4_OP_DISPATCH_DIRECT:
		lint_dispatch(d, p);
		break;
	case PM4_OP_SET_SH_REG:
		lint_set_sh_reg(d, p);
		break;
	case PM4_OP_PROTECTED_FENCE_SIGNAL:
		lint_protected_signal(d, p);
		break;
	case PM4_OP_FENCE_WAIT_MULTI:
		lint_fence_wait_multi(d, p);
		break;
	}
}

static void lint_sdma(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	struct lint_write *w = &d->lint.w;
	const struct lint_layout *l;
	uint32_t lo, hi, v, v1;
	uint64_t addr;

	if (!p->desc)
		return;
	switch (p->opcode) {
	case SDMA_OP_FENCE:
		l = lint_layout(d, p->desc);
		if (!get(l, p, LF_ADDR_LO, &lo) || !get(l, p, LF_ADDR_HI, &hi) ||
		    !get(l, p, LF_DATA, &v))
			return;
		addr = (uint64_t)hi << 32 | lo;
		if (w->valid && w->sdma_lo && addr == w->addr + 4) {
			/* The second FENCE of a 64-bit store. */
			w->is64 = true;
			w->sdma_lo = false;
			w->value |= (uint64_t)v << 32;
			return;
		}
		record(d, p, addr, false, v);
		w->sdma_lo = true;
		break;
	case SDMA_OP_WRITE:
		l = lint_layout(d, p->desc);
		if (!get(l, p, LF_DST_ADDR_LO, &lo) || !get(l, p, LF_DST_ADDR_HI, &hi) ||
		    !dw_at(p->dw, p->avail, SDMA_WRITE_HDR_DW, &v) || p->ndw <= SDMA_WRITE_HDR_DW)
			return;
		addr = (uint64_t)hi << 32 | lo;
		if (p->ndw >= SDMA_WRITE_HDR_DW + 2 &&
		    dw_at(p->dw, p->avail, SDMA_WRITE_HDR_DW + 1, &v1))
			record(d, p, addr, true, (uint64_t)v1 << 32 | v);
		else
			record(d, p, addr, false, v);
		break;
	case SDMA_OP_TRAP:
		if (dw_at(p->dw, p->avail, SDMA_DW(TRAP, int_context), &v))
			check_interrupt(d, p, true, v);
		break;
	}
}

/* Lint: does the packet's completion make the packet processor interrupt?
 * That needs a completion signal whose mailbox and event id are right; the
 * signal's contents are checked by kfdsig_amd_signal_check() (the CLI does
 * so with --mem images), here only what the packet itself says. */
static void lint_aql(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	uint32_t lo, hi;
	uint64_t sig;

	if (p->opcode == KFDSIG_AQL_TYPE_INVALID)
		return;
	/* ROCr sends this packet to gfx9 queues only (AqlQueue::ExecutePM4);
	 * UNVERIFIED for other generations' AQL firmware, so say so. */
	if (p->opcode == KFDSIG_AQL_TYPE_VENDOR_SPECIFIC &&
	    p->sub_op == KFDSIG_AQL_AMD_FORMAT_PM4_IB && d->o.target->gc_ip[0] != 9)
		add_finding(d, p->offset, KFDSIG_SEV_WARNING, "aql-pm4-ib-gen",
			    "AQL_PM4_IB on %s: ROCr uses this vendor packet on gfx9 only",
			    d->o.target->name);
	if (!dw_at(p->dw, p->avail, 14, &lo) || !dw_at(p->dw, p->avail, 15, &hi))
		return;
	sig = (uint64_t)hi << 32 | lo;
	if (!sig) {
		add_finding(d, p->offset, KFDSIG_SEV_INFO, "aql-no-signal",
			    "%s has no completion signal: its completion raises no interrupt",
			    p->name);
		return;
	}
	if (sig % KFDSIG_AMD_SIGNAL_ALIGN)
		add_finding(d, p->offset, KFDSIG_SEV_ERROR, "aql-signal-unaligned",
			    "%s: completion signal 0x%llx is not 64-byte aligned (amd_signal_t)",
			    p->name, (unsigned long long)sig);
}

void lint_pm4_rules(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	if (p->opcode == PM4_OP_WRITE_DATA)
		lint_write_data(d, p);
	else if (p->opcode == PM4_OP_PRED_EXEC)
		lint_pred_exec(d, p);
	else if (p->opcode == PM4_OP_DISPATCH_DIRECT)
		lint_dispatch(d, p);
	else if (p->opcode == PM4_OP_SET_SH_REG)
		lint_set_sh_reg(d, p);
	else if (p->opcode == PM4_OP_PROTECTED_FENCE_SIGNAL)
		lint_protected_signal(d, p);
	else if (p->opcode == PM4_OP_FENCE_WAIT_MULTI)
		lint_fence_wait_multi(d, p);
	else
		lint_release_mem(d, p);
}

void lint_packet(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	if (p->flags & (KFDSIG_PACKET_UNKNOWN | KFDSIG_PACKET_TRUNCATED))
		return;
	if (d->o.engine == KFDSIG_ENGINE_PM4)
		lint_pm4(d, p);
	else if (d->o.engine == KFDSIG_ENGINE_SDMA)
		lint_sdma(d, p);
	else
		lint_aql(d, p);
}

void lint_finish(struct kfdsig_decoder *d)
{
	const struct kfdsig_target *t = d->o.target;

	if (d->o.engine != KFDSIG_ENGINE_SDMA || !t->sdma_min_submit_dw || !d->st.dwords ||
	    d->st.dwords >= t->sdma_min_submit_dw)
		return;
	add_finding(d, 0, KFDSIG_SEV_WARNING, "sdma-short-submit",
		    "the submission is %llu dwords, below the %u-dword minimum SDMA "
		    "submission of %s: pad it with NOPs (kfdsig_sdma_pad_submit_dw())",
		    (unsigned long long)d->st.dwords, t->sdma_min_submit_dw, t->name);
}

KFDSIG_API int kfdsig_lint_amd_signal(const struct kfdsig_amd_signal *s, uint64_t signal_va,
				      uint64_t signal_page_va, uint64_t offset,
				      int (*finding)(void *ctx, const struct kfdsig_finding *f),
				      void *ctx)
{
	static const struct {
		unsigned int bit;
		enum kfdsig_severity sev;
		const char *rule, *what;
	} rules[] = {
		{ KFDSIG_AMD_SIGNAL_NO_MAILBOX, KFDSIG_SEV_WARNING, "aql-signal-no-mailbox",
		  "no event mailbox: its completion raises no interrupt" },
		{ KFDSIG_AMD_SIGNAL_ID_ZERO, KFDSIG_SEV_ERROR, "aql-signal-id-zero",
		  "event_id 0 is never a signal event (the v9+ ISRs drop context id 0)" },
		{ KFDSIG_AMD_SIGNAL_ID_RANGE, KFDSIG_SEV_ERROR, "aql-signal-id-range",
		  "event_id is beyond the 4096 slots of the signal page" },
		{ KFDSIG_AMD_SIGNAL_WRONG_SLOT, KFDSIG_SEV_ERROR, "aql-signal-wrong-slot",
		  "the mailbox is not the slot of event_id in --signal-page: the kernel finds that "
		  "slot unsignalled" },
		{ KFDSIG_AMD_SIGNAL_UNALIGNED, KFDSIG_SEV_ERROR, "aql-signal-unaligned-mailbox",
		  "the mailbox is not 8-byte aligned" },
		{ KFDSIG_AMD_SIGNAL_BAD_KIND, KFDSIG_SEV_WARNING, "aql-signal-kind",
		  "kind is not USER (1)" },
	};
	char msg[320];
	unsigned int bad;

	if (!s || !finding)
		return set_error(EINVAL, "kfdsig_lint_amd_signal: %s is NULL",
				 s ? "the finding callback" : "the signal");
	bad = kfdsig_amd_signal_check(s, signal_page_va);
	for (size_t k = 0; k < sizeof(rules) / sizeof(rules[0]); k++) {
		struct kfdsig_finding f = { offset, rules[k].sev, rules[k].rule, msg };
		int r;

		if (!(bad & rules[k].bit))
			continue;
		snprintf(msg, sizeof(msg),
			 "completion signal 0x%llx (kind %lld, mailbox 0x%llx, event_id %u): %s",
			 (unsigned long long)signal_va, (long long)s->kind,
			 (unsigned long long)s->event_mailbox_ptr, s->event_id, rules[k].what);
		r = finding(ctx, &f);
		if (r)
			return r;
	}
	return 0;
}
