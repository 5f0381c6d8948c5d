/* SPDX-License-Identifier: MIT */
/*
 * The emulated GC 12.1 CP: the opcodes "drm/amdgpu: update cp packets for gfx
 * v12_1" (commit 90ddf2794258) removed from gfx_v12_1_pkt.h are a bad opcode
 * there (the queue halts before them, nothing consumed), while gfx1201's CP
 * still takes EVENT_WRITE_EOP's place in the ring without halting on it; a
 * wave64 dispatch on gfx1250 (wave32 only) halts the queue the same way.
 */
#include <unistd.h>

#include <kfdsig/pm4.h>

#include "kfd_util.h"

#define WAIT_MS 5000

static void halts_on(const char *spec, const uint32_t *pkt, uint32_t n, bool want_halt,
		     const char *what)
{
	struct kfdsig_emu *emu = t_emu(spec);
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_kfd_queue *q = NULL;
	struct kfdsig_emu_queue_info qi;
	uint32_t gpu = t_gpu(kfd, 0);
	int pasid = t_pasid(emu, kfd);

	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, NULL, &q), "queue");
	CHECK(!kfdsig_kfd_queue_submit(q, pkt, n, WAIT_MS), "%s: submit", what);
	/* the engine runs on its own thread: until it halts or moves on */
	for (uint64_t t0 = t_now_ms();;) {
		memset(&qi, 0, sizeof(qi));
		CHECK(kfdsig_emu_queue_info(emu, pasid, (uint32_t)kfdsig_kfd_queue_id(q), &qi) == 0,
		      "%s: queue info", what);
		if (qi.halted || qi.consumed || t_now_ms() - t0 > WAIT_MS)
			break;
		usleep(1000);
	}
	if (want_halt)
		CHECK(qi.halted && qi.exception == KFDSIG_EMU_QUEUE_BAD_OPCODE && qi.consumed == 0,
		      "%s on %s: a bad opcode (halted %d, exception %d, consumed %llu)", what, spec,
		      qi.halted, (int)qi.exception, (unsigned long long)qi.consumed);
	else
		CHECK(qi.exception != KFDSIG_EMU_QUEUE_BAD_OPCODE,
		      "%s on %s: not a bad opcode (exception %d)", what, spec, (int)qi.exception);
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

int main(void)
{
	/* EVENT_WRITE_EOP, gfx9+ form: 6 dwords, no interrupt, no data */
	static const uint32_t eop[] = { 0xc0044700, 0x00000514, 0, 0, 0, 0 };
	/* MEM_SEMAPHORE: 3 dwords */
	static const uint32_t sem[] = { 0xc0013900, 0, 0 };
	/* AQL_PACKET (0x99): 2 dwords */
	static const uint32_t aql[] = { 0xc0009900, 0 };
	/* DISPATCH_DIRECT (0x15): x, y, z, COMPUTE_SHADER_EN */
	static const uint32_t w64[] = { 0xc0031500, 1, 1, 1, 1 };

	halts_on("gfx1250", eop, 6, true, "EVENT_WRITE_EOP");
	halts_on("gfx1250", sem, 3, true, "MEM_SEMAPHORE");
	halts_on("gfx1250", aql, 2, true, "AQL_PACKET");
	halts_on("gfx1201", eop, 6, false, "EVENT_WRITE_EOP");
	/* DISPATCH_DIRECT of one group without CS_W32_EN: a wave64 dispatch,
	 * which gfx1250 (wave32 only) does not accept */
	halts_on("gfx1250", w64, 5, true, "wave64 DISPATCH_DIRECT");
	return t_result("emu_gc12_1_cp");
}
