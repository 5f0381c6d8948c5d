/* SPDX-License-Identifier: MIT */
/*
 * Resynchronisation after bytes that do not parse, for both engines: the
 * garbage becomes one SKIPPED range reported once ("resync", with its
 * offsets), and the packets after it are decoded and linted. The case that
 * matters most: 20 garbage bytes in front of a fence whose INT_CTXID is 0.
 */
#include "decode_capture.h"

static struct capture cap;

#define PAGE 0x100000ull
#define EV 7

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 1 ^ rng << 17;
}

/* A deliberately bad fence (context id 0) for event EV after @ngarbage
 * garbage dwords; return the dwords used. */
static size_t stream(const struct kfdsig_target *t, enum kfdsig_engine e, uint32_t *s,
		     const uint32_t *garbage, size_t ngarbage)
{
	struct kfdsig_fence f = { 0 };
	int n;

	memcpy(s, garbage, ngarbage * 4);
	f.event_id = EV;
	f.slot_va = PAGE + 8 * EV;
	f.flags = KFDSIG_FENCE_DELIBERATELY_BAD | KFDSIG_FENCE_CTXID;
	f.ctxid = 0;
	n = e == KFDSIG_ENGINE_PM4 ? kfdsig_pm4_emit_fence(t, &f, s + ngarbage, 32)
				   : kfdsig_sdma_emit_fence(t, &f, s + ngarbage, 32);
	CHECK(n > 0, "emit: %s", kfdsig_last_error());
	return ngarbage + (size_t)(n > 0 ? n : 0);
}

/* The garbage is one SKIPPED range at 0 of @ngarbage dwords, reported once,
 * and the fence after it is linted (ctxid-zero or ctxid-mismatch). */
static bool recovered(const struct kfdsig_target *t, enum kfdsig_engine e, const uint32_t *g,
		      size_t ngarbage, bool report)
{
	uint32_t s[64];
	size_t n = stream(t, e, s, g, ngarbage);
	bool ok;

	cap_decode(&cap, t, e, KFDSIG_DECODE_LINT | KFDSIG_DECODE_SIGNAL_PAGE, PAGE, s, n);
	/* Random garbage may hold a plausible packet (a type-3 header with a
	 * short count): then only the fence after it is required. */
	ok = cap_count(&cap, "ctxid-zero", KFDSIG_SEV_ERROR) == 1;
	for (size_t i = 0; i < cap.npkts; i++)
		if (cap.pkts[i].p.offset < ngarbage &&
		    cap.pkts[i].p.offset + cap.pkts[i].p.ndw > ngarbage)
			ok = false; /* a packet straddles the fence */
	if (report)
		ok = ok && cap.npkts >= 2 && !strcmp(cap.pkts[0].p.name, "SKIPPED") &&
		     (cap.pkts[0].p.flags & KFDSIG_PACKET_SKIPPED) &&
		     cap.pkts[0].p.ndw == ngarbage && cap.pkts[1].p.offset == ngarbage &&
		     cap_count(&cap, "resync", KFDSIG_SEV_WARNING) == 1;
	if (report) {
		CHECK(ok, "%s %s: garbage %zu dw not skipped as one range before the fence",
		      t->name, e == KFDSIG_ENGINE_PM4 ? "pm4" : "sdma", ngarbage);
		if (!ok)
			cap_dump(&cap);
	}
	return ok;
}

/* @nz zero dwords (none can start a packet), then @nfence fences, decoded
 * at once and streamed in @chunk-dword pieces: one SKIPPED packet of @nz
 * dwords, one resync finding, whatever the run's length. */
static void long_run(size_t nz, int nfence, size_t chunk)
{
	const struct kfdsig_target *t = T("gfx90a");
	size_t n = nz;
	uint32_t *s = calloc(nz + 64, sizeof(*s));

	if (!s)
		exit(T_EXIT_FAIL);
	for (int i = 0; i < nfence; i++) {
		struct kfdsig_fence f = { 0 };
		int k;

		f.event_id = EV;
		f.slot_va = PAGE + 8 * EV;
		k = kfdsig_pm4_emit_fence(t, &f, s + n, 32);
		CHECK(k > 0, "emit: %s", kfdsig_last_error());
		n += (size_t)(k > 0 ? k : 0);
	}
	for (int pass = 0; pass < 2; pass++) {
		if (!pass) {
			cap_decode(&cap, t, KFDSIG_ENGINE_PM4, 0, 0, s, n);
		} else {
			KFDSIG_OPTS(kfdsig_decode_opts, o);
			struct kfdsig_decode_sink sk = cap_sink(&cap);
			struct kfdsig_decoder *d;

			o.engine = KFDSIG_ENGINE_PM4;
			o.target = t;
			cap_reset(&cap);
			d = kfdsig_decoder_new(&o, &sk);
			CHECK(d != NULL, "decoder_new: %s", kfdsig_last_error());
			if (!d)
				break;
			for (size_t at = 0; at < n; at += chunk)
				kfdsig_decoder_feed(d, s + at, n - at < chunk ? n - at : chunk);
			kfdsig_decoder_finish(d, NULL);
			kfdsig_decoder_free(d);
		}
		CHECK(cap.npkts == (size_t)nfence + 1 && cap.pkts[0].p.offset == 0 &&
			      cap.pkts[0].p.ndw == nz &&
			      (cap.pkts[0].p.flags & KFDSIG_PACKET_SKIPPED) &&
			      cap.pkts[0].avail >= 1 && cap.pkts[0].avail <= nz &&
			      cap_count(&cap, "resync", KFDSIG_SEV_WARNING) == 1,
		      "%zu zero dwords + %d fence(s), %s: %zu packets, the first %u dw, %zu resync",
		      nz, nfence, pass ? "streamed" : "at once", cap.npkts,
		      cap.npkts ? cap.pkts[0].p.ndw : 0,
		      cap_count(&cap, "resync", KFDSIG_SEV_WARNING));
		if (nfence && cap.npkts > 1)
			CHECK(cap.pkts[1].p.offset == nz, "the fence after the run at %llu",
			      (unsigned long long)cap.pkts[1].p.offset);
	}
	free(s);
}

int main(void)
{
	/* The case: 20 bytes of text before the fence. */
	static const char junk[21] = "GARBAGE!\x13\x37\xfe\xed\x01\x02\x03\x04\xde\xad\xbe\xef";
	uint32_t g[5];

	cap_init(&cap);
	memcpy(g, junk, 20);
	recovered(T("gfx90a"), KFDSIG_ENGINE_PM4, g, 5, true);
	recovered(T("gfx1100"), KFDSIG_ENGINE_PM4, g, 5, true);
	recovered(T("gfx90a"), KFDSIG_ENGINE_SDMA, g, 5, true);
	recovered(T("gfx1100"), KFDSIG_ENGINE_SDMA, g, 5, true);
	/* The finding names the range in dwords and bytes. */
	for (size_t i = 0; i < cap.nfinds; i++)
		if (!strcmp(cap.finds[i].rule, "resync"))
			CHECK(strstr(cap.finds[i].msg, "dwords 0x0-0x4 (bytes 0x0-0x13)") != NULL,
			      "resync message: %s", cap.finds[i].msg);

	/* A header whose count would swallow the fence: type 3, an opcode
	 * without a layout, count 5377. Without resync it hides the fence. */
	g[0] = 0xc5017f00;
	recovered(T("gfx90a"), KFDSIG_ENGINE_PM4, g, 5, true);

	/* Each kind of dword that cannot start a packet, with a count that
	 * would swallow the fence if it were believed: a type-0 register
	 * write, a type-3 header with a reserved bit (7:3) set, a type-2 header
	 * with pad bits (only 0x80000000 is the kernel's filler), a type-1
	 * header, and on SDMA a NOP with a non-zero sub-op. */
	{
		static const uint32_t pm4_bad[] = { 0x0fff2c40, 0xc0fe1008, 0x80001234,
						    0x7fff0000 };
		const uint32_t sdma_nop_subop = 0x3fff0100;

		for (size_t i = 0; i < sizeof(pm4_bad) / sizeof(pm4_bad[0]); i++) {
			g[0] = pm4_bad[i];
			g[1] = g[2] = g[3] = g[4] = pm4_bad[i];
			recovered(T("gfx90a"), KFDSIG_ENGINE_PM4, g, 5, true);
		}
		g[0] = g[1] = g[2] = g[3] = g[4] = sdma_nop_subop;
		recovered(T("gfx90a"), KFDSIG_ENGINE_SDMA, g, 5, true);
	}

	/* Random garbage: a random dword can be a plausible header (a known
	 * opcode with a count), so recovery is not certain; it must succeed
	 * almost always. */
	for (int e = 0; e < 2; e++) {
		int ok = 0, tries = 400;

		for (int k = 0; k < tries; k++) {
			for (int i = 0; i < 5; i++)
				g[i] = rnd();
			ok += recovered(T("gfx90a"), (enum kfdsig_engine)e, g, 5, false);
		}
		CHECK(ok >= tries * 97 / 100, "%s: random garbage recovered %d of %d times",
		      e ? "sdma" : "pm4", ok, tries);
	}
	/* One run of any length is one range: at a 1024-dword boundary,
	 * between two, at the end of the stream, cut anywhere. */
	long_run(16384, 0, 16384);
	long_run(16384, 0, 777);
	long_run(16384, 1, 1000);
	long_run(5000, 2, 4096);
	long_run(1024, 1, 1);
	long_run(3 * 1024, 0, 1024);
	cap_free(&cap);
	return t_result("decode_resync");
}
