/* SPDX-License-Identifier: MIT */
/*
 * The emulated CP's AQL packet processor, one per AQL queue (run on the
 * queue's engine thread). Its own reading of the layouts (HSA Platform
 * System Architecture Specification 1.2, sections 2.8-2.9; ROCR-Runtime
 * hsa.h, amd_hsa_signal.h, amd_aql_queue.cpp), never kfdsig's builders:
 *
 *  - the ring is 64-byte slots; the packet processor starts the slot at its
 *    read index once its header type is not INVALID and the 64-bit doorbell
 *    has reached that index (ROCr's AqlQueue rings it with the index of the
 *    last packet written; a doorbell one past it, as some runtimes write,
 *    works too), and processes in order; after a packet completes it sets
 *    the slot back to INVALID and publishes the 64-bit read index (packets)
 *    in the read pointer memory (emulator choice: the CP's own bookkeeping
 *    of the slot is UNVERIFIED);
 *  - BARRIER_AND waits until every non-zero dependency signal's value is 0,
 *    BARRIER_OR until one is (or there is none); the barrier bit needs no
 *    extra wait here, packets complete in order;
 *  - KERNEL_DISPATCH: the kernel descriptor at kernel_object (LLVM
 *    AMDGPUUsage "Kernel Descriptor": kernel_code_entry_byte_offset at 16,
 *    kernel_code_properties at 56) gives the entry and the user SGPRs the
 *    waves get, in the documented order: private segment buffer (4, zero
 *    here: no scratch), dispatch ptr (this packet's address), queue ptr
 *    (0: the emulator has no amd_queue_t), kernarg segment ptr, dispatch id
 *    (the read index), flat scratch init (2, zero), private segment size;
 *    one wave per workgroup on the emulated shader unit (small grids only);
 *  - VENDOR_SPECIFIC of format AMD_AQL_FORMAT_PM4_IB (1): the PM4
 *    INDIRECT_BUFFER in the slot runs on the emulated CP;
 *  - completion: the signal's value (int64 at +8) is decremented
 *    atomically; when event_mailbox_ptr (+16) is non-zero, event_id (+24)
 *    is stored there and an end-of-pipe interrupt with context id
 *    event_id goes through the GPU's ISR rules. The width of the mailbox
 *    store is UNVERIFIED: emulator choice 32 bits, the field's width (the
 *    slot then reads 0xffffffff_<id>, which the kernel also counts as
 *    signalled); start_ts (+32) and end_ts (+40) take the GPU clock when
 *    the packet starts and completes (emulator choice: always, where the
 *    CP may do so only for profiled queues, UNVERIFIED);
 *  - AGENT_DISPATCH, a type above 5, a reserved fence scope or another
 *    vendor format: the invalid-packet queue error (the queue stops).
 */
#include <stdint.h>
#include <string.h>

#include <kfdsig/aql.h>
#include <kfdsig/debug.h>

#include "emu/emu_debug.h"
#include "emu/emu_engine.h"

#define SLOT_DW (KFDSIG_AQL_PACKET_SIZE / 4)
/* HSA packet types and the vendor format (hsa.h, amd_aql_queue.cpp) */
#define T_VENDOR 0u
#define T_INVALID 1u
#define T_DISPATCH 2u
#define T_BARRIER_AND 3u
#define T_BARRIER_OR 5u
#define FORMAT_PM4_IB 1u

static uint32_t *slot(struct emu_queue *q, uint64_t index)
{
	return q->ring + (index % emu_aql_slots(q)) * SLOT_DW;
}

/*
 * Has the doorbell reached the packet at the engine's position?
 *
 * 8-byte doorbells (SOC15): the 64-bit packet index, monotonic.
 *
 * 4-byte doorbells (gfx7/8, kfd_doorbell.c: doorbell_size 4 before
 * SOC15): the low 32 bits of the write position, one past the last
 * packet (ROCr amd_aql_queue.cpp AqlQueue::StoreRelaxed(): legacy_dispatch_id
 * = the packet index + 1), in the form of the node's doorbell type
 * (emu_gen_node_caps(), HSA_CAP_DOORBELL_TYPE):
 *   type 0 (Kaveri, Hawaii, Tonga): wrapped to the doubled ring and in
 *     dwords, (index & (2 * slots - 1)) * 16;
 *   type 1 (Carrizo, Fiji, Polaris): the packet index's low 32 bits.
 * The CP keeps its write pointer in dwords of the doubled ring
 * (kfd_mqd_manager_vi.c load_mqd(): AQL pointers in 64-byte packets,
 * wptr_shift 4, wptr_mask queue_size / 4 - 1; __update_mqd():
 * cp_hqd_pq_control QUEUE_SIZE order_base_2(queue_size / 4) - 1 and
 * SLOT_BASED_WPTR 2), so both forms come down to the packet position
 * modulo twice the slots: packets are pending while it differs from the
 * engine's, and the doubled ring tells a full ring (slots ahead) from an
 * empty one. A doorbell more than slots ahead is not a position ROCr
 * writes (it clamps to read index + size); emulator choice (the CP's
 * behaviour UNVERIFIED): the engine still runs only slots whose header
 * is valid, in order, as it does for any doorbell.
 */
static bool rung(struct emu_queue *q)
{
	uint32_t db, wp, span;

	if (q->g->gen.doorbell_size == 8)
		return q->consumed <=
		       __atomic_load_n((volatile uint64_t *)q->doorbell, __ATOMIC_ACQUIRE);
	db = __atomic_load_n((volatile uint32_t *)q->doorbell, __ATOMIC_ACQUIRE);
	wp = ((emu_gen_node_caps(&q->g->gen) >> 12) & 3u) == 0 ? db / SLOT_DW : db;
	span = 2 * emu_aql_slots(q);
	return ((wp - (uint32_t)q->consumed) & (span - 1)) != 0;
}

bool emu_aql_pending(struct emu_queue *q)
{
	uint32_t h;

	if (!emu_aql_slots(q) || !rung(q))
		return false; /* published but not rung yet */
	h = __atomic_load_n(slot(q, q->consumed), __ATOMIC_ACQUIRE);
	return (h & 0xffu) != T_INVALID;
}

static int64_t signal_value(struct emu_queue *q, uint64_t va, bool *ok)
{
	int64_t *p = emu_engine_mem(q, va + 8, 8);

	*ok = p != NULL;
	return p ? __atomic_load_n(p, __ATOMIC_ACQUIRE) : 0;
}

/* true: the barrier may complete; *ok false after a fault */
static bool barrier_ready(struct emu_queue *q, const uint32_t *d, bool any, bool *ok)
{
	unsigned int deps = 0, zero = 0;

	*ok = true;
	for (unsigned int i = 0; i < 5; i++) {
		uint64_t va = d[2 + 2 * i] | (uint64_t)d[3 + 2 * i] << 32;

		if (!va)
			continue;
		deps++;
		if (signal_value(q, va, ok) == 0)
			zero++;
		if (!*ok)
			return false;
	}
	return any ? (deps == 0 || zero > 0) : zero == deps;
}

/* The completion signal: timestamps, decrement, mailbox store, interrupt. */
static bool complete(struct emu_queue *q, uint64_t va, uint64_t start)
{
	uint8_t *s;
	uint64_t mailbox;
	uint32_t id;

	if (!va)
		return true;
	s = emu_engine_mem(q, va, 48);
	if (!s)
		return false;
	__atomic_store_n((uint64_t *)(void *)(s + 32), start, __ATOMIC_RELAXED);
	__atomic_store_n((uint64_t *)(void *)(s + 40), emu_gpu_clock(q->g), __ATOMIC_RELAXED);
	__atomic_fetch_sub((int64_t *)(void *)(s + 8), 1, __ATOMIC_ACQ_REL);
	mailbox = __atomic_load_n((uint64_t *)(void *)(s + 16), __ATOMIC_ACQUIRE);
	id = __atomic_load_n((uint32_t *)(void *)(s + 24), __ATOMIC_ACQUIRE);
	if (!mailbox)
		return true;
	{
		uint32_t *m = emu_engine_mem(q, mailbox & ~3ull, 4);

		if (!m)
			return false;
		__atomic_store_n(m, id, __ATOMIC_RELEASE);
	}
	emu_engine_irq(q, KFDSIG_EMU_IRQ_CP_EOP, id);
	return true;
}

enum step { STEP_DONE, STEP_WAIT, STEP_BAD, STEP_FAULT };

static enum step dispatch(struct emu_queue *q, const uint32_t *d)
{
	uint64_t kobj = d[8] | (uint64_t)d[9] << 32;
	uint32_t dims = d[0] >> 16 & 3u;

	if (!dims || !kobj || kobj % 64)
		return STEP_BAD;
	{
		/* compiled kernels: the kernel interpreter (emu_kernel.c) */
		int k = emu_kernel_aql(q, d,
				       q->ring_va + (q->consumed % emu_aql_slots(q)) *
							    KFDSIG_AQL_PACKET_SIZE);

		if (k == -1)
			return STEP_BAD;
		if (k == -2)
			return STEP_FAULT;
		if (k == 2)
			return STEP_WAIT; /* the runtime is asked for scratch */
		if (k == 1)
			return emu_engine_stopping(q) ? STEP_FAULT : STEP_DONE;
	}
	for (uint32_t i = 0; i < 3; i++) {
		uint32_t wg = i == 2 ? d[2] & 0xffffu : d[1] >> (16 * i) & 0xffffu;

		if (!wg || !d[3 + i])
			return STEP_BAD;
	}
	/* A family the shader unit does not decode (no ISA for it in LLVM
	 * 22: gfx1170, gfx1171): on a GPU the waves would execute; the
	 * emulator must never pretend they did, nor hang the program on a
	 * packet error a runtime without exception reporting never hears of
	 * (ROCr 5.2): the wave's illegal-instruction exception, which reaches
	 * such a runtime through its trap handler's queue error
	 * (emu_wave.c). */
	emu_cp_wave_exception(q, KFDSIG_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION);
	return STEP_FAULT;
}

static enum step exec(struct emu_queue *q, const uint32_t *d)
{
	uint32_t type = d[0] & 0xffu;
	uint64_t start = emu_gpu_clock(q->g);
	bool ok;

	if (((d[0] >> 9) & 3u) == 3u || ((d[0] >> 11) & 3u) == 3u)
		return STEP_BAD; /* reserved fence scope */
	switch (type) {
	case T_BARRIER_AND:
	case T_BARRIER_OR:
		if (!barrier_ready(q, d, type == T_BARRIER_OR, &ok))
			return ok ? STEP_WAIT : STEP_FAULT;
		break;
	case T_DISPATCH: {
		enum step st = dispatch(q, d);

		if (st != STEP_DONE)
			return st;
		break;
	}
	case T_VENDOR:
		/* d[1..4]: INDIRECT_BUFFER type-3 header, base lo, hi, size */
		if (d[0] >> 16 != FORMAT_PM4_IB || d[1] >> 30 != 3u ||
		    ((d[1] >> 8) & 0xffu) != 0x3f)
			return STEP_BAD;
		if (!emu_cp_run_ib(q, (d[2] & ~3u) | (uint64_t)(d[3] & 0xffffu) << 32,
				   d[4] & 0xfffffu))
			return emu_engine_stopping(q) ? STEP_FAULT : STEP_BAD;
		if (emu_engine_stopping(q)) /* the IB faulted or had a bad packet */
			return STEP_FAULT;
		break;
	default:
		return STEP_BAD;
	}
	return complete(q, d[14] | (uint64_t)d[15] << 32, start) ? STEP_DONE : STEP_FAULT;
}

bool emu_aql_run(struct emu_queue *q)
{
	bool progressed = false;

	while (!emu_engine_stopping(q) && emu_queue_may_fetch(q) && emu_aql_pending(q)) {
		uint32_t *s = slot(q, q->consumed), d[SLOT_DW];
		enum step st;

		for (unsigned int i = 0; i < SLOT_DW; i++)
			d[i] = __atomic_load_n(&s[i], __ATOMIC_ACQUIRE);
		q->fetched = q->consumed + 1;
		st = exec(q, d);
		if (st == STEP_WAIT || st == STEP_FAULT)
			return progressed;
		if (st == STEP_BAD) {
			emu_engine_bad_opcode(q);
			return progressed;
		}
		/* consumed: the slot is INVALID again, then the read index */
		__atomic_store_n(&s[0], (s[0] & ~0xffu) | T_INVALID, __ATOMIC_RELEASE);
		__atomic_store_n(&q->consumed, q->consumed + 1, __ATOMIC_RELEASE);
		if (q->rptr_room >= 8 && !((uintptr_t)q->rptr & 7))
			__atomic_store_n((uint64_t *)q->rptr, q->consumed, __ATOMIC_RELEASE);
		progressed = true;
	}
	return progressed;
}
