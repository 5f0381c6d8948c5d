/* SPDX-License-Identifier: MIT */
/*
 * A KFD client (a runtime: RUNTIME_ENABLE first) that runs kfdsig's trap
 * stub (s_trap 3, llvm.debugtrap) as one wave on a PM4 compute queue of the
 * first GPU, through /dev/kfd (under kfdsig debug: the interposer's
 * emulated KFD). It prints "trap_queue: pid P queue Q gpu 0xG" on stderr,
 * so that `kfdsig debug -- trap_queue` can be checked to name that queue.
 *
 * trap_queue: waits up to WAIT_MS for the ring to drain. Under a debugger
 * the wave stops at its s_trap, the queue with it, so it must not (exit
 * 0); exit 1 when the ring drained (the trap did not stop it: as it does,
 * by design, with no debugger, where the trap handler steps over
 * llvm.debugtrap) or on an error. The wait also gives the debugger the
 * time to collect the exception before the process ends.
 *
 * trap_queue step | together: for run-debug-exact.sh, one exception per
 * step with nothing left to the scheduler. The client is its own KFD
 * process's debugger (the interposer's debug agent enabled DBG_TRAP on it,
 * from inside it), so it can look at its queue's pending exceptions
 * without clearing them (GET_QUEUE_SNAPSHOT, clear mask 0).
 *   step: after creating the queue, wait until the debugger has queried
 *   (and so cleared) its EC_QUEUE_NEW, then run the trap: the two come in
 *   two reports.
 *   together: take EC_QUEUE_NEW out of the process's enabled exceptions
 *   (SET_EXCEPTIONS_ENABLED) before creating the queue: a pending
 *   exception that is not enabled does not make its queue reported
 *   (kfd_debug.c kfd_dbg_ev_query_debug_event() looks for
 *   exception_status & exception_enable_mask), so EC_QUEUE_NEW waits and
 *   comes with the trap in one report.
 * Both then wait (up to HOLD_MS, then exit 1) for the debugger to stop
 * them: `kfdsig debug --count N` kills its command after N exceptions.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kfdsig/debug.h>
#include <kfdsig/kfdsig.h>

#define WAIT_MS 1000
#define HOLD_MS 60000

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait until queue @id of this process has no @bits pending: 0, or -1
 * after HOLD_MS or when the snapshot fails (no debugger). */
static int wait_cleared(struct kfdsig_kfd *kfd, uint32_t id, uint64_t bits)
{
	for (long waited = 0; waited < HOLD_MS; waited++) {
		struct kfdsig_dbg_queue_entry e[8];
		uint32_t n = 8;
		bool pending = false;

		if (kfdsig_dbg_queue_snapshot(kfd, getpid(), 0, e, &n)) {
			fprintf(stderr, "trap_queue: queue snapshot: %s\n", kfdsig_last_error());
			return -1;
		}
		for (uint32_t i = 0; i < n && i < 8; i++)
			if (e[i].queue_id == id && (e[i].exception_status & bits))
				pending = true;
		if (!pending)
			return 0;
		sleep_ms(1);
	}
	fprintf(stderr, "trap_queue: queue %u: exceptions 0x%llx not taken in %d ms\n", id,
		(unsigned long long)bits, HOLD_MS);
	return -1;
}

int main(int argc, char **argv)
{
	const struct kfdsig_kfd_device *dev;
	const struct kfdsig_kfd_bo *code = NULL;
	struct kfdsig_shader_stub s;
	struct kfdsig_kfd_queue *q = NULL;
	struct kfdsig_kfd *kfd = NULL;
	uint32_t d[KFDSIG_PM4_DISPATCH_MAX_DW];
	const uint64_t qnew = KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_NEW);
	const char *mode = argc > 1 ? argv[1] : "";
	bool step = !strcmp(mode, "step"), together = !strcmp(mode, "together");
	int n, r;

	if (*mode && !step && !together) {
		fprintf(stderr, "usage: trap_queue [step|together]\n");
		return 2;
	}
	if (kfdsig_kfd_open(NULL, &kfd) || !(dev = kfdsig_kfd_device(kfd, 0))) {
		fprintf(stderr, "trap_queue: no KFD GPU: %s\n", kfdsig_last_error());
		return 1;
	}
	if (!dev->target ||
	    kfdsig_shader_stub(dev->target, KFDSIG_SHADER_RAW | KFDSIG_SHADER_TRAP, &s)) {
		fprintf(stderr, "trap_queue: no trap stub: %s\n", kfdsig_last_error());
		return 1;
	}
	/* A runtime: its queues' exceptions are its own unless a debugger
	 * takes them (with one attached, this waits for its answer). */
	r = kfdsig_kfd_runtime_enable(kfd, 0, 0, NULL);
	if (r && r != -ENOTSUP) {
		fprintf(stderr, "trap_queue: runtime enable: %s\n", kfdsig_last_error());
		return 1;
	}
	if (together &&
	    kfdsig_dbg_set_exceptions_enabled(
		    kfd, getpid(),
		    (KFDSIG_EC_MASK_QUEUE | KFDSIG_EC_MASK_DEVICE | KFDSIG_EC_MASK_PROCESS) &
			    ~qnew)) {
		fprintf(stderr, "trap_queue: set exceptions enabled: %s\n", kfdsig_last_error());
		return 1;
	}
	if (kfdsig_kfd_alloc(kfd, dev->gpu_id, s.size, KFDSIG_KFD_MEM_GTT_UNCACHED, &code) ||
	    kfdsig_kfd_map(kfd, code, NULL, 0) ||
	    kfdsig_kfd_queue_create(kfd, dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &q)) {
		fprintf(stderr, "trap_queue: setup: %s\n", kfdsig_last_error());
		return 1;
	}
	fprintf(stderr, "trap_queue: pid %d queue %d gpu 0x%x\n", (int)getpid(),
		kfdsig_kfd_queue_id(q), dev->gpu_id);
	if (step && wait_cleared(kfd, (uint32_t)kfdsig_kfd_queue_id(q), qnew))
		return 1;
	memcpy(code->cpu, s.bytes, s.size);
	n = kfdsig_pm4_emit_dispatch(&s, code->va, 0, d, KFDSIG_PM4_DISPATCH_MAX_DW);
	if (n < 0 || kfdsig_kfd_queue_submit(q, d, (uint32_t)n, WAIT_MS)) {
		fprintf(stderr, "trap_queue: submit: %s\n", kfdsig_last_error());
		return 1;
	}
	if (step || together) {
		sleep_ms(HOLD_MS);
		fprintf(stderr, "trap_queue: not stopped by the debugger in %d ms\n", HOLD_MS);
		return 1;
	}
	r = kfdsig_kfd_queue_wait_idle(q, WAIT_MS);
	if (r == 0) {
		fprintf(stderr,
			"trap_queue: the ring drained: the s_trap did not stop the queue\n");
		return 1;
	}
	return 0;
}
