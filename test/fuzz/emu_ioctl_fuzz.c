/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the emulated KFD's surface: each input is
 * a program of operations on one fresh KFD process of one of three
 * emulators (gfx803, gfx90a, gfx1100): raw ioctls with arbitrary numbers,
 * sizes, direction bits and argument pointers (NULL, small, kernel half,
 * a PROT_NONE page, a read-only page, or fuzzer bytes), the event, memory,
 * queue and SMI ioctls with fuzzed fields, WAIT_EVENTS on fuzzed arrays,
 * the interrupt entry points, VM faults, GPU resets, HW exceptions, SMI
 * reads and writes, mmaps of fuzzed offsets. The process is closed at the
 * end (queues stopped, memory freed), and with it every fd the input left
 * open in the emulator (an SMI fd a raw ioctl made stays open, as it
 * would in a real process: without this, a long run filled the fd table
 * and each lookup in it grew slower). The emulator must never crash, read
 * or write out of bounds (ASan/UBSan) or hang: every wait has timeout 0.
 * Arrays whose count is fuzzed live in static storage: the emulator copies
 * a range on the caller's live stack directly (as the kernel would read
 * whatever the user's stack holds), which ASan would report as the
 * fuzzer's own overflow.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kfdsig/kfdsig.h>

#include "fuzz_input.h"

#include "emu/emu_host.h"
#include "abi/kfd_ioctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define NEMU 4
static struct kfdsig_emu *emus[NEMU];
static uint32_t gpu_ids[NEMU];
static char *guard; /* page 0 rw arena, page 1 PROT_NONE, page 2 read-only */
static char *arena; /* userptr-able memory the fuzzer owns */
#define ARENA_PAGES 8
static char *hole; /* PROT_NONE: where the "anything" user addresses point */
#define HOLE_SIZE (1ull << 30)

/* The emulator's open fds, per emulator (emu_host_set_fd_hook). An input
 * of at most 64 steps opens far fewer than MAX_FDS. */
#define MAX_FDS 512
static int open_fds[NEMU][MAX_FDS];
static unsigned n_open[NEMU];

static void fd_hook(void *ctx, int fd, bool added)
{
	unsigned e = (unsigned)(uintptr_t)ctx;

	if (added) {
		if (n_open[e] == MAX_FDS)
			abort(); /* the harness's bound, not a finding */
		open_fds[e][n_open[e]++] = fd;
		return;
	}
	for (unsigned i = 0; i < n_open[e]; i++)
		if (open_fds[e][i] == fd) {
			open_fds[e][i] = open_fds[e][--n_open[e]];
			return;
		}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const specs[NEMU] = { "gfx803", "gfx90a,privileged",
						 "gfx1100,kfd=1.17,profile=v6.14",
						 "gfx1250,profile=mailbox-free" };
	long pg = sysconf(_SC_PAGESIZE);

	(void)argc;
	(void)argv;
	for (int i = 0; i < NEMU; i++) {
		emus[i] = kfdsig_emu_create_from_spec(specs[i]);
		struct kfdsig_kfd *k = NULL;

		if (!emus[i] || kfdsig_kfd_open(kfdsig_emu_ops(emus[i]), &k) < 0) {
			fprintf(stderr, "emu %s: %s\n", specs[i], kfdsig_last_error());
			abort();
		}
		gpu_ids[i] = kfdsig_kfd_device(k, 0)->gpu_id;
		kfdsig_kfd_close(k);
		emu_host_set_fd_hook(emus[i], fd_hook, (void *)(uintptr_t)i);
	}
	guard = mmap(NULL, 3 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		     0);
	arena = mmap(NULL, ARENA_PAGES * (size_t)pg, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hole = mmap(NULL, HOLE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (guard == MAP_FAILED || arena == MAP_FAILED || hole == MAP_FAILED ||
	    mprotect(guard + pg, (size_t)pg, PROT_NONE) ||
	    mprotect(guard + 2 * pg, (size_t)pg, PROT_READ))
		abort();
	return 0;
}

/* An address in the PROT_NONE reservation picked by @v, with room left for
 * a userptr of the arena's size. */
static uint64_t in_hole(uint64_t v)
{
	long pg = sysconf(_SC_PAGESIZE);

	return (uintptr_t)hole + v % (HOLE_SIZE - (ARENA_PAGES + 1) * (uint64_t)pg);
}

/* A user address that is not this process's memory: in the kernel half,
 * or in the PROT_NONE reservation. A truly arbitrary one may name the
 * fuzzer's own stack or heap (libFuzzer learns real pointers from
 * comparisons), and the emulated kernel writes there as the real one
 * would: the fuzzer then corrupts itself (a 5M-execution run ended in an
 * ASan allocator CHECK that way). */
static uint64_t wild(struct in *in)
{
	uint64_t v = take(in, 8);

	if (v & 1)
		return v | (1ull << 63);
	return in_hole(v >> 1);
}

/* A 64-bit value the emulated kernel may take for a user address, as the
 * fuzzer gave it: kept unless it lands in memory of this process that the
 * harness does not own (its stack, heap, libraries: learnt from
 * comparisons), which it moves into the PROT_NONE reservation. A second
 * long run ended in the same allocator CHECK with a stack address
 * (0x7ffc...) in the input, through a raw ioctl's argument bytes or a
 * queue's read/write pointer. msync() finds out whether a page is mapped
 * (ENOMEM: it is not). */
static uint64_t tame(uint64_t v)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t page = (uintptr_t)v & ~(uintptr_t)(pg - 1);

	if (v >> 47 || v < (uint64_t)pg)
		return v; /* kernel half, non-canonical or page 0: never ours */
	if ((v >= (uintptr_t)hole && v < (uintptr_t)hole + HOLE_SIZE) ||
	    (v >= (uintptr_t)guard && v < (uintptr_t)guard + 3 * (uint64_t)pg) ||
	    (v >= (uintptr_t)arena && v < (uintptr_t)arena + ARENA_PAGES * (uint64_t)pg))
		return v;
	if (msync((void *)page, (size_t)pg, MS_ASYNC) && errno == ENOMEM)
		return v; /* unmapped */
	return in_hole(v);
}

/* An argument pointer: one of the bad ones, or @buf. */
static void *pick_ptr(struct in *in, void *buf)
{
	long pg = sysconf(_SC_PAGESIZE);

	switch (take(in, 1) % 8) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)(take(in, 1) + 1);
	case 2:
		return (void *)(uintptr_t)0xffff888000000000ull;
	case 3:
		return guard + pg - (take(in, 1) % 64); /* straddles the hole */
	case 4:
		return guard + 2 * pg; /* read-only */
	case 5:
		return (void *)(uintptr_t)wild(in); /* anything not ours */
	default:
		return buf;
	}
}

struct ctx {
	struct kfdsig_emu *emu;
	const struct kfdsig_kfd_ops *ops;
	int kfd, render, smi[2];
	uint32_t gpu;
	int pasid;
	uint32_t ev[8];
	uint64_t handles[8];
	uint64_t vas[8];
	uint32_t nev, nbo;
	uint64_t next_va;
};

static int io(struct ctx *c, unsigned long req, void *arg)
{
	return c->ops->ioctl(c->ops->ctx, c->kfd, req, arg);
}

static void op_raw(struct ctx *c, struct in *in)
{
	_Alignas(16) uint8_t buf[640];
	unsigned nr = (unsigned)take(in, 1) % 0x30, dir = (unsigned)take(in, 1) % 4;
	unsigned sz = (unsigned)take(in, 2) % sizeof(buf);
	unsigned long req = _IOC(dir, take(in, 1) % 8 ? AMDKFD_IOCTL_BASE : 'X', nr, sz);
	void *arg;

	for (unsigned i = 0; i < sz; i++)
		buf[i] = (uint8_t)take(in, 1);
	/* the structs' pointers are u64 at 8-byte offsets */
	for (unsigned i = 0; i + 8 <= sz; i += 8) {
		uint64_t v;

		memcpy(&v, buf + i, 8);
		v = tame(v);
		memcpy(buf + i, &v, 8);
	}
	/* never block: WAIT_EVENTS with a 0 timeout whatever the bytes say */
	if (nr == _IOC_NR(AMDKFD_IOC_WAIT_EVENTS))
		memset(buf + offsetof(struct kfd_ioctl_wait_events_args, timeout), 0, 4);
	arg = pick_ptr(in, buf);
	if (nr == _IOC_NR(AMDKFD_IOC_WAIT_EVENTS) && arg != buf)
		return; /* a wild pointer's timeout could be anything */
	io(c, req, arg);
}

static void op_event(struct ctx *c, struct in *in)
{
	unsigned what = (unsigned)take(in, 1) % 6;
	uint32_t id =
		c->nev && take(in, 1) % 4 ? c->ev[take(in, 1) % c->nev] : (uint32_t)take(in, 4);

	switch (what) {
	case 0: {
		struct kfd_ioctl_create_event_args a = { 0 };
		a.event_type = (uint32_t)take(in, 1) % 9;
		a.auto_reset = (uint32_t)take(in, 1) % 2;
		if (take(in, 1) % 8 == 0 && c->nbo)
			a.event_page_offset = c->handles[take(in, 1) % c->nbo];
		if (!io(c, AMDKFD_IOC_CREATE_EVENT, &a) && c->nev < 8)
			c->ev[c->nev++] = a.event_id;
		break;
	}
	case 1: {
		struct kfd_ioctl_destroy_event_args a = { .event_id = id };
		io(c, AMDKFD_IOC_DESTROY_EVENT, &a);
		break;
	}
	case 2: {
		struct kfd_ioctl_set_event_args a = { .event_id = id };
		io(c, AMDKFD_IOC_SET_EVENT, &a);
		break;
	}
	case 3: {
		struct kfd_ioctl_reset_event_args a = { .event_id = id };
		io(c, AMDKFD_IOC_RESET_EVENT, &a);
		break;
	}
	case 4: {
		static abi_event_data d[8]; /* off the stack: see below */
		struct kfd_ioctl_wait_events_args a = { 0 };
		uint32_t n = (uint32_t)take(in, 1) % 9;

		memset(d, 0, sizeof(d));
		for (uint32_t i = 0; i < n; i++) {
			d[i].event_id = c->nev && take(in, 1) % 4 ? c->ev[take(in, 1) % c->nev]
								  : (uint32_t)take(in, 4);
			d[i].signal_event_data.last_event_age = take(in, 1) % 4;
		}
		a.events_ptr = (uintptr_t)pick_ptr(in, d);
		a.num_events = take(in, 1) % 16 ? n : (uint32_t)take(in, 4);
		a.wait_for_all = (uint32_t)take(in, 1) % 2;
		a.timeout = 0;
		io(c, AMDKFD_IOC_WAIT_EVENTS, &a);
		break;
	}
	default:
		kfdsig_emu_event_age_set(c->emu, c->pasid, id, take(in, 8));
		break;
	}
}

static void op_memory(struct ctx *c, struct in *in)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned what = (unsigned)take(in, 1) % 4;

	switch (what) {
	case 0: {
		struct kfd_ioctl_acquire_vm_args a = { .drm_fd = (uint32_t)c->render,
						       .gpu_id = c->gpu };
		if (take(in, 1) % 8 == 0)
			a.gpu_id = (uint32_t)take(in, 4);
		io(c, AMDKFD_IOC_ACQUIRE_VM, &a);
		break;
	}
	case 1: {
		struct kfd_ioctl_alloc_memory_of_gpu_args a = { 0 };
		a.gpu_id = take(in, 1) % 8 ? c->gpu : (uint32_t)take(in, 4);
		a.size = take(in, 1) % 8 ? (take(in, 1) % 16 + 1) * (uint64_t)pg : take(in, 8);
		a.flags = (uint32_t)take(in, 4);
		if (take(in, 1) % 2) {
			a.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR |
				  0x80000000u /* WRITABLE; the header's 1 << 31 overflows int */;
			a.size = (take(in, 1) % ARENA_PAGES + 1) * (uint64_t)pg;
			a.mmap_offset = take(in, 1) % 4 ? (uintptr_t)arena : wild(in);
			a.va_addr = c->next_va;
		} else {
			a.flags = take(in, 1) % 4 ? KFD_IOC_ALLOC_MEM_FLAGS_GTT : a.flags;
			a.va_addr = take(in, 1) % 8 ? c->next_va : take(in, 8);
		}
		if (!io(c, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a) && c->nbo < 8) {
			c->handles[c->nbo] = a.handle;
			c->vas[c->nbo++] = a.va_addr;
			c->next_va += 1ull << 24;
		}
		break;
	}
	case 2:
	case 3: {
		struct kfd_ioctl_map_memory_to_gpu_args a = { 0 };
		static uint32_t ids[4];

		ids[0] = ids[1] = c->gpu;
		ids[2] = (uint32_t)take(in, 4);

		a.handle =
			c->nbo && take(in, 1) % 8 ? c->handles[take(in, 1) % c->nbo] : take(in, 8);
		a.n_devices = take(in, 1) % 8 ? (uint32_t)take(in, 1) % 4 : (uint32_t)take(in, 4);
		a.n_success = (uint32_t)take(in, 1) % 3;
		a.device_ids_array_ptr = (uintptr_t)pick_ptr(in, ids);
		io(c, what == 2 ? AMDKFD_IOC_MAP_MEMORY_TO_GPU : AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU,
		   &a);
		if (take(in, 1) % 4 == 0) {
			struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = a.handle };
			io(c, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f);
		}
		break;
	}
	}
}

static void op_queue(struct ctx *c, struct in *in)
{
	abi_create_queue_args a;
	uint64_t va = c->nbo ? c->vas[take(in, 1) % c->nbo] : tame(take(in, 8));

	memset(&a, 0, sizeof(a));
	a.gpu_id = take(in, 1) % 8 ? c->gpu : (uint32_t)take(in, 4);
	a.queue_type = (uint32_t)take(in, 1) % 6;
	a.queue_percentage = (uint32_t)take(in, 1) % 128;
	a.queue_priority = (uint32_t)take(in, 1) % 17;
	a.ring_size = 1u << (take(in, 1) % 16);
	a.ring_base_address = take(in, 1) % 4 ? va : tame(take(in, 8));
	a.read_pointer_address =
		tame((c->nbo ? c->vas[take(in, 1) % c->nbo] : take(in, 8)) + take(in, 2) % 4096);
	a.write_pointer_address = c->nbo ? c->vas[take(in, 1) % c->nbo] : tame(take(in, 8));
	if (take(in, 1) % 4 == 0)
		a.eop_buffer_address = tame(take(in, 8));
	a.sdma_engine_id = (uint32_t)take(in, 1) % 8;
	if (!io(c, KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17, &a) && take(in, 1) % 2) {
		struct kfd_ioctl_destroy_queue_args d = { .queue_id = a.queue_id };
		io(c, AMDKFD_IOC_DESTROY_QUEUE, &d);
	} else {
		struct kfdsig_emu_queue_info qi;
		kfdsig_emu_queue_info(c->emu, c->pasid, (uint32_t)take(in, 1) % 4, &qi);
	}
}

static void op_irq(struct ctx *c, struct in *in)
{
	switch (take(in, 1) % 6) {
	case 0:
		kfdsig_emu_interrupt(
			c->emu, c->pasid, take(in, 1) % 8 ? c->gpu : (uint32_t)take(in, 4),
			(enum kfdsig_emu_irq_source)(take(in, 1) % 6), (uint32_t)take(in, 4));
		break;
	case 1:
		kfdsig_emu_signal_event_interrupt(c->emu, c->pasid, (uint32_t)take(in, 4),
						  (uint32_t)take(in, 1) % 40);
		break;
	case 2:
		kfdsig_emu_vm_fault(c->emu, c->pasid, c->gpu, take(in, 8), (uint32_t)take(in, 1));
		break;
	case 3:
		kfdsig_emu_gpu_reset(c->emu, c->gpu, take(in, 1) % 2);
		break;
	case 4:
		kfdsig_emu_hw_exception(c->emu, c->pasid);
		break;
	default:
		kfdsig_emu_gpu_ptr(c->emu, c->pasid, c->gpu, take(in, 8), take(in, 8));
		break;
	}
}

static void op_smi(struct ctx *c, struct in *in)
{
	char buf[512];
	int i = (int)(take(in, 1) % 2);

	switch (take(in, 1) % 3) {
	case 0:
		if (c->smi[i] < 0) {
			struct kfd_ioctl_smi_events_args a = { .gpuid = c->gpu };
			if (!io(c, AMDKFD_IOC_SMI_EVENTS, &a))
				c->smi[i] = (int)a.anon_fd;
		}
		break;
	case 1:
		if (c->smi[i] >= 0) {
			uint64_t mask = take(in, 8);
			size_t len = take(in, 1) % 12;
			c->ops->write(c->ops->ctx, c->smi[i], &mask, len);
		}
		break;
	default:
		if (c->smi[i] >= 0)
			c->ops->read(c->ops->ctx, c->smi[i], buf, take(in, 2) % sizeof(buf));
		break;
	}
}

static void op_mmap(struct ctx *c, struct in *in)
{
	uint64_t off = take(in, 8);
	size_t len = (size_t)(take(in, 3) % (1u << 17)) + 1;
	void *m = NULL;

	switch (take(in, 1) % 3) {
	case 0:
		off = KFDSIG_MMAP_TYPE_EVENTS;
		break;
	case 1:
		off = KFDSIG_MMAP_TYPE_DOORBELL | KFDSIG_MMAP_GPU_ID(c->gpu);
		break;
	default:
		break;
	}
	/* never MAP_FIXED: a fuzzed address would land on the fuzzer */
	if (!c->ops->mmap(c->ops->ctx, &m, NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, c->kfd,
			  off))
		c->ops->munmap(c->ops->ctx, m, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct ctx c;
	int steps = 0, e;

	memset(&c, 0, sizeof(c));
	e = (int)(take(&in, 1) % NEMU);
	c.emu = emus[e];
	c.ops = kfdsig_emu_ops(c.emu);
	c.smi[0] = c.smi[1] = -1;
	c.next_va = 0x100000000ull;
	c.kfd = c.ops->open(c.ops->ctx, "/dev/kfd", 0);
	c.render = c.ops->open(c.ops->ctx, "/dev/dri/renderD128", 0);
	if (c.kfd < 0 || c.render < 0)
		abort();
	c.pasid = kfdsig_emu_pasid(c.emu, c.kfd);
	c.gpu = gpu_ids[e];
	while (in.n && steps++ < 64) {
		switch (take(&in, 1) % 7) {
		case 0:
			op_raw(&c, &in);
			break;
		case 1:
			op_event(&c, &in);
			break;
		case 2:
			op_memory(&c, &in);
			break;
		case 3:
			op_queue(&c, &in);
			break;
		case 4:
			op_irq(&c, &in);
			break;
		case 5:
			op_smi(&c, &in);
			break;
		default:
			op_mmap(&c, &in);
			break;
		}
	}
	/* kfd, render, the SMI fds and whatever else the input opened */
	while (n_open[e]) {
		int fd = open_fds[e][n_open[e] - 1];

		if (c.ops->close(c.ops->ctx, fd))
			abort(); /* the emulator lost track of its own fd */
	}
	return 0;
}
