/* SPDX-License-Identifier: MIT */
/* The emulated CP's AQL packet processor (emu_aql.c), run by the queue's
 * engine thread (emu_engine.c) with the engine's own primitives. */
#ifndef KFDSIG_EMU_AQL_H
#define KFDSIG_EMU_AQL_H

#include <stdbool.h>
#include <stdint.h>

#include <kfdsig/emu.h>

struct emu_queue;

/* What the engine lends the packet processor (function pointers, so the
 * calls run one way: emu_engine.c -> emu_aql.c). */
struct emu_aql_ops {
	/* GPU memory at @va, or NULL after raising the VM fault */
	void *(*mem)(struct emu_queue *q, uint64_t va, uint64_t len);
	void (*irq)(struct emu_queue *q, enum kfdsig_emu_irq_source src, uint32_t ctx);
	/* the invalid-packet queue error: the queue stops */
	void (*bad_packet)(struct emu_queue *q);
	/* run @ndw dwords of PM4 at @va as an indirect buffer; false: bad */
	bool (*run_ib)(struct emu_queue *q, uint64_t va, uint32_t ndw);
	bool (*stopping)(struct emu_queue *q);
	/* run @groups waves of the program at @entry_va on the emulated shader
	 * unit with @sgprs as their first user SGPRs; false: not runnable */
	bool (*dispatch)(struct emu_queue *q, uint64_t entry_va, const uint32_t *sgprs,
			 uint32_t nsgprs, bool wave32, uint64_t groups);
	uint64_t (*clock)(struct emu_queue *q); /* the GPU clock counter */
};

/* Is the slot at the read index published (header not INVALID)? */
bool emu_aql_pending(struct emu_queue *q);
/* Process published packets in order; true when one completed. */
bool emu_aql_run(struct emu_queue *q, const struct emu_aql_ops *ops);

#endif
