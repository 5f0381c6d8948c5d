/* SPDX-License-Identifier: MIT */
/*
 * The trap stub end to end on the emulated KFD: kfdsig's trap stub
 * (KFDSIG_SHADER_TRAP, raw form: s_trap 3, llvm.debugtrap) dispatched on
 * a PM4 queue, followed on the same ring by a RELEASE_MEM fence of an
 * event.
 *   - With a debugger (this process calls RUNTIME_ENABLE, then enables
 *     DBG_TRAP on itself, a pipe as dbg_fd; gfx9 and later): the wave
 *     stops at its s_trap, the queue stops with it (the CP's wave
 *     exception), a byte reaches dbg_fd, and the fence behind the
 *     dispatch never runs: the event is not signalled.
 *   - With a debugger but no RUNTIME_ENABLE: kfd_dbg_trap_enable() defers
 *     the activation (and with it TTMP11 DebugEnabled) to RUNTIME_ENABLE,
 *     so the handler steps over the trap: the fence signals the event and
 *     the debugger's queries show no EC_QUEUE_WAVE_TRAP.
 *   - Without one (a runtime: RUNTIME_ENABLE, no debugger): the trap
 *     handler steps over llvm.debugtrap (ROCr trap_handler.s, TTMP11
 *     DebugEnabled clear): the queue goes on and the fence signals the
 *     event.
 *   - The same ring with the signal stub in place of the trap stub
 *     signals both (control).
 * One target per stub family. Waits are bounded (queue halted or idle
 * within WAIT_MS).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

#include <kfdsig/debug.h>
#include <kfdsig/signal.h>

#include "kfd_util.h"

#define WAIT_MS 5000

/* Poll the queue until it halts or its ring is consumed. */
static void wait_queue(struct kfdsig_emu *emu, int pasid, uint32_t qid,
		       struct kfdsig_emu_queue_info *qi, struct kfdsig_kfd_queue *q)
{
	uint64_t end = t_now_ms() + WAIT_MS;

	do {
		memset(qi, 0, sizeof(*qi));
		kfdsig_emu_queue_info(emu, pasid, qid, qi);
		if (qi->halted || kfdsig_kfd_queue_wait_idle(q, 10) == 0)
			return;
	} while (t_now_ms() < end);
}

enum mode { SIGNAL_STUB, TRAP_NO_DEBUGGER, TRAP_DEBUGGER, TRAP_DEBUGGER_NO_RUNTIME };

static int run_target(const struct kfdsig_target *t, enum mode mode)
{
	bool trap = mode != SIGNAL_STUB;
	int pfd[2] = { -1, -1 };
	struct kfdsig_emu *emu = t_emu(t->name);
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t gpu = t_gpu(kfd, 0), d[KFDSIG_PM4_DISPATCH_MAX_DW + 64];
	struct kfdsig_shader_stub s;
	struct kfdsig_kfd_queue *q = NULL;
	const struct kfdsig_kfd_bo *code = NULL;
	struct kfdsig_emu_queue_info qi;
	struct kfdsig_event ev = t_event(kfd, KFDSIG_EVENT_SIGNAL, false);
	uint64_t page_va = 0, *page = NULL;
	uint32_t id = ev.id;
	int n, m, fails = 0;

	T_REQUIRE(!kfdsig_shader_stub(
			  t, trap ? KFDSIG_SHADER_RAW | KFDSIG_SHADER_TRAP : KFDSIG_SHADER_RAW, &s),
		  "stub %s", t->name);
	T_REQUIRE(!kfdsig_kfd_signal_page(kfd, &page, &page_va), "page");
	T_REQUIRE(!kfdsig_kfd_alloc(kfd, gpu, s.size + 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &code) &&
			  !kfdsig_kfd_map(kfd, code, NULL, 0),
		  "buffers");
	if (mode == TRAP_DEBUGGER || mode == TRAP_NO_DEBUGGER)
		T_REQUIRE(!kfdsig_kfd_runtime_enable(kfd, 0, 0, NULL), "%s: runtime enable: %s",
			  t->name, kfdsig_last_error());
	if (mode == TRAP_DEBUGGER || mode == TRAP_DEBUGGER_NO_RUNTIME) {
		T_REQUIRE(!pipe2(pfd, O_CLOEXEC | O_NONBLOCK), "pipe");
		T_REQUIRE(!kfdsig_dbg_enable(kfd, getpid(), KFDSIG_EC_MASK_QUEUE, pfd[1], NULL),
			  "%s: DBG_TRAP ENABLE on itself: %s", t->name, kfdsig_last_error());
	}
	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, NULL, &q), "queue");
	if (trap) {
		memcpy(code->cpu, s.bytes, s.size);
		n = kfdsig_pm4_emit_dispatch(&s, code->va, 0, d, KFDSIG_PM4_DISPATCH_MAX_DW);
	} else {
		/* the signal stub signals the event, then the fence does again */
		KFDSIG_OPTS(kfdsig_code_buf, cb, .cpu = code->cpu, .va = code->va,
			    .size = code->size, .form = KFDSIG_SHADER_RAW);
		struct kfdsig_fence sf = { .slot_va = page_va + 8ull * id, .event_id = id };
		n = kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &sf, &cb, d,
				       KFDSIG_PM4_DISPATCH_MAX_DW);
	}
	T_REQUIRE(n > 0, "dispatch %s: %s", t->name, kfdsig_last_error());
	{
		struct kfdsig_fence f = { .slot_va = page_va + 8ull * id,
					  .event_id = id,
					  .flags = KFDSIG_FENCE_VALUE,
					  .value = 7 };
		m = kfdsig_pm4_emit_fence(t, &f, d + n, 64);
		T_REQUIRE(m > 0, "fence %s: %s", t->name, kfdsig_last_error());
	}
	T_REQUIRE(!kfdsig_kfd_queue_submit(q, d, (uint32_t)(n + m), WAIT_MS), "submit");
	wait_queue(emu, t_pasid(emu, kfd), (uint32_t)kfdsig_kfd_queue_id(q), &qi, q);
	if (mode == TRAP_DEBUGGER) {
		enum kfdsig_wait_result res = KFDSIG_WAIT_COMPLETE;
		char b;

		if (!qi.halted || qi.exception != KFDSIG_EMU_QUEUE_WAVE_EXCEPTION) {
			fprintf(stderr, "%s trap: queue not stopped (halted %d exception %u)\n",
				t->name, qi.halted, qi.exception);
			fails++;
		}
		if (page[id] == 7) {
			fprintf(stderr, "%s trap: the fence after the s_trap ran\n", t->name);
			fails++;
		}
		/* halted before the fence: WAIT_EVENTS with timeout 0 finds nothing */
		if (t_wait1(kfd, id, NULL, 0, &res) || res != KFDSIG_WAIT_TIMEOUT) {
			fprintf(stderr, "%s trap: event %u signalled\n", t->name, id);
			fails++;
		}
		/* the exception reached the debugger (kfd_dbg_ev_raise) */
		if (read(pfd[0], &b, 1) != 1) {
			fprintf(stderr, "%s trap: no byte on dbg_fd\n", t->name);
			fails++;
		}
	} else {
		enum kfdsig_wait_result res;

		/* (the interrupt's acknowledgement resets the slot: kfd_events.c) */
		if (qi.halted || t_wait1(kfd, id, NULL, WAIT_MS, &res) ||
		    res != KFDSIG_WAIT_COMPLETE) {
			fprintf(stderr, "%s %s: halted %d exception %u, event not signalled\n",
				t->name,
				mode == SIGNAL_STUB	   ? "signal"
				: mode == TRAP_NO_DEBUGGER ? "trap without a debugger"
							   : "trap before runtime enable",
				qi.halted, qi.exception);
			fails++;
		}
		/* the debugger hears of the queue (EC_QUEUE_NEW, raised on the
		 * enable alone: kfd_process_queue_manager.c pqm_create_queue)
		 * but of no wave trap */
		for (int i = 0; mode == TRAP_DEBUGGER_NO_RUNTIME && i < 16; i++) {
			struct kfdsig_dbg_event de = { 0 };

			if (kfdsig_dbg_query_event(kfd, getpid(), ~0ull, &de))
				break;
			if (de.exceptions & KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_WAVE_TRAP)) {
				fprintf(stderr,
					"%s trap before runtime enable: EC_QUEUE_WAVE_TRAP\n",
					t->name);
				fails++;
			}
		}
	}
	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	if (pfd[0] >= 0) {
		close(pfd[0]);
		close(pfd[1]);
	}
	return fails;
}

int main(void)
{
	static const char *const targets[] = { "gfx803",  "gfx900",  "gfx90a",	"gfx942",
					       "gfx1010", "gfx1030", "gfx1100", "gfx1201" };

	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		const struct kfdsig_target *t = kfdsig_target_by_name(targets[i]);

		CHECK(t, "target %s", targets[i]);
		if (!t)
			continue;
		/* KFD debugs GC 9 and later (kfd_dbg_trap_enable -> -ENODEV) */
		if (t->level >= KFDSIG_GFX9) {
			CHECK_EQ(run_target(t, TRAP_DEBUGGER), 0,
				 "%s: under a debugger the trap stub stops the queue", t->name);
			CHECK_EQ(run_target(t, TRAP_DEBUGGER_NO_RUNTIME), 0,
				 "%s: a debugger before RUNTIME_ENABLE: the wave steps over the "
				 "trap",
				 t->name);
		}
		CHECK_EQ(run_target(t, TRAP_NO_DEBUGGER), 0,
			 "%s: without a debugger the wave steps over the trap", t->name);
		CHECK_EQ(run_target(t, SIGNAL_STUB), 0, "%s: the signal stub and fence run",
			 t->name);
	}
	return t_result("kfd_trap_queue");
}
