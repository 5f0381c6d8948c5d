/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's v12_1 interrupt class (GC 12.1, gfx1250), observed
 * through kfdsig_emu_irq_trace(): the ISR's node filter
 * (kfd_int_process_v12_1.c event_interrupt_isr_v12_1(), kfd_device.c
 * kfd_setup_interrupt_bitmap()), the SOC21 sources, the bit-24 drop, and the
 * mailbox-free CP end-of-pipe path ("drm/amdkfd: Don't expect signal mailbox
 * update": signal_mailbox_updated = false for v12_1 CP EOP only) under its
 * kernel profile, against the slot-checking default. docs/gc12_1.md.
 */
#include "emu/emu_gc12_1.h"
#include "kfd_util.h"

#define N 10

struct fixture {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	int pasid;
	uint32_t gpu;
	struct kfdsig_event ev[N + 1];
};

static void setup(struct fixture *f, const char *spec)
{
	memset(f, 0, sizeof(*f));
	f->emu = t_emu(spec);
	f->kfd = t_open(f->emu);
	f->pasid = t_pasid(f->emu, f->kfd);
	f->gpu = t_gpu(f->kfd, 0);
	for (uint32_t i = 1; i <= N; i++) {
		f->ev[i] = t_event(f->kfd, KFDSIG_EVENT_SIGNAL, false);
		T_REQUIRE(f->ev[i].id == i, "sequential ids");
	}
}

static void teardown(struct fixture *f)
{
	kfdsig_kfd_close(f->kfd);
	kfdsig_emu_destroy(f->emu);
}

static bool signalled(struct fixture *f, uint32_t id)
{
	enum kfdsig_wait_result res;

	return t_wait1(f->kfd, id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE;
}

static struct kfdsig_emu_irq_record irq(struct fixture *f, enum kfdsig_emu_irq_source src,
					uint32_t ctx)
{
	struct kfdsig_emu_irq_record r = { 0 };

	kfdsig_emu_interrupt(f->emu, f->pasid, f->gpu, src, ctx);
	CHECK_EQ(kfdsig_emu_irq_trace(f->emu, f->pasid, &r, 1), 1, "one record");
	return r;
}

/* kfd_setup_interrupt_bitmap(), IP_VERSION(12, 1, 0): per XCC 0x2 | 0x4 <<
 * (xcc % 4), shifted by 8 for XCCs 4-7 (values worked out by hand). */
static void test_node_filter(void)
{
	CHECK_EQ(emu_gc121_interrupt_bitmap(0x1), 0x6, "XCC 0");
	CHECK_EQ(emu_gc121_interrupt_bitmap(0x2), 0xa, "XCC 1");
	CHECK_EQ(emu_gc121_interrupt_bitmap(0x10), 0x600, "XCC 4");
	CHECK_EQ(emu_gc121_interrupt_bitmap(0xff), 0x3e3e, "XCCs 0-7");
	/* kfd_irq_is_from_node(): the node id's bit and a KFD VMID. */
	CHECK(emu_gc121_from_node(0x6, 2, 8), "XCC 0's own bit, VMID 8");
	CHECK(emu_gc121_from_node(0x6, 1, 15), "the shared bit, VMID 15");
	CHECK(!emu_gc121_from_node(0x6, 3, 8), "XCC 1's bit is another node's");
	CHECK(!emu_gc121_from_node(0x6, 0, 8), "node id 0");
	CHECK(!emu_gc121_from_node(0x6, 2, 0), "VMID 0 is not KFD's");
	CHECK(!emu_gc121_from_node(0x6, 200, 8), "node id beyond the bitmap");
	CHECK_EQ(emu_gc121_node_id(0), 2, "XCC 0 raises on node id 2");
	CHECK(emu_gc121_from_node(emu_gc121_interrupt_bitmap(1u << EMU_GC121_XCC),
				  emu_gc121_node_id(EMU_GC121_XCC), 8),
	      "the emulated GPU takes its own interrupts");
}

/* Default profile: the v12_1 class still checks the slot, like any kernel
 * without the 2026 patch. */
static void test_default(void)
{
	struct kfdsig_emu_irq_record r;
	struct fixture f;

	setup(&f, "gfx1250");
	r = irq(&f, KFDSIG_EMU_IRQ_CP_EOP, 5); /* slot 5 never written */
	CHECK(r.client_id == 0x14 && r.source_id == 181 && r.node_id == 2 && r.vmid == 8 &&
		      r.valid_bits == 32 && r.id == 5,
	      "CP EOP IH entry: client 0x%x src %u node %u bits %u", r.client_id, r.source_id,
	      r.node_id, r.valid_bits);
	CHECK(r.path == KFDSIG_EMU_PATH_SCAN && r.nsignaled == 0, "slot unsignalled: scan, %s",
	      kfdsig_emu_irq_path_name(r.path));
	CHECK(!signalled(&f, 5), "event 5 not woken");
	t_gpu_signal(f.ev[5].slot, 5);
	r = irq(&f, KFDSIG_EMU_IRQ_CP_EOP, 5);
	CHECK(r.path == KFDSIG_EMU_PATH_FAST && r.events[0] == 5, "slot written: fast path");
	/* a wrong id is recovered by the scan */
	t_gpu_signal(f.ev[7].slot, 7);
	r = irq(&f, KFDSIG_EMU_IRQ_CP_EOP, 4);
	CHECK(r.path == KFDSIG_EMU_PATH_SCAN && r.nsignaled == 1 && r.events[0] == 7,
	      "wrong id 4: the scan finds 7");
	/* SOC21 SDMA trap and SQ message, 28 and 24 bits */
	t_gpu_signal(f.ev[3].slot, 3);
	r = irq(&f, KFDSIG_EMU_IRQ_SDMA_TRAP, 3);
	CHECK(r.client_id == 0x0a && r.source_id == 49 && r.valid_bits == 28 &&
		      r.path == KFDSIG_EMU_PATH_FAST,
	      "SDMA trap: client 0x%x src %u bits %u", r.client_id, r.source_id, r.valid_bits);
	t_gpu_signal(f.ev[2].slot, 2);
	r = irq(&f, KFDSIG_EMU_IRQ_SQ_MSG, 2);
	CHECK(r.source_id == 239 && r.valid_bits == 24 && r.id == 2 &&
		      r.path == KFDSIG_EMU_PATH_FAST,
	      "SQ message: bits %u id %u", r.valid_bits, r.id);
	/* event_interrupt_isr_v12_1(): AMDGPU_FENCE_MES_QUEUE_FLAG */
	r = irq(&f, KFDSIG_EMU_IRQ_CP_EOP, 5 | 1u << 24);
	CHECK(r.path == KFDSIG_EMU_PATH_DROPPED && r.drop == KFDSIG_EMU_DROP_BIT24, "bit 24");
	/* no context-id-0 filter in this ISR: id 0 reaches the scan */
	r = irq(&f, KFDSIG_EMU_IRQ_CP_EOP, 0);
	CHECK(r.path == KFDSIG_EMU_PATH_SCAN, "ctx 0 not dropped by the ISR: %s",
	      kfdsig_emu_irq_path_name(r.path));
	teardown(&f);
}

/* Mailbox-free profile: the CP end-of-pipe id is trusted, the slot unread. */
static void test_mailbox_free(void)
{
	struct kfdsig_emu_irq_record r;
	struct fixture f;

	setup(&f, "gfx1250,profile=mailbox-free");
	r = irq(&f, KFDSIG_EMU_IRQ_CP_EOP, 5); /* slot 5 never written */
	CHECK(r.path == KFDSIG_EMU_PATH_TRUSTED && r.nsignaled == 1 && r.events[0] == 5,
	      "trusted: event 5 without its slot (%s)", kfdsig_emu_irq_path_name(r.path));
	CHECK(signalled(&f, 5), "event 5 woken");
	CHECK_EQ(*f.ev[5].slot, UINT64_MAX, "slot acknowledged (all ones)");
	/* the slot does not decide: a wrong id wakes the wrong event */
	t_gpu_signal(f.ev[7].slot, 7);
	r = irq(&f, KFDSIG_EMU_IRQ_CP_EOP, 4);
	CHECK(r.path == KFDSIG_EMU_PATH_TRUSTED && r.events[0] == 4, "wrong id 4 trusted");
	CHECK(signalled(&f, 4) && !signalled(&f, 7), "event 4 woken, 7 not");
	CHECK_EQ(*f.ev[7].slot, 7, "slot 7 still written");
	/* an id with no event: idr_find() misses, the scan runs */
	r = irq(&f, KFDSIG_EMU_IRQ_CP_EOP, 200);
	CHECK(r.path == KFDSIG_EMU_PATH_SCAN && r.events[0] == 7, "no event 200: scan finds 7");
	/* SDMA TRAP and SQ messages still pass signal_mailbox_updated = true */
	r = irq(&f, KFDSIG_EMU_IRQ_SDMA_TRAP, 6);
	CHECK(r.path == KFDSIG_EMU_PATH_SCAN && r.nsignaled == 0, "SDMA trap checks the slot");
	r = irq(&f, KFDSIG_EMU_IRQ_SQ_MSG, 6);
	CHECK(r.path == KFDSIG_EMU_PATH_SCAN && r.nsignaled == 0, "SQ message checks the slot");
	CHECK(!signalled(&f, 6), "event 6 not woken");
	CHECK(!strcmp(kfdsig_emu_irq_path_name(KFDSIG_EMU_PATH_TRUSTED), "trusted") &&
		      !strcmp(kfdsig_emu_irq_drop_name(KFDSIG_EMU_DROP_NODE), "node"),
	      "names");
	teardown(&f);

	/* The profile changes nothing outside the v12_1 class. */
	setup(&f, "gfx1201,profile=mailbox-free");
	r = irq(&f, KFDSIG_EMU_IRQ_CP_EOP, 5);
	CHECK(r.path == KFDSIG_EMU_PATH_SCAN && r.nsignaled == 0 && r.node_id == 0,
	      "v11 class checks the slot");
	teardown(&f);
}

int main(void)
{
	test_node_filter();
	test_default();
	test_mailbox_free();
	CHECK(!kfdsig_emu_create_from_spec("gfx1250,profile=mailbox"), "unknown profile refused");
	return t_result("emu_gc12_1");
}
