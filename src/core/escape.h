/* SPDX-License-Identifier: MIT */
/*
 * The project's one escaper of text for JSON strings and XML (JUnit, SVG):
 * the library's decoder output, the suite's reports and the CLI all use it.
 *
 * Input is UTF-8 of unknown origin (a process name, a file name, a reason):
 * a byte that does not start a well-formed UTF-8 sequence (RFC 3629 section
 * 4: no overlong forms, no surrogates, nothing above U+10FFFF) becomes
 * U+FFFD, so the output is always valid UTF-8 and valid JSON (RFC 8259
 * section 7: '"', '\' and U+0000-U+001F escaped) or XML 1.0 (the five
 * markup characters as entities; control characters other than tab, LF and
 * CR, which XML 1.0 does not allow, become U+FFFD too).
 */
#ifndef KFDSIG_CORE_ESCAPE_H
#define KFDSIG_CORE_ESCAPE_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The most bytes esc_char() writes. */
#define ESC_MAX 8

enum esc_kind { ESC_JSON, ESC_XML };

/* The length of the well-formed UTF-8 sequence at @s (@n bytes left), or 0. */
static inline size_t esc_utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	if (c == 0xe0)
		lo = 0xa0; /* overlong */
	else if (c == 0xed)
		hi = 0x9f; /* surrogates */
	else if (c == 0xf0)
		lo = 0x90; /* overlong */
	else if (c == 0xf4)
		hi = 0x8f; /* above U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/*
 * The escaped form of the character at @s (@n > 0 bytes left) into @out
 * (ESC_MAX bytes); *@adv = the input bytes it stands for.
 * Return the bytes written.
 */
static inline size_t esc_char(enum esc_kind how, const unsigned char *s, size_t n, char *out,
			      size_t *adv)
{
	static const char hex[] = "0123456789abcdef";
	static const char fffd[] = "\xef\xbf\xbd"; /* U+FFFD */
	unsigned char c = s[0];
	size_t len = esc_utf8_len(s, n);
	const char *rep = NULL;

	*adv = len ? len : 1;
	if (!len) {
		memcpy(out, fffd, 3);
		return 3;
	}
	if (how == ESC_JSON) {
		if (c == '"' || c == '\\') {
			out[0] = '\\';
			out[1] = (char)c;
			return 2;
		}
		if (c < 0x20) {
			memcpy(out, "\\u00", 4);
			out[4] = hex[c >> 4];
			out[5] = hex[c & 15];
			return 6;
		}
	} else {
		rep = c == '<'	  ? "&lt;"
		      : c == '>'  ? "&gt;"
		      : c == '&'  ? "&amp;"
		      : c == '"'  ? "&quot;"
		      : c == '\'' ? "&apos;"
				  : NULL;
		if (rep) {
			memcpy(out, rep, strlen(rep));
			return strlen(rep);
		}
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			memcpy(out, fffd, 3);
			return 3;
		}
	}
	memcpy(out, s, len);
	return len;
}

/* True for a byte that stands for itself in both forms (printable ASCII
 * other than the characters either form escapes): the callers' fast path. */
static inline int esc_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' &&
	       c != '\'';
}

/* @s (NULL: nothing) escaped to @f, without quotes. */
static inline void esc_fputs(FILE *f, enum esc_kind how, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? strlen(s) : 0;
	char buf[ESC_MAX];

	while (n) {
		size_t run = 0, adv, len;

		while (run < n && esc_plain(p[run]))
			run++;
		if (run) {
			fwrite(p, 1, run, f);
			p += run;
			n -= run;
			continue;
		}
		len = esc_char(how, p, n, buf, &adv);
		fwrite(buf, 1, len, f);
		p += adv;
		n -= adv;
	}
}

/* @s as a JSON string literal, quotes included. */
static inline void esc_json_fputs(FILE *f, const char *s)
{
	fputc('"', f);
	esc_fputs(f, ESC_JSON, s);
	fputc('"', f);
}

#endif
