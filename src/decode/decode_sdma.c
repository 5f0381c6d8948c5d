/* SPDX-License-Identifier: MIT */
/*
 * SDMA part of the decoder. SDMA headers carry no length: NOP takes it from
 * its count, WRITE linear from its count dword, the other known packets
 * have fixed lengths (sdma_layout.c, kfdsig_sdma_packet_dw()); an unknown
 * op has no knowable length, so the decoder skips the run of dwords up to
 * the next known header as one SKIPPED packet (decode.c, skip_run).
 */
#include "decode/decode_internal.h"
#include "sdma/sdma_defs.h"

/* A NOP header has sub-op 0 (SDMA_PKT_NOP_HEADER in the kernel's
 * sdma_v4_0 / v5 / v6 packet headers); other ops need a layout. */
static bool known(const struct kfdsig_decoder *d, uint32_t h)
{
	if (SDMA_HDR_OP_G(h) == SDMA_OP_NOP)
		return SDMA_HDR_SUB_OP_G(h) == 0;
	return sdma_desc_lookup(d->o.target, SDMA_HDR_OP_G(h), SDMA_HDR_SUB_OP_G(h));
}

/*
 * Keep what @h identified as in the header cache (decode.c walk() reads
 * it): every known header but WRITE's, whose length is in its count
 * dword, says all there is by itself. sdma_check() finds nothing in them
 * (it looks at WRITE only); the lint looks at FENCE and TRAP.
 */
static void remember(struct kfdsig_decoder *d, uint32_t h, uint32_t len,
		     const struct kfdsig_packet *p)
{
	struct pm4_hdr *e = &d->hdr[pm4_hdr_slot(h)];

	e->h = h;
	e->len = len;
	e->desc = p->desc;
	e->name = p->name;
	e->opcode = p->opcode;
	e->sub_op = p->sub_op;
	e->flags = p->flags;
	e->quiet = true;
	e->lint = p->opcode == SDMA_OP_FENCE || p->opcode == SDMA_OP_TRAP;
}

enum start_ok sdma_start_ok(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail,
			    bool final)
{
	uint32_t h;

	(void) final;
	dw_at(dw, avail, 0, &h);
	return known(d, h) ? START_YES : START_NO;
}

uint32_t sdma_identify(struct kfdsig_decoder *d, const uint32_t *dw, size_t avail, bool final,
		       struct kfdsig_packet *p)
{
	const struct kfdsig_target *t = d->o.target;
	uint32_t h, v;

	dw_at(dw, avail, 0, &h);
	if (!known(d, h))
		return skip_run(d, dw, avail, final, p, sdma_start_ok);
	p->opcode = SDMA_HDR_OP_G(h);
	p->sub_op = SDMA_HDR_SUB_OP_G(h);
	if (p->opcode == SDMA_OP_NOP) {
		p->desc = sdma_desc_lookup(t, SDMA_OP_NOP, 0);
		p->name = "NOP";
		remember(d, h, SDMA_GET(NOP, count, h) + 1, p);
		return SDMA_GET(NOP, count, h) + 1;
	}
	p->desc = sdma_desc_lookup(t, p->opcode, p->sub_op);
	p->name = p->desc->name;
	if (p->opcode != SDMA_OP_WRITE) {
		remember(d, h, p->desc->min_dw, p);
		return p->desc->min_dw;
	}
	if (!dw_at(dw, avail, SDMA_DW(WRITE, count), &v))
		return final ? SDMA_WRITE_HDR_DW : 0;
	v = SDMA_GET(WRITE, count, v);
	return SDMA_WRITE_HDR_DW + v + (SDMA_COUNT_IS_MINUS_ONE(t->sdma_ip[0]) ? 1 : 0);
}

void sdma_check(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	uint32_t v;

	if (p->flags & KFDSIG_PACKET_SKIPPED)
		return;
	if (p->opcode == SDMA_OP_WRITE && p->ndw == SDMA_WRITE_HDR_DW &&
	    dw_at(p->dw, p->avail, SDMA_DW(WRITE, count), &v) &&
	    !SDMA_COUNT_IS_MINUS_ONE(d->o.target->sdma_ip[0]))
		add_finding(d, p->offset, KFDSIG_SEV_WARNING, "count-mismatch",
			    "WRITE_LINEAR with count 0 on SDMA %u.x, where the count is the "
			    "number of data dwords: it writes nothing",
			    d->o.target->sdma_ip[0]);
}
