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
	/* a runtime that enabled exception reporting learns of it from the
	 * kernel (emu_queue_exception()); an older one from its handler */
	if (!emu_dbg_runtime_enabled(q->p))
		emu_cp_wave_trap_handler(q, ec);
}

/*
 * The queue error code the runtime's second-level trap handler stores for
 * exception @ec, 0 for none. The handler of a runtime that does not enable
 * exception reporting (ROCr 5.2, runtime/hsa-runtime/core/runtime/
 * amd_blit_shaders.h kCodeTrapHandler9, kept as amd_trap_handler_v1.h in
 * later ROCr) has three: SIGNAL_CODE_MEM_VIOL 1 << 29 for
 * TRAPSTS.MEM_VIOL without XNACK_ERROR, SIGNAL_CODE_ILLEGAL_INST 1 << 30,
 * SIGNAL_CODE_LLVM_TRAP 1 << 31 for s_trap 2; any other trap only halts
 * the wave. ROCr's AqlQueue::DynamicScratchHandler() turns them into
 * HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, _ILLEGAL_INSTRUCTION and
 * _EXCEPTION for the queue's error callback.
 */
static uint64_t v1_signal_code(uint32_t ec)
{
	switch (ec) {
	case KFDSIG_EC_QUEUE_WAVE_MEMORY_VIOLATION:
	case KFDSIG_EC_QUEUE_WAVE_APERTURE_VIOLATION:
		return 1ull << 29;
	case KFDSIG_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION:
		return 1ull << 30;
	case KFDSIG_EC_QUEUE_WAVE_ABORT:
		return 1ull << 31;
	}
	return 0;
}

/* ROCr's TMA (GpuAgent::BindTrapHandler()): amd_queue_t pointers indexed
 * by doorbell (MAX_NUM_DOORBELLS 1024, 8 bytes each); amd_queue_t (hsa/
 * amd_hsa_queue.h) holds queue_inactive_signal at 0xc0; amd_signal_t
 * (hsa/amd_hsa_signal.h): value at 8, event_mailbox_ptr at 16, event_id
 * at 24. */
#define TMA_DOORBELLS 1024u
#define AMD_QUEUE_INACTIVE_SIGNAL 0xc0
#define AMD_SIGNAL_VALUE 8
#define AMD_SIGNAL_MAILBOX 16
#define AMD_SIGNAL_EVENT_ID 24

/*
 * What the second-level trap handler does for a wave that stopped with
 * @ec (kCodeTrapHandler9 .signal_error): the queue's amd_queue_t from the
 * TMA at the queue's doorbell index (MSG_GET_DOORBELL), its
 * queue_inactive_signal's value swapped for the error code, and when the
 * old value was 0 and the signal has an event mailbox: the event id
 * stored there and an interrupt sent (s_sendmsg MSG_INTERRUPT, m0 0), on
 * which the kernel's slot scan (kfd_signal_event_interrupt()) signals the
 * event the runtime waits on. Its memory is the process's GPU VM: a page
 * no BO maps is a VM fault, as the handler's scalar load would be; a null
 * queue pointer, signal or mailbox ends it (the handler's branches).
 *
 * ROCr 5.2's gfx10.3 build of the handler skips the signal (".signal_error:
 * needs to be rewritten for gfx10.3 as scalar stores are not available")
 * and leaves the program waiting forever; the emulator signals on every
 * family: the safe, visible choice, as a wave it stops (often for an
 * instruction it does not implement) must never hang the program.
 */
void emu_cp_wave_trap_handler(struct emu_queue *q, uint32_t ec)
{
	uint64_t code = v1_signal_code(ec), tma, aq, sig, mailbox, old;
	const uint64_t *pp;
	uint8_t *s;
	uint32_t id, *m;

	pthread_mutex_lock(&q->p->lock);
	tma = q->p->pdd[q->g->index].tma;
	pthread_mutex_unlock(&q->p->lock);
	if (!code || !tma)
		return;
	/* the doorbell index in the process's doorbell page (emu_queue.c:
	 * the queue id; SOC15 doorbells are 8 bytes) */
	pp = emu_engine_mem(q, tma + 8ull * (q->id % TMA_DOORBELLS), 8);
	aq = pp ? __atomic_load_n(pp, __ATOMIC_ACQUIRE) : 0;
	/* ROCr 5.2 puts no gfx8 queue in that map (its entries stay 0 on a
	 * gfx8 AQL queue); kCodeTrapHandler8 loads the inactive signal at
	 * 0xc0 of a queue pointer instead. The emulator takes the one the CP
	 * can form for an AQL queue: the read pointer (&read_dispatch_id)
	 * less read_dispatch_id_field_base_byte_offset, the field after it
	 * (hsa/amd_hsa_queue.h). Which pointer the gfx8 handler has is
	 * UNVERIFIED; the choice makes the error visible, never a hang. On
	 * gfx9 and later an empty TMA entry is the handler's null queue
	 * branch: nothing is signalled, as on hardware. */
	if (!aq && q->aql && emu_aql_doubled(q->g) && q->rptr_room >= 12) {
		const uint32_t *off = emu_engine_mem(q, q->rptr_va + 8, 4);
		uint32_t o = off ? __atomic_load_n(off, __ATOMIC_ACQUIRE) : 0;

		if (o && o <= q->rptr_va)
			aq = q->rptr_va - o;
	}
	pp = aq ? emu_engine_mem(q, aq + AMD_QUEUE_INACTIVE_SIGNAL, 8) : NULL;
	sig = pp ? __atomic_load_n(pp, __ATOMIC_ACQUIRE) : 0;
	s = sig ? emu_engine_mem(q, sig, AMD_SIGNAL_EVENT_ID + 4) : NULL;
	if (!s)
		return;
	old = __atomic_exchange_n((uint64_t *)(void *)(s + AMD_SIGNAL_VALUE), code,
				  __ATOMIC_ACQ_REL);
	if (old)
		return;
	mailbox = __atomic_load_n((uint64_t *)(void *)(s + AMD_SIGNAL_MAILBOX), __ATOMIC_ACQUIRE);
	id = __atomic_load_n((uint32_t *)(void *)(s + AMD_SIGNAL_EVENT_ID), __ATOMIC_ACQUIRE);
	m = mailbox ? emu_engine_mem(q, mailbox & ~3ull, 4) : NULL;
	if (!m)
		return;
	__atomic_store_n(m, id, __ATOMIC_RELEASE);
	emu_engine_irq(q, KFDSIG_EMU_IRQ_SQ_MSG, 0);
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
 * The shader unit's trap hook (sqk_env.trap): true steps over the s_trap.
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
