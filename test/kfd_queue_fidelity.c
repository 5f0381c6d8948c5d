/* SPDX-License-Identifier: MIT */
/*
 * User queues behave as amdkfd's do:
 *  - rptr: the read pointer is past a packet before the packet's
 *    end-of-pipe interrupt wakes a waiter (the CP fetches before it
 *    executes: kfd_mqd_manager_v9.c update_mqd() points the CP's rptr
 *    report at the queue's read pointer, written as the CP fetches).
 *    Checked with the whole process, engine threads included, pinned to
 *    one CPU, where the woken waiter runs before the engine goes on.
 *  - count: 1024 queues per process (KFD_MAX_NUM_OF_QUEUES_PER_PROCESS,
 *    kfd_process_queue_manager.c find_available_queue_slot()), the next
 *    one -ENOMEM; 127 of them per GPU (pqm_create_queue(): max_queues,
 *    the HWS limit, 255 on GC 9.4.3+), the next -ENOSPC; all processes'
 *    queues of a GPU up to the max_num_of_queues_per_device module
 *    parameter (kfd_device_queue_manager.c create_queue_cpsch(): -EPERM);
 *    SDMA queues limited per device by the engines' queue slots
 *    (kfd_device_queue_manager.c allocate_sdma_queue(): -ENOMEM).
 *  - created inactive: a queue created with percentage 0 or ring size 0
 *    is not active (init_mqd() -> update_mqd(): QUEUE_IS_ACTIVE) and runs
 *    nothing until UPDATE_QUEUE makes it active.
 *  - wave state: GET_QUEUE_WAVE_STATE answers for an inactive compute
 *    queue only (kfd_device_queue_manager.c get_wave_state(): SDMA or
 *    active -EINVAL; pqm_get_wave_state(): unknown queue -EFAULT).
 *  - update: UPDATE_QUEUE with ring address 0, ring size 0 or percentage
 *    0 makes the queue inactive (kfd_process_queue_manager.c
 *    pqm_update_queue_properties(), kfd_priv.h QUEUE_IS_ACTIVE): nothing
 *    runs until an UPDATE_QUEUE makes it active again; SDMA queues too.
 *  - refused packets: an AQL packet of no known type or an SDMA opcode the
 *    engine does not know stops the queue within a bounded time and, for
 *    a runtime that enabled exceptions, raises EC_QUEUE_PACKET_UNSUPPORTED
 *    (kfd_int_process_v9.c SOC15_INTSRC_CP_BAD_OPCODE ->
 *    kfd_set_dbg_ev_from_interrupt() -> kfd_send_exception_to_runtime());
 *    without one the kernel signals nothing on SOC15 (kfd_queue.c checks
 *    that, and gfx8's HW_EXCEPTION events).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <linux/futex.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_priv.h"
#include "abi/kfd_ioctl.h"
#include "kfd_debug_util.h"
#include "kfd_util.h"

/* The emulator's record of queue @qid of the process. */
static struct emu_queue *equeue(struct t_rig *r, uint32_t qid)
{
	struct emu_proc *p = emu_proc_get(r->emu, r->pasid);
	struct emu_queue *q, *found = NULL;

	T_REQUIRE(p, "proc");
	pthread_mutex_lock(&p->lock);
	for (q = p->queues; q; q = q->next)
		if (q->id == qid)
			found = q;
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	T_REQUIRE(found, "queue %u", qid);
	return found;
}

/* The read pointer as the client reads it, in dwords. */
static uint64_t rptr_dw(const struct emu_queue *q)
{
	if (q->sdma)
		return q->g->gen.wptr_bits == 64
			       ? __atomic_load_n((uint64_t *)q->rptr, __ATOMIC_ACQUIRE) / 4
			       : __atomic_load_n((uint32_t *)q->rptr, __ATOMIC_ACQUIRE) / 4;
	return __atomic_load_n((uint32_t *)q->rptr, __ATOMIC_ACQUIRE);
}

static uint32_t fence(struct t_rig *r, bool sdma, uint32_t id, uint32_t *d)
{
	struct kfdsig_fence f = { .slot_va = r->page_va + 8ull * id, .event_id = id };
	int n = sdma ? kfdsig_sdma_emit_fence(r->t, &f, d, KFDSIG_SDMA_FENCE_MAX_DW)
		     : kfdsig_pm4_emit_fence(r->t, &f, d, KFDSIG_PM4_FENCE_MAX_DW);
	T_REQUIRE(n > 0, "emit fence %s", r->t->name);
	return (uint32_t)n;
}

/* ---- rptr before the interrupt ------------------------------------------ */

#define ROUNDS 300

static void rptr_order(const char *spec, bool sdma)
{
	struct t_rig r;
	struct kfdsig_kfd_queue *kq;
	struct kfdsig_event ev;
	struct emu_queue *q;
	uint32_t d[64], ring_dw;
	uint64_t pos = 0;
	int late = 0;

	t_rig_open(&r, spec);
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va) == 0, "page");
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu,
					   sdma ? KFDSIG_QUEUE_SDMA : KFDSIG_QUEUE_PM4, NULL, &kq),
		  "queue");
	q = equeue(&r, (uint32_t)kfdsig_kfd_queue_id(kq));
	ring_dw = q->ring_size / 4;
	for (int i = 0; i < ROUNDS; i++) {
		enum kfdsig_wait_result res;
		uint32_t n = fence(&r, sdma, ev.id, d);
		uint64_t got;

		if (pos % ring_dw + n > ring_dw)
			break; /* the submit would pad the ring's end */
		CHECK_EQ(kfdsig_kfd_queue_submit(kq, d, n, 1000), 0, "submit");
		pos += n;
		CHECK_EQ(t_wait1(r.kfd, ev.id, NULL, 2000, &res), 0, "wait");
		got = rptr_dw(q);
		/* the woken waiter's first look at the read pointer */
		if (got % ring_dw != pos % ring_dw)
			late++;
		if (res != KFDSIG_WAIT_COMPLETE)
			break;
		kfdsig_kfd_queue_wait_idle(kq, 1000);
	}
	CHECK(late == 0,
	      "%s %s: in %d of %d rounds the waiter woke before the read pointer passed the "
	      "fence",
	      spec, sdma ? "SDMA" : "PM4", late, ROUNDS);
	kfdsig_kfd_queue_destroy(kq);
	t_rig_close(&r);
}

/* ---- UPDATE_QUEUE: inactive until made active again ------------------- */

static int update(struct t_rig *r, uint32_t qid, uint64_t ring, uint32_t size, uint32_t percent)
{
	struct kfd_ioctl_update_queue_args a = {
		.ring_base_address = ring,
		.queue_id = qid,
		.ring_size = size,
		.queue_percentage = percent,
		.queue_priority = 7,
	};
	return kfdsig_kfd_ioctl(r->kfd, AMDKFD_IOC_UPDATE_QUEUE, &a);
}

/* @how: 0 ring address 0, 1 ring size 0, 2 percentage 0 */
static void inactive(const char *spec, bool sdma, int how)
{
	static const char *const what[] = { "ring address 0", "ring size 0", "percentage 0" };
	struct t_rig r;
	struct kfdsig_kfd_queue *kq;
	struct kfdsig_event ev;
	struct emu_queue *q;
	enum kfdsig_wait_result res;
	uint32_t d[64], n, qid;
	uint64_t ring;
	uint32_t size;

	t_rig_open(&r, spec);
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va) == 0, "page");
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu,
					   sdma ? KFDSIG_QUEUE_SDMA : KFDSIG_QUEUE_PM4, NULL, &kq),
		  "queue");
	qid = (uint32_t)kfdsig_kfd_queue_id(kq);
	q = equeue(&r, qid);
	ring = q->ring_va;
	size = q->ring_size;
	CHECK_EQ(update(&r, qid, how == 0 ? 0 : ring, how == 1 ? 0 : size, how == 2 ? 0 : 100), 0,
		 "%s %s: UPDATE_QUEUE %s", spec, sdma ? "SDMA" : "PM4", what[how]);
	r.page[ev.id] = 0;
	n = fence(&r, sdma, ev.id, d);
	CHECK_EQ(kfdsig_kfd_queue_submit(kq, d, n, 1000), 0, "submit");
	CHECK_EQ(t_wait1(r.kfd, ev.id, NULL, 200, &res), 0, "wait");
	CHECK(res == KFDSIG_WAIT_TIMEOUT && r.page[ev.id] == 0,
	      "%s %s: after UPDATE_QUEUE with %s the queue ran a fence (wait result %d)", spec,
	      sdma ? "SDMA" : "PM4", what[how], (int)res);
	if (res != KFDSIG_WAIT_TIMEOUT || r.page[ev.id] != 0) {
		/* the fence ran: no later wait of this case can end but by its bound */
		kfdsig_kfd_queue_destroy(kq);
		t_rig_close(&r);
		return;
	}
	/* active again: it goes on from where it stopped */
	CHECK_EQ(update(&r, qid, ring, size, 100), 0, "UPDATE_QUEUE active");
	CHECK_EQ(t_wait1(r.kfd, ev.id, NULL, 2000, &res), 0, "wait");
	CHECK(res == KFDSIG_WAIT_COMPLETE, "%s %s: made active again, the fence did not run", spec,
	      sdma ? "SDMA" : "PM4");
	/* still refused: another ring */
	CHECK_EQ(update(&r, qid, ring + 4096, size, 100), -EINVAL, "moved ring");
	kfdsig_kfd_queue_destroy(kq);
	t_rig_close(&r);
}

/* ---- GET_QUEUE_WAVE_STATE: an inactive compute queue only --------------- */

static int wave_state(struct t_rig *r, uint32_t qid, uint64_t ctl, uint32_t *ctl_used,
		      uint32_t *save_used)
{
	struct kfd_ioctl_get_queue_wave_state_args a = {
		.ctl_stack_address = ctl,
		.queue_id = qid,
		.ctl_stack_used_size = 0xdead,
		.save_area_used_size = 0xbeef,
	};
	int ret = kfdsig_kfd_ioctl(r->kfd, AMDKFD_IOC_GET_QUEUE_WAVE_STATE, &a);

	*ctl_used = a.ctl_stack_used_size;
	*save_used = a.save_area_used_size;
	return ret;
}

/* pqm_get_wave_state(): unknown queue -EFAULT; kfd_device_queue_manager.c
 * get_wave_state(): an SDMA or still active queue -EINVAL; an inactive
 * compute queue reports an empty control stack and save area (no wave was
 * saved). */
static void wave_state_checks(void)
{
	struct t_rig r;
	struct kfdsig_kfd_queue *kq, *ks;
	uint32_t qid, sid, cu, su;
	struct emu_queue *q;
	uint64_t ring, ctl;

	t_rig_open(&r, "gfx90a");
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &kq) &&
			  !kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA, NULL, &ks),
		  "queues");
	qid = (uint32_t)kfdsig_kfd_queue_id(kq);
	sid = (uint32_t)kfdsig_kfd_queue_id(ks);
	q = equeue(&r, qid);
	ring = q->ring_va;
	ctl = q->cwsr_va;
	T_REQUIRE(ctl, "the compute queue has a context save area");
	CHECK_EQ(wave_state(&r, qid + 100, ctl, &cu, &su), -EFAULT, "unknown queue");
	CHECK_EQ(wave_state(&r, qid, ctl, &cu, &su), -EINVAL, "active compute queue");
	CHECK_EQ(update(&r, qid, ring, q->ring_size, 0), 0, "UPDATE_QUEUE percentage 0");
	CHECK_EQ(update(&r, sid, equeue(&r, sid)->ring_va, equeue(&r, sid)->ring_size, 0), 0,
		 "SDMA UPDATE_QUEUE percentage 0");
	CHECK_EQ(wave_state(&r, sid, ctl, &cu, &su), -EINVAL, "inactive SDMA queue");
	CHECK_EQ(wave_state(&r, qid, ctl, &cu, &su), 0, "inactive compute queue");
	CHECK(cu == 0 && su == 0, "empty stack and save area reported (got %u, %u)", cu, su);
	CHECK_EQ(wave_state(&r, qid, 0xffff800000000000ull, &cu, &su), -EFAULT,
		 "control stack address in the kernel half");
	CHECK_EQ(update(&r, qid, ring, q->ring_size, 100), 0, "active again");
	CHECK_EQ(wave_state(&r, qid, ctl, &cu, &su), -EINVAL, "active again: refused");
	kfdsig_kfd_queue_destroy(ks);
	kfdsig_kfd_queue_destroy(kq);
	t_rig_close(&r);
}

/* ---- created inactive ---------------------------------------------------- */

/* @how: 0 percentage 0, 1 ring size 0. A raw SDMA CREATE_QUEUE; the fence
 * goes into the ring and the doorbell as kfdsig_kfd_queue_submit() would. */
static void created_inactive(int how)
{
	static const char *const what[] = { "percentage 0", "ring size 0" };
	const struct kfdsig_kfd_bo *ring = NULL, *rp = NULL, *wp = NULL;
	struct kfd_ioctl_destroy_queue_args da = { 0 };
	abi_create_queue_args a;
	enum kfdsig_wait_result res;
	struct kfdsig_event ev;
	struct emu_queue *q;
	struct t_rig r;
	uint32_t d[64], n;

	t_rig_open(&r, "gfx90a");
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va) == 0, "page");
	T_REQUIRE(!kfdsig_kfd_alloc(r.kfd, r.gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &ring) &&
			  !kfdsig_kfd_alloc(r.kfd, r.gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &rp) &&
			  !kfdsig_kfd_alloc(r.kfd, r.gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &wp) &&
			  !kfdsig_kfd_map(r.kfd, ring, NULL, 0) &&
			  !kfdsig_kfd_map(r.kfd, rp, NULL, 0) &&
			  !kfdsig_kfd_map(r.kfd, wp, NULL, 0),
		  "buffers");
	memset(&a, 0, sizeof(a));
	a.gpu_id = r.gpu;
	a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
	a.ring_base_address = ring->va;
	a.read_pointer_address = rp->va;
	a.write_pointer_address = wp->va;
	a.ring_size = how == 1 ? 0 : 4096;
	a.queue_percentage = how == 0 ? 0 : 100;
	a.queue_priority = 7;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17, &a), 0,
		 "CREATE_QUEUE with %s", what[how]);
	q = equeue(&r, a.queue_id);
	r.page[ev.id] = 0;
	n = fence(&r, true, ev.id, d);
	memcpy(ring->cpu, d, n * 4);
	__atomic_store_n((uint64_t *)wp->cpu, (uint64_t)n * 4, __ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)q->doorbell, (uint64_t)n * 4, __ATOMIC_RELEASE);
	syscall(SYS_futex, (uint32_t *)q->doorbell, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
	CHECK_EQ(t_wait1(r.kfd, ev.id, NULL, 200, &res), 0, "wait");
	CHECK(res == KFDSIG_WAIT_TIMEOUT && r.page[ev.id] == 0,
	      "created with %s, the queue ran a fence (wait result %d)", what[how], (int)res);
	if (how == 1)
		CHECK_EQ(update(&r, a.queue_id, ring->va, 8192, 100), -EINVAL,
			 "a size other than its buffer's");
	CHECK_EQ(update(&r, a.queue_id, ring->va, 4096, 100), 0, "UPDATE_QUEUE active");
	CHECK_EQ(t_wait1(r.kfd, ev.id, NULL, 2000, &res), 0, "wait");
	CHECK(res == KFDSIG_WAIT_COMPLETE, "created with %s, made active: the fence did not run",
	      what[how]);
	da.queue_id = a.queue_id;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, AMDKFD_IOC_DESTROY_QUEUE, &da), 0, "destroy");
	t_rig_close(&r);
}

/* ---- how many queues ---------------------------------------------------- */

/* All processes' queues of a GPU: the module parameter (4096 by default,
 * lowered here) is -EPERM for the next one, from any process. */
static void device_limit(void)
{
	struct kfdsig_kfd_queue *q[8], *extra;
	struct kfdsig_kfd *other;
	struct t_rig r;
	int n = 0;

	t_rig_open(&r, "gfx90a");
	CHECK_EQ(r.emu->max_queues_per_device, 4096, "max_num_of_queues_per_device default");
	r.emu->max_queues_per_device = 6;
	other = t_open(r.emu);
	for (; n < 4; n++)
		T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &q[n]),
			  "queue %d", n);
	for (; n < 6; n++)
		T_REQUIRE(!kfdsig_kfd_queue_create(other, t_gpu(other, 0), KFDSIG_QUEUE_SDMA, NULL,
						   &q[n]),
			  "queue %d", n);
	CHECK_EQ(kfdsig_kfd_queue_create(other, t_gpu(other, 0), KFDSIG_QUEUE_PM4, NULL, &extra),
		 -EPERM, "the GPU's 7th queue, max_num_of_queues_per_device 6");
	CHECK_EQ(kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA, NULL, &extra), -EPERM,
		 "an SDMA queue past it");
	kfdsig_kfd_queue_destroy(q[0]);
	CHECK_EQ(kfdsig_kfd_queue_create(other, t_gpu(other, 0), KFDSIG_QUEUE_PM4, NULL, &q[0]), 0,
		 "a destroyed queue makes room");
	while (n)
		kfdsig_kfd_queue_destroy(q[--n]);
	kfdsig_kfd_close(other);
	t_rig_close(&r);
}

/* SDMA queues are a per-device pool of num_sdma_queues_per_engine per
 * engine: the 17th plain SDMA queue of a gfx90a (2 engines x 8) is
 * -ENOMEM, even from another process; XGMI queues have their own pool
 * (3 x 8). */
static void sdma_limit(void)
{
	struct kfdsig_kfd_queue *q[32], *x[32], *extra;
	struct t_rig r;
	struct kfdsig_kfd *other;
	int n = 0, nx = 0;

	t_rig_open(&r, "gfx90a");
	while (n < 32 && !kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA, NULL, &q[n]))
		n++;
	CHECK_EQ(n, 16, "gfx90a: plain SDMA queues (2 engines x 8)");
	other = t_open(r.emu);
	CHECK_EQ(kfdsig_kfd_queue_create(other, t_gpu(other, 0), KFDSIG_QUEUE_SDMA, NULL, &extra),
		 -ENOMEM, "another process: the device has no SDMA queue left");
	kfdsig_kfd_close(other);
	kfdsig_kfd_queue_destroy(q[--n]);
	CHECK_EQ(kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA, NULL, &q[n]), 0,
		 "a freed SDMA queue is there again");
	n++;
	for (; nx < 32; nx++) {
		if (kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_SDMA_BY_ENG_ID,
					    &(struct kfdsig_queue_opts){
						    .sz = sizeof(struct kfdsig_queue_opts),
						    .sdma_engine_id = 2 + (uint32_t)nx % 3,
					    },
					    &x[nx]))
			break;
	}
	CHECK_EQ(nx, 24, "gfx90a: XGMI SDMA queues by engine id (3 engines x 8)");
	while (nx)
		kfdsig_kfd_queue_destroy(x[--nx]);
	while (n)
		kfdsig_kfd_queue_destroy(q[--n]);
	t_rig_close(&r);
}

/* 127 queues of a process per GPU, the next -ENOSPC; 1024 per process
 * (on 9 GPUs), the next -ENOMEM; GPUs of one CU keep each queue's context
 * save area small. */
#define PER_PROCESS 1024
#define PER_GPU 127
#define NGPUS (PER_PROCESS / PER_GPU + 1)

static void process_limit(void)
{
	struct kfdsig_emu_gpu_desc g[NGPUS];
	KFDSIG_OPTS(kfdsig_emu_config, cfg, .gpus = g, .ngpus = NGPUS);
	KFDSIG_OPTS(kfdsig_queue_opts, o, .ring_size = 4096);
	static struct kfdsig_kfd_queue *q[PER_PROCESS + 1];
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	struct rlimit rl;
	int n = 0, r = 0, on;
	uint32_t gi = 0;

	for (int i = 0; i < NGPUS; i++)
		g[i] = (struct kfdsig_emu_gpu_desc){ .target = "gfx90a", .simd_count = 4 };

	/* about five fds per queue (its buffers) */
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_max < 8 * PER_PROCESS) {
		printf("SKIP part: RLIMIT_NOFILE hard limit below %d\n", 8 * PER_PROCESS);
		return;
	}
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	/* 1024 idle engines: let them sleep long */
	emu_engine_set_fallback(0, 1000000000L);
	emu = kfdsig_emu_create(&cfg);
	T_REQUIRE(emu, "emulator");
	kfd = t_open(emu);
	for (on = 0; n < PER_PROCESS && gi < NGPUS; n++, on++) {
		if (on == PER_GPU) {
			CHECK_EQ(kfdsig_kfd_queue_create(kfd, t_gpu(kfd, gi), KFDSIG_QUEUE_SDMA,
							 NULL, &q[n]),
				 -ENOSPC, "GPU %u: queue %d of the process", gi, PER_GPU + 1);
			gi++;
			on = 0;
		}
		if ((r = kfdsig_kfd_queue_create(kfd, t_gpu(kfd, gi), KFDSIG_QUEUE_PM4, &o, &q[n])))
			break;
	}
	CHECK(n == PER_PROCESS, "%d queues created of %d (then %d)", n, PER_PROCESS, r);
	if (n == PER_PROCESS)
		CHECK_EQ(kfdsig_kfd_queue_create(kfd, t_gpu(kfd, gi), KFDSIG_QUEUE_PM4, &o, &q[n]),
			 -ENOMEM, "queue %d of the process", PER_PROCESS + 1);
	while (n)
		kfdsig_kfd_queue_destroy(q[--n]);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	emu_engine_set_fallback(0, 0);
}

/* ---- refused packets ---------------------------------------------------- */

static void refused(void)
{
	struct drig r;
	enum kfdsig_wait_result res;
	uint32_t bad[16] = { 6 }; /* AQL header type 6: no such packet */
	uint32_t sdma_bad = 0xffu;
	bool woke;

	d_open(&r, "gfx90a");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	T_REQUIRE(!kfdsig_kfd_queue_create(r.rt, r.gpu, KFDSIG_QUEUE_AQL, NULL, &r.q), "AQL queue");
	T_REQUIRE(!kfdsig_kfd_queue_set_exception_event(r.q, r.mem->va, r.ev.id), "cwsr header");
	CHECK_EQ(kfdsig_kfd_queue_submit(r.q, bad, 16, D_WAIT_MS), 0, "submit");
	woke = t_wait1(r.rt, r.ev.id, NULL, D_WAIT_MS, &res) == 0 && res == KFDSIG_WAIT_COMPLETE;
	CHECK(woke, "AQL: a refused packet wakes the runtime's exception event");
	/* not woken: the packet was not refused, and the queue's stop would
	 * only be waited for until its bound */
	if (woke) {
		CHECK(d_payload(&r) & KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_UNSUPPORTED),
		      "AQL: EC_QUEUE_PACKET_UNSUPPORTED in the payload (0x%llx)",
		      (unsigned long long)d_payload(&r));
		CHECK(d_halted(&r), "AQL: the queue stopped");
	}
	d_close(&r);

	d_open(&r, "gfx90a");
	T_REQUIRE(!kfdsig_kfd_queue_create(r.rt, r.gpu, KFDSIG_QUEUE_SDMA, NULL, &r.q),
		  "SDMA queue");
	CHECK_EQ(kfdsig_kfd_queue_submit(r.q, &sdma_bad, 1, D_WAIT_MS), 0, "submit");
	CHECK(d_halted(&r), "SDMA: an unknown opcode stops the queue within %d ms", D_WAIT_MS);
	d_close(&r);
}

int main(void)
{
	cpu_set_t one;

	process_limit(); /* 1024 engines: not all on one CPU */
	/* the engine threads the queues start inherit it */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return 77;
	rptr_order("gfx90a", false);
	rptr_order("gfx90a", true);
	rptr_order("gfx1030", false);
	rptr_order("gfx803", false);
	/* a queue made inactive that still runs fails the first case: the
	 * others would each wait for their bounds */
	for (int how = 0; how < 3 && !t_failures; how++) {
		inactive("gfx90a", false, how);
		if (!t_failures)
			inactive("gfx90a", true, how);
	}
	if (!t_failures)
		inactive("gfx1030", false, 2);
	if (!t_failures)
		inactive("gfx803", true, 0);
	created_inactive(0);
	created_inactive(1);
	wave_state_checks();
	device_limit();
	sdma_limit();
	refused();
	return t_result("kfd_queue_fidelity");
}
