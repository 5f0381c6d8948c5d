/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, dup, dup2, dup3 and fcntl(F_DUPFD*) of an emulated fd
 * give fds of the same file: ioctl and mmap through the copy reach the
 * same KFD process, and closing one copy keeps the file alive. A real file
 * dup2'd over an emulated fd is the real file from then on.
 */
#include <sys/mman.h>

#include "preload_util.h"

int main(void)
{
	uint32_t id = 0, res = 0;
	uint64_t off = 0;
	int fd, d, d2, d3, dn;
	void *page;

	p_require_preload();
	fd = p_open_kfd();
	CHECK(fd >= 0, "open /dev/kfd: %s", strerror(errno));
	if (fd < 0)
		return t_result("preload_dup");
	CHECK(p_event(fd, &id, &off) == 0, "CREATE_EVENT");

	d = dup(fd);
	CHECK(d >= 0 && d != fd, "dup: %d", d);
	CHECK(close(fd) == 0, "close the original");
	CHECK(p_version(d) == 0, "GET_VERSION through the dup after closing the original");
	page = mmap(NULL, KFD_SIGNAL_EVENT_LIMIT * 8, PROT_READ | PROT_WRITE, MAP_SHARED, d,
		    (off_t)off);
	CHECK(page != MAP_FAILED, "mmap of the signal page through the dup: %s", strerror(errno));
	if (page != MAP_FAILED)
		munmap(page, KFD_SIGNAL_EVENT_LIMIT * 8);
	p_check_set_wakes("through the dup", d, d, id);

	d2 = fcntl(d, F_DUPFD_CLOEXEC, 100);
	CHECK(d2 >= 100, "fcntl(F_DUPFD_CLOEXEC, 100): %d", d2);
	CHECK(close(d) == 0, "close the dup");
	CHECK(p_reset(d2, id) == 0, "RESET_EVENT through the fcntl copy");

	d3 = dup2(d2, 60);
	CHECK(d3 == 60, "dup2 to 60: %d", d3);
	CHECK(close(d2) == 0, "close the fcntl copy");
	CHECK(p_set(60, id) == 0, "SET_EVENT through the dup2 copy");
	CHECK(p_wait(60, id, P_TIMEOUT_MS, &res) == 0 && res == KFD_IOC_WAIT_RESULT_COMPLETE,
	      "WAIT_EVENTS through the dup2 copy: %u", res);
	dn = dup3(60, 61, O_CLOEXEC);
	CHECK(dn == 61 && p_version(61) == 0, "dup3 copy works: %d", dn);
	close(61);

	/* A closed copy is closed: the number is no longer emulated. */
	CHECK(p_version(d2) == -EBADF, "GET_VERSION on a closed copy: %d", p_version(d2));

	/* A real file over the emulated 60: ioctls go to the real file. */
	dn = open("/dev/null", O_RDONLY | O_CLOEXEC);
	CHECK(dn >= 0, "open /dev/null");
	CHECK(dup2(dn, 60) == 60, "dup2 /dev/null over the emulated 60");
	CHECK(p_version(60) == -ENOTTY, "GET_VERSION on /dev/null: %d", p_version(60));
	close(60);
	close(dn);

	/* Every fd is gone; the process is not (per pid): a new open sees
	 * the event. */
	fd = p_open_kfd();
	CHECK(p_set(fd, id) == 0, "the event after all fds were closed");
	close(fd);
	return t_result("preload_dup");
}
