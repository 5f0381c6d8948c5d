/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "helpers.h"

int t_failures;
int t_checks;

int t_check_dwords(const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			t_checks++;
			t_failures++;
			fprintf(stderr, "%s: dword %zu is 0x%08x, expected 0x%08x\n", what, i,
				got[i], want[i]);
			return 0;
		}
	}
	t_checks++;
	return 1;
}

int t_result(const char *name)
{
	if (t_checks == 0) {
		fprintf(stderr, "%s: no checks ran\n", name);
		return T_EXIT_FAIL;
	}
	fprintf(stderr, "%s: %d checks, %d failed\n", name, t_checks, t_failures);
	return t_failures ? T_EXIT_FAIL : T_EXIT_PASS;
}

const struct kfdsig_target *t_target(const char *name)
{
	const struct kfdsig_target *t = kfdsig_target_by_name(name);

	if (!t) {
		fprintf(stderr, "target %s missing\n", name);
		exit(T_EXIT_FAIL);
	}
	return t;
}
