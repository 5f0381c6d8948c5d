/* SPDX-License-Identifier: MIT */
/*
 * The one escaper of JSON strings and XML text (src/core/escape.h): what
 * each form escapes, and U+FFFD for every byte that does not start a
 * well-formed UTF-8 sequence, so the output is valid UTF-8 whatever the
 * input (a process name may hold any byte).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "helpers.h"

static void check(enum esc_kind how, const char *in, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		CHECK(0, "open_memstream");
		return;
	}
	if (how == ESC_JSON)
		esc_json_fputs(f, in);
	else
		esc_fputs(f, how, in);
	fclose(f);
	CHECK(!strcmp(buf, want), "%s of '%s': got '%s', want '%s'",
	      how == ESC_JSON ? "JSON" : "XML", in, buf, want);
	free(buf);
}

#define FFFD "\xef\xbf\xbd"

int main(void)
{
	/* JSON: RFC 8259 section 7 */
	check(ESC_JSON, "plain <text> & 'more'", "\"plain <text> & 'more'\"");
	check(ESC_JSON, "q\"b\\", "\"q\\\"b\\\\\"");
	check(ESC_JSON, "a\nb\x01", "\"a\\u000ab\\u0001\"");
	check(ESC_JSON, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	      "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* not UTF-8 (RFC 3629 section 4): a stray byte, a cut sequence, an
	 * overlong form, a surrogate, above U+10FFFF */
	check(ESC_JSON, "proc\xff", "\"proc" FFFD "\"");
	check(ESC_JSON, "\xe2\x82", "\"" FFFD FFFD "\"");
	check(ESC_JSON, "\xc0\xaf", "\"" FFFD FFFD "\"");
	check(ESC_JSON, "\xe0\x80\xaf", "\"" FFFD FFFD FFFD "\"");
	check(ESC_JSON, "\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"");
	check(ESC_JSON, "\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"");
	check(ESC_JSON, "\x80x", "\"" FFFD "x\"");
	check(ESC_JSON, NULL, "\"\"");
	/* XML 1.0: the markup characters, and no control characters */
	check(ESC_XML, "a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&apos;");
	check(ESC_XML, "t\tn\nx\x01", "t\tn\nx" FFFD);
	check(ESC_XML, "\xff", FFFD);
	return t_result("core_escape");
}
