/* SPDX-License-Identifier: MIT */
/*
 * The emulated CP and SDMA engines packet by packet, with packets written
 * here by hand from amdgpu's vid.h / soc15d.h / nvd.h and *_sdma_pkt_open.h, not by
 * kfdsig's emitters: WRITE_DATA, WAIT_REG_MEM, INDIRECT_BUFFER, EVENT_WRITE,
 * ACQUIRE_MEM, RELEASE_MEM's DATA_SEL/INT_SEL, EVENT_WRITE_EOP, NOPs; SDMA
 * WRITE, COPY (and its broadcast form), TIMESTAMP, POLL_REGMEM, NOP bursts,
 * FENCE + TRAP. Several
 * queues on several GPUs signalling at once from several threads.
 */
#include <pthread.h>
#include <unistd.h>

#include "kfd_stall.h"

#define WAIT_MS 5000
#define P3(op, n) ((3u << 30) | (((uint32_t)(n)&0x3fff) << 16) | ((uint32_t)(op) << 8))

struct rig {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	const struct kfdsig_target *t;
	uint32_t gpu;
	const struct kfdsig_kfd_bo *mem; /* scratch, mapped on the GPU */
	uint64_t *page, page_va;
	struct kfdsig_event ev;
	struct kfdsig_kfd_queue *q;
	bool sdma;
};

static void rig_open(struct rig *r, const char *spec, bool sdma)
{
	memset(r, 0, sizeof(*r));
	r->emu = t_emu(spec);
	r->kfd = t_open(r->emu);
	r->gpu = t_gpu(r->kfd, 0);
	r->sdma = sdma;
	r->t = kfdsig_kfd_device(r->kfd, 0)->target;
	r->ev = t_event(r->kfd, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(!kfdsig_kfd_signal_page(r->kfd, &r->page, &r->page_va), "page");
	T_REQUIRE(!kfdsig_kfd_alloc(r->kfd, r->gpu, 8192, KFDSIG_KFD_MEM_GTT_UNCACHED, &r->mem) &&
			  !kfdsig_kfd_map(r->kfd, r->mem, NULL, 0),
		  "scratch");
	memset(r->mem->cpu, 0, 8192);
	T_REQUIRE(!kfdsig_kfd_queue_create(
			  r->kfd, r->gpu, sdma ? KFDSIG_QUEUE_SDMA : KFDSIG_QUEUE_PM4, NULL, &r->q),
		  "queue");
}

static void rig_close(struct rig *r)
{
	kfdsig_kfd_queue_destroy(r->q);
	kfdsig_kfd_close(r->kfd);
	kfdsig_emu_destroy(r->emu);
}

static uint32_t *scratch(struct rig *r, size_t dw)
{
	return (uint32_t *)r->mem->cpu + dw;
}

static uint64_t scratch_va(struct rig *r, size_t dw)
{
	return r->mem->va + 4 * dw;
}

/* @ok: woken; then by an interrupt that named the event (the emulator's
 * trace: fast path with the full id, not rescued by the slot scan). */
static bool irq_named(struct rig *r, bool ok)
{
	if (ok)
		CHECK(!t_irq_fast(r->emu, t_pasid(r->emu, r->kfd),
				  r->sdma ? KFDSIG_EMU_IRQ_SDMA_TRAP : KFDSIG_EMU_IRQ_CP_EOP,
				  r->sdma ? r->t->sdma_trap_id_bits : r->t->cp_eop_id_bits,
				  r->ev.id, r->t->name),
		      "%s: the interrupt names event %u", r->t->name, r->ev.id);
	return ok;
}

/* A short wait on the event: the checks that nothing signals. */
static bool signalled(struct rig *r, uint32_t timeout)
{
	enum kfdsig_wait_result res;

	return irq_named(r, t_wait1(r->kfd, r->ev.id, NULL, timeout, &res) == 0 &&
				    res == KFDSIG_WAIT_COMPLETE);
}

/* The signal of the work submitted: a halted queue, a doorbell the engine
 * never saw or a signal lost end the test at once (kfd_stall.h). */
static bool fenced(struct rig *r)
{
	return irq_named(r, t_fence(r->emu, t_pasid(r->emu, r->kfd), r->kfd, r->q, r->ev.id, NULL,
				    WAIT_MS, r->t->name));
}

/* The queue drained, or the test ends at once when it cannot. */
static bool idle(struct rig *r)
{
	return !t_queue_idle(r->emu, t_pasid(r->emu, r->kfd), r->q, WAIT_MS, r->t->name);
}

static void submit(struct rig *r, const uint32_t *d, uint32_t n)
{
	uint32_t p[KFDSIG_PM4_PRED_EXEC_DW + 64];

	/* Multi-XCC: each XCC would run the packets; predicated to XCC 0 the
	 * engine's semantics show once (kfdsig_kfd_queue_submit() runs the
	 * PRED_EXEC from an IB, docs/multi-xcc.md). */
	if (r->t->max_xcc > 1 && !r->sdma && n <= 64) {
		CHECK(kfdsig_pm4_emit_pred_exec(r->t, 1, n, p, KFDSIG_PM4_PRED_EXEC_DW) > 0,
		      "pred");
		memcpy(p + KFDSIG_PM4_PRED_EXEC_DW, d, (size_t)n * 4);
		d = p;
		n += KFDSIG_PM4_PRED_EXEC_DW;
	}
	CHECK(kfdsig_kfd_queue_submit(r->q, d, n, WAIT_MS) == 0, "submit: %s", kfdsig_last_error());
}

/* RELEASE_MEM by hand (gfx_v8_0.c gfx_v8_0_ring_emit_fence_compute(), kfd_pm4_headers_vi.h; soc15d.h, kfd_pm4_headers_ai.h, gfx_v9_0.c gfx_v9_0_ring_emit_fence(); nvd.h, gfx_v10_0.c / gfx_v11_0.c / gfx_v12_0.c *_ring_emit_fence()): 7 dwords on gfx8, 8 with
 * INT_CTXID after; DW1 is CACHE_FLUSH_AND_INV_TS at end of pipe. */
static uint32_t release_mem(const struct kfdsig_target *t, uint64_t va, uint64_t data,
			    uint32_t data_sel, uint32_t int_sel, uint32_t ctxid, uint32_t *d)
{
	bool gfx8 = t->pm4_fence == KFDSIG_PM4_FENCE_VI;
	d[0] = P3(0x49, gfx8 ? 5 : 6);
	d[1] = 0x14 | (5 << 8);
	d[2] = (data_sel << 29) | (int_sel << 24);
	d[3] = (uint32_t)va;
	d[4] = (uint32_t)(va >> 32);
	d[5] = (uint32_t)data;
	d[6] = (uint32_t)(data >> 32);
	if (gfx8)
		return 7;
	d[7] = ctxid;
	return 8;
}

static void test_pm4(const char *spec)
{
	struct rig r;
	uint32_t d[64], n;
	uint64_t slot;

	rig_open(&r, spec, false);
	slot = r.page_va + 8ull * r.ev.id;

	/* WRITE_DATA to memory (dst_sel 5, confirm), two dwords, type-2 and
	 * filler NOPs around it */
	d[0] = 0x80000000u;
	d[1] = 0xffff1000u;
	d[2] = P3(0x37, 4);
	d[3] = (5u << 8) | (1u << 20);
	d[4] = (uint32_t)scratch_va(&r, 4);
	d[5] = (uint32_t)(scratch_va(&r, 4) >> 32);
	d[6] = 0xcafe0001;
	d[7] = 0xcafe0002;
	submit(&r, d, 8);
	CHECK(idle(&r), "idle");
	CHECK(*scratch(&r, 4) == 0xcafe0001 && *scratch(&r, 5) == 0xcafe0002, "%s WRITE_DATA",
	      spec);

	/* WAIT_REG_MEM on memory (==, mask) blocks the queue */
	d[0] = P3(0x3c, 5);
	d[1] = 3 | (1u << 4);
	d[2] = (uint32_t)scratch_va(&r, 8);
	d[3] = (uint32_t)(scratch_va(&r, 8) >> 32);
	d[4] = 7;
	d[5] = 0xff;
	d[6] = 4;
	d[7] = P3(0x37, 3);
	d[8] = 5u << 8;
	d[9] = (uint32_t)scratch_va(&r, 9);
	d[10] = (uint32_t)(scratch_va(&r, 9) >> 32);
	d[11] = 0x600d;
	submit(&r, d, 12);
	usleep(20000);
	CHECK_EQ(*scratch(&r, 9), 0, "%s WAIT_REG_MEM holds the queue", spec);
	__atomic_store_n(scratch(&r, 8), 0x1207, __ATOMIC_RELEASE); /* & 0xff == 7 */
	CHECK(idle(&r), "released");
	CHECK_EQ(*scratch(&r, 9), 0x600d, "%s continues after the wait", spec);

	/* INDIRECT_BUFFER: a WRITE_DATA in an IB */
	{
		uint32_t *ib = scratch(&r, 256);
		ib[0] = P3(0x37, 3);
		ib[1] = 5u << 8;
		ib[2] = (uint32_t)scratch_va(&r, 10);
		ib[3] = (uint32_t)(scratch_va(&r, 10) >> 32);
		ib[4] = 0x1b1b;
		d[0] = P3(0x3f, 2);
		d[1] = (uint32_t)scratch_va(&r, 256);
		d[2] = (uint32_t)(scratch_va(&r, 256) >> 32);
		d[3] = 5 | (1u << 23);
		submit(&r, d, 4);
		CHECK(idle(&r), "idle");
		CHECK_EQ(*scratch(&r, 10), 0x1b1b, "%s INDIRECT_BUFFER", spec);
	}

	/* EVENT_WRITE (CS_PARTIAL_FLUSH) and ACQUIRE_MEM pass; RELEASE_MEM
	 * with DATA_SEL 3 stores a counter and INT_SEL 0 raises nothing */
	d[0] = P3(0x46, 0);
	d[1] = 7 | (4 << 8);
	d[2] = P3(0x58, 5);
	memset(d + 3, 0, 6 * 4);
	n = 9 + release_mem(r.t, scratch_va(&r, 12), 0, 3, 0, r.ev.id, d + 9);
	submit(&r, d, n);
	CHECK(idle(&r), "idle");
	CHECK(*(uint64_t *)scratch(&r, 12) != 0, "%s RELEASE_MEM DATA_SEL 3: counter", spec);
	CHECK(!signalled(&r, 0), "INT_SEL 0: no interrupt");

	/* INT_SEL 3: data only, no interrupt */
	n = release_mem(r.t, slot, r.ev.id, 1, 3, r.ev.id, d);
	submit(&r, d, n);
	CHECK(!signalled(&r, 100), "%s INT_SEL 3: no interrupt", spec);
	CHECK_EQ(r.page[r.ev.id], 0xffffffff00000000ull | r.ev.id,
		 "but the slot holds the 32-bit data (upper half still ones)");
	r.page[r.ev.id] = UINT64_MAX;

	/* kfdtest's shape: WRITE_DATA the slot, RELEASE_MEM INT_SEL 1
	 * (interrupt only, no data) with the id as INT_CTXID (gfx9+) */
	d[0] = P3(0x37, 3);
	d[1] = (5u << 8) | (1u << 20);
	d[2] = (uint32_t)slot;
	d[3] = (uint32_t)(slot >> 32);
	d[4] = r.ev.id;
	n = 5 + release_mem(r.t, 0, r.ev.id, 0, 1, r.ev.id, d + 5);
	submit(&r, d, n);
	CHECK(fenced(&r), "%s WRITE_DATA + RELEASE_MEM INT_SEL 1 wakes", spec);
	CHECK_EQ(r.page[r.ev.id], UINT64_MAX, "slot acknowledged");

	/* 64-bit data, INT_SEL 2 */
	n = release_mem(r.t, slot, 0x100000000ull | r.ev.id, 2, 2, r.ev.id, d);
	submit(&r, d, n);
	CHECK(fenced(&r), "%s RELEASE_MEM DATA_SEL 2 / INT_SEL 2", spec);

	if (r.t->pm4_fence != KFDSIG_PM4_FENCE_VI) {
		/* INT_SEL 4: unconditionally send INT_CTXID (with the data) */
		n = release_mem(r.t, slot, r.ev.id, 1, 4, r.ev.id, d);
		submit(&r, d, n);
		CHECK(fenced(&r), "%s RELEASE_MEM INT_SEL 4", spec);
		/* INT_SEL 5 / 6 (conditional, UNVERIFIED): nothing raised */
		for (uint32_t sel = 5; sel <= 6; sel++) {
			n = release_mem(r.t, slot, r.ev.id, 1, sel, r.ev.id, d);
			submit(&r, d, n);
			CHECK(!signalled(&r, 50), "%s INT_SEL %u raises nothing", spec, sel);
			r.page[r.ev.id] = UINT64_MAX;
		}
	}
	/* DATA_SEL 4 stores a 64-bit counter, DATA_SEL 5 (GDS) nothing */
	*(uint64_t *)scratch(&r, 14) = 0;
	*(uint64_t *)scratch(&r, 16) = 0;
	n = release_mem(r.t, scratch_va(&r, 14), 0, 4, 0, 0, d);
	n += release_mem(r.t, scratch_va(&r, 16), 0x55, 5, 0, 0, d + n);
	submit(&r, d, n);
	CHECK(idle(&r), "idle");
	CHECK(*(uint64_t *)scratch(&r, 14) != 0, "%s DATA_SEL 4: counter", spec);
	CHECK_EQ(*(uint64_t *)scratch(&r, 16), 0, "%s DATA_SEL 5: no memory store", spec);

	/* gfx8 graphics-ring EVENT_WRITE_EOP (vid.h, gfx_v8_0.c gfx_v8_0_ring_emit_fence_gfx()) */
	if (r.t->pm4_fence == KFDSIG_PM4_FENCE_VI) {
		d[0] = P3(0x47, 4);
		d[1] = 0x14 | (5 << 8);
		d[2] = (uint32_t)slot;
		d[3] = ((uint32_t)(slot >> 32) & 0xffff) | (2u << 24) | (1u << 29);
		d[4] = r.ev.id;
		d[5] = 0;
		submit(&r, d, 6);
		CHECK(fenced(&r), "%s EVENT_WRITE_EOP", spec);
	}
	rig_close(&r);
}

static void test_sdma(const char *spec)
{
	struct rig r;
	uint32_t d[64];
	bool v4;
	uint64_t slot;

	rig_open(&r, spec, true);
	v4 = r.t->sdma_ip[0] >= 4;
	slot = r.page_va + 8ull * r.ev.id;

	/* NOP burst (count 3 + 3 dwords), then WRITE linear of 3 dwords */
	d[0] = 3u << 16;
	d[1] = d[2] = d[3] = 0;
	d[4] = 2;
	d[5] = (uint32_t)scratch_va(&r, 20);
	d[6] = (uint32_t)(scratch_va(&r, 20) >> 32);
	d[7] = v4 ? 2 : 3; /* dwords - 1 from SDMA 4.0, dwords before */
	d[8] = 0xa1;
	d[9] = 0xa2;
	d[10] = 0xa3;
	submit(&r, d, 11);
	CHECK(idle(&r), "idle");
	CHECK(*scratch(&r, 20) == 0xa1 && *scratch(&r, 22) == 0xa3, "%s SDMA WRITE", spec);

	/* COPY linear 12 bytes */
	d[0] = 1;
	d[1] = v4 ? 11 : 12;
	d[2] = 0;
	d[3] = (uint32_t)scratch_va(&r, 20);
	d[4] = (uint32_t)(scratch_va(&r, 20) >> 32);
	d[5] = (uint32_t)scratch_va(&r, 30);
	d[6] = (uint32_t)(scratch_va(&r, 30) >> 32);
	/* TIMESTAMP (get global) */
	d[7] = (2u << 8) | 13;
	d[8] = (uint32_t)scratch_va(&r, 40);
	d[9] = (uint32_t)(scratch_va(&r, 40) >> 32);
	submit(&r, d, 10);
	CHECK(idle(&r), "idle");
	CHECK(*scratch(&r, 30) == 0xa1 && *scratch(&r, 32) == 0xa3 && *scratch(&r, 33) == 0,
	      "%s SDMA COPY of 12 bytes", spec);
	CHECK(*(uint64_t *)scratch(&r, 40) != 0, "%s SDMA TIMESTAMP", spec);
	/* COPY linear with the broadcast bit (27): 8 bytes to two places, nine
	 * dwords, then a WRITE the engine must find right after them */
	d[0] = 1u | 1u << 27;
	d[1] = v4 ? 7 : 8;
	d[2] = 0;
	d[3] = (uint32_t)scratch_va(&r, 20);
	d[4] = (uint32_t)(scratch_va(&r, 20) >> 32);
	d[5] = (uint32_t)scratch_va(&r, 100);
	d[6] = (uint32_t)(scratch_va(&r, 100) >> 32);
	d[7] = (uint32_t)scratch_va(&r, 110);
	d[8] = (uint32_t)(scratch_va(&r, 110) >> 32);
	d[9] = 2;
	d[10] = (uint32_t)scratch_va(&r, 120);
	d[11] = (uint32_t)(scratch_va(&r, 120) >> 32);
	d[12] = v4 ? 0 : 1;
	d[13] = 0xb7;
	submit(&r, d, 14);
	CHECK(idle(&r), "idle");
	CHECK(*scratch(&r, 100) == 0xa1 && *scratch(&r, 101) == 0xa2 && *scratch(&r, 102) == 0 &&
		      *scratch(&r, 110) == 0xa1 && *scratch(&r, 111) == 0xa2 &&
		      *scratch(&r, 112) == 0,
	      "%s SDMA broadcast COPY to both destinations", spec);
	CHECK_EQ(*scratch(&r, 120), 0xb7, "%s the packet after a broadcast COPY", spec);

	/* POLL_REGMEM on memory (==) holds the FENCE + TRAP behind it */
	d[0] = 8u | (3u << 28) | (1u << 31);
	d[1] = (uint32_t)scratch_va(&r, 50);
	d[2] = (uint32_t)(scratch_va(&r, 50) >> 32);
	d[3] = 5;
	d[4] = 0xffffffffu;
	d[5] = 10 | (0xfff << 16);
	d[6] = r.t->sdma_fence_hdr == KFDSIG_SDMA_HDR_PLAIN ? 5u : 5u | (3u << 16);
	d[7] = (uint32_t)slot;
	d[8] = (uint32_t)(slot >> 32);
	d[9] = 0xfeed; /* any value but all-ones signals */
	d[10] = 6;
	d[11] = r.ev.id;
	submit(&r, d, 12);
	CHECK(!signalled(&r, 50), "%s POLL_REGMEM holds", spec);
	__atomic_store_n(scratch(&r, 50), 5, __ATOMIC_RELEASE);
	CHECK(fenced(&r), "%s FENCE + TRAP after the poll", spec);
	CHECK_EQ(r.page[r.ev.id], UINT64_MAX, "acknowledged");
	/* FENCE writes exactly 32 bits */
	*(uint64_t *)scratch(&r, 60) = 0x1111111122222222ull;
	d[0] = 5;
	d[1] = (uint32_t)scratch_va(&r, 60);
	d[2] = (uint32_t)(scratch_va(&r, 60) >> 32);
	d[3] = 0x33;
	submit(&r, d, 4);
	CHECK(idle(&r), "idle");
	CHECK_EQ(*(uint64_t *)scratch(&r, 60), 0x1111111100000033ull, "%s FENCE is 32 bits", spec);

	/* ATOMIC: ROCr's completion-signal decrement (ADD64 of -1, TC_OP
	 * 0x2f), then a CMPSWAP64 (0x28) that matches and one that does not */
	*(uint64_t *)scratch(&r, 70) = 0x100000000ull;
	*(uint64_t *)scratch(&r, 72) = 7;
	for (int i = 0; i < 3; i++) {
		uint32_t *a = d + 8 * i;
		uint64_t va = scratch_va(&r, i ? 72 : 70), src = i ? 9 : UINT64_MAX;
		uint64_t cmp = i == 1 ? 7 : 8;

		a[0] = 10u | ((i ? 0x28u : 0x2fu) << 25);
		a[1] = (uint32_t)va;
		a[2] = (uint32_t)(va >> 32);
		a[3] = (uint32_t)src;
		a[4] = (uint32_t)(src >> 32);
		a[5] = (uint32_t)cmp;
		a[6] = (uint32_t)(cmp >> 32);
		a[7] = 0;
		if (i == 2)
			a[3] = 11;
	}
	/* CONST_FILL of 8 bytes with a dword pattern (fillsize 2) */
	d[24] = 11u | (2u << 30);
	d[25] = (uint32_t)scratch_va(&r, 80);
	d[26] = (uint32_t)(scratch_va(&r, 80) >> 32);
	d[27] = 0xc0ffee;
	d[28] = v4 ? 7 : 8;
	submit(&r, d, 29);
	CHECK(idle(&r), "idle");
	CHECK_EQ(*(uint64_t *)scratch(&r, 70), 0xffffffffull, "%s ATOMIC ADD64 -1", spec);
	CHECK_EQ(*(uint64_t *)scratch(&r, 72), 9, "%s ATOMIC CMPSWAP64", spec);
	CHECK(*scratch(&r, 80) == 0xc0ffee && *scratch(&r, 81) == 0xc0ffee && *scratch(&r, 82) == 0,
	      "%s CONST_FILL", spec);
	/* GCR_REQ (SDMA 5+): accepted, nothing to see */
	if (r.t->sdma_ip[0] >= 5) {
		memset(d, 0, 5 * 4);
		d[0] = 0x111;
		d[5] = 5;
		d[6] = (uint32_t)scratch_va(&r, 90);
		d[7] = (uint32_t)(scratch_va(&r, 90) >> 32);
		d[8] = 0x44;
		submit(&r, d, 9);
		CHECK(idle(&r), "idle");
		CHECK_EQ(*scratch(&r, 90), 0x44, "%s GCR_REQ then FENCE", spec);
	}
	rig_close(&r);
}

/* Several queues on two GPUs, one thread each, fences for their own
 * events; one waiter checks the ages. */
#define NQ 4
#define FENCES 300
struct qthread {
	struct kfdsig_kfd_queue *q;
	const struct kfdsig_target *t;
	bool sdma;
	uint64_t slot_va;
	uint32_t id;
	int errors;
};

static void *qthread_main(void *p)
{
	struct qthread *qt = p;
	uint32_t d[16];

	for (int i = 0; i < FENCES; i++) {
		uint32_t n;
		if (qt->sdma) {
			d[0] = qt->t->sdma_fence_hdr == KFDSIG_SDMA_HDR_PLAIN ? 5u
									      : 5u | (3u << 16);
			d[1] = (uint32_t)qt->slot_va;
			d[2] = (uint32_t)(qt->slot_va >> 32);
			d[3] = qt->id;
			d[4] = 6;
			d[5] = qt->id;
			n = 6;
		} else {
			n = release_mem(qt->t, qt->slot_va, qt->id, 2, 2, qt->id, d);
		}
		if (kfdsig_kfd_queue_submit(qt->q, d, n, WAIT_MS) < 0)
			qt->errors++;
		/* one fence in flight per event so none coalesce */
		if (kfdsig_kfd_queue_wait_idle(qt->q, WAIT_MS) < 0)
			qt->errors++;
	}
	return NULL;
}

static void test_many_queues(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,gfx1100");
	struct kfdsig_kfd *kfd = t_open(emu);
	struct qthread qt[NQ];
	pthread_t th[NQ];
	struct kfdsig_wait_entry w[NQ];
	uint64_t va;
	int errors = 0;

	for (int i = 0; i < NQ; i++) {
		struct kfdsig_event ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, true);
		uint32_t gpu = t_gpu(kfd, (size_t)i % 2);
		memset(&qt[i], 0, sizeof(qt[i]));
		qt[i].sdma = i >= 2;
		qt[i].t = kfdsig_kfd_device(kfd, (size_t)i % 2)->target;
		qt[i].id = ev.id;
		T_REQUIRE(!kfdsig_kfd_queue_create(
				  kfd, gpu, qt[i].sdma ? KFDSIG_QUEUE_SDMA : KFDSIG_QUEUE_PM4, NULL,
				  &qt[i].q),
			  "queue %d", i);
		w[i] = (struct kfdsig_wait_entry){ .event_id = ev.id, .age = 1 };
	}
	T_REQUIRE(!kfdsig_kfd_signal_page(kfd, NULL, &va), "page");
	for (int i = 0; i < NQ; i++) {
		qt[i].slot_va = va + 8ull * qt[i].id;
		pthread_create(&th[i], NULL, qthread_main, &qt[i]);
	}
	for (int i = 0; i < NQ; i++) {
		pthread_join(th[i], NULL);
		errors += qt[i].errors;
	}
	CHECK_EQ(errors, 0, "every submission consumed");
	/* an idle queue can still owe its last fence's interrupt (the CP
	 * reports a packet read before it raises the packet's interrupt):
	 * wait, bounded, for each new age until the last fence's */
	for (int i = 0; i < NQ; i++) {
		enum kfdsig_wait_result res;
		uint64_t t0 = t_now_ms();
		int rc;

		do
			rc = kfdsig_kfd_wait(kfd, &w[i], 1, false, WAIT_MS, &res);
		while (!rc && res == KFDSIG_WAIT_COMPLETE && w[i].age < 1 + FENCES &&
		       t_now_ms() - t0 < WAIT_MS);
		CHECK(!rc && res == KFDSIG_WAIT_COMPLETE && w[i].age == 1 + FENCES,
		      "queue %d: %d fences, age %llu", i, FENCES, (unsigned long long)w[i].age);
		kfdsig_kfd_queue_destroy(qt[i].q);
	}
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

/* A full ring: the engine is held by a WAIT_REG_MEM, submissions fill the
 * ring until the helper times out instead of overwriting; released, the
 * engine runs every packet that was accepted, in order. */
static void test_ring_full(bool sdma)
{
	KFDSIG_OPTS(kfdsig_queue_opts, o, .ring_size = 4096);
	uint32_t d[16], accepted = 0;
	struct rig r;

	rig_open(&r, sdma ? "gfx1030" : "gfx90a", sdma);
	kfdsig_kfd_queue_destroy(r.q);
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu,
					   sdma ? KFDSIG_QUEUE_SDMA : KFDSIG_QUEUE_PM4, &o, &r.q),
		  "4 KiB queue");
	if (sdma) { /* POLL_REGMEM(mem == 1) */
		d[0] = 8u | (3u << 28) | (1u << 31);
		d[1] = (uint32_t)scratch_va(&r, 0);
		d[2] = (uint32_t)(scratch_va(&r, 0) >> 32);
		d[3] = 1;
		d[4] = 0xffffffffu;
		d[5] = 10;
		submit(&r, d, 6);
	} else { /* WAIT_REG_MEM(mem == 1) */
		d[0] = P3(0x3c, 5);
		d[1] = 3 | (1u << 4);
		d[2] = (uint32_t)scratch_va(&r, 0);
		d[3] = (uint32_t)(scratch_va(&r, 0) >> 32);
		d[4] = 1;
		d[5] = 0xffffffffu;
		d[6] = 4;
		submit(&r, d, 7);
	}
	/* each packet writes its sequence number to scratch[16 + i] */
	for (uint32_t i = 0; i < 2000; i++) {
		uint64_t va = scratch_va(&r, 16 + i);
		uint32_t n;
		int rc;
		if (sdma) {
			d[0] = 2;
			d[1] = (uint32_t)va;
			d[2] = (uint32_t)(va >> 32);
			d[3] = 0; /* one dword (count - 1, SDMA 5.2) */
			d[4] = i + 1;
			n = 5;
		} else {
			d[0] = P3(0x37, 3);
			d[1] = 5u << 8;
			d[2] = (uint32_t)va;
			d[3] = (uint32_t)(va >> 32);
			d[4] = i + 1;
			n = 5;
		}
		rc = kfdsig_kfd_queue_submit(r.q, d, n, 30);
		if (rc == -ETIMEDOUT)
			break;
		CHECK_EQ(rc, 0, "submit %u", i);
		accepted++;
	}
	CHECK(accepted > 100 && accepted < 1024 / 5, "%s: the ring filled after %u packets",
	      sdma ? "sdma" : "pm4", accepted);
	__atomic_store_n(scratch(&r, 0), 1, __ATOMIC_RELEASE);
	CHECK(idle(&r), "drained");
	{
		uint32_t bad = 0;
		for (uint32_t i = 0; i < accepted; i++)
			bad += *scratch(&r, 16 + i) != i + 1;
		CHECK_EQ(bad, 0, "every accepted packet ran, none overwritten");
		CHECK_EQ(*scratch(&r, 16 + accepted), 0, "nothing past them");
	}
	/* and the queue keeps going */
	d[0] = sdma ? 2 : P3(0x37, 3);
	if (sdma) {
		d[1] = (uint32_t)scratch_va(&r, 1);
		d[2] = (uint32_t)(scratch_va(&r, 1) >> 32);
		d[3] = 0;
	} else {
		d[1] = 5u << 8;
		d[2] = (uint32_t)scratch_va(&r, 1);
		d[3] = (uint32_t)(scratch_va(&r, 1) >> 32);
	}
	d[4] = 0x77;
	submit(&r, d, 5);
	CHECK(idle(&r) && *scratch(&r, 1) == 0x77, "after");
	rig_close(&r);
}

int main(void)
{
	static const char *const pm4[] = { "gfx803",  "gfx900",	 "gfx90a", "gfx942",
					   "gfx1030", "gfx1100", "gfx1201" };
	static const char *const sdma[] = { "gfx803",  "gfx906",  "gfx942",
					    "gfx1012", "gfx1101", "gfx1200" };

	for (size_t i = 0; i < sizeof(pm4) / sizeof(pm4[0]); i++)
		test_pm4(pm4[i]);
	for (size_t i = 0; i < sizeof(sdma) / sizeof(sdma[0]); i++)
		test_sdma(sdma[i]);
	test_many_queues();
	test_ring_full(false);
	test_ring_full(true);
	return t_result("kfd_engine");
}
