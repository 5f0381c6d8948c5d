/* SPDX-License-Identifier: MIT */
/*
 * Prepared SDMA fences: for every target, option set and event id 1..4095,
 * the inline kfdsig_sdma_fence_write() writes exactly what
 * kfdsig_sdma_emit_fence() writes for that slot (followed, with
 * KFDSIG_SDMA_TMPL_PAD_SUBMIT, by the NOPs kfdsig_sdma_pad_submit_dw() asks
 * for, as kfdsig_sdma_emit_nop() writes them); and the template refuses what
 * it must.
 */
#include <string.h>

#include "helpers.h"

#define PAGE 0x000000f234560000ull /* below 2^40 (gfx8) */

static void check_equivalence(void)
{
	static const uint32_t flag_sets[] = { 0,
					      KFDSIG_FENCE_VALUE,
					      KFDSIG_FENCE_32BIT,
					      KFDSIG_FENCE_SDMA_ONE_FENCE,
					      KFDSIG_FENCE_INT_ONLY,
					      KFDSIG_FENCE_VALUE | KFDSIG_FENCE_SDMA_ONE_FENCE };
	static const uint32_t tmpl_flags[] = {
		0, KFDSIG_SDMA_TMPL_PAD_SUBMIT, KFDSIG_SDMA_TMPL_PAD_SUBMIT | KFDSIG_SDMA_NOP_BURST
	};
	unsigned padded = 0, compared = 0;

	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);

		for (size_t k = 0; k < sizeof(flag_sets) / sizeof(flag_sets[0]); k++)
			for (size_t m = 0; m < sizeof(tmpl_flags) / sizeof(tmpl_flags[0]); m++) {
				struct kfdsig_fence f = { .flags = flag_sets[k], .value = 42 };
				struct kfdsig_sdma_fence_tmpl tp;
				int r = kfdsig_sdma_fence_prepare(t, &f, PAGE, tmpl_flags[m], &tp);

				CHECK_EQ(r, 0, "%s prepare flags 0x%x/0x%x: %s", t->name, f.flags,
					 tmpl_flags[m], kfdsig_last_error());
				if (r)
					continue;
				for (uint32_t id = 1; id < KFDSIG_SIGNAL_EVENT_LIMIT; id++) {
					uint32_t a[KFDSIG_SDMA_TMPL_MAX_DW + 1];
					uint32_t b[KFDSIG_SDMA_TMPL_MAX_DW + 1];
					int na, nb, pad = 0;

					memset(a, 0x11, sizeof(a));
					memset(b, 0x11, sizeof(b));
					f.event_id = id;
					f.slot_va = kfdsig_slot_va(PAGE, id);
					na = kfdsig_sdma_emit_fence(t, &f, a,
								    KFDSIG_SDMA_FENCE_MAX_DW);
					if (na > 0 && (tmpl_flags[m] & KFDSIG_SDMA_TMPL_PAD_SUBMIT))
						pad = kfdsig_sdma_pad_submit_dw(t, (size_t)na);
					if (pad > 0) {
						kfdsig_sdma_emit_nop(
							a + na, (size_t)pad, (size_t)pad,
							tmpl_flags[m] & KFDSIG_SDMA_NOP_BURST);
						na += pad;
						padded++;
					}
					nb = kfdsig_sdma_fence_write(&tp, b,
								     KFDSIG_SDMA_TMPL_MAX_DW, id);
					CHECK_EQ(nb, na, "%s flags 0x%x/0x%x id %u", t->name,
						 f.flags, tmpl_flags[m], id);
					if (na > 0 && na == nb &&
					    memcmp(a, b, ((size_t)na + 1) * sizeof(a[0])))
						t_check_dwords(t->name, b, a, (size_t)na + 1);
					compared++;
				}
			}
	}
	CHECK(padded > 0, "some target needs a minimum submission (gfx900)");
	CHECK(compared > 0, "compared");
}

static void check_refusals(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx1100");
	struct kfdsig_fence f = { 0 };
	struct kfdsig_sdma_fence_tmpl tp;
	uint32_t buf[KFDSIG_SDMA_TMPL_MAX_DW];

	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, 0, 0, &tp), -EINVAL, "page 0");
	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, PAGE + 8, 0, &tp), -EINVAL, "unaligned page");
	CHECK(strstr(kfdsig_last_error(), "4096-byte") != NULL, "reason: %s", kfdsig_last_error());
	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, (1ull << 48) - 0x1000, 0, &tp), -EINVAL,
		 "page crosses 2^48");
	CHECK_EQ(kfdsig_sdma_fence_prepare(NULL, &f, PAGE, 0, &tp), -EINVAL, "NULL target");
	CHECK_EQ(kfdsig_sdma_fence_prepare(t, NULL, PAGE, 0, &tp), -EINVAL, "NULL fence");
	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, PAGE, 0, NULL), -EINVAL, "NULL template");
	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, PAGE, 1u << 20, &tp), -EINVAL, "unknown flag");
	f.flags = KFDSIG_FENCE_CTXID;
	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, PAGE, 0, &tp), -EINVAL, "ctxid template");
	f.flags = KFDSIG_FENCE_DELIBERATELY_BAD;
	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, PAGE, 0, &tp), -EINVAL, "bad template");
	f.flags = KFDSIG_FENCE_VALUE;
	f.value = UINT64_MAX;
	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, PAGE, 0, &tp), -EINVAL, "all-ones value");
	f.flags = 0;
	f.cache = KFDSIG_CACHE_NONE;
	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, PAGE, 0, &tp), -EINVAL, "a cache action");
	f.cache = 0;

	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, PAGE, 0, &tp), 0, "good template");
	CHECK_EQ(tp.ndw, KFDSIG_SDMA_FENCE_MAX_DW, "10 dwords");
	memset(buf, 0x77, sizeof(buf));
	CHECK_EQ(kfdsig_sdma_fence_write(&tp, buf, 10, 0), -EINVAL, "id 0");
	CHECK(strstr(kfdsig_last_error(), "1..4095"), "id 0 reason: %s", kfdsig_last_error());
	CHECK_EQ(kfdsig_sdma_fence_write(&tp, buf, 10, 4096), -EINVAL, "id 4096");
	CHECK_EQ(kfdsig_sdma_fence_write(&tp, buf, 10, UINT32_MAX), -EINVAL, "id max");
	CHECK_EQ(kfdsig_sdma_fence_write(&tp, buf, 9, 5), -ENOSPC, "9 dwords of room");
	CHECK_EQ(buf[0], 0x77777777u, "wrote on refusal");
	CHECK_EQ(kfdsig_sdma_fence_write(&tp, buf, 10, 5), 10, "enough room");

	/* gfx900's 64-dword minimum submission */
	t = kfdsig_target_by_name("gfx900");
	CHECK_EQ(kfdsig_sdma_fence_prepare(t, &f, PAGE, KFDSIG_SDMA_TMPL_PAD_SUBMIT, &tp), 0,
		 "gfx900 padded");
	CHECK_EQ(tp.ndw, 64, "gfx900: one fence is a 64-dword submission");
	CHECK_EQ(kfdsig_sdma_fence_write(&tp, buf, 63, 5), -ENOSPC, "63 dwords of room");
	CHECK_EQ(kfdsig_sdma_fence_write(&tp, buf, 64, 5), 64, "64 dwords");
}

int main(void)
{
	check_equivalence();
	check_refusals();
	return t_result("sdma_template");
}
