/* SPDX-License-Identifier: MIT */
/*
 * The seam implementation: the emulator's struct kfdsig_kfd_ops (open,
 * close, ioctl, mmap, read/write/poll of SMI fds, DRM info), and what a
 * file's last close releases.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu/emu_priv.h"

/* "/dev/dri/renderD<minor>": digits only, within 32 bits (sscanf's %u
 * wrapped 4294967424 to 128, another GPU's node). */
static bool render_minor_of(const char *path, uint32_t *minor)
{
	static const char prefix[] = "/dev/dri/renderD";
	uint64_t v = 0;
	const char *p = path + sizeof(prefix) - 1;

	if (strncmp(path, prefix, sizeof(prefix) - 1) || *p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (uint64_t)(*p - '0')) > UINT32_MAX)
			return false;
	*minor = (uint32_t)v;
	return !*p;
}

static int e_open(void *ctx, const char *path, int flags)
{
	struct kfdsig_emu *emu = ctx;
	struct emu_file *f = NULL;
	uint32_t minor;
	int r;

	(void)flags; /* always close-on-exec, as the linux ops open */
	pthread_mutex_lock(&emu->lock);
	if (!strcmp(path, "/dev/kfd")) {
		struct emu_proc *p = NULL;

		/* kfd_create_process: the caller's process if it has one */
		r = 0;
		if (emu->pmodel == KFDSIG_EMU_PROCESS_PER_PID)
			p = emu_proc_of_caller(emu);
		if (!p && !(r = emu_proc_new(emu, &p)) && emu->pmodel == KFDSIG_EMU_PROCESS_PER_PID)
			p->refs++; /* one for the mm, one for the file */
		if (!p) {
			/* proc_new failed: r says why */
		} else if (!(r = emu_file_new(emu, EMU_FILE_KFD, &f))) {
			f->proc = p;
		} else if (--p->refs == 0) {
			/* a new per-open process: nothing else knows it */
			emu->procs = p->next;
			emu_proc_free(p);
		}
	} else if (render_minor_of(path, &minor)) {
		struct emu_gpu *g = NULL;
		for (uint32_t i = 0; i < emu->ngpus; i++)
			if (emu->gpus[i].render_minor == minor)
				g = &emu->gpus[i];
		r = g ? emu_file_new(emu, EMU_FILE_RENDER, &f) : -ENOENT;
		if (!r)
			f->gpu = g;
	} else {
		r = -ENOENT;
	}
	if (!r)
		r = emu_file_fd(emu, f);
	pthread_mutex_unlock(&emu->lock);
	return r;
}

static int e_close(void *ctx, int fd)
{
	return emu_fd_remove(ctx, fd, true);
}

static int e_ioctl(void *ctx, int fd, unsigned long req, void *arg)
{
	return emu_ioctl(ctx, fd, req, arg);
}

static int e_mmap(void *ctx, void **out, void *addr, size_t len, int prot, int flags, int fd,
		  uint64_t off)
{
	struct kfdsig_emu *emu = ctx;
	struct emu_file *f;
	struct emu_proc *p = NULL;
	int r;

	if (fd < 0) {
		void *m = mmap(addr, len, prot, flags, -1, (off_t)off);
		if (m == MAP_FAILED)
			return -errno;
		*out = m;
		return 0;
	}
	if (!len || (off & 4095))
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, fd);
	if (!f) {
		pthread_mutex_unlock(&emu->lock);
		return -EBADF;
	}
	if (f->kind == EMU_FILE_RENDER) {
		r = emu_userq_mmap(f, out, addr, len, prot, flags, off);
		if (r == -ENOENT)
			r = emu_render_mmap(emu, f, out, addr, len, prot, flags, off);
		pthread_mutex_unlock(&emu->lock);
		return r;
	}
	if (f->kind != EMU_FILE_KFD) {
		pthread_mutex_unlock(&emu->lock);
		return -ENODEV;
	}
	/* kfd_mmap acts on the caller's process (kfd_get_process(current)),
	 * -EINVAL when it has none. */
	/* From 1.19 kfd_mmap takes the file's process (commit 4eb38fc0f1da
	 * "amdkfd: find kfd_process by filep->private_data in kfd_mmap"):
	 * the same as the caller's unless CREATE_PROCESS replaced it. */
	if (emu->pmodel == KFDSIG_EMU_PROCESS_PER_PID && !(f->proc && f->proc->secondary)) {
		p = emu_proc_of_caller(emu);
	} else {
		p = f->proc;
		p->refs++;
	}
	pthread_mutex_unlock(&emu->lock);
	if (!p)
		return -EINVAL;

	/* kfd_mmap dispatches on the offset type (kfd_priv.h KFD_MMAP_TYPE_*, kfd_chardev.c kfd_mmap()). */
	switch (off & KFDSIG_MMAP_TYPE_MASK) {
	case KFDSIG_MMAP_TYPE_EVENTS:
		pthread_mutex_lock(&p->lock);
		r = emu_event_mmap(p, out, addr, len, prot, flags);
		pthread_mutex_unlock(&p->lock);
		break;
	case KFDSIG_MMAP_TYPE_DOORBELL:
		r = emu_doorbell_mmap(emu, p, out, addr, len, prot, flags, off);
		break;
	case KFDSIG_MMAP_TYPE_MMIO:
		r = emu_mmio_mmap(emu, out, addr, len, prot, flags, off);
		break;
	default:
		/* reserved memory (kfd_reserved_mem_mmap) is not emulated */
		r = -EINVAL;
		break;
	}
	/* kfd_event_mmap and kfd_doorbell_mmap set VM_DONTCOPY: a forked
	 * child does not inherit these mappings. */
	if (!r)
		madvise(*out, len, MADV_DONTFORK);
	emu_proc_put(p);
	return r;
}

static int e_munmap(void *ctx, void *addr, size_t len)
{
	(void)ctx;
	return munmap(addr, len) ? -errno : 0;
}

/* The SMI stream behind @fd: read() and write() work on SMI fds only. */
static int smi_of_fd(struct kfdsig_emu *emu, int fd, struct emu_smi **out)
{
	struct emu_file *f;

	*out = NULL;
	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, fd);
	if (f && f->kind == EMU_FILE_SMI)
		*out = f->smi;
	pthread_mutex_unlock(&emu->lock);
	if (!f)
		return -EBADF;
	if (f->kind == EMU_FILE_SMI && !*out)
		return -EBADF; /* the stream of the parent, after fork */
	return *out ? 0 : -EINVAL;
}

static ssize_t e_read(void *ctx, int fd, void *buf, size_t len)
{
	struct emu_smi *s;
	int r = smi_of_fd(ctx, fd, &s);

	return r ? r : emu_smi_read(s, buf, len);
}

static ssize_t e_write(void *ctx, int fd, const void *buf, size_t len)
{
	struct emu_smi *s;
	int r = smi_of_fd(ctx, fd, &s);

	return r ? r : emu_smi_write(s, buf, len);
}

/* Readiness lives in the eventfd behind each SMI fd, so libc poll works. */
static int e_poll(void *ctx, struct pollfd *fds, nfds_t n, int timeout)
{
	(void)ctx;
	int r = poll(fds, n, timeout);
	return r < 0 ? -errno : r;
}

static int e_drm_info(void *ctx, int fd, struct kfdsig_drm_info *out)
{
	struct kfdsig_emu *emu = ctx;
	struct emu_file *f;
	struct emu_gpu *g;

	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, fd);
	g = f && f->kind == EMU_FILE_RENDER ? f->gpu : NULL;
	pthread_mutex_unlock(&emu->lock);
	if (!g)
		return -EBADF;
	memset(out, 0, sizeof(*out));
	snprintf(out->marketing_name, sizeof(out->marketing_name), "%s", g->marketing_name);
	out->device_id = g->device_id;
	for (int i = 0; i < 3; i++) {
		out->gc_ip[i] = g->t->gc_ip[i];
		out->sdma_ip[i] = g->t->sdma_ip[i];
	}
	out->num_sdma_rings = g->num_sdma;
	out->mec_fw_version = g->mec_fw;
	out->sdma_fw_version = g->sdma_fw;
	return 0;
}

static bool e_privileged(void *ctx)
{
	return ((struct kfdsig_emu *)ctx)->privileged;
}

/* A file's last fd is gone (no lock held): release what it holds, as the
 * kernel's f_op->release (kfd_release, the SMI fd's release). */
void emu_file_release(struct kfdsig_emu *emu, struct emu_file *f)
{
	if (f->kind == EMU_FILE_KFD && f->proc) {
		if (emu->pmodel == KFDSIG_EMU_PROCESS_PER_OPEN || f->proc->secondary)
			emu_queues_fini(f->proc);
		emu_proc_put(f->proc);
	}
	if (f->kind == EMU_FILE_SMI && f->smi)
		emu_smi_release(f->smi);
	if (f->kind == EMU_FILE_RENDER)
		emu_userq_file_release(emu, f);
	if (f->kind == EMU_FILE_SYNC)
		emu_sync_file_release(f);
}

void emu_seam_install(struct kfdsig_emu *emu)
{
	emu->ops = (struct kfdsig_kfd_ops){
		.sz = sizeof(struct kfdsig_kfd_ops),
		.ctx = emu,
		.name = "emulated",
		.sysfs_root = emu->sysfs,
		.open = e_open,
		.close = e_close,
		.ioctl = e_ioctl,
		.mmap = e_mmap,
		.munmap = e_munmap,
		.read = e_read,
		.write = e_write,
		.poll = e_poll,
		.drm_info = e_drm_info,
		.privileged = e_privileged,
		/* the release each kernel profile reproduces (emu.h) */
		.kernel_release = emu->profile == KFDSIG_EMU_KERNEL_V7_3	 ? "7.3.0"
				  : emu->profile == KFDSIG_EMU_KERNEL_V7_1	 ? "7.1.0"
				  : emu->profile == KFDSIG_EMU_KERNEL_V6_14_DROP ? "6.14.0"
										 : "6.19.0",
	};
}
