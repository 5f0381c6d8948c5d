/* SPDX-License-Identifier: MIT */
/*
 * Streaming decoder: feeding a stream in pieces of any size gives the same
 * packets and findings as decoding it whole; packets longer than the
 * window come out PARTIAL and decoding continues after them; a stopping
 * sink stops the decoder; bad options are refused.
 */
#include "decode_capture.h"

static struct capture one, many;

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

/* A mixed stream: fence sequences, fillers, known packets, garbage. */
static size_t make_stream(const struct kfdsig_target *t, enum kfdsig_engine e, uint32_t *s,
			  size_t cap_dw)
{
	size_t n = 0;

	while (n + 64 < cap_dw) {
		struct kfdsig_fence f = { 0 };
		uint32_t r = rnd() % 8;
		int k;

		f.event_id = 1 + rnd() % 4095;
		f.slot_va = 0x100000000ull + 8ull * f.event_id;
		switch (r) {
		case 0:
		case 1:
			k = e == KFDSIG_ENGINE_PM4 ? kfdsig_pm4_emit_fence(t, &f, s + n, 32)
						   : kfdsig_sdma_emit_fence(t, &f, s + n, 32);
			n += k > 0 ? (size_t)k : 0;
			break;
		case 2:
			s[n++] = e == KFDSIG_ENGINE_PM4 ? 0xffff1000 : 0;
			break;
		case 3: /* burst / multi-dword NOP */
			k = 1 + rnd() % 20;
			s[n++] = e == KFDSIG_ENGINE_PM4 ? 0xc0001000 | (uint32_t)(k - 1) << 16
							: (uint32_t)k << 16;
			for (int i = 0; i < k; i++)
				s[n++] = rnd();
			break;
		default: /* garbage, with counts small enough to keep packets coming */
			k = 1 + rnd() % 6;
			for (int i = 0; i < k; i++)
				s[n++] = (rnd() & 0x003fffffu) | (rnd() % 4) << 30;
			break;
		}
	}
	return n;
}

static long feed(struct capture *c, const struct kfdsig_target *t, enum kfdsig_engine e,
		 const uint32_t *s, size_t n, size_t chunk)
{
	KFDSIG_OPTS(kfdsig_decode_opts, o);
	struct kfdsig_decode_sink sink = cap_sink(c);
	struct kfdsig_decoder *d;
	long r;

	o.engine = e;
	o.target = t;
	o.flags = KFDSIG_DECODE_LINT;
	cap_reset(c);
	d = kfdsig_decoder_new(&o, &sink);
	CHECK(d != NULL, "decoder_new");
	if (!d)
		return -1;
	for (size_t i = 0; i < n; i += chunk)
		CHECK_EQ(kfdsig_decoder_feed(d, s + i, n - i < chunk ? n - i : chunk), 0, "feed");
	r = kfdsig_decoder_finish(d, NULL);
	kfdsig_decoder_free(d);
	return r;
}

static void same(const char *what, bool exact)
{
	CHECK_EQ(many.npkts, one.npkts, "%s: packets", what);
	for (size_t i = 0; i < one.npkts && i < many.npkts; i++) {
		const struct kfdsig_packet *a = &one.pkts[i].p, *b = &many.pkts[i].p;

		if (a->offset != b->offset || a->ndw != b->ndw || strcmp(a->name, b->name) ||
		    (exact && (a->avail != b->avail || a->flags != b->flags ||
			       memcmp(a->dw, b->dw, a->avail * 4)))) {
			CHECK(0, "%s: packet %zu differs: %s@%llu/%u vs %s@%llu/%u", what, i,
			      a->name, (unsigned long long)a->offset, a->ndw, b->name,
			      (unsigned long long)b->offset, b->ndw);
			return;
		}
	}
	/* Streaming adds a "partial" note for packets longer than its window. */
	for (size_t i = 0, j = 0; i < one.nfinds || j < many.nfinds; i++, j++) {
		if (j < many.nfinds && !strcmp(many.finds[j].rule, "partial") && !exact)
			j++;
		if (i >= one.nfinds || j >= many.nfinds) {
			CHECK(i >= one.nfinds && j >= many.nfinds, "%s: finding counts differ",
			      what);
			return;
		}
		if (one.finds[i].offset != many.finds[j].offset ||
		    strcmp(one.finds[i].rule, many.finds[j].rule)) {
			CHECK(0, "%s: finding %zu differs: %s vs %s", what, i, one.finds[i].rule,
			      many.finds[j].rule);
			return;
		}
	}
	t_checks++;
}

static void test_equivalence(void)
{
	static uint32_t s[6000];
	static const size_t chunks[] = { 1, 2, 3, 5, 7, 64, 1000, 6000 };
	static const char *const targets[] = { "gfx803", "gfx90a", "gfx1100" };

	for (size_t ti = 0; ti < 3; ti++) {
		for (int e = 0; e < 2; e++) {
			const struct kfdsig_target *t = T(targets[ti]);
			size_t n = make_stream(t, (enum kfdsig_engine)e, s, 6000);
			long r1 = cap_decode(&one, t, (enum kfdsig_engine)e, KFDSIG_DECODE_LINT, 0,
					     s, n);

			CHECK(one.npkts > 20, "%s: stream has packets (%zu)", targets[ti],
			      one.npkts);
			for (size_t k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
				char what[64];

				snprintf(what, sizeof(what), "%s %s chunk %zu", targets[ti],
					 e ? "sdma" : "pm4", chunks[k]);
				CHECK_EQ(feed(&many, t, (enum kfdsig_engine)e, s, n, chunks[k]), r1,
					 "%s: result", what);
				same(what, true);
			}
		}
	}
}

static void test_partial(void)
{
	/* SDMA WRITE of 40000 dwords (count 39999 on 4.x), then a TRAP. */
	static uint32_t s[40010];
	const struct kfdsig_target *t = T("gfx90a");
	size_t n = 0;

	s[n++] = 0x00000002;
	s[n++] = 0x1000;
	s[n++] = 0;
	s[n++] = 39999;
	for (int i = 0; i < 40000; i++)
		s[n++] = (uint32_t)i;
	s[n++] = 0x00000006;
	s[n++] = 7;
	CHECK_EQ(n, 40006, "stream size");
	cap_decode(&one, t, KFDSIG_ENGINE_SDMA, 0, 0, s, n);
	CHECK_EQ(one.npkts, 2, "one-shot: WRITE + TRAP");
	CHECK_EQ(one.pkts[0].p.ndw, 40004, "WRITE length");
	CHECK_EQ(one.pkts[0].p.flags, 0, "one-shot: whole");

	for (size_t chunk = 4096; chunk <= 65536; chunk *= 4) {
		feed(&many, t, KFDSIG_ENGINE_SDMA, s, n, chunk);
		same("partial", false);
		CHECK(many.pkts[0].p.flags & KFDSIG_PACKET_PARTIAL, "streamed WRITE is partial");
		CHECK_EQ(many.pkts[0].avail, KFDSIG_DECODE_WINDOW_DW, "window-sized prefix");
		CHECK_EQ(cap_count(&many, "partial", KFDSIG_SEV_INFO), 1, "partial finding");
		CHECK_EQ(many.pkts[1].p.offset, 40004, "TRAP after the skipped tail");
		CHECK_EQ(cap_field(&many, 1, "int_context"), 7, "TRAP decoded");
	}
	/* The stream ends inside the oversized packet. */
	CHECK_EQ(feed(&many, t, KFDSIG_ENGINE_SDMA, s, 35000, 1000), 1, "cut inside partial");
	CHECK_EQ(cap_count(&many, "truncated", KFDSIG_SEV_ERROR), 1, "truncated at finish");
}

static int stop_at_3(void *ctx, const struct kfdsig_packet *p)
{
	int *n = ctx;

	(void)p;
	return ++*n == 3 ? -99 : 0;
}

static void test_stop_and_errors(void)
{
	static uint32_t s[100];
	KFDSIG_OPTS(kfdsig_decode_opts, o);
	KFDSIG_OPTS(kfdsig_decode_sink, sink, .ctx = NULL, .packet = stop_at_3, .finding = NULL);
	struct kfdsig_decoder *d;
	int count = 0;

	memset(s, 0, sizeof(s)); /* 100 SDMA NOPs */
	o.engine = KFDSIG_ENGINE_SDMA;
	o.target = T("gfx1100");
	sink.ctx = &count;
	CHECK_EQ(kfdsig_decode(&o, &sink, s, 100, NULL), -99, "stop code returned");
	CHECK_EQ(count, 3, "stopped after 3 packets");
	count = 0;
	d = kfdsig_decoder_new(&o, &sink);
	CHECK_EQ(kfdsig_decoder_feed(d, s, 100), -99, "feed stops");
	CHECK_EQ(kfdsig_decoder_feed(d, s, 100), -99, "stays stopped");
	CHECK_EQ(kfdsig_decoder_finish(d, NULL), -99, "finish reports the stop");
	CHECK_EQ(count, 3, "no packet after the stop");
	kfdsig_decoder_free(d);
	kfdsig_decoder_free(NULL);

	o.target = NULL;
	errno = 0;
	CHECK(kfdsig_decoder_new(&o, NULL) == NULL && errno == EINVAL, "no target");
	CHECK_EQ(kfdsig_decoder_feed(NULL, s, 1), -EINVAL, "feed NULL");
	CHECK_EQ(kfdsig_decoder_finish(NULL, NULL), -EINVAL, "finish NULL");
}

int main(void)
{
	cap_init(&one);
	cap_init(&many);
	test_equivalence();
	test_partial();
	test_stop_and_errors();
	cap_free(&one);
	cap_free(&many);
	return t_result("decode_stream");
}
