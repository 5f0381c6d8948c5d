/* SPDX-License-Identifier: MIT */
/*
 * What the LD_PRELOAD interposer of `kfdsig exec` costs a call that is not
 * the KFD's: open+read+close and open+close of a regular file, stat of it,
 * an ioctl (FIONREAD) on a pipe and write+read on a pipe, each timed in a
 * child without the interposer and in a child with it (this same program
 * re-run), in alternating rounds. Each child times BLOCKS short blocks per
 * operation (about half a millisecond each) in CPU time of its thread and
 * keeps the best; the rounds keep the best child. The ratio
 * with/without is the figure (goal: <= 1.05x); getpid, which the
 * interposer does not wrap, is the control: its ratio shows how far the
 * machine's noise moves a ratio that should be 1. Never a pass/fail.
 *
 *   bench_preload_overhead [PRELOAD.so] [ROUNDS]   (default 7 rounds)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#ifdef KFDSIG_PRELOAD_BUILD
#define KFDSIG_PRELOAD_BUILT KFDSIG_PRELOAD_BUILD
#else
#define KFDSIG_PRELOAD_BUILT NULL
#endif

#define N_OPS 6
static const char *const op_names[N_OPS] = { "getpid (control)", "open+read+close",
					     "open+close",	 "stat",
					     "ioctl(FIONREAD)",	 "write+read pipe" };
/* Operations per block; each child times BLOCKS blocks of each. */
static const unsigned op_iters[N_OPS] = { 2000, 100, 150, 400, 1000, 300 };
#define BLOCKS 60

/* CPU time of this thread, user and system: a block that another
 * process preempts is not charged for the time it waited. */
static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One block of @op: the operation op_iters[op] times. */
static int run_op(int op, const char *path, int p[2], char *buf)
{
	struct stat st;
	int fd, n;

	for (unsigned i = 0; i < op_iters[op]; i++) {
		switch (op) {
		case 0:
			if (syscall(SYS_getpid) <= 0)
				return 1;
			break;
		case 1:
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0 || read(fd, buf, 4096) != 4096)
				return 1;
			close(fd);
			break;
		case 2:
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				return 1;
			close(fd);
			break;
		case 3:
			if (stat(path, &st))
				return 1;
			break;
		case 4:
			if (ioctl(p[0], FIONREAD, &n))
				return 1;
			break;
		default:
			if (write(p[1], buf, 1) != 1 || read(p[0], buf, 1) != 1)
				return 1;
			break;
		}
	}
	return 0;
}

/* The best block of each operation, ns per op, on stdout. The blocks of
 * the operations are interleaved, so that a busy moment of the machine
 * costs every operation a block, and the best block is one no other
 * process interrupted. */
static int measure(void)
{
	char path[] = "/tmp/kfdsig-bench-XXXXXX", buf[4096] = { 0 };
	int fd = mkstemp(path), p[2];
	double best[N_OPS];

	if (fd < 0 || pipe(p) || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return 1;
	close(fd);
	for (int i = 0; i < N_OPS; i++)
		best[i] = 1e30;
	for (int b = 0; b < BLOCKS; b++)
		for (int i = 0; i < N_OPS; i++) {
			double t0 = now_ns(), ns;

			if (run_op(i, path, p, buf))
				return 1;
			ns = (now_ns() - t0) / op_iters[i];
			if (ns < best[i])
				best[i] = ns;
		}
	unlink(path);
	for (int i = 0; i < N_OPS; i++)
		printf("%.3f\n", best[i]);
	return 0;
}

/* Run this program with --measure, LD_PRELOAD=@preload or unset. */
static int run_child(const char *self, const char *preload, double *ns)
{
	int p[2], status;
	pid_t pid;
	FILE *f;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		if (preload)
			setenv("LD_PRELOAD", preload, 1);
		else
			unsetenv("LD_PRELOAD");
		execl(self, self, "--measure", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	f = fdopen(p[0], "r");
	for (int i = 0; i < N_OPS; i++)
		if (!f || fscanf(f, "%lf", &ns[i]) != 1)
			ns[i] = -1;
	if (f)
		fclose(f);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *preload = NULL;
	double best[2][N_OPS], ns[N_OPS];
	int rounds = 7;
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
			if (run_child(self, w ? preload : NULL, ns)) {
				fprintf(stderr, "measurement child failed\n");
				return 1;
			}
			for (int i = 0; i < N_OPS; i++)
				if (ns[i] >= 0 && ns[i] < best[w][i])
					best[w][i] = ns[i];
		}
	printf("preload pass-through overhead (best of %d rounds x %d blocks, ns/op; goal <= "
	       "1.05x)\n",
	       rounds, BLOCKS);
	printf("%-18s %12s %12s %8s\n", "operation", "plain", "interposed", "ratio");
	for (int i = 0; i < N_OPS; i++)
		printf("%-18s %12.1f %12.1f %7.3fx\n", op_names[i], best[0][i], best[1][i],
		       best[1][i] / best[0][i]);
	return 0;
}
