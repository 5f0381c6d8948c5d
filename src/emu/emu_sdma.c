/* SPDX-License-Identifier: MIT */
/*
 * The emulated SDMA engine's packets, written from *_sdma_pkt_open.h and
 * sdma_v*_0.c, never kfdsig's emitters or decoder.
 */
#include <string.h>

#include "emu/emu_engine.h"

/* SDMA opcodes (*_sdma_pkt_open.h) */
#define SDMA_NOP 0
#define SDMA_COPY 1
#define SDMA_WRITE 2
#define SDMA_FENCE 5
#define SDMA_TRAP 6
#define SDMA_POLL_REGMEM 8
#define SDMA_ATOMIC 10
#define SDMA_CONST_FILL 11
#define SDMA_GCR_REQ 17 /* SDMA 5+ (navi10_sdma_pkt_open.h) */
#define SDMA_TIMESTAMP 13
/* The FENCE sub-op of an SDMA user queue's protected fence (one header
 * dword). The kernel has no define for it: IGT lib/amdgpu amd_sdma.h's,
 * and kernel commit 2d41a4bfee6e requires SDMA 6 firmware that aligns it
 * with SDMA 7's; UNVERIFIED on hardware. */
#define SDMA_SUBOP_PROTECTED_FENCE 3

/* COPY_LINEAR with the broadcast bit (HEADER bit 27): the source goes to
 * two destinations, DST1 at dwords 5-6 and DST2 at 7-8, nine dwords in all
 * (SDMA_PKT_COPY_BROADCAST_LINEAR, iceland_sdma_pkt_open.h and the later
 * *_sdma_pkt_open.h; kfdtest's SDMACopyDataPacket() sets it for two
 * destinations). */
static bool sdma_broadcast(const uint32_t *d)
{
	return ((d[0] >> 8) & 0xff) == 0 && ((d[0] >> 27) & 1);
}

/* Length in dwords of the SDMA packet starting with @h, given @d (enough
 * of the packet to find counts); 0 when it cannot be known. */
uint32_t emu_sdma_len(const struct emu_queue *q, const uint32_t *d, uint32_t avail)
{
	bool v4 = q->g->gen.sdma_count_minus1;

	switch (d[0] & 0xff) {
	case SDMA_NOP:
		return 1 + ((d[0] >> 16) & 0x3fff);
	case SDMA_COPY:
		return sdma_broadcast(d) ? 9 : 7;
	case SDMA_WRITE:
		if (avail < 4)
			return 0xffffffff; /* need more */
		/* count: dwords - 1 on SDMA 4+, dwords before (amdgpu
		 * sdma_v4_0/v3_0 write_pte) */
		return 4 + (d[3] & 0xfffff) + (v4 ? 1 : 0);
	case SDMA_FENCE:
		return ((d[0] >> 8) & 0xff) == SDMA_SUBOP_PROTECTED_FENCE ? 1 : 4;
	case SDMA_TRAP:
		return 2;
	case SDMA_POLL_REGMEM:
		return 6;
	case SDMA_TIMESTAMP:
		return 3;
	case SDMA_ATOMIC:
		return 8;
	case SDMA_CONST_FILL:
		return 5;
	case SDMA_GCR_REQ:
		return 5;
	default:
		return 0;
	}
}

/* The value a 64-bit TC_OP atomic leaves at a location holding @old
 * (gfx9_enum.h TC_OP_ATOMIC_*_RTN_64; INC / DEC wrap at @src as the
 * shader's buffer_atomic_inc/dec do). */
static uint64_t tc_op64(uint32_t op, uint64_t old, uint64_t src, uint64_t cmp)
{
	switch (op) {
	case 0x27: /* SWAP */
		return src;
	case 0x28: /* CMPSWAP */
		return old == cmp ? src : old;
	case 0x2f: /* ADD */
		return old + src;
	case 0x30: /* SUB */
		return old - src;
	case 0x31: /* SMIN */
		return (int64_t)src < (int64_t)old ? src : old;
	case 0x32: /* UMIN */
		return src < old ? src : old;
	case 0x33: /* SMAX */
		return (int64_t)src > (int64_t)old ? src : old;
	case 0x34: /* UMAX */
		return src > old ? src : old;
	case 0x35: /* AND */
		return old & src;
	case 0x36: /* OR */
		return old | src;
	case 0x37: /* XOR */
		return old ^ src;
	case 0x38: /* INC */
		return old >= src ? 0 : old + 1;
	default: /* 0x39 DEC */
		return (old == 0 || old > src) ? src : old - 1;
	}
}

/*
 * SDMA_PKT_ATOMIC: header operation (bits 31:25) is a TC_OP, then address,
 * source and compare data (64 bits each) and the loop interval. ROCr's SDMA
 * blit decrements a copy's completion signal with it (amd_blit_sdma.cpp
 * BuildAtomicDecrementCommand: SDMA_ATOMIC_ADD64 of -1). The 64-bit
 * operations at a naturally aligned address; the loop bit (retry a
 * compare-swap until it succeeds) is not taken: the packet is refused.
 */
static bool sdma_atomic(struct emu_queue *q, const uint32_t *d)
{
	uint64_t va = d[1] | (uint64_t)d[2] << 32, src = d[3] | (uint64_t)d[4] << 32;
	uint64_t cmp = d[5] | (uint64_t)d[6] << 32, old;
	uint32_t op = d[0] >> 25;
	uint64_t *p;

	if ((d[0] >> 16) & 1 || (va & 7))
		return false;
	if (op != 0x27 && op != 0x28 && (op < 0x2f || op > 0x39))
		return false;
	p = emu_engine_mem(q, va, 8);
	if (!p)
		return true; /* VM fault raised */
	old = __atomic_load_n(p, __ATOMIC_ACQUIRE);
	while (!__atomic_compare_exchange_n(p, &old, tc_op64(op, old, src, cmp), false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
	return true;
}

/* SDMA_PKT_CONSTANT_FILL: a 32-bit pattern (fillsize 2) over count bytes
 * (count minus one on SDMA 4+: amdgpu sdma_v4_0.c
 * sdma_v4_0_emit_fill_buffer(), ROCr amd_blit_sdma.cpp SubmitLinearFillCommand). */
static bool sdma_fill(struct emu_queue *q, const uint32_t *d, bool v4)
{
	uint64_t dst = d[1] | (uint64_t)d[2] << 32, n = (d[4] & 0x3fffff) + (v4 ? 1 : 0);
	uint8_t *t;

	if ((d[0] >> 30) != 2 || (n & 3))
		return false;
	t = emu_engine_mem(q, dst, n);
	for (uint64_t i = 0; t && i < n; i += 4)
		memcpy(t + i, &d[3], 4);
	return true;
}

/* The protected fence: the engine writes its position after the packet
 * (bytes, the unit of an SDMA queue's write pointer, which
 * amdgpu_userq_signal_ioctl() takes as the fence's sequence number) to
 * the queue's fence address from the MQD, the kernel's seq64 slot
 * (mes_userqueue.c: fence_address = fence_drv->gpu_addr), and raises the
 * SDMA fence interrupt with the queue's doorbell offset
 * (sdma_v6_0.c / sdma_v7_0.c *_process_fence_irq() ->
 * amdgpu_userq_process_fence_irq()); amdkfd takes no SDMA fence source.
 * On a queue without a fence address (a KFD queue), UNVERIFIED: refused. */
static bool sdma_protected_fence(struct emu_queue *q)
{
	if (!q->fdrv)
		return false;
	emu_fence_drv_write(q->fdrv, q->fetched * 4);
	emu_engine_publish_fetched(q);
	if (!q->p->emu->lose_userq_irq) /* spec lose-userq-irq */
		emu_userq_fence_irq(q->g, q->userq_doorbell);
	return true;
}

bool emu_sdma_exec(struct emu_queue *q, const uint32_t *d)
{
	bool v4 = q->g->gen.sdma_count_minus1;

	switch (d[0] & 0xff) {
	case SDMA_NOP:
		return true;
	case SDMA_FENCE: /* exactly 32 bits at a dword-aligned address */
		if (((d[0] >> 8) & 0xff) == SDMA_SUBOP_PROTECTED_FENCE)
			return sdma_protected_fence(q);
		emu_engine_store32(q, (d[1] & ~3u) | (uint64_t)d[2] << 32, d[3]);
		return true;
	case SDMA_TRAP:
		emu_engine_irq(q, KFDSIG_EMU_IRQ_SDMA_TRAP, d[1] & 0x0fffffff);
		return true;
	case SDMA_POLL_REGMEM:
		if (d[0] >> 31) /* mem_poll; register polls pass */
			emu_engine_poll(q, (d[1] & ~3u) | (uint64_t)d[2] << 32, (d[0] >> 28) & 7,
					d[3], d[4]);
		return true;
	case SDMA_WRITE: {
		uint64_t dst = d[1] | (uint64_t)d[2] << 32;
		uint32_t n = (d[3] & 0xfffff) + (v4 ? 1 : 0);
		for (uint32_t i = 0; i < n; i++)
			if (!emu_engine_store32(q, dst + 4ull * i, d[4 + i]))
				break;
		return true;
	}
	case SDMA_COPY: {
		uint64_t n = (d[1] & 0x3fffff) + (v4 ? 1 : 0);
		uint64_t src = d[3] | (uint64_t)d[4] << 32, dst = d[5] | (uint64_t)d[6] << 32;
		void *s, *t;
		if (((d[0] >> 8) & 0xff) != 0)
			return false; /* only the linear copy */
		s = emu_engine_mem(q, src, n);
		t = s ? emu_engine_mem(q, dst, n) : NULL;
		if (s && t)
			memmove(t, s, n);
		if (s && sdma_broadcast(d)) {
			t = emu_engine_mem(q, d[7] | (uint64_t)d[8] << 32, n);
			if (t)
				memmove(t, s, n);
		}
		return true;
	}
	case SDMA_ATOMIC:
		return sdma_atomic(q, d);
	case SDMA_CONST_FILL:
		return sdma_fill(q, d, v4);
	case SDMA_GCR_REQ:
		/* a cache invalidate / writeback over a VA range (amdgpu
		 * sdma_v5_2.c sdma_v5_2_ring_emit_mem_sync(), ROCr
		 * amd_blit_sdma.cpp BuildGCRCommand around each copy on gfx10+):
		 * the emulator has no GPU caches; taken on SDMA 5+ only */
		return q->g->gen.sdma[0] >= 5;
	case SDMA_TIMESTAMP:
		if (((d[0] >> 8) & 0xff) != 0) /* get local / global */
			emu_engine_store64(q, (d[1] & ~7u) | (uint64_t)d[2] << 32,
					   emu_engine_now_ns());
		return true;
	default:
		return false;
	}
}
