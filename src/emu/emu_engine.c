/* SPDX-License-Identifier: MIT */
/*
 * What the emulated engines (emu_cp.c, emu_sdma.c, the loop in
 * emu_doorbell.c) share: memory access through the process's GPU VM (a
 * miss is a VM fault that halts the process's queues), stores, memory
 * polls, and the interrupts they raise through the GPU's ISR class
 * (kfdsig_emu_interrupt).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kfdsig/debug.h>

#include "emu/emu_debug.h"
#include "emu/emu_engine.h"

uint64_t emu_engine_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool emu_engine_stopping(struct emu_queue *q)
{
	/* a user queue the hang detection reset (emu_userq_fence.c) */
	return __atomic_load_n(&q->stop, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&q->halted, __ATOMIC_ACQUIRE) ||
	       (q->fdrv && emu_fence_drv_hung(q->fdrv));
}

/* A VM fault: the MEMORY events get the data, the process's queues stop,
 * an SMI VMFAULT line appears (kfd_events.c kfd_signal_vm_fault_event()). */
void emu_engine_vm_fault(struct emu_queue *q, uint64_t va)
{
	struct emu_proc *p = q->p;

	struct kfd_hsa_memory_exception_data d = { 0 };

	pthread_mutex_lock(&p->lock);
	emu_halt_queues(p, EMU_QUEUE_EXC_VM_FAULT);
	/* a render-node user queue is not on the KFD process's list */
	if (!q->halted) {
		q->exception = EMU_QUEUE_EXC_VM_FAULT;
		__atomic_store_n(&q->halted, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&p->lock);
	kfdsig_emu_vm_fault(p->emu, emu_proc_pasid(p, q->g), q->g->gpu_id, va & ~4095ull,
			    KFDSIG_EMU_FAULT_NOT_PRESENT);
	/* kfd_int_process_v9.c (and _v10/_v11/_v12_1) on a VMC/UTCL2 fault:
	 * kfd_set_dbg_ev_from_interrupt(EC_DEVICE_MEMORY_VIOLATION, doorbell
	 * -1) with the fault as memory exception data */
	d.gpu_id = q->g->gpu_id;
	d.va = va & ~4095ull;
	d.failure.NotPresent = 1;
	emu_device_exception(p, q->g, KFDSIG_EC_DEVICE_MEMORY_VIOLATION, &d, sizeof(d));
}

void *emu_engine_mem(struct emu_queue *q, uint64_t va, uint64_t len)
{
	void *ptr =
		kfdsig_emu_gpu_ptr(q->p->emu, emu_proc_pasid(q->p, q->g), q->g->gpu_id, va, len);
	if (!ptr)
		emu_engine_vm_fault(q, va);
	return ptr;
}

/* A store the size of @len at @dst: atomic when naturally aligned; a
 * misaligned one (the GPU does not require alignment of every packet's
 * address, and an 8-byte atomic there is undefined on the host) is a
 * release fence and a plain copy. */
void emu_engine_store(void *dst, uint64_t v, unsigned len)
{
	if (len == 8 && !((uintptr_t)dst & 7)) {
		__atomic_store_n((uint64_t *)dst, v, __ATOMIC_RELEASE);
	} else if (len == 4 && !((uintptr_t)dst & 3)) {
		__atomic_store_n((uint32_t *)dst, (uint32_t)v, __ATOMIC_RELEASE);
	} else {
		__atomic_thread_fence(__ATOMIC_RELEASE);
		memcpy(dst, &v, len); /* little-endian: the low bytes first */
	}
}

bool emu_engine_store32(struct emu_queue *q, uint64_t va, uint32_t v)
{
	void *p = emu_engine_mem(q, va, 4);
	if (p)
		emu_engine_store(p, v, 4);
	return p != NULL;
}

bool emu_engine_store64(struct emu_queue *q, uint64_t va, uint64_t v)
{
	void *p = emu_engine_mem(q, va, 8);
	if (p)
		emu_engine_store(p, v, 8);
	return p != NULL;
}

/* The read pointer store, bounded by the buffer that holds it: the kernel
 * accepts a read pointer anywhere in its one-page buffer
 * (kfd_queue_acquire_buffers checks the page, not the offset), so a 64-bit
 * SDMA read pointer at byte 4092 would reach 4 bytes past it. Emulator
 * choice (what the engine does there is UNVERIFIED): store the bytes that
 * fit, low-order first, and nothing beyond the buffer. */
void emu_engine_publish_rptr(struct emu_queue *q, uint64_t pos)
{
	uint32_t ring_dw = q->ring_size / 4;
	uint64_t v;
	unsigned len = 4;

	if (!q->sdma) {
		v = (uint32_t)(pos % ring_dw);
	} else if (q->g->gen.wptr_bits == 64) {
		v = pos * 4;
		len = 8;
	} else {
		v = (uint32_t)((pos * 4) % q->ring_size);
	}
	if (len > q->rptr_room)
		len = q->rptr_room;
	emu_engine_store(q->rptr, v, len);
}

/* The CP fetches a packet before it executes it, and writes its fetch
 * position to the read pointer (kfd_mqd_manager_v9.c update_mqd():
 * cp_hqd_pq_rptr_report_addr is the queue's read pointer; _vi.c the
 * same): by the time a RELEASE_MEM's end-of-pipe interrupt or an SDMA
 * TRAP wakes a waiter, the read pointer is past that packet, and a client
 * that refills the ring on the wake-up sees the space it frees. The AQL
 * read index likewise passes the packet before its completion signal. */
void emu_engine_publish_fetched(struct emu_queue *q)
{
	if (q->win || q->fetched <= q->consumed)
		return;
	if (!q->aql) {
		emu_engine_publish_rptr(q, q->fetched);
		return;
	}
	if (q->rptr_room >= 8 && !((uintptr_t)q->rptr & 7))
		__atomic_store_n((uint64_t *)q->rptr, q->fetched, __ATOMIC_RELEASE);
}

void emu_engine_irq(struct emu_queue *q, enum kfdsig_emu_irq_source src, uint32_t ctx)
{
	/* the read pointer is past the packet before its interrupt */
	if (src == KFDSIG_EMU_IRQ_CP_EOP || src == KFDSIG_EMU_IRQ_SDMA_TRAP)
		emu_engine_publish_fetched(q);
	/* A user queue's end-of-pipe interrupt: gfx_v11_0.c / gfx_v12_0.c
	 * *_eop_irq() read src_data[0] as a doorbell index and, when it is
	 * not 0, hand it to amdgpu_userq_process_fence_irq(); they return 0
	 * (not handled), so amdgpu_irq.c amdgpu_irq_dispatch() passes the
	 * entry to amdkfd as well ("if it isn't already handled"), which
	 * takes it as any CP end-of-pipe interrupt of the VM's PASID (below:
	 * the KFD process whose VM this is). */
	if (q->fdrv && src == KFDSIG_EMU_IRQ_CP_EOP && ctx && !q->p->emu->lose_userq_irq)
		emu_userq_fence_irq(q->g, ctx);
	/* Raised by the XCC whose CP runs the packet (emu_doorbell.c). In a
	 * multi-XCC window the IH entry waits until the packet has run on
	 * every XCC: on hardware the XCCs run the ring concurrently and the
	 * IH ring is drained later by the ISR and its worker, so all the
	 * XCCs' writes land before the first entry is handled
	 * (docs/multi-xcc.md). */
	if (q->win) {
		if (q->nirq == EMU_XCC_IRQ_QUEUE)
			emu_engine_irq_flush(q);
		q->irq[q->nirq].src = src;
		q->irq[q->nirq].ctx = ctx;
		q->irq[q->nirq].xcc = q->xcc;
		q->nirq++;
		return;
	}
	emu_interrupt_xcc(q->p->emu, emu_proc_pasid(q->p, q->g), q->g->gpu_id, src, ctx, q->xcc);
}

/* Hand the held IH entries to the handler, in the order they were raised. */
void emu_engine_irq_flush(struct emu_queue *q)
{
	uint32_t n = q->nirq;

	q->nirq = 0;
	for (uint32_t i = 0; i < n; i++)
		emu_interrupt_xcc(q->p->emu, emu_proc_pasid(q->p, q->g), q->g->gpu_id,
				  (enum kfdsig_emu_irq_source)q->irq[i].src, q->irq[i].ctx,
				  q->irq[i].xcc);
}

/* The host is told which packet stopped the queue (emu_host_set_diag():
 * `kfdsig exec -v` prints it): the header at the engine's position, the
 * ring's packet for one inside an indirect buffer. */
static void bad_opcode_diag(struct emu_queue *q)
{
	struct kfdsig_emu *emu = q->p->emu;
	uint64_t pos = q->win ? q->win_pos : q->consumed;
	uint32_t h;
	char line[160];

	if (!emu->diag)
		return;
	if (q->aql) /* 64-byte slots; the header is the first 16 bits */
		h = q->ring[(pos % emu_aql_slots(q)) * 16] & 0xffff;
	else
		h = q->ring[pos % (q->ring_size / 4)];
	snprintf(line, sizeof(line),
		 "%s queue %u stopped: packet %s %llu, header 0x%08x, not supported "
		 "(CP_BAD_OPCODE)",
		 q->aql		      ? "AQL"
		 : q->sdma && q->fdrv ? "SDMA user"
		 : q->sdma	      ? "SDMA"
		 : q->userq_gfx	      ? "GFX user"
		 : q->fdrv	      ? "PM4 user"
				      : "PM4",
		 q->id, q->aql ? "at read index" : "at ring dword", (unsigned long long)pos, h);
	emu->diag(emu->diag_ctx, line);
}

void emu_engine_bad_opcode(struct emu_queue *q)
{
	bad_opcode_diag(q);
	if (q->fdrv) {
		/* a user queue: no KFD queue, no KFD exception; it stops and
		 * its fences stay unsignalled (a waiter times out) */
		pthread_mutex_lock(&q->p->lock);
		q->exception = EMU_QUEUE_EXC_BAD_OPCODE;
		__atomic_store_n(&q->halted, true, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&q->p->lock);
		return;
	}
	/* gfx8 (CIK class) signals HW_EXCEPTION events; SOC15 classes hand
	 * it to the exception path: the queue stops either way (cik_event_interrupt.c,
	 * 1.5), and the emulator records why. */
	emu_engine_irq(q, KFDSIG_EMU_IRQ_CP_BAD_OPCODE, q->id);
	/* kfd_int_process_v9.c SOC15_INTSRC_CP_BAD_OPCODE:
	 * kfd_set_dbg_ev_from_interrupt() with the exception code the CP
	 * firmware puts in the context id (KFD_DEBUG_CP_BAD_OP_ECODE). Which
	 * code the MEC reports for an unknown PM4 / SDMA / AQL packet is
	 * firmware-defined (UNVERIFIED): the emulator reports
	 * EC_QUEUE_PACKET_UNSUPPORTED. Delivered before the queue reads as
	 * halted, so that a halted queue has had its exception reported. */
	emu_queue_exception(q, KFDSIG_EC_QUEUE_PACKET_UNSUPPORTED);
	pthread_mutex_lock(&q->p->lock);
	q->exception = EMU_QUEUE_EXC_BAD_OPCODE;
	__atomic_store_n(&q->halted, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&q->p->lock);
}

static bool compare(uint32_t func, uint32_t v, uint32_t ref)
{
	switch (func) {
	case 0:
		return true;
	case 1:
		return v < ref;
	case 2:
		return v <= ref;
	case 3:
		return v == ref;
	case 4:
		return v != ref;
	case 5:
		return v >= ref;
	case 6:
		return v > ref;
	default:
		return false;
	}
}

/* Poll memory until the compare holds (or the queue stops). */
bool emu_engine_poll(struct emu_queue *q, uint64_t va, uint32_t func, uint32_t ref, uint32_t mask)
{
	/* The seq64 area is mapped read-only into every render-node VM
	 * (amdgpu_seq64.c amdgpu_seq64_map()): a user queue's memory poll
	 * (WAIT_REG_MEM, SDMA POLL_REGMEM) may read another queue's fence
	 * slot, 32 bits of it (little-endian: +4 the high half). A free slot
	 * is a fault, as in FENCE_WAIT_MULTI. */
	const uint64_t *slot =
		q->fdrv && emu_seq64_contains(va) ? emu_seq64_ptr(q->g, va & ~7ull) : NULL;
	const uint32_t *p;

	if (q->fdrv && emu_seq64_contains(va) && !slot) {
		emu_engine_vm_fault(q, va);
		return false;
	}
	p = slot ? (const uint32_t *)slot + ((va >> 2) & 1) : emu_engine_mem(q, va, 4);

	if (!p)
		return false;
	while (!compare(func, __atomic_load_n(p, __ATOMIC_ACQUIRE) & mask, ref)) {
		if (emu_engine_stopping(q))
			return false;
		/* a suspend preempts the wait: the packet runs again on resume
		 * (the CP restarts a preempted WAIT_REG_MEM) */
		if (!emu_queue_may_fetch(q)) {
			q->preempted = true;
			return false;
		}
		usleep(20);
	}
	return true;
}

void emu_halt_queues(struct emu_proc *p, uint32_t why)
{
	for (struct emu_queue *q = p->queues; q; q = q->next)
		if (!q->halted) {
			q->exception = why;
			__atomic_store_n(&q->halted, true, __ATOMIC_RELEASE);
		}
}
