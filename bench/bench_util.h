/* SPDX-License-Identifier: MIT */
/*
 * What the benches share: a clock that does not charge a round for the time
 * another process had the CPU, instruction counts where perf counters are
 * readable, best-of-interleaved-rounds bookkeeping, and the way the
 * interposer benches find the interposer and themselves. Header-only: each
 * bench is one program.
 */
#ifndef KFDSIG_BENCH_UTIL_H
#define KFDSIG_BENCH_UTIL_H

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* CPU time of this thread, in ns. */
static inline double bench_thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One measured loop: time and (where readable, else < 0) instructions per
 * iteration. */
struct bench_result {
	double ns;
	double insns;
};

#define BENCH_RESULT_WORST ((struct bench_result){ 1e30, -1 })

/* Run @run(@ctx) once, which performs @iters iterations, timed in thread
 * CPU time and counted in user-space instructions. */
static inline struct bench_result bench_measure(unsigned (*run)(const void *ctx), const void *ctx,
						unsigned iters)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_HARDWARE,
					.size = sizeof(attr),
					.config = PERF_COUNT_HW_INSTRUCTIONS,
					.disabled = 1,
					.exclude_kernel = 1,
					.exclude_hv = 1 };
	struct bench_result r = { 0, -1 };
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	volatile unsigned sink;
	long long count = 0;
	double t0;

	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	}
	t0 = bench_thread_ns();
	sink = run(ctx);
	r.ns = (bench_thread_ns() - t0) / iters;
	(void)sink;
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd, &count, sizeof(count)) == sizeof(count))
			r.insns = (double)count / iters;
		close(fd);
	}
	return r;
}

/* Keep the better (faster) of @best and @m. */
static inline void bench_keep_best(struct bench_result *best, struct bench_result m)
{
	if (m.ns < best->ns)
		*best = m;
}

/* One row: "  LABEL  N ns/UNIT  [N instructions/UNIT]" (no newline). */
static inline void bench_print_row(const char *label, struct bench_result r, const char *unit)
{
	printf("  %-34s %8.2f ns/%s", label, r.ns, unit);
	if (r.insns >= 0)
		printf("  %7.1f instructions/%s", r.insns, unit);
}

/* "  ratio WHAT: Nx time[, Nx instructions]" of @a to @floor_ (no newline). */
static inline void bench_print_ratio(const char *what, struct bench_result a,
				     struct bench_result floor_)
{
	printf("  ratio %-18s %.2fx time", what, a.ns / floor_.ns);
	if (a.insns >= 0 && floor_.insns > 0)
		printf(", %.2fx instructions", a.insns / floor_.insns);
}

/* The report of a fence-emission bench (PM4 or SDMA): the full emitter,
 * the copy floor and the prepared template, each per fence, and the two
 * ratios to the floor. */
static inline void bench_print_emit_report(const char *engine, const char *target, int rounds,
					   unsigned iters, const char *emit_label,
					   struct bench_result emit, const char *floor_label,
					   struct bench_result floor_, const char *fast_label,
					   struct bench_result fast)
{
	printf("%s fence emission on %s (host CPU, best of %d rounds of %u fences)\n", engine,
	       target, rounds, iters);
	bench_print_row(emit_label, emit, "fence");
	printf("\n");
	bench_print_row(floor_label, floor_, "fence");
	printf("\n");
	bench_print_row(fast_label, fast, "fence");
	printf("\n");
	bench_print_ratio("prepared/template:", fast, floor_);
	printf("  (goal: <= 1.5x)\n");
	bench_print_ratio("emit/template:", emit, floor_);
	if (emit.insns < 0 || floor_.insns <= 0)
		printf(" (instruction counts unavailable: perf_event_open refused)");
	printf("\n");
}

/* Iterations per round: @dflt, or KFDSIG_BENCH_ITERS when it is a positive
 * number. */
static inline unsigned bench_iters(unsigned dflt)
{
	const char *s = getenv("KFDSIG_BENCH_ITERS");

	return s && atoi(s) > 0 ? (unsigned)atoi(s) : dflt;
}

/*
 * The interposer benches: `PROG [PRELOAD.so] [ROUNDS]`. Finds the interposer
 * (argument, KFDSIG_PRELOAD, else the build tree's @built or NULL) and this
 * program's own path (@self, to run itself as the measured child). Return 0,
 * or 2 after printing the usage when no interposer is found, or 1 when the
 * program's own path cannot be read.
 */
static inline int bench_preload_args(int argc, char **argv, const char *built, const char **preload,
				     int *rounds, char *self, size_t selfsz)
{
	ssize_t n;

	*preload = argc > 1 ? argv[1] : getenv("KFDSIG_PRELOAD") ? getenv("KFDSIG_PRELOAD") : built;
	if (argc > 2 && atoi(argv[2]) > 0)
		*rounds = atoi(argv[2]);
	if (!*preload || access(*preload, R_OK)) {
		fprintf(stderr, "usage: %s PRELOAD.so [ROUNDS] (no interposer found)\n", argv[0]);
		return 2;
	}
	n = readlink("/proc/self/exe", self, selfsz - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	return 0;
}

#endif
