/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, the emulated GPU works on the client's own memory, as
 * it runs in the client's address space: a USERPTR buffer registered on
 * plain anonymous memory at a GPU address of its own is written by a PM4
 * WRITE_DATA the engine executes, and the client reads the value straight
 * from its pages; the ring, pointers and the signal page libkfdsig supplies
 * (GTT buffers mapped through the render node) carry the fence that wakes
 * WAIT_EVENTS. A USERPTR range that is not mapped is refused with -EFAULT
 * (amdgpu_ttm_tt_get_user_pages finds no VMA).
 */
#include <sys/mman.h>

#include "preload_gpu.h"

#define SZ (2 * 4096)

static int userptr(int fd, uint32_t gpu_id, uint64_t gpu_va, void *user, uint64_t *handle)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args a = {
		.va_addr = gpu_va,
		.size = SZ,
		.mmap_offset = (uint64_t)(uintptr_t)user,
		.gpu_id = gpu_id,
		.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR,
	};
	int r = p_ioctl(fd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a);

	*handle = a.handle;
	return r;
}

int main(void)
{
	volatile uint32_t *user;
	uint64_t handle = 0, gpu_va;
	uint32_t pkt[5];
	void *hole, *vas;
	struct gpu g;
	int fd;

	p_require_preload();
	if (!gpu_open("userptr", &g))
		return t_result("preload_userptr");
	fd = p_open_kfd(); /* the same process as libkfdsig's fd */
	CHECK(fd >= 0, "open /dev/kfd");
	user = mmap(NULL, SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* a GPU address range of its own, not the CPU address */
	vas = mmap(NULL, SZ, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	CHECK(user != MAP_FAILED && vas != MAP_FAILED, "mmap");
	gpu_va = (uint64_t)(uintptr_t)vas;
	CHECK(userptr(fd, g.dev->gpu_id, gpu_va, (void *)user, &handle) == 0, "USERPTR alloc");
	{
		uint32_t ids[1] = { g.dev->gpu_id };
		struct kfd_ioctl_map_memory_to_gpu_args m = {
			.handle = handle,
			.device_ids_array_ptr = (uint64_t)(uintptr_t)ids,
			.n_devices = 1,
		};
		CHECK(p_ioctl(fd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m) == 0, "map USERPTR");
	}
	user[4] = 0;
	/* PM4 WRITE_DATA (soc15d.h PACKET3_WRITE_DATA 0x37, 5 dwords):
	 * dst_sel 5 (memory), address, one dword of data */
	pkt[0] = 0xc0000000u | (3u << 16) | (0x37u << 8);
	pkt[1] = 5u << 8;
	pkt[2] = (uint32_t)(gpu_va + 16);
	pkt[3] = (uint32_t)((gpu_va + 16) >> 32);
	pkt[4] = 0xc0ffee;
	gpu_signal_after("WRITE_DATA to the USERPTR buffer, then the fence", &g, pkt, 5);
	CHECK_EQ(user[4], 0xc0ffee, "the engine wrote the client's own page");

	/* unmapped user pages: refused */
	hole = mmap(NULL, SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(hole != MAP_FAILED && munmap(hole, SZ) == 0, "a hole");
	CHECK(userptr(fd, g.dev->gpu_id, gpu_va + 0x100000000ull, hole, &handle) == -EFAULT,
	      "USERPTR over unmapped pages: -EFAULT");
	close(fd);
	kfdsig_kfd_close(g.kfd);
	return t_result("preload_userptr");
}
