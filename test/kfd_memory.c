/* SPDX-License-Identifier: MIT */
/*
 * GPU VM and memory through the backend against the emulated KFD:
 * ACQUIRE_VM, ALLOC_MEMORY_OF_GPU with the CPU mapping at the GPU VA,
 * MAP_MEMORY_TO_GPU on several GPUs, FREE; and the kernel's errno for each
 * misuse (kfd_chardev.c kfd_ioctl_alloc_memory_of_gpu()), sent as raw ioctls through the seam;
 * a GPU VA of 0 or past the VM allocates and fails only at MAP; dma-buf export and import; the
 * system memory limit of GTT and USERPTR buffers.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

static void test_alloc_map_free(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,gfx942");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g0 = t_gpu(kfd, 0), g1 = t_gpu(kfd, 1);
	int pasid = t_pasid(emu, kfd);
	const struct kfdsig_kfd_bo *bo = NULL;
	uint32_t *gpu_view;

	CHECK(kfdsig_kfd_acquire_vm(kfd, g0) == 0, "acquire vm");
	CHECK(kfdsig_kfd_acquire_vm(kfd, g0) == 0, "acquire again is a no-op");
	CHECK_EQ(kfdsig_kfd_acquire_vm(kfd, 0xdead), -ENOENT, "unknown gpu");
	CHECK_EQ(kfdsig_kfd_alloc(kfd, g0, 4096, 1u << 2 /* USERPTR */, &bo), -EINVAL,
		 "userptr is not this helper's");
	CHECK_EQ(kfdsig_kfd_alloc(kfd, g0, 0, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo), -EINVAL, "size 0");
	CHECK(kfdsig_kfd_alloc(kfd, g0, 5000, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) == 0, "alloc");
	T_REQUIRE(bo, "bo");
	CHECK_EQ(bo->size, 8192, "rounded up to pages");
	CHECK((void *)(uintptr_t)bo->va == bo->cpu, "CPU address == GPU address");
	CHECK_EQ(KFDSIG_HANDLE_GPU_ID(bo->handle), g0, "handle carries the gpu_id");
	CHECK_EQ(KFDSIG_HANDLE_IDR(bo->handle), 0, "first idr handle is 0");
	CHECK(kfdsig_emu_gpu_ptr(emu, pasid, g0, bo->va, 4) == NULL, "not in the GPU VM yet");
	CHECK(kfdsig_kfd_map(kfd, bo, NULL, 0) == 0, "map to acquired GPUs");
	gpu_view = kfdsig_emu_gpu_ptr(emu, pasid, g0, bo->va + 4096, 8);
	CHECK(gpu_view != NULL, "mapped on gpu 0");
	CHECK(kfdsig_emu_gpu_ptr(emu, pasid, g1, bo->va, 4) == NULL, "not on gpu 1");
	if (gpu_view) {
		((volatile uint32_t *)bo->cpu)[1024] = 0x1234abcd;
		CHECK_EQ(gpu_view[0], 0x1234abcd, "CPU store visible to the GPU");
		gpu_view[1] = 0x55aa;
		CHECK_EQ(((volatile uint32_t *)bo->cpu)[1025], 0x55aa, "GPU store visible");
	}
	CHECK(kfdsig_emu_gpu_ptr(emu, pasid, g0, bo->va + 8190, 4) == NULL, "range past end");
	CHECK(kfdsig_kfd_map(kfd, bo, &g1, 1) == 0, "map to the second GPU (acquires it)");
	CHECK(kfdsig_emu_gpu_ptr(emu, kfdsig_emu_pasid_on(emu, kfdsig_kfd_fd(kfd), g1), g1, bo->va,
				 4) != NULL,
	      "now on gpu 1");
	{
		uint64_t va = bo->va;
		CHECK(kfdsig_kfd_free(kfd, bo) == 0, "free (unmaps first)");
		CHECK(kfdsig_emu_gpu_ptr(emu, pasid, g0, va, 4) == NULL, "gone");
	}
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_kernel_errors(void)
{
	struct kfdsig_emu *emu = t_emu("gfx1100,gfx1030");
	struct kfdsig_kfd *kfd = t_open(emu);
	const struct kfdsig_kfd_ops *ops = kfdsig_emu_ops(emu);
	uint32_t g0 = t_gpu(kfd, 0), g1 = t_gpu(kfd, 1);
	struct kfd_ioctl_alloc_memory_of_gpu_args al = { 0 };
	struct kfd_ioctl_map_memory_to_gpu_args map = { 0 };
	struct kfd_ioctl_free_memory_of_gpu_args fr = { 0 };
	struct kfd_ioctl_acquire_vm_args vm = { 0 };
	const struct kfdsig_kfd_bo *bo = NULL;
	uint32_t ids[2] = { g0, g1 };
	void *va = mmap(NULL, 65536, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd2;

	/* No VM yet: kfd_bind_process_to_device -> -ENODEV */
	al.va_addr = (uint64_t)(uintptr_t)va;
	al.size = 4096;
	al.gpu_id = g0;
	al.flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), -ENODEV, "no VM");
	al.gpu_id = 0x4242;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), -EINVAL,
		 "unknown gpu_id");
	al.gpu_id = g0;
	al.size = 0;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), -EINVAL, "size 0");

	CHECK(kfdsig_kfd_acquire_vm(kfd, g0) == 0, "acquire");
	/* ACQUIRE_VM again with another DRM file of the same GPU: -EBUSY */
	fd2 = ops->open(ops->ctx, "/dev/dri/renderD128", O_RDWR);
	CHECK(fd2 >= 0, "second render fd");
	vm.drm_fd = (uint32_t)fd2;
	vm.gpu_id = g0;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm), -EBUSY, "other DRM file");
	vm.drm_fd = 9999;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm), -EINVAL, "bad drm fd");
	ops->close(ops->ctx, fd2);

	CHECK(kfdsig_kfd_alloc(kfd, g0, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) == 0, "alloc");
	T_REQUIRE(bo, "bo");
	/* MAP_MEMORY_TO_GPU argument checks */
	map.handle = bo->handle;
	map.device_ids_array_ptr = (uint64_t)(uintptr_t)ids;
	map.n_devices = 0;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map), -EINVAL, "n_devices 0");
	map.n_devices = 1;
	map.n_success = 2;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map), -EINVAL,
		 "n_success > n_devices");
	map.handle = bo->handle + 7;
	map.n_success = 0;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map), -ENOMEM,
		 "unknown handle (translate_handle fails)");
	/* partial success: gpu 1 has no VM -> n_success stops at 1 */
	map.handle = bo->handle;
	map.n_devices = 2;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map), -ENODEV,
		 "peer without VM");
	CHECK_EQ(map.n_success, 1, "n_success reports progress (copied back on failure)");
	/* FREE while mapped -> -EBUSY; unknown handle -> -EINVAL */
	fr.handle = bo->handle;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), -EBUSY, "mapped");
	fr.handle = bo->handle + 3;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), -EINVAL, "unknown");
	/* overlapping GPU VA refused */
	al.va_addr = bo->va;
	al.size = 4096;
	al.gpu_id = g0;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), -EINVAL, "overlap");
	/* undo the raw map behind the backend's back, then free */
	map.n_devices = 1;
	map.n_success = 0;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &map), 0, "unmap");
	CHECK_EQ(map.n_success, 1, "unmap progress");
	map.n_success = 0;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &map), -EINVAL,
		 "unmap when not mapped");
	CHECK(kfdsig_kfd_free(kfd, bo) == 0, "free");
	/* an ioctl the emulated 1.x does not have: -ENOTTY (kfd_ioctl since
	 * the 2025 "return -ENOTTY for unsupported IOCTLs" fix) */
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, _IOWR('K', 0x7f, uint64_t), &fr), -ENOTTY, "unknown nr");
	munmap(va, 65536);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_isolation(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *a = t_open(emu), *b = t_open(emu);
	const struct kfdsig_kfd_bo *bo = NULL;
	struct kfd_ioctl_free_memory_of_gpu_args fr = { 0 };

	CHECK(t_pasid(emu, a) != t_pasid(emu, b), "each open is its own process");
	CHECK(kfdsig_kfd_alloc(a, t_gpu(a, 0), 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) == 0,
	      "alloc in A");
	T_REQUIRE(bo, "bo");
	CHECK(kfdsig_kfd_acquire_vm(b, t_gpu(b, 0)) == 0, "B acquires its own VM");
	fr.handle = bo->handle;
	CHECK_EQ(kfdsig_kfd_ioctl(b, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), -EINVAL,
		 "B cannot free A's buffer");
	CHECK(kfdsig_kfd_map(a, bo, NULL, 0) == 0, "map in A");
	CHECK(kfdsig_emu_gpu_ptr(emu, t_pasid(emu, b), t_gpu(b, 0), bo->va, 8) == NULL,
	      "not in B's VM");
	kfdsig_kfd_close(a);
	kfdsig_kfd_close(b);
	kfdsig_emu_destroy(emu);
}

/* A buffer without a GPU VA (VA 0, what libhsakmt's NoAddress allocations
 * send) or past the GPU's VM is allocated; only mapping it fails, -EINVAL
 * (amdgpu_amdkfd_gpuvm.c kfd_mem_attach(), amdgpu_vm.c amdgpu_vm_bo_map()).
 * Two VA-0 buffers do not overlap each other. */
static void test_va_checked_at_map(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,gfx803");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g0 = t_gpu(kfd, 0), g1 = t_gpu(kfd, 1);
	struct kfd_ioctl_alloc_memory_of_gpu_args al = { 0 };
	struct kfd_ioctl_map_memory_to_gpu_args map = { 0 };
	struct kfd_ioctl_free_memory_of_gpu_args fr = { 0 };
	uint64_t h[2], past48 = 1ull << 49, past40 = 1ull << 41;
	uint32_t id;

	CHECK(kfdsig_kfd_acquire_vm(kfd, g0) == 0, "acquire");
	CHECK(kfdsig_kfd_acquire_vm(kfd, g1) == 0, "acquire gfx8");
	map.device_ids_array_ptr = (uint64_t)(uintptr_t)&id;
	map.n_devices = 1;
	for (int i = 0; i < 2; i++) {
		memset(&al, 0, sizeof(al));
		al.size = 4096;
		al.gpu_id = g0;
		al.flags = KFD_IOC_ALLOC_MEM_FLAGS_VRAM;
		CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), 0,
			 "VA 0 allocates (#%d)", i);
		h[i] = al.handle;
	}
	for (int i = 0; i < 2; i++) {
		id = g0;
		map.handle = h[i];
		map.n_success = 0;
		CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map), -EINVAL,
			 "VA 0 does not map");
		fr.handle = h[i];
		CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0, "free VA 0");
	}
	/* past the 48-bit VM of gfx90a, past the 40-bit VM of gfx8 */
	for (int i = 0; i < 2; i++) {
		memset(&al, 0, sizeof(al));
		al.size = 4096;
		al.gpu_id = i ? g1 : g0;
		al.va_addr = i ? past40 : past48;
		al.flags = KFD_IOC_ALLOC_MEM_FLAGS_VRAM;
		CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), 0,
			 "VA past the VM allocates (gpu %d)", i);
		id = al.gpu_id;
		map.handle = al.handle;
		map.n_success = 0;
		CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map), -EINVAL,
			 "VA past the VM does not map (gpu %d)", i);
		fr.handle = al.handle;
		CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0, "free");
	}
	/* just below the end of the 40-bit VM maps on gfx8 */
	memset(&al, 0, sizeof(al));
	al.size = 4096;
	al.gpu_id = g1;
	al.va_addr = (1ull << 40) - 4096;
	al.flags = KFD_IOC_ALLOC_MEM_FLAGS_VRAM;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), 0, "last page");
	id = g1;
	map.handle = al.handle;
	map.n_success = 0;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map), 0, "last page maps");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

/* dma-buf: EXPORT_DMABUF gives an fd (O_CLOEXEC as asked) that outlives
 * the buffer; GET_DMABUF_INFO reports its size, GPU and domain, no
 * metadata; IMPORT_DMABUF makes a buffer of the same memory at a new VA
 * (kfd_ioctl_export_dmabuf(), amdgpu_amdkfd_get_dmabuf_info(),
 * amdgpu_amdkfd_gpuvm_import_dmabuf_fd()). A USERPTR buffer does not
 * export (-EPERM), a file that is not a dma-buf does not import (-EINVAL),
 * a closed fd is -EBADF; before KFD 1.12 there is no EXPORT_DMABUF. */
static void test_dmabuf(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g0 = t_gpu(kfd, 0);
	int pasid = t_pasid(emu, kfd);
	const struct kfdsig_kfd_bo *bo = NULL;
	abi_export_dmabuf_args ex = { 0 };
	struct kfd_ioctl_get_dmabuf_info_args info = { 0 };
	struct kfd_ioctl_import_dmabuf_args im = { 0 };
	struct kfd_ioctl_alloc_memory_of_gpu_args al = { 0 };
	struct kfd_ioctl_map_memory_to_gpu_args map = { 0 };
	void *va = mmap(NULL, 3 * 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t meta[64];
	uint32_t *view;
	int pipefd[2];

	char name[64];
	int other;

	/* named like the emulator's buffers but for its prefix */
	snprintf(name, sizeof(name), "not-a-dma-buf:%x:2", g0);
	other = memfd_create(name, MFD_CLOEXEC);

	T_REQUIRE(va != MAP_FAILED && !pipe(pipefd) && other >= 0 && !ftruncate(other, 8192),
		  "set-up");
	CHECK(kfdsig_kfd_acquire_vm(kfd, g0) == 0, "acquire vm");
	CHECK(kfdsig_kfd_alloc(kfd, g0, 8192, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) == 0, "alloc");
	T_REQUIRE(bo && bo->cpu, "bo");
	((volatile uint32_t *)bo->cpu)[1500] = 0xc0ffee;
	ex.handle = bo->handle + 5;
	ex.flags = O_CLOEXEC;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, KFDSIG_AMDKFD_IOC_EXPORT_DMABUF, &ex), -EINVAL,
		 "unknown handle");
	ex.handle = bo->handle;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, KFDSIG_AMDKFD_IOC_EXPORT_DMABUF, &ex), 0, "export");
	T_REQUIRE(fcntl((int)ex.dmabuf_fd, F_GETFD) == FD_CLOEXEC, "a close-on-exec fd");
	CHECK(kfdsig_kfd_free(kfd, bo) == 0, "free the exported buffer");

	info.dmabuf_fd = ex.dmabuf_fd;
	info.metadata_ptr = (uint64_t)(uintptr_t)meta;
	info.metadata_size = sizeof(meta);
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_GET_DMABUF_INFO, &info), 0, "info");
	CHECK_EQ(info.size, 8192, "size");
	CHECK_EQ(info.gpu_id, g0, "gpu");
	CHECK_EQ(info.flags, KFD_IOC_ALLOC_MEM_FLAGS_GTT, "GTT, no other flag");
	CHECK_EQ(info.metadata_size, 0, "no metadata");
	info.dmabuf_fd = (uint32_t)pipefd[0];
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_GET_DMABUF_INFO, &info), -EINVAL,
		 "a pipe is not a dma-buf");
	info.dmabuf_fd = (uint32_t)other;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_GET_DMABUF_INFO, &info), -EINVAL,
		 "another memfd is not a dma-buf");
	info.dmabuf_fd = 1000000;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_GET_DMABUF_INFO, &info), -EBADF, "closed fd");

	im.gpu_id = g0;
	im.va_addr = (uint64_t)(uintptr_t)va + 8192;
	im.dmabuf_fd = (uint32_t)pipefd[0];
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_IMPORT_DMABUF, &im), -EINVAL, "import a pipe");
	im.dmabuf_fd = ex.dmabuf_fd;
	im.gpu_id = 0x4242;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_IMPORT_DMABUF, &im), -EINVAL, "unknown gpu");
	im.gpu_id = g0;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_IMPORT_DMABUF, &im), 0, "import");
	CHECK(close((int)ex.dmabuf_fd) == 0, "close the dma-buf fd");
	map.handle = im.handle;
	map.device_ids_array_ptr = (uint64_t)(uintptr_t)&g0;
	map.n_devices = 1;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map), 0, "map the import");
	view = kfdsig_emu_gpu_ptr(emu, pasid, g0, im.va_addr + 4 * 1500, 4);
	CHECK(view && *view == 0xc0ffee, "the import holds the freed buffer's memory");

	/* USERPTR: -EPERM (amdgpu_gem_prime_export()) */
	al.va_addr = (uint64_t)(uintptr_t)va + 4 * 4096;
	al.mmap_offset = (uint64_t)(uintptr_t)va;
	al.size = 4096;
	al.gpu_id = g0;
	al.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), 0, "userptr");
	ex.handle = al.handle;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, KFDSIG_AMDKFD_IOC_EXPORT_DMABUF, &ex), -EPERM,
		 "userptr does not export");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);

	/* KFD 1.11: no EXPORT_DMABUF */
	emu = t_emu("gfx90a,kfd=1.11");
	kfd = t_open(emu);
	ex.handle = 0;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, KFDSIG_AMDKFD_IOC_EXPORT_DMABUF, &ex), -ENOTTY,
		 "no EXPORT_DMABUF before 1.12");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	close(pipefd[0]);
	close(pipefd[1]);
	close(other);
	munmap(va, 3 * 8192);
}

/* amdgpu_amdkfd_reserve_mem_limit(): USERPTR and GTT buffers together may
 * hold the system memory limit (RAM less its 16th), the next is -ENOMEM;
 * a freed one gives its share back. USERPTR buffers over one reserved
 * range of pages count whole each time, as in the kernel. */
static void test_system_memory_limit(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g0 = t_gpu(kfd, 0);
	struct kfd_ioctl_alloc_memory_of_gpu_args al = { 0 };
	struct kfd_ioctl_free_memory_of_gpu_args fr = { 0 };
	const uint64_t chunk = 1ull << 30;
	const struct kfdsig_kfd_bo *gtt = NULL;
	struct sysinfo si;
	uint64_t ram, limit, n = 0, first = 0;
	void *pages;
	int r;

	T_REQUIRE(!sysinfo(&si), "sysinfo");
	ram = (uint64_t)(si.totalram - si.totalhigh) * si.mem_unit;
	limit = ram - (ram >> 4);
	pages = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	T_REQUIRE(pages != MAP_FAILED, "reserve 1 GiB of address space");
	CHECK(kfdsig_kfd_acquire_vm(kfd, g0) == 0, "acquire vm");
	/* one GTT page first: it counts too */
	CHECK(kfdsig_kfd_alloc(kfd, g0, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &gtt) == 0, "GTT page");
	al.size = chunk;
	al.gpu_id = g0;
	al.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR;
	al.mmap_offset = (uint64_t)(uintptr_t)pages;
	for (;;) {
		al.va_addr = (1ull << 44) + n * chunk;
		r = kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al);
		if (r)
			break;
		if (!n)
			first = al.handle;
		n++;
		if (n > limit / chunk + 2)
			break;
	}
	CHECK_EQ(r, -ENOMEM, "past the limit: -ENOMEM");
	CHECK_EQ(n, (limit - 4096) / chunk, "GiB buffers held: the limit's (%llu MiB of RAM)",
		 (unsigned long long)(ram >> 20));
	fr.handle = first;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0, "free one");
	al.va_addr = (1ull << 44) + (n + 1) * chunk;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), 0,
		 "its share is back");
	al.va_addr += chunk;
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al), -ENOMEM,
		 "and no more");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	munmap(pages, chunk);
}

int main(void)
{
	test_alloc_map_free();
	test_kernel_errors();
	test_isolation();
	test_va_checked_at_map();
	test_dmabuf();
	test_system_memory_limit();
	return t_result("kfd_memory");
}
