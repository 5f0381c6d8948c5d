/* SPDX-License-Identifier: MIT */
/*
 * GPU VM and memory: ACQUIRE_VM, ALLOC_MEMORY_OF_GPU with the CPU mapping
 * through the render node at the returned offset (CPU VA == GPU VA, as
 * tinygrad does; kfd_chardev.c kfd_ioctl_alloc_memory_of_gpu()), MAP_MEMORY_TO_GPU and FREE_MEMORY_OF_GPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kfd/kfd_priv.h"

static uint64_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (uint64_t)p : 4096;
}

int kfd_acquire_vm_locked(struct kfdsig_kfd *kfd, struct kfd_gpu *g)
{
	const struct kfdsig_kfd_ops *ops = kfd->ops;
	struct kfd_ioctl_acquire_vm_args args = { 0 };
	char path[64];
	int r;

	if (g->vm_acquired)
		return 0;
	if (g->render_fd < 0) {
		snprintf(path, sizeof(path), "/dev/dri/renderD%u", g->dev.drm_render_minor);
		r = ops->open(ops->ctx, path, O_RDWR);
		if (r < 0)
			return set_error(-r, "cannot open %s: %s", path, strerror(-r));
		g->render_fd = r;
	}
	args.drm_fd = (uint32_t)g->render_fd;
	args.gpu_id = g->dev.gpu_id;
	r = kfd_ioctl_retry(ops, kfd->fd, AMDKFD_IOC_ACQUIRE_VM, &args);
	if (r < 0)
		return set_error(-r, "ACQUIRE_VM of gpu 0x%x failed: %s", g->dev.gpu_id,
				 strerror(-r));
	g->vm_acquired = true;
	/* The signal page is shared by every GPU of the process. */
	if (kfd->signal_bo)
		return kfd_map_locked(kfd, kfd->signal_bo, &g->dev.gpu_id, 1);
	return 0;
}

int kfdsig_kfd_acquire_vm(struct kfdsig_kfd *kfd, uint32_t gpu_id)
{
	int r;
	struct kfd_gpu *g = kfd_gpu_arg(kfd, gpu_id, &r);

	if (!g)
		return r;
	pthread_mutex_lock(&kfd->lock);
	r = kfd_acquire_vm_locked(kfd, g);
	pthread_mutex_unlock(&kfd->lock);
	return r;
}

int kfdsig_kfd_render_fd(struct kfdsig_kfd *kfd, uint32_t gpu_id)
{
	int r;
	struct kfd_gpu *g = kfd_gpu_arg(kfd, gpu_id, &r);

	if (!g)
		return r;
	pthread_mutex_lock(&kfd->lock);
	r = g->vm_acquired ? g->render_fd : -ENODEV;
	pthread_mutex_unlock(&kfd->lock);
	if (r < 0)
		return set_error(ENODEV, "no VM acquired on gpu_id 0x%x", gpu_id);
	return r;
}

/* Bits of GPU virtual address every GPU of the process reaches. */
static unsigned va_bits(const struct kfdsig_kfd *kfd)
{
	unsigned bits = 48;

	for (size_t i = 0; i < kfd->ngpus; i++) {
		const struct kfdsig_target *t = kfd->gpus[i].dev.target;
		if (t && t->va_bits && t->va_bits < bits)
			bits = t->va_bits;
	}
	return bits;
}

int kfd_reserve_va(struct kfdsig_kfd *kfd, uint64_t size, void **out)
{
	const struct kfdsig_kfd_ops *ops = kfd->ops;
	const int fl = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	uint64_t limit = 1ull << va_bits(kfd), step = (size + 0xffff) & ~0xffffull;
	unsigned tries = 0;
	void *va = NULL;
	int r;

	r = ops->mmap(ops->ctx, &va, NULL, size, PROT_NONE, fl, -1, 0);
	if (r < 0)
		return set_error(-r, "cannot reserve %llu bytes of address space",
				 (unsigned long long)size);
	if ((uint64_t)(uintptr_t)va + size <= limit) {
		*out = va;
		return 0;
	}
	/* The kernel put it above what a gfx8 GPU reaches (gmc_v8_0.c: 40-bit
	 * GPUVM): ask for addresses from 1 GiB up (below 2 GiB is all that
	 * AddressSanitizer's shadow leaves free), as libhsakmt keeps its GPUVM
	 * apertures below that limit. */
	ops->munmap(ops->ctx, va, size);
	if (kfd->low_va < (1ull << 30))
		kfd->low_va = 1ull << 30;
	/* From where the last one ended, then once more from 1 GiB: freed
	 * buffers leave holes below the hint that later ones may reuse. */
	for (int pass = 0; pass < 2; pass++) {
		uint64_t from = pass ? 1ull << 30 : kfd->low_va, stride = step;
		unsigned taken = 0;

		/* each pass its own bound: a first pass that spends them all on
		 * taken space (ASan's shadow above 2 GiB) leaves the second
		 * its chance at the freed holes */
		tries = 0;
		for (uint64_t hint = from; hint + size <= limit && tries < (1u << 16);
		     hint += stride, tries++) {
			r = ops->mmap(ops->ctx, &va, (void *)(uintptr_t)hint, size, PROT_NONE,
				      fl | MAP_FIXED_NOREPLACE, -1, 0);
			if (r < 0) {
				/* The first pass crosses a wide taken range
				 * (ASan's shadow, 2 GiB to 16 TiB, once the
				 * hint has climbed to the top of the 1-2 GiB
				 * window) in doubling strides after 16 taken
				 * slots in a row: a few dozen calls where one
				 * per slot up to 2^40 was tens of thousands
				 * (a 20 MB buffer: 52 000, about 50 ms). A hole
				 * it strides over is the dense second pass's. */
				if (!pass && ++taken >= 16 && stride < limit / 2)
					stride *= 2;
				continue;
			}
			if ((uint64_t)(uintptr_t)va == hint) {
				kfd->low_va = hint + step;
				*out = va;
				return 0;
			}
			ops->munmap(ops->ctx, va, size); /* an old kernel took it as a hint */
		}
	}
	return set_error(ENOMEM, "no %llu bytes of address space below 2^%u for the GPU",
			 (unsigned long long)size, va_bits(kfd));
}

int kfd_alloc_locked(struct kfdsig_kfd *kfd, uint32_t gpu_id, uint64_t size, uint32_t flags,
		     struct kfd_bo **out)
{
	const struct kfdsig_kfd_ops *ops = kfd->ops;
	struct kfd_ioctl_alloc_memory_of_gpu_args args = { 0 };
	uint64_t pg = page_size();
	struct kfd_gpu *g = kfd_gpu_by_id(kfd, gpu_id);
	struct kfd_bo *bo;
	void *va = NULL, *cpu = NULL;
	int r;

	if (!g)
		return set_error(ENOENT, "no GPU with gpu_id 0x%x", gpu_id);
	if (!size || size > (1ull << 46))
		return set_error(EINVAL, "bad allocation size %llu", (unsigned long long)size);
	if (!(flags & (KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_VRAM)) ||
	    (flags & (KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL |
		      KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP)))
		return set_error(EINVAL, "flags 0x%x: GTT or VRAM memory only", flags);
	r = kfd_acquire_vm_locked(kfd, g);
	if (r < 0)
		return r;
	size = (size + pg - 1) & ~(pg - 1);
	bo = calloc(1, sizeof(*bo));
	if (!bo)
		return set_error(ENOMEM, "out of memory");
	/* Reserve the address range first so the GPU VA is one the CPU can
	 * map at too, and the GPU can reach. */
	r = kfd_reserve_va(kfd, size, &va);
	if (r < 0) {
		free(bo);
		return r;
	}
	args.va_addr = (uint64_t)(uintptr_t)va;
	args.size = size;
	args.gpu_id = gpu_id;
	args.flags = flags;
	r = kfd_ioctl_retry(ops, kfd->fd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &args);
	if (r < 0) {
		ops->munmap(ops->ctx, va, size);
		free(bo);
		return set_error(-r, "ALLOC_MEMORY_OF_GPU(%llu bytes, flags 0x%x) failed: %s",
				 (unsigned long long)size, flags, strerror(-r));
	}
	if ((flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT) ||
	    ((flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) && (flags & KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC))) {
		/* an AQL_QUEUE_MEM allocation is backed by half its size,
		 * which the GPU sees twice (amdgpu_amdkfd_gpuvm.c): the CPU
		 * maps that half, as libhsakmt does (fmm.c) */
		uint64_t cpu_size =
			(flags & KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM) ? size / 2 : size;

		r = ops->mmap(ops->ctx, &cpu, va, cpu_size, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_FIXED, g->render_fd, args.mmap_offset);
		if (r < 0) {
			struct kfd_ioctl_free_memory_of_gpu_args fa = { .handle = args.handle };
			kfd_ioctl_retry(ops, kfd->fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fa);
			ops->munmap(ops->ctx, va, size);
			free(bo);
			return set_error(-r, "cannot mmap the render node at 0x%llx: %s",
					 (unsigned long long)args.mmap_offset, strerror(-r));
		}
	}
	bo->pub.handle = args.handle;
	bo->pub.va = args.va_addr;
	bo->pub.size = size;
	bo->pub.mmap_offset = args.mmap_offset;
	bo->pub.gpu_id = gpu_id;
	bo->pub.flags = flags;
	bo->pub.cpu = cpu;
	bo->reserved = size;
	bo->next = kfd->bos;
	kfd->bos = bo;
	*out = bo;
	return 0;
}

int kfdsig_kfd_alloc(struct kfdsig_kfd *kfd, uint32_t gpu_id, uint64_t size, uint32_t flags,
		     const struct kfdsig_kfd_bo **out)
{
	struct kfd_bo *bo = NULL;
	int r;

	if (!kfd || !out)
		return set_error(EINVAL, "NULL argument");
	pthread_mutex_lock(&kfd->lock);
	r = kfd_alloc_locked(kfd, gpu_id, size, flags, &bo);
	pthread_mutex_unlock(&kfd->lock);
	*out = r < 0 ? NULL : &bo->pub;
	return r;
}

static bool bo_mapped_on(const struct kfd_bo *bo, uint32_t id)
{
	for (uint32_t i = 0; i < bo->nmapped; i++)
		if (bo->mapped[i] == id)
			return true;
	return false;
}

int kfd_map_locked(struct kfdsig_kfd *kfd, struct kfd_bo *bo, const uint32_t *ids, uint32_t n)
{
	struct kfd_ioctl_map_memory_to_gpu_args args = { 0 };
	uint32_t want[16], nwant = 0;
	int r;

	if (!ids || !n) {
		for (size_t i = 0; i < kfd->ngpus; i++)
			if (kfd->gpus[i].vm_acquired && nwant < 16)
				want[nwant++] = kfd->gpus[i].dev.gpu_id;
	} else {
		for (uint32_t i = 0; i < n; i++) {
			struct kfd_gpu *g = kfd_gpu_by_id(kfd, ids[i]);
			if (!g)
				return set_error(ENOENT, "no GPU with gpu_id 0x%x", ids[i]);
			r = kfd_acquire_vm_locked(kfd, g);
			if (r < 0)
				return r;
			if (nwant == 16)
				return set_error(E2BIG, "too many GPUs");
			want[nwant++] = ids[i];
		}
	}
	/* Skip GPUs it is already mapped to. */
	n = 0;
	for (uint32_t i = 0; i < nwant; i++)
		if (!bo_mapped_on(bo, want[i]))
			want[n++] = want[i];
	if (!n)
		return 0;
	args.handle = bo->pub.handle;
	args.device_ids_array_ptr = (uint64_t)(uintptr_t)want;
	args.n_devices = n;
	args.n_success = 0;
	/* The kernel maps from index n_success on and reports progress;
	 * retry once from where it stopped (kfd_chardev.c kfd_ioctl_alloc_memory_of_gpu()). */
	for (int attempt = 0; attempt < 2; attempt++) {
		r = kfd_ioctl_retry(kfd->ops, kfd->fd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &args);
		if (r >= 0 || args.n_success >= n)
			break;
	}
	for (uint32_t i = 0; i < args.n_success && i < n; i++)
		if (bo->nmapped < 16)
			bo->mapped[bo->nmapped++] = want[i];
	if (r < 0)
		return set_error(-r, "MAP_MEMORY_TO_GPU failed after %u of %u GPUs: %s",
				 args.n_success, n, strerror(-r));
	return 0;
}

/* The buffer behind a handle the caller holds, or NULL (kfd->lock held). */
static struct kfd_bo *bo_find(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_bo *pub)
{
	struct kfd_bo *bo;

	for (bo = kfd->bos; bo && &bo->pub != pub; bo = bo->next)
		;
	return bo;
}

int kfdsig_kfd_map(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_bo *pub, const uint32_t *ids,
		   uint32_t n)
{
	struct kfd_bo *bo;
	int r;

	if (!kfd || !pub)
		return set_error(EINVAL, "NULL argument");
	pthread_mutex_lock(&kfd->lock);
	bo = bo_find(kfd, pub);
	r = bo ? kfd_map_locked(kfd, bo, ids, n)
	       : set_error(EINVAL, "not a buffer of this KFD process");
	pthread_mutex_unlock(&kfd->lock);
	return r;
}

static int bo_release(struct kfdsig_kfd *kfd, struct kfd_bo *bo)
{
	const struct kfdsig_kfd_ops *ops = kfd->ops;
	int r;

	if (bo->nmapped) {
		struct kfd_ioctl_unmap_memory_from_gpu_args ua = {
			.handle = bo->pub.handle,
			.device_ids_array_ptr = (uint64_t)(uintptr_t)bo->mapped,
			.n_devices = bo->nmapped,
		};
		r = kfd_ioctl_retry(ops, kfd->fd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &ua);
		if (r < 0)
			return set_error(-r, "UNMAP_MEMORY_FROM_GPU failed: %s", strerror(-r));
		bo->nmapped = 0;
	}
	struct kfd_ioctl_free_memory_of_gpu_args fa = { .handle = bo->pub.handle };
	r = kfd_ioctl_retry(ops, kfd->fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fa);
	if (r < 0)
		return set_error(-r, "FREE_MEMORY_OF_GPU failed: %s", strerror(-r));
	ops->munmap(ops->ctx, (void *)(uintptr_t)bo->pub.va, bo->reserved);
	return 0;
}

int kfdsig_kfd_free(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_bo *pub)
{
	const struct kfd_bo *bo = (const struct kfd_bo *)pub;
	struct kfd_bo **pp;
	int r;

	if (!kfd || !pub)
		return set_error(EINVAL, "NULL argument");
	pthread_mutex_lock(&kfd->lock);
	if (bo == kfd->signal_bo) {
		pthread_mutex_unlock(&kfd->lock);
		return set_error(EPERM, "the signal page lives as long as the KFD process");
	}
	for (pp = &kfd->bos; *pp && *pp != bo; pp = &(*pp)->next)
		;
	if (!*pp) {
		pthread_mutex_unlock(&kfd->lock);
		return set_error(EINVAL, "buffer not allocated by this handle");
	}
	r = bo_release(kfd, *pp);
	if (!r) {
		struct kfd_bo *dead = *pp;

		*pp = dead->next;
		free(dead);
	}
	pthread_mutex_unlock(&kfd->lock);
	return r;
}

/* At close: the kernel frees everything with the process; only the CPU
 * mappings are ours to undo. */
void kfd_mem_release_all(struct kfdsig_kfd *kfd)
{
	const struct kfdsig_kfd_ops *ops = kfd->ops;

	while (kfd->bos) {
		struct kfd_bo *bo = kfd->bos;
		kfd->bos = bo->next;
		ops->munmap(ops->ctx, (void *)(uintptr_t)bo->pub.va, bo->reserved);
		free(bo);
	}
	for (size_t i = 0; i < kfd->ngpus; i++)
		if (kfd->gpus[i].doorbells) {
			ops->munmap(ops->ctx, kfd->gpus[i].doorbells,
				    kfd->gpus[i].dev.target->doorbell_slice);
			kfd->gpus[i].doorbells = NULL;
		}
	if (kfd->kernel_page)
		ops->munmap(ops->ctx, kfd->kernel_page, KFDSIG_SIGNAL_PAGE_SIZE);
	kfd->kernel_page = NULL;
	kfd->signal_bo = NULL;
}

int kfdsig_kfd_apertures(struct kfdsig_kfd *kfd, uint32_t gpu_id, struct kfdsig_apertures *out)
{
	struct kfd_ioctl_get_process_apertures_new_args args = { 0 };
	struct kfd_process_device_apertures *pa;
	int r;

	if (!kfd || !out)
		return set_error(EINVAL, "NULL argument");
	if (!kfd_gpu_by_id(kfd, gpu_id))
		return set_error(ENOENT, "no GPU with gpu_id 0x%x", gpu_id);
	/* num_of_nodes 0 asks for the count, then the kernel fills at most
	 * that many (kfd_chardev.c kfd_ioctl_get_process_apertures_new()). */
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &args);
	if (r < 0)
		return set_error(-r, "GET_PROCESS_APERTURES_NEW: %s", strerror(-r));
	if (!args.num_of_nodes)
		return set_error(ENOENT, "the kernel lists no apertures in this process");
	pa = calloc(args.num_of_nodes, sizeof(*pa));
	if (!pa)
		return set_error(ENOMEM, "out of memory");
	args.kfd_process_device_apertures_ptr = (uint64_t)(uintptr_t)pa;
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &args);
	if (r < 0) {
		free(pa);
		return set_error(-r, "GET_PROCESS_APERTURES_NEW: %s", strerror(-r));
	}
	r = -ENOENT;
	for (uint32_t i = 0; i < args.num_of_nodes; i++) {
		if (pa[i].gpu_id != gpu_id)
			continue;
		out->lds_base = pa[i].lds_base;
		out->lds_limit = pa[i].lds_limit;
		out->scratch_base = pa[i].scratch_base;
		out->scratch_limit = pa[i].scratch_limit;
		out->gpuvm_base = pa[i].gpuvm_base;
		out->gpuvm_limit = pa[i].gpuvm_limit;
		r = 0;
		break;
	}
	free(pa);
	if (r < 0)
		return set_error(ENOENT, "the kernel lists no apertures for gpu_id 0x%x", gpu_id);
	return 0;
}
