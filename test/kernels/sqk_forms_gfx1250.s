// SPDX-License-Identifier: MIT
// Instruction forms the kernel interpreter implements on gfx1250
// (test/emu_sqk_encoding.c): the 64-bit literal (operand 254) in SALU, VOP1,
// VOP2 and VOP3 sources, v_fmamk_f64's 64-bit constant, the 64-bit integer
// VALU operations, v_mad_u32, v_mad_nc_u64_u32, s_wait_xcnt, the PC
// operations' gfx1250 names and the cluster bits of IB_STS2.
s_mov_b64 s[2:3], 0x123456789
s_add_nc_u64 s[4:5], s[2:3], 0x100000000
v_mov_b64 v[2:3], 0x123456789
v_add_f64 v[2:3], 0x4000000000000001, v[4:5]
v_add_nc_u64 v[2:3], 0x123456789, v[4:5]
v_add_nc_u64 v[2:3], s[4:5], v[6:7]
v_sub_nc_u64 v[2:3], v[4:5], v[6:7]
v_mul_u64 v[2:3], v[4:5], v[6:7]
v_mul_u64_e64 v[2:3], s[4:5], v[6:7]
v_mad_u32 v1, v2, v3, v4
v_mad_u32 v1, s2, 0x12345, v4
v_mad_nc_u64_u32 v[2:3], v4, v5, v[6:7]
v_fmamk_f64 v[2:3], v[4:5], 0x4000000000000001, v[6:7]
v_fmamk_f64 v[2:3], v[4:5], 0x3ff00000, v[6:7]
v_lshl_add_u64 v[0:1], v[0:1], 1, s[0:1]
s_wait_xcnt 0x0
s_wait_xcnt 0x3
s_getreg_b32 s0, hwreg(HW_REG_IB_STS2, 6, 4)
s_get_pc_i64 s[0:1]
s_set_pc_i64 s[0:1]
s_swap_pc_i64 s[0:1], s[2:3]
s_wait_kmcnt 0x0
s_endpgm
// VOPD3: neg bits on each source of both halves, the 64-bit X operations,
// v_dual_cndmask_b32's SGPR / VCC condition, bitop2's table, scalar and
// inline-constant src0
v_dual_fma_f64 v[8:9], -v[2:3], v[4:5], -v[6:7] :: v_dual_sub_f32 v14, -v9, v11
v_dual_cndmask_b32 v6, -v2, v3, vcc_lo :: v_dual_bitop2_b32 v10, s1, v12 bitop3:0x96
v_dual_add_f64 v[20:21], 1.0, v[4:5] :: v_dual_fma_f32 v22, v9, -v11, v13
v_dual_mul_f64 v[20:21], s[2:3], v[4:5] :: v_dual_cndmask_b32 v22, v9, v11, s5
