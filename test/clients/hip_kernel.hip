/* SPDX-License-Identifier: MIT */
/*
 * A HIP program with kernels, run under `kfdsig exec --emulate TARGET`
 * (run-hip-kernel.sh): a vector add between host-to-device and
 * device-to-host copies (ROCr's SDMA or blit-kernel paths), then, by the
 * steps named on the command line:
 *   memset    hipMemset
 *   d2d       a device-to-device copy
 *   unaligned copies and fills at odd offsets and sizes (ROCr's and
 *             ROCclr's misaligned blit paths)
 *   event     an event recorded and waited for with hipEventBlockingSync
 *   reduce    a block-wise tree sum of 1M ints in LDS with __syncthreads(),
 *             then a final pass over the blocks' sums
 *   atomics   atomicAdd (int, float, 64-bit) on global memory from every
 *             thread, atomicAdd on LDS, atomicMax/Min/Or, an atomicCAS loop
 *             (and signed and unsigned 64-bit compares)
 *   sync      hipSetDeviceFlags(hipDeviceScheduleBlockingSync), then
 *             hipStreamSynchronize and hipDeviceSynchronize after kernels
 *             long enough that the waits sleep in the KFD
 *   fault     a kernel that stores to an unmapped address: ROCr reports
 *             the memory access fault and aborts the process
 * Each step prints one line and checks its result against the host; exit 1
 * on the first wrong one.
 */
#include <hip/hip_runtime.h>
#include <limits.h>
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

/*
 * A grid-stride sum: each thread adds its elements, then the block's
 * threads add their sums as a tree in LDS, a barrier between levels (the
 * block's waves meet there), and thread 0 writes the block's sum.
 */
__global__ void block_sum(const int *in, int *out, int n)
{
	__shared__ int s[256];
	int t = threadIdx.x, v = 0;

	for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
		v += in[i];
	s[t] = v;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (t < k)
			s[t] += s[t + k];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = s[0];
}

struct atomic_out {
	int sum, max, min, lds_total;
	unsigned or_bits, cas_count, lt64, gt64u;
	float fsum;
	unsigned long long sum64;
};

__global__ void atomics_kernel(const int *in, int n, struct atomic_out *o)
{
	__shared__ int local;
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;

	if (t == 0)
		local = 0;
	__syncthreads();
	if (i < n) {
		int v = in[i];
		unsigned old, assumed;

		atomicAdd(&o->sum, v);
		atomicMax(&o->max, v);
		atomicMin(&o->min, v);
		atomicOr(&o->or_bits, 1u << (i & 31));
		atomicAdd(&o->fsum, 1.0f);
		atomicAdd(&o->sum64, (unsigned long long)(unsigned)v << 20);
		atomicAdd(&local, 1);
		if (i < n / 2) { /* 64-bit compares, signed and unsigned */
			long long x = ((const long long *)in)[i];

			if (x < -5)
				atomicAdd(&o->lt64, 1u);
			if ((unsigned long long)x > 0xfffffe0000000000ull)
				atomicAdd(&o->gt64u, 1u);
		}
		old = o->cas_count;
		do {
			assumed = old;
			old = atomicCAS(&o->cas_count, assumed, assumed + 1);
		} while (old != assumed);
	}
	__syncthreads();
	if (t == 0)
		atomicAdd(&o->lds_total, local);
}

__global__ void bad_store(int *p, int v)
{
	p[threadIdx.x] = v;
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

/* The sums' inputs: 1M ints in [-500, 500], so that every sum fits an int. */
#define RN (1 << 20)

static int *reduce_input(void)
{
	int *h = (int *)malloc(RN * sizeof(int));

	for (int i = 0; i < RN; i++)
		h[i] = (int)((i * 7919u) % 1001) - 500;
	return h;
}

static long long host_sum(const int *h, int n)
{
	long long s = 0;

	for (int i = 0; i < n; i++)
		s += h[i];
	return s;
}

/* Two passes: 1024 blocks of 256 threads, then one block over their sums. */
static int device_sum(int *d_in, int *d_part, int *d_out, int n)
{
	hipLaunchKernelGGL(block_sum, dim3(1024), dim3(256), 0, 0, d_in, d_part, n);
	hipLaunchKernelGGL(block_sum, dim3(1), dim3(256), 0, 0, d_part, d_out, 1024);
	return hipGetLastError() != hipSuccess;
}

static int reduce_step(void)
{
	int *h = reduce_input(), *d_in, *d_part, *d_out, got = 0, part[1024];
	long long want = host_sum(h, RN), pwant = 0;
	int bad;

	CHECK(hipMalloc(&d_in, RN * sizeof(int)));
	CHECK(hipMalloc(&d_part, 1024 * sizeof(int)));
	CHECK(hipMalloc(&d_out, sizeof(int)));
	CHECK(hipMemcpy(d_in, h, RN * sizeof(int), hipMemcpyHostToDevice));
	if (device_sum(d_in, d_part, d_out, RN))
		return (printf("FAIL: launch\n"), 1);
	CHECK(hipMemcpy(&got, d_out, sizeof(int), hipMemcpyDeviceToHost));
	CHECK(hipMemcpy(part, d_part, sizeof(part), hipMemcpyDeviceToHost));
	/* block b's threads sum the elements b*256+t + k*262144 */
	bad = 0;
	for (int b = 0; b < 1024; b++) {
		long long s = 0;

		for (int t = 0; t < 256; t++)
			for (int i = b * 256 + t; i < RN; i += 1024 * 256)
				s += h[i];
		bad += part[b] != s;
		pwant += s;
	}
	bad += got != want || pwant != want;
	printf("reduce: %d wrong (sum %d, host %lld)\n", bad, got, want);
	CHECK(hipFree(d_in));
	CHECK(hipFree(d_part));
	CHECK(hipFree(d_out));
	free(h);
	return bad != 0;
}

#define AN (1 << 14)

static int atomics_step(void)
{
	int *h = reduce_input(), *d_in, bad = 0;
	struct atomic_out init = { 0, INT_MIN, INT_MAX, 0, 0, 0, 0, 0, 0.0f, 0 }, got,
			  want = init;
	struct atomic_out *d_o;

	for (int i = 0; i < AN; i++) {
		want.sum += h[i];
		want.max = h[i] > want.max ? h[i] : want.max;
		want.min = h[i] < want.min ? h[i] : want.min;
		want.or_bits |= 1u << (i & 31);
		want.sum64 += (unsigned long long)(unsigned)h[i] << 20;
	}
	for (int i = 0; i < AN / 2; i++) {
		long long x;

		memcpy(&x, &h[2 * i], 8);
		want.lt64 += x < -5;
		want.gt64u += (unsigned long long)x > 0xfffffe0000000000ull;
	}
	want.lds_total = want.cas_count = AN;
	want.fsum = (float)AN;
	CHECK(hipMalloc(&d_in, AN * sizeof(int)));
	CHECK(hipMalloc(&d_o, sizeof(*d_o)));
	CHECK(hipMemcpy(d_in, h, AN * sizeof(int), hipMemcpyHostToDevice));
	CHECK(hipMemcpy(d_o, &init, sizeof(init), hipMemcpyHostToDevice));
	hipLaunchKernelGGL(atomics_kernel, dim3(AN / 256), dim3(256), 0, 0, d_in, AN, d_o);
	CHECK(hipGetLastError());
	CHECK(hipMemcpy(&got, d_o, sizeof(got), hipMemcpyDeviceToHost));
	bad += got.sum != want.sum;
	bad += got.max != want.max;
	bad += got.min != want.min;
	bad += got.or_bits != want.or_bits;
	bad += got.fsum != want.fsum;
	bad += got.sum64 != want.sum64;
	bad += got.lds_total != want.lds_total;
	bad += got.cas_count != want.cas_count;
	bad += got.lt64 != want.lt64 || got.gt64u != want.gt64u;
	printf("atomics: %d wrong (sum %d/%d max %d/%d min %d/%d or %#x/%#x fadd %g/%g "
	       "add64 %#llx/%#llx lds %d/%d cas %u/%u lt64 %u/%u gt64u %u/%u)\n",
	       bad, got.sum, want.sum, got.max, want.max, got.min, want.min, got.or_bits,
	       want.or_bits, (double)got.fsum, (double)want.fsum, got.sum64, want.sum64,
	       got.lds_total, want.lds_total, got.cas_count, want.cas_count, got.lt64, want.lt64,
	       got.gt64u, want.gt64u);
	CHECK(hipFree(d_in));
	CHECK(hipFree(d_o));
	free(h);
	return bad != 0;
}

/*
 * With hipDeviceScheduleBlockingSync, HIP waits for a kernel's completion
 * signal with HSA_WAIT_STATE_BLOCKED after a short spin, and ROCr's
 * interrupt signal sleeps in hsaKmtWaitOnEvent (AMDKFD_IOC_WAIT_EVENTS):
 * the sums of 1M ints take long enough on the emulated unit for both waits
 * to reach the KFD (the runner checks that in kfdsig trace's record).
 */
static int sync_step(void)
{
	int *h = reduce_input(), *d_in, *d_part, *d_out, got[2] = { 0, 0 };
	long long want = host_sum(h, RN);
	hipStream_t s;

	CHECK(hipSetDeviceFlags(hipDeviceScheduleBlockingSync));
	CHECK(hipStreamCreate(&s));
	CHECK(hipMalloc(&d_in, RN * sizeof(int)));
	CHECK(hipMalloc(&d_part, 1024 * sizeof(int)));
	CHECK(hipMalloc(&d_out, 2 * sizeof(int)));
	CHECK(hipMemcpy(d_in, h, RN * sizeof(int), hipMemcpyHostToDevice));
	CHECK(hipMemset(d_out, 0, 2 * sizeof(int)));
	hipLaunchKernelGGL(block_sum, dim3(1024), dim3(256), 0, s, d_in, d_part, RN);
	hipLaunchKernelGGL(block_sum, dim3(1), dim3(256), 0, s, d_part, d_out, 1024);
	CHECK(hipGetLastError());
	CHECK(hipStreamSynchronize(s));
	hipLaunchKernelGGL(block_sum, dim3(1024), dim3(256), 0, 0, d_in, d_part, RN);
	hipLaunchKernelGGL(block_sum, dim3(1), dim3(256), 0, 0, d_part, d_out + 1, 1024);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	CHECK(hipMemcpy(got, d_out, sizeof(got), hipMemcpyDeviceToHost));
	if (got[0] != want || got[1] != want)
		return (printf("sync: wrong sums %d %d, host %lld\n", got[0], got[1], want), 1);
	CHECK(hipStreamDestroy(s));
	CHECK(hipFree(d_in));
	CHECK(hipFree(d_part));
	CHECK(hipFree(d_out));
	free(h);
	printf("sync: ok\n");
	return 0;
}

/*
 * Copies and fills at odd offsets and sizes: ROCr's misaligned copy
 * kernel (or SDMA) for host<->device, ROCclr's byte-wise copyBuffer and
 * fillBuffer kernels for device<->device and hipMemset.
 */
static int unaligned_step(void)
{
	enum { SZ = 3 * 65536 + 77 };
	unsigned char *h = (unsigned char *)malloc(SZ), *r = (unsigned char *)malloc(SZ);
	unsigned char *d, *e;
	int bad = 0;

	for (int i = 0; i < SZ; i++)
		h[i] = (unsigned char)(i * 131 + 7);
	CHECK(hipMalloc(&d, SZ + 64));
	CHECK(hipMalloc(&e, SZ + 64));
	CHECK(hipMemset(d, 0, SZ + 64));
	CHECK(hipMemcpy(d + 3, h + 1, SZ - 9, hipMemcpyHostToDevice));
	CHECK(hipMemcpy(e + 5, d + 3, SZ - 9, hipMemcpyDeviceToDevice));
	CHECK(hipMemset(e + 1001, 0xc3, 4097));
	CHECK(hipMemcpy(r + 2, e + 5, SZ - 9, hipMemcpyDeviceToHost));
	for (int i = 0; i < SZ - 9; i++) {
		int at = i + 5;
		unsigned char want = at >= 1001 && at < 1001 + 4097 ? 0xc3 : h[i + 1];

		bad += r[i + 2] != want;
	}
	CHECK(hipMemcpy(r, d, 3, hipMemcpyDeviceToHost));
	bad += r[0] != 0 || r[1] != 0 || r[2] != 0;
	printf("unaligned: %d wrong\n", bad);
	CHECK(hipFree(d));
	CHECK(hipFree(e));
	free(h);
	free(r);
	return bad != 0;
}

/*
 * A store to an address no allocation maps (the top of the canonical
 * lower half, far above the emulated KFD's and the host's mappings). On a
 * GPU the page fault reaches ROCr's VM fault handler (Runtime::
 * VMFaultHandler in src/core/runtime/runtime.cpp), which prints
 * "Memory access fault by GPU node-N ..." and calls abort(): the process
 * does not return from hipDeviceSynchronize.
 */
static int fault_step(void)
{
	hipError_t e;

	hipLaunchKernelGGL(bad_store, dim3(1), dim3(64), 0, 0, (int *)0x7ffffff00000ull, 1);
	e = hipDeviceSynchronize();
	printf("fault: hipDeviceSynchronize returned %s\n", hipGetErrorString(e));
	return 1;
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
		else if (!strcmp(argv[i], "unaligned"))
			r = unaligned_step();
		else if (!strcmp(argv[i], "reduce"))
			r = reduce_step();
		else if (!strcmp(argv[i], "atomics"))
			r = atomics_step();
		else if (!strcmp(argv[i], "sync"))
			r = sync_step();
		else if (!strcmp(argv[i], "fault"))
			r = fault_step();
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
