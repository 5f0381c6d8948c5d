/* SPDX-License-Identifier: MIT */
/*
 * A compiled kernel's store to memory no buffer backs, on the emulated
 * shader unit through an AQL queue of the emulated KFD: the kernel of
 * test/kernels/sqk_poke.ll compiled by LLVM 22 at -O3 for gfx900, gfx90a,
 * gfx1030, gfx1100 and gfx1200.
 *   - a store to an unmapped page: the dispatch never completes, the
 *     process's queue stops on the VM fault, and the MEMORY event carries
 *     the page, NotPresent and the GPU (kfd_events.c
 *     kfd_signal_vm_fault_event());
 *   - a store to a buffer mapped without KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE:
 *     the MEMORY event says ReadOnly with the buffer's page, and nothing
 *     is written.
 * Exit 77 without LLVM 22.
 */
#include "emu_sqk_util.h"

#define WAIT_MS 20000

/* Run poke on @r with its argument @va: the dispatch must stop the queue;
 * then the MEMORY event @mem must be set with the page of @va. The queue
 * is destroyed: DESTROY_QUEUE joins the engine that took the fault, so
 * its fault handling (the MEMORY events) is over and the event is read
 * without waiting for it. */
static void poke(struct krig *r, uint32_t mem, uint64_t va, bool ro, const char *what)
{
	struct kfdsig_wait_entry w = { .event_id = mem };
	enum kfdsig_wait_result res = KFDSIG_WAIT_TIMEOUT;
	uint32_t exc = 0;

	CHECK(krig_run(r, "poke", 64, 64, &va, 8, WAIT_MS) == -EIO,
	      "%s: the faulting dispatch never completes, the queue stops", what);
	CHECK(krig_halted(r, r->q, &exc) && exc == KFDSIG_EMU_QUEUE_VM_FAULT,
	      "%s: the queue stopped on the VM fault (exception %u)", what, exc);
	CHECK(kfdsig_kfd_queue_destroy(r->q) == 0, "%s: queue destroyed", what);
	r->q = NULL;
	CHECK(kfdsig_kfd_wait(r->kfd, &w, 1, false, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
	      "%s: MEMORY event set when the engine stopped", what);
	CHECK(w.memory.va == (va & ~4095ull) && w.memory.gpu_id == r->gpu &&
		      w.memory.read_only == ro && w.memory.not_present == !ro,
	      "%s: fault data va 0x%llx read_only %d not_present %d", what,
	      (unsigned long long)w.memory.va, w.memory.read_only, w.memory.not_present);
}

static void t_fault(const char *spec, const struct kco *co, const char *what)
{
	struct krig r;
	char w[96];

	krig_open(&r, spec, 1u << 20);
	krig_load(&r, co);
	snprintf(w, sizeof(w), "%s unmapped", what);
	poke(&r, t_event(r.kfd, KFDSIG_EVENT_MEMORY, false).id, 0x7e0000003000ull, false, w);
	krig_close(&r);

	{
		const struct kfdsig_kfd_bo *ro;

		krig_open(&r, spec, 1u << 20);
		krig_load(&r, co);
		T_REQUIRE(!kfdsig_kfd_alloc(r.kfd, r.gpu, 4096,
					    KFDSIG_KFD_MEM_GTT_UNCACHED & ~(1u << 31), &ro) &&
				  !kfdsig_kfd_map(r.kfd, ro, NULL, 0),
			  "read-only memory");
		snprintf(w, sizeof(w), "%s read-only", what);
		poke(&r, t_event(r.kfd, KFDSIG_EVENT_MEMORY, false).id, ro->va, true, w);
		CHECK(*(volatile uint32_t *)ro->cpu == 0, "%s: nothing written", w);
		krig_close(&r);
	}
}

int main(void)
{
	static const char *const tg[] = { "gfx900", "gfx90a", "gfx1030", "gfx1100", "gfx1200" };

	if (!kco_llvm()) {
		printf("SKIP: no LLVM 22 (opt, llc, ld.lld) in %s\n", KFDSIG_LLVM22_BIN);
		return T_EXIT_SKIP;
	}
	for (size_t i = 0; i < sizeof(tg) / sizeof(tg[0]); i++) {
		struct kco co;
		char what[64];

		snprintf(what, sizeof(what), "%s -O3 poke", tg[i]);
		T_REQUIRE(kco_build(KFDSIG_SOURCE_DIR "/test/kernels/sqk_poke.ll", tg[i], "", 3,
				    &co) == 0,
			  "compile %s", what);
		t_fault(tg[i], &co, what);
		kco_free(&co);
	}
	return t_result("emu_sqk_vm_fault");
}
