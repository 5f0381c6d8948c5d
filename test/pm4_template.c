/* SPDX-License-Identifier: MIT */
/*
 * Prepared PM4 fences: for every target, option and event id, the inline
 * kfdsig_pm4_fence_write() writes exactly what kfdsig_pm4_emit_fence()
 * writes for that slot; and the template refuses what it must.
 */
#include <string.h>

#include "helpers.h"

#define PAGE 0x000000f234560000ull /* below 2^40 (gfx8) */

static void check_equivalence(void)
{
	static const uint32_t flag_sets[] = { 0, KFDSIG_FENCE_32BIT, KFDSIG_FENCE_VALUE,
					      KFDSIG_FENCE_INT_ONLY,
					      KFDSIG_FENCE_VALUE | KFDSIG_FENCE_32BIT };
	static const uint32_t ids[] = { 1, 2, 255, 256, 4095 };

	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);

		for (unsigned form = 0; form < 2; form++)
			for (unsigned cache = 0; cache < 3; cache++)
				for (size_t k = 0; k < sizeof(flag_sets) / sizeof(flag_sets[0]);
				     k++) {
					struct kfdsig_fence f = { .flags = flag_sets[k],
								  .value = 42,
								  .cache = (uint8_t)cache,
								  .form = (uint8_t)form };
					struct kfdsig_pm4_fence_tmpl tp;
					int r = kfdsig_pm4_fence_prepare(t, &f, PAGE, &tp);

					if (form == KFDSIG_PM4_WRITE_DATA_INT &&
					    (f.flags & KFDSIG_FENCE_INT_ONLY)) {
						CHECK_EQ(r, -EINVAL, "%s: int-only WRITE_DATA",
							 t->name);
						continue;
					}
					CHECK_EQ(r, 0, "%s prepare: %s", t->name,
						 kfdsig_last_error());
					if (r)
						continue;
					for (size_t j = 0; j < sizeof(ids) / sizeof(ids[0]); j++) {
						uint32_t a[KFDSIG_PM4_FENCE_MAX_DW + 1];
						uint32_t b[KFDSIG_PM4_FENCE_MAX_DW + 1];
						int na, nb;

						memset(a, 0x11, sizeof(a));
						memset(b, 0x11, sizeof(b));
						f.event_id = ids[j];
						f.slot_va = kfdsig_slot_va(PAGE, ids[j]);
						na = kfdsig_pm4_emit_fence(t, &f, a,
									   KFDSIG_PM4_FENCE_MAX_DW);
						nb = kfdsig_pm4_fence_write(
							&tp, b, KFDSIG_PM4_FENCE_MAX_DW, ids[j]);
						CHECK_EQ(nb, na, "%s form %u flags 0x%x id %u",
							 t->name, form, f.flags, ids[j]);
						if (na > 0 && na == nb)
							t_check_dwords(t->name, b, a,
								       (size_t)na + 1);
					}
				}
	}
}

static void check_refusals(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx1100");
	struct kfdsig_fence f = { 0 };
	struct kfdsig_pm4_fence_tmpl tp;
	uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];

	CHECK_EQ(kfdsig_pm4_fence_prepare(t, &f, 0, &tp), -EINVAL, "page 0");
	CHECK_EQ(kfdsig_pm4_fence_prepare(t, &f, PAGE + 4, &tp), -EINVAL, "unaligned page");
	CHECK_EQ(kfdsig_pm4_fence_prepare(t, &f, PAGE + 8, &tp), -EINVAL, "8-byte aligned page");
	CHECK(strstr(kfdsig_last_error(), "4096-byte") != NULL, "reason: %s", kfdsig_last_error());
	CHECK_EQ(kfdsig_pm4_fence_prepare(kfdsig_target_by_name("gfx803"), &f, 1ull << 40, &tp),
		 -EINVAL, "gfx8 page beyond 2^40");
	CHECK(strstr(kfdsig_last_error(), "2^40") != NULL, "reason: %s", kfdsig_last_error());
	CHECK_EQ(kfdsig_pm4_fence_prepare(kfdsig_target_by_name("gfx900"), &f, 1ull << 40, &tp), 0,
		 "gfx9 page at 2^40");
	CHECK_EQ(kfdsig_pm4_fence_prepare(t, &f, (1ull << 48) - 0x1000, &tp), -EINVAL,
		 "page crosses 2^48");
	CHECK_EQ(kfdsig_pm4_fence_prepare(NULL, &f, PAGE, &tp), -EINVAL, "NULL target");
	CHECK_EQ(kfdsig_pm4_fence_prepare(t, NULL, PAGE, &tp), -EINVAL, "NULL fence");
	CHECK_EQ(kfdsig_pm4_fence_prepare(t, &f, PAGE, NULL), -EINVAL, "NULL template");
	f.flags = KFDSIG_FENCE_CTXID;
	CHECK_EQ(kfdsig_pm4_fence_prepare(t, &f, PAGE, &tp), -EINVAL, "ctxid template");
	f.flags = KFDSIG_FENCE_DELIBERATELY_BAD;
	CHECK_EQ(kfdsig_pm4_fence_prepare(t, &f, PAGE, &tp), -EINVAL, "bad template");
	f.flags = 0;
	f.form = KFDSIG_PM4_EVENT_WRITE_EOP;
	CHECK_EQ(kfdsig_pm4_fence_prepare(kfdsig_target_by_name("gfx803"), &f, PAGE, &tp), -EINVAL,
		 "EOP template");
	f.form = 0;
	f.flags = KFDSIG_FENCE_VALUE;
	f.value = UINT64_MAX;
	CHECK_EQ(kfdsig_pm4_fence_prepare(t, &f, PAGE, &tp), -EINVAL, "all-ones value");

	f.flags = 0;
	CHECK_EQ(kfdsig_pm4_fence_prepare(t, &f, PAGE, &tp), 0, "good template");
	memset(buf, 0x77, sizeof(buf));
	CHECK_EQ(kfdsig_pm4_fence_write(&tp, buf, 8, 0), -EINVAL, "id 0");
	CHECK(strstr(kfdsig_last_error(), "1..4095"), "id 0 reason: %s", kfdsig_last_error());
	CHECK_EQ(kfdsig_pm4_fence_write(&tp, buf, 8, 4096), -EINVAL, "id 4096");
	CHECK_EQ(kfdsig_pm4_fence_write(&tp, buf, 8, UINT32_MAX), -EINVAL, "id max");
	CHECK_EQ(kfdsig_pm4_fence_write(&tp, buf, 7, 5), -ENOSPC, "7 dwords of room");
	CHECK_EQ(buf[0], 0x77777777u, "wrote on refusal");
	CHECK_EQ(kfdsig_pm4_fence_write(&tp, buf, 8, 5), 8, "enough room");
}

int main(void)
{
	check_equivalence();
	check_refusals();
	return t_result("pm4_template");
}
