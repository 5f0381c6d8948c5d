/* SPDX-License-Identifier: MIT */
/* Shorthands for writing the field-layout tables (pm4_layout.c,
 * sdma_layout.c). */
#ifndef KFDSIG_CORE_LAYOUT_H
#define KFDSIG_CORE_LAYOUT_H

#include "core/internal.h"

/* A field: name, dword index (0 = header), lowest bit, width in bits. */
#define F(n, d, s, w)                                              \
	{                                                          \
		.name = (n), .dw = (d), .shift = (s), .width = (w) \
	}
/* A field whose values have names (array v, indexed by value). */
#define FV(n, d, s, w, v)                                           \
	{                                                           \
		.name = (n), .dw = (d), .shift = (s), .width = (w), \
		.nvalues = KFDSIG_ARRAY_SIZE(v), .values = (v)      \
	}
/* A field of a field list (core/fields.h; P its prefix): the name shown is
 * the list's name, the position the list's. */
#define FL(P, pkt, n) F(#n, P##pkt##_##n##_DW, P##pkt##_##n##_SHIFT, P##pkt##_##n##_WIDTH)
#define FLV(P, pkt, n, v) FV(#n, P##pkt##_##n##_DW, P##pkt##_##n##_SHIFT, P##pkt##_##n##_WIDTH, v)
/* A packet: name, opcode, dwords including the header, field array. */
#define DESC(n, op, dw, f)                                                                    \
	{                                                                                     \
		.name = (n), .opcode = (op), .min_dw = (dw), .nfields = KFDSIG_ARRAY_SIZE(f), \
		.fields = (f)                                                                 \
	}

/*
 * Table lookups without error reporting, for the decoder's hot path: NULL
 * when there is no layout (the public kfdsig_pm4_packet_desc() and
 * kfdsig_sdma_packet_desc() wrap them and record the reason).
 */
const struct kfdsig_packet_desc *pm4_desc_lookup(const struct kfdsig_target *t,
						 unsigned int opcode);
/* The name of a type-3 opcode the target's CP no longer takes (GC 12.1,
 * pm4_layout.c), or NULL. */
const char *pm4_removed_opcode(const struct kfdsig_target *t, unsigned int opcode);
const struct kfdsig_packet_desc *sdma_desc_lookup(const struct kfdsig_target *t, unsigned int op,
						  unsigned int sub_op);

#endif
