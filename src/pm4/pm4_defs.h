/* SPDX-License-Identifier: MIT */
/*
 * PM4 opcodes and field encodings: the one source of truth for the PM4
 * emitters and the PM4 field layouts (pm4_layout.c). Naming scheme
 * (docs/naming.md): PM4_<PACKET>_<FIELD>_S(x) shifts a value into place,
 * PM4_<PACKET>_<FIELD> is a one-bit flag.
 *
 * Sources: amdgpu vid.h (gfx8), soc15d.h (gfx9), nvd.h (gfx10-12); amdkfd
 * kfd_pm4_headers_vi.h / _ai.h; kfdtest pm4_pkt_struct_nv.h; the gfx_v8_0.c,
 * gfx_v9_0.c, gfx_v10_0.c, gfx_v11_0.c and gfx_v12_0.c ring emitters.
 */
#ifndef KFDSIG_PM4_DEFS_H
#define KFDSIG_PM4_DEFS_H

/* Type-3 header: [31:30] type 3, [29:16] body dwords - 1, [15:8] opcode,
 * [1] shader type (1 = compute), [0] predicate. All generations. */
#define PM4_TYPE3 3u
#define PM4_HDR(op, body_dw)                                 \
	((PM4_TYPE3 << 30) | (((uint32_t)(op)&0xffu) << 8) | \
	 ((((uint32_t)(body_dw)-1u) & 0x3fffu) << 16))
#define PM4_HDR_TYPE_G(h) ((h) >> 30)
#define PM4_HDR_COUNT_G(h) (((h) >> 16) & 0x3fffu)
#define PM4_HDR_OPCODE_G(h) (((h) >> 8) & 0xffu)

/* Opcodes (vid.h / soc15d.h / nvd.h PACKET3()). */
#define PM4_OP_NOP 0x10
#define PM4_OP_SET_SH_REG 0x76
#define PM4_OP_DISPATCH_DIRECT 0x15
#define PM4_OP_WRITE_DATA 0x37
#define PM4_OP_WAIT_REG_MEM 0x3c
#define PM4_OP_INDIRECT_BUFFER 0x3f
#define PM4_OP_EVENT_WRITE 0x46
#define PM4_OP_EVENT_WRITE_EOP 0x47
#define PM4_OP_RELEASE_MEM 0x49
#define PM4_OP_ACQUIRE_MEM 0x58

/* Event types, equal in every enum header (vid.h / soc15d.h / nvd.h PACKET3()). */
#define PM4_EVENT_CACHE_FLUSH_TS 0x04
#define PM4_EVENT_CS_PARTIAL_FLUSH 0x07
#define PM4_EVENT_CACHE_FLUSH_AND_INV_TS 0x14
#define PM4_EVENT_BOTTOM_OF_PIPE_TS 0x28
#define PM4_EVENT_INDEX_EOP 5

/* RELEASE_MEM / EVENT_WRITE_EOP dword 1, common part. */
#define PM4_EOP_EVENT_TYPE_S(x) ((uint32_t)(x) << 0)
#define PM4_EOP_EVENT_INDEX_S(x) ((uint32_t)(x) << 8)
/* gfx8/gfx9 TC action bits (vid.h, soc15d.h). */
#define PM4_EOP_TCL1_VOL_ACTION_EN (1u << 12)
#define PM4_EOP_TC_VOL_ACTION_EN (1u << 13)
#define PM4_EOP_TC_WB_ACTION_EN (1u << 15)
#define PM4_EOP_TCL1_ACTION_EN (1u << 16)
#define PM4_EOP_TC_ACTION_EN (1u << 17)
#define PM4_EOP_TC_NC_ACTION_EN (1u << 19) /* gfx9 */
#define PM4_EOP_TC_WC_ACTION_EN (1u << 20) /* gfx9 */
#define PM4_EOP_TC_MD_ACTION_EN (1u << 21) /* gfx9 */
#define PM4_EOP_TCL2_VOLATILE (1u << 24)   /* EVENT_WRITE_EOP, gfx8 */
#define PM4_EOP_ATC (1u << 24)		   /* RELEASE_MEM, gfx8 */
#define PM4_EOP_CACHE_POLICY_S(x) ((uint32_t)(x) << 25)
#define PM4_EOP_EXEC (1u << 28)
/* gfx10-12 GCR_CNTL bits (nvd.h). */
#define PM4_RM_GCR_GLM_WB (1u << 12)
#define PM4_RM_GCR_GLM_INV (1u << 13)
#define PM4_RM_GCR_GLV_INV (1u << 14)
#define PM4_RM_GCR_GL1_INV (1u << 15)
#define PM4_RM_GCR_GL2_US (1u << 16)
#define PM4_RM_GCR_GL2_RANGE (1u << 17)
#define PM4_RM_GCR_GL2_DISCARD (1u << 19)
#define PM4_RM_GCR_GL2_INV (1u << 20)
#define PM4_RM_GCR_GL2_WB (1u << 21)
#define PM4_RM_GCR_SEQ (1u << 22)
#define PM4_RM_CACHE_POLICY_BYPASS 3u /* nvd.h: 0 lru 1 stream 2 noa 3 bypass */
/* GC 12.1 RELEASE_MEM dword 1 (gfx_v12_1_pkt.h PACKET3_RELEASE_MEM_*): the
 * GCR bits moved; GL2_SCOPE [13:12], GCR_SEQ [23:22], GLV_WB 24, TEMPORAL
 * [26:25] (0 rt, 1 nt, 2 ht, 3 lu). gfx_v12_1_ring_emit_fence() writes
 * SEQ(1) | GLV_WB | GL2_WB | GL2_SCOPE(2) | TEMPORAL(3). */
#define PM4_RM121_GL2_SCOPE_S(x) ((uint32_t)(x) << 12)
#define PM4_RM121_GLV_INV (1u << 14)
#define PM4_RM121_GL2_US (1u << 16)
#define PM4_RM121_GL2_INV (1u << 20)
#define PM4_RM121_GL2_WB (1u << 21)
#define PM4_RM121_SEQ_S(x) ((uint32_t)(x) << 22)
#define PM4_RM121_GLV_WB (1u << 24)
#define PM4_RM121_TEMPORAL_S(x) ((uint32_t)(x) << 25)

/* RELEASE_MEM dword 2 (gfx8-12); EVENT_WRITE_EOP dword 3 (gfx8). */
#define PM4_RM_DST_SEL_S(x) ((uint32_t)(x) << 16)
#define PM4_RM_INT_SEL_S(x) ((uint32_t)(x) << 24)
#define PM4_RM_DATA_SEL_S(x) ((uint32_t)(x) << 29)

/* INT_SEL values (kfd_pm4_headers_vi.h / _ai.h). */
#define PM4_INT_SEL_NONE 0u
#define PM4_INT_SEL_INT_ONLY 1u
#define PM4_INT_SEL_INT_AFTER_WRITE_CONFIRM 2u
/* DATA_SEL values. */
#define PM4_DATA_SEL_NONE 0u
#define PM4_DATA_SEL_32 1u
#define PM4_DATA_SEL_64 2u
#define PM4_DATA_SEL_GPU_CLOCK \
	3u /* send_gpu_clock_counter (gfx_v8_0.c gfx_v8_0_ring_emit_fence_compute(), kfd_pm4_headers_vi.h; soc15d.h, kfd_pm4_headers_ai.h, gfx_v9_0.c gfx_v9_0_ring_emit_fence()) */

/* WRITE_DATA dword 1 (soc15d.h / nvd.h / vid.h WRITE_DATA). */
#define PM4_WD_DST_SEL_S(x) ((uint32_t)(x) << 8)
#define PM4_WD_DST_SEL_MEMORY 5u /* memory, async/direct */
#define PM4_WD_ONE_ADDR (1u << 16)
#define PM4_WD_CONFIRM (1u << 20)
#define PM4_WD_CACHE_POLICY_S(x) ((uint32_t)(x) << 25)
#define PM4_WD_ENGINE_SEL_S(x) ((uint32_t)(x) << 30)

/*
 * Compute dispatch (SET_SH_REG, DISPATCH_DIRECT). SET_SH_REG dword 1 is the
 * register's dword offset from PACKET3_SET_SH_REG_START 0x2c00 (vid.h,
 * soc15d.h, nvd.h). The COMPUTE_* registers sit at the same addresses on
 * gfx8-gfx12: gfx_8_0_d.h mmCOMPUTE_PGM_LO 0x2e0c; gc_9_0_offset.h 0x0e0c +
 * GC base 0x2000, as amdgpu gfx_v9_0.c programs them in its GPR-init
 * dispatch (SOC15_REG_OFFSET(GC, 0, mmCOMPUTE_PGM_LO) -
 * PACKET3_SET_SH_REG_START); Mesa sid.h R_00B8xx for gfx10-12. COMPUTE_PGM_RSRC3
 * differs per generation: kfdsig_target.sh_compute_pgm_rsrc3.
 */
#define PM4_SH_REG_START 0x2c00u
#define PM4_SH_COMPUTE_START_X 0x204u /* START_X/Y/Z, NUM_THREAD_X/Y/Z follow */
#define PM4_SH_COMPUTE_NUM_THREAD_X 0x207u
#define PM4_SH_COMPUTE_PGM_LO 0x20cu	/* PGM_HI follows */
#define PM4_SH_COMPUTE_PGM_RSRC1 0x212u /* PGM_RSRC2 follows */
#define PM4_SH_COMPUTE_RESOURCE_LIMITS 0x215u
#define PM4_SH_COMPUTE_TMPRING_SIZE 0x218u
#define PM4_SH_COMPUTE_USER_DATA_0 0x240u /* 16 user-data registers */
/* Type-3 header bit 1: shader type compute (kfdtest InitPM4Header). */
#define PM4_HDR_SHADER_COMPUTE (1u << 1)
/* COMPUTE_DISPATCH_INITIATOR (DISPATCH_DIRECT dword 4): gfx_v9_0.c
 * COMPUTE_SHADER_EN; kfdtest Dispatch.cpp adds CS_W32_EN (0x8000) for
 * wave32 from gfx10 on. */
#define PM4_DISPATCH_COMPUTE_SHADER_EN (1u << 0)
#define PM4_DISPATCH_FORCE_START_AT_000 (1u << 2)
#define PM4_DISPATCH_USE_THREAD_DIMENSIONS (1u << 5)
#define PM4_DISPATCH_CS_W32_EN (1u << 15)

/*
 * Padding (vid.h / soc15d.h / nvd.h PACKET3()): amdgpu fills rings with the single dword
 * PACKET3(NOP, 0x3FFF) = 0xFFFF1000 (kfdtest: 0xFFFF1002, shader type set);
 * a type-3 NOP whose count is 0x3FFF is one dword long. A type-2 packet
 * (0x80000000) is a one-dword filler.
 */
#define PM4_TYPE2_NOP 0x80000000u
#define PM4_NOP_FILLER_COUNT 0x3fffu
/* The one-dword filler: PACKET3(NOP, 0x3FFF) = 0xFFFF1000. */
#define PM4_NOP_FILLER PM4_HDR(PM4_OP_NOP, PM4_NOP_FILLER_COUNT + 1u)

/* Packets the decoder knows besides the fence packets (soc15d.h / nvd.h /
 * vid.h, same fields in all three unless noted). */
/* WAIT_REG_MEM, 7 dwords: DW1 function [2:0], mem_space [5:4], operation
 * [7:6], engine [9:8]; DW2/DW3 address or registers; DW4 reference; DW5
 * mask; DW6 poll interval [15:0]. */
#define PM4_WAIT_REG_MEM_DW 7
/* INDIRECT_BUFFER, 4 dwords: DW1 base [31:2], DW2 base_hi [15:0], DW3
 * ib_size [19:0] (dwords), pre_ena [21], valid [23], vmid [27:24],
 * cache_policy [29:28]. */
#define PM4_INDIRECT_BUFFER_DW 4
/* ACQUIRE_MEM: 7 dwords on gfx8/9 (coher_cntl, size, size_hi [7:0], base,
 * base_hi [23:0], poll interval), 8 from gfx10 with GCR_CNTL in DW7 (nvd.h
 * PACKET3_ACQUIRE_MEM_GCR_CNTL_*). */
#define PM4_ACQUIRE_MEM_DW_GFX9 7
#define PM4_ACQUIRE_MEM_DW_NV 8
/* EVENT_WRITE: 2 dwords, or 4 with an address (sample events, soc15d.h / nvd.h EVENT_WRITE). */
#define PM4_EVENT_WRITE_DW 2
/* SET_SH_REG: DW1 reg offset [15:0] from 0x2c00, then the values. */
#define PM4_SET_SH_REG_MIN_DW 3
/* DISPATCH_DIRECT, 5 dwords: dim_x, dim_y, dim_z, dispatch_initiator. */
#define PM4_DISPATCH_DIRECT_DW 5

#endif /* KFDSIG_PM4_DEFS_H */
