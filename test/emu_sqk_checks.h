/* SPDX-License-Identifier: MIT */
/*
 * The kernels of test/kernels/sqk_kernels.ll, sqk_half.ll and sqk_signal.ll
 * run on a struct krig (emu_sqk_util.h: an AQL queue, or a PM4 queue after
 * krig_pm4(), or a test's own dispatch in krig.run3) and their results
 * compared with the host's: the test emu_sqk_kernels (a subset of the
 * targets), bench/sqk_matrix.c (every target LLVM 22 compiles, both
 * queues) and emu_pm4_kernels (its own PM4 packets) share them.
 */
#ifndef KFDSIG_TEST_EMU_SQK_CHECKS_H
#define KFDSIG_TEST_EMU_SQK_CHECKS_H

#include <math.h>

#include "emu/emu_host.h"
#include "emu_sqk_util.h"

#define KRIG_WAIT_MS 20000

/* A dispatch's return code: true when it ran; false, a failure, when it
 * did not; false, counted in r->refused and no failure, when the PM4
 * emitter refused it (-ENOTSUP); false, silent, when r->run3 did not run
 * it after an earlier failure (-ECANCELED). */
static inline bool krig_ran(struct krig *r, int rc, const char *what, const char *kernel)
{
	if ((rc == -ENOTSUP && r->pm4) || (rc == -ECANCELED && r->run3))
		return false;
	CHECK(rc == 0, "%s %s ran (%d)", what, kernel, rc);
	return rc == 0;
}

static inline bool krig_close_f(double got, double want, double rel)
{
	if (isnan(want))
		return isnan(got);
	return fabs(got - want) <= rel * fmax(fabs(want), 1e-30) + 1e-30;
}

/* A kernel's arguments: its buffers' VAs in order, then its element count
 * (a 32-bit value at the next 8-byte slot) when it takes one. */
struct krig_args {
	void *p[8];	/* the buffers' CPU addresses */
	uint64_t va[9]; /* the kernel arguments */
	size_t nargs;	/* their bytes */
};

/* Allocate @nb buffers of @bytes[i] bytes in @r (in order) into @k; @n:
 * the element count after them, or 0 when the kernel takes none. */
static inline void krig_args(struct krig *r, struct krig_args *k, const uint64_t *bytes,
			     unsigned nb, uint32_t n)
{
	memset(k, 0, sizeof(*k));
	for (unsigned i = 0; i < nb; i++)
		k->p[i] = krig_alloc(r, bytes[i], &k->va[i]);
	k->va[nb] = n;
	k->nargs = 8 * (nb + (n ? 1 : 0));
}

/* @kernel on @k's arguments over @grid work-items in groups of @wg:
 * krig_ran(). */
static inline bool krig_go(struct krig *r, const struct krig_args *k, const char *what,
			   const char *kernel, uint32_t grid, uint32_t wg)
{
	return krig_ran(r, krig_run(r, kernel, grid, wg, k->va, k->nargs, KRIG_WAIT_MS), what,
			kernel);
}

static inline void t_vadd(struct krig *r, const char *what)
{
	const uint32_t n = 1000;
	struct krig_args ka;
	float *a, *b, *c;
	unsigned bad = 0;

	krig_args(r, &ka, (const uint64_t[]){ 4 * n, 4 * n, 4 * n + 64 }, 3, n);
	a = ka.p[0], b = ka.p[1], c = ka.p[2];
	for (uint32_t i = 0; i < n; i++)
		a[i] = (float)i * 0.37f - 11.0f, b[i] = 1.0f / (float)(i + 1);
	memset(c, 0xcd, 4 * n + 64);
	if (!krig_go(r, &ka, what, "vadd", n, 64))
		return;
	for (uint32_t i = 0; i < n; i++)
		bad += !krig_close_f(c[i], a[i] + b[i] * 2.5f + (float)i, 1e-6);
	CHECK(bad == 0, "%s vadd: %u of %u wrong (c[1] %g)", what, bad, n, (double)c[1]);
	CHECK(((uint32_t *)c)[n] == 0xcdcdcdcdu, "%s vadd: nothing past n", what);
}

static inline void t_fmath(struct krig *r, const char *what)
{
	const uint32_t n = 256;
	struct krig_args ka;
	float *a, *b, *c;
	double *d;
	unsigned bad = 0, badd = 0;

	krig_args(r, &ka, (const uint64_t[]){ 4 * n, 4 * n, 4 * n, 8 * n }, 4, n);
	a = ka.p[0], b = ka.p[1], c = ka.p[2], d = ka.p[3];
	for (uint32_t i = 0; i < n; i++) {
		a[i] = ((float)i - 100.0f) * 1.7f;
		b[i] = (float)(i % 17) - 8.5f;
	}
	if (!krig_go(r, &ka, what, "fmath", n, 64))
		return;
	for (uint32_t i = 0; i < n; i++) {
		float want = a[i] / b[i] + sqrtf(fabsf(a[i])) + fmaf(a[i], b[i], 1.0f) +
			     floorf(b[i] * 3.3f);
		double wd =
			(double)a[i] / (double)b[i] + (double)i * 0.25 + sqrt(fabs((double)b[i]));

		if (!krig_close_f(c[i], want, 1e-5) && bad++ < 3)
			fprintf(stderr, "%s fmath[%u]: a %g b %g: f32 %.9g, host %.9g\n", what, i,
				(double)a[i], (double)b[i], (double)c[i], (double)want);
		if (!krig_close_f(d[i], wd, 1e-12) && badd++ < 3)
			fprintf(stderr, "%s fmath[%u]: a %g b %g: f64 %.17g, host %.17g\n", what, i,
				(double)a[i], (double)b[i], d[i], wd);
	}
	CHECK(bad == 0, "%s fmath f32: %u of %u wrong", what, bad, n);
	CHECK(badd == 0, "%s fmath f64: %u of %u wrong", what, badd, n);
}

/* sqk_half.ll's hmath on 64 lanes against the host's _Float16 and int16_t:
 * the f16 inputs are multiples of 0.5 in [-4, 4], so that every f16 result
 * is exact (the host's float arithmetic then rounds nothing). */
static inline void t_half(struct krig *r, const char *what)
{
	const uint32_t n = 64;
	struct krig_args ka;
	_Float16 *a, *b, *c;
	int16_t *x, *y, *z;
	float *f, f0[64];
	unsigned bad = 0;

	krig_args(r, &ka, (const uint64_t[]){ 2 * n, 2 * n, 4 * n, 2 * n, 2 * n, 2 * n, 8 * n }, 7,
		  0);
	a = ka.p[0], b = ka.p[1], c = ka.p[2];
	x = ka.p[3], y = ka.p[4], z = ka.p[5];
	f = ka.p[6];
	for (uint32_t i = 0; i < n; i++) {
		a[i] = (_Float16)(((float)(i % 17) - 8.0f) * 0.5f);
		b[i] = (_Float16)(((float)(i * 7 % 15) - 7.0f) * 0.5f);
		x[i] = (int16_t)(i * 1237u - 30000u);
		y[i] = (int16_t)(i % 5 == 0 ? x[i] : (int16_t)(i * 911u + 17u));
		f0[i] = f[i] = (float)i * 0.25f;
		f[n + i] = (float)i - 31.5f;
	}
	if (!krig_go(r, &ka, what, "hmath", n, 64))
		return;
	for (uint32_t i = 0; i < n; i++) {
		float p = (float)a[i], q = (float)b[i];
		float s = (float)(_Float16)((float)(_Float16)(p * q) + p);
		float rr = (float)(_Float16)(s * q + 1.5f);
		_Float16 sel = rr < q ? (_Float16)rr : (_Float16)(q - p);
		_Float16 hh = (_Float16)((float)(_Float16)((float)i - 31.5f) + (float)sel);
		int16_t xs = x[i], ys = y[i], ad = (int16_t)(xs + ys), mu = (int16_t)(ad * xs),
			sb = (int16_t)(xs - ys);
		int16_t u2 = (uint16_t)xs < (uint16_t)ys ? mu : sb;
		int16_t u3 = xs > ys ? u2 : (int16_t)(u2 >> 3);
		float fs = f0[i] + (float)sel;

		if ((c[i] != sel || c[n + i] != hh || z[i] != u3 || f[i] != fs) && bad++ < 3)
			fprintf(stderr,
				"%s hmath[%u]: a %g b %g x %d y %d: %g %g %d %g, host %g %g %d "
				"%g\n",
				what, i, (double)p, (double)q, xs, ys, (double)c[i],
				(double)c[n + i], z[i], (double)f[i], (double)sel, (double)hh, u3,
				(double)fs);
	}
	CHECK(bad == 0, "%s hmath: %u of %u wrong", what, bad, n);
}

/* IEEE binary16 classes of @h as LLVM's is.fpclass mask bits (LLVM
 * FloatingPointMode.h FPClassTest: 0x1 signaling NaN, 0x2 quiet NaN,
 * 0x4 -inf, 0x8 -normal, 0x10 -subnormal, 0x20 -0, 0x40 +0, 0x80
 * +subnormal, 0x100 +normal, 0x200 +inf), read from the bits (IEEE 754-2008
 * 3.4: a NaN is quiet when the significand's top bit is set). */
static inline uint32_t krig_f16_class(uint16_t h)
{
	uint32_t e = h >> 10 & 0x1f, m = h & 0x3ff;
	bool neg = h >> 15;

	if (e == 0x1f)
		return m ? (m & 0x200 ? 0x2 : 0x1) : neg ? 0x4 : 0x200;
	if (e == 0)
		return m ? (neg ? 0x10 : 0x80) : neg ? 0x20 : 0x40;
	return neg ? 0x8 : 0x100;
}

/* sqk_half.ll's hmath2 on 64 lanes: the neighbour's f16 in the quad
 * (lane ^ 1) plus the lane's, maxnum/minnum and a difference (inputs
 * multiples of 0.5 in [-4, 4]: every result exact), and three class
 * tests of special values (zeros, subnormals, infinities, NaNs, normals). */
static inline void t_half2(struct krig *r, const char *what)
{
	static const uint16_t special[12] = { 0x0000, 0x8000, 0x0001, 0x8200, 0x7c00, 0xfc00,
					      0x7d00, 0x7e00, 0x3e00, 0xc000, 0x03ff, 0x0400 };
	const uint32_t n = 64;
	struct krig_args ka;
	_Float16 *a, *b, *c;
	uint16_t *e;
	uint32_t *k;
	unsigned bad = 0;

	krig_args(r, &ka, (const uint64_t[]){ 2 * n, 2 * n, 2 * n, 4 * n, 4 * n }, 5, 0);
	a = ka.p[0], b = ka.p[1], e = ka.p[2], c = ka.p[3], k = ka.p[4];
	for (uint32_t i = 0; i < n; i++) {
		a[i] = (_Float16)(((float)(i % 13) - 6.0f) * 0.5f);
		b[i] = (_Float16)(((float)(i * 5 % 17) - 8.0f) * 0.5f);
		e[i] = special[i % 12];
	}
	memset(k, 0xcd, 4 * n);
	if (!krig_go(r, &ka, what, "hmath2", n, 64))
		return;
	for (uint32_t i = 0; i < n; i++) {
		float p = (float)a[i], q = (float)b[i], s = (float)a[i ^ 1] + q;
		float mx = p > q ? p : q, mn = s < p ? s : p;
		_Float16 ws = (_Float16)s, wd = (_Float16)(mx - mn);
		uint32_t cl = krig_f16_class(e[i]);
		uint32_t wk = (uint32_t) !!(cl & 0x121) | (uint32_t) !!(cl & 0x204) << 1 |
			      (uint32_t) !!(cl & 0x90) << 2;

		if ((c[i] != ws || c[n + i] != wd || k[i] != wk) && bad++ < 3)
			fprintf(stderr,
				"%s hmath2[%u]: a %g b %g e 0x%04x: %g %g 0x%x, host %g %g 0x%x\n",
				what, i, (double)p, (double)q, e[i], (double)c[i], (double)c[n + i],
				k[i], (double)ws, (double)wd, wk);
	}
	CHECK(bad == 0, "%s hmath2: %u of %u wrong", what, bad, n);
}

static inline void t_imath(struct krig *r, const char *what)
{
	const uint32_t n = 300;
	struct krig_args ka;
	uint64_t *x, *y, *q;
	int32_t *rr;
	unsigned bad = 0, badr = 0;
	uint64_t s = 0x123456789abcdefull;

	krig_args(r, &ka, (const uint64_t[]){ 8 * n, 8 * n, 8 * n, 4 * n }, 4, n);
	x = ka.p[0], y = ka.p[1], q = ka.p[2], rr = ka.p[3];
	for (uint32_t i = 0; i < n; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		x[i] = s >> (i % 40);
		y[i] = (s >> 7) % (i < 100 ? 1000u : 0xffffffffffull) + (i % 5);
	}
	if (!krig_go(r, &ka, what, "imath", n, 64))
		return;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = x[i], b = y[i] | 1;
		int32_t sv = (int32_t)(uint32_t)a;
		uint64_t want = (a * 0x9E3779B97F4A7C15ull) / b + a % 1000003u + (a >> (b & 63)) +
				(uint64_t)((int64_t)a / -7);
		/* the kernel's int arithmetic wraps on the GPU: add as uint32_t */
		int32_t wr = (int32_t)((uint32_t)(sv / 13) - (uint32_t)(sv % 9) +
				       (uint32_t)((int32_t)(uint32_t)(a >> 33) ^ (sv >> 3)) +
				       (uint32_t)__builtin_popcount((uint32_t)a) +
				       (uint32_t)__builtin_clz((uint32_t)b | 1));

		bad += q[i] != want;
		badr += rr[i] != wr;
	}
	CHECK(bad == 0, "%s imath 64-bit: %u of %u wrong", what, bad, n);
	CHECK(badr == 0, "%s imath 32-bit: %u of %u wrong", what, badr, n);
}

static inline void t_reduce(struct krig *r, const char *what, uint32_t wg)
{
	const uint32_t groups = 8, n = groups * wg;
	struct krig_args ka;
	uint32_t *in, *out;
	unsigned bad = 0;

	krig_args(r, &ka, (const uint64_t[]){ 4 * n, 4 * groups }, 2, 0);
	in = ka.p[0], out = ka.p[1];
	for (uint32_t i = 0; i < n; i++)
		in[i] = i * 2654435761u >> 7;
	if (!krig_go(r, &ka, what, "reduce", n, wg))
		return;
	for (uint32_t g = 0; g < groups; g++) {
		uint32_t want = 0;

		for (uint32_t i = 0; i < wg; i++)
			want += in[g * wg + i];
		bad += out[g] != want;
	}
	CHECK(bad == 0, "%s reduce (workgroup %u): %u of %u groups wrong", what, wg, bad, groups);
}

static inline void t_atom(struct krig *r, const char *what)
{
	const uint32_t n = 1000;
	struct krig_args ka;
	uint32_t *ctr, *hist;
	uint64_t *sum;
	uint32_t wh[16] = { 0 }, w1 = 0, w2 = 0;
	uint64_t ws = 0;
	unsigned bad = 0;

	krig_args(r, &ka, (const uint64_t[]){ 16, 64, 8 }, 3, n);
	ctr = ka.p[0], hist = ka.p[1], sum = ka.p[2];
	if (!krig_go(r, &ka, what, "atom", n, 128))
		return;
	for (uint32_t i = 0; i < n; i++) {
		wh[i % 16] += i;
		w1 += i & 3;
		w2 = (i * 7u) % 1000u > w2 ? (i * 7u) % 1000u : w2;
		ws += (uint64_t)i * 100000u;
	}
	for (int k = 0; k < 16; k++)
		bad += hist[k] != wh[k];
	CHECK(ctr[0] == n && ctr[1] == w1 && ctr[2] == w2 && *sum == ws && bad == 0,
	      "%s atomics: count %u (%u), lds %u (%u), max %u (%u), sum64 %llu (%llu), hist %u "
	      "wrong",
	      what, ctr[0], n, ctr[1], w1, ctr[2], w2, (unsigned long long)*sum,
	      (unsigned long long)ws, bad);
}

static inline void t_priv(struct krig *r, const char *what)
{
	const uint32_t n = 300;
	struct krig_args ka;
	uint32_t *in, *out;
	unsigned bad = 0;

	krig_args(r, &ka, (const uint64_t[]){ 4 * n, 4 * n }, 2, n);
	in = ka.p[0], out = ka.p[1];
	for (uint32_t i = 0; i < n; i++)
		in[i] = i * 40503u + 17;
	if (!krig_go(r, &ka, what, "priv", n, 64))
		return;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t t[32], idx = in[i] % 32;

		for (uint32_t k = 0; k < 32; k++)
			t[k] = in[i] * k + (k ^ i);
		bad += out[i] != t[idx] + t[(idx * 7) % 32];
	}
	CHECK(bad == 0, "%s private arrays: %u of %u wrong", what, bad, n);
}

/* Work-item and workgroup ids of a 3D dispatch (8x8x8 in 4x4x4 groups):
 * packed in v0 on gfx90a and gfx940, v0-v2 elsewhere; workgroup ids in
 * the system SGPRs. */
static inline void t_ids(struct krig *r, const char *what)
{
	const uint32_t grid[3] = { 8, 8, 8 }, wg[3] = { 4, 4, 4 };
	uint64_t out_va;
	uint32_t *out = krig_alloc(r, 4 * 512, &out_va);
	unsigned bad = 0;

	if (!krig_ran(r, krig_run3(r, "ids", grid, wg, &out_va, 8, KRIG_WAIT_MS), what, "ids"))
		return;
	for (uint32_t i = 0; i < 512; i++) {
		uint32_t g = i / 64, t = i % 64;
		uint32_t want = (t % 4) | (t / 4 % 4) << 4 | (t / 16) << 8 | (g % 2) << 12 |
				(g / 2 % 2) << 16 | (g / 4) << 20;

		bad += out[i] != want;
	}
	CHECK(bad == 0, "%s 3D ids: %u of 512 wrong (out[1] 0x%x, out[70] 0x%x)", what, bad, out[1],
	      out[70]);
}

/* The host's diagnostic lines (emu_host_set_diag(): set krig_diag on the
 * emulator): the last one of the shader unit's release check, and of the
 * checks LLVM's code must always pass; every line on stderr too while
 * krig_diag_echo is set. */
static char rel_line[400], check_line[400];
static bool krig_diag_echo;

static inline void krig_diag(void *ctx, const char *line)
{
	(void)ctx;
	if (krig_diag_echo)
		fprintf(stderr, "diag: %s\n", line);
	if (strstr(line, "released at system scope"))
		snprintf(rel_line, sizeof(rel_line), "%s", line);
	if (strstr(line, "before the wait for the scalar load") || strstr(line, "write of m0"))
		snprintf(check_line, sizeof(check_line), "%s", line);
}

/* test/kernels/sqk_signal.ll, loaded in @r (krig_diag set on its emulator;
 * @spec: its target): a wave signals a KFD event with s_sendmsg after real
 * work (squares summed by atomics across the workgroup's waves); WAIT_EVENTS
 * on the event completes, the sum is the host's; its release passes the
 * shader unit's release check, and the same message without the release
 * (signal_norel) is reported to the host, naming the target and the
 * queue. */
static inline void t_signal_on(struct krig *r, const char *spec, const char *what)
{
	struct kfdsig_event ev;
	struct kfdsig_wait_entry w = { 0 };
	enum kfdsig_wait_result res = KFDSIG_WAIT_TIMEOUT;
	uint64_t *page, page_va, in_va, out_va;
	uint32_t *in, *out, want = 0;
	struct {
		uint64_t in, out, slot;
		uint32_t id;
	} args;

	rel_line[0] = 0;
	ev = t_event(r->kfd, KFDSIG_EVENT_SIGNAL, false);
	T_REQUIRE(!kfdsig_kfd_signal_page(r->kfd, &page, &page_va), "signal page");
	in = krig_alloc(r, 4 * 256, &in_va);
	out = krig_alloc(r, 4, &out_va);
	for (uint32_t i = 0; i < 256; i++) {
		in[i] = i * 3 + 1;
		want += in[i] * in[i];
	}
	*out = 0;
	args.in = in_va;
	args.out = out_va;
	args.slot = page_va + 8ull * ev.id;
	args.id = ev.id;
	if (!krig_ran(r, krig_run(r, "signal", 256, 256, &args, sizeof(args), KRIG_WAIT_MS), what,
		      "signal"))
		return;
	CHECK(*out == want, "%s: sum %u, host %u", what, *out, want);
	/* the wave sent its message before it ended, and the emulated
	 * interrupt handler takes it there: with the dispatch complete, an
	 * interrupt that is not in the trace never comes */
	{
		struct kfdsig_emu_irq_record rec[8];
		int nr = kfdsig_emu_irq_trace(r->emu, r->pasid, rec, 8);
		bool taken = false;

		for (int k = 0; k < nr; k++)
			taken |= rec[k].source == KFDSIG_EMU_IRQ_SQ_MSG;
		CHECK(taken,
		      "%s: the wave's MSG_INTERRUPT reached the interrupt handler (%d "
		      "interrupts recorded)",
		      what, nr);
		if (taken) {
			w.event_id = ev.id;
			CHECK(t_wait(r->kfd, &w, 1, false, KRIG_WAIT_MS, &res) == 0 &&
				      res == KFDSIG_WAIT_COMPLETE,
			      "%s: the wave's s_sendmsg woke WAIT_EVENTS on event %u", what, ev.id);
		}
	}
	CHECK(!rel_line[0], "%s: the release passes the release check ('%s')", what, rel_line);
	if (!krig_ran(r, krig_run(r, "signal_norel", 64, 64, &args, sizeof(args), KRIG_WAIT_MS),
		      what, "signal_norel"))
		return;
	CHECK(strstr(rel_line, spec) == rel_line && strstr(rel_line, " queue ") &&
		      strstr(rel_line, "s_sendmsg(MSG_INTERRUPT) at 0x") &&
		      strstr(rel_line, "before the store at 0x"),
	      "%s: no release: the host is told ('%s')", what, rel_line);
}

static inline void t_reduce256(struct krig *r, const char *what)
{
	t_reduce(r, what, 256);
}

static inline void t_reduce64(struct krig *r, const char *what)
{
	t_reduce(r, what, 64);
}

/* sqk_kernels.ll's kernels, in the order they run */
static void (*const krig_kernels[])(struct krig *, const char *) = {
	t_vadd, t_fmath, t_imath, t_reduce256, t_reduce64, t_atom, t_priv, t_ids,
};

#endif
