/* SPDX-License-Identifier: MIT */
/* Text and JSON renderings: exact strings, written out by hand, and the
 * snprintf() contract (length returned, truncation, NUL). */
#include "decode_capture.h"

static struct capture cap;

static void expect_str(const char *what, const char *got, const char *want)
{
	CHECK(!strcmp(got, want), "%s:\n got: %s\nwant: %s", what, got, want);
}

/* The cached formatters write exactly what the plain ones do, first time
 * (a miss) and every time after (hits), for every packet kind. */
struct cmp {
	struct kfdsig_format_cache *c;
	unsigned long packets, diffs;
};

static int cmp_packet(void *ctx, const struct kfdsig_packet *p)
{
	struct cmp *k = ctx;
	static char a[8192], b[8192];

	for (uint32_t flags = 0; flags <= KFDSIG_FORMAT_RAW; flags += KFDSIG_FORMAT_RAW) {
		int na = kfdsig_format_packet_text(p, flags, a, sizeof(a));
		int nb = kfdsig_format_packet_text_cached(k->c, p, flags, b, sizeof(b));

		k->diffs += na != nb || strcmp(a, b);
		na = kfdsig_format_packet_json(p, flags, a, sizeof(a));
		nb = kfdsig_format_packet_json_cached(k->c, p, flags, b, sizeof(b));
		k->diffs += na != nb || strcmp(a, b);
		/* Truncation behaves the same. */
		na = kfdsig_format_packet_text(p, flags, a, 37);
		nb = kfdsig_format_packet_text_cached(k->c, p, flags, b, 37);
		k->diffs += na != nb || strcmp(a, b);
	}
	k->packets++;
	return 0;
}

static void test_cache(void)
{
	static const char *const targets[] = { "gfx803", "gfx90a", "gfx1030", "gfx1100",
					       "gfx1201" };
	struct cmp k = { kfdsig_format_cache_new(), 0, 0 };
	uint32_t s[4096];
	uint32_t r = 7;

	CHECK(k.c != NULL, "cache");
	if (!k.c)
		return;
	for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
		for (int e = 0; e < 2; e++) {
			KFDSIG_OPTS(kfdsig_decode_opts, o);
			KFDSIG_OPTS(kfdsig_decode_sink, sink, .ctx = &k, .packet = cmp_packet,
				    .finding = NULL);
			size_t n = 0;

			o.engine = (enum kfdsig_engine)e;
			o.target = T(targets[t]);
			/* Fences with varying ids, fillers, and random dwords. */
			while (n + 64 < sizeof(s) / sizeof(s[0])) {
				struct kfdsig_fence f = { 0 };
				int m;

				r = r * 1103515245u + 12345u;
				f.event_id = 1 + (r >> 8) % 4095;
				f.slot_va = 0x100000000ull + 8ull * f.event_id;
				m = e ? kfdsig_sdma_emit_fence(o.target, &f, s + n, 32)
				      : kfdsig_pm4_emit_fence(o.target, &f, s + n, 32);
				n += m > 0 ? (size_t)m : 0;
				s[n++] = e ? 0 : 0xffff1000;
				if ((r >> 4) % 7 == 0)
					s[n++] = r;
			}
			for (int rep = 0; rep < 2; rep++)
				kfdsig_decode(&o, &sink, s, n, NULL);
		}
	}
	CHECK(k.packets > 1000, "%lu packets compared", k.packets);
	CHECK_EQ(k.diffs, 0, "cached and plain renderings differ");
	kfdsig_format_cache_free(k.c);
	kfdsig_format_cache_free(NULL);
}

int main(void)
{
	const uint32_t sdma[] = { 0x00000006, 0x0000002a };
	const uint32_t pm4[] = { 0xc0017700, 1, 2, 0xc0064900, 0x00238514 };
	char buf[1024];
	int n;

	cap_init(&cap);
	cap_decode(&cap, T("gfx1100"), KFDSIG_ENGINE_SDMA, 0, 0, sdma, 2);
	cap.pkts[0].p.offset = 8;
	n = kfdsig_format_packet_text(&cap.pkts[0].p, 0, buf, sizeof(buf));
	expect_str("TRAP text", buf,
		   "dw 0x000008 (byte 0x000020): TRAP (2 dw) int_context=0x2a reserved=0\n");
	CHECK_EQ(n, strlen(buf), "text length");
	kfdsig_format_packet_text(&cap.pkts[0].p, KFDSIG_FORMAT_RAW, buf, sizeof(buf));
	expect_str("TRAP text raw", buf,
		   "dw 0x000008 (byte 0x000020): TRAP (2 dw) int_context=0x2a reserved=0\n"
		   "        raw: 0x00000006 0x0000002a\n");
	kfdsig_format_packet_json(&cap.pkts[0].p, 0, buf, sizeof(buf));
	expect_str("TRAP json", buf,
		   "{\"offset\": 8, \"byte_offset\": 32, \"engine\": \"sdma\", \"name\": \"TRAP\", "
		   "\"opcode\": 6, "
		   "\"sub_op\": 0, \"dwords\": 2, \"avail\": 2, \"unknown\": false, "
		   "\"truncated\": false, \"partial\": false, \"fields\": {\"op\": 6, "
		   "\"sub_op\": 0, \"int_context\": 42, \"reserved\": 0}}\n");
	kfdsig_format_packet_json(&cap.pkts[0].p, KFDSIG_FORMAT_RAW, buf, sizeof(buf));
	CHECK(strstr(buf, "\"reserved\": 0}, \"raw\": [6, 42]}\n") != NULL, "json raw: %s", buf);

	/* snprintf contract. */
	n = kfdsig_format_packet_text(&cap.pkts[0].p, 0, buf, 10);
	CHECK_EQ(n,
		 strlen("dw 0x000008 (byte 0x000020): TRAP (2 dw) int_context=0x2a reserved=0\n"),
		 "full length");
	expect_str("truncated text", buf, "dw 0x0000");
	CHECK_EQ(kfdsig_format_packet_text(&cap.pkts[0].p, 0, NULL, 0), n, "NULL buffer");
	CHECK_EQ(kfdsig_format_packet_json(NULL, 0, buf, sizeof(buf)), 0, "NULL packet");

	/* Unknown and truncated PM4 packets. */
	cap_decode(&cap, T("gfx90a"), KFDSIG_ENGINE_PM4, 0, 0, pm4, 5);
	kfdsig_format_packet_text(&cap.pkts[0].p, 0, buf, sizeof(buf));
	expect_str("unknown text", buf,
		   "dw 0x000000 (byte 0x000000): UNKNOWN type=3 opcode=0x77 (3 dw)\n");
	kfdsig_format_packet_text(&cap.pkts[1].p, 0, buf, sizeof(buf));
	expect_str("truncated text", buf,
		   "dw 0x000003 (byte 0x00000c): RELEASE_MEM (8 dw) TRUNCATED: 2 of 8 dw "
		   "predicate=0 shader_type=0 "
		   "event_type=0x14(CACHE_FLUSH_AND_INV_TS) event_index=5(end_of_pipe) "
		   "tcl1_vol_action_ena=0 tc_vol_action_ena=0 tc_wb_action_ena=1 "
		   "tcl1_action_ena=1 tc_action_ena=1 tc_nc_action_ena=0 tc_wc_action_ena=0 "
		   "tc_md_action_ena=1 cache_policy=0 execute=0\n");
	kfdsig_format_packet_json(&cap.pkts[1].p, 0, buf, sizeof(buf));
	CHECK(strstr(buf, "\"dwords\": 8, \"avail\": 2, \"unknown\": false, \"truncated\": true") !=
		      NULL,
	      "json truncated: %s", buf);
	CHECK(strstr(buf, "\"address_lo\"") == NULL, "absent fields left out");

	/* Payload dwords after the described fields. */
	{
		const uint32_t wd[] = { 0xc0033700, 0x00100500, 0x1000, 0, 0x2a };
		uint32_t big[40] = { 0xc0267600, 0x204 };

		cap_decode(&cap, T("gfx90a"), KFDSIG_ENGINE_PM4, 0, 0, wd, 5);
		kfdsig_format_packet_text(&cap.pkts[0].p, 0, buf, sizeof(buf));
		expect_str("WRITE_DATA text", buf,
			   "dw 0x000000 (byte 0x000000): WRITE_DATA (5 dw) predicate=0 "
			   "shader_type=0 dst_sel=5(memory) "
			   "wr_one_addr=0 wr_confirm=1 cache_policy=0 engine_sel=0(me) "
			   "dst_addr_lo=0x1000 dst_addr_hi=0x0 data=0x2a\n");
		kfdsig_format_packet_json(&cap.pkts[0].p, 0, buf, sizeof(buf));
		CHECK(strstr(buf, "\"dst_addr_hi\": 0}, \"data\": [42]}\n") != NULL,
		      "json data: %s", buf);
		for (uint32_t i = 2; i < 40; i++)
			big[i] = i;
		cap_decode(&cap, T("gfx90a"), KFDSIG_ENGINE_PM4, 0, 0, big, 40);
		kfdsig_format_packet_text(&cap.pkts[0].p, 0, buf, sizeof(buf));
		expect_str("SET_SH_REG text", buf,
			   "dw 0x000000 (byte 0x000000): SET_SH_REG (40 dw) predicate=0 "
			   "shader_type=0 reg_offset=0x204(COMPUTE_START_X) "
			   "data=0x2,0x3,0x4,0x5,0x6,0x7,0x8,0x9,0xa,0xb,0xc,0xd,0xe,0xf,0x10,0x11,"
			   "...(+22)\n");
	}

	/* Findings. */
	{
		struct kfdsig_finding f = { 3, KFDSIG_SEV_ERROR, "truncated", "say \"hi\"\\\n" };

		kfdsig_format_finding_text(&f, buf, sizeof(buf));
		expect_str("finding text", buf,
			   "dw 0x000003 (byte 0x00000c): error[truncated]: say \"hi\"\\\n\n");
		kfdsig_format_finding_json(&f, buf, sizeof(buf));
		expect_str("finding json", buf,
			   "{\"offset\": 3, \"byte_offset\": 12, \"finding\": \"truncated\", "
			   "\"severity\": \"error\", "
			   "\"message\": \"say \\\"hi\\\"\\\\\\u000a\"}\n");
	}
	test_cache();
	cap_free(&cap);
	return t_result("decode_format");
}
