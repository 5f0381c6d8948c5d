/* SPDX-License-Identifier: MIT */
/* What preload.c offers the interposer's other files (debug_agent.c). */
#ifndef KFDSIG_PRELOAD_PRIV_H
#define KFDSIG_PRELOAD_PRIV_H

struct kfdsig_emu;

/* The emulator of this process, created on first use; NULL when it cannot be. */
struct kfdsig_emu *preload_emu(void);
/* Around emulator code run on the interposer's own behalf: the libc calls
 * it makes on this thread go straight to libc. */
void preload_enter(void);
void preload_leave(void);

/* debug_agent.c: start the debug agent when KFDSIG_DEBUG_AGENT is set. */
void preload_debug_agent_start(void);

#endif
