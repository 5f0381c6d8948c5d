/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, an SMI event fd (AMDKFD_IOC_SMI_EVENTS) is a real fd:
 * write() sets its event mask, epoll and poll see it readable when a line
 * arrives (here the VM fault a queue's write to an unmapped address
 * raises), read() returns the line and then -EAGAIN, and a dup of it reads
 * the same stream after the original is closed.
 */
#include <poll.h>
#include <sys/epoll.h>

#include "preload_gpu.h"

int main(void)
{
	struct kfd_ioctl_smi_events_args a = { 0 };
	uint64_t mask = 1ull << (KFD_SMI_EVENT_VMFAULT - 1);
	struct epoll_event ee = { .events = EPOLLIN }, got;
	struct pollfd pfd;
	char line[256];
	uint32_t pkt[5];
	uint64_t bad = 0x7ff000000000ull;
	unsigned type = 0, pid = 0;
	struct gpu g;
	int fd, s, d, ep, n;
	double t0;
	ssize_t len;

	p_require_preload();
	if (!gpu_open("smi", &g))
		return t_result("preload_smi");
	fd = p_open_kfd();
	a.gpuid = g.dev->gpu_id;
	CHECK(p_ioctl(fd, AMDKFD_IOC_SMI_EVENTS, &a) == 0, "SMI_EVENTS");
	s = (int)a.anon_fd;
	CHECK(write(s, &mask, sizeof(mask)) == sizeof(mask), "write the mask: %s", strerror(errno));
	d = dup(s);
	CHECK(d >= 0, "dup of the SMI fd");
	CHECK(close(s) == 0, "close the original SMI fd");
	ep = epoll_create1(EPOLL_CLOEXEC);
	CHECK(ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, d, &ee) == 0, "epoll_ctl");
	CHECK(read(d, line, sizeof(line)) < 0 && errno == EAGAIN, "nothing to read yet");

	/* PM4 WRITE_DATA (soc15d.h PACKET3_WRITE_DATA 0x37) to an address no
	 * buffer backs: a VM fault, an SMI VMFAULT line */
	pkt[0] = 0xc0000000u | (3u << 16) | (0x37u << 8);
	pkt[1] = 5u << 8;
	pkt[2] = (uint32_t)bad;
	pkt[3] = (uint32_t)(bad >> 32);
	pkt[4] = 1;
	t0 = p_now_ms();
	CHECK(kfdsig_kfd_queue_submit(g.q, pkt, 5, 1000) == 0, "submit");
	n = epoll_wait(ep, &got, 1, P_TIMEOUT_MS);
	CHECK(n == 1 && (got.events & EPOLLIN), "epoll_wait: %d", n);
	CHECK(p_now_ms() - t0 < P_WAKE_BOUND_MS, "readable %.1f ms after the submit",
	      p_now_ms() - t0);
	pfd = (struct pollfd){ .fd = d, .events = POLLIN };
	CHECK(poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN), "poll sees it readable");
	len = read(d, line, sizeof(line) - 1);
	CHECK(len > 0, "read the line: %s", strerror(errno));
	line[len > 0 ? len : 0] = '\0';
	/* "<type in hex> <pid in hex>:<task>\n" (kfd_smi_event_update_vmfault) */
	CHECK(sscanf(line, "%x %x:", &type, &pid) == 2 && type == KFD_SMI_EVENT_VMFAULT &&
		      pid == (unsigned)getpid(),
	      "line '%s'", line);
	CHECK(read(d, line, sizeof(line)) < 0 && errno == EAGAIN, "then nothing");
	CHECK(poll(&pfd, 1, 0) == 0, "and not readable");
	close(ep);
	close(d);
	close(fd);
	kfdsig_kfd_close(g.kfd);
	return t_result("preload_smi");
}
