/* SPDX-License-Identifier: MIT */
/*
 * Multi-XCC GPUs of the emulated KFD (GC 9.4.3 / 9.4.4 / 9.5.0 / 12.1, the v9_4_3
 * and v12_1 interrupt classes): compute partition modes, the KFD nodes and XCCs they
 * make, each node's compute VMIDs and interrupt bitmap, and the IH node id
 * an interrupt from an XCC carries (src/emu/emu_xcc.c, docs/multi-xcc.md).
 */
#ifndef KFDSIG_EMU_XCC_H
#define KFDSIG_EMU_XCC_H

#include <stdbool.h>
#include <stdint.h>

#include <kfdsig/emu.h>

#include "emu/emu_gen.h"

/* One KFD node of a partitioned device. */
struct emu_xcc_node {
	uint32_t num_xcc;	      /* XCCs of the node */
	uint32_t xcc_first;	      /* physical index of its first XCC */
	uint32_t compute_vmid_bitmap; /* VMIDs the node's ISR accepts */
	uint32_t interrupt_bitmap;    /* node ids the node's ISR accepts (0: no filter) */
};

/* XCCs of a device of this generation when the spec does not say: 8 on the
 * v9_4_3 and v12_1 classes, 1 elsewhere (see .c). */
uint32_t emu_xcc_default(const struct emu_gen *g);

/* Does this generation have compute partitions (the v9_4_3 and v12_1
 * classes)? */
bool emu_xcc_partitioned(const struct emu_gen *g);

/*
 * emu_xcc_nodes() - the KFD nodes a device of @num_xcc XCCs makes in
 * @mode (KFDSIG_EMU_PARTITION_DEFAULT: SPX). Fills out[0 .. n-1].
 * Return: n (>= 1), or -EINVAL (set_error) for a mode the kernel refuses
 * on this device or more than @max nodes.
 */
int emu_xcc_nodes(const struct emu_gen *g, uint32_t num_xcc, enum kfdsig_emu_partition mode,
		  struct emu_xcc_node *out, uint32_t max);

/* kfd_device.c kfd_setup_interrupt_bitmap(), GC 9.4.3 / 9.4.4: the node's
 * bitmap for its physical XCCs @xcc_mask. */
uint32_t emu_xcc_interrupt_bitmap(uint32_t xcc_mask);

/* The IH node id of an interrupt a source raises on physical XCC @xcc
 * (UNVERIFIED, see .c). */
uint16_t emu_xcc_node_id(uint32_t xcc, enum kfdsig_emu_irq_source src);

/* The VMID the emulated processes run in on a node (8 when the node has
 * it, else its first compute VMID). */
uint16_t emu_xcc_vmid(uint32_t compute_vmid_bitmap);

/* kfd_priv.h kfd_irq_is_from_node(): does the node take the entry? */
bool emu_xcc_from_node(const struct emu_xcc_node *n, uint16_t node_id, uint16_t vmid);

/* The partition's name ("spx", ...), or NULL for an unknown value. */
const char *emu_xcc_partition_name(enum kfdsig_emu_partition mode);

/* The mode a spec names ("spx" .. "cpx"), or -1. */
int emu_xcc_partition_by_name(const char *name);

#endif
