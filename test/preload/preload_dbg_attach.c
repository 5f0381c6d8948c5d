/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec every process has its own emulated KFD, and a debugger
 * attaches to another process as amdkfd allows it (kfd_chardev.c
 * kfd_ioctl_set_debug_trap(), kfd_debug.c): the caller must ptrace the
 * target (-EPERM otherwise); ENABLE of a traced child that has not opened
 * /dev/kfd yet succeeds with the runtime disabled, and the child's
 * RUNTIME_ENABLE then reports EC_PROCESS_RUNTIME on the debugger's event
 * file and waits for SEND_RUNTIME_EVENT (and so does its RUNTIME_DISABLE);
 * ENABLE of a child that enabled its runtime first reports it enabled with
 * its TTMP setup; a VM fault of the child's queue reaches the debugger as
 * EC_DEVICE_MEMORY_VIOLATION with its GPU and in the device snapshot; the
 * operations on the child's queues fail fast with -ENODEV.
 */
#include <poll.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include <kfdsig/debug.h>

#include "abi/kfd_ioctl.h"
#include "preload_gpu.h"

#define EC_RUNTIME KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME)
#define EC_MEMVIOL KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_MEMORY_VIOLATION)

enum mode { SPAWNED, RUNNING, FAULT };

static int rt(int fd, bool on)
{
	abi_runtime_enable_args a = { 0 };

	a.mode_mask =
		on ? KFDSIG_RUNTIME_ENABLE_MODE_ENABLE | KFDSIG_RUNTIME_ENABLE_MODE_TTMP_SAVE : 0;
	return p_ioctl(fd, KFDSIG_AMDKFD_IOC_RUNTIME_ENABLE, &a);
}

static int dbg(int fd, abi_dbg_trap_args *a, pid_t pid, uint32_t op)
{
	a->pid = (uint32_t)pid;
	a->op = op;
	return p_ioctl(fd, KFDSIG_AMDKFD_IOC_DBG_TRAP, a);
}

/* A VM fault of this process's queue: PM4 WRITE_DATA to an address no
 * buffer backs. */
static void fault(void)
{
	const uint64_t bad = 0x7ff000000000ull;
	uint32_t pkt[5];
	struct gpu g;

	if (!gpu_open("child", &g))
		return;
	pkt[0] = 0xc0000000u | (3u << 16) | (0x37u << 8);
	pkt[1] = 5u << 8;
	pkt[2] = (uint32_t)bad;
	pkt[3] = (uint32_t)(bad >> 32);
	pkt[4] = 1;
	kfdsig_kfd_queue_submit(g.q, pkt, 5, 1000);
	raise(SIGSTOP); /* the debugger looks while the queue is dead */
}

static int child(enum mode m)
{
	int fd, r = 0;

	if (m == SPAWNED || m == FAULT) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
	}
	fd = p_open_kfd();
	if (fd < 0)
		return 2;
	r |= rt(fd, true) ? 4 : 0;
	if (m == RUNNING) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
	}
	if (m == FAULT)
		fault();
	else
		r |= rt(fd, false) ? 8 : 0;
	/* Its KFD process ends with it (kfd_process_notifier_release()):
	 * it stays until the debugger has disabled. */
	raise(SIGSTOP);
	return r;
}

/* Has @pid stopped or ended (its state left for waitpid())? */
static bool moved_on(pid_t pid)
{
	siginfo_t si = { 0 };

	return waitid(P_PID, (id_t)pid, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) == 0 &&
	       si.si_pid == pid;
}

/* The next event on @efd within the bound, then QUERY_DEBUG_EVENT
 * clearing @clear: the reported mask (0 when none came). With @blocked,
 * the child waits in an ioctl for this event's answer and so can neither
 * stop nor end before it: when it does, the event will not come (0 at
 * once, not after the bound). */
static uint64_t next_event(int kfd, int efd, pid_t pid, uint64_t clear, uint32_t *gpu, bool blocked)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };
	abi_dbg_trap_args a = { 0 };
	char buf[16];
	int r = 0;

	if (!blocked)
		r = poll(&pfd, 1, P_TIMEOUT_MS);
	for (int waited = 0; blocked && r != 1 && waited < P_TIMEOUT_MS; waited += 10) {
		r = poll(&pfd, 1, 10);
		if (r != 1 && moved_on(pid)) {
			r = poll(&pfd, 1, 0); /* what it raised before it went on */
			break;
		}
	}
	if (r != 1)
		return 0;
	CHECK(read(efd, buf, sizeof(buf)) > 0, "read the event file");
	a.query_debug_event.exception_mask = clear;
	if (dbg(kfd, &a, pid, KFDSIG_DBG_OP_QUERY_DEBUG_EVENT))
		return 0;
	if (gpu)
		*gpu = a.query_debug_event.gpu_id;
	return a.query_debug_event.exception_mask;
}

static void ack(int kfd, pid_t pid)
{
	abi_dbg_trap_args a = { 0 };

	a.send_runtime_event.exception_mask = EC_RUNTIME;
	CHECK_EQ(dbg(kfd, &a, pid, KFDSIG_DBG_OP_SEND_RUNTIME_EVENT), 0, "SEND_RUNTIME_EVENT");
}

static void run(enum mode m, const char *name)
{
	abi_runtime_info ri = { 0 };
	abi_dbg_trap_args a = { 0 };
	int kfd, efd[2], st = 0;
	uint32_t gpu = 0;
	bool ok = true;
	pid_t pid;

	kfd = p_open_kfd();
	CHECK(kfd >= 0 && pipe2(efd, O_NONBLOCK | O_CLOEXEC) == 0, "%s: setup", name);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(child(m));
	CHECK(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st), "%s: child stopped", name);

	/* ENABLE */
	a.enable.dbg_fd = (uint32_t)efd[0];
	a.enable.rinfo_ptr = (uint64_t)(uintptr_t)&ri;
	a.enable.rinfo_size = sizeof(ri);
	a.enable.exception_mask = EC_RUNTIME | EC_MEMVIOL;
	CHECK_EQ(dbg(kfd, &a, pid, KFDSIG_DBG_OP_ENABLE), 0, "%s: ENABLE", name);
	CHECK_EQ(dbg(kfd, &a, pid, KFDSIG_DBG_OP_ENABLE), -EALREADY, "%s: ENABLE again", name);
	CHECK_EQ(ri.runtime_state, m == RUNNING ? 1u : 0u, "%s: runtime state", name);
	CHECK_EQ(ri.ttmp_setup, m == RUNNING ? 1u : 0u, "%s: ttmp setup", name);
	if (m == RUNNING) {
		uint32_t ids[1] = { 0 };

		memset(&a, 0, sizeof(a));
		a.suspend_queues.queue_array_ptr = (uint64_t)(uintptr_t)ids;
		a.suspend_queues.num_queues = 1;
		CHECK_EQ(dbg(kfd, &a, pid, KFDSIG_DBG_OP_SUSPEND_QUEUES), -ENODEV,
			 "%s: SUSPEND_QUEUES of another process's queue", name);
	}
	ptrace(PTRACE_CONT, pid, NULL, NULL);

	if (m != RUNNING) { /* its RUNTIME_ENABLE waits for us */
		ok = next_event(kfd, efd[0], pid, EC_RUNTIME, NULL, true) == EC_RUNTIME;
		CHECK(ok, "%s: EC_PROCESS_RUNTIME of the enable", name);
		if (!ok)
			goto out;
		/* unanswered, the enable does not return: the child neither
		 * stops nor ends (one that does not wait ends in
		 * milliseconds) */
		for (int waited = 0; waited < 500 && ok; waited += 10) {
			ok = !moved_on(pid);
			if (ok)
				usleep(10000);
		}
		CHECK(ok, "%s: RUNTIME_ENABLE returned before the debugger's answer", name);
		if (!ok)
			goto out;
		ack(kfd, pid);
	}
	if (m == FAULT) {
		abi_dbg_device_info_entry e[16];

		CHECK_EQ(next_event(kfd, efd[0], pid, 0, &gpu, false), EC_MEMVIOL,
			 "%s: EC_DEVICE_MEMORY_VIOLATION", name);
		CHECK(gpu != 0, "%s: with its GPU", name);
		memset(&a, 0, sizeof(a));
		memset(e, 0, sizeof(e));
		a.device_snapshot.exception_mask = EC_MEMVIOL;
		a.device_snapshot.snapshot_buf_ptr = (uint64_t)(uintptr_t)e;
		a.device_snapshot.num_devices = 16;
		a.device_snapshot.entry_size = sizeof(e[0]);
		CHECK_EQ(dbg(kfd, &a, pid, KFDSIG_DBG_OP_GET_DEVICE_SNAPSHOT), 0, "%s: snapshot",
			 name);
		CHECK(e[0].gpu_id == gpu && (e[0].exception_status & EC_MEMVIOL),
		      "%s: the snapshot has the violation on GPU %u", name, gpu);
		CHECK(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st), "%s: child stopped", name);
		ptrace(PTRACE_CONT, pid, NULL, NULL);
	} else { /* its RUNTIME_DISABLE waits for us */
		ok = next_event(kfd, efd[0], pid, EC_RUNTIME, NULL, true) == EC_RUNTIME;
		CHECK(ok, "%s: EC_PROCESS_RUNTIME of the disable", name);
		if (!ok)
			goto out;
		ack(kfd, pid);
	}
	CHECK(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st), "%s: child stopped before its end",
	      name);
	memset(&a, 0, sizeof(a));
	CHECK_EQ(dbg(kfd, &a, pid, KFDSIG_DBG_OP_DISABLE), 0, "%s: DISABLE", name);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "%s: child exits", name);
	CHECK_EQ(WEXITSTATUS(st), 0, "%s: child's runtime enable and disable", name);
out:
	if (!ok) { /* the rest would wait for what will not come */
		kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) == pid && !WIFEXITED(st) && !WIFSIGNALED(st))
			;
	}
	close(efd[0]);
	close(efd[1]);
	close(kfd);
}

int main(void)
{
	abi_dbg_trap_args a = { 0 };
	int kfd, st;
	pid_t pid;

	p_require_preload();
	/* the ptrace rule: a child this thread does not trace */
	kfd = p_open_kfd();
	CHECK(kfd >= 0, "open /dev/kfd: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	CHECK_EQ(dbg(kfd, &a, pid, KFDSIG_DBG_OP_ENABLE), -EPERM, "ENABLE of an untraced child");
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(kfd);

	run(SPAWNED, "spawned");
	run(RUNNING, "running");
	run(FAULT, "fault");
	return t_result("preload_dbg_attach");
}
