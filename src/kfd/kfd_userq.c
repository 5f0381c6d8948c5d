/* SPDX-License-Identifier: MIT */
/*
 * amdgpu user-mode queues on a real GPU: the render node's raw ioctls
 * (kfdsig/userq.h; the ABI: src/drm/amdgpu_userq_abi.h). The checks before
 * each ioctl follow what the kernel refuses (amdgpu_userq.c
 * amdgpu_userq_create() and the uapi's comments: ring size a multiple of
 * 256 bytes, rptr/wptr 8-byte aligned, the engine's MQD inputs).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>

#include <kfdsig/userq.h>

#include "core/internal.h"
#include "core/opts.h"
#include "drm/amdgpu_userq_abi.h"

_Static_assert(sizeof(struct kfdsig_userq_fence_ref) == sizeof(struct kq_userq_fence_info) &&
		       offsetof(struct kfdsig_userq_fence_ref, value) ==
			       offsetof(struct kq_userq_fence_info, value),
	       "kfdsig_userq_fence_ref is not drm_amdgpu_userq_fence_info");
_Static_assert(KFDSIG_USERQ_IP_GFX == KQ_HW_IP_GFX && KFDSIG_USERQ_IP_COMPUTE == KQ_HW_IP_COMPUTE &&
		       KFDSIG_USERQ_IP_SDMA == KQ_HW_IP_DMA,
	       "KFDSIG_USERQ_IP_* are AMDGPU_HW_IP_*");

#if __has_include(<libdrm/amdgpu_drm.h>)
#include <libdrm/amdgpu_drm.h>
/* The device-info fields libdrm knows sit where kfdsig's copy puts them. */
_Static_assert(offsetof(struct kq_info_device, pa_sc_tile_steering_override) ==
			       offsetof(struct drm_amdgpu_info_device,
					pa_sc_tile_steering_override) &&
		       offsetof(struct kq_info_device, high_va_max) ==
			       offsetof(struct drm_amdgpu_info_device, high_va_max),
	       "kq_info_device disagrees with libdrm's drm_amdgpu_info_device");
#endif

/* ioctl(2), again on EINTR/EAGAIN as drmIoctl() does; -errno. */
static int kq_ioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r == -1 && (errno == EINTR || errno == EAGAIN));
	return r == -1 ? -errno : 0;
}

int kfdsig_userq_probe(int fd, uint32_t *ip_mask)
{
	struct kq_info_device dev;
	struct kq_info q;
	int r;

	if (!ip_mask)
		return set_error(EINVAL, "kfdsig_userq_probe: no ip_mask");
	*ip_mask = 0;
	memset(&dev, 0, sizeof(dev));
	memset(&q, 0, sizeof(q));
	q.return_pointer = (uintptr_t)&dev;
	q.return_size = sizeof(dev);
	q.query = KQ_INFO_DEV_INFO;
	r = kq_ioctl(fd, KQ_IOCTL_INFO, &q);
	if (r)
		return set_error(-r, "AMDGPU_INFO(DEV_INFO) on fd %d: %s", fd, strerror(-r));
	*ip_mask = dev.userq_ip_mask;
	return 0;
}

static bool aligned(uint64_t v, uint64_t a)
{
	return !(v & (a - 1));
}

int kfdsig_userq_create(int fd, const struct kfdsig_userq_create_args *user, uint32_t *queue_id)
{
	struct kfdsig_userq_create_args a;
	struct kq_userq_mqd_gfx11 gfx;
	struct kq_userq_mqd_compute_gfx11 comp;
	struct kq_userq_mqd_sdma_gfx11 sdma;
	union kq_userq u;
	int r;

	if (!user || !queue_id)
		return set_error(EINVAL, "kfdsig_userq_create: no arguments or no queue_id");
	r = opts_copy(&a, sizeof(a), user, "kfdsig_userq_create_args");
	if (r)
		return r;
	memset(&u, 0, sizeof(u));
	switch (a.ip) {
	case KFDSIG_USERQ_IP_GFX:
		if (!a.shadow_va || !a.csa_va)
			return set_error(EINVAL, "a GFX user queue needs shadow_va and csa_va");
		gfx.shadow_va = a.shadow_va;
		gfx.csa_va = a.csa_va;
		u.in.mqd = (uintptr_t)&gfx;
		u.in.mqd_size = sizeof(gfx);
		break;
	case KFDSIG_USERQ_IP_COMPUTE:
		if (!a.eop_va)
			return set_error(EINVAL, "a compute user queue needs eop_va");
		comp.eop_va = a.eop_va;
		u.in.mqd = (uintptr_t)&comp;
		u.in.mqd_size = sizeof(comp);
		break;
	case KFDSIG_USERQ_IP_SDMA:
		if (!a.csa_va)
			return set_error(EINVAL, "an SDMA user queue needs csa_va");
		sdma.csa_va = a.csa_va;
		u.in.mqd = (uintptr_t)&sdma;
		u.in.mqd_size = sizeof(sdma);
		break;
	default:
		return set_error(EINVAL, "user-queue engine %u: 0 GFX, 1 compute, 2 SDMA", a.ip);
	}
	if (!a.ring_va || !aligned(a.ring_va, 256) || !a.ring_size || !aligned(a.ring_size, 256) ||
	    !a.rptr_va || !aligned(a.rptr_va, 8) || !a.wptr_va || !aligned(a.wptr_va, 8))
		return set_error(EINVAL,
				 "user queue: ring 0x%llx of %llu bytes (256-byte aligned, a "
				 "multiple of 256), rptr 0x%llx and wptr 0x%llx (8-byte aligned)",
				 (unsigned long long)a.ring_va, (unsigned long long)a.ring_size,
				 (unsigned long long)a.rptr_va, (unsigned long long)a.wptr_va);
	u.in.op = KQ_USERQ_OP_CREATE;
	u.in.ip_type = a.ip;
	u.in.doorbell_handle = a.doorbell_handle;
	u.in.doorbell_offset = a.doorbell_offset;
	u.in.flags = a.flags;
	u.in.queue_va = a.ring_va;
	u.in.queue_size = a.ring_size;
	u.in.rptr_va = a.rptr_va;
	u.in.wptr_va = a.wptr_va;
	r = kq_ioctl(fd, KQ_IOCTL_USERQ, &u);
	if (r)
		return set_error(-r, "DRM_AMDGPU_USERQ create (engine %u): %s", a.ip, strerror(-r));
	*queue_id = u.out.queue_id;
	return 0;
}

int kfdsig_userq_free(int fd, uint32_t queue_id)
{
	union kq_userq u;
	int r;

	memset(&u, 0, sizeof(u));
	u.in.op = KQ_USERQ_OP_FREE;
	u.in.queue_id = queue_id;
	r = kq_ioctl(fd, KQ_IOCTL_USERQ, &u);
	if (r)
		return set_error(-r, "DRM_AMDGPU_USERQ free (queue %u): %s", queue_id,
				 strerror(-r));
	return 0;
}

int kfdsig_userq_signal(int fd, uint32_t queue_id, const uint32_t *syncobjs, uint32_t n)
{
	struct kq_userq_signal s;
	int r;

	if (n && !syncobjs)
		return set_error(EINVAL, "%u syncobjs and no array", n);
	memset(&s, 0, sizeof(s));
	s.queue_id = queue_id;
	s.syncobj_handles = (uintptr_t)syncobjs;
	s.num_syncobj_handles = n;
	r = kq_ioctl(fd, KQ_IOCTL_USERQ_SIGNAL, &s);
	if (r)
		return set_error(-r, "DRM_AMDGPU_USERQ_SIGNAL (queue %u): %s", queue_id,
				 strerror(-r));
	return 0;
}

int kfdsig_userq_wait(int fd, uint32_t queue_id, const uint32_t *syncobjs, uint32_t n,
		      struct kfdsig_userq_fence_ref *out, uint32_t *nout)
{
	struct kq_userq_wait w;
	int r;

	if ((n && !syncobjs) || !nout || (*nout && !out))
		return set_error(EINVAL, "kfdsig_userq_wait: %s",
				 !nout ? "no nout" : "a count without its array");
	memset(&w, 0, sizeof(w));
	w.waitq_id = queue_id;
	w.syncobj_handles = (uintptr_t)syncobjs;
	w.num_syncobj_handles = n;
	w.num_fences = (uint16_t)(*nout > UINT16_MAX ? UINT16_MAX : *nout);
	w.out_fences = (uintptr_t)out;
	r = kq_ioctl(fd, KQ_IOCTL_USERQ_WAIT, &w);
	if (r)
		return set_error(-r, "DRM_AMDGPU_USERQ_WAIT (queue %u): %s", queue_id,
				 strerror(-r));
	*nout = w.num_fences;
	return 0;
}
