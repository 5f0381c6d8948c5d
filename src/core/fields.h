/* SPDX-License-Identifier: MIT */
/*
 * The machinery of the per-engine field lists (src/pm4/pm4_fields.def,
 * src/sdma/sdma_fields.def): each line FIELD(packet, name, dword, shift,
 * width) becomes the constants <P><packet>_<name>_DW, _SHIFT and _WIDTH
 * (P is the engine's prefix, PM4_F_ or SDMA_F_), which these macros read.
 */
#ifndef KFDSIG_CORE_FIELDS_H
#define KFDSIG_CORE_FIELDS_H

#include <stdint.h>

/* One list line as enum constants: enum { #include the list }. */
#define FIELD_CONSTS(P, pkt, name, dw, shift, width)                    \
	P##pkt##_##name##_DW = (dw), P##pkt##_##name##_SHIFT = (shift), \
	P##pkt##_##name##_WIDTH = (width),
/* One list line as a compile-time check that the field fits its dword. */
#define FIELD_FITS(pkt, name, dw, shift, width)                 \
	_Static_assert((width) >= 1 && (shift) + (width) <= 32, \
		       #pkt "." #name " does not fit a dword");

#define FIELD_DW(P, pkt, name) P##pkt##_##name##_DW
#define FIELD_MASK(P, pkt, name) (0xffffffffu >> (32 - P##pkt##_##name##_WIDTH))
/* @x shifted into the field (bits beyond its width dropped). */
#define FIELD_PUT(P, pkt, name, x) \
	(((uint32_t)(x)&FIELD_MASK(P, pkt, name)) << P##pkt##_##name##_SHIFT)
/* The field's value in dword @v. */
#define FIELD_GET(P, pkt, name, v) \
	(((uint32_t)(v) >> P##pkt##_##name##_SHIFT) & FIELD_MASK(P, pkt, name))

#endif
