/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's sysfs: a directory that mirrors /sys ("/sys/<rest>"
 * is "<root>/<rest>"), holding what KFD clients read before they open
 * /dev/kfd:
 *
 *   devices/virtual/kfd/kfd/topology/{generation_id,system_properties}
 *   devices/virtual/kfd/kfd/topology/nodes/N/{gpu_id,name,properties}
 *   devices/virtual/kfd/kfd/topology/nodes/N/{mem_banks,caches,io_links}/M/properties
 *   class/kfd/kfd -> ../../devices/virtual/kfd/kfd
 *   devices/pci0000:00/0000:BB:00.0/{vendor,device,...,uevent,drm/renderDN}
 *   dev/char/226:N and class/drm/renderDN -> .../drm/renderDN
 *
 * libhsakmt reads the topology at the devices/virtual path
 * (ROCT-Thunk-Interface src/topology.c KFD_SYSFS_PATH_*), kfdsig's own
 * backend at class/kfd/kfd/topology; libdrm's drmGetNodeTypeFromFd and
 * drmGetDevice look under /sys/dev/char/226:N/device (xf86drm.c
 * drmNodeIsDRM, drmParseSubsystemType, drmParsePciBusInfo).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "emu/emu_priv.h"

/* PCI device ids per gfx_target_version. libhsakmt 5.2.3 looks the
 * device id up in its gfxip_lookup_table (src/topology.c
 * find_hsa_gfxip_device) before it falls back to gfx_target_version, so
 * each id here is one the kernel's amdgpu_drv.c pciidlist binds to that
 * chip; where the Debian 5.2.3 table has the chip, the id is one of its
 * entries (checked against the binary's table). Ids of chips found by IP
 * discovery (GC 9.4.3+, 11, 12) come from libdrm's data/amdgpu.ids;
 * 5.2.3 does not know them and uses gfx_target_version. */
static const struct {
	uint32_t gfx_target_version;
	uint16_t device_id;
} pci_ids[] = {
	{ 80001, 0x9874 },  /* Carrizo */
	{ 80002, 0x6939 },  /* Tonga */
	{ 80003, 0x67df },  /* Polaris10 (RX 480/580) */
	{ 90000, 0x687f },  /* Vega10 (RX Vega) */
	{ 90002, 0x15dd },  /* Raven */
	{ 90004, 0x69af },  /* Vega12 */
	{ 90006, 0x66a1 },  /* Vega20 (MI50/MI60) */
	{ 90008, 0x738c },  /* Arcturus (MI100) */
	{ 90009, 0x15d8 },  /* Raven2/Picasso: 5.2.3's table says 9.0.2 */
	{ 90010, 0x740c },  /* Aldebaran (MI250X) */
	{ 90012, 0x1636 },  /* Renoir */
	{ 90400, 0x74a0 },  /* MI300A */
	{ 90401, 0x74a1 },  /* MI300X (early) */
	{ 90402, 0x74a1 },  /* MI300X */
	{ 90500, 0x75a0 },  /* MI350X */
	{ 100100, 0x731f }, /* Navi10 (RX 5700 XT) */
	{ 100101, 0x7360 }, /* Navi12 */
	{ 100102, 0x7340 }, /* Navi14 */
	{ 100300, 0x73bf }, /* Navi21 (RX 6800/6900) */
	{ 100301, 0x73df }, /* Navi22 (RX 6700 XT) */
	{ 100302, 0x73ff }, /* Navi23 (RX 6600) */
	{ 100303, 0x163f }, /* Van Gogh */
	{ 100304, 0x743f }, /* Navi24 (RX 6500) */
	{ 100305, 0x1681 }, /* Rembrandt */
	{ 100306, 0x164e }, /* Raphael */
	{ 110000, 0x744c }, /* Navi31 (RX 7900 XTX) */
	{ 110001, 0x747e }, /* Navi32 (RX 7800 XT) */
	{ 110002, 0x7480 }, /* Navi33 (RX 7600) */
	{ 110003, 0x15bf }, /* Phoenix */
	{ 110500, 0x150e }, /* Strix Point */
	{ 110501, 0x1586 }, /* Strix Halo */
	{ 120000, 0x7590 }, /* Navi44 (RX 9060 XT) */
	{ 120001, 0x7550 }, /* Navi48 (RX 9070 XT) */
};

/* ---- products ------------------------------------------------------------ */

/* The RAS blocks a product enables (amdgpu_ras.h enum amdgpu_ras_block:
 * bit AMDGPU_RAS_BLOCK__UMC 0, __SDMA 1, __GFX 2, __MMHUB 3), the render
 * node's AMDGPU_INFO_RAS_ENABLED_FEATURES answer (emu_drm.c). */
#define RAS_UMC 0x1u
#define RAS_SDMA 0x2u
#define RAS_GFX 0x4u
#define RAS_MMHUB 0x8u

/* The product each emulated target stands for, as amdgpu and amdkfd
 * describe it. Sources per field:
 *  - device_id, revision: a pair libdrm's data/amdgpu.ids maps to the
 *    product's name (libhsakmt takes the marketing name from
 *    amdgpu_get_marketing_name(), which looks the pair up);
 *  - CU geometry: kfd_crat.c kfd_fill_gpu_cu() / kfd_topology.c copy
 *    amdgpu's cu_info (active CUs, SEs, SAs per SE, CUs per SA, SIMDs per
 *    CU, waves per SIMD, wave size, LDS) which comes from the board's
 *    gpu_info firmware (Vega10, amdgpu_device_parse_gpu_info_fw()) or IP
 *    discovery table (amdgpu_discovery.c amdgpu_discovery_get_gfx_info():
 *    gc_max_waves_per_simd, gc_wave_size, gc_lds_size); the values are the
 *    part's, as rocminfo reports them on it;
 *  - sclk: max_engine_clk_fcompute, amdgpu_amdkfd_get_max_engine_clock_in_mhz()
 *    (the highest sclk DPM level); mclk and width: the memory bank's
 *    mem_clk_max and width (amdgpu_amdkfd_get_local_mem_info());
 *  - caches: kfd_crat.c kfd_get_gpu_cache_info(), the table of the GC
 *    version (vega10_cache_info, aldebaran_cache_info,
 *    sienna_cichlid_cache_info), L3 being the Infinity Cache;
 *  - ras_features: the RAS blocks the product enables; the node's RAS
 *    capability bits follow from them (emu_sysfs_node_caps()).
 * docs/kfd-emulation.md lists the products. */
static const struct emu_product emu_products[] = {
	/* gfx900: AMD Radeon Instinct MI25 (Vega 10): 64 CUs in 4 SEs of one
	 * SA, 16 GB HBM2 on 2048 bits at 945 MHz, 1500 MHz peak engine
	 * clock; no RAS on Vega 10's GFX block (gfx900 has no sramecc
	 * target feature, LLVM AMDGPUUsage). */
	{ .gfx_target_version = 90000,
	  .name = "AMD Radeon Instinct MI25",
	  .device_id = 0x6860,
	  .revision = 0x00,
	  .simd_per_cu = 4,
	  .waves_per_simd = 10,
	  .wave_size = 64,
	  .num_se = 4,
	  .sh_per_se = 1,
	  .cu_per_sh = 16,
	  .cu_count = 64,
	  .lds_kb = 64,
	  .sclk_mhz = 1500,
	  .mclk_mhz = 945,
	  .vram_width = 2048,
	  .vram = 16ull << 30,
	  .vbios = "113-D0510100-106",
	  .sclk_min_mhz = 852,
	  .mclk_min_mhz = 167,
	  .power_cap_w = 300,
	  .ncaches = 4,
	  .caches = { { 1, 0, 64, 16, 1 },	  /* TCP L1 per CU */
		      { 1, 1, 64, 32, 3 },	  /* SQC instruction */
		      { 1, 0, 64, 16, 3 },	  /* SQC scalar data */
		      { 2, 0, 64, 4096, 16 } } }, /* L2 */
	/* gfx90a: one GCD of an AMD Instinct MI250X (Aldebaran; each GCD is
	 * a KFD node): 110 active CUs of 112 in 8 SEs of one SA (14 per SA),
	 * 8 waves per SIMD (32 per CU), 64 GB HBM2e on 4096 bits at 1600 MHz,
	 * 1700 MHz peak engine clock, RAS on GFX and UMC (sramecc+). */
	{ .gfx_target_version = 90010,
	  .name = "AMD Instinct MI250X / MI250",
	  .device_id = 0x740c,
	  .revision = 0x01,
	  .simd_per_cu = 4,
	  .waves_per_simd = 8,
	  .wave_size = 64,
	  .num_se = 8,
	  .sh_per_se = 1,
	  .cu_per_sh = 14,
	  .cu_count = 110,
	  .lds_kb = 64,
	  .sclk_mhz = 1700,
	  .mclk_mhz = 1600,
	  .vram_width = 4096,
	  .vram = 64ull << 30,
	  .ras_features = RAS_UMC | RAS_SDMA | RAS_GFX | RAS_MMHUB,
	  .vbios = "113-D65201-042",
	  .sclk_min_mhz = 500,
	  .mclk_min_mhz = 400,
	  .power_cap_w = 560,
	  .ncaches = 4,
	  .caches = { { 1, 0, 64, 16, 1 },	   /* TCP L1 per CU */
		      { 1, 1, 64, 32, 2 },	   /* SQC instruction */
		      { 1, 0, 64, 16, 2 },	   /* SQC scalar data */
		      { 2, 0, 128, 8192, 14 } } }, /* L2, 128-byte lines */
	/* gfx1030: AMD Radeon RX 6800 XT (Navi 21): 72 active CUs of 80 in 4
	 * SEs of 2 SAs (10 per SA), 2 SIMD32 per CU, 16 waves per SIMD,
	 * wave32, 16 GB GDDR6 on 256 bits, 2575 MHz top sclk level, 128 MB
	 * Infinity Cache (the L3). */
	{ .gfx_target_version = 100300,
	  .name = "AMD Radeon RX 6800 XT",
	  .device_id = 0x73bf,
	  .revision = 0xc1,
	  .simd_per_cu = 2,
	  .waves_per_simd = 16,
	  .wave_size = 32,
	  .num_se = 4,
	  .sh_per_se = 2,
	  .cu_per_sh = 10,
	  .cu_count = 72,
	  .lds_kb = 64,
	  .sclk_mhz = 2575,
	  .mclk_mhz = 1000,
	  .vram_width = 256,
	  .vram = 16ull << 30,
	  .vbios = "113-D4120100-100",
	  .sclk_min_mhz = 500,
	  .mclk_min_mhz = 96,
	  .power_cap_w = 300,
	  .ncaches = 6,
	  .caches = { { 1, 0, 128, 16, 1 },		/* TCP L1 per CU */
		      { 1, 1, 64, 32, 2 },		/* SQC instruction */
		      { 1, 0, 64, 16, 2 },		/* SQC scalar data */
		      { 1, 0, 128, 128, 10 },		/* GL1 per SA */
		      { 2, 0, 128, 4096, 10 },		/* L2 */
		      { 3, 0, 64, 128 * 1024, 10 } } }, /* Infinity Cache */
	/* gfx1201: AMD Radeon RX 9070 XT (Navi 48; libdrm amdgpu.ids 7550,
	 * C0): 64 CUs, all active, in 4 SEs of 2 SAs (8 CUs, 4 WGPs per SA),
	 * 2 SIMD32 per CU, 16 waves per SIMD, wave32, L1 32 KiB, L2 8 MiB,
	 * 64 MiB Infinity Cache, as rocminfo reports the part (its output
	 * quoted in github.com/ROCm/legacy-rocm-build/issues/6521: Compute
	 * Unit 64, SIMDs per CU 2, Shader Engines 4, Shader Arrs. per Eng. 2;
	 * Max Waves Per CU 32 in .../issues/6625; Max Clock Freq. 2400 MHz in
	 * github.com/ROCm/TheRock/issues/7712); 16 GB
	 * GDDR6 on 256 bits at 20 Gbps and a 304 W board power (AMD's product
	 * specification). GC 12.0 takes the cache sizes and lines from IP
	 * discovery (kfd_crat.c kfd_fill_gpu_cache_info_from_gfx_config()),
	 * which is not in the kernel's sources: the line sizes, the SQC sizes,
	 * the memory clock (20 Gbps read as the RX 6800 XT's 16 Gbps at
	 * 1000 MHz), the lowest DPM levels and the VBIOS part number are
	 * UNVERIFIED. */
	{ .gfx_target_version = 120001,
	  .name = "AMD Radeon RX 9070 XT",
	  .device_id = 0x7550,
	  .revision = 0xc0,
	  .simd_per_cu = 2,
	  .waves_per_simd = 16,
	  .wave_size = 32,
	  .num_se = 4,
	  .sh_per_se = 2,
	  .cu_per_sh = 8,
	  .cu_count = 64,
	  .lds_kb = 64,
	  .sclk_mhz = 2400,
	  .mclk_mhz = 1250,
	  .vram_width = 256,
	  .vram = 16ull << 30,
	  .vbios = "113-KFDSIG-EMU",
	  .sclk_min_mhz = 500,
	  .mclk_min_mhz = 96,
	  .power_cap_w = 304,
	  .ncaches = 5,
	  .caches = { { 1, 0, 128, 32, 1 },	      /* TCP L1 per CU */
		      { 1, 1, 64, 32, 2 },	      /* SQC instruction */
		      { 1, 0, 64, 16, 2 },	      /* SQC scalar data */
		      { 2, 0, 128, 8192, 8 },	      /* L2 */
		      { 3, 0, 64, 64 * 1024, 8 } } }, /* Infinity Cache */
};

void emu_product_of(const struct emu_gen *gen, struct emu_product *out)
{
	bool navi = gen->gc[0] >= 10;

	for (size_t i = 0; i < KFDSIG_ARRAY_SIZE(emu_products); i++)
		if (emu_products[i].gfx_target_version == gen->gfxv) {
			*out = emu_products[i];
			return;
		}
	/* Generic: the geometry of the target's generation, CU count from
	 * the configured SIMD count, a TCP L1 and an L2. */
	*out = (struct emu_product){
		.gfx_target_version = gen->gfxv,
		.device_id = (uint16_t)emu_default_device_id(gen->gfxv),
		.simd_per_cu = navi ? 2 : 4,
		.waves_per_simd = navi ? 16 : 10,
		.wave_size = navi ? 32 : 64,
		.num_se = 4,
		.sh_per_se = navi ? 2 : 1,
		.lds_kb = 64,
		.sclk_mhz = 2100,
		.mclk_mhz = 1600,
		.vram_width = 4096,
		/* An APU's GPU node reports its BIOS carve-out as its one local
		 * bank: amdgpu_amdkfd.c amdgpu_amdkfd_get_local_mem_info() gives
		 * real_vram_size (the carve-out on an APU) and kfd_crat.c
		 * kfd_create_vcrat_image_gpu() adds a memory affinity for it.
		 * The carve-out size is a BIOS setting; 512 MiB is a common
		 * value (UNVERIFIED per product). */
		.vram = gen->apu ? 512ull << 20 : 16ull << 30,
		.vbios = "113-KFDSIG-EMU",
		.sclk_min_mhz = 500,
		.mclk_min_mhz = 400,
		.power_cap_w = gen->apu ? 0 : 250,
		.ncaches = 2,
		.caches = { { 1, 0, 64, 16, 1 }, { 2, 0, 128, 8192, 16 } },
	};
}

uint32_t emu_default_device_id(uint32_t gfxv)
{
	for (size_t i = 0; i < KFDSIG_ARRAY_SIZE(pci_ids); i++)
		if (pci_ids[i].gfx_target_version == gfxv)
			return pci_ids[i].device_id;
	return 0x7400; /* not reached for a target of the table */
}

/* ---- writing files ------------------------------------------------------ */

static int vpath(char *buf, size_t n, const char *fmt, va_list ap)
{
	int len = vsnprintf(buf, n, fmt, ap);
	return len < 0 || (size_t)len >= n ? -ENAMETOOLONG : 0;
}

/* mkdir -p: most directories of the tree share their parents with the
 * previous file's, so the whole path is tried first and its parents only
 * when one is missing (an emulator writes a few hundred files). */
static int mkdirs(const char *path)
{
	char buf[512];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	if (!mkdir(buf, 0700) || errno == EEXIST)
		return 0;
	if (errno != ENOENT)
		return -errno;
	for (char *s = buf + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(buf, 0700) && errno != EEXIST)
				return -errno;
			*s = '/';
		}
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/* Write @text to the file <root>/<fmt...>, creating its directories. */
static int put(const struct kfdsig_emu *emu, const char *text, const char *fmt, ...)
{
	char rel[400], path[700];
	va_list ap;
	FILE *f;
	int r;

	va_start(ap, fmt);
	r = vpath(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (r)
		return r;
	snprintf(path, sizeof(path), "%s/%s", emu->sysfs, rel);
	f = fopen(path, "we");
	if (!f && errno == ENOENT) {
		/* its directory first */
		*strrchr(path, '/') = '\0';
		if ((r = mkdirs(path)))
			return r;
		path[strlen(path)] = '/';
		f = fopen(path, "we");
	}
	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* A relative symlink <root>/<link> -> @target, its directory created. */
static int link_to(const struct kfdsig_emu *emu, const char *target, const char *link)
{
	char path[700];
	int r;

	snprintf(path, sizeof(path), "%s/%s", emu->sysfs, link);
	if (!symlink(target, path))
		return 0;
	if (errno != ENOENT)
		return -errno;
	/* its directory first */
	*strrchr(path, '/') = '\0';
	if ((r = mkdirs(path)))
		return r;
	path[strlen(path)] = '/';
	return symlink(target, path) ? -errno : 0;
}

/* Append "key value\n" to a properties buffer (sysfs_show_32bit_prop /
 * sysfs_show_64bit_prop print "%s %u\n" and "%s %llu\n"). */
struct props {
	char buf[4096];
	size_t len;
};

static void prop(struct props *p, const char *key, unsigned long long v)
{
	int n = snprintf(p->buf + p->len, sizeof(p->buf) - p->len, "%s %llu\n", key, v);
	if (n > 0 && (size_t)n < sizeof(p->buf) - p->len)
		p->len += (size_t)n;
}

/* ---- the topology ------------------------------------------------------- */

#define TOPO "devices/virtual/kfd/kfd/topology"

/* CU geometry the node reports (kfd_crat.c kfd_fill_gpu_cu():
 * array_count = SEs x SAs per SE, simd_arrays_per_engine = SAs per SE,
 * cu_per_simd_array = cu_info's num_cu_per_sh, simd_count = SIMDs per CU
 * x active CUs), from the product (emu_products[]). */
struct geom {
	uint32_t simd_per_cu, arrays, per_engine, cu_per_array, waves, wave_size;
};

static struct geom geometry(const struct emu_gpu *g)
{
	const struct emu_product *pr = &g->prod;
	struct geom s = {
		.simd_per_cu = pr->simd_per_cu,
		.arrays = (uint32_t)pr->num_se * pr->sh_per_se,
		.per_engine = pr->sh_per_se,
		.cu_per_array = pr->cu_per_sh,
		.waves = pr->waves_per_simd,
		.wave_size = pr->wave_size,
	};

	if (!s.cu_per_array)
		s.cu_per_array = g->simd_count / s.simd_per_cu / s.arrays;
	if (!s.cu_per_array)
		s.cu_per_array = 1;
	return s;
}

/*
 * The capability word of a GPU node, as kfd_topology.c
 * kfd_topology_add_device() and node_show() build it:
 *  - doorbell type, watch points, Tonga's AQL double map:
 *    emu_gen_node_caps();
 *  - the debugger bits (kfd_topology_set_capabilities(), emu_gen.c), which
 *    arrived with the debugger API, KFD 1.13;
 *  - RAS, from adev->ras_enabled: HSA_CAP_SRAM_EDCSUPPORTED (0x04000000)
 *    when the GFX block has RAS (kernels before 5.14 also took SDMA's),
 *    HSA_CAP_MEM_EDCSUPPORTED (0x00100000) when UMC has,
 *    HSA_CAP_RASEVENTNOTIFY (0x00200000) when any block has, except on GC
 *    9.0.1 (kfd_sysfs.h);
 *  - never HSA_CAP_SVMAPI_SUPPORTED: the emulator has no AMDKFD_IOC_SVM,
 *    as a kernel without HMM page migration (KFD_IS_SVM_API_SUPPORTED()
 *    false); never HSA_CAP_FLAGS_COHERENTHOSTACCESS: no emulated GPU is
 *    connected to the CPU by XGMI (adev->gmc.xgmi.connected_to_cpu). ROCr reads the first as the ISA's
 *    sramecc feature (rocminfo "gfx90a:sramecc+"). The render node answers
 *    the same features (emu_drm.c AMDGPU_INFO_RAS_ENABLED_FEATURES).
 */
uint32_t emu_sysfs_node_caps(const struct kfdsig_emu *emu, const struct emu_gpu *g)
{
	uint32_t cap = 0, dprop = 0, ras = g->prod.ras_features;

	if (emu_version_at_least(emu, 13))
		emu_gen_debug_caps(&g->gen, &cap, &dprop);
	cap |= emu_gen_node_caps(&g->gen);
	if (ras & RAS_GFX)
		cap |= 0x04000000u;
	if (ras & RAS_UMC)
		cap |= 0x00100000u;
	if (ras && !(g->gen.gc[0] == 9 && g->gen.gc[1] == 0 && g->gen.gc[2] == 1))
		cap |= 0x00200000u;
	return cap;
}

void emu_sysfs_node_info(const struct kfdsig_emu *emu, const struct emu_gpu *g,
			 uint32_t *location_id, uint32_t *vendor_id, uint32_t *device_id,
			 uint32_t *simd_count, uint32_t *max_waves_per_simd, uint32_t *array_count,
			 uint32_t *simd_arrays_per_engine, uint32_t *capability,
			 uint32_t *debug_prop)
{
	struct geom s = geometry(g);
	uint32_t cap = 0;

	*location_id = (g->index + 1) << 8;
	*vendor_id = 0x1002;
	*device_id = g->device_id;
	*simd_count = g->simd_count;
	*max_waves_per_simd = s.waves;
	*array_count = s.arrays;
	*simd_arrays_per_engine = s.per_engine;
	*debug_prop = 0;
	if (emu_version_at_least(emu, 13))
		emu_gen_debug_caps(&g->gen, &cap, debug_prop);
	*capability = emu_sysfs_node_caps(emu, g);
}

/*
 * XGMI. amdkfd links two GPU nodes of one XGMI hive (the same
 * adev->gmc.xgmi.hive_id) with an io_link of CRAT_IOLINK_TYPE_XGMI (11)
 * each way (kfd_crat.c kfd_create_vcrat_image_gpu() adds one per earlier
 * node of the hive through kfd_fill_gpu_xgmi_link_to_gpu(), flags
 * CRAT_SUBTYPE_FLAGS_ENABLED | CRAT_IOLINK_FLAGS_BI_DIRECTIONAL, and
 * kfd_parse_subtype_iolink() adds the reverse link to the earlier node),
 * after the node's link to the CPU. kfd_fill_gpu_xgmi_link_to_gpu():
 *  - a device with one KFD node (use_ta_info): weight KFD_CRAT_XGMI_WEIGHT
 *    (15) x the PSP's hop count, maximum bandwidth the peer's links x the
 *    per-link rate, minimum one link's rate (amdgpu_xgmi_get_bandwidth());
 *  - a partitioned device: KFD_CRAT_INTRA_SOCKET_WEIGHT (13) and 819200
 *    MB/s between nodes of the same device, 2 x 13 + 15 and 0 MB/s to
 *    another device's nodes.
 * Which emulated GPUs form a hive: every gfx90a (MI250X GCDs; the config's
 * gfx90a devices 2k and 2k+1 are the two GCDs of one package, 4 links
 * apart, hop count 1), every GC 9.4.3 / 9.4.4 / 9.5.0 device (MI300X /
 * MI350X OAMs, fully connected: one link, one hop, to each peer). Per-link
 * rate: max_speed x max_width / 8 (amdgpu_xgmi.c), 25 GT/s x16 on
 * Aldebaran, 32 GT/s x16 on GC 9.4.3+ (UNVERIFIED: the PSP reports them).
 * GCDs on different MI250X packages: hop count 2 and one link (UNVERIFIED,
 * the platform's wiring). Other products have no XGMI in the emulator
 * (their bridges are optional boards): no link is claimed.
 */
static bool xgmi_hive_member(const struct emu_gpu *g)
{
	const uint8_t *gc = g->gen.gc;

	return g->gen.gfxv == 90010 || (gc[0] == 9 && gc[1] == 4 && gc[2] >= 3) ||
	       (gc[0] == 9 && gc[1] == 5);
}

/* The MI250X package of a gfx90a GCD: GCDs 2k and 2k+1, counting the
 * config's gfx90a devices in order. */
static uint32_t package_of(const struct kfdsig_emu *emu, const struct emu_gpu *g)
{
	uint32_t rank = 0;

	for (uint32_t i = 0; i < emu->ngpus && emu->gpus[i].device < g->device; i++)
		rank += emu->gpus[i].gen.gfxv == 90010 &&
			(i == 0 || emu->gpus[i - 1].device != emu->gpus[i].device);
	return rank / 2;
}

bool emu_xgmi_link(const struct kfdsig_emu *emu, const struct emu_gpu *a, const struct emu_gpu *b,
		   struct emu_xgmi_link *out)
{
	uint32_t nodes = 0;

	if (a == b || !xgmi_hive_member(a) || !xgmi_hive_member(b) || a->gen.gfxv != b->gen.gfxv)
		return false;
	for (uint32_t i = 0; i < emu->ngpus; i++)
		nodes += emu->gpus[i].device == a->device;
	if (nodes > 1) { /* use_ta_info is kdev->kfd->num_nodes == 1 */
		bool same = a->device == b->device;

		out->weight = same ? 13 : 2 * 13 + 15;
		out->min_mbs = out->max_mbs = same ? 819200 : 0;
		return true;
	}
	if (a->gen.gfxv == 90010) {
		bool package = package_of(emu, a) == package_of(emu, b);

		out->weight = 15 * (package ? 1 : 2);
		out->min_mbs = 25 * 16 * 1000 / 8;
		out->max_mbs = out->min_mbs * (package ? 4 : 1);
		return true;
	}
	out->weight = 15;
	out->min_mbs = out->max_mbs = 32 * 16 * 1000 / 8;
	return true;
}

/* The hive id of @g's node (kfd_topology.c node_show() prints
 * adev->gmc.xgmi.hive_id, 0 outside a hive): one id per product's hive,
 * an arbitrary 64-bit value as the PSP's are. */
static uint64_t hive_id(const struct kfdsig_emu *emu, const struct emu_gpu *g)
{
	struct emu_xgmi_link l;

	for (uint32_t i = 0; i < emu->ngpus; i++)
		if (emu_xgmi_link(emu, g, &emu->gpus[i], &l))
			return 0x4b46445300000000ull | g->gen.gfxv;
	return 0;
}

static uint32_t xgmi_peers(const struct kfdsig_emu *emu, const struct emu_gpu *g)
{
	struct emu_xgmi_link l;
	uint32_t n = 0;

	for (uint32_t i = 0; i < emu->ngpus; i++)
		n += emu_xgmi_link(emu, g, &emu->gpus[i], &l);
	return n;
}

/*
 * PCIe peers. kfd_topology.c kfd_dev_create_p2p_links() (built with
 * CONFIG_HSA_AMD_P2P) gives each pair of GPU nodes outside one XGMI hive a
 * p2p_link each way, kfd_add_peer_prop(), under the node's "p2p_links"
 * and counted by p2p_links_count (not io_links_count). The link a -> b
 * exists when amdgpu_device_is_peer_accessible(b, a): b's VRAM is all
 * behind its BAR (every emulated GPU reports FB_PUBLIC, a large BAR), b is
 * not connected to the CPU by XGMI, and pci_p2pdma_distance() allows the
 * pair: the emulated GPUs sit under one root complex that allows
 * peer-to-peer (UNVERIFIED per platform; the AMD ones the kernel's
 * pci_p2pdma whitelist names do). Its properties are copies of b's first
 * io_link (b -> CPU, PCIe) with the weights and latencies of both GPUs'
 * CPU links added, the minimum bandwidth the smaller of the two and the
 * maximum a's (the kernel takes min(iolink2, iolink2)); flags
 * CRAT_IOLINK_FLAGS_ENABLED | CRAT_IOLINK_FLAGS_NON_COHERENT
 * (kfd_fill_iolink_non_crat_info(), kfd_set_iolink_non_coherent(): GPU <->
 * GPU over PCIe). libhsakmt 5.2.3 reads them as io_links when the node has
 * a p2p_links_count, and then makes no GPU-CPU-GPU links of its own
 * (topology_take_snapshot()), so without them ROCr sees no path between
 * the GPUs and hipDeviceCanAccessPeer answers 0.
 */
static bool p2p_link(const struct kfdsig_emu *emu, const struct emu_gpu *a, const struct emu_gpu *b)
{
	struct emu_xgmi_link l;

	return a != b && !emu_xgmi_link(emu, a, b, &l);
}

static uint32_t p2p_peers(const struct kfdsig_emu *emu, const struct emu_gpu *g)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < emu->ngpus; i++)
		n += p2p_link(emu, g, &emu->gpus[i]);
	return n;
}

/* Properties in the order kfd_topology.c node_show() prints them; the
 * GPU-only block (fw_version .. num_xcc) is skipped for the CPU node, and
 * local_mem_size is printed as 0 (the size lives in mem_banks). */
static void node_props(const struct kfdsig_emu *emu, const struct emu_gpu *g, struct props *p)
{
	struct geom s = g ? geometry(g) : (struct geom){ 0 };
	uint32_t ncpu = (uint32_t)get_nprocs_conf();

	p->len = 0;
	prop(p, "cpu_cores_count", g ? 0 : ncpu);
	prop(p, "simd_count", g ? g->simd_count : 0);
	prop(p, "mem_banks_count", g ? (g->local_mem_size ? 1 : 0) : 1);
	prop(p, "caches_count", g ? g->prod.ncaches : 0);
	prop(p, "io_links_count", g ? 1 + xgmi_peers(emu, g) : emu->ngpus);
	prop(p, "p2p_links_count", g ? p2p_peers(emu, g) : 0);
	prop(p, "cpu_core_id_base", 0);
	prop(p, "simd_id_base", g ? 0x80000000u + g->index * 0x1000 : 0);
	prop(p, "max_waves_per_simd", s.waves);
	prop(p, "lds_size_in_kb", g ? g->prod.lds_kb : 0);
	prop(p, "gds_size_in_kb", 0);
	prop(p, "num_gws", g ? emu_gen_gws_size(&g->gen) : 0);
	prop(p, "wave_front_size", s.wave_size);
	prop(p, "array_count", s.arrays);
	prop(p, "simd_arrays_per_engine", s.per_engine);
	prop(p, "cu_per_simd_array", s.cu_per_array);
	prop(p, "simd_per_cu", s.simd_per_cu);
	prop(p, "max_slots_scratch_cu", g ? 32 : 0);
	prop(p, "gfx_target_version", g ? g->gen.gfxv : 0);
	prop(p, "vendor_id", g ? 0x1002 : 0);
	prop(p, "device_id", g ? g->device_id : 0);
	prop(p, "location_id", g ? (g->index + 1) << 8 : 0);
	prop(p, "domain", 0);
	prop(p, "drm_render_minor", g ? g->render_minor : 0);
	prop(p, "hive_id", g ? hive_id(emu, g) : 0);
	prop(p, "num_sdma_engines", g ? g->num_sdma : 0);
	prop(p, "num_sdma_xgmi_engines", g ? g->num_sdma_xgmi : 0);
	/* kfd_device.c: 2 queues per SDMA engine on gfx8, 8 from gfx9 on */
	prop(p, "num_sdma_queues_per_engine", g ? (g->gen.level == KFDSIG_GFX8 ? 2 : 8) : 0);
	prop(p, "num_cp_queues", g ? 24 : 0);
	if (g) {
		uint32_t cap = 0, dprop = 0;

		prop(p, "max_engine_clk_fcompute", g->prod.sclk_mhz);
		prop(p, "local_mem_size", 0);
		prop(p, "fw_version", g->mec_fw);
		/* debug_prop: kfd_topology_set_capabilities() (emu_gen.c),
		 * KFD 1.13 on */
		if (emu_version_at_least(emu, 13))
			emu_gen_debug_caps(&g->gen, &cap, &dprop);
		prop(p, "capability", emu_sysfs_node_caps(emu, g));
		prop(p, "debug_prop", dprop);
		prop(p, "sdma_fw_version", g->sdma_fw);
		prop(p, "unique_id", 0x1000000000ull + g->index);
		prop(p, "num_xcc", g->num_xcc);
	}
	prop(p, "max_engine_clk_ccompute", 3000);
}

/* kfd_topology.c mem_show: heap_type, size_in_bytes, flags, width,
 * mem_clk_max. HSA_MEM_HEAP_TYPE_SYSTEM 0, FB_PUBLIC 1 (all of VRAM
 * CPU-visible, as with a large BAR); a GPU bank's width and clock are the
 * product's (emu_products[]). */
static int write_mem_bank(const struct kfdsig_emu *emu, uint32_t node, const struct emu_gpu *g,
			  uint64_t size)
{
	struct props p = { .len = 0 };

	prop(&p, "heap_type", g ? 1 : 0);
	prop(&p, "size_in_bytes", size);
	prop(&p, "flags", 0);
	prop(&p, "width", g ? g->prod.vram_width : 64);
	prop(&p, "mem_clk_max", g ? g->prod.mclk_mhz : 3200);
	return put(emu, p.buf, TOPO "/nodes/%u/mem_banks/0/properties", node);
}

/* kfd_topology.c iolink_show: PCIe (CRAT_IOLINK_TYPE_PCIEXPRESS 2) links
 * between the CPU node and each GPU, weight 20, flags
 * CRAT_IOLINK_FLAGS_ENABLED; XGMI (CRAT_IOLINK_TYPE_XGMI 11) links between
 * GPUs of a hive, flags ENABLED | BI_DIRECTIONAL (1u << 31) as their CRAT
 * entry has; p2p links between PCIe peers (p2p_link() above) under
 * p2p_links/. */
#define PCIE_WEIGHT 20
#define PCIE_MIN_MBS 312
#define PCIE_MAX_MBS 64000
struct io_link {
	uint32_t type, weight, min_mbs, max_mbs, flags;
};

static int write_link(const struct kfdsig_emu *emu, const char *dir, uint32_t from, uint32_t idx,
		      uint32_t to, const struct io_link *l)
{
	struct props p = { .len = 0 };

	prop(&p, "type", l->type);
	prop(&p, "version_major", 0);
	prop(&p, "version_minor", 0);
	prop(&p, "node_from", from);
	prop(&p, "node_to", to);
	prop(&p, "weight", l->weight);
	prop(&p, "min_latency", 0);
	prop(&p, "max_latency", 0);
	prop(&p, "min_bandwidth", l->min_mbs);
	prop(&p, "max_bandwidth", l->max_mbs);
	prop(&p, "recommended_transfer_size", 0);
	prop(&p, "flags", l->flags);
	return put(emu, p.buf, TOPO "/nodes/%u/%s/%u/properties", from, dir, idx);
}

static int write_io_link(const struct kfdsig_emu *emu, uint32_t from, uint32_t idx, uint32_t to,
			 const struct emu_xgmi_link *x)
{
	struct io_link l = { 2, PCIE_WEIGHT, PCIE_MIN_MBS, PCIE_MAX_MBS, 1 };

	/* the CPU's link to a GPU over PCIe is also non-coherent
	 * (kfd_fill_iolink_non_crat_info(), kfd_set_iolink_non_coherent():
	 * CRAT_IOLINK_FLAGS_NON_COHERENT on CPU -> GPU PCIe links) */
	if (!x && from == 0)
		l.flags |= 2;
	if (x)
		l = (struct io_link){ 11, x->weight, x->min_mbs, x->max_mbs, 0x80000001u };
	return write_link(emu, "io_links", from, idx, to, &l);
}

static int write_p2p_link(const struct kfdsig_emu *emu, uint32_t from, uint32_t idx, uint32_t to)
{
	/* kfd_add_peer_prop(): both GPUs' CPU links summed */
	struct io_link l = { 2, 2 * PCIE_WEIGHT, PCIE_MIN_MBS, PCIE_MAX_MBS, 1 | 2 };

	return write_link(emu, "p2p_links", from, idx, to, &l);
}

/* HSA_CACHE_TYPE_* (kfd_topology.h): what kfd_topology.c
 * fill_in_l1_pcache() and fill_in_l2_l3_pcache() set from the table's
 * CRAT_CACHE_FLAGS: every GPU cache is CRAT_CACHE_FLAGS_SIMD_CACHE, so
 * HSACU, never the CPU bit (ROCr keeps only HSACU caches of a GPU). */
#define CACHE_TYPE_DATA 0x1u
#define CACHE_TYPE_INSTRUCTION 0x2u
#define CACHE_TYPE_HSACU 0x8u

/* kfd_topology.c kfd_cache_show: processor_id_low, level, size (KiB),
 * cache_line_size, cache_lines_per_tag, association, latency, type, then
 * sibling_map as one "0,"/"1," per bit of its sibling_map_size (4) bytes.
 * fill_in_l1_pcache()/fill_in_l2_l3_pcache() leave lines per tag,
 * associativity and latency 0 and set one bit per CU sharing the cache.
 * The kernel lists one entry per instance (per CU, per group of CUs); the
 * emulator lists the first instance of each cache of the product's table,
 * which is what ROCr reads (one size and line per level). */
static int write_caches(const struct kfdsig_emu *emu, const struct emu_gpu *g, uint32_t node)
{
	int r = 0;

	for (uint32_t i = 0; i < g->prod.ncaches && !r; i++) {
		const struct emu_cache_desc *c = &g->prod.caches[i];
		struct props p = { .len = 0 };

		prop(&p, "processor_id_low", 0x80000000u + g->index * 0x1000);
		prop(&p, "level", c->level);
		prop(&p, "size", c->size_kb);
		prop(&p, "cache_line_size", c->line);
		prop(&p, "cache_lines_per_tag", 0);
		prop(&p, "association", 0);
		prop(&p, "latency", 0);
		prop(&p, "type",
		     (c->inst ? CACHE_TYPE_INSTRUCTION : CACHE_TYPE_DATA) | CACHE_TYPE_HSACU);
		p.len += (size_t)snprintf(p.buf + p.len, sizeof(p.buf) - p.len, "sibling_map ");
		for (uint32_t b = 0; b < 32; b++)
			p.len += (size_t)snprintf(p.buf + p.len, sizeof(p.buf) - p.len, "%d%c",
						  b < c->cu_shared, b == 31 ? '\n' : ',');
		r = put(emu, p.buf, TOPO "/nodes/%u/caches/%u/properties", node, i);
	}
	return r;
}

static int write_drm_card(const struct kfdsig_emu *emu, const struct emu_gpu *g, const char *dev);

/* The PCI device and its render node, as libdrm reads them. */
static int write_pci(const struct kfdsig_emu *emu, const struct emu_gpu *g)
{
	char dev[96], txt[512], rel[160];
	uint32_t bus = g->index + 1;
	int r;

	snprintf(dev, sizeof(dev), "devices/pci0000:00/0000:%02x:00.0", bus);
	snprintf(txt, sizeof(txt), "0x1002\n");
	if ((r = put(emu, txt, "%s/vendor", dev)) ||
	    (r = put(emu, txt, "%s/subsystem_vendor", dev)))
		return r;
	snprintf(txt, sizeof(txt), "0x%04x\n", g->device_id);
	if ((r = put(emu, txt, "%s/device", dev)) ||
	    (r = put(emu, txt, "%s/subsystem_device", dev)))
		return r;
	/* the product's revision (amdgpu.ids names the pair); class:
	 * display controller (0x038000) as compute parts report, VGA
	 * (0x030000) for the rest */
	snprintf(txt, sizeof(txt), "0x%02x\n", g->prod.revision);
	if ((r = put(emu, txt, "%s/revision", dev)) ||
	    (r = put(emu,
		     g->gen.family == KFDSIG_FAMILY_GFX90A || g->gen.family == KFDSIG_FAMILY_GFX94X
			     ? "0x038000\n"
			     : "0x030000\n",
		     "%s/class", dev)))
		return r;
	snprintf(txt, sizeof(txt),
		 "DRIVER=amdgpu\nPCI_CLASS=30000\nPCI_ID=1002:%04X\nPCI_SUBSYS_ID=1002:%04X\n"
		 "PCI_SLOT_NAME=0000:%02x:00.0\nMODALIAS=pci:v00001002d0000%04Xsv00001002sd0000%"
		 "04Xbc03sc00i00\n",
		 g->device_id, g->device_id, bus, g->device_id, g->device_id);
	if ((r = put(emu, txt, "%s/uevent", dev)))
		return r;
	snprintf(txt, sizeof(txt), "226:%u\n", g->render_minor);
	if ((r = put(emu, txt, "%s/drm/renderD%u/dev", dev, g->render_minor)))
		return r;
	snprintf(txt, sizeof(txt), "MAJOR=226\nMINOR=%u\nDEVNAME=dri/renderD%u\n", g->render_minor,
		 g->render_minor);
	if ((r = put(emu, txt, "%s/drm/renderD%u/uevent", dev, g->render_minor)))
		return r;
	snprintf(rel, sizeof(rel), "%s/drm/renderD%u/device", dev, g->render_minor);
	if ((r = link_to(emu, "../..", rel)))
		return r;
	snprintf(rel, sizeof(rel), "%s/subsystem", dev);
	if ((r = link_to(emu, "../../../bus/pci", rel)))
		return r;
	snprintf(txt, sizeof(txt), "../../%s/drm/renderD%u", dev, g->render_minor);
	snprintf(rel, sizeof(rel), "dev/char/226:%u", g->render_minor);
	if ((r = link_to(emu, txt, rel)))
		return r;
	snprintf(rel, sizeof(rel), "class/drm/renderD%u", g->render_minor);
	if ((r = link_to(emu, txt, rel)))
		return r;
	return write_drm_card(emu, g, dev);
}

/*
 * The DRM class device of a GPU and the amdgpu attributes rocm_smi_lib
 * reads (rocm_smi_main.cc DiscoverAmdgpuDevices(): /sys/class/drm/cardN
 * with device/vendor 0x1002 and device/vbios_version, device/drm/renderDN
 * for the minor, the PCI address from the link's target; rocm_smi_device.cc
 * and rocm_smi_monitor.cc the attribute and hwmon names). Values: the
 * product's (emu_products[]) for what the topology also reports (clocks,
 * VRAM), plausible readings of an idle board for the rest: the lowest DPM
 * level current (amdgpu_pm.c pp_dpm_* print "N: <clk>Mhz" with " *" on the
 * current level), 0 % busy, no VRAM in use, 35/38/40 C, hwmon's units
 * (millidegrees, microwatts, millivolts; Documentation/gpu/amdgpu/thermal.rst).
 */
static int write_drm_card(const struct kfdsig_emu *emu, const struct emu_gpu *g, const char *dev)
{
	const struct emu_product *pr = &g->prod;
	char txt[256], rel[200], hw[200];
	uint32_t card = g->index;
	/* the same VRAM (an APU's carve-out) as the topology bank */
	uint64_t vram = g->local_mem_size, gtt = 8ull << 30;
	int r;

	snprintf(txt, sizeof(txt), "226:%u\n", card);
	if ((r = put(emu, txt, "%s/drm/card%u/dev", dev, card)))
		return r;
	snprintf(txt, sizeof(txt), "MAJOR=226\nMINOR=%u\nDEVNAME=dri/card%u\nDEVTYPE=drm_minor\n",
		 card, card);
	if ((r = put(emu, txt, "%s/drm/card%u/uevent", dev, card)))
		return r;
	snprintf(rel, sizeof(rel), "%s/drm/card%u/device", dev, card);
	if ((r = link_to(emu, "../..", rel)))
		return r;
	snprintf(txt, sizeof(txt), "../../%s/drm/card%u", dev, card);
	snprintf(rel, sizeof(rel), "class/drm/card%u", card);
	if ((r = link_to(emu, txt, rel)))
		return r;

	snprintf(txt, sizeof(txt), "%s\n", pr->vbios ? pr->vbios : "113-KFDSIG-EMU");
	if ((r = put(emu, txt, "%s/vbios_version", dev)))
		return r;
	snprintf(txt, sizeof(txt), "0:%5uMhz *\n1:%5uMhz\n", pr->sclk_min_mhz, pr->sclk_mhz);
	if ((r = put(emu, txt, "%s/pp_dpm_sclk", dev)))
		return r;
	snprintf(txt, sizeof(txt), "0:%5uMhz *\n1:%5uMhz\n", pr->mclk_min_mhz, pr->mclk_mhz);
	if ((r = put(emu, txt, "%s/pp_dpm_mclk", dev)) ||
	    (r = put(emu, "auto\n", "%s/power_dpm_force_performance_level", dev)) ||
	    (r = put(emu, "0\n", "%s/gpu_busy_percent", dev)) ||
	    (r = put(emu, "0\n", "%s/mem_busy_percent", dev)) ||
	    (r = put(emu, "-1\n", "%s/numa_node", dev)))
		return r;
	snprintf(txt, sizeof(txt), "%016llx\n", 0x1000000000ull + g->index);
	if ((r = put(emu, txt, "%s/unique_id", dev)))
		return r;
	/* amdgpu_vram_mgr.c / amdgpu_gtt_mgr.c: bytes, "%llu\n" */
	snprintf(txt, sizeof(txt), "%llu\n", (unsigned long long)vram);
	if ((r = put(emu, txt, "%s/mem_info_vram_total", dev)) ||
	    (r = put(emu, txt, "%s/mem_info_vis_vram_total", dev)) ||
	    (r = put(emu, "0\n", "%s/mem_info_vram_used", dev)) ||
	    (r = put(emu, "0\n", "%s/mem_info_vis_vram_used", dev)) ||
	    (r = put(emu, "0\n", "%s/mem_info_gtt_used", dev)))
		return r;
	snprintf(txt, sizeof(txt), "%llu\n", (unsigned long long)gtt);
	if ((r = put(emu, txt, "%s/mem_info_gtt_total", dev)))
		return r;
	snprintf(txt, sizeof(txt), "%u\n", g->mec_fw);
	if ((r = put(emu, txt, "%s/fw_version/mec_fw_version", dev)))
		return r;
	snprintf(txt, sizeof(txt), "%u\n", g->sdma_fw);
	if ((r = put(emu, txt, "%s/fw_version/sdma_fw_version", dev)))
		return r;

	/* hwmon: amdgpu_pm.c hwmon_attributes, as hwmon_attributes_visible()
	 * shows them (AMD_IS_APU: g->gen.apu):
	 *  - temp1 (edge) everywhere, its _crit not on APUs ("Skip crit temp
	 *    on APU"); temp2/temp3 (junction, mem) only on SOC15 dGPUs (not
	 *    APUs, not before CHIP_VEGA10, i.e. GC 9);
	 *  - in0 (vddgfx) everywhere, in1 (vddnb) only on APUs;
	 *  - power1_average: not on APUs before CHIP_RENOIR (Carrizo, Stoney,
	 *    Raven: GC < 9.3); power1_cap*: not on APUs but Van Gogh (GC
	 *    10.3.1);
	 *  - the fan (pwm1*, fan1_input): never on an APU. Whether a passive
	 *    data-centre board's amdgpu shows it is UNVERIFIED (no_fan); the
	 *    emulator shows it on every dGPU, reading 0. */
	{
		bool apu = g->gen.apu;
		const uint8_t *gc = g->gen.gc;
		bool pre_renoir = gc[0] < 9 || (gc[0] == 9 && gc[1] < 3);
		bool vangogh = gc[0] == 10 && gc[1] == 3 && gc[2] == 1;
		/* a dGPU's cap, or an APU's PPT limit (15 W, UNVERIFIED) */
		uint64_t cap_w = pr->power_cap_w ? pr->power_cap_w : 15;

		snprintf(hw, sizeof(hw), "%s/hwmon/hwmon%u", dev, g->index);
		if ((r = put(emu, "amdgpu\n", "%s/name", hw)) ||
		    (r = put(emu, "35000\n", "%s/temp1_input", hw)) ||
		    (r = put(emu, "edge\n", "%s/temp1_label", hw)) ||
		    (r = put(emu, "850\n", "%s/in0_input", hw)) ||
		    (r = put(emu, "vddgfx\n", "%s/in0_label", hw)))
			return r;
		if (!apu && (r = put(emu, "100000\n", "%s/temp1_crit", hw)))
			return r;
		if (apu && ((r = put(emu, "750\n", "%s/in1_input", hw)) ||
			    (r = put(emu, "vddnb\n", "%s/in1_label", hw))))
			return r;
		if (!apu && gc[0] >= 9 &&
		    ((r = put(emu, "38000\n", "%s/temp2_input", hw)) ||
		     (r = put(emu, "junction\n", "%s/temp2_label", hw)) ||
		     (r = put(emu, "110000\n", "%s/temp2_crit", hw)) ||
		     (r = put(emu, "40000\n", "%s/temp3_input", hw)) ||
		     (r = put(emu, "mem\n", "%s/temp3_label", hw)) ||
		     (r = put(emu, "105000\n", "%s/temp3_crit", hw))))
			return r;
		if (!apu || vangogh) {
			snprintf(txt, sizeof(txt), "%llu\n", (unsigned long long)cap_w * 1000000);
			if ((r = put(emu, txt, "%s/power1_cap", hw)) ||
			    (r = put(emu, txt, "%s/power1_cap_max", hw)) ||
			    (r = put(emu, txt, "%s/power1_cap_default", hw)) ||
			    (r = put(emu, "0\n", "%s/power1_cap_min", hw)))
				return r;
		}
		if (!apu || !pre_renoir) {
			snprintf(txt, sizeof(txt), "%llu\n", (unsigned long long)cap_w * 150000);
			if ((r = put(emu, txt, "%s/power1_average", hw)))
				return r;
		}
		if (!apu && ((r = put(emu, "0\n", "%s/pwm1", hw)) ||
			     (r = put(emu, "255\n", "%s/pwm1_max", hw)) ||
			     (r = put(emu, "2\n", "%s/pwm1_enable", hw)) ||
			     (r = put(emu, "0\n", "%s/fan1_input", hw))))
			return r;
	}
	return 0;
}

int emu_sysfs_write(struct kfdsig_emu *emu)
{
	struct props p;
	char txt[64];
	int r;

	/* kfd_topology.c: generation_id "%d", system_properties prints
	 * platform_oem, platform_id and platform_rev (64-bit) */
	if ((r = put(emu, "1\n", TOPO "/generation_id")) ||
	    (r = put(emu, "platform_oem 0\nplatform_id 0\nplatform_rev 0\n",
		     TOPO "/system_properties")))
		return r;
	/* Node 0: the CPU (gpu_id 0), system memory, one link per GPU. */
	node_props(emu, NULL, &p);
	if ((r = put(emu, "0\n", TOPO "/nodes/0/gpu_id")) ||
	    (r = put(emu, "\n", TOPO "/nodes/0/name")) ||
	    (r = put(emu, p.buf, TOPO "/nodes/0/properties")))
		return r;
	{
		struct sysinfo si;
		uint64_t ram = sysinfo(&si) ? 0 : (uint64_t)si.totalram * si.mem_unit;
		if ((r = write_mem_bank(emu, 0, NULL, ram)))
			return r;
	}
	for (uint32_t i = 0; i < emu->ngpus; i++) {
		const struct emu_gpu *g = &emu->gpus[i];
		uint32_t node = i + 1;

		if ((r = write_io_link(emu, 0, i, node, NULL)))
			return r;
		snprintf(txt, sizeof(txt), "%u\n", g->gpu_id);
		if ((r = put(emu, txt, TOPO "/nodes/%u/gpu_id", node)))
			return r;
		snprintf(txt, sizeof(txt), "%s\n", g->t->name);
		if ((r = put(emu, txt, TOPO "/nodes/%u/name", node)))
			return r;
		node_props(emu, g, &p);
		if ((r = put(emu, p.buf, TOPO "/nodes/%u/properties", node)))
			return r;
		if (g->local_mem_size && (r = write_mem_bank(emu, node, g, g->local_mem_size)))
			return r;
		if ((r = write_caches(emu, g, node)) ||
		    (r = write_io_link(emu, node, 0, 0, NULL)) || (r = write_pci(emu, g)))
			return r;
		for (uint32_t j = 0, idx = 1; j < emu->ngpus; j++) {
			struct emu_xgmi_link x;

			if (emu_xgmi_link(emu, g, &emu->gpus[j], &x) &&
			    (r = write_io_link(emu, node, idx++, j + 1, &x)))
				return r;
		}
		for (uint32_t j = 0, idx = 0; j < emu->ngpus; j++)
			if (p2p_link(emu, g, &emu->gpus[j]) &&
			    (r = write_p2p_link(emu, node, idx++, j + 1)))
				return r;
	}
	{
		char bus[300];
		snprintf(bus, sizeof(bus), "%s/bus/pci", emu->sysfs);
		if ((r = mkdirs(bus)))
			return r;
	}
	/* drm_sysfs.c: the class's version file */
	if ((r = put(emu, "drm 1.1.0 20060810\n", "class/drm/version")))
		return r;
	/* as in real sysfs, class/kfd/kfd is a link to the device */
	return link_to(emu, "../../devices/virtual/kfd/kfd", "class/kfd/kfd");
}

/* A secondary process's entry (kfd_process.c kfd_create_process_sysfs()):
 * proc/<pid>/context_<id>/ under its primary's, with the "pasid" file that
 * every process entry has; kernels with per process-device PASIDs (commit
 * 8544374c0f82, before CREATE_PROCESS) report 0 there. Removed with the
 * process (kfd_process_wq_release() -> kfd_process_remove_sysfs()). */
#define PROC_DIR "devices/virtual/kfd/kfd/proc"

int emu_sysfs_proc_add(struct kfdsig_emu *emu, struct emu_proc *p)
{
	int r = put(emu, "0\n", PROC_DIR "/%d/context_%u/pasid", (int)p->pid,
		    (unsigned)p->context_id);

	p->has_sysfs = r == 0;
	return r;
}

void emu_sysfs_proc_remove(struct emu_proc *p)
{
	char path[700];

	if (!p->has_sysfs)
		return;
	snprintf(path, sizeof(path), "%s/" PROC_DIR "/%d/context_%u/pasid", p->emu->sysfs,
		 (int)p->pid, (unsigned)p->context_id);
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	p->has_sysfs = false;
}
