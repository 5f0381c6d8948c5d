/* SPDX-License-Identifier: MIT */
/*
 * Multi-XCC devices of the emulated KFD (GC 9.4.3 / 9.4.4 / 9.5.0 / 12.1), read
 * from the kernel (docs/multi-xcc.md has the whole account):
 *   - partitions: amdgpu aqua_vanjaram.c __aqua_vanjaram_get_xcc_per_xcp()
 *     (SPX all XCCs, DPX / TPX / QPX a half / third / quarter, CPX one per
 *     partition) and __aqua_vanjaram_is_valid_mode() with one memory
 *     partition (NPS1): SPX any, DPX when num_xcc % 4 == 0, TPX when
 *     num_xcc % 3 == 0, QPX when num_xcc / 4 >= 2, CPX when num_xcc > 1;
 *     kfd_device.c kgd2kfd_device_init() makes one KFD node per partition
 *     (num_nodes = partitions), each with its XCC mask;
 *   - VMIDs: the KFD VMIDs are 3-15 on these GC versions (gmc_v9_0.c
 *     first_kfd_vmid 3); in CPX with more than one node kgd2kfd_device_init()
 *     halves them: vmid_num_kfd = 13 / 2 = 6 from VMID 4, even nodes take
 *     4-9 and odd nodes 10-15 (compute_vmid_bitmap);
 *   - interrupts: event_interrupt_isr_v9_4_3() (kfd_int_process_v9.c) asks
 *     kfd_irq_is_from_node(): the IH entry's node id set in the node's
 *     interrupt_bitmap and its VMID in the node's compute_vmid_bitmap;
 *     kfd_setup_interrupt_bitmap() gives physical XCC n the bits
 *     (n % 2 ? 5 : 3) << (4 * (n / 2)): bit 4a shared by the two XCCs of
 *     AID a, bit 4a+1 XCC 2a's own, bit 4a+2 XCC 2a+1's own.
 */
#include <errno.h>
#include <string.h>

#include "emu/emu_xcc.h"
#include "core/internal.h"
#include "emu/emu_gc12_1.h"

/* AMDGPU_NUM_VMID 16, first_kfd_vmid 3 on GC 9.4.3 / 9.4.4 / 9.5.0
 * (gmc_v9_0.c gmc_v9_0_sw_init()). */
#define V943_KFD_VMIDS 0xfff8u

/* GC 12.1 (the v12_1 class) partitions as GC 9.4.3 does: soc_v1_0.c
 * __soc_v1_0_get_xcc_per_xcp() and __soc_v1_0_is_valid_mode() are
 * aqua_vanjaram.c's rules (NPS1), kfd_mqd_manager_v12_1.c
 * init_mqd_v12_1() builds one MQD per XCC of the node, a PM4 queue's with
 * logical XCC 0, TG chunk size 0 and pm4_target_xcc, as init_mqd_v9_4_3(). */
bool emu_xcc_partitioned(const struct emu_gen *g)
{
	return g->irq == KFDSIG_IRQ_V9_4_3 || g->irq == KFDSIG_IRQ_V12_1;
}

/* 8 XCCs: MI300X / MI325X (GC 9.4.3) and MI350X / MI355X (GC 9.5.0) have
 * eight XCDs (AMD CDNA 3 and CDNA 4 architecture white papers); MI300A
 * has six: a spec sets that with kfdsig_emu_gpu_desc.num_xcc. GC 12.1:
 * the kernel reads the count from IP discovery and names no product;
 * soc_v1_0.c soc_v1_0_init_soc_config() puts 4 XCCs on an AID and
 * kfd_setup_interrupt_bitmap() (case IP_VERSION(12, 1, 0)) gives bits to
 * XCCs 0-7, so 8 is the most one node spans; the emulator takes that
 * largest case (which products have how many is UNVERIFIED). */
uint32_t emu_xcc_default(const struct emu_gen *g)
{
	return emu_xcc_partitioned(g) ? 8 : 1;
}

static uint32_t per_partition(uint32_t num_xcc, enum kfdsig_emu_partition mode)
{
	switch (mode) {
	case KFDSIG_EMU_PARTITION_DEFAULT:
	case KFDSIG_EMU_PARTITION_SPX:
		return num_xcc;
	case KFDSIG_EMU_PARTITION_DPX:
		return num_xcc % 4 == 0 ? num_xcc / 2 : 0;
	case KFDSIG_EMU_PARTITION_TPX:
		return num_xcc % 3 == 0 ? num_xcc / 3 : 0;
	case KFDSIG_EMU_PARTITION_QPX:
		return num_xcc / 4 >= 2 ? num_xcc / 4 : 0;
	case KFDSIG_EMU_PARTITION_CPX:
		return num_xcc > 1 ? 1 : 0;
	default:
		return 0;
	}
}

int emu_xcc_nodes(const struct emu_gen *g, uint32_t num_xcc, enum kfdsig_emu_partition mode,
		  struct emu_xcc_node *out, uint32_t max)
{
	uint32_t per, n;
	bool cpx;

	if (!emu_xcc_partitioned(g)) {
		if (mode != KFDSIG_EMU_PARTITION_DEFAULT)
			return set_error(
				EINVAL, "partition= needs a GC 9.4.3 / 9.4.4 / 9.5.0 / 12.1 target "
					"(compute partitions)");
		if (!max)
			return set_error(EINVAL, "no room for a node");
		/* One node, no node filter in its ISR class (the v12_1 filter
		 * lives in emu_gc12_1.c). */
		out[0] = (struct emu_xcc_node){ .num_xcc = num_xcc ? num_xcc : 1,
						.compute_vmid_bitmap = 0xff00u };
		return 1;
	}
	if (g->irq == KFDSIG_IRQ_V12_1 && (!num_xcc || num_xcc > 8))
		return set_error(EINVAL, "%u XCCs: a GC 12.1 device has 1 to 8", num_xcc);
	if (!num_xcc || num_xcc > 16)
		return set_error(EINVAL, "%u XCCs: a GC 9.4.3-class device has 1 to 16", num_xcc);
	per = per_partition(num_xcc, mode);
	if (!per)
		return set_error(EINVAL, "partition %s is not valid on a device of %u XCCs",
				 emu_xcc_partition_name(mode) ? emu_xcc_partition_name(mode) : "?",
				 num_xcc);
	n = num_xcc / per;
	if (n > max)
		return set_error(EINVAL, "partition %s makes %u KFD nodes, more than the %u left",
				 emu_xcc_partition_name(mode), n, max);
	cpx = mode == KFDSIG_EMU_PARTITION_CPX && n != 1;
	for (uint32_t i = 0; i < n; i++) {
		struct emu_xcc_node *x = &out[i];

		x->num_xcc = per;
		x->xcc_first = i * per;
		if (g->irq == KFDSIG_IRQ_V12_1) {
			/* The v12_1 bitmap (emu_gc12_1.c); the emulator's KFD
			 * VMIDs 8-15 on every node: whether GC 12.1 splits
			 * them in CPX as kgd2kfd_device_init() does on GC
			 * 9.4.3 is UNVERIFIED. */
			x->interrupt_bitmap =
				emu_gc121_interrupt_bitmap(((1u << per) - 1) << x->xcc_first);
			x->compute_vmid_bitmap = 0xff00u;
			continue;
		}
		x->interrupt_bitmap = emu_xcc_interrupt_bitmap(((1u << per) - 1) << x->xcc_first);
		/* kgd2kfd_device_init(): CPX halves VMIDs 4-15 between
		 * neighbouring nodes; else the whole KFD range. */
		x->compute_vmid_bitmap = !cpx ? V943_KFD_VMIDS : i % 2 == 0 ? 0x03f0u : 0xfc00u;
	}
	return (int)n;
}

uint32_t emu_xcc_interrupt_bitmap(uint32_t xcc_mask)
{
	uint32_t bitmap = 0;

	for (uint32_t xcc = 0; xcc < 16; xcc++)
		if (xcc_mask >> xcc & 1)
			bitmap |= (xcc % 2 ? 5u : 3u) << (4 * (xcc / 2));
	return bitmap;
}

/*
 * UNVERIFIED: which node id the IH entry of an interrupt raised on XCC n
 * carries. The bitmap gives each XCC its own bit and the AID a shared one;
 * the emulator raises the CP's and the shader unit's interrupts on the
 * XCC's own bit (4 * (n / 2) + 1 + n % 2) and SDMA's (an AID engine) on the
 * AID's shared bit (4 * (n / 2)), so a wrong bitmap, id or VMID split shows
 * up as a dropped interrupt (KFDSIG_EMU_DROP_NODE).
 */
uint16_t emu_xcc_node_id(uint32_t xcc, enum kfdsig_emu_irq_source src)
{
	uint32_t aid_bit = 4 * (xcc / 2);

	if (src == KFDSIG_EMU_IRQ_SDMA_TRAP)
		return (uint16_t)aid_bit;
	return (uint16_t)(aid_bit + 1 + xcc % 2);
}

uint16_t emu_xcc_vmid(uint32_t compute_vmid_bitmap)
{
	if (compute_vmid_bitmap >> 8 & 1)
		return 8;
	for (uint16_t v = 0; v < 16; v++)
		if (compute_vmid_bitmap >> v & 1)
			return v;
	return 8;
}

bool emu_xcc_from_node(const struct emu_xcc_node *n, uint16_t node_id, uint16_t vmid)
{
	return node_id < 32 && vmid < 32 && (n->interrupt_bitmap >> node_id & 1) &&
	       (n->compute_vmid_bitmap >> vmid & 1);
}

static const char *const names[] = {
	[KFDSIG_EMU_PARTITION_DEFAULT] = "spx", [KFDSIG_EMU_PARTITION_SPX] = "spx",
	[KFDSIG_EMU_PARTITION_DPX] = "dpx",	[KFDSIG_EMU_PARTITION_TPX] = "tpx",
	[KFDSIG_EMU_PARTITION_QPX] = "qpx",	[KFDSIG_EMU_PARTITION_CPX] = "cpx",
};

const char *emu_xcc_partition_name(enum kfdsig_emu_partition mode)
{
	return (unsigned)mode < sizeof(names) / sizeof(names[0]) ? names[mode] : NULL;
}

int emu_xcc_partition_by_name(const char *name)
{
	for (int i = KFDSIG_EMU_PARTITION_SPX; i <= KFDSIG_EMU_PARTITION_CPX; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}
