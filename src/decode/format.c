/* SPDX-License-Identifier: MIT */
/*
 * Text and JSON renderings of decoded packets and findings, into caller
 * buffers with snprintf() semantics (the library never prints).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode_internal.h"

/* An output buffer that counts what it could not hold. Everything below
 * writes through put_mem(): no printf on the per-packet path. */
struct out {
	char *buf;
	size_t size, len;
};

static inline __attribute__((always_inline)) void put_mem(struct out *o, const char *s, size_t n)
{
	if (kfdsig_likely(o->len + n < o->size))
		memcpy(o->buf + o->len, s, n);
	else if (o->len < o->size)
		memcpy(o->buf + o->len, s, o->size - o->len);
	o->len += n;
}

static inline __attribute__((always_inline)) void put_c(struct out *o, char c)
{
	if (kfdsig_likely(o->len + 1 < o->size))
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

/* @v in decimal, two digits at a time (32-bit arithmetic when it fits). */
static void put_dec(struct out *o, uint64_t v)
{
	char tmp[24], *p = tmp + sizeof(tmp);
	uint32_t w;

	while (v > UINT32_MAX) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, dec2 + 2 * r, 2);
	}
	w = (uint32_t)v;
	while (w >= 100) {
		unsigned r = w % 100;

		w /= 100;
		p -= 2;
		memcpy(p, dec2 + 2 * r, 2);
	}
	if (w >= 10) {
		p -= 2;
		memcpy(p, dec2 + 2 * w, 2);
	} else {
		*--p = (char)('0' + w);
	}
	put_mem(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

/* @v in hex with 0x, at least @width digits (at most 16). */
static void put_hex(struct out *o, uint64_t v, int width)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do {
		*--p = hexdig[v & 15];
		v >>= 4;
		width--;
	} while (v || width > 0);
	*--p = 'x';
	*--p = '0';
	put_mem(o, p, (size_t)(tmp + sizeof(tmp) - p));
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

/*
 * The eight hex digits of @v, most significant first, as they lie in
 * memory: each nibble spread to a byte, then '0' or 'a' - 10 added to all
 * eight bytes at once (no table, no loop).
 */
static inline void hex8(char *dst, uint32_t v)
{
	uint64_t x = v, ten;

	x = (x | x << 16) & 0x0000ffff0000ffffull;
	x = (x | x << 8) & 0x00ff00ff00ff00ffull;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full; /* byte k = nibble k */
	ten = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
	x += 0x3030303030303030ull + ten * ('a' - '0' - 10);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x); /* nibble 7 in the first byte */
	memcpy(dst, &x, 8);
#else
	for (int k = 0; k < 8; k++)
		dst[k] = (char)(x >> (8 * (7 - k)));
#endif
}

/* The label of a stream offset: dwords and bytes, both in hex. */
static inline void put_offset(struct out *o, uint64_t dw)
{
	/* The common case in one go: both numbers fit 6 hex digits. */
	if (dw < (1u << 22)) {
		char tmp[40], *t = o->len + 40 < o->size ? o->buf + o->len : tmp;

		/* 8 digits each, the label's text written over the first 2 */
		hex8(t + 3, (uint32_t)dw);
		hex8(t + 18, (uint32_t)dw * 4);
		memcpy(t, "dw 0x", 5);
		memcpy(t + 11, " (byte 0x", 9);
		memcpy(t + 26, "): ", 3);
		if (t == tmp)
			put_mem(o, tmp, 29);
		else
			o->len += 29;
		return;
	}
	PUT_LIT(o, "dw ");
	put_hex(o, dw, 6);
	PUT_LIT(o, " (byte ");
	put_hex(o, dw * 4, 6);
	PUT_LIT(o, "): ");
}

/* Header fields the packet name and length already say (by position: the
 * tables put them at fixed bits of dword 0). */
static bool implied(const struct kfdsig_packet *p, const struct kfdsig_field *f)
{
	if (f->dw)
		return false;
	if (p->engine == KFDSIG_ENGINE_SDMA)
		return f->shift == 0 || (f->shift == 8 && f->width == 8 && !p->sub_op);
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

/* The fields i..j-1 of @p (one dword), as text (" name=value(name)") or as
 * JSON (", \"name\": value"). */
static void run_text(struct out *o, const struct kfdsig_packet *p, unsigned i, unsigned j,
		     bool json)
{
	for (; i < j; i++) {
		const struct kfdsig_field *f = &p->desc->fields[i];
		uint32_t v = kfdsig_field_get(f, p->dw);

		if (json) {
			PUT_LIT(o, ", \"");
			put_s(o, f->name);
			PUT_LIT(o, "\": ");
			put_dec(o, v);
			continue;
		}
		if (implied(p, f))
			continue;
		put_c(o, ' ');
		put_s(o, f->name);
		put_c(o, '=');
		put_u(o, v, show_hex(f));
		if (v < f->nvalues && f->values[v]) {
			put_c(o, '(');
			put_s(o, f->values[v]);
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
#define LINE_DW 16u
#define LINE_TEXT 944u

struct line {
	const struct kfdsig_packet_desc *desc;
	const char *name;
	uint32_t opcode, sub_op, ndw, avail, flags;
	uint8_t engine, json, fmt_flags, valid;
	uint16_t len;
	uint32_t dw[LINE_DW];
	char text[LINE_TEXT];
};

struct kfdsig_format_cache {
	struct frag e[FRAG_ENTRIES];
	struct head h[HEAD_ENTRIES];
	struct line l[LINE_SETS][2];
	uint8_t mru[LINE_SETS]; /* the way last used in each set */
};

struct kfdsig_format_cache *kfdsig_format_cache_new(void)
{
	struct kfdsig_format_cache *c = calloc(1, sizeof(*c));

	if (!c) {
		kfdsig_set_error(ENOMEM, "out of memory");
		errno = ENOMEM;
	}
	return c;
}

void kfdsig_format_cache_free(struct kfdsig_format_cache *c)
{
	free(c);
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
		if (c) {
			uint32_t h = (v * 2654435761u) ^ ((uint32_t)(uintptr_t)desc >> 4) * 40503u ^
				     i * 97u ^ (uint32_t)json;
			struct frag *e = &c->e[(h ^ h >> 15) & (FRAG_ENTRIES - 1)];

			if (!(e->valid && e->desc == desc && e->v == v && e->first == i &&
			      e->json == json)) {
				struct out t = { e->text, FRAG_TEXT, 0 };

				run_text(&t, p, i, j, json);
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

			run_text(&t, p, i, j, json);
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

/* A JSON string: quotes, backslashes and control bytes escaped. */
static void put_json_str(struct out *o, const char *s)
{
	const char *run;

	if (!s)
		s = "?";
	put_c(o, '"');
	for (run = s; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c != '"' && c != '\\' && c >= 0x20)
			continue;
		put_mem(o, run, (size_t)(s - run));
		run = s + 1;
		if (c == '"' || c == '\\') {
			put_c(o, '\\');
			put_c(o, (char)c);
		} else {
			PUT_LIT(o, "\\u00");
			put_c(o, hexdig[c >> 4]);
			put_c(o, hexdig[c & 15]);
		}
	}
	put_mem(o, run, (size_t)(s - run));
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
	else
		PUT_LIT(o, ", \"engine\": \"sdma\", \"name\": ");
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

/* Does slot @e hold the line of @p? Every input of the line but the offset
 * is compared: nothing else goes into it. */
static inline bool line_match(const struct line *e, const struct kfdsig_packet *p, uint32_t flags,
			      bool json)
{
	if (!(e->valid && e->desc == p->desc && e->name == p->name && e->avail == p->avail &&
	      e->ndw == p->ndw && e->flags == p->flags && e->opcode == p->opcode &&
	      e->sub_op == p->sub_op && e->engine == (uint8_t)p->engine && e->json == json &&
	      e->fmt_flags == (uint8_t)flags))
		return false;
	for (uint32_t i = 0; i < p->avail; i++)
		if (e->dw[i] != p->dw[i])
			return false;
	return true;
}

/*
 * The line of @p: the slot that holds it (*hit true), or the slot to keep
 * it in once formatted (the way of its set used least recently), or NULL
 * when @p is too long to be kept.
 */
static inline struct line *line_find(struct kfdsig_format_cache *c, const struct kfdsig_packet *p,
				     uint32_t flags, bool json, bool *hit)
{
	uint32_t h = (uint32_t)(uintptr_t)p->desc >> 4 ^ p->avail << 8 ^ (uint32_t)json;
	unsigned set, way;

	*hit = false;
	if (!c || p->avail > LINE_DW)
		return NULL;
	for (uint32_t i = 0; i < p->avail; i++)
		h = (h ^ p->dw[i]) * 0x9e3779b1u;
	set = (h ^ h >> 17) & (LINE_SETS - 1);
	way = c->mru[set];
	if (line_match(&c->l[set][way], p, flags, json)) {
		*hit = true;
		return &c->l[set][way];
	}
	way ^= 1;
	c->mru[set] = (uint8_t)way;
	*hit = line_match(&c->l[set][way], p, flags, json);
	return &c->l[set][way];
}

/* Keep the line @text (without the offset label) of @p in slot @e. */
static void line_store(struct line *e, const struct kfdsig_packet *p, uint32_t flags, bool json,
		       const char *text, size_t len)
{
	if (len >= LINE_TEXT || flags > 0xff) {
		e->valid = 0;
		return;
	}
	e->desc = p->desc;
	e->name = p->name;
	e->opcode = p->opcode;
	e->sub_op = p->sub_op;
	e->ndw = p->ndw;
	e->avail = p->avail;
	e->flags = p->flags;
	e->engine = (uint8_t)p->engine;
	e->json = json;
	e->fmt_flags = (uint8_t)flags;
	e->len = (uint16_t)len;
	memcpy(e->dw, p->dw, p->avail * sizeof(*p->dw));
	memcpy(e->text, text, len);
	e->valid = 1;
}

static int packet_text(struct kfdsig_format_cache *c, const struct kfdsig_packet *p, uint32_t flags,
		       char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	struct line *e;
	size_t label;
	bool hit;

	if (!p)
		return 0;
	put_offset(&o, p->offset);
	e = line_find(c, p, flags, false, &hit);
	if (hit) {
		put_mem(&o, e->text, e->len);
		return done(&o);
	}
	label = o.len;
	put_head(&o, c, p, false);
	put_fields(&o, c, p, false);
	if (payload_start(p)) {
		uint32_t i = payload_start(p), end = p->avail;

		if (end - i > TEXT_PAYLOAD_MAX)
			end = i + TEXT_PAYLOAD_MAX;
		PUT_LIT(&o, " data=");
		for (uint32_t k = i; k < end; k++) {
			if (k > i)
				put_c(&o, ',');
			put_hex(&o, p->dw[k], 1);
		}
		if (end < p->avail) {
			PUT_LIT(&o, ",...(+");
			put_dec(&o, p->avail - end);
			put_c(&o, ')');
		}
	}
	put_c(&o, '\n');
	if (flags & KFDSIG_FORMAT_RAW) {
		PUT_LIT(&o, "        raw: ");
		put_raw(&o, p, false);
		put_c(&o, '\n');
	}
	if (e && o.len < size)
		line_store(e, p, flags, false, buf + label, o.len - label);
	return done(&o);
}

static int packet_json(struct kfdsig_format_cache *c, const struct kfdsig_packet *p, uint32_t flags,
		       char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	struct line *e;
	size_t label;
	bool hit;

	if (!p)
		return 0;
	PUT_LIT(&o, "{\"offset\": ");
	put_dec(&o, p->offset);
	PUT_LIT(&o, ", \"byte_offset\": ");
	put_dec(&o, p->offset * 4);
	e = line_find(c, p, flags, true, &hit);
	if (hit) {
		put_mem(&o, e->text, e->len);
		return done(&o);
	}
	label = o.len;
	put_head(&o, c, p, true);
	put_fields(&o, c, p, true);
	put_c(&o, '}');
	if (payload_start(p)) {
		PUT_LIT(&o, ", \"data\": [");
		for (uint32_t i = payload_start(p); i < p->avail; i++) {
			if (i > payload_start(p))
				PUT_LIT(&o, ", ");
			put_dec(&o, p->dw[i]);
		}
		put_c(&o, ']');
	}
	if (flags & KFDSIG_FORMAT_RAW) {
		PUT_LIT(&o, ", \"raw\": [");
		put_raw(&o, p, true);
		put_c(&o, ']');
	}
	PUT_LIT(&o, "}\n");
	if (e && o.len < size)
		line_store(e, p, flags, true, buf + label, o.len - label);
	return done(&o);
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
	PUT_LIT(&o, "{\"offset\": ");
	put_dec(&o, f->offset);
	PUT_LIT(&o, ", \"byte_offset\": ");
	put_dec(&o, f->offset * 4);
	PUT_LIT(&o, ", \"finding\": ");
	put_json_str(&o, f->rule);
	PUT_LIT(&o, ", \"severity\": \"");
	put_s(&o, kfdsig_severity_name(f->severity));
	PUT_LIT(&o, "\", \"message\": ");
	put_json_str(&o, f->message);
	PUT_LIT(&o, "}\n");
	return done(&o);
}
