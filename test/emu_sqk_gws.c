/* SPDX-License-Identifier: MIT */
/*
 * The GWS semaphore and barrier of a queue's GWS on the shader unit, run
 * with sqk_run() directly (the MI200 ISA manual, "DS_GWS_INIT",
 * "DS_GWS_SEMA_V", "DS_GWS_SEMA_P", "DS_GWS_BARRIER": the resource is
 * offset0[5:0] + M0[21:16], the value DATA0 of the first active lane; P
 * waits until the counter is above 0 and takes 1, V adds 1):
 *  - a semaphore of 1 guards a non-atomic increment (scalar load, add,
 *    store) in each of many more one-wave workgroups than run at once
 *    (kfdtest's KFDGWSTest.Semaphore, smaller): every increment lands;
 *  - a semaphore of 0 that each even workgroup waits on and the odd one
 *    after it raises, over many workgroups: the resident ones are the
 *    lowest not yet run, as on the hardware, and the dispatch completes;
 *  - a semaphore of 0 that no wave raises: the dispatch fails with an
 *    illegal instruction naming the wait, whether its workgroups are all
 *    resident or not, instead of waiting forever;
 *  - a barrier in a dispatch with more workgroups than can be resident is
 *    refused at once; one with all of them resident goes through;
 *  - the barrier's rounds, one instruction at a time (sqk_exec_gws()):
 *    with ds_gws_init N-1, N waves arrive, the first N-1 wait, the N-th
 *    releases them all and sets the counter to its value for the next
 *    round, which goes the same way;
 *  - the wait's rule itself (sqk_gws_park()), table-driven: a thread whose
 *    waves all wait fails the dispatch only when every other thread is
 *    parked with nothing released or gone, whatever is left to start.
 * No LLVM needed: the code is GFX9 words as llvm-mc 22 (-mcpu=gfx90a
 * -show-encoding) prints them. A dispatch that waits forever is stopped
 * after 5 s by the env's stop(), which fails the case.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "emu/sq/sqk_exec.h"
#include "kfd_util.h"

#define CODE_VA 0x10000ull
#define DATA_VA 0x20000ull

/* entry points: word index of each kernel */
#define K_INIT 0
#define K_SEMA 8
#define K_BARRIER 24
#define K_PV 32
static const uint32_t code[1024] = {
	/* the rest s_nop 0: the fetch reads ahead */
	/* K_INIT: ds_gws_init with s2 (user data 2) */
	0xbefc0080,		/* s_mov_b32 m0, 0 */
	0x7e000202,		/* v_mov_b32 v0, s2 */
	0xd9330000, 0x00000000, /* ds_gws_init v0 gds */
	0xbf8c0000,		/* s_waitcnt 0 */
	0xbf810000,		/* s_endpgm */
	0xbf810000, 0xbf810000,
	/* K_SEMA: *s[0:1] += 1 between sema_p and sema_v */
	0xbefc0080,		/* s_mov_b32 m0, 0 */
	0xd9390000, 0x00000000, /* ds_gws_sema_p gds */
	0xbf8c0000,		/* s_waitcnt 0 */
	0xc0030400, 0x00000000, /* s_load_dword s16, s[0:1], 0x0 glc */
	0xbf8c0000,		/* s_waitcnt 0 */
	0x80108110,		/* s_add_u32 s16, s16, 1 */
	0xc0430400, 0x00000000, /* s_store_dword s16, s[0:1], 0x0 glc */
	0xbf8cc07f,		/* s_waitcnt lgkmcnt(0) */
	0xd9350000, 0x00000000, /* ds_gws_sema_v gds */
	0xbf8c0000,		/* s_waitcnt 0 */
	0xbf810000,		/* s_endpgm */
	0xbf810000,
	/* K_BARRIER: ds_gws_barrier with s2 */
	0xbefc0080,		/* s_mov_b32 m0, 0 */
	0x7e000202,		/* v_mov_b32 v0, s2 */
	0xd93b0000, 0x00000000, /* ds_gws_barrier v0 gds */
	0xbf810000,		/* s_endpgm */
	0xbf810000, 0xbf810000,
	/* K_PV: even workgroups (s3, the workgroup id) sema_p, odd sema_v */
	0xbefc0080,		/* s_mov_b32 m0, 0 */
	0xbf0d8003,		/* s_bitcmp1_b32 s3, 0 */
	0xbf850004,		/* s_cbranch_scc1 4 */
	0xd9390000, 0x00000000, /* ds_gws_sema_p gds */
	0xbf8c0000,		/* s_waitcnt 0 */
	0xbf810000,		/* s_endpgm */
	0xd9350000, 0x00000000, /* ds_gws_sema_v gds */
	0xbf8c0000,		/* s_waitcnt 0 */
	0xbf810000,		/* s_endpgm */
};

static uint32_t data[1024];

static void *xlate(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	(void)ctx;
	if (!write && va >= CODE_VA && len <= sizeof(code) && va - CODE_VA <= sizeof(code) - len) {
		*ro = true;
		return (uint8_t *)code + (va - CODE_VA);
	}
	if (va >= DATA_VA && len <= sizeof(data) && va - DATA_VA <= sizeof(data) - len) {
		*ro = false;
		return (uint8_t *)data + (va - DATA_VA);
	}
	return NULL;
}

/* a dispatch that waits forever stops after 5 s */
static bool stop(void *ctx)
{
	const struct timespec *t0 = ctx;
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec - t0->tv_sec > 5;
}

/* Run kernel @k with @groups one-wave workgroups (64 work-items each);
 * user data: s[0:1] the data, s2 @value. */
static int run(uint32_t gfxv, struct sqk_gws *gws, unsigned k, uint32_t groups, uint32_t value,
	       struct sqk_result *res)
{
	struct timespec t0;
	struct sqk_env env = { .ctx = &t0, .xlate = xlate, .stop = stop };
	uint32_t user[3] = { (uint32_t)DATA_VA, (uint32_t)(DATA_VA >> 32), value };
	struct sqk_dispatch d = { 0 };

	clock_gettime(CLOCK_MONOTONIC, &t0);
	d.fam = sqk_family_of(gfxv);
	if (!d.fam)
		return -ENOENT;
	d.entry = CODE_VA + 4ull * k;
	d.rsrc2 = 3u << 1; /* USER_SGPR 3 */
	if (k == K_PV)
		d.rsrc2 |= 1u << 7; /* TGID_X_EN: s3 */
	d.user_data = user;
	d.gws = gws;
	d.wg[0] = 64;
	d.grid[0] = 64 * groups;
	d.wg[1] = d.wg[2] = d.grid[1] = d.grid[2] = 1;
	return sqk_run(&d, &env, res);
}

static const struct {
	const char *name;
	uint32_t gfxv;
} targets[] = { { "gfx90a", 90010 }, { "gfx942", 90402 } };

/* thread 0's one wave waits on resource 0; thread 1 is as @other says
 * (0 running, 1 parked waiting, 2 parked released, 3 gone); threads 2-63
 * gone; @more: workgroups left to start. 0 or the park's error. */
static int park(uint32_t gfxv, int other, bool more, struct sqk_result *res)
{
	static struct sqk_gws_waits gw;
	struct sqk_wave w0 = { 0 }, w1 = { 0 };
	struct sqk_dispatch d = { 0 };
	struct sqk_run r = { 0 };
	int rc;

	memset(&gw, 0, sizeof(gw));
	memset(res, 0, sizeof(*res));
	d.fam = sqk_family_of(gfxv);
	d.gws = sqk_gws_new();
	if (!d.fam || !d.gws)
		return -ENOMEM;
	r.d = &d;
	r.f = d.fam;
	r.res = res;
	r.gws_waits = &gw;
	r.thread = 0;
	w0.r = w1.r = &r;
	w0.state = w1.state = SQK_GWS_WAIT; /* resource 0 at generation 0 */
	w1.gws_gen = other == 2 ? 1 : 0;    /* 1: the resource moved on since */
	for (unsigned i = 2; i < SQK_GWS_THREADS; i++)
		gw.t[i].gone = true;
	gw.t[1].waves = &w1;
	gw.t[1].nw = 1;
	gw.t[1].parked = other == 1 || other == 2;
	gw.t[1].gone = other == 3;
	rc = sqk_gws_park(&r, &w0, 1, more);
	sqk_gws_free(d.gws);
	return rc;
}

/* Two rounds of a barrier of 3 waves, each ds_gws_* on resource 5
 * (offset0 5, M0 0) with DATA0 v0 = 2. */
static void barrier_rounds(uint32_t gfxv)
{
	static uint32_t vgpr[3][64];
	static struct sqk_wave w[3];
	struct sqk_dispatch d = { 0 };
	struct sqk_result res = { 0 };
	struct sqk_run r = { 0 };
	struct sqk_insn in = { 0 };
	unsigned resident = 3;

	d.fam = sqk_family_of(gfxv);
	d.gws = sqk_gws_new();
	T_REQUIRE(d.fam && d.gws, "barrier: family and GWS");
	r.d = &d;
	r.f = d.fam;
	r.res = &res;
	r.groups = 3;
	r.resident = &resident;
	in.size = 8;
	in.offset0 = 5;
	for (int i = 0; i < 3; i++) {
		w[i].r = &r;
		w[i].v = vgpr[i];
		w[i].lanes = 64;
		w[i].s[SQK_EXEC] = 1;
		vgpr[i][0] = 2;
	}
	in.op = K_ds_gws_init;
	CHECK_EQ(sqk_exec_gws(&w[0], &in), 0, "barrier: init 2");
	in.op = K_ds_gws_barrier;
	for (int round = 0; round < 2; round++) {
		CHECK_EQ(sqk_exec_gws(&w[0], &in), 1, "round %d: first wave waits", round);
		CHECK_EQ(sqk_exec_gws(&w[1], &in), 1, "round %d: second wave waits", round);
		CHECK(!sqk_gws_released(&w[0]) && !sqk_gws_released(&w[1]),
		      "round %d: nobody released before the last wave", round);
		CHECK_EQ(sqk_exec_gws(&w[2], &in), 0, "round %d: last wave goes on", round);
		CHECK(sqk_gws_released(&w[0]) && sqk_gws_released(&w[1]),
		      "round %d: the last wave releases both", round);
		w[0].state = w[1].state = SQK_RUNNING;
	}
	CHECK_EQ(res.err, 0, "barrier: no error (%s)", res.msg);
	sqk_gws_free(d.gws);
}

int main(void)
{
	static const struct {
		int other;
		bool more;
		int rc;
		const char *msg;
	} rule[] = {
		{ 0, true, 0, NULL },
		{ 0, false, 0, NULL },
		{ 2, true, 0, NULL },
		{ 2, false, 0, NULL },
		{ 1, true, -ENOTSUP, "other workgroups are not resident" },
		{ 1, false, -ENOTSUP, "every wave of the dispatch waits" },
		{ 3, true, -ENOTSUP, "other workgroups are not resident" },
		{ 3, false, -ENOTSUP, "every wave of the dispatch waits" },
	};

	barrier_rounds(90010);
	for (size_t i = 0; i < sizeof(rule) / sizeof(rule[0]); i++) {
		struct sqk_result res;
		int rc = park(90010, rule[i].other, rule[i].more, &res);

		CHECK_EQ(rc, rule[i].rc, "park: other thread %d, more %d (%s)", rule[i].other,
			 rule[i].more, res.msg);
		if (rule[i].msg)
			CHECK(strstr(res.msg, rule[i].msg), "park: other %d, more %d: '%s'",
			      rule[i].other, rule[i].more, res.msg);
	}
	for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
		const char *n = targets[t].name;
		uint32_t v = targets[t].gfxv;
		struct sqk_gws *g = sqk_gws_new();
		struct sqk_result res;
		int rc;

		T_REQUIRE(g, "%s: sqk_gws_new", n);
		/* semaphore of 1: a lock around the increment */
		CHECK_EQ(run(v, g, K_INIT, 1, 1, &res), 0, "%s: ds_gws_init 1", n);
		data[0] = 7;
		rc = run(v, g, K_SEMA, 20000, 0, &res);
		CHECK_EQ(rc, 0, "%s: semaphore over 20000 workgroups (%s)", n, res.msg);
		CHECK_EQ(data[0], 7u + 20000u, "%s: every increment under the semaphore", n);
		CHECK(res.threads > 1, "%s: %u host threads", n, res.threads);
		/* semaphore of 0, nobody raises it: a deadlock, reported */
		for (int all = 0; all < 2; all++) {
			uint32_t groups = all ? 8 : 1000;

			CHECK_EQ(run(v, g, K_INIT, 1, 0, &res), 0, "%s: ds_gws_init 0", n);
			data[0] = 0;
			rc = run(v, g, K_SEMA, groups, 0, &res);
			CHECK_EQ(rc, -ENOTSUP, "%s: sema_p of 0 in %u workgroups", n, groups);
			if (rc == -EINTR) /* waited 5 s: once is enough */
				return t_result("emu_sqk_gws");
			CHECK_EQ(res.err, -ENOTSUP, "%s: %u workgroups: illegal instruction", n,
				 groups);
			CHECK(strstr(res.msg, all ? "every wave of the dispatch waits"
						  : "dispatch's other workgroups are not resident"),
			      "%s: %u workgroups: message '%s'", n, groups, res.msg);
			CHECK_EQ(data[0], 0u, "%s: %u workgroups: nobody passed", n, groups);
		}
		/* each even workgroup waits for the odd one after it: the
		 * workgroups resident at once are the lowest not yet run, as
		 * the hardware launches them in order (a host thread taking
		 * several at a time would hold the odd one back behind the
		 * even one waiting for it), over as many workgroups as would
		 * make a non-GWS dispatch's threads take them two at a time */
		CHECK_EQ(run(v, g, K_INIT, 1, 0, &res), 0, "%s: ds_gws_init 0", n);
		rc = run(v, g, K_PV, 2 * SQK_GWS_THREADS * 64, 0, &res);
		CHECK_EQ(rc, 0, "%s: sema_p released by the next workgroup (%s)", n, res.msg);
		/* barrier: refused with more workgroups than resident, else it
		 * releases all of them (the counter: the waves less one) */
		rc = run(v, g, K_BARRIER, 100, 99, &res);
		CHECK_EQ(rc, -ENOTSUP, "%s: barrier of 100 workgroups refused", n);
		CHECK(strstr(res.msg, "at most"), "%s: barrier message '%s'", n, res.msg);
		CHECK_EQ(run(v, g, K_INIT, 1, 7, &res), 0, "%s: ds_gws_init 7", n);
		rc = run(v, g, K_BARRIER, 8, 7, &res);
		CHECK_EQ(rc, 0, "%s: barrier of 8 workgroups (%s)", n, res.msg);
		sqk_gws_free(g);
	}
	return t_result("emu_sqk_gws");
}
