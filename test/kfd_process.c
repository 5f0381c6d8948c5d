/* SPDX-License-Identifier: MIT */
/*
 * KFD 1.19-1.22 and the Linux 7.3 signal page, on the emulated KFD and
 * through the backend:
 *   - CREATE_PROCESS (1.19, kfd_chardev.c kfd_ioctl_create_process()): a
 *     secondary process per fd with its own PASID and events; -EINVAL on a
 *     secondary; absent (-ENOTTY) before 1.19; the debug trap and USERPTR
 *     on the primary only; kfdsig_kfd_create_process() -ENOTSUP / -EBUSY;
 *   - the LDS out-of-range debug flag (1.21) on GC 12.1 only;
 *   - metadata_ring_size (1.22): the ring buffer holds ring + metadata;
 *   - profile v7.3: events mmap -EINVAL, first signal event without a
 *     buffer -ENOMEM, the backend's kernel-page mode -ENOTSUP.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kfdsig/debug.h>
#include <kfdsig/pm4.h>

#include "abi/kfd_ioctl.h"
#include "kfd_debug_util.h"

#define WAIT_MS 5000

static void test_create_process(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,kfd=1.19");
	struct kfdsig_kfd *a = t_open(emu), *b = t_open(emu);
	const struct kfdsig_kfd_ops *ops = kfdsig_emu_ops(emu);
	struct kfdsig_event ea, eb;
	uint32_t gpu = t_gpu(a, 0);
	int pa, pb_before, pb;
	enum kfdsig_wait_result res;
	struct kfd_ioctl_alloc_memory_of_gpu_args al = { 0 };

	pa = t_pasid(emu, a);
	pb_before = t_pasid(emu, b);
	CHECK_EQ(kfdsig_kfd_create_process(b), 0, "CREATE_PROCESS on 1.19");
	pb = t_pasid(emu, b);
	CHECK(pb != pb_before && pb != pa && pb > 0, "a PASID of its own: %d (was %d, other %d)",
	      pb, pb_before, pa);
	CHECK_EQ(ops->ioctl(ops->ctx, kfdsig_kfd_fd(b), KFDSIG_AMDKFD_IOC_CREATE_PROCESS, NULL),
		 -EINVAL, "a secondary cannot make another");
	/* the same first event id in both, two signal pages */
	ea = t_event(a, KFDSIG_EVENT_SIGNAL, false);
	eb = t_event(b, KFDSIG_EVENT_SIGNAL, false);
	CHECK(ea.id == eb.id && ea.slot_va != eb.slot_va, "event %u in both, slots apart", ea.id);
	t_gpu_signal(eb.slot, 1);
	CHECK_EQ(kfdsig_emu_interrupt(emu, pb, gpu, KFDSIG_EMU_IRQ_CP_EOP, eb.id), 1,
		 "the secondary's PASID signals its event");
	CHECK(t_wait1(b, eb.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "the secondary's event is set");
	CHECK(t_wait1(a, ea.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_TIMEOUT,
	      "the primary's event is not");
	/* USERPTR on the primary only */
	al.va_addr = 0x100000000ull;
	al.size = 4096;
	al.mmap_offset = 0x100000000ull;
	al.gpu_id = gpu;
	al.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | 0x80000000u; /* | WRITABLE, bit 31 */
	CHECK_EQ(ops->ioctl(ops->ctx, kfdsig_kfd_fd(b), AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al),
		 -EINVAL, "USERPTR on a secondary is refused");
	kfdsig_kfd_close(b);
	kfdsig_kfd_close(a);
	kfdsig_emu_destroy(emu);

	/* before 1.19: unknown to the kernel, refused by the backend */
	emu = t_emu("gfx90a,kfd=1.18");
	a = t_open(emu);
	ops = kfdsig_emu_ops(emu);
	CHECK_EQ(ops->ioctl(ops->ctx, kfdsig_kfd_fd(a), KFDSIG_AMDKFD_IOC_CREATE_PROCESS, NULL),
		 -ENOTTY, "1.18: no CREATE_PROCESS");
	CHECK_EQ(kfdsig_kfd_create_process(a), -ENOTSUP, "1.18: the backend refuses");
	kfdsig_kfd_close(a);
	kfdsig_emu_destroy(emu);

	/* the backend refuses a handle that already holds something */
	emu = t_emu("gfx90a,kfd=1.22");
	a = t_open(emu);
	ea = t_event(a, KFDSIG_EVENT_SIGNAL, false);
	CHECK_EQ(kfdsig_kfd_create_process(a), -EBUSY, "after an event: -EBUSY");
	kfdsig_kfd_close(a);
	kfdsig_emu_destroy(emu);
}

/* The debug trap acts on the primary only; the LDS out-of-range flag from
 * 1.21, on GC 12.1 only. */
static void test_debug(void)
{
	static const struct {
		const char *spec;
		int want;
	} flag[] = {
		{ "gfx1250,kfd=1.21", 0 },
		{ "gfx1250,kfd=1.20", -EINVAL },
		{ "gfx90a,kfd=1.22", -EACCES },
	};
	struct drig r;
	uint32_t fl;

	for (size_t i = 0; i < sizeof(flag) / sizeof(flag[0]); i++) {
		d_open(&r, flag[i].spec);
		CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "%s: runtime enable",
			 flag[i].spec);
		CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, r.dbgfd, NULL), 0, "%s: attach",
			 flag[i].spec);
		fl = KFDSIG_DBG_FLAG_LDS_OUT_OF_ADDR_RANGE;
		CHECK_EQ(kfdsig_dbg_set_flags(r.dbg, r.pid, &fl), flag[i].want,
			 "%s: LDS out-of-range flag", flag[i].spec);
		d_close(&r);
	}

	/* a secondary debugger fd: the trap ioctl is the primary's */
	d_open(&r, "gfx90a,kfd=1.19");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "runtime enable");
	CHECK_EQ(kfdsig_kfd_create_process(r.dbg), 0, "the debugger's fd made secondary");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, r.dbgfd, NULL), -EINVAL,
		 "DBG_TRAP from a secondary");
	d_close(&r);
}

static void test_metadata_ring(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,kfd=1.22");
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_kfd_queue *q = NULL;
	uint32_t gpu = t_gpu(kfd, 0), d[16];
	struct kfdsig_event ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	uint64_t *page, va;
	enum kfdsig_wait_result res;
	KFDSIG_OPTS(kfdsig_queue_opts, o, .metadata_ring_size = 8192);

	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &o, &q), 0,
		 "1.22: a queue with a metadata ring");
	kfdsig_kfd_signal_page(kfd, &page, &va);
	{
		struct kfdsig_fence f = { .slot_va = va + 8ull * ev.id, .event_id = ev.id };
		int n = kfdsig_pm4_emit_fence(kfdsig_kfd_device(kfd, 0)->target, &f, d, 16);

		CHECK(n > 0 && !kfdsig_kfd_queue_submit(q, d, (uint32_t)n, WAIT_MS), "fence");
		CHECK(t_wait1(kfd, ev.id, NULL, WAIT_MS, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
		      "the queue runs");
	}
	kfdsig_kfd_queue_destroy(q);
	o.metadata_ring_size = 100;
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &o, &q), -EINVAL,
		 "not a page multiple");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);

	emu = t_emu("gfx90a,kfd=1.21");
	kfd = t_open(emu);
	o.metadata_ring_size = 8192;
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, t_gpu(kfd, 0), KFDSIG_QUEUE_PM4, &o, &q), -ENOTSUP,
		 "1.21: no metadata ring");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_signal_page_7_3(void)
{
	static const char *const spec[] = { "gfx90a,profile=v7.1", "gfx90a,profile=v7.3" };

	for (int i = 0; i < 2; i++) {
		struct kfdsig_emu *emu = t_emu(spec[i]);
		struct kfdsig_kfd *kfd = t_open(emu);
		const struct kfdsig_kfd_ops *ops = kfdsig_emu_ops(emu);
		struct kfd_ioctl_create_event_args a = { .event_type = KFDSIG_EVENT_SIGNAL };
		bool v73 = i == 1;
		void *m = NULL;
		int r;

		CHECK_EQ(kfdsig_kfd_set_signal_page_mode(kfd, KFDSIG_SIGNAL_PAGE_KERNEL),
			 v73 ? -ENOTSUP : 0, "%s: the kernel-page mode", spec[i]);
		r = ops->ioctl(ops->ctx, kfdsig_kfd_fd(kfd), AMDKFD_IOC_CREATE_EVENT, &a);
		CHECK_EQ(r, v73 ? -ENOMEM : 0, "%s: a signal event without a buffer", spec[i]);
		r = ops->mmap(ops->ctx, &m, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			      kfdsig_kfd_fd(kfd), KFDSIG_MMAP_TYPE_EVENTS);
		CHECK_EQ(r, v73 ? -EINVAL : 0, "%s: the events mmap", spec[i]);
		if (!r)
			ops->munmap(ops->ctx, m, 4096);
		kfdsig_kfd_close(kfd);
		kfdsig_emu_destroy(emu);
	}
	/* the user page (the backend's default) works on 7.3; mapping it
	 * through the events offset does not */
	for (int i = 0; i < 2; i++) {
		struct kfdsig_emu *emu = t_emu(spec[i]);
		struct kfdsig_kfd *kfd = t_open(emu);
		const struct kfdsig_kfd_ops *ops = kfdsig_emu_ops(emu);
		struct kfdsig_event ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
		void *m = NULL;
		int r;

		CHECK(ev.slot != NULL, "%s: a signal event with the user page", spec[i]);
		r = ops->mmap(ops->ctx, &m, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			      kfdsig_kfd_fd(kfd), KFDSIG_MMAP_TYPE_EVENTS);
		CHECK_EQ(r, i == 1 ? -EINVAL : 0, "%s: the events mmap of a user page", spec[i]);
		if (!r)
			ops->munmap(ops->ctx, m, 4096);
		kfdsig_kfd_close(kfd);
		kfdsig_emu_destroy(emu);
	}
}

/* A CREATE_PROCESS is a walk of a short list of processes: one that has
 * not returned in HANG_S (thousands of times its cost, under the
 * sanitizers too) never will (a search for a free context id that does
 * not move on loops). The step it hangs in is named and the test ends,
 * rather than waiting for the test's timeout. */
#define HANG_S 5
static const char *volatile hang_step;

#define STR_(x) #x
#define STR(x) STR_(x)

static void hung(int sig)
{
	static const char m[] = "kfd_process: hangs (no return in " STR(HANG_S) " s): ";
	const char *s = hang_step;
	ssize_t n;

	(void)sig;
	n = write(2, m, sizeof(m) - 1);
	n += write(2, s, strlen(s));
	n += write(2, "\n", 1);
	(void)n;
	_exit(T_EXIT_FAIL);
}

static int create_process_bounded(struct kfdsig_kfd *kfd, const char *what)
{
	int r;

	hang_step = what;
	signal(SIGALRM, hung);
	alarm(HANG_S);
	r = kfdsig_kfd_create_process(kfd);
	alarm(0);
	return r;
}

/* The sysfs entry of a secondary (kfd_process.c kfd_create_process_sysfs()):
 * proc/<pid>/context_<id>/pasid, the lowest free id from 0, gone with it. */
static bool ctx_entry(struct kfdsig_emu *emu, unsigned id, char *pasid, size_t n)
{
	char path[600];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/class/kfd/kfd/proc/%d/context_%u/pasid",
		 kfdsig_emu_ops(emu)->sysfs_root, (int)getpid(), id);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(pasid, (int)n, f) != NULL;
	fclose(f);
	return ok;
}

static void test_secondary_sysfs(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,kfd=1.19");
	struct kfdsig_kfd *a = t_open(emu), *b = t_open(emu), *c;
	char v[32];

	CHECK(!ctx_entry(emu, 0, v, sizeof(v)), "no entry before CREATE_PROCESS");
	CHECK_EQ(create_process_bounded(a, "CREATE_PROCESS, the first secondary"), 0,
		 "a secondary");
	CHECK(ctx_entry(emu, 0, v, sizeof(v)) && !strcmp(v, "0\n"),
	      "proc/<pid>/context_0/pasid reads 0");
	CHECK_EQ(create_process_bounded(b,
					"CREATE_PROCESS, a second secondary while the first lives"),
		 0, "a second secondary");
	CHECK(ctx_entry(emu, 1, v, sizeof(v)), "the next one is context_1");
	kfdsig_kfd_close(a);
	CHECK(!ctx_entry(emu, 0, v, sizeof(v)) && ctx_entry(emu, 1, v, sizeof(v)),
	      "context_0 goes with its fd, context_1 stays");
	c = t_open(emu);
	CHECK_EQ(create_process_bounded(c,
					"CREATE_PROCESS, a third secondary after the first closed"),
		 0, "a third secondary");
	CHECK(ctx_entry(emu, 0, v, sizeof(v)) && !ctx_entry(emu, 2, v, sizeof(v)),
	      "the lowest free id again: context_0");
	kfdsig_kfd_close(b);
	kfdsig_kfd_close(c);
	CHECK(!ctx_entry(emu, 0, v, sizeof(v)) && !ctx_entry(emu, 1, v, sizeof(v)),
	      "no entry left");
	kfdsig_emu_destroy(emu);
}

/* From KFD 1.18 the IH PASID names a (process, device) pair (commit
 * 8544374c0f82: pdd->pasid is the GPU VM's); before it one PASID per process. */
static void test_pasid_per_device(void)
{
	static const char *const spec[] = { "gfx90a,gfx1100,kfd=1.18", "gfx90a,gfx1100,kfd=1.17" };

	for (int i = 0; i < 2; i++) {
		struct kfdsig_emu *emu = t_emu(spec[i]);
		struct kfdsig_kfd *a = t_open(emu), *b = t_open(emu);
		uint32_t g0 = t_gpu(a, 0), g1 = t_gpu(a, 1);
		int a0 = kfdsig_emu_pasid_on(emu, kfdsig_kfd_fd(a), g0);
		int a1 = kfdsig_emu_pasid_on(emu, kfdsig_kfd_fd(a), g1);
		int b0 = kfdsig_emu_pasid_on(emu, kfdsig_kfd_fd(b), g0);
		int b1 = kfdsig_emu_pasid_on(emu, kfdsig_kfd_fd(b), g1);
		bool per_dev = i == 0;
		struct kfdsig_event e;
		enum kfdsig_wait_result res;

		CHECK(a0 > 0 && a1 > 0 && b0 > 0 && b1 > 0, "%s: PASIDs", spec[i]);
		CHECK_EQ(a0, t_pasid(emu, a), "%s: kfdsig_emu_pasid() is the first device's",
			 spec[i]);
		CHECK(per_dev ? (a0 != a1 && b0 != b1 && a0 != b0 && a0 != b1 && a1 != b0 &&
				 a1 != b1)
			      : (a0 == a1 && b0 == b1 && a0 != b0),
		      "%s: %s (%d %d, %d %d)", spec[i],
		      per_dev ? "one per process-device" : "one per process", a0, a1, b0, b1);
		CHECK_EQ(kfdsig_emu_pasid_on(emu, kfdsig_kfd_fd(a), 0x7), -ENOENT,
			 "%s: unknown gpu_id", spec[i]);
		e = t_event(a, KFDSIG_EVENT_SIGNAL, false);
		t_gpu_signal(e.slot, 1);
		CHECK_EQ(kfdsig_emu_interrupt(emu, a1, g1, KFDSIG_EMU_IRQ_CP_EOP, e.id), 1,
			 "%s: the device's PASID on its device signals", spec[i]);
		CHECK(t_wait1(a, e.id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
		      "%s: the event is set", spec[i]);
		t_gpu_signal(e.slot, 1);
		CHECK_EQ(kfdsig_emu_interrupt(emu, a0, g1, KFDSIG_EMU_IRQ_CP_EOP, e.id),
			 per_dev ? -ESRCH : 1, "%s: the first device's PASID on the second %s",
			 spec[i], per_dev ? "finds no process" : "is the same");
		CHECK(kfdsig_emu_gpu_ptr(emu, a1, g0, e.slot_va, 8) == NULL || !per_dev,
		      "%s: another device's PASID maps nothing", spec[i]);
		kfdsig_kfd_close(a);
		kfdsig_kfd_close(b);
		kfdsig_emu_destroy(emu);
	}
}

/* A queue of the second device signals through that device's PASID: the
 * engine's interrupt carries the (process, device) PASID. */
static void test_pasid_engine(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,gfx1100");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g1 = t_gpu(kfd, 1);
	const struct kfdsig_target *t = kfdsig_kfd_device(kfd, 1)->target;
	struct kfdsig_event ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	struct kfdsig_emu_irq_record rec = { 0 };
	struct kfdsig_kfd_queue *q = NULL;
	enum kfdsig_wait_result res;
	uint64_t *page, va;
	uint32_t d[KFDSIG_PM4_FENCE_MAX_DW];
	int n, p1 = kfdsig_emu_pasid_on(emu, kfdsig_kfd_fd(kfd), g1);

	T_REQUIRE(!kfdsig_kfd_signal_page(kfd, &page, &va), "page");
	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, g1, KFDSIG_QUEUE_PM4, NULL, &q), "queue on gpu 1");
	{
		struct kfdsig_fence f = { .slot_va = va + 8ull * ev.id, .event_id = ev.id };
		n = kfdsig_pm4_emit_fence(t, &f, d, KFDSIG_PM4_FENCE_MAX_DW);
	}
	T_REQUIRE(n > 0, "fence");
	CHECK(!kfdsig_kfd_queue_submit(q, d, (uint32_t)n, WAIT_MS) &&
		      !kfdsig_kfd_queue_wait_idle(q, WAIT_MS),
	      "consumed");
	CHECK(t_wait1(kfd, ev.id, NULL, WAIT_MS, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "gpu 1's end-of-pipe signals the event");
	CHECK(p1 != t_pasid(emu, kfd) && kfdsig_emu_irq_trace(emu, p1, &rec, 1) == 1 &&
		      rec.gpu_id == g1,
	      "the interrupt carries gpu 1's PASID %d", p1);
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

int main(void)
{
	test_secondary_sysfs();
	test_pasid_engine();
	test_pasid_per_device();
	test_create_process();
	test_debug();
	test_metadata_ring();
	test_signal_page_7_3();
	return t_result("kfd_process");
}
