/* SPDX-License-Identifier: MIT */
/* What preload.c hands the interposer's other files (debug_agent.c): calls
 * run one way, preload.c -> debug_agent.c, the way back through pointers. */
#ifndef KFDSIG_PRELOAD_PRIV_H
#define KFDSIG_PRELOAD_PRIV_H

struct kfdsig_emu;

struct preload_host {
	/* The emulator of this process, created on first use; NULL when it
	 * cannot be. */
	struct kfdsig_emu *(*emu)(void);
	/* Around emulator code run on the interposer's own behalf: the libc
	 * calls it makes on this thread go straight to libc. */
	void (*enter)(void);
	void (*leave)(void);
};

/* debug_agent.c: start the debug agent when KFDSIG_DEBUG_AGENT is set. */
void preload_debug_agent_start(const struct preload_host *host);

#endif
