/* SPDX-License-Identifier: MIT */
/*
 * AMDKFD_IOC_DBG_TRAP on the emulated KFD through the library: the errno
 * contract of kfd_chardev.c kfd_ioctl_set_debug_trap() and kfd_debug.c
 * (ESRCH, EPERM for a caller that does not ptrace the target - a forked
 * child lent to the emulated process with kfdsig_emu_set_proc_pid() -,
 * accepted once the caller PTRACE_SEIZEs it, EINVAL before ENABLE, EPERM
 * for the hardware operations before runtime enable, EALREADY, EBADF,
 * ENODEV, EFAULT), suspend/resume (kfd_device_queue_manager.c
 * suspend_queues / resume_queues: a queue stopped mid-ring runs on with no
 * fence lost or doubled; a new queue is not suspended), the snapshots'
 * fields, address watch points, flags, wave launch override and mode.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "abi/kfd_ioctl.h"
#include "kfd_debug_util.h"

#define P3(op, n) ((3u << 30) | (((uint32_t)(n)&0x3fff) << 16) | ((uint32_t)(op) << 8))

static uint32_t qid(struct drig *r)
{
	return (uint32_t)kfdsig_kfd_queue_id(r->q);
}

/* ---- the ABI (kfd_ioctl.h 1.13 layouts, offsets written out by hand) ---- */

static void test_abi(void)
{
	CHECK_EQ(KFDSIG_AMDKFD_IOC_RUNTIME_ENABLE, 0xc0104b25u, "_IOWR('K', 0x25, 16 bytes)");
	CHECK_EQ(KFDSIG_AMDKFD_IOC_DBG_TRAP, 0xc0204b26u, "_IOWR('K', 0x26, 32 bytes)");
	CHECK_EQ(offsetof(abi_runtime_enable_args, mode_mask), 8, "mode_mask");
	CHECK_EQ(offsetof(abi_runtime_enable_args, capabilities_mask), 12, "capabilities_mask");
	CHECK_EQ(offsetof(abi_dbg_trap_args, op), 4, "op");
	CHECK_EQ(offsetof(abi_dbg_trap_args, enable.rinfo_ptr), 16, "rinfo_ptr");
	CHECK_EQ(offsetof(abi_dbg_trap_args, enable.dbg_fd), 28, "dbg_fd");
	CHECK_EQ(offsetof(abi_dbg_trap_args, suspend_queues.grace_period), 28, "grace_period");
	CHECK_EQ(offsetof(abi_dbg_trap_args, query_exception_info.exception_code), 24, "ec");
	CHECK_EQ(offsetof(abi_dbg_trap_args, query_exception_info.clear_exception), 28, "clear");
	CHECK_EQ(offsetof(abi_dbg_trap_args, set_node_address_watch.id), 28, "watch id");
	CHECK_EQ(offsetof(abi_dbg_trap_args, device_snapshot.entry_size), 28, "entry_size");
	CHECK_EQ(offsetof(abi_cwsr_header, err_payload_addr), 24, "err_payload_addr");
	CHECK_EQ(offsetof(abi_cwsr_header, err_event_id), 32, "err_event_id");
	CHECK_EQ(offsetof(struct kfdsig_dbg_queue_entry, queue_id), 40, "queue_id");
	CHECK_EQ(offsetof(struct kfdsig_dbg_queue_entry, ctx_save_restore_area_size), 56, "ctx");
	CHECK_EQ(sizeof(struct kfdsig_dbg_queue_entry), 64, "queue entry");
	CHECK_EQ(offsetof(struct kfdsig_dbg_device_entry, gpu_id), 56, "gpu_id");
	CHECK_EQ(offsetof(struct kfdsig_dbg_device_entry, capability), 112, "capability");
	CHECK_EQ(sizeof(struct kfdsig_dbg_device_entry), 120, "device entry");
	CHECK_EQ(sizeof(struct kfdsig_dbg_runtime_info), 16, "runtime info");
}

/* ---- who may debug whom ------------------------------------------------- */

static void test_ptrace(void)
{
	struct drig r;
	int pfd[2], st;
	pid_t child, gone;
	uint32_t ids[1] = { 0 };

	/* a reaped child's pid names no process */
	gone = fork();
	if (gone == 0)
		_exit(0);
	waitpid(gone, &st, 0);

	d_open(&r, "gfx90a");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, gone, 0, r.dbgfd, NULL), -ESRCH, "no such process");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, getppid(), 0, r.dbgfd, NULL), -ESRCH,
		 "a process without a KFD process");

	T_REQUIRE(pipe(pfd) == 0, "pipe");
	child = fork();
	T_REQUIRE(child >= 0, "fork");
	if (child == 0) {
		char c;
		close(pfd[1]);
		while (read(pfd[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(pfd[0]);
	/* the runtime's emulated KFD process stands for the child */
	CHECK_EQ(kfdsig_emu_set_proc_pid(r.emu, t_pasid(r.emu, r.rt), child), 0, "stand-in");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, child, 0, r.dbgfd, NULL), -EPERM,
		 "the caller does not trace the target: -EPERM");
	CHECK_EQ(kfdsig_dbg_disable(r.dbg, child), -EINVAL,
		 "DISABLE skips the ptrace check, then is refused before ENABLE");
	if (ptrace(PTRACE_SEIZE, child, NULL, NULL) != 0) {
		fprintf(stderr, "PTRACE_SEIZE refused (%s): tracer half not checked\n",
			strerror(errno));
	} else {
		CHECK_EQ(kfdsig_dbg_enable(r.dbg, child, 0, r.dbgfd, NULL), 0,
			 "the tracer is accepted: %s", kfdsig_last_error());
		CHECK_EQ(kfdsig_dbg_suspend_queues(r.dbg, child, 0, 0, ids, 1), -EPERM,
			 "a hardware op before runtime enable: -EPERM");
		CHECK_EQ(kfdsig_dbg_disable(r.dbg, child), 0, "detach");
		/* detaching needs the tracee stopped */
		ptrace(PTRACE_INTERRUPT, child, NULL, NULL);
		waitpid(child, &st, __WALL);
		CHECK(ptrace(PTRACE_DETACH, child, NULL, NULL) == 0, "detach: %s", strerror(errno));
		CHECK_EQ(kfdsig_dbg_enable(r.dbg, child, 0, r.dbgfd, NULL), -EPERM,
			 "no longer traced: -EPERM again");
	}
	close(pfd[1]);
	waitpid(child, &st, 0);
	d_close(&r);
}

/* ---- the rest of the errno contract ------------------------------------- */

static void test_errnos(void)
{
	struct drig r;
	struct kfdsig_dbg_event e;
	abi_dbg_trap_args a;
	uint32_t ids[1] = { 0 }, id = 0;
	int closed;

	d_open(&r, "gfx90a");
	CHECK_EQ(kfdsig_dbg_query_event(r.dbg, r.pid, 0, &e), -EINVAL, "QUERY before ENABLE");
	CHECK_EQ(kfdsig_dbg_disable(r.dbg, r.pid), -EINVAL, "DISABLE before ENABLE");
	closed = dup(r.dbgfd);
	close(closed);
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, closed, NULL), -EBADF, "a closed dbg_fd");
	/* EFAULT: the runtime info pointer */
	memset(&a, 0, sizeof(a));
	a.pid = (uint32_t)r.pid;
	a.op = KFDSIG_DBG_OP_ENABLE;
	a.enable.rinfo_ptr = 0x10;
	a.enable.rinfo_size = 16;
	a.enable.dbg_fd = (uint32_t)r.dbgfd;
	CHECK_EQ(kfdsig_kfd_ioctl(r.dbg, KFDSIG_AMDKFD_IOC_DBG_TRAP, &a), -EFAULT,
		 "an unwritable runtime info pointer");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, r.dbgfd, NULL), -EALREADY,
		 "the session stayed (kfd_dbg_trap_enable)");
	CHECK_EQ(kfdsig_dbg_suspend_queues(r.dbg, r.pid, 0, 0, ids, 1), -EPERM,
		 "SUSPEND before runtime enable");
	CHECK_EQ(kfdsig_dbg_set_wave_launch_mode(r.dbg, r.pid, KFDSIG_DBG_LAUNCH_HALT), -EPERM,
		 "launch mode before runtime enable");
	CHECK_EQ(kfdsig_dbg_set_address_watch(r.dbg, r.pid, r.gpu, 0x1000, 0xfff, 0, &id), -EPERM,
		 "watch before runtime enable");
	CHECK_EQ(kfdsig_dbg_disable(r.dbg, r.pid), 0, "detach");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, r.dbgfd, NULL), 0, "attach");
	CHECK_EQ(kfdsig_dbg_suspend_queues(r.dbg, r.pid, 0, 0, ids, 0), 0, "no queue to suspend");
	/* ENODEV: a gpu_id that is not the target's */
	memset(&a, 0, sizeof(a));
	a.pid = (uint32_t)r.pid;
	a.op = KFDSIG_DBG_OP_SET_NODE_ADDRESS_WATCH;
	a.set_node_address_watch.gpu_id = 0x1;
	CHECK_EQ(kfdsig_kfd_ioctl(r.dbg, KFDSIG_AMDKFD_IOC_DBG_TRAP, &a), -ENODEV, "bad gpu_id");
	/* EFAULT: the queue array */
	memset(&a, 0, sizeof(a));
	a.pid = (uint32_t)r.pid;
	a.op = KFDSIG_DBG_OP_SUSPEND_QUEUES;
	a.suspend_queues.queue_array_ptr = 0x10;
	a.suspend_queues.num_queues = 4;
	CHECK_EQ(kfdsig_kfd_ioctl(r.dbg, KFDSIG_AMDKFD_IOC_DBG_TRAP, &a), -EFAULT,
		 "an unreadable queue array");
	a.op = 99;
	CHECK_EQ(kfdsig_kfd_ioctl(r.dbg, KFDSIG_AMDKFD_IOC_DBG_TRAP, &a), -EINVAL, "unknown op");
	d_close(&r);
}

/* ---- suspend / resume ----------------------------------------------------- */

static uint32_t eop_irqs(struct drig *r)
{
	struct kfdsig_emu_irq_record rec[KFDSIG_EMU_IRQ_TRACE_LEN];
	int n = kfdsig_emu_irq_trace(r->emu, t_pasid(r->emu, r->rt), rec, KFDSIG_EMU_IRQ_TRACE_LEN);
	uint32_t k = 0;

	for (int i = 0; i < n; i++)
		k += rec[i].source == KFDSIG_EMU_IRQ_CP_EOP;
	return k;
}

/* The CP reports a packet read before it raises that packet's interrupt
 * (emu_engine_publish_fetched): an idle queue can still owe the last
 * fence's interrupt. Wait (bounded) for @want, then count once more. */
static uint32_t eop_irqs_reach(struct drig *r, uint32_t want)
{
	uint64_t t0 = t_now_ms();

	while (eop_irqs(r) < want && t_now_ms() - t0 <= T_WAKE_MAX_MS)
		usleep(50);
	return eop_irqs(r);
}

static uint32_t *word(struct drig *r, size_t dw)
{
	return (uint32_t *)r->mem->cpu + dw;
}

/* RELEASE_MEM (soc15d.h, gfx_v9_0_ring_emit_fence): 32-bit data @v to
 * scratch dword @dw, interrupt after the write with context id @ctx. */
static uint32_t fence(struct drig *r, size_t dw, uint32_t v, uint32_t ctx, uint32_t *d)
{
	uint64_t va = r->mem->va + 4 * dw;

	d[0] = P3(0x49, 6);
	d[1] = 0x14 | (5 << 8);
	d[2] = (1u << 29) | (2u << 24);
	d[3] = (uint32_t)va;
	d[4] = (uint32_t)(va >> 32);
	d[5] = v;
	d[6] = 0;
	d[7] = ctx;
	return 8;
}

static bool word_is(struct drig *r, size_t dw, uint32_t v)
{
	uint64_t t0 = t_now_ms();

	while (__atomic_load_n(word(r, dw), __ATOMIC_ACQUIRE) != v)
		if (t_now_ms() - t0 > T_WAKE_MAX_MS)
			return false;
		else
			usleep(50);
	return true;
}

/* SUSPEND_QUEUES of @n ids, the first of them the queue: exactly it
 * suspended, or the test ends here, as everything after depends on it (the
 * emulator reports a queue that did not stop within its bound with
 * KFD_DBG_QUEUE_ERROR_MASK, as a failed preemption is). */
static void suspended(struct drig *r, uint32_t *ids, uint32_t n, const char *what)
{
	int k = kfdsig_dbg_suspend_queues(r->dbg, r->pid, 0, 0, ids, n);

	CHECK_EQ(k, 1, "%s", what);
	if (k != 1) {
		fprintf(stderr, "%s: SUSPEND_QUEUES = %d, queue id 0x%x: the queue did not stop\n",
			what, k, ids[0]);
		exit(T_EXIT_FAIL);
	}
}

/* @nxcc: the XCCs of the node that each run the ring (a GC 9.4.3 SPX node:
 * 8, kfd_mqd_manager_v9.c init_mqd_v9_4_3()); the unpredicated fences
 * interrupt once per XCC, and a suspend stops the XCCs at a packet. */
static void test_suspend(const char *target, uint32_t nxcc)
{
	struct drig r;
	struct kfdsig_dbg_queue_entry qe[4];
	struct kfdsig_dbg_event e;
	uint32_t d[64], n = 0, ids[3], cnt;
	uint64_t gate = 0;
	struct kfdsig_kfd_queue *q2;

	d_open(&r, target);
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	d_queue(&r);
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, KFDSIG_EC_MASK_QUEUE, r.dbgfd, NULL), 0, "attach");
	gate = r.mem->va + 4 * 8;
	/* F1 (word 16 = 1), a WAIT_REG_MEM on word 8 == 1, F2, F3 */
	n += fence(&r, 16, 1, r.ev.id, d + n);
	d[n++] = P3(0x3c, 5);
	d[n++] = 3 | (1u << 4); /* equal, memory */
	d[n++] = (uint32_t)gate;
	d[n++] = (uint32_t)(gate >> 32);
	d[n++] = 1;
	d[n++] = 0xffffffffu;
	d[n++] = 4;
	n += fence(&r, 17, 2, r.ev.id, d + n);
	n += fence(&r, 18, 3, r.ev.id, d + n);
	CHECK_EQ(kfdsig_kfd_queue_submit(r.q, d, n, D_WAIT_MS), 0, "submit");
	CHECK(word_is(&r, 16, 1), "F1 ran");

	ids[0] = qid(&r);
	ids[1] = 17;
	suspended(&r, ids, 2, "one queue suspended");
	CHECK_EQ(ids[0], qid(&r), "the queue's id comes back clean");
	CHECK_EQ(ids[1], 17 | KFDSIG_DBG_QUEUE_INVALID, "no queue 17: INVALID");
	__atomic_store_n(word(&r, 8), 1, __ATOMIC_RELEASE); /* open the gate */
	usleep(20000);
	CHECK(*word(&r, 17) == 0 && *word(&r, 18) == 0, "suspended: F2 and F3 do not run");
	/* every XCC runs F1 before any reaches the WAIT_REG_MEM (lockstep) */
	CHECK_EQ(eop_irqs(&r), nxcc, "%s: F1's interrupts, one per XCC, so far", target);

	/* the snapshot while suspended */
	cnt = 0;
	CHECK_EQ(kfdsig_dbg_queue_snapshot(r.dbg, r.pid, 0, NULL, &cnt), 0, "count");
	CHECK_EQ(cnt, 1, "one queue");
	cnt = 4;
	memset(qe, 0xa5, sizeof(qe));
	CHECK_EQ(kfdsig_dbg_queue_snapshot(r.dbg, r.pid, 0, qe, &cnt), 0, "snapshot");
	CHECK_EQ(cnt, 1, "one queue");
	CHECK_EQ(qe[0].queue_id, qid(&r), "queue id");
	CHECK_EQ(qe[0].gpu_id, r.gpu, "gpu id");
	CHECK_EQ(qe[0].queue_type, 0, "KFD_IOC_QUEUE_TYPE_COMPUTE");
	CHECK_EQ(qe[0].ring_size, 64 * 1024, "the default ring");
	CHECK_EQ(qe[0].ctx_save_restore_area_size, kfdsig_kfd_device(r.rt, 0)->cwsr_size,
		 "the context save size the library passed");
	CHECK(qe[0].ring_base_address && !(qe[0].ring_base_address & 4095) &&
		      qe[0].read_pointer_address && qe[0].write_pointer_address &&
		      qe[0].ctx_save_restore_address,
	      "addresses");
	CHECK_EQ(qe[0].exception_status, 0, "no exception");
	CHECK_EQ(qe[1].queue_id, 0xa5a5a5a5u, "nothing written past the queues");

	CHECK_EQ(kfdsig_dbg_resume_queues(r.dbg, r.pid, ids, 1), 1, "resumed");
	CHECK(word_is(&r, 17, 2) && word_is(&r, 18, 3), "F2 and F3 ran after the resume");
	CHECK_EQ(kfdsig_kfd_queue_wait_idle(r.q, D_WAIT_MS), 0, "idle");
	CHECK_EQ(eop_irqs_reach(&r, 3 * nxcc), 3 * nxcc,
		 "%s: three fences, three interrupts per XCC: none lost or doubled", target);

	/* a queue created under the debugger is new until the debugger
	 * clears EC_QUEUE_NEW: suspend skips it */
	T_REQUIRE(!kfdsig_kfd_queue_create(r.rt, r.gpu, KFDSIG_QUEUE_PM4, NULL, &q2), "queue 2");
	CHECK(d_notified(&r), "EC_QUEUE_NEW");
	ids[0] = (uint32_t)kfdsig_kfd_queue_id(q2);
	CHECK_EQ(kfdsig_dbg_suspend_queues(r.dbg, r.pid, 0, 0, ids, 1), 0, "new: not suspended");
	CHECK(ids[0] & KFDSIG_DBG_QUEUE_INVALID, "left INVALID");
	CHECK(!kfdsig_dbg_query_event(r.dbg, r.pid, KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_NEW), &e) &&
		      e.queue_id == (uint32_t)kfdsig_kfd_queue_id(q2),
	      "query the new queue, clearing NEW");
	ids[0] = (uint32_t)kfdsig_kfd_queue_id(q2);
	CHECK_EQ(kfdsig_dbg_suspend_queues(r.dbg, r.pid, 0, 0, ids, 1), 1, "now it suspends");
	ids[0] = (uint32_t)kfdsig_kfd_queue_id(q2);
	CHECK_EQ(kfdsig_dbg_suspend_queues(r.dbg, r.pid, 0, 0, ids, 1), 1,
		 "suspending a suspended queue counts");
	/* DISABLE resumes every queue (kfd_dbg_trap_deactivate) */
	CHECK_EQ(kfdsig_dbg_disable(r.dbg, r.pid), 0, "detach");
	n = fence(&r, 20, 7, r.ev.id, d);
	CHECK_EQ(kfdsig_kfd_queue_submit(q2, d, n, D_WAIT_MS), 0, "submit to queue 2");
	CHECK(word_is(&r, 20, 7), "detaching resumed queue 2");
	kfdsig_kfd_queue_destroy(q2);
	d_close(&r);
}

/* A poll the suspend interrupted runs again at resume: with the gate still
 * closed at resume, the fence behind it waits for the gate (on every XCC). */
static void test_suspend_poll_again(const char *target, uint32_t nxcc)
{
	struct drig r;
	uint32_t d[64], n = 0, ids[1];
	uint64_t gate;

	d_open(&r, target);
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	d_queue(&r);
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, KFDSIG_EC_MASK_QUEUE, r.dbgfd, NULL), 0, "attach");
	gate = r.mem->va + 4 * 8;
	n += fence(&r, 16, 1, r.ev.id, d + n);
	d[n++] = P3(0x3c, 5); /* WAIT_REG_MEM word 8 == 1 */
	d[n++] = 3 | (1u << 4);
	d[n++] = (uint32_t)gate;
	d[n++] = (uint32_t)(gate >> 32);
	d[n++] = 1;
	d[n++] = 0xffffffffu;
	d[n++] = 4;
	n += fence(&r, 17, 2, r.ev.id, d + n);
	CHECK_EQ(kfdsig_kfd_queue_submit(r.q, d, n, D_WAIT_MS), 0, "submit");
	CHECK(word_is(&r, 16, 1), "F1 ran");
	ids[0] = qid(&r);
	suspended(&r, ids, 1, "suspended in the poll");
	ids[0] = qid(&r);
	CHECK_EQ(kfdsig_dbg_resume_queues(r.dbg, r.pid, ids, 1), 1, "resumed, gate closed");
	usleep(20000);
	CHECK(*word(&r, 17) == 0, "%s: the poll runs again: F2 waits for the gate", target);
	__atomic_store_n(word(&r, 8), 1, __ATOMIC_RELEASE);
	CHECK(word_is(&r, 17, 2), "%s: F2 after the gate", target);
	CHECK_EQ(kfdsig_kfd_queue_wait_idle(r.q, D_WAIT_MS), 0, "idle");
	CHECK_EQ(eop_irqs_reach(&r, 2 * nxcc), 2 * nxcc, "%s: two fences per XCC", target);
	d_close(&r);
}

/* ---- device snapshot, watch points, flags, launch ------------------------ */

static void test_device_ops(void)
{
	struct drig r;
	struct kfdsig_dbg_device_entry de[3];
	const struct kfdsig_kfd_device *dev;
	uint32_t cnt = 0, id[5], fl, en, sup;

	d_open(&r, "gfx90a,gfx1030");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, r.dbgfd, NULL), 0, "attach");
	CHECK_EQ(kfdsig_dbg_device_snapshot(r.dbg, r.pid, 0, NULL, &cnt), 0, "count");
	CHECK_EQ(cnt, 2, "two GPUs");
	cnt = 1;
	memset(de, 0xa5, sizeof(de));
	CHECK_EQ(kfdsig_dbg_device_snapshot(r.dbg, r.pid, 0, de, &cnt), 0, "one entry of room");
	CHECK_EQ(cnt, 2, "still two GPUs");
	CHECK_EQ(de[1].gpu_id, 0xa5a5a5a5u, "only one written");
	cnt = 3;
	CHECK_EQ(kfdsig_dbg_device_snapshot(r.dbg, r.pid, 0, de, &cnt), 0, "snapshot");
	for (uint32_t i = 0; i < 2; i++) {
		dev = kfdsig_kfd_device(r.rt, i);
		CHECK_EQ(de[i].gpu_id, dev->gpu_id, "gpu_id %u", i);
		CHECK_EQ(de[i].gfx_target_version, dev->gfx_target_version, "gfx version %u", i);
		CHECK_EQ(de[i].capability, dev->capability, "the topology's capability %u", i);
		CHECK_EQ(de[i].simd_count, dev->simd_count, "simd_count %u", i);
		CHECK_EQ(de[i].max_waves_per_simd, dev->max_waves_per_simd, "waves %u", i);
		CHECK_EQ(de[i].array_count, dev->array_count, "arrays %u", i);
		CHECK_EQ(de[i].location_id, dev->location_id, "location %u", i);
		CHECK_EQ(de[i].device_id, dev->device_id, "device id %u", i);
		CHECK_EQ(de[i].vendor_id, 0x1002, "AMD");
		CHECK_EQ(de[i].fw_version, dev->fw_version, "MEC firmware %u", i);
		CHECK_EQ(de[i].num_xcc, dev->num_xcc ? dev->num_xcc : 1, "XCCs %u", i);
		CHECK(de[i].gpuvm_limit > de[i].gpuvm_base && de[i].lds_limit > de[i].lds_base,
		      "apertures %u", i);
	}

	/* four watch points per GPU (MAX_WATCH_ADDRESSES) */
	for (int i = 0; i < 4; i++)
		CHECK_EQ(kfdsig_dbg_set_address_watch(r.dbg, r.pid, r.gpu, 0x10000, 0xffff,
						      KFDSIG_DBG_WATCH_ALL, &id[i]),
			 0, "watch %d", i);
	CHECK(id[0] == 0 && id[1] == 1 && id[2] == 2 && id[3] == 3, "ids 0-3");
	CHECK_EQ(kfdsig_dbg_set_address_watch(r.dbg, r.pid, r.gpu, 0, 0, 0, &id[4]), -ENOMEM,
		 "a fifth");
	CHECK_EQ(kfdsig_dbg_clear_address_watch(r.dbg, r.pid, r.gpu, 2), 0, "clear 2");
	CHECK_EQ(kfdsig_dbg_clear_address_watch(r.dbg, r.pid, r.gpu, 2), -EINVAL, "clear 2 again");
	CHECK(!kfdsig_dbg_set_address_watch(r.dbg, r.pid, r.gpu, 0, 0, 0, &id[4]) && id[4] == 2,
	      "2 is free again");

	/* SINGLE_MEM_OP needs precise memory operations on every GPU: the
	 * gfx1030 has none (kfd_topology_set_capabilities) */
	fl = KFDSIG_DBG_FLAG_SINGLE_MEM_OP;
	CHECK_EQ(kfdsig_dbg_set_flags(r.dbg, r.pid, &fl), -EACCES, "gfx1030 lacks precise ops");
	fl = 0;
	CHECK(!kfdsig_dbg_set_flags(r.dbg, r.pid, &fl) && fl == 0, "no flags, previous 0");

	/* the traps and modes every GPU takes (kfd_dbg_validate_trap_override_
	 * request()): the gfx1030 (kgd_gfx_v10_...) supports the address
	 * watch alone and OR alone; the gfx90a (kgd_aldebaran_...) is asked
	 * first, so an unknown mode is its -EPERM */
	/* on an error the kernel copies the arguments back (kfd_chardev.c
	 * kfd_ioctl()): the supported traps as far as the GPUs were asked
	 * (each validate_trap_override_request() narrows the mask before it
	 * checks the mode), the enable mask as it went in */
	en = KFDSIG_DBG_TRAP_MASK_FP_INVALID;
	sup = KFDSIG_DBG_TRAP_MASK_FP_INVALID;
	CHECK_EQ(kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, KFDSIG_DBG_OVERRIDE_OR, &en,
						     &sup),
		 -EACCES, "gfx90a+gfx1030: no FP trap");
	CHECK(sup == KFDSIG_DBG_TRAP_MASK_DBG_ADDRESS_WATCH &&
		      en == KFDSIG_DBG_TRAP_MASK_FP_INVALID,
	      "-EACCES: supported the address watch (%#x), enable mask kept (%#x)", sup, en);
	en = sup = KFDSIG_DBG_TRAP_MASK_DBG_ADDRESS_WATCH | KFDSIG_DBG_TRAP_MASK_FP_INEXACT;
	CHECK_EQ(kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, KFDSIG_DBG_OVERRIDE_REPLACE, &en,
						     &sup),
		 -EINVAL, "gfx1030: OR only");
	CHECK(sup == KFDSIG_DBG_TRAP_MASK_DBG_ADDRESS_WATCH &&
		      en == (KFDSIG_DBG_TRAP_MASK_DBG_ADDRESS_WATCH |
			     KFDSIG_DBG_TRAP_MASK_FP_INEXACT),
	      "-EINVAL: both GPUs narrowed the supported mask (%#x), enable mask kept (%#x)", sup,
	      en);
	en = sup = KFDSIG_DBG_TRAP_MASK_DBG_ADDRESS_WATCH;
	CHECK_EQ(kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, 2, &en, &sup), -EPERM,
		 "gfx90a first: mode 2");
	CHECK_EQ(sup, 0x1ffu, "-EPERM: the gfx90a alone narrowed the supported mask");
	en = sup = KFDSIG_DBG_TRAP_MASK_DBG_ADDRESS_WATCH;
	CHECK(!kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, KFDSIG_DBG_OVERRIDE_OR, &en,
						   &sup) &&
		      en == 0 && sup == KFDSIG_DBG_TRAP_MASK_DBG_ADDRESS_WATCH,
	      "OR the address watch: previous none (%#x), supported %#x", en, sup);
	CHECK_EQ(kfdsig_dbg_set_wave_launch_mode(r.dbg, r.pid, 2), -EINVAL, "mode 2 was removed");
	CHECK_EQ(kfdsig_dbg_set_wave_launch_mode(r.dbg, r.pid, KFDSIG_DBG_LAUNCH_HALT), 0, "HALT");
	CHECK_EQ(kfdsig_dbg_set_wave_launch_mode(r.dbg, r.pid, KFDSIG_DBG_LAUNCH_NORMAL), 0,
		 "NORMAL");
	d_close(&r);

	d_open(&r, "gfx90a");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, r.dbgfd, NULL), 0, "attach");
	fl = KFDSIG_DBG_FLAG_SINGLE_MEM_OP;
	CHECK(!kfdsig_dbg_set_flags(r.dbg, r.pid, &fl) && fl == 0, "gfx90a: precise, previous 0");
	fl = 0;
	CHECK(!kfdsig_dbg_set_flags(r.dbg, r.pid, &fl) && fl == KFDSIG_DBG_FLAG_SINGLE_MEM_OP,
	      "previous SINGLE_MEM_OP");
	/* the new mask is (bits & request) | (previous & ~request)
	 * (kgd_aldebaran_set_wave_launch_trap_override()) */
	en = KFDSIG_DBG_TRAP_MASK_FP_INVALID;
	sup = KFDSIG_DBG_TRAP_MASK_FP_INVALID | KFDSIG_DBG_TRAP_MASK_FP_OVERFLOW;
	CHECK(!kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, KFDSIG_DBG_OVERRIDE_OR, &en,
						   &sup) &&
		      en == 0,
	      "FP_INVALID on, FP_OVERFLOW off: previous none");
	en = sup = KFDSIG_DBG_TRAP_MASK_FP_OVERFLOW;
	CHECK(!kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, KFDSIG_DBG_OVERRIDE_REPLACE, &en,
						   &sup) &&
		      en == KFDSIG_DBG_TRAP_MASK_FP_INVALID,
	      "REPLACE mode: previous FP_INVALID");
	en = sup = 0;
	CHECK(!kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, KFDSIG_DBG_OVERRIDE_OR, &en,
						   &sup) &&
		      en == (KFDSIG_DBG_TRAP_MASK_FP_INVALID | KFDSIG_DBG_TRAP_MASK_FP_OVERFLOW) &&
		      sup == 0x1ffu,
	      "an empty request keeps both (%#x), supported %#x", en, sup);
	en = 0;
	sup = KFDSIG_DBG_TRAP_MASK_FP_INVALID;
	CHECK(!kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, KFDSIG_DBG_OVERRIDE_OR, &en, &sup),
	      "FP_INVALID off");
	en = sup = 0;
	CHECK(!kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, KFDSIG_DBG_OVERRIDE_OR, &en,
						   &sup) &&
		      en == KFDSIG_DBG_TRAP_MASK_FP_OVERFLOW,
	      "a requested bit of 0 turns its trap off (%#x)", en);
	d_close(&r);

	/* wave start and end traps: GC 9.4.3, GC 11.0.4 on, GC 12 */
	for (unsigned i = 0; i < 4; i++) {
		static const struct {
			const char *spec;
			uint32_t sup;
		} t[] = { { "gfx90a", 0x1ffu },
			  { "gfx942", 0xc00001ffu },
			  { "gfx1100", 0x1ffu },
			  { "gfx1201", 0xc00001ffu } };

		d_open(&r, t[i].spec);
		CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
		CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, r.dbgfd, NULL), 0, "attach");
		en = sup = 0;
		CHECK(!kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, KFDSIG_DBG_OVERRIDE_OR,
							   &en, &sup) &&
			      sup == t[i].sup,
		      "%s supports %#x (%#x)", t[i].spec, t[i].sup, sup);
		en = sup = KFDSIG_DBG_TRAP_MASK_TRAP_ON_WAVE_START;
		CHECK_EQ(kfdsig_dbg_set_wave_launch_override(r.dbg, r.pid, KFDSIG_DBG_OVERRIDE_OR,
							     &en, &sup),
			 t[i].sup >> 31 ? 0 : -EACCES, "%s: wave start trap", t[i].spec);
		d_close(&r);
	}
}

/* SET_WAVE_LAUNCH_MODE HALT: a dispatched wave does not start until the
 * mode goes back to NORMAL (the shader stub's signal is the witness). */
static void test_launch_halt(void)
{
	struct drig r;
	const struct kfdsig_target *t;
	const struct kfdsig_kfd_bo *code = NULL;
	struct kfdsig_shader_stub s;
	enum kfdsig_wait_result res;
	uint32_t d[KFDSIG_PM4_DISPATCH_MAX_DW];
	uint64_t page_va = 0;
	int n;

	d_open(&r, "gfx90a");
	t = kfdsig_kfd_device(r.rt, 0)->target;
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	d_queue(&r);
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, r.dbgfd, NULL), 0, "attach");
	T_REQUIRE(!kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &s), "stub");
	T_REQUIRE(!kfdsig_kfd_signal_page(r.rt, NULL, &page_va), "page");
	T_REQUIRE(
		!kfdsig_kfd_alloc(r.rt, r.gpu, s.size + 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &code) &&
			!kfdsig_kfd_map(r.rt, code, NULL, 0),
		"code");
	KFDSIG_OPTS(kfdsig_code_buf, cb, .cpu = code->cpu, .va = code->va, .size = code->size,
		    .form = KFDSIG_SHADER_RAW);
	struct kfdsig_fence f = { .slot_va = page_va + 8ull * r.ev.id, .event_id = r.ev.id };
	CHECK_EQ(kfdsig_dbg_set_wave_launch_mode(r.dbg, r.pid, KFDSIG_DBG_LAUNCH_HALT), 0, "HALT");
	n = kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &f, &cb, d, KFDSIG_PM4_DISPATCH_MAX_DW);
	T_REQUIRE(n > 0, "dispatch: %s", kfdsig_last_error());
	CHECK_EQ(kfdsig_kfd_queue_submit(r.q, d, (uint32_t)n, D_WAIT_MS), 0, "submit");
	CHECK(t_wait1(r.rt, r.ev.id, NULL, 50, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "HALT: the wave did not start");
	CHECK_EQ(kfdsig_dbg_set_wave_launch_mode(r.dbg, r.pid, KFDSIG_DBG_LAUNCH_NORMAL), 0,
		 "NORMAL");
	CHECK(t_wait1(r.rt, r.ev.id, NULL, D_WAIT_MS, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "NORMAL: the wave ran and signalled");
	d_close(&r);
}

int main(void)
{
	test_abi();
	test_ptrace();
	test_errnos();
	test_suspend("gfx90a", 1);
	test_suspend("gfx942", 8);
	test_suspend_poll_again("gfx90a", 1);
	test_suspend_poll_again("gfx942", 8);
	test_device_ops();
	test_launch_halt();
	return t_result("kfd_debug_trap");
}
