/* SPDX-License-Identifier: MIT */
/*
 * Field layouts of the PM4 packets kfdsig writes, per generation form, from
 * the same definitions as the emitters (pm4_defs.h; vid.h / soc15d.h / nvd.h PACKET3(); vid.h, gfx_v8_0.c gfx_v8_0_ring_emit_fence_gfx(); gfx_v8_0.c gfx_v8_0_ring_emit_fence_compute(), kfd_pm4_headers_vi.h; soc15d.h, kfd_pm4_headers_ai.h, gfx_v9_0.c gfx_v9_0_ring_emit_fence(); nvd.h, gfx_v10_0.c / gfx_v11_0.c / gfx_v12_0.c *_ring_emit_fence(); soc15d.h / nvd.h EVENT_WRITE; soc15d.h / nvd.h / vid.h WRITE_DATA). The CLI
 * annotates with them and the decoder reads packets through them.
 */
#include <errno.h>

#include "core/internal.h"
#include "core/layout.h"
#include "pm4/pm4_defs.h"

static const char *const int_sel_names[] = {
	"none",
	"interrupt_only",
	"interrupt_after_write_confirm",
	"data_after_write_confirm",
	"unconditionally_send_int_ctxid",
	"conditionally_send_int_ctxid_32",
	"conditionally_send_int_ctxid_64",
};
static const char *const data_sel_names[] = {
	"none",		  "32bit_low", "64bit", "gpu_clock_counter", "perfcounter_or_sys_counter",
	"store_gds_data",
};
static const char *const dst_sel_names[] = {
	"memory",
	"tc_l2",
	"queue_wptr_register",
	"queue_wptr_poll_mask",
};
static const char *const event_index_names[] = {
	"other",	 "zpass_done",	"sample_pipelinestat", "sample_streamoutstat",
	"partial_flush", "end_of_pipe", "end_of_shader",
};
static const char *const wd_dst_sel_names[] = {
	"register", "memory_sync", "tc_l2", "gds", "reserved", "memory", "memory_mapped_adc",
};
static const char *const engine_sel_names[] = { "me", "pfp", "ce" };

/* Event types are sparse; name the ones the fence packets use. */
static const char *const event_type_names[0x29] = {
	[PM4_EVENT_CACHE_FLUSH_TS] = "CACHE_FLUSH_TS",
	[PM4_EVENT_CS_PARTIAL_FLUSH] = "CS_PARTIAL_FLUSH",
	[PM4_EVENT_CACHE_FLUSH_AND_INV_TS] = "CACHE_FLUSH_AND_INV_TS",
	[PM4_EVENT_BOTTOM_OF_PIPE_TS] = "BOTTOM_OF_PIPE_TS",
};

#define HEADER_FIELDS                                                             \
	F("predicate", 0, 0, 1), F("shader_type", 0, 1, 1), F("opcode", 0, 8, 8), \
		F("count", 0, 16, 14), F("type", 0, 30, 2)

#define RM_DW2_TO_6                                                                     \
	FV("dst_sel", 2, 16, 2, dst_sel_names), FV("int_sel", 2, 24, 3, int_sel_names), \
		FV("data_sel", 2, 29, 3, data_sel_names), F("address_lo", 3, 0, 32),    \
		F("address_hi", 4, 0, 32), F("data_lo", 5, 0, 32), F("data_hi", 6, 0, 32)

#define EVENT_FIELDS \
	FV("event_type", 1, 0, 6, event_type_names), FV("event_index", 1, 8, 4, event_index_names)

/* The GCR bits of RELEASE_MEM DW1 on gfx10+ (nvd.h PACKET3_RELEASE_MEM_GCR_*). */
#define RM_NV_GCR_FIELDS                                                                   \
	F("gcr_glm_wb", 1, 12, 1), F("gcr_glm_inv", 1, 13, 1), F("gcr_glv_inv", 1, 14, 1), \
		F("gcr_gl1_inv", 1, 15, 1), F("gcr_gl2_us", 1, 16, 1),                     \
		F("gcr_gl2_range", 1, 17, 1), F("gcr_gl2_discard", 1, 19, 1),              \
		F("gcr_gl2_inv", 1, 20, 1), F("gcr_gl2_wb", 1, 21, 1), F("gcr_seq", 1, 22, 1)

static const struct kfdsig_field rm_vi_fields[] = {
	HEADER_FIELDS,
	EVENT_FIELDS,
	F("tcl1_vol_action_ena", 1, 12, 1),
	F("tc_vol_action_ena", 1, 13, 1),
	F("tc_wb_action_ena", 1, 15, 1),
	F("tcl1_action_ena", 1, 16, 1),
	F("tc_action_ena", 1, 17, 1),
	F("atc", 1, 24, 1),
	F("cache_policy", 1, 25, 2),
	RM_DW2_TO_6,
};

static const struct kfdsig_field rm_ai_fields[] = {
	HEADER_FIELDS,
	EVENT_FIELDS,
	F("tcl1_vol_action_ena", 1, 12, 1),
	F("tc_vol_action_ena", 1, 13, 1),
	F("tc_wb_action_ena", 1, 15, 1),
	F("tcl1_action_ena", 1, 16, 1),
	F("tc_action_ena", 1, 17, 1),
	F("tc_nc_action_ena", 1, 19, 1),
	F("tc_wc_action_ena", 1, 20, 1),
	F("tc_md_action_ena", 1, 21, 1),
	F("cache_policy", 1, 25, 2),
	F("execute", 1, 28, 1),
	RM_DW2_TO_6,
	F("int_ctxid", 7, 0, 32),
};

static const struct kfdsig_field rm_nv_fields[] = {
	HEADER_FIELDS,		EVENT_FIELDS, RM_NV_GCR_FIELDS,		F("cache_policy", 1, 25, 2),
	F("execute", 1, 28, 1), RM_DW2_TO_6,  F("int_ctxid", 7, 0, 32),
};

/*
 * gfx11 / gfx12 additions to the gfx10+ form, as UMR and Mesa decode them:
 *  - DW1 bit 31 PWS_ENABLE (gfx11+): PAL gfx9_plus_merged_f32_me_pm4_packets.h
 *    PM4_ME_RELEASE_MEM ordinal2 gfx11 "pws_enable"; Mesa ac_cmdbuf.c
 *    ac_emit_cp_release_mem_pws() sets S_490_PWS_ENABLE(1) from gfx11.
 *  - DW1 bit 30 GLK_INV (gfx12): kernel gfx_v12_1_pkt.h
 *    PACKET3_RELEASE_MEM_GCR_GLK_INV (1 << 30).
 *  - DW1 bits 25-26 on gfx12 are TEMPORAL (rt/nt/ht/lu), not cache_policy:
 *    gfx_v12_1_pkt.h PACKET3_RELEASE_MEM_TEMPORAL(x) ((x) << 25), values
 *    rt/nt/ht/lu. The GCR bits 12-22 stay as gfx_v12_0_ring_emit_fence
 *    writes them (nvd.h PACKET3_RELEASE_MEM_GCR_*); GC 12.1 moves some of
 *    them (gfx_v12_1_pkt.h): the gc12.1 form below.
 *  - DW2 bits 20-21 MES_INTR_PIPE and 22-23 MES_ACTION_ID (MES, gfx11+):
 *    kernel nvd.h and gfx_v12_1_pkt.h PACKET3_RELEASE_MEM_MES_INTR_PIPE(x)
 *    ((x) << 20) / _MES_ACTION_ID(x) ((x) << 22); PAL ordinal3
 *    gfx10CorePlus mes_intr_pipe:2 / mes_action_id:2.
 * kfdsig writes 0 in all of them (pm4_emit.c).
 */
#define RM_MES_FIELDS F("mes_intr_pipe", 2, 20, 2), F("mes_action_id", 2, 22, 2)

static const struct kfdsig_field rm_gfx11_fields[] = {
	HEADER_FIELDS,
	EVENT_FIELDS,
	RM_NV_GCR_FIELDS,
	F("cache_policy", 1, 25, 2),
	F("execute", 1, 28, 1),
	F("pws_enable", 1, 31, 1),
	RM_DW2_TO_6,
	RM_MES_FIELDS,
	F("int_ctxid", 7, 0, 32),
};

static const char *const temporal_names[] = { "rt", "nt", "ht", "lu" };
static const struct kfdsig_field rm_gfx12_fields[] = {
	HEADER_FIELDS,
	EVENT_FIELDS,
	RM_NV_GCR_FIELDS,
	FV("temporal", 1, 25, 2, temporal_names),
	F("execute", 1, 28, 1),
	F("glk_inv", 1, 30, 1),
	F("pws_enable", 1, 31, 1),
	RM_DW2_TO_6,
	RM_MES_FIELDS,
	F("int_ctxid", 7, 0, 32),
};

/* GC 12.1 RELEASE_MEM DW1 (gfx_v12_1_pkt.h PACKET3_RELEASE_MEM_*): the GCR
 * bits in their GC 12.1 places, WAIT_SYNC 7, PQ_EXE_STATUS 28. */
static const char *const gl2_scope_names[] = { "device", "system", "force_all", "reserved" };
static const struct kfdsig_field rm_gc121_fields[] = {
	HEADER_FIELDS,
	EVENT_FIELDS,
	F("wait_sync", 1, 7, 1),
	FV("gcr_gl2_scope", 1, 12, 2, gl2_scope_names),
	F("gcr_glv_inv", 1, 14, 1),
	F("gcr_gl2_us", 1, 16, 1),
	F("gcr_gl2_range", 1, 17, 2),
	F("gcr_gl2_discard", 1, 19, 1),
	F("gcr_gl2_inv", 1, 20, 1),
	F("gcr_gl2_wb", 1, 21, 1),
	F("gcr_seq", 1, 22, 2),
	F("gcr_glv_wb", 1, 24, 1),
	FV("temporal", 1, 25, 2, temporal_names),
	F("pq_exe_status", 1, 28, 1),
	F("glk_inv", 1, 30, 1),
	RM_DW2_TO_6,
	RM_MES_FIELDS,
	F("int_ctxid", 7, 0, 32),
};

static const struct kfdsig_field eop_fields[] = {
	HEADER_FIELDS,
	EVENT_FIELDS,
	F("tcl1_vol_action_ena", 1, 12, 1),
	F("tc_vol_action_ena", 1, 13, 1),
	F("tc_wb_action_ena", 1, 15, 1),
	F("tcl1_action_ena", 1, 16, 1),
	F("tc_action_ena", 1, 17, 1),
	F("tcl2_volatile", 1, 24, 1),
	F("cache_policy", 1, 25, 2),
	F("address_lo", 2, 0, 32),
	F("address_hi", 3, 0, 16),
	FV("int_sel", 3, 24, 3, int_sel_names),
	FV("data_sel", 3, 29, 3, data_sel_names),
	F("data_lo", 4, 0, 32),
	F("data_hi", 5, 0, 32),
};

/* Data dwords (4 .. count+1) follow; readers take them from the count. */
static const struct kfdsig_field write_data_fields[] = {
	HEADER_FIELDS,
	FV("dst_sel", 1, 8, 4, wd_dst_sel_names),
	F("wr_one_addr", 1, 16, 1),
	F("wr_confirm", 1, 20, 1),
	F("cache_policy", 1, 25, 2),
	FV("engine_sel", 1, 30, 2, engine_sel_names),
	F("dst_addr_lo", 2, 0, 32),
	F("dst_addr_hi", 3, 0, 32),
};

static const struct kfdsig_field nop_fields[] = { HEADER_FIELDS };

static const char *const ew_index_names[] = {
	"other", "zpass_done", "sample_pipelinestat", "sample_streamoutstat", "partial_flush",
};
/* Address dwords only follow sample events (soc15d.h / nvd.h EVENT_WRITE). */
static const struct kfdsig_field event_write_fields[] = {
	HEADER_FIELDS,
	FV("event_type", 1, 0, 6, event_type_names),
	FV("event_index", 1, 8, 4, ew_index_names),
	F("address_lo", 2, 0, 32),
	F("address_hi", 3, 0, 16),
};

static const char *const wrm_function_names[] = {
	"always", "less", "less_equal", "equal", "not_equal", "greater_equal", "greater",
};
static const char *const wrm_mem_space_names[] = { "register", "memory" };
static const char *const wrm_operation_names[] = { "wait_reg_mem", "wr_wait_wr_reg" };
static const char *const me_pfp_names[] = { "me", "pfp" };
static const struct kfdsig_field wait_reg_mem_fields[] = {
	HEADER_FIELDS,
	FV("function", 1, 0, 3, wrm_function_names),
	FV("mem_space", 1, 4, 2, wrm_mem_space_names),
	FV("operation", 1, 6, 2, wrm_operation_names),
	FV("engine", 1, 8, 2, me_pfp_names),
	F("poll_address_lo", 2, 0, 32),
	F("poll_address_hi", 3, 0, 32),
	F("reference", 4, 0, 32),
	F("mask", 5, 0, 32),
	F("poll_interval", 6, 0, 16),
};

static const char *const ib_cache_policy_names[] = { "lru", "stream", "bypass" };
static const struct kfdsig_field indirect_buffer_fields[] = {
	HEADER_FIELDS,
	F("ib_base_lo", 1, 0, 32),
	F("ib_base_hi", 2, 0, 16),
	F("ib_size", 3, 0, 20),
	F("pre_ena", 3, 21, 1),
	F("valid", 3, 23, 1),
	F("vmid", 3, 24, 4),
	FV("cache_policy", 3, 28, 2, ib_cache_policy_names),
};

#define ACQUIRE_MEM_BODY                                                                      \
	F("coher_size", 2, 0, 32), F("coher_size_hi", 3, 0, 8), F("coher_base_lo", 4, 0, 32), \
		F("coher_base_hi", 5, 0, 24), F("poll_interval", 6, 0, 16)
static const struct kfdsig_field acquire_mem_gfx9_fields[] = {
	HEADER_FIELDS,
	F("coher_cntl", 1, 0, 31),
	F("engine_sel", 1, 31, 1),
	ACQUIRE_MEM_BODY,
};
static const char *const gcr_range_names[] = { "all", "reserved", "range", "first_last" };
static const char *const gli_inv_names[] = { "nop", "all", "range", "first_last" };
static const char *const gl2_range_names[] = { "all", "vol", "range", "first_last" };
static const char *const gcr_seq_names[] = { "parallel", "forward", "reverse" };
/* ACQUIRE_MEM DW0-6 and the GCR_CNTL bits gfx10+ and GC 12.1 share (nvd.h,
 * gfx_v12_1_pkt.h PACKET3_ACQUIRE_MEM_GCR_CNTL_*). */
#define ACQUIRE_MEM_GCR_HEAD                                                                   \
	HEADER_FIELDS, F("coher_cntl", 1, 0, 31), F("engine_sel", 1, 31, 1), ACQUIRE_MEM_BODY, \
		FV("gcr_gli_inv", 7, 0, 2, gli_inv_names),                                     \
		FV("gcr_gl1_range", 7, 2, 2, gcr_range_names)
#define ACQUIRE_MEM_GCR_TAIL                                                       \
	F("gcr_gl2_us", 7, 10, 1), FV("gcr_gl2_range", 7, 11, 2, gl2_range_names), \
		F("gcr_gl2_discard", 7, 13, 1), F("gcr_gl2_inv", 7, 14, 1),        \
		F("gcr_gl2_wb", 7, 15, 1), FV("gcr_seq", 7, 16, 2, gcr_seq_names), \
		F("gcr_range_is_pa", 7, 18, 1)
static const struct kfdsig_field acquire_mem_nv_fields[] = {
	ACQUIRE_MEM_GCR_HEAD,	   F("gcr_glm_wb", 7, 4, 1),  F("gcr_glm_inv", 7, 5, 1),
	F("gcr_glk_wb", 7, 6, 1),  F("gcr_glk_inv", 7, 7, 1), F("gcr_glv_inv", 7, 8, 1),
	F("gcr_gl1_inv", 7, 9, 1), ACQUIRE_MEM_GCR_TAIL,
};

/* GC 12.1: GL2_SCOPE [5:4] and GLV_WB 6 where gfx10 had GLM_WB/GLM_INV/GLK_WB,
 * no GL1_INV (gfx_v12_1_pkt.h). */
static const struct kfdsig_field acquire_mem_gc121_fields[] = {
	ACQUIRE_MEM_GCR_HEAD,	   FV("gcr_gl2_scope", 7, 4, 2, gl2_scope_names),
	F("gcr_glv_wb", 7, 6, 1),  F("gcr_glk_inv", 7, 7, 1),
	F("gcr_glv_inv", 7, 8, 1), ACQUIRE_MEM_GCR_TAIL,
};

/* Register values (dwords 2 .. count+1) follow; readers take them from
 * the count. */
static const struct kfdsig_field set_sh_reg_fields[] = {
	HEADER_FIELDS,
	F("reg_offset", 1, 0, 16),
};

static const struct kfdsig_field dispatch_direct_fields[] = {
	HEADER_FIELDS,
	F("dim_x", 1, 0, 32),
	F("dim_y", 2, 0, 32),
	F("dim_z", 3, 0, 32),
	F("compute_shader_en", 4, 0, 1),
	F("partial_tg_en", 4, 1, 1),
	F("force_start_at_000", 4, 2, 1),
	F("use_thread_dimensions", 4, 5, 1),
	F("cs_w32_en", 4, 15, 1),
};

static const struct kfdsig_packet_desc rm_desc[] = {
	[KFDSIG_PM4_FENCE_VI] = DESC("RELEASE_MEM", PM4_OP_RELEASE_MEM, 7, rm_vi_fields),
	[KFDSIG_PM4_FENCE_AI] = DESC("RELEASE_MEM", PM4_OP_RELEASE_MEM, 8, rm_ai_fields),
	[KFDSIG_PM4_FENCE_NV] = DESC("RELEASE_MEM", PM4_OP_RELEASE_MEM, 8, rm_nv_fields),
	[KFDSIG_PM4_FENCE_GC12_1] = DESC("RELEASE_MEM", PM4_OP_RELEASE_MEM, 8, rm_gc121_fields),
};
static const struct kfdsig_packet_desc rm_gfx11_desc =
	DESC("RELEASE_MEM", PM4_OP_RELEASE_MEM, 8, rm_gfx11_fields);
static const struct kfdsig_packet_desc rm_gfx12_desc =
	DESC("RELEASE_MEM", PM4_OP_RELEASE_MEM, 8, rm_gfx12_fields);
static const struct kfdsig_packet_desc eop_desc =
	DESC("EVENT_WRITE_EOP", PM4_OP_EVENT_WRITE_EOP, 6, eop_fields);
static const struct kfdsig_packet_desc write_data_desc =
	DESC("WRITE_DATA", PM4_OP_WRITE_DATA, 5, write_data_fields);
static const struct kfdsig_packet_desc nop_desc = DESC("NOP", PM4_OP_NOP, 1, nop_fields);
static const struct kfdsig_packet_desc event_write_desc =
	DESC("EVENT_WRITE", PM4_OP_EVENT_WRITE, PM4_EVENT_WRITE_DW, event_write_fields);
static const struct kfdsig_packet_desc wait_reg_mem_desc =
	DESC("WAIT_REG_MEM", PM4_OP_WAIT_REG_MEM, PM4_WAIT_REG_MEM_DW, wait_reg_mem_fields);
static const struct kfdsig_packet_desc indirect_buffer_desc = DESC(
	"INDIRECT_BUFFER", PM4_OP_INDIRECT_BUFFER, PM4_INDIRECT_BUFFER_DW, indirect_buffer_fields);
static const struct kfdsig_packet_desc acquire_mem_gfx9_desc =
	DESC("ACQUIRE_MEM", PM4_OP_ACQUIRE_MEM, PM4_ACQUIRE_MEM_DW_GFX9, acquire_mem_gfx9_fields);
static const struct kfdsig_packet_desc acquire_mem_nv_desc =
	DESC("ACQUIRE_MEM", PM4_OP_ACQUIRE_MEM, PM4_ACQUIRE_MEM_DW_NV, acquire_mem_nv_fields);
static const struct kfdsig_packet_desc acquire_mem_gc121_desc =
	DESC("ACQUIRE_MEM", PM4_OP_ACQUIRE_MEM, PM4_ACQUIRE_MEM_DW_NV, acquire_mem_gc121_fields);
static const struct kfdsig_packet_desc set_sh_reg_desc =
	DESC("SET_SH_REG", PM4_OP_SET_SH_REG, PM4_SET_SH_REG_MIN_DW, set_sh_reg_fields);
static const struct kfdsig_packet_desc dispatch_direct_desc = DESC(
	"DISPATCH_DIRECT", PM4_OP_DISPATCH_DIRECT, PM4_DISPATCH_DIRECT_DW, dispatch_direct_fields);

const struct kfdsig_packet_desc *kfdsig_pm4_desc_lookup(const struct kfdsig_target *t,
							unsigned int opcode)
{
	switch (opcode) {
	case PM4_OP_RELEASE_MEM:
		if (t->pm4_fence == KFDSIG_PM4_FENCE_NV && t->level == KFDSIG_GFX11)
			return &rm_gfx11_desc;
		if (t->pm4_fence == KFDSIG_PM4_FENCE_NV && t->level == KFDSIG_GFX12)
			return &rm_gfx12_desc;
		return &rm_desc[t->pm4_fence];
	case PM4_OP_EVENT_WRITE_EOP:
		if (t->level == KFDSIG_GFX8)
			return &eop_desc;
		break;
	case PM4_OP_WRITE_DATA:
		return &write_data_desc;
	case PM4_OP_NOP:
		return &nop_desc;
	case PM4_OP_EVENT_WRITE:
		return &event_write_desc;
	case PM4_OP_WAIT_REG_MEM:
		return &wait_reg_mem_desc;
	case PM4_OP_INDIRECT_BUFFER:
		return &indirect_buffer_desc;
	case PM4_OP_ACQUIRE_MEM:
		if (t->pm4_fence == KFDSIG_PM4_FENCE_GC12_1)
			return &acquire_mem_gc121_desc;
		return t->pm4_fence == KFDSIG_PM4_FENCE_NV ? &acquire_mem_nv_desc
							   : &acquire_mem_gfx9_desc;
	case PM4_OP_SET_SH_REG:
		return &set_sh_reg_desc;
	case PM4_OP_DISPATCH_DIRECT:
		return &dispatch_direct_desc;
	}
	return NULL;
}

const struct kfdsig_packet_desc *kfdsig_pm4_packet_desc(const struct kfdsig_target *t,
							unsigned int opcode)
{
	const struct kfdsig_packet_desc *d;

	if (!t) {
		kfdsig_set_error(EINVAL, "no target");
		errno = EINVAL;
		return NULL;
	}
	d = kfdsig_pm4_desc_lookup(t, opcode);
	if (d)
		return d;
	kfdsig_set_error(ENOENT, "no PM4 layout for opcode 0x%02x on %s", opcode, t->name);
	errno = ENOENT;
	return NULL;
}
