/* SPDX-License-Identifier: MIT */
/*
 * SDMA decoding of hand-written streams, one per packet kind (NOP single
 * and burst, FENCE in each header form, TRAP with all 28 context bits,
 * POLL_REGMEM, WRITE linear with each IP's count rule, COPY linear,
 * TIMESTAMP), and the broken ones: unknown ops, truncation, huge counts.
 * Header dword = op | sub_op << 8 | per-packet bits (*_sdma_pkt_open.h; *_sdma_pkt_open.h SDMA_PKT_FENCE; *_sdma_pkt_open.h SDMA_PKT_TRAP; sdma_v*_0.c *_ring_emit_fence(); *_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp).
 */
#include "decode_capture.h"

static struct capture cap;

#define N(a) (sizeof(a) / sizeof((a)[0]))

static long dec(const char *target, const uint32_t *dw, size_t n)
{
	return cap_decode(&cap, T(target), KFDSIG_ENGINE_SDMA, 0, 0, dw, n);
}

static void expect(size_t i, const char *name, uint32_t ndw, uint64_t offset)
{
	CHECK(i < cap.npkts && !strcmp(cap.pkts[i].p.name, name), "packet %zu is %s, expected %s",
	      i, i < cap.npkts ? cap.pkts[i].p.name : "-", name);
	if (i < cap.npkts) {
		CHECK_EQ(cap.pkts[i].p.ndw, ndw, "packet %zu (%s) length", i, name);
		CHECK_EQ(cap.pkts[i].p.offset, offset, "packet %zu (%s) offset", i, name);
	}
}

static void test_known(void)
{
	const uint32_t s[] = {
		0x00000000,			       /* NOP */
		0x00030000, 0,		0,	    0, /* burst NOP, count 3 */
		0x00000005, 0x00200150, 0x00007f00, 1, /* FENCE plain */
		0x00000006, 0x0fffffff,		       /* TRAP, all 28 bits */
		0xb4000008, 0x3000,	0,	    5,
		0xff,	    0x0fff000a, /* POLL_REGMEM */
		0x00000002, 0x4000,	0,	    1,
		0xaa,	    0xbb, /* WRITE 2 dwords (4.x count) */
		0x00000001, 0x000000ff, 0,	    0x5000,
		0,	    0x6000,	0,    /* COPY 256 bytes */
		0x0000020d, 0x7000,	0,    /* TIMESTAMP GET_GLOBAL */
		0x0000000d, 0x10,	0x20, /* TIMESTAMP SET */
	};

	CHECK_EQ(dec("gfx90a", s, N(s)), 0, "known SDMA packets");
	CHECK_EQ(cap.npkts, 9, "nine packets");
	expect(0, "NOP", 1, 0);
	expect(1, "NOP", 4, 1);
	expect(2, "FENCE", 4, 5);
	expect(3, "TRAP", 2, 9);
	expect(4, "POLL_REGMEM", 6, 11);
	expect(5, "WRITE_LINEAR", 6, 17);
	expect(6, "COPY_LINEAR", 7, 23);
	expect(7, "TIMESTAMP_GET_GLOBAL", 3, 30);
	expect(8, "TIMESTAMP_SET", 3, 33);
	CHECK_EQ(cap.nfinds, 0, "no findings");
	CHECK_EQ(cap_field(&cap, 1, "count"), 3, "burst count");
	CHECK_EQ(cap_field(&cap, 2, "addr_lo"), 0x00200150, "fence addr");
	CHECK_EQ(cap_field(&cap, 2, "data"), 1, "fence data");
	CHECK_EQ(cap_field(&cap, 3, "int_context"), 0x0fffffff, "28 context bits");
	CHECK_EQ(cap_field(&cap, 3, "reserved"), 0, "no reserved bits");
	CHECK_EQ(cap_field(&cap, 4, "mem_poll"), 1, "poll memory");
	CHECK_EQ(cap_field(&cap, 4, "hdp_flush"), 1, "hdp flush");
	CHECK_EQ(cap_field(&cap, 4, "func"), 3, "equal");
	CHECK_EQ(cap_field(&cap, 4, "retry_count"), 0xfff, "retries");
	CHECK_EQ(cap_field(&cap, 4, "interval"), 10, "interval");
	CHECK_EQ(cap_field(&cap, 5, "count"), 1, "write count");
	CHECK_EQ(cap_field(&cap, 5, "dst_addr_lo"), 0x4000, "write addr");
	CHECK_EQ(cap_field(&cap, 6, "count"), 0xff, "copy count");
	CHECK_EQ(cap_field(&cap, 6, "src_addr_lo"), 0x5000, "copy src");
	CHECK_EQ(cap_field(&cap, 6, "dst_addr_lo"), 0x6000, "copy dst");
	CHECK_EQ(cap_field(&cap, 7, "write_addr_lo"), 0x7000, "ts addr");
	CHECK_EQ(cap_field(&cap, 8, "init_data_hi"), 0x20, "ts init");

	/* SDMA 3.0 counts WRITE dwords as N: the same 2-dword write. */
	{
		const uint32_t w3[] = { 0x00000002, 0x4000, 0, 2, 0xaa, 0xbb, 0 };

		CHECK_EQ(dec("gfx803", w3, N(w3)), 0, "SDMA 3.0 WRITE");
		expect(0, "WRITE_LINEAR", 6, 0);
		expect(1, "NOP", 1, 6);
		CHECK_EQ(dec("gfx900", w3, N(w3)), 0, "read as 4.0: one more dword");
		expect(0, "WRITE_LINEAR", 7, 0);
	}
	/* FENCE header forms. */
	{
		const uint32_t nv[] = { 0x00530005, 0x1000, 0, 1 };
		const uint32_t v6[] = { 0x14530005, 0x1000, 0, 1 };

		CHECK_EQ(dec("gfx1030", nv, 4), 0, "nv fence");
		CHECK_EQ(cap_field(&cap, 0, "mtype"), 3, "mtype");
		CHECK_EQ(cap_field(&cap, 0, "sys"), 1, "sys");
		CHECK_EQ(cap_field(&cap, 0, "snp"), 1, "snp");
		CHECK_EQ(cap_field(&cap, 0, "gpa"), 0, "gpa");
		CHECK_EQ(dec("gfx1200", v6, 4), 0, "v6 fence");
		CHECK_EQ(cap_field(&cap, 0, "cpv"), 1, "cpv");
		CHECK_EQ(cap_field(&cap, 0, "llc_policy"), 1, "llc_policy");
		CHECK_EQ(dec("gfx90a", v6, 4), 0, "plain header form on 4.x");
		{
			uint32_t v;

			CHECK(kfdsig_packet_field(&cap.pkts[0].p, "mtype", &v) == -ENOENT,
			      "no mtype before SDMA 5");
		}
	}
	/* POLL_REGMEM v6 header has cache_policy and cpv. */
	{
		const uint32_t p[] = { 0x81300008, 0x3000, 0, 5, 0xff, 0x0000000a };

		CHECK_EQ(dec("gfx1100", p, N(p)), 0, "v6 poll");
		CHECK_EQ(cap_field(&cap, 0, "cache_policy"), 3, "cache_policy");
		CHECK_EQ(cap_field(&cap, 0, "cpv"), 1, "cpv");
		CHECK_EQ(cap_field(&cap, 0, "mem_poll"), 1, "mem_poll");
	}
}

/*
 * A kernel SDMA ring: the packets amdgpu writes around a fence, spelled out
 * from sdma_v4_0_ring_emit_ib (INDIRECT: OP(4) | VMID(3) << 16, base
 * 0x00100000 & ~0x1f, base hi, length_dw, 0, 0), sdma_v4_0_ring_emit_wreg
 * (SRBM_WRITE: OP(14) | BYTE_EN(0xf) << 28, reg, value) and
 * sdma_v5_0_ring_emit_mem_sync (GCR_REQ: OP(17), four payload dwords). The
 * IB base and the register offset have a zero low byte: read as NOP
 * headers they would swallow the FENCE and TRAP that follow.
 */
static void test_kernel_ring(void)
{
	const uint32_t v4[] = {
		0x00030004, 0x00100000, 0x00000000, 0x00000040, 0, 0, /* INDIRECT */
		0xf000000e, 0x00050000, 0x00000001,		      /* SRBM_WRITE */
		0x00000005, 0x00200150, 0x00007f00, 1,		      /* FENCE */
		0x00000006, 42,					      /* TRAP */
	};
	const uint32_t v5[] = {
		0x00000011, 0,	0x001f0000, 0x00000007, 0, /* GCR_REQ */
		0x00000006, 42,				   /* TRAP */
	};

	CHECK_EQ(dec("gfx90a", v4, N(v4)), 0, "kernel ring, SDMA 4.4");
	CHECK_EQ(cap.npkts, 4, "INDIRECT, SRBM_WRITE, FENCE, TRAP");
	expect(0, "INDIRECT", 6, 0);
	expect(1, "SRBM_WRITE", 3, 6);
	expect(2, "FENCE", 4, 9);
	expect(3, "TRAP", 2, 13);
	CHECK_EQ(cap.nfinds, 0, "no findings");
	CHECK_EQ(cap_field(&cap, 0, "vmid"), 3, "IB vmid");
	CHECK_EQ(cap_field(&cap, 0, "ib_base_lo"), 0x00100000, "IB base");
	CHECK_EQ(cap_field(&cap, 0, "ib_size"), 0x40, "IB size");
	CHECK_EQ(cap_field(&cap, 1, "byte_en"), 0xf, "byte enable");
	CHECK_EQ(cap_field(&cap, 1, "reg"), 0x00050000, "register");
	CHECK_EQ(cap_field(&cap, 1, "value"), 1, "value");
	CHECK_EQ(cap_field(&cap, 3, "int_context"), 42, "TRAP after the kernel packets");
	/* The same on SDMA 3.0 (sdma_v3_0_ring_emit_ib / _emit_wreg). */
	CHECK_EQ(dec("gfx803", v4, N(v4)), 0, "kernel ring, SDMA 3.0");
	expect(3, "TRAP", 2, 13);

	CHECK_EQ(dec("gfx1030", v5, N(v5)), 0, "GCR_REQ on SDMA 5.2");
	CHECK_EQ(cap.npkts, 2, "GCR_REQ, TRAP");
	expect(0, "GCR_REQ", 5, 0);
	expect(1, "TRAP", 2, 5);
	CHECK_EQ(cap_field(&cap, 0, "payload2"), 0x001f0000, "payload");
	CHECK_EQ(dec("gfx1100", v5, N(v5)), 0, "GCR_REQ on SDMA 6.0");
	expect(1, "TRAP", 2, 5);
	/* SDMA 4.x has no op 17: unknown there. */
	dec("gfx90a", v5, N(v5));
	expect(0, "SKIPPED", 1, 0);
}

static void test_broken(void)
{
	/* Unknown ops merge into one skipped range; decoding resumes at the NOP. */
	{
		const uint32_t s[] = { 0x00000003, 0x12345603, 0x00000007, 0, 0x00000006, 5 };

		CHECK_EQ(dec("gfx90a", s, N(s)), 0, "unknown run");
		CHECK_EQ(cap.npkts, 3, "SKIPPED, NOP, TRAP");
		expect(0, "SKIPPED", 3, 0);
		expect(1, "NOP", 1, 3);
		expect(2, "TRAP", 2, 4);
		CHECK_EQ(cap.pkts[0].p.opcode, 3, "first skipped dword kept");
		CHECK(cap.pkts[0].p.flags & KFDSIG_PACKET_SKIPPED, "skipped flag");
		CHECK_EQ(cap_count(&cap, "resync", KFDSIG_SEV_WARNING), 1, "one finding");
	}
	/* Tiled WRITE (sub_op 1) is not WRITE linear. */
	{
		const uint32_t s[] = { 0x00000102, 0 };

		dec("gfx90a", s, N(s));
		expect(0, "SKIPPED", 1, 0);
		expect(1, "NOP", 1, 1);
	}
	/* Truncated FENCE. */
	{
		const uint32_t s[] = { 0x00000006, 1, 0x00000005, 0x1000 };

		CHECK_EQ(dec("gfx90a", s, N(s)), 1, "truncated fence");
		expect(1, "FENCE", 4, 2);
		CHECK(cap.pkts[1].p.flags & KFDSIG_PACKET_TRUNCATED, "truncated flag");
		CHECK_EQ(cap.pkts[1].p.avail, 2, "2 dwords present");
		CHECK_EQ(cap_count(&cap, "truncated", KFDSIG_SEV_ERROR), 1, "finding");
	}
	/* WRITE cut before its count dword, and a huge count. */
	{
		const uint32_t s[] = { 0x00000002, 0x1000 };
		const uint32_t h[] = { 0x00000002, 0x1000, 0, 0x000fffff, 1, 2 };

		CHECK_EQ(dec("gfx90a", s, N(s)), 1, "cut write");
		CHECK(cap.pkts[0].p.flags & KFDSIG_PACKET_TRUNCATED, "cut write truncated");
		CHECK_EQ(dec("gfx90a", h, N(h)), 1, "huge write");
		CHECK_EQ(cap.pkts[0].p.ndw, 4 + 0xfffff + 1, "huge length");
		CHECK_EQ(cap.pkts[0].p.avail, 6, "present");
	}
	/* A burst NOP longer than the data. */
	{
		const uint32_t s[] = { 0x3fff0000, 0, 0 };

		CHECK_EQ(dec("gfx90a", s, N(s)), 1, "cut burst");
		CHECK_EQ(cap.pkts[0].p.ndw, 0x4000, "burst length");
	}
	/* WRITE count 0 on SDMA 3.0 writes nothing. */
	{
		const uint32_t s[] = { 0x00000002, 0x1000, 0, 0 };

		CHECK_EQ(dec("gfx803", s, N(s)), 0, "count 0 on 3.0");
		CHECK_EQ(cap_count(&cap, "count-mismatch", KFDSIG_SEV_WARNING), 1, "warned");
	}
}

int main(void)
{
	cap_init(&cap);
	test_known();
	test_kernel_ring();
	test_broken();
	cap_free(&cap);
	return t_result("decode_sdma");
}
