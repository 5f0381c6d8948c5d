/* SPDX-License-Identifier: MIT */
/*
 * The GPU raises the interrupt: every case here puts the engine's real
 * fence (PM4 RELEASE_MEM, SDMA FENCE+TRAP, or a dispatched shader's
 * s_sendmsg) on a user queue through the engine layer (engine.c) and
 * watches WAIT_EVENTS.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"

/* Open a queue or return the case's result (SKIP / FAIL). */
#define OPEN_QUEUE(c, engine, ring, qp)                                       \
	do {                                                                  \
		enum suite_result r_ = suite_queue_open(c, engine, ring, qp); \
		if (r_ != SUITE_PASS)                                         \
			return r_;                                            \
	} while (0)

#define TRY(q, expr)                           \
	do {                                   \
		enum suite_result r_ = (expr); \
		if (r_ != SUITE_PASS) {        \
			suite_queue_close(q);  \
			return r_;             \
		}                              \
	} while (0)

static bool fired_within(struct suite_ctx *c, uint32_t id, uint64_t *age, uint32_t ms)
{
	enum kfdsig_wait_result res;

	return suite_wait1(c, id, age, ms, &res) == 0 && res == KFDSIG_WAIT_COMPLETE;
}

/*
 * On the emulated KFD: did the last interrupt of this process name event
 * @id? The handler's trace must show the fast path with the full id (the
 * partial-id walk where the source carries fewer than 12 bits, as gfx8's
 * 8-bit m0), setting @id: a fence with a wrong id that the slot scan rescues
 * fails here. True on hardware (no trace). @why gets the reason.
 */
static bool irq_named(struct suite_ctx *c, uint32_t id, char *why, size_t len)
{
	struct kfdsig_emu_irq_record r;
	uint32_t bits, want_id;
	enum kfdsig_emu_irq_source src;

	if (!c->d->emu || !c->t)
		return true;
	switch (c->engine) {
	case SUITE_ENGINE_SDMA:
		src = KFDSIG_EMU_IRQ_SDMA_TRAP;
		bits = c->t->sdma_trap_id_bits;
		break;
	case SUITE_ENGINE_SHADER:
		src = KFDSIG_EMU_IRQ_SQ_MSG;
		bits = c->t->sq_msg_id_bits;
		break;
	default:
		src = KFDSIG_EMU_IRQ_CP_EOP;
		bits = c->t->cp_eop_id_bits;
		break;
	}
	want_id = bits >= 32 ? id : id & ((1u << bits) - 1);
	if (kfdsig_emu_irq_trace(c->d->emu, c->pasid, &r, 1) != 1) {
		snprintf(why, len, "no interrupt recorded");
		return false;
	}
	/* A full id takes the fast path, or on a mailbox-free kernel's v12_1
	 * CP end-of-pipe the trusted one (docs/gc12_1.md): both by its id. */
	if (r.source == src && r.id == want_id && r.valid_bits == bits &&
	    (bits >= 12 ? r.path == KFDSIG_EMU_PATH_FAST || r.path == KFDSIG_EMU_PATH_TRUSTED
			: r.path == KFDSIG_EMU_PATH_PARTIAL) &&
	    r.nsignaled == 1 && r.events[0] == id)
		return true;
	snprintf(why, len, "interrupt id %u (%u bits) took the %s path (%s), setting %u event(s)",
		 r.id, r.valid_bits, kfdsig_emu_irq_path_name(r.path),
		 kfdsig_emu_irq_drop_name(r.drop), r.nsignaled);
	return false;
}

static enum suite_result signal_one(struct suite_ctx *c)
{
	char why[160];

	struct suite_queue *q;
	struct kfdsig_event ev;
	uint64_t age = 1;

	if (suite_event(c, true, &ev))
		return SUITE_FAIL;
	OPEN_QUEUE(c, c->engine, 0, &q);
	TRY(q, suite_queue_signal(c, q, ev.id, 0, 0));
	TRY(q, suite_queue_flush(c, q));
	suite_queue_close(q);
	SUITE_CHECK(c,
		    fired_within(c, ev.id, suite_has_age(c) ? &age : NULL, suite_bound_ms(c, 2000)),
		    "event %u not woken by the %s signal within 2 s", ev.id,
		    suite_engine_name(c->engine));
	SUITE_CHECK(c, irq_named(c, ev.id, why, sizeof(why)),
		    "event %u woke, but not by its own interrupt: %s", ev.id, why);
	SUITE_CHECK(c, !suite_has_age(c) || age == 2, "age after one signal: %llu, expected 2",
		    (unsigned long long)age);
	SUITE_CHECK(c, *ev.slot == KFDSIG_SLOT_UNSIGNALED,
		    "the kernel did not acknowledge slot %u (0x%llx)", ev.id,
		    (unsigned long long)*ev.slot);
	return SUITE_PASS;
}

static enum suite_result high_ids(struct suite_ctx *c)
{
	static const uint32_t ids[] = { 255, 256, 257, 1000, 4095 };
	char why[160];
	struct suite_queue *q;
	struct kfdsig_event ev;

	for (uint32_t i = 1; i <= 4095; i++)
		if (suite_event(c, false, &ev))
			return SUITE_FAIL;
	OPEN_QUEUE(c, c->engine, 0, &q);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		TRY(q, suite_queue_signal(c, q, ids[i], 0, 0));
		TRY(q, suite_queue_flush(c, q));
		if (!fired_within(c, ids[i], NULL, suite_bound_ms(c, 2000))) {
			suite_queue_close(q);
			return suite_fail(c, "event %u not woken by the %s signal", ids[i],
					  suite_engine_name(c->engine));
		}
		if (!irq_named(c, ids[i], why, sizeof(why))) {
			suite_queue_close(q);
			return suite_fail(c, "event %u woke, but not by its own interrupt: %s",
					  ids[i], why);
		}
		kfdsig_kfd_event_reset(c->kfd, ids[i]);
		for (uint32_t other = 1; other <= 4095; other += 97)
			if (other != ids[i] && suite_signalled(c, other)) {
				suite_queue_close(q);
				return suite_fail(c, "signalling %u also set event %u", ids[i],
						  other);
			}
	}
	suite_queue_close(q);
	return SUITE_PASS;
}

static enum suite_result several_queues(struct suite_ctx *c)
{
	struct suite_queue *q[6] = { 0 };
	struct kfdsig_wait_entry e[6];
	enum kfdsig_wait_result res;
	struct kfdsig_event ev;
	enum suite_result r = SUITE_PASS;
	int ret;

	memset(e, 0, sizeof(e));
	for (int i = 0; i < 6; i++) {
		if (suite_event(c, false, &ev))
			return SUITE_FAIL;
		e[i].event_id = ev.id;
	}
	for (int i = 0; i < 6 && r == SUITE_PASS; i++)
		r = suite_queue_open(c, i < 4 ? SUITE_ENGINE_PM4 : SUITE_ENGINE_SDMA, 0, &q[i]);
	for (int i = 0; i < 6 && r == SUITE_PASS; i++)
		r = suite_queue_signal(c, q[i], e[i].event_id, 0, 0);
	for (int i = 0; i < 6 && r == SUITE_PASS; i++)
		r = suite_queue_flush(c, q[i]);
	for (int i = 0; i < 6; i++)
		suite_queue_close(q[i]);
	if (r != SUITE_PASS)
		return r;
	ret = kfdsig_kfd_wait(c->kfd, e, 6, true, suite_bound_ms(c, 2000), &res);
	SUITE_CHECK(c, ret == 0 && res == KFDSIG_WAIT_COMPLETE,
		    "wait-all on the events of 4 PM4 and 2 SDMA queues: %d %s", ret,
		    suite_wait_result_name(res));
	return SUITE_PASS;
}

static enum suite_result ring_wrap(struct suite_ctx *c)
{
	struct suite_queue *q;
	struct kfdsig_event ev;
	uint64_t age = 1;

	if (suite_event(c, true, &ev))
		return SUITE_FAIL;
	/* a 4 KiB ring holds about 128 PM4 fences: go round it 3 times */
	OPEN_QUEUE(c, c->engine, 4096, &q);
	for (int i = 0; i < 400; i++) {
		TRY(q, suite_queue_signal(c, q, ev.id, 0, 0));
		TRY(q, suite_queue_flush(c, q));
		if (!fired_within(c, ev.id, NULL, suite_bound_ms(c, 2000))) {
			suite_queue_close(q);
			return suite_fail(c, "signal %d of 400 on a 4 KiB ring was lost", i + 1);
		}
	}
	suite_queue_close(q);
	if (suite_has_age(c))
		SUITE_CHECK(c, fired_within(c, ev.id, &age, 0) && age == 401,
			    "age after 400 signals: %llu, expected 401", (unsigned long long)age);
	return SUITE_PASS;
}

/* A fence whose interrupt context id is @ctxid, slot of event 2 written;
 * @want: is event 2 expected to be woken? */
static enum suite_result ctx_case(struct suite_ctx *c, uint32_t ctxid, bool want, const char *why)
{
	struct suite_queue *q;
	struct kfdsig_event ev[3];
	bool got;

	if (c->engine == SUITE_ENGINE_PM4 && c->t->pm4_fence == KFDSIG_PM4_FENCE_VI)
		return suite_skip(c, "the gfx8 RELEASE_MEM has no context id field");
	for (int i = 0; i < 3; i++)
		if (suite_event(c, false, &ev[i]))
			return SUITE_FAIL;
	OPEN_QUEUE(c, c->engine, 0, &q);
	TRY(q, suite_queue_signal(c, q, ev[1].id,
				  KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD, ctxid));
	TRY(q, suite_queue_flush(c, q));
	suite_queue_close(q);
	got = fired_within(c, ev[1].id, NULL, want ? suite_bound_ms(c, 2000) : 200);
	SUITE_CHECK(c, got == want,
		    "fence for event %u with context id 0x%x: event %s; expected %s", ev[1].id,
		    ctxid, got ? "woken" : "not woken", why);
	if (!want)
		SUITE_CHECK(c, *ev[1].slot != KFDSIG_SLOT_UNSIGNALED,
			    "the slot was acknowledged although nobody was woken");
	return suite_note(c, "%s", why);
}

static enum suite_result ctx0_drop(struct suite_ctx *c)
{
	bool isr = kfdsig_target_drops_ctx0(c->t, c->dev->fw_version);
	bool want = !isr && !c->d->drops_wrong_id;

	return ctx_case(
		c, 0, want,
		isr    ? "not woken: the ISR drops context id 0 on this target/firmware"
		: want ? "woken: id 0 finds nothing and the scan finds the slot"
		       : "not woken: id 0 names an unsignalled slot and this kernel drops it");
}

/*
 * The fence writes event A's slot but its INT_CTXID names event B, which
 * exists and is unsignalled. Slot-checking kernels find no signalled slot at
 * B and scan to A (v6.14-v6.18 drop it instead); a mailbox-free kernel's
 * v12_1 CP end-of-pipe wakes B without reading a slot and leaves A
 * unwoken (kfd_int_process_v12_1.c, "drm/amdkfd: Don't expect signal
 * mailbox update"; docs/gc12_1.md).
 */
static enum suite_result wrong_id_trusted(struct suite_ctx *c)
{
	bool trusted, got_a, got_b;
	struct suite_queue *q;
	struct kfdsig_event ev[3];

	if (c->t->pm4_fence == KFDSIG_PM4_FENCE_VI)
		return suite_skip(c, "the gfx8 RELEASE_MEM has no context id field");
	if (c->t->irq_class == KFDSIG_IRQ_V12_1 && !c->d->emu)
		return suite_skip(c, "whether this kernel trusts the GC 12.1 id is unverified");
	trusted = c->t->irq_class == KFDSIG_IRQ_V12_1 &&
		  (!strcmp(c->d->profile, "v7.1") || !strcmp(c->d->profile, "v7.3"));
	for (int i = 0; i < 3; i++)
		if (suite_event(c, false, &ev[i]))
			return SUITE_FAIL;
	OPEN_QUEUE(c, c->engine, 0, &q);
	TRY(q, suite_queue_signal(c, q, ev[1].id,
				  KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD, ev[2].id));
	TRY(q, suite_queue_flush(c, q));
	suite_queue_close(q);
	got_b = fired_within(c, ev[2].id, NULL, trusted ? suite_bound_ms(c, 2000) : 200);
	got_a = fired_within(c, ev[1].id, NULL,
			     trusted || c->d->drops_wrong_id ? 200 : suite_bound_ms(c, 2000));
	SUITE_CHECK(c, got_b == trusted && got_a == (!trusted && !c->d->drops_wrong_id),
		    "fence for event %u naming event %u: %u %s, %u %s", ev[1].id, ev[2].id,
		    ev[1].id, got_a ? "woken" : "not woken", ev[2].id,
		    got_b ? "woken" : "not woken");
	return suite_note(c, trusted		    ? "the named event woke: the id is trusted, "
						      "the slot unread"
			     : c->d->drops_wrong_id ? "nobody woke: this kernel drops it"
						    : "the scan found the written slot");
}

static enum suite_result bit24_drop(struct suite_ctx *c)
{
	bool want = !c->t->drops_ctxid_bit24;

	return ctx_case(c, 2u | 1u << 24, want,
			want ? "woken: this ISR class keeps bit 24"
			: c->t->irq_class == KFDSIG_IRQ_V12_1
				? "not woken: the v12_1 ISR drops a context id with bit 24 set"
				: "not woken: the v11 ISR drops a context id with bit 24 set");
}

static enum suite_result invalid_event(struct suite_ctx *c)
{
	bool want = !c->d->drops_wrong_id;

	return ctx_case(c, 4000, want,
			want ? "woken: id 4000 has no event, the scan finds the written slot"
			     : "not woken: id 4000's slot is unsignalled, this kernel drops it");
}

static enum suite_result batch_4095(struct suite_ctx *c)
{
	static struct kfdsig_wait_entry e[4095];
	struct suite_queue *q;
	struct kfdsig_event ev;
	enum kfdsig_wait_result res;
	int ret;

	memset(e, 0, sizeof(e));
	for (uint32_t i = 0; i < 4095; i++) {
		if (suite_event(c, false, &ev))
			return SUITE_FAIL;
		e[i].event_id = ev.id;
	}
	/* 4095 dispatches of up to 39 dwords in the ring (multi-XCC: a
	 * PRED_EXEC and its in-ring IB each) fit half of 2 MiB */
	OPEN_QUEUE(c, c->engine, 2 * 1024 * 1024, &q);
	for (uint32_t i = 0; i < 4095; i++)
		TRY(q, suite_queue_signal(c, q, e[i].event_id, 0, 0));
	TRY(q, suite_queue_flush(c, q));
	suite_queue_close(q);
	ret = kfdsig_kfd_wait(c->kfd, e, 4095, true, suite_bound_ms(c, 5000), &res);
	SUITE_CHECK(c, ret == 0 && res == KFDSIG_WAIT_COMPLETE,
		    "wait-all on 4095 events signalled in one %s submission: %d %s",
		    suite_engine_name(c->engine), ret, suite_wait_result_name(res));
	return SUITE_PASS;
}

/* AQL: the signal names event A (event_id) but its mailbox is B's slot.
 * The kernel looks A up by id: A's slot is unsignalled, so A never wakes;
 * kernels outside v6.14-v6.18 then scan the slots and wake B instead
 * (kfd_events.c kfd_signal_event_interrupt). */
static enum suite_result wrong_mailbox(struct suite_ctx *c)
{
	struct suite_queue *q;
	struct kfdsig_event a, b;
	/* Linux 7.1+ on GC 12.1 trusts the CP end-of-pipe id without reading
	 * the slot (docs/gc12_1.md): the event_id's event wakes, the scan
	 * never runs. */
	bool trusted = c->t->irq_class == KFDSIG_IRQ_V12_1 &&
		       (!strcmp(c->d->profile, "v7.1") || !strcmp(c->d->profile, "v7.3"));
	bool want_b = !trusted && !c->d->drops_wrong_id;

	if (c->t->irq_class == KFDSIG_IRQ_V12_1 && !c->d->emu)
		return suite_skip(c, "whether this kernel trusts the GC 12.1 id is unverified");
	if (suite_event(c, false, &a) || suite_event(c, false, &b))
		return SUITE_FAIL;
	OPEN_QUEUE(c, c->engine, 0, &q);
	TRY(q, suite_queue_signal_aql_mailbox(c, q, a.id, b.id));
	TRY(q, suite_queue_flush(c, q));
	suite_queue_close(q);
	SUITE_CHECK(c,
		    fired_within(c, b.id, NULL, want_b ? suite_bound_ms(c, 2000) : 200) == want_b,
		    "event %u (whose slot the mailbox is): %s, expected %s", b.id,
		    want_b ? "not woken" : "woken", want_b ? "woken by the scan" : "not woken");
	SUITE_CHECK(c,
		    fired_within(c, a.id, NULL, trusted ? suite_bound_ms(c, 2000) : 0) == trusted,
		    "event %u (the signal's event_id): %s", a.id,
		    trusted ? "not woken, although this kernel trusts the id"
			    : "woken although its slot was not written");
	return suite_note(c, "%s",
			  trusted  ? "the event_id's event woke: the id is trusted, the slot unread"
			  : want_b ? "event_id's slot unsignalled: the scan woke the "
				     "mailbox's event instead"
				   : "event_id's slot unsignalled: this kernel drops it");
}

static enum suite_result vm_fault(struct suite_ctx *c)
{
	/* an unmapped page below 2^40 (every generation's GPU reaches it) */
	const uint64_t bad_va = 0xfe00000000ull;
	struct kfdsig_event mem, sig;
	struct kfdsig_wait_entry e = { 0 };
	struct kfdsig_smi *smi = NULL;
	struct kfdsig_smi_event sev;
	enum kfdsig_wait_result res;
	struct suite_queue *q;
	uint32_t dw[16];
	int r, n, got;

	if (suite_event(c, false, &sig))
		return SUITE_FAIL;
	r = kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_MEMORY, false, &mem);
	SUITE_CHECK(c, r == 0, "MEMORY event: %s", strerror(-r));
	r = kfdsig_smi_open(c->kfd, c->dev->gpu_id, KFDSIG_SMI_MASK(KFDSIG_SMI_VMFAULT), &smi);
	SUITE_CHECK(c, r == 0, "SMI open: %s", strerror(-r));
	/* the fence of event sig, but its store goes to an unmapped address */
	struct kfdsig_fence f = { .slot_va = kfdsig_slot_va(bad_va, sig.id), .event_id = sig.id };
	n = kfdsig_pm4_emit_fence(c->t, &f, dw, 16);
	if (n < 0) {
		kfdsig_smi_close(smi);
		return suite_fail(c, "fence: %s", kfdsig_last_error());
	}
	r = suite_queue_open(c, SUITE_ENGINE_PM4, 0, &q);
	if (r != SUITE_PASS) {
		kfdsig_smi_close(smi);
		return r;
	}
	r = suite_queue_raw(c, q, dw, (uint32_t)n);
	if (r == SUITE_PASS)
		r = suite_queue_kick(c, q); /* a faulting queue need not go idle */
	e.event_id = mem.id;
	int w = kfdsig_kfd_wait(c->kfd, &e, 1, false, suite_bound_ms(c, 2000), &res);
	suite_queue_close(q);
	got = kfdsig_smi_read(smi, &sev, suite_bound_ms(c, 1000));
	kfdsig_smi_close(smi);
	if (r != SUITE_PASS)
		return r;
	SUITE_CHECK(c, w == 0 && res == KFDSIG_WAIT_COMPLETE,
		    "MEMORY event not set by a store to unmapped 0x%llx: %d %s",
		    (unsigned long long)bad_va, w, suite_wait_result_name(res));
	SUITE_CHECK(c, (e.memory.va & ~4095ull) == bad_va && e.memory.gpu_id == c->dev->gpu_id,
		    "fault data va 0x%llx gpu 0x%x; expected the page 0x%llx on gpu 0x%x",
		    (unsigned long long)e.memory.va, e.memory.gpu_id, (unsigned long long)bad_va,
		    c->dev->gpu_id);
	SUITE_CHECK(c, got == 1 && sev.type == KFDSIG_SMI_VMFAULT,
		    "no SMI VMFAULT line for the fault (%d)", got);
	return SUITE_PASS;
}

static enum suite_result bad_opcode(struct suite_ctx *c)
{
	/* PM4 type-3 header of opcode 0xff with one dword: no such packet */
	const uint32_t dw[2] = { 3u << 30 | 0u << 16 | 0xffu << 8 | 1u << 1, 0 };
	bool cik = c->t->irq_class == KFDSIG_IRQ_CIK;
	struct kfdsig_event hw;
	struct suite_queue *q;
	int r;

	r = kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_HW_EXCEPTION, false, &hw);
	SUITE_CHECK(c, r == 0, "HW_EXCEPTION event: %s", strerror(-r));
	OPEN_QUEUE(c, SUITE_ENGINE_PM4, 0, &q);
	TRY(q, suite_queue_raw(c, q, dw, 2));
	TRY(q, suite_queue_kick(c, q)); /* the CP stops at the bad packet */
	bool got = fired_within(c, hw.id, NULL, cik ? suite_bound_ms(c, 2000) : 200);
	suite_queue_close(q);
	SUITE_CHECK(c, got == cik,
		    "bad opcode on the %s ISR class: HW_EXCEPTION event %s; expected %s",
		    kfdsig_irq_class_name(c->t->irq_class), got ? "set" : "not set",
		    cik ? "set (kfd_signal_hw_exception_event)"
			: "not set (SOC15: debugger/runtime exception path)");
	return SUITE_PASS;
}

/*
 * The 8-bit-m0 bug of some device libraries (landscape.md): the stub for
 * event 300 puts 300 & 0xff = 44 in m0, slot 300 is written, slot 44 is not.
 * gfx8 carries 8 bits anyway: the partial-id walk (44, 300, ...) finds 300
 * under every kernel. From gfx9 the 24/23 bits are a full id: the fast path
 * finds slot 44 unsignalled; the scan recovers 300, except on v6.14-v6.18,
 * which drop such an interrupt (kfd_events.c kfd_signal_event_interrupt() / lookup_signaled_event_by_partial_id()).
 */
static enum suite_result m0_byte_bug(struct suite_ctx *c)
{
	bool gfx8 = c->t->sq_msg_id_bits < 12;
	bool want = gfx8 || !c->d->drops_wrong_id;
	struct kfdsig_event ev;
	struct suite_queue *q;
	bool got;

	for (uint32_t i = 1; i <= 300; i++)
		if (suite_event(c, false, &ev))
			return SUITE_FAIL;
	OPEN_QUEUE(c, SUITE_ENGINE_SHADER, 0, &q);
	TRY(q, suite_queue_signal(c, q, 300, KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD,
				  300 & 0xff));
	TRY(q, suite_queue_flush(c, q));
	suite_queue_close(q);
	got = fired_within(c, 300, NULL, want ? suite_bound_ms(c, 2000) : 200);
	SUITE_CHECK(c, !suite_signalled(c, 44), "event 44, named by the truncated m0, was set");
	SUITE_CHECK(c, got == want, "event 300 %s; expected %s", got ? "woken" : "not woken",
		    want ? "woken" : "not woken");
	return suite_note(c, "%s",
			  gfx8	 ? "woken: gfx8 carries 8 bits, the partial-id walk finds 300"
			  : want ? "woken: m0 named slot 44, the scan found 300"
				 : "lost: m0 named unsignalled slot 44, this kernel drops it");
}

/*
 * gfx8 aliasing (cik_event_interrupt.c; kfd_events.c kfd_signal_event_interrupt() / lookup_signaled_event_by_partial_id()): an s_sendmsg carries m0[7:0], so events
 * 5 and 261 share a partial id; the kernel walks 5, 261, 517, ... and takes
 * the first id whose slot is signalled and that exists.
 */
static enum suite_result gfx8_alias(struct suite_ctx *c)
{
	struct kfdsig_event ev, ev5;
	struct suite_queue *q;
	uint64_t *page = NULL, page_va = 0;

	if (c->t->sq_msg_id_bits >= 12)
		return suite_skip(c, "%s carries %u id bits: no aliasing", c->t->name,
				  c->t->sq_msg_id_bits);
	for (uint32_t i = 1; i <= 600; i++)
		if (suite_event(c, false, i == 5 ? &ev5 : &ev))
			return SUITE_FAIL;
	/* Only slot 261 written: the walk skips unsignalled 5. */
	OPEN_QUEUE(c, SUITE_ENGINE_SHADER, 0, &q);
	TRY(q, suite_queue_signal(c, q, 261, 0, 0));
	TRY(q, suite_queue_flush(c, q));
	SUITE_CHECK(c, fired_within(c, 261, NULL, suite_bound_ms(c, 2000)), "event 261 not woken");
	SUITE_CHECK(c, !suite_signalled(c, 5), "event 5 woken although its slot was not written");
	kfdsig_kfd_event_reset(c->kfd, 261);
	/* Slot 5 already signalled when the stub for 261 runs: 5 comes first
	 * in the walk, so 5 wakes and 261 stays pending with its slot set. */
	*ev5.slot = 1;
	TRY(q, suite_queue_signal(c, q, 261, 0, 0));
	TRY(q, suite_queue_flush(c, q));
	suite_queue_close(q);
	SUITE_CHECK(c, fired_within(c, 5, NULL, suite_bound_ms(c, 2000)),
		    "event 5 (first in the walk) not woken");
	SUITE_CHECK(c, !suite_signalled(c, 261),
		    "event 261 woken by an interrupt the walk gave to 5");
	SUITE_CHECK(c, kfdsig_kfd_signal_page(c->kfd, &page, &page_va) == 0 && page,
		    "no signal page: %s", kfdsig_last_error());
	SUITE_CHECK(c, page[261] != KFDSIG_SLOT_UNSIGNALED,
		    "slot 261 was acknowledged although its event was not found");
	return suite_note(c, "the walk woke 261 alone, then 5 ahead of 261");
}

#define G SUITE_QUEUES
#define ENGINE3(name, checks, expect, fn)                                   \
	{ name ".pm4", checks, expect, SUITE_ENGINE_PM4, G, fn },           \
		{ name ".sdma", checks, expect, SUITE_ENGINE_SDMA, G, fn }, \
	{                                                                   \
		name ".shader", checks, expect, SUITE_ENGINE_SHADER, G, fn  \
	}
#define ENGINE2(name, checks, expect, fn)                              \
	{ name ".pm4", checks, expect, SUITE_ENGINE_PM4, G, fn },      \
	{                                                              \
		name ".sdma", checks, expect, SUITE_ENGINE_SDMA, G, fn \
	}

static const struct suite_case cases[] = {
	ENGINE3("gpu.signal",
		"the engine's fence on a user queue writes the slot and raises the interrupt: "
		"WAIT_EVENTS wakes, the age goes 1 -> 2, the kernel acknowledges the slot",
		NULL, signal_one),
	{ "gpu.signal.aql",
	  "a barrier-AND packet on an AQL queue completes an interrupt signal (mailbox = the "
	  "event's slot, event_id = the event): WAIT_EVENTS wakes, the age goes 1 -> 2, the kernel "
	  "acknowledges the slot",
	  "AQL queues on gfx9+ only", SUITE_ENGINE_AQL, G, signal_one },
	ENGINE3("gpu.high-ids",
		"events 255, 256, 257, 1000 and 4095 (of 4095 live) are each woken by their own "
		"fence and only theirs",
		"gfx8 shaders carry 8 id bits: ids >= 256 arrive partial and are found by the "
		"kernel's partial-id walk",
		high_ids),
	{ "gpu.high-ids.aql",
	  "events 255, 256, 257, 1000 and 4095 (of 4095 live) are each woken by their own AQL "
	  "completion signal and only theirs",
	  NULL, SUITE_ENGINE_AQL, G, high_ids },
	{ "gpu.several-queues",
	  "4 PM4 and 2 SDMA queues each signal their own event; wait-all completes", NULL,
	  SUITE_ENGINE_NONE, G, several_queues },
	ENGINE2("gpu.ring-wrap",
		"400 signals, each waited, through a 4 KiB ring (wraps about 3 times): none lost",
		NULL, ring_wrap),
	{ "gpu.ctx0-drop.pm4",
	  "a RELEASE_MEM whose INT_CTXID is 0 (slot written): dropped or found, per ISR and kernel",
	  "dropped on gfx9 with new MEC firmware and GC >= 9.4.1 (context_id_expected) and on "
	  "v6.14-v6.18; elsewhere the scan finds the slot",
	  SUITE_ENGINE_PM4, G, ctx0_drop },
	{ "gpu.wrong-id.pm4",
	  "a RELEASE_MEM writes one event's slot and names another existing event: the scan "
	  "finds the slot, v6.14-v6.18 drop it, and a GC 12.1 kernel with the mailbox-free "
	  "path (--kernel-profile mailbox-free) wakes the named event",
	  NULL, SUITE_ENGINE_PM4, G, wrong_id_trusted },
	{ "gpu.bit24-drop.pm4",
	  "a RELEASE_MEM whose INT_CTXID has bit 24 set is dropped by the v11 and v12_1 ISRs "
	  "(gfx11, gfx12)",
	  NULL, SUITE_ENGINE_PM4, G, bit24_drop },
	ENGINE2("gpu.invalid-event",
		"the invalid-event slow path: the interrupt names id 4000 (no event) while the "
		"fence wrote slot 2; the scan must find event 2",
		"found by the scan outside v6.14-v6.18; those kernels drop it (de844846f72b)",
		invalid_event),
	ENGINE3("gpu.batch-4095",
		"4095 fences (shader: 4095 dispatches) in one submission wake all 4095 events "
		"(wait-all)",
		NULL, batch_4095),
	{ "gpu.batch-4095.aql",
	  "4095 barrier-AND packets, each completing its own interrupt signal, in one submission "
	  "wake all 4095 events (wait-all)",
	  "AQL queues on gfx9+ only", SUITE_ENGINE_AQL, G, batch_4095 },
	{ "gpu.invalid-event.aql",
	  "an AQL signal whose event_id is 4000 (no event) with its mailbox at slot 2: the scan "
	  "must find event 2",
	  "found by the scan outside v6.14-v6.18; those kernels drop it", SUITE_ENGINE_AQL, G,
	  invalid_event },
	{ "gpu.wrong-mailbox.aql",
	  "an AQL signal for event A whose mailbox is event B's slot: A never wakes; the scan "
	  "wakes "
	  "B",
	  "B woken outside v6.14-v6.18; those kernels drop the interrupt; a GC 12.1 kernel from "
	  "7.1 trusts the id: A wakes, B does not",
	  SUITE_ENGINE_AQL, G, wrong_mailbox },
	{ "gpu.m0-byte-bug.shader",
	  "a shader stub with the 8-bit-m0 bug (m0 = id & 0xff) signals event 300: lost or found, "
	  "per generation and kernel",
	  "gfx8: found by the partial-id walk; gfx9+: found by the scan, lost on v6.14-v6.18",
	  SUITE_ENGINE_SHADER, G, m0_byte_bug },
	{ "gpu.alias.shader",
	  "gfx8: s_sendmsg carries 8 id bits; events 5 and 261 alias and the partial-id walk "
	  "takes the first signalled one",
	  NULL, SUITE_ENGINE_SHADER, G, gfx8_alias },
	{ "gpu.vm-fault.pm4",
	  "a fence whose store hits an unmapped address: every MEMORY event gets the fault data "
	  "and is set, SMI reports VMFAULT",
	  NULL, SUITE_ENGINE_PM4, G, vm_fault },
	{ "gpu.bad-opcode.pm4",
	  "an unknown PM4 opcode on a compute queue raises CP_BAD_OPCODE: HW_EXCEPTION events are "
	  "set on the CIK class (gfx8)",
	  "SOC15 classes route it to the debugger path: no KFD event (what the queue does then is "
	  "UNVERIFIED)",
	  SUITE_ENGINE_PM4, G, bad_opcode },
};

const struct suite_group suite_group_gpu = { "gpu", cases, sizeof(cases) / sizeof(cases[0]) };
