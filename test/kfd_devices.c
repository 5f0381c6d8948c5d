/* SPDX-License-Identifier: MIT */
/*
 * Device discovery, the KFD version and the feature table, through the
 * seam against the emulated KFD: several GPUs of different targets, the
 * CPU node skipped, the DRM details from the description, an unknown
 * gfx_target_version listed with a note (a hand-written sysfs tree swapped
 * into the emulator's ops), and both sides of each version gate.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfd_util.h"

static void test_several_gpus(void)
{
	struct kfdsig_emu *emu = t_emu("gfx803,gfx90a,gfx1100,gfx1201");
	struct kfdsig_kfd *kfd = t_open(emu);
	static const char *const names[] = { "gfx803", "gfx90a", "gfx1100", "gfx1201" };
	static const uint32_t versions[] = { 80003, 90010, 110000, 120001 };

	CHECK_EQ(kfdsig_kfd_device_count(kfd), 4, "CPU node 0 skipped, 4 GPUs");
	for (size_t i = 0; i < 4; i++) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(kfd, i);
		CHECK(d && d->target && !strcmp(d->target->name, names[i]), "gpu %zu target", i);
		CHECK_EQ(d->gfx_target_version, versions[i], "gpu %zu version", i);
		CHECK_EQ(d->node_id, i + 1, "node index");
		CHECK(d->gpu_id != 0, "gpu_id non-zero");
		CHECK_EQ(d->drm_render_minor, 128 + i, "render minor");
		CHECK(d->have_drm_info, "drm info from the description");
		CHECK_EQ(d->drm.gc_ip[0], d->target->gc_ip[0], "GC IP major from drm_info");
		CHECK(d->note == NULL, "no note for a known target");
		CHECK(kfdsig_kfd_device_by_gpu_id(kfd, d->gpu_id) == d, "lookup by gpu_id");
		for (size_t j = 0; j < i; j++)
			CHECK(kfdsig_kfd_device(kfd, j)->gpu_id != d->gpu_id, "unique gpu ids");
	}
	CHECK(kfdsig_kfd_device(kfd, 4) == NULL && errno == ERANGE, "index out of range");
	CHECK(kfdsig_kfd_device_by_gpu_id(kfd, 0) == NULL && errno == ENOENT, "unknown gpu_id");
	/* gfx90a has XGMI SDMA engines in the emulated description */
	CHECK_EQ(kfdsig_kfd_device(kfd, 1)->num_sdma_xgmi_engines, 3, "gfx90a xgmi sdma");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_version_gates(void)
{
	static const struct {
		const char *spec;
		uint32_t minor;
	} cases[] = { { "gfx90a,kfd=1.2", 2 },	 { "gfx90a,kfd=1.3", 3 },
		      { "gfx90a,kfd=1.13", 13 }, { "gfx90a,kfd=1.14", 14 },
		      { "gfx90a,kfd=1.16", 16 }, { "gfx90a,kfd=1.17", 17 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kfdsig_emu *emu = t_emu(cases[i].spec);
		struct kfdsig_kfd *kfd = t_open(emu);
		uint32_t major = 0, minor = 0, min;

		CHECK(kfdsig_kfd_version(kfd, &major, &minor) == 0, "version");
		CHECK_EQ(major, 1, "major");
		CHECK_EQ(minor, cases[i].minor, "minor");
		/* Hand-written gates from the uapi version history. */
		CHECK_EQ(kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_SMI_EVENTS), minor >= 3, "smi");
		CHECK_EQ(kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_EVENT_AGE), minor >= 14, "age");
		CHECK_EQ(kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_SDMA_BY_ENG_ID), minor >= 17, "eng");
		CHECK_EQ(kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_DEBUGGER), minor >= 13, "dbg");
		CHECK(!strcmp(kfdsig_kfd_feature_info(KFDSIG_KFD_FEAT_EVENT_AGE, &min),
			      "event-age") &&
			      min == 14,
		      "feature info");
		kfdsig_kfd_close(kfd);
		kfdsig_emu_destroy(emu);
	}
	CHECK(!kfdsig_kfd_has(NULL, KFDSIG_KFD_FEAT_SMI_EVENTS), "NULL handle has nothing");
	CHECK(kfdsig_kfd_feature_info(KFDSIG_KFD_FEAT_COUNT, NULL) == NULL, "out of range");
}

/* A sysfs tree written by hand: a CPU node, a gfx1100 and a GPU whose
 * gfx_target_version (99999) is in no table. */
static int write_node(const char *root, int n, const char *gpu_id, const char *props)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/class", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/class/kfd", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/class/kfd/kfd", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/class/kfd/kfd/topology", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/class/kfd/kfd/topology/nodes", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/class/kfd/kfd/topology/nodes/%d", root, n);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/class/kfd/kfd/topology/nodes/%d/gpu_id", root, n);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs(gpu_id, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/class/kfd/kfd/topology/nodes/%d/properties", root, n);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs(props, f);
	fclose(f);
	return 0;
}

static void test_unknown_target(void)
{
	struct kfdsig_emu *emu = t_emu("gfx1100");
	struct kfdsig_kfd_ops ops = *kfdsig_emu_ops(emu);
	char root[] = "/tmp/kfdsig-sysfs-XXXXXX";
	struct kfdsig_kfd *kfd = NULL;

	T_REQUIRE(mkdtemp(root), "mkdtemp");
	T_REQUIRE(!write_node(root, 0, "0\n", "cpu_cores_count 16\nsimd_count 0\n") &&
			  !write_node(root, 1, "4660\n",
				      "simd_count 192\ngfx_target_version 110000\nvendor_id 4098\n"
				      "drm_render_minor 128\nnum_sdma_engines 2\nfw_version 500\n"
				      "sdma_fw_version 21\nlocal_mem_size 25753026560\n") &&
			  !write_node(root, 2, "777\n",
				      "simd_count 8\ngfx_target_version 99999\n"
				      "drm_render_minor 200\n"),
		  "sysfs tree");
	ops.sysfs_root = root;
	CHECK(kfdsig_kfd_open(&ops, &kfd) == 0, "open with a swapped sysfs root");
	if (kfd) {
		const struct kfdsig_kfd_device *a = kfdsig_kfd_device(kfd, 0);
		const struct kfdsig_kfd_device *b = kfdsig_kfd_device(kfd, 1);
		CHECK_EQ(kfdsig_kfd_device_count(kfd), 2, "two GPU nodes");
		CHECK(a && a->target && !strcmp(a->target->name, "gfx1100"), "node 1 is gfx1100");
		CHECK_EQ(a->gpu_id, 4660, "gpu_id file");
		CHECK_EQ(a->fw_version, 500, "fw_version");
		CHECK_EQ(a->sdma_fw_version, 21, "sdma_fw_version");
		CHECK_EQ(a->local_mem_size, 25753026560ull, "64-bit property");
		CHECK_EQ(a->num_sdma_engines, 2, "sdma engines");
		CHECK(b && !b->target, "unknown target has no record");
		CHECK(b && b->note && strstr(b->note, "not in kfdsig"), "unknown target noted");
		CHECK(b && !b->have_drm_info, "no render node 200: no drm info, no error");
		kfdsig_kfd_close(kfd);
	}
	for (int n = 0; n < 3; n++) {
		char p[512];
		snprintf(p, sizeof(p), "%s/class/kfd/kfd/topology/nodes/%d/gpu_id", root, n);
		unlink(p);
		snprintf(p, sizeof(p), "%s/class/kfd/kfd/topology/nodes/%d/properties", root, n);
		unlink(p);
		snprintf(p, sizeof(p), "%s/class/kfd/kfd/topology/nodes/%d", root, n);
		rmdir(p);
	}
	{
		const char *dirs[] = { "class/kfd/kfd/topology/nodes",
				       "class/kfd/kfd/topology",
				       "class/kfd/kfd",
				       "class/kfd",
				       "class",
				       "" };
		for (size_t i = 0; i < 6; i++) {
			char p[512];
			snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
			rmdir(p);
		}
	}
	kfdsig_emu_destroy(emu);
}

/* The DRM driver's GC IP cross-checks the table: a drm_info that reports
 * another version (swapped into the emulator's ops) yields a note. */
static const struct kfdsig_kfd_ops *inner;
static int lying_drm_info(void *ctx, int fd, struct kfdsig_drm_info *out)
{
	int r = inner->drm_info(ctx, fd, out);
	out->gc_ip[0] = 10;
	out->gc_ip[1] = 3;
	return r;
}

static void test_drm_cross_check(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd_ops ops = *kfdsig_emu_ops(emu);
	struct kfdsig_kfd *kfd = NULL;

	inner = kfdsig_emu_ops(emu);
	ops.drm_info = lying_drm_info;
	CHECK(kfdsig_kfd_open(&ops, &kfd) == 0, "open");
	if (kfd) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(kfd, 0);
		CHECK(d->target && d->note && strstr(d->note, "GC IP"), "mismatch noted");
		kfdsig_kfd_close(kfd);
	}
	kfd = t_open(emu);
	CHECK(kfdsig_kfd_device(kfd, 0)->note == NULL, "no note when they agree");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_open_errors(void)
{
	struct kfdsig_emu *emu = t_emu("gfx906");
	struct kfdsig_kfd_ops ops = *kfdsig_emu_ops(emu);
	struct kfdsig_kfd *kfd = NULL;

	ops.sysfs_root = "/nonexistent-kfdsig";
	CHECK_EQ(kfdsig_kfd_open(&ops, &kfd), -ENOENT, "no topology");
	CHECK(kfd == NULL, "no handle on failure");
	ops = *kfdsig_emu_ops(emu);
	ops.ioctl = NULL;
	CHECK_EQ(kfdsig_kfd_open(&ops, &kfd), -EINVAL, "incomplete ops refused");
	CHECK(kfdsig_emu_create_from_spec("gfx9999") == NULL && errno == ENOENT, "bad target");
	CHECK(kfdsig_emu_create_from_spec("kfd=1.14") == NULL && errno == EINVAL, "no target");
	CHECK(kfdsig_emu_create_from_spec("gfx90a,kfd=x") == NULL && errno == EINVAL, "bad ver");
	CHECK(kfdsig_emu_create_from_spec("gfx90a,profile=v9") == NULL && errno == EINVAL,
	      "bad profile");
	kfdsig_emu_destroy(emu);
}

/* A profile names a kernel release: its KFD version is the default, and a
 * version that release cannot report is refused naming both. */
static void test_profile_versions(void)
{
	static const struct {
		const char *spec;
		uint32_t minor; /* 0: refused */
	} cases[] = {
		{ "gfx90a", 18 },
		{ "gfx90a,profile=v6.14", 17 },
		{ "gfx90a,profile=v6.14,kfd=1.18", 18 },
		{ "gfx90a,profile=v7.1", 22 },
		{ "gfx90a,profile=v7.3", 22 },
		{ "gfx90a,kfd=1.22,profile=v7.3", 22 },
		{ "gfx90a,kfd=1.14", 14 },
		{ "gfx90a,profile=v7.3,kfd=1.14", 0 },
		{ "gfx90a,profile=v7.1,kfd=1.21", 0 },
		{ "gfx90a,profile=v6.14,kfd=1.19", 0 },
		{ "gfx90a,profile=v6.14,kfd=1.16", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kfdsig_emu *emu = kfdsig_emu_create_from_spec(cases[i].spec);
		uint32_t major = 0, minor = 0;
		struct kfdsig_kfd *kfd;

		if (!cases[i].minor) {
			CHECK(emu == NULL && errno == EINVAL, "%s refused", cases[i].spec);
			CHECK(strstr(kfdsig_last_error(), "profile=") &&
				      strstr(kfdsig_last_error(), "KFD version 1."),
			      "%s: the message names both (%s)", cases[i].spec,
			      kfdsig_last_error());
			kfdsig_emu_destroy(emu);
			continue;
		}
		CHECK(emu != NULL, "%s accepted", cases[i].spec);
		if (!emu)
			continue;
		kfd = t_open(emu);
		CHECK(kfdsig_kfd_version(kfd, &major, &minor) == 0 && major == 1 &&
			      minor == cases[i].minor,
		      "%s reports 1.%u (got %u.%u)", cases[i].spec, cases[i].minor, major, minor);
		kfdsig_kfd_close(kfd);
		kfdsig_emu_destroy(emu);
	}
}

int main(void)
{
	test_profile_versions();
	test_several_gpus();
	test_version_gates();
	test_unknown_target();
	test_drm_cross_check();
	test_open_errors();
	return t_result("kfd_devices");
}
