/* SPDX-License-Identifier: MIT */
/*
 * Raw-ioctl helpers of the interposer tests: each test is a KFD client of
 * its own, run by ctest under `kfdsig exec`, that talks to /dev/kfd with
 * plain open/ioctl/mmap as any client written for the kernel does.
 */
#ifndef KFDSIG_TEST_PRELOAD_UTIL_H
#define KFDSIG_TEST_PRELOAD_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/kfd_ioctl.h>

#include "helpers.h"

/* Every wait has a 10 s timeout, but a wake-up must come within this many
 * ms of the set: a lost wake-up cannot hide behind the timeout. */
#define P_WAKE_BOUND_MS 2000
#define P_TIMEOUT_MS 10000

/* Skip unless run under kfdsig exec (the emulated KFD). */
static inline void p_require_preload(void)
{
	if (!getenv("KFDSIG_EMULATE") || !getenv("LD_PRELOAD")) {
		fprintf(stderr, "not under kfdsig exec: skipped\n");
		exit(T_EXIT_SKIP);
	}
}

static inline double p_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline int p_open_kfd(void)
{
	return open("/dev/kfd", O_RDWR | O_CLOEXEC);
}

/* ioctl result: 0 or -errno */
static inline int p_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

static inline int p_version(int fd)
{
	struct kfd_ioctl_get_version_args a = { 0 };
	return p_ioctl(fd, AMDKFD_IOC_GET_VERSION, &a);
}

/* A manual-reset signal event on the kernel's signal page. */
static inline int p_event(int fd, uint32_t *id, uint64_t *page_offset)
{
	struct kfd_ioctl_create_event_args a = { .event_type = KFD_IOC_EVENT_SIGNAL };
	int r = p_ioctl(fd, AMDKFD_IOC_CREATE_EVENT, &a);

	if (!r) {
		*id = a.event_id;
		if (page_offset)
			*page_offset = a.event_page_offset;
	}
	return r;
}

static inline int p_set(int fd, uint32_t id)
{
	struct kfd_ioctl_set_event_args a = { .event_id = id };
	return p_ioctl(fd, AMDKFD_IOC_SET_EVENT, &a);
}

static inline int p_reset(int fd, uint32_t id)
{
	struct kfd_ioctl_reset_event_args a = { .event_id = id };
	return p_ioctl(fd, AMDKFD_IOC_RESET_EVENT, &a);
}

/* WAIT_EVENTS on one event: 0 and *result, or -errno. */
static inline int p_wait(int fd, uint32_t id, uint32_t timeout_ms, uint32_t *result)
{
	struct kfd_event_data d = { .event_id = id };
	struct kfd_ioctl_wait_events_args a = {
		.events_ptr = (uint64_t)(uintptr_t)&d,
		.num_events = 1,
		.wait_for_all = 1,
		.timeout = timeout_ms,
	};
	int r = p_ioctl(fd, AMDKFD_IOC_WAIT_EVENTS, &a);

	if (!r)
		*result = a.wait_result;
	return r;
}

/* Set @id on @fd from another thread @delay_ms from now. */
struct p_setter {
	pthread_t th;
	int fd;
	uint32_t id;
	unsigned delay_ms;
	double set_at; /* p_now_ms() just before the SET_EVENT */
	int r;
};

static inline void *p_setter_main(void *arg)
{
	struct p_setter *s = arg;
	struct timespec d = { s->delay_ms / 1000, (long)(s->delay_ms % 1000) * 1000000 };

	nanosleep(&d, NULL);
	s->set_at = p_now_ms();
	s->r = p_set(s->fd, s->id);
	return NULL;
}

/* Wait on @wait_fd for @id while another thread sets it through @set_fd;
 * check the wake-up came, promptly. */
static inline void p_check_set_wakes(const char *what, int wait_fd, int set_fd, uint32_t id)
{
	struct p_setter s = { .fd = set_fd, .id = id, .delay_ms = 30 };
	uint32_t res = 0;
	double woke;
	int r;

	CHECK(pthread_create(&s.th, NULL, p_setter_main, &s) == 0, "%s: thread", what);
	r = p_wait(wait_fd, id, P_TIMEOUT_MS, &res);
	woke = p_now_ms();
	pthread_join(s.th, NULL);
	CHECK(s.r == 0, "%s: SET_EVENT %u: %s", what, id, strerror(-s.r));
	CHECK(r == 0 && res == KFD_IOC_WAIT_RESULT_COMPLETE, "%s: WAIT_EVENTS %u: r %d result %u",
	      what, id, r, res);
	CHECK(woke - s.set_at < P_WAKE_BOUND_MS, "%s: woke %.1f ms after the set", what,
	      woke - s.set_at);
}

#endif
