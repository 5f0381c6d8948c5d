/* SPDX-License-Identifier: MIT */
/*
 * hip_coop: a cooperative launch (hipLaunchCooperativeKernel) whose blocks
 * meet at a grid barrier (cooperative groups grid.sync(), the device
 * library's GWS barrier: ds_gws_init / ds_gws_barrier on a queue that
 * holds the device's GWS, ALLOC_QUEUE_GWS). Each block writes its slot,
 * syncs the grid, then sums every block's slot: a barrier that lets a
 * block through early reads a slot not yet written. Three rounds of
 * write/sync/read reuse the barrier. Prints "coop: N blocks, 0 wrong".
 * `big`: 128 blocks, more than the emulator runs at once: refused at the
 * barrier (an illegal instruction for ROCr) instead of waiting forever.
 * `peer` copies between two GPUs with hipMemcpyPeer.
 */
#include <hip/hip_runtime.h>
/* after hip_runtime.h: it defines what this header uses */
#include <hip/hip_cooperative_groups.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace cg = cooperative_groups;

__global__ void rounds(int *slot, int *sum, int nblocks)
{
	cg::grid_group grid = cg::this_grid();
	int b = blockIdx.x;

	for (int r = 0; r < 3; r++) {
		/* the later blocks write later: a barrier that lets one
		 * through early reads their slots still empty */
		if (threadIdx.x == 0) {
			int spin = b * 4000;

			for (volatile int k = 0; k < spin; k++)
				;
			slot[r * nblocks + b] = (r + 1) * (b + 1);
		}
		grid.sync();
		if (threadIdx.x == 0) {
			int s = 0;

			for (int i = 0; i < nblocks; i++)
				s += slot[r * nblocks + i];
			sum[r * nblocks + b] = s;
		}
		grid.sync();
	}
}

static int coop(int nblocks)
{
	int dev = 0, attr = 0, wrong = 0;
	int *slot, *sum, *host;
	size_t bytes = 3 * (size_t)nblocks * sizeof(int);
	hipError_t e;

	if (hipDeviceGetAttribute(&attr, hipDeviceAttributeCooperativeLaunch, dev) != hipSuccess ||
	    !attr) {
		printf("coop: no cooperative launch (attribute %d)\n", attr);
		return 1;
	}
	host = (int *)calloc(3 * (size_t)nblocks, sizeof(int));
	if (!host || hipMalloc((void **)&slot, bytes) || hipMalloc((void **)&sum, bytes) ||
	    hipMemset(slot, 0, bytes) || hipMemset(sum, 0, bytes)) {
		printf("coop: allocation failed\n");
		return 1;
	}
	void *args[] = { &slot, &sum, &nblocks };
	e = hipLaunchCooperativeKernel((const void *)rounds, dim3(nblocks), dim3(64), args, 0, 0);
	if (e != hipSuccess) {
		printf("coop: hipLaunchCooperativeKernel: %s\n", hipGetErrorString(e));
		return 1;
	}
	e = hipDeviceSynchronize();
	if (e != hipSuccess) {
		printf("coop: hipDeviceSynchronize: %s\n", hipGetErrorString(e));
		return 1;
	}
	if (hipMemcpy(host, sum, bytes, hipMemcpyDeviceToHost) != hipSuccess) {
		printf("coop: copy back failed\n");
		return 1;
	}
	/* round r: every block sees (r + 1) * (1 + 2 + ... + nblocks) */
	for (int r = 0; r < 3; r++)
		for (int b = 0; b < nblocks; b++)
			if (host[r * nblocks + b] != (r + 1) * nblocks * (nblocks + 1) / 2)
				wrong++;
	printf("coop: %d blocks, %d wrong\n", nblocks, wrong);
	free(host);
	return wrong != 0;
}

static int peer(void)
{
	int n = 0, wrong = 0;
	char *a, *b, in[4096], out[4096];

	if (hipGetDeviceCount(&n) != hipSuccess || n < 2) {
		printf("peer: %d devices\n", n);
		return 1;
	}
	for (int i = 0; i < (int)sizeof(in); i++)
		in[i] = (char)(i * 7 + 3);
	if (hipSetDevice(0) || hipMalloc((void **)&a, sizeof(in)) ||
	    hipMemcpy(a, in, sizeof(in), hipMemcpyHostToDevice) || hipSetDevice(1) ||
	    hipMalloc((void **)&b, sizeof(in))) {
		printf("peer: setup failed\n");
		return 1;
	}
	if (hipMemcpyPeer(b, 1, a, 0, sizeof(in)) != hipSuccess) {
		printf("peer: hipMemcpyPeer failed\n");
		return 1;
	}
	memset(out, 0, sizeof(out));
	if (hipMemcpy(out, b, sizeof(out), hipMemcpyDeviceToHost) != hipSuccess) {
		printf("peer: copy back failed\n");
		return 1;
	}
	for (int i = 0; i < (int)sizeof(in); i++)
		wrong += in[i] != out[i];
	printf("peer: %d wrong\n", wrong);
	return wrong != 0;
}

int main(int argc, char **argv)
{
	int r = 0;

	for (int i = 1; i < argc; i++)
		r |= !strcmp(argv[i], "peer")  ? peer()
		     : !strcmp(argv[i], "big") ? coop(128)
					       : coop(4);
	if (argc < 2)
		r = coop(4);
	return r;
}
