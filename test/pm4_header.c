/* SPDX-License-Identifier: MIT */
/*
 * PM4 type-3 headers: kfdsig_pm4_header(), kfdsig_pm4_opcode(),
 * kfdsig_pm4_packet_dw(). Expected dwords are PACKET3(op, n) of amdgpu's
 * vid.h / soc15d.h / nvd.h worked out by hand: (3 << 30) | (n << 16) |
 * (op << 8), n = body dwords - 1; PACKET3(NOP, 0x3FFF) = 0xFFFF1000 is the
 * ring filler amdgpu pads with (amdgpu_ring.c / gfx_v9_0.c nop), 0x80000000
 * the type-2 filler (PACKET2(0)).
 */
#include <errno.h>

#include "helpers.h"

static void test_header(void)
{
	uint32_t h = 0x12345678u;

	CHECK_EQ(kfdsig_pm4_header(&h, 0x49, 7, 0), 0, "RELEASE_MEM");
	CHECK_EQ(h, 0xc0064900u, "PACKET3(RELEASE_MEM, 6)");
	CHECK_EQ(kfdsig_pm4_header(&h, 0x49, 7, KFDSIG_PM4_HDR_COMPUTE), 0, "compute");
	CHECK_EQ(h, 0xc0064902u, "PACKET3(RELEASE_MEM, 6) | shader type");
	CHECK_EQ(kfdsig_pm4_header(&h, 0x3f, 3, 0), 0, "INDIRECT_BUFFER");
	CHECK_EQ(h, 0xc0023f00u, "PACKET3(INDIRECT_BUFFER, 2)");
	CHECK_EQ(kfdsig_pm4_header(&h, KFDSIG_PM4_OP_NOP, 1, 0), 0, "one-dword NOP body");
	CHECK_EQ(h, 0xc0001000u, "PACKET3(NOP, 0)");
	CHECK_EQ(kfdsig_pm4_header(&h, KFDSIG_PM4_OP_NOP, 0x3fff, 0), 0, "longest NOP");
	CHECK_EQ(h, 0xfffe1000u, "PACKET3(NOP, 0x3ffe)");
	CHECK_EQ(kfdsig_pm4_header(&h, 0x49, KFDSIG_PM4_MAX_BODY_DW, 0), 0, "longest body");
	CHECK_EQ(h, 0xffff4900u, "PACKET3(RELEASE_MEM, 0x3fff)");

	h = 0x12345678u;
	CHECK_EQ(kfdsig_pm4_header(&h, 0x100, 1, 0), -EINVAL, "opcode above 0xff");
	CHECK_EQ(kfdsig_pm4_header(&h, 0x49, 0, 0), -EINVAL, "empty body");
	CHECK_EQ(kfdsig_pm4_header(&h, 0x49, KFDSIG_PM4_MAX_BODY_DW + 1, 0), -EINVAL,
		 "body too long for the count");
	CHECK_EQ(kfdsig_pm4_header(&h, KFDSIG_PM4_OP_NOP, 0x4000, 0), -EINVAL,
		 "a NOP of count 0x3fff would read back as the one-dword filler");
	CHECK_EQ(kfdsig_pm4_header(&h, 0x49, 7, 1u << 1), -EINVAL, "unknown flag");
	CHECK_EQ(h, 0x12345678u, "nothing written on error");
	CHECK_EQ(kfdsig_pm4_header(NULL, 0x49, 7, 0), -EINVAL, "NULL header");
}

static void test_read(void)
{
	const uint32_t rm[8] = { 0xc0064900u };
	const uint32_t filler = KFDSIG_PM4_NOP_FILLER, type2 = KFDSIG_PM4_TYPE2_NOP;
	const uint32_t type2_bits = 0x80000001u, type0 = 0x00001234u, type1 = 0x40000000u;
	const uint32_t longest = 0xffff4900u;

	CHECK_EQ(filler, 0xffff1000u, "the filler constant");
	CHECK_EQ(kfdsig_pm4_packet_dw(rm, 8), 8, "RELEASE_MEM: count 6 + 2");
	CHECK_EQ(kfdsig_pm4_packet_dw(rm, 1), 8, "the length may exceed n");
	CHECK_EQ(kfdsig_pm4_packet_dw(&filler, 1), 1, "PACKET3(NOP, 0x3FFF) is one dword");
	CHECK_EQ(kfdsig_pm4_packet_dw(&type2, 1), 1, "PACKET2 filler");
	CHECK_EQ(kfdsig_pm4_packet_dw(&longest, 1), 0x4001, "count 0x3fff, not a NOP");
	CHECK_EQ(kfdsig_pm4_packet_dw(&type2_bits, 1), -ENOENT, "type 2 with bits");
	CHECK_EQ(kfdsig_pm4_packet_dw(&type0, 1), -ENOENT, "type 0");
	CHECK_EQ(kfdsig_pm4_packet_dw(&type1, 1), -ENOENT, "type 1");
	CHECK_EQ(kfdsig_pm4_packet_dw(NULL, 1), -EINVAL, "NULL");
	CHECK_EQ(kfdsig_pm4_packet_dw(rm, 0), -EINVAL, "no dword");

	CHECK_EQ(kfdsig_pm4_opcode(0xc0064900u), 0x49, "opcode");
	CHECK_EQ(kfdsig_pm4_opcode(filler), KFDSIG_PM4_OP_NOP, "filler opcode");
	CHECK_EQ(kfdsig_pm4_opcode(type2), -ENOENT, "no opcode in type 2");
	CHECK_EQ(kfdsig_pm4_opcode(type0), -ENOENT, "no opcode in type 0");

	/* what one builds, the other reads back */
	for (uint32_t body = 1; body < KFDSIG_PM4_MAX_BODY_DW; body += 97) {
		uint32_t h;

		CHECK_EQ(kfdsig_pm4_header(&h, KFDSIG_PM4_OP_NOP, body, 0), 0, "NOP %u", body);
		CHECK_EQ(kfdsig_pm4_packet_dw(&h, 1), body + 1, "NOP of body %u", body);
	}
}

int main(void)
{
	test_header();
	test_read();
	return t_result("pm4_header");
}
