/* SPDX-License-Identifier: MIT */
/*
 * The render node's user-queue ioctls (kfdsig_userq_probe/create/free/
 * signal/wait): the refusals made before any ioctl, which need no GPU,
 * then the probe on every amdgpu render node. Skips (77) when no render
 * node has an engine with user queues (no amdgpu, a kernel before 6.16,
 * or user_queue=0), as on every machine without such a GPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static void refusals(void)
{
	KFDSIG_OPTS(kfdsig_userq_create_args, a, .ip = KFDSIG_USERQ_IP_COMPUTE, .ring_va = 0x100000,
		    .ring_size = 4096, .rptr_va = 0x200000, .wptr_va = 0x200008,
		    .eop_va = 0x300000);
	struct kfdsig_userq_fence_ref f[2];
	uint32_t id = 0, mask = 7, n = 2, sync = 1;
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);

	CHECK_EQ(kfdsig_userq_probe(-1, NULL), -EINVAL, "probe without a mask");
	CHECK_EQ(kfdsig_userq_probe(-1, &mask), -EBADF, "probe of fd -1");
	CHECK_EQ(mask, 0, "a failed probe clears the mask");
	if (devnull >= 0)
		CHECK_EQ(kfdsig_userq_probe(devnull, &mask), -ENOTTY, "probe of /dev/null");
	/* the arguments are checked before the ioctl: fd -1 never reached */
	CHECK_EQ(kfdsig_userq_create(-1, &a, NULL), -EINVAL, "no queue_id");
	CHECK_EQ(kfdsig_userq_create(-1, NULL, &id), -EINVAL, "no arguments");
	a.ip = 3;
	CHECK_EQ(kfdsig_userq_create(-1, &a, &id), -EINVAL, "engine 3");
	a.ip = KFDSIG_USERQ_IP_COMPUTE;
	a.eop_va = 0;
	CHECK_EQ(kfdsig_userq_create(-1, &a, &id), -EINVAL, "compute without EOP");
	a.eop_va = 0x300000;
	a.ring_size = 4096 + 128;
	CHECK_EQ(kfdsig_userq_create(-1, &a, &id), -EINVAL, "ring size not 256-multiple");
	a.ring_size = 4096;
	a.ring_va = 0x100080;
	CHECK_EQ(kfdsig_userq_create(-1, &a, &id), -EINVAL, "ring not 256-aligned");
	a.ring_va = 0x100000;
	a.wptr_va = 0x200004;
	CHECK_EQ(kfdsig_userq_create(-1, &a, &id), -EINVAL, "wptr 4-aligned");
	a.wptr_va = 0x200008;
	a.ip = KFDSIG_USERQ_IP_GFX;
	CHECK_EQ(kfdsig_userq_create(-1, &a, &id), -EINVAL, "GFX without shadow and CSA");
	a.ip = KFDSIG_USERQ_IP_SDMA;
	CHECK_EQ(kfdsig_userq_create(-1, &a, &id), -EINVAL, "SDMA without CSA");
	a.csa_va = 0x400000;
	/* valid: the ioctl runs, on fd -1 */
	CHECK_EQ(kfdsig_userq_create(-1, &a, &id), -EBADF, "valid arguments reach the ioctl");
	a.sz = 0;
	CHECK_EQ(kfdsig_userq_create(-1, &a, &id), -EINVAL, "sz 0");
	CHECK_EQ(kfdsig_userq_signal(-1, 1, NULL, 1), -EINVAL, "signal: count, no array");
	CHECK_EQ(kfdsig_userq_signal(-1, 1, &sync, 1), -EBADF, "signal reaches the ioctl");
	CHECK_EQ(kfdsig_userq_wait(-1, 1, &sync, 1, f, NULL), -EINVAL, "wait: no nout");
	CHECK_EQ(kfdsig_userq_wait(-1, 1, &sync, 1, NULL, &n), -EINVAL, "wait: nout, no array");
	CHECK_EQ(kfdsig_userq_wait(-1, 1, NULL, 1, f, &n), -EINVAL, "wait: count, no array");
	CHECK_EQ(kfdsig_userq_wait(-1, 1, &sync, 1, f, &n), -EBADF, "wait reaches the ioctl");
	CHECK_EQ(kfdsig_userq_free(-1, 1), -EBADF, "free reaches the ioctl");
	if (devnull >= 0)
		close(devnull);
}

/* Every render node: the engines with user queues. */
static int probe_all(void)
{
	int found = 0;

	for (int minor = 128; minor < 192; minor++) {
		char path[32];
		uint32_t mask = 0;
		int fd, r;

		snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		r = kfdsig_userq_probe(fd, &mask);
		if (r == 0 && mask) {
			printf("%s: user queues on engines 0x%x\n", path, mask);
			found++;
			/* no such queue: the kernel refuses to free it */
			CHECK(kfdsig_userq_free(fd, 0xfffffff0u) < 0, "%s: freeing no queue", path);
		}
		close(fd);
	}
	return found;
}

int main(void)
{
	refusals();
	if (t_failures || probe_all())
		return t_result("userq_drm");
	t_result("userq_drm");
	printf("no render node with amdgpu user queues: skip\n");
	return T_EXIT_SKIP;
}
