/* SPDX-License-Identifier: MIT */
/*
 * SDMA fence-with-interrupt emitters, NOPs and ring padding. The fence
 * follows the kernel's *_ring_emit_fence for each SDMA IP with the interrupt
 * enabled and the event id as the TRAP context (amdgpu *_sdma_pkt_open.h):
 *   SDMA 2.4/3.x  sdma_v2_4/v3_0_ring_emit_fence: plain FENCE header
 *   SDMA 4.x      sdma_v4_0/v4_4_2_ring_emit_fence: plain FENCE header
 *   SDMA 5.x-7.0  sdma_v5_0/v5_2/v6_0/v7_0_ring_emit_fence: MTYPE(3)
 * Padding follows ROCr's blit kernel (ROCr amd_blit_sdma.cpp).
 */
#include <errno.h>
#include <string.h>

#include "core/fence_check.h"
#include "core/internal.h"
#include "sdma/sdma_defs.h"

#define SDMA_FLAGS                                                                              \
	(KFDSIG_FENCE_VALUE | KFDSIG_FENCE_32BIT | KFDSIG_FENCE_INT_ONLY | KFDSIG_FENCE_CTXID | \
	 KFDSIG_FENCE_SDMA_ONE_FENCE | KFDSIG_FENCE_DELIBERATELY_BAD)

/*
 * FENCE header per form. SDMA 5 on: MTYPE UC as the kernel writes it; SYS
 * and SNP as kfdtest's SDMAFencePacket writes them for NV and later (the
 * signal page is snooped system memory). llc_policy/cpv of the v6 header
 * stay 0, as in both of those.
 */
static uint32_t fence_header(const struct kfdsig_target *t)
{
	uint32_t h = SDMA_HDR(SDMA_OP_FENCE, 0);

	if (t->sdma_fence_hdr != KFDSIG_SDMA_HDR_PLAIN)
		h |= SDMA_PUT(FENCE, mtype, SDMA_MTYPE_UC) | SDMA_BIT(FENCE, sys) |
		     SDMA_BIT(FENCE, snp);
	return h;
}

/* Validate; return the sequence length and the value to write. */
static int sdma_fence_prepare(const struct kfdsig_target *t, const struct kfdsig_fence *f,
			      uint64_t *value)
{
	struct kfdsig_fence c;
	uint32_t ctx;
	int ret;

	if (unlikely(!t || !f))
		return set_error(EINVAL, "no target or no fence description");
	if (unlikely(f->form))
		return set_error(EINVAL, "SDMA has one packet form; fence.form is PM4 only");
	if (unlikely(f->cache != KFDSIG_CACHE_FLUSH_INV))
		return set_error(EINVAL, "SDMA FENCE has no end-of-pipe cache action; leave "
					 "fence.cache at its default");
	/* One FENCE is a 32-bit store: check it as one (value range, 4-byte
	 * alignment) whichever of the two flags asked for it. */
	c = *f;
	if (c.flags & (KFDSIG_FENCE_SDMA_ONE_FENCE | KFDSIG_FENCE_32BIT))
		c.flags |= KFDSIG_FENCE_32BIT;
	ret = fence_check(t, &c, SDMA_FLAGS, 1, value);
	if (unlikely(ret))
		return ret;
	ctx = (f->flags & KFDSIG_FENCE_CTXID) ? f->ctxid : f->event_id;
	if (unlikely(ctx & ~SDMA_TRAP_INT_CONTEXT_MASK) &&
	    !(f->flags & KFDSIG_FENCE_DELIBERATELY_BAD))
		return set_error(EINVAL, "TRAP context 0x%x is wider than the 28 bits KFD reads",
				 ctx);
	if (f->flags & KFDSIG_FENCE_INT_ONLY)
		return SDMA_TRAP_DW;
	if (c.flags & KFDSIG_FENCE_32BIT)
		return SDMA_FENCE_DW + SDMA_TRAP_DW;
	return 2 * SDMA_FENCE_DW + SDMA_TRAP_DW;
}

int kfdsig_sdma_fence_dw(const struct kfdsig_target *t, const struct kfdsig_fence *f)
{
	uint64_t value;

	return sdma_fence_prepare(t, f, &value);
}

static uint32_t *emit_fence(uint32_t *p, uint32_t hdr, uint64_t addr, uint32_t data)
{
	p[0] = hdr;
	p[SDMA_DW(FENCE, addr_lo)] = (uint32_t)addr;
	p[SDMA_DW(FENCE, addr_hi)] = (uint32_t)(addr >> 32);
	p[SDMA_DW(FENCE, data)] = data;
	return p + SDMA_FENCE_DW;
}

int kfdsig_sdma_emit_fence(const struct kfdsig_target *t, const struct kfdsig_fence *f,
			   uint32_t *buf, size_t max_dw)
{
	uint32_t *p = buf;
	uint64_t value;
	int n;

	/* The default fence in a handful of compares and ten stores; any
	 * other description, and every refusal, takes the full path below. */
	if (likely(t && f && buf && !f->flags && !f->form && !f->reserved && !f->cache &&
		   f->event_id - 1u < KFDSIG_SIGNAL_EVENT_LIMIT - 1u &&
		   f->slot_va > 8ull * f->event_id && !(f->slot_va & 7) &&
		   !((f->slot_va - 8ull * f->event_id) & (KFDSIG_SIGNAL_PAGE_ALIGN - 1)) &&
		   !((f->slot_va + 7) >> t->va_bits) && max_dw >= KFDSIG_SDMA_FENCE_MAX_DW)) {
		uint32_t hdr = fence_header(t);

		p = emit_fence(p, hdr, f->slot_va, 1);
		p = emit_fence(p, hdr, f->slot_va + 4, 0);
		p[0] = SDMA_HDR(SDMA_OP_TRAP, 0);
		p[SDMA_DW(TRAP, int_context)] = f->event_id;
		return KFDSIG_SDMA_FENCE_MAX_DW;
	}

	n = sdma_fence_prepare(t, f, &value);
	if (unlikely(n < 0))
		return n;
	if (unlikely(!buf || max_dw < (size_t)n))
		return set_error(ENOSPC, "fence needs %d dwords, buffer has %zu", n,
				 buf ? max_dw : 0);

	if (n > SDMA_TRAP_DW) {
		uint32_t hdr = fence_header(t);

		p = emit_fence(p, hdr, f->slot_va, (uint32_t)value);
		if (n == 2 * SDMA_FENCE_DW + SDMA_TRAP_DW)
			p = emit_fence(p, hdr, f->slot_va + 4, (uint32_t)(value >> 32));
	}
	p[0] = SDMA_HDR(SDMA_OP_TRAP, 0);
	/* Only the deliberately-bad path can carry bits above 27 here. */
	p[SDMA_DW(TRAP, int_context)] = (f->flags & KFDSIG_FENCE_CTXID) ? f->ctxid : f->event_id;
	return n;
}

/* Write @ndw NOP dwords; the caller checked the room. */
static void fill_nop(uint32_t *p, size_t ndw, uint32_t flags)
{
	memset(p, 0, ndw * sizeof(*p));
	if (!(flags & KFDSIG_SDMA_NOP_BURST))
		return;
	while (ndw) {
		size_t chunk = ndw < SDMA_NOP_BURST_MAX_DW ? ndw : SDMA_NOP_BURST_MAX_DW;

		p[0] = SDMA_HDR(SDMA_OP_NOP, 0) | SDMA_PUT(NOP, count, chunk - 1);
		p += chunk;
		ndw -= chunk;
	}
}

int kfdsig_sdma_fence_prepare(const struct kfdsig_target *t, const struct kfdsig_fence *f,
			      uint64_t signal_page_va, uint32_t flags,
			      struct kfdsig_sdma_fence_tmpl *tmpl)
{
	struct kfdsig_fence probe;
	int n, pad;

	if (unlikely(!t || !f || !tmpl))
		return set_error(EINVAL, "no target, fence description or template");
	if (unlikely(flags & ~(KFDSIG_SDMA_TMPL_PAD_SUBMIT | KFDSIG_SDMA_NOP_BURST)))
		return set_error(EINVAL, "unknown template flags 0x%x",
				 flags & ~(KFDSIG_SDMA_TMPL_PAD_SUBMIT | KFDSIG_SDMA_NOP_BURST));
	if (unlikely(f->flags & (KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD)))
		return set_error(
			EINVAL, "templates always carry the event id: use kfdsig_sdma_emit_fence() "
				"for a chosen context id or a deliberately bad packet");
	if (unlikely(signal_page_check(t, signal_page_va)))
		return -EINVAL;
	/* Emit for event 1 of the page; every check runs on the real options. */
	probe = *f;
	probe.event_id = 1;
	probe.slot_va = kfdsig_slot_va(signal_page_va, 1);
	n = kfdsig_sdma_emit_fence(t, &probe, tmpl->dw, KFDSIG_SDMA_FENCE_MAX_DW);
	if (n < 0)
		return n;
	pad = (flags & KFDSIG_SDMA_TMPL_PAD_SUBMIT) ? kfdsig_sdma_pad_submit_dw(t, (size_t)n) : 0;
	if (unlikely(n + pad > KFDSIG_SDMA_TMPL_MAX_DW))
		return set_error(EINVAL, "%s's minimum submission (%d dwords) exceeds a template",
				 t->name, n + pad);
	if (pad)
		fill_nop(tmpl->dw + n, (size_t)pad, flags & KFDSIG_SDMA_NOP_BURST);
	tmpl->signal_page_va = signal_page_va;
	tmpl->ndw = (uint8_t)(n + pad);
	tmpl->addr_dw = n > SDMA_TRAP_DW ? SDMA_DW(FENCE, addr_lo) : KFDSIG_SDMA_TMPL_NONE;
	tmpl->addr2_dw = n == 2 * SDMA_FENCE_DW + SDMA_TRAP_DW
				 ? SDMA_FENCE_DW + SDMA_DW(FENCE, addr_lo)
				 : KFDSIG_SDMA_TMPL_NONE;
	tmpl->ctx_dw = (uint8_t)(n - SDMA_TRAP_DW + SDMA_DW(TRAP, int_context));
	tmpl->fast = n == KFDSIG_SDMA_FENCE_MAX_DW && !pad ? KFDSIG_SDMA_TMPL_FFT : 0;
	return 0;
}

int kfdsig_sdma_fence_write_error(const struct kfdsig_sdma_fence_tmpl *tmpl, size_t max_dw,
				  uint32_t event_id)
{
	if (event_id == 0 || event_id >= KFDSIG_SIGNAL_EVENT_LIMIT)
		return set_error(EINVAL, "event id %u is outside 1..4095", event_id);
	return set_error(ENOSPC, "fence needs %u dwords, buffer has %zu", tmpl->ndw, max_dw);
}

int kfdsig_sdma_emit_nop(uint32_t *buf, size_t max_dw, size_t ndw, uint32_t flags)
{
	if (unlikely(flags & ~KFDSIG_SDMA_NOP_BURST))
		return set_error(EINVAL, "unknown NOP flags 0x%x", flags & ~KFDSIG_SDMA_NOP_BURST);
	if (unlikely(ndw > INT32_MAX))
		return set_error(EINVAL, "%zu NOP dwords is too many", ndw);
	if (unlikely(ndw && (!buf || max_dw < ndw)))
		return set_error(ENOSPC, "%zu NOP dwords do not fit a %zu-dword buffer", ndw,
				 buf ? max_dw : 0);
	if (ndw)
		fill_nop(buf, ndw, flags);
	return (int)ndw;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int kfdsig_sdma_pad_align_dw(uint64_t wptr_bytes, uint32_t align_bytes)
{
	if (unlikely(!is_pow2(align_bytes) || align_bytes < 4))
		return set_error(EINVAL, "alignment %u is not a power of two >= 4 bytes",
				 align_bytes);
	if (unlikely(wptr_bytes & 3))
		return set_error(EINVAL,
				 "write pointer 0x%llx is not a multiple of 4 bytes "
				 "(SDMA pointers count bytes)",
				 (unsigned long long)wptr_bytes);
	return (int)(((align_bytes - (wptr_bytes & (align_bytes - 1))) & (align_bytes - 1)) / 4);
}

static int check_ring(uint64_t wptr_bytes, uint32_t ring_bytes)
{
	if (unlikely(!is_pow2(ring_bytes) || ring_bytes < 4))
		return set_error(EINVAL, "ring size %u bytes is not a power of two", ring_bytes);
	if (unlikely(wptr_bytes & 3))
		return set_error(EINVAL,
				 "write pointer 0x%llx is not a multiple of 4 bytes "
				 "(SDMA pointers count bytes)",
				 (unsigned long long)wptr_bytes);
	return 0;
}

int kfdsig_sdma_pad_wrap_dw(uint64_t wptr_bytes, uint32_t ring_bytes, size_t packet_dw)
{
	uint64_t off, left;
	int ret = check_ring(wptr_bytes, ring_bytes);

	if (unlikely(ret))
		return ret;
	if (unlikely(packet_dw > ring_bytes / 4))
		return set_error(EINVAL, "a %zu-dword packet does not fit a %u-byte ring",
				 packet_dw, ring_bytes);
	off = wptr_bytes & (ring_bytes - 1);
	left = (ring_bytes - off) / 4;
	return packet_dw > left ? (int)left : 0;
}

int kfdsig_sdma_pad_submit_dw(const struct kfdsig_target *t, size_t submit_dw)
{
	if (unlikely(!t))
		return set_error(EINVAL, "no target");
	/* ROCr: "Some GFX9 devices require a minimum of 64 DWORDS per ring
	 * buffer submission" (table field sdma_min_submit_dw, *_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp). */
	return submit_dw < t->sdma_min_submit_dw ? (int)(t->sdma_min_submit_dw - submit_dw) : 0;
}

/* Write @ndw NOPs at ring dword offset @pos, wrapping; bursts never cross
 * the ring end. Return the new offset. */
static size_t ring_nops(uint32_t *ring, size_t ring_dw, size_t pos, size_t ndw, uint32_t flags)
{
	while (ndw) {
		size_t chunk = ring_dw - pos < ndw ? ring_dw - pos : ndw;

		fill_nop(ring + pos, chunk, flags);
		pos = (pos + chunk) & (ring_dw - 1);
		ndw -= chunk;
	}
	return pos;
}

int kfdsig_sdma_ring_write(const struct kfdsig_target *t, uint32_t *ring, uint32_t ring_bytes,
			   uint64_t *wptr_bytes, const uint32_t *pkt, size_t ndw,
			   uint32_t align_bytes, uint32_t flags)
{
	size_t ring_dw, pos, wrap, tail, total;
	uint64_t w;
	int ret;

	if (unlikely(!t || !ring || !wptr_bytes || (!pkt && ndw)))
		return set_error(EINVAL, "NULL target, ring, write pointer or packets");
	if (unlikely(flags & ~KFDSIG_SDMA_NOP_BURST))
		return set_error(EINVAL, "unknown ring flags 0x%x", flags & ~KFDSIG_SDMA_NOP_BURST);
	w = *wptr_bytes;
	ret = check_ring(w, ring_bytes);
	if (unlikely(ret))
		return ret;
	if (unlikely(ring_bytes < 64))
		return set_error(EINVAL, "ring size %u bytes is below 64", ring_bytes);
	if (unlikely(align_bytes &&
		     (!is_pow2(align_bytes) || align_bytes < 4 || align_bytes > ring_bytes)))
		return set_error(EINVAL,
				 "alignment %u is not a power of two between 4 and the "
				 "ring size",
				 align_bytes);
	ring_dw = ring_bytes / 4;
	if (unlikely(ndw >= ring_dw))
		return set_error(ENOSPC, "%zu dwords do not fit a %u-byte ring", ndw, ring_bytes);

	pos = (size_t)((w & (ring_bytes - 1)) / 4);
	wrap = ndw > ring_dw - pos ? ring_dw - pos : 0;
	total = wrap + ndw;
	if (total < t->sdma_min_submit_dw)
		total = t->sdma_min_submit_dw;
	if (align_bytes) {
		uint64_t end = w + total * 4;

		total += (size_t)(((align_bytes - (end & (align_bytes - 1))) & (align_bytes - 1)) /
				  4);
	}
	if (unlikely(total >= ring_dw))
		return set_error(ENOSPC,
				 "submission of %zu dwords with padding does not fit a "
				 "%u-byte ring",
				 total, ring_bytes);
	tail = total - wrap - ndw;

	pos = ring_nops(ring, ring_dw, pos, wrap, flags);
	if (ndw)
		memcpy(ring + pos, pkt, ndw * sizeof(*pkt));
	pos = (pos + ndw) & (ring_dw - 1);
	ring_nops(ring, ring_dw, pos, tail, flags);

	w += total * 4;
	/* gfx8: 32-bit pointer wrapped to the ring; gfx9 on: 64-bit monotonic
	 * (*_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp, kfdtest SDMAQueue::SubmitPacket). */
	if (t->wptr_bits == 32)
		w &= ring_bytes - 1;
	*wptr_bytes = w;
	return (int)total;
}

/*
 * The protected fence of an SDMA user queue (kfdsig/userq.h): the FENCE
 * header with the protected sub-op and nothing else (IGT lib/amdgpu
 * amd_ip_blocks.c user_queue_submit() ends an SDMA submission with this
 * one dword; sub-op: sdma_defs.h). Only SDMA IPs the kernel makes user
 * queues on (sdma_v6_0.c / sdma_v7_0.c *_sw_init(), t->sdma_userq_fw).
 */
int kfdsig_userq_emit_sdma_protected_fence(const struct kfdsig_target *t, uint32_t *buf,
					   size_t max_dw)
{
	if (unlikely(!t))
		return set_error(EINVAL, "no target");
	if (unlikely(!t->sdma_userq_fw))
		return set_error(ENOTSUP,
				 "SDMA %u.%u.%u of %s has no user queues (SDMA 6.0.0, 6.0.2, "
				 "6.0.3 and 7.0.x have)",
				 t->sdma_ip[0], t->sdma_ip[1], t->sdma_ip[2], t->name);
	if (unlikely(!buf || max_dw < SDMA_PROTECTED_FENCE_DW))
		return set_error(ENOSPC, "the SDMA protected fence needs 1 dword, buffer has %zu",
				 buf ? max_dw : 0);
	buf[0] = SDMA_HDR(SDMA_OP_FENCE, SDMA_SUBOP_PROTECTED_FENCE);
	return SDMA_PROTECTED_FENCE_DW;
}
