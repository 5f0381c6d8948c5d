/* SPDX-License-Identifier: MIT */
/*
 * Text and JSON renderings of decoded packets and findings, into caller
 * buffers with snprintf() semantics (the library never prints).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "decode/decode_internal.h"
#include "pm4/pm4_defs.h"

/* An output buffer that counts what it could not hold. Everything below
 * writes through put_mem(): no printf on the per-packet path. */
struct line_rec;

struct out {
	char *buf;
	size_t size, len;
	struct line_rec *rec; /* NULL, or where the numbers of hole dwords go */
};

static inline __attribute__((always_inline)) void put_mem(struct out *o, const char *s, size_t n)
{
	if (likely(o->len + n < o->size))
		memcpy(o->buf + o->len, s, n);
	else if (o->len < o->size)
		memcpy(o->buf + o->len, s, o->size - o->len);
	o->len += n;
}

static inline __attribute__((always_inline)) void put_c(struct out *o, char c)
{
	if (likely(o->len + 1 < o->size))
		o->buf[o->len] = c;
	else if (o->len < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_s(struct out *o, const char *str)
{
	if (!str) /* a hand-built packet or finding without a name */
		str = "?";
	put_mem(o, str, strlen(str));
}

#define PUT_LIT(o, lit) put_mem((o), (lit), sizeof(lit) - 1)

static const char hexdig[] = "0123456789abcdef";

static const char dec2[] = "00010203040506070809101112131415161718192021222324252627282930313233"
			   "34353637383940414243444546474849505152535455565758596061626364656667"
			   "6869707172737475767778798081828384858687888990919293949596979899";

/* Decimal digits of @v (at least 1). */
static inline unsigned dec_digits(uint64_t v)
{
	uint32_t w;

	if (v > UINT32_MAX) {
		unsigned n = 10;

		for (v /= 10000000000ull; v; v /= 10)
			n++;
		return n;
	}
	w = (uint32_t)v;
	if (w < 100000)
		return w < 100 ? 1u + (w >= 10) : w < 1000 ? 3u : 4u + (w >= 10000);
	if (w < 10000000)
		return 6u + (w >= 1000000);
	return w < 100000000 ? 8u : 9u + (w >= 1000000000);
}

/* @v in decimal ending just before @end (dec_digits(@v) bytes). */
static inline void dec_back(char *end, uint64_t v)
{
	uint32_t w;

	while (v > UINT32_MAX) {
		end -= 2;
		memcpy(end, dec2 + 2 * (v % 100), 2);
		v /= 100;
	}
	w = (uint32_t)v;
	while (w >= 100) {
		end -= 2;
		memcpy(end, dec2 + 2 * (w % 100), 2);
		w /= 100;
	}
	if (w >= 10)
		memcpy(end - 2, dec2 + 2 * w, 2);
	else
		end[-1] = (char)('0' + w);
}

/* @v in decimal, in place when the buffer has room. */
static inline void put_dec(struct out *o, uint64_t v)
{
	unsigned n = dec_digits(v);
	char tmp[24];

	if (likely(o->len + n < o->size)) {
		dec_back(o->buf + o->len + n, v);
		o->len += n;
		return;
	}
	dec_back(tmp + n, v);
	put_mem(o, tmp, n);
}

/* Two hex digits per byte value. */
static const char hex2[513] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021"
			      "22232425262728292a2b2c2d2e2f"
			      "303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f5051"
			      "52535455565758595a5b5c5d5e5f"
			      "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f8081"
			      "82838485868788898a8b8c8d8e8f"
			      "909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1"
			      "b2b3b4b5b6b7b8b9babbbcbdbebf"
			      "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1"
			      "e2e3e4e5e6e7e8e9eaebecedeeef"
			      "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* The @n low hex digits of @v at @t, two at a time from the end. */
static inline void hex_at(char *t, uint64_t v, unsigned n)
{
	if (n == 6) { /* labels below 2^24, addresses of 24 bits */
		memcpy(t, hex2 + 2 * (v >> 16 & 0xff), 2);
		memcpy(t + 2, hex2 + 2 * (v >> 8 & 0xff), 2);
		memcpy(t + 4, hex2 + 2 * (v & 0xff), 2);
		return;
	}
	while (n >= 2) {
		n -= 2;
		memcpy(t + n, hex2 + 2 * (v & 0xff), 2);
		v >>= 8;
	}
	if (n)
		t[0] = hexdig[v & 15];
}

/* @v in hex with 0x, at least @width digits (1 .. 16). */
static inline void put_hex(struct out *o, uint64_t v, unsigned width)
{
	unsigned n = v ? (67u - (unsigned)__builtin_clzll(v)) / 4u : 1u;
	char tmp[24], *t;

	if (n < width)
		n = width;
	t = likely(o->len + n + 2 < o->size) ? o->buf + o->len : tmp;
	t[0] = '0';
	t[1] = 'x';
	hex_at(t + 2, v, n);
	if (t == tmp)
		put_mem(o, tmp, n + 2);
	else
		o->len += n + 2;
}

/* Hex digits put_hex(@v, 6) writes: at least 6. */
static inline unsigned hex_digits(uint64_t v)
{
	return v < (1u << 24) ? 6u : (67u - (unsigned)__builtin_clzll(v)) / 4u;
}

static void put_u(struct out *o, uint32_t v, bool hex)
{
	if (hex)
		put_hex(o, v, 1);
	else
		put_dec(o, v);
}

static int done(struct out *o)
{
	if (o->size)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
	return o->len > INT32_MAX ? INT32_MAX : (int)o->len;
}

/* The label of a stream offset: dwords and bytes, both in hex (at least 6
 * digits each), written in place when the buffer has room. */
static inline __attribute__((always_inline)) void put_offset(struct out *o, uint64_t dw)
{
	unsigned nd = hex_digits(dw), nb = hex_digits(dw * 4);
	size_t n = 5 + nd + 9 + nb + 3;

	if (likely(o->len + n < o->size)) {
		char *t = o->buf + o->len;

		memcpy(t, "dw 0x", 5);
		hex_at(t + 5, dw, nd);
		memcpy(t + 5 + nd, " (byte 0x", 9);
		hex_at(t + 14 + nd, dw * 4, nb);
		memcpy(t + n - 3, "): ", 3);
		o->len += n;
		return;
	}
	PUT_LIT(o, "dw ");
	put_hex(o, dw, 6);
	PUT_LIT(o, " (byte ");
	put_hex(o, dw * 4, 6);
	PUT_LIT(o, "): ");
}

/* The start of a JSON line: the offset in dwords and in bytes. */
static inline __attribute__((always_inline)) void put_json_offset(struct out *o, uint64_t dw)
{
	unsigned nd = dec_digits(dw), nb = dec_digits(dw * 4);
	size_t n = 11 + nd + 17 + nb;

	if (o->len + n < o->size && dw < (1ull << 60)) {
		char *t = o->buf + o->len;

		memcpy(t, "{\"offset\": ", 11);
		dec_back(t + 11 + nd, dw);
		memcpy(t + 11 + nd, ", \"byte_offset\": ", 17);
		dec_back(t + n, dw * 4);
		o->len += n;
		return;
	}
	PUT_LIT(o, "{\"offset\": ");
	put_dec(o, dw);
	PUT_LIT(o, ", \"byte_offset\": ");
	put_dec(o, dw * 4);
}

/* Note where the number of field @i went (from @at), when its dword is a
 * hole. */
static void line_rec_hole(struct out *o, const struct kfdsig_field *f, unsigned i, bool hex,
			  size_t at);

/* The value @v of field @i, @f. */
static inline void put_value(struct out *o, const struct kfdsig_field *f, unsigned i, uint32_t v,
			     bool hex)
{
	size_t at = o->len;

	put_u(o, v, hex);
	if (o->rec)
		line_rec_hole(o, f, i, hex, at);
}

/* Header fields the packet name and length already say (by position: the
 * tables put them at fixed bits of dword 0). */
static bool implied(const struct kfdsig_packet *p, const struct kfdsig_field *f)
{
	if (f->dw)
		return false;
	if (p->engine == KFDSIG_ENGINE_SDMA)
		return f->shift == 0 || (f->shift == 8 && f->width == 8 && !p->sub_op);
	if (p->engine == KFDSIG_ENGINE_AQL) /* the type names the packet */
		return f->shift == 0 && f->width == 8;
	return f->shift == 30 || f->shift == 8 || f->shift == 16;
}

/* Hex for wide fields and for event types (the kernel's enums are hex). */
static bool show_hex(const struct kfdsig_field *f)
{
	return f->width >= 16 || (f->name[0] == 'e' && !strcmp(f->name, "event_type"));
}

/* First dword after the described fields: payload (WRITE_DATA values,
 * SET_SH_REG values, SDMA WRITE data); 0 when the packet has none to show. */
static uint32_t payload_start(const struct kfdsig_packet *p)
{
	uint32_t end = 0;

	/* NOPs (the only one-dword layouts) show no payload. */
	if (!p->desc || p->desc->min_dw == 1)
		return 0;
	for (unsigned i = 0; i < p->desc->nfields; i++)
		if (p->desc->fields[i].dw + 1u > end)
			end = p->desc->fields[i].dw + 1u;
	return end < p->avail ? end : 0;
}

/* Text shows this many payload dwords, then how many more there are. */
#define TEXT_PAYLOAD_MAX 16u

static void put_raw(struct out *o, const struct kfdsig_packet *p, bool json)
{
	for (uint32_t i = 0; i < p->avail; i++) {
		if (i)
			put_mem(o, json ? ", " : " ", json ? 2 : 1);
		if (json)
			put_dec(o, p->dw[i]);
		else
			put_hex(o, p->dw[i], 8);
	}
}

/* The name of the first register a SET_SH_REG writes, when @f is its
 * register offset and the target's map names it (decided by @v and the
 * layout alone, as the fragment cache keys them). */
static const char *sh_reg(const struct kfdsig_packet *p, const struct kfdsig_field *f, uint32_t v)
{
	if (p->engine != KFDSIG_ENGINE_PM4 || p->opcode != PM4_OP_SET_SH_REG || f->dw != 1)
		return NULL;
	return pm4_sh_reg_name(p->desc, v);
}

/* The fields i..j-1 of @p (one dword), as text (" name=value(name)") or as
 * JSON (", \"name\": value"; without the ", " when @first). */
static void run_text(struct out *o, const struct kfdsig_packet *p, unsigned i, unsigned j,
		     bool json, bool first)
{
	for (; i < j; i++) {
		const struct kfdsig_field *f = &p->desc->fields[i];
		uint32_t v = kfdsig_field_get(f, p->dw);

		if (json) {
			if (first)
				put_c(o, '"'); /* the first field of the object */
			else
				PUT_LIT(o, ", \"");
			first = false;
			put_s(o, f->name);
			PUT_LIT(o, "\": ");
			put_value(o, f, i, v, false);
			if (sh_reg(p, f, v)) {
				PUT_LIT(o, ", \"reg_name\": \"");
				put_s(o, sh_reg(p, f, v));
				put_c(o, '"');
			}
			continue;
		}
		if (implied(p, f))
			continue;
		put_c(o, ' ');
		put_s(o, f->name);
		put_c(o, '=');
		put_value(o, f, i, v, show_hex(f));
		if (v < f->nvalues && f->values[v]) {
			put_c(o, '(');
			put_s(o, f->values[v]);
			put_c(o, ')');
		} else if (sh_reg(p, f, v)) {
			put_c(o, '(');
			put_s(o, sh_reg(p, f, v));
			put_c(o, ')');
		}
	}
}

/*
 * A cache of formatted field runs: the text of the fields of one dword
 * depends only on the layout, the run and the dword's value, and ring dumps
 * repeat the same dwords (headers, cache bits, selects) over and over.
 * Direct-mapped; a run too long for an entry is formatted every time.
 */
#define FRAG_ENTRIES 4096u
#define FRAG_TEXT 496u

struct frag {
	const struct kfdsig_packet_desc *desc;
	uint32_t v;
	uint16_t first;
	uint8_t json, valid;
	uint16_t len;
	char text[FRAG_TEXT];
};

#define HEAD_ENTRIES 256u
#define HEAD_TEXT 240u

struct head {
	const char *name;
	uint32_t opcode, sub_op, ndw, avail, flags;
	enum kfdsig_engine engine;
	uint8_t json, valid;
	uint16_t len;
	char text[HEAD_TEXT];
};

/*
 * Whole lines: everything a formatter writes after the offset label depends
 * only on the packet's dwords, layout, name, opcodes, lengths and flags and
 * on the format flags (see packet_text() / packet_json()), so a packet equal
 * to one seen before is its offset label plus a copy of that line. A ring
 * repeats its fillers, NOPs and most of its fences verbatim. Direct-mapped,
 * for packets of up to LINE_DW dwords whose line fits LINE_TEXT.
 */
#define LINE_SETS 4096u /* two lines a set */
#define LINE_SEEN 16384u
#define LINE_DW 16u
#define LINE_TEXT 928u
#define LINE_HOLES 8u

/*
 * Holes: a dword of a packet whose fields are all plain numbers (no value
 * names: addresses, data, context ids) is not part of the line's key; the
 * line keeps the text around its numbers and they are written afresh each
 * time. So fences that differ only in address, sequence number and event
 * share one line.
 */
struct hole {
	uint16_t at;   /* where the number goes in text */
	uint8_t field; /* index in desc->fields */
	uint8_t hex;
};

struct line {
	uint64_t key[4]; /* line_key(); key[3] == 0: empty */
	uint32_t dw[LINE_DW];
	uint32_t holes; /* dwords left out of the key (bit per dword) */
	uint16_t len;
	uint8_t nholes;
	struct hole h[LINE_HOLES];
	char text[LINE_TEXT + 32]; /* + what line_put() may read past */
};

/* The numbers of hole dwords a slow-path line wrote (to make its template). */
struct line_rec {
	uint32_t holes;
	unsigned n;
	bool overflow;
	struct {
		size_t at, end; /* where the number is in the output */
		uint8_t field, hex;
	} h[LINE_HOLES];
};

/* Which dwords of a layout are holes (per layout, computed once). */
#define DESC_HOLES 64u

struct desc_holes {
	const struct kfdsig_packet_desc *desc;
	uint32_t holes;
};

struct kfdsig_format_cache {
	struct frag e[FRAG_ENTRIES];
	struct head h[HEAD_ENTRIES];
	struct line l[LINE_SETS][2];
	uint8_t mru[LINE_SETS]; /* the way last used in each set */
	/* Hashes of lines seen once: a line is kept when it comes again, so
	 * that packets seen only once (fences with their own sequence
	 * numbers) do not push out the ones that repeat. */
	uint32_t seen[LINE_SEEN];
	struct desc_holes dh[DESC_HOLES];
	struct line *last; /* the line used last (runs of equal packets) */
	/* The text label written last: the next is mostly a patch of it. */
	uint64_t lab_dw;
	uint8_t lab_len, lab_nd, lab_nb, lab_valid;
	char lab[64];
};

struct kfdsig_format_cache *kfdsig_format_cache_new(void)
{
	struct kfdsig_format_cache *c = calloc(1, sizeof(*c));

	if (!c) {
		set_error(ENOMEM, "out of memory");
		errno = ENOMEM;
	}
	return c;
}

void kfdsig_format_cache_free(struct kfdsig_format_cache *c)
{
	free(c);
}

/* Do the fields i..j-1 have no value names (numbers only)? */
static inline bool plain_run(const struct kfdsig_packet_desc *desc, unsigned i, unsigned j)
{
	for (; i < j; i++)
		if (desc->fields[i].nvalues)
			return false;
	return true;
}

/* Every field of @p the dwords present hold, run by run. */
static void put_fields(struct out *o, struct kfdsig_format_cache *c, const struct kfdsig_packet *p,
		       bool json)
{
	const struct kfdsig_packet_desc *desc = p->desc;
	char tmp[2048];
	bool first = true;

	for (unsigned i = 0, j; desc && i < desc->nfields; i = j) {
		unsigned k = desc->fields[i].dw;
		uint32_t v;
		const char *text;
		size_t len, skip;

		for (j = i + 1; j < desc->nfields && desc->fields[j].dw == k; j++)
			;
		if (k >= p->avail)
			continue;
		v = p->dw[k];
		if (plain_run(desc, i, j)) {
			/* Numbers only: as quick to write as to look up, and an
			 * address or sequence number rarely repeats. */
			run_text(o, p, i, j, json, first);
			first = false;
			continue;
		}
		if (c) {
			uint32_t h = (v * 2654435761u) ^ ((uint32_t)(uintptr_t)desc >> 4) * 40503u ^
				     i * 97u ^ (uint32_t)json;
			struct frag *e = &c->e[(h ^ h >> 15) & (FRAG_ENTRIES - 1)];

			if (!(e->valid && e->desc == desc && e->v == v && e->first == i &&
			      e->json == json)) {
				struct out t = { e->text, FRAG_TEXT, 0 };

				run_text(&t, p, i, j, json, false);
				e->valid = t.len < FRAG_TEXT;
				e->desc = desc;
				e->v = v;
				e->first = (uint16_t)i;
				e->json = json;
				e->len = (uint16_t)t.len;
			}
			if (e->valid) {
				text = e->text;
				len = e->len;
				goto put;
			}
		}
		{
			struct out t = { tmp, sizeof(tmp), 0 };

			run_text(&t, p, i, j, json, false);
			text = tmp;
			len = t.len < sizeof(tmp) ? t.len : sizeof(tmp) - 1;
		}
	put:
		/* JSON runs start with ", ": not before the first field. */
		skip = json && first && len >= 2 ? 2 : 0;
		put_mem(o, text + skip, len - skip);
		first = false;
	}
}

/* A JSON string (core/escape.h: escapes, and U+FFFD for bytes that are
 * not UTF-8). */
static void put_json_str(struct out *o, const char *s)
{
	const unsigned char *p;
	size_t n, run;

	if (!s)
		s = "?";
	p = (const unsigned char *)s;
	n = strlen(s);
	put_c(o, '"');
	while (n) {
		char buf[ESC_MAX];
		size_t adv, len;

		for (run = 0; run < n && esc_plain(p[run]); run++)
			;
		put_mem(o, (const char *)p, run);
		p += run;
		n -= run;
		if (!n)
			break;
		len = esc_char(ESC_JSON, p, n, buf, &adv);
		put_mem(o, buf, len);
		p += adv;
		n -= adv;
	}
	put_c(o, '"');
}

static void put_bool(struct out *o, bool b)
{
	if (b)
		PUT_LIT(o, "true");
	else
		PUT_LIT(o, "false");
}

/* What follows the offset up to the fields: name, length and flags (text),
 * or engine .. "fields": { (JSON). */
static void head_text(struct out *o, const struct kfdsig_packet *p)
{
	put_s(o, p->name);
	if (p->flags & KFDSIG_PACKET_SKIPPED) {
		PUT_LIT(o, " first=");
		put_hex(o, p->opcode, 8);
	} else if (p->flags & KFDSIG_PACKET_UNKNOWN) {
		if (p->engine == KFDSIG_ENGINE_PM4) {
			PUT_LIT(o, " type=");
			put_dec(o, p->sub_op);
			PUT_LIT(o, " opcode=");
			put_hex(o, p->sub_op == 3 ? p->opcode : 0, 2);
		} else {
			PUT_LIT(o, " op=");
			put_dec(o, p->opcode);
			PUT_LIT(o, " sub_op=");
			put_dec(o, p->sub_op);
		}
	}
	PUT_LIT(o, " (");
	put_dec(o, p->ndw);
	PUT_LIT(o, " dw)");
	if (p->flags & KFDSIG_PACKET_TRUNCATED) {
		PUT_LIT(o, " TRUNCATED: ");
		put_dec(o, p->avail);
		PUT_LIT(o, " of ");
		put_dec(o, p->ndw);
		PUT_LIT(o, " dw");
	}
	if (p->flags & KFDSIG_PACKET_PARTIAL) {
		PUT_LIT(o, " PARTIAL: first ");
		put_dec(o, p->avail);
		PUT_LIT(o, " dw decoded");
	}
}

static void head_json(struct out *o, const struct kfdsig_packet *p)
{
	if (p->engine == KFDSIG_ENGINE_PM4)
		PUT_LIT(o, ", \"engine\": \"pm4\", \"name\": ");
	else if (p->engine == KFDSIG_ENGINE_SDMA)
		PUT_LIT(o, ", \"engine\": \"sdma\", \"name\": ");
	else
		PUT_LIT(o, ", \"engine\": \"aql\", \"name\": ");
	put_json_str(o, p->name);
	PUT_LIT(o, ", \"opcode\": ");
	put_dec(o, p->opcode);
	if (p->engine == KFDSIG_ENGINE_PM4)
		PUT_LIT(o, ", \"type\": ");
	else
		PUT_LIT(o, ", \"sub_op\": ");
	put_dec(o, p->sub_op);
	PUT_LIT(o, ", \"dwords\": ");
	put_dec(o, p->ndw);
	PUT_LIT(o, ", \"avail\": ");
	put_dec(o, p->avail);
	PUT_LIT(o, ", \"unknown\": ");
	put_bool(o, p->flags & KFDSIG_PACKET_UNKNOWN);
	PUT_LIT(o, ", \"truncated\": ");
	put_bool(o, p->flags & KFDSIG_PACKET_TRUNCATED);
	PUT_LIT(o, ", \"partial\": ");
	put_bool(o, p->flags & KFDSIG_PACKET_PARTIAL);
	if (p->flags & KFDSIG_PACKET_SKIPPED)
		PUT_LIT(o, ", \"skipped\": true");
	PUT_LIT(o, ", \"fields\": {");
}

/* The head through the cache: it depends on the name, opcode, lengths and
 * flags only, which repeat packet after packet. */
static void put_head(struct out *o, struct kfdsig_format_cache *c, const struct kfdsig_packet *p,
		     bool json)
{
	struct head *e;
	uint32_t h;

	if (!c || (p->flags & KFDSIG_PACKET_SKIPPED)) {
		if (json)
			head_json(o, p);
		else
			head_text(o, p);
		return;
	}
	h = ((uint32_t)(uintptr_t)p->name >> 3) * 2654435761u ^ p->opcode * 40503u ^ p->ndw * 97u ^
	    p->avail * 7919u ^ p->flags ^ p->sub_op << 8 ^ (uint32_t)json << 5;
	e = &c->h[(h ^ h >> 16) & (HEAD_ENTRIES - 1)];
	if (!(e->valid && e->name == p->name && e->opcode == p->opcode && e->sub_op == p->sub_op &&
	      e->ndw == p->ndw && e->avail == p->avail && e->flags == p->flags &&
	      e->engine == p->engine && e->json == json)) {
		struct out t = { e->text, HEAD_TEXT, 0 };

		if (json)
			head_json(&t, p);
		else
			head_text(&t, p);
		e->valid = t.len < HEAD_TEXT;
		e->name = p->name;
		e->opcode = p->opcode;
		e->sub_op = p->sub_op;
		e->ndw = p->ndw;
		e->avail = p->avail;
		e->flags = p->flags;
		e->engine = p->engine;
		e->json = json;
		e->len = (uint16_t)t.len;
		if (!e->valid) {
			if (json)
				head_json(o, p);
			else
				head_text(o, p);
			return;
		}
	}
	put_mem(o, e->text, e->len);
}

static void line_rec_hole(struct out *o, const struct kfdsig_field *f, unsigned i, bool hex,
			  size_t at)
{
	struct line_rec *r = o->rec;

	if (f->dw >= 32 || !(r->holes >> f->dw & 1))
		return;
	if (r->n == LINE_HOLES || i > 0xff) {
		r->overflow = true;
		return;
	}
	r->h[r->n].at = at;
	r->h[r->n].end = o->len;
	r->h[r->n].field = (uint8_t)i;
	r->h[r->n].hex = hex;
	r->n++;
}

/* The hole dwords of @desc: those past the header whose fields all are
 * plain numbers; none with the raw dwords (they show every dword). */
static inline uint32_t line_holes(struct kfdsig_format_cache *c,
				  const struct kfdsig_packet_desc *desc, uint32_t flags)
{
	struct desc_holes *e;
	uint32_t holes = 0, named = 0;

	if (!desc || (flags & KFDSIG_FORMAT_RAW))
		return 0;
	e = &c->dh[((uintptr_t)desc >> 4) & (DESC_HOLES - 1)];
	if (e->desc == desc)
		return e->holes;
	for (unsigned i = 0; i < desc->nfields; i++) {
		const struct kfdsig_field *f = &desc->fields[i];

		if (f->dw >= 32)
			continue;
		holes |= 1u << f->dw;
		if (f->nvalues)
			named |= 1u << f->dw;
	}
	e->desc = desc;
	e->holes = holes & ~named & ~1u;
	return e->holes;
}

/*
 * Every input of a line but the offset and the hole numbers, packed:
 * layout, name, opcodes, and lengths, flags, engine and format in key[3]
 * (bit 63 set: never 0). False when a value does not fit (such a packet is
 * formatted every time).
 */
static inline bool line_key(const struct kfdsig_packet *p, uint32_t flags, bool json,
			    uint64_t key[4])
{
	if (p->avail > LINE_DW || p->ndw > INT32_MAX || p->flags > 0xff || flags > 0xff ||
	    (unsigned)p->engine > 0xff)
		return false;
	key[0] = (uintptr_t)p->desc;
	key[1] = (uintptr_t)p->name;
	key[2] = (uint64_t)p->opcode << 32 | p->sub_op;
	key[3] = 1ull << 63 | (uint64_t)p->ndw << 32 | flags << 24 | p->flags << 16 |
		 (uint32_t)p->engine << 8 | p->avail << 1 | (uint32_t)json;
	return true;
}

/* Does slot @e hold the line of @p (key @key, holes @holes)? */
static inline bool line_match(const struct line *e, const struct kfdsig_packet *p,
			      const uint64_t key[4], uint32_t holes)
{
	if ((e->key[0] ^ key[0]) | (e->key[1] ^ key[1]) | (e->key[2] ^ key[2]) |
	    (e->key[3] ^ key[3]))
		return false;
	for (uint32_t i = 0; i < p->avail; i++)
		if (e->dw[i] != p->dw[i] && !(holes >> i & 1))
			return false;
	return true;
}

/* Keep the line of @p in slot @e: the text @len bytes at @text, less the
 * numbers @r noted (their offsets are relative to @text - @base). */
static void line_store(struct line *e, const struct kfdsig_packet *p, const uint64_t key[4],
		       const char *text, size_t len, size_t base, const struct line_rec *r)
{
	size_t from = 0, n = 0;

	e->key[3] = 0;
	if (r->overflow || len >= LINE_TEXT)
		return;
	for (unsigned k = 0; k < r->n; k++) {
		size_t at = r->h[k].at - base, end = r->h[k].end - base;

		memcpy(e->text + n, text + from, at - from);
		n += at - from;
		e->h[k].at = (uint16_t)n;
		e->h[k].field = r->h[k].field;
		e->h[k].hex = r->h[k].hex;
		from = end;
	}
	memcpy(e->text + n, text + from, len - from);
	n += len - from;
	memcpy(e->key, key, sizeof(e->key));
	e->len = (uint16_t)n;
	e->nholes = (uint8_t)r->n;
	e->holes = r->holes;
	memcpy(e->dw, p->dw, p->avail * sizeof(*p->dw));
}

/* Write the line in @e for @p: its text with the hole numbers filled in.
 * False (nothing written) when the buffer may be too short. */
static inline bool line_put(struct out *o, const struct line *e, const struct kfdsig_packet *p)
{
	const char *t = e->text;
	char *b = o->buf + o->len;
	size_t from = 0;

	/* a number is at most 10 characters (0x + 8 hex, or 10 decimal); a
	 * short piece is copied as 32 bytes */
	if (o->len + e->len + 42u * e->nholes >= o->size)
		return false;
	for (unsigned k = 0; k < e->nholes; k++) {
		const struct kfdsig_field *f = &p->desc->fields[e->h[k].field];
		uint32_t v = kfdsig_field_get(f, p->dw);
		size_t n = e->h[k].at - from;

		if (n <= 32) /* text[] has 32 bytes past its end to read */
			memcpy(b, t + from, 32);
		else
			memcpy(b, t + from, n);
		b += n;
		from = e->h[k].at;
		if (e->h[k].hex) {
			n = v ? (35u - (unsigned)__builtin_clz(v)) / 4u : 1u;
			b[0] = '0';
			b[1] = 'x';
			hex_at(b + 2, v, (unsigned)n);
			b += n + 2;
		} else {
			n = dec_digits(v);
			dec_back(b + n, v);
			b += n;
		}
	}
	memcpy(b, t + from, e->len - from);
	b += e->len - from;
	*b = '\0';
	o->len = (size_t)(b - o->buf);
	return true;
}

/* A text line after its label: head, fields, payload, raw dwords. */
static __attribute__((noinline)) void line_text(struct out *o, struct kfdsig_format_cache *c,
						const struct kfdsig_packet *p, uint32_t flags)
{
	put_head(o, c, p, false);
	put_fields(o, c, p, false);
	if (payload_start(p)) {
		uint32_t i = payload_start(p), end = p->avail;

		if (end - i > TEXT_PAYLOAD_MAX)
			end = i + TEXT_PAYLOAD_MAX;
		PUT_LIT(o, " data=");
		for (uint32_t k = i; k < end; k++) {
			if (k > i)
				put_c(o, ',');
			put_hex(o, p->dw[k], 1);
		}
		if (end < p->avail) {
			PUT_LIT(o, ",...(+");
			put_dec(o, p->avail - end);
			put_c(o, ')');
		}
	}
	put_c(o, '\n');
	if (flags & KFDSIG_FORMAT_RAW) {
		PUT_LIT(o, "        raw: ");
		put_raw(o, p, false);
		put_c(o, '\n');
	}
}

/* A JSON line after its label. */
static __attribute__((noinline)) void line_json(struct out *o, struct kfdsig_format_cache *c,
						const struct kfdsig_packet *p, uint32_t flags)
{
	put_head(o, c, p, true);
	put_fields(o, c, p, true);
	put_c(o, '}');
	if (payload_start(p)) {
		PUT_LIT(o, ", \"data\": [");
		for (uint32_t i = payload_start(p); i < p->avail; i++) {
			if (i > payload_start(p))
				PUT_LIT(o, ", ");
			put_dec(o, p->dw[i]);
		}
		put_c(o, ']');
	}
	if (flags & KFDSIG_FORMAT_RAW) {
		PUT_LIT(o, ", \"raw\": [");
		put_raw(o, p, true);
		put_c(o, ']');
	}
	PUT_LIT(o, "}\n");
}

/*
 * The text label through the cache: a label whose numbers share all but
 * their last four digits with the label before (the next packet, mostly)
 * is that label with those digits rewritten.
 */
static inline __attribute__((always_inline)) void
put_offset_cached(struct out *o, struct kfdsig_format_cache *c, uint64_t dw)
{
	uint64_t last = c->lab_dw;
	char *t = o->buf + o->len;
	unsigned nd, nb;

	if (c->lab_valid && dw >> 16 == last >> 16 && (dw * 4) >> 16 == (last * 4) >> 16 &&
	    likely(o->len + sizeof(c->lab) < o->size)) {
		nd = c->lab_nd;
		nb = c->lab_nb;
		memcpy(t, c->lab, sizeof(c->lab));
		memcpy(t + 5 + nd - 4, hex2 + 2 * (dw >> 8 & 0xff), 2);
		memcpy(t + 5 + nd - 2, hex2 + 2 * (dw & 0xff), 2);
		memcpy(t + 14 + nd + nb - 4, hex2 + 2 * (dw * 4 >> 8 & 0xff), 2);
		memcpy(t + 14 + nd + nb - 2, hex2 + 2 * (dw * 4 & 0xff), 2);
		o->len += c->lab_len;
		return;
	}
	put_offset(o, dw);
	nd = hex_digits(dw);
	nb = hex_digits(dw * 4);
	c->lab_valid = o->len < o->size && 5 + nd + 9 + nb + 3 <= sizeof(c->lab);
	if (c->lab_valid) {
		c->lab_dw = dw;
		c->lab_nd = (uint8_t)nd;
		c->lab_nb = (uint8_t)nb;
		c->lab_len = (uint8_t)(5 + nd + 9 + nb + 3);
		memcpy(c->lab, t, c->lab_len);
	}
}

/*
 * A packet: its offset label, then its line, from the cache when an equal
 * packet (but for hole numbers) was formatted before, else formatted (and
 * kept the second time it is seen).
 */
static inline __attribute__((always_inline)) int packet_line(struct kfdsig_format_cache *c,
							     const struct kfdsig_packet *p,
							     uint32_t flags, char *buf, size_t size,
							     bool json)
{
	struct out o = { buf, size, 0, NULL };
	struct line_rec rec;
	struct line *e = NULL;
	uint64_t key[4];
	uint32_t holes = 0;
	size_t label;

	if (!p)
		return 0;
	if (json)
		put_json_offset(&o, p->offset);
	else if (c)
		put_offset_cached(&o, c, p->offset);
	else
		put_offset(&o, p->offset);
	if (c && line_key(p, flags, json, key)) {
		uint32_t h;
		unsigned set, way;

		/* A run of equal packets (fillers): the line of the last one. */
		e = c->last;
		if (e && line_match(e, p, key, e->holes) && likely(line_put(&o, e, p)))
			return (int)o.len;
		holes = line_holes(c, p->desc, flags);
		h = (uint32_t)(key[3] ^ key[3] >> 32 ^ key[0] >> 4);
		for (uint32_t i = 0; i < p->avail; i++)
			if (!(holes >> i & 1))
				h = (h ^ p->dw[i]) * 0x9e3779b1u;
		set = (h ^ h >> 17) & (LINE_SETS - 1);
		way = c->mru[set];
		e = &c->l[set][way];
		if (!line_match(e, p, key, holes)) {
			uint32_t *seen = &c->seen[(h >> 7) & (LINE_SEEN - 1)];

			/* the other way; it becomes the one used last */
			way ^= 1;
			e = &c->l[set][way];
			if (!line_match(e, p, key, holes)) {
				if (*seen != (h | 1)) {
					*seen = h | 1; /* first time: not kept */
					e = NULL;
				} else {
					c->mru[set] = (uint8_t)way;
				}
				goto format;
			}
			c->mru[set] = (uint8_t)way;
		}
		if (likely(line_put(&o, e, p))) {
			c->last = e;
			return (int)o.len;
		}
		e = NULL; /* short buffer: the slow way */
	}
format:
	label = o.len;
	if (e) {
		rec.holes = holes;
		rec.n = 0;
		rec.overflow = false;
		o.rec = &rec;
	}
	if (json)
		line_json(&o, c, p, flags);
	else
		line_text(&o, c, p, flags);
	o.rec = NULL;
	if (e && o.len < size)
		line_store(e, p, key, buf + label, o.len - label, label, &rec);
	return done(&o);
}

static int packet_text(struct kfdsig_format_cache *c, const struct kfdsig_packet *p, uint32_t flags,
		       char *buf, size_t size)
{
	return packet_line(c, p, flags, buf, size, false);
}

static int packet_json(struct kfdsig_format_cache *c, const struct kfdsig_packet *p, uint32_t flags,
		       char *buf, size_t size)
{
	return packet_line(c, p, flags, buf, size, true);
}

int kfdsig_format_packet_text(const struct kfdsig_packet *p, uint32_t flags, char *buf, size_t size)
{
	return packet_text(NULL, p, flags, buf, size);
}

int kfdsig_format_packet_json(const struct kfdsig_packet *p, uint32_t flags, char *buf, size_t size)
{
	return packet_json(NULL, p, flags, buf, size);
}

int kfdsig_format_packet_text_cached(struct kfdsig_format_cache *c, const struct kfdsig_packet *p,
				     uint32_t flags, char *buf, size_t size)
{
	return packet_text(c, p, flags, buf, size);
}

int kfdsig_format_packet_json_cached(struct kfdsig_format_cache *c, const struct kfdsig_packet *p,
				     uint32_t flags, char *buf, size_t size)
{
	return packet_json(c, p, flags, buf, size);
}

/* Do the @n characters at @t spell @v in hex (exactly n digits)? */
static inline bool hex_is(const char *t, unsigned n, uint64_t v)
{
	while (n--) {
		if (t[n] != hexdig[v & 15])
			return false;
		v >>= 4;
	}
	return v == 0;
}

/* Do the @n characters at @t spell @v in decimal? */
static inline bool dec_is(const char *t, unsigned n, uint64_t v)
{
	while (n--) {
		if (t[n] != (char)('0' + v % 10))
			return false;
		v /= 10;
	}
	return v == 0;
}

/* The length of the label of offset @dw at the start of @line (text or
 * JSON, as put_offset() / put_json_offset() write it), 0 when @line does
 * not begin with it. Reads the line as it is (a label written into a
 * scratch buffer and compared would wait on its own fresh stores). */
static size_t label_len(const char *line, size_t len, uint64_t dw, bool json)
{
	unsigned nd, nb;
	size_t n;

	if (json) {
		nd = dec_digits(dw);
		nb = dec_digits(dw * 4);
		n = 11 + nd + 17 + nb;
		if (len < n || memcmp(line, "{\"offset\": ", 11) != 0 ||
		    memcmp(line + 11 + nd, ", \"byte_offset\": ", 17) != 0 ||
		    !dec_is(line + 11, nd, dw) || !dec_is(line + 28 + nd, nb, dw * 4))
			return 0;
		return n;
	}
	nd = hex_digits(dw);
	nb = hex_digits(dw * 4);
	n = 5 + nd + 9 + nb + 3;
	if (len < n || memcmp(line, "dw 0x", 5) != 0 ||
	    memcmp(line + 5 + nd, " (byte 0x", 9) != 0 || memcmp(line + n - 3, "): ", 3) != 0 ||
	    !hex_is(line + 5, nd, dw) || !hex_is(line + 14 + nd, nb, dw * 4))
		return 0;
	return n;
}

long kfdsig_format_relabel(const char *line, size_t len, uint64_t from, uint64_t to,
			   uint64_t stride, uint64_t n, char *buf, size_t size, uint64_t *done)
{
	bool json = len && line && line[0] == '{';
	size_t skip, blen, at = 0;
	uint64_t k;

	if (done)
		*done = 0;
	if (!line || !buf || !size)
		return set_error(EINVAL, "no line or no buffer to relabel");
	skip = label_len(line, len, from, json);
	if (!skip)
		return set_error(EINVAL, "the line does not begin with the label of offset %llu",
				 (unsigned long long)from);
	blen = len - skip;
	for (k = 0; k < n; k++) {
		uint64_t dw = to + k * stride;
		/* the longest label: 5 + 16 + 9 + 16 + 3 (text), 11 + 20 + 17 + 20 */
		struct out o = { buf + at, size - at, 0, NULL };

		if (size - at <= 68 + blen)
			break;
		if (json)
			put_json_offset(&o, dw);
		else
			put_offset(&o, dw);
		memcpy(buf + at + o.len, line + skip, blen);
		at += o.len + blen;
	}
	buf[at] = '\0';
	if (done)
		*done = k;
	return (long)at;
}

int kfdsig_format_finding_text(const struct kfdsig_finding *f, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (!f)
		return 0;
	put_offset(&o, f->offset);
	put_s(&o, kfdsig_severity_name(f->severity));
	put_c(&o, '[');
	put_s(&o, f->rule);
	PUT_LIT(&o, "]: ");
	put_s(&o, f->message ? f->message : "");
	put_c(&o, '\n');
	return done(&o);
}

int kfdsig_format_finding_json(const struct kfdsig_finding *f, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (!f)
		return 0;
	put_json_offset(&o, f->offset);
	PUT_LIT(&o, ", \"finding\": ");
	put_json_str(&o, f->rule);
	PUT_LIT(&o, ", \"severity\": \"");
	put_s(&o, kfdsig_severity_name(f->severity));
	PUT_LIT(&o, "\", \"message\": ");
	put_json_str(&o, f->message);
	PUT_LIT(&o, "}\n");
	return done(&o);
}
