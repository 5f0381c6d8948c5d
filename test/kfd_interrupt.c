/* SPDX-License-Identifier: MIT */
/*
 * The kernel's interrupt entry point as the emulated KFD reproduces it
 * (kfd_signal_event_interrupt, facts 2.6) and the ISR classes in front of
 * it (facts 1.4-1.9), observed through the backend: the fast path, the
 * partial-id walk, the exhaustive scan in both of its forms, slot
 * acknowledgement, the reserved id 0, the v6.14-v6.18 drop profile, and
 * the context-id filters of gfx9 and gfx11.
 */
#include "kfd_util.h"

#define N_EVENTS 300

struct fixture {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	int pasid;
	uint32_t gpu;
	struct kfdsig_event ev[N_EVENTS + 1]; /* by id */
	uint32_t n;
};

static void setup_cfg(struct fixture *f, struct kfdsig_emu *emu, uint32_t n)
{
	memset(f, 0, sizeof(*f));
	f->emu = emu;
	f->kfd = t_open(f->emu);
	f->pasid = t_pasid(f->emu, f->kfd);
	f->gpu = t_gpu(f->kfd, 0);
	f->n = n;
	for (uint32_t i = 1; i <= n; i++) {
		struct kfdsig_event e = t_event(f->kfd, KFDSIG_EVENT_SIGNAL, false);
		T_REQUIRE(e.id == i, "sequential ids");
		f->ev[i] = e;
	}
}

static void setup(struct fixture *f, const char *spec, uint32_t n)
{
	setup_cfg(f, t_emu(spec), n);
}

static void teardown(struct fixture *f)
{
	kfdsig_kfd_close(f->kfd);
	kfdsig_emu_destroy(f->emu);
}

/* Is the event signalled? (manual-reset, so the check does not consume) */
static bool signalled(struct fixture *f, uint32_t id)
{
	enum kfdsig_wait_result res;
	int r = t_wait1(f->kfd, id, NULL, 0, &res);
	return r == 0 && res == KFDSIG_WAIT_COMPLETE;
}

static uint32_t count_signalled(struct fixture *f)
{
	uint32_t n = 0;
	for (uint32_t i = 1; i <= f->n; i++)
		n += signalled(f, i);
	return n;
}

static void test_fast_path(void)
{
	struct fixture f;

	setup(&f, "gfx90a", 10);
	t_gpu_signal(f.ev[5].slot, 5);
	t_gpu_signal(f.ev[9].slot, 9);
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 5, 32), 1, "full id: one");
	CHECK_EQ(*f.ev[5].slot, UINT64_MAX, "acknowledged: slot back to all ones");
	CHECK_EQ(*f.ev[9].slot, 9, "the other slot untouched (no scan)");
	CHECK(signalled(&f, 5) && !signalled(&f, 9), "only event 5");
	/* any value other than all ones counts, even 0 */
	t_gpu_signal(f.ev[3].slot, 0);
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 3, 24), 1, "24 bits: fast");
	CHECK(signalled(&f, 3), "slot value 0 is signalled");
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, 0x7777, 3, 32), -ESRCH, "bad pasid");
	teardown(&f);
}

static void test_scan_and_profile(const char *spec, bool drop)
{
	struct fixture f;

	setup(&f, spec, 10);
	/* a full id naming an unsignalled slot */
	t_gpu_signal(f.ev[7].slot, 7);
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 3, 32), drop ? 0 : 1,
		 "wrong id < 4096: %s", drop ? "dropped (v6.14-v6.18)" : "recovered by the scan");
	CHECK_EQ(signalled(&f, 7), !drop, "event 7");
	CHECK_EQ(*f.ev[7].slot, drop ? 7 : UINT64_MAX, "slot acknowledged only when found");
	/* id 0: reserved, names no event */
	t_gpu_signal(f.ev[7].slot, 7);
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 0, 32), drop ? 0 : 1,
		 "id 0 with slot 0 unsignalled");
	/* an id >= 4096 is never dropped: the scan runs in both profiles */
	t_gpu_signal(f.ev[7].slot, 7);
	t_gpu_signal(f.ev[8].slot, 8);
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 0x12345678, 32), 2,
		 "garbage id >= 4096: scan finds both");
	CHECK(*f.ev[7].slot == UINT64_MAX && *f.ev[8].slot == UINT64_MAX, "both acknowledged");
	teardown(&f);
}

static void test_reserved_slot0(void)
{
	struct fixture f;
	uint64_t *page;

	setup(&f, "gfx942", 4);
	T_REQUIRE(kfdsig_kfd_signal_page(f.kfd, &page, NULL) == 0, "page");
	page[0] = 0x1234; /* garbage in the reserved slot */
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 0, 32), 0,
		 "slot 0 written but id 0 has no event");
	CHECK_EQ(page[0], 0x1234, "not acknowledged: nobody owns slot 0");
	CHECK_EQ(count_signalled(&f), 0, "nothing signalled");
	teardown(&f);
}

static void test_partial_walk(void)
{
	struct fixture f;

	setup(&f, "gfx803", N_EVENTS);
	/* 8 valid bits: 300 & 0xff = 44 */
	t_gpu_signal(f.ev[300].slot, 300);
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 44, 8), 1, "walk 44, 300");
	CHECK(signalled(&f, 300) && !signalled(&f, 44), "found 300 by its low byte");
	CHECK_EQ(*f.ev[300].slot, UINT64_MAX, "acknowledged");
	kfdsig_kfd_event_reset(f.kfd, 300);
	/* both candidates signalled: the walk takes the first only */
	t_gpu_signal(f.ev[44].slot, 44);
	t_gpu_signal(f.ev[300].slot, 300);
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 44, 8), 1, "first match");
	CHECK(signalled(&f, 44) && !signalled(&f, 300), "44 first");
	CHECK_EQ(*f.ev[300].slot, 300, "300 still pending");
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 44, 8), 1, "next interrupt");
	CHECK(signalled(&f, 300), "then 300");
	/* the SQ message on the CIK class carries m0[7:0] */
	kfdsig_kfd_event_reset(f.kfd, 44);
	kfdsig_kfd_event_reset(f.kfd, 300);
	t_gpu_signal(f.ev[300].slot, 1);
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_SQ_MSG, 0xab00 | 44), 1,
		 "s_sendmsg with m0 = 0xab2c");
	CHECK(signalled(&f, 300), "found through 8 bits");
	/* partial walk with nothing matching falls back to the scan */
	kfdsig_kfd_event_reset(f.kfd, 300);
	t_gpu_signal(f.ev[201].slot, 201);
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 44, 8), 1, "scan after walk");
	CHECK(signalled(&f, 201), "201 found by the scan");
	teardown(&f);
}

/* Both forms of the scan: IDR walk below 64 events, slot walk above. */
static void test_scan_forms(uint32_t n)
{
	static const uint32_t ids[] = { 1, 2, 17, 33, 40, 59, 60 };
	struct fixture f;
	uint64_t *page;
	uint32_t want = 0;

	setup(&f, "gfx1030", n);
	T_REQUIRE(kfdsig_kfd_signal_page(f.kfd, &page, NULL) == 0, "page");
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (ids[i] <= n) {
			t_gpu_signal(f.ev[ids[i]].slot, ids[i]);
			want++;
		}
	page[n + 5] = 42; /* a signalled slot without an event */
	CHECK_EQ(kfdsig_emu_signal_event_interrupt(f.emu, f.pasid, 0, 0), want,
		 "no id bits: the scan sets every signalled event (%u events)", n);
	CHECK_EQ(count_signalled(&f), want, "exactly those");
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (ids[i] <= n)
			CHECK_EQ(*f.ev[ids[i]].slot, UINT64_MAX, "acknowledged %u", ids[i]);
	CHECK_EQ(page[n + 5], 42, "slot without an event left alone");
	teardown(&f);
}

static void test_isr_classes(void)
{
	struct fixture f;

	/* gfx90a (v9, GC 9.4.2): CP EOP with context id 0 is always dropped */
	setup(&f, "gfx90a", 10);
	t_gpu_signal(f.ev[4].slot, 4);
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 0), 0,
		 "gfx90a ctx 0 dropped in the ISR (no scan)");
	CHECK(!signalled(&f, 4), "nothing woke");
	/* SDMA trap keeps 28 bits: garbage above is masked off -> fast path */
	t_gpu_signal(f.ev[9].slot, 9);
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_SDMA_TRAP, 0x30000004),
		 1, "sdma: 28 bits -> id 4 only");
	CHECK(signalled(&f, 4) && !signalled(&f, 9), "fast path, 9 still pending");
	/* CP EOP keeps 32 bits: the same value is no id -> scan */
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 0x30000004), 1,
		 "cp: 32 bits, id >= 4096, scan finds 9");
	CHECK(signalled(&f, 9), "9 by the scan");
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_BAD_OPCODE, 0), 0,
		 "SOC15 bad opcode: exception path, no events");
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, 0x1, KFDSIG_EMU_IRQ_CP_EOP, 4), -ENOENT,
		 "unknown gpu");
	teardown(&f);

	/* gfx1100 (v11): EOP context ids with bit 24 set are dropped */
	setup(&f, "gfx1100", 10);
	t_gpu_signal(f.ev[5].slot, 5);
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 0x1000005), 0,
		 "gfx1100 bit 24 dropped");
	CHECK(!signalled(&f, 5), "not woken");
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 5), 1, "clean");
	CHECK(signalled(&f, 5), "woken");
	teardown(&f);

	/* gfx1030 (v10): no such filters; ctx 0 goes to the scan */
	setup(&f, "gfx1030", 10);
	t_gpu_signal(f.ev[6].slot, 6);
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 0x1000006), 1,
		 "gfx1030 keeps bit 24 (id >= 4096 -> scan)");
	t_gpu_signal(f.ev[6].slot, 6);
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 0), 1,
		 "gfx1030 ctx 0 not filtered: slot scan");
	/* SQ on v10 carries 23 bits */
	t_gpu_signal(f.ev[7].slot, 7);
	t_gpu_signal(f.ev[8].slot, 8);
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_SQ_MSG, 0x800007), 1,
		 "m0 bit 23 dropped by the 23-bit mask -> id 7");
	CHECK(signalled(&f, 7) && !signalled(&f, 8), "fast path");
	teardown(&f);

	/* gfx900 with old MEC firmware (< 0x817a): ctx 0 not dropped */
	{
		struct kfdsig_emu_gpu_desc d = { .target = "gfx900", .mec_fw_version = 0x8000 };
		struct kfdsig_emu_config c = { .gpus = &d, .ngpus = 1 };
		struct kfdsig_emu *emu = kfdsig_emu_create(&c);
		T_REQUIRE(emu, "emu");
		setup_cfg(&f, emu, 4);
		t_gpu_signal(f.ev[2].slot, 2);
		CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 0), 1,
			 "old firmware: ctx 0 reaches the scan");
		teardown(&f);
		d.mec_fw_version = 0x817a;
		emu = kfdsig_emu_create(&c);
		T_REQUIRE(emu, "emu");
		setup_cfg(&f, emu, 4);
		t_gpu_signal(f.ev[2].slot, 2);
		CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 0), 0,
			 "firmware 0x817a: ctx 0 dropped");
		teardown(&f);
	}

	/* gfx803 (CIK class): bad opcode sets HW_EXCEPTION events */
	setup(&f, "gfx803", 1);
	{
		struct kfdsig_event hw = t_event(f.kfd, KFDSIG_EVENT_HW_EXCEPTION, false);
		CHECK_EQ(kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_BAD_OPCODE,
					      0),
			 1, "CIK bad opcode");
		CHECK(signalled(&f, hw.id), "HW_EXCEPTION event set");
	}
	teardown(&f);
}

int main(void)
{
	test_fast_path();
	test_scan_and_profile("gfx90a", false);
	test_scan_and_profile("gfx90a,profile=v6.14", true);
	test_reserved_slot0();
	test_partial_walk();
	test_scan_forms(10);  /* signal_event_count < 64: IDR walk */
	test_scan_forms(120); /* >= 64: slot walk */
	test_isr_classes();
	return t_result("kfd_interrupt");
}
