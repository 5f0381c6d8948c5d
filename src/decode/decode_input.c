/* SPDX-License-Identifier: MIT */
/*
 * Input formats of the decoder (kfdsig/decode_input.h). Each turns a dump
 * into dwords, in order, streaming (memory bounded by one line or one
 * chunk):
 *
 *  bin          little-endian dwords
 *  hex          dwords in hex, any number per line, 0x optional, '#' comments
 *  xxd          `xxd FILE` (any -g): "OFFSET: hex groups  ascii", bytes in
 *               file order; `xxd -a` '*' lines are runs of zero lines
 *  xxd-e        `xxd -e FILE`: groups are little-endian 32-bit words
 *  hexdump      `hexdump -C FILE`: "OFFSET  bytes  |ascii|", '*' repeats
 *               the previous line up to the next offset
 *  od           `od FILE` (default: octal 2-byte words), `od -t x1/x2/x4`,
 *               any -A radix (found from the second line's offset); '*'
 *               repeats the previous line
 *  umr          UMR ring text (app/ring_read.c prints "ASIC.RING.rptr == N"
 *               and "ASIC.RING.ring[   N] == 0xVVVVVVVV ..." lines, pointers
 *               in dwords) or IB text (umr_dump_ib(): "Dumping IB at ...",
 *               "IB[VMID@0xADDR + 0xOFF ] = 0xVALUE ...", "End of IB");
 *               the ring's lines if any, else the first IB's; colour
 *               escapes are ignored
 *  debugfs      /sys/kernel/debug/dri/N/amdgpu_ring_NAME: the kernel's
 *               amdgpu_debugfs_ring_read() (amdgpu_ring.c) returns 3 dwords
 *               rptr, wptr, driver wptr (dwords, masked by buf_mask), then
 *               the ring
 *  devcoredump  amdgpu devcoredump text (amdgpu_dev_coredump.c, the ring
 *               section of amdgpu_devcoredump_format(): "ring name: NAME",
 *               "Rptr: 0x%llx Wptr: 0x%llx RB mask: %x" (dword pointers,
 *               not masked: taken modulo the ring here), "Ring size in
 *               dwords: N", "Ring contents" (or "Ring contents
 *               unavailable"), "Offset \t Value", then "0x%x \t 0x%x"
 *               lines of byte offset and dword)
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdsig/decode_input.h>

#include "core/internal.h"
#include "core/opts.h"

static const char *const kind_names[] = {
	[KFDSIG_DECODE_INPUT_AUTO] = "auto",
	[KFDSIG_DECODE_INPUT_BIN] = "bin",
	[KFDSIG_DECODE_INPUT_HEX] = "hex",
	[KFDSIG_DECODE_INPUT_XXD] = "xxd",
	[KFDSIG_DECODE_INPUT_XXD_E] = "xxd-e",
	[KFDSIG_DECODE_INPUT_HEXDUMP] = "hexdump",
	[KFDSIG_DECODE_INPUT_OD] = "od",
	[KFDSIG_DECODE_INPUT_UMR] = "umr",
	[KFDSIG_DECODE_INPUT_DEBUGFS] = "debugfs",
	[KFDSIG_DECODE_INPUT_DEVCOREDUMP] = "devcoredump",
};

const char *kfdsig_decode_input_format_name(unsigned int format)
{
	if (format >= sizeof(kind_names) / sizeof(kind_names[0])) {
		set_error(EINVAL, "input format %u: no such format", format);
		errno = EINVAL;
		return NULL;
	}
	return kind_names[format];
}

int kfdsig_decode_input_format_by_name(const char *name)
{
	if (!name)
		return set_error(EINVAL, "no input format name");
	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (!strcmp(name, kind_names[i]))
			return (int)i;
	return set_error(EINVAL,
			 "input format '%s' is not one of auto, bin, hex, xxd, xxd-e, hexdump, od, "
			 "umr, debugfs, devcoredump",
			 name);
}

/* ---- dword / byte accumulator ---- */

#define ACC_DW 16384

struct acc {
	void *ctx;
	int (*fn)(void *ctx, const uint32_t *dw, size_t n);
	uint32_t dw[ACC_DW];
	size_t n;
	uint32_t part; /* bytes of an incomplete dword */
	unsigned nb;
	uint64_t bytes; /* bytes emitted so far */
	int stop;
};

static void acc_flush(struct acc *a)
{
	if (a->n && !a->stop)
		a->stop = a->fn(a->ctx, a->dw, a->n);
	a->n = 0;
}

static void acc_dw(struct acc *a, uint32_t v)
{
	a->dw[a->n++] = v;
	a->bytes += 4;
	if (a->n == ACC_DW)
		acc_flush(a);
}

static void acc_byte(struct acc *a, uint8_t b)
{
	a->part |= (uint32_t)b << (8 * a->nb);
	if (++a->nb == 4) {
		a->dw[a->n++] = a->part;
		a->part = 0;
		a->nb = 0;
		if (a->n == ACC_DW)
			acc_flush(a);
	}
	a->bytes++;
}

static int acc_end(struct acc *a)
{
	acc_flush(a);
	if (a->stop)
		return a->stop;
	if (a->nb)
		return set_error(EBADMSG,
				 "input ends with %u stray byte(s): the stream must be "
				 "whole little-endian dwords",
				 a->nb);
	return 0;
}

/* ---- line reader over the bytes already read plus the rest of the file ---- */

#define LINE_MAX_BYTES 65536

struct lines {
	FILE *f;
	char buf[2 * LINE_MAX_BYTES];
	size_t len, pos;
	bool eof;
	unsigned long no;
};

/* Next line (without '\n', NUL-terminated) or NULL at the end; a line
 * longer than LINE_MAX_BYTES is cut (the rest is the next "line"). */
static char *next_line(struct lines *l)
{
	char *nl;

	for (;;) {
		nl = memchr(l->buf + l->pos, '\n', l->len - l->pos);
		if (nl || l->eof || l->len - l->pos >= LINE_MAX_BYTES)
			break;
		memmove(l->buf, l->buf + l->pos, l->len - l->pos);
		l->len -= l->pos;
		l->pos = 0;
		{
			size_t k = fread(l->buf + l->len, 1, sizeof(l->buf) - 1 - l->len, l->f);

			if (k == 0)
				l->eof = true;
			l->len += k;
		}
	}
	if (l->pos >= l->len)
		return NULL;
	{
		char *s = l->buf + l->pos;
		size_t n = nl ? (size_t)(nl - s) : l->len - l->pos;

		if (!nl && n > LINE_MAX_BYTES)
			n = LINE_MAX_BYTES;
		l->pos += n + (nl ? 1 : 0);
		s[n] = '\0'; /* overwrites the '\n' (or the byte kept in reserve) */
		if (n && s[n - 1] == '\r')
			s[n - 1] = '\0';
		l->no++;
		return s;
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parse a number of @n digits in @radix; false on a bad digit. */
static bool num(const char *s, size_t n, unsigned radix, uint64_t *v)
{
	*v = 0;
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		int d = hexval((unsigned char)s[i]);

		if (d < 0 || (unsigned)d >= radix)
			return false;
		*v = *v * radix + (unsigned)d;
	}
	return true;
}

/* ---- dump formats with offsets and '*' (xxd, hexdump -C, od) ---- */

struct dump {
	struct acc *a;
	enum kfdsig_decode_input_format kind;
	uint8_t last[256]; /* bytes of the previous data line (for '*') */
	size_t nlast;
	bool star;
	unsigned radix; /* od offsets: 0 until known */
	unsigned long lines;
	uint64_t max_repeat; /* kfdsig_decode_input_opts.max_repeat */
};

/* Repeat the previous line (zeros for xxd -a) up to byte offset @to. */
static int fill_to(struct dump *d, uint64_t to, unsigned long line)
{
	if (to < d->a->bytes)
		return set_error(EBADMSG,
				 "input line %lu: offset 0x%llx goes back (0x%llx bytes "
				 "read)",
				 line, (unsigned long long)to, (unsigned long long)d->a->bytes);
	if (!d->star) {
		if (to != d->a->bytes)
			return set_error(EBADMSG, "input line %lu: offset 0x%llx, expected 0x%llx",
					 line, (unsigned long long)to,
					 (unsigned long long)d->a->bytes);
		return 0;
	}
	d->star = false;
	if (!d->nlast)
		return set_error(EBADMSG, "input line %lu: '*' with no line to repeat", line);
	if (to - d->a->bytes > d->max_repeat)
		return set_error(EBADMSG,
				 "input line %lu: '*' would repeat 0x%llx bytes, more than "
				 "the 0x%llx this reader allows",
				 line, (unsigned long long)(to - d->a->bytes),
				 (unsigned long long)d->max_repeat);
	while (d->a->bytes < to && !d->a->stop)
		for (size_t i = 0; i < d->nlast && d->a->bytes < to; i++)
			acc_byte(d->a, d->kind == KFDSIG_DECODE_INPUT_XXD ||
						       d->kind == KFDSIG_DECODE_INPUT_XXD_E
					       ? 0
					       : d->last[i]);
	return 0;
}

/* Emit the value of token @t (@n hex or octal digits) as bytes: in print
 * order for byte groups (xxd, hexdump), little-endian for words. */
static void emit_token(struct dump *d, const char *t, size_t n, bool words, unsigned radix,
		       unsigned bytes)
{
	uint64_t v = 0;

	if (!words) {
		for (size_t i = 0; i + 1 < n; i += 2) {
			uint8_t b = (uint8_t)(hexval((unsigned char)t[i]) << 4 |
					      hexval((unsigned char)t[i + 1]));

			acc_byte(d->a, b);
			if (d->nlast < sizeof(d->last))
				d->last[d->nlast++] = b;
		}
		return;
	}
	num(t, n, radix, &v);
	for (unsigned i = 0; i < bytes; i++) {
		uint8_t b = (uint8_t)(v >> (8 * i));

		acc_byte(d->a, b);
		if (d->nlast < sizeof(d->last))
			d->last[d->nlast++] = b;
	}
}

static bool all_digits(const char *s, size_t n, unsigned radix)
{
	uint64_t v;

	return num(s, n, radix, &v);
}

static int dump_line(struct dump *d, char *s, unsigned long no)
{
	const char *p = s, *end;
	uint64_t off = 0;
	size_t n;
	unsigned radix = 16;

	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	if (p[0] == '*' && (!p[1] || isspace((unsigned char)p[1]))) {
		d->star = true;
		return 0;
	}
	n = strspn(p, "0123456789abcdefABCDEF");
	if (d->kind == KFDSIG_DECODE_INPUT_OD) {
		size_t lineb = d->nlast;

		/* The radix of od offsets: the one that makes the second line's
		 * offset the length of the first. */
		if (!d->radix && d->lines == 1 && !d->star) {
			static const unsigned cand[] = { 8, 16, 10 };

			for (unsigned i = 0; i < 3 && !d->radix; i++)
				if (num(p, n, cand[i], &off) && off == lineb)
					d->radix = cand[i];
		}
		radix = d->radix ? d->radix : (all_digits(p, n, 8) ? 8 : 16);
	}
	if (!num(p, n, radix, &off))
		return set_error(EBADMSG, "input line %lu: no offset at the start of '%.40s'", no,
				 s);
	p += n;
	if ((d->kind == KFDSIG_DECODE_INPUT_XXD || d->kind == KFDSIG_DECODE_INPUT_XXD_E)) {
		if (*p != ':')
			return set_error(EBADMSG, "input line %lu: not an xxd line: '%.40s'", no,
					 s);
		p++;
	}
	{
		int r = fill_to(d, off, no);

		if (r)
			return r;
	}
	/* The hex area ends at "  " (xxd), '|' (hexdump -C), or the line. */
	end = p + strlen(p);
	if (d->kind == KFDSIG_DECODE_INPUT_HEXDUMP) {
		const char *bar = strchr(p, '|');

		if (bar)
			end = bar;
	} else if (d->kind == KFDSIG_DECODE_INPUT_XXD || d->kind == KFDSIG_DECODE_INPUT_XXD_E) {
		const char *gap = strstr(p + 1, "  ");

		if (gap)
			end = gap;
	}
	d->nlast = 0;
	d->lines++;
	while (p < end) {
		const char *t;
		size_t k;

		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		t = p;
		while (p < end && *p != ' ')
			p++;
		k = (size_t)(p - t);
		if (d->kind == KFDSIG_DECODE_INPUT_OD) {
			/* 6 octal digits: a 2-byte word (od's default -t o2);
			 * 2/4/8 hex digits: -t x1/x2/x4. */
			if (k == 6 && all_digits(t, k, 8))
				emit_token(d, t, k, true, 8, 2);
			else if ((k == 2 || k == 4 || k == 8) && all_digits(t, k, 16))
				emit_token(d, t, k, true, 16, (unsigned)k / 2);
			else
				return set_error(EBADMSG,
						 "input line %lu: '%.*s' is not an od word "
						 "(octal 2-byte or hex 1/2/4-byte)",
						 no, (int)k, t);
		} else if ((k & 1) || !all_digits(t, k, 16) || k > 16) {
			return set_error(EBADMSG, "input line %lu: '%.*s' is not a hex group", no,
					 (int)k, t);
		} else {
			emit_token(d, t, k, d->kind == KFDSIG_DECODE_INPUT_XXD_E, 16,
				   (unsigned)k / 2);
		}
	}
	return 0;
}

static int parse_dump(struct lines *l, enum kfdsig_decode_input_format kind, struct acc *a,
		      uint64_t max_repeat)
{
	struct dump d = { .a = a, .kind = kind, .max_repeat = max_repeat };
	char *s;
	int r;

	while ((s = next_line(l)) && !a->stop) {
		r = dump_line(&d, s, l->no);
		if (r)
			return r;
	}
	return acc_end(a);
}

/* ---- UMR ring text ---- */

/* Remove ANSI colour escapes (UMR colours indexes and values). */
static void strip_escapes(char *s)
{
	char *o = s;

	for (char *p = s; *p;) {
		if (*p == '\033' && p[1] == '[') {
			p += 2;
			while (*p && !isalpha((unsigned char)*p))
				p++;
			if (*p)
				p++;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
}

/* A UMR IB line (app/ib_read.c umr_dump_ib(): "IB[VMID@0xADDR + 0xOFF] =
 * 0xVALUE ..."): the value, false for another line. */
static bool umr_ib_line(const char *s, uint64_t *ib, uint64_t *val)
{
	const char *p = strstr(s, "IB["), *q, *at;
	size_t n;

	if (!p || !(q = strstr(p, "] = 0x")) || !(at = strchr(p, '@')) || at > q ||
	    strncmp(at + 1, "0x", 2))
		return false;
	n = strspn(at + 3, "0123456789abcdefABCDEF");
	if (!num(at + 3, n, 16, ib))
		return false;
	q += 6;
	n = strspn(q, "0123456789abcdefABCDEF");
	return n <= 8 && num(q, n, 16, val);
}

static int parse_umr(struct lines *l, struct acc *a, struct kfdsig_decode_input_ring *ring)
{
	/* The ring's lines when there are any (ring_read.c prints them
	 * first), else the first IB's (up to "End of IB"). */
	enum { NONE, RING, IB, IB_DONE } src = NONE;
	bool any = false;
	char *s;

	while ((s = next_line(l)) && !a->stop) {
		char *p;
		unsigned long long v;
		uint64_t ib, val;

		strip_escapes(s);
		if (src == IB && strstr(s, "End of IB")) {
			src = IB_DONE;
			continue;
		}
		if ((src == NONE || src == IB) && umr_ib_line(s, &ib, &val)) {
			if (src == NONE)
				snprintf(ring->name, sizeof(ring->name), "IB@0x%llx",
					 (unsigned long long)ib);
			src = IB;
			acc_dw(a, (uint32_t)val);
			continue;
		}
		if ((p = strstr(s, ".rptr == ")) && sscanf(p + 9, "%llu", &v) == 1) {
			ring->rptr = v;
			ring->flags |= KFDSIG_DECODE_INPUT_RING_PTRS;
			continue;
		}
		if ((p = strstr(s, ".wptr == ")) && !strstr(s, "drv_wptr") &&
		    sscanf(p + 9, "%llu", &v) == 1) {
			ring->wptr = v;
			continue;
		}
		if (src != IB && (p = strstr(s, ".ring[")) != NULL) {
			unsigned long long idx;
			char *q = strstr(p, "] == 0x");
			size_t n;

			if (!q || sscanf(p + 6, "%llu", &idx) != 1)
				return set_error(EBADMSG, "input line %lu: not a UMR ring line",
						 l->no);
			q += 7;
			n = strspn(q, "0123456789abcdefABCDEF");
			if (!num(q, n, 16, &val) || n > 8)
				return set_error(EBADMSG, "input line %lu: bad UMR ring value",
						 l->no);
			if (!any) {
				ring->first_index = idx;
				ring->flags |= KFDSIG_DECODE_INPUT_RING_INDEXED;
				if (p > s) {
					size_t k = (size_t)(p - s);

					if (k >= sizeof(ring->name))
						k = sizeof(ring->name) - 1;
					memcpy(ring->name, s, k);
					ring->name[k] = '\0';
				}
			}
			any = true;
			src = RING;
			acc_dw(a, (uint32_t)val);
		}
	}
	return acc_end(a);
}

/* ---- amdgpu devcoredump ---- */

/* The ring names of a devcoredump, for a message: "a, b, c". */
static void add_name(char *names, size_t len, const char *name)
{
	size_t n = strlen(names);

	if (n + 8 >= len)
		return;
	snprintf(names + n, len - n, "%s%s", n ? ", " : "", name);
	if (strlen(names) + 1 >= len)
		snprintf(names + len - 5, 5, "...");
}

/* A devcoredump of several rings needs @want: reading the first one
 * alone would pass for the whole GPU state (lint "0 errors" on an empty
 * gfx ring while a compute ring holds the error). */
static int parse_devcoredump(struct lines *l, struct acc *a, const char *want,
			     struct kfdsig_decode_input_ring *ring)
{
	bool selected = false, contents = false, found = false;
	char names[256] = "";
	unsigned nrings = 0;
	char *s;

	while ((s = next_line(l)) && !a->stop) {
		unsigned long long rp, wp, off, val;

		if (!strncmp(s, "ring name: ", 11)) {
			nrings++;
			add_name(names, sizeof(names), s + 11);
			if (found && want)
				break; /* the selected ring is complete */
			if (found) {
				/* the rest is read for the names only */
				selected = contents = false;
				continue;
			}
			selected = !want || !strcmp(s + 11, want);
			contents = false;
			if (selected) {
				snprintf(ring->name, sizeof(ring->name), "%s", s + 11);
				found = true;
			}
			continue;
		}
		if (!selected)
			continue;
		if (sscanf(s, "Rptr: 0x%llx Wptr: 0x%llx", &rp, &wp) == 2) {
			ring->rptr = rp;
			ring->wptr = wp;
			ring->flags |= KFDSIG_DECODE_INPUT_RING_PTRS;
		} else if (!strncmp(s, "Ring contents", 13)) {
			contents = true;
		} else if (contents && sscanf(s, "0x%llx \t 0x%llx", &off, &val) == 2) {
			if (off != a->bytes)
				return set_error(EBADMSG,
						 "input line %lu: ring offset 0x%llx, expected "
						 "0x%llx",
						 l->no, off, (unsigned long long)a->bytes);
			acc_dw(a, (uint32_t)val);
		} else if (contents && strncmp(s, "Offset", 6)) {
			contents = false; /* the end of the ring's lines */
		}
	}
	if (!found && want)
		return set_error(EBADMSG,
				 nrings ? "no ring named '%s' in the devcoredump; its rings: %s"
					: "no ring named '%s' in the devcoredump (it has no 'ring "
					  "name:' section)",
				 want, names);
	if (!found)
		return set_error(EBADMSG, "no 'ring name:' section in the devcoredump");
	if (!want && nrings > 1)
		return set_error(EBADMSG,
				 "the devcoredump holds %u rings: name one (its rings: %s)", nrings,
				 names);
	return acc_end(a);
}

/* ---- the plain hex format (tokens may be of any layout) ---- */

struct hex_parser {
	char tok[24];
	size_t ntok;
	bool comment;
	bool toolong;
	unsigned long line;
};

static bool hex_token(struct hex_parser *h, uint32_t *out)
{
	const char *s = h->tok;
	uint64_t v;
	size_t n;

	h->tok[h->ntok] = '\0';
	n = h->ntok;
	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	/* Count by ntok, not strlen: a NUL byte inside a token is junk too. */
	if (h->toolong || n == 0 || n > 8 || !num(s, n, 16, &v))
		return false;
	*out = (uint32_t)v;
	return true;
}

/* The token for a message: bytes that are not printable ASCII as \xNN, so
 * that binary junk cannot garble the terminal or cut the line. */
static const char *show_token(const struct hex_parser *h, char *out)
{
	char *o = out;

	for (size_t i = 0; i < h->ntok; i++) {
		unsigned char c = (unsigned char)h->tok[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			*o++ = (char)c;
		else
			o += sprintf(o, "\\x%02x", c);
	}
	*o = '\0';
	return out;
}

static int hex_chunk(struct hex_parser *h, const char *b, size_t n, bool end, struct acc *a)
{
	for (size_t i = 0; i <= n && !a->stop; i++) {
		int c = i < n ? (unsigned char)b[i] : (end ? '\n' : -1);

		if (c < 0)
			break;
		if (h->comment) {
			if (c == '\n') {
				h->comment = false;
				h->line++;
			}
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';' ||
		    c == '#') {
			if (h->ntok) {
				uint32_t v;

				if (!hex_token(h, &v)) {
					char shown[4 * sizeof(h->tok) + 1];

					return set_error(EBADMSG,
							 "input line %lu: '%s%s' is not a hex "
							 "dword",
							 h->line, show_token(h, shown),
							 h->toolong ? "..." : "");
				}
				acc_dw(a, v);
				h->ntok = 0;
				h->toolong = false;
			}
			if (c == '#')
				h->comment = true;
			if (c == '\n')
				h->line++;
			continue;
		}
		if (h->ntok < sizeof(h->tok) - 1)
			h->tok[h->ntok++] = (char)c;
		else
			h->toolong = true;
	}
	return 0;
}

#define CHUNK 65536

static int read_hex(FILE *f, const unsigned char *head, size_t nhead, struct acc *a,
		    unsigned char *buf)
{
	struct hex_parser hp = { .line = 1 };
	size_t n;
	int r = hex_chunk(&hp, (const char *)head, nhead, false, a);

	while (!r && !a->stop) {
		n = fread(buf, 1, CHUNK, f);
		if (n == 0 && ferror(f))
			return set_error(EIO, "read error: %s", strerror(errno));
		r = hex_chunk(&hp, (const char *)buf, n, n == 0, a);
		if (n == 0)
			break;
	}
	if (r)
		return r;
	return acc_end(a);
}

/* The binary fast path: bytes to dwords four at a time. */
static int read_bin(FILE *f, const unsigned char *head, size_t nhead, struct acc *a, size_t skip,
		    unsigned char *buf)
{
	const size_t bufsz = CHUNK + 4;
	size_t carry = 0, n;

	if (nhead > skip)
		memcpy(buf, head + skip, nhead - skip);
	carry = nhead > skip ? nhead - skip : 0;
	for (;;) {
		size_t total, nd;

		/* The room left: the first carry is the sniffed head (up to a
		 * few KiB), later ones at most 3 bytes. */
		n = fread(buf + carry, 1, bufsz - carry, f);
		if (n == 0 && ferror(f))
			return set_error(EIO, "read error: %s", strerror(errno));
		total = carry + n;
		nd = total / 4;
		/* Whole dwords straight to the sink (little-endian bytes to host
		 * order, a plain copy on little-endian hosts). */
		acc_flush(a);
		for (size_t i = 0; i < nd && !a->stop;) {
			size_t k = nd - i < ACC_DW ? nd - i : ACC_DW;

			for (size_t j = 0; j < k; j++) {
				const unsigned char *b = buf + 4 * (i + j);

				a->dw[j] = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
					   (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
			}
			a->n = k;
			a->bytes += 4 * k;
			acc_flush(a);
			i += k;
		}
		carry = total - nd * 4;
		memmove(buf, buf + nd * 4, carry);
		if (a->stop)
			return a->stop;
		if (n == 0)
			break;
	}
	acc_flush(a);
	if (a->stop)
		return a->stop;
	if (carry)
		return set_error(EBADMSG,
				 "input ends with %zu stray byte(s): binary input must be "
				 "whole little-endian dwords",
				 carry);
	return 0;
}

static bool contains(const unsigned char *h, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (h[i] == (unsigned char)needle[0] && !memcmp(h + i, needle, k))
			return true;
	return false;
}

/* The UTF-8 byte order mark some editors write before text. */
static const char BOM[] = "\xef\xbb\xbf";

static bool looks_like_text(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(b[i] == '\n' || b[i] == '\r' || b[i] == '\t' || b[i] == 0x1b ||
		      (b[i] >= 0x20 && b[i] < 0x7f)))
			return false;
	return true;
}

/* Length of the first line's first run of hex digits after @p. */
static size_t tok_len(const char *p)
{
	while (*p == ' ')
		p++;
	return strspn(p, "0123456789abcdefABCDEF");
}

int kfdsig_decode_input_detect(const void *head_, size_t n, const char *path)
{
	const unsigned char *head = head_;
	char line[512];
	size_t k = 0, off;
	const char *base = path ? strrchr(path, '/') : NULL;

	if (!head && n)
		return set_error(EINVAL, "NULL head of %zu bytes", n);
	base = base ? base + 1 : path;
	if (base && !strncmp(base, "amdgpu_ring_", 12))
		return KFDSIG_DECODE_INPUT_DEBUGFS;
	if (n >= 3 && !memcmp(head, BOM, 3)) { /* UTF-8 text with a byte order mark */
		head += 3;
		n -= 3;
	}
	if (!looks_like_text(head, n))
		return KFDSIG_DECODE_INPUT_BIN;
	if (contains(head, n, "AMDGPU Device Coredump") || contains(head, n, "ring name: "))
		return KFDSIG_DECODE_INPUT_DEVCOREDUMP;
	if ((contains(head, n, ".ring[") && contains(head, n, ".rptr == ")) ||
	    contains(head, n, "Dumping IB at"))
		return KFDSIG_DECODE_INPUT_UMR;
	/* The first non-blank line decides. */
	while (k < n && (head[k] == '\n' || head[k] == '\r'))
		k++;
	off = 0;
	while (k < n && head[k] != '\n' && off < sizeof(line) - 1)
		line[off++] = (char)head[k++];
	line[off] = '\0';
	off = strspn(line, "0123456789abcdefABCDEF");
	if (off >= 6 && line[off] == ':' && line[off + 1] == ' ')
		return tok_len(line + off + 1) == 8 ? KFDSIG_DECODE_INPUT_XXD_E
						    : KFDSIG_DECODE_INPUT_XXD;
	if (off >= 6 && line[off] == ' ' && line[off + 1] == ' ' && tok_len(line + off) == 2 &&
	    strchr(line, '|'))
		return KFDSIG_DECODE_INPUT_HEXDUMP;
	if (off >= 6 && line[off] == ' ' && line[off + 1] != ' ') {
		size_t t = tok_len(line + off);

		/* od: a 6-7 digit offset, then words of 6 octal or 2/4/8
		 * hex digits. (Plain hex whose first dword is written with
		 * 6-7 digits looks the same: force --input-format hex.) */
		if (t == 6 || ((t == 2 || t == 4) && off == 7) ||
		    (t == 8 && (off == 6 || off == 7)))
			return KFDSIG_DECODE_INPUT_OD;
	}
	return KFDSIG_DECODE_INPUT_HEX;
}

/* The parser's buffers, one allocation per parse (no state is shared
 * between calls or threads). */
struct input_state {
	struct acc a;
	struct lines l;
	unsigned char buf[CHUNK + 4];
};

static int parse(FILE *f, enum kfdsig_decode_input_format kind, const unsigned char *head,
		 size_t nhead, const struct kfdsig_decode_input_opts *o, struct input_state *st,
		 struct kfdsig_decode_input_ring *ring)
{
	struct acc *a = &st->a;
	struct lines *l = &st->l;
	uint64_t ndw;
	int r;

	a->ctx = o->ctx;
	a->fn = o->dwords;
	if (kind != KFDSIG_DECODE_INPUT_BIN && kind != KFDSIG_DECODE_INPUT_DEBUGFS && nhead >= 3 &&
	    !memcmp(head, BOM, 3)) { /* text saved with a byte order mark */
		head += 3;
		nhead -= 3;
	}
	switch (kind) {
	case KFDSIG_DECODE_INPUT_BIN:
		return read_bin(f, head, nhead, a, 0, st->buf);
	case KFDSIG_DECODE_INPUT_HEX:
		return read_hex(f, head, nhead, a, st->buf);
	case KFDSIG_DECODE_INPUT_DEBUGFS: {
		uint32_t hdr[3] = { 0 };

		/* amdgpu_debugfs_ring_read(): rptr, wptr, driver wptr, in
		 * dwords and masked by buf_mask, then the ring. */
		if (nhead < 12)
			return set_error(EBADMSG,
					 "a debugfs ring file starts with 12 bytes (rptr, "
					 "wptr, driver wptr): this one has %zu",
					 nhead);
		for (int i = 0; i < 3; i++)
			hdr[i] = (uint32_t)head[4 * i] | (uint32_t)head[4 * i + 1] << 8 |
				 (uint32_t)head[4 * i + 2] << 16 | (uint32_t)head[4 * i + 3] << 24;
		ring->flags |= KFDSIG_DECODE_INPUT_RING_PTRS;
		ring->rptr = hdr[0];
		ring->wptr = hdr[1];
		r = read_bin(f, head, nhead, a, 12, st->buf);
		if (r)
			return r;
		/* The file is the header and the whole ring, whose size is a
		 * power of two (amdgpu_ring_init() rounds it up), and the
		 * pointers are masked to it: anything else is another file. */
		ndw = a->bytes / 4;
		if (!ndw || (ndw & (ndw - 1)))
			return set_error(EBADMSG,
					 "not an amdgpu_ring_* debugfs file: its ring of %llu "
					 "dword(s) is not a power of two",
					 (unsigned long long)ndw);
		if (hdr[0] >= ndw || hdr[1] >= ndw || hdr[2] >= ndw)
			return set_error(EBADMSG,
					 "not an amdgpu_ring_* debugfs file: rptr 0x%x, wptr "
					 "0x%x, driver wptr 0x%x are not all below its %llu "
					 "ring dword(s)",
					 hdr[0], hdr[1], hdr[2], (unsigned long long)ndw);
		return 0;
	}
	default:
		break;
	}
	l->f = f;
	if (nhead > sizeof(l->buf) - 1)
		return set_error(EINVAL, "%zu bytes of head: at most %zu", nhead,
				 sizeof(l->buf) - 1);
	if (nhead)
		memcpy(l->buf, head, nhead);
	l->len = nhead;
	switch (kind) {
	case KFDSIG_DECODE_INPUT_UMR:
		return parse_umr(l, a, ring);
	case KFDSIG_DECODE_INPUT_DEVCOREDUMP:
		return parse_devcoredump(l, a, o->ring_name, ring);
	default:
		return parse_dump(l, kind, a,
				  o->max_repeat ? o->max_repeat
						: KFDSIG_DECODE_INPUT_MAX_REPEAT_DEFAULT);
	}
}

int kfdsig_decode_input_parse(FILE *f, const void *head, size_t nhead,
			      const struct kfdsig_decode_input_opts *opts,
			      struct kfdsig_decode_input_ring *ring)
{
	struct kfdsig_decode_input_opts o;
	struct kfdsig_decode_input_ring r;
	struct input_state *st;
	int kind, ret;

	if (ring)
		memset(ring, 0, sizeof(*ring));
	if (!f || !opts || (nhead && !head))
		return set_error(EINVAL, "NULL file, options or head");
	ret = opts_copy(&o, sizeof(o), opts, "kfdsig_decode_input_opts");
	if (ret)
		return ret;
	if (o.pad_0)
		return set_error(EINVAL, "kfdsig_decode_input_opts.pad_0 must be 0");
	if (!o.dwords)
		return set_error(EINVAL, "no dwords callback");
	if (o.format >= KFDSIG_DECODE_INPUT_NR)
		return set_error(EINVAL, "input format %u: no such format", o.format);
	kind = o.format == KFDSIG_DECODE_INPUT_AUTO ? kfdsig_decode_input_detect(head, nhead, NULL)
						    : (int)o.format;
	st = calloc(1, sizeof(*st));
	if (!st)
		return set_error(ENOMEM, "out of memory for the input parser");
	memset(&r, 0, sizeof(r));
	ret = parse(f, (enum kfdsig_decode_input_format)kind, head, nhead, &o, st, &r);
	free(st);
	if (ring)
		*ring = r;
	return ret;
}
