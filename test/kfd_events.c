/* SPDX-License-Identifier: MIT */
/*
 * Event rules of amdkfd (kfd_events.c) through the backend against the
 * emulated KFD: ids, the signal page (user and kernel), ENOSPC, the
 * 256-slot window, the user page rules, slot addresses, event age,
 * auto-reset latching, wait any/all, timeouts, failures, exceptions and
 * per-open isolation.
 */
#include <pthread.h>
#include <stddef.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

static int64_t ms_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_ids_and_slots(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,gfx1100");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g0 = t_gpu(kfd, 0), g1 = t_gpu(kfd, 1);
	struct kfdsig_event e1, e2, m;
	uint64_t *page = NULL, va = 0;

	CHECK_EQ(kfdsig_kfd_signal_page(kfd, &page, &va), -ENOENT, "no page before events");
	CHECK(kfdsig_kfd_acquire_vm(kfd, g0) == 0 && kfdsig_kfd_acquire_vm(kfd, g1) == 0, "vms");
	e1 = t_event(kfd, KFDSIG_EVENT_SIGNAL, true);
	e2 = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	CHECK_EQ(e1.id, 1, "id 0 is reserved: the first event is 1");
	CHECK_EQ(e2.id, 2, "then 2");
	CHECK_EQ(e1.slot_index, e1.id, "slot index == id");
	CHECK(kfdsig_kfd_signal_page(kfd, &page, &va) == 0, "page exists");
	CHECK(e1.slot == page + 1, "slot = page + 8 * id (CPU)");
	CHECK_EQ(e2.slot_va, va + 16, "slot = page + 8 * id (GPU VA)");
	CHECK_EQ(*e1.slot, UINT64_MAX, "new slot is unsignalled");
	/* One page, shared by every GPU of the process. */
	for (int i = 0; i < 2; i++) {
		uint32_t g = i ? g1 : g0;
		uint64_t *gv = kfdsig_emu_gpu_ptr(
			emu, kfdsig_emu_pasid_on(emu, kfdsig_kfd_fd(kfd), g), g, e2.slot_va, 8);
		CHECK(gv != NULL, "slot mapped on gpu %d", i);
		if (gv) {
			*gv = 0x1000 + (uint64_t)i;
			CHECK_EQ(*e2.slot, 0x1000 + (uint64_t)i, "GPU %d store lands in the slot",
				 i);
		}
	}
	m = t_event(kfd, KFDSIG_EVENT_MEMORY, false);
	CHECK(m.id >= 0x40000000u, "non-signal events get ids from 0x40000000");
	CHECK(m.slot == NULL && m.slot_va == 0, "and no slot");
	CHECK(kfdsig_kfd_event_destroy(kfd, e1.id) == 0, "destroy");
	CHECK_EQ(t_event(kfd, KFDSIG_EVENT_SIGNAL, true).id, 1, "lowest free id reused");
	CHECK_EQ(kfdsig_kfd_event_destroy(kfd, 77), -EINVAL, "destroy unknown");
	CHECK_EQ(kfdsig_kfd_event_set(kfd, m.id), -EINVAL, "MEMORY events are not CPU-settable");
	CHECK_EQ(kfdsig_kfd_event_reset(kfd, 999), -EINVAL, "reset unknown");
	CHECK_EQ(kfdsig_kfd_set_signal_page_mode(kfd, KFDSIG_SIGNAL_PAGE_KERNEL), -EBUSY,
		 "page mode fixed once the page exists");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_enospc_user_page(void)
{
	struct kfdsig_emu *emu = t_emu("gfx942");
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_event ev;
	uint32_t made = 0;
	int r;

	while ((r = kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, true, &ev)) == 0)
		made++;
	CHECK_EQ(made, 4095, "4095 signal events with a 32 KiB page");
	CHECK_EQ(r, -ENOSPC, "then ENOSPC");
	CHECK_EQ(ev.id, 0, "no event on failure");
	CHECK(kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_MEMORY, false, &ev) == 0,
	      "other types do not use slots");
	CHECK(kfdsig_kfd_event_destroy(kfd, 4095) == 0, "free the last slot");
	CHECK(kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, true, &ev) == 0 && ev.id == 4095,
	      "and get it back");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static int raw_create(struct kfdsig_kfd *kfd, uint64_t page, struct kfd_ioctl_create_event_args *a)
{
	memset(a, 0, sizeof(*a));
	a->event_page_offset = page;
	a->event_type = KFD_IOC_EVENT_SIGNAL;
	a->auto_reset = 1;
	return kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, a);
}

/* The kernel-allocated page: 256 slots until user space mmaps it. */
static void test_kernel_page_window(void)
{
	struct kfdsig_emu *emu = t_emu("gfx1103");
	struct kfdsig_kfd *kfd = t_open(emu);
	const struct kfdsig_kfd_ops *ops = kfdsig_kfd_ops_of(kfd);
	struct kfd_ioctl_create_event_args a;
	void *map = NULL;
	int r, made = 0;

	CHECK_EQ(ops->mmap(ops->ctx, &map, NULL, 32768, PROT_READ | PROT_WRITE, MAP_SHARED,
			   kfdsig_kfd_fd(kfd), KFDSIG_MMAP_TYPE_EVENTS),
		 -EINVAL, "no page to map yet");
	while ((r = raw_create(kfd, 0, &a)) == 0) {
		if (!made) {
			CHECK_EQ(a.event_page_offset, KFDSIG_MMAP_TYPE_EVENTS,
				 "events mmap offset");
			CHECK_EQ(a.event_id, 1, "first id 1");
		}
		made++;
	}
	CHECK_EQ(made, 255, "256-slot window minus the reserved id 0");
	CHECK_EQ(r, -ENOSPC, "ENOSPC at the window");
	CHECK_EQ(ops->mmap(ops->ctx, &map, NULL, 65536, PROT_READ | PROT_WRITE, MAP_SHARED,
			   kfdsig_kfd_fd(kfd), KFDSIG_MMAP_TYPE_EVENTS),
		 -EINVAL, "more than 32 KiB refused");
	CHECK_EQ(ops->mmap(ops->ctx, &map, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			   kfdsig_kfd_fd(kfd), KFDSIG_MMAP_TYPE_EVENTS),
		 0, "map one page");
	while (raw_create(kfd, 0, &a) == 0)
		made++;
	CHECK_EQ(made, 511, "a 4 KiB mapping gives 512 slots");
	if (map) {
		CHECK_EQ(((uint64_t *)map)[300], UINT64_MAX, "mapped slots read all ones");
		ops->munmap(ops->ctx, map, 4096);
	}
	CHECK_EQ(ops->mmap(ops->ctx, &map, NULL, 32768, PROT_READ | PROT_WRITE, MAP_SHARED,
			   kfdsig_kfd_fd(kfd), KFDSIG_MMAP_TYPE_EVENTS),
		 0, "map 32 KiB");
	while (raw_create(kfd, 0, &a) == 0)
		made++;
	CHECK_EQ(made, 4095, "32 KiB mapped: 4095 events");
	ops->munmap(ops->ctx, map, 32768);
	kfdsig_kfd_close(kfd);

	/* The backend's kernel-page mode maps 32 KiB itself. */
	kfd = t_open(emu);
	CHECK(kfdsig_kfd_set_signal_page_mode(kfd, KFDSIG_SIGNAL_PAGE_KERNEL) == 0, "mode");
	made = 0;
	{
		struct kfdsig_event ev;
		while (kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, false, &ev) == 0) {
			if (made == 299) {
				CHECK_EQ(*ev.slot, UINT64_MAX,
					 "slot of id 300 through the mapping");
				CHECK(kfdsig_kfd_event_set(kfd, ev.id) == 0, "set");
			}
			made++;
		}
	}
	CHECK_EQ(made, 4095, "kernel page mode: 4095 events");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

/* User page rules: >= 32 KiB GTT, only once, EINVAL otherwise. */
static void test_user_page_rules(void)
{
	struct kfdsig_emu *emu = t_emu("gfx1030");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g = t_gpu(kfd, 0);
	const struct kfdsig_kfd_bo *small = NULL, *vram = NULL, *good = NULL, *good2 = NULL;
	struct kfd_ioctl_create_event_args a;
	struct kfd_ioctl_free_memory_of_gpu_args fr;

	CHECK(kfdsig_kfd_alloc(kfd, g, 16384, KFDSIG_KFD_MEM_GTT_UNCACHED, &small) == 0, "16K");
	CHECK(kfdsig_kfd_alloc(kfd, g, 32768,
			       KFD_IOC_ALLOC_MEM_FLAGS_VRAM | 0x80000000u /* WRITABLE */,
			       &vram) == 0,
	      "VRAM");
	CHECK(kfdsig_kfd_alloc(kfd, g, 32768, KFDSIG_KFD_MEM_GTT_UNCACHED, &good) == 0, "32K");
	CHECK(kfdsig_kfd_alloc(kfd, g, 65536, KFDSIG_KFD_MEM_GTT_UNCACHED, &good2) == 0, "64K");
	T_REQUIRE(small && vram && good && good2, "buffers");
	CHECK_EQ(raw_create(kfd, small->handle, &a), -EINVAL, "page smaller than 32 KiB");
	CHECK_EQ(raw_create(kfd, vram->handle, &a), -EINVAL, "VRAM page");
	CHECK_EQ(raw_create(kfd, KFDSIG_MAKE_HANDLE(g, 99), &a), -EINVAL, "unknown handle");
	CHECK_EQ(raw_create(kfd, KFDSIG_MAKE_HANDLE(0x7777, 0), &a), -EINVAL, "unknown gpu");
	memset(good->cpu, 0, 32768);
	CHECK_EQ(raw_create(kfd, good->handle, &a), 0, "32 KiB GTT page");
	CHECK_EQ(a.event_id, 1, "event created with the page");
	CHECK_EQ(((uint64_t *)good->cpu)[4095], UINT64_MAX, "kernel sets all 4096 slots to ones");
	CHECK_EQ(raw_create(kfd, good2->handle, &a), -EINVAL, "a page only once");
	fr.handle = good->handle;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), -EPERM,
		 "the signal page cannot be freed");
	kfdsig_kfd_close(kfd);

	/* kernel page first, then a user page: refused */
	kfd = t_open(emu);
	CHECK(kfdsig_kfd_alloc(kfd, g, 32768, KFDSIG_KFD_MEM_GTT_UNCACHED, &good) == 0, "32K");
	CHECK_EQ(raw_create(kfd, 0, &a), 0, "kernel page");
	CHECK_EQ(raw_create(kfd, good->handle, &a), -EINVAL, "page already set");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);

	/* Every profile with commit 8a70a26c9f34 refuses a small page. */
	static const char *const fixed[] = { "gfx1030,profile=v7.1", "gfx1030,profile=v7.3" };
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		emu = t_emu(fixed[i]);
		kfd = t_open(emu);
		small = NULL;
		CHECK(kfdsig_kfd_alloc(kfd, t_gpu(kfd, 0), 32768 - 4096,
				       KFDSIG_KFD_MEM_GTT_UNCACHED, &small) == 0,
		      "28K");
		T_REQUIRE(small, "buffer");
		CHECK_EQ(raw_create(kfd, small->handle, &a), -EINVAL, "%s", fixed[i]);
		kfdsig_kfd_close(kfd);
		kfdsig_emu_destroy(emu);
	}
}

/* v6.14 - v6.18 as released predate the size check: a 16 KiB page is
 * taken, its 2048 slots set to ones, ids stay below 2048, and an
 * interrupt naming a slot past the buffer finds nothing there. */
static void test_small_page_v6_14(void)
{
	struct kfdsig_emu *emu = t_emu("gfx1030,profile=v6.14");
	struct kfdsig_kfd *kfd = t_open(emu);
	const struct kfdsig_kfd_bo *small = NULL;
	struct kfd_ioctl_create_event_args a;
	struct kfdsig_emu_irq_record rec;
	uint32_t gpu = t_gpu(kfd, 0);
	int pasid = t_pasid(emu, kfd);
	uint64_t *slots;
	int made = 1, r = 0;

	CHECK(kfdsig_kfd_alloc(kfd, t_gpu(kfd, 0), 16384, KFDSIG_KFD_MEM_GTT_UNCACHED, &small) == 0,
	      "16K");
	T_REQUIRE(small, "buffer");
	slots = small->cpu;
	memset(slots, 0, 16384);
	CHECK_EQ(raw_create(kfd, small->handle, &a), 0, "v6.14: a 16 KiB page is taken");
	CHECK_EQ(slots[2047], UINT64_MAX, "its last slot set to ones");
	CHECK_EQ(slots[1], UINT64_MAX, "the event's slot set to ones");
	while (made < 4096 && (r = raw_create(kfd, 0, &a)) == 0)
		made++;
	CHECK_EQ(made, 2047, "ids below 16 KiB / 8");
	CHECK_EQ(r, -ENOSPC, "then ENOSPC");
	/* a full id past the buffer: the slot reads unsignalled, which the
	 * v6.14 rule drops */
	CHECK_EQ(kfdsig_emu_interrupt(emu, pasid, gpu, KFDSIG_EMU_IRQ_CP_EOP, 3000), 0,
		 "id 3000: nothing signalled");
	CHECK(kfdsig_emu_irq_trace(emu, pasid, &rec, 1) == 1 &&
		      rec.path == KFDSIG_EMU_PATH_DROPPED && rec.drop == KFDSIG_EMU_DROP_V6_14,
	      "id 3000 past the buffer: dropped as an unsignalled slot");
	slots[5] = 0;
	CHECK_EQ(kfdsig_emu_interrupt(emu, pasid, gpu, KFDSIG_EMU_IRQ_CP_EOP, 5), 1,
		 "id 5 signalled");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_age(const char *spec, bool has_age)
{
	struct kfdsig_emu *emu = t_emu(spec);
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_event ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	enum kfdsig_wait_result res;
	struct kfdsig_wait_entry e;
	uint64_t age = 1;

	CHECK_EQ(t_wait1(kfd, ev.id, &age, 0, &res), 0, "wait");
	CHECK_EQ(res, KFDSIG_WAIT_TIMEOUT, "age 1 at creation: nothing new");
	CHECK(kfdsig_kfd_event_set(kfd, ev.id) == 0, "set");
	age = 1;
	CHECK_EQ(t_wait1(kfd, ev.id, &age, 0, &res), 0, "wait");
	CHECK_EQ(res, KFDSIG_WAIT_COMPLETE, "signalled");
	CHECK_EQ(age, has_age ? 2 : 0, "age copied back (0 without event age)");
	CHECK(kfdsig_kfd_event_set(kfd, ev.id) == 0 && kfdsig_kfd_event_set(kfd, ev.id) == 0,
	      "set twice");
	CHECK(kfdsig_kfd_event_reset(kfd, ev.id) == 0, "reset (does not touch the age)");
	age = 2;
	CHECK_EQ(t_wait1(kfd, ev.id, &age, 0, &res), 0, "wait");
	if (has_age) {
		CHECK_EQ(res, KFDSIG_WAIT_COMPLETE, "age changed: complete although reset");
		CHECK_EQ(age, 4, "age counts every set");
	} else {
		CHECK_EQ(res, KFDSIG_WAIT_TIMEOUT, "no age: reset wins (legacy)");
	}
	/* A stale age completes at once only where the kernel has ages. */
	memset(&e, 0, sizeof(e));
	e.event_id = t_event(kfd, KFDSIG_EVENT_SIGNAL, true).id;
	e.age = 5;
	CHECK_EQ(kfdsig_kfd_wait(kfd, &e, 1, false, 0, &res), 0, "wait");
	CHECK_EQ(res, has_age ? KFDSIG_WAIT_COMPLETE : KFDSIG_WAIT_TIMEOUT, "stale age");
	CHECK_EQ(e.fired, has_age, "fired reports the age change");
	CHECK_EQ(e.age, has_age ? 1 : 0, "current age returned");
	/* the age wraps to 2, never to 0 (legacy) or 1 (new) */
	if (has_age) {
		int pasid = t_pasid(emu, kfd);
		CHECK(kfdsig_emu_event_age_set(emu, pasid, ev.id, UINT64_MAX) == 0, "age ~0");
		CHECK(kfdsig_kfd_event_set(kfd, ev.id) == 0, "set");
		age = UINT64_MAX;
		CHECK(t_wait1(kfd, ev.id, &age, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
		      "wrap");
		CHECK_EQ(age, 2, "wrapped to 2");
		CHECK_EQ(kfdsig_emu_event_age_set(emu, pasid, 12345, 3), -EINVAL, "unknown event");
	}
	/* age 0: the legacy wait, even on 1.14 */
	age = 0;
	CHECK_EQ(t_wait1(kfd, e.event_id, &age, 0, &res), 0, "legacy wait");
	CHECK_EQ(res, KFDSIG_WAIT_TIMEOUT, "age 0 ignores the age");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

struct waiter_arg {
	struct kfdsig_kfd *kfd;
	uint32_t ids[2];
	uint32_t n;
	bool all;
	uint32_t timeout;
	int ret;
	enum kfdsig_wait_result res;
	volatile int started;
};

static void *waiter(void *p)
{
	struct waiter_arg *w = p;
	struct kfdsig_wait_entry e[2] = { { .event_id = w->ids[0] }, { .event_id = w->ids[1] } };

	__atomic_store_n(&w->started, 1, __ATOMIC_RELEASE);
	w->ret = kfdsig_kfd_wait(w->kfd, e, w->n, w->all, w->timeout, &w->res);
	return NULL;
}

static void test_auto_reset_and_waits(void)
{
	struct kfdsig_emu *emu = t_emu("gfx906");
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_event a = t_event(kfd, KFDSIG_EVENT_SIGNAL, true);
	struct kfdsig_event m1 = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	struct kfdsig_event m2 = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	struct kfdsig_wait_entry two[2] = { { .event_id = m1.id }, { .event_id = m2.id } };
	enum kfdsig_wait_result res;
	struct waiter_arg w;
	pthread_t th;
	int64_t t0;

	/* auto-reset, no waiter: latched until a waiter consumes it */
	CHECK(kfdsig_kfd_event_set(kfd, a.id) == 0, "set");
	CHECK(t_wait1(kfd, a.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE, "latched");
	CHECK(t_wait1(kfd, a.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT, "consumed");
	/* auto-reset with a waiter: the wake-up consumes the signal */
	memset(&w, 0, sizeof(w));
	w.kfd = kfd;
	w.ids[0] = a.id;
	w.n = 1;
	w.timeout = KFDSIG_WAIT_INFINITE;
	pthread_create(&th, NULL, waiter, &w);
	while (!__atomic_load_n(&w.started, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(20000);
	CHECK(kfdsig_kfd_event_set(kfd, a.id) == 0, "set while waited on");
	pthread_join(th, NULL);
	CHECK(w.ret == 0 && w.res == KFDSIG_WAIT_COMPLETE, "infinite wait woken");
	CHECK(t_wait1(kfd, a.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "not latched after waking a waiter");

	/* manual reset stays signalled until reset */
	CHECK(kfdsig_kfd_event_set(kfd, m1.id) == 0, "set manual");
	CHECK(t_wait1(kfd, m1.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE, "once");
	CHECK(t_wait1(kfd, m1.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE, "twice");
	/* any / all */
	CHECK(kfdsig_kfd_wait(kfd, two, 2, false, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "any: one of two");
	CHECK(kfdsig_kfd_wait(kfd, two, 2, true, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "all: not yet");
	CHECK(kfdsig_kfd_event_set(kfd, m2.id) == 0, "set second");
	CHECK(kfdsig_kfd_wait(kfd, two, 2, true, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "all: both");
	CHECK(kfdsig_kfd_event_reset(kfd, m1.id) == 0, "reset");
	CHECK(t_wait1(kfd, m1.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT, "reset");
	CHECK(kfdsig_kfd_wait(kfd, two, 0, false, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "no events: complete at once");

	/* finite timeout */
	t0 = ms_now();
	CHECK(t_wait1(kfd, m1.id, NULL, 60, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT, "60 ms");
	CHECK(ms_now() - t0 >= 60, "waited at least the timeout (%lld ms)",
	      (long long)(ms_now() - t0));
	/* finite wait woken before its timeout */
	memset(&w, 0, sizeof(w));
	w.kfd = kfd;
	w.ids[0] = m1.id;
	w.n = 1;
	w.timeout = 10000;
	t0 = ms_now();
	pthread_create(&th, NULL, waiter, &w);
	usleep(20000);
	CHECK(kfdsig_kfd_event_set(kfd, m1.id) == 0, "set");
	pthread_join(th, NULL);
	CHECK(w.ret == 0 && w.res == KFDSIG_WAIT_COMPLETE, "woken");
	CHECK(ms_now() - t0 < 5000, "well before the timeout");

	/* unknown id: -EINVAL and FAIL */
	CHECK_EQ(t_wait1(kfd, 3000, NULL, 0, &res), -EINVAL, "unknown id");
	CHECK_EQ(res, KFDSIG_WAIT_FAIL, "FAIL");
	/* destroyed while waited on: -EIO and FAIL */
	memset(&w, 0, sizeof(w));
	w.kfd = kfd;
	w.ids[0] = t_event(kfd, KFDSIG_EVENT_SIGNAL, true).id;
	w.ids[1] = a.id;
	w.n = 2;
	w.all = true;
	w.timeout = KFDSIG_WAIT_INFINITE;
	pthread_create(&th, NULL, waiter, &w);
	while (!__atomic_load_n(&w.started, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(20000);
	CHECK(kfdsig_kfd_event_destroy(kfd, w.ids[0]) == 0, "destroy");
	pthread_join(th, NULL);
	CHECK_EQ(w.ret, -EIO, "destroyed: -EIO");
	CHECK_EQ(w.res, KFDSIG_WAIT_FAIL, "destroyed: FAIL");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

/*
 * Waits without ages: the kernel copies nothing back for SIGNAL events, so
 * which fired is known only when the wait was for all of them or for one
 * alone; a wait for any of several reports each fired, unsure.
 */
/* fired_unsure sits in what was padding: the entry keeps 0.19's layout. */
_Static_assert(sizeof(struct kfdsig_wait_entry) == 64 &&
		       offsetof(struct kfdsig_wait_entry, memory) == 24 &&
		       offsetof(struct kfdsig_wait_entry, hw) == 48,
	       "struct kfdsig_wait_entry keeps its size and offsets");

static void test_fired_without_age(const char *spec)
{
	struct kfdsig_emu *emu = t_emu(spec);
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t a = t_event(kfd, KFDSIG_EVENT_SIGNAL, false).id;
	uint32_t b = t_event(kfd, KFDSIG_EVENT_SIGNAL, false).id;
	uint32_t c = t_event(kfd, KFDSIG_EVENT_SIGNAL, false).id;
	struct kfdsig_wait_entry e[3];
	enum kfdsig_wait_result res;

	memset(e, 0xff, sizeof(e));
	e[0].event_id = a;
	e[0].age = 0;
	CHECK(kfdsig_kfd_wait(kfd, e, 1, false, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "%s: nothing set", spec);
	CHECK(!e[0].fired && !e[0].fired_unsure, "%s: a timeout fires nothing", spec);
	CHECK(kfdsig_kfd_event_set(kfd, a) == 0 && kfdsig_kfd_event_set(kfd, b) == 0, "set a, b");
	CHECK(kfdsig_kfd_wait(kfd, e, 1, false, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "%s: one event", spec);
	CHECK(e[0].fired && !e[0].fired_unsure, "%s: one event alone: it fired, surely", spec);
	memset(e, 0, sizeof(e));
	e[0].event_id = a;
	e[1].event_id = b;
	CHECK(kfdsig_kfd_wait(kfd, e, 2, true, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "%s: all of a, b", spec);
	CHECK(e[0].fired && e[1].fired && !e[0].fired_unsure && !e[1].fired_unsure,
	      "%s: a wait for all completed: each fired, surely", spec);
	e[2].event_id = c;
	CHECK(kfdsig_kfd_wait(kfd, e, 3, false, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "%s: any of a, b, c", spec);
	CHECK(e[0].fired && e[1].fired && e[2].fired && e[0].fired_unsure && e[1].fired_unsure &&
		      e[2].fired_unsure,
	      "%s: any of several without ages: each reported fired, unsure", spec);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_exceptions(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,gfx803");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g0 = t_gpu(kfd, 0);
	int pasid = t_pasid(emu, kfd);
	struct kfdsig_event mem = t_event(kfd, KFDSIG_EVENT_MEMORY, false);
	struct kfdsig_event hw = t_event(kfd, KFDSIG_EVENT_HW_EXCEPTION, false);
	struct kfdsig_event sig = t_event(kfd, KFDSIG_EVENT_SIGNAL, true);
	struct kfdsig_wait_entry e[3] = { { .event_id = sig.id, .age = 1 },
					  { .event_id = mem.id },
					  { .event_id = hw.id } };
	enum kfdsig_wait_result res;

	CHECK(kfdsig_kfd_wait(kfd, e, 3, false, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "nothing yet");
	CHECK_EQ(kfdsig_emu_vm_fault(emu, pasid, g0, 0x7f0000123000ull,
				     KFDSIG_EMU_FAULT_NOT_PRESENT | KFDSIG_EMU_FAULT_READ_ONLY),
		 1, "one MEMORY event set");
	CHECK(kfdsig_kfd_wait(kfd, e, 3, false, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "fault wakes");
	CHECK(e[1].fired && !e[0].fired && !e[2].fired, "only the MEMORY entry fired");
	CHECK_EQ(e[1].memory.va, 0x7f0000123000ull, "fault address");
	CHECK_EQ(e[1].memory.gpu_id, g0, "fault gpu");
	CHECK(e[1].memory.not_present && e[1].memory.read_only && !e[1].memory.no_execute &&
		      !e[1].memory.imprecise,
	      "fault flags");
	CHECK_EQ(kfdsig_kfd_event_reset(kfd, mem.id), -EINVAL, "not CPU-resettable");
	CHECK_EQ(kfdsig_emu_hw_exception(emu, pasid), 1, "HW_EXCEPTION event set");
	e[1].event_id = hw.id;
	CHECK(kfdsig_kfd_wait(kfd, &e[1], 1, false, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "hw exception wakes");
	CHECK_EQ(kfdsig_emu_gpu_reset(emu, g0, true), 2, "ECC reset sets HW + MEMORY events");
	e[1].event_id = hw.id;
	e[2].event_id = mem.id;
	CHECK(kfdsig_kfd_wait(kfd, &e[1], 2, true, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "both");
	CHECK(e[1].hw.memory_lost && e[1].hw.reset_cause == 1 && e[1].hw.gpu_id == g0,
	      "reset data: memory lost, ECC, gpu");
	CHECK(e[2].memory.error_type == 1 && e[2].memory.imprecise && e[2].memory.gpu_id == g0,
	      "ECC memory error, imprecise");
	CHECK_EQ(kfdsig_emu_vm_fault(emu, 0x7fff, g0, 0, 0), -ESRCH, "unknown pasid");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_isolation(void)
{
	struct kfdsig_emu *emu = t_emu("gfx1100");
	struct kfdsig_kfd *a = t_open(emu), *b = t_open(emu);
	struct kfdsig_event ea = t_event(a, KFDSIG_EVENT_SIGNAL, false);
	struct kfdsig_event eb;
	enum kfdsig_wait_result res;

	CHECK_EQ(kfdsig_kfd_event_set(b, ea.id), -EINVAL, "B does not see A's event");
	CHECK_EQ(t_wait1(b, ea.id, NULL, 0, &res), -EINVAL, "nor wait on it");
	eb = t_event(b, KFDSIG_EVENT_SIGNAL, false);
	CHECK_EQ(eb.id, ea.id, "ids are per process, not global");
	CHECK(eb.slot != ea.slot, "separate pages");
	*ea.slot = ea.id;
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(emu, t_pasid(emu, a), ea.id, 32), 1, "A irq");
	CHECK(t_wait1(b, eb.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT, "B untouched");
	CHECK(t_wait1(a, ea.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE, "A signalled");
	kfdsig_kfd_close(a);
	kfdsig_kfd_close(b);
	kfdsig_emu_destroy(emu);
}

/* kfd_signal_reset_event: every live process gets its HW_EXCEPTION event,
 * whatever order they were opened in, and a closed one is not visited. */
static void test_reset_every_process(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *k[5];
	struct kfdsig_event hw[5];
	enum kfdsig_wait_result res;

	for (int i = 0; i < 5; i++) {
		k[i] = t_open(emu);
		hw[i] = t_event(k[i], KFDSIG_EVENT_HW_EXCEPTION, false);
	}
	kfdsig_kfd_close(k[2]); /* a gone process in the middle */
	k[2] = NULL;
	CHECK_EQ(kfdsig_emu_gpu_reset(emu, t_gpu(k[0], 0), false), 4,
		 "a reset sets the HW_EXCEPTION event of the 4 live processes");
	for (int i = 0; i < 5; i++) {
		if (!k[i])
			continue;
		CHECK(t_wait1(k[i], hw[i].id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
		      "process %d woken by the reset", i);
		kfdsig_kfd_close(k[i]);
	}
	kfdsig_emu_destroy(emu);
}

int main(void)
{
	test_ids_and_slots();
	test_enospc_user_page();
	test_kernel_page_window();
	test_user_page_rules();
	test_small_page_v6_14();
	test_age("gfx90a", true);
	test_age("gfx90a,kfd=1.13", false);
	test_fired_without_age("gfx90a");
	test_fired_without_age("gfx90a,kfd=1.13");
	test_auto_reset_and_waits();
	test_exceptions();
	test_isolation();
	test_reset_every_process();
	return t_result("kfd_events");
}
