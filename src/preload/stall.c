/* SPDX-License-Identifier: MIT */
/*
 * The stall report of `kfdsig exec` (KFDSIG_EMU_STALL_MS=MS): a watcher
 * thread looks at the process's emulated KFD (emu_host_quiet()) a few
 * times per quiet period. The process is stalled when a WAIT_EVENTS call
 * sleeps on events that are not signalled (and will not time out by
 * itself within the period), while no engine runs a packet, has one it
 * may fetch or is suspended by a debugger: nothing on the GPU side can
 * signal those events. When that holds with nothing at all happening in
 * the emulated KFD (no ioctl entered or returned, no interrupt, no packet
 * taken, no wait woken) for MS milliseconds, it prints one line on stderr
 * and ends the process with PRELOAD_STALL_EXIT.
 *
 * Opt-in, as only the program knows whether one of its threads will still
 * signal: a host thread may set the event (SET_EVENT is an ioctl, which
 * restarts the period, but it may compute for a while first) or store a
 * doorbell without any ioctl. Choose MS well above the longest such
 * pause.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_host.h"
#include "preload/preload_priv.h"

static uint64_t stall_ms;
static struct kfdsig_emu *watched;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void report(const struct emu_quiet *s)
{
	char ids[160];
	size_t n = 0;

	ids[0] = 0;
	for (uint32_t i = 0; i < s->nids && i < EMU_QUIET_IDS && n < sizeof(ids); i++)
		n += (size_t)snprintf(ids + n, sizeof(ids) - n, "%s%u", i ? ", " : "", s->ids[i]);
	if (s->nids > EMU_QUIET_IDS && n < sizeof(ids))
		snprintf(ids + n, sizeof(ids) - n, ", ...");
	fprintf(stderr,
		"kfdsig: stalled: the program waits on event%s %s and the emulated GPU is idle "
		"(%u queue%s: %u halted, the rest empty); nothing happened in the emulated KFD "
		"for %llu ms: exit status %d (KFDSIG_EMU_STALL_MS)\n",
		s->nids == 1 ? "" : "s", ids, s->queues, s->queues == 1 ? "" : "s", s->halted,
		(unsigned long long)stall_ms, PRELOAD_STALL_EXIT);
	fflush(stderr);
	_exit(PRELOAD_STALL_EXIT);
}

static void *watcher(void *arg)
{
	struct kfdsig_emu *emu = arg;
	uint64_t period = stall_ms / 8, since = 0, last = 0;
	struct timespec ts;

	if (period < 10)
		period = 10;
	if (period > 100)
		period = 100;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)period * 1000000L;
	for (;;) {
		struct emu_quiet s;
		uint64_t t;

		nanosleep(&ts, NULL);
		emu_host_quiet(emu, stall_ms * 1000000ull, &s);
		t = now_ms();
		if (!s.waits || !s.gpu_idle || !since || s.activity != last) {
			since = s.waits && s.gpu_idle ? t : 0;
			last = s.activity;
			continue;
		}
		if (t - since >= stall_ms)
			report(&s);
	}
	return NULL;
}

static void start(void)
{
	pthread_attr_t a;
	pthread_t th;
	sigset_t all, old;

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	/* the program's signals go to its own threads */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_create(&th, &a, watcher, watched);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&a);
}

/* A forked child has its own emulated KFD and no watcher thread. */
static void child(void)
{
	start();
}

static int parse(const char *v, uint64_t *ms)
{
	char *end;
	unsigned long long x;

	if (!v || !*v)
		return -EINVAL;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno || *end || !x || x > 86400000ull || *v == '-' || *v == '+')
		return -EINVAL;
	*ms = x;
	return 0;
}

void preload_stall_watch(struct kfdsig_emu *emu)
{
	const char *v = getenv("KFDSIG_EMU_STALL_MS");

	if (!v)
		return;
	if (parse(v, &stall_ms)) {
		fprintf(stderr,
			"libkfdsig-preload: KFDSIG_EMU_STALL_MS='%s': not a number of "
			"milliseconds from 1 to 86400000; no stall report\n",
			v);
		return;
	}
	watched = emu;
	start();
	pthread_atfork(NULL, NULL, child);
}
