/* SPDX-License-Identifier: MIT */
/*
 * What the LD_PRELOAD interposer of `kfdsig exec` costs a call that is not
 * the KFD's: open+close of a regular file, stat of it, an ioctl (FIONREAD)
 * on a pipe and read+write on a pipe, each timed in a child without the
 * interposer and in a child with it (this same program re-run), in
 * alternating rounds, best round of each kept. Prints ns/op and the ratio
 * with/without (goal: <= 1.05x); never a pass/fail.
 *
 *   bench_preload_overhead [PRELOAD.so] [ROUNDS]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N_OPS 4
static const char *const op_names[N_OPS] = { "open+close", "stat", "ioctl(FIONREAD)",
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
	char path[] = "/tmp/kfdsig-bench-XXXXXX", c = 'x';
	int fd = mkstemp(path), p[2], n;
	struct stat st;
	double t0, ns[N_OPS];

	if (fd < 0 || pipe(p))
		return 1;
	close(fd);
	t0 = now_ns();
	for (unsigned i = 0; i < op_iters[0]; i++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		close(fd);
	}
	ns[0] = (now_ns() - t0) / op_iters[0];
	t0 = now_ns();
	for (unsigned i = 0; i < op_iters[1]; i++)
		stat(path, &st);
	ns[1] = (now_ns() - t0) / op_iters[1];
	t0 = now_ns();
	for (unsigned i = 0; i < op_iters[2]; i++)
		ioctl(p[0], FIONREAD, &n);
	ns[2] = (now_ns() - t0) / op_iters[2];
	t0 = now_ns();
	for (unsigned i = 0; i < op_iters[3]; i++) {
		if (write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1)
			return 1;
	}
	ns[3] = (now_ns() - t0) / op_iters[3];
	unlink(path);
	for (int i = 0; i < N_OPS; i++)
		printf("%.3f\n", ns[i]);
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
	int rounds = 5;
	char self[4096];
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "--measure"))
		return measure();
	if (argc > 1)
		preload = argv[1];
	else if (getenv("KFDSIG_PRELOAD"))
		preload = getenv("KFDSIG_PRELOAD");
#ifdef KFDSIG_PRELOAD_BUILD
	else
		preload = KFDSIG_PRELOAD_BUILD;
#endif
	if (argc > 2)
		rounds = atoi(argv[2]) > 0 ? atoi(argv[2]) : rounds;
	if (!preload || access(preload, R_OK)) {
		fprintf(stderr, "usage: %s PRELOAD.so [ROUNDS] (no interposer found)\n", argv[0]);
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
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
	printf("preload pass-through overhead (best of %d rounds, ns/op; goal <= 1.05x)\n", rounds);
	printf("%-16s %12s %12s %8s\n", "operation", "plain", "interposed", "ratio");
	for (int i = 0; i < N_OPS; i++)
		printf("%-16s %12.1f %12.1f %7.3fx\n", op_names[i], best[0][i], best[1][i],
		       best[1][i] / best[0][i]);
	return 0;
}
