/* SPDX-License-Identifier: MIT */
/*
 * Device discovery from the KFD topology in sysfs
 * (<sysfs_root>/class/kfd/kfd/topology/nodes/N/{gpu_id,name,properties},
 * libhsakmt / kfdtest setup sequence; kfd_topology.c): CPU nodes (gpu_id 0) are skipped, the
 * "properties" file is "key value" lines, gfx_target_version maps to the
 * generation table, and the render node comes from drm_render_minor.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfd/kfd_priv.h"

static int read_small(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");
	size_t got;

	if (!f)
		return -errno;
	got = fread(buf, 1, n - 1, f);
	fclose(f);
	buf[got] = '\0';
	return (int)got;
}

static void set_prop(struct kfdsig_kfd_device *d, const char *key, uint64_t v)
{
	static const struct {
		const char *key;
		size_t off;
	} u32s[] = {
#define P(k) { #k, offsetof(struct kfdsig_kfd_device, k) }
		P(vendor_id),
		P(device_id),
		P(location_id),
		P(domain),
		P(drm_render_minor),
		P(simd_count),
		P(array_count),
		P(simd_arrays_per_engine),
		P(cu_per_simd_array),
		P(simd_per_cu),
		P(max_waves_per_simd),
		P(lds_size_in_kb),
		P(wave_front_size),
		P(num_sdma_engines),
		P(num_sdma_xgmi_engines),
		P(num_sdma_queues_per_engine),
		P(num_cp_queues),
		P(num_xcc),
		P(max_engine_clk_fcompute),
		P(fw_version),
		P(sdma_fw_version),
		P(capability),
		P(gfx_target_version),
		P(ctl_stack_size),
		P(cwsr_size),
#undef P
	};

	if (!strcmp(key, "local_mem_size")) {
		d->local_mem_size = v;
		return;
	}
	if (!strcmp(key, "hive_id")) {
		d->hive_id = v;
		return;
	}
	if (!strcmp(key, "unique_id")) {
		d->unique_id = v;
		return;
	}
	for (size_t i = 0; i < KFDSIG_ARRAY_SIZE(u32s); i++)
		if (!strcmp(key, u32s[i].key)) {
			*(uint32_t *)((char *)d + u32s[i].off) = (uint32_t)v;
			return;
		}
}

static void parse_properties(struct kfdsig_kfd_device *d, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char key[64];
		unsigned long long v;

		if (sscanf(line, "%63s %llu", key, &v) == 2)
			set_prop(d, key, v);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void fill_target(struct kfdsig_kfd_device *d)
{
	d->target = kfdsig_target_by_version(d->gfx_target_version);
	if (!d->target)
		d->note = "gfx_target_version not in kfdsig's generation table";
}

#define ALIGN_UP(x, a) (((x) + (a)-1) / (a) * (a))

/*
 * kfd_queue.c kfd_queue_ctx_save_restore_size(): what a compute
 * queue's context save area must hold. Topology values win when present.
 */
void kfd_cwsr_sizes(struct kfdsig_kfd_device *d)
{
	uint32_t v = d->gfx_target_version, xcc = d->num_xcc ? d->num_xcc : 1;
	uint32_t cu, waves, ctl, lds, vgpr, sgpr, hwreg;

	if (v < 80001 || !d->simd_per_cu || !d->simd_arrays_per_engine)
		return;
	cu = d->simd_count / d->simd_per_cu / xcc;
	if (v < 100100) {
		uint32_t cap = d->array_count / d->simd_arrays_per_engine * 512;
		waves = cu * 40 < cap ? cu * 40 : cap;
	} else {
		waves = cu * 32;
	}
	ctl = ALIGN_UP(40 + waves * (v >= 100100 ? 12 : 8) + 8, 4096);
	if (v >= 100100 && v < 110000 && ctl > 0x7000)
		ctl = 0x7000;
	lds = (d->lds_size_in_kb ? d->lds_size_in_kb : 64) << 10;
	vgpr = d->target && d->target->cwsr_vgpr_size ? d->target->cwsr_vgpr_size : 0x40000;
	sgpr = d->target && d->target->cwsr_sgpr_size ? d->target->cwsr_sgpr_size : 0x4000;
	hwreg = d->target && d->target->cwsr_hwreg_size ? d->target->cwsr_hwreg_size : 0x1000;
	if (!d->ctl_stack_size)
		d->ctl_stack_size = ctl;
	if (!d->cwsr_size)
		d->cwsr_size = ctl + ALIGN_UP(cu * (vgpr + sgpr + lds + hwreg), 4096);
	d->debug_memory_size = ALIGN_UP(waves * 32, 64);
}

/* kfd_topology.c node_show prints local_mem_size as 0 since 2018; the
 * VRAM size is in mem_banks/M/properties (mem_show: heap_type
 * HSA_MEM_HEAP_TYPE_FB_PUBLIC 1 or FB_PRIVATE 2, size_in_bytes). */
static uint64_t vram_of_banks(const char *dir, uint32_t node)
{
	char path[600], buf[1024];
	uint64_t total = 0;

	for (uint32_t m = 0; m < 64; m++) {
		unsigned long long heap = 0, size = 0;
		const char *s;

		snprintf(path, sizeof(path), "%s/%u/mem_banks/%u/properties", dir, node, m);
		if (read_small(path, buf, sizeof(buf)) <= 0)
			break;
		if ((s = strstr(buf, "heap_type ")))
			heap = strtoull(s + 10, NULL, 10);
		if ((s = strstr(buf, "size_in_bytes ")))
			size = strtoull(s + 14, NULL, 10);
		if (heap == 1 || heap == 2)
			total += size;
	}
	return total;
}

int kfd_topology_read(struct kfdsig_kfd *kfd)
{
	const struct kfdsig_kfd_ops *ops = kfd->ops;
	char dir[512], path[600], buf[8192];
	uint32_t ids[256];
	size_t nids = 0;
	struct dirent *de;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/class/kfd/kfd/topology/nodes", ops->sysfs_root);
	dp = opendir(dir);
	if (!dp)
		return set_error(ENOENT, "no KFD topology at %s: %s", dir, strerror(errno));
	while ((de = readdir(dp)) && nids < KFDSIG_ARRAY_SIZE(ids)) {
		char *end;
		unsigned long n = strtoul(de->d_name, &end, 10);
		if (isdigit((unsigned char)de->d_name[0]) && !*end)
			ids[nids++] = (uint32_t)n;
	}
	closedir(dp);
	qsort(ids, nids, sizeof(ids[0]), cmp_u32);

	kfd->gpus = calloc(nids ? nids : 1, sizeof(*kfd->gpus));
	if (!kfd->gpus)
		return set_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < nids; i++) {
		struct kfd_gpu *g = &kfd->gpus[kfd->ngpus];
		struct kfdsig_kfd_device *d = &g->dev;
		unsigned long gpu_id;

		snprintf(path, sizeof(path), "%s/%u/gpu_id", dir, ids[i]);
		if (read_small(path, buf, sizeof(buf)) <= 0)
			continue;
		gpu_id = strtoul(buf, NULL, 10);
		if (!gpu_id) /* CPU node */
			continue;
		memset(g, 0, sizeof(*g));
		g->render_fd = -1;
		d->node_id = ids[i];
		d->gpu_id = (uint32_t)gpu_id;
		snprintf(path, sizeof(path), "%s/%u/name", dir, ids[i]);
		if (read_small(path, buf, sizeof(buf)) > 0) {
			buf[strcspn(buf, "\n")] = '\0';
			snprintf(d->name, sizeof(d->name), "%.63s", buf);
		}
		snprintf(path, sizeof(path), "%s/%u/properties", dir, ids[i]);
		if (read_small(path, buf, sizeof(buf)) > 0)
			parse_properties(d, buf);
		if (!d->local_mem_size)
			d->local_mem_size = vram_of_banks(dir, ids[i]);
		fill_target(d);
		kfd_cwsr_sizes(d);

		/* DRM details through the render node; not fatal. */
		snprintf(path, sizeof(path), "/dev/dri/renderD%u", d->drm_render_minor);
		g->render_fd = ops->open(ops->ctx, path, O_RDWR);
		if (g->render_fd >= 0 && ops->drm_info &&
		    ops->drm_info(ops->ctx, g->render_fd, &d->drm) == 0)
			d->have_drm_info = true;
		/* Cross-check the generation table against the DRM driver's
		 * view of the GC IP (libdrm reports major.minor). */
		if (d->have_drm_info && d->target && d->drm.gc_ip[0] &&
		    (d->drm.gc_ip[0] != d->target->gc_ip[0] ||
		     d->drm.gc_ip[1] != d->target->gc_ip[1]))
			d->note = "the DRM driver reports another GC IP version than the "
				  "generation table";
		if (g->render_fd < 0)
			g->render_fd = -1;
		kfd->ngpus++;
	}
	return 0;
}
