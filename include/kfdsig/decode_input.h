/* SPDX-License-Identifier: MIT */
/*
 * Input formats of the decoder: the dumps people have of a ring or an IB
 * (raw binary, hex text, xxd, xxd -e, hexdump -C, od, UMR ring or IB text,
 * amdgpu_ring_* debugfs files, amdgpu devcoredump text), turned into
 * dwords in order, streaming (memory bounded by one line or one chunk), for
 * kfdsig_decoder_feed() or any other consumer.
 *
 * kfdsig_decode_input_detect() names the format of a file from its first bytes;
 * kfdsig_decode_input_parse() reads a file in a named format and hands the dwords
 * to a callback. Input that is not in the format is refused (-EBADMSG, the
 * line and the reason in kfdsig_last_error()), never read as something else.
 */
#ifndef KFDSIG_DECODE_INPUT_H
#define KFDSIG_DECODE_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <kfdsig/common.h>

#ifdef __cplusplus
extern "C" {
#endif

enum kfdsig_decode_input_format {
	KFDSIG_DECODE_INPUT_AUTO = 0, /* kfdsig_decode_input_parse(): detect from the head */
	KFDSIG_DECODE_INPUT_BIN,      /* little-endian dwords */
	KFDSIG_DECODE_INPUT_HEX,      /* dwords in hex, any layout, 0x optional, '#' comments */
	KFDSIG_DECODE_INPUT_XXD,      /* xxd (bytes in file order, any -g; -a '*' lines) */
	KFDSIG_DECODE_INPUT_XXD_E,    /* xxd -e (little-endian 32-bit words) */
	KFDSIG_DECODE_INPUT_HEXDUMP,  /* hexdump -C ('*' repeats the previous line) */
	KFDSIG_DECODE_INPUT_OD,	      /* od: default (octal 2-byte), -t x1/x2/x4, any -A */
	KFDSIG_DECODE_INPUT_UMR,      /* umr ring text (ring[N] == 0xV lines) or IB text */
	KFDSIG_DECODE_INPUT_DEBUGFS,  /* amdgpu_ring_* debugfs file: rptr, wptr, drv wptr, ring */
	KFDSIG_DECODE_INPUT_DEVCOREDUMP, /* amdgpu devcoredump text: "Ring contents" sections */
};

/* One past the last format: names and values are 0 .. KFDSIG_DECODE_INPUT_NR - 1. */
#define KFDSIG_DECODE_INPUT_NR (KFDSIG_DECODE_INPUT_DEVCOREDUMP + 1)

/* Default of kfdsig_decode_input_opts.max_repeat: 1 GiB. */
#define KFDSIG_DECODE_INPUT_MAX_REPEAT_DEFAULT (1ull << 30)

/* Declare with KFDSIG_OPTS(kfdsig_decode_input_opts, name, ...) (common.h). */
struct kfdsig_decode_input_opts {
	size_t sz;	 /* sizeof(struct kfdsig_decode_input_opts) */
	uint32_t format; /* enum kfdsig_decode_input_format */
	uint32_t pad_0;	 /* must be 0 */
	/* devcoredump: the ring to read ("ring name: NAME"); NULL: the only
	 * one (a dump of several rings is refused, naming them). */
	const char *ring_name;
	/* Most bytes one '*' line of xxd -a, hexdump -C or od may stand for,
	 * so that a crafted offset cannot make the reader run on for ever;
	 * 0: KFDSIG_DECODE_INPUT_MAX_REPEAT_DEFAULT. */
	uint64_t max_repeat;
	/* Where the dwords go, host-endian, in order, in chunks; a non-zero
	 * return stops the parse, and kfdsig_decode_input_parse() returns it (return
	 * a positive value to tell it from the parser's own errors). */
	void *ctx;
	int (*dwords)(void *ctx, const uint32_t *dw, size_t n);
};

/* kfdsig_decode_input_ring.flags */
#define KFDSIG_DECODE_INPUT_RING_PTRS (1u << 0)	   /* rptr and wptr are known */
#define KFDSIG_DECODE_INPUT_RING_INDEXED (1u << 1) /* UMR: dwords carry ring indexes */

/* What a format said about the ring it holds (debugfs header, UMR ring
 * text, devcoredump section); filled whole by kfdsig_decode_input_parse(). */
struct kfdsig_decode_input_ring {
	uint32_t flags;	      /* KFDSIG_DECODE_INPUT_RING_* */
	uint32_t reserved_0;  /* 0 */
	uint64_t rptr, wptr;  /* in dwords, with KFDSIG_DECODE_INPUT_RING_PTRS */
	uint64_t first_index; /* ring index of the first dword (UMR) */
	char name[64];	      /* ring name (devcoredump, UMR), "" if none */
	uint64_t reserved[4]; /* 0 */
};

/**
 * kfdsig_decode_input_format_name() - the name of input format @format: "auto",
 * "bin", "hex", "xxd", "xxd-e", "hexdump", "od", "umr", "debugfs",
 * "devcoredump".
 *
 * Return: the name (static), or NULL with errno = EINVAL for an unknown
 * format.
 */
KFDSIG_API const char *kfdsig_decode_input_format_name(unsigned int format);

/**
 * kfdsig_decode_input_format_by_name() - the format a name given by
 * kfdsig_decode_input_format_name() stands for (exact match).
 *
 * Return: the enum kfdsig_decode_input_format value, or -EINVAL for an unknown or
 * NULL name.
 */
KFDSIG_API int kfdsig_decode_input_format_by_name(const char *name);

/**
 * kfdsig_decode_input_detect() - the format of a file from its first bytes.
 * @head: the file's first bytes (a few KiB decide reliably)
 * @n:    bytes at @head (0: an empty file, which reads as hex)
 * @path: the file's path, or NULL: a base name amdgpu_ring_* is a debugfs
 *        ring file
 *
 * Bytes that are not text are binary; text is told apart by its markers
 * (devcoredump and UMR headers) or by the shape of its first line (xxd,
 * xxd -e, hexdump -C, od), else it is plain hex. Plain hex whose first
 * dword is written with 6 or 7 digits looks like od: name the format.
 *
 * Return: a format other than KFDSIG_DECODE_INPUT_AUTO, or -EINVAL when @head is
 * NULL and @n is not 0.
 */
KFDSIG_API int kfdsig_decode_input_detect(const void *head, size_t n, const char *path);

/**
 * kfdsig_decode_input_parse() - read a dump and pass its dwords to o->dwords.
 * @f:     the file, positioned just past @head
 * @head:  bytes already read from @f (the ones kfdsig_decode_input_detect() saw),
 *         or NULL when @nhead is 0
 * @nhead: bytes at @head
 * @o:     the format (KFDSIG_DECODE_INPUT_AUTO: kfdsig_decode_input_detect() of @head,
 *         without a path), the devcoredump ring, the callback
 * @ring:  NULL, or what the input said about its ring
 *
 * Return: 0 when the whole input was read; -EBADMSG for input that is not
 * in the format (a bad token or offset, stray bytes after the last whole
 * dword, a debugfs file shorter than its 12-byte header, a devcoredump
 * without the ring, or of several rings and no o->ring_name, the rings
 * named in kfdsig_last_error(); the input line in kfdsig_last_error()); -EIO when
 * reading @f fails; -ENOMEM; -EINVAL for bad arguments or options; or the
 * callback's non-zero return. Dwords before the point of failure may have
 * been passed on.
 */
KFDSIG_API int kfdsig_decode_input_parse(FILE *f, const void *head, size_t nhead,
					 const struct kfdsig_decode_input_opts *o,
					 struct kfdsig_decode_input_ring *ring);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_DECODE_INPUT_H */
