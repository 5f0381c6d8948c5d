/* SPDX-License-Identifier: MIT */
/*
 * The emulator's files and fd table: every emulated fd is a real eventfd
 * (so numbers are unique and poll() works on SMI fds); a file lives until
 * its last fd is closed, then emu->file_release (emu_seam.c) releases what
 * it holds. Calls no other file of the emulator.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "emu/emu_priv.h"

struct emu_file *emu_file_get(struct kfdsig_emu *emu, int fd)
{
	for (struct emu_fdent *e = emu->fds; e; e = e->next)
		if (e->fd == fd)
			return e->f;
	return NULL;
}

int emu_file_fd(struct kfdsig_emu *emu, const struct emu_file *f)
{
	int fd = -EBADF;

	/* the oldest entry: the fd the open returned, unless closed */
	for (struct emu_fdent *e = emu->fds; e; e = e->next)
		if (e->f == f)
			fd = e->fd;
	return fd;
}

int emu_fd_add(struct kfdsig_emu *emu, struct emu_file *f, int fd)
{
	struct emu_fdent *e;

	if (emu_file_get(emu, fd))
		return -EBUSY;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->fd = fd;
	e->f = f;
	e->next = emu->fds;
	emu->fds = e;
	f->nfds++;
	if (emu->fd_hook)
		emu->fd_hook(emu->fd_hook_ctx, fd, true);
	return 0;
}

int emu_file_new(struct kfdsig_emu *emu, enum emu_file_kind kind, struct emu_file **out)
{
	struct emu_file *f = calloc(1, sizeof(*f));
	int fd, r;

	if (!f)
		return -ENOMEM;
	f->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	fd = f->efd < 0 ? -1 : fcntl(f->efd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		r = -errno;
		if (f->efd >= 0)
			close(f->efd);
		free(f);
		return r;
	}
	f->kind = kind;
	r = emu_fd_add(emu, f, fd);
	if (r) {
		close(fd);
		close(f->efd);
		free(f);
		return r;
	}
	f->next = emu->files;
	emu->files = f;
	*out = f;
	return 0;
}

/* The last fd of @f is gone (emu->lock held): unlink it. The caller
 * finishes with file_release() once the lock is dropped. */
static void file_unlink(struct kfdsig_emu *emu, struct emu_file *f)
{
	struct emu_file **pp;

	for (pp = &emu->files; *pp && *pp != f; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = f->next;
	/* A render fd stays referenced by the VM it was handed to; the
	 * kernel keeps the file alive through that reference. Forget it
	 * here; processes compare by pointer only while it is open. */
	for (struct emu_proc *p = emu->procs; p; p = p->next)
		for (int i = 0; i < EMU_MAX_GPUS; i++)
			if (p->pdd[i].drm_file == f)
				p->pdd[i].drm_file = NULL;
	/* Per open: the process dies with its file. Per pid: kfd_release
	 * only drops a reference; the process lives until its mm goes. */
	if (f->kind == EMU_FILE_KFD && f->proc &&
	    (emu->pmodel == KFDSIG_EMU_PROCESS_PER_OPEN || f->proc->secondary))
		f->proc->closed = true;
}

static void file_release(struct kfdsig_emu *emu, struct emu_file *f)
{
	emu->file_release(emu, f); /* what the file holds (emu_seam.c) */
	close(f->efd);
	free(f);
}

int emu_fd_remove(struct kfdsig_emu *emu, int fd, bool do_close)
{
	struct emu_fdent **pp, *e;
	struct emu_file *f;
	bool last;

	pthread_mutex_lock(&emu->lock);
	for (pp = &emu->fds; *pp && (*pp)->fd != fd; pp = &(*pp)->next)
		;
	e = *pp;
	if (!e) {
		pthread_mutex_unlock(&emu->lock);
		return -EBADF;
	}
	*pp = e->next;
	f = e->f;
	free(e);
	/* The hook hears of it before the number can be reused. */
	if (emu->fd_hook)
		emu->fd_hook(emu->fd_hook_ctx, fd, false);
	if (do_close)
		close(fd);
	last = --f->nfds == 0;
	if (last)
		file_unlink(emu, f);
	pthread_mutex_unlock(&emu->lock);
	if (last)
		file_release(emu, f);
	return 0;
}
