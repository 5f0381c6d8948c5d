/* SPDX-License-Identifier: MIT */
/*
 * Lint rules, each with a hand-written stream that keeps it and one that
 * breaks it (cik_event_interrupt.c, kfd_int_process_v9/v10/v11.c, kfd_events.c). Page 0x100000000, event 42: slot
 * 0x100000150.
 */
#include "decode_capture.h"

#define PAGE 0x100000000ull
#define SLOT (PAGE + 8 * 42)

static struct capture cap;

static long lint(const char *target, enum kfdsig_engine e, bool page, const uint32_t *dw, size_t n)
{
	KFDSIG_OPTS(kfdsig_decode_opts, o);
	struct kfdsig_decode_sink s = cap_sink(&cap);

	o.engine = e;
	o.target = T(target);
	o.flags = page ? KFDSIG_DECODE_SIGNAL_PAGE : 0;
	o.signal_page_va = PAGE;
	cap_reset(&cap);
	return kfdsig_lint(&o, &s, dw, n, NULL);
}

/* gfx9+ RELEASE_MEM, 8 dwords: event 0x14 index 5 with L2 flush. */
static void rm(uint32_t *p, uint32_t int_sel, uint32_t data_sel, uint64_t addr, uint64_t v,
	       uint32_t ctx)
{
	p[0] = 0xc0064900;
	p[1] = 0x00238514;
	p[2] = int_sel << 24 | data_sel << 29;
	p[3] = (uint32_t)addr;
	p[4] = (uint32_t)(addr >> 32);
	p[5] = (uint32_t)v;
	p[6] = (uint32_t)(v >> 32);
	p[7] = ctx;
}

/* Expect exactly @n findings of @rule at @sev, and @errors errors overall. */
static void expect(const char *what, const char *rule, int sev, size_t n, size_t errors)
{
	CHECK_EQ(cap_count(&cap, rule, sev), n, "%s: %s findings", what, rule);
	CHECK_EQ(cap_errors(&cap), errors, "%s: error findings", what);
	if (cap_count(&cap, rule, sev) != n || cap_errors(&cap) != errors)
		cap_dump(&cap);
}

static void test_pm4(void)
{
	uint32_t s[32];

	rm(s, 2, 2, SLOT, 1, 42);
	CHECK_EQ(lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8), 0, "good RELEASE_MEM");
	CHECK_EQ(cap.nfinds, 0, "good: no findings");

	rm(s, 2, 2, SLOT, 1, 43);
	CHECK_EQ(lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8), 1, "mismatch");
	expect("ctxid 43 for slot 42", "ctxid-mismatch", KFDSIG_SEV_ERROR, 1, 1);
	CHECK_EQ(lint("gfx90a", KFDSIG_ENGINE_PM4, false, s, 8), 0, "no page: cannot tell");

	rm(s, 2, 2, SLOT, 1, 0);
	lint("gfx942", KFDSIG_ENGINE_PM4, true, s, 8);
	expect("ctxid 0", "ctxid-zero", KFDSIG_SEV_ERROR, 1, 2); /* + mismatch */

	rm(s, 2, 2, SLOT, 1, 42 | 1u << 24);
	lint("gfx1100", KFDSIG_ENGINE_PM4, false, s, 8);
	CHECK_EQ(cap_count(&cap, "ctxid-bit24", KFDSIG_SEV_ERROR), 1, "bit 24 on gfx11");
	lint("gfx1201", KFDSIG_ENGINE_PM4, false, s, 8);
	CHECK_EQ(cap_count(&cap, "ctxid-bit24", KFDSIG_SEV_ERROR), 1, "bit 24 on gfx12");
	lint("gfx1030", KFDSIG_ENGINE_PM4, false, s, 8);
	CHECK_EQ(cap_count(&cap, "ctxid-bit24", -1), 0, "no bit-24 rule on gfx10.3");
	CHECK_EQ(cap_count(&cap, "event-id-range", KFDSIG_SEV_ERROR), 1, "but id >= 4096");

	rm(s, 2, 2, SLOT, 1, 4096);
	lint("gfx90a", KFDSIG_ENGINE_PM4, false, s, 8);
	expect("ctxid 4096", "event-id-range", KFDSIG_SEV_ERROR, 1, 1);
	rm(s, 2, 2, PAGE, 1, 0);
	lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8);
	expect("slot 0", "event-id-range", KFDSIG_SEV_ERROR, 1, 2); /* + ctxid-zero */

	rm(s, 2, 2, SLOT + 4, 1, 42);
	lint("gfx90a", KFDSIG_ENGINE_PM4, false, s, 8);
	expect("unaligned", "slot-misaligned", KFDSIG_SEV_ERROR, 1, 1);
	rm(s, 2, 2, PAGE + 32768, 1, 42);
	lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8);
	expect("past the page", "slot-outside-page", KFDSIG_SEV_ERROR, 1, 1);
	rm(s, 2, 2, PAGE - 8, 1, 42);
	lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8);
	expect("before the page", "slot-outside-page", KFDSIG_SEV_ERROR, 1, 1);
	rm(s, 2, 2, PAGE + 32760, 1, 4095);
	CHECK_EQ(lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8), 0, "last slot is fine");

	rm(s, 2, 1, SLOT, 1, 42);
	CHECK_EQ(lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8), 0, "32-bit: legal");
	expect("32-bit", "write-32bit", KFDSIG_SEV_INFO, 1, 0);
	rm(s, 2, 1, SLOT, 0xffffffff, 42);
	lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8);
	expect("32-bit all-ones", "value-unsignalled", KFDSIG_SEV_ERROR, 1, 1);
	rm(s, 2, 2, SLOT, UINT64_MAX, 42);
	lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8);
	expect("64-bit all-ones", "value-unsignalled", KFDSIG_SEV_ERROR, 1, 1);
	rm(s, 2, 2, SLOT, 0xffffffff, 42);
	CHECK_EQ(lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8), 0, "high dword 0: fine");

	/* Interrupt with no write, then with a WRITE_DATA before it. */
	rm(s, 1, 0, 0, 0, 42);
	CHECK_EQ(lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8), 0, "int-only: warning");
	expect("int only", "int-without-write", KFDSIG_SEV_WARNING, 1, 0);
	{
		const uint32_t wd[] = {
			0xc0043700, 0x00100500, (uint32_t)SLOT, (uint32_t)(SLOT >> 32), 1, 0
		};

		memcpy(s, wd, sizeof(wd));
		rm(s + 6, 1, 0, 0, 0, 42);
		CHECK_EQ(lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 14), 0, "WRITE_DATA + int");
		CHECK_EQ(cap.nfinds, 0, "WRITE_DATA + int: clean");
		/* The write is consumed by the first interrupt. */
		rm(s + 14, 1, 0, 0, 0, 42);
		lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 22);
		expect("second interrupt", "int-without-write", KFDSIG_SEV_WARNING, 1, 0);
		/* WRITE_DATA of another slot: mismatch. */
		s[2] = (uint32_t)(SLOT + 8);
		CHECK_EQ(lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 14), 1, "wrong slot");
		expect("WRITE_DATA to slot 43", "ctxid-mismatch", KFDSIG_SEV_ERROR, 1, 1);
	}

	/* DATA_SEL / INT_SEL combinations. */
	rm(s, 0, 0, 0, 0, 42);
	lint("gfx90a", KFDSIG_ENGINE_PM4, false, s, 8);
	expect("nothing", "sel-combination", KFDSIG_SEV_WARNING, 1, 0);
	rm(s, 0, 2, SLOT, 1, 42);
	lint("gfx90a", KFDSIG_ENGINE_PM4, false, s, 8);
	expect("no interrupt", "sel-combination", KFDSIG_SEV_INFO, 1, 0);
	rm(s, 2, 0, 0, 0, 42);
	lint("gfx90a", KFDSIG_ENGINE_PM4, false, s, 8);
	expect("confirm nothing", "sel-combination", KFDSIG_SEV_WARNING, 1, 0);
	rm(s, 1, 2, SLOT, 1, 42);
	lint("gfx90a", KFDSIG_ENGINE_PM4, false, s, 8);
	expect("int-only with data", "sel-combination", KFDSIG_SEV_WARNING, 1, 0);
	rm(s, 4, 2, SLOT, 1, 42);
	lint("gfx90a", KFDSIG_ENGINE_PM4, true, s, 8);
	expect("int_sel 4", "sel-combination", KFDSIG_SEV_WARNING, 1, 0);

	/* gfx8: no INT_CTXID, the value is the only id. */
	{
		uint32_t g[7] = {
			0xc0054900, 0x00038514, 0x42000000, (uint32_t)SLOT, (uint32_t)(SLOT >> 32),
			42,	    0
		};

		CHECK_EQ(lint("gfx803", KFDSIG_ENGINE_PM4, true, g, 7), 0, "gfx8 value = id");
		expect("gfx8 good", "gfx8-no-ctxid", KFDSIG_SEV_INFO, 1, 0);
		CHECK_EQ(cap_count(&cap, "gfx8-value", -1), 0, "gfx8 good: value ok");
		g[5] = 1;
		lint("gfx803", KFDSIG_ENGINE_PM4, true, g, 7);
		expect("gfx8 value 1", "gfx8-value", KFDSIG_SEV_WARNING, 1, 0);
	}
	/* Lint off: no rule runs. */
	rm(s, 2, 2, SLOT, 1, 0);
	CHECK_EQ(cap_decode(&cap, T("gfx90a"), KFDSIG_ENGINE_PM4, 0, 0, s, 8), 0, "no lint");
	CHECK_EQ(cap.nfinds, 0, "no lint: no findings");
}

static void fence(uint32_t *p, uint64_t addr, uint32_t v)
{
	p[0] = 0x00530005;
	p[1] = (uint32_t)addr;
	p[2] = (uint32_t)(addr >> 32);
	p[3] = v;
}

static void trap(uint32_t *p, uint32_t ctx)
{
	p[0] = 0x00000006;
	p[1] = ctx;
}

static void test_sdma(void)
{
	uint32_t s[32];

	fence(s, SLOT, 1);
	fence(s + 4, SLOT + 4, 0);
	trap(s + 8, 42);
	CHECK_EQ(lint("gfx1100", KFDSIG_ENGINE_SDMA, true, s, 10), 0, "good SDMA");
	CHECK_EQ(cap.nfinds, 0, "good SDMA: no findings");
	/* Second interrupt without a new write. */
	trap(s + 10, 42);
	lint("gfx1100", KFDSIG_ENGINE_SDMA, true, s, 12);
	expect("second TRAP", "int-without-write", KFDSIG_SEV_WARNING, 1, 0);

	fence(s, SLOT, 1);
	trap(s + 4, 42);
	CHECK_EQ(lint("gfx1100", KFDSIG_ENGINE_SDMA, true, s, 6), 0, "one fence");
	expect("one fence", "write-32bit", KFDSIG_SEV_INFO, 1, 0);
	trap(s + 4, 41);
	lint("gfx1100", KFDSIG_ENGINE_SDMA, true, s, 6);
	expect("TRAP 41", "ctxid-mismatch", KFDSIG_SEV_ERROR, 1, 1);
	trap(s + 4, 0);
	lint("gfx1100", KFDSIG_ENGINE_SDMA, false, s, 6);
	expect("TRAP 0", "ctxid-zero", KFDSIG_SEV_ERROR, 1, 1);
	trap(s + 4, 0x1000002a);
	lint("gfx1100", KFDSIG_ENGINE_SDMA, true, s, 6);
	expect("wide TRAP", "trap-context-wide", KFDSIG_SEV_WARNING, 1, 0);
	CHECK_EQ(cap_count(&cap, "ctxid-mismatch", -1), 0, "KFD still reads 42");
	trap(s + 4, 0x0100002a); /* bit 24 is an EOP rule; here it is id 0x100002a */
	lint("gfx1100", KFDSIG_ENGINE_SDMA, false, s, 6);
	CHECK_EQ(cap_count(&cap, "ctxid-bit24", -1), 0, "no bit-24 rule on SDMA");
	CHECK_EQ(cap_count(&cap, "event-id-range", KFDSIG_SEV_ERROR), 1, "id too large");

	trap(s, 42);
	lint("gfx90a", KFDSIG_ENGINE_SDMA, true, s, 2);
	expect("TRAP alone", "int-without-write", KFDSIG_SEV_WARNING, 1, 0);

	fence(s, SLOT + 4, 0);
	trap(s + 4, 42);
	lint("gfx1030", KFDSIG_ENGINE_SDMA, false, s, 6);
	expect("high half only", "slot-misaligned", KFDSIG_SEV_ERROR, 1, 1);

	fence(s, SLOT, 0xffffffff);
	trap(s + 4, 42);
	lint("gfx1030", KFDSIG_ENGINE_SDMA, false, s, 6);
	expect("one fence all-ones", "value-unsignalled", KFDSIG_SEV_ERROR, 1, 1);
	fence(s + 4, SLOT + 4, 0xffffffff);
	trap(s + 8, 42);
	lint("gfx1030", KFDSIG_ENGINE_SDMA, false, s, 10);
	expect("two fences all-ones", "value-unsignalled", KFDSIG_SEV_ERROR, 1, 1);

	/* WRITE linear of two dwords into the slot (4.x count = N - 1). */
	{
		const uint32_t w[] = {
			0x00000002, (uint32_t)SLOT, (uint32_t)(SLOT >> 32), 1, 42, 0, 0x00000006, 42
		};

		CHECK_EQ(lint("gfx90a", KFDSIG_ENGINE_SDMA, true, w, 8), 0, "WRITE + TRAP");
		CHECK_EQ(cap.nfinds, 0, "WRITE + TRAP clean");
	}
	/* Page outside. */
	fence(s, PAGE + 40000, 1);
	fence(s + 4, PAGE + 40004, 0);
	trap(s + 8, 42);
	lint("gfx1100", KFDSIG_ENGINE_SDMA, true, s, 10);
	expect("outside", "slot-outside-page", KFDSIG_SEV_ERROR, 1, 1);
}

/* eop-ctxid-trusted: the v12_1 class (kfd_int_process_v12_1.c, mailbox-free
 * CP end-of-pipe) gets an info note on each interrupting RELEASE_MEM, and
 * only that class; a clean fence stays free of errors. */
static void test_v12_1(void)
{
	uint32_t s[16];

	rm(s, 2, 2, SLOT, 1, 42);
	rm(s + 8, 1, 0, 0, 0, 42); /* interrupt only, no write */
	CHECK_EQ(lint("gfx1250", KFDSIG_ENGINE_PM4, true, s, 8), 0, "clean fence on gfx1250");
	expect("gfx1250 clean fence", "eop-ctxid-trusted", KFDSIG_SEV_INFO, 1, 0);
	/* gfx1250 nodes span up to 8 XCCs: the unpredicated fence signals
	 * once per XCC (docs/multi-xcc.md). */
	expect("gfx1250 unpredicated", "xcc-duplicate-signal", KFDSIG_SEV_WARNING, 1, 0);
	CHECK_EQ(cap.nfinds, 2, "gfx1250: the note and the duplicate-signal warning");
	lint("gfx1250", KFDSIG_ENGINE_PM4, true, s, 16);
	CHECK_EQ(cap_count(&cap, "eop-ctxid-trusted", KFDSIG_SEV_INFO), 2, "one per interrupt");
	lint("gfx1201", KFDSIG_ENGINE_PM4, true, s, 8);
	CHECK_EQ(cap_count(&cap, "eop-ctxid-trusted", -1), 0, "not on the v11 class");
	CHECK_EQ(cap.nfinds, 0, "gfx1201 clean fence: no findings");
	/* A polling fence raises nothing: no note. */
	rm(s, 0, 2, SLOT, 1, 42);
	lint("gfx1250", KFDSIG_ENGINE_PM4, true, s, 8);
	CHECK_EQ(cap_count(&cap, "eop-ctxid-trusted", -1), 0, "no interrupt, no note");
	/* The MES flag is dropped by the v12_1 ISR too. */
	rm(s, 2, 2, SLOT, 1, 42 | 1u << 24);
	lint("gfx1250", KFDSIG_ENGINE_PM4, false, s, 8);
	CHECK_EQ(cap_count(&cap, "ctxid-bit24", KFDSIG_SEV_ERROR), 1, "bit 24 on gfx1250");
}

int main(void)
{
	cap_init(&cap);
	test_pm4();
	test_v12_1();
	test_sdma();
	cap_free(&cap);
	return t_result("decode_lint");
}
