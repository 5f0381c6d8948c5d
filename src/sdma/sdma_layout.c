/* SPDX-License-Identifier: MIT */
/*
 * Field layouts of the SDMA packets kfdsig writes or decodes, per header
 * form: which fields of sdma_fields.def (the positions the emitters use
 * too) each form has, in order, and the names of their values (amdgpu
 * *_sdma_pkt_open.h). The CLI annotates with them and the decoder reads through them.
 */
#include <errno.h>

#include "core/layout.h"
#include "sdma/sdma_defs.h"

/* A field of sdma_fields.def, by packet and name; LV with value names. */
#define L(pkt, n) FL(SDMA_F_, pkt, n)
#define LV(pkt, n, v) FLV(SDMA_F_, pkt, n, v)

/* Every field fits its dword. */
#define SDMA_FIELD FIELD_FITS
#include "sdma/sdma_fields.def"
#undef SDMA_FIELD

#define HEADER L(HDR, op), L(HDR, sub_op)

static const char *const func_names[] = {
	"always", "less", "less_equal", "equal", "not_equal", "greater_equal", "greater",
};
static const char *const mem_poll_names[] = { "register", "memory" };
static const char *const mtype_names[] = { "nc", "wc", "cc", "uc" };

static const struct kfdsig_field nop_fields[] = { HEADER, L(NOP, count) };

#define FENCE_BODY L(FENCE, addr_lo), L(FENCE, addr_hi), L(FENCE, data)
#define FENCE_NV_HDR                                                                               \
	LV(FENCE, mtype, mtype_names), L(FENCE, gcc), L(FENCE, sys), L(FENCE, snp), L(FENCE, gpa), \
		L(FENCE, l2_policy)

static const struct kfdsig_field fence_plain_fields[] = { HEADER, FENCE_BODY };
static const struct kfdsig_field fence_nv_fields[] = { HEADER, FENCE_NV_HDR, FENCE_BODY };
static const struct kfdsig_field fence_v6_fields[] = {
	HEADER, FENCE_NV_HDR, L(FENCE, llc_policy), L(FENCE, cpv), FENCE_BODY,
};

/* Bits [31:28] of the context dword are reserved; KFD masks them off. */
static const struct kfdsig_field trap_fields[] = {
	HEADER,
	L(TRAP, int_context),
	L(TRAP, reserved),
};

#define POLL_TAIL                                                                           \
	L(POLL, hdp_flush), LV(POLL, func, func_names), LV(POLL, mem_poll, mem_poll_names), \
		L(POLL, addr_lo), L(POLL, addr_hi), L(POLL, value), L(POLL, mask),          \
		L(POLL, interval), L(POLL, retry_count)
static const struct kfdsig_field poll_fields[] = { HEADER, POLL_TAIL };
static const struct kfdsig_field poll_v6_fields[] = {
	HEADER,
	L(POLL, cache_policy),
	L(POLL, cpv),
	POLL_TAIL,
};

/* Data dwords follow dword 3; readers take their number from the count
 * (sdma_defs.h: N on SDMA 3.x, N - 1 from 4.0). */
static const struct kfdsig_field write_fields[] = {
	HEADER,
	L(WRITE, dst_addr_lo),
	L(WRITE, dst_addr_hi),
	L(WRITE, count),
};

#define COPY_BODY                                                               \
	L(COPY, count), L(COPY, dst_sw), L(COPY, src_sw), L(COPY, src_addr_lo), \
		L(COPY, src_addr_hi), L(COPY, dst_addr_lo), L(COPY, dst_addr_hi)
static const struct kfdsig_field copy_v3_fields[] = { HEADER, L(COPY, broadcast), COPY_BODY };
static const struct kfdsig_field copy_v4_fields[] = {
	HEADER,
	L(COPY, tmz),
	L(COPY, broadcast),
	COPY_BODY,
};
static const struct kfdsig_field copy_nv_fields[] = {
	HEADER, L(COPY, tmz), L(COPY, backwards), L(COPY, broadcast), COPY_BODY,
};

static const struct kfdsig_field ts_set_fields[] = {
	HEADER,
	L(TS_SET, init_data_lo),
	L(TS_SET, init_data_hi),
};
static const struct kfdsig_field ts_get_fields[] = {
	HEADER,
	L(TS_GET, write_addr_lo),
	L(TS_GET, write_addr_hi),
};

/* Kernel-ring packets (sdma_defs.h): decoded so that ring dumps stay in
 * step; the GCR_REQ payload is shown as its four raw dwords. */
static const struct kfdsig_field indirect_fields[] = {
	HEADER,
	L(INDIRECT, vmid),
	L(INDIRECT, ib_base_lo),
	L(INDIRECT, ib_base_hi),
	L(INDIRECT, ib_size),
	L(INDIRECT, csa_addr_lo),
	L(INDIRECT, csa_addr_hi),
};
static const struct kfdsig_field srbm_write_fields[] = {
	HEADER,
	L(SRBM, byte_en),
	L(SRBM, reg),
	L(SRBM, value),
};
static const struct kfdsig_field gcr_req_fields[] = {
	HEADER,
	L(GCR_REQ, payload1),
	L(GCR_REQ, payload2),
	L(GCR_REQ, payload3),
	L(GCR_REQ, payload4),
};

static const struct kfdsig_packet_desc nop_desc = DESC("NOP", SDMA_OP_NOP, 1, nop_fields);
static const struct kfdsig_packet_desc fence_desc[] = {
	[KFDSIG_SDMA_HDR_PLAIN] = DESC("FENCE", SDMA_OP_FENCE, SDMA_FENCE_DW, fence_plain_fields),
	[KFDSIG_SDMA_HDR_NV] = DESC("FENCE", SDMA_OP_FENCE, SDMA_FENCE_DW, fence_nv_fields),
	[KFDSIG_SDMA_HDR_V6] = DESC("FENCE", SDMA_OP_FENCE, SDMA_FENCE_DW, fence_v6_fields),
};
static const struct kfdsig_packet_desc trap_desc =
	DESC("TRAP", SDMA_OP_TRAP, SDMA_TRAP_DW, trap_fields);
static const struct kfdsig_packet_desc poll_desc =
	DESC("POLL_REGMEM", SDMA_OP_POLL_REGMEM, SDMA_POLL_REGMEM_DW, poll_fields);
static const struct kfdsig_packet_desc poll_v6_desc =
	DESC("POLL_REGMEM", SDMA_OP_POLL_REGMEM, SDMA_POLL_REGMEM_DW, poll_v6_fields);
static const struct kfdsig_packet_desc write_desc =
	DESC("WRITE_LINEAR", SDMA_OP_WRITE, SDMA_WRITE_HDR_DW, write_fields);
static const struct kfdsig_packet_desc copy_v3_desc =
	DESC("COPY_LINEAR", SDMA_OP_COPY, SDMA_COPY_LINEAR_DW, copy_v3_fields);
static const struct kfdsig_packet_desc copy_v4_desc =
	DESC("COPY_LINEAR", SDMA_OP_COPY, SDMA_COPY_LINEAR_DW, copy_v4_fields);
static const struct kfdsig_packet_desc copy_nv_desc =
	DESC("COPY_LINEAR", SDMA_OP_COPY, SDMA_COPY_LINEAR_DW, copy_nv_fields);
static const struct kfdsig_packet_desc ts_desc[] = {
	[SDMA_SUBOP_TIMESTAMP_SET] =
		DESC("TIMESTAMP_SET", SDMA_OP_TIMESTAMP, SDMA_TIMESTAMP_DW, ts_set_fields),
	[SDMA_SUBOP_TIMESTAMP_GET] =
		DESC("TIMESTAMP_GET", SDMA_OP_TIMESTAMP, SDMA_TIMESTAMP_DW, ts_get_fields),
	[SDMA_SUBOP_TIMESTAMP_GET_GLOBAL] =
		DESC("TIMESTAMP_GET_GLOBAL", SDMA_OP_TIMESTAMP, SDMA_TIMESTAMP_DW, ts_get_fields),
};

static const struct kfdsig_packet_desc indirect_desc =
	DESC("INDIRECT", SDMA_OP_INDIRECT, SDMA_INDIRECT_DW, indirect_fields);
static const struct kfdsig_packet_desc srbm_write_desc =
	DESC("SRBM_WRITE", SDMA_OP_SRBM_WRITE, SDMA_SRBM_WRITE_DW, srbm_write_fields);
static const struct kfdsig_packet_desc gcr_req_desc =
	DESC("GCR_REQ", SDMA_OP_GCR_REQ, SDMA_GCR_REQ_DW, gcr_req_fields);
/* The user-queue protected fence: the header alone (sdma_defs.h). */
static const struct kfdsig_field protected_fence_fields[] = { L(HDR, op), L(HDR, sub_op) };
static const struct kfdsig_packet_desc protected_fence_desc =
	DESC("PROTECTED_FENCE", SDMA_OP_FENCE, SDMA_PROTECTED_FENCE_DW, protected_fence_fields);

const struct kfdsig_packet_desc *sdma_desc_lookup(const struct kfdsig_target *t, unsigned int op,
						  unsigned int sub_op)
{
	switch (op) {
	case SDMA_OP_NOP:
		if (sub_op == 0)
			return &nop_desc;
		break;
	case SDMA_OP_FENCE:
		if (sub_op == 0 && (unsigned)t->sdma_fence_hdr < KFDSIG_ARRAY_SIZE(fence_desc))
			return &fence_desc[t->sdma_fence_hdr];
		/* SDMA IPs with user queues (target_table.c [userq]) */
		if (sub_op == SDMA_SUBOP_PROTECTED_FENCE && t->sdma_userq_fw)
			return &protected_fence_desc;
		break;
	case SDMA_OP_TRAP:
		if (sub_op == 0)
			return &trap_desc;
		break;
	case SDMA_OP_POLL_REGMEM:
		if (sub_op == 0)
			return t->sdma_fence_hdr == KFDSIG_SDMA_HDR_V6 ? &poll_v6_desc : &poll_desc;
		break;
	case SDMA_OP_WRITE:
		if (sub_op == SDMA_SUBOP_WRITE_LINEAR)
			return &write_desc;
		break;
	case SDMA_OP_COPY:
		if (sub_op != SDMA_SUBOP_COPY_LINEAR)
			break;
		if (t->sdma_ip[0] < 4)
			return &copy_v3_desc;
		return t->sdma_ip[0] < 5 ? &copy_v4_desc : &copy_nv_desc;
	case SDMA_OP_TIMESTAMP:
		if (sub_op < KFDSIG_ARRAY_SIZE(ts_desc))
			return &ts_desc[sub_op];
		break;
	case SDMA_OP_INDIRECT:
		if (sub_op == 0)
			return &indirect_desc;
		break;
	case SDMA_OP_SRBM_WRITE:
		if (sub_op == 0)
			return &srbm_write_desc;
		break;
	case SDMA_OP_GCR_REQ:
		/* Op 17 is GCR_REQ from SDMA 5.0 on only. */
		if (sub_op == 0 && t->sdma_ip[0] >= 5)
			return &gcr_req_desc;
		break;
	}
	return NULL;
}

const struct kfdsig_packet_desc *kfdsig_sdma_packet_desc(const struct kfdsig_target *t,
							 unsigned int op, unsigned int sub_op)
{
	const struct kfdsig_packet_desc *d;

	if (!t) {
		set_error(EINVAL, "no target");
		errno = EINVAL;
		return NULL;
	}
	d = sdma_desc_lookup(t, op, sub_op);
	if (d)
		return d;
	set_error(ENOENT, "no SDMA layout for op %u sub_op %u on %s", op, sub_op, t->name);
	errno = ENOENT;
	return NULL;
}

long kfdsig_sdma_packet_dw(const struct kfdsig_target *t, const uint32_t *dw, size_t n)
{
	const struct kfdsig_packet_desc *d;
	uint32_t h;

	if (!t || !dw || !n)
		return set_error(EINVAL, "no target or no dwords");
	h = dw[0];
	if (SDMA_HDR_OP_G(h) == SDMA_OP_NOP)
		return (long)SDMA_GET(NOP, count, h) + 1;
	d = sdma_desc_lookup(t, SDMA_HDR_OP_G(h), SDMA_HDR_SUB_OP_G(h));
	if (!d)
		return set_error(ENOENT, "no SDMA layout for op %u sub_op %u on %s",
				 SDMA_HDR_OP_G(h), SDMA_HDR_SUB_OP_G(h), t->name);
	if (SDMA_HDR_OP_G(h) == SDMA_OP_WRITE) {
		uint32_t count;

		if (n < SDMA_WRITE_HDR_DW)
			return set_error(ENODATA, "WRITE cut before its count dword");
		count = SDMA_GET(WRITE, count, dw[SDMA_DW(WRITE, count)]);
		return SDMA_WRITE_HDR_DW + (long)count +
		       (SDMA_COUNT_IS_MINUS_ONE(t->sdma_ip[0]) ? 1 : 0);
	}
	return d->min_dw;
}
