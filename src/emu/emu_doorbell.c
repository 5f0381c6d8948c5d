/* SPDX-License-Identifier: MIT */
/*
 * The engine loop of a user queue: one thread per queue watches its
 * doorbell (the doorbell memory itself, so a client writing the mapped
 * page directly is seen as promptly as one going through the seam), runs
 * the ring from the read pointer to the doorbell's write pointer through
 * the CP (emu_cp.c), the SDMA engine (emu_sdma.c) or the AQL packet
 * processor (emu_aql.c) and updates the read pointer.
 *
 * Pointer conventions (kfdtest BaseQueue::PlacePacket, kfd_mqd_manager_vi.c / _v9.c; *_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp; kfd_doorbell.c, kfd_chardev.c kfd_ioctl_create_queue()): the doorbell carries the
 * write pointer, PM4 in dwords, SDMA in bytes; 64-bit and monotonic from
 * gfx9, 32-bit and wrapped on gfx8. The engine reports its read pointer as
 * a 32-bit wrapped dword offset for PM4 and in bytes for SDMA (64-bit
 * monotonic from gfx9, 32-bit wrapped on gfx8).
 */
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_debug.h"
#include "emu/emu_engine.h"

/* Fallback for clients that only store into the doorbell page (no wake):
 * the engine also looks at the doorbell after a bounded sleep, 200 us for
 * the first EMU_DB_FAST_ROUNDS idle rounds after work, then 1 ms. */
#define EMU_DB_FAST_NS 200000L
#define EMU_DB_SLOW_NS 1000000L
#define EMU_DB_FAST_ROUNDS 25

/* The fallback periods, ns (tests lengthen them to see that a submit's wake
 * alone runs the queue). */
static long db_fast_ns = EMU_DB_FAST_NS, db_slow_ns = EMU_DB_SLOW_NS;

static uint64_t doorbell_value(struct emu_queue *q)
{
	if (q->g->gen.doorbell_size == 8)
		return __atomic_load_n((volatile uint64_t *)q->doorbell, __ATOMIC_ACQUIRE);
	return __atomic_load_n((volatile uint32_t *)q->doorbell, __ATOMIC_ACQUIRE);
}

/* The read pointer at the engine's position (emu_engine_publish_rptr()). */
static void publish_rptr(struct emu_queue *q)
{
	emu_engine_publish_rptr(q, q->consumed);
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

/*
 * A PM4 ring on a multi-XCC node (the v9_4_3 class): the kernel installs
 * the ring, pointers and doorbell in the MQD of each XCC
 * (kfd_mqd_manager_v9.c init_mqd_v9_4_3(), load_mqd_v9_4_3() loads each),
 * so each XCC's CP reads and runs the same packets (tinygrad ops_amd.py
 * keeps its XCCs in step with xcc_barrier() and predicates its signal to
 * XCC 0). The emulator runs the window of whole packets the doorbell
 * shows packet by packet in lockstep: a packet on XCC 0, 1, ... (q->xcc
 * tells the CP which XCC it is, for PRED_EXEC and the interrupts' node
 * ids), then the interrupts the XCCs raised in it (held by
 * emu_engine_irq()), then the next packet; the engine's position moves at
 * the end of the window. N slot writes land before the first of the N IH
 * entries is handled, as with the concurrent XCCs and the deferred IH
 * handling of the hardware: kfd_signal_event_interrupt() sets the event
 * once and finds the slot acknowledged for the others
 * (docs/multi-xcc.md). The reported read pointer passes a packet once it
 * has run on every XCC, before its interrupts are handled (the CP fetches
 * a packet before its end-of-pipe interrupt: a waiter that refills the
 * ring on the wake-up sees the space). A debugger's suspend stops at an XCC's packet
 * boundary (the held entries are handled then); resume goes on from there
 * (the window state lives in the queue).
 */
static bool run_xcc(struct emu_queue *q)
{
	uint32_t ring_dw = q->ring_size / 4, buf[EMU_MAX_PKT];
	bool progressed = false;

	if (emu_engine_stopping(q) || !emu_queue_may_fetch(q))
		return false;
	if (!q->win) {
		uint64_t avail = pending(q, doorbell_value(q)), end = q->consumed;

		while (end - q->consumed < avail) {
			uint32_t h = q->ring[end % ring_dw], len = emu_pm4_len(h);

			if (!len || (len > EMU_MAX_PKT && !emu_pm4_is_nop(h))) {
				if (end == q->consumed)
					emu_engine_bad_opcode(q);
				break;
			}
			if (end - q->consumed + len > avail)
				break; /* the rest is not submitted yet */
			end += len;
		}
		if (end == q->consumed)
			return false;
		q->win = true;
		q->win_x = 0;
		q->win_pos = q->consumed;
		q->win_end = end;
	}
	while (q->win_pos < q->win_end) {
		uint32_t h = q->ring[q->win_pos % ring_dw], len = emu_pm4_len(h);

		for (; q->win_x < q->g->ring_xcc; q->win_x++) {
			q->xcc = q->win_x;
			/* suspended by the debugger: this XCC stops at this
			 * packet boundary and goes on from it at resume */
			if (emu_engine_stopping(q) || !emu_queue_may_fetch(q))
				goto out;
			/* a NOP's body is never read (it may be the in-ring IB
			 * of a multi-XCC submission, kfd_queue.c copy_pm4()) */
			if (emu_pm4_is_nop(h))
				continue;
			for (uint32_t i = 0; i < len; i++)
				buf[i] = q->ring[(q->win_pos + i) % ring_dw];
			if (!emu_pm4_exec(q, buf, len, 0)) {
				emu_engine_bad_opcode(q);
				goto out;
			}
			if (emu_engine_stopping(q))
				goto out;
			if (q->preempted) { /* a poll given up: run it again */
				q->preempted = false;
				goto out;
			}
		}
		/* the packet has run on every XCC: the read pointer past it,
		 * then their interrupts (the CP fetches a packet before its
		 * end-of-pipe interrupt, emu_engine_publish_fetched()) */
		emu_engine_publish_rptr(q, q->win_pos + len);
		emu_engine_irq_flush(q);
		q->win_x = 0;
		q->win_pos += len;
		progressed = true;
	}
	q->win = false;
	__atomic_store_n(&q->consumed, q->win_end, __ATOMIC_RELEASE);
	publish_rptr(q);
	progressed = true;
out:
	q->xcc = 0;
	emu_engine_irq_flush(q);
	return progressed;
}

/* Run what the doorbell says is there; true when something ran. */
static bool run(struct emu_queue *q)
{
	uint32_t ring_dw = q->ring_size / 4, buf[EMU_MAX_PKT];
	bool progressed = false;

	if (q->aql)
		return emu_aql_run(q);
	if (!q->sdma && q->g->ring_xcc > 1)
		return run_xcc(q);
	for (;;) {
		uint64_t avail = pending(q, doorbell_value(q));
		uint32_t pos = (uint32_t)(q->consumed % ring_dw), len, head[4];

		/* suspended by the debugger: stop at this packet boundary */
		if (!avail || emu_engine_stopping(q) || !emu_queue_may_fetch(q))
			return progressed;
		for (uint32_t i = 0; i < 4; i++)
			head[i] = q->ring[(pos + i) % ring_dw];
		len = q->sdma ? emu_sdma_len(q, head, (uint32_t)(avail < 4 ? avail : 4))
			      : emu_pm4_len(head[0]);
		if (len == 0xffffffff)
			return progressed; /* header incomplete */
		/* A NOP's body is never read: it may be longer than any packet
		 * the engine copies. */
		if (!q->sdma && emu_pm4_is_nop(head[0])) {
			if (len > avail)
				return progressed; /* the rest is not submitted yet */
			__atomic_store_n(&q->consumed, q->consumed + len, __ATOMIC_RELEASE);
			publish_rptr(q);
			progressed = true;
			continue;
		}
		if (!len || len > EMU_MAX_PKT) {
			emu_engine_bad_opcode(q);
			return progressed;
		}
		if (len > avail)
			return progressed; /* the rest is not submitted yet */
		for (uint32_t i = 0; i < len; i++)
			buf[i] = q->ring[(pos + i) % ring_dw];
		q->fetched = q->consumed + len;
		if (!(q->sdma ? emu_sdma_exec(q, buf) : emu_pm4_exec(q, buf, len, 0))) {
			emu_engine_bad_opcode(q);
			return progressed;
		}
		if (emu_engine_stopping(q))
			return progressed;
		if (q->preempted) { /* a preempted poll: not consumed */
			q->preempted = false;
			return progressed;
		}
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

void emu_engine_set_fallback(long fast_ns, long slow_ns)
{
	__atomic_store_n(&db_fast_ns, fast_ns > 0 ? fast_ns : EMU_DB_FAST_NS, __ATOMIC_RELAXED);
	__atomic_store_n(&db_slow_ns, slow_ns > 0 ? slow_ns : EMU_DB_SLOW_NS, __ATOMIC_RELAXED);
}

/* How long an engine looks at its doorbell after work before it sleeps. */
#define EMU_DB_SPIN_NS 100000L

/* True when work came in while spinning. Yielding first: a packet that
 * waits (an AQL barrier's signals, the runtime's scratch allocation) keeps
 * work pending, and the engine looks again at once only after the threads
 * that would end the wait have had the CPU. */
static bool spin(struct emu_queue *q)
{
	uint64_t end = emu_engine_now_ns() + EMU_DB_SPIN_NS;

	while (emu_engine_now_ns() < end) {
		sched_yield();
		if (__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&q->halted, __ATOMIC_ACQUIRE))
			return false;
		if (pending(q, doorbell_value(q)))
			return true;
	}
	return false;
}

static void *engine_main(void *arg)
{
	struct emu_queue *q = arg;
	unsigned idle = 0;

	while (!__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE)) {
		long ns = __atomic_load_n(&db_slow_ns, __ATOMIC_RELAXED);
		struct timespec ts;
		uint32_t snap;

		/* DBG_TRAP SUSPEND_QUEUES: park (run() stops at a packet
		 * boundary) and say so; sleep until resumed */
		if (!emu_queue_may_fetch(q)) {
			snap = __atomic_load_n(doorbell_word(q), __ATOMIC_ACQUIRE);
			__atomic_store_n(&q->parked, true, __ATOMIC_RELEASE);
			if (!emu_queue_may_fetch(q)) {
				ts.tv_sec = 0;
				ts.tv_nsec = db_slow_ns;
				syscall(SYS_futex, doorbell_word(q), FUTEX_WAIT, snap, &ts, NULL,
					0);
			}
			continue;
		}
		__atomic_store_n(&q->parked, false, __ATOMIC_RELEASE);
		__atomic_store_n(&q->running, true, __ATOMIC_RELEASE);
		if (!__atomic_load_n(&q->halted, __ATOMIC_ACQUIRE) && run(q)) {
			__atomic_store_n(&q->running, false, __ATOMIC_RELEASE);
			idle = 0;
			continue;
		}
		__atomic_store_n(&q->running, false, __ATOMIC_RELEASE);
		/* Right after work, look at the doorbell for a while before
		 * sleeping, as the CP polls its queues: waking a thread that
		 * sleeps on another (virtual) CPU costs tens of microseconds,
		 * more than the work itself. Yielding, so that the spin never
		 * holds a CPU someone else wants. */
		if (idle == 0 && spin(q))
			continue;
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

/* Could the engine still do something without the program: it is taking
 * packets (a wave may be running), or has packets it may fetch (a PM4
 * WAIT_REG_MEM or an AQL barrier waiting for memory counts), or is
 * suspended by a debugger, who may resume it. A halted queue never runs
 * again; an inactive one waits for the program's UPDATE_QUEUE. */
bool emu_engine_busy(struct emu_queue *q)
{
	if (__atomic_load_n(&q->running, __ATOMIC_ACQUIRE))
		return true;
	if (__atomic_load_n(&q->halted, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&q->inactive, __ATOMIC_ACQUIRE) || !q->ring_size)
		return false;
	return __atomic_load_n(&q->suspended, __ATOMIC_ACQUIRE) ||
	       pending(q, doorbell_value(q)) != 0;
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
