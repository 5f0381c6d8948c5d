/* SPDX-License-Identifier: MIT */
/*
 * GC 12.1 packets after "drm/amdgpu: update cp packets for gfx v12_1"
 * (commit 90ddf2794258, gfx_v12_1_pkt.h): the gfx1250 field lists (RELEASE_MEM
 * ADD_DOORBELL_OFFSET in dword 2 bit 28; WRITE_DATA and WAIT_REG_MEM without
 * ENGINE_SEL, with SCOPE/MODE and die ids), the removed opcodes an error of
 * the decoder on gfx1250 only, the fence dword 1 of gfx_v12_1_ring_emit_fence()
 * exactly, and the v12_1 bit-24 drop in the lint.
 */
#include <kfdsig/pm4.h>

#include "decode_capture.h"

static struct capture cap;

static const struct kfdsig_field *field(const struct kfdsig_packet_desc *d, const char *name)
{
	for (size_t i = 0; d && i < d->nfields; i++)
		if (!strcmp(d->fields[i].name, name))
			return &d->fields[i];
	return NULL;
}

static void test_layouts(void)
{
	const struct kfdsig_target *g1250 = T("gfx1250"), *g1201 = T("gfx1201");
	const struct kfdsig_packet_desc *rm = kfdsig_pm4_packet_desc(g1250, 0x49);
	const struct kfdsig_packet_desc *wd = kfdsig_pm4_packet_desc(g1250, 0x37);
	const struct kfdsig_packet_desc *wrm = kfdsig_pm4_packet_desc(g1250, 0x3c);
	const struct kfdsig_packet_desc *ib = kfdsig_pm4_packet_desc(g1250, 0x3f);
	const struct kfdsig_field *f;

	f = field(rm, "add_doorbell_offset");
	CHECK(f && f->dw == 2 && f->shift == 28 && f->width == 1,
	      "gfx1250 RELEASE_MEM add_doorbell_offset at dword 2 bit 28");
	CHECK(!field(kfdsig_pm4_packet_desc(g1201, 0x49), "add_doorbell_offset"),
	      "gfx1201 RELEASE_MEM: no add_doorbell_offset");
	CHECK(wd && !field(wd, "engine_sel") && !field(wd, "cache_policy") && field(wd, "scope") &&
		      field(wd, "mode") && field(wd, "xcd_die_id") && field(wd, "addr_incr"),
	      "gfx1250 WRITE_DATA: no engine_sel/cache_policy, scope/mode/die ids");
	f = field(wd, "xcd_die_id");
	CHECK(f && f->dw == 1 && f->shift == 21 && f->width == 4, "WRITE_DATA xcd_die_id [24:21]");
	CHECK(field(kfdsig_pm4_packet_desc(g1201, 0x37), "engine_sel"), "gfx1201 keeps engine_sel");
	CHECK(wrm && !field(wrm, "engine") && field(wrm, "mes_intr_pipe") && field(wrm, "temporal"),
	      "gfx1250 WAIT_REG_MEM: no engine, MES and temporal fields");
	f = field(wrm, "mode");
	CHECK(f && f->dw == 1 && f->shift == 10 && f->width == 2, "WAIT_REG_MEM mode [11:10]");
	CHECK(ib && !field(ib, "pre_ena") && field(ib, "temporal"),
	      "gfx1250 INDIRECT_BUFFER: temporal, no pre_ena");
}

static void test_fence(void)
{
	uint32_t d[16];
	struct kfdsig_fence f = { .slot_va = 0x7f0000000028ull, .event_id = 5 };

	CHECK_EQ(kfdsig_pm4_emit_fence(T("gfx1250"), &f, d, 16), 8, "gfx1250 fence");
	/* gfx_v12_1_ring_emit_fence(): GCR_SEQ(1) | GCR_GLV_WB | GCR_GL2_WB |
	 * GCR_GL2_SCOPE(2) | TEMPORAL(3) | CACHE_FLUSH_AND_INV_TS | index 5 */
	CHECK_EQ(d[1], 0x07602514u, "the kernel's DW1, no invalidate bits");
}

static void test_removed(void)
{
	static const uint32_t s[] = {
		0xc0044700,
		0x00000514,
		0x00000028,
		0x42007f00,
		0x00000001,
		0x00000000, /* EOP */
		0xc0013900,
		0x00001000,
		0x00000000, /* MEM_SEM */
		0xc0003f00 | (2u << 16),
		0x1000,
		0,
		0x00800004, /* INDIRECT_BUFFER: kept */
	};

	cap_decode(&cap, T("gfx1250"), KFDSIG_ENGINE_PM4, 0, 0, s, sizeof(s) / 4);
	CHECK_EQ(cap_count(&cap, "removed-opcode", KFDSIG_SEV_ERROR), 2,
		 "gfx1250: EVENT_WRITE_EOP and MEM_SEMAPHORE are errors");
	CHECK_EQ(cap_count(&cap, "unknown-opcode", -1), 0, "gfx1250: not merely unknown");
	cap_decode(&cap, T("gfx1201"), KFDSIG_ENGINE_PM4, 0, 0, s, sizeof(s) / 4);
	CHECK_EQ(cap_count(&cap, "removed-opcode", -1), 0, "gfx1201: no removed opcode");
	CHECK_EQ(cap_count(&cap, "unknown-opcode", KFDSIG_SEV_INFO), 2, "gfx1201: unknown (info)");
}

static void test_bit24(void)
{
	uint32_t d[16];
	KFDSIG_OPTS(kfdsig_decode_opts, o, .engine = KFDSIG_ENGINE_PM4);
	struct kfdsig_decode_sink sink = cap_sink(&cap);
	struct kfdsig_fence f = { .slot_va = 0x7f0000000028ull, .event_id = 5 };

	CHECK_EQ(kfdsig_pm4_emit_fence(T("gfx1250"), &f, d, 16), 8, "fence");
	d[7] = 5u | 1u << 24;
	o.target = T("gfx1250");
	cap_reset(&cap);
	kfdsig_lint(&o, &sink, d, 8, NULL);
	CHECK_EQ(cap_count(&cap, "ctxid-bit24", KFDSIG_SEV_ERROR), 1,
		 "the v12_1 ISR drops bit 24 too (kfd_int_process_v12_1.c)");
}

int main(void)
{
	cap_init(&cap);
	test_layouts();
	test_fence();
	test_removed();
	test_bit24();
	cap_free(&cap);
	return t_result("pm4_gc12_1");
}
