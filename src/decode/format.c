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

/* @v in decimal, two digits at a time. */
static void put_dec(struct out *o, uint64_t v)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, dec2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, dec2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
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

/* The label of a stream offset: dwords and bytes, both in hex. */
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

/* Six hex digits of @v (< 2^24), a byte at a time. */
static char *hex6(char *p, uint32_t v)
{
	memcpy(p, hex2 + 2 * ((v >> 16) & 0xff), 2);
	memcpy(p + 2, hex2 + 2 * ((v >> 8) & 0xff), 2);
	memcpy(p + 4, hex2 + 2 * (v & 0xff), 2);
	return p + 6;
}

static void put_offset(struct out *o, uint64_t dw)
{
	char tmp[64], *p = tmp;

	/* The common case in one go: both numbers fit 6 hex digits. */
	if (dw < (1u << 22)) {
		memcpy(p, "dw 0x", 5);
		p = hex6(p + 5, (uint32_t)dw);
		memcpy(p, " (byte 0x", 9);
		p = hex6(p + 9, (uint32_t)dw * 4);
		memcpy(p, "): ", 3);
		put_mem(o, tmp, (size_t)(p + 3 - tmp));
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

struct kfdsig_format_cache {
	struct frag e[FRAG_ENTRIES];
	struct head h[HEAD_ENTRIES];
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

static int packet_text(struct kfdsig_format_cache *c, const struct kfdsig_packet *p, uint32_t flags,
		       char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (!p)
		return 0;
	put_offset(&o, p->offset);
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
	return done(&o);
}

static int packet_json(struct kfdsig_format_cache *c, const struct kfdsig_packet *p, uint32_t flags,
		       char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (!p)
		return 0;
	PUT_LIT(&o, "{\"offset\": ");
	put_dec(&o, p->offset);
	PUT_LIT(&o, ", \"byte_offset\": ");
	put_dec(&o, p->offset * 4);
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
