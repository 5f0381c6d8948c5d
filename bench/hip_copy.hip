/* SPDX-License-Identifier: MIT */
/*
 * A HIP program for the emulated shader unit: a 64 MiB hipMemcpy
 * device-to-device (ROCclr's copyBuffer blit kernel, interpreted by
 * src/emu/sq) against a host memcpy of 64 MiB measured in the same run,
 * rounds interleaved, best of each. Run it under the emulated KFD:
 *
 *	kfdsig exec --emulate gfx90a -- bench_hip_copy [ROUNDS]
 *
 * It sets HSA_ENABLE_SDMA=0 before HIP starts, so that ROCr's own copies
 * (the host-to-device line, through ROCclr's staging buffer) use ROCr's
 * blit kernels too, and hipDeviceScheduleBlockingSync, so that the
 * waiting host thread sleeps in the KFD instead of spinning against the
 * interpreter for a CPU. The copies are checked against the host before
 * any figure is printed. Prints figures; exit 1 only when HIP fails or a
 * copy is wrong.
 */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SZ (64u << 20)

#define CHECK(call)                                                             \
	do {                                                                    \
		hipError_t e_ = (call);                                         \
		if (e_ != hipSuccess) {                                         \
			printf("FAIL: %s: %s\n", #call, hipGetErrorString(e_)); \
			return 1;                                               \
		}                                                               \
	} while (0)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	unsigned char *h = (unsigned char *)malloc(SZ), *h2 = (unsigned char *)malloc(SZ);
	void *a, *b;
	double d2d = 1e9, host = 1e9, h2d = 1e9;

	if (!h || !h2 || rounds < 1)
		return 1;
	setenv("HSA_ENABLE_SDMA", "0", 1);
	for (size_t i = 0; i < SZ; i++)
		h[i] = (unsigned char)(i * 131 + (i >> 20));
	memset(h2, 0, SZ);
	CHECK(hipSetDeviceFlags(hipDeviceScheduleBlockingSync));
	CHECK(hipMalloc(&a, SZ));
	CHECK(hipMalloc(&b, SZ));
	for (int r = 0; r < rounds; r++) {
		double t0, t1, t2, t3;

		t0 = now();
		CHECK(hipMemcpy(a, h, SZ, hipMemcpyHostToDevice));
		t1 = now();
		CHECK(hipMemcpy(b, a, SZ, hipMemcpyDeviceToDevice));
		t2 = now();
		memcpy(h2, h, SZ);
		t3 = now();
		h2d = t1 - t0 < h2d ? t1 - t0 : h2d;
		d2d = t2 - t1 < d2d ? t2 - t1 : d2d;
		host = t3 - t2 < host ? t3 - t2 : host;
		h[r] ^= 1; /* a different source each round */
	}
	h[rounds - 1] ^= 1;
	CHECK(hipMemcpy(h2, b, SZ, hipMemcpyDeviceToHost));
	if (memcmp(h, h2, SZ) != 0) {
		printf("FAIL: the device-to-device copy differs from its source\n");
		return 1;
	}
	printf("hipMemcpy 64 MiB, blit kernels (HSA_ENABLE_SDMA=0), best of %d rounds\n", rounds);
	printf("device-to-device  %8.1f ms  %7.1f MB/s\n", d2d * 1e3, SZ / d2d / 1e6);
	printf("host-to-device    %8.1f ms  %7.1f MB/s\n", h2d * 1e3, SZ / h2d / 1e6);
	printf("host memcpy       %8.1f ms  %7.1f MB/s\n", host * 1e3, SZ / host / 1e6);
	printf("device-to-device / host memcpy: %.1fx\n", d2d / host);
	CHECK(hipFree(a));
	CHECK(hipFree(b));
	free(h);
	free(h2);
	return 0;
}
