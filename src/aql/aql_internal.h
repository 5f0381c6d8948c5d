/* SPDX-License-Identifier: MIT */
/* Internal interface of src/aql: the AQL engine of kfdsig_emit_signal(). */
#ifndef KFDSIG_AQL_INTERNAL_H
#define KFDSIG_AQL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <kfdsig/fence.h>
#include <kfdsig/signal.h>
#include <kfdsig/target.h>

/* KFDSIG_SIGNAL_AQL (signal.h): an interrupt signal placed in @code, then a
 * barrier-AND packet completing it; 16 dwords or a negative errno, nothing
 * written (and code->used unchanged) on error. */
int aql_signal_emit(const struct kfdsig_target *t, const struct kfdsig_fence *f,
		    struct kfdsig_code_buf *code, uint32_t *buf, size_t max_dw);

#endif
