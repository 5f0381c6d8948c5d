/* SPDX-License-Identifier: MIT */
/* Tiny test harness: CHECK records a failure and goes on; main returns
 * t_result(). Exit 0 pass, 1 fail, 77 skip. */
#ifndef KFDSIG_TEST_HELPERS_H
#define KFDSIG_TEST_HELPERS_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include <kfdsig/kfdsig.h>

#define T_EXIT_PASS 0
#define T_EXIT_FAIL 1
#define T_EXIT_SKIP 77

extern int t_failures;
extern int t_checks;

#define CHECK(cond, ...)                                                                         \
	do {                                                                                     \
		t_checks++;                                                                      \
		if (!(cond)) {                                                                   \
			t_failures++;                                                            \
			fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                            \
			fputc('\n', stderr);                                                     \
		}                                                                                \
	} while (0)

#define CHECK_EQ(a, b, ...)                                                    \
	do {                                                                   \
		unsigned long long _a = (unsigned long long)(a);               \
		unsigned long long _b = (unsigned long long)(b);               \
		CHECK(_a == _b, "%s = 0x%llx, expected 0x%llx: ", #a, _a, _b); \
		if (_a != _b) {                                                \
			fprintf(stderr, "    ");                               \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
		}                                                              \
	} while (0)

/* Compare dword arrays; report the first difference. */
int t_check_dwords(const char *what, const uint32_t *got, const uint32_t *want, size_t n);

/* Print the summary and return the exit code. */
int t_result(const char *name);

/* The target named @name, or the test fails (exit 1) saying it is missing. */
const struct kfdsig_target *t_target(const char *name);

/*
 * Whether @t has no signal stub: LLVM 22, which assembles the stubs, does
 * not know it (llvm_added_in). Checks that kfdsig_shader_stub() refuses it
 * with -ENOENT; callers then skip the target.
 */
static inline int t_no_stub(const struct kfdsig_target *t)
{
	struct kfdsig_shader_stub s;

	if (t->llvm_added_in <= 22)
		return 0;
	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &s), -ENOENT, "%s: no stub", t->name);
	return 1;
}

#endif
