/* SPDX-License-Identifier: MIT */
/*
 * The v12_1 interrupt class of the emulated KFD (GC 12.1, gfx1250), from
 * kfd_int_process_v12_1.c and kfd_device.c (docs/gc12_1.md):
 *   - event_interrupt_isr_v12_1() first asks kfd_irq_is_from_node(node,
 *     node_id, vmid): the IH entry's node id must be set in the node's
 *     interrupt_bitmap and its VMID in the node's compute VMID bitmap;
 *   - kfd_setup_interrupt_bitmap(), case IP_VERSION(12, 1, 0): each XCC
 *     of the node adds 0x2 | (0x4 << (xcc % 4)), shifted left by 8 for
 *     XCCs 4-7;
 *   - "drm/amdkfd: Don't expect signal mailbox update" (amd-gfx
 *     2026-03-09): event_interrupt_wq_v12_1() passes
 *     signal_mailbox_updated = false for the CP end-of-pipe only (SDMA
 *     TRAP and SQ messages pass true), and lookup_signaled_event_by_
 *     partial_id() then returns idr_find(id) without reading the slot.
 *     Commit e04030139313, Linux 7.1: the emulator applies it under the
 *     v7.1 and v7.3 kernel profiles.
 * A GC 12.1 device is partitioned and its nodes' XCCs run PM4 rings as
 * GC 9.4.3's do (emu_xcc.c); emu_gc121_node_id() is the IH node id of
 * each XCC's interrupts.
 */
#include "emu/emu_gc12_1.h"

uint32_t emu_gc121_interrupt_bitmap(uint32_t xcc_mask)
{
	uint32_t bitmap = 0;

	for (uint32_t xcc = 0; xcc < 8; xcc++) {
		uint32_t b;

		if (!(xcc_mask >> xcc & 1))
			continue;
		b = 0x2u | (0x4u << (xcc % 4));
		if (xcc / 4)
			b <<= 8;
		bitmap |= b;
	}
	return bitmap;
}

/*
 * UNVERIFIED: which node id the IH entry of an interrupt raised on XCC n
 * carries. The bitmap gives each XCC its own bit (0x4 << n) beside a bit
 * shared by the XCCs of one half (0x2); the emulator raises every source on
 * the XCC's own bit, so a wrong bitmap or id shows up as a dropped
 * interrupt (KFDSIG_EMU_DROP_NODE).
 */
uint16_t emu_gc121_node_id(uint32_t xcc)
{
	return (uint16_t)((2u + xcc % 4) + (xcc / 4) * 8);
}

bool emu_gc121_from_node(uint32_t interrupt_bitmap, uint16_t node_id, uint16_t vmid)
{
	/* compute_vmid_bitmap: the emulator's KFD VMIDs are 8..15 (every
	 * process runs in VMID 8, emu_events.c ih_entry()). */
	const uint32_t compute_vmid_bitmap = 0xff00u;

	return node_id < 32 && vmid < 32 && (interrupt_bitmap >> node_id & 1) &&
	       (compute_vmid_bitmap >> vmid & 1);
}

bool emu_gc121_mailbox_updated(const struct emu_gen *g, enum kfdsig_emu_irq_source src,
			       enum kfdsig_emu_kernel_profile profile)
{
	return !(g->irq == KFDSIG_IRQ_V12_1 && src == KFDSIG_EMU_IRQ_CP_EOP &&
		 profile >= KFDSIG_EMU_KERNEL_V7_1);
}

/*
 * The type-3 opcodes "drm/amdgpu: update cp packets for gfx v12_1" (commit
 * 90ddf2794258, Linux 7.1: "Clean up some unsupport CP packets") took out of
 * gfx_v12_1_pkt.h, among them EVENT_WRITE_EOP/EOS, MEM_SEMAPHORE,
 * INTERRUPT, INDIRECT_BUFFER_PASID and AQL_PACKET: the GC 12.1 CP takes
 * none of them. What the firmware does with one is UNVERIFIED; the emulated
 * CP treats it as any opcode it does not know (a bad opcode).
 */
static const uint8_t gc121_removed[] = {
	0x11, 0x17, 0x19, 0x1d, 0x2a, 0x32, 0x33, 0x34, 0x36, 0x39, 0x3a, 0x3b, 0x41,
	0x43, 0x44, 0x47, 0x48, 0x52, 0x53, 0x55, 0x59, 0x5a, 0x5c, 0x6a, 0x71, 0x72,
	0x73, 0x74, 0x75, 0x7c, 0x7d, 0x7e, 0x80, 0x81, 0x83, 0x84, 0x85, 0x86, 0x88,
	0x8b, 0x8e, 0x8f, 0x90, 0x94, 0x96, 0x99, 0x9c, 0x9d, 0x9e, 0xa1,
};

bool emu_gc121_opcode_removed(const struct emu_gen *g, uint32_t opcode)
{
	if (g->irq != KFDSIG_IRQ_V12_1)
		return false;
	for (size_t i = 0; i < sizeof(gc121_removed); i++)
		if (gc121_removed[i] == opcode)
			return true;
	return false;
}
