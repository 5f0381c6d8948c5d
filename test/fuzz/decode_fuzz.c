/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the decoder, built once per engine
 * (-DFUZZ_ENGINE=KFDSIG_ENGINE_PM4 / _SDMA / _AQL). The first input byte picks the
 * target and the lint/page options; the rest is the stream. Every input is
 * decoded one-shot, then streamed in pieces whose size the input picks, and
 * every packet and finding is formatted as text and JSON, so the walk, the
 * window, the lint and the formatters all see the same arbitrary dwords.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kfdsig/kfdsig.h>

#ifndef FUZZ_ENGINE
#define FUZZ_ENGINE KFDSIG_ENGINE_PM4
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fmtbuf[256], fmtbuf2[256];
static struct kfdsig_format_cache *cache;

static int on_packet(void *ctx, const struct kfdsig_packet *p)
{
	uint32_t v;
	int a, b;

	(void)ctx;
	if (!cache)
		cache = kfdsig_format_cache_new();
	/* The cached formatter writes exactly what the plain one does. */
	a = kfdsig_format_packet_text(p, KFDSIG_FORMAT_RAW, fmtbuf, sizeof(fmtbuf));
	b = kfdsig_format_packet_text_cached(cache, p, KFDSIG_FORMAT_RAW, fmtbuf2, sizeof(fmtbuf2));
	if (a != b || strcmp(fmtbuf, fmtbuf2))
		abort();
	a = kfdsig_format_packet_json(p, KFDSIG_FORMAT_RAW, fmtbuf, sizeof(fmtbuf));
	b = kfdsig_format_packet_json_cached(cache, p, KFDSIG_FORMAT_RAW, fmtbuf2, sizeof(fmtbuf2));
	if (a != b || strcmp(fmtbuf, fmtbuf2))
		abort();
	kfdsig_packet_field(p, "int_ctxid", &v);
	if (p->avail > p->ndw || (p->avail && !p->dw))
		abort();
	return 0;
}

static int on_finding(void *ctx, const struct kfdsig_finding *f)
{
	(void)ctx;
	kfdsig_format_finding_text(f, fmtbuf, sizeof(fmtbuf));
	kfdsig_format_finding_json(f, fmtbuf, sizeof(fmtbuf));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	KFDSIG_OPTS(kfdsig_decode_sink, sink, .ctx = NULL, .packet = on_packet,
		    .finding = on_finding);
	KFDSIG_OPTS(kfdsig_decode_opts, o);
	struct kfdsig_decode_stats a, b;
	struct kfdsig_decoder *d;
	uint32_t *dw;
	size_t n, chunk;

	if (size < 2)
		return 0;
	o.engine = FUZZ_ENGINE;
	o.target = kfdsig_target_at(data[0] % kfdsig_target_count());
	o.flags = (data[1] & 1 ? KFDSIG_DECODE_LINT : 0) |
		  (data[1] & 2 ? KFDSIG_DECODE_SIGNAL_PAGE : 0);
	o.signal_page_va = 0x100000000ull;
	chunk = 1 + (data[1] >> 2) * 97u;
	data += 2;
	size -= 2;
	n = size / 4;
	/* An exact-size heap copy, so ASan sees any read past the end. */
	dw = malloc(n ? n * 4 : 1);
	if (!dw)
		return 0;
	memcpy(dw, data, n * 4);

	kfdsig_decode(&o, &sink, dw, n, &a);
	d = kfdsig_decoder_new(&o, &sink);
	if (d) {
		for (size_t i = 0; i < n; i += chunk)
			kfdsig_decoder_feed(d, dw + i, n - i < chunk ? n - i : chunk);
		kfdsig_decoder_finish(d, &b);
		kfdsig_decoder_free(d);
		/* Same stream, same packets (no packet outgrows the window:
		 * inputs are far smaller than it). */
		if (n < KFDSIG_DECODE_WINDOW_DW && a.packets != b.packets)
			abort();
	}
	free(dw);
	return 0;
}
