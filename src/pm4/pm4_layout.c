/* SPDX-License-Identifier: MIT */
/*
 * Field layouts of the PM4 packets kfdsig writes, per generation form: which
 * fields of pm4_fields.def (the positions the emitters use too) each packet
 * form has, in order, and the names of their values (sources as
 * pm4_fields.def: vid.h / soc15d.h / nvd.h, kfd_pm4_headers_vi.h / _ai.h,
 * the gfx_v*_0.c ring emitters). The CLI
 * annotates with them and the decoder reads packets through them.
 */
#include <errno.h>

#include <kfdsig/pm4.h>

#include "core/internal.h"
#include "core/layout.h"
#include "pm4/pm4_defs.h"

/* A field of pm4_fields.def, by packet and name; LV with value names. */
#define L(pkt, n) FL(PM4_F_, pkt, n)
#define LV(pkt, n, v) FLV(PM4_F_, pkt, n, v)

/* Every field fits its dword. */
#define PM4_FIELD FIELD_FITS
#include "pm4/pm4_fields.def"
#undef PM4_FIELD

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

#define HEADER_FIELDS \
	L(HDR, predicate), L(HDR, shader_type), L(HDR, opcode), L(HDR, count), L(HDR, type)

#define RM_DW2_TO_6                                                                     \
	LV(RM, dst_sel, dst_sel_names), LV(RM, int_sel, int_sel_names),                 \
		LV(RM, data_sel, data_sel_names), L(RM, address_lo), L(RM, address_hi), \
		L(RM, data_lo), L(RM, data_hi)

#define EVENT_FIELDS LV(EOP, event_type, event_type_names), LV(EOP, event_index, event_index_names)

/* The GCR bits of RELEASE_MEM DW1 on gfx10+ (nvd.h PACKET3_RELEASE_MEM_GCR_*). */
#define RM_NV_GCR_FIELDS                                                                   \
	L(EOP, gcr_glm_wb), L(EOP, gcr_glm_inv), L(EOP, gcr_glv_inv), L(EOP, gcr_gl1_inv), \
		L(EOP, gcr_gl2_us), L(EOP, gcr_gl2_range), L(EOP, gcr_gl2_discard),        \
		L(EOP, gcr_gl2_inv), L(EOP, gcr_gl2_wb), L(EOP, gcr_seq)

static const struct kfdsig_field rm_vi_fields[] = {
	HEADER_FIELDS,
	EVENT_FIELDS,
	L(EOP, tcl1_vol_action_ena),
	L(EOP, tc_vol_action_ena),
	L(EOP, tc_wb_action_ena),
	L(EOP, tcl1_action_ena),
	L(EOP, tc_action_ena),
	L(EOP, atc),
	L(EOP, cache_policy),
	RM_DW2_TO_6,
};

static const struct kfdsig_field rm_ai_fields[] = {
	HEADER_FIELDS,
	EVENT_FIELDS,
	L(EOP, tcl1_vol_action_ena),
	L(EOP, tc_vol_action_ena),
	L(EOP, tc_wb_action_ena),
	L(EOP, tcl1_action_ena),
	L(EOP, tc_action_ena),
	L(EOP, tc_nc_action_ena),
	L(EOP, tc_wc_action_ena),
	L(EOP, tc_md_action_ena),
	L(EOP, cache_policy),
	L(EOP, execute),
	RM_DW2_TO_6,
	L(RM, int_ctxid),
};

static const struct kfdsig_field rm_nv_fields[] = {
	HEADER_FIELDS,	 EVENT_FIELDS, RM_NV_GCR_FIELDS, L(EOP, cache_policy),
	L(EOP, execute), RM_DW2_TO_6,  L(RM, int_ctxid),
};

/* gfx11 / gfx12 additions to the gfx10+ form, as UMR and Mesa decode them
 * (sources in pm4_fields.def): PWS_ENABLE (gfx11+), MES_INTR_PIPE and
 * MES_ACTION_ID (gfx11+), GLK_INV and TEMPORAL in place of cache_policy
 * (gfx12). kfdsig writes 0 in all of them (pm4_emit.c). */
#define RM_MES_FIELDS L(RM, mes_intr_pipe), L(RM, mes_action_id)

static const struct kfdsig_field rm_gfx11_fields[] = {
	HEADER_FIELDS,	    EVENT_FIELDS, RM_NV_GCR_FIELDS, L(EOP, cache_policy), L(EOP, execute),
	L(EOP, pws_enable), RM_DW2_TO_6,  RM_MES_FIELDS,    L(RM, int_ctxid),
};

static const char *const temporal_names[] = { "rt", "nt", "ht", "lu" };
static const struct kfdsig_field rm_gfx12_fields[] = {
	HEADER_FIELDS,	 EVENT_FIELDS,	   RM_NV_GCR_FIELDS,   LV(EOP, temporal, temporal_names),
	L(EOP, execute), L(EOP, glk_inv),  L(EOP, pws_enable), RM_DW2_TO_6,
	RM_MES_FIELDS,	 L(RM, int_ctxid),
};

/* GC 12.1 RELEASE_MEM DW1 (gfx_v12_1_pkt.h PACKET3_RELEASE_MEM_*): the GCR
 * bits in their GC 12.1 places (EOP121 where they moved), WAIT_SYNC 7,
 * PQ_EXE_STATUS 28. */
static const char *const gl2_scope_names[] = { "device", "system", "force_all", "reserved" };
static const struct kfdsig_field rm_gc121_fields[] = {
	HEADER_FIELDS,
	EVENT_FIELDS,
	L(EOP121, wait_sync),
	LV(EOP121, gcr_gl2_scope, gl2_scope_names),
	L(EOP, gcr_glv_inv),
	L(EOP, gcr_gl2_us),
	L(EOP121, gcr_gl2_range),
	L(EOP, gcr_gl2_discard),
	L(EOP, gcr_gl2_inv),
	L(EOP, gcr_gl2_wb),
	L(EOP121, gcr_seq),
	L(EOP121, gcr_glv_wb),
	LV(EOP, temporal, temporal_names),
	L(EOP121, pq_exe_status),
	L(EOP, glk_inv),
	LV(RM, dst_sel, dst_sel_names),
	RM_MES_FIELDS,
	LV(RM, int_sel, int_sel_names),
	L(RM121, add_doorbell_offset),
	LV(RM, data_sel, data_sel_names),
	L(RM, address_lo),
	L(RM, address_hi),
	L(RM, data_lo),
	L(RM, data_hi),
	L(RM, int_ctxid),
};

/* GC 12.1 WRITE_DATA (WD121 in pm4_fields.def); DST_SEL 1 and 3 are
 * reserved there, 5 is memory through tc_l2. */
static const char *const wd_dst_sel_gc121_names[] = {
	"register", "reserved", "tc_l2", "reserved", "reserved", "memory", "memory_mapped_adc",
};
static const char *const mode_names[] = { "local_xcd", "remote_or_local_aid", "remote_xcd",
					  "remote_mid" };
static const struct kfdsig_field write_data_gc121_fields[] = {
	HEADER_FIELDS,
	LV(WD, dst_sel, wd_dst_sel_gc121_names),
	L(WD121, scope),
	LV(WD121, mode, mode_names),
	L(WD121, addr_incr),
	L(WD121, mid_die_id),
	L(WD, wr_confirm),
	L(WD121, xcd_die_id),
	LV(WD121, temporal, temporal_names),
	L(WD121, coop_disable),
	L(WD, dst_addr_lo),
	L(WD, dst_addr_hi),
};

static const struct kfdsig_field eop_fields[] = {
	HEADER_FIELDS,
	EVENT_FIELDS,
	L(EOP, tcl1_vol_action_ena),
	L(EOP, tc_vol_action_ena),
	L(EOP, tc_wb_action_ena),
	L(EOP, tcl1_action_ena),
	L(EOP, tc_action_ena),
	L(EOP, tcl2_volatile),
	L(EOP, cache_policy),
	L(EWE, address_lo),
	L(EWE, address_hi),
	LV(EWE, int_sel, int_sel_names),
	LV(EWE, data_sel, data_sel_names),
	L(EWE, data_lo),
	L(EWE, data_hi),
};

/* Data dwords (4 .. count+1) follow; readers take them from the count. */
static const struct kfdsig_field write_data_fields[] = {
	HEADER_FIELDS,	     LV(WD, dst_sel, wd_dst_sel_names),
	L(WD, wr_one_addr),  L(WD, wr_confirm),
	L(WD, cache_policy), LV(WD, engine_sel, engine_sel_names),
	L(WD, dst_addr_lo),  L(WD, dst_addr_hi),
};

static const struct kfdsig_field nop_fields[] = { HEADER_FIELDS };

static const char *const ew_index_names[] = {
	"other", "zpass_done", "sample_pipelinestat", "sample_streamoutstat", "partial_flush",
};
/* Address dwords only follow sample events (soc15d.h / nvd.h EVENT_WRITE). */
static const struct kfdsig_field event_write_fields[] = {
	HEADER_FIELDS,
	LV(EW, event_type, event_type_names),
	LV(EW, event_index, ew_index_names),
	L(EW, address_lo),
	L(EW, address_hi),
};

static const char *const wrm_function_names[] = {
	"always", "less", "less_equal", "equal", "not_equal", "greater_equal", "greater",
};
static const char *const wrm_mem_space_names[] = { "register", "memory" };
static const char *const wrm_operation_names[] = { "wait_reg_mem", "wr_wait_wr_reg" };
static const char *const me_pfp_names[] = { "me", "pfp" };
static const struct kfdsig_field wait_reg_mem_fields[] = {
	HEADER_FIELDS,
	LV(WRM, function, wrm_function_names),
	LV(WRM, mem_space, wrm_mem_space_names),
	LV(WRM, operation, wrm_operation_names),
	LV(WRM, engine, me_pfp_names),
	L(WRM, poll_address_lo),
	L(WRM, poll_address_hi),
	L(WRM, reference),
	L(WRM, mask),
	L(WRM, poll_interval),
};

/* GC 12.1: no ENGINE (WRM121 in pm4_fields.def). */
static const struct kfdsig_field wait_reg_mem_gc121_fields[] = {
	HEADER_FIELDS,
	LV(WRM, function, wrm_function_names),
	LV(WRM, mem_space, wrm_mem_space_names),
	LV(WRM, operation, wrm_operation_names),
	LV(WRM121, mode, mode_names),
	L(WRM121, mid_die_id),
	L(WRM121, xcd_die_id),
	L(WRM121, mes_intr_pipe),
	L(WRM121, mes_action),
	LV(WRM121, temporal, temporal_names),
	L(WRM, poll_address_lo),
	L(WRM, poll_address_hi),
	L(WRM, reference),
	L(WRM, mask),
	L(WRM, poll_interval),
};

static const char *const ib_cache_policy_names[] = { "lru", "stream", "bypass" };
static const struct kfdsig_field indirect_buffer_fields[] = {
	HEADER_FIELDS,	   L(IB, ib_base_lo),
	L(IB, ib_base_hi), L(IB, ib_size),
	L(IB, pre_ena),	   L(IB, valid),
	L(IB, vmid),	   LV(IB, cache_policy, ib_cache_policy_names),
};

/* GC 12.1: TEMPORAL for CACHE_POLICY, no PRE_ENB. */
static const struct kfdsig_field indirect_buffer_gc121_fields[] = {
	HEADER_FIELDS,
	L(IB, ib_base_lo),
	L(IB, ib_base_hi),
	L(IB, ib_size),
	L(IB, valid),
	L(IB, vmid),
	LV(IB121, temporal, temporal_names),
};

static const struct kfdsig_field pred_exec_fields[] = {
	HEADER_FIELDS,
	L(PRED, exec_count),
	L(PRED, xcc_mask),
};

#define ACQUIRE_MEM_BODY                                                                     \
	L(AM, coher_size), L(AM, coher_size_hi), L(AM, coher_base_lo), L(AM, coher_base_hi), \
		L(AM, poll_interval)
static const struct kfdsig_field acquire_mem_gfx9_fields[] = {
	HEADER_FIELDS,
	L(AM, coher_cntl),
	L(AM, engine_sel),
	ACQUIRE_MEM_BODY,
};
static const char *const gcr_range_names[] = { "all", "reserved", "range", "first_last" };
static const char *const gli_inv_names[] = { "nop", "all", "range", "first_last" };
static const char *const gl2_range_names[] = { "all", "vol", "range", "first_last" };
static const char *const gcr_seq_names[] = { "parallel", "forward", "reverse" };
/* ACQUIRE_MEM DW0-6 and the GCR_CNTL bits gfx10+ and GC 12.1 share (nvd.h,
 * gfx_v12_1_pkt.h PACKET3_ACQUIRE_MEM_GCR_CNTL_*). */
#define ACQUIRE_MEM_GCR_HEAD                                                   \
	HEADER_FIELDS, L(AM, coher_cntl), L(AM, engine_sel), ACQUIRE_MEM_BODY, \
		LV(AM, gcr_gli_inv, gli_inv_names), LV(AM, gcr_gl1_range, gcr_range_names)
#define ACQUIRE_MEM_GCR_TAIL                                                               \
	L(AM, gcr_gl2_us), LV(AM, gcr_gl2_range, gl2_range_names), L(AM, gcr_gl2_discard), \
		L(AM, gcr_gl2_inv), L(AM, gcr_gl2_wb), LV(AM, gcr_seq, gcr_seq_names),     \
		L(AM, gcr_range_is_pa)
static const struct kfdsig_field acquire_mem_nv_fields[] = {
	ACQUIRE_MEM_GCR_HEAD, L(AM, gcr_glm_wb),  L(AM, gcr_glm_inv), L(AM, gcr_glk_wb),
	L(AM, gcr_glk_inv),   L(AM, gcr_glv_inv), L(AM, gcr_gl1_inv), ACQUIRE_MEM_GCR_TAIL,
};

/* GC 12.1: GL2_SCOPE [5:4] and GLV_WB 6 where gfx10 had GLM_WB/GLM_INV/GLK_WB,
 * no GL1_INV (gfx_v12_1_pkt.h). */
static const struct kfdsig_field acquire_mem_gc121_fields[] = {
	ACQUIRE_MEM_GCR_HEAD, LV(AM121, gcr_gl2_scope, gl2_scope_names),
	L(AM121, gcr_glv_wb), L(AM, gcr_glk_inv),
	L(AM, gcr_glv_inv),   ACQUIRE_MEM_GCR_TAIL,
};

/* Register values (dwords 2 .. count+1) follow; readers take them from
 * the count. */
static const struct kfdsig_field set_sh_reg_fields[] = {
	HEADER_FIELDS,
	L(SSR, reg_offset),
};

static const struct kfdsig_field dispatch_direct_fields[] = {
	HEADER_FIELDS,
	L(DD, dim_x),
	L(DD, dim_y),
	L(DD, dim_z),
	L(DD, compute_shader_en),
	L(DD, partial_tg_en),
	L(DD, force_start_at_000),
	L(DD, use_thread_dimensions),
	L(DD, cs_w32_en),
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
static const struct kfdsig_packet_desc write_data_gc121_desc =
	DESC("WRITE_DATA", PM4_OP_WRITE_DATA, 5, write_data_gc121_fields);
static const struct kfdsig_packet_desc wait_reg_mem_gc121_desc =
	DESC("WAIT_REG_MEM", PM4_OP_WAIT_REG_MEM, PM4_WAIT_REG_MEM_DW, wait_reg_mem_gc121_fields);
static const struct kfdsig_packet_desc indirect_buffer_gc121_desc =
	DESC("INDIRECT_BUFFER", PM4_OP_INDIRECT_BUFFER, PM4_INDIRECT_BUFFER_DW,
	     indirect_buffer_gc121_fields);
static const struct kfdsig_packet_desc nop_desc = DESC("NOP", PM4_OP_NOP, 1, nop_fields);
static const struct kfdsig_packet_desc event_write_desc =
	DESC("EVENT_WRITE", PM4_OP_EVENT_WRITE, PM4_EVENT_WRITE_DW, event_write_fields);
static const struct kfdsig_packet_desc wait_reg_mem_desc =
	DESC("WAIT_REG_MEM", PM4_OP_WAIT_REG_MEM, PM4_WAIT_REG_MEM_DW, wait_reg_mem_fields);
static const struct kfdsig_packet_desc indirect_buffer_desc = DESC(
	"INDIRECT_BUFFER", PM4_OP_INDIRECT_BUFFER, PM4_INDIRECT_BUFFER_DW, indirect_buffer_fields);
static const struct kfdsig_packet_desc pred_exec_desc =
	DESC("PRED_EXEC", PM4_OP_PRED_EXEC, PM4_PRED_EXEC_DW, pred_exec_fields);

/* User-mode queue packets (pm4_fields.def; kfdsig/userq.h). A
 * FENCE_WAIT_MULTI's layout names its first entry; the others follow in
 * the same four dwords each. */
static const char *const fwm_engine_names[] = { "me", "pfp" };
static const struct kfdsig_field protected_fence_signal_fields[] = { HEADER_FIELDS,
								     L(PFS, reserved) };
static const struct kfdsig_field fence_wait_multi_fields[] = {
	HEADER_FIELDS,	       LV(FWM, engine_sel, fwm_engine_names),
	L(FWM, preemptable),   L(FWM, cache_policy),
	L(FWM, poll_interval), L(FWM, addr_lo),
	L(FWM, addr_hi),       L(FWM, value_lo),
	L(FWM, value_hi),
};
static const struct kfdsig_field hdp_flush_fields[] = { HEADER_FIELDS, L(HDP, reserved) };
static const struct kfdsig_packet_desc protected_fence_signal_desc =
	DESC("PROTECTED_FENCE_SIGNAL", PM4_OP_PROTECTED_FENCE_SIGNAL, PM4_PROTECTED_FENCE_SIGNAL_DW,
	     protected_fence_signal_fields);
static const struct kfdsig_packet_desc fence_wait_multi_desc =
	DESC("FENCE_WAIT_MULTI", PM4_OP_FENCE_WAIT_MULTI, PM4_FWM_DW(1), fence_wait_multi_fields);
static const struct kfdsig_packet_desc hdp_flush_desc =
	DESC("HDP_FLUSH", PM4_OP_HDP_FLUSH, PM4_HDP_FLUSH_DW, hdp_flush_fields);
static const struct kfdsig_packet_desc acquire_mem_gfx9_desc =
	DESC("ACQUIRE_MEM", PM4_OP_ACQUIRE_MEM, PM4_ACQUIRE_MEM_DW_GFX9, acquire_mem_gfx9_fields);
static const struct kfdsig_packet_desc acquire_mem_nv_desc =
	DESC("ACQUIRE_MEM", PM4_OP_ACQUIRE_MEM, PM4_ACQUIRE_MEM_DW_NV, acquire_mem_nv_fields);
static const struct kfdsig_packet_desc acquire_mem_gc121_desc =
	DESC("ACQUIRE_MEM", PM4_OP_ACQUIRE_MEM, PM4_ACQUIRE_MEM_DW_NV, acquire_mem_gc121_fields);
/* One SET_SH_REG layout per register map, so that the decoder names the
 * registers of the target's (pm4_sh_reg_name()). */
enum { SSR_GFX9, SSR_GFX90A, SSR_GFX10, SSR_GFX11, SSR_GC12_1, SSR_COUNT };
static const struct kfdsig_packet_desc set_sh_reg_desc[SSR_COUNT] = {
	[SSR_GFX9] =
		DESC("SET_SH_REG", PM4_OP_SET_SH_REG, PM4_SET_SH_REG_MIN_DW, set_sh_reg_fields),
	[SSR_GFX90A] =
		DESC("SET_SH_REG", PM4_OP_SET_SH_REG, PM4_SET_SH_REG_MIN_DW, set_sh_reg_fields),
	[SSR_GFX10] =
		DESC("SET_SH_REG", PM4_OP_SET_SH_REG, PM4_SET_SH_REG_MIN_DW, set_sh_reg_fields),
	[SSR_GFX11] =
		DESC("SET_SH_REG", PM4_OP_SET_SH_REG, PM4_SET_SH_REG_MIN_DW, set_sh_reg_fields),
	[SSR_GC12_1] =
		DESC("SET_SH_REG", PM4_OP_SET_SH_REG, PM4_SET_SH_REG_MIN_DW, set_sh_reg_fields),
};

/*
 * The compute registers a dispatch programs, by SET_SH_REG offset (the
 * public offsets of kfdsig/pm4.h; gfx_8_0_d.h, gc_9_0_offset.h,
 * gc_10_3_0_offset.h, gc_11_0_0_offset.h, gc_12_0_0_offset.h); GC 12.1
 * keeps these but 0x218, which gc12_1_sh_reg_name() names first.
 */
static const char *const sh_reg_names[] = {
	[0x00] = "COMPUTE_DISPATCH_INITIATOR",
	[0x01] = "COMPUTE_DIM_X",
	[0x02] = "COMPUTE_DIM_Y",
	[0x03] = "COMPUTE_DIM_Z",
	[0x04] = "COMPUTE_START_X",
	[0x05] = "COMPUTE_START_Y",
	[0x06] = "COMPUTE_START_Z",
	[0x07] = "COMPUTE_NUM_THREAD_X",
	[0x08] = "COMPUTE_NUM_THREAD_Y",
	[0x09] = "COMPUTE_NUM_THREAD_Z",
	[0x0c] = "COMPUTE_PGM_LO",
	[0x0d] = "COMPUTE_PGM_HI",
	[0x12] = "COMPUTE_PGM_RSRC1",
	[0x13] = "COMPUTE_PGM_RSRC2",
	[0x15] = "COMPUTE_RESOURCE_LIMITS",
	[0x18] = "COMPUTE_TMPRING_SIZE",
	[0x40] = "COMPUTE_USER_DATA_0",
	[0x41] = "COMPUTE_USER_DATA_1",
	[0x42] = "COMPUTE_USER_DATA_2",
	[0x43] = "COMPUTE_USER_DATA_3",
	[0x44] = "COMPUTE_USER_DATA_4",
	[0x45] = "COMPUTE_USER_DATA_5",
	[0x46] = "COMPUTE_USER_DATA_6",
	[0x47] = "COMPUTE_USER_DATA_7",
	[0x48] = "COMPUTE_USER_DATA_8",
	[0x49] = "COMPUTE_USER_DATA_9",
	[0x4a] = "COMPUTE_USER_DATA_10",
	[0x4b] = "COMPUTE_USER_DATA_11",
	[0x4c] = "COMPUTE_USER_DATA_12",
	[0x4d] = "COMPUTE_USER_DATA_13",
	[0x4e] = "COMPUTE_USER_DATA_14",
	[0x4f] = "COMPUTE_USER_DATA_15",
};

/* GC 12.1's own compute registers (gc_12_1_0_offset.h, CHIP_XCD
 * gfxip_xcc_gfx_cpwd_cpwd_shdec, SH offset = reg - 0x1ba0 + 0x200):
 * regCOMPUTE_DISPATCH_SCRATCH_BASE_LO/HI 0x1bb0/0x1bb1,
 * regCOMPUTE_TMPRING_SIZE 0x1bb6, regCOMPUTE_RESTART_X/Y 0x1bb7/0x1bb8,
 * regCOMPUTE_PGM_RSRC3 0x1bc3, regCOMPUTE_RESTART_CG_TG_ID 0x1bc8; the
 * rest of the dispatch's as in sh_reg_names[] (DISPATCH_INITIATOR 0x1ba0
 * to NUM_THREAD_Z 0x1ba9, PGM_LO/HI 0x1bac, RSRC1/2 0x1bb2,
 * RESOURCE_LIMITS 0x1bb5, USER_DATA_0..15 0x1be0). */
static const char *gc12_1_sh_reg_name(uint32_t off)
{
	switch (off) {
	case KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_LO:
		return "COMPUTE_DISPATCH_SCRATCH_BASE_LO";
	case KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_HI:
		return "COMPUTE_DISPATCH_SCRATCH_BASE_HI";
	case KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE_GC12_1:
		return "COMPUTE_TMPRING_SIZE";
	case 0x217u:
		return "COMPUTE_RESTART_X";
	case 0x218u:
		return "COMPUTE_RESTART_Y";
	case KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GC12_1:
		return "COMPUTE_PGM_RSRC3";
	case 0x228u:
		return "COMPUTE_RESTART_CG_TG_ID";
	}
	return NULL;
}

const char *pm4_sh_reg_name(const struct kfdsig_packet_desc *d, uint32_t off)
{
	if (!d || d < set_sh_reg_desc || d >= set_sh_reg_desc + SSR_COUNT)
		return NULL;
	/* GC 12.1 names 0x218 and 0x228 itself */
	if (d == &set_sh_reg_desc[SSR_GC12_1]) {
		const char *n = gc12_1_sh_reg_name(off);

		if (n)
			return n;
	}
	if (off == KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GFX90A && d == &set_sh_reg_desc[SSR_GFX90A])
		return "COMPUTE_PGM_RSRC3";
	if (off == KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GFX10 && d >= &set_sh_reg_desc[SSR_GFX10])
		return "COMPUTE_PGM_RSRC3";
	if (d == &set_sh_reg_desc[SSR_GFX11]) {
		if (off == KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_LO)
			return "COMPUTE_DISPATCH_SCRATCH_BASE_LO";
		if (off == KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_HI)
			return "COMPUTE_DISPATCH_SCRATCH_BASE_HI";
	}
	if (off < KFDSIG_PM4_SH_COMPUTE_DISPATCH_INITIATOR ||
	    off - KFDSIG_PM4_SH_COMPUTE_DISPATCH_INITIATOR >= KFDSIG_ARRAY_SIZE(sh_reg_names))
		return NULL;
	return sh_reg_names[off - KFDSIG_PM4_SH_COMPUTE_DISPATCH_INITIATOR];
}
static const struct kfdsig_packet_desc dispatch_direct_desc = DESC(
	"DISPATCH_DIRECT", PM4_OP_DISPATCH_DIRECT, PM4_DISPATCH_DIRECT_DW, dispatch_direct_fields);

const struct kfdsig_packet_desc *pm4_desc_lookup(const struct kfdsig_target *t, unsigned int opcode)
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
		if (t->pm4_fence == KFDSIG_PM4_FENCE_GC12_1)
			return &write_data_gc121_desc;
		return &write_data_desc;
	case PM4_OP_NOP:
		return &nop_desc;
	case PM4_OP_EVENT_WRITE:
		return &event_write_desc;
	case PM4_OP_WAIT_REG_MEM:
		if (t->pm4_fence == KFDSIG_PM4_FENCE_GC12_1)
			return &wait_reg_mem_gc121_desc;
		return &wait_reg_mem_desc;
	case PM4_OP_INDIRECT_BUFFER:
		if (t->pm4_fence == KFDSIG_PM4_FENCE_GC12_1)
			return &indirect_buffer_gc121_desc;
		return &indirect_buffer_desc;
	case PM4_OP_PRED_EXEC:
		/* multi-XCC generations only (max_xcc, target_table.c [xcc]) */
		if (t->max_xcc > 1)
			return &pred_exec_desc;
		break;
	case PM4_OP_ACQUIRE_MEM:
		if (t->pm4_fence == KFDSIG_PM4_FENCE_GC12_1)
			return &acquire_mem_gc121_desc;
		return t->pm4_fence == KFDSIG_PM4_FENCE_NV ? &acquire_mem_nv_desc
							   : &acquire_mem_gfx9_desc;
	case PM4_OP_SET_SH_REG:
		if (t->pm4_fence == KFDSIG_PM4_FENCE_GC12_1)
			return &set_sh_reg_desc[SSR_GC12_1];
		if (t->level >= KFDSIG_GFX11)
			return &set_sh_reg_desc[SSR_GFX11];
		if (t->level >= KFDSIG_GFX10)
			return &set_sh_reg_desc[SSR_GFX10];
		return &set_sh_reg_desc[t->sh_compute_pgm_rsrc3 ? SSR_GFX90A : SSR_GFX9];
	case PM4_OP_DISPATCH_DIRECT:
		return &dispatch_direct_desc;
	case PM4_OP_PROTECTED_FENCE_SIGNAL:
		/* targets with user-queue fences only (target_table.c [userq]) */
		if (t->userq_fwm_max)
			return &protected_fence_signal_desc;
		break;
	case PM4_OP_FENCE_WAIT_MULTI:
		if (t->userq_fwm_max)
			return &fence_wait_multi_desc;
		break;
	case PM4_OP_HDP_FLUSH:
		/* nvd.h (gfx10-12); not among the opcodes GC 12.1 dropped */
		if (t->level >= KFDSIG_GFX10)
			return &hdp_flush_desc;
		break;
	}
	return NULL;
}

/*
 * The type-3 opcodes commit 90ddf2794258 ("drm/amdgpu: update cp packets for
 * gfx v12_1": "Clean up some unsupport CP packets for gfx v12_1") took out
 * of gfx_v12_1_pkt.h: the GC 12.1 CP does not take them.
 */
static const struct {
	uint8_t op;
	const char *name;
} gc121_removed[] = {
	{ 0x11, "SET_BASE" },
	{ 0x17, "INDIRECT_BUFFER_END" },
	{ 0x19, "INDIRECT_BUFFER_CNST_END" },
	{ 0x1d, "ATOMIC_GDS" },
	{ 0x2a, "INDEX_TYPE" },
	{ 0x32, "INDIRECT_BUFFER_PRIV" },
	{ 0x33, "INDIRECT_BUFFER_CNST" },
	{ 0x34, "STRMOUT_BUFFER_UPDATE" },
	{ 0x36, "DRAW_PREAMBLE" },
	{ 0x39, "MEM_SEMAPHORE" },
	{ 0x3a, "DRAW_INDEX_MULTI_INST" },
	{ 0x3b, "COPY_DW" },
	{ 0x41, "CP_DMA" },
	{ 0x43, "SURFACE_SYNC" },
	{ 0x44, "ME_INITIALIZE" },
	{ 0x47, "EVENT_WRITE_EOP" },
	{ 0x48, "EVENT_WRITE_EOS" },
	{ 0x52, "GFX_CNTX_UPDATE" },
	{ 0x53, "BLK_CNTX_UPDATE" },
	{ 0x55, "INCR_UPDT_STATE" },
	{ 0x59, "REWIND" },
	{ 0x5a, "INTERRUPT" },
	{ 0x5c, "INDIRECT_BUFFER_PASID" },
	{ 0x6a, "SET_CONTEXT_REG_INDEX" },
	{ 0x71, "SET_VGPR_REG_DI_MULTI" },
	{ 0x72, "SET_SH_REG_DI" },
	{ 0x73, "SET_CONTEXT_REG_INDIRECT" },
	{ 0x74, "SET_SH_REG_DI_MULTI" },
	{ 0x75, "GFX_PIPE_LOCK" },
	{ 0x7c, "FORWARD_HEADER" },
	{ 0x7d, "SCRATCH_RAM_WRITE" },
	{ 0x7e, "SCRATCH_RAM_READ" },
	{ 0x80, "LOAD_CONST_RAM" },
	{ 0x81, "WRITE_CONST_RAM" },
	{ 0x83, "DUMP_CONST_RAM" },
	{ 0x84, "INCREMENT_CE_COUNTER" },
	{ 0x85, "INCREMENT_DE_COUNTER" },
	{ 0x86, "WAIT_ON_CE_COUNTER" },
	{ 0x88, "WAIT_ON_DE_COUNTER_DIFF" },
	{ 0x8b, "SWITCH_BUFFER" },
	{ 0x8e, "GET_LOD_STATS" },
	{ 0x8f, "DRAW_MULTI_PREAMBLE" },
	{ 0x90, "FRAME_CONTROL" },
	{ 0x94, "COND_PREEMPT" },
	{ 0x96, "COPY_DATA_RB" },
	{ 0x99, "AQL_PACKET" },
	{ 0x9c, "DRAW_INDIRECT_COUNT_MULTI" },
	{ 0x9d, "DRAW_INDEX_INDIRECT_COUNT_MULTI" },
	{ 0x9e, "DUMP_CONST_RAM_OFFSET" },
	{ 0xa1, "MAP_PROCESS" },
};

const char *pm4_removed_opcode(const struct kfdsig_target *t, unsigned int opcode)
{
	if (!t || t->pm4_fence != KFDSIG_PM4_FENCE_GC12_1)
		return NULL;
	for (size_t i = 0; i < KFDSIG_ARRAY_SIZE(gc121_removed); i++)
		if (gc121_removed[i].op == opcode)
			return gc121_removed[i].name;
	return NULL;
}

const struct kfdsig_packet_desc *kfdsig_pm4_packet_desc(const struct kfdsig_target *t,
							unsigned int opcode)
{
	const struct kfdsig_packet_desc *d;

	if (!t) {
		set_error(EINVAL, "no target");
		errno = EINVAL;
		return NULL;
	}
	d = pm4_desc_lookup(t, opcode);
	if (d)
		return d;
	set_error(ENOENT, "no PM4 layout for opcode 0x%02x on %s", opcode, t->name);
	errno = ENOENT;
	return NULL;
}
