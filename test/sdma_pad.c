/* SPDX-License-Identifier: MIT */
/*
 * SDMA NOPs and padding: one-dword and burst NOPs, alignment, the ring end
 * (no packet straddles the wrap) and the 64-dword minimum submission of
 * gfx900/gfx902/gfx904/gfx90c (ROCr amd_blit_sdma.cpp), at ring
 * ends and odd sizes. Expected dwords are written out by hand: a NOP burst
 * of N dwords is the header (N - 1) << 16 followed by N - 1 zero dwords.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define FILL 0xa5a5a5a5u

static void test_nop(void)
{
	static uint32_t buf[20000];

	memset(buf, 0xa5, sizeof(buf));
	CHECK_EQ(kfdsig_sdma_emit_nop(buf, 8, 5, 0), 5, "5 single NOPs");
	for (int i = 0; i < 5; i++)
		CHECK_EQ(buf[i], 0, "single NOP %d", i);
	CHECK_EQ(buf[5], FILL, "wrote past 5 NOPs");

	memset(buf, 0xa5, sizeof(buf));
	CHECK_EQ(kfdsig_sdma_emit_nop(buf, 8, 7, KFDSIG_SDMA_NOP_BURST), 7, "burst of 7");
	CHECK_EQ(buf[0], 0x00060000u, "burst header: count 6");
	for (int i = 1; i < 7; i++)
		CHECK_EQ(buf[i], 0, "burst body %d", i);
	CHECK_EQ(buf[7], FILL, "wrote past the burst");

	memset(buf, 0xa5, sizeof(buf));
	CHECK_EQ(kfdsig_sdma_emit_nop(buf, 8, 1, KFDSIG_SDMA_NOP_BURST), 1, "burst of 1");
	CHECK_EQ(buf[0], 0, "burst of 1 is a plain NOP");

	/* 16385 dwords: a full 16384-dword burst (count 0x3fff), then 1. */
	memset(buf, 0xa5, sizeof(buf));
	CHECK_EQ(kfdsig_sdma_emit_nop(buf, 20000, 16385, KFDSIG_SDMA_NOP_BURST), 16385,
		 "burst of 16385");
	CHECK_EQ(buf[0], 0x3fff0000u, "first burst: count 0x3fff");
	CHECK_EQ(buf[16383], 0, "end of first burst");
	CHECK_EQ(buf[16384], 0, "second burst: count 0");
	CHECK_EQ(buf[16385], FILL, "wrote past the bursts");
	/* 16390: second burst of 6 dwords. */
	CHECK_EQ(kfdsig_sdma_emit_nop(buf, 20000, 16390, KFDSIG_SDMA_NOP_BURST), 16390,
		 "burst of 16390");
	CHECK_EQ(buf[16384], 0x00050000u, "second burst: count 5");

	memset(buf, 0xa5, sizeof(buf));
	CHECK_EQ(kfdsig_sdma_emit_nop(buf, 4, 0, 0), 0, "zero NOPs");
	CHECK_EQ(kfdsig_sdma_emit_nop(NULL, 0, 0, 0), 0, "zero NOPs, no buffer");
	CHECK_EQ(buf[0], FILL, "zero NOPs wrote");
	CHECK_EQ(kfdsig_sdma_emit_nop(buf, 4, 5, 0), -ENOSPC, "5 NOPs in 4");
	CHECK_EQ(buf[0], FILL, "short buffer written");
	CHECK_EQ(kfdsig_sdma_emit_nop(NULL, 4, 1, 0), -ENOSPC, "NULL buffer");
	CHECK_EQ(kfdsig_sdma_emit_nop(buf, 4, 1, 2), -EINVAL, "unknown flag");
}

static void test_align(void)
{
	CHECK_EQ(kfdsig_sdma_pad_align_dw(0, 32), 0, "aligned");
	CHECK_EQ(kfdsig_sdma_pad_align_dw(4, 32), 7, "4 -> 32");
	CHECK_EQ(kfdsig_sdma_pad_align_dw(28, 32), 1, "28 -> 32");
	CHECK_EQ(kfdsig_sdma_pad_align_dw(36, 32), 7, "36 -> 64");
	CHECK_EQ(kfdsig_sdma_pad_align_dw(12, 4), 0, "align 4");
	CHECK_EQ(kfdsig_sdma_pad_align_dw(0x100000004ull, 256), 63, "64-bit pointer");
	CHECK_EQ(kfdsig_sdma_pad_align_dw(6, 32), -EINVAL, "pointer not 4-aligned");
	CHECK_EQ(kfdsig_sdma_pad_align_dw(4, 24), -EINVAL, "alignment not 2^n");
	CHECK_EQ(kfdsig_sdma_pad_align_dw(4, 2), -EINVAL, "alignment below 4");
	CHECK_EQ(kfdsig_sdma_pad_align_dw(4, 0), -EINVAL, "alignment 0");
}

static void test_wrap(void)
{
	/* 256-byte ring = 64 dwords. */
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(0, 256, 10), 0, "start of ring");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(216, 256, 10), 0, "ends exactly at the ring end");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(220, 256, 10), 9, "one dword too long");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(252, 256, 2), 1, "last dword");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(252, 256, 1), 0, "last dword, 1-dword packet");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(256 * 5 + 220, 256, 10), 9, "monotonic pointer");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(0, 256, 64), 0, "whole ring from 0");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(4, 256, 64), 63, "whole ring from 4");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(0, 256, 65), -EINVAL, "bigger than the ring");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(0, 100, 10), -EINVAL, "ring not 2^n");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(0, 0, 10), -EINVAL, "ring 0");
	CHECK_EQ(kfdsig_sdma_pad_wrap_dw(2, 256, 10), -EINVAL, "pointer not 4-aligned");
}

static void test_submit(void)
{
	/* Hand list of the targets with the 64-dword minimum (*_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp). */
	static const char *const min64[] = { "gfx900", "gfx902", "gfx904", "gfx90c" };

	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);
		int want = 0;

		for (size_t k = 0; k < 4; k++)
			if (!strcmp(t->name, min64[k]))
				want = 54;
		CHECK_EQ(kfdsig_sdma_pad_submit_dw(t, 10), want, "%s: pad after 10 dwords",
			 t->name);
		CHECK_EQ(kfdsig_sdma_pad_submit_dw(t, 64), 0, "%s: 64 dwords", t->name);
		CHECK_EQ(kfdsig_sdma_pad_submit_dw(t, 1000), 0, "%s: 1000 dwords", t->name);
	}
	CHECK_EQ(kfdsig_sdma_pad_submit_dw(t_target("gfx900"), 0), 64, "empty submission");
	CHECK_EQ(kfdsig_sdma_pad_submit_dw(t_target("gfx90c"), 63), 1, "63 dwords");
	CHECK_EQ(kfdsig_sdma_pad_submit_dw(NULL, 10), -EINVAL, "NULL target");
}

static const uint32_t pkt[10] = { 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a };

static void check_pkt(const char *what, const uint32_t *ring, size_t at)
{
	t_check_dwords(what, ring + at, pkt, 10);
}

static void check_range(const char *what, const uint32_t *ring, size_t from, size_t to, uint32_t v)
{
	for (size_t i = from; i < to; i++)
		if (ring[i] != v) {
			CHECK(0, "%s: ring[%zu] = 0x%08x, expected 0x%08x", what, i, ring[i], v);
			return;
		}
	t_checks++;
}

static void test_ring(void)
{
	static uint32_t ring[1024];
	uint64_t w;

	/* gfx90a: no minimum, 64-bit monotonic pointer. */
	memset(ring, 0xa5, sizeof(ring));
	w = 0;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 10, 0, 0), 10,
		 "plain write");
	CHECK_EQ(w, 40, "wptr in bytes");
	check_pkt("plain write", ring, 0);
	CHECK_EQ(ring[10], FILL, "plain write: wrote past");

	/* Packet would straddle: 6 dwords left before the end of 256. */
	memset(ring, 0xa5, sizeof(ring));
	w = 4096 + 1000;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 10, 0, 0), 16,
		 "wrap fill");
	CHECK_EQ(w, 4096 + 1000 + 64, "wrap fill: monotonic wptr");
	check_range("wrap fill NOPs", ring, 250, 256, 0);
	check_pkt("wrap fill: packet at 0", ring, 0);
	CHECK_EQ(ring[10], FILL, "wrap fill: wrote past");

	/* Same with a burst NOP at the end. */
	memset(ring, 0xa5, sizeof(ring));
	w = 1000;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 10, 0,
					KFDSIG_SDMA_NOP_BURST),
		 16, "wrap fill, burst");
	CHECK_EQ(ring[250], 0x00050000u, "wrap burst: count 5");
	check_range("wrap burst body", ring, 251, 256, 0);

	/* Fits exactly up to the end: no fill, pointer lands on the end. */
	memset(ring, 0xa5, sizeof(ring));
	w = 984; /* dword 246: 246 + 10 = 256 */
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 10, 0, 0), 10,
		 "exact fit");
	check_pkt("exact fit", ring, 246);
	CHECK_EQ(ring[0], FILL, "exact fit wrapped");
	CHECK_EQ(w, 1024, "exact fit wptr");

	/* gfx900: 64-dword minimum. */
	memset(ring, 0xa5, sizeof(ring));
	w = 0;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx900"), ring, 1024, &w, pkt, 10, 0, 0), 64,
		 "minimum submission");
	check_pkt("minimum submission", ring, 0);
	check_range("minimum NOPs", ring, 10, 64, 0);
	CHECK_EQ(ring[64], FILL, "minimum: wrote past");
	CHECK_EQ(w, 256, "minimum wptr");

	memset(ring, 0xa5, sizeof(ring));
	w = 0;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx904"), ring, 1024, &w, pkt, 10, 0,
					KFDSIG_SDMA_NOP_BURST),
		 64, "minimum submission, burst");
	CHECK_EQ(ring[10], 0x00350000u, "burst of 54: count 53");
	check_range("burst body", ring, 11, 64, 0);

	/* Minimum counts the wrap fill: 6 + 10 + 48 = 64. */
	memset(ring, 0xa5, sizeof(ring));
	w = 1000;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90c"), ring, 1024, &w, pkt, 10, 0, 0), 64,
		 "wrap + minimum");
	check_range("wrap + minimum: fill", ring, 250, 256, 0);
	check_pkt("wrap + minimum: packet", ring, 0);
	check_range("wrap + minimum: tail", ring, 10, 58, 0);
	CHECK_EQ(ring[58], FILL, "wrap + minimum: wrote past");
	CHECK_EQ(w, 1000 + 256, "wrap + minimum wptr");

	/* Tail NOPs cross the ring end: bursts split there. Ring of 128
	 * dwords, packet at 100..109, 54 NOPs: 110..127 and 0..35. */
	memset(ring, 0xa5, sizeof(ring));
	w = 400;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx902"), ring, 512, &w, pkt, 10, 0,
					KFDSIG_SDMA_NOP_BURST),
		 64, "tail across the end");
	check_pkt("tail across: packet", ring, 100);
	CHECK_EQ(ring[110], 0x00110000u, "tail burst before the end: count 17");
	check_range("tail burst body", ring, 111, 128, 0);
	CHECK_EQ(ring[0], 0x00230000u, "tail burst after the wrap: count 35");
	check_range("tail burst 2 body", ring, 1, 36, 0);
	CHECK_EQ(ring[36], FILL, "tail across: wrote past");
	CHECK_EQ(w, 400 + 256, "tail across wptr");

	/* gfx8: 32-bit pointer wrapped to the ring. 256-byte ring, pointer at
	 * dword 60: 4 NOPs, packet at 0, pointer 40. */
	memset(ring, 0xa5, sizeof(ring));
	w = 240;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx803"), ring, 256, &w, pkt, 10, 0, 0), 14,
		 "gfx8 wrap");
	check_range("gfx8 fill", ring, 60, 64, 0);
	check_pkt("gfx8 packet", ring, 0);
	CHECK_EQ(w, 40, "gfx8 wptr wraps");

	/* Alignment of the end of the submission. */
	memset(ring, 0xa5, sizeof(ring));
	w = 0;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 10, 32, 0), 16,
		 "align 32");
	check_range("align NOPs", ring, 10, 16, 0);
	CHECK_EQ(w, 64, "align wptr");
	w = 4;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 9, 32, 0), 15,
		 "align 32 from 4 with 9 dwords");
	CHECK_EQ(w, 64, "align from 4 wptr");
	w = 0;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx900"), ring, 1024, &w, pkt, 10, 512, 0), 128,
		 "minimum then align 512");

	/* Odd sizes: empty, 1 dword, ring_dw - 1 dwords. */
	memset(ring, 0xa5, sizeof(ring));
	w = 8;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, NULL, 0, 0, 0), 0,
		 "empty submission");
	CHECK_EQ(w, 8, "empty wptr");
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx900"), ring, 1024, &w, NULL, 0, 0, 0), 64,
		 "empty submission on gfx900 pads to 64");
	w = 252;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 256, &w, pkt, 1, 0, 0), 1,
		 "1 dword at the last slot");
	CHECK_EQ(ring[63], 0x11, "last slot");
	{
		static uint32_t big[63];

		w = 4;
		CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 256, &w, big, 63, 0, 0),
			 63, "63 dwords from dword 1 fill the ring to its end");
		w = 8;
		CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 256, &w, big, 63, 0, 0),
			 -ENOSPC, "63 dwords from dword 2: 62 fill + 63 > ring");
	}

	/* Rejections: nothing written. */
	memset(ring, 0xa5, sizeof(ring));
	w = 0;
	{
		static uint32_t big[64];

		CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 256, &w, big, 64, 0, 0),
			 -ENOSPC, "packet as big as the ring");
	}
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx900"), ring, 256, &w, pkt, 10, 0, 0), -ENOSPC,
		 "64-dword minimum in a 64-dword ring");
	w = 1000;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 10, 1024, 0),
		 -ENOSPC, "wrap + align to the whole ring");
	w = 0;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 10, 2048, 0),
		 -EINVAL, "alignment above the ring size");
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 10, 12, 0),
		 -EINVAL, "alignment not 2^n");
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1000, &w, pkt, 10, 0, 0), -EINVAL,
		 "ring not 2^n");
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 32, &w, pkt, 1, 0, 0), -EINVAL,
		 "ring below 64 bytes");
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 10, 0, 4), -EINVAL,
		 "unknown flag");
	CHECK_EQ(kfdsig_sdma_ring_write(NULL, ring, 1024, &w, pkt, 10, 0, 0), -EINVAL,
		 "NULL target");
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), NULL, 1024, &w, pkt, 10, 0, 0), -EINVAL,
		 "NULL ring");
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, NULL, pkt, 10, 0, 0),
		 -EINVAL, "NULL wptr");
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, NULL, 10, 0, 0),
		 -EINVAL, "NULL packets");
	w = 6;
	CHECK_EQ(kfdsig_sdma_ring_write(t_target("gfx90a"), ring, 1024, &w, pkt, 10, 0, 0), -EINVAL,
		 "wptr not 4-aligned");
	CHECK_EQ(w, 6, "wptr changed on error");
	check_range("nothing written on errors", ring, 0, 1024, FILL);
}

int main(void)
{
	test_nop();
	test_align();
	test_wrap();
	test_submit();
	test_ring();
	return t_result("sdma_pad");
}
