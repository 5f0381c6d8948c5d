/* SPDX-License-Identifier: MIT */
/*
 * The kernel side of the interrupt path, driven through the emulated
 * kernel's entry points rather than an engine (emulator only):
 * kfd_signal_event_interrupt() (kfdsig_emu_signal_event_interrupt: fast
 * path, partial-id walk, exhaustive scan, the v6.14-v6.18 drop; kfd_events.c kfd_signal_event_interrupt() / lookup_signaled_event_by_partial_id())
 * and the ISR classes in front of it (kfdsig_emu_interrupt: the gfx9
 * context-id-0 drop, the v11 bit-24 drop, the id bits of each source, bad
 * opcodes; cik_event_interrupt.c, kfd_int_process_v9/v10/v11.c). The slot is written from the CPU exactly as the
 * GPU's store would be. The GPU-raised versions of these checks are the
 * gpu.* cases.
 */
#include <errno.h>
#include <string.h>

#include "case.h"

#define MAX_EV 4096

struct evset {
	struct kfdsig_event ev[MAX_EV]; /* by id */
	uint32_t n;
};

/* Create @n manual-reset signal events with ids 1..n. */
static enum suite_result make_events(struct suite_ctx *c, struct evset *s, uint32_t n)
{
	s->n = 0;
	for (uint32_t i = 1; i <= n; i++) {
		struct kfdsig_event e;

		if (suite_event(c, false, &e))
			return SUITE_FAIL;
		if (e.id != i)
			return suite_fail(c, "event %u got id %u", i, e.id);
		s->ev[i] = e;
		s->n = i;
	}
	return SUITE_PASS;
}

/* What the GPU's slot write does. */
static void gpu_store(const struct kfdsig_event *e, uint64_t value)
{
	__atomic_store_n(e->slot, value, __ATOMIC_RELEASE);
}

static enum suite_result fast_path(struct suite_ctx *c)
{
	static struct evset s;
	int n;

	if (make_events(c, &s, 10))
		return SUITE_FAIL;
	gpu_store(&s.ev[5], 5);
	gpu_store(&s.ev[9], 9);
	n = kfdsig_emu_signal_event_interrupt(c->d->emu, c->pasid, 5, 32);
	SUITE_CHECK(c, n == 1, "full id 5 set %d events, expected 1 (the fast path)", n);
	SUITE_CHECK(c, *s.ev[5].slot == KFDSIG_SLOT_UNSIGNALED,
		    "slot 5 not acknowledged (still 0x%llx)", (unsigned long long)*s.ev[5].slot);
	SUITE_CHECK(c, *s.ev[9].slot == 9, "slot 9 was touched: the fast path scanned");
	SUITE_CHECK(c, suite_signalled(c, 5) && !suite_signalled(c, 9),
		    "expected only event 5 set");
	return SUITE_PASS;
}

static enum suite_result partial_walk(struct suite_ctx *c)
{
	static struct evset s;
	int n;

	if (make_events(c, &s, 300))
		return SUITE_FAIL;
	gpu_store(&s.ev[300], 300);
	/* 8 valid bits (the CIK SQ message): 300 & 0xff = 44 */
	n = kfdsig_emu_signal_event_interrupt(c->d->emu, c->pasid, 300 & 0xff, 8);
	SUITE_CHECK(c, n == 1, "partial id 44/8 bits set %d events, expected 1 (walk 44, 300)", n);
	SUITE_CHECK(c, suite_signalled(c, 300) && !suite_signalled(c, 44),
		    "the walk should set event 300, not 44");
	SUITE_CHECK(c, *s.ev[300].slot == KFDSIG_SLOT_UNSIGNALED, "slot 300 not acknowledged");
	return SUITE_PASS;
}

static enum suite_result exhaustive_scan(struct suite_ctx *c)
{
	static const uint32_t live[] = { 1, 64, 4095 };

	for (size_t k = 0; k < sizeof(live) / sizeof(live[0]); k++) {
		static struct evset s;
		struct kfdsig_kfd *old = c->kfd;
		uint32_t want = live[k] == 1 ? 1 : 3;
		int n, r;

		/* a fresh process per size */
		r = kfdsig_kfd_open(c->d->ops, &c->kfd);
		if (r < 0) {
			c->kfd = old;
			return suite_fail(c, "cannot open KFD: %s", kfdsig_last_error());
		}
		c->pasid = kfdsig_emu_pasid_on(c->d->emu, kfdsig_kfd_fd(c->kfd), c->d->gpu_id);
		if (make_events(c, &s, live[k])) {
			kfdsig_kfd_close(c->kfd);
			c->kfd = old;
			return SUITE_FAIL;
		}
		gpu_store(&s.ev[live[k]], 1);
		if (live[k] > 1) {
			gpu_store(&s.ev[1], 1);
			gpu_store(&s.ev[live[k] / 2], 1);
		}
		/* no valid id bits: nothing to look up, straight to the scan */
		n = kfdsig_emu_signal_event_interrupt(c->d->emu, c->pasid, 0, 0);
		bool ok = n == (int)want && suite_signalled(c, live[k]) &&
			  *s.ev[live[k]].slot == KFDSIG_SLOT_UNSIGNALED;
		kfdsig_kfd_close(c->kfd);
		c->kfd = old;
		c->pasid = kfdsig_emu_pasid_on(c->d->emu, kfdsig_kfd_fd(c->kfd), c->d->gpu_id);
		SUITE_CHECK(c, ok,
			    "with %u live events the scan set %d events, expected all %u signalled "
			    "slots (set and acknowledged)",
			    live[k], n, want);
	}
	return SUITE_PASS;
}

static enum suite_result wrong_id(struct suite_ctx *c)
{
	static struct evset s;
	int n, want = c->d->drops_wrong_id ? 0 : 1;

	if (make_events(c, &s, 8))
		return SUITE_FAIL;
	gpu_store(&s.ev[3], 3);
	/* a full id naming event 7, whose slot is not signalled */
	n = kfdsig_emu_signal_event_interrupt(c->d->emu, c->pasid, 7, 32);
	SUITE_CHECK(c, n == want,
		    "full id 7 (unsignalled) with slot 3 signalled set %d events; expected %d "
		    "(%s)",
		    n, want,
		    want ? "the scan finds slot 3" : "this kernel profile drops it without a scan");
	/* an id with no event at all (the invalid-event slow path) */
	if (!want) {
		SUITE_CHECK(c, *s.ev[3].slot == 3, "the dropped interrupt touched slot 3");
		n = kfdsig_emu_signal_event_interrupt(c->d->emu, c->pasid, 4000, 32);
		SUITE_CHECK(c, n == 0, "invalid id 4000 set %d events under the dropping profile",
			    n);
		return suite_note(c, "dropped without a scan, as kernel %s does", c->d->profile);
	}
	gpu_store(&s.ev[6], 6);
	n = kfdsig_emu_signal_event_interrupt(c->d->emu, c->pasid, 4000, 32);
	SUITE_CHECK(c, n == 1 && suite_signalled(c, 6),
		    "invalid id 4000 (no event) with slot 6 signalled set %d events; expected the "
		    "scan to set event 6",
		    n);
	return suite_note(c, "found by the scan, as kernel %s does", c->d->profile);
}

static enum suite_result ctx0_drop(struct suite_ctx *c)
{
	static struct evset s;
	bool isr_drops = kfdsig_target_drops_ctx0(c->t, c->dev->fw_version);
	int n, want = isr_drops || c->d->drops_wrong_id ? 0 : 1;

	if (make_events(c, &s, 4))
		return SUITE_FAIL;
	gpu_store(&s.ev[2], 2);
	n = kfdsig_emu_interrupt(c->d->emu, c->pasid, c->dev->gpu_id, KFDSIG_EMU_IRQ_CP_EOP, 0);
	SUITE_CHECK(c, n == want,
		    "CP end-of-pipe with context id 0 (slot 2 signalled) set %d events; expected "
		    "%d: %s",
		    n, want,
		    isr_drops ? "the ISR drops context id 0 on this target and MEC firmware"
		    : want    ? "id 0 finds nothing, the scan finds slot 2"
			      : "id 0 names an unsignalled slot: dropped by this kernel profile");
	return suite_note(c, "%s",
			  isr_drops ? "dropped by the ISR (context_id_expected)"
			  : want    ? "found by the scan"
				    : "dropped by kernel profile v6.14");
}

static enum suite_result bit24_drop(struct suite_ctx *c)
{
	static struct evset s;
	int n, want = c->t->drops_ctxid_bit24 ? 0 : 1;

	if (make_events(c, &s, 4))
		return SUITE_FAIL;
	gpu_store(&s.ev[2], 2);
	n = kfdsig_emu_interrupt(c->d->emu, c->pasid, c->dev->gpu_id, KFDSIG_EMU_IRQ_CP_EOP,
				 2u | 1u << 24);
	SUITE_CHECK(c, n == want,
		    "CP end-of-pipe with context id 0x1000002 set %d events; expected %d (%s)", n,
		    want,
		    want ? "this ISR class keeps bit 24; the id or the scan finds event 2"
			 : "the v11 (or v12_1) ISR drops a context id with bit 24 set");
	if (want)
		return suite_note(c, "kept by the %s ISR class",
				  kfdsig_irq_class_name(c->t->irq_class));
	return suite_note(c, "dropped by the %s ISR", kfdsig_irq_class_name(c->t->irq_class));
}

static enum suite_result ids_per_source(struct suite_ctx *c)
{
	static const uint32_t ids[] = { 1, 255, 256, 4095 };
	static const struct {
		enum kfdsig_emu_irq_source src;
		const char *name;
	} srcs[] = { { KFDSIG_EMU_IRQ_CP_EOP, "CP end-of-pipe" },
		     { KFDSIG_EMU_IRQ_SDMA_TRAP, "SDMA trap" },
		     { KFDSIG_EMU_IRQ_SQ_MSG, "SQ message" } };
	static struct evset s;

	if (make_events(c, &s, 4095))
		return SUITE_FAIL;
	for (size_t k = 0; k < sizeof(srcs) / sizeof(srcs[0]); k++) {
		for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			uint32_t id = ids[i];
			int n;

			gpu_store(&s.ev[id], id);
			n = kfdsig_emu_interrupt(c->d->emu, c->pasid, c->dev->gpu_id, srcs[k].src,
						 id);
			bool ok = n == 1 && suite_signalled(c, id);
			kfdsig_kfd_event_reset(c->kfd, id);
			SUITE_CHECK(
				c, ok, "%s naming event %u (%u id bits) set %d events, expected 1",
				srcs[k].name, id,
				srcs[k].src == KFDSIG_EMU_IRQ_CP_EOP	  ? c->t->cp_eop_id_bits
				: srcs[k].src == KFDSIG_EMU_IRQ_SDMA_TRAP ? c->t->sdma_trap_id_bits
									  : c->t->sq_msg_id_bits,
				n);
		}
	}
	return SUITE_PASS;
}

static enum suite_result bad_opcode(struct suite_ctx *c)
{
	struct kfdsig_event hw;
	bool cik = c->t->irq_class == KFDSIG_IRQ_CIK;
	int n, r;

	r = kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_HW_EXCEPTION, false, &hw);
	SUITE_CHECK(c, r == 0, "HW_EXCEPTION event: %s", strerror(-r));
	n = kfdsig_emu_interrupt(c->d->emu, c->pasid, c->dev->gpu_id, KFDSIG_EMU_IRQ_CP_BAD_OPCODE,
				 0);
	SUITE_CHECK(c, n == (cik ? 1 : 0) && suite_signalled(c, hw.id) == cik,
		    "CP bad opcode on the %s ISR class set %d events; expected %s",
		    kfdsig_irq_class_name(c->t->irq_class), n,
		    cik ? "the HW_EXCEPTION event (kfd_signal_hw_exception_event)"
			: "none (SOC15 classes route it to the debugger path)");
	return suite_note(c, "%s",
			  cik ? "HW_EXCEPTION set (CIK class)" : "no event (SOC15 debugger path)");
}

static const struct suite_case cases[] = {
	{ "irq.fast-path",
	  "kernel entry point kfd_signal_event_interrupt (not an engine): a full id whose slot is "
	  "signalled sets that event only and acknowledges its slot (written back to all-ones)",
	  NULL, SUITE_ENGINE_NONE, SUITE_EMU_ONLY, fast_path },
	{ "irq.partial-id-walk",
	  "kernel entry point: with 8 valid id bits (the CIK SQ message) the walk id, id+256, ... "
	  "finds the first signalled slot that has an event (44 -> 300)",
	  NULL, SUITE_ENGINE_NONE, SUITE_EMU_ONLY, partial_walk },
	{ "irq.exhaustive-scan",
	  "kernel entry point: an interrupt without id bits scans and sets every signalled slot, "
	  "with 1, 64 and 4095 live events (the event walk below 64 events, the slot walk above)",
	  NULL, SUITE_ENGINE_NONE, SUITE_EMU_ONLY, exhaustive_scan },
	{ "irq.wrong-id",
	  "kernel entry point: a full id naming an unsignalled slot, or an id with no event (the "
	  "invalid-event slow path), falls back to the scan",
	  "scan on mainline up to v6.13 and from v6.19 (and DKMS); dropped without a scan on "
	  "v6.14-v6.18 (de844846f72b, reverted by 88ef4de35f46): --kernel-profile v6.14",
	  SUITE_ENGINE_NONE, SUITE_EMU_ONLY, wrong_id },
	{ "irq.ctx0-drop",
	  "ISR class (kernel entry point, not an engine): a CP end-of-pipe interrupt with context "
	  "id 0 is dropped where the gfx9 filter applies, else reaches the event path",
	  "dropped on gfx9 with new MEC firmware and GC >= 9.4.1 (context_id_expected); elsewhere "
	  "the scan finds the slot, except on v6.14-v6.18 which drop id 0",
	  SUITE_ENGINE_NONE, SUITE_EMU_ONLY, ctx0_drop },
	{ "irq.bit24-drop",
	  "ISR class (kernel entry point): a CP end-of-pipe context id with bit 24 set is dropped "
	  "by the v11 class (gfx11, gfx12.0), kept by the others",
	  NULL, SUITE_ENGINE_NONE, SUITE_EMU_ONLY, bit24_drop },
	{ "irq.ids-per-source",
	  "ISR class (kernel entry point): CP end-of-pipe, SDMA trap and SQ message interrupts "
	  "naming ids 1, 255, 256 and 4095 each set their event, whatever id bits the source keeps",
	  "sources with fewer than 12 id bits (gfx8 SQ: 8) reach the event through the partial-id "
	  "walk",
	  SUITE_ENGINE_NONE, SUITE_EMU_ONLY, ids_per_source },
	{ "irq.bad-opcode",
	  "ISR class (kernel entry point): a CP bad-opcode interrupt sets HW_EXCEPTION events on "
	  "the CIK class only",
	  "SOC15 classes send it to the debugger/runtime exception path, no KFD event",
	  SUITE_ENGINE_NONE, SUITE_EMU_ONLY, bad_opcode },
};

const struct suite_group suite_group_irq = { "irq", cases, sizeof(cases) / sizeof(cases[0]) };
