/* SPDX-License-Identifier: MIT */
/*
 * User-mode queues on the emulated render node, an independent reading of
 * amdgpu_userq.c (DRM_AMDGPU_USERQ create / free), mes_userqueue.c (the
 * compute MQD inputs), amdgpu_userq_fence.c (USERQ_SIGNAL / USERQ_WAIT)
 * and drm_syncobj.c (SYNCOBJ_CREATE / DESTROY / WAIT), with the doorbell
 * buffer objects they need (AMDGPU_GEM_DOMAIN_DOORBELL: GEM_CREATE,
 * GEM_MMAP, the render node's mmap, GEM_CLOSE).
 *
 * The emulator has no other GEM objects: a queue's ring, pointers and EOP
 * buffer are KFD allocations in the VM of the process that acquired this
 * render file (AMDKFD_IOC_ACQUIRE_VM makes the render file's VM the KFD
 * process's), so VA validation finds them there; a render file whose VM no
 * KFD process acquired has no mappings the emulator knows, and every VA is
 * refused (-EINVAL) as unmapped. Engines: GFX and compute (the emulated
 * CP, emu_cp.c) and SDMA (the emulated SDMA engine, emu_sdma.c), as
 * emu_userq_ip_mask() says.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include <libdrm/amdgpu_drm.h>

#include "drm/amdgpu_userq_abi.h"
#include "emu/emu_engine.h"

/* include/linux/errno.h ENOTSUPP (no user-space name): errno 524 */
#define EMU_ENOTSUPP 524
/* amdgpu_drm.h, newer than Debian's libdrm */
#define GEM_DOMAIN_DOORBELL 0x40
#define USERQ_PRIORITY_MASK 3u
#define USERQ_PRIORITY_HIGH 3u /* "admin only" (amdgpu_userq_priority_permit) */
#define USERQ_SECURE (1u << 2)
#define BO_INVALID_OFFSET \
	0xffffffffffffffffull /* AMDGPU_BO_INVALID_OFFSET (LONG_MAX & PAGE_MASK on 64-bit: UNVERIFIED; ~0 also refused) */
#define GPU_PAGE 4096ull
#define HOLE_MASK 0x0000ffffffffffffull
/* amdgpu_userq.c AMDGPU_MAX_USERQ_COUNT */
#define MAX_USERQ 512
/* drm_syncobj.c: the wait flags it knows (WAIT_DEADLINE is 1 << 3) */
#define SYNCOBJ_WAIT_KNOWN 0xfu
#define SYNCOBJ_WAIT_AVAILABLE (1u << 2)
/* Emulator bound: the points of one timeline syncobj (-ENOMEM past it) */
#define SYNCOBJ_POINTS 64
/* The MQD buffers mes_userqueue.c mes_userq_mqd_create() validates
 * (amdgpu_userq_input_va_validate()): compute's EOP buffer 2048 bytes
 * (GFX11_MEC_HPD_SIZE); GFX's shadow and CSA as get_gfx_shadow_info()
 * reports them, the same on GC 11 and 12 (gfx_v11_0.c / gfx_v12_0.c
 * MQD_SHADOW_BASE_SIZE 73728, MQD_FWWORKAREA_SIZE 484); SDMA's CSA 32
 * bytes. */
#define MQD_EOP_BYTES 2048
#define MQD_SHADOW_BYTES 73728
#define MQD_GFX_CSA_BYTES 484
#define MQD_SDMA_CSA_BYTES 32

struct emu_gem {
	uint32_t handle; /* 0: closed (a queue still holds it) */
	int refs;	 /* the handle's and each queue's */
	uint64_t size, mmap_offset;
	uint32_t db_base; /* the doorbell index of its first doorbell */
	int memfd;
	void *kptr;
	struct emu_gem *next;
};

struct emu_syncobj {
	uint32_t handle;
	int refs; /* the handle's and each wait's (atomic) */
	/* the fence: written by emu_fence_replace() only (under the fence
	 * drivers' lock, and d->lock), read under either */
	bool has_fence;
	struct emu_fence_drv *drv; /* NULL with has_fence: a signalled stub */
	uint64_t seq;
	/* A timeline (drm_syncobj_add_point(): a dma_fence_chain whose head
	 * is the syncobj's fence): its points, appended under d->lock and
	 * published by npts (atomic); a binary replace drops them (npts 0),
	 * the entries keep their references until the syncobj goes. */
	struct tl_point {
		uint64_t point, seq;
		struct emu_fence_drv *drv; /* NULL: signalled */
	} pts[SYNCOBJ_POINTS];
	uint32_t npts, used;
	struct emu_syncobj *next;
};

struct emu_uq {
	struct emu_queue q;
	struct emu_gem *db;
	/* the fence drivers USERQ_WAIT handed this queue (its fence_drv_xa) */
	struct emu_fence_drv *held[64];
	uint32_t nheld;
	struct emu_uq *next;
};

struct emu_drmf {
	pthread_mutex_t lock;
	struct emu_gem *gems;
	struct emu_syncobj *syncobjs;
	struct emu_uq *uqs;
};

/* The doorbell index of a doorbell object's first doorbell, in dwords
 * of the doorbell BAR (amdgpu_doorbell_index_on_bar(): the object's BAR
 * offset / 4, plus the doorbell's offset times 2 for 8-byte doorbells).
 * Emulator choice: one BAR page per object from the second page (the
 * kernel's own doorbells come first, amdgpu_doorbell_init(); their exact
 * extent is UNVERIFIED): never index 0, which the EOP handler ignores. */
static uint32_t next_db_page = 1;

static struct emu_drmf *drmf(struct emu_file *f)
{
	struct emu_drmf *d = __atomic_load_n(&f->drm, __ATOMIC_ACQUIRE), *n;

	if (d)
		return d;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	pthread_mutex_init(&n->lock, NULL);
	if (!__atomic_compare_exchange_n(&f->drm, &d, n, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		pthread_mutex_destroy(&n->lock);
		free(n);
		return d;
	}
	return n;
}

static struct emu_gem *gem_find(struct emu_drmf *d, uint32_t h)
{
	for (struct emu_gem *b = d->gems; b && h; b = b->next)
		if (b->handle == h)
			return b;
	return NULL;
}

static void gem_put(struct emu_drmf *d, struct emu_gem *b)
{
	struct emu_gem **pp;

	if (--b->refs)
		return;
	for (pp = &d->gems; *pp && *pp != b; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = b->next;
	munmap(b->kptr, b->size);
	close(b->memfd);
	free(b);
}

static struct emu_syncobj *sync_find(struct emu_drmf *d, uint32_t h)
{
	for (struct emu_syncobj *s = d->syncobjs; s && h; s = s->next)
		if (s->handle == h)
			return s;
	return NULL;
}

static struct emu_uq *uq_find(struct emu_drmf *d, uint32_t id)
{
	for (struct emu_uq *u = d->uqs; u; u = u->next)
		if (u->q.id == id)
			return u;
	return NULL;
}

/* AMDGPU_GEM_CREATE of a doorbell buffer (amdgpu_gem.c
 * amdgpu_gem_create_ioctl()); other domains are outside the emulator. */
static int gem_create(struct kfdsig_emu *emu, struct emu_drmf *d, union drm_amdgpu_gem_create *a)
{
	uint64_t size = (a->in.bo_size + 4095) & ~4095ull;
	struct emu_gem *b;
	uint32_t h = 1;

	if (a->in.domains != GEM_DOMAIN_DOORBELL)
		return -EOPNOTSUPP;
	if (!a->in.bo_size || size > (1ull << 20))
		return -EINVAL; /* UNVERIFIED bound: the BAR's doorbells */
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->memfd = memfd_create("kfdsig-emu-userq-doorbell", MFD_CLOEXEC);
	if (b->memfd < 0 || ftruncate(b->memfd, (off_t)size) ||
	    (b->kptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, b->memfd, 0)) ==
		    MAP_FAILED) {
		if (b->memfd >= 0)
			close(b->memfd);
		free(b);
		return -ENOMEM;
	}
	b->size = size;
	b->refs = 1;
	b->db_base =
		__atomic_fetch_add(&next_db_page, (uint32_t)(size / 4096), __ATOMIC_RELAXED) * 1024;
	b->mmap_offset = __atomic_fetch_add(&emu->next_mmap_offset, size + 4096, __ATOMIC_RELAXED);
	pthread_mutex_lock(&d->lock);
	while (gem_find(d, h)) /* idr_alloc(.., 1, 0): the lowest free */
		h++;
	b->handle = h;
	b->next = d->gems;
	d->gems = b;
	pthread_mutex_unlock(&d->lock);
	memset(&a->out, 0, sizeof(a->out));
	a->out.handle = h;
	return 0;
}

/* The KFD process whose VM this render file is (ACQUIRE_VM), with a
 * reference, or NULL. */
static struct emu_proc *vm_owner(struct kfdsig_emu *emu, struct emu_file *f)
{
	struct emu_proc *p;

	pthread_mutex_lock(&emu->lock);
	for (p = emu->procs; p; p = p->next)
		if (!p->closed && p->pdd[f->gpu->index].vm && p->pdd[f->gpu->index].drm_file == f) {
			p->refs++;
			break;
		}
	pthread_mutex_unlock(&emu->lock);
	return p;
}

/* amdgpu_userq_input_va_validate(): a mapping holds the first page and
 * reaches the page of the last byte; the host address, or NULL. p->lock. */
static void *va_valid(struct emu_proc *p, const struct emu_gpu *g, uint64_t addr, uint64_t size,
		      uint64_t *room)
{
	uint64_t start = addr & HOLE_MASK, end;

	if (!size || __builtin_add_overflow(start, size - 1, &end))
		return NULL;
	for (struct emu_bo *bo = p->bos; bo; bo = bo->next)
		if ((bo->mapped & (1u << g->index)) && bo->kptr && start >= bo->va &&
		    start < bo->va + bo->size &&
		    end / GPU_PAGE <= (bo->va + bo->size - 1) / GPU_PAGE) {
			if (room)
				*room = bo->va + bo->size - start;
			return (char *)bo->kptr + (start - bo->va);
		}
	return NULL;
}

/* amdgpu_userq_input_args_validate() */
static int args_validate(const struct kq_userq_in *in)
{
	switch (in->op) {
	case KQ_USERQ_OP_CREATE:
		if (in->flags & ~(USERQ_PRIORITY_MASK | USERQ_SECURE))
			return -EINVAL;
		if (in->ip_type != KQ_HW_IP_GFX && in->ip_type != KQ_HW_IP_DMA &&
		    in->ip_type != KQ_HW_IP_COMPUTE)
			return -EINVAL;
		/* secure SDMA queues need TMZ, which no emulated device has */
		if ((in->flags & USERQ_SECURE) && in->ip_type == KQ_HW_IP_DMA)
			return -EINVAL;
		if (!in->queue_va || in->queue_va == BO_INVALID_OFFSET || !in->queue_size ||
		    (in->queue_size & (in->queue_size - 1)) || in->queue_size < GPU_PAGE ||
		    !in->wptr_va || !in->rptr_va)
			return -EINVAL;
		return 0;
	case KQ_USERQ_OP_FREE:
		if (in->ip_type || in->doorbell_handle || in->doorbell_offset || in->flags ||
		    in->queue_va || in->queue_size || in->rptr_va || in->wptr_va || in->mqd ||
		    in->mqd_size)
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

/* mes_userqueue.c mes_userq_mqd_create(): the engine's MQD inputs are
 * exactly its drm_amdgpu_userq_mqd_*_gfx11 (GFX and SDMA also refuse a
 * NULL pointer; a copy that faults is -ENOMEM there), and the buffers they
 * name must be mapped. p->lock held. */
static int mqd_inputs(struct emu_proc *p, const struct emu_gpu *g, const struct kq_userq_in *in,
		      uint64_t *eop_va)
{
	union {
		struct kq_userq_mqd_gfx11 gfx;
		struct kq_userq_mqd_compute_gfx11 compute;
		struct kq_userq_mqd_sdma_gfx11 sdma;
	} m;
	size_t want = in->ip_type == KQ_HW_IP_GFX	? sizeof(m.gfx)
		      : in->ip_type == KQ_HW_IP_COMPUTE ? sizeof(m.compute)
							: sizeof(m.sdma);

	*eop_va = 0;
	if (in->mqd_size != want || (in->ip_type != KQ_HW_IP_COMPUTE && !in->mqd))
		return -EINVAL;
	if (emu_copy_from_user(&m, (void *)(uintptr_t)in->mqd, want))
		return -ENOMEM;
	switch (in->ip_type) {
	case KQ_HW_IP_COMPUTE:
		*eop_va = m.compute.eop_va;
		return va_valid(p, g, m.compute.eop_va, MQD_EOP_BYTES, NULL) ? 0 : -EINVAL;
	case KQ_HW_IP_GFX:
		return va_valid(p, g, m.gfx.shadow_va, MQD_SHADOW_BYTES, NULL) &&
				       va_valid(p, g, m.gfx.csa_va, MQD_GFX_CSA_BYTES, NULL)
			       ? 0
			       : -EINVAL;
	default:
		return va_valid(p, g, m.sdma.csa_va, MQD_SDMA_CSA_BYTES, NULL) ? 0 : -EINVAL;
	}
}

/* amdgpu_userq_create(): a GFX or compute queue on the emulated CP, an
 * SDMA queue on the emulated SDMA engine (its first instance: MES picks
 * one, UNVERIFIED which). */
static int userq_create(struct kfdsig_emu *emu, struct emu_file *f, struct emu_drmf *d,
			union kq_userq *u)
{
	struct kq_userq_in in = u->in;
	struct emu_gpu *g = f->gpu;
	struct emu_proc *p = NULL;
	struct emu_uq *uq = NULL;
	struct emu_gem *db;
	void *ring, *rptr, *wptr;
	uint64_t rroom = 0, eop_va = 0;
	uint32_t qid;
	int r;

	/* amdgpu_userq_priority_permit(): HIGH needs CAP_SYS_NICE or master */
	if ((in.flags & USERQ_PRIORITY_MASK) == USERQ_PRIORITY_HIGH && !emu->privileged)
		return -EACCES;
	/* adev->userq_funcs[ip_type] */
	if (!(emu_userq_ip_mask(g) & (1u << in.ip_type)))
		return -EINVAL;
	p = vm_owner(emu, f);
	pthread_mutex_lock(&d->lock);
	if (p)
		pthread_mutex_lock(&p->lock);
	ring = p ? va_valid(p, g, in.queue_va, in.queue_size, NULL) : NULL;
	rptr = p ? va_valid(p, g, in.rptr_va, GPU_PAGE, &rroom) : NULL;
	wptr = p ? va_valid(p, g, in.wptr_va, GPU_PAGE, NULL) : NULL;
	if (!ring || !rptr || !wptr) {
		r = -EINVAL;
		goto out;
	}
	/* amdgpu_userq_get_doorbell_index(): the GEM object, 8-byte
	 * doorbells for GFX, compute and SDMA, inside the object */
	db = gem_find(d, in.doorbell_handle);
	if (!db || (uint64_t)in.doorbell_offset * 8 + 8 > db->size) {
		r = -EINVAL;
		goto out;
	}
	r = mqd_inputs(p, g, &in, &eop_va);
	if (r)
		goto out;
	for (qid = 1; qid <= MAX_USERQ && uq_find(d, qid); qid++)
		;
	if (qid > MAX_USERQ) {
		r = -EBUSY; /* xa_alloc with the range full */
		goto out;
	}
	uq = calloc(1, sizeof(*uq));
	if (!uq) {
		r = -ENOMEM;
		goto out;
	}
	r = emu_fence_drv_new(g, db->db_base + 2 * in.doorbell_offset, g->lockup_ms, &uq->q.fdrv);
	if (r)
		goto out;
	uq->q.userq_doorbell = db->db_base + 2 * in.doorbell_offset;
	uq->q.p = p;
	uq->q.g = g;
	uq->q.id = qid;
	uq->q.sdma_engine = -1;
	if (in.ip_type == KQ_HW_IP_DMA) {
		uq->q.type = KFD_IOC_QUEUE_TYPE_SDMA;
		uq->q.sdma = true;
	} else {
		uq->q.type = KFD_IOC_QUEUE_TYPE_COMPUTE;
		uq->q.userq_gfx = in.ip_type == KQ_HW_IP_GFX;
	}
	uq->q.ring_size = (uint32_t)in.queue_size;
	uq->q.ring_bo_size = in.queue_size;
	uq->q.ring_va = in.queue_va;
	uq->q.rptr_va = in.rptr_va;
	uq->q.wptr_va = in.wptr_va;
	uq->q.eop_va = eop_va;
	uq->q.ring = ring;
	uq->q.rptr = rptr;
	uq->q.rptr_room = (uint32_t)(rroom < 8 ? rroom : 8);
	uq->q.doorbell = (char *)db->kptr + 8ull * in.doorbell_offset;
	(void)wptr;
	r = emu_engine_start(&uq->q);
	if (r) {
		emu_fence_drv_put(uq->q.fdrv);
		goto out;
	}
	uq->q.userq_next = p->userqs;
	p->userqs = &uq->q;
	db->refs++;
	uq->db = db;
	uq->next = d->uqs;
	d->uqs = uq;
	uq = NULL; /* it holds the reference on p */
	u->out.queue_id = qid;
	u->out.pad = 0;
out:
	if (p)
		pthread_mutex_unlock(&p->lock);
	if (p && r)
		emu_proc_put(p);
	pthread_mutex_unlock(&d->lock);
	free(uq);
	return r;
}

static void uq_destroy(struct emu_drmf *d, struct emu_uq *uq)
{
	struct emu_proc *p = uq->q.p;
	struct emu_queue **pp;

	emu_engine_stop(&uq->q);
	pthread_mutex_lock(&p->lock);
	for (pp = &p->userqs; *pp && *pp != &uq->q; pp = &(*pp)->userq_next)
		;
	if (*pp)
		*pp = uq->q.userq_next;
	pthread_mutex_unlock(&p->lock);
	emu_fence_drv_detach(uq->q.fdrv);
	emu_fence_drv_put(uq->q.fdrv);
	for (uint32_t i = 0; i < uq->nheld; i++)
		emu_fence_drv_put(uq->held[i]);
	gem_put(d, uq->db);
	emu_proc_put(uq->q.p);
	free(uq);
}

static int userq_free(struct emu_drmf *d, uint32_t id)
{
	struct emu_uq **pp, *uq;

	pthread_mutex_lock(&d->lock);
	for (pp = &d->uqs; *pp && (*pp)->q.id != id; pp = &(*pp)->next)
		;
	uq = *pp;
	if (uq)
		*pp = uq->next;
	if (uq)
		uq_destroy(d, uq);
	pthread_mutex_unlock(&d->lock);
	return uq ? 0 : -ENOENT;
}

/* memdup_user() of @n u32 handles */
static int dup_handles(uint64_t uptr, uint64_t n, uint32_t **out)
{
	*out = NULL;
	if (!n)
		return 0;
	if (n * 4 > EMU_KMALLOC_MAX)
		return -ENOMEM;
	*out = malloc(n * 4);
	if (!*out)
		return -ENOMEM;
	if (emu_copy_from_user(*out, (void *)(uintptr_t)uptr, n * 4)) {
		free(*out);
		*out = NULL;
		return -EFAULT;
	}
	return 0;
}

/* drm_syncobj_replace_fence(): the fence replaces the chain too. */
static void sync_set(struct emu_syncobj *s, struct emu_fence_drv *drv, uint64_t seq)
{
	__atomic_store_n(&s->npts, 0, __ATOMIC_RELEASE);
	emu_fence_replace(&s->has_fence, &s->drv, &s->seq, drv, seq);
}

static void sync_put(struct emu_syncobj *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (s->has_fence)
		emu_fence_drv_put(s->drv);
	for (uint32_t i = 0; i < s->used; i++)
		if (s->pts[i].drv)
			emu_fence_drv_put(s->pts[i].drv);
	free(s);
}

/* drm_syncobj_find_fence() at @point, unwrapped (dma_fence_unwrap of the
 * chain): the fences of the timeline's points up to the first point at
 * or after @point (dma_fence_chain_find_seqno(); point 0: the head, all
 * of them), or the binary fence. Returns how many (0: none, the kernel's
 * -EINVAL without WAIT_FOR_SUBMIT), at most @max into @out. */
static uint32_t sync_fences(const struct emu_syncobj *s, uint64_t point, struct tl_point *out,
			    uint32_t max)
{
	uint32_t n = __atomic_load_n(&s->npts, __ATOMIC_ACQUIRE), k = 0, last = n;

	if (!n) {
		if (!s->has_fence || !max)
			return 0;
		out[0].drv = s->drv;
		out[0].seq = s->seq;
		out[0].point = 0;
		return 1;
	}
	if (point) {
		for (last = 0; last < n && s->pts[last].point < point; last++)
			;
		if (last == n)
			return 0; /* no point at or after it yet */
		last++;
	}
	for (uint32_t i = 0; i < last && k < max; i++)
		out[k++] = s->pts[i];
	return k;
}

/* drm_syncobj_add_point(): @point of @s is the fence (@drv, @seq). d->lock */
static int sync_add_point(struct emu_syncobj *s, uint64_t point, struct emu_fence_drv *drv,
			  uint64_t seq)
{
	uint32_t n = __atomic_load_n(&s->npts, __ATOMIC_ACQUIRE);

	if (n != s->used) { /* a binary replace dropped the chain */
		for (uint32_t i = 0; i < s->used; i++)
			if (s->pts[i].drv)
				emu_fence_drv_put(s->pts[i].drv);
		s->used = n = 0;
	}
	if (n == SYNCOBJ_POINTS)
		return -ENOMEM;
	if (drv)
		emu_fence_drv_get(drv);
	s->pts[n].point = point;
	s->pts[n].drv = drv;
	s->pts[n].seq = seq;
	s->used = n + 1;
	__atomic_store_n(&s->npts, n + 1, __ATOMIC_RELEASE);
	emu_fence_replace(&s->has_fence, &s->drv, &s->seq, drv, seq);
	return 0;
}

/* amdgpu_userq_signal_ioctl(): a fence at the queue's write pointer (read
 * from the wptr buffer) replaces the fence of each syncobj. */
static int userq_signal(struct emu_drmf *d, struct kq_userq_signal *a)
{
	uint32_t *sh = NULL, *rh = NULL, *wh = NULL;
	struct emu_uq *uq;
	uint64_t wptr = 0;
	void *wp;
	int r;

	pthread_mutex_lock(&d->lock);
	if ((r = dup_handles(a->syncobj_handles, a->num_syncobj_handles, &sh)))
		goto out;
	for (uint64_t i = 0; i < a->num_syncobj_handles; i++)
		if (!sync_find(d, sh[i])) {
			r = -ENOENT;
			goto out;
		}
	if ((r = dup_handles(a->bo_read_handles, a->num_bo_read_handles, &rh)))
		goto out;
	for (uint32_t i = 0; i < a->num_bo_read_handles; i++)
		if (!gem_find(d, rh[i])) {
			r = -ENOENT;
			goto out;
		}
	if ((r = dup_handles(a->bo_write_handles, a->num_bo_write_handles, &wh)))
		goto out;
	for (uint32_t i = 0; i < a->num_bo_write_handles; i++)
		if (!gem_find(d, wh[i])) {
			r = -ENOENT;
			goto out;
		}
	uq = uq_find(d, a->queue_id);
	if (!uq) {
		r = -ENOENT;
		goto out;
	}
	/* amdgpu_userq_fence_read_wptr(): through the VM's mapping */
	pthread_mutex_lock(&uq->q.p->lock);
	wp = va_valid(uq->q.p, uq->q.g, uq->q.wptr_va, 8, NULL);
	if (wp)
		wptr = __atomic_load_n((uint64_t *)wp, __ATOMIC_ACQUIRE);
	pthread_mutex_unlock(&uq->q.p->lock);
	if (!wp) {
		r = -EINVAL;
		goto out;
	}
	emu_fence_drv_signal(uq->q.fdrv, wptr);
	for (uint64_t i = 0; i < a->num_syncobj_handles; i++)
		sync_set(sync_find(d, sh[i]), uq->q.fdrv, wptr);
out:
	pthread_mutex_unlock(&d->lock);
	free(sh);
	free(rh);
	free(wh);
	return r;
}

/* amdgpu_userq_wait_ioctl(): count the fences of the syncobjs and of the
 * timeline syncobjs' points, unwrapped (num_fences 0), or hand back
 * {seq64 address, sequence number} of each user-queue fence (one per
 * fence driver, the latest: dma_fence_dedup_array()). Fences in buffer
 * reservations are not emulated. */
static int userq_wait(struct emu_drmf *d, struct kq_userq_wait *a)
{
	uint32_t *sh = NULL, *rh = NULL, *wh = NULL, *th = NULL;
	uint64_t *tp = NULL;
	struct kq_userq_fence_info *info = NULL;
	struct tl_point *fs = NULL;
	uint32_t nsrc = a->num_syncobj_handles + a->num_syncobj_timeline_handles;
	struct emu_uq *waitq;
	uint32_t n = 0, cnt = 0;
	int r;

	pthread_mutex_lock(&d->lock);
	if ((r = dup_handles(a->bo_read_handles, a->num_bo_read_handles, &rh)) ||
	    (r = dup_handles(a->bo_write_handles, a->num_bo_write_handles, &wh)) ||
	    (r = dup_handles(a->syncobj_handles, a->num_syncobj_handles, &sh)) ||
	    (r = dup_handles(a->syncobj_timeline_handles, a->num_syncobj_timeline_handles, &th)) ||
	    (r = dup_handles(a->syncobj_timeline_points, 2ull * a->num_syncobj_timeline_handles,
			     (uint32_t **)&tp)))
		goto out;
	for (uint32_t i = 0; i < a->num_bo_read_handles; i++)
		if (!gem_find(d, rh[i])) {
			r = -ENOENT;
			goto out;
		}
	for (uint32_t i = 0; i < a->num_bo_write_handles; i++)
		if (!gem_find(d, wh[i])) {
			r = -ENOENT;
			goto out;
		}
	fs = calloc((size_t)nsrc * SYNCOBJ_POINTS + 1, sizeof(*fs));
	if (!fs) {
		r = -ENOMEM;
		goto out;
	}
	/* drm_syncobj_find_fence(.., WAIT_FOR_SUBMIT): a syncobj (or point)
	 * without a fence waits for one; the emulator does not wait
	 * (UNVERIFIED timing: the kernel gives up with -ETIME after a bound) */
	for (uint32_t i = 0; i < nsrc; i++) {
		bool tl = i >= a->num_syncobj_handles;
		uint32_t k = tl ? i - a->num_syncobj_handles : i;
		struct emu_syncobj *s = sync_find(d, tl ? th[k] : sh[k]);
		uint32_t got;

		if (!s) {
			r = -ENOENT;
			goto out;
		}
		got = sync_fences(s, tl ? tp[k] : 0, fs + n, SYNCOBJ_POINTS);
		if (!got) {
			r = -ETIME;
			goto out;
		}
		n += got;
	}
	if (!a->num_fences) {
		a->num_fences = (uint16_t)n;
		goto out;
	}
	if (n > a->num_fences) {
		r = -EINVAL; /* WARN_ON_ONCE(num_fences >= wait_info->num_fences) */
		goto out;
	}
	waitq = uq_find(d, a->waitq_id);
	if (!waitq) {
		r = -EINVAL;
		goto out;
	}
	info = calloc(n + 1, sizeof(*info));
	if (!info) {
		r = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k;

		if (!fs[i].drv)
			continue; /* a stub: signalled, waited for on the CPU */
		for (k = 0; k < cnt && info[k].va != emu_fence_drv_va(fs[i].drv); k++)
			;
		if (k < cnt) {
			if (fs[i].seq > info[k].value)
				info[k].value = fs[i].seq;
			continue;
		}
		if (waitq->nheld == sizeof(waitq->held) / sizeof(waitq->held[0])) {
			r = -ENOMEM; /* emulator bound on the queue's held drivers */
			goto out;
		}
		emu_fence_drv_get(fs[i].drv);
		waitq->held[waitq->nheld++] = fs[i].drv;
		info[cnt].va = emu_fence_drv_va(fs[i].drv);
		info[cnt].value = fs[i].seq;
		cnt++;
	}
	a->num_fences = (uint16_t)cnt;
	if (emu_copy_to_user((void *)(uintptr_t)a->out_fences, info, cnt * sizeof(*info)))
		r = -EFAULT;
out:
	pthread_mutex_unlock(&d->lock);
	free(sh);
	free(rh);
	free(wh);
	free(th);
	free(tp);
	free(fs);
	free(info);
	return r;
}

/* drm_syncobj_transfer_ioctl(): the fence of @src at src_point (0: its
 * fence) becomes @dst's point dst_point (drm_syncobj_transfer_to_timeline)
 * or, dst_point 0, @dst's fence (_to_binary). A source without that fence
 * is -EINVAL (no WAIT_FOR_SUBMIT wait emulated: UNVERIFIED, refused). */
static int syncobj_transfer(struct emu_drmf *d, struct drm_syncobj_transfer *a)
{
	struct tl_point f[SYNCOBJ_POINTS];
	struct emu_syncobj *src, *dst;
	uint32_t n;
	int r = 0;

	if (a->pad || (a->flags & ~(uint32_t)DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
		return -EINVAL;
	pthread_mutex_lock(&d->lock);
	src = sync_find(d, a->src_handle);
	dst = sync_find(d, a->dst_handle);
	if (!src || !dst) {
		r = -ENOENT;
		goto out;
	}
	n = sync_fences(src, a->src_point, f, SYNCOBJ_POINTS);
	if (!n) {
		r = -EINVAL;
		goto out;
	}
	/* the unwrapped chain's fences signal in order on one queue; across
	 * queues the transferred fence is the last one's (UNVERIFIED: the
	 * kernel moves the chain link, which waits for all of them) */
	if (n > 1)
		for (uint32_t i = 0; i + 1 < n; i++)
			if (f[i].drv != f[n - 1].drv) {
				r = -EOPNOTSUPP;
				goto out;
			}
	if (a->dst_point)
		r = sync_add_point(dst, a->dst_point, f[n - 1].drv, f[n - 1].seq);
	else
		sync_set(dst, f[n - 1].drv, f[n - 1].seq);
out:
	pthread_mutex_unlock(&d->lock);
	return r;
}

static int syncobj_create(struct emu_drmf *d, struct drm_syncobj_create *a)
{
	struct emu_syncobj *s;
	uint32_t h = 1;

	if (a->flags & ~DRM_SYNCOBJ_CREATE_SIGNALED)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	/* drm_syncobj_create(.., DRM_SYNCOBJ_CREATE_SIGNALED): a signalled
	 * stub fence */
	s->has_fence = a->flags & DRM_SYNCOBJ_CREATE_SIGNALED;
	s->refs = 1;
	pthread_mutex_lock(&d->lock);
	while (sync_find(d, h))
		h++;
	s->handle = h;
	s->next = d->syncobjs;
	d->syncobjs = s;
	pthread_mutex_unlock(&d->lock);
	a->handle = h;
	return 0;
}

static int syncobj_destroy(struct emu_drmf *d, struct drm_syncobj_destroy *a)
{
	struct emu_syncobj **pp, *s;

	if (a->pad)
		return -EINVAL;
	pthread_mutex_lock(&d->lock);
	for (pp = &d->syncobjs; *pp && (*pp)->handle != a->handle; pp = &(*pp)->next)
		;
	s = *pp;
	if (s)
		*pp = s->next;
	pthread_mutex_unlock(&d->lock);
	if (!s)
		return -EINVAL;
	sync_put(s);
	return 0;
}

struct wait_set {
	uint32_t n, all, first;
	bool avail;		/* WAIT_AVAILABLE: a fence there is enough */
	const uint64_t *points; /* TIMELINE_WAIT's, or NULL */
	struct emu_syncobj **s;
};

/* The fence drivers' lock held: a syncobj's fence (its point's chain) as
 * it is now (one attached while the wait sleeps counts, WAIT_FOR_SUBMIT). */
static int wait_check(void *ctx)
{
	struct wait_set *w = ctx;
	struct tl_point f[SYNCOBJ_POINTS];
	uint32_t done = 0;

	w->first = ~0u;
	for (uint32_t i = 0; i < w->n; i++) {
		uint32_t n = sync_fences(w->s[i], w->points ? w->points[i] : 0, f, SYNCOBJ_POINTS);
		bool ok = n > 0;

		for (uint32_t k = 0; k < n && ok && !w->avail; k++)
			ok = emu_fence_signaled_locked(f[k].drv, f[k].seq);
		if (ok) {
			done++;
			if (w->first == ~0u)
				w->first = i;
		}
	}
	return (w->all ? done == w->n : done > 0) ? 0 : -EAGAIN;
}

/* drm_syncobj_wait_ioctl() and drm_syncobj_timeline_wait_ioctl(): all or
 * any of the syncobjs' fences (at their points), until the absolute
 * CLOCK_MONOTONIC timeout (0: look once); -ETIME when it passes. A
 * syncobj without a fence (a point nothing reached yet) is -EINVAL unless
 * WAIT_FOR_SUBMIT, which waits for one to be attached too
 * (drm_syncobj_array_wait_timeout()); WAIT_AVAILABLE (timeline only) waits
 * for the fence to be there, not signalled. */
static int syncobj_wait(struct emu_drmf *d, uint64_t handles, uint64_t upoints, uint32_t count,
			uint32_t flags, int64_t timeout, uint32_t *first)
{
	struct wait_set w = { 0 };
	struct tl_point f[1];
	uint32_t *h = NULL;
	uint64_t *pts = NULL;
	int r;

	if (flags & ~(upoints ? SYNCOBJ_WAIT_KNOWN : SYNCOBJ_WAIT_KNOWN & ~SYNCOBJ_WAIT_AVAILABLE))
		return -EINVAL;
	if (!count)
		return -EINVAL;
	if ((r = dup_handles(handles, count, &h)))
		return r;
	if (upoints && (r = dup_handles(upoints, 2ull * count, (uint32_t **)&pts)))
		goto out;
	w.n = count;
	w.all = flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	w.avail = flags & SYNCOBJ_WAIT_AVAILABLE;
	w.points = pts;
	w.s = calloc(w.n, sizeof(*w.s));
	if (!w.s) {
		r = -ENOMEM;
		goto out;
	}
	pthread_mutex_lock(&d->lock);
	for (uint32_t i = 0; i < w.n && !r; i++) {
		struct emu_syncobj *s = sync_find(d, h[i]);

		if (!s) {
			r = -ENOENT;
		} else if (!sync_fences(s, pts ? pts[i] : 0, f, 1) &&
			   !(flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT)) {
			r = -EINVAL;
		} else {
			__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
			w.s[i] = s;
		}
	}
	pthread_mutex_unlock(&d->lock);
	if (!r) {
		r = emu_fence_wait(wait_check, &w, timeout);
		if (!r)
			*first = w.first;
	}
	for (uint32_t i = 0; i < w.n; i++)
		if (w.s[i])
			sync_put(w.s[i]);
out:
	free(w.s);
	free(h);
	free(pts);
	return r;
}

/* drm_syncobj_handle_to_fd_ioctl() with EXPORT_SYNC_FILE
 * (drm_syncobj_export_sync_file()): a sync_file of the syncobj's fence;
 * none is -EINVAL. Exporting the syncobj itself is not emulated
 * (-EOPNOTSUPP), nor is a sync_file's poll() while its fence is pending:
 * exporting a fence not signalled yet is -EOPNOTSUPP (a poll would never
 * see it signal here); a signalled one's file reads as ready. A timeline
 * syncobj exports its head (the last point's fence). */
static int syncobj_export(struct kfdsig_emu *emu, struct emu_drmf *d, struct drm_syncobj_handle *a)
{
	struct emu_syncobj *s;
	struct emu_file *f = NULL;
	struct emu_fence_drv *drv = NULL;
	uint64_t seq = 0, one = 1;
	bool has;
	int r;

	if (a->flags & ~(uint32_t)DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE || a->pad)
		return -EINVAL;
	if (!(a->flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE))
		return -EOPNOTSUPP;
	pthread_mutex_lock(&d->lock);
	s = sync_find(d, a->handle);
	has = s && s->has_fence;
	if (has) {
		drv = s->drv;
		seq = s->seq;
		if (drv)
			emu_fence_drv_get(drv);
	}
	pthread_mutex_unlock(&d->lock);
	if (!s)
		return -ENOENT;
	if (!has)
		return -EINVAL;
	if (!emu_fence_signaled(drv, seq)) {
		r = -EOPNOTSUPP;
		goto out;
	}
	pthread_mutex_lock(&emu->lock);
	r = emu_file_new(emu, EMU_FILE_SYNC, &f);
	if (!r) {
		f->sync_drv = drv;
		f->sync_seq = seq;
		drv = NULL; /* the file's */
		if (write(f->efd, &one, sizeof(one)) != sizeof(one))
			r = -EIO;
		if (!r)
			r = emu_file_fd(emu, f);
	}
	pthread_mutex_unlock(&emu->lock);
	if (r >= 0) {
		a->fd = r;
		r = 0;
	}
out:
	if (drv)
		emu_fence_drv_put(drv);
	return r;
}

/* sync_file.c sync_file_ioctl_fence_info(): the fence's status
 * (dma_fence_get_status(): 1 signalled, or its error, -ECANCELED after a
 * user queue's reset) and, with room, the one fence's. */
int emu_sync_file_ioctl(struct emu_file *f, unsigned long cmd, void *arg)
{
	struct sync_file_info info;
	struct sync_fence_info fi;
	int st;

	if (cmd != SYNC_IOC_FILE_INFO)
		return -ENOTTY;
	if (emu_copy_from_user(&info, arg, sizeof(info)))
		return -EFAULT;
	if (info.flags || info.pad)
		return -EINVAL;
	st = emu_fence_signaled(f->sync_drv, f->sync_seq) ? 1 : 0;
	if (st && emu_fence_error(f->sync_drv, f->sync_seq))
		st = emu_fence_error(f->sync_drv, f->sync_seq);
	memset(info.name, 0, sizeof(info.name));
	info.status = st;
	if (info.num_fences) {
		memset(&fi, 0, sizeof(fi));
		snprintf(fi.driver_name, sizeof(fi.driver_name), "%s",
			 f->sync_drv ? "amdgpu_userq_fence" : "drm_syncobj");
		fi.status = st;
		if (emu_copy_to_user((void *)(uintptr_t)info.sync_fence_info, &fi, sizeof(fi)))
			return -EFAULT;
	}
	info.num_fences = 1;
	return emu_copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
}

void emu_sync_file_release(struct emu_file *f)
{
	if (f->sync_drv)
		emu_fence_drv_put(f->sync_drv);
	f->sync_drv = NULL;
}

#define NR(x) _IOC_NR(x)

/* Copy in min(user, kernel) bytes, zero-filled (drm_ioctl), run, copy out. */
#define RUN(type, call)                                                                 \
	do {                                                                            \
		type a_;                                                                \
		size_t us_ = _IOC_SIZE(cmd) < sizeof(a_) ? _IOC_SIZE(cmd) : sizeof(a_); \
		memset(&a_, 0, sizeof(a_));                                             \
		if (emu_copy_from_user(&a_, arg, us_))                                  \
			return -EFAULT;                                                 \
		r = call;                                                               \
		if (!r && emu_copy_to_user(arg, &a_, us_))                              \
			return -EFAULT;                                                 \
		return r;                                                               \
	} while (0)

int emu_userq_ioctl(struct kfdsig_emu *emu, struct emu_file *f, unsigned long cmd, void *arg)
{
	unsigned nr = _IOC_NR(cmd);
	struct emu_drmf *d;
	int r;

	switch (nr) {
	case DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ:
	case DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ_SIGNAL:
	case DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ_WAIT:
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_CREATE:
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_MMAP:
	case NR(DRM_IOCTL_GEM_CLOSE):
	case NR(DRM_IOCTL_SYNCOBJ_CREATE):
	case NR(DRM_IOCTL_SYNCOBJ_DESTROY):
	case NR(DRM_IOCTL_SYNCOBJ_WAIT):
	case NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT):
	case NR(DRM_IOCTL_SYNCOBJ_TRANSFER):
	case NR(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD):
		break;
	default:
		return -EMU_ENOIOCTLCMD;
	}
	if (!arg && _IOC_SIZE(cmd))
		return -EFAULT;
	d = drmf(f);
	if (!d)
		return -ENOMEM;
	/* amdgpu_userq_ioctl(), amdgpu_userq_signal_ioctl(),
	 * amdgpu_userq_wait_ioctl(): no engine with user queues (none on the
	 * IP, or the user_queue parameter): -ENOTSUPP, before anything else */
	if ((nr == DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ ||
	     nr == DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ_SIGNAL ||
	     nr == DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ_WAIT) &&
	    !emu_userq_ip_mask(f->gpu))
		return -EMU_ENOTSUPP;
	switch (nr) {
	case DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ: {
		union kq_userq u;
		size_t us = _IOC_SIZE(cmd) < sizeof(u) ? _IOC_SIZE(cmd) : sizeof(u);

		memset(&u, 0, sizeof(u));
		if (emu_copy_from_user(&u, arg, us))
			return -EFAULT;
		if (args_validate(&u.in))
			return -EINVAL;
		if (u.in.op == KQ_USERQ_OP_FREE)
			return userq_free(d, u.in.queue_id);
		r = userq_create(emu, f, d, &u);
		if (!r && emu_copy_to_user(arg, &u, us))
			return -EFAULT;
		return r;
	}
	case DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ_SIGNAL:
		RUN(struct kq_userq_signal, userq_signal(d, &a_));
	case DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ_WAIT:
		RUN(struct kq_userq_wait, userq_wait(d, &a_));
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_CREATE:
		RUN(union drm_amdgpu_gem_create, gem_create(emu, d, &a_));
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_MMAP: {
		union drm_amdgpu_gem_mmap a;
		struct emu_gem *b;

		if (emu_copy_from_user(&a, arg, sizeof(a)))
			return -EFAULT;
		pthread_mutex_lock(&d->lock);
		b = gem_find(d, a.in.handle);
		if (b)
			a.out.addr_ptr = b->mmap_offset;
		pthread_mutex_unlock(&d->lock);
		if (!b)
			return -ENOENT; /* amdgpu_mode_dumb_mmap(): no object */
		return emu_copy_to_user(arg, &a, sizeof(a)) ? -EFAULT : 0;
	}
	case NR(DRM_IOCTL_GEM_CLOSE): {
		struct drm_gem_close a;
		struct emu_gem *b;

		if (emu_copy_from_user(&a, arg, sizeof(a)))
			return -EFAULT;
		pthread_mutex_lock(&d->lock);
		b = gem_find(d, a.handle);
		if (b) {
			b->handle = 0;
			gem_put(d, b);
		}
		pthread_mutex_unlock(&d->lock);
		/* drm_gem_handle_delete(): an unknown handle */
		return b ? 0 : -EINVAL;
	}
	case NR(DRM_IOCTL_SYNCOBJ_CREATE):
		RUN(struct drm_syncobj_create, syncobj_create(d, &a_));
	case NR(DRM_IOCTL_SYNCOBJ_DESTROY):
		RUN(struct drm_syncobj_destroy, syncobj_destroy(d, &a_));
	case NR(DRM_IOCTL_SYNCOBJ_TRANSFER):
		RUN(struct drm_syncobj_transfer, syncobj_transfer(d, &a_));
	case NR(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD):
		RUN(struct drm_syncobj_handle, syncobj_export(emu, d, &a_));
	case NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT):
		RUN(struct drm_syncobj_timeline_wait,
		    syncobj_wait(d, a_.handles, a_.points, a_.count_handles, a_.flags,
				 a_.timeout_nsec, &a_.first_signaled));
	default: /* NR(DRM_IOCTL_SYNCOBJ_WAIT) */
		RUN(struct drm_syncobj_wait,
		    syncobj_wait(d, a_.handles, 0, a_.count_handles, a_.flags, a_.timeout_nsec,
				 &a_.first_signaled));
	}
}

/* The render node's mmap of a doorbell object at its GEM_MMAP offset;
 * -ENOENT when no doorbell object has that offset. */
int emu_userq_mmap(struct emu_file *f, void **out, void *addr, size_t len, int prot, int flags,
		   uint64_t off)
{
	struct emu_drmf *d = __atomic_load_n(&f->drm, __ATOMIC_ACQUIRE);
	int r = -ENOENT;

	if (!d)
		return r;
	pthread_mutex_lock(&d->lock);
	for (struct emu_gem *b = d->gems; b; b = b->next)
		if (off >= b->mmap_offset && off + len <= b->mmap_offset + b->size) {
			void *m = mmap(addr, len, prot, flags, b->memfd,
				       (off_t)(off - b->mmap_offset));

			r = m == MAP_FAILED ? -errno : 0;
			if (!r)
				*out = m;
			break;
		}
	pthread_mutex_unlock(&d->lock);
	return r;
}

/* The render file's last fd is gone (amdgpu_driver_postclose_kms():
 * amdgpu_userq_mgr_fini, the syncobjs and GEM handles go). */
void emu_userq_file_release(struct kfdsig_emu *emu, struct emu_file *f)
{
	struct emu_drmf *d = f->drm;

	(void)emu;
	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	while (d->uqs) {
		struct emu_uq *uq = d->uqs;

		d->uqs = uq->next;
		uq_destroy(d, uq);
	}
	while (d->syncobjs) {
		struct emu_syncobj *s = d->syncobjs;

		d->syncobjs = s->next;
		sync_put(s);
	}
	while (d->gems) {
		struct emu_gem *b = d->gems;

		b->refs = 1;
		gem_put(d, b);
	}
	pthread_mutex_unlock(&d->lock);
	pthread_mutex_destroy(&d->lock);
	free(d);
	f->drm = NULL;
}
