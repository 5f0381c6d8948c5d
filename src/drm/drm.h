/* SPDX-License-Identifier: MIT */
/*
 * Shim for <drm/drm.h>, which <linux/kfd_ioctl.h> includes. Debian ships
 * the kernel's DRM uapi header only as <libdrm/drm.h> (libdrm-dev), not as
 * <drm/drm.h>; src/ is on the include path, so this file stands in for it.
 */
#ifndef KFDSIG_DRM_DRM_H_SHIM
#define KFDSIG_DRM_DRM_H_SHIM
#if __has_include_next(<drm/drm.h>)
#include_next <drm/drm.h>
#else
#include <libdrm/drm.h>
#endif
#endif
