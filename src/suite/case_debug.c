/* SPDX-License-Identifier: MIT */
/*
 * Queue exceptions and the debugger interface (kfdsig/debug.h; KFD 1.13):
 * exc.* has a queue raise an exception that reaches the runtime as a KFD
 * event (kfd_process.c kfd_send_exception_to_runtime()) or the debugger
 * (kfd_debug.c kfd_dbg_ev_raise()); dbg.* checks the RUNTIME_ENABLE and
 * DBG_TRAP rules of kfd_chardev.c. Everything goes through the public API,
 * so the cases run on a GPU and on the emulated KFD; they skip where the
 * KFD or the GPU lacks the interface (KFD < 1.13, gfx8).
 *
 * The debugger is the case's own process (DBG_TRAP on its own pid needs no
 * ptrace: target == p in kfd_ioctl_set_debug_trap), except in dbg.ptrace,
 * which forks a target. On a GPU every open of /dev/kfd in a process is the
 * same KFD process, so a case leaves the runtime disabled and the debugger
 * detached.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "case.h"

#define BOUND_MS 1000 /* a delivered exception takes milliseconds */
#define MAX_GPUS 64
#define P3(op, n) ((3u << 30) | (((uint32_t)(n)&0x3fff) << 16) | ((uint32_t)(op) << 8))

struct dbg_rig {
	struct kfdsig_kfd_queue *q;
	const struct kfdsig_kfd_bo *mem; /* payload word at dword 0 */
	struct kfdsig_event ev;
	int pfd[2]; /* dbg_fd pipe: KFD writes "." to pfd[1] */
	bool rt, attached;
	uint32_t bound_ms; /* BOUND_MS or kfdsig test -T */
};

static enum suite_result need_debug(struct suite_ctx *c)
{
	if (!kfdsig_kfd_has(c->kfd, KFDSIG_KFD_FEAT_DEBUGGER))
		return suite_skip(c, "KFD %u.%u predates the debugger API (1.13)", c->d->kfd_major,
				  c->d->kfd_minor);
	if (kfdsig_dbg_supported(c->kfd, c->d->gpu_id) < 0)
		return suite_skip(c, "no debug support: %s", kfdsig_last_error());
	return SUITE_PASS;
}

static enum suite_result rig_open(struct suite_ctx *c, struct dbg_rig *r, bool runtime, bool queue)
{
	int e;

	memset(r, 0, sizeof(*r));
	r->pfd[0] = r->pfd[1] = -1;
	r->bound_ms = suite_bound_ms(c, BOUND_MS);
	if (need_debug(c) != SUITE_PASS)
		return SUITE_SKIP;
	if (pipe2(r->pfd, O_CLOEXEC | O_NONBLOCK))
		return suite_fail(c, "pipe: %s", strerror(errno));
	if (suite_event(c, true, &r->ev))
		return SUITE_FAIL;
	e = kfdsig_kfd_alloc(c->kfd, c->d->gpu_id, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &r->mem);
	if (!e)
		e = kfdsig_kfd_map(c->kfd, r->mem, NULL, 0);
	SUITE_CHECK(c, e == 0, "payload buffer: %s", kfdsig_last_error());
	memset(r->mem->cpu, 0, 4096);
	if (runtime) {
		e = kfdsig_kfd_runtime_enable(c->kfd, 0, 0, NULL);
		SUITE_CHECK(c, e == 0, "RUNTIME_ENABLE: %s", kfdsig_last_error());
		r->rt = true;
	}
	if (queue) {
		e = kfdsig_kfd_queue_create(c->kfd, c->d->gpu_id, KFDSIG_QUEUE_PM4, NULL, &r->q);
		SUITE_CHECK(c, e == 0, "CREATE_QUEUE: %s", kfdsig_last_error());
		e = kfdsig_kfd_queue_set_exception_event(r->q, r->mem->va, r->ev.id);
		SUITE_CHECK(c, e == 0, "CWSR header: %s", kfdsig_last_error());
	}
	return SUITE_PASS;
}

static void rig_close(struct suite_ctx *c, struct dbg_rig *r)
{
	if (r->attached)
		kfdsig_dbg_disable(c->kfd, getpid());
	if (r->q)
		kfdsig_kfd_queue_destroy(r->q);
	if (r->rt)
		kfdsig_kfd_runtime_disable(c->kfd);
	if (r->mem)
		kfdsig_kfd_free(c->kfd, r->mem);
	if (r->pfd[0] >= 0) {
		close(r->pfd[0]);
		close(r->pfd[1]);
	}
}

static enum suite_result attach(struct suite_ctx *c, struct dbg_rig *r, uint64_t mask)
{
	int e = kfdsig_dbg_enable(c->kfd, getpid(), mask, r->pfd[1], NULL);

	SUITE_CHECK(c, e == 0, "DBG_TRAP ENABLE on itself: %s", kfdsig_last_error());
	r->attached = true;
	return SUITE_PASS;
}

static bool notified(struct dbg_rig *r)
{
	struct pollfd p = { .fd = r->pfd[0], .events = POLLIN };
	char buf[64];

	return poll(&p, 1, (int)r->bound_ms) == 1 && read(r->pfd[0], buf, sizeof(buf)) > 0;
}

/* A PM4 type-1 header: no CP takes it (CP_BAD_OPCODE). */
static int bad_packet(struct dbg_rig *r)
{
	uint32_t bad = 0x40000000u;

	return kfdsig_kfd_queue_submit(r->q, &bad, 1, r->bound_ms);
}

/* ---- exc.* ----------------------------------------------------------------- */

static enum suite_result exc_bad_packet_event(struct suite_ctx *c)
{
	struct dbg_rig r;
	enum kfdsig_wait_result res;
	enum suite_result s;
	uint64_t pl;
	int e;

	if ((s = rig_open(c, &r, true, true)) != SUITE_PASS)
		goto out;
	e = bad_packet(&r);
	if (e) {
		s = suite_fail(c, "submit: %s", kfdsig_last_error());
		goto out;
	}
	e = suite_wait1(c, r.ev.id, NULL, r.bound_ms, &res);
	pl = __atomic_load_n((uint64_t *)r.mem->cpu, __ATOMIC_ACQUIRE);
	if (e || res != KFDSIG_WAIT_COMPLETE)
		s = suite_fail(c, "the CWSR header's err_event_id was not set within %u ms (%s)",
			       r.bound_ms, suite_wait_result_name(res));
	else if (!(pl & KFDSIG_EC_MASK_QUEUE))
		s = suite_fail(c, "the event woke WAIT_EVENTS but the payload word is 0x%llx",
			       (unsigned long long)pl);
	else if (c->d->emu && pl != KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_UNSUPPORTED))
		s = suite_fail(c, "payload 0x%llx, the emulated CP reports packet-unsupported",
			       (unsigned long long)pl);
	else {
		char buf[128];
		kfdsig_exc_mask_format(pl, buf, sizeof(buf));
		s = suite_note(c, "payload %s", buf);
	}
out:
	rig_close(c, &r);
	return s;
}

static enum suite_result exc_debugger(struct suite_ctx *c)
{
	struct dbg_rig r;
	struct kfdsig_dbg_event ev;
	enum suite_result s;
	uint64_t pl;
	int e;

	if ((s = rig_open(c, &r, true, true)) != SUITE_PASS ||
	    (s = attach(c, &r, KFDSIG_EC_MASK_QUEUE)) != SUITE_PASS)
		goto out;
	if (bad_packet(&r)) {
		s = suite_fail(c, "submit: %s", kfdsig_last_error());
		goto out;
	}
	if (!notified(&r)) {
		s = suite_fail(c, "no byte on dbg_fd within %u ms", r.bound_ms);
		goto out;
	}
	e = kfdsig_dbg_query_event(c->kfd, getpid(), 0, &ev);
	if (e || ev.source != KFDSIG_DBG_SOURCE_QUEUE ||
	    ev.queue_id != (uint32_t)kfdsig_kfd_queue_id(r.q) ||
	    !(ev.exceptions & KFDSIG_EC_MASK_QUEUE)) {
		s = suite_fail(c, "QUERY_DEBUG_EVENT: %d, queue %u (want %d), exceptions 0x%llx", e,
			       ev.queue_id, kfdsig_kfd_queue_id(r.q),
			       (unsigned long long)ev.exceptions);
		goto out;
	}
	e = kfdsig_dbg_query_event(c->kfd, getpid(), ev.exceptions, &ev);
	if (e == 0)
		e = kfdsig_dbg_query_event(c->kfd, getpid(), 0, &ev);
	if (e != -EAGAIN) {
		s = suite_fail(c, "a QUERY that clears left the exception pending (%d)", e);
		goto out;
	}
	pl = __atomic_load_n((uint64_t *)r.mem->cpu, __ATOMIC_ACQUIRE);
	s = pl ? suite_fail(c, "the debugger took the exception yet the runtime got 0x%llx",
			    (unsigned long long)pl)
	       : SUITE_PASS;
out:
	rig_close(c, &r);
	return s;
}

/* ---- dbg.* ----------------------------------------------------------------- */

static enum suite_result dbg_eexist(struct suite_ctx *c)
{
	struct dbg_rig r;
	enum suite_result s;
	int e;

	if ((s = rig_open(c, &r, false, true)) != SUITE_PASS)
		goto out;
	e = kfdsig_kfd_runtime_enable(c->kfd, 0, 0, NULL);
	if (e == 0)
		r.rt = true;
	s = e == -EEXIST
		    ? SUITE_PASS
		    : suite_fail(c, "RUNTIME_ENABLE with a queue gave %d, expected -EEXIST", e);
out:
	rig_close(c, &r);
	return s;
}

static enum suite_result dbg_hw_op_early(struct suite_ctx *c)
{
	struct dbg_rig r;
	enum suite_result s;
	uint32_t id = 0;
	int e;

	if ((s = rig_open(c, &r, false, false)) != SUITE_PASS ||
	    (s = attach(c, &r, 0)) != SUITE_PASS)
		goto out;
	e = kfdsig_dbg_suspend_queues(c->kfd, getpid(), 0, 0, &id, 1);
	if (e != -EPERM) {
		s = suite_fail(c, "SUSPEND_QUEUES before RUNTIME_ENABLE gave %d, expected -EPERM",
			       e);
		goto out;
	}
	e = kfdsig_dbg_set_wave_launch_mode(c->kfd, getpid(), KFDSIG_DBG_LAUNCH_NORMAL);
	s = e == -EPERM ? SUITE_PASS
			: suite_fail(c, "SET_WAVE_LAUNCH_MODE before RUNTIME_ENABLE gave %d", e);
out:
	rig_close(c, &r);
	return s;
}

/* A child process with a KFD process of its own (on the emulator: a
 * stand-in the case's own KFD process is lent to). */
static enum suite_result dbg_ptrace(struct suite_ctx *c)
{
	struct dbg_rig r;
	enum suite_result s;
	int sync[2] = { -1, -1 }, hold[2] = { -1, -1 }, st, e;
	struct kfdsig_kfd *dk = NULL;
	pid_t child = -1;
	char ch;

	if ((s = rig_open(c, &r, false, false)) != SUITE_PASS)
		goto out;
	if (pipe2(sync, O_CLOEXEC) || pipe2(hold, O_CLOEXEC)) {
		s = suite_fail(c, "pipe: %s", strerror(errno));
		goto out;
	}
	child = fork();
	if (child < 0) {
		s = suite_fail(c, "fork: %s", strerror(errno));
		goto out;
	}
	if (child == 0) {
		struct kfdsig_kfd *k = NULL;

		close(hold[1]);
		if (!c->d->emu && kfdsig_kfd_open(c->d->ops, &k))
			_exit(1);
		if (write(sync[1], "r", 1) != 1)
			_exit(1);
		while (read(hold[0], &ch, 1) > 0)
			;
		_exit(0);
	}
	close(hold[0]);
	hold[0] = -1;
	if (read(sync[0], &ch, 1) != 1) {
		s = suite_fail(c, "the child did not open KFD");
		goto out;
	}
	/* emulated: the case's KFD process stands for the child, and the
	 * debugger is another open (another emulated process) */
	if (c->d->emu &&
	    (kfdsig_emu_set_proc_pid(c->d->emu, kfdsig_emu_pasid(c->d->emu, kfdsig_kfd_fd(c->kfd)),
				     child) ||
	     kfdsig_kfd_open(c->d->ops, &dk))) {
		s = suite_fail(c, "stand-in: %s", kfdsig_last_error());
		goto out;
	}
	e = kfdsig_dbg_enable(dk ? dk : c->kfd, child, 0, r.pfd[1], NULL);
	if (e != -EPERM) {
		s = suite_fail(c, "ENABLE on an untraced child gave %d, expected -EPERM", e);
		if (e == 0)
			kfdsig_dbg_disable(dk ? dk : c->kfd, child);
		goto out;
	}
	if (ptrace(PTRACE_SEIZE, child, NULL, NULL)) {
		s = suite_note(c,
			       "EPERM as expected; PTRACE_SEIZE refused (%s), tracer half not run",
			       strerror(errno));
		goto out;
	}
	e = kfdsig_dbg_enable(dk ? dk : c->kfd, child, 0, r.pfd[1], NULL);
	if (e == 0)
		kfdsig_dbg_disable(dk ? dk : c->kfd, child);
	s = e == 0 ? SUITE_PASS
		   : suite_fail(c, "ENABLE by the tracer gave %d: %s", e, kfdsig_last_error());
out:
	if (dk)
		kfdsig_kfd_close(dk);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, &st, __WALL);
	}
	for (int i = 0; i < 2; i++) {
		if (sync[i] >= 0)
			close(sync[i]);
		if (hold[i] >= 0)
			close(hold[i]);
	}
	rig_close(c, &r);
	return s;
}

static volatile uint32_t *word(struct dbg_rig *r, size_t dw)
{
	return (volatile uint32_t *)r->mem->cpu + dw;
}

static bool word_is(struct dbg_rig *r, size_t dw, uint32_t v)
{
	for (int i = 0; i < (int)r->bound_ms * 10; i++) {
		if (__atomic_load_n(word(r, dw), __ATOMIC_ACQUIRE) == v)
			return true;
		usleep(100);
	}
	return false;
}

/* WRITE_DATA (PACKET3 0x37, dst_sel 5 memory, write confirm) of @v to
 * dword @dw of the rig's buffer: the same encoding on gfx9 to gfx12
 * (soc15d.h, nvd.h). */
static uint32_t write_data(struct dbg_rig *r, size_t dw, uint32_t v, uint32_t *d)
{
	uint64_t va = r->mem->va + 4 * dw;

	d[0] = P3(0x37, 3);
	d[1] = (5u << 8) | (1u << 20);
	d[2] = (uint32_t)va;
	d[3] = (uint32_t)(va >> 32);
	d[4] = v;
	return 5;
}

static enum suite_result dbg_suspend_resume(struct suite_ctx *c)
{
	struct dbg_rig r;
	enum suite_result s;
	uint32_t d[32], n = 0, ids[1];
	uint64_t gate;
	int e;

	if ((s = rig_open(c, &r, true, true)) != SUITE_PASS || (s = attach(c, &r, 0)) != SUITE_PASS)
		goto out;
	gate = r.mem->va + 4 * 8;
	n += write_data(&r, 16, 1, d + n);
	/* WAIT_REG_MEM (PACKET3 0x3C): memory, equal, word 8 == 1 */
	d[n++] = P3(0x3c, 5);
	d[n++] = 3 | (1u << 4);
	d[n++] = (uint32_t)gate;
	d[n++] = (uint32_t)(gate >> 32);
	d[n++] = 1;
	d[n++] = 0xffffffffu;
	d[n++] = 4;
	n += write_data(&r, 17, 2, d + n);
	n += write_data(&r, 18, 3, d + n);
	if (kfdsig_kfd_queue_submit(r.q, d, n, r.bound_ms) || !word_is(&r, 16, 1)) {
		s = suite_fail(c, "the first write did not run: %s", kfdsig_last_error());
		goto out;
	}
	ids[0] = (uint32_t)kfdsig_kfd_queue_id(r.q);
	e = kfdsig_dbg_suspend_queues(c->kfd, getpid(), 0, 0, ids, 1);
	if (e != 1 || ids[0] != (uint32_t)kfdsig_kfd_queue_id(r.q)) {
		s = suite_fail(c, "SUSPEND_QUEUES gave %d, id 0x%x", e, ids[0]);
		goto out;
	}
	__atomic_store_n(word(&r, 8), 1, __ATOMIC_RELEASE); /* open the gate */
	usleep(20000);
	if (*word(&r, 17) || *word(&r, 18)) {
		s = suite_fail(c, "the suspended queue ran on past its gate");
		goto out;
	}
	e = kfdsig_dbg_resume_queues(c->kfd, getpid(), ids, 1);
	if (e != 1) {
		s = suite_fail(c, "RESUME_QUEUES gave %d", e);
		goto out;
	}
	if (!word_is(&r, 17, 2) || !word_is(&r, 18, 3)) {
		s = suite_fail(c, "after the resume the writes did not all run (%u, %u)",
			       *word(&r, 17), *word(&r, 18));
		goto out;
	}
	s = SUITE_PASS;
out:
	rig_close(c, &r);
	return s;
}

static enum suite_result dbg_snapshots(struct suite_ctx *c)
{
	struct dbg_rig r;
	struct kfdsig_dbg_queue_entry qe[2];
	struct kfdsig_dbg_device_entry de[MAX_GPUS];
	enum suite_result s;
	uint32_t n = 2;
	int e;

	if ((s = rig_open(c, &r, true, true)) != SUITE_PASS || (s = attach(c, &r, 0)) != SUITE_PASS)
		goto out;
	e = kfdsig_dbg_queue_snapshot(c->kfd, getpid(), 0, qe, &n);
	if (e || n != 1 || qe[0].queue_id != (uint32_t)kfdsig_kfd_queue_id(r.q) ||
	    qe[0].gpu_id != c->d->gpu_id || qe[0].queue_type != 0 || qe[0].ring_size != 64 * 1024 ||
	    qe[0].ctx_save_restore_area_size != c->dev->cwsr_size || !qe[0].ring_base_address) {
		s = suite_fail(
			c, "queue snapshot: %d, %u queues, id %u gpu 0x%x type %u ring %u cwsr %u",
			e, n, qe[0].queue_id, qe[0].gpu_id, qe[0].queue_type, qe[0].ring_size,
			qe[0].ctx_save_restore_area_size);
		goto out;
	}
	n = MAX_GPUS;
	e = kfdsig_dbg_device_snapshot(c->kfd, getpid(), 0, de, &n);
	if (e || n != kfdsig_kfd_device_count(c->kfd) || n > MAX_GPUS) {
		s = suite_fail(c, "device snapshot: %d, %u devices", e, n);
		goto out;
	}
	s = SUITE_SKIP; /* not found yet */
	for (uint32_t i = 0; i < n && s == SUITE_SKIP; i++)
		if (de[i].gpu_id == c->d->gpu_id) {
			if (de[i].gfx_target_version != c->dev->gfx_target_version ||
			    de[i].capability != c->dev->capability ||
			    de[i].simd_count != c->dev->simd_count ||
			    de[i].location_id != c->dev->location_id)
				s = suite_fail(c,
					       "device snapshot of 0x%x: gfx %u cap 0x%x simd %u "
					       "location 0x%x; the topology has %u 0x%x %u 0x%x",
					       de[i].gpu_id, de[i].gfx_target_version,
					       de[i].capability, de[i].simd_count,
					       de[i].location_id, c->dev->gfx_target_version,
					       c->dev->capability, c->dev->simd_count,
					       c->dev->location_id);
			else
				s = SUITE_PASS;
		}
	if (s == SUITE_SKIP)
		s = suite_fail(c, "gpu 0x%x is not in the device snapshot", c->d->gpu_id);
out:
	rig_close(c, &r);
	return s;
}

static const struct suite_case cases[] = {
	{ "exc.bad-packet-event",
	  "a packet the CP refuses, on a runtime-enabled process, ORs its exception bit into the "
	  "word at the queue's CWSR header err_payload_addr and sets err_event_id, waking "
	  "WAIT_EVENTS within 1 s (kfd_send_exception_to_runtime)",
	  "needs KFD 1.13 and a SOC15 GPU (gfx8's interrupt handler has no exception path); the "
	  "exception code is the CP firmware's",
	  SUITE_ENGINE_NONE, SUITE_QUEUES, exc_bad_packet_event },
	{ "exc.debugger",
	  "with a debugger subscribed the exception goes to it instead: a byte on dbg_fd, "
	  "QUERY_DEBUG_EVENT names the queue, a clearing query leaves nothing (-EAGAIN), the "
	  "runtime's payload stays 0",
	  NULL, SUITE_ENGINE_NONE, SUITE_QUEUES, exc_debugger },
	{ "dbg.runtime-eexist",
	  "RUNTIME_ENABLE after a queue was created fails with EEXIST (runtime_enable)", NULL,
	  SUITE_ENGINE_NONE, 0, dbg_eexist },
	{ "dbg.hw-op-early",
	  "a hardware DBG_TRAP operation (suspend, launch mode) before RUNTIME_ENABLE fails with "
	  "EPERM (kfd_ioctl_set_debug_trap)",
	  "EPERM, as kfd_ioctl_set_debug_trap() in kfd_chardev.c answers (not EACCES)",
	  SUITE_ENGINE_NONE, 0, dbg_hw_op_early },
	{ "dbg.ptrace",
	  "DBG_TRAP ENABLE on a child the caller does not trace fails with EPERM; after "
	  "PTRACE_SEIZE it is accepted",
	  "on the emulated KFD the child is a stand-in for an emulated process "
	  "(kfdsig_emu_set_proc_pid)",
	  SUITE_ENGINE_NONE, 0, dbg_ptrace },
	{ "dbg.suspend-resume",
	  "SUSPEND_QUEUES stops a PM4 queue mid-ring (past an open gate nothing runs); "
	  "RESUME_QUEUES runs the rest, each write once",
	  NULL, SUITE_ENGINE_NONE, SUITE_QUEUES, dbg_suspend_resume },
	{ "dbg.snapshots",
	  "GET_QUEUE_SNAPSHOT lists the queue with its id, GPU, type, ring and context-save sizes; "
	  "GET_DEVICE_SNAPSHOT lists every GPU with the topology's values",
	  NULL, SUITE_ENGINE_NONE, SUITE_QUEUES, dbg_snapshots },
};

const struct suite_group suite_group_debug = { "debug", cases, sizeof(cases) / sizeof(cases[0]) };
