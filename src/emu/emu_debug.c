/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's debugger and runtime-enable interface (emu_debug.h).
 * First cut: the engine hook records the exception on the queue; the
 * ioctls answer -ENOSYS until they are implemented.
 */
#include <errno.h>

#include <kfdsig/debug.h>

#include "emu/emu_debug.h"

void emu_queue_exception(struct emu_queue *q, uint32_t ec)
{
	if (!q || !ec || ec >= KFDSIG_EC_MAX)
		return;
	pthread_mutex_lock(&q->p->lock);
	q->exception_status |= KFDSIG_EC_MASK(ec);
	pthread_mutex_unlock(&q->p->lock);
}

void emu_device_exception(struct emu_proc *p, struct emu_gpu *g, uint32_t ec, const void *data,
			  size_t len)
{
	(void)p, (void)g, (void)ec, (void)data, (void)len;
}

bool emu_queue_may_fetch(const struct emu_queue *q)
{
	(void)q;
	return true;
}

bool emu_queue_may_launch(const struct emu_queue *q)
{
	(void)q;
	return true;
}

int emu_runtime_enable(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	(void)emu, (void)p, (void)data;
	return -ENOSYS;
}

int emu_dbg_trap(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	(void)emu, (void)p, (void)data;
	return -ENOSYS;
}

void emu_dbg_queue_new(struct emu_queue *q)
{
	(void)q;
}

void emu_dbg_queue_delete(struct emu_queue *q)
{
	(void)q;
}

void emu_dbg_proc_free(struct emu_proc *p)
{
	(void)p;
}
