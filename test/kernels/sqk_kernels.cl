/* SPDX-License-Identifier: MIT */
/*
 * Kernels of test/emu_sqk_kernels.c, compiled with clang 22 for each
 * target at -O0 and -O3 and run on the emulated shader unit; the test
 * computes the same on the host. Only clang builtins (no device library):
 * work-item ids from __builtin_amdgcn_*, the workgroup size from the
 * dispatch packet (hsa_kernel_dispatch_packet_t.workgroup_size_x at 4).
 */
typedef unsigned int u32;
typedef unsigned long u64;

static u32 wgsize(void)
{
	return ((__constant unsigned short *)__builtin_amdgcn_dispatch_ptr())[2];
}

static u32 gid(void)
{
	return __builtin_amdgcn_workgroup_id_x() * wgsize() + __builtin_amdgcn_workitem_id_x();
}

static void sync_group(void)
{
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

kernel void vadd(global const float *a, global const float *b, global float *c, u32 n)
{
	u32 i = gid();

	if (i < n)
		c[i] = a[i] + b[i] * 2.5f + (float)i;
}

kernel void fmath(global const float *a, global const float *b, global float *c,
		  global double *d, u32 n)
{
	u32 i = gid();

	if (i < n) {
		c[i] = a[i] / b[i] + __builtin_sqrtf(__builtin_fabsf(a[i])) +
		       __builtin_fmaf(a[i], b[i], 1.0f) + __builtin_floorf(b[i] * 3.3f);
		d[i] = (double)a[i] / (double)b[i] + (double)i * 0.25 +
		       __builtin_sqrt((double)__builtin_fabsf(b[i]));
	}
}

kernel void imath(global const u64 *x, global const u64 *y, global u64 *q, global int *r,
		  u32 n)
{
	u32 i = gid();

	if (i < n) {
		u64 a = x[i], b = y[i] | 1;
		int s = (int)a;

		q[i] = (a * 0x9E3779B97F4A7C15ul) / b + a % 1000003u + (a >> (b & 63)) +
		       (u64)((long)a / -7);
		r[i] = s / 13 - s % 9 + ((int)(a >> 33) ^ (s >> 3)) + __builtin_popcount((u32)a) +
		       __builtin_clz((u32)b | 1);
	}
}

kernel void reduce(global const u32 *in, global u32 *out)
{
	local u32 s[256];
	u32 l = __builtin_amdgcn_workitem_id_x(), g = __builtin_amdgcn_workgroup_id_x(),
	    n = wgsize();

	s[l] = in[g * n + l];
	sync_group();
	for (u32 st = n / 2; st > 0; st >>= 1) {
		if (l < st)
			s[l] += s[l + st];
		sync_group();
	}
	if (l == 0)
		out[g] = s[0];
}

kernel void atom(global u32 *ctr, global u32 *hist, global u64 *sum64, u32 n)
{
	local u32 lc;
	u32 i = gid(), l = __builtin_amdgcn_workitem_id_x();

	if (l == 0)
		lc = 0;
	sync_group();
	if (i < n) {
		__atomic_fetch_add(&ctr[0], 1u, __ATOMIC_RELAXED);
		__atomic_fetch_add(&hist[i % 16], i, __ATOMIC_RELAXED);
		__atomic_fetch_max(&ctr[2], (i * 7u) % 1000u, __ATOMIC_RELAXED);
		__atomic_fetch_add(sum64, (u64)i * 100000ul, __ATOMIC_RELAXED);
		__atomic_fetch_add(&lc, i & 3, __ATOMIC_RELAXED);
	}
	sync_group();
	if (l == 0)
		__atomic_fetch_add(&ctr[1], lc, __ATOMIC_RELAXED);
}

kernel void priv(global const u32 *in, global u32 *out, u32 n)
{
	u32 t[32];
	u32 i = gid();

	if (i >= n)
		return;
	for (u32 k = 0; k < 32; k++)
		t[k] = in[i] * k + (k ^ i);
	{
		u32 idx = in[i] % 32;

		out[i] = t[idx] + t[(idx * 7) % 32];
	}
}

kernel void poke(global u32 *p)
{
	p[gid()] = 1;
}

kernel void ids(global u32 *out)
{
	u32 x = __builtin_amdgcn_workitem_id_x(), y = __builtin_amdgcn_workitem_id_y(),
	    z = __builtin_amdgcn_workitem_id_z();
	u32 gx = __builtin_amdgcn_workgroup_id_x(), gy = __builtin_amdgcn_workgroup_id_y(),
	    gz = __builtin_amdgcn_workgroup_id_z();
	u32 i = ((gz * 2 + gy) * 2 + gx) * 64 + (z * 4 + y) * 4 + x;

	out[i] = x | y << 4 | z << 8 | gx << 12 | gy << 16 | gz << 20;
}
