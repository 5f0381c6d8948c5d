/* SPDX-License-Identifier: MIT */
/*
 * A PM4 (compute) or SDMA queue made by hsaKmtCreateQueue, whose ring
 * carries a fence written by kfdsig's emitters for an event libhsakmt
 * created; hsaKmtWaitOnEvent must be woken by it, within a bound, and
 * only that event may be signalled.
 *
 *   hsakmt_queue TARGET pm4|sdma [wrong-ctxid]
 *
 * wrong-ctxid: the fence writes the event's slot but its interrupt names
 * another event. The kernel finds the slot by its scan (default profile)
 * or drops the interrupt (v6.14-v6.18: run under profile=v6.14); the
 * caller says which by KFDSIG_EXPECT=wake|timeout.
 */
#include <hsakmt.h>
#include <stdint.h>
#include <string.h>

#include <kfdsig/kfdsig.h>

#include "client.h"
#include "hsakmt_util.h"

#define RING_BYTES 4096u

static void *alloc_mapped(HSAuint64 size)
{
	HsaMemFlags f = { 0 };
	void *p = NULL;

	f.ui32.PageSize = HSA_PAGE_SIZE_4KB;
	f.ui32.HostAccess = 1;
	f.ui32.NoSubstitute = 1;
	f.ui32.ExecuteAccess = 1;
	if (hsaKmtAllocMemory(0, size, f, &p) != HSAKMT_STATUS_SUCCESS)
		return NULL;
	if (hsaKmtMapMemoryToGPU(p, size, NULL) != HSAKMT_STATUS_SUCCESS)
		return NULL;
	memset(p, 0, size);
	return p;
}

/* Targets whose context-save sizes libhsakmt 5.2.3 computes differently
 * from the kernel: per-XCC areas (GC 9.4.3+), the 0x7000 control-stack cap
 * on gfx1036, the larger VGPR file of gfx1100/1101 and gfx12
 * (kfd_queue.c kfd_get_vgpr_size_per_cu). */
static bool newer_than_hsakmt(const struct kfdsig_target *t)
{
	uint32_t v = t->gfx_target_version;

	return (v >= 90400 && v < 100000) || v == 100306 || v == 110000 || v == 110001 ||
	       v >= 120000;
}

int main(int argc, char **argv)
{
	const struct kfdsig_target *t;
	HsaSystemProperties sp;
	HsaNodeProperties np;
	HsaQueueResource qr;
	HsaEvent *ev, *decoy;
	struct kfdsig_fence f;
	uint32_t gpu = 0, pkt[64], *ring;
	uint64_t *rptr, *wptr, wbytes = 0;
	bool sdma, wrong, expect_wake = true;
	const char *expect = getenv("KFDSIG_EXPECT");
	double t0, dt;
	int n, r;

	REQUIRE(argc >= 3, "usage: %s TARGET pm4|sdma [wrong-ctxid]", argv[0]);
	t = kfdsig_target_by_name(argv[1]);
	REQUIRE(t, "target %s", argv[1]);
	sdma = !strcmp(argv[2], "sdma");
	wrong = argc > 3 && !strcmp(argv[3], "wrong-ctxid");
	if (expect && !strcmp(expect, "timeout"))
		expect_wake = false;

	if (wrong && !sdma && t->level == KFDSIG_GFX8) {
		printf("SKIP: kfdsig's gfx8 PM4 fence has no context id to get wrong\n");
		return 77;
	}
	REQUIRE(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS, "open");
	REQUIRE(hsaKmtAcquireSystemProperties(&sp) == HSAKMT_STATUS_SUCCESS, "topology");
	for (uint32_t i = 0; i < sp.NumNodes; i++)
		if (hsaKmtGetNodeProperties(i, &np) == HSAKMT_STATUS_SUCCESS && np.NumFComputeCores)
			gpu = i;
	REQUIRE(gpu, "a GPU node");
	ev = new_event();
	decoy = new_event();
	REQUIRE(ev && decoy, "events");

	ring = alloc_mapped(RING_BYTES);
	rptr = alloc_mapped(4096);
	wptr = alloc_mapped(4096);
	REQUIRE(ring && rptr && wptr, "ring and pointers");
	memset(&qr, 0, sizeof(qr));
	qr.Queue_read_ptr_aql = rptr;
	qr.Queue_write_ptr_aql = wptr;
	r = hsaKmtCreateQueue(gpu, sdma ? HSA_QUEUE_SDMA : HSA_QUEUE_COMPUTE, 100,
			      HSA_QUEUE_PRIORITY_NORMAL, ring, RING_BYTES, NULL, &qr);
	if (!sdma && newer_than_hsakmt(t)) {
		/* libhsakmt 5.2.3 sizes the context save area of these GPUs
		 * its own (older) way; the kernel's kfd_queue_acquire_buffers
		 * (6.12+) wants kfd_queue_ctx_save_restore_size()'s sizes and
		 * refuses the queue, as the emulator must */
		REQUIRE(r != HSAKMT_STATUS_SUCCESS, "a compute queue with 5.2.3's CWSR sizes");
		printf("SKIP: libhsakmt 5.2.3 predates %s's context save area sizes\n", t->name);
		hsaKmtCloseKFD();
		return 77;
	}
	REQUIRE(r == HSAKMT_STATUS_SUCCESS, "hsaKmtCreateQueue %s: %d", argv[2], r);

	/* kfdsig's fence for the event libhsakmt made: its slot in the
	 * signal page (HWData2) and its id */
	memset(&f, 0, sizeof(f));
	f.slot_va = ev->EventData.HWData2;
	f.event_id = ev->EventId;
	if (wrong) {
		f.flags = KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD;
		f.ctxid = decoy->EventId;
	}
	n = sdma ? kfdsig_sdma_emit_fence(t, &f, pkt, 64) : kfdsig_pm4_emit_fence(t, &f, pkt, 64);
	REQUIRE(n > 0, "emit: %d", n);
	if (sdma) {
		n = kfdsig_sdma_ring_write(t, ring, RING_BYTES, &wbytes, pkt, (size_t)n, 0, 0);
		REQUIRE(n > 0, "sdma ring write %d", n);
	} else {
		memcpy(ring, pkt, (size_t)n * 4);
		wbytes = (uint64_t)n * 4;
	}
	{
		/* write pointer memory, then the doorbell: bytes for SDMA,
		 * dwords for PM4; 64-bit from gfx9, 32-bit on gfx8 */
		uint64_t v = sdma ? wbytes : wbytes / 4;
		if (t->wptr_bits == 64)
			__atomic_store_n(wptr, v, __ATOMIC_RELEASE);
		else
			__atomic_store_n((uint32_t *)wptr, (uint32_t)v, __ATOMIC_RELEASE);
		if (t->doorbell_size == 8)
			__atomic_store_n((volatile uint64_t *)qr.Queue_DoorBell_aql, v,
					 __ATOMIC_RELEASE);
		else
			__atomic_store_n((volatile uint32_t *)qr.Queue_DoorBell, (uint32_t)v,
					 __ATOMIC_RELEASE);
	}
	t0 = client_ms();
	r = hsaKmtWaitOnEvent(ev, expect_wake ? WAIT_TIMEOUT_MS : 300);
	dt = client_ms() - t0;
	if (expect_wake) {
		CHECK(r == HSAKMT_STATUS_SUCCESS, "the fence woke the event: %d", r);
		CHECK(dt < WAKE_BOUND_MS, "wake took %.1f ms", dt);
	} else {
		CHECK(r == HSAKMT_STATUS_WAIT_TIMEOUT, "the interrupt named another event: %d", r);
	}
	CHECK(hsaKmtWaitOnEvent(decoy, 0) == HSAKMT_STATUS_WAIT_TIMEOUT,
	      "the other event is clear");

	CHECK(hsaKmtDestroyQueue(qr.QueueId) == HSAKMT_STATUS_SUCCESS, "destroy queue");
	hsaKmtDestroyEvent(ev);
	hsaKmtDestroyEvent(decoy);
	CHECK(hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS, "close");
	return client_done("hsakmt_queue");
}
