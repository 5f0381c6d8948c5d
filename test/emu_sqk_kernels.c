/* SPDX-License-Identifier: MIT */
/*
 * Compiled kernels on the emulated shader unit, checked against the host:
 * test/kernels/sqk_kernels.ll (from sqk_kernels.cl) compiled by LLVM 22 at
 * -O0 and -O3 for gfx802, gfx803, gfx900, gfx906, gfx908, gfx90a, gfx942, gfx950 (wave64) and
 * gfx1030/gfx1036, gfx1010/gfx1012 and gfx1100 (wave32, and wave64 through
 * +wavefrontsize64), gfx1151 (wave32), gfx1200 (wave32 and wave64) and
 * gfx1201 (wave32), gfx1250 (wave32; its -O3 code uses VOPD3, run through a
 * PM4 queue too where the emitter takes the kernel), run
 * through an AQL queue of the emulated KFD: a vector add over a partial
 * last workgroup, float and double math (division, sqrt, fma, floor), 64-
 * and 32-bit integer math (division, remainder, shifts, popcount, clz), an
 * LDS reduction with barriers, global and LDS atomics, private arrays
 * (scratch); and test/kernels/sqk_half.ll's 16-bit math (f16 and i16,
 * LLVM 22's true16 register halves on gfx1100, fake16 on gfx1200 and
 * gfx1250) at -O0 and -O2 with its hmath2 (16-bit DPP, on gfx12 a VOP3
 * DPP form; f16 maxnum / minnum, on gfx12 v_max_num / v_min_num; f16
 * class); and test/kernels/sqk_clamp.ll's f32 and integer clamps at -O3
 * on gfx1100, gfx1201 and gfx1250 (v_maxmin / v_minmax, the _num forms on
 * gfx12); test/kernels/sqk_sfloat.ll's uniform float math at -O0 and -O3
 * on gfx1151, gfx1201 and gfx1250 (the scalar float operations);
 * test/kernels/sqk_lds_cas.ll's LDS compare-and-swap (32 and 64 bits) at -O0
 * and -O3 on gfx90a, gfx1030, gfx1100 (wave32, wave64), gfx1201, gfx1250;
 * a wave's VM fault: test/emu_sqk_vm_fault.c. A dispatch on a queue that
 * stopped fails at once. The kernels and their host checks are
 * in emu_sqk_checks.h (bench/sqk_matrix.c runs them on every target). Exit
 * 77 without LLVM 22.
 */
#include "emu_sqk_checks.h"

static const char *ll_path(void)
{
	return KFDSIG_SOURCE_DIR "/test/kernels/sqk_kernels.ll";
}

/* test/kernels/@file compiled for @mcpu (@attrs) at -O@opt (the test ends
 * when LLVM fails: "compile @what"), loaded into a rig of @size bytes on
 * the emulated @spec; krig_done() closes both. */
static void krig_build(struct krig *r, struct kco *co, const char *file, const char *spec,
		       const char *mcpu, const char *attrs, int opt, uint64_t size,
		       const char *what)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/test/kernels/%s", KFDSIG_SOURCE_DIR, file);
	T_REQUIRE(kco_build(path, mcpu, attrs, opt, co) == 0, "compile %s", what);
	krig_open(r, spec, size);
	krig_load(r, co);
}

static void krig_done(struct krig *r, struct kco *co)
{
	krig_close(r);
	kco_free(co);
}

/* test/kernels/sqk_signal.ll compiled for @mcpu (@attrs) at -O@opt on
 * the emulated @spec: t_signal_on(). */
static void t_signal(const char *spec, const char *mcpu, const char *attrs, int opt)
{
	struct kco co;
	struct krig r;
	char what[96];

	snprintf(what, sizeof(what), "%s%s%s -O%d signal", mcpu, *attrs ? " " : "", attrs, opt);
	krig_build(&r, &co, "sqk_signal.ll", spec, mcpu, attrs, opt, 1u << 20, what);
	emu_host_set_diag(r.emu, krig_diag, NULL);
	t_signal_on(&r, spec, what);
	krig_done(&r, &co);
}

/* test/kernels/sqk_clamp.ll at -O3 on @mcpu: LLVM 22's clamps (gfx11
 * v_maxmin_f32, v_maxmin_i32, v_minmax_u32; gfx12 v_maxmin_num_f32)
 * against the host's, bounds from memory and as constants. */
static void t_clamp(const char *mcpu)
{
	const uint32_t n = 200;
	struct kco co;
	struct krig r;
	struct krig_args ka;
	float *f, *bf;
	uint32_t *o, *bu;
	unsigned bad = 0;
	char what[64];

	snprintf(what, sizeof(what), "%s -O3 clamp", mcpu);
	krig_build(&r, &co, "sqk_clamp.ll", mcpu, mcpu, "", 3, 1u << 20, what);
	krig_args(&r, &ka, (const uint64_t[]){ 4 * n, 16 * n, 16 }, 3, n);
	f = ka.p[0], o = ka.p[1], bf = ka.p[2], bu = ka.p[2];
	bf[0] = -1.5f, bf[1] = 2.5f, bu[2] = (uint32_t)-3, bu[3] = 7;
	for (uint32_t i = 0; i < n; i++)
		f[i] = ((float)i - 100.0f) * 0.0625f;
	if (krig_go(&r, &ka, what, "clamp", n, 64))
		for (uint32_t i = 0; i < n; i++) {
			float v = f[i], w0 = fminf(fmaxf(v, -1.5f), 2.5f),
			      w1 = fminf(fmaxf(v, -2.0f), 3.0f);
			int32_t vi = (int32_t)v, w2 = vi > -3 ? vi : -3;
			uint32_t w3 = (uint32_t)vi < 7u ? (uint32_t)vi : 7u;
			float g0, g1;

			w2 = w2 < 7 ? w2 : 7;
			w3 = w3 > (uint32_t)-3 ? w3 : (uint32_t)-3;
			memcpy(&g0, &o[4 * i], 4);
			memcpy(&g1, &o[4 * i + 1], 4);
			if ((g0 != w0 || g1 != w1 || o[4 * i + 2] != (uint32_t)w2 ||
			     o[4 * i + 3] != w3) &&
			    bad++ < 3)
				fprintf(stderr, "%s[%u] %g: %g %g %d %u, host %g %g %d %u\n", what,
					i, (double)v, (double)g0, (double)g1, (int)o[4 * i + 2],
					o[4 * i + 3], (double)w0, (double)w1, w2, w3);
		}
	CHECK(bad == 0, "%s: %u of %u wrong", what, bad, n);
	krig_done(&r, &co);
}

/* test/kernels/sqk_sfloat.ll's sixteen results from u = { a, b, c, n }
 * and the lane's x, as the IR defines them: each f32 operation rounded on
 * its own (no contraction), denormals kept, half operations rounded once
 * to binary16 from their exact value (a sum or product of two halves is
 * exact in double). */
static float h16(double v)
{
	return (float)(_Float16)v;
}

static void sfloat_model(float a, float b, float c, int32_t n, float x, float r[16])
{
	float m = a * b, mx, fl, ha = (float)(_Float16)a, hb = (float)(_Float16)b,
	      hc = (float)(_Float16)c;

	r[0] = m + 1.5f;
	mx = fmaxf(r[0], b);
	r[1] = mx - a;
	fl = floorf(r[1]);
	r[2] = fl + (float)n;
	r[3] = a < b ? 2.0f : 3.0f;
	r[4] = (float)(int32_t)(a * 3.0f);
	r[5] = fmaf(a, b, c);
	r[6] = fminf(a, c) * 0.5f;
	r[7] = ceilf(c) - truncf(b);
	r[8] = nearbyintf(a) + (float)(uint32_t)n;
	r[9] = (float)(uint32_t)c;
	r[10] = h16((double)ha + hb);
	r[11] = h16((double)h16((double)hb * hc) * 2.0);
	r[12] = (isnan(b) || isnan(c) || a >= c) ? 5.0f : 7.0f;
	r[13] = h16(fmax(ha, hc));
	r[14] = a * 0.25f - sqrtf(fabsf(c));
	r[15] = x * r[0];
}

/* test/kernels/sqk_sfloat.ll at -O@opt on @mcpu: uniform float math,
 * which LLVM 22 selects as scalar float operations on GFX11.5 and gfx12
 * (s_add_f32, s_mul_f32, s_fmac_f32, s_cvt_*, s_rndne_f32, s_cmp_*_f32,
 * s_add_f16, s_mul_f16, s_max_f16 / s_max_num_f16), against the host for
 * six sets of values: signs, a NaN, infinities, a denormal, f16 overflow
 * and denormals (every result bit for bit; a NaN for a NaN). */
static void t_sfloat(const char *mcpu, int opt)
{
	static const struct {
		float a, b, c;
		int32_t n;
	} u[] = {
		{ 1.25f, -2.5f, 3.75f, 7 },	 { -0.3f, 0.7f, 5.5f, -3 },
		{ 2.0f, NAN, 1.0f, 0 },		 { 1e6f, -INFINITY, 1e-40f, 100 },
		{ 3.0e5f, 2.0f, 0.0f, 1 << 20 }, { 65504.0f, 6.1e-5f, 5.96e-8f, -1 },
	};
	const uint32_t n = 70;
	struct kco co;
	struct krig r;
	unsigned bad = 0;
	char what[64];

	snprintf(what, sizeof(what), "%s -O%d scalar float", mcpu, opt);
	krig_build(&r, &co, "sqk_sfloat.ll", mcpu, mcpu, "", opt, 1u << 20, what);
	for (size_t k = 0; k < sizeof(u) / sizeof(u[0]); k++) {
		struct krig_args ka;
		float *ub, *x, *o;

		krig_args(&r, &ka, (const uint64_t[]){ 16, 4 * n, 64 * n }, 3, n);
		ub = ka.p[0], x = ka.p[1], o = ka.p[2];
		ub[0] = u[k].a, ub[1] = u[k].b, ub[2] = u[k].c;
		memcpy(&ub[3], &u[k].n, 4);
		for (uint32_t i = 0; i < n; i++)
			x[i] = (float)i * 0.5f - 3.0f;
		memset(o, 0xcd, 64 * n);
		if (!krig_go(&r, &ka, what, "sfloat", n, 64)) {
			bad++;
			break;
		}
		for (uint32_t i = 0; i < n; i++) {
			float want[16];

			sfloat_model(u[k].a, u[k].b, u[k].c, u[k].n, x[i], want);
			for (unsigned j = 0; j < 16; j++) {
				float got = o[16 * i + j];

				if ((isnan(want[j]) ? !isnan(got)
						    : memcmp(&got, &want[j], 4) != 0) &&
				    bad++ < 4)
					fprintf(stderr, "%s set %zu lane %u r%u: %a, host %a\n",
						what, k, i, j, (double)got, (double)want[j]);
			}
		}
	}
	CHECK(bad == 0, "%s: %u results differ from the host's", what, bad);
	krig_done(&r, &co);
}

/* test/kernels/sqk_lds_cas.ll at -O@opt on @mcpu (@attrs): LDS
 * compare-and-swap, 32 and 64 bits (ds_cmpst_rtn_* before gfx11,
 * ds_cmpstore_rtn_* with its data operands the other way round from
 * gfx11 on): in each workgroup exactly one work-item wins each of the 8
 * slots, the slot holding its id + 1, and a cmpxchg loop leaves the
 * group's largest x. */
static void t_lds_cas(const char *spec, const char *mcpu, const char *attrs, int opt)
{
	const uint32_t groups = 4, n = 64 * groups;
	struct kco co;
	struct krig r;
	struct krig_args ka;
	uint64_t *x, *o64;
	uint32_t *won, *out;
	unsigned bad = 0;
	char what[96];

	snprintf(what, sizeof(what), "%s%s%s -O%d lds cas", mcpu, *attrs ? " " : "", attrs, opt);
	krig_build(&r, &co, "sqk_lds_cas.ll", spec, mcpu, attrs, opt, 1u << 20, what);
	krig_args(&r, &ka, (const uint64_t[]){ 8 * n, 4 * n, 4 * 8 * groups, 8 * groups }, 4, 0);
	x = ka.p[0], won = ka.p[1], out = ka.p[2], o64 = ka.p[3];
	for (uint32_t i = 0; i < n; i++)
		x[i] = (uint64_t)((i * 2654435761u) % 100000u) << 20 | i;
	memset(won, 0xcd, 4 * n);
	if (krig_go(&r, &ka, what, "lds_cas", n, 64))
		for (uint32_t g = 0; g < groups; g++) {
			uint64_t mx = 0;

			for (uint32_t k = 0; k < 8; k++) {
				unsigned wins = 0;
				uint32_t s = out[8 * g + k];

				for (uint32_t j = k; j < 64; j += 8)
					if (won[64 * g + j] == 1)
						wins++, bad += s != 64 * g + j + 1;
					else
						bad += won[64 * g + j] != 0;
				bad += wins != 1;
			}
			for (uint32_t j = 0; j < 64; j++)
				mx = x[64 * g + j] > mx ? x[64 * g + j] : mx;
			if (o64[g] != mx && bad++ < 3)
				fprintf(stderr, "%s group %u: max 0x%llx, want 0x%llx\n", what, g,
					(unsigned long long)o64[g], (unsigned long long)mx);
		}
	else
		bad++;
	CHECK(bad == 0, "%s: %u wrong", what, bad);
	krig_done(&r, &co);
}

int main(void)
{
	static const struct {
		const char *spec, *mcpu, *attrs;
	} tg[] = {
		{ "gfx900", "gfx900", "" },
		{ "gfx1100", "gfx1100", "" },
		{ "gfx1100", "gfx1100", "+wavefrontsize64" },
		{ "gfx1151", "gfx1151", "" },
		{ "gfx906", "gfx906", "" },
		{ "gfx908", "gfx908", "" },
		{ "gfx90a", "gfx90a", "" },
		{ "gfx942", "gfx942", "" },
		{ "gfx950", "gfx950", "" },
		{ "gfx1030", "gfx1030", "" },
		{ "gfx1030", "gfx1030", "+wavefrontsize64" },
		{ "gfx1036", "gfx1036", "" },
		{ "gfx1010", "gfx1010", "" },
		{ "gfx1010", "gfx1010", "+wavefrontsize64" },
		{ "gfx1012", "gfx1012", "" },
		{ "gfx803", "gfx803", "" },
		{ "gfx802", "gfx802", "" },
		{ "gfx1200", "gfx1200", "" },
		{ "gfx1200", "gfx1200", "+wavefrontsize64" },
		{ "gfx1201", "gfx1201", "" },
		{ "gfx1250", "gfx1250", "" },
	};

	if (!kco_llvm()) {
		printf("SKIP: no LLVM 22 (opt, llc, ld.lld) in %s\n", KFDSIG_LLVM22_BIN);
		return T_EXIT_SKIP;
	}
	for (int opt = 0; opt <= 3; opt += 3) {
		t_signal("gfx1030", "gfx1030", "", opt);
		t_signal("gfx1100", "gfx1100", "", opt);
		t_signal("gfx1100", "gfx1100", "+wavefrontsize64", opt);
		t_signal("gfx1151", "gfx1151", "", opt);
		t_signal("gfx1200", "gfx1200", "", opt);
		t_signal("gfx1200", "gfx1200", "+wavefrontsize64", opt);
		t_signal("gfx1201", "gfx1201", "", opt);
		t_signal("gfx1250", "gfx1250", "", opt);
	}
	if (t_failures)
		return t_result("emu_sqk_kernels");
	t_clamp("gfx1100");
	t_clamp("gfx1201");
	t_clamp("gfx1250");
	for (int opt = 0; opt <= 3; opt += 3) {
		t_lds_cas("gfx90a", "gfx90a", "", opt);
		t_lds_cas("gfx1030", "gfx1030", "", opt);
		t_lds_cas("gfx1100", "gfx1100", "", opt);
		t_lds_cas("gfx1100", "gfx1100", "+wavefrontsize64", opt);
		t_lds_cas("gfx1201", "gfx1201", "", opt);
		t_lds_cas("gfx1250", "gfx1250", "", opt);
	}
	for (int opt = 0; opt <= 3; opt += 3) {
		t_sfloat("gfx1151", opt);
		t_sfloat("gfx1201", opt);
		t_sfloat("gfx1250", opt);
	}
	/* 16-bit math: true16 on gfx1100, fake16 on gfx1200 and gfx1250 */
	for (int opt = 0; opt <= 2; opt += 2)
		for (const char *const *m =
			     (const char *const[]){ "gfx1100", "gfx1200", "gfx1250", NULL };
		     *m; m++) {
			struct kco co;
			struct krig r;
			char what[64];

			snprintf(what, sizeof(what), "%s -O%d", *m, opt);
			T_REQUIRE(kco_build(KFDSIG_SOURCE_DIR "/test/kernels/sqk_half.ll", *m, "",
					    opt, &co) == 0,
				  "compile sqk_half.ll %s", what);
			krig_open(&r, *m, 8u << 20);
			krig_load(&r, &co);
			t_half(&r, what);
			/* gfx12: maxnum / minnum as v_max_num_f16 /
			 * v_min_num_f16, -O2 the DPP move folded into a VOP3
			 * DPP v_add_f16_e64_dpp */
			t_half2(&r, what);
			krig_close(&r);
			kco_free(&co);
		}
	if (t_failures)
		return t_result("emu_sqk_kernels");
	for (size_t i = 0; i < sizeof(tg) / sizeof(tg[0]); i++)
		for (int opt = 0; opt <= 3; opt += 3) {
			struct kco co;
			struct krig r;
			char what[96];

			snprintf(what, sizeof(what), "%s%s%s -O%d", tg[i].mcpu,
				 *tg[i].attrs ? " " : "", tg[i].attrs, opt);
			T_REQUIRE(kco_build(ll_path(), tg[i].mcpu, tg[i].attrs, opt, &co) == 0,
				  "compile %s", what);
			krig_open(&r, tg[i].spec, 8u << 20);
			check_line[0] = 0;
			emu_host_set_diag(r.emu, krig_diag, NULL);
			krig_load(&r, &co);
			/* the first failure ends the test: the verdict is in, and
			 * on a unit gone wrong the next kernel may loop for ever */
			for (size_t k = 0;
			     k < sizeof(krig_kernels) / sizeof(krig_kernels[0]) && !t_failures; k++)
				krig_kernels[k](&r, what);
			CHECK(!check_line[0], "%s: the shader unit's checks report LLVM's code: %s",
			      what, check_line);
			krig_close(&r);
			kco_free(&co);
			if (t_failures) {
				fprintf(stderr, "%s failed: the kernels after it not run\n", what);
				return t_result("emu_sqk_kernels");
			}
		}
	/* gfx1250 -O3 through a PM4 queue (kfdsig_pm4_emit_kernel()): the
	 * kernels without private or group memory, which the emitter refuses
	 * on GC 12.1; its VOPD3 code to the host's answer there too */
	{
		struct kco co;
		struct krig r;

		T_REQUIRE(kco_build(ll_path(), "gfx1250", "", 3, &co) == 0, "compile gfx1250 -O3");
		krig_open(&r, "gfx1250", 8u << 20);
		krig_pm4(&r, "gfx1250", 2u << 20);
		krig_load(&r, &co);
		t_vadd(&r, "gfx1250 -O3 PM4");
		t_fmath(&r, "gfx1250 -O3 PM4");
		t_imath(&r, "gfx1250 -O3 PM4");
		CHECK(r.refused == 0, "gfx1250 -O3 PM4: %u dispatches refused (%s)", r.refused,
		      r.refused_why);
		krig_close(&r);
		kco_free(&co);
	}
	return t_result("emu_sqk_kernels");
}
