/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, the emulated device nodes look like the kernel's to
 * the stat family: /dev/kfd a character device with a (dynamic) major and
 * minor 0, /dev/dri/renderD<minor> the DRM major 226 with its minor,
 * through stat, lstat, fstat of an open fd, fstatat, statx and glibc's
 * older __xstat entry points; a render node of no emulated GPU is not
 * there.
 */
#include <dlfcn.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "preload_util.h"

static void check_chr(const char *what, const struct stat *st, unsigned major, unsigned minor)
{
	CHECK(S_ISCHR(st->st_mode), "%s: mode 0%o is not a character device", what,
	      (unsigned)st->st_mode);
	if (major)
		CHECK(major(st->st_rdev) == major, "%s: major %u, expected %u", what,
		      major(st->st_rdev), major);
	CHECK(minor(st->st_rdev) == minor, "%s: minor %u, expected %u", what, minor(st->st_rdev),
	      minor);
}

int main(void)
{
	typedef int (*xstat_fn)(int, const char *, struct stat *);
	struct stat st, kfd_st;
	struct statx sx;
	xstat_fn xstat;
	int fd, r;

	p_require_preload();
	memset(&kfd_st, 0, sizeof(kfd_st));
	CHECK(stat("/dev/kfd", &kfd_st) == 0, "stat /dev/kfd: %s", strerror(errno));
	check_chr("stat /dev/kfd", &kfd_st, 0, 0);
	CHECK(major(kfd_st.st_rdev) != 0 && major(kfd_st.st_rdev) != 226,
	      "/dev/kfd major %u is a dynamic one", major(kfd_st.st_rdev));
	CHECK(lstat("/dev/kfd", &st) == 0, "lstat /dev/kfd");
	check_chr("lstat /dev/kfd", &st, major(kfd_st.st_rdev), 0);
	CHECK(fstatat(AT_FDCWD, "/dev/kfd", &st, 0) == 0, "fstatat /dev/kfd");
	check_chr("fstatat /dev/kfd", &st, major(kfd_st.st_rdev), 0);
	CHECK(statx(AT_FDCWD, "/dev/kfd", 0, STATX_BASIC_STATS, &sx) == 0, "statx /dev/kfd");
	CHECK(S_ISCHR(sx.stx_mode) && sx.stx_rdev_major == major(kfd_st.st_rdev) &&
		      sx.stx_rdev_minor == 0,
	      "statx /dev/kfd: mode 0%o rdev %u:%u", sx.stx_mode, sx.stx_rdev_major,
	      sx.stx_rdev_minor);
	CHECK(access("/dev/kfd", R_OK | W_OK) == 0, "access /dev/kfd rw");

	fd = p_open_kfd();
	CHECK(fd >= 0, "open /dev/kfd");
	CHECK(fstat(fd, &st) == 0, "fstat of the /dev/kfd fd");
	check_chr("fstat /dev/kfd fd", &st, major(kfd_st.st_rdev), 0);
	CHECK(fstatat(fd, "", &st, AT_EMPTY_PATH) == 0, "fstatat(AT_EMPTY_PATH) of the fd");
	check_chr("fstatat AT_EMPTY_PATH", &st, major(kfd_st.st_rdev), 0);
	close(fd);

	CHECK(stat("/dev/dri/renderD128", &st) == 0, "stat renderD128: %s", strerror(errno));
	check_chr("stat renderD128", &st, 226, 128);
	fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "open renderD128");
	CHECK(fstat(fd, &st) == 0, "fstat renderD128 fd");
	check_chr("fstat renderD128 fd", &st, 226, 128);
	CHECK(statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx) == 0 &&
		      sx.stx_rdev_major == 226 && sx.stx_rdev_minor == 128,
	      "statx(AT_EMPTY_PATH) renderD128 fd: %u:%u", sx.stx_rdev_major, sx.stx_rdev_minor);
	close(fd);

	/* Programs built against glibc < 2.33 call __xstat(). */
	xstat = (xstat_fn)dlsym(RTLD_DEFAULT, "__xstat");
	if (xstat) {
		CHECK(xstat(1, "/dev/kfd", &st) == 0, "__xstat /dev/kfd");
		check_chr("__xstat /dev/kfd", &st, major(kfd_st.st_rdev), 0);
	}

	/* Only the emulated GPUs' minors (one GPU: 128); other names are
	 * the machine's (none here without a real /dev/dri). */
	if (access("/dev/dri", F_OK) != 0) {
		r = stat("/dev/dri/renderD129", &st);
		CHECK(r != 0 && errno == ENOENT, "renderD129 (no emulated GPU) is not there");
		CHECK(open("/dev/dri/renderD129", O_RDWR) < 0 && errno == ENOENT,
		      "renderD129 does not open");
	}
	return t_result("preload_stat");
}
