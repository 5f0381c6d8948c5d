/* SPDX-License-Identifier: MIT */
/*
 * The KFD backend: the default (Linux) ops of the seam, opening and closing
 * KFD (the ioctl wrapper, lookups and feature table are in kfd_sys.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/opts.h"
#include "kfd/kfd_priv.h"

/* ---- default ops: libc on the real paths ------------------------------ */

static int lx_open(void *ctx, const char *path, int flags)
{
	(void)ctx;
	int fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int lx_close(void *ctx, int fd)
{
	(void)ctx;
	return close(fd) ? -errno : 0;
}

static int lx_ioctl(void *ctx, int fd, unsigned long req, void *arg)
{
	(void)ctx;
	int r = ioctl(fd, req, arg);
	return r < 0 ? -errno : r;
}

static int lx_mmap(void *ctx, void **out, void *addr, size_t len, int prot, int flags, int fd,
		   uint64_t off)
{
	(void)ctx;
	void *p = mmap(addr, len, prot, flags, fd, (off_t)off);
	if (p == MAP_FAILED)
		return -errno;
	*out = p;
	return 0;
}

static int lx_munmap(void *ctx, void *addr, size_t len)
{
	(void)ctx;
	return munmap(addr, len) ? -errno : 0;
}

static ssize_t lx_read(void *ctx, int fd, void *buf, size_t len)
{
	(void)ctx;
	ssize_t r = read(fd, buf, len);
	return r < 0 ? -errno : r;
}

static ssize_t lx_write(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx;
	ssize_t r = write(fd, buf, len);
	return r < 0 ? -errno : r;
}

static int lx_poll(void *ctx, struct pollfd *fds, nfds_t n, int timeout)
{
	(void)ctx;
	int r = poll(fds, n, timeout);
	return r < 0 ? -errno : r;
}

/* CAP_SYS_ADMIN in the effective set, read from /proc/self/status. */
static bool lx_privileged(void *ctx)
{
	char line[256];
	bool ok = false;
	FILE *f;

	(void)ctx;
	f = fopen("/proc/self/status", "re");
	if (!f)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;
		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			ok = caps & (1ull << 21); /* CAP_SYS_ADMIN */
			break;
		}
	}
	fclose(f);
	return ok;
}

static const struct kfdsig_kfd_ops linux_ops = {
	.sz = sizeof(struct kfdsig_kfd_ops),
	.ctx = NULL,
	.name = "linux",
	.sysfs_root = "/sys",
	.open = lx_open,
	.close = lx_close,
	.ioctl = lx_ioctl,
	.mmap = lx_mmap,
	.munmap = lx_munmap,
	.read = lx_read,
	.write = lx_write,
	.poll = lx_poll,
	.drm_info = kfd_linux_drm_info,
	.privileged = lx_privileged,
};

const struct kfdsig_kfd_ops *kfdsig_kfd_linux_ops(void)
{
	return &linux_ops;
}

/* ---- open / close ----------------------------------------------------- */

static bool ops_complete(const struct kfdsig_kfd_ops *o)
{
	return o->open && o->close && o->ioctl && o->mmap && o->munmap && o->read && o->write &&
	       o->poll && o->sysfs_root;
}

int kfdsig_kfd_open(const struct kfdsig_kfd_ops *ops, struct kfdsig_kfd **out)
{
	struct kfd_ioctl_get_version_args ver = { 0 };
	struct kfdsig_kfd_ops table;
	struct kfdsig_kfd *kfd;
	int r;

	if (!out)
		return set_error(EINVAL, "NULL output pointer");
	*out = NULL;
	/* an older caller's smaller table: the ops it lacks read as NULL */
	r = opts_copy(&table, sizeof(table), ops ? ops : &linux_ops, "kfdsig_kfd_ops");
	if (r)
		return r;
	if (!ops_complete(&table))
		return set_error(EINVAL, "incomplete kfd ops table '%s'",
				 table.name ? table.name : "?");
	kfd = calloc(1, sizeof(*kfd));
	if (!kfd)
		return set_error(ENOMEM, "out of memory");
	kfd->ops_buf = table;
	kfd->ops = ops = &kfd->ops_buf;
	pthread_mutex_init(&kfd->lock, NULL);
	kfd->fd = ops->open(ops->ctx, "/dev/kfd", O_RDWR);
	if (kfd->fd < 0) {
		r = kfd->fd;
		free(kfd);
		if (r == -ENOENT || r == -ENXIO || r == -ENODEV)
			return set_error(ENOENT, "no KFD: /dev/kfd: %s (no AMD GPU driver?)",
					 strerror(-r));
		return set_error(-r, "cannot open /dev/kfd: %s%s", strerror(-r),
				 r == -EACCES ? " (add the user to the render group)" : "");
	}
	r = kfd_ioctl_retry(ops, kfd->fd, AMDKFD_IOC_GET_VERSION, &ver);
	if (r < 0) {
		ops->close(ops->ctx, kfd->fd);
		free(kfd);
		return set_error(-r, "AMDKFD_IOC_GET_VERSION failed: %s", strerror(-r));
	}
	kfd->major = ver.major_version;
	kfd->minor = ver.minor_version;
	r = kfd_topology_read(kfd);
	if (r < 0) {
		kfdsig_kfd_close(kfd);
		return r;
	}
	*out = kfd;
	return 0;
}

void kfdsig_kfd_close(struct kfdsig_kfd *kfd)
{
	if (!kfd)
		return;
	kfd_queues_release_all(kfd);
	kfd_mem_release_all(kfd);
	if (kfd->fd >= 0)
		kfd->ops->close(kfd->ops->ctx, kfd->fd);
	for (size_t i = 0; i < kfd->ngpus; i++)
		if (kfd->gpus[i].render_fd >= 0)
			kfd->ops->close(kfd->ops->ctx, kfd->gpus[i].render_fd);
	free(kfd->gpus);
	free(kfd->others);
	pthread_mutex_destroy(&kfd->lock);
	free(kfd);
}

int kfdsig_kfd_fd(const struct kfdsig_kfd *kfd)
{
	return kfd ? kfd->fd : -EINVAL;
}

const struct kfdsig_kfd_ops *kfdsig_kfd_ops_of(const struct kfdsig_kfd *kfd)
{
	return kfd ? kfd->ops : &linux_ops;
}

size_t kfdsig_kfd_device_count(const struct kfdsig_kfd *kfd)
{
	return kfd ? kfd->ngpus : 0;
}

const struct kfdsig_kfd_device *kfdsig_kfd_device(const struct kfdsig_kfd *kfd, size_t i)
{
	if (!kfd || i >= kfd->ngpus) {
		set_error(ERANGE, "device index %zu out of range", i);
		errno = ERANGE;
		return NULL;
	}
	return &kfd->gpus[i].dev;
}

int kfdsig_kfd_version(const struct kfdsig_kfd *kfd, uint32_t *major, uint32_t *minor)
{
	if (!kfd || !major || !minor)
		return set_error(EINVAL, "NULL argument");
	*major = kfd->major;
	*minor = kfd->minor;
	return 0;
}
