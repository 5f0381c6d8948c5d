/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, every fd of one client process reaches the same KFD
 * process: an event created through one /dev/kfd fd is set and waited
 * through another, and the VM acquired with a render-node fd through one
 * serves allocations through the other.
 */
#include <sys/mman.h>

#include "preload_util.h"

static uint32_t first_gpu_id(void)
{
	FILE *f = fopen("/sys/class/kfd/kfd/topology/nodes/1/gpu_id", "r");
	unsigned v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%u", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

int main(void)
{
	uint32_t id = 0, gpu_id;
	int a, b, render;

	p_require_preload();
	a = p_open_kfd();
	b = p_open_kfd();
	CHECK(a >= 0 && b >= 0 && a != b, "two opens of /dev/kfd: %d %d", a, b);
	if (a < 0 || b < 0)
		return t_result("preload_shared");
	CHECK(p_event(a, &id, NULL) == 0, "CREATE_EVENT through the first fd");
	p_check_set_wakes("set through b, wait through a", a, b, id);
	CHECK(p_reset(b, id) == 0, "RESET_EVENT through b");
	p_check_set_wakes("set through a, wait through b", b, a, id);

	gpu_id = first_gpu_id();
	CHECK(gpu_id != 0, "gpu_id of node 1");
	render = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(render >= 0, "open renderD128: %s", strerror(errno));
	if (render >= 0 && gpu_id) {
		struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)render,
							.gpu_id = gpu_id };
		void *mem = mmap(NULL, 1 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct kfd_ioctl_alloc_memory_of_gpu_args al = {
			.va_addr = (uint64_t)(uintptr_t)mem,
			.size = 1 << 20,
			.gpu_id = gpu_id,
			.flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT,
		};
		CHECK(p_ioctl(a, AMDKFD_IOC_ACQUIRE_VM, &vm) == 0, "ACQUIRE_VM through a");
		/* b's process has the VM too: the allocation binds. */
		CHECK(p_ioctl(b, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al) == 0,
		      "ALLOC_MEMORY_OF_GPU through b after ACQUIRE_VM through a");
		/* The same render file again is fine; the kernel refuses
		 * another file only. */
		CHECK(p_ioctl(b, AMDKFD_IOC_ACQUIRE_VM, &vm) == 0, "ACQUIRE_VM again through b");
		close(render);
	}
	close(a);
	/* b keeps the process alive with its event. */
	CHECK(p_set(b, id) == 0, "SET_EVENT through b after closing a");
	close(b);
	return t_result("preload_shared");
}
