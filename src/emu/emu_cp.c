/* SPDX-License-Identifier: MIT */
/*
 * The emulated CP (compute queues' PM4 packets), written from vid.h,
 * soc15d.h, nvd.h and the gfx_v*_0.c ring emitters, never kfdsig's
 * emitters or decoder. DISPATCH_DIRECT hands a wave to the emulated shader
 * unit (emu/sq), as does an AQL kernel dispatch (emu_aql.c).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <kfdsig/debug.h>

#include "emu/emu_debug.h"
#include "emu/emu_engine.h"
#include "emu/emu_gc12_1.h"

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
/* User-queue packets (Mesa sid.h PKT3_PROTECTED_FENCE_SIGNAL,
 * PKT3_FENCE_WAIT_MULTI; nvd.h PACKET3_HDP_FLUSH); the emulated CP takes
 * them on render-node user queues only. */
#define OP_HDP_FLUSH 0x95
#define OP_PROTECTED_FENCE_SIGNAL 0xd0
#define OP_FENCE_WAIT_MULTI 0xd1
/* FENCE_WAIT_MULTI entries the MEC takes in one packet on the emulated
 * user-queue targets (GC 11.0.0/2/3 and 12.0.x, all with dedicated VRAM:
 * Mesa amdgpu_cs.cpp amdgpu_cs_add_userq_packets() and IGT
 * amdgpu_fwm_test() write up to 32 there). What the firmware does with
 * more is UNVERIFIED: the queue halts. */
#define FWM_MAX_ENTRIES 32
/* PRED_EXEC (soc15d.h PACKET3_PRED_EXEC 0x23): dword 1 is the XCC mask
 * [31:24] and the count of dwords it predicates [13:0] (tinygrad
 * ops_amd.py pred_exec(): PACKET3(PRED_EXEC, 0), xcc_mask << 24 | count;
 * the count's width is UNVERIFIED, 14 bits is the PM4 count field's). */
#define OP_PRED_EXEC 0x23
#define PRED_XCC_MASK(d) ((d) >> 24)
#define PRED_COUNT(d) ((d)&0x3fff)

/* Length in dwords of the packet whose header is @h, 0 for none we know. */
uint32_t emu_pm4_len(uint32_t h)
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

bool emu_pm4_is_nop(uint32_t h)
{
	return HDR_TYPE(h) == 3 && HDR_OP(h) == OP_NOP;
}

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
			if (!emu_engine_store32(q, addr & ~3ull, (uint32_t)data))
				return true;
			break;
		case 2:
			if (!emu_engine_store64(q, addr & ~7ull, data))
				return true;
			break;
		case 3: /* send_gpu_clock_counter: the GET_CLOCK_COUNTERS clock */
			if (!emu_engine_store64(q, addr & ~7ull, emu_gpu_clock(q->g)))
				return true;
			break;
		case 4: /* perf / system counter */
			if (!emu_engine_store64(q, addr & ~7ull, emu_engine_now_ns()))
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
		emu_engine_irq(q, KFDSIG_EMU_IRQ_CP_EOP, ctx);
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
	if (data_sel == 1 && !emu_engine_store32(q, addr & ~3ull, (uint32_t)data))
		return true;
	if (data_sel == 2 && !emu_engine_store64(q, addr & ~7ull, data))
		return true;
	if (data_sel == 3 && !emu_engine_store64(q, addr & ~7ull, emu_gpu_clock(q->g)))
		return true;
	if (data_sel == 4 && !emu_engine_store64(q, addr & ~7ull, emu_engine_now_ns()))
		return true;
	if (int_sel == 1 || int_sel == 2)
		emu_engine_irq(q, KFDSIG_EMU_IRQ_CP_EOP, (uint32_t)data & 0x0fffffff);
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
		if (!emu_engine_store32(q, one_addr ? addr : addr + 4ull * (i - 4), d[i]))
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
		emu_engine_poll(q, (d[2] & ~3u) | (uint64_t)d[3] << 32, d[1] & 7, d[4], d[5]);
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
	ib = emu_engine_mem(q, base, (uint64_t)ndw * 4);
	if (!ib)
		return true;
	while (pos < ndw && !emu_engine_stopping(q)) {
		uint32_t l = emu_pm4_len(ib[pos]);
		if (!l || pos + l > ndw || l > EMU_MAX_PKT) {
			emu_engine_bad_opcode(q);
			return true;
		}
		/* PRED_EXEC in an IB: the next PRED_COUNT dwords run only on
		 * the XCCs of the mask (logical ids in the node). */
		if (HDR_TYPE(ib[pos]) == 3 && HDR_OP(ib[pos]) == OP_PRED_EXEC) {
			uint32_t skip = PRED_COUNT(ib[pos + 1]);

			if (l != 2 || pos + l + skip > ndw)
				return false;
			pos += l;
			if (!(PRED_XCC_MASK(ib[pos - 1]) >> q->xcc & 1))
				pos += skip;
			continue;
		}
		if (!emu_pm4_exec(q, ib + pos, l, depth + 1))
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

/* DISPATCH_DIRECT: the kernel interpreter (emu_kernel.c). A family the
 * shader unit does not decode (no ISA for it in LLVM 22: gfx1170,
 * gfx1171): the waves' illegal-instruction exception, never a dispatch
 * pretended done. */
static bool dispatch_direct(struct emu_queue *q, const uint32_t *d, uint32_t len)
{
	int k;

	if (len != 5)
		return false;
	k = emu_kernel_pm4(q, d);
	if (k)
		return k > 0;
	if (!d[1] || !d[2] || !d[3])
		return false;
	emu_cp_wave_exception(q, KFDSIG_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION);
	return true;
}

bool emu_cp_run_ib(struct emu_queue *q, uint64_t va, uint32_t ndw)
{
	const uint32_t ib[4] = { 3u << 30 | 2u << 16 | OP_INDIRECT_BUFFER << 8, (uint32_t)va,
				 (uint32_t)(va >> 32), ndw };

	return indirect_buffer(q, ib, 4, 0);
}

/* PROTECTED_FENCE_SIGNAL (header and one dword): the CP writes its
 * position after the packet (the ring's dword write pointer, 64-bit,
 * monotonic) to the queue's fence address from the MQD, which is the
 * kernel's seq64 slot (mes_userqueue.c mes_userq_mqd_create():
 * fence_address = fence_drv->gpu_addr), then raises the end-of-pipe
 * interrupt with the queue's doorbell index. In an IB, or on a queue
 * without a fence address (a KFD queue), UNVERIFIED: not accepted. */
static bool protected_fence_signal(struct emu_queue *q, uint32_t len, int depth)
{
	if (!q->fdrv || depth || len != 2)
		return false;
	emu_fence_drv_write(q->fdrv, q->fetched);
	emu_engine_irq(q, KFDSIG_EMU_IRQ_CP_EOP, q->userq_doorbell);
	return true;
}

/* FENCE_WAIT_MULTI: header, control, then per entry the address (lo, hi)
 * and the 64-bit value (lo, hi) (Mesa amdgpu_cs.cpp
 * amdgpu_cs_add_userq_packets()); the CP waits until each 64-bit word
 * holds at least its value. A seq64 slot is read through the kernel's
 * read-only mapping, other addresses through the VM. */
static bool fence_wait_multi(struct emu_queue *q, const uint32_t *d, uint32_t len)
{
	uint32_t n = (len - 2) / 4;

	if (!q->fdrv || len < 6 || (len - 2) % 4 || n > FWM_MAX_ENTRIES)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t *e = d + 2 + 4 * i;
		uint64_t va = e[0] | (uint64_t)e[1] << 32, want = e[2] | (uint64_t)e[3] << 32;
		const uint64_t *p = emu_seq64_ptr(q->g, va);

		if (!p && emu_seq64_contains(va)) {
			emu_engine_vm_fault(q, va); /* a free slot: no mapping */
			return true;
		}
		if (!p && !(p = emu_engine_mem(q, va & ~7ull, 8)))
			return true;
		while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < want) {
			if (emu_engine_stopping(q))
				return true;
			if (!emu_queue_may_fetch(q)) {
				q->preempted = true;
				return true;
			}
			usleep(20);
		}
	}
	return true;
}

/* The graphics pipe (ME) of a GFX user queue runs what the userq fence
 * path writes (Mesa amdgpu_cs.cpp amdgpu_cs_add_userq_packets(): waits,
 * HDP_FLUSH, the IB, the trailer; gfx_v11_0.c / gfx_v12_0.c ring
 * emitters: WRITE_DATA, WAIT_REG_MEM, EVENT_WRITE, ACQUIRE_MEM). Draws,
 * context and shader state are real packets there that the emulator does
 * not run: the queue stops on them as on a bad opcode, and its fences
 * come back through the hang detection's reset (-ECANCELED), never as
 * done. */
static bool gfx_pipe_takes(uint32_t op)
{
	switch (op) {
	case OP_NOP:
	case OP_WRITE_DATA:
	case OP_WAIT_REG_MEM:
	case OP_INDIRECT_BUFFER:
	case OP_EVENT_WRITE:
	case OP_RELEASE_MEM:
	case OP_ACQUIRE_MEM:
	case OP_HDP_FLUSH:
	case OP_PROTECTED_FENCE_SIGNAL:
	case OP_FENCE_WAIT_MULTI:
		return true;
	default:
		return false;
	}
}

/* Execute one packet; false for a packet the CP would not accept. */
bool emu_pm4_exec(struct emu_queue *q, const uint32_t *pkt, uint32_t len, int depth)
{
	if (HDR_TYPE(pkt[0]) == 2)
		return true;
	if (q->userq_gfx && !gfx_pipe_takes(HDR_OP(pkt[0])))
		return false;
	if (emu_gc121_opcode_removed(&q->g->gen, HDR_OP(pkt[0])))
		return false;
	switch (HDR_OP(pkt[0])) {
	case OP_PRED_EXEC:
		/* In a ring (an IB handles it itself, indirect_buffer()): no
		 * predicate, the packets after it run on every XCC. tinygrad
		 * ops_amd.py _submit(): "PACKET3_PRED_EXEC doesn't work in
		 * rings, only in IBs"; what the CP does with it there is
		 * UNVERIFIED, the emulator shows the duplicate it leaves. */
		return len == 2;
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
	case OP_HDP_FLUSH: /* no host data path to flush here */
		return q->fdrv != NULL && len == 2;
	case OP_PROTECTED_FENCE_SIGNAL:
		return protected_fence_signal(q, len, depth);
	case OP_FENCE_WAIT_MULTI:
		return fence_wait_multi(q, pkt, len);
	default:
		return false;
	}
}
