/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's v12_1 interrupt class (GC 12.1): the ISR's node
 * filter and the mailbox-free CP end-of-pipe path (src/emu/emu_gc12_1.c).
 */
#ifndef KFDSIG_EMU_GC12_1_H
#define KFDSIG_EMU_GC12_1_H

#include <stdbool.h>
#include <stdint.h>

#include <kfdsig/emu.h>

#include "emu/emu_gen.h"

/* XCC 0 of an emulated GC 12.1 device (its nodes: emu_xcc.c). */
#define EMU_GC121_XCC 0u

/* The node's interrupt bitmap: kfd_device.c kfd_setup_interrupt_bitmap(). */
uint32_t emu_gc121_interrupt_bitmap(uint32_t xcc_mask);

/* The IH node id an interrupt from @xcc carries (UNVERIFIED, see .c). */
uint16_t emu_gc121_node_id(uint32_t xcc);

/* kfd_priv.h kfd_irq_is_from_node(): the node takes the IH entry. */
bool emu_gc121_from_node(uint32_t interrupt_bitmap, uint16_t node_id, uint16_t vmid);

/* kfd_signal_event_interrupt()'s signal_mailbox_updated for this class,
 * source and kernel profile: false only for the v12_1 CP end-of-pipe
 * under the v7.1 and v7.3 profiles. */
bool emu_gc121_mailbox_updated(const struct emu_gen *g, enum kfdsig_emu_irq_source src,
			       enum kfdsig_emu_kernel_profile profile);

/* A type-3 opcode the GC 12.1 CP no longer takes (commit 90ddf2794258):
 * false on every other class. */
bool emu_gc121_opcode_removed(const struct emu_gen *g, uint32_t opcode);

#endif
