/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's multi-XCC devices (src/emu/emu_xcc.c, docs/multi-xcc.md):
 * partition modes in the spec and the KFD nodes they make
 * (aqua_vanjaram.c __aqua_vanjaram_get_xcc_per_xcp() and
 * __aqua_vanjaram_is_valid_mode(), kfd_device.c kgd2kfd_device_init()),
 * each node's interrupt bitmap (kfd_setup_interrupt_bitmap(), GC 9.4.3) and
 * CPX VMID split, the IH node id of each XCC, and the v9_4_3 ISR's node
 * filter (kfd_int_process_v9.c event_interrupt_isr_v9_4_3()). Expected
 * values are worked out by hand from those functions.
 */
#include "emu/emu_xcc.h"
#include "kfd_util.h"

/* Nodes and their num_xcc in the topology the backend reads. */
static void nodes(const char *spec, size_t want_nodes, uint32_t want_xcc)
{
	struct kfdsig_emu *emu = t_emu(spec);
	struct kfdsig_kfd *kfd = t_open(emu);

	CHECK_EQ(kfdsig_kfd_device_count(kfd), want_nodes, "%s: KFD nodes", spec);
	for (size_t i = 0; i < kfdsig_kfd_device_count(kfd); i++)
		CHECK_EQ(kfdsig_kfd_device(kfd, i)->num_xcc, want_xcc, "%s: node %zu num_xcc", spec,
			 i);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void refused(const char *spec, const char *why)
{
	errno = 0;
	CHECK(!kfdsig_emu_create_from_spec(spec) && errno == EINVAL, "%s refused (%s): %s", spec,
	      why, kfdsig_last_error());
}

static void test_spec(void)
{
	nodes("gfx942", 1, 8); /* SPX, the kernel's default */
	nodes("gfx942,partition=spx", 1, 8);
	nodes("gfx942,partition=dpx", 2, 4);
	nodes("gfx942,partition=qpx", 4, 2);
	nodes("gfx942,partition=cpx", 8, 1);
	nodes("gfx950,partition=cpx", 8, 1);
	nodes("gfx942,xcc=6,partition=tpx", 3, 2); /* MI300A */
	nodes("gfx942,xcc=6,partition=cpx", 6, 1);
	nodes("gfx90a", 1, 1);
	/* GC 12.1: soc_v1_0.c, the same modes; 8 XCCs at most */
	nodes("gfx1250", 1, 8);
	nodes("gfx1250,partition=dpx", 2, 4);
	nodes("gfx1250,partition=cpx", 8, 1);
	refused("gfx1250,partition=tpx", "GC 12.1: 8 % 3");
	refused("gfx1250,xcc=9", "GC 12.1: above 8");
	nodes("gfx942,partition=cpx,gfx942,partition=cpx", 16, 1);
	refused("gfx942,partition=tpx", "8 % 3");
	refused("gfx942,xcc=6,partition=dpx", "6 % 4");
	refused("gfx942,xcc=6,partition=qpx", "6 / 4 < 2");
	refused("gfx942,xcc=1,partition=cpx", "one XCC is SPX");
	refused("gfx90a,partition=cpx", "no compute partitions");
	refused("partition=cpx,gfx942", "no target before it");
	refused("gfx942,partition=bogus", "unknown mode");
	refused("gfx942,partition=", "empty mode");
	refused("gfx942,xcc=4294967297", "wraps 32 bits");
	refused("gfx942,xcc=0", "zero");
	refused("gfx942,xcc=17", "above 16");
	refused("gfx942,xcc=8x", "trailing junk");
	refused("gfx942,partition=cpx,gfx942,partition=cpx,gfx90a", "17 nodes");
}

static void test_tables(void)
{
	struct emu_gen g;
	struct emu_xcc_node n[16];
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx942");

	T_REQUIRE(t && !emu_gen_derive(&g, t->gc_ip, t->sdma_ip, t->gfx_target_version, 0, 0),
		  "gen");
	/* (n % 2 ? 5 : 3) << 4 * (n / 2) */
	CHECK_EQ(emu_xcc_interrupt_bitmap(0x1), 0x3, "XCC 0");
	CHECK_EQ(emu_xcc_interrupt_bitmap(0x2), 0x5, "XCC 1");
	CHECK_EQ(emu_xcc_interrupt_bitmap(0x4), 0x30, "XCC 2");
	CHECK_EQ(emu_xcc_interrupt_bitmap(0x3), 0x7, "XCCs 0-1");
	CHECK_EQ(emu_xcc_interrupt_bitmap(0xff), 0x7777, "XCCs 0-7");
	/* own bit 4a+1 / 4a+2, SDMA on the AID's 4a */
	CHECK_EQ(emu_xcc_node_id(0, KFDSIG_EMU_IRQ_CP_EOP), 1, "XCC 0");
	CHECK_EQ(emu_xcc_node_id(1, KFDSIG_EMU_IRQ_CP_EOP), 2, "XCC 1");
	CHECK_EQ(emu_xcc_node_id(7, KFDSIG_EMU_IRQ_SQ_MSG), 14, "XCC 7");
	CHECK_EQ(emu_xcc_node_id(3, KFDSIG_EMU_IRQ_SDMA_TRAP), 4, "SDMA of AID 1");

	CHECK_EQ(emu_xcc_nodes(&g, 8, KFDSIG_EMU_PARTITION_DEFAULT, n, 16), 1, "SPX");
	CHECK(n[0].num_xcc == 8 && n[0].interrupt_bitmap == 0x7777 &&
		      n[0].compute_vmid_bitmap == 0xfff8,
	      "SPX node: every XCC's bits, VMIDs 3-15");
	CHECK_EQ(emu_xcc_vmid(n[0].compute_vmid_bitmap), 8, "processes in VMID 8");
	CHECK_EQ(emu_xcc_nodes(&g, 8, KFDSIG_EMU_PARTITION_DPX, n, 16), 2, "DPX");
	CHECK(n[1].xcc_first == 4 && n[1].interrupt_bitmap == 0x7700 &&
		      n[1].compute_vmid_bitmap == 0xfff8,
	      "DPX node 1: XCCs 4-7, no VMID split");
	CHECK_EQ(emu_xcc_nodes(&g, 8, KFDSIG_EMU_PARTITION_CPX, n, 16), 8, "CPX");
	CHECK(n[0].interrupt_bitmap == 0x3 && n[0].compute_vmid_bitmap == 0x03f0 &&
		      n[1].interrupt_bitmap == 0x5 && n[1].compute_vmid_bitmap == 0xfc00 &&
		      n[5].xcc_first == 5 && n[5].interrupt_bitmap == 0x500,
	      "CPX: one XCC each, VMIDs 4-9 / 10-15 alternating");
	CHECK_EQ(emu_xcc_vmid(n[1].compute_vmid_bitmap), 10, "odd CPX node: VMID 10");
	/* kfd_irq_is_from_node(): node id and VMID both the node's */
	CHECK(emu_xcc_from_node(&n[1], 2, 10), "XCC 1's own id, its VMID");
	CHECK(!emu_xcc_from_node(&n[1], 1, 10), "XCC 0's id on node 1");
	CHECK(emu_xcc_from_node(&n[1], 0, 10) && !emu_xcc_from_node(&n[0], 0, 10),
	      "the AID's shared id: the VMID decides");
	CHECK_EQ(emu_xcc_nodes(&g, 8, KFDSIG_EMU_PARTITION_CPX, n, 4), -EINVAL,
		 "more nodes than room");

	/* GC 12.1: kfd_setup_interrupt_bitmap() case IP_VERSION(12, 1, 0):
	 * 0x2 | 0x4 << (xcc % 4), 8 bits higher for XCCs 4-7 */
	t = kfdsig_target_by_name("gfx1250");
	T_REQUIRE(t && !emu_gen_derive(&g, t->gc_ip, t->sdma_ip, t->gfx_target_version, 0, 0),
		  "gen gfx1250");
	CHECK(emu_xcc_partitioned(&g) && emu_xcc_default(&g) == 8, "GC 12.1: 8 XCCs, partitioned");
	CHECK_EQ(emu_xcc_nodes(&g, 8, KFDSIG_EMU_PARTITION_DPX, n, 16), 2, "GC 12.1 DPX");
	CHECK(n[0].interrupt_bitmap == 0x3e && n[1].interrupt_bitmap == 0x3e00 &&
		      n[1].xcc_first == 4 && n[1].compute_vmid_bitmap == 0xff00,
	      "GC 12.1 DPX: 0x3e / 0x3e00, VMIDs 8-15");
}

/* Interrupts through the emulated ISR carry the raising XCC's node id and
 * the node's VMID, and are taken. */
static void test_isr(void)
{
	struct kfdsig_emu *emu = t_emu("gfx942,partition=cpx");
	struct kfdsig_kfd *kfd = t_open(emu);
	int pasid = t_pasid(emu, kfd);
	struct kfdsig_emu_irq_record r = { 0 };
	struct kfdsig_event ev;
	uint64_t *page, va;

	ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	T_REQUIRE(!kfdsig_kfd_signal_page(kfd, &page, &va), "page");
	for (size_t i = 0; i < 2; i++) {
		uint32_t gpu = t_gpu(kfd, i);

		page[ev.id] = 1;
		/* each partition's KFD node has its own PASID (commit 8544374c0f82) */
		pasid = kfdsig_emu_pasid_on(emu, kfdsig_kfd_fd(kfd), gpu);
		CHECK_EQ(kfdsig_emu_interrupt(emu, pasid, gpu, KFDSIG_EMU_IRQ_CP_EOP, ev.id), 1,
			 "node %zu: event set", i);
		CHECK_EQ(kfdsig_emu_irq_trace(emu, pasid, &r, 1), 1, "record");
		CHECK(r.node_id == (i ? 2 : 1) && r.vmid == (i ? 10 : 8) &&
			      r.path == KFDSIG_EMU_PATH_FAST,
		      "node %zu: node id %u vmid %u path %d", i, r.node_id, r.vmid, (int)r.path);
		page[ev.id] = UINT64_MAX;
	}
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

int main(void)
{
	test_spec();
	test_tables();
	test_isr();
	return t_result("emu_xcc");
}
