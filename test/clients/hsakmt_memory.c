/* SPDX-License-Identifier: MIT */
/*
 * Memory through libhsakmt: system memory, VRAM and a registered user
 * buffer (userptr), each allocated, mapped to the GPU, written and read
 * by the CPU where it is host-visible, unmapped and freed.
 */
#include <hsakmt.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "client.h"

static int kind(uint32_t node, HsaMemFlags f, const char *what)
{
	const HSAuint64 size = 1 << 20;
	HSAuint64 gpu_va = 0;
	void *p = NULL;

	REQUIRE(hsaKmtAllocMemory(node, size, f, &p) == HSAKMT_STATUS_SUCCESS && p, "%s alloc",
		what);
	REQUIRE(hsaKmtMapMemoryToGPU(p, size, &gpu_va) == HSAKMT_STATUS_SUCCESS, "%s map", what);
	/* libhsakmt maps its own allocations at their CPU address (one
	 * address space on a dGPU) and leaves gpu_va 0 for them */
	if (f.ui32.HostAccess) {
		memset(p, 0x5a, size);
		CHECK(((volatile uint8_t *)p)[size - 1] == 0x5a, "%s CPU access", what);
	}
	CHECK(hsaKmtUnmapMemoryToGPU(p) == HSAKMT_STATUS_SUCCESS, "%s unmap", what);
	CHECK(hsaKmtFreeMemory(p, size) == HSAKMT_STATUS_SUCCESS, "%s free", what);
	return 0;
}

int main(void)
{
	HsaSystemProperties sp;
	HsaNodeProperties np;
	HsaMemFlags sys = { 0 }, vram = { 0 };
	uint32_t gpu = 0;
	const size_t usize = 1 << 20;
	HSAuint64 gpu_va = 0;
	void *user;

	REQUIRE(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS, "open");
	REQUIRE(hsaKmtAcquireSystemProperties(&sp) == HSAKMT_STATUS_SUCCESS, "topology");
	for (uint32_t n = 0; n < sp.NumNodes; n++)
		if (hsaKmtGetNodeProperties(n, &np) == HSAKMT_STATUS_SUCCESS && np.NumFComputeCores)
			gpu = n;
	REQUIRE(gpu, "a GPU node");

	/* system memory (GTT), host-visible, from the CPU node */
	sys.ui32.PageSize = HSA_PAGE_SIZE_4KB;
	sys.ui32.HostAccess = 1;
	sys.ui32.NoSubstitute = 1;
	if (kind(0, sys, "system"))
		return 1;
	/* VRAM of the GPU node, not host-visible */
	vram.ui32.PageSize = HSA_PAGE_SIZE_4KB;
	vram.ui32.NonPaged = 1;
	vram.ui32.NoSubstitute = 1;
	if (kind(gpu, vram, "vram"))
		return 1;

	/* userptr: the process's own pages, registered then mapped */
	user = mmap(NULL, usize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(user != MAP_FAILED, "user buffer");
	memset(user, 0xa5, usize);
	REQUIRE(hsaKmtRegisterMemory(user, usize) == HSAKMT_STATUS_SUCCESS, "register");
	REQUIRE(hsaKmtMapMemoryToGPU(user, usize, &gpu_va) == HSAKMT_STATUS_SUCCESS, "userptr map");
	CHECK(gpu_va != 0, "userptr GPU address");
	CHECK(((uint8_t *)user)[usize / 2] == 0xa5, "userptr keeps the user's data");
	CHECK(hsaKmtUnmapMemoryToGPU(user) == HSAKMT_STATUS_SUCCESS, "userptr unmap");
	CHECK(hsaKmtDeregisterMemory(user) == HSAKMT_STATUS_SUCCESS, "deregister");
	munmap(user, usize);

	hsaKmtReleaseSystemProperties();
	CHECK(hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS, "close");
	return client_done("hsakmt_memory");
}
