/* SPDX-License-Identifier: MIT */
/* A program built against an installed kfdsig, as a user would build it. */
#include <stdio.h>

#include <kfdsig/kfdsig.h>

int main(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
	struct kfdsig_fence f = { .slot_va = kfdsig_slot_va(0x100000, 5), .event_id = 5 };
	uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];
	int n;

	if (kfdsig_version() != KFDSIG_VERSION_NUMBER) {
		fprintf(stderr, "headers %d, library %u\n", KFDSIG_VERSION_NUMBER,
			kfdsig_version());
		return 1;
	}
	n = t ? kfdsig_pm4_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW) : -1;
	if (n != KFDSIG_PM4_RELEASE_MEM_DW || buf[7] != 5) {
		fprintf(stderr, "emit gave %d: %s\n", n, kfdsig_last_error());
		return 1;
	}
	printf("consumer ok: kfdsig %s\n", kfdsig_version_string());
	return 0;
}
