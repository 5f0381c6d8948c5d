/* SPDX-License-Identifier: MIT */
/* kfdsig devices: the KFD GPU nodes, their targets, versions, firmware. */
#include <getopt.h>
#include <string.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f, "usage: kfdsig devices [-j] [--emulate SPEC]\n\n"
		   "List every GPU node of the KFD topology (CPU nodes are skipped) with:\n"
		   "  node      topology node index; gpu_id: the KFD gpu id\n"
		   "  target    the generation-table target of gfx_target_version\n"
		   "  mec-fw / sdma-fw  firmware versions from the topology\n"
		   "  sdma      SDMA engines (+ XGMI SDMA engines)\n"
		   "  render    the DRM render node\n"
		   "  supported whether kfdsig knows the target (else the reason)\n"
		   "  name      marketing name from libdrm_amdgpu (or the topology name)\n"
		   "The first line gives the KFD ioctl version and the backend; --json adds\n"
		   "the version-gated feature table and the DRM details.\n\n"
		   "  -j, --json      one JSON object\n"
		   "  --emulate SPEC  use an emulated KFD (also KFDSIG_EMULATE=SPEC), e.g.\n"
		   "                  --emulate gfx90a,gfx1100 on a machine without a GPU\n");
	cli_help_exit(f, "when there is no KFD (no /dev/kfd and no --emulate)");
}

static const char *dev_name(const struct kfdsig_kfd_device *d)
{
	if (d->have_drm_info && d->drm.marketing_name[0])
		return d->drm.marketing_name;
	return d->name;
}

static void print_json(const struct kfdsig_kfd *kfd)
{
	const struct kfdsig_kfd_ops *ops = kfdsig_kfd_ops_of(kfd);
	uint32_t major, minor;

	kfdsig_kfd_version(kfd, &major, &minor);
	printf("{\"backend\": ");
	cli_json_str(stdout, ops->name ? ops->name : "?");
	printf(", \"kfd_version\": \"%u.%u\", \"features\": {", major, minor);
	for (int f = 0; f < KFDSIG_KFD_FEAT_COUNT; f++) {
		uint32_t min;
		const char *name = kfdsig_kfd_feature_info(f, &min);
		printf("%s\"%s\": %s", f ? ", " : "", name,
		       kfdsig_kfd_has(kfd, f) ? "true" : "false");
	}
	printf("},\n \"devices\": [");
	for (size_t i = 0; i < kfdsig_kfd_device_count(kfd); i++) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(kfd, i);
		printf("%s\n  {\"node\": %u, \"gpu_id\": %u, \"gfx_target_version\": %u, "
		       "\"target\": ",
		       i ? "," : "", d->node_id, d->gpu_id, d->gfx_target_version);
		if (d->target)
			cli_json_str(stdout, d->target->name);
		else
			printf("null");
		printf(", \"supported\": %s, \"note\": ", d->target ? "true" : "false");
		if (d->note)
			cli_json_str(stdout, d->note);
		else
			printf("null");
		printf(", \"name\": ");
		cli_json_str(stdout, d->name);
		printf(", \"vendor_id\": %u, \"device_id\": %u, \"drm_render_minor\": %u, "
		       "\"fw_version\": %u, \"sdma_fw_version\": %u, \"num_sdma_engines\": %u, "
		       "\"num_sdma_xgmi_engines\": %u, \"num_sdma_queues_per_engine\": %u, "
		       "\"num_cp_queues\": %u, \"simd_count\": %u, \"num_xcc\": %u, "
		       "\"local_mem_size\": %llu",
		       d->vendor_id, d->device_id, d->drm_render_minor, d->fw_version,
		       d->sdma_fw_version, d->num_sdma_engines, d->num_sdma_xgmi_engines,
		       d->num_sdma_queues_per_engine, d->num_cp_queues, d->simd_count, d->num_xcc,
		       (unsigned long long)d->local_mem_size);
		printf(", \"drm\": ");
		if (!d->have_drm_info) {
			printf("null}");
			continue;
		}
		printf("{\"marketing_name\": ");
		cli_json_str(stdout, d->drm.marketing_name);
		printf(", \"gc_ip\": \"%u.%u.%u\", \"sdma_ip\": \"%u.%u.%u\", "
		       "\"mec_fw_version\": %u, \"sdma_fw_version\": %u, \"num_sdma_rings\": %u}}",
		       d->drm.gc_ip[0], d->drm.gc_ip[1], d->drm.gc_ip[2], d->drm.sdma_ip[0],
		       d->drm.sdma_ip[1], d->drm.sdma_ip[2], d->drm.mec_fw_version,
		       d->drm.sdma_fw_version, d->drm.num_sdma_rings);
	}
	printf("\n ]\n}\n");
}

static void print_text(const struct kfdsig_kfd *kfd)
{
	const struct kfdsig_kfd_ops *ops = kfdsig_kfd_ops_of(kfd);
	uint32_t major, minor;

	kfdsig_kfd_version(kfd, &major, &minor);
	printf("KFD %u.%u (%s backend), %zu GPU%s\n", major, minor, ops->name ? ops->name : "?",
	       kfdsig_kfd_device_count(kfd), kfdsig_kfd_device_count(kfd) == 1 ? "" : "s");
	printf("%-4s %-6s %-8s %-7s %-7s %-7s %-5s %-11s %-9s %s\n", "node", "gpu_id", "target",
	       "version", "mec-fw", "sdma-fw", "sdma", "render", "supported", "name");
	for (size_t i = 0; i < kfdsig_kfd_device_count(kfd); i++) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(kfd, i);
		char sdma[16], render[24], gid[12];

		snprintf(gid, sizeof(gid), "0x%04x", d->gpu_id);
		snprintf(sdma, sizeof(sdma), "%u+%u", d->num_sdma_engines,
			 d->num_sdma_xgmi_engines);
		snprintf(render, sizeof(render), "renderD%u", d->drm_render_minor);
		printf("%-4u %-6s %-8s %-7u 0x%-5x 0x%-5x %-5s %-11s %-9s %s\n", d->node_id, gid,
		       d->target ? d->target->name : "?", d->gfx_target_version, d->fw_version,
		       d->sdma_fw_version, sdma, render, d->target ? "yes" : "no", dev_name(d));
		if (d->note)
			printf("     note: %s\n", d->note);
	}
}

const struct option cmd_devices_options[] = {
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_devices_shortopts[] = CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_devices_complete[] = {
	{ 0 },
};

int cmd_devices(int argc, char **argv)
{
	struct cli_kfd c;
	int opt, r;

	while ((opt = cli_getopt(argc, argv, cmd_devices_shortopts, cmd_devices_options)) != -1) {
		switch (opt) {
		default:
			return cli_opt_default(opt, help);
		}
	}
	r = cli_no_operands(argc, argv);
	if (r)
		return r;
	r = cli_kfd_open(cli_g.emulate, &c);
	if (r)
		return r;
	if (cli_json())
		print_json(c.kfd);
	else
		print_text(c.kfd);
	cli_kfd_close(&c);
	return cli_close_output(stdout);
}
