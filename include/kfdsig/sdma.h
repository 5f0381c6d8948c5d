/* SPDX-License-Identifier: MIT */
/*
 * SDMA fence-with-interrupt emitters for KFD SDMA user queues, NOPs and the
 * padding SDMA rings need, plus the field layouts of the SDMA packets.
 *
 * Units: SDMA read and write pointers count BYTES (PM4 pointers count
 * dwords). Every wptr_bytes / ring_bytes / align_bytes below is in bytes;
 * every *_dw value is in dwords. From gfx9 on the write pointer is a 64-bit
 * byte offset that only grows (the ring offset is wptr % ring size); on gfx8
 * it is a 32-bit byte offset wrapped to the ring size (kfdsig_target
 * wptr_bits says which).
 */
#ifndef KFDSIG_SDMA_H
#define KFDSIG_SDMA_H

#include <stddef.h>
#include <stdint.h>

#include <kfdsig/common.h>
#include <kfdsig/fence.h>
#include <kfdsig/layout.h>
#include <kfdsig/target.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Dwords of one FENCE packet (32-bit store) and of one TRAP packet. */
#define KFDSIG_SDMA_FENCE_DW 4
#define KFDSIG_SDMA_TRAP_DW 2
/* The most any SDMA fence sequence takes: two FENCEs and a TRAP. */
#define KFDSIG_SDMA_FENCE_MAX_DW (2 * KFDSIG_SDMA_FENCE_DW + KFDSIG_SDMA_TRAP_DW)

/**
 * kfdsig_sdma_fence_dw() - dwords the sequence described by @f takes on @t.
 *
 * Performs every check kfdsig_sdma_emit_fence() performs.
 * Return: 10, 6 or 2 dwords, or -EINVAL (reason in kfdsig_last_error()).
 */
KFDSIG_API int kfdsig_sdma_fence_dw(const struct kfdsig_target *t, const struct kfdsig_fence *f);

/**
 * kfdsig_sdma_emit_fence() - write an SDMA fence-with-interrupt sequence.
 * @t:      target (kfdsig_target_by_name()); its SDMA IP picks the header
 * @f:      what to write; see struct kfdsig_fence
 * @buf:    caller's buffer (KFDSIG_SDMA_FENCE_MAX_DW always suffices)
 * @max_dw: room in @buf, in dwords
 *
 * Default sequence: FENCE(slot, low dword of the value), FENCE(slot + 4,
 * high dword), TRAP(INT_CONTEXT = event id). The value is 1, so the 64-bit
 * slot reads exactly 1 once both stores landed (and already reads as
 * signalled, 0xffffffff_00000001, after the first).
 *
 * The FENCE header is the plain op/sub_op header up to SDMA 4.4.x; from
 * SDMA 5.0 on it also sets MTYPE = 3 (uncached), as every
 * sdma_v5_0 .. v7_0_ring_emit_fence does, plus SYS and SNP (system memory,
 * snooped), as kfdtest's SDMA fence does: the signal page is a GTT buffer.
 *
 * Options (f->flags):
 *   KFDSIG_FENCE_VALUE                any value (never all-ones)
 *   KFDSIG_FENCE_SDMA_ONE_FENCE or KFDSIG_FENCE_32BIT
 *                                     one FENCE, low dword only; the slot
 *                                     then reads 0xffffffff_<value>, which
 *                                     the kernel also treats as signalled
 *   KFDSIG_FENCE_INT_ONLY             TRAP only (someone else writes the slot)
 *   KFDSIG_FENCE_CTXID                f->ctxid as the TRAP context
 *   KFDSIG_FENCE_DELIBERATELY_BAD     skip the checks below; a context id
 *                                     wider than 28 bits is then written
 *                                     whole into the TRAP dword
 * f->cache must be KFDSIG_CACHE_FLUSH_INV (0) and f->form 0: SDMA has no
 * end-of-pipe cache action and only one packet form.
 *
 * Checks: event id 1..4095, slot address non-zero, below 2^48 and 8-byte
 * aligned (4 with one FENCE: each FENCE address must be 4-byte aligned),
 * value never leaving the slot all-ones, TRAP context equal to the event id
 * (so it fits the 28 bits KFD reads).
 *
 * Return: dwords written, -EINVAL for a refused description, -ENOSPC when
 * @max_dw is too small (nothing is written then).
 */
KFDSIG_API int kfdsig_sdma_emit_fence(const struct kfdsig_target *t, const struct kfdsig_fence *f,
				      uint32_t *buf, size_t max_dw);

/*
 * Hot-path form: check the options once per queue with
 * kfdsig_sdma_fence_prepare(), then write each fence with
 * kfdsig_sdma_fence_write(), an inline copy of the prepared dwords with the
 * slot address and the event id patched in. The output is the same as
 * kfdsig_sdma_emit_fence()'s for every event id of the page (followed by the
 * submission padding when asked for).
 */

/* kfdsig_sdma_fence_prepare() flag: append the NOPs that make one fence a
 * submission of the target's minimum size (kfdsig_sdma_pad_submit_dw(); 64
 * dwords on gfx900, gfx902, gfx904 and gfx90c, none elsewhere), so that a
 * fence written alone can be submitted as it is. With
 * KFDSIG_SDMA_NOP_BURST too, the padding is one burst NOP. */
#define KFDSIG_SDMA_TMPL_PAD_SUBMIT (1u << 8)
/* The most dwords a prepared sequence takes: the largest minimum
 * submission. */
#define KFDSIG_SDMA_TMPL_MAX_DW 64
#define KFDSIG_SDMA_TMPL_NONE 0xff
/* The default sequence without padding: FENCE, FENCE, TRAP (10 dwords;
 * addresses at dwords 1 and 5, the event id at dword 9). */
#define KFDSIG_SDMA_TMPL_FFT 1

struct kfdsig_sdma_fence_tmpl {
	uint32_t dw[KFDSIG_SDMA_TMPL_MAX_DW];
	uint64_t signal_page_va;
	uint8_t ndw;	  /* dwords per fence, padding included */
	uint8_t addr_dw;  /* index of the first FENCE's address (lo, hi) or NONE */
	uint8_t addr2_dw; /* index of the second FENCE's address (slot + 4) or NONE */
	uint8_t ctx_dw;	  /* index of the TRAP's INT_CONTEXT (the event id) */
	uint8_t fast;	  /* KFDSIG_SDMA_TMPL_FFT, or 0 */
};

/**
 * kfdsig_sdma_fence_prepare() - check @f once and build a template for every
 * event of the signal page at @signal_page_va.
 * @t:     target
 * @f:     options (flags, value); its event_id and slot_va are ignored.
 *         KFDSIG_FENCE_CTXID and KFDSIG_FENCE_DELIBERATELY_BAD are refused:
 *         such packets go through kfdsig_sdma_emit_fence().
 * @signal_page_va: GPU address of the signal page: 4096-byte aligned, its
 *         32 KiB below 2^va_bits of @t
 * @flags: 0, or KFDSIG_SDMA_TMPL_PAD_SUBMIT (optionally with
 *         KFDSIG_SDMA_NOP_BURST for the padding)
 * @tmpl:  the template to fill
 *
 * Return: 0, or -EINVAL (no target or template, page address 0, unaligned
 * or too high, unknown flags, any option kfdsig_sdma_emit_fence() refuses).
 */
KFDSIG_API int kfdsig_sdma_fence_prepare(const struct kfdsig_target *t,
					 const struct kfdsig_fence *f, uint64_t signal_page_va,
					 uint32_t flags, struct kfdsig_sdma_fence_tmpl *tmpl);

/* Out-of-line error path of kfdsig_sdma_fence_write(); records the reason. */
KFDSIG_API int kfdsig_sdma_fence_write_error(const struct kfdsig_sdma_fence_tmpl *tmpl,
					     size_t max_dw, uint32_t event_id);

/**
 * kfdsig_sdma_fence_write() - write the prepared sequence for @event_id.
 * @tmpl:     a template from kfdsig_sdma_fence_prepare()
 * @buf:      the caller's buffer
 * @max_dw:   room in @buf, in dwords
 * @event_id: 1..4095
 *
 * Return: dwords written (tmpl->ndw), -EINVAL for an event id outside
 * 1..4095, -ENOSPC when @max_dw is smaller than tmpl->ndw (nothing written
 * on error).
 */
static inline int kfdsig_sdma_fence_write(const struct kfdsig_sdma_fence_tmpl *tmpl, uint32_t *buf,
					  size_t max_dw, uint32_t event_id)
{
	uint64_t va;

	if (KFDSIG_EXPECT((uint32_t)(event_id - 1) >= KFDSIG_SIGNAL_EVENT_LIMIT - 1 ||
				  max_dw < tmpl->ndw,
			  0))
		return kfdsig_sdma_fence_write_error(tmpl, max_dw, event_id);
	va = kfdsig_slot_va(tmpl->signal_page_va, event_id);
	/* The default fence: a constant-size copy and five patched dwords
	 * (the slot is 8-byte aligned: slot + 4 never carries into the high
	 * dword). */
	if (KFDSIG_EXPECT(tmpl->fast == KFDSIG_SDMA_TMPL_FFT, 1)) {
		KFDSIG_MEMCPY(buf, tmpl->dw, KFDSIG_SDMA_FENCE_MAX_DW * sizeof(uint32_t));
		buf[1] = (uint32_t)va;
		buf[2] = (uint32_t)(va >> 32);
		buf[5] = (uint32_t)va + 4;
		buf[6] = (uint32_t)(va >> 32);
		buf[9] = event_id;
		return KFDSIG_SDMA_FENCE_MAX_DW;
	}
	KFDSIG_MEMCPY(buf, tmpl->dw, tmpl->ndw * sizeof(uint32_t));
	if (tmpl->addr_dw != KFDSIG_SDMA_TMPL_NONE) {
		buf[tmpl->addr_dw] = (uint32_t)va;
		buf[tmpl->addr_dw + 1] = (uint32_t)(va >> 32);
	}
	if (tmpl->addr2_dw != KFDSIG_SDMA_TMPL_NONE) {
		buf[tmpl->addr2_dw] = (uint32_t)va + 4;
		buf[tmpl->addr2_dw + 1] = (uint32_t)(va >> 32);
	}
	buf[tmpl->ctx_dw] = event_id;
	return tmpl->ndw;
}

/* kfdsig_sdma_emit_nop() flag: burst NOPs (one header counting the rest)
 * instead of one-dword NOPs. SDMA 2.4/3.x need firmware feature version
 * 20 or newer for bursts (amdgpu checks the same before using them). */
#define KFDSIG_SDMA_NOP_BURST (1u << 0)

/**
 * kfdsig_sdma_emit_nop() - write @ndw dwords of NOP.
 * @buf:    caller's buffer
 * @max_dw: room in @buf, in dwords
 * @ndw:    dwords to fill (0 writes nothing)
 * @flags:  0 for one-dword NOPs (zero dwords), KFDSIG_SDMA_NOP_BURST for
 *          burst NOPs of up to 16384 dwords each
 *
 * Return: @ndw, -ENOSPC when @max_dw < @ndw, -EINVAL for unknown flags.
 */
KFDSIG_API int kfdsig_sdma_emit_nop(uint32_t *buf, size_t max_dw, size_t ndw, uint32_t flags);

/**
 * kfdsig_sdma_pad_align_dw() - NOP dwords that bring a write pointer to an
 * alignment.
 * @wptr_bytes:  write pointer, in bytes (a multiple of 4)
 * @align_bytes: alignment in bytes: a power of two, at least 4
 *
 * Return: dwords of NOP to write (0 when already aligned), or -EINVAL.
 */
KFDSIG_API int kfdsig_sdma_pad_align_dw(uint64_t wptr_bytes, uint32_t align_bytes);

/**
 * kfdsig_sdma_pad_wrap_dw() - NOP dwords to write before a packet so that
 * it does not straddle the end of the ring.
 * @wptr_bytes: write pointer, in bytes (monotonic or wrapped; a multiple of 4)
 * @ring_bytes: ring size in bytes, a power of two
 * @packet_dw:  dwords of the packet (or sequence) to place next
 *
 * Return: the dwords left up to the ring end when the packet would cross
 * it, else 0; -EINVAL for a bad ring size or pointer, or a packet that does
 * not fit the ring at all.
 */
KFDSIG_API int kfdsig_sdma_pad_wrap_dw(uint64_t wptr_bytes, uint32_t ring_bytes, size_t packet_dw);

/**
 * kfdsig_sdma_pad_submit_dw() - NOP dwords to append to a submission of
 * @submit_dw dwords so that it meets @t's minimum SDMA submission size
 * (64 dwords on gfx900, gfx902, gfx904 and gfx90c; none elsewhere).
 *
 * Return: dwords to append (0 when no minimum applies), or -EINVAL for a
 * NULL target.
 */
KFDSIG_API int kfdsig_sdma_pad_submit_dw(const struct kfdsig_target *t, size_t submit_dw);

/**
 * kfdsig_sdma_ring_write() - place a packet sequence into an SDMA ring with
 * all the padding the target needs, and advance the write pointer.
 * @t:           target
 * @ring:        CPU mapping of the ring
 * @ring_bytes:  ring size in BYTES, a power of two, at least 64
 * @wptr_bytes:  in/out write pointer in BYTES. Returned monotonic (from
 *               gfx9 on, 64-bit) or wrapped to the ring size (gfx8, 32-bit)
 * @pkt:         the packets; the sequence is kept in one piece
 * @ndw:         dwords in @pkt
 * @align_bytes: 0, or pad the end of the submission to this alignment
 *               (a power of two, 4 .. @ring_bytes)
 * @flags:       0 or KFDSIG_SDMA_NOP_BURST (for every NOP it writes)
 *
 * Writes, in order: NOPs up to the ring end when @pkt would straddle it;
 * @pkt; NOPs up to the target's minimum submission size (counting the
 * NOPs before @pkt); NOPs up to @align_bytes. The doorbell value to write
 * afterwards is the new *@wptr_bytes.
 *
 * Return: dwords written in total, -EINVAL for bad arguments, -ENOSPC when
 * the submission would not fit the ring (it must stay smaller than the
 * ring, or the queue would look empty); nothing is written on error.
 */
KFDSIG_API int kfdsig_sdma_ring_write(const struct kfdsig_target *t, uint32_t *ring,
				      uint32_t ring_bytes, uint64_t *wptr_bytes,
				      const uint32_t *pkt, size_t ndw, uint32_t align_bytes,
				      uint32_t flags);

/**
 * kfdsig_sdma_packet_desc() - layout of SDMA packet @op / @sub_op on @t.
 *
 * Known packets: NOP, COPY linear, WRITE linear, FENCE (the header form of
 * @t's SDMA IP), TRAP, POLL_REGMEM, the three TIMESTAMP sub-ops, and the
 * packets of amdgpu's own rings INDIRECT, SRBM_WRITE and (SDMA 5.0 on)
 * GCR_REQ, so that kernel ring dumps decode in step. Field dword indices
 * count from the header (dword 0).
 *
 * Return: the layout, or NULL with errno = ENOENT when kfdsig has none
 * (errno = EINVAL for a NULL target).
 */
KFDSIG_API const struct kfdsig_packet_desc *
kfdsig_sdma_packet_desc(const struct kfdsig_target *t, unsigned int op, unsigned int sub_op);

/**
 * kfdsig_sdma_packet_dw() - length of the SDMA packet starting at @dw[0].
 * @t: target (WRITE counts differ before SDMA 4.0)
 * @dw: the packet
 * @n:  dwords readable at @dw (at least 1)
 *
 * NOP takes its length from the header count, WRITE linear from its count
 * dword; the other known packets have fixed lengths. The length may exceed
 * @n: the caller checks for truncation.
 *
 * Return: the length in dwords; -ENOENT for an opcode whose length kfdsig
 * does not know; -ENODATA when @n is too short to read the length (a WRITE
 * cut before its count dword); -EINVAL for bad arguments.
 */
KFDSIG_API long kfdsig_sdma_packet_dw(const struct kfdsig_target *t, const uint32_t *dw, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_SDMA_H */
