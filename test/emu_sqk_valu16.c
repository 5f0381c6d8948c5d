/* SPDX-License-Identifier: MIT */
/*
 * The shader unit's 16-bit VALU (sqk_valu.c) against a host model written
 * from the ISA manuals' instruction descriptions (AMD "Vega" and RDNA2
 * Instruction Set Architecture, the VOP1/VOP2/VOP3/VOPC 16-bit opcodes,
 * SDWA and OPSEL, the VOP3P packed, mix and dot opcodes): each instruction
 * below is assembled by llvm-mc 22 for gfx900, gfx90a, gfx942 and gfx1030,
 * and the true16 forms (RDNA3 and RDNA4 ISA manuals, "16-bit VALU" operands
 * v0.l / v0.h; LLVM SIRegisterInfo.td VGPR_16) for gfx1100, gfx1200 and gfx1250,
 * decoded by the unit and executed on every lane of a bare wave (a partial EXEC) whose sources hold edge values (zeros,
 * denormals, the largest finite, infinities, quiet and signaling NaNs,
 * negative and out-of-range shift counts) with their other halves set,
 * in three MODE settings: f16 denormals kept, flushed (MODE[7:6] 0), and
 * rounding toward zero (MODE[3:2] 3). The model's float arithmetic is the
 * exact value in __float128 (sums carrying a sticky step where __float128
 * itself rounds), rounded once to binary16 by counting quanta of its binade
 * (rq()), or converted by the compiler where the result is f32: not the
 * unit's bit-level rounding.
 * High halves: gfx9 zeroes the high half of a 16-bit result except for
 * v_mac_f16 / v_madak_f16 / v_madmk_f16, RDNA keeps it (LLVM
 * GCNSubtarget.cpp zeroesHigh16BitsOfDest()); VOP3 op_sel[3] writes the
 * high half and keeps the low one.
 */
#include <math.h>

#include "emu_sqk_util.h"
#include "emu_sqk_wave_util.h"

#define G900 1u
#define G90A 2u
#define F9 (G900 | G90A)
#define F10 4u	 /* gfx1030 */
#define F11 8u	 /* gfx1100: true16 forms, register halves v1.l / v1.h */
#define F12 16u	 /* gfx1200: the same forms (LLVM's +real-true16 spelling) */
#define F125 32u /* gfx1250: gfx1200's 16-bit forms in its own table */
#define T16 (F11 | F12 | F125)

struct tc {
	unsigned fams;
	const char *text;
};

/* Every source is v1, v2, v3 in that order; the destination v0, or for
 * compares vcc / s[2:3] (gfx9) / s2 (gfx10), or none (gfx10 v_cmpx e64). */
static const struct tc cases[] = {
	/* 16-bit integer */
	{ F9, "v_add_u16 v0, v1, v2" },
	{ F9, "v_add_u16_e64 v0, v1, v2 clamp" },
	{ F9, "v_sub_u16 v0, v1, v2" },
	{ F9, "v_sub_u16_e64 v0, v1, v2 clamp" },
	{ F9, "v_subrev_u16 v0, v1, v2" },
	{ F9 | F10, "v_mul_lo_u16 v0, v1, v2" },
	{ F9 | F10, "v_lshlrev_b16 v0, v1, v2" },
	{ F9 | F10, "v_lshrrev_b16 v0, v1, v2" },
	{ F9 | F10, "v_ashrrev_i16 v0, v1, v2" },
	{ F9 | F10, "v_max_u16 v0, v1, v2" },
	{ F9 | F10, "v_min_u16 v0, v1, v2" },
	{ F9 | F10, "v_max_i16 v0, v1, v2" },
	{ F9 | F10, "v_min_i16 v0, v1, v2" },
	{ F9, "v_add_i16 v0, v1, v2 clamp" },
	{ F9, "v_sub_i16 v0, v1, v2 op_sel:[1,1,0]" },
	{ F9, "v_mad_u16 v0, v1, v2, v3 op_sel:[1,0,1,1]" },
	{ F9, "v_mad_u16 v0, v1, v2, v3 clamp" },
	{ F9, "v_mad_i16 v0, v1, v2, v3 clamp" },
	{ F9, "v_mad_u32_u16 v0, v1, v2, v3 op_sel:[1,0,0,0]" },
	{ F9, "v_mad_i32_i16 v0, v1, v2, v3" },
	{ F9 | F10, "v_med3_i16 v0, v1, v2, v3" },
	{ F9 | F10, "v_med3_u16 v0, v1, v2, v3" },
	{ F9 | F10, "v_min3_u16 v0, v1, v2, v3" },
	{ F9 | F10, "v_max3_i16 v0, v1, v2, v3" },
	{ F9 | F10, "v_sad_u16 v0, v1, v2, v3" },
	{ F9 | F10, "v_cvt_pk_u16_u32 v0, v1, v2" },
	{ F9 | F10, "v_cvt_pk_i16_i32 v0, v1, v2" },
	{ F9 | F10, "v_sat_pk_u8_i16 v0, v1" },
	{ F9, "v_pack_b32_f16 v0, v1, -v2 op_sel:[1,0,0]" },
	{ F10, "v_add_nc_u16 v0, v1, v2 op_sel:[1,1,1]" },
	{ F10, "v_sub_nc_i16 v0, v1, v2 clamp" },
	{ F10, "v_add_nc_i16 v0, v1, v2 op_sel:[0,1,0]" },
	{ F10, "v_mad_u16 v0, v1, v2, v3" },
	{ F9, "v_add_u16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
	      "src0_sel:WORD_1 src1_sel:WORD_0" },
	/* compares */
	{ F9, "v_cmp_eq_u16_sdwa vcc, v1, v2 src0_sel:WORD_1 src1_sel:WORD_0" },
	{ F9, "v_cmp_lt_i16_sdwa s[2:3], v1, v2 src0_sel:BYTE_0 src1_sel:WORD_1" },
	{ F9, "v_cmp_gt_u16 vcc, v1, v2" },
	{ F9, "v_cmp_ne_i16_e64 s[2:3], v1, v2" },
	{ F9, "v_cmp_ge_i16 vcc, v1, v2" },
	{ F9, "v_cmpx_le_u16_e64 s[2:3], v1, v2" },
	{ F9, "v_cmp_lt_f16 vcc, v1, v2" },
	{ F9, "v_cmp_neq_f16_e64 s[2:3], -v1, |v2|" },
	{ F9, "v_cmp_u_f16 vcc, v1, v2" },
	{ F9, "v_cmp_nge_f16 vcc, v1, v2" },
	{ F9, "v_cmp_lg_f16 vcc, v1, v2" },
	{ F9, "v_cmp_class_f16_e64 s[2:3], v1, v2" },
	{ F9, "v_cmpx_gt_f16_sdwa vcc, v1, v2 src0_sel:WORD_1 src1_sel:WORD_0" },
	{ F10, "v_cmp_eq_u16_sdwa s2, v1, v2 src0_sel:WORD_1 src1_sel:WORD_0" },
	{ F10, "v_cmp_lt_i16_e64 s2, v1, v2" },
	{ F10, "v_cmp_nlt_f16 vcc_lo, v1, v2" },
	{ F10, "v_cmpx_ge_f16_e64 v1, v2" },
	/* f16 arithmetic */
	{ F9 | F10, "v_add_f16 v0, v1, v2" },
	{ F9 | F10, "v_sub_f16_e64 v0, -v1, |v2|" },
	{ F9 | F10, "v_subrev_f16 v0, v1, v2" },
	{ F9 | F10, "v_mul_f16_e64 v0, v1, v2 clamp" },
	{ F9 | F10, "v_mul_f16_e64 v0, v1, v2 mul:2" },
	{ F9 | F10, "v_max_f16 v0, v1, v2" },
	{ F9 | F10, "v_min_f16 v0, v1, v2" },
	{ F9 | F10, "v_ldexp_f16 v0, v1, v2" },
	{ F9 | F10, "v_fma_f16 v0, v1, v2, v3" },
	{ F9 | F10, "v_fma_f16 v0, v1, -v2, v3 op_sel:[1,0,1,1]" },
	{ F9 | F10, "v_med3_f16 v0, v1, v2, v3" },
	{ F9 | F10, "v_min3_f16 v0, v1, v2, v3" },
	{ F9 | F10, "v_max3_f16 v0, v1, v2, v3" },
	{ F9 | F10, "v_rcp_f16 v0, v1" },
	{ F9 | F10, "v_sqrt_f16 v0, v1" },
	{ F9 | F10, "v_floor_f16 v0, v1" },
	{ F9 | F10, "v_ceil_f16 v0, v1" },
	{ F9 | F10, "v_trunc_f16 v0, v1" },
	{ F9 | F10, "v_rndne_f16 v0, v1" },
	{ F9 | F10, "v_fract_f16 v0, v1" },
	{ F9 | F10, "v_frexp_mant_f16 v0, v1" },
	{ F9 | F10, "v_frexp_exp_i16_f16 v0, v1" },
	{ F9 | F10, "v_cvt_f16_u16 v0, v1" },
	{ F9 | F10, "v_cvt_f16_i16 v0, v1" },
	{ F9 | F10, "v_cvt_u16_f16 v0, v1" },
	{ F9 | F10, "v_cvt_i16_f16 v0, v1" },
	{ F9 | F10, "v_cvt_f32_f16 v0, v1" },
	{ F9 | F10, "v_cvt_f16_f32 v0, v1" },
	{ F9, "v_mad_f16 v0, v1, v2, v3" },
	{ F9, "v_mac_f16 v0, v1, v2" },
	{ F9, "v_madak_f16 v0, v1, v2, 0x4900" },
	{ F9, "v_madmk_f16 v0, v1, 0x4900, v2" },
	{ F10, "v_fmac_f16 v0, v1, v2" },
	{ F10, "v_fmaak_f16 v0, v1, v2, 0x4900" },
	{ F10, "v_fmamk_f16 v0, v1, 0x4900, v2" },
	{ F9, "v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
	      "src0_sel:WORD_1 src1_sel:WORD_0" },
	{ F9, "v_add_f16_e64 v0, v1, 0.5" },
	{ F10, "v_add_nc_u16 v0, v1, 0.5 op_sel:[0,1,0]" },
	{ F9 | F10, "v_pk_add_u16 v0, v1, 2.0 op_sel_hi:[1,1]" },
	{ F9 | F10, "v_rsq_f16 v0, v1" },
	{ F9 | F10, "v_exp_f16 v0, v1" },
	{ F9 | F10, "v_log_f16 v0, v1" },
	{ F9 | F10, "v_sin_f16 v0, v1" },
	{ F9 | F10, "v_cos_f16 v0, v1" },
	{ F9 | F10, "v_div_fixup_f16 v0, v1, v2, v3" },
	{ F9, "v_div_fixup_legacy_f16 v0, v1, v2, v3" },
	{ F9, "v_mad_legacy_f16 v0, v1, v2, v3" },
	{ F9, "v_mad_legacy_u16 v0, v1, v2, v3" },
	{ F9, "v_mad_legacy_i16 v0, v1, v2, v3" },
	{ F9, "v_fma_legacy_f16 v0, v1, v2, v3" },
	{ F9, "v_cvt_norm_i16_f16 v0, v1" },
	{ F9, "v_cvt_norm_u16_f16 v0, -v1" },
	{ F9 | F10, "v_cvt_pknorm_i16_f16 v0, v1, v2" },
	{ F9 | F10, "v_cvt_pknorm_u16_f16 v0, v1, |v2|" },
	{ F9 | F10, "v_cvt_pknorm_i16_f32 v0, v1, v2" },
	{ F9 | F10, "v_cvt_pknorm_u16_f32 v0, v1, v2" },
	{ F9, "v_cmp_o_f16 vcc, v1, v2" },
	{ F9, "v_cmp_eq_f16_e64 s[2:3], v1, v2" },
	{ F9, "v_cmp_le_f16 vcc, v1, v2" },
	{ F9, "v_cmp_ge_f16 vcc, v1, v2" },
	{ F9, "v_cmp_ngt_f16 vcc, v1, v2" },
	{ F9, "v_cmp_nle_f16 vcc, v1, v2" },
	{ F9, "v_cmp_nlg_f16 vcc, v1, v2" },
	{ F9, "v_cmpx_neq_f16 vcc, v1, v2" },
	{ F9, "v_cmp_le_u16 vcc, v1, v2" },
	{ F9, "v_cmp_lt_u16 vcc, v1, v2" },
	{ F9, "v_cmp_eq_i16 vcc, v1, v2" },
	{ F9, "v_cmpx_ne_u16 vcc, v1, v2" },
	{ F10, "v_cmp_class_f16 vcc_lo, v1, v2" },
	{ F10, "v_cmpx_gt_u16 v1, v2" },
	{ F9 | F10, "v_max_u16 v0, v1, v2" },
	{ F9 | F10, "v_min3_i16 v0, v1, v2, v3" },
	{ F9 | F10, "v_max3_u16 v0, v1, v2, v3" },
	{ F9 | F10, "v_min3_f16 v0, -v1, v2, |v3|" },
	/* packed (VOP3P) */
	{ F9 | F10, "v_pk_add_u16 v0, v1, v2" },
	{ F9 | F10, "v_pk_add_u16 v0, v1, v2 clamp" },
	{ F9 | F10, "v_pk_sub_i16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1] clamp" },
	{ F9 | F10, "v_pk_sub_u16 v0, v1, v2 clamp" },
	{ F9 | F10, "v_pk_add_i16 v0, v1, v2" },
	{ F9 | F10, "v_pk_mul_lo_u16 v0, v1, v2" },
	{ F9 | F10, "v_pk_lshlrev_b16 v0, v1, v2" },
	{ F9 | F10, "v_pk_lshrrev_b16 v0, v1, v2 op_sel_hi:[0,1]" },
	{ F9 | F10, "v_pk_ashrrev_i16 v0, v1, v2" },
	{ F9 | F10, "v_pk_max_i16 v0, v1, v2" },
	{ F9 | F10, "v_pk_min_u16 v0, v1, v2" },
	{ F9 | F10, "v_pk_max_u16 v0, v1, v2 op_sel:[1,1]" },
	{ F9 | F10, "v_pk_min_i16 v0, v1, v2" },
	{ F9 | F10, "v_pk_mad_u16 v0, v1, v2, v3" },
	{ F9 | F10, "v_pk_mad_i16 v0, v1, v2, v3 clamp" },
	{ F9 | F10, "v_pk_add_f16 v0, v1, v2" },
	{ F9 | F10, "v_pk_mul_f16 v0, v1, v2 neg_lo:[1,0] neg_hi:[0,1]" },
	{ F9 | F10, "v_pk_fma_f16 v0, v1, v2, v3 op_sel:[0,1,0] op_sel_hi:[1,0,1]" },
	{ F9 | F10, "v_pk_fma_f16 v0, v1, v2, v3 neg_hi:[1,0,1]" },
	{ F9 | F10, "v_pk_max_f16 v0, v1, v2" },
	{ F9 | F10, "v_pk_min_f16 v0, v1, v2 clamp" },
	{ F9 | F10, "v_pk_add_f16 v0, v1, 1.0 op_sel_hi:[1,0]" },
	/* mixed precision */
	{ G900, "v_mad_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]" },
	{ G900, "v_mad_mix_f32 v0, v1, v2, v3" },
	{ G90A | F10, "v_fma_mix_f32 v0, v1, v2, v3" },
	{ G900, "v_mad_mixlo_f16 v0, v1, -v2, |v3| op_sel:[1,0,0] op_sel_hi:[1,1,1]" },
	{ G900, "v_mad_mixhi_f16 v0, v1, v2, v3 op_sel_hi:[0,1,1] clamp" },
	{ G90A | F10, "v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]" },
	{ G90A | F10, "v_fma_mix_f32 v0, |v1|, v2, -v3 op_sel:[0,1,0] op_sel_hi:[0,1,1]" },
	{ G90A | F10, "v_fma_mixlo_f16 v0, -v1, v2, v3 op_sel:[0,1,1] op_sel_hi:[1,1,1]" },
	{ G90A | F10, "v_fma_mixhi_f16 v0, v1, v2, v3 op_sel_hi:[1,0,1]" },
	/* dot products */
	{ G90A | F10, "v_dot2_f32_f16 v0, v1, v2, v3" },
	{ G90A | F10, "v_dot2_i32_i16 v0, v1, v2, v3" },
	{ G90A | F10, "v_dot2_u32_u16 v0, v1, v2, v3 clamp" },
	{ G90A | F10, "v_dot4_i32_i8 v0, v1, v2, v3" },
	{ G90A | F10, "v_dot4_u32_u8 v0, v1, v2, v3 clamp" },
	{ G90A | F10, "v_dot8_i32_i4 v0, v1, v2, v3 clamp" },
	{ G90A | F10, "v_dot8_u32_u4 v0, v1, v2, v3" },
	{ G90A | F10, "v_dot2c_f32_f16 v0, v1, v2" },
	{ G90A, "v_dot2c_i32_i16 v0, v1, v2" },
	{ G90A | F10, "v_dot4c_i32_i8 v0, v1, v2" },
	{ G90A, "v_dot8c_i32_i4 v0, v1, v2" },
	{ G90A | F10, "v_pk_fmac_f16 v0, v1, v2" },
	/* true16 (RDNA3/RDNA4): a 16-bit operand is one half of a VGPR, in
	 * VOP1/VOP2/VOPC bit 7 of its field, in VOP3 op_sel; a result written
	 * to one half keeps the other */
	{ T16, "v_add_f16 v0.l, v1.l, v2.h" },
	{ T16, "v_add_f16 v0.h, v1.h, v2.l" },
	{ T16, "v_sub_f16_e64 v0.h, -v1.l, |v2.h|" },
	{ T16, "v_subrev_f16 v0.l, v1.h, v2.h" },
	{ T16, "v_mul_f16_e64 v0.l, v1.h, v2.l clamp" },
	{ F11, "v_max_f16 v0.h, v1.l, v2.h" },
	{ F11, "v_min_f16_e64 v0.l, v1.h, v2.l" },
	{ T16, "v_fma_f16 v0.h, v1.h, -v2.l, v3.h" },
	{ T16, "v_fma_f16 v0.l, v1.l, v2.h, v3.l" },
	{ T16, "v_fmac_f16 v0.h, v1.l, v2.h" },
	{ T16, "v_fmac_f16 v0.l, v1.h, v2.l" },
	{ T16, "v_fmaak_f16 v0.h, v1.h, v2.l, 0x4900" },
	{ T16, "v_fmamk_f16 v0.l, v1.l, 0x4900, v2.h" },
	{ T16, "v_cvt_f16_f32 v0.h, v1" },
	{ T16, "v_cvt_f16_f32_e64 v0.h, v1" },
	{ T16, "v_cvt_f32_f16 v0, v1.h" },
	{ T16, "v_cvt_f32_f16_e64 v0, v1.h" },
	{ T16, "v_cvt_f16_u16 v0.h, v1.l" },
	{ T16, "v_cvt_f16_i16 v0.l, v1.h" },
	{ T16, "v_cvt_u16_f16 v0.h, v1.h" },
	{ T16, "v_cvt_i16_f16 v0.l, v1.h" },
	{ T16, "v_rcp_f16 v0.h, v1.l" },
	{ T16, "v_sqrt_f16 v0.l, v1.h" },
	{ T16, "v_rsq_f16 v0.h, v1.h" },
	{ T16, "v_floor_f16 v0.h, v1.l" },
	{ T16, "v_ceil_f16 v0.l, v1.h" },
	{ T16, "v_trunc_f16_e64 v0.h, v1.h" },
	{ T16, "v_rndne_f16 v0.l, v1.h" },
	{ T16, "v_fract_f16 v0.h, v1.h" },
	{ T16, "v_add_nc_u16 v0.h, v1.l, v2.h" },
	{ T16, "v_sub_nc_u16 v0.l, v1.h, v2.l clamp" },
	{ T16, "v_add_nc_i16 v0.h, v1.h, v2.h clamp" },
	{ T16, "v_sub_nc_i16 v0.l, v1.l, v2.h" },
	{ T16, "v_mul_lo_u16 v0.h, v1.h, v2.l" },
	{ T16, "v_lshlrev_b16 v0.l, v1.h, v2.h" },
	{ T16, "v_lshrrev_b16 v0.h, v1.l, v2.h" },
	{ T16, "v_ashrrev_i16 v0.h, v1.h, v2.l" },
	{ T16, "v_max_u16 v0.l, v1.h, v2.l" },
	{ T16, "v_min_u16 v0.h, v1.l, v2.h" },
	{ T16, "v_max_i16 v0.h, v1.h, v2.h" },
	{ T16, "v_min_i16 v0.l, v1.l, v2.h" },
	{ T16, "v_mad_u16 v0.h, v1.l, v2.h, v3.h" },
	{ T16, "v_mad_i16 v0.l, v1.h, v2.l, v3.h clamp" },
	{ T16, "v_mov_b16 v0.h, v1.l" },
	{ T16, "v_mov_b16 v0.l, v1.h" },
	{ T16, "v_mov_b16_e64 v0.h, v1.h" },
	{ T16, "v_cndmask_b16 v0.h, v1.l, v2.h, vcc_lo" },
	{ T16, "v_cndmask_b16 v0.l, v1.h, v2.l, vcc_lo" },
	{ T16, "v_cmp_lt_f16 vcc_lo, v1.h, v2.l" },
	{ T16, "v_cmp_nlt_f16_e64 s2, v1.l, v2.h" },
	{ T16, "v_cmp_u_f16 vcc_lo, v1.l, v2.h" },
	{ T16, "v_cmp_gt_i16 vcc_lo, v1.l, v2.h" },
	{ T16, "v_cmp_ne_u16_e64 s2, v1.h, v2.h" },
	{ T16, "v_cmpx_ge_u16 v1.h, v2.l" },
	{ T16, "v_cmpx_lt_f16_e64 v1.l, v2.h" },
	{ T16, "v_cmp_class_f16 vcc_lo, v1.h, v2.l" },
	{ T16, "v_cmp_class_f16_e64 s2, v1.l, v2.h" },
	{ T16, "v_cmp_class_f16_e64 s2, -|v1.h|, v2.h" },
	{ T16, "v_cmp_lt_f16_e64 s2, -|v1.h|, v2.h" },
	{ T16, "v_cmp_class_f16_e64 s2, |v1.h|, v2.h" },
	{ T16, "v_cmp_class_f16_e64 s2, -v1.h, v2.h" },
	{ T16, "v_cmpx_class_f16 v1.l, v2.h" },
	{ T16, "v_ldexp_f16 v0.h, v1.l, v2.h" },
	{ T16, "v_ldexp_f16_e64 v0.l, v1.h, v2.l" },
	{ F11, "v_med3_f16 v0.h, v1.l, v2.h, v3.l" },
	{ F11, "v_min3_f16 v0.l, -v1.h, v2.l, |v3.h|" },
	{ F11, "v_max3_f16 v0.h, v1.h, v2.h, v3.l" },
	/* RDNA4's IEEE 754-2019 maximumNumber / minimumNumber */
	{ F12 | F125, "v_max_num_f16 v0.h, v1.l, v2.h" },
	{ F12 | F125, "v_min_num_f16 v0.l, v1.h, v2.l" },
	{ F12 | F125, "v_max_num_f16_e64 v0.l, -v1.h, |v2.h|" },
	{ F12 | F125, "v_min_num_f16_e64 v0.h, v1.l, -v2.l clamp" },
	{ F12 | F125, "v_max3_num_f16 v0.h, v1.h, v2.l, |v3.h|" },
	{ F12 | F125, "v_min3_num_f16 v0.l, -v1.l, v2.h, v3.l" },
	{ F12 | F125, "v_pk_max_num_f16 v0, v1, v2" },
	/* RDNA4's IEEE 754-2019 minimum / maximum */
	{ F12 | F125, "v_maximum_f16 v0.h, v1.l, v2.h" },
	{ F12 | F125, "v_minimum_f16 v0.l, -v1.h, |v2.l|" },
	/* the true16 v_div_fixup_f16 (LLVM 22's f16 division on gfx11) */
	{ T16, "v_div_fixup_f16 v0.h, v1.l, v2.h, v3.l" },
	{ T16, "v_div_fixup_f16 v0.l, -v1.h, v2.l, |v3.h|" },
	{ F12 | F125, "v_pk_min_num_f16 v0, v1, v2 neg_lo:[1,0] neg_hi:[0,1]" },
	{ T16, "v_med3_i16 v0.h, v1.l, v2.h, v3.h" },
	{ T16, "v_med3_u16 v0.l, v1.h, v2.l, v3.h" },
	{ T16, "v_min3_i16 v0.l, v1.h, v2.h, v3.l" },
	{ T16, "v_min3_u16 v0.h, v1.l, v2.l, v3.h" },
	{ T16, "v_max3_i16 v0.h, v1.h, v2.l, v3.l" },
	{ T16, "v_max3_u16 v0.l, v1.l, v2.h, v3.h" },
	{ T16, "v_exp_f16 v0.h, v1.l" },
	{ T16, "v_log_f16 v0.l, v1.h" },
	{ T16, "v_sin_f16 v0.h, v1.h" },
	{ T16, "v_cos_f16 v0.l, v1.h" },
	{ T16, "v_frexp_mant_f16 v0.h, v1.l" },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* The parsed modifiers of a case. */
struct mods {
	char mn[40];	   /* mnemonic without _e32 / _e64 / _sdwa */
	unsigned neg, abs; /* per source */
	unsigned opsel;	   /* bits 0-2 sources, 3 destination */
	bool clamp, sdwa, e64;
	unsigned omod; /* 0, or mul:2 (1) */
	bool p3, mix;  /* VOP3P packed / dot (not the "c" forms); mix */
	bool pk2;      /* a packed or dot operation (halves by half) */
	unsigned opsel_hi, neg_hi;
	int sel[2], dsel, dun; /* SDWA: BYTE_0..3 0-3, WORD_0/1 4/5, DWORD 6 */
	unsigned sd;	       /* compare: the SGPR destination (106 vcc), or 0 none */
	bool cmpx, inl;	       /* v_cmpx; src1 is the inline constant 0.5 */
};

static int sel_of(const char *s)
{
	static const char *const n[] = { "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
					 "WORD_0", "WORD_1", "DWORD" };

	for (int i = 0; i < 7; i++)
		if (strncmp(s, n[i], strlen(n[i])) == 0)
			return i;
	return 6;
}

static void parse(const char *text0, bool gfx10, struct mods *m)
{
	const char *p;
	size_t k;
	char text[256], *wp = text;

	memset(m, 0, sizeof(*m));
	/* true16 register halves: v0.h the destination's high half (as VOP3
	 * op_sel[3]), v1.h-v3.h the sources' (op_sel[0-2]); the rest of the
	 * parse reads the text without the suffixes */
	for (const char *q = text0; *q && wp < text + sizeof(text) - 2; q++) {
		*wp++ = *q;
		if (q[0] == 'v' && q[1] >= '0' && q[1] <= '3' && q[2] == '.' &&
		    (q[3] == 'l' || q[3] == 'h')) {
			unsigned r = (unsigned)(q[1] - '0');

			*wp++ = q[1];
			if (q[3] == 'h')
				m->opsel |= r == 0 ? 8u : 1u << (r - 1);
			q += 3;
		}
	}
	*wp = 0;
	m->sel[0] = m->sel[1] = m->dsel = 6;
	k = strcspn(text, " ");
	memcpy(m->mn, text, k);
	m->mn[k] = 0;
	for (const char *suf[] = { "_e32", "_e64", "_sdwa" }, **s = suf; s < suf + 3; s++) {
		size_t n = strlen(m->mn), ls = strlen(*s);

		if (n > ls && strcmp(m->mn + n - ls, *s) == 0) {
			m->mn[n - ls] = 0;
			m->e64 = s == suf + 1;
			m->sdwa = s == suf + 2;
		}
	}
	for (int i = 0; i < 3; i++) {
		char r[8];

		snprintf(r, sizeof(r), "-v%d", i + 1);
		if (strstr(text, r))
			m->neg |= 1u << i;
		snprintf(r, sizeof(r), "-|v%d|", i + 1); /* both: abs, then neg */
		if (strstr(text, r))
			m->neg |= 1u << i;
		snprintf(r, sizeof(r), "|v%d|", i + 1);
		if (strstr(text, r))
			m->abs |= 1u << i;
	}
	m->mix = strstr(m->mn, "_mix") != NULL;
	m->p3 = (!strncmp(m->mn, "v_pk_", 5) && strcmp(m->mn, "v_pk_fmac_f16")) ||
		(!strncmp(m->mn, "v_dot", 5) && !strchr(m->mn + 6, 'c')) || m->mix;
	m->pk2 = !strncmp(m->mn, "v_pk_", 5) || !strncmp(m->mn, "v_dot", 5);
	m->opsel_hi = m->p3 && !m->mix ? 7 : 0;
	if (m->p3) {
		unsigned *dst[4] = { &m->opsel, &m->opsel_hi, &m->neg, &m->neg_hi };
		const char *key[4] = { "op_sel:[", "op_sel_hi:[", "neg_lo:[", "neg_hi:[" };

		for (int k2 = 0; k2 < 4; k2++) {
			if (!(p = strstr(text, key[k2])))
				continue;
			p += strlen(key[k2]);
			*dst[k2] = 0;
			for (unsigned i = 0; *p == '0' || *p == '1'; i++, p += 2)
				*dst[k2] |= (unsigned)(*p - '0') << i;
		}
	} else if ((p = strstr(text, "op_sel:["))) {
		unsigned v[4], n = 0;

		p += 8;
		while (n < 4 && (*p == '0' || *p == '1')) {
			v[n++] = (unsigned)(*p - '0');
			p += 2;
		}
		for (unsigned i = 0; i + 1 < n; i++)
			m->opsel |= v[i] << i;
		m->opsel |= v[n - 1] << 3;
	}
	m->clamp = strstr(text, " clamp") != NULL;
	m->omod = strstr(text, "mul:2") ? 1 : 0;
	m->inl = strstr(text, ", 0.5") != NULL;
	if ((p = strstr(text, "src0_sel:")))
		m->sel[0] = sel_of(p + 9);
	if ((p = strstr(text, "src1_sel:")))
		m->sel[1] = sel_of(p + 9);
	if ((p = strstr(text, "dst_sel:")))
		m->dsel = sel_of(p + 8);
	if (strstr(text, "UNUSED_PRESERVE"))
		m->dun = 2;
	m->cmpx = strncmp(m->mn, "v_cmpx_", 7) == 0;
	if (strncmp(m->mn, "v_cmp", 5) == 0) {
		const char *o = text + k + 1;

		if (strncmp(o, "vcc", 3) == 0)
			m->sd = 106;
		else if (*o == 's')
			m->sd = 2;
		else
			m->sd = 0; /* gfx10 v_cmpx e64: EXEC only */
		if (m->cmpx && gfx10)
			m->sd = 0;
	}
}

/* ---- the model ---- */

static unsigned rmode; /* MODE[3:2] of the run: 0 nearest even, 3 toward zero */
static bool flush16;   /* MODE[7:6] 0 */

static double hd(uint32_t h)
{
	_Float16 f;
	uint16_t u = (uint16_t)h;

	memcpy(&f, &u, 2);
	return (double)f;
}

static uint32_t hbits(_Float16 f)
{
	uint16_t u;

	memcpy(&u, &f, 2);
	return u;
}

/* one rounding of an exact value to binary16, in the run's mode (nearest
 * even, or toward zero): the value's multiple of the binary16 quantum at
 * its binade (2^(e-10), at least 2^-24), by exact __float128 arithmetic;
 * the compiler converts the result, which is representable (or past the
 * largest finite value: infinity), exactly */
static uint32_t rq(__float128 x)
{
	__float128 ax = x < 0 ? -x : x, q, n, frac, p2 = 1;
	unsigned long long ni;
	int e = 0;
	double v;

	if (x != x)
		return 0x7e00;
	if (ax == 0)
		return hbits((_Float16)(double)x);
	if (ax - ax != 0) /* infinity */
		return (x < 0 ? 0x8000 : 0) | 0x7c00;
	while (ax >= p2 * 2 && e < 17)
		p2 *= 2, e++;
	while (ax < p2 && e > -14)
		p2 /= 2, e--;
	if (e >= 16) /* past binary16's range */
		return (x < 0 ? 0x8000 : 0) | (rmode == 3 ? 0x7bff : 0x7c00);
	q = p2 / 1024;
	n = ax / q;
	ni = (unsigned long long)n;
	frac = n - (__float128)ni;
	if (rmode == 0 && (frac > 0.5Q || (frac == 0.5Q && (ni & 1))))
		ni++;
	v = (double)((__float128)ni * q);
	if (v > 65504.0)
		v = INFINITY;
	return hbits((_Float16)(x < 0 ? -v : v));
}

static bool hnan(uint32_t h)
{
	return (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
}

/* source value after SDWA select (zero-extended; no sext in the cases) */
static uint32_t sdwa(uint32_t v, int sel)
{
	if (sel < 4)
		return v >> (8 * sel) & 0xff;
	if (sel < 6)
		return v >> (16 * (sel - 4)) & 0xffff;
	return v;
}

/* an f16 operand: flush, abs, neg */
static double fop(uint32_t h, const struct mods *m, int i)
{
	h &= 0xffff;
	if (flush16 && !(h & 0x7c00))
		h &= 0x8000;
	if (m->abs >> i & 1)
		h &= 0x7fff;
	if (m->neg >> i & 1)
		h ^= 0x8000;
	return hd(h);
}

/* result post-processing: omod, rounding, clamp, flush */
static uint32_t fres(__float128 x, const struct mods *m)
{
	uint32_t r;

	if (m->omod == 1)
		x *= 2;
	r = rq(x);
	if (m->clamp) {
		double d = hd(r);

		r = isnan(d) || d <= 0 ? 0 : d > 1 ? 0x3c00 : r;
	}
	if (flush16 && !(r & 0x7c00))
		r &= 0x8000;
	return r;
}

/* minNum / maxNum; -0 orders below +0 */
static double minnum(double a, double b)
{
	if (a == 0 && b == 0)
		return signbit(a) ? a : b;
	return isnan(a) ? b : isnan(b) ? a : a < b ? a : b;
}

static double maxnum(double a, double b)
{
	if (a == 0 && b == 0)
		return signbit(a) ? b : a;
	return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

/* RDNA4 ISA manual, V_MAX_NUM_F16 / V_MIN_NUM_F16 (IEEE 754-2019
 * maximumNumber / minimumNumber): both sources NaN: a quiet NaN; one NaN
 * (quiet or signaling): the other source; else the larger (smaller), +0
 * above -0. Written from the pseudo-code's order of cases. */
static double max_num(double s0, double s1)
{
	if (isnan(s0) && isnan(s1))
		return NAN;
	if (isnan(s0))
		return s1;
	if (isnan(s1))
		return s0;
	if (s0 > s1 || (s0 == 0 && s1 == 0 && !signbit(s0) && signbit(s1)))
		return s0;
	return s1;
}

static double min_num(double s0, double s1)
{
	if (isnan(s0) && isnan(s1))
		return NAN;
	if (isnan(s0))
		return s1;
	if (isnan(s1))
		return s0;
	if (s0 < s1 || (s0 == 0 && s1 == 0 && signbit(s0) && !signbit(s1)))
		return s0;
	return s1;
}

/* a + b in __float128, its last bit sticky: when the sum is inexact there,
 * it moves one step toward the exact value, so that the one rounding to
 * f32 or f16 after it sees which side of a tie or a representable value
 * the exact sum lies on */
static __float128 qadd(__float128 a, __float128 b)
{
	__float128 s = a + b, bb = s - a, e = (a - (s - bb)) + (b - bb);

	double ds = (double)s;
	uint64_t bits;

	memcpy(&bits, &ds, 8);
	/* only a sum on a rounding boundary (an f32 value or tie: at most 25
	 * significant bits) needs the step */
	if (e != 0 && s == s && s - s == 0 && s != 0 && (__float128)ds == s &&
	    !(bits & 0xfffffffull))
		s += (e > 0 ? 1 : -1) * (s > 0 ? s : -s) * 0x1p-111Q;
	return s;
}

static int32_t sat(int64_t v, int64_t lo, int64_t hi)
{
	return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

/* The expected result: the 16-bit value (*w16 true) or the 32-bit one, or
 * for a compare the lane's bit. @s[]: the 16-bit (or 32-bit) sources after
 * select; @d: the destination's old value. Returns false when the case's
 * mnemonic has no model (a test bug). */
static double fh(uint32_t h, bool neg);

static bool model(const struct mods *m, const uint32_t *s, uint32_t d, uint32_t *out, bool *w16)
{
	const char *n = m->mn;
	int32_t a = (int16_t)s[0], b = (int16_t)s[1], c = (int16_t)s[2];
	uint32_t ua = s[0] & 0xffff, ub = s[1] & 0xffff, uc = s[2] & 0xffff;
	double fa = fop(s[0], m, 0), fb = fop(s[1], m, 1), fc = fop(s[2], m, 2);
	int64_t r = 0;

	*w16 = true;
	if (strncmp(n, "v_cmp", 5) == 0) {
		const char *t = n + (m->cmpx ? 7 : 6); /* the condition */
		bool f = strstr(n, "f16") != NULL, sg = strstr(n, "i16") != NULL;
		int64_t x = sg ? a : (int64_t)ua, y = sg ? b : (int64_t)ub;
		bool un = isnan(fa) || isnan(fb);

		if (strncmp(t, "class", 5) == 0) {
			uint32_t h = ua;
			unsigned k;

			if (flush16 && !(h & 0x7c00))
				h &= 0x8000;
			/* S0 is a float operand: its input modifiers,
			 * abs then neg, apply before the class is read */
			if (m->abs & 1)
				h &= 0x7fff;
			if (m->neg & 1)
				h ^= 0x8000;
			if ((h & 0x7fff) > 0x7c00)
				k = (h & 0x200) ? 1 : 0;
			else if ((h & 0x7fff) == 0x7c00)
				k = (h & 0x8000) ? 2 : 9;
			else if (!(h & 0x7fff))
				k = (h & 0x8000) ? 5 : 6;
			else if (!(h & 0x7c00))
				k = (h & 0x8000) ? 4 : 7;
			else
				k = (h & 0x8000) ? 3 : 8;
			*out = s[1] >> k & 1;
		} else if (f) {
			*out = !strncmp(t, "lt", 2)    ? fa < fb
			       : !strncmp(t, "eq", 2)  ? fa == fb
			       : !strncmp(t, "le", 2)  ? fa <= fb
			       : !strncmp(t, "gt", 2)  ? fa > fb
			       : !strncmp(t, "lg", 2)  ? (!un && fa != fb)
			       : !strncmp(t, "ge", 2)  ? fa >= fb
			       : !strncmp(t, "o_", 2)  ? !un
			       : !strncmp(t, "u_", 2)  ? un
			       : !strncmp(t, "nge", 3) ? !(fa >= fb)
			       : !strncmp(t, "nlg", 3) ? (un || fa == fb)
			       : !strncmp(t, "ngt", 3) ? !(fa > fb)
			       : !strncmp(t, "nle", 3) ? !(fa <= fb)
			       : !strncmp(t, "neq", 3) ? !(fa == fb)
			       : !strncmp(t, "nlt", 3) ? !(fa < fb)
						       : 99;
		} else {
			*out = !strncmp(t, "lt", 2)   ? x < y
			       : !strncmp(t, "eq", 2) ? x == y
			       : !strncmp(t, "le", 2) ? x <= y
			       : !strncmp(t, "gt", 2) ? x > y
			       : !strncmp(t, "ne", 2) ? x != y
			       : !strncmp(t, "ge", 2) ? x >= y
						      : 99;
		}
		return *out != 99;
	}
#define IS(x) (strcmp(n, x) == 0)
	if (IS("v_add_u16") || IS("v_add_nc_u16"))
		r = m->clamp ? sat((int64_t)ua + ub, 0, 0xffff) : (int64_t)ua + ub;
	else if (IS("v_sub_u16") || IS("v_sub_nc_u16"))
		r = m->clamp ? sat((int64_t)ua - ub, 0, 0xffff) : (int64_t)ua - ub;
	else if (IS("v_subrev_u16"))
		r = ub - ua;
	else if (IS("v_mul_lo_u16"))
		r = ua * ub;
	else if (IS("v_lshlrev_b16"))
		r = ub << (ua % 16);
	else if (IS("v_lshrrev_b16"))
		r = ub >> (ua % 16);
	else if (IS("v_ashrrev_i16"))
		r = b >> (ua % 16);
	else if (IS("v_max_u16"))
		r = ua > ub ? ua : ub;
	else if (IS("v_min_u16"))
		r = ua < ub ? ua : ub;
	else if (IS("v_max_i16"))
		r = a > b ? a : b;
	else if (IS("v_min_i16"))
		r = a < b ? a : b;
	else if (IS("v_add_i16") || IS("v_add_nc_i16"))
		r = m->clamp ? sat(a + b, -32768, 32767) : a + b;
	else if (IS("v_sub_i16") || IS("v_sub_nc_i16"))
		r = m->clamp ? sat(a - b, -32768, 32767) : a - b;
	else if (IS("v_mad_u16") || IS("v_mad_legacy_u16"))
		r = m->clamp ? sat((int64_t)ua * ub + uc, 0, 0xffff) : (int64_t)ua * ub + uc;
	else if (IS("v_mad_i16") || IS("v_mad_legacy_i16"))
		r = m->clamp ? sat((int64_t)a * b + c, -32768, 32767) : a * b + c;
	else if (IS("v_med3_i16"))
		r = a > b ? (b > c ? b : a < c ? a : c) : (a > c ? a : b < c ? b : c);
	else if (IS("v_med3_u16"))
		r = ua > ub ? (ub > uc	 ? ub
			       : ua < uc ? ua
					 : uc)
			    : (ua > uc	 ? ua
			       : ub < uc ? ub
					 : uc);
	else if (IS("v_min3_i16"))
		r = a < b ? (a < c ? a : c) : (b < c ? b : c);
	else if (IS("v_max3_u16"))
		r = ua > ub ? (ua > uc ? ua : uc) : (ub > uc ? ub : uc);
	else if (IS("v_min3_u16"))
		r = ua < ub ? (ua < uc ? ua : uc) : (ub < uc ? ub : uc);
	else if (IS("v_max3_i16"))
		r = a > b ? (a > c ? a : c) : (b > c ? b : c);
	else if (IS("v_sat_pk_u8_i16"))
		r = sat((int16_t)s[0], 0, 255) | sat((int16_t)(s[0] >> 16), 0, 255) << 8;
	else
		*w16 = false;
	if (*w16) {
		*out = (uint32_t)r & 0xffff;
		return true;
	}
	*w16 = true;
	if (IS("v_mad_u32_u16"))
		*out = ua * ub + s[2], *w16 = false;
	else if (IS("v_mad_i32_i16"))
		*out = (uint32_t)(a * b) + s[2], *w16 = false; /* the sum wraps */
	else if (IS("v_sad_u16"))
		*out = (ua > ub ? ua - ub : ub - ua) + s[2], *w16 = false;
	else if (IS("v_cvt_pk_u16_u32"))
		*out = (s[0] > 0xffff ? 0xffff : s[0]) | (s[1] > 0xffff ? 0xffff : s[1]) << 16,
		*w16 = false;
	else if (IS("v_cvt_pk_i16_i32"))
		*out = ((uint32_t)sat((int32_t)s[0], -32768, 32767) & 0xffff) |
		       (uint32_t)sat((int32_t)s[1], -32768, 32767) << 16,
		*w16 = false;
	else if (IS("v_pack_b32_f16"))
		*out = ua | (ub ^ ((m->neg & 2) ? 0x8000 : 0)) << 16, *w16 = false;
	else if (IS("v_cvt_f32_f16")) {
		float f = (float)fa;

		memcpy(out, &f, 4);
		*w16 = false;
	} else if (IS("v_cvt_f16_f32")) {
		float f;

		memcpy(&f, &s[0], 4); /* f32 denormals kept: MODE[5:4] 3 in every run */
		*out = fres((__float128)f, m);
	} else if (IS("v_add_f16"))
		*out = fres((__float128)fa + fb, m);
	else if (IS("v_sub_f16"))
		*out = fres((__float128)fa - fb, m);
	else if (IS("v_subrev_f16"))
		*out = fres((__float128)fb - fa, m);
	else if (IS("v_mul_f16"))
		*out = fres((__float128)fa * fb, m);
	else if (IS("v_max_f16"))
		*out = fres(maxnum(fa, fb), m);
	else if (IS("v_min_f16"))
		*out = fres(minnum(fa, fb), m);
	else if (IS("v_max_num_f16"))
		*out = fres(max_num(fa, fb), m);
	else if (IS("v_maximum_f16") || IS("v_minimum_f16")) {
		/* IEEE 754-2019 maximum / minimum: a NaN source a NaN, -0 below +0 */
		bool mx = IS("v_maximum_f16");

		if (isnan(fa) || isnan(fb))
			*out = fres(NAN, m);
		else if (fa == fb)
			*out = fres(mx == !signbit(fa) ? fa : fb, m);
		else
			*out = fres(mx == (fa > fb) ? fa : fb, m);
	} else if (IS("v_min_num_f16"))
		*out = fres(min_num(fa, fb), m);
	else if (IS("v_max3_num_f16"))
		*out = fres(max_num(max_num(fa, fb), fc), m);
	else if (IS("v_min3_num_f16"))
		*out = fres(min_num(min_num(fa, fb), fc), m);
	else if (IS("v_max3_f16"))
		*out = fres(maxnum(maxnum(fa, fb), fc), m);
	else if (IS("v_min3_f16"))
		*out = fres(minnum(minnum(fa, fb), fc), m);
	else if (IS("v_med3_f16")) {
		/* the ISA: with a NaN operand, MIN3 of the three; else the
		 * middle value */
		double mx = maxnum(maxnum(fa, fb), fc);

		if (isnan(fa) || isnan(fb) || isnan(fc))
			*out = fres(minnum(minnum(fa, fb), fc), m);
		else
			*out = fres(mx == fa   ? maxnum(fb, fc)
				    : mx == fb ? maxnum(fa, fc)
					       : maxnum(fa, fb),
				    m);
	} else if (IS("v_ldexp_f16"))
		*out = fres((__float128)ldexp(fa, sat(b, -64, 64)), m);
	else if (IS("v_fma_f16") || IS("v_fma_legacy_f16"))
		*out = fres((__float128)fa * fb + fc, m);
	else if (IS("v_rsq_f16"))
		*out = fres((__float128)(1.0L / sqrtl(fa)), m);
	else if (IS("v_exp_f16"))
		*out = fres((__float128)exp2l(fa > 64 ? 64 : fa),
			    m); /* 2^65504 is past long double */
	else if (IS("v_log_f16"))
		*out = fres((__float128)log2l(fa), m);
	else if (IS("v_sin_f16") || IS("v_cos_f16")) {
		/* sin / cos of 2*pi*x: x's fraction (exact), the exact zeros +0
		 * (sin(+-0) = +-0); inf and NaN give NaN */
		long double fr = (long double)fa - roundl(fa), v;
		bool sn = IS("v_sin_f16");

		if (isinf(fa) || isnan(fa))
			v = NAN;
		else if (sn && fa == 0)
			v = fa;
		else if (sn ? (fr == 0 || fabsl(fr) == 0.5L) : fabsl(fr) == 0.25L)
			v = 0;
		else
			v = sn ? sinl(6.283185307179586476925L * fr)
			       : cosl(6.283185307179586476925L * fr);
		*out = fres((__float128)v, m);
	} else if (IS("v_div_fixup_f16") || IS("v_div_fixup_legacy_f16")) {
		/* S0 quotient, S1 denominator, S2 numerator (ISA V_DIV_FIXUP_F16) */
		bool sgn = signbit(fb) != signbit(fc);
		double r16;

		if (isnan(fb) || isnan(fc))
			r16 = NAN;
		else if ((fb == 0 && fc == 0) || (isinf(fb) && isinf(fc)))
			r16 = NAN;
		else if (fb == 0 || isinf(fc))
			r16 = sgn ? -INFINITY : INFINITY;
		else if (isinf(fb) || fc == 0)
			r16 = sgn ? -0.0 : 0.0;
		else
			r16 = sgn ? -fabs(fa) : fabs(fa);
		*out = fres(r16, m);
	} else if (IS("v_cvt_norm_i16_f16") || IS("v_cvt_norm_u16_f16")) {
		bool sg = strstr(n, "i16") != NULL;

		*out = isnan(fa) ? 0
		       : sg ? (uint32_t)(int32_t)nearbyint(fmin(fmax(fa, -1), 1) * 32767) & 0xffff
			    : (uint32_t)nearbyint(fmin(fmax(fa, 0), 1) * 65535);
	} else if (!strncmp(n, "v_cvt_pknorm_", 13)) {
		bool sg = n[13] == 'i', h = strstr(n, "_f16") != NULL;
		uint32_t r2 = 0;

		for (int i = 0; i < 2; i++) {
			double x;

			if (h) {
				x = fop(s[i], m, i);
			} else {
				float f;

				memcpy(&f, &s[i], 4);
				x = (m->abs >> i & 1) ? fabs(f) : f;
				x = (m->neg >> i & 1) ? -x : x;
			}
			r2 |= (isnan(x) ? 0
			       : sg ? (uint32_t)(int32_t)nearbyint(fmin(fmax(x, -1), 1) * 32767) &
					       0xffff
				    : (uint32_t)nearbyint(fmin(fmax(x, 0), 1) * 65535))
			      << (16 * i);
		}
		*out = r2;
		*w16 = false;
	} else if (IS("v_rcp_f16"))
		*out = fres(1 / (__float128)fa, m);
	else if (IS("v_sqrt_f16"))
		*out = fres(sqrt(fa), m);
	else if (IS("v_floor_f16"))
		*out = fres(floor(fa), m);
	else if (IS("v_ceil_f16"))
		*out = fres(ceil(fa), m);
	else if (IS("v_trunc_f16"))
		*out = fres(trunc(fa), m);
	else if (IS("v_rndne_f16"))
		*out = fres(nearbyint(fa), m);
	else if (IS("v_fract_f16"))
		*out = fres(isinf(fa) ? NAN : fmin(fa - floor(fa), hd(0x3bff)), m);
	else if (IS("v_frexp_mant_f16")) {
		int e;

		*out = fres(isinf(fa) || isnan(fa) ? fa : frexp(fa, &e), m);
	} else if (IS("v_frexp_exp_i16_f16")) {
		int e = 0;

		if (!isinf(fa) && !isnan(fa))
			frexp(fa, &e);
		*out = (uint32_t)e & 0xffff;
	} else if (IS("v_cvt_f16_u16"))
		*out = fres(ua, m);
	else if (IS("v_cvt_f16_i16"))
		*out = fres(a, m);
	else if (IS("v_cvt_u16_f16"))
		*out = isnan(fa) ? 0
				 : (uint32_t)sat((int64_t)fmax(fmin(trunc(fa), 70000), -1), 0,
						 0xffff);
	else if (IS("v_cvt_i16_f16"))
		*out = isnan(fa) ? 0
				 : (uint32_t)sat((int64_t)fmax(fmin(trunc(fa), 70000), -70000),
						 -32768, 32767) &
					   0xffff;
	else if (IS("v_mad_f16") || IS("v_mad_legacy_f16")) /* multiply rounded, then add rounded */
		*out = fres((__float128)hd(fres((__float128)fa * fb, &(struct mods){ 0 })) + fc, m);
	else if (IS("v_mac_f16"))
		*out = fres((__float128)hd(fres((__float128)fa * fb, &(struct mods){ 0 })) +
				    fh(d, false),
			    m);
	else if (IS("v_madak_f16"))
		*out = fres((__float128)hd(fres((__float128)fa * fb, &(struct mods){ 0 })) + 10.0,
			    m);
	else if (IS("v_madmk_f16"))
		*out = fres((__float128)hd(fres((__float128)fa * 10.0, &(struct mods){ 0 })) + fb,
			    m);
	else if (IS("v_fmac_f16")) /* the accumulator: the destination's half */
		*out = fres((__float128)fa * fb + fh((m->opsel & 8) ? d >> 16 : d, false), m);
	else if (IS("v_mov_b16"))
		*out = ua;
	else if (IS("v_cndmask_b16")) /* s[2]: the lane's VCC bit */
		*out = uc ? ub : ua;
	else if (IS("v_fmaak_f16"))
		*out = fres((__float128)fa * fb + 10.0, m);
	else if (IS("v_fmamk_f16"))
		*out = fres((__float128)fa * 10.0 + fb, m);
	else
		return false;
#undef IS
	return true;
}

/* an f16 half: flush, then negate */
static double fh(uint32_t h, bool neg)
{
	h &= 0xffff;
	if (flush16 && !(h & 0x7c00))
		h &= 0x8000;
	return hd(neg ? h ^ 0x8000 : h);
}

static uint32_t f32bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* A packed (VOP3P, v_pk_fmac), mixed-precision or dot-product operation on
 * the raw registers @r and the old destination @d: its 32-bit result. */
static bool model_p(const struct mods *m, const uint32_t *r, uint32_t d, uint32_t *out)
{
	const char *n = m->mn;
	uint32_t hv[3][2], res = 0;

	for (int i = 0; i < 3; i++)
		for (unsigned h = 0; h < 2; h++) {
			unsigned sel = m->p3 ? ((h ? m->opsel_hi : m->opsel) >> i & 1) : h;

			hv[i][h] = sel ? r[i] >> 16 : r[i] & 0xffff;
		}
	if (m->mix) {
		double v[3];
		__float128 x;

		for (int i = 0; i < 3; i++) {
			if (m->opsel_hi >> i & 1) {
				v[i] = fh((m->opsel >> i & 1) ? r[i] >> 16 : r[i], false);
			} else {
				float f;

				memcpy(&f, &r[i], 4);
				v[i] = f;
			}
			if (m->abs >> i & 1)
				v[i] = fabs(v[i]);
			if (m->neg >> i & 1)
				v[i] = -v[i];
		}
		if (strstr(n, "v_mad_mix"))
			x = qadd((float)(v[0] * v[1]), v[2]);
		else
			x = qadd((__float128)v[0] * v[1], v[2]);
		if (strstr(n, "mix_f32")) {
			float f = (float)x;

			if (m->clamp)
				f = isnan(f) || f <= 0 ? 0.0f : f > 1 ? 1.0f : f;
			*out = f32bits(f);
		} else if (strstr(n, "mixlo")) {
			*out = (d & 0xffff0000u) | fres(x, m);
		} else {
			*out = (d & 0xffff) | fres(x, m) << 16;
		}
		return true;
	}
	if (!strncmp(n, "v_dot", 5)) {
		bool acc = strchr(n + 6, 'c') != NULL, sg = strstr(n, "_i32") != NULL;
		unsigned bits = n[5] == '2' ? 16 : n[5] == '4' ? 8 : 4;
		uint32_t x = hv[0][0] | hv[0][1] << 16, y = hv[1][0] | hv[1][1] << 16,
			 z = acc ? d : r[2];
		int64_t sum = sg ? (int32_t)z : (int64_t)z;

		if (strstr(n, "f32_f16")) {
			float c32;
			__float128 t;

			memcpy(&c32, &z, 4);
			t = qadd(qadd((__float128)fh(hv[0][0], m->neg & 1) *
					      fh(hv[1][0], m->neg & 2),
				      (__float128)fh(hv[0][1], m->neg_hi & 1) *
					      fh(hv[1][1], m->neg_hi & 2)),
				 c32);
			*out = f32bits((float)t);
			return true;
		}
		if (bits != 16)
			x = r[0], y = r[1];
		for (unsigned k = 0; k < 32 / bits; k++) {
			int64_t a = x >> (k * bits) & ((1u << bits) - 1),
				b = y >> (k * bits) & ((1u << bits) - 1);

			if (sg) {
				a = a >= (1 << (bits - 1)) ? a - (1 << bits) : a;
				b = b >= (1 << (bits - 1)) ? b - (1 << bits) : b;
			}
			sum += a * b;
		}
		if (m->clamp)
			sum = sg ? sat(sum, INT32_MIN, INT32_MAX)
				 : (sum < 0	       ? 0
				    : sum > UINT32_MAX ? UINT32_MAX
						       : sum);
		*out = (uint32_t)sum;
		return true;
	}
	for (unsigned h = 0; h < 2; h++) {
		uint32_t a = hv[0][h], b = hv[1][h], c = hv[2][h], v;
		int32_t sa = (int16_t)a, sb = (int16_t)b, sc = (int16_t)c;
		unsigned ng = h ? m->neg_hi : m->neg;
		double fa = fh(a, ng & 1), fb = fh(b, ng & 2), fc = fh(c, ng & 4);

#define IS(x) (strcmp(n, x) == 0)
		if (IS("v_pk_add_u16"))
			v = (uint32_t)(m->clamp ? sat((int64_t)a + b, 0, 0xffff) : (int64_t)a + b);
		else if (IS("v_pk_sub_u16"))
			v = (uint32_t)(m->clamp ? sat((int64_t)a - b, 0, 0xffff) : (int64_t)a - b);
		else if (IS("v_pk_add_i16"))
			v = (uint32_t)(m->clamp ? sat(sa + sb, -32768, 32767) : sa + sb);
		else if (IS("v_pk_sub_i16"))
			v = (uint32_t)(m->clamp ? sat(sa - sb, -32768, 32767) : sa - sb);
		else if (IS("v_pk_mul_lo_u16"))
			v = a * b;
		else if (IS("v_pk_lshlrev_b16"))
			v = b << (a % 16);
		else if (IS("v_pk_lshrrev_b16"))
			v = b >> (a % 16);
		else if (IS("v_pk_ashrrev_i16"))
			v = (uint32_t)(sb >> (a % 16));
		else if (IS("v_pk_max_u16"))
			v = a > b ? a : b;
		else if (IS("v_pk_min_u16"))
			v = a < b ? a : b;
		else if (IS("v_pk_max_i16"))
			v = (uint32_t)(sa > sb ? sa : sb);
		else if (IS("v_pk_min_i16"))
			v = (uint32_t)(sa < sb ? sa : sb);
		else if (IS("v_pk_mad_u16"))
			v = (uint32_t)(m->clamp ? sat((int64_t)a * b + c, 0, 0xffff)
						: (int64_t)a * b + c);
		else if (IS("v_pk_mad_i16"))
			v = (uint32_t)(m->clamp ? sat((int64_t)sa * sb + sc, -32768, 32767)
						: (int64_t)sa * sb + sc);
		else if (IS("v_pk_add_f16"))
			v = fres((__float128)fa + fb, m);
		else if (IS("v_pk_mul_f16"))
			v = fres((__float128)fa * fb, m);
		else if (IS("v_pk_fma_f16"))
			v = fres((__float128)fa * fb + fc, m);
		else if (IS("v_pk_fmac_f16"))
			v = fres((__float128)fa * fb + fh(d >> (16 * h), false), m);
		else if (IS("v_pk_max_f16"))
			v = fres(maxnum(fa, fb), m);
		else if (IS("v_pk_min_f16"))
			v = fres(minnum(fa, fb), m);
		else if (IS("v_pk_max_num_f16"))
			v = fres(max_num(fa, fb), m);
		else if (IS("v_pk_min_num_f16"))
			v = fres(min_num(fa, fb), m);
		else
			return false;
#undef IS
		res |= (v & 0xffff) << (16 * h);
	}
	*out = res;
	return true;
}

/* ---- running the cases ---- */

static uint64_t rs = 0x2545f4914f6cdd1dull;

static uint32_t rnd(void)
{
	rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
	return (uint32_t)(rs >> 16);
}

static const uint16_t edge16[] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00,
	0xfc00, 0x7e00, 0x7d00, 0xfe01, 0x3555, 0x4248, 0x3800, 0x3bff, 0x0010, 0x000f, 0xfff0,
	0x7fff, 0x8000, 0xffff, 0x00ff, 0x0100, 0x5640, 0x1400, 0x6bff, 0x3c01, 0xc170,
};
#define NEDGE (sizeof(edge16) / sizeof(edge16[0]))

static uint32_t value(unsigned l, unsigned k, unsigned round)
{
	uint32_t lo = (round == 0) ? edge16[(l * (2 * k + 1) + k * 5) % NEDGE]
		      : rnd() % 3  ? edge16[rnd() % NEDGE]
				   : rnd() & 0xffff,
		 hi = rnd() % 4 ? edge16[rnd() % NEDGE] : rnd() & 0xffff;

	if (rnd() % 16 == 0) /* a 32-bit value near the saturation bounds */
		return rnd() % 2 ? 0xffff + (rnd() % 3) : (uint32_t)-32769 + rnd() % 3;
	return lo | hi << 16;
}

static void run_family(const char *name, const char *mcpu, uint32_t gfxv, unsigned lanes,
		       unsigned fam)
{
	char src[16384] = "";
	const struct tc *tcs[NCASES];
	unsigned nt = 0, size = 0;
	static uint8_t code[65536];
	struct bare_wave *g = bare_wave_new(gfxv, lanes);
	bool gfx10 = fam >= F10; /* RDNA: a 16-bit result keeps the other half */
	unsigned checked = 0;

	for (size_t i = 0; i < NCASES; i++)
		if (cases[i].fams & fam) {
			tcs[nt++] = &cases[i];
			strcat(src, cases[i].text);
			strcat(src, "\n");
		}
	size = (unsigned)kco_asm_text(src, mcpu,
				      fam >= F12	     ? "-mattr=+real-true16"
				      : gfx10 && lanes == 32 ? "-mattr=+wavefrontsize32"
							     : "",
				      code, sizeof(code));
	if (!size) {
		CHECK(0, "%s: llvm-mc did not assemble the cases", name);
		bare_wave_free(g);
		return;
	}
	for (unsigned t = 0, off = 0; t < nt; t++) {
		struct sqk_insn in;
		struct mods m;
		unsigned sz =
			sqk_decode(g->d.fam, (const uint32_t *)(code + off), (size - off) / 4, &in);

		parse(tcs[t]->text, gfx10, &m);
		if (!sz) {
			CHECK(0, "%s: %s: not decoded", name, tcs[t]->text);
			break;
		}
		off += sz;
		in.pc = off;
		for (unsigned mode = 0; mode < 3; mode++) {
			for (unsigned round = 0; round < 3; round++) {
				uint64_t ex = sqk_mask(&g->w) & ~(1ull << 5) & ~(1ull << 17),
					 bits = 0, want_bits = 0;
				uint32_t in1[64], in2[64], in3[64], old[64];
				int rc;

				/* MODE: f32 denormals kept; f16 kept, flushed, or kept with
				 * rounding toward zero */
				g->w.mode = mode == 0 ? 0xf0 : mode == 1 ? 0x30 : 0xfc;
				rmode = mode == 2 ? 3 : 0;
				flush16 = mode == 1;
				for (unsigned l = 0; l < lanes; l++) {
					in1[l] = g->w.v[64 + l] = value(l, 1, round);
					in2[l] = g->w.v[128 + l] = value(l, 2, round);
					in3[l] = g->w.v[192 + l] = value(l, 3, round);
					if (strstr(m.mn, "class") && rnd() % 2)
						in2[l] = g->w.v[128 + l] = rnd() & 0x3ff;
					if (!strcmp(tcs[t]->text, "v_mad_mix_f32 v0, v1, v2, v3") ||
					    !strcmp(tcs[t]->text, "v_fma_mix_f32 v0, v1, v2, v3")) {
						/* f32 sources, S2 = -(S0 * S1 rounded to f32) on odd
						 * lanes: mad gives 0, fma the product's rounding error */
						float a, b, p;

						memcpy(&a, &in1[l], 4);
						memcpy(&b, &in2[l], 4);
						p = -(a * b);
						if (l & 1)
							memcpy(&in3[l], &p, 4),
								g->w.v[192 + l] = in3[l];
					}
					old[l] = g->w.v[l] = rnd();
				}
				sqk_set_mask(&g->w, SQK_EXEC, ex);
				sqk_set_mask(&g->w, SQK_VCC,
					     0x5555555555555555ull & sqk_mask(&g->w));
				sqk_set_mask(&g->w, 2, 0x3333333333333333ull & sqk_mask(&g->w));
				g->res.err = 0;
				rc = sqk_exec_valu(&g->w, &in);
				CHECK(rc == 0, "%s: %s: %s", name, tcs[t]->text, g->res.msg);
				if (rc != 0)
					goto next;
				for (unsigned l = 0; l < lanes; l++) {
					uint32_t s[3] = { in1[l], in2[l], in3[l] }, out, want, got;
					bool w16;

					if (!(ex >> l & 1)) {
						CHECK(g->w.v[l] == old[l],
						      "%s: %s: inactive lane %u written", name,
						      tcs[t]->text, l);
						continue;
					}
					if (m.inl) /* 0.5: binary16 for an f16 operand, the
						    * f32 constant for an integer one */
						s[1] = strstr(m.mn, "f16") ? 0x3800 : 0x3f000000;
					if (strstr(tcs[t]->text, ", 2.0"))
						s[1] = 0x40000000; /* 2.0, f32, for 16-bit integers */
					if (strstr(tcs[t]->text, ", 1.0"))
						s[1] = 0x3c00; /* 1.0, binary16, zero-extended */
					if (m.pk2 || m.mix) {
						bool f32r = strstr(m.mn, "mix_f32") ||
							    strstr(m.mn, "f32_f16");

						if (!model_p(&m, s, old[l], &want)) {
							CHECK(0, "%s: no model for %s", name, m.mn);
							goto next;
						}
						got = g->w.v[l];
						if (got != want &&
						    !(f32r && (got & 0x7fffffffu) > 0x7f800000u &&
						      (want & 0x7fffffffu) > 0x7f800000u) &&
						    !(!f32r && strstr(m.mn, "f16") &&
						      ((got & 0xffff) == (want & 0xffff) ||
						       (hnan(got & 0xffff) &&
							hnan(want & 0xffff))) &&
						      ((got >> 16) == (want >> 16) ||
						       (hnan(got >> 16) && hnan(want >> 16))))) {
							CHECK(0,
							      "%s: %s, MODE 0x%x, lane %u (v1 "
							      "0x%08x v2 0x%08x v3 0x%08x v0 "
							      "0x%08x): got 0x%08x, want 0x%08x",
							      name, tcs[t]->text, g->w.mode, l,
							      in1[l], in2[l], in3[l], old[l], got,
							      want);
							goto next;
						}
						continue;
					}
					for (int i = 0; i < 3; i++) {
						if (m.sdwa && i < 2)
							s[i] = sdwa(s[i], m.sel[i]);
						else if (m.opsel >> i & 1)
							s[i] >>= 16;
					}
					if (!strcmp(m.mn, "v_cndmask_b16"))
						s[2] = 0x55555555u >> (l % 32) & 1;
					if (!model(&m, s, old[l], &out, &w16)) {
						CHECK(0, "%s: no model for %s", name, m.mn);
						goto next;
					}
					if (m.sd || m.cmpx || strncmp(m.mn, "v_cmp", 5) == 0) {
						want_bits |= (uint64_t)(out & 1) << l;
						continue;
					}
					if (m.sdwa && m.dsel == 5 && m.dun == 2)
						want = (old[l] & 0xffff) | (out & 0xffff) << 16;
					else if (!w16)
						want = out;
					else if (m.opsel & 8)
						want = (old[l] & 0xffff) | (out & 0xffff) << 16;
					else if (gfx10 || !strcmp(m.mn, "v_mac_f16") ||
						 !strcmp(m.mn, "v_madak_f16") ||
						 !strcmp(m.mn, "v_madmk_f16"))
						want = (old[l] & 0xffff0000u) | (out & 0xffff);
					else
						want = out & 0xffff;
					got = g->w.v[l];
					if (got != want) {
						/* a NaN is a NaN: its payload is the hardware's */
						bool f16 = strstr(m.mn, "f16") != NULL,
						     nan_ok = w16 && f16 &&
							      ((got & 0xffff) == (want & 0xffff) ||
							       (hnan(got & 0xffff) &&
								hnan(want & 0xffff))) &&
							      ((got >> 16) == (want >> 16) ||
							       (hnan(got >> 16) &&
								hnan(want >> 16)));
						bool nan_ok32 = !w16 &&
								!strcmp(m.mn, "v_cvt_f32_f16") &&
								(got & 0x7fffffffu) > 0x7f800000u &&
								(want & 0x7fffffffu) > 0x7f800000u;

						if (!nan_ok && !nan_ok32) {
							CHECK(0,
							      "%s: %s, MODE 0x%x, lane %u (v1 "
							      "0x%08x v2 0x%08x v3 0x%08x v0 "
							      "0x%08x): got 0x%08x, want 0x%08x",
							      name, tcs[t]->text, g->w.mode, l,
							      in1[l], in2[l], in3[l], old[l], got,
							      want);
							goto next;
						}
					}
				}
				if (strncmp(m.mn, "v_cmp", 5) == 0) {
					want_bits &= ex;
					if (m.sd)
						bits = sqk_get_mask(&g->w, m.sd);
					if (m.sd)
						CHECK(bits == want_bits,
						      "%s: %s, MODE 0x%x: mask 0x%llx, want 0x%llx",
						      name, tcs[t]->text, g->w.mode,
						      (unsigned long long)bits,
						      (unsigned long long)want_bits);
					if (m.cmpx)
						CHECK(sqk_exec(&g->w) == want_bits,
						      "%s: %s: EXEC 0x%llx, want 0x%llx", name,
						      tcs[t]->text,
						      (unsigned long long)sqk_exec(&g->w),
						      (unsigned long long)want_bits);
				}
				checked++;
			}
		}
	next:;
	}
	CHECK(checked > 0, "%s: nothing checked", name);
	printf("%s: %u cases, %u runs checked\n", name, nt, checked);
	bare_wave_free(g);
}

int main(void)
{
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	run_family("gfx900", "gfx900", 90000, 64, G900);
	run_family("gfx90a", "gfx90a", 90010, 64, G90A);
	run_family("gfx942", "gfx942", 90402, 64, G90A);
	run_family("gfx1030 wave32", "gfx1030", 100300, 32, F10);
	run_family("gfx1100 wave32", "gfx1100", 110000, 32, F11);
	run_family("gfx1200 wave32", "gfx1200", 120000, 32, F12);
	run_family("gfx1250 wave32", "gfx1250", 120500, 32, F125);
	return t_result("emu_sqk_valu16");
}
