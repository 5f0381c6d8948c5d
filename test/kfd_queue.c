/* SPDX-License-Identifier: MIT */
/*
 * User queues end to end through the backend against the emulated KFD and
 * its engines: CREATE_QUEUE argument checks (kfd_chardev.c kfd_ioctl_create_queue(), kfd_queue.c), then for every
 * target x {PM4, SDMA} x {auto, manual reset} x {wait any, wait all} x
 * event ids {1, 255, 256, 4095}: emit a fence (PM4: kfdsig's emitter;
 * SDMA: FENCE + TRAP written here by hand from *_sdma_pkt_open.h SDMA_PKT_FENCE; *_sdma_pkt_open.h SDMA_PKT_TRAP), submit,
 * WAIT_EVENTS completes with the right events and ages and the slot reads
 * all-ones again. Also: 4095 events in one submission, ring wrap with NOP
 * fill, the context-id filters, the gfx8 scan and the v6.14 profile, VM
 * faults and bad opcodes.
 */
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kfdsig/decode.h>
#include <kfdsig/pm4.h>
#include <kfdsig/sdma.h>

#include "abi/kfd_ioctl.h"
#include "emu/emu_host.h"
#include "kfd_stall.h"

/* What the emulator hands its host about a stopped queue (emu_host.h). */
static char diag[256];

static void diag_line(void *ctx, const char *line)
{
	(void)ctx;
	snprintf(diag, sizeof(diag), "%s", line);
}

#define WAIT_MS 5000

/* SDMA FENCE (4 dwords) + TRAP (2 dwords), by hand from *_sdma_pkt_open.h SDMA_PKT_FENCE; *_sdma_pkt_open.h SDMA_PKT_TRAP:
 * the header of 5.x and later carries MTYPE 3 (UC) as kfdtest and ROCr
 * write it, SYS and SNP set; 4.x and 3.x only the opcode. */
static uint32_t sdma_fence_trap(const struct kfdsig_target *t, uint64_t va, uint32_t id,
				uint32_t *d)
{
	d[0] = t->sdma_fence_hdr == KFDSIG_SDMA_HDR_PLAIN
		       ? 5u
		       : (1u << 22) | (1u << 20) | (3u << 16) | 5u;
	d[1] = (uint32_t)va;
	d[2] = (uint32_t)(va >> 32);
	d[3] = id;
	d[4] = 6u;
	d[5] = id & 0x0fffffffu;
	return 6;
}

static uint32_t pm4_fence(const struct kfdsig_target *t, uint64_t va, uint32_t id, uint32_t flags,
			  uint32_t ctxid, uint64_t value, uint32_t *d)
{
	struct kfdsig_fence f = {
		.slot_va = va, .event_id = id, .flags = flags, .ctxid = ctxid, .value = value
	};
	/* multi-XCC: predicated to XCC 0, or each XCC of the node would
	 * signal (docs/multi-xcc.md; kfdsig_kfd_queue_submit() runs it from
	 * an IB) */
	int n = t->max_xcc > 1 ? kfdsig_pm4_emit_fence_xcc(t, &f, 1, d, KFDSIG_PM4_XCC_FENCE_MAX_DW)
			       : kfdsig_pm4_emit_fence(t, &f, d, KFDSIG_PM4_FENCE_MAX_DW);
	T_REQUIRE(n > 0, "emit fence %s id %u", t->name, id);
	return (uint32_t)n;
}

static uint32_t fence(struct t_rig *r, bool sdma, uint32_t id, uint32_t *d)
{
	uint64_t va = r->page_va + 8ull * id;
	return sdma ? sdma_fence_trap(r->t, va, id, d) : pm4_fence(r->t, va, id, 0, 0, 0, d);
}

/* kfdsig's SDMA emitter (FENCE, FENCE, TRAP) */
static uint32_t sdma_emitted(struct t_rig *r, uint32_t id, uint32_t *d)
{
	struct kfdsig_fence f = { .slot_va = r->page_va + 8ull * id, .event_id = id };
	int n = kfdsig_sdma_emit_fence(r->t, &f, d, KFDSIG_SDMA_FENCE_MAX_DW);
	T_REQUIRE(n > 0, "sdma emit %s id %u", r->t->name, id);
	return (uint32_t)n;
}

/* engine variants of the matrix: PM4 (emitter), SDMA (by hand), SDMA
 * (emitter) */
static uint32_t fence_v(struct t_rig *r, int v, uint32_t id, uint32_t *d)
{
	return v == 2 ? sdma_emitted(r, id, d) : fence(r, v == 1, id, d);
}

static int count_errors(void *ctx, const struct kfdsig_finding *f)
{
	if (f->severity == KFDSIG_SEV_ERROR)
		++*(int *)ctx;
	return 0;
}

/* Does the decoder's lint flag the stream? */
static int lint_errors(const struct kfdsig_target *t, const uint32_t *d, uint32_t n)
{
	KFDSIG_OPTS(kfdsig_decode_opts, o, .engine = KFDSIG_ENGINE_PM4, .target = t);
	int errors = 0;
	KFDSIG_OPTS(kfdsig_decode_sink, sink, .ctx = &errors, .finding = count_errors);

	kfdsig_lint(&o, &sink, d, n, NULL);
	return errors;
}

static void test_create_checks(void)
{
	struct t_rig r;
	const struct kfdsig_kfd_bo *ring = NULL, *rp = NULL, *wp = NULL, *big = NULL, *eop = NULL;
	const struct kfdsig_kfd_device *d;
	abi_create_queue_args a, good;
	struct kfdsig_kfd_queue *q = NULL;
	unsigned long cq = KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17;

	t_rig_open(&r, "gfx90a,kfd=1.16");
	d = kfdsig_kfd_device(r.kfd, 0);
	CHECK(d->cwsr_size > d->ctl_stack_size && d->ctl_stack_size >= 4096,
	      "context save sizes computed from the topology");
	memset(&a, 0, sizeof(a));
	a.gpu_id = r.gpu;
	a.ring_size = 4096;
	a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
	a.queue_percentage = 100;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -ESRCH, "no VM yet");
	T_REQUIRE(
		!kfdsig_kfd_alloc(r.kfd, r.gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &ring) &&
			!kfdsig_kfd_alloc(r.kfd, r.gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &rp) &&
			!kfdsig_kfd_alloc(r.kfd, r.gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &wp) &&
			!kfdsig_kfd_alloc(r.kfd, r.gpu, 8192, KFDSIG_KFD_MEM_GTT_UNCACHED, &big) &&
			!kfdsig_kfd_alloc(r.kfd, r.gpu, 8192, KFDSIG_KFD_MEM_GTT_UNCACHED, &eop),
		"buffers");
	T_REQUIRE(!kfdsig_kfd_map(r.kfd, ring, NULL, 0) && !kfdsig_kfd_map(r.kfd, rp, NULL, 0) &&
			  !kfdsig_kfd_map(r.kfd, wp, NULL, 0) &&
			  !kfdsig_kfd_map(r.kfd, big, NULL, 0) &&
			  !kfdsig_kfd_map(r.kfd, eop, NULL, 0),
		  "mapped");
	a.ring_base_address = ring->va;
	a.read_pointer_address = rp->va;
	a.write_pointer_address = wp->va;
	good = a;
	a.queue_priority = 16;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EINVAL, "priority > 15");
	a = good;
	a.queue_percentage = 101;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EINVAL, "percentage > 100");
	a.queue_percentage = 100 | (1 << 8); /* bits 15:8: the target XCC */
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), 0, "xcc bits ignored by the check");
	CHECK_EQ(a.queue_id, 0, "first queue id 0");
	CHECK_EQ(a.doorbell_offset & KFDSIG_MMAP_TYPE_MASK, KFDSIG_MMAP_TYPE_DOORBELL,
		 "doorbell offset type");
	CHECK_EQ((a.doorbell_offset & KFDSIG_MMAP_GPU_ID_MASK) >> KFDSIG_MMAP_GPU_ID_SHIFT, r.gpu,
		 "gpu id in the doorbell offset");
	{
		struct kfd_ioctl_destroy_queue_args da = { .queue_id = a.queue_id };
		CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, AMDKFD_IOC_DESTROY_QUEUE, &da), 0, "destroy");
		CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, AMDKFD_IOC_DESTROY_QUEUE, &da), -EINVAL, "twice");
	}
	a = good;
	a.ring_size = 3000;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EINVAL, "ring size not a power of two");
	a = good;
	a.ring_size = 2048;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EINVAL, "ring mapping larger than ring_size");
	a = good;
	a.write_pointer_address = big->va;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EINVAL, "wptr in a two-page mapping");
	a = good;
	a.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EINVAL, "AQL not emulated");
	a = good;
	a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID;
	/* set_queue_properties_from_user(): a type the kernel does not know
	 * is -ENOTSUPP (524), returned as is by kfd_ioctl_create_queue() */
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -524, "SDMA by engine id needs 1.17");
	a.queue_type = 5;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -524, "unknown queue type 5");
	CHECK_EQ(kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA_BY_ENG_ID, NULL, &q),
		 -ENOTSUP, "backend refuses it on 1.16");
	/* compute: EOP size and the context save area must match topology */
	a = good;
	a.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
	a.eop_buffer_address = eop->va;
	a.eop_buffer_size = 8192;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EINVAL, "EOP size != topology (4096)");
	a.eop_buffer_address = 0;
	a.ctl_stack_size = d->ctl_stack_size;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EINVAL, "no context save area");
	t_rig_close(&r);

	/* 1.17: by engine id, engine in range */
	t_rig_open(&r, "gfx90a");
	{
		KFDSIG_OPTS(kfdsig_queue_opts, o, .sdma_engine_id = 4);
		CHECK(kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA_BY_ENG_ID, &o, &q) ==
			      0,
		      "engine 4 of 2 + 3");
		CHECK(kfdsig_kfd_queue_destroy(q) == 0, "destroy");
		o.sdma_engine_id = 5;
		CHECK_EQ(kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA_BY_ENG_ID, &o, &q),
			 -EINVAL, "engine 5 does not exist");
	}
	t_rig_close(&r);
}

/* The interrupt(s) of the last fence(s) named their events: the emulator's
 * trace shows the fast path with the full id for @id (and then @id2), not
 * a wake-up rescued by the slot scan. Return: failures. */
static int irq_named(struct t_rig *r, int sdma, uint32_t id, uint32_t id2)
{
	struct kfdsig_emu_irq_record rec[2];
	enum kfdsig_emu_irq_source src = sdma ? KFDSIG_EMU_IRQ_SDMA_TRAP : KFDSIG_EMU_IRQ_CP_EOP;
	uint32_t bits = sdma ? r->t->sdma_trap_id_bits : r->t->cp_eop_id_bits;
	int n = id2 ? 2 : 1, fails = 0;
	char what[64];

	/* recorded before the waiter was let go (emu_events.c) */
	if (kfdsig_emu_irq_trace(r->emu, r->pasid, rec, (size_t)n) != n)
		return 1;
	snprintf(what, sizeof(what), "%s %s id %u", r->t->name, sdma ? "sdma" : "pm4", id);
	if (id2) {
		/* the older record is id's */
		fails += rec[0].path != KFDSIG_EMU_PATH_FAST || rec[0].id != id ||
			 rec[0].source != src || rec[0].nsignaled != 1 || rec[0].events[0] != id;
		if (fails)
			fprintf(stderr, "%s: first of two interrupts took %s (id %u)\n", what,
				kfdsig_emu_irq_path_name(rec[0].path), rec[0].id);
		id = id2;
	}
	return fails + t_irq_fast(r->emu, r->pasid, src, bits, id, what);
}

/* The matrix for one target: one process, 4095 events, both engines. */
static void test_matrix_target(const char *name)
{
	static const uint32_t ids[] = { 1, 255, 256, 4095 };
	struct t_rig r;
	struct kfdsig_kfd_queue *qs[2] = { NULL, NULL };
	static uint64_t age[4096];
	uint32_t d[64];
	int fails = 0;

	t_rig_open(&r, name);
	T_REQUIRE(r.t, "target");
	for (uint32_t i = 1; i <= 4095; i++) {
		struct kfdsig_event ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
		T_REQUIRE(ev.id == i, "id %u", i);
		age[i] = 1;
	}
	T_REQUIRE(kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va) == 0, "page");
	CHECK(kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &qs[0]) == 0,
	      "%s PM4 queue: %s", name, kfdsig_last_error());
	CHECK(kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA, NULL, &qs[1]) == 0,
	      "%s SDMA queue: %s", name, kfdsig_last_error());
	for (int reset = 0; reset < 2; reset++) {
		if (reset) { /* recreate the four ids as manual-reset events */
			for (int k = 0; k < 4; k++)
				kfdsig_kfd_event_destroy(r.kfd, ids[k]);
			for (int k = 0; k < 4; k++) {
				struct kfdsig_event ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, false);
				T_REQUIRE(ev.id == ids[k], "recreated id");
				age[ev.id] = 1;
			}
		}
		for (int v = 0; v < 3; v++) {
			int e = v ? 1 : 0;
			if (!qs[e])
				continue;
			for (int all = 0; all < 2; all++)
				for (int k = 0; k < 4; k++) {
					uint32_t id = ids[k], id2 = ids[(k + 1) % 4], n;
					struct kfdsig_wait_entry w[2] = {
						{ .event_id = id, .age = age[id] },
						{ .event_id = all ? id2 : 2,
						  .age = all ? age[id2] : age[2] },
					};
					enum kfdsig_wait_result res;
					int rc;

					n = fence_v(&r, v, id, d);
					if (all)
						n += fence_v(&r, v, id2, d + n);
					if (kfdsig_kfd_queue_submit(qs[e], d, n, WAIT_MS) < 0) {
						fails++;
						continue;
					}
					rc = t_wait(r.kfd, w, 2, all, WAIT_MS, &res);
					if (rc || res != KFDSIG_WAIT_COMPLETE || !w[0].fired ||
					    w[0].age != age[id] + 1 ||
					    (all && w[1].age != age[id2] + 1) ||
					    (!all && w[1].fired)) {
						fprintf(stderr,
							"%s %s %s %s id %u: rc %d res %d age "
							"%llu\n",
							name, e ? "sdma" : "pm4",
							reset ? "manual" : "auto",
							all ? "all" : "any", id, rc, res,
							(unsigned long long)w[0].age);
						fails++;
					} else {
						fails += irq_named(&r, e, id, all ? id2 : 0);
					}
					age[id]++;
					if (all)
						age[id2]++;
					if (kfdsig_kfd_queue_wait_idle(qs[e], WAIT_MS) < 0 ||
					    r.page[id] != UINT64_MAX ||
					    (all && r.page[id2] != UINT64_MAX))
						fails++;
					if (reset) {
						kfdsig_kfd_event_reset(r.kfd, id);
						if (all)
							kfdsig_kfd_event_reset(r.kfd, id2);
					}
				}
		}
	}
	CHECK_EQ(fails, 0, "%s: every fence woke its waiters, slots acknowledged", name);
	for (int e = 0; e < 2; e++)
		if (qs[e])
			kfdsig_kfd_queue_destroy(qs[e]);
	t_rig_close(&r);
}

static void test_matrix(void)
{
	for (size_t i = 0; i < kfdsig_target_count(); i++)
		test_matrix_target(kfdsig_target_at(i)->name);
}

/* 4095 events signalled by one submission, all woken. */
static void test_one_submission(const char *name, bool sdma)
{
	/* 4095 fences of up to 10 dwords, 15 in the ring on a multi-XCC
	 * target (PRED_EXEC, and the IB that runs it) */
	KFDSIG_OPTS(kfdsig_queue_opts, o, .ring_size = 512 * 1024);
	static struct kfdsig_wait_entry w[4095];
	static uint32_t d[4095 * KFDSIG_PM4_XCC_FENCE_MAX_DW];
	struct kfdsig_kfd_queue *q = NULL;
	enum kfdsig_wait_result res;
	uint32_t n = 0;
	struct t_rig r;
	int bad = 0;

	t_rig_open(&r, name);
	for (uint32_t i = 1; i <= 4095; i++) {
		t_event(r.kfd, KFDSIG_EVENT_SIGNAL, false);
		w[i - 1] = (struct kfdsig_wait_entry){ .event_id = i, .age = 1 };
	}
	T_REQUIRE(kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va) == 0, "page");
	T_REQUIRE(kfdsig_kfd_queue_create(r.kfd, r.gpu, sdma ? KFDSIG_QUEUE_SDMA : KFDSIG_QUEUE_PM4,
					  &o, &q) == 0,
		  "queue");
	for (uint32_t i = 1; i <= 4095; i++)
		n += fence(&r, sdma, i, d + n);
	CHECK(kfdsig_kfd_queue_submit(q, d, n, WAIT_MS) == 0, "one submission of %u dwords", n);
	CHECK(kfdsig_kfd_wait(r.kfd, w, 4095, true, WAIT_MS, &res) == 0 &&
		      res == KFDSIG_WAIT_COMPLETE,
	      "%s %s: wait all on 4095 events", name, sdma ? "sdma" : "pm4");
	for (uint32_t i = 0; i < 4095; i++)
		bad += !w[i].fired || w[i].age != 2;
	CHECK_EQ(bad, 0, "every event fired once");
	kfdsig_kfd_queue_destroy(q);
	t_rig_close(&r);
}

/* Ring wrap: a 4 KiB ring, fences of 8 dwords (or 6), many times round. */
static void test_wrap(const char *name, bool sdma)
{
	KFDSIG_OPTS(kfdsig_queue_opts, o, .ring_size = 4096);
	struct kfdsig_kfd_queue *q = NULL;
	struct kfdsig_event ev;
	uint64_t age = 1;
	uint32_t d[16];
	struct t_rig r;
	int bad = 0;

	t_rig_open(&r, name);
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va) == 0, "page");
	T_REQUIRE(kfdsig_kfd_queue_create(r.kfd, r.gpu, sdma ? KFDSIG_QUEUE_SDMA : KFDSIG_QUEUE_PM4,
					  &o, &q) == 0,
		  "queue");
	/* seven fences per round: the ring (1024 dwords) wraps every ~20
	 * rounds, not on a packet boundary (1024 % 6 != 0, and gfx8 PM4
	 * fences are 7 dwords), so the tail gets NOP fill */
	for (int round = 0; round < 100; round++) {
		uint32_t n = fence(&r, sdma, ev.id, d);
		uint64_t before = age;

		for (int k = 0; k < 7; k++)
			if (kfdsig_kfd_queue_submit(q, d, n, WAIT_MS) < 0)
				bad++;
		while (age < before + 1) {
			if (!t_fence(r.emu, r.pasid, r.kfd, q, ev.id, &age, WAIT_MS, name)) {
				bad++;
				break;
			}
		}
		if (t_queue_idle(r.emu, r.pasid, q, WAIT_MS, name) < 0)
			bad++;
	}
	{
		enum kfdsig_wait_result res;
		while (age < 701 && !t_wait1(r.kfd, ev.id, &age, 100, &res) &&
		       res == KFDSIG_WAIT_COMPLETE)
			;
	}
	CHECK_EQ(bad, 0, "%s %s: 700 fences through a 4 KiB ring", name, sdma ? "sdma" : "pm4");
	CHECK_EQ(age, 701, "every fence counted once (age %llu)", (unsigned long long)age);
	kfdsig_kfd_queue_destroy(q);
	t_rig_close(&r);
}

static void test_filters(void)
{
	enum kfdsig_wait_result res;
	struct kfdsig_kfd_queue *q;
	struct kfdsig_event ev;
	uint32_t d[16], n;
	struct t_rig r;

	/* gfx90a drops context id 0: the fence writes, nobody wakes */
	t_rig_open(&r, "gfx90a");
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va);
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &q), "queue");
	n = pm4_fence(r.t, r.page_va + 8 * ev.id, ev.id,
		      KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD, 0, 0, d);
	CHECK(!kfdsig_kfd_queue_submit(q, d, n, WAIT_MS) && !kfdsig_kfd_queue_wait_idle(q, WAIT_MS),
	      "submitted and consumed");
	CHECK(t_wait1(r.kfd, ev.id, NULL, 100, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "gfx90a: context id 0 dropped, the wait times out");
	CHECK(r.page[ev.id] != UINT64_MAX, "slot written but not acknowledged");
	CHECK(lint_errors(r.t, d, n) > 0, "the lint flags context id 0 on gfx90a");
	n = pm4_fence(r.t, r.page_va + 8 * ev.id, ev.id, 0, 0, 0, d);
	CHECK_EQ(lint_errors(r.t, d, n), 0, "and passes the default fence");
	kfdsig_kfd_queue_destroy(q);
	t_rig_close(&r);

	/* gfx1100 drops context ids with bit 24 */
	t_rig_open(&r, "gfx1100");
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va);
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &q), "queue");
	n = pm4_fence(r.t, r.page_va + 8 * ev.id, ev.id,
		      KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD, ev.id | 0x1000000, 0, d);
	CHECK(!kfdsig_kfd_queue_submit(q, d, n, WAIT_MS) && !kfdsig_kfd_queue_wait_idle(q, WAIT_MS),
	      "consumed");
	CHECK(t_wait1(r.kfd, ev.id, NULL, 100, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "gfx1100: bit 24 dropped");
	CHECK(lint_errors(r.t, d, n) > 0, "the lint flags bit 24 on gfx1100");
	kfdsig_kfd_queue_destroy(q);
	t_rig_close(&r);
}

/* gfx8: the IV carries the written value; a value naming another,
 * unsignalled slot is found by the scan, and lost on v6.14-v6.18. */
static void test_gfx8_profile(const char *spec, bool lost)
{
	enum kfdsig_wait_result res;
	struct kfdsig_kfd_queue *q;
	struct kfdsig_event a, b;
	uint32_t d[16], n;
	struct t_rig r;

	t_rig_open(&r, spec);
	a = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	b = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va);
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &q), "queue");
	/* event a's slot gets b's id as its value: the interrupt names b */
	n = pm4_fence(r.t, r.page_va + 8 * a.id, a.id,
		      KFDSIG_FENCE_VALUE | KFDSIG_FENCE_DELIBERATELY_BAD, 0, b.id, d);
	CHECK(!kfdsig_kfd_queue_submit(q, d, n, WAIT_MS) && !kfdsig_kfd_queue_wait_idle(q, WAIT_MS),
	      "consumed");
	CHECK(t_wait1(r.kfd, a.id, NULL, lost ? 100 : WAIT_MS, &res) == 0 &&
		      res == (lost ? KFDSIG_WAIT_TIMEOUT : KFDSIG_WAIT_COMPLETE),
	      "%s: wrong id %s", spec, lost ? "lost (v6.14 drop)" : "recovered by the scan");
	CHECK(t_wait1(r.kfd, b.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "b not signalled");
	/* the right id works on both */
	n = pm4_fence(r.t, r.page_va + 8 * b.id, b.id, 0, 0, 0, d);
	CHECK(!kfdsig_kfd_queue_submit(q, d, n, WAIT_MS), "submit");
	CHECK(t_wait1(r.kfd, b.id, NULL, WAIT_MS, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "gfx8 fence with its id");
	kfdsig_kfd_queue_destroy(q);
	t_rig_close(&r);
}

static void test_faults(void)
{
	struct kfdsig_smi *smi = NULL;
	struct kfdsig_smi_event se;
	enum kfdsig_wait_result res;
	struct kfdsig_kfd_queue *q;
	struct kfdsig_event mem, hw, ev;
	struct kfdsig_wait_entry w = { 0 };
	uint32_t d[16], n;
	struct t_rig r;

	/* VM fault: write to an address nothing backs */
	t_rig_open(&r, "gfx1030");
	mem = t_event(r.kfd, KFDSIG_EVENT_MEMORY, false);
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va);
	CHECK(kfdsig_smi_open(r.kfd, r.gpu, KFDSIG_SMI_MASK(KFDSIG_SMI_VMFAULT), &smi) == 0, "smi");
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA, NULL, &q), "queue");
	n = sdma_fence_trap(r.t, 0x7e0000001000ull, ev.id, d);
	CHECK(!kfdsig_kfd_queue_submit(q, d, n, WAIT_MS), "submit");
	w.event_id = mem.id;
	CHECK(t_wait(r.kfd, &w, 1, false, WAIT_MS, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "MEMORY event");
	CHECK(w.memory.va == 0x7e0000001000ull && w.memory.gpu_id == r.gpu && w.memory.not_present,
	      "fault data");
	CHECK(smi && kfdsig_smi_read(smi, &se, WAIT_MS) == 1 && se.type == KFDSIG_SMI_VMFAULT,
	      "SMI VMFAULT line");
	CHECK_EQ(kfdsig_kfd_queue_wait_idle(q, 100), -ETIMEDOUT, "the queue stopped");
	{
		struct kfdsig_emu_queue_info qi;
		CHECK(kfdsig_emu_queue_info(r.emu, r.pasid, (uint32_t)kfdsig_kfd_queue_id(q),
					    &qi) == 0 &&
			      qi.halted && qi.exception == KFDSIG_EMU_QUEUE_VM_FAULT,
		      "halted by the VM fault");
	}
	kfdsig_smi_close(smi);
	kfdsig_kfd_queue_destroy(q);
	t_rig_close(&r);

	/* bad opcode on gfx8: HW_EXCEPTION events */
	t_rig_open(&r, "gfx803");
	hw = t_event(r.kfd, KFDSIG_EVENT_HW_EXCEPTION, false);
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &q), "queue");
	d[0] = 0xc000ee00u; /* PACKET3(0xEE, 0): no such opcode */
	d[1] = 0;
	CHECK(!kfdsig_kfd_queue_submit(q, d, 2, WAIT_MS), "submit");
	CHECK(t_wait1(r.kfd, hw.id, NULL, WAIT_MS, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "gfx8 bad opcode: HW_EXCEPTION");
	kfdsig_kfd_queue_destroy(q);
	t_rig_close(&r);

	/* bad opcode on gfx9+: the queue stops, no event; the host is told
	 * which packet (emu_host_set_diag()) */
	t_rig_open(&r, "gfx942");
	diag[0] = 0;
	emu_host_set_diag(r.emu, diag_line, NULL);
	hw = t_event(r.kfd, KFDSIG_EVENT_HW_EXCEPTION, false);
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va);
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &q), "queue");
	d[0] = 0xc000ee00u;
	d[1] = 0;
	n = 2 + fence(&r, false, ev.id, d + 2);
	CHECK(!kfdsig_kfd_queue_submit(q, d, n, WAIT_MS), "submit");
	CHECK(t_wait1(r.kfd, ev.id, NULL, 100, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "stopped before the fence");
	CHECK(t_wait1(r.kfd, hw.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "SOC15: no HW_EXCEPTION event");
	{
		struct kfdsig_emu_queue_info qi;
		CHECK(kfdsig_emu_queue_info(r.emu, r.pasid, (uint32_t)kfdsig_kfd_queue_id(q),
					    &qi) == 0 &&
			      qi.halted && qi.exception == KFDSIG_EMU_QUEUE_BAD_OPCODE &&
			      qi.consumed == 0,
		      "the exception is recorded, the packet not consumed");
	}
	CHECK(strstr(diag, "PM4 queue") && strstr(diag, "0xc000ee00"),
	      "the host is told the packet that stopped the queue ('%s')", diag);
	kfdsig_kfd_queue_destroy(q);
	t_rig_close(&r);
}

/* gfx900's SDMA takes at least 64 dwords per submission: the helper pads
 * a 6-dword FENCE + TRAP with a NOP burst; gfx906 does not need it. */
static void test_sdma_min_submit(void)
{
	static const struct {
		const char *spec;
		uint64_t consumed;
	} cases[] = { { "gfx900", 64 }, { "gfx906", 6 } };

	for (size_t i = 0; i < 2; i++) {
		struct kfdsig_emu_queue_info qi;
		enum kfdsig_wait_result res;
		struct kfdsig_kfd_queue *q;
		struct kfdsig_event ev;
		uint32_t d[8];
		struct t_rig r;

		t_rig_open(&r, cases[i].spec);
		ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
		kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va);
		T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA, NULL, &q), "q");
		CHECK(!kfdsig_kfd_queue_submit(q, d, fence(&r, true, ev.id, d), WAIT_MS), "submit");
		CHECK(t_wait1(r.kfd, ev.id, NULL, WAIT_MS, &res) == 0 &&
			      res == KFDSIG_WAIT_COMPLETE,
		      "woken");
		CHECK(!kfdsig_kfd_queue_wait_idle(q, WAIT_MS), "idle");
		/* the read pointer passes a packet before its trap is raised,
		 * the engine's own count when it has finished the packet: wait
		 * (bounded) for the count, which must then be exact */
		for (int k = 0; k < WAIT_MS; k++) {
			CHECK(kfdsig_emu_queue_info(r.emu, r.pasid,
						    (uint32_t)kfdsig_kfd_queue_id(q), &qi) == 0,
			      "info");
			if (qi.consumed >= cases[i].consumed)
				break;
			usleep(1000);
		}
		CHECK_EQ(qi.consumed, cases[i].consumed, "%s: dwords per submission",
			 cases[i].spec);
		kfdsig_kfd_queue_destroy(q);
		t_rig_close(&r);
	}
}

int main(void)
{
	test_create_checks();
	test_wrap("gfx803", false);
	test_wrap("gfx906", false);
	test_wrap("gfx1030", true);
	test_wrap("gfx803", true);
	test_matrix();
	test_one_submission("gfx90a", false);
	test_one_submission("gfx1100", true);
	test_one_submission("gfx803", false);
	test_filters();
	test_gfx8_profile("gfx803", false);
	test_gfx8_profile("gfx803,profile=v6.14", true);
	test_faults();
	test_sdma_min_submit();
	{ /* queues left alive die with the process at close */
		struct kfdsig_kfd_queue *q1, *q2;
		struct t_rig r;
		t_rig_open(&r, "gfx1100");
		CHECK(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &q1) &&
			      !kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA, NULL, &q2),
		      "two queues");
		t_rig_close(&r);
	}
	return t_result("kfd_queue");
}
