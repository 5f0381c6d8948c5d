/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's own generation facts (src/emu/emu_gen.c).
 *
 * The emulator is an independent reading of amdkfd and the GPU engines: it
 * never reads an emitter-facing field of struct kfdsig_target. A GPU is
 * described to it by its GC and SDMA IP versions and firmware versions, the
 * way the kernel sees a device (KFD_GC_VERSION, KFD_SDMA_VERSION,
 * mec_fw_version); everything below is derived from those by tables keyed
 * as the kernel keys them. test/emu_tables.c compares the result with the
 * generation table (src/core/target_table.c) for every target, so a wrong
 * fact on either side shows up as a disagreement.
 */
#ifndef KFDSIG_EMU_GEN_H
#define KFDSIG_EMU_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include <kfdsig/target.h>

/* SDMA packet forms the emulated SDMA engine accepts (bit set). */
#define EMU_SDMA_FORM_PLAIN 0x1 /* FENCE header: op/sub_op only */
#define EMU_SDMA_FORM_NV 0x2	/* + mtype/gcc/sys/snp/gpa/l2_policy */
#define EMU_SDMA_FORM_V6 0x4	/* + llc_policy/cpv */

struct emu_gen {
	uint8_t gc[3], sdma[3];
	uint32_t gfxv; /* gfx_target_version */
	uint32_t mec_fw, sdma_fw;

	/* ISA generation, for the emulated shader unit (labels only). */
	enum kfdsig_gfx_level level;
	enum kfdsig_family family;

	/* An APU: amdgpu sets AMD_IS_APU (emu_gen.c is_apu()). */
	bool apu;

	/* The interrupt handler class and what it keeps of each source. */
	enum kfdsig_irq_class irq;
	uint8_t eop_bits, sdma_bits, sq_bits;
	/* CP EOP with context id 0 dropped from this MEC firmware on
	 * (0: always; KFDSIG_CTX0_NEVER_DROPPED: never). */
	uint32_t ctx0_drop_mec_fw;
	bool drops_bit24; /* CP EOP context id bit 24 dropped */

	/* CP: dwords of a RELEASE_MEM (header included) and whether it has an
	 * INT_CTXID dword. */
	uint8_t release_mem_dw;
	bool release_mem_ctxid;

	/* SDMA: the FENCE header forms accepted, WRITE_LINEAR count is
	 * dwords - 1 (SDMA 4+) instead of dwords. */
	uint8_t sdma_forms;
	bool sdma_count_minus1;

	/* Queues and doorbells. */
	uint8_t doorbell_size;	  /* bytes per doorbell */
	uint8_t wptr_bits;	  /* 32: wrapped, 64: monotonic */
	uint32_t doorbell_slice;  /* bytes of the process doorbell slice */
	uint32_t eop_buffer_size; /* bytes KFD expects for compute queues */
	uint32_t cwsr_vgpr_size;  /* VGPR bytes saved per CU */
	uint32_t cwsr_sgpr_size;  /* SGPR bytes saved per CU */
	uint32_t cwsr_hwreg_size; /* HWREG bytes saved per CU */
	uint8_t va_bits;	  /* GPU virtual address bits */
};

/*
 * emu_gen_derive() - the facts of a GPU with these IP and firmware versions.
 * Return: 0, or -ENOENT (set_error) when the kernel would not probe a
 * GPU with this GC version. @gfxv is the topology gfx_target_version, which
 * the kernel itself keys a few queue sizes on (kfd_queue.c).
 */
int emu_gen_derive(struct emu_gen *g, const uint8_t gc[3], const uint8_t sdma[3], uint32_t gfxv,
		   uint32_t mec_fw, uint32_t sdma_fw);

/* The topology's debug capability bits and debug_prop of a GPU
 * (kfd_topology.c kfd_topology_set_capabilities()). */
void emu_gen_debug_caps(const struct emu_gen *g, uint32_t *cap, uint32_t *debug_prop);

/* The doorbell type, watch point and AQL double-map capability bits of a
 * GPU node (kfd_topology.c kfd_topology_add_device() and node_show()). */
uint32_t emu_gen_node_caps(const struct emu_gen *g);

/* A gfx8 chip's address configuration (emu_tile.c): GB_ADDR_CONFIG,
 * MC_ARB_RAMCFG and the GB_TILE_MODE0..31 / GB_MACROTILE_MODE0..15 values
 * amdgpu programs. */
struct emu_tile_config {
	uint32_t gfxv;
	uint32_t gb_addr_config, mc_arb_ramcfg;
	const uint32_t *tile;  /* 32 */
	const uint32_t *macro; /* 16 */
};

/* The configuration of the gfx8 chip with this gfx_target_version, NULL
 * for a GPU without tile tables (GC 9 and later). */
const struct emu_tile_config *emu_tile_config(uint32_t gfxv);

/* The GPU's GWS entries (kfd_device.c kfd_gws_init()), 0 without GWS. */
uint32_t emu_gen_gws_size(const struct emu_gen *g);

/*
 * The wave launch trap override of a GPU (kfd2kgd
 * validate_trap_override_request()): *@supported is and'ed with the
 * KFD_DBG_TRAP_MASK_* traps the GPU supports; return 0, or -EINVAL /
 * -EPERM for an override @mode the GPU does not take.
 */
int emu_gen_trap_override(const struct emu_gen *g, uint32_t mode, uint32_t *supported);

/*
 * GC 12 HW_REG_HW_ID1 of a wave of workgroup @group on a GPU of @nse SEs
 * of @nsa SAs of @nwgp WGPs, under CU mask @mask of @bits bits (NULL:
 * every CU), as SET_CU_MASK maps it (emu_gen.c).
 */
uint32_t emu_gen_hw_id1(const uint32_t *mask, uint32_t bits, unsigned nse, unsigned nsa,
			unsigned nwgp, uint64_t group);

/* Does the ISR drop a CP end-of-pipe interrupt with context id 0? */
bool emu_gen_drops_ctx0(const struct emu_gen *g);

/*
 * The IH ring entry's context words of an SQ interrupt sent by
 * s_sendmsg(MSG_INTERRUPT) with @m0, as SQ_INTERRUPT_WORD_WAVE_CTXID of a
 * normal wave (PRIV 0, ENCODING 1 "INST", location fields 0) in the layout
 * the generation's amdkfd handler decodes (kfd_int_process_v9.c,
 * kfd_int_process_v10.c, kfd_int_process_v11.c; cik_event_interrupt.c reads
 * 8 bits). Return 0, or -EINVAL for a NULL argument.
 */
int emu_gen_sq_iv_context(const struct emu_gen *g, uint32_t m0, uint32_t *ctx0, uint32_t *ctx1);

#endif
