/* SPDX-License-Identifier: MIT */
/*
 * The per-process /dev/kfd ioctls a runtime sends while it sets itself up
 * (what libhsakmt's hsaKmtOpenKFD and fmm_init_process_apertures, and
 * ROCr's hsa_init, send before any queue exists), with the checks and
 * errnos of kfd_chardev.c:
 *
 *   GET_PROCESS_APERTURES(_NEW)  kfd_flat_memory.c apertures per pdd
 *   SET_MEMORY_POLICY            policies, APE1 check, -ESRCH without VM
 *   SET_SCRATCH_BACKING_VA       -ENODEV without VM
 *   SET_TRAP_HANDLER             -ESRCH without VM
 *   GET_TILE_CONFIG              clamp counts, copy the tables
 *   SET_XNACK_MODE               query, -EBUSY with queues, -EPERM on
 *                                GPUs that run with retry off
 *   AVAILABLE_MEMORY             VRAM not yet allocated
 *   UPDATE_QUEUE, SET_CU_MASK    -EFAULT for an unknown queue
 *   ALLOC_QUEUE_GWS              -EINVAL, -ENODEV, -EBUSY (pqm_set_gws)
 *   ALLOC_MEMORY_OF_GPU DOORBELL / MMIO_REMAP and the MMIO mmap.
 *
 * Every pdd of the process exists from the open (kfd_init_apertures
 * creates one per GPU), so lookups by gpu_id fail only for unknown ids.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "emu/emu_priv.h"
#include "emu/sq/sqk.h"

/* ---- apertures (kfd_flat_memory.c) ------------------------------------- */

/*
 * kfd_init_apertures_vi (gfx8 dGPU) and kfd_init_apertures_v9 (gfx9+):
 *   LDS      gfx8: 1 << 61 (MAKE_LDS_APP_BASE_VI), gfx9+: 1 << 48
 *            (MAKE_LDS_APP_BASE_V9), limit = base | 0xFFFFFFFF
 *   scratch  gfx8: (1 << 61) + 0x100000000, gfx9+: 2 << 48, same limit
 *   GPUVM    SVM_USER_BASE (two CWSR TBA/TMA pages plus two more) up to
 *            the VM size - 1, where the VM is min(vm_size,
 *            AMDGPU_GMC_HOLE_START): 1 << 47 from gfx9, 64 GiB on gfx8
 *            (gmc_v8_0 amdgpu_vm_adjust_size(adev, 64, ...))
 * Newer kernels start GPUVM at max(SVM_USER_BASE,
 * AMDGPU_VA_RESERVED_BOTTOM); both are below any address a runtime uses.
 */
void emu_gpu_apertures(const struct emu_gpu *g, struct kfd_process_device_apertures *a)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	memset(a, 0, sizeof(*a));
	a->gpu_id = g->gpu_id;
	if (g->gen.level == KFDSIG_GFX8) {
		a->lds_base = 1ull << 61;
		a->scratch_base = (1ull << 61) + 0x100000000ull;
		a->gpuvm_limit = (64ull << 30) - 1;
	} else {
		a->lds_base = 1ull << 48;
		a->scratch_base = 2ull << 48;
		a->gpuvm_limit = (1ull << 47) - 1;
	}
	a->lds_limit = (a->lds_base & 0xFFFFFFFF00000000ull) | 0xFFFFFFFF;
	a->scratch_limit = (a->scratch_base & 0xFFFFFFFF00000000ull) | 0xFFFFFFFF;
	a->gpuvm_base = 4 * page; /* SVM_USER_BASE */
}

static int get_apertures(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_get_process_apertures_args *a = data;

	(void)p;
	a->num_of_nodes = 0;
	for (uint32_t i = 0; i < emu->ngpus && a->num_of_nodes < NUM_OF_SUPPORTED_GPUS; i++)
		emu_gpu_apertures(&emu->gpus[i], &a->process_apertures[a->num_of_nodes++]);
	return 0;
}

/* kfd_ioctl_get_process_apertures_new: 0 nodes asks for the count; else
 * fill min(count, n_pdds) entries and report how many. */
static int get_apertures_new(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_get_process_apertures_new_args *a = data;
	uint64_t out = a->kfd_process_device_apertures_ptr;
	uint32_t n;

	(void)p;
	if (!a->num_of_nodes) {
		a->num_of_nodes = emu->ngpus;
		return 0;
	}
	n = a->num_of_nodes < emu->ngpus ? a->num_of_nodes : emu->ngpus;
	a->num_of_nodes = n;
	/* filled here, then copy_to_user as the kernel does: a bad pointer
	 * is -EFAULT, never a fault */
	for (uint32_t i = 0; i < n; i++) {
		struct kfd_process_device_apertures one;

		emu_gpu_apertures(&emu->gpus[i], &one);
		/* the user address as a number: &out[i] of a NULL out would be
		 * pointer arithmetic on NULL (UBSan, fuzz_emu_ioctl) */
		if (emu_copy_to_user((void *)(uintptr_t)(out + (uint64_t)i * sizeof(one)), &one,
				     sizeof(one)))
			return -EFAULT;
	}
	return 0;
}

/* ---- per-device settings ------------------------------------------------- */

/* kfd_process_device_data_by_id then kfd_bind_process_to_device: -EINVAL
 * for an unknown gpu_id, @nobind for a GPU without ACQUIRE_VM (the
 * callers map the bind failure to different errnos). */
static int pdd_bound(struct kfdsig_emu *emu, struct emu_proc *p, uint32_t gpu_id, int nobind)
{
	struct emu_gpu *g = emu_gpu_by_id(emu, gpu_id);
	bool vm;

	if (!g)
		return -EINVAL;
	pthread_mutex_lock(&p->lock);
	vm = p->pdd[g->index].vm;
	pthread_mutex_unlock(&p->lock);
	return vm ? (int)g->index : nobind;
}

/* kfd_ioctl_set_memory_policy + set_cache_memory_policy
 * (kfd_device_queue_manager.c): both policies COHERENT or NONCOHERENT;
 * an alternate aperture (APE1) must satisfy base < limit, base &
 * APE1_FIXED_BITS_MASK == 0 and limit & mask == APE1_LIMIT_ALIGNMENT. A
 * failed bind is -ESRCH here. */
static int set_memory_policy(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_set_memory_policy_args *a = data;
	const uint64_t fixed = 0xFFFF80000000FFFFull, align = 0xFFFF;
	int i;

	if (a->default_policy > KFD_IOC_CACHE_POLICY_NONCOHERENT ||
	    a->alternate_policy > KFD_IOC_CACHE_POLICY_NONCOHERENT)
		return -EINVAL;
	i = pdd_bound(emu, p, a->gpu_id, -ESRCH);
	if (i < 0)
		return i;
	if (a->alternate_aperture_size) {
		uint64_t base = a->alternate_aperture_base;
		uint64_t limit = base + a->alternate_aperture_size - 1;
		if (limit <= base || (base & fixed) || (limit & fixed) != align)
			return -EINVAL;
	}
	return 0;
}

/* kfd_ioctl_set_scratch_backing_va: a failed bind keeps its -ENODEV. */
static int set_scratch_backing_va(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_set_scratch_backing_va_args *a = data;
	int i = pdd_bound(emu, p, a->gpu_id, -ENODEV);

	return i < 0 ? i : 0;
}

/* kfd_ioctl_set_trap_handler: a failed bind is -ESRCH. */
static int set_trap_handler(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_set_trap_handler_args *a = data;
	int i = pdd_bound(emu, p, a->gpu_id, -ESRCH);

	if (i < 0)
		return i;
	/* kfd_process_set_trap_handler(): the wave's second-level trap
	 * handler and its memory (emu_wave.c runs what it reports) */
	pthread_mutex_lock(&p->lock);
	p->pdd[i].tba = a->tba_addr;
	p->pdd[i].tma = a->tma_addr;
	pthread_mutex_unlock(&p->lock);
	return 0;
}

/* kfd_ioctl_get_tile_config + amdgpu_amdkfd_get_tile_config: gb_addr_config,
 * the MC_ARB_RAMCFG bank and rank codes and 32 tile / 16 macro-tile modes
 * of a gfx8 chip (emu_tile.c); past gfx8 the GPU's GB_ADDR_CONFIG and zero
 * tables, banks and ranks. Each count is clamped to the kernel's; a failed
 * copy zeroes its count and is -EFAULT. No VM needed. */
static int get_tile_config(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	static const uint32_t zero[32];
	struct kfd_ioctl_get_tile_config_args *a = data;
	struct emu_gpu *g = emu_gpu_by_id(emu, a->gpu_id);
	uint32_t *tile = (void *)(uintptr_t)a->tile_config_ptr;
	uint32_t *macro = (void *)(uintptr_t)a->macro_tile_config_ptr;
	const struct emu_tile_config *tc;

	(void)p;
	if (!g)
		return -EINVAL;
	tc = emu_tile_config(g->gen.gfxv);
	/* gfx_v9_0.c gfx_v9_0_gpu_early_init(): VEGA10_GB_ADDR_CONFIG_GOLDEN
	 * 0x2a114042 (the Vega10 value for every GC 9 chip here); GC 10+
	 * a plausible 0x44 (UNVERIFIED: the chip's register) */
	a->gb_addr_config = tc ? tc->gb_addr_config : g->gen.gc[0] == 9 ? 0x2a114042 : 0x44;
	a->num_banks = tc ? tc->mc_arb_ramcfg & 0x3 : 0;
	a->num_ranks = tc ? (tc->mc_arb_ramcfg & 0x4) >> 2 : 0;
	if (a->num_tile_configs > 32)
		a->num_tile_configs = 32;
	if (a->num_tile_configs &&
	    emu_copy_to_user(tile, tc ? tc->tile : zero, a->num_tile_configs * sizeof(uint32_t))) {
		a->num_tile_configs = 0;
		return -EFAULT;
	}
	if (a->num_macro_tile_configs > 16)
		a->num_macro_tile_configs = 16;
	if (a->num_macro_tile_configs &&
	    emu_copy_to_user(macro, tc ? tc->macro : zero,
			     a->num_macro_tile_configs * sizeof(uint32_t))) {
		a->num_macro_tile_configs = 0;
		return -EFAULT;
	}
	return 0;
}

/* kfd_ioctl_set_xnack_mode: a negative value asks; a change is -EBUSY
 * while the process has queues; turning retry on needs every GPU from
 * GC 9.0.1 to allow it (kfd_process_xnack_mode): GC 10.1+ never does, and
 * the rest run with amdgpu.noretry's default on (amdgpu_gmc_noretry_set:
 * on for 9.0.1, 9.3.0, 9.4.x, 9.5.0 and 10.3+; off for 9.0.x/9.1/9.2
 * APUs and Vega12). GPUs before GC 9.0.1 are not considered. */
static int set_xnack_mode(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_set_xnack_mode_args *a = data;
	int r = 0;

	pthread_mutex_lock(&p->lock);
	if (a->xnack_enabled < 0) {
		a->xnack_enabled = p->xnack_enabled;
		goto out;
	}
	if (p->queues) {
		r = -EBUSY;
		goto out;
	}
	if ((a->xnack_enabled != 0) == p->xnack_enabled)
		goto out;
	if (a->xnack_enabled) {
		for (uint32_t i = 0; i < emu->ngpus; i++) {
			const uint8_t *gc = emu->gpus[i].t->gc_ip;
			uint32_t v = gc[0] * 10000 + gc[1] * 100 + gc[2];
			bool retry_off = v == 90001 || v == 90300 || (v >= 90400 && v < 100000) ||
					 v >= 100300;
			if (v < 90001)
				continue;
			if (v >= 100101 || retry_off) {
				r = -EPERM;
				goto out;
			}
		}
	}
	p->xnack_enabled = a->xnack_enabled != 0;
out:
	pthread_mutex_unlock(&p->lock);
	return r;
}

/* kfd_ioctl_get_available_memory: -EINVAL for an unknown gpu_id; VRAM
 * minus what the process allocated there (the emulator has no other
 * users). No VM needed. */
static int available_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_get_available_memory_args *a = data;
	struct emu_gpu *g = emu_gpu_by_id(emu, a->gpu_id);
	uint64_t used = 0;

	if (!g)
		return -EINVAL;
	pthread_mutex_lock(&p->lock);
	for (struct emu_bo *bo = p->bos; bo; bo = bo->next)
		if (bo->gpu_index == g->index && (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM))
			used += bo->size;
	pthread_mutex_unlock(&p->lock);
	a->available = g->local_mem_size > used ? g->local_mem_size - used : 0;
	return 0;
}

static struct emu_queue *queue_by_id(struct emu_proc *p, uint32_t id)
{
	for (struct emu_queue *q = p->queues; q; q = q->next)
		if (q->id == id)
			return q;
	return NULL;
}

/* kfd_ioctl_update_queue: percentage <= 100, priority <= 15, a power of
 * two ring size (or 0), then pqm_update_queue_properties: -EFAULT for an
 * unknown queue. A ring address 0, ring size 0 or percentage 0 makes the
 * queue inactive (pqm_update_queue_properties(): "Update with NULL ring
 * address is used to disable the queue"; the MQD manager's update_mqd()
 * sets is_active = QUEUE_IS_ACTIVE(), kfd_priv.h: size > 0, address != 0,
 * percent > 0), and the DQM takes it off the hardware (update_queue() in
 * kfd_device_queue_manager.c unmaps it before it returns): nothing of
 * it runs until an UPDATE_QUEUE with all three makes it active again,
 * where it goes on from its read pointer. Any queue type, SDMA too.
 * Emulator limit: the ring cannot move (the engine keeps its mapping), so
 * another non-zero address or size is refused with -EINVAL; a queue
 * created with ring size 0 takes the size of the buffer its ring address
 * starts. */
static int update_queue(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_update_queue_args *a = data;
	uint32_t percent = a->queue_percentage & emu_queue_percentage_mask(emu);
	struct emu_queue *q;
	bool active, was_active = false;
	int r = 0;

	if (percent > KFD_MAX_QUEUE_PERCENTAGE || a->queue_priority > KFD_MAX_QUEUE_PRIORITY)
		return -EINVAL;
	if (a->ring_size & (a->ring_size - 1))
		return -EINVAL;
	active = a->ring_base_address && a->ring_size && (percent & 0xffu);
	pthread_mutex_lock(&p->lock);
	q = queue_by_id(p, a->queue_id);
	if (!q) {
		r = -EFAULT;
	} else if ((a->ring_base_address && a->ring_base_address != q->ring_va) ||
		   (a->ring_size &&
		    a->ring_size !=
			    (q->ring_size ? q->ring_size
					  : q->ring_bo_size *
						    (q->aql && emu_aql_doubled(q->g) ? 2 : 1)))) {
		r = -EINVAL;
	} else {
		/* update_mqd_v9_4_3(): pm4_target_xcc_in_xcp of every slice */
		q->pm4_target_xcc = (a->queue_percentage >> 8) & 0xff;
		/* created with ring size 0 (inactive): the size of its buffer,
		 * before the engine may fetch */
		if (a->ring_size)
			q->ring_size = a->ring_size;
		was_active = !q->inactive;
		__atomic_store_n(&q->inactive, !active, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&p->lock);
	if (r)
		return r;
	if (!active && was_active) {
		/* unmapped: the engine stops at a packet boundary */
		for (int i = 0; i < 2000 && !__atomic_load_n(&q->parked, __ATOMIC_ACQUIRE) &&
				!__atomic_load_n(&q->halted, __ATOMIC_ACQUIRE);
		     i++) {
			syscall(SYS_futex, (uint32_t *)q->doorbell, FUTEX_WAKE, 0x7fffffff, NULL,
				NULL, 0);
			usleep(500);
		}
	} else if (active && !was_active) {
		/* mapped again: wake the engine */
		syscall(SYS_futex, (uint32_t *)q->doorbell, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
	}
	return 0;
}

/* kfd_ioctl_set_cu_mask: a non-zero multiple of 32 bits (more than 1024
 * are cut), copied from the user, then pqm_update_mqd: -EFAULT for an
 * unknown queue, and from GC 10 CUs go in adjacent pairs (-EINVAL). */
static int set_cu_mask(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_set_cu_mask_args *a = data;
	const void *umask = (const void *)(uintptr_t)a->cu_mask_ptr;
	uint32_t count = a->num_cu_mask, mask[32];
	struct emu_queue *q;
	int r = 0;

	(void)emu;
	if (count % 32 || !count)
		return -EINVAL;
	if (count > 1024)
		count = 1024;
	if (!umask || emu_copy_from_user(mask, umask, count / 8))
		return -EFAULT;
	pthread_mutex_lock(&p->lock);
	q = queue_by_id(p, a->queue_id);
	if (!q) {
		r = -EFAULT;
	} else if (q->g->gen.level >= KFDSIG_GFX10) {
		for (uint32_t i = 0; i < count; i += 2) {
			uint32_t pair = (mask[i / 32] >> (i % 32)) & 3;
			if (pair && pair != 3) {
				r = -EINVAL;
				break;
			}
		}
	}
	if (q && !r) {
		memcpy(q->cu_mask, mask, count / 8);
		q->cu_mask_bits = count;
	}
	pthread_mutex_unlock(&p->lock);
	return r;
}

/*
 * kfd_ioctl_get_queue_wave_state -> pqm_get_wave_state(): an unknown queue
 * is -EFAULT; kfd_device_queue_manager.c get_wave_state(): a queue that is
 * not a compute queue (SDMA), still active (UPDATE_QUEUE has not unmapped
 * it) or on a device without CWSR is -EINVAL. The MQD manager's
 * get_wave_state() (kfd_mqd_manager_v9.c) reports cp_hqd_cntl_stack_size -
 * cp_hqd_cntl_stack_offset and cp_hqd_wg_state_offset -
 * cp_hqd_cntl_stack_size: the emulator's queues never save waves (no
 * context switch is modelled), so both are those of an empty stack, 0.
 * Emulator choice: the MQD's control stack copy to ctl_stack_address is
 * not made (its contents for an empty stack are UNVERIFIED); the address
 * must still be writable user memory (copy_to_user()'s -EFAULT).
 */
static int get_queue_wave_state(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_get_queue_wave_state_args *a = data;
	struct emu_queue *q;
	int r = 0;

	(void)emu;
	pthread_mutex_lock(&p->lock);
	q = queue_by_id(p, a->queue_id);
	if (!q)
		r = -EFAULT;
	else if (q->sdma || !__atomic_load_n(&q->inactive, __ATOMIC_ACQUIRE) ||
		 !emu_queue_cwsr_enabled(q->g))
		r = -EINVAL;
	else if (!emu_access_ok(a->ctl_stack_address, sizeof(uint32_t)))
		r = -EFAULT;
	pthread_mutex_unlock(&p->lock);
	if (!r) {
		a->ctl_stack_used_size = 0;
		a->save_area_used_size = 0;
	}
	return r;
}

/*
 * kfd_ioctl_alloc_queue_gws: an unknown queue is -EINVAL
 * (pqm_get_user_queue()), a device without GWS -ENODEV (kfd_gws_init()
 * gave it none, emu_gen_gws_size(); the no-HWS policy, also -ENODEV, is
 * never the emulator's). pqm_set_gws(): one queue of the process per
 * device holds the GWS (a second request -EBUSY), num_gws 0 releases it
 * (-EINVAL when the process holds none); any other num_gws asks for the
 * whole GWS. first_gws is 0. The DBG_TRAP -EBUSY of a debugged process on
 * firmware without GWS debugging (kfd_dbg_has_gws_support()) is not
 * modelled. The queue keeps the GWS until it is destroyed
 * (pqm_destroy_queue() releases it). No KFD version gates it here:
 * kfd_ioctl.h's version history names no minor version for it
 * (UNVERIFIED which 1.x first had it; every version the emulator
 * reports accepts it).
 */
static int alloc_queue_gws(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	struct kfd_ioctl_alloc_queue_gws_args *a = data;
	struct emu_queue *q;
	struct emu_pdd *pdd;
	int r = 0;

	(void)emu;
	pthread_mutex_lock(&p->lock);
	q = queue_by_id(p, a->queue_id);
	pdd = q ? &p->pdd[q->g->index] : NULL;
	if (!q)
		r = -EINVAL;
	else if (!emu_gen_gws_size(&q->g->gen))
		r = -ENODEV;
	else if (a->num_gws && pdd->gws_queue)
		r = -EBUSY;
	else if (!a->num_gws && !pdd->gws_queue)
		r = -EINVAL;
	else if (a->num_gws && !pdd->gws_state && !(pdd->gws_state = sqk_gws_new()))
		r = -ENOMEM;
	else
		pdd->gws_queue = a->num_gws ? a->queue_id + 1 : 0;
	pthread_mutex_unlock(&p->lock);
	if (!r)
		a->first_gws = 0;
	return r;
}

/* ---- doorbell and MMIO buffers ------------------------------------------- */

/* kfd_ioctl_alloc_memory_of_gpu for KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL (the
 * size must be the process doorbell slice; mmap_offset is the slice's
 * bus address, the CPU maps it through the queue's doorbell offset) and
 * MMIO_REMAP (one page; mmap_offset KFD_MMAP_TYPE_MMIO | gpu_id). Called
 * with p->lock held after the bind; fills @bo's backing. */
int emu_alloc_special(struct kfdsig_emu *emu, struct emu_proc *p, uint32_t gi,
		      struct kfd_ioctl_alloc_memory_of_gpu_args *a, struct emu_bo *bo)
{
	struct emu_gpu *g = &emu->gpus[gi];
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (a->flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) {
		if (a->size != g->gen.doorbell_slice)
			return -EINVAL;
		/* emulated bus address of the slice: BAR at 0xe0000000 */
		a->mmap_offset =
			0xe0000000ull + (uint64_t)(p->pasid & 0xfff) * g->gen.doorbell_slice;
		bo->kptr = p->pdd[gi].db_kptr; /* NULL until the first queue */
		return 0;
	}
	/* kernel: size must be PAGE_SIZE and PAGE_SIZE must be 4096 */
	if (a->size != page)
		return -EINVAL;
	if (page > 4096)
		return -ENOMEM;
	a->mmap_offset = KFDSIG_MMAP_TYPE_MMIO | KFDSIG_MMAP_GPU_ID(a->gpu_id);
	return 0;
}

/* kfd_mmio_mmap: exactly one page, never executable; the HDP flush
 * registers of the GPU. The emulator backs the page with memory that
 * every mapping of the GPU shares; writes have no effect. */
int emu_mmio_mmap(struct kfdsig_emu *emu, void **out, void *addr, size_t len, int prot, int flags,
		  uint64_t off)
{
	uint32_t gpu_id = (uint32_t)((off & KFDSIG_MMAP_GPU_ID_MASK) >> KFDSIG_MMAP_GPU_ID_SHIFT);
	struct emu_gpu *g = emu_gpu_by_id(emu, gpu_id);
	void *m;

	if (!g)
		return -ENODEV;
	if (len != (size_t)sysconf(_SC_PAGESIZE))
		return -EINVAL;
	if (prot & PROT_EXEC)
		return -EPERM;
	pthread_mutex_lock(&emu->lock);
	if (g->mmio_memfd < 0) {
		g->mmio_memfd = memfd_create("kfdsig-emu-mmio", MFD_CLOEXEC);
		if (g->mmio_memfd >= 0 && ftruncate(g->mmio_memfd, (off_t)len)) {
			close(g->mmio_memfd);
			g->mmio_memfd = -1;
		}
	}
	m = g->mmio_memfd < 0 ? MAP_FAILED : mmap(addr, len, prot, flags, g->mmio_memfd, 0);
	pthread_mutex_unlock(&emu->lock);
	if (m == MAP_FAILED)
		return -ENOMEM;
	*out = m;
	return 0;
}

/* ---- table ----------------------------------------------------------------- */

static const struct emu_ioctl_ext ext[] = {
	{ AMDKFD_IOC_SET_MEMORY_POLICY, set_memory_policy, 1 },
	{ AMDKFD_IOC_GET_PROCESS_APERTURES, get_apertures, 1 },
	{ AMDKFD_IOC_UPDATE_QUEUE, update_queue, 1 },
	{ AMDKFD_IOC_SET_SCRATCH_BACKING_VA, set_scratch_backing_va, 1 },
	{ AMDKFD_IOC_GET_TILE_CONFIG, get_tile_config, 1 },
	{ AMDKFD_IOC_SET_TRAP_HANDLER, set_trap_handler, 1 },
	{ AMDKFD_IOC_ALLOC_QUEUE_GWS, alloc_queue_gws, 1 },
	{ AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, get_apertures_new, 1 },
	{ AMDKFD_IOC_SET_CU_MASK, set_cu_mask, 1 },
	{ AMDKFD_IOC_GET_QUEUE_WAVE_STATE, get_queue_wave_state, 1 },
	/* kfd_ioctl.h history: SVM and SET_XNACK_MODE arrived in 1.5,
	 * AVAILABLE_MEMORY in 1.9 */
	{ AMDKFD_IOC_SET_XNACK_MODE, set_xnack_mode, 5 },
	{ AMDKFD_IOC_AVAILABLE_MEMORY, available_memory, 9 },
};

const struct emu_ioctl_ext *emu_ioctl_ext_find(unsigned nr)
{
	for (size_t i = 0; i < KFDSIG_ARRAY_SIZE(ext); i++)
		if (_IOC_NR(ext[i].cmd) == nr)
			return &ext[i];
	return NULL;
}
