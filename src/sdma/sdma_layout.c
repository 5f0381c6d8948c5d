/* SPDX-License-Identifier: MIT */
/*
 * Field layouts of the SDMA packets kfdsig writes or decodes, per header
 * form, from the same definitions as the emitters (sdma_defs.h;
 * amdgpu *_sdma_pkt_open.h). The CLI annotates with them and the decoder reads through them.
 */
#include <errno.h>

#include "core/layout.h"
#include "sdma/sdma_defs.h"

#define HDR F("op", 0, 0, 8), F("sub_op", 0, 8, 8)

static const char *const func_names[] = {
	"always", "less", "less_equal", "equal", "not_equal", "greater_equal", "greater",
};
static const char *const mem_poll_names[] = { "register", "memory" };
static const char *const mtype_names[] = { "nc", "wc", "cc", "uc" };

static const struct kfdsig_field nop_fields[] = { HDR, F("count", 0, 16, 14) };

#define FENCE_BODY F("addr_lo", 1, 0, 32), F("addr_hi", 2, 0, 32), F("data", 3, 0, 32)
#define FENCE_NV_HDR                                                                \
	FV("mtype", 0, 16, 3, mtype_names), F("gcc", 0, 19, 1), F("sys", 0, 20, 1), \
		F("snp", 0, 22, 1), F("gpa", 0, 23, 1), F("l2_policy", 0, 24, 2)

static const struct kfdsig_field fence_plain_fields[] = { HDR, FENCE_BODY };
static const struct kfdsig_field fence_nv_fields[] = { HDR, FENCE_NV_HDR, FENCE_BODY };
static const struct kfdsig_field fence_v6_fields[] = {
	HDR, FENCE_NV_HDR, F("llc_policy", 0, 26, 1), F("cpv", 0, 28, 1), FENCE_BODY,
};

/* Bits [31:28] of the context dword are reserved; KFD masks them off. */
static const struct kfdsig_field trap_fields[] = {
	HDR,
	F("int_context", 1, 0, 28),
	F("reserved", 1, 28, 4),
};

#define POLL_TAIL                                                                  \
	F("hdp_flush", 0, 26, 1), FV("func", 0, 28, 3, func_names),                \
		FV("mem_poll", 0, 31, 1, mem_poll_names), F("addr_lo", 1, 0, 32),  \
		F("addr_hi", 2, 0, 32), F("value", 3, 0, 32), F("mask", 4, 0, 32), \
		F("interval", 5, 0, 16), F("retry_count", 5, 16, 12)
static const struct kfdsig_field poll_fields[] = { HDR, POLL_TAIL };
static const struct kfdsig_field poll_v6_fields[] = {
	HDR,
	F("cache_policy", 0, 20, 3),
	F("cpv", 0, 24, 1),
	POLL_TAIL,
};

/* Data dwords follow dword 3; readers take their number from the count
 * (sdma_defs.h: N on SDMA 3.x, N - 1 from 4.0). */
static const struct kfdsig_field write_fields[] = {
	HDR,
	F("dst_addr_lo", 1, 0, 32),
	F("dst_addr_hi", 2, 0, 32),
	F("count", 3, 0, SDMA_WRITE_COUNT_WIDTH),
};

#define COPY_BODY                                                           \
	F("count", 1, 0, 22), F("dst_sw", 2, 16, 2), F("src_sw", 2, 24, 2), \
		F("src_addr_lo", 3, 0, 32), F("src_addr_hi", 4, 0, 32),     \
		F("dst_addr_lo", 5, 0, 32), F("dst_addr_hi", 6, 0, 32)
static const struct kfdsig_field copy_v3_fields[] = { HDR, F("broadcast", 0, 27, 1), COPY_BODY };
static const struct kfdsig_field copy_v4_fields[] = {
	HDR,
	F("tmz", 0, 18, 1),
	F("broadcast", 0, 27, 1),
	COPY_BODY,
};
static const struct kfdsig_field copy_nv_fields[] = {
	HDR, F("tmz", 0, 18, 1), F("backwards", 0, 25, 1), F("broadcast", 0, 27, 1), COPY_BODY,
};

static const struct kfdsig_field ts_set_fields[] = {
	HDR,
	F("init_data_lo", 1, 0, 32),
	F("init_data_hi", 2, 0, 32),
};
static const struct kfdsig_field ts_get_fields[] = {
	HDR,
	F("write_addr_lo", 1, 0, 32),
	F("write_addr_hi", 2, 0, 32),
};

/* Kernel-ring packets (sdma_defs.h): decoded so that ring dumps stay in
 * step; the GCR_REQ payload is shown as its four raw dwords. */
static const struct kfdsig_field indirect_fields[] = {
	HDR,
	F("vmid", 0, 16, 4),
	F("ib_base_lo", 1, 0, 32),
	F("ib_base_hi", 2, 0, 32),
	F("ib_size", 3, 0, 20),
	F("csa_addr_lo", 4, 0, 32),
	F("csa_addr_hi", 5, 0, 32),
};
static const struct kfdsig_field srbm_write_fields[] = {
	HDR,
	F("byte_en", 0, 28, 4),
	F("reg", 1, 0, 32),
	F("value", 2, 0, 32),
};
static const struct kfdsig_field gcr_req_fields[] = {
	HDR,
	F("payload1", 1, 0, 32),
	F("payload2", 2, 0, 32),
	F("payload3", 3, 0, 32),
	F("payload4", 4, 0, 32),
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

const struct kfdsig_packet_desc *kfdsig_sdma_desc_lookup(const struct kfdsig_target *t,
							 unsigned int op, unsigned int sub_op)
{
	switch (op) {
	case SDMA_OP_NOP:
		if (sub_op == 0)
			return &nop_desc;
		break;
	case SDMA_OP_FENCE:
		if (sub_op == 0 && (unsigned)t->sdma_fence_hdr < KFDSIG_ARRAY_SIZE(fence_desc))
			return &fence_desc[t->sdma_fence_hdr];
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
		kfdsig_set_error(EINVAL, "no target");
		errno = EINVAL;
		return NULL;
	}
	d = kfdsig_sdma_desc_lookup(t, op, sub_op);
	if (d)
		return d;
	kfdsig_set_error(ENOENT, "no SDMA layout for op %u sub_op %u on %s", op, sub_op, t->name);
	errno = ENOENT;
	return NULL;
}

long kfdsig_sdma_packet_dw(const struct kfdsig_target *t, const uint32_t *dw, size_t n)
{
	const struct kfdsig_packet_desc *d;
	uint32_t h;

	if (!t || !dw || !n)
		return kfdsig_set_error(EINVAL, "no target or no dwords");
	h = dw[0];
	if (SDMA_HDR_OP_G(h) == SDMA_OP_NOP)
		return (long)SDMA_NOP_COUNT_G(h) + 1;
	d = kfdsig_sdma_desc_lookup(t, SDMA_HDR_OP_G(h), SDMA_HDR_SUB_OP_G(h));
	if (!d)
		return kfdsig_set_error(ENOENT, "no SDMA layout for op %u sub_op %u on %s",
					SDMA_HDR_OP_G(h), SDMA_HDR_SUB_OP_G(h), t->name);
	if (SDMA_HDR_OP_G(h) == SDMA_OP_WRITE) {
		uint32_t count;

		if (n < SDMA_WRITE_HDR_DW)
			return kfdsig_set_error(ENODATA, "WRITE cut before its count dword");
		count = dw[3] & ((1u << SDMA_WRITE_COUNT_WIDTH) - 1);
		return SDMA_WRITE_HDR_DW + (long)count +
		       (SDMA_COUNT_IS_MINUS_ONE(t->sdma_ip[0]) ? 1 : 0);
	}
	return d->min_dw;
}
