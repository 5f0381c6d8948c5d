/* SPDX-License-Identifier: MIT */
/*
 * A dispatch on a multi-XCC node runs each workgroup exactly once, with its
 * ids in the whole grid: every XCC of the node runs a PM4 ring and takes
 * its share of a DISPATCH_DIRECT's workgroups (emu_kernel.c pm4_share()),
 * an AQL dispatch runs once over the node. test/kernels/xcc_count.ll
 * (LLVM 22) adds 1 per work-item to its workgroup's counter, indexed by
 * the workgroup ids: each counter must end at the work-items of one group
 * (a group run on every XCC ends at N times that, a group with another
 * XCC's ids leaves its own counter short). Over grids of fewer workgroups
 * than XCCs, of a number no XCC count divides, and of many (the shader
 * unit's host threads), on gfx942 with 8 XCCs (SPX), 6 (MI300A's), 4 (a
 * DPX node), on one-XCC gfx90a and on gfx1250's 8 XCCs (its code reads
 * IB_STS2's cluster bits and takes the ids from ttmp9/ttmp7). And on
 * gfx1250, kfdsig's signal stub dispatched as several workgroups raises one
 * interrupt per workgroup. The LLVM cases are skipped without LLVM 22.
 */
#include <kfdsig/emu.h>
#include <kfdsig/pm4.h>
#include <kfdsig/shader.h>
#include <kfdsig/signal.h>

#include "emu_sqk_util.h"

#define WAIT_MS 20000
#define MAXG 512

struct grid {
	uint32_t ng[3]; /* workgroups in X, Y, Z */
	uint32_t wg[3];
};

static const struct grid grids[] = {
	{ { 3, 1, 1 }, { 64, 1, 1 } },	/* fewer groups than XCCs */
	{ { 13, 5, 3 }, { 16, 2, 1 } }, /* 195: no XCC count divides it */
	{ { 7, 1, 1 }, { 8, 4, 2 } },
};

static const struct {
	const char *spec, *mcpu;
} cases[] = {
	{ "gfx942", "gfx942" }, { "gfx942,xcc=6", "gfx942" }, { "gfx942,partition=dpx", "gfx942" },
	{ "gfx90a", "gfx90a" }, { "gfx1250", "gfx1250" },
};

/* Dispatch @g through the PM4 queue @q. */
static int pm4_run(struct krig *r, const struct kfdsig_target *t, struct kfdsig_kfd_queue *q,
		   const struct grid *g, uint64_t karg_va)
{
	uint64_t kd_va = krig_kd(r, "count"), dp_va;
	uint32_t buf[KFDSIG_PM4_KERNEL_MAX_DW];
	int n;

	krig_alloc(r, 64, &dp_va);
	{
		KFDSIG_OPTS(
			kfdsig_pm4_kernel, k, .kd = r->cpu + (kd_va - r->va), .kd_va = kd_va,
			.grid = { g->ng[0] * g->wg[0], g->ng[1] * g->wg[1], g->ng[2] * g->wg[2] },
			.workgroup = { (uint16_t)g->wg[0], (uint16_t)g->wg[1], (uint16_t)g->wg[2] },
			.kernarg_va = karg_va, .dispatch_va = dp_va);

		n = kfdsig_pm4_emit_kernel(t, &k, buf, KFDSIG_PM4_KERNEL_MAX_DW);
	}
	T_REQUIRE(n > 0, "emit the PM4 dispatch");
	T_REQUIRE(kfdsig_kfd_queue_submit(q, buf, (uint32_t)n, WAIT_MS) == 0, "submit");
	return kfdsig_kfd_queue_wait_idle(q, WAIT_MS);
}

static void one(const char *spec, const struct kco *co)
{
	struct krig r;
	struct kfdsig_kfd_queue *pm4;
	const struct kfdsig_target *t;

	krig_open(&r, spec, 1u << 20);
	krig_load(&r, co);
	t = kfdsig_kfd_device(r.kfd, 0)->target;
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &pm4),
		  "PM4 queue");
	for (size_t i = 0; i < sizeof(grids) / sizeof(grids[0]); i++)
		for (int aql = 0; aql < 2; aql++) {
			const struct grid *g = &grids[i];
			uint32_t total = g->ng[0] * g->ng[1] * g->ng[2],
				 per = g->wg[0] * g->wg[1] * g->wg[2], bad = 0, first = 0;
			uint64_t c_va;
			uint32_t *c = krig_alloc(&r, 4 * MAXG, &c_va);
			struct {
				uint64_t c;
				uint32_t nx, ny;
			} args = { c_va, g->ng[0], g->ng[1] };
			int rc;

			memset(c, 0, 4 * MAXG);
			if (aql) {
				const uint32_t gr[3] = { g->ng[0] * g->wg[0], g->ng[1] * g->wg[1],
							 g->ng[2] * g->wg[2] };

				rc = krig_run3(&r, "count", gr, g->wg, &args, sizeof(args),
					       WAIT_MS);
			} else {
				uint64_t karg_va;
				void *karg = krig_alloc(&r, 64, &karg_va);

				memcpy(karg, &args, sizeof(args));
				rc = pm4_run(&r, t, pm4, g, karg_va);
			}
			CHECK(rc == 0, "%s %s grid %u: finished (%d)", spec, aql ? "AQL" : "PM4",
			      total, rc);
			for (uint32_t w = 0; w < MAXG; w++)
				if (c[w] != (w < total ? per : 0) && !bad++)
					first = w;
			CHECK(bad == 0,
			      "%s %s grid %ux%ux%u: %u counters wrong, first %u: %u, want %u", spec,
			      aql ? "AQL" : "PM4", g->ng[0], g->ng[1], g->ng[2], bad, first,
			      c[first], first < total ? per : 0);
		}
	kfdsig_kfd_queue_destroy(pm4);
	krig_close(&r);
}

/*
 * kfdsig's raw signal stub dispatched as @groups workgroups on an 8-XCC
 * node (gfx1250) raises one SQ interrupt per workgroup, not one per
 * workgroup and XCC: the XCCs split the workgroups (emu_kernel.c
 * pm4_share()).
 */
static void stub_groups(const char *spec, uint32_t groups)
{
	struct kfdsig_emu_irq_record rec[KFDSIG_EMU_IRQ_TRACE_LEN];
	const struct kfdsig_kfd_bo *mem;
	struct kfdsig_shader_stub st;
	struct kfdsig_kfd_queue *q;
	const struct kfdsig_target *t;
	struct kfdsig_event ev, done;
	struct kfdsig_fence fe;
	enum kfdsig_wait_result res;
	struct kfdsig_emu *emu = t_emu(spec);
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t gpu = t_gpu(kfd, 0), buf[KFDSIG_PM4_DISPATCH_MAX_DW], sq = 0;
	uint64_t *page, page_va;
	int n, got, pasid = t_pasid(emu, kfd);

	t = kfdsig_kfd_device(kfd, 0)->target;
	ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	done = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	T_REQUIRE(!kfdsig_kfd_signal_page(kfd, &page, &page_va), "signal page");
	fe = (struct kfdsig_fence){ .slot_va = page_va + 8ull * done.id, .event_id = done.id };
	T_REQUIRE(!kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &st), "%s raw stub", spec);
	T_REQUIRE(!kfdsig_kfd_alloc(kfd, gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &mem) &&
			  !kfdsig_kfd_map(kfd, mem, NULL, 0),
		  "code buffer");
	memcpy(mem->cpu, st.bytes, st.size);
	T_REQUIRE(kfdsig_shader_patch(&st, mem->cpu, 4096, page_va + 8ull * ev.id, ev.id) >= 0,
		  "patch");
	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, NULL, &q), "PM4 queue");
	n = kfdsig_pm4_emit_dispatch(&st, mem->va + st.entry_offset, 0, buf,
				     KFDSIG_PM4_DISPATCH_MAX_DW);
	T_REQUIRE(n > 5 && (buf[n - 5] >> 8 & 0xff) == KFDSIG_PM4_OP_DISPATCH_DIRECT,
		  "DISPATCH_DIRECT last");
	buf[n - 4] = groups; /* workgroups in X */
	T_REQUIRE(!kfdsig_kfd_queue_submit(q, buf, (uint32_t)n, WAIT_MS), "%s: submit", spec);
	/* then a fence: the XCCs' interrupts are handled packet by packet,
	 * so the dispatch's are all handled when the fence's wakes a waiter */
	n = kfdsig_pm4_emit_fence(t, &fe, buf, KFDSIG_PM4_DISPATCH_MAX_DW);
	T_REQUIRE(n > 0 && !kfdsig_kfd_queue_submit(q, buf, (uint32_t)n, WAIT_MS), "fence");
	T_REQUIRE(!t_wait1(kfd, done.id, NULL, WAIT_MS, &res) && res == KFDSIG_WAIT_COMPLETE,
		  "%s: the dispatch and the fence ran", spec);
	got = kfdsig_emu_irq_trace(emu, pasid, rec, KFDSIG_EMU_IRQ_TRACE_LEN);
	for (int i = 0; i < got; i++)
		sq += rec[i].source == KFDSIG_EMU_IRQ_SQ_MSG;
	CHECK_EQ(sq, groups, "%s: %u workgroups of the stub, one SQ interrupt each", spec, groups);
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

int main(void)
{
	struct kco co942, co90a, co1250;

	stub_groups("gfx1250", 3);
	stub_groups("gfx1250", 11);
	if (!kco_llvm()) {
		printf("SKIP: no LLVM 22 in %s\n", KFDSIG_LLVM22_BIN);
		return t_result("emu_xcc_dispatch");
	}
	T_REQUIRE(!kco_build(KFDSIG_SOURCE_DIR "/test/kernels/xcc_count.ll", "gfx942", "", 2,
			     &co942) &&
			  !kco_build(KFDSIG_SOURCE_DIR "/test/kernels/xcc_count.ll", "gfx90a", "",
				     2, &co90a) &&
			  !kco_build(KFDSIG_SOURCE_DIR "/test/kernels/xcc_count.ll", "gfx1250", "",
				     2, &co1250),
		  "LLVM 22 builds xcc_count.ll");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		one(cases[i].spec, !strcmp(cases[i].mcpu, "gfx942")    ? &co942
				   : !strcmp(cases[i].mcpu, "gfx1250") ? &co1250
								       : &co90a);
	kco_free(&co1250);
	kco_free(&co942);
	kco_free(&co90a);
	return t_result("emu_xcc_dispatch");
}
