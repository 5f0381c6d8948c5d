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
	fprintf(f, "usage: kfdsig trace [-o FILE] [-j] [-e CALLS] [--time MODE] [-r] [--bound MS]\n"
		   "                    [--fail-on WHAT] [--summary-only] [--emulate SPEC] --\n"
		   "                    PROGRAM [ARG...]\n"
		   "       kfdsig trace -P PID\n\n"
		   "Run PROGRAM and record, per process and thread, every KFD ioctl: event\n"
		   "ioctls (ids, wait-all, timeout, ages in and out, result, time slept), a\n"
		   "WAIT_EVENTS that may block as '<unfinished ...>' when it starts and\n"
		   "'<... WAIT_EVENTS resumed>' when it returns, queue creation, update and\n"
		   "destruction with their rings, the signal page's creation and mapping,\n"
		   "every other ioctl by name or number, and on the emulated KFD each\n"
		   "interrupt and the handler's decision. On the render node, the user-queue\n"
		   "(DRM_AMDGPU_USERQ, USERQ_SIGNAL, USERQ_WAIT) and syncobj (CREATE, DESTROY,\n"
		   "WAIT, TIMELINE_WAIT, QUERY) ioctls. Detectors report, while it\n"
		   "happens, a wait in flight on a slot written that no interrupt set (lost\n"
		   "wait, within the bound), a syncobj wait whose fences' seq64 slots passed\n"
		   "them that no interrupt woke (lost fence, within the bound), a wait\n"
		   "on an event nobody can signal (dead wait),\n"
		   "and instant-return storms, waits that slept through a signal, signals\n"
		   "without a waiter or never reset, queue errors, each with its severity\n"
		   "(error, warning, info). Children are traced too; PROGRAM's own input and\n"
		   "output are untouched. At the end: the calls still in flight with what is\n"
		   "known of their events, and a summary.\n\n"
		   "  -o, --output FILE  write the trace to FILE (default: stderr)\n"
		   "  -j, --json         JSON Lines (docs/schema/trace.json); --json-seq and\n"
		   "                     -p/--pretty as for every command\n"
		   "  -e, --calls LIST   print only these calls: events, queues, memory,\n"
		   "                     debug, other, all (default), comma-separated; the\n"
		   "                     summary and the findings keep them all\n"
		   "  --time MODE        stamp each line with: start (seconds since the\n"
		   "                     trace began, default), wall (HH:MM:SS), wall-us\n"
		   "                     (HH:MM:SS.uuuuuu), delta (since the previous line)\n"
		   "  -r                 --time delta\n"
		   "  --bound MS         report a lost wait within MS milliseconds (default\n"
		   "                     1000, at least 4)\n"
		   "  --fail-on WHAT     exit 1 on a finding: lost (a lost wait or fence: the "
		   "program\n"
		   "                     is killed once the closing block is known), error,\n"
		   "                     warning (that severity or worse)\n"
		   "  --summary-only     print only the findings and the summary\n"
		   "  -P, --pid PID      attach to a running process (see kfdsig-trace(1):\n"
		   "                     not possible)\n"
		   "  --emulate SPEC     trace on the emulated KFD (kfdsig exec --help); the\n"
		   "                     default when $KFDSIG_EMULATE is set or there is no\n"
		   "                     /dev/kfd\n\n"
		   "SIGINT or SIGTERM of kfdsig trace is passed on to PROGRAM (a second one\n"
		   "kills it); the trace ends with its closing block and summary.\n\n"
		   "Exit status: PROGRAM's (128+N when signal N killed it); 1 when --fail-on\n"
		   "matched, the trace cannot be set up or written, 2 for bad arguments,\n"
		   "126/127 when PROGRAM cannot be run / is not found.\n");
}

enum { OPT_SUMMARY_ONLY = 256, OPT_TIME, OPT_BOUND, OPT_FAIL_ON };

const struct option cmd_trace_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "calls", required_argument, NULL, 'e' },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "bound", required_argument, NULL, OPT_BOUND },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "summary-only", no_argument, NULL, OPT_SUMMARY_ONLY },
	{ "pid", required_argument, NULL, 'P' },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
/* '+': options end at PROGRAM, whose own options are its own */
const char cmd_trace_shortopts[] = "+o:e:rP:" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_trace_complete[] = {
	{ "output", "@file" },
	{ "calls", "events queues memory debug other all" },
	{ "time", "start wall wall-us delta" },
	{ "fail-on", "lost error warning" },
	{ "", "@command" },
	{ 0 },
};

enum fail_on { FAIL_NONE, FAIL_LOST, FAIL_ERROR, FAIL_WARNING };

static volatile int stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

/* The child: the write end of the pipe above the low fds, inherited
 * across exec, named in KFDSIG_TRACE_FD. */
static void run(char **argv, int wfd)
{
	char num[16];
	int fd = fcntl(wfd, F_DUPFD, 100), c;

	if (fd < 0)
		fd = wfd;
	else
		close(wfd);
	fcntl(fd, F_SETFD, 0);
	snprintf(num, sizeof(num), "%d", fd);
	setenv(KFDSIG_TRACE_FD_ENV, num, 1);
	execvp(argv[0], argv); /* with the signal dispositions kfdsig trace was given */
	c = errno;
	cli_error("cannot run '%s': %s", argv[0], strerror(c)); /* JSON under -j */
	_exit(c == ENOENT ? 127 : 126);
}

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* -P PID: the recorder lives in the traced process. */
static int attach(const char *arg, const char *spec)
{
	char *end;
	long pid = strtol(arg, &end, 10);

	if (*end || pid <= 0)
		return cli_usage_error("bad PID '%s'", arg);
	if (spec || access("/dev/kfd", F_OK)) /* no GPU here: only the emulated KFD */
		return cli_error("cannot attach to %ld: the emulated KFD lives inside the process, "
				 "so attaching needs it started under 'kfdsig trace' (or 'kfdsig "
				 "exec' ... 'kfdsig trace')",
				 pid);
	return cli_error("cannot attach to %ld: kfdsig trace records from inside the process "
			 "(the interposer); start it under 'kfdsig trace' (kfdsig-trace(1), "
			 "ATTACHING)",
			 pid);
}

int cmd_trace(int argc, char **argv)
{
	const char *out_path = NULL, *spec, *pid_arg = NULL;
	struct trace_report_opts o = { 0 };
	enum fail_on fail_on = FAIL_NONE;
	struct trace_report *rep;
	int c, p[2], status = 0, r, werr = 0, forwarded = 0;
	bool lost_kill = false;
	long bound = 1000;
	FILE *out = stderr, *file = NULL, *pretty = NULL;
	struct sigaction sa = { .sa_handler = on_stop };
	char *end, num[24];
	pid_t pid;

	while ((c = cli_getopt(argc, argv, cmd_trace_shortopts, cmd_trace_options)) != -1) {
		switch (c) {
		case 'o':
			out_path = optarg;
			break;
		case 'e':
			o.calls = trace_report_calls(optarg);
			if (!o.calls)
				return cli_usage_error("bad --calls '%s' (events, queues, memory, "
						       "debug, other, all)",
						       optarg);
			break;
		case 'r':
			o.time = TRACE_TIME_DELTA;
			break;
		case OPT_TIME:
			if (!strcmp(optarg, "start"))
				o.time = TRACE_TIME_START;
			else if (!strcmp(optarg, "wall"))
				o.time = TRACE_TIME_WALL;
			else if (!strcmp(optarg, "wall-us"))
				o.time = TRACE_TIME_WALL_US;
			else if (!strcmp(optarg, "delta"))
				o.time = TRACE_TIME_DELTA;
			else
				return cli_usage_error("bad --time '%s' (start, wall, wall-us, "
						       "delta)",
						       optarg);
			break;
		case OPT_BOUND:
			bound = strtol(optarg, &end, 10);
			if (*end || !*optarg || bound < 4 || bound > 3600000)
				return cli_usage_error("bad --bound '%s' (4 to 3600000 ms)",
						       optarg);
			break;
		case OPT_FAIL_ON:
			if (!strcmp(optarg, "lost"))
				fail_on = FAIL_LOST;
			else if (!strcmp(optarg, "error"))
				fail_on = FAIL_ERROR;
			else if (!strcmp(optarg, "warning"))
				fail_on = FAIL_WARNING;
			else
				return cli_usage_error("bad --fail-on '%s' (lost, error, warning)",
						       optarg);
			break;
		case OPT_SUMMARY_ONLY:
			o.summary_only = true;
			break;
		case 'P':
			pid_arg = optarg;
			break;
		default:
			return cli_opt_default(c, help);
		}
	}
	spec = cli_g.emulate ? cli_g.emulate : getenv("KFDSIG_EMULATE");
	if (spec && !*spec)
		spec = NULL;
	if (pid_arg) {
		if (optind < argc)
			return cli_usage_error("-P PID and a PROGRAM: one or the other");
		return attach(pid_arg, spec);
	}
	if (optind >= argc)
		return cli_usage_error("no PROGRAM to trace (kfdsig trace --help)");
	if (!spec && access("/dev/kfd", R_OK | W_OK))
		spec = "gfx90a"; /* no GPU here */
	r = cli_exec_env(spec);
	if (r)
		return r;
	if (!spec)
		unsetenv("KFDSIG_EMULATE"); /* the real KFD: the recorder passes through */
	snprintf(num, sizeof(num), "%ld", bound);
	setenv(KFDSIG_TRACE_BOUND_ENV, num, 1);
	if (out_path && !(out = file = fopen(out_path, "we")))
		return cli_error("cannot open '%s': %s", out_path, strerror(errno));
	if (out == stderr)
		setvbuf(out, NULL, _IOLBF, 0); /* one write per line beside the program's */
	if (cli_g.pretty && cli_g.json && !(out = pretty = cli_pretty_wrap(out)))
		return cli_error("cannot set up the trace: %s", strerror(errno));
	o.out = out;
	o.json = cli_g.json;
	o.json_seq = cli_g.json_seq;
	o.t0_ns = clock_ns(CLOCK_MONOTONIC);
	o.wall_ns = (int64_t)(clock_ns(CLOCK_REALTIME) - o.t0_ns);
	rep = trace_report_new(&o);
	if (!rep || pipe2(p, O_CLOEXEC))
		return cli_error("cannot set up the trace: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return cli_error("fork: %s", strerror(errno));
	if (pid == 0)
		run(argv + optind, p[1]);
	close(p[1]);
	/* ^C reaches the program (and is passed on to it); the trace goes on
	 * to its closing block and summary */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGQUIT, SIG_IGN);
	for (;;) {
		r = trace_report_drain(rep, p[0], pid, &status, &stop_sig,
				       fail_on == FAIL_LOST && !lost_kill);
		if (r == 1) { /* SIGINT/SIGTERM: on to the program, then kill it */
			kill(pid, forwarded++ ? SIGKILL : stop_sig);
			stop_sig = 0;
			continue;
		}
		if (r == 2) { /* a lost wait under --fail-on lost */
			struct timespec ts = { 0, 50000000 };
			nanosleep(&ts, NULL); /* the watchdog's state record after it */
			kill(pid, SIGKILL);
			lost_kill = true;
			continue;
		}
		break;
	}
	close(p[0]);
	if (r)
		cli_error("reading the trace: %s", strerror(-r));
	trace_report_in_flight(rep);
	trace_report_summary(rep, status);
	werr = trace_report_write_error(rep);
	errno = 0;
	if ((fflush(out) || ferror(out)) && !werr)
		werr = errno ? errno : EIO;
	if (pretty && fclose(pretty) && !werr)
		werr = errno ? errno : EIO;
	if (file && fclose(file) && !werr)
		werr = errno ? errno : EIO;
	if (werr) {
		trace_report_free(rep);
		return cli_error("cannot write the trace to '%s': %s",
				 out_path ? out_path : "standard error", strerror(werr));
	}
	if (lost_kill)
		status = 1; /* killed on a lost wait */
	else
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if ((fail_on == FAIL_ERROR && trace_report_severity(rep, 2)) ||
	    (fail_on == FAIL_WARNING &&
	     (trace_report_severity(rep, 2) || trace_report_severity(rep, 1))))
		status = status ? status : 1;
	trace_report_free(rep);
	return status;
}
