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

#include "preload_gpu.h"

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
