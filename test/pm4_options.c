/* SPDX-License-Identifier: MIT */
/*
 * PM4 emitter options: every option gives the hand-derived dwords (vid.h,
 * soc15d.h, nvd.h, kfd_pm4_headers_vi.h / _ai.h), on one target of each fence form; and the size query always
 * agrees with what is written, for every target and option.
 */
#include <string.h>

#include "helpers.h"

#define PAGE 0x0000001000000000ull /* below 2^40: gfx8 reaches it too */
#define EID 9u
#define SLOT (PAGE + 8 * EID) /* 0x1000000048 */
#define LO 0x00000048u
#define HI 0x00000010u

struct vec {
	const char *what;
	const char *target;
	struct kfdsig_fence f;
	int ndw;
	uint32_t dw[KFDSIG_PM4_FENCE_MAX_DW];
};

#define F(...)                                                \
	{                                                     \
		.slot_va = SLOT, .event_id = EID, __VA_ARGS__ \
	}

static const struct vec vecs[] = {
	/* gfx9 form (gfx90a). DATA_SEL(1)|INT_SEL(2) = 0x22000000. */
	{ "gfx90a 32-bit",
	  "gfx90a",
	  F(.flags = KFDSIG_FENCE_32BIT),
	  8,
	  { 0xc0064900, 0x00238514, 0x22000000, LO, HI, 1, 0, EID } },
	{ "gfx90a value",
	  "gfx90a",
	  F(.flags = KFDSIG_FENCE_VALUE, .value = 0x123456789abcull),
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, LO, HI, 0x56789abc, 0x1234, EID } },
	/* Writeback only: gfx_v9_0_ring_emit_fence's writeback form TC_WB|TC_NC. */
	{ "gfx90a cache wb",
	  "gfx90a",
	  F(.cache = KFDSIG_CACHE_WB),
	  8,
	  { 0xc0064900, 0x00088514, 0x42000000, LO, HI, 1, 0, EID } },
	/* No cache action: BOTTOM_OF_PIPE_TS (0x28), index 5. */
	{ "gfx90a cache none",
	  "gfx90a",
	  F(.cache = KFDSIG_CACHE_NONE),
	  8,
	  { 0xc0064900, 0x00000528, 0x42000000, LO, HI, 1, 0, EID } },
	/* Interrupt only: DATA_SEL(0)|INT_SEL(1), no address, INT_CTXID kept. */
	{ "gfx90a int-only",
	  "gfx90a",
	  F(.flags = KFDSIG_FENCE_INT_ONLY),
	  8,
	  { 0xc0064900, 0x00238514, 0x01000000, 0, 0, 0, 0, EID } },
	/* WRITE_DATA: PACKET3(0x37, 4), DST_SEL(5)|WR_CONFIRM, addr, data; then
	 * the interrupt-only RELEASE_MEM. */
	{ "gfx90a write-data",
	  "gfx90a",
	  F(.form = KFDSIG_PM4_WRITE_DATA_INT),
	  14,
	  { 0xc0043700, 0x00100500, LO, HI, 1, 0, 0xc0064900, 0x00238514, 0x01000000, 0, 0, 0, 0,
	    EID } },
	{ "gfx90a write-data 32",
	  "gfx90a",
	  F(.form = KFDSIG_PM4_WRITE_DATA_INT, .flags = KFDSIG_FENCE_32BIT),
	  13,
	  { 0xc0033700, 0x00100500, LO, HI, 1, 0xc0064900, 0x00238514, 0x01000000, 0, 0, 0, 0,
	    EID } },
	{ "gfx90a ctxid = id",
	  "gfx90a",
	  F(.flags = KFDSIG_FENCE_CTXID, .ctxid = EID),
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, LO, HI, 1, 0, EID } },
	/* Deliberately bad: context id 0, which the v9 ISR drops on gfx90a. */
	{ "gfx90a bad ctxid 0",
	  "gfx90a",
	  F(.flags = KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD, .ctxid = 0),
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, LO, HI, 1, 0, 0 } },
	/* Deliberately bad: event id 0 and an unaligned slot. */
	{ "gfx90a bad id 0",
	  "gfx90a",
	  { .slot_va = PAGE + 4, .event_id = 0, .flags = KFDSIG_FENCE_DELIBERATELY_BAD },
	  8,
	  { 0xc0064900, 0x00238514, 0x42000000, 4, HI, 1, 0, 0 } },

	/* gfx10-12 form (gfx1100). wb: SEQ|GL2_WB|GLM_WB|CACHE_POLICY(3). */
	{ "gfx1100 cache wb",
	  "gfx1100",
	  F(.cache = KFDSIG_CACHE_WB),
	  8,
	  { 0xc0064900, 0x06601514, 0x42000000, LO, HI, 1, 0, EID } },
	{ "gfx1100 cache none",
	  "gfx1100",
	  F(.cache = KFDSIG_CACHE_NONE),
	  8,
	  { 0xc0064900, 0x06000528, 0x42000000, LO, HI, 1, 0, EID } },
	/* Bit 24 of INT_CTXID (the MES queue flag the v11 ISR drops). */
	{ "gfx1100 bad bit 24",
	  "gfx1100",
	  F(.flags = KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD, .ctxid = EID | 1u << 24),
	  8,
	  { 0xc0064900, 0x0671f514, 0x42000000, LO, HI, 1, 0, 0x01000009 } },

	/* gfx8 form (gfx803): 7 dwords, value defaults to the event id. */
	{ "gfx803 value 1",
	  "gfx803",
	  F(.flags = KFDSIG_FENCE_VALUE, .value = 1),
	  7,
	  { 0xc0054900, 0x00038514, 0x42000000, LO, HI, 1, 0 } },
	{ "gfx803 32-bit",
	  "gfx803",
	  F(.flags = KFDSIG_FENCE_32BIT),
	  7,
	  { 0xc0054900, 0x00038514, 0x22000000, LO, HI, EID, 0 } },
	{ "gfx803 cache wb",
	  "gfx803",
	  F(.cache = KFDSIG_CACHE_WB),
	  7,
	  { 0xc0054900, 0x00008514, 0x42000000, LO, HI, EID, 0 } },
	{ "gfx803 cache none",
	  "gfx803",
	  F(.cache = KFDSIG_CACHE_NONE),
	  7,
	  { 0xc0054900, 0x00000528, 0x42000000, LO, HI, EID, 0 } },
	{ "gfx803 int-only",
	  "gfx803",
	  F(.flags = KFDSIG_FENCE_INT_ONLY),
	  7,
	  { 0xc0054900, 0x00038514, 0x01000000, 0, 0, 0, 0 } },
	/* EVENT_WRITE_EOP (gfx_v8_0_ring_emit_fence_gfx): PACKET3(0x47, 4),
	 * addr_hi[15:0] | INT_SEL(2) | DATA_SEL(2) in dword 3. */
	{ "gfx803 event-write-eop",
	  "gfx803",
	  F(.form = KFDSIG_PM4_EVENT_WRITE_EOP),
	  6,
	  { 0xc0044700, 0x00038514, LO, 0x42000000 | HI, EID, 0 } },
	{ "gfx803 event-write-eop int-only",
	  "gfx803",
	  F(.form = KFDSIG_PM4_EVENT_WRITE_EOP, .flags = KFDSIG_FENCE_INT_ONLY),
	  6,
	  { 0xc0044700, 0x00038514, 0, 0x01000000, 0, 0 } },
	{ "gfx803 write-data",
	  "gfx803",
	  F(.form = KFDSIG_PM4_WRITE_DATA_INT),
	  13,
	  { 0xc0043700, 0x00100500, LO, HI, EID, 0, 0xc0054900, 0x00038514, 0x01000000, 0, 0, 0,
	    0 } },
};

static void check_vectors(void)
{
	for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		const struct vec *v = &vecs[i];
		const struct kfdsig_target *t = kfdsig_target_by_name(v->target);
		uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];
		int n = kfdsig_pm4_emit_fence(t, &v->f, buf, KFDSIG_PM4_FENCE_MAX_DW);

		CHECK_EQ(n, v->ndw, "%s: %s", v->what, n < 0 ? kfdsig_last_error() : "");
		if (n == v->ndw)
			t_check_dwords(v->what, buf, v->dw, (size_t)n);
	}
}

/* Sum of packet lengths from the headers equals the sequence length. */
static int walk_headers(const uint32_t *dw, int n)
{
	int pos = 0;

	while (pos < n) {
		if ((dw[pos] >> 30) != 3)
			return -1;
		pos += (int)((dw[pos] >> 16) & 0x3fff) + 2;
	}
	return pos;
}

static void check_matrix(void)
{
	static const uint32_t flag_sets[] = {
		0,
		KFDSIG_FENCE_32BIT,
		KFDSIG_FENCE_VALUE,
		KFDSIG_FENCE_INT_ONLY,
		KFDSIG_FENCE_32BIT | KFDSIG_FENCE_VALUE,
		KFDSIG_FENCE_INT_ONLY | KFDSIG_FENCE_VALUE,
	};

	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);

		for (unsigned form = 0; form < 3; form++)
			for (unsigned cache = 0; cache < 3; cache++)
				for (size_t k = 0; k < sizeof(flag_sets) / sizeof(flag_sets[0]);
				     k++) {
					struct kfdsig_fence f = F(.flags = flag_sets[k], .value = 7,
								  .cache = cache, .form = form);
					uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];
					int want = kfdsig_pm4_fence_dw(t, &f);
					int n = kfdsig_pm4_emit_fence(t, &f, buf,
								      KFDSIG_PM4_FENCE_MAX_DW);

					CHECK_EQ(n, want, "%s form %u cache %u flags 0x%x", t->name,
						 form, cache, f.flags);
					if (n > 0)
						CHECK_EQ(walk_headers(buf, n), n,
							 "%s form %u: packet lengths", t->name,
							 form);
					/* Only gfx8 has EVENT_WRITE_EOP; int-only
					 * WRITE_DATA is a contradiction. */
					if (form == KFDSIG_PM4_EVENT_WRITE_EOP &&
					    t->level != KFDSIG_GFX8)
						CHECK(n == -EINVAL, "%s: EOP accepted", t->name);
					else if (form == KFDSIG_PM4_WRITE_DATA_INT &&
						 (f.flags & KFDSIG_FENCE_INT_ONLY))
						CHECK(n == -EINVAL, "%s: int-only WRITE_DATA",
						      t->name);
					else if ((f.flags & KFDSIG_FENCE_INT_ONLY) &&
						 (f.flags & ~KFDSIG_FENCE_INT_ONLY))
						CHECK(n == -EINVAL, "%s: int-only with value",
						      t->name);
					else
						CHECK(n > 0, "%s form %u flags 0x%x refused: %s",
						      t->name, form, f.flags, kfdsig_last_error());
				}
	}
}

int main(void)
{
	check_vectors();
	check_matrix();
	return t_result("pm4_options");
}
