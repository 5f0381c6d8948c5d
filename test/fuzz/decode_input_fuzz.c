/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the input formats of `kfdsig decode`
 * (tools/decode_input.c): the first byte picks the format (bin, hex, xxd,
 * xxd-e, hexdump, od, umr, debugfs, devcoredump, or auto-detection), the
 * rest is the file. The dwords each parse yields are decoded as PM4 with
 * lint, so the line parsers, the '*' repeat and the radix guess all run on
 * arbitrary text. CLI messages go nowhere (cli_stub.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdsig/kfdsig.h>

#include "decode_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sink_fn(void *ctx, const uint32_t *dw, size_t n)
{
	KFDSIG_OPTS(kfdsig_decode_opts, o);

	(void)ctx;
	o.engine = KFDSIG_ENGINE_PM4;
	o.target = kfdsig_target_by_name("gfx90a");
	o.flags = KFDSIG_DECODE_LINT;
	kfdsig_decode(&o, NULL, dw, n, NULL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct din_sink s = { NULL, sink_fn };
	struct din_ring ring;
	unsigned char head[4096];
	enum din_kind kind;
	const char *ring_name;
	size_t nhead;
	FILE *f;

	if (size < 1)
		return 0;
	din_max_repeat = 1u << 16;
	kind = (enum din_kind)(data[0] % (DIN_DEVCOREDUMP + 1));
	ring_name = data[0] & 0x80 ? "gfx_0.0.0" : NULL;
	data++;
	size--;
	f = fmemopen(size ? (void *)data : (void *)"", size ? size : 1, "rb");
	if (!f)
		return 0;
	nhead = size ? fread(head, 1, sizeof(head), f) : 0;
	if (kind == DIN_AUTO)
		kind = din_detect(head, nhead, NULL);
	din_parse(f, kind, head, nhead, ring_name, &s, &ring);
	fclose(f);
	return 0;
}
