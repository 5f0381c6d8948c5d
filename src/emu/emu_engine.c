/* SPDX-License-Identifier: MIT */
/*
 * Emulated CP (PM4) and SDMA engines: one thread per user queue watches
 * its doorbell (the doorbell memory itself, so a client writing the mapped
 * page directly is seen as promptly as one going through the seam), runs
 * the ring from the read pointer to the doorbell's write pointer with its
 * own decoding of the packets (vid.h, soc15d.h, nvd.h and the gfx_v*_0.c ring emitters; *_sdma_pkt_open.h and sdma_v*_0.c, never kfdsig's
 * emitters or decoder), updates the read pointer and raises interrupts
 * through the GPU's ISR class (kfdsig_emu_interrupt).
 *
 * Pointer conventions (kfdtest BaseQueue::PlacePacket, kfd_mqd_manager_vi.c / _v9.c; *_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp; kfd_doorbell.c, kfd_chardev.c kfd_ioctl_create_queue()): the doorbell carries the
 * write pointer, PM4 in dwords, SDMA in bytes; 64-bit and monotonic from
 * gfx9, 32-bit and wrapped on gfx8. The engine reports its read pointer as
 * a 32-bit wrapped dword offset for PM4 and in bytes for SDMA (64-bit
 * monotonic from gfx9, 32-bit wrapped on gfx8).
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_aql.h"
#include "emu/emu_priv.h"
#include "emu/sq/sq.h"

/* PM4 type-3 header (vid.h / soc15d.h / nvd.h PACKET3()) */
#define HDR_TYPE(h) ((h) >> 30)
#define HDR_COUNT(h) (((h) >> 16) & 0x3fff)
#define HDR_OP(h) (((h) >> 8) & 0xff)
#define OP_NOP 0x10
#define OP_WRITE_DATA 0x37
#define OP_WAIT_REG_MEM 0x3c
#define OP_INDIRECT_BUFFER 0x3f
#define OP_EVENT_WRITE 0x46
#define OP_EVENT_WRITE_EOP 0x47
#define OP_RELEASE_MEM 0x49
#define OP_ACQUIRE_MEM 0x58
#define OP_DISPATCH_DIRECT 0x15
#define OP_SET_SH_REG 0x76
/* SH register offsets from 0x2c00 (gfx_8_0_d.h mmCOMPUTE_PGM_LO 0x2e0c,
 * mmCOMPUTE_USER_DATA_0 0x2e40; the same offsets through gfx12) and the
 * dispatch initiator's wave32 bit (CS_W32_EN, gfx10+). */
#define SH_COMPUTE_PGM_LO 0x20c
#define SH_COMPUTE_PGM_HI 0x20d
#define SH_COMPUTE_USER_DATA_0 0x240
#define DISPATCH_CS_W32_EN (1u << 15)
#define MAX_GROUPS 64

/* SDMA opcodes (*_sdma_pkt_open.h) */
#define SDMA_NOP 0
#define SDMA_COPY 1
#define SDMA_WRITE 2
#define SDMA_FENCE 5
#define SDMA_TRAP 6
#define SDMA_POLL_REGMEM 8
#define SDMA_TIMESTAMP 13

#define MAX_PKT 1024

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t emu_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Counted from the GPU's creation, as a real GPU counts from its power-up,
 * so that a long-running host never carries it out of its epoch. */
uint64_t emu_gpu_clock(const struct emu_gpu *g)
{
	return (emu_raw_ns() - g->clock_base_ns) / (1000000000ull / KFDSIG_EMU_GPU_CLOCK_HZ) +
	       KFDSIG_EMU_GPU_CLOCK_EPOCH * (g->index + 1);
}

static bool stopping(struct emu_queue *q)
{
	return __atomic_load_n(&q->stop, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&q->halted, __ATOMIC_ACQUIRE);
}

/* A VM fault: the MEMORY events get the data, the process's queues stop,
 * an SMI VMFAULT line appears (kfd_events.c kfd_signal_vm_fault_event()). */
static void vm_fault(struct emu_queue *q, uint64_t va)
{
	struct emu_proc *p = q->p;

	pthread_mutex_lock(&p->lock);
	emu_halt_queues(p, EMU_QUEUE_EXC_VM_FAULT);
	pthread_mutex_unlock(&p->lock);
	kfdsig_emu_vm_fault(p->emu, p->pasid, q->g->gpu_id, va & ~4095ull,
			    KFDSIG_EMU_FAULT_NOT_PRESENT);
}

static void *gpu_mem(struct emu_queue *q, uint64_t va, uint64_t len)
{
	void *ptr = kfdsig_emu_gpu_ptr(q->p->emu, q->p->pasid, q->g->gpu_id, va, len);
	if (!ptr)
		vm_fault(q, va);
	return ptr;
}

/* A store the size of @len at @dst: atomic when naturally aligned; a
 * misaligned one (the GPU does not require alignment of every packet's
 * address, and an 8-byte atomic there is undefined on the host) is a
 * release fence and a plain copy. */
static void store_bytes(void *dst, uint64_t v, unsigned len)
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

static bool store32(struct emu_queue *q, uint64_t va, uint32_t v)
{
	void *p = gpu_mem(q, va, 4);
	if (p)
		store_bytes(p, v, 4);
	return p != NULL;
}

static bool store64(struct emu_queue *q, uint64_t va, uint64_t v)
{
	void *p = gpu_mem(q, va, 8);
	if (p)
		store_bytes(p, v, 8);
	return p != NULL;
}

static void irq(struct emu_queue *q, enum kfdsig_emu_irq_source src, uint32_t ctx)
{
	kfdsig_emu_interrupt(q->p->emu, q->p->pasid, q->g->gpu_id, src, ctx);
}

static void bad_opcode(struct emu_queue *q)
{
	/* gfx8 (CIK class) signals HW_EXCEPTION events; SOC15 classes hand
	 * it to the exception path: the queue stops either way (cik_event_interrupt.c,
	 * 1.5), and the emulator records why. */
	irq(q, KFDSIG_EMU_IRQ_CP_BAD_OPCODE, q->id);
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
static bool poll_mem(struct emu_queue *q, uint64_t va, uint32_t func, uint32_t ref, uint32_t mask)
{
	uint32_t *p = gpu_mem(q, va, 4);

	if (!p)
		return false;
	while (!compare(func, __atomic_load_n(p, __ATOMIC_ACQUIRE) & mask, ref))
		if (stopping(q))
			return false;
		else
			usleep(20);
	return true;
}

/* ---- PM4 ---------------------------------------------------------------- */

/* Length in dwords of the packet whose header is @h, 0 for none we know. */
static uint32_t pm4_len(uint32_t h)
{
	if (HDR_TYPE(h) == 2)
		return 1; /* type-2 NOP */
	if (HDR_TYPE(h) != 3)
		return 0;
	/* PACKET3(NOP, 0x3FFF): the one-dword ring filler */
	if (HDR_OP(h) == OP_NOP && HDR_COUNT(h) == 0x3fff)
		return 1;
	return HDR_COUNT(h) + 2;
}

static bool pm4_exec(struct emu_queue *q, const uint32_t *pkt, uint32_t len, int depth);

/* RELEASE_MEM: the length the CP read from the header count must be the
 * generation's (emu_gen.c: 7 dwords without INT_CTXID on the gfx8 MEC, 8
 * with it from gfx9). */
static bool release_mem(struct emu_queue *q, const uint32_t *d, uint32_t len)
{
	bool gfx8 = !q->g->gen.release_mem_ctxid;
	uint32_t data_sel = d[2] >> 29, int_sel = (d[2] >> 24) & 7, dst_sel = (d[2] >> 16) & 3;
	uint64_t addr = d[3] | (uint64_t)d[4] << 32;
	uint64_t data = d[5] | (uint64_t)d[6] << 32;
	uint32_t ctx;

	if (len != q->g->gen.release_mem_dw)
		return false; /* a RELEASE_MEM of another generation's shape */
	/* gfx8 has no INT_CTXID: the IV carries the written data's low 28
	 * bits (UNVERIFIED on hardware; cik_event_interrupt.c). */
	ctx = gfx8 ? (uint32_t)data & 0x0fffffff : d[7];
	if (dst_sel <= 1) { /* memory controller / L2; 2, 3: queue registers */
		switch (data_sel) {
		case 1:
			if (!store32(q, addr & ~3ull, (uint32_t)data))
				return true;
			break;
		case 2:
			if (!store64(q, addr & ~7ull, data))
				return true;
			break;
		case 3: /* send_gpu_clock_counter: the GET_CLOCK_COUNTERS clock */
			if (!store64(q, addr & ~7ull, emu_gpu_clock(q->g)))
				return true;
			break;
		case 4: /* perf / system counter */
			if (!store64(q, addr & ~7ull, now_ns()))
				return true;
			break;
		default: /* 0 none; 5 GDS: nothing to store here */
			break;
		}
	}
	/* 1 interrupt only, 2 after write confirm, 4 send INT_CTXID; 3 is
	 * data only; 5 and 6 (conditional on a compare) are UNVERIFIED and
	 * raise nothing here. */
	if (int_sel == 1 || int_sel == 2 || int_sel == 4)
		irq(q, KFDSIG_EMU_IRQ_CP_EOP, ctx);
	return true;
}

/* EVENT_WRITE_EOP (vid.h, gfx_v8_0.c gfx_v8_0_ring_emit_fence_gfx()): the gfx8 graphics-ring form. */
static bool event_write_eop(struct emu_queue *q, const uint32_t *d, uint32_t len)
{
	uint32_t data_sel = d[3] >> 29, int_sel = (d[3] >> 24) & 7;
	uint64_t addr = d[2] | (uint64_t)(d[3] & 0xffff) << 32;
	uint64_t data = d[4] | (uint64_t)d[5] << 32;

	if (len != 6)
		return false;
	if (data_sel == 1 && !store32(q, addr & ~3ull, (uint32_t)data))
		return true;
	if (data_sel == 2 && !store64(q, addr & ~7ull, data))
		return true;
	if (data_sel == 3 && !store64(q, addr & ~7ull, emu_gpu_clock(q->g)))
		return true;
	if (data_sel == 4 && !store64(q, addr & ~7ull, now_ns()))
		return true;
	if (int_sel == 1 || int_sel == 2)
		irq(q, KFDSIG_EMU_IRQ_CP_EOP, (uint32_t)data & 0x0fffffff);
	return true;
}

/* WRITE_DATA (soc15d.h / nvd.h / vid.h WRITE_DATA): dst_sel 1, 2, 5 are memory; 0 registers. */
static bool write_data(struct emu_queue *q, const uint32_t *d, uint32_t len)
{
	uint32_t dst = (d[1] >> 8) & 0xf;
	bool one_addr = d[1] & (1u << 16);
	uint64_t addr = (d[2] & ~3u) | (uint64_t)d[3] << 32;

	if (len < 5)
		return false;
	if (dst != 1 && dst != 2 && dst != 5)
		return true;
	for (uint32_t i = 4; i < len; i++)
		if (!store32(q, one_addr ? addr : addr + 4ull * (i - 4), d[i]))
			return true;
	return true;
}

/* WAIT_REG_MEM (soc15d.h): function [2:0], mem_space [5:4], addr lo/hi,
 * reference, mask, poll interval. Register waits pass at once. */
static bool wait_reg_mem(struct emu_queue *q, const uint32_t *d, uint32_t len)
{
	if (len != 7)
		return false;
	if (((d[1] >> 4) & 3) == 1)
		poll_mem(q, (d[2] & ~3u) | (uint64_t)d[3] << 32, d[1] & 7, d[4], d[5]);
	return true;
}

/* INDIRECT_BUFFER: base (dword aligned), size [19:0] in dwords. */
static bool indirect_buffer(struct emu_queue *q, const uint32_t *d, uint32_t len, int depth)
{
	uint64_t base = (d[1] & ~3u) | (uint64_t)(d[2] & 0xffff) << 32;
	uint32_t ndw = d[3] & 0xfffff, pos = 0;
	const uint32_t *ib;

	if (len != 4 || depth > 1)
		return false;
	ib = gpu_mem(q, base, (uint64_t)ndw * 4);
	if (!ib)
		return true;
	while (pos < ndw && !stopping(q)) {
		uint32_t l = pm4_len(ib[pos]);
		if (!l || pos + l > ndw || l > MAX_PKT) {
			bad_opcode(q);
			return true;
		}
		if (!pm4_exec(q, ib + pos, l, depth + 1))
			return false;
		pos += l;
	}
	return true;
}

/* SET_SH_REG: dword 1 is the first register's offset, values follow. */
static bool set_sh_reg(struct emu_queue *q, const uint32_t *d, uint32_t len)
{
	uint32_t off = d[1] & 0xffff;

	if (len < 3)
		return false;
	for (uint32_t i = 2; i < len; i++)
		if (off + i - 2 < sizeof(q->sh) / sizeof(q->sh[0]))
			q->sh[off + i - 2] = d[i];
	return true;
}

static int sq_read(void *ctx, uint64_t va, void *dst, uint32_t len)
{
	struct emu_queue *q = ctx;
	void *p = kfdsig_emu_gpu_ptr(q->p->emu, q->p->pasid, q->g->gpu_id, va, len);

	if (!p)
		return -EFAULT;
	memcpy(dst, p, len);
	return 0;
}

static int sq_write(void *ctx, uint64_t va, const void *src, uint32_t len)
{
	struct emu_queue *q = ctx;
	void *p = kfdsig_emu_gpu_ptr(q->p->emu, q->p->pasid, q->g->gpu_id, va, len);

	if (!p)
		return -EFAULT;
	memcpy(p, src, len);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return 0;
}

/* s_sendmsg(MSG_INTERRUPT): SQ_INTERRUPT_MSG with the wave's m0 (the ISR
 * class keeps its SQ id bits of it, emu_gen.c). */
static int sq_message(void *ctx, const struct kfdsig_sq_event *ev)
{
	struct emu_queue *q = ctx;

	if (ev->interrupt)
		irq(q, KFDSIG_EMU_IRQ_SQ_MSG, ev->m0);
	return 0;
}

/* Waves of the program at @entry_va, one per workgroup, with @sgprs as
 * their first SGPRs, on the emulated shader unit (emu/sq). */
static bool run_waves(struct emu_queue *q, uint64_t entry_va, const uint32_t *sgprs,
		      uint32_t nsgprs, bool wave32, uint64_t groups)
{
	struct kfdsig_sq_env env = {
		.ctx = q, .read = sq_read, .write = sq_write, .message = sq_message
	};
	struct kfdsig_sq_wave w = { 0 };
	static __thread struct kfdsig_sq_report rep;

	if (!groups || groups > MAX_GROUPS)
		return false; /* the emulator runs small dispatches only */
	w.target = q->g->t;
	w.entry_va = entry_va;
	w.code_va = entry_va;
	w.sgprs = sgprs;
	w.num_sgprs = nsgprs;
	w.wave_size = wave32 && q->g->gen.level >= KFDSIG_GFX10 ? 32 : 64;
	for (uint64_t i = 0; i < groups && !stopping(q); i++) {
		int r = kfdsig_sq_run(&w, &env, &rep);

		if (r == -EFAULT) {
			vm_fault(q, rep.fault_va);
			return true;
		}
		if (r < 0)
			return false;
	}
	return true;
}

/* DISPATCH_DIRECT: one wave per workgroup of the program at
 * COMPUTE_PGM_LO/HI with COMPUTE_USER_DATA_* as its first SGPRs. */
static bool dispatch_direct(struct emu_queue *q, const uint32_t *d, uint32_t len)
{
	uint64_t entry;

	if (len != 5)
		return false;
	entry = ((uint64_t)q->sh[SH_COMPUTE_PGM_LO] << 8) |
		((uint64_t)(q->sh[SH_COMPUTE_PGM_HI] & 0xffff) << 40);
	return run_waves(q, entry, &q->sh[SH_COMPUTE_USER_DATA_0], 16,
			 (d[4] & DISPATCH_CS_W32_EN) != 0, (uint64_t)d[1] * d[2] * d[3]);
}

/* Execute one packet; false for a packet the CP would not accept. */
static bool pm4_exec(struct emu_queue *q, const uint32_t *pkt, uint32_t len, int depth)
{
	if (HDR_TYPE(pkt[0]) == 2)
		return true;
	switch (HDR_OP(pkt[0])) {
	case OP_NOP:
	case OP_EVENT_WRITE: /* no interrupt, nothing visible here */
	case OP_ACQUIRE_MEM: /* cache operations */
		return true;
	case OP_RELEASE_MEM:
		return release_mem(q, pkt, len);
	case OP_EVENT_WRITE_EOP:
		return event_write_eop(q, pkt, len);
	case OP_WRITE_DATA:
		return write_data(q, pkt, len);
	case OP_WAIT_REG_MEM:
		return wait_reg_mem(q, pkt, len);
	case OP_INDIRECT_BUFFER:
		return indirect_buffer(q, pkt, len, depth);
	case OP_SET_SH_REG:
		return set_sh_reg(q, pkt, len);
	case OP_DISPATCH_DIRECT:
		return dispatch_direct(q, pkt, len);
	default:
		return false;
	}
}

/* ---- SDMA --------------------------------------------------------------- */

/* Length in dwords of the SDMA packet starting with @h, given @d (enough
 * of the packet to find counts); 0 when it cannot be known. */
static uint32_t sdma_len(const struct emu_queue *q, const uint32_t *d, uint32_t avail)
{
	bool v4 = q->g->gen.sdma_count_minus1;

	switch (d[0] & 0xff) {
	case SDMA_NOP:
		return 1 + ((d[0] >> 16) & 0x3fff);
	case SDMA_COPY:
		return 7;
	case SDMA_WRITE:
		if (avail < 4)
			return 0xffffffff; /* need more */
		/* count: dwords - 1 on SDMA 4+, dwords before (amdgpu
		 * sdma_v4_0/v3_0 write_pte) */
		return 4 + (d[3] & 0xfffff) + (v4 ? 1 : 0);
	case SDMA_FENCE:
		return 4;
	case SDMA_TRAP:
		return 2;
	case SDMA_POLL_REGMEM:
		return 6;
	case SDMA_TIMESTAMP:
		return 3;
	default:
		return 0;
	}
}

static bool sdma_exec(struct emu_queue *q, const uint32_t *d)
{
	bool v4 = q->g->gen.sdma_count_minus1;

	switch (d[0] & 0xff) {
	case SDMA_NOP:
		return true;
	case SDMA_FENCE: /* exactly 32 bits at a dword-aligned address */
		store32(q, (d[1] & ~3u) | (uint64_t)d[2] << 32, d[3]);
		return true;
	case SDMA_TRAP:
		irq(q, KFDSIG_EMU_IRQ_SDMA_TRAP, d[1] & 0x0fffffff);
		return true;
	case SDMA_POLL_REGMEM:
		if (d[0] >> 31) /* mem_poll; register polls pass */
			poll_mem(q, (d[1] & ~3u) | (uint64_t)d[2] << 32, (d[0] >> 28) & 7, d[3],
				 d[4]);
		return true;
	case SDMA_WRITE: {
		uint64_t dst = d[1] | (uint64_t)d[2] << 32;
		uint32_t n = (d[3] & 0xfffff) + (v4 ? 1 : 0);
		for (uint32_t i = 0; i < n; i++)
			if (!store32(q, dst + 4ull * i, d[4 + i]))
				break;
		return true;
	}
	case SDMA_COPY: {
		uint64_t n = (d[1] & 0x3fffff) + (v4 ? 1 : 0);
		uint64_t src = d[3] | (uint64_t)d[4] << 32, dst = d[5] | (uint64_t)d[6] << 32;
		void *s, *t;
		if (((d[0] >> 8) & 0xff) != 0)
			return false; /* only the linear copy */
		s = gpu_mem(q, src, n);
		t = s ? gpu_mem(q, dst, n) : NULL;
		if (s && t)
			memmove(t, s, n);
		return true;
	}
	case SDMA_TIMESTAMP:
		if (((d[0] >> 8) & 0xff) != 0) /* get local / global */
			store64(q, (d[1] & ~7u) | (uint64_t)d[2] << 32, now_ns());
		return true;
	default:
		return false;
	}
}

/* ---- the engine loop ---------------------------------------------------- */

static uint64_t doorbell_value(struct emu_queue *q)
{
	if (q->g->gen.doorbell_size == 8)
		return __atomic_load_n((volatile uint64_t *)q->doorbell, __ATOMIC_ACQUIRE);
	return __atomic_load_n((volatile uint32_t *)q->doorbell, __ATOMIC_ACQUIRE);
}

/* The read pointer store, bounded by the buffer that holds it: the kernel
 * accepts a read pointer anywhere in its one-page buffer
 * (kfd_queue_acquire_buffers checks the page, not the offset), so a 64-bit
 * SDMA read pointer at byte 4092 would reach 4 bytes past it. Emulator
 * choice (what the engine does there is UNVERIFIED): store the bytes that
 * fit, low-order first, and nothing beyond the buffer. */
static void publish_rptr(struct emu_queue *q)
{
	uint32_t ring_dw = q->ring_size / 4;
	uint64_t v;
	unsigned len = 4;

	if (!q->sdma) {
		v = (uint32_t)(q->consumed % ring_dw);
	} else if (q->g->gen.wptr_bits == 64) {
		v = q->consumed * 4;
		len = 8;
	} else {
		v = (uint32_t)((q->consumed * 4) % q->ring_size);
	}
	if (len > q->rptr_room)
		len = q->rptr_room;
	store_bytes(q->rptr, v, len);
}

/* Dwords between the engine and the doorbell's write pointer. */
static uint64_t pending(struct emu_queue *q, uint64_t db)
{
	uint32_t ring_dw = q->ring_size / 4;
	uint64_t wp = q->sdma ? db / 4 : db; /* in dwords */

	if (q->aql)
		return emu_aql_pending(q);

	if (q->g->gen.wptr_bits == 32)
		return (wp - q->consumed) % ring_dw;
	return wp > q->consumed ? wp - q->consumed : 0;
}

/* The AQL packet processor's view of this engine (emu_aql.h). */
static bool aql_run_ib(struct emu_queue *q, uint64_t va, uint32_t ndw)
{
	const uint32_t ib[4] = { 3u << 30 | 2u << 16 | OP_INDIRECT_BUFFER << 8, (uint32_t)va,
				 (uint32_t)(va >> 32), ndw | 1u << 23 };

	return indirect_buffer(q, ib, 4, 0);
}

static uint64_t aql_clock(struct emu_queue *q)
{
	return emu_gpu_clock(q->g);
}

static const struct emu_aql_ops aql_ops = { gpu_mem,  irq,	 bad_opcode, aql_run_ib,
					    stopping, run_waves, aql_clock };

/* Run what the doorbell says is there; true when something ran. */
static bool run(struct emu_queue *q)
{
	uint32_t ring_dw = q->ring_size / 4, buf[MAX_PKT];
	bool progressed = false;

	if (q->aql)
		return emu_aql_run(q, &aql_ops);

	for (;;) {
		uint64_t avail = pending(q, doorbell_value(q));
		uint32_t pos = (uint32_t)(q->consumed % ring_dw), len, head[4];

		if (!avail || stopping(q))
			return progressed;
		for (uint32_t i = 0; i < 4; i++)
			head[i] = q->ring[(pos + i) % ring_dw];
		len = q->sdma ? sdma_len(q, head, (uint32_t)(avail < 4 ? avail : 4))
			      : pm4_len(head[0]);
		if (len == 0xffffffff)
			return progressed; /* header incomplete */
		if (!len || len > MAX_PKT) {
			bad_opcode(q);
			return progressed;
		}
		if (len > avail)
			return progressed; /* the rest is not submitted yet */
		for (uint32_t i = 0; i < len; i++)
			buf[i] = q->ring[(pos + i) % ring_dw];
		if (!(q->sdma ? sdma_exec(q, buf) : pm4_exec(q, buf, len, 0))) {
			bad_opcode(q);
			return progressed;
		}
		if (stopping(q))
			return progressed;
		__atomic_store_n(&q->consumed, q->consumed + len, __ATOMIC_RELEASE);
		publish_rptr(q);
		progressed = true;
	}
}

/* The doorbell word the engine sleeps on: its low 32 bits (little-endian:
 * the first four bytes of a 64-bit doorbell). A doorbell write through
 * kfdsig_kfd_queue_submit() stores the word and FUTEX_WAKEs it (a shared
 * futex: the caller's mapping and the engine's are the same memfd page),
 * as a hardware doorbell write wakes the CP from its idle loop. */
static uint32_t *doorbell_word(struct emu_queue *q)
{
	return (uint32_t *)q->doorbell;
}

/* Fallback for clients that only store into the doorbell page (no wake):
 * the engine also looks at the doorbell after a bounded sleep, 200 us for
 * the first EMU_DB_FAST_ROUNDS idle rounds after work, then 1 ms. */
#define EMU_DB_FAST_NS 200000L
#define EMU_DB_SLOW_NS 1000000L
#define EMU_DB_FAST_ROUNDS 25

/* The fallback periods, ns (tests lengthen them to see that a submit's wake
 * alone runs the queue). */
static long db_fast_ns = EMU_DB_FAST_NS, db_slow_ns = EMU_DB_SLOW_NS;

void emu_engine_set_fallback(long fast_ns, long slow_ns)
{
	__atomic_store_n(&db_fast_ns, fast_ns > 0 ? fast_ns : EMU_DB_FAST_NS, __ATOMIC_RELAXED);
	__atomic_store_n(&db_slow_ns, slow_ns > 0 ? slow_ns : EMU_DB_SLOW_NS, __ATOMIC_RELAXED);
}

static void *engine_main(void *arg)
{
	struct emu_queue *q = arg;
	unsigned idle = 0;

	while (!__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE)) {
		long ns = __atomic_load_n(&db_slow_ns, __ATOMIC_RELAXED);
		struct timespec ts;
		uint32_t snap;

		if (!__atomic_load_n(&q->halted, __ATOMIC_ACQUIRE) && run(q)) {
			idle = 0;
			continue;
		}
		/* Snapshot, then look once more: a doorbell write after the
		 * snapshot changes the word and FUTEX_WAIT returns at once. */
		snap = __atomic_load_n(doorbell_word(q), __ATOMIC_ACQUIRE);
		if (!__atomic_load_n(&q->halted, __ATOMIC_ACQUIRE) && pending(q, doorbell_value(q)))
			continue;
		if (++idle <= EMU_DB_FAST_ROUNDS)
			ns = __atomic_load_n(&db_fast_ns, __ATOMIC_RELAXED);
		ts.tv_sec = ns / 1000000000L;
		ts.tv_nsec = ns % 1000000000L;
		syscall(SYS_futex, doorbell_word(q), FUTEX_WAIT, snap, &ts, NULL, 0);
		__atomic_fetch_add(&q->idle_wakeups, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int emu_engine_start(struct emu_queue *q)
{
	int r = pthread_create(&q->thread, NULL, engine_main, q);
	return r ? -r : 0;
}

void emu_engine_stop(struct emu_queue *q)
{
	__atomic_store_n(&q->stop, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, doorbell_word(q), FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	pthread_join(q->thread, NULL);
}
