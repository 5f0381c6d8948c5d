// SPDX-License-Identifier: MIT
// Instruction forms the kernel interpreter implements on gfx1200/gfx1201
// (test/emu_sqk_encoding.c): the gfx12 SMEM (24-bit offset, soffset, scope
// and th), VFLAT/VSCRATCH/VGLOBAL and VBUFFER (96 bits, 24-bit offsets,
// scope and th, atomics returning by th), the split wait counters, the split
// barrier, the renamed carry forms and 64-bit SALU arithmetic, the gfx11
// operand codes (M0 125, NULL 124), DPP16/DPP8 and VOPD.
s_mov_b32 m0, s1
s_mov_b32 null, s1
s_add_co_u32 s1, s2, s3
s_add_co_ci_u32 s1, s2, s3
s_sub_co_i32 s1, s2, 0x12345
s_add_nc_u64 s[4:5], s[2:3], s[6:7]
s_sub_nc_u64 s[4:5], s[2:3], 5
s_mul_u64 s[4:5], s[2:3], s[6:7]
s_wait_loadcnt 0x0
s_wait_storecnt 0x1
s_wait_kmcnt 0x0
s_wait_samplecnt 0x0
s_wait_bvhcnt 0x0
s_wait_expcnt 0x0
s_wait_dscnt 0x2
s_wait_loadcnt_dscnt 0x0
s_wait_storecnt_dscnt 0x0
s_wait_alu 0xfffe
s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_4) | instid1(VALU_DEP_1)
s_barrier_signal -1
s_barrier_wait 0xffff
s_sendmsg sendmsg(MSG_INTERRUPT)
s_load_b32 s1, s[2:3], 0x10
s_load_b128 s[4:7], s[2:3], -0x8
s_load_b64 s[4:5], s[2:3], s7 offset:0x10
s_load_b32 s1, s[2:3], 0x7fffff scope:SCOPE_SYS
s_load_b32 s1, s[2:3], -0x800000 th:TH_LOAD_NT
s_load_b32 s1, s[2:3], m0
s_load_u16 s1, s[2:3], 0x6
s_load_i8 s1, s[2:3], 0x3
s_buffer_load_b64 s[4:5], s[8:11], s12 offset:0x8
s_buffer_load_u8 s4, s[8:11], 0x1
v_readlane_b32 s5, v1, m0
v_add_co_u32 v1, s2, v2, v3
v_add_co_ci_u32_e64 v1, s5, v2, v3, s6
v_mad_co_u64_u32 v[1:2], null, v3, v4, v[5:6]
v_mad_co_i64_i32 v[1:2], s4, v3, v4, v[5:6]
v_add_f64 v[1:2], v[3:4], v[5:6]
v_mul_f64_e64 v[1:2], -v[3:4], v[5:6]
v_cmp_eq_u32_e64 s5, v1, v2
v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_mov_b32 v1, v2 dpp8:[1,0,3,2,5,4,7,6]
v_dual_mov_b32 v5, v1 :: v_dual_add_f32 v6, v2, v3
v_dual_cndmask_b32 v8, v1, v3 :: v_dual_lshlrev_b32 v9, 2, v4
global_load_b32 v5, v3, s[8:9] offset:-16 scope:SCOPE_SYS
global_load_b64 v[5:6], v[3:4], off offset:8388607
global_store_b32 v3, v5, s[8:9] offset:-8388608 th:TH_STORE_NT
flat_load_b32 v5, v[3:4] offset:-8
flat_store_b32 v[3:4], v5 offset:4096
scratch_load_b32 v5, v3, off offset:-8
scratch_load_b32 v5, off, s7 offset:8
scratch_load_b32 v5, v3, s7 offset:8
scratch_store_b64 off, v[5:6], s32 offset:16
global_atomic_add_u32 v5, v3, v4, s[8:9] th:TH_ATOMIC_RETURN
global_atomic_add_u32 v3, v4, s[8:9] offset:64
global_atomic_cmpswap_b32 v5, v3, v[4:5], s[8:9] th:TH_ATOMIC_RETURN scope:SCOPE_DEV
buffer_load_b32 v5, v3, s[8:11], s4 offen offset:8388607 scope:SCOPE_SYS
buffer_load_b32 v5, v[3:4], s[8:11], s4 idxen offen
buffer_store_b32 v5, off, s[8:11], null offset:12
buffer_atomic_add_u32 v5, off, s[8:11], null th:TH_ATOMIC_RETURN
ds_load_b32 v5, v3 offset:65535
ds_store_2addr_b32 v3, v4, v5 offset0:3 offset1:7
ds_add_rtn_u32 v5, v3, v4 offset:16
global_inv scope:SCOPE_SYS
global_wb scope:SCOPE_SYS
global_wbinv
s_endpgm
