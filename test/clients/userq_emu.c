/* SPDX-License-Identifier: MIT */
/*
 * amdgpu user-mode queues on the emulated render node, through kfdsig's
 * public API as a program on a real GPU would use it: KFD buffers mapped
 * in the render node's VM (kfdsig_kfd_alloc / kfdsig_kfd_render_fd), a
 * doorbell object (AMDGPU_GEM_CREATE in the doorbell domain, GEM_MMAP),
 * GFX, compute and SDMA queues (kfdsig_userq_create), submissions ending
 * in kfdsig_userq_emit_submit()'s sequence (the SDMA protected fence on
 * SDMA), DRM_AMDGPU_USERQ_SIGNAL to a syncobj the program waits on
 * (DRM_IOCTL_SYNCOBJ_WAIT), and a queue that waits for another's fence on
 * the GPU (USERQ_WAIT -> FENCE_WAIT_MULTI). Then queues that stop (a VM
 * fault, a packet the engine does not run) and the hang detection's
 * reset that completes their fences, and the kernel's refusals.
 *
 * Run under `kfdsig exec --emulate SPEC` where SPEC's first two GPUs take
 * user queues and the third does not, with a short lockup_timeout
 * (run-client.sh); "mode0" / "mode2" as argv[1]: the user_queue module
 * parameter's 0 and 2 on the one GPU of the spec.
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

#include <linux/sync_file.h>

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
/* the queue's buffer: ring, rptr, wptr, EOP, user fence, gate, the GFX
 * CSA (484 bytes) and shadow (73728 bytes), the SDMA CSA */
#define OFF_RPTR 4096
#define OFF_WPTR 8192
#define OFF_EOP 12288
#define OFF_FENCE 16384
#define OFF_GATE 20480
#define OFF_CSA 24576
#define OFF_SHADOW 32768
#define BUF_BYTES (128u * 1024)
/* run-client.sh's spec for "reset": lockup_timeout=300 (ms); 10 s for
 * the rest, which no queue may reach */
#define LOCKUP_MS 300
#define ENOTSUPP_ 524 /* include/linux/errno.h ENOTSUPP */

struct q {
	const struct kfdsig_target *t;
	uint32_t ip; /* KFDSIG_USERQ_IP_* */
	int fd;
	uint32_t id;
	const struct kfdsig_kfd_bo *bo;
	volatile uint64_t *db;
	uint64_t wptr; /* dwords */
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

static int tl_wait(int fd, uint32_t h, uint64_t point, uint32_t flags, int64_t abs_ns)
{
	struct drm_syncobj_timeline_wait w = { 0 };

	w.handles = (uintptr_t)&h;
	w.points = (uintptr_t)&point;
	w.count_handles = 1;
	w.flags = flags;
	w.timeout_nsec = abs_ns;
	return xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

static int transfer(int fd, uint32_t src, uint32_t dst, uint64_t dst_point)
{
	struct drm_syncobj_transfer t = { .src_handle = src,
					  .dst_handle = dst,
					  .dst_point = dst_point };

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &t);
}

/* USERQ_WAIT on one timeline point: the one {address, value} it gives */
static int userq_wait_point(int fd, uint32_t qid, uint32_t h, uint64_t point,
			    struct kfdsig_userq_fence_ref *out, uint32_t *n)
{
	struct {
		uint32_t waitq_id, pad;
		uint64_t syncobj_handles, syncobj_timeline_handles, syncobj_timeline_points;
		uint64_t bo_read_handles, bo_write_handles;
		uint16_t num_syncobj_timeline_handles, num_fences;
		uint32_t num_syncobj_handles, num_bo_read_handles, num_bo_write_handles;
		uint64_t out_fences;
	} w = { 0 };
	int r;

	w.waitq_id = qid;
	w.syncobj_timeline_handles = (uintptr_t)&h;
	w.syncobj_timeline_points = (uintptr_t)&point;
	w.num_syncobj_timeline_handles = 1;
	w.num_fences = (uint16_t)*n;
	w.out_fences = (uintptr_t)out;
	r = xioctl(fd, _IOWR('d', 0x40 + 0x18, w), &w);
	*n = w.num_fences;
	return r;
}

/* The status of a syncobj's fence as a sync_file reports it (1
 * signalled, < 0 its error), or the export's errno. */
static int fence_status(int fd, uint32_t h)
{
	struct drm_syncobj_handle e = { .handle = h,
					.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE };
	struct sync_file_info info = { 0 };
	struct sync_fence_info fi = { 0 };
	int r = xioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &e);

	if (r)
		return r;
	info.num_fences = 1;
	info.sync_fence_info = (uintptr_t)&fi;
	r = xioctl(e.fd, SYNC_IOC_FILE_INFO, &info);
	close(e.fd);
	if (r)
		return r;
	CHECK(fi.status == info.status && !strcmp(fi.driver_name, "amdgpu_userq_fence"),
	      "the fence's own status %d (%s)", fi.status, fi.driver_name);
	return info.status;
}

static uint64_t va(const struct q *q, uint64_t off)
{
	return q->bo->va + off;
}

static volatile uint64_t *cpu64(const struct q *q, uint64_t off)
{
	return (volatile uint64_t *)((char *)q->bo->cpu + off);
}

/* The write pointer as the queue's engine counts it: dwords on the CP,
 * bytes on SDMA. */
static uint64_t wptr_units(const struct q *q, uint64_t dw)
{
	return q->ip == KFDSIG_USERQ_IP_SDMA ? dw * 4 : dw;
}

/* Write @dw at the ring's write pointer, publish it (wptr buffer, then
 * the doorbell) as a program does before USERQ_SIGNAL. */
static void ring_submit(struct q *q, const uint32_t *dw, uint32_t n)
{
	uint32_t *ring = q->bo->cpu;

	for (uint32_t i = 0; i < n; i++)
		ring[(q->wptr + i) % (RING_BYTES / 4)] = dw[i];
	q->wptr += n;
	__atomic_store_n(cpu64(q, OFF_WPTR), wptr_units(q, q->wptr), __ATOMIC_RELEASE);
	__atomic_store_n(q->db, wptr_units(q, q->wptr), __ATOMIC_RELEASE);
}

/* The end of a submission with @waits, then publish; the fence's sequence
 * number. GFX and compute: kfdsig_userq_emit_submit(); SDMA: at most one
 * wait (a 32-bit memory poll), an SDMA WRITE of the sequence number to
 * the user fence, then the protected fence. */
static uint64_t submit(struct q *q, const struct kfdsig_userq_fence_ref *waits, uint32_t nwaits)
{
	uint32_t buf[256];
	uint64_t seq = 0;
	int n;

	if (q->ip == KFDSIG_USERQ_IP_SDMA) {
		uint64_t fva = va(q, OFF_FENCE);
		uint32_t k = 0;

		/* a wait: POLL_REGMEM until the low 32 bits reach the
		 * value's (mem_poll, func 5 ">=", mask ~0, interval 10) */
		if (nwaits) {
			buf[k++] = 8u | 5u << 28 | 1u << 31;
			buf[k++] = (uint32_t)waits[0].va;
			buf[k++] = (uint32_t)(waits[0].va >> 32);
			buf[k++] = (uint32_t)waits[0].value;
			buf[k++] = ~0u;
			buf[k++] = 10u | 0xfffu << 16;
		}
		seq = (q->wptr + k + 7) * 4;
		buf[k++] = 2; /* SDMA_OP_WRITE, linear */
		buf[k++] = (uint32_t)fva;
		buf[k++] = (uint32_t)(fva >> 32);
		buf[k++] = 1; /* two dwords (count minus one, SDMA 4+) */
		buf[k++] = (uint32_t)seq;
		buf[k++] = (uint32_t)(seq >> 32);
		n = kfdsig_userq_emit_sdma_protected_fence(q->t, buf + k, 1);
		CHECK(n == 1 && nwaits <= 1, "SDMA protected fence: %d", n);
		ring_submit(q, buf, k + 1);
		return seq;
	}
	{
		KFDSIG_OPTS(kfdsig_userq_submit, s, .wptr = q->wptr, .fence_va = va(q, OFF_FENCE),
			    .waits = waits, .nwaits = nwaits,
			    .flags = q->ip == KFDSIG_USERQ_IP_GFX ? KFDSIG_USERQ_SUBMIT_GFX : 0);

		n = kfdsig_userq_emit_submit(q->t, &s, buf, 256, &seq);
	}
	CHECK(n > 0, "emit_submit: %d", n);
	if (n > 0)
		ring_submit(q, buf, (uint32_t)n);
	CHECK(seq == q->wptr, "sequence %llu is the ring position %llu", (unsigned long long)seq,
	      (unsigned long long)q->wptr);
	return seq;
}

static void create_args(const struct q *q, uint32_t ip, uint32_t db_handle, uint32_t db_off,
			struct kfdsig_userq_create_args *a)
{
	KFDSIG_OPTS(kfdsig_userq_create_args, x, .ip = ip, .doorbell_handle = db_handle,
		    .doorbell_offset = db_off, .ring_va = va(q, 0), .ring_size = RING_BYTES,
		    .rptr_va = va(q, OFF_RPTR), .wptr_va = va(q, OFF_WPTR));
	if (ip == KFDSIG_USERQ_IP_COMPUTE)
		x.eop_va = va(q, OFF_EOP);
	if (ip != KFDSIG_USERQ_IP_COMPUTE)
		x.csa_va = va(q, OFF_CSA);
	if (ip == KFDSIG_USERQ_IP_GFX)
		x.shadow_va = va(q, OFF_SHADOW);
	*a = x;
}

static int make_queue(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_device *dev, int fd,
		      uint32_t ip, uint32_t db_handle, volatile uint64_t *db_page, uint32_t db_off,
		      struct q *q)
{
	struct kfdsig_userq_create_args a;
	int r;

	memset(q, 0, sizeof(*q));
	q->t = dev->target;
	q->ip = ip;
	q->fd = fd;
	r = kfdsig_kfd_alloc(kfd, dev->gpu_id, BUF_BYTES, KFDSIG_KFD_MEM_GTT_UNCACHED, &q->bo);
	if (!r)
		r = kfdsig_kfd_map(kfd, q->bo, &dev->gpu_id, 1);
	if (r)
		return r;
	memset(q->bo->cpu, 0, BUF_BYTES);
	q->db = db_page + db_off;
	create_args(q, ip, db_handle, db_off, &a);
	return kfdsig_userq_create(fd, &a, &q->id);
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

	until_sleeping(&g->tid);
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

/* What each device of the spec takes: GC 11.0.0 with SDMA 6.0.0 (default
 * SDMA firmware 256 >= 27), GC 12.0.1 with SDMA 7.0.1 and firmware
 * 7966358 (sdma= in the spec); the third takes none. */
static const struct device_case {
	uint32_t mask;
} devices[2] = {
	{ 1u << KFDSIG_USERQ_IP_GFX | 1u << KFDSIG_USERQ_IP_COMPUTE | 1u << KFDSIG_USERQ_IP_SDMA },
	{ 1u << KFDSIG_USERQ_IP_GFX | 1u << KFDSIG_USERQ_IP_COMPUTE | 1u << KFDSIG_USERQ_IP_SDMA },
};

/* The device's render node with its VM acquired, the engines it must
 * advertise checked, a doorbell object mapped. */
static int open_dev(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_device *dev,
		    const struct device_case *dc, int *fd, uint32_t *db_handle,
		    volatile uint64_t **db)
{
	union drm_amdgpu_gem_create gc = { 0 };
	union drm_amdgpu_gem_mmap gm = { 0 };
	uint32_t mask = 0;

	if (kfdsig_kfd_acquire_vm(kfd, dev->gpu_id))
		return -1;
	*fd = kfdsig_kfd_render_fd(kfd, dev->gpu_id);
	if (*fd < 0)
		return -1;
	CHECK(kfdsig_userq_probe(*fd, &mask) == 0 && mask == dc->mask,
	      "%s: user-queue engines 0x%x, want 0x%x", dev->name, mask, dc->mask);
	gc.in.bo_size = 4096;
	gc.in.domains = GEM_DOMAIN_DOORBELL;
	if (xioctl(*fd, DRM_IOCTL_AMDGPU_GEM_CREATE, &gc))
		return -1;
	gm.in.handle = gc.out.handle;
	if (xioctl(*fd, DRM_IOCTL_AMDGPU_GEM_MMAP, &gm))
		return -1;
	*db = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, (off_t)gm.out.addr_ptr);
	*db_handle = gc.out.handle;
	return *db == MAP_FAILED ? -1 : 0;
}

/* A queue that stops and what stops it; the hang detection resets it
 * after the lockup timeout and its fence completes without the
 * submission having run (amdgpu_userq_fence_driver_force_completion()). */
struct stop_case {
	const char *what;
	struct q *q;
	uint32_t dw[8], n;
};

/* One device: a GFX queue A waits for a gate the CPU opens, a compute
 * queue B waits on the GPU for A's fence, an SDMA queue S (where there is
 * one) signals at once; the CPU sleeps on all the syncobjs. Then each
 * queue stops, is reset, and a new queue waits on the GPU for the reset
 * fence. */
static void flow(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_device *dev,
		 const struct device_case *dc)
{
	union drm_amdgpu_gem_create gc = { 0 };
	struct kfdsig_userq_fence_ref gate_ref, got[4];
	uint32_t sa, sb, ss = 0, all[2], n = 4, id;
	struct q a, b, s, c;
	bool sdma = dc->mask & 1u << KFDSIG_USERQ_IP_SDMA;
	volatile uint64_t *db;
	uint64_t seq_a, seq_b, seq_s = 0;
	pthread_t th;
	struct gate gt;
	double t0;
	int fd, r;

	REQUIRE_V(open_dev(kfd, dev, dc, &fd, &gc.out.handle, &db) == 0, "%s", dev->name);

	REQUIRE_V(make_queue(kfd, dev, fd, KFDSIG_USERQ_IP_GFX, gc.out.handle, db, 0, &a) == 0,
		  "GFX queue A: %s", kfdsig_last_error());
	REQUIRE_V(make_queue(kfd, dev, fd, KFDSIG_USERQ_IP_COMPUTE, gc.out.handle, db, 1, &b) == 0,
		  "compute queue B: %s", kfdsig_last_error());
	CHECK(a.id == 1 && b.id == 2, "queue ids from 1: %u %u", a.id, b.id);
	CHECK(make_queue(kfd, dev, fd, KFDSIG_USERQ_IP_COMPUTE, gc.out.handle, db, 1, &c) == -EBUSY,
	      "a doorbell in use: %s", kfdsig_last_error());
	if (sdma)
		REQUIRE_V(make_queue(kfd, dev, fd, KFDSIG_USERQ_IP_SDMA, gc.out.handle, db, 2,
				     &s) == 0,
			  "SDMA queue S: %s", kfdsig_last_error());
	else
		CHECK(make_queue(kfd, dev, fd, KFDSIG_USERQ_IP_SDMA, gc.out.handle, db, 2, &s) ==
			      -EINVAL,
		      "%s: SDMA not advertised: %s", dev->name, kfdsig_last_error());
	REQUIRE_V(sync_create(fd, &sa) == 0 && sync_create(fd, &sb) == 0, "syncobjs");
	REQUIRE_V(!sdma || sync_create(fd, &ss) == 0, "syncobj");
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
	if (sdma) {
		struct kfdsig_userq_fence_ref gate_s = { va(&s, OFF_GATE), 1 };

		seq_s = submit(&s, &gate_s, 1);
		CHECK(kfdsig_userq_signal(fd, s.id, &ss, 1) == 0, "signal S");
	}
	CHECK(sync_wait(fd, &sb, 1, false, mono_ns(100)) == -ETIME,
	      "B waits on the GPU for A (its fence after 100 ms)");
	CHECK(*cpu64(&b, OFF_FENCE) == 0, "B's user fence before A's");

	gt.tid = (pid_t)syscall(SYS_gettid);
	gt.word = cpu64(&a, OFF_GATE);
	pthread_create(&th, NULL, open_gate, &gt);
	all[0] = sa;
	all[1] = sb;
	t0 = client_ms();
	r = sync_wait(fd, all, 2, true, mono_ns(4000));
	CHECK(r == 0, "the fences signalled: %d", r);
	/* the wait's last look at the slots at its timeout would find them:
	 * only an interrupt ends it early */
	CHECK(client_ms() - t0 < 2500, "woken by the interrupts, not the timeout: %.0f ms",
	      client_ms() - t0);
	pthread_join(th, NULL);
	if (client_failures)
		return; /* the rest would wait for the same lost interrupts */
	/* S, alone: only its protected fence's interrupt wakes the wait */
	if (sdma) {
		gt.word = cpu64(&s, OFF_GATE);
		pthread_create(&th, NULL, open_gate, &gt);
		t0 = client_ms();
		r = sync_wait(fd, &ss, 1, true, mono_ns(4000));
		CHECK(r == 0 && client_ms() - t0 < 2500,
		      "S's fence, woken by the SDMA fence interrupt: %d after %.0f ms", r,
		      client_ms() - t0);
		pthread_join(th, NULL);
		if (client_failures)
			return;
	}
	CHECK(*cpu64(&a, OFF_FENCE) == seq_a && *cpu64(&b, OFF_FENCE) == seq_b,
	      "user fences %llu %llu, want %llu %llu", (unsigned long long)*cpu64(&a, OFF_FENCE),
	      (unsigned long long)*cpu64(&b, OFF_FENCE), (unsigned long long)seq_a,
	      (unsigned long long)seq_b);
	CHECK(!sdma || *cpu64(&s, OFF_FENCE) == seq_s, "SDMA user fence %llu, want %llu",
	      (unsigned long long)*cpu64(&s, OFF_FENCE), (unsigned long long)seq_s);

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
	/* Timeline syncobjs: A's fences become points 5 and 7 of T
	 * (SYNCOBJ_TRANSFER); a point waits for the first point at or after
	 * it and everything before (dma_fence_chain_find_seqno()), a point
	 * nothing reached is -EINVAL (-ETIME with WAIT_FOR_SUBMIT); USERQ_WAIT
	 * on a point gives the GPU the same fence. */
	{
		struct kfdsig_userq_fence_ref ref, gate2 = { va(&a, OFF_GATE + 8), 1 };
		uint32_t t, g2, n1 = 1;
		uint64_t seq_a2;

		REQUIRE_V(sync_create(fd, &t) == 0 && sync_create(fd, &g2) == 0, "syncobjs");
		CHECK(transfer(fd, sa, t, 5) == 0, "transfer A's fence to point 5");
		CHECK(tl_wait(fd, t, 5, 0, 0) == 0 && tl_wait(fd, t, 3, 0, 0) == 0,
		      "points 3 and 5: A's fence, signalled");
		CHECK(tl_wait(fd, t, 6, 0, 0) == -EINVAL, "point 6: no fence");
		CHECK(tl_wait(fd, t, 6, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 0) == -ETIME,
		      "point 6 with WAIT_FOR_SUBMIT: not yet");
		seq_a2 = submit(&a, &gate2, 1);
		CHECK(kfdsig_userq_signal(fd, a.id, &g2, 1) == 0 && transfer(fd, g2, t, 7) == 0,
		      "A's next fence to point 7");
		CHECK(tl_wait(fd, t, 6, 0, 0) == -ETIME, "point 6 is point 7's, pending");
		CHECK(tl_wait(fd, t, 7, 1u << 2 /* WAIT_AVAILABLE */, 0) == 0, "point 7 available");
		CHECK(userq_wait_point(fd, b.id, t, 5, &ref, &n1) == 0 && n1 == 1 &&
			      ref.value == seq_a,
		      "USERQ_WAIT on point 5: %u fences, value %llu want %llu", n1,
		      (unsigned long long)ref.value, (unsigned long long)seq_a);
		/* point 7 unwraps to points 5 and 7: two fences to make room
		 * for (the count first, as Mesa asks), one per queue back */
		n1 = 0;
		CHECK(userq_wait_point(fd, b.id, t, 7, got, &n1) == 0 && n1 == 2,
		      "USERQ_WAIT count on point 7: %u", n1);
		n1 = 1;
		CHECK(userq_wait_point(fd, b.id, t, 7, got, &n1) == -EINVAL,
		      "USERQ_WAIT on point 7 with room for one");
		n1 = 4;
		CHECK(userq_wait_point(fd, b.id, t, 7, got, &n1) == 0 && n1 == 1 &&
			      got[0].value == seq_a2,
		      "USERQ_WAIT on point 7: %u fences, value %llu want %llu", n1,
		      (unsigned long long)got[0].value, (unsigned long long)seq_a2);
		gt.word = cpu64(&a, OFF_GATE + 8);
		pthread_create(&th, NULL, open_gate, &gt);
		t0 = client_ms();
		r = tl_wait(fd, t, 7, 0, mono_ns(4000));
		CHECK(r == 0 && client_ms() - t0 < 2500,
		      "TIMELINE_WAIT on point 7 woken by A's interrupt: %d after %.0f ms", r,
		      client_ms() - t0);
		pthread_join(th, NULL);
	}
	/* S waits on the GPU for A's fence: an SDMA memory poll on A's seq64
	 * slot, which every VM maps read-only */
	if (sdma) {
		struct kfdsig_userq_fence_ref gate3 = { va(&a, OFF_GATE + 16), 1 }, ref;
		uint32_t ga, gs, n1 = 1;
		uint64_t sq;

		REQUIRE_V(sync_create(fd, &ga) == 0 && sync_create(fd, &gs) == 0, "syncobjs");
		submit(&a, &gate3, 1);
		CHECK(kfdsig_userq_signal(fd, a.id, &ga, 1) == 0, "signal A");
		CHECK(kfdsig_userq_wait(fd, s.id, &ga, 1, &ref, &n1) == 0 && n1 == 1,
		      "USERQ_WAIT for S");
		sq = submit(&s, &ref, 1);
		CHECK(kfdsig_userq_signal(fd, s.id, &gs, 1) == 0, "signal S");
		CHECK(sync_wait(fd, &gs, 1, false, mono_ns(50)) == -ETIME,
		      "S waits for A's fence on the GPU");
		__atomic_store_n(cpu64(&a, OFF_GATE + 16), 1, __ATOMIC_RELEASE);
		CHECK(sync_wait(fd, &gs, 1, false, mono_ns(4000)) == 0 &&
			      *cpu64(&s, OFF_FENCE) == sq,
		      "S ran after A's fence (user fence %llu, want %llu)",
		      (unsigned long long)*cpu64(&s, OFF_FENCE), (unsigned long long)sq);
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
		k = kfdsig_pm4_emit_fence(b.t, &kf, pkt, 32);
		REQUIRE_V(k > 0, "KFD fence: %d", k);
		ring_submit(&b, pkt, (uint32_t)k);
		we.event_id = ev.id;
		CHECK(kfdsig_kfd_wait(kfd, &we, 1, false, 3000, &res) == 0 &&
			      res == KFDSIG_WAIT_COMPLETE,
		      "the KFD event named by a user queue's RELEASE_MEM: result %d", res);
		kfdsig_kfd_event_destroy(kfd, ev.id);
	}

	/* refusals (amdgpu_userq.c, mes_userqueue.c) */
	{
		static const struct refusal {
			const char *what;
			uint32_t ip, db_handle, db_off, flags;
			uint64_t ring_va, ring_size, wptr_off, eop_off, shadow_off, csa_off;
			int err;
		} cases[] = {
			{ "no such doorbell object", 1, 77, 7, 0, 0, 0, 0, 0, 0, 0, EINVAL },
			{ "doorbell past the object", 1, 0, 512, 0, 0, 0, 0, 0, 0, 0, EINVAL },
			{ "ring not mapped", 1, 0, 7, 0, 0x7f0000000000ull, 0, 0, 0, 0, 0, EINVAL },
			{ "wptr page not mapped whole", 1, 0, 7, 0, 0, 0, BUF_BYTES - 8, 0, 0, 0,
			  EINVAL },
			{ "EOP not mapped for 2048 bytes", 1, 0, 7, 0, 0, 0, 0, BUF_BYTES - 1024, 0,
			  0, EINVAL },
			{ "GFX shadow not mapped for 73728 bytes", 0, 0, 7, 0, 0, 0, 0, 0,
			  BUF_BYTES - 65536, 0, EINVAL },
			{ "GFX CSA not mapped for 484 bytes", 0, 0, 7, 0, 0, 0, 0, 0, 0,
			  BUF_BYTES - 256, EINVAL },
			{ "SDMA CSA not mapped for 32 bytes", 2, 0, 7, 0, 0, 0, 0, 0, 0,
			  BUF_BYTES - 16, EINVAL },
			{ "high priority unprivileged", 1, 0, 7, 3, 0, 0, 0, 0, 0, 0, EACCES },
			{ "unknown flag", 1, 0, 7, 1u << 3, 0, 0, 0, 0, 0, 0, EINVAL },
			{ "secure SDMA without TMZ", 2, 0, 7, 1u << 2, 0, 0, 0, 0, 0, 0, EINVAL },
			{ "ring size not a power of 2", 1, 0, 7, 0, 0, 8192 + 4096, 0, 0, 0, 0,
			  EINVAL },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			const struct refusal *rc = &cases[i];
			struct kfdsig_userq_create_args x;
			int want = -rc->err;

			if (rc->ip == KFDSIG_USERQ_IP_SDMA && !sdma)
				continue;
			create_args(&a, rc->ip, rc->db_handle ? rc->db_handle : gc.out.handle,
				    rc->db_off, &x);
			x.flags = rc->flags;
			if (rc->ring_va)
				x.ring_va = rc->ring_va;
			if (rc->ring_size)
				x.ring_size = rc->ring_size;
			if (rc->wptr_off)
				x.wptr_va = va(&a, rc->wptr_off);
			if (rc->eop_off)
				x.eop_va = va(&a, rc->eop_off);
			if (rc->shadow_off)
				x.shadow_va = va(&a, rc->shadow_off);
			if (rc->csa_off)
				x.csa_va = va(&a, rc->csa_off);
			r = kfdsig_userq_create(fd, &x, &id);
			CHECK(r == want, "%s: %d, want %d", rc->what, r, want);
		}
		/* the MQD inputs' size and pointer, through the raw ioctl */
		{
			union {
				struct {
					uint32_t op, queue_id, ip_type, doorbell_handle,
						doorbell_offset, flags;
					uint64_t queue_va, queue_size, rptr_va, wptr_va, mqd,
						mqd_size;
				} in;
				uint32_t out[2];
			} u;
			uint64_t mqd[2] = { va(&a, OFF_SHADOW), va(&a, OFF_CSA) };
			unsigned long req = _IOWR('d', 0x40 + 0x16, u);

			memset(&u, 0, sizeof(u));
			u.in.op = 1;
			u.in.ip_type = KFDSIG_USERQ_IP_GFX;
			u.in.doorbell_handle = gc.out.handle;
			u.in.doorbell_offset = 7;
			u.in.queue_va = va(&a, 0);
			u.in.queue_size = RING_BYTES;
			u.in.rptr_va = va(&a, OFF_RPTR);
			u.in.wptr_va = va(&a, OFF_WPTR);
			u.in.mqd_size = sizeof(mqd);
			CHECK(xioctl(fd, req, &u) == -EINVAL, "GFX MQD inputs missing");
			u.in.mqd = (uintptr_t)mqd;
			u.in.mqd_size = 8;
			CHECK(xioctl(fd, req, &u) == -EINVAL, "GFX MQD inputs of the wrong size");
			u.in.mqd_size = sizeof(mqd);
			u.in.mqd = 8; /* a pointer that faults: memdup_user, -ENOMEM */
			CHECK(xioctl(fd, req, &u) == -ENOMEM, "GFX MQD inputs unreadable");
		}
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
	CHECK(!sdma || kfdsig_userq_free(fd, s.id) == 0, "free S");
	CHECK(kfdsig_kfd_free(kfd, a.bo) == 0 && kfdsig_kfd_free(kfd, b.bo) == 0,
	      "the buffers once the queues are gone: %s", kfdsig_last_error());
	CHECK(kfdsig_userq_free(fd, a.id) == -ENOENT, "free again");
}

/* Each queue stops; the hang detection resets it after the lockup
 * timeout (run-client.sh's spec: lockup_timeout=300) and completes its
 * fence: the syncobjs signal, the user fences stay unwritten, the
 * kernel's slot holds the sequence number (a new queue waits for it on the
 * GPU and runs its trailer). */
static void reset_flow(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_device *dev,
		       const struct device_case *dc)
{
	bool sdma = dc->mask & 1u << KFDSIG_USERQ_IP_SDMA;
	struct q a, b, s, e;
	volatile uint64_t *db;
	uint32_t db_handle;
	uint64_t slot_va;
	double t0;
	int fd, r;

	REQUIRE_V(open_dev(kfd, dev, dc, &fd, &db_handle, &db) == 0, "%s", dev->name);
	REQUIRE_V(make_queue(kfd, dev, fd, KFDSIG_USERQ_IP_GFX, db_handle, db, 0, &a) == 0 &&
			  make_queue(kfd, dev, fd, KFDSIG_USERQ_IP_COMPUTE, db_handle, db, 1, &b) ==
				  0 &&
			  (!sdma || make_queue(kfd, dev, fd, KFDSIG_USERQ_IP_SDMA, db_handle, db, 2,
					       &s) == 0),
		  "queues: %s", kfdsig_last_error());
	/* B's own fence slot (USERQ_WAIT of a fence B signals) */
	{
		struct kfdsig_userq_fence_ref ref;
		uint32_t h, n = 1;

		REQUIRE_V(sync_create(fd, &h) == 0 && kfdsig_userq_signal(fd, b.id, &h, 1) == 0 &&
				  kfdsig_userq_wait(fd, a.id, &h, 1, &ref, &n) == 0,
			  "B's slot");
		slot_va = ref.va;
	}
	{
		struct stop_case st[3] = {
			/* shader state on the graphics pipe (SET_SH_REG,
			 * which a compute queue takes): the emulator runs no
			 * graphics work */
			{ "SET_SH_REG on the GFX queue", &a, { 0xc0017600u, 0x20c, 0 }, 3 },
			/* a write to its own fence slot: a VM fault */
			{ "a write to the seq64 slot",
			  &b,
			  { 0xc0043700u, 5u << 8 | 1u << 20, (uint32_t)slot_va,
			    (uint32_t)(slot_va >> 32), 0x7fffffffu, 0x7fffffffu },
			  6 },
			/* an SDMA opcode the engine does not know */
			{ "an unknown SDMA opcode", &s, { 0xf2u }, 1 },
		};
		uint32_t h[3], ns = sdma ? 3 : 2;
		uint64_t seq[3], before[3];
		struct kfdsig_userq_fence_ref ref;
		uint32_t one = 1, n = 1;

		for (uint32_t i = 0; i < ns; i++) {
			REQUIRE_V(sync_create(fd, &h[i]) == 0, "syncobj");
			before[i] = *cpu64(st[i].q, OFF_FENCE);
			ring_submit(st[i].q, st[i].dw, st[i].n);
			seq[i] = submit(st[i].q, NULL, 0);
			CHECK(kfdsig_userq_signal(fd, st[i].q->id, &h[i], 1) == 0, "signal: %s",
			      st[i].what);
		}
		CHECK(sync_wait(fd, h, ns, false, mono_ns(LOCKUP_MS / 2)) == -ETIME,
		      "stopped queues: no fence before the lockup timeout");
		t0 = client_ms();
		r = sync_wait(fd, h, ns, true, mono_ns(4 * LOCKUP_MS));
		CHECK(r == 0, "the reset completed the stopped queues' fences: %d after %.0f ms", r,
		      client_ms() - t0);
		for (uint32_t i = 0; i < ns; i++) {
			CHECK(*cpu64(st[i].q, OFF_FENCE) == before[i],
			      "%s: the trailer did not run (user fence %llu)", st[i].what,
			      (unsigned long long)*cpu64(st[i].q, OFF_FENCE));
			r = fence_status(fd, h[i]);
			CHECK(r == -ECANCELED, "%s: the fence's error %d, want -ECANCELED",
			      st[i].what, r);
		}
		/* E: a new compute queue waits on the GPU for A's reset fence */
		REQUIRE_V(make_queue(kfd, dev, fd, KFDSIG_USERQ_IP_COMPUTE, db_handle, db, 3, &e) ==
				  0,
			  "queue E: %s", kfdsig_last_error());
		CHECK(kfdsig_userq_wait(fd, e.id, &h[0], 1, &ref, &n) == 0 && n == 1 &&
			      ref.value == seq[0],
		      "USERQ_WAIT on the reset fence: %u, value %llu want %llu", n,
		      (unsigned long long)ref.value, (unsigned long long)seq[0]);
		submit(&e, &ref, 1);
		REQUIRE_V(sync_create(fd, &one) == 0, "syncobj");
		CHECK(kfdsig_userq_signal(fd, e.id, &one, 1) == 0, "signal E");
		CHECK(sync_wait(fd, &one, 1, false, mono_ns(2000)) == 0 &&
			      *cpu64(&e, OFF_FENCE) == e.wptr,
		      "the reset wrote the slot: a GPU wait on it passes (E's user fence %llu)",
		      (unsigned long long)*cpu64(&e, OFF_FENCE));
		r = fence_status(fd, one);
		CHECK(r == 1, "E's fence signalled without error: %d", r);
		/* the interrupt cancelled E's hang detection: past the lockup
		 * timeout E still runs what comes next */
		usleep((LOCKUP_MS + 100) * 1000);
		{
			uint64_t se = submit(&e, NULL, 0);

			CHECK(kfdsig_userq_signal(fd, e.id, &one, 1) == 0 &&
				      sync_wait(fd, &one, 1, false, mono_ns(2000)) == 0 &&
				      *cpu64(&e, OFF_FENCE) == se && fence_status(fd, one) == 1,
			      "E, idle past the lockup timeout, was not reset (user fence %llu, "
			      "want %llu)",
			      (unsigned long long)*cpu64(&e, OFF_FENCE), (unsigned long long)se);
		}
		CHECK(kfdsig_userq_free(fd, e.id) == 0, "free E");
		kfdsig_kfd_free(kfd, e.bo);
	}

	CHECK(kfdsig_userq_free(fd, a.id) == 0 && kfdsig_userq_free(fd, b.id) == 0 &&
		      (!sdma || kfdsig_userq_free(fd, s.id) == 0),
	      "free the reset queues");
	kfdsig_kfd_free(kfd, a.bo);
	kfdsig_kfd_free(kfd, b.bo);
	if (sdma)
		kfdsig_kfd_free(kfd, s.bo);
}

/* user_queue=0 (kernel queues only) and 2 (user queues only) on GC 11.0.0:
 * no user-queue ioctl works in 0 (-ENOTSUPP); in 2 they do and the
 * kernel's GFX, compute and SDMA rings take no submission (HW_IP_INFO
 * counts none). */
static int modes(const char *mode)
{
	struct kfdsig_kfd *kfd = NULL;
	const struct kfdsig_kfd_device *dev;
	uint32_t mask = 7, id, h = 0;
	bool off = !strcmp(mode, "mode0");
	int fd;

	REQUIRE(kfdsig_kfd_open(NULL, &kfd) == 0, "open KFD: %s", kfdsig_last_error());
	dev = kfdsig_kfd_device(kfd, 0);
	REQUIRE(kfdsig_kfd_acquire_vm(kfd, dev->gpu_id) == 0, "vm");
	fd = kfdsig_kfd_render_fd(kfd, dev->gpu_id);
	CHECK(kfdsig_userq_probe(fd, &mask) == 0 && mask == (off ? 0u : 7u), "%s: mask 0x%x", mode,
	      mask);
	for (uint32_t ip = 0; ip < 3; ip++) {
		struct drm_amdgpu_info_hw_ip info = { 0 };
		struct drm_amdgpu_info rq = { 0 };

		rq.return_pointer = (uintptr_t)&info;
		rq.return_size = sizeof(info);
		rq.query = AMDGPU_INFO_HW_IP_INFO;
		rq.query_hw_ip.type = ip;
		CHECK(xioctl(fd, DRM_IOCTL_AMDGPU_INFO, &rq) == 0 &&
			      (info.available_rings != 0) == off,
		      "%s: engine %u kernel rings 0x%x", mode, ip, info.available_rings);
	}
	if (off) {
		KFDSIG_OPTS(kfdsig_userq_create_args, x, .ip = KFDSIG_USERQ_IP_COMPUTE,
			    .ring_va = 0x100000, .ring_size = RING_BYTES, .rptr_va = 0x200000,
			    .wptr_va = 0x201000, .eop_va = 0x300000);
		struct kfdsig_userq_fence_ref ref;
		uint32_t n = 1;

		CHECK(kfdsig_userq_create(fd, &x, &id) == -ENOTSUPP_, "user_queue=0: create");
		CHECK(sync_create(fd, &h) == 0, "syncobj");
		CHECK(kfdsig_userq_signal(fd, 1, &h, 1) == -ENOTSUPP_, "user_queue=0: signal");
		CHECK(kfdsig_userq_wait(fd, 1, &h, 1, &ref, &n) == -ENOTSUPP_,
		      "user_queue=0: wait");
	}
	kfdsig_kfd_close(kfd);
	return client_done(mode);
}

int main(int argc, char **argv)
{
	struct kfdsig_kfd *kfd = NULL;
	uint32_t mask = 7, id;
	int fd;

	if (argc > 1 && strcmp(argv[1], "reset"))
		return modes(argv[1]);
	REQUIRE(kfdsig_kfd_open(NULL, &kfd) == 0, "open KFD: %s", kfdsig_last_error());
	REQUIRE(kfdsig_kfd_device_count(kfd) == 3, "three GPUs");
	/* the second GPU after a failure on the first would only wait out
	 * the same bounds */
	for (size_t i = 0; i < 2 && !client_failures; i++)
		(argc > 1 ? reset_flow : flow)(kfd, kfdsig_kfd_device(kfd, i), &devices[i]);
	if (argc > 1) {
		kfdsig_kfd_close(kfd);
		return client_done("userq_emu reset");
	}
	/* a target without user queues: nothing advertised, -ENOTSUPP (524) */
	REQUIRE(kfdsig_kfd_acquire_vm(kfd, kfdsig_kfd_device(kfd, 2)->gpu_id) == 0, "vm 2");
	fd = kfdsig_kfd_render_fd(kfd, kfdsig_kfd_device(kfd, 2)->gpu_id);
	CHECK(kfdsig_userq_probe(fd, &mask) == 0 && mask == 0, "no engine: mask 0x%x", mask);
	{
		KFDSIG_OPTS(kfdsig_userq_create_args, x, .ip = KFDSIG_USERQ_IP_COMPUTE,
			    .ring_va = 0x100000, .ring_size = RING_BYTES, .rptr_va = 0x200000,
			    .wptr_va = 0x201000, .eop_va = 0x300000);
		CHECK(kfdsig_userq_create(fd, &x, &id) == -ENOTSUPP_, "no user queues: ENOTSUPP");
	}
	kfdsig_kfd_close(kfd);
	return client_done("userq_emu");
}
