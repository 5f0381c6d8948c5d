/* SPDX-License-Identifier: MIT */
/*
 * kfdsig trace: run a program with the interposer's recorder
 * (src/preload/trace.c) and print what it records and the summary
 * (src/preload/trace_report.c). The KFD is the real one when /dev/kfd is
 * there and no emulation is asked, else the emulated one, as under
 * kfdsig exec (cli_exec_env()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "preload/trace_report.h"

static void help(FILE *f)
{
	fprintf(f, "usage: kfdsig trace [-o FILE] [-j] [--summary-only] [--emulate SPEC] --\n"
		   "                    PROGRAM [ARG...]\n\n"
		   "Run PROGRAM and record, per process and thread, every KFD event ioctl\n"
		   "(event ids, wait-all, timeout, ages in and out, result, time slept), queue\n"
		   "creation, update and destruction with their rings, the signal page's\n"
		   "creation and mapping, and on the emulated KFD each interrupt and the\n"
		   "handler's decision. Detectors report instant-return storms, waits that\n"
		   "slept through a signal, signals without a waiter or never reset, and\n"
		   "queue errors. Children are traced too; PROGRAM's own input and output are\n"
		   "untouched. A summary follows at exit.\n\n"
		   "  -o, --output FILE  write the trace to FILE (default: stderr)\n"
		   "  -j, --json         JSON Lines (docs/schema/trace.json)\n"
		   "  --summary-only     print only the summary and findings\n"
		   "  --emulate SPEC     trace on the emulated KFD (kfdsig exec --help); the\n"
		   "                     default when $KFDSIG_EMULATE is set or there is no\n"
		   "                     /dev/kfd\n\n"
		   "Exit status: PROGRAM's (128+N when signal N killed it); 2 for bad\n"
		   "arguments, 1 when the trace cannot be set up, 126/127 when PROGRAM\n"
		   "cannot be run / is not found.\n");
}

enum { OPT_SUMMARY_ONLY = 256 };

const struct option cmd_trace_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "summary-only", no_argument, NULL, OPT_SUMMARY_ONLY },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
/* '+': options end at PROGRAM, whose own options are its own */
const char cmd_trace_shortopts[] = "+o:" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_trace_complete[] = {
	{ "output", "@file" },
	{ "", "@command" },
	{ 0 },
};

/* The child: the write end of the pipe above the low fds, inherited
 * across exec, named in KFDSIG_TRACE_FD. */
static void run(char **argv, int wfd)
{
	char num[16];
	int fd = fcntl(wfd, F_DUPFD, 100);

	if (fd < 0)
		fd = wfd;
	else
		close(wfd);
	fcntl(fd, F_SETFD, 0);
	snprintf(num, sizeof(num), "%d", fd);
	setenv(KFDSIG_TRACE_FD_ENV, num, 1);
	execvp(argv[0], argv);
	fprintf(stderr, "kfdsig trace: cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

int cmd_trace(int argc, char **argv)
{
	const char *out_path = NULL, *spec;
	bool summary_only = false;
	struct trace_report *rep;
	struct timespec ts;
	int c, p[2], status = 0, r;
	FILE *out = stderr;
	pid_t pid;

	while ((c = cli_getopt(argc, argv, cmd_trace_shortopts, cmd_trace_options)) != -1) {
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case OPT_SUMMARY_ONLY:
			summary_only = true;
			break;
		default:
			return cli_opt_default(c, help);
		}
	}
	if (optind >= argc)
		return cli_usage_error("no PROGRAM to trace (kfdsig trace --help)");
	spec = cli_g.emulate ? cli_g.emulate : getenv("KFDSIG_EMULATE");
	if (spec && !*spec)
		spec = NULL;
	if (!spec && access("/dev/kfd", R_OK | W_OK))
		spec = "gfx90a"; /* no GPU here */
	r = cli_exec_env(spec);
	if (r)
		return r;
	if (!spec)
		unsetenv("KFDSIG_EMULATE"); /* the real KFD: the recorder passes through */
	if (out_path && !(out = fopen(out_path, "we")))
		return cli_error("cannot open '%s': %s", out_path, strerror(errno));
	if (out == stderr)
		setvbuf(out, NULL, _IOLBF, 0); /* one write per line beside the program's */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	rep = trace_report_new(out, cli_g.json, summary_only,
			       (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
	if (!rep || pipe2(p, O_CLOEXEC))
		return cli_error("cannot set up the trace: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return cli_error("fork: %s", strerror(errno));
	if (pid == 0)
		run(argv + optind, p[1]);
	close(p[1]);
	/* ^C reaches the program; the trace goes on to its summary */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	r = trace_report_drain(rep, p[0], pid, &status);
	close(p[0]);
	if (r)
		cli_error("reading the trace: %s", strerror(-r));
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	trace_report_summary(rep, status);
	trace_report_free(rep);
	if (out != stderr && fclose(out))
		return cli_error("cannot write '%s': %s", out_path, strerror(errno));
	return status;
}
