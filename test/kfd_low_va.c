/* SPDX-License-Identifier: MIT */
/*
 * Buffers of a process with a gfx8 GPU stay below 2^40 (gmc_v8_0.c: a
 * 40-bit GPUVM), and address space freed there is found again: the
 * backend's search for a free range starts where the last one ended, then
 * comes back to the bottom once. Without that second pass a process that
 * keeps allocating and freeing (queues, buffers) runs out of low address
 * space, soon under AddressSanitizer, whose shadow leaves 1-2 GiB free.
 * And the first pass crosses such a wide taken range in a few dozen
 * mmap calls, not one per slot up to 2^40: here an mmap wrapper plays
 * the shadow (every fixed request between 2 GiB and 2^40 is taken) and
 * counts the calls of one allocation made with the hint at 2 GiB.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>

#include "kfd/kfd_priv.h"
#include "kfd_util.h"

#define SIZE (1u << 20)
#define SHADOW_LO (1ull << 31)

static int (*real_mmap)(void *, void **, void *, size_t, int, int, int, uint64_t);
static unsigned mmap_calls;

static int shadow_mmap(void *ctx, void **out, void *addr, size_t len, int prot, int flags, int fd,
		       uint64_t off)
{
	uint64_t a = (uint64_t)(uintptr_t)addr;

	mmap_calls++;
	if ((flags & MAP_FIXED_NOREPLACE) && a + len > SHADOW_LO && a < (1ull << 40))
		return -EEXIST;
	return real_mmap(ctx, out, addr, len, prot, flags, fd, off);
}

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

	/* the hint at the top of the window below a "shadow" up to 2^40 */
	real_mmap = kfd->ops_buf.mmap;
	kfd->ops_buf.mmap = shadow_mmap;
	kfd->low_va = SHADOW_LO - SIZE / 2;
	mmap_calls = 0;
	bo = NULL;
	CHECK(kfdsig_kfd_alloc(kfd, g, SIZE, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) == 0,
	      "alloc with the hint at the shadow: %s", kfdsig_last_error());
	if (bo) {
		CHECK(bo->va + SIZE <= SHADOW_LO, "found at 0x%llx, below the shadow",
		      (unsigned long long)bo->va);
		kfdsig_kfd_free(kfd, bo);
	}
	/* 1 probe, about 16 + 10 taken slots to 2^40, a few from 1 GiB,
	 * then the buffer's own mapping */
	CHECK(mmap_calls <= 100, "%u mmap calls to cross the shadow (at most 100)", mmap_calls);
	kfd->ops_buf.mmap = real_mmap;

	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	return t_result("kfd_low_va");
}
