// SPDX-License-Identifier: MIT
// Instruction forms the kernel interpreter implements on gfx1030-1036
// (test/emu_sqk_encoding.c).
s_version 0x2000
s_add_u32 s1, s2, s3
s_and_saveexec_b32 s1, vcc_lo
s_or_b32 exec_lo, exec_lo, s2
s_mov_b32 s1, null
s_waitcnt_vscnt null, 0x0
s_inst_prefetch 0x3
s_clause 0x1
s_waitcnt_depctr 0xffe3
s_denorm_mode 0xf
s_round_mode 0x0
s_code_end
s_load_dword s1, s[2:3], 0x10
s_load_dwordx4 s[4:7], s[2:3], -0x8
s_buffer_load_dwordx2 s[4:5], s[8:11], s12
s_gl1_inv
s_dcache_inv
v_mov_b32 v1, v2
v_add_nc_u32 v1, v2, v3
v_sub_nc_u32_e64 v1, v2, 0x1234
v_add_co_u32 v1, vcc_lo, v2, v3
v_add_co_ci_u32 v1, vcc_lo, v2, v3, vcc_lo
v_add_co_u32 v1, s2, v2, v3
v_cndmask_b32 v1, v2, v3, vcc_lo
v_fmac_f32 v1, v2, v3
v_fmaak_f32 v1, v2, v3, 0x40000000
v_fmamk_f32 v1, v2, 0x40000000, v3
v_xor3_b32 v1, v2, v3, v4
v_mad_u64_u32 v[2:3], s4, v5, v6, v[8:9]
v_mul_lo_u32 v1, v2, v3
v_movrels_b32 v1, v2
v_movreld_b32 v1, v2
v_cmp_gt_u32 vcc_lo, v1, v2
v_cmp_gt_u32_e64 s2, v1, v2
v_cmpx_lt_i32 v1, v2
v_cmpx_eq_u32_e64 v1, 5
v_mov_b32_dpp v1, v2 row_share:3 row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v1, v2 dpp8:[1,0,3,2,5,4,7,6]
v_add_nc_u32_sdwa v1, v2, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
global_load_dword v1, v[2:3], off offset:-8
global_load_dword v1, v2, s[4:5]
global_store_dwordx4 v[2:3], v[4:7], off
global_atomic_cmpswap v1, v[2:3], v[4:5], off glc
global_atomic_fmin v1, v[2:3], v4, off glc
flat_load_dword v1, v[2:3] glc dlc
scratch_load_dword v1, off, s2 offset:4
scratch_load_dword v1, v2, off
scratch_store_dword off, v1, s3 offset:8
buffer_load_dword v1, off, s[0:3], s4 offset:4
buffer_store_dword v1, v2, s[0:3], 0 offen
buffer_gl0_inv
buffer_gl1_inv
ds_write_b32 v1, v2
ds_read2_b32 v[2:3], v1 offset1:5
ds_add_rtn_u32 v1, v2, v3
ds_permute_b32 v1, v2, v3
ds_read_b64 v[2:3], v1 offset:8
v_fmamk_f16 v1, v2, 0x4900, v3
v_fmaak_f16 v1, v2, v3, 0x4900
v_cmp_eq_u16_sdwa s2, v1, v2 src0_sel:WORD_1 src1_sel:WORD_0
v_cmpx_lt_i16_e64 v1, v2
v_add_nc_u16 v1, v2, v3 op_sel:[1,1,1]
v_fma_f16 v1, v2, -v3, |v4| op_sel:[0,1,0,1]
v_cmp_gt_f16_e64 s2, -v1, v2
v_fmac_f16_dpp v1, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_pk_add_f16 v1, v2, v3 op_sel:[1,1] neg_hi:[1,0]
v_fma_mixhi_f16 v1, v2, v3, v4 op_sel_hi:[1,0,1]
v_dot8_u32_u4 v1, v2, v3, v4
v_dot2c_f32_f16 v1, v2, v3
v_pk_fmac_f16 v1, v2, v3
