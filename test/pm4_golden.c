/* SPDX-License-Identifier: MIT */
/*
 * PM4 default fence, every target: the emitted dwords equal golden vectors
 * derived by hand from the kernel's fence emitters with the interrupt on,
 * the 64-bit write and INT_CTXID = event id (gfx_v8_0.c gfx_v8_0_ring_emit_fence_compute(), kfd_pm4_headers_vi.h; soc15d.h, kfd_pm4_headers_ai.h, gfx_v9_0.c gfx_v9_0_ring_emit_fence(); nvd.h, gfx_v10_0.c / gfx_v11_0.c / gfx_v12_0.c *_ring_emit_fence()):
 *   gfx8   gfx_v8_0_ring_emit_fence_compute: PACKET3(RELEASE_MEM, 5),
 *          TCL1|TC|TC_WB|CACHE_FLUSH_AND_INV_TS|EVENT_INDEX(5),
 *          DATA_SEL(2)|INT_SEL(2), addr & ~3, addr_hi, seq_lo, seq_hi
 *          (seq = the event id: the gfx8 default value)
 *   gfx9   gfx_v9_0 / gfx_v9_4_3_ring_emit_fence: PACKET3(RELEASE_MEM, 6),
 *          TCL1|TC|TC_MD|TC_WB|event, DATA_SEL(2)|INT_SEL(2), addr, 1, 0, id
 *   gfx10+ gfx_v10_0/v11_0/v12_0_ring_emit_fence: GCR SEQ|GL2_WB|GL2_INV|
 *          GL2_US|GL1_INV|GLV_INV|GLM_INV|GLM_WB, CACHE_POLICY(3), ..., id
 *   GC 12.1 gfx_v12_1_ring_emit_fence: PACKET3(RELEASE_MEM, 6), DW1
 *          GCR_SEQ(1)<<22 | GLV_WB 1<<24 | GL2_WB 1<<21 | GL2_SCOPE(2)<<12 |
 *          TEMPORAL(3)<<25 | 0x14 | 5<<8 = 0x07602514 (gfx_v12_1_pkt.h),
 *          for the default flush-and-invalidate too (the kernel's fence
 *          sets no invalidate bit); a 57-bit address (gmc_v12_0.c)
 * The numbers below are data, computed from those macro definitions, not by
 * calling the emitter.
 */
#include <string.h>

#include "helpers.h"

struct golden {
	const char *target;
	uint32_t event_id;
	uint64_t page;
	int ndw;
	uint32_t dw[8];
};

/* gfx8 pages lie below 2^40, the gfx8 GPUVM size (gmc_v8_0.c). */
static const struct golden golden[] = {
	{ "gfx801",
	  1,
	  0x000000f000000000ull,
	  7,
	  { 0xc0054900, 0x00038514, 0x42000000, 0x00000008, 0x000000f0, 0x00000001, 0x00000000 } },
	{ "gfx802",
	  4095,
	  0x000000f000100000ull,
	  7,
	  { 0xc0054900, 0x00038514, 0x42000000, 0x00107ff8, 0x000000f0, 0x00000fff, 0x00000000 } },
	{ "gfx803",
	  255,
	  0x000000f000200000ull,
	  7,
	  { 0xc0054900, 0x00038514, 0x42000000, 0x002007f8, 0x000000f0, 0x000000ff, 0x00000000 } },
	{ "gfx900",
	  256,
	  0x00007ff000300000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00300800, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000100 } },
	{ "gfx902",
	  77,
	  0x00007ff000400000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00400268, 0x00007ff0, 0x00000001, 0x00000000,
	    0x0000004d } },
	{ "gfx904",
	  1000,
	  0x00007ff000500000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00501f40, 0x00007ff0, 0x00000001, 0x00000000,
	    0x000003e8 } },
	{ "gfx906",
	  2048,
	  0x00007ff000600000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00604000, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000800 } },
	{ "gfx908",
	  3,
	  0x00007ff000700000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00700018, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000003 } },
	{ "gfx909",
	  1,
	  0x00007ff000800000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00800008, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000001 } },
	{ "gfx90a",
	  4095,
	  0x00007ff000900000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00907ff8, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000fff } },
	{ "gfx90c",
	  255,
	  0x00007ff000a00000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00a007f8, 0x00007ff0, 0x00000001, 0x00000000,
	    0x000000ff } },
	{ "gfx940",
	  256,
	  0x00007ff000b00000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00b00800, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000100 } },
	{ "gfx941",
	  77,
	  0x00007ff000c00000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00c00268, 0x00007ff0, 0x00000001, 0x00000000,
	    0x0000004d } },
	{ "gfx942",
	  1000,
	  0x00007ff000d00000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00d01f40, 0x00007ff0, 0x00000001, 0x00000000,
	    0x000003e8 } },
	{ "gfx950",
	  2048,
	  0x00007ff000e00000ull,
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 0x00e04000, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000800 } },
	{ "gfx1010",
	  3,
	  0x00007ff000f00000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x00f00018, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000003 } },
	{ "gfx1011",
	  1,
	  0x00007ff001000000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01000008, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000001 } },
	{ "gfx1012",
	  4095,
	  0x00007ff001100000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01107ff8, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000fff } },
	{ "gfx1030",
	  255,
	  0x00007ff001200000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x012007f8, 0x00007ff0, 0x00000001, 0x00000000,
	    0x000000ff } },
	{ "gfx1031",
	  256,
	  0x00007ff001300000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01300800, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000100 } },
	{ "gfx1032",
	  77,
	  0x00007ff001400000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01400268, 0x00007ff0, 0x00000001, 0x00000000,
	    0x0000004d } },
	{ "gfx1033",
	  1000,
	  0x00007ff001500000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01501f40, 0x00007ff0, 0x00000001, 0x00000000,
	    0x000003e8 } },
	{ "gfx1034",
	  2048,
	  0x00007ff001600000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01604000, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000800 } },
	{ "gfx1035",
	  3,
	  0x00007ff001700000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01700018, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000003 } },
	{ "gfx1036",
	  1,
	  0x00007ff001800000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01800008, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000001 } },
	{ "gfx1100",
	  4095,
	  0x00007ff001900000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01907ff8, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000fff } },
	{ "gfx1101",
	  255,
	  0x00007ff001a00000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01a007f8, 0x00007ff0, 0x00000001, 0x00000000,
	    0x000000ff } },
	{ "gfx1102",
	  256,
	  0x00007ff001b00000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01b00800, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000100 } },
	{ "gfx1103",
	  77,
	  0x00007ff001c00000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01c00268, 0x00007ff0, 0x00000001, 0x00000000,
	    0x0000004d } },
	{ "gfx1150",
	  1000,
	  0x00007ff001d00000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01d01f40, 0x00007ff0, 0x00000001, 0x00000000,
	    0x000003e8 } },
	{ "gfx1151",
	  2048,
	  0x00007ff001e00000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01e04000, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000800 } },
	/* GC 11.7: gfx_v11_0.c's RELEASE_MEM, as on every GC 11. */
	{ "gfx1170",
	  7,
	  0x00007ff002100000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x02100038, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000007 } },
	{ "gfx1171",
	  4095,
	  0x00007ff002200000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x02207ff8, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000fff } },
	{ "gfx1200",
	  3,
	  0x00007ff001f00000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x01f00018, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000003 } },
	{ "gfx1201",
	  1,
	  0x00007ff002000000ull,
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, 0x02000008, 0x00007ff0, 0x00000001, 0x00000000,
	    0x00000001 } },
	{ "gfx1250",
	  4095,
	  0x01ff7ff002100000ull,
	  8,
	  { 0xc0064900, 0x07602514, 0x42000000, 0x02107ff8, 0x01ff7ff0, 0x00000001, 0x00000000,
	    0x00000fff } },
};

int main(void)
{
	size_t ngolden = sizeof(golden) / sizeof(golden[0]);

	/* Every target of the table has a vector, and every vector a target. */
	CHECK_EQ(ngolden, kfdsig_target_count(), "golden vectors vs targets");
	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);
		int found = 0;

		for (size_t k = 0; k < ngolden; k++)
			found |= !strcmp(golden[k].target, t->name);
		CHECK(found, "no golden vector for %s", t->name);
	}

	for (size_t i = 0; i < ngolden; i++) {
		const struct golden *g = &golden[i];
		const struct kfdsig_target *t = kfdsig_target_by_name(g->target);
		struct kfdsig_fence f = { 0 };
		uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW + 2];
		int n;

		CHECK(t, "target %s missing", g->target);
		if (!t)
			continue;
		f.event_id = g->event_id;
		f.slot_va = kfdsig_slot_va(g->page, g->event_id);
		memset(buf, 0xa5, sizeof(buf));
		n = kfdsig_pm4_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW);
		CHECK_EQ(n, g->ndw, "%s: dwords emitted", g->target);
		CHECK_EQ(kfdsig_pm4_fence_dw(t, &f), g->ndw, "%s: size query", g->target);
		if (n == g->ndw)
			t_check_dwords(g->target, buf, g->dw, (size_t)n);
		/* Nothing written past the sequence. */
		CHECK_EQ(buf[g->ndw], 0xa5a5a5a5u, "%s: wrote past the end", g->target);
	}
	return t_result("pm4_golden");
}
