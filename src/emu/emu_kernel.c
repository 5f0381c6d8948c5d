/* SPDX-License-Identifier: MIT */
/*
 * Compiled kernels on the emulated CP: an AQL KERNEL_DISPATCH packet or a
 * PM4 DISPATCH_DIRECT becomes a dispatch of the kernel interpreter
 * (emu/sq/sqk.h) on the families it runs (gfx801-803, gfx900-gfx950,
 * gfx1010-1012, gfx1030-1036, gfx1100-1151, gfx1200-1201).
 *
 * - AQL: the kernel descriptor at kernel_object (LLVM AMDGPUUsage "Kernel
 *   Descriptor", code object v3-v5: group_segment_fixed_size at 0,
 *   private_segment_fixed_size at 4, kernel_code_entry_byte_offset at 16,
 *   COMPUTE_PGM_RSRC3/1/2 at 44/48/52, kernel_code_properties at 56,
 *   kernarg_preload at 58) and the packet (workgroup and grid sizes,
 *   private and group segment sizes: the packet's group segment size is the
 *   total, static + dynamic, as ROCr fills it).
 * - PM4: COMPUTE_PGM_LO/HI, COMPUTE_PGM_RSRC1/2 (SH 0x212/0x213),
 *   COMPUTE_PGM_RSRC3, COMPUTE_NUM_THREAD_X/Y/Z (0x207-0x209),
 *   COMPUTE_TMPRING_SIZE (0x218; GC 12.1 0x216 and RSRC3 0x223) and
 *   COMPUTE_USER_DATA_0..15 from
 *   SET_SH_REG (gfx9 and gfx10 register maps: gc_9_0_offset.h,
 *   gc_10_3_0_offset.h); DISPATCH_DIRECT's dwords 1-3 count workgroups,
 *   the last one of a dimension NUM_THREAD_PARTIAL wide when the
 *   initiator's PARTIAL_TG_EN is set. The user SGPRs are the user-data
 *   registers as programmed; LDS is RSRC2.LDS_SIZE.
 *
 * Private memory is the scratch the program gave the queue, in the VM:
 * COMPUTE_TMPRING_SIZE's WAVES slots of WAVESIZE, WAVES per shader engine
 * from gfx11 on (tmpring_slots(); PM4; AQL: the amd_queue_t's
 * compute_tmpring_size), a wave's slot offset in its
 * private segment wave offset SGPR; the kernel's prologue sets
 * FLAT_SCRATCH from flat scratch init (gfx9, gfx10.x), architected flat
 * scratch (gfx940, gfx11) starts it at COMPUTE_DISPATCH_SCRATCH_BASE (PM4)
 * or the amd_queue_t's scratch_backing_memory_location (AQL) plus the
 * slot (emu/sq/sqk_mem.c: the interleaved addresses).
 *
 * Every access goes through the process's GPU VM: a page no BO maps, or a
 * write to a BO allocated without KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, is a
 * GPU page fault handled as amdkfd does (kfd_int_process_v9.c /
 * kfd_int_process_v10.c on a UTCL2 fault: the process's queues stop, its
 * MEMORY events are signalled with the page address and the fault flags,
 * kfd_signal_vm_fault_event(); EC_DEVICE_MEMORY_VIOLATION goes to a
 * debugger or runtime with exceptions enabled). An instruction the
 * interpreter does not implement raises EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION
 * and stops the queue; the runtime's trap handler reports it to the
 * runtime (emu_wave.c); the instruction's name, encoding and address go to
 * the host's diagnostic hook (emu_host_set_diag(): `kfdsig exec` prints
 * them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfdsig/debug.h>

#include "emu/emu_debug.h"
#include "emu/emu_engine.h"
#include "emu/sq/sqk.h"

/* KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, bit 31 (kfd_ioctl.h spells it 1 << 31,
 * which is not a valid int shift). */
#define EMU_MEM_WRITABLE 0x80000000u

/* SH register offsets from 0x2c00 (gc_9_0_offset.h mmCOMPUTE_NUM_THREAD_X
 * 0x2e07, mmCOMPUTE_PGM_RSRC1 0x2e12, RSRC2 0x2e13, RSRC3 0x2e2d on gfx10;
 * gfx90a RSRC3 0x2e2d as well). */
#define SH_NUM_THREAD_X 0x207
#define SH_PGM_LO 0x20c
#define SH_PGM_HI 0x20d
#define SH_PGM_RSRC1 0x212
#define SH_PGM_RSRC2 0x213
#define SH_USER_DATA_0 0x240
/* COMPUTE_TMPRING_SIZE: 0x218 (gc_9_0_offset.h to gc_12_0_0_offset.h
 * 0x1bb8 + GC base 0x1260), 0x216 on GC 12.1 (sh_tmpring()). */
#define SH_TMPRING_SIZE 0x218
/* COMPUTE_DISPATCH_SCRATCH_BASE_LO/HI (address >> 8): where architected
 * flat scratch (gfx940, gfx11, gfx12 and GC 12.1) starts the waves'
 * FLAT_SCRATCH (Mesa sid.h R_00B840/R_00B844; gc_11_0_0_offset.h;
 * gc_12_1_0_offset.h regCOMPUTE_DISPATCH_SCRATCH_BASE_LO 0x1bb0; kfdtest
 * Dispatch.cpp programs the same two registers after COMPUTE_PGM_HI on
 * gfx9 on) */
#define SH_DISPATCH_SCRATCH_BASE_LO 0x210
#define SH_DISPATCH_SCRATCH_BASE_HI 0x211
/* COMPUTE_DISPATCH_INITIATOR.CS_W32_EN: a field from gfx10 on
 * (gc_10_1_0_sh_mask.h COMPUTE_DISPATCH_INITIATOR__CS_W32_EN_MASK 0x8000);
 * gc_9_0_sh_mask.h has no field there (its last is RESTORE, bit 14), and a
 * GCN/CDNA wave is 64 lanes: the bit changes nothing there, the dispatch
 * runs wave64. On gfx1250 (wave32 only) the bit clear is a dispatch the
 * shader unit refuses (sqk_wave.c sqk_run()). */
#define CS_W32_EN (1u << 15)
#define PARTIAL_TG_EN (1u << 1)
/* COMPUTE_DISPATCH_INITIATOR.USE_THREAD_DIMENSIONS (bit 5, gc_9_0_sh_mask.h
 * COMPUTE_DISPATCH_INITIATOR__USE_THREAD_DIMENSIONS_MASK): DISPATCH_DIRECT's
 * dimensions count work-items rather than workgroups. A dimension that is a
 * whole number of groups is unambiguous (AMD's kfdtest dispatches this way,
 * one work-item per group); how the CP forms a partial group in this mode is
 * UNVERIFIED, so such a dispatch is refused (the queue's bad-packet path),
 * not guessed. */
#define USE_THREAD_DIMENSIONS (1u << 5)

/* GC 12.1 by gfx_target_version: 120500 (gfx1250; amdkfd kfd_device.c
 * kgd2kfd_probe() IP_VERSION(12, 1, 0)) and 120501 (gfx1251, LLVM
 * AMDGPUUsage's other GFX125* processor). Its register map
 * (gc_12_1_0_offset.h, GC base 0x1260 as gfx10-12.0) moves two COMPUTE_*
 * registers a dispatch sets: regCOMPUTE_TMPRING_SIZE 0x1bb6 (SH 0x216; its
 * 0x1bb8 is COMPUTE_RESTART_Y) and regCOMPUTE_PGM_RSRC3 0x1bc3 (SH 0x223;
 * its 0x1bc8 is COMPUTE_RESTART_CG_TG_ID); DISPATCH_SCRATCH_BASE_LO/HI
 * (0x1bb0/0x1bb1), RSRC1/2, PGM_LO/HI, NUM_THREAD_X..Z and USER_DATA_0
 * (0x1be0) stay where gfx12.0 has them. */
static bool gc12_1(uint32_t gfxv)
{
	return gfxv == 120500 || gfxv == 120501;
}

static unsigned sh_tmpring(uint32_t gfxv)
{
	return gc12_1(gfxv) ? 0x216 : SH_TMPRING_SIZE;
}

/* COMPUTE_PGM_RSRC3's SH offset by gfx_target_version: gc_9_4_2_offset.h
 * (gfx90a) / gc_9_4_3_offset.h regCOMPUTE_PGM_RSRC3 0x2e2d; gfx10 and
 * later 0x2e28 (gc_10_3_0_offset.h mmCOMPUTE_PGM_RSRC3 0x1bc8 + GC base
 * 0x1260); none on gfx8 and gfx900-gfx908. */
static unsigned sh_rsrc3(uint32_t gfxv)
{
	if (gc12_1(gfxv))
		return 0x223;
	if (gfxv >= 100000)
		return 0x228;
	if (gfxv >= 90010 && gfxv != 90012)
		return 0x22d;
	return 0;
}

/* Bytes of one WAVESIZE unit of COMPUTE_TMPRING_SIZE and the field's
 * width: 1 KiB, 13 bits through gfx10.3 (gc_9_0_sh_mask.h,
 * gc_10_3_0_sh_mask.h COMPUTE_TMPRING_SIZE__WAVESIZE_MASK 0x01fff000);
 * 256 bytes, 15 bits on gfx11 (gc_11_0_0_sh_mask.h 0x07fff000); 256
 * bytes, 18 bits on gfx12 (gc_12_0_0_sh_mask.h 0x3ffff000) and GC 12.1
 * (gc_12_1_0_sh_mask.h 0x3FFFF000; the unit: ROCr amd_aql_queue.cpp
 * mem_alignment_size 256 from ISA major 11 on). */
static uint32_t tmpring_wave_bytes(uint32_t gfxv, uint32_t v)
{
	if (gfxv >= 120000)
		return (v >> 12 & 0x3ffff) * 256;
	if (gfxv >= 110000)
		return (v >> 12 & 0x7fff) * 256;
	return (v >> 12 & 0x1fff) * 1024;
}
/*
 * The scratch wave slots COMPUTE_TMPRING_SIZE.WAVES gives a dispatch.
 * Through gfx10.3 WAVES counts them all. From gfx11 on (gfx_target_version
 * 110000 and above: GC 11, 12 and 12.1) the hardware reads it per shader
 * engine: Mesa src/amd/common ac_get_scratch_tmpring_size() divides the
 * waves by num_se from GFX11 ("WAVES is per SE"), ROCr amd_aql_queue.cpp
 * FillComputeTmpRingSize_Gfx11()/_Gfx12() divide the compute_tmpring_size
 * waves by NumShaderBanks for ISA major 11 and 12. The slots are then
 * WAVES x the node's engines, the count the topology reports
 * (array_count / simd_arrays_per_engine, emu_sysfs.c geometry()) and
 * those runtimes divide by. On a node of several XCCs each XCC's CP
 * takes its own share of the scratch (ROCr amd_aql_queue.cpp: WAVES of
 * size / NumXcc before gfx11, per engine of all the XCCs from gfx11, and
 * scratch_backing_memory_byte_size = size / NumXcc): the node's dispatch
 * runs here on one XCC's share, the slots of one XCC (from gfx11 WAVES x
 * the node's engines / its XCCs, at least one), which the backing it
 * reports holds whenever the runtime sized them as ROCr does; slots past
 * the backing make the dispatch fault (sqk_wave.c), loudly. Where each
 * engine's slots lie in the scratch is not documented in those sources;
 * the emulator numbers them from the scratch base one after another.
 */
static uint32_t tmpring_slots(const struct emu_gpu *g, uint32_t v)
{
	uint32_t waves = v & 0xfff, se = g->prod.num_se ? g->prod.num_se : 1u,
		 xcc = g->num_xcc ? g->num_xcc : 1u, slots;

	if (g->gen.gfxv < 110000 || !waves)
		return waves;
	slots = waves * se / xcc;
	return slots ? slots : 1u;
}

/* Bytes of one COMPUTE_PGM_RSRC2.LDS_SIZE granule by gfx_target_version
 * (LLVM AMDGPUUsage compute_pgm_rsrc2 GRANULATED_LDS_SIZE): 128 dwords,
 * 320 on GFX950 (90500), 512 on GFX125* (120500, 120501: LLVM commit
 * 5f38ae4a77d4 "update LDS block size for gfx1250"). */
static uint32_t lds_granule(uint32_t gfxv)
{
	if (gfxv == 120500 || gfxv == 120501)
		return 2048;
	if (gfxv == 90500)
		return 1280;
	return 512;
}
/* kernel_code_properties ENABLE_WAVEFRONT_SIZE32 (LLVM AMDGPUUsage "Kernel
 * Descriptor": "GFX6-GFX9: Reserved, must be 0"; LLVM rejects
 * +wavefrontsize32 before gfx10, so no code for such a wave exists). How
 * the GFX9 packet processor treats the reserved bit is UNVERIFIED; the
 * emulator reads it as for CS_W32_EN above, from gfx10 on only: the waves
 * run wave64, the one mode of the hardware, never as 32 lanes. */
#define KD_WAVE32 (1u << 10)

/* Whether the GPU has wave32 (CS_W32_EN, KD_WAVE32 above). */
static bool has_wave32(const struct emu_queue *q)
{
	return q->g->gen.gfxv >= 100000;
}

static void *xlate(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	struct emu_queue *q = ctx;
	struct emu_proc *p = q->p;
	void *ptr = NULL;

	*ro = false;
	pthread_mutex_lock(&p->lock);
	for (struct emu_bo *bo = p->bos; bo; bo = bo->next)
		if ((bo->mapped & (1u << q->g->index)) && va >= bo->va && len <= bo->size &&
		    va - bo->va <= bo->size - len && bo->kptr) {
			if (write && !(bo->flags & EMU_MEM_WRITABLE))
				*ro = true;
			else
				ptr = (char *)bo->kptr + (va - bo->va);
			break;
		}
	pthread_mutex_unlock(&p->lock);
	return ptr;
}

static int message(void *ctx, uint32_t msg, uint32_t m0)
{
	struct emu_queue *q = ctx;

	/* MSG_INTERRUPT from the trap handler (PRIV): kfd_int_process_v9.c
	 * (and _v10) SQ_INTERRUPT_WORD_ENCODING_INST with PRIV set hands
	 * KFD_CTXID0_DOORBELL_ID (m0[9:0]) and KFD_CTXID0_TRAP_CODE
	 * (m0[23:10], an exception mask) to kfd_set_dbg_ev_from_interrupt();
	 * what no one takes goes on as an event interrupt */
	if (msg & SQK_MSG_PRIV) {
		msg &= 0xff;
		if (msg == 1 && emu_dbg_ev_from_interrupt(q, m0 & 0x3ff, (m0 & 0xfffc00) >> 10))
			return 0;
	}
	if (msg == 1) /* MSG_INTERRUPT: SQ_INTERRUPT_MSG with m0 */
		emu_engine_irq(q, KFDSIG_EMU_IRQ_SQ_MSG, m0);
	return 0;
}

static uint64_t trap_base(void *ctx)
{
	return emu_dbg_trap_base(ctx);
}

static uint32_t wave_traps(void *ctx)
{
	struct emu_queue *q = ctx;
	uint32_t m = emu_dbg_wave_traps(q->p);

	return (m & KFDSIG_DBG_TRAP_MASK_TRAP_ON_WAVE_START ? SQK_WAVE_TRAP_START : 0) |
	       (m & KFDSIG_DBG_TRAP_MASK_TRAP_ON_WAVE_END ? SQK_WAVE_TRAP_END : 0);
}

static unsigned watches(void *ctx, struct sqk_watch wp[SQK_WATCHES])
{
	uint64_t a[4];
	uint32_t m[4];
	uint8_t md[4];
	unsigned n = emu_dbg_watches(ctx, a, m, md);

	for (unsigned i = 0; i < n; i++)
		wp[i] = (struct sqk_watch){ .addr = a[i],
					    .mask = m[i],
					    .mode = md[i] & 3,
					    .id = md[i] >> 4,
					    .late = !(md[i] & EMU_DBG_WATCH_PRECISE) };
	return n;
}

static uint32_t doorbell(void *ctx)
{
	const struct emu_queue *q = ctx;

	return q->id; /* the queue's doorbell id (emu_queue.c) */
}

/* GC 12 HW_ID1 of a wave of workgroup @group: the WGP the queue's CU mask
 * gives it (emu_gen_hw_id1()), in the geometry the topology reports
 * (emu_sysfs.c geometry()). */
static uint32_t hw_id1(void *ctx, uint64_t group)
{
	const struct emu_queue *q = ctx;
	const struct emu_product *pr = &q->g->prod;
	unsigned nse = pr->num_se ? pr->num_se : 1, nsa = pr->sh_per_se ? pr->sh_per_se : 1;
	unsigned cus = pr->cu_per_sh;

	if (!cus && pr->simd_per_cu)
		cus = q->g->simd_count / pr->simd_per_cu / (nse * nsa);
	return emu_gen_hw_id1(q->cu_mask_bits ? q->cu_mask : NULL, q->cu_mask_bits, nse, nsa,
			      cus / 2, group);
}

static int trap(void *ctx, uint8_t id)
{
	return emu_cp_trap_steps_over(ctx, id) ? 1 : 0;
}

static bool stop(void *ctx)
{
	return emu_engine_stopping(ctx);
}

static uint64_t clock_(void *ctx)
{
	struct emu_queue *q = ctx;

	return emu_gpu_clock(q->g);
}

/* A GPU page fault from a wave: the process's queues stop, the MEMORY
 * events get the page and the flags, the exception goes to a debugger. */
static void vm_fault(struct emu_queue *q, uint64_t va, bool ro)
{
	struct emu_proc *p = q->p;
	struct kfd_hsa_memory_exception_data d = { 0 };

	pthread_mutex_lock(&p->lock);
	emu_halt_queues(p, EMU_QUEUE_EXC_VM_FAULT);
	pthread_mutex_unlock(&p->lock);
	kfdsig_emu_vm_fault(p->emu, p->pasid, q->g->gpu_id, va & ~4095ull,
			    ro ? KFDSIG_EMU_FAULT_READ_ONLY : KFDSIG_EMU_FAULT_NOT_PRESENT);
	d.gpu_id = q->g->gpu_id;
	d.va = va & ~4095ull;
	d.failure.NotPresent = !ro;
	d.failure.ReadOnly = ro;
	emu_device_exception(p, q->g, KFDSIG_EC_DEVICE_MEMORY_VIOLATION, &d, sizeof(d));
}

/* The host's line for a stopped wave: the GPU's target and the queue,
 * then the unit's reason, instruction, address and encoding. */
static void verbose(const struct emu_queue *q, const char *msg)
{
	/* set by the host before the first open (emu_host_set_diag()) */
	struct kfdsig_emu *emu = q->p->emu;
	char line[320];

	if (!emu->diag)
		return;
	snprintf(line, sizeof(line), "%s queue %u: %s", q->g->t->name, q->id, msg);
	emu->diag(emu->diag_ctx, line);
}

/* Workgroups in the grid; 1 for a size sqk_run() refuses (it says so). */
static uint64_t groups(const struct sqk_dispatch *sd)
{
	uint64_t n = 1;

	for (int i = 0; i < 3; i++)
		if (sd->wg[i] && sd->grid[i])
			n *= (sd->grid[i] + sd->wg[i] - 1) / sd->wg[i];
	return n;
}

/* What the release check found (sqk_rel.c): one line per dispatch and
 * kind, naming the first. */
static void release_check(const struct emu_queue *q, const struct sqk_result *res)
{
	char line[200];

	if (res->unreleased) {
		snprintf(line, sizeof(line),
			 "s_sendmsg(MSG_INTERRUPT) at 0x%llx before the store at 0x%llx was "
			 "released at system scope (%llu of %llu interrupts)",
			 (unsigned long long)res->unreleased_pc,
			 (unsigned long long)res->unreleased_store_pc,
			 (unsigned long long)res->unreleased, (unsigned long long)res->interrupts);
		verbose(q, line);
	}
	if (res->sgpr_unwaited) {
		snprintf(line, sizeof(line),
			 "an SGPR read at 0x%llx before the wait for the scalar load at 0x%llx "
			 "that writes it (%llu times)",
			 (unsigned long long)res->sgpr_unwaited_pc,
			 (unsigned long long)res->sgpr_unwaited_load_pc,
			 (unsigned long long)res->sgpr_unwaited);
		verbose(q, line);
	}
	if (res->m0_hazards) {
		snprintf(line, sizeof(line),
			 "s_sendmsg at 0x%llx right after an SALU write of m0, no wait state "
			 "between (%llu times)",
			 (unsigned long long)res->m0_hazard_pc,
			 (unsigned long long)res->m0_hazards);
		verbose(q, line);
	}
}

static bool run(struct emu_queue *q, struct sqk_dispatch *sd)
{
	struct sqk_env env = { .ctx = q,
			       .xlate = xlate,
			       .message = message,
			       .trap = trap,
			       .stop = stop,
			       .clock = clock_,
			       .trap_base = trap_base,
			       .wave_traps = wave_traps,
			       .watches = watches,
			       .doorbell = doorbell,
			       .hw_id1 = hw_id1 };
	struct kfd_process_device_apertures ap;
	struct sqk_result res;
	int rc;

	/* the queue's GWS (ALLOC_QUEUE_GWS): a cooperative dispatch */
	pthread_mutex_lock(&q->p->lock);
	if (q->p->pdd[q->g->index].gws_queue == q->id + 1)
		sd->gws = q->p->pdd[q->g->index].gws_state;
	pthread_mutex_unlock(&q->p->lock);
	if (sd->gws && sd->parts > 1) { /* whole on the first XCC (pm4_share()) */
		if (sd->part)
			return true;
		sd->parts = 0;
	}
	/* an XCC with no workgroup of the dispatch starts no wave */
	if (!sqk_share(sd, groups(sd)))
		return true;
	/* DBG_TRAP SET_WAVE_LAUNCH_MODE HALT: no wave starts until the mode
	 * changes; a suspend meanwhile preempts the dispatch (emu_cp.c) */
	while (!emu_queue_may_launch(q) && !emu_engine_stopping(q)) {
		if (!emu_queue_may_fetch(q)) {
			q->preempted = true;
			return true;
		}
		usleep(20);
	}
	emu_gpu_apertures(q->g, &ap);
	sd->shared_base = ap.lds_base;
	sd->private_base = ap.scratch_base;
	rc = sqk_run(sd, &env, &res);
	release_check(q, &res);
	if (rc == 0 || rc == -EINTR)
		return true;
	if (res.msg[0])
		verbose(q, res.msg);
	if (rc == 1) {
		emu_cp_wave_exception(q, emu_cp_trap_ec(res.trap_id));
		return true;
	}
	if (rc == -EFAULT) {
		vm_fault(q, res.fault_va, res.fault_ro);
		return true;
	}
	if (rc == -EINVAL || rc == -ENOMEM)
		return false; /* a dispatch the CP does not accept */
	/* -ENOTSUP and program errors: the wave's illegal-instruction trap */
	emu_cp_wave_exception(q, KFDSIG_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION);
	return true;
}

/*
 * amd_queue_t (hsa/amd_hsa_queue.h, ROCr 5.2): the CP finds it from the
 * queue's read pointer (&read_dispatch_id) less
 * read_dispatch_id_field_base_byte_offset, the field after it; its scratch
 * fields, which ROCr fills (amd_aql_queue.cpp AqlQueue::InitScratchSRD()),
 * relative to read_dispatch_id: compute_tmpring_size +0xc,
 * scratch_resource_descriptor[4] +0x10, scratch_backing_memory_location
 * +0x20, scratch_backing_memory_byte_size +0x28,
 * scratch_wave64_lane_byte_size +0x30, queue_inactive_signal +0x40.
 */
#define AQ_READ_DISPATCH_ID 0x80
#define AQ_TMPRING 0x0c
#define AQ_SRD 0x10
#define AQ_BACKING 0x20
#define AQ_BACKING_BYTES 0x28
#define AQ_WAVE64_LANE_BYTES 0x30
#define AQ_INACTIVE_SIGNAL 0x40
#define AQ_ROOM 0x48
/* amd_signal_t: value at 8, event_mailbox_ptr at 16, event_id at 24 */
#define SIG_VALUE 8
#define SIG_MAILBOX 16
#define SIG_EVENT_ID 24
/* gfx10 V# word 3 INDEX_STRIDE [22:21], which ROCr leaves 0 ("filled in
 * by CP"): 3 for 64 lanes, 2 for 32 (LLVM D63808) */
#define SRD3_INDEX_STRIDE (3u << 21)

/*
 * The queue's scratch for a dispatch of @pkt_priv private bytes per
 * work-item (the packet's private_segment_size). When the queue holds
 * less per lane than that (scratch_wave64_lane_byte_size, a wave64 lane's
 * share; twice that for a wave32 lane), the CP asks the runtime for more
 * as ROCr's AqlQueue::DynamicScratchHandler() expects: it sets the
 * queue's inactive signal to 1 (wave64) or 0x401 (wave32), signals its
 * event, and waits for the signal to return to 0 (ROCr allocates, rewrites
 * the scratch fields, stores 0); any other value (ROCr's -1 after a failed
 * allocation) leaves the queue waiting, as the CP does. The signal is read
 * before the fields, and a dispatch with private memory waits while it is
 * not 0 whatever the fields say: ROCr rewrites the fields before it stores
 * 0, and its handler reads the packet at the read index (it asserts a
 * valid dispatch there), so the packet must not run, and retire, while a
 * request is pending. Return 0 (the fields in @sd), 2 (wait), -2 (the
 * queue's memory faults).
 */
static int aql_scratch(struct emu_queue *q, struct sqk_dispatch *sd, uint32_t pkt_priv)
{
	const uint8_t *aq;
	uint8_t *s = NULL;
	uint64_t sig, *val = NULL;
	uint32_t tmpring, lane64, lanes = sd->wave32 ? 32 : 64, base_off;

	if (q->rptr_room < AQ_ROOM)
		return 0; /* no amd_queue_t around the read pointer: no scratch */
	aq = emu_engine_mem(q, q->rptr_va, AQ_ROOM);
	if (!aq)
		return -2;
	/* a read pointer not inside an amd_queue_t (a queue a program made
	 * without ROCr): no scratch, whose accesses then fault */
	memcpy(&base_off, aq + 8, 4);
	if (base_off != AQ_READ_DISPATCH_ID)
		return 0;
	memcpy(&sig, aq + AQ_INACTIVE_SIGNAL, 8);
	if (pkt_priv && sig) {
		s = emu_engine_mem(q, sig, SIG_EVENT_ID + 4);
		if (!s)
			return -2;
		val = (uint64_t *)(void *)(s + SIG_VALUE);
		if (__atomic_load_n(val, __ATOMIC_ACQUIRE)) {
			__atomic_fetch_add(&q->scratch_waits, 1, __ATOMIC_RELAXED);
			return 2; /* a request in progress, or the runtime gave up */
		}
	}
	memcpy(&tmpring, aq + AQ_TMPRING, 4);
	memcpy(&lane64, aq + AQ_WAVE64_LANE_BYTES, 4);
	if (pkt_priv && (uint64_t)pkt_priv * lanes > (uint64_t)lane64 * 64) {
		uint64_t mailbox, old = 0;
		uint32_t *m, id;

		if (!sig)
			return 0; /* no runtime to ask: the accesses fault */
		if (!__atomic_compare_exchange_n(val, &old, lanes == 32 ? 0x401u : 1u, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return 2; /* an error the queue stopped on meanwhile */
		mailbox = __atomic_load_n((uint64_t *)(void *)(s + SIG_MAILBOX), __ATOMIC_ACQUIRE);
		id = __atomic_load_n((uint32_t *)(void *)(s + SIG_EVENT_ID), __ATOMIC_ACQUIRE);
		m = mailbox ? emu_engine_mem(q, mailbox & ~3ull, 4) : NULL;
		if (m) {
			__atomic_store_n(m, id, __ATOMIC_RELEASE);
			emu_engine_irq(q, KFDSIG_EMU_IRQ_SQ_MSG, 0);
		}
		return 2;
	}
	memcpy(sd->scratch_srd, aq + AQ_SRD, 16);
	if (sd->fam->gfx10 && !(sd->scratch_srd[3] & SRD3_INDEX_STRIDE))
		sd->scratch_srd[3] |= (lanes == 64 ? 3u : 2u) << 21;
	memcpy(&sd->scratch_va, aq + AQ_BACKING, 8);
	memcpy(&sd->scratch_bytes, aq + AQ_BACKING_BYTES, 8);
	sd->scratch_waves = tmpring_slots(q->g, tmpring);
	sd->scratch_wave_bytes = tmpring_wave_bytes(q->g->gen.gfxv, tmpring);
	return 0;
}

int emu_kernel_aql(struct emu_queue *q, const uint32_t *d, uint64_t packet_va)
{
	const struct sqk_family *f = sqk_family_of(q->g->gen.gfxv);
	uint64_t kobj = d[8] | (uint64_t)d[9] << 32;
	struct sqk_dispatch sd = { 0 };
	uint8_t kd[64];
	int64_t off;
	uint32_t fixed_lds, fixed_priv;

	if (!f)
		return 0;
	{
		const void *p = emu_engine_mem(q, kobj, 64);

		if (!p)
			return -2;
		memcpy(kd, p, 64);
	}
	memcpy(&fixed_lds, kd, 4);
	memcpy(&fixed_priv, kd + 4, 4);
	memcpy(&off, kd + 16, 8);
	memcpy(&sd.rsrc3, kd + 44, 4);
	memcpy(&sd.rsrc1, kd + 48, 4);
	memcpy(&sd.rsrc2, kd + 52, 4);
	memcpy(&sd.props, kd + 56, 2);
	memcpy(&sd.preload, kd + 58, 2);
	sd.fam = f;
	sd.aql = true;
	sd.entry = kobj + (uint64_t)off;
	sd.wave32 = has_wave32(q) && (sd.props & KD_WAVE32);
	sd.wg[0] = d[1] & 0xffff;
	sd.wg[1] = d[1] >> 16;
	sd.wg[2] = d[2] & 0xffff;
	for (int i = 0; i < 3; i++)
		sd.grid[i] = d[3 + i];
	sd.priv_bytes = d[6] > fixed_priv ? d[6] : fixed_priv;
	sd.lds_bytes = d[7] > fixed_lds ? d[7] : fixed_lds;
	{
		int sc = aql_scratch(q, &sd, d[6]);

		if (sc)
			return sc;
	}
	sd.kernarg = d[10] | (uint64_t)d[11] << 32;
	sd.dispatch_ptr = packet_va;
	sd.dispatch_id = q->consumed;
	return run(q, &sd) ? 1 : -1;
}

/*
 * The share of a PM4 dispatch that this XCC runs. Every XCC of a
 * multi-XCC node runs the PM4 ring (emu_doorbell.c run_xcc()), and the
 * XCCs of one dispatch split its workgroups among them: the kernel gives
 * each XCC's slice of a queue COMPUTE_CURRENT_LOGIC_XCC_ID and
 * COMPUTE_TG_CHUNK_SIZE (kfd_mqd_manager_v9.c init_mqd_v9_4_3(): an AQL
 * slice the logical id (start + i) % num_xcc and chunk 1), and a program
 * that drives the XCCs of a PM4 queue itself writes the same two
 * registers, chunk 1 and each XCC's own id under PRED_EXEC (tinygrad
 * ops_amd.py xcc_config()): the dispatcher of XCC n starts the chunks of
 * TG_CHUNK_SIZE workgroups n, n + N, n + 2N, ... of the grid, each
 * workgroup with its ids in the whole grid (a grid runs once over the
 * node; kfdtest's dispatches on gfx942 count on it). A PM4 slice gets
 * logical id 0 and chunk 0 from the kernel, whose effect is UNVERIFIED:
 * the emulator gives XCC n of the node logical id n and chunk 1, which runs
 * every workgroup exactly once with the ids the hardware gives. A
 * dispatch holding the queue's GWS runs whole on the first XCC (its
 * workgroups may wait for each other at a GWS barrier; UNVERIFIED).
 */
static void pm4_share(const struct emu_queue *q, struct sqk_dispatch *sd)
{
	if (q->g->ring_xcc <= 1 || q->sdma)
		return;
	sd->parts = q->g->ring_xcc;
	sd->part = q->xcc;
	sd->chunk = 1;
}

int emu_kernel_pm4(struct emu_queue *q, const uint32_t *pkt)
{
	const struct sqk_family *f = sqk_family_of(q->g->gen.gfxv);
	struct sqk_dispatch sd = { 0 };
	uint32_t tmpring;

	if (!f)
		return 0;
	sd.fam = f;
	sd.entry =
		((uint64_t)q->sh[SH_PGM_LO] << 8) | ((uint64_t)(q->sh[SH_PGM_HI] & 0xffff) << 40);
	sd.rsrc1 = q->sh[SH_PGM_RSRC1];
	sd.rsrc2 = q->sh[SH_PGM_RSRC2];
	if (sh_rsrc3(q->g->gen.gfxv))
		sd.rsrc3 = q->sh[sh_rsrc3(q->g->gen.gfxv)];
	sd.user_data = &q->sh[SH_USER_DATA_0];
	sd.wave32 = has_wave32(q) && (pkt[4] & CS_W32_EN);
	for (int i = 0; i < 3; i++) {
		/* NUM_THREAD_FULL [15:0], NUM_THREAD_PARTIAL [31:16] */
		uint32_t nt = q->sh[SH_NUM_THREAD_X + i] & 0xffff,
			 part = q->sh[SH_NUM_THREAD_X + i] >> 16;
		uint64_t g;

		/* no COMPUTE_NUM_THREAD: one wave's lanes in X */
		sd.wg[i] = nt ? nt : (i ? 1 : (sd.wave32 ? 32 : 64));
		if (pkt[4] & USE_THREAD_DIMENSIONS) {
			if (pkt[1 + i] % sd.wg[i])
				return -1;
			g = pkt[1 + i];
		} else {
			g = (uint64_t)pkt[1 + i] * sd.wg[i];
			/* the last group of the dimension: the partial count */
			if ((pkt[4] & PARTIAL_TG_EN) && pkt[1 + i] && part && part < sd.wg[i])
				g -= sd.wg[i] - part;
		}
		if (g > UINT32_MAX)
			return -1; /* a grid the dispatch packet cannot describe */
		sd.grid[i] = (uint32_t)g;
	}
	sd.lds_bytes = ((sd.rsrc2 >> 15) & 0x1ff) * lds_granule(q->g->gen.gfxv);
	pm4_share(q, &sd);
	/* private memory: the wave's WAVESIZE shared by its lanes; none
	 * without waves to hold it */
	tmpring = q->sh[sh_tmpring(q->g->gen.gfxv)];
	if (tmpring & 0xfff) {
		sd.scratch_waves = tmpring_slots(q->g, tmpring);
		sd.scratch_wave_bytes = tmpring_wave_bytes(q->g->gen.gfxv, tmpring);
		sd.priv_bytes = sd.scratch_wave_bytes / (sd.wave32 ? 32 : 64);
	}
	/* the scratch base of architected flat scratch; elsewhere the
	 * kernel sets FLAT_SCRATCH from its user SGPRs */
	sd.scratch_va = ((uint64_t)q->sh[SH_DISPATCH_SCRATCH_BASE_LO] << 8 |
			 (uint64_t)q->sh[SH_DISPATCH_SCRATCH_BASE_HI] << 40) &
			0xffffffffffffull;
	return run(q, &sd) ? 1 : -1;
}
