/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's bottom layer: the lookups every other file uses (GPU
 * by id, the KFD version, a process by PASID and its reference count, a
 * process's binding to a GPU) and the GPU clock. It calls no other file of
 * the emulator: freeing a process whose last reference went is an up-call
 * (emu->proc_release, set by emu.c).
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_priv.h"

bool emu_version_at_least(const struct kfdsig_emu *emu, uint32_t minor)
{
	return emu->major > 1 || (emu->major == 1 && emu->minor >= minor);
}

/*
 * The bits of queue_percentage that are the percentage: bits 7:0 since
 * "drm/amdkfd: ... PM4 target XCC" (amd-gfx 2023-03-28, kfd_chardev.c
 * set_queue_properties_from_user() / kfd_ioctl_update_queue(): bits 15:8
 * are pm4_target_xcc), the whole word before. That commit bumped no
 * KFD_IOCTL_MINOR_VERSION; it landed between 1.13 and 1.14 ("Update
 * kfd_event_data"), so the emulator takes the target XCC from 1.14 on and
 * refuses it below, as the kernels that gate on 1.14 (kfd_queue.c) expect.
 */
uint32_t emu_queue_percentage_mask(const struct kfdsig_emu *emu)
{
	return emu_version_at_least(emu, 14) ? 0xffu : 0xffffffffu;
}

struct emu_gpu *emu_gpu_by_id(struct kfdsig_emu *emu, uint32_t gpu_id)
{
	for (uint32_t i = 0; i < emu->ngpus; i++)
		if (emu->gpus[i].gpu_id == gpu_id)
			return &emu->gpus[i];
	return NULL;
}

static struct emu_proc *proc_get(struct kfdsig_emu *emu, int pasid, const struct emu_gpu *g)
{
	struct emu_proc *p;

	pthread_mutex_lock(&emu->lock);
	for (p = emu->procs; p; p = p->next) {
		bool match = false;

		if (p->closed)
			continue;
		if (g)
			match = emu_proc_pasid(p, g) == pasid;
		else
			for (uint32_t i = 0; i < emu->ngpus && !match; i++)
				match = p->dev_pasid[i] == pasid;
		if (match) {
			p->refs++;
			break;
		}
	}
	pthread_mutex_unlock(&emu->lock);
	return p;
}

struct emu_proc *emu_proc_get(struct kfdsig_emu *emu, int pasid)
{
	return proc_get(emu, pasid, NULL);
}

struct emu_proc *emu_proc_get_on(struct kfdsig_emu *emu, int pasid, const struct emu_gpu *g)
{
	return proc_get(emu, pasid, g);
}

void emu_proc_put(struct emu_proc *p)
{
	struct kfdsig_emu *emu = p->emu;
	bool last;

	pthread_mutex_lock(&emu->lock);
	last = --p->refs == 0;
	if (last) {
		struct emu_proc **pp;
		for (pp = &emu->procs; *pp && *pp != p; pp = &(*pp)->next)
			;
		if (*pp)
			*pp = p->next;
	}
	pthread_mutex_unlock(&emu->lock);
	if (last)
		emu->proc_release(p); /* emu_process.c emu_proc_free */
}

struct emu_proc *emu_proc_of_caller(struct kfdsig_emu *emu)
{
	pid_t pid = getpid();

	for (struct emu_proc *p = emu->procs; p; p = p->next)
		/* find_process_by_mm returns the primary only (commit
		 * 3880d8e3c6ef "amdkfd: find_process_by_mm always return the
		 * primary context") */
		if (p->pid == pid && !p->closed && !p->secondary) {
			p->refs++;
			return p;
		}
	return NULL;
}

struct emu_proc *emu_proc_next_live(struct kfdsig_emu *emu, struct emu_proc *after)
{
	struct emu_proc *p;

	pthread_mutex_lock(&emu->lock);
	for (p = after ? after->next : emu->procs; p && p->closed; p = p->next)
		;
	if (p)
		p->refs++;
	pthread_mutex_unlock(&emu->lock);
	return p;
}

uint64_t emu_host_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t emu_raw_ns(void)
{
	return emu_host_ns(CLOCK_MONOTONIC_RAW);
}

/* Counted from the GPU's creation, as a real GPU counts from its power-up,
 * so that a long-running host never carries it out of its epoch. */
uint64_t emu_gpu_clock(const struct emu_gpu *g)
{
	return (emu_raw_ns() - g->clock_base_ns) / (1000000000ull / KFDSIG_EMU_GPU_CLOCK_HZ) +
	       KFDSIG_EMU_GPU_CLOCK_EPOCH * (g->index + 1);
}

int emu_gpu_index(struct kfdsig_emu *emu, uint32_t gpu_id)
{
	struct emu_gpu *g = emu_gpu_by_id(emu, gpu_id);
	return g ? (int)g->index : -1;
}

/* kfd_process_device_data_by_id + kfd_bind_process_to_device */
int emu_bind(struct kfdsig_emu *emu, struct emu_proc *p, uint32_t gpu_id)
{
	int i = emu_gpu_index(emu, gpu_id);

	if (i < 0)
		return -EINVAL;
	if (!p->pdd[i].vm)
		return -ENODEV;
	return i;
}
