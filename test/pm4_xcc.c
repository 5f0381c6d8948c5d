/* SPDX-License-Identifier: MIT */
/*
 * The multi-XCC PM4 emitters (src/pm4/pm4_xcc.c, docs/multi-xcc.md) against
 * dwords written by hand from soc15d.h and tinygrad ops_amd.py:
 * PRED_EXEC = PACKET3(0x23, 0), xcc_mask << 24 | count; INDIRECT_BUFFER =
 * PACKET3(0x3f, 2), base lo (dword aligned), base hi, valid (bit 23) | size;
 * the predicated fence; the fence's IB in a code buffer; what they refuse;
 * and kfdsig_kfd_queue_submit() putting a PRED_EXEC region in an in-ring IB
 * (5 dwords more) on a multi-XCC target only.
 */
#include <stdlib.h>

#include <kfdsig/pm4.h>
#include <kfdsig/signal.h>

#include "kfd_util.h"

static void test_pred_exec_ib(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx942");
	const struct kfdsig_target *one = kfdsig_target_by_name("gfx90a");
	uint32_t d[8] = { 0 };

	CHECK(t && t->max_xcc == 8 && one && one->max_xcc == 1, "max_xcc 8 / 1");
	CHECK(kfdsig_target_by_name("gfx950")->max_xcc == 8 &&
		      kfdsig_target_by_name("gfx940")->max_xcc == 8 &&
		      kfdsig_target_by_name("gfx1250")->max_xcc == 8,
	      "gfx950, gfx940 and gfx1250 multi-XCC");
	/* gfx_v12_1_pkt.h: PACKET3_PRED_EXEC 0x23, EXEC_COUNT [13:0],
	 * VIRTUALXCCID_SELECT [31:24]: GC 9.4.3's words. */
	CHECK_EQ(kfdsig_pm4_emit_pred_exec(kfdsig_target_by_name("gfx1250"), 1, 8, d, 8), 2,
		 "gfx1250 PRED_EXEC");
	CHECK(d[0] == 0xc0002300u && d[1] == 0x01000008u, "gfx1250 PRED_EXEC 0x%08x 0x%08x", d[0],
	      d[1]);
	CHECK_EQ(kfdsig_pm4_emit_pred_exec(t, 1, 8, d, 8), 2, "PRED_EXEC");
	CHECK(d[0] == 0xc0002300u && d[1] == 0x01000008u, "PRED_EXEC 0x%08x 0x%08x", d[0], d[1]);
	CHECK_EQ(kfdsig_pm4_emit_pred_exec(t, 0x80, 0x3fff, d, 8), 2, "mask XCC 7, count max");
	CHECK_EQ(d[1], 0x80003fffu, "mask 0x80, count 0x3fff");
	CHECK_EQ(kfdsig_pm4_emit_pred_exec(one, 1, 8, d, 8), -EINVAL, "one-XCC target");
	CHECK_EQ(kfdsig_pm4_emit_pred_exec(t, 0, 8, d, 8), -EINVAL, "mask 0");
	CHECK_EQ(kfdsig_pm4_emit_pred_exec(t, 0x100, 8, d, 8), -EINVAL, "mask past XCC 7");
	CHECK_EQ(kfdsig_pm4_emit_pred_exec(t, 1, 0x4000, d, 8), -EINVAL, "count past 14 bits");
	CHECK_EQ(kfdsig_pm4_emit_pred_exec(t, 1, 8, d, 1), -ENOSPC, "room");

	CHECK_EQ(kfdsig_pm4_emit_ib(t, 0x123456789abcull, 10, d, 8), 4, "INDIRECT_BUFFER");
	CHECK(d[0] == 0xc0023f00u && d[1] == 0x56789abcu && d[2] == 0x1234u && d[3] == 0x0080000au,
	      "IB %08x %08x %08x %08x", d[0], d[1], d[2], d[3]);
	CHECK_EQ(kfdsig_pm4_emit_ib(t, 0x1002, 10, d, 8), -EINVAL, "unaligned");
	CHECK_EQ(kfdsig_pm4_emit_ib(t, 0, 10, d, 8), -EINVAL, "address 0");
	CHECK_EQ(kfdsig_pm4_emit_ib(t, 1ull << 48, 10, d, 8), -EINVAL, "past 2^48");
	CHECK_EQ(kfdsig_pm4_emit_ib(t, 0x1000, 0, d, 8), -EINVAL, "size 0");
	CHECK_EQ(kfdsig_pm4_emit_ib(t, 0x1000, 0x100000, d, 8), -EINVAL, "size past 20 bits");
	CHECK_EQ(kfdsig_pm4_emit_ib(t, 0x1000, 10, d, 3), -ENOSPC, "room");
}

static void test_fences(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx942");
	const struct kfdsig_target *one = kfdsig_target_by_name("gfx90a");
	struct kfdsig_fence f = { .slot_va = 0x7f0000000000ull + 8 * 5, .event_id = 5 };
	uint32_t d[KFDSIG_PM4_XCC_FENCE_MAX_DW], plain[KFDSIG_PM4_FENCE_MAX_DW], ib[8];
	uint32_t *mem = calloc(1, 4096);
	int n, m;

	T_REQUIRE(mem, "memory");
	m = kfdsig_pm4_emit_fence(t, &f, plain, KFDSIG_PM4_FENCE_MAX_DW);
	n = kfdsig_pm4_emit_fence_xcc(t, &f, 1, d, KFDSIG_PM4_XCC_FENCE_MAX_DW);
	CHECK(m == 8 && n == 10 && d[0] == 0xc0002300u && d[1] == 0x01000008u &&
		      !memcmp(d + 2, plain, 32),
	      "PRED_EXEC(XCC 0, 8) then the fence");
	CHECK_EQ(kfdsig_pm4_emit_fence_xcc(t, &f, 1, d, 9), -ENOSPC, "room for both");
	f.event_id = 0;
	CHECK_EQ(kfdsig_pm4_emit_fence_xcc(t, &f, 1, d, 16), -EINVAL, "the fence's checks hold");
	f.event_id = 5;

	/* the IB form: the body at the next 32-byte boundary of the buffer */
	KFDSIG_OPTS(kfdsig_code_buf, cb, .cpu = mem, .va = 0x40000, .size = 4096, .used = 3);
	CHECK_EQ(kfdsig_pm4_emit_fence_ib(t, &f, &cb, ib, 8), 4, "IB form");
	CHECK(ib[0] == 0xc0023f00u && ib[1] == 0x40020u && ib[2] == 0 && ib[3] == 0x0080000au,
	      "IB of the 10 dwords at 0x40020");
	CHECK(!memcmp(mem + 8, d, 40) && cb.used == 0x20 + 40, "body in place, used past it");
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_PM4, &f, &cb, ib, 8), 4,
		 "kfdsig_emit_signal with a code buffer: the IB form");
	CHECK_EQ(ib[1], 0x40060u, "the next IB at the next boundary");
	cb.used = 4096 - 32;
	CHECK_EQ(kfdsig_pm4_emit_fence_ib(t, &f, &cb, ib, 8), -ENOSPC, "no room in the buffer");
	CHECK_EQ(cb.used, 4096 - 32, "used unchanged");
	cb.used = 0;
	CHECK_EQ(kfdsig_pm4_emit_fence_ib(t, &f, &cb, ib, 3), -ENOSPC, "no room for the IB");
	CHECK_EQ(cb.used, 0, "used unchanged");
	cb.pad_0 = 1;
	CHECK_EQ(kfdsig_pm4_emit_fence_ib(t, &f, &cb, ib, 8), -EINVAL, "pad_0");
	cb.pad_0 = 0;
	cb.va = 0x40002;
	CHECK_EQ(kfdsig_pm4_emit_fence_ib(t, &f, &cb, ib, 8), -EINVAL, "unaligned buffer");
	cb.va = 0x40000;
	/* one XCC: the plain fence, in an IB all the same */
	CHECK_EQ(kfdsig_pm4_emit_fence_ib(one, &f, &cb, ib, 8), 4, "gfx90a IB form");
	CHECK(ib[3] == 0x00800008u && !memcmp(mem, plain, 32), "8 plain dwords");
	/* kfdsig_emit_signal without a code buffer: the predicated fence on
	 * gfx942, the plain one on gfx90a */
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_PM4, &f, NULL, d, 16), 10, "gfx942: 10");
	CHECK_EQ(kfdsig_emit_signal(one, KFDSIG_SIGNAL_PM4, &f, NULL, d, 16), 8, "gfx90a: 8");
	free(mem);
}

/* The submit puts a PRED_EXEC region behind an IB + NOP (5 dwords) on a
 * multi-XCC target, nothing else. */
static void test_submit(const char *spec, uint64_t want_pred, uint64_t want_plain)
{
	struct kfdsig_emu *emu = t_emu(spec);
	struct kfdsig_kfd *kfd = t_open(emu);
	const struct kfdsig_target *t = kfdsig_kfd_device(kfd, 0)->target;
	struct kfdsig_emu_queue_info qi = { 0 };
	struct kfdsig_kfd_queue *q;
	uint32_t d[16] = { 0xc0002300u, 0x01000002u, 0xc0001000u, 0 }; /* PRED_EXEC, NOP(1) */
	uint32_t plain[2] = { 0xc0001000u, 0 };

	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, t_gpu(kfd, 0), KFDSIG_QUEUE_PM4, NULL, &q), "q");
	if (t->max_xcc > 1) {
		T_REQUIRE(!kfdsig_kfd_queue_submit(q, d, 4, 1000), "submit");
		T_REQUIRE(!kfdsig_kfd_queue_wait_idle(q, 1000), "idle");
		kfdsig_emu_queue_info(emu, t_pasid(emu, kfd), (uint32_t)kfdsig_kfd_queue_id(q),
				      &qi);
		CHECK(!qi.halted && qi.consumed == want_pred,
		      "%s: PRED_EXEC region took %llu dwords", spec,
		      (unsigned long long)qi.consumed);
	}
	T_REQUIRE(!kfdsig_kfd_queue_submit(q, plain, 2, 1000), "submit");
	T_REQUIRE(!kfdsig_kfd_queue_wait_idle(q, 1000), "idle");
	kfdsig_emu_queue_info(emu, t_pasid(emu, kfd), (uint32_t)kfdsig_kfd_queue_id(q), &qi);
	CHECK(!qi.halted && qi.consumed == want_plain, "%s: plain packets as they are (%llu)", spec,
	      (unsigned long long)qi.consumed);
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_target_xcc(void)
{
	KFDSIG_OPTS(kfdsig_queue_opts, o, .pm4_target_xcc = 3);
	struct kfdsig_emu *emu = t_emu("gfx942");
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_kfd_queue *q = NULL;
	uint32_t gpu = t_gpu(kfd, 0);

	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &o, &q), 0,
		 "pm4_target_xcc 3 on an 8-XCC node: %s", kfdsig_last_error());
	kfdsig_kfd_queue_destroy(q);
	o.pm4_target_xcc = 8;
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &o, &q), -EINVAL,
		 "XCC 8 of 8");
	o.pm4_target_xcc = 1;
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_SDMA, &o, &q), -EINVAL, "SDMA");
	o.pm4_target_xcc = 0;
	o.pad_0 = 1;
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &o, &q), -EINVAL, "pad_0");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);

	/* before KFD 1.14 bits 15:8 are not sent (the kernel would refuse) */
	emu = t_emu("gfx942,kfd=1.13");
	kfd = t_open(emu);
	o.pad_0 = 0;
	o.pm4_target_xcc = 1;
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, t_gpu(kfd, 0), KFDSIG_QUEUE_PM4, &o, &q), -ENOTSUP,
		 "KFD 1.13");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

int main(void)
{
	test_pred_exec_ib();
	test_fences();
	test_submit("gfx942", 2 + 5 + 2, 2 + 5 + 2 + 2);
	test_submit("gfx90a", 0, 2);
	test_target_xcc();
	return t_result("pm4_xcc");
}
