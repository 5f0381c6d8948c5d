/* SPDX-License-Identifier: MIT */
/*
 * ROCr's AQL path on the emulated KFD: hsa_init, hsa_queue_create on the
 * GPU agent (KFD_IOC_QUEUE_TYPE_COMPUTE_AQL), one BARRIER_AND packet whose
 * completion signal is an interrupt signal (backed by a KFD event: ROCr
 * fills its amd_signal_t mailbox and event_id), the doorbell rung with the
 * packet's index, and hsa_signal_wait_scacquire, which must return once
 * the packet processor decrements the signal, well before its timeout.
 *
 *   rocr_queue TARGET   (TARGET: the emulated GPU)
 *
 * On gfx8 the ring is ROCr's double-mapped one and the doorbell 32 bits
 * wide (amd_aql_queue.cpp AqlQueue::StoreRelaxed(), doorbell types 0 and
 * 1): gfx801 (type 1), gfx802 (type 0, Tonga) and gfx803 (type 1) run it.
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/amd_hsa_signal.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "rocr.h"

/* Resolves the barrier's dependency late, so the waiter has left ROCr's
 * spin phase and sleeps in the KFD event wait: only the packet
 * processor's interrupt can wake it then. */
static void *resolver(void *arg)
{
	hsa_signal_t *dep = arg;

	usleep(50000);
	hsa_signal_store_screlease(*dep, 0);
	return NULL;
}

static uint16_t barrier_header(void)
{
	/* HSA spec 2.9.1 packet header: type, barrier bit, acquire and
	 * release fence scopes */
	return (uint16_t)(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
			  1 << HSA_PACKET_HEADER_BARRIER |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

int main(int argc, char **argv)
{
	hsa_agent_t gpu = { 0 };
	hsa_queue_t *q = NULL;
	hsa_signal_t sig, dep;
	pthread_t th;
	hsa_signal_value_t v;
	hsa_status_t st;
	hsa_barrier_and_packet_t *slot;
	amd_signal_t *amd;
	uint64_t idx, freq = 0;
	double t0, dt;
	int r;

	r = rocr_start(argc > 1 ? argv[1] : NULL, &gpu);
	if (r)
		return r;

	st = hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX,
			      &q);
	REQUIRE(st == HSA_STATUS_SUCCESS, "hsa_queue_create: %#x", (unsigned int)st);
	printf("queue id %lu size %u\n", (unsigned long)q->id, q->size);

	/* an interrupt signal: ROCr backs it with a KFD event */
	REQUIRE(hsa_amd_signal_create(1, 0, NULL, 0, &sig) == HSA_STATUS_SUCCESS, "signal");
	/* ROCr's hsa_signal_t handle is the address of its amd_signal_t
	 * (hsa-runtime/core/inc/signal.h, Signal::Convert) */
	amd = (amd_signal_t *)(uintptr_t)sig.handle;
	CHECK(amd->kind == AMD_SIGNAL_KIND_USER, "signal kind %ld", (long)amd->kind);
	CHECK(amd->event_mailbox_ptr != 0 && amd->event_id != 0,
	      "not an interrupt signal: mailbox %#lx event %u",
	      (unsigned long)amd->event_mailbox_ptr, amd->event_id);
	printf("signal event_id %u mailbox %#lx\n", amd->event_id,
	       (unsigned long)amd->event_mailbox_ptr);

	REQUIRE(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq) ==
				HSA_STATUS_SUCCESS &&
			freq >= 1000,
		"timestamp frequency");
	/* the barrier's dependency: a plain signal, resolved by a CPU thread */
	REQUIRE(hsa_signal_create(1, 0, NULL, &dep) == HSA_STATUS_SUCCESS, "dependency signal");
	idx = hsa_queue_add_write_index_screlease(q, 1);
	slot = (hsa_barrier_and_packet_t *)q->base_address + (idx & (q->size - 1));
	memset((char *)slot + 4, 0, sizeof(*slot) - 4);
	slot->dep_signal[0] = dep;
	slot->completion_signal = sig;
	/* header last, with release order: the packet processor must see the
	 * body before the valid type */
	__atomic_store_n((uint32_t *)slot, barrier_header(), __ATOMIC_RELEASE);

	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
	/* the dependency is unresolved: the barrier must wait for it */
	v = hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_LT, 1, freq / 1000 * 20,
				      HSA_WAIT_STATE_BLOCKED);
	CHECK(v == 1, "barrier completed before its dependency: value %ld", (long)v);
	pthread_create(&th, NULL, resolver, &dep);
	t0 = client_ms();
	/* a finite timeout (in the system timestamp's units): by now ROCr
	 * sleeps in the KFD event wait, so without the interrupt the wait
	 * ends only at that timeout (observed with the interrupt removed from
	 * emu_aql.c), which the WAKE_BOUND_MS check catches */
	v = hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_LT, 1,
				      freq / 1000 * WAIT_TIMEOUT_MS, HSA_WAIT_STATE_BLOCKED);
	dt = client_ms() - t0;
	pthread_join(th, NULL);
	CHECK(v == 0, "woken with value %ld", (long)v);
	CHECK(dt < WAKE_BOUND_MS, "wake took %.1f ms", dt);
	CHECK(hsa_signal_load_scacquire(sig) == 0, "signal value after the packet");
	/* the packet processor also moves the read index past the packet;
	 * the HSA spec does not order that against the completion signal,
	 * so allow it the same bound */
	while (hsa_queue_load_read_index_scacquire(q) < idx + 1 && client_ms() - t0 < WAKE_BOUND_MS)
		sched_yield();
	CHECK(hsa_queue_load_read_index_scacquire(q) == idx + 1, "read index %lu",
	      (unsigned long)hsa_queue_load_read_index_scacquire(q));
	printf("barrier completed %.2f ms after the dependency thread started\n", dt);

	CHECK(hsa_signal_destroy(sig) == HSA_STATUS_SUCCESS, "destroy");
	CHECK(hsa_signal_destroy(dep) == HSA_STATUS_SUCCESS, "destroy dependency");
	CHECK(hsa_queue_destroy(q) == HSA_STATUS_SUCCESS, "queue destroy");
	CHECK(hsa_shut_down() == HSA_STATUS_SUCCESS, "shut down");
	return client_done("rocr_queue");
}
