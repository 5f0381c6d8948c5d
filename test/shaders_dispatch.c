/* SPDX-License-Identifier: MIT */
/*
 * PM4 dispatch of a signal stub: golden packet streams written by hand from
 * the register offsets (gfx_8_0_d.h / gc_9_0_offset.h / Mesa sid.h
 * COMPUTE_* at 0x2e04.., SET_SH_REG base 0x2c00; COMPUTE_PGM_RSRC3 0x2e2d
 * on gfx90a per kfdtest, 0x2e28 on gfx10+), SET_SH_REG 0x76 and
 * DISPATCH_DIRECT 0x15 headers with the compute shader-type bit, and the
 * dispatch initiator (COMPUTE_SHADER_EN, CS_W32_EN 0x8000 for wave32).
 * The resource words come from the stub (shaders_stub checks them against
 * the kernel descriptors).
 */
#include <errno.h>
#include <string.h>

#include "helpers.h"

/* PACKET3(op, count) | shader type compute, written out. */
#define SET_SH_1 0xc0017602u
#define SET_SH_2 0xc0027602u
#define SET_SH_6 0xc0067602u
#define DISPATCH 0xc0031502u

static void raw_gfx900(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx900");
	struct kfdsig_shader_stub s;
	uint32_t buf[KFDSIG_PM4_DISPATCH_MAX_DW + 4];
	int n;

	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &s), 0, "stub");
	const uint32_t want[] = {
		SET_SH_6,
		0x204,
		0,
		0,
		0,
		1,
		1,
		1, /* START_X..Z, NUM_THREAD_X..Z */
		SET_SH_2,
		0x20c,
		0x00000010,
		0x0000007f, /* PGM_LO/HI: 0x7f0000001000 >> 8 */
		SET_SH_2,
		0x212,
		s.regs.pgm_rsrc1,
		s.regs.pgm_rsrc2,
		SET_SH_1,
		0x215,
		0, /* RESOURCE_LIMITS */
		SET_SH_1,
		0x218,
		0, /* TMPRING_SIZE */
		DISPATCH,
		1,
		1,
		1,
		0x1, /* COMPUTE_SHADER_EN */
	};
	memset(buf, 0xcc, sizeof(buf));
	n = kfdsig_pm4_emit_dispatch(&s, 0x7f0000001000ull, 0, buf, KFDSIG_PM4_DISPATCH_MAX_DW);
	CHECK_EQ(n, sizeof(want) / 4, "gfx900 raw dwords");
	CHECK_EQ(kfdsig_pm4_dispatch_dw(&s), n, "dw count");
	t_check_dwords("gfx900 raw dispatch", buf, want, sizeof(want) / 4);
	CHECK_EQ(buf[n], 0xcccccccc, "wrote past the end");
}

static void co_gfx1100(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx1100");
	const struct kfdsig_packet_desc *d;
	struct kfdsig_shader_stub s;
	uint32_t buf[KFDSIG_PM4_DISPATCH_MAX_DW];
	int n;

	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_CODE_OBJECT, &s), 0, "stub");
	const uint32_t want[] = {
		SET_SH_6,
		0x204,
		0,
		0,
		0,
		1,
		1,
		1,
		SET_SH_2,
		0x20c,
		0x3456789a,
		0x12, /* 0x123456789a00 >> 8 */
		SET_SH_2,
		0x212,
		s.regs.pgm_rsrc1,
		s.regs.pgm_rsrc2,
		SET_SH_1,
		0x228,
		s.regs.pgm_rsrc3, /* COMPUTE_PGM_RSRC3 (gfx10+) */
		SET_SH_1,
		0x215,
		0,
		SET_SH_1,
		0x218,
		0,
		SET_SH_2,
		0x240,
		0x00002000,
		0x7fff, /* USER_DATA_0/1 = kernarg */
		DISPATCH,
		1,
		1,
		1,
		0x8001, /* + CS_W32_EN */
	};
	n = kfdsig_pm4_emit_dispatch(&s, 0x123456789a00ull, 0x7fff00002000ull, buf,
				     sizeof(buf) / 4);
	CHECK_EQ(n, KFDSIG_PM4_DISPATCH_MAX_DW, "gfx1100 co is the longest form");
	CHECK_EQ(n, sizeof(want) / 4, "gfx1100 co dwords");
	t_check_dwords("gfx1100 co dispatch", buf, want, sizeof(want) / 4);

	/* The layouts name the new packets. */
	d = kfdsig_pm4_packet_desc(t, 0x76);
	CHECK(d && !strcmp(d->name, "SET_SH_REG"), "SET_SH_REG layout");
	for (unsigned i = 0; d && i < d->nfields; i++)
		if (!strcmp(d->fields[i].name, "reg_offset"))
			CHECK_EQ(kfdsig_field_get(&d->fields[i], buf + 16), 0x228, "reg_offset");
	d = kfdsig_pm4_packet_desc(t, 0x15);
	CHECK(d && !strcmp(d->name, "DISPATCH_DIRECT"), "DISPATCH_DIRECT layout");
	for (unsigned i = 0; d && i < d->nfields; i++) {
		if (!strcmp(d->fields[i].name, "cs_w32_en"))
			CHECK_EQ(kfdsig_field_get(&d->fields[i], buf + 29), 1, "cs_w32_en");
		if (!strcmp(d->fields[i].name, "compute_shader_en"))
			CHECK_EQ(kfdsig_field_get(&d->fields[i], buf + 29), 1, "shader_en");
		if (!strcmp(d->fields[i].name, "dim_z"))
			CHECK_EQ(kfdsig_field_get(&d->fields[i], buf + 29), 1, "dim_z");
	}
}

static void rsrc3_per_generation(void)
{
	static const struct {
		const char *name;
		uint32_t rsrc3_off; /* 0: no RSRC3 packet */
		uint32_t tmpring_off;
	} cases[] = {
		{ "gfx803", 0, 0x218 },
		{ "gfx906", 0, 0x218 },
		{ "gfx90a", 0x22d, 0x218 },
		{ "gfx942", 0x22d, 0x218 },
		{ "gfx950", 0x22d, 0x218 },
		{ "gfx1010", 0x228, 0x218 },
		{ "gfx1036", 0x228, 0x218 },
		{ "gfx1151", 0x228, 0x218 },
		{ "gfx1201", 0x228, 0x218 },
		/* GC 12.1: gc_12_1_0_offset.h regCOMPUTE_PGM_RSRC3 0x1bc3,
		 * regCOMPUTE_TMPRING_SIZE 0x1bb6 (+ 0x1260 - 0x2c00) */
		{ "gfx1250", 0x223, 0x216 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct kfdsig_target *t = kfdsig_target_by_name(cases[i].name);
		struct kfdsig_shader_stub s;
		uint32_t buf[KFDSIG_PM4_DISPATCH_MAX_DW];
		int n;

		CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &s), 0, "%s", cases[i].name);
		n = kfdsig_pm4_emit_dispatch(&s, 0x100, 0, buf, sizeof(buf) / 4);
		CHECK_EQ(n, cases[i].rsrc3_off ? 30 : 27, "%s dwords", cases[i].name);
		if (cases[i].rsrc3_off) {
			CHECK_EQ(buf[16], SET_SH_1, "%s", cases[i].name);
			CHECK_EQ(buf[17], cases[i].rsrc3_off, "%s rsrc3 offset", cases[i].name);
			CHECK_EQ(buf[18], s.regs.pgm_rsrc3, "%s rsrc3", cases[i].name);
		} else {
			CHECK_EQ(buf[17], 0x215, "%s: no rsrc3 packet", cases[i].name);
		}
		/* RESOURCE_LIMITS, then TMPRING_SIZE = 0 */
		CHECK_EQ(buf[cases[i].rsrc3_off ? 23 : 20], cases[i].tmpring_off,
			 "%s tmpring offset", cases[i].name);
		CHECK_EQ(buf[cases[i].rsrc3_off ? 24 : 21], 0, "%s tmpring 0", cases[i].name);
		CHECK_EQ(buf[n - 1], t->level >= KFDSIG_GFX10 ? 0x8001u : 0x1u, "%s initiator",
			 cases[i].name);
	}
}

static void errors(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx942");
	struct kfdsig_shader_stub raw, co;
	uint32_t buf[KFDSIG_PM4_DISPATCH_MAX_DW];

	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &raw), 0, "raw");
	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_CODE_OBJECT, &co), 0, "co");
	CHECK_EQ(kfdsig_pm4_emit_dispatch(&raw, 0x1080, 0, buf, 34), -EINVAL, "unaligned code");
	CHECK_EQ(kfdsig_pm4_emit_dispatch(&raw, 0, 0, buf, 34), -EINVAL, "code 0");
	CHECK_EQ(kfdsig_pm4_emit_dispatch(&raw, 1ull << 48, 0, buf, 34), -EINVAL, "code 2^48");
	CHECK_EQ(kfdsig_pm4_emit_dispatch(&raw, 0x1000, 0x2000, buf, 34), -EINVAL,
		 "raw with kernargs");
	CHECK_EQ(kfdsig_pm4_emit_dispatch(&co, 0x1000, 0, buf, 34), -EINVAL, "co no kernargs");
	CHECK_EQ(kfdsig_pm4_emit_dispatch(&co, 0x1000, 0x2008, buf, 34), -EINVAL,
		 "kernarg unaligned");
	memset(buf, 0x5a, sizeof(buf));
	CHECK_EQ(kfdsig_pm4_emit_dispatch(&co, 0x1000, 0x2000, buf, 33), -ENOSPC, "too small");
	CHECK_EQ(buf[0], 0x5a5a5a5a, "wrote on -ENOSPC");
	CHECK_EQ(kfdsig_pm4_emit_dispatch(NULL, 0x1000, 0, buf, 34), -EINVAL, "null stub");
	CHECK_EQ(kfdsig_pm4_emit_dispatch(&co, 0x1000, 0x2000, NULL, 34), -EINVAL, "null buf");
	CHECK_EQ(kfdsig_pm4_emit_dispatch(&co, 0x1000, 0x2000, buf, 34), 34, "exact fit");
}

int main(void)
{
	raw_gfx900();
	co_gfx1100();
	rsrc3_per_generation();
	errors();
	return t_result("shaders_dispatch");
}
