/* SPDX-License-Identifier: MIT */
/*
 * hip_gfx8: HIP on an emulated gfx8 GPU. hipInit, hipGetDeviceProperties
 * and the runtime's queues must work (the AQL queue of gfx8: double-mapped
 * ring, 32-bit doorbell), and a kernel hipcc compiled for gfx8 must run on
 * the emulated shader unit: each of 64 work-items writes its id + 1 times
 * a kernel argument, copied back and checked here (run-hip-gfx8.sh bounds
 * the run and wants "hip_gfx8: ok").
 */
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void fill(int *out, int k)
{
	out[threadIdx.x] = ((int)threadIdx.x + 1) * k;
}

int main(void)
{
	hipDeviceProp_t p;
	int *d = NULL, n = 0, h[64];
	hipError_t e;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (hipInit(0) != hipSuccess || hipGetDeviceCount(&n) != hipSuccess || n < 1) {
		printf("hip_gfx8: hipInit failed\n");
		return 1;
	}
	if (hipGetDeviceProperties(&p, 0) != hipSuccess) {
		printf("hip_gfx8: hipGetDeviceProperties failed\n");
		return 1;
	}
	printf("hip_gfx8: device %s %s\n", p.name, p.gcnArchName);
	if (hipMalloc((void **)&d, 64 * sizeof(int)) != hipSuccess) {
		printf("hip_gfx8: hipMalloc failed\n");
		return 1;
	}
	printf("hip_gfx8: launching\n");
	hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0, d, 7);
	e = hipDeviceSynchronize();
	printf("hip_gfx8: hipDeviceSynchronize returned %s\n", hipGetErrorString(e));
	if (e != hipSuccess || hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost) != hipSuccess)
		return 1;
	for (int i = 0; i < 64; i++)
		if (h[i] != (i + 1) * 7) {
			printf("hip_gfx8: out[%d] = %d, not %d\n", i, h[i], (i + 1) * 7);
			return 1;
		}
	printf("hip_gfx8: ok\n");
	return 0;
}
