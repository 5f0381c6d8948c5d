/* SPDX-License-Identifier: MIT */
/*
 * amdgpu user-mode queues on the emulated render node, through kfdsig's
 * public API as a program on a real GPU would use it: KFD buffers mapped
 * in the render node's VM (kfdsig_kfd_alloc / kfdsig_kfd_render_fd), a
 * doorbell object (AMDGPU_GEM_CREATE in the doorbell domain, GEM_MMAP),
 * compute queues (kfdsig_userq_create), submissions ending in
 * kfdsig_userq_emit_submit()'s sequence, DRM_AMDGPU_USERQ_SIGNAL to a
 * syncobj the program waits on (DRM_IOCTL_SYNCOBJ_WAIT), and a second
 * queue that waits for that fence on the GPU (USERQ_WAIT ->
 * FENCE_WAIT_MULTI). Then the kernel's refusals and a queue that halts.
 * Run under `kfdsig exec --emulate SPEC` where SPEC's first two GPUs take
 * user queues and the third does not (run-client.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>

#include <kfdsig/kfd.h>
#include <kfdsig/pm4.h>
#include <kfdsig/userq.h>

#include "client.h"

/* REQUIRE for a function without a result */
#define REQUIRE_V(cond, ...)                     \
	do {                                     \
		int ok_ = !!(cond);              \
		CHECK(ok_ &&#cond, __VA_ARGS__); \
		if (!ok_)                        \
			return;                  \
	} while (0)

#define GEM_DOMAIN_DOORBELL 0x40
#define RING_BYTES 4096u
/* the queue's buffer: ring, rptr, wptr, EOP, user fence, gate */
#define OFF_RPTR 4096
#define OFF_WPTR 8192
#define OFF_EOP 12288
#define OFF_FENCE 16384
#define OFF_GATE 20480
#define BUF_BYTES 65536

struct q {
	const struct kfdsig_target *t;
	int fd;
	uint32_t id;
	const struct kfdsig_kfd_bo *bo;
	volatile uint64_t *db;
	uint64_t wptr;
};

static int64_t mono_ns(int64_t plus_ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + plus_ms * 1000000;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static int sync_create(int fd, uint32_t *h)
{
	struct drm_syncobj_create c = { 0 };
	int r = xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);

	*h = c.handle;
	return r;
}

static int sync_wait(int fd, const uint32_t *h, uint32_t n, bool all, int64_t abs_ns)
{
	struct drm_syncobj_wait w = { 0 };

	w.handles = (uintptr_t)h;
	w.count_handles = n;
	w.flags = all ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL : 0;
	w.timeout_nsec = abs_ns;
	return xioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

static uint64_t va(const struct q *q, uint64_t off)
{
	return q->bo->va + off;
}

static volatile uint64_t *cpu64(const struct q *q, uint64_t off)
{
	return (volatile uint64_t *)((char *)q->bo->cpu + off);
}

/* Write @dw at the ring's write pointer, publish it (wptr buffer, then
 * the doorbell) as a program does before USERQ_SIGNAL. */
static void ring_submit(struct q *q, const uint32_t *dw, uint32_t n)
{
	uint32_t *ring = q->bo->cpu;

	for (uint32_t i = 0; i < n; i++)
		ring[(q->wptr + i) % (RING_BYTES / 4)] = dw[i];
	q->wptr += n;
	__atomic_store_n(cpu64(q, OFF_WPTR), q->wptr, __ATOMIC_RELEASE);
	__atomic_store_n(q->db, q->wptr, __ATOMIC_RELEASE);
}

/* kfdsig_userq_emit_submit() with @waits, then publish; the fence's
 * sequence number. */
static uint64_t submit(struct q *q, const struct kfdsig_userq_fence_ref *waits, uint32_t nwaits)
{
	KFDSIG_OPTS(kfdsig_userq_submit, s, .wptr = q->wptr, .fence_va = va(q, OFF_FENCE),
		    .waits = waits, .nwaits = nwaits);
	uint32_t buf[256];
	uint64_t seq = 0;
	int n = kfdsig_userq_emit_submit(q->t, &s, buf, 256, &seq);

	CHECK(n > 0, "emit_submit: %d", n);
	if (n > 0)
		ring_submit(q, buf, (uint32_t)n);
	CHECK(seq == q->wptr, "sequence %llu is the ring position %llu", (unsigned long long)seq,
	      (unsigned long long)q->wptr);
	return seq;
}

static int make_queue(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_device *dev, int fd,
		      uint32_t db_handle, volatile uint64_t *db_page, uint32_t db_off, struct q *q)
{
	int r;

	memset(q, 0, sizeof(*q));
	q->t = dev->target;
	q->fd = fd;
	r = kfdsig_kfd_alloc(kfd, dev->gpu_id, BUF_BYTES, KFDSIG_KFD_MEM_GTT_UNCACHED, &q->bo);
	if (!r)
		r = kfdsig_kfd_map(kfd, q->bo, &dev->gpu_id, 1);
	if (r)
		return r;
	memset(q->bo->cpu, 0, BUF_BYTES);
	q->db = db_page + db_off;
	KFDSIG_OPTS(kfdsig_userq_create_args, a, .ip = KFDSIG_USERQ_IP_COMPUTE,
		    .doorbell_handle = db_handle, .doorbell_offset = db_off, .ring_va = va(q, 0),
		    .ring_size = RING_BYTES, .rptr_va = va(q, OFF_RPTR), .wptr_va = va(q, OFF_WPTR),
		    .eop_va = va(q, OFF_EOP));
	return kfdsig_userq_create(fd, &a, &q->id);
}

/* Open the gate once the main thread sleeps in its syncobj wait: the
 * fences must then be signalled by the interrupt, not found at the start
 * of the wait. */
struct gate {
	pid_t tid;
	volatile uint64_t *word;
};

static void *open_gate(void *arg)
{
	struct gate *g = arg;
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)g->tid);
	for (int sleeping = 0, i = 0; sleeping < 5 && i < 2000; i++) {
		int fd = open(path, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		char *p;

		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = 0;
		p = strrchr(buf, ')');
		sleeping = p && p[1] == ' ' && p[2] == 'S' ? sleeping + 1 : 0;
		usleep(1000);
	}
	__atomic_store_n(g->word, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A thread in SYNCOBJ_WAIT with WAIT_FOR_SUBMIT on a syncobj that has no
 * fence yet. */
struct submit_waiter {
	int fd, r;
	uint32_t h;
	pid_t tid;
	double ms;
};

static void *wait_for_submit(void *arg)
{
	struct submit_waiter *w = arg;
	struct drm_syncobj_wait sw = { 0 };

	w->tid = (pid_t)syscall(SYS_gettid);
	sw.handles = (uintptr_t)&w->h;
	sw.count_handles = 1;
	sw.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	sw.timeout_nsec = mono_ns(3000);
	w->ms = client_ms();
	w->r = xioctl(w->fd, DRM_IOCTL_SYNCOBJ_WAIT, &sw);
	w->ms = client_ms() - w->ms;
	return NULL;
}

/* Until thread @tid sleeps (a few consecutive looks), at most ~2 s. */
static void until_sleeping(const volatile pid_t *tid)
{
	char path[64], buf[256];

	for (int i = 0; i < 2000 && !*tid; i++)
		usleep(1000);
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)*tid);
	for (int sleeping = 0, i = 0; sleeping < 5 && i < 2000; i++) {
		int fd = open(path, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		char *p;

		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = 0;
		p = strrchr(buf, ')');
		sleeping = p && p[1] == ' ' && p[2] == 'S' ? sleeping + 1 : 0;
		usleep(1000);
	}
}

/* One device: two queues; A waits for a gate the CPU opens, B waits on
 * the GPU for A's fence; the CPU sleeps on both syncobjs. */
static void flow(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_device *dev)
{
	union drm_amdgpu_gem_create gc = { 0 };
	union drm_amdgpu_gem_mmap gm = { 0 };
	struct kfdsig_userq_fence_ref gate_ref, got[4];
	uint32_t sa, sb, both[2], n = 4, mask = 0, id;
	struct q a, b, c;
	volatile uint64_t *db;
	uint64_t seq_a, seq_b;
	pthread_t th;
	struct gate gt;
	double t0;
	int fd, r;

	REQUIRE_V(kfdsig_kfd_acquire_vm(kfd, dev->gpu_id) == 0, "acquire vm");
	fd = kfdsig_kfd_render_fd(kfd, dev->gpu_id);
	REQUIRE_V(fd >= 0, "render fd: %d", fd);
	CHECK(kfdsig_userq_probe(fd, &mask) == 0 && mask == 1u << KFDSIG_USERQ_IP_COMPUTE,
	      "%s: user queues on compute only, mask 0x%x", dev->name, mask);
	gc.in.bo_size = 4096;
	gc.in.domains = GEM_DOMAIN_DOORBELL;
	REQUIRE_V(xioctl(fd, DRM_IOCTL_AMDGPU_GEM_CREATE, &gc) == 0, "doorbell object");
	gm.in.handle = gc.out.handle;
	REQUIRE_V(xioctl(fd, DRM_IOCTL_AMDGPU_GEM_MMAP, &gm) == 0, "GEM_MMAP");
	db = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)gm.out.addr_ptr);
	REQUIRE_V(db != MAP_FAILED, "mmap the doorbells");

	REQUIRE_V(make_queue(kfd, dev, fd, gc.out.handle, db, 0, &a) == 0, "queue A: %s",
		  kfdsig_last_error());
	REQUIRE_V(make_queue(kfd, dev, fd, gc.out.handle, db, 1, &b) == 0, "queue B: %s",
		  kfdsig_last_error());
	CHECK(a.id == 1 && b.id == 2, "queue ids from 1: %u %u", a.id, b.id);
	CHECK(make_queue(kfd, dev, fd, gc.out.handle, db, 1, &c) == -EBUSY, "a doorbell in use: %s",
	      kfdsig_last_error());
	REQUIRE_V(sync_create(fd, &sa) == 0 && sync_create(fd, &sb) == 0, "syncobjs");
	CHECK(sync_wait(fd, &sa, 1, false, 0) == -EINVAL, "a syncobj without a fence");
	{
		uint32_t st;

		/* DRM_SYNCOBJ_CREATE_SIGNALED, waited for with no end (as Mesa) */
		struct drm_syncobj_create sc = { .flags = DRM_SYNCOBJ_CREATE_SIGNALED };

		CHECK(xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc) == 0, "signalled syncobj");
		st = sc.handle;
		CHECK(sync_wait(fd, &st, 1, false, INT64_MAX) == 0, "a signalled stub, no timeout");
	}

	/* A: waits for the gate, then its trailer */
	gate_ref.va = va(&a, OFF_GATE);
	gate_ref.value = 1;
	seq_a = submit(&a, &gate_ref, 1);
	CHECK(kfdsig_userq_signal(fd, a.id, &sa, 1) == 0, "signal A");
	CHECK(sync_wait(fd, &sa, 1, false, 0) == -ETIME, "A's fence: the gate is closed");
	/* B: the GPU waits for A's fence */
	CHECK(kfdsig_userq_wait(fd, b.id, &sa, 1, got, &n) == 0 && n == 1, "USERQ_WAIT: %u", n);
	CHECK(got[0].value == seq_a, "the fence's sequence number %llu, want %llu",
	      (unsigned long long)got[0].value, (unsigned long long)seq_a);
	CHECK(got[0].va != va(&a, OFF_FENCE), "the kernel's slot, not the user fence");
	seq_b = submit(&b, got, n);
	CHECK(kfdsig_userq_signal(fd, b.id, &sb, 1) == 0, "signal B");
	CHECK(sync_wait(fd, &sb, 1, false, mono_ns(300)) == -ETIME,
	      "B waits on the GPU for A (its fence after 300 ms)");
	CHECK(*cpu64(&b, OFF_FENCE) == 0, "B's user fence before A's");

	gt.tid = (pid_t)syscall(SYS_gettid);
	gt.word = cpu64(&a, OFF_GATE);
	pthread_create(&th, NULL, open_gate, &gt);
	both[0] = sa;
	both[1] = sb;
	t0 = client_ms();
	r = sync_wait(fd, both, 2, true, mono_ns(4000));
	CHECK(r == 0, "both fences signalled: %d", r);
	/* the wait's last look at the slots at its timeout would find them:
	 * only an interrupt ends it early */
	CHECK(client_ms() - t0 < 2500, "woken by the interrupts, not the timeout: %.0f ms",
	      client_ms() - t0);
	pthread_join(th, NULL);
	CHECK(*cpu64(&a, OFF_FENCE) == seq_a && *cpu64(&b, OFF_FENCE) == seq_b,
	      "user fences %llu %llu, want %llu %llu", (unsigned long long)*cpu64(&a, OFF_FENCE),
	      (unsigned long long)*cpu64(&b, OFF_FENCE), (unsigned long long)seq_a,
	      (unsigned long long)seq_b);

	/* WAIT_FOR_SUBMIT: a fence attached while the wait sleeps ends it
	 * (one A has passed already: no interrupt comes, the attach must
	 * wake the waiter) */
	{
		struct submit_waiter sw = { .fd = fd };
		pthread_t wt;

		REQUIRE_V(sync_create(fd, &sw.h) == 0, "syncobj");
		pthread_create(&wt, NULL, wait_for_submit, &sw);
		until_sleeping(&sw.tid);
		CHECK(kfdsig_userq_signal(fd, a.id, &sw.h, 1) == 0, "signal the waited syncobj");
		pthread_join(wt, NULL);
		CHECK(sw.r == 0 && sw.ms < 2000,
		      "WAIT_FOR_SUBMIT woken by the fence attached during the wait: %d after %.0f "
		      "ms",
		      sw.r, sw.ms);
	}
	/* A RELEASE_MEM that interrupts on a user queue: the userq handler
	 * takes its context id for a doorbell (none here), and KFD, which
	 * also gets the entry, signals the event it names in this VM's
	 * process (amdgpu_irq_dispatch(): not handled, so to amdkfd too) */
	{
		struct kfdsig_event ev;
		struct kfdsig_fence kf = { 0 };
		struct kfdsig_wait_entry we = { 0 };
		enum kfdsig_wait_result res = KFDSIG_WAIT_FAIL;
		uint32_t pkt[32];
		int k;

		REQUIRE_V(kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, true, &ev) == 0,
			  "event");
		kf.slot_va = ev.slot_va;
		kf.event_id = ev.id;
		k = kfdsig_pm4_emit_fence(a.t, &kf, pkt, 32);
		REQUIRE_V(k > 0, "KFD fence: %d", k);
		ring_submit(&a, pkt, (uint32_t)k);
		we.event_id = ev.id;
		CHECK(kfdsig_kfd_wait(kfd, &we, 1, false, 3000, &res) == 0 &&
			      res == KFDSIG_WAIT_COMPLETE,
		      "the KFD event named by a user queue's RELEASE_MEM: result %d", res);
		kfdsig_kfd_event_destroy(kfd, ev.id);
	}
	/* the queue cannot write its fence slot: a VM fault halts it */
	{
		uint32_t wd[6] = { 0xc0043700u,		5u << 8 | 1u << 20,
				   (uint32_t)got[0].va, (uint32_t)(got[0].va >> 32),
				   0x7fffffffu,		0x7fffffffu };
		uint64_t s;

		ring_submit(&b, wd, 6);
		s = submit(&b, NULL, 0);
		CHECK(kfdsig_userq_signal(fd, b.id, &sb, 1) == 0, "signal B again");
		CHECK(sync_wait(fd, &sb, 1, false, mono_ns(300)) == -ETIME,
		      "a write to the seq64 slot halts the queue: no fence %llu",
		      (unsigned long long)s);
	}
	/* an opcode the CP does not take halts the queue */
	{
		uint32_t bad[2] = { 0xc000ee00u, 0 };

		ring_submit(&a, bad, 2);
		submit(&a, NULL, 0);
		CHECK(kfdsig_userq_signal(fd, a.id, &sa, 1) == 0, "signal A again");
		CHECK(sync_wait(fd, &sa, 1, false, mono_ns(300)) == -ETIME,
		      "a bad packet halts the queue");
	}

	/* refusals (amdgpu_userq.c) */
	{
		KFDSIG_OPTS(kfdsig_userq_create_args, x, .ip = KFDSIG_USERQ_IP_COMPUTE,
			    .doorbell_handle = gc.out.handle, .doorbell_offset = 7,
			    .ring_va = va(&a, 0), .ring_size = RING_BYTES,
			    .rptr_va = va(&a, OFF_RPTR), .wptr_va = va(&a, OFF_WPTR),
			    .eop_va = va(&a, OFF_EOP));

		x.ip = KFDSIG_USERQ_IP_GFX;
		x.shadow_va = x.csa_va = va(&a, OFF_EOP);
		CHECK(kfdsig_userq_create(fd, &x, &id) == -EINVAL, "GFX is not advertised");
		x.ip = KFDSIG_USERQ_IP_COMPUTE;
		x.doorbell_handle = 77;
		CHECK(kfdsig_userq_create(fd, &x, &id) == -EINVAL, "no such doorbell object");
		x.doorbell_handle = gc.out.handle;
		x.doorbell_offset = 512;
		CHECK(kfdsig_userq_create(fd, &x, &id) == -EINVAL, "doorbell past the object");
		x.doorbell_offset = 7;
		x.ring_va = 0x7f0000000000ull;
		CHECK(kfdsig_userq_create(fd, &x, &id) == -EINVAL, "ring not mapped");
		x.ring_va = va(&a, 0);
		x.wptr_va = va(&a, BUF_BYTES - 8);
		CHECK(kfdsig_userq_create(fd, &x, &id) == -EINVAL, "wptr page not mapped whole");
		x.wptr_va = va(&a, OFF_WPTR);
		x.eop_va = va(&a, BUF_BYTES - 1024);
		CHECK(kfdsig_userq_create(fd, &x, &id) == -EINVAL, "EOP not mapped for 2048 bytes");
		x.eop_va = va(&a, OFF_EOP);
		x.flags = 3; /* AMDGPU_USERQ_CREATE_FLAGS_QUEUE_PRIORITY_HIGH */
		CHECK(kfdsig_userq_create(fd, &x, &id) == -EACCES, "high priority unprivileged");
		x.flags = 1u << 3;
		CHECK(kfdsig_userq_create(fd, &x, &id) == -EINVAL, "unknown flag");
		x.flags = 0;
		x.ring_size = 8192 + 4096;
		CHECK(kfdsig_userq_create(fd, &x, &id) == -EINVAL, "ring size not a power of 2");
	}
	/* a forked child's render fd has none of the parent's queues; the
	 * parent's stay (bounded: a child that hangs is killed) */
	{
		pid_t pid = fork();
		int st = -1;

		if (pid == 0)
			_exit(kfdsig_userq_free(fd, a.id) == -ENOENT ? 0 : 1);
		for (int i = 0; pid > 0 && i < 300 && waitpid(pid, &st, WNOHANG) == 0; i++)
			usleep(10000);
		if (pid > 0 && waitpid(pid, &st, WNOHANG) == 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
		}
		CHECK(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "child: no queue %u to free (status 0x%x)", a.id, st);
	}
	CHECK(kfdsig_kfd_free(kfd, a.bo) == -EBUSY, "A's buffer while A lives: %s",
	      kfdsig_last_error());
	CHECK(kfdsig_userq_free(fd, b.id) == 0 && kfdsig_userq_free(fd, a.id) == 0, "free");
	CHECK(kfdsig_kfd_free(kfd, a.bo) == 0 && kfdsig_kfd_free(kfd, b.bo) == 0,
	      "the buffers once the queues are gone: %s", kfdsig_last_error());
	CHECK(kfdsig_userq_free(fd, a.id) == -ENOENT, "free again");
}

int main(void)
{
	struct kfdsig_kfd *kfd = NULL;
	uint32_t mask = 7, id;
	int fd;

	REQUIRE(kfdsig_kfd_open(NULL, &kfd) == 0, "open KFD: %s", kfdsig_last_error());
	REQUIRE(kfdsig_kfd_device_count(kfd) == 3, "three GPUs");
	for (size_t i = 0; i < 2; i++)
		flow(kfd, kfdsig_kfd_device(kfd, i));
	/* a target without user queues: nothing advertised, -ENOTSUPP (524) */
	REQUIRE(kfdsig_kfd_acquire_vm(kfd, kfdsig_kfd_device(kfd, 2)->gpu_id) == 0, "vm 2");
	fd = kfdsig_kfd_render_fd(kfd, kfdsig_kfd_device(kfd, 2)->gpu_id);
	CHECK(kfdsig_userq_probe(fd, &mask) == 0 && mask == 0, "no engine: mask 0x%x", mask);
	{
		KFDSIG_OPTS(kfdsig_userq_create_args, x, .ip = KFDSIG_USERQ_IP_COMPUTE,
			    .ring_va = 0x100000, .ring_size = RING_BYTES, .rptr_va = 0x200000,
			    .wptr_va = 0x201000, .eop_va = 0x300000);
		CHECK(kfdsig_userq_create(fd, &x, &id) == -524, "no user queues: ENOTSUPP");
	}
	kfdsig_kfd_close(kfd);
	return client_done("userq_emu");
}
