/* SPDX-License-Identifier: MIT */
/*
 * hip_gfx8: HIP on an emulated gfx8 GPU, whose code the emulated shader
 * unit does not run. hipInit, hipGetDeviceProperties and the runtime's
 * queues must work (the AQL queue of gfx8: double-mapped ring, 32-bit
 * doorbell); the first kernel (the runtime's own blit or this one) must
 * then fail as an illegal instruction does on a GPU: ROCr's queue error
 * HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, on which HIP aborts. It must
 * never print that the kernel "returned" (a pretended success), nor wait
 * forever (run-hip-gfx8.sh bounds it).
 */
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void fill(int *out)
{
	out[threadIdx.x] = (int)threadIdx.x + 1;
}

int main(void)
{
	hipDeviceProp_t p;
	int *d = NULL, n = 0;
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
	hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0, d);
	e = hipDeviceSynchronize();
	printf("hip_gfx8: hipDeviceSynchronize returned %s\n", hipGetErrorString(e));
	return 0;
}
