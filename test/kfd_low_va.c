/* SPDX-License-Identifier: MIT */
/*
 * Buffers of a process with a gfx8 GPU stay below 2^40 (gmc_v8_0.c: a
 * 40-bit GPUVM), and address space freed there is found again: the
 * backend's search for a free range starts where the last one ended, then
 * comes back to the bottom once. Without that second pass a process that
 * keeps allocating and freeing (queues, buffers) runs out of low address
 * space, soon under AddressSanitizer, whose shadow leaves 1-2 GiB free.
 */
#include "kfd/kfd_priv.h"
#include "kfd_util.h"

#define SIZE (1u << 20)

int main(void)
{
	struct kfdsig_emu *emu = t_emu("gfx803");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g = t_gpu(kfd, 0);
	const struct kfdsig_kfd_bo *bo = NULL;
	uint64_t first;

	T_REQUIRE(kfdsig_kfd_acquire_vm(kfd, g) == 0, "acquire vm");
	T_REQUIRE(kfdsig_kfd_alloc(kfd, g, SIZE, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) == 0,
		  "alloc: %s", kfdsig_last_error());
	first = bo->va;
	CHECK(first + SIZE <= 1ull << 40, "gfx8 buffer at 0x%llx, below 2^40",
	      (unsigned long long)first);
	CHECK(kfdsig_kfd_free(kfd, bo) == 0, "free");

	/* as after a long run: the next search starts at the top of the range */
	kfd->low_va = (1ull << 40) - SIZE / 2;
	bo = NULL;
	CHECK(kfdsig_kfd_alloc(kfd, g, SIZE, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) == 0,
	      "alloc once the hint is at the top: %s", kfdsig_last_error());
	if (bo) {
		CHECK(bo->va + SIZE <= 1ull << 40, "reused space at 0x%llx, below 2^40",
		      (unsigned long long)bo->va);
		CHECK(kfd->low_va > bo->va, "the hint moves past the buffer found");
		kfdsig_kfd_free(kfd, bo);
	}
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	return t_result("kfd_low_va");
}
