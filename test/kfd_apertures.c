/* SPDX-License-Identifier: MIT */
/*
 * kfdsig_kfd_apertures(): a GPU's apertures as GET_PROCESS_APERTURES_NEW
 * lists them, on a GFX9 and a GFX8 node of one emulated KFD; and
 * kfdsig_pm4_implicit_args() writing their high halves into
 * hidden_private_base and hidden_shared_base.
 */
#include <stdlib.h>
#include <string.h>

#include <kfdsig/pm4.h>

#include "abi/kfd_ioctl.h"

#include "kfd_util.h"

/* The kernel's own ranges (kfd_flat_memory.c): GFX9+ puts LDS at 1 << 48
 * and scratch at 2 << 48 (MAKE_LDS_APP_BASE_V9, MAKE_SCRATCH_APP_BASE_V9);
 * GFX8 puts them above 1 << 61 (MAKE_LDS_APP_BASE_VI: 1 << 61,
 * MAKE_SCRATCH_APP_BASE_VI: (1 << 61) + 4 GiB). */
static void check_node(struct kfdsig_kfd *kfd, uint32_t gpu, uint64_t lds, uint64_t scratch,
		       const struct kfd_process_device_apertures *raw)
{
	struct kfdsig_apertures ap;

	memset(&ap, 0xa5, sizeof(ap));
	CHECK_EQ(kfdsig_kfd_apertures(kfd, gpu, &ap), 0, "apertures of 0x%x", gpu);
	CHECK_EQ(ap.lds_base, lds, "LDS base of 0x%x", gpu);
	CHECK_EQ(ap.scratch_base, scratch, "scratch base of 0x%x", gpu);
	CHECK(ap.lds_limit > ap.lds_base && ap.scratch_limit > ap.scratch_base &&
		      ap.gpuvm_limit > ap.gpuvm_base,
	      "limits above bases");
	CHECK(raw && ap.lds_base == raw->lds_base && ap.lds_limit == raw->lds_limit &&
		      ap.scratch_base == raw->scratch_base &&
		      ap.scratch_limit == raw->scratch_limit && ap.gpuvm_base == raw->gpuvm_base &&
		      ap.gpuvm_limit == raw->gpuvm_limit,
	      "the ioctl's entry for 0x%x, field for field", gpu);
}

static const struct kfd_process_device_apertures *
find(const struct kfd_process_device_apertures *pa, uint32_t n, uint32_t gpu)
{
	for (uint32_t i = 0; i < n; i++)
		if (pa[i].gpu_id == gpu)
			return &pa[i];
	return NULL;
}

static void test_query(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,gfx803");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g9 = t_gpu(kfd, 0), g8 = t_gpu(kfd, 1);
	struct kfd_process_device_apertures pa[4];
	struct kfd_ioctl_get_process_apertures_new_args a = {
		.kfd_process_device_apertures_ptr = (uint64_t)(uintptr_t)pa,
		.num_of_nodes = 4,
	};
	struct kfdsig_apertures ap;

	memset(pa, 0, sizeof(pa));
	T_REQUIRE(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &a) == 0,
		  "raw GET_PROCESS_APERTURES_NEW");
	check_node(kfd, g9, 1ull << 48, 2ull << 48, find(pa, a.num_of_nodes, g9));
	check_node(kfd, g8, 1ull << 61, (1ull << 61) + (1ull << 32), find(pa, a.num_of_nodes, g8));
	CHECK_EQ(kfdsig_kfd_apertures(kfd, 0x1234, &ap), -ENOENT, "unknown gpu_id");
	CHECK_EQ(kfdsig_kfd_apertures(kfd, g9, NULL), -EINVAL, "no output");
	CHECK_EQ(kfdsig_kfd_apertures(NULL, g9, &ap), -EINVAL, "no handle");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_implicit_args(void)
{
	uint8_t ia[256];
	uint32_t v;
	KFDSIG_OPTS(kfdsig_pm4_kernel, k, .grid = { 64, 1, 1 }, .workgroup = { 64, 1, 1 },
		    .private_aperture = (1ull << 61) + (1ull << 32), .shared_aperture = 1ull << 61);

	memset(ia, 0xee, sizeof(ia));
	CHECK_EQ(kfdsig_pm4_implicit_args(&k, ia, sizeof(ia)), 0, "with apertures");
	memcpy(&v, ia + KFDSIG_IMPLICIT_PRIVATE_BASE, 4);
	CHECK_EQ(v, 0x20000001u, "hidden_private_base: the high half");
	memcpy(&v, ia + KFDSIG_IMPLICIT_SHARED_BASE, 4);
	CHECK_EQ(v, 0x20000000u, "hidden_shared_base: the high half");
	CHECK(ia[KFDSIG_IMPLICIT_SHARED_BASE + 4] == 0xee &&
		      ia[KFDSIG_IMPLICIT_PRIVATE_BASE - 1] == 0xee,
	      "nothing around them written");
	CHECK_EQ(kfdsig_pm4_implicit_args(&k, ia, KFDSIG_IMPLICIT_ARGS_APERTURE_BYTES - 1), -EINVAL,
		 "too short for the aperture bases");
	/* without apertures the dispatch part alone, as before */
	k.private_aperture = k.shared_aperture = 0;
	memset(ia, 0xee, sizeof(ia));
	CHECK_EQ(kfdsig_pm4_implicit_args(&k, ia, KFDSIG_IMPLICIT_ARGS_DISPATCH_BYTES), 0,
		 "without apertures");
	CHECK(ia[KFDSIG_IMPLICIT_PRIVATE_BASE] == 0xee, "aperture bytes untouched");
}

int main(void)
{
	test_query();
	test_implicit_args();
	return t_result("kfd_apertures");
}
