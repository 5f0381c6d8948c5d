/* SPDX-License-Identifier: MIT */
/*
 * Decoder and lint on amdgpu user-mode queue rings (KFDSIG_DECODE_USERQ):
 * the packets of kfdsig/userq.h decode by name and field, and each rule
 * fires on the broken variant it is about and on nothing else.
 *
 * The streams are written by hand from the packet definitions (as
 * test/userq_packets.c derives them: Mesa sid.h, nvd.h), except the first,
 * which is kfdsig_userq_emit_submit()'s own output read back.
 */
#include <errno.h>
#include <string.h>

#include "decode_capture.h"

#define RING_POS 0x1000ull

/* RELEASE_MEM of the userq trailer writing @v to 0x7f00_00002000, INT_SEL
 * @int_sel, INT_CTXID @ctx. */
#define RM(v, int_sel, ctx)                                                                     \
	0xc0064900, 0x06603514, 0x40000000 | (uint32_t)(int_sel) << 24, 0x00002000, 0x00007f00, \
		(uint32_t)(v), (uint32_t)((uint64_t)(v) >> 32), (ctx)
#define PFS 0xc000d000, 0x00000000

static long run(struct capture *c, const char *target, uint32_t flags, const uint32_t *dw, size_t n)
{
	KFDSIG_OPTS(kfdsig_decode_opts, o, .target = T(target), .engine = KFDSIG_ENGINE_PM4,
		    .flags = flags, .ring_pos = RING_POS);
	struct kfdsig_decode_sink s = cap_sink(c);

	cap_reset(c);
	return kfdsig_decode(&o, &s, dw, n, NULL);
}

#define USERQ (KFDSIG_DECODE_LINT | KFDSIG_DECODE_USERQ | KFDSIG_DECODE_RING_POS)

static void clean_submission(struct capture *c)
{
	const char *targets[] = { "gfx1100", "gfx1102", "gfx1151", "gfx1200", "gfx1201" };
	struct kfdsig_userq_fence_ref w[5];

	for (int i = 0; i < 5; i++) {
		w[i].va = 0x40000 + 8 * (uint64_t)i;
		w[i].value = 7 + (uint64_t)i;
	}
	for (size_t k = 0; k < sizeof(targets) / sizeof(targets[0]); k++) {
		KFDSIG_OPTS(kfdsig_userq_submit, s, .wptr = RING_POS, .fence_va = 0x7f0000002000ull,
			    .ib_va = 0x300000, .ib_dw = 16, .waits = w, .nwaits = 5);
		uint32_t buf[80];
		int n = kfdsig_userq_emit_submit(T(targets[k]), &s, buf, 80, NULL);
		long r;

		CHECK(n > 0, "%s: emit", targets[k]);
		if (n <= 0)
			continue;
		r = run(c, targets[k], USERQ, buf, (size_t)n);
		CHECK_EQ(r, 0, "%s: errors in the clean submission", targets[k]);
		/* gfx1151: the one warning that no kernel runs GFX user queues there */
		CHECK_EQ(c->nfinds, T(targets[k])->userq_mec_fw ? 0 : 1,
			 "%s: findings in the clean submission", targets[k]);
		CHECK_EQ(cap_count(c, "userq-target", -1), T(targets[k])->userq_mec_fw ? 0 : 1,
			 "%s: userq-target", targets[k]);
		if (c->nfinds > 1)
			cap_dump(c);
		/* the names, last five: HDP_FLUSH, INDIRECT_BUFFER, RELEASE_MEM, PFS */
		CHECK(c->npkts >= 5, "%s: %zu packets", targets[k], c->npkts);
		if (c->npkts < 5)
			continue;
		CHECK(!strcmp(c->pkts[0].p.name, "FENCE_WAIT_MULTI"), "%s: %s", targets[k],
		      c->pkts[0].p.name);
		CHECK_EQ(cap_field(c, 0, "engine_sel"), 1, "engine_sel");
		CHECK_EQ(cap_field(c, 0, "preemptable"), 1, "preemptable");
		CHECK_EQ(cap_field(c, 0, "poll_interval"), 4, "poll_interval");
		CHECK_EQ(cap_field(c, 0, "addr_lo"), 0x40000, "first wait address");
		CHECK_EQ(cap_field(c, 0, "value_lo"), 7, "first wait value");
		CHECK(!strcmp(c->pkts[c->npkts - 4].p.name, "HDP_FLUSH"), "%s: %s", targets[k],
		      c->pkts[c->npkts - 4].p.name);
		CHECK(!strcmp(c->pkts[c->npkts - 3].p.name, "INDIRECT_BUFFER"), "IB");
		CHECK(!strcmp(c->pkts[c->npkts - 2].p.name, "RELEASE_MEM"), "RELEASE_MEM");
		CHECK_EQ(cap_field(c, c->npkts - 2, "int_sel"), 0, "trailer INT_SEL");
		CHECK_EQ(cap_field(c, c->npkts - 2, "data_sel"), 2, "trailer DATA_SEL");
		CHECK_EQ(cap_field(c, c->npkts - 2, "data_lo"), RING_POS + (uint64_t)n,
			 "trailer value");
		CHECK(!strcmp(c->pkts[c->npkts - 1].p.name, "PROTECTED_FENCE_SIGNAL"), "%s: %s",
		      targets[k], c->pkts[c->npkts - 1].p.name);
	}
}

static void broken_variants(struct capture *c)
{
	/* the trailer at ring position RING_POS: 10 dwords, value 0x100a */
	const uint32_t good[] = { RM(RING_POS + 10, 0, 0), PFS };
	const uint32_t wrong_value[] = { RM(RING_POS + 8, 0, 0), PFS };
	const uint32_t interrupting[] = { RM(RING_POS + 10, 2, 7), PFS };
	/* FENCE_WAIT_MULTI: 5 entries (22 dwords) and 4 (18) */
	uint32_t fwm5[22] = { 0xc014d100, 0x00040003 }, fwm4[18] = { 0xc010d100, 0x00040003 };
	uint32_t fwm33[134] = { 0xc084d100, 0x00040003 }, fwm32[130] = { 0xc080d100, 0x00040003 };
	/* 3 dwords left over after the control dword: a count of 2 */
	const uint32_t fwm_odd[] = { 0xc002d100, 0x00040003, 0x1000, 0 };

	for (int i = 0; i < 5; i++) {
		fwm5[2 + 4 * i] = fwm4[2 + 4 * (i % 4)] = 0x1000 + 8 * (uint32_t)i;
		fwm5[4 + 4 * i] = fwm4[4 + 4 * (i % 4)] = 1;
	}
	for (int i = 0; i < 33; i++) {
		fwm33[2 + 4 * i] = 0x1000 + 8 * (uint32_t)i;
		if (i < 32)
			fwm32[2 + 4 * i] = 0x1000 + 8 * (uint32_t)i;
	}

	CHECK_EQ(run(c, "gfx1100", USERQ, good, 10), 0, "good trailer");
	CHECK_EQ(c->nfinds, 0, "good trailer: no findings");

	CHECK(run(c, "gfx1100", USERQ, wrong_value, 10) > 0, "wrong value: an error");
	CHECK_EQ(cap_count(c, "userq-trailer-value", KFDSIG_SEV_ERROR), 1, "userq-trailer-value");
	CHECK(c->nfinds && strstr(c->finds[0].msg, "4106") != NULL, "names the position: %s",
	      c->nfinds ? c->finds[0].msg : "");
	/* without the ring position the value cannot be checked */
	CHECK_EQ(run(c, "gfx1100", USERQ & ~KFDSIG_DECODE_RING_POS, wrong_value, 10), 0,
		 "no ring position: no verdict");
	/* a ring position that does make it right */
	{
		KFDSIG_OPTS(kfdsig_decode_opts, o, .target = T("gfx1100"), .flags = USERQ,
			    .ring_pos = RING_POS - 2);
		struct kfdsig_decode_sink s = cap_sink(c);

		cap_reset(c);
		CHECK_EQ(kfdsig_decode(&o, &s, wrong_value, 10, NULL), 0, "ring_pos - 2");
	}

	CHECK(run(c, "gfx1200", USERQ, interrupting, 10) > 0, "interrupting trailer");
	CHECK_EQ(cap_count(c, "userq-interrupt", KFDSIG_SEV_ERROR), 1, "userq-interrupt");
	CHECK_EQ(c->nfinds, 1, "only userq-interrupt (no KFD rules on a userq ring)");
	if (c->nfinds != 1)
		cap_dump(c);
	/* a KFD fence (the clean one of kfdsig_pm4_emit_fence()) on a userq ring */
	{
		struct kfdsig_fence f = { .slot_va = 0x10000 + 8 * 5, .event_id = 5 };
		uint32_t buf[3 * KFDSIG_PM4_FENCE_MAX_DW];
		int n = kfdsig_pm4_emit_fence(T("gfx1100"), &f, buf, KFDSIG_PM4_FENCE_MAX_DW);

		CHECK(run(c, "gfx1100", USERQ, buf, (size_t)n) > 0, "KFD fence on a userq ring");
		CHECK_EQ(cap_count(c, "userq-interrupt", KFDSIG_SEV_ERROR), 1,
			 "KFD fence: userq-interrupt");
		/* three in a row: the decoder knows the header after the first
		 * (its clean-fence shortcut must not take them) */
		memcpy(buf + n, buf, (size_t)n * 4);
		memcpy(buf + 2 * n, buf, (size_t)n * 4);
		CHECK(run(c, "gfx1100", USERQ, buf, 3 * (size_t)n) > 0, "three KFD fences");
		CHECK_EQ(cap_count(c, "userq-interrupt", KFDSIG_SEV_ERROR), 3,
			 "three KFD fences: three userq-interrupt");
		/* the same on a KFD queue: clean */
		CHECK_EQ(run(c, "gfx1100", KFDSIG_DECODE_LINT, buf, (size_t)n), 0,
			 "KFD fence on a KFD queue");
		CHECK_EQ(c->nfinds, 0, "KFD fence on a KFD queue: no findings");
	}
	/* on a KFD queue the trailer is a polling fence, no userq rule */
	CHECK_EQ(run(c, "gfx1100", KFDSIG_DECODE_LINT, interrupting, 10) >= 0, 1, "kfd mode");
	CHECK_EQ(cap_count(c, "userq-interrupt", -1), 0, "no userq rule without the flag");

	CHECK(run(c, "gfx1151", USERQ, fwm5, 22) > 0, "5 entries on the APU");
	CHECK_EQ(cap_count(c, "userq-fwm-entries", KFDSIG_SEV_ERROR), 1, "APU fwm 5");
	CHECK_EQ(run(c, "gfx1151", USERQ, fwm4, 18), 0, "4 entries on the APU");
	CHECK_EQ(cap_count(c, "userq-fwm-entries", -1), 0, "APU fwm 4 clean");
	CHECK(run(c, "gfx1100", USERQ, fwm33, 134) > 0, "33 entries on gfx1100");
	CHECK_EQ(cap_count(c, "userq-fwm-entries", KFDSIG_SEV_ERROR), 1, "dGPU fwm 33");
	CHECK_EQ(run(c, "gfx1100", USERQ, fwm32, 130), 0, "32 entries on gfx1100");
	CHECK_EQ(run(c, "gfx1100", USERQ, fwm5, 22), 0, "5 entries on gfx1100");
	run(c, "gfx1100", USERQ, fwm_odd, 4);
	CHECK_EQ(cap_count(c, "userq-fwm-entries", KFDSIG_SEV_ERROR), 1, "left-over dwords");
	/* the rule holds without USERQ too: the packet's own limit */
	CHECK(run(c, "gfx1151", KFDSIG_DECODE_LINT, fwm5, 22) > 0, "fwm limit, kfd mode");

	/* PROTECTED_FENCE_SIGNAL and HDP_FLUSH have one payload dword */
	{
		const uint32_t long_pfs[] = { 0xc001d000, 0, 0 }, long_hdp[] = { 0xc0019500, 0, 0 };

		run(c, "gfx1100", USERQ, long_pfs, 3);
		CHECK_EQ(cap_count(c, "count-mismatch", KFDSIG_SEV_WARNING), 1, "long PFS");
		run(c, "gfx1100", USERQ, long_hdp, 3);
		CHECK_EQ(cap_count(c, "count-mismatch", KFDSIG_SEV_WARNING), 1, "long HDP_FLUSH");
	}

	/* targets */
	CHECK(run(c, "gfx1030", 0, good, 10) > 0, "PFS on gfx1030 (decode alone)");
	CHECK_EQ(cap_count(c, "userq-target", KFDSIG_SEV_ERROR), 1, "gfx1030 userq-target");
	CHECK(run(c, "gfx1250", USERQ, fwm4, 18) > 0, "FWM on gfx1250");
	CHECK_EQ(cap_count(c, "userq-target", KFDSIG_SEV_ERROR), 1, "gfx1250 userq-target");
	CHECK_EQ(run(c, "gfx1103", USERQ, good, 10), 0, "PFS on gfx1103: a warning");
	CHECK_EQ(cap_count(c, "userq-target", KFDSIG_SEV_WARNING), 1, "gfx1103 userq-target");
	CHECK_EQ(run(c, "gfx1201", USERQ, good, 10), 0, "PFS on gfx1201");
	CHECK_EQ(cap_count(c, "userq-target", -1), 0, "gfx1201: no userq-target");
	/* the MEC firmware gate: 2600 on GC 11.0.x, 3050 on GC 12.0.x */
	{
		static const struct {
			const char *t;
			uint32_t fw;
			size_t want;
		} fw[] = { { "gfx1100", 2599, 1 }, { "gfx1100", 2600, 0 }, { "gfx1101", 1, 1 },
			   { "gfx1201", 3049, 1 }, { "gfx1201", 3050, 0 }, { "gfx1200", 0, 0 } };

		for (size_t i = 0; i < sizeof(fw) / sizeof(fw[0]); i++) {
			KFDSIG_OPTS(kfdsig_decode_opts, o, .target = T(fw[i].t), .flags = USERQ,
				    .ring_pos = RING_POS, .mec_fw = fw[i].fw);
			struct kfdsig_decode_sink s = cap_sink(c);

			cap_reset(c);
			CHECK_EQ(kfdsig_decode(&o, &s, good, 10, NULL), 0, "%s MEC %u", fw[i].t,
				 fw[i].fw);
			CHECK_EQ(cap_count(c, "userq-firmware", KFDSIG_SEV_WARNING), fw[i].want,
				 "%s MEC %u: userq-firmware", fw[i].t, fw[i].fw);
		}
	}
}

/* The trailer split over pieces of one dword: the same verdict. */
static void streaming(struct capture *c)
{
	const uint32_t wrong_value[] = { 0xc0009500, 0, RM(RING_POS + 8, 0, 0), PFS };
	KFDSIG_OPTS(kfdsig_decode_opts, o, .target = T("gfx1100"), .flags = USERQ,
		    .ring_pos = RING_POS - 2);
	struct kfdsig_decode_sink s = cap_sink(c);
	struct kfdsig_decoder *d;

	cap_reset(c);
	d = kfdsig_decoder_new(&o, &s);
	CHECK(d != NULL, "decoder_new");
	if (!d)
		return;
	for (size_t i = 0; i < 12; i++)
		kfdsig_decoder_feed(d, wrong_value + i, 1);
	/* position after the signal: RING_POS - 2 + 12 = RING_POS + 10 */
	CHECK(kfdsig_decoder_finish(d, NULL) > 0, "streamed: an error");
	CHECK_EQ(cap_count(c, "userq-trailer-value", KFDSIG_SEV_ERROR), 1, "streamed rule");
	kfdsig_decoder_free(d);
}

static void sdma_and_options(struct capture *c)
{
	const uint32_t pf = 0x00000305;
	KFDSIG_OPTS(kfdsig_decode_opts, o, .target = T("gfx1100"), .engine = KFDSIG_ENGINE_SDMA,
		    .flags = KFDSIG_DECODE_USERQ);
	struct kfdsig_decode_sink s = cap_sink(c);
	char line[512];

	CHECK_EQ(cap_decode(c, T("gfx1200"), KFDSIG_ENGINE_SDMA, 0, 0, &pf, 1), 0, "SDMA 7");
	CHECK(c->npkts == 1 && !strcmp(c->pkts[0].p.name, "PROTECTED_FENCE"), "SDMA name %s",
	      c->npkts ? c->pkts[0].p.name : "none");
	cap_decode(c, T("gfx1103"), KFDSIG_ENGINE_SDMA, 0, 0, &pf, 1);
	CHECK(c->npkts == 1 && strcmp(c->pkts[0].p.name, "PROTECTED_FENCE"),
	      "SDMA 6.0.1 has no protected fence");
	CHECK_EQ(kfdsig_decode(&o, &s, &pf, 1, NULL), -EINVAL, "USERQ on an SDMA decode");

	/* text and JSON name the packets */
	{
		const uint32_t t[] = { RM(RING_POS + 10, 0, 0), PFS };

		run(c, "gfx1100", USERQ, t, 10);
		CHECK(c->npkts == 2, "two packets");
		if (c->npkts == 2) {
			kfdsig_format_packet_text(&c->pkts[1].p, 0, line, sizeof(line));
			CHECK(strstr(line, "PROTECTED_FENCE_SIGNAL") != NULL, "text: %s", line);
			kfdsig_format_packet_json(&c->pkts[1].p, 0, line, sizeof(line));
			CHECK(strstr(line, "\"PROTECTED_FENCE_SIGNAL\"") != NULL, "json: %s", line);
		}
	}
}

int main(void)
{
	struct capture cap;

	cap_init(&cap);
	clean_submission(&cap);
	broken_variants(&cap);
	streaming(&cap);
	sdma_and_options(&cap);
	cap_free(&cap);
	return t_result("decode_userq_lint");
}
