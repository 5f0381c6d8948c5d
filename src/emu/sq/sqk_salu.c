/* SPDX-License-Identifier: MIT */
/*
 * Scalar ALU, program control and scalar memory of the kernel interpreter
 * (SOP1, SOP2, SOPK, SOPC, SOPP, SMEM). SCC rules follow the ISA manuals'
 * per-instruction descriptions: carry / borrow / signed overflow for the
 * add and subtract forms, "result != 0" for the logical, shift and bit-field
 * forms.
 */
#include "emu/sq/sqk_exec.h"

#define S32(i) ((uint32_t)sqk_sread(w, in, in->src[i], false, false))
#define S64(i) (sqk_sread(w, in, in->src[i], true, false))

static uint32_t bfe32(uint32_t v, uint32_t ctl, bool sgn)
{
	unsigned off = ctl & 31, wid = ctl >> 16 & 0x7f;

	if (!wid)
		return 0;
	if (wid + off > 32)
		wid = 32 - off;
	v >>= off;
	if (wid < 32) {
		v &= (1u << wid) - 1;
		if (sgn && (v >> (wid - 1) & 1))
			v |= ~((1u << wid) - 1);
	}
	return v;
}

static uint64_t bfe64(uint64_t v, uint32_t ctl, bool sgn)
{
	unsigned off = ctl & 63, wid = ctl >> 16 & 0x7f;

	if (!wid)
		return 0;
	if (wid + off > 64)
		wid = 64 - off;
	v >>= off;
	if (wid < 64) {
		v &= (1ull << wid) - 1;
		if (sgn && (v >> (wid - 1) & 1))
			v |= ~((1ull << wid) - 1);
	}
	return v;
}

static uint32_t brev32(uint32_t v)
{
	uint32_t r = 0;

	for (int i = 0; i < 32; i++)
		r |= (v >> i & 1) << (31 - i);
	return r;
}

/* HW registers s_getreg/s_setreg know (LLVM SIDefines.h Hwreg ids). */
#define HWREG_MODE 1
#define HWREG_STATUS 2
#define HWREG_TRAPSTS 3
#define HWREG_HW_ID 4
#define HWREG_SH_MEM_BASES 15
/* gfx10 on: FLAT_SCRATCH as hardware registers (SIDefines.h
 * ID_FLAT_SCR_LO 20, ID_FLAT_SCR_HI 21; the gfx10 kernel prologue sets
 * them with s_setreg_b32, AMDGPUUsage "Flat Scratch") */
#define HWREG_FLAT_SCR_LO 20
#define HWREG_FLAT_SCR_HI 21
#define HWREG_IB_STS2_1250 28
#define HWREG_IB_STS 7
/* gfx12 (LLVM SIDefines.h ID_EXCP_FLAG_PRIV 17; ids 20 and 21 are
 * SCRATCH_BASE_LO/HI there, the flat scratch base of gfx10/11's
 * FLAT_SCR_LO/HI) */
#define HWREG_EXCP_FLAG_PRIV_12 17
#define HWREG_HW_ID1_12 23

/*
 * The trap cause (w->trapsts, kept in the GC 9/10 layout of sqk.h) as the
 * generation's register shows it:
 *   GC 11 TRAPSTS: ADDR_WATCH0 [7], ADDR_WATCH1-3 EXCP_HI [14:12] as GC
 *   9/10; WAVE_START 0x20000, WAVE_END 0x40000 (the kernel's
 *   cwsr_trap_handler_gfx10.asm for CHIP_PLUM_BONITO);
 *   GC 12 EXCP_FLAG_PRIV: ADDR_WATCH [3:0], WAVE_START 0x100, WAVE_END
 *   0x200 (cwsr_trap_handler_gfx12.asm SQ_WAVE_EXCP_FLAG_PRIV_*); watch
 *   point n in bit n (UNVERIFIED: the kernel names the field, not its
 *   bits; kfdtest's handler tests the whole field).
 */
static uint32_t trap_cause(const struct sqk_wave *w)
{
	uint32_t t = w->trapsts, wave = 0;

	if (w->r->f->gen < SQK_GEN_GFX11)
		return t;
	wave = (t & SQK_TRAPSTS_WAVE_START ? 1u : 0) | (t & SQK_TRAPSTS_WAVE_END ? 2u : 0);
	if (w->r->f->gen == SQK_GEN_GFX11)
		return (t & ~(SQK_TRAPSTS_WAVE_START | SQK_TRAPSTS_WAVE_END)) | wave << 17;
	return (t & SQK_TRAPSTS_WATCH0 ? 1u : 0) | (t >> 12 & 7) << 1 | wave << 8;
}

static uint32_t getreg(struct sqk_wave *w, unsigned id)
{
	switch (id) {
	case HWREG_MODE:
		return w->mode;
	case HWREG_TRAPSTS:
		return trap_cause(w);
	case HWREG_STATUS:
		return 1u << 0 | (sqk_exec(w) == 0) << 9 | (sqk_get_mask(w, SQK_VCC) == 0) << 10 |
		       (w->scc ? 1u : 0);
	case HWREG_SH_MEM_BASES: /* PRIVATE_BASE [15:0], SHARED_BASE [31:16]: VA [63:48] */
		return (uint32_t)(w->r->d->private_base >> 48) |
		       (uint32_t)(w->r->d->shared_base >> 48) << 16;
	case HWREG_FLAT_SCR_LO:
		return w->r->f->gfx10 ? (uint32_t)w->flat_scratch : 0;
	case HWREG_FLAT_SCR_HI:
		return w->r->f->gfx10 ? (uint32_t)(w->flat_scratch >> 32) : 0;
	default:
		return 0;
	}
}

static void setreg(struct sqk_wave *w, unsigned simm, uint32_t v)
{
	unsigned id = simm & 0x3f, off = simm >> 6 & 31, size = (simm >> 11 & 31) + 1;
	uint32_t m = size >= 32 ? ~0u : ((1u << size) - 1) << off;

	if (id == HWREG_MODE)
		w->mode = (w->mode & ~m) | (v << off & m);
	else if (id == HWREG_FLAT_SCR_LO && w->r->f->gfx10)
		w->flat_scratch = (w->flat_scratch & ~(uint64_t)m) | (v << off & m);
	else if (id == HWREG_FLAT_SCR_HI && w->r->f->gfx10)
		w->flat_scratch =
			(w->flat_scratch & ~((uint64_t)m << 32)) | (uint64_t)(v << off & m) << 32;
}

/* SOPP branches: relative to the next instruction, in dwords. */
static inline int branch(struct sqk_wave *w, const struct sqk_insn *in)
{
	w->pc = in->pc + 4 + (int64_t)(int16_t)in->simm16 * 4;
	return 2;
}

/* The conditional branches and when each is taken, X(name, cond) with the
 * wave w: for sqk_exec_salu() and the hot executors. */
#define CBRANCHES(X)                                      \
	X(s_cbranch_scc0, !w->scc)                        \
	X(s_cbranch_scc1, w->scc)                         \
	X(s_cbranch_vccz, sqk_get_mask(w, SQK_VCC) == 0)  \
	X(s_cbranch_vccnz, sqk_get_mask(w, SQK_VCC) != 0) \
	X(s_cbranch_execz, sqk_exec(w) == 0)              \
	X(s_cbranch_execnz, sqk_exec(w) != 0)

int sqk_exec_salu(struct sqk_wave *w, const struct sqk_insn *in)
{
	unsigned d = in->dst;
	uint32_t a, b, r32;
	uint64_t a64, b64, r64, ex;
	int32_t k = (int16_t)in->simm16;
	const struct sqk_env *env = w->r->env;

	switch (in->op) {
	case K_s_add_f32 ... K_s_cmp_nlt_f16:
		return sqk_exec_salu_float(w, in);
	/* SOP2 */
	case K_s_add_u32:
		a = S32(0), b = S32(1);
		w->s[d] = a + b, w->scc = (uint64_t)a + b > 0xffffffffu;
		break;
	case K_s_sub_u32:
		a = S32(0), b = S32(1);
		w->s[d] = a - b, w->scc = b > a;
		break;
	case K_s_add_i32:
		a = S32(0), b = S32(1), r32 = a + b;
		w->scc = ((a ^ r32) & (b ^ r32)) >> 31;
		w->s[d] = r32;
		break;
	case K_s_sub_i32:
		a = S32(0), b = S32(1), r32 = a - b;
		w->scc = ((a ^ b) & (a ^ r32)) >> 31;
		w->s[d] = r32;
		break;
	case K_s_addc_u32:
		a = S32(0), b = S32(1);
		r64 = (uint64_t)a + b + w->scc;
		w->s[d] = (uint32_t)r64, w->scc = r64 >> 32;
		break;
	case K_s_subb_u32:
		a = S32(0), b = S32(1);
		r64 = (uint64_t)a - b - w->scc;
		w->s[d] = (uint32_t)r64, w->scc = (uint64_t)b + w->scc > a;
		break;
	case K_s_min_i32:
		a = S32(0), b = S32(1), w->scc = (int32_t)a < (int32_t)b;
		w->s[d] = w->scc ? a : b;
		break;
	case K_s_min_u32:
		a = S32(0), b = S32(1), w->scc = a < b;
		w->s[d] = w->scc ? a : b;
		break;
	case K_s_max_i32:
		a = S32(0), b = S32(1), w->scc = (int32_t)a > (int32_t)b;
		w->s[d] = w->scc ? a : b;
		break;
	case K_s_max_u32:
		a = S32(0), b = S32(1), w->scc = a > b;
		w->s[d] = w->scc ? a : b;
		break;
	case K_s_cselect_b32:
		a = S32(0), b = S32(1);
		w->s[d] = w->scc ? a : b;
		break;
	case K_s_cselect_b64:
		a64 = S64(0), b64 = S64(1);
		sqk_swrite(w, d, w->scc ? a64 : b64, true);
		break;
#define LOG32(name, expr)                             \
	case K_##name:                                \
		a = S32(0), b = S32(1), r32 = (expr); \
		w->s[d] = r32, w->scc = r32 != 0;     \
		break;
#define LOG64(name, expr)                                 \
	case K_##name:                                    \
		a64 = S64(0), b64 = S64(1), r64 = (expr); \
		sqk_swrite(w, d, r64, true);              \
		w->scc = r64 != 0;                        \
		break;
		LOG32(s_and_b32, a & b)
		LOG32(s_or_b32, a | b)
		LOG32(s_xor_b32, a ^ b)
		LOG32(s_andn2_b32, a & ~b)
		LOG32(s_orn2_b32, a | ~b)
		LOG32(s_nand_b32, ~(a & b))
		LOG32(s_nor_b32, ~(a | b))
		LOG32(s_xnor_b32, ~(a ^ b))
		LOG32(s_lshl_b32, a << (b & 31))
		LOG32(s_lshr_b32, a >> (b & 31))
		LOG32(s_ashr_i32, (uint32_t)((int32_t)a >> (b & 31)))
		LOG32(s_bfe_u32, bfe32(a, b, false))
		LOG32(s_bfe_i32, bfe32(a, b, true))
		LOG32(s_absdiff_i32, (int32_t)a > (int32_t)b ? a - b : b - a)
		LOG64(s_and_b64, a64 & b64)
		LOG64(s_or_b64, a64 | b64)
		LOG64(s_xor_b64, a64 ^ b64)
		LOG64(s_andn2_b64, a64 & ~b64)
		LOG64(s_orn2_b64, a64 | ~b64)
		LOG64(s_nand_b64, ~(a64 & b64))
		LOG64(s_nor_b64, ~(a64 | b64))
		LOG64(s_xnor_b64, ~(a64 ^ b64))
	/* gfx12 64-bit arithmetic, SCC untouched (RDNA4 ISA manual,
	 * S_ADD_NC_U64, S_SUB_NC_U64, S_MUL_U64: the low 64 bits) */
	case K_s_add_nc_u64:
		sqk_swrite(w, d, S64(0) + S64(1), true);
		break;
	case K_s_sub_nc_u64:
		sqk_swrite(w, d, S64(0) - S64(1), true);
		break;
	case K_s_mul_u64:
		sqk_swrite(w, d, S64(0) * S64(1), true);
		break;
	case K_s_lshl_b64:
		a64 = S64(0), b = S32(1), r64 = a64 << (b & 63);
		sqk_swrite(w, d, r64, true), w->scc = r64 != 0;
		break;
	case K_s_lshr_b64:
		a64 = S64(0), b = S32(1), r64 = a64 >> (b & 63);
		sqk_swrite(w, d, r64, true), w->scc = r64 != 0;
		break;
	case K_s_ashr_i64:
		a64 = S64(0), b = S32(1), r64 = (uint64_t)((int64_t)a64 >> (b & 63));
		sqk_swrite(w, d, r64, true), w->scc = r64 != 0;
		break;
	case K_s_bfe_u64:
	case K_s_bfe_i64:
		a64 = S64(0), b = S32(1), r64 = bfe64(a64, b, in->op == K_s_bfe_i64);
		sqk_swrite(w, d, r64, true), w->scc = r64 != 0;
		break;
	case K_s_bfm_b32:
		a = S32(0), b = S32(1);
		w->s[d] = (((a & 31) == 0 ? 0 : (1u << (a & 31)) - 1)) << (b & 31);
		break;
	case K_s_bfm_b64:
		a = S32(0), b = S32(1);
		sqk_swrite(w, d, ((a & 63) == 0 ? 0 : (1ull << (a & 63)) - 1) << (b & 63), true);
		break;
	case K_s_mul_i32:
		w->s[d] = (uint32_t)((int64_t)(int32_t)S32(0) * (int32_t)S32(1));
		break;
	case K_s_mul_hi_u32:
		w->s[d] = (uint32_t)(((uint64_t)S32(0) * S32(1)) >> 32);
		break;
	case K_s_mul_hi_i32:
		w->s[d] = (uint32_t)(((int64_t)(int32_t)S32(0) * (int32_t)S32(1)) >> 32);
		break;
	case K_s_lshl1_add_u32:
	case K_s_lshl2_add_u32:
	case K_s_lshl3_add_u32:
	case K_s_lshl4_add_u32: {
		unsigned sh = in->op - K_s_lshl1_add_u32 + 1;

		a = S32(0), b = S32(1);
		r64 = ((uint64_t)a << sh) + b;
		w->s[d] = (uint32_t)r64, w->scc = r64 >> 32 != 0;
		break;
	}
	case K_s_pack_ll_b32_b16:
		w->s[d] = (S32(0) & 0xffff) | S32(1) << 16;
		break;
	case K_s_pack_lh_b32_b16:
		w->s[d] = (S32(0) & 0xffff) | (S32(1) & 0xffff0000u);
		break;
	case K_s_pack_hh_b32_b16:
		w->s[d] = S32(0) >> 16 | (S32(1) & 0xffff0000u);
		break;
	/* SOPK */
	case K_s_movk_i32:
		w->s[d] = (uint32_t)k;
		break;
	case K_s_cmovk_i32:
		if (w->scc)
			w->s[d] = (uint32_t)k;
		break;
	case K_s_cmpk_eq_i32:
		w->scc = (int32_t)w->s[d] == k;
		break;
	case K_s_cmpk_lg_i32:
		w->scc = (int32_t)w->s[d] != k;
		break;
	case K_s_cmpk_gt_i32:
		w->scc = (int32_t)w->s[d] > k;
		break;
	case K_s_cmpk_ge_i32:
		w->scc = (int32_t)w->s[d] >= k;
		break;
	case K_s_cmpk_lt_i32:
		w->scc = (int32_t)w->s[d] < k;
		break;
	case K_s_cmpk_le_i32:
		w->scc = (int32_t)w->s[d] <= k;
		break;
	case K_s_cmpk_eq_u32:
		w->scc = w->s[d] == in->simm16;
		break;
	case K_s_cmpk_lg_u32:
		w->scc = w->s[d] != in->simm16;
		break;
	case K_s_cmpk_gt_u32:
		w->scc = w->s[d] > in->simm16;
		break;
	case K_s_cmpk_ge_u32:
		w->scc = w->s[d] >= in->simm16;
		break;
	case K_s_cmpk_lt_u32:
		w->scc = w->s[d] < in->simm16;
		break;
	case K_s_cmpk_le_u32:
		w->scc = w->s[d] <= in->simm16;
		break;
	case K_s_addk_i32:
		a = w->s[d], r32 = a + (uint32_t)k;
		w->scc = ((a ^ r32) & ((uint32_t)k ^ r32)) >> 31;
		w->s[d] = r32;
		break;
	case K_s_mulk_i32: /* the low 32 bits of the product, signed or not */
		w->s[d] *= (uint32_t)k;
		break;
	case K_s_getreg_b32: {
		unsigned id = in->simm16 & 0x3f, off = in->simm16 >> 6 & 31,
			 size = (in->simm16 >> 11 & 31) + 1;
		uint32_t v;

		/* gfx1250: IB_STS2 (id 28, LLVM SIDefines.h ID_IB_STS2)
		 * bits [9:6] are non-zero in a wave of a workgroup cluster;
		 * LLVM's code reads them to take its workgroup ids from the
		 * cluster fields of ttmp6 instead of ttmp9/ttmp7 (its
		 * s_getreg_b32 hwreg(HW_REG_IB_STS2, 6, 4); s_cmp_eq_u32 0;
		 * s_cselect ttmp9). The emulator dispatches no clusters:
		 * those bits read 0, as in a dispatch without clusters; any
		 * other bit of the register is refused. */
		if (w->r->f->gen >= SQK_GEN_GFX12_5 && id == HWREG_IB_STS2_1250 && off >= 6 &&
		    off + size <= 10) {
			w->s[d] = 0;
			break;
		}
		/* gfx12 renumbered the hardware registers but MODE and
		 * SCRATCH_BASE_LO/HI (LLVM SIDefines.h Hwreg ID_*);
		 * EXCP_FLAG_PRIV is the trap cause; the others are not
		 * modelled there */
		/* gfx12 HW_ID1 (LLVM SIDefines.h ID_HW_ID1 23): the env's
		 * placement of the workgroup (emu_kernel.c) */
		if (w->r->f->gen == SQK_GEN_GFX12 && id == HWREG_HW_ID1_12 && env->hw_id1) {
			v = env->hw_id1(env->ctx, w->group) >> off;
			w->s[d] = size >= 32 ? v : v & ((1u << size) - 1);
			break;
		}
		if (w->r->f->gen == SQK_GEN_GFX12 && id == HWREG_EXCP_FLAG_PRIV_12) {
			v = trap_cause(w) >> off;
			w->s[d] = size >= 32 ? v : v & ((1u << size) - 1);
			break;
		}
		if (w->r->f->gen >= SQK_GEN_GFX12 && id != HWREG_MODE &&
		    !(w->r->f->gen == SQK_GEN_GFX12 &&
		      (id == HWREG_FLAT_SCR_LO || id == HWREG_FLAT_SCR_HI)))
			return sqk_fail(w, in, -ENOTSUP, "hardware register not implemented");
		v = getreg(w, id) >> off;

		w->s[d] = size >= 32 ? v : v & ((1u << size) - 1);
		break;
	}
	case K_s_setreg_b32:
	case K_s_setreg_imm32_b32: {
		unsigned id = in->simm16 & 0x3f;

		/* gfx12: MODE, SCRATCH_BASE_LO/HI; STATUS and IB_STS only
		 * inside the trap handler, which writes back what it read
		 * (the emulator derives STATUS and has no IB_STS: no-ops) */
		if (w->r->f->gen >= SQK_GEN_GFX12 && id != HWREG_MODE &&
		    !(w->r->f->gen == SQK_GEN_GFX12 &&
		      (id == HWREG_FLAT_SCR_LO || id == HWREG_FLAT_SCR_HI ||
		       (w->in_trap && (id == HWREG_STATUS || id == HWREG_IB_STS)))))
			return sqk_fail(w, in, -ENOTSUP, "hardware register not implemented");
	}
		if (in->op == K_s_setreg_b32) {
			setreg(w, in->simm16, w->s[d]);
			break;
		}
		setreg(w, in->simm16, in->lit);
		break;
	case K_s_version:
	case K_s_waitcnt_vscnt:
	case K_s_waitcnt_vmcnt:
	case K_s_waitcnt_expcnt:
	case K_s_waitcnt_lgkmcnt:
		break;
	/* SOP1 */
	case K_s_mov_b32:
		w->s[d] = S32(0);
		break;
	case K_s_mov_b64:
		sqk_swrite(w, d, S64(0), true);
		break;
	case K_s_cmov_b32:
		a = S32(0);
		if (w->scc)
			w->s[d] = a;
		break;
	case K_s_cmov_b64:
		a64 = S64(0);
		if (w->scc)
			sqk_swrite(w, d, a64, true);
		break;
	case K_s_not_b32:
		w->s[d] = r32 = ~S32(0), w->scc = r32 != 0;
		break;
	case K_s_not_b64:
		r64 = ~S64(0), sqk_swrite(w, d, r64, true), w->scc = r64 != 0;
		break;
	case K_s_brev_b32:
		w->s[d] = brev32(S32(0));
		break;
	case K_s_brev_b64:
		a64 = S64(0);
		sqk_swrite(w, d,
			   (uint64_t)brev32((uint32_t)a64) << 32 | brev32((uint32_t)(a64 >> 32)),
			   true);
		break;
	case K_s_bcnt0_i32_b32:
		w->s[d] = r32 = 32 - (uint32_t)__builtin_popcount(S32(0)), w->scc = r32 != 0;
		break;
	case K_s_bcnt0_i32_b64:
		w->s[d] = r32 = 64 - (uint32_t)__builtin_popcountll(S64(0)), w->scc = r32 != 0;
		break;
	case K_s_bcnt1_i32_b32:
		w->s[d] = r32 = (uint32_t)__builtin_popcount(S32(0)), w->scc = r32 != 0;
		break;
	case K_s_bcnt1_i32_b64:
		w->s[d] = r32 = (uint32_t)__builtin_popcountll(S64(0)), w->scc = r32 != 0;
		break;
	case K_s_ff0_i32_b32:
		a = ~S32(0), w->s[d] = a ? (uint32_t)__builtin_ctz(a) : ~0u;
		break;
	case K_s_ff0_i32_b64:
		a64 = ~S64(0), w->s[d] = a64 ? (uint32_t)__builtin_ctzll(a64) : ~0u;
		break;
	case K_s_ff1_i32_b32:
		a = S32(0), w->s[d] = a ? (uint32_t)__builtin_ctz(a) : ~0u;
		break;
	case K_s_ff1_i32_b64:
		a64 = S64(0), w->s[d] = a64 ? (uint32_t)__builtin_ctzll(a64) : ~0u;
		break;
	case K_s_flbit_i32_b32:
		a = S32(0), w->s[d] = a ? (uint32_t)__builtin_clz(a) : ~0u;
		break;
	case K_s_flbit_i32_b64:
		a64 = S64(0), w->s[d] = a64 ? (uint32_t)__builtin_clzll(a64) : ~0u;
		break;
	case K_s_flbit_i32:
		a = S32(0);
		if ((int32_t)a < 0)
			a = ~a;
		w->s[d] = a ? (uint32_t)__builtin_clz(a) : ~0u;
		break;
	case K_s_flbit_i32_i64:
		a64 = S64(0);
		if ((int64_t)a64 < 0)
			a64 = ~a64;
		w->s[d] = a64 ? (uint32_t)__builtin_clzll(a64) : ~0u;
		break;
	case K_s_sext_i32_i8:
		w->s[d] = (uint32_t)(int32_t)(int8_t)S32(0);
		break;
	case K_s_sext_i32_i16:
		w->s[d] = (uint32_t)(int32_t)(int16_t)S32(0);
		break;
	case K_s_bitset0_b32:
		w->s[d] &= ~(1u << (S32(0) & 31));
		break;
	case K_s_bitset1_b32:
		w->s[d] |= 1u << (S32(0) & 31);
		break;
	case K_s_bitset0_b64:
		sqk_swrite(w, d, sqk_sread(w, in, d, true, false) & ~(1ull << (S32(0) & 63)), true);
		break;
	case K_s_bitset1_b64:
		sqk_swrite(w, d, sqk_sread(w, in, d, true, false) | 1ull << (S32(0) & 63), true);
		break;
	case K_s_abs_i32:
		a = S32(0), r32 = (int32_t)a < 0 ? -a : a;
		w->s[d] = r32, w->scc = r32 != 0;
		break;
	case K_s_getpc_b64:
		sqk_swrite(w, d, in->pc + in->size, true);
		break;
	case K_s_setpc_b64:
		w->pc = S64(0);
		return 2; /* pc set */
	case K_s_rfe_b64:
		/* return from the trap handler: PC = S0 (48 bits); the trap's
		 * TRAPSTS cause ends with it (emulator choice: the handler
		 * may leave it set, the next trap reports its own) */
		w->pc = S64(0) & 0xffffffffffffull;
		w->in_trap = false;
		w->trapsts = 0;
		/* the wave end trap's return ends the wave wherever it
		 * returns to (UNVERIFIED: kfdtest's GC 11 handler steps
		 * past the s_endpgm, its GC 9/10/12 ones return to it) */
		if (w->end_trapped) {
			w->state = SQK_DONE;
			return 1;
		}
		return 2;
	case K_s_swappc_b64:
		a64 = S64(0);
		sqk_swrite(w, d, in->pc + in->size, true);
		w->pc = a64;
		return 2;
		/* s_<op>_saveexec: D = EXEC; EXEC = op(S0, EXEC); SCC = EXEC != 0.
	 * andn1/orn1 complement S0; the wrexec forms write EXEC and D both with
	 * the new value. */
#define SAVEEXEC(name, expr, wrexec)                                       \
	case K_##name##_b32:                                               \
	case K_##name##_b64:                                               \
		a64 = sqk_sread(w, in, in->src[0], w->lanes == 64, false); \
		ex = sqk_exec(w);                                          \
		r64 = (expr)&sqk_mask(w);                                  \
		if (!(wrexec))                                             \
			sqk_swrite(w, d, ex, w->lanes == 64);              \
		sqk_set_mask(w, SQK_EXEC, r64);                            \
		if (wrexec)                                                \
			sqk_swrite(w, d, r64, w->lanes == 64);             \
		w->scc = r64 != 0;                                         \
		break;
		SAVEEXEC(s_and_saveexec, a64 & ex, false)
		SAVEEXEC(s_or_saveexec, a64 | ex, false)
		SAVEEXEC(s_xor_saveexec, a64 ^ ex, false)
		SAVEEXEC(s_andn2_saveexec, a64 & ~ex, false)
		SAVEEXEC(s_orn2_saveexec, a64 | ~ex, false)
		SAVEEXEC(s_nand_saveexec, ~(a64 & ex), false)
		SAVEEXEC(s_nor_saveexec, ~(a64 | ex), false)
		SAVEEXEC(s_xnor_saveexec, ~(a64 ^ ex), false)
		SAVEEXEC(s_andn1_saveexec, ~a64 & ex, false)
		SAVEEXEC(s_orn1_saveexec, ~a64 | ex, false)
		SAVEEXEC(s_andn1_wrexec, ~a64 & ex, true)
		SAVEEXEC(s_andn2_wrexec, a64 & ~ex, true)
	/* SOPC */
	case K_s_cmp_eq_i32:
	case K_s_cmp_eq_u32:
		w->scc = S32(0) == S32(1);
		break;
	case K_s_cmp_lg_i32:
	case K_s_cmp_lg_u32:
		w->scc = S32(0) != S32(1);
		break;
	case K_s_cmp_gt_i32:
		w->scc = (int32_t)S32(0) > (int32_t)S32(1);
		break;
	case K_s_cmp_ge_i32:
		w->scc = (int32_t)S32(0) >= (int32_t)S32(1);
		break;
	case K_s_cmp_lt_i32:
		w->scc = (int32_t)S32(0) < (int32_t)S32(1);
		break;
	case K_s_cmp_le_i32:
		w->scc = (int32_t)S32(0) <= (int32_t)S32(1);
		break;
	case K_s_cmp_gt_u32:
		w->scc = S32(0) > S32(1);
		break;
	case K_s_cmp_ge_u32:
		w->scc = S32(0) >= S32(1);
		break;
	case K_s_cmp_lt_u32:
		w->scc = S32(0) < S32(1);
		break;
	case K_s_cmp_le_u32:
		w->scc = S32(0) <= S32(1);
		break;
	case K_s_cmp_eq_u64:
		w->scc = S64(0) == S64(1);
		break;
	case K_s_cmp_lg_u64:
		w->scc = S64(0) != S64(1);
		break;
	case K_s_bitcmp0_b32:
		w->scc = !(S32(0) >> (S32(1) & 31) & 1);
		break;
	case K_s_bitcmp1_b32:
		w->scc = S32(0) >> (S32(1) & 31) & 1;
		break;
	case K_s_bitcmp0_b64:
		w->scc = !(S64(0) >> (S32(1) & 63) & 1);
		break;
	case K_s_bitcmp1_b64:
		w->scc = S64(0) >> (S32(1) & 63) & 1;
		break;
	/* SOPP: branches are relative to the next instruction, in dwords */
	case K_s_branch:
		return branch(w, in);
#define CBR(name, cond)                       \
	case K_##name:                        \
		if (cond)                     \
			return branch(w, in); \
		break;
		CBRANCHES(CBR)
#undef CBR
	case K_s_endpgm:
		/* an address watch hit not yet reported (sqk_mem.c) is
		 * before the wave ends */
		if (w->watch_late && !w->in_trap) {
			sqk_trap_enter(w, in->pc, 0, w->watch_late);
			w->watch_late = 0;
			return 2;
		}
		/* wave end trap (KFD_DBG_TRAP_MASK_TRAP_ON_WAVE_END): the
		 * handler runs before the wave ends; its s_rfe_b64 comes back
		 * to this s_endpgm, which then ends the wave */
		if (w->r->tba && (w->r->wave_traps & SQK_WAVE_TRAP_END) && !w->end_trapped &&
		    !w->in_trap) {
			w->end_trapped = true;
			sqk_trap_enter(w, in->pc, 0, SQK_TRAPSTS_WAVE_END);
			return 2;
		}
		w->state = SQK_DONE;
		return 1;
	/* gfx12's split workgroup barrier (RDNA4 ISA manual, S_BARRIER_SIGNAL
	 * and S_BARRIER_WAIT; barrier id -1 is the workgroup's): the wave is
	 * held at the wait until every wave of the workgroup that has not
	 * ended reaches a wait, as s_barrier holds it. That is one of the
	 * schedules the hardware may run (waves between the signal and the
	 * wait are delayed), so results agree; named barriers (other ids) are
	 * not implemented. */
	case K_s_barrier_signal:
		if (S32(0) != 0xffffffffu)
			return sqk_fail(w, in, -ENOTSUP, "named barrier not implemented");
		w->bar_signalled = true;
		break;
	case K_s_barrier_wait:
		if (in->simm16 != 0xffff)
			return sqk_fail(w, in, -ENOTSUP, "named barrier not implemented");
		if (!w->bar_signalled)
			return sqk_fail(w, in, -ENOTSUP, "s_barrier_wait without s_barrier_signal");
		w->bar_signalled = false;
		/* fall through */
	case K_s_barrier:
		w->state = SQK_BARRIER;
		w->pc = in->pc + in->size;
		return 1;
	case K_s_sendmsg:
	case K_s_sendmsghalt: {
		/* message id: simm16[3:0] on gfx9/gfx10, [7:0] from gfx11
		 * (LLVM SIDefines.h SendMsg::ID_MASK_PreGFX11_,
		 * ID_MASK_GFX11Plus_) */
		unsigned id = in->simm16 & (w->r->f->gen >= SQK_GEN_GFX11 ? 0xff : 0xf);
		int rr;

		/* MSG_GET_DOORBELL (LLVM SIDefines.h ID_GET_DOORBELL 10, GC
		 * 9/10): the doorbell id lands in EXEC_LO with bit 31 clear
		 * (the kernel's cwsr_trap_handler_gfx9.asm waits for it) */
		if (id == 10 && env->doorbell && w->r->f->gen < SQK_GEN_GFX11) {
			w->s[SQK_EXEC] = env->doorbell(env->ctx) & 0x3ff;
			break;
		}
		rr = env->message ? env->message(env->ctx, id | (w->in_trap ? SQK_MSG_PRIV : 0),
						 w->s[SQK_M0])
				  : 0;

		if (rr < 0)
			return sqk_fail(w, in, rr, "message refused");
		if (in->op == K_s_sendmsghalt) {
			w->state = SQK_DONE;
			return 1;
		}
		break;
	}
	case K_s_sendmsg_rtn_b32:
		/* gfx11/12: the message id is SSRC0's field (LLVM SIDefines.h
		 * ID_RTN_GET_DOORBELL 128): the queue's doorbell id in
		 * [9:0] (the trap handlers keep DOORBELL_ID_MASK 0x3ff; the
		 * other bits are 0 here, UNVERIFIED). Other messages are not
		 * implemented. */
		if (in->src[0] != 128 || !env->doorbell)
			return sqk_fail(w, in, -ENOTSUP, "message not implemented");
		w->s[d] = env->doorbell(env->ctx) & 0x3ff;
		break;
	case K_s_trap: {
		int rr;

		/* a second-level handler run as code: ttmp0/1 point at the
		 * s_trap (the handler steps over it) */
		if (w->r->tba && !w->in_trap) {
			sqk_trap_enter(w, in->pc, (uint8_t)in->simm16, 0);
			return 2;
		}
		rr = env->trap ? env->trap(env->ctx, (uint8_t)in->simm16) : 0;

		if (rr < 0)
			return sqk_fail(w, in, rr, "trap handler failed");
		if (rr == 0) {
			struct sqk_result *res = w->r->res;

			res->trapped = true;
			res->trap_id = (uint8_t)in->simm16;
			res->pc = in->pc;
			return -EINTR;
		}
		break;
	}
	case K_s_code_end:
		return sqk_fail(w, in, -EPROTO, "illegal instruction");
	case K_s_nop:
	case K_s_waitcnt:
	case K_s_sethalt:
	case K_s_sleep:
	case K_s_setprio:
	case K_s_icache_inv:
	case K_s_incperflevel:
	case K_s_decperflevel:
	case K_s_inst_prefetch:
	case K_s_clause:
	case K_s_waitcnt_depctr:
	case K_s_delay_alu:
	case K_s_ttracedata:
	case K_s_wait_loadcnt:
	case K_s_wait_storecnt:
	case K_s_wait_samplecnt:
	case K_s_wait_bvhcnt:
	case K_s_wait_expcnt:
	case K_s_wait_dscnt:
	case K_s_wait_kmcnt:
	case K_s_wait_xcnt: /* gfx1250 address translations: done at issue here */
	case K_s_wait_loadcnt_dscnt:
	case K_s_wait_storecnt_dscnt:
		break;
	/* gfx9 VGPR index mode: M0[7:0] index, M0[15:12] the operands it
	 * applies to (SRC0, SRC1, SRC2, DST) */
	case K_s_set_gpr_idx_on:
		w->s[SQK_M0] =
			(w->s[SQK_M0] & ~0xf0ffu) | (S32(0) & 0xff) | (in->src[1] & 15) << 12;
		w->gpr_idx = true;
		break;
	case K_s_set_gpr_idx_off:
		w->gpr_idx = false;
		break;
	case K_s_set_gpr_idx_mode:
		w->s[SQK_M0] = (w->s[SQK_M0] & ~0xf000u) | (in->simm16 & 15) << 12;
		break;
	case K_s_set_gpr_idx_idx:
		w->s[SQK_M0] = (w->s[SQK_M0] & ~0xffu) | (S32(0) & 0xff);
		break;
	case K_s_round_mode: /* MODE[3:0] */
		w->mode = (w->mode & ~0xfu) | (in->simm16 & 0xf);
		break;
	case K_s_denorm_mode: /* MODE[7:4] */
		w->mode = (w->mode & ~0xf0u) | (in->simm16 & 0xf) << 4;
		break;
	default:
		return sqk_fail(w, in, -ENOTSUP, "unimplemented instruction");
	}
	return 0;
}

/* A scalar memory instruction's byte offset: its immediate plus the
 * SOFFSET SGPR's value when it names one (the dword forms then drop the two
 * low bits, the sub-dword loads check them). */
static inline uint64_t smem_offset(struct sqk_wave *w, const struct sqk_insn *in)
{
	uint64_t off = (uint64_t)(int64_t)in->offset;

	if (in->soffset != 0xffff)
		off += (uint32_t)sqk_sread(w, in, in->soffset, false, false);
	return off;
}

/* S_STORE_DWORD / X2 / X4 (gfx8-gfx10 ISA manuals, "Scalar Memory
 * Operations"): MEM[SGPR[sbase] + offset] = SDATA, 1, 2 or 4 dwords from
 * the SDATA field's SGPR on, the address as a scalar load's (the offset's
 * two low bits ignored). */
static int smem_store(struct sqk_wave *w, const struct sqk_insn *in, uint64_t base)
{
	unsigned n = in->op == K_s_store_dword ? 1 : in->op == K_s_store_dwordx2 ? 2 : 4;
	uint64_t off = smem_offset(w, in) & ~3ull;
	uint32_t tmp[4];

	for (unsigned i = 0; i < n; i++)
		tmp[i] = in->dst + i < 128 ? w->s[in->dst + i] : 0;
	return sqk_vm_write(w, in, (base + off) & 0xffffffffffffull, tmp, 4 * n) < 0 ? -EFAULT : 0;
}

/* S_LOAD_{U8,I8,U16,I16} and their S_BUFFER_ forms (RDNA4 ISA manual,
 * "Scalar Memory Operations"): one byte or halfword, zero- or
 * sign-extended into SDATA; the buffer forms read 0 outside num_records as
 * the dword forms do. The ISA manual leaves an address not aligned to the
 * size undefined here: refused (UNVERIFIED what the hardware reads). */
static int smem_subdword(struct sqk_wave *w, const struct sqk_insn *in, uint64_t base)
{
	bool buf = in->op >= K_s_buffer_load_u8,
	     sx = in->op == K_s_load_i8 || in->op == K_s_load_i16 || in->op == K_s_buffer_load_i8 ||
		  in->op == K_s_buffer_load_i16;
	unsigned len = (in->op == K_s_load_u8 || in->op == K_s_load_i8 ||
			in->op == K_s_buffer_load_u8 || in->op == K_s_buffer_load_i8)
			       ? 1
			       : 2;
	uint64_t off = smem_offset(w, in);
	uint8_t b[2] = { 0, 0 };
	uint32_t v;

	if (off & (len - 1))
		return sqk_fail(w, in, -ENOTSUP, "unaligned sub-dword scalar load");
	if (buf) {
		uint32_t num = w->s[in->src[0] + 2];

		if ((uint64_t)(uint32_t)off + len <= num &&
		    sqk_vm_read(w, in, base + (uint32_t)off, b, len) < 0)
			return -EFAULT;
	} else if (sqk_vm_read(w, in, (base + off) & 0xffffffffffffull, b, len) < 0) {
		return -EFAULT;
	}
	v = len == 1 ? b[0] : (uint32_t)b[0] | (uint32_t)b[1] << 8;
	if (sx)
		v = len == 1 ? (uint32_t)(int8_t)v : (uint32_t)(int16_t)v;
	if (in->dst < 128 && in->dst != SQK_NULL10)
		w->s[in->dst] = v;
	return 0;
}

int sqk_exec_smem(struct sqk_wave *w, const struct sqk_insn *in)
{
	unsigned n = 0, d = in->dst;
	uint64_t base = sqk_sread(w, in, in->src[0], true, false) & 0xffffffffffffull, off;
	bool buf = false;
	uint32_t tmp[16];

	n = sqk_smem_load_dwords(in->op);
	if (!n && sqk_smem_subdword(in->op))
		return smem_subdword(w, in, base);
	if (!n)
		switch (in->op) {
		case K_s_memtime:
		case K_s_memrealtime:
			sqk_swrite(w, d, w->r->env->clock ? w->r->env->clock(w->r->env->ctx) : 0,
				   true);
			return 0;
		case K_s_store_dword:
		case K_s_store_dwordx2:
		case K_s_store_dwordx4:
			return smem_store(w, in, base);
		case K_s_dcache_inv:
		case K_s_dcache_wb:
		case K_s_gl1_inv:
		case K_s_dcache_inv_vol:
		case K_s_dcache_wb_vol:
			return 0;
		default:
			return sqk_fail(w, in, -ENOTSUP, "unimplemented instruction");
		}
	buf = in->op >= K_s_buffer_load_dword && in->op <= K_s_buffer_load_dwordx16;
	off = smem_offset(w, in) & ~3ull;
	if (buf) {
		/* V# in s[sbase:sbase+3]: base [47:0], num_records in dword 2 */
		uint32_t num = w->s[in->src[0] + 2];

		base &= 0xffffffffffffull;
		for (unsigned i = 0; i < n; i++) {
			uint64_t o = (uint32_t)off + 4ull * i;

			tmp[i] = 0;
			if (o + 4 <= num && sqk_vm_read(w, in, base + o, &tmp[i], 4) < 0)
				return -EFAULT;
		}
	} else {
		uint64_t va = (base + off) & 0xffffffffffffull;

		/* (a load within one page to SGPRs below M0 has a hot
		 * executor of its own, sqk_smem_hot(): not here) */
		if (sqk_vm_read(w, in, va, tmp, 4 * n) < 0)
			return -EFAULT;
	}
	for (unsigned i = 0; i < n && d + i < 128; i++)
		if (!(w->r->f->gfx10 && d + i == SQK_NULL10))
			w->s[d + i] = tmp[i];
	return 0;
}

/*
 * Hot executors: the scalar instructions compiled copy and address code
 * runs on every wave (moves, 32-bit and carried adds, multiplies, shifts,
 * logic, compares, conditional branches on SCC and EXEC, s_and_saveexec,
 * waits), each its own small function that the run loop binds to the
 * decoded instruction (sqk_salu_hot()) instead of going through
 * sqk_exec_salu()'s switch. Each gives the results of that switch's case
 * (test/emu_sqk_valu_fast.c compares them on random instances): sources are
 * read with sqk_sread() as there (SGPRs, VCC, EXEC, M0, inline and literal
 * constants); only destinations among the SGPRs, VCC and the trap
 * temporaries (below M0, both dwords of a 64-bit one) are bound, and the
 * halves of EXEC for the 32-bit forms (a plain register write there too,
 * as in the switch), so M0, NULL and 64-bit EXEC destinations keep to the
 * general path.
 */
#define SHOT static __attribute__((noinline)) int

SHOT hot_s_mov_b32(struct sqk_wave *w, const struct sqk_insn *in)
{
	w->s[in->dst] = S32(0);
	return 0;
}

SHOT hot_s_mov_b64(struct sqk_wave *w, const struct sqk_insn *in)
{
	uint64_t v = S64(0);

	w->s[in->dst] = (uint32_t)v, w->s[in->dst + 1] = (uint32_t)(v >> 32);
	return 0;
}

SHOT hot_s_add_u32(struct sqk_wave *w, const struct sqk_insn *in)
{
	uint64_t r = (uint64_t)S32(0) + S32(1);

	w->s[in->dst] = (uint32_t)r, w->scc = r >> 32 != 0;
	return 0;
}

SHOT hot_s_addc_u32(struct sqk_wave *w, const struct sqk_insn *in)
{
	uint64_t r = (uint64_t)S32(0) + S32(1) + (w->scc ? 1 : 0);

	w->s[in->dst] = (uint32_t)r, w->scc = r >> 32 != 0;
	return 0;
}

SHOT hot_s_add_i32(struct sqk_wave *w, const struct sqk_insn *in)
{
	uint32_t a = S32(0), b = S32(1), r = a + b;

	/* signed overflow: both sources of one sign, the sum of the other */
	w->s[in->dst] = r, w->scc = ((a ^ r) & (b ^ r)) >> 31 != 0;
	return 0;
}

SHOT hot_s_sub_u32(struct sqk_wave *w, const struct sqk_insn *in)
{
	uint32_t a = S32(0), b = S32(1);

	w->s[in->dst] = a - b, w->scc = b > a;
	return 0;
}

SHOT hot_s_mul_i32(struct sqk_wave *w, const struct sqk_insn *in)
{
	w->s[in->dst] = S32(0) * S32(1); /* the low 32 bits, SCC untouched */
	return 0;
}

#define SHOT_LOG32(name, expr)                                         \
	SHOT hot_##name(struct sqk_wave *w, const struct sqk_insn *in) \
	{                                                              \
		uint32_t a = S32(0), b = S32(1), r = (expr);           \
                                                                       \
		w->s[in->dst] = r, w->scc = r != 0;                    \
		return 0;                                              \
	}
SHOT_LOG32(s_and_b32, a &b)
SHOT_LOG32(s_or_b32, a | b)
SHOT_LOG32(s_xor_b32, a ^ b)
SHOT_LOG32(s_andn2_b32, a & ~b)
SHOT_LOG32(s_lshl_b32, a << (b & 31))
SHOT_LOG32(s_lshr_b32, a >> (b & 31))

#define SHOT_LOG64(name, expr)                                                        \
	SHOT hot_##name(struct sqk_wave *w, const struct sqk_insn *in)                \
	{                                                                             \
		uint64_t a = S64(0), r = (expr);                                      \
                                                                                      \
		w->s[in->dst] = (uint32_t)r, w->s[in->dst + 1] = (uint32_t)(r >> 32); \
		w->scc = r != 0;                                                      \
		return 0;                                                             \
	}
SHOT_LOG64(s_and_b64, a &S64(1))
SHOT_LOG64(s_or_b64, a | S64(1))
SHOT_LOG64(s_lshl_b64, a << (S32(1) & 63))

#define SHOT_CMP(name, expr)                                           \
	SHOT hot_##name(struct sqk_wave *w, const struct sqk_insn *in) \
	{                                                              \
		uint32_t a = S32(0), b = S32(1);                       \
                                                                       \
		w->scc = (expr);                                       \
		return 0;                                              \
	}
SHOT_CMP(s_cmp_eq_u32, a == b)
SHOT_CMP(s_cmp_lg_u32, a != b)
SHOT_CMP(s_cmp_gt_u32, a > b)
SHOT_CMP(s_cmp_ge_u32, a >= b)
SHOT_CMP(s_cmp_lt_u32, a < b)
SHOT_CMP(s_cmp_le_u32, a <= b)
SHOT_CMP(s_cmp_gt_i32, (int32_t)a > (int32_t)b)
SHOT_CMP(s_cmp_ge_i32, (int32_t)a >= (int32_t)b)
SHOT_CMP(s_cmp_lt_i32, (int32_t)a < (int32_t)b)
SHOT_CMP(s_cmp_le_i32, (int32_t)a <= (int32_t)b)

#define SHOT_CBR(name, cond)                                           \
	SHOT hot_##name(struct sqk_wave *w, const struct sqk_insn *in) \
	{                                                              \
		return (cond) ? branch(w, in) : 0;                     \
	}
CBRANCHES(SHOT_CBR)

SHOT hot_s_branch(struct sqk_wave *w, const struct sqk_insn *in)
{
	return branch(w, in);
}

/* D = EXEC; EXEC = op(S0, EXEC); SCC = EXEC != 0, as wide as the wave */
#define SHOT_SAVEEXEC(name, expr)                                                        \
	SHOT hot_##name(struct sqk_wave *w, const struct sqk_insn *in)                   \
	{                                                                                \
		bool b64 = w->lanes == 64;                                               \
		uint64_t ex = sqk_exec(w), a = sqk_sread(w, in, in->src[0], b64, false); \
		uint64_t r = (expr)&sqk_mask(w);                                         \
                                                                                         \
		w->s[in->dst] = (uint32_t)ex;                                            \
		if (b64)                                                                 \
			w->s[in->dst + 1] = (uint32_t)(ex >> 32);                        \
		sqk_set_mask(w, SQK_EXEC, r);                                            \
		w->scc = r != 0;                                                         \
		return 0;                                                                \
	}
SHOT_SAVEEXEC(s_and_saveexec, a &ex)
SHOT_SAVEEXEC(s_or_saveexec, a | ex)
SHOT_SAVEEXEC(s_andn2_saveexec, a & ~ex)

SHOT hot_s_nop(struct sqk_wave *w, const struct sqk_insn *in)
{
	(void)w, (void)in;
	return 0;
}

sqk_exec_fn sqk_salu_hot(const struct sqk_insn *in)
{
	/* a destination the executor writes as a plain SGPR, both dwords of
	 * a 64-bit one; a 32-bit write to EXEC's halves is one too, in
	 * sqk_exec_salu() as here */
	bool d32 = in->dst < SQK_M0 || in->dst == SQK_EXEC || in->dst == SQK_EXEC + 1;
	bool d64 = in->dst + 1u < SQK_M0;

	switch (in->op) {
	case K_s_mov_b32:
		return d32 ? hot_s_mov_b32 : NULL;
	case K_s_mov_b64:
		return d64 ? hot_s_mov_b64 : NULL;
	case K_s_add_u32:
		return d32 ? hot_s_add_u32 : NULL;
	case K_s_addc_u32:
		return d32 ? hot_s_addc_u32 : NULL;
	case K_s_add_i32:
		return d32 ? hot_s_add_i32 : NULL;
	case K_s_sub_u32:
		return d32 ? hot_s_sub_u32 : NULL;
	case K_s_mul_i32:
		return d32 ? hot_s_mul_i32 : NULL;
	case K_s_and_b32:
		return d32 ? hot_s_and_b32 : NULL;
	case K_s_or_b32:
		return d32 ? hot_s_or_b32 : NULL;
	case K_s_xor_b32:
		return d32 ? hot_s_xor_b32 : NULL;
	case K_s_andn2_b32:
		return d32 ? hot_s_andn2_b32 : NULL;
	case K_s_lshl_b32:
		return d32 ? hot_s_lshl_b32 : NULL;
	case K_s_lshr_b32:
		return d32 ? hot_s_lshr_b32 : NULL;
	case K_s_and_b64:
		return d64 ? hot_s_and_b64 : NULL;
	case K_s_or_b64:
		return d64 ? hot_s_or_b64 : NULL;
	case K_s_lshl_b64:
		return d64 ? hot_s_lshl_b64 : NULL;
	case K_s_and_saveexec_b32:
	case K_s_and_saveexec_b64:
		return d64 ? hot_s_and_saveexec : NULL;
	case K_s_or_saveexec_b32:
	case K_s_or_saveexec_b64:
		return d64 ? hot_s_or_saveexec : NULL;
	case K_s_andn2_saveexec_b32:
	case K_s_andn2_saveexec_b64:
		return d64 ? hot_s_andn2_saveexec : NULL;
	case K_s_cmp_eq_i32:
	case K_s_cmp_eq_u32:
		return hot_s_cmp_eq_u32;
	case K_s_cmp_lg_i32:
	case K_s_cmp_lg_u32:
		return hot_s_cmp_lg_u32;
	case K_s_cmp_gt_u32:
		return hot_s_cmp_gt_u32;
	case K_s_cmp_ge_u32:
		return hot_s_cmp_ge_u32;
	case K_s_cmp_lt_u32:
		return hot_s_cmp_lt_u32;
	case K_s_cmp_le_u32:
		return hot_s_cmp_le_u32;
	case K_s_cmp_gt_i32:
		return hot_s_cmp_gt_i32;
	case K_s_cmp_ge_i32:
		return hot_s_cmp_ge_i32;
	case K_s_cmp_lt_i32:
		return hot_s_cmp_lt_i32;
	case K_s_cmp_le_i32:
		return hot_s_cmp_le_i32;
	case K_s_cbranch_scc0:
		return hot_s_cbranch_scc0;
	case K_s_cbranch_scc1:
		return hot_s_cbranch_scc1;
	case K_s_cbranch_execz:
		return hot_s_cbranch_execz;
	case K_s_cbranch_execnz:
		return hot_s_cbranch_execnz;
	case K_s_cbranch_vccz:
		return hot_s_cbranch_vccz;
	case K_s_cbranch_vccnz:
		return hot_s_cbranch_vccnz;
	case K_s_branch:
		return hot_s_branch;
	case K_s_clause:
	case K_s_nop:
	case K_s_waitcnt:
		return hot_s_nop;
	default:
		return NULL;
	}
}

/*
 * Scalar loads of whole dwords (s_load_dword*, not the buffer forms) bound
 * at decode to executors of their own: the address as sqk_exec_smem()
 * forms it (sbase's 48 bits + the offset + soffset, the two low bits
 * dropped); a load within one page goes straight into its SGPRs, the
 * dword count a constant, the TLB's hit inline; a load to SGPRs not all
 * below M0 (bound to sqk_exec_smem() at decode) or across a page to
 * sqk_exec_smem().
 */
/* hot_sload() past the TLB: the page's translation, or the fault. */
static __attribute__((noinline)) int hot_sload_miss(struct sqk_wave *w, const struct sqk_insn *in,
						    uint64_t va, unsigned n)
{
	const uint8_t *p = sqk_vm_page(w, in, va);

	if (!p)
		return -EFAULT;
	memcpy(&w->s[in->dst], p, 4 * n);
	return 0;
}

static inline __attribute__((always_inline)) int hot_sload(struct sqk_wave *w,
							   const struct sqk_insn *in, unsigned n)
{
	const struct sqk_run *r = w->r;
	uint64_t base, va, page;
	unsigned i;

	/* sbase and soffset SGPRs below M0 here (no call out of the
	 * executor: it sets up no frame), any other to sqk_exec_smem() */
	if (in->src[0] >= SQK_M0 || (in->soffset != 0xffff && in->soffset >= SQK_M0))
		return sqk_exec_smem(w, in);
	base = sqk_sread(w, in, in->src[0], true, false) & 0xffffffffffffull;
	va = (base + (smem_offset(w, in) & ~3ull)) & 0xffffffffffffull;
	if ((va & 4095) + 4 * n > 4096)
		return sqk_exec_smem(w, in);
	page = va >> 12;
	i = sqk_tlb_index(page);
	/* either entry of the set (sqk_mem.c xl_miss()): the kernel-argument
	 * and dispatch-packet pages every wave reads may share one */
	if (r->tlb[i].page != page + 1 && r->tlb[++i].page != page + 1)
		return hot_sload_miss(w, in, va, n);
	memcpy(&w->s[in->dst], r->tlb[i].host + (va & 4095), 4 * n);
	return 0;
}

#define HOT_SLOAD(n)                                                           \
	static int hot_sload##n(struct sqk_wave *w, const struct sqk_insn *in) \
	{                                                                      \
		return hot_sload(w, in, n);                                    \
	}
HOT_SLOAD(1)
HOT_SLOAD(2)
HOT_SLOAD(3)
HOT_SLOAD(4)
HOT_SLOAD(8)
HOT_SLOAD(16)

sqk_exec_fn sqk_smem_hot(const struct sqk_insn *in)
{
	if (in->op >= K_s_buffer_load_dword && in->op <= K_s_buffer_load_dwordx16)
		return NULL;
	if (in->dst + sqk_smem_load_dwords(in->op) > SQK_M0)
		return NULL;
	switch (sqk_smem_load_dwords(in->op)) {
	case 1:
		return hot_sload1;
	case 2:
		return hot_sload2;
	case 3:
		return hot_sload3;
	case 4:
		return hot_sload4;
	case 8:
		return hot_sload8;
	case 16:
		return hot_sload16;
	default:
		return NULL;
	}
}
