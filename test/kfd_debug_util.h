/* SPDX-License-Identifier: MIT */
/* Shared setup of the debugger tests (kfd_debug_*.c): an emulated KFD with
 * a runtime process and a debugger process (two opens of the emulated
 * /dev/kfd in this process, so the runtime is the debugger's own pid and
 * needs no ptrace), a PM4 queue whose context save area names a payload
 * word and a signal event, bad packets, and bounded waits on dbg_fd. */
#ifndef KFDSIG_TEST_KFD_DEBUG_UTIL_H
#define KFDSIG_TEST_KFD_DEBUG_UTIL_H

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <kfdsig/debug.h>

#include "kfd_util.h"

#define D_WAIT_MS 5000

struct drig {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *rt;	/* the runtime process */
	struct kfdsig_kfd *dbg; /* the debugger process */
	uint32_t gpu;
	const struct kfdsig_kfd_bo *mem; /* payload word at dword 0, scratch after */
	struct kfdsig_event ev;		 /* the runtime's exception event */
	struct kfdsig_kfd_queue *q;
	int efd;   /* read end of the debugger's pipe */
	int dbgfd; /* its write end: the dbg_fd KFD writes a byte to */
	pid_t pid;
};

static inline void d_open(struct drig *r, const char *spec)
{
	memset(r, 0, sizeof(*r));
	r->emu = t_emu(spec);
	r->rt = t_open(r->emu);
	r->dbg = t_open(r->emu);
	r->gpu = t_gpu(r->rt, 0);
	r->pid = getpid();
	/* a pipe, as ROCdbgapi passes: KFD writes single bytes (kernel_write
	 * of "."), which an eventfd would refuse */
	{
		int p[2];
		T_REQUIRE(pipe2(p, O_CLOEXEC | O_NONBLOCK) == 0, "pipe");
		r->efd = p[0];
		r->dbgfd = p[1];
	}
	r->ev = t_event(r->rt, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(!kfdsig_kfd_alloc(r->rt, r->gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &r->mem) &&
			  !kfdsig_kfd_map(r->rt, r->mem, NULL, 0),
		  "payload buffer");
	memset(r->mem->cpu, 0, 4096);
}

/* The runtime's PM4 queue, its CWSR header pointing at the payload word
 * and the event. */
static inline void d_queue(struct drig *r)
{
	T_REQUIRE(!kfdsig_kfd_queue_create(r->rt, r->gpu, KFDSIG_QUEUE_PM4, NULL, &r->q), "queue");
	T_REQUIRE(!kfdsig_kfd_queue_set_exception_event(r->q, r->mem->va, r->ev.id), "cwsr header");
}

static inline void d_close(struct drig *r)
{
	if (r->q)
		kfdsig_kfd_queue_destroy(r->q);
	kfdsig_kfd_close(r->dbg);
	kfdsig_kfd_close(r->rt);
	kfdsig_emu_destroy(r->emu);
	close(r->efd);
	close(r->dbgfd);
}

static inline uint64_t d_payload(const struct drig *r)
{
	return __atomic_load_n((uint64_t *)r->mem->cpu, __ATOMIC_ACQUIRE);
}

/* A type-1 PM4 header: no engine takes it (CP_BAD_OPCODE). */
static inline void d_bad_packet(struct drig *r)
{
	uint32_t bad = 0x40000000u;

	T_REQUIRE(!kfdsig_kfd_queue_submit(r->q, &bad, 1, D_WAIT_MS), "submit");
}

/* Wait (bounded) until the emulated queue stopped on its bad packet; the
 * emulator reports the exception before the queue reads as halted. */
static inline bool d_halted(struct drig *r)
{
	struct kfdsig_emu_queue_info qi;
	uint64_t t0 = t_now_ms();

	while (t_now_ms() - t0 < D_WAIT_MS) {
		if (!kfdsig_emu_queue_info(r->emu, t_pasid(r->emu, r->rt),
					   (uint32_t)kfdsig_kfd_queue_id(r->q), &qi) &&
		    qi.halted)
			return true;
		usleep(100);
	}
	return false;
}

/* One byte (or more) on the dbg_fd within the bound; consumes them. */
static inline bool d_notified(struct drig *r)
{
	struct pollfd pfd = { .fd = r->efd, .events = POLLIN };
	char buf[64];

	if (poll(&pfd, 1, T_WAKE_MAX_MS) != 1)
		return false;
	return read(r->efd, buf, sizeof(buf)) > 0;
}

/* Nothing on the dbg_fd right now. */
static inline bool d_quiet(struct drig *r)
{
	struct pollfd pfd = { .fd = r->efd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 0;
}

#endif
