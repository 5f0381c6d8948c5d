/* SPDX-License-Identifier: MIT */
/*
 * Emulated user queues: CREATE_QUEUE / DESTROY_QUEUE with the kernel's
 * argument checks (kfd_chardev.c set_queue_properties_from_user and
 * kfd_queue.c kfd_queue_acquire_buffers()), the process doorbell
 * slice (kfd_doorbell.c kfd_doorbell_mmap()). Each queue gets an engine thread
 * (emu_doorbell.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu/emu_debug.h"
#include "emu/emu_priv.h"

/* include/linux/errno.h ENOTSUPP: kernel-internal, no user-space name; an
 * ioctl returning it gives errno 524. */
#define EMU_ENOTSUPP 524

#define ALIGN_UP(x, a) (((x) + (a)-1) / (a) * (a))

/* kfd_queue_buffer_get(vm, addr, &bo, size): a buffer mapped on the GPU
 * whose mapping starts at @va and spans exactly @size bytes. */
static struct emu_bo *exact_bo(struct emu_proc *p, uint32_t gi, uint64_t va, uint64_t size)
{
	for (struct emu_bo *bo = p->bos; bo; bo = bo->next)
		if (bo->va == va && (bo->size == size || !size) && (bo->mapped & (1u << gi)) &&
		    bo->kptr)
			return bo;
	return NULL;
}

/* Per process and GPU (kfd_process_queue_manager.c pqm_create_queue():
 * pdd->qpd.queue_count against max_queues, -ENOSPC): 127, "HWS limit";
 * 255 on GC 9.4.3, 9.4.4 and 9.5.0 (gfx_target_version 90402 / 90500).
 * The debug process's max_no_of_hqd / 2 is not emulated. */
static uint32_t queues_per_device(const struct emu_gpu *g)
{
	return g->gen.gfxv == 90402 || g->gen.gfxv == 90500 ? 255 : 127;
}

static uint32_t proc_queues_on(const struct emu_proc *p, const struct emu_gpu *g)
{
	uint32_t n = 0;

	for (const struct emu_queue *q = p->queues; q; q = q->next)
		n += q->g == g;
	return n;
}

/* All processes' user queues of a GPU against the module parameter
 * (kfd_device_queue_manager.c create_queue_cpsch(): total_queue_count >=
 * max_num_of_queues_per_device: -EPERM, before the SDMA queue). */
static int device_take(struct kfdsig_emu *emu, struct emu_gpu *g)
{
	if (__atomic_add_fetch(&g->user_queues, 1, __ATOMIC_ACQ_REL) > emu->max_queues_per_device) {
		__atomic_fetch_sub(&g->user_queues, 1, __ATOMIC_ACQ_REL);
		return -EPERM;
	}
	return 0;
}

static void device_put(struct emu_gpu *g)
{
	__atomic_fetch_sub(&g->user_queues, 1, __ATOMIC_ACQ_REL);
}

/* The emulator's reading of kfd_queue.c kfd_queue_ctx_save_restore_size(),
 * from its own topology description. */
struct cwsr {
	uint32_t ctl_stack, cwsr, debug;
};

static struct cwsr cwsr_of(const struct emu_gpu *g)
{
	/* kfd_queue.c kfd_queue_ctx_save_restore_size() keys on the
	 * gfx_target_version and reads the node's topology properties
	 * (simd_count, simd_per_cu, array_count, simd_arrays_per_engine,
	 * the product's: emu_sysfs.c); the sizes come from the emulator's
	 * tables. */
	const struct emu_gen *t = &g->gen;
	uint32_t v = t->gfxv;
	uint32_t simd_per_cu = g->prod.simd_per_cu;
	uint32_t cu = g->simd_count / simd_per_cu / g->num_xcc;
	uint32_t arrays = (uint32_t)g->prod.num_se * g->prod.sh_per_se;
	uint32_t per_engine = g->prod.sh_per_se;
	uint32_t waves;
	struct cwsr c = { 0 };

	if (!emu_queue_cwsr_enabled(g))
		return c;
	if (v < 100100)
		waves = cu * 40 < arrays / per_engine * 512 ? cu * 40 : arrays / per_engine * 512;
	else
		waves = cu * 32;
	c.ctl_stack = ALIGN_UP(40 + waves * (v >= 100100 ? 12 : 8) + 8, 4096);
	if (v >= 100100 && v < 110000 && c.ctl_stack > 0x7000)
		c.ctl_stack = 0x7000;
	c.cwsr = c.ctl_stack + ALIGN_UP(cu * (t->cwsr_vgpr_size + t->cwsr_sgpr_size + 0x10000 +
					      t->cwsr_hwreg_size),
					4096);
	c.debug = ALIGN_UP(waves * 32, 64);
	return c;
}

/* SDMA queues of a GPU are a per-device resource (the DQM's
 * sdma_bitmap and xgmi_sdma_bitmap, kfd_device_queue_manager.c
 * allocate_sdma_queue()): num_sdma_queues_per_engine per engine, the
 * first free bit picking the engine (bit i: engine i % engines); none
 * left: -ENOMEM. An SDMA queue takes a plain engine's, SDMA_XGMI an XGMI
 * engine's, SDMA_BY_ENG_ID the named engine's. */
static uint32_t sdma_per_engine(const struct emu_gpu *g)
{
	return g->gen.level == KFDSIG_GFX8 ? 2 : 8; /* kfd_device.c */
}

static int sdma_take(struct emu_gpu *g, const abi_create_queue_args *a, int *out)
{
	uint32_t first = 0, n = g->num_sdma, per = sdma_per_engine(g);

	if (a->queue_type == KFD_IOC_QUEUE_TYPE_SDMA_XGMI) {
		first = g->num_sdma;
		n = g->num_sdma_xgmi;
	} else if (a->queue_type == KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID) {
		first = a->sdma_engine_id;
		n = 1;
	}
	for (uint32_t k = 0; k < per; k++)
		for (uint32_t e = first; e < first + n && e < EMU_MAX_SDMA_ENGINES; e++) {
			uint32_t used = __atomic_load_n(&g->sdma_queues[e], __ATOMIC_RELAXED);

			while (used <= k)
				if (__atomic_compare_exchange_n(&g->sdma_queues[e], &used, used + 1,
								false, __ATOMIC_ACQ_REL,
								__ATOMIC_RELAXED)) {
					*out = (int)e;
					return 0;
				}
		}
	return -ENOMEM;
}

static void sdma_put(struct emu_queue *q)
{
	if (q->sdma_engine >= 0)
		__atomic_fetch_sub(&q->g->sdma_queues[q->sdma_engine], 1, __ATOMIC_ACQ_REL);
	q->sdma_engine = -1;
}

static int doorbells(struct emu_proc *p, struct emu_gpu *g)
{
	struct emu_pdd *pdd = &p->pdd[g->index];
	uint32_t slice = g->gen.doorbell_slice;

	if (pdd->db_memfd >= 0)
		return 0;
	pdd->db_memfd = memfd_create("kfdsig-emu-doorbells", MFD_CLOEXEC);
	if (pdd->db_memfd < 0)
		return -ENOMEM;
	if (ftruncate(pdd->db_memfd, slice) ||
	    (pdd->db_kptr = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, pdd->db_memfd,
				 0)) == MAP_FAILED) {
		close(pdd->db_memfd);
		pdd->db_memfd = -1;
		return -ENOMEM;
	}
	return 0;
}

int emu_create_queue(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	abi_create_queue_args *a = data;
	struct emu_gpu *g = emu_gpu_by_id(emu, a->gpu_id);
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	struct emu_bo *ring, *rp, *wp;
	struct emu_queue *q;
	uint32_t gi, id, db_index;
	bool sdma, aql_doubled;
	int r;

	/* set_queue_properties_from_user (kfd_chardev.c), in its order:
	 * ... then the queue type: one it does not know is -ENOTSUPP, which
	 * kfd_ioctl_create_queue() returns as is (errno 524 in user space).
	 * percentage, priority, access_ok(ring base, 8), power-of-two ring
	 * size, access_ok(rptr, 4), access_ok(wptr, 4), then the EOP and
	 * context-save addresses when non-zero: -EFAULT for an address in
	 * the kernel half. */
	if ((a->queue_percentage & emu_queue_percentage_mask(emu)) > KFD_MAX_QUEUE_PERCENTAGE ||
	    a->queue_priority > KFD_MAX_QUEUE_PRIORITY)
		return -EINVAL;
	if (a->ring_base_address && !emu_access_ok(a->ring_base_address, sizeof(uint64_t)))
		return -EFAULT;
	if (a->ring_size & (a->ring_size - 1))
		return -EINVAL;
	if (!emu_access_ok(a->read_pointer_address, sizeof(uint32_t)) ||
	    !emu_access_ok(a->write_pointer_address, sizeof(uint32_t)) ||
	    (a->eop_buffer_address && !emu_access_ok(a->eop_buffer_address, sizeof(uint32_t))) ||
	    (a->ctx_save_restore_address &&
	     !emu_access_ok(a->ctx_save_restore_address, sizeof(uint32_t))))
		return -EFAULT;
	switch (a->queue_type) {
	case KFD_IOC_QUEUE_TYPE_COMPUTE:
		sdma = false;
		break;
	case KFD_IOC_QUEUE_TYPE_SDMA:
	case KFD_IOC_QUEUE_TYPE_SDMA_XGMI:
		sdma = true;
		break;
	case KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID:
		if (!emu_version_at_least(emu, 17))
			return -EMU_ENOTSUPP; /* a type the kernel does not know yet */
		sdma = true;
		break;
	case KFD_IOC_QUEUE_TYPE_COMPUTE_AQL:
		/* emu_aql.c, gfx7/8 included (emu_aql_doubled()) */
		sdma = false;
		break;
	default:
		return -EMU_ENOTSUPP;
	}
	if (!g)
		return -EINVAL;
	gi = g->index;
	if (a->queue_type == KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID &&
	    a->sdma_engine_id >= g->num_sdma + g->num_sdma_xgmi)
		return -EINVAL;
	pthread_mutex_lock(&p->lock);
	if (!p->pdd[gi].vm) {
		r = -ESRCH; /* kfd_bind_process_to_device failed */
		goto out;
	}
	/* kfd_queue_acquire_buffers: rptr/wptr each one page, the ring
	 * exactly ring_size (ring size 0: only a mapping that starts there,
	 * kfd_queue_buffer_get() checks no size then), compute: EOP and
	 * context save area per topology */
	wp = exact_bo(p, gi, a->write_pointer_address & ~(pg - 1), pg);
	rp = exact_bo(p, gi, a->read_pointer_address & ~(pg - 1), pg);
	/* from 1.22 the ring buffer also holds the metadata ring */
	/* kfd_queue_acquire_buffers(): "AQL queues on GFX7 and GFX8 appear
	 * twice their actual size": the ring's buffer is ring_size / 2 (ROCr
	 * maps it twice, the AQL_QUEUE_MEM allocation, emu_mem.c). Emulator
	 * choice: such a ring must hold at least one 64-byte packet (-EINVAL
	 * below that, where the kernel's page-granular check lets it through
	 * and the CP's behaviour is UNVERIFIED). */
	aql_doubled = a->queue_type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL && emu_aql_doubled(g);
	if (aql_doubled && a->ring_size && a->ring_size < 2 * 64) {
		r = -EINVAL;
		goto out;
	}
	ring = exact_bo(p, gi, a->ring_base_address,
			(uint64_t)(aql_doubled ? a->ring_size / 2 : a->ring_size) +
				(emu_version_at_least(emu, 22) ? a->metadata_ring_size : 0));
	if (!wp || !rp || !ring) {
		r = -EINVAL;
		goto out;
	}
	if (!sdma) {
		struct cwsr c = cwsr_of(g);
		if (a->eop_buffer_address &&
		    (a->eop_buffer_size != g->gen.eop_buffer_size ||
		     !exact_bo(p, gi, a->eop_buffer_address, a->eop_buffer_size))) {
			r = -EINVAL;
			goto out;
		}
		if (c.cwsr &&
		    (a->ctl_stack_size != c.ctl_stack || a->ctx_save_restore_size < c.cwsr ||
		     !exact_bo(p, gi, a->ctx_save_restore_address,
			       ALIGN_UP((uint64_t)(a->ctx_save_restore_size + c.debug) * g->num_xcc,
					pg)))) {
			r = -EINVAL;
			goto out;
		}
	}
	if (proc_queues_on(p, g) >= queues_per_device(g)) {
		r = -ENOSPC;
		goto out;
	}
	/* kfd_process_queue_manager.c find_available_queue_slot(): the
	 * first free of KFD_MAX_NUM_OF_QUEUES_PER_PROCESS slots, else -ENOMEM */
	for (id = 0; id < EMU_MAX_QUEUES && (p->queue_ids[id / 64] >> (id % 64) & 1); id++)
		;
	if (id == EMU_MAX_QUEUES) {
		r = -ENOMEM;
		goto out;
	}
	r = doorbells(p, g);
	if (r)
		goto out;
	q = calloc(1, sizeof(*q));
	if (!q) {
		r = -ENOMEM;
		goto out;
	}
	q->sdma_engine = -1;
	r = device_take(emu, g);
	if (r) {
		free(q);
		goto out;
	}
	if (sdma && (r = sdma_take(g, a, &q->sdma_engine))) {
		device_put(g);
		free(q);
		goto out;
	}
	q->p = p;
	q->g = g;
	q->id = id;
	q->type = a->queue_type;
	q->sdma = sdma;
	q->aql = a->queue_type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
	q->pm4_target_xcc = (a->queue_percentage >> 8) & 0xff;
	q->ring_size = a->ring_size;
	q->ring_bo_size = ring->size;
	q->ring_va = a->ring_base_address;
	/* The MQD managers' init_mqd() -> update_mqd() set is_active =
	 * QUEUE_IS_ACTIVE() at creation as at UPDATE_QUEUE (kfd_priv.h:
	 * size, address and percent non-zero; set_queue_properties_from_user()
	 * keeps percent in bits 7:0), and the DQM maps only active queues
	 * (kfd_device_queue_manager.c create_queue_cpsch(): "if
	 * (q->properties.is_active)"): nothing runs until UPDATE_QUEUE. */
	q->inactive = !(a->ring_base_address && a->ring_size && (a->queue_percentage & 0xffu));
	q->rptr_va = a->read_pointer_address;
	q->wptr_va = a->write_pointer_address;
	q->eop_va = sdma ? 0 : a->eop_buffer_address;
	q->cwsr_va = sdma ? 0 : a->ctx_save_restore_address;
	q->cwsr_size = sdma ? 0 : a->ctx_save_restore_size;
	q->ring = ring->kptr;
	q->rptr = (char *)rp->kptr + (a->read_pointer_address - rp->va);
	q->rptr_room = (uint32_t)(rp->size - (a->read_pointer_address - rp->va));
	/* Emulator choice: doorbell index = queue id in the slice; SOC15
	 * reports its byte offset in the low bits (kfd_doorbell.c, kfd_chardev.c kfd_ioctl_create_queue()). */
	db_index = id * g->gen.doorbell_size;
	q->doorbell = (char *)p->pdd[gi].db_kptr + db_index;
	if (g->gen.doorbell_size == 8)
		__atomic_store_n((uint64_t *)q->doorbell, 0, __ATOMIC_RELAXED);
	else
		__atomic_store_n((uint32_t *)q->doorbell, 0, __ATOMIC_RELAXED);
	r = emu_engine_start(q);
	if (r) {
		sdma_put(q);
		device_put(g);
		free(q);
		goto out;
	}
	p->queue_ids[id / 64] |= 1ull << (id % 64);
	q->next = p->queues;
	p->queues = q;
	emu_dbg_queue_new(q);
	a->queue_id = id;
	a->doorbell_offset = KFDSIG_MMAP_TYPE_DOORBELL | KFDSIG_MMAP_GPU_ID(a->gpu_id);
	if (g->gen.doorbell_size == 8)
		a->doorbell_offset |= db_index;
out:
	pthread_mutex_unlock(&p->lock);
	return r;
}

int emu_destroy_queue(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_destroy_queue_args *a = data;
	struct emu_queue **pp, *q;

	(void)emu;
	pthread_mutex_lock(&p->lock);
	for (q = p->queues; q && q->id != a->queue_id; q = q->next)
		;
	if (q && emu_dbg_queue_delete(q) < 0) { /* may wait, dropping the lock */
		pthread_mutex_unlock(&p->lock);
		return -EINTR;
	}
	for (pp = &p->queues; *pp && (*pp)->id != a->queue_id; pp = &(*pp)->next)
		;
	q = *pp;
	if (q) {
		*pp = q->next;
		p->queue_ids[q->id / 64] &= ~(1ull << (q->id % 64));
		/* pqm_destroy_queue(): the queue's GWS goes back */
		if (p->pdd[q->g->index].gws_queue == q->id + 1)
			p->pdd[q->g->index].gws_queue = 0;
	}
	pthread_mutex_unlock(&p->lock);
	if (!q)
		return -EINVAL;
	emu_engine_stop(q); /* joins: the engine takes p->lock itself */
	sdma_put(q);
	device_put(q->g);
	free(q);
	return 0;
}

void emu_queues_fini(struct emu_proc *p)
{
	for (;;) {
		struct emu_queue *q;
		pthread_mutex_lock(&p->lock);
		q = p->queues;
		if (q)
			p->queues = q->next;
		pthread_mutex_unlock(&p->lock);
		if (!q)
			break;
		emu_engine_stop(q);
		sdma_put(q);
		device_put(q->g);
		free(q);
	}
}

/* kfd_doorbell_mmap: exactly one process slice of the GPU in the offset. */
int emu_doorbell_mmap(struct kfdsig_emu *emu, struct emu_proc *p, void **out, void *addr,
		      size_t len, int prot, int flags, uint64_t off)
{
	uint32_t gpu_id = (uint32_t)((off & KFDSIG_MMAP_GPU_ID_MASK) >> KFDSIG_MMAP_GPU_ID_SHIFT);
	struct emu_gpu *g = emu_gpu_by_id(emu, gpu_id);
	void *m;
	int r;

	if (!g || len != g->gen.doorbell_slice)
		return -EINVAL;
	pthread_mutex_lock(&p->lock);
	r = doorbells(p, g);
	if (!r) {
		m = mmap(addr, len, prot, flags, p->pdd[g->index].db_memfd, 0);
		r = m == MAP_FAILED ? -errno : 0;
		if (!r)
			*out = m;
	}
	pthread_mutex_unlock(&p->lock);
	return r;
}

int kfdsig_emu_queue_info(struct kfdsig_emu *emu, int pasid, uint32_t queue_id,
			  struct kfdsig_emu_queue_info *info)
{
	struct emu_proc *p;
	int r = -EINVAL;

	if (!emu || !info)
		return -EINVAL;
	p = emu_proc_get(emu, pasid);
	if (!p)
		return -ESRCH;
	pthread_mutex_lock(&p->lock);
	for (struct emu_queue *q = p->queues; q; q = q->next)
		if (q->id == queue_id) {
			info->halted = __atomic_load_n(&q->halted, __ATOMIC_ACQUIRE);
			info->exception = q->exception;
			info->consumed = __atomic_load_n(&q->consumed, __ATOMIC_ACQUIRE);
			info->type = q->type;
			r = 0;
		}
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	return r;
}
