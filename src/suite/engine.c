/* SPDX-License-Identifier: MIT */
/*
 * The engine layer of the suite: "signal event E via engine pm4/sdma/shader/aql"
 * on a user queue of the case's GPU, through the public queue API of
 * kfdsig/kfd.h (kfdsig_kfd_queue_create / submit / wait_idle). The signal
 * itself always comes from the library: kfdsig_emit_signal() (kfdsig/signal.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"

/* Stub copies one batch may hold: a whole signal page's worth. */
#define CODE_COPIES 4096u
#define TIMEOUT_MS 5000

struct suite_queue {
	struct kfdsig_kfd_queue *q;
	struct suite_ctx *c;
	int engine;
	uint64_t page_va;
	uint32_t *batch;
	size_t n, cap;
	/* shader: stub copies, aql: amd_signal_t, one per signal until the
	 * next flush */
	const struct kfdsig_kfd_bo *code;
	struct kfdsig_code_buf cb;
};

/* A GTT buffer mapped on the case's GPU; nothing is left behind on failure. */
static int alloc_mapped(struct suite_ctx *c, uint64_t size, const struct kfdsig_kfd_bo **out)
{
	int r = kfdsig_kfd_alloc(c->kfd, c->dev->gpu_id, size, KFDSIG_KFD_MEM_GTT_UNCACHED, out);

	if (!r)
		r = kfdsig_kfd_map(c->kfd, *out, &c->dev->gpu_id, 1);
	if (r < 0 && *out) {
		kfdsig_kfd_free(c->kfd, *out);
		*out = NULL;
	}
	return r;
}

enum suite_result suite_queue_open(struct suite_ctx *c, int engine, uint32_t ring_bytes,
				   struct suite_queue **out)
{
	KFDSIG_OPTS(kfdsig_queue_opts, opts, .ring_size = ring_bytes);
	struct suite_queue *q;
	uint64_t *page;
	int r;

	*out = NULL;
	if (kfdsig_kfd_signal_page(c->kfd, &page, &(uint64_t){ 0 }) < 0) {
		struct kfdsig_event ev;
		if (suite_event(c, false, &ev))
			return SUITE_FAIL;
	}
	q = calloc(1, sizeof(*q));
	if (!q)
		return suite_fail(c, "out of memory");
	q->c = c;
	q->engine = engine;
	kfdsig_kfd_signal_page(c->kfd, &page, &q->page_va);
	if (engine == SUITE_ENGINE_SHADER) {
		struct kfdsig_shader_stub stub;

		r = kfdsig_shader_stub(c->t, KFDSIG_SHADER_RAW, &stub);
		if (r < 0) {
			free(q);
			return suite_skip(c, "no shader stub for %s: %s", c->t->name,
					  kfdsig_last_error());
		}
		/* each copy starts its entry on a 256-byte boundary */
		q->cb = (struct kfdsig_code_buf)KFDSIG_OPTS_INIT(kfdsig_code_buf,
								 .form = KFDSIG_SHADER_RAW);
		q->cb.size = CODE_COPIES * ((stub.size + stub.entry_offset + 255) & ~255ul);
		if (alloc_mapped(c, q->cb.size, &q->code) < 0) {
			free(q);
			return suite_fail(c, "code buffer: %s", kfdsig_last_error());
		}
		q->cb.cpu = q->code->cpu;
		q->cb.va = q->code->va;
	}
	if (engine == SUITE_ENGINE_AQL) {
		q->cb = (struct kfdsig_code_buf)KFDSIG_OPTS_INIT(kfdsig_code_buf);
		q->cb.size = (uint64_t)CODE_COPIES * sizeof(struct kfdsig_amd_signal);
		if (alloc_mapped(c, q->cb.size, &q->code) < 0) {
			free(q);
			return suite_fail(c, "signal buffer: %s", kfdsig_last_error());
		}
		q->cb.cpu = q->code->cpu;
		q->cb.va = q->code->va;
	}
	r = kfdsig_kfd_queue_create(c->kfd, c->dev->gpu_id,
				    engine == SUITE_ENGINE_SDMA	 ? KFDSIG_QUEUE_SDMA
				    : engine == SUITE_ENGINE_AQL ? KFDSIG_QUEUE_AQL
								 : KFDSIG_QUEUE_PM4,
				    &opts, &q->q);
	if (r < 0) {
		enum suite_result res = suite_fail(c, "CREATE_QUEUE (%s): %s",
						   suite_engine_name(engine), kfdsig_last_error());
		if (q->code)
			kfdsig_kfd_free(c->kfd, q->code);
		free(q);
		return res;
	}
	*out = q;
	return SUITE_PASS;
}

void suite_queue_close(struct suite_queue *q)
{
	if (!q)
		return;
	kfdsig_kfd_queue_destroy(q->q);
	if (q->code)
		kfdsig_kfd_free(q->c->kfd, q->code);
	free(q->batch);
	free(q);
}

static bool reserve(struct suite_queue *q, size_t ndw)
{
	if (q->n + ndw <= q->cap)
		return true;
	size_t cap = q->cap ? q->cap : 256;
	while (cap < q->n + ndw)
		cap *= 2;
	uint32_t *b = realloc(q->batch, cap * sizeof(*b));
	if (!b)
		return false;
	q->batch = b;
	q->cap = cap;
	return true;
}

enum suite_result suite_queue_signal(struct suite_ctx *c, struct suite_queue *q, uint32_t event_id,
				     uint32_t flags, uint32_t ctxid)
{
	/* A deliberately bad caller (KFDSIG_FENCE_CTXID |
	 * KFDSIG_FENCE_DELIBERATELY_BAD) names another id: the interrupt
	 * context, or for the shader the m0 value, e.g. id & 0xff as device
	 * libraries with the 8-bit-m0 bug do. */
	struct kfdsig_fence f = {
		.slot_va = kfdsig_slot_va(q->page_va, event_id),
		.event_id = event_id,
		.ctxid = ctxid,
		.flags = flags,
	};
	bool code = q->engine == SUITE_ENGINE_SHADER || q->engine == SUITE_ENGINE_AQL;
	int r;

	if (!reserve(q, KFDSIG_SIGNAL_MAX_DW))
		return suite_fail(c, "out of memory");
	r = kfdsig_emit_signal(c->t, suite_signal_engine(q->engine), &f, code ? &q->cb : NULL,
			       q->batch + q->n, q->cap - q->n);
	if (r == -ENOSPC && code)
		return suite_fail(c, "too many %s signals in one batch: %s",
				  suite_engine_name(q->engine), kfdsig_last_error());
	if (r < 0)
		return suite_fail(c, "%s signal of event %u: %s", suite_engine_name(q->engine),
				  event_id, kfdsig_last_error());
	q->n += (size_t)r;
	return SUITE_PASS;
}

enum suite_result suite_queue_signal_aql_mailbox(struct suite_ctx *c, struct suite_queue *q,
						 uint32_t event_id, uint32_t mailbox_id)
{
	/* deliberately bad: the slot of @mailbox_id, the id of @event_id */
	struct kfdsig_fence f = {
		.slot_va = kfdsig_slot_va(q->page_va, mailbox_id),
		.event_id = event_id,
		.flags = KFDSIG_FENCE_DELIBERATELY_BAD,
	};
	int r;

	if (q->engine != SUITE_ENGINE_AQL)
		return suite_fail(c, "a mailbox is an AQL signal's");
	if (!reserve(q, KFDSIG_SIGNAL_MAX_DW))
		return suite_fail(c, "out of memory");
	r = kfdsig_emit_signal(c->t, KFDSIG_SIGNAL_AQL, &f, &q->cb, q->batch + q->n, q->cap - q->n);
	if (r < 0)
		return suite_fail(c, "aql signal of event %u with mailbox %u: %s", event_id,
				  mailbox_id, kfdsig_last_error());
	q->n += (size_t)r;
	return SUITE_PASS;
}

enum suite_result suite_queue_raw(struct suite_ctx *c, struct suite_queue *q, const uint32_t *dw,
				  uint32_t ndw)
{
	if (!reserve(q, ndw))
		return suite_fail(c, "out of memory");
	memcpy(q->batch + q->n, dw, ndw * sizeof(*dw));
	q->n += ndw;
	return SUITE_PASS;
}

static enum suite_result submit(struct suite_ctx *c, struct suite_queue *q, bool wait)
{
	int r = 0;

	/* the library pads SDMA submissions to the target's minimum */
	if (q->n)
		r = kfdsig_kfd_queue_submit(q->q, q->batch, (uint32_t)q->n,
					    suite_bound_ms(c, TIMEOUT_MS));
	q->n = 0;
	if (r < 0)
		return suite_fail(c, "submit to the %s queue: %s", suite_engine_name(q->engine),
				  kfdsig_last_error());
	if (!wait)
		return SUITE_PASS;
	r = kfdsig_kfd_queue_wait_idle(q->q, suite_bound_ms(c, TIMEOUT_MS));
	q->cb.used = 0;
	if (r < 0)
		return suite_fail(c, "the %s queue did not go idle in %u ms: %s",
				  suite_engine_name(q->engine), suite_bound_ms(c, TIMEOUT_MS),
				  kfdsig_last_error());
	return SUITE_PASS;
}

enum suite_result suite_queue_flush(struct suite_ctx *c, struct suite_queue *q)
{
	return submit(c, q, true);
}

enum suite_result suite_queue_kick(struct suite_ctx *c, struct suite_queue *q)
{
	return submit(c, q, false);
}
