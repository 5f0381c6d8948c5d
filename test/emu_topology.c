/* SPDX-License-Identifier: MIT */
/*
 * The emulated topology against what amdkfd computes for the same chip.
 * The expectations below are data written from the kernel's sources (the
 * function named on each), not from the emulator: a table keyed by
 * gfx_target_version as kgd2kfd_probe() assigns it.
 *
 *  - capability: the doorbell type in bits 12-13 (kfd_topology.c
 *    kfd_topology_add_device(): PRE_1_0 on CHIP_TONGA, 1_0 on CHIP_CARRIZO,
 *    FIJI, POLARIS10/11/12, VEGAM, 2_0 on every GC >= 9.0.1); the watch
 *    point bits (node_show(): HSA_CAP_WATCH_POINTS_SUPPORTED and
 *    TOTALBITS = ilog2(num_of_watch_points), 4 on every device in
 *    kfd_device.c kfd_device_info_init()); HSA_CAP_AQL_QUEUE_DOUBLE_MAP on
 *    CHIP_TONGA only (node_show());
 *  - RAS: the node's SRAM EDC (GFX), MEM EDC (UMC) and RAS event (any
 *    block, not on GC 9.0.1) bits follow the blocks the render node's
 *    AMDGPU_INFO_RAS_ENABLED_FEATURES reports (kfd_topology_add_device()
 *    reads the same amdgpu_ras state), and a node without RAS bits has a
 *    render node that answers -EINVAL (amdgpu_kms.c amdgpu_info_ioctl(), no
 *    RAS context);
 *  - no HSA_CAP_SVMAPI_SUPPORTED (0x08000000): the emulated KFD has no SVM
 *    ioctl, and a kernel sets the bit only when it has
 *    (KFD_IS_SVM_API_SUPPORTED());
 *  - PCIe to the CPU: each GPU node's first io_link goes to the CPU, flags
 *    CRAT_IOLINK_FLAGS_ENABLED; the CPU's link back also has
 *    CRAT_IOLINK_FLAGS_NON_COHERENT (kfd_set_iolink_non_coherent());
 *  - XGMI: GPU nodes of one hive (the same non-zero hive_id) have, after
 *    their link to the CPU, one io_link of CRAT_IOLINK_TYPE_XGMI (11,
 *    kfd_crat.h) to each peer in node order, flags CRAT_SUBTYPE_FLAGS_ENABLED
 *    | CRAT_IOLINK_FLAGS_BI_DIRECTIONAL (1u << 31) (kfd_crat.c
 *    kfd_fill_gpu_xgmi_link_to_gpu()); weight KFD_CRAT_XGMI_WEIGHT (15) x
 *    hops on a device of one node, KFD_CRAT_INTRA_SOCKET_WEIGHT (13) with
 *    819200 MB/s between partitions of one device. Products without XGMI
 *    (gfx1030) have no GPU-to-GPU io_link and hive_id 0;
 *  - PCIe peers: GPU nodes outside one hive have a p2p_link to each other
 *    GPU in node order (kfd_topology.c kfd_dev_create_p2p_links() and
 *    kfd_add_peer_prop(), CONFIG_HSA_AMD_P2P, large BARs): under
 *    p2p_links/, counted by p2p_links_count, type PCIe, weight the sum of
 *    both GPUs' CPU links (20 + 20), flags ENABLED | NON_COHERENT (0x3,
 *    kfd_set_iolink_non_coherent()); nodes of one hive have none;
 *  - APUs and their sensors: AMD_IS_APU as amdgpu sets it
 *    (amdgpu_discovery.c amdgpu_discovery_set_ip_blocks(): GC 9.1.0, 9.2.2,
 *    9.3.0, 10.1.3/4, 10.3.1/3/6/7, 11.0.1/4, 11.5.x; amdgpu_drv.c
 *    pciidlist: Carrizo GC 8.0.1; gfx_target_version 90400 is the GC 9.4.3
 *    APU, kfd_device.c kgd2kfd_probe()) shows on the render node
 *    (AMDGPU_IDS_FLAGS_FUSION) and in hwmon as amdgpu_pm.c
 *    hwmon_attributes_visible() hides attributes: no fan and no
 *    temp1_crit on an APU, vddnb (in1) only there, junction and memory
 *    temperatures only on dGPUs from GC 9, power1_average not on APUs
 *    before Renoir (GC < 9.3), power caps not on APUs but Van Gogh
 *    (GC 10.3.1);
 *  - GET_TILE_CONFIG on gfx8 (kfd_chardev.c kfd_ioctl_get_tile_config(),
 *    amdgpu_amdkfd_get_tile_config()): num_banks / num_ranks are the
 *    MC_ARB_RAMCFG NOOFBANK / NOOFRANKS codes ROCr's address library
 *    accepts (siaddrlib.cpp DecodeGbRegs(): banks 0-2, ranks 0-1);
 *    gb_addr_config is gfx_v8_0.c gfx_v8_0_gpu_early_init()'s golden value
 *    with a ROW_SIZE; tile and macro-tile entries are those
 *    gfx_v8_0_tiling_mode_table_init() composes, here from its field
 *    values (gfx_8_0_enum.h) and the register shifts (gfx_8_0_sh_mask.h);
 *    GC 9+ has zero tables, banks and ranks. The render node's register
 *    reads (AMDGPU_INFO READ_MMR_REG) give the same values;
 *  - CU geometry (check_geometry()).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libdrm/amdgpu_drm.h>

#include <kfdsig/target.h>

#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

/* capability bits (include/uapi/linux/kfd_sysfs.h) */
#define CAP_WATCH_SUPPORTED 0x00000080u
#define CAP_WATCH_BITS_MASK 0x00000f00u
#define CAP_DOORBELL_MASK 0x00003000u
#define CAP_AQL_DOUBLE_MAP 0x00004000u
#define CAP_MEM_EDC 0x00100000u
#define CAP_RAS_EVENT 0x00200000u
#define CAP_SRAM_EDC 0x04000000u
#define CAP_SVMAPI 0x08000000u

/* kfd_topology_add_device()'s asic_type switch, by gfx_target_version. */
static unsigned doorbell_type_of(uint32_t gfxv)
{
	switch (gfxv) {
	case 80002: /* CHIP_TONGA */
		return 0;
	case 80001: /* CHIP_CARRIZO */
	case 80003: /* CHIP_FIJI, CHIP_POLARIS10/11/12, CHIP_VEGAM */
		return 1;
	default: /* GC >= 9.0.1 */
		return 2;
	}
}

/* "key value" of a properties file; -1 when absent. */
static long long prop_of(const char *root, const char *rel, const char *key)
{
	char path[600], line[256];
	long long v = -1;
	size_t n = strlen(key);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ') {
			v = strtoll(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

#define NODE1 "class/kfd/kfd/topology/nodes/1/properties"

static void check_apu(const struct kfdsig_target *t, struct kfdsig_emu *emu);
static void check_geometry(const struct kfdsig_target *t, struct kfdsig_emu *emu);

static void check_caps(const struct kfdsig_target *t)
{
	struct kfdsig_emu *emu = t_emu(t->name);
	const struct kfdsig_kfd_ops *ops = kfdsig_emu_ops(emu);
	long long cap = prop_of(ops->sysfs_root, NODE1, "capability");
	uint32_t c = (uint32_t)cap;
	unsigned want_db = doorbell_type_of(t->gfx_target_version);
	uint64_t ras = 0;
	int fd, r;

	CHECK(cap >= 0, "%s: node 1 has a capability", t->name);
	CHECK_EQ((c & CAP_DOORBELL_MASK) >> 12, want_db, "%s: doorbell type", t->name);
	CHECK((c & CAP_WATCH_SUPPORTED) && (c & CAP_WATCH_BITS_MASK) >> 8 == 2,
	      "%s: 4 watch points (capability 0x%x)", t->name, c);
	CHECK_EQ(!!(c & CAP_AQL_DOUBLE_MAP), t->gfx_target_version == 80002,
		 "%s: AQL double map only on Tonga", t->name);
	CHECK_EQ(c & CAP_SVMAPI, 0, "%s: no SVM API without the SVM ioctl", t->name);

	fd = ops->open(ops->ctx, "/dev/dri/renderD128", 0);
	T_REQUIRE(fd >= 0, "%s: renderD128", t->name);
	{
		struct drm_amdgpu_info q = { .return_pointer = (uintptr_t)&ras,
					     .return_size = sizeof(ras),
					     .query = AMDGPU_INFO_RAS_ENABLED_FEATURES };
		r = ops->ioctl(ops->ctx, fd, DRM_IOCTL_AMDGPU_INFO, &q);
	}
	ops->close(ops->ctx, fd);
	if (r) {
		CHECK_EQ(r, -EINVAL, "%s: no RAS context: -EINVAL", t->name);
		CHECK_EQ(c & (CAP_MEM_EDC | CAP_RAS_EVENT | CAP_SRAM_EDC), 0,
			 "%s: no RAS on the render node, none in the topology (0x%x)", t->name, c);
	} else {
		uint32_t f = (uint32_t)ras;

		CHECK_EQ(!!(c & CAP_SRAM_EDC), !!(f & AMDGPU_INFO_RAS_ENABLED_GFX),
			 "%s: SRAM EDC as the GFX RAS feature 0x%x", t->name, f);
		CHECK_EQ(!!(c & CAP_MEM_EDC), !!(f & AMDGPU_INFO_RAS_ENABLED_UMC),
			 "%s: MEM EDC as the UMC RAS feature 0x%x", t->name, f);
		CHECK_EQ(!!(c & CAP_RAS_EVENT), f != 0 && t->gfx_target_version != 90000,
			 "%s: RAS event with any feature, not on GC 9.0.1", t->name);
	}
	check_apu(t, emu);
	check_geometry(t, emu);
	kfdsig_emu_destroy(emu);
}

static bool gc_is(const struct kfdsig_target *t, unsigned a, unsigned b, unsigned c)
{
	return t->gc_ip[0] == a && t->gc_ip[1] == b && t->gc_ip[2] == c;
}

static bool kernel_apu(const struct kfdsig_target *t)
{
	static const unsigned apus[][3] = { { 8, 0, 1 },  { 8, 1, 0 },	{ 9, 1, 0 },  { 9, 2, 2 },
					    { 9, 3, 0 },  { 10, 1, 3 }, { 10, 1, 4 }, { 10, 3, 1 },
					    { 10, 3, 3 }, { 10, 3, 6 }, { 10, 3, 7 }, { 11, 0, 1 },
					    { 11, 0, 4 }, { 11, 5, 0 }, { 11, 5, 1 }, { 11, 5, 2 },
					    { 11, 5, 3 }, { 11, 5, 4 }, { 11, 5, 6 }, { 11, 7, 0 },
					    { 11, 7, 1 } };

	if (gc_is(t, 9, 4, 3))
		return t->gfx_target_version == 90400;
	for (size_t i = 0; i < sizeof(apus) / sizeof(apus[0]); i++)
		if (gc_is(t, apus[i][0], apus[i][1], apus[i][2]))
			return true;
	return false;
}

static bool hwmon_has(const char *root, const char *file)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/class/drm/card0/device/hwmon/hwmon0/%s", root, file);
	return access(path, F_OK) == 0;
}

static void check_apu(const struct kfdsig_target *t, struct kfdsig_emu *emu)
{
	const struct kfdsig_kfd_ops *ops = kfdsig_emu_ops(emu);
	const char *root = ops->sysfs_root;
	bool apu = kernel_apu(t), gc9 = t->gc_ip[0] >= 9;
	bool pre_renoir = t->gc_ip[0] < 9 || (t->gc_ip[0] == 9 && t->gc_ip[1] < 3);
	struct drm_amdgpu_info_device d = { 0 };
	struct drm_amdgpu_info q = { .return_pointer = (uintptr_t)&d,
				     .return_size = sizeof(d),
				     .query = AMDGPU_INFO_DEV_INFO };
	int fd = ops->open(ops->ctx, "/dev/dri/renderD128", 0);

	T_REQUIRE(fd >= 0, "%s: renderD128", t->name);
	CHECK_EQ(ops->ioctl(ops->ctx, fd, DRM_IOCTL_AMDGPU_INFO, &q), 0, "%s: DEV_INFO", t->name);
	ops->close(ops->ctx, fd);
	CHECK_EQ(!!(d.ids_flags & AMDGPU_IDS_FLAGS_FUSION), apu, "%s: render node's APU flag",
		 t->name);
	/* amdgpu_discovery.c: GC 11.7.x is AMDGPU_FAMILY_GC_11_5_4 (154). */
	if (t->gc_ip[0] == 11 && t->gc_ip[1] == 7)
		CHECK_EQ(d.family, 154, "%s: family", t->name);
	CHECK(hwmon_has(root, "temp1_input") && hwmon_has(root, "in0_input"),
	      "%s: edge temperature and vddgfx", t->name);
	CHECK_EQ(hwmon_has(root, "pwm1"), !apu, "%s: a fan only on a dGPU", t->name);
	CHECK_EQ(hwmon_has(root, "fan1_input"), !apu, "%s: fan1_input only on a dGPU", t->name);
	CHECK_EQ(hwmon_has(root, "temp1_crit"), !apu, "%s: temp1_crit not on an APU", t->name);
	CHECK_EQ(hwmon_has(root, "in1_input"), apu, "%s: vddnb only on an APU", t->name);
	CHECK_EQ(hwmon_has(root, "temp2_input"), !apu && gc9, "%s: junction on SOC15 dGPUs",
		 t->name);
	CHECK_EQ(hwmon_has(root, "temp3_input"), !apu && gc9, "%s: memory temp on SOC15 dGPUs",
		 t->name);
	CHECK_EQ(hwmon_has(root, "power1_average"), !(apu && pre_renoir),
		 "%s: average power but on APUs before Renoir", t->name);
	CHECK_EQ(hwmon_has(root, "power1_cap"), !apu || gc_is(t, 10, 3, 1),
		 "%s: power cap but on APUs other than Van Gogh", t->name);
}

/* One io_link's (or p2p_link's) key, -1 when the link is absent. */
static long long dir_link_prop(const char *root, const char *dir, unsigned node, unsigned link,
			       const char *key)
{
	char rel[160];

	snprintf(rel, sizeof(rel), "class/kfd/kfd/topology/nodes/%u/%s/%u/properties", node, dir,
		 link);
	return prop_of(root, rel, key);
}

static long long link_prop(const char *root, unsigned node, unsigned link, const char *key)
{
	return dir_link_prop(root, "io_links", node, link, key);
}

static long long node_prop(const char *root, unsigned node, const char *key)
{
	char rel[160];

	snprintf(rel, sizeof(rel), "class/kfd/kfd/topology/nodes/%u/properties", node);
	return prop_of(root, rel, key);
}

/* Expected GPU-to-GPU links of a spec: for each GPU node (1-based), the
 * peers in order with weight and maximum bandwidth (0: not checked). */
struct want_link {
	unsigned from, to, weight;
	long long max_bw;
};

/* hive: 1 a non-zero hive id, 0 none, -1 not checked (a partitioned
 * device's id is the PSP's, UNVERIFIED alone in its hive) */
static void check_links(const char *spec, unsigned ngpus, const struct want_link *w, size_t nw,
			int hive)
{
	struct kfdsig_emu *emu = t_emu(spec);
	const char *root = kfdsig_emu_ops(emu)->sysfs_root;
	long long hive1 = node_prop(root, 1, "hive_id");

	CHECK(hive < 0 || (hive ? hive1 > 0 : hive1 == 0), "%s: node 1 hive_id %lld", spec, hive1);
	for (unsigned n = 1; n <= ngpus; n++) {
		unsigned peers = 0, idx = 1;

		for (size_t i = 0; i < nw; i++)
			peers += w[i].from == n;
		CHECK_EQ(node_prop(root, n, "io_links_count"), 1 + peers, "%s: node %u links", spec,
			 n);
		CHECK_EQ(node_prop(root, n, "hive_id"), hive1, "%s: node %u in node 1's hive", spec,
			 n);
		CHECK_EQ(link_prop(root, n, 0, "type"), 2, "%s: node %u link 0 is PCIe", spec, n);
		CHECK_EQ(link_prop(root, n, 0, "node_to"), 0, "%s: node %u link 0 to the CPU", spec,
			 n);
		CHECK_EQ(link_prop(root, n, 0, "flags"), 1, "%s: node %u -> CPU enabled", spec, n);
		CHECK_EQ(link_prop(root, 0, n - 1, "node_to"), n, "%s: CPU link %u to node %u",
			 spec, n - 1, n);
		CHECK_EQ(link_prop(root, 0, n - 1, "flags"), 3,
			 "%s: CPU -> node %u enabled, non-coherent", spec, n);
		for (size_t i = 0; i < nw; i++) {
			if (w[i].from != n)
				continue;
			CHECK_EQ(link_prop(root, n, idx, "type"), 11, "%s: %u->%u is XGMI", spec, n,
				 w[i].to);
			CHECK_EQ(link_prop(root, n, idx, "node_from"), n, "%s: %u->%u from", spec,
				 n, w[i].to);
			CHECK_EQ(link_prop(root, n, idx, "node_to"), w[i].to, "%s: %u's link %u to",
				 spec, n, idx);
			CHECK_EQ(link_prop(root, n, idx, "weight"), w[i].weight,
				 "%s: %u->%u weight", spec, n, w[i].to);
			CHECK_EQ(link_prop(root, n, idx, "flags"), 0x80000001ll,
				 "%s: %u->%u enabled, bidirectional", spec, n, w[i].to);
			if (w[i].max_bw)
				CHECK_EQ(link_prop(root, n, idx, "max_bandwidth"), w[i].max_bw,
					 "%s: %u->%u bandwidth", spec, n, w[i].to);
			idx++;
		}
		CHECK_EQ(link_prop(root, n, idx, "type"), -1, "%s: node %u has no more links", spec,
			 n);
	}
	kfdsig_emu_destroy(emu);
}

/* A spec's PCIe peer links: @pairs[i] = { from, to } in each node's order,
 * every other GPU pair has none. */
static void check_p2p(const char *spec, unsigned ngpus, const unsigned (*pairs)[2], size_t np)
{
	struct kfdsig_emu *emu = t_emu(spec);
	const char *root = kfdsig_emu_ops(emu)->sysfs_root;

	CHECK_EQ(node_prop(root, 0, "p2p_links_count"), 0, "%s: the CPU has no p2p link", spec);
	for (unsigned n = 1; n <= ngpus; n++) {
		unsigned idx = 0;

		for (size_t i = 0; i < np; i++) {
			if (pairs[i][0] != n)
				continue;
#define P2P(key) dir_link_prop(root, "p2p_links", n, idx, key)
			CHECK_EQ(P2P("type"), 2, "%s: p2p %u->%u is PCIe", spec, n, pairs[i][1]);
			CHECK_EQ(P2P("node_from"), n, "%s: p2p %u from", spec, n);
			CHECK_EQ(P2P("node_to"), pairs[i][1], "%s: node %u's p2p link %u to", spec,
				 n, idx);
			CHECK_EQ(P2P("weight"), 40, "%s: p2p %u->%u weight 20 + 20", spec, n,
				 pairs[i][1]);
			CHECK_EQ(P2P("flags"), 3, "%s: p2p %u->%u enabled, non-coherent", spec, n,
				 pairs[i][1]);
#undef P2P
			idx++;
		}
		CHECK_EQ(node_prop(root, n, "p2p_links_count"), idx, "%s: node %u p2p links", spec,
			 n);
		CHECK_EQ(dir_link_prop(root, "p2p_links", n, idx, "type"), -1,
			 "%s: node %u has no more p2p links", spec, n);
	}
	kfdsig_emu_destroy(emu);
}

static void test_xgmi(void)
{
	/* the two GCDs of one MI250X: one hop */
	static const struct want_link mi250x[] = { { 1, 2, 15, 0 }, { 2, 1, 15, 0 } };
	/* partitions of one device (kfd->num_nodes > 1): intra-socket */
	static const struct want_link cpx2[] = { { 1, 2, 13, 819200 }, { 2, 1, 13, 819200 } };

	check_links("gfx90a,gfx90a", 2, mi250x, 2, 1);
	check_links("gfx1030,gfx1030", 2, NULL, 0, 0);
	check_links("gfx90a", 1, NULL, 0, 0);
	check_links("gfx942,partition=dpx", 2, cpx2, 2, -1);
}

static void test_p2p(void)
{
	static const unsigned two[][2] = { { 1, 2 }, { 2, 1 } };
	/* two GCDs of one hive and a PCIe card: the card and each GCD */
	static const unsigned mixed[][2] = { { 1, 3 }, { 2, 3 }, { 3, 1 }, { 3, 2 } };

	check_p2p("gfx900,gfx900", 2, two, 2);
	check_p2p("gfx1030,gfx1030", 2, two, 2);
	check_p2p("gfx90a,gfx1030", 2, two, 2);
	check_p2p("gfx90a,gfx90a", 2, NULL, 0);
	check_p2p("gfx90a,gfx90a,gfx1030", 3, mixed, 4);
	check_p2p("gfx1030", 1, NULL, 0);
}

/* gfx_v8_0.c's field macros with gfx_8_0_sh_mask.h's shifts */
#define T_ARRAY(x) ((uint32_t)(x) << 2)
#define T_PIPE(x) ((uint32_t)(x) << 6)
#define T_SPLIT(x) ((uint32_t)(x) << 11)
#define T_MICRO(x) ((uint32_t)(x) << 22)
#define M_BW(x) ((uint32_t)(x) << 0)
#define M_BH(x) ((uint32_t)(x) << 2)
#define M_ASPECT(x) ((uint32_t)(x) << 4)
#define M_BANKS(x) ((uint32_t)(x) << 6)
/* gfx_8_0_enum.h */
#define ARRAY_LINEAR_ALIGNED 1
#define ARRAY_2D_TILED_THIN1 4
#define P2 0
#define P8_32x32_16x16 12
#define SPLIT_64B 0
#define DEPTH_MICRO 2
#define BW_1 0
#define BW_4 2
#define BH_4 2
#define BH_8 3
#define ASPECT_4 2
#define BANKS_16 3

struct want_tile {
	const char *target;
	uint32_t gb_addr_config;
	unsigned tile_idx[3], macro_idx[2];
	uint32_t tile[3], macro[2];
};

static uint32_t mmr(const struct kfdsig_kfd_ops *ops, int fd, uint32_t reg)
{
	uint32_t v = 0xdeadbeef;
	struct drm_amdgpu_info q = { .return_pointer = (uintptr_t)&v,
				     .return_size = 4,
				     .query = AMDGPU_INFO_READ_MMR_REG };

	q.read_mmr_reg.dword_offset = reg;
	q.read_mmr_reg.count = 1;
	q.read_mmr_reg.instance = 0xffffffff;
	return ops->ioctl(ops->ctx, fd, DRM_IOCTL_AMDGPU_INFO, &q) ? 0xdeadbeef : v;
}

static void check_tile(const struct want_tile *w)
{
	struct kfdsig_emu *emu = t_emu(w->target);
	const struct kfdsig_kfd_ops *ops = kfdsig_emu_ops(emu);
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t tile[32], macro[16];
	struct kfd_ioctl_get_tile_config_args a = {
		.tile_config_ptr = (uintptr_t)tile,
		.macro_tile_config_ptr = (uintptr_t)macro,
		.num_tile_configs = 64,
		.num_macro_tile_configs = 64,
		.gpu_id = t_gpu(kfd, 0),
	};
	int r = ops->ioctl(ops->ctx, kfdsig_kfd_fd(kfd), AMDKFD_IOC_GET_TILE_CONFIG, &a), fd;

	CHECK_EQ(r, 0, "%s: GET_TILE_CONFIG", w->target);
	CHECK_EQ(a.num_tile_configs, 32, "%s: 32 tile modes", w->target);
	CHECK_EQ(a.num_macro_tile_configs, 16, "%s: 16 macro-tile modes", w->target);
	CHECK_EQ(a.gb_addr_config, w->gb_addr_config, "%s: gb_addr_config", w->target);
	CHECK(a.num_banks <= 2 && a.num_ranks <= 1,
	      "%s: bank %u / rank %u codes DecodeGbRegs accepts", w->target, a.num_banks,
	      a.num_ranks);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(tile[w->tile_idx[i]], w->tile[i], "%s: tile mode %u", w->target,
			 w->tile_idx[i]);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(macro[w->macro_idx[i]], w->macro[i], "%s: macro-tile mode %u", w->target,
			 w->macro_idx[i]);
	fd = ops->open(ops->ctx, "/dev/dri/renderD128", 0);
	T_REQUIRE(fd >= 0, "%s: renderD128", w->target);
	CHECK_EQ(mmr(ops, fd, 0x263e), w->gb_addr_config, "%s: GB_ADDR_CONFIG read", w->target);
	CHECK_EQ(mmr(ops, fd, 0x2644 + w->tile_idx[0]), w->tile[0], "%s: GB_TILE_MODE%u read",
		 w->target, w->tile_idx[0]);
	CHECK_EQ(mmr(ops, fd, 0x2664 + w->macro_idx[1]), w->macro[1],
		 "%s: GB_MACROTILE_MODE%u read", w->target, w->macro_idx[1]);
	{
		uint32_t ram = mmr(ops, fd, 0x9d8);

		CHECK(ram != 0xdeadbeef && (ram & 3) == a.num_banks &&
			      (ram >> 2 & 1) == a.num_ranks,
		      "%s: MC_ARB_RAMCFG 0x%x holds the codes GET_TILE_CONFIG reports", w->target,
		      ram);
	}
	ops->close(ops->ctx, fd);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_tile_config(void)
{
	/* CHIP_TONGA and CHIP_POLARIS10 (gfx802, gfx803): modearray[0],
	 * [8], [31] (unset), mod2array[0], [8] */
	const uint32_t tonga_tile[3] = {
		T_ARRAY(ARRAY_2D_TILED_THIN1) | T_PIPE(P8_32x32_16x16) | T_SPLIT(SPLIT_64B) |
			T_MICRO(DEPTH_MICRO),
		T_ARRAY(ARRAY_LINEAR_ALIGNED) | T_PIPE(P8_32x32_16x16),
		0,
	};
	const uint32_t tonga_macro[2] = {
		M_BW(BW_1) | M_BH(BH_4) | M_ASPECT(ASPECT_4) | M_BANKS(BANKS_16),
		M_BW(BW_1) | M_BH(BH_8) | M_ASPECT(ASPECT_4) | M_BANKS(BANKS_16),
	};
	/* CHIP_CARRIZO (gfx801): modearray[0], [8], [7] (unset), mod2array[8] */
	const uint32_t cz_tile[3] = {
		T_ARRAY(ARRAY_2D_TILED_THIN1) | T_PIPE(P2) | T_SPLIT(SPLIT_64B) |
			T_MICRO(DEPTH_MICRO),
		T_ARRAY(ARRAY_LINEAR_ALIGNED) | T_PIPE(P2),
		0,
	};
	const uint32_t cz_macro[2] = { 0, M_BW(BW_4) | M_BH(BH_8) | M_ASPECT(ASPECT_4) |
						  M_BANKS(BANKS_16) };
	/* gb_addr_config: TONGA_GB_ADDR_CONFIG_GOLDEN 0x22011003 with 4 KiB
	 * rows (ROW_SIZE 2, unchanged); CARRIZO_GB_ADDR_CONFIG_GOLDEN
	 * 0x22010001 with 1 KiB rows (ROW_SIZE 0) */
	struct want_tile w[] = {
		{ "gfx803", 0x22011003, { 0, 8, 31 }, { 0, 8 }, { 0 }, { 0 } },
		{ "gfx802", 0x22011003, { 0, 8, 31 }, { 0, 8 }, { 0 }, { 0 } },
		{ "gfx801", 0x02010001, { 0, 8, 7 }, { 7, 8 }, { 0 }, { 0 } },
	};

	for (size_t i = 0; i < 3; i++) {
		memcpy(w[i].tile, i < 2 ? tonga_tile : cz_tile, sizeof(w[i].tile));
		memcpy(w[i].macro, i < 2 ? tonga_macro : cz_macro, sizeof(w[i].macro));
	}
	for (size_t i = 0; i < 3; i++)
		check_tile(&w[i]);
	/* GC 9: no tables, banks or ranks */
	{
		struct kfdsig_emu *emu = t_emu("gfx90a");
		const struct kfdsig_kfd_ops *ops = kfdsig_emu_ops(emu);
		struct kfdsig_kfd *kfd = t_open(emu);
		uint32_t tile[32];
		struct kfd_ioctl_get_tile_config_args a = { .tile_config_ptr = (uintptr_t)tile,
							    .num_tile_configs = 32,
							    .gpu_id = t_gpu(kfd, 0) };

		memset(tile, 0xff, sizeof(tile));
		CHECK_EQ(ops->ioctl(ops->ctx, kfdsig_kfd_fd(kfd), AMDKFD_IOC_GET_TILE_CONFIG, &a),
			 0, "gfx90a: GET_TILE_CONFIG");
		CHECK(a.num_banks == 0 && a.num_ranks == 0 && tile[0] == 0 && tile[31] == 0,
		      "gfx90a: no banks, ranks or tile modes");
		kfdsig_kfd_close(kfd);
		kfdsig_emu_destroy(emu);
	}
}

/*
 * CU geometry (kfd_crat.c kfd_fill_gpu_cu(): array_count = SEs x SAs,
 * cu_per_simd_array = CUs per SA, simd_count = SIMDs per CU x active CUs):
 * on every target no more active CUs than the SAs hold; on the products
 * below the part's own numbers, all CUs active, so that a CU mask over
 * SE x SA x CU (mqd_symmetrically_map_cu_mask(), WGPs of two CUs from GC
 * 10 on) covers exactly the node's CUs. Written from rocminfo on the
 * part: RX 9070 XT (gfx1201), its output quoted in
 * github.com/ROCm/legacy-rocm-build/issues/6521: Compute Unit 64, SIMDs
 * per CU 2, Shader Engines 4, Shader Arrs. per Eng. 2; Chip ID 0x7550.
 */
static const struct {
	const char *name;
	long long simd_count, simd_per_cu, arrays, per_engine, cu_per_array, device_id;
} want_geom[] = {
	{ "gfx1201", 128, 2, 8, 2, 8, 0x7550 },
};

static void check_geometry(const struct kfdsig_target *t, struct kfdsig_emu *emu)
{
	const char *root = kfdsig_emu_ops(emu)->sysfs_root;
	long long simds = node_prop(root, 1, "simd_count"),
		  per_cu = node_prop(root, 1, "simd_per_cu");
	long long arrays = node_prop(root, 1, "array_count");
	long long cus_per = node_prop(root, 1, "cu_per_simd_array");

	CHECK(per_cu > 0 && simds > 0 && simds % per_cu == 0 && simds / per_cu <= arrays * cus_per,
	      "%s: %lld CUs in %lld arrays of %lld", t->name, per_cu > 0 ? simds / per_cu : -1,
	      arrays, cus_per);
	for (size_t i = 0; i < sizeof(want_geom) / sizeof(want_geom[0]); i++) {
		if (strcmp(want_geom[i].name, t->name))
			continue;
		CHECK_EQ(simds, want_geom[i].simd_count, "%s: simd_count", t->name);
		CHECK_EQ(per_cu, want_geom[i].simd_per_cu, "%s: simd_per_cu", t->name);
		CHECK_EQ(arrays, want_geom[i].arrays, "%s: array_count", t->name);
		CHECK_EQ(node_prop(root, 1, "simd_arrays_per_engine"), want_geom[i].per_engine,
			 "%s: simd_arrays_per_engine", t->name);
		CHECK_EQ(cus_per, want_geom[i].cu_per_array, "%s: cu_per_simd_array", t->name);
		CHECK_EQ(node_prop(root, 1, "device_id"), want_geom[i].device_id, "%s: device_id",
			 t->name);
		CHECK_EQ(simds / per_cu, arrays * cus_per, "%s: every CU of the SAs active",
			 t->name);
	}
}

int main(void)
{
	for (size_t i = 0; i < kfdsig_target_count(); i++)
		check_caps(kfdsig_target_at(i));
	test_xgmi();
	test_p2p();
	test_tile_config();
	return t_result("emu_topology");
}
