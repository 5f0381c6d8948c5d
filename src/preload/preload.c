/* SPDX-License-Identifier: MIT */
/*
 * libkfdsig-preload.so: run an unmodified KFD client on the emulated KFD.
 * Loaded with LD_PRELOAD (`kfdsig exec`), it puts the emulator (its own
 * copy, built from the same sources, nothing of it exported) behind the
 * libc entry points a client reaches the kernel through:
 *
 *   - /dev/kfd and /dev/dri/renderD<minor of an emulated GPU> open on the
 *     emulator (kfdsig_emu_ops()); their fds are real fds (dups of an
 *     eventfd), so numbers never collide and poll/epoll work unchanged;
 *   - ioctl, mmap, read, write and close on those fds reach the emulator;
 *     dup, dup2, dup3 and fcntl(F_DUPFD*) make more fds of the same file;
 *   - /sys/devices/virtual/kfd, /sys/class/kfd, /sys/dev/char/226:<minor>
 *     (emulated minors) and /sys/class/drm (the emulated GPUs' cardN and
 *     renderDN, nothing of the host's) are read from the emulator's sysfs
 *     tree ("/sys/REST" -> "<root>/REST") by open, fopen,
 *     opendir, scandir, the stat family, access, readlink and realpath;
 *   - stat of /dev/kfd and the render nodes, and fstat of their fds, say
 *     "character device" (kfd: a dynamic major, render: 226:minor);
 *   - /dev/dri lists the emulated render nodes beside the real entries
 *     (dri_dir(): libdrm's drmGetDevices2 walks it with opendir/readdir);
 *   - the extended-attribute calls on those paths and fds answer as a
 *     device file without attributes does (ENODATA, an empty list);
 *   - the driver looks loaded: /proc/modules has an amdgpu line and
 *     /sys/module/amdgpu exists with initstate "live" (module_files()), so
 *     `lsmod | grep amdgpu` (rocminfo's first check) finds it; child
 *     processes load the interposer too and see the same.
 *
 * The emulator is created on first use from KFDSIG_EMULATE (default
 * gfx90a) in the kernel's process model (KFDSIG_EMU_PROCESS_PER_PID: one
 * KFD process per client process, surviving close and reopen; a forked
 * child has none until it opens /dev/kfd). Everything else goes straight
 * to the next definition (dlsym(RTLD_NEXT), resolved once): a path that
 * does not start with "/dev/", "/sys/" or "/proc/" costs two byte compares, an fd
 * one bit test in a bitmap indexed by fd.
 *
 * Under `kfdsig trace` (KFDSIG_TRACE_FD set) trace.c records the KFD calls
 * made here. Without KFDSIG_EMULATE the KFD is then the real one: /dev/kfd
 * and the render nodes open through kfdsig_kfd_linux_ops(), their fds are
 * marked in the bitmap here, and every other path (sysfs included) passes
 * through untouched.
 *
 * munmap, mremap, poll, ppoll, select and epoll are not interposed: the
 * mappings are real mappings and the fds real fds. readdir is not either:
 * a redirected opendir returns a real DIR of the emulator's tree.
 */
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <kfdsig/emu.h>

#include "emu/emu_host.h"
#include "preload/preload_priv.h"

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- the next definitions ----------------------------------------------- */

typedef int (*scandir_filter_t)(const struct dirent *);
typedef int (*scandir_compar_t)(const struct dirent **, const struct dirent **);
typedef int (*scandir64_filter_t)(const struct dirent64 *);
typedef int (*scandir64_compar_t)(const struct dirent64 **, const struct dirent64 **);

static struct {
	int (*open)(const char *, int, ...);
	int (*open64)(const char *, int, ...);
	int (*openat)(int, const char *, int, ...);
	int (*openat64)(int, const char *, int, ...);
	FILE *(*fopen)(const char *, const char *);
	FILE *(*fopen64)(const char *, const char *);
	FILE *(*freopen)(const char *, const char *, FILE *);
	FILE *(*freopen64)(const char *, const char *, FILE *);
	DIR *(*opendir)(const char *);
	int (*scandir)(const char *, struct dirent ***, scandir_filter_t, scandir_compar_t);
	int (*scandir64)(const char *, struct dirent64 ***, scandir64_filter_t, scandir64_compar_t);
	int (*stat)(const char *, struct stat *);
	int (*lstat)(const char *, struct stat *);
	int (*fstat)(int, struct stat *);
	int (*fstatat)(int, const char *, struct stat *, int);
	int (*statx)(int, const char *, int, unsigned, struct statx *);
	int (*access)(const char *, int);
	int (*faccessat)(int, const char *, int, int);
	ssize_t (*readlink)(const char *, char *, size_t);
	ssize_t (*readlinkat)(int, const char *, char *, size_t);
	char *(*realpath)(const char *, char *);
	char *(*canonicalize_file_name)(const char *);
	int (*ioctl)(int, unsigned long, ...);
	void *(*mmap)(void *, size_t, int, int, int, off_t);
	int (*close)(int);
	int (*close_range)(unsigned, unsigned, int);
	void (*closefrom)(int);
	int (*dup)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	int (*fcntl)(int, int, ...);
	ssize_t (*read)(int, void *, size_t);
	ssize_t (*write)(int, const void *, size_t);
	ssize_t (*getxattr)(const char *, const char *, void *, size_t);
	ssize_t (*lgetxattr)(const char *, const char *, void *, size_t);
	ssize_t (*fgetxattr)(int, const char *, void *, size_t);
	ssize_t (*listxattr)(const char *, char *, size_t);
	ssize_t (*llistxattr)(const char *, char *, size_t);
	ssize_t (*flistxattr)(int, char *, size_t);
	void (*_exit)(int);
	void (*_Exit)(int);
} real;

static void *next_sym(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

#define RESOLVE(name) (real.name = next_sym(#name))

static void resolve_all(void)
{
	RESOLVE(open);
	RESOLVE(open64);
	RESOLVE(openat);
	RESOLVE(openat64);
	RESOLVE(fopen);
	RESOLVE(fopen64);
	RESOLVE(freopen);
	RESOLVE(freopen64);
	RESOLVE(opendir);
	RESOLVE(scandir);
	RESOLVE(scandir64);
	RESOLVE(stat);
	RESOLVE(lstat);
	RESOLVE(fstat);
	RESOLVE(fstatat);
	RESOLVE(statx);
	RESOLVE(access);
	RESOLVE(faccessat);
	RESOLVE(readlink);
	RESOLVE(readlinkat);
	RESOLVE(realpath);
	RESOLVE(canonicalize_file_name);
	RESOLVE(ioctl);
	RESOLVE(mmap);
	RESOLVE(close);
	RESOLVE(close_range);
	RESOLVE(closefrom);
	RESOLVE(dup);
	RESOLVE(dup2);
	RESOLVE(dup3);
	RESOLVE(fcntl);
	RESOLVE(read);
	RESOLVE(write);
	RESOLVE(getxattr);
	RESOLVE(lgetxattr);
	RESOLVE(fgetxattr);
	RESOLVE(listxattr);
	RESOLVE(llistxattr);
	RESOLVE(flistxattr);
	RESOLVE(_exit);
	RESOLVE(_Exit);
}

/* Resolved by the constructor; a call that comes earlier (another
 * library's constructor) resolves everything first. */
#define REAL(name) (LIKELY(real.name != NULL) ? real.name : (resolve_all(), real.name))

/* ---- emulated fds: one bit per fd --------------------------------------- */

#define FD_BITS 65536
static uint64_t fdmap[FD_BITS / 64];
static int big_fds; /* emulated fds >= FD_BITS (looked up in the emulator) */
static struct kfdsig_emu *emu;

/* Why the emulated KFD stopped a queue or a wave (the emulator hands the
 * line over, emu_host_set_diag()): on stderr, always, as the program's
 * own error output may say no more than that the queue failed. */
static void diag_line(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "kfdsig-emu: %s\n", line);
}

static void fd_hook(void *ctx, int fd, bool added)
{
	(void)ctx;
	if (fd < 0)
		return;
	if (fd >= FD_BITS) {
		__atomic_add_fetch(&big_fds, added ? 1 : -1, __ATOMIC_RELAXED);
		return;
	}
	if (added)
		__atomic_or_fetch(&fdmap[fd / 64], 1ull << (fd % 64), __ATOMIC_RELEASE);
	else
		__atomic_and_fetch(&fdmap[fd / 64], ~(1ull << (fd % 64)), __ATOMIC_RELEASE);
}

static inline bool is_emu_fd(int fd)
{
	if (LIKELY((unsigned)fd < FD_BITS))
		return (__atomic_load_n(&fdmap[(unsigned)fd / 64], __ATOMIC_ACQUIRE) >>
			((unsigned)fd % 64)) &
		       1;
	return fd >= 0 && __atomic_load_n(&big_fds, __ATOMIC_RELAXED) && emu &&
	       emu_host_has_fd(emu, fd);
}

/* Set while this thread runs emulator code on behalf of the client: libc
 * calls the emulator makes go straight through. */
static __thread int inside;

/* ---- the emulator --------------------------------------------------------- */

static const struct kfdsig_kfd_ops *ops;
static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;
/* Serialises the fd-table changes (close, dup) of emulated fds. */
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;
static int create_errno;
/* kfdsig trace: the recorder's mode; PRELOAD_TRACE_REAL forwards /dev/kfd
 * to the real KFD (ops: kfdsig_kfd_linux_ops()), tracking its fds here. */
static enum preload_trace_mode trace_mode;
/* This process's shared flock(2) on the sysfs tree's root directory: one
 * open file description per process using the tree (the creator and each
 * forked child), so the last of them to exit removes it. */
static int users_fd = -1;
static pid_t users_pid; /* the process whose lock users_fd holds */

static void fd_lock_prepare(void)
{
	pthread_mutex_lock(&fd_lock);
}

static void fd_lock_release(void)
{
	pthread_mutex_unlock(&fd_lock);
}

static int users_fd_child = -1; /* taken for the child before fork */

static int users_lock(void)
{
	int fd = REAL(openat)(AT_FDCWD, ops->sysfs_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0 && flock(fd, LOCK_SH | LOCK_NB)) {
		REAL(close)(fd);
		fd = -1;
	}
	return fd;
}

/* A forked child shares the tree: its lock is taken in the parent before
 * fork (so the parent exiting right after fork still sees it), on an open
 * file description of its own (the inherited one is the parent's: its
 * lock is the parent's). */
static void users_prepare(void)
{
	users_fd_child = users_fd >= 0 ? users_lock() : -1;
}

static void users_parent(void)
{
	if (users_fd_child >= 0)
		REAL(close)(users_fd_child);
	users_fd_child = -1;
}

static void users_child(void)
{
	if (users_fd >= 0)
		REAL(close)(users_fd);
	users_fd = users_fd_child;
	users_fd_child = -1;
	users_pid = getpid();
}

static void at_exit_remove(void)
{
	/* The last process using the tree removes it, whichever exits last
	 * (a forked child may outlive its parent): converting a shared flock
	 * to exclusive drops the shared one first, so of processes exiting
	 * together exactly the last succeeds. A process that execs drops its
	 * lock (O_CLOEXEC). Only the files: the emulator may still be in use
	 * by threads. Only the process that holds the lock: a vfork child
	 * shares the parent's memory, users_fd included. */
	if (emu && users_fd >= 0 && users_pid == getpid() && !flock(users_fd, LOCK_EX | LOCK_NB))
		emu_host_remove_sysfs(emu);
}

/* An exit without atexit handlers (_exit, _Exit: a forked child's usual
 * end) removes what at_exit_remove() and the destructors would have. */
__attribute__((noreturn)) static void exit_now(void (*fn)(int), int status)
{
	at_exit_remove();
	emu_host_debug_exit();
	if (fn)
		fn(status);
	syscall(SYS_exit_group, status);
	__builtin_unreachable();
}

void _exit(int status)
{
	exit_now(REAL(_exit), status);
}

void _Exit(int status)
{
	exit_now(REAL(_Exit), status);
}

/* The files that say the driver is loaded, in the emulator's tree: its
 * sysfs root mirrors /sys, so module/amdgpu is /sys/module/amdgpu; the
 * /proc/modules the client reads is .procfs/modules there. The kernel's
 * formats: /proc/modules lines are "name size refcnt users state addr"
 * (kernel/module/procfs.c m_show(): "-" for no users, "Live", the
 * address 0 unless kptr_restrict allows it); /sys/module/NAME/initstate
 * reads "live", refcnt and coresize are decimal numbers, holders/ lists
 * the modules using it (kernel/module/sysfs.c, main.c show_initstate()).
 * The real /proc/modules, where there is one, comes first. */
#define MODULE_SIZE 9502720u /* a Linux 6.x amdgpu.ko's core size */

static int put_file(const char *root, const char *rel, const char *text, size_t len)
{
	char path[PATH_MAX];
	int fd;
	ssize_t w;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, rel) >= sizeof(path))
		return -1;
	fd = REAL(openat)(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	w = REAL(write)(fd, text, len);
	REAL(close)(fd);
	return w == (ssize_t)len ? 0 : -1;
}

static void module_files(const char *root)
{
	static const char *const dirs[] = { ".procfs", "module", "module/amdgpu",
					    "module/amdgpu/holders", "module/amdgpu/parameters" };
	char path[PATH_MAX], line[128], *text = NULL;
	size_t len = 0;
	bool listed = false;
	FILE *f;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, dirs[i]) >= sizeof(path))
			return;
		mkdir(path, 0700);
	}
	f = REAL(fopen)("/proc/modules", "re");
	if (f) {
		char buf[4096];
		size_t n;

		while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
			char *t = realloc(text, len + n + 1);
			if (!t)
				break;
			text = t;
			memcpy(text + len, buf, n);
			len += n;
			text[len] = '\0';
		}
		fclose(f);
		listed = text && (!strncmp(text, "amdgpu ", 7) || strstr(text, "\namdgpu "));
	}
	if (!listed) {
		int n = snprintf(line, sizeof(line), "amdgpu %u 0 - Live 0x0000000000000000\n",
				 MODULE_SIZE);
		char *t = realloc(text, len + (size_t)n + 1);
		if (t) {
			text = t;
			memcpy(text + len, line, (size_t)n + 1);
			len += (size_t)n;
		}
	}
	if (text)
		put_file(root, ".procfs/modules", text, len);
	free(text);
	put_file(root, "module/amdgpu/initstate", "live\n", 5);
	put_file(root, "module/amdgpu/refcnt", "0\n", 2);
	snprintf(line, sizeof(line), "%u\n", MODULE_SIZE);
	put_file(root, "module/amdgpu/coresize", line, strlen(line));
	/* amdgpu_drv.c module_param_named(emu_mode, amdgpu_emu_mode, int,
	 * 0444): 1 when the driver runs on an emulated ASIC, which the GPUs
	 * here are (kfdtest's CheckEmuModeEnabled() reads it and scales its
	 * loads down for an emulator) */
	put_file(root, "module/amdgpu/parameters/emu_mode", "1\n", 2);
}

/* The emulator, created on first use; NULL with errno when it cannot be. */
static struct kfdsig_emu *get_emu(void)
{
	struct kfdsig_emu *e = __atomic_load_n(&emu, __ATOMIC_ACQUIRE);
	const char *spec;

	if (LIKELY(e != NULL))
		return e;
	pthread_mutex_lock(&create_lock);
	e = emu;
	if (!e && !create_errno) {
		inside++;
		spec = getenv("KFDSIG_EMULATE");
		if (!spec || !*spec)
			spec = "gfx90a";
		e = kfdsig_emu_create_from_spec(spec);
		if (!e) {
			create_errno = errno ? errno : EINVAL;
			fprintf(stderr, "libkfdsig-preload: KFDSIG_EMULATE='%s': %s\n", spec,
				kfdsig_last_error());
		} else {
			emu_host_set_fd_hook(e, fd_hook, NULL);
			emu_host_set_diag(e, diag_line, NULL);
			kfdsig_emu_set_process_model(e, KFDSIG_EMU_PROCESS_PER_PID);
			ops = kfdsig_emu_ops(e);
			module_files(ops->sysfs_root);
			users_fd = users_lock();
			users_pid = getpid();
			emu_host_reap_debug_pages();
			/* After the emulator's own handlers, so this prepare
			 * runs first: fd_lock is taken before emulator locks,
			 * as a close holding it takes them. */
			pthread_atfork(fd_lock_prepare, fd_lock_release, fd_lock_release);
			pthread_atfork(users_prepare, users_parent, users_child);
			atexit(at_exit_remove);
			preload_stall_watch(e);
			__atomic_store_n(&emu, e, __ATOMIC_RELEASE);
		}
		inside--;
	}
	pthread_mutex_unlock(&create_lock);
	if (!e)
		errno = create_errno;
	return e;
}

static int fail(int neg_errno)
{
	errno = -neg_errno;
	return -1;
}

/* ---- paths ---------------------------------------------------------------- */

enum route {
	ROUTE_PASS,  /* not ours */
	ROUTE_SYSFS, /* read from the emulator's sysfs tree */
	ROUTE_DEV,   /* an emulated device node */
	ROUTE_ERROR, /* ours, but the emulator cannot be made (errno set) */
};

/* Could the path be ours? Two compares for almost every path. */
static inline bool maybe_ours(const char *path)
{
	return path && path[0] == '/' && (path[1] == 'd' || path[1] == 's' || path[1] == 'p') &&
	       (!strncmp(path + 1, "dev/", 4) || !strncmp(path + 1, "sys/", 4) ||
		!strcmp(path + 1, "proc/modules"));
}

/* @s starts with @prefix followed by the end or a '/'. */
static bool under(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	return !strncmp(s, prefix, n) && (s[n] == '\0' || s[n] == '/');
}

/* @s is DIGITS of an emulated render minor followed by the end or '/'. */
static bool emulated_minor(const char *s, unsigned *minor)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return false;
	v = strtoul(s, &end, 10);
	if ((*end != '\0' && *end != '/') || v > UINT_MAX)
		return false;
	if (!get_emu() || !emu_host_render_minor(emu, (unsigned)v))
		return false;
	*minor = (unsigned)v;
	return true;
}

/* "<root>/.devdri": a directory of the names a client should see in
 * /dev/dri, the real entries' names and renderD<minor> of every emulated
 * GPU. Only the names matter: a path under /dev/dri is routed by name
 * (emulated nodes to the emulator, the rest to the real files). */
static bool dri_dir(char *buf, size_t n)
{
	char name[PATH_MAX];
	DIR *sys;
	int dfd;

	if ((size_t)snprintf(buf, n, "%s/.devdri", ops->sysfs_root) >= n) {
		errno = ENAMETOOLONG;
		return false;
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return false;
	dfd = REAL(openat)(AT_FDCWD, buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return false;
	for (unsigned m = 128; m < 256; m++) { /* the DRM render minors */
		if (!emu_host_render_minor(emu, m))
			continue;
		snprintf(name, sizeof(name), "renderD%u", m);
		REAL(close)(REAL(openat)(dfd, name, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	}
	if ((sys = REAL(opendir)("/dev/dri"))) {
		struct dirent *e;

		while ((e = readdir(sys))) {
			if (e->d_name[0] == '.')
				continue;
			if (e->d_type == DT_DIR)
				mkdirat(dfd, e->d_name, 0755);
			else
				REAL(close)
			(REAL(openat)(dfd, e->d_name, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
		}
		closedir(sys);
	}
	REAL(close)(dfd);
	return true;
}

static enum route route(const char *path, char *buf, size_t n, unsigned *major, unsigned *minor)
{
	const char *rest;

	if (UNLIKELY(trace_mode == PRELOAD_TRACE_REAL))
		return ROUTE_PASS; /* the real KFD's files; open() forwards /dev/kfd */

	if (path[1] == 'd') {
		if (!strcmp(path, "/dev/kfd")) {
			*major = EMU_KFD_MAJOR;
			*minor = 0;
			return get_emu() ? ROUTE_DEV : ROUTE_ERROR;
		}
		if (!strncmp(path, "/dev/dri/renderD", 16) && emulated_minor(path + 16, minor) &&
		    !strchr(path + 16, '/')) {
			*major = EMU_DRM_MAJOR;
			return ROUTE_DEV;
		}
		if (!strcmp(path, "/dev/dri") || !strcmp(path, "/dev/dri/") ||
		    !strcmp(path, "/dev/dri/."))
			return get_emu() && dri_dir(buf, n) ? ROUTE_SYSFS : ROUTE_ERROR;
		if (!strcmp(path, "/dev/dri/..")) {
			snprintf(buf, n, "/dev");
			return ROUTE_SYSFS;
		}
		return ROUTE_PASS;
	}
	if (path[1] == 'p') { /* "/proc/modules" (maybe_ours) */
		if (!get_emu())
			return ROUTE_ERROR;
		if ((size_t)snprintf(buf, n, "%s/.procfs/modules", ops->sysfs_root) >= n) {
			errno = ENAMETOOLONG;
			return ROUTE_ERROR;
		}
		return ROUTE_SYSFS;
	}
	rest = path + 5; /* after "/sys/" */
	if (under(rest, "devices/virtual/kfd") || under(rest, "class/kfd") ||
	    under(rest, "module/amdgpu") ||
	    (!strncmp(rest, "dev/char/226:", 13) && emulated_minor(rest + 13, minor)) ||
	    under(rest, "class/drm")) {
		if (!get_emu())
			return ROUTE_ERROR;
		if ((size_t)snprintf(buf, n, "%s/%s", ops->sysfs_root, rest) >= n) {
			errno = ENAMETOOLONG;
			return ROUTE_ERROR;
		}
		return ROUTE_SYSFS;
	}
	return ROUTE_PASS;
}

/* ---- open ----------------------------------------------------------------- */

/* Under kfdsig trace on the real KFD: the files whose calls are watched
 * (/dev/kfd, and the render nodes the signal page may be mapped through). */
static bool real_kfd_path(const char *path)
{
	return !strcmp(path, "/dev/kfd") || !strncmp(path, "/dev/dri/renderD", 16);
}

static int open_dev(const char *path, int flags)
{
	int fd;

	inside++;
	fd = ops->open(ops->ctx, path, flags);
	if (fd >= 0 && trace_mode == PRELOAD_TRACE_REAL)
		fd_hook(NULL, fd, true);
	/* The seam opens close-on-exec; open(2) does so only when asked. */
	if (fd >= 0 && !(flags & O_CLOEXEC))
		REAL(fcntl)(fd, F_SETFD, 0);
	inside--;
	return fd < 0 ? fail(fd) : fd;
}

static int open_slow(int dirfd, const char *path, int flags, mode_t mode)
{
	char buf[PATH_MAX];
	unsigned major, minor;

	if (inside)
		return REAL(openat)(dirfd, path, flags, mode);
	if (UNLIKELY(trace_mode == PRELOAD_TRACE_REAL) && real_kfd_path(path))
		return open_dev(path, flags);
	switch (route(path, buf, sizeof(buf), &major, &minor)) {
	case ROUTE_DEV:
		return open_dev(path, flags);
	case ROUTE_SYSFS:
		return REAL(openat)(AT_FDCWD, buf, flags, mode);
	case ROUTE_ERROR:
		return -1;
	default:
		return REAL(openat)(dirfd, path, flags, mode);
	}
}

#define OPEN_MODE(flags, mode)                          \
	do {                                            \
		if (__OPEN_NEEDS_MODE(flags)) {         \
			va_list ap;                     \
			va_start(ap, flags);            \
			mode = (mode_t)va_arg(ap, int); \
			va_end(ap);                     \
		}                                       \
	} while (0)

/* open and open64, openat and openat64: the same but for the next
 * definition they pass to. */
#define DEFINE_OPEN(name)                                      \
	int name(const char *path, int flags, ...)             \
	{                                                      \
		mode_t mode = 0;                               \
		OPEN_MODE(flags, mode);                        \
		if (LIKELY(!maybe_ours(path)))                 \
			return REAL(name)(path, flags, mode);  \
		return open_slow(AT_FDCWD, path, flags, mode); \
	}
#define DEFINE_OPENAT(name)                                          \
	int name(int dirfd, const char *path, int flags, ...)        \
	{                                                            \
		mode_t mode = 0;                                     \
		OPEN_MODE(flags, mode);                              \
		if (LIKELY(!maybe_ours(path)))                       \
			return REAL(name)(dirfd, path, flags, mode); \
		return open_slow(dirfd, path, flags, mode);          \
	}

DEFINE_OPEN(open)
DEFINE_OPEN(open64)
DEFINE_OPENAT(openat)
DEFINE_OPENAT(openat64)

/* glibc's _FORTIFY_SOURCE entry points (no mode: O_CREAT is refused). */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

int __open_2(const char *path, int flags)
{
	return open(path, flags);
}

int __open64_2(const char *path, int flags)
{
	return open(path, flags);
}

int __openat_2(int dirfd, const char *path, int flags)
{
	return openat(dirfd, path, flags);
}

int __openat64_2(int dirfd, const char *path, int flags)
{
	return openat(dirfd, path, flags);
}

static FILE *fdopen_dev(const char *path, const char *mode)
{
	FILE *f;
	int fd = open_dev(path, strchr(mode, '+') ? O_RDWR : mode[0] == 'r' ? O_RDONLY : O_WRONLY);

	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f)
		close(fd);
	return f;
}

/* fopen and opendir open through glibc's internal entry points, not the
 * interposed open: they are redirected themselves. */
static FILE *fopen_slow(const char *path, const char *mode,
			FILE *(*next)(const char *, const char *))
{
	char buf[PATH_MAX];
	unsigned major, minor;

	if (inside)
		return next(path, mode);
	if (UNLIKELY(trace_mode == PRELOAD_TRACE_REAL) && real_kfd_path(path))
		return fdopen_dev(path, mode);
	switch (route(path, buf, sizeof(buf), &major, &minor)) {
	case ROUTE_DEV:
		return fdopen_dev(path, mode);
	case ROUTE_SYSFS:
		return next(buf, mode);
	case ROUTE_ERROR:
		return NULL;
	default:
		return next(path, mode);
	}
}

FILE *fopen(const char *path, const char *mode)
{
	if (LIKELY(!maybe_ours(path)))
		return REAL(fopen)(path, mode);
	return fopen_slow(path, mode, REAL(fopen));
}

FILE *fopen64(const char *path, const char *mode)
{
	if (LIKELY(!maybe_ours(path)))
		return REAL(fopen64)(path, mode);
	return fopen_slow(path, mode, REAL(fopen64));
}

/* A path rewritten for functions that only name files: the sysfs tree, or
 * the path itself (device nodes are files of /dev there; ROUTE_ERROR: NULL). */
static const char *rewrite(const char *path, char *buf, size_t n, enum route *how)
{
	unsigned major, minor;

	*how = ROUTE_PASS;
	if (!maybe_ours(path) || inside)
		return path;
	*how = route(path, buf, n, &major, &minor);
	if (*how == ROUTE_ERROR)
		return NULL;
	return *how == ROUTE_SYSFS ? buf : path;
}

#define DEFINE_FREOPEN(name)                                           \
	FILE *name(const char *path, const char *mode, FILE *stream)   \
	{                                                              \
		char buf[PATH_MAX];                                    \
		enum route how;                                        \
		const char *p = rewrite(path, buf, sizeof(buf), &how); \
		return p ? REAL(name)(p, mode, stream) : NULL;         \
	}

DEFINE_FREOPEN(freopen)
DEFINE_FREOPEN(freopen64)

DIR *opendir(const char *path)
{
	char buf[PATH_MAX];
	enum route how;
	const char *p;

	if (LIKELY(!maybe_ours(path)))
		return REAL(opendir)(path);
	p = rewrite(path, buf, sizeof(buf), &how);
	if (how == ROUTE_DEV) {
		errno = ENOTDIR;
		return NULL;
	}
	return p ? REAL(opendir)(p) : NULL;
}

#define DEFINE_SCANDIR(name, dirent_t, filter_t, compar_t)                             \
	int name(const char *path, dirent_t ***list, filter_t filter, compar_t compar) \
	{                                                                              \
		char buf[PATH_MAX];                                                    \
		enum route how;                                                        \
		const char *p = rewrite(path, buf, sizeof(buf), &how);                 \
		if (how == ROUTE_DEV)                                                  \
			return fail(-ENOTDIR);                                         \
		return p ? REAL(name)(p, list, filter, compar) : -1;                   \
	}

DEFINE_SCANDIR(scandir, struct dirent, scandir_filter_t, scandir_compar_t)
DEFINE_SCANDIR(scandir64, struct dirent64, scandir64_filter_t, scandir64_compar_t)

/* ---- extended attributes --------------------------------------------------- */

/* An emulated device node has no extended attributes, as a devtmpfs node
 * without a security module's label: get says ENODATA, list is empty. The
 * emulated sysfs files answer as the files of the tree do. */
#define DEFINE_GETXATTR(name)                                                \
	ssize_t name(const char *path, const char *key, void *val, size_t n) \
	{                                                                    \
		char buf[PATH_MAX];                                          \
		enum route how;                                              \
		const char *p;                                               \
		if (LIKELY(!maybe_ours(path)))                               \
			return REAL(name)(path, key, val, n);                \
		p = rewrite(path, buf, sizeof(buf), &how);                   \
		if (how == ROUTE_DEV)                                        \
			return fail(-ENODATA);                               \
		return p ? REAL(name)(p, key, val, n) : -1;                  \
	}

#define DEFINE_LISTXATTR(name)                               \
	ssize_t name(const char *path, char *list, size_t n) \
	{                                                    \
		char buf[PATH_MAX];                          \
		enum route how;                              \
		const char *p;                               \
		if (LIKELY(!maybe_ours(path)))               \
			return REAL(name)(path, list, n);    \
		p = rewrite(path, buf, sizeof(buf), &how);   \
		if (how == ROUTE_DEV)                        \
			return 0;                            \
		return p ? REAL(name)(p, list, n) : -1;      \
	}

DEFINE_GETXATTR(getxattr)
DEFINE_GETXATTR(lgetxattr)
DEFINE_LISTXATTR(listxattr)
DEFINE_LISTXATTR(llistxattr)

ssize_t fgetxattr(int fd, const char *key, void *val, size_t n)
{
	if (LIKELY(!is_emu_fd(fd)) || inside)
		return REAL(fgetxattr)(fd, key, val, n);
	return fail(-ENODATA);
}

ssize_t flistxattr(int fd, char *list, size_t n)
{
	if (LIKELY(!is_emu_fd(fd)) || inside)
		return REAL(flistxattr)(fd, list, n);
	return 0;
}

/* ---- stat ----------------------------------------------------------------- */

/* What stat says of an emulated device node: a character device, rw for
 * everyone (the emulator has no render group), on devtmpfs. */
static void dev_stat(struct stat *st, unsigned major, unsigned minor)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	memset(st, 0, sizeof(*st));
	st->st_dev = makedev(0, 5);
	st->st_ino = 0x4b464400u + (major == EMU_KFD_MAJOR ? 0 : 1 + minor);
	st->st_mode = S_IFCHR | 0666;
	st->st_nlink = 1;
	st->st_rdev = makedev(major, minor);
	st->st_blksize = 4096;
	st->st_atim = st->st_mtim = st->st_ctim = now;
}

static void dev_statx(struct statx *sx, unsigned major, unsigned minor)
{
	struct stat st;

	dev_stat(&st, major, minor);
	memset(sx, 0, sizeof(*sx));
	sx->stx_mask = STATX_BASIC_STATS;
	sx->stx_blksize = (uint32_t)st.st_blksize;
	sx->stx_nlink = 1;
	sx->stx_mode = (uint16_t)st.st_mode;
	sx->stx_ino = st.st_ino;
	sx->stx_rdev_major = major;
	sx->stx_rdev_minor = minor;
	sx->stx_dev_major = 0;
	sx->stx_dev_minor = 5;
	sx->stx_atime.tv_sec = sx->stx_mtime.tv_sec = sx->stx_ctime.tv_sec = st.st_mtim.tv_sec;
}

/* fstat of an emulated fd: 1 (filled), 0 (not a device: ask the kernel). */
static int fd_dev(int fd, unsigned *major, unsigned *minor)
{
	int r;

	if (LIKELY(!is_emu_fd(fd)) || inside || !emu)
		return 0;
	r = emu_host_fd_rdev(emu, fd, major, minor);
	return r == 0;
}

static int stat_slow(int dirfd, const char *path, struct stat *st, int flags)
{
	char buf[PATH_MAX];
	unsigned major, minor;

	if (inside)
		return REAL(fstatat)(dirfd, path, st, flags);
	switch (route(path, buf, sizeof(buf), &major, &minor)) {
	case ROUTE_DEV:
		dev_stat(st, major, minor);
		return 0;
	case ROUTE_SYSFS:
		return REAL(fstatat)(AT_FDCWD, buf, st, flags);
	case ROUTE_ERROR:
		return -1;
	default:
		return REAL(fstatat)(dirfd, path, st, flags);
	}
}

static int fstat_any(int fd, struct stat *st)
{
	unsigned major, minor;

	if (fd_dev(fd, &major, &minor)) {
		dev_stat(st, major, minor);
		return 0;
	}
	return REAL(fstat)(fd, st);
}

static int fstatat_any(int dirfd, const char *path, struct stat *st, int flags)
{
	if (path && !path[0] && (flags & AT_EMPTY_PATH))
		return fstat_any(dirfd, st);
	if (LIKELY(!maybe_ours(path)))
		return REAL(fstatat)(dirfd, path, st, flags);
	return stat_slow(dirfd, path, st, flags);
}

int stat(const char *path, struct stat *st)
{
	if (LIKELY(!maybe_ours(path)))
		return REAL(stat)(path, st);
	return stat_slow(AT_FDCWD, path, st, 0);
}

int lstat(const char *path, struct stat *st)
{
	if (LIKELY(!maybe_ours(path)))
		return REAL(lstat)(path, st);
	return stat_slow(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

int fstat(int fd, struct stat *st)
{
	return fstat_any(fd, st);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return fstatat_any(dirfd, path, st, flags);
}

/* The 64-bit names: the same struct on LP64 glibc. */
_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "stat64 differs from stat");

int stat64(const char *path, struct stat64 *st)
{
	return stat(path, (struct stat *)st);
}

int lstat64(const char *path, struct stat64 *st)
{
	return lstat(path, (struct stat *)st);
}

int fstat64(int fd, struct stat64 *st)
{
	return fstat_any(fd, (struct stat *)st);
}

int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	return fstatat_any(dirfd, path, (struct stat *)st, flags);
}

/* glibc < 2.33 compiled stat() into calls of these; the version argument
 * names the kernel layout, which is struct stat on LP64. */
int __xstat(int ver, const char *path, struct stat *st);
int __xstat64(int ver, const char *path, struct stat64 *st);
int __lxstat(int ver, const char *path, struct stat *st);
int __lxstat64(int ver, const char *path, struct stat64 *st);
int __fxstat(int ver, int fd, struct stat *st);
int __fxstat64(int ver, int fd, struct stat64 *st);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags);

int __xstat(int ver, const char *path, struct stat *st)
{
	(void)ver;
	return stat(path, st);
}

int __xstat64(int ver, const char *path, struct stat64 *st)
{
	(void)ver;
	return stat(path, (struct stat *)st);
}

int __lxstat(int ver, const char *path, struct stat *st)
{
	(void)ver;
	return lstat(path, st);
}

int __lxstat64(int ver, const char *path, struct stat64 *st)
{
	(void)ver;
	return lstat(path, (struct stat *)st);
}

int __fxstat(int ver, int fd, struct stat *st)
{
	(void)ver;
	return fstat_any(fd, st);
}

int __fxstat64(int ver, int fd, struct stat64 *st)
{
	(void)ver;
	return fstat_any(fd, (struct stat *)st);
}

int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags)
{
	(void)ver;
	return fstatat_any(dirfd, path, st, flags);
}

int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags)
{
	(void)ver;
	return fstatat_any(dirfd, path, (struct stat *)st, flags);
}

int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx)
{
	char buf[PATH_MAX];
	unsigned major, minor;

	if (!path[0] && (flags & AT_EMPTY_PATH) && fd_dev(dirfd, &major, &minor)) {
		dev_statx(sx, major, minor);
		return 0;
	}
	if (LIKELY(!maybe_ours(path)) || inside)
		return REAL(statx)(dirfd, path, flags, mask, sx);
	switch (route(path, buf, sizeof(buf), &major, &minor)) {
	case ROUTE_DEV:
		dev_statx(sx, major, minor);
		return 0;
	case ROUTE_SYSFS:
		return REAL(statx)(AT_FDCWD, buf, flags, mask, sx);
	case ROUTE_ERROR:
		return -1;
	default:
		return REAL(statx)(dirfd, path, flags, mask, sx);
	}
}

/* ---- access, readlink, realpath ------------------------------------------ */

/* access(p, m) is faccessat(AT_FDCWD, p, m, 0), readlink(p, ...) is
 * readlinkat(AT_FDCWD, p, ...): the slow paths go to the *at forms. */
static int faccessat_slow(int dirfd, const char *path, int mode, int flags)
{
	char buf[PATH_MAX];
	enum route how;
	const char *p = rewrite(path, buf, sizeof(buf), &how);

	if (how == ROUTE_DEV)
		return 0; /* rw for everyone */
	return p ? REAL(faccessat)(dirfd, p, mode, flags) : -1;
}

static ssize_t readlinkat_slow(int dirfd, const char *path, char *out, size_t n)
{
	char buf[PATH_MAX];
	enum route how;
	const char *p = rewrite(path, buf, sizeof(buf), &how);

	if (how == ROUTE_DEV)
		return fail(-EINVAL); /* not a link */
	return p ? REAL(readlinkat)(dirfd, p, out, n) : -1;
}

int access(const char *path, int mode)
{
	if (LIKELY(!maybe_ours(path)))
		return REAL(access)(path, mode);
	return faccessat_slow(AT_FDCWD, path, mode, 0);
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	if (LIKELY(!maybe_ours(path)))
		return REAL(faccessat)(dirfd, path, mode, flags);
	return faccessat_slow(dirfd, path, mode, flags);
}

ssize_t readlink(const char *path, char *out, size_t n)
{
	if (LIKELY(!maybe_ours(path)))
		return REAL(readlink)(path, out, n);
	return readlinkat_slow(AT_FDCWD, path, out, n);
}

ssize_t readlinkat(int dirfd, const char *path, char *out, size_t n)
{
	if (LIKELY(!maybe_ours(path)))
		return REAL(readlinkat)(dirfd, path, out, n);
	return readlinkat_slow(dirfd, path, out, n);
}

ssize_t __readlink_chk(const char *path, char *out, size_t n, size_t outlen);
ssize_t __readlink_chk(const char *path, char *out, size_t n, size_t outlen)
{
	return readlink(path, out, n < outlen ? n : outlen);
}

/* A redirected path resolves inside the emulator's tree: the result names
 * that tree, which the client can open as it is. */
char *realpath(const char *path, char *resolved)
{
	char buf[PATH_MAX];
	enum route how;
	const char *p = rewrite(path, buf, sizeof(buf), &how);

	if (how == ROUTE_DEV) {
		if (!resolved && !(resolved = malloc(PATH_MAX)))
			return NULL;
		snprintf(resolved, PATH_MAX, "%s", path);
		return resolved;
	}
	return p ? REAL(realpath)(p, resolved) : NULL;
}

char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen);
char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen)
{
	(void)resolvedlen;
	return realpath(path, resolved);
}

char *canonicalize_file_name(const char *path)
{
	return realpath(path, NULL);
}

/* ---- fd operations ---------------------------------------------------------- */

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int r;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (LIKELY(!is_emu_fd(fd)) || inside)
		return REAL(ioctl)(fd, req, arg);
	inside++;
	r = UNLIKELY(trace_mode) ? preload_trace_ioctl(ops, fd, req, arg)
				 : ops->ioctl(ops->ctx, fd, req, arg);
	inside--;
	return r < 0 ? fail(r) : r;
}

static void *mmap_any(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *out = NULL;
	int r;

	if (LIKELY(fd < 0 || (flags & MAP_ANONYMOUS) || !is_emu_fd(fd)) || inside)
		return REAL(mmap)(addr, len, prot, flags, fd, off);
	inside++;
	r = ops->mmap(ops->ctx, &out, addr, len, prot, flags, fd, (uint64_t)off);
	if (UNLIKELY(trace_mode) && r >= 0)
		preload_trace_mmap(fd, (uint64_t)off, out, len);
	inside--;
	if (r < 0) {
		errno = -r;
		return MAP_FAILED;
	}
	return out;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap_any(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	return mmap_any(addr, len, prot, flags, fd, (off_t)off);
}

ssize_t read(int fd, void *buf, size_t n)
{
	ssize_t r;

	if (LIKELY(!is_emu_fd(fd)) || inside)
		return REAL(read)(fd, buf, n);
	inside++;
	r = ops->read(ops->ctx, fd, buf, n);
	inside--;
	return r < 0 ? fail((int)r) : r;
}

ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	if (n > buflen)
		abort(); /* what __chk_fail does */
	return read(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	ssize_t r;

	if (LIKELY(!is_emu_fd(fd)) || inside)
		return REAL(write)(fd, buf, n);
	inside++;
	r = ops->write(ops->ctx, fd, buf, n);
	inside--;
	return r < 0 ? fail((int)r) : r;
}

/* Close an emulated fd (fd_lock held): the emulator takes it out of its
 * table (the hook clears the bit first) and closes it. */
static int close_emu(int fd)
{
	int r;

	inside++;
	if (!emu)
		fd_hook(NULL, fd, false); /* the real KFD's fd: tracked here */
	r = ops->close(ops->ctx, fd);
	inside--;
	return r;
}

int close(int fd)
{
	int r;

	if (LIKELY(!is_emu_fd(fd)) || inside)
		return REAL(close)(fd);
	pthread_mutex_lock(&fd_lock);
	r = is_emu_fd(fd) ? close_emu(fd) : (REAL(close)(fd) ? -errno : 0);
	pthread_mutex_unlock(&fd_lock);
	return r < 0 ? fail(r) : 0;
}

static void close_emu_range(unsigned first, unsigned last)
{
	if (!emu)
		return;
	pthread_mutex_lock(&fd_lock);
	for (unsigned fd = first; fd <= last && fd < FD_BITS; fd++)
		if (is_emu_fd((int)fd))
			close_emu((int)fd);
	pthread_mutex_unlock(&fd_lock);
}

int close_range(unsigned first, unsigned last, int flags)
{
	if (!(flags & CLOSE_RANGE_CLOEXEC) && !inside)
		close_emu_range(first, last);
	if (REAL(close_range))
		return real.close_range(first, last, flags);
	return (int)syscall(SYS_close_range, first, last, flags);
}

void closefrom(int low)
{
	if (low >= 0 && !inside)
		close_emu_range((unsigned)low, UINT_MAX);
	if (REAL(closefrom))
		real.closefrom(low);
	else
		syscall(SYS_close_range, (unsigned)low, UINT_MAX, 0);
}

/* @newfd was just made from the emulated @oldfd: register it (fd_lock held). */
static int dup_done(int oldfd, int newfd)
{
	int r;

	if (newfd < 0 || !emu) /* the real KFD's dups are not followed */
		return newfd;
	inside++;
	r = emu_host_dup(emu, oldfd, newfd);
	inside--;
	if (r < 0) {
		REAL(close)(newfd);
		return fail(r);
	}
	return newfd;
}

int dup(int fd)
{
	int r;

	if (LIKELY(!is_emu_fd(fd)) || inside)
		return REAL(dup)(fd);
	pthread_mutex_lock(&fd_lock);
	r = dup_done(fd, REAL(dup)(fd));
	pthread_mutex_unlock(&fd_lock);
	return r;
}

/* dup2/dup3 onto @newfd: an emulated @newfd is forgotten first (the real
 * call closes it atomically), once @oldfd is known to be valid. */
static int dup_onto(int oldfd, int newfd, int flags, bool three)
{
	bool src = is_emu_fd(oldfd);
	int r;

	pthread_mutex_lock(&fd_lock);
	if (oldfd != newfd && is_emu_fd(newfd)) {
		if (!src && REAL(fcntl)(oldfd, F_GETFD) < 0) {
			pthread_mutex_unlock(&fd_lock);
			return -1;
		}
		inside++;
		if (emu)
			emu_host_forget(emu, newfd);
		else
			fd_hook(NULL, newfd, false);
		inside--;
	}
	r = three ? REAL(dup3)(oldfd, newfd, flags) : REAL(dup2)(oldfd, newfd);
	if (r >= 0 && src && oldfd != newfd)
		r = dup_done(oldfd, r);
	pthread_mutex_unlock(&fd_lock);
	return r;
}

int dup2(int oldfd, int newfd)
{
	if (LIKELY(!is_emu_fd(oldfd) && !is_emu_fd(newfd)) || inside)
		return REAL(dup2)(oldfd, newfd);
	return dup_onto(oldfd, newfd, 0, false);
}

int dup3(int oldfd, int newfd, int flags)
{
	if (LIKELY(!is_emu_fd(oldfd) && !is_emu_fd(newfd)) || inside)
		return REAL(dup3)(oldfd, newfd, flags);
	return dup_onto(oldfd, newfd, flags, true);
}

static int fcntl_any(int fd, int cmd, void *arg)
{
	int r;

	if (LIKELY(!is_emu_fd(fd)) || inside || (cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC))
		return REAL(fcntl)(fd, cmd, arg);
	pthread_mutex_lock(&fd_lock);
	r = dup_done(fd, REAL(fcntl)(fd, cmd, arg));
	pthread_mutex_unlock(&fd_lock);
	return r;
}

int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl_any(fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...);
int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl_any(fd, cmd, arg);
}

static void host_enter(void)
{
	inside++;
}

static void host_leave(void)
{
	inside--;
}

__attribute__((constructor)) static void preload_init(void)
{
	static const struct preload_host host = { get_emu, host_enter, host_leave };

	resolve_all();
	trace_mode = preload_trace_start(&host); /* only under kfdsig trace */
	if (trace_mode == PRELOAD_TRACE_REAL)
		ops = kfdsig_kfd_linux_ops();
	preload_debug_agent_start(&host); /* only under kfdsig debug */
}
