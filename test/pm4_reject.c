/* SPDX-License-Identifier: MIT */
/*
 * Every input the PM4 emitter must refuse, with the errno, a reason that
 * names the problem, and nothing written; and what KFDSIG_FENCE_DELIBERATELY_BAD
 * lets through.
 */
#include <string.h>

#include "helpers.h"

#define PAGE 0x0000001000000000ull /* below 2^40: gfx8 reaches it too */

struct reject {
	const char *what;
	const char *target;
	struct kfdsig_fence f;
	const char *reason; /* a word the reason must contain */
};

#define OK_F(...)                                                   \
	{                                                           \
		.slot_va = PAGE + 8 * 5, .event_id = 5, __VA_ARGS__ \
	}

static const struct reject rejects[] = {
	{ "event 0", "gfx90a", { .slot_va = PAGE, .event_id = 0 }, "reserved" },
	{ "event 4096", "gfx90a", { .slot_va = PAGE + 8 * 4096, .event_id = 4096 }, "4096" },
	{ "event max", "gfx1100", { .slot_va = PAGE, .event_id = UINT32_MAX }, "4096" },
	{ "slot 0", "gfx90a", { .slot_va = 0, .event_id = 5 }, "address is 0" },
	{ "slot unaligned 64", "gfx90a", OK_F(.slot_va = PAGE + 8 * 5 + 4), "aligned" },
	{ "slot unaligned 32", "gfx1100", OK_F(.slot_va = PAGE + 2, .flags = KFDSIG_FENCE_32BIT),
	  "aligned" },
	{ "slot beyond 48 bits", "gfx90a", OK_F(.slot_va = 1ull << 48), "48-bit" },
	/* the slot implies the signal page (slot - 8 * id): a whole page, not 0 */
	{ "page unaligned by 8", "gfx90a", OK_F(.slot_va = PAGE + 8 * 5 + 8), "4096-byte" },
	{ "page unaligned by 2 KiB", "gfx1100", OK_F(.slot_va = PAGE + 2048 + 8 * 5), "4096-byte" },
	{ "page 0", "gfx90a", OK_F(.slot_va = 8 * 5), "page at 0" },
	{ "slot below 8 * id", "gfx90a", { .slot_va = 8, .event_id = 5 }, "page at 0" },
	/* gfx8 GPUVM is 40 bits (gmc_v8_0.c gmc_v8_0_sw_init) */
	{ "gfx8 beyond 40 bits", "gfx803", OK_F(.slot_va = (1ull << 40) + 8 * 5), "40-bit" },
	{ "gfx8 slot 4095 above 2^40",
	  "gfx801",
	  { .slot_va = (1ull << 40) - 0x8000 + 8 * 4095 + 0x8000, .event_id = 4095 },
	  "40-bit" },
	{ "value all-ones", "gfx90a", OK_F(.flags = KFDSIG_FENCE_VALUE, .value = UINT64_MAX),
	  "all-ones" },
	{ "value all-ones 32", "gfx90a",
	  OK_F(.flags = KFDSIG_FENCE_VALUE | KFDSIG_FENCE_32BIT, .value = UINT32_MAX), "all-ones" },
	{ "value too wide for 32", "gfx90a",
	  OK_F(.flags = KFDSIG_FENCE_VALUE | KFDSIG_FENCE_32BIT, .value = 1ull << 32), "32-bit" },
	{ "wrong ctxid", "gfx90a", OK_F(.flags = KFDSIG_FENCE_CTXID, .ctxid = 6), "context id" },
	{ "ctxid 0", "gfx942", OK_F(.flags = KFDSIG_FENCE_CTXID, .ctxid = 0), "context id" },
	{ "ctxid on gfx8", "gfx803", OK_F(.flags = KFDSIG_FENCE_CTXID, .ctxid = 5), "INT_CTXID" },
	{ "unknown flag", "gfx90a", OK_F(.flags = 1u << 20), "flags" },
	{ "sdma-only flag", "gfx90a", OK_F(.flags = KFDSIG_FENCE_SDMA_ONE_FENCE), "flags" },
	{ "reserved", "gfx90a", OK_F(.reserved = 1), "reserved" },
	{ "cache 3", "gfx90a", OK_F(.cache = 3), "cache" },
	{ "form 3", "gfx90a", OK_F(.form = 3), "form" },
	{ "int-only + value", "gfx90a",
	  OK_F(.flags = KFDSIG_FENCE_INT_ONLY | KFDSIG_FENCE_VALUE, .value = 3), "interrupt-only" },
	{ "int-only + 32-bit", "gfx90a", OK_F(.flags = KFDSIG_FENCE_INT_ONLY | KFDSIG_FENCE_32BIT),
	  "interrupt-only" },
	{ "write-data int-only", "gfx90a",
	  OK_F(.form = KFDSIG_PM4_WRITE_DATA_INT, .flags = KFDSIG_FENCE_INT_ONLY), "WRITE_DATA" },
	{ "eop on gfx9", "gfx900", OK_F(.form = KFDSIG_PM4_EVENT_WRITE_EOP), "gfx8" },
	{ "eop on gfx12", "gfx1201", OK_F(.form = KFDSIG_PM4_EVENT_WRITE_EOP), "gfx8" },
	/* The bad flag never makes an unrepresentable value representable. */
	{ "bad + too wide", "gfx90a",
	  OK_F(.flags = KFDSIG_FENCE_DELIBERATELY_BAD | KFDSIG_FENCE_VALUE | KFDSIG_FENCE_32BIT,
	       .value = 1ull << 40),
	  "32-bit" },
};

static void check_rejects(void)
{
	for (size_t i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++) {
		const struct reject *r = &rejects[i];
		const struct kfdsig_target *t = kfdsig_target_by_name(r->target);
		uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];
		int n;

		memset(buf, 0x5a, sizeof(buf));
		n = kfdsig_pm4_emit_fence(t, &r->f, buf, KFDSIG_PM4_FENCE_MAX_DW);
		CHECK_EQ(n, -EINVAL, "%s", r->what);
		CHECK(strstr(kfdsig_last_error(), r->reason), "%s: reason '%s' lacks '%s'", r->what,
		      kfdsig_last_error(), r->reason);
		CHECK_EQ(buf[0], 0x5a5a5a5au, "%s: wrote on refusal", r->what);
		CHECK_EQ(kfdsig_pm4_fence_dw(t, &r->f), -EINVAL, "%s: size query", r->what);
	}
}

static void check_null_and_space(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
	struct kfdsig_fence f = OK_F();
	uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];

	CHECK_EQ(kfdsig_pm4_emit_fence(NULL, &f, buf, 8), -EINVAL, "NULL target");
	CHECK_EQ(kfdsig_pm4_emit_fence(t, NULL, buf, 8), -EINVAL, "NULL fence");
	CHECK_EQ(kfdsig_pm4_fence_dw(NULL, &f), -EINVAL, "NULL target size");

	memset(buf, 0x5a, sizeof(buf));
	CHECK_EQ(kfdsig_pm4_emit_fence(t, &f, buf, 7), -ENOSPC, "7 dwords of room");
	CHECK(strstr(kfdsig_last_error(), "needs 8"), "ENOSPC reason '%s'", kfdsig_last_error());
	CHECK_EQ(buf[0], 0x5a5a5a5au, "wrote into a short buffer");
	CHECK_EQ(kfdsig_pm4_emit_fence(t, &f, NULL, 8), -ENOSPC, "NULL buffer");
	CHECK_EQ(kfdsig_pm4_emit_fence(t, &f, buf, 8), 8, "exactly enough room");
}

/* What the deliberately-bad flag lets through, and only with it. */
static void check_bad_flag(void)
{
	static const struct {
		const char *target;
		struct kfdsig_fence f;
	} bad[] = {
		{ "gfx90a", { .slot_va = PAGE, .event_id = 0 } },
		{ "gfx90a", { .slot_va = PAGE + 8 * 4096, .event_id = 4096 } },
		{ "gfx90a", OK_F(.slot_va = PAGE + 41) },
		{ "gfx90a", OK_F(.flags = KFDSIG_FENCE_CTXID, .ctxid = 0) },
		{ "gfx1100", OK_F(.flags = KFDSIG_FENCE_CTXID, .ctxid = 5 | 1u << 24) },
		{ "gfx90a", OK_F(.flags = KFDSIG_FENCE_VALUE, .value = UINT64_MAX) },
		{ "gfx803", { .slot_va = 0, .event_id = 3 } },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct kfdsig_target *t = kfdsig_target_by_name(bad[i].target);
		struct kfdsig_fence f = bad[i].f;
		uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];

		CHECK_EQ(kfdsig_pm4_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW), -EINVAL,
			 "case %zu accepted without the flag", i);
		f.flags |= KFDSIG_FENCE_DELIBERATELY_BAD;
		CHECK(kfdsig_pm4_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW) > 0,
		      "case %zu refused with the flag: %s", i, kfdsig_last_error());
	}
}

int main(void)
{
	check_rejects();
	check_null_and_space();
	check_bad_flag();
	return t_result("pm4_reject");
}
