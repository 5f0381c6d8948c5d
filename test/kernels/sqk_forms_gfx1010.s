// SPDX-License-Identifier: MIT
// Instruction forms the kernel interpreter implements on gfx1010-1012 that
// gfx1030 does not have, and literal forms (test/emu_sqk_encoding.c).
v_fmamk_f16 v1, v2, 0x4900, v3
v_fmaak_f16 v1, v2, v3, 0x4900
v_madmk_f32 v1, v2, 0x41200000, v3
v_madak_f32 v1, v2, v3, 0x41200000
v_mac_f32 v1, v2, v3
v_mac_f32_e64 v1, s2, v3
v_mad_f32 v1, v2, v3, 0x3f800000
v_mad_legacy_f32 v1, v2, v3, v4
v_mul_lo_i32 v1, v2, v3
s_dcache_wb
