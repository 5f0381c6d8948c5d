/* SPDX-License-Identifier: MIT */
/* The case registry: every group of case_*.c, in run order. */
#include "case.h"

static const struct suite_group *const groups[] = {
	&suite_group_events, &suite_group_wait,	   &suite_group_version, &suite_group_smi,
	&suite_group_irq,    &suite_group_gpu,	   &suite_group_xcc,	 &suite_group_debug,
	&suite_group_trap,   &suite_group_process, &suite_group_userq,
};

#define MAX_CASES 128

const struct suite_case *const *suite_cases(size_t *n)
{
	static const struct suite_case *all[MAX_CASES];
	static size_t count;

	if (!count) {
		for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
			for (size_t i = 0; i < groups[g]->n && count < MAX_CASES; i++)
				all[count++] = &groups[g]->cases[i];
	}
	*n = count;
	return all;
}

const char *suite_case_name(const struct suite_case *cs)
{
	return cs->name;
}
