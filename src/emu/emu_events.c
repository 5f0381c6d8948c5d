/* SPDX-License-Identifier: MIT */
/*
 * Emulated amdkfd events, from kfd_events.c (amdgpu-dkms 6.8.5
 * amd/amdkfd/kfd_events.c; line numbers there):
 *   - id 0 reserved at process init, signal events get the lowest free id
 *     below signal_mapped_size / 8, others ids from 0x40000000 (2.2);
 *   - kernel page: lazily 32 KiB of 0xff with a 256-slot window until it
 *     is mmapped; -ENOSPC when signal_event_count reaches the window (2.3,
 *     2.5);
 *   - set_event / auto-reset latching / reset (2.7), event age (2.8);
 *   - WAIT_EVENTS flow and result mapping (2.9);
 *   - kfd_signal_event_interrupt with the fast path, the partial-id walk
 *     and the exhaustive scan, slot acknowledgement, and the v6.14-v6.18
 *     drop rule as a profile (2.6);
 *   - exception events (2.10).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_gc12_1.h"
#include "emu/emu_priv.h"

#define LIMIT KFD_SIGNAL_EVENT_LIMIT
#define KFD_EVENT_TIMEOUT_INFINITE_EMU 0xffffffffu /* KFD_EVENT_TIMEOUT_INFINITE */

static uint64_t slot_read(const uint64_t *s)
{
	return __atomic_load_n(s, __ATOMIC_ACQUIRE);
}

/* Slot @id of the signal page as the interrupt path reads it. Past a
 * buffer smaller than 4096 slots (accepted only by the v6.14 profile,
 * emu_ioctl.c) the kernel read the kernel memory its memset had set to
 * all ones: unsignalled. */
static uint64_t page_slot(const struct emu_proc *p, uint32_t id)
{
	if (id >= p->signal_slots)
		return KFDSIG_UNSIGNALED_SLOT;
	return slot_read(&p->signal_page[id]);
}

static void slot_write(uint64_t *s, uint64_t v)
{
	__atomic_store_n(s, v, __ATOMIC_RELEASE);
}

void emu_events_init(struct emu_proc *p)
{
	/* kfd_event_init_process: idr_alloc(..., NULL, 0, 1) reserves id 0
	 * ("fast path to ignore bogus events that are sent by the CP without
	 * a context ID") and signal_event_count starts at 1. */
	p->signal_event_count = 1;
	p->kpage_memfd = -1;
	for (int i = 0; i < EMU_MAX_GPUS; i++)
		p->pdd[i].db_memfd = -1;
}

static void event_put(struct emu_event *ev)
{
	if (--ev->refs == 0)
		free(ev);
}

void emu_events_fini(struct emu_proc *p)
{
	for (uint32_t i = 0; i < LIMIT; i++)
		if (p->slots_ev[i])
			event_put(p->slots_ev[i]);
	for (size_t i = 0; i < p->nothers; i++)
		event_put(p->others[i]);
	free(p->others);
	if (p->kpage_memfd >= 0) {
		munmap(p->signal_page, KFDSIG_SIGNAL_PAGE_SIZE);
		close(p->kpage_memfd);
	}
}

static struct emu_event *lookup(struct emu_proc *p, uint32_t id)
{
	if (id < LIMIT)
		return p->slots_ev[id];
	for (size_t i = 0; i < p->nothers; i++)
		if (p->others[i]->id == id)
			return p->others[i];
	return NULL;
}

static bool gpu_signalable(const struct emu_event *ev)
{
	return ev->type == KFD_IOC_EVENT_SIGNAL || ev->type == KFD_IOC_EVENT_DEBUG_EVENT;
}

/* allocate_signal_page(): 32 KiB, all ones; 256 slots until mmapped. */
static int allocate_kernel_page(struct emu_proc *p)
{
	void *m;

	p->kpage_memfd = memfd_create("kfdsig-emu-events", MFD_CLOEXEC);
	if (p->kpage_memfd < 0)
		return -ENOMEM;
	if (ftruncate(p->kpage_memfd, KFDSIG_SIGNAL_PAGE_SIZE)) {
		close(p->kpage_memfd);
		p->kpage_memfd = -1;
		return -ENOMEM;
	}
	m = mmap(NULL, KFDSIG_SIGNAL_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, p->kpage_memfd,
		 0);
	if (m == MAP_FAILED) {
		close(p->kpage_memfd);
		p->kpage_memfd = -1;
		return -ENOMEM;
	}
	memset(m, 0xff, KFDSIG_SIGNAL_PAGE_SIZE);
	p->signal_page = m;
	p->signal_slots = LIMIT;
	/* "Oldest user mode expects 256 event slots" */
	p->signal_mapped_size = 256 * 8;
	return 0;
}

static int create_signal_event(struct emu_proc *p, struct emu_event *ev)
{
	uint32_t window, id;

	if (p->signal_mapped_size && p->signal_event_count == p->signal_mapped_size / 8)
		return -ENOSPC;
	/* Linux 7.3 (b4f5837f746a, allocate_event_notification_slot()):
	 * no kernel page any more; without a user buffer, -ENOMEM. */
	if (!p->signal_page && p->emu->profile >= KFDSIG_EMU_KERNEL_V7_3)
		return -ENOMEM;
	if (!p->signal_page) {
		int r = allocate_kernel_page(p);
		if (r)
			return r;
	}
	/* idr_alloc(&p->event_idr, ev, 0, signal_mapped_size / 8): lowest
	 * free id; ids at and above 4096 cannot be found by interrupts, and
	 * the emulator keeps no table for them. */
	window = (uint32_t)(p->signal_mapped_size / 8);
	if (window > LIMIT)
		window = LIMIT;
	for (id = 1; id < window && p->slots_ev[id]; id++)
		;
	if (id >= window)
		return -ENOSPC;
	ev->id = id;
	p->slots_ev[id] = ev;
	p->signal_event_count++;
	slot_write(&p->signal_page[id], KFDSIG_UNSIGNALED_SLOT);
	return 0;
}

static int create_other_event(struct emu_proc *p, struct emu_event *ev)
{
	uint32_t id = KFDSIG_FIRST_NONSIGNAL_EVENT_ID;

	/* lowest free id in [0x40000000, 0x7fffffff] */
	for (;;) {
		bool used = false;
		for (size_t i = 0; i < p->nothers && !used; i++)
			used = p->others[i]->id == id;
		if (!used)
			break;
		if (id == KFDSIG_LAST_NONSIGNAL_EVENT_ID)
			return -ENOSPC;
		id++;
	}
	if (p->nothers == p->cap_others) {
		size_t cap = p->cap_others ? p->cap_others * 2 : 8;
		void *n = realloc(p->others, cap * sizeof(*p->others));
		if (!n)
			return -ENOMEM;
		p->others = n;
		p->cap_others = cap;
	}
	ev->id = id;
	p->others[p->nothers++] = ev;
	return 0;
}

int emu_create_event(struct emu_proc *p, struct kfd_ioctl_create_event_args *a)
{
	struct emu_event *ev = calloc(1, sizeof(*ev));
	int r;

	if (!ev)
		return -ENOMEM;
	ev->type = a->event_type;
	ev->auto_reset = a->auto_reset;
	ev->refs = 1;
	if (ev->type == KFD_IOC_EVENT_SIGNAL || ev->type == KFD_IOC_EVENT_DEBUG_EVENT) {
		r = create_signal_event(p, ev);
		if (!r) {
			a->event_page_offset = KFDSIG_MMAP_TYPE_EVENTS;
			a->event_slot_index = ev->id;
		}
	} else {
		/* HW_EXCEPTION, MEMORY and any other type: no slot. */
		r = create_other_event(p, ev);
	}
	if (r) {
		free(ev);
		return r;
	}
	a->event_id = ev->id;
	a->event_trigger_data = ev->id;
	ev->age = 1;
	return 0;
}

/*
 * Waking a sleeping WAIT_EVENTS call (wake_up_all(&ev->wq) reaches each
 * waiter's own task): its futex word is bumped under p->lock, and its
 * thread is woken only once the waker has dropped p->lock. The kernel wakes
 * under a spinlock, which cannot be preempted; here a woken thread that
 * found p->lock still held would sleep a second time (30 us p50 on a
 * 2-core machine). Signalling entry points bracket their locked section
 * with emu_wake_begin() / emu_wake_end(): the sleepers are collected in a
 * per-thread batch and woken after the unlock; outside a bracket (or with
 * the batch full) the wake is immediate, under the lock.
 *
 * After the unlock the waker only passes the word's address to FUTEX_WAKE,
 * which never dereferences it. The waiter may have returned by then (it
 * saw the bumped word); a wake reaching an address its stack has reused
 * for another futex wait is a spurious wake-up, which every futex waiter
 * (ours and libc's) re-checks and sleeps through.
 */
#define EMU_WAKE_BATCH 32

static __thread struct {
	int depth, n;
	uint32_t *word[EMU_WAKE_BATCH];
} wake_batch;

static void futex_wake_all(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void emu_wake_begin(void)
{
	wake_batch.depth++;
}

void emu_wake_end(void)
{
	if (--wake_batch.depth > 0)
		return;
	for (int i = 0; i < wake_batch.n; i++)
		futex_wake_all(wake_batch.word[i]);
	wake_batch.n = 0;
}

/* With p->lock held. */
static void sleeper_wake(struct emu_sleeper *s)
{
	__atomic_fetch_add(&s->seq, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < wake_batch.n; i++)
		if (wake_batch.word[i] == &s->seq)
			return; /* already to be woken (queued on two events) */
	if (wake_batch.depth > 0 && wake_batch.n < EMU_WAKE_BATCH) {
		wake_batch.word[wake_batch.n++] = &s->seq;
		return;
	}
	futex_wake_all(&s->seq);
}

/* set_event() (kfd_events.c) with p->lock held: activate every queued
 * waiter and wake its thread; the other threads sleep on. */
static void set_event(struct emu_proc *p, struct emu_event *ev)
{
	(void)p;
	ev->signaled = !ev->auto_reset || !ev->waiters;
	/* event_age wraps to 2, never to 0 (reserved) or 1 (new) */
	if (!++ev->age)
		ev->age = 2;
	for (struct emu_waiter *w = ev->waiters; w; w = w->next) {
		struct emu_sleeper *s = w->sleeper;

		if (w->activated)
			continue; /* its sleeper saw this entry already */
		__atomic_store_n(&w->activated, true, __ATOMIC_RELEASE);
		if (!s->all || !--s->pending)
			sleeper_wake(s);
	}
}

int emu_destroy_event(struct emu_proc *p, uint32_t id)
{
	struct emu_event *ev = lookup(p, id);

	if (!ev)
		return -EINVAL;
	/* Waiters still queued lose their event: their wait returns FAIL
	 * (destroy_event: WRITE_ONCE(waiter->event, NULL), wake_up_all). */
	for (struct emu_waiter *w = ev->waiters; w; w = w->next) {
		__atomic_store_n(&w->ev, NULL, __ATOMIC_RELEASE);
		sleeper_wake(w->sleeper);
	}
	ev->destroyed = true;
	if (gpu_signalable(ev)) {
		p->slots_ev[id] = NULL;
		p->signal_event_count--;
	} else {
		for (size_t i = 0; i < p->nothers; i++)
			if (p->others[i] == ev) {
				p->others[i] = p->others[--p->nothers];
				break;
			}
	}
	event_put(ev);
	return 0;
}

int emu_set_event_ioctl(struct emu_proc *p, uint32_t id)
{
	struct emu_event *ev = lookup(p, id);

	/* only SIGNAL events are CPU-signalable */
	if (!ev || ev->type != KFD_IOC_EVENT_SIGNAL)
		return -EINVAL;
	set_event(p, ev);
	return 0;
}

int emu_reset_event_ioctl(struct emu_proc *p, uint32_t id)
{
	struct emu_event *ev = lookup(p, id);

	if (!ev || ev->type != KFD_IOC_EVENT_SIGNAL)
		return -EINVAL;
	ev->signaled = false; /* the slot and the age are untouched */
	return 0;
}

/* kfd_event_mmap (l.1066): at most 32 KiB, needs a page; the mapping's
 * size becomes the signal window. */
int emu_event_mmap(struct emu_proc *p, void **out, void *addr, size_t len, int prot, int flags)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t pages = (len + (size_t)pg - 1) / (size_t)pg,
	       limit = KFDSIG_SIGNAL_PAGE_SIZE / (size_t)pg;
	int order = 0, limit_order = 0;
	void *m;

	/* get_order(32768) < get_order(len) */
	while ((1ul << order) < pages)
		order++;
	while ((1ul << limit_order) < limit)
		limit_order++;
	/* Linux 7.3 (4d7c624a0af1): kfd_mmap() refuses
	 * KFD_MMAP_TYPE_EVENTS with -EINVAL ("no longer supported"). */
	if (p->emu->profile >= KFDSIG_EMU_KERNEL_V7_3)
		return -EINVAL;
	if (limit_order < order || !p->signal_page)
		return -EINVAL;
	if (p->kpage_memfd >= 0) {
		m = mmap(addr, len, prot, flags, p->kpage_memfd, 0);
	} else {
		/* a user-supplied page: map its buffer */
		struct emu_bo *bo = emu_bo_by_handle(p, p->signal_handle);
		if (!bo || bo->memfd < 0)
			return -EINVAL;
		m = mmap(addr, len, prot, flags, bo->memfd, 0);
	}
	if (m == MAP_FAILED)
		return -errno;
	p->signal_mapped_size = len;
	*out = m;
	return 0;
}

/* ---- WAIT_EVENTS (kfd_wait_on_events, l.950) --------------------------- */

static void waiter_dequeue(struct emu_waiter *w)
{
	struct emu_event *ev = w->held;

	if (!w->queued)
		return;
	if (w->prev)
		w->prev->next = w->next;
	else
		ev->waiters = w->next;
	if (w->next)
		w->next->prev = w->prev;
	w->queued = false;
}

static uint32_t test_condition(bool all, uint32_t n, struct emu_waiter *w)
{
	uint32_t activated = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (!__atomic_load_n(&w[i].ev, __ATOMIC_ACQUIRE))
			return KFD_IOC_WAIT_RESULT_FAIL;
		if (__atomic_load_n(&w[i].activated, __ATOMIC_ACQUIRE)) {
			if (!all)
				return KFD_IOC_WAIT_RESULT_COMPLETE;
			activated++;
		}
	}
	return activated == n ? KFD_IOC_WAIT_RESULT_COMPLETE : KFD_IOC_WAIT_RESULT_TIMEOUT;
}

/* The user address of member @m of entry @i of the array at @base: integer
 * arithmetic, never a pointer into (possibly NULL) user memory. */
#define UADDR(base, i, m)                                                      \
	((void *)(uintptr_t)((base) + (uint64_t)(i) * sizeof(abi_event_data) + \
			     offsetof(abi_event_data, m)))

/* copy_signaled_event_data: the exception data of each activated
 * MEMORY/HW_EXCEPTION event, the age of each age-enabled SIGNAL event
 * (1.14+), each with copy_to_user into the caller's array. */
static int copy_signaled_data(struct kfdsig_emu *emu, uint32_t n, struct emu_waiter *w,
			      uint64_t data)
{
	for (uint32_t i = 0; i < n; i++) {
		struct emu_event *ev = w[i].ev;
		int r = 0;

		if (!ev || !w[i].activated)
			continue;
		if (ev->type == KFD_IOC_EVENT_MEMORY)
			r = emu_copy_to_user(UADDR(data, i, memory_exception_data), &ev->mem,
					     sizeof(ev->mem));
		else if (ev->type == KFD_IOC_EVENT_HW_EXCEPTION)
			r = emu_copy_to_user(UADDR(data, i, hw_exception_data), &ev->hw,
					     sizeof(ev->hw));
		else if (ev->type == KFD_IOC_EVENT_SIGNAL && w[i].age_enabled &&
			 emu_version_at_least(emu, 14))
			r = emu_copy_to_user(UADDR(data, i, signal_event_data.last_event_age),
					     &ev->age, sizeof(ev->age));
		if (r)
			return r;
	}
	return 0;
}

/* sizeof(struct kfd_event_waiter) on 64-bit kernels: a wait_queue_entry
 * (40 bytes), the event pointer and two bools, padded to 56. The kernel's
 * alloc_event_waiters() kcallocs num_events of them: a count whose array
 * passes KMALLOC_MAX_SIZE fails with -ENOMEM before any user memory is
 * read (kfd_events.c kfd_wait_on_events). */
/* Entries of the user's WAIT_EVENTS array read per user copy (24 KiB). */
#define WAIT_CHUNK 1024u
#define UENTRY(base, i) ((const void *)(uintptr_t)((base) + (uint64_t)(i) * sizeof(abi_event_data)))

#define EMU_KFD_EVENT_WAITER_SIZE 56u
#define EMU_MAX_WAIT_EVENTS ((uint32_t)(EMU_KMALLOC_MAX / EMU_KFD_EVENT_WAITER_SIZE))

int emu_wait_events(struct emu_proc *p, struct kfd_ioctl_wait_events_args *a)
{
	uint64_t data = a->events_ptr;
	bool all = a->wait_for_all != 0, has_age = emu_version_at_least(p->emu, 14);
	uint32_t n = a->num_events, result = KFD_IOC_WAIT_RESULT_TIMEOUT;
	uint32_t chunk_base = 0, in_chunk = 0;
	abi_event_data *chunk = NULL;
	struct emu_sleeper sleeper = { .all = a->wait_for_all != 0 };
	struct emu_waiter *w;
	struct timespec deadline;
	bool listed = false;
	int r = 0;

	if (n > EMU_MAX_WAIT_EVENTS) {
		r = -ENOMEM;
		goto out_noalloc;
	}
	w = calloc(n ? n : 1, sizeof(*w));
	if (!w) {
		r = -ENOMEM;
		goto out_noalloc;
	}
	/* user_timeout_to_jiffies: 0 checks once, ~0 forever, else ms + 1
	 * jiffy (one extra millisecond here). */
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	if (a->timeout != KFD_EVENT_TIMEOUT_INFINITE_EMU && a->timeout) {
		uint64_t ms = a->timeout > 0x7fffffffu ? 0x7fffffffu : a->timeout;
		ms += 1;
		deadline.tv_sec += (time_t)(ms / 1000);
		deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
	}

	/* The user's array is read in chunks of WAIT_CHUNK entries, one
	 * user copy each (not one per entry: a copy off the caller's stack is
	 * a system call). A chunk that cannot be read whole is read entry by
	 * entry, so the entries before an unreadable one are taken as the
	 * kernel takes them (an unknown id there is -EINVAL, a signalled
	 * auto-reset event is consumed) and the unreadable one is -EFAULT.
	 * Without memory for a chunk, every entry is read on its own. */
	if (n > 1)
		chunk = malloc((n < WAIT_CHUNK ? n : WAIT_CHUNK) * sizeof(*chunk));

	pthread_mutex_lock(&p->lock);
	/* init_event_waiter for each entry, each copied from the user's
	 * array first (-EFAULT for an unreadable one). */
	for (uint32_t i = 0; i < n; i++) {
		abi_event_data d;
		struct emu_event *ev;

		if (chunk && i % WAIT_CHUNK == 0) {
			in_chunk = n - i < WAIT_CHUNK ? n - i : WAIT_CHUNK;
			if (emu_copy_from_user(chunk, UENTRY(data, i), in_chunk * sizeof(d)))
				in_chunk = 0;
			chunk_base = i;
		}
		if (i - chunk_base < in_chunk) {
			d = chunk[i - chunk_base];
		} else if (emu_copy_from_user(&d, UENTRY(data, i), sizeof(d))) {
			r = -EFAULT;
			goto out_unlock;
		}
		ev = lookup(p, d.event_id);
		if (!ev) {
			r = -EINVAL;
			goto out_unlock;
		}
		w[i].ev = ev;
		w[i].held = ev;
		w[i].sleeper = &sleeper;
		ev->refs++;
		w[i].activated = ev->signaled;
		ev->signaled = ev->signaled && !ev->auto_reset;
		/* last_event_age = 0 is the legacy wait; only SIGNAL events;
		 * kernels before 1.14 have no age at all. */
		if (has_age && ev->type == KFD_IOC_EVENT_SIGNAL &&
		    d.signal_event_data.last_event_age) {
			w[i].age_enabled = true;
			if (ev->age != d.signal_event_data.last_event_age)
				w[i].activated = true;
		}
		if (!w[i].activated) {
			sleeper.pending++;
			w[i].next = ev->waiters;
			if (ev->waiters)
				ev->waiters->prev = &w[i];
			ev->waiters = &w[i];
			w[i].queued = true;
		}
	}
	/* in the process's list of calls in progress (emu_events_stalled()) */
	if (a->timeout) {
		sleeper.w = w;
		sleeper.n = n;
		if (a->timeout != KFD_EVENT_TIMEOUT_INFINITE_EMU)
			sleeper.deadline_ns = (uint64_t)deadline.tv_sec * 1000000000ull +
					      (uint64_t)deadline.tv_nsec;
		sleeper.next = p->sleepers;
		p->sleepers = &sleeper;
		listed = true;
	}
	for (;;) {
		uint32_t seq;
		long fr;

		result = test_condition(all, n, w);
		if (result != KFD_IOC_WAIT_RESULT_TIMEOUT || !a->timeout)
			break;
		/* Any wake after this snapshot (wakers hold p->lock) changes
		 * the word, so FUTEX_WAIT returns at once: nothing is lost. */
		seq = __atomic_load_n(&sleeper.seq, __ATOMIC_ACQUIRE);
		pthread_mutex_unlock(&p->lock);
		fr = syscall(SYS_futex, &sleeper.seq, FUTEX_WAIT_BITSET_PRIVATE, seq,
			     a->timeout == KFD_EVENT_TIMEOUT_INFINITE_EMU ? NULL : &deadline, NULL,
			     FUTEX_BITSET_MATCH_ANY);
		__atomic_fetch_add(&p->wait_wakeups, 1, __ATOMIC_RELAXED);
		if (fr && errno == ETIMEDOUT) {
			pthread_mutex_lock(&p->lock);
			result = test_condition(all, n, w);
			break;
		}
		pthread_mutex_lock(&p->lock);
	}
	if (result == KFD_IOC_WAIT_RESULT_COMPLETE)
		r = copy_signaled_data(p->emu, n, w, data);
out_unlock:
	for (struct emu_sleeper **sp = &p->sleepers; listed && *sp; sp = &(*sp)->next)
		if (*sp == &sleeper) {
			*sp = sleeper.next;
			break;
		}
	/* free_waiters: dequeue and drop references (destroyed events are
	 * freed when their last waiter lets go). */
	for (uint32_t i = 0; i < n; i++) {
		if (!w[i].held)
			continue;
		waiter_dequeue(&w[i]);
		event_put(w[i].held);
	}
	pthread_mutex_unlock(&p->lock);
	free(chunk);
	free(w);
out_noalloc:
	if (r)
		result = KFD_IOC_WAIT_RESULT_FAIL;
	else if (result == KFD_IOC_WAIT_RESULT_FAIL)
		r = -EIO;
	a->wait_result = result;
	return r;
}

/*
 * The WAIT_EVENTS calls of @p that sleep with their condition unmet and
 * would not time out by themselves within @horizon_ns of @now_ns: only a
 * signal can end them. The ids of the events they wait on that are not
 * signalled go to @ids (at most @max; *@nids counts them all). p->lock
 * held.
 */
uint32_t emu_events_stalled(struct emu_proc *p, uint64_t now_ns, uint64_t horizon_ns, uint32_t *ids,
			    uint32_t max, uint32_t *nids)
{
	uint32_t waits = 0;

	for (struct emu_sleeper *s = p->sleepers; s; s = s->next) {
		if (s->deadline_ns && s->deadline_ns <= now_ns + horizon_ns)
			continue;
		if (test_condition(s->all, s->n, s->w) != KFD_IOC_WAIT_RESULT_TIMEOUT)
			continue;
		waits++;
		for (uint32_t i = 0; i < s->n; i++) {
			if (s->w[i].activated)
				continue;
			if (*nids < max)
				ids[*nids] = s->w[i].ev->id;
			++*nids;
		}
	}
	return waits;
}

/* ---- interrupts (kfd_signal_event_interrupt, l.731) -------------------- */

static bool full_id(uint32_t bits)
{
	return bits > 31 || (1u << bits) >= LIMIT;
}

/* lookup_signaled_event_by_partial_id (l.160); !mailbox: its
 * signal_mailbox_updated = false (emu_gc12_1.c), the full id is trusted. */
static struct emu_event *lookup_partial(struct emu_proc *p, uint32_t id, uint32_t bits,
					bool mailbox)
{
	struct emu_event *ev = NULL;

	if (!p->signal_page || id >= LIMIT)
		return NULL;
	if (full_id(bits)) {
		if (mailbox && page_slot(p, id) == KFDSIG_UNSIGNALED_SLOT)
			return NULL;
		return p->slots_ev[id];
	}
	/* Only the low bits are known: walk id, id + 2^bits, ... and take
	 * the first signalled slot that has an event. */
	for (; id < LIMIT && !ev; id += 1u << bits) {
		if (page_slot(p, id) == KFDSIG_UNSIGNALED_SLOT)
			continue;
		ev = p->slots_ev[id];
	}
	return ev;
}

/* set_event_from_interrupt: acknowledge (slot back to all ones), set. */
static int set_from_interrupt(struct emu_proc *p, struct emu_event *ev,
			      struct kfdsig_emu_irq_record *r)
{
	if (!ev || !gpu_signalable(ev))
		return 0;
	slot_write(&p->signal_page[ev->id], KFDSIG_UNSIGNALED_SLOT);
	set_event(p, ev);
	if (r->nsignaled < KFDSIG_EMU_IRQ_TRACE_EVENTS)
		r->events[r->nsignaled] = ev->id;
	r->nsignaled++;
	return 1;
}

static int signal_interrupt_locked(struct emu_proc *p, uint32_t partial_id, uint32_t bits,
				   bool mailbox, struct kfdsig_emu_irq_record *r)
{
	struct emu_event *ev = NULL;
	int n = 0;

	p->irq_count++;
	if (bits)
		ev = lookup_partial(p, partial_id, bits, mailbox);
	if (ev) {
		r->path = !full_id(bits) ? KFDSIG_EMU_PATH_PARTIAL
			  : mailbox	 ? KFDSIG_EMU_PATH_FAST
					 : KFDSIG_EMU_PATH_TRUSTED;
		return set_from_interrupt(p, ev, r);
	}
	if (!p->signal_page) {
		r->path = KFDSIG_EMU_PATH_DROPPED;
		r->drop = KFDSIG_EMU_DROP_NO_SIGNAL_PAGE;
		return 0;
	}
	/* v6.14 - v6.18: a full id naming an unsignalled slot is dropped
	 * without a scan (de844846f72b, reverted by 88ef4de35f46). */
	if (p->emu->profile == KFDSIG_EMU_KERNEL_V6_14_DROP && bits && full_id(bits) &&
	    partial_id < LIMIT && page_slot(p, partial_id) == KFDSIG_UNSIGNALED_SLOT) {
		p->irq_dropped++;
		r->path = KFDSIG_EMU_PATH_DROPPED;
		r->drop = KFDSIG_EMU_DROP_V6_14;
		return 0;
	}
	/* The exhaustive scan: by IDR entry when there are few events, by
	 * slot otherwise; both start above the reserved id 0. */
	r->path = KFDSIG_EMU_PATH_SCAN;
	if (p->signal_event_count < LIMIT / 64) {
		for (uint32_t id = 1; id < LIMIT; id++)
			if (p->slots_ev[id] && page_slot(p, id) != KFDSIG_UNSIGNALED_SLOT)
				n += set_from_interrupt(p, p->slots_ev[id], r);
	} else {
		for (uint32_t id = 1; id < LIMIT; id++)
			if (page_slot(p, id) != KFDSIG_UNSIGNALED_SLOT)
				n += set_from_interrupt(p, p->slots_ev[id], r);
	}
	return n;
}

int kfdsig_emu_signal_event_interrupt(struct kfdsig_emu *emu, int pasid, uint32_t partial_id,
				      uint32_t valid_id_bits)
{
	struct emu_proc *p;
	int n;

	if (!emu)
		return -EINVAL;
	p = emu_proc_get(emu, pasid);
	if (!p)
		return -ESRCH;
	emu_wake_begin();
	pthread_mutex_lock(&p->lock);
	n = signal_interrupt_locked(p, partial_id, valid_id_bits, true,
				    &(struct kfdsig_emu_irq_record){ 0 });
	pthread_mutex_unlock(&p->lock);
	emu_wake_end();
	emu_proc_put(p);
	return n;
}

/* ---- the ISR classes (cik_event_interrupt.c, kfd_int_process_v9/v10/v11.c) ------------------------------------ */

static int hw_exception_locked(struct emu_proc *p)
{
	int n = 0;

	for (size_t i = 0; i < p->nothers; i++)
		if (p->others[i]->type == KFD_IOC_EVENT_HW_EXCEPTION) {
			set_event(p, p->others[i]);
			n++;
		}
	return n;
}

/*
 * The IH ring entry an emulated engine's interrupt makes. Source ids:
 * cik_int.h CIK_INTSRC_* (CIK has no client id); soc15_int.h SOC15_INTSRC_*
 * with soc15_ih_clientid.h clients (CP from GRBM_CP 0x14, SDMA from SDMA0
 * 0x08, SQ messages from SE0SH 0x0a); on SOC21 (the v11 class) the SDMA
 * trap is SOC21_INTSRC_SDMA_TRAP 49 from the GFX client 0x0a
 * (kfd_int_process_v11.c). SQ messages carry m0 in the class's layout
 * (emu_gen_sq_iv_context: kfd_int_process_v9/v10/v11.c SQ_INTERRUPT_WORD_*).
 */
static void ih_entry(const struct emu_gpu *g, uint32_t xcc, enum kfdsig_emu_irq_source src,
		     uint32_t ctx, struct kfdsig_emu_irq_record *r)
{
	const struct emu_gen *gen = &g->gen;
	bool cik = gen->irq == KFDSIG_IRQ_CIK;
	bool soc21 = gen->irq == KFDSIG_IRQ_V11 || gen->irq == KFDSIG_IRQ_V12_1;

	r->vmid = g->vmid;
	/* v12_1: the node id of the XCC that raised it (emu_gc12_1.c);
	 * v9_4_3: of the node's XCC @xcc, or its AID for SDMA (emu_xcc.c). */
	if (gen->irq == KFDSIG_IRQ_V12_1)
		r->node_id = emu_gc121_node_id(g->xn.xcc_first + xcc);
	if (gen->irq == KFDSIG_IRQ_V9_4_3)
		r->node_id = emu_xcc_node_id(g->xn.xcc_first + xcc, src);
	r->context_id0 = cik ? ctx & 0x0fffffff : ctx; /* CIK IV data is dw1[27:0] */
	switch (src) {
	case KFDSIG_EMU_IRQ_CP_EOP:
		r->client_id = cik ? 0 : 0x14;
		r->source_id = cik ? 0xb5 : 181;
		break;
	case KFDSIG_EMU_IRQ_SDMA_TRAP:
		r->client_id = cik ? 0 : soc21 ? 0x0a : 0x08;
		r->source_id = cik ? 0xe0 : soc21 ? 49 : 224;
		break;
	case KFDSIG_EMU_IRQ_SQ_MSG:
		r->client_id = cik ? 0 : 0x0a;
		r->source_id = cik ? 0xef : 239;
		if (!cik)
			emu_gen_sq_iv_context(gen, ctx, &r->context_id0, &r->context_id1);
		break;
	default:
		r->client_id = cik ? 0 : 0x14;
		r->source_id = cik ? 0xb7 : 183;
		break;
	}
}

static uint32_t low_bits(uint32_t v, uint32_t bits)
{
	return bits >= 32 ? v : v & ((1u << bits) - 1);
}

/*
 * The ISR and the bottom half of the GPU's handler class, from the IH entry:
 * drop filters, then the (partial) id and its valid bits per source.
 * Return: the valid bits (0: no event id), or -1 when the ISR drops it.
 */
static int isr_derive(const struct emu_gen *gen, struct kfdsig_emu_irq_record *r)
{
	uint32_t c0 = r->context_id0, c1 = r->context_id1, data;

	switch (r->source) {
	case KFDSIG_EMU_IRQ_CP_EOP:
		/* event_interrupt_isr_v9(): context id 0 dropped when
		 * context_id_expected() (the v9 rows of emu_gen.c). */
		if (!c0 && emu_gen_drops_ctx0(gen)) {
			r->drop = KFDSIG_EMU_DROP_CTX0;
			return -1;
		}
		/* event_interrupt_isr_v11(): AMDGPU_FENCE_MES_QUEUE_FLAG. */
		if (gen->drops_bit24 && (c0 & 0x1000000u)) {
			r->drop = KFDSIG_EMU_DROP_BIT24;
			return -1;
		}
		r->id = low_bits(c0, gen->eop_bits);
		return gen->eop_bits;
	case KFDSIG_EMU_IRQ_SDMA_TRAP:
		r->id = low_bits(c0, gen->sdma_bits);
		return gen->sdma_bits;
	case KFDSIG_EMU_IRQ_SQ_MSG:
		/* v9: KFD_CONTEXT_ID_GET_SQ_INT_DATA(ctx0, ctx1); v10, v11
		 * and cik: the data at the bottom of context id 0. */
		data = c0;
		if (gen->irq == KFDSIG_IRQ_V9 || gen->irq == KFDSIG_IRQ_V9_4_3)
			data = (c0 & 0xfff) | ((c0 >> 16) & 0xf000) | ((c1 << 16) & 0xff0000);
		r->id = low_bits(data, gen->sq_bits);
		return gen->sq_bits;
	default:
		return 0;
	}
}

int kfdsig_emu_interrupt(struct kfdsig_emu *emu, int pasid, uint32_t gpu_id,
			 enum kfdsig_emu_irq_source source, uint32_t ctx)
{
	return emu_interrupt_xcc(emu, pasid, gpu_id, source, ctx, 0);
}

int emu_interrupt_xcc(struct kfdsig_emu *emu, int pasid, uint32_t gpu_id,
		      enum kfdsig_emu_irq_source source, uint32_t ctx, uint32_t xcc)
{
	struct kfdsig_emu_irq_record r = { .gpu_id = gpu_id, .pasid = pasid, .source = source };
	struct emu_gpu *g;
	struct emu_proc *p;
	int n = 0, bits;

	if (!emu)
		return -EINVAL;
	g = emu_gpu_by_id(emu, gpu_id);
	if (!g)
		return -ENOENT;
	if ((unsigned)source > KFDSIG_EMU_IRQ_CP_BAD_OPCODE)
		return -EINVAL;
	if (xcc >= g->num_xcc)
		return -EINVAL;
	ih_entry(g, xcc, source, ctx, &r);
	/* event_interrupt_isr_v12_1() and event_interrupt_isr_v9_4_3():
	 * kfd_irq_is_from_node() first. */
	if ((g->gen.irq == KFDSIG_IRQ_V12_1 &&
	     !emu_gc121_from_node(g->xn.interrupt_bitmap, r.node_id, r.vmid)) ||
	    (g->gen.irq == KFDSIG_IRQ_V9_4_3 && !emu_xcc_from_node(&g->xn, r.node_id, r.vmid))) {
		r.path = KFDSIG_EMU_PATH_DROPPED;
		r.drop = KFDSIG_EMU_DROP_NODE;
		emu_trace_add(emu, &r);
		return 0;
	}
	bits = isr_derive(&g->gen, &r);
	if (bits < 0) {
		r.path = KFDSIG_EMU_PATH_DROPPED;
		emu_trace_add(emu, &r);
		return 0;
	}
	r.valid_bits = (uint32_t)bits;
	p = emu_proc_get_on(emu, pasid, g);
	if (!p) {
		r.path = KFDSIG_EMU_PATH_DROPPED;
		r.drop = KFDSIG_EMU_DROP_NO_PROCESS;
		emu_trace_add(emu, &r);
		return -ESRCH;
	}
	emu_wake_begin();
	pthread_mutex_lock(&p->lock);
	if (source == KFDSIG_EMU_IRQ_CP_BAD_OPCODE) {
		/* CIK: kfd_signal_hw_exception_event; SOC15 classes hand
		 * packet errors to the debugger/runtime exception path. */
		r.path = KFDSIG_EMU_PATH_EXCEPTION;
		if (g->gen.irq == KFDSIG_IRQ_CIK)
			n = hw_exception_locked(p);
	} else {
		n = signal_interrupt_locked(
			p, r.id, r.valid_bits,
			emu_gc121_mailbox_updated(&g->gen, source, emu->profile), &r);
	}
	/* Recorded before the lock lets a woken waiter go on. */
	emu_trace_add(emu, &r);
	pthread_mutex_unlock(&p->lock);
	emu_wake_end();
	emu_proc_put(p);
	return n;
}

/* ---- exceptions (kfd_events.c kfd_signal_hw_exception_event() / kfd_signal_vm_fault_event() / kfd_signal_reset_event()) -------------------------------------------- */

int kfdsig_emu_hw_exception(struct kfdsig_emu *emu, int pasid)
{
	struct emu_proc *p;
	int n;

	if (!emu)
		return -EINVAL;
	p = emu_proc_get(emu, pasid);
	if (!p)
		return -ESRCH;
	emu_wake_begin();
	pthread_mutex_lock(&p->lock);
	n = hw_exception_locked(p);
	pthread_mutex_unlock(&p->lock);
	emu_wake_end();
	emu_proc_put(p);
	return n;
}

int kfdsig_emu_vm_fault(struct kfdsig_emu *emu, int pasid, uint32_t gpu_id, uint64_t va,
			uint32_t flags)
{
	struct kfd_hsa_memory_exception_data d = { 0 };
	struct emu_gpu *g;
	struct emu_proc *p;
	char body[80];
	int n = 0, len;

	if (!emu)
		return -EINVAL;
	g = emu_gpu_by_id(emu, gpu_id);
	if (!g)
		return -ENOENT;
	p = emu_proc_get_on(emu, pasid, g);
	if (!p)
		return -ESRCH;
	d.va = va;
	d.gpu_id = gpu_id;
	d.failure.NotPresent = !!(flags & KFDSIG_EMU_FAULT_NOT_PRESENT);
	d.failure.ReadOnly = !!(flags & KFDSIG_EMU_FAULT_READ_ONLY);
	d.failure.NoExecute = !!(flags & KFDSIG_EMU_FAULT_NO_EXECUTE);
	emu_wake_begin();
	pthread_mutex_lock(&p->lock);
	for (size_t i = 0; i < p->nothers; i++)
		if (p->others[i]->type == KFD_IOC_EVENT_MEMORY) {
			p->others[i]->mem = d;
			set_event(p, p->others[i]);
			n++;
		}
	pthread_mutex_unlock(&p->lock);
	emu_wake_end();
	/* kfd_smi_event_update_vmfault: "%x:%s\n" pid, task name, to every
	 * client (no pid filter). */
	len = snprintf(body, sizeof(body), "%x:%s\n", (unsigned)p->pid, p->task_name);
	emu_smi_add(g, 0, KFD_SMI_EVENT_VMFAULT, body, (size_t)len);
	emu_proc_put(p);
	return n;
}

int kfdsig_emu_gpu_reset(struct kfdsig_emu *emu, uint32_t gpu_id, bool ecc)
{
	struct kfd_hsa_hw_exception_data hw = { 0 };
	struct kfd_hsa_memory_exception_data mem = { 0 };
	const char *cause = ecc ? EMU_RESET_CAUSE_RAS : EMU_RESET_CAUSE_HANG;
	struct emu_proc *p, *next;
	struct emu_gpu *g;
	char body[96];
	int n = 0, len;

	if (!emu)
		return -EINVAL;
	g = emu_gpu_by_id(emu, gpu_id);
	if (!g)
		return -ENOENT;
	/* GPU_PRE_RESET: seq incremented first; "%x %s\n" seq, cause */
	pthread_mutex_lock(&emu->lock);
	g->reset_seq++;
	len = snprintf(body, sizeof(body), "%x %s\n", g->reset_seq, cause);
	pthread_mutex_unlock(&emu->lock);
	emu_smi_add(g, 0, KFD_SMI_EVENT_GPU_PRE_RESET, body, (size_t)len);

	/* kfd_signal_reset_event */
	hw.memory_lost = 1;
	hw.reset_cause = ecc ? KFD_HW_EXCEPTION_ECC : KFD_HW_EXCEPTION_GPU_HANG;
	hw.gpu_id = gpu_id;
	mem.ErrorType = KFD_MEM_ERR_SRAM_ECC;
	mem.failure.imprecise = 1;
	mem.gpu_id = gpu_id;
	/* kfd_signal_reset_event walks the live processes (the process hash
	 * table), not every pasid ever handed out. */
	for (p = emu_proc_next_live(emu, NULL); p; p = next) {
		emu_wake_begin();
		pthread_mutex_lock(&p->lock);
		for (size_t i = 0; i < p->nothers; i++) {
			struct emu_event *ev = p->others[i];
			if (ev->type == KFD_IOC_EVENT_HW_EXCEPTION) {
				ev->hw = hw;
				set_event(p, ev);
				n++;
			} else if (ev->type == KFD_IOC_EVENT_MEMORY && ecc) {
				ev->mem = mem;
				set_event(p, ev);
				n++;
			}
		}
		pthread_mutex_unlock(&p->lock);
		emu_wake_end();
		next = emu_proc_next_live(emu, p);
		emu_proc_put(p);
	}
	len = snprintf(body, sizeof(body), "%x %s\n", g->reset_seq, cause);
	emu_smi_add(g, 0, KFD_SMI_EVENT_GPU_POST_RESET, body, (size_t)len);
	return n;
}

int kfdsig_emu_event_age_set(struct kfdsig_emu *emu, int pasid, uint32_t event_id, uint64_t age)
{
	struct emu_event *ev;
	struct emu_proc *p;
	int r = 0;

	if (!emu || !age)
		return -EINVAL;
	p = emu_proc_get(emu, pasid);
	if (!p)
		return -ESRCH;
	pthread_mutex_lock(&p->lock);
	ev = lookup(p, event_id);
	if (ev)
		ev->age = age;
	else
		r = -EINVAL;
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	return r;
}
