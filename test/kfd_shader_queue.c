/* SPDX-License-Identifier: MIT */
/*
 * The shader path end to end: kfdsig's signal stub (both forms) and its
 * PM4 dispatch, submitted to a PM4 queue of the emulated KFD, whose CP
 * hands the wave to the emulated shader unit; the stub's store lands in
 * the slot, its s_sendmsg(MSG_INTERRUPT) reaches the event with the
 * target's m0 bits, and WAIT_EVENTS completes. The emulator's interrupt
 * trace must show the fast path with the full id (the partial-id walk with
 * the id's low byte on gfx8's 8-bit m0): a stub sending another id that
 * the slot scan happens to rescue fails. Every target, ids 1, 255, 256 and
 * 4095.
 */
#include <kfdsig/signal.h>

#include "kfd_util.h"

#define WAIT_MS 5000

static int run_target(const struct kfdsig_target *t, enum kfdsig_shader_form form)
{
	static const uint32_t ids[] = { 1, 255, 256, 4095 };
	struct kfdsig_emu *emu = t_emu(t->name);
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t gpu = t_gpu(kfd, 0), d[KFDSIG_SIGNAL_MAX_DW];
	struct kfdsig_shader_stub s;
	struct kfdsig_kfd_queue *q = NULL;
	const struct kfdsig_kfd_bo *code = NULL;
	uint64_t page_va = 0;
	int fails = 0;

	T_REQUIRE(!kfdsig_shader_stub(t, form, &s), "stub %s", t->name);
	for (uint32_t i = 1; i <= 4095; i++)
		t_event(kfd, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(!kfdsig_kfd_signal_page(kfd, NULL, &page_va), "page");
	T_REQUIRE(!kfdsig_kfd_alloc(kfd, gpu, s.size + 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &code) &&
			  !kfdsig_kfd_map(kfd, code, NULL, 0),
		  "buffers");
	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, NULL, &q), "queue");
	KFDSIG_OPTS(kfdsig_code_buf, cb, .cpu = code->cpu, .va = code->va, .size = code->size,
		    .form = form);
	for (int k = 0; k < 4; k++) {
		struct kfdsig_fence f = { .slot_va = page_va + 8ull * ids[k], .event_id = ids[k] };
		enum kfdsig_wait_result res;
		int n;

		/* one signal at a time: the copy (and kernel arguments) at the
		 * buffer's first 256-byte aligned entry */
		cb.used = 0;
		n = kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &f, &cb, d, KFDSIG_SIGNAL_MAX_DW);
		T_REQUIRE(n > 0, "dispatch %s: %s", t->name, kfdsig_last_error());
		if (kfdsig_kfd_queue_submit(q, d, (uint32_t)n, WAIT_MS) < 0 ||
		    t_wait1(kfd, ids[k], NULL, WAIT_MS, &res) || res != KFDSIG_WAIT_COMPLETE) {
			struct kfdsig_emu_queue_info qi = { 0 };
			kfdsig_emu_queue_info(emu, t_pasid(emu, kfd), 0, &qi);
			fprintf(stderr, "%s %s id %u: not woken (queue halted %d exc %u)\n",
				t->name, form == KFDSIG_SHADER_RAW ? "raw" : "code object", ids[k],
				qi.halted, qi.exception);
			fails++;
		} else {
			char what[64];

			snprintf(what, sizeof(what), "%s %s id %u", t->name,
				 form == KFDSIG_SHADER_RAW ? "raw" : "code object", ids[k]);
			fails += t_irq_fast(emu, t_pasid(emu, kfd), KFDSIG_EMU_IRQ_SQ_MSG,
					    t->sq_msg_id_bits, ids[k], what);
		}
	}
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	return fails;
}

int main(void)
{
	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);

		if (t_no_stub(t))
			continue;
		CHECK_EQ(run_target(t, KFDSIG_SHADER_RAW), 0, "%s raw stub signals", t->name);
		CHECK_EQ(run_target(t, KFDSIG_SHADER_CODE_OBJECT), 0, "%s code object signals",
			 t->name);
	}
	return t_result("kfd_shader_queue");
}
