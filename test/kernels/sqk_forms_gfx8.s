// SPDX-License-Identifier: MIT
// GCN3 (gfx801-803) forms the kernel interpreter implements: literals,
// SMEM with an SGPR offset, FLAT, the carry-out adds
// (test/emu_sqk_encoding.c).
s_load_dword s1, s[2:3], 0x10
s_load_dwordx4 s[4:7], s[2:3], s8
s_buffer_load_dwordx2 s[4:5], s[8:11], 0xfffff
s_buffer_load_dword s4, s[8:11], s12
v_madmk_f32 v1, v2, 0x41200000, v3
v_madak_f32 v1, v2, v3, 0x41200000
v_madmk_f16 v1, v2, 0x4900, v3
v_madak_f16 v1, v2, v3, 0x4900
v_add_u32 v1, vcc, v2, v3
v_add_u32_e64 v1, s[4:5], v2, v3
v_addc_u32 v1, vcc, v2, v3, vcc
v_sub_u32 v1, vcc, s2, v3
v_subrev_u32 v1, vcc, v2, v3
v_subb_u32 v1, vcc, v2, v3, vcc
v_subbrev_u32 v1, vcc, v2, v3, vcc
v_add_u32_sdwa v1, vcc, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
flat_load_dword v1, v[2:3]
flat_store_dwordx2 v[2:3], v[4:5]
flat_atomic_add v1, v[2:3], v4 glc
v_mad_f16 v1, v2, v3, v4
v_cvt_f32_f16 v1, 0x3c00
