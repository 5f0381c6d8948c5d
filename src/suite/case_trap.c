/* SPDX-License-Identifier: MIT */
/*
 * dbg.trap: a wave's s_trap reaches the debugger. The case's process
 * calls RUNTIME_ENABLE (the kernel activates the debug trap, and with it
 * the trap handler's DebugEnabled flag, only for a runtime-enabled
 * process: kfd_debug.c kfd_dbg_trap_enable()), then
 * enables the debugger interface on itself (DBG_TRAP ENABLE with its own
 * pid: kfd_chardev.c kfd_ioctl_set_debug_trap() asks for the ptrace relation
 * only of another process) with a pipe as dbg_fd, dispatches kfdsig's trap
 * stub (s_trap 3, llvm.debugtrap) on a PM4 queue and expects a byte on
 * dbg_fd within WAIT_MS, then QUERY_DEBUG_EVENT naming that queue and GPU
 * with EC_QUEUE_WAVE_TRAP, which the query clears (kfd_debug.c
 * kfd_set_dbg_ev_from_interrupt(), kfd_dbg_ev_query_debug_event()).
 *
 * On hardware the s_trap becomes EC_QUEUE_WAVE_TRAP only through a
 * runtime's second-level trap handler (ROCr runtime/trap_handler/
 * trap_handler.s; without one the kernel's CWSR handler steps over it,
 * cwsr_trap_handler_gfx9.asm L_NO_NEXT_TRAP), which the suite does not
 * install: the case runs on the emulated KFD and skips on hardware.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include <kfdsig/debug.h>

#include "case.h"

#define WAIT_MS 5000

/* Wait for dbg_fd, then query until an event carries @want (others, as
 * EC_QUEUE_NEW, are cleared and passed over). */
static int wait_exception(struct suite_ctx *c, int fd, uint64_t want, struct kfdsig_dbg_event *ev)
{
	uint64_t end = suite_now_ns() + suite_bound_ms(c, WAIT_MS) * 1000000ull;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[64];
	int r;

	for (;;) {
		r = kfdsig_dbg_query_event(c->kfd, getpid(), ~0ull, ev);
		if (r == 0 && (ev->exceptions & want))
			return 0;
		if (r < 0 && r != -EAGAIN)
			return r;
		if (r == 0)
			continue;
		if (suite_now_ns() >= end)
			return -ETIMEDOUT;
		if (poll(&p, 1, 100) > 0)
			while (read(fd, buf, sizeof(buf)) > 0)
				;
	}
}

static enum suite_result dbg_trap(struct suite_ctx *c)
{
	const uint64_t trap = KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_WAVE_TRAP);
	struct kfdsig_shader_stub s;
	struct kfdsig_kfd_queue *q = NULL;
	const struct kfdsig_kfd_bo *code = NULL;
	struct kfdsig_dbg_event ev = { 0 };
	enum suite_result res = SUITE_PASS;
	uint32_t d[KFDSIG_PM4_DISPATCH_MAX_DW];
	int pfd[2], n, r, qid;

	if (!c->d->emu)
		return suite_skip(c, "on hardware the s_trap reaches KFD only through a runtime's "
				     "second-level trap handler, which the suite does not install");
	if (!c->t || kfdsig_shader_stub(c->t, KFDSIG_SHADER_RAW | KFDSIG_SHADER_TRAP, &s))
		return suite_skip(c, "no trap stub for this GPU");
	r = kfdsig_dbg_supported(c->kfd, c->dev->gpu_id);
	if (r == -ENOTSUP)
		return suite_skip(c, "no debugger interface: %s", kfdsig_last_error());
	if (pipe2(pfd, O_CLOEXEC | O_NONBLOCK))
		return suite_fail(c, "pipe: %s", strerror(errno));
	r = kfdsig_kfd_runtime_enable(c->kfd, 0, 0, NULL);
	if (r) {
		res = suite_fail(c, "RUNTIME_ENABLE: %s", kfdsig_last_error());
		goto out_pipe;
	}
	r = kfdsig_dbg_enable(c->kfd, getpid(), KFDSIG_EC_MASK_QUEUE, pfd[1], NULL);
	if (r) {
		res = suite_fail(c, "DBG_TRAP ENABLE on itself: %s", kfdsig_last_error());
		goto out_rt;
	}
	if (kfdsig_kfd_alloc(c->kfd, c->dev->gpu_id, s.size, KFDSIG_KFD_MEM_GTT_UNCACHED, &code) ||
	    kfdsig_kfd_map(c->kfd, code, NULL, 0) ||
	    kfdsig_kfd_queue_create(c->kfd, c->dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &q)) {
		res = suite_fail(c, "queue: %s", kfdsig_last_error());
		goto out_dbg;
	}
	qid = kfdsig_kfd_queue_id(q);
	memcpy(code->cpu, s.bytes, s.size);
	n = kfdsig_pm4_emit_dispatch(&s, code->va, 0, d, KFDSIG_PM4_DISPATCH_MAX_DW);
	if (n < 0 || kfdsig_kfd_queue_submit(q, d, (uint32_t)n, suite_bound_ms(c, WAIT_MS))) {
		res = suite_fail(c, "dispatch: %s", kfdsig_last_error());
		goto out_queue;
	}
	r = wait_exception(c, pfd[0], trap, &ev);
	if (r) {
		res = suite_fail(c, "no EC_QUEUE_WAVE_TRAP from the s_trap within %u ms: %s",
				 suite_bound_ms(c, WAIT_MS),
				 r == -ETIMEDOUT ? "dbg_fd stayed silent" : strerror(-r));
		goto out_queue;
	}
	if (ev.source != KFDSIG_DBG_SOURCE_QUEUE || ev.queue_id != (uint32_t)qid ||
	    ev.gpu_id != c->dev->gpu_id) {
		res = suite_fail(
			c, "the trap names source %u queue %u gpu 0x%x, not queue %d gpu 0x%x",
			ev.source, ev.queue_id, ev.gpu_id, qid, c->dev->gpu_id);
		goto out_queue;
	}
	r = kfdsig_dbg_query_event(c->kfd, getpid(), ~0ull, &ev);
	if (r != -EAGAIN)
		res = suite_fail(c,
				 "QUERY_DEBUG_EVENT after clearing: %d, exceptions 0x%llx (want "
				 "-EAGAIN)",
				 r, (unsigned long long)ev.exceptions);
out_queue:
	kfdsig_kfd_queue_destroy(q);
out_dbg:
	kfdsig_dbg_disable(c->kfd, getpid());
out_rt:
	kfdsig_kfd_runtime_disable(c->kfd);
out_pipe:
	close(pfd[0]);
	close(pfd[1]);
	return res;
}

static const struct suite_case cases[] = {
	{ "dbg.trap",
	  "a wave's s_trap (kfdsig's trap stub) under a debugger: a byte on dbg_fd, then "
	  "QUERY_DEBUG_EVENT names the queue and GPU with EC_QUEUE_WAVE_TRAP and clears it",
	  "emulated KFD only: on hardware the trap reaches KFD through a runtime's "
	  "second-level trap handler",
	  SUITE_ENGINE_NONE, SUITE_QUEUES, dbg_trap },
};

const struct suite_group suite_group_trap = { "trap", cases, sizeof(cases) / sizeof(cases[0]) };
