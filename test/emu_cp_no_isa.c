/* SPDX-License-Identifier: MIT */
/*
 * A dispatch on a GPU whose ISA the shader unit does not decode (gfx1170,
 * GC 11.7: no ISA in LLVM 22) is never pretended done: PM4
 * DISPATCH_DIRECT and an AQL kernel dispatch stop the queue with the
 * waves' illegal-instruction exception; one with a zero dimension is a bad
 * packet, as on every target. On gfx1100 the same dispatch runs on the kernel interpreter (its
 * program at VA 0 is unmapped: a VM fault, not a wave exception).
 */
#include <unistd.h>

#include <kfdsig/pm4.h>

#include "kfd_util.h"

#define WAIT_MS 5000

static uint32_t stops_with(const char *spec, enum kfdsig_queue_type type, const uint32_t *pkt,
			   uint32_t n, const char *what)
{
	struct kfdsig_emu *emu = t_emu(spec);
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_kfd_queue *q = NULL;
	struct kfdsig_emu_queue_info qi;
	uint32_t gpu = t_gpu(kfd, 0);
	int pasid = t_pasid(emu, kfd);

	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, gpu, type, NULL, &q), "queue");
	CHECK(!kfdsig_kfd_queue_submit(q, pkt, n, WAIT_MS), "%s: submit", what);
	/* the engine runs on its own thread: until it halts, or a few
	 * polls after it consumed the packet (dwords on PM4, packets on AQL)
	 * without halting */
	for (uint64_t t0 = t_now_ms(), after = 0;;) {
		memset(&qi, 0, sizeof(qi));
		CHECK(kfdsig_emu_queue_info(emu, pasid, (uint32_t)kfdsig_kfd_queue_id(q), &qi) == 0,
		      "%s: queue info", what);
		if (qi.consumed >= (type == KFDSIG_QUEUE_AQL ? 1 : n))
			after++;
		if (qi.halted || after > 20 || t_now_ms() - t0 > WAIT_MS)
			break;
		usleep(1000);
	}
	CHECK(qi.halted, "%s on %s: the queue went on (consumed %llu)", what, spec,
	      (unsigned long long)qi.consumed);
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	return qi.exception;
}

int main(void)
{
	/* DISPATCH_DIRECT (PACKET3 0x15, 3 + 1 dwords): 1 x 1 x 1 groups,
	 * COMPUTE_SHADER_EN; COMPUTE_PGM_LO/HI left 0 */
	static const uint32_t one[] = { 0xc0031500, 1, 1, 1, 1 };
	static const uint32_t none[] = { 0xc0031500, 1, 0, 1, 1 };
	/* AQL KERNEL_DISPATCH (HSA spec: type 2, one dimension in setup),
	 * workgroup and grid 1 x 1 x 1, a kernel object at 0x1000 */
	static const uint32_t aql[16] = { 0x00010002, 0x00010001, 1, 1, 1, 1, 0, 0, 0x1000 };

	CHECK_EQ(stops_with("gfx1170", KFDSIG_QUEUE_PM4, one, 5, "dispatch"),
		 KFDSIG_EMU_QUEUE_WAVE_EXCEPTION, "gfx1170: the waves' exception");
	CHECK_EQ(stops_with("gfx1171", KFDSIG_QUEUE_AQL, aql, 16, "AQL dispatch"),
		 KFDSIG_EMU_QUEUE_WAVE_EXCEPTION, "gfx1171 AQL: the waves' exception");
	CHECK_EQ(stops_with("gfx1170", KFDSIG_QUEUE_PM4, none, 5, "empty dispatch"),
		 KFDSIG_EMU_QUEUE_BAD_OPCODE, "gfx1170: a zero dimension is a bad packet");
	CHECK_EQ(stops_with("gfx1100", KFDSIG_QUEUE_PM4, one, 5, "dispatch"),
		 KFDSIG_EMU_QUEUE_VM_FAULT, "gfx1100: the program at 0 faults");
	return t_result("emu_cp_no_isa");
}
