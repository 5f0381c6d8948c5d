/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, closing /dev/kfd and opening it again keeps the KFD
 * process (the kernel keys kfd_process by the mm; libhsakmt closes,
 * reopens and reuses its event page): the events and the signal page of
 * the first open are still there through the second.
 */
#include <sys/mman.h>

#include "preload_util.h"

int main(void)
{
	uint64_t off1 = 0, off2 = 0;
	uint32_t id1 = 0, id2 = 0, res = 0;
	volatile uint64_t *page;
	int fd1, fd2;

	p_require_preload();
	fd1 = p_open_kfd();
	CHECK(fd1 >= 0, "open /dev/kfd: %s", strerror(errno));
	if (fd1 < 0)
		return t_result("preload_reopen");
	CHECK(p_event(fd1, &id1, &off1) == 0, "CREATE_EVENT on the first open");
	page = mmap(NULL, KFD_SIGNAL_EVENT_LIMIT * 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd1,
		    (off_t)off1);
	CHECK(page != MAP_FAILED, "mmap of the signal page: %s", strerror(errno));
	CHECK(close(fd1) == 0, "close");

	fd2 = p_open_kfd();
	CHECK(fd2 >= 0, "reopen /dev/kfd: %s", strerror(errno));
	CHECK(p_version(fd2) == 0, "GET_VERSION after reopen");
	/* The event of the first open belongs to this process still. */
	CHECK(p_set(fd2, id1) == 0, "SET_EVENT of the first open's event %u after reopen", id1);
	CHECK(p_wait(fd2, id1, P_TIMEOUT_MS, &res) == 0 && res == KFD_IOC_WAIT_RESULT_COMPLETE,
	      "WAIT_EVENTS after reopen: result %u", res);
	CHECK(p_reset(fd2, id1) == 0, "RESET_EVENT after reopen");
	/* A new event lands on the same signal page (no new page). */
	CHECK(p_event(fd2, &id2, &off2) == 0, "CREATE_EVENT after reopen");
	CHECK(id2 != id1, "a second event %u differs from the first %u", id2, id1);
	CHECK_EQ(off2, off1, "the signal page of the process is the same");
	if (page != MAP_FAILED) {
		/* The mapping made through the closed fd is the live page. */
		CHECK_EQ(page[id2], ~0ull, "slot %u of the kept mapping reads unsignalled", id2);
		p_check_set_wakes("after reopen", fd2, fd2, id2);
		munmap((void *)page, KFD_SIGNAL_EVENT_LIMIT * 8);
	}
	close(fd2);
	/* And a third open still sees both. */
	fd1 = p_open_kfd();
	CHECK(p_set(fd1, id2) == 0 && p_set(fd1, id1) == 0, "events survive a second reopen");
	close(fd1);
	return t_result("preload_reopen");
}
