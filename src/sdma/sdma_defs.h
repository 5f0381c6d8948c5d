/* SPDX-License-Identifier: MIT */
/*
 * SDMA opcodes and field encodings: the one source of truth for the SDMA
 * emitters (sdma_emit.c), the field layouts (sdma_layout.c) and the
 * decoder. Naming scheme as pm4_defs.h: SDMA_<PACKET>_<FIELD>_S(x) shifts a
 * value into place, _G(x) extracts it, a bare SDMA_<PACKET>_<FIELD> is a
 * one-bit flag.
 *
 * Sources: amdgpu
 * iceland_sdma_pkt_open.h (SDMA 2.4), tonga_sdma_pkt_open.h (3.x),
 * vega10_sdma_pkt_open.h (4.x), navi10_sdma_pkt_open.h (5.x),
 * sdma_v6_0_0_pkt_open.h (6.x and 7.0, which has no header of its own).
 * Valid generations: every SDMA IP of the generation table (3.0 .. 7.0);
 * 2.4 encodes like 3.0.
 */
#ifndef KFDSIG_SDMA_DEFS_H
#define KFDSIG_SDMA_DEFS_H

#include <stdint.h>

/* Common header, all versions (*_sdma_pkt_open.h): op [7:0], sub_op [15:8]. */
#define SDMA_HDR(op, sub_op) (((uint32_t)(op)&0xffu) | (((uint32_t)(sub_op)&0xffu) << 8))
#define SDMA_HDR_OP_G(h) ((h)&0xffu)
#define SDMA_HDR_SUB_OP_G(h) (((h) >> 8) & 0xffu)

/* Opcodes (*_sdma_pkt_open.h; same numbers in every *_sdma_pkt_open.h). */
#define SDMA_OP_NOP 0
#define SDMA_OP_COPY 1
#define SDMA_OP_WRITE 2
#define SDMA_OP_INDIRECT 4
#define SDMA_OP_FENCE 5
#define SDMA_OP_TRAP 6
#define SDMA_OP_SEM 7
#define SDMA_OP_POLL_REGMEM 8
#define SDMA_OP_COND_EXE 9
#define SDMA_OP_ATOMIC 10
#define SDMA_OP_CONST_FILL 11
#define SDMA_OP_PTEPDE 12
#define SDMA_OP_TIMESTAMP 13
#define SDMA_OP_SRBM_WRITE 14
#define SDMA_OP_PRE_EXE 15
#define SDMA_OP_GCR_REQ 17 /* navi10 and v6 headers only (SDMA 5.0 on) */

#define SDMA_SUBOP_COPY_LINEAR 0
#define SDMA_SUBOP_WRITE_LINEAR 0
#define SDMA_SUBOP_TIMESTAMP_SET 0
#define SDMA_SUBOP_TIMESTAMP_GET 1
#define SDMA_SUBOP_TIMESTAMP_GET_GLOBAL 2

/*
 * NOP (*_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp): a zero dword is a one-dword NOP. Burst form: count
 * [29:16] = N - 1 followed by N - 1 ignored dwords. amdgpu only bursts when
 * the firmware allows it (feature_version >= 20 on CIK/2.4/3.0,
 * amdgpu_sdma.c burst_nop), so kfdsig's padding defaults to one-dword NOPs.
 */
#define SDMA_NOP_COUNT_S(x) (((uint32_t)(x)&0x3fffu) << 16)
#define SDMA_NOP_COUNT_G(h) (((h) >> 16) & 0x3fffu)
#define SDMA_NOP_COUNT_MAX 0x3fffu
/* Longest burst NOP: one header and 0x3fff ignored dwords. */
#define SDMA_NOP_BURST_MAX_DW (SDMA_NOP_COUNT_MAX + 1u)

/*
 * FENCE, 4 dwords (*_sdma_pkt_open.h SDMA_PKT_FENCE): DW1 addr[31:0] (dword aligned), DW2
 * addr[63:32], DW3 32-bit data. Header bits exist from navi10 (SDMA 5) on:
 * mtype [18:16], gcc [19], sys [20], snp [22], gpa [23], l2_policy [25:24];
 * sdma_v6_0_0 adds llc_policy [26] and cpv [28]. vega10 and older headers
 * have only op/sub_op.
 */
#define SDMA_FENCE_DW 4
#define SDMA_FENCE_MTYPE_S(x) (((uint32_t)(x)&7u) << 16)
#define SDMA_FENCE_GCC (1u << 19)
#define SDMA_FENCE_SYS (1u << 20)
#define SDMA_FENCE_SNP (1u << 22)
#define SDMA_FENCE_GPA (1u << 23)
#define SDMA_FENCE_L2_POLICY_S(x) (((uint32_t)(x)&3u) << 24)
#define SDMA_FENCE_LLC_POLICY (1u << 26) /* v6 header */
#define SDMA_FENCE_CPV (1u << 28)	 /* v6 header */
/* MTYPE 3 = uncached: sdma_v5_0/v5_2/v6_0/v7_0_ring_emit_fence. */
#define SDMA_MTYPE_UC 3u

/* TRAP, 2 dwords (*_sdma_pkt_open.h SDMA_PKT_TRAP): DW1 INT_CONTEXT [27:0]; KFD masks 28 bits. */
#define SDMA_TRAP_DW 2
#define SDMA_TRAP_INT_CONTEXT_MASK 0x0fffffffu

/*
 * POLL_REGMEM, 6 dwords (*_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp): header hdp_flush [26], func [30:28],
 * mem_poll [31]; v6 header also cache_policy [22:20], cpv [24]. DW1/DW2
 * address, DW3 reference value, DW4 mask, DW5 interval [15:0] and
 * retry_count [27:16].
 */
#define SDMA_POLL_REGMEM_DW 6
#define SDMA_POLL_HDP_FLUSH (1u << 26)
#define SDMA_POLL_FUNC_S(x) (((uint32_t)(x)&7u) << 28)
#define SDMA_POLL_MEM_POLL (1u << 31)

/*
 * WRITE linear (untiled): DW1/DW2 destination, DW3 count, then the data.
 * The count is the number of data dwords on SDMA 2.4/3.x and that number
 * minus one from SDMA 4.0 on: sdma_v3_0_ring_test_ring writes
 * SDMA_PKT_WRITE_UNTILED_DW_3_COUNT(1) for one dword, sdma_v4_0 onwards
 * COUNT(0). Field width 20 bits (vega10 mask 0x000FFFFF).
 */
#define SDMA_WRITE_HDR_DW 4
#define SDMA_WRITE_COUNT_WIDTH 20

/*
 * COPY linear, 7 dwords: header tmz [18], backwards [25] (navi10+),
 * broadcast [27]; DW1 count [21:0] (bytes on 3.x, bytes - 1 from 4.0, as
 * sdma_v3_0/v4_0_emit_copy_buffer write it); DW2 dst_sw [17:16], src_sw
 * [25:24]; DW3/DW4 source, DW5/DW6 destination.
 */
#define SDMA_COPY_LINEAR_DW 7

/* TIMESTAMP, 3 dwords for every sub-op: DW1/DW2 address or initial value. */
#define SDMA_TIMESTAMP_DW 3

/*
 * Packets amdgpu writes on its own SDMA rings. kfdsig never emits them, but
 * a kernel ring dump is full of them and their data dwords (an IB base is
 * 32-byte aligned, a register offset is small) would otherwise be read as
 * NOP headers whose count swallows the packets that follow. Lengths are
 * fixed on every SDMA IP that has the packet (amdgpu-dkms 6.8.5 amdgpu):
 *   INDIRECT, 6 dwords (sdma_v2_4/v3_0/v4_0/v4_4_2/v5_0/v5_2/v6_0/v7_0_
 *     ring_emit_ib): header vmid [19:16]; IB base lo, hi; IB size in dwords
 *     [19:0]; CSA address lo, hi (0 before SDMA 5).
 *   SRBM_WRITE, 3 dwords (*_ring_emit_wreg, *_ring_emit_hdp_invalidate):
 *     header byte_en [31:28]; register; value.
 *   GCR_REQ, 5 dwords, SDMA 5.0 on (sdma_v5_0/v5_2/v6_0/v7_0_ring_emit_
 *     mem_sync): four payload dwords (cache-control bits and an address
 *     range, all 0 = whole cache in amdgpu's use).
 */
#define SDMA_INDIRECT_DW 6
#define SDMA_SRBM_WRITE_DW 3
#define SDMA_GCR_REQ_DW 5

/* True when this SDMA IP counts "N - 1" (4.0 on), see WRITE and COPY. */
#define SDMA_COUNT_IS_MINUS_ONE(sdma_major) ((sdma_major) >= 4)

#endif /* KFDSIG_SDMA_DEFS_H */
