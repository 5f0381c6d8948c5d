/* SPDX-License-Identifier: MIT */
/*
 * The programs `kfdsig trace` is tested on (test/trace/trace.sh): KFD
 * clients of raw ioctls (and libkfdsig's linux backend for the GPU queue),
 * each making one detector fire on purpose, and a correct one that must
 * leave every detector quiet:
 *
 *   storm        a waiter passing a stale age again and again
 *   lost         a signaller writing the event's slot without an interrupt,
 *                then a waiter that times out
 *   no-waiter    an auto-reset event set with nobody waiting, destroyed
 *   never-reset  a manual-reset event set and left signalled
 *   queue-fault  a PM4 queue whose fence writes an unmapped address
 *   ok           signals and waits done right: ages passed on, a setter
 *                thread, resets, and in a forked child a GPU fence woken
 *                by its interrupt
 *
 * Each prints "MODE done" on stdout and exits 0 (the trace's tests check
 * that the output and status come through unchanged), 1 on a failed step.
 */
#include <sys/mman.h>
#include <sys/wait.h>

#include <kfdsig/kfdsig.h>

#include "preload_util.h"

static int kfd;

static int fail(const char *what, int r)
{
	fprintf(stderr, "trace_client: %s: %s\n", what, strerror(r < 0 ? -r : r));
	exit(1);
}

static uint32_t event(bool auto_reset, uint64_t *page_offset)
{
	struct kfd_ioctl_create_event_args a = { .event_type = KFD_IOC_EVENT_SIGNAL,
						 .auto_reset = auto_reset };
	int r = p_ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &a);

	if (r)
		fail("CREATE_EVENT", r);
	if (page_offset)
		*page_offset = a.event_page_offset;
	return a.event_id;
}

/* WAIT_EVENTS on @id passing @age; the age the KFD answered in *age. */
static uint32_t wait_age(uint32_t id, uint64_t *age, uint32_t timeout_ms)
{
	struct kfd_event_data d = { .event_id = id };
	struct kfd_ioctl_wait_events_args a = {
		.events_ptr = (uint64_t)(uintptr_t)&d,
		.num_events = 1,
		.timeout = timeout_ms,
	};
	int r;

	memcpy(&d, age, sizeof(*age)); /* signal_event_data.last_event_age */
	r = p_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &a);
	if (r)
		fail("WAIT_EVENTS", r);
	memcpy(age, &d, sizeof(*age));
	return a.wait_result;
}

static void storm(void)
{
	uint32_t id = event(false, NULL);

	/* signal once: the age moves on from 1 */
	if (p_set(kfd, id))
		fail("SET_EVENT", -EIO);
	for (int i = 0; i < 40; i++) {
		uint64_t stale = 1;
		wait_age(id, &stale, 1000); /* passes 1 every time, as ROCr's bug did */
	}
	p_reset(kfd, id);
}

static void lost(void)
{
	uint64_t off;
	uint32_t id = event(true, &off), res;
	volatile uint64_t *page = mmap(NULL, KFDSIG_SIGNAL_PAGE_SIZE, PROT_READ | PROT_WRITE,
				       MAP_SHARED, kfd, (off_t)off);

	if (page == MAP_FAILED)
		fail("mmap of the signal page", errno);
	page[id] = id; /* what the GPU writes; no interrupt follows */
	if (p_wait(kfd, id, 50, &res) || res != KFD_IOC_WAIT_RESULT_TIMEOUT)
		fail("the wait should time out", EPROTO);
}

static void no_waiter(void)
{
	uint32_t id = event(true, NULL);
	struct kfd_ioctl_destroy_event_args d = { .event_id = id };

	if (p_set(kfd, id) || p_ioctl(kfd, AMDKFD_IOC_DESTROY_EVENT, &d))
		fail("set and destroy", EIO);
}

static void never_reset(void)
{
	uint32_t id = event(false, NULL), res;

	if (p_set(kfd, id) || p_wait(kfd, id, 1000, &res))
		fail("set and wait", EIO);
}

static void queue_fault(void)
{
	struct kfdsig_kfd *k;
	const struct kfdsig_kfd_device *dev;
	struct kfdsig_kfd_queue *q;
	struct kfdsig_event mem, ev;
	struct kfdsig_wait_entry w = { 0 };
	enum kfdsig_wait_result res = KFDSIG_WAIT_TIMEOUT;
	uint32_t dw[64];
	int n, r;

	r = kfdsig_kfd_open(NULL, &k);
	if (r)
		fail(kfdsig_last_error(), r);
	dev = kfdsig_kfd_device(k, 0);
	r = !dev || !dev->target ? -ENODEV : kfdsig_kfd_acquire_vm(k, dev->gpu_id);
	if (!r)
		r = kfdsig_kfd_event_create(k, KFDSIG_EVENT_MEMORY, false, &mem);
	if (!r)
		r = kfdsig_kfd_event_create(k, KFDSIG_EVENT_SIGNAL, true, &ev);
	if (!r)
		r = kfdsig_kfd_queue_create(k, dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &q);
	if (r)
		fail(kfdsig_last_error(), r);
	/* a timestamp written nowhere: the GPU faults on it */
	n = kfdsig_pm4_emit_timestamp(dev->target, 0xdead0000ull, dw, 64);
	/* the queue stops at the fault: the submission may not complete */
	if (n <= 0)
		fail("emit", EINVAL);
	kfdsig_kfd_queue_submit(q, dw, (uint32_t)n, 1000);
	w.event_id = mem.id;
	r = kfdsig_kfd_wait(k, &w, 1, false, 5000, &res);
	if (r || res != KFDSIG_WAIT_COMPLETE)
		fail("the MEMORY event should fire", EPROTO);
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(k);
}

static void *setter(void *arg)
{
	uint32_t id = *(uint32_t *)arg;

	usleep(20000);
	p_set(kfd, id);
	return NULL;
}

static void correct(void)
{
	uint32_t a = event(true, NULL), m = event(false, NULL), res;
	uint64_t age = 1; /* a new event's age (kfd_events.c create_signal_event()) */
	pthread_t th;

	/* ages passed on: each wait blocks until the next signal */
	for (int i = 0; i < 3; i++) {
		if (pthread_create(&th, NULL, setter, &a))
			fail("thread", EAGAIN);
		if (wait_age(a, &age, 5000) != KFD_IOC_WAIT_RESULT_COMPLETE)
			fail("the setter's wake-up", EPROTO);
		pthread_join(th, NULL);
	}
	/* a manual-reset event: set, waited for, reset */
	if (p_set(kfd, m) || p_wait(kfd, m, 1000, &res) || p_reset(kfd, m))
		fail("manual event", EIO);
	/* a timeout with nothing signalled is no finding */
	if (p_wait(kfd, m, 10, &res) || res != KFD_IOC_WAIT_RESULT_TIMEOUT)
		fail("the timeout", EPROTO);
	{
		struct kfd_ioctl_destroy_event_args d = { .event_id = a };
		p_ioctl(kfd, AMDKFD_IOC_DESTROY_EVENT, &d);
	}
}

/* A GPU fence woken by its interrupt, through libkfdsig. */
static void gpu_fence(void)
{
	struct kfdsig_kfd *k;
	const struct kfdsig_kfd_device *dev;
	struct kfdsig_kfd_queue *q;
	struct kfdsig_event ev;
	uint64_t page_va;
	uint32_t dw[64];
	enum kfdsig_wait_result res = KFDSIG_WAIT_TIMEOUT;
	struct kfdsig_wait_entry w = { 0 };
	int n, r;

	r = kfdsig_kfd_open(NULL, &k);
	if (r)
		fail(kfdsig_last_error(), r);
	dev = kfdsig_kfd_device(k, 0);
	r = !dev || !dev->target ? -ENODEV : kfdsig_kfd_acquire_vm(k, dev->gpu_id);
	if (!r)
		r = kfdsig_kfd_event_create(k, KFDSIG_EVENT_SIGNAL, true, &ev);
	if (!r)
		r = kfdsig_kfd_signal_page(k, NULL, &page_va);
	if (!r)
		r = kfdsig_kfd_queue_create(k, dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &q);
	if (r)
		fail(kfdsig_last_error(), r);
	{
		struct kfdsig_fence f = { .slot_va = page_va + 8ull * ev.id, .event_id = ev.id };
		n = kfdsig_pm4_emit_fence(dev->target, &f, dw, 64);
	}
	if (n <= 0 || kfdsig_kfd_queue_submit(q, dw, (uint32_t)n, 1000))
		fail("submit", EIO);
	w.event_id = ev.id;
	r = kfdsig_kfd_wait(k, &w, 1, false, 5000, &res);
	if (r || res != KFDSIG_WAIT_COMPLETE)
		fail("the fence", EPROTO);
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(k);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ok";
	int st;

	kfd = p_open_kfd();
	if (kfd < 0)
		fail("open /dev/kfd", errno);
	if (!strcmp(mode, "storm"))
		storm();
	else if (!strcmp(mode, "lost"))
		lost();
	else if (!strcmp(mode, "no-waiter"))
		no_waiter();
	else if (!strcmp(mode, "never-reset"))
		never_reset();
	else if (!strcmp(mode, "queue-fault"))
		queue_fault();
	else if (!strcmp(mode, "ok")) {
		pid_t pid;

		correct();
		fflush(NULL);
		/* a child of its own KFD process: a GPU fence */
		pid = fork();
		if (pid == 0) {
			close(kfd);
			gpu_fence();
			printf("child done\n");
			exit(0);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			fail("the child", ECHILD);
	} else {
		fprintf(stderr, "trace_client: unknown mode '%s'\n", mode);
		return 2;
	}
	printf("%s done\n", mode);
	return 0;
}
