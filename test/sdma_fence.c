/* SPDX-License-Identifier: MIT */
/*
 * SDMA fence-with-interrupt emitter: golden vectors for every target (one
 * per SDMA IP of the generation table), every option and every rejection.
 *
 * The golden dwords are written by hand from the kernel's
 * sdma_v*_ring_emit_fence sequences (sdma_v2_4.c .. sdma_v7_0.c) with the
 * TRAP context set to the event id:
 *   v2.4/v3.0/v4.0/v4.4.2: OP(FENCE) addr_lo addr_hi seq_lo,
 *                          OP(FENCE) (addr+4)_lo (addr+4)_hi seq_hi,
 *                          OP(TRAP) INT_CONTEXT
 *   v5.0/v5.2/v6.0/v7.0:   the same with the FENCE header
 *                          OP(FENCE) | MTYPE(3), to which kfdsig adds SYS
 *                          (bit 20) and SNP (bit 22) as kfdtest does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define EV 42u
#define PAGE 0x000000f000200000ull /* below 2^40: gfx8 reaches it */
#define SLOT (PAGE + 8 * EV)	   /* 0x000000f000200150 */
#define SLOT_LO 0x00200150u
#define SLOT_HI 0x000000f0u

/* Plain FENCE header: SDMA_PKT_HEADER_OP(SDMA_OP_FENCE). */
#define H_PLAIN 0x00000005u
/* SDMA 5+: OP(FENCE) | MTYPE(3) [0x00030005] | SYS [1<<20] | SNP [1<<22]. */
#define H_MTYPE 0x00530005u
#define H_TRAP 0x00000006u

/* Every target of the table with its SDMA IP and the FENCE header its
 * kernel file implies. */
static const struct {
	const char *target;
	const char *sdma; /* IP, for the message */
	uint32_t hdr;
} golden[] = {
	{ "gfx801", "3.0", H_PLAIN },
	{ "gfx802", "3.0", H_PLAIN },
	{ "gfx803", "3.0", H_PLAIN },
	{ "gfx900", "4.0.0", H_PLAIN },
	{ "gfx902", "4.1.0", H_PLAIN },
	{ "gfx904", "4.0.1", H_PLAIN },
	{ "gfx906", "4.2.0", H_PLAIN },
	{ "gfx908", "4.2.2", H_PLAIN },
	{ "gfx909", "4.1.1", H_PLAIN },
	{ "gfx90a", "4.4.0", H_PLAIN },
	{ "gfx90c", "4.1.2", H_PLAIN },
	{ "gfx940", "4.4.2", H_PLAIN },
	{ "gfx941", "4.4.2", H_PLAIN },
	{ "gfx942", "4.4.2", H_PLAIN },
	{ "gfx950", "4.4.5", H_PLAIN },
	{ "gfx1010", "5.0", H_MTYPE },
	{ "gfx1011", "5.0", H_MTYPE },
	{ "gfx1012", "5.0", H_MTYPE },
	{ "gfx1030", "5.2", H_MTYPE },
	{ "gfx1031", "5.2", H_MTYPE },
	{ "gfx1032", "5.2", H_MTYPE },
	{ "gfx1033", "5.2", H_MTYPE },
	{ "gfx1034", "5.2", H_MTYPE },
	{ "gfx1035", "5.2", H_MTYPE },
	{ "gfx1036", "5.2", H_MTYPE },
	{ "gfx1100", "6.0", H_MTYPE },
	{ "gfx1101", "6.0", H_MTYPE },
	{ "gfx1102", "6.0", H_MTYPE },
	{ "gfx1103", "6.0", H_MTYPE },
	{ "gfx1150", "6.1", H_MTYPE },
	{ "gfx1151", "6.1", H_MTYPE },
	/* GC 11.7: SDMA 6.4.0, sdma_v6_0.c (target_table.c [gc117]). */
	{ "gfx1170", "6.4", H_MTYPE },
	{ "gfx1171", "6.4", H_MTYPE },
	{ "gfx1200", "7.0", H_MTYPE },
	{ "gfx1201", "7.0", H_MTYPE },
	/* GC 12.1: sdma_v7_1.c, FENCE header of sdma_v7_1_0_pkt_open.h. */
	{ "gfx1250", "7.1", H_MTYPE },
};

static struct kfdsig_fence base(void)
{
	struct kfdsig_fence f = { 0 };

	f.slot_va = SLOT;
	f.event_id = EV;
	return f;
}

/* Emit and compare with @want; also check the size query agrees. */
static void expect(const char *what, const char *target, const struct kfdsig_fence *f,
		   const uint32_t *want, int nwant)
{
	uint32_t buf[KFDSIG_SDMA_FENCE_MAX_DW + 2];
	const struct kfdsig_target *t = t_target(target);
	int n;

	memset(buf, 0xa5, sizeof(buf));
	n = kfdsig_sdma_emit_fence(t, f, buf, KFDSIG_SDMA_FENCE_MAX_DW);
	CHECK(n == nwant, "%s on %s: %d dwords, expected %d (%s)", what, target, n, nwant,
	      kfdsig_last_error());
	if (n == nwant)
		t_check_dwords(what, buf, want, (size_t)n);
	CHECK_EQ(kfdsig_sdma_fence_dw(t, f), nwant, "%s on %s: size query", what, target);
	CHECK_EQ(buf[KFDSIG_SDMA_FENCE_MAX_DW], 0xa5a5a5a5u, "%s: wrote past the sequence", what);
}

static void reject(const char *what, const char *target, const struct kfdsig_fence *f, int err)
{
	uint32_t buf[KFDSIG_SDMA_FENCE_MAX_DW];
	int n;

	memset(buf, 0xa5, sizeof(buf));
	n = kfdsig_sdma_emit_fence(t_target(target), f, buf, KFDSIG_SDMA_FENCE_MAX_DW);
	CHECK(n == -err, "%s: returned %d, expected %d", what, n, -err);
	CHECK(*kfdsig_last_error() != '\0', "%s: no reason recorded", what);
	CHECK(kfdsig_sdma_fence_dw(t_target(target), f) == (err == ENOSPC ? 10 : -err),
	      "%s: size query disagrees", what);
	for (size_t i = 0; i < KFDSIG_SDMA_FENCE_MAX_DW; i++)
		CHECK_EQ(buf[i], 0xa5a5a5a5u, "%s: wrote dword %zu on error", what, i);
}

static void test_golden(void)
{
	size_t ntargets = kfdsig_target_count();

	CHECK_EQ(sizeof(golden) / sizeof(golden[0]), ntargets,
		 "every target of the table needs a golden vector");
	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		struct kfdsig_fence f = base();
		const uint32_t want[] = {
			golden[i].hdr, SLOT_LO, SLOT_HI, 1,	 golden[i].hdr,
			SLOT_LO + 4,   SLOT_HI, 0,	 H_TRAP, EV,
		};
		char what[64];

		snprintf(what, sizeof(what), "default %s (SDMA %s)", golden[i].target,
			 golden[i].sdma);
		expect(what, golden[i].target, &f, want, 10);
	}
}

static void test_options(void)
{
	static const char *const one_per_form[] = { "gfx803", "gfx942", "gfx1030", "gfx1201" };
	static const uint32_t hdr[] = { H_PLAIN, H_PLAIN, H_MTYPE, H_MTYPE };

	for (size_t i = 0; i < 4; i++) {
		const char *tn = one_per_form[i];
		struct kfdsig_fence f = base();
		uint32_t h = hdr[i];

		/* One FENCE: slot reads 0xffffffff_00000001. */
		f.flags = KFDSIG_FENCE_SDMA_ONE_FENCE;
		{
			const uint32_t want[] = { h, SLOT_LO, SLOT_HI, 1, H_TRAP, EV };
			expect("one fence", tn, &f, want, 6);
		}
		/* --32bit is the same thing on SDMA. */
		f.flags = KFDSIG_FENCE_32BIT;
		{
			const uint32_t want[] = { h, SLOT_LO, SLOT_HI, 1, H_TRAP, EV };
			expect("32bit", tn, &f, want, 6);
		}
		/* One FENCE only needs a 4-byte aligned address. */
		f.flags = KFDSIG_FENCE_SDMA_ONE_FENCE | KFDSIG_FENCE_VALUE;
		f.slot_va = SLOT + 4;
		f.value = 0xfffffffe;
		{
			const uint32_t want[] = { h, SLOT_LO + 4, SLOT_HI, 0xfffffffe, H_TRAP, EV };
			expect("one fence, 4-aligned, value", tn, &f, want, 6);
		}
		/* Any 64-bit value, split low then high. */
		f = base();
		f.flags = KFDSIG_FENCE_VALUE;
		f.value = 0x0000000123456789ull;
		{
			const uint32_t want[] = { h,	       SLOT_LO, SLOT_HI, 0x23456789, h,
						  SLOT_LO + 4, SLOT_HI, 0x1,	 H_TRAP,     EV };
			expect("value", tn, &f, want, 10);
		}
		/* A value whose high dword is all-ones is still signalled. */
		f.value = 0xffffffff00000000ull;
		{
			const uint32_t want[] = { h,	       SLOT_LO, SLOT_HI,    0,	    h,
						  SLOT_LO + 4, SLOT_HI, 0xffffffff, H_TRAP, EV };
			expect("value high all-ones", tn, &f, want, 10);
		}
		/* TRAP only: no address needed. */
		f = base();
		f.slot_va = 0;
		f.flags = KFDSIG_FENCE_INT_ONLY;
		{
			const uint32_t want[] = { H_TRAP, EV };
			expect("trap only", tn, &f, want, 2);
		}
		/* Context id equal to the event id. */
		f = base();
		f.flags = KFDSIG_FENCE_CTXID;
		f.ctxid = EV;
		{
			const uint32_t want[] = { h,	       SLOT_LO, SLOT_HI, 1,	 h,
						  SLOT_LO + 4, SLOT_HI, 0,	 H_TRAP, EV };
			expect("ctxid = event", tn, &f, want, 10);
		}
	}

	/* Event id bounds. */
	{
		struct kfdsig_fence f = base();
		const uint32_t lo = (uint32_t)PAGE + 8, hi = SLOT_HI;

		f.event_id = 1;
		f.slot_va = PAGE + 8;
		{
			const uint32_t want[] = { H_PLAIN, lo, hi, 1,	   H_PLAIN,
						  lo + 4,  hi, 0,  H_TRAP, 1 };
			expect("event 1", "gfx906", &f, want, 10);
		}
		f.event_id = 4095;
		f.slot_va = PAGE + 8 * 4095;
		{
			const uint32_t l = (uint32_t)(PAGE + 8 * 4095);
			const uint32_t want[] = { H_MTYPE, l,  hi, 1,	   H_MTYPE,
						  l + 4,   hi, 0,  H_TRAP, 4095 };
			expect("event 4095", "gfx1100", &f, want, 10);
		}
		/* the slot implies a signal page: 4096-byte aligned, not 0,
		 * and within the target's GPU VA (40 bits on gfx8) */
		{
			uint32_t buf[KFDSIG_SDMA_FENCE_MAX_DW];
			const struct kfdsig_target *t = kfdsig_target_by_name("gfx1100");

			f.slot_va = PAGE + 8 * 4095 + 8;
			CHECK_EQ(kfdsig_sdma_emit_fence(t, &f, buf, KFDSIG_SDMA_FENCE_MAX_DW),
				 -EINVAL, "sdma: signal page not 4096-byte aligned");
			CHECK(strstr(kfdsig_last_error(), "4096-byte") != NULL, "reason: %s",
			      kfdsig_last_error());
			f.slot_va = 8 * 4095;
			CHECK_EQ(kfdsig_sdma_emit_fence(t, &f, buf, KFDSIG_SDMA_FENCE_MAX_DW),
				 -EINVAL, "sdma: signal page 0");
			f.slot_va = (1ull << 40) + 8 * 4095;
			CHECK_EQ(kfdsig_sdma_emit_fence(kfdsig_target_by_name("gfx803"), &f, buf,
							KFDSIG_SDMA_FENCE_MAX_DW),
				 -EINVAL, "sdma: gfx8 slot beyond 2^40");
			CHECK_EQ(kfdsig_sdma_emit_fence(t, &f, buf, KFDSIG_SDMA_FENCE_MAX_DW), 10,
				 "sdma: gfx11 slot above 2^40");
		}
	}

	/* Deliberately bad: what the checks refuse is emitted as asked. */
	{
		struct kfdsig_fence f = base();

		f.flags = KFDSIG_FENCE_DELIBERATELY_BAD | KFDSIG_FENCE_CTXID;
		f.event_id = 0;
		f.ctxid = 0x1fffffff; /* wider than 28 bits: written whole */
		f.slot_va = 0x1002;   /* not even 4-byte aligned */
		{
			const uint32_t want[] = { H_PLAIN, 0x1002, 0, 1,      H_PLAIN,
						  0x1006,  0,	   0, H_TRAP, 0x1fffffff };
			expect("deliberately bad", "gfx90a", &f, want, 10);
		}
		f = base();
		f.flags = KFDSIG_FENCE_DELIBERATELY_BAD;
		f.event_id = 5000;
		f.slot_va = 0;
		{
			const uint32_t want[] = {
				H_MTYPE, 0, 0, 1, H_MTYPE, 4, 0, 0, H_TRAP, 5000
			};
			expect("deliberately bad id/slot", "gfx1201", &f, want, 10);
		}
		/* The bad flag does not make a value wider than its store. */
		f = base();
		f.flags = KFDSIG_FENCE_DELIBERATELY_BAD | KFDSIG_FENCE_SDMA_ONE_FENCE |
			  KFDSIG_FENCE_VALUE;
		f.value = 0x100000000ull;
		reject("bad flag, 33-bit value in one fence", "gfx90a", &f, EINVAL);
	}
}

static void test_rejections(void)
{
	struct kfdsig_fence f;
	uint32_t buf[16];

	f = base();
	f.event_id = 0;
	reject("event 0", "gfx90a", &f, EINVAL);
	f.event_id = 4096;
	reject("event 4096", "gfx1100", &f, EINVAL);
	f.event_id = UINT32_MAX;
	reject("event 2^32-1", "gfx803", &f, EINVAL);

	f = base();
	f.slot_va = 0;
	reject("slot 0", "gfx90a", &f, EINVAL);
	f.slot_va = 1ull << 48;
	reject("slot beyond 48 bits", "gfx90a", &f, EINVAL);
	f.slot_va = SLOT + 4;
	reject("two fences, slot 4-aligned only", "gfx90a", &f, EINVAL);
	f.flags = KFDSIG_FENCE_SDMA_ONE_FENCE;
	f.slot_va = SLOT + 2;
	reject("one fence, slot not 4-aligned", "gfx1030", &f, EINVAL);
	f.flags = KFDSIG_FENCE_32BIT;
	reject("32bit, slot not 4-aligned", "gfx1030", &f, EINVAL);

	f = base();
	f.flags = KFDSIG_FENCE_VALUE;
	f.value = UINT64_MAX;
	reject("value all-ones", "gfx90a", &f, EINVAL);
	f.flags = KFDSIG_FENCE_VALUE | KFDSIG_FENCE_SDMA_ONE_FENCE;
	f.value = 0xffffffff;
	reject("one fence, value all-ones", "gfx90a", &f, EINVAL);
	f.value = 0x100000000ull;
	reject("one fence, value wider than 32 bits", "gfx90a", &f, EINVAL);

	f = base();
	f.flags = KFDSIG_FENCE_CTXID;
	f.ctxid = EV + 1;
	reject("ctxid differs", "gfx90a", &f, EINVAL);
	f.ctxid = 0;
	reject("ctxid 0", "gfx1100", &f, EINVAL);
	f.ctxid = EV | 0x10000000;
	reject("ctxid above 28 bits", "gfx1100", &f, EINVAL);

	f = base();
	f.flags = KFDSIG_FENCE_INT_ONLY | KFDSIG_FENCE_VALUE;
	reject("trap only with a value", "gfx90a", &f, EINVAL);
	f.flags = KFDSIG_FENCE_INT_ONLY | KFDSIG_FENCE_SDMA_ONE_FENCE;
	reject("trap only with one fence", "gfx90a", &f, EINVAL);
	f.flags = KFDSIG_FENCE_INT_ONLY;
	f.event_id = 0;
	reject("trap only, event 0", "gfx90a", &f, EINVAL);

	f = base();
	f.flags = 1u << 20;
	reject("unknown flag", "gfx90a", &f, EINVAL);
	f = base();
	f.reserved = 1;
	reject("reserved", "gfx90a", &f, EINVAL);
	f = base();
	f.cache = KFDSIG_CACHE_NONE;
	reject("cache action", "gfx90a", &f, EINVAL);
	f.cache = KFDSIG_CACHE_WB;
	reject("cache wb", "gfx1100", &f, EINVAL);
	f = base();
	f.form = KFDSIG_PM4_WRITE_DATA_INT;
	reject("PM4 form", "gfx90a", &f, EINVAL);

	/* Room: nothing written when short. */
	f = base();
	memset(buf, 0xa5, sizeof(buf));
	CHECK_EQ(kfdsig_sdma_emit_fence(t_target("gfx90a"), &f, buf, 9), -ENOSPC,
		 "9 dwords for 10");
	for (int i = 0; i < 16; i++)
		CHECK_EQ(buf[i], 0xa5a5a5a5u, "short buffer: dword %d written", i);
	CHECK_EQ(kfdsig_sdma_emit_fence(t_target("gfx90a"), &f, NULL, 10), -ENOSPC, "NULL buffer");
	f.flags = KFDSIG_FENCE_SDMA_ONE_FENCE;
	CHECK_EQ(kfdsig_sdma_emit_fence(t_target("gfx90a"), &f, buf, 6), 6,
		 "exact room, one fence");
	f.flags = KFDSIG_FENCE_INT_ONLY;
	CHECK_EQ(kfdsig_sdma_emit_fence(t_target("gfx90a"), &f, buf, 2), 2,
		 "exact room, trap only");
	CHECK_EQ(kfdsig_sdma_emit_fence(t_target("gfx90a"), &f, buf, 1), -ENOSPC,
		 "1 dword for trap");

	/* NULL arguments. */
	f = base();
	CHECK_EQ(kfdsig_sdma_emit_fence(NULL, &f, buf, 16), -EINVAL, "NULL target");
	CHECK_EQ(kfdsig_sdma_emit_fence(t_target("gfx90a"), NULL, buf, 16), -EINVAL, "NULL fence");
	CHECK_EQ(kfdsig_sdma_fence_dw(NULL, &f), -EINVAL, "size query, NULL target");
}

int main(void)
{
	test_golden();
	test_options();
	test_rejections();
	return t_result("sdma_fence");
}
