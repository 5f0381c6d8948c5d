/* SPDX-License-Identifier: MIT */
/*
 * PM4 fence-with-interrupt emitters for KFD user compute queues (and the gfx8
 * graphics ring form), the multi-XCC forms, the dispatch of a shader stub and
 * the layouts of the PM4 packets (types: kfdsig/layout.h).
 */
#ifndef KFDSIG_PM4_H
#define KFDSIG_PM4_H

#include <stddef.h>
#include <stdint.h>

#include <kfdsig/common.h>
#include <kfdsig/fence.h>
#include <kfdsig/layout.h>
#include <kfdsig/target.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Defined in kfdsig/shader.h and kfdsig/signal.h. */
struct kfdsig_shader_stub;
struct kfdsig_code_buf;

/* Dwords of one RELEASE_MEM: 7 on gfx8 (no INT_CTXID), 8 from gfx9 on. */
#define KFDSIG_PM4_RELEASE_MEM_DW_GFX8 7
#define KFDSIG_PM4_RELEASE_MEM_DW 8
/* Dwords of a gfx8 EVENT_WRITE_EOP. */
#define KFDSIG_PM4_EVENT_WRITE_EOP_DW 6
/* Dwords of a WRITE_DATA carrying one 64-bit value. */
#define KFDSIG_PM4_WRITE_DATA64_DW 6
/* The most any fence sequence takes (WRITE_DATA + RELEASE_MEM). */
#define KFDSIG_PM4_FENCE_MAX_DW 14

/**
 * kfdsig_pm4_fence_dw() - dwords the sequence described by @f takes on @t.
 *
 * Performs every check kfdsig_pm4_emit_fence() performs.
 * Return: the number of dwords, or -EINVAL (reason in kfdsig_last_error()).
 */
KFDSIG_API int kfdsig_pm4_fence_dw(const struct kfdsig_target *t, const struct kfdsig_fence *f);

/**
 * kfdsig_pm4_emit_fence() - write a fence-with-interrupt sequence.
 * @t:      target (kfdsig_target_by_name())
 * @f:      what to write; see struct kfdsig_fence
 * @buf:    caller's buffer, at least kfdsig_pm4_fence_dw() dwords
 *          (KFDSIG_PM4_FENCE_MAX_DW always suffices)
 * @max_dw: room in @buf, in dwords
 *
 * Default sequence (form KFDSIG_PM4_RELEASE_MEM, no flags): one RELEASE_MEM
 * of event CACHE_FLUSH_AND_INV_TS at end of pipe with the generation's L2
 * writeback+invalidate, a 64-bit write to f->slot_va, INT_SEL "interrupt
 * after write confirm", and INT_CTXID = f->event_id (gfx9 and later). The
 * value written is 1, except on gfx8: there the packet has no INT_CTXID and
 * the only id the interrupt can carry is in the written data, so the default
 * value is the event id.
 *
 * Checks (all relaxed by KFDSIG_FENCE_DELIBERATELY_BAD): event id 1..4095,
 * slot address non-zero, below 2^48 and 8-byte aligned (4 for 32-bit
 * writes), value never leaving the slot all-ones, context id equal to the
 * event id.
 *
 * Return: dwords written, -EINVAL for a refused description, -ENOSPC when
 * @max_dw is too small (nothing is written then).
 */
KFDSIG_API int kfdsig_pm4_emit_fence(const struct kfdsig_target *t, const struct kfdsig_fence *f,
				     uint32_t *buf, size_t max_dw);

/*
 * Multi-XCC GPUs (t->max_xcc > 1: GC 9.4.3 / 9.4.4 / 9.5.0 / 12.1). Every XCC of a
 * KFD node runs the packets of a PM4 user queue, so an unpredicated fence
 * writes its slot and raises its interrupt once per XCC (the event's age
 * goes up by num_xcc, an auto-reset event is set again after its waiter
 * woke). A fence runs once when a PRED_EXEC naming one XCC precedes it,
 * and PRED_EXEC works in an indirect buffer only (docs/multi-xcc.md).
 */
#define KFDSIG_PM4_PRED_EXEC_DW 2
#define KFDSIG_PM4_IB_DW 4
/* The predicated fence: PRED_EXEC and the fence sequence. */
#define KFDSIG_PM4_XCC_FENCE_MAX_DW (KFDSIG_PM4_PRED_EXEC_DW + KFDSIG_PM4_FENCE_MAX_DW)
/* Logical XCC ids of a node that a PRED_EXEC mask can name. */
#define KFDSIG_PM4_XCC_MASK_MAX 0xffu
/* The most dwords one PRED_EXEC predicates (its count field, 14 bits). */
#define KFDSIG_PM4_PRED_EXEC_MAX_COUNT 0x3fffu

/**
 * kfdsig_pm4_emit_pred_exec() - PRED_EXEC: the next @exec_dw dwords run
 * only on the node's XCCs in @xcc_mask (bit n: logical XCC n). Effective
 * inside an indirect buffer only.
 * Return: KFDSIG_PM4_PRED_EXEC_DW, -EINVAL (one-XCC target, mask 0 or above
 * KFDSIG_PM4_XCC_MASK_MAX, count above KFDSIG_PM4_PRED_EXEC_MAX_COUNT),
 * -ENOSPC.
 */
KFDSIG_API int kfdsig_pm4_emit_pred_exec(const struct kfdsig_target *t, uint32_t xcc_mask,
					 uint32_t exec_dw, uint32_t *buf, size_t max_dw);

/**
 * kfdsig_pm4_emit_ib() - INDIRECT_BUFFER: run @ib_dw dwords at GPU address
 * @ib_va (4-byte aligned, below 2^48) from the queue, then go on after
 * this packet (valid bit set, VMID 0: the queue's own).
 * Return: KFDSIG_PM4_IB_DW, -EINVAL, -ENOSPC.
 */
KFDSIG_API int kfdsig_pm4_emit_ib(const struct kfdsig_target *t, uint64_t ib_va, uint32_t ib_dw,
				  uint32_t *buf, size_t max_dw);

/**
 * kfdsig_pm4_emit_fence_xcc() - kfdsig_pm4_emit_fence() preceded by a
 * PRED_EXEC naming the XCCs of @xcc_mask (one bit: the fence signals once).
 * It must run from an indirect buffer: kfdsig_kfd_queue_submit() puts the
 * PM4 submissions of a multi-XCC target in one, kfdsig_pm4_emit_fence_ib()
 * writes it into one.
 * Return: dwords written (at most KFDSIG_PM4_XCC_FENCE_MAX_DW), or the
 * errors of the two emitters.
 */
KFDSIG_API int kfdsig_pm4_emit_fence_xcc(const struct kfdsig_target *t,
					 const struct kfdsig_fence *f, uint32_t xcc_mask,
					 uint32_t *buf, size_t max_dw);

/* Alignment of the indirect buffers kfdsig_pm4_emit_fence_ib() places. */
#define KFDSIG_PM4_IB_ALIGN 32u

/**
 * kfdsig_pm4_emit_fence_ib() - the multi-XCC-safe PM4 fence: the fence,
 * predicated to logical XCC 0 on a multi-XCC target (t->max_xcc > 1,
 * kfdsig_pm4_emit_fence_xcc()), written into @code at the first
 * KFDSIG_PM4_IB_ALIGN-aligned GPU address at or after code->used, and the
 * INDIRECT_BUFFER that runs it written to @buf. Submitted anywhere in a
 * PM4 ring it signals once however many XCCs run the ring.
 * @code: GPU-readable buffer (struct kfdsig_code_buf, kfdsig/signal.h;
 *        code->form unused); code->used advances past
 *        the indirect buffer
 * Return: KFDSIG_PM4_IB_DW, -EINVAL (the fence's checks, a bad code
 * buffer), -ENOSPC (@buf or @code has no room). Nothing is written and
 * code->used is unchanged on error.
 */
KFDSIG_API int kfdsig_pm4_emit_fence_ib(const struct kfdsig_target *t, const struct kfdsig_fence *f,
					struct kfdsig_code_buf *code, uint32_t *buf, size_t max_dw);

/* Dwords of the GPU timestamp (a RELEASE_MEM): 7 on gfx8, 8 from gfx9 on. */
#define KFDSIG_PM4_TIMESTAMP_DW_GFX8 KFDSIG_PM4_RELEASE_MEM_DW_GFX8
#define KFDSIG_PM4_TIMESTAMP_DW KFDSIG_PM4_RELEASE_MEM_DW
#define KFDSIG_PM4_TIMESTAMP_MAX_DW KFDSIG_PM4_RELEASE_MEM_DW

/**
 * kfdsig_pm4_timestamp_dw() - dwords kfdsig_pm4_emit_timestamp() writes on @t.
 *
 * Return: KFDSIG_PM4_TIMESTAMP_DW_GFX8 or KFDSIG_PM4_TIMESTAMP_DW, or
 * -EINVAL for a NULL target.
 */
KFDSIG_API int kfdsig_pm4_timestamp_dw(const struct kfdsig_target *t);

/**
 * kfdsig_pm4_emit_timestamp() - write an end-of-pipe GPU timestamp.
 * @t:      target
 * @dst_va: GPU address of the 8 bytes that receive the counter
 * @buf:    caller's buffer (KFDSIG_PM4_TIMESTAMP_MAX_DW always suffices)
 * @max_dw: room in @buf, in dwords
 *
 * One RELEASE_MEM in the generation's form (7 dwords on gfx8, 8 with a zero
 * INT_CTXID from gfx9 on) of event BOTTOM_OF_PIPE_TS with no cache action
 * (cache policy bypass from gfx10), DATA_SEL 3 "send_gpu_clock_counter"
 * and INT_SEL 0: when the work before it has finished the CP stores the
 * 64-bit GPU clock counter at @dst_va and raises no interrupt. Put it
 * right before a fence to timestamp the signal; read the counter's rate
 * and epoch with kfdsig_kfd_clock_counters() (kfdsig/kfd.h).
 *
 * Return: dwords written, -EINVAL (NULL target, @dst_va zero, not 8-byte
 * aligned or not below 2^48), -ENOSPC when @buf is NULL or @max_dw too
 * small (nothing is written then).
 */
KFDSIG_API int kfdsig_pm4_emit_timestamp(const struct kfdsig_target *t, uint64_t dst_va,
					 uint32_t *buf, size_t max_dw);

/* The most dwords kfdsig_pm4_emit_dispatch() writes. */
#define KFDSIG_PM4_DISPATCH_MAX_DW 34

/**
 * kfdsig_pm4_dispatch_dw() - dwords kfdsig_pm4_emit_dispatch() writes for @s.
 *
 * Return: the count, or -EINVAL for a NULL stub.
 */
KFDSIG_API int kfdsig_pm4_dispatch_dw(const struct kfdsig_shader_stub *s);

/**
 * kfdsig_pm4_emit_dispatch() - PM4 packets that run a stub as one wave on a
 * compute queue (a compiled kernel: kfdsig_pm4_emit_kernel()).
 * @s:          the stub (either form)
 * @code_va:    GPU address of the stub's first instruction (where
 *              s->bytes + s->entry_offset was copied); 256-byte aligned,
 *              below 2^48
 * @kernarg_va: code-object form: GPU address of the kernel-argument block
 *              (kfdsig_shader_kernargs()), non-zero and 16-byte aligned;
 *              raw form: must be 0
 * @buf:        the caller's buffer (KFDSIG_PM4_DISPATCH_MAX_DW suffices)
 * @max_dw:     room in @buf, in dwords
 *
 * Writes SET_SH_REG packets for COMPUTE_START_X..Z = 0 and NUM_THREAD_X..Z = 1,
 * COMPUTE_PGM_LO/HI, COMPUTE_PGM_RSRC1/2 (and RSRC3 where the generation has
 * it), COMPUTE_RESOURCE_LIMITS = 0, COMPUTE_TMPRING_SIZE = 0 (no scratch),
 * COMPUTE_USER_DATA_0/1 = @kernarg_va for the code-object form, then one
 * DISPATCH_DIRECT of 1x1x1 groups with COMPUTE_SHADER_EN (and CS_W32_EN for
 * wave32). Every packet has the compute shader-type bit set.
 *
 * Return: dwords written; -EINVAL for a bad argument, -ENOSPC when @max_dw
 * is too small (nothing written).
 */
KFDSIG_API int kfdsig_pm4_emit_dispatch(const struct kfdsig_shader_stub *s, uint64_t code_va,
					uint64_t kernarg_va, uint32_t *buf, size_t max_dw);

/*
 * Compute dispatch registers and packets (public: the offsets a runtime
 * programs and the decoder names). SET_SH_REG dword 1 is a register's dword
 * offset from PACKET3_SET_SH_REG_START 0x2c00 (vid.h, soc15d.h, nvd.h); the
 * COMPUTE_* registers below sit at one address from gfx8 to gfx12
 * (gfx_8_0_d.h mmCOMPUTE_PGM_LO 0x2e0c; gc_9_0_offset.h / gc_10_3_0_offset.h
 * / gc_11_0_0_offset.h / gc_12_0_0_offset.h, GC base 0x2000 for gfx9,
 * 0x1260 for gfx10-12, as gfx_v9_0.c's GPR-init dispatch and
 * gfx_v10_0.c / gfx_v11_0.c / gfx_v12_0.c program them with
 * SOC15_REG_OFFSET(GC, 0, mmCOMPUTE_*) - PACKET3_SET_SH_REG_START).
 */
#define KFDSIG_PM4_OP_DISPATCH_DIRECT 0x15u
#define KFDSIG_PM4_OP_SET_SH_REG 0x76u
#define KFDSIG_PM4_SH_REG_START 0x2c00u
#define KFDSIG_PM4_SH_COMPUTE_DISPATCH_INITIATOR 0x200u
#define KFDSIG_PM4_SH_COMPUTE_START_X 0x204u	  /* START_Y, START_Z follow */
#define KFDSIG_PM4_SH_COMPUTE_NUM_THREAD_X 0x207u /* NUM_THREAD_Y, _Z follow */
#define KFDSIG_PM4_SH_COMPUTE_PGM_LO 0x20cu	  /* address bits 39:8; PGM_HI 47:40 follows */
#define KFDSIG_PM4_SH_COMPUTE_PGM_HI 0x20du
/* gfx94x/gfx950 and gfx11 and later: the dispatch's scratch base >> 8, LO
 * then HI (Mesa sid.h R_00B840/R_00B844 COMPUTE_DISPATCH_SCRATCH_BASE_LO/HI,
 * set with architected flat scratch: ac_gpu_info.c
 * has_scratch_base_registers; gc_11_0_0_offset.h). */
#define KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_LO 0x210u
#define KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_HI 0x211u
#define KFDSIG_PM4_SH_COMPUTE_PGM_RSRC1 0x212u
#define KFDSIG_PM4_SH_COMPUTE_PGM_RSRC2 0x213u
#define KFDSIG_PM4_SH_COMPUTE_RESOURCE_LIMITS 0x215u
#define KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE 0x218u
/* COMPUTE_PGM_RSRC3: gfx90a/gfx94x 0x22d, gfx10 to gfx12.0 0x228, GC 12.1
 * 0x223, none before (t->sh_compute_pgm_rsrc3). */
#define KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GFX90A 0x22du
#define KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GFX10 0x228u
/* GC 12.1 (gfx1250) moves two of them (gc_12_1_0_offset.h, GC base 0x1260
 * as before: regCOMPUTE_TMPRING_SIZE 0x1bb6, regCOMPUTE_PGM_RSRC3 0x1bc3;
 * the COMPUTE_DESTINATION_EN_SE0/1 that sat at 0x1bb6/0x1bb7 moved to
 * 0x1bd0), the others above stay (regCOMPUTE_DISPATCH_SCRATCH_BASE_LO/HI
 * 0x1bb0/0x1bb1, RSRC1/2 0x1bb2/0x1bb3, RESOURCE_LIMITS 0x1bb5,
 * USER_DATA_0 0x1be0). At 0x218 and 0x228 GC 12.1 has COMPUTE_RESTART_Y and
 * COMPUTE_RESTART_CG_TG_ID. */
#define KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE_GC12_1 0x216u
#define KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GC12_1 0x223u
#define KFDSIG_PM4_SH_COMPUTE_USER_DATA_0 0x240u /* 16: USER_DATA_0..15 */
#define KFDSIG_PM4_USER_DATA_MAX 16u

/* COMPUTE_DISPATCH_INITIATOR (the last DISPATCH_DIRECT dword). */
#define KFDSIG_PM4_DI_COMPUTE_SHADER_EN (1u << 0)
#define KFDSIG_PM4_DI_PARTIAL_TG_EN (1u << 1) /* last group: NUM_THREAD_PARTIAL */
#define KFDSIG_PM4_DI_FORCE_START_AT_000 (1u << 2)
#define KFDSIG_PM4_DI_USE_THREAD_DIMENSIONS (1u << 5)
#define KFDSIG_PM4_DI_CS_W32_EN (1u << 15) /* gfx10 and later: wave32 */
/* COMPUTE_NUM_THREAD_X/Y/Z: full group [15:0], the last group [31:16]. */
#define KFDSIG_PM4_NUM_THREAD(full, partial) ((uint32_t)(full) | (uint32_t)(partial) << 16)
/* COMPUTE_TMPRING_SIZE: WAVES [11:0] (waves given scratch at once),
 * WAVESIZE from bit 12 in units of KFDSIG_PM4_TMPRING_UNIT(): 13 bits of
 * 1 KiB on gfx8-gfx10.3 (gc_9_0_sh_mask.h / gc_10_3_0_sh_mask.h), 15 bits
 * of 256 bytes on gfx11 (gc_11_0_0_sh_mask.h), 18 bits of 256 bytes on
 * gfx12 (gc_12_0_0_sh_mask.h; ROCr amd_gpu_agent.cpp MAX_WAVE_SCRATCH_GFX12)
 * and GC 12.1 (gc_12_1_0_sh_mask.h COMPUTE_TMPRING_SIZE__WAVESIZE_MASK
 * 0x3FFFF000; ROCr amd_aql_queue.cpp: 256-byte units from ISA major 11 on,
 * the GFX12 layout for every major 12). */
#define KFDSIG_PM4_TMPRING_WAVES_MAX 0xfffu
#define KFDSIG_PM4_TMPRING_WAVESIZE_SHIFT 12
#define KFDSIG_PM4_TMPRING_UNIT(level) ((level) >= KFDSIG_GFX11 ? 256u : 1024u)
#define KFDSIG_PM4_TMPRING_WAVESIZE_BITS(level) \
	((level) >= KFDSIG_GFX12 ? 18u : (level) >= KFDSIG_GFX11 ? 15u : 13u)
/* COMPUTE_PGM_RSRC2.LDS_SIZE [23:15], in 512-byte granules (128 dwords;
 * 320 dwords on gfx950, 512 on GC 12.1: AMDGPUUsage GRANULATED_LDS_SIZE). */
#define KFDSIG_PM4_RSRC2_LDS_SIZE_SHIFT 15
#define KFDSIG_PM4_RSRC2_LDS_SIZE_MASK (0x1ffu << 15)
#define KFDSIG_PM4_LDS_GRANULE 512u

/*
 * The kernel descriptor of code objects v4-v6 (LLVM AMDGPUUsage "Kernel
 * Descriptor"): 64 bytes, 64-byte aligned; byte offsets of its fields.
 */
#define KFDSIG_KD_SIZE 64u
#define KFDSIG_KD_GROUP_SEGMENT_FIXED_SIZE 0u	/* u32 */
#define KFDSIG_KD_PRIVATE_SEGMENT_FIXED_SIZE 4u /* u32, per work-item */
#define KFDSIG_KD_KERNARG_SIZE 8u		/* u32 */
#define KFDSIG_KD_ENTRY_BYTE_OFFSET 16u		/* i64, from the descriptor */
#define KFDSIG_KD_PGM_RSRC3 44u
#define KFDSIG_KD_PGM_RSRC1 48u
#define KFDSIG_KD_PGM_RSRC2 52u
#define KFDSIG_KD_CODE_PROPERTIES 56u /* u16 */
#define KFDSIG_KD_KERNARG_PRELOAD 58u /* u16: [6:0] length in dwords, [15:7] offset */
/* kernel_code_properties: the user SGPRs to set up, in this order. */
#define KFDSIG_KD_SGPR_PRIVATE_SEGMENT_BUFFER (1u << 0) /* 4 SGPRs */
#define KFDSIG_KD_SGPR_DISPATCH_PTR (1u << 1)		/* 2 */
#define KFDSIG_KD_SGPR_QUEUE_PTR (1u << 2)		/* 2 */
#define KFDSIG_KD_SGPR_KERNARG_SEGMENT_PTR (1u << 3)	/* 2 */
#define KFDSIG_KD_SGPR_DISPATCH_ID (1u << 4)		/* 2 */
#define KFDSIG_KD_SGPR_FLAT_SCRATCH_INIT (1u << 5)	/* 2 */
#define KFDSIG_KD_SGPR_PRIVATE_SEGMENT_SIZE (1u << 6)	/* 1 */
#define KFDSIG_KD_WAVEFRONT_SIZE32 (1u << 10)
#define KFDSIG_KD_USES_DYNAMIC_STACK (1u << 11)

/*
 * A compiled kernel's dispatch on a PM4 compute queue. Declare it with
 * KFDSIG_OPTS(kfdsig_pm4_kernel, name, ...) (common.h).
 */
struct kfdsig_pm4_kernel {
	size_t sz;	       /* sizeof(struct kfdsig_pm4_kernel) the caller was built with */
	const void *kd;	       /* host copy of the 64-byte kernel descriptor */
	uint64_t kd_va;	       /* its GPU address (the code is at kd_va + entry offset) */
	uint32_t grid[3];      /* work-items per dimension, >= 1 */
	uint16_t workgroup[3]; /* work-items per workgroup, >= 1 each */
	/* 0.22: the shader engines of the KFD node whose queue runs the
	 * dispatch (its topology array_count / simd_arrays_per_engine, as
	 * libhsakmt topology.c computes NumShaderBanks), 0 when not known.
	 * From gfx11 on the hardware reads COMPUTE_TMPRING_SIZE.WAVES per
	 * shader engine: private memory there needs it (see
	 * kfdsig_pm4_emit_kernel()). Before gfx11 WAVES is the total, which
	 * the engines share: when not 0 it is rounded down to a multiple of
	 * @num_se (0: the total, unrounded). */
	uint16_t num_se;
	/* Bytes per work-item of private segment and per workgroup of group
	 * segment (LDS); 0 or below the descriptor's fixed sizes: those. */
	uint32_t private_segment_size;
	uint32_t group_segment_size;
	/* 0.21: the XCCs of the KFD node whose queue runs the dispatch (its
	 * topology num_xcc), 0 when not known. On a multi-XCC target
	 * (t->max_xcc > 1) private memory needs 1: each XCC numbers its
	 * scratch wave slots from 0, so one scratch base for several XCCs
	 * would give waves of two XCCs the same memory. */
	uint32_t num_xcc;
	uint64_t kernarg_va; /* kernel arguments, implicit ones after the explicit */
	/* The 64-byte hsa_kernel_dispatch_packet_t the dispatch pointer points
	 * at (sizes the kernel reads: write it with kfdsig_aql_emit_dispatch()
	 * from the same grid, workgroup and segment sizes); needed when the
	 * descriptor asks for the dispatch pointer. */
	uint64_t dispatch_va;
	/* amd_queue_t for the queue pointer, or 0 (a PM4 queue has none:
	 * the kernel must then not read it) */
	uint64_t queue_va;
	uint64_t dispatch_id; /* the dispatch id SGPRs' value */
	/* Scratch backing memory for the private segment: @scratch_size bytes
	 * at @scratch_va (256-byte aligned). The dispatch lets as many waves
	 * hold scratch at once as fit (COMPUTE_TMPRING_SIZE.WAVES). Needed
	 * when the work-item private size is not 0. */
	uint64_t scratch_va;
	uint64_t scratch_size;
	/* 0.20: the GPU's private (scratch) and shared (LDS) aperture bases
	 * (kfdsig_kfd_apertures()' scratch_base and lds_base), for
	 * kfdsig_pm4_implicit_args() to write their high 32 bits into
	 * hidden_private_base and hidden_shared_base when not 0. LLVM reads
	 * them on targets without aperture registers (gfx8) to convert
	 * between private or shared and flat addresses. */
	uint64_t private_aperture;
	uint64_t shared_aperture;
};

/*
 * Implicit kernel arguments of code objects v5 and v6 (LLVM AMDGPUUsage
 * "Code Object V5 Metadata", the hidden_* value kinds): byte offsets from
 * the implicit-argument pointer, which is the kernarg address plus the
 * offset the code object's metadata gives hidden_block_count_x (the
 * explicit arguments' size rounded up to 8).
 */
#define KFDSIG_IMPLICIT_BLOCK_COUNT 0u	  /* 3 x u32: full workgroups per dimension */
#define KFDSIG_IMPLICIT_GROUP_SIZE 12u	  /* 3 x u16 */
#define KFDSIG_IMPLICIT_REMAINDER 18u	  /* 3 x u16: work-items of the partial group, or 0 */
#define KFDSIG_IMPLICIT_GLOBAL_OFFSET 40u /* 3 x u64 */
#define KFDSIG_IMPLICIT_GRID_DIMS 64u	  /* u16 */
/* The bytes kfdsig_pm4_implicit_args() writes (from offset 0). */
#define KFDSIG_IMPLICIT_ARGS_DISPATCH_BYTES 66u
/* Further implicit arguments (LLVM's AMDGPU::ImplicitArg offsets, SIDefines.h). */
#define KFDSIG_IMPLICIT_PRIVATE_BASE 192u /* u32: high half of the private aperture */
#define KFDSIG_IMPLICIT_SHARED_BASE 196u  /* u32: high half of the shared aperture */
/* The bytes it needs when it writes the aperture bases too. */
#define KFDSIG_IMPLICIT_ARGS_APERTURE_BYTES 200u

/**
 * kfdsig_pm4_implicit_args() - write the dispatch's implicit arguments.
 * @k:   the dispatch (its grid and workgroup sizes; the rest unused)
 * @dst: host copy of the implicit-argument area (in the kernarg block)
 * @len: bytes at @dst, at least KFDSIG_IMPLICIT_ARGS_DISPATCH_BYTES
 *
 * Writes hidden_block_count_x/y/z (full workgroups: grid / workgroup),
 * hidden_group_size_x/y/z, hidden_remainder_x/y/z (grid % workgroup: the
 * size of the last, partial group, 0 when none; a device library's
 * get_local_size() reads the group size below the block count and the
 * remainder at it), hidden_global_offset_x/y/z = 0 and hidden_grid_dims
 * (the highest dimension whose grid is above 1, at least 1); with
 * @k->private_aperture or @k->shared_aperture not 0, also
 * hidden_private_base and hidden_shared_base (the high 32 bits of each;
 * @len must then be at least KFDSIG_IMPLICIT_ARGS_APERTURE_BYTES); leaves
 * every other byte (the reserved ones, the heap, printf and queue
 * arguments) as it is.
 *
 * Return: 0, or -EINVAL (NULL argument, @len too small, a grid or
 * workgroup size of 0, a workgroup above 0xffff in a dimension).
 */
KFDSIG_API int kfdsig_pm4_implicit_args(const struct kfdsig_pm4_kernel *k, void *dst, size_t len);

/* The most dwords kfdsig_pm4_emit_kernel() writes. */
#define KFDSIG_PM4_KERNEL_MAX_DW 64

/**
 * kfdsig_pm4_kernel_dw() - dwords kfdsig_pm4_emit_kernel() writes for @k on @t.
 *
 * Performs every check kfdsig_pm4_emit_kernel() performs.
 * Return: the count, or the errors of kfdsig_pm4_emit_kernel().
 */
KFDSIG_API int kfdsig_pm4_kernel_dw(const struct kfdsig_target *t,
				    const struct kfdsig_pm4_kernel *k);

/**
 * kfdsig_pm4_emit_kernel() - PM4 packets that dispatch a compiled kernel on
 * a compute queue of @t, set up as AMDGPUUsage "Initial Kernel Execution
 * State" lays it out.
 * @t:      target
 * @k:      the kernel descriptor, sizes and addresses (struct kfdsig_pm4_kernel)
 * @buf:    caller's buffer (KFDSIG_PM4_KERNEL_MAX_DW suffices)
 * @max_dw: room in @buf, in dwords
 *
 * SET_SH_REG (compute shader type) of COMPUTE_START_X..Z = 0,
 * COMPUTE_NUM_THREAD_X..Z = the workgroup (the last group of a dimension
 * the grid does not fill: NUM_THREAD_PARTIAL), COMPUTE_PGM_LO/HI = the
 * entry, COMPUTE_PGM_RSRC1/2 from the descriptor with RSRC2.LDS_SIZE set
 * from the group segment size (granules of KFDSIG_PM4_LDS_GRANULE bytes,
 * 1280 on gfx950, 2048 on GC 12.1), COMPUTE_PGM_RSRC3 where the generation has
 * it, COMPUTE_RESOURCE_LIMITS = 0, COMPUTE_TMPRING_SIZE (WAVES = the waves
 * the scratch holds, WAVESIZE = a wave's private bytes in the generation's
 * unit; GC 12.1 has RSRC3 and TMPRING_SIZE at their own offsets),
 * COMPUTE_DISPATCH_SCRATCH_BASE_LO/HI on gfx94x/gfx950 and gfx11 and later
 * (GC 12.1 included: architected flat scratch), and
 * COMPUTE_USER_DATA_0.. with the user SGPRs the descriptor enables, in
 * order: private segment buffer (a swizzled buffer resource over the
 * scratch, ADD_TID_ENABLE, stride of a wave), dispatch pointer, queue
 * pointer, kernarg segment pointer, dispatch id, flat scratch init (the
 * scratch's address, to which the kernel's prologue adds its wave
 * offset), private segment size; then DISPATCH_DIRECT of the workgroup
 * counts with COMPUTE_SHADER_EN, FORCE_START_AT_000, PARTIAL_TG_EN when a
 * group is partial and CS_W32_EN for a wave32 kernel (gfx10 and later).
 * Preloaded kernel arguments are not written: the kernel starts at its
 * entry, whose prologue loads them.
 *
 * Return: dwords written; -EINVAL (a NULL or bad argument: descriptor or
 * code address, grid or workgroup 0 or a workgroup above 1024 work-items,
 * an enabled pointer that is 0, a descriptor asking for more user SGPRs than
 * its COMPUTE_PGM_RSRC2.USER_SGPR_COUNT or than 16, wave32 before gfx10,
 * private memory without scratch or a scratch too small for one wave, a
 * group segment above the LDS_SIZE field, @k->num_xcc above the target's
 * XCCs; from gfx11 on, private memory with @k->num_se 0 (WAVES cannot be
 * set without over-committing the scratch); a scratch smaller than one
 * wave per shader engine of @k->num_se, as WAVES 0 would give no wave a
 * slot); -ENOTSUP
 * (private memory on a multi-XCC target unless @k->num_xcc is 1); -ENOSPC
 * when @max_dw is too small (nothing written then). Reason in
 * kfdsig_last_error().
 */
KFDSIG_API int kfdsig_pm4_emit_kernel(const struct kfdsig_target *t,
				      const struct kfdsig_pm4_kernel *k, uint32_t *buf,
				      size_t max_dw);

/*
 * Hot-path form: prepare the sequence once per queue (options checked once),
 * then write it per fence with kfdsig_pm4_fence_write(), an inline copy of
 * the prepared dwords with the slot address and the id patched in.
 */
#define KFDSIG_TMPL_NONE 0xff
#define KFDSIG_TMPL_RM8 1
#define KFDSIG_TMPL_RM7_ID 2

struct kfdsig_pm4_fence_tmpl {
	uint32_t dw[KFDSIG_PM4_FENCE_MAX_DW];
	uint64_t signal_page_va;
	uint8_t ndw;	     /* dwords per fence */
	uint8_t addr_dw;     /* index of the slot address (lo, hi) or NONE */
	uint8_t ctxid_dw;    /* index of INT_CTXID or NONE */
	uint8_t id_value_dw; /* index of a value that is the event id, or NONE */
	/* Fast layouts: KFDSIG_TMPL_RM8, one 8-dword RELEASE_MEM (address at 3,
	 * INT_CTXID at 7); KFDSIG_TMPL_RM7_ID, the gfx8 7-dword one whose value
	 * (dword 5) is the event id; 0, anything else. */
	uint8_t fast;
};

/**
 * kfdsig_pm4_fence_prepare() - check @f once and build a template for every
 * event of the signal page at @signal_page_va.
 * @f: options (flags, value, cache, form); its event_id and slot_va are
 *     ignored. KFDSIG_FENCE_CTXID and KFDSIG_FENCE_DELIBERATELY_BAD are
 *     refused: deliberately bad packets go through kfdsig_pm4_emit_fence().
 *
 * Return: 0, or -EINVAL (page address 0, unaligned or beyond 48 bits; any
 * option kfdsig_pm4_emit_fence() refuses).
 */
KFDSIG_API int kfdsig_pm4_fence_prepare(const struct kfdsig_target *t, const struct kfdsig_fence *f,
					uint64_t signal_page_va,
					struct kfdsig_pm4_fence_tmpl *tmpl);

/* Out-of-line error path of kfdsig_pm4_fence_write(); records the reason. */
KFDSIG_API int kfdsig_pm4_fence_write_error(const struct kfdsig_pm4_fence_tmpl *tmpl, size_t max_dw,
					    uint32_t event_id);

/**
 * kfdsig_pm4_fence_write() - write the prepared sequence for @event_id.
 *
 * Return: dwords written, -EINVAL for an event id outside 1..4095, -ENOSPC
 * when @max_dw is smaller than tmpl->ndw (nothing written on error).
 */
static inline int kfdsig_pm4_fence_write(const struct kfdsig_pm4_fence_tmpl *tmpl, uint32_t *buf,
					 size_t max_dw, uint32_t event_id)
{
	uint64_t va;

	if (KFDSIG_EXPECT((uint32_t)(event_id - 1) >= KFDSIG_SIGNAL_EVENT_LIMIT - 1 ||
				  max_dw < tmpl->ndw,
			  0))
		return kfdsig_pm4_fence_write_error(tmpl, max_dw, event_id);
	va = kfdsig_slot_va(tmpl->signal_page_va, event_id);
	/* The default fence of gfx9 and later: a constant-size copy and three
	 * patched dwords, as cheap as copying a finished packet. */
	if (KFDSIG_EXPECT(tmpl->fast == KFDSIG_TMPL_RM8, 1)) {
		KFDSIG_MEMCPY(buf, tmpl->dw, KFDSIG_PM4_RELEASE_MEM_DW * sizeof(uint32_t));
		buf[3] = (uint32_t)va;
		buf[4] = (uint32_t)(va >> 32);
		buf[7] = event_id;
		return KFDSIG_PM4_RELEASE_MEM_DW;
	}
	if (tmpl->fast == KFDSIG_TMPL_RM7_ID) {
		KFDSIG_MEMCPY(buf, tmpl->dw, KFDSIG_PM4_RELEASE_MEM_DW_GFX8 * sizeof(uint32_t));
		buf[3] = (uint32_t)va;
		buf[4] = (uint32_t)(va >> 32);
		buf[5] = event_id;
		return KFDSIG_PM4_RELEASE_MEM_DW_GFX8;
	}
	KFDSIG_MEMCPY(buf, tmpl->dw, tmpl->ndw * sizeof(uint32_t));
	if (tmpl->addr_dw != KFDSIG_TMPL_NONE) {
		buf[tmpl->addr_dw] = (uint32_t)va;
		buf[tmpl->addr_dw + 1] = (uint32_t)(va >> 32);
	}
	if (tmpl->ctxid_dw != KFDSIG_TMPL_NONE)
		buf[tmpl->ctxid_dw] = event_id;
	if (tmpl->id_value_dw != KFDSIG_TMPL_NONE)
		buf[tmpl->id_value_dw] = event_id;
	return tmpl->ndw;
}

/**
 * kfdsig_pm4_packet_desc() - layout of PM4 type-3 opcode @opcode on @t.
 *
 * Return: the layout, or NULL with errno = ENOENT when kfdsig has none for
 * that opcode (errno = EINVAL for a NULL target).
 */
KFDSIG_API const struct kfdsig_packet_desc *kfdsig_pm4_packet_desc(const struct kfdsig_target *t,
								   unsigned int opcode);

/*
 * PM4 type-3 headers (vid.h / soc15d.h / nvd.h PACKET3(op, n): type 3 in
 * bits 31:30, n = body dwords - 1 in bits 29:16, the opcode in bits 15:8,
 * the shader type in bit 1; the same on every generation).
 */
#define KFDSIG_PM4_OP_NOP 0x10u
#define KFDSIG_PM4_OP_PRED_EXEC 0x23u
/* The longest body a type-3 header describes (n = 0x3fff). */
#define KFDSIG_PM4_MAX_BODY_DW 0x4000u
/* PACKET3(NOP, 0x3FFF): the one-dword filler amdgpu pads rings with. */
#define KFDSIG_PM4_NOP_FILLER 0xffff1000u
/* PACKET2: the type-2 one-dword filler. */
#define KFDSIG_PM4_TYPE2_NOP 0x80000000u

/* kfdsig_pm4_header() flags: the shader type bit set, as compute queues
 * write it (kfdtest InitPM4Header). */
#define KFDSIG_PM4_HDR_COMPUTE (1u << 0)

/**
 * kfdsig_pm4_header() - the type-3 header of a packet.
 * @hdr:     where the header goes
 * @opcode:  the IT opcode, 0..0xff
 * @body_dw: dwords after the header, 1..KFDSIG_PM4_MAX_BODY_DW (a NOP at
 *           most 0x3fff: count 0x3fff makes a NOP the one-dword filler)
 * @flags:   0 or KFDSIG_PM4_HDR_COMPUTE
 *
 * Return: 0, or -EINVAL for a NULL @hdr, an opcode above 0xff, a body
 * length outside the range, or unknown flags (nothing written).
 */
KFDSIG_API int kfdsig_pm4_header(uint32_t *hdr, unsigned int opcode, size_t body_dw,
				 unsigned int flags);

/**
 * kfdsig_pm4_opcode() - the opcode of type-3 header @hdr.
 *
 * Return: the opcode (0..0xff), or -ENOENT when @hdr is not a type-3
 * header.
 */
KFDSIG_API int kfdsig_pm4_opcode(uint32_t hdr);

/**
 * kfdsig_pm4_packet_dw() - length of the PM4 packet starting at @dw[0].
 * @dw: the packet
 * @n:  dwords readable at @dw (at least 1)
 *
 * A type-3 packet is its count + 2 dwords, except PACKET3(NOP, 0x3FFF),
 * the one-dword filler; the type-2 filler (0x80000000) is one dword. The
 * header's reserved bits are not checked (the decoder does, before it
 * believes a header). The length may exceed @n: the caller checks for
 * truncation.
 *
 * Return: the length in dwords; -ENOENT for a type-0, type-1 or other
 * type-2 header; -EINVAL for a NULL @dw or @n 0.
 */
KFDSIG_API long kfdsig_pm4_packet_dw(const uint32_t *dw, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_PM4_H */
