/* SPDX-License-Identifier: MIT */
/*
 * The formatters take hand-built records too: a packet or finding with no
 * name, rule or message is printed with "?" (or nothing), never a crash.
 */
#include <string.h>

#include "helpers.h"

int main(void)
{
	struct kfdsig_packet p;
	struct kfdsig_finding f;
	char buf[512];

	memset(&p, 0, sizeof(p));
	memset(&f, 0, sizeof(f));
	CHECK(kfdsig_format_packet_text(&p, 0, buf, sizeof(buf)) > 0, "packet text");
	CHECK(strstr(buf, "?") != NULL, "packet text names the unnamed: %s", buf);
	CHECK(kfdsig_format_packet_json(&p, 0, buf, sizeof(buf)) > 0, "packet json");
	CHECK(strstr(buf, "\"?\"") != NULL, "packet json: %s", buf);
	CHECK(kfdsig_format_finding_text(&f, buf, sizeof(buf)) > 0, "finding text");
	CHECK(strstr(buf, "?") != NULL, "finding text: %s", buf);
	CHECK(kfdsig_format_finding_json(&f, buf, sizeof(buf)) > 0, "finding json");
	CHECK(strstr(buf, "\"?\"") != NULL, "finding json: %s", buf);
	return t_result("decode_format_null");
}
