/* SPDX-License-Identifier: MIT */
/*
 * A HIP program with kernels, run under `kfdsig exec --emulate TARGET`
 * (run-hip-kernel.sh): a vector add between host-to-device and
 * device-to-host copies (ROCr's SDMA or blit-kernel paths), then, by the
 * steps named on the command line, hipMemset, a device-to-device copy and
 * an event recorded and waited for with hipEventBlockingSync. Each step
 * prints one line and checks its result; exit 1 on the first wrong one.
 */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1 << 16)

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

#define CHECK(call)                                                             \
	do {                                                                    \
		hipError_t e_ = (call);                                         \
		if (e_ != hipSuccess) {                                         \
			printf("FAIL: %s: %s\n", #call, hipGetErrorString(e_)); \
			return 1;                                               \
		}                                                               \
	} while (0)

static int vector_add(float *ha, float *hb, float *hc, float *a, float *b, float *c)
{
	int bad = 0;

	CHECK(hipMemcpy(a, ha, N * 4, hipMemcpyHostToDevice));
	CHECK(hipMemcpy(b, hb, N * 4, hipMemcpyHostToDevice));
	hipLaunchKernelGGL(vadd, dim3(N / 256), dim3(256), 0, 0, a, b, c, N);
	CHECK(hipGetLastError());
	CHECK(hipMemcpy(hc, c, N * 4, hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		bad += hc[i] != 3.0f * i;
	printf("vadd: %d wrong\n", bad);
	return bad != 0;
}

static int memset_step(unsigned char *hc, float *c)
{
	int bad = 0;

	CHECK(hipMemset(c, 0x5a, N * 4));
	CHECK(hipMemcpy(hc, c, N * 4, hipMemcpyDeviceToHost));
	for (int i = 0; i < N * 4; i++)
		bad += hc[i] != 0x5a;
	printf("memset: %d wrong\n", bad);
	return bad != 0;
}

static int d2d_step(float *hc, float *a, float *c)
{
	int bad = 0;

	CHECK(hipMemcpy(c, a, N * 4, hipMemcpyDeviceToDevice));
	CHECK(hipMemcpy(hc, c, N * 4, hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		bad += hc[i] != (float)i;
	printf("d2d: %d wrong\n", bad);
	return bad != 0;
}

static int event_step(float *a, float *b, float *c)
{
	hipEvent_t ev;

	CHECK(hipEventCreateWithFlags(&ev, hipEventBlockingSync));
	hipLaunchKernelGGL(vadd, dim3(N / 256), dim3(256), 0, 0, a, b, c, N);
	CHECK(hipEventRecord(ev, 0));
	CHECK(hipEventSynchronize(ev));
	CHECK(hipEventQuery(ev));
	CHECK(hipEventDestroy(ev));
	printf("event: ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	float *ha = (float *)malloc(N * 4), *hb = (float *)malloc(N * 4);
	float *hc = (float *)malloc(N * 4), *a, *b, *c;

	for (int i = 0; i < N; i++) {
		ha[i] = (float)i;
		hb[i] = 2.0f * i;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	CHECK(hipMalloc(&a, N * 4));
	CHECK(hipMalloc(&b, N * 4));
	CHECK(hipMalloc(&c, N * 4));
	if (vector_add(ha, hb, hc, a, b, c))
		return 1;
	for (int i = 1; i < argc; i++) {
		int r = 0;

		if (!strcmp(argv[i], "memset"))
			r = memset_step((unsigned char *)hc, c);
		else if (!strcmp(argv[i], "d2d"))
			r = d2d_step(hc, a, c);
		else if (!strcmp(argv[i], "event"))
			r = event_step(a, b, c);
		else
			r = (printf("unknown step %s\n", argv[i]), 1);
		if (r)
			return 1;
	}
	CHECK(hipFree(a));
	CHECK(hipFree(b));
	CHECK(hipFree(c));
	printf("done\n");
	return 0;
}
