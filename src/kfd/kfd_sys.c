/* SPDX-License-Identifier: MIT */
/*
 * The bottom layer of the KFD backend: the ioctl wrapper over the seam,
 * GPU lookups and the version-gated feature table. Every other kfd_*.c
 * file may call it; it calls none of them (scripts/check-cycles.py).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "kfd/kfd_priv.h"

/* ---- ioctl ------------------------------------------------------------ */

int kfd_ioctl_retry(const struct kfdsig_kfd_ops *ops, int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ops->ioctl(ops->ctx, fd, req, arg);
	while (r == -EINTR || r == -EAGAIN);
	return r;
}

int kfdsig_kfd_ioctl(struct kfdsig_kfd *kfd, unsigned long req, void *arg)
{
	int r;

	if (!kfd)
		return set_error(EINVAL, "NULL kfd handle");
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, req, arg);
	if (r < 0)
		return set_error(-r, "KFD ioctl nr 0x%02lx failed: %s", (req & 0xff), strerror(-r));
	return r;
}

/* ---- lookups ---------------------------------------------------------- */

struct kfd_gpu *kfd_gpu_by_id(struct kfdsig_kfd *kfd, uint32_t gpu_id)
{
	for (size_t i = 0; i < kfd->ngpus; i++)
		if (kfd->gpus[i].dev.gpu_id == gpu_id)
			return &kfd->gpus[i];
	return NULL;
}

struct kfd_gpu *kfd_gpu_arg(struct kfdsig_kfd *kfd, uint32_t gpu_id, int *err)
{
	struct kfd_gpu *g;

	if (!kfd) {
		*err = set_error(EINVAL, "NULL kfd handle");
		return NULL;
	}
	g = kfd_gpu_by_id(kfd, gpu_id);
	if (!g)
		*err = set_error(ENOENT, "no GPU with gpu_id 0x%x", gpu_id);
	return g;
}

const struct kfdsig_kfd_device *kfdsig_kfd_device_by_gpu_id(const struct kfdsig_kfd *kfd,
							    uint32_t gpu_id)
{
	struct kfd_gpu *g = kfd ? kfd_gpu_by_id((struct kfdsig_kfd *)kfd, gpu_id) : NULL;

	if (!g) {
		set_error(ENOENT, "no GPU with gpu_id 0x%x", gpu_id);
		errno = ENOENT;
		return NULL;
	}
	return &g->dev;
}

/* ---- features --------------------------------------------------------- */

/* kfd_ioctl.h version history (system header 1.1-1.11). */
static const struct {
	const char *name;
	uint32_t minor;
} features[KFDSIG_KFD_FEAT_COUNT] = {
	[KFDSIG_KFD_FEAT_SMI_EVENTS] = { "smi-events", 3 },
	[KFDSIG_KFD_FEAT_SVM] = { "svm", 5 },
	[KFDSIG_KFD_FEAT_CRIU] = { "criu", 7 },
	[KFDSIG_KFD_FEAT_AVAILABLE_MEMORY] = { "available-memory", 9 },
	[KFDSIG_KFD_FEAT_SMI_PROFILER] = { "smi-profiler", 10 },
	[KFDSIG_KFD_FEAT_CWSR_SVM] = { "cwsr-svm", 11 },
	[KFDSIG_KFD_FEAT_DMABUF_EXPORT] = { "dmabuf-export", 12 },
	[KFDSIG_KFD_FEAT_DEBUGGER] = { "debugger", 13 },
	[KFDSIG_KFD_FEAT_EVENT_AGE] = { "event-age", 14 },
	[KFDSIG_KFD_FEAT_GEM_VA] = { "gem-va", 15 },
	[KFDSIG_KFD_FEAT_CONTIGUOUS_VRAM] = { "contiguous-vram", 16 },
	[KFDSIG_KFD_FEAT_SDMA_BY_ENG_ID] = { "sdma-by-engine-id", 17 },
	[KFDSIG_KFD_FEAT_CREATE_PROCESS] = { "create-process", 19 },
	[KFDSIG_KFD_FEAT_METADATA_RING] = { "metadata-ring", 22 },
};

bool kfdsig_kfd_has(const struct kfdsig_kfd *kfd, enum kfdsig_kfd_feature f)
{
	if (!kfd || (unsigned)f >= KFDSIG_KFD_FEAT_COUNT)
		return false;
	return kfd->major > 1 || (kfd->major == 1 && kfd->minor >= features[f].minor);
}

const char *kfdsig_kfd_feature_info(enum kfdsig_kfd_feature f, uint32_t *minor)
{
	if ((unsigned)f >= KFDSIG_KFD_FEAT_COUNT) {
		set_error(ERANGE, "feature %d out of range", (int)f);
		errno = ERANGE;
		return NULL;
	}
	if (minor)
		*minor = features[f].minor;
	return features[f].name;
}

/* Is the kernel behind kfd's ops at least @maj.@min? ops->kernel_release,
 * or uname(2)'s release; false when unreadable. */
bool kfd_kernel_at_least(const struct kfdsig_kfd *kfd, unsigned maj, unsigned min)
{
	struct utsname u;
	const char *rel = kfd->ops->kernel_release;
	unsigned a = 0, b = 0;

	if (!rel) {
		if (uname(&u))
			return false;
		rel = u.release;
	}
	if (sscanf(rel, "%u.%u", &a, &b) != 2)
		return false;
	return a > maj || (a == maj && b >= min);
}

int kfdsig_kfd_create_process(struct kfdsig_kfd *kfd)
{
	bool busy = false;
	int r;

	if (!kfd)
		return set_error(EINVAL, "NULL kfd handle");
	if (!kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_CREATE_PROCESS))
		return set_error(ENOTSUP, "CREATE_PROCESS needs KFD 1.19 (this one is %u.%u)",
				 kfd->major, kfd->minor);
	pthread_mutex_lock(&kfd->lock);
	busy = kfd->bos || kfd->page_set || kfd->nothers || kfd->queues;
	for (size_t i = 0; i < kfd->ngpus && !busy; i++)
		busy = kfd->gpus[i].vm_acquired;
	if (busy) {
		pthread_mutex_unlock(&kfd->lock);
		return set_error(EBUSY, "CREATE_PROCESS on a handle that already holds a VM, "
					"buffer, event or queue");
	}
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, KFDSIG_AMDKFD_IOC_CREATE_PROCESS, NULL);
	pthread_mutex_unlock(&kfd->lock);
	if (r < 0)
		return set_error(-r, "CREATE_PROCESS failed: %s", strerror(-r));
	return 0;
}
