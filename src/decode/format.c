/* SPDX-License-Identifier: MIT */
/*
 * Text and JSON renderings of decoded packets and findings, into caller
 * buffers with snprintf() semantics (the library never prints).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "decode/decode_internal.h"

/* An output buffer that counts what it could not hold. */
struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) KFDSIG_PRINTF(2, 3);
static void put(struct out *o, const char *fmt, ...)
{
	size_t room = o->len < o->size ? o->size - o->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* Fast paths for the per-field output (vsnprintf per field is the cost). */
static void put_s(struct out *o, const char *str)
{
	size_t n;

	if (!str) /* a hand-built packet or finding without a name */
		str = "?";
	n = strlen(str);

	if (o->len + n < o->size)
		memcpy(o->buf + o->len, str, n);
	else if (o->len < o->size)
		memcpy(o->buf + o->len, str, o->size - o->len);
	o->len += n;
}

static void put_u(struct out *o, uint32_t v, bool hex)
{
	char tmp[16], *p = tmp + sizeof(tmp);

	*--p = '\0';
	do {
		*--p = hex ? "0123456789abcdef"[v & 15] : (char)('0' + v % 10);
		v = hex ? v >> 4 : v / 10;
	} while (v);
	if (hex) {
		*--p = 'x';
		*--p = '0';
	}
	put_s(o, p);
}

static int done(struct out *o)
{
	if (o->size)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
	return o->len > INT32_MAX ? INT32_MAX : (int)o->len;
}

/* Header fields the packet name and length already say. */
static bool implied(const struct kfdsig_packet *p, const char *name)
{
	if (p->engine == KFDSIG_ENGINE_SDMA)
		return !strcmp(name, "op") || (!strcmp(name, "sub_op") && !p->sub_op);
	return !strcmp(name, "type") || !strcmp(name, "opcode") || !strcmp(name, "count");
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

static void put_raw(struct out *o, const struct kfdsig_packet *p, const char *sep)
{
	for (uint32_t i = 0; i < p->avail; i++)
		put(o, "%s0x%08x", i ? sep : "", p->dw[i]);
}

int kfdsig_format_packet_text(const struct kfdsig_packet *p, uint32_t flags, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (!p)
		return 0;
	put(&o, "%06llx: %s", (unsigned long long)p->offset, p->name ? p->name : "?");
	if (p->flags & KFDSIG_PACKET_UNKNOWN) {
		if (p->engine == KFDSIG_ENGINE_PM4)
			put(&o, " type=%u opcode=0x%02x", p->sub_op,
			    p->sub_op == 3 ? p->opcode : 0);
		else
			put(&o, " op=%u sub_op=%u", p->opcode, p->sub_op);
	}
	put(&o, " (%u dw)", p->ndw);
	if (p->flags & KFDSIG_PACKET_TRUNCATED)
		put(&o, " TRUNCATED: %u of %u dw", p->avail, p->ndw);
	if (p->flags & KFDSIG_PACKET_PARTIAL)
		put(&o, " PARTIAL: first %u dw decoded", p->avail);
	for (unsigned i = 0; p->desc && i < p->desc->nfields; i++) {
		const struct kfdsig_field *f = &p->desc->fields[i];
		uint32_t v;
		bool hex;

		if (f->dw >= p->avail || implied(p, f->name))
			continue;
		v = kfdsig_field_get(f, p->dw);
		hex = f->width >= 16 || !strcmp(f->name, "event_type");
		put_s(&o, " ");
		put_s(&o, f->name);
		put_s(&o, "=");
		put_u(&o, v, hex);
		if (v < f->nvalues && f->values[v]) {
			put_s(&o, "(");
			put_s(&o, f->values[v]);
			put_s(&o, ")");
		}
	}
	if (payload_start(p)) {
		uint32_t i = payload_start(p), end = p->avail;

		if (end - i > TEXT_PAYLOAD_MAX)
			end = i + TEXT_PAYLOAD_MAX;
		put_s(&o, " data=");
		for (uint32_t k = i; k < end; k++) {
			if (k > i)
				put_s(&o, ",");
			put_u(&o, p->dw[k], true);
		}
		if (end < p->avail)
			put(&o, ",...(+%u)", p->avail - end);
	}
	put(&o, "\n");
	if (flags & KFDSIG_FORMAT_RAW) {
		put(&o, "        raw: ");
		put_raw(&o, p, " ");
		put(&o, "\n");
	}
	return done(&o);
}

/* JSON string for names we control: they never need escaping beyond this. */
static void put_json_str(struct out *o, const char *s)
{
	if (!s)
		s = "?";
	put(o, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			put(o, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			put(o, "\\u%04x", (unsigned char)*s);
		else
			put(o, "%c", *s);
	}
	put(o, "\"");
}

int kfdsig_format_packet_json(const struct kfdsig_packet *p, uint32_t flags, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	bool first = true;

	if (!p)
		return 0;
	put(&o, "{\"offset\": %llu, \"engine\": \"%s\", \"name\": ", (unsigned long long)p->offset,
	    p->engine == KFDSIG_ENGINE_PM4 ? "pm4" : "sdma");
	put_json_str(&o, p->name);
	put(&o, ", \"opcode\": %u, \"%s\": %u, \"dwords\": %u, \"avail\": %u", p->opcode,
	    p->engine == KFDSIG_ENGINE_PM4 ? "type" : "sub_op", p->sub_op, p->ndw, p->avail);
	put(&o, ", \"unknown\": %s, \"truncated\": %s, \"partial\": %s, \"fields\": {",
	    (p->flags & KFDSIG_PACKET_UNKNOWN) ? "true" : "false",
	    (p->flags & KFDSIG_PACKET_TRUNCATED) ? "true" : "false",
	    (p->flags & KFDSIG_PACKET_PARTIAL) ? "true" : "false");
	for (unsigned i = 0; p->desc && i < p->desc->nfields; i++) {
		const struct kfdsig_field *f = &p->desc->fields[i];

		if (f->dw >= p->avail)
			continue;
		put_s(&o, first ? "\"" : ", \"");
		put_s(&o, f->name);
		put_s(&o, "\": ");
		put_u(&o, kfdsig_field_get(f, p->dw), false);
		first = false;
	}
	put(&o, "}");
	if (payload_start(p)) {
		put(&o, ", \"data\": [");
		for (uint32_t i = payload_start(p); i < p->avail; i++) {
			if (i > payload_start(p))
				put_s(&o, ", ");
			put_u(&o, p->dw[i], false);
		}
		put(&o, "]");
	}
	if (flags & KFDSIG_FORMAT_RAW) {
		put(&o, ", \"raw\": [");
		for (uint32_t i = 0; i < p->avail; i++)
			put(&o, "%s%u", i ? ", " : "", p->dw[i]);
		put(&o, "]");
	}
	put(&o, "}\n");
	return done(&o);
}

int kfdsig_format_finding_text(const struct kfdsig_finding *f, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (!f)
		return 0;
	put(&o, "%06llx: %s[%s]: %s\n", (unsigned long long)f->offset,
	    kfdsig_severity_name(f->severity), f->rule ? f->rule : "?",
	    f->message ? f->message : "");
	return done(&o);
}

int kfdsig_format_finding_json(const struct kfdsig_finding *f, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (!f)
		return 0;
	put(&o, "{\"offset\": %llu, \"finding\": ", (unsigned long long)f->offset);
	put_json_str(&o, f->rule);
	put(&o, ", \"severity\": \"%s\", \"message\": ", kfdsig_severity_name(f->severity));
	put_json_str(&o, f->message);
	put(&o, "}\n");
	return done(&o);
}
