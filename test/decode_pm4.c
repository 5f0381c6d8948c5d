/* SPDX-License-Identifier: MIT */
/*
 * PM4 decoding of hand-written streams, one per packet kind, plus the
 * broken ones: truncated packets, unknown opcodes, count mismatches, type-0
 * and type-1 headers, and resynchronisation after each. Headers are spelled
 * out as PACKET3(op, n) = 0xC0000000 | n << 16 | op << 8 (vid.h / soc15d.h / nvd.h PACKET3()).
 */
#include "decode_capture.h"

static struct capture cap;

struct want {
	const char *name;
	uint32_t ndw;
	uint64_t offset;
};

static void expect_packets(const char *what, const struct want *w, size_t n)
{
	CHECK_EQ(cap.npkts, n, "%s: packet count", what);
	for (size_t i = 0; i < n && i < cap.npkts; i++) {
		CHECK(!strcmp(cap.pkts[i].p.name, w[i].name), "%s: packet %zu is %s, expected %s",
		      what, i, cap.pkts[i].p.name, w[i].name);
		CHECK_EQ(cap.pkts[i].p.ndw, w[i].ndw, "%s: packet %zu length", what, i);
		CHECK_EQ(cap.pkts[i].p.offset, w[i].offset, "%s: packet %zu offset", what, i);
	}
}

static long dec(const char *target, const uint32_t *dw, size_t n)
{
	return cap_decode(&cap, T(target), KFDSIG_ENGINE_PM4, 0, 0, dw, n);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_nops(void)
{
	const uint32_t s[] = {
		0xffff1000,		      /* amdgpu ring filler: one dword */
		0xffff1002,		      /* kfdtest filler (shader type set) */
		0x80000000,		      /* type-2 filler */
		0xc0001000, 0xdead0000,	      /* PACKET3(NOP, 0): 2 dwords */
		0xc0021000, 1,		2, 3, /* PACKET3(NOP, 2): 4 dwords */
	};
	const struct want w[] = {
		{ "NOP", 1, 0 }, { "NOP", 1, 1 }, { "NOP_TYPE2", 1, 2 },
		{ "NOP", 2, 3 }, { "NOP", 4, 5 },
	};

	CHECK_EQ(dec("gfx90a", s, N(s)), 0, "NOP forms: no errors");
	expect_packets("NOP forms", w, N(w));
	CHECK_EQ(cap.nfinds, 0, "NOP forms: no findings");
	CHECK_EQ(cap_field(&cap, 1, "shader_type"), 1, "kfdtest filler shader type");
}

static void test_release_mem(void)
{
	/* gfx_v9_0_ring_emit_fence with the interrupt and a context id. */
	const uint32_t gfx9[] = { 0xc0064900, 0x00238514, 0x42000000, 0x00200150,
				  0x00007f00, 0x00000001, 0x00000000, 0x0000002a };
	/* gfx_v10_0_ring_emit_fence: SEQ GL2_WB GL2_INV GL2_US GL1_INV GLV_INV
	 * GLM_INV GLM_WB, cache policy 3, event 0x14 index 5. */
	const uint32_t gfx10[] = { 0xc0064900, 0x0671f514, 0x42000000, 0x00001000, 0, 7, 0, 9 };
	/* gfx_v8_0_ring_emit_fence_compute: 7 dwords, 32-bit data. */
	const uint32_t gfx8[] = { 0xc0054900, 0x00038514, 0x22000000, 0x00001000, 0, 5, 0 };

	CHECK_EQ(dec("gfx90a", gfx9, N(gfx9)), 0, "gfx9 RELEASE_MEM");
	CHECK_EQ(cap.npkts, 1, "one packet");
	CHECK_EQ(cap_field(&cap, 0, "event_type"), 0x14, "event");
	CHECK_EQ(cap_field(&cap, 0, "event_index"), 5, "index");
	CHECK_EQ(cap_field(&cap, 0, "tc_md_action_ena"), 1, "tc_md");
	CHECK_EQ(cap_field(&cap, 0, "tc_wb_action_ena"), 1, "tc_wb");
	CHECK_EQ(cap_field(&cap, 0, "tcl1_action_ena"), 1, "tcl1");
	CHECK_EQ(cap_field(&cap, 0, "tc_nc_action_ena"), 0, "tc_nc");
	CHECK_EQ(cap_field(&cap, 0, "int_sel"), 2, "int_sel");
	CHECK_EQ(cap_field(&cap, 0, "data_sel"), 2, "data_sel");
	CHECK_EQ(cap_field(&cap, 0, "address_lo"), 0x00200150, "addr");
	CHECK_EQ(cap_field(&cap, 0, "int_ctxid"), 42, "ctxid");

	CHECK_EQ(dec("gfx1030", gfx10, N(gfx10)), 0, "gfx10 RELEASE_MEM");
	CHECK_EQ(cap_field(&cap, 0, "gcr_seq"), 1, "seq");
	CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_wb"), 1, "gl2_wb");
	CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_inv"), 1, "gl2_inv");
	CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_us"), 1, "gl2_us");
	CHECK_EQ(cap_field(&cap, 0, "gcr_gl1_inv"), 1, "gl1_inv");
	CHECK_EQ(cap_field(&cap, 0, "gcr_glv_inv"), 1, "glv_inv");
	CHECK_EQ(cap_field(&cap, 0, "gcr_glm_inv"), 1, "glm_inv");
	CHECK_EQ(cap_field(&cap, 0, "gcr_glm_wb"), 1, "glm_wb");
	CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_range"), 0, "gl2_range");
	CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_discard"), 0, "gl2_discard");
	CHECK_EQ(cap_field(&cap, 0, "cache_policy"), 3, "bypass");
	CHECK_EQ(cap_field(&cap, 0, "data_lo"), 7, "data");
	CHECK_EQ(cap_field(&cap, 0, "int_ctxid"), 9, "ctxid");

	/* GC 12.1, gfx_v12_1_ring_emit_fence (gfx_v12_1_pkt.h): SEQ(1) 1<<22,
	 * GLV_WB 1<<24, GL2_WB 1<<21, GL2_SCOPE(2) 2<<12, TEMPORAL(3) 3<<25,
	 * event 0x14 index 5 = 0x07602514. */
	{
		const uint32_t gc121[] = { 0xc0064900, 0x07602514, 0x42000000, 0x00001000,
					   0,	       7,	   0,	       9 };
		/* ACQUIRE_MEM, GCR_CNTL: GL2_SCOPE(1) 1<<4, GLV_WB 1<<6, GLV_INV
		 * 1<<8, GL2_WB 1<<15, SEQ(1) 1<<16 = 0x00018150. */
		const uint32_t acq[] = { 0xc0065800, 0, 0xffffffff, 0, 0, 0, 0x0a, 0x00018150 };

		CHECK_EQ(dec("gfx1250", gc121, N(gc121)), 0, "GC 12.1 RELEASE_MEM");
		CHECK_EQ(cap_field(&cap, 0, "gcr_seq"), 1, "12.1 seq");
		CHECK_EQ(cap_field(&cap, 0, "gcr_glv_wb"), 1, "12.1 glv_wb");
		CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_wb"), 1, "12.1 gl2_wb");
		CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_scope"), 2, "12.1 gl2_scope");
		CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_inv"), 0, "12.1 gl2_inv");
		CHECK_EQ(cap_field(&cap, 0, "temporal"), 3, "12.1 temporal");
		CHECK_EQ(cap_field(&cap, 0, "int_ctxid"), 9, "12.1 ctxid");
		CHECK_EQ(dec("gfx1250", acq, N(acq)), 0, "GC 12.1 ACQUIRE_MEM");
		CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_scope"), 1, "acquire gl2_scope");
		CHECK_EQ(cap_field(&cap, 0, "gcr_glv_wb"), 1, "acquire glv_wb");
		CHECK_EQ(cap_field(&cap, 0, "gcr_glv_inv"), 1, "acquire glv_inv");
		CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_wb"), 1, "acquire gl2_wb");
		CHECK_EQ(cap_field(&cap, 0, "gcr_seq"), 1, "acquire seq");
		CHECK_EQ(cap_field(&cap, 0, "gcr_glk_inv"), 0, "acquire glk_inv");
	}

	CHECK_EQ(dec("gfx803", gfx8, N(gfx8)), 0, "gfx8 RELEASE_MEM");
	CHECK_EQ(cap.pkts[0].p.ndw, 7, "gfx8 length");
	CHECK_EQ(cap_field(&cap, 0, "data_sel"), 1, "32-bit");
	CHECK_EQ(cap_field(&cap, 0, "data_lo"), 5, "gfx8 data");
	/* The same 7-dword packet on gfx9 is short by one. */
	CHECK_EQ(dec("gfx900", gfx8, N(gfx8)), 1, "gfx8 form on gfx9");
	CHECK_EQ(cap_count(&cap, "count-mismatch", KFDSIG_SEV_ERROR), 1, "short RELEASE_MEM");
	{
		uint32_t v;

		CHECK(kfdsig_packet_field(&cap.pkts[0].p, "int_ctxid", &v) == -ENODATA,
		      "int_ctxid beyond the packet is not decoded");
	}
}

static void test_other_packets(void)
{
	const uint32_t s[] = {
		/* EVENT_WRITE CS_PARTIAL_FLUSH, index 4 (gfx_v9_0.c) */
		0xc0004600,
		0x00000407,
		/* WRITE_DATA dst memory, confirm, one dword */
		0xc0033700,
		0x00100500,
		0x00002000,
		0x0000007f,
		0x11223344,
		/* WAIT_REG_MEM memory ==, poll interval 10 */
		0xc0053c00,
		0x00000013,
		0x00003000,
		0,
		0x5,
		0xffffffff,
		0x0000000a,
		/* INDIRECT_BUFFER 64 dwords, valid, vmid 3 */
		0xc0023f00,
		0x00001000,
		0x0000007f,
		0x03800040,
		/* SET_SH_REG two values at offset 0x204 */
		0xc0027600,
		0x00000204,
		0xaaaa0000,
		0xbbbb0000,
		/* DISPATCH_DIRECT 4 x 2 x 1, initiator 1 */
		0xc0031500,
		4,
		2,
		1,
		1,
		/* ACQUIRE_MEM gfx9 form */
		0xc0055800,
		0x28c00000,
		0xffffffff,
		0x000000ff,
		0,
		0,
		0x0000000a,
	};
	const struct want w[] = {
		{ "EVENT_WRITE", 2, 0 },      { "WRITE_DATA", 5, 2 },  { "WAIT_REG_MEM", 7, 7 },
		{ "INDIRECT_BUFFER", 4, 14 }, { "SET_SH_REG", 4, 18 }, { "DISPATCH_DIRECT", 5, 22 },
		{ "ACQUIRE_MEM", 7, 27 },
	};

	CHECK_EQ(dec("gfx906", s, N(s)), 0, "other packets");
	expect_packets("other packets", w, N(w));
	CHECK_EQ(cap.nfinds, 0, "other packets: no findings");
	CHECK_EQ(cap_field(&cap, 0, "event_type"), 7, "CS_PARTIAL_FLUSH");
	CHECK_EQ(cap_field(&cap, 0, "event_index"), 4, "partial flush index");
	CHECK_EQ(cap_field(&cap, 1, "dst_sel"), 5, "memory");
	CHECK_EQ(cap_field(&cap, 1, "wr_confirm"), 1, "confirm");
	CHECK_EQ(cap_field(&cap, 1, "dst_addr_hi"), 0x7f, "wd addr hi");
	CHECK_EQ(cap_field(&cap, 2, "function"), 3, "equal");
	CHECK_EQ(cap_field(&cap, 2, "mem_space"), 1, "memory");
	CHECK_EQ(cap_field(&cap, 2, "reference"), 5, "ref");
	CHECK_EQ(cap_field(&cap, 2, "mask"), 0xffffffff, "mask");
	CHECK_EQ(cap_field(&cap, 2, "poll_interval"), 10, "interval");
	CHECK_EQ(cap_field(&cap, 3, "ib_size"), 64, "ib size");
	CHECK_EQ(cap_field(&cap, 3, "valid"), 1, "valid");
	CHECK_EQ(cap_field(&cap, 3, "vmid"), 3, "vmid");
	CHECK_EQ(cap_field(&cap, 3, "ib_base_hi"), 0x7f, "ib hi");
	CHECK_EQ(cap_field(&cap, 4, "reg_offset"), 0x204, "sh reg");
	CHECK_EQ(cap.pkts[4].dw[2], 0xaaaa0000, "sh value");
	CHECK_EQ(cap_field(&cap, 5, "dim_x"), 4, "dim x");
	CHECK_EQ(cap_field(&cap, 5, "dim_y"), 2, "dim y");
	CHECK_EQ(cap_field(&cap, 5, "compute_shader_en"), 1, "initiator: compute shader enable");
	CHECK_EQ(cap_field(&cap, 6, "coher_cntl"), 0x28c00000, "coher cntl");
	CHECK_EQ(cap_field(&cap, 6, "coher_size_hi"), 0xff, "size hi");

	/* ACQUIRE_MEM gfx10 form with GCR_CNTL: GL2_INV GL2_WB SEQ forward. */
	{
		const uint32_t a[] = { 0xc0065800, 0, 0xffffffff, 0xffffff, 0, 0, 0xa, 0x0001c000 };

		CHECK_EQ(dec("gfx1100", a, N(a)), 0, "ACQUIRE_MEM nv");
		CHECK_EQ(cap.pkts[0].p.ndw, 8, "nv length");
		CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_inv"), 1, "acq gl2_inv");
		CHECK_EQ(cap_field(&cap, 0, "gcr_gl2_wb"), 1, "acq gl2_wb");
		CHECK_EQ(cap_field(&cap, 0, "gcr_seq"), 1, "acq seq forward");
		CHECK_EQ(cap_field(&cap, 0, "gcr_glm_wb"), 0, "acq glm_wb");
		CHECK_EQ(cap.nfinds, 0, "no findings");
		/* The 8-dword form on gfx9 is one too long. */
		CHECK_EQ(dec("gfx900", a, N(a)), 0, "nv form on gfx9: warning only");
		CHECK_EQ(cap_count(&cap, "count-mismatch", KFDSIG_SEV_WARNING), 1, "too long");
	}
	/* EVENT_WRITE_EOP decodes on gfx8 only. */
	{
		const uint32_t e[] = { 0xc0044700, 0x00038514, 0x00001000, 0x42000000, 3, 0 };

		CHECK_EQ(dec("gfx802", e, N(e)), 0, "EOP gfx8");
		CHECK(!strcmp(cap.pkts[0].p.name, "EVENT_WRITE_EOP"), "EOP name");
		CHECK_EQ(cap_field(&cap, 0, "int_sel"), 2, "eop int_sel");
		CHECK_EQ(cap_field(&cap, 0, "data_lo"), 3, "eop data");
		CHECK_EQ(dec("gfx90a", e, N(e)), 0, "EOP gfx9: unknown, info");
		CHECK(!strcmp(cap.pkts[0].p.name, "UNKNOWN"), "EOP on gfx9 is UNKNOWN");
		CHECK_EQ(cap.pkts[0].p.ndw, 6, "unknown keeps its length");
		CHECK_EQ(cap_count(&cap, "unknown-opcode", KFDSIG_SEV_INFO), 1, "info");
	}
}

static void test_broken(void)
{
	/* Unknown opcode, NOP, type-0 and type-1 run (skipped as one range),
	 * short RELEASE_MEM, good packet. */
	const uint32_t s[] = {
		0xc0017700, 1,		2, /* PACKET3(0x77, 1): unknown, a NOP follows */
		0xc0001000, 0,		   /* NOP */
		0x00012c40, 5,		6, /* type 0, count 1: skipped */
		0x40000000, 0x40000001,	   /* type 1 x2: skipped */
		0xc0044900, 0x00238514, 0x42000000, 0,		0, 0, /* RELEASE_MEM count 4 */
		0xc0001000, 0,					      /* NOP */
		0xc0074900, 0x00238514, 0x42000000, 0x00001000, 0, 1, 0, 9, 7, /* count 7 */
	};
	const struct want w[] = {
		{ "UNKNOWN", 3, 0 },	  { "NOP", 2, 3 },  { "SKIPPED", 5, 5 },
		{ "RELEASE_MEM", 6, 10 }, { "NOP", 2, 16 }, { "RELEASE_MEM", 9, 18 },
	};

	CHECK_EQ(dec("gfx90a", s, N(s)), 1, "broken stream: one error");
	expect_packets("broken", w, N(w));
	CHECK_EQ(cap_count(&cap, "unknown-opcode", KFDSIG_SEV_INFO), 1, "unknown type 3");
	CHECK_EQ(cap_count(&cap, "resync", KFDSIG_SEV_WARNING), 1, "type 0 + type 1 run");
	CHECK_EQ(cap_count(&cap, "count-mismatch", KFDSIG_SEV_ERROR), 1, "short RELEASE_MEM");
	CHECK_EQ(cap_count(&cap, "count-mismatch", KFDSIG_SEV_WARNING), 1, "long RELEASE_MEM");
	CHECK_EQ(cap.pkts[0].p.opcode, 0x77, "unknown opcode kept");
	CHECK_EQ(cap_field(&cap, 5, "int_ctxid"), 9, "after resync: decoded");

	/* Truncated at the end. */
	{
		const uint32_t t[] = { 0xc0001000, 0, 0xc0064900, 0x00238514, 0x42000000 };

		CHECK_EQ(dec("gfx90a", t, N(t)), 1, "truncated");
		CHECK_EQ(cap.npkts, 2, "NOP + truncated");
		CHECK(cap.pkts[1].p.flags & KFDSIG_PACKET_TRUNCATED, "flag");
		CHECK_EQ(cap.pkts[1].p.ndw, 8, "full length kept");
		CHECK_EQ(cap.pkts[1].p.avail, 3, "dwords present");
		CHECK_EQ(cap_field(&cap, 1, "int_sel"), 2, "present fields decode");
		CHECK_EQ(cap_count(&cap, "truncated", KFDSIG_SEV_ERROR), 1, "truncated finding");
		{
			uint32_t v;

			CHECK(kfdsig_packet_field(&cap.pkts[1].p, "address_lo", &v) == -ENODATA,
			      "absent field");
		}
	}
	/* A maximal count on the last dword cannot run past the data. */
	{
		const uint32_t t[] = { 0xfffe1000 };

		CHECK_EQ(dec("gfx90a", t, 1), 1, "max-count NOP cut");
		CHECK_EQ(cap.pkts[0].p.ndw, 0x3ffe + 2, "length from count");
		CHECK_EQ(cap.pkts[0].p.avail, 1, "one dword");
	}
	/* Empty stream. */
	CHECK_EQ(dec("gfx90a", NULL, 0), 0, "empty");
	CHECK_EQ(cap.npkts, 0, "no packets");
}

static void test_api(void)
{
	KFDSIG_OPTS(kfdsig_decode_opts, o);
	const uint32_t s[] = { 0xffff1000 };

	CHECK_EQ(kfdsig_decode(NULL, NULL, s, 1, NULL), -EINVAL, "no options");
	CHECK_EQ(kfdsig_decode(&o, NULL, s, 1, NULL), -EINVAL, "no target");
	o.target = T("gfx90a");
	o.engine = 7;
	CHECK_EQ(kfdsig_decode(&o, NULL, s, 1, NULL), -EINVAL, "bad engine");
	o.engine = KFDSIG_ENGINE_PM4;
	o.flags = 1u << 9;
	CHECK_EQ(kfdsig_decode(&o, NULL, s, 1, NULL), -EINVAL, "bad flags");
	o.flags = 0;
	o.sz = 0;
	CHECK_EQ(kfdsig_decode(&o, NULL, s, 1, NULL), -EINVAL, "sz 0");
	o.sz = sizeof(o);
	CHECK_EQ(kfdsig_decode(&o, NULL, NULL, 1, NULL), -EINVAL, "NULL dwords");
	CHECK_EQ(kfdsig_decode(&o, NULL, s, 1, NULL), 0, "NULL sink is fine");
	{
		struct kfdsig_decode_stats st;

		CHECK_EQ(kfdsig_decode(&o, NULL, s, 1, &st), 0, "stats");
		CHECK_EQ(st.packets, 1, "1 packet");
		CHECK_EQ(st.dwords, 1, "1 dword");
	}
	CHECK(!strcmp(kfdsig_severity_name(KFDSIG_SEV_ERROR), "error"), "severity name");
	CHECK(!strcmp(kfdsig_severity_name(9), "?"), "bad severity name");
}

int main(void)
{
	cap_init(&cap);
	test_nops();
	test_release_mem();
	test_other_packets();
	test_broken();
	test_api();
	cap_free(&cap);
	return t_result("decode_pm4");
}
