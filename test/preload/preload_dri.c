/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, /dev/dri lists the emulated render nodes (libdrm's
 * drmGetDevices2 walks it with opendir/readdir; `ls /dev/dri` too), and
 * the extended-attribute calls on an emulated node, by path or by fd,
 * answer as on a device file without attributes: ENODATA, an empty list.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "preload_util.h"

int main(void)
{
	struct dirent **list = NULL;
	struct dirent *e;
	struct stat st;
	char v[64];
	bool seen = false;
	DIR *d;
	int fd, n;

	p_require_preload();
	d = opendir("/dev/dri");
	CHECK(d != NULL, "opendir /dev/dri: %s", strerror(errno));
	while (d && (e = readdir(d)))
		seen |= !strcmp(e->d_name, "renderD128");
	if (d)
		closedir(d);
	CHECK(seen, "readdir of /dev/dri has no renderD128");
	n = scandir("/dev/dri/", &list, NULL, alphasort);
	seen = false;
	for (int i = 0; i < n; i++) {
		seen |= !strcmp(list[i]->d_name, "renderD128");
		free(list[i]);
	}
	free(list);
	CHECK(seen, "scandir of /dev/dri/ has no renderD128 (%d entries)", n);
	CHECK(stat("/dev/dri", &st) == 0 && S_ISDIR(st.st_mode), "stat /dev/dri: a directory");
	CHECK(stat("/dev/dri/.", &st) == 0 && S_ISDIR(st.st_mode), "stat /dev/dri/.");
	CHECK(stat("/dev/dri/renderD128", &st) == 0 && S_ISCHR(st.st_mode),
	      "the listed node stats as a character device");

	errno = 0;
	CHECK(getxattr("/dev/dri/renderD128", "security.selinux", v, sizeof(v)) == -1 &&
		      errno == ENODATA,
	      "getxattr renderD128: %s, expected ENODATA", strerror(errno));
	errno = 0;
	CHECK(lgetxattr("/dev/kfd", "system.posix_acl_access", v, sizeof(v)) == -1 &&
		      errno == ENODATA,
	      "lgetxattr /dev/kfd: %s, expected ENODATA", strerror(errno));
	CHECK(listxattr("/dev/dri/renderD128", v, sizeof(v)) == 0, "listxattr: an empty list");
	CHECK(llistxattr("/dev/kfd", NULL, 0) == 0, "llistxattr size query: 0");
	fd = p_open_kfd();
	CHECK(fd >= 0, "open /dev/kfd");
	errno = 0;
	CHECK(fgetxattr(fd, "security.selinux", v, sizeof(v)) == -1 && errno == ENODATA,
	      "fgetxattr of the /dev/kfd fd: %s, expected ENODATA", strerror(errno));
	CHECK(flistxattr(fd, v, sizeof(v)) == 0, "flistxattr of the /dev/kfd fd: empty");
	close(fd);
	return t_result("preload_dri");
}
