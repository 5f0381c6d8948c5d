/* SPDX-License-Identifier: MIT */
/*
 * SDMA part of the decoder. SDMA headers carry no length: NOP takes it from
 * its count, WRITE linear from its count dword, the other known packets
 * have fixed lengths (sdma_layout.c, kfdsig_sdma_packet_dw()); an unknown
 * op has no knowable length, so the decoder reports it and resumes at the
 * next dword, merging a run of unknown dwords into one UNKNOWN packet.
 */
#include "decode/decode_internal.h"
#include "sdma/sdma_defs.h"

static bool known(const struct kfdsig_decoder *d, uint32_t h)
{
	return SDMA_HDR_OP_G(h) == SDMA_OP_NOP ||
	       kfdsig_sdma_desc_lookup(d->o.target, SDMA_HDR_OP_G(h), SDMA_HDR_SUB_OP_G(h));
}

uint32_t kfdsig_sdma_identify(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail,
			      bool final, struct kfdsig_packet *p)
{
	const struct kfdsig_target *t = d->o.target;
	uint32_t h, v;
	size_t i;

	dw_at(dw, avail, 0, &h);
	p->opcode = SDMA_HDR_OP_G(h);
	p->sub_op = SDMA_HDR_SUB_OP_G(h);
	if (p->opcode == SDMA_OP_NOP) {
		/* Any sub-op: the engine reads a NOP by its count. */
		p->desc = kfdsig_sdma_desc_lookup(t, SDMA_OP_NOP, 0);
		p->name = "NOP";
		return SDMA_NOP_COUNT_G(h) + 1;
	}
	p->desc = kfdsig_sdma_desc_lookup(t, p->opcode, p->sub_op);
	if (p->desc) {
		p->name = p->desc->name;
		if (p->opcode != SDMA_OP_WRITE)
			return p->desc->min_dw;
		if (!dw_at(dw, avail, 3, &v))
			return final ? SDMA_WRITE_HDR_DW : 0;
		v &= (1u << SDMA_WRITE_COUNT_WIDTH) - 1;
		return SDMA_WRITE_HDR_DW + v + (SDMA_COUNT_IS_MINUS_ONE(t->sdma_ip[0]) ? 1 : 0);
	}
	p->name = "UNKNOWN";
	p->flags |= KFDSIG_PACKET_UNKNOWN;
	for (i = 1; i < DECODE_UNKNOWN_RUN_MAX; i++) {
		if (!dw_at(dw, avail, i, &v))
			return final ? (uint32_t)i : 0;
		if (known(d, v))
			break;
	}
	return (uint32_t)i;
}

void kfdsig_sdma_check(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	uint32_t v;

	if (p->flags & KFDSIG_PACKET_UNKNOWN) {
		kfdsig_finding(d, p->offset, KFDSIG_SEV_WARNING, "unknown-opcode",
			       "op %u sub_op %u has no kfdsig layout and no knowable length; "
			       "%u dword(s) skipped up to the next known header",
			       p->opcode, p->sub_op, p->ndw);
		return;
	}
	if (p->opcode == SDMA_OP_WRITE && p->ndw == SDMA_WRITE_HDR_DW &&
	    dw_at(p->dw, p->avail, 3, &v) && !SDMA_COUNT_IS_MINUS_ONE(d->o.target->sdma_ip[0]))
		kfdsig_finding(d, p->offset, KFDSIG_SEV_WARNING, "count-mismatch",
			       "WRITE_LINEAR with count 0 on SDMA %u.x, where the count is the "
			       "number of data dwords: it writes nothing",
			       d->o.target->sdma_ip[0]);
}
