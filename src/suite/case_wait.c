/* SPDX-License-Identifier: MIT */
/*
 * WAIT_EVENTS timeouts and the event age (kfd_events.c set_event() event_age, kfd_wait_on_events()):
 * timeout 0 checks once, a finite timeout sleeps at least that long, an
 * infinite one only ends with the event; the age sequence of kfdtest's
 * SignalEventExt driven by CPU SET_EVENT, and age 0 (legacy wait).
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "case.h"

static enum suite_result timeout_zero(struct suite_ctx *c)
{
	struct kfdsig_event ev;
	enum kfdsig_wait_result res;
	uint64_t t0, ns;
	int r;

	if (suite_event(c, false, &ev))
		return SUITE_FAIL;
	t0 = suite_now_ns();
	r = suite_wait1(c, ev.id, NULL, 0, &res);
	ns = suite_now_ns() - t0;
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_TIMEOUT,
		    "timeout 0 on an unsignalled event: %d %s, expected TIMEOUT", r,
		    suite_wait_result_name(res));
	SUITE_CHECK(c, ns < 50000000ull, "timeout 0 took %llu ms (it checks once, no sleep)",
		    (unsigned long long)(ns / 1000000));
	kfdsig_kfd_event_set(c->kfd, ev.id);
	r = suite_wait1(c, ev.id, NULL, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE,
		    "timeout 0 on a set event: %d %s, expected COMPLETE", r,
		    suite_wait_result_name(res));
	return SUITE_PASS;
}

static enum suite_result timeout_finite(struct suite_ctx *c)
{
	struct kfdsig_event ev;
	enum kfdsig_wait_result res;
	uint64_t t0, ms;
	int r;

	if (suite_event(c, false, &ev))
		return SUITE_FAIL;
	t0 = suite_now_ns();
	r = suite_wait1(c, ev.id, NULL, 60, &res);
	ms = (suite_now_ns() - t0) / 1000000;
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_TIMEOUT,
		    "60 ms wait on an unsignalled event: %d %s, expected TIMEOUT", r,
		    suite_wait_result_name(res));
	SUITE_CHECK(c, ms >= 59, "a 60 ms timeout returned after %llu ms", (unsigned long long)ms);
	SUITE_CHECK(c, ms < 2000, "a 60 ms timeout returned only after %llu ms",
		    (unsigned long long)ms);
	return SUITE_PASS;
}

struct setter {
	struct kfdsig_kfd *kfd;
	uint32_t id;
	unsigned delay_us;
};

static void *set_later(void *arg)
{
	struct setter *s = arg;

	usleep(s->delay_us);
	kfdsig_kfd_event_set(s->kfd, s->id);
	return NULL;
}

static enum suite_result timeout_infinite(struct suite_ctx *c)
{
	struct kfdsig_event ev;
	struct setter s = { .kfd = c->kfd, .delay_us = 150000 };
	enum kfdsig_wait_result res;
	pthread_t th;
	uint64_t t0, ms;
	int r;

	if (suite_event(c, false, &ev))
		return SUITE_FAIL;
	s.id = ev.id;
	t0 = suite_now_ns(); /* before the setter starts its 150 ms */
	if (pthread_create(&th, NULL, set_later, &s))
		return suite_fail(c, "cannot start the setter thread");
	r = suite_wait1(c, ev.id, NULL, KFDSIG_WAIT_INFINITE, &res);
	ms = (suite_now_ns() - t0) / 1000000;
	pthread_join(th, NULL);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE,
		    "infinite wait woken by SET_EVENT: %d %s, expected COMPLETE", r,
		    suite_wait_result_name(res));
	SUITE_CHECK(c, ms >= 140,
		    "the infinite wait returned after %llu ms, before the event "
		    "was set at 150 ms",
		    (unsigned long long)ms);
	return SUITE_PASS;
}

static enum suite_result event_age(struct suite_ctx *c)
{
	struct kfdsig_event ev;
	enum kfdsig_wait_result res;
	uint64_t age = 1;
	int r;

	if (!suite_has_age(c))
		return suite_skip(c,
				  "event age needs KFD 1.14, this KFD is %u.%u "
				  "(version.event-age-gate checks the fallback)",
				  c->d->kfd_major, c->d->kfd_minor);
	if (suite_event(c, true, &ev))
		return SUITE_FAIL;
	r = suite_wait1(c, ev.id, &age, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_TIMEOUT && age == 1,
		    "new event waited with age 1: %d %s age %llu; expected TIMEOUT (age 1 at "
		    "creation)",
		    r, suite_wait_result_name(res), (unsigned long long)age);
	for (uint64_t want = 2; want <= 4; want++) {
		kfdsig_kfd_event_set(c->kfd, ev.id);
		r = suite_wait1(c, ev.id, &age, 1000, &res);
		SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE && age == want,
			    "after SET_EVENT %llu: %d %s age %llu; expected COMPLETE age %llu",
			    (unsigned long long)(want - 1), r, suite_wait_result_name(res),
			    (unsigned long long)age, (unsigned long long)want);
	}
	/* the age already seen: nothing new, the wait times out */
	r = suite_wait1(c, ev.id, &age, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_TIMEOUT && age == 4,
		    "wait with the current age 4: %d %s age %llu; expected TIMEOUT", r,
		    suite_wait_result_name(res), (unsigned long long)age);
	/* a stale age: the waiter is activated at once, even though the
	 * auto-reset signal was consumed (no lost wake-up) */
	age = 2;
	r = suite_wait1(c, ev.id, &age, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE && age == 4,
		    "wait with stale age 2: %d %s age %llu; expected COMPLETE age 4", r,
		    suite_wait_result_name(res), (unsigned long long)age);
	/* age 0: legacy wait, age not enabled and returned as 0 */
	age = 0;
	r = suite_wait1(c, ev.id, &age, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_TIMEOUT && age == 0,
		    "legacy wait (age 0) on a consumed event: %d %s age %llu; expected TIMEOUT "
		    "age 0",
		    r, suite_wait_result_name(res), (unsigned long long)age);
	kfdsig_kfd_event_set(c->kfd, ev.id);
	r = suite_wait1(c, ev.id, &age, 0, &res);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE && age == 0,
		    "legacy wait (age 0) on a set event: %d %s age %llu; expected COMPLETE age 0",
		    r, suite_wait_result_name(res), (unsigned long long)age);
	return SUITE_PASS;
}

static const struct suite_case cases[] = {
	{ "wait.timeout-zero",
	  "WAIT_EVENTS with timeout 0 checks once: TIMEOUT at once when unsignalled, COMPLETE "
	  "when set",
	  NULL, SUITE_ENGINE_NONE, 0, timeout_zero },
	{ "wait.timeout-finite",
	  "a 60 ms WAIT_EVENTS on an unsignalled event returns TIMEOUT after at least 60 ms",
	  "the kernel sleeps msecs_to_jiffies(ms) + 1, so never less than asked", SUITE_ENGINE_NONE,
	  0, timeout_finite },
	{ "wait.timeout-infinite",
	  "WAIT_EVENTS with timeout 0xffffffff sleeps until SET_EVENT from another thread wakes it",
	  NULL, SUITE_ENGINE_NONE, 0, timeout_infinite },
	{ "wait.event-age",
	  "event age: 1 at creation, +1 per CPU SET_EVENT (2, 3, 4), a stale age completes at "
	  "once, "
	  "the current one waits, age 0 is the legacy wait and comes back 0",
	  "needs KFD 1.14 (last_event_age); skipped before, see version.event-age-gate",
	  SUITE_ENGINE_NONE, 0, event_age },
};

const struct suite_group suite_group_wait = { "wait", cases, sizeof(cases) / sizeof(cases[0]) };
