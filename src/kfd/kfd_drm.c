/* SPDX-License-Identifier: MIT */
/*
 * Device details from the DRM driver through libdrm_amdgpu, on real
 * hardware only (the default ops' drm_info): GPU info, IP versions,
 * firmware versions and the marketing name, to cross-check the topology
 * and the generation table. The emulator answers from its description.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kfd/kfd_priv.h"

#ifndef KFDSIG_HAVE_LIBDRM
/* Built without libdrm_amdgpu (KFDSIG_WITH_LIBDRM=OFF): no DRM details;
 * the devices keep their topology names and versions. */
int kfd_linux_drm_info(void *ctx, int fd, struct kfdsig_drm_info *out)
{
	(void)ctx;
	(void)fd;
	memset(out, 0, sizeof(*out));
	return set_error(ENOTSUP, "built without libdrm_amdgpu (KFDSIG_WITH_LIBDRM=OFF)");
}
#else
#include <amdgpu.h>
#include <amdgpu_drm.h>

static uint32_t fw(amdgpu_device_handle dev, unsigned type, unsigned ip_instance)
{
	uint32_t version = 0, feature = 0;

	if (amdgpu_query_firmware_version(dev, type, ip_instance, 0, &version, &feature))
		return 0;
	return version;
}

int kfd_linux_drm_info(void *ctx, int fd, struct kfdsig_drm_info *out)
{
	struct drm_amdgpu_info_hw_ip ip;
	struct amdgpu_gpu_info info;
	amdgpu_device_handle dev;
	uint32_t major, minor;
	const char *name;
	int r;

	(void)ctx;
	memset(out, 0, sizeof(*out));
	r = amdgpu_device_initialize(fd, &major, &minor, &dev);
	if (r)
		return r < 0 ? r : -EIO;
	if (!amdgpu_query_gpu_info(dev, &info)) {
		out->family_id = info.family_id;
		out->chip_rev = info.chip_rev;
		out->chip_external_rev = info.chip_external_rev;
		out->device_id = info.asic_id;
	}
	memset(&ip, 0, sizeof(ip));
	if (!amdgpu_query_hw_ip_info(dev, AMDGPU_HW_IP_COMPUTE, 0, &ip)) {
		out->gc_ip[0] = ip.hw_ip_version_major;
		out->gc_ip[1] = ip.hw_ip_version_minor;
	}
	memset(&ip, 0, sizeof(ip));
	if (!amdgpu_query_hw_ip_info(dev, AMDGPU_HW_IP_DMA, 0, &ip)) {
		out->sdma_ip[0] = ip.hw_ip_version_major;
		out->sdma_ip[1] = ip.hw_ip_version_minor;
		out->num_sdma_rings = (uint32_t)__builtin_popcount(ip.available_rings);
	}
	out->mec_fw_version = fw(dev, AMDGPU_INFO_FW_GFX_MEC, 0);
	out->sdma_fw_version = fw(dev, AMDGPU_INFO_FW_SDMA, 0);
	out->me_fw_version = fw(dev, AMDGPU_INFO_FW_GFX_ME, 0);
	out->pfp_fw_version = fw(dev, AMDGPU_INFO_FW_GFX_PFP, 0);
	out->rlc_fw_version = fw(dev, AMDGPU_INFO_FW_GFX_RLC, 0);
	name = amdgpu_get_marketing_name(dev);
	snprintf(out->marketing_name, sizeof(out->marketing_name), "%s", name ? name : "");
	amdgpu_device_deinitialize(dev);
	return 0;
}
#endif
