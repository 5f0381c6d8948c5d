/* SPDX-License-Identifier: MIT */
/* What preload.c hands the interposer's other files (debug_agent.c,
 * trace.c): calls run one way, preload.c -> those files, the way back
 * through pointers. */
#ifndef KFDSIG_PRELOAD_PRIV_H
#define KFDSIG_PRELOAD_PRIV_H

#include <stddef.h>
#include <stdint.h>

struct kfdsig_emu;
struct kfdsig_kfd_ops;

struct preload_host {
	/* The emulator of this process, created on first use; NULL when it
	 * cannot be. */
	struct kfdsig_emu *(*emu)(void);
	/* Around emulator code run on the interposer's own behalf: the libc
	 * calls it makes on this thread go straight to libc. */
	void (*enter)(void);
	void (*leave)(void);
};

/* stall.c: with KFDSIG_EMU_STALL_MS set, watch @emu and end the process
 * with PRELOAD_STALL_EXIT when it waits on events nothing can signal. */
#define PRELOAD_STALL_EXIT 113
void preload_stall_watch(struct kfdsig_emu *emu);

/* debug_agent.c: start the debug agent when KFDSIG_DEBUG_AGENT is set. */
void preload_debug_agent_start(const struct preload_host *host);

/* trace.c: the recorder of `kfdsig trace` (src/proto/trace.h). */
enum preload_trace_mode {
	PRELOAD_TRACE_OFF = 0,
	PRELOAD_TRACE_EMULATED, /* recording the emulated KFD of this process */
	PRELOAD_TRACE_REAL,	/* recording the real KFD: /dev/kfd passes through */
};

/* Start the recorder when KFDSIG_TRACE_FD names an open fd. */
enum preload_trace_mode preload_trace_start(const struct preload_host *host);

/* The KFD ioctl @req on @fd through @ops, recorded (the caller has
 * entered, see preload_host). Return: as ops->ioctl. */
int preload_trace_ioctl(const struct kfdsig_kfd_ops *ops, int fd, unsigned long req, void *arg);

/* A mapping of a KFD or render fd was made. */
void preload_trace_mmap(int fd, uint64_t offset, void *addr, size_t len);

#endif
