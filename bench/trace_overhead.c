/* SPDX-License-Identifier: MIT */
/*
 * What `kfdsig trace`'s recorder costs: the same program (this one, re-run
 * with --measure) on the emulated KFD under the interposer, once untraced
 * and once with the recorder writing to a pipe this process drains, in
 * alternating rounds, best round of each kept. Measured:
 *
 *   - WAIT_EVENTS on a signalled manual-reset event (it returns at once:
 *     the call's own cost, not a sleep), per call;
 *   - calls that are not the KFD's (stat, ioctl(FIONREAD) on a pipe,
 *     write+read on a pipe), which the recorder must leave alone.
 *
 * Prints ns/op and the ratio traced/untraced (goal for the calls that are
 * not the KFD's: <= 1.05x); never a pass/fail.
 *
 *   bench_trace_overhead [PRELOAD.so] [ROUNDS]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#ifdef KFDSIG_PRELOAD_BUILD
#define KFDSIG_PRELOAD_BUILT KFDSIG_PRELOAD_BUILD
#else
#define KFDSIG_PRELOAD_BUILT NULL
#endif

#include <linux/kfd_ioctl.h>

#define N_OPS 4
static const char *const op_names[N_OPS] = { "WAIT_EVENTS", "stat", "ioctl(FIONREAD)",
					     "write+read" };
static const unsigned op_iters[N_OPS] = { 100000, 200000, 1000000, 500000 };

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One measurement of each operation, ns per op, on stdout. */
static int measure(void)
{
	struct kfd_ioctl_create_event_args ce = { .event_type = KFD_IOC_EVENT_SIGNAL };
	struct kfd_ioctl_set_event_args se = { 0 };
	struct kfd_event_data d = { 0 };
	struct kfd_ioctl_wait_events_args w = {
		.events_ptr = (uint64_t)(uintptr_t)&d,
		.num_events = 1,
		.timeout = 1000,
	};
	int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC), p[2], n;
	double t0, ns[N_OPS];
	struct stat st;
	char c = 'x';

	if (kfd < 0 || pipe(p) || ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &ce))
		return 1;
	se.event_id = d.event_id = ce.event_id;
	if (ioctl(kfd, AMDKFD_IOC_SET_EVENT, &se))
		return 1;
	t0 = now_ns();
	for (unsigned i = 0; i < op_iters[0]; i++)
		if (ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w) || w.wait_result)
			return 1;
	ns[0] = (now_ns() - t0) / op_iters[0];
	t0 = now_ns();
	for (unsigned i = 0; i < op_iters[1]; i++)
		stat("/", &st);
	ns[1] = (now_ns() - t0) / op_iters[1];
	t0 = now_ns();
	for (unsigned i = 0; i < op_iters[2]; i++)
		ioctl(p[0], FIONREAD, &n);
	ns[2] = (now_ns() - t0) / op_iters[2];
	t0 = now_ns();
	for (unsigned i = 0; i < op_iters[3]; i++)
		if (write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1)
			return 1;
	ns[3] = (now_ns() - t0) / op_iters[3];
	for (int i = 0; i < N_OPS; i++)
		printf("%.3f\n", ns[i]);
	return 0;
}

/* Read the records and drop them, as kfdsig trace reads them. */
static void *drain(void *arg)
{
	char buf[65536];
	int fd = (int)(intptr_t)arg;

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

/* Run this program with --measure under @preload, traced or not. */
static int run_child(const char *self, const char *preload, bool traced, double *ns)
{
	int p[2], t[2] = { -1, -1 }, status;
	pthread_t th;
	pid_t pid;
	FILE *f;

	if (pipe(p) || (traced && pipe(t)))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char num[16];

		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		setenv("LD_PRELOAD", preload, 1);
		setenv("KFDSIG_EMULATE", "gfx90a", 1);
		unsetenv("KFDSIG_TRACE_FD");
		if (traced) {
			close(t[0]);
			snprintf(num, sizeof(num), "%d", t[1]);
			setenv("KFDSIG_TRACE_FD", num, 1);
		}
		execl(self, self, "--measure", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	if (traced) {
		close(t[1]);
		if (pthread_create(&th, NULL, drain, (void *)(intptr_t)t[0]))
			return -1;
	}
	f = fdopen(p[0], "r");
	for (int i = 0; i < N_OPS; i++)
		if (!f || fscanf(f, "%lf", &ns[i]) != 1)
			ns[i] = -1;
	if (f)
		fclose(f);
	if (traced) {
		pthread_join(th, NULL);
		close(t[0]);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *preload = NULL;
	double best[2][N_OPS], ns[N_OPS];
	int rounds = 5;
	char self[4096];
	int st;

	if (argc > 1 && !strcmp(argv[1], "--measure"))
		return measure();
	st = bench_preload_args(argc, argv, KFDSIG_PRELOAD_BUILT, &preload, &rounds, self,
				sizeof(self));
	if (st)
		return st;
	for (int w = 0; w < 2; w++)
		for (int i = 0; i < N_OPS; i++)
			best[w][i] = 1e30;
	/* Alternate so that drift of the machine hits both sides alike. */
	for (int r = 0; r < rounds; r++)
		for (int w = 0; w < 2; w++) {
			if (run_child(self, preload, w, ns)) {
				fprintf(stderr, "measurement child failed\n");
				return 1;
			}
			for (int i = 0; i < N_OPS; i++)
				if (ns[i] >= 0 && ns[i] < best[w][i])
					best[w][i] = ns[i];
		}
	printf("kfdsig trace recorder cost on the emulated KFD (best of %d rounds, ns/op;\n"
	       "goal for calls that are not the KFD's: <= 1.05x)\n",
	       rounds);
	printf("%-16s %12s %12s %8s\n", "operation", "untraced", "traced", "ratio");
	for (int i = 0; i < N_OPS; i++)
		printf("%-16s %12.1f %12.1f %7.3fx\n", op_names[i], best[0][i], best[1][i],
		       best[1][i] / best[0][i]);
	return 0;
}
