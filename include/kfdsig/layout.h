/* SPDX-License-Identifier: MIT */
/*
 * Field layouts of the packets kfdsig writes and decodes, shared by every
 * engine: kfdsig_pm4_packet_desc() (kfdsig/pm4.h),
 * kfdsig_sdma_packet_desc() (kfdsig/sdma.h), kfdsig_aql_packet_desc()
 * (kfdsig/aql.h) and the decoder's packets (kfdsig/decode.h).
 */
#ifndef KFDSIG_LAYOUT_H
#define KFDSIG_LAYOUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One field of a packet; a packet's table lists them (src/pm4/pm4_layout.c,
 * src/sdma/sdma_layout.c, src/decode/decode_aql.c). */
struct kfdsig_field {
	const char *name;
	uint8_t dw;    /* dword index within the packet, 0 = header */
	uint8_t shift; /* lowest bit */
	uint8_t width; /* bits */
	/* Names of the values 0 .. nvalues-1 (NULL entries: no name). */
	uint8_t nvalues;
	const char *const *values;
};

struct kfdsig_packet_desc {
	const char *name; /* "RELEASE_MEM" */
	uint8_t opcode;
	uint8_t min_dw; /* dwords including the header */
	uint16_t nfields;
	const struct kfdsig_field *fields;
};

/** kfdsig_field_get() - the value of @fld in packet @pkt (no bounds check
 * on @pkt: the caller owns a packet of at least fld->dw + 1 dwords). */
static inline uint32_t kfdsig_field_get(const struct kfdsig_field *fld, const uint32_t *pkt)
{
	uint32_t v = pkt[fld->dw] >> fld->shift;

	return fld->width >= 32 ? v : v & ((1u << fld->width) - 1);
}

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_LAYOUT_H */
