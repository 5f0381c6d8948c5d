/* SPDX-License-Identifier: MIT */
/* Internal state of the KFD backend (src/kfd). */
#ifndef KFDSIG_KFD_PRIV_H
#define KFDSIG_KFD_PRIV_H

#include <pthread.h>

#include <kfdsig/kfd.h>

#include "core/internal.h"
#include "abi/kfd_ioctl.h"

struct kfd_gpu {
	struct kfdsig_kfd_device dev;
	int render_fd; /* -1 until opened */
	bool vm_acquired;
	void *doorbells; /* the process doorbell slice, once mapped */
};

/* A buffer and the GPUs it is mapped to. */
struct kfd_bo {
	struct kfdsig_kfd_bo pub; /* first: callers hold &pub */
	uint32_t mapped[16];
	uint32_t nmapped;
	size_t reserved; /* bytes of address space reserved at pub.va */
	struct kfd_bo *next;
};

/* Type of a non-signal event, to decode its wait data. */
struct kfd_other_event {
	uint32_t id, type;
};

struct kfdsig_kfd {
	const struct kfdsig_kfd_ops *ops; /* &ops_buf */
	struct kfdsig_kfd_ops ops_buf;	  /* the caller's table as this library's struct */
	int fd;
	uint32_t major, minor;
	struct kfd_gpu *gpus;
	size_t ngpus;

	pthread_mutex_t lock; /* everything below */
	struct kfd_bo *bos;
	enum kfdsig_signal_page_mode page_mode;
	struct kfd_bo *signal_bo; /* user-supplied page */
	void *kernel_page;	  /* kernel page mmapped from /dev/kfd */
	uint64_t *page_cpu;
	uint64_t page_va;
	bool page_set;
	struct kfd_other_event *others;
	size_t nothers, cap_others;
	struct kfdsig_kfd_queue *queues; /* freed at close if not destroyed */
	uint64_t low_va;		 /* next hint for address space below 2^40 (gfx8) */
};

void kfd_queues_release_all(struct kfdsig_kfd *kfd);
/* The CPU mapping and size of a queue's context save area, or NULL (SDMA). */
void *kfd_queue_cwsr(const struct kfdsig_kfd_queue *q, uint64_t *size);

/* EINTR/EAGAIN-retrying ioctl through the seam: 0+ or -errno. */
int kfd_ioctl_retry(const struct kfdsig_kfd_ops *ops, int fd, unsigned long req, void *arg);

/* Topology: fill kfd->gpus from ops->sysfs_root. */
int kfd_topology_read(struct kfdsig_kfd *kfd);

/* Context save sizes of a compute queue (kfd_chardev.c kfd_ioctl_create_queue(), kfd_queue.c). */
void kfd_cwsr_sizes(struct kfdsig_kfd_device *d);

/* The default drm_info (libdrm_amdgpu). */
int kfd_linux_drm_info(void *ctx, int fd, struct kfdsig_drm_info *out);

struct kfd_gpu *kfd_gpu_by_id(struct kfdsig_kfd *kfd, uint32_t gpu_id);
/*
 * The GPU @gpu_id of @kfd for a public call: NULL with *@err = -EINVAL (no
 * handle) or -ENOENT (no such GPU) and the error message set.
 */
struct kfd_gpu *kfd_gpu_arg(struct kfdsig_kfd *kfd, uint32_t gpu_id, int *err);

/* kfd_sys.c: the kernel behind the ops is Linux @maj.@min or later. */
bool kfd_kernel_at_least(const struct kfdsig_kfd *kfd, unsigned maj, unsigned min);

/* Called with kfd->lock held. */
int kfd_acquire_vm_locked(struct kfdsig_kfd *kfd, struct kfd_gpu *g);
/*
 * Reserve @size bytes of address space (PROT_NONE) that every GPU of the
 * process can reach: below 2^va_bits of the narrowest GPU (40 on gfx8). The
 * CPU maps buffers at the same address. kfd->lock held.
 */
int kfd_reserve_va(struct kfdsig_kfd *kfd, uint64_t size, void **out);
int kfd_alloc_locked(struct kfdsig_kfd *kfd, uint32_t gpu_id, uint64_t size, uint32_t flags,
		     struct kfd_bo **out);
int kfd_map_locked(struct kfdsig_kfd *kfd, struct kfd_bo *bo, const uint32_t *ids, uint32_t n);
void kfd_mem_release_all(struct kfdsig_kfd *kfd);

#endif
