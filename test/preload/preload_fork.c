/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, fork() follows the kernel: the child has no KFD
 * process (its inherited /dev/kfd fd answers -EBADF, "Using KFD FD in
 * wrong process"; mmap of /dev/kfd -EINVAL) until it opens /dev/kfd
 * itself, and then gets a process of its own. Parent and child then both
 * create, set and wait events, and both run a GPU queue whose fence wakes
 * WAIT_EVENTS, each with a bounded wake-up latency, while the parent's
 * queue (its engine thread did not survive into the child) keeps working.
 */
#include <sys/mman.h>
#include <sys/wait.h>

#include <kfdsig/kfdsig.h>

#include "preload_util.h"

/* A GPU queue of this process (through libkfdsig's linux backend, i.e.
 * the interposer) whose PM4 fence signals an event. */
struct gpu {
	struct kfdsig_kfd *kfd;
	const struct kfdsig_kfd_device *dev;
	struct kfdsig_kfd_queue *q;
	struct kfdsig_event ev;
	uint64_t page_va;
};

static bool gpu_open(const char *who, struct gpu *g)
{
	int r;

	memset(g, 0, sizeof(*g));
	r = kfdsig_kfd_open(NULL, &g->kfd);
	CHECK(r == 0, "%s: kfdsig_kfd_open: %s", who, kfdsig_last_error());
	if (r)
		return false;
	g->dev = kfdsig_kfd_device(g->kfd, 0);
	r = !g->dev || !g->dev->target ? -ENODEV : kfdsig_kfd_acquire_vm(g->kfd, g->dev->gpu_id);
	if (!r)
		r = kfdsig_kfd_event_create(g->kfd, KFDSIG_EVENT_SIGNAL, true, &g->ev);
	if (!r)
		r = kfdsig_kfd_signal_page(g->kfd, NULL, &g->page_va);
	if (!r)
		r = kfdsig_kfd_queue_create(g->kfd, g->dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &g->q);
	CHECK(r == 0, "%s: GPU setup: %s", who, kfdsig_last_error());
	return r == 0;
}

/* Submit the fence and wait for it: the GPU's wake-up, promptly. */
static void gpu_signal(const char *who, struct gpu *g)
{
	struct kfdsig_fence f = { .slot_va = g->page_va + 8ull * g->ev.id, .event_id = g->ev.id };
	struct kfdsig_wait_entry w = { .event_id = g->ev.id };
	enum kfdsig_wait_result res = KFDSIG_WAIT_TIMEOUT;
	uint32_t dw[64];
	double t0;
	int n, r;

	n = kfdsig_pm4_emit_fence(g->dev->target, &f, dw, 64);
	CHECK(n > 0, "%s: emit", who);
	t0 = p_now_ms();
	r = n > 0 ? kfdsig_kfd_queue_submit(g->q, dw, (uint32_t)n, 1000) : n;
	CHECK(r == 0, "%s: submit: %s", who, kfdsig_last_error());
	r = kfdsig_kfd_wait(g->kfd, &w, 1, false, P_TIMEOUT_MS, &res);
	CHECK(r == 0 && res == KFDSIG_WAIT_COMPLETE, "%s: the fence's WAIT_EVENTS: %d/%d", who, r,
	      (int)res);
	CHECK(p_now_ms() - t0 < P_WAKE_BOUND_MS, "%s: fence woke after %.1f ms", who,
	      p_now_ms() - t0);
}

/* Raw events: create one, set it from a thread, wait. */
static void raw_events(const char *who, int fd)
{
	uint32_t id = 0;

	CHECK(p_event(fd, &id, NULL) == 0, "%s: CREATE_EVENT", who);
	p_check_set_wakes(who, fd, fd, id);
}

static int child(int inherited, uint32_t parent_event, uint64_t page_off)
{
	struct gpu g;
	void *m;
	int fd;

	/* No KFD process yet: the inherited fd is the parent's. */
	CHECK(p_version(inherited) == -EBADF, "child: GET_VERSION on the inherited fd: %d",
	      p_version(inherited));
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, inherited, (off_t)page_off);
	CHECK(m == MAP_FAILED && errno == EINVAL, "child: mmap before its own open: %s",
	      m == MAP_FAILED ? strerror(errno) : "mapped");
	fd = p_open_kfd();
	CHECK(fd >= 0, "child: open /dev/kfd: %s", strerror(errno));
	if (fd < 0)
		return 1;
	/* A process of its own: the parent's event is not in it. */
	CHECK(p_set(fd, parent_event) == -EINVAL, "child: SET_EVENT of the parent's event: %d",
	      p_set(fd, parent_event));
	CHECK(p_version(inherited) == -EBADF, "child: the inherited fd stays the parent's");
	/* The GPU side first: libkfdsig supplies its own signal page, which
	 * a process gets only before its first signal event. */
	if (gpu_open("child", &g)) {
		gpu_signal("child", &g);
		raw_events("child", fd);
		gpu_signal("child again", &g);
		kfdsig_kfd_close(g.kfd);
	}
	close(fd);
	return t_failures ? 1 : 0;
}

int main(void)
{
	uint32_t ev = 0;
	uint64_t off = 0;
	struct gpu g;
	bool have_gpu;
	int fd, status = 0;
	pid_t pid;

	p_require_preload();
	/* A running queue (an engine thread) in the parent before fork;
	 * libkfdsig supplies the signal page, so it comes first. */
	have_gpu = gpu_open("parent", &g);
	if (have_gpu)
		gpu_signal("parent before fork", &g);
	fd = p_open_kfd();
	CHECK(fd >= 0, "open /dev/kfd: %s", strerror(errno));
	if (fd < 0)
		return t_result("preload_fork");
	CHECK(p_event(fd, &ev, &off) == 0, "CREATE_EVENT in the parent");
	fflush(NULL);

	pid = fork();
	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0)
		_exit(child(fd, ev, off));
	/* Both halves at once. */
	raw_events("parent", fd);
	if (have_gpu)
		gpu_signal("parent during the child", &g);
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "waitpid");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed (status 0x%x)",
	      status);
	/* The parent's process is untouched by the child. */
	CHECK(p_set(fd, ev) == 0, "parent: its event after the child");
	if (have_gpu) {
		gpu_signal("parent after the child", &g);
		kfdsig_kfd_close(g.kfd);
	}
	close(fd);
	return t_result("preload_fork");
}
