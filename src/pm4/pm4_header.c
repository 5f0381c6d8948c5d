/* SPDX-License-Identifier: MIT */
/*
 * The PM4 type-3 header (vid.h / soc15d.h / nvd.h PACKET3(op, n): type 3 in
 * bits 31:30, n = body dwords - 1 in 29:16, the opcode in 15:8, the shader
 * type in bit 1; the same on every generation kfdsig knows), built and
 * read for callers outside the emitters.
 */
#include <errno.h>

#include <kfdsig/pm4.h>

#include "core/internal.h"
#include "pm4/pm4_defs.h"

int kfdsig_pm4_header(uint32_t *hdr, unsigned int opcode, size_t body_dw, unsigned int flags)
{
	uint32_t h;

	if (!hdr)
		return set_error(EINVAL, "no header to write");
	if (flags & ~KFDSIG_PM4_HDR_COMPUTE)
		return set_error(EINVAL, "unknown header flags 0x%x",
				 flags & ~KFDSIG_PM4_HDR_COMPUTE);
	if (opcode > 0xff)
		return set_error(EINVAL, "opcode 0x%x: a PM4 opcode is 8 bits", opcode);
	if (body_dw == 0 || body_dw > KFDSIG_PM4_MAX_BODY_DW)
		return set_error(EINVAL, "a type-3 body is 1 to %u dwords, not %zu",
				 KFDSIG_PM4_MAX_BODY_DW, body_dw);
	/* PACKET3(NOP, 0x3FFF) is the one-dword filler, not a NOP with a
	 * 0x4000-dword body: such a header would be read back wrong. */
	if (opcode == PM4_OP_NOP && body_dw - 1 == PM4_NOP_FILLER_COUNT)
		return set_error(EINVAL, "a NOP with count 0x3fff is the one-dword filler: a NOP "
					 "body is at most 0x3fff dwords");
	h = PM4_HDR(opcode, body_dw);
	if (flags & KFDSIG_PM4_HDR_COMPUTE)
		h |= PM4_HDR_SHADER_COMPUTE;
	*hdr = h;
	return 0;
}

int kfdsig_pm4_opcode(uint32_t hdr)
{
	if (PM4_HDR_TYPE_G(hdr) != PM4_TYPE3)
		return set_error(ENOENT, "0x%08x is not a type-3 header", hdr);
	return (int)PM4_HDR_OPCODE_G(hdr);
}

long kfdsig_pm4_packet_dw(const uint32_t *dw, size_t n)
{
	uint32_t h;

	if (!dw || !n)
		return set_error(EINVAL, "no packet");
	h = dw[0];
	if (h == PM4_TYPE2_NOP)
		return 1;
	if (PM4_HDR_TYPE_G(h) != PM4_TYPE3)
		return set_error(ENOENT, "0x%08x is neither a type-3 header nor the type-2 filler",
				 h);
	if (PM4_HDR_OPCODE_G(h) == PM4_OP_NOP && PM4_HDR_COUNT_G(h) == PM4_NOP_FILLER_COUNT)
		return 1;
	return (long)PM4_HDR_COUNT_G(h) + 2;
}
