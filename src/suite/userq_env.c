/* SPDX-License-Identifier: MIT */
/*
 * Compute user queues on a render node (userq_env.h), after the kernel's
 * amdgpu_userq.c (create, free), mes_userqueue.c (the compute MQD input:
 * the EOP buffer), amdgpu_userq_fence.c (USERQ_SIGNAL, USERQ_WAIT) and
 * drm_syncobj.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>

#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>

#include "drm/amdgpu_userq_abi.h"
#include "suite/userq_env.h"

/* amdgpu_drm.h AMDGPU_GEM_DOMAIN_DOORBELL (newer than Debian's libdrm) */
#define GEM_DOMAIN_DOORBELL 0x40

static int fail(struct uq_env *e, int r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct uq_env *e, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->why, sizeof(e->why), fmt, ap);
	va_end(ap);
	return r;
}

static int uq_ioctl(struct uq_env *e, unsigned long req, void *arg)
{
	int r;

	do
		r = e->ops->ioctl(e->ops->ctx, e->fd, req, arg);
	while (r == -EINTR || r == -EAGAIN);
	return r < 0 ? r : 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void uq_env_close(struct uq_env *e)
{
	for (int i = 0; i < UQ_MAX_QUEUES; i++) {
		struct uq_queue *q = &e->q[i];
		union kq_userq u;

		if (q->live) {
			memset(&u, 0, sizeof(u));
			u.in.op = KQ_USERQ_OP_FREE;
			u.in.queue_id = q->id;
			uq_ioctl(e, KQ_IOCTL_USERQ, &u);
		}
		if (q->bo)
			kfdsig_kfd_free(e->kfd, q->bo);
		memset(q, 0, sizeof(*q));
	}
	for (uint32_t i = 0; i < e->nsync; i++) {
		struct drm_syncobj_destroy d = { .handle = e->sync[i] };

		uq_ioctl(e, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
	}
	e->nsync = 0;
	if (e->db)
		e->ops->munmap(e->ops->ctx, (void *)e->db, 4096);
	if (e->db_handle) {
		struct drm_gem_close gc = { .handle = e->db_handle };

		uq_ioctl(e, DRM_IOCTL_GEM_CLOSE, &gc);
	}
	e->db = NULL;
	e->db_handle = 0;
}

int uq_env_open(struct uq_env *e, const struct kfdsig_kfd_ops *ops, struct kfdsig_kfd *kfd,
		const struct kfdsig_kfd_device *dev)
{
	union drm_amdgpu_gem_create gc;
	union drm_amdgpu_gem_mmap gm;
	struct kq_info_device di;
	struct kq_info info;
	void *db = NULL;
	int r;

	memset(e, 0, sizeof(*e));
	e->ops = ops ? ops : kfdsig_kfd_linux_ops();
	e->kfd = kfd;
	e->dev = dev;
	e->fd = -1;
	if (!dev->target || !dev->target->userq_fwm_max)
		return fail(e, -ENOTSUP, "%s has no user-queue packets (GFX11 and GFX12.0 only)",
			    dev->target ? dev->target->name : dev->name);
	r = kfdsig_kfd_acquire_vm(kfd, dev->gpu_id);
	if (r < 0)
		return fail(e, r, "acquiring the render node's VM: %s", kfdsig_last_error());
	e->fd = kfdsig_kfd_render_fd(kfd, dev->gpu_id);
	if (e->fd < 0)
		return fail(e, e->fd, "no render node: %s", strerror(-e->fd));
	memset(&di, 0, sizeof(di));
	memset(&info, 0, sizeof(info));
	info.return_pointer = (uintptr_t)&di;
	info.return_size = sizeof(di);
	info.query = KQ_INFO_DEV_INFO;
	r = uq_ioctl(e, KQ_IOCTL_INFO, &info);
	if (r)
		return fail(e, r, "AMDGPU_INFO(DEV_INFO) on the render node: %s", strerror(-r));
	e->ip_mask = di.userq_ip_mask;
	if (!(di.userq_ip_mask & (1u << KFDSIG_USERQ_IP_COMPUTE)))
		return fail(
			e, -ENOTSUP,
			"the kernel offers no compute user queues (userq_ip_mask 0x%x; they need "
			"Linux 6.16+, amdgpu.user_queue 1 or 2 and new MEC firmware)",
			di.userq_ip_mask);
	memset(&gc, 0, sizeof(gc));
	gc.in.bo_size = 4096;
	gc.in.domains = GEM_DOMAIN_DOORBELL;
	r = uq_ioctl(e, DRM_IOCTL_AMDGPU_GEM_CREATE, &gc);
	if (r)
		return fail(e, r, "doorbell object (GEM_CREATE, domain DOORBELL): %s",
			    strerror(-r));
	e->db_handle = gc.out.handle;
	memset(&gm, 0, sizeof(gm));
	gm.in.handle = e->db_handle;
	r = uq_ioctl(e, DRM_IOCTL_AMDGPU_GEM_MMAP, &gm);
	if (!r)
		r = e->ops->mmap(e->ops->ctx, &db, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
				 e->fd, gm.out.addr_ptr);
	if (r < 0) {
		uq_env_close(e);
		return fail(e, r, "mapping the doorbell object: %s", strerror(-r));
	}
	e->db = db;
	return 0;
}

int uq_env_queue(struct uq_env *e, int i)
{
	struct uq_queue *q = &e->q[i];
	struct kq_userq_mqd_compute_gfx11 mqd;
	union kq_userq u;
	int r;

	r = kfdsig_kfd_alloc(e->kfd, e->dev->gpu_id, UQ_BUF_BYTES, KFDSIG_KFD_MEM_GTT_UNCACHED,
			     &q->bo);
	if (!r)
		r = kfdsig_kfd_map(e->kfd, q->bo, &e->dev->gpu_id, 1);
	if (r)
		return fail(e, r, "queue %d's buffer: %s", i, kfdsig_last_error());
	memset(q->bo->cpu, 0, UQ_BUF_BYTES);
	q->db_off = (uint32_t)i;
	memset(&mqd, 0, sizeof(mqd));
	mqd.eop_va = uq_env_va(q, UQ_OFF_EOP);
	memset(&u, 0, sizeof(u));
	u.in.op = KQ_USERQ_OP_CREATE;
	u.in.ip_type = KQ_HW_IP_COMPUTE;
	u.in.doorbell_handle = e->db_handle;
	u.in.doorbell_offset = q->db_off;
	u.in.queue_va = uq_env_va(q, 0);
	u.in.queue_size = UQ_RING_BYTES;
	u.in.rptr_va = uq_env_va(q, UQ_OFF_RPTR);
	u.in.wptr_va = uq_env_va(q, UQ_OFF_WPTR);
	u.in.mqd = (uintptr_t)&mqd;
	u.in.mqd_size = sizeof(mqd);
	r = uq_ioctl(e, KQ_IOCTL_USERQ, &u);
	if (r)
		return fail(e, r, "DRM_AMDGPU_USERQ create (compute, doorbell %u): %s", q->db_off,
			    strerror(-r));
	q->id = u.out.queue_id;
	q->live = true;
	return 0;
}

int uq_env_syncobj(struct uq_env *e, uint32_t *h)
{
	struct drm_syncobj_create sc = { 0 };
	int r;

	if (e->nsync == UQ_MAX_SYNCOBJS)
		return fail(e, -ENOSPC, "more than %d syncobjs", UQ_MAX_SYNCOBJS);
	r = uq_ioctl(e, DRM_IOCTL_SYNCOBJ_CREATE, &sc);
	if (r)
		return fail(e, r, "SYNCOBJ_CREATE: %s", strerror(-r));
	e->sync[e->nsync++] = sc.handle;
	*h = sc.handle;
	return 0;
}

int uq_env_submit(struct uq_env *e, int i, const struct kfdsig_userq_fence_ref *waits, uint32_t nw,
		  uint32_t h, uint64_t *seq)
{
	struct uq_queue *q = &e->q[i];
	KFDSIG_OPTS(kfdsig_userq_submit, s, .wptr = q->wptr, .fence_va = uq_env_va(q, UQ_OFF_FENCE),
		    .waits = waits, .nwaits = nw);
	struct kq_userq_signal sig;
	uint32_t buf[64], *ring = q->bo->cpu;
	int n, r;

	n = kfdsig_userq_emit_submit(e->dev->target, &s, buf, 64, seq);
	if (n <= 0)
		return fail(e, n ? n : -EINVAL, "kfdsig_userq_emit_submit: %s",
			    kfdsig_last_error());
	for (int k = 0; k < n; k++)
		ring[(q->wptr + (uint64_t)k) % UQ_RING_DW] = buf[k];
	q->wptr += (uint64_t)n;
	if (*seq != q->wptr)
		return fail(e, -EPROTO,
			    "the fence's sequence number %llu is not the ring position %llu",
			    (unsigned long long)*seq, (unsigned long long)q->wptr);
	__atomic_store_n(uq_env_cpu(q, UQ_OFF_WPTR), q->wptr, __ATOMIC_RELEASE);
	__atomic_store_n(&e->db[q->db_off], q->wptr, __ATOMIC_RELEASE);
	memset(&sig, 0, sizeof(sig));
	sig.queue_id = q->id;
	sig.syncobj_handles = (uintptr_t)&h;
	sig.num_syncobj_handles = 1;
	r = uq_ioctl(e, KQ_IOCTL_USERQ_SIGNAL, &sig);
	if (r)
		return fail(e, r, "DRM_AMDGPU_USERQ_SIGNAL (queue %u): %s", q->id, strerror(-r));
	return 0;
}

int uq_env_wait_refs(struct uq_env *e, int i, uint32_t h, struct kfdsig_userq_fence_ref *out,
		     uint32_t *n)
{
	struct kq_userq_wait w;
	int r;

	memset(&w, 0, sizeof(w));
	w.waitq_id = e->q[i].id;
	w.syncobj_handles = (uintptr_t)&h;
	w.num_syncobj_handles = 1;
	w.num_fences = (uint16_t)*n;
	w.out_fences = (uintptr_t)out;
	r = uq_ioctl(e, KQ_IOCTL_USERQ_WAIT, &w);
	*n = r ? 0 : w.num_fences;
	if (r)
		return fail(e, r, "DRM_AMDGPU_USERQ_WAIT (queue %u): %s", e->q[i].id, strerror(-r));
	return 0;
}

int uq_env_sync_wait(struct uq_env *e, const uint32_t *h, uint32_t n, bool all, uint32_t ms,
		     uint32_t *first, uint64_t *took_ns)
{
	struct drm_syncobj_wait w;
	uint64_t t0 = now_ns();
	int r;

	memset(&w, 0, sizeof(w));
	w.handles = (uintptr_t)h;
	w.count_handles = n;
	w.flags = all ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL : 0;
	w.timeout_nsec = ms ? (int64_t)(t0 + (uint64_t)ms * 1000000ull) : 0;
	r = uq_ioctl(e, DRM_IOCTL_SYNCOBJ_WAIT, &w);
	if (first)
		*first = w.first_signaled;
	if (took_ns)
		*took_ns = now_ns() - t0;
	if (r && r != -ETIME)
		return fail(e, r, "SYNCOBJ_WAIT: %s", strerror(-r));
	return r;
}
