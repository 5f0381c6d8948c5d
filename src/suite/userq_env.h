/* SPDX-License-Identifier: MIT */
/*
 * Compute user queues on a render node for the userq cases of the suite
 * (case_userq.c) and `kfdsig signal --userq`: the render node of a GPU
 * whose VM a KFD process acquired, a doorbell object, queues whose ring,
 * pointers and EOP buffer are KFD buffers of that VM, submissions that end
 * in kfdsig_userq_emit_submit()'s sequence, syncobjs. Every ioctl goes
 * through the KFD handle's kfdsig_kfd_ops, so the same code runs on a real
 * render node and on the emulated one. The ioctl structures are the
 * uapi's (src/drm/amdgpu_userq_abi.h: Debian's libdrm has none yet).
 *
 * Functions return 0 or a negative errno and leave the reason in
 * e->why; nothing is printed.
 */
#ifndef KFDSIG_SUITE_USERQ_ENV_H
#define KFDSIG_SUITE_USERQ_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include <kfdsig/kfd.h>
#include <kfdsig/userq.h>

#define UQ_RING_BYTES 4096u
#define UQ_RING_DW (UQ_RING_BYTES / 4)
/* one buffer per queue: ring, rptr, wptr, EOP (2048 bytes), user fence,
 * gate word */
#define UQ_OFF_RPTR 4096
#define UQ_OFF_WPTR 8192
#define UQ_OFF_EOP 12288
#define UQ_OFF_FENCE 16384
#define UQ_OFF_GATE 20480
#define UQ_BUF_BYTES 65536
#define UQ_MAX_QUEUES 2
#define UQ_MAX_SYNCOBJS 8

struct uq_queue {
	uint32_t id, db_off;
	const struct kfdsig_kfd_bo *bo;
	uint64_t wptr;
	bool live;
};

struct uq_env {
	const struct kfdsig_kfd_ops *ops;
	struct kfdsig_kfd *kfd;
	const struct kfdsig_kfd_device *dev;
	int fd;
	uint32_t ip_mask; /* AMDGPU_INFO userq_ip_mask */
	uint32_t db_handle;
	volatile uint64_t *db;
	struct uq_queue q[UQ_MAX_QUEUES];
	uint32_t sync[UQ_MAX_SYNCOBJS];
	uint32_t nsync;
	char why[256];
};

/* Open @dev's render node (acquiring its VM for @kfd) and map a doorbell
 * object. -ENOTSUP: the target or the kernel has no compute user queues
 * (why says which); nothing is left open on failure. */
int uq_env_open(struct uq_env *e, const struct kfdsig_kfd_ops *ops, struct kfdsig_kfd *kfd,
		const struct kfdsig_kfd_device *dev);
/* Free the queues, buffers, syncobjs and the doorbell object. */
void uq_env_close(struct uq_env *e);
/* Compute queue @i (< UQ_MAX_QUEUES) on doorbell @i of the object. */
int uq_env_queue(struct uq_env *e, int i);
int uq_env_syncobj(struct uq_env *e, uint32_t *h);
/* The end of a submission (after @nw waits) at queue @i's write pointer,
 * published (ring, wptr buffer, doorbell) and attached to syncobj @h by
 * USERQ_SIGNAL; *@seq: the fence's sequence number. */
int uq_env_submit(struct uq_env *e, int i, const struct kfdsig_userq_fence_ref *waits, uint32_t nw,
		  uint32_t h, uint64_t *seq);
/* USERQ_WAIT: the pairs queue @i must wait for before syncobj @h; *@n in:
 * room, out: count. */
int uq_env_wait_refs(struct uq_env *e, int i, uint32_t h, struct kfdsig_userq_fence_ref *out,
		     uint32_t *n);
/* SYNCOBJ_WAIT on @n syncobjs until @ms from now (0: look once); -ETIME
 * when it passes. *@first: the first signalled (any), *@took_ns. */
int uq_env_sync_wait(struct uq_env *e, const uint32_t *h, uint32_t n, bool all, uint32_t ms,
		     uint32_t *first, uint64_t *took_ns);

static inline volatile uint64_t *uq_env_cpu(const struct uq_queue *q, uint64_t off)
{
	return (volatile uint64_t *)((char *)q->bo->cpu + off);
}

static inline uint64_t uq_env_va(const struct uq_queue *q, uint64_t off)
{
	return q->bo->va + off;
}

#endif
