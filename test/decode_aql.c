/* SPDX-License-Identifier: MIT */
/*
 * Decoder and lint for AQL streams (kfdsig_decode() with KFDSIG_ENGINE_AQL):
 * a hand-written ring (HSA spec 2.9 layouts, ROCr's AQL_PM4_IB vendor
 * packet), the packet names and fields, each rule, truncation, streaming.
 */
#include <string.h>

#include <kfdsig/aql.h>

#include "helpers.h"

#define MAXP 16
#define MAXF 16

struct rec {
	unsigned np, nf;
	char name[MAXP][24];
	uint32_t ndw[MAXP], flags[MAXP];
	uint64_t poff[MAXP];
	uint32_t sig_lo[MAXP];
	char rule[MAXF][40];
	uint64_t foff[MAXF];
	enum kfdsig_severity sev[MAXF];
};

static int on_packet(void *ctx, const struct kfdsig_packet *p)
{
	struct rec *r = ctx;

	if (r->np < MAXP) {
		snprintf(r->name[r->np], sizeof(r->name[0]), "%s", p->name);
		r->ndw[r->np] = p->ndw;
		r->flags[r->np] = p->flags;
		r->poff[r->np] = p->offset;
		if (kfdsig_packet_field(p, "completion_signal_lo", &r->sig_lo[r->np]))
			r->sig_lo[r->np] = 0xdeadu;
	}
	r->np++;
	return 0;
}

static int on_finding(void *ctx, const struct kfdsig_finding *f)
{
	struct rec *r = ctx;

	if (r->nf < MAXF) {
		snprintf(r->rule[r->nf], sizeof(r->rule[0]), "%s", f->rule);
		r->foff[r->nf] = f->offset;
		r->sev[r->nf] = f->severity;
	}
	r->nf++;
	return 0;
}

static bool has(const struct rec *r, const char *rule, uint64_t off)
{
	for (unsigned i = 0; i < r->nf && i < MAXF; i++)
		if (!strcmp(r->rule[i], rule) && r->foff[i] == off)
			return true;
	return false;
}

/* Slot 0: BARRIER_AND 0x1503, completion signal 0x7f0000010000.
 * Slot 1: KERNEL_DISPATCH 0x1402 | setup 1, signal 0x7f0000010020 (unaligned).
 * Slot 2: AQL_PM4_IB 0x00011500: INDIRECT_BUFFER 0xc0023f00, base 0x10000,
 *         8 dwords | IB_VALID, dw_cnt_remain 10, no signal.
 * Slot 3: type 7 (not an HSA type). Slot 4: INVALID.
 * Slot 5: BARRIER_OR with acquire scope 3 (reserved), signal 0. */
static const uint32_t ring[] = {
	0x00001503, 0,		0,	    0,	    0,		0,  0,		0,
	0,	    0,		0,	    0,	    0,		0,  0x00010000, 0x00007f00,
	0x00011402, 0x00010040, 1,	    256,    1,		1,  0,		0,
	0x3000,	    0x7f00,	0x4000,	    0x7f00, 0,		0,  0x00010020, 0x00007f00,
	0x00011500, 0xc0023f00, 0x00010000, 0,	    0x00800008, 10, 0,		0,
	0,	    0,		0,	    0,	    0,		0,  0,		0,
	0x00000007, 0,		0,	    0,	    0,		0,  0,		0,
	0,	    0,		0,	    0,	    0,		0,  0,		0,
	0x00000001, 0,		0,	    0,	    0,		0,  0,		0,
	0,	    0,		0,	    0,	    0,		0,  0,		0,
	0x00000605, 0,		0,	    0,	    0,		0,  0,		0,
	0,	    0,		0,	    0,	    0,		0,  0,		0,
};

static long run(const char *target, uint32_t flags, const uint32_t *dw, size_t n, struct rec *r)
{
	KFDSIG_OPTS(kfdsig_decode_opts, o, .engine = KFDSIG_ENGINE_AQL,
		    .target = kfdsig_target_by_name(target), .flags = flags);
	KFDSIG_OPTS(kfdsig_decode_sink, s, .ctx = r, .packet = on_packet, .finding = on_finding);

	memset(r, 0, sizeof(*r));
	return kfdsig_decode(&o, &s, dw, n, NULL);
}

int main(void)
{
	static const char *const names[] = { "BARRIER_AND", "KERNEL_DISPATCH", "AQL_PM4_IB",
					     "UNKNOWN",	    "INVALID",	       "BARRIER_OR" };
	const size_t n = sizeof(ring) / sizeof(ring[0]);
	struct rec r;
	long ret;

	CHECK_EQ(n, 6 * 16, "ring is 6 slots");
	ret = run("gfx90a", 0, ring, n, &r);
	CHECK_EQ(r.np, 6, "6 packets");
	for (unsigned i = 0; i < 6 && i < r.np; i++) {
		CHECK(!strcmp(r.name[i], names[i]), "slot %u is %s, expected %s", i, r.name[i],
		      names[i]);
		CHECK_EQ(r.ndw[i], 16, "slot %u length", i);
		CHECK_EQ(r.poff[i], 16 * i, "slot %u offset", i);
	}
	CHECK_EQ(r.sig_lo[0], 0x10000, "barrier completion signal");
	CHECK_EQ(r.sig_lo[1], 0x10020, "dispatch completion signal");
	CHECK_EQ(r.flags[3] & KFDSIG_PACKET_UNKNOWN, KFDSIG_PACKET_UNKNOWN, "type 7 unknown");
	/* Without lint: the packet checks only. */
	CHECK(has(&r, "aql-bad-type", 48), "type 7 is an error");
	CHECK(has(&r, "aql-invalid", 64), "INVALID slot noted");
	CHECK(has(&r, "aql-bad-scope", 80), "scope 3");
	CHECK(!has(&r, "aql-no-signal", 32), "no lint without the flag");
	CHECK_EQ(ret, 2, "two errors without lint");

	ret = run("gfx90a", KFDSIG_DECODE_LINT, ring, n, &r);
	CHECK(has(&r, "aql-signal-unaligned", 16), "unaligned completion signal");
	CHECK(has(&r, "aql-no-signal", 32), "PM4 IB without signal");
	CHECK(has(&r, "aql-no-signal", 80), "barrier-OR without signal");
	CHECK(!has(&r, "aql-no-signal", 0), "barrier-AND has a signal");
	CHECK(!has(&r, "aql-pm4-ib-gen", 32), "PM4 IB on gfx9 is fine");
	CHECK(!has(&r, "aql-no-signal", 64), "INVALID slot is not linted");
	CHECK_EQ(ret, 3, "three errors with lint");

	ret = run("gfx1100", KFDSIG_DECODE_LINT, ring, n, &r);
	CHECK(has(&r, "aql-pm4-ib-gen", 32), "PM4 IB off gfx9 warned");

	/* A slot cut short: truncated, one error. */
	ret = run("gfx90a", 0, ring, 10, &r);
	CHECK_EQ(r.np, 1, "one truncated packet");
	CHECK_EQ(r.flags[0] & KFDSIG_PACKET_TRUNCATED, KFDSIG_PACKET_TRUNCATED, "truncated");
	CHECK(has(&r, "truncated", 0), "truncated finding");
	CHECK_EQ(ret, 1, "one error");

	/* Streaming in odd pieces gives the same packets. */
	{
		KFDSIG_OPTS(kfdsig_decode_opts, o, .engine = KFDSIG_ENGINE_AQL,
			    .target = kfdsig_target_by_name("gfx90a"));
		KFDSIG_OPTS(kfdsig_decode_sink, s, .ctx = &r, .packet = on_packet,
			    .finding = on_finding);
		struct kfdsig_decoder *d;

		memset(&r, 0, sizeof(r));
		d = kfdsig_decoder_new(&o, &s);
		CHECK(d != NULL, "decoder");
		for (size_t i = 0; d && i < n; i += 7)
			kfdsig_decoder_feed(d, ring + i, n - i < 7 ? n - i : 7);
		CHECK_EQ(kfdsig_decoder_finish(d, NULL), 2, "streamed errors");
		kfdsig_decoder_free(d);
		CHECK_EQ(r.np, 6, "streamed packets");
		CHECK(r.np >= 6 && !strcmp(r.name[2], "AQL_PM4_IB"), "streamed names");
	}

	/* The public layout lookup. */
	CHECK(kfdsig_aql_packet_desc(0x00011500) &&
		      !strcmp(kfdsig_aql_packet_desc(0x00011500)->name, "AQL_PM4_IB"),
	      "PM4 IB layout");
	CHECK(kfdsig_aql_packet_desc(0x00021500) &&
		      !strcmp(kfdsig_aql_packet_desc(0x00021500)->name, "VENDOR_SPECIFIC"),
	      "other vendor format");
	CHECK(kfdsig_aql_packet_desc(6) == NULL && errno == ENOENT, "type 6");
	return t_result("decode_aql");
}
