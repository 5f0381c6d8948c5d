/* SPDX-License-Identifier: MIT */
/*
 * hip_printf: device printf from several threads of several blocks. HIP's
 * printf is a hostcall: the device library's code formats into a buffer
 * the runtime shares, then signals an HSA signal whose event wakes ROCr's
 * hostcall listener thread (a KFD event, set by the wave's s_sendmsg
 * interrupt), which prints the line on stdout. Each line carries its block
 * and thread, an integer, a string and a float, so a lost, doubled or torn
 * line shows in the sorted output the test compares.
 */
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void hello(int round)
{
	/* every 16th thread of each block, so 4 lines a block */
	unsigned int b = blockIdx.x, t = threadIdx.x;

	if (t % 16 == 0)
		printf("round %d block %u thread %u: %s %d %.2f\n", round, b, t, "id",
		       (int)(b * 64 + t), 0.25 * t);
}

int main(void)
{
	hipError_t e;

	for (int round = 0; round < 2; round++) {
		hipLaunchKernelGGL(hello, dim3(3), dim3(64), 0, 0, round);
		e = hipDeviceSynchronize();
		if (e != hipSuccess) {
			fprintf(stderr, "hipDeviceSynchronize: %s\n", hipGetErrorString(e));
			return 1;
		}
	}
	fflush(stdout);
	fprintf(stderr, "printf: done\n");
	return 0;
}
