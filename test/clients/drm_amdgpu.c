/* SPDX-License-Identifier: MIT */
/*
 * The render node through libdrm_amdgpu, as libhsakmt and ROCr use it:
 * amdgpu_device_initialize (DRM_IOCTL_VERSION, AMDGPU_INFO ACCEL_WORKING,
 * DEV_INFO, READ_MMR_REG), then the queries runtimes make (HW_IP_INFO,
 * FW_VERSION, VRAM_GTT), compared with `kfdsig devices`; and the DRM
 * core's permission rules on a render node.
 *   drm_amdgpu GPU_ID DEVICE_ID SIMD_COUNT GFX_VERSION RENDER_MINOR
 *              NUM_SDMA NUM_SDMA_XGMI MEC_FW LOCAL_MEM_SIZE
 */
#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <xf86drm.h>

#include "client.h"

int main(int argc, char **argv)
{
	unsigned long long want[9];
	amdgpu_device_handle dev;
	struct amdgpu_gpu_info gi;
	struct drm_amdgpu_info_hw_ip ip;
	struct amdgpu_heap_info heap;
	drm_client_t client = { 0 };
	uint32_t major, minor, ver = 0, feat = 0;
	char path[64];
	int fd;

	REQUIRE(argc == 10, "usage: %s GPU_ID DEVICE_ID SIMD GFX MINOR SDMA XGMI FW MEM", argv[0]);
	for (int i = 0; i < 9; i++)
		want[i] = strtoull(argv[i + 1], NULL, 0);
	snprintf(path, sizeof(path), "/dev/dri/renderD%llu", want[4]);
	fd = open(path, O_RDWR | O_CLOEXEC);
	REQUIRE(fd >= 0, "open %s", path);
	CHECK(drmGetNodeTypeFromFd(fd) == DRM_NODE_RENDER, "a render node");
	REQUIRE(amdgpu_device_initialize(fd, &major, &minor, &dev) == 0,
		"amdgpu_device_initialize");
	CHECK(major == 3, "amdgpu KMS major %u", major);
	REQUIRE(amdgpu_query_gpu_info(dev, &gi) == 0, "gpu info");
	CHECK(gi.asic_id == want[1], "asic id 0x%x vs 0x%llx", gi.asic_id, want[1]);
	CHECK(gi.family_id >= AMDGPU_FAMILY_VI, "family %u", gi.family_id);
	CHECK(amdgpu_query_hw_ip_info(dev, AMDGPU_HW_IP_COMPUTE, 0, &ip) == 0, "compute IP");
	CHECK(ip.hw_ip_version_major == want[3] / 10000, "GC major %u for gfx %llu",
	      ip.hw_ip_version_major, want[3]);
	CHECK(ip.available_rings != 0, "compute rings");
	CHECK(amdgpu_query_hw_ip_info(dev, AMDGPU_HW_IP_DMA, 0, &ip) == 0, "SDMA IP");
	CHECK(__builtin_popcount(ip.available_rings) == (int)want[5], "SDMA rings 0x%x vs %llu",
	      ip.available_rings, want[5]);
	CHECK(amdgpu_query_firmware_version(dev, AMDGPU_INFO_FW_GFX_MEC, 0, 0, &ver, &feat) == 0,
	      "MEC firmware");
	CHECK(ver == want[7], "MEC firmware %u vs %llu", ver, want[7]);
	CHECK(amdgpu_query_heap_info(dev, AMDGPU_GEM_DOMAIN_VRAM, 0, &heap) == 0, "VRAM heap");
	CHECK(heap.heap_size == want[8], "VRAM %llu vs %llu", (unsigned long long)heap.heap_size,
	      want[8]);
	/* drm_ioctl_permit: no DRM_RENDER_ALLOW, -EACCES on a render node */
	CHECK(drmIoctl(fd, DRM_IOCTL_GET_CLIENT, &client) == -1 && errno == EACCES,
	      "GET_CLIENT on a render node: errno %d", errno);
	amdgpu_device_deinitialize(dev);
	close(fd);
	return client_done("drm_amdgpu");
}
