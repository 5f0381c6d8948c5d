/* SPDX-License-Identifier: MIT */
/*
 * Input formats of `kfdsig decode`: the dump formats people have, turned
 * into dwords (tools/decode_input.c).
 */
#ifndef KFDSIG_TOOLS_DECODE_INPUT_H
#define KFDSIG_TOOLS_DECODE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum din_kind {
	DIN_AUTO,
	DIN_BIN,	 /* little-endian dwords */
	DIN_HEX,	 /* dwords in hex, any layout */
	DIN_XXD,	 /* xxd (bytes in file order, any -g) */
	DIN_XXD_E,	 /* xxd -e (little-endian 32-bit words) */
	DIN_HEXDUMP,	 /* hexdump -C */
	DIN_OD,		 /* od: default (octal 2-byte), -t x1/x2/x4, any -A */
	DIN_UMR,	 /* umr --ring-stream text (ring[N] == 0xV lines) */
	DIN_DEBUGFS,	 /* amdgpu_ring_* debugfs file: rptr, wptr, drv wptr, ring */
	DIN_DEVCOREDUMP, /* amdgpu devcoredump text: "Ring contents" sections */
};

/* Most bytes one '*' line of xxd -a / hexdump / od may stand for (1 GiB;
 * the fuzzer lowers it): a crafted offset cannot make the reader run on
 * for ever. */
extern uint64_t din_max_repeat;

/* Name <-> kind; din_parse_kind() returns false for an unknown name. */
bool din_parse_kind(const char *s, enum din_kind *k);
const char *din_kind_name(enum din_kind k);

/* Where dwords go: @fn gets them in order; non-zero stops the parse. */
struct din_sink {
	void *ctx;
	int (*fn)(void *ctx, const uint32_t *dw, size_t n);
};

/* What a format said about the ring (debugfs header, UMR, devcoredump). */
struct din_ring {
	bool has_ptrs; /* rptr/wptr known (dwords) */
	uint64_t rptr, wptr;
	uint64_t first_index; /* dword index of the first dword (UMR) */
	bool indexed;	      /* UMR: the dwords carry ring indexes */
	char name[64];	      /* ring name (devcoredump, UMR) */
};

/*
 * Detect the format of a file from its first bytes (@head, @n) and its
 * path (amdgpu_ring_* is a debugfs ring file).
 */
enum din_kind din_detect(const unsigned char *head, size_t n, const char *path);

/*
 * Parse @f (already positioned at its start; @head/@nhead are bytes
 * already read from it) as @kind and send the dwords to @s. @ring_name
 * selects a devcoredump ring (NULL: the first). Return 0, EXIT_USAGE for
 * input that is not in the format (message printed), EXIT_FAILURE for an
 * I/O error, or the sink's non-zero return.
 */
int din_parse(FILE *f, enum din_kind kind, const unsigned char *head, size_t nhead,
	      const char *ring_name, const struct din_sink *s, struct din_ring *ring);

#endif
