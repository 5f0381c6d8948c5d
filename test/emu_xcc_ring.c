/* SPDX-License-Identifier: MIT */
/*
 * Every XCC of an emulated multi-XCC node runs the PM4 ring, PRED_EXEC holds
 * in an indirect buffer only, and kfdsig's multi-XCC fence signals once
 * (docs/multi-xcc.md): on an SPX gfx942 (8 XCCs) an unpredicated fence
 * writes the slot and raises the interrupt 8 times (one interrupt per XCC
 * with that XCC's node id) but all 8 writes land before the first is
 * handled, so the event is set once (age +1) and an auto-reset event wakes
 * once; kfdsig_emit_signal()'s fence and kfdsig_pm4_emit_fence_ib() raise
 * one interrupt, a PRED_EXEC left in the ring changes nothing, masks of one
 * and two XCCs raise one and two; on a CPX node (one XCC) a plain fence
 * signals once, and the read pointer is past a fence when its event wakes a
 * waiter. Packets written by hand are from soc15d.h (PACKET3(op, count)).
 */
#include <unistd.h>

#include <kfdsig/pm4.h>
#include <kfdsig/signal.h>

#include "emu/emu_priv.h"
#include "kfd_util.h"

#define WAIT_MS 2000
#define WRM_HDR 0xc0053c00u	  /* PACKET3(WAIT_REG_MEM, 5) */
#define PRED_EXEC_HDR 0xc0002300u /* PACKET3(PRED_EXEC, 0) */

struct fx {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	const struct kfdsig_target *t;
	struct kfdsig_kfd_queue *q;
	const struct kfdsig_kfd_bo *mem; /* code buffer, go word at the end */
	uint64_t *page, page_va;
	uint32_t gpu;
	int pasid;
	uint64_t mark; /* the process's last interrupt before the last submit */
};

static void fx_open(struct fx *f, const char *spec)
{
	memset(f, 0, sizeof(*f));
	f->emu = t_emu(spec);
	f->kfd = t_open(f->emu);
	f->pasid = t_pasid(f->emu, f->kfd);
	f->gpu = t_gpu(f->kfd, 0);
	f->t = kfdsig_kfd_device(f->kfd, 0)->target;
	t_event(f->kfd, KFDSIG_EVENT_SIGNAL, false); /* the page comes with the first */
	T_REQUIRE(!kfdsig_kfd_signal_page(f->kfd, &f->page, &f->page_va), "signal page");
	T_REQUIRE(!kfdsig_kfd_queue_create(f->kfd, f->gpu, KFDSIG_QUEUE_PM4, NULL, &f->q), "queue");
	T_REQUIRE(!kfdsig_kfd_alloc(f->kfd, f->gpu, 65536, KFDSIG_KFD_MEM_GTT_UNCACHED, &f->mem) &&
			  !kfdsig_kfd_map(f->kfd, f->mem, NULL, 0),
		  "code buffer");
}

static void fx_close(struct fx *f)
{
	kfdsig_kfd_queue_destroy(f->q);
	kfdsig_kfd_close(f->kfd);
	kfdsig_emu_destroy(f->emu);
}

static uint64_t last_seq(struct fx *f)
{
	struct kfdsig_emu_irq_record r[KFDSIG_EMU_IRQ_TRACE_LEN];
	int got = kfdsig_emu_irq_trace(f->emu, f->pasid, r, KFDSIG_EMU_IRQ_TRACE_LEN);

	return got > 0 ? r[got - 1].seq : 0;
}

static void submit(struct fx *f, const uint32_t *d, int n)
{
	f->mark = last_seq(f);
	T_REQUIRE(n > 0 && !kfdsig_kfd_queue_submit(f->q, d, (uint32_t)n, WAIT_MS), "submit %d", n);
}

static uint64_t age_after(struct fx *f, uint32_t id)
{
	enum kfdsig_wait_result res;
	uint64_t age = 1;

	T_REQUIRE(!kfdsig_kfd_queue_wait_idle(f->q, WAIT_MS), "idle");
	T_REQUIRE(!t_wait1(f->kfd, id, &age, WAIT_MS, &res) && res == KFDSIG_WAIT_COMPLETE,
		  "event %u fired", id);
	return age;
}

static struct kfdsig_fence fence_of(struct fx *f, uint32_t id)
{
	return (struct kfdsig_fence){ .slot_va = f->page_va + 8ull * id, .event_id = id };
}

/* The read pointer the engine reports for the fixture's queue (dwords). */
static uint32_t rptr_of(struct fx *f)
{
	struct emu_proc *p = emu_proc_get(f->emu, f->pasid);
	uint32_t id = (uint32_t)kfdsig_kfd_queue_id(f->q), v = 0;

	T_REQUIRE(p, "proc");
	pthread_mutex_lock(&p->lock);
	for (struct emu_queue *q = p->queues; q; q = q->next)
		if (q->id == id)
			v = __atomic_load_n((uint32_t *)q->rptr, __ATOMIC_ACQUIRE);
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	return v;
}

/* The process's interrupts into @r once @n were raised since the last
 * submit: the read pointer passes a packet before its interrupts are
 * handled (emu_doorbell.c run_xcc()), so a waiter woken by the first of an
 * unpredicated fence's N entries can look before the others are. */
static int since_submit(struct fx *f, uint32_t n, struct kfdsig_emu_irq_record *r)
{
	uint64_t t0 = t_now_ms();

	for (;;) {
		int got = kfdsig_emu_irq_trace(f->emu, f->pasid, r, KFDSIG_EMU_IRQ_TRACE_LEN);
		uint32_t fresh = 0;

		for (int i = 0; i < got; i++)
			fresh += r[i].seq > f->mark;
		if (fresh >= n)
			return got;
		T_REQUIRE(t_now_ms() - t0 < WAIT_MS, "%u interrupts since the submit, %u", n,
			  fresh);
		usleep(500);
	}
}

/* The node ids of the last @n interrupts of the process. */
static void last_nodes(struct fx *f, uint32_t n, uint16_t *out)
{
	struct kfdsig_emu_irq_record r[KFDSIG_EMU_IRQ_TRACE_LEN];
	int got = since_submit(f, n, r);

	for (uint32_t i = 0; i < n; i++)
		out[i] = r[got - (int)n + (int)i].node_id;
}

/* Of the last @n interrupts, how many set an event (kfd_events.c
 * kfd_signal_event_interrupt(): the first finds the slot signalled and
 * acknowledges it; the others find it unsignalled, scan, and set nothing). */
static uint32_t last_setters(struct fx *f, uint32_t n)
{
	struct kfdsig_emu_irq_record r[KFDSIG_EMU_IRQ_TRACE_LEN];
	int got = since_submit(f, n, r);
	uint32_t setters = 0;

	for (uint32_t i = 0; i < n; i++)
		setters += r[got - (int)n + (int)i].nsignaled != 0;
	return setters;
}

/* physical XCC n raises on 4 * (n / 2) + 1 + n % 2 (GC 9.4.3, emu_xcc.c) */
static const uint16_t nodes_v943[8] = { 1, 2, 5, 6, 9, 10, 13, 14 };
/* GC 12.1: on 2 + n % 4, 8 higher for XCCs 4-7 (emu_gc12_1.c) */
static const uint16_t nodes_v121[8] = { 2, 3, 4, 5, 10, 11, 12, 13 };

static void test_spx(const char *spec, const uint16_t *want)
{
	KFDSIG_OPTS(kfdsig_code_buf, cb);
	uint32_t d[64];
	uint16_t nodes[8];
	struct fx f;
	struct kfdsig_fence fe;
	int n;

	fx_open(&f, spec);
	cb.cpu = f.mem->cpu;
	cb.va = f.mem->va;
	cb.size = f.mem->size - 64;

	/* the fence as a one-XCC GPU wants it: once per XCC */
	struct kfdsig_event e1 = t_event(f.kfd, KFDSIG_EVENT_SIGNAL, false);
	fe = fence_of(&f, e1.id);
	submit(&f, d, kfdsig_pm4_emit_fence(f.t, &fe, d, 64));
	CHECK_EQ(age_after(&f, e1.id), 2, "unpredicated fence: 8 writes, age +1");
	last_nodes(&f, 8, nodes);
	CHECK(!memcmp(nodes, want, sizeof(nodes)), "%s: one interrupt per XCC, each its node id",
	      spec);
	CHECK_EQ(last_setters(&f, 8), 1, "%s: of the 8 IH entries one sets the event", spec);

	/* kfdsig_emit_signal(): predicated, run from the submit's IB */
	struct kfdsig_event e2 = t_event(f.kfd, KFDSIG_EVENT_SIGNAL, false);
	fe = fence_of(&f, e2.id);
	submit(&f, d, kfdsig_emit_signal(f.t, KFDSIG_SIGNAL_PM4, &fe, NULL, d, 64));
	CHECK_EQ(age_after(&f, e2.id), 2, "kfdsig's default fence: age +1");
	last_nodes(&f, 1, nodes);
	CHECK_EQ(nodes[0], want[0], "raised by XCC 0");

	/* the IB form: safe in the ring as it is */
	struct kfdsig_event e3 = t_event(f.kfd, KFDSIG_EVENT_SIGNAL, false);
	fe = fence_of(&f, e3.id);
	n = kfdsig_emit_signal(f.t, KFDSIG_SIGNAL_PM4, &fe, &cb, d, 64);
	CHECK_EQ(n, KFDSIG_PM4_IB_DW, "an INDIRECT_BUFFER");
	submit(&f, d, n);
	CHECK_EQ(age_after(&f, e3.id), 2, "fence in an IB: age +1");

	/* PRED_EXEC left in the ring (its count runs past the submission, so
	 * the submit leaves it there): ignored, every XCC signals */
	struct kfdsig_event e4 = t_event(f.kfd, KFDSIG_EVENT_SIGNAL, false);
	fe = fence_of(&f, e4.id);
	n = kfdsig_pm4_emit_fence(f.t, &fe, d + 2, 62);
	d[0] = PRED_EXEC_HDR;
	d[1] = 1u << 24 | (uint32_t)n;
	submit(&f, d, 2);
	submit(&f, d + 2, n);
	CHECK_EQ(age_after(&f, e4.id), 2, "PRED_EXEC in a ring: age +1");
	last_nodes(&f, 8, nodes);
	CHECK(!memcmp(nodes, want, sizeof(nodes)), "%s: PRED_EXEC in a ring: 8 interrupts", spec);

	/* masks: XCC 1 alone, XCCs 0 and 1 */
	struct kfdsig_event e5 = t_event(f.kfd, KFDSIG_EVENT_SIGNAL, false);
	fe = fence_of(&f, e5.id);
	submit(&f, d, kfdsig_pm4_emit_fence_xcc(f.t, &fe, 0x2, d, 64));
	CHECK_EQ(age_after(&f, e5.id), 2, "mask 0x2: age +1");
	last_nodes(&f, 1, nodes);
	CHECK_EQ(nodes[0], want[1], "raised by XCC 1");
	struct kfdsig_event e6 = t_event(f.kfd, KFDSIG_EVENT_SIGNAL, false);
	fe = fence_of(&f, e6.id);
	submit(&f, d, kfdsig_pm4_emit_fence_xcc(f.t, &fe, 0x3, d, 64));
	CHECK_EQ(age_after(&f, e6.id), 2, "mask 0x3: age +1");
	last_nodes(&f, 2, nodes);
	CHECK(nodes[0] == want[0] && nodes[1] == want[1], "mask 0x3: raised by XCCs 0 and 1");
	fx_close(&f);
}

/*
 * An auto-reset event: [fence, WAIT_REG_MEM go == 1]: every XCC runs the
 * fence before any runs the WAIT_REG_MEM, and the 8 interrupts find the
 * slot acknowledged after the first, so the event is set once and the
 * next wait finds nothing, with either fence.
 */
static bool wakes_twice(const char *spec, bool safe)
{
	enum kfdsig_wait_result res;
	uint32_t d[64], *go;
	struct fx f;
	struct kfdsig_event ev;
	struct kfdsig_fence fe;
	bool again;
	int n;

	fx_open(&f, spec);
	go = (uint32_t *)((uint8_t *)f.mem->cpu + f.mem->size - 64);
	*go = 0;
	ev = t_event(f.kfd, KFDSIG_EVENT_SIGNAL, true);
	fe = fence_of(&f, ev.id);
	n = safe ? kfdsig_emit_signal(f.t, KFDSIG_SIGNAL_PM4, &fe, NULL, d, 56)
		 : kfdsig_pm4_emit_fence(f.t, &fe, d, 56);
	T_REQUIRE(n > 0, "fence");
	d[n++] = WRM_HDR;
	d[n++] = 3u | 1u << 4; /* function ==, memory */
	d[n++] = (uint32_t)(f.mem->va + f.mem->size - 64);
	d[n++] = (uint32_t)((f.mem->va + f.mem->size - 64) >> 32);
	d[n++] = 1;
	d[n++] = 0xffffffffu;
	d[n++] = 4;
	submit(&f, d, n);
	CHECK(!t_wait1(f.kfd, ev.id, NULL, WAIT_MS, &res) && res == KFDSIG_WAIT_COMPLETE,
	      "%s: the first wait wakes", spec);
	/* the CP fetched the fence before its interrupts: the read pointer
	 * is past it (and short of the waiting WAIT_REG_MEM) on the wake-up */
	if (!safe)
		CHECK_EQ(rptr_of(&f), (uint32_t)(n - 7), "%s: the read pointer past the fence",
			 spec);
	__atomic_store_n(go, 1, __ATOMIC_RELEASE);
	T_REQUIRE(!kfdsig_kfd_queue_wait_idle(f.q, WAIT_MS), "idle");
	again = !t_wait1(f.kfd, ev.id, NULL, 0, &res) && res == KFDSIG_WAIT_COMPLETE;
	fx_close(&f);
	return again;
}

static void test_cpx(void)
{
	uint32_t d[64];
	struct fx f;
	struct kfdsig_event ev;
	struct kfdsig_fence fe;

	fx_open(&f, "gfx942,partition=cpx");
	ev = t_event(f.kfd, KFDSIG_EVENT_SIGNAL, false);
	fe = fence_of(&f, ev.id);
	submit(&f, d, kfdsig_pm4_emit_fence(f.t, &fe, d, 64));
	CHECK_EQ(age_after(&f, ev.id), 2, "CPX node (one XCC): a plain fence signals once");
	fx_close(&f);
}

int main(void)
{
	test_spx("gfx942", nodes_v943);
	/* GC 12.1 follows GC 9.4.3 (kfd_mqd_manager_v12_1.c, gfx_v12_1_pkt.h) */
	test_spx("gfx1250", nodes_v121);
	CHECK(!wakes_twice("gfx942", false), "SPX, unpredicated: an auto-reset event wakes once");
	CHECK(!wakes_twice("gfx942", true), "SPX, kfdsig's fence: it wakes once");
	CHECK(!wakes_twice("gfx942,partition=cpx", false), "CPX, unpredicated: once");
	CHECK(!wakes_twice("gfx1250", false), "gfx1250 SPX, unpredicated: wakes once");
	CHECK(!wakes_twice("gfx1250", true), "gfx1250 SPX, kfdsig's fence: once");
	CHECK(!wakes_twice("gfx1250,partition=cpx", false), "gfx1250 CPX, unpredicated: once");
	test_cpx();
	return t_result("emu_xcc_ring");
}
