// SPDX-License-Identifier: MIT
// Forms of gfx940-942 (test/emu_sqk_encoding.c).
v_mov_b64 v[2:3], v[4:5]
v_lshl_add_u64 v[2:3], v[4:5], 2, v[6:7]
global_load_dword v1, v[2:3], off sc0 sc1
global_store_dword v[2:3], v1, off nt
scratch_load_dword v1, v2, off offset:8
scratch_load_dword v1, off, s2 offset:8
scratch_store_dwordx2 v2, v[4:5], s3
buffer_wbl2 sc1
buffer_inv sc1
v_madmk_f16 v1, v2, 0x4900, v3
v_madak_f16 v1, v2, v3, 0x4900
v_cmp_eq_u16_sdwa vcc, v1, v2 src0_sel:WORD_1 src1_sel:WORD_0
v_dot2_i32_i16 v2, v2, v4, v6
v_dot2_u32_u16 v2, v2, v4, v6
