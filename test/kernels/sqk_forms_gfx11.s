// SPDX-License-Identifier: MIT
// Instruction forms the kernel interpreter implements on gfx1100-1103 and
// gfx1150/1151 (test/emu_sqk_encoding.c): the operand codes gfx11 moved
// (M0 125, NULL 124), the SMEM, FLAT, SCRATCH and MUBUF layouts, DPP16 and
// DPP8, VOP3 literals, VOPD with a literal, the wait forms.
s_mov_b32 m0, s1
s_mov_b32 s1, m0
s_mov_b32 null, s1
s_add_u32 m0, s2, null
s_and_saveexec_b32 s1, vcc_lo
s_or_b32 exec_lo, exec_lo, s2
s_waitcnt vmcnt(0) lgkmcnt(0)
s_waitcnt_vscnt null, 0x0
s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_4) | instid1(VALU_DEP_1)
s_clause 0x1
s_sendmsg sendmsg(MSG_INTERRUPT)
s_load_b32 s1, s[2:3], 0x10
s_load_b128 s[4:7], s[2:3], -0x8
s_load_b64 s[4:5], s[2:3], s7 offset:0x10
s_load_b32 s1, s[2:3], m0
s_buffer_load_b64 s[4:5], s[8:11], s12 glc
v_readlane_b32 s5, v1, m0
v_mov_b32 v1, m0
v_add_nc_u32_e64 v1, v2, 0x1234
v_add_co_u32 v1, s2, v2, v3
v_add_co_ci_u32_e64 v1, s5, v2, v3, s6
v_cmp_eq_u32_e64 s5, v1, v2
v_cmp_lt_f32_e64 null, v1, v2
v_cmpx_eq_u32_e64 v1, v2
v_cmp_gt_u32 vcc_lo, v1, v2
v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_nc_u32_dpp v1, v2, v3 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
v_mov_b32 v1, v2 dpp8:[1,0,3,2,5,4,7,6]
v_dual_mov_b32 v5, v1 :: v_dual_add_f32 v6, v2, v3
v_dual_fmaak_f32 v5, v1, v2, 0x1234 :: v_dual_mov_b32 v6, v3
v_dual_mul_f32 v7, 0x40490fdb, v1 :: v_dual_add_nc_u32 v6, 0x40490fdb, v3
v_dual_cndmask_b32 v8, v1, v3 :: v_dual_lshlrev_b32 v9, 2, v4
v_pk_add_f16 v1, v2, v3 op_sel:[1,0] op_sel_hi:[0,1]
global_load_b32 v5, v3, s[8:9] offset:-16 glc slc dlc
global_load_b64 v[5:6], v[3:4], off offset:2047
global_store_b32 v3, v5, s[8:9] offset:-4096
flat_load_b32 v5, v[3:4] offset:4095
flat_store_b32 v[3:4], v5
scratch_load_b32 v5, v3, off offset:-8
scratch_load_b32 v5, off, s7 offset:8
scratch_load_b32 v5, v3, s7 offset:8
scratch_store_b64 off, v[5:6], s32 offset:16
global_atomic_add_u32 v5, v3, v4, s[8:9] glc
global_atomic_cmpswap_b32 v5, v3, v[4:5], s[8:9] glc
buffer_load_b32 v5, v3, s[8:11], s4 offen offset:4095 glc slc dlc
buffer_load_b32 v5, v[3:4], s[8:11], s4 idxen offen
buffer_store_b32 v5, off, s[8:11], 0
ds_load_b32 v5, v3 offset:65535
ds_store_2addr_b32 v3, v4, v5 offset0:3 offset1:7
ds_add_rtn_u32 v5, v3, v4 offset:16
buffer_gl0_inv
s_endpgm
