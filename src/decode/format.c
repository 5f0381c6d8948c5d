/* SPDX-License-Identifier: MIT */
/*
 * Text and JSON renderings of decoded packets and findings, into caller
 * buffers with snprintf() semantics (the library never prints).
 */
#include <string.h>

#include "decode/decode_internal.h"

/* An output buffer that counts what it could not hold. Everything below
 * writes through put_mem(): no printf on the per-packet path. */
struct out {
	char *buf;
	size_t size, len;
};

static void put_mem(struct out *o, const char *s, size_t n)
{
	if (kfdsig_likely(o->len + n < o->size))
		memcpy(o->buf + o->len, s, n);
	else if (o->len < o->size)
		memcpy(o->buf + o->len, s, o->size - o->len);
	o->len += n;
}

static void put_c(struct out *o, char c)
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

/* @v in decimal. */
static void put_dec(struct out *o, uint64_t v)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put_mem(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

/* @v in hex with 0x, at least @width digits. */
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
static void put_offset(struct out *o, uint64_t dw)
{
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

	if (!p->desc || !strcmp(p->name, "NOP"))
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

int kfdsig_format_packet_text(const struct kfdsig_packet *p, uint32_t flags, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (!p)
		return 0;
	put_offset(&o, p->offset);
	put_s(&o, p->name);
	if (p->flags & KFDSIG_PACKET_SKIPPED) {
		PUT_LIT(&o, " first=");
		put_hex(&o, p->opcode, 8);
	} else if (p->flags & KFDSIG_PACKET_UNKNOWN) {
		if (p->engine == KFDSIG_ENGINE_PM4) {
			PUT_LIT(&o, " type=");
			put_dec(&o, p->sub_op);
			PUT_LIT(&o, " opcode=");
			put_hex(&o, p->sub_op == 3 ? p->opcode : 0, 2);
		} else {
			PUT_LIT(&o, " op=");
			put_dec(&o, p->opcode);
			PUT_LIT(&o, " sub_op=");
			put_dec(&o, p->sub_op);
		}
	}
	PUT_LIT(&o, " (");
	put_dec(&o, p->ndw);
	PUT_LIT(&o, " dw)");
	if (p->flags & KFDSIG_PACKET_TRUNCATED) {
		PUT_LIT(&o, " TRUNCATED: ");
		put_dec(&o, p->avail);
		PUT_LIT(&o, " of ");
		put_dec(&o, p->ndw);
		PUT_LIT(&o, " dw");
	}
	if (p->flags & KFDSIG_PACKET_PARTIAL) {
		PUT_LIT(&o, " PARTIAL: first ");
		put_dec(&o, p->avail);
		PUT_LIT(&o, " dw decoded");
	}
	for (unsigned i = 0; p->desc && i < p->desc->nfields; i++) {
		const struct kfdsig_field *f = &p->desc->fields[i];
		uint32_t v;

		if (f->dw >= p->avail || implied(p, f))
			continue;
		v = kfdsig_field_get(f, p->dw);
		put_c(&o, ' ');
		put_s(&o, f->name);
		put_c(&o, '=');
		put_u(&o, v, show_hex(f));
		if (v < f->nvalues && f->values[v]) {
			put_c(&o, '(');
			put_s(&o, f->values[v]);
			put_c(&o, ')');
		}
	}
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

int kfdsig_format_packet_json(const struct kfdsig_packet *p, uint32_t flags, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	bool first = true;

	if (!p)
		return 0;
	PUT_LIT(&o, "{\"offset\": ");
	put_dec(&o, p->offset);
	PUT_LIT(&o, ", \"byte_offset\": ");
	put_dec(&o, p->offset * 4);
	if (p->engine == KFDSIG_ENGINE_PM4)
		PUT_LIT(&o, ", \"engine\": \"pm4\", \"name\": ");
	else
		PUT_LIT(&o, ", \"engine\": \"sdma\", \"name\": ");
	put_json_str(&o, p->name);
	PUT_LIT(&o, ", \"opcode\": ");
	put_dec(&o, p->opcode);
	if (p->engine == KFDSIG_ENGINE_PM4)
		PUT_LIT(&o, ", \"type\": ");
	else
		PUT_LIT(&o, ", \"sub_op\": ");
	put_dec(&o, p->sub_op);
	PUT_LIT(&o, ", \"dwords\": ");
	put_dec(&o, p->ndw);
	PUT_LIT(&o, ", \"avail\": ");
	put_dec(&o, p->avail);
	PUT_LIT(&o, ", \"unknown\": ");
	put_bool(&o, p->flags & KFDSIG_PACKET_UNKNOWN);
	PUT_LIT(&o, ", \"truncated\": ");
	put_bool(&o, p->flags & KFDSIG_PACKET_TRUNCATED);
	PUT_LIT(&o, ", \"partial\": ");
	put_bool(&o, p->flags & KFDSIG_PACKET_PARTIAL);
	if (p->flags & KFDSIG_PACKET_SKIPPED)
		PUT_LIT(&o, ", \"skipped\": true");
	PUT_LIT(&o, ", \"fields\": {");
	for (unsigned i = 0; p->desc && i < p->desc->nfields; i++) {
		const struct kfdsig_field *f = &p->desc->fields[i];

		if (f->dw >= p->avail)
			continue;
		if (first)
			put_c(&o, '"');
		else
			PUT_LIT(&o, ", \"");
		put_s(&o, f->name);
		PUT_LIT(&o, "\": ");
		put_dec(&o, kfdsig_field_get(f, p->dw));
		first = false;
	}
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
