/* SPDX-License-Identifier: MIT */
/*
 * Multi-XCC PM4 (GC 9.4.3 / 9.4.4 / 9.5.0 / 12.1, docs/multi-xcc.md): PRED_EXEC,
 * INDIRECT_BUFFER and the fence predicated to one XCC, alone or inside an
 * indirect buffer placed in a code buffer.
 *   - every XCC of a node runs a PM4 queue's packets: kfd_mqd_manager_v9.c
 *     init_mqd_v9_4_3() installs the ring, pointers and doorbell in the MQD
 *     of each XCC; tinygrad ops_amd.py keeps its XCCs in step
 *     (xcc_barrier()) and predicates its signal to XCC 0 (signal());
 *   - PRED_EXEC (soc15d.h PACKET3_PRED_EXEC 0x23): PACKET3(PRED_EXEC, 0),
 *     then xcc_mask << 24 | dwords predicated (tinygrad pred_exec());
 *   - it works in an indirect buffer only (tinygrad _submit(): "PRED_EXEC
 *     doesn't work in rings, only in IBs");
 *   - INDIRECT_BUFFER: gfx_v9_0.c gfx_v9_0_ring_emit_ib_compute(): base
 *     (dword aligned) lo / hi, then INDIRECT_BUFFER_VALID (bit 23) | size
 *     in dwords; a user queue's IB runs in the queue's VMID (VMID 0 in the
 *     packet, as tinygrad's).
 */
#include <errno.h>
#include <string.h>

#include <kfdsig/signal.h>

#include "core/internal.h"
#include "core/opts.h"
#include "pm4/pm4_defs.h"

static bool multi_xcc(const struct kfdsig_target *t)
{
	return t && t->max_xcc > 1;
}

int kfdsig_pm4_emit_pred_exec(const struct kfdsig_target *t, uint32_t xcc_mask, uint32_t exec_dw,
			      uint32_t *buf, size_t max_dw)
{
	if (unlikely(!t || !buf))
		return set_error(EINVAL, "no target or buffer");
	if (unlikely(!multi_xcc(t)))
		return set_error(EINVAL, "%s: one XCC per node, no PRED_EXEC (multi-XCC only)",
				 t->name);
	if (unlikely(!xcc_mask || xcc_mask > KFDSIG_PM4_XCC_MASK_MAX))
		return set_error(EINVAL, "XCC mask 0x%x: want 0x1..0x%x", xcc_mask,
				 KFDSIG_PM4_XCC_MASK_MAX);
	if (unlikely(exec_dw > KFDSIG_PM4_PRED_EXEC_MAX_COUNT))
		return set_error(EINVAL, "PRED_EXEC of %u dwords: at most %u", exec_dw,
				 KFDSIG_PM4_PRED_EXEC_MAX_COUNT);
	if (unlikely(max_dw < PM4_PRED_EXEC_DW))
		return set_error(ENOSPC, "PRED_EXEC needs %d dwords, the buffer has %zu",
				 PM4_PRED_EXEC_DW, max_dw);
	buf[0] = PM4_HDR(PM4_OP_PRED_EXEC, PM4_PRED_EXEC_DW - 1);
	buf[1] = PM4_PUT(PRED, xcc_mask, xcc_mask) | PM4_PUT(PRED, exec_count, exec_dw);
	return PM4_PRED_EXEC_DW;
}

int kfdsig_pm4_emit_ib(const struct kfdsig_target *t, uint64_t ib_va, uint32_t ib_dw, uint32_t *buf,
		       size_t max_dw)
{
	if (unlikely(!t || !buf))
		return set_error(EINVAL, "no target or buffer");
	if (unlikely(!ib_va || (ib_va & 3) || ib_va >> 48))
		return set_error(EINVAL,
				 "IB address 0x%llx: want non-zero, 4-byte aligned, below 2^48",
				 (unsigned long long)ib_va);
	if (unlikely(!ib_dw || ib_dw > PM4_MASK(IB, ib_size)))
		return set_error(EINVAL, "IB of %u dwords: want 1..%u", ib_dw,
				 (unsigned)PM4_MASK(IB, ib_size));
	if (unlikely(max_dw < PM4_INDIRECT_BUFFER_DW))
		return set_error(ENOSPC, "INDIRECT_BUFFER needs %d dwords, the buffer has %zu",
				 PM4_INDIRECT_BUFFER_DW, max_dw);
	buf[0] = PM4_HDR(PM4_OP_INDIRECT_BUFFER, PM4_INDIRECT_BUFFER_DW - 1);
	buf[1] = PM4_PUT(IB, ib_base_lo, (uint32_t)ib_va);
	buf[2] = PM4_PUT(IB, ib_base_hi, (uint32_t)(ib_va >> 32));
	buf[3] = PM4_PUT(IB, ib_size, ib_dw) | PM4_BIT(IB, valid);
	return PM4_INDIRECT_BUFFER_DW;
}

int kfdsig_pm4_emit_fence_xcc(const struct kfdsig_target *t, const struct kfdsig_fence *f,
			      uint32_t xcc_mask, uint32_t *buf, size_t max_dw)
{
	uint32_t tmp[KFDSIG_PM4_FENCE_MAX_DW];
	int n, r;

	n = kfdsig_pm4_emit_fence(t, f, tmp, KFDSIG_PM4_FENCE_MAX_DW);
	if (n < 0)
		return n;
	if (unlikely(buf && max_dw < (size_t)n + PM4_PRED_EXEC_DW))
		return set_error(ENOSPC, "the predicated fence needs %d dwords, the buffer has %zu",
				 n + PM4_PRED_EXEC_DW, max_dw);
	r = kfdsig_pm4_emit_pred_exec(t, xcc_mask, (uint32_t)n, buf, max_dw);
	if (r < 0)
		return r;
	memcpy(buf + r, tmp, (size_t)n * 4);
	return r + n;
}

int kfdsig_pm4_emit_fence_ib(const struct kfdsig_target *t, const struct kfdsig_fence *f,
			     struct kfdsig_code_buf *code, uint32_t *buf, size_t max_dw)
{
	uint32_t body[KFDSIG_PM4_XCC_FENCE_MAX_DW];
	struct kfdsig_code_buf c;
	uint64_t at, end;
	int n, r;

	if (unlikely(!t || !f || !code || !buf))
		return set_error(EINVAL, "no target, fence, code buffer or output buffer");
	r = code_buf_read(&c, code, 4);
	if (r)
		return r;
	/* one XCC per node: the fence as it is, still from an IB */
	n = multi_xcc(t) ? kfdsig_pm4_emit_fence_xcc(t, f, 1, body, KFDSIG_PM4_XCC_FENCE_MAX_DW)
			 : kfdsig_pm4_emit_fence(t, f, body, KFDSIG_PM4_XCC_FENCE_MAX_DW);
	if (n < 0)
		return n;
	if (unlikely(max_dw < PM4_INDIRECT_BUFFER_DW))
		return set_error(ENOSPC, "INDIRECT_BUFFER needs %d dwords, the buffer has %zu",
				 PM4_INDIRECT_BUFFER_DW, max_dw);
	at = (c.va + c.used + KFDSIG_PM4_IB_ALIGN - 1) & ~(uint64_t)(KFDSIG_PM4_IB_ALIGN - 1);
	end = at - c.va + (uint64_t)n * 4;
	if (unlikely(end > c.size))
		return set_error(
			ENOSPC, "code buffer: %llu bytes, the fence's IB needs %d from %llu",
			(unsigned long long)c.size, n * 4, (unsigned long long)(at - c.va));
	r = kfdsig_pm4_emit_ib(t, at, (uint32_t)n, buf, max_dw);
	if (r < 0)
		return r;
	memcpy((uint8_t *)c.cpu + (at - c.va), body, (size_t)n * 4);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	code->used = end;
	return r;
}
