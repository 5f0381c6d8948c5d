/* SPDX-License-Identifier: MIT */
/*
 * Event lifetime and state (kfd_events.c: kfd_event_create(), kfd_event_page_set(), set_event(), kfd_wait_on_events()): ids, the
 * event limit, manual and auto reset, RESET_EVENT, wait-any and wait-all,
 * destroying an event somebody waits on. All through the CPU ioctls: no
 * GPU work, so every case runs on hardware and emulator alike.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "case.h"

static enum suite_result create_destroy(struct suite_ctx *c)
{
	struct kfdsig_event a, b, d;
	int r;

	if (suite_event(c, false, &a) || suite_event(c, false, &b))
		return SUITE_FAIL;
	SUITE_CHECK(c, a.id == 1 && b.id == 2,
		    "first signal events got ids %u, %u; expected 1, 2 (id 0 is reserved)", a.id,
		    b.id);
	SUITE_CHECK(c, a.slot && *a.slot == KFDSIG_SLOT_UNSIGNALED,
		    "a new event's slot is not all-ones");
	r = kfdsig_kfd_event_destroy(c->kfd, a.id);
	SUITE_CHECK(c, r == 0, "DESTROY_EVENT of event %u: %s", a.id, strerror(-r));
	r = kfdsig_kfd_event_destroy(c->kfd, a.id);
	SUITE_CHECK(c, r == -EINVAL, "destroying event %u twice gave %d, expected -EINVAL", a.id,
		    r);
	if (suite_event(c, false, &d))
		return SUITE_FAIL;
	SUITE_CHECK(c, d.id == a.id, "the freed id %u was not reused (got %u)", a.id, d.id);
	r = kfdsig_kfd_event_destroy(c->kfd, 3000);
	SUITE_CHECK(c, r == -EINVAL, "destroying unknown id 3000 gave %d, expected -EINVAL", r);
	return SUITE_PASS;
}

static enum suite_result max_events(struct suite_ctx *c)
{
	struct kfdsig_event ev;
	uint32_t n = 0, last = 0;
	int r;

	while ((r = kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_SIGNAL, false, &ev)) == 0) {
		last = ev.id;
		if (++n > 4096)
			break;
	}
	SUITE_CHECK(c, n == 4095 && r == -ENOSPC,
		    "created %u signal events, then got %d; expected 4095 then -ENOSPC", n, r);
	SUITE_CHECK(c, last == 4095, "the last event got id %u, expected 4095", last);
	r = kfdsig_kfd_event_destroy(c->kfd, 100);
	SUITE_CHECK(c, r == 0, "destroying event 100: %d", r);
	r = kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_SIGNAL, false, &ev);
	SUITE_CHECK(c, r == 0 && ev.id == 100,
		    "after freeing id 100, CREATE_EVENT gave %d id %u; expected id 100", r, ev.id);
	/* non-signal events have their own id space and no slot */
	r = kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_MEMORY, false, &ev);
	SUITE_CHECK(c, r == 0 && ev.id >= 0x40000000u,
		    "a MEMORY event with a full signal page: %d, id 0x%x (expected >= 0x40000000)",
		    r, ev.id);
	return SUITE_PASS;
}

static enum suite_result manual_reset(struct suite_ctx *c)
{
	struct kfdsig_event ev;
	enum kfdsig_wait_result res;
	int r;

	if (suite_event(c, false, &ev))
		return SUITE_FAIL;
	r = kfdsig_kfd_event_set(c->kfd, ev.id);
	SUITE_CHECK(c, r == 0, "SET_EVENT: %s", strerror(-r));
	for (int i = 0; i < 3; i++) {
		r = suite_wait1(c, ev.id, NULL, 0, &res);
		SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE,
			    "wait %d on a set manual-reset event: %d %s (expected COMPLETE: it "
			    "stays signalled until RESET_EVENT)",
			    i + 1, r, suite_wait_result_name(res));
	}
	r = kfdsig_kfd_event_reset(c->kfd, ev.id);
	SUITE_CHECK(c, r == 0, "RESET_EVENT: %s", strerror(-r));
	r = suite_wait1(c, ev.id, NULL, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_TIMEOUT,
		    "wait after RESET_EVENT: %d %s, expected TIMEOUT", r,
		    suite_wait_result_name(res));
	return SUITE_PASS;
}

static enum suite_result auto_reset(struct suite_ctx *c)
{
	struct kfdsig_event ev;
	enum kfdsig_wait_result res;
	int r;

	if (suite_event(c, true, &ev))
		return SUITE_FAIL;
	r = kfdsig_kfd_event_set(c->kfd, ev.id);
	SUITE_CHECK(c, r == 0, "SET_EVENT: %s", strerror(-r));
	r = suite_wait1(c, ev.id, NULL, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE,
		    "first wait on a set auto-reset event (no waiter when set: latched): %d %s", r,
		    suite_wait_result_name(res));
	r = suite_wait1(c, ev.id, NULL, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_TIMEOUT,
		    "second wait: %d %s; expected TIMEOUT (the first waiter consumed the signal)",
		    r, suite_wait_result_name(res));
	return SUITE_PASS;
}

static enum suite_result reset(struct suite_ctx *c)
{
	struct kfdsig_event ev, mem;
	enum kfdsig_wait_result res;
	uint64_t age = 1;
	int r;

	if (suite_event(c, false, &ev))
		return SUITE_FAIL;
	r = kfdsig_kfd_event_reset(c->kfd, ev.id);
	SUITE_CHECK(c, r == 0, "RESET_EVENT of an unsignalled event: %s", strerror(-r));
	kfdsig_kfd_event_set(c->kfd, ev.id);
	r = kfdsig_kfd_event_reset(c->kfd, ev.id);
	SUITE_CHECK(c, r == 0, "RESET_EVENT: %s", strerror(-r));
	SUITE_CHECK(c, !suite_signalled(c, ev.id), "still signalled after RESET_EVENT");
	SUITE_CHECK(c, *ev.slot == KFDSIG_SLOT_UNSIGNALED, "RESET_EVENT changed the slot");
	if (suite_has_age(c)) {
		/* RESET clears the state, not the age: a waiter that saw age 1
		 * still learns about the signal (kfd_events.c set_event() / kfd_set_event() / kfd_reset_event(); kfd_events.c set_event() event_age) */
		r = suite_wait1(c, ev.id, &age, 0, &res);
		SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE && age == 2,
			    "wait with age 1 after set+reset: %d %s age %llu; expected COMPLETE "
			    "age 2 (RESET_EVENT keeps the age)",
			    r, suite_wait_result_name(res), (unsigned long long)age);
	}
	r = kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_MEMORY, false, &mem);
	SUITE_CHECK(c, r == 0, "MEMORY event: %s", strerror(-r));
	r = kfdsig_kfd_event_reset(c->kfd, mem.id);
	SUITE_CHECK(c, r == -EINVAL, "RESET_EVENT of a MEMORY event gave %d, expected -EINVAL", r);
	r = kfdsig_kfd_event_set(c->kfd, mem.id);
	SUITE_CHECK(c, r == -EINVAL, "SET_EVENT of a MEMORY event gave %d, expected -EINVAL", r);
	r = kfdsig_kfd_event_reset(c->kfd, 4000);
	SUITE_CHECK(c, r == -EINVAL, "RESET_EVENT of unknown id 4000 gave %d, expected -EINVAL", r);
	return SUITE_PASS;
}

static enum suite_result wait_any(struct suite_ctx *c)
{
	struct kfdsig_wait_entry e[8];
	struct kfdsig_event ev;
	enum kfdsig_wait_result res;
	int r;

	memset(e, 0, sizeof(e));
	for (int i = 0; i < 8; i++) {
		if (suite_event(c, false, &ev))
			return SUITE_FAIL;
		e[i].event_id = ev.id;
		e[i].age = suite_has_age(c) ? 1 : 0; /* the age tells which fired */
	}
	r = kfdsig_kfd_wait(c->kfd, e, 8, false, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_TIMEOUT,
		    "wait-any on 8 unsignalled events: %d %s", r, suite_wait_result_name(res));
	kfdsig_kfd_event_set(c->kfd, e[5].event_id);
	r = kfdsig_kfd_wait(c->kfd, e, 8, false, suite_bound_ms(c, 1000), &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE, "wait-any with event %u set: %d %s",
		    e[5].event_id, r, suite_wait_result_name(res));
	for (int i = 0; i < 8; i++) {
		bool fired = suite_has_age(c) ? e[i].fired : suite_signalled(c, e[i].event_id);
		SUITE_CHECK(c, fired == (i == 5), "event %u %s after wait-any (only %u was set)",
			    e[i].event_id, fired ? "fired" : "did not fire", e[5].event_id);
	}
	return SUITE_PASS;
}

static enum suite_result wait_all_64(struct suite_ctx *c)
{
	struct kfdsig_wait_entry e[64];
	struct kfdsig_event ev;
	enum kfdsig_wait_result res;
	int r;

	memset(e, 0, sizeof(e));
	for (int i = 0; i < 64; i++) {
		if (suite_event(c, false, &ev))
			return SUITE_FAIL;
		e[i].event_id = ev.id;
		e[i].age = suite_has_age(c) ? 1 : 0;
	}
	for (int i = 0; i < 63; i++)
		kfdsig_kfd_event_set(c->kfd, e[i].event_id);
	r = kfdsig_kfd_wait(c->kfd, e, 64, true, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_TIMEOUT,
		    "wait-all with 63 of 64 set: %d %s, expected TIMEOUT", r,
		    suite_wait_result_name(res));
	kfdsig_kfd_event_set(c->kfd, e[63].event_id);
	r = kfdsig_kfd_wait(c->kfd, e, 64, true, suite_bound_ms(c, 1000), &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE,
		    "wait-all with all 64 set: %d %s, expected COMPLETE", r,
		    suite_wait_result_name(res));
	for (int i = 0; i < 64 && suite_has_age(c); i++)
		SUITE_CHECK(c, e[i].fired && e[i].age == 2,
			    "event %u: wait-all reported %s, age %llu (expected fired, age 2)",
			    e[i].event_id, e[i].fired ? "fired" : "not fired",
			    (unsigned long long)e[i].age);
	return SUITE_PASS;
}

struct waiter {
	struct kfdsig_kfd *kfd;
	uint32_t id;
	uint32_t timeout;
	int ret;
	enum kfdsig_wait_result res;
	uint64_t ns;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	struct kfdsig_wait_entry e = { .event_id = w->id };
	uint64_t t0 = suite_now_ns();

	w->ret = kfdsig_kfd_wait(w->kfd, &e, 1, false, w->timeout, &w->res);
	w->ns = suite_now_ns() - t0;
	return NULL;
}

static enum suite_result destroy_while_waiting(struct suite_ctx *c)
{
	struct waiter w;
	struct kfdsig_event ev;
	pthread_t th;
	int r = 0;

	/* The waiter must be asleep in WAIT_EVENTS when the event goes; if it
	 * only got there afterwards (-EINVAL: unknown id) try again, longer. */
	for (int attempt = 0; attempt < 5; attempt++) {
		memset(&w, 0, sizeof(w));
		w.kfd = c->kfd;
		w.timeout = KFDSIG_WAIT_INFINITE;
		if (suite_event(c, false, &ev))
			return SUITE_FAIL;
		w.id = ev.id;
		if (pthread_create(&th, NULL, wait_thread, &w))
			return suite_fail(c, "cannot start a waiter thread");
		usleep(50000u << attempt); /* let it block */
		r = kfdsig_kfd_event_destroy(c->kfd, ev.id);
		pthread_join(th, NULL);
		if (w.ret != -EINVAL)
			break;
	}
	SUITE_CHECK(c, r == 0, "DESTROY_EVENT while waited on: %s", strerror(-r));
	SUITE_CHECK(c, w.ret == -EIO && w.res == KFDSIG_WAIT_FAIL,
		    "the infinite wait on the destroyed event returned %d %s; expected -EIO with "
		    "FAIL",
		    w.ret, suite_wait_result_name(w.res));
	return SUITE_PASS;
}

static enum suite_result unknown_id(struct suite_ctx *c)
{
	struct kfdsig_event ev;
	struct kfdsig_wait_entry e[2] = { { 0 } };
	enum kfdsig_wait_result res = KFDSIG_WAIT_COMPLETE;
	int r;

	if (suite_event(c, false, &ev))
		return SUITE_FAIL;
	kfdsig_kfd_event_set(c->kfd, ev.id);
	e[0].event_id = ev.id;
	e[1].event_id = 2222;
	r = kfdsig_kfd_wait(c->kfd, e, 2, false, 0, &res);
	SUITE_CHECK(c, r == -EINVAL && res == KFDSIG_WAIT_FAIL,
		    "wait naming unknown id 2222: %d %s; expected -EINVAL with FAIL", r,
		    suite_wait_result_name(res));
	r = kfdsig_kfd_event_set(c->kfd, 2222);
	SUITE_CHECK(c, r == -EINVAL, "SET_EVENT of unknown id 2222 gave %d", r);
	return SUITE_PASS;
}

static const struct suite_case cases[] = {
	{ "events.create-destroy",
	  "CREATE_EVENT hands out signal ids from 1 (id 0 reserved) with an all-ones slot; "
	  "DESTROY_EVENT frees the id for reuse and refuses unknown ids with EINVAL",
	  "first id 1: kernels since the id-0 reservation (kfd_event_init_process) never hand out "
	  "id 0; older kernels did",
	  SUITE_ENGINE_NONE, 0, create_destroy },
	{ "events.max",
	  "4095 signal events fit a 32 KiB signal page, the next CREATE_EVENT fails with ENOSPC; a "
	  "freed id is reused; MEMORY events use ids from 0x40000000",
	  "4095 = 4096 slots minus the reserved id 0 (signal_event_count starts at 1); kernels "
	  "before that reservation allowed 4096",
	  SUITE_ENGINE_NONE, 0, max_events },
	{ "events.manual-reset",
	  "a manual-reset event stays signalled through any number of waits until RESET_EVENT",
	  NULL, SUITE_ENGINE_NONE, 0, manual_reset },
	{ "events.auto-reset",
	  "an auto-reset event set with no waiter is latched and consumed by the first waiter",
	  NULL, SUITE_ENGINE_NONE, 0, auto_reset },
	{ "events.reset",
	  "RESET_EVENT clears the signalled state, not the slot or the age; EINVAL for non-signal "
	  "and unknown events (SET_EVENT too)",
	  "the age check runs only from KFD 1.14 (event age)", SUITE_ENGINE_NONE, 0, reset },
	{ "events.wait-any",
	  "WAIT_EVENTS wait_for_all=0 on 8 events completes on the one set and reports only it",
	  NULL, SUITE_ENGINE_NONE, 0, wait_any },
	{ "events.wait-all-64",
	  "WAIT_EVENTS wait_for_all=1 on 64 events times out with 63 set, completes with all 64",
	  NULL, SUITE_ENGINE_NONE, 0, wait_all_64 },
	{ "events.destroy-while-waiting",
	  "DESTROY_EVENT of an event an infinite wait sleeps on wakes it with -EIO and FAIL", NULL,
	  SUITE_ENGINE_NONE, 0, destroy_while_waiting },
	{ "events.unknown-id",
	  "WAIT_EVENTS naming an unknown id fails with EINVAL and FAIL even when another event "
	  "is set",
	  NULL, SUITE_ENGINE_NONE, 0, unknown_id },
};

const struct suite_group suite_group_events = { "events", cases, sizeof(cases) / sizeof(cases[0]) };
