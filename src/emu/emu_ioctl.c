/* SPDX-License-Identifier: MIT */
/*
 * The emulated /dev/kfd ioctls: a dispatch table indexed by the AMDKFD_IOC
 * number, with amdkfd's argument copying (kfd_chardev.c kfd_ioctl: copy
 * the smaller of the user and kernel sizes in, zero the rest, copy back
 * for _IOC_OUT commands even when the handler fails), GET_VERSION,
 * GET_CLOCK_COUNTERS, the event ioctls and SMI_EVENTS. The memory ioctls
 * are emu_mem.c's, the queue ioctls emu_queue.c's, the process-setup ones
 * emu_ioctl_proc.c's.
 *
 * Errno values follow kfd_chardev.c (kfd_ioctl_create_event,
 * kfd_ioctl_wait_events and the rest): unknown gpu_id -EINVAL, no VM
 * acquired -ENODEV (kfd_bind_process_to_device).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_debug.h"
#include "emu/emu_priv.h"

/* ---- handlers --------------------------------------------------------- */

static int get_version(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_get_version_args *a = data;

	(void)p;
	a->major_version = emu->major;
	a->minor_version = emu->minor;
	return 0;
}

/* kfd_chardev.c kfd_ioctl_get_clock_counters: the GPU counter (0 for a
 * gpu_id without a GPU, still success), then CLOCK_MONOTONIC_RAW and
 * CLOCK_BOOTTIME in ns with a 1 GHz system frequency. Needs no VM. */
static int get_clock_counters(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_get_clock_counters_args *a = data;
	struct emu_gpu *g = emu_gpu_by_id(emu, a->gpu_id);

	(void)p;
	a->gpu_clock_counter = g ? emu_gpu_clock(g) : 0;
	a->cpu_clock_counter = emu_host_ns(CLOCK_MONOTONIC_RAW);
	a->system_clock_counter = emu_host_ns(CLOCK_BOOTTIME);
	a->system_clock_freq = 1000000000ull;
	return 0;
}

/*
 * kfd_events.c kfd_event_page_set(): a user signal page smaller than
 * KFD_SIGNAL_EVENT_LIMIT * 8 bytes is refused with -EINVAL since commit
 * 8a70a26c9f34 ("drm/amdkfd: Fix out-of-bounds write in
 * kfd_event_page_set()", Feb 2026, Cc: stable, backported to the
 * maintained stable trees). The releases of the v6.14 profile (v6.14 to
 * v6.18 as tagged) predate it and accept the buffer. The default profile
 * also stands for releases before v6.14 that lacked it; it refuses, as
 * every maintained kernel and the DKMS driver do (the safe choice: a
 * program that passes there passes on the older kernels too).
 */
static int emu_signal_page_size_check(const struct kfdsig_emu *emu, uint64_t size)
{
	if (emu->profile == KFDSIG_EMU_KERNEL_V6_14_DROP)
		return 0;
	return size < KFD_SIGNAL_EVENT_LIMIT * 8ull ? -EINVAL : 0;
}

/* kfd_ioctl_create_event + kfd_kmap_event_page + kfd_event_page_set
 * (kfd_events.c kfd_event_page_set() / kfd_event_create()): the user page is installed before the event is created. */
static int create_event(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_create_event_args *a = data;
	int r = 0;

	pthread_mutex_lock(&p->lock);
	if (a->event_page_offset) {
		struct emu_bo *bo;

		if (p->signal_page) {
			r = -EINVAL; /* "Event page is already set" */
			goto out;
		}
		r = emu_bind(emu, p, KFDSIG_HANDLE_GPU_ID(a->event_page_offset));
		if (r < 0)
			goto out;
		bo = emu_bo_by_handle(p, a->event_page_offset);
		/* A GTT buffer (amdgpu_amdkfd_gpuvm_map_gtt_bo_to_kernel pins
		 * it in GTT; userptr is refused). */
		if (!bo || (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) ||
		    !(bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT)) {
			r = -EINVAL;
			goto out;
		}
		r = emu_signal_page_size_check(emu, bo->size);
		if (r)
			goto out;
		/* The kernel sets KFD_SIGNAL_EVENT_LIMIT slots to all ones; on
		 * a release without the size check a smaller buffer made that
		 * memset run past its end into kernel memory. The emulator
		 * writes only the buffer: the ids the kernel hands out stay
		 * below its size / 8 either way (create_signal_event()). */
		memset(bo->kptr, 0xff,
		       bo->size < KFDSIG_SIGNAL_PAGE_SIZE ? bo->size : KFDSIG_SIGNAL_PAGE_SIZE);
		p->signal_page = bo->kptr;
		p->signal_mapped_size = bo->size;
		p->signal_slots = bo->size < KFDSIG_SIGNAL_PAGE_SIZE ? (uint32_t)(bo->size / 8)
								     : KFD_SIGNAL_EVENT_LIMIT;
		p->signal_handle = a->event_page_offset;
	}
	r = emu_create_event(p, a);
out:
	pthread_mutex_unlock(&p->lock);
	return r;
}

static int destroy_event(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_destroy_event_args *a = data;
	int r;

	(void)emu;
	pthread_mutex_lock(&p->lock);
	r = emu_destroy_event(p, a->event_id);
	pthread_mutex_unlock(&p->lock);
	return r;
}

static int set_event(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_set_event_args *a = data;
	int r;

	(void)emu;
	pthread_mutex_lock(&p->lock);
	r = emu_set_event_ioctl(p, a->event_id);
	pthread_mutex_unlock(&p->lock);
	return r;
}

static int reset_event(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_reset_event_args *a = data;
	int r;

	(void)emu;
	pthread_mutex_lock(&p->lock);
	r = emu_reset_event_ioctl(p, a->event_id);
	pthread_mutex_unlock(&p->lock);
	return r;
}

static int wait_events(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	(void)emu;
	return emu_wait_events(p, data);
}

static int smi_events(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_smi_events_args *a = data;
	struct emu_gpu *g = emu_gpu_by_id(emu, a->gpuid);
	int fd, r;

	if (!g)
		return -EINVAL;
	r = emu_smi_open(emu, g, p, &fd);
	if (r < 0)
		return r;
	a->anon_fd = (uint32_t)fd;
	return 0;
}

/* AMDKFD_IOC_CREATE_PROCESS, KFD 1.19 (commit cc6b66d661fd, kfd_chardev.c
 * kfd_ioctl_create_process()): a new secondary process, with its own PASID,
 * events, memory and queues, replaces the fd's process; a secondary fd
 * refuses it (-EINVAL, "Each FD owns only one kfd_process"). The fd held
 * the only reference of a per-open process, so that one ends here; a
 * per-pid primary lives on with its mm. A secondary ends with its fd
 * (commit 65cce2a172ff "destroy kfd secondary contexts through fd close"). */
static int create_process(struct kfdsig_emu *emu, struct emu_file *f, struct emu_proc *p)
{
	struct emu_proc *np;
	bool per_open = emu->pmodel == KFDSIG_EMU_PROCESS_PER_OPEN;
	int r;

	if (p->secondary)
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	if (f->proc != p) {
		pthread_mutex_unlock(&emu->lock);
		return -EINVAL;
	}
	r = emu_proc_new(emu, &np);
	if (r) {
		pthread_mutex_unlock(&emu->lock);
		return r;
	}
	np->secondary = true;
	np->pid = p->pid;
	/* the lowest context id no live secondary of this primary holds */
	for (bool taken = true; taken;) {
		taken = false;
		for (struct emu_proc *o = emu->procs; o && !taken; o = o->next)
			taken = o != np && o->secondary && !o->closed && o->pid == np->pid &&
				o->context_id == np->context_id;
		np->context_id += taken;
	}
	(void)emu_sysfs_proc_add(emu, np);
	f->proc = np;
	if (per_open)
		p->closed = true;
	pthread_mutex_unlock(&emu->lock);
	if (per_open)
		emu_queues_fini(p);
	emu_proc_put(p); /* the file's reference (kfd_unref_process) */
	return 0;
}

/* ---- dispatch --------------------------------------------------------- */

#define IOCTL(nr_cmd, f, minor) [_IOC_NR(nr_cmd)] = { nr_cmd, f, minor }

/* Indexed by ioctl number; entries with fn == NULL answer -EOPNOTSUPP. */
static const struct emu_ioctl_ext ioctls[] = {
	IOCTL(AMDKFD_IOC_GET_VERSION, get_version, 1),
	IOCTL(AMDKFD_IOC_GET_CLOCK_COUNTERS, get_clock_counters, 1),
	/* the 1.17 layout: older callers' shorter struct is zero-filled */
	IOCTL(KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17, emu_create_queue, 1),
	IOCTL(AMDKFD_IOC_DESTROY_QUEUE, emu_destroy_queue, 1),
	IOCTL(AMDKFD_IOC_UPDATE_QUEUE, NULL, 1),
	IOCTL(AMDKFD_IOC_CREATE_EVENT, create_event, 1),
	IOCTL(AMDKFD_IOC_DESTROY_EVENT, destroy_event, 1),
	IOCTL(AMDKFD_IOC_SET_EVENT, set_event, 1),
	IOCTL(AMDKFD_IOC_RESET_EVENT, reset_event, 1),
	IOCTL(AMDKFD_IOC_WAIT_EVENTS, wait_events, 1),
	IOCTL(AMDKFD_IOC_ACQUIRE_VM, emu_acquire_vm, 1),
	IOCTL(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, emu_alloc_memory, 1),
	IOCTL(AMDKFD_IOC_FREE_MEMORY_OF_GPU, emu_free_memory, 1),
	IOCTL(AMDKFD_IOC_MAP_MEMORY_TO_GPU, emu_map_memory, 1),
	IOCTL(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, emu_unmap_memory, 1),
	IOCTL(AMDKFD_IOC_GET_DMABUF_INFO, emu_get_dmabuf_info, 1),
	IOCTL(AMDKFD_IOC_IMPORT_DMABUF, emu_import_dmabuf, 1),
	IOCTL(AMDKFD_IOC_SMI_EVENTS, smi_events, 3),
	/* kfd_ioctl.h history: 1.12 "Add DMA buf export ioctl" */
	IOCTL(KFDSIG_AMDKFD_IOC_EXPORT_DMABUF, emu_export_dmabuf, 12),
	/* kfd_ioctl.h history: 1.13 "Add debugger API" (emu_debug.c) */
	IOCTL(KFDSIG_AMDKFD_IOC_RUNTIME_ENABLE, emu_runtime_enable, 13),
	IOCTL(KFDSIG_AMDKFD_IOC_DBG_TRAP, emu_dbg_trap, 13),
};

static int ioctl_one(struct kfdsig_emu *emu, int fd, unsigned long cmd, void *arg)
{
	unsigned nr = _IOC_NR(cmd);
	const struct emu_ioctl_ext *d;
	_Alignas(16) unsigned char kdata[1u << 14]; /* _IOC_SIZE is 14 bits */
	size_t usize, ksize;
	struct emu_file *f;
	struct emu_proc *p;
	struct emu_gpu *g;
	int r;

	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, fd);
	p = f && f->kind == EMU_FILE_KFD ? f->proc : NULL;
	/* kfd_ioctl: only the process that opened /dev/kfd may use the fd
	 * ("Using KFD FD in wrong process"); a child makes its own. */
	if (p && emu->pmodel == KFDSIG_EMU_PROCESS_PER_PID && p->pid != getpid())
		p = NULL;
	if (p)
		p->refs++;
	g = f && f->kind == EMU_FILE_RENDER ? f->gpu : NULL;
	pthread_mutex_unlock(&emu->lock);
	if (!f)
		return -EBADF;
	if (f->kind == EMU_FILE_SYNC)
		return emu_sync_file_ioctl(f, cmd, arg);
	if (g) {
		r = emu_userq_ioctl(emu, f, cmd, arg);
		return r == -EMU_ENOIOCTLCMD ? emu_drm_ioctl(emu, g, cmd, arg) : r;
	}
	if (f->kind == EMU_FILE_KFD && !p)
		return -EBADF;
	if (!p)
		return -ENOTTY;
	if (cmd == KFDSIG_AMDKFD_IOC_CREATE_PROCESS && emu_version_at_least(emu, 19)) {
		r = create_process(emu, f, p);
		goto out;
	}
	/* The debug trap and SVM act on the primary only (commits
	 * e3491fa3f3c9 "amdkfd: process debug trap ioctl only on a primary
	 * context", 26fc46d7942d "amdkfd: process svm ioctl only on the
	 * primary kfd process"); the errno is UNVERIFIED, -EINVAL chosen. */
	if (p->secondary && _IOC_TYPE(cmd) == AMDKFD_IOCTL_BASE &&
	    (nr == _IOC_NR(KFDSIG_AMDKFD_IOC_DBG_TRAP) || nr == 0x20)) {
		r = -EINVAL;
		goto out;
	}

	/* the process-setup ioctls live in emu_ioctl_proc.c */
	if (nr < KFDSIG_ARRAY_SIZE(ioctls) && !ioctls[nr].fn && emu_ioctl_ext_find(nr))
		d = emu_ioctl_ext_find(nr);
	else
		d = nr < KFDSIG_ARRAY_SIZE(ioctls) ? &ioctls[nr] : emu_ioctl_ext_find(nr);
	if (_IOC_TYPE(cmd) != AMDKFD_IOCTL_BASE || !d || !d->cmd ||
	    !emu_version_at_least(emu, d->min_minor)) {
		/* kfd_ioctl: a number past amdkfd_ioctls[] is -ENOTTY since
		 * the 2025 fix ("return -ENOTTY for unsupported IOCTLs"),
		 * -EINVAL before; the emulator follows current kernels */
		r = -ENOTTY;
		goto out;
	}
	if (!d->fn) {
		r = -EOPNOTSUPP;
		goto out;
	}
	/* kfd_ioctl (kfd_chardev.c): the direction bits are the kernel's
	 * own (cmd = ioctl->cmd); the user's whole size is copied in with
	 * copy_from_user (a bigger user struct is read whole, its tail
	 * ignored), the rest of the kernel struct zero-filled, and the
	 * user's size copied back for _IOC_OUT commands even when the
	 * handler failed (-EFAULT then replaces its answer). A size of 0
	 * copies nothing, whatever the pointer. */
	usize = _IOC_SIZE(cmd);
	ksize = _IOC_SIZE(d->cmd);
	if (ksize > sizeof(kdata) || usize > sizeof(kdata)) {
		r = -EFAULT;
		goto out;
	}
	memset(kdata, 0, usize > ksize ? usize : ksize);
	/* from here the stack below this frame is the emulator's own */
	emu_uaccess_enter((uintptr_t)__builtin_frame_address(0));
	if (d->cmd & IOC_IN) {
		r = emu_copy_from_user(kdata, arg, usize);
		if (r) {
			emu_uaccess_leave();
			goto out;
		}
	}
	emu_wake_begin(); /* SET_EVENT, DESTROY_EVENT: wake after the unlock */
	r = d->fn(emu, p, kdata);
	emu_wake_end();
	if ((d->cmd & IOC_OUT) && emu_copy_to_user(arg, kdata, usize))
		r = -EFAULT;
	emu_uaccess_leave();
out:
	emu_proc_put(p);
	return r;
}

/* Each call counts when it enters and when it returns (the host's stall
 * report: a call that ends, a blocking WAIT_EVENTS too, is activity). */
int emu_ioctl(struct kfdsig_emu *emu, int fd, unsigned long cmd, void *arg)
{
	int r;

	__atomic_fetch_add(&emu->ioctl_calls, 1, __ATOMIC_RELAXED);
	r = ioctl_one(emu, fd, cmd, arg);
	__atomic_fetch_add(&emu->ioctl_calls, 1, __ATOMIC_RELAXED);
	return r;
}
