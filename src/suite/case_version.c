/* SPDX-License-Identifier: MIT */
/*
 * Version gates (kfd_ioctl.h version history, kfd_events.c set_event() event_age): what the
 * interrupt path looks like on a KFD older than a feature. With
 * `--kfd-version X.Y` the emulator reports that version and drops what is
 * newer, so both sides of each gate run here.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

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

/* 1.19: CREATE_PROCESS (commit cc6b66d661fd). Below it the backend refuses
 * (-ENOTSUP) and the kernel does not know the ioctl. */
static enum suite_result create_process_gate(struct suite_ctx *c)
{
	struct kfdsig_kfd *k = NULL;
	uint32_t min = 0;
	bool want;
	int r;

	kfdsig_kfd_feature_info(KFDSIG_KFD_FEAT_CREATE_PROCESS, &min);
	want = c->d->kfd_major > 1 || (c->d->kfd_major == 1 && c->d->kfd_minor >= min);
	if (kfdsig_kfd_open(c->d->ops, &k) < 0)
		return suite_fail(c, "cannot open a second KFD handle: %s", kfdsig_last_error());
	r = kfdsig_kfd_create_process(k);
	kfdsig_kfd_close(k);
	SUITE_CHECK(c, want ? r == 0 : r == -ENOTSUP,
		    "KFD %u.%u: kfdsig_kfd_create_process() gave %d, expected %s (1.%u and later)",
		    c->d->kfd_major, c->d->kfd_minor, r, want ? "0" : "-ENOTSUP", min);
	if (!want && c->d->emu) {
		const struct kfdsig_kfd_ops *ops = kfdsig_kfd_ops_of(c->kfd);

		r = ops->ioctl(ops->ctx, kfdsig_kfd_fd(c->kfd), _IO('K', 0x27), NULL);
		SUITE_CHECK(c, r == -ENOTTY,
			    "KFD %u.%u: the raw CREATE_PROCESS ioctl gave %d, expected -ENOTTY "
			    "(unknown below 1.19)",
			    c->d->kfd_major, c->d->kfd_minor, r);
	}
	return suite_note(c, "KFD %u.%u: CREATE_PROCESS %s", c->d->kfd_major, c->d->kfd_minor,
			  want ? "available" : "absent, refused");
}

/* 1.22: CREATE_QUEUE metadata_ring_size (kfd_ioctl.h version history;
 * kfd_queue.c kfd_queue_acquire_buffers() wants ring + metadata). */
static enum suite_result metadata_ring_gate(struct suite_ctx *c)
{
	KFDSIG_OPTS(kfdsig_queue_opts, o, .metadata_ring_size = 4096);
	struct kfdsig_kfd_queue *q = NULL;
	uint32_t min = 0;
	bool want;
	int r;

	kfdsig_kfd_feature_info(KFDSIG_KFD_FEAT_METADATA_RING, &min);
	want = c->d->kfd_major > 1 || (c->d->kfd_major == 1 && c->d->kfd_minor >= min);
	r = kfdsig_kfd_queue_create(c->kfd, c->dev->gpu_id, KFDSIG_QUEUE_PM4, &o, &q);
	if (q)
		kfdsig_kfd_queue_destroy(q);
	SUITE_CHECK(c, want ? r == 0 : r == -ENOTSUP,
		    "KFD %u.%u: a PM4 queue with a 4 KiB metadata ring gave %d (%s), expected %s "
		    "(1.%u and later)",
		    c->d->kfd_major, c->d->kfd_minor, r, r ? kfdsig_last_error() : "created",
		    want ? "0" : "-ENOTSUP", min);
	return suite_note(c, "KFD %u.%u: metadata ring %s", c->d->kfd_major, c->d->kfd_minor,
			  want ? "accepted" : "absent, refused");
}

static const struct suite_case cases[] = {
	{ "version.event-age-gate",
	  "event age exists exactly from KFD 1.14: a wait with a stale age sees a set+reset event "
	  "(COMPLETE, age 2); before 1.14 the same wait is the legacy one (TIMEOUT, age 0)",
	  "from 1.14 last_event_age is honoured; on older kernels the backend passes age 0, so a "
	  "signal cleared before the wait is lost (the fallback this case checks)",
	  SUITE_ENGINE_NONE, 0, event_age_gate },
	{ "version.create-process-gate",
	  "CREATE_PROCESS exists exactly from KFD 1.19: kfdsig_kfd_create_process() works from "
	  "1.19 and is -ENOTSUP before (the emulated kernel answers the raw ioctl -ENOTTY there)",
	  "1.19 added AMDKFD_IOC_CREATE_PROCESS (commit cc6b66d661fd)", SUITE_ENGINE_NONE, 0,
	  create_process_gate },
	{ "version.metadata-ring-gate",
	  "a queue with a metadata ring exists exactly from KFD 1.22: the ring buffer holds ring "
	  "and metadata ring and CREATE_QUEUE takes metadata_ring_size; before, -ENOTSUP",
	  "1.22 turned CREATE_QUEUE's pad into metadata_ring_size; an older kernel ignores the "
	  "field, so kfdsig refuses it there",
	  SUITE_ENGINE_NONE, 0, metadata_ring_gate },
};

const struct suite_group suite_group_version = { "version", cases,
						 sizeof(cases) / sizeof(cases[0]) };
