/* SPDX-License-Identifier: MIT */
/*
 * The fence drivers of render-node user queues, an independent reading of
 * amdgpu_userq_fence.c: each queue owns one 64-bit slot of the device's
 * seq64 area (amdgpu_seq64.c amdgpu_seq64_alloc(), kernel-owned, mapped
 * read-only into every VM), which only the CP writes
 * (PROTECTED_FENCE_SIGNAL, emu_cp.c). A fence is (driver, sequence
 * number); it is signalled once the slot holds at least its number
 * (amdgpu_userq_fence_signaled()). The end-of-pipe interrupt carries the
 * queue's doorbell index; the ISR (gfx_v11_0.c / gfx_v12_0.c
 * *_eop_irq() -> amdgpu_userq_process_fence_irq()) looks the driver up by
 * it (adev->userq_doorbell_xa) and signals what the slot has passed
 * (amdgpu_userq_fence_driver_process()): here, it records the slot value
 * as processed and wakes the syncobj waiters.
 *
 * Hang detection (amdgpu_userq.c amdgpu_userq_start_hang_detect_work(),
 * amdgpu_userq_hang_detect_work()): USERQ_SIGNAL starts the queue's
 * delayed work, the end-of-pipe interrupt cancels it and starts it again
 * while fences are pending; when it runs, the queue is reset (a per-queue
 * reset: MES for compute and GFX, SDMA's own) and
 * amdgpu_userq_fence_driver_force_completion() (amdgpu_userq_fence.c)
 * gives the queue's last fence the error -ECANCELED, writes its sequence
 * number to the slot and signals everything up to it. Here a watchdog
 * thread is the kernel's reset work queue. The reset queue stays stopped:
 * whether MES maps it again is UNVERIFIED, a stopped queue never signals
 * a fence it did not run to (its later fences are reset the same way).
 *
 * One lock and one condition for all (a wait may span several devices'
 * fences); calls no other file of the emulator.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/emu_priv.h"

/* amdgpu_vm.h: AMDGPU_VA_RESERVED_SEQ64_START = the CSA reservation's
 * start (2 MiB below the top of the VM, max_pfn << 12) less the seq64
 * size (2 MiB). The emulated gfx11/gfx12 VM is 48 bits. Whether the
 * address the kernel hands out is sign-extended is UNVERIFIED: the
 * emulator hands out the plain one and masks the hole bits when it
 * resolves one (AMDGPU_GMC_HOLE_MASK). */
#define SEQ64_SIZE (2ull << 20)
#define SEQ64_BASE ((1ull << 48) - (2ull << 20) - SEQ64_SIZE)
#define HOLE_MASK 0x0000ffffffffffffull
/* Emulator choice: one page of slots per device (the kernel's area holds
 * 2 MiB / 8); the 513th live queue of a device gets -ENOSPC, as the
 * kernel's bitmap when full (amdgpu_seq64_alloc()). */
#define SEQ64_SLOTS 512
/* Emulator bound: the cancelled fences a driver remembers (each reset
 * cancels one, the queue's last; an older one reads as signalled
 * without error once forgotten). */
#define EMU_FENCE_CANCELLED 16

struct emu_fence_drv {
	const struct emu_gpu *g;
	uint32_t doorbell; /* the EOP interrupt's key; ~0u once the queue is gone */
	uint32_t slot;
	uint64_t *cpu;	    /* the kernel's view of the slot */
	uint64_t processed; /* the slot value the ISR last saw */
	int refs;
	/* hang detection: queue->last_fence's sequence number (has_last),
	 * when the delayed work runs (CLOCK_MONOTONIC ns, 0: not queued),
	 * the queue's timeout (ns, < 0: none) */
	bool has_last, hung;
	uint64_t last_seq;
	int64_t hang_at, timeout_ns;
	/* the fences force-completed with -ECANCELED, the latest last */
	uint64_t cancelled[EMU_FENCE_CANCELLED];
	uint32_t ncancelled;
	struct emu_fence_drv *next;
};

static pthread_mutex_t fence_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fence_cond = PTHREAD_COND_INITIALIZER;
static struct emu_fence_drv *drivers;
static bool watchdog_running;
/* seq64 pages per device (by the emu_gpu's address), with their use bitmaps */
static struct seq64 {
	const struct emu_gpu *g;
	uint64_t *page;
	uint64_t used[SEQ64_SLOTS / 64];
	struct seq64 *next;
} * areas;

/* fork: the child must not inherit the lock held by another thread */
static void fork_prepare(void)
{
	pthread_mutex_lock(&fence_lock);
}

static void fork_done(void)
{
	pthread_mutex_unlock(&fence_lock);
}

/* the watchdog thread is the parent's: the child starts its own */
static void fork_child(void)
{
	watchdog_running = false;
	pthread_mutex_unlock(&fence_lock);
}

static void fork_init(void)
{
	pthread_atfork(fork_prepare, fork_done, fork_child);
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static struct seq64 *area_of(const struct emu_gpu *g, bool make)
{
	struct seq64 *a;

	for (a = areas; a; a = a->next)
		if (a->g == g)
			return a;
	if (!make || !(a = calloc(1, sizeof(*a))))
		return NULL;
	if (posix_memalign((void **)&a->page, 4096, SEQ64_SLOTS * 8)) {
		free(a);
		return NULL;
	}
	memset(a->page, 0, SEQ64_SLOTS * 8);
	a->g = g;
	a->next = areas;
	areas = a;
	return a;
}

int emu_fence_drv_new(const struct emu_gpu *g, uint32_t doorbell, int64_t timeout_ms,
		      struct emu_fence_drv **out)
{
	struct emu_fence_drv *d;
	struct seq64 *a;
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	uint32_t s;
	int r = 0;

	pthread_once(&once, fork_init);
	pthread_mutex_lock(&fence_lock);
	for (d = drivers; d; d = d->next)
		if (d->g == g && d->doorbell == doorbell) {
			r = -EBUSY; /* xa_insert on a used doorbell index */
			goto out;
		}
	a = area_of(g, true);
	if (!a) {
		r = -ENOMEM;
		goto out;
	}
	for (s = 0; s < SEQ64_SLOTS && (a->used[s / 64] >> (s % 64) & 1); s++)
		;
	if (s == SEQ64_SLOTS) {
		r = -ENOSPC;
		goto out;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		r = -ENOMEM;
		goto out;
	}
	a->used[s / 64] |= 1ull << (s % 64);
	d->g = g;
	d->doorbell = doorbell;
	d->slot = s;
	d->timeout_ns = timeout_ms < 0 ? -1 : timeout_ms * 1000000;
	d->cpu = &a->page[s];
	/* amdgpu_userq_fence_driver_alloc(): the slot starts at 0 */
	__atomic_store_n(d->cpu, 0, __ATOMIC_RELEASE);
	d->refs = 1;
	d->next = drivers;
	drivers = d;
	*out = d;
out:
	pthread_mutex_unlock(&fence_lock);
	return r;
}

void emu_fence_drv_get(struct emu_fence_drv *d)
{
	pthread_mutex_lock(&fence_lock);
	d->refs++;
	pthread_mutex_unlock(&fence_lock);
}

/* fence_lock held */
static void put_locked(struct emu_fence_drv *d)
{
	struct emu_fence_drv **pp;
	struct seq64 *a;

	if (!d || --d->refs)
		return;
	for (pp = &drivers; *pp && *pp != d; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = d->next;
	a = area_of(d->g, false);
	if (a)
		a->used[d->slot / 64] &= ~(1ull << (d->slot % 64));
	free(d);
}

void emu_fence_drv_put(struct emu_fence_drv *d)
{
	pthread_mutex_lock(&fence_lock);
	put_locked(d);
	pthread_mutex_unlock(&fence_lock);
}

/* drm_syncobj_replace_fence(): a syncobj's fence (*@has, *@drv, *@seq,
 * written only here) becomes (@drv, @seq), and a WAIT_FOR_SUBMIT waiter
 * sleeping on the syncobj wakes to see it. */
void emu_fence_replace(bool *has, struct emu_fence_drv **drv, uint64_t *seq,
		       struct emu_fence_drv *nd, uint64_t nseq)
{
	pthread_mutex_lock(&fence_lock);
	if (nd)
		nd->refs++;
	if (*has)
		put_locked(*drv);
	*has = true;
	*drv = nd;
	*seq = nseq;
	pthread_cond_broadcast(&fence_cond);
	pthread_mutex_unlock(&fence_lock);
}

/* The queue is gone: its doorbell names it no longer
 * (amdgpu_userq_cleanup() erases it from userq_doorbell_xa). */
void emu_fence_drv_detach(struct emu_fence_drv *d)
{
	pthread_mutex_lock(&fence_lock);
	d->doorbell = ~0u;
	d->hang_at = 0; /* amdgpu_userq_destroy(): cancel_delayed_work_sync() */
	pthread_cond_broadcast(&fence_cond);
	pthread_mutex_unlock(&fence_lock);
}

/* amdgpu_userq_hang_detect_work() after a per-queue reset succeeded:
 * amdgpu_userq_fence_driver_force_completion(). fence_lock held. */
static void reset_queue(struct emu_fence_drv *d)
{
	uint64_t slot = __atomic_load_n(d->cpu, __ATOMIC_ACQUIRE);

	d->hang_at = 0;
	__atomic_store_n(&d->hung, true, __ATOMIC_RELEASE);
	if (!d->has_last)
		return;
	/* the error only on a fence not signalled yet (the ->signaled op) */
	if (slot < d->last_seq) {
		if (d->ncancelled == EMU_FENCE_CANCELLED) {
			memmove(d->cancelled, d->cancelled + 1, sizeof(d->cancelled) - 8);
			d->ncancelled--;
		}
		d->cancelled[d->ncancelled++] = d->last_seq;
	}
	__atomic_store_n(d->cpu, d->last_seq, __ATOMIC_RELEASE);
	if (d->processed < d->last_seq)
		d->processed = d->last_seq;
}

/* The reset domain's work queue: run each queue's hang detection when it
 * is due. */
static void *watchdog(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&fence_lock);
	for (;;) {
		int64_t now = now_ns(), next = 0;
		struct timespec dl;

		for (struct emu_fence_drv *d = drivers; d; d = d->next) {
			if (!d->hang_at || d->doorbell == ~0u)
				continue;
			if (d->hang_at <= now) {
				reset_queue(d);
				pthread_cond_broadcast(&fence_cond);
			} else if (!next || d->hang_at < next) {
				next = d->hang_at;
			}
		}
		if (!next) {
			pthread_cond_wait(&fence_cond, &fence_lock);
			continue;
		}
		/* fence_cond runs on CLOCK_REALTIME */
		clock_gettime(CLOCK_REALTIME, &dl);
		next -= now;
		next += dl.tv_nsec;
		dl.tv_sec += next / 1000000000;
		dl.tv_nsec = next % 1000000000;
		pthread_cond_timedwait(&fence_cond, &fence_lock, &dl);
	}
	return NULL;
}

/* amdgpu_userq_signal_ioctl(): the queue's last fence is now (@d, @seq);
 * amdgpu_userq_start_hang_detect_work() queues the delayed work unless it
 * is queued already (queue_delayed_work() on a pending work). */
void emu_fence_drv_signal(struct emu_fence_drv *d, uint64_t seq)
{
	pthread_mutex_lock(&fence_lock);
	d->has_last = true;
	d->last_seq = seq;
	/* a fence the slot has passed already is signalled at creation
	 * (amdgpu_userq_fence_create() does not list it): nothing pending
	 * to detect a hang on (UNVERIFIED whether the kernel queues the work
	 * then; an idle queue reset 2 s later would be wrong either way) */
	if (!d->hang_at && d->timeout_ns >= 0 && d->doorbell != ~0u &&
	    __atomic_load_n(d->cpu, __ATOMIC_ACQUIRE) < seq) {
		d->hang_at = now_ns() + d->timeout_ns;
		if (!watchdog_running) {
			pthread_t t;
			pthread_attr_t at;

			pthread_attr_init(&at);
			pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
			watchdog_running = !pthread_create(&t, &at, watchdog, NULL);
			pthread_attr_destroy(&at);
		}
		pthread_cond_broadcast(&fence_cond);
	}
	pthread_mutex_unlock(&fence_lock);
}

bool emu_fence_drv_hung(const struct emu_fence_drv *d)
{
	return __atomic_load_n(&d->hung, __ATOMIC_ACQUIRE);
}

/* A fence's error (dma_fence_get_status()): 0 while it is pending or
 * signalled without error, -ECANCELED after a reset gave it one. */
int emu_fence_error(const struct emu_fence_drv *d, uint64_t seq)
{
	int r = 0;

	if (!d)
		return 0;
	pthread_mutex_lock(&fence_lock);
	for (uint32_t i = 0; i < d->ncancelled; i++)
		if (d->cancelled[i] == seq)
			r = -ECANCELED;
	pthread_mutex_unlock(&fence_lock);
	return r;
}

uint64_t emu_fence_drv_va(const struct emu_fence_drv *d)
{
	return SEQ64_BASE + 8ull * d->slot;
}

void emu_fence_drv_write(struct emu_fence_drv *d, uint64_t v)
{
	__atomic_store_n(d->cpu, v, __ATOMIC_RELEASE);
}

uint64_t emu_fence_drv_read(const struct emu_fence_drv *d)
{
	return __atomic_load_n(d->cpu, __ATOMIC_ACQUIRE);
}

/* A GPU read of the seq64 area (FENCE_WAIT_MULTI): the slot's host
 * address, or NULL outside the area or on a free slot. */
const uint64_t *emu_seq64_ptr(const struct emu_gpu *g, uint64_t va)
{
	const uint64_t *p = NULL;
	struct seq64 *a;
	uint64_t s;

	va &= HOLE_MASK;
	if (va < SEQ64_BASE || va >= SEQ64_BASE + SEQ64_SIZE || (va & 7))
		return NULL;
	s = (va - SEQ64_BASE) / 8;
	pthread_mutex_lock(&fence_lock);
	a = area_of(g, false);
	if (a && s < SEQ64_SLOTS && (a->used[s / 64] >> (s % 64) & 1))
		p = &a->page[s];
	pthread_mutex_unlock(&fence_lock);
	return p;
}

bool emu_seq64_contains(uint64_t va)
{
	va &= HOLE_MASK;
	return va >= SEQ64_BASE && va < SEQ64_BASE + SEQ64_SIZE;
}

/* The EOP interrupt of a user queue: IV data = the doorbell index. */
void emu_userq_fence_irq(const struct emu_gpu *g, uint32_t doorbell)
{
	pthread_mutex_lock(&fence_lock);
	for (struct emu_fence_drv *d = drivers; d; d = d->next)
		if (d->g == g && d->doorbell == doorbell) {
			d->processed = __atomic_load_n(d->cpu, __ATOMIC_ACQUIRE);
			/* amdgpu_userq_process_fence_irq(): cancel the hang
			 * detection, start it again while fences are pending */
			d->hang_at = 0;
			if (d->has_last && d->processed < d->last_seq && d->timeout_ns >= 0)
				d->hang_at = now_ns() + d->timeout_ns;
			pthread_cond_broadcast(&fence_cond);
		}
	pthread_mutex_unlock(&fence_lock);
}

/* dma_fence_is_signaled() of a userq fence: the ISR has signalled it, or
 * the fence's ->signaled op (amdgpu_userq_fence_signaled()) finds the slot
 * past it. fence_lock held. */
static bool signaled(const struct emu_fence_drv *d, uint64_t seq)
{
	return d->processed >= seq || __atomic_load_n(d->cpu, __ATOMIC_ACQUIRE) >= seq;
}

bool emu_fence_signaled(const struct emu_fence_drv *d, uint64_t seq)
{
	bool s;

	if (!d)
		return true; /* a stub fence (DRM_SYNCOBJ_CREATE_SIGNALED) */
	pthread_mutex_lock(&fence_lock);
	s = signaled(d, seq);
	pthread_mutex_unlock(&fence_lock);
	return s;
}

/* drm_syncobj_array_wait_timeout(): test each fence (as
 * dma_fence_is_signaled does), then sleep until an interrupt wakes the
 * waiters or @abs_ns (CLOCK_MONOTONIC) passes. @check is called with the
 * lock held; it returns >= 0 (done, that result) or -EAGAIN (sleep on). */
int emu_fence_wait(int (*check)(void *ctx), void *ctx, int64_t abs_ns)
{
	int r;

	pthread_mutex_lock(&fence_lock);
	for (;;) {
		struct timespec now, mono, dl;
		int64_t left;

		r = check(ctx);
		if (r != -EAGAIN)
			break;
		clock_gettime(CLOCK_MONOTONIC, &mono);
		left = abs_ns - ((int64_t)mono.tv_sec * 1000000000 + mono.tv_nsec);
		if (left <= 0) {
			r = -ETIME;
			break;
		}
		/* the condition uses CLOCK_REALTIME; a far timeout (Mesa
		 * waits with INT64_MAX) sleeps an hour at a time */
		if (left > 3600ll * 1000000000)
			left = 3600ll * 1000000000;
		clock_gettime(CLOCK_REALTIME, &now);
		left += now.tv_nsec;
		dl.tv_sec = now.tv_sec + left / 1000000000;
		dl.tv_nsec = left % 1000000000;
		pthread_cond_timedwait(&fence_cond, &fence_lock, &dl);
	}
	pthread_mutex_unlock(&fence_lock);
	return r;
}

/* For check callbacks (fence_lock held by emu_fence_wait). */
bool emu_fence_signaled_locked(const struct emu_fence_drv *d, uint64_t seq)
{
	return !d || signaled(d, seq);
}
