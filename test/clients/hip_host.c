/* SPDX-License-Identifier: MIT */
/*
 * A HIP host program (Debian's libamdhip64, HIP 5.2.3) under
 * `kfdsig exec`: device enumeration and properties, the device flags,
 * device and host allocations, blocking-sync events, every call that runs
 * without the GPU executing code. The runtime's first stream (made by
 * hipStreamCreate, and by hipFree/hipHostFree, which synchronize the
 * device) dispatches a runtime kernel, which needs the emulated shader
 * unit to run compiled kernels: with KFDSIG_HIP_STREAMS=1 the program
 * goes on to streams and frees.
 *
 *   hip_host TARGET NAME CUS WAVE: the device must be the product TARGET
 *   stands for (docs/kfd-emulation.md "Products").
 * Built with plain cc against libamdhip64-dev's headers.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

#define CK(x)                                                                         \
	do {                                                                          \
		hipError_t e_ = (x);                                                  \
		if (e_ != hipSuccess) {                                               \
			fprintf(stderr, "FAIL: %s: %s\n", #x, hipGetErrorString(e_)); \
			return 1;                                                     \
		}                                                                     \
	} while (0)

#define EXPECT(cond, ...)                                      \
	do {                                                   \
		if (!(cond)) {                                 \
			fprintf(stderr, "FAIL: " __VA_ARGS__); \
			fputc('\n', stderr);                   \
			fails++;                               \
		}                                              \
	} while (0)

int main(int argc, char **argv)
{
	hipDeviceProp_t p;
	hipEvent_t ev[4];
	void *d = NULL, *h = NULL;
	size_t free_b = 0, total_b = 0;
	int n = 0, flags = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: hip_host TARGET NAME CUS WAVE [VRAM-BYTES]\n");
		return 2;
	}
	CK(hipGetDeviceCount(&n));
	EXPECT(n == 1, "hipGetDeviceCount: %d devices, want 1", n);
	CK(hipGetDeviceProperties(&p, 0));
	EXPECT(!strcmp(p.name, argv[2]), "name '%s', want '%s'", p.name, argv[2]);
	EXPECT(!strncmp(p.gcnArchName, argv[1], strlen(argv[1])), "gcnArchName '%s', want %s...",
	       p.gcnArchName, argv[1]);
	EXPECT(p.multiProcessorCount == atoi(argv[3]), "multiProcessorCount %d, want %s",
	       p.multiProcessorCount, argv[3]);
	EXPECT(p.warpSize == atoi(argv[4]), "warpSize %d, want %s", p.warpSize, argv[4]);
	EXPECT(p.totalGlobalMem > 0, "totalGlobalMem 0");
	/* an APU: its GPU node's one bank is the carve-out */
	EXPECT(argc < 6 || p.totalGlobalMem == strtoull(argv[5], NULL, 0),
	       "totalGlobalMem %zu, want %s", p.totalGlobalMem, argc < 6 ? "" : argv[5]);
	CK(hipSetDevice(0));
	CK(hipSetDeviceFlags(hipDeviceScheduleBlockingSync));
	CK(hipGetDeviceFlags((unsigned int *)&flags));
	EXPECT(flags & hipDeviceScheduleBlockingSync, "device flags 0x%x", flags);
	CK(hipMalloc(&d, 1 << 20));
	CK(hipHostMalloc(&h, 1 << 20, hipHostMallocDefault));
	memset(h, 0x5a, 1 << 20); /* host memory the CPU writes */
	CK(hipMemGetInfo(&free_b, &total_b));
	EXPECT(total_b == p.totalGlobalMem && free_b < total_b, "hipMemGetInfo %zu of %zu", free_b,
	       total_b);
	for (int i = 0; i < 4; i++)
		CK(hipEventCreateWithFlags(&ev[i], hipEventBlockingSync |
							   (i & 1 ? hipEventDisableTiming : 0)));
	for (int i = 0; i < 4; i++)
		CK(hipEventDestroy(ev[i]));
	if (getenv("KFDSIG_HIP_STREAMS")) {
		hipStream_t s;

		CK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
		CK(hipStreamDestroy(s));
		CK(hipFree(d));
		CK(hipHostFree(h));
	}
	if (fails)
		return 1;
	printf("HIP host calls on %s (%s, %d CUs): ok\n", p.name, p.gcnArchName,
	       p.multiProcessorCount);
	return 0;
}
