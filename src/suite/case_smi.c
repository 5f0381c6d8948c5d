/* SPDX-License-Identifier: MIT */
/*
 * SMI events (kfd_smi_events.c): opening the event fd, the 64-bit mask,
 * the all-process privilege; under the emulator also a VM fault through
 * the kernel's kfd_signal_vm_fault_event entry point (MEMORY event data and
 * the SMI VMFAULT line).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "case.h"

static enum suite_result smi_open_mask(struct suite_ctx *c)
{
	struct kfdsig_smi *smi = NULL;
	struct kfdsig_smi_event ev;
	uint64_t mask = KFDSIG_SMI_MASK(KFDSIG_SMI_VMFAULT);
	int r;

	r = kfdsig_smi_open(c->kfd, c->dev->gpu_id, mask, &smi);
	if (!kfdsig_kfd_has(c->kfd, KFDSIG_KFD_FEAT_SMI_EVENTS)) {
		SUITE_CHECK(c, r == -ENOTSUP,
			    "SMI on KFD %u.%u (before 1.3) gave %d, expected "
			    "-ENOTSUP",
			    c->d->kfd_major, c->d->kfd_minor, r);
		return suite_note(c, "KFD %u.%u: no SMI (ENOTSUP), as expected before 1.3",
				  c->d->kfd_major, c->d->kfd_minor);
	}
	SUITE_CHECK(c, r == 0, "SMI_EVENTS on gpu 0x%x: %s (%s)", c->dev->gpu_id, strerror(-r),
		    kfdsig_last_error());
	r = kfdsig_smi_read(smi, &ev, 0);
	if (r != 0) {
		kfdsig_smi_close(smi);
		return suite_fail(c, "a fresh SMI fd had something to read (%d)", r);
	}
	if (c->d->emu) {
		KFDSIG_OPTS(kfdsig_emu_smi_args, a, .pid = (int32_t)getpid(), .addr = 0x1234);

		/* not in the mask: not delivered */
		r = kfdsig_emu_smi_emit(c->d->emu, c->dev->gpu_id, KFDSIG_SMI_QUEUE_EVICTION, &a);
		if (r != 0) {
			kfdsig_smi_close(smi);
			return suite_fail(c, "an event outside the mask reached %d client(s)", r);
		}
		r = kfdsig_emu_smi_emit(c->d->emu, c->dev->gpu_id, KFDSIG_SMI_VMFAULT, &a);
		r = r == 1 ? kfdsig_smi_read(smi, &ev, suite_bound_ms(c, 1000)) : -1;
		if (r != 1 || ev.type != KFDSIG_SMI_VMFAULT) {
			kfdsig_smi_close(smi);
			return suite_fail(c, "a VMFAULT in the mask was not read back (%d)", r);
		}
		/* a new mask takes effect */
		kfdsig_smi_set_mask(smi, KFDSIG_SMI_MASK(KFDSIG_SMI_QUEUE_EVICTION));
		r = kfdsig_emu_smi_emit(c->d->emu, c->dev->gpu_id, KFDSIG_SMI_QUEUE_EVICTION, &a);
		if (r != 1) {
			kfdsig_smi_close(smi);
			return suite_fail(
				c, "after the new mask, QUEUE_EVICTION reached %d clients", r);
		}
	} else {
		r = kfdsig_smi_set_mask(smi, KFDSIG_SMI_MASK(KFDSIG_SMI_QUEUE_EVICTION) | mask);
		if (r) {
			kfdsig_smi_close(smi);
			return suite_fail(c, "writing a new mask: %s", strerror(-r));
		}
	}
	kfdsig_smi_close(smi);
	const struct kfdsig_kfd_ops *ops = kfdsig_kfd_ops_of(c->kfd);
	if (!(ops->privileged && ops->privileged(ops->ctx))) {
		r = kfdsig_smi_open(c->kfd, c->dev->gpu_id,
				    KFDSIG_SMI_MASK(KFDSIG_SMI_ALL_PROCESS) | mask, &smi);
		if (r == 0)
			kfdsig_smi_close(smi);
		SUITE_CHECK(c, r == -EPERM,
			    "all-process SMI without CAP_SYS_ADMIN gave %d, expected -EPERM", r);
	}
	return SUITE_PASS;
}

static enum suite_result vmfault_kernel(struct suite_ctx *c)
{
	struct kfdsig_smi *smi = NULL;
	struct kfdsig_smi_event sev;
	struct kfdsig_event mem, sig;
	struct kfdsig_wait_entry e = { 0 };
	enum kfdsig_wait_result res;
	int r, n;

	r = kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_MEMORY, false, &mem);
	SUITE_CHECK(c, r == 0, "MEMORY event: %s", strerror(-r));
	if (suite_event(c, false, &sig))
		return SUITE_FAIL;
	if (kfdsig_kfd_has(c->kfd, KFDSIG_KFD_FEAT_SMI_EVENTS)) {
		r = kfdsig_smi_open(c->kfd, c->dev->gpu_id, KFDSIG_SMI_MASK(KFDSIG_SMI_VMFAULT),
				    &smi);
		SUITE_CHECK(c, r == 0, "SMI open: %s", strerror(-r));
	}
	n = kfdsig_emu_vm_fault(c->d->emu, c->pasid, c->dev->gpu_id, 0x7ff000001000ull,
				KFDSIG_EMU_FAULT_NOT_PRESENT);
	e.event_id = mem.id;
	r = kfdsig_kfd_wait(c->kfd, &e, 1, false, suite_bound_ms(c, 1000), &res);
	int got = smi ? kfdsig_smi_read(smi, &sev, suite_bound_ms(c, 1000)) : 1;
	if (!smi)
		sev.type = KFDSIG_SMI_VMFAULT; /* no SMI before KFD 1.3: nothing to read */
	kfdsig_smi_close(smi);
	SUITE_CHECK(c, n == 1,
		    "kfd_signal_vm_fault_event set %d events, expected the 1 MEMORY "
		    "event",
		    n);
	SUITE_CHECK(c, r == 0 && res == KFDSIG_WAIT_COMPLETE,
		    "MEMORY event wait: %d %s, expected COMPLETE", r, suite_wait_result_name(res));
	SUITE_CHECK(c,
		    e.memory.va == 0x7ff000001000ull && e.memory.not_present &&
			    e.memory.gpu_id == c->dev->gpu_id,
		    "fault data va 0x%llx gpu 0x%x not_present %d; expected va 0x7ff000001000 on "
		    "gpu 0x%x, not present",
		    (unsigned long long)e.memory.va, e.memory.gpu_id, e.memory.not_present,
		    c->dev->gpu_id);
	SUITE_CHECK(c, !suite_signalled(c, sig.id), "the fault also set a SIGNAL event");
	SUITE_CHECK(c, got == 1 && sev.type == KFDSIG_SMI_VMFAULT,
		    "no SMI VMFAULT line (read gave %d)", got);
	return SUITE_PASS;
}

static const struct suite_case cases[] = {
	{ "smi.open-mask",
	  "AMDKFD_IOC_SMI_EVENTS gives an fd with nothing to read; the written 64-bit mask decides "
	  "which events arrive (emulator: checked with emitted lines); all-process without "
	  "CAP_SYS_ADMIN is refused",
	  "SMI exists from KFD 1.3; before it the open fails with ENOTSUP", SUITE_ENGINE_NONE, 0,
	  smi_open_mask },
	{ "smi.vmfault-kernel",
	  "kfd_signal_vm_fault_event (kernel entry point, not an engine): every MEMORY event gets "
	  "the fault address, gpu and flags and is set; SIGNAL events are not; an SMI VMFAULT line "
	  "is queued",
	  "the SMI line is checked from KFD 1.3 (SMI events)", SUITE_ENGINE_NONE, SUITE_EMU_ONLY,
	  vmfault_kernel },
};

const struct suite_group suite_group_smi = { "smi", cases, sizeof(cases) / sizeof(cases[0]) };
