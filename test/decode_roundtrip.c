/* SPDX-License-Identifier: MIT */
/*
 * Round trip: for every target and every emitter option, emit, decode,
 * and compare every decoded field with the inputs; the lint must find no
 * error in what the checked emitters produce, and must name the expected
 * notes (32-bit writes, TRAP-only, gfx8 without INT_CTXID).
 */
#include <errno.h>

#include "decode_capture.h"

#define PAGE 0x000000f000200000ull /* below 2^40: gfx8 reaches it */
#define EV 42u
#define SLOT (PAGE + 8 * EV)

static struct capture cap;

static const char *tn;

static void expect_release_mem(size_t i, const struct kfdsig_target *t, uint32_t int_sel,
			       uint32_t data_sel, uint64_t addr, uint64_t value, uint32_t ev,
			       uint8_t cache)
{
	CHECK(i < cap.npkts && !strcmp(cap.pkts[i].p.name, "RELEASE_MEM"), "%s: packet %zu", tn, i);
	CHECK_EQ(cap_field(&cap, i, "opcode"), 0x49, "%s opcode", tn);
	CHECK_EQ(cap_field(&cap, i, "type"), 3, "%s type", tn);
	CHECK_EQ(cap_field(&cap, i, "event_type"), cache == KFDSIG_CACHE_NONE ? 0x28 : 0x14,
		 "%s event", tn);
	CHECK_EQ(cap_field(&cap, i, "event_index"), 5, "%s event_index", tn);
	CHECK_EQ(cap_field(&cap, i, "int_sel"), int_sel, "%s int_sel", tn);
	CHECK_EQ(cap_field(&cap, i, "data_sel"), data_sel, "%s data_sel", tn);
	CHECK_EQ(cap_field(&cap, i, "dst_sel"), 0, "%s dst_sel", tn);
	CHECK_EQ(cap_field(&cap, i, "address_lo"), (uint32_t)addr, "%s address_lo", tn);
	CHECK_EQ(cap_field(&cap, i, "address_hi"), (uint32_t)(addr >> 32), "%s address_hi", tn);
	CHECK_EQ(cap_field(&cap, i, "data_lo"), (uint32_t)value, "%s data_lo", tn);
	CHECK_EQ(cap_field(&cap, i, "data_hi"), (uint32_t)(value >> 32), "%s data_hi", tn);
	if (t->pm4_fence == KFDSIG_PM4_FENCE_VI) {
		uint32_t v;

		CHECK(kfdsig_packet_field(&cap.pkts[i].p, "int_ctxid", &v) == -ENOENT,
		      "%s: gfx8 RELEASE_MEM has no int_ctxid", tn);
		CHECK_EQ(cap.pkts[i].p.ndw, 7, "%s length", tn);
	} else {
		CHECK_EQ(cap_field(&cap, i, "int_ctxid"), ev, "%s int_ctxid", tn);
		CHECK_EQ(cap.pkts[i].p.ndw, 8, "%s length", tn);
	}
	if (t->pm4_fence == KFDSIG_PM4_FENCE_NV && cache == KFDSIG_CACHE_FLUSH_INV) {
		/* gfx_v10_0_ring_emit_fence GCR set, by name. */
		CHECK_EQ(cap_field(&cap, i, "gcr_seq"), 1, "%s gcr_seq", tn);
		CHECK_EQ(cap_field(&cap, i, "gcr_gl2_wb"), 1, "%s gcr_gl2_wb", tn);
		CHECK_EQ(cap_field(&cap, i, "gcr_gl2_inv"), 1, "%s gcr_gl2_inv", tn);
		CHECK_EQ(cap_field(&cap, i, "gcr_glm_wb"), 1, "%s gcr_glm_wb", tn);
		CHECK_EQ(cap_field(&cap, i, "gcr_gl2_discard"), 0, "%s gcr_gl2_discard", tn);
		/* gfx12: bits 25-26 are TEMPORAL (gfx_v12_1_pkt.h), same value. */
		CHECK_EQ(cap_field(&cap, i, t->level == KFDSIG_GFX12 ? "temporal" : "cache_policy"),
			 3, "%s cache_policy / temporal", tn);
	}
	if (t->pm4_fence == KFDSIG_PM4_FENCE_GC12_1 && cache == KFDSIG_CACHE_WB) {
		/* gfx_v12_1_ring_emit_fence(), by name (gfx_v12_1_pkt.h). */
		CHECK_EQ(cap_field(&cap, i, "gcr_seq"), 1, "%s gcr_seq", tn);
		CHECK_EQ(cap_field(&cap, i, "gcr_glv_wb"), 1, "%s gcr_glv_wb", tn);
		CHECK_EQ(cap_field(&cap, i, "gcr_gl2_wb"), 1, "%s gcr_gl2_wb", tn);
		CHECK_EQ(cap_field(&cap, i, "gcr_gl2_scope"), 2, "%s gcr_gl2_scope", tn);
		CHECK_EQ(cap_field(&cap, i, "gcr_gl2_inv"), 0, "%s gcr_gl2_inv", tn);
		CHECK_EQ(cap_field(&cap, i, "temporal"), 3, "%s temporal", tn);
	}
	if (t->level >= KFDSIG_GFX11) {
		/* The gfx11/12 fields UMR and Mesa decode; kfdsig writes 0.
		 * GC 12.1's header (gfx_v12_1_pkt.h) names no PWS_ENABLE. */
		uint32_t v;

		if (t->pm4_fence != KFDSIG_PM4_FENCE_GC12_1)
			CHECK_EQ(cap_field(&cap, i, "pws_enable"), 0, "%s pws_enable", tn);
		CHECK_EQ(cap_field(&cap, i, "mes_intr_pipe"), 0, "%s mes_intr_pipe", tn);
		CHECK_EQ(cap_field(&cap, i, "mes_action_id"), 0, "%s mes_action_id", tn);
		CHECK_EQ(kfdsig_packet_field(&cap.pkts[i].p, "glk_inv", &v),
			 t->level == KFDSIG_GFX12 ? 0 : -ENOENT, "%s glk_inv on gfx12 only", tn);
	}
}

static void pm4_case(const struct kfdsig_target *t, uint8_t form, uint8_t cache, uint32_t flags)
{
	struct kfdsig_fence f = { 0 };
	uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];
	uint64_t value;
	long r;
	int n;

	f.slot_va = SLOT;
	f.event_id = EV;
	f.form = form;
	f.cache = cache;
	f.flags = flags;
	if (flags & KFDSIG_FENCE_VALUE)
		f.value = (flags & KFDSIG_FENCE_32BIT) ? 0x1234 : 0x0000000500000007ull;
	if (flags & KFDSIG_FENCE_CTXID)
		f.ctxid = EV;
	n = kfdsig_pm4_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW);
	if (n < 0)
		return; /* combination the emitter refuses (tested elsewhere) */
	value = (flags & KFDSIG_FENCE_VALUE) ? f.value
					     : (t->pm4_fence == KFDSIG_PM4_FENCE_VI ? EV : 1);

	r = cap_decode(&cap, t, KFDSIG_ENGINE_PM4, KFDSIG_DECODE_LINT | KFDSIG_DECODE_SIGNAL_PAGE,
		       PAGE, buf, (size_t)n);
	CHECK_EQ(r, 0, "%s form %u cache %u flags 0x%x: lint errors", tn, form, cache, flags);
	if (r)
		cap_dump(&cap);

	switch (form) {
	case KFDSIG_PM4_RELEASE_MEM:
		CHECK_EQ(cap.npkts, 1, "%s: one packet", tn);
		if (flags & KFDSIG_FENCE_INT_ONLY)
			expect_release_mem(0, t, 1, 0, 0, 0, EV, cache);
		else
			expect_release_mem(0, t, 2, (flags & KFDSIG_FENCE_32BIT) ? 1 : 2, SLOT,
					   (flags & KFDSIG_FENCE_32BIT) ? (uint32_t)value : value,
					   EV, cache);
		break;
	case KFDSIG_PM4_WRITE_DATA_INT: {
		bool w32 = flags & KFDSIG_FENCE_32BIT;

		CHECK_EQ(cap.npkts, 2, "%s: WRITE_DATA + RELEASE_MEM", tn);
		CHECK(!strcmp(cap.pkts[0].p.name, "WRITE_DATA"), "%s: first packet %s", tn,
		      cap.pkts[0].p.name);
		CHECK_EQ(cap.pkts[0].p.ndw, w32 ? 5 : 6, "%s WRITE_DATA length", tn);
		CHECK_EQ(cap_field(&cap, 0, "dst_sel"), 5, "%s dst_sel", tn);
		CHECK_EQ(cap_field(&cap, 0, "wr_confirm"), 1, "%s wr_confirm", tn);
		CHECK_EQ(cap_field(&cap, 0, "dst_addr_lo"), (uint32_t)SLOT, "%s addr lo", tn);
		CHECK_EQ(cap_field(&cap, 0, "dst_addr_hi"), (uint32_t)(SLOT >> 32), "%s addr hi",
			 tn);
		CHECK_EQ(cap.pkts[0].dw[4], (uint32_t)value, "%s data lo", tn);
		if (!w32)
			CHECK_EQ(cap.pkts[0].dw[5], (uint32_t)(value >> 32), "%s data hi", tn);
		expect_release_mem(1, t, 1, 0, 0, 0, EV, cache);
		CHECK_EQ(cap_count(&cap, "int-without-write", -1), 0, "%s: write seen", tn);
		break;
	}
	case KFDSIG_PM4_EVENT_WRITE_EOP:
		CHECK_EQ(cap.npkts, 1, "%s: one packet", tn);
		CHECK(!strcmp(cap.pkts[0].p.name, "EVENT_WRITE_EOP"), "%s: EOP", tn);
		if (flags & KFDSIG_FENCE_INT_ONLY) {
			CHECK_EQ(cap_field(&cap, 0, "int_sel"), 1, "%s eop int_sel", tn);
			CHECK_EQ(cap_field(&cap, 0, "data_sel"), 0, "%s eop data_sel", tn);
		} else {
			CHECK_EQ(cap_field(&cap, 0, "int_sel"), 2, "%s eop int_sel", tn);
			CHECK_EQ(cap_field(&cap, 0, "data_sel"),
				 (flags & KFDSIG_FENCE_32BIT) ? 1 : 2, "%s eop data_sel", tn);
			CHECK_EQ(cap_field(&cap, 0, "address_lo"), (uint32_t)SLOT, "%s eop lo", tn);
			CHECK_EQ(cap_field(&cap, 0, "address_hi"), (uint32_t)(SLOT >> 32),
				 "%s eop hi", tn);
			CHECK_EQ(cap_field(&cap, 0, "data_lo"), (uint32_t)value, "%s eop data", tn);
		}
		break;
	}
	/* Notes the lint must make. */
	CHECK_EQ(cap_count(&cap, "write-32bit", KFDSIG_SEV_INFO) != 0,
		 (flags & KFDSIG_FENCE_32BIT) != 0, "%s: write-32bit note", tn);
	CHECK_EQ(cap_count(&cap, "int-without-write", KFDSIG_SEV_WARNING) != 0,
		 form != KFDSIG_PM4_WRITE_DATA_INT && (flags & KFDSIG_FENCE_INT_ONLY),
		 "%s: int-without-write", tn);
	CHECK_EQ(cap_count(&cap, "gfx8-no-ctxid", KFDSIG_SEV_INFO) != 0,
		 t->pm4_fence == KFDSIG_PM4_FENCE_VI, "%s: gfx8-no-ctxid", tn);
}

static void sdma_case(const struct kfdsig_target *t, uint32_t flags)
{
	struct kfdsig_fence f = { 0 };
	uint32_t buf[KFDSIG_SDMA_FENCE_MAX_DW];
	bool one = flags & (KFDSIG_FENCE_SDMA_ONE_FENCE | KFDSIG_FENCE_32BIT);
	uint64_t value = 1;
	long r;
	int n;

	f.slot_va = SLOT;
	f.event_id = EV;
	f.flags = flags;
	if (flags & KFDSIG_FENCE_VALUE)
		value = f.value = one ? 0xabcd : 0x0000000900000008ull;
	if (flags & KFDSIG_FENCE_CTXID)
		f.ctxid = EV;
	n = kfdsig_sdma_emit_fence(t, &f, buf, KFDSIG_SDMA_FENCE_MAX_DW);
	if (n < 0)
		return;
	r = cap_decode(&cap, t, KFDSIG_ENGINE_SDMA, KFDSIG_DECODE_LINT | KFDSIG_DECODE_SIGNAL_PAGE,
		       PAGE, buf, (size_t)n);
	CHECK_EQ(r, 0, "%s sdma flags 0x%x: lint errors", tn, flags);
	if (r)
		cap_dump(&cap);
	if (flags & KFDSIG_FENCE_INT_ONLY) {
		CHECK_EQ(cap.npkts, 1, "%s: TRAP only", tn);
	} else {
		size_t nf = one ? 1 : 2;

		CHECK_EQ(cap.npkts, nf + 1, "%s: fences + trap", tn);
		for (size_t i = 0; i < nf; i++) {
			CHECK(!strcmp(cap.pkts[i].p.name, "FENCE"), "%s: fence %zu", tn, i);
			CHECK_EQ(cap_field(&cap, i, "op"), 5, "%s fence op", tn);
			CHECK_EQ(cap_field(&cap, i, "addr_lo"), (uint32_t)(SLOT + 4 * i),
				 "%s fence %zu addr", tn, i);
			CHECK_EQ(cap_field(&cap, i, "addr_hi"), (uint32_t)(SLOT >> 32),
				 "%s fence addr hi", tn);
			CHECK_EQ(cap_field(&cap, i, "data"), (uint32_t)(value >> (32 * i)),
				 "%s fence %zu data", tn, i);
			if (t->sdma_ip[0] >= 5) {
				CHECK_EQ(cap_field(&cap, i, "mtype"), 3, "%s mtype", tn);
				CHECK_EQ(cap_field(&cap, i, "sys"), 1, "%s sys", tn);
				CHECK_EQ(cap_field(&cap, i, "snp"), 1, "%s snp", tn);
			}
		}
	}
	CHECK(!strcmp(cap.pkts[cap.npkts - 1].p.name, "TRAP"), "%s: trap last", tn);
	CHECK_EQ(cap_field(&cap, cap.npkts - 1, "int_context"), EV, "%s trap context", tn);
	CHECK_EQ(cap_field(&cap, cap.npkts - 1, "reserved"), 0, "%s trap reserved", tn);
	CHECK_EQ(cap_count(&cap, "write-32bit", KFDSIG_SEV_INFO) != 0,
		 one && !(flags & KFDSIG_FENCE_INT_ONLY), "%s: write-32bit note", tn);
	CHECK_EQ(cap_count(&cap, "int-without-write", KFDSIG_SEV_WARNING) != 0,
		 (flags & KFDSIG_FENCE_INT_ONLY) != 0, "%s: int-without-write", tn);
}

/* SDMA with the padding helper: ring contents decode to NOPs + sequence. */
static void sdma_ring_case(const struct kfdsig_target *t, uint32_t nop_flags)
{
	static uint32_t ring[256];
	struct kfdsig_fence f = { 0 };
	uint32_t buf[KFDSIG_SDMA_FENCE_MAX_DW];
	uint64_t w = 1000; /* dword 250: the sequence straddles the end */
	size_t nops = 0;
	int n, total;

	f.slot_va = SLOT;
	f.event_id = EV;
	n = kfdsig_sdma_emit_fence(t, &f, buf, KFDSIG_SDMA_FENCE_MAX_DW);
	memset(ring, 0xa5, sizeof(ring));
	total = kfdsig_sdma_ring_write(t, ring, sizeof(ring), &w, buf, (size_t)n, 32, nop_flags);
	CHECK(total > n, "%s: ring write %d", tn, total);
	/* Decode from the first NOP up to the ring end, then from 0. */
	{
		uint32_t lin[512];
		size_t pre = 256 - 250;

		memcpy(lin, ring + 250, pre * 4);
		memcpy(lin + pre, ring, ((size_t)total - pre) * 4);
		CHECK_EQ(cap_decode(&cap, t, KFDSIG_ENGINE_SDMA, KFDSIG_DECODE_LINT, 0, lin,
				    (size_t)total),
			 0, "%s ring lint", tn);
		for (size_t i = 0; i < cap.npkts; i++)
			if (!strcmp(cap.pkts[i].p.name, "NOP"))
				nops += cap.pkts[i].p.ndw;
		CHECK_EQ(nops + (size_t)n, (size_t)total, "%s: NOP dwords + sequence", tn);
		CHECK_EQ(cap_count(&cap, "unknown-opcode", -1), 0, "%s: all known", tn);
	}
}

/* Deliberately bad sequences decode to exactly what was asked, and the
 * lint names each thing the checks would have refused. */
static void bad_cases(const struct kfdsig_target *t)
{
	struct kfdsig_fence f = { 0 };
	uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];
	int n;

	/* Context id naming another slot. */
	f.slot_va = SLOT;
	f.event_id = EV;
	f.flags = KFDSIG_FENCE_DELIBERATELY_BAD | KFDSIG_FENCE_CTXID;
	f.ctxid = EV + 1;
	n = kfdsig_sdma_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW);
	cap_decode(&cap, t, KFDSIG_ENGINE_SDMA, KFDSIG_DECODE_LINT | KFDSIG_DECODE_SIGNAL_PAGE,
		   PAGE, buf, (size_t)n);
	CHECK_EQ(cap_field(&cap, 2, "int_context"), EV + 1, "%s: bad sdma ctx", tn);
	CHECK_EQ(cap_count(&cap, "ctxid-mismatch", KFDSIG_SEV_ERROR), 1, "%s: sdma mismatch", tn);
	if (t->pm4_fence != KFDSIG_PM4_FENCE_VI) {
		n = kfdsig_pm4_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW);
		cap_decode(&cap, t, KFDSIG_ENGINE_PM4,
			   KFDSIG_DECODE_LINT | KFDSIG_DECODE_SIGNAL_PAGE, PAGE, buf, (size_t)n);
		CHECK_EQ(cap_field(&cap, 0, "int_ctxid"), EV + 1, "%s: bad pm4 ctx", tn);
		CHECK_EQ(cap_count(&cap, "ctxid-mismatch", KFDSIG_SEV_ERROR), 1, "%s: pm4 mismatch",
			 tn);
		/* Context 0 (and on gfx11+ bit 24). */
		f.ctxid = t->drops_ctxid_bit24 ? 1u << 24 : 0;
		n = kfdsig_pm4_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW);
		cap_decode(&cap, t, KFDSIG_ENGINE_PM4, KFDSIG_DECODE_LINT, 0, buf, (size_t)n);
		CHECK_EQ(cap_field(&cap, 0, "int_ctxid"), f.ctxid, "%s: ctx", tn);
		CHECK_EQ(cap_count(&cap, t->drops_ctxid_bit24 ? "ctxid-bit24" : "ctxid-zero",
				   KFDSIG_SEV_ERROR),
			 1, "%s: ctx 0 / bit 24", tn);
	}
	/* Event 0 at slot 0, unaligned slot, wide TRAP context. */
	f.flags = KFDSIG_FENCE_DELIBERATELY_BAD;
	f.event_id = 0;
	f.slot_va = PAGE;
	n = kfdsig_sdma_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW);
	cap_decode(&cap, t, KFDSIG_ENGINE_SDMA, KFDSIG_DECODE_LINT | KFDSIG_DECODE_SIGNAL_PAGE,
		   PAGE, buf, (size_t)n);
	CHECK_EQ(cap_count(&cap, "ctxid-zero", KFDSIG_SEV_ERROR), 1, "%s: event 0", tn);
	CHECK_EQ(cap_count(&cap, "event-id-range", KFDSIG_SEV_ERROR), 1, "%s: slot 0", tn);
	f.event_id = EV;
	f.slot_va = SLOT + 2;
	f.flags = KFDSIG_FENCE_DELIBERATELY_BAD | KFDSIG_FENCE_CTXID;
	f.ctxid = EV | 0xf0000000u;
	n = kfdsig_sdma_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW);
	cap_decode(&cap, t, KFDSIG_ENGINE_SDMA, KFDSIG_DECODE_LINT, 0, buf, (size_t)n);
	CHECK_EQ(cap_field(&cap, 0, "addr_lo"), (uint32_t)(SLOT + 2), "%s: bad addr", tn);
	CHECK_EQ(cap_field(&cap, 2, "reserved"), 0xf, "%s: wide ctx", tn);
	CHECK_EQ(cap_count(&cap, "slot-misaligned", KFDSIG_SEV_ERROR), 1, "%s: unaligned", tn);
	CHECK_EQ(cap_count(&cap, "trap-context-wide", KFDSIG_SEV_WARNING), 1, "%s: wide", tn);
}

int main(void)
{
	static const uint32_t pm4_flags[] = {
		0,
		KFDSIG_FENCE_VALUE,
		KFDSIG_FENCE_32BIT,
		KFDSIG_FENCE_32BIT | KFDSIG_FENCE_VALUE,
		KFDSIG_FENCE_INT_ONLY,
		KFDSIG_FENCE_CTXID,
		KFDSIG_FENCE_CTXID | KFDSIG_FENCE_VALUE,
	};
	static const uint32_t sdma_flags[] = {
		0,
		KFDSIG_FENCE_VALUE,
		KFDSIG_FENCE_SDMA_ONE_FENCE,
		KFDSIG_FENCE_SDMA_ONE_FENCE | KFDSIG_FENCE_VALUE,
		KFDSIG_FENCE_32BIT,
		KFDSIG_FENCE_INT_ONLY,
		KFDSIG_FENCE_CTXID,
		KFDSIG_FENCE_INT_ONLY | KFDSIG_FENCE_CTXID,
	};

	cap_init(&cap);
	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);

		tn = t->name;
		for (uint8_t form = 0; form < 3; form++)
			for (uint8_t cache = 0; cache < 3; cache++)
				for (size_t k = 0; k < sizeof(pm4_flags) / sizeof(pm4_flags[0]);
				     k++)
					pm4_case(t, form, cache, pm4_flags[k]);
		for (size_t k = 0; k < sizeof(sdma_flags) / sizeof(sdma_flags[0]); k++)
			sdma_case(t, sdma_flags[k]);
		bad_cases(t);
		sdma_ring_case(t, 0);
		sdma_ring_case(t, KFDSIG_SDMA_NOP_BURST);
	}
	cap_free(&cap);
	return t_result("decode_roundtrip");
}
