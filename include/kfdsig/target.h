/* SPDX-License-Identifier: MIT */
/*
 * The generation table: every GPU target kfdsig knows, with the facts that
 * decide how a packet or a shader must be encoded for KFD to find the event.
 *
 * Every other component reads these records and nothing else; the table
 * itself lives in src/core/target_table.c, where each fact cites its source.
 * Records are immutable and live for the whole program: callers only ever
 * hold const pointers, so new fields are appended without breaking the ABI.
 */
#ifndef KFDSIG_TARGET_H
#define KFDSIG_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kfdsig/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Coarse generation, ordered so that comparisons such as >= work. */
enum kfdsig_gfx_level {
	KFDSIG_GFX8 = 0,
	KFDSIG_GFX9,
	KFDSIG_GFX10,	/* GC 10.1 */
	KFDSIG_GFX10_3, /* GC 10.3 */
	KFDSIG_GFX11,
	KFDSIG_GFX12,
};

/* Finer family: where the shader release sequence or a packet form differs. */
enum kfdsig_family {
	KFDSIG_FAMILY_GFX8 = 0,
	KFDSIG_FAMILY_GFX9,   /* gfx900 .. gfx90c except gfx90a */
	KFDSIG_FAMILY_GFX90A, /* gfx90a: L2 writeback needed at system scope */
	KFDSIG_FAMILY_GFX94X, /* gfx940/941/942, gfx950 */
	KFDSIG_FAMILY_GFX10_1,
	KFDSIG_FAMILY_GFX10_3,
	KFDSIG_FAMILY_GFX11,
	KFDSIG_FAMILY_GFX12,
	KFDSIG_FAMILY_COUNT
};

/* amdkfd interrupt handler class (kfd_device.c). */
enum kfdsig_irq_class {
	KFDSIG_IRQ_CIK = 0, /* cik_event_interrupt.c (gfx7, gfx8) */
	KFDSIG_IRQ_V9,	    /* kfd_int_process_v9.c */
	KFDSIG_IRQ_V9_4_3,  /* kfd_int_process_v9.c, node-filtered ISR */
	KFDSIG_IRQ_V10,	    /* kfd_int_process_v10.c */
	KFDSIG_IRQ_V11,	    /* kfd_int_process_v11.c (gfx11 and gfx12.0) */
	KFDSIG_IRQ_V12_1,   /* kfd_int_process_v12_1.c (GC 12.1): node-filtered
			     * ISR; kernels with the mailbox-free fast path
			     * trust the CP end-of-pipe id without the slot */
};

/* Layout of the PM4 RELEASE_MEM packet a user compute queue takes. */
enum kfdsig_pm4_fence_form {
	KFDSIG_PM4_FENCE_VI = 0, /* 7 dwords, TC action bits, no INT_CTXID */
	KFDSIG_PM4_FENCE_AI,	 /* 8 dwords, TC action bits, INT_CTXID */
	KFDSIG_PM4_FENCE_NV,	 /* 8 dwords, GCR_CNTL bits, INT_CTXID */
	KFDSIG_PM4_FENCE_GC12_1, /* 8 dwords, GC 12.1 GCR bits and TEMPORAL */
};

/* Form of the SDMA FENCE header. */
enum kfdsig_sdma_fence_hdr {
	KFDSIG_SDMA_HDR_PLAIN = 0, /* op/sub_op only (SDMA 2.4 .. 4.4.x) */
	KFDSIG_SDMA_HDR_NV,	   /* + mtype/gcc/sys/snp/gpa/l2_policy (5.x) */
	KFDSIG_SDMA_HDR_V6,	   /* + llc_policy/cpv (6.x, 7.0) */
};

/* Value of kfdsig_target.ctx0_drop_mec_fw when the ISR never drops ctx 0. */
#define KFDSIG_CTX0_NEVER_DROPPED UINT32_MAX

struct kfdsig_target {
	const char *name;    /* LLVM processor name, "gfx90a" */
	const char *product; /* chip or product names, for people */
	/* KFD topology gfx_target_version: major*10000 + minor*100 + step. */
	uint32_t gfx_target_version;
	uint8_t gc_ip[3];   /* GC IP version major, minor, revision */
	uint8_t sdma_ip[3]; /* SDMA IP version major, minor, revision */
	enum kfdsig_gfx_level level;
	enum kfdsig_family family;
	enum kfdsig_irq_class irq_class;

	/* Event-id bits each interrupt source carries to KFD. */
	uint8_t cp_eop_id_bits;	   /* RELEASE_MEM / EOP context */
	uint8_t sdma_trap_id_bits; /* SDMA TRAP INT_CONTEXT */
	uint8_t sq_msg_id_bits;	   /* s_sendmsg(MSG_INTERRUPT) m0 bits */

	enum kfdsig_pm4_fence_form pm4_fence;
	enum kfdsig_sdma_fence_hdr sdma_fence_hdr;

	uint8_t doorbell_size;	  /* bytes per doorbell: 4 or 8 */
	uint8_t wptr_bits;	  /* 32: wrapped pointer, 64: monotonic */
	uint32_t doorbell_slice;  /* bytes of the per-process doorbell mmap */
	uint32_t eop_buffer_size; /* bytes KFD expects for compute queues */
	/* Minimum SDMA submission in dwords (0: none required). */
	uint16_t sdma_min_submit_dw;

	/*
	 * Drop rules of the kernel ISR that matter to a producer:
	 * a CP end-of-pipe interrupt with context id 0 is dropped when the MEC
	 * firmware version is >= ctx0_drop_mec_fw (0: always dropped,
	 * KFDSIG_CTX0_NEVER_DROPPED: never); and with drops_ctxid_bit24 an
	 * end-of-pipe context id with bit 24 set is dropped.
	 */
	uint32_t ctx0_drop_mec_fw;
	bool drops_ctxid_bit24;
	bool apu; /* integrated GPU */

	/*
	 * SET_SH_REG offset (dwords from 0x2c00) of COMPUTE_PGM_RSRC3, 0 when
	 * the generation has no such register (gfx8, gfx9 before gfx90a).
	 */
	uint16_t sh_compute_pgm_rsrc3;

	/*
	 * Context save area: VGPR bytes saved per CU (kfd_queue.c
	 * kfd_get_vgpr_size_per_cu). With the LDS and the control
	 * stack it sizes the CWSR buffer a compute queue must supply.
	 */
	uint32_t cwsr_vgpr_size;

	/*
	 * Bits of the GPU virtual address space: a slot address at or above
	 * 2^va_bits cannot be reached (40 on gfx8: gmc_v8_0.c gmc_v8_0_sw_init()
	 * amdgpu_vm_adjust_size(adev, 64, 9, 1, 40); 48 from gfx9: gmc_v9_0.c,
	 * gmc_v10_0.c, gmc_v11_0.c, gmc_v12_0.c *_sw_init() max_bits 48).
	 */
	uint8_t va_bits;

	/*
	 * Context save area: SGPR and HWREG bytes saved per CU (kfd_queue.c
	 * kfd_get_sgpr_size_per_cu(), kfd_get_hwreg_size_per_cu()); 0 means the
	 * kernel's default, 0x4000 and 0x1000 (0x8000 each on GC 12.1).
	 */
	uint32_t cwsr_sgpr_size;
	uint32_t cwsr_hwreg_size;

	/*
	 * XCCs one KFD node of this generation can span (SPX partition of
	 * the largest product): every XCC's CP runs a PM4 user queue's ring,
	 * so a PM4 fence must be predicated to one XCC (docs/multi-xcc.md).
	 * 1 where a node is one XCC. The device's own count is the topology's
	 * num_xcc (struct kfdsig_kfd_device), which the partition mode sets.
	 */
	uint8_t max_xcc;

	/*
	 * The first LLVM major release whose AMDGPU backend no longer accepts
	 * the target's name (-mcpu, --offload-arch): a compiler from that
	 * release on cannot build code for it. 0 while the newest LLVM
	 * kfdsig checks (22) still accepts it. The generation's facts stay
	 * valid: the kernel still runs such a device.
	 */
	uint8_t llvm_removed_in;

	/*
	 * amdgpu user-mode queues (kfdsig/userq.h). userq_fwm_max: entries one
	 * FENCE_WAIT_MULTI may carry, 0 when the target has no user-queue
	 * fence packets (PROTECTED_FENCE_SIGNAL, FENCE_WAIT_MULTI): the userq
	 * emitters refuse it. userq_mec_fw: MEC firmware version from which
	 * the kernel creates GFX/compute user queues on it, 0 when no kernel
	 * does. sdma_userq_fw: SDMA firmware version from which it creates
	 * SDMA user queues (the SDMA protected fence), 0 when none does.
	 */
	uint8_t userq_fwm_max;
	uint32_t userq_mec_fw;
	uint32_t sdma_userq_fw;

	/*
	 * The first LLVM major release whose AMDGPU backend accepts the
	 * target's name, 0 when every LLVM kfdsig checks (22) accepts it: an
	 * older compiler cannot build code for the target (the stub
	 * generator has no code object for it and the emitters that need one
	 * refuse it).
	 */
	uint8_t llvm_added_in;
};

/**
 * kfdsig_target_by_name() - look a target up by its LLVM processor name.
 * @name: "gfx90a"; a target-feature suffix ("gfx90a:xnack-") is ignored and
 *        case does not matter.
 *
 * Return: the record, or NULL with errno = ENOENT (unknown name) or EINVAL
 * (NULL or empty name).
 */
KFDSIG_API const struct kfdsig_target *kfdsig_target_by_name(const char *name);

/**
 * kfdsig_target_by_version() - look a target up by KFD gfx_target_version.
 *
 * Return: the record, or NULL with errno = ENOENT.
 */
KFDSIG_API const struct kfdsig_target *kfdsig_target_by_version(uint32_t gfx_target_version);

/** kfdsig_target_count() - number of records in the table. */
KFDSIG_API size_t kfdsig_target_count(void);

/**
 * kfdsig_target_at() - the i-th record, in ascending gfx_target_version.
 *
 * Return: the record, or NULL with errno = ERANGE when i is out of range.
 */
KFDSIG_API const struct kfdsig_target *kfdsig_target_at(size_t i);

/** kfdsig_family_name() - "gfx9", "gfx10.3", ...; "?" if out of range. */
KFDSIG_API const char *kfdsig_family_name(enum kfdsig_family family);

/** kfdsig_irq_class_name() - "cik", "v9", "v9_4_3", "v10", "v11", "v12_1". */
KFDSIG_API const char *kfdsig_irq_class_name(enum kfdsig_irq_class c);

/** kfdsig_pm4_fence_form_name() - "vi-7dw", "ai-8dw", "nv-gcr-8dw", "gc12.1-8dw". */
KFDSIG_API const char *kfdsig_pm4_fence_form_name(enum kfdsig_pm4_fence_form f);

/** kfdsig_sdma_fence_hdr_name() - "plain", "nv-mtype", "v6-mtype". */
KFDSIG_API const char *kfdsig_sdma_fence_hdr_name(enum kfdsig_sdma_fence_hdr h);

/**
 * kfdsig_target_drops_ctx0() - does the ISR drop a CP end-of-pipe
 * interrupt whose context id is 0?
 * @t:      the target
 * @mec_fw: the MEC firmware version (topology fw_version); pass UINT32_MAX
 *          when unknown, which answers for the newest firmware.
 */
KFDSIG_API bool kfdsig_target_drops_ctx0(const struct kfdsig_target *t, uint32_t mec_fw);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_TARGET_H */
