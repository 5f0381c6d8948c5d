/* SPDX-License-Identifier: MIT */
/*
 * Tables of the generated stubs_gen.c: the assembled signal stubs, one
 * family per source file, one code object per target. Offsets are byte
 * offsets into the target's code object (the ELF file image).
 */
#ifndef KFDSIG_SHADERS_STUBS_GEN_H
#define KFDSIG_SHADERS_STUBS_GEN_H

#include <stdint.h>

struct stub_family {
	const char *name;      /* "gfx94x": the source is <name>.s */
	const char *file;      /* "gfx94x.s" */
	const char *source;    /* the assembly source text */
	const char *processor; /* LLVM processor of the family's first target */
	uint32_t elf_size;
	uint32_t text_off, text_size; /* .text in the ELF image */
	/* kfdsig_signal: kernel-argument form */
	uint32_t co_entry, co_size, co_kd;
	/* kfdsig_signal_raw: the blob runs from raw_entry for raw_size bytes
	 * (to the end of .text, padding included); raw_insn_size bytes are
	 * instructions up to s_endpgm. */
	uint32_t raw_entry, raw_size, raw_insn_size, raw_kd;
	/* Literal offsets relative to raw_entry: slot lo, slot hi, event id. */
	uint32_t patch[3];
	/* kfdsig_trap (s_trap 3, no arguments): the blob runs from trap_entry
	 * for trap_size bytes (to kfdsig_signal_raw); trap_insn_size bytes are
	 * instructions up to s_endpgm. */
	uint32_t trap_entry, trap_size, trap_insn_size, trap_kd;
};

struct stub_target {
	const char *name;      /* kfdsig target name, "gfx940" */
	const char *processor; /* -mcpu it was assembled with, "gfx942" */
	unsigned family;       /* index in stub_families */
	const uint8_t *elf;    /* family elf_size bytes */
	uint32_t e_flags;
};

extern const char stub_llvm_version[];
extern const struct stub_family stub_families[];
extern const struct stub_target stub_targets[];
extern const unsigned stub_nfamilies;
extern const unsigned stub_ntargets;

#endif
