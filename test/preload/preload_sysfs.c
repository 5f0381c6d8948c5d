/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, the KFD topology is readable at /sys/class/kfd/kfd
 * through every way a client reads files: open+read, fopen, opendir and
 * readdir, scandir, stat, access, realpath; each gives the emulator's
 * content (one emulated GPU node after the CPU node).
 */
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include "preload_util.h"

#define NODES "/sys/class/kfd/kfd/topology/nodes"

static int only_nodes(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int main(void)
{
	char buf[256], path[PATH_MAX], *real;
	unsigned v1 = 0, v2 = 0;
	struct dirent **list;
	struct dirent *de;
	struct stat st;
	ssize_t n;
	FILE *f;
	DIR *d;
	int fd, count = 0;

	p_require_preload();
	/* fopen */
	f = fopen(NODES "/1/gpu_id", "r");
	CHECK(f != NULL, "fopen gpu_id: %s", strerror(errno));
	if (f) {
		CHECK(fscanf(f, "%u", &v1) == 1 && v1 != 0, "gpu_id of node 1: %u", v1);
		fclose(f);
	}
	/* open + read */
	fd = open(NODES "/1/gpu_id", O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0, "open gpu_id: %s", strerror(errno));
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		CHECK(sscanf(buf, "%u", &v2) == 1 && v2 == v1, "open+read gpu_id %u vs fopen %u",
		      v2, v1);
		close(fd);
	}
	/* openat with an absolute path */
	fd = openat(AT_FDCWD, NODES "/1/name", O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0, "openat name");
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		CHECK(!strncmp(buf, "gfx90a", 6), "node 1 name '%s' (kfdsig exec default gfx90a)",
		      buf);
		close(fd);
	}
	/* opendir/readdir, relative openat from the directory */
	d = opendir(NODES);
	CHECK(d != NULL, "opendir nodes: %s", strerror(errno));
	if (d) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				count++;
		fd = openat(dirfd(d), "0/properties", O_RDONLY | O_CLOEXEC);
		CHECK(fd >= 0, "openat relative to the redirected directory");
		if (fd >= 0)
			close(fd);
		closedir(d);
	}
	CHECK(count == 2, "readdir: %d nodes (the CPU and one GPU)", count);
	/* scandir */
	n = scandir(NODES, &list, only_nodes, alphasort);
	CHECK(n == 2, "scandir: %zd nodes", n);
	for (ssize_t i = 0; i < n; i++)
		free(list[i]);
	if (n >= 0)
		free(list);
	/* stat, access */
	CHECK(stat(NODES "/1", &st) == 0 && S_ISDIR(st.st_mode), "stat node dir");
	CHECK(stat(NODES "/1/properties", &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0,
	      "stat properties");
	CHECK(access(NODES "/1/properties", R_OK) == 0, "access properties");
	CHECK(stat(NODES "/7", &st) != 0 && errno == ENOENT, "no node 7");
	/* realpath gives a path that opens */
	real = realpath(NODES "/1/gpu_id", path);
	CHECK(real != NULL, "realpath: %s", strerror(errno));
	if (real) {
		f = fopen(real, "r");
		CHECK(f && fscanf(f, "%u", &v2) == 1 && v2 == v1, "the realpath reads gpu_id");
		if (f)
			fclose(f);
	}
	return t_result("preload_sysfs");
}
