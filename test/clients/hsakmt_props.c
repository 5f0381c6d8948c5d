/* SPDX-License-Identifier: MIT */
/*
 * System and node properties as libhsakmt reads them from the topology
 * must agree with what `kfdsig devices` reports for the same emulated
 * GPU (run-client.sh passes those values, taken from its JSON):
 *   hsakmt_props GPU_ID DEVICE_ID SIMD_COUNT GFX_VERSION RENDER_MINOR
 *                NUM_SDMA NUM_SDMA_XGMI MEC_FW LOCAL_MEM_SIZE
 */
#include <hsakmt.h>
#include <string.h>

#include "client.h"

int main(int argc, char **argv)
{
	unsigned long long want[9];
	HsaSystemProperties sp;
	HsaNodeProperties np;
	HsaMemoryProperties mem[16];
	HsaCacheProperties cache[8];
	HsaIoLinkProperties link[8];
	uint32_t gpu_node = 0;
	uint64_t vram = 0;

	REQUIRE(argc == 10, "usage: %s GPU_ID DEVICE_ID SIMD GFX MINOR SDMA XGMI FW MEM", argv[0]);
	for (int i = 0; i < 9; i++)
		want[i] = strtoull(argv[i + 1], NULL, 0);
	REQUIRE(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS, "open");
	REQUIRE(hsaKmtAcquireSystemProperties(&sp) == HSAKMT_STATUS_SUCCESS, "system properties");
	CHECK(sp.NumNodes == 2, "one CPU and one GPU node, got %u", sp.NumNodes);
	for (uint32_t n = 0; n < sp.NumNodes; n++) {
		REQUIRE(hsaKmtGetNodeProperties(n, &np) == HSAKMT_STATUS_SUCCESS, "node %u", n);
		if (np.NumFComputeCores)
			gpu_node = n;
		else
			CHECK(np.NumCPUCores > 0 && np.NumFComputeCores == 0, "node %u is the CPU",
			      n);
	}
	REQUIRE(gpu_node, "a GPU node");
	REQUIRE(hsaKmtGetNodeProperties(gpu_node, &np) == HSAKMT_STATUS_SUCCESS, "GPU node");
	/* libhsakmt 5.2 keeps gpu_id to itself; the location carries the
	 * node's identity instead (location_id = bus << 8) */
	CHECK(np.LocationId != 0 && want[0] != 0, "location 0x%x", np.LocationId);
	CHECK(np.DeviceId == want[1], "device id 0x%x, devices says 0x%llx", np.DeviceId, want[1]);
	CHECK(np.VendorId == 0x1002, "vendor 0x%x", np.VendorId);
	CHECK(np.NumFComputeCores == want[2], "simd_count %u vs %llu", np.NumFComputeCores,
	      want[2]);
	CHECK((unsigned long long)np.EngineId.ui32.Major * 10000 + np.EngineId.ui32.Minor * 100 +
			      np.EngineId.ui32.Stepping ==
		      want[3],
	      "gfx %u.%u.%u vs %llu", np.EngineId.ui32.Major, np.EngineId.ui32.Minor,
	      np.EngineId.ui32.Stepping, want[3]);
	CHECK(np.DrmRenderMinor == (int32_t)want[4], "render minor %d vs %llu", np.DrmRenderMinor,
	      want[4]);
	CHECK(np.NumSdmaEngines == want[5], "sdma %u vs %llu", np.NumSdmaEngines, want[5]);
	CHECK(np.NumSdmaXgmiEngines == want[6], "xgmi sdma %u vs %llu", np.NumSdmaXgmiEngines,
	      want[6]);
	/* HSA_ENGINE_ID.uCode is a 10-bit field (hsakmttypes.h) */
	CHECK(np.EngineId.ui32.uCode == (want[7] & 0x3ff), "MEC firmware %u vs %llu",
	      np.EngineId.ui32.uCode, want[7]);
	CHECK(np.NumCaches >= 1 && np.NumCaches <= 8, "caches %u", np.NumCaches);
	CHECK(np.NumIOLinks >= 1 && np.NumIOLinks <= 8, "io links %u", np.NumIOLinks);
	CHECK(np.NumMemoryBanks <= 16, "banks %u", np.NumMemoryBanks);

	/* the VRAM bank(s) add up to what devices reports */
	if (np.NumMemoryBanks <= 16 && hsaKmtGetNodeMemoryProperties(gpu_node, np.NumMemoryBanks,
								     mem) == HSAKMT_STATUS_SUCCESS)
		for (uint32_t i = 0; i < np.NumMemoryBanks; i++)
			if (mem[i].HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC ||
			    mem[i].HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PRIVATE)
				vram += mem[i].SizeInBytes;
	CHECK(vram == want[8], "VRAM %llu vs %llu", (unsigned long long)vram, want[8]);
	if (np.NumCaches <= 8)
		CHECK(hsaKmtGetNodeCacheProperties(gpu_node, np.CComputeIdLo, np.NumCaches,
						   cache) == HSAKMT_STATUS_SUCCESS,
		      "caches");
	if (np.NumIOLinks <= 8) {
		CHECK(hsaKmtGetNodeIoLinkProperties(gpu_node, np.NumIOLinks, link) ==
			      HSAKMT_STATUS_SUCCESS,
		      "io links");
		CHECK(link[0].NodeFrom == gpu_node && link[0].NodeTo == 0, "GPU -> CPU link %u->%u",
		      link[0].NodeFrom, link[0].NodeTo);
	}
	hsaKmtReleaseSystemProperties();
	hsaKmtCloseKFD();
	return client_done("hsakmt_props");
}
