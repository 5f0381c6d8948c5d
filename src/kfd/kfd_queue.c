/* SPDX-License-Identifier: MIT */
/*
 * User queues: CREATE_QUEUE with the buffers the kernel validates (kfd_chardev.c
 * kfd_ioctl_create_queue, kfd_queue.c kfd_queue_acquire_buffers), the process
 * doorbell slice (kfd_doorbell.c), and a submit helper that places
 * packets without straddling the ring end and never overruns the engine
 * (3.8, 4.6).
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <kfdsig/aql.h>
#include <kfdsig/sdma.h>

#include "core/opts.h"
#include "kfd/kfd_priv.h"
#include "pm4/pm4_defs.h"

#define ALIGN_UP(x, a) (((x) + (a)-1) / (a) * (a))

struct kfdsig_kfd_queue {
	struct kfdsig_kfd *kfd;
	struct kfd_gpu *g;
	const struct kfdsig_target *t;
	uint32_t id, type;
	uint32_t ring_size;
	/* gfx8 AQL: the doubled ring and the 4-byte doorbell's form
	 * (HSA_CAP_DOORBELL_TYPE, topology capability bits 13:12) */
	bool aql_doubled;
	uint8_t db_type;
	struct kfd_bo *ring, *rptr, *wptr, *eop, *cwsr;
	uint32_t rptr_off; /* the read pointer's offset in its buffer */
	volatile void *doorbell;
	uint64_t wptr_bytes; /* monotonic, in bytes */
	pthread_mutex_t lock;
	struct kfdsig_kfd_queue *next; /* kfd->queues, under kfd->lock */
};

/*
 * amd_queue_t (hsa/amd_hsa_queue.h, ROCr 5.2) around an AQL queue's read
 * pointer, for a queue that offers scratch: read_dispatch_id at 0x80,
 * read_dispatch_id_field_base_byte_offset (0x80) after it, by which the
 * CP finds the structure, then the scratch fields as ROCr's
 * AqlQueue::InitScratchSRD() fills them: compute_tmpring_size (0x8c:
 * WAVES [11:0] the waves the scratch holds, per shader engine from gfx11
 * on (scratch_tmpring()), WAVESIZE from bit 12 in the
 * generation's unit), scratch_resource_descriptor (0x90: a swizzled
 * buffer over the scratch, ADD_TID_ENABLE, 4-byte elements, index stride
 * 64 before gfx10, left 0 for the CP to fill from gfx10),
 * scratch_backing_memory_location (0xa0), _byte_size (0xa8: one XCC's
 * share),
 * scratch_wave64_lane_byte_size (0xb0). No queue_inactive_signal: a
 * kernel wanting more private memory than offered gets no more.
 */
#define AQ_RPTR 0x80u

/* The node's shader engines: topology array_count /
 * simd_arrays_per_engine (libhsakmt topology.c NumShaderBanks), 0 when
 * the topology does not say. */
static uint32_t node_se(const struct kfdsig_kfd_device *d)
{
	return d->simd_arrays_per_engine ? d->array_count / d->simd_arrays_per_engine : 0;
}

/* The node's XCCs (topology num_xcc, 0: one). */
static uint32_t node_xcc(const struct kfdsig_kfd_device *d)
{
	return d->num_xcc ? d->num_xcc : 1;
}

/* compute_tmpring_size for the queue's scratch (pm4_tmpring_size()), as
 * ROCr amd_aql_queue.cpp computes it: from gfx11 on WAVES per shader
 * engine of the node (FillComputeTmpRingSize_Gfx11()/_Gfx12(): the
 * scratch's waves over NumShaderBanks, every XCC's engines); before, the
 * waves of one XCC's share of the scratch (FillComputeTmpRingSize():
 * (size / NumXcc) / wave, each XCC's CP taking WAVES slots of its own),
 * rounded down to a multiple of one XCC's engines, which ROCr asserts
 * ("Must be divisible by #SEs": NumShaderBanks / NumXcc). 0 when no wave
 * gets a slot. */
static uint32_t scratch_tmpring(const struct kfdsig_target *t, const struct kfdsig_kfd_device *d,
				const struct kfdsig_queue_opts *o)
{
	uint32_t wave = pm4_tmpring_wave_bytes(t->level, (uint64_t)o->scratch_lane_bytes * 64);

	if (t->level >= KFDSIG_GFX11)
		return pm4_tmpring_size(t->level, o->scratch_size, wave, node_se(d));
	return pm4_tmpring_size(t->level, o->scratch_size / node_xcc(d), wave,
				node_se(d) / node_xcc(d));
}

static uint32_t amd_queue_image(struct kfdsig_kfd_queue *q, const struct kfdsig_queue_opts *o)
{
	uint8_t *aq = q->rptr->pub.cpu;
	uint32_t off = AQ_RPTR, tmpring = scratch_tmpring(q->t, &q->g->dev, o), srd[4];
	uint64_t bytes;

	srd[0] = (uint32_t)o->scratch_va;
	srd[1] = (uint32_t)(o->scratch_va >> 32 & 0xffff) | 1u << 31; /* SWIZZLE_ENABLE */
	srd[2] = o->scratch_size > 0xffffffffu ? 0xffffffffu : (uint32_t)o->scratch_size;
	/* ADD_TID_ENABLE [23]; before gfx10 INDEX_STRIDE [22:21] 3 (64),
	 * ELEMENT_SIZE [20:19] 1 (4 bytes) */
	srd[3] = 1u << 23 | (q->t->level < KFDSIG_GFX10 ? 3u << 21 | 1u << 19 : 0);
	memcpy(aq + 0x88, &off, 4);
	memcpy(aq + 0x8c, &tmpring, 4);
	memcpy(aq + 0x90, srd, 16);
	memcpy(aq + 0xa0, &o->scratch_va, 8);
	/* one XCC's share, as ROCr's InitScratchSRD() reports it */
	bytes = o->scratch_size / node_xcc(&q->g->dev);
	memcpy(aq + 0xa8, &bytes, 8);
	memcpy(aq + 0xb0, &o->scratch_lane_bytes, 4);
	return AQ_RPTR;
}

static void unlink_queue(struct kfdsig_kfd *kfd, struct kfdsig_kfd_queue *q)
{
	struct kfdsig_kfd_queue **pp;

	pthread_mutex_lock(&kfd->lock);
	for (pp = &kfd->queues; *pp && *pp != q; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = q->next;
	pthread_mutex_unlock(&kfd->lock);
}

/* At close the kernel tears the queues down with the process; only our
 * bookkeeping is left to free (the buffers go with kfd_mem_release_all). */
void kfd_queues_release_all(struct kfdsig_kfd *kfd)
{
	while (kfd->queues) {
		struct kfdsig_kfd_queue *q = kfd->queues;
		kfd->queues = q->next;
		pthread_mutex_destroy(&q->lock);
		free(q);
	}
}

static bool is_sdma(uint32_t type)
{
	return type == KFDSIG_QUEUE_SDMA || type == KFDSIG_QUEUE_SDMA_BY_ENG_ID;
}

static void free_bo(struct kfdsig_kfd *kfd, struct kfd_bo *bo)
{
	if (bo)
		kfdsig_kfd_free(kfd, &bo->pub);
}

static int alloc_mapped_flags(struct kfdsig_kfd *kfd, struct kfd_gpu *g, uint64_t size,
			      uint32_t extra, struct kfd_bo **out)
{
	const struct kfdsig_kfd_bo *bo = NULL;
	int r = kfdsig_kfd_alloc(kfd, g->dev.gpu_id, size, KFDSIG_KFD_MEM_GTT_UNCACHED | extra,
				 &bo);

	if (r < 0)
		return r;
	r = kfdsig_kfd_map(kfd, bo, &g->dev.gpu_id, 1);
	if (r < 0) {
		kfdsig_kfd_free(kfd, bo);
		return r;
	}
	*out = (struct kfd_bo *)(uintptr_t)bo;
	return 0;
}

static int alloc_mapped(struct kfdsig_kfd *kfd, struct kfd_gpu *g, uint64_t size,
			struct kfd_bo **out)
{
	return alloc_mapped_flags(kfd, g, size, 0, out);
}

/* The doorbell slice: doorbell_offset with the in-slice bits cleared,
 * exactly one slice long (kfd_doorbell_mmap refuses other sizes). */
static int map_doorbells(struct kfdsig_kfd *kfd, struct kfd_gpu *g, uint64_t offset)
{
	const struct kfdsig_kfd_ops *ops = kfd->ops;
	uint32_t slice = g->dev.target->doorbell_slice;
	void *p;
	int r;

	if (g->doorbells)
		return 0;
	r = ops->mmap(ops->ctx, &p, NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, kfd->fd,
		      offset & ~(uint64_t)(slice - 1));
	if (r < 0)
		return set_error(-r, "cannot mmap the doorbells of gpu 0x%x: %s", g->dev.gpu_id,
				 strerror(-r));
	g->doorbells = p;
	return 0;
}

int kfdsig_kfd_queue_create(struct kfdsig_kfd *kfd, uint32_t gpu_id, enum kfdsig_queue_type type,
			    const struct kfdsig_queue_opts *opts, struct kfdsig_kfd_queue **out)
{
	abi_create_queue_args a;
	struct kfdsig_queue_opts o = { 0 };
	struct kfdsig_kfd_queue *q;
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	unsigned long req = AMDKFD_IOC_CREATE_QUEUE;
	struct kfd_gpu *g;
	uint64_t db;
	int r;

	if (!kfd || !out)
		return set_error(EINVAL, "NULL argument");
	*out = NULL;
	g = kfd_gpu_by_id(kfd, gpu_id);
	if (!g)
		return set_error(ENOENT, "no GPU with gpu_id 0x%x", gpu_id);
	if (!g->dev.target)
		return set_error(ENOTSUP, "gpu 0x%x: %s", gpu_id, g->dev.note);
	if (type != KFDSIG_QUEUE_PM4 && type != KFDSIG_QUEUE_AQL && !is_sdma(type))
		return set_error(EINVAL, "unknown queue type %d", (int)type);
	/*
	 * gfx8 (4-byte doorbells, 32-bit wrapped pointers) AQL queues: the
	 * CP's ring is twice the packets' bytes with the same packets in
	 * both halves. ROCr 5.2 (amd_aql_queue.cpp AllocRegisteredRingBuffer(),
	 * queue_full_workaround) maps its pages twice through a shared-memory
	 * file and gives CREATE_QUEUE the doubled size; kfdsig gets the same
	 * GPU view from an AQL_QUEUE_MEM allocation of the doubled size
	 * (libhsakmt's AQLQueueMemory), which amdgpu backs with half its size
	 * and maps twice, at va and va + half (amdgpu_amdkfd_gpuvm.c
	 * amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu(), kfd_mem_attach()).
	 * kfd_queue.c kfd_queue_acquire_buffers() checks that buffer for
	 * ring_size / 2 ("AQL queues on GFX7 and GFX8 appear twice their
	 * actual size"). The CPU writes the first half.
	 */
	if (type == KFDSIG_QUEUE_SDMA_BY_ENG_ID) {
		if (!kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_SDMA_BY_ENG_ID))
			return set_error(ENOTSUP, "SDMA queues by engine id need KFD 1.17");
		req = KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17;
	}
	r = opts_copy(&o, sizeof(o), opts, "kfdsig_queue_opts");
	if (r)
		return r;
	if (!o.ring_size)
		o.ring_size = 64 * 1024;
	if (!o.percentage)
		o.percentage = 100;
	if (!o.priority)
		o.priority = 7;
	if (o.pad_0 || o.pad_1 || o.pad_2)
		return set_error(EINVAL, "kfdsig_queue_opts.pad_0, pad_1 and pad_2 must be 0");
	if (o.scratch_va || o.scratch_size || o.scratch_lane_bytes) {
		if (type != KFDSIG_QUEUE_AQL)
			return set_error(EINVAL, "scratch is for AQL queues");
		if ((o.scratch_va & 255) || (o.scratch_va >> 48) || !o.scratch_lane_bytes ||
		    o.scratch_size < pm4_tmpring_wave_bytes(g->dev.target->level,
							    (uint64_t)o.scratch_lane_bytes * 64))
			return set_error(EINVAL,
					 "scratch at 0x%llx of %llu bytes: 256-byte aligned and "
					 "at least one wave of %u bytes per work-item",
					 (unsigned long long)o.scratch_va,
					 (unsigned long long)o.scratch_size, o.scratch_lane_bytes);
		if (!scratch_tmpring(g->dev.target, &g->dev, &o))
			return set_error(EINVAL,
					 "scratch of %llu bytes: it needs a wave per shader "
					 "engine (the node has %u by its topology; before gfx11 "
					 "each of its %u XCCs takes its share)",
					 (unsigned long long)o.scratch_size, node_se(&g->dev),
					 node_xcc(&g->dev));
	}
	if (o.metadata_ring_size) {
		if (!kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_METADATA_RING))
			return set_error(ENOTSUP, "a metadata ring needs KFD 1.22");
		if (o.metadata_ring_size % pg)
			return set_error(EINVAL, "metadata ring size %u is not a multiple of %llu",
					 o.metadata_ring_size, (unsigned long long)pg);
		req = KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17; /* the whole 1.22 struct */
		/* kfdsig's choice: the metadata ring would share the doubled
		 * ring's buffer, an arrangement not verified */
		if (type == KFDSIG_QUEUE_AQL && g->dev.target->wptr_bits != 64)
			return set_error(ENOTSUP,
					 "gpu 0x%x (%s): no metadata ring on a gfx8 AQL queue",
					 gpu_id, g->dev.target->name);
	}
	if (o.pm4_target_xcc) {
		uint32_t nx = node_xcc(&g->dev);

		if (type != KFDSIG_QUEUE_PM4 || o.pm4_target_xcc >= nx || o.percentage > 0xff)
			return set_error(EINVAL,
					 "pm4_target_xcc %u: PM4 queues only, below num_xcc %u",
					 o.pm4_target_xcc, nx);
		if (!kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_EVENT_AGE))
			return set_error(ENOTSUP, "pm4_target_xcc needs KFD 1.14");
	}
	/* The ring must be its own mapping of exactly ring_size bytes, and
	 * mappings are whole pages. */
	if (o.ring_size < pg || (o.ring_size & (o.ring_size - 1)))
		return set_error(EINVAL, "ring size %u is not a power of two >= %llu", o.ring_size,
				 (unsigned long long)pg);
	q = calloc(1, sizeof(*q));
	if (!q)
		return set_error(ENOMEM, "out of memory");
	q->kfd = kfd;
	q->g = g;
	q->t = g->dev.target;
	q->type = type;
	q->ring_size = o.ring_size;
	q->aql_doubled = type == KFDSIG_QUEUE_AQL && q->t->wptr_bits != 64;
	q->db_type = (uint8_t)(g->dev.capability >> 12 & 3);
	pthread_mutex_init(&q->lock, NULL);

	/* The ring is its own mapping of exactly ring_size bytes, the read
	 * and write pointers each their own page (kfd_queue_acquire_buffers). */
	if ((r = q->aql_doubled
			 ? alloc_mapped_flags(kfd, g, 2ull * o.ring_size,
					      KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM, &q->ring)
			 : alloc_mapped(kfd, g, (uint64_t)o.ring_size + o.metadata_ring_size,
					&q->ring)) < 0 ||
	    (r = alloc_mapped(kfd, g, pg, &q->rptr)) < 0 ||
	    (r = alloc_mapped(kfd, g, pg, &q->wptr)) < 0)
		goto fail;
	if (o.scratch_size)
		q->rptr_off = amd_queue_image(q, &o);
	memset(&a, 0, sizeof(a));
	a.ring_base_address = q->ring->pub.va;
	a.ring_size = q->aql_doubled ? 2 * o.ring_size : o.ring_size;
	a.read_pointer_address = q->rptr->pub.va + q->rptr_off;
	a.write_pointer_address = q->wptr->pub.va;
	a.gpu_id = gpu_id;
	a.queue_type = is_sdma(type)		  ? (uint32_t)type
		       : type == KFDSIG_QUEUE_AQL ? KFD_IOC_QUEUE_TYPE_COMPUTE_AQL
						  : KFD_IOC_QUEUE_TYPE_COMPUTE;
	/* AQL: every slot starts INVALID, so the packet processor never runs
	 * a slot before its header is published (HSA spec 2.8). */
	if (type == KFDSIG_QUEUE_AQL)
		for (uint32_t i = 0; i < o.ring_size / KFDSIG_AQL_PACKET_SIZE; i++)
			((uint32_t *)q->ring->pub.cpu)[i * KFDSIG_AQL_PACKET_SIZE / 4] =
				KFDSIG_AQL_TYPE_INVALID;
	/* kfd_chardev.c set_queue_properties_from_user(): bits 15:8 are
	 * pm4_target_xcc since "drm/amdkfd: ... PM4 target XCC" (amd-gfx
	 * 2023-03-28), which bumped no ioctl version; older kernels refuse a
	 * percentage above 100, so it is sent from 1.14 (the next version
	 * bump, "Update kfd_event_data") on only. */
	a.queue_percentage = o.percentage | o.pm4_target_xcc << 8;
	a.queue_priority = o.priority;
	a.sdma_engine_id = o.sdma_engine_id;
	a.metadata_ring_size = o.metadata_ring_size;
	if (!is_sdma(type)) {
		const struct kfdsig_kfd_device *d = &g->dev;
		uint32_t xcc = d->num_xcc ? d->num_xcc : 1;

		/* EOP buffer: the topology's size (0x8000 on Tonga) [eop]. */
		if ((r = alloc_mapped(kfd, g, q->t->eop_buffer_size, &q->eop)) < 0)
			goto fail;
		a.eop_buffer_address = q->eop->pub.va;
		a.eop_buffer_size = q->t->eop_buffer_size;
		if (d->cwsr_size) {
			uint64_t total =
				ALIGN_UP((uint64_t)(d->cwsr_size + d->debug_memory_size) * xcc, pg);
			if ((r = alloc_mapped(kfd, g, total, &q->cwsr)) < 0)
				goto fail;
			a.ctx_save_restore_address = q->cwsr->pub.va;
			a.ctx_save_restore_size = d->cwsr_size;
			a.ctl_stack_size = d->ctl_stack_size;
		}
	}
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, req, &a);
	if (r < 0) {
		r = set_error(-r, "CREATE_QUEUE (%s, ring %u) on gpu 0x%x failed: %s",
			      is_sdma(type)		 ? "SDMA"
			      : type == KFDSIG_QUEUE_AQL ? "AQL"
							 : "PM4",
			      o.ring_size, gpu_id, strerror(-r));
		goto fail;
	}
	q->id = a.queue_id;
	pthread_mutex_lock(&kfd->lock);
	r = map_doorbells(kfd, g, a.doorbell_offset);
	pthread_mutex_unlock(&kfd->lock);
	if (r < 0) {
		struct kfd_ioctl_destroy_queue_args d = { .queue_id = q->id };
		kfd_ioctl_retry(kfd->ops, kfd->fd, AMDKFD_IOC_DESTROY_QUEUE, &d);
		goto fail;
	}
	/* SOC15: the offset's low bits locate the doorbell in the slice;
	 * before: queue_id * 4 (libhsakmt; kfd_doorbell.c, kfd_chardev.c kfd_ioctl_create_queue()). */
	if (q->t->doorbell_size == 8)
		db = a.doorbell_offset & (q->t->doorbell_slice - 1);
	else
		db = (uint64_t)q->id * 4;
	q->doorbell = (char *)g->doorbells + db;
	pthread_mutex_lock(&kfd->lock);
	q->next = kfd->queues;
	kfd->queues = q;
	pthread_mutex_unlock(&kfd->lock);
	*out = q;
	return 0;
fail:
	free_bo(kfd, q->cwsr);
	free_bo(kfd, q->eop);
	free_bo(kfd, q->wptr);
	free_bo(kfd, q->rptr);
	free_bo(kfd, q->ring);
	pthread_mutex_destroy(&q->lock);
	free(q);
	return r;
}

int kfdsig_kfd_queue_destroy(struct kfdsig_kfd_queue *q)
{
	struct kfd_ioctl_destroy_queue_args d = { 0 };
	int r;

	if (!q)
		return set_error(EINVAL, "NULL queue");
	d.queue_id = q->id;
	r = kfd_ioctl_retry(q->kfd->ops, q->kfd->fd, AMDKFD_IOC_DESTROY_QUEUE, &d);
	if (r < 0)
		return set_error(-r, "DESTROY_QUEUE(%u) failed: %s", q->id, strerror(-r));
	unlink_queue(q->kfd, q);
	free_bo(q->kfd, q->cwsr);
	free_bo(q->kfd, q->eop);
	free_bo(q->kfd, q->wptr);
	free_bo(q->kfd, q->rptr);
	free_bo(q->kfd, q->ring);
	pthread_mutex_destroy(&q->lock);
	free(q);
	return 0;
}

int kfdsig_kfd_queue_id(const struct kfdsig_kfd_queue *q)
{
	return q ? (int)q->id : -EINVAL;
}

void *kfd_queue_cwsr(const struct kfdsig_kfd_queue *q, uint64_t *size)
{
	if (!q->cwsr || !q->cwsr->pub.cpu)
		return NULL;
	*size = q->cwsr->pub.size;
	return q->cwsr->pub.cpu;
}

/* Bytes the engine has not consumed yet. The engine reports its read
 * pointer wrapped or monotonic, in dwords (PM4) or bytes (SDMA); modulo
 * the ring both read the same. */
static uint64_t in_flight(struct kfdsig_kfd_queue *q)
{
	uint64_t rp;

	if (q->type == KFDSIG_QUEUE_AQL) {
		/* the CP reports the 64-bit read index, in packets */
		rp = __atomic_load_n(
			     (uint64_t *)(void *)((uint8_t *)q->rptr->pub.cpu + q->rptr_off),
			     __ATOMIC_ACQUIRE) *
		     KFDSIG_AQL_PACKET_SIZE;
	} else if (is_sdma(q->type)) {
		rp = q->t->wptr_bits == 64
			     ? __atomic_load_n((uint64_t *)q->rptr->pub.cpu, __ATOMIC_ACQUIRE)
			     : __atomic_load_n((uint32_t *)q->rptr->pub.cpu, __ATOMIC_ACQUIRE);
	} else {
		rp = (uint64_t)__atomic_load_n((uint32_t *)q->rptr->pub.cpu, __ATOMIC_ACQUIRE) * 4;
	}
	return (q->wptr_bytes - rp) & (q->ring_size - 1);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until @need bytes are free; one dword always stays free so that a
 * full ring is never mistaken for an empty one. */
static int wait_space(struct kfdsig_kfd_queue *q, uint64_t need, int timeout_ms)
{
	int64_t end = timeout_ms < 0 ? INT64_MAX : now_ms() + timeout_ms;
	unsigned spin = 0;

	while (q->ring_size - 4 - in_flight(q) < need) {
		if (now_ms() >= end)
			return set_error(ETIMEDOUT, "queue %u: ring full for %d ms", q->id,
					 timeout_ms);
		if (++spin > 64)
			usleep(50);
	}
	return 0;
}

static void ring_doorbell(struct kfdsig_kfd_queue *q)
{
	uint64_t v = is_sdma(q->type) ? q->wptr_bytes : q->wptr_bytes / 4;

	if (q->t->wptr_bits == 32) /* gfx8: wrapped 32-bit pointers */
		v = is_sdma(q->type) ? v & (q->ring_size - 1) : v & (q->ring_size / 4 - 1);
	/* write pointer memory first, then the doorbell (kfd_doorbell.c, kfd_chardev.c kfd_ioctl_create_queue()) */
	if (q->t->wptr_bits == 64)
		__atomic_store_n((uint64_t *)q->wptr->pub.cpu, v, __ATOMIC_RELEASE);
	else
		__atomic_store_n((uint32_t *)q->wptr->pub.cpu, (uint32_t)v, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (q->t->doorbell_size == 8)
		__atomic_store_n((volatile uint64_t *)q->doorbell, v, __ATOMIC_RELEASE);
	else
		__atomic_store_n((volatile uint32_t *)q->doorbell, (uint32_t)v, __ATOMIC_RELEASE);
	/* Off the real kernel the doorbell page is memory an engine thread
	 * sleeps on (its first 32-bit word, a shared futex): wake it, as the
	 * hardware doorbell wakes the CP. On hardware the page is MMIO and
	 * the store itself is the doorbell. */
	if (!q->kfd->ops->name || strcmp(q->kfd->ops->name, "linux"))
		syscall(SYS_futex, (void *)q->doorbell, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* AQL: whole 64-byte slots (a ring of them never needs a tail fill), the
 * header of each stored last with release order; then the write index
 * (packets) into the write pointer memory and, as ROCr's AqlQueue rings
 * its hardware doorbell, the last packet's index into the 64-bit doorbell
 * (amd_aql_queue.cpp; the doorbell follows the write pointer memory, as
 * for PM4). */
static int submit_aql(struct kfdsig_kfd_queue *q, const uint32_t *dw, uint32_t ndw, int timeout_ms)
{
	uint32_t n = ndw / (KFDSIG_AQL_PACKET_SIZE / 4),
		 slots = q->ring_size / KFDSIG_AQL_PACKET_SIZE;
	uint64_t idx, wi;
	int r;

	if (ndw % (KFDSIG_AQL_PACKET_SIZE / 4))
		return set_error(EINVAL, "AQL submit of %u dwords: whole 16-dword packets only",
				 ndw);
	if ((uint64_t)n * KFDSIG_AQL_PACKET_SIZE > q->ring_size / 2)
		return set_error(E2BIG, "%u AQL packets do not fit a %u-byte ring", n,
				 q->ring_size);
	pthread_mutex_lock(&q->lock);
	idx = q->wptr_bytes / KFDSIG_AQL_PACKET_SIZE;
	r = wait_space(q, (uint64_t)n * KFDSIG_AQL_PACKET_SIZE, timeout_ms);
	for (uint32_t i = 0; r == 0 && i < n; i++) {
		r = kfdsig_aql_ring_write(q->ring->pub.cpu, slots, idx + i,
					  dw + i * (KFDSIG_AQL_PACKET_SIZE / 4));
		if (r == 0) /* a refused slot publishes nothing past it */
			q->wptr_bytes += KFDSIG_AQL_PACKET_SIZE;
	}
	wi = q->wptr_bytes / KFDSIG_AQL_PACKET_SIZE;
	if (wi > idx) {
		__atomic_store_n((uint64_t *)q->wptr->pub.cpu, wi, __ATOMIC_RELEASE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		/* SOC15: the 64-bit index of the last packet; gfx8's 4-byte
		 * doorbell as ROCr's AqlQueue::StoreRelaxed() writes it
		 * (legacy_dispatch_id = one past the last packet): type 0
		 * (Tonga) that position wrapped to the doubled ring, in dwords
		 * (the CP's wptr_shift 4, kfd_mqd_manager_vi.c); type 1 its low
		 * 32 bits */
		if (q->t->doorbell_size == 4)
			__atomic_store_n((volatile uint32_t *)q->doorbell,
					 q->db_type == 0 ? (uint32_t)((wi & (2 * slots - 1)) * 16)
							 : (uint32_t)wi,
					 __ATOMIC_RELEASE);
		else
			__atomic_store_n((volatile uint64_t *)q->doorbell, wi - 1,
					 __ATOMIC_RELEASE);
		/* off the real kernel: wake the engine (see ring_doorbell()) */
		if (!q->kfd->ops->name || strcmp(q->kfd->ops->name, "linux"))
			syscall(SYS_futex, (void *)q->doorbell, FUTEX_WAKE, 1, NULL, NULL, 0);
	}
	pthread_mutex_unlock(&q->lock);
	return r;
}

/* The dwords a PRED_EXEC at @dw predicates (its EXEC_COUNT, read through
 * the packet's public layout), 0 when @t has no PRED_EXEC. */
static uint32_t pred_exec_count(const struct kfdsig_target *t, const uint32_t *dw)
{
	const struct kfdsig_packet_desc *d = kfdsig_pm4_packet_desc(t, KFDSIG_PM4_OP_PRED_EXEC);

	for (unsigned k = 0; d && k < d->nfields; k++)
		if (!strcmp(d->fields[k].name, "exec_count"))
			return kfdsig_field_get(&d->fields[k], dw);
	return 0;
}

/*
 * A multi-XCC PM4 submission into the ring at @out (GPU address @va), or
 * only its length when @out is NULL. Each PRED_EXEC with the dwords it
 * predicates becomes an in-ring indirect buffer: an INDIRECT_BUFFER
 * running them where they lie, then a NOP whose body they are, so the ring
 * steps over them (tinygrad ops_amd.py _submit(): "PACKET3_PRED_EXEC
 * doesn't work in rings, only in IBs"; every XCC runs the ring, so outside
 * an IB the predicate would not hold). Everything else is copied as it is;
 * from a header it cannot size on, the rest too.
 * Return: the dwords it takes in the ring.
 */
static uint32_t copy_pm4(struct kfdsig_kfd_queue *q, uint32_t *out, uint64_t va, const uint32_t *dw,
			 uint32_t ndw)
{
	uint32_t i = 0, o = 0, nop;

	while (i < ndw) {
		long plen = kfdsig_pm4_packet_dw(dw + i, ndw - i);
		uint32_t len = plen > 0 ? (uint32_t)plen : 0, body;

		if (!len || len > ndw - i)
			len = ndw - i;
		body = len == KFDSIG_PM4_PRED_EXEC_DW &&
				       kfdsig_pm4_opcode(dw[i]) == (int)KFDSIG_PM4_OP_PRED_EXEC
			       ? len + pred_exec_count(q->t, dw + i)
			       : 0;
		/* the NOP that steps over the body holds at most 0x3fff dwords */
		if (body && body <= ndw - i && body < KFDSIG_PM4_MAX_BODY_DW - 1 &&
		    kfdsig_pm4_header(&nop, KFDSIG_PM4_OP_NOP, body, 0) == 0) {
			if (out) {
				kfdsig_pm4_emit_ib(q->t, va + 4ull * (o + KFDSIG_PM4_IB_DW + 1),
						   body, out + o, KFDSIG_PM4_IB_DW);
				out[o + KFDSIG_PM4_IB_DW] = nop;
				memcpy(out + o + KFDSIG_PM4_IB_DW + 1, dw + i, (size_t)body * 4);
			}
			o += KFDSIG_PM4_IB_DW + 1 + body;
			i += body;
			continue;
		}
		if (out)
			memcpy(out + o, dw + i, (size_t)len * 4);
		o += len;
		i += len;
	}
	return o;
}

int kfdsig_kfd_queue_submit(struct kfdsig_kfd_queue *q, const uint32_t *dw, uint32_t ndw,
			    int timeout_ms)
{
	uint32_t *ring, pad = 0, wrap = 0;
	uint64_t need, pos, tail;
	int r;

	if (!q || (ndw && !dw))
		return set_error(EINVAL, "NULL argument");
	if (!ndw)
		return 0;
	if (q->type == KFDSIG_QUEUE_AQL)
		return submit_aql(q, dw, ndw, timeout_ms);
	/* Some gfx9 SDMA engines need 64 dwords per submission: pad with one
	 * NOP burst (header count = pad - 1, then zero dwords) as ROCr does
	 * [min64] (*_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp). */
	if (is_sdma(q->type) && ndw < q->t->sdma_min_submit_dw)
		pad = q->t->sdma_min_submit_dw - ndw;
	/* Multi-XCC PM4: an INDIRECT_BUFFER + NOP per PRED_EXEC (copy_pm4()). */
	if (q->type == KFDSIG_QUEUE_PM4 && q->t->max_xcc > 1)
		wrap = copy_pm4(q, NULL, 0, dw, ndw) - ndw;
	need = (uint64_t)(ndw + pad + wrap) * 4;
	if (need > q->ring_size / 2)
		return set_error(E2BIG, "%u dwords do not fit a %u-byte ring", ndw, q->ring_size);
	pthread_mutex_lock(&q->lock);
	ring = q->ring->pub.cpu;
	pos = q->wptr_bytes & (q->ring_size - 1);
	tail = q->ring_size - pos;
	if (need > tail) {
		/* fill the tail with NOPs: PM4 PACKET3(NOP, 0x3FFF) dwords
		 * (amdgpu's ring padding), SDMA zero dwords (1-dword NOPs) */
		r = wait_space(q, tail, timeout_ms);
		if (r < 0)
			goto out;
		if (is_sdma(q->type))
			kfdsig_sdma_emit_nop(ring + pos / 4, tail / 4, tail / 4, 0);
		else
			for (uint64_t i = 0; i < tail / 4; i++)
				ring[pos / 4 + i] = KFDSIG_PM4_NOP_FILLER;
		q->wptr_bytes += tail;
		pos = 0;
	}
	r = wait_space(q, need, timeout_ms);
	if (r < 0)
		goto out;
	if (wrap)
		copy_pm4(q, ring + pos / 4, q->ring->pub.va + pos, dw, ndw);
	else
		memcpy(ring + pos / 4, dw, (size_t)ndw * 4);
	if (pad)
		kfdsig_sdma_emit_nop(ring + pos / 4 + ndw, pad, pad, KFDSIG_SDMA_NOP_BURST);
	q->wptr_bytes += need;
	ring_doorbell(q);
out:
	pthread_mutex_unlock(&q->lock);
	return r;
}

int kfdsig_kfd_queue_wait_idle(struct kfdsig_kfd_queue *q, int timeout_ms)
{
	int64_t end = timeout_ms < 0 ? INT64_MAX : now_ms() + timeout_ms;

	if (!q)
		return set_error(EINVAL, "NULL queue");
	while (in_flight(q)) {
		if (now_ms() >= end)
			return set_error(ETIMEDOUT, "queue %u not idle after %d ms", q->id,
					 timeout_ms);
		usleep(50);
	}
	return 0;
}
