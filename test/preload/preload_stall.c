/* SPDX-License-Identifier: MIT */
/*
 * The stall report of `kfdsig exec --stall MS` (KFDSIG_EMU_STALL_MS,
 * src/preload/stall.c). Each case runs in a child that sets the variable
 * before its first use of /dev/kfd (its emulator starts the watcher):
 *  - stalled: a WAIT_EVENTS on an event nothing signals, its one queue
 *    empty: the child ends with status 113 and one line naming the event;
 *  - busy: the same wait on a PM4 fence behind a WAIT_REG_MEM on a word
 *    the child's other thread writes after several quiet periods: the
 *    queue has work all that time, so no report, and the fence wakes the
 *    wait (exit 0);
 *  - activity: the wait on an event nothing on the GPU side signals, while
 *    another thread makes a KFD call every 20 ms (GET_CLOCK_COUNTERS) for
 *    longer than the quiet period and then sets the event: no report
 *    (exit 0). (This one needs that thread to run at least once per quiet
 *    period, 2 s: a hundred times its 20 ms step.)
 */
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include "preload_gpu.h"

#define STALL_EXIT 113
#define CHILD_BOUND_MS 30000 /* a child's whole run (at most 2.5 s), generously */

enum mode { STALLED, BUSY, ACTIVITY };

struct helper {
	struct kfdsig_kfd *kfd;
	volatile uint32_t *word; /* BUSY: the WAIT_REG_MEM's word */
	uint32_t event_id;	 /* ACTIVITY: the event to set at the end */
	uint32_t gpu_id;
	long ms; /* how long before */
};

static void *helper_main(void *arg)
{
	struct helper *h = arg;
	double end = p_now_ms() + (double)h->ms;

	if (h->word) {
		struct timespec ts = { h->ms / 1000, (h->ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		__atomic_store_n(h->word, 1, __ATOMIC_RELEASE);
		return NULL;
	}
	while (p_now_ms() < end) {
		struct kfdsig_clock_sample s;
		struct timespec ts = { 0, 20000000L };

		/* a KFD call every 20 ms (not a wait: an ioctl alone) */
		kfdsig_kfd_clock_counters(h->kfd, h->gpu_id, &s);
		nanosleep(&ts, NULL);
	}
	kfdsig_kfd_event_set(h->kfd, h->event_id);
	return NULL;
}

/* The child: 0 when its wait completed, 1 otherwise. */
static int child(enum mode m)
{
	struct kfdsig_wait_entry w = { 0 };
	struct helper h = { 0 };
	enum kfdsig_wait_result res = KFDSIG_WAIT_TIMEOUT;
	pthread_t th;
	struct gpu g;

	setenv("KFDSIG_EMU_STALL_MS", m == ACTIVITY ? "2000" : "200", 1);
	if (!gpu_open("child", &g))
		return 1;
	w.event_id = g.ev.id;
	h.kfd = g.kfd;
	h.event_id = g.ev.id;
	h.gpu_id = g.dev->gpu_id;
	if (m == BUSY) {
		const struct kfdsig_kfd_bo *bo;
		struct kfdsig_fence f = { .slot_va = g.page_va + 8ull * g.ev.id,
					  .event_id = g.ev.id };
		uint32_t dw[64];
		int n;

		if (kfdsig_kfd_alloc(g.kfd, g.dev->gpu_id, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED,
				     &bo) ||
		    kfdsig_kfd_map(g.kfd, bo, NULL, 0))
			return 1;
		h.word = bo->cpu;
		/* soc15d.h PACKET3(WAIT_REG_MEM, 5): memory, function "equal",
		 * address, reference 1, mask, poll interval */
		dw[0] = 0xc0053c00u;
		dw[1] = 1u << 4 | 3u;
		dw[2] = (uint32_t)bo->va;
		dw[3] = (uint32_t)(bo->va >> 32);
		dw[4] = 1;
		dw[5] = 0xffffffffu;
		dw[6] = 10;
		n = kfdsig_pm4_emit_fence(g.dev->target, &f, dw + 7, 64 - 7);
		if (n <= 0 || kfdsig_kfd_queue_submit(g.q, dw, (uint32_t)n + 7, 1000))
			return 1;
		h.ms = 600; /* three quiet periods */
	} else if (m == ACTIVITY) {
		h.ms = 2500; /* past one quiet period */
	}
	if (m != STALLED && pthread_create(&th, NULL, helper_main, &h))
		return 1;
	/* Stalled: fifteen quiet periods, then the wait times out (exit 1:
	 * no report came). Otherwise longer than the child's bound: only a
	 * signal (or a report) ends it. */
	kfdsig_kfd_wait(g.kfd, &w, 1, false, m == STALLED ? 3000 : 60000, &res);
	return res == KFDSIG_WAIT_COMPLETE ? 0 : 1;
}

/* Run @m in a child; its exit status (-1: killed at the bound), its
 * standard error in @err. */
static int run(enum mode m, char *err, size_t n)
{
	struct pollfd p;
	double end = p_now_ms() + CHILD_BOUND_MS;
	size_t len = 0;
	int fds[2], st;
	pid_t pid;

	err[0] = 0;
	if (pipe(fds))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		_exit(child(m));
	}
	close(fds[1]);
	p = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	while (p_now_ms() < end && poll(&p, 1, 50) >= 0) {
		ssize_t r;

		if (!p.revents)
			continue;
		r = read(fds[0], err + len, n - 1 - len);
		if (r <= 0)
			break; /* the child is gone */
		len += (size_t)r;
		err[len] = 0;
	}
	close(fds[0]);
	if (p_now_ms() >= end)
		kill(pid, SIGKILL);
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (p_now_ms() >= end && WIFSIGNALED(st))
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(void)
{
	const char *report = "kfdsig: stalled";
	char err[4096];
	int st;

	p_require_preload();

	st = run(STALLED, err, sizeof(err));
	CHECK_EQ(st, STALL_EXIT, "stalled: the report ends the child (-1: not within %d ms)",
		 CHILD_BOUND_MS);
	CHECK(strstr(err, "kfdsig: stalled: the program waits on event ") &&
		      strstr(err, "emulated GPU is idle (1 queue: 0 halted") &&
		      strstr(err, "(KFDSIG_EMU_STALL_MS)\n"),
	      "stalled: the report's line, got:\n%s", err);

	st = run(BUSY, err, sizeof(err));
	CHECK_EQ(st, 0, "busy: a queue with work is not a stall; the fence wakes the wait");
	CHECK(!strstr(err, report), "busy: no report, got:\n%s", err);

	st = run(ACTIVITY, err, sizeof(err));
	CHECK_EQ(st, 0, "activity: KFD calls keep it from being a stall; the event wakes the wait");
	CHECK(!strstr(err, report), "activity: no report, got:\n%s", err);
	return t_result("preload_stall");
}
