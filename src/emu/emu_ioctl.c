/* SPDX-License-Identifier: MIT */
/*
 * The emulated /dev/kfd ioctls: a dispatch table indexed by the AMDKFD_IOC
 * number, with amdkfd's argument copying (kfd_chardev.c kfd_ioctl: copy
 * the smaller of the user and kernel sizes in, zero the rest, copy back
 * for _IOC_OUT commands even when the handler fails), GET_VERSION,
 * GET_CLOCK_COUNTERS, ACQUIRE_VM, the memory ioctls, the event ioctls and SMI_EVENTS.
 *
 * Errno values follow kfd_chardev.c (kfd_ioctl_create_event, kfd_ioctl_wait_events,
 * kfd_ioctl_alloc_memory_of_gpu and the rest): unknown gpu_id -EINVAL, no VM acquired -ENODEV (kfd_bind_process_to_device), unknown
 * handle -EINVAL (free) / -ENOMEM (map, unmap), still mapped -EBUSY,
 * freeing the signal page -EPERM, ACQUIRE_VM with another DRM file -EBUSY.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu/emu_priv.h"

static long page_sz(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? p : 4096;
}

static int gpu_index(struct kfdsig_emu *emu, uint32_t gpu_id)
{
	struct emu_gpu *g = emu_gpu_by_id(emu, gpu_id);
	return g ? (int)g->index : -1;
}

/* kfd_process_device_data_by_id + kfd_bind_process_to_device */
static int bind(struct kfdsig_emu *emu, struct emu_proc *p, uint32_t gpu_id)
{
	int i = gpu_index(emu, gpu_id);

	if (i < 0)
		return -EINVAL;
	if (!p->pdd[i].vm)
		return -ENODEV;
	return i;
}

struct emu_bo *emu_bo_by_handle(struct emu_proc *p, uint64_t handle)
{
	for (struct emu_bo *bo = p->bos; bo; bo = bo->next)
		if (bo->handle == handle)
			return bo;
	return NULL;
}

static void bo_free(struct emu_bo *bo)
{
	if (bo->memfd >= 0) {
		munmap(bo->kptr, bo->size);
		close(bo->memfd);
	}
	free(bo);
}

void emu_proc_free_memory(struct emu_proc *p)
{
	for (int i = 0; i < EMU_MAX_GPUS; i++)
		if (p->pdd[i].db_memfd >= 0) {
			munmap(p->pdd[i].db_kptr, p->emu->gpus[i].gen.doorbell_slice);
			close(p->pdd[i].db_memfd);
			p->pdd[i].db_memfd = -1;
		}
	while (p->bos) {
		struct emu_bo *bo = p->bos;
		p->bos = bo->next;
		bo_free(bo);
	}
}

/* ---- handlers --------------------------------------------------------- */

static int get_version(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_get_version_args *a = data;

	(void)p;
	a->major_version = emu->major;
	a->minor_version = emu->minor;
	return 0;
}

static uint64_t host_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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
	a->cpu_clock_counter = host_ns(CLOCK_MONOTONIC_RAW);
	a->system_clock_counter = host_ns(CLOCK_BOOTTIME);
	a->system_clock_freq = 1000000000ull;
	return 0;
}

static int acquire_vm(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_acquire_vm_args *a = data;
	struct emu_file *f;
	int i = gpu_index(emu, a->gpu_id);

	if (i < 0)
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, (int)a->drm_fd);
	pthread_mutex_unlock(&emu->lock);
	if (!f)
		return -EINVAL; /* fget(drm_fd) failed */
	/* Emulator choice: a file that is not this GPU's render node cannot
	 * give its VM (the kernel fails inside amdgpu for such a file). */
	if (f->kind != EMU_FILE_RENDER || f->gpu->index != (uint32_t)i)
		return -EINVAL;
	pthread_mutex_lock(&p->lock);
	if (p->pdd[i].vm) {
		int r = p->pdd[i].drm_file == f ? 0 : -EBUSY;
		pthread_mutex_unlock(&p->lock);
		return r;
	}
	p->pdd[i].vm = true;
	p->pdd[i].drm_file = f;
	pthread_mutex_unlock(&p->lock);
	return 0;
}

static uint32_t lowest_free_idr(struct emu_proc *p, uint32_t gi)
{
	for (uint32_t id = 0;; id++) {
		bool used = false;
		for (struct emu_bo *bo = p->bos; bo && !used; bo = bo->next)
			used = bo->gpu_index == gi && KFDSIG_HANDLE_IDR(bo->handle) == id;
		if (!used)
			return id;
	}
}

static int alloc_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args *a = data;
	uint64_t pg = (uint64_t)page_sz(), size;
	struct emu_bo *bo;
	int i, r = 0;

	if (!a->size)
		return -EINVAL;
	pthread_mutex_lock(&p->lock);
	i = bind(emu, p, a->gpu_id);
	if (i < 0) {
		r = i;
		goto out;
	}
	if (!(a->flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT |
			  KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL |
			  KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP))) {
		r = -EINVAL;
		goto out;
	}
	size = (a->size + pg - 1) & ~(pg - 1);
	/* Emulator choice: the GPU VA must be page aligned and free in the
	 * process's VMs (the kernel refuses the overlapping mapping later). */
	if (!a->va_addr || (a->va_addr & (pg - 1))) {
		r = -EINVAL;
		goto out;
	}
	/* amdgpu_vm.c amdgpu_vm_bo_map() refuses a mapping beyond the VM
	 * (-EINVAL); the VM size is the GPU's (emu_gen.c va_bits: 40 bits on
	 * gfx8). The emulator refuses it at allocation already. */
	if (a->va_addr + size < a->va_addr ||
	    a->va_addr + size > (1ull << emu->gpus[i].gen.va_bits)) {
		r = -EINVAL;
		goto out;
	}
	for (bo = p->bos; bo; bo = bo->next)
		if (a->va_addr < bo->va + bo->size && bo->va < a->va_addr + size) {
			r = -EINVAL;
			goto out;
		}
	bo = calloc(1, sizeof(*bo));
	if (!bo) {
		r = -ENOMEM;
		goto out;
	}
	bo->gpu_index = (uint32_t)i;
	bo->va = a->va_addr;
	bo->size = size;
	bo->flags = a->flags;
	bo->memfd = -1;
	if (a->flags & (KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP)) {
		r = emu_alloc_special(emu, p, (uint32_t)i, a, bo); /* emu_ioctl_proc.c */
		if (r) {
			free(bo);
			goto out;
		}
	} else if (a->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
		/* The user's own pages back it: mmap_offset is their address. */
		if (!a->mmap_offset || (a->mmap_offset & (pg - 1))) {
			free(bo);
			r = -EINVAL;
			goto out;
		}
		/* The kernel pins the user's pages here and fails for a
		 * range that is not mapped (amdgpu_amdkfd_gpuvm_alloc_memory_
		 * of_gpu -> init_user_pages -> amdgpu_ttm_tt_get_user_pages): the
		 * engines run in the client's address space and use its pages
		 * directly, and would otherwise write through a wild pointer. Emulator limit: a range
		 * unmapped later is not evicted as the MMU notifier would. */
		if (!emu_user_range_rw(a->mmap_offset, size)) {
			free(bo);
			r = -EFAULT;
			goto out;
		}
		bo->kptr = (void *)(uintptr_t)a->mmap_offset;
	} else {
		bo->memfd = memfd_create("kfdsig-emu-bo", MFD_CLOEXEC);
		if (bo->memfd < 0 || ftruncate(bo->memfd, (off_t)size)) {
			r = -ENOMEM;
			if (bo->memfd >= 0)
				close(bo->memfd);
			free(bo);
			goto out;
		}
		bo->kptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, bo->memfd, 0);
		if (bo->kptr == MAP_FAILED) {
			close(bo->memfd);
			free(bo);
			r = -ENOMEM;
			goto out;
		}
		/* lock-free: p->lock is held and emu->lock comes first */
		bo->mmap_offset = __atomic_fetch_add(&emu->next_mmap_offset, size + pg,
						     __ATOMIC_RELAXED); /* guard page between */
		a->mmap_offset = bo->mmap_offset;
	}
	bo->handle = KFDSIG_MAKE_HANDLE(a->gpu_id, lowest_free_idr(p, (uint32_t)i));
	a->handle = bo->handle;
	bo->next = p->bos;
	p->bos = bo;
out:
	pthread_mutex_unlock(&p->lock);
	return r;
}

static int free_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_free_memory_of_gpu_args *a = data;
	struct emu_bo **pp, *bo;
	int r;

	pthread_mutex_lock(&p->lock);
	if (p->signal_handle && p->signal_handle == a->handle) {
		r = -EPERM; /* "Free signal BO is not allowed" */
		goto out;
	}
	r = bind(emu, p, KFDSIG_HANDLE_GPU_ID(a->handle));
	if (r < 0)
		goto out;
	for (pp = &p->bos; *pp && (*pp)->handle != a->handle; pp = &(*pp)->next)
		;
	bo = *pp;
	if (!bo) {
		r = -EINVAL;
		goto out;
	}
	if (bo->mapped) {
		r = -EBUSY; /* still mapped to a GPU */
		goto out;
	}
	*pp = bo->next;
	bo_free(bo);
	r = 0;
out:
	pthread_mutex_unlock(&p->lock);
	return r;
}

static int map_unmap(struct kfdsig_emu *emu, struct emu_proc *p, void *data, bool map)
{
	struct kfd_ioctl_map_memory_to_gpu_args *a = data; /* same layout for unmap */
	const void *uids = (const void *)(uintptr_t)a->device_ids_array_ptr;
	uint32_t *ids;
	struct emu_bo *bo;
	int r;

	/* kfd_ioctl_map_memory_to_gpu / _unmap_memory_from_gpu: n_devices 0
	 * or n_success past it is -EINVAL; the whole array is then copied in
	 * (kmalloc_array: past KMALLOC_MAX_SIZE, 4 MiB with 4 KiB pages and
	 * MAX_PAGE_ORDER 10, it fails with -ENOMEM before reading). */
	if (!a->n_devices || a->n_success > a->n_devices)
		return -EINVAL;
	if ((uint64_t)a->n_devices * sizeof(uint32_t) > EMU_KMALLOC_MAX)
		return -ENOMEM;
	ids = malloc((size_t)a->n_devices * sizeof(uint32_t));
	if (!ids)
		return -ENOMEM;
	if (emu_copy_from_user(ids, uids, (size_t)a->n_devices * sizeof(uint32_t))) {
		free(ids);
		return -EFAULT;
	}
	pthread_mutex_lock(&p->lock);
	r = bind(emu, p, KFDSIG_HANDLE_GPU_ID(a->handle));
	if (r < 0)
		goto out;
	bo = emu_bo_by_handle(p, a->handle);
	if (!bo) {
		r = -ENOMEM; /* kfd_process_device_translate_handle failed */
		goto out;
	}
	for (uint32_t i = a->n_success; i < a->n_devices; i++) {
		int gi = bind(emu, p, ids[i]);
		if (gi < 0) {
			r = gi;
			goto out;
		}
		if (map) {
			bo->mapped |= 1u << gi;
		} else {
			if (!(bo->mapped & (1u << gi))) {
				r = -EINVAL; /* not mapped on that GPU */
				goto out;
			}
			if (emu_bo_in_queue_use(p, bo)) {
				r = -EBUSY; /* a queue still uses it */
				goto out;
			}
			bo->mapped &= ~(1u << gi);
		}
		a->n_success = i + 1;
	}
	r = 0;
out:
	pthread_mutex_unlock(&p->lock);
	free(ids);
	return r;
}

static int map_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	return map_unmap(emu, p, data, true);
}

static int unmap_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	return map_unmap(emu, p, data, false);
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
		r = bind(emu, p, KFDSIG_HANDLE_GPU_ID(a->event_page_offset));
		if (r < 0)
			goto out;
		bo = emu_bo_by_handle(p, a->event_page_offset);
		/* A GTT buffer (amdgpu_amdkfd_gpuvm_map_gtt_bo_to_kernel pins
		 * it in GTT; userptr is refused), of at least 32 KiB (the
		 * 2026 out-of-bounds fix; older kernels overflowed). */
		if (!bo || (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) ||
		    !(bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT) ||
		    bo->size < KFDSIG_SIGNAL_PAGE_SIZE) {
			r = -EINVAL;
			goto out;
		}
		memset(bo->kptr, 0xff, KFDSIG_SIGNAL_PAGE_SIZE);
		p->signal_page = bo->kptr;
		p->signal_mapped_size = bo->size;
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
	IOCTL(AMDKFD_IOC_ACQUIRE_VM, acquire_vm, 1),
	IOCTL(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, alloc_memory, 1),
	IOCTL(AMDKFD_IOC_FREE_MEMORY_OF_GPU, free_memory, 1),
	IOCTL(AMDKFD_IOC_MAP_MEMORY_TO_GPU, map_memory, 1),
	IOCTL(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, unmap_memory, 1),
	IOCTL(AMDKFD_IOC_SMI_EVENTS, smi_events, 3),
};

int emu_ioctl(struct kfdsig_emu *emu, int fd, unsigned long cmd, void *arg)
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
	if (g)
		return emu_drm_ioctl(emu, g, cmd, arg);
	if (f->kind == EMU_FILE_KFD && !p)
		return -EBADF;
	if (!p)
		return -ENOTTY;

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

/* DRM GEM mmap of a buffer at its render-node offset: the range must lie
 * inside one object of a process whose VM this render file holds. Called
 * with emu->lock held. */
int emu_render_mmap(struct kfdsig_emu *emu, struct emu_file *f, void **out, void *addr, size_t len,
		    int prot, int flags, uint64_t off)
{
	for (struct emu_proc *p = emu->procs; p; p = p->next) {
		if (p->closed || !p->pdd[f->gpu->index].vm || p->pdd[f->gpu->index].drm_file != f)
			continue;
		pthread_mutex_lock(&p->lock);
		for (struct emu_bo *bo = p->bos; bo; bo = bo->next) {
			void *m;
			if (bo->memfd < 0 || off < bo->mmap_offset ||
			    off + len > bo->mmap_offset + bo->size)
				continue;
			m = mmap(addr, len, prot, flags, bo->memfd, (off_t)(off - bo->mmap_offset));
			pthread_mutex_unlock(&p->lock);
			if (m == MAP_FAILED)
				return -errno;
			*out = m;
			return 0;
		}
		pthread_mutex_unlock(&p->lock);
	}
	return -EINVAL;
}
