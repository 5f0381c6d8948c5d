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
 *  - RAS: the node's SRAM/MEM EDC and RAS event bits follow the features
 *    the render node's AMDGPU_INFO_RAS_ENABLED_FEATURES reports
 *    (kfd_topology_add_device() reads the same amdgpu_ras context), and a
 *    node without RAS bits has a render node that answers -EINVAL
 *    (amdgpu_kms.c amdgpu_info_ioctl(), no RAS context);
 *  - XGMI: GPU nodes of one hive (the same non-zero hive_id) have, after
 *    their link to the CPU, one io_link of CRAT_IOLINK_TYPE_XGMI (11,
 *    kfd_crat.h) to each peer in node order, flags CRAT_SUBTYPE_FLAGS_ENABLED
 *    | CRAT_IOLINK_FLAGS_BI_DIRECTIONAL (1u << 31) (kfd_crat.c
 *    kfd_fill_gpu_xgmi_link_to_gpu()); weight KFD_CRAT_XGMI_WEIGHT (15) x
 *    hops on a device of one node, KFD_CRAT_INTRA_SOCKET_WEIGHT (13) with
 *    819200 MB/s between partitions of one device. Products without XGMI
 *    (gfx1030) have no GPU-to-GPU link and hive_id 0.
 */
#include <stdio.h>
#include <string.h>

#include <libdrm/amdgpu_drm.h>

#include <kfdsig/target.h>

#include "kfd_util.h"

/* capability bits (include/uapi/linux/kfd_sysfs.h) */
#define CAP_WATCH_SUPPORTED 0x00000080u
#define CAP_WATCH_BITS_MASK 0x00000f00u
#define CAP_DOORBELL_MASK 0x00003000u
#define CAP_AQL_DOUBLE_MAP 0x00004000u
#define CAP_MEM_EDC 0x00100000u
#define CAP_RAS_EVENT 0x00200000u
#define CAP_SRAM_EDC 0x04000000u

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

		CHECK_EQ(!!(c & CAP_SRAM_EDC),
			 !!(f & (AMDGPU_INFO_RAS_ENABLED_SDMA | AMDGPU_INFO_RAS_ENABLED_GFX)),
			 "%s: SRAM EDC as the SDMA/GFX RAS features 0x%x", t->name, f);
		CHECK_EQ(!!(c & CAP_MEM_EDC), !!(f & AMDGPU_INFO_RAS_ENABLED_UMC),
			 "%s: MEM EDC as the UMC RAS feature 0x%x", t->name, f);
		CHECK_EQ(!!(c & CAP_RAS_EVENT), f != 0, "%s: RAS event with any feature", t->name);
	}
	kfdsig_emu_destroy(emu);
}

/* One io_link's key, -1 when the link is absent. */
static long long link_prop(const char *root, unsigned node, unsigned link, const char *key)
{
	char rel[160];

	snprintf(rel, sizeof(rel), "class/kfd/kfd/topology/nodes/%u/io_links/%u/properties", node,
		 link);
	return prop_of(root, rel, key);
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

int main(void)
{
	for (size_t i = 0; i < kfdsig_target_count(); i++)
		check_caps(kfdsig_target_at(i));
	test_xgmi();
	return t_result("emu_topology");
}
