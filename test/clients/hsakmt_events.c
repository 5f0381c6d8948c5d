/* SPDX-License-Identifier: MIT */
/*
 * Events through libhsakmt: 4095 signal events (every slot of the signal
 * page but the reserved id 0), waits on any and on all of them, a wait
 * woken by another thread within a bound, reset and destroy. Which event
 * woke a wait on "any" is asserted by waiting on the others afterwards.
 */
#include <hsakmt.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "client.h"

#define N 4095

static HsaEvent *ev[N];

static void *setter(void *arg)
{
	usleep(20000);
	hsaKmtSetEvent(arg);
	return NULL;
}

static HsaEventDescriptor signal_desc(void)
{
	HsaEventDescriptor d;

	memset(&d, 0, sizeof(d));
	d.EventType = HSA_EVENTTYPE_SIGNAL;
	d.NodeId = 0;
	d.SyncVar.SyncVar.UserData = NULL;
	d.SyncVar.SyncVarSize = sizeof(HSAuint64);
	return d;
}

int main(void)
{
	HsaEventDescriptor d = signal_desc();
	pthread_t th;
	uint32_t k = 3999;
	double t0, dt;
	int created = 0;

	HsaSystemProperties sp;

	REQUIRE(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS, "open");
	/* libhsakmt validates node ids against this snapshot */
	REQUIRE(hsaKmtAcquireSystemProperties(&sp) == HSAKMT_STATUS_SUCCESS, "topology");
	for (int i = 0; i < N; i++) {
		if (hsaKmtCreateEvent(&d, false, false, &ev[i]) != HSAKMT_STATUS_SUCCESS)
			break;
		created++;
	}
	REQUIRE(created == N, "created %d of %d signal events", created, N);
	{
		HsaEvent *extra;
		/* the signal page is full: the kernel refuses the 4096th */
		CHECK(hsaKmtCreateEvent(&d, false, false, &extra) != HSAKMT_STATUS_SUCCESS,
		      "4096th signal event");
	}
	/* nothing signalled: a zero-time wait on all of them times out */
	CHECK(hsaKmtWaitOnMultipleEvents(ev, N, false, 0) == HSAKMT_STATUS_WAIT_TIMEOUT,
	      "any, none set");

	/* one set: "any" wakes, and it was that one (auto-reset consumed it,
	 * the others are still clear) */
	CHECK(hsaKmtSetEvent(ev[k]) == HSAKMT_STATUS_SUCCESS, "set %u", k);
	CHECK(hsaKmtWaitOnMultipleEvents(ev, N, false, WAIT_TIMEOUT_MS) == HSAKMT_STATUS_SUCCESS,
	      "any, one set");
	CHECK(hsaKmtWaitOnMultipleEvents(ev, N, false, 0) == HSAKMT_STATUS_WAIT_TIMEOUT,
	      "auto-reset consumed the wake");
	CHECK(hsaKmtSetEvent(ev[k]) == HSAKMT_STATUS_SUCCESS, "set %u again", k);
	CHECK(hsaKmtWaitOnMultipleEvents(ev, k, false, 0) == HSAKMT_STATUS_WAIT_TIMEOUT,
	      "events before %u are clear", k);
	CHECK(hsaKmtWaitOnEvent(ev[k], 0) == HSAKMT_STATUS_SUCCESS, "event %u is the set one", k);

	/* all: only when every one is set */
	for (int i = 0; i < N - 1; i++)
		hsaKmtSetEvent(ev[i]);
	CHECK(hsaKmtWaitOnMultipleEvents(ev, N, true, 0) == HSAKMT_STATUS_WAIT_TIMEOUT,
	      "all, one missing");
	/* that wait consumed the auto-reset events it found set
	 * (kfd_events.c init_event_waiter clears them as it arms), so set
	 * them all again */
	for (int i = 0; i < N; i++)
		hsaKmtSetEvent(ev[i]);
	CHECK(hsaKmtWaitOnMultipleEvents(ev, N, true, WAIT_TIMEOUT_MS) == HSAKMT_STATUS_SUCCESS,
	      "all set");
	CHECK(hsaKmtWaitOnMultipleEvents(ev, N, false, 0) == HSAKMT_STATUS_WAIT_TIMEOUT,
	      "the wait on all consumed every one");

	/* reset clears a set event */
	hsaKmtSetEvent(ev[7]);
	CHECK(hsaKmtResetEvent(ev[7]) == HSAKMT_STATUS_SUCCESS, "reset");
	CHECK(hsaKmtWaitOnEvent(ev[7], 0) == HSAKMT_STATUS_WAIT_TIMEOUT, "reset event is clear");

	/* a sleeping waiter is woken by another thread, promptly */
	pthread_create(&th, NULL, setter, ev[100]);
	t0 = client_ms();
	CHECK(hsaKmtWaitOnEvent(ev[100], WAIT_TIMEOUT_MS) == HSAKMT_STATUS_SUCCESS, "woken");
	dt = client_ms() - t0;
	CHECK(dt < WAKE_BOUND_MS, "wake took %.1f ms", dt);
	pthread_join(th, NULL);

	for (int i = 0; i < N; i++)
		CHECK(hsaKmtDestroyEvent(ev[i]) == HSAKMT_STATUS_SUCCESS, "destroy %d", i);
	CHECK(hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS, "close");
	return client_done("hsakmt_events");
}
