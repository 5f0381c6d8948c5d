/* SPDX-License-Identifier: MIT */
/*
 * PM4 opcodes, field values and packet lengths for the PM4 emitters, the
 * field layouts (pm4_layout.c) and the decoder; the field positions
 * themselves are in pm4_fields.def, once.
 *
 * Sources: amdgpu vid.h (gfx8), soc15d.h (gfx9), nvd.h (gfx10-12); amdkfd
 * kfd_pm4_headers_vi.h / _ai.h; kfdtest pm4_pkt_struct_nv.h; the gfx_v8_0.c,
 * gfx_v9_0.c, gfx_v10_0.c, gfx_v11_0.c and gfx_v12_0.c ring emitters.
 */
#ifndef KFDSIG_PM4_DEFS_H
#define KFDSIG_PM4_DEFS_H

#include <stdint.h>

#include <kfdsig/pm4.h>

#include "core/fields.h"

/*
 * Field positions: pm4_fields.def, one line per field. Each becomes
 * PM4_F_<packet>_<name>_DW / _SHIFT / _WIDTH; PM4_PUT() shifts a value into
 * its field, PM4_BIT() is a one-bit field set, PM4_GET() extracts.
 */
#define PM4_FIELD(pkt, name, dw, shift, width) FIELD_CONSTS(PM4_F_, pkt, name, dw, shift, width)
enum {
#include "pm4/pm4_fields.def"
};
#undef PM4_FIELD

#define PM4_DW(pkt, name) FIELD_DW(PM4_F_, pkt, name)
#define PM4_MASK(pkt, name) FIELD_MASK(PM4_F_, pkt, name)
#define PM4_PUT(pkt, name, x) FIELD_PUT(PM4_F_, pkt, name, x)
#define PM4_BIT(pkt, name) PM4_PUT(pkt, name, 1u)
#define PM4_GET(pkt, name, v) FIELD_GET(PM4_F_, pkt, name, v)

/* Type-3 header (all generations): type 3, body dwords - 1, opcode. */
#define PM4_TYPE3 3u
#define PM4_HDR(op, body_dw)                                        \
	(PM4_PUT(HDR, type, PM4_TYPE3) | PM4_PUT(HDR, opcode, op) | \
	 PM4_PUT(HDR, count, (uint32_t)(body_dw)-1u))
#define PM4_HDR_TYPE_G(h) PM4_GET(HDR, type, h)
#define PM4_HDR_COUNT_G(h) PM4_GET(HDR, count, h)
#define PM4_HDR_OPCODE_G(h) PM4_GET(HDR, opcode, h)
/* Header shader type: compute (kfdtest InitPM4Header). */
#define PM4_HDR_SHADER_COMPUTE PM4_BIT(HDR, shader_type)

/* Opcodes (vid.h / soc15d.h / nvd.h PACKET3()). */
#define PM4_OP_NOP 0x10
#define PM4_OP_SET_SH_REG 0x76
#define PM4_OP_DISPATCH_DIRECT 0x15
#define PM4_OP_WRITE_DATA 0x37
#define PM4_OP_WAIT_REG_MEM 0x3c
#define PM4_OP_INDIRECT_BUFFER 0x3f
#define PM4_OP_PRED_EXEC 0x23
#define PM4_OP_EVENT_WRITE 0x46
#define PM4_OP_EVENT_WRITE_EOP 0x47
#define PM4_OP_RELEASE_MEM 0x49
#define PM4_OP_ACQUIRE_MEM 0x58
/* User-mode queue packets (pm4_fields.def, kfdsig/userq.h). */
#define PM4_OP_HDP_FLUSH 0x95
#define PM4_OP_PROTECTED_FENCE_SIGNAL 0xd0
#define PM4_OP_FENCE_WAIT_MULTI 0xd1

/* Event types, equal in every enum header (vid.h / soc15d.h / nvd.h PACKET3()). */
#define PM4_EVENT_CACHE_FLUSH_TS 0x04
#define PM4_EVENT_CS_PARTIAL_FLUSH 0x07
#define PM4_EVENT_CACHE_FLUSH_AND_INV_TS 0x14
#define PM4_EVENT_BOTTOM_OF_PIPE_TS 0x28
#define PM4_EVENT_INDEX_EOP 5

/* RELEASE_MEM cache policy from gfx10 (nvd.h: 0 lru 1 stream 2 noa 3 bypass). */
#define PM4_RM_CACHE_POLICY_BYPASS 3u

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

/* WRITE_DATA DST_SEL memory, async/direct (soc15d.h / nvd.h / vid.h WRITE_DATA). */
#define PM4_WD_DST_SEL_MEMORY 5u

/*
 * Compute dispatch (SET_SH_REG, DISPATCH_DIRECT). SET_SH_REG dword 1 is the
 * register's dword offset from PACKET3_SET_SH_REG_START 0x2c00 (vid.h,
 * soc15d.h, nvd.h). The COMPUTE_* registers sit at the same addresses on
 * gfx8-gfx12: gfx_8_0_d.h mmCOMPUTE_PGM_LO 0x2e0c; gc_9_0_offset.h 0x0e0c +
 * GC base 0x2000, as amdgpu gfx_v9_0.c programs them in its GPR-init
 * dispatch (SOC15_REG_OFFSET(GC, 0, mmCOMPUTE_PGM_LO) -
 * PACKET3_SET_SH_REG_START); Mesa sid.h R_00B8xx for gfx10-12. COMPUTE_PGM_RSRC3
 * differs per generation: kfdsig_target.sh_compute_pgm_rsrc3. GC 12.1 moves
 * COMPUTE_TMPRING_SIZE to 0x216 (gc_12_1_0_offset.h, kfdsig/pm4.h):
 * pm4_sh_tmpring().
 */
#define PM4_SH_REG_START 0x2c00u
#define PM4_SH_COMPUTE_START_X 0x204u /* START_X/Y/Z, NUM_THREAD_X/Y/Z follow */
#define PM4_SH_COMPUTE_NUM_THREAD_X 0x207u
#define PM4_SH_COMPUTE_PGM_LO 0x20cu	/* PGM_HI follows */
#define PM4_SH_COMPUTE_PGM_RSRC1 0x212u /* PGM_RSRC2 follows */
#define PM4_SH_COMPUTE_RESOURCE_LIMITS 0x215u
#define PM4_SH_COMPUTE_TMPRING_SIZE 0x218u
#define PM4_SH_COMPUTE_USER_DATA_0 0x240u /* 16 user-data registers */
#define PM4_SH_COMPUTE_TMPRING_SIZE_GC12_1 0x216u
/* COMPUTE_TMPRING_SIZE's SH offset on @t: GC 12.1 (the GC 12.1 packet
 * forms, pm4_fence) has its own. */
#define pm4_sh_tmpring(t)                                                               \
	((t)->pm4_fence == KFDSIG_PM4_FENCE_GC12_1 ? PM4_SH_COMPUTE_TMPRING_SIZE_GC12_1 \
						   : PM4_SH_COMPUTE_TMPRING_SIZE)

/*
 * COMPUTE_TMPRING_SIZE, composed once for the PM4 kernel dispatch
 * (pm4_kernel.c) and the AQL queue's amd_queue_t (kfd/kfd_queue.c); the
 * field widths and units are kfdsig/pm4.h's.
 *
 * pm4_tmpring_wave_bytes(): a wave's @bytes of scratch rounded up to the
 * WAVESIZE unit of @level (the caller checks the result fits WAVESIZE).
 *
 * pm4_tmpring_size(): the register for a scratch of @size bytes in slots
 * of @wave_bytes (from pm4_tmpring_wave_bytes()) on a node of @num_se
 * shader engines (0: not known). WAVES: the slots the scratch holds.
 * From gfx11 on the hardware reads WAVES per shader engine (Mesa
 * src/amd/common ac_get_scratch_tmpring_size(): "WAVES is per SE" from
 * GFX11, radv radv_emit_compute_scratch() the same; ROCr
 * amd_aql_queue.cpp FillComputeTmpRingSize_Gfx11()/_Gfx12(), ISA major 11
 * and every major 12, GC 12.1 included: num_waves /= NumShaderBanks), so
 * the total divided by @num_se, rounded down: the engines' slots
 * together stay within @size; without @num_se no wave can be given a
 * slot safely. Before gfx11 WAVES is the total, which ROCr's
 * FillComputeTmpRingSize() asserts is a multiple of the shader engines
 * of an XCC ("Must be divisible by #SEs": WAVES % (NumShaderBanks /
 * NumXcc)), as the SPI shares the slots among them: rounded down to a
 * multiple of @num_se when the caller knows it (@num_se is then one XCC's
 * engines), the total as before when it does not (0). WAVES is at most
 * KFDSIG_PM4_TMPRING_WAVES_MAX. Return: the register, or 0 when WAVES
 * would be 0 (no wave gets a slot: the caller refuses).
 */
static inline uint32_t pm4_tmpring_wave_bytes(enum kfdsig_gfx_level level, uint64_t bytes)
{
	uint32_t unit = KFDSIG_PM4_TMPRING_UNIT(level);

	return (uint32_t)((bytes + unit - 1) / unit * unit);
}

static inline uint32_t pm4_tmpring_size(enum kfdsig_gfx_level level, uint64_t size,
					uint32_t wave_bytes, uint32_t num_se)
{
	uint64_t waves = size / wave_bytes;

	if (level >= KFDSIG_GFX11)
		waves = num_se ? waves / num_se : 0;
	if (waves > KFDSIG_PM4_TMPRING_WAVES_MAX)
		waves = KFDSIG_PM4_TMPRING_WAVES_MAX;
	if (level < KFDSIG_GFX11 && num_se)
		waves -= waves % num_se;
	if (!waves)
		return 0;
	return (uint32_t)waves | wave_bytes / KFDSIG_PM4_TMPRING_UNIT(level)
					 << KFDSIG_PM4_TMPRING_WAVESIZE_SHIFT;
}

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

/* Lengths of the packets the decoder knows besides the fence packets
 * (soc15d.h / nvd.h / vid.h, the same in all three unless noted; their
 * fields are in pm4_fields.def). */
#define PM4_WAIT_REG_MEM_DW 7
#define PM4_INDIRECT_BUFFER_DW 4
#define PM4_PRED_EXEC_DW 2
/* ACQUIRE_MEM: 7 dwords on gfx8/9, 8 from gfx10 with GCR_CNTL in dword 7. */
#define PM4_ACQUIRE_MEM_DW_GFX9 7
#define PM4_ACQUIRE_MEM_DW_NV 8
/* EVENT_WRITE: 2 dwords, or 4 with an address (sample events). */
#define PM4_EVENT_WRITE_DW 2
/* SET_SH_REG: header, register offset, at least one value. */
#define PM4_SET_SH_REG_MIN_DW 3
/* DISPATCH_DIRECT: dim_x, dim_y, dim_z, dispatch_initiator. */
#define PM4_DISPATCH_DIRECT_DW 5
/* PROTECTED_FENCE_SIGNAL and HDP_FLUSH: header and one dword of 0;
 * FENCE_WAIT_MULTI: header, control, 4 dwords per entry. */
#define PM4_PROTECTED_FENCE_SIGNAL_DW 2
#define PM4_HDP_FLUSH_DW 2
#define PM4_FWM_ENTRY_DW 4
#define PM4_FWM_DW(n) (2u + PM4_FWM_ENTRY_DW * (n))

/* The name of the compute register at SET_SH_REG offset @off in the
 * register map of SET_SH_REG layout @d (kfdsig_pm4_packet_desc()), or
 * NULL when unnamed (pm4_layout.c). */
struct kfdsig_packet_desc;
const char *pm4_sh_reg_name(const struct kfdsig_packet_desc *d, uint32_t off);

#endif /* KFDSIG_PM4_DEFS_H */
