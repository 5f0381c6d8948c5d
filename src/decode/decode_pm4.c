/* SPDX-License-Identifier: MIT */
/*
 * PM4 part of the decoder: packet lengths from the header (type 3: count +
 * 2; the 0xFFFF1000 filler and type-2 0x80000000: one dword; type 0:
 * count + 2), layouts from pm4_layout.c, and the count checks
 * (../shared/docs/kfd-signaling-facts.md 3.1).
 */
#include "decode/decode_internal.h"
#include "pm4/pm4_defs.h"

/* A dword that cannot start a packet of known length: type 1. */
static bool bad_header(uint32_t h)
{
	return PM4_HDR_TYPE_G(h) == 1;
}

uint32_t kfdsig_pm4_identify(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail,
			     bool final, struct kfdsig_packet *p)
{
	uint32_t h, v;
	size_t i;

	dw_at(dw, avail, 0, &h);
	p->sub_op = PM4_HDR_TYPE_G(h);
	switch (PM4_HDR_TYPE_G(h)) {
	case 3:
		p->opcode = PM4_HDR_OPCODE_G(h);
		p->desc = kfdsig_pm4_desc_lookup(d->o.target, p->opcode);
		p->name = p->desc ? p->desc->name : "UNKNOWN";
		if (!p->desc)
			p->flags |= KFDSIG_PACKET_UNKNOWN;
		if (p->opcode == PM4_OP_NOP && PM4_HDR_COUNT_G(h) == PM4_NOP_FILLER_COUNT)
			return 1;
		return PM4_HDR_COUNT_G(h) + 2;
	case 2:
		p->name = "NOP_TYPE2";
		return 1;
	case 0:
		/* Register writes: base [15:0], count [29:16] as type 3. */
		p->name = "UNKNOWN";
		p->flags |= KFDSIG_PACKET_UNKNOWN;
		return PM4_HDR_COUNT_G(h) + 2;
	default:
		/* Type 1 does not exist on these CPs: merge the run of such
		 * dwords into one UNKNOWN packet and resynchronise after it. */
		p->name = "UNKNOWN";
		p->flags |= KFDSIG_PACKET_UNKNOWN;
		for (i = 1; i < DECODE_UNKNOWN_RUN_MAX; i++) {
			if (!dw_at(dw, avail, i, &v))
				return final ? (uint32_t)i : 0;
			if (!bad_header(v))
				break;
		}
		return (uint32_t)i;
	}
}

/* Packets whose length the layout fixes; others have a minimum. */
static bool fixed_length(uint32_t op)
{
	switch (op) {
	case PM4_OP_RELEASE_MEM:
	case PM4_OP_EVENT_WRITE_EOP:
	case PM4_OP_WAIT_REG_MEM:
	case PM4_OP_INDIRECT_BUFFER:
	case PM4_OP_ACQUIRE_MEM:
	case PM4_OP_DISPATCH_DIRECT:
		return true;
	}
	return false;
}

void kfdsig_pm4_check(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	uint32_t h;

	dw_at(p->dw, p->avail, 0, &h);
	if (p->sub_op == 1) {
		kfdsig_finding(d, p->offset, KFDSIG_SEV_WARNING, "bad-header",
			       "%u dword(s) with PM4 packet type 1, which no CP accepts; "
			       "resynchronising after them",
			       p->ndw);
		return;
	}
	if (p->sub_op == 0) {
		kfdsig_finding(d, p->offset, KFDSIG_SEV_WARNING, "unknown-opcode",
			       "type-0 register write (base 0x%04x, %u dwords): not used on KFD "
			       "user queues; skipped by its count",
			       h & 0xffffu, p->ndw);
		return;
	}
	if (p->sub_op != 3)
		return;
	if (!p->desc) {
		kfdsig_finding(d, p->offset, KFDSIG_SEV_INFO, "unknown-opcode",
			       "opcode 0x%02x has no kfdsig layout; skipped %u dwords by its count",
			       p->opcode, p->ndw);
		return;
	}
	if (p->ndw == 1 && p->opcode == PM4_OP_NOP)
		return; /* one-dword filler (0xFFFF1000 and kin) */
	if (p->ndw < p->desc->min_dw)
		kfdsig_finding(d, p->offset, KFDSIG_SEV_ERROR, "count-mismatch",
			       "%s: the header count gives %u dwords but the packet has %u on "
			       "%s; the fields past dword %u are not decoded and the CP will "
			       "read the next packet as its tail",
			       p->name, p->ndw, p->desc->min_dw, d->o.target->name, p->ndw - 1);
	else if (p->ndw > p->desc->min_dw && fixed_length(p->opcode))
		kfdsig_finding(d, p->offset, KFDSIG_SEV_WARNING, "count-mismatch",
			       "%s: the header count gives %u dwords but the packet has %u on %s; "
			       "the extra dwords are skipped",
			       p->name, p->ndw, p->desc->min_dw, d->o.target->name);
	else if (p->opcode == PM4_OP_EVENT_WRITE && p->ndw != 2 && p->ndw != 4)
		kfdsig_finding(d, p->offset, KFDSIG_SEV_WARNING, "count-mismatch",
			       "EVENT_WRITE has 2 dwords, or 4 with an address; this one has %u",
			       p->ndw);
}
