// SPDX-License-Identifier: MIT
// Forms of gfx90a and gfx940 beyond sqk_forms_gfx9.s (test/emu_sqk_encoding.c).
v_pk_mov_b32 v[2:3], v[4:5], v[6:7] op_sel:[0,1]
v_pk_fma_f32 v[2:3], v[4:5], v[6:7], v[8:9]
v_pk_add_f32 v[2:3], v[4:5], v[6:7] op_sel_hi:[0,0]
v_accvgpr_write_b32 a1, v2
v_accvgpr_read_b32 v1, a2
v_accvgpr_mov_b32 a1, a2
v_fmac_f64 v[2:3], v[4:5], v[6:7]
v_fmac_f32 v1, v2, v3
global_load_dword a1, v[2:3], off
global_atomic_add_f64 v[2:3], v[4:5], off
ds_read_b32 a1, v2
ds_add_f64 v1, v[2:3]
buffer_load_dword a1, v2, s[0:3], 0 offen
v_fma_mix_f32 v1, |v2|, v3, -v4 op_sel:[0,1,0] op_sel_hi:[0,1,1]
v_fma_mixlo_f16 v1, v2, v3, v4 op_sel_hi:[1,1,1] clamp
v_dot2_f32_f16 v1, v2, v3, v4
v_dot4_i32_i8 v1, v2, v3, v4 clamp
v_dot2c_f32_f16 v1, v2, v3
v_dot4c_i32_i8_dpp v1, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_pk_fmac_f16 v1, v2, v3
