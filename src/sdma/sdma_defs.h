/* SPDX-License-Identifier: MIT */
/*
 * SDMA opcodes, field values and packet lengths for the SDMA emitters
 * (sdma_emit.c), the field layouts (sdma_layout.c) and the decoder; the
 * field positions themselves are in sdma_fields.def, once.
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

#include "core/fields.h"

/*
 * Field positions: sdma_fields.def, one line per field. Each becomes
 * SDMA_F_<packet>_<name>_DW / _SHIFT / _WIDTH; SDMA_PUT() shifts a value
 * into its field, SDMA_BIT() is a one-bit field set, SDMA_GET() extracts.
 */
#define SDMA_FIELD(pkt, name, dw, shift, width) FIELD_CONSTS(SDMA_F_, pkt, name, dw, shift, width)
enum {
#include "sdma/sdma_fields.def"
};
#undef SDMA_FIELD

#define SDMA_DW(pkt, name) FIELD_DW(SDMA_F_, pkt, name)
#define SDMA_MASK(pkt, name) FIELD_MASK(SDMA_F_, pkt, name)
#define SDMA_PUT(pkt, name, x) FIELD_PUT(SDMA_F_, pkt, name, x)
#define SDMA_BIT(pkt, name) SDMA_PUT(pkt, name, 1u)
#define SDMA_GET(pkt, name, v) FIELD_GET(SDMA_F_, pkt, name, v)

/* Common header, all versions (*_sdma_pkt_open.h). */
#define SDMA_HDR(o, s) (SDMA_PUT(HDR, op, o) | SDMA_PUT(HDR, sub_op, s))
#define SDMA_HDR_OP_G(h) SDMA_GET(HDR, op, h)
#define SDMA_HDR_SUB_OP_G(h) SDMA_GET(HDR, sub_op, h)

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
 * The protected fence of an SDMA user queue: a one-dword FENCE header with
 * sub-op 3 and nothing after it; the engine writes the queue's
 * kernel-owned fence slot. IGT lib/amdgpu/amd_sdma.h:
 * SDMA_OP_PROTECTED_FENCE 5 with SDMA7_SUB_OP_PROTECTED_FENCE 3 (SDMA6 1
 * with older firmware); kernel commit 2d41a4bfee6e ("unification of the
 * SDMA_SUBOP_PROTECTED_FENCE_SIGNAL value with SDMA 7.x") makes SDMA 6
 * firmware new enough for user queues take SDMA 7's. The sub-op has no
 * kernel header define: UNVERIFIED beyond IGT and that commit.
 */
#define SDMA_SUBOP_PROTECTED_FENCE 3
#define SDMA_SUBOP_PROTECTED_FENCE_OLD_SDMA6 1
#define SDMA_PROTECTED_FENCE_DW 1

/*
 * NOP (*_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp): a zero
 * dword is a one-dword NOP. Burst form: count = N - 1 followed by N - 1
 * ignored dwords. amdgpu only bursts when
 * the firmware allows it (feature_version >= 20 on CIK/2.4/3.0,
 * amdgpu_sdma.c burst_nop), so kfdsig's padding defaults to one-dword NOPs.
 */
#define SDMA_NOP_COUNT_MAX SDMA_MASK(NOP, count)
/* Longest burst NOP: one header and 0x3fff ignored dwords. */
#define SDMA_NOP_BURST_MAX_DW (SDMA_NOP_COUNT_MAX + 1u)

/*
 * FENCE, 4 dwords (*_sdma_pkt_open.h SDMA_PKT_FENCE): a dword-aligned
 * address and 32-bit data; header bits from navi10 (SDMA 5) on.
 */
#define SDMA_FENCE_DW 4
/* MTYPE 3 = uncached: sdma_v5_0/v5_2/v6_0/v7_0_ring_emit_fence. */
#define SDMA_MTYPE_UC 3u

/* TRAP, 2 dwords (*_sdma_pkt_open.h SDMA_PKT_TRAP); KFD masks the context
 * to INT_CONTEXT's 28 bits. */
#define SDMA_TRAP_DW 2
#define SDMA_TRAP_INT_CONTEXT_MASK SDMA_MASK(TRAP, int_context)

/*
 * POLL_REGMEM, 6 dwords (*_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr
 * amd_blit_sdma.cpp): address, reference value, mask, interval and retry
 * count.
 */
#define SDMA_POLL_REGMEM_DW 6

/*
 * WRITE linear (untiled): destination, count, then the data.
 * The count is the number of data dwords on SDMA 2.4/3.x and that number
 * minus one from SDMA 4.0 on: sdma_v3_0_ring_test_ring writes
 * SDMA_PKT_WRITE_UNTILED_DW_3_COUNT(1) for one dword, sdma_v4_0 onwards
 * COUNT(0). Field width 20 bits (vega10 mask 0x000FFFFF).
 */
#define SDMA_WRITE_HDR_DW (SDMA_DW(WRITE, count) + 1)
#define SDMA_WRITE_COUNT_WIDTH SDMA_F_WRITE_count_WIDTH

/*
 * COPY linear, 7 dwords: the count is bytes on 3.x, bytes - 1 from 4.0, as
 * sdma_v3_0/v4_0_emit_copy_buffer write it.
 */
#define SDMA_COPY_LINEAR_DW 7

/* TIMESTAMP, 3 dwords for every sub-op: an address or initial value. */
#define SDMA_TIMESTAMP_DW 3

/*
 * Packets amdgpu writes on its own SDMA rings. kfdsig never emits them, but
 * a kernel ring dump is full of them and their data dwords (an IB base is
 * 32-byte aligned, a register offset is small) would otherwise be read as
 * NOP headers whose count swallows the packets that follow. Lengths are
 * fixed on every SDMA IP that has the packet (amdgpu-dkms 6.8.5 amdgpu):
 *   INDIRECT, 6 dwords (sdma_v2_4/v3_0/v4_0/v4_4_2/v5_0/v5_2/v6_0/v7_0_
 *     ring_emit_ib): vmid, IB base, IB size, CSA address (0 before SDMA 5).
 *   SRBM_WRITE, 3 dwords (*_ring_emit_wreg, *_ring_emit_hdp_invalidate):
 *     byte enables, register, value.
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
