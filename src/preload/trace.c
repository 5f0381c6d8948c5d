/* SPDX-License-Identifier: MIT */
/*
 * The in-process recorder of `kfdsig trace`: with KFDSIG_TRACE_FD set,
 * every KFD ioctl the interposer forwards (to the emulated KFD, or to the
 * real one through kfdsig_kfd_linux_ops()) becomes a record of
 * src/proto/trace.h written to that fd; WAIT_EVENTS records carry the ids
 * and ages passed and returned and what the signal page's slots read after
 * the call; mappings of the KFD's fds are recorded too, and on the
 * emulated KFD each interrupt its handler took (kfdsig_emu_irq_trace(),
 * the trace `kfdsig signal -v` prints). The detectors (trace_detect.c)
 * see the same calls and their findings are records too.
 *
 * A WAIT_EVENTS that may block is written twice: a KFDSIG_TR_WAIT_BEGIN
 * record when it starts and its KFDSIG_TR_WAIT record when it returns. A
 * watchdog thread (started by the first such call) looks at the calls in
 * flight every quarter of the bound KFDSIG_TRACE_BOUND_MS names: their
 * events' slots in the signal page, the interrupts the emulated handler
 * took, whether the events and the process's queues still exist. It
 * writes a KFDSIG_TR_INFLIGHT record when what it knows of a call older
 * than half the bound changes, and the lost-wait finding when a waited
 * event's slot has read written for half the bound: the KFD's interrupt
 * path acknowledges a slot as it sets the event (kfd_events.c
 * set_event_from_interrupt() -> acknowledge_signal()), so a slot that
 * stays written under a sleeping waiter is a signal no interrupt
 * delivered. A finding thus comes within 3/4 of the bound.
 *
 * On the render node the user-queue ioctls (DRM_AMDGPU_USERQ, USERQ_SIGNAL,
 * USERQ_WAIT) and the syncobj ioctls (SYNCOBJ_CREATE, DESTROY, WAIT,
 * TIMELINE_WAIT, QUERY) become KFDSIG_TR_DRM records; other render-node
 * calls are not recorded. A syncobj wait that may block is watched by the
 * same thread: each look repeats the call with timeout 0 (the kernel then
 * tests each fence as dma_fence_is_signaled() does: a user-queue fence
 * is signalled once its queue's seq64 slot has reached its sequence
 * number, amdgpu_userq_fence_signaled()). When the wait's condition holds
 * while the waiter still sleeps for half the bound, its fences passed and
 * no interrupt woke it: the lost-fence finding. On a real kernel that look
 * also signals the fences (dma_fence_is_signaled() signals a fence its
 * ->signaled() finds done), which wakes the waiter: there the finding is
 * made at the first look that finds the condition held under a waiter
 * asleep for half the bound, class "probed" (the tracer ended the wait).
 *
 * The signal page is found the way the KFD finds it: CREATE_EVENT's
 * event_page_offset names the client's buffer by its memory handle
 * (ALLOC_MEMORY_OF_GPU answered its mmap offset, or it is a userptr), or
 * the KFD's own page, which the client maps at KFDSIG_MMAP_TYPE_EVENTS.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <kfdsig/emu.h>
#include <kfdsig/kfd.h>

#include <libdrm/drm.h>

#include "abi/kfd_ioctl.h"
#include "drm/amdgpu_userq_abi.h"
#include "preload/preload_priv.h"
#include "preload/trace_detect.h"
#include "proto/trace.h"

#define SLOTS (KFDSIG_SIGNAL_PAGE_SIZE / 8)
#define IRQ_BATCH 16
#define INFLIGHT_MAX 64
#define BOUND_DEFAULT_MS 1000

static int trace_fd = -1;
static enum preload_trace_mode mode;
static const struct preload_host *host;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t pid;
static __thread pid_t tid;
static bool started;	 /* this process wrote its START record */
static uint64_t irq_seq; /* the last emulated interrupt recorded */

/* The signal page and what finds it (under lock). */
static enum kfdsig_trace_page page_kind;
static uint64_t page_handle; /* KFDSIG_PAGE_USER: its memory handle */
static volatile const uint64_t *page_cpu;

struct alloc {
	uint64_t handle, mmap_offset, cpu; /* cpu: a userptr's address, else 0 */
};
struct mapping {
	uint64_t offset, addr;
};
static struct alloc *allocs;
static size_t nalloc, cap_alloc;
static struct mapping *maps;
static size_t nmap, cap_map;

/* The WAIT_EVENTS calls in flight and what the watchdog knows of them
 * (under lock). */
struct inflight {
	bool used, lost_reported, dead_reported, sent;
	pid_t tid;
	uint64_t begin;
	uint32_t n, wait_all, timeout;
	uint32_t ids[KFDSIG_TRACE_WAIT_IDS];
	uint64_t set_since[KFDSIG_TRACE_WAIT_IDS]; /* the slot first read written; 0: clear */
	uint64_t irq_seq_begin;			   /* the last interrupt when it began */
	uint32_t irq_named;			   /* bit i: an interrupt set event i since */
	struct kfdsig_trace_inflight last;	   /* the state last written */
};
static struct inflight infl[INFLIGHT_MAX];

/* The syncobj waits in flight (under lock): the call, repeated with
 * timeout 0 by the watchdog. */
struct sync_wait {
	bool used, reported;
	pid_t tid;
	int fd;
	const struct kfdsig_kfd_ops *ops;
	unsigned long req;
	uint64_t begin, done_since;	    /* done_since: the condition first found held */
	struct drm_syncobj_timeline_wait a; /* SYNCOBJ_WAIT's fields are its first ones */
	uint32_t handles[KFDSIG_TRACE_DRM_HANDLES];
	uint64_t points[KFDSIG_TRACE_DRM_HANDLES];
};
static struct sync_wait swaits[INFLIGHT_MAX];

/* The user queues (their wptr, to read a fence's sequence number) and the
 * fence USERQ_SIGNAL last attached to each syncobj (under lock). */
#define USERQ_MAX 64
static struct {
	uint32_t id;
	uint64_t wptr_va;
} uqs[USERQ_MAX];
static struct {
	uint32_t handle, queue_id;
	uint64_t seq;
} sfences[256];
static uint64_t bound_ns = BOUND_DEFAULT_MS * 1000000ull;
static bool watchdog_on;
static uint64_t queues_gone; /* when the last live queue was destroyed; 0: one lives */
/* The last interrupt the emulated handler took. */
static struct {
	uint64_t seq;
	uint32_t id, path, drop;
} last_irq;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void put_as(struct kfdsig_trace_rec *r, pid_t as)
{
	ssize_t w;

	r->magic = KFDSIG_TRACE_MAGIC;
	r->pid = pid;
	r->tid = as;
	do
		w = syscall(SYS_write, trace_fd, r, sizeof(*r));
	while (w < 0 && errno == EINTR);
}

static void put(struct kfdsig_trace_rec *r)
{
	if (!tid)
		tid = (pid_t)syscall(SYS_gettid);
	put_as(r, tid);
}

static void start_locked(void)
{
	struct kfdsig_trace_rec r = { .kind = KFDSIG_TR_START, .t_ns = now_ns() };
	const char *name = program_invocation_short_name;

	if (started)
		return;
	started = true;
	snprintf(r.u.start.comm, sizeof(r.u.start.comm), "%s", name ? name : "?");
	r.u.start.ppid = getppid();
	r.u.start.emulated = mode == PRELOAD_TRACE_EMULATED;
	put(&r);
}

static void put_findings(const struct kfdsig_trace_finding *f, int n)
{
	for (int i = 0; i < n; i++) {
		struct kfdsig_trace_rec r = { .kind = KFDSIG_TR_FINDING, .t_ns = now_ns() };
		r.u.find = f[i];
		put(&r);
	}
}

/* Record the emulated interrupts taken since the last look (lock held). */
static void irqs_locked(void)
{
	struct kfdsig_emu_irq_record buf[IRQ_BATCH];
	struct kfdsig_emu *emu;
	int n;

	if (mode != PRELOAD_TRACE_EMULATED)
		return;
	emu = host->emu();
	if (!emu)
		return;
	/* the newest first: most calls find nothing new */
	if (kfdsig_emu_irq_trace(emu, 0, buf, 1) != 1 || buf[0].seq <= irq_seq)
		return;
	n = kfdsig_emu_irq_trace(emu, 0, buf, IRQ_BATCH);
	for (int i = 0; i < n; i++) {
		const struct kfdsig_emu_irq_record *e = &buf[i];
		struct kfdsig_trace_rec r = { .kind = KFDSIG_TR_IRQ, .t_ns = now_ns() };
		struct kfdsig_trace_finding f;

		if (e->seq <= irq_seq)
			continue;
		irq_seq = e->seq;
		r.u.irq = (struct kfdsig_trace_irq){
			.seq = e->seq,
			.gpu_id = e->gpu_id,
			.source = e->source,
			.client_id = e->client_id,
			.source_id = e->source_id,
			.ring_id = e->ring_id,
			.node_id = e->node_id,
			.vmid = e->vmid,
			.context_id0 = e->context_id0,
			.context_id1 = e->context_id1,
			.id = e->id,
			.valid_bits = e->valid_bits,
			.path = e->path,
			.drop = e->drop,
			.nsignaled = e->nsignaled,
		};
		memcpy(r.u.irq.events, e->events, sizeof(r.u.irq.events));
		put(&r);
		last_irq.seq = e->seq;
		last_irq.id = e->id;
		last_irq.path = e->path;
		last_irq.drop = e->drop;
		for (int k = 0; k < INFLIGHT_MAX; k++)
			for (uint32_t j = 0; infl[k].used && j < infl[k].n; j++)
				for (uint32_t m = 0; m < e->nsignaled && m < 4; m++)
					if (infl[k].ids[j] == e->events[m])
						infl[k].irq_named |= 1u << j;
		if (det_irq(&r.u.irq, &f))
			put_findings(&f, 1);
	}
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t c;
	void *q;

	if (n < *cap)
		return p;
	c = *cap ? 2 * *cap : 32;
	q = realloc(p, c * size);
	if (q)
		*cap = c;
	return q;
}

/* Find the signal page's address from what is known (lock held). */
static void resolve_page_locked(void)
{
	if (page_cpu || page_kind != KFDSIG_PAGE_USER)
		return;
	for (size_t i = 0; i < nalloc; i++) {
		if (allocs[i].handle != page_handle)
			continue;
		if (allocs[i].cpu) {
			page_cpu = (const uint64_t *)(uintptr_t)allocs[i].cpu;
			return;
		}
		for (size_t j = nmap; j-- > 0;)
			if (maps[j].offset == allocs[i].mmap_offset) {
				page_cpu = (const uint64_t *)(uintptr_t)maps[j].addr;
				return;
			}
	}
}

void preload_trace_mmap(int fd, uint64_t offset, void *addr, size_t len)
{
	struct kfdsig_trace_rec r = { .kind = KFDSIG_TR_MAP };
	struct mapping *m;

	(void)fd;
	pthread_mutex_lock(&lock);
	r.t_ns = now_ns();
	start_locked();
	m = grow(maps, &cap_map, nmap, sizeof(*maps));
	if (m) {
		maps = m;
		maps[nmap++] = (struct mapping){ offset, (uint64_t)(uintptr_t)addr };
	}
	if (!page_cpu && page_kind == KFDSIG_PAGE_KERNEL &&
	    (offset & KFDSIG_MMAP_TYPE_MASK) == KFDSIG_MMAP_TYPE_EVENTS)
		page_cpu = addr;
	resolve_page_locked();
	r.u.map = (struct kfdsig_trace_map){ .offset = offset,
					     .addr = (uint64_t)(uintptr_t)addr,
					     .len = len,
					     .page = page_cpu == addr ? page_kind : 0 };
	put(&r);
	pthread_mutex_unlock(&lock);
}

/* The slots of the events a timed-out wait names (lock held). Read with
 * process_vm_readv(): the client may have unmapped the page, which must
 * not fault here. */
static void read_slots(struct kfdsig_trace_wait *w, uint32_t n)
{
	struct iovec local[KFDSIG_TRACE_WAIT_IDS], remote[KFDSIG_TRACE_WAIT_IDS];
	uint64_t v[KFDSIG_TRACE_WAIT_IDS];
	uint32_t idx[KFDSIG_TRACE_WAIT_IDS], k = 0;

	if (!page_cpu)
		return;
	for (uint32_t i = 0; i < n; i++) {
		if (w->ids[i] >= SLOTS)
			continue;
		local[k] = (struct iovec){ &v[k], sizeof(v[k]) };
		remote[k] = (struct iovec){ (void *)(page_cpu + w->ids[i]), sizeof(v[k]) };
		idx[k++] = i;
	}
	if (!k || process_vm_readv(pid, local, k, remote, k, 0) != (ssize_t)(k * sizeof(v[0])))
		return;
	for (uint32_t j = 0; j < k; j++) {
		w->slot_known |= 1u << idx[j];
		if (v[j] != KFDSIG_UNSIGNALED_SLOT)
			w->slot_set |= 1u << idx[j];
	}
}

/* Pages this thread found readable: a client passes its arguments from
 * the same few places (its stack, a buffer it keeps), so the syscall that
 * checks is made once per place. */
#define OK_PAGES 4
static __thread uintptr_t ok_page[OK_PAGES];
static __thread unsigned ok_next;

static bool page_ok(uintptr_t page)
{
	/* page 0 is never mapped (and is what an empty entry holds) */
	for (unsigned i = 0; page && i < OK_PAGES; i++)
		if (ok_page[i] == page)
			return true;
	return false;
}

/* Can the @n bytes at @d be read? Its first and last bytes, without
 * faulting: a bad pointer is the KFD's to refuse (EFAULT). */
static bool readable(const void *d, size_t n)
{
	uintptr_t first = (uintptr_t)d & ~(uintptr_t)4095, last;
	char b[2];
	struct iovec local[2] = { { &b[0], 1 }, { &b[1], 1 } };
	struct iovec remote[2] = { { (void *)d, 1 }, { (char *)d + n - 1, 1 } };

	if (!d || !n)
		return false;
	last = ((uintptr_t)d + n - 1) & ~(uintptr_t)4095;
	if (page_ok(first) && page_ok(last))
		return true;
	if (process_vm_readv(pid, local, 2, remote, 2, 0) != 2)
		return false;
	ok_page[ok_next++ % OK_PAGES] = first;
	if (last != first)
		ok_page[ok_next++ % OK_PAGES] = last;
	return true;
}

/* Read the slots of @n events @ids into @v; bit i of the answer: slot i
 * was read (lock held). process_vm_readv(): the client may have unmapped
 * the page, which must not fault here. */
static uint32_t read_slot_values(const uint32_t *ids, uint32_t n, uint64_t *v)
{
	struct iovec local[KFDSIG_TRACE_WAIT_IDS], remote[KFDSIG_TRACE_WAIT_IDS];
	uint32_t idx[KFDSIG_TRACE_WAIT_IDS], k = 0, known = 0;
	uint64_t buf[KFDSIG_TRACE_WAIT_IDS];

	if (!page_cpu)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		if (ids[i] >= SLOTS)
			continue;
		local[k] = (struct iovec){ &buf[k], sizeof(buf[k]) };
		remote[k] = (struct iovec){ (void *)(page_cpu + ids[i]), sizeof(buf[k]) };
		idx[k++] = i;
	}
	if (!k || process_vm_readv(pid, local, k, remote, k, 0) != (ssize_t)(k * sizeof(buf[0])))
		return 0;
	for (uint32_t j = 0; j < k; j++) {
		known |= 1u << idx[j];
		v[idx[j]] = buf[j];
	}
	return known;
}

/* What is known now of the call in flight @w (lock held). */
static void inflight_state(struct inflight *w, uint64_t now, struct kfdsig_trace_inflight *s)
{
	memset(s, 0, sizeof(*s));
	s->begin_ns = w->begin;
	s->n_events = w->n;
	s->wait_all = w->wait_all;
	s->timeout_ms = w->timeout;
	s->emulated = mode == PRELOAD_TRACE_EMULATED;
	memcpy(s->ids, w->ids, sizeof(s->ids));
	s->slot_known = read_slot_values(w->ids, w->n, s->slot_val);
	for (uint32_t i = 0; i < w->n; i++) {
		bool set = ((s->slot_known >> i) & 1) && s->slot_val[i] != KFDSIG_UNSIGNALED_SLOT;
		if (set)
			s->slot_set |= 1u << i;
		if (!set)
			w->set_since[i] = 0;
		else if (!w->set_since[i])
			w->set_since[i] = now;
		if (!det_event_live(w->ids[i]))
			s->dead |= 1u << i;
	}
	s->irq_named = w->irq_named;
	s->irq_seq = last_irq.seq;
	s->irq_id = last_irq.id;
	s->irq_path = last_irq.path;
	s->irq_drop = last_irq.drop;
	s->live_queues = det_live_queues();
}

/* The lost-wait and dead-wait detectors on @w (lock held). */
static void inflight_check(struct inflight *w, uint64_t now, bool force)
{
	struct kfdsig_trace_inflight s;
	struct kfdsig_trace_rec r = { .kind = KFDSIG_TR_INFLIGHT };
	uint64_t half = bound_ns / 2, gone;

	inflight_state(w, now, &s);
	for (uint32_t i = 0; i < w->n && !w->lost_reported; i++) {
		struct kfdsig_trace_finding f;

		if (!w->set_since[i] || now - w->set_since[i] < half)
			continue;
		w->lost_reported = true;
		f = (struct kfdsig_trace_finding){
			.detector = KFDSIG_DET_LOST_WAIT,
			.event_id = w->ids[i],
			.slot = s.slot_val[i],
			.waiter_tid = w->tid,
			.wait_ns = now - w->begin,
			.cls = KFDSIG_CLASS_NO_IRQ,
		};
		/* an interrupt came since the call began and named another id */
		if (last_irq.seq > w->irq_seq_begin && !((w->irq_named >> i) & 1)) {
			f.cls = KFDSIG_CLASS_OTHER_ID;
			f.irq_id = last_irq.id;
			f.irq_path = last_irq.path;
		}
		put_findings(&f, 1);
		force = true;
	}
	/* the GPU can signal nothing once every queue is gone; a timeout
	 * shorter than the bound ends the call by itself */
	gone = queues_gone;
	if (!w->dead_reported && !s.slot_set && gone && !s.live_queues && now - gone >= bound_ns &&
	    now - w->begin >= bound_ns && (uint64_t)w->timeout * 1000000ull > bound_ns) {
		struct kfdsig_trace_finding f = {
			.detector = KFDSIG_DET_DEAD_WAIT,
			.event_id = w->ids[0],
			.waiter_tid = w->tid,
			.wait_ns = now - w->begin,
			.cls = KFDSIG_CLASS_NO_QUEUE,
		};
		w->dead_reported = true;
		put_findings(&f, 1);
		force = true;
	}
	/* what is known, when it changed, of a call older than half the bound */
	if (!force && now - w->begin < half)
		return;
	s.begin_ns = w->begin;
	if (!force && w->sent && !memcmp(&s, &w->last, sizeof(s)))
		return;
	w->last = s;
	w->sent = true;
	r.t_ns = now_ns();
	r.u.inflight = s;
	put_as(&r, w->tid);
}

static void sync_check(struct sync_wait *w, uint64_t now);

static void *watchdog(void *arg)
{
	uint64_t period = bound_ns / 4;
	struct timespec ts = { (time_t)(period / 1000000000ull), (long)(period % 1000000000ull) };

	(void)arg;
	host->enter(); /* the libc calls of this thread are the recorder's own */
	for (;;) {
		uint64_t now;

		nanosleep(&ts, NULL);
		pthread_mutex_lock(&lock);
		irqs_locked();
		now = now_ns();
		for (int i = 0; i < INFLIGHT_MAX; i++)
			if (infl[i].used)
				inflight_check(&infl[i], now, false);
		for (int i = 0; i < INFLIGHT_MAX; i++)
			if (swaits[i].used)
				sync_check(&swaits[i], now);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

/* The first call that may block starts the watchdog (lock held). */
static void watchdog_start_locked(void)
{
	pthread_attr_t a;
	pthread_t th;
	sigset_t all, old;

	if (watchdog_on)
		return;
	watchdog_on = true;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	/* the program's signals are for its own threads */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&th, &a, watchdog, NULL))
		watchdog_on = false;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&a);
}

static struct inflight *inflight_add_locked(const struct kfdsig_trace_rec *r)
{
	const struct kfdsig_trace_wait *w = &r->u.wait;

	for (int i = 0; i < INFLIGHT_MAX; i++) {
		struct inflight *f = &infl[i];
		if (f->used)
			continue;
		*f = (struct inflight){
			.used = true,
			.tid = r->tid,
			.begin = r->t_ns,
			.n = w->n_events < KFDSIG_TRACE_WAIT_IDS ? w->n_events
								 : KFDSIG_TRACE_WAIT_IDS,
			.wait_all = w->wait_all,
			.timeout = w->timeout_ms,
			.irq_seq_begin = last_irq.seq,
		};
		memcpy(f->ids, w->ids, sizeof(f->ids));
		return f;
	}
	return NULL; /* more threads waiting than the table holds: not watched */
}

static int wait_events(const struct kfdsig_kfd_ops *ops, int fd, unsigned long req,
		       struct kfd_ioctl_wait_events_args *a, struct kfdsig_trace_rec *r)
{
	abi_event_data *d = (abi_event_data *)(uintptr_t)a->events_ptr;
	struct kfdsig_trace_wait *w = &r->u.wait;
	struct kfdsig_trace_finding f[DET_MAX_FINDINGS];
	uint32_t n = a->num_events < KFDSIG_TRACE_WAIT_IDS ? a->num_events : KFDSIG_TRACE_WAIT_IDS;
	struct inflight *fl = NULL;
	int ret, nf;

	if (!readable(d, (size_t)a->num_events * sizeof(*d)))
		d = NULL;
	w->n_events = a->num_events;
	w->wait_all = a->wait_for_all;
	w->timeout_ms = a->timeout;
	for (uint32_t i = 0; d && i < n; i++) {
		w->ids[i] = d[i].event_id;
		w->age_in[i] = d[i].signal_event_data.last_event_age;
	}
	pthread_mutex_lock(&lock);
	if (d)
		det_wait_begin(d, a->num_events);
	r->t_ns = now_ns();
	if (a->timeout) { /* it may block: in flight from now */
		struct kfdsig_trace_rec b = *r;
		b.kind = KFDSIG_TR_WAIT_BEGIN;
		put(&b);
		r->tid = b.tid;
		fl = inflight_add_locked(r);
		watchdog_start_locked();
	}
	pthread_mutex_unlock(&lock);

	ret = ops->ioctl(ops->ctx, fd, req, a);

	pthread_mutex_lock(&lock);
	/* what it woke to first; stamped under the lock, the records are
	 * written in the order of their times */
	irqs_locked();
	r->dur_ns = now_ns() - r->t_ns;
	if (fl)
		fl->used = false;
	r->ret = ret < 0 ? ret : 0;
	w->wait_result = a->wait_result;
	if (ret >= 0 && a->wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT)
		read_slots(w, n);
	for (uint32_t i = 0; d && i < n; i++) {
		int type = det_event_type(w->ids[i]);
		/* the age shares its place with the exception data */
		if (type == KFD_IOC_EVENT_SIGNAL || type < 0)
			w->age_out[i] = d[i].signal_event_data.last_event_age;
		else
			w->age_in[i] = 0;
	}
	nf = ret < 0 || !d ? 0 : det_wait_end(w, d, f);
	put(r);
	put_findings(f, nf);
	pthread_mutex_unlock(&lock);
	return ret;
}

/* DESTROY_EVENT: the calls in flight on the event when it began. */
#define DOOMED_MAX 8
struct doomed {
	pid_t tid;
	uint64_t begin;
};
static __thread struct doomed doomed[DOOMED_MAX];
static __thread int n_doomed;

/* Before the call: what the ioctl passes in; *@before: what args_out()
 * needs of before (ALLOC_MEMORY_OF_GPU: a userptr's address, SET_EVENT:
 * det_set_begin()). */
static void args_in(unsigned nr, void *arg, struct kfdsig_trace_rec *r, uint64_t *before)
{
	struct kfdsig_trace_ioctl *io = &r->u.io;

	switch (nr) {
	case _IOC_NR(AMDKFD_IOC_CREATE_EVENT): {
		struct kfd_ioctl_create_event_args *a = arg;
		io->event_type = a->event_type;
		io->auto_reset = a->auto_reset;
		io->page_offset = a->event_page_offset;
		break;
	}
	case _IOC_NR(AMDKFD_IOC_DESTROY_EVENT):
		io->event_id = ((struct kfd_ioctl_destroy_event_args *)arg)->event_id;
		/* the threads waiting on it now: the call wakes them */
		pthread_mutex_lock(&lock);
		n_doomed = 0;
		for (int i = 0; i < INFLIGHT_MAX; i++)
			for (uint32_t j = 0; infl[i].used && j < infl[i].n; j++) {
				if (infl[i].ids[j] != io->event_id || infl[i].dead_reported ||
				    n_doomed == DOOMED_MAX)
					continue;
				infl[i].dead_reported = true;
				doomed[n_doomed++] = (struct doomed){ infl[i].tid, infl[i].begin };
			}
		pthread_mutex_unlock(&lock);
		break;
	case _IOC_NR(AMDKFD_IOC_SET_EVENT):
		io->event_id = ((struct kfd_ioctl_set_event_args *)arg)->event_id;
		pthread_mutex_lock(&lock);
		*before = det_set_begin(io->event_id);
		pthread_mutex_unlock(&lock);
		break;
	case _IOC_NR(AMDKFD_IOC_RESET_EVENT):
		io->event_id = ((struct kfd_ioctl_reset_event_args *)arg)->event_id;
		break;
	case _IOC_NR(AMDKFD_IOC_CREATE_QUEUE): {
		struct kfd_ioctl_create_queue_args *a = arg;
		io->gpu_id = a->gpu_id;
		io->queue_type = a->queue_type;
		io->ring_base = a->ring_base_address;
		io->ring_size = a->ring_size;
		io->percentage = a->queue_percentage;
		io->priority = a->queue_priority;
		break;
	}
	case _IOC_NR(AMDKFD_IOC_DESTROY_QUEUE):
		io->queue_id = ((struct kfd_ioctl_destroy_queue_args *)arg)->queue_id;
		break;
	case _IOC_NR(AMDKFD_IOC_UPDATE_QUEUE): {
		struct kfd_ioctl_update_queue_args *a = arg;
		io->queue_id = a->queue_id;
		io->ring_base = a->ring_base_address;
		io->ring_size = a->ring_size;
		io->percentage = a->queue_percentage;
		io->priority = a->queue_priority;
		break;
	}
	case _IOC_NR(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU): {
		struct kfd_ioctl_alloc_memory_of_gpu_args *a = arg;
		*before = (a->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) ? a->mmap_offset : 0;
		break;
	}
	default:
		break;
	}
}

/* After a successful call (lock held): what it answered, and the state
 * the detectors and the signal page keep. */
static void args_out(unsigned nr, void *arg, struct kfdsig_trace_rec *r, uint64_t before)
{
	struct kfdsig_trace_ioctl *io = &r->u.io;
	struct kfdsig_trace_finding f;

	switch (nr) {
	case _IOC_NR(AMDKFD_IOC_CREATE_EVENT): {
		struct kfd_ioctl_create_event_args *a = arg;
		io->event_id = a->event_id;
		det_event_created(a->event_id, a->event_type, a->auto_reset);
		if (a->event_type != KFD_IOC_EVENT_SIGNAL || page_kind)
			break;
		/* the first signal event makes or names the signal page */
		if (io->page_offset) {
			page_kind = KFDSIG_PAGE_USER;
			page_handle = io->page_offset;
			resolve_page_locked();
		} else if ((a->event_page_offset & KFDSIG_MMAP_TYPE_MASK) ==
			   KFDSIG_MMAP_TYPE_EVENTS) {
			page_kind = KFDSIG_PAGE_KERNEL;
			io->page_offset = a->event_page_offset;
		}
		io->page = page_kind;
		io->page_addr = (uint64_t)(uintptr_t)page_cpu;
		break;
	}
	case _IOC_NR(AMDKFD_IOC_DESTROY_EVENT):
		if (det_event_destroyed(io->event_id, &f)) {
			put(r);
			r->kind = 0; /* written */
			put_findings(&f, 1);
		}
		/* a thread that waited on it when the call began waited for
		 * nothing (the KFD wakes it with an error: it may be gone) */
		for (int i = 0; i < n_doomed; i++) {
			f = (struct kfdsig_trace_finding){
				.detector = KFDSIG_DET_DEAD_WAIT,
				.event_id = io->event_id,
				.waiter_tid = doomed[i].tid,
				.wait_ns = now_ns() - doomed[i].begin,
				.cls = KFDSIG_CLASS_DESTROYED,
			};
			if (r->kind) {
				put(r);
				r->kind = 0;
			}
			put_findings(&f, 1);
		}
		break;
	case _IOC_NR(AMDKFD_IOC_SET_EVENT):
		det_event_set(io->event_id, before);
		break;
	case _IOC_NR(AMDKFD_IOC_RESET_EVENT):
		det_event_reset(io->event_id);
		break;
	case _IOC_NR(AMDKFD_IOC_CREATE_QUEUE): {
		struct kfd_ioctl_create_queue_args *a = arg;
		io->queue_id = a->queue_id;
		io->doorbell_offset = a->doorbell_offset;
		det_queue_created(a->queue_id, a->gpu_id);
		queues_gone = 0;
		break;
	}
	case _IOC_NR(AMDKFD_IOC_DESTROY_QUEUE):
		det_queue_destroyed(io->queue_id);
		if (!det_live_queues())
			queues_gone = now_ns();
		break;
	case _IOC_NR(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU): {
		struct kfd_ioctl_alloc_memory_of_gpu_args *a = arg;
		struct alloc *al = grow(allocs, &cap_alloc, nalloc, sizeof(*allocs));
		if (al) {
			allocs = al;
			allocs[nalloc++] = (struct alloc){ a->handle, a->mmap_offset, before };
		}
		resolve_page_locked();
		break;
	}
	default:
		break;
	}
}

/* ---- the render node: user queues and syncobjs ---------------------------- */

#define NR_USERQ (DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ)
#define NR_USERQ_SIGNAL (DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ_SIGNAL)
#define NR_USERQ_WAIT (DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ_WAIT)
#define NR_SYNC_CREATE _IOC_NR(DRM_IOCTL_SYNCOBJ_CREATE)
#define NR_SYNC_DESTROY _IOC_NR(DRM_IOCTL_SYNCOBJ_DESTROY)
#define NR_SYNC_WAIT _IOC_NR(DRM_IOCTL_SYNCOBJ_WAIT)
#define NR_SYNC_TL_WAIT _IOC_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT)
#define NR_SYNC_QUERY _IOC_NR(DRM_IOCTL_SYNCOBJ_QUERY)

static bool drm_traced(unsigned nr)
{
	switch (nr) {
	case NR_USERQ:
	case NR_USERQ_SIGNAL:
	case NR_USERQ_WAIT:
	case NR_SYNC_CREATE:
	case NR_SYNC_DESTROY:
	case NR_SYNC_WAIT:
	case NR_SYNC_TL_WAIT:
	case NR_SYNC_QUERY:
		return true;
	default:
		return false;
	}
}

/* Copy the first KFDSIG_TRACE_DRM_HANDLES handles of @n at user pointer
 * @p into @out (those that can be read). */
static void copy_u32s(uint64_t p, uint64_t n, uint32_t *out)
{
	uint64_t k = n < KFDSIG_TRACE_DRM_HANDLES ? n : KFDSIG_TRACE_DRM_HANDLES;

	if (k && readable((const void *)(uintptr_t)p, k * 4))
		memcpy(out, (const void *)(uintptr_t)p, k * 4);
}

static void copy_u64s(uint64_t p, uint64_t n, uint64_t *out)
{
	uint64_t k = n < KFDSIG_TRACE_DRM_HANDLES ? n : KFDSIG_TRACE_DRM_HANDLES;

	if (k && readable((const void *)(uintptr_t)p, k * 8))
		memcpy(out, (const void *)(uintptr_t)p, k * 8);
}

/* The queue's write pointer now: where the CPU maps its buffer at its GPU
 * address, as libhsakmt and kfdsig map KFD buffers (lock held). */
static uint64_t queue_wptr(uint32_t id)
{
	uint64_t v = 0;

	for (int i = 0; i < USERQ_MAX; i++) {
		struct iovec l = { &v, 8 }, rm;

		if (uqs[i].id != id || !uqs[i].wptr_va)
			continue;
		rm = (struct iovec){ (void *)(uintptr_t)uqs[i].wptr_va, 8 };
		if (process_vm_readv(pid, &l, 1, &rm, 1, 0) != 8)
			v = 0;
		break;
	}
	return v;
}

static void sfence_set(uint32_t h, uint32_t queue_id, uint64_t seq)
{
	int free_i = -1;

	for (int i = 0; i < 256; i++) {
		if (sfences[i].handle == h) {
			free_i = i;
			break;
		}
		if (!sfences[i].handle && free_i < 0)
			free_i = i;
	}
	if (free_i >= 0)
		sfences[free_i] = (typeof(sfences[0])){ h, queue_id, seq };
}

/* A syncobj wait in flight whose condition holds: lost when the waiter
 * still sleeps half the bound later (lock held). */
static void sync_check(struct sync_wait *w, uint64_t now)
{
	uint64_t buf[16] = { 0 };
	struct drm_syncobj_wait *a = (void *)buf;
	struct drm_syncobj_timeline_wait *t = (void *)buf;
	struct kfdsig_trace_finding f;
	unsigned long req;
	int r;

	if (w->reported)
		return;
	if (w->req == NR_SYNC_TL_WAIT) {
		t->handles = (uintptr_t)w->handles;
		t->points = (uintptr_t)w->points;
		t->count_handles = w->a.count_handles;
		t->flags = w->a.flags;
		req = DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT;
	} else {
		a->handles = (uintptr_t)w->handles;
		a->count_handles = w->a.count_handles;
		a->flags = w->a.flags;
		req = DRM_IOCTL_SYNCOBJ_WAIT;
	}
	/* timeout 0: look once */
	r = w->ops->ioctl(w->ops->ctx, w->fd, req, buf);
	if (r) {
		w->done_since = 0;
		return;
	}
	if (!w->done_since)
		w->done_since = now;
	if (mode == PRELOAD_TRACE_REAL ? now - w->begin < bound_ns / 2
				       : now - w->done_since < bound_ns / 2)
		return;
	w->reported = true;
	f = (struct kfdsig_trace_finding){
		.detector = KFDSIG_DET_LOST_FENCE,
		.event_id = w->handles[0],
		.queue_id = UINT32_MAX,
		.count = w->a.count_handles,
		.waiter_tid = w->tid,
		.wait_ns = now - w->begin,
		.cls = mode == PRELOAD_TRACE_REAL ? KFDSIG_CLASS_PROBED : KFDSIG_CLASS_NO_IRQ,
	};
	for (int i = 0; i < 256; i++)
		if (sfences[i].handle && sfences[i].handle == w->handles[0]) {
			f.queue_id = sfences[i].queue_id;
			f.slot = sfences[i].seq;
		}
	put_findings(&f, 1);
}

static int drm_ioctl(const struct kfdsig_kfd_ops *ops, int fd, unsigned long req, void *arg,
		     struct kfdsig_trace_rec *r)
{
	struct kfdsig_trace_drm *d = &r->u.drm;
	unsigned nr = _IOC_NR(req);
	struct sync_wait *w = NULL;
	bool ok = readable(arg, _IOC_SIZE(req));
	int ret;

	r->kind = KFDSIG_TR_DRM;
	if (!ok)
		d->io_flags = KFDSIG_TRACE_IO_UNREAD;
	pthread_mutex_lock(&lock);
	start_locked();
	if (ok) {
		switch (nr) {
		case NR_USERQ: {
			const struct kq_userq_in *in = arg;

			d->op = in->op;
			d->queue_id = in->queue_id;
			d->ip_type = in->ip_type;
			d->doorbell_offset = in->doorbell_offset;
			d->ring_va = in->queue_va;
			d->ring_size = in->queue_size;
			d->wptr_va = in->wptr_va;
			break;
		}
		case NR_USERQ_SIGNAL: {
			const struct kq_userq_signal *a = arg;

			d->queue_id = a->queue_id;
			d->n_handles = (uint32_t)a->num_syncobj_handles;
			copy_u32s(a->syncobj_handles, a->num_syncobj_handles, d->handles);
			d->seq = queue_wptr(a->queue_id);
			break;
		}
		case NR_USERQ_WAIT: {
			const struct kq_userq_wait *a = arg;

			d->queue_id = a->waitq_id;
			d->n_handles = a->num_syncobj_handles;
			copy_u32s(a->syncobj_handles, a->num_syncobj_handles, d->handles);
			break;
		}
		case NR_SYNC_CREATE:
			d->flags = ((struct drm_syncobj_create *)arg)->flags;
			break;
		case NR_SYNC_DESTROY:
			d->n_handles = 1;
			d->handles[0] = ((struct drm_syncobj_destroy *)arg)->handle;
			break;
		case NR_SYNC_WAIT:
		case NR_SYNC_TL_WAIT: {
			/* the fields both share come first, in this order in
			 * SYNCOBJ_WAIT: handles, timeout, count, flags */
			const struct drm_syncobj_wait *a = arg;
			const struct drm_syncobj_timeline_wait *t = arg;
			bool tl = nr == NR_SYNC_TL_WAIT;

			d->n_handles = tl ? t->count_handles : a->count_handles;
			d->flags = tl ? t->flags : a->flags;
			d->timeout_ns = tl ? t->timeout_nsec : a->timeout_nsec;
			copy_u32s(tl ? t->handles : a->handles, d->n_handles, d->handles);
			if (tl)
				copy_u64s(t->points, d->n_handles, d->points);
			/* it may block: watched while in flight */
			if (d->timeout_ns > 0 && d->n_handles &&
			    d->n_handles <= KFDSIG_TRACE_DRM_HANDLES)
				for (int i = 0; i < INFLIGHT_MAX && !w; i++)
					if (!swaits[i].used)
						w = &swaits[i];
			if (w) {
				*w = (struct sync_wait){ .used = true,
							 .fd = fd,
							 .ops = ops,
							 .req = nr,
							 .begin = now_ns() };
				if (!tid)
					tid = (pid_t)syscall(SYS_gettid);
				w->tid = tid;
				w->a.count_handles = d->n_handles;
				w->a.flags = d->flags;
				memcpy(w->handles, d->handles, sizeof(w->handles));
				memcpy(w->points, d->points, sizeof(w->points));
				watchdog_start_locked();
			}
			break;
		}
		case NR_SYNC_QUERY: {
			const struct drm_syncobj_timeline_array *a = arg;

			d->n_handles = a->count_handles;
			d->flags = a->flags;
			copy_u32s(a->handles, a->count_handles, d->handles);
			break;
		}
		default:
			break;
		}
	}
	r->t_ns = now_ns();
	pthread_mutex_unlock(&lock);

	ret = ops->ioctl(ops->ctx, fd, req, arg);

	pthread_mutex_lock(&lock);
	irqs_locked();
	r->dur_ns = now_ns() - r->t_ns;
	r->ret = ret < 0 ? ret : 0;
	if (w)
		w->used = false;
	if (ok && ret >= 0) {
		switch (nr) {
		case NR_USERQ:
			if (d->op == KQ_USERQ_OP_CREATE) {
				d->queue_id = ((struct kq_userq_out *)arg)->queue_id;
				for (int i = 0; i < USERQ_MAX; i++)
					if (!uqs[i].id || uqs[i].id == d->queue_id) {
						uqs[i].id = d->queue_id;
						uqs[i].wptr_va = d->wptr_va;
						break;
					}
			} else {
				for (int i = 0; i < USERQ_MAX; i++)
					if (uqs[i].id == d->queue_id)
						uqs[i].id = 0;
			}
			break;
		case NR_USERQ_SIGNAL:
			for (uint32_t i = 0; i < d->n_handles && i < KFDSIG_TRACE_DRM_HANDLES; i++)
				sfence_set(d->handles[i], d->queue_id, d->seq);
			break;
		case NR_USERQ_WAIT: {
			const struct kq_userq_wait *a = arg;
			const struct kq_userq_fence_info *fi =
				(const void *)(uintptr_t)a->out_fences;
			uint32_t k = a->num_fences < KFDSIG_TRACE_DRM_FENCES
					     ? a->num_fences
					     : KFDSIG_TRACE_DRM_FENCES;

			d->n_fences = a->num_fences;
			if (k && readable(fi, k * sizeof(*fi)))
				for (uint32_t i = 0; i < k; i++) {
					d->fence_va[i] = fi[i].va;
					d->fence_value[i] = fi[i].value;
				}
			break;
		}
		case NR_SYNC_CREATE:
			d->n_handles = 1;
			d->handles[0] = ((struct drm_syncobj_create *)arg)->handle;
			break;
		case NR_SYNC_DESTROY:
			for (int i = 0; i < 256; i++)
				if (sfences[i].handle == d->handles[0])
					sfences[i].handle = 0;
			break;
		case NR_SYNC_WAIT:
			d->first_signaled = ((struct drm_syncobj_wait *)arg)->first_signaled;
			break;
		case NR_SYNC_TL_WAIT:
			d->first_signaled =
				((struct drm_syncobj_timeline_wait *)arg)->first_signaled;
			break;
		case NR_SYNC_QUERY: {
			const struct drm_syncobj_timeline_array *a = arg;

			copy_u64s(a->points, a->count_handles, d->points);
			break;
		}
		default:
			break;
		}
	}
	put(r);
	pthread_mutex_unlock(&lock);
	return ret;
}

int preload_trace_ioctl(const struct kfdsig_kfd_ops *ops, int fd, unsigned long req, void *arg)
{
	struct kfdsig_trace_rec r = { .kind = KFDSIG_TR_IOCTL };
	unsigned nr = _IOC_NR(req);
	uint64_t before = 0;
	int ret;

	bool ok;

	if (_IOC_TYPE(req) == DRM_IOCTL_BASE && drm_traced(nr)) {
		r.nr = nr;
		return drm_ioctl(ops, fd, req, arg, &r);
	}
	if (_IOC_TYPE(req) != AMDKFD_IOCTL_BASE)
		return ops->ioctl(ops->ctx, fd, req, arg);
	/* a call whose argument cannot be read is recorded undecoded: the
	 * KFD refuses it (EFAULT) */
	ok = readable(arg, _IOC_SIZE(req));
	r.nr = nr;
	if (!started) {
		pthread_mutex_lock(&lock);
		start_locked();
		pthread_mutex_unlock(&lock);
	}
	if (ok && nr == _IOC_NR(AMDKFD_IOC_WAIT_EVENTS) &&
	    _IOC_SIZE(req) >= sizeof(struct kfd_ioctl_wait_events_args)) {
		r.kind = KFDSIG_TR_WAIT;
		return wait_events(ops, fd, req, arg, &r);
	}
	if (ok)
		args_in(nr, arg, &r, &before);
	else
		r.u.io.flags = KFDSIG_TRACE_IO_UNREAD;
	r.t_ns = now_ns();
	ret = ops->ioctl(ops->ctx, fd, req, arg);
	r.ret = ret < 0 ? ret : 0;
	pthread_mutex_lock(&lock);
	/* the interrupts taken until now first: what they set, a destroyed
	 * event's leftover signal among it; the return stamped under the
	 * lock, so that the records are written in the order of their times */
	irqs_locked();
	r.dur_ns = now_ns() - r.t_ns;
	if (ret >= 0 && ok)
		args_out(nr, arg, &r, before);
	if (r.kind)
		put(&r);
	pthread_mutex_unlock(&lock);
	return ret;
}

static void forget_locked(void)
{
	det_reset();
	free(allocs);
	free(maps);
	allocs = NULL;
	maps = NULL;
	nalloc = cap_alloc = nmap = cap_map = 0;
	page_kind = KFDSIG_PAGE_NONE;
	page_cpu = NULL;
	started = false;
	memset(infl, 0, sizeof(infl));
	memset(swaits, 0, sizeof(swaits));
	memset(uqs, 0, sizeof(uqs));
	memset(sfences, 0, sizeof(sfences));
	memset(&last_irq, 0, sizeof(last_irq));
	queues_gone = 0;
	watchdog_on = false; /* the parent's thread is not the child's */
}

/* A forked child is a process of its own with no KFD process yet. */
static void at_fork_child(void)
{
	bool used = started; /* the emulator exists: host->emu() makes none */

	pthread_mutex_init(&lock, NULL);
	pid = getpid();
	tid = 0;
	forget_locked();
	if (used && mode == PRELOAD_TRACE_EMULATED && host->emu()) {
		struct kfdsig_emu_irq_record last;
		/* the parent's interrupts are the parent's */
		if (kfdsig_emu_irq_trace(host->emu(), 0, &last, 1) == 1)
			irq_seq = last.seq;
	}
}

static void at_fork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

static void at_fork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

__attribute__((destructor)) static void trace_stop(void)
{
	struct kfdsig_trace_finding f[64];
	struct kfdsig_trace_rec r = { .kind = KFDSIG_TR_EXIT };
	int n;

	if (!mode || !started)
		return;
	pthread_mutex_lock(&lock);
	host->enter();
	irqs_locked();
	/* the calls other threads leave in flight, as they are now */
	for (int i = 0; i < INFLIGHT_MAX; i++)
		if (infl[i].used)
			inflight_check(&infl[i], now_ns(), true);
	host->leave();
	n = det_exit(f, 64);
	put_findings(f, n);
	r.t_ns = now_ns();
	put(&r);
	pthread_mutex_unlock(&lock);
}

/* Is this copy of the interposer the one KFDSIG_TRACE_STACK names? */
static bool this_copy(const char *path)
{
	Dl_info info;
	char a[4096], b[4096];

	if (!dladdr((void *)this_copy, &info) || !info.dli_fname)
		return false;
	if (!realpath(info.dli_fname, a) || !realpath(path, b))
		return false;
	return !strcmp(a, b);
}

enum preload_trace_mode preload_trace_start(const struct preload_host *h)
{
	const char *env = getenv(KFDSIG_TRACE_FD_ENV), *stack;
	char *end;
	long fd;

	if (!env || !*env)
		return PRELOAD_TRACE_OFF;
	fd = strtol(env, &end, 10);
	if (*end || fd < 0 || fd > INT32_MAX || fcntl((int)fd, F_GETFD) < 0)
		return PRELOAD_TRACE_OFF;
	stack = getenv(KFDSIG_TRACE_STACK_ENV);
	if (stack && *stack) {
		h->enter();
		bool mine = this_copy(stack);
		h->leave();
		/* the other copies below emulate, untraced */
		if (!mine)
			return PRELOAD_TRACE_OFF;
		mode = PRELOAD_TRACE_REAL;
	} else {
		const char *spec = getenv("KFDSIG_EMULATE");
		mode = spec && *spec ? PRELOAD_TRACE_EMULATED : PRELOAD_TRACE_REAL;
	}
	env = getenv(KFDSIG_TRACE_BOUND_ENV);
	if (env && *env) {
		long ms = strtol(env, &end, 10);
		if (!*end && ms >= 4 && ms <= 3600000)
			bound_ns = (uint64_t)ms * 1000000ull;
	}
	host = h;
	trace_fd = (int)fd;
	pid = getpid();
	pthread_atfork(at_fork_prepare, at_fork_parent, at_fork_child);
	return mode;
}
