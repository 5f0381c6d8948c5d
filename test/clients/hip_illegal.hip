/* SPDX-License-Identifier: MIT */
/*
 * hip_illegal: a kernel that executes an illegal instruction. On a GPU the
 * wave traps; ROCr's trap handler stores the queue error
 * (SIGNAL_CODE_ILLEGAL_INST) in the queue's inactive signal and signals
 * its event; ROCr calls HIP's queue error callback with
 * HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION and HIP aborts the process. The
 * word is s_code_end (SOPP opcode 31: 0xbf9f0000, LLVM's GFX10 encoding),
 * padding that is not to be executed, and no SOPP instruction on GCN5 /
 * CDNA. `hip_illegal` runs it and must never print "returned".
 */
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void illegal(int *out)
{
	out[threadIdx.x] = 1;
	asm volatile(".long 0xbf9f0000" ::: "memory");
	out[threadIdx.x] = 2;
}

int main(void)
{
	int *d = NULL;
	hipError_t e;

	if (hipMalloc((void **)&d, 64 * sizeof(int)) != hipSuccess) {
		printf("hipMalloc failed\n");
		return 1;
	}
	hipLaunchKernelGGL(illegal, dim3(1), dim3(64), 0, 0, d);
	e = hipDeviceSynchronize();
	printf("illegal: hipDeviceSynchronize returned %s\n", hipGetErrorString(e));
	return 0;
}
