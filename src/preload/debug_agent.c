/* SPDX-License-Identifier: MIT */
/*
 * The interposer's debug agent (protocol: src/proto/debug_agent.h): with KFDSIG_DEBUG_AGENT=FD
 * in the environment, at load it opens this process's emulated KFD, enables
 * the debugger interface on the process itself with a pipe as dbg_fd, tells
 * `kfdsig debug` on FD (DBGA_READY) and serves its requests on a thread.
 * The variable is removed so that children of the client run without an
 * agent; FD is close-on-exec for them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <kfdsig/debug.h>
#include <kfdsig/emu.h>
#include <kfdsig/kfd.h>

#include "proto/debug_agent.h"
#include "preload/preload_priv.h"

static struct {
	int sock;	/* to kfdsig debug */
	int ev_r, ev_w; /* dbg_fd: KFD writes ev_w */
	struct kfdsig_kfd *kfd;
	pid_t pid;
	const struct preload_host *host;
} agent = { .sock = -1, .ev_r = -1, .ev_w = -1 };

static void fail_msg(struct dbga_resp *r, int ret)
{
	r->ret = ret;
	if (ret < 0)
		snprintf(r->msg, sizeof(r->msg), "%s", kfdsig_last_error());
}

/* Wait for a byte on dbg_fd (or one already pending), drain it, query. */
static void wait_event(const struct dbga_req *q, struct dbga_resp *r)
{
	struct pollfd p = { .fd = agent.ev_r, .events = POLLIN };
	char buf[64];
	int ret;

	/* An exception already raised is found by the query itself. */
	ret = kfdsig_dbg_query_event(agent.kfd, agent.pid, q->mask, &r->ev);
	if (ret == -EAGAIN) {
		if (poll(&p, 1, q->timeout_ms) > 0)
			while (read(agent.ev_r, buf, sizeof(buf)) > 0)
				;
		ret = kfdsig_dbg_query_event(agent.kfd, agent.pid, q->mask, &r->ev);
	}
	fail_msg(r, ret);
}

static void serve(const struct dbga_req *q, struct dbga_resp *r)
{
	uint32_t n = q->n < DBGA_MAX_IDS ? q->n : DBGA_MAX_IDS;

	switch (q->op) {
	case DBGA_WAIT_EVENT:
		wait_event(q, r);
		break;
	case DBGA_QUEUE_SNAPSHOT:
		r->n = DBGA_MAX_QUEUES;
		fail_msg(r, kfdsig_dbg_queue_snapshot(agent.kfd, agent.pid, q->mask, r->q, &r->n));
		break;
	case DBGA_DEVICE_SNAPSHOT:
		r->n = DBGA_MAX_DEVICES;
		fail_msg(r, kfdsig_dbg_device_snapshot(agent.kfd, agent.pid, q->mask, r->d, &r->n));
		break;
	case DBGA_SUSPEND:
	case DBGA_RESUME:
		memcpy(r->ids, q->ids, n * sizeof(q->ids[0]));
		r->n = n;
		fail_msg(r, q->op == DBGA_SUSPEND
				    ? kfdsig_dbg_suspend_queues(agent.kfd, agent.pid, q->mask, 0,
								r->ids, n)
				    : kfdsig_dbg_resume_queues(agent.kfd, agent.pid, r->ids, n));
		break;
	case DBGA_SEND_RUNTIME:
		fail_msg(r, kfdsig_dbg_send_runtime_event(agent.kfd, agent.pid, q->mask, 0, 0));
		break;
	default:
		r->ret = -EINVAL;
		snprintf(r->msg, sizeof(r->msg), "unknown request %u", q->op);
		break;
	}
}

static void *agent_thread(void *arg)
{
	static struct dbga_resp r;
	struct dbga_req q;

	(void)arg;
	agent.host->enter(); /* emulator code on this thread: libc calls go straight */
	for (;;) {
		ssize_t got = recv(agent.sock, &q, sizeof(q), 0);

		if (got <= 0) {
			if (got < 0 && errno == EINTR)
				continue;
			break; /* the debugger went away */
		}
		memset(&r, 0, sizeof(r));
		r.op = q.op;
		r.pid = (uint32_t)agent.pid;
		if ((size_t)got != sizeof(q)) {
			r.ret = -EINVAL;
			snprintf(r.msg, sizeof(r.msg), "short request (%zd bytes)", got);
		} else {
			serve(&q, &r);
		}
		if (send(agent.sock, &r, sizeof(r), MSG_NOSIGNAL) != (ssize_t)sizeof(r))
			break;
	}
	/* Detach as a debugger that goes away does (kfd_debug.c
	 * kfd_dbg_trap_disable(): suspended queues resume). */
	kfdsig_dbg_disable(agent.kfd, agent.pid);
	agent.host->leave();
	return NULL;
}

void preload_debug_agent_start(const struct preload_host *host)
{
	static struct dbga_resp r;
	const char *env = getenv(KFDSIG_DEBUG_AGENT_ENV);
	struct kfdsig_emu *emu;
	pthread_attr_t attr;
	pthread_t th;
	char *end;
	long fd;
	int pipefd[2], ret;

	if (!env || !*env)
		return;
	fd = strtol(env, &end, 10);
	unsetenv(KFDSIG_DEBUG_AGENT_ENV);
	if (*end || fd < 0 || fd > 65535 || fcntl((int)fd, F_SETFD, FD_CLOEXEC) < 0)
		return;
	agent.sock = (int)fd;
	agent.pid = getpid();
	agent.host = host;
	memset(&r, 0, sizeof(r));
	r.op = DBGA_READY;
	r.pid = (uint32_t)agent.pid;

	host->enter();
	emu = host->emu();
	if (!emu) {
		ret = -ENODEV;
		snprintf(r.msg, sizeof(r.msg), "no emulated KFD (KFDSIG_EMULATE)");
	} else if (pipe2(pipefd, O_CLOEXEC | O_NONBLOCK)) {
		ret = -errno;
		snprintf(r.msg, sizeof(r.msg), "pipe: %s", strerror(errno));
	} else {
		agent.ev_r = pipefd[0];
		agent.ev_w = pipefd[1];
		ret = kfdsig_kfd_open(kfdsig_emu_ops(emu), &agent.kfd);
		if (!ret)
			ret = kfdsig_dbg_enable(agent.kfd, agent.pid,
						KFDSIG_EC_MASK_QUEUE | KFDSIG_EC_MASK_DEVICE |
							KFDSIG_EC_MASK_PROCESS,
						agent.ev_w, &r.rinfo);
		if (ret)
			snprintf(r.msg, sizeof(r.msg), "%s", kfdsig_last_error());
	}
	host->leave();
	r.ret = ret;
	if (send(agent.sock, &r, sizeof(r), MSG_NOSIGNAL) != (ssize_t)sizeof(r) || ret) {
		close(agent.sock);
		agent.sock = -1;
		return;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&th, &attr, agent_thread, NULL)) {
		close(agent.sock);
		agent.sock = -1;
	}
	pthread_attr_destroy(&attr);
}
