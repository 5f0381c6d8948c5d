/* SPDX-License-Identifier: MIT */
/*
 * The shader path when the id in m0 does not name the event alone, end to
 * end: kfdsig's signal stub (both forms) dispatched through the real
 * backend on a PM4 queue of the emulated KFD, run by the emulated shader
 * unit, its s_sendmsg(MSG_INTERRUPT) handled by the emulated amdkfd.
 *
 *  1. gfx8 aliasing. The CIK handler passes only m0[7:0] with 8 valid id
 *     bits (cik_event_interrupt.c: kfd_signal_event_interrupt(pasid, context_id & 0xff,
 *     8)). 8 < 12 bits, so kfd_signal_event_interrupt takes the partial
 *     path of lookup_signaled_event_by_partial_id (kfd_events.c kfd_signal_event_interrupt() / lookup_signaled_event_by_partial_id(), step 2): walk
 *     id, id + 256, id + 512, ... below 4096 and take the FIRST id whose
 *     slot is not all-ones and that exists in the IDR; only when the walk
 *     finds nothing does the exhaustive scan run (step 4). The cases below
 *     show which of two (or three) live events sharing the low 8 bits
 *     wakes.
 *
 *  2. The 8-bit-m0 bug (AMD's device library, IREE; landscape.md, 4): a
 *     stub that stores into the right slot but puts id & 0xff in m0. On
 *     gfx9 and later the handler keeps 23 or 24 bits (the kfd_signal_event_interrupt() calls of cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c), i.e. the
 *     truncated value arrives as a FULL id (>= 12 bits): the fast path
 *     reads slots[id & 0xff]. If that slot is unsignalled the fast path
 *     misses and the exhaustive scan recovers the event (default kernel);
 *     on v6.14-v6.18 (de844846f72b, reverted by 88ef4de35f46) the same
 *     interrupt is dropped without a scan and WAIT_EVENTS times out. If
 *     slot id & 0xff belongs to another pending event, that one wakes
 *     instead. Correct full-id stubs wake under both profiles, and on gfx8
 *     the bug changes nothing (the hardware keeps m0[7:0] anyway and the
 *     drop rule only applies to full ids).
 *
 *  3. A wave with an instruction the shader unit does not implement stops
 *     the queue and signals nothing.
 *
 * Every expectation is derived by hand in the comments from cik_event_interrupt.c,
 * 1.9 and 2.6, not read from the generation table. The variant stubs are
 * made by kfdsig_shader_emit_signal() with KFDSIG_FENCE_CTXID |
 * KFDSIG_FENCE_DELIBERATELY_BAD, which writes another value at the
 * published event-id literal of the raw stub (or into the event_id kernel
 * argument of the code-object form): the slot address still points at the
 * real slot.
 */
#include <unistd.h>

#include <kfdsig/signal.h>

#include "emu/emu_host.h"
#include "kfd_util.h"

#define WAIT_MS 5000 /* submission and queue idle */
/* Every wait starts when the queue is idle: the CP has run the dispatch
 * and the interrupt has been handled, so a wake-up that must happen is
 * already there and one that must not happen never comes. Short
 * timeouts suffice (and keep a failing run short). */
#define WAKE_MS 500
#define SHORT_MS 2
#define UNSIG UINT64_MAX /* UNSIGNALED_EVENT_SLOT (kfd_events.h) */

struct fx {
	const struct kfdsig_target *t;
	const char *spec;
	enum kfdsig_shader_form form;
	struct kfdsig_shader_stub s;
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	uint32_t gpu;
	uint64_t *page, page_va;
	struct kfdsig_kfd_queue *q;
	const struct kfdsig_kfd_bo *code;
};

static const char *form_name(enum kfdsig_shader_form form)
{
	return form == KFDSIG_SHADER_RAW ? "raw" : "code object";
}

/* An emulated KFD for @t (with @profile appended to the spec, or none),
 * auto-reset signal events 1..@nevents, a PM4 queue and a code buffer. */
static void fx_open(struct fx *f, const struct kfdsig_target *t, const char *profile,
		    enum kfdsig_shader_form form, uint32_t nevents)
{
	static char spec[64];

	memset(f, 0, sizeof(*f));
	snprintf(spec, sizeof(spec), "%s%s%s", t->name, profile ? ",profile=" : "",
		 profile ? profile : "");
	f->t = t;
	f->spec = spec;
	f->form = form;
	T_REQUIRE(!kfdsig_shader_stub(t, form, &f->s), "stub %s", t->name);
	f->emu = t_emu(spec);
	f->kfd = t_open(f->emu);
	f->gpu = t_gpu(f->kfd, 0);
	for (uint32_t i = 1; i <= nevents; i++) {
		struct kfdsig_event e = t_event(f->kfd, KFDSIG_EVENT_SIGNAL, true);
		T_REQUIRE(e.id == i, "sequential ids (%u for %u)", e.id, i);
	}
	T_REQUIRE(!kfdsig_kfd_signal_page(f->kfd, &f->page, &f->page_va), "page");
	T_REQUIRE(!kfdsig_kfd_alloc(f->kfd, f->gpu, f->s.size + 2 * KFDSIG_SHADER_CODE_ALIGN,
				    KFDSIG_KFD_MEM_GTT_UNCACHED, &f->code) &&
			  !kfdsig_kfd_map(f->kfd, f->code, NULL, 0),
		  "buffers");
	T_REQUIRE(!kfdsig_kfd_queue_create(f->kfd, f->gpu, KFDSIG_QUEUE_PM4, NULL, &f->q), "queue");
}

static void fx_close(struct fx *f)
{
	kfdsig_kfd_queue_destroy(f->q);
	kfdsig_kfd_close(f->kfd);
	kfdsig_emu_destroy(f->emu);
}

static void put_le32(void *p, uint32_t v)
{
	uint8_t *b = p;

	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

/*
 * Dispatch the stub that stores into signal_page[@slot_id] and sends
 * m0 = @m0 (the correct stub when @m0 == @slot_id), and wait until the
 * queue is idle: the wave has run and its interrupt has been handled.
 */
static void dispatch(struct fx *f, uint32_t slot_id, uint32_t m0)
{
	/* m0 != slot id: the library writes m0 at the published event-id
	 * literal of the raw stub, or into the event_id kernel argument */
	struct kfdsig_fence fe = {
		.slot_va = f->page_va + 8ull * slot_id,
		.event_id = slot_id,
		.ctxid = m0,
		.flags = m0 != slot_id ? KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD : 0,
	};
	KFDSIG_OPTS(kfdsig_code_buf, cb, .cpu = f->code->cpu, .va = f->code->va,
		    .size = f->code->size);
	uint32_t d[KFDSIG_PM4_PRED_EXEC_DW + KFDSIG_PM4_DISPATCH_MAX_DW];
	struct kfdsig_emu_queue_info qi = { 0 };
	uint32_t p = f->t->max_xcc > 1 ? KFDSIG_PM4_PRED_EXEC_DW : 0;
	int n;

	n = kfdsig_shader_emit_signal(&f->s, &cb, &fe, d + p, KFDSIG_PM4_DISPATCH_MAX_DW);
	T_REQUIRE(n > 0, "dispatch %s id %u m0 %u: %s", f->t->name, slot_id, m0,
		  kfdsig_last_error());
	/* multi-XCC: the wave on XCC 0 only, as kfdsig_emit_signal() does */
	T_REQUIRE(!p || kfdsig_pm4_emit_pred_exec(f->t, 1, (uint32_t)n, d, p) == (int)p, "pred");
	n += (int)p;
	T_REQUIRE(!kfdsig_kfd_queue_submit(f->q, d, (uint32_t)n, WAIT_MS), "submit");
	T_REQUIRE(!kfdsig_kfd_queue_wait_idle(f->q, WAIT_MS), "%s: queue idle", f->t->name);
	kfdsig_emu_queue_info(f->emu, t_pasid(f->emu, f->kfd), kfdsig_kfd_queue_id(f->q), &qi);
	T_REQUIRE(!qi.halted, "%s: queue halted (exception %u)", f->t->name, qi.exception);
}

/* Wait on one (auto-reset) event: true when WAIT_EVENTS completed. A
 * completed wait consumes the signal; a timed-out one changes nothing. */
static bool woke(struct fx *f, uint32_t id, uint32_t timeout)
{
	enum kfdsig_wait_result res = KFDSIG_WAIT_FAIL;
	int r = t_wait1(f->kfd, id, NULL, timeout, &res);

	return r == 0 && res == KFDSIG_WAIT_COMPLETE;
}

#define WOKE(f, id, ...)                                                        \
	CHECK(woke(f, id, WAKE_MS), "%s %s: event %u must wake: %s", (f)->spec, \
	      form_name((f)->form), (unsigned)(id), __VA_ARGS__)
#define ASLEEP(f, id, ...)                                                            \
	CHECK(!woke(f, id, SHORT_MS), "%s %s: event %u must not wake: %s", (f)->spec, \
	      form_name((f)->form), (unsigned)(id), __VA_ARGS__)
#define SLOT(f, id, want, ...)                                                               \
	CHECK_EQ((f)->page[id], want, "%s %s: slot %u: %s", (f)->spec, form_name((f)->form), \
		 (unsigned)(id), __VA_ARGS__)

/* The path the emulated handler took for the last interrupt (its trace). */
#define PATH(f, want, ...)                                                                    \
	do {                                                                                  \
		struct kfdsig_emu_irq_record r_ = { 0 };                                      \
		int n_ = kfdsig_emu_irq_trace((f)->emu, t_pasid((f)->emu, (f)->kfd), &r_, 1); \
		CHECK(n_ == 1 && r_.path == (want),                                           \
		      "%s %s: the interrupt took the %s path, expected %s: %s", (f)->spec,    \
		      form_name((f)->form), kfdsig_emu_irq_path_name(r_.path),                \
		      kfdsig_emu_irq_path_name(want), __VA_ARGS__);                           \
	} while (0)

/* ---- 1. gfx8: ids sharing the low 8 bits -------------------------------- */

/* Events 1..600 exist, so every pair below has a third alias lo + 512. */
#define GFX8_EVENTS 600
/* A pending slot outside the walked chain: 7 & 0xff is neither 5 nor 44. */
#define BYSTANDER 7

static void gfx8_pair(const struct kfdsig_target *t, const char *profile,
		      enum kfdsig_shader_form form, uint32_t lo)
{
	uint32_t hi = lo + 256, hi2 = lo + 512;
	struct fx f;

	/*
	 * (a) Only the lower id's stub runs. Slot lo = 1, m0 = lo, 8 bits
	 * give lo: the walk starts at lo, whose slot is signalled and whose
	 * event exists -> lo. Its slot is acknowledged (back to all-ones,
	 * step 5); hi and hi2 were never written and stay asleep.
	 */
	fx_open(&f, t, profile, form, GFX8_EVENTS);
	dispatch(&f, lo, lo);
	SLOT(&f, lo, UNSIG, "acknowledged");
	WOKE(&f, lo, "the walk starts at its own id");
	PATH(&f, KFDSIG_EMU_PATH_PARTIAL, "8 bits: the partial-id walk");
	ASLEEP(&f, hi, "its slot was never written");
	ASLEEP(&f, hi2, "its slot was never written");
	fx_close(&f);

	/*
	 * (b) Only the higher id's slot is written. Stub for hi: slot hi = 1,
	 * m0 = hi, the IV keeps hi & 0xff = lo. Walk: lo -> slot all-ones,
	 * skipped; hi -> signalled, exists -> hi. A bystander slot (7, not in
	 * the chain lo, lo+256, ...) written beforehand stays pending: the
	 * walk found an event, so no exhaustive scan ran.
	 */
	fx_open(&f, t, profile, form, GFX8_EVENTS);
	t_gpu_signal(&f.page[BYSTANDER], BYSTANDER);
	dispatch(&f, hi, hi);
	SLOT(&f, hi, UNSIG, "acknowledged by the walk");
	SLOT(&f, lo, UNSIG, "never written");
	SLOT(&f, BYSTANDER, BYSTANDER, "no scan: still pending");
	WOKE(&f, hi, "the walk skips the unsignalled lower id");
	PATH(&f, KFDSIG_EMU_PATH_PARTIAL, "found by the walk, not the scan");
	ASLEEP(&f, lo, "its slot is unsignalled");
	ASLEEP(&f, hi2, "the walk stopped at hi");
	ASLEEP(&f, BYSTANDER, "no scan ran");
	fx_close(&f);

	/*
	 * (c) Three deep: stub for hi2 = lo + 512, IV id lo. Walk: lo skipped,
	 * hi skipped (both all-ones), hi2 signalled and exists -> hi2.
	 */
	fx_open(&f, t, profile, form, GFX8_EVENTS);
	dispatch(&f, hi2, hi2);
	SLOT(&f, hi2, UNSIG, "acknowledged");
	WOKE(&f, hi2, "two unsignalled aliases skipped");
	PATH(&f, KFDSIG_EMU_PATH_PARTIAL, "found by the walk, not the scan");
	ASLEEP(&f, lo, "unsignalled");
	ASLEEP(&f, hi, "unsignalled");
	fx_close(&f);

	/*
	 * (d) Both slots signalled: lo's slot was written earlier (its store
	 * landed, its interrupt has not been handled yet), then the stub for
	 * hi runs. IV id lo; walk: lo is signalled and exists -> lo. The
	 * lower id wins; hi's slot keeps the stub's 1 and hi stays asleep.
	 * A later interrupt finds it: the same stub for hi again (slot hi = 1,
	 * IV id lo) walks lo (acknowledged, all-ones now: skipped) -> hi.
	 */
	fx_open(&f, t, profile, form, GFX8_EVENTS);
	t_gpu_signal(&f.page[lo], lo);
	dispatch(&f, hi, hi);
	SLOT(&f, lo, UNSIG, "the walk took lo and acknowledged it");
	SLOT(&f, hi, 1, "hi still pending (the stub stores 1)");
	WOKE(&f, lo, "both signalled: the lower id wins");
	ASLEEP(&f, hi, "pending until found by a later interrupt or scan");
	dispatch(&f, hi, hi);
	SLOT(&f, hi, UNSIG, "acknowledged by the second walk");
	WOKE(&f, hi, "found by the later interrupt");
	ASLEEP(&f, lo, "woken once only");
	fx_close(&f);

	/*
	 * (e) As (d), but the pending hi is found by the exhaustive scan: a
	 * later interrupt whose walk finds nothing. The stub stores into the
	 * bystander's slot 7 with m0 = 8: IV id 8, walk 8, 264, 520 -> all
	 * unsignalled -> scan of every slot from 1 (600 events >= 64: slot
	 * form): 7 and hi are signalled -> both set; lo is not (acknowledged
	 * by the first walk).
	 */
	fx_open(&f, t, profile, form, GFX8_EVENTS);
	t_gpu_signal(&f.page[lo], lo);
	dispatch(&f, hi, hi);
	WOKE(&f, lo, "the lower id wins");
	ASLEEP(&f, hi, "pending");
	dispatch(&f, BYSTANDER, 8);
	SLOT(&f, hi, UNSIG, "acknowledged by the scan");
	SLOT(&f, BYSTANDER, UNSIG, "acknowledged by the scan");
	WOKE(&f, hi, "found by the exhaustive scan");
	WOKE(&f, BYSTANDER, "found by the exhaustive scan");
	ASLEEP(&f, 8, "its slot was never written");
	ASLEEP(&f, lo, "not signalled again");
	fx_close(&f);

	/*
	 * (f) The walk also needs the event to exist: destroy event lo and
	 * leave garbage in its slot (the kernel never resets the slot of a
	 * destroyed event; nobody owns it). Stub for hi, IV id lo: slot lo is
	 * not all-ones but idr_find(lo) is NULL -> go on; hi -> hi. The
	 * ownerless slot is not acknowledged, and the pending bystander shows
	 * that the walk, not the scan, found hi.
	 */
	fx_open(&f, t, profile, form, GFX8_EVENTS);
	T_REQUIRE(!kfdsig_kfd_event_destroy(f.kfd, lo), "destroy %u", lo);
	t_gpu_signal(&f.page[lo], 0xdead);
	t_gpu_signal(&f.page[BYSTANDER], BYSTANDER);
	dispatch(&f, hi, hi);
	SLOT(&f, lo, 0xdead, "no event owns it: left alone");
	SLOT(&f, hi, UNSIG, "acknowledged");
	SLOT(&f, BYSTANDER, BYSTANDER, "no scan: still pending");
	WOKE(&f, hi, "a signalled slot without an event is skipped");
	ASLEEP(&f, BYSTANDER, "no scan ran");
	fx_close(&f);
}

static void test_gfx8_aliasing(void)
{
	int n = 0;

	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);

		if (t->family != KFDSIG_FAMILY_GFX8)
			continue;
		n++;
		for (int form = KFDSIG_SHADER_CODE_OBJECT; form <= KFDSIG_SHADER_RAW; form++) {
			/* 5 and 261 (= 5 + 256), 44 and 300 (= 44 + 256) */
			gfx8_pair(t, NULL, (enum kfdsig_shader_form)form, 5);
			gfx8_pair(t, NULL, (enum kfdsig_shader_form)form, 44);
		}
		/* The v6.14-v6.18 drop rule needs a full id (>= 12 bits); the
		 * 8-bit partial path is unchanged under that profile. */
		gfx8_pair(t, "v6.14", KFDSIG_SHADER_RAW, 44);
	}
	CHECK(n >= 1, "no gfx8 target in the table");
}

/* ---- 2. the 8-bit-m0 bug ------------------------------------------------ */

#define ALL_EVENTS 4095

/* Ids whose low byte differs from the id: m0 & 0xff = 0, 44, 255. */
static const uint32_t wide_ids[] = { 256, 300, 4095 };
/* Ids the bug leaves intact (id & 0xff == id). */
static const uint32_t narrow_ids[] = { 1, 255 };

static void bug_case(const struct kfdsig_target *t, bool gfx8, bool v614,
		     enum kfdsig_shader_form form)
{
	static const uint32_t good_ids[] = { 1, 255, 256, 300, 4095 };
	struct fx f;

	fx_open(&f, t, v614 ? "v6.14" : NULL, form, ALL_EVENTS);

	/*
	 * Correct stubs (m0 = the full id): gfx9+ keep 23/24 bits, every id
	 * < 4096 arrives whole -> fast path, slot signalled -> that event.
	 * gfx8: id & 0xff, walk from there; every lower alias is unsignalled
	 * -> the event itself. The drop rule never fires (the named slot is
	 * the one just written), so both profiles wake.
	 */
	for (size_t k = 0; k < sizeof(good_ids) / sizeof(good_ids[0]); k++) {
		dispatch(&f, good_ids[k], good_ids[k]);
		SLOT(&f, good_ids[k], UNSIG, "acknowledged");
		WOKE(&f, good_ids[k], "a full-id stub");
		PATH(&f, gfx8 ? KFDSIG_EMU_PATH_PARTIAL : KFDSIG_EMU_PATH_FAST,
		     "a correct stub names its event");
	}

	/* The bug below 256: m0 = id & 0xff = id, the correct stub. */
	for (size_t k = 0; k < sizeof(narrow_ids) / sizeof(narrow_ids[0]); k++) {
		dispatch(&f, narrow_ids[k], narrow_ids[k] & 0xff);
		WOKE(&f, narrow_ids[k], "id & 0xff == id");
	}

	for (size_t k = 0; k < sizeof(wide_ids) / sizeof(wide_ids[0]); k++) {
		uint32_t id = wide_ids[k], m0 = id & 0xff;

		dispatch(&f, id, m0);
		if (gfx8) {
			/* gfx8 keeps m0[7:0] of the correct stub too: the
			 * same interrupt, 8 bits -> walk m0, m0 + 256, ...:
			 * only slot id is signalled -> id. Partial ids are
			 * never dropped, so also under v6.14. */
			SLOT(&f, id, UNSIG, "found by the walk");
			WOKE(&f, id, "gfx8: the bug changes nothing");
			PATH(&f, KFDSIG_EMU_PATH_PARTIAL, "the walk from m0");
		} else if (!v614) {
			/* gfx9+: m0 (< 2^23) arrives as a full id; fast
			 * path reads slot m0: all-ones (0 is reserved, 44 and
			 * 255 unsignalled) -> miss -> exhaustive scan (4095
			 * events: slot form) finds slot id -> id. */
			SLOT(&f, id, UNSIG, "acknowledged by the scan");
			WOKE(&f, id, "fast path missed, the exhaustive scan recovers it");
			PATH(&f, KFDSIG_EMU_PATH_SCAN, "rescued by the scan");
			if (m0)
				ASLEEP(&f, m0, "m0 names it but its slot is unsignalled");
		} else {
			/* v6.14-v6.18: full id, < 4096, slot m0 all-ones ->
			 * the interrupt is dropped, no scan: the slot keeps
			 * the stub's 1 and the waiter times out. */
			SLOT(&f, id, 1, "never acknowledged: the interrupt was dropped");
			PATH(&f, KFDSIG_EMU_PATH_DROPPED, "the v6.14 rule");
			ASLEEP(&f, id, "v6.14-v6.18 drop the interrupt");
			if (m0)
				ASLEEP(&f, m0, "dropped");
			/* A later interrupt naming slot id finds it: the
			 * correct stub (fast path). */
			dispatch(&f, id, id);
			SLOT(&f, id, UNSIG, "acknowledged");
			WOKE(&f, id, "the correct stub wakes it");
		}
	}

	/*
	 * The truncated id names another pending event: event 44's slot was
	 * written (its interrupt not handled yet), then the buggy stub for
	 * 300 runs (m0 = 44). gfx9+: full id 44, slot 44 signalled -> fast
	 * path -> 44 wakes (in both profiles: the drop needs an unsignalled
	 * slot), 300 stays pending with the stub's 1. gfx8: walk 44 ->
	 * signalled, exists -> 44 as well (and the same with the correct
	 * stub). Either way a later interrupt naming 300 finds it.
	 */
	t_gpu_signal(&f.page[44], 44);
	dispatch(&f, 300, 300 & 0xff);
	SLOT(&f, 44, UNSIG, "the interrupt took 44");
	SLOT(&f, 300, 1, "300 still pending");
	WOKE(&f, 44, "m0 = 44 names it and its slot is signalled");
	ASLEEP(&f, 300, "the wrong event woke instead");
	dispatch(&f, 300, 300);
	WOKE(&f, 300, "a later correct interrupt");
	fx_close(&f);
}

static void test_m0_bug(void)
{
	int full = 0;

	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);
		bool gfx8 = t->family == KFDSIG_FAMILY_GFX8;

		if (t_no_stub(t))
			continue;
		full += !gfx8;
		for (int form = KFDSIG_SHADER_CODE_OBJECT; form <= KFDSIG_SHADER_RAW; form++) {
			bug_case(t, gfx8, false, (enum kfdsig_shader_form)form);
			bug_case(t, gfx8, true, (enum kfdsig_shader_form)form);
		}
	}
	CHECK(full >= 1, "no gfx9+ target in the table");
}

/* ---- 3. a wave the shader unit refuses ---------------------------------- */

/*
 * The raw stub with its first instruction dword replaced by an image
 * instruction (MIMG [31:26] = 0b111100: image_load with zero fields,
 * 0xf0000000), outside the implemented set on every generation. The unit refuses it before anything
 * runs: an illegal instruction, a wave exception (EC_QUEUE_WAVE_ILLEGAL_
 * INSTRUCTION) that stops the queue (KFDSIG_EMU_QUEUE_WAVE_EXCEPTION), the
 * slot is not written and nobody wakes.
 */
/* What the emulator hands its host about the stopped wave (emu_host.h). */
static char diag[256];

static void diag_line(void *ctx, const char *line)
{
	(void)ctx;
	snprintf(diag, sizeof(diag), "%s", line);
}

static void test_refused_wave(void)
{
	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);
		struct kfdsig_fence fe = { .event_id = 3 };
		struct kfdsig_shader_placed at;
		struct kfdsig_emu_queue_info qi = { 0 };
		uint32_t d[KFDSIG_PM4_DISPATCH_MAX_DW];
		struct fx f;
		int n;

		if (t_no_stub(t))
			continue;
		fx_open(&f, t, NULL, KFDSIG_SHADER_RAW, 3);
		fe.slot_va = f.page_va + 8 * 3;
		KFDSIG_OPTS(kfdsig_code_buf, cb, .cpu = f.code->cpu, .va = f.code->va,
			    .size = f.code->size);
		T_REQUIRE(kfdsig_shader_place(&f.s, &cb, &fe, &at) >= 0, "place: %s",
			  kfdsig_last_error());
		put_le32((uint8_t *)f.code->cpu + (at.entry_va - f.code->va), 0xf0000000u);
		n = kfdsig_pm4_emit_dispatch(&f.s, at.entry_va, 0, d, KFDSIG_PM4_DISPATCH_MAX_DW);
		T_REQUIRE(n > 0, "dispatch");
		diag[0] = 0;
		emu_host_set_diag(f.emu, diag_line, NULL);
		T_REQUIRE(!kfdsig_kfd_queue_submit(f.q, d, (uint32_t)n, WAIT_MS), "submit");
		for (int k = 0; k < WAIT_MS && !qi.halted; k++) {
			kfdsig_emu_queue_info(f.emu, t_pasid(f.emu, f.kfd),
					      kfdsig_kfd_queue_id(f.q), &qi);
			if (!qi.halted)
				usleep(1000);
		}
		CHECK(qi.halted && qi.exception == KFDSIG_EMU_QUEUE_WAVE_EXCEPTION,
		      "%s: refused wave stops the queue (halted %d, exception %u)", t->name,
		      qi.halted, qi.exception);
		SLOT(&f, 3, UNSIG, "nothing ran");
		ASLEEP(&f, 3, "no message was sent");
		/* the compute-kernel unit (GCN5/CDNA, RDNA2) says where it stopped */
		if (!strcmp(t->name, "gfx90a") || !strcmp(t->name, "gfx1030")) {
			char where[32];

			snprintf(where, sizeof(where), "0x%llx", (unsigned long long)at.entry_va);
			CHECK(strstr(diag, where) != NULL,
			      "%s: the host is told where the wave stopped ('%s')", t->name, diag);
		}
		fx_close(&f);
	}
}

int main(void)
{
	test_gfx8_aliasing();
	test_m0_bug();
	test_refused_wave();
	return t_result("kfd_shader_alias");
}
