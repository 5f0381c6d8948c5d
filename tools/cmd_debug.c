/* SPDX-License-Identifier: MIT */
/*
 * kfdsig debug: attach to a KFD process (or start one) as its debugger
 * through AMDKFD_IOC_DBG_TRAP and print its exceptions as they arrive.
 *
 * Hardware KFD: the target is traced (PTRACE_SEIZE of --pid, or a child
 * that did PTRACE_TRACEME before exec), as kfd_chardev.c
 * kfd_ioctl_set_debug_trap() requires of a debugger of another process;
 * DBG_TRAP ENABLE gets a pipe's write end as dbg_fd (kfd_debug.c
 * kfd_dbg_ev_raise() queues debug_event_write_work_handler(), which
 * kernel_write()s one byte, '.', per reported exception: an eventfd takes
 * only 8-byte writes); each byte is followed by QUERY_DEBUG_EVENT until
 * -EAGAIN. A started command has no KFD process until it opens /dev/kfd:
 * ENABLE is retried while it answers -ESRCH.
 *
 * Emulated KFD: the emulated KFD lives inside each client process, so the
 * command runs under the interposer (as kfdsig exec) with its debug agent
 * (src/proto/debug_agent.h), which enables the interface from inside the
 * target and answers the same operations over a socket.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kfdsig/debug.h>

#include "../src/proto/debug_agent.h"
#include "cli.h"

#define SLICE_MS 100	     /* one wait for an exception */
#define AGENT_READY_MS 20000 /* the agent's first message */
#define ENABLE_RETRY_MS 10

static void help(FILE *f)
{
	fprintf(f,
		"usage: kfdsig debug [OPTIONS] (-P PID | [--] COMMAND [ARG...])\n\n"
		"Debug a KFD process through the kernel's debugger interface "
		"(AMDKFD_IOC_DBG_TRAP,\n"
		"KFD 1.13+): attach to process PID, or start COMMAND traced, enable the trap\n"
		"interface with a pipe as dbg_fd, and print each exception KFD reports, naming\n"
		"its queue (or GPU) and its EC_* codes, until the target exits.\n\n"
		"  -P, --pid PID          attach to a running process (ptrace seize; hardware "
		"KFD)\n"
		"  -x, --exceptions MASK  the exceptions to report: names or numbers separated by\n"
		"                         ',' or '|' (queue-wave-trap, ...), or a hex mask\n"
		"                         (default: all)\n"
		"  -s, --snapshot         print the target's queues and GPUs (GET_QUEUE_SNAPSHOT,\n"
		"                         GET_DEVICE_SNAPSHOT) when attached and after each "
		"exception\n"
		"      --suspend          suspend the queue of each queue exception but\n"
		"                         EC_QUEUE_NEW (SUSPEND_QUEUES; needs the target's "
		"runtime\n"
		"                         enabled)\n"
		"      --resume           then resume it (RESUME_QUEUES) after printing\n"
		"  -c, --count N          stop after N exceptions (default: run until the target "
		"ends)\n"
		"  -T, --timeout MS       stop after MS milliseconds (default: none)\n"
		"  -o, --output FILE      write the records to FILE (default: standard output\n"
		"                         with --pid, standard error with a COMMAND, whose\n"
		"                         standard output stays its own)\n"
		"A started COMMAND still running when kfdsig debug stops (--count, --timeout,\n"
		"an error) is killed.\n\n"
		"On the emulated KFD (--emulate SPEC or KFDSIG_EMULATE) only COMMAND works: it "
		"runs\n"
		"under the interposer as with kfdsig exec, whose debug agent enables the "
		"interface\n"
		"inside the command's process (the emulated KFD of a process is not reachable "
		"from\n"
		"another one).\n\n"
		"A runtime enable of the target (AMDKFD_IOC_RUNTIME_ENABLE, which waits for the\n"
		"debugger) is answered with EC_PROCESS_RUNTIME.\n\n"
		"Output: one line per exception, 'pid P queue Q gpu 0xG: EC_QUEUE_WAVE_TRAP'; "
		"with\n"
		"--json one JSON object per line (JSON Lines, docs/schema/debug.json): attached,\n"
		"exception, runtime, queue, device, suspend, resume and exit records.\n");
	cli_help_exit(f, "when the target cannot be attached or debugged, or an operation fails");
}

enum { OPT_SUSPEND = 256, OPT_RESUME };

const struct option cmd_debug_options[] = {
	{ "pid", required_argument, NULL, 'P' },
	{ "exceptions", required_argument, NULL, 'x' },
	{ "snapshot", no_argument, NULL, 's' },
	{ "suspend", no_argument, NULL, OPT_SUSPEND },
	{ "resume", no_argument, NULL, OPT_RESUME },
	{ "count", required_argument, NULL, 'c' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "output", required_argument, NULL, 'o' },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
/* '+': options end at COMMAND, whose own options are its own */
const char cmd_debug_shortopts[] = "+P:x:sc:T:o:" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_debug_complete[] = {
	{ "exceptions", "queue-wave-trap queue-wave-abort queue-wave-illegal-instruction "
			"queue-wave-memory-violation device-memory-violation" },
	{ "output", "@file" },
	{ "", "@command" },
	{ 0 },
};

/* The standard output a started COMMAND gets (-1: kfdsig debug's own): the
 * records go to standard output, which -o or a COMMAND moves elsewhere. */
static int prog_stdout = -1;

static void child_stdout(void)
{
	if (prog_stdout >= 0 && dup2(prog_stdout, STDOUT_FILENO) < 0)
		_exit(126);
}

/* Make standard output the records' place: @path, or standard error when
 * @cmd is started (its standard output is the one kfdsig debug had). */
static int records_to(const char *path, char **cmd)
{
	int fd;

	if (!path && !cmd)
		return 0;
	if (path && strcmp(path, "-")) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0)
			return cli_error("cannot open '%s' for writing: %s", path, strerror(errno));
	} else if (path) {
		return 0; /* -o -: standard output */
	} else {
		fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
		if (fd < 0)
			return cli_error("dup: %s", strerror(errno));
	}
	fflush(stdout);
	prog_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (prog_stdout < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		int e = errno;
		close(fd);
		return cli_error("cannot redirect the records: %s", strerror(e));
	}
	close(fd);
	if (path)
		cli_stdout_name(path);
	return 0;
}

/* The target and how its KFD is reached. */
struct dbg {
	bool emulated;
	pid_t pid;
	bool child;  /* started by us (waited for) */
	bool gone;   /* exited */
	int status;  /* its wait status when gone */
	bool traced; /* hardware: we ptrace it */
	int ev_r;    /* hardware: dbg_fd's read end */
	int sock;    /* emulated: the agent */
	uint64_t mask;
	struct cli_kfd k;
	struct kfdsig_dbg_runtime_info rinfo;
};

/* ---- output -------------------------------------------------------------- */

/* "EC_QUEUE_WAVE_TRAP" from the library's "queue-wave-trap". */
static void ec_kernel_name(uint32_t ec, char *buf, size_t len)
{
	const char *n = kfdsig_exc_name(ec);
	size_t i = 0;

	if (!n) {
		snprintf(buf, len, "EC_%u", ec);
		return;
	}
	i = (size_t)snprintf(buf, len, "EC_");
	for (; *n && i + 1 < len; n++)
		buf[i++] = *n == '-' ? '_' : (char)(*n >= 'a' && *n <= 'z' ? *n - 32 : *n);
	buf[i < len ? i : len - 1] = 0;
}

static void print_names(FILE *f, uint64_t mask, bool json)
{
	bool first = true;
	char name[64];

	for (uint32_t bit = 0; bit < 64; bit++) {
		if (!(mask & (1ull << bit)))
			continue;
		ec_kernel_name(bit + 1, name, sizeof(name));
		if (json) {
			fputs(first ? "" : ", ", f);
			cli_json_str(f, name);
		} else {
			fprintf(f, "%s%s", first ? "" : ", ", name);
		}
		first = false;
	}
	if (first && !json)
		fputs("none", f);
}

static const char *source_name(uint32_t s)
{
	return s == KFDSIG_DBG_SOURCE_QUEUE    ? "queue"
	       : s == KFDSIG_DBG_SOURCE_DEVICE ? "device"
					       : "process";
}

/* One line (record) per exception of @ev in @mask, in the order they
 * happened: a queue's EC_QUEUE_NEW before anything else of that queue
 * (kfd_chardev.c kfd_ioctl_create_queue() raises it before the ioctl
 * returns, so before anything runs on the queue), then by code. A report holds what was raised since the last query, so
 * its bits can only be ordered this way. Return the lines printed. */
static uint64_t print_event(const struct dbg *d, const struct kfdsig_dbg_event *ev, uint64_t mask)
{
	uint64_t left = ev->exceptions & mask, n = 0;
	const uint64_t first = KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_NEW);

	while (left) {
		uint64_t bit = (left & first) ? first : left & -left;

		left &= ~bit;
		n++;
		if (cli_json()) {
			cli_json_record(stdout);
			printf("{\"type\": \"exception\", \"pid\": %d, \"source\": \"%s\", "
			       "\"gpu_id\": %u, \"queue_id\": %u, \"exceptions\": %" PRIu64
			       ", \"names\": [",
			       (int)d->pid, source_name(ev->source), ev->gpu_id, ev->queue_id, bit);
			print_names(stdout, bit, true);
			printf("]}\n");
			continue;
		}
		printf("pid %d ", (int)d->pid);
		if (ev->source == KFDSIG_DBG_SOURCE_QUEUE)
			printf("queue %u gpu 0x%x: ", ev->queue_id, ev->gpu_id);
		else if (ev->source == KFDSIG_DBG_SOURCE_DEVICE)
			printf("device gpu 0x%x: ", ev->gpu_id);
		else
			printf("process: ");
		print_names(stdout, bit, false);
		putchar('\n');
	}
	cli_flush_stdout();
	return n;
}

static const char *queue_type_name(uint32_t t)
{
	/* kfd_ioctl.h KFD_IOC_QUEUE_TYPE_*: COMPUTE 0, SDMA 1, COMPUTE_AQL 2,
	 * SDMA_XGMI 3, SDMA_BY_ENG_ID 4 */
	static const char *const n[] = { "compute", "sdma", "compute-aql", "sdma-xgmi",
					 "sdma-by-eng-id" };
	return t < sizeof(n) / sizeof(n[0]) ? n[t] : "unknown";
}

static void print_queue(const struct dbg *d, const struct kfdsig_dbg_queue_entry *q)
{
	if (cli_json()) {
		cli_json_record(stdout);
		printf("{\"type\": \"queue\", \"pid\": %d, \"queue_id\": %u, \"gpu_id\": %u, "
		       "\"queue_type\": \"%s\", \"ring_base_address\": %" PRIu64
		       ", \"ring_size\": %u, \"ctx_save_restore_address\": %" PRIu64
		       ", \"ctx_save_restore_area_size\": %u, \"exceptions\": %" PRIu64
		       ", \"names\": [",
		       (int)d->pid, q->queue_id, q->gpu_id, queue_type_name(q->queue_type),
		       q->ring_base_address, q->ring_size, q->ctx_save_restore_address,
		       q->ctx_save_restore_area_size, q->exception_status);
		print_names(stdout, q->exception_status, true);
		printf("]}\n");
	} else {
		printf("  queue %u gpu 0x%x %s ring 0x%" PRIx64 " (%u bytes) cwsr 0x%" PRIx64
		       " (%u bytes) exceptions ",
		       q->queue_id, q->gpu_id, queue_type_name(q->queue_type), q->ring_base_address,
		       q->ring_size, q->ctx_save_restore_address, q->ctx_save_restore_area_size);
		print_names(stdout, q->exception_status, false);
		putchar('\n');
	}
}

static void print_device(const struct dbg *d, const struct kfdsig_dbg_device_entry *e)
{
	if (cli_json()) {
		cli_json_record(stdout);
		printf("{\"type\": \"device\", \"pid\": %d, \"gpu_id\": %u, "
		       "\"gfx_target_version\": %u, \"location_id\": %u, \"device_id\": %u, "
		       "\"simd_count\": %u, \"capability\": %u, \"debug_prop\": %u, "
		       "\"exceptions\": %" PRIu64 ", \"names\": [",
		       (int)d->pid, e->gpu_id, e->gfx_target_version, e->location_id, e->device_id,
		       e->simd_count, e->capability, e->debug_prop, e->exception_status);
		print_names(stdout, e->exception_status, true);
		printf("]}\n");
	} else {
		printf("  device gpu 0x%x gfx_target_version %u device 0x%x simds %u capability "
		       "0x%x exceptions ",
		       e->gpu_id, e->gfx_target_version, e->device_id, e->simd_count,
		       e->capability);
		print_names(stdout, e->exception_status, false);
		putchar('\n');
	}
}

static void print_queue_op(const struct dbg *d, const char *op, uint32_t id_status)
{
	const char *st = (id_status & KFDSIG_DBG_QUEUE_INVALID) ? "invalid"
			 : (id_status & KFDSIG_DBG_QUEUE_ERROR) ? "error"
								: "ok";

	if (cli_json()) {
		cli_json_record(stdout);
		printf("{\"type\": \"%s\", \"pid\": %d, \"queue_id\": %u, \"status\": \"%s\"}\n",
		       op, (int)d->pid, KFDSIG_DBG_QUEUE_ID(id_status), st);
	} else {
		printf("%s queue %u: %s\n", op, KFDSIG_DBG_QUEUE_ID(id_status), st);
	}
	cli_flush_stdout();
}

static void print_attached(const struct dbg *d)
{
	if (cli_json()) {
		cli_json_record(stdout);
		printf("{\"type\": \"attached\", \"pid\": %d, \"emulated\": %s, "
		       "\"runtime_state\": %u, \"exception_mask\": %" PRIu64 "}\n",
		       (int)d->pid, d->emulated ? "true" : "false", d->rinfo.runtime_state,
		       d->mask);
	} else {
		cli_note("attached to pid %d (%s KFD, runtime state %u)", (int)d->pid,
			 d->emulated ? "emulated" : "hardware", d->rinfo.runtime_state);
	}
	cli_flush_stdout();
}

static void print_exit(const struct dbg *d)
{
	if (!d->gone)
		return;
	if (cli_json()) {
		cli_json_record(stdout);
		printf("{\"type\": \"exit\", \"pid\": %d, \"status\": ", (int)d->pid);
		if (WIFEXITED(d->status))
			printf("%d, \"signal\": null}\n", WEXITSTATUS(d->status));
		else
			printf("null, \"signal\": %d}\n", WTERMSIG(d->status));
	} else if (WIFEXITED(d->status)) {
		cli_note("pid %d exited with status %d", (int)d->pid, WEXITSTATUS(d->status));
	} else {
		cli_note("pid %d killed by signal %d", (int)d->pid, WTERMSIG(d->status));
	}
	cli_flush_stdout();
}

/* ---- the target's life --------------------------------------------------- */

/* Reap what the target did: ptrace stops are continued with their signal;
 * an exit marks it gone. @block: wait for a change. */
static void reap(struct dbg *d, bool block)
{
	int st;
	pid_t r;

	if (d->gone || (!d->child && !d->traced)) {
		if (!d->child && !d->traced && kill(d->pid, 0) && errno == ESRCH)
			d->gone = true;
		return;
	}
	while ((r = waitpid(d->pid, &st, (block ? 0 : WNOHANG) | __WALL)) == d->pid) {
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			d->gone = true;
			d->status = st;
			return;
		}
		if (WIFSTOPPED(st)) {
			int sig = WSTOPSIG(st);

			/* exec's SIGTRAP (TRACEME) and the seize's stops: not the
			 * target's signals */
			if (sig == SIGTRAP || (st >> 16) == PTRACE_EVENT_STOP)
				sig = 0;
			ptrace(PTRACE_CONT, d->pid, 0, (void *)(long)sig);
		}
		block = false;
	}
	if (r < 0 && errno == ECHILD && !d->child)
		d->traced = false;
}

/* ---- operations: hardware (the library) or emulated (the agent) --------- */

/* The agent's reason for its last failure (its kfdsig_last_error()). */
static char agent_msg[256];

static const char *err_msg(const struct dbg *d)
{
	return d->emulated ? agent_msg : kfdsig_last_error();
}

static int agent_call(struct dbg *d, struct dbga_req *q, struct dbga_resp *r, int timeout_ms)
{
	struct pollfd p = { .fd = d->sock, .events = POLLIN };
	ssize_t n;

	if (send(d->sock, q, sizeof(*q), MSG_NOSIGNAL) != (ssize_t)sizeof(*q))
		return -EPIPE;
	if (poll(&p, 1, timeout_ms) <= 0)
		return -ETIMEDOUT;
	n = recv(d->sock, r, sizeof(*r), 0);
	if (n != (ssize_t)sizeof(*r))
		return -EPIPE; /* the target is gone */
	if (r->ret < 0)
		snprintf(agent_msg, sizeof(agent_msg), "%s", r->msg);
	return r->ret;
}

/* A query clears every exception it reports, those outside the mask too:
 * the status keeps what was not cleared (kfd_dbg_ev_query_debug_event()
 * clears only its exception_mask argument), so an unwanted EC_QUEUE_NEW
 * left set would be reported again with each later query. */
#define CLEAR_ALL (KFDSIG_EC_MASK_QUEUE | KFDSIG_EC_MASK_DEVICE | KFDSIG_EC_MASK_PROCESS)

/* The next reported exception: 0, -EAGAIN (none within a slice), -EPIPE
 * (the target is gone), or -errno. */
static int next_event(struct dbg *d, struct kfdsig_dbg_event *ev)
{
	if (d->emulated) {
		static struct dbga_resp r;
		struct dbga_req q = { .op = DBGA_WAIT_EVENT,
				      .timeout_ms = SLICE_MS,
				      .mask = CLEAR_ALL };
		int ret = agent_call(d, &q, &r, SLICE_MS + 10000);

		if (ret == 0)
			*ev = r.ev;
		return ret;
	} else {
		struct pollfd p = { .fd = d->ev_r, .events = POLLIN };
		char buf[64];
		int ret = kfdsig_dbg_query_event(d->k.kfd, d->pid, CLEAR_ALL, ev);

		if (ret != -EAGAIN)
			return ret;
		reap(d, false);
		if (d->gone)
			return -EPIPE;
		if (poll(&p, 1, SLICE_MS) > 0)
			while (read(d->ev_r, buf, sizeof(buf)) > 0)
				;
		return kfdsig_dbg_query_event(d->k.kfd, d->pid, CLEAR_ALL, ev);
	}
}

static int snapshot(struct dbg *d)
{
	static struct dbga_resp r;
	struct kfdsig_dbg_queue_entry *q = r.q;
	struct kfdsig_dbg_device_entry *e = r.d;
	uint32_t nq = DBGA_MAX_QUEUES, nd = DBGA_MAX_DEVICES;
	int ret;

	if (d->emulated) {
		struct dbga_req rq = { .op = DBGA_QUEUE_SNAPSHOT };

		ret = agent_call(d, &rq, &r, 10000);
		nq = r.n;
	} else {
		ret = kfdsig_dbg_queue_snapshot(d->k.kfd, d->pid, 0, q, &nq);
	}
	if (ret < 0)
		return cli_error("queue snapshot: %s", err_msg(d));
	if (!cli_json())
		printf("pid %d: %u queue%s\n", (int)d->pid, nq, nq == 1 ? "" : "s");
	for (uint32_t i = 0; i < nq && i < DBGA_MAX_QUEUES; i++)
		print_queue(d, &q[i]);
	if (d->emulated) {
		struct dbga_req rq = { .op = DBGA_DEVICE_SNAPSHOT };

		ret = agent_call(d, &rq, &r, 10000);
		nd = r.n;
	} else {
		ret = kfdsig_dbg_device_snapshot(d->k.kfd, d->pid, 0, e, &nd);
	}
	if (ret < 0)
		return cli_error("device snapshot: %s", err_msg(d));
	if (!cli_json())
		printf("pid %d: %u GPU%s\n", (int)d->pid, nd, nd == 1 ? "" : "s");
	for (uint32_t i = 0; i < nd && i < DBGA_MAX_DEVICES; i++)
		print_device(d, &e[i]);
	cli_flush_stdout();
	return 0;
}

/* A runtime that enables itself while debugged waits for the debugger's
 * EC_PROCESS_RUNTIME (kfd_debug.c kfd_dbg_send_exception_to_runtime() ups
 * runtime_enable_sema): answer it, as ROCgdb does. */
static int answer_runtime(struct dbg *d)
{
	uint64_t m = KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME);
	int ret;

	if (d->emulated) {
		static struct dbga_resp r;
		struct dbga_req q = { .op = DBGA_SEND_RUNTIME, .mask = m };

		ret = agent_call(d, &q, &r, 10000);
	} else {
		ret = kfdsig_dbg_send_runtime_event(d->k.kfd, d->pid, m, 0, 0);
	}
	if (ret < 0)
		return cli_error("send EC_PROCESS_RUNTIME to pid %d: %s", (int)d->pid, err_msg(d));
	if (cli_json()) {
		cli_json_record(stdout);
		printf("{\"type\": \"runtime\", \"pid\": %d}\n", (int)d->pid);
	} else {
		printf("pid %d: runtime enable answered (EC_PROCESS_RUNTIME)\n", (int)d->pid);
	}
	cli_flush_stdout();
	return 0;
}

static int queue_op(struct dbg *d, bool suspend, uint32_t queue_id)
{
	uint32_t id = queue_id;
	int ret;

	if (d->emulated) {
		static struct dbga_resp r;
		struct dbga_req q = { .op = suspend ? DBGA_SUSPEND : DBGA_RESUME, .n = 1 };

		q.ids[0] = queue_id;
		ret = agent_call(d, &q, &r, 10000);
		id = r.ids[0];
	} else {
		ret = suspend ? kfdsig_dbg_suspend_queues(d->k.kfd, d->pid, 0, 0, &id, 1)
			      : kfdsig_dbg_resume_queues(d->k.kfd, d->pid, &id, 1);
	}
	if (ret < 0)
		return cli_error("%s queue %u: %s", suspend ? "suspend" : "resume", queue_id,
				 err_msg(d));
	print_queue_op(d, suspend ? "suspend" : "resume", id);
	return 0;
}

/* ---- attaching ------------------------------------------------------------ */

static int attach_hw(struct dbg *d, char **cmd)
{
	int pfd[2], r, e;
	uint64_t waited = 0;

	r = cli_kfd_open(NULL, &d->k);
	if (r)
		return r;
	if (d->k.emu) {
		cli_kfd_close(&d->k);
		return cli_usage_error("--pid needs the hardware KFD: an emulated KFD lives in "
				       "its own process (use kfdsig debug --emulate SPEC -- "
				       "COMMAND)");
	}
	if (pipe2(pfd, O_CLOEXEC | O_NONBLOCK))
		return cli_error("pipe: %s", strerror(errno));
	d->ev_r = pfd[0];
	if (cmd) {
		int st;

		fflush(NULL);
		d->pid = fork();
		if (d->pid < 0)
			return cli_error("fork: %s", strerror(errno));
		if (!d->pid) {
			close(pfd[0]);
			close(pfd[1]);
			child_stdout();
			ptrace(PTRACE_TRACEME, 0, 0, 0);
			execvp(cmd[0], cmd);
			e = errno;
			cli_error("cannot run '%s': %s", cmd[0], strerror(e)); /* JSON under -j */
			_exit(e == ENOENT ? 127 : 126);
		}
		d->child = true;
		d->traced = true;
		/* the SIGTRAP of its exec (or its exit when exec failed) */
		if (waitpid(d->pid, &st, 0) == d->pid && WIFSTOPPED(st)) {
			ptrace(PTRACE_CONT, d->pid, 0, 0);
		} else {
			d->gone = true;
			d->status = st;
			if (WIFEXITED(st) && WEXITSTATUS(st) >= 126)
				return WEXITSTATUS(st); /* could not run it */
		}
	} else {
		if (ptrace(PTRACE_SEIZE, d->pid, 0, 0))
			return cli_error("cannot trace pid %d: %s", (int)d->pid, strerror(errno));
		d->traced = true;
	}
	/* A started command has no KFD process before it opens /dev/kfd. */
	for (;;) {
		r = kfdsig_dbg_enable(d->k.kfd, d->pid, d->mask, pfd[1], &d->rinfo);
		if (r != -ESRCH || !d->child)
			break;
		reap(d, false);
		if (d->gone)
			break;
		usleep(ENABLE_RETRY_MS * 1000);
		waited += ENABLE_RETRY_MS;
	}
	close(pfd[1]);
	if (d->gone && r)
		return 0; /* ended before it used the KFD */
	if (r)
		return cli_error("cannot debug pid %d: %s", (int)d->pid, kfdsig_last_error());
	(void)waited;
	return 0;
}

static int attach_emulated(struct dbg *d, char **cmd)
{
	static struct dbga_resp r;
	struct pollfd p;
	char num[16];
	int sv[2], ret, e;
	ssize_t n;

	ret = cli_exec_env(NULL);
	if (ret)
		return ret;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return cli_error("socketpair: %s", strerror(errno));
	fflush(NULL);
	d->pid = fork();
	if (d->pid < 0)
		return cli_error("fork: %s", strerror(errno));
	if (!d->pid) {
		close(sv[0]);
		/* the agent's end survives exec; the agent marks it CLOEXEC */
		if (fcntl(sv[1], F_SETFD, 0) < 0)
			_exit(126);
		snprintf(num, sizeof(num), "%d", sv[1]);
		setenv(KFDSIG_DEBUG_AGENT_ENV, num, 1);
		child_stdout();
		execvp(cmd[0], cmd);
		e = errno;
		cli_error("cannot run '%s': %s", cmd[0], strerror(e)); /* JSON under -j */
		_exit(e == ENOENT ? 127 : 126);
	}
	close(sv[1]);
	d->sock = sv[0];
	d->child = true;
	p = (struct pollfd){ .fd = d->sock, .events = POLLIN };
	if (poll(&p, 1, AGENT_READY_MS) <= 0) {
		kill(d->pid, SIGKILL);
		reap(d, true);
		return cli_error("the debug agent in pid %d did not answer", (int)d->pid);
	}
	n = recv(d->sock, &r, sizeof(r), 0);
	if (n != (ssize_t)sizeof(r) || r.op != DBGA_READY) {
		reap(d, true);
		if (d->gone && WIFEXITED(d->status) && WEXITSTATUS(d->status) >= 126)
			return WEXITSTATUS(d->status);
		return cli_error("pid %d ran without the debug agent (not a dynamically linked "
				 "program, or it did not load libkfdsig-preload.so)",
				 (int)d->pid);
	}
	if (r.ret < 0) {
		kill(d->pid, SIGKILL);
		reap(d, true);
		return cli_error("cannot debug '%s' on the emulated KFD: %s", cmd[0], r.msg);
	}
	d->rinfo = r.rinfo;
	return 0;
}

/* ---- main loop ------------------------------------------------------------ */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int run(struct dbg *d, bool snap, bool suspend, bool resume, uint64_t count,
	       uint64_t timeout_ms)
{
	uint64_t seen = 0, end = timeout_ms ? now_ms() + timeout_ms : 0;
	int ret = 0;

	print_attached(d);
	if (snap && (ret = snapshot(d)))
		return ret;
	while (!count || seen < count) {
		struct kfdsig_dbg_event ev;
		uint64_t shown;
		bool stop;
		int r;

		if (end && now_ms() >= end)
			break;
		r = next_event(d, &ev);
		if (r == -EAGAIN)
			continue;
		if (r == -EPIPE || r == -ESRCH)
			break; /* the target ended (its KFD process with it) */
		if (r < 0)
			return cli_error("query debug event of pid %d: %s", (int)d->pid,
					 err_msg(d));
		shown = print_event(d, &ev, d->mask);
		seen += shown;
		/* the runtime waits for its answer, asked for or not */
		if (ev.source == KFDSIG_DBG_SOURCE_PROCESS &&
		    (ev.exceptions & KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME)) &&
		    (ret = answer_runtime(d)))
			return ret;
		if (!shown)
			continue;
		/* a queue exception other than "new queue": stop that queue */
		stop = ev.source == KFDSIG_DBG_SOURCE_QUEUE && suspend &&
		       (ev.exceptions & d->mask & ~KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_NEW));
		if (stop && (ret = queue_op(d, true, ev.queue_id)))
			return ret;
		if (snap && (ret = snapshot(d)))
			return ret;
		if (stop && resume && (ret = queue_op(d, false, ev.queue_id)))
			return ret;
	}
	return 0;
}

static void detach(struct dbg *d)
{
	if (d->emulated) {
		if (d->sock >= 0)
			close(d->sock); /* the agent disables and stops */
	} else if (d->k.kfd) {
		if (!d->gone)
			kfdsig_dbg_disable(d->k.kfd, d->pid);
		if (d->traced && !d->child)
			ptrace(PTRACE_DETACH, d->pid, 0, 0);
		cli_kfd_close(&d->k);
	}
	if (d->ev_r >= 0)
		close(d->ev_r);
	if (d->child && !d->gone) {
		/* stopped early (--count, --timeout, an error): the command we
		 * started goes with us, as a debugger's inferior does */
		reap(d, false);
		if (!d->gone) {
			cli_note("stopping pid %d", (int)d->pid);
			kill(d->pid, SIGKILL);
			reap(d, true);
		}
	}
}

int cmd_debug(int argc, char **argv)
{
	struct dbg d = { .ev_r = -1, .sock = -1 };
	bool snap = false, suspend = false, resume = false, have_pid = false;
	uint64_t v, count = 0, timeout_ms = 0;
	const char *spec, *out_path = NULL;
	char **cmd = NULL;
	int c, ret;

	d.mask = KFDSIG_EC_MASK_QUEUE | KFDSIG_EC_MASK_DEVICE | KFDSIG_EC_MASK_PROCESS;
	while ((c = cli_getopt(argc, argv, cmd_debug_shortopts, cmd_debug_options)) != -1) {
		switch (c) {
		case 'P':
			if (!cli_parse_u64("--pid", optarg, INT32_MAX, &v))
				return EXIT_USAGE;
			if (!v)
				return cli_usage_error("--pid: 0 is not a process");
			d.pid = (pid_t)v;
			have_pid = true;
			break;
		case 'x':
			if (kfdsig_exc_mask_parse(optarg, &d.mask) < 0 || !d.mask)
				return cli_usage_error("--exceptions: %s", kfdsig_last_error());
			break;
		case 's':
			snap = true;
			break;
		case OPT_SUSPEND:
			suspend = true;
			break;
		case OPT_RESUME:
			resume = true;
			break;
		case 'c':
			if (!cli_parse_range("--count", optarg, 1, UINT32_MAX, &count))
				return EXIT_USAGE;
			break;
		case 'T':
			if (!cli_parse_u64("--timeout", optarg, UINT32_MAX, &timeout_ms))
				return EXIT_USAGE;
			break;
		case 'o':
			out_path = optarg;
			break;
		default:
			return cli_opt_default(c, help);
		}
	}
	if (optind < argc)
		cmd = argv + optind;
	if (have_pid && cmd)
		return cli_usage_error("give --pid PID or a COMMAND, not both");
	if (!have_pid && !cmd)
		return cli_usage_error(
			"give --pid PID or a COMMAND to start (kfdsig debug --help)");
	if (resume && !suspend)
		return cli_usage_error("--resume resumes what --suspend suspended: give both");
	spec = cli_g.emulate ? cli_g.emulate : getenv("KFDSIG_EMULATE");
	if (cli_g.emulate && !*cli_g.emulate)
		return cli_usage_error("--emulate: empty SPEC (want TARGET[,TARGET...])");
	d.emulated = spec && *spec;
	if (d.emulated && have_pid)
		return cli_usage_error("--pid needs the hardware KFD: an emulated KFD lives in its "
				       "own process (use kfdsig debug --emulate SPEC -- COMMAND)");
	signal(SIGPIPE, SIG_IGN);
	ret = records_to(out_path, cmd);
	if (ret)
		return ret;
	ret = d.emulated ? attach_emulated(&d, cmd) : attach_hw(&d, cmd);
	if (!ret && !d.gone)
		ret = run(&d, snap, suspend, resume, count, timeout_ms);
	detach(&d);
	if (!ret)
		print_exit(&d);
	return ret;
}
