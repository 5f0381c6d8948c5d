/* SPDX-License-Identifier: MIT */
/*
 * Lint rule xcc-duplicate-signal (docs/multi-xcc.md): on a multi-XCC node
 * every XCC runs the PM4 ring (kfd_mqd_manager_v9.c init_mqd_v9_4_3()), so
 * an interrupting RELEASE_MEM that no PRED_EXEC naming one XCC covers is a
 * warning; the node's XCC count comes from kfdsig_decode_opts.num_xcc or the
 * target's max_xcc. Streams written by hand: PRED_EXEC = 0xc0002300,
 * mask << 24 | count (soc15d.h, tinygrad ops_amd.py pred_exec()).
 */
#include "decode_capture.h"

#define PAGE 0x100000000ull
#define SLOT (PAGE + 8 * 42)
#define RULE "xcc-duplicate-signal"

static struct capture cap;

static size_t dup(const char *target, uint32_t num_xcc, const uint32_t *dw, size_t n)
{
	KFDSIG_OPTS(kfdsig_decode_opts, o, .engine = KFDSIG_ENGINE_PM4, .target = T(target),
		    .num_xcc = num_xcc);
	struct kfdsig_decode_sink s = cap_sink(&cap);

	cap_reset(&cap);
	CHECK_EQ(kfdsig_lint(&o, &s, dw, n, NULL), 0, "%s: no error-level finding", target);
	return cap_count(&cap, RULE, KFDSIG_SEV_WARNING);
}

/* gfx9 RELEASE_MEM, 8 dwords: interrupt after write confirm, 64-bit 1. */
static uint32_t *rm(uint32_t *p)
{
	static const uint32_t f[8] = { 0xc0064900,
				       0x00238514,
				       2u << 24 | 2u << 29,
				       (uint32_t)SLOT,
				       (uint32_t)(SLOT >> 32),
				       1,
				       0,
				       42 };

	memcpy(p, f, sizeof(f));
	return p + 8;
}

static uint32_t *pred(uint32_t *p, uint32_t mask, uint32_t count)
{
	p[0] = 0xc0002300u;
	p[1] = mask << 24 | count;
	return p + 2;
}

int main(void)
{
	uint32_t s[64], *e;

	cap_init(&cap);
	e = rm(s);
	CHECK_EQ(dup("gfx942", 0, s, 8), 1, "gfx942: a bare fence (8 XCCs by default)");
	CHECK_EQ(dup("gfx950", 0, s, 8), 1, "gfx950 too");
	CHECK_EQ(dup("gfx942", 1, s, 8), 0, "a one-XCC (CPX) node: fine");
	CHECK_EQ(dup("gfx90a", 0, s, 8), 0, "gfx90a: one XCC per node");
	CHECK(cap_count(&cap, RULE, -1) == 0, "nothing at all on gfx90a");

	e = rm(pred(s, 1, 8));
	CHECK_EQ(dup("gfx942", 0, s, (size_t)(e - s)), 0, "PRED_EXEC(XCC 0, 8) covers it");
	e = rm(pred(s, 0x40, 8));
	CHECK_EQ(dup("gfx942", 0, s, (size_t)(e - s)), 0, "any one XCC");
	e = rm(pred(s, 3, 8));
	CHECK_EQ(dup("gfx942", 0, s, (size_t)(e - s)), 1, "two XCCs: signalled twice");
	e = rm(pred(s, 1, 4));
	CHECK_EQ(dup("gfx942", 0, s, (size_t)(e - s)), 1, "the predicate ends inside the fence");
	e = rm(rm(pred(s, 1, 8)));
	CHECK_EQ(dup("gfx942", 0, s, (size_t)(e - s)), 1, "the second fence is outside");
	/* the same headers again and again: the decoder's cached walk */
	e = rm(rm(rm(rm(s))));
	CHECK_EQ(dup("gfx942", 0, s, (size_t)(e - s)), 4, "each of four bare fences");
	e = rm(pred(rm(pred(rm(pred(s, 1, 8)), 1, 8)), 1, 8));
	CHECK_EQ(dup("gfx942", 0, s, (size_t)(e - s)), 0, "three predicated fences");
	{
		KFDSIG_OPTS(kfdsig_decode_opts, o, .engine = KFDSIG_ENGINE_PM4,
			    .target = T("gfx942"), .pad_0 = 1);
		struct kfdsig_decode_sink sk = cap_sink(&cap);

		CHECK_EQ(kfdsig_lint(&o, &sk, s, 8, NULL), -EINVAL, "pad_0 must be 0");
	}
	return t_result("decode_xcc_lint");
}
