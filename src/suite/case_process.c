/* SPDX-License-Identifier: MIT */
/*
 * KFD processes and the signal page of the newest kernels:
 *   - AMDKFD_IOC_CREATE_PROCESS (KFD 1.19, commit cc6b66d661fd,
 *     kfd_chardev.c kfd_ioctl_create_process()): an fd's process replaced
 *     by a secondary one with its own PASID, events and signal page, so one
 *     task holds two KFD processes whose interrupts stay apart;
 *   - Linux 7.3 (commits 4d7c624a0af1, b4f5837f746a): no kernel-allocated
 *     signal page, the events mmap refused.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "case.h"

/* KFD_MMAP_TYPE_EVENTS (kfd_priv.h): the events offset of /dev/kfd. */
#define EVENTS_MMAP_OFFSET (0x2ull << 62)

static bool has_create_process(const struct suite_ctx *c)
{
	return kfdsig_kfd_has(c->kfd, KFDSIG_KFD_FEAT_CREATE_PROCESS);
}

/* Linux 7.3 or later: the emulator's v7.3 profile, or "linux X.Y" on
 * hardware (devices.c). */
static bool kernel_7_3(const struct suite_ctx *c)
{
	unsigned a = 0, b = 0;

	if (!strcmp(c->d->profile, "v7.3"))
		return true;
	if (sscanf(c->d->profile, "linux %u.%u", &a, &b) == 2)
		return a > 7 || (a == 7 && b >= 3);
	return false;
}

static void gpu_store(const struct kfdsig_event *e, uint64_t value)
{
	__atomic_store_n(e->slot, value, __ATOMIC_RELEASE);
}

static bool signalled(struct kfdsig_kfd *kfd, uint32_t id)
{
	struct kfdsig_wait_entry e = { .event_id = id };
	enum kfdsig_wait_result res = KFDSIG_WAIT_FAIL;

	return kfdsig_kfd_wait(kfd, &e, 1, false, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE;
}

/* Open a second handle and make it a secondary process. */
static enum suite_result open_secondary(struct suite_ctx *c, struct kfdsig_kfd **out)
{
	struct kfdsig_kfd *k = NULL;
	int r;

	*out = NULL;
	if (kfdsig_kfd_open(c->d->ops, &k) < 0)
		return suite_fail(c, "cannot open a second KFD handle: %s", kfdsig_last_error());
	r = kfdsig_kfd_create_process(k);
	if (r < 0) {
		enum suite_result res =
			suite_fail(c, "CREATE_PROCESS on KFD %u.%u: %s", c->d->kfd_major,
				   c->d->kfd_minor, kfdsig_last_error());
		kfdsig_kfd_close(k);
		return res;
	}
	*out = k;
	return SUITE_PASS;
}

static enum suite_result create_process(struct suite_ctx *c)
{
	struct kfdsig_kfd *k;
	struct kfdsig_event pe, se;
	enum suite_result res;
	int pasid = 0, r, n;

	if (!has_create_process(c))
		return suite_skip(c, "KFD %u.%u predates CREATE_PROCESS (1.19)", c->d->kfd_major,
				  c->d->kfd_minor);
	res = open_secondary(c, &k);
	if (res != SUITE_PASS)
		return res;
	/* "Each FD owns only one kfd_process": a second CREATE_PROCESS on a
	 * secondary is -EINVAL */
	r = kfdsig_kfd_create_process(k);
	if (r != -EINVAL) {
		kfdsig_kfd_close(k);
		return suite_fail(c,
				  "a second CREATE_PROCESS on the same fd gave %d, expected "
				  "-EINVAL",
				  r);
	}
	/* Each process its own events and signal page: the same event id in
	 * both, slots in two different pages. */
	if (suite_event(c, false, &pe) ||
	    kfdsig_kfd_event_create(k, KFDSIG_EVENT_SIGNAL, false, &se) < 0) {
		kfdsig_kfd_close(k);
		return suite_fail(c, "events in the two processes: %s", kfdsig_last_error());
	}
	if (pe.id != se.id || !pe.slot || !se.slot || pe.slot_va == se.slot_va) {
		kfdsig_kfd_close(k);
		return suite_fail(c,
				  "primary event %u slot 0x%llx, secondary event %u slot "
				  "0x%llx: expected the same first id in two signal pages",
				  pe.id, (unsigned long long)pe.slot_va, se.id,
				  (unsigned long long)se.slot_va);
	}
	/* A CPU set in the secondary leaves the primary's event alone. */
	kfdsig_kfd_event_set(k, se.id);
	{
		bool s_set = signalled(k, se.id), p_set = suite_signalled(c, pe.id);

		if (!s_set || p_set) {
			kfdsig_kfd_close(k);
			return suite_fail(c,
					  "SET_EVENT %u in the secondary: the secondary's event "
					  "%s, the primary's %s; expected only the secondary's",
					  se.id, s_set ? "set" : "not set",
					  p_set ? "set" : "not set");
		}
	}
	if (!c->d->emu) {
		kfdsig_kfd_close(k);
		return suite_note(c, "two KFD processes in one task, events apart");
	}
	/* The interrupt path: the IH PASID picks the process. */
	pasid = kfdsig_emu_pasid_on(c->d->emu, kfdsig_kfd_fd(k), c->d->gpu_id);
	if (pasid < 0 || pasid == c->pasid) {
		kfdsig_kfd_close(k);
		return suite_fail(c, "the secondary's PASID %d, the primary's %d: expected its own",
				  pasid, c->pasid);
	}
	kfdsig_kfd_event_reset(k, se.id);
	gpu_store(&se, 1);
	n = kfdsig_emu_interrupt(c->d->emu, pasid, c->dev->gpu_id, KFDSIG_EMU_IRQ_CP_EOP, se.id);
	r = signalled(k, se.id) && !suite_signalled(c, pe.id);
	kfdsig_kfd_close(k);
	SUITE_CHECK(c, n == 1 && r,
		    "CP end-of-pipe for event %u on the secondary's PASID %d set %d events "
		    "(%s); expected the secondary's alone",
		    se.id, pasid, n, r ? "the secondary's" : "not the secondary's alone");
	return suite_note(c, "a PASID of its own: events, signal pages and interrupts apart");
}

static enum suite_result signal_page_7_3(struct suite_ctx *c)
{
	struct kfd_create_event_raw {
		uint64_t event_page_offset;
		uint32_t event_trigger_data, event_type, auto_reset, node_id, event_id,
			event_slot_index;
	} a = { .event_type = KFDSIG_EVENT_SIGNAL };
	const struct kfdsig_kfd_ops *ops = kfdsig_kfd_ops_of(c->kfd);
	bool new_kernel = kernel_7_3(c);
	void *m = NULL;
	int r, rm, mode;

	mode = kfdsig_kfd_set_signal_page_mode(c->kfd, KFDSIG_SIGNAL_PAGE_KERNEL);
	/* A CREATE_EVENT without a user buffer on a fresh process (the
	 * case's own: its first event). */
	r = ops->ioctl(ops->ctx, kfdsig_kfd_fd(c->kfd),
		       _IOWR('K', 0x08, struct kfd_create_event_raw), &a);
	rm = ops->mmap(ops->ctx, &m, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
		       kfdsig_kfd_fd(c->kfd), EVENTS_MMAP_OFFSET);
	if (!rm)
		ops->munmap(ops->ctx, m, 4096);
	if (new_kernel) {
		SUITE_CHECK(c, mode == -ENOTSUP && r == -ENOMEM && rm == -EINVAL,
			    "kernel %s: kernel-page mode %d, first signal event without a buffer "
			    "%d, events mmap %d; expected -ENOTSUP, -ENOMEM, -EINVAL "
			    "(no kernel-allocated signal page since Linux 7.3)",
			    c->d->profile, mode, r, rm);
		return suite_note(c, "kernel %s: no kernel signal page, events mmap refused",
				  c->d->profile);
	}
	SUITE_CHECK(c, mode == 0 && r == 0 && rm == 0,
		    "kernel %s: kernel-page mode %d, first signal event without a buffer %d, "
		    "events mmap %d; expected all to succeed before Linux 7.3",
		    c->d->profile, mode, r, rm);
	return suite_note(c, "kernel %s: the kernel allocates the signal page", c->d->profile);
}

static const struct suite_case cases[] = {
	{ "process.create",
	  "CREATE_PROCESS makes the fd's process a secondary one: a second call is -EINVAL, its "
	  "events and signal page are its own, a CPU set or an interrupt on its PASID leaves the "
	  "other process of the task alone",
	  "from KFD 1.19 (commit cc6b66d661fd); skipped before", SUITE_ENGINE_NONE, 0,
	  create_process },
	{ "process.signal-page-7.3",
	  "the signal page on the kernel's side: from Linux 7.3 the first signal event without a "
	  "user buffer is -ENOMEM and the events mmap -EINVAL, and kfdsig refuses its kernel-page "
	  "mode (-ENOTSUP); before 7.3 all three work",
	  "Linux 7.3 removed the kernel-allocated signal page (commits 4d7c624a0af1, "
	  "b4f5837f746a); the emulator's v7.3 profile reproduces it",
	  SUITE_ENGINE_NONE, 0, signal_page_7_3 },
};

const struct suite_group suite_group_process = { "process", cases,
						 sizeof(cases) / sizeof(cases[0]) };
