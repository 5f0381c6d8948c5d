/* SPDX-License-Identifier: MIT */
/*
 * amdgpu user-mode queue packets and the end of a submission
 * (kfdsig/userq.h). The sequence and every dword follow Mesa amdgpu_cs.cpp
 * amdgpu_cs_add_userq_packets(): FENCE_WAIT_MULTI per batch of waits,
 * HDP_FLUSH, INDIRECT_BUFFER with the user-queue VMID bits, an 8-dword
 * RELEASE_MEM to the user fence with INT_SEL 0, PROTECTED_FENCE_SIGNAL;
 * the fence value is the ring position after the last packet ("Add 8 for
 * release mem packet and 2 for protected fence signal packet ... to match
 * with kernel fence": the kernel's USERQ_SIGNAL fence takes the queue's
 * wptr as its sequence number, amdgpu_userq_fence.c
 * amdgpu_userq_signal_ioctl()). Field positions: pm4_fields.def.
 */
#include <errno.h>

#include <kfdsig/userq.h>

#include "core/internal.h"
#include "core/opts.h"
#include "pm4/pm4_defs.h"

_Static_assert(KFDSIG_USERQ_PROTECTED_SIGNAL_DW == PM4_PROTECTED_FENCE_SIGNAL_DW &&
		       KFDSIG_USERQ_HDP_FLUSH_DW == PM4_HDP_FLUSH_DW &&
		       KFDSIG_USERQ_FWM_DW(3) == PM4_FWM_DW(3) &&
		       KFDSIG_PM4_OP_PROTECTED_FENCE_SIGNAL == PM4_OP_PROTECTED_FENCE_SIGNAL &&
		       KFDSIG_PM4_OP_FENCE_WAIT_MULTI == PM4_OP_FENCE_WAIT_MULTI &&
		       KFDSIG_PM4_OP_HDP_FLUSH == PM4_OP_HDP_FLUSH,
	       "kfdsig/userq.h disagrees with pm4_defs.h");

/* The trailer's RELEASE_MEM dword 1 (Mesa's S_490_* in
 * amdgpu_cs_add_userq_packets(), the same on GFX11 and GFX12, where cache
 * policy 3 reads as TEMPORAL "lu"). */
#define USERQ_RM_DW1                                                                    \
	(PM4_PUT(EOP, event_type, PM4_EVENT_CACHE_FLUSH_AND_INV_TS) |                   \
	 PM4_PUT(EOP, event_index, PM4_EVENT_INDEX_EOP) | PM4_BIT(EOP, gcr_glm_wb) |    \
	 PM4_BIT(EOP, gcr_glm_inv) | PM4_BIT(EOP, gcr_gl2_wb) | PM4_BIT(EOP, gcr_seq) | \
	 PM4_PUT(EOP, cache_policy, 3))
/* ... and dword 2: 64-bit data, no interrupt, destination memory. */
#define USERQ_RM_DW2 \
	(PM4_PUT(RM, data_sel, PM4_DATA_SEL_64) | PM4_PUT(RM, int_sel, PM4_INT_SEL_NONE))
/* FENCE_WAIT_MULTI control as Mesa writes it. */
#define USERQ_FWM_CONTROL                                          \
	(PM4_PUT(FWM, engine_sel, 1) | PM4_BIT(FWM, preemptable) | \
	 PM4_PUT(FWM, poll_interval, KFDSIG_USERQ_FWM_POLL_INTERVAL))

static int userq_target(const struct kfdsig_target *t)
{
	if (unlikely(!t))
		return set_error(EINVAL, "no target");
	if (unlikely(!t->userq_fwm_max))
		return set_error(
			ENOTSUP,
			"%s has no amdgpu user-mode queue packets (GFX11 and GFX12.0 have)",
			t->name);
	return 0;
}

static int room(uint32_t *buf, size_t max_dw, size_t need, const char *what)
{
	if (unlikely(!buf || max_dw < need))
		return set_error(ENOSPC, "%s needs %zu dwords, buffer has %zu", what, need,
				 buf ? max_dw : 0);
	return 0;
}

static int va_ok(const struct kfdsig_target *t, uint64_t va, uint64_t align, const char *what)
{
	if (unlikely(!va || (va & (align - 1)) || (va >> t->va_bits)))
		return set_error(
			EINVAL, "%s 0x%llx must be non-zero, %llu-byte aligned and below 2^%u",
			what, (unsigned long long)va, (unsigned long long)align, t->va_bits);
	return 0;
}

int kfdsig_userq_fwm_max(const struct kfdsig_target *t)
{
	int r = userq_target(t);

	return r ? r : t->userq_fwm_max;
}

int kfdsig_userq_emit_protected_signal(const struct kfdsig_target *t, uint32_t *buf, size_t max_dw)
{
	int r = userq_target(t);

	if (!r)
		r = room(buf, max_dw, PM4_PROTECTED_FENCE_SIGNAL_DW, "PROTECTED_FENCE_SIGNAL");
	if (r)
		return r;
	buf[0] = PM4_HDR(PM4_OP_PROTECTED_FENCE_SIGNAL, PM4_PROTECTED_FENCE_SIGNAL_DW - 1);
	buf[PM4_DW(PFS, reserved)] = 0;
	return PM4_PROTECTED_FENCE_SIGNAL_DW;
}

int kfdsig_userq_emit_hdp_flush(const struct kfdsig_target *t, uint32_t *buf, size_t max_dw)
{
	int r = userq_target(t);

	if (!r)
		r = room(buf, max_dw, PM4_HDP_FLUSH_DW, "HDP_FLUSH");
	if (r)
		return r;
	buf[0] = PM4_HDR(PM4_OP_HDP_FLUSH, PM4_HDP_FLUSH_DW - 1);
	buf[PM4_DW(HDP, reserved)] = 0;
	return PM4_HDP_FLUSH_DW;
}

static void put_trailer(uint32_t *p, uint64_t fence_va, uint64_t value)
{
	p[0] = PM4_HDR(PM4_OP_RELEASE_MEM, KFDSIG_USERQ_RELEASE_MEM_DW - 1);
	p[PM4_DW(EOP, event_type)] = USERQ_RM_DW1;
	p[PM4_DW(RM, int_sel)] = USERQ_RM_DW2;
	p[PM4_DW(RM, address_lo)] = (uint32_t)fence_va;
	p[PM4_DW(RM, address_hi)] = (uint32_t)(fence_va >> 32);
	p[PM4_DW(RM, data_lo)] = (uint32_t)value;
	p[PM4_DW(RM, data_hi)] = (uint32_t)(value >> 32);
	p[PM4_DW(RM, int_ctxid)] = 0;
	p += KFDSIG_USERQ_RELEASE_MEM_DW;
	p[0] = PM4_HDR(PM4_OP_PROTECTED_FENCE_SIGNAL, PM4_PROTECTED_FENCE_SIGNAL_DW - 1);
	p[PM4_DW(PFS, reserved)] = 0;
}

int kfdsig_userq_emit_trailer(const struct kfdsig_target *t, uint64_t fence_va, uint64_t value,
			      uint32_t *buf, size_t max_dw)
{
	int r = userq_target(t);

	if (!r)
		r = va_ok(t, fence_va, 8, "user fence address");
	if (!r)
		r = room(buf, max_dw, KFDSIG_USERQ_TRAILER_DW, "the userq fence trailer");
	if (r)
		return r;
	put_trailer(buf, fence_va, value);
	return KFDSIG_USERQ_TRAILER_DW;
}

static int fwm_check(const struct kfdsig_target *t, const struct kfdsig_userq_fence_ref *refs,
		     size_t n)
{
	if (unlikely(!refs || !n || n > t->userq_fwm_max))
		return set_error(EINVAL,
				 "FENCE_WAIT_MULTI takes 1 .. %u entries on %s (Mesa "
				 "amdgpu_cs_add_userq_packets()); %zu given%s",
				 t->userq_fwm_max, t->name, n, refs ? "" : " and no array");
	for (size_t i = 0; i < n; i++)
		if (va_ok(t, refs[i].va, 8, "wait address"))
			return -EINVAL;
	return 0;
}

static void put_fwm(uint32_t *p, const struct kfdsig_userq_fence_ref *refs, size_t n)
{
	p[0] = PM4_HDR(PM4_OP_FENCE_WAIT_MULTI, PM4_FWM_DW(n) - 1);
	p[PM4_DW(FWM, engine_sel)] = USERQ_FWM_CONTROL;
	for (size_t i = 0; i < n; i++) {
		uint32_t *e = p + PM4_FWM_ENTRY_DW * i;

		e[PM4_DW(FWM, addr_lo)] = (uint32_t)refs[i].va;
		e[PM4_DW(FWM, addr_hi)] = (uint32_t)(refs[i].va >> 32);
		e[PM4_DW(FWM, value_lo)] = (uint32_t)refs[i].value;
		e[PM4_DW(FWM, value_hi)] = (uint32_t)(refs[i].value >> 32);
	}
}

int kfdsig_userq_emit_fence_wait_multi(const struct kfdsig_target *t,
				       const struct kfdsig_userq_fence_ref *refs, size_t n,
				       uint32_t *buf, size_t max_dw)
{
	int r = userq_target(t);

	if (!r)
		r = fwm_check(t, refs, n);
	if (!r)
		r = room(buf, max_dw, PM4_FWM_DW(n), "FENCE_WAIT_MULTI");
	if (r)
		return r;
	put_fwm(buf, refs, n);
	return (int)PM4_FWM_DW(n);
}

/* Check @user and return the sequence's length (its copy in @s). */
static int submit_prepare(const struct kfdsig_target *t, const struct kfdsig_userq_submit *user,
			  struct kfdsig_userq_submit *s)
{
	size_t n = 0;
	int r = userq_target(t);

	if (r)
		return r;
	r = opts_copy(s, sizeof(*s), user, "kfdsig_userq_submit");
	if (r)
		return r;
	if (!user)
		return set_error(EINVAL, "no submission");
	if (s->pad_0 || (s->flags & ~KFDSIG_USERQ_SUBMIT_GFX))
		return set_error(EINVAL, "kfdsig_userq_submit: pad_0 0x%x, unknown flags 0x%x",
				 s->pad_0, s->flags & ~KFDSIG_USERQ_SUBMIT_GFX);
	if (va_ok(t, s->fence_va, 8, "user fence address"))
		return -EINVAL;
	if (s->ib_va || s->ib_dw) {
		if (va_ok(t, s->ib_va, 4, "IB address"))
			return -EINVAL;
		if (!s->ib_dw || s->ib_dw > KFDSIG_USERQ_IB_MAX_DW)
			return set_error(EINVAL, "IB of %u dwords: 1 .. %u", s->ib_dw,
					 KFDSIG_USERQ_IB_MAX_DW);
		n += KFDSIG_USERQ_IB_DW;
	}
	if (s->nwaits && !s->waits)
		return set_error(EINVAL, "%u waits and no array", s->nwaits);
	for (uint32_t i = 0; i < s->nwaits; i += t->userq_fwm_max) {
		uint32_t k = s->nwaits - i < t->userq_fwm_max ? s->nwaits - i : t->userq_fwm_max;

		r = fwm_check(t, s->waits + i, k);
		if (r)
			return r;
		n += PM4_FWM_DW(k);
	}
	return (int)(n + PM4_HDP_FLUSH_DW + KFDSIG_USERQ_TRAILER_DW);
}

int kfdsig_userq_submit_dw(const struct kfdsig_target *t, const struct kfdsig_userq_submit *s)
{
	struct kfdsig_userq_submit c;

	return submit_prepare(t, s, &c);
}

int kfdsig_userq_emit_submit(const struct kfdsig_target *t, const struct kfdsig_userq_submit *user,
			     uint32_t *buf, size_t max_dw, uint64_t *seq)
{
	struct kfdsig_userq_submit s;
	int n = submit_prepare(t, user, &s);
	uint32_t *p = buf;

	if (n < 0)
		return n;
	if (room(buf, max_dw, (size_t)n, "the userq submission"))
		return -ENOSPC;
	for (uint32_t i = 0; i < s.nwaits; i += t->userq_fwm_max) {
		uint32_t k = s.nwaits - i < t->userq_fwm_max ? s.nwaits - i : t->userq_fwm_max;

		put_fwm(p, s.waits + i, k);
		p += PM4_FWM_DW(k);
	}
	p[0] = PM4_HDR(PM4_OP_HDP_FLUSH, PM4_HDP_FLUSH_DW - 1);
	p[PM4_DW(HDP, reserved)] = 0;
	p += PM4_HDP_FLUSH_DW;
	if (s.ib_dw) {
		p[0] = PM4_HDR(PM4_OP_INDIRECT_BUFFER, KFDSIG_USERQ_IB_DW - 1);
		p[PM4_DW(IB, ib_base_lo)] = (uint32_t)s.ib_va;
		p[PM4_DW(IB, ib_base_hi)] = (uint32_t)(s.ib_va >> 32);
		p[PM4_DW(IB, ib_size)] =
			PM4_PUT(IB, ib_size, s.ib_dw) |
			((s.flags & KFDSIG_USERQ_SUBMIT_GFX)
				 ? PM4_BIT(IBUQ, inherit_vmid_mqd_gfx)
				 : PM4_BIT(IB, valid) | PM4_BIT(IBUQ, inherit_vmid_mqd_compute));
		p += KFDSIG_USERQ_IB_DW;
	}
	/* The value: the ring position after the protected signal. */
	put_trailer(p, s.fence_va, s.wptr + (uint64_t)n);
	if (seq)
		*seq = s.wptr + (uint64_t)n;
	return n;
}
