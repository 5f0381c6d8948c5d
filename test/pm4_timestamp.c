/* SPDX-License-Identifier: MIT */
/*
 * PM4 GPU timestamp (kfdsig_pm4_emit_timestamp): golden vectors per fence
 * form, the refusals, and the decoder's reading of the packet.
 *
 * Goldens, derived by hand from the packet definitions, not by calling the
 * emitter (gfx_v8_0.c gfx_v8_0_ring_emit_fence_compute(), kfd_pm4_headers_vi.h gfx8 MEC RELEASE_MEM; soc15d.h gfx9; nvd.h gfx10+):
 *   header  PACKET3(RELEASE_MEM 0x49, count) = 3 << 30 | count << 16 |
 *           0x49 << 8, count = body dwords - 1: 5 on gfx8 (7 dwords),
 *           6 from gfx9 on (8 dwords)       -> 0xc0054900 / 0xc0064900
 *   dw1     EVENT_TYPE(BOTTOM_OF_PIPE_TS 0x28) | EVENT_INDEX(5) << 8
 *           = 0x00000528; gfx10+ adds CACHE_POLICY(3 bypass) << 25
 *           = 0x06000528; no TC / GCR action bits
 *   dw2     DATA_SEL(3 send_gpu_clock_counter) << 29 | INT_SEL(0) << 24 |
 *           DST_SEL(0) << 16 = 0x60000000
 *   dw3/4   address lo / hi; dw5/6 data 0; dw7 (gfx9+) INT_CTXID 0
 */
#include <errno.h>
#include <string.h>

#include "decode_capture.h"

struct golden {
	const char *target;
	uint64_t va;
	int ndw;
	uint32_t dw[8];
};

static const struct golden golden[] = {
	{ "gfx803",
	  0x00007ff000001230ull,
	  7,
	  { 0xc0054900, 0x00000528, 0x60000000, 0x00001230, 0x00007ff0, 0x00000000, 0x00000000 } },
	{ "gfx801",
	  0x0000000100000008ull,
	  7,
	  { 0xc0054900, 0x00000528, 0x60000000, 0x00000008, 0x00000001, 0x00000000, 0x00000000 } },
	{ "gfx900",
	  0x00007ff000001230ull,
	  8,
	  { 0xc0064900, 0x00000528, 0x60000000, 0x00001230, 0x00007ff0, 0x00000000, 0x00000000,
	    0x00000000 } },
	{ "gfx90a",
	  0x0000800000000ff8ull,
	  8,
	  { 0xc0064900, 0x00000528, 0x60000000, 0x00000ff8, 0x00008000, 0x00000000, 0x00000000,
	    0x00000000 } },
	{ "gfx942",
	  0x0000fffffffffff8ull,
	  8,
	  { 0xc0064900, 0x00000528, 0x60000000, 0xfffffff8, 0x0000ffff, 0x00000000, 0x00000000,
	    0x00000000 } },
	{ "gfx1030",
	  0x00007ff000001230ull,
	  8,
	  { 0xc0064900, 0x06000528, 0x60000000, 0x00001230, 0x00007ff0, 0x00000000, 0x00000000,
	    0x00000000 } },
	{ "gfx1100",
	  0x0000000000001000ull,
	  8,
	  { 0xc0064900, 0x06000528, 0x60000000, 0x00001000, 0x00000000, 0x00000000, 0x00000000,
	    0x00000000 } },
	{ "gfx1200",
	  0x00007ff000001230ull,
	  8,
	  { 0xc0064900, 0x06000528, 0x60000000, 0x00001230, 0x00007ff0, 0x00000000, 0x00000000,
	    0x00000000 } },
};

/* The per-form golden (address 0x00007ff000001230) for every target of the
 * table: 7 dwords for the VI form, the gfx9 dword 1 for AI, bypass for NV. */
static void every_target(void)
{
	static const uint32_t dw1[] = { [KFDSIG_PM4_FENCE_VI] = 0x00000528,
					[KFDSIG_PM4_FENCE_AI] = 0x00000528,
					[KFDSIG_PM4_FENCE_NV] = 0x06000528,
					/* BOTTOM_OF_PIPE_TS | TEMPORAL(3)<<25
					 * (gfx_v12_1_pkt.h) */
					[KFDSIG_PM4_FENCE_GC12_1] = 0x06000528 };

	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);
		bool vi = t->pm4_fence == KFDSIG_PM4_FENCE_VI;
		uint32_t want[8] = { vi ? 0xc0054900 : 0xc0064900,
				     dw1[t->pm4_fence],
				     0x60000000,
				     0x00001230,
				     0x00007ff0,
				     0,
				     0,
				     0 };
		uint32_t buf[9];
		int n;

		memset(buf, 0xa5, sizeof(buf));
		n = kfdsig_pm4_emit_timestamp(t, 0x00007ff000001230ull, buf, 9);
		CHECK_EQ(n, vi ? 7 : 8, "%s: timestamp length", t->name);
		CHECK_EQ(kfdsig_pm4_timestamp_dw(t), vi ? 7 : 8, "%s: timestamp_dw", t->name);
		if (n > 0)
			t_check_dwords(t->name, buf, want, (size_t)n);
		CHECK_EQ(buf[n > 0 ? n : 0], 0xa5a5a5a5, "%s: wrote past the packet", t->name);
	}
}

static void rejections(void)
{
	const struct kfdsig_target *g8 = T("gfx803"), *g9 = T("gfx90a"), *g11 = T("gfx1100");
	uint32_t buf[8];

	CHECK_EQ(kfdsig_pm4_emit_timestamp(NULL, 0x1000, buf, 8), -EINVAL, "NULL target");
	CHECK_EQ(kfdsig_pm4_timestamp_dw(NULL), -EINVAL, "timestamp_dw(NULL)");
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g9, 0, buf, 8), -EINVAL, "address 0");
	CHECK(strstr(kfdsig_last_error(), "8-byte aligned") != NULL, "reason: %s",
	      kfdsig_last_error());
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g9, 0x1004, buf, 8), -EINVAL, "4-byte aligned");
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g11, 0x1001, buf, 8), -EINVAL, "odd address");
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g8, 1ull << 48, buf, 8), -EINVAL, "address 2^48");
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g9, ~7ull, buf, 8), -EINVAL, "address ~7");
	/* too small: nothing written */
	memset(buf, 0x5a, sizeof(buf));
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g8, 0x1000, buf, 6), -ENOSPC, "gfx8 in 6 dwords");
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g9, 0x1000, buf, 7), -ENOSPC, "gfx9 in 7 dwords");
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g11, 0x1000, buf, 0), -ENOSPC, "0 dwords");
	for (int i = 0; i < 8; i++)
		CHECK_EQ(buf[i], 0x5a5a5a5a, "refused emission wrote dword %d", i);
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g9, 0x1000, NULL, 8), -ENOSPC, "NULL buffer");
	/* a bad address is -EINVAL even with no room */
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g9, 0x1004, buf, 1), -EINVAL, "EINVAL before ENOSPC");
	/* exactly enough */
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g8, 0x1000, buf, KFDSIG_PM4_TIMESTAMP_DW_GFX8), 7,
		 "gfx8 exact");
	CHECK_EQ(kfdsig_pm4_emit_timestamp(g9, 0x1000, buf, KFDSIG_PM4_TIMESTAMP_MAX_DW), 8,
		 "gfx9 exact");
}

/* The decoder (its own field tables) reads back what was asked for, and
 * the lint finds nothing wrong with it, also followed by the fence. */
static void roundtrip(struct capture *cap)
{
	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);
		const uint64_t page = 0x000000f000200000ull, ts = 0x000000f000300010ull;
		struct kfdsig_fence f = { .slot_va = page + 8 * 7, .event_id = 7 };
		uint32_t buf[KFDSIG_PM4_TIMESTAMP_MAX_DW + KFDSIG_PM4_FENCE_MAX_DW];
		int n = kfdsig_pm4_emit_timestamp(t, ts, buf, KFDSIG_PM4_TIMESTAMP_MAX_DW), m;
		long r;

		CHECK(n > 0, "%s: emit", t->name);
		if (n <= 0)
			continue;
		m = kfdsig_pm4_emit_fence(t, &f, buf + n, KFDSIG_PM4_FENCE_MAX_DW);
		CHECK(m > 0, "%s: fence", t->name);
		if (m <= 0)
			continue;
		r = cap_decode(cap, t, KFDSIG_ENGINE_PM4,
			       KFDSIG_DECODE_LINT | KFDSIG_DECODE_SIGNAL_PAGE, page, buf,
			       (size_t)(n + m));
		CHECK_EQ(r, 0, "%s: lint errors", t->name);
		if (r)
			cap_dump(cap);
		CHECK_EQ(cap->npkts, 2, "%s: timestamp + fence", t->name);
		if (cap->npkts < 1)
			continue;
		CHECK(!strcmp(cap->pkts[0].p.name, "RELEASE_MEM"), "%s: %s", t->name,
		      cap->pkts[0].p.name);
		CHECK_EQ(cap->pkts[0].p.ndw, (uint32_t)n, "%s: length", t->name);
		CHECK_EQ(cap_field(cap, 0, "opcode"), 0x49, "%s opcode", t->name);
		CHECK_EQ(cap_field(cap, 0, "event_type"), 0x28, "%s event", t->name);
		CHECK_EQ(cap_field(cap, 0, "event_index"), 5, "%s event_index", t->name);
		CHECK_EQ(cap_field(cap, 0, "data_sel"), 3, "%s data_sel", t->name);
		CHECK_EQ(cap_field(cap, 0, "int_sel"), 0, "%s int_sel", t->name);
		CHECK_EQ(cap_field(cap, 0, "dst_sel"), 0, "%s dst_sel", t->name);
		CHECK_EQ(cap_field(cap, 0, "address_lo"), (uint32_t)ts, "%s address_lo", t->name);
		CHECK_EQ(cap_field(cap, 0, "address_hi"), (uint32_t)(ts >> 32), "%s address_hi",
			 t->name);
		if (t->pm4_fence != KFDSIG_PM4_FENCE_VI)
			CHECK_EQ(cap_field(cap, 0, "int_ctxid"), 0, "%s int_ctxid", t->name);
		/* gfx12 names DW1 bits 25-26 TEMPORAL (gfx_v12_1_pkt.h). */
		if (t->pm4_fence == KFDSIG_PM4_FENCE_NV)
			CHECK_EQ(cap_field(cap, 0,
					   t->level == KFDSIG_GFX12 ? "temporal" : "cache_policy"),
				 3, "%s cache_policy / temporal", t->name);
	}
}

int main(void)
{
	struct capture cap;

	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		const struct golden *g = &golden[i];
		uint32_t buf[8];
		int n = kfdsig_pm4_emit_timestamp(T(g->target), g->va, buf, 8);

		CHECK_EQ(n, g->ndw, "%s: dwords", g->target);
		if (n == g->ndw)
			t_check_dwords(g->target, buf, g->dw, (size_t)n);
	}
	every_target();
	rejections();
	cap_init(&cap);
	roundtrip(&cap);
	cap_free(&cap);
	return t_result("pm4_timestamp");
}
