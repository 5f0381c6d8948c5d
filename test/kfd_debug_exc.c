/* SPDX-License-Identifier: MIT */
/*
 * Queue exceptions as KFD events (kfd_process.c
 * kfd_send_exception_to_runtime(), kfd_debug.c
 * kfd_set_dbg_ev_from_interrupt() / kfd_dbg_ev_raise()), on the emulated
 * KFD through the library:
 *  - the exception codes, masks and names against kfd_ioctl.h's values;
 *  - a bad packet on a runtime-enabled process ORs its bit into the word
 *    at the CWSR header's err_payload_addr and sets err_event_id's event,
 *    which wakes WAIT_EVENTS (bounded); without runtime enable nothing;
 *  - with a debugger subscribed the debugger gets it instead (a byte on
 *    dbg_fd, the queue's status, QUERY_DEBUG_EVENT naming the queue with its
 *    whole status (a pending exception that is not enabled too) and
 *    clearing what it reports) and forwards it with SEND_RUNTIME_EVENT;
 *  - a VM fault is a device memory violation with its data
 *    (QUERY_EXCEPTION_INFO), a destroyed queue EC_DEVICE_QUEUE_DELETE;
 *  - gfx8 (cik_event_interrupt.c) reports no exception;
 *  - a trap handler's PRIV interrupt (kfd_set_dbg_ev_from_interrupt() by
 *    doorbell id) goes to the debugger, else to the runtime, and is left
 *    to the event path when neither takes it.
 */
#define _GNU_SOURCE
#include <linux/kfd_ioctl.h>

#include "emu/emu_debug.h"
#include "kfd_debug_util.h"

/* kfd_ioctl.h enum kfd_dbg_trap_exception_code and KFD_EC_MASK_*, as
 * numbers written out by hand. */
static void test_codes(void)
{
	char buf[256];
	uint64_t m = 0;

	CHECK_EQ(KFDSIG_EC_QUEUE_WAVE_TRAP, 2, "EC_QUEUE_WAVE_TRAP");
	CHECK_EQ(KFDSIG_EC_QUEUE_PACKET_UNSUPPORTED, 20, "EC_QUEUE_PACKET_UNSUPPORTED");
	CHECK_EQ(KFDSIG_EC_DEVICE_MEMORY_VIOLATION, 33, "EC_DEVICE_MEMORY_VIOLATION");
	CHECK_EQ(KFDSIG_EC_PROCESS_RUNTIME, 48, "EC_PROCESS_RUNTIME");
	CHECK_EQ(KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_WAVE_TRAP), 0x2, "bit ec-1");
	CHECK_EQ(KFDSIG_EC_MASK_QUEUE, 0x607f803full, "queue codes 1-6, 16-23, 30, 31");
	CHECK_EQ(KFDSIG_EC_MASK_DEVICE, 0xf80000000ull, "device codes 32-36");
	CHECK_EQ(KFDSIG_EC_MASK_PROCESS, 0x1800000000000ull, "process codes 48, 49");

	CHECK(!strcmp(kfdsig_exc_name(2) ? kfdsig_exc_name(2) : "", "queue-wave-trap"), "name 2");
	CHECK(kfdsig_exc_name(7) == NULL && errno == EINVAL, "7 is no code");
	CHECK(kfdsig_exc_name(0) == NULL, "0 is no exception");
	CHECK_EQ(kfdsig_exc_by_name("queue-wave-trap"), 2, "by name");
	CHECK_EQ(kfdsig_exc_by_name("EC_QUEUE_WAVE_TRAP"), 2, "kernel spelling");
	CHECK_EQ(kfdsig_exc_by_name("48"), 48, "number");
	CHECK_EQ(kfdsig_exc_by_name("queue-wave"), -EINVAL, "a prefix is not a name");
	CHECK_EQ(kfdsig_exc_by_name("7"), -EINVAL, "no code 7");
	for (uint32_t ec = 1; ec < KFDSIG_EC_MAX; ec++) {
		const char *n = kfdsig_exc_name(ec);
		if (n)
			CHECK_EQ(kfdsig_exc_by_name(n), ec, "round trip %s", n);
	}
	CHECK(kfdsig_exc_mask_format(0x2 | (1ull << 6), buf, sizeof(buf)) > 0 &&
		      !strcmp(buf, "queue-wave-trap|bit-6"),
	      "format: %s", buf);
	CHECK(kfdsig_exc_mask_format(0, buf, sizeof(buf)) == 4 && !strcmp(buf, "none"), "none");
	CHECK_EQ(kfdsig_exc_mask_format(KFDSIG_EC_MASK_PROCESS, buf, 8),
		 strlen("process-runtime|process-device-remove"), "snprintf length when cut");
	CHECK(!strcmp(buf, "process"), "cut: %s", buf);
	CHECK(!kfdsig_exc_mask_parse("queue-wave-trap | device, 0x100", &m) &&
		      m == (0x2 | KFDSIG_EC_MASK_DEVICE | 0x100),
	      "parse: 0x%llx", (unsigned long long)m);
	CHECK(!kfdsig_exc_mask_parse("all", &m) &&
		      m == (KFDSIG_EC_MASK_QUEUE | KFDSIG_EC_MASK_DEVICE | KFDSIG_EC_MASK_PROCESS),
	      "all");
	CHECK_EQ(kfdsig_exc_mask_parse("queue-wave-trap|nonsense", &m), -EINVAL, "unknown word");
}

/* The runtime gets a bad packet's exception through its CWSR header. */
static void test_runtime_delivery(void)
{
	struct drig r;
	enum kfdsig_wait_result res;

	d_open(&r, "gfx90a");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0x1234, 0, NULL), 0, "runtime enable");
	d_queue(&r);
	/* a bit the runtime left there: KFD ORs (get_user, |=, put_user) */
	*(uint64_t *)r.mem->cpu = 1ull << 63;
	d_bad_packet(&r);
	CHECK(t_wait1(r.rt, r.ev.id, NULL, D_WAIT_MS, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "the err_event_id event wakes WAIT_EVENTS");
	CHECK_EQ(d_payload(&r), (1ull << 63) | KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_UNSUPPORTED),
		 "the exception bit OR'd into the payload word");
	d_close(&r);

	/* not runtime enabled: the kernel sends nothing to the runtime */
	d_open(&r, "gfx90a");
	d_queue(&r);
	d_bad_packet(&r);
	CHECK(d_halted(&r), "the queue stopped");
	CHECK(t_wait1(r.rt, r.ev.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "no event without runtime enable");
	CHECK_EQ(d_payload(&r), 0, "no payload without runtime enable");
	d_close(&r);

	/* gfx8: the CIK interrupt handler has no exception path */
	d_open(&r, "gfx803");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable on gfx8");
	d_queue(&r);
	d_bad_packet(&r);
	CHECK(d_halted(&r), "the gfx8 queue stopped");
	CHECK_EQ(d_payload(&r), 0, "gfx8 reports no queue exception");
	d_close(&r);
}

/* With a debugger subscribed, the debugger gets the exception, and hands
 * it on. */
static void test_debugger_delivery(void)
{
	struct drig r;
	struct kfdsig_dbg_event e;
	enum kfdsig_wait_result res;
	uint64_t pkt = KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_UNSUPPORTED);
	uint64_t qnew = KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_NEW);

	d_open(&r, "gfx90a");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, KFDSIG_EC_MASK_QUEUE | KFDSIG_EC_MASK_DEVICE,
				   r.dbgfd, NULL),
		 0, "debugger attaches: %s", kfdsig_last_error());
	/* EC_QUEUE_NEW left out of the enabled exceptions: pending on the
	 * queue, but it neither reaches dbg_fd nor makes the queue reported
	 * (kfd_dbg_ev_query_debug_event() looks for exception_status &
	 * exception_enable_mask) */
	CHECK_EQ(kfdsig_dbg_set_exceptions_enabled(
			 r.dbg, r.pid, (KFDSIG_EC_MASK_QUEUE | KFDSIG_EC_MASK_DEVICE) & ~qnew),
		 0, "enable all but EC_QUEUE_NEW");
	d_queue(&r);
	CHECK(d_quiet(&r), "EC_QUEUE_NEW not enabled: dbg_fd quiet");
	CHECK_EQ(kfdsig_dbg_query_event(r.dbg, r.pid, 0, &e), -EAGAIN,
		 "EC_QUEUE_NEW not enabled: its queue is not reported");

	d_bad_packet(&r);
	CHECK(d_halted(&r), "the queue stopped");
	CHECK(d_notified(&r), "the exception reaches dbg_fd");
	CHECK_EQ(d_payload(&r), 0, "the debugger took it: not sent to the runtime");
	CHECK(t_wait1(r.rt, r.ev.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "the runtime's event is not set");
	/* the report is the queue's whole status, the pending EC_QUEUE_NEW
	 * (not enabled) with it; query without clearing: reported again;
	 * then clear only the packet's bit */
	CHECK(!kfdsig_dbg_query_event(r.dbg, r.pid, 0, &e) && e.exceptions == (pkt | qnew) &&
		      e.source == KFDSIG_DBG_SOURCE_QUEUE &&
		      e.queue_id == (uint32_t)kfdsig_kfd_queue_id(r.q) && e.gpu_id == r.gpu,
	      "QUERY_DEBUG_EVENT names the queue and its whole status, the exception and "
	      "EC_QUEUE_NEW (0x%llx)",
	      (unsigned long long)e.exceptions);
	CHECK(!kfdsig_dbg_query_event(r.dbg, r.pid, pkt, &e) && e.exceptions == (pkt | qnew),
	      "still pending when not cleared");
	CHECK_EQ(kfdsig_dbg_query_event(r.dbg, r.pid, pkt, &e), -EAGAIN,
		 "QUERY cleared it; EC_QUEUE_NEW, still not enabled, is not reported");
	CHECK_EQ(kfdsig_dbg_set_exceptions_enabled(r.dbg, r.pid,
						   KFDSIG_EC_MASK_QUEUE | KFDSIG_EC_MASK_DEVICE),
		 0, "enable EC_QUEUE_NEW");
	CHECK(!kfdsig_dbg_query_event(r.dbg, r.pid, qnew, &e) && e.exceptions == qnew &&
		      e.queue_id == (uint32_t)kfdsig_kfd_queue_id(r.q) && e.gpu_id == r.gpu,
	      "enabled: QUERY_DEBUG_EVENT names the new queue");
	CHECK_EQ(kfdsig_dbg_query_event(r.dbg, r.pid, 0, &e), -EAGAIN, "cleared: nothing pending");
	/* the debugger forwards it to the runtime */
	CHECK_EQ(kfdsig_dbg_send_runtime_event(r.dbg, r.pid, pkt, r.gpu,
					       (uint32_t)kfdsig_kfd_queue_id(r.q)),
		 0, "SEND_RUNTIME_EVENT");
	CHECK(t_wait1(r.rt, r.ev.id, NULL, D_WAIT_MS, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "forwarded: the runtime's event wakes WAIT_EVENTS");
	CHECK_EQ(d_payload(&r), pkt, "forwarded: the payload bit");
	CHECK_EQ(kfdsig_dbg_send_runtime_event(r.dbg, r.pid, pkt, r.gpu, 31), -EINVAL,
		 "no queue 31");

	/* an unsubscribed exception is not written to dbg_fd */
	CHECK_EQ(kfdsig_dbg_set_exceptions_enabled(r.dbg, r.pid, KFDSIG_EC_MASK_PROCESS), 0,
		 "mask");
	CHECK_EQ(kfdsig_kfd_queue_destroy(r.q), 0, "destroy");
	r.q = NULL;
	CHECK(d_quiet(&r), "QUEUE_DELETE not subscribed: dbg_fd quiet");
	CHECK_EQ(kfdsig_dbg_set_exceptions_enabled(r.dbg, r.pid, KFDSIG_EC_MASK_DEVICE), 0, "mask");
	CHECK(!kfdsig_dbg_query_event(r.dbg, r.pid, KFDSIG_EC_MASK_DEVICE, &e) &&
		      e.source == KFDSIG_DBG_SOURCE_DEVICE && e.gpu_id == r.gpu &&
		      (e.exceptions & KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_QUEUE_DELETE)),
	      "the deleted queue is a device event (0x%llx)", (unsigned long long)e.exceptions);
	CHECK_EQ(kfdsig_dbg_disable(r.dbg, r.pid), 0, "detach");
	d_close(&r);
}

/* A VM fault of an engine: EC_DEVICE_MEMORY_VIOLATION with its data. */
static void test_vm_fault(void)
{
	struct drig r;
	struct kfdsig_dbg_event e;
	struct kfd_hsa_memory_exception_data md;
	uint32_t size = sizeof(md);
	/* WRITE_DATA (PACKET3 0x37) to an address no buffer backs */
	uint32_t d[5] = { (3u << 30) | (3u << 16) | (0x37u << 8), 5u << 8, 0x1000, 0x7f, 1 };

	d_open(&r, "gfx1100");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	d_queue(&r);
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, KFDSIG_EC_MASK_DEVICE, r.dbgfd, NULL), 0,
		 "attach");
	CHECK_EQ(kfdsig_kfd_queue_submit(r.q, d, 5, D_WAIT_MS), 0, "submit");
	CHECK(d_notified(&r), "the memory violation reaches dbg_fd");
	CHECK(!kfdsig_dbg_query_event(r.dbg, r.pid, 0, &e) && e.gpu_id == r.gpu &&
		      e.exceptions == KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_MEMORY_VIOLATION),
	      "a device event on the GPU (0x%llx)", (unsigned long long)e.exceptions);
	memset(&md, 0, sizeof(md));
	CHECK_EQ(kfdsig_dbg_query_exception_info(
			 r.dbg, r.pid, r.gpu, KFDSIG_EC_DEVICE_MEMORY_VIOLATION, true, &md, &size),
		 0, "QUERY_EXCEPTION_INFO");
	CHECK_EQ(size, sizeof(md), "the whole data");
	CHECK_EQ(md.va, 0x7f00001000ull, "the faulting page");
	CHECK_EQ(md.gpu_id, r.gpu, "the GPU");
	CHECK_EQ(md.failure.NotPresent, 1, "not present");
	size = sizeof(md);
	CHECK_EQ(kfdsig_dbg_query_exception_info(
			 r.dbg, r.pid, r.gpu, KFDSIG_EC_DEVICE_MEMORY_VIOLATION, true, &md, &size),
		 -ENODATA, "cleared by the first query");
	CHECK_EQ(kfdsig_dbg_query_event(r.dbg, r.pid, 0, &e), -EAGAIN, "nothing left");
	d_close(&r);
}

/* The trap handler's MSG_INTERRUPT with PRIV (emu_kernel.c message()):
 * kfd_set_dbg_ev_from_interrupt() with the doorbell id and code. */
static void test_priv_interrupt(void)
{
	const uint64_t trap = KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_WAVE_TRAP);
	struct kfdsig_dbg_event e;
	struct emu_queue *q = NULL;
	struct emu_proc *p;
	struct drig r;

	d_open(&r, "gfx90a");
	d_queue(&r);
	p = emu_proc_get(r.emu, t_pasid(r.emu, r.rt));
	T_REQUIRE(p, "the runtime's emulated process");
	for (q = p->queues; q && q->id != (uint32_t)kfdsig_kfd_queue_id(r.q); q = q->next)
		;
	T_REQUIRE(q, "its queue");
	CHECK(!emu_dbg_ev_from_interrupt(q, q->id, trap),
	      "no debugger, no runtime enable: left to the event path");
	CHECK_EQ(d_payload(&r), 0, "nothing in the payload word");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), -EEXIST, "a queue exists");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, trap, r.dbgfd, NULL), 0, "debugger attaches");
	CHECK(emu_dbg_ev_from_interrupt(q, q->id, trap),
	      "a debugger takes it, runtime enabled or not (kfd_dbg_ev_raise)");
	CHECK(!kfdsig_dbg_query_event(r.dbg, r.pid, trap, &e) && (e.exceptions & trap),
	      "QUERY_DEBUG_EVENT: the trap");
	kfdsig_dbg_disable(r.dbg, r.pid);
	emu_proc_put(p);
	d_close(&r);

	/* runtime enabled first, then the queue and the debugger */
	d_open(&r, "gfx90a");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	d_queue(&r);
	p = emu_proc_get(r.emu, t_pasid(r.emu, r.rt));
	T_REQUIRE(p, "the runtime's emulated process");
	for (q = p->queues; q && q->id != (uint32_t)kfdsig_kfd_queue_id(r.q); q = q->next)
		;
	T_REQUIRE(q, "its queue");
	CHECK(emu_dbg_ev_from_interrupt(q, q->id, trap), "runtime enabled: the runtime takes it");
	CHECK_EQ(d_payload(&r), trap, "EC_QUEUE_WAVE_TRAP in the queue's payload word");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, trap, r.dbgfd, NULL), 0, "debugger attaches");
	CHECK(emu_dbg_ev_from_interrupt(q, q->id, trap), "the debugger takes it");
	CHECK(d_notified(&r), "a byte on dbg_fd");
	CHECK(!kfdsig_dbg_query_event(r.dbg, r.pid, trap, &e) && (e.exceptions & trap) &&
		      e.source == KFDSIG_DBG_SOURCE_QUEUE &&
		      e.queue_id == (uint32_t)kfdsig_kfd_queue_id(r.q),
	      "QUERY_DEBUG_EVENT: the trap on the queue with that doorbell (0x%llx)",
	      (unsigned long long)e.exceptions);
	CHECK(emu_dbg_ev_from_interrupt(q, q->id + 7, trap), "another doorbell: still raised");
	CHECK_EQ(kfdsig_dbg_query_event(r.dbg, r.pid, trap, &e), -EAGAIN,
		 "but on no queue: nothing to report");
	kfdsig_dbg_disable(r.dbg, r.pid);
	emu_proc_put(p);
	d_close(&r);
}

int main(void)
{
	test_codes();
	test_runtime_delivery();
	test_debugger_delivery();
	test_vm_fault();
	test_priv_interrupt();
	return t_result("kfd_debug_exc");
}
