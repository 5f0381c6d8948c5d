// SPDX-License-Identifier: MIT
// Instruction forms the kernel interpreter implements on gfx9 (gfx900,
// gfx906, gfx908, gfx90a): assembled by LLVM 22's llvm-mc, disassembled by
// llvm-objdump, decoded by the unit (test/emu_sqk_encoding.c).
s_add_u32 s1, s2, s3
s_addc_u32 s1, s2, 0x12345
s_sub_i32 s5, -4, s6
s_and_b64 s[4:5], s[6:7], exec
s_or_saveexec_b64 s[8:9], -1
s_andn2_b64 exec, exec, vcc
s_lshl_b64 s[2:3], s[4:5], 3
s_ashr_i32 s2, s3, 31
s_bfe_u32 s1, s2, 0x80008
s_bfe_i64 s[2:3], s[4:5], 0x100000
s_cselect_b32 s1, s2, 1.0
s_mul_i32 s1, s2, s3
s_mul_hi_u32 s1, s2, s3
s_lshl2_add_u32 s1, s2, s3
s_movk_i32 s1, 0x1234
s_cmpk_eq_u32 s1, 0x10
s_addk_i32 s1, 0x7
s_getreg_b32 s1, hwreg(HW_REG_MODE)
s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s2
s_mov_b32 s1, m0
s_mov_b64 s[2:3], src_shared_base
s_not_b32 s1, s2
s_bcnt1_i32_b64 s1, s[2:3]
s_ff1_i32_b64 s1, exec
s_flbit_i32_b32 s1, s2
s_sext_i32_i16 s1, s2
s_bitset1_b32 s1, 5
s_getpc_b64 s[2:3]
s_swappc_b64 s[30:31], s[4:5]
s_setpc_b64 s[30:31]
s_cmp_lg_u64 s[2:3], 0
s_cmp_lt_i32 s1, s2
s_bitcmp1_b32 s1, 3
s_set_gpr_idx_on s2, gpr_idx(SRC0,DST)
s_set_gpr_idx_off
s_nop 3
s_branch 2
s_cbranch_scc0 1
s_cbranch_vccnz 1
s_cbranch_execz 1
s_barrier
s_waitcnt vmcnt(0) lgkmcnt(0)
s_setprio 2
s_sleep 1
s_sendmsg sendmsg(MSG_INTERRUPT)
s_trap 2
s_endpgm
s_load_dword s1, s[2:3], 0x10
s_load_dwordx2 s[4:5], s[2:3], 0x0
s_load_dwordx4 s[4:7], s[2:3], s8
s_load_dwordx8 s[8:15], s[2:3], 0x20
s_buffer_load_dword s1, s[4:7], 0x4
s_memtime s[2:3]
v_mov_b32 v1, v2
v_mov_b32 v1, 0x3fc00000
v_cndmask_b32_e64 v1, -v2, |v3|, s[4:5]
v_readfirstlane_b32 s1, v2
v_cvt_f32_i32 v1, v2
v_cvt_u32_f32 v1, v2
v_cvt_f64_f32 v[2:3], v4
v_cvt_f32_f16 v1, v2
v_rcp_f32 v1, v2
v_rcp_iflag_f32 v1, v2
v_rsq_f64 v[2:3], v[4:5]
v_sqrt_f32 v1, v2
v_exp_f32 v1, v2
v_log_f32 v1, v2
v_floor_f32 v1, v2
v_fract_f64 v[2:3], v[4:5]
v_frexp_mant_f32 v1, v2
v_ffbh_u32 v1, v2
v_bfrev_b32 v1, v2
v_not_b32 v1, v2
v_add_f32 v1, v2, v3
v_sub_f32_e64 v1, |v2|, v3 clamp
v_mul_f32 v1, 0.5, v3
v_fma_f32 v1, v2, v3, v4
v_mac_f32 v1, v2, v3
v_madmk_f32 v1, v2, 0x41200000, v3
v_mul_lo_u32 v1, v2, v3
v_mul_hi_u32 v1, v2, v3
v_mad_u64_u32 v[2:3], s[4:5], v4, v5, v[6:7]
v_add_co_u32 v1, vcc, v2, v3
v_addc_co_u32 v1, vcc, v2, v3, vcc
v_add_co_u32_e64 v1, s[2:3], v2, v3
v_sub_co_u32 v1, vcc, v2, v3
v_subb_co_u32 v1, vcc, v2, v3, vcc
v_add_u32 v1, v2, v3
v_sub_u32 v1, v2, v3
v_cndmask_b32 v1, v2, v3, vcc
v_cndmask_b32_e64 v1, v2, v3, s[4:5]
v_lshlrev_b32 v1, 2, v3
v_lshrrev_b64 v[2:3], 4, v[4:5]
v_ashrrev_i32 v1, 31, v3
v_and_b32 v1, 0xff, v3
v_or3_b32 v1, v2, v3, v4
v_xad_u32 v1, v2, v3, v4
v_lshl_add_u32 v1, v2, 3, v4
v_add3_u32 v1, v2, v3, v4
v_bfe_u32 v1, v2, 8, 8
v_bfi_b32 v1, v2, v3, v4
v_alignbit_b32 v1, v2, v3, 7
v_perm_b32 v1, v2, v3, v4
v_min3_f32 v1, v2, v3, v4
v_med3_i32 v1, v2, v3, v4
v_max_u32 v1, v2, v3
v_mbcnt_lo_u32_b32 v1, -1, 0
v_mbcnt_hi_u32_b32 v1, -1, v1
v_bcnt_u32_b32 v1, v2, 0
v_readlane_b32 s1, v2, 3
v_writelane_b32 v1, s2, 5
v_add_f64 v[2:3], v[4:5], v[6:7]
v_fma_f64 v[2:3], v[4:5], v[6:7], v[8:9]
v_div_scale_f32 v1, vcc, v2, v3, v2
v_div_fmas_f32 v1, v2, v3, v4
v_div_fixup_f64 v[2:3], v[4:5], v[6:7], v[8:9]
v_ldexp_f32 v1, v2, v3
v_cvt_pkrtz_f16_f32 v1, v2, v3
v_cmp_lt_f32 vcc, v1, v2
v_cmp_eq_u32_e64 s[2:3], v1, 5
v_cmp_class_f32 vcc, v1, v2
v_cmp_ne_u64 vcc, v[2:3], v[4:5]
v_cmpx_gt_i32 vcc, v1, v2
v_cmp_u_f64 vcc, v[2:3], v[4:5]
v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_u32_dpp v1, v2, v3 row_shr:1 bound_ctrl:0
v_mov_b32_sdwa v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0
v_or_b32_sdwa v1, v2, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:BYTE_1
flat_load_dword v1, v[2:3]
flat_load_dwordx4 v[4:7], v[2:3] offset:16
flat_store_dwordx2 v[2:3], v[4:5]
flat_atomic_add v1, v[2:3], v4 glc
flat_atomic_cmpswap_x2 v[2:3], v[4:7]
global_load_dword v1, v[2:3], off offset:-8
global_load_ubyte v1, v2, s[4:5] offset:4
global_load_sshort v1, v[2:3], off
global_store_dword v2, v1, s[4:5]
global_store_byte v[2:3], v1, off
global_atomic_umax v1, v[2:3], v4, off glc
global_atomic_add_x2 v[2:3], v[4:5], off
global_atomic_swap v2, v1, s[4:5]
scratch_load_dword v1, off, s2 offset:4
scratch_store_dword v2, v1, off
buffer_load_dword v1, off, s[0:3], 0 offset:4
buffer_load_dword v1, v2, s[4:7], s8 offen offset:16
buffer_store_dwordx2 v[2:3], off, s[0:3], s33 offset:8
buffer_atomic_add v1, v2, s[4:7], 0 idxen glc
buffer_wbinvl1_vol
ds_write_b32 v1, v2 offset:16
ds_write2_b32 v1, v2, v3 offset0:1 offset1:2
ds_write2st64_b64 v1, v[2:3], v[4:5] offset1:1
ds_read_b32 v1, v2
ds_read_u8 v1, v2 offset:3
ds_read2_b64 v[2:5], v1 offset1:1
ds_read_b128 v[4:7], v1
ds_add_u32 v1, v2
ds_add_rtn_u32 v1, v2, v3
ds_cmpst_rtn_b32 v1, v2, v3, v4
ds_max_rtn_u64 v[2:3], v1, v[4:5]
ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,16)
ds_bpermute_b32 v1, v2, v3
ds_add_f32 v1, v2
v_madmk_f16 v1, v2, 0x4900, v3
v_madak_f16 v1, v2, v3, 0x4900
v_cmp_eq_u16_sdwa vcc, v1, v2 src0_sel:WORD_1 src1_sel:WORD_0
v_cmp_lt_i16_sdwa s[2:3], v1, v2 src0_sel:BYTE_0 src1_sel:WORD_1
v_cmpx_gt_f16_sdwa vcc, -v1, |v2| src0_sel:WORD_1 src1_sel:WORD_0
v_cmp_class_f16_e64 s[2:3], v1, v2
v_add_u16_sdwa v1, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0
v_lshlrev_b16_dpp v1, v2, v3 row_shr:1 row_mask:0xf bank_mask:0xf
v_add_u16_e64 v1, v2, v3 clamp
v_mad_u16 v1, v2, v3, v4 op_sel:[1,0,1,1]
v_fma_f16 v1, v2, -v3, |v4| op_sel:[0,1,0,1]
v_add_f16_e64 v1, v2, 0.5 clamp
v_pack_b32_f16 v1, v2, -v3 op_sel:[1,0,0]
v_mad_u32_u16 v1, v2, v3, v4 op_sel:[1,1,0,0]
v_pk_add_u16 v1, v2, v3 op_sel:[1,0] op_sel_hi:[0,1] clamp
v_pk_fma_f16 v1, v2, v3, v4 neg_lo:[1,0,0] neg_hi:[0,1,1]
v_pk_mul_f16 v1, v2, 1.0 op_sel_hi:[1,0]
v_pk_mad_i16 v1, v2, v3, v4
v_pk_lshlrev_b16 v1, v2, v3
