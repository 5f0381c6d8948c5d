/* SPDX-License-Identifier: MIT */
/*
 * What a host that puts the emulator behind libc itself (the LD_PRELOAD
 * interposer, src/preload) needs beyond the kfdsig_kfd_ops seam: to hear
 * of every emulated fd, to register the dups it makes, and what stat()
 * says about the emulated device nodes. Internal to the build: the
 * interposer links its own copy of the emulator; libkfdsig does not export
 * these.
 */
#ifndef KFDSIG_EMU_HOST_H
#define KFDSIG_EMU_HOST_H

#include <stdbool.h>
#include <stdint.h>

struct kfdsig_emu;

/* /dev/kfd's character major. amdkfd registers its chrdev with major 0
 * (kfd_chardev.c kfd_chardev_init: register_chrdev(0, "kfd", ...)), so
 * the kernel picks a free dynamic one; the emulator reports this value.
 * Render nodes are DRM's fixed major (include/drm/drm.h DRM_MAJOR 226). */
#define EMU_KFD_MAJOR 235u
#define EMU_DRM_MAJOR 226u

/* Call @hook(ctx, fd, added) for every client fd that enters or leaves
 * the emulator's fd table (emu->lock held; a leaving fd before it is
 * closed). Set it before the first open. */
void emu_host_set_fd_hook(struct kfdsig_emu *emu, void (*hook)(void *ctx, int fd, bool added),
			  void *ctx);

/* Where the emulator reports why its shader unit stopped a wave (the
 * instruction it does not implement, with address, words, encoding and
 * opcode; the faulting access): @fn gets one line without a newline, from
 * an engine thread. NULL (the default): not reported; the emulator itself
 * never prints. The interposer prints the lines under `kfdsig exec -v`. */
void emu_host_set_diag(struct kfdsig_emu *emu, void (*fn)(void *ctx, const char *line), void *ctx);

/* @newfd was just made as a dup of the emulated @oldfd: it names the same
 * file from now on. Return: 0, -EBADF (@oldfd not emulated), -ENOMEM. */
int emu_host_dup(struct kfdsig_emu *emu, int oldfd, int newfd);

/* Forget @fd without closing it (dup2/dup3 is about to replace it).
 * Return: 0 or -EBADF. */
int emu_host_forget(struct kfdsig_emu *emu, int fd);

/* Is @fd one of the emulator's client fds? */
bool emu_host_has_fd(struct kfdsig_emu *emu, int fd);

/* Is @minor the render minor of an emulated GPU? */
bool emu_host_render_minor(struct kfdsig_emu *emu, unsigned minor);

/* The device number stat() reports for an emulated fd (KFD: EMU_KFD_MAJOR:0,
 * render node: 226:minor). Return: 0, or -ENOENT (not a device file). */
int emu_host_fd_rdev(struct kfdsig_emu *emu, int fd, unsigned *major, unsigned *minor);

/* Remove the emulated sysfs tree (at exit of the process that made it). */
void emu_host_remove_sysfs(struct kfdsig_emu *emu);

/* The debugger link pages (/dev/shm/kfdsig-dbg-PID-START, emu_debug.c):
 * emu_host_debug_exit() removes the calling process's own page (its exit
 * without atexit handlers, _exit); emu_host_reap_debug_pages() removes the
 * pages of processes that no longer exist (killed, or exec'd). */
void emu_host_debug_exit(void);
void emu_host_reap_debug_pages(void);

/* What the calling process's emulated KFD can still do by itself, for a
 * host's stall report (emu_host_quiet()). */
#define EMU_QUIET_IDS 8u
struct emu_quiet {
	/* Changes with every ioctl entered or returned, interrupt taken,
	 * packet an engine took and wait that woke: equal in two looks, the
	 * emulated KFD did nothing in between. */
	uint64_t activity;
	/* WAIT_EVENTS calls asleep with their condition unmet that will not
	 * time out within the horizon: only a signal ends them. */
	uint32_t waits;
	uint32_t ids[EMU_QUIET_IDS]; /* events they wait on, not signalled */
	uint32_t nids;		     /* all of them (more than fit in ids) */
	uint32_t queues, halted;     /* user queues; stopped by an exception */
	/* No engine is taking packets or has packets it may fetch, none is
	 * suspended by a debugger: nothing on the GPU side will signal. */
	bool gpu_idle;
};

/* Fill @s for the calling process (its KFD processes under the per-pid
 * model), counting waits that would time out by themselves within
 * @horizon_ns as not waiting. Takes and drops the emulator's locks. */
void emu_host_quiet(struct kfdsig_emu *emu, uint64_t horizon_ns, struct emu_quiet *s);

#endif
