/* SPDX-License-Identifier: MIT */
/*
 * Runs of equal packets (kfdsig_decode_sink.run) and their lines
 * (kfdsig_format_relabel()). A decoder with a run() callback must report
 * exactly the packets, statistics and findings one without it reports,
 * runs expanded (whole streams and streamed in random pieces, PM4 and
 * SDMA, with and without lint); runs must be taken where they can (a
 * stream of fillers is one call) and never for a packet that a lint rule
 * looks at or that raises a finding. Relabelled lines must be byte for
 * byte the lines formatted at those offsets, across label widths, text
 * and JSON, raw or not, and whole lines only when the buffer is short.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define MAXP 200000

struct rec {
	uint64_t offset;
	uint32_t ndw, avail, opcode, sub_op, flags;
	uint32_t dw0, sum; /* the first dword, a hash of all (the decoder's
			    * window is reused after the call) */
	const char *name;
	const struct kfdsig_packet_desc *desc;
};

struct log {
	struct rec *p;
	size_t n;
	uint64_t runs, run_packets, longest;
	char findings[8192];
	size_t flen;
	bool with_runs;
};

static void put(struct log *l, const struct kfdsig_packet *p, uint64_t k)
{
	struct rec *r;

	if (l->n >= MAXP)
		return;
	r = &l->p[l->n++];
	r->offset = p->offset + k * p->ndw;
	r->ndw = p->ndw;
	r->avail = p->avail;
	r->opcode = p->opcode;
	r->sub_op = p->sub_op;
	r->flags = p->flags;
	r->dw0 = p->dw[k * p->ndw];
	r->sum = 2166136261u;
	for (uint32_t i = 0; i < p->avail; i++)
		r->sum = (r->sum ^ p->dw[k * p->ndw + i]) * 16777619u;
	r->name = p->name;
	r->desc = p->desc;
}

static int on_packet(void *ctx, const struct kfdsig_packet *p)
{
	put(ctx, p, 0);
	return 0;
}

static int on_run(void *ctx, const struct kfdsig_packet *p, uint64_t n)
{
	struct log *l = ctx;

	CHECK(n >= 2, "a run of %llu packets", (unsigned long long)n);
	l->runs++;
	l->run_packets += n;
	if (n > l->longest)
		l->longest = n;
	for (uint64_t k = 0; k < n; k++) {
		CHECK(memcmp(p->dw + k * p->ndw, p->dw, p->ndw * 4) == 0,
		      "packet %llu of a run at %llu differs from the first", (unsigned long long)k,
		      (unsigned long long)p->offset);
		put(l, p, k);
	}
	return 0;
}

static int on_finding(void *ctx, const struct kfdsig_finding *f)
{
	struct log *l = ctx;
	int n = snprintf(l->findings + l->flen, sizeof(l->findings) - l->flen, "%llu %s %s\n",
			 (unsigned long long)f->offset, f->rule, f->message);

	if (n > 0 && (size_t)n < sizeof(l->findings) - l->flen)
		l->flen += (size_t)n;
	return 0;
}

static uint32_t rnd_state = 12345;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

/* Decode @dw whole (@piece 0) or in random pieces of at most @piece. */
static void decode(const struct kfdsig_decode_opts *o, struct log *l, const uint32_t *dw, size_t n,
		   size_t piece, struct kfdsig_decode_stats *st)
{
	KFDSIG_OPTS(kfdsig_decode_sink, s, .ctx = l, .packet = on_packet, .finding = on_finding,
		    .run = l->with_runs ? on_run : NULL);
	struct kfdsig_decoder *d;

	if (!piece) {
		kfdsig_decode(o, &s, dw, n, st);
		return;
	}
	d = kfdsig_decoder_new(o, &s);
	CHECK(d != NULL, "decoder");
	if (!d)
		return;
	for (size_t i = 0; i < n;) {
		size_t k = 1 + rnd() % piece;

		if (k > n - i)
			k = n - i;
		kfdsig_decoder_feed(d, dw + i, k);
		i += k;
	}
	kfdsig_decoder_finish(d, st);
	kfdsig_decoder_free(d);
}

/* The same packets, findings and totals with and without run(); the
 * runs taken, for the caller to check. */
static struct log compare(const char *what, const struct kfdsig_decode_opts *o, const uint32_t *dw,
			  size_t n, size_t piece)
{
	static struct rec a[MAXP], b[MAXP];
	static struct log la, lb;
	struct kfdsig_decode_stats sa = { 0 }, sb = { 0 };
	uint32_t saved = rnd_state;

	memset(&la, 0, sizeof(la));
	memset(&lb, 0, sizeof(lb));
	la.p = a;
	lb.p = b;
	lb.with_runs = true;
	decode(o, &la, dw, n, piece, &sa);
	rnd_state = saved; /* the same pieces */
	decode(o, &lb, dw, n, piece, &sb);
	CHECK_EQ(lb.n, la.n, "%s: packets", what);
	for (size_t i = 0; i < la.n && i < lb.n; i++) {
		const struct rec *x = &a[i], *y = &b[i];
		bool same = x->offset == y->offset && x->ndw == y->ndw && x->avail == y->avail &&
			    x->opcode == y->opcode && x->sub_op == y->sub_op &&
			    x->flags == y->flags && x->name == y->name && x->dw0 == y->dw0 &&
			    x->sum == y->sum;

		CHECK(same, "%s: packet %zu: at %llu %s, with runs at %llu %s", what, i,
		      (unsigned long long)x->offset, x->name ? x->name : "-",
		      (unsigned long long)y->offset, y->name ? y->name : "-");
		if (!same)
			break;
	}
	CHECK(la.flen == lb.flen && memcmp(la.findings, lb.findings, la.flen) == 0,
	      "%s: findings differ:\n%s---\n%s", what, la.findings, lb.findings);
	CHECK(memcmp(&sa, &sb, sizeof(sa)) == 0,
	      "%s: totals %llu packets %llu dwords, with runs %llu %llu", what,
	      (unsigned long long)sa.packets, (unsigned long long)sa.dwords,
	      (unsigned long long)sb.packets, (unsigned long long)sb.dwords);
	return lb;
}

/* A stream of fences, fillers, repeated packets and garbage. */
static size_t make_stream(const struct kfdsig_target *t, enum kfdsig_engine e, uint32_t *dw,
			  size_t cap)
{
	size_t n = 0;

	while (n + 64 < cap) {
		struct kfdsig_fence f = { .event_id = 1 + rnd() % 4095 };
		uint32_t k = rnd() % 6, rep = 1 + rnd() % 40;
		int m;

		f.slot_va = 0x7f0000200000ull + 8ull * f.event_id;
		switch (k) {
		case 0: /* a fence, sometimes repeated */
			m = e == KFDSIG_ENGINE_SDMA ? kfdsig_sdma_emit_fence(t, &f, dw + n, 32)
						    : kfdsig_pm4_emit_fence(t, &f, dw + n, 32);
			if (m <= 0)
				break;
			for (uint32_t r = 1; r < rep % 4 && n + (r + 1) * (uint32_t)m < cap - 64;
			     r++)
				memcpy(dw + n + r * (uint32_t)m, dw + n, (size_t)m * 4);
			n += (size_t)m * (rep % 4 ? rep % 4 : 1);
			break;
		case 1: /* one-dword fillers */
		case 2:
			for (uint32_t r = 0; r < rep && n < cap - 64; r++)
				dw[n++] = e == KFDSIG_ENGINE_SDMA ? 0x00000000u : 0xffff1000u;
			break;
		case 3: /* 2- or 3-dword NOPs */
			for (uint32_t r = 0; r < rep % 8 && n + 3 < cap - 64; r++) {
				if (e == KFDSIG_ENGINE_SDMA) {
					m = kfdsig_sdma_emit_nop(dw + n, 3, 2, 0);
					n += m > 0 ? (size_t)m : 0;
				} else {
					dw[n++] = 0xc0011000u; /* PACKET3(NOP, 1): 3 dwords */
					dw[n++] = 0;
					dw[n++] = 0;
				}
			}
			break;
		case 4: /* an unknown opcode (a finding), repeated */
			for (uint32_t r = 0; r < rep % 4 + 1 && n + 2 < cap - 64; r++) {
				dw[n++] = e == KFDSIG_ENGINE_SDMA ? 0x0000007eu : 0xc000ee00u;
				if (e != KFDSIG_ENGINE_SDMA)
					dw[n++] = 0;
			}
			break;
		default: /* garbage */
			for (uint32_t r = 0; r < rep % 5 && n < cap - 64; r++)
				dw[n++] = rnd() | 0x40000000u;
			break;
		}
	}
	return n;
}

static void streams(void)
{
	static uint32_t dw[60000];
	static const char *const targets[] = { "gfx900", "gfx90a", "gfx1100" };

	for (size_t ti = 0; ti < 3; ti++) {
		const struct kfdsig_target *t = kfdsig_target_by_name(targets[ti]);

		for (int e = 0; e < 2; e++) {
			enum kfdsig_engine eng = e ? KFDSIG_ENGINE_SDMA : KFDSIG_ENGINE_PM4;

			for (int lint = 0; lint < 2; lint++) {
				KFDSIG_OPTS(kfdsig_decode_opts, o, .target = t, .engine = eng,
					    .flags = (lint ? KFDSIG_DECODE_LINT |
								      KFDSIG_DECODE_SIGNAL_PAGE
							   : 0),
					    .signal_page_va = 0x7f0000200000ull);
				size_t n = make_stream(t, eng, dw, sizeof(dw) / 4);
				char what[96];
				struct log l;

				snprintf(what, sizeof(what), "%s %s%s", t->name, e ? "sdma" : "pm4",
					 lint ? " lint" : "");
				l = compare(what, &o, dw, n, 0);
				CHECK(l.runs > 100, "%s: only %llu runs taken", what,
				      (unsigned long long)l.runs);
				for (size_t piece = 1; piece < 4000; piece = piece * 7 + 3) {
					char w2[128];

					snprintf(w2, sizeof(w2), "%s, pieces <= %zu", what, piece);
					compare(w2, &o, dw, n, piece);
				}
			}
		}
	}
}

/* Where runs must and must not be taken. */
static void paths(void)
{
	static uint32_t dw[4096];
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
	KFDSIG_OPTS(kfdsig_decode_opts, o, .target = t, .engine = KFDSIG_ENGINE_PM4);
	KFDSIG_OPTS(kfdsig_decode_opts, lo, .target = t, .engine = KFDSIG_ENGINE_PM4,
		    .flags = KFDSIG_DECODE_LINT);
	struct kfdsig_fence f = { .event_id = 7, .slot_va = 0x7f0000200038ull };
	struct log l;
	int m;

	/* 1000 fillers: the first is a packet() (it fills the decoder's
	 * header cache), the other 999 one run */
	for (int i = 0; i < 1000; i++)
		dw[i] = 0xffff1000u;
	l = compare("1000 fillers", &o, dw, 1000, 0);
	CHECK_EQ(l.runs, 1, "one run for 1000 fillers");
	CHECK_EQ(l.longest, 999, "the run after the first filler");

	/* the same fence 20 times: runs without lint, none with it */
	m = kfdsig_pm4_emit_fence(t, &f, dw, 32);
	CHECK(m == 8, "fence");
	for (int i = 1; i < 20; i++)
		memcpy(dw + i * m, dw, (size_t)m * 4);
	l = compare("20 fences", &o, dw, 20 * (size_t)m, 0);
	CHECK_EQ(l.run_packets, 19, "19 fences in a run without lint");
	l = compare("20 fences, lint", &lo, dw, 20 * (size_t)m, 0);
	CHECK_EQ(l.runs, 0, "no run of packets the lint checks");

	/* an unknown opcode 30 times: each has its finding, none is in a run */
	for (int i = 0; i < 30; i++) {
		dw[2 * i] = 0xc000ee00u;
		dw[2 * i + 1] = 0;
	}
	l = compare("30 unknown", &o, dw, 60, 0);
	CHECK_EQ(l.runs, 0, "no run of packets with findings");
}

/* kfdsig_format_relabel() against formatting at each offset. */
static void relabel(void)
{
	static const uint64_t offs[] = { 0,
					 1,
					 0xfffffull,
					 0x100000ull,
					 0x3fffffull,
					 0x400000ull,
					 0xffffffull,
					 0x1000000ull,
					 (1ull << 40) - 1,
					 1ull << 40,
					 (1ull << 60) + 3 };
	static const uint32_t pk[][3] = { { 0xffff1000u }, { 0xc0011000u, 5, 6 }, { 0x80000000u } };
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
	KFDSIG_OPTS(kfdsig_decode_opts, o, .target = t, .engine = KFDSIG_ENGINE_PM4);
	static char line[4096], want[65536], got[65536];

	for (size_t pi = 0; pi < 3; pi++) {
		struct log l = { 0 };
		static struct rec r[4];
		KFDSIG_OPTS(kfdsig_decode_sink, s, .ctx = &l, .packet = on_packet);
		uint32_t ndw = pi == 1 ? 3 : 1;
		struct kfdsig_packet p = { 0 };

		l.p = r;
		kfdsig_decode(&o, &s, pk[pi], ndw, NULL);
		CHECK_EQ(l.n, 1, "one packet");
		p.ndw = p.avail = r[0].ndw;
		p.dw = pk[pi];
		p.name = r[0].name;
		p.opcode = r[0].opcode;
		p.sub_op = r[0].sub_op;
		p.flags = r[0].flags;
		p.engine = KFDSIG_ENGINE_PM4;
		p.desc = r[0].desc;
		for (int fmt = 0; fmt < 4; fmt++) {
			bool json = fmt & 1;
			uint32_t flags = fmt & 2 ? KFDSIG_FORMAT_RAW : 0;

			for (size_t a = 0; a < sizeof(offs) / 8; a++)
				for (size_t b = 0; b < sizeof(offs) / 8; b++) {
					size_t wl = 0;
					uint64_t done = 0;
					long n;
					int len;

					p.offset = offs[a];
					len = (json ? kfdsig_format_packet_json
						    : kfdsig_format_packet_text)(&p, flags, line,
										 sizeof(line));
					for (uint64_t k = 0; k < 4; k++) {
						p.offset = offs[b] + k * ndw;
						wl += (size_t)(json ? kfdsig_format_packet_json
								    : kfdsig_format_packet_text)(
							&p, flags, want + wl, sizeof(want) - wl);
					}
					n = kfdsig_format_relabel(line, (size_t)len, offs[a],
								  offs[b], ndw, 4, got, sizeof(got),
								  &done);
					CHECK(n == (long)wl && done == 4 &&
						      memcmp(got, want, wl + 1) == 0,
					      "packet %zu fmt %d: %llx -> %llx: %ld bytes, %llu "
					      "lines:\n%s---\n%s",
					      pi, fmt, (unsigned long long)offs[a],
					      (unsigned long long)offs[b], n,
					      (unsigned long long)done, got, want);
					/* a label of another offset is refused */
					CHECK(kfdsig_format_relabel(line, (size_t)len, offs[a] + 1,
								    offs[b], ndw, 1, got,
								    sizeof(got), NULL) == -EINVAL,
					      "the label of %llx taken for %llx",
					      (unsigned long long)offs[a],
					      (unsigned long long)offs[a] + 1);
					/* a short buffer: whole lines only */
					{
						size_t first = wl / 4; /* about one line */

						n = kfdsig_format_relabel(line, (size_t)len,
									  offs[a], offs[b], ndw, 4,
									  got, first + 100, &done);
						CHECK(n >= 0 && done < 4 &&
							      memcmp(got, want, (size_t)n) == 0 &&
							      got[n] == '\0' &&
							      (n == 0 || got[n - 1] == '\n'),
						      "short buffer: %ld bytes, %llu lines", n,
						      (unsigned long long)done);
					}
				}
		}
	}
	CHECK(kfdsig_format_relabel("x", 1, 0, 0, 1, 1, NULL, 0, NULL) == -EINVAL, "no buffer");
	CHECK(kfdsig_format_relabel(NULL, 0, 0, 0, 1, 1, got, 10, NULL) == -EINVAL, "no line");
}

int main(void)
{
	streams();
	paths();
	relabel();
	return t_result("decode_runs");
}
