/* SPDX-License-Identifier: MIT */
/*
 * One call per signal, whatever the engine: the packets (and, for the
 * shader path, the stub copy in a code buffer) that make the GPU signal a
 * KFD event.
 *
 *  - PM4:    kfdsig_pm4_emit_fence()
 *  - SDMA:   kfdsig_sdma_emit_fence()
 *  - shader: the target's signal stub copied into a code buffer with its
 *            entry 256-byte aligned, its slot address and event id filled
 *            in (raw form: patched literals; code-object form: a kernel
 *            argument block placed after the copy), then the PM4 packets
 *            that dispatch it (kfdsig_pm4_emit_dispatch()), to be submitted
 *            on a PM4 compute queue.
 *  - AQL:    an interrupt signal (struct kfdsig_amd_signal, kfdsig/aql.h:
 *            kind USER, value 1, mailbox = slot_va, event_id = the event
 *            id) written into the code buffer at the next 64-byte aligned
 *            GPU address, then one 64-byte barrier-AND packet completing it
 *            (kfdsig_aql_emit_barrier()), to be submitted on an AQL queue
 *            (KFDSIG_QUEUE_AQL).
 *
 * Every form takes the same struct kfdsig_fence: slot_va and event_id, and
 * for the deliberately bad cases KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD
 * with ctxid (the shader then puts ctxid in m0 instead of the event id, AQL
 * in the signal's event_id).
 */
#ifndef KFDSIG_SIGNAL_H
#define KFDSIG_SIGNAL_H

#include <stddef.h>
#include <stdint.h>

#include <kfdsig/common.h>
#include <kfdsig/fence.h>
#include <kfdsig/pm4.h> /* kfdsig_pm4_emit_fence_ib(), kfdsig_pm4_emit_dispatch() */
#include <kfdsig/shader.h>
#include <kfdsig/target.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which engine signals. */
enum kfdsig_signal_engine {
	KFDSIG_SIGNAL_PM4 = 0, /* a PM4 fence on a compute queue */
	KFDSIG_SIGNAL_SDMA,    /* FENCE + TRAP on an SDMA queue */
	KFDSIG_SIGNAL_SHADER,  /* a stub's s_sendmsg, dispatched on a PM4 queue */
	KFDSIG_SIGNAL_AQL,     /* a barrier-AND completing an amd_signal_t, on an AQL queue */
};

/*
 * A GPU-readable, CPU-writable buffer the shader path copies stubs into
 * (e.g. a kfdsig_kfd_alloc() buffer with KFDSIG_KFD_MEM_GTT_UNCACHED,
 * mapped to the GPU). Declare it with KFDSIG_OPTS(kfdsig_code_buf, name,
 * ...) so that @sz is set. The library reads every field and writes only
 * @used.
 */
struct kfdsig_code_buf {
	size_t sz;	/* sizeof(struct kfdsig_code_buf) the caller was built with */
	void *cpu;	/* CPU address of the buffer */
	uint64_t va;	/* GPU address of cpu[0] */
	uint64_t size;	/* bytes at @cpu */
	uint64_t used;	/* bytes in use: the next copy goes after them; advanced */
	uint32_t form;	/* enum kfdsig_shader_form kfdsig_emit_signal() uses */
	uint32_t pad_0; /* must be 0 */
};

/* Where kfdsig_shader_place() put a stub (the library fills all of it). */
struct kfdsig_shader_placed {
	uint64_t entry_va;    /* GPU address of the first instruction (256-aligned) */
	uint64_t kernarg_va;  /* code-object form: the kernel arguments; raw: 0 */
	uint64_t reserved[2]; /* room to grow: written as 0 */
};

/**
 * kfdsig_shader_place() - copy a stub into a code buffer and fill in the
 * signal it sends.
 * @s:    the stub (kfdsig_shader_stub(), either form)
 * @code: the buffer; the copy goes at the first offset >= code->used at
 *        which the entry's GPU address is KFDSIG_SHADER_CODE_ALIGN aligned,
 *        the code-object form's KFDSIG_SHADER_KERNARG_SIZE bytes of kernel
 *        arguments at the next 16-byte boundary after it; code->used then
 *        points past both
 * @f:    slot_va and event_id as for kfdsig_shader_patch(); flags 0, or
 *        KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD to put @f->ctxid
 *        in m0 instead of the event id (the slot stays the event's);
 *        value, cache and form must be 0
 * @out:  NULL, or where the copy went
 *
 * Return: 0, or KFDSIG_SHADER_PARTIAL_ID as kfdsig_shader_patch(); -EINVAL
 * for a bad argument or fence, -ENOSPC when the buffer has no room. Nothing
 * is written and code->used is unchanged on error.
 */
KFDSIG_API int kfdsig_shader_place(const struct kfdsig_shader_stub *s, struct kfdsig_code_buf *code,
				   const struct kfdsig_fence *f, struct kfdsig_shader_placed *out);

/**
 * kfdsig_shader_emit_signal() - kfdsig_shader_place(), then the PM4
 * dispatch of the copy (kfdsig_pm4_emit_dispatch()) into @buf.
 * @max_dw: room in @buf in dwords (KFDSIG_PM4_DISPATCH_MAX_DW suffices)
 *
 * Return: dwords written to @buf; -EINVAL, -ENOSPC (buffer or code buffer
 * too small) as kfdsig_shader_place(). Nothing is written on error.
 */
KFDSIG_API int kfdsig_shader_emit_signal(const struct kfdsig_shader_stub *s,
					 struct kfdsig_code_buf *code, const struct kfdsig_fence *f,
					 uint32_t *buf, size_t max_dw);

/* The most dwords kfdsig_emit_signal() writes for any engine. */
#define KFDSIG_SIGNAL_MAX_DW 64

/**
 * kfdsig_emit_signal() - the packets that signal @f->event_id on @engine.
 * @t:      target
 * @engine: enum kfdsig_signal_engine
 * @f:      the fence (kfdsig_pm4_emit_fence() / kfdsig_sdma_emit_fence()
 *          rules; the shader path as kfdsig_shader_place())
 * @code:   shader: where the stub goes, in the form code->form; AQL: where
 *          the signal goes (64 bytes; form unused); NULL for SDMA; PM4:
 *          NULL, or on a multi-XCC target (t->max_xcc > 1) where the
 *          fence's indirect buffer goes (kfdsig_pm4_emit_fence_ib())
 * @buf:    the caller's buffer (KFDSIG_SIGNAL_MAX_DW suffices)
 * @max_dw: room in @buf, in dwords
 *
 * On a multi-XCC target (t->max_xcc > 1) the PM4 and shader paths signal
 * once, not once per XCC: PM4 with @code is kfdsig_pm4_emit_fence_ib() (an
 * INDIRECT_BUFFER, safe in any ring); PM4 without @code is
 * kfdsig_pm4_emit_fence_xcc(t, f, 1, ...) and the shader path's dispatch
 * is preceded by a PRED_EXEC naming XCC 0; those two must run from an
 * indirect buffer, which kfdsig_kfd_queue_submit() provides on such a
 * target. SDMA (one engine) and AQL (the packet processor completes a
 * packet once) are unchanged (docs/multi-xcc.md).
 *
 * Return: dwords written, or the negative errno of the engine's emitter
 * (-EINVAL for an unknown engine or a code buffer given for SDMA, or
 * missing for the shader or AQL; -ENOENT when
 * the target has no stub; -ENOSPC when @buf or the code buffer has no
 * room).
 */
KFDSIG_API int kfdsig_emit_signal(const struct kfdsig_target *t, enum kfdsig_signal_engine engine,
				  const struct kfdsig_fence *f, struct kfdsig_code_buf *code,
				  uint32_t *buf, size_t max_dw);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_SIGNAL_H */
