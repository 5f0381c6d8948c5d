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

/* A field or opcode a generation does not have. */
#define SQ_NONE 0xffffu

/* SMEM, FLAT and cache-policy layouts (the decoder's and printer's branches). */
enum sq_smem_form {
	SQ_SMEM_VI,    /* SMEM_Real_vi: gfx8, gfx9 */
	SQ_SMEM_GFX10, /* SMEM_Real_gfx10 / _gfx11 (dlc, glc positions differ) */
	SQ_SMEM_GFX12, /* SMEM_Real_gfx12: th, scope */
};

enum sq_flat_form {
	SQ_FLAT_GFX8, /* FLAT_Real_vi without offset or segment */
	SQ_FLAT_GFX9, /* FLAT_Real_vi with offset and segment */
	SQ_FLAT_GFX10,
	SQ_FLAT_GFX11,
	SQ_FLAT_GFX12, /* VFLAT / VGLOBAL, 96 bits */
};

enum sq_cpol_names {
	SQ_CPOL_GLC, /* glc slc dlc scc */
	SQ_CPOL_SC,  /* gfx940: sc0 nt sc1 */
	SQ_CPOL_TH,  /* gfx12: th: scope: */
};

/*
 * The encodings of one ISA generation: every per-generation fact the
 * decoder, the printer and the interpreter use (sq_enc.c, one row per
 * generation, each fact citing its LLVM source there).
 */
struct sq_enc {
	const char *name;
	/* scalar operand codes */
	uint16_t m0, null;
	uint8_t max_sgpr;
	uint16_t flat_saddr_off; /* FLAT/GLOBAL saddr meaning "off" */
	/* bits [31:26] of the 64-bit encodings */
	uint16_t enc_smem, enc_vop3, enc_flat, enc_mubuf;
	/* SOPP opcodes */
	uint16_t sopp_endpgm, sopp_waitcnt, sopp_sendmsg, sopp_code_end, sopp_trap;
	uint16_t sopp_wait_first; /* s_wait_loadcnt; the 8 s_wait_*cnt follow */
	/* s_waitcnt simm16: vmcnt low and high parts, expcnt (3 bits), lgkmcnt */
	uint8_t vm_shift, vm_bits, vm_hi_shift, vm_hi_bits, exp_shift, lgkm_shift, lgkm_bits;
	uint16_t sop1_mov_b32; /* s_mov_b64 is the next opcode */
	uint16_t sopk_waitcnt_vscnt;
	/* SMEM */
	enum sq_smem_form smem;
	uint8_t smem_offset_bits, smem_glc_bit, smem_dlc_bit;
	uint8_t smem_max_op; /* s_load_dword .. s_load_dwordx16, (gfx12) s_load_b96 */
	/* VOP3 opcode of VOP1 op 0, and whether VOP3 takes a literal */
	uint16_t vop3_vop1_base;
	bool vop3_literal;
	/* FLAT / GLOBAL */
	enum sq_flat_form flat;
	uint8_t flat_store_op; /* first store opcode */
	uint8_t flat_store_ndw[4];
	/* cache policy: names printed, SC1 bit (gfx90a scc, gfx940 sc1),
	 * MUBUF buffer_wbl2 */
	enum sq_cpol_names cpol;
	bool sc1, wbl2;
	/* mnemonics with _b32 .. names (s_load_b32, global_store_b32) */
	bool b_names;
	/* interpreter */
	uint8_t store_cnt, flat_store_cnt, smem_cnt; /* enum sq_counter */
	bool release_wb; /* system-scope release needs a cache writeback */
	uint8_t msg_id_mask;
	bool m0_hazard; /* an SALU m0 write needs a wait state before s_sendmsg */
	bool wave32;
};

/* The row of a generation (emu_gen.c level and family). */
const struct sq_enc *emu_sq_enc(const struct emu_gen *t);

/* sq_decode.c: decode the instruction at @pc (sq_decode()). */
int emu_sq_decode(const struct sq_enc *e, const void *code, size_t code_size, uint64_t code_va,
		  uint64_t pc, struct sq_insn *in);

/* sq_print.c: print it as llvm-objdump does (sq_format()). */
int emu_sq_format(const struct sq_enc *e, const struct sq_insn *in, char *buf, size_t len);

#endif
