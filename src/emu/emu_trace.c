/* SPDX-License-Identifier: MIT */
/*
 * The emulated interrupt handler's trace: every interrupt the emulated ISR
 * takes (kfdsig_emu_interrupt, emu_events.c) leaves one record of the IH
 * entry, the id the handler class derived and the path it took, in a ring
 * of the last KFDSIG_EMU_IRQ_TRACE_LEN per emulator.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "emu/emu_priv.h"

/* One lock for every emulator's ring: records are small and rare. */
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;

void emu_trace_add(struct kfdsig_emu *emu, struct kfdsig_emu_irq_record *r)
{
	pthread_mutex_lock(&trace_lock);
	r->seq = ++emu->trace.seq;
	emu->trace.ring[(r->seq - 1) % KFDSIG_EMU_IRQ_TRACE_LEN] = *r;
	pthread_mutex_unlock(&trace_lock);
}

int kfdsig_emu_irq_trace(struct kfdsig_emu *emu, int pasid, struct kfdsig_emu_irq_record *out,
			 size_t n)
{
	uint64_t first, seq;
	size_t count = 0, skip = 0;

	if (!emu || (n && !out))
		return set_error(EINVAL, "irq trace: NULL emulator or buffer");
	pthread_mutex_lock(&trace_lock);
	seq = emu->trace.seq;
	first = seq > KFDSIG_EMU_IRQ_TRACE_LEN ? seq - KFDSIG_EMU_IRQ_TRACE_LEN : 0;
	/* Count the matching records, then copy the last n of them. */
	for (uint64_t s = first; s < seq; s++)
		if (!pasid || emu->trace.ring[s % KFDSIG_EMU_IRQ_TRACE_LEN].pasid == pasid)
			count++;
	if (count > n)
		skip = count - n;
	count = 0;
	for (uint64_t s = first; s < seq; s++) {
		const struct kfdsig_emu_irq_record *r =
			&emu->trace.ring[s % KFDSIG_EMU_IRQ_TRACE_LEN];
		if (pasid && r->pasid != pasid)
			continue;
		if (skip) {
			skip--;
			continue;
		}
		out[count++] = *r;
	}
	pthread_mutex_unlock(&trace_lock);
	return (int)count;
}

const char *kfdsig_emu_irq_path_name(enum kfdsig_emu_irq_path path)
{
	static const char *const names[] = { "fast",	"partial",   "scan",
					     "dropped", "exception", "trusted" };
	return (unsigned)path < sizeof(names) / sizeof(names[0]) ? names[path] : "?";
}

const char *kfdsig_emu_irq_drop_name(enum kfdsig_emu_irq_drop drop)
{
	static const char *const names[] = { "none",	   "ctx0",	     "bit24", "v6.14",
					     "no-process", "no-signal-page", "node" };
	return (unsigned)drop < sizeof(names) / sizeof(names[0]) ? names[drop] : "?";
}
