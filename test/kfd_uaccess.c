/* SPDX-License-Identifier: MIT */
/*
 * User pointers the emulated KFD reads and writes: a bad
 * pointer gives the kernel's errno (-EFAULT) instead of crashing the
 * process, size limits come before any read with the kernel's errno, a
 * size-0 ioctl never copies, ring addresses in the kernel half are
 * -EFAULT (set_queue_properties_from_user), and the engines' read-pointer
 * store stays inside its buffer.
 */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_priv.h"
#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

#define KHALF 0xffff888000000000ull /* a kernel-half address */

static long pagesz(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* Two pages: the first read-write, the second PROT_NONE (a guard). */
static char *guarded(void)
{
	char *m = mmap(NULL, 2 * (size_t)pagesz(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	T_REQUIRE(m != MAP_FAILED, "mmap");
	T_REQUIRE(!mprotect(m + pagesz(), (size_t)pagesz(), PROT_NONE), "mprotect");
	return m;
}

static void test_helpers(void)
{
	char *g = guarded(), buf[16] = { 0 };
	long pg = pagesz();

	CHECK_EQ(emu_copy_from_user(buf, g, 16), 0, "readable");
	CHECK_EQ(emu_copy_from_user(buf, g + pg - 8, 16), -EFAULT, "straddles the guard");
	CHECK_EQ(emu_copy_from_user(buf, (void *)16, 4), -EFAULT, "NULL page");
	CHECK_EQ(emu_copy_from_user(buf, (void *)(uintptr_t)KHALF, 4), -EFAULT, "kernel half");
	CHECK_EQ(emu_copy_from_user(buf, NULL, 0), 0, "0 bytes from NULL succeed");
	CHECK_EQ(emu_copy_to_user((void *)"ro", buf, 2), -EFAULT, "read-only (rodata)");
	CHECK_EQ(emu_copy_to_user(g + pg, buf, 1), -EFAULT, "PROT_NONE");
	CHECK_EQ(emu_copy_to_user(g + pg - 4, "abcd", 4), 0, "writable");
	CHECK(!memcmp(g + pg - 4, "abcd", 4), "written");
	CHECK(!emu_access_ok(KHALF, 8) && !emu_access_ok(~0ull - 3, 8) && emu_access_ok(4096, 8),
	      "access_ok");
	/* the fallback path gives the same answers */
	emu_uaccess_force_pipe(true);
	CHECK_EQ(emu_copy_from_user(buf, g + pg - 8, 8), 0, "pipe: readable");
	CHECK_EQ(emu_copy_from_user(buf, g + pg - 8, 16), -EFAULT, "pipe: straddles");
	CHECK_EQ(emu_copy_to_user(g + pg, buf, 4), -EFAULT, "pipe: PROT_NONE");
	CHECK_EQ(emu_copy_to_user(g, "wxyz", 4), 0, "pipe: writable");
	CHECK(!memcmp(g, "wxyz", 4), "pipe: written");
	CHECK_EQ(emu_copy_from_user(buf, g, 4), 0, "pipe: left empty after a failure");
	CHECK(!memcmp(buf, "wxyz", 4), "pipe: the right bytes");
	emu_uaccess_force_pipe(false);
	munmap(g, 2 * (size_t)pg);
}

static void test_wait_events(bool pipe)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfd_ioctl_wait_events_args w = { 0 };
	struct kfdsig_event ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	char *g = guarded();
	abi_event_data *last = (void *)(g + pagesz() - sizeof(*last));
	uintptr_t bad[] = { 16, (uintptr_t)KHALF, (uintptr_t)(g + pagesz()) };

	emu_uaccess_force_pipe(pipe);
	for (size_t i = 0; i < KFDSIG_ARRAY_SIZE(bad); i++) {
		w = (struct kfd_ioctl_wait_events_args){ .events_ptr = bad[i], .num_events = 1 };
		CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), -EFAULT,
			 "events_ptr %#lx", (unsigned long)bad[i]);
		CHECK_EQ(w.wait_result, KFD_IOC_WAIT_RESULT_FAIL, "wait result FAIL");
	}
	/* kcalloc(num_events, sizeof(struct kfd_event_waiter)) fails past
	 * KMALLOC_MAX_SIZE: -ENOMEM before the array is read. */
	memset(last, 0, sizeof(*last));
	last->event_id = ev.id;
	w = (struct kfd_ioctl_wait_events_args){ .events_ptr = (uintptr_t)last,
						 .num_events = 74899 };
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), -ENOMEM, "74899 events");
	w.num_events = 1u << 20;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), -ENOMEM, "2^20 events");
	w.num_events = 2;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), -EFAULT,
		 "2 events, the second past the array");
	w.num_events = 1;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), 0, "1 event, timeout 0");
	CHECK_EQ(w.wait_result, KFD_IOC_WAIT_RESULT_TIMEOUT, "not signalled");
	/* the age is written back with copy_to_user: a read-only array */
	CHECK(kfdsig_kfd_event_set(kfd, ev.id) == 0, "set");
	last->signal_event_data.last_event_age = 1;
	T_REQUIRE(!mprotect(g, (size_t)pagesz(), PROT_READ), "mprotect");
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), -EFAULT,
		 "age copied back into a read-only array");
	CHECK_EQ(w.wait_result, KFD_IOC_WAIT_RESULT_FAIL, "FAIL");
	/* the argument struct itself */
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, (void *)16), -EFAULT, "arg 16");
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, (void *)(uintptr_t)KHALF), -EFAULT,
		 "arg in the kernel half");
	{
		struct kfd_ioctl_get_version_args *ro = (void *)g; /* read-only now */
		CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_GET_VERSION, ro), -EFAULT,
			 "output struct not writable");
	}
	emu_uaccess_force_pipe(false);
	munmap(g, 2 * (size_t)pagesz());
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

/* A WAIT_EVENTS array of many entries off the caller's stack: read in a
 * few user copies, not one per entry, with the kernel's answers for an
 * array that turns unreadable part way: each entry before the unreadable
 * one is taken in order (an unknown id there is -EINVAL, a signalled
 * auto-reset event is consumed), the unreadable one is -EFAULT. */
#define ARR_BAD 1500u /* the first unreadable entry */

static void test_wait_array(bool pipe)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_event a = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	struct kfdsig_event b = t_event(kfd, KFDSIG_EVENT_SIGNAL, true);
	size_t len =
		((ARR_BAD * sizeof(abi_event_data) + (size_t)pagesz() - 1) / (size_t)pagesz() + 1) *
		(size_t)pagesz();
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	abi_event_data *arr;
	struct kfd_ioctl_wait_events_args w;
	unsigned long before;

	T_REQUIRE(m != MAP_FAILED, "mmap");
	T_REQUIRE(!mprotect(m + len - (size_t)pagesz(), (size_t)pagesz(), PROT_NONE), "guard");
	arr = (abi_event_data *)(m + len - (size_t)pagesz()) - ARR_BAD;
	memset(arr, 0, ARR_BAD * sizeof(*arr));
	for (uint32_t i = 0; i < ARR_BAD; i++)
		arr[i].event_id = a.id;
	emu_uaccess_force_pipe(pipe);

	w = (struct kfd_ioctl_wait_events_args){ .events_ptr = (uintptr_t)arr,
						 .num_events = ARR_BAD };
	before = emu_uaccess_syscopies();
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), 0, "%u readable entries",
		 ARR_BAD);
	CHECK_EQ(w.wait_result, KFD_IOC_WAIT_RESULT_TIMEOUT, "none signalled");
	CHECK_EQ(emu_uaccess_syscopies() - before, 2ul,
		 "%u entries read in two user copies, not one per entry", ARR_BAD);

	w.num_events = ARR_BAD + 1;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), -EFAULT, "entry %u unreadable",
		 ARR_BAD);
	CHECK_EQ(w.wait_result, KFD_IOC_WAIT_RESULT_FAIL, "FAIL");

	/* an unknown id before the unreadable entry, in an earlier chunk and
	 * in the same one: -EINVAL, as the kernel meets it first */
	arr[700].event_id = 4000;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), -EINVAL, "unknown id at 700");
	arr[700].event_id = a.id;
	arr[1400].event_id = 4000;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), -EINVAL, "unknown id at 1400");
	arr[1400].event_id = a.id;

	/* a signalled auto-reset event before the unreadable entry is
	 * consumed by the failed wait (init_event_waiter ran for it) */
	CHECK(kfdsig_kfd_event_set(kfd, b.id) == 0, "set the auto-reset event");
	arr[1450].event_id = b.id;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), -EFAULT,
		 "auto-reset event, then entry %u unreadable", ARR_BAD);
	w = (struct kfd_ioctl_wait_events_args){ .events_ptr = (uintptr_t)&arr[1450],
						 .num_events = 1 };
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), 0, "wait on it alone");
	CHECK_EQ(w.wait_result, KFD_IOC_WAIT_RESULT_TIMEOUT,
		 "the failed wait consumed the auto-reset signal");

	/* all signalled: the whole array completes */
	arr[1450].event_id = a.id;
	CHECK(kfdsig_kfd_event_set(kfd, a.id) == 0, "set");
	w = (struct kfd_ioctl_wait_events_args){ .events_ptr = (uintptr_t)arr,
						 .num_events = ARR_BAD,
						 .wait_for_all = 1 };
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w), 0, "wait for all");
	CHECK_EQ(w.wait_result, KFD_IOC_WAIT_RESULT_COMPLETE, "complete");

	emu_uaccess_force_pipe(false);
	munmap(m, len);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_size_zero(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *kfd = t_open(emu);
	const struct kfdsig_kfd_ops *ops = kfdsig_emu_ops(emu);
	unsigned long set0 =
		_IOC(_IOC_READ | _IOC_WRITE, AMDKFD_IOCTL_BASE, _IOC_NR(AMDKFD_IOC_SET_EVENT), 0);
	unsigned long ver0 =
		_IOC(_IOC_READ | _IOC_WRITE, AMDKFD_IOCTL_BASE, _IOC_NR(AMDKFD_IOC_GET_VERSION), 0);

	/* kfd_ioctl: copy_from_user of 0 bytes succeeds, the handler sees a
	 * zeroed struct (SET_EVENT of the reserved id 0: -EINVAL), nothing
	 * is copied back. Never memcpy(kdata, NULL, 0). */
	CHECK_EQ(ops->ioctl(ops->ctx, kfdsig_kfd_fd(kfd), set0, NULL), -EINVAL,
		 "SET_EVENT size 0 NULL");
	CHECK_EQ(ops->ioctl(ops->ctx, kfdsig_kfd_fd(kfd), ver0, NULL), 0,
		 "GET_VERSION size 0 NULL");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_map_ids(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t gpu = t_gpu(kfd, 0);
	const struct kfdsig_kfd_bo *bo = NULL;
	struct kfd_ioctl_map_memory_to_gpu_args m = { 0 };

	T_REQUIRE(!kfdsig_kfd_acquire_vm(kfd, gpu), "vm");
	T_REQUIRE(!kfdsig_kfd_alloc(kfd, gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo), "bo");
	m.handle = bo->handle;
	m.n_devices = 1;
	m.device_ids_array_ptr = 16;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EFAULT, "ids at 16");
	m.device_ids_array_ptr = KHALF;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &m), -EFAULT,
		 "ids in the kernel half");
	m.n_devices = 0x40000000;
	m.device_ids_array_ptr = (uintptr_t)&gpu;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -ENOMEM,
		 "2^30 ids: kmalloc_array fails first");
	{
		uint32_t two[2] = { gpu, 0xdead };
		m.device_ids_array_ptr = (uintptr_t)two;
		m.n_devices = 2;
		CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EINVAL,
			 "2 ids, the second unknown");
	}
	m.device_ids_array_ptr = (uintptr_t)&gpu;
	m.n_devices = 1;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), 0, "1 id");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

struct qrig {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	uint32_t gpu;
	int pasid;
	const struct kfdsig_kfd_bo *ring, *rp, *wp;
	abi_create_queue_args a;
};

static void qrig_open(struct qrig *r)
{
	memset(r, 0, sizeof(*r));
	r->emu = t_emu("gfx90a");
	r->kfd = t_open(r->emu);
	r->gpu = t_gpu(r->kfd, 0);
	r->pasid = t_pasid(r->emu, r->kfd);
	T_REQUIRE(!kfdsig_kfd_acquire_vm(r->kfd, r->gpu), "vm");
	T_REQUIRE(!kfdsig_kfd_alloc(r->kfd, r->gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &r->rp),
		  "rp");
	T_REQUIRE(!kfdsig_kfd_alloc(r->kfd, r->gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &r->ring) &&
			  !kfdsig_kfd_alloc(r->kfd, r->gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED,
					    &r->wp),
		  "buffers");
	T_REQUIRE(!kfdsig_kfd_map(r->kfd, r->ring, NULL, 0) &&
			  !kfdsig_kfd_map(r->kfd, r->rp, NULL, 0) &&
			  !kfdsig_kfd_map(r->kfd, r->wp, NULL, 0),
		  "mapped");
	r->a.gpu_id = r->gpu;
	r->a.ring_size = 4096;
	r->a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
	r->a.queue_percentage = 100;
	r->a.ring_base_address = r->ring->va;
	r->a.read_pointer_address = r->rp->va;
	r->a.write_pointer_address = r->wp->va;
}

static void qrig_close(struct qrig *r)
{
	kfdsig_kfd_close(r->kfd);
	kfdsig_emu_destroy(r->emu);
}

static void test_queue_addresses(void)
{
	unsigned long cq = KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17;
	abi_create_queue_args a;
	struct qrig r;

	qrig_open(&r);
	a = r.a;
	a.ring_base_address = KHALF;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EFAULT, "ring in the kernel half");
	a.ring_size = 3000;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EFAULT, "access_ok comes before the size");
	a = r.a;
	a.read_pointer_address = KHALF;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EFAULT, "rptr in the kernel half");
	a = r.a;
	a.write_pointer_address = ~0ull - 2;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EFAULT, "wptr at the top");
	a = r.a;
	a.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
	a.eop_buffer_address = KHALF;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EFAULT, "EOP in the kernel half");
	a = r.a;
	a.ring_size = 3000;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), -EINVAL, "a good ring address, bad size");
	qrig_close(&r);
}

/* A one-page userptr buffer at @m (GPU VA == CPU address), mapped. */
static uint64_t userptr_bo(struct qrig *r, void *m)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args al = {
		.va_addr = (uintptr_t)m,
		.size = 4096,
		.gpu_id = r->gpu,
		.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR |
			 0x80000000u /* WRITABLE; the header's 1 << 31 overflows int */,
		.mmap_offset = (uintptr_t)m,
	};
	struct kfd_ioctl_map_memory_to_gpu_args mp = { 0 };

	T_REQUIRE(!kfdsig_kfd_ioctl(r->kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), "userptr");
	mp.handle = al.handle;
	mp.device_ids_array_ptr = (uintptr_t)&r->gpu;
	mp.n_devices = 1;
	T_REQUIRE(!kfdsig_kfd_ioctl(r->kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &mp), "map userptr");
	return al.va_addr;
}

/* An SDMA queue whose 64-bit read pointer sits at @off of its one-page
 * buffer (a userptr page followed by a sentinel page): the engine runs
 * NOPs and its read-pointer store stays inside the buffer. */
static void test_rptr_at(uint32_t off)
{
	unsigned long cq = KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17;
	const struct kfdsig_kfd_ops *ops;
	abi_create_queue_args a;
	struct kfdsig_emu_queue_info info = { 0 };
	uint8_t *m;
	void *db = NULL;
	uint32_t slice, n = 64;
	uint64_t want = (uint64_t)n * 4;
	bool intact = true;
	struct qrig r;

	qrig_open(&r);
	m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	T_REQUIRE(m != MAP_FAILED, "mmap");
	memset(m + 4096, 0xa5, 4096);
	a = r.a;
	a.read_pointer_address = userptr_bo(&r, m) + off;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, cq, &a), 0, "rptr at byte %u is accepted", off);
	ops = kfdsig_emu_ops(r.emu);
	slice = kfdsig_kfd_device(r.kfd, 0)->target->doorbell_slice;
	T_REQUIRE(!ops->mmap(ops->ctx, &db, NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED,
			     kfdsig_kfd_fd(r.kfd), a.doorbell_offset & ~(uint64_t)(slice - 1)),
		  "doorbells");
	memset(r.ring->cpu, 0, n * 4); /* SDMA NOPs */
	*(uint64_t *)r.wp->cpu = want;
	/* store only: the engine finds it within its fallback period */
	__atomic_store_n((uint64_t *)((char *)db + (a.doorbell_offset & (slice - 1))), want,
			 __ATOMIC_RELEASE);
	for (int i = 0; i < 5000 && info.consumed < n; i++) {
		kfdsig_emu_queue_info(r.emu, r.pasid, a.queue_id, &info);
		usleep(1000);
	}
	CHECK_EQ(info.consumed, n, "the engine ran the NOPs");
	for (int i = 0; i < 5000 && memcmp(m + off, &want, 4096 - off); i++)
		usleep(1000); /* the read pointer store follows consumed */
	CHECK(!memcmp(m + off, &want, 4096 - off), "low %u bytes of the read pointer stored",
	      4096 - off);
	for (int i = 0; i < 4096; i++)
		intact &= m[4096 + i] == 0xa5;
	CHECK(intact, "nothing stored past the read pointer's buffer");
	ops->munmap(ops->ctx, db, slice);
	qrig_close(&r);
	munmap(m, 8192);
}

/* A userptr buffer over a hole or a read-only page is refused (the kernel
 * pins the pages at allocation); the engines would write through it. */
static void test_userptr(void)
{
	struct qrig r;
	char *g;
	struct kfd_ioctl_alloc_memory_of_gpu_args al = {
		.size = 4096,
		.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR |
			 0x80000000u /* WRITABLE; the header's 1 << 31 overflows int */
	};

	qrig_open(&r);
	g = guarded();
	al.gpu_id = r.gpu;
	al.va_addr = al.mmap_offset = (uintptr_t)(g + pagesz());
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), -EFAULT,
		 "userptr over a PROT_NONE page");
	{
		/* a hole: a page mapped and unmapped again (fixed addresses may
		 * be a sanitizer's shadow memory) */
		void *h = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		T_REQUIRE(h != MAP_FAILED && !munmap(h, 4096), "hole");
		al.va_addr = al.mmap_offset = (uintptr_t)h;
		CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), -EFAULT,
			 "userptr over a hole");
	}
	al.va_addr = al.mmap_offset = (uintptr_t)g;
	al.size = 8192;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), -EFAULT,
		 "userptr reaching into the guard");
	al.size = 4096;
	CHECK_EQ(kfdsig_kfd_ioctl(r.kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), 0, "userptr ok");
	qrig_close(&r);
	munmap(g, 2 * (size_t)pagesz());
}

int main(void)
{
	test_userptr();
	test_helpers();
	test_wait_events(false);
	test_wait_events(true);
	test_wait_array(false);
	test_wait_array(true);
	test_size_zero();
	test_map_ids();
	test_queue_addresses();
	test_rptr_at(4092);
	test_rptr_at(4093);
	return t_result("kfd_uaccess");
}
