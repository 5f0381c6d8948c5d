/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the decoder's input formats (kfdsig_decode_input_parse(),
 * src/decode/decode_input.c): the first byte picks the format (bin, hex,
 * xxd, xxd-e, hexdump, od, umr, debugfs, devcoredump, or auto-detection),
 * the rest is the file. The dwords each parse yields are decoded as PM4
 * with lint, so the line parsers, the '*' repeat and the radix guess all
 * run on arbitrary text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfdsig/kfdsig.h>

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
	KFDSIG_OPTS(kfdsig_decode_input_opts, o, .max_repeat = 1u << 16, .dwords = sink_fn);
	struct kfdsig_decode_input_ring ring;
	unsigned char head[4096];
	size_t nhead;
	FILE *f;

	if (size < 1)
		return 0;
	o.format = data[0] % KFDSIG_DECODE_INPUT_NR;
	o.ring_name = data[0] & 0x80 ? "gfx_0.0.0" : NULL;
	data++;
	size--;
	f = fmemopen(size ? (void *)data : (void *)"", size ? size : 1, "rb");
	if (!f)
		return 0;
	nhead = size ? fread(head, 1, sizeof(head), f) : 0;
	if (o.format == KFDSIG_DECODE_INPUT_AUTO)
		o.format = (uint32_t)kfdsig_decode_input_detect(head, nhead, NULL);
	kfdsig_decode_input_parse(f, head, nhead, &o, &ring);
	fclose(f);
	return 0;
}
