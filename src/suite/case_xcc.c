/* SPDX-License-Identifier: MIT */
/*
 * Multi-XCC nodes (GC 9.4.3 / 9.4.4 / 9.5.0 / 12.1, docs/multi-xcc.md): every XCC
 * of a KFD node runs a PM4 user queue's ring (kfd_mqd_manager_v9.c
 * init_mqd_v9_4_3()), so a fence written for a one-XCC GPU signals once per
 * XCC; kfdsig's fence (predicated to XCC 0, run from an IB) signals once.
 * On a node of one XCC (CPX, or any other GPU) both signal once. The same
 * cases run on hardware, where the unpredicated count is what the firmware
 * really does (reported).
 */
#include <stdio.h>
#include <string.h>

#include <kfdsig/pm4.h>
#include <kfdsig/signal.h>

#include "case.h"

#define WAIT_MS 2000
#define G SUITE_QUEUES
/* WAIT_REG_MEM: PACKET3(0x3c, 5), function == on memory (soc15d.h) */
#define WRM_HDR 0xc0053c00u
#define WRM_EQ_MEM (3u | 1u << 4)

static uint32_t node_xcc(const struct suite_ctx *c)
{
	return c->dev->num_xcc ? c->dev->num_xcc : 1;
}

/* Age of @id after the queue went idle, from 1 (a new event); 0 on error. */
static uint64_t age_now(struct suite_ctx *c, uint32_t id)
{
	enum kfdsig_wait_result res;
	uint64_t age = 1;

	if (suite_wait1(c, id, &age, suite_bound_ms(c, WAIT_MS), &res) ||
	    res != KFDSIG_WAIT_COMPLETE)
		return 0;
	return age;
}

/* The fence a one-XCC GPU wants, unpredicated, or kfdsig's (@safe). */
static enum suite_result fence(struct suite_ctx *c, struct suite_queue *q, uint32_t id, bool safe,
			       uint64_t page_va)
{
	struct kfdsig_fence f = { .slot_va = page_va + 8ull * id, .event_id = id };
	uint32_t d[KFDSIG_SIGNAL_MAX_DW];
	int n;

	if (safe)
		return suite_queue_signal(c, q, id, 0, 0);
	n = kfdsig_pm4_emit_fence(c->t, &f, d, KFDSIG_SIGNAL_MAX_DW);
	if (n < 0)
		return suite_fail(c, "emit: %s", kfdsig_last_error());
	return suite_queue_raw(c, q, d, (uint32_t)n);
}

static enum suite_result setup(struct suite_ctx *c, struct suite_queue **q, uint64_t *page_va,
			       bool auto_reset, struct kfdsig_event *ev)
{
	uint64_t *page;
	enum suite_result r;

	if (!c->t)
		return suite_skip(c, "the GPU is not in the generation table");
	if (!suite_has_age(c))
		return suite_skip(c, "needs event age (KFD 1.14)");
	if (suite_event(c, auto_reset, ev))
		return SUITE_FAIL;
	r = suite_queue_open(c, SUITE_ENGINE_PM4, 0, q);
	if (r != SUITE_PASS)
		return r;
	if (kfdsig_kfd_signal_page(c->kfd, &page, page_va) < 0) {
		suite_queue_close(*q);
		return suite_fail(c, "signal page: %s", kfdsig_last_error());
	}
	return SUITE_PASS;
}

/* An unpredicated fence: every XCC writes the slot and interrupts, and the
 * emulator lands all the writes before the first interrupt is handled
 * (docs/multi-xcc.md), so it signals once; on hardware 1 to num_xcc
 * (reported). */
static enum suite_result unpredicated(struct suite_ctx *c)
{
	struct suite_queue *q;
	struct kfdsig_event ev;
	uint64_t page_va, age;
	uint32_t n = node_xcc(c);
	enum suite_result r = setup(c, &q, &page_va, false, &ev);

	if (r != SUITE_PASS)
		return r;
	r = fence(c, q, ev.id, false, page_va);
	if (r == SUITE_PASS)
		r = suite_queue_flush(c, q);
	suite_queue_close(q);
	if (r != SUITE_PASS)
		return r;
	age = age_now(c, ev.id);
	SUITE_CHECK(c, age >= 2, "the fence never signalled event %u", ev.id);
	if (c->d->emu || n == 1)
		SUITE_CHECK(c, age == 2,
			    "age after one unpredicated fence: %llu, expected 2 (the %u XCCs' "
			    "interrupts find the slot acknowledged after the first)",
			    (unsigned long long)age, n);
	else
		SUITE_CHECK(c, age <= 1 + n, "age %llu after one fence on a %u-XCC node",
			    (unsigned long long)age, n);
	return suite_note(c, "%u XCC(s): the unpredicated fence signalled %llu time(s)", n,
			  (unsigned long long)(age - 1));
}

/* kfdsig's fence (kfdsig_emit_signal(), the submit's IB) and the IB form
 * (kfdsig_pm4_emit_fence_ib()): exactly once. */
static enum suite_result default_once(struct suite_ctx *c)
{
	struct suite_queue *q;
	struct kfdsig_event ev, ev2;
	uint64_t page_va, age, age2;
	const struct kfdsig_kfd_bo *bo = NULL;
	uint32_t d[KFDSIG_PM4_IB_DW];
	enum suite_result r = setup(c, &q, &page_va, false, &ev);

	if (r != SUITE_PASS)
		return r;
	if (suite_event(c, false, &ev2)) {
		suite_queue_close(q);
		return SUITE_FAIL;
	}
	r = fence(c, q, ev.id, true, page_va);
	if (r == SUITE_PASS) {
		struct kfdsig_fence f = { .slot_va = page_va + 8ull * ev2.id, .event_id = ev2.id };

		if (kfdsig_kfd_alloc(c->kfd, c->dev->gpu_id, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED,
				     &bo) ||
		    kfdsig_kfd_map(c->kfd, bo, &c->dev->gpu_id, 1)) {
			r = suite_fail(c, "IB buffer: %s", kfdsig_last_error());
		} else {
			KFDSIG_OPTS(kfdsig_code_buf, cb, .cpu = bo->cpu, .va = bo->va,
				    .size = bo->size);

			if (kfdsig_pm4_emit_fence_ib(c->t, &f, &cb, d, KFDSIG_PM4_IB_DW) < 0)
				r = suite_fail(c, "IB fence: %s", kfdsig_last_error());
			else
				r = suite_queue_raw(c, q, d, KFDSIG_PM4_IB_DW);
		}
	}
	if (r == SUITE_PASS)
		r = suite_queue_flush(c, q);
	suite_queue_close(q);
	if (bo)
		kfdsig_kfd_free(c->kfd, bo);
	if (r != SUITE_PASS)
		return r;
	age = age_now(c, ev.id);
	age2 = age_now(c, ev2.id);
	SUITE_CHECK(c, age == 2,
		    "age after kfdsig's fence: %llu, expected 2 (one signal on a %u-XCC node)",
		    (unsigned long long)age, node_xcc(c));
	SUITE_CHECK(c, age2 == 2, "age after the IB-form fence: %llu, expected 2",
		    (unsigned long long)age2);
	return SUITE_PASS;
}

/*
 * An auto-reset event: [fence, WAIT_REG_MEM go == 1] keeps the queue in the
 * packet after the fence until the woken waiter has gone; a second wait
 * returns at once if a later XCC's interrupt set the event again. The
 * emulator runs the fence on every XCC before any interrupt is handled:
 * once; kfdsig's fence: once anywhere; multi-XCC hardware: reported.
 */
static enum suite_result wakes(struct suite_ctx *c, bool safe, bool *twice)
{
	struct suite_queue *q;
	struct kfdsig_event ev;
	const struct kfdsig_kfd_bo *bo = NULL;
	enum kfdsig_wait_result res;
	uint64_t page_va, go_va;
	uint32_t *go;
	enum suite_result r = setup(c, &q, &page_va, true, &ev);

	if (r != SUITE_PASS)
		return r;
	if (kfdsig_kfd_alloc(c->kfd, c->dev->gpu_id, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) ||
	    kfdsig_kfd_map(c->kfd, bo, &c->dev->gpu_id, 1)) {
		suite_queue_close(q);
		if (bo)
			kfdsig_kfd_free(c->kfd, bo);
		return suite_fail(c, "go buffer: %s", kfdsig_last_error());
	}
	go = bo->cpu;
	go_va = bo->va;
	__atomic_store_n(go, 0, __ATOMIC_RELEASE);
	r = fence(c, q, ev.id, safe, page_va);
	if (r == SUITE_PASS) {
		const uint32_t wrm[7] = {
			WRM_HDR,     WRM_EQ_MEM, (uint32_t)go_va, (uint32_t)(go_va >> 32), 1,
			0xffffffffu, 4
		};

		r = suite_queue_raw(c, q, wrm, 7);
	}
	if (r == SUITE_PASS)
		r = suite_queue_kick(c, q);
	if (r == SUITE_PASS && (suite_wait1(c, ev.id, NULL, suite_bound_ms(c, WAIT_MS), &res) ||
				res != KFDSIG_WAIT_COMPLETE))
		r = suite_fail(c, "the fence did not wake the waiter");
	__atomic_store_n(go, 1, __ATOMIC_RELEASE);
	if (r == SUITE_PASS)
		r = suite_queue_flush(c, q);
	suite_queue_close(q);
	kfdsig_kfd_free(c->kfd, bo);
	if (r != SUITE_PASS)
		return r;
	*twice = suite_wait1(c, ev.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE;
	return SUITE_PASS;
}

static enum suite_result auto_reset(struct suite_ctx *c)
{
	uint32_t n = node_xcc(c);
	bool raw_twice = false, safe_twice = false;
	enum suite_result r = wakes(c, false, &raw_twice);

	if (r != SUITE_PASS)
		return r;
	r = wakes(c, true, &safe_twice);
	if (r != SUITE_PASS)
		return r;
	SUITE_CHECK(c, !safe_twice, "kfdsig's fence set the auto-reset event again after its wake");
	if (c->d->emu || n == 1)
		SUITE_CHECK(c, !raw_twice,
			    "unpredicated fence on a %u-XCC node: the auto-reset event woke twice, "
			    "expected once",
			    n);
	return suite_note(c, "%u XCC(s): unpredicated fence woke the auto-reset event %s", n,
			  raw_twice ? "twice" : "once");
}

static const struct suite_case cases[] = {
	{ "gpu.multi-xcc.unpredicated.pm4",
	  "a RELEASE_MEM with no XCC predicate runs on every XCC of the node: the event age rises "
	  "by 1 to num_xcc",
	  "once on the emulated KFD (every XCC runs the ring, all writes land before the first "
	  "interrupt is handled) and on any one-XCC node; on multi-XCC hardware 1 to num_xcc "
	  "(reported: UNVERIFIED, docs/multi-xcc.md)",
	  SUITE_ENGINE_PM4, G, unpredicated },
	{ "gpu.multi-xcc.default.pm4",
	  "kfdsig's fence (kfdsig_emit_signal: predicated to XCC 0, run from an IB) and "
	  "kfdsig_pm4_emit_fence_ib each signal exactly once on any node",
	  NULL, SUITE_ENGINE_PM4, G, default_once },
	{ "gpu.multi-xcc.auto-reset.pm4",
	  "whether an auto-reset event woken by an unpredicated fence is set again by the other "
	  "XCCs (a second wait returns at once); with kfdsig's fence it is not",
	  "once on the emulated KFD; multi-XCC hardware reported", SUITE_ENGINE_PM4, G,
	  auto_reset },
};

const struct suite_group suite_group_xcc = { "gpu.multi-xcc", cases,
					     sizeof(cases) / sizeof(cases[0]) };
