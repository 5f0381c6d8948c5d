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
 *   lost-inf     the lost wake-up: the slot written without an interrupt,
 *                then WAIT_EVENTS with an infinite timeout (hangs)
 *   lost-other   a GPU fence that writes event A's slot and raises its
 *                interrupt with event B's id (dropped under the v6.14
 *                profile), and an infinite wait on A (hangs)
 *   dead-destroy a thread waits on an event another thread destroys
 *   dead-queue   every queue destroyed, then a long wait nobody can end
 *   unknown      an ioctl of a number the KFD does not have, and one whose
 *                argument cannot be read
 *   segv         a KFD call, then killed by SIGSEGV
 *   polled       a GPU fence whose interrupt sets an event nobody waits on
 *                (the client sees the slot acknowledged), then destroyed
 *   userq        a compute user queue on the render node: a submission
 *                held back by a gate, its fence attached to a syncobj
 *                (USERQ_SIGNAL), USERQ_WAIT, a SYNCOBJ_WAIT the fence's
 *                interrupt ends, SYNCOBJ_DESTROY (GFX11 / GFX12 with user
 *                queues: run under --emulate gfx1100,mec=2600)
 *   userq-lost   the same where the interrupt never reaches the fence
 *                handler (the emulator's lose-userq-irq): the wait's fence
 *                has passed, its waiter sleeps on (hangs)
 *
 * Each prints "MODE done" on stdout and exits 0 (the trace's tests check
 * that the output and status come through unchanged), 1 on a failed step.
 * The waits that hang (lost-inf, lost-other) are the tracer's to end; one
 * still blocked after HANG_S seconds says so and exits 3 (hang_bounded()).
 */
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include <kfdsig/kfdsig.h>

#include "preload_util.h"
#include "suite/userq_env.h"

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

/* The tests end a hanging wait through the tracer within a second (its
 * --bound of 200 or 400 ms: the lost-wait finding within 3/4 of it, then
 * --fail-on lost's SIGKILL, or the SIGINT they send passed on). HANG_S is
 * many times that: a wait still blocked then was not ended, and the test
 * is told so by the exit status and this message instead of hanging until
 * its own timeout. */
#define HANG_S 10
#define STR_(x) #x
#define STR(x) STR_(x)

static const char hang_msg[] = "trace_client: the infinite wait still blocks after " STR(
	HANG_S) " s: nobody ended it (no lost-wait finding, no kill, no signal passed on)\n";

static void hang_ended(int sig)
{
	ssize_t n = write(2, hang_msg, sizeof(hang_msg) - 1);

	(void)sig;
	(void)n;
	_exit(3);
}

static void hang_bounded(void)
{
	signal(SIGALRM, hang_ended);
	alarm(HANG_S);
}

static volatile uint64_t *map_page(uint64_t off)
{
	volatile uint64_t *page = mmap(NULL, KFDSIG_SIGNAL_PAGE_SIZE, PROT_READ | PROT_WRITE,
				       MAP_SHARED, kfd, (off_t)off);

	if (page == MAP_FAILED)
		fail("mmap of the signal page", errno);
	return page;
}

static void lost_inf(void)
{
	uint64_t off;
	uint32_t id = event(true, &off), res;
	volatile uint64_t *page = map_page(off);

	page[id] = id; /* what the GPU writes; no interrupt follows */
	hang_bounded();
	p_wait(kfd, id, UINT32_MAX, &res); /* KFD_EVENT_TIMEOUT_INFINITE */
	fail("the lost wait returned", EPROTO);
}

/* A GPU fence that writes @slot_id's slot and interrupts with @irq_id;
 * the caller's queue and signal page through libkfdsig. */
static void lost_other(void)
{
	struct kfdsig_kfd *k;
	const struct kfdsig_kfd_device *dev;
	struct kfdsig_kfd_queue *q;
	struct kfdsig_event a, b;
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
		r = kfdsig_kfd_event_create(k, KFDSIG_EVENT_SIGNAL, true, &a);
	if (!r)
		r = kfdsig_kfd_event_create(k, KFDSIG_EVENT_SIGNAL, true, &b);
	if (!r)
		r = kfdsig_kfd_signal_page(k, NULL, &page_va);
	if (!r)
		r = kfdsig_kfd_queue_create(k, dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &q);
	if (r)
		fail(kfdsig_last_error(), r);
	{
		struct kfdsig_fence f = { .slot_va = page_va + 8ull * a.id,
					  .event_id = a.id,
					  .flags = KFDSIG_FENCE_CTXID |
						   KFDSIG_FENCE_DELIBERATELY_BAD,
					  .ctxid = b.id };
		n = kfdsig_pm4_emit_fence(dev->target, &f, dw, 64);
	}
	if (n <= 0 || kfdsig_kfd_queue_submit(q, dw, (uint32_t)n, 1000))
		fail("submit", EIO);
	w.event_id = a.id;
	hang_bounded();
	kfdsig_kfd_wait(k, &w, 1, false, UINT32_MAX, &res);
	fail("the lost wait returned", EPROTO);
}

static void polled(void)
{
	struct kfdsig_kfd *k;
	const struct kfdsig_kfd_device *dev;
	struct kfdsig_kfd_queue *q;
	struct kfdsig_event ev;
	uint64_t page_va, *page;
	uint32_t dw[64];
	int n, r;

	r = kfdsig_kfd_open(NULL, &k);
	if (r)
		fail(kfdsig_last_error(), r);
	dev = kfdsig_kfd_device(k, 0);
	r = !dev || !dev->target ? -ENODEV : kfdsig_kfd_acquire_vm(k, dev->gpu_id);
	if (!r)
		r = kfdsig_kfd_event_create(k, KFDSIG_EVENT_SIGNAL, true, &ev);
	if (!r)
		r = kfdsig_kfd_signal_page(k, &page, &page_va);
	if (!r)
		r = kfdsig_kfd_queue_create(k, dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &q);
	if (r)
		fail(kfdsig_last_error(), r);
	{
		struct kfdsig_fence f = { .slot_va = page_va + 8ull * ev.id, .event_id = ev.id };
		n = kfdsig_pm4_emit_fence(dev->target, &f, dw, 64);
	}
	if (n <= 0 || kfdsig_kfd_queue_submit(q, dw, (uint32_t)n, 1000) ||
	    kfdsig_kfd_queue_wait_idle(q, 5000))
		fail("submit", EIO);
	/* the fence wrote the slot; the interrupt that set the event
	 * acknowledged it (the runtime polls instead of sleeping) */
	for (int i = 0; i < 5000; i++) {
		if (((volatile uint64_t *)page)[ev.id] == KFDSIG_SLOT_UNSIGNALED)
			break;
		usleep(1000);
	}
	if (((volatile uint64_t *)page)[ev.id] != KFDSIG_SLOT_UNSIGNALED)
		fail("the fence's interrupt", ETIMEDOUT);
	kfdsig_kfd_event_destroy(k, ev.id);
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(k);
}

struct doom {
	uint32_t id;
	int delay_ms;
};

static void *destroyer(void *arg)
{
	struct doom *d = arg;
	struct kfd_ioctl_destroy_event_args a = { .event_id = d->id };

	usleep((useconds_t)d->delay_ms * 1000);
	p_ioctl(kfd, AMDKFD_IOC_DESTROY_EVENT, &a);
	return NULL;
}

/* Until the destruction comes while the wait sleeps (EIO; EINVAL: the
 * event was gone before the wait began), waiting longer each time. */
static void dead_destroy(void)
{
	for (int k = 1; k <= 10; k++) {
		struct doom d = { event(true, NULL), 50 * k };
		struct kfd_event_data e = { .event_id = d.id };
		struct kfd_ioctl_wait_events_args a = {
			.events_ptr = (uint64_t)(uintptr_t)&e,
			.num_events = 1,
			.timeout = 10000,
		};
		pthread_t th;
		int r;

		if (pthread_create(&th, NULL, destroyer, &d))
			fail("thread", EAGAIN);
		r = p_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &a);
		pthread_join(th, NULL);
		if (r == -EIO)
			return;
	}
	fail("the destruction never came during the wait", EPROTO);
}

static void dead_queue(void)
{
	struct kfdsig_kfd *k;
	const struct kfdsig_kfd_device *dev;
	struct kfdsig_kfd_queue *q;
	struct kfdsig_event ev;
	struct kfdsig_wait_entry w = { 0 };
	enum kfdsig_wait_result res = KFDSIG_WAIT_COMPLETE;
	int r;

	r = kfdsig_kfd_open(NULL, &k);
	if (r)
		fail(kfdsig_last_error(), r);
	dev = kfdsig_kfd_device(k, 0);
	r = !dev || !dev->target ? -ENODEV : kfdsig_kfd_acquire_vm(k, dev->gpu_id);
	if (!r)
		r = kfdsig_kfd_event_create(k, KFDSIG_EVENT_SIGNAL, true, &ev);
	if (!r)
		r = kfdsig_kfd_queue_create(k, dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &q);
	if (r)
		fail(kfdsig_last_error(), r);
	kfdsig_kfd_queue_destroy(q);
	w.event_id = ev.id;
	/* under --bound 200: long enough to be found */
	r = kfdsig_kfd_wait(k, &w, 1, false, 3000, &res);
	if (r || res != KFDSIG_WAIT_TIMEOUT)
		fail("the wait should time out", EPROTO);
	kfdsig_kfd_close(k);
}

static void unknown(void)
{
	uint64_t arg = 0;

	/* a number past the KFD's last: ENOTTY (kfd_ioctl() checks nr) */
	if (ioctl(kfd, _IOWR('K', 0x7f, uint64_t), &arg) == 0)
		fail("ioctl 0x7f succeeded", EPROTO);
	/* GET_VERSION on an address nothing maps: EFAULT */
	if (ioctl(kfd, AMDKFD_IOC_GET_VERSION, (void *)8) == 0)
		fail("GET_VERSION on a bad pointer succeeded", EPROTO);
	/* CREATE_EVENT too: its arguments are decoded when readable only */
	if (ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, (void *)16) == 0)
		fail("CREATE_EVENT on a bad pointer succeeded", EPROTO);
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

struct gate {
	volatile uint64_t *word;
	unsigned ms;
};

static void *open_gate(void *arg)
{
	struct gate *g = arg;

	usleep(g->ms * 1000);
	__atomic_store_n(g->word, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void userq(bool lose)
{
	struct kfdsig_kfd *k = NULL;
	struct kfdsig_userq_fence_ref ref, got[2];
	struct uq_env e;
	struct gate g = { .ms = 100 };
	pthread_t th;
	uint32_t h, h2, n = 2;
	uint64_t seq, seq2;
	int r;

	r = kfdsig_kfd_open(NULL, &k);
	if (r)
		fail(kfdsig_last_error(), r);
	r = uq_env_open(&e, NULL, k, kfdsig_kfd_device(k, 0));
	if (!r)
		r = uq_env_queue(&e, 0);
	if (!r)
		r = uq_env_queue(&e, 1);
	if (!r)
		r = uq_env_syncobj(&e, &h);
	if (!r)
		r = uq_env_syncobj(&e, &h2);
	if (r)
		fail(e.why, r);
	ref.va = uq_env_va(&e.q[0], UQ_OFF_GATE);
	ref.value = 1;
	r = uq_env_submit(&e, 0, &ref, 1, h, &seq);
	if (!r)
		r = uq_env_wait_refs(&e, 1, h, got, &n);
	if (!r)
		r = uq_env_submit(&e, 1, got, n, h2, &seq2);
	if (r)
		fail(e.why, r);
	g.word = uq_env_cpu(&e.q[0], UQ_OFF_GATE);
	if (pthread_create(&th, NULL, open_gate, &g))
		fail("gate thread", EAGAIN);
	/* the tracer's bound (400 ms) is far below this timeout: the fence
	 * lost, the wait still sleeps when the tracer kills the program; 3 s
	 * (not HANG_S: a test of this detector fails in seconds) */
	if (lose) {
		signal(SIGALRM, hang_ended);
		alarm(3);
	}
	r = uq_env_sync_wait(&e, &h2, 1, false, lose ? 8000 : 5000, NULL, NULL);
	if (lose)
		fail("the lost fence's wait returned", EPROTO);
	if (r)
		fail(e.why, r);
	pthread_join(th, NULL);
	uq_env_close(&e);
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
	else if (!strcmp(mode, "lost-inf"))
		lost_inf();
	else if (!strcmp(mode, "lost-other"))
		lost_other();
	else if (!strcmp(mode, "dead-destroy"))
		dead_destroy();
	else if (!strcmp(mode, "dead-queue"))
		dead_queue();
	else if (!strcmp(mode, "unknown"))
		unknown();
	else if (!strcmp(mode, "polled"))
		polled();
	else if (!strcmp(mode, "userq") || !strcmp(mode, "userq-lost"))
		userq(!strcmp(mode, "userq-lost"));
	else if (!strcmp(mode, "segv")) {
		p_version(kfd);
		fflush(NULL);
		raise(SIGSEGV);
	} else if (!strcmp(mode, "ok")) {
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
