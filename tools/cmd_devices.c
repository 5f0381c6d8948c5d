/* SPDX-License-Identifier: MIT */
/* kfdsig devices: the KFD GPU nodes, their targets, versions, firmware. */
#include <getopt.h>
#include <string.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f, "usage: kfdsig devices [-j | --csv] [--emulate SPEC]\n\n"
		   "List every GPU node of the KFD topology (CPU nodes are skipped) with:\n"
		   "  node      topology node index; gpu_id: the KFD gpu id\n"
		   "  target    the generation-table target of gfx_target_version\n"
		   "  bdf       PCI domain:bus:device.function (topology location_id)\n"
		   "  unique_id the topology's unique_id (what amd-smi's UUID is made of)\n"
		   "  part      the compute partition: the node's index among the nodes\n"
		   "            of its PCI device\n"
		   "  mec-fw / sdma-fw  firmware versions from the topology\n"
		   "  sdma      SDMA engines (+ XGMI SDMA engines)\n"
		   "  render    the DRM render node\n"
		   "  supported whether kfdsig knows the target (else the reason)\n"
		   "  name      marketing name from libdrm_amdgpu (or the topology name)\n"
		   "The first line gives the KFD ioctl version and the backend; --json adds\n"
		   "the version-gated feature table and the DRM details.\n\n"
		   "  -j, --json      one JSON object\n"
		   "      --csv       the columns as CSV (a header line, then one per GPU)\n"
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

/* The node's PCI address from the topology's domain and location_id
 * (bus << 8 | device << 3 | function), as lspci and amd-smi print it. */
static void bdf(const struct kfdsig_kfd_device *d, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%u", d->domain, (d->location_id >> 8) & 0xff,
		 (d->location_id >> 3) & 0x1f, d->location_id & 7);
}

/* The node's partition: its place among the nodes of the same PCI device
 * (one KFD node per compute partition; amd-smi list's PARTITION_ID). */
static unsigned partition(const struct kfdsig_kfd *kfd, size_t i)
{
	const struct kfdsig_kfd_device *d = kfdsig_kfd_device(kfd, i);
	unsigned n = 0;

	for (size_t j = 0; j < i; j++) {
		const struct kfdsig_kfd_device *e = kfdsig_kfd_device(kfd, j);

		n += e->domain == d->domain && e->location_id == d->location_id;
	}
	return n;
}

static void print_text(const struct kfdsig_kfd *kfd, bool csv)
{
	const struct kfdsig_kfd_ops *ops = kfdsig_kfd_ops_of(kfd);
	const char *row =
		csv ? "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n"
		    : "%-4s %-6s %-8s %-7s %-12s %-18s %-4s %-7s %-7s %-5s %-11s %-9s %s\n";
	uint32_t major, minor;

	kfdsig_kfd_version(kfd, &major, &minor);
	if (!csv)
		printf("KFD %u.%u (%s backend), %zu GPU%s\n", major, minor,
		       ops->name ? ops->name : "?", kfdsig_kfd_device_count(kfd),
		       kfdsig_kfd_device_count(kfd) == 1 ? "" : "s");
	printf(row, "node", "gpu_id", "target", "version", "bdf", "unique_id", "part", "mec-fw",
	       "sdma-fw", "sdma", "render", "supported", "name");
	for (size_t i = 0; i < kfdsig_kfd_device_count(kfd); i++) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(kfd, i);
		char node[12], gid[12], ver[12], pci[16], uid[20], part[12], mec[12], sfw[12];
		char sdma[16], render[24];

		snprintf(node, sizeof(node), "%u", d->node_id);
		snprintf(gid, sizeof(gid), "0x%04x", d->gpu_id);
		snprintf(ver, sizeof(ver), "%u", d->gfx_target_version);
		bdf(d, pci, sizeof(pci));
		snprintf(uid, sizeof(uid), "0x%016llx", (unsigned long long)d->unique_id);
		snprintf(part, sizeof(part), "%u", partition(kfd, i));
		snprintf(mec, sizeof(mec), "0x%x", d->fw_version);
		snprintf(sfw, sizeof(sfw), "0x%x", d->sdma_fw_version);
		snprintf(sdma, sizeof(sdma), "%u+%u", d->num_sdma_engines,
			 d->num_sdma_xgmi_engines);
		snprintf(render, sizeof(render), "renderD%u", d->drm_render_minor);
		if (csv && strchr(dev_name(d), ','))
			printf("%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,\"%s\"\n", node, gid,
			       d->target ? d->target->name : "?", ver, pci, uid, part, mec, sfw,
			       sdma, render, d->target ? "yes" : "no", dev_name(d));
		else
			printf(row, node, gid, d->target ? d->target->name : "?", ver, pci, uid,
			       part, mec, sfw, sdma, render, d->target ? "yes" : "no", dev_name(d));
		if (d->note && !csv)
			printf("     note: %s\n", d->note);
	}
}

enum { OPT_CSV = 256 };

const struct option cmd_devices_options[] = {
	{ "csv", no_argument, NULL, OPT_CSV },
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
	bool csv = false;
	int opt, r;

	while ((opt = cli_getopt(argc, argv, cmd_devices_shortopts, cmd_devices_options)) != -1) {
		switch (opt) {
		case OPT_CSV:
			csv = true;
			break;
		default:
			return cli_opt_default(opt, help);
		}
	}
	r = cli_no_operands(argc, argv);
	if (r)
		return r;
	if (csv && cli_json())
		return cli_usage_error("--csv and --json are two formats: choose one");
	r = cli_kfd_open(cli_g.emulate, &c);
	if (r)
		return r;
	if (cli_json())
		print_json(c.kfd);
	else
		print_text(c.kfd, csv);
	cli_kfd_close(&c);
	return cli_close_output(stdout);
}
