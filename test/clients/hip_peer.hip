// SPDX-License-Identifier: MIT
// hip_peer: two GPUs with a peer path (run-hip-peer.sh emulates the two GCDs
// of an MI250X, or two PCIe cards): peer access is reported both ways and
// enabled, a
// hipMemcpyPeer and a hipMemcpyPeerAsync move data between the devices'
// memory, and a kernel on device 0 reads device 1's memory directly and
// writes its own. Each step prints one line the script checks; every value
// is compared with the host's.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096

#define CHECK_HIP(call)                                                                   \
	do {                                                                              \
		hipError_t e_ = (call);                                                   \
		if (e_ != hipSuccess) {                                                   \
			printf("%s: %s\n", #call, hipGetErrorString(e_));                 \
			return 1;                                                         \
		}                                                                         \
	} while (0)

__global__ void add_peer(const unsigned *peer, const unsigned *own, unsigned *out)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
		out[i] = peer[i] * 3u + own[i];
}

static unsigned pattern(unsigned i, unsigned salt)
{
	return i * 2654435761u ^ salt;
}

static int wrong(const unsigned *got, unsigned salt)
{
	int bad = 0;

	for (unsigned i = 0; i < N; i++)
		bad += got[i] != pattern(i, salt);
	return bad;
}

int main(void)
{
	static unsigned h[N], g[N];
	unsigned *a0, *b0, *out0, *a1, *b1;
	int n = 0, can01 = -1, can10 = -1, bad = 0;
	hipStream_t s;

	CHECK_HIP(hipGetDeviceCount(&n));
	printf("devices: %d\n", n);
	if (n < 2)
		return 1;
	CHECK_HIP(hipDeviceCanAccessPeer(&can01, 0, 1));
	CHECK_HIP(hipDeviceCanAccessPeer(&can10, 1, 0));
	printf("can access peer: %d %d\n", can01, can10);
	CHECK_HIP(hipSetDevice(0));
	CHECK_HIP(hipDeviceEnablePeerAccess(1, 0));
	CHECK_HIP(hipMalloc(&a0, sizeof(h)));
	CHECK_HIP(hipMalloc(&b0, sizeof(h)));
	CHECK_HIP(hipMalloc(&out0, sizeof(h)));
	CHECK_HIP(hipSetDevice(1));
	CHECK_HIP(hipDeviceEnablePeerAccess(0, 0));
	CHECK_HIP(hipMalloc(&a1, sizeof(h)));
	CHECK_HIP(hipMalloc(&b1, sizeof(h)));
	printf("peer access enabled\n");

	for (unsigned i = 0; i < N; i++)
		h[i] = pattern(i, 0x1234);
	CHECK_HIP(hipSetDevice(0));
	CHECK_HIP(hipMemcpy(a0, h, sizeof(h), hipMemcpyHostToDevice));
	CHECK_HIP(hipMemcpyPeer(a1, 1, a0, 0, sizeof(h)));
	CHECK_HIP(hipSetDevice(1));
	CHECK_HIP(hipMemcpy(g, a1, sizeof(g), hipMemcpyDeviceToHost));
	printf("memcpy peer: %d wrong\n", wrong(g, 0x1234));

	for (unsigned i = 0; i < N; i++)
		h[i] = pattern(i, 0x5678);
	CHECK_HIP(hipMemcpy(b1, h, sizeof(h), hipMemcpyHostToDevice));
	CHECK_HIP(hipSetDevice(0));
	CHECK_HIP(hipStreamCreate(&s));
	CHECK_HIP(hipMemcpyPeerAsync(b0, 0, b1, 1, sizeof(h), s));
	CHECK_HIP(hipStreamSynchronize(s));
	CHECK_HIP(hipMemcpy(g, b0, sizeof(g), hipMemcpyDeviceToHost));
	printf("memcpy peer async: %d wrong\n", wrong(g, 0x5678));

	// device 0 reads b1 (device 1's memory) and its own a0
	hipLaunchKernelGGL(add_peer, dim3(N / 256), dim3(256), 0, s, b1, a0, out0);
	CHECK_HIP(hipGetLastError());
	CHECK_HIP(hipStreamSynchronize(s));
	CHECK_HIP(hipMemcpy(g, out0, sizeof(g), hipMemcpyDeviceToHost));
	for (unsigned i = 0; i < N; i++)
		bad += g[i] != pattern(i, 0x5678) * 3u + pattern(i, 0x1234);
	printf("kernel reads peer: %d wrong\n", bad);
	CHECK_HIP(hipStreamDestroy(s));
	printf("done\n");
	return 0;
}
