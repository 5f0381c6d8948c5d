/* SPDX-License-Identifier: MIT */
/*
 * amdgpu user-mode queue packets (kfdsig/userq.h): golden vectors, the
 * per-target limits and refusals, and the end-of-submission sequence.
 *
 * Goldens written by hand from the packet definitions, not by calling the
 * emitters (Mesa sid.h PKT3() and PKT3_PROTECTED_FENCE_SIGNAL 0xD0,
 * PKT3_FENCE_WAIT_MULTI 0xD1 with S_D10_*, PKT3_HDP_FLUSH 0x95 = nvd.h
 * PACKET3_HDP_FLUSH, S_3F3_* IB bits; nvd.h PACKET3_RELEASE_MEM_*; Mesa
 * amdgpu_cs.cpp amdgpu_cs_add_userq_packets() for the sequence):
 *   PROTECTED_FENCE_SIGNAL  PACKET3(0xD0, 0) = 0xc000d000, then 0
 *   HDP_FLUSH               PACKET3(0x95, 0) = 0xc0009500, then 0
 *   FENCE_WAIT_MULTI n      PACKET3(0xD1, 4n): 1 entry 0xc004d100, 2 entries
 *                           0xc008d100; control ENGINE_SEL(1) |
 *                           PREEMPTABLE(1) << 1 | POLL_INTERVAL(4) << 16 =
 *                           0x00040003; per entry va lo, hi, value lo, hi
 *   RELEASE_MEM             PACKET3(0x49, 6) = 0xc0064900; dw1 EVENT_TYPE
 *                           0x14 | EVENT_INDEX 5 << 8 | GLM_WB 1 << 12 |
 *                           GLM_INV 1 << 13 | GL2_WB 1 << 21 | SEQ 1 << 22 |
 *                           CACHE_POLICY 3 << 25 = 0x06603514; dw2
 *                           DATA_SEL 2 << 29 = 0x40000000 (INT_SEL 0)
 *   INDIRECT_BUFFER         PACKET3(0x3F, 2) = 0xc0023f00; dw3 compute
 *                           size | VALID_COMPUTE 1 << 23 |
 *                           INHERIT_VMID_MQD_COMPUTE 1 << 30 = size |
 *                           0x40800000; gfx size | INHERIT_VMID_MQD_GFX
 *                           1 << 22 = size | 0x00400000
 *   SDMA protected fence    op 5 | sub-op 3 << 8 = 0x00000305
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* Entries per FENCE_WAIT_MULTI, by target: Mesa's 32 on a dGPU or GFX12,
 * 4 on the gfx11 APUs; 0 for targets without user queues. */
static const struct {
	const char *name;
	int fwm;
	int sdma; /* SDMA protected fence available */
} limits[] = {
	{ "gfx1100", 32, 1 }, { "gfx1101", 32, 1 }, { "gfx1102", 32, 1 }, { "gfx1103", 4, 0 },
	{ "gfx1150", 4, 0 },  { "gfx1151", 4, 0 },  { "gfx1200", 32, 1 }, { "gfx1201", 32, 1 },
	{ "gfx1250", 0, 0 },  { "gfx1030", 0, 0 },  { "gfx90a", 0, 0 },	  { "gfx803", 0, 0 },
};

static void per_target(void)
{
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		const struct kfdsig_target *t = t_target(limits[i].name);
		uint32_t buf[4] = { 0x5a5a5a5a, 0x5a5a5a5a, 0x5a5a5a5a, 0x5a5a5a5a };
		int want = limits[i].fwm ? limits[i].fwm : -ENOTSUP;

		CHECK_EQ(kfdsig_userq_fwm_max(t), want, "%s: fwm max", t->name);
		CHECK_EQ(kfdsig_userq_emit_protected_signal(t, buf, 4),
			 limits[i].fwm ? 2 : -ENOTSUP, "%s: protected signal", t->name);
		if (limits[i].fwm) {
			CHECK_EQ(buf[0], 0xc000d000, "%s: PFS header", t->name);
			CHECK_EQ(buf[1], 0, "%s: PFS payload", t->name);
			CHECK_EQ(buf[2], 0x5a5a5a5a, "%s: wrote past PFS", t->name);
		} else {
			CHECK_EQ(buf[0], 0x5a5a5a5a, "%s: refused but wrote", t->name);
		}
		CHECK_EQ(kfdsig_userq_emit_sdma_protected_fence(t, buf, 4),
			 limits[i].sdma ? 1 : -ENOTSUP, "%s: SDMA protected fence", t->name);
		if (limits[i].sdma)
			CHECK_EQ(buf[0], 0x00000305, "%s: SDMA protected fence header", t->name);
		CHECK_EQ(kfdsig_userq_emit_hdp_flush(t, buf, 4), limits[i].fwm ? 2 : -ENOTSUP,
			 "%s: HDP_FLUSH", t->name);
		if (limits[i].fwm) {
			CHECK_EQ(buf[0], 0xc0009500, "%s: HDP_FLUSH header", t->name);
			CHECK_EQ(buf[1], 0, "%s: HDP_FLUSH payload", t->name);
		}
	}
}

static void trailer_and_waits(void)
{
	const struct kfdsig_target *g11 = t_target("gfx1100"), *apu = t_target("gfx1151");
	static const uint32_t trailer[10] = { 0xc0064900, 0x06603514, 0x40000000, 0x00002000,
					      0x00007f00, 0x0000002a, 0x00000001, 0x00000000,
					      0xc000d000, 0x00000000 };
	static const struct kfdsig_userq_fence_ref refs[5] = {
		{ 0x0000100000000008ull, 0x0000000500000007ull },
		{ 0x0000000000003000ull, 1 },
		{ 0x8, 2 },
		{ 0x10, 3 },
		{ 0x18, 4 },
	};
	static const uint32_t fwm2[10] = { 0xc008d100, 0x00040003, 0x00000008, 0x00001000,
					   0x00000007, 0x00000005, 0x00003000, 0x00000000,
					   0x00000001, 0x00000000 };
	struct kfdsig_userq_fence_ref many[33];
	uint32_t buf[140];

	memset(buf, 0x5a, sizeof(buf));
	CHECK_EQ(kfdsig_userq_emit_trailer(g11, 0x00007f0000002000ull, 0x000000010000002aull, buf,
					   10),
		 10, "trailer");
	t_check_dwords("trailer gfx1100", buf, trailer, 10);
	CHECK_EQ(buf[10], 0x5a5a5a5a, "wrote past the trailer");
	/* GFX12: the same dwords (cache policy 3 is TEMPORAL lu there) */
	CHECK_EQ(kfdsig_userq_emit_trailer(t_target("gfx1201"), 0x00007f0000002000ull,
					   0x000000010000002aull, buf, 10),
		 10, "trailer gfx1201");
	t_check_dwords("trailer gfx1201", buf, trailer, 10);

	memset(buf, 0x5a, sizeof(buf));
	CHECK_EQ(kfdsig_userq_emit_fence_wait_multi(g11, refs, 2, buf, 10), 10, "fwm 2");
	t_check_dwords("fence_wait_multi 2", buf, fwm2, 10);
	CHECK_EQ(buf[10], 0x5a5a5a5a, "wrote past FENCE_WAIT_MULTI");
	CHECK_EQ(kfdsig_userq_emit_fence_wait_multi(g11, refs, 1, buf, 6), 6, "fwm 1");
	CHECK_EQ(buf[0], 0xc004d100, "fwm 1 header");

	/* the entry limits: 4 on the APU, 32 on the dGPU */
	for (size_t i = 0; i < 33; i++) {
		many[i].va = 0x1000 + 8 * i;
		many[i].value = i;
	}
	CHECK_EQ(kfdsig_userq_emit_fence_wait_multi(apu, refs, 4, buf, 140), 18, "APU fwm 4");
	CHECK_EQ(kfdsig_userq_emit_fence_wait_multi(apu, refs, 5, buf, 140), -EINVAL, "APU fwm 5");
	CHECK(strstr(kfdsig_last_error(), "1 .. 4") != NULL, "reason: %s", kfdsig_last_error());
	CHECK_EQ(kfdsig_userq_emit_fence_wait_multi(g11, many, 32, buf, 140), 130, "dGPU fwm 32");
	CHECK_EQ(kfdsig_userq_emit_fence_wait_multi(g11, many, 33, buf, 140), -EINVAL,
		 "dGPU fwm 33");
	CHECK_EQ(kfdsig_userq_emit_fence_wait_multi(g11, refs, 0, buf, 140), -EINVAL, "fwm 0");
	CHECK_EQ(kfdsig_userq_emit_fence_wait_multi(g11, NULL, 1, buf, 140), -EINVAL, "fwm NULL");

	/* refusals: nothing written */
	memset(buf, 0x5a, sizeof(buf));
	CHECK_EQ(kfdsig_userq_emit_trailer(g11, 0, 1, buf, 10), -EINVAL, "fence va 0");
	CHECK_EQ(kfdsig_userq_emit_trailer(g11, 0x1004, 1, buf, 10), -EINVAL, "fence va 4-aligned");
	CHECK_EQ(kfdsig_userq_emit_trailer(g11, 1ull << 48, 1, buf, 10), -EINVAL, "fence va 2^48");
	CHECK_EQ(kfdsig_userq_emit_trailer(g11, 0x1000, 1, buf, 9), -ENOSPC, "trailer in 9");
	CHECK_EQ(kfdsig_userq_emit_trailer(g11, 0x1000, 1, NULL, 10), -ENOSPC, "trailer NULL");
	CHECK_EQ(kfdsig_userq_emit_trailer(t_target("gfx1030"), 0x1000, 1, buf, 10), -ENOTSUP,
		 "trailer gfx1030");
	CHECK_EQ(kfdsig_userq_emit_trailer(NULL, 0x1000, 1, buf, 10), -EINVAL, "trailer NULL t");
	CHECK_EQ(kfdsig_userq_emit_fence_wait_multi(g11, refs, 2, buf, 9), -ENOSPC, "fwm in 9");
	{
		struct kfdsig_userq_fence_ref bad = { 0x1004, 1 };

		CHECK_EQ(kfdsig_userq_emit_fence_wait_multi(g11, &bad, 1, buf, 10), -EINVAL,
			 "fwm unaligned va");
	}
	CHECK_EQ(kfdsig_userq_emit_protected_signal(g11, buf, 1), -ENOSPC, "PFS in 1");
	CHECK_EQ(kfdsig_userq_emit_sdma_protected_fence(g11, buf, 0), -ENOSPC, "SDMA in 0");
	for (int i = 0; i < 12; i++)
		CHECK_EQ(buf[i], 0x5a5a5a5a, "refused emission wrote dword %d", i);
}

/* The end of a submission: waits in batches of the target's limit, HDP
 * flush, IB, trailer with the ring position after it. */
static void submission(void)
{
	const struct kfdsig_target *apu = t_target("gfx1103"), *g12 = t_target("gfx1200");
	struct kfdsig_userq_fence_ref w[6];
	uint32_t buf[80];
	uint64_t seq = 0;
	int n;

	for (int i = 0; i < 6; i++) {
		w[i].va = 0x10000 + 8 * (uint64_t)i;
		w[i].value = 100 + (uint64_t)i;
	}
	/* compute queue, no waits: HDP_FLUSH, IB, trailer */
	{
		KFDSIG_OPTS(kfdsig_userq_submit, s, .wptr = 0x100, .fence_va = 0x7f0000001000ull,
			    .ib_va = 0x7f0000200000ull, .ib_dw = 0x40);
		static const uint32_t want[16] = { 0xc0009500, 0x00000000, 0xc0023f00, 0x00200000,
						   0x00007f00, 0x40800040, 0xc0064900, 0x06603514,
						   0x40000000, 0x00001000, 0x00007f00, 0x00000110,
						   0x00000000, 0x00000000, 0xc000d000, 0x00000000 };

		CHECK_EQ(kfdsig_userq_submit_dw(g12, &s), 16, "submit_dw");
		memset(buf, 0x5a, sizeof(buf));
		n = kfdsig_userq_emit_submit(g12, &s, buf, 80, &seq);
		CHECK_EQ(n, 16, "submit");
		t_check_dwords("compute submission", buf, want, 16);
		CHECK_EQ(buf[16], 0x5a5a5a5a, "wrote past the submission");
		CHECK_EQ(seq, 0x110, "sequence number: the position after the trailer");
		/* the same on a GFX queue: INHERIT_VMID_MQD_GFX only */
		s.flags = KFDSIG_USERQ_SUBMIT_GFX;
		CHECK_EQ(kfdsig_userq_emit_submit(g12, &s, buf, 80, NULL), 16, "gfx submit");
		CHECK_EQ(buf[5], 0x00400040, "gfx IB control");
		/* without an IB: HDP_FLUSH and the trailer */
		s.ib_va = 0;
		s.ib_dw = 0;
		CHECK_EQ(kfdsig_userq_emit_submit(g12, &s, buf, 80, &seq), 12, "fence-only");
		CHECK_EQ(seq, 0x10c, "fence-only sequence number");
		CHECK_EQ(buf[7], 0x0000010c, "fence-only value");
		/* refusals */
		s.ib_dw = 5;
		CHECK_EQ(kfdsig_userq_submit_dw(g12, &s), -EINVAL, "IB size without address");
		s.ib_va = 0x2000;
		s.ib_dw = KFDSIG_USERQ_IB_MAX_DW + 1;
		CHECK_EQ(kfdsig_userq_submit_dw(g12, &s), -EINVAL, "IB too long");
		s.ib_dw = 4;
		s.pad_0 = 1;
		CHECK_EQ(kfdsig_userq_submit_dw(g12, &s), -EINVAL, "pad_0");
		s.pad_0 = 0;
		s.flags = 2;
		CHECK_EQ(kfdsig_userq_submit_dw(g12, &s), -EINVAL, "unknown flag");
		s.flags = 0;
		s.nwaits = 1;
		CHECK_EQ(kfdsig_userq_submit_dw(g12, &s), -EINVAL, "waits without array");
		CHECK_EQ(kfdsig_userq_submit_dw(t_target("gfx1250"), &s), -ENOTSUP, "gfx1250");
		CHECK_EQ(kfdsig_userq_submit_dw(g12, NULL), -EINVAL, "NULL submission");
		s.nwaits = 0;
		memset(buf, 0x5a, sizeof(buf));
		CHECK_EQ(kfdsig_userq_emit_submit(g12, &s, buf, 15, NULL), -ENOSPC, "no room");
		CHECK_EQ(buf[0], 0x5a5a5a5a, "refused submission wrote");
	}
	/* six waits on the APU (4 per packet): FWM(4) + FWM(2) first */
	{
		KFDSIG_OPTS(kfdsig_userq_submit, s, .wptr = 0xfffffffffffffff0ull,
			    .fence_va = 0x3000, .waits = w, .nwaits = 6);

		n = kfdsig_userq_emit_submit(apu, &s, buf, 80, &seq);
		CHECK_EQ(n, 18 + 10 + 2 + 10, "six waits on the APU");
		CHECK_EQ(buf[0], 0xc010d100, "first FENCE_WAIT_MULTI of 4");
		CHECK_EQ(buf[2], 0x10000, "first wait address");
		CHECK_EQ(buf[4], 100, "first wait value");
		CHECK_EQ(buf[18], 0xc008d100, "second FENCE_WAIT_MULTI of 2");
		CHECK_EQ(buf[20], 0x10020, "fifth wait address");
		CHECK_EQ(buf[28], 0xc0009500, "HDP_FLUSH after the waits");
		/* the value wraps with the 64-bit ring position */
		CHECK_EQ(seq, 0xfffffffffffffff0ull + 40, "wrapped sequence number");
		CHECK_EQ(buf[35], (uint32_t)(0xfffffffffffffff0ull + 40), "value lo");
		CHECK_EQ(buf[36], (uint32_t)((0xfffffffffffffff0ull + 40) >> 32), "value hi");
		CHECK_EQ(buf[38], 0xc000d000, "protected signal last");
		/* the same six on a dGPU: one packet */
		CHECK_EQ(kfdsig_userq_emit_submit(g12, &s, buf, 80, NULL), 26 + 2 + 10,
			 "six waits on gfx1200");
	}
}

int main(void)
{
	per_target();
	trailer_and_waits();
	submission();
	return t_result("userq_packets");
}
