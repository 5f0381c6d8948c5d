/* SPDX-License-Identifier: MIT */
/*
 * The amdgpu user-mode queue ioctls (DRM_AMDGPU_USERQ 0x16, USERQ_SIGNAL
 * 0x17, USERQ_WAIT 0x18) and the device-info layout that reports which
 * engines take user queues, as the kernel's uapi
 * include/uapi/drm/amdgpu_drm.h defines them (Linux 6.16 and later).
 * Debian's libdrm (2.4.114) predates them, so kfdsig states the ABI itself
 * under its own names; sizes are checked below.
 */
#ifndef KFDSIG_DRM_AMDGPU_USERQ_ABI_H
#define KFDSIG_DRM_AMDGPU_USERQ_ABI_H

#include <stdint.h>

#include <drm/drm.h>

/* Command numbers after DRM_COMMAND_BASE. */
#define KQ_DRM_AMDGPU_INFO 0x05
#define KQ_DRM_AMDGPU_USERQ 0x16
#define KQ_DRM_AMDGPU_USERQ_SIGNAL 0x17
#define KQ_DRM_AMDGPU_USERQ_WAIT 0x18

/* DRM_AMDGPU_USERQ operations. */
#define KQ_USERQ_OP_CREATE 1
#define KQ_USERQ_OP_FREE 2

/* AMDGPU_HW_IP_* */
#define KQ_HW_IP_GFX 0
#define KQ_HW_IP_COMPUTE 1
#define KQ_HW_IP_DMA 2

/* AMDGPU_INFO_DEV_INFO */
#define KQ_INFO_DEV_INFO 0x16

/* DRM_AMDGPU_USERQ input (create: all but queue_id; free: queue_id). */
struct kq_userq_in {
	uint32_t op;
	uint32_t queue_id;
	uint32_t ip_type;
	uint32_t doorbell_handle; /* GEM handle of the doorbell BO */
	uint32_t doorbell_offset; /* the queue's doorbell in that BO */
	uint32_t flags;		  /* priority [1:0], secure bit 2 */
	uint64_t queue_va;	  /* ring, 256-byte aligned size */
	uint64_t queue_size;
	uint64_t rptr_va; /* 8 bytes, 8-byte aligned */
	uint64_t wptr_va;
	uint64_t mqd;	   /* user pointer to the IP's MQD inputs */
	uint64_t mqd_size; /* their size */
};

struct kq_userq_out {
	uint32_t queue_id;
	uint32_t pad;
};

union kq_userq {
	struct kq_userq_in in;
	struct kq_userq_out out;
};

/* MQD inputs per engine (drm_amdgpu_userq_mqd_*_gfx11, also for GFX12). */
struct kq_userq_mqd_gfx11 {
	uint64_t shadow_va;
	uint64_t csa_va;
};
struct kq_userq_mqd_compute_gfx11 {
	uint64_t eop_va;
};
struct kq_userq_mqd_sdma_gfx11 {
	uint64_t csa_va;
};

struct kq_userq_signal {
	uint32_t queue_id;
	uint32_t pad;
	uint64_t syncobj_handles; /* user pointer to uint32_t handles */
	uint64_t num_syncobj_handles;
	uint64_t bo_read_handles;
	uint64_t bo_write_handles;
	uint32_t num_bo_read_handles;
	uint32_t num_bo_write_handles;
};

struct kq_userq_fence_info {
	uint64_t va;
	uint64_t value;
};

struct kq_userq_wait {
	uint32_t waitq_id;
	uint32_t pad;
	uint64_t syncobj_handles;
	uint64_t syncobj_timeline_handles;
	uint64_t syncobj_timeline_points;
	uint64_t bo_read_handles;
	uint64_t bo_write_handles;
	uint16_t num_syncobj_timeline_handles;
	uint16_t num_fences; /* in: room in out_fences; out: fences returned */
	uint32_t num_syncobj_handles;
	uint32_t num_bo_read_handles;
	uint32_t num_bo_write_handles;
	uint64_t out_fences; /* user pointer to struct kq_userq_fence_info */
};

/* struct drm_amdgpu_info (the DEV_INFO query uses none of the union). */
struct kq_info {
	uint64_t return_pointer;
	uint32_t return_size;
	uint32_t query;
	uint32_t u[4];
};

/*
 * struct drm_amdgpu_info_device, field by field, up to userq_ip_mask
 * (1 << AMDGPU_HW_IP_* for each engine that takes user queues; 0 from a
 * kernel without them, which also writes fewer bytes: the rest stays 0).
 */
struct kq_info_device {
	uint32_t device_id, chip_rev, external_rev, pci_rev, family;
	uint32_t num_shader_engines, num_shader_arrays_per_engine, gpu_counter_freq;
	uint64_t max_engine_clock, max_memory_clock;
	uint32_t cu_active_number, cu_ao_mask, cu_bitmap[4][4];
	uint32_t enabled_rb_pipes_mask, num_rb_pipes, num_hw_gfx_contexts, pcie_gen;
	uint64_t ids_flags, virtual_address_offset, virtual_address_max;
	uint32_t virtual_address_alignment, pte_fragment_size, gart_page_size, ce_ram_size;
	uint32_t vram_type, vram_bit_width, vce_harvest_config, gc_double_offchip_lds_buf;
	uint64_t prim_buf_gpu_addr, pos_buf_gpu_addr, cntl_sb_buf_gpu_addr, param_buf_gpu_addr;
	uint32_t prim_buf_size, pos_buf_size, cntl_sb_buf_size, param_buf_size;
	uint32_t wave_front_size, num_shader_visible_vgprs, num_cu_per_sh, num_tcc_blocks;
	uint32_t gs_vgt_table_depth, gs_prim_buffer_depth, max_gs_waves_per_vgt, pcie_num_lanes;
	uint32_t cu_ao_bitmap[4][4];
	uint64_t high_va_offset, high_va_max;
	uint32_t pa_sc_tile_steering_override;
	uint64_t tcc_disabled_mask, min_engine_clock, min_memory_clock;
	uint32_t tcp_cache_size, num_sqc_per_wgp, sqc_data_cache_size, sqc_inst_cache_size;
	uint32_t gl1c_cache_size, gl2c_cache_size;
	uint64_t mall_size;
	uint32_t enabled_rb_pipes_mask_hi, shadow_size, shadow_alignment, csa_size, csa_alignment;
	uint32_t userq_ip_mask, pad;
};

/* The uapi sizes (x86-64 and every LP64 ABI the kernel builds for). */
_Static_assert(sizeof(struct kq_userq_in) == 72, "drm_amdgpu_userq_in");
_Static_assert(sizeof(struct kq_userq_signal) == 48, "drm_amdgpu_userq_signal");
_Static_assert(sizeof(struct kq_userq_wait) == 72, "drm_amdgpu_userq_wait");
_Static_assert(sizeof(struct kq_info) == 32, "drm_amdgpu_info");

#define KQ_IOCTL_INFO DRM_IOW(DRM_COMMAND_BASE + KQ_DRM_AMDGPU_INFO, struct kq_info)
#define KQ_IOCTL_USERQ DRM_IOWR(DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ, union kq_userq)
#define KQ_IOCTL_USERQ_SIGNAL \
	DRM_IOWR(DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ_SIGNAL, struct kq_userq_signal)
#define KQ_IOCTL_USERQ_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + KQ_DRM_AMDGPU_USERQ_WAIT, struct kq_userq_wait)

#endif
