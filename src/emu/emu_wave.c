/* SPDX-License-Identifier: MIT */
/*
 * Wave exceptions of the emulated CP, for both shader-unit paths (the stub
 * interpreter in emu_cp.c, compiled kernels in emu_kernel.c).
 */
#include <kfdsig/debug.h>

#include "emu/emu_debug.h"
#include "emu/emu_engine.h"

/*
 * A wave stopped with exception @ec (KFDSIG_EC_QUEUE_WAVE_*): the exception
 * goes to the debugger or the runtime (emu_queue_exception(), emu_debug.c)
 * and, as the wave never ends (the trap handler halts it: ROCr
 * trap_handler.s .halt_wave), its dispatch never completes and the queue
 * goes no further.
 */
void emu_cp_wave_exception(struct emu_queue *q, uint32_t ec)
{
	emu_queue_exception(q, ec);
	pthread_mutex_lock(&q->p->lock);
	q->exception = EMU_QUEUE_EXC_WAVE;
	__atomic_store_n(&q->halted, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&q->p->lock);
}

/* Trap ids of LLVM AMDGPUUsage "Trap Handler ABI" (AMDHSA): llvm.trap and
 * llvm.debugtrap (ROCr trap_handler.s TRAP_ID_ABORT, TRAP_ID_DEBUGTRAP). */
#define TRAP_ID_ABORT 2
#define TRAP_ID_DEBUGTRAP 3

/*
 * s_trap: the trap id picks the exception ROCr's second-level trap handler
 * reports (runtime/trap_handler/trap_handler.s): TRAP_ID_ABORT
 * EC_QUEUE_WAVE_ABORT, any other EC_QUEUE_WAVE_TRAP. The emulator behaves
 * as if that handler were installed: with no second-level handler at all
 * the kernel's CWSR handler steps over every s_trap
 * (cwsr_trap_handler_gfx9.asm L_NO_NEXT_TRAP); not modelled, the safe
 * choice is the visible one (the wave stops, the exception is raised).
 */
uint32_t emu_cp_trap_ec(uint8_t trap_id)
{
	return trap_id == TRAP_ID_ABORT ? KFDSIG_EC_QUEUE_WAVE_ABORT : KFDSIG_EC_QUEUE_WAVE_TRAP;
}

/*
 * The shader unit's trap hook (sq_env.trap): 1 steps over the s_trap.
 * ROCr's handler (trap_handler.s trap_entry) ignores llvm.debugtrap when
 * TTMP11 DebugEnabled is clear, which KFD sets while a debugger has the
 * process's debug trap active (kfd_debug.c kfd_dbg_trap_activate ->
 * kfd_process_set_trap_debug_flag; a debugger's enable before
 * RUNTIME_ENABLE activates nothing until then: emu_dbg_trap_enabled);
 * AMDGPUUsage "Trap Handler ABI" makes it a no-operation when no debugger
 * is installed. Every other trap stops the wave (the emulator models every
 * process as having ROCr's second-level handler).
 */
bool emu_cp_trap_steps_over(struct emu_queue *q, uint8_t trap_id)
{
	return trap_id == TRAP_ID_DEBUGTRAP && !emu_dbg_trap_enabled(q->p);
}
