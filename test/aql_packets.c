/* SPDX-License-Identifier: MIT */
/*
 * AQL packet builders and amd_signal_t: golden bytes written by hand from
 * the HSA Platform System Architecture Specification 1.2, section 2.9
 * (header: type [7:0], barrier [8], acquire scope [10:9], release scope
 * [12:11]; barrier packets: dep_signal[5] at 8, completion_signal at 56;
 * kernel dispatch: setup at 2, workgroup sizes at 4, grid at 12, segment
 * sizes at 24/28, kernel_object 32, kernarg 40, completion_signal 56), ROCr
 * amd_aql_queue.cpp ExecutePM4 (vendor packet: ven_hdr 1 at 2, the PM4
 * INDIRECT_BUFFER at 4, dw_cnt_remain 0xA at 20, completion signal at 56)
 * and ROCr amd_hsa_signal.h (amd_signal_t: kind 0, value 8, mailbox 16,
 * event_id 24), and every rejection.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kfdsig/aql.h>

#include "helpers.h"

#define SIG 0x00007f0000002040ull
#define DEP 0x00007f0000001000ull

static void check_bytes(const char *what, const uint8_t *got, const uint8_t *want)
{
	for (unsigned int i = 0; i < 64; i++) {
		if (got[i] != want[i]) {
			CHECK(0, "%s: byte %u is 0x%02x, expected 0x%02x", what, i, got[i],
			      want[i]);
			return;
		}
	}
	t_checks++;
}

static void golden_barrier(void)
{
	/* BARRIER_AND (3) | barrier 0x100 | acquire system 0x400 | release
	 * system 0x1000 = 0x1503. */
	/* clang-format off */
	static const uint8_t want[64] = {
		0x03, 0x15, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* header, reserved */
		0x00, 0x10, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* dep_signal[0] */
		[56] = 0x40, 0x20, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* completion */
	};
	/* clang-format on */
	/* BARRIER_OR (5) | acquire agent 0x200, no barrier, release none. */
	/* clang-format off */
	static const uint8_t want_or[64] = {
		0x05, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x10, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* dep_signal[0] */
		0x40, 0x10, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* dep_signal[1] */
	};
	/* clang-format on */
	uint8_t p[64];
	uint64_t deps[2] = { DEP, DEP + 0x40 };

	memset(p, 0xcc, sizeof(p));
	CHECK_EQ(kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_BARRIER_AND, deps, 1, SIG,
					 KFDSIG_AQL_CTL_DEFAULT),
		 64, "barrier-AND");
	check_bytes("barrier-AND", p, want);
	memset(p, 0xcc, sizeof(p));
	CHECK_EQ(kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_BARRIER_OR, deps, 2, 0,
					 KFDSIG_AQL_ACQUIRE(KFDSIG_AQL_SCOPE_AGENT)),
		 64, "barrier-OR");
	check_bytes("barrier-OR", p, want_or);
}

static void golden_dispatch(void)
{
	/* KERNEL_DISPATCH (2) | acquire system | release system = 0x1402;
	 * setup 1 dimension; 64x1x1 of 256x1x1. */
	/* clang-format off */
	static const uint8_t want[64] = {
		0x02, 0x14, 0x01, 0x00, 0x40, 0x00, 0x01, 0x00, /* hdr setup wg x y */
		0x01, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, /* wg z, res, grid x */
		0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, /* grid y z */
		0x10, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, /* private 16, group 512 */
		0x00, 0x30, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* kernel object */
		0x00, 0x40, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* kernarg */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved2 */
		0x40, 0x20, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* completion */
	};
	/* clang-format on */
	const struct kfdsig_aql_dispatch d0 =
		KFDSIG_OPTS_INIT(kfdsig_aql_dispatch, .dims = 1, .workgroup = { 64, 1, 1 },
				 .grid = { 256, 1, 1 }, .private_segment_size = 16,
				 .group_segment_size = 512, .kernel_object = 0x7f0000003000ull,
				 .kernarg_address = 0x7f0000004000ull, .completion_signal = SIG);
	struct kfdsig_aql_dispatch d;
	const unsigned int ctl = KFDSIG_AQL_ACQUIRE(KFDSIG_AQL_SCOPE_SYSTEM) |
				 KFDSIG_AQL_RELEASE(KFDSIG_AQL_SCOPE_SYSTEM);
	uint8_t p[64];

	memset(p, 0xcc, sizeof(p));
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d0, ctl), 64, "dispatch");
	check_bytes("dispatch", p, want);

	d = d0, d.dims = 0;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), -EINVAL, "dims 0");
	d = d0, d.dims = 4;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), -EINVAL, "dims 4");
	d = d0, d.grid[1] = 2;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), -EINVAL, "unused dimension not 1");
	d = d0, d.workgroup[0] = 0;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), -EINVAL, "work-group 0");
	d = d0, d.kernel_object = 0;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), -EINVAL, "no kernel object");
	d = d0, d.kernel_object += 0x20;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), -EINVAL, "kernel object unaligned");
	d = d0, d.kernarg_address += 8;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), -EINVAL, "kernarg unaligned");
	d = d0, d.completion_signal += 8;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), -EINVAL, "signal unaligned");
	d = d0, d.pad_0 = 1;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), -EINVAL, "pad_0");
	d = d0, d.sz = 0;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), -EINVAL, "sz 0");
	CHECK_EQ(kfdsig_aql_emit_dispatch(NULL, &d0, ctl), -EINVAL, "no buffer");
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d0, 0x10000), -EINVAL, "ctl bit 16");
	d = d0, d.dims = 3, d.workgroup[1] = 2, d.grid[1] = 4, d.workgroup[2] = 1, d.grid[2] = 1;
	CHECK_EQ(kfdsig_aql_emit_dispatch(p, &d, ctl), 64, "3 dimensions");
	CHECK_EQ(p[2], 3, "setup dims 3");
}

static void golden_pm4_ib(void)
{
	/* VENDOR_SPECIFIC (0) | barrier | system/system = 0x1500; ven_hdr 1;
	 * INDIRECT_BUFFER: 0xc0023f00 (type 3, count 2, opcode 0x3f),
	 * base lo 0x00005000, base hi 0x7f00, 16 dwords | IB_VALID (bit 23) =
	 * 0x00800010; dw_cnt_remain 10. */
	/* clang-format off */
	static const uint8_t want[64] = {
		0x00, 0x15, 0x01, 0x00, 0x00, 0x3f, 0x02, 0xc0, /* hdr ven_hdr IB hdr */
		0x00, 0x50, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* base lo, hi */
		0x10, 0x00, 0x80, 0x00, 0x0a, 0x00, 0x00, 0x00, /* size|valid, remain */
		[56] = 0x40, 0x20, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* completion */
	};
	/* clang-format on */
	uint8_t p[64];

	memset(p, 0xcc, sizeof(p));
	CHECK_EQ(kfdsig_aql_emit_pm4_ib(p, 0x7f0000005000ull, 16, SIG, KFDSIG_AQL_CTL_DEFAULT), 64,
		 "pm4 ib");
	check_bytes("pm4 ib", p, want);
	CHECK_EQ(kfdsig_aql_emit_pm4_ib(p, 0, 16, SIG, 0), -EINVAL, "IB at 0");
	CHECK_EQ(kfdsig_aql_emit_pm4_ib(p, 0x1002, 16, SIG, 0), -EINVAL, "IB unaligned");
	CHECK_EQ(kfdsig_aql_emit_pm4_ib(p, 1ull << 48, 16, SIG, 0), KFDSIG_AQL_PACKET_SIZE,
		 "IB at 2^48 (gfx1250: 57 bits)");
	CHECK_EQ(kfdsig_aql_emit_pm4_ib(p, 1ull << 57, 16, SIG, 0), -EINVAL, "IB beyond 2^57");
	CHECK_EQ(kfdsig_aql_emit_pm4_ib(p, 0x1000, 0, SIG, 0), -EINVAL, "IB of 0 dwords");
	CHECK_EQ(kfdsig_aql_emit_pm4_ib(p, 0x1000, 0x100000, SIG, 0), -EINVAL, "IB too long");
	CHECK_EQ(kfdsig_aql_emit_pm4_ib(p, 0x1000, 0xfffff, SIG, 0), 64, "IB of 2^20-1 dwords");
}

static void header_and_rejects(void)
{
	uint8_t p[64];
	uint64_t deps[6] = { DEP, DEP, DEP, DEP, DEP, DEP };

	CHECK_EQ(kfdsig_aql_header(KFDSIG_AQL_TYPE_INVALID, 0), 1, "invalid header");
	CHECK_EQ(kfdsig_aql_header(KFDSIG_AQL_TYPE_BARRIER_OR, KFDSIG_AQL_CTL_DEFAULT), 0x1505,
		 "barrier-or default");
	CHECK_EQ(kfdsig_aql_header(6, 0), -EINVAL, "type 6");
	CHECK_EQ(kfdsig_aql_header(2, KFDSIG_AQL_ACQUIRE(3)), -EINVAL, "acquire scope 3");
	CHECK_EQ(kfdsig_aql_header(2, KFDSIG_AQL_RELEASE(3)), -EINVAL, "release scope 3");
	CHECK_EQ(kfdsig_aql_header(2, 1u << 13), -EINVAL, "reserved bit 13");
	CHECK_EQ(kfdsig_aql_header(2, 0x80), -EINVAL, "type bits in ctl");

	CHECK_EQ(kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_KERNEL_DISPATCH, deps, 1, SIG, 0),
		 -EINVAL, "barrier of dispatch type");
	CHECK_EQ(kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_BARRIER_AND, deps, 6, SIG, 0), -EINVAL,
		 "6 deps");
	CHECK_EQ(kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_BARRIER_AND, deps, 5, SIG, 0), 64,
		 "5 deps");
	CHECK_EQ(kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_BARRIER_AND, NULL, 1, SIG, 0), -EINVAL,
		 "deps NULL");
	CHECK_EQ(kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_BARRIER_AND, NULL, 0, SIG + 32, 0),
		 -EINVAL, "signal unaligned");
	deps[0] = DEP + 8;
	CHECK_EQ(kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_BARRIER_AND, deps, 1, SIG, 0), -EINVAL,
		 "dep unaligned");
	CHECK_EQ(kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_BARRIER_AND, NULL, 0, 1ull << 48, 0),
		 KFDSIG_AQL_PACKET_SIZE, "signal at 2^48 (gfx1250: 57 bits)");
	CHECK_EQ(kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_BARRIER_AND, NULL, 0, 1ull << 57, 0),
		 -EINVAL, "signal beyond 2^57");
	CHECK_EQ(kfdsig_aql_emit_barrier(NULL, KFDSIG_AQL_TYPE_BARRIER_AND, NULL, 0, SIG, 0),
		 -EINVAL, "no buffer");
	CHECK(kfdsig_last_error()[0] != 0, "reason recorded");
}

static void golden_signal(void)
{
	/* page 0x7f0000000000, event 5: mailbox 0x7f0000000028, kind USER. */
	/* clang-format off */
	static const uint8_t want[64] = {
		0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* kind USER */
		0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* value 1 */
		0x28, 0x00, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* mailbox */
		0x05, 0x00, 0x00, 0x00, /* event_id */
	};
	/* clang-format on */
	struct kfdsig_amd_signal s, t;
	uint8_t raw[64];
	const uint64_t page = 0x7f0000000000ull;

	memset(&s, 0xcc, sizeof(s));
	CHECK_EQ(kfdsig_amd_signal_prepare(&s, page, 5, 1), 0, "prepare");
	memcpy(raw, &s, sizeof(raw));
	check_bytes("amd_signal_t", raw, want);
	CHECK_EQ(kfdsig_amd_signal_check(&s, page), 0, "prepared signal wakes");
	CHECK_EQ(kfdsig_amd_signal_check(&s, 0), 0, "page unknown");
	CHECK_EQ(kfdsig_amd_signal_prepare(&s, page, 4095, 1), 0, "id 4095");
	CHECK_EQ(s.event_mailbox_ptr, page + 4095 * 8, "slot 4095");

	CHECK_EQ(kfdsig_amd_signal_prepare(&s, page, 0, 1), -EINVAL, "id 0");
	CHECK_EQ(kfdsig_amd_signal_prepare(&s, page, 4096, 1), -EINVAL, "id 4096");
	CHECK_EQ(kfdsig_amd_signal_prepare(&s, 0, 5, 1), -EINVAL, "page 0");
	CHECK_EQ(kfdsig_amd_signal_prepare(&s, page + 8, 5, 1), -EINVAL, "page unaligned");
	CHECK_EQ(kfdsig_amd_signal_prepare(&s, 1ull << 48, 5, 1), 0, "page at 2^48 (gfx1250)");
	CHECK_EQ(kfdsig_amd_signal_prepare(&s, 1ull << 57, 5, 1), -EINVAL, "page beyond 2^57");
	CHECK_EQ(kfdsig_amd_signal_prepare(NULL, page, 5, 1), -EINVAL, "no signal");

	kfdsig_amd_signal_prepare(&s, page, 5, 1);
	t = s, t.event_id = 0;
	CHECK_EQ(kfdsig_amd_signal_check(&t, page),
		 KFDSIG_AMD_SIGNAL_ID_ZERO | KFDSIG_AMD_SIGNAL_WRONG_SLOT, "id 0");
	t = s, t.event_id = 4096, t.event_mailbox_ptr = page + 4096 * 8;
	CHECK_EQ(kfdsig_amd_signal_check(&t, page), KFDSIG_AMD_SIGNAL_ID_RANGE, "id 4096");
	t = s, t.event_mailbox_ptr = page + 6 * 8;
	CHECK_EQ(kfdsig_amd_signal_check(&t, page), KFDSIG_AMD_SIGNAL_WRONG_SLOT, "other slot");
	CHECK_EQ(kfdsig_amd_signal_check(&t, 0), 0, "other slot, page unknown");
	t = s, t.event_mailbox_ptr = 0;
	CHECK_EQ(kfdsig_amd_signal_check(&t, page), KFDSIG_AMD_SIGNAL_NO_MAILBOX, "no mailbox");
	t = s, t.event_mailbox_ptr += 4;
	CHECK_EQ(kfdsig_amd_signal_check(&t, page),
		 KFDSIG_AMD_SIGNAL_UNALIGNED | KFDSIG_AMD_SIGNAL_WRONG_SLOT, "unaligned");
	t = s, t.kind = KFDSIG_AMD_SIGNAL_KIND_DOORBELL;
	CHECK_EQ(kfdsig_amd_signal_check(&t, page), KFDSIG_AMD_SIGNAL_BAD_KIND, "doorbell kind");
}

static void ring_write(void)
{
	_Alignas(64) uint8_t ring[4 * 64];
	uint8_t p[64];
	uint8_t inv[64] = { 0 };

	memset(ring, 0, sizeof(ring));
	for (unsigned int i = 0; i < 4; i++)
		ring[64 * i] = KFDSIG_AQL_TYPE_INVALID;
	kfdsig_aql_emit_barrier(p, KFDSIG_AQL_TYPE_BARRIER_AND, NULL, 0, SIG,
				KFDSIG_AQL_CTL_DEFAULT);
	/* Index 5 of 4 slots: slot 1. */
	CHECK_EQ(kfdsig_aql_ring_write(ring, 4, 5, p), 0, "ring write");
	check_bytes("slot 1", ring + 64, p);
	inv[0] = KFDSIG_AQL_TYPE_INVALID;
	check_bytes("slot 0 untouched", ring, inv);
	check_bytes("slot 2 untouched", ring + 128, inv);
	CHECK_EQ(kfdsig_aql_ring_write(ring, 3, 0, p), -EINVAL, "ring of 3");
	CHECK_EQ(kfdsig_aql_ring_write(ring, 0, 0, p), -EINVAL, "ring of 0");
	CHECK_EQ(kfdsig_aql_ring_write(ring + 8, 2, 0, p), -EINVAL, "unaligned ring");
	CHECK_EQ(kfdsig_aql_ring_write(ring, 4, 0, inv), -EINVAL, "INVALID packet");
	inv[0] = 9; /* published as given: the packet processor refuses it */
	CHECK_EQ(kfdsig_aql_ring_write(ring, 4, 0, inv), 0, "type 9");
	CHECK_EQ(ring[0], 9, "type 9 published");
}

int main(void)
{
	golden_barrier();
	golden_dispatch();
	golden_pm4_ib();
	header_and_rejects();
	golden_signal();
	ring_write();
	return t_result("aql_packets");
}
