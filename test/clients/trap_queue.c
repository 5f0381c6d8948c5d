/* SPDX-License-Identifier: MIT */
/*
 * A KFD client (a runtime: RUNTIME_ENABLE first) that runs kfdsig's trap
 * stub (s_trap 3, llvm.debugtrap) as one wave on a PM4 compute queue of the
 * first GPU, through /dev/kfd (under kfdsig debug: the interposer's
 * emulated KFD). It prints "trap_queue: pid P queue Q gpu 0xG" on stderr,
 * so that `kfdsig debug -- trap_queue` can be checked to name that queue,
 * and waits up to WAIT_MS for the ring to drain. Under a debugger the
 * wave stops at its s_trap, the queue with it, so it must not (exit 0);
 * exit 1 when the ring drained (the trap did not stop it: as it does, by
 * design, with no debugger, where the trap handler steps over
 * llvm.debugtrap) or on an error. The wait also gives the debugger the
 * time to collect the exception before the process ends.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <kfdsig/kfdsig.h>

#define WAIT_MS 1000

int main(void)
{
	const struct kfdsig_kfd_device *dev;
	const struct kfdsig_kfd_bo *code = NULL;
	struct kfdsig_shader_stub s;
	struct kfdsig_kfd_queue *q = NULL;
	struct kfdsig_kfd *kfd = NULL;
	uint32_t d[KFDSIG_PM4_DISPATCH_MAX_DW];
	int n, r;

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
	if (kfdsig_kfd_alloc(kfd, dev->gpu_id, s.size, KFDSIG_KFD_MEM_GTT_UNCACHED, &code) ||
	    kfdsig_kfd_map(kfd, code, NULL, 0) ||
	    kfdsig_kfd_queue_create(kfd, dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &q)) {
		fprintf(stderr, "trap_queue: setup: %s\n", kfdsig_last_error());
		return 1;
	}
	memcpy(code->cpu, s.bytes, s.size);
	n = kfdsig_pm4_emit_dispatch(&s, code->va, 0, d, KFDSIG_PM4_DISPATCH_MAX_DW);
	if (n < 0 || kfdsig_kfd_queue_submit(q, d, (uint32_t)n, WAIT_MS)) {
		fprintf(stderr, "trap_queue: submit: %s\n", kfdsig_last_error());
		return 1;
	}
	fprintf(stderr, "trap_queue: pid %d queue %d gpu 0x%x\n", (int)getpid(),
		kfdsig_kfd_queue_id(q), dev->gpu_id);
	r = kfdsig_kfd_queue_wait_idle(q, WAIT_MS);
	if (r == 0) {
		fprintf(stderr,
			"trap_queue: the ring drained: the s_trap did not stop the queue\n");
		return 1;
	}
	return 0;
}
