/* SPDX-License-Identifier: MIT */
/*
 * PM4 part of the decoder: packet lengths from the header (type 3: count +
 * 2; the 0xFFFF1000 filler and type-2 headers: one dword; the CP reads them
 * so: amdgpu gfx_v9_0_ring_insert_nop / PACKET3 in soc15d.h), layouts from
 * pm4_layout.c, and the count checks (and on GC 12.1 the opcodes its header
 * dropped, pm4_removed_opcode()). Dwords that cannot start a packet
 * (type 0 and 1, reserved header bits, an unknown opcode whose count does
 * not land on another header) are skipped up to the next plausible header.
 */
#include "decode/decode_internal.h"
#include "pm4/pm4_defs.h"

/*
 * Header bits 7:3 are reserved in every type-3 header the kernel and Mesa
 * build (bit 0 predicate, bit 1 shader type, bit 2 used by some gfx11
 * draw packets: left alone). A set reserved bit, a type-0 register write
 * (never used on KFD user queues) or a type-1 header (no CP accepts one)
 * means the dword is not a packet start.
 */
#define PM4_HDR_RESERVED 0xf8u

/* Length of the packet whose header is @h, 0 if @h cannot start one. */
static uint32_t plausible_len(uint32_t h)
{
	/* The type-2 filler the kernel writes (PACKET2(0), cik_sdma/gfx_v8_0
	 * rings); a type-2 header with pad bits set is not a packet. */
	if (h == PM4_TYPE2_NOP)
		return 1;
	if (PM4_HDR_TYPE_G(h) != 3 || (h & PM4_HDR_RESERVED))
		return 0;
	if (PM4_HDR_OPCODE_G(h) == PM4_OP_NOP && PM4_HDR_COUNT_G(h) == PM4_NOP_FILLER_COUNT)
		return 1;
	return PM4_HDR_COUNT_G(h) + 2;
}

enum start_ok pm4_start_ok(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail,
			   bool final)
{
	uint32_t h, next, len;

	dw_at(dw, avail, 0, &h);
	len = plausible_len(h);
	if (!len)
		return START_NO;
	if (h == PM4_TYPE2_NOP || pm4_desc_lookup(d->o.target, PM4_HDR_OPCODE_G(h)))
		return START_YES;
	/* An opcode without a layout: only its count says where it ends, so
	 * believe it when a plausible header (or the end) follows. */
	if (!dw_at(dw, avail, len, &next)) {
		if (!final)
			return START_MORE;
		return len == avail ? START_YES : START_NO;
	}
	return plausible_len(next) ? START_YES : START_NO;
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
	case PM4_OP_PROTECTED_FENCE_SIGNAL:
	case PM4_OP_HDP_FLUSH:
		return true;
	}
	return false;
}

/* What pm4_check() finds in @p: a function of the header alone. */
enum pm4_issue {
	PM4_FINE,
	PM4_UNKNOWN_OP,
	PM4_SHORT,
	PM4_LONG,
	PM4_EVENT_WRITE_LEN,
};

static enum pm4_issue pm4_issue(const struct kfdsig_packet *p)
{
	if (p->flags & KFDSIG_PACKET_SKIPPED || p->sub_op != 3)
		return PM4_FINE;
	if (!p->desc)
		return PM4_UNKNOWN_OP;
	if (p->ndw == 1 && p->opcode == PM4_OP_NOP)
		return PM4_FINE; /* one-dword filler (0xFFFF1000 and kin) */
	if (p->ndw < p->desc->min_dw)
		return PM4_SHORT;
	if (p->ndw > p->desc->min_dw && fixed_length(p->opcode))
		return PM4_LONG;
	if (p->opcode == PM4_OP_EVENT_WRITE && p->ndw != 2 && p->ndw != 4)
		return PM4_EVENT_WRITE_LEN;
	return PM4_FINE;
}

void pm4_check(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	switch (pm4_issue(p)) {
	case PM4_FINE:
		break;
	case PM4_UNKNOWN_OP:
		if (pm4_removed_opcode(d->o.target, p->opcode)) {
			add_finding(d, p->offset, KFDSIG_SEV_ERROR, "removed-opcode",
				    "%s (opcode 0x%02x) is not a %s packet: GC 12.1 dropped it "
				    "(gfx_v12_1_pkt.h, commit 90ddf2794258); the CP raises a bad "
				    "opcode",
				    pm4_removed_opcode(d->o.target, p->opcode), p->opcode,
				    d->o.target->name);
			break;
		}
		if (p->opcode == PM4_OP_PROTECTED_FENCE_SIGNAL ||
		    p->opcode == PM4_OP_FENCE_WAIT_MULTI) {
			add_finding(d, p->offset, KFDSIG_SEV_ERROR, "userq-target",
				    "%s (opcode 0x%02x) is a user-mode queue packet of GFX11 and "
				    "GFX12.0 (Mesa sid.h); %s has no user queues to run it",
				    p->opcode == PM4_OP_PROTECTED_FENCE_SIGNAL
					    ? "PROTECTED_FENCE_SIGNAL"
					    : "FENCE_WAIT_MULTI",
				    p->opcode, d->o.target->name);
			break;
		}
		add_finding(d, p->offset, KFDSIG_SEV_INFO, "unknown-opcode",
			    "opcode 0x%02x has no kfdsig layout; skipped %u dwords by its count",
			    p->opcode, p->ndw);
		break;
	case PM4_SHORT:
		add_finding(d, p->offset, KFDSIG_SEV_ERROR, "count-mismatch",
			    "%s: the header count gives %u dwords but the packet has %u on "
			    "%s; the fields past dword %u are not decoded and the CP will "
			    "read the next packet as its tail",
			    p->name, p->ndw, p->desc->min_dw, d->o.target->name, p->ndw - 1);
		break;
	case PM4_LONG:
		add_finding(d, p->offset, KFDSIG_SEV_WARNING, "count-mismatch",
			    "%s: the header count gives %u dwords but the packet has %u on %s; "
			    "the extra dwords are skipped",
			    p->name, p->ndw, p->desc->min_dw, d->o.target->name);
		break;
	case PM4_EVENT_WRITE_LEN:
		add_finding(d, p->offset, KFDSIG_SEV_WARNING, "count-mismatch",
			    "EVENT_WRITE has 2 dwords, or 4 with an address; this one has %u",
			    p->ndw);
		break;
	}
}

/* Keep what @h identified as in the header cache (walk() reads it). */
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
	{
		struct kfdsig_packet q = *p;

		q.ndw = q.avail = len;
		e->quiet = pm4_issue(&q) == PM4_FINE;
		e->lint = lint_pm4_wants(&q);
	}
}

uint32_t pm4_identify(struct kfdsig_decoder *d, const uint32_t *dw, size_t avail, bool final,
		      struct kfdsig_packet *p)
{
	enum start_ok ok = pm4_start_ok(d, dw, avail, final);
	uint32_t h;

	if (ok == START_MORE)
		return 0;
	if (ok == START_NO)
		return skip_run(d, dw, avail, final, p, pm4_start_ok);
	dw_at(dw, avail, 0, &h);
	p->sub_op = PM4_HDR_TYPE_G(h);
	if (p->sub_op == 2) {
		p->name = "NOP_TYPE2";
		remember(d, h, 1, p);
		return 1;
	}
	p->opcode = PM4_HDR_OPCODE_G(h);
	p->desc = pm4_desc_lookup(d->o.target, p->opcode);
	p->name = p->desc ? p->desc->name : "UNKNOWN";
	if (!p->desc)
		p->flags |= KFDSIG_PACKET_UNKNOWN;
	else /* start_ok() said yes without looking past the header */
		remember(d, h, plausible_len(h), p);
	return plausible_len(h);
}
