/* SPDX-License-Identifier: MIT */
/*
 * Internal interface of the emulated shader unit (src/emu/sq): the
 * decoder (sq_decode.c), the printer (sq_print.c), the interpreter
 * (sq_exec.c) and the per-generation encodings they read (sq_enc.c).
 */
#ifndef KFDSIG_EMU_SQ_PRIV_H
#define KFDSIG_EMU_SQ_PRIV_H

#include "core/internal.h"
#include "emu/sq/sq.h"

/* sq_enc.c: the emulator's generation facts of a target (emu_gen.c). */
int emu_sq_gen(const struct kfdsig_target *target, struct emu_gen *g);

/* ------------------------------------------------------------------ */
/* Per-level encoding facts (t->level / t->family of emu_gen.c).       */

static inline bool is_gfx8_9(const struct emu_gen *t)
{
	return t->level <= KFDSIG_GFX9;
}

static inline bool is_gfx10(const struct emu_gen *t)
{
	return t->level == KFDSIG_GFX10 || t->level == KFDSIG_GFX10_3;
}

static inline bool is_gfx11_plus(const struct emu_gen *t)
{
	return t->level >= KFDSIG_GFX11;
}

static inline bool is_gfx940(const struct emu_gen *t)
{
	return t->family == KFDSIG_FAMILY_GFX94X;
}

/* Scalar operand codes that move between generations: m0 is 124 up to
 * gfx10 and 125 from gfx11; null is 125 on gfx10 and 124 from gfx11
 * (SIRegisterInfo / operand docs; gfx1100 s_mov_b32 m0 = 0xbefd....). */
static inline unsigned code_m0(const struct emu_gen *t)
{
	return is_gfx11_plus(t) ? 125 : 124;
}

static inline unsigned code_null(const struct emu_gen *t)
{
	if (is_gfx11_plus(t))
		return 124;
	return is_gfx10(t) ? 125 : KFDSIG_SQ_OPND_NONE;
}

/* Highest plain SGPR number: gfx8/9 keep 102-105 for flat_scratch and
 * xnack_mask, gfx10 and later address s0-s105. */
static inline unsigned max_sgpr(const struct emu_gen *t)
{
	return is_gfx8_9(t) ? 101 : 105;
}

/* FLAT/GLOBAL saddr value meaning "off": 0x7f on gfx9, null on gfx10+. */
static inline unsigned flat_saddr_off(const struct emu_gen *t)
{
	return is_gfx8_9(t) ? 0x7f : code_null(t);
}

/* sq_decode.c: decode the instruction at @pc (kfdsig_sq_decode()). */
int emu_sq_decode(const struct emu_gen *t, const void *code, size_t code_size, uint64_t code_va,
		  uint64_t pc, struct kfdsig_sq_insn *in);

/* sq_print.c: print it as llvm-objdump does (kfdsig_sq_format()). */
int emu_sq_format(const struct emu_gen *t, const struct kfdsig_sq_insn *in, char *buf, size_t len);

#endif
