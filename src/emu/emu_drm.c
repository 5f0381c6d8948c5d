/* SPDX-License-Identifier: MIT */
/*
 * The DRM ioctls of an emulated render node (/dev/dri/renderD<minor>):
 * what libdrm_amdgpu's amdgpu_device_initialize() and
 * amdgpu_query_gpu_info_init() send (libdrm amdgpu/amdgpu_device.c,
 * amdgpu_gpu_info.c) and what libhsakmt and ROCr then query:
 * DRM_IOCTL_VERSION and DRM_IOCTL_AMDGPU_INFO (ACCEL_WORKING, DEV_INFO,
 * READ_MMR_REG, FW_VERSION, HW_IP_INFO/COUNT, VRAM_GTT, MEMORY).
 *
 * Permissions and errnos follow drm_ioctl.c: drm_ioctl_permit() refuses
 * an ioctl without DRM_RENDER_ALLOW on a render node with -EACCES
 * (GET_CLIENT, GET_MAGIC, AUTH_MAGIC...), an unknown number is -EINVAL
 * (drm_ioctl: "retcode = -EINVAL" before the lookup), and an AMDGPU_INFO
 * query the driver does not know is -EINVAL (amdgpu_kms.c
 * amdgpu_info_ioctl "Invalid request").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include <libdrm/amdgpu_drm.h>

#include "drm/amdgpu_userq_abi.h"
#include "emu/emu_priv.h"

/* AMDGPU_FAMILY_* newer than Debian 12's libdrm header (kernel
 * include/uapi/drm/amdgpu_drm.h). */
#define EMU_FAMILY_GC_11_0_0 145
#define EMU_FAMILY_GC_11_0_1 148
#define EMU_FAMILY_GC_10_3_6 149
#define EMU_FAMILY_GC_11_5_0 150
#define EMU_FAMILY_GC_12_0_0 152
#define EMU_FAMILY_GC_11_5_4 154

/* The family the kernel assigns per chip (amdgpu_discovery.c
 * amdgpu_discovery_set_ip_blocks / asic_type for the pre-discovery
 * chips: vi.c, soc15.c, nv.c). */
static uint32_t family_of(const struct emu_gen *gen)
{
	switch (gen->gfxv) {
	case 80001:
		return AMDGPU_FAMILY_CZ;
	case 90002:
	case 90009:
	case 90012:
		return AMDGPU_FAMILY_RV;
	case 100303:
		return AMDGPU_FAMILY_VGH;
	case 100305:
		return AMDGPU_FAMILY_YC;
	case 100306:
		return EMU_FAMILY_GC_10_3_6;
	case 110003:
		return EMU_FAMILY_GC_11_0_1;
	default:
		break;
	}
	switch (gen->level) {
	case KFDSIG_GFX8:
		return AMDGPU_FAMILY_VI;
	case KFDSIG_GFX9:
		return AMDGPU_FAMILY_AI;
	case KFDSIG_GFX10:
	case KFDSIG_GFX10_3:
		return AMDGPU_FAMILY_NV;
	case KFDSIG_GFX11:
		/* GC 11.7.x: AMDGPU_FAMILY_GC_11_5_4 (amd-gfx, the patch of the
		 * GC 11.7 series that moves 11.7.0 / 11.7.1 off GC_11_5_0;
		 * amdgpu_drm.h gives it 154). */
		if (gen->gc[1] == 7)
			return EMU_FAMILY_GC_11_5_4;
		return gen->gc[1] >= 5 ? EMU_FAMILY_GC_11_5_0 : EMU_FAMILY_GC_11_0_0;
	case KFDSIG_GFX12:
	default:
		return EMU_FAMILY_GC_12_0_0;
	}
}

/* drm_copy_field(): copy at most *len bytes, report the full length. */
static int copy_field(char *buf, __kernel_size_t *len, const char *value)
{
	size_t n = strlen(value), c = n < *len ? n : *len;

	*len = n;
	if (c && !buf)
		return -EFAULT;
	if (c && emu_copy_to_user(buf, value, c))
		return -EFAULT;
	return 0;
}

/* drm_version(): the amdgpu KMS driver is 3.x (amdgpu_drv.c
 * KMS_DRIVER_MAJOR 3; libdrm refuses other majors). The minor is a
 * recent one (3.57, kernel 6.7); callers check it only for features. */
static int drm_version(struct drm_version *v)
{
	int r;

	v->version_major = 3;
	v->version_minor = 57;
	v->version_patchlevel = 0;
	if ((r = copy_field(v->name, &v->name_len, "amdgpu")) ||
	    (r = copy_field(v->date, &v->date_len, "20150101")) ||
	    (r = copy_field(v->desc, &v->desc_len, "AMD GPU")))
		return r;
	return 0;
}

static void dev_info(const struct emu_gpu *g, struct drm_amdgpu_info_device *d)
{
	const struct emu_product *pr = &g->prod;
	uint32_t se = pr->num_se, sh = pr->sh_per_se;
	uint32_t cus = g->simd_count / pr->simd_per_cu;
	uint32_t left = cus;

	memset(d, 0, sizeof(*d));
	d->device_id = g->device_id;
	/* amdgpu_kms.c AMDGPU_INFO_DEV_INFO: pci_rev is the PCI revision,
	 * which libdrm's amdgpu_get_marketing_name() looks up with the id */
	d->pci_rev = pr->revision;
	d->family = family_of(&g->gen);
	d->num_shader_engines = se;
	d->num_shader_arrays_per_engine = sh;
	d->gpu_counter_freq = KFDSIG_EMU_GPU_CLOCK_HZ / 1000; /* kHz */
	d->max_engine_clock = pr->sclk_mhz * 1000u;	      /* kHz */
	d->max_memory_clock = pr->mclk_mhz * 1000u;
	d->cu_active_number = cus;
	d->cu_ao_mask = 0xffffffff;
	/* the active CUs spread over the SAs; the 4x4 bitmap takes SE i,
	 * SA j at [i % 4][j + i / 4] (gfx_v9_0.c gfx_v9_0_get_cu_info(), for
	 * the 8x1 layouts) */
	for (uint32_t k = 0; k < se * sh; k++) {
		uint32_t per = (cus + se * sh - 1 - k) / (se * sh);
		uint32_t i = k / sh, j = k % sh;

		per = per > left ? left : per;
		left -= per;
		d->cu_bitmap[i % 4][(j + i / 4) % 4] = per >= 32 ? 0xffffffffu : (1u << per) - 1;
		d->cu_ao_bitmap[i % 4][(j + i / 4) % 4] = d->cu_bitmap[i % 4][(j + i / 4) % 4];
	}
	d->enabled_rb_pipes_mask = 0xffff;
	d->num_rb_pipes = 16;
	d->num_hw_gfx_contexts = 8;
	d->ids_flags = g->gen.apu ? AMDGPU_IDS_FLAGS_FUSION : 0;
	/* amdgpu_kms.c AMDGPU_INFO_DEV_INFO: virtual_address_offset is
	 * AMDGPU_VA_RESERVED_BOTTOM, max = min(vm_size, AMDGPU_GMC_HOLE_START),
	 * the high range from AMDGPU_GMC_HOLE_END when the VM is larger
	 * (48-bit from gfx9; gfx8 has a 40-bit VM, amdgpu_vm_adjust_size). */
	d->virtual_address_offset = 1ull << 21;
	if (g->gen.level == KFDSIG_GFX8) {
		d->virtual_address_max = 1ull << 40;
	} else {
		d->virtual_address_max = 0x0000800000000000ull;
		d->high_va_offset = 0xffff800000000000ull;
		d->high_va_max = 0xffff800000000000ull | (1ull << 48);
	}
	d->virtual_address_alignment = 4096;
	d->pte_fragment_size = 1u << 21;
	d->gart_page_size = 4096;
	d->vram_type = g->gen.apu ? AMDGPU_VRAM_TYPE_DDR4 : AMDGPU_VRAM_TYPE_GDDR6;
	d->vram_bit_width = pr->name ? pr->vram_width : g->gen.apu ? 128 : 256;
	d->wave_front_size = pr->wave_size;
	d->num_shader_visible_vgprs = 256;
	d->num_cu_per_sh = pr->cu_per_sh ? pr->cu_per_sh : cus / (se * sh);
	d->num_tcc_blocks = 16;
	d->gs_vgt_table_depth = 32;
	d->gs_prim_buffer_depth = 1792;
	d->max_gs_waves_per_vgt = 32;
}

/* Registers libdrm reads (amdgpu_gpu_info.c amdgpu_query_gpu_info_init:
 * GB_ADDR_CONFIG 0x263e; on gfx8 also CC_RB_BACKEND_DISABLE 0x263d per
 * SE, GB_TILE_MODE0..31 0x2644, GB_MACROTILE_MODE0..15 0x2664,
 * MC_ARB_RAMCFG 0x9d8 and PA_SC_RASTER_CONFIG(_1) 0xa0d4/0xa0d5). The
 * kernel reads only those on its allow list (vi.c vi_allowed_read_registers,
 * soc15.c, nv.c, soc21.c) and answers -EINVAL for others. gfx8's address
 * registers are the chip's (emu_tile.c, as GET_TILE_CONFIG reports them);
 * the rest plausible (0: no render backend disabled, raster config 0). */
static int read_reg(const struct emu_gpu *g, uint32_t reg, uint32_t *out)
{
	const struct emu_tile_config *tc = emu_tile_config(g->gen.gfxv);

	if (reg == 0x263e) {
		*out = tc ? tc->gb_addr_config : g->gen.gc[0] == 9 ? 0x2a114042 : 0x00000044;
		return 0;
	}
	if (!tc)
		return -EINVAL;
	if (reg >= 0x2644 && reg < 0x2644 + 32) {
		*out = tc->tile[reg - 0x2644];
		return 0;
	}
	if (reg >= 0x2664 && reg < 0x2664 + 16) {
		*out = tc->macro[reg - 0x2664];
		return 0;
	}
	if (reg == 0x9d8) {
		*out = tc->mc_arb_ramcfg;
		return 0;
	}
	if (reg == 0xa0d4 || reg == 0xa0d5 || reg == 0x263d) {
		*out = 0;
		return 0;
	}
	return -EINVAL;
}

static uint32_t fw_version(const struct emu_gpu *g, uint32_t type)
{
	switch (type) {
	case AMDGPU_INFO_FW_GFX_MEC:
		return g->mec_fw;
	case AMDGPU_INFO_FW_SDMA:
		return g->sdma_fw;
	default:
		return 0x100; /* present, plausible */
	}
}

static int amdgpu_info(struct kfdsig_emu *emu, const struct emu_gpu *g, struct drm_amdgpu_info *q)
{
	union {
		uint32_t u32[128];
		struct drm_amdgpu_info_device dev;
		struct kq_info_device kdev; /* the same, to userq_ip_mask */
		struct drm_amdgpu_info_hw_ip ip;
		struct drm_amdgpu_info_firmware fw;
		struct drm_amdgpu_info_vram_gtt vg;
		struct drm_amdgpu_memory_info mem;
	} out;
	void *dst = (void *)(uintptr_t)q->return_pointer;
	size_t n = 0;

	(void)emu;
	if (!q->return_size || !dst)
		return -EINVAL; /* amdgpu_info_ioctl: "if (!info->return_size || !info->return_pointer)" */
	memset(&out, 0, sizeof(out));
	switch (q->query) {
	case AMDGPU_INFO_ACCEL_WORKING:
		out.u32[0] = 1;
		n = 4;
		break;
	case AMDGPU_INFO_DEV_INFO:
		/* the whole structure of a kernel with user queues (6.16+):
		 * userq_ip_mask says which engines take them */
		dev_info(g, &out.dev);
		out.kdev.userq_ip_mask = emu_userq_ip_mask(g);
		n = sizeof(struct kq_info_device);
		break;
	case AMDGPU_INFO_HW_IP_COUNT:
	case AMDGPU_INFO_HW_IP_INFO: {
		uint32_t type = q->query_hw_ip.type, rings = 0;
		const uint8_t *ip = g->gen.gc;

		if (type >= AMDGPU_HW_IP_NUM)
			return -EINVAL;
		if (type == AMDGPU_HW_IP_GFX)
			rings = 1;
		else if (type == AMDGPU_HW_IP_COMPUTE)
			rings = 0xf;
		else if (type == AMDGPU_HW_IP_DMA)
			rings = (1u << g->num_sdma) - 1, ip = g->gen.sdma;
		/* user_queue=2 on the engines with user queues: no kernel
		 * GFX or compute rings (gfx_v11_0.c / gfx_v12_0.c
		 * *_early_init(): gfx.disable_kq, num_gfx_rings = 0), SDMA
		 * rings that take no user submission (sdma_v6_0.c /
		 * sdma_v7_0.c: no_user_submission); amdgpu_kms.c
		 * amdgpu_hw_ip_info() counts none of them */
		if (g->user_queue == 2 &&
		    (type == AMDGPU_HW_IP_DMA
			     ? g->gen.sdma[0] == 6 || (g->gen.sdma[0] == 7 && !g->gen.sdma[1])
			     : g->gen.gc[0] == 11 || (g->gen.gc[0] == 12 && !g->gen.gc[1])))
			rings = 0;
		if (q->query == AMDGPU_INFO_HW_IP_COUNT) {
			out.u32[0] = rings ? 1 : 0;
			n = 4;
			break;
		}
		if (q->query_hw_ip.ip_instance >= AMDGPU_HW_IP_INSTANCE_MAX_COUNT)
			return -EINVAL;
		if (rings) {
			out.ip.hw_ip_version_major = ip[0];
			out.ip.hw_ip_version_minor = ip[1];
			out.ip.ib_start_alignment = 32;
			out.ip.ib_size_alignment = 32;
			out.ip.available_rings = rings;
		}
		n = sizeof(out.ip);
		break;
	}
	case AMDGPU_INFO_FW_VERSION:
		out.fw.ver = fw_version(g, q->query_fw.fw_type);
		out.fw.feature = 0;
		n = sizeof(out.fw);
		break;
	case AMDGPU_INFO_READ_MMR_REG: {
		uint32_t cnt = q->read_mmr_reg.count;

		/* amdgpu_info_ioctl: at most 128 dwords */
		if (cnt > 128)
			return -EINVAL;
		for (uint32_t i = 0; i < cnt; i++) {
			int r = read_reg(g, q->read_mmr_reg.dword_offset + i, &out.u32[i]);
			if (r)
				return r;
		}
		n = cnt * 4;
		break;
	}
	case AMDGPU_INFO_VRAM_GTT:
		out.vg.vram_size = g->local_mem_size;
		out.vg.vram_cpu_accessible_size = g->local_mem_size;
		out.vg.gtt_size = 8ull << 30;
		n = sizeof(out.vg);
		break;
	case AMDGPU_INFO_MEMORY:
		out.mem.vram.total_heap_size = g->local_mem_size;
		out.mem.vram.usable_heap_size = g->local_mem_size;
		out.mem.vram.max_allocation = g->local_mem_size;
		out.mem.cpu_accessible_vram = out.mem.vram;
		out.mem.gtt.total_heap_size = 8ull << 30;
		out.mem.gtt.usable_heap_size = 8ull << 30;
		out.mem.gtt.max_allocation = 8ull << 30;
		n = sizeof(out.mem);
		break;
	case AMDGPU_INFO_VRAM_USAGE:
	case AMDGPU_INFO_VIS_VRAM_USAGE:
	case AMDGPU_INFO_GTT_USAGE:
		n = 8;
		break;
	case AMDGPU_INFO_RAS_ENABLED_FEATURES:
		/* amdgpu_kms.c amdgpu_info_ioctl(): -EINVAL without a RAS
		 * context (a product that enables no RAS block), else
		 * ras_enabled << 32 | features; the topology's RAS
		 * capability bits come from the same features
		 * (emu_sysfs_node_caps()). */
		if (!g->prod.ras_features)
			return -EINVAL;
		out.u32[0] = g->prod.ras_features;
		out.u32[1] = g->prod.ras_features;
		n = 8;
		break;
	default:
		return -EINVAL;
	}
	/* the kernel copies min(return_size, its size) */
	if (emu_copy_to_user(dst, &out, n < q->return_size ? n : q->return_size))
		return -EFAULT;
	return 0;
}

#define DRM_NR(x) _IOC_NR(x)

int emu_drm_ioctl(struct kfdsig_emu *emu, struct emu_gpu *g, unsigned long cmd, void *arg)
{
	unsigned nr = _IOC_NR(cmd);

	if (!arg && _IOC_SIZE(cmd))
		return -EFAULT;
	if (cmd == DRM_IOCTL_VERSION) {
		struct drm_version v;
		int r;

		if (emu_copy_from_user(&v, arg, sizeof(v)))
			return -EFAULT;
		r = drm_version(&v);
		if (emu_copy_to_user(arg, &v, sizeof(v)))
			return -EFAULT;
		return r;
	}
	if (nr == DRM_COMMAND_BASE + DRM_AMDGPU_INFO) {
		/* drm_ioctl copies min(user, kernel) size and zero-fills */
		struct drm_amdgpu_info q = { 0 };
		size_t us = _IOC_SIZE(cmd);
		if (emu_copy_from_user(&q, arg, us < sizeof(q) ? us : sizeof(q)))
			return -EFAULT;
		return amdgpu_info(emu, g, &q);
	}
	switch (nr) {
	case DRM_NR(DRM_IOCTL_GET_UNIQUE):
	case DRM_NR(DRM_IOCTL_GET_MAGIC):
	case DRM_NR(DRM_IOCTL_GET_MAP):
	case DRM_NR(DRM_IOCTL_GET_CLIENT):
	case DRM_NR(DRM_IOCTL_GET_STATS):
	case DRM_NR(DRM_IOCTL_SET_VERSION):
	case DRM_NR(DRM_IOCTL_AUTH_MAGIC):
	case DRM_NR(DRM_IOCTL_SET_MASTER):
	case DRM_NR(DRM_IOCTL_DROP_MASTER):
		return -EACCES; /* no DRM_RENDER_ALLOW */
	case DRM_COMMAND_BASE + DRM_AMDGPU_CTX:
	case DRM_COMMAND_BASE + DRM_AMDGPU_BO_LIST:
	case DRM_COMMAND_BASE + DRM_AMDGPU_CS:
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_VA:
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_USERPTR:
	case DRM_COMMAND_BASE + DRM_AMDGPU_VM:
	case DRM_NR(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE):
	case DRM_NR(DRM_IOCTL_SYNCOBJ_RESET):
	case DRM_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
	case DRM_NR(DRM_IOCTL_SYNCOBJ_QUERY):
	case DRM_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL):
	case DRM_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD):
	case DRM_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE):
		/* the kernel has them; the emulator does not (graphics
		 * submission, GEM objects other than doorbells, timeline and
		 * exported syncobjs are outside its model; emu_userq.c has
		 * the doorbell objects, user queues, syncobjs, TRANSFER and
		 * TIMELINE_WAIT) */
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}
