/* SPDX-License-Identifier: MIT */
/*
 * AQL part of the decoder: every packet is one 64-byte queue slot (16
 * dwords), its type in the low byte of the header (HSA Platform System
 * Architecture Specification 1.2, section 2.9; ROCR-Runtime hsa.h). Field
 * layouts: hsa_kernel_dispatch_packet_t, hsa_agent_dispatch_packet_t,
 * hsa_barrier_and/or_packet_t (hsa.h) and the AMD PM4-IB vendor packet
 * (ROCR-Runtime amd_aql_queue.cpp, AqlQueue::ExecutePM4). 64-bit fields
 * are shown as _lo/_hi dwords. Since every slot has the same length, an
 * unknown type never needs a resynchronisation: it is one UNKNOWN slot.
 */
#include <errno.h>

#include <kfdsig/aql.h>

#include "decode/decode_internal.h"

#define AQL_DW (KFDSIG_AQL_PACKET_SIZE / 4)

static const char *const scope_names[] = { "none", "agent", "system" };

#define HDR_FIELDS                                               \
	F("type", 0, 0, 8), F("barrier", 0, 8, 1),               \
		FV("acquire_fence_scope", 0, 9, 2, scope_names), \
		FV("release_fence_scope", 0, 11, 2, scope_names), F("header_reserved", 0, 13, 3)
#define SIGNAL_FIELDS F("completion_signal_lo", 14, 0, 32), F("completion_signal_hi", 15, 0, 32)

static const struct kfdsig_field f_invalid[] = { HDR_FIELDS };

static const struct kfdsig_field f_dispatch[] = {
	HDR_FIELDS,
	F("dimensions", 0, 16, 2),
	F("setup_reserved", 0, 18, 14),
	F("workgroup_size_x", 1, 0, 16),
	F("workgroup_size_y", 1, 16, 16),
	F("workgroup_size_z", 2, 0, 16),
	F("grid_size_x", 3, 0, 32),
	F("grid_size_y", 4, 0, 32),
	F("grid_size_z", 5, 0, 32),
	F("private_segment_size", 6, 0, 32),
	F("group_segment_size", 7, 0, 32),
	F("kernel_object_lo", 8, 0, 32),
	F("kernel_object_hi", 9, 0, 32),
	F("kernarg_address_lo", 10, 0, 32),
	F("kernarg_address_hi", 11, 0, 32),
	F("reserved2_lo", 12, 0, 32),
	F("reserved2_hi", 13, 0, 32),
	SIGNAL_FIELDS,
};

static const struct kfdsig_field f_barrier[] = {
	HDR_FIELDS,
	F("reserved0", 0, 16, 16),
	F("reserved1", 1, 0, 32),
	F("dep_signal0_lo", 2, 0, 32),
	F("dep_signal0_hi", 3, 0, 32),
	F("dep_signal1_lo", 4, 0, 32),
	F("dep_signal1_hi", 5, 0, 32),
	F("dep_signal2_lo", 6, 0, 32),
	F("dep_signal2_hi", 7, 0, 32),
	F("dep_signal3_lo", 8, 0, 32),
	F("dep_signal3_hi", 9, 0, 32),
	F("dep_signal4_lo", 10, 0, 32),
	F("dep_signal4_hi", 11, 0, 32),
	F("reserved2_lo", 12, 0, 32),
	F("reserved2_hi", 13, 0, 32),
	SIGNAL_FIELDS,
};

static const struct kfdsig_field f_agent[] = {
	HDR_FIELDS,
	F("agent_type", 0, 16, 16),
	F("return_address_lo", 2, 0, 32),
	F("return_address_hi", 3, 0, 32),
	F("arg0_lo", 4, 0, 32),
	F("arg0_hi", 5, 0, 32),
	F("arg1_lo", 6, 0, 32),
	F("arg1_hi", 7, 0, 32),
	F("arg2_lo", 8, 0, 32),
	F("arg2_hi", 9, 0, 32),
	F("arg3_lo", 10, 0, 32),
	F("arg3_hi", 11, 0, 32),
	F("reserved2_lo", 12, 0, 32),
	F("reserved2_hi", 13, 0, 32),
	SIGNAL_FIELDS,
};

static const struct kfdsig_field f_pm4_ib[] = {
	HDR_FIELDS,
	F("vendor_format", 0, 16, 16),
	F("ib_header", 1, 0, 32),
	F("ib_base_lo", 2, 0, 32),
	F("ib_base_hi", 3, 0, 16),
	F("ib_size", 4, 0, 20),
	F("ib_valid", 4, 23, 1),
	F("dw_cnt_remain", 5, 0, 32),
	SIGNAL_FIELDS,
};

static const struct kfdsig_field f_vendor[] = {
	HDR_FIELDS,
	F("vendor_format", 0, 16, 16),
	SIGNAL_FIELDS,
};

static const struct kfdsig_packet_desc d_pm4_ib = DESC("AQL_PM4_IB", 0, AQL_DW, f_pm4_ib);
static const struct kfdsig_packet_desc d_by_type[] = {
	DESC("VENDOR_SPECIFIC", 0, AQL_DW, f_vendor),	DESC("INVALID", 1, AQL_DW, f_invalid),
	DESC("KERNEL_DISPATCH", 2, AQL_DW, f_dispatch), DESC("BARRIER_AND", 3, AQL_DW, f_barrier),
	DESC("AGENT_DISPATCH", 4, AQL_DW, f_agent),	DESC("BARRIER_OR", 5, AQL_DW, f_barrier),
};

const struct kfdsig_packet_desc *kfdsig_aql_packet_desc(uint32_t dw0)
{
	uint32_t type = dw0 & 0xffu;

	if (type >= KFDSIG_ARRAY_SIZE(d_by_type)) {
		set_error(ENOENT, "AQL packet type %u is not an HSA packet type", type);
		errno = ENOENT;
		return NULL;
	}
	if (type == KFDSIG_AQL_TYPE_VENDOR_SPECIFIC && dw0 >> 16 == KFDSIG_AQL_AMD_FORMAT_PM4_IB)
		return &d_pm4_ib;
	return &d_by_type[type];
}

uint32_t aql_identify(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail, bool final,
		      struct kfdsig_packet *p)
{
	uint32_t h;

	(void)d;
	(void) final;
	dw_at(dw, avail, 0, &h);
	p->opcode = h & 0xffu;
	p->sub_op = h >> 16;
	if (p->opcode >= KFDSIG_ARRAY_SIZE(d_by_type)) {
		p->name = "UNKNOWN";
		p->flags |= KFDSIG_PACKET_UNKNOWN;
	} else if (p->opcode == KFDSIG_AQL_TYPE_VENDOR_SPECIFIC &&
		   p->sub_op == KFDSIG_AQL_AMD_FORMAT_PM4_IB) {
		p->desc = &d_pm4_ib;
		p->name = d_pm4_ib.name;
	} else {
		p->desc = &d_by_type[p->opcode];
		p->name = p->desc->name;
	}
	/* A slot is always 16 dwords: the walk reports a shorter tail as
	 * truncated. */
	return AQL_DW;
}

void aql_check(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	uint32_t h = p->avail ? p->dw[0] : 0, v;

	if (p->flags & KFDSIG_PACKET_UNKNOWN) {
		add_finding(d, p->offset, KFDSIG_SEV_ERROR, "aql-bad-type",
			    "AQL packet type %u is not an HSA packet type (0..5): the packet "
			    "processor stops the queue with an invalid-packet error",
			    p->opcode);
		return;
	}
	if (((h >> 9) & 3u) == 3u || ((h >> 11) & 3u) == 3u)
		add_finding(d, p->offset, KFDSIG_SEV_ERROR, "aql-bad-scope",
			    "%s: fence scope 3 is reserved (0 none, 1 agent, 2 system)", p->name);
	if (h & 0xe000u)
		add_finding(d, p->offset, KFDSIG_SEV_WARNING, "aql-header-reserved",
			    "%s: reserved header bits 15:13 are 0x%x", p->name, (h >> 13) & 7u);
	if (p->opcode == KFDSIG_AQL_TYPE_INVALID)
		add_finding(d, p->offset, KFDSIG_SEV_INFO, "aql-invalid",
			    "INVALID slot: not yet published, or already consumed");
	if (p->opcode == KFDSIG_AQL_TYPE_VENDOR_SPECIFIC &&
	    p->sub_op != KFDSIG_AQL_AMD_FORMAT_PM4_IB)
		add_finding(d, p->offset, KFDSIG_SEV_WARNING, "aql-vendor-format",
			    "vendor-specific packet of format %u: AMD firmware knows format 1 "
			    "(AMD_AQL_FORMAT_PM4_IB) only",
			    p->sub_op);
	if (p->desc == &d_pm4_ib) {
		if (dw_at(p->dw, p->avail, 1, &v) && v != 0xc0023f00u)
			add_finding(d, p->offset, KFDSIG_SEV_WARNING, "aql-pm4-ib-header",
				    "AQL_PM4_IB: ib_header 0x%08x is not INDIRECT_BUFFER "
				    "(0xc0023f00)",
				    v);
		if (dw_at(p->dw, p->avail, 4, &v) && !(v & (1u << 23)))
			add_finding(d, p->offset, KFDSIG_SEV_WARNING, "aql-pm4-ib-valid",
				    "AQL_PM4_IB: IB_VALID (bit 23 of the size dword) is clear");
		if (dw_at(p->dw, p->avail, 5, &v) && v != KFDSIG_AQL_PM4_IB_DW_REMAIN)
			add_finding(d, p->offset, KFDSIG_SEV_WARNING, "aql-pm4-ib-remain",
				    "AQL_PM4_IB: dw_cnt_remain %u, ROCr writes 10", v);
	}
}
