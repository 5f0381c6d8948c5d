/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's debugger and runtime-enable interface (emu_debug.c):
 * the RUNTIME_ENABLE and DBG_TRAP ioctls, and the hook through which the
 * emulated engines and shader unit raise exceptions.
 *
 * An exception goes where the kernel sends it (kfd_debug.c
 * kfd_set_dbg_ev_from_interrupt() / kfd_dbg_ev_raise()): to the debugger
 * when one has the trap interface enabled with that exception in its
 * mask (status bit on the queue / device / process, a byte on dbg_fd),
 * else, for a queue exception of a runtime-enabled process, to the
 * runtime (the exception bit OR'd into the word at the queue's CWSR
 * header err_payload_addr and the event err_event_id set, kfd_process.c
 * kfd_send_exception_to_runtime()).
 */
#ifndef KFDSIG_EMU_DEBUG_H
#define KFDSIG_EMU_DEBUG_H

#include "emu/emu_priv.h"

/*
 * emu_queue_exception() - queue @q raises exception @ec, a KFD EC_* code
 * (kfdsig/debug.h KFDSIG_EC_*: KFDSIG_EC_QUEUE_WAVE_TRAP for s_trap,
 * KFDSIG_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION, ...). Called by an engine
 * thread or the shader unit with no emulator lock held; it does not stop
 * the queue (the caller halts it when the hardware would).
 */
void emu_queue_exception(struct emu_queue *q, uint32_t ec);

/* A device exception (KFDSIG_EC_DEVICE_*) of process @p on GPU @g, with
 * the data QUERY_EXCEPTION_INFO returns (a memory violation's struct
 * kfd_hsa_memory_exception_data), or NULL. No lock held. */
void emu_device_exception(struct emu_proc *p, struct emu_gpu *g, uint32_t ec, const void *data,
			  size_t len);

/* May the engine of @q fetch packets (not suspended by the debugger)? And
 * may a wave start (launch mode not HALT)? Lock-free reads. */
bool emu_queue_may_fetch(const struct emu_queue *q);
bool emu_queue_may_launch(const struct emu_queue *q);

/* Is the debug trap of @p active: a debugger has its trap interface
 * enabled and the runtime is enabled (before RUNTIME_ENABLE the kernel
 * defers the activation)? It is what the trap handler sees as TTMP11
 * DebugEnabled (kfd_debug.c kfd_dbg_trap_activate()/_deactivate() ->
 * kfd_process_set_trap_debug_flag()). Takes p->lock. */
bool emu_dbg_trap_enabled(struct emu_proc *p);

/* The second-level trap handler (SET_TRAP_HANDLER's TBA) the waves of @q
 * run as code: while a debugger has the debug trap active, 0 otherwise
 * (then the emulator plays ROCr's handler, emu_wave.c). */
uint64_t emu_dbg_trap_base(struct emu_queue *q);

/* The wave start / end traps the debugger enabled (SET_WAVE_LAUNCH_
 * OVERRIDE): KFDSIG_DBG_TRAP_MASK_TRAP_ON_WAVE_START / _END bits. */
uint32_t emu_dbg_wave_traps(struct emu_proc *p);

/* The address watch points set on @q's GPU while the debugger enabled
 * the address watch exception: the number (at most 4), each one's
 * address, mask and mode | watch id << 4, | EMU_DBG_WATCH_PRECISE with
 * SET_FLAGS SINGLE_MEM_OP (the exception reported at the access). */
#define EMU_DBG_WATCH_PRECISE 0x8u
unsigned emu_dbg_watches(struct emu_queue *q, uint64_t addr[4], uint32_t mask[4], uint8_t mode[4]);

/* kfd_debug.c kfd_set_dbg_ev_from_interrupt(): exception @mask on the
 * queue of @q's GPU with @doorbell_id, to the debugger or else the
 * runtime; false when neither took it (the interrupt then goes on as an
 * event interrupt). */
bool emu_dbg_ev_from_interrupt(struct emu_queue *q, uint32_t doorbell_id, uint64_t mask);

/* The process's runtime enabled exception reporting (DBG_TRAP
 * RUNTIME_ENABLE, kfd_chardev.c runtime_enable()). */
bool emu_dbg_runtime_enabled(struct emu_proc *p);

/* The ioctls (emu_ioctl.c's table). */
int emu_runtime_enable(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
int emu_dbg_trap(struct kfdsig_emu *emu, struct emu_proc *p, void *data);

/* Queue lifecycle (emu_queue.c), p->lock held: a new queue
 * (EC_QUEUE_NEW to the debugger), a queue going away
 * (EC_DEVICE_QUEUE_DELETE; waits, dropping p->lock, while the queue is
 * suspended under a debugger: -EINTR when that wait is cut short, the
 * queue stays). */
void emu_dbg_queue_new(struct emu_queue *q);
int emu_dbg_queue_delete(struct emu_queue *q);
/* The process goes away: forget its debug state, detach from the
 * processes it debugs (no lock held; @p already off emu->procs). */
void emu_dbg_proc_free(struct emu_proc *p);

/* In a forked child: drop the parent's debug state, no lock taken. */
void emu_dbg_forget(struct emu_proc *p);

#endif
