/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's buffer memory (kfd_chardev.c kfd_ioctl_acquire_vm,
 * kfd_ioctl_alloc_memory_of_gpu, kfd_ioctl_free_memory_of_gpu,
 * kfd_ioctl_map_memory_to_gpu / _unmap_memory_from_gpu): a process's
 * buffer objects, their GPU mappings, the render-node mmap of a buffer and
 * the GPU VA lookup the engines write through (kfdsig_emu_gpu_ptr).
 *
 * Errno values follow kfd_chardev.c: unknown gpu_id -EINVAL, no VM
 * acquired -ENODEV (kfd_bind_process_to_device), unknown handle -EINVAL
 * (free) / -ENOMEM (map, unmap), still mapped -EBUSY, freeing the signal
 * page -EPERM, ACQUIRE_VM with another DRM file -EBUSY.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/emu_priv.h"
#include "emu/sq/sqk.h"

static long page_sz(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? p : 4096;
}

/* ---- dma-buf ------------------------------------------------------------ */

/*
 * A VRAM or GTT buffer's backing memfd is named DMABUF_NAME followed by
 * its GPU id and the flags amdgpu_amdkfd_get_dmabuf_info() reports for it
 * (amdgpu_amdkfd_gpuvm.c: VRAM when its preferred domain is VRAM, else
 * GTT, and PUBLIC when it was made CPU-accessible): EXPORT_DMABUF hands
 * out a duplicate of that memfd as the dma-buf fd, and GET_DMABUF_INFO /
 * IMPORT_DMABUF know it by that name, in this process or in another
 * (the fd passed over a socket) whose emulated GPUs have the same ids.
 */
#define DMABUF_NAME "kfdsig-emu-bo:"

static uint32_t dmabuf_flags(uint32_t alloc_flags)
{
	return ((alloc_flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) ? KFD_IOC_ALLOC_MEM_FLAGS_VRAM
							     : KFD_IOC_ALLOC_MEM_FLAGS_GTT) |
	       (alloc_flags & KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC);
}

/* dma_buf_get(): an fd that is not open is -EBADF, a file that is not a
 * dma-buf -EINVAL; amdgpu_amdkfd_get_dmabuf_info() and import_obj_create():
 * a dma-buf amdgpu did not export -EINVAL. */
static int dmabuf_of(uint32_t fd, uint32_t *gpu_id, uint32_t *flags, uint64_t *size)
{
	char path[32], link[128];
	struct stat st;
	ssize_t n;

	if ((int)fd < 0 || fstat((int)fd, &st))
		return -EBADF;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", (int)fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -EINVAL;
	link[n] = 0;
	if (sscanf(link, "/memfd:" DMABUF_NAME "%x:%x", gpu_id, flags) != 2 || !st.st_size)
		return -EINVAL;
	*size = (uint64_t)st.st_size;
	return 0;
}

struct emu_bo *emu_bo_by_handle(struct emu_proc *p, uint64_t handle)
{
	for (struct emu_bo *bo = p->bos; bo; bo = bo->next)
		if (bo->handle == handle)
			return bo;
	return NULL;
}

/* [va, va + size) overlaps a buffer of the process (VA 0: no address yet,
 * never taken). */
static bool va_taken(const struct emu_proc *p, uint64_t va, uint64_t size)
{
	for (const struct emu_bo *bo = p->bos; bo && va; bo = bo->next)
		if (va < bo->va + bo->size && bo->va < va + size)
			return true;
	return false;
}

static void bo_free(struct emu_proc *p, struct emu_bo *bo)
{
	/* amdgpu_amdkfd_unreserve_mem_limit() */
	__atomic_fetch_sub(&p->emu->sys_mem_used, bo->sys_mem, __ATOMIC_RELAXED);
	if (bo->memfd >= 0) {
		munmap(bo->kptr, bo->size);
		close(bo->memfd);
	}
	free(bo);
}

void emu_proc_free_memory(struct emu_proc *p)
{
	for (int i = 0; i < EMU_MAX_GPUS; i++) {
		sqk_gws_free(p->pdd[i].gws_state);
		p->pdd[i].gws_state = NULL;
	}
	for (int i = 0; i < EMU_MAX_GPUS; i++)
		if (p->pdd[i].db_memfd >= 0) {
			munmap(p->pdd[i].db_kptr, p->emu->gpus[i].gen.doorbell_slice);
			close(p->pdd[i].db_memfd);
			p->pdd[i].db_memfd = -1;
		}
	while (p->bos) {
		struct emu_bo *bo = p->bos;
		p->bos = bo->next;
		bo_free(p, bo);
	}
}

int emu_acquire_vm(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_acquire_vm_args *a = data;
	struct emu_file *f;
	int i = emu_gpu_index(emu, a->gpu_id);

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
	size_t n = 0;
	uint8_t *seen;

	/* one pass: with n buffers the lowest free id is at most n */
	for (struct emu_bo *bo = p->bos; bo; bo = bo->next)
		n++;
	seen = calloc(n + 1, 1);
	if (seen) {
		uint32_t id = 0;

		for (struct emu_bo *bo = p->bos; bo; bo = bo->next)
			if (bo->gpu_index == gi && KFDSIG_HANDLE_IDR(bo->handle) <= n)
				seen[KFDSIG_HANDLE_IDR(bo->handle)] = 1;
		while (seen[id])
			id++;
		free(seen);
		return id;
	}
	for (uint32_t id = 0;; id++) {
		bool used = false;
		for (struct emu_bo *bo = p->bos; bo && !used; bo = bo->next)
			used = bo->gpu_index == gi && KFDSIG_HANDLE_IDR(bo->handle) == id;
		if (!used)
			return id;
	}
}

int emu_alloc_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args *a = data;
	uint64_t pg = (uint64_t)page_sz(), size;
	struct emu_bo *bo;
	int i, r = 0;

	if (!a->size)
		return -EINVAL;
	/* USERPTR on the primary only (commit 1707d5760c71 "amdkfd: process
	 * USERPTR allocation only on the primary kfd process"); the errno is
	 * UNVERIFIED, -EINVAL chosen. */
	if (p->secondary && (a->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR))
		return -EINVAL;
	pthread_mutex_lock(&p->lock);
	i = emu_bind(emu, p, a->gpu_id);
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
	/* VA 0 is accepted: libhsakmt gives it to buffers it never maps
	 * (fmm.c fmm_allocate_memory_object() for mem_handle_aperture, the
	 * NoAddress allocations); the kernel refuses it only when mapping
	 * (amdgpu_amdkfd_gpuvm.c kfd_mem_attach(): "Invalid VA when adding
	 * BO to VM", -EINVAL, map_unmap() below). Emulator choice: any other
	 * VA must be page aligned and free in the process's VMs (the kernel
	 * refuses the misaligned or overlapping mapping later). */
	if (a->va_addr & (pg - 1)) {
		r = -EINVAL;
		goto out;
	}
	/* A VA past the GPU's VM is accepted here: the kernel keeps it in
	 * the kgd_mem and only amdgpu_vm_bo_map() (at MAP_MEMORY_TO_GPU,
	 * map_unmap() below) refuses it. libhsakmt's NoAddress allocations
	 * ("vram allocation without addr", fmm.c mem_handle_aperture) take
	 * such VAs. A range that wraps is refused. */
	if (a->va_addr + size < a->va_addr) {
		r = -EINVAL;
		goto out;
	}
	if (va_taken(p, a->va_addr, size)) {
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
	/* amdgpu_amdkfd_gpuvm.c amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu():
	 * an AQL_QUEUE_MEM allocation (gfx7/8 rings, the AQL wrap-around
	 * workaround) is backed by half its size, which kfd_mem_attach()
	 * maps twice (va and va + half). libhsakmt's userptr path maps only
	 * that first half for the CPU (fmm.c fmm_allocate_host_gpu). Emulator
	 * limit: the second, aliasing GPU mapping is not made; the VA range
	 * stays claimed whole by the overlap check above. */
	if (a->flags & KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM)
		size = ((a->size >> 1) + pg - 1) & ~(pg - 1);
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
		char name[48];

		/* the name is what a dma-buf export of it is known by
		 * (dmabuf_of()) */
		snprintf(name, sizeof(name), "%s%x:%x", DMABUF_NAME, a->gpu_id,
			 dmabuf_flags(a->flags));
		bo->memfd = memfd_create(name, MFD_CLOEXEC);
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
	/* amdgpu_amdkfd_reserve_mem_limit(): a GTT or USERPTR buffer takes
	 * its size of max_system_mem_limit, -ENOMEM past it (the TTM limit
	 * of GTT and the VRAM limit are not modelled) */
	if (a->flags & (KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)) {
		if (__atomic_add_fetch(&emu->sys_mem_used, size, __ATOMIC_RELAXED) >
		    emu->sys_mem_limit) {
			__atomic_fetch_sub(&emu->sys_mem_used, size, __ATOMIC_RELAXED);
			bo_free(p, bo);
			r = -ENOMEM;
			goto out;
		}
		bo->sys_mem = size;
	}
	bo->handle = KFDSIG_MAKE_HANDLE(a->gpu_id, lowest_free_idr(p, (uint32_t)i));
	a->handle = bo->handle;
	bo->next = p->bos;
	p->bos = bo;
out:
	pthread_mutex_unlock(&p->lock);
	return r;
}

int emu_free_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_free_memory_of_gpu_args *a = data;
	struct emu_bo **pp, *bo;
	int r;

	pthread_mutex_lock(&p->lock);
	if (p->signal_handle && p->signal_handle == a->handle) {
		r = -EPERM; /* "Free signal BO is not allowed" */
		goto out;
	}
	r = emu_bind(emu, p, KFDSIG_HANDLE_GPU_ID(a->handle));
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
	bo_free(p, bo);
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
	r = emu_bind(emu, p, KFDSIG_HANDLE_GPU_ID(a->handle));
	if (r < 0)
		goto out;
	bo = emu_bo_by_handle(p, a->handle);
	if (!bo) {
		r = -ENOMEM; /* kfd_process_device_translate_handle failed */
		goto out;
	}
	for (uint32_t i = a->n_success; i < a->n_devices; i++) {
		int gi = emu_bind(emu, p, ids[i]);
		if (gi < 0) {
			r = gi;
			goto out;
		}
		if (map) {
			/* amdgpu_amdkfd_gpuvm_map_memory_to_gpu() ->
			 * kfd_mem_attach(): VA 0 is -EINVAL; amdgpu_vm.c
			 * amdgpu_vm_bo_map(): a mapping past the VM is -EINVAL,
			 * the VM size is the GPU's (emu_gen.c va_bits: 40 bits
			 * on gfx8) */
			if (!bo->va || bo->va + bo->size > (1ull << emu->gpus[gi].gen.va_bits)) {
				r = -EINVAL;
				goto out;
			}
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

int emu_map_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	return map_unmap(emu, p, data, true);
}

int emu_unmap_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	return map_unmap(emu, p, data, false);
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

static bool queue_uses(const struct emu_queue *q, const struct emu_bo *bo)
{
	uint64_t v[] = { q->ring_va, q->rptr_va, q->wptr_va, q->eop_va, q->cwsr_va };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i] && v[i] >= bo->va && v[i] < bo->va + bo->size)
			return true;
	return false;
}

bool emu_bo_in_queue_use(struct emu_proc *p, const struct emu_bo *bo)
{
	/* A render-node user queue's buffers too: the kernel tracks them
	 * (amdgpu_userq_input_va_validate() marks the mapping
	 * userq_va_mapped); what an unmap under a live user queue does there
	 * is UNVERIFIED, the emulator refuses it (-EBUSY) rather than run a
	 * queue on memory that is gone. */
	for (struct emu_queue *q = p->userqs; q; q = q->userq_next)
		if (queue_uses(q, bo))
			return true;
	for (struct emu_queue *q = p->queues; q; q = q->next) {
		if (queue_uses(q, bo))
			return true;
	}
	return false;
}

void *kfdsig_emu_gpu_ptr(struct kfdsig_emu *emu, int pasid, uint32_t gpu_id, uint64_t va,
			 uint64_t len)
{
	struct emu_gpu *g = emu ? emu_gpu_by_id(emu, gpu_id) : NULL;
	struct emu_proc *p = g ? emu_proc_get_on(emu, pasid, g) : NULL;
	void *ptr = NULL;

	if (!p) {
		errno = EFAULT;
		return NULL;
	}
	pthread_mutex_lock(&p->lock);
	for (struct emu_bo *bo = p->bos; bo; bo = bo->next)
		if ((bo->mapped & (1u << g->index)) && va >= bo->va && len <= bo->size &&
		    va - bo->va <= bo->size - len) {
			ptr = (char *)bo->kptr + (va - bo->va);
			break;
		}
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	if (!ptr)
		errno = EFAULT;
	return ptr;
}

/* kfd_ioctl_export_dmabuf: an unknown GPU id or handle -EINVAL;
 * amdgpu_amdkfd_gpuvm_export_dmabuf() -> amdgpu_gem_prime_export(): a
 * USERPTR buffer -EPERM; dma_buf_fd(): a new fd (O_CLOEXEC as asked), its
 * errno when none is free. Emulator choice: doorbell and MMIO-remap
 * buffers (no backing memory here) are -EINVAL. */
int emu_export_dmabuf(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	abi_export_dmabuf_args *a = data;
	struct emu_bo *bo;
	int fd, r = 0;

	if (!emu_gpu_by_id(emu, KFDSIG_HANDLE_GPU_ID(a->handle)))
		return -EINVAL;
	pthread_mutex_lock(&p->lock);
	bo = emu_bo_by_handle(p, a->handle);
	if (!bo)
		r = -EINVAL;
	else if (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)
		r = -EPERM;
	else if (bo->memfd < 0)
		r = -EINVAL;
	if (!r) {
		fd = fcntl(bo->memfd, (a->flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
		if (fd < 0)
			r = -errno;
		else
			a->dmabuf_fd = (uint32_t)fd;
	}
	pthread_mutex_unlock(&p->lock);
	return r;
}

/* kfd_ioctl_get_dmabuf_info: metadata_ptr set allocates metadata_size
 * bytes (kzalloc: -ENOMEM past KMALLOC_MAX_SIZE); the dma-buf's size, GPU
 * id and flags (amdgpu_amdkfd_get_dmabuf_info()); a KFD buffer carries no
 * metadata (amdgpu_bo_get_metadata(): metadata_size 0). */
int emu_get_dmabuf_info(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_get_dmabuf_info_args *a = data;
	uint32_t gpu_id, flags;
	uint64_t size;
	int r;

	(void)p;
	if (a->metadata_ptr && a->metadata_size > EMU_KMALLOC_MAX)
		return -ENOMEM;
	r = dmabuf_of(a->dmabuf_fd, &gpu_id, &flags, &size);
	if (r)
		return r;
	if (!emu_gpu_by_id(emu, gpu_id))
		return -EINVAL; /* exported by another GPU than this system's */
	a->size = size;
	a->gpu_id = gpu_id;
	a->flags = flags;
	a->metadata_size = 0;
	return 0;
}

/* kfd_ioctl_import_dmabuf: the GPU must be the process's (-EINVAL) and
 * bound (kfd_bind_process_to_device()); amdgpu_amdkfd_gpuvm_import_dmabuf_fd()
 * -> import_obj_create(): the dma-buf as dmabuf_of() finds it, the new
 * buffer VRAM or GTT as the exporter's with WRITABLE and EXECUTABLE, its
 * VA checked at MAP as ALLOC's (emu_alloc_memory()'s emulator choices for
 * a misaligned or overlapping VA apply). */
int emu_import_dmabuf(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_import_dmabuf_args *a = data;
	uint64_t pg = (uint64_t)page_sz(), size;
	uint32_t gpu_id, flags;
	struct emu_bo *bo;
	int i, r;

	pthread_mutex_lock(&p->lock);
	i = emu_bind(emu, p, a->gpu_id);
	if (i < 0) {
		r = i;
		goto out;
	}
	r = dmabuf_of(a->dmabuf_fd, &gpu_id, &flags, &size);
	if (r)
		goto out;
	if ((a->va_addr & (pg - 1)) || a->va_addr + size < a->va_addr) {
		r = -EINVAL;
		goto out;
	}
	if (va_taken(p, a->va_addr, size)) {
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
	/* WRITABLE is bit 31 (kfd_ioctl.h spells it 1 << 31, not a valid
	 * int shift) */
	bo->flags = (flags & ~KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC) | 0x80000000u |
		    KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
	bo->memfd = fcntl((int)a->dmabuf_fd, F_DUPFD_CLOEXEC, 0);
	bo->kptr = bo->memfd < 0
			   ? MAP_FAILED
			   : mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, bo->memfd, 0);
	if (bo->kptr == MAP_FAILED) {
		if (bo->memfd >= 0)
			close(bo->memfd);
		free(bo);
		r = -ENOMEM;
		goto out;
	}
	/* lock-free: p->lock is held and emu->lock comes first */
	bo->mmap_offset = __atomic_fetch_add(&emu->next_mmap_offset, size + pg, __ATOMIC_RELAXED);
	bo->handle = KFDSIG_MAKE_HANDLE(a->gpu_id, lowest_free_idr(p, (uint32_t)i));
	a->handle = bo->handle;
	bo->next = p->bos;
	p->bos = bo;
out:
	pthread_mutex_unlock(&p->lock);
	return r;
}
