/* SPDX-License-Identifier: MIT */
/*
 * Shared bits of the KFD client tests: small programs that use Debian's
 * libhsakmt (and one ROCr) exactly as a runtime would, run under
 * `kfdsig exec --emulate TARGET -- ./client` (run-client.sh). They know
 * nothing of kfdsig's emulator: what they check is what the real KFD
 * promises its clients.
 */
#ifndef KFDSIG_TEST_CLIENT_H
#define KFDSIG_TEST_CLIENT_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int client_failures;

#define CHECK(cond, ...)                                                                         \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			client_failures++;                                                       \
			fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                            \
			fputc('\n', stderr);                                                     \
		}                                                                                \
	} while (0)

/* Evaluates @cond once; ends the test on failure. */
#define REQUIRE(cond, ...)                       \
	do {                                     \
		int ok_ = !!(cond);              \
		CHECK(ok_ &&#cond, __VA_ARGS__); \
		if (!ok_)                        \
			return 1;                \
	} while (0)

static inline double client_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A wait that ends by a wake-up must end long before its timeout: a lost
 * wake-up would otherwise pass as a slow one. */
#define WAKE_BOUND_MS 2000.0
#define WAIT_TIMEOUT_MS 10000

static inline int client_done(const char *name)
{
	if (client_failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, client_failures);
		return 1;
	}
	printf("%s: ok\n", name);
	return 0;
}

#endif
