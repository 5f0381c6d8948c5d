/* SPDX-License-Identifier: MIT */
/*
 * One call per signal for every engine (include/kfdsig/signal.h): the PM4
 * and SDMA fence emitters as they are, for the shader path the stub
 * copied into the caller's code buffer, filled in and dispatched, and for
 * AQL an interrupt signal in the code buffer completed by a barrier-AND
 * packet (src/aql/aql_signal.c).
 *
 * Placement: COMPUTE_PGM_LO holds address bits 47:8, so the entry must be
 * 256-byte aligned (KFDSIG_SHADER_CODE_ALIGN, shader.h); the code-object
 * form reads its kernel arguments through a 16-byte aligned pointer in
 * s[0:1] (kfdsig_pm4_emit_dispatch() checks both).
 */
#include <errno.h>
#include <string.h>

#include "aql/aql_internal.h"
#include "core/fence_check.h"
#include "core/internal.h"
#include "core/opts.h"

#define KERNARG_ALIGN 16u
/* u32 event_id at byte 8 of the kernel arguments (shader.h) */
#define KERNARG_EVENT_ID 8u

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* What the stub can do: store 1 into the slot and send m0. */
static int check_fence(const struct kfdsig_shader_stub *s, const struct kfdsig_fence *f)
{
	struct kfdsig_fence strict = { .slot_va = f->slot_va, .event_id = f->event_id };
	uint64_t value;
	int ret;

	ret = fence_check(s->target, f, KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD, 1,
			  &value);
	if (ret)
		return ret;
	if (unlikely(f->cache || f->form))
		return set_error(EINVAL, "the shader stub has no cache action or packet "
					 "form to choose: cache and form must be 0");
	if (unlikely((f->flags & KFDSIG_FENCE_DELIBERATELY_BAD) &&
		     !(f->flags & KFDSIG_FENCE_CTXID)))
		return set_error(EINVAL, "a deliberately bad shader signal changes m0 only: "
					 "set KFDSIG_FENCE_CTXID and ctxid");
	/* The slot and the event id of the stub always obey the rules; only
	 * m0 may be deliberately wrong. */
	return fence_check(s->target, &strict, 0, 1, &value);
}

int kfdsig_shader_place(const struct kfdsig_shader_stub *s, struct kfdsig_code_buf *code,
			const struct kfdsig_fence *f, struct kfdsig_shader_placed *out)
{
	struct kfdsig_code_buf c;
	uint64_t entry, off, end, karg = 0;
	uint32_t m0;
	uint8_t *p;
	int ret;

	if (unlikely(!s || !s->target || !code || !f))
		return set_error(EINVAL, "no stub, code buffer or fence");
	ret = code_buf_read(&c, code, 1);
	if (ret)
		return ret;
	if (unlikely(s->entry_offset > s->size || !s->bytes))
		return set_error(EINVAL, "stub without code");
	if (unlikely((unsigned)s->form & KFDSIG_SHADER_TRAP))
		return set_error(EINVAL, "a trap stub signals no event: copy its bytes and "
					 "dispatch them (kfdsig_pm4_emit_dispatch())");
	ret = check_fence(s, f);
	if (ret < 0)
		return ret;
	m0 = (f->flags & KFDSIG_FENCE_CTXID) ? f->ctxid : f->event_id;

	/* first entry address at or after used that COMPUTE_PGM_LO can hold */
	entry = c.va + c.used + s->entry_offset;
	entry = (entry + KFDSIG_SHADER_CODE_ALIGN - 1) & ~(uint64_t)(KFDSIG_SHADER_CODE_ALIGN - 1);
	off = entry - s->entry_offset - c.va;
	end = off + s->size;
	if (s->form == KFDSIG_SHADER_CODE_OBJECT) {
		karg = (end + KERNARG_ALIGN - 1) & ~(uint64_t)(KERNARG_ALIGN - 1);
		end = karg + KFDSIG_SHADER_KERNARG_SIZE;
	}
	if (unlikely(end > c.size))
		return set_error(ENOSPC,
				 "code buffer: %llu bytes, the stub needs %llu from byte "
				 "%llu (used %llu)",
				 (unsigned long long)c.size, (unsigned long long)(end - off),
				 (unsigned long long)off, (unsigned long long)c.used);

	p = (uint8_t *)c.cpu + off;
	memcpy(p, s->bytes, s->size);
	if (s->form == KFDSIG_SHADER_RAW) {
		ret = kfdsig_shader_patch(s, p, s->size, f->slot_va, f->event_id);
		if (ret >= 0 && m0 != f->event_id) /* the literal that becomes m0 */
			put_le32(p + s->patch_offset[KFDSIG_SHADER_PATCH_EVENT_ID], m0);
	} else {
		p = (uint8_t *)c.cpu + karg;
		ret = kfdsig_shader_kernargs(s, p, KFDSIG_SHADER_KERNARG_SIZE, f->slot_va,
					     f->event_id);
		if (ret >= 0 && m0 != f->event_id)
			put_le32(p + KERNARG_EVENT_ID, m0);
	}
	if (ret < 0)
		return ret;
	code->used = end;
	if (out) {
		memset(out, 0, sizeof(*out));
		out->entry_va = entry;
		out->kernarg_va = karg ? c.va + karg : 0;
	}
	return kfdsig_shader_kfd_id(s->target, m0) == m0 ? 0 : KFDSIG_SHADER_PARTIAL_ID;
}

int kfdsig_shader_emit_signal(const struct kfdsig_shader_stub *s, struct kfdsig_code_buf *code,
			      const struct kfdsig_fence *f, uint32_t *buf, size_t max_dw)
{
	struct kfdsig_shader_placed at;
	uint64_t used;
	int n, ret;

	n = kfdsig_pm4_dispatch_dw(s);
	if (n < 0)
		return n;
	if (unlikely(!buf || !code))
		return set_error(EINVAL, "no output buffer or code buffer");
	if (unlikely(max_dw < (size_t)n))
		return set_error(ENOSPC, "the dispatch needs %d dwords, the buffer has %zu", n,
				 max_dw);
	used = code->used;
	ret = kfdsig_shader_place(s, code, f, &at);
	if (ret < 0)
		return ret;
	n = kfdsig_pm4_emit_dispatch(s, at.entry_va, at.kernarg_va, buf, max_dw);
	if (n < 0)
		code->used = used;
	return n;
}

/*
 * The shader path on a multi-XCC target: the dispatch behind a PRED_EXEC
 * naming logical XCC 0. A PM4 queue's MQDs give every XCC logical id 0 and
 * TG chunk size 0 (kfd_mqd_manager_v9.c init_mqd_v9_4_3()); whether each
 * XCC then runs the whole grid is UNVERIFIED, so the one-wave stub is
 * dispatched on one XCC only and its s_sendmsg signals once either way.
 */
static int shader_signal_xcc(const struct kfdsig_target *t, const struct kfdsig_shader_stub *s,
			     struct kfdsig_code_buf *code, const struct kfdsig_fence *f,
			     uint32_t *buf, size_t max_dw)
{
	int n, r;

	if (unlikely(!buf))
		return set_error(EINVAL, "no output buffer");
	n = kfdsig_pm4_dispatch_dw(s);
	if (n < 0)
		return n;
	if (unlikely(max_dw < (size_t)n + KFDSIG_PM4_PRED_EXEC_DW))
		return set_error(ENOSPC,
				 "the predicated dispatch needs %d dwords, the buffer has %zu",
				 n + KFDSIG_PM4_PRED_EXEC_DW, max_dw);
	n = kfdsig_shader_emit_signal(s, code, f, buf + KFDSIG_PM4_PRED_EXEC_DW,
				      max_dw - KFDSIG_PM4_PRED_EXEC_DW);
	if (n < 0)
		return n;
	r = kfdsig_pm4_emit_pred_exec(t, 1, (uint32_t)n, buf, KFDSIG_PM4_PRED_EXEC_DW);
	return r < 0 ? r : r + n;
}

int kfdsig_emit_signal(const struct kfdsig_target *t, enum kfdsig_signal_engine engine,
		       const struct kfdsig_fence *f, struct kfdsig_code_buf *code, uint32_t *buf,
		       size_t max_dw)
{
	struct kfdsig_shader_stub s;
	struct kfdsig_code_buf c;
	int ret;

	switch (engine) {
	case KFDSIG_SIGNAL_PM4:
		/* multi-XCC: once, not once per XCC (docs/multi-xcc.md) */
		if (t && t->max_xcc > 1)
			return code ? kfdsig_pm4_emit_fence_ib(t, f, code, buf, max_dw)
				    : kfdsig_pm4_emit_fence_xcc(t, f, 1, buf, max_dw);
		return kfdsig_pm4_emit_fence(t, f, buf, max_dw);
	case KFDSIG_SIGNAL_SDMA:
		/* a code buffer means the caller meant another engine */
		if (unlikely(code))
			return set_error(EINVAL, "SDMA takes no code buffer");
		return kfdsig_sdma_emit_fence(t, f, buf, max_dw);
	case KFDSIG_SIGNAL_SHADER:
		break;
	case KFDSIG_SIGNAL_AQL:
		return aql_signal_emit(t, f, code, buf, max_dw);
	default:
		return set_error(EINVAL, "unknown signal engine %d", (int)engine);
	}
	if (unlikely(!code))
		return set_error(EINVAL, "the shader path needs a code buffer");
	ret = opts_copy(&c, sizeof(c), code, "kfdsig_code_buf");
	if (ret)
		return ret;
	ret = kfdsig_shader_stub(t, (enum kfdsig_shader_form)c.form, &s);
	if (ret)
		return ret;
	if (t->max_xcc > 1)
		return shader_signal_xcc(t, &s, code, f, buf, max_dw);
	return kfdsig_shader_emit_signal(&s, code, f, buf, max_dw);
}
