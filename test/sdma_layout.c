/* SPDX-License-Identifier: MIT */
/*
 * SDMA field layouts and packet lengths: every packet's fields sit inside
 * the packet and do not overlap, the FENCE header form follows the SDMA IP,
 * and lengths come from NOP/WRITE counts (WRITE counts N on SDMA 3.x, N - 1
 * from 4.0: sdma_v3_0 vs sdma_v4_0_ring_test_ring). Hand-written packets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static const struct kfdsig_field *field(const struct kfdsig_packet_desc *d, const char *name)
{
	for (unsigned i = 0; d && i < d->nfields; i++)
		if (!strcmp(d->fields[i].name, name))
			return &d->fields[i];
	return NULL;
}

static void check_desc_sane(const struct kfdsig_target *t, const struct kfdsig_packet_desc *d)
{
	uint32_t used[16] = { 0 };

	for (unsigned i = 0; i < d->nfields; i++) {
		const struct kfdsig_field *f = &d->fields[i];
		uint32_t mask;

		CHECK(f->dw < d->min_dw && f->dw < 16, "%s %s: field %s outside the packet",
		      t->name, d->name, f->name);
		CHECK(f->width >= 1 && f->shift + f->width <= 32, "%s %s: field %s bits", t->name,
		      d->name, f->name);
		if (f->dw >= 16 || f->shift + f->width > 32)
			continue;
		mask = f->width == 32 ? UINT32_MAX : ((1u << f->width) - 1) << f->shift;
		CHECK(!(used[f->dw] & mask), "%s %s: field %s overlaps", t->name, d->name, f->name);
		used[f->dw] |= mask;
		for (unsigned k = 0; k < i; k++)
			CHECK(strcmp(d->fields[k].name, f->name), "%s %s: field %s twice", t->name,
			      d->name, f->name);
	}
	/* Every dword of the fixed part is named by some field. */
	for (unsigned dw = 0; dw < d->min_dw && dw < 16; dw++)
		CHECK(used[dw], "%s %s: dword %u has no field", t->name, d->name, dw);
}

static void test_descs(void)
{
	static const struct {
		unsigned op, sub_op;
		const char *name;
		unsigned dw;
	} known[] = {
		{ 0, 0, "NOP", 1 },
		{ 1, 0, "COPY_LINEAR", 7 },
		{ 2, 0, "WRITE_LINEAR", 4 },
		{ 5, 0, "FENCE", 4 },
		{ 6, 0, "TRAP", 2 },
		{ 8, 0, "POLL_REGMEM", 6 },
		{ 13, 0, "TIMESTAMP_SET", 3 },
		{ 13, 1, "TIMESTAMP_GET", 3 },
		{ 13, 2, "TIMESTAMP_GET_GLOBAL", 3 },
	};

	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);

		for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++) {
			const struct kfdsig_packet_desc *d =
				kfdsig_sdma_packet_desc(t, known[k].op, known[k].sub_op);

			CHECK(d != NULL, "%s: no layout for %s", t->name, known[k].name);
			if (!d)
				continue;
			CHECK(!strcmp(d->name, known[k].name), "%s: %s named %s", t->name,
			      known[k].name, d->name);
			CHECK_EQ(d->min_dw, known[k].dw, "%s %s length", t->name, d->name);
			CHECK_EQ(d->opcode, known[k].op, "%s %s opcode", t->name, d->name);
			check_desc_sane(t, d);
		}
		/* The FENCE header has mtype from SDMA 5 on, cpv from SDMA 6 on. */
		{
			const struct kfdsig_packet_desc *d = kfdsig_sdma_packet_desc(t, 5, 0);

			CHECK((field(d, "mtype") != NULL) == (t->sdma_ip[0] >= 5),
			      "%s: FENCE mtype field", t->name);
			CHECK((field(d, "cpv") != NULL) == (t->sdma_ip[0] >= 6),
			      "%s: FENCE cpv field", t->name);
		}
	}
	errno = 0;
	CHECK(kfdsig_sdma_packet_desc(t_target("gfx90a"), 3, 0) == NULL && errno == ENOENT,
	      "op 3 has no layout");
	CHECK(kfdsig_sdma_packet_desc(t_target("gfx90a"), 1, 1) == NULL,
	      "tiled COPY has no layout");
	CHECK(kfdsig_sdma_packet_desc(t_target("gfx90a"), 13, 3) == NULL, "TIMESTAMP sub-op 3");
	errno = 0;
	CHECK(kfdsig_sdma_packet_desc(NULL, 5, 0) == NULL && errno == EINVAL, "NULL target");
}

static void test_fields(void)
{
	/* kfdtest's NV FENCE header: snp | sys | mtype 3 | op 5. */
	const uint32_t fence[] = { 0x00530005, 0x00200150, 0x00007f00, 1 };
	const uint32_t trap[] = { 0x00000006, 0xf000002a };
	const uint32_t poll[] = { 0xb4000008, 0x1000, 0x2, 0x5, 0xff, 0x0fff000a };
	const struct kfdsig_packet_desc *d;

	d = kfdsig_sdma_packet_desc(t_target("gfx1100"), 5, 0);
	CHECK_EQ(kfdsig_field_get(field(d, "mtype"), fence), 3, "mtype");
	CHECK_EQ(kfdsig_field_get(field(d, "sys"), fence), 1, "sys");
	CHECK_EQ(kfdsig_field_get(field(d, "snp"), fence), 1, "snp");
	CHECK_EQ(kfdsig_field_get(field(d, "gpa"), fence), 0, "gpa");
	CHECK_EQ(kfdsig_field_get(field(d, "addr_lo"), fence), 0x00200150, "addr_lo");
	CHECK_EQ(kfdsig_field_get(field(d, "data"), fence), 1, "data");
	d = kfdsig_sdma_packet_desc(t_target("gfx90a"), 6, 0);
	CHECK_EQ(kfdsig_field_get(field(d, "int_context"), trap), 42, "int_context 28 bits");
	CHECK_EQ(kfdsig_field_get(field(d, "reserved"), trap), 0xf, "trap bits 31:28");
	d = kfdsig_sdma_packet_desc(t_target("gfx90a"), 8, 0);
	CHECK_EQ(kfdsig_field_get(field(d, "func"), poll), 3, "poll func equal");
	CHECK_EQ(kfdsig_field_get(field(d, "mem_poll"), poll), 1, "poll memory");
	CHECK_EQ(kfdsig_field_get(field(d, "hdp_flush"), poll), 1, "hdp flush");
	CHECK_EQ(kfdsig_field_get(field(d, "interval"), poll), 10, "interval");
	CHECK_EQ(kfdsig_field_get(field(d, "retry_count"), poll), 0xfff, "retry_count");
}

static void test_lengths(void)
{
	const uint32_t nop1[] = { 0 }, nop9[] = { 0x00080000 };
	/* WRITE linear of 2 data dwords, as each IP counts them. */
	const uint32_t write_v3[] = { 0x00000002, 0x1000, 0, 2, 7, 8 };
	const uint32_t write_v4[] = { 0x00000002, 0x1000, 0, 1, 7, 8 };
	const uint32_t fence[] = { 5, 0, 0, 0 }, trap[] = { 6, 0 }, copy[] = { 1 };
	const uint32_t ts[] = { 0x0000020d }, unknown[] = { 0x00000003 }, tiled[] = { 0x0102 };

	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx90a"), nop1, 1), 1, "NOP");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx90a"), nop9, 1), 9, "burst NOP (length > n)");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx803"), write_v3, 6), 6, "WRITE on SDMA 3.0");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx900"), write_v4, 6), 6, "WRITE on SDMA 4.0");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx1100"), write_v4, 6), 6, "WRITE on SDMA 6.0");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx900"), write_v3, 6), 7, "v3 count read on v4");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx900"), write_v4, 3), -ENODATA, "WRITE cut");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx900"), fence, 1), 4, "FENCE");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx900"), trap, 1), 2, "TRAP");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx900"), copy, 1), 7, "COPY");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx900"), ts, 1), 3, "TIMESTAMP");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx900"), unknown, 1), -ENOENT, "unknown op");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx900"), tiled, 1), -ENOENT, "tiled write");
	CHECK_EQ(kfdsig_sdma_packet_dw(t_target("gfx900"), nop1, 0), -EINVAL, "no dwords");
	CHECK_EQ(kfdsig_sdma_packet_dw(NULL, nop1, 1), -EINVAL, "no target");
}

int main(void)
{
	test_descs();
	test_fields();
	test_lengths();
	return t_result("sdma_layout");
}
