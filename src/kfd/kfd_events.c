/* SPDX-License-Identifier: MIT */
/*
 * Events: the signal page, CREATE/DESTROY/SET/RESET_EVENT and WAIT_EVENTS
 * with event age (kfd_events.c: kfd_event_create(), kfd_event_page_set(), set_event(), kfd_wait_on_events()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kfd/kfd_priv.h"

int kfdsig_kfd_set_signal_page_mode(struct kfdsig_kfd *kfd, enum kfdsig_signal_page_mode mode)
{
	int r = 0;

	if (!kfd || (mode != KFDSIG_SIGNAL_PAGE_USER && mode != KFDSIG_SIGNAL_PAGE_KERNEL))
		return set_error(EINVAL, "bad signal page mode");
	if (mode == KFDSIG_SIGNAL_PAGE_KERNEL && kfd_kernel_at_least(kfd, 7, 3))
		return set_error(ENOTSUP,
				 "the kernel-page signal mode needs a kernel before Linux 7.3, "
				 "which allocates no signal page and refuses the events mmap "
				 "(commits b4f5837f746a, 4d7c624a0af1); use the user page");
	pthread_mutex_lock(&kfd->lock);
	if (kfd->page_set)
		r = set_error(EBUSY, "the signal page already exists");
	else
		kfd->page_mode = mode;
	pthread_mutex_unlock(&kfd->lock);
	return r;
}

/*
 * The dGPU path (libhsakmt hsaKmtCreateEvent, tinygrad; kfd_events.c kfd_event_page_set() / kfd_event_create(); kfd_chardev.c kfd_ioctl_alloc_memory_of_gpu()):
 * a 32 KiB GTT uncached buffer of the first GPU, mapped to every GPU whose
 * VM is acquired (and later ones as they are acquired), whose handle goes
 * in event_page_offset of the first CREATE_EVENT. Always 32 KiB: smaller
 * pages overflow in older kernels' memset and are refused by newer ones.
 */
static int make_user_page(struct kfdsig_kfd *kfd)
{
	struct kfd_gpu *g = NULL;
	struct kfd_bo *bo;
	int r;

	for (size_t i = 0; i < kfd->ngpus && !g; i++)
		if (kfd->gpus[i].vm_acquired)
			g = &kfd->gpus[i];
	if (!g && kfd->ngpus)
		g = &kfd->gpus[0];
	if (!g)
		return set_error(ENODEV, "no GPU to hold the signal page");
	r = kfd_alloc_locked(kfd, g->dev.gpu_id, KFDSIG_SIGNAL_PAGE_SIZE,
			     KFDSIG_KFD_MEM_GTT_UNCACHED, &bo);
	if (r < 0)
		return r;
	r = kfd_map_locked(kfd, bo, NULL, 0);
	if (r < 0)
		return r;
	kfd->signal_bo = bo;
	return 0;
}

/* The APU path: mmap the kernel's page from /dev/kfd at the events offset,
 * 32 KiB so that all 4096 slots are usable (kfd_events.c kfd_event_page_set() / kfd_event_create()). */
static int map_kernel_page(struct kfdsig_kfd *kfd, uint64_t offset)
{
	const struct kfdsig_kfd_ops *ops = kfd->ops;
	void *p, *low;
	int r;

	/* At an address every GPU reaches (below 2^40 with a gfx8 GPU). */
	r = kfd_reserve_va(kfd, KFDSIG_SIGNAL_PAGE_SIZE, &low);
	if (r < 0)
		return r;
	r = ops->mmap(ops->ctx, &p, low, KFDSIG_SIGNAL_PAGE_SIZE, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_FIXED, kfd->fd, offset);
	if (r < 0) {
		ops->munmap(ops->ctx, low, KFDSIG_SIGNAL_PAGE_SIZE);
		return set_error(-r, "cannot mmap the KFD signal page: %s", strerror(-r));
	}
	kfd->kernel_page = p;
	kfd->page_cpu = p;
	kfd->page_va = (uint64_t)(uintptr_t)p;
	return 0;
}

static int remember_other(struct kfdsig_kfd *kfd, uint32_t id, uint32_t type)
{
	if (kfd->nothers == kfd->cap_others) {
		size_t cap = kfd->cap_others ? kfd->cap_others * 2 : 16;
		void *p = realloc(kfd->others, cap * sizeof(*kfd->others));
		if (!p)
			return -ENOMEM;
		kfd->others = p;
		kfd->cap_others = cap;
	}
	kfd->others[kfd->nothers].id = id;
	kfd->others[kfd->nothers].type = type;
	kfd->nothers++;
	return 0;
}

static int other_type(struct kfdsig_kfd *kfd, uint32_t id)
{
	for (size_t i = 0; i < kfd->nothers; i++)
		if (kfd->others[i].id == id)
			return (int)kfd->others[i].type;
	return -1;
}

int kfdsig_kfd_event_create(struct kfdsig_kfd *kfd, uint32_t type, bool auto_reset,
			    struct kfdsig_event *ev)
{
	struct kfd_ioctl_create_event_args args = { 0 };
	bool installing = false;
	int r;

	if (!kfd || !ev)
		return set_error(EINVAL, "NULL argument");
	memset(ev, 0, sizeof(*ev));
	pthread_mutex_lock(&kfd->lock);
	if (!kfd->page_set && kfd->page_mode == KFDSIG_SIGNAL_PAGE_USER) {
		if (!kfd->signal_bo) {
			r = make_user_page(kfd);
			if (r < 0)
				goto out;
		}
		args.event_page_offset = kfd->signal_bo->pub.handle;
		installing = true;
	}
	args.event_type = type;
	args.auto_reset = auto_reset;
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, AMDKFD_IOC_CREATE_EVENT, &args);
	if (r < 0) {
		if (r == -ENOSPC)
			r = set_error(ENOSPC, "no free event slot (4095 signal events max)");
		else
			r = set_error(-r, "CREATE_EVENT(type %u) failed: %s", type, strerror(-r));
		goto out;
	}
	if (installing) {
		kfd->page_set = true;
		kfd->page_cpu = kfd->signal_bo->pub.cpu;
		kfd->page_va = kfd->signal_bo->pub.va;
	} else if (!kfd->page_set && args.event_page_offset) {
		r = map_kernel_page(kfd, args.event_page_offset);
		if (r < 0)
			goto out;
		kfd->page_set = true;
	}
	ev->id = args.event_id;
	ev->type = type;
	ev->auto_reset = auto_reset;
	if (type == KFDSIG_EVENT_SIGNAL || type == KFDSIG_EVENT_DEBUG) {
		ev->slot_index = args.event_slot_index;
		if (kfd->page_cpu && ev->slot_index < KFD_SIGNAL_EVENT_LIMIT) {
			ev->slot = kfd->page_cpu + ev->slot_index;
			ev->slot_va = kfd->page_va + 8ull * ev->slot_index;
		}
	} else if (remember_other(kfd, args.event_id, type) < 0) {
		r = set_error(ENOMEM, "out of memory");
		goto out;
	}
	r = 0;
out:
	pthread_mutex_unlock(&kfd->lock);
	return r;
}

static int simple_event_ioctl(struct kfdsig_kfd *kfd, unsigned long req, const char *what,
			      uint32_t id)
{
	struct kfd_ioctl_set_event_args args = { .event_id = id };
	int r;

	if (!kfd)
		return set_error(EINVAL, "NULL kfd handle");
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, req, &args);
	if (r < 0)
		return set_error(-r, "%s(event %u) failed: %s", what, id,
				 r == -EINVAL ? "unknown event or wrong type" : strerror(-r));
	return 0;
}

int kfdsig_kfd_event_destroy(struct kfdsig_kfd *kfd, uint32_t id)
{
	int r = simple_event_ioctl(kfd, AMDKFD_IOC_DESTROY_EVENT, "DESTROY_EVENT", id);

	if (!r) {
		pthread_mutex_lock(&kfd->lock);
		for (size_t i = 0; i < kfd->nothers; i++)
			if (kfd->others[i].id == id) {
				kfd->others[i] = kfd->others[--kfd->nothers];
				break;
			}
		pthread_mutex_unlock(&kfd->lock);
	}
	return r;
}

int kfdsig_kfd_event_set(struct kfdsig_kfd *kfd, uint32_t id)
{
	return simple_event_ioctl(kfd, AMDKFD_IOC_SET_EVENT, "SET_EVENT", id);
}

int kfdsig_kfd_event_reset(struct kfdsig_kfd *kfd, uint32_t id)
{
	return simple_event_ioctl(kfd, AMDKFD_IOC_RESET_EVENT, "RESET_EVENT", id);
}

int kfdsig_kfd_signal_page(struct kfdsig_kfd *kfd, uint64_t **cpu, uint64_t *va)
{
	int r = 0;

	if (!kfd)
		return set_error(EINVAL, "NULL kfd handle");
	pthread_mutex_lock(&kfd->lock);
	if (!kfd->page_set) {
		r = set_error(ENOENT, "no signal page before the first signal event");
	} else {
		if (cpu)
			*cpu = kfd->page_cpu;
		if (va)
			*va = kfd->page_va;
	}
	pthread_mutex_unlock(&kfd->lock);
	return r;
}

static void decode_memory(const struct kfd_hsa_memory_exception_data *m,
			  struct kfdsig_memory_exception *out)
{
	out->not_present = m->failure.NotPresent;
	out->read_only = m->failure.ReadOnly;
	out->no_execute = m->failure.NoExecute;
	out->imprecise = m->failure.imprecise;
	out->va = m->va;
	out->gpu_id = m->gpu_id;
	out->error_type = m->ErrorType;
}

static void decode_hw(const struct kfd_hsa_hw_exception_data *h, struct kfdsig_hw_exception *out)
{
	out->reset_type = h->reset_type;
	out->reset_cause = h->reset_cause;
	out->memory_lost = h->memory_lost;
	out->gpu_id = h->gpu_id;
}

int kfdsig_kfd_wait(struct kfdsig_kfd *kfd, struct kfdsig_wait_entry *e, uint32_t n, bool all,
		    uint32_t timeout_ms, enum kfdsig_wait_result *result)
{
	struct kfd_ioctl_wait_events_args args = { 0 };
	abi_event_data stack[16], *data = stack;
	int types_stack[16], *types = types_stack;
	bool age_ok;
	int r;

	if (result)
		*result = KFDSIG_WAIT_FAIL;
	if (!kfd || (n && !e) || !result)
		return set_error(EINVAL, "NULL argument");
	if (n > 16) {
		data = calloc(n, sizeof(*data));
		types = calloc(n, sizeof(*types));
		if (!data || !types) {
			free(data);
			free(types);
			return set_error(ENOMEM, "out of memory");
		}
	}
	memset(data, 0, sizeof(*data) * (n > 16 ? n : 16));
	/* Event age exists from KFD 1.14; older kernels ignore the union on
	 * input, and passing 0 keeps the legacy wait (kfd_events.c set_event() event_age). */
	age_ok = kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_EVENT_AGE);
	pthread_mutex_lock(&kfd->lock);
	for (uint32_t i = 0; i < n; i++) {
		types[i] = e[i].event_id < KFDSIG_FIRST_NONSIGNAL_EVENT_ID
				   ? KFDSIG_EVENT_SIGNAL
				   : other_type(kfd, e[i].event_id);
		data[i].event_id = e[i].event_id;
		if (age_ok && types[i] == KFDSIG_EVENT_SIGNAL)
			data[i].signal_event_data.last_event_age = e[i].age;
	}
	pthread_mutex_unlock(&kfd->lock);
	args.events_ptr = (uint64_t)(uintptr_t)data;
	args.num_events = n;
	args.wait_for_all = all;
	args.timeout = timeout_ms;
	args.wait_result = KFD_IOC_WAIT_RESULT_FAIL;
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, AMDKFD_IOC_WAIT_EVENTS, &args);
	*result = (enum kfdsig_wait_result)args.wait_result;
	if (r < 0) {
		*result = KFDSIG_WAIT_FAIL;
		if (r == -EIO)
			r = set_error(EIO, "an event waited on was destroyed");
		else if (r == -EINVAL)
			r = set_error(EINVAL, "WAIT_EVENTS: unknown event id");
		else
			r = set_error(-r, "WAIT_EVENTS failed: %s", strerror(-r));
	} else if (args.wait_result == KFD_IOC_WAIT_RESULT_FAIL) {
		r = set_error(EIO, "WAIT_EVENTS failed");
	} else {
		r = 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		e[i].fired = false;
		e[i].fired_unsure = false;
		if (r < 0 || args.wait_result != KFD_IOC_WAIT_RESULT_COMPLETE) {
			if (!age_ok)
				e[i].age = 0;
			continue;
		}
		switch (types[i]) {
		case KFDSIG_EVENT_SIGNAL:
			if (age_ok && e[i].age) {
				uint64_t a = data[i].signal_event_data.last_event_age;
				e[i].fired = a != e[i].age;
				e[i].age = a;
			} else {
				/* Without an age the kernel copies nothing back
				 * for a SIGNAL event (kfd_events.c
				 * copy_signaled_event_data(): event_age_enabled
				 * waiters only). A completed wait for all, or
				 * for this event alone, still says it fired; a
				 * wait for any of several does not say which,
				 * and each may have: report it fired, unsure. */
				e[i].age = 0;
				e[i].fired = true;
				e[i].fired_unsure = !all && n > 1;
			}
			break;
		case KFDSIG_EVENT_MEMORY:
			decode_memory(&data[i].memory_exception_data, &e[i].memory);
			e[i].fired = e[i].memory.gpu_id != 0;
			break;
		case KFDSIG_EVENT_HW_EXCEPTION:
			decode_hw(&data[i].hw_exception_data, &e[i].hw);
			e[i].fired = e[i].hw.gpu_id != 0 || e[i].hw.memory_lost;
			break;
		default:
			break;
		}
	}
	if (data != stack) {
		free(data);
		free(types);
	}
	return r;
}
