/* SPDX-License-Identifier: MIT */
/*
 * Version gates (kfd_ioctl.h version history, kfd_events.c set_event() event_age): what the
 * interrupt path looks like on a KFD older than a feature. With
 * `--kfd-version X.Y` the emulator reports that version and drops what is
 * newer, so both sides of each gate run here.
 */
#include <errno.h>
#include <string.h>

#include "case.h"

static enum suite_result event_age_gate(struct suite_ctx *c)
{
	struct kfdsig_event ev;
	enum kfdsig_wait_result res;
	uint32_t min = 0;
	uint64_t age = 1;
	bool want = false;
	int r;

	kfdsig_kfd_feature_info(KFDSIG_KFD_FEAT_EVENT_AGE, &min);
	want = c->d->kfd_major > 1 || (c->d->kfd_major == 1 && c->d->kfd_minor >= min);
	SUITE_CHECK(c, suite_has_age(c) == want,
		    "KFD %u.%u: event age reported %s; it arrived in 1.%u", c->d->kfd_major,
		    c->d->kfd_minor, suite_has_age(c) ? "present" : "absent", min);
	/* A manual-reset event set and reset: only the age remembers it. */
	if (suite_event(c, false, &ev))
		return SUITE_FAIL;
	kfdsig_kfd_event_set(c->kfd, ev.id);
	kfdsig_kfd_event_reset(c->kfd, ev.id);
	r = suite_wait1(c, ev.id, &age, 0, &res);
	if (want) {
		SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE && age == 2,
			    "KFD %u.%u has event age: wait with age 1 after set+reset gave %d %s "
			    "age %llu, expected COMPLETE age 2",
			    c->d->kfd_major, c->d->kfd_minor, r, suite_wait_result_name(res),
			    (unsigned long long)age);
		return suite_note(c, "KFD %u.%u: event age honoured", c->d->kfd_major,
				  c->d->kfd_minor);
	} else {
		SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_TIMEOUT && age == 0,
			    "KFD %u.%u predates event age: wait with age 1 after set+reset gave "
			    "%d %s age %llu, expected the legacy wait (TIMEOUT, age 0)",
			    c->d->kfd_major, c->d->kfd_minor, r, suite_wait_result_name(res),
			    (unsigned long long)age);
	}
	return suite_note(c, "KFD %u.%u: no event age, the legacy wait (fallback)", c->d->kfd_major,
			  c->d->kfd_minor);
}

static const struct suite_case cases[] = {
	{ "version.event-age-gate",
	  "event age exists exactly from KFD 1.14: a wait with a stale age sees a set+reset event "
	  "(COMPLETE, age 2); before 1.14 the same wait is the legacy one (TIMEOUT, age 0)",
	  "from 1.14 last_event_age is honoured; on older kernels the backend passes age 0, so a "
	  "signal cleared before the wait is lost (the fallback this case checks)",
	  SUITE_ENGINE_NONE, 0, event_age_gate },
};

const struct suite_group suite_group_version = { "version", cases,
						 sizeof(cases) / sizeof(cases[0]) };
