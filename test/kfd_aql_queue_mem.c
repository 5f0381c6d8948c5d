/* SPDX-License-Identifier: MIT */
/*
 * ALLOC_MEMORY_OF_GPU with KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM on the
 * emulated KFD: the buffer is backed by half the requested size, as the
 * kernel's (amdgpu_amdkfd_gpuvm.c amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu(),
 * the gfx7/8 AQL wrap-around workaround, mapped twice by
 * kfd_mem_attach()). libhsakmt allocates ROCr's gfx8 ring this way as a
 * userptr whose first half alone is mapped for the CPU (fmm.c
 * fmm_allocate_host_gpu), so pinning the whole size would fail.
 */
#include <sys/mman.h>

#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

/* The ring's VA range, reserved, below gfx8's 40-bit VM (emu_gen.c
 * va_bits); only its first page readable and writable, as libhsakmt
 * leaves it. Low addresses first: ASan's shadow covers 0x7fff8000 up. */
static char *ring_range(void)
{
	static const uint64_t at[] = { 0x50000000ull, 0x30000000ull, 0x6000000000ull };

	for (unsigned int i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		void *p = mmap((void *)(uintptr_t)at[i], 8192, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

		if (p != MAP_FAILED)
			return p;
	}
	return MAP_FAILED;
}

int main(void)
{
	struct kfdsig_emu *emu = t_emu("gfx803");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g0 = t_gpu(kfd, 0);
	int pasid = t_pasid(emu, kfd);
	struct kfd_ioctl_alloc_memory_of_gpu_args al = { 0 };
	struct kfd_ioctl_map_memory_to_gpu_args map = { 0 };
	struct kfd_ioctl_free_memory_of_gpu_args fr = { 0 };
	uint32_t *gpu_view;
	char *va = ring_range();

	T_REQUIRE(va != MAP_FAILED, "mmap");
	T_REQUIRE(mmap(va, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		       -1, 0) == va,
		  "first half");
	CHECK(kfdsig_kfd_acquire_vm(kfd, g0) == 0, "acquire vm");

	al.va_addr = (uint64_t)(uintptr_t)va;
	al.size = 8192;
	al.gpu_id = g0;
	al.mmap_offset = (uint64_t)(uintptr_t)va;
	al.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), -EFAULT,
		 "a plain userptr over a half-mapped range is refused");
	al.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), 0,
		 "AQL queue memory: only its first half is pinned");

	map.handle = al.handle;
	map.device_ids_array_ptr = (uint64_t)(uintptr_t)&g0;
	map.n_devices = 1;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map), 0, "map");
	gpu_view = kfdsig_emu_gpu_ptr(emu, pasid, g0, al.va_addr + 4092, 4);
	CHECK(gpu_view != NULL, "first half in the GPU VM");
	if (gpu_view) {
		((volatile uint32_t *)va)[1023] = 0x5eed;
		CHECK_EQ(*gpu_view, 0x5eed, "the user's page backs it");
	}
	map.n_success = 0; /* the unmap loop starts there (kfd_chardev.c) */
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &map), 0, "unmap");
	fr.handle = al.handle;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0, "free");

	munmap(va, 8192);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	return t_result("kfd_aql_queue_mem");
}
