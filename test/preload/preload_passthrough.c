/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, everything that is not the KFD passes straight
 * through: regular files, pipes and their ioctls, /dev/null, other /sys
 * and /dev paths, names that only begin like ours (/dev/kfdx,
 * /sys/class/kfdx), render nodes of no emulated GPU, dup and close of
 * real fds, mmap of a file; and an fd number an emulated file used before
 * is a plain fd once reused.
 */
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "preload_util.h"

int main(void)
{
	char tmpl[] = "/tmp/kfdsig-preload-XXXXXX", buf[16];
	int fd, p[2], avail = -1, kfd, reuse;
	struct stat st;
	void *m;

	p_require_preload();
	/* a regular file: write, read, stat, mmap, dup, close */
	fd = mkstemp(tmpl);
	CHECK(fd >= 0, "mkstemp");
	CHECK(write(fd, "kfdsig!", 7) == 7, "write");
	CHECK(pread(fd, buf, 7, 0) == 7 && !memcmp(buf, "kfdsig!", 7), "read back");
	CHECK(fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 7, "fstat");
	m = mmap(NULL, 7, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED && !memcmp(m, "kfdsig!", 7), "mmap of the file");
	if (m != MAP_FAILED)
		munmap(m, 7);
	reuse = dup(fd);
	CHECK(reuse >= 0 && close(reuse) == 0, "dup/close of a real fd");
	CHECK(close(fd) == 0, "close");
	fd = open(tmpl, O_RDONLY);
	CHECK(fd >= 0 && read(fd, buf, 7) == 7, "open by path");
	close(fd);
	CHECK(stat(tmpl, &st) == 0 && access(tmpl, R_OK) == 0, "stat/access by path");
	unlink(tmpl);

	/* a pipe and its ioctl */
	CHECK(pipe(p) == 0, "pipe");
	CHECK(write(p[1], "abc", 3) == 3, "pipe write");
	CHECK(ioctl(p[0], FIONREAD, &avail) == 0 && avail == 3, "FIONREAD: %d", avail);
	close(p[0]);
	close(p[1]);

	/* other device and sysfs paths */
	CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
		      minor(st.st_rdev) == 3,
	      "/dev/null is 1:3");
	fd = open("/dev/null", O_WRONLY);
	CHECK(fd >= 0 && write(fd, "x", 1) == 1, "/dev/null writes");
	close(fd);
	CHECK(open("/dev/kfdx", O_RDWR) < 0 && errno == ENOENT, "/dev/kfdx is not /dev/kfd");
	CHECK(stat("/sys/class/kfdx", &st) != 0 && errno == ENOENT,
	      "/sys/class/kfdx is not redirected");
	CHECK(stat("/sys/class/kfd", &st) == 0 && S_ISDIR(st.st_mode), "/sys/class/kfd is");
	CHECK(open("/dev/dri/renderD200", O_RDWR) < 0, "renderD200 (no such GPU) does not open");

	/* an fd number reused after an emulated file is a plain fd */
	CHECK(pipe(p) == 0, "pipe");
	kfd = p_open_kfd();
	CHECK(kfd >= 0, "open /dev/kfd");
	close(kfd);
	CHECK(dup2(p[0], kfd) == kfd, "the number %d reused for a pipe", kfd);
	CHECK(write(p[1], "ab", 2) == 2 && ioctl(kfd, FIONREAD, &avail) == 0 && avail == 2,
	      "FIONREAD on the reused number: %d", avail);
	CHECK(read(kfd, buf, 2) == 2 && !memcmp(buf, "ab", 2), "read on the reused number");
	close(kfd);
	close(p[0]);
	close(p[1]);
	return t_result("preload_passthrough");
}
