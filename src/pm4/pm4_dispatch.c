/* SPDX-License-Identifier: MIT */
/*
 * PM4 packets that run a signal stub as one wave on a compute queue. The
 * register set follows what a compute dispatch programs on a user PM4
 * queue: kfdtest Dispatch.cpp BuildIb() (ROCR-Runtime) and amdgpu gfx_v9_0.c's
 * GPR-init dispatch; offsets in pm4/pm4_defs.h, bits in pm4/pm4_fields.def, the
 * generation's COMPUTE_PGM_RSRC3 offset in the target table.
 */
#include <errno.h>

#include "core/internal.h"
#include "pm4/pm4_defs.h"

#define SH_HDR(nregs) (PM4_HDR(PM4_OP_SET_SH_REG, 1 + (nregs)) | PM4_HDR_SHADER_COMPUTE)
#define DISPATCH_HDR (PM4_HDR(PM4_OP_DISPATCH_DIRECT, 4) | PM4_HDR_SHADER_COMPUTE)

int kfdsig_pm4_dispatch_dw(const struct kfdsig_shader_stub *s)
{
	int n;

	if (unlikely(!s || !s->target))
		return set_error(EINVAL, "no stub");
	n = 8 + 4 + 4 + 3 + 3 + 5; /* start/threads, pgm, rsrc1/2, limits, tmpring, dispatch */
	if (s->regs.has_rsrc3)
		n += 3;
	if (s->regs.user_sgprs)
		n += 2 + s->regs.user_sgprs;
	return n;
}

int kfdsig_pm4_emit_dispatch(const struct kfdsig_shader_stub *s, uint64_t code_va,
			     uint64_t kernarg_va, uint32_t *buf, size_t max_dw)
{
	uint32_t *p = buf;
	uint64_t pgm;
	int n;

	n = kfdsig_pm4_dispatch_dw(s);
	if (n < 0)
		return n;
	if (unlikely(!buf))
		return set_error(EINVAL, "no output buffer");
	if (unlikely(!code_va || (code_va & (KFDSIG_SHADER_CODE_ALIGN - 1)) || (code_va >> 48)))
		return set_error(EINVAL,
				 "code address 0x%llx must be non-zero, 256-byte aligned "
				 "and below 2^48",
				 (unsigned long long)code_va);
	if (s->regs.user_sgprs) {
		/* The code-object stub reads its arguments through s[0:1]. */
		if (unlikely(s->regs.user_sgprs != 2))
			return set_error(EINVAL, "stub expects %u user SGPRs, not 2",
					 s->regs.user_sgprs);
		if (unlikely(!kernarg_va || (kernarg_va & 15) || (kernarg_va >> 48)))
			return set_error(EINVAL,
					 "kernel-argument address 0x%llx must be non-zero, "
					 "16-byte aligned and below 2^48",
					 (unsigned long long)kernarg_va);
	} else if (unlikely(kernarg_va)) {
		return set_error(EINVAL, "the raw stub takes no kernel arguments: pass 0");
	}
	if (unlikely(max_dw < (size_t)n))
		return set_error(ENOSPC, "dispatch needs %d dwords, buffer has %zu", n, max_dw);

	/* One group of one thread, starting at 0. */
	*p++ = SH_HDR(6);
	*p++ = PM4_SH_COMPUTE_START_X;
	*p++ = 0;
	*p++ = 0;
	*p++ = 0;
	*p++ = 1;
	*p++ = 1;
	*p++ = 1;

	/* COMPUTE_PGM_LO/HI: address bits 39:8 and 47:40. */
	pgm = code_va >> 8;
	*p++ = SH_HDR(2);
	*p++ = PM4_SH_COMPUTE_PGM_LO;
	*p++ = (uint32_t)pgm;
	*p++ = (uint32_t)(pgm >> 32);

	*p++ = SH_HDR(2);
	*p++ = PM4_SH_COMPUTE_PGM_RSRC1;
	*p++ = s->regs.pgm_rsrc1;
	*p++ = s->regs.pgm_rsrc2;

	if (s->regs.has_rsrc3) {
		*p++ = SH_HDR(1);
		*p++ = s->target->sh_compute_pgm_rsrc3;
		*p++ = s->regs.pgm_rsrc3;
	}

	*p++ = SH_HDR(1);
	*p++ = PM4_SH_COMPUTE_RESOURCE_LIMITS;
	*p++ = 0;

	/* No scratch. */
	*p++ = SH_HDR(1);
	*p++ = pm4_sh_tmpring(s->target);
	*p++ = 0;

	if (s->regs.user_sgprs) {
		*p++ = SH_HDR(2);
		*p++ = PM4_SH_COMPUTE_USER_DATA_0;
		*p++ = (uint32_t)kernarg_va;
		*p++ = (uint32_t)(kernarg_va >> 32);
	}

	*p++ = DISPATCH_HDR;
	*p++ = 1;
	*p++ = 1;
	*p++ = 1;
	*p++ = PM4_BIT(DD, compute_shader_en) |
	       (s->regs.wave_size == 32 ? PM4_BIT(DD, cs_w32_en) : 0);
	return (int)(p - buf);
}
