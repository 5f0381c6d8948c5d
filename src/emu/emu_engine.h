/* SPDX-License-Identifier: MIT */
/*
 * Internal interface of the emulated engines (src/emu): the CP
 * (emu_cp.c), the SDMA engine (emu_sdma.c), the AQL packet processor
 * (emu_aql.c), the doorbell loop that runs them (emu_doorbell.c) and what
 * they share (emu_engine.c).
 */
#ifndef KFDSIG_EMU_ENGINE_H
#define KFDSIG_EMU_ENGINE_H

#include "emu/emu_priv.h"

/* The longest packet an engine takes, dwords. */
#define EMU_MAX_PKT 1024

/* emu_engine.c */
uint64_t emu_engine_now_ns(void); /* CLOCK_MONOTONIC: perf / system counters */
/* The queue is stopping or halted. */
bool emu_engine_stopping(struct emu_queue *q);
/* A VM fault at @va: halt the process's queues, signal its MEMORY events. */
void emu_engine_vm_fault(struct emu_queue *q, uint64_t va);
/* The host address of [va, va+len) in the queue's VM; NULL after a VM fault. */
void *emu_engine_mem(struct emu_queue *q, uint64_t va, uint64_t len);
void emu_engine_store(void *dst, uint64_t v, unsigned len);
bool emu_engine_store32(struct emu_queue *q, uint64_t va, uint32_t v);
bool emu_engine_store64(struct emu_queue *q, uint64_t va, uint64_t v);
void emu_engine_irq(struct emu_queue *q, enum kfdsig_emu_irq_source src, uint32_t ctx);
/* A packet the engine does not accept: raise CP_BAD_OPCODE, halt the queue. */
void emu_engine_bad_opcode(struct emu_queue *q);
bool emu_engine_poll(struct emu_queue *q, uint64_t va, uint32_t func, uint32_t ref, uint32_t mask);
/* Halt every queue of the process (a VM fault evicts them); p->lock held. */
void emu_halt_queues(struct emu_proc *p, uint32_t why);

/* emu_cp.c: length in dwords of the PM4 packet whose header is @h (0: none
 * we know); execute one packet (false: the CP would not accept it). */
uint32_t emu_pm4_len(uint32_t h);
/* A type-3 NOP (any length: the ring steps over its body). */
bool emu_pm4_is_nop(uint32_t h);
bool emu_pm4_exec(struct emu_queue *q, const uint32_t *pkt, uint32_t len, int depth);
/* emu_wave.c: a wave stopped with exception @ec (the queue halts); the
 * exception of an s_trap with @trap_id; does the trap handler step over it? */
void emu_cp_wave_exception(struct emu_queue *q, uint32_t ec);
/* emu_wave.c: the runtime's second-level trap handler for a wave stopped
 * with exception @ec (the queue error code it stores and signals). */
void emu_cp_wave_trap_handler(struct emu_queue *q, uint32_t ec);
uint32_t emu_cp_trap_ec(uint8_t trap_id);
bool emu_cp_trap_steps_over(struct emu_queue *q, uint8_t trap_id);
/* Run @ndw dwords of PM4 at @va as an indirect buffer; false: bad packet. */
bool emu_cp_run_ib(struct emu_queue *q, uint64_t va, uint32_t ndw);

/* emu_kernel.c: a dispatch on the kernel interpreter (emu/sq/sqk.h). 1:
 * done (or a wave fault / exception stopped the queue), 0: the family is
 * not one it runs (the caller raises the waves' illegal-instruction
 * exception), -1: a dispatch the CP refuses,
 * -2: the kernel descriptor or amd_queue_t is not mapped (VM fault raised),
 * 2: waiting for the runtime to grow the queue's scratch (retry later). */
int emu_kernel_aql(struct emu_queue *q, const uint32_t *d, uint64_t packet_va);
int emu_kernel_pm4(struct emu_queue *q, const uint32_t *pkt);

/* emu_sdma.c: the same for SDMA packets (length 0xffffffff: header
 * incomplete, need more of it). */
uint32_t emu_sdma_len(const struct emu_queue *q, const uint32_t *d, uint32_t avail);
bool emu_sdma_exec(struct emu_queue *q, const uint32_t *d);

/* emu_aql.c: the AQL packet processor of a COMPUTE_AQL queue. Is the slot
 * at the read index published and rung? Process published packets in
 * order; true when one completed. */
bool emu_aql_pending(struct emu_queue *q);
bool emu_aql_run(struct emu_queue *q);

#endif
