/* SPDX-License-Identifier: MIT */
/*
 * The kernel's interrupt entry point as the emulated KFD reproduces it
 * (kfd_events.c kfd_signal_event_interrupt()) and the ISR classes in front of
 * it (cik_event_interrupt.c, kfd_int_process_v9/v10/v11.c), observed through the backend: the fast path, the
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
		KFDSIG_OPTS(kfdsig_emu_config, c, .gpus = &d, .ngpus = 1);
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

/* The last record of the fixture's process. */
static struct kfdsig_emu_irq_record last(struct fixture *f)
{
	struct kfdsig_emu_irq_record r = { 0 };

	CHECK_EQ(kfdsig_emu_irq_trace(f->emu, f->pasid, &r, 1), 1, "one record");
	return r;
}

/* The interrupt trace: IH fields, derived id, path and drop reason, as the
 * kernel sources say (cik_int.h / soc15_int.h source ids, soc15_ih_clientid.h
 * clients, KFD_CONTEXT_ID_GET_SQ_INT_DATA). */
static void test_trace(void)
{
	struct kfdsig_emu_irq_record r, many[KFDSIG_EMU_IRQ_TRACE_LEN + 8];
	struct fixture f;

	setup(&f, "gfx90a", 10);
	kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 0);
	r = last(&f);
	CHECK(r.path == KFDSIG_EMU_PATH_DROPPED && r.drop == KFDSIG_EMU_DROP_CTX0 &&
		      r.client_id == 0x14 && r.source_id == 181 && r.gpu_id == f.gpu,
	      "gfx90a ctx 0: dropped (ctx0), GRBM_CP / 181: %s %s",
	      kfdsig_emu_irq_path_name(r.path), kfdsig_emu_irq_drop_name(r.drop));
	t_gpu_signal(f.ev[4].slot, 4);
	kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_SDMA_TRAP, 0x30000004);
	r = last(&f);
	CHECK(r.path == KFDSIG_EMU_PATH_FAST && r.id == 4 && r.valid_bits == 28 &&
		      r.client_id == 0x08 && r.source_id == 224 && r.context_id0 == 0x30000004 &&
		      r.nsignaled == 1 && r.events[0] == 4,
	      "sdma trap: fast, id 4 of 28 bits: %s id %u/%u", kfdsig_emu_irq_path_name(r.path),
	      r.id, r.valid_bits);
	t_gpu_signal(f.ev[9].slot, 9);
	kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 0x30000004);
	r = last(&f);
	CHECK(r.path == KFDSIG_EMU_PATH_SCAN && r.id == 0x30000004 && r.valid_bits == 32 &&
		      r.nsignaled == 1 && r.events[0] == 9,
	      "cp id >= 4096: scan found 9: %s", kfdsig_emu_irq_path_name(r.path));
	/* SQ on v9: m0 0x123456 in the SQ_INTERRUPT_WORD_WAVE_CTXID layout */
	kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_SQ_MSG, 0x123456);
	r = last(&f);
	CHECK(r.context_id0 == 0x34000456 && r.context_id1 == 0x12 && r.id == 0x123456 &&
		      r.valid_bits == 24 && r.client_id == 0x0a && r.source_id == 239 &&
		      r.path == KFDSIG_EMU_PATH_SCAN,
	      "v9 SQ IV 0x%08x/0x%08x -> id 0x%x", r.context_id0, r.context_id1, r.id);
	kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_BAD_OPCODE, 3);
	r = last(&f);
	CHECK(r.path == KFDSIG_EMU_PATH_EXCEPTION && r.source_id == 183, "bad opcode");
	CHECK_EQ(kfdsig_emu_interrupt(f.emu, 0x7777, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 5), -ESRCH,
		 "unknown pasid");
	CHECK(kfdsig_emu_irq_trace(f.emu, 0x7777, &r, 1) == 1 &&
		      r.drop == KFDSIG_EMU_DROP_NO_PROCESS,
	      "unknown pasid recorded as dropped (no-process)");
	/* the ring keeps the last KFDSIG_EMU_IRQ_TRACE_LEN, oldest first */
	for (uint32_t i = 0; i < KFDSIG_EMU_IRQ_TRACE_LEN + 8; i++)
		kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 5000 + i);
	CHECK_EQ(kfdsig_emu_irq_trace(f.emu, 0, many, KFDSIG_EMU_IRQ_TRACE_LEN + 8),
		 KFDSIG_EMU_IRQ_TRACE_LEN, "ring length");
	CHECK(many[0].id == 5008 &&
		      many[KFDSIG_EMU_IRQ_TRACE_LEN - 1].id ==
			      5000 + KFDSIG_EMU_IRQ_TRACE_LEN + 7 &&
		      many[1].seq == many[0].seq + 1,
	      "oldest first, the newest kept: %u .. %u", many[0].id,
	      many[KFDSIG_EMU_IRQ_TRACE_LEN - 1].id);
	CHECK_EQ(kfdsig_emu_irq_trace(f.emu, f.pasid, many, 3), 3, "the last 3");
	CHECK_EQ(many[2].id, 5000 + KFDSIG_EMU_IRQ_TRACE_LEN + 7, "ending with the newest");
	CHECK_EQ(kfdsig_emu_irq_trace(NULL, 0, NULL, 0), -EINVAL, "NULL emulator");
	CHECK(!strcmp(kfdsig_emu_irq_path_name(KFDSIG_EMU_PATH_PARTIAL), "partial") &&
		      !strcmp(kfdsig_emu_irq_drop_name(KFDSIG_EMU_DROP_V6_14), "v6.14") &&
		      !strcmp(kfdsig_emu_irq_path_name((enum kfdsig_emu_irq_path)99), "?"),
	      "names");
	teardown(&f);

	/* v11: bit 24 dropped; SDMA trap from the GFX client, SOC21 source 49 */
	setup(&f, "gfx1100", 10);
	kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 0x1000005);
	r = last(&f);
	CHECK(r.path == KFDSIG_EMU_PATH_DROPPED && r.drop == KFDSIG_EMU_DROP_BIT24, "bit 24");
	t_gpu_signal(f.ev[5].slot, 5);
	kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_SDMA_TRAP, 5);
	r = last(&f);
	CHECK(r.path == KFDSIG_EMU_PATH_FAST && r.client_id == 0x0a && r.source_id == 49,
	      "soc21 sdma trap: client 0x%x src %u", r.client_id, r.source_id);
	teardown(&f);

	/* CIK: 8-bit SQ data, partial walk; source ids from cik_int.h */
	setup(&f, "gfx803", N_EVENTS);
	t_gpu_signal(f.ev[300].slot, 1);
	kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_SQ_MSG, 0xab00 | 44);
	r = last(&f);
	CHECK(r.path == KFDSIG_EMU_PATH_PARTIAL && r.id == 44 && r.valid_bits == 8 &&
		      r.client_id == 0 && r.source_id == 0xef && r.events[0] == 300,
	      "cik sq: partial walk from 44 to 300: %s id %u", kfdsig_emu_irq_path_name(r.path),
	      r.id);
	teardown(&f);

	/* v6.14 profile: a full id naming an unsignalled slot */
	setup(&f, "gfx1030,profile=v6.14", 10);
	t_gpu_signal(f.ev[7].slot, 7);
	kfdsig_emu_interrupt(f.emu, f.pasid, f.gpu, KFDSIG_EMU_IRQ_CP_EOP, 3);
	r = last(&f);
	CHECK(r.path == KFDSIG_EMU_PATH_DROPPED && r.drop == KFDSIG_EMU_DROP_V6_14, "v6.14 drop");
	teardown(&f);
}

int main(void)
{
	test_trace();
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
