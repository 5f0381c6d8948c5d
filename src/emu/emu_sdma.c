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
#define SDMA_TIMESTAMP 13

/* Length in dwords of the SDMA packet starting with @h, given @d (enough
 * of the packet to find counts); 0 when it cannot be known. */
uint32_t emu_sdma_len(const struct emu_queue *q, const uint32_t *d, uint32_t avail)
{
	bool v4 = q->g->gen.sdma_count_minus1;

	switch (d[0] & 0xff) {
	case SDMA_NOP:
		return 1 + ((d[0] >> 16) & 0x3fff);
	case SDMA_COPY:
		return 7;
	case SDMA_WRITE:
		if (avail < 4)
			return 0xffffffff; /* need more */
		/* count: dwords - 1 on SDMA 4+, dwords before (amdgpu
		 * sdma_v4_0/v3_0 write_pte) */
		return 4 + (d[3] & 0xfffff) + (v4 ? 1 : 0);
	case SDMA_FENCE:
		return 4;
	case SDMA_TRAP:
		return 2;
	case SDMA_POLL_REGMEM:
		return 6;
	case SDMA_TIMESTAMP:
		return 3;
	default:
		return 0;
	}
}

bool emu_sdma_exec(struct emu_queue *q, const uint32_t *d)
{
	bool v4 = q->g->gen.sdma_count_minus1;

	switch (d[0] & 0xff) {
	case SDMA_NOP:
		return true;
	case SDMA_FENCE: /* exactly 32 bits at a dword-aligned address */
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
		return true;
	}
	case SDMA_TIMESTAMP:
		if (((d[0] >> 8) & 0xff) != 0) /* get local / global */
			emu_engine_store64(q, (d[1] & ~7u) | (uint64_t)d[2] << 32,
					   emu_engine_now_ns());
		return true;
	default:
		return false;
	}
}
