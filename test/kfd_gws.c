/* SPDX-License-Identifier: MIT */
/*
 * AMDKFD_IOC_ALLOC_QUEUE_GWS and the topology's num_gws on the emulated
 * KFD, against a table written from amdkfd (kfd_device.c kfd_gws_init(),
 * kfd_chardev.c kfd_ioctl_alloc_queue_gws(), kfd_process_queue_manager.c
 * pqm_set_gws(), pqm_destroy_queue()):
 *  - num_gws 64 where the device has GWS (SOC15 with MEC2 firmware that
 *    supports GWS barriers: GC 9.x up to 9.4.0 from 0x1b3, 9.4.1 from
 *    0x30, 9.4.2 from 0x28, 9.4.3 always, 10.3 from 0x6b, 12.x always),
 *    0 elsewhere (gfx8, GC 10.1, GC 11 whose MES version is not modelled);
 *  - without GWS: -ENODEV; an unknown queue: -EINVAL;
 *  - one queue of the process holds the GWS: a second request -EBUSY,
 *    num_gws 0 releases it, releasing when none is held -EINVAL;
 *    destroying the holding queue releases it; first_gws is 0.
 */
#include <stdio.h>

#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

/* target, MEC firmware (0: the emulator's default), expected num_gws */
static const struct {
	const char *target;
	uint32_t mec_fw, gws;
} rows[] = {
	{ "gfx803", 0x2000, 0 }, { "gfx900", 0x1b2, 0 },  { "gfx900", 0x1b3, 64 },
	{ "gfx908", 0x2f, 0 },	 { "gfx908", 0x30, 64 },  { "gfx90a", 0x27, 0 },
	{ "gfx90a", 0x28, 64 },	 { "gfx942", 0x1, 64 },	  { "gfx1010", 0x2000, 0 },
	{ "gfx1030", 0x6a, 0 },	 { "gfx1030", 0x6b, 64 }, { "gfx1100", 0x2000, 0 },
	{ "gfx1201", 0x1, 64 },	 { "gfx900", 0, 64 },	  { "gfx90a", 0, 64 },
	{ "gfx1030", 0, 64 },
};

/* "num_gws N" of the first GPU node's properties; -1 when absent */
static long long topo_num_gws(struct kfdsig_emu *emu)
{
	char path[600], line[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/kfd/kfd/topology/nodes/1/properties",
		 kfdsig_emu_ops(emu)->sysfs_root);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "num_gws ", 8))
			v = strtoll(line + 8, NULL, 10);
	fclose(f);
	return v;
}

static int gws(struct kfdsig_kfd *kfd, uint32_t qid, uint32_t n, uint32_t *first)
{
	struct kfd_ioctl_alloc_queue_gws_args a = { .queue_id = qid,
						    .num_gws = n,
						    .first_gws = 0xdead };
	int r = kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_ALLOC_QUEUE_GWS, &a);

	if (first)
		*first = a.first_gws;
	return r;
}

int main(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct kfdsig_emu_gpu_desc d = { .target = rows[i].target,
						 .mec_fw_version = rows[i].mec_fw };
		struct kfdsig_emu *emu;
		struct kfdsig_kfd *kfd;
		char spec[64];
		struct kfdsig_kfd_queue *q1 = NULL, *q2 = NULL;
		enum kfdsig_queue_type type;
		uint32_t gpu, first = 1;
		int id1, id2;

		KFDSIG_OPTS(kfdsig_emu_config, c, .gpus = &d, .ngpus = 1);

		snprintf(spec, sizeof(spec), "%s mec 0x%x", rows[i].target, rows[i].mec_fw);
		emu = kfdsig_emu_create(&c);
		T_REQUIRE(emu, "emulator '%s'", spec);
		kfd = t_open(emu);
		gpu = t_gpu(kfd, 0);
		CHECK_EQ(topo_num_gws(emu), (long long)rows[i].gws, "%s: topology num_gws", spec);
		type = strncmp(rows[i].target, "gfx8", 4) ? KFDSIG_QUEUE_AQL : KFDSIG_QUEUE_PM4;
		T_REQUIRE(!kfdsig_kfd_queue_create(kfd, gpu, type, NULL, &q1), "queue 1");
		T_REQUIRE(!kfdsig_kfd_queue_create(kfd, gpu, type, NULL, &q2), "queue 2");
		id1 = kfdsig_kfd_queue_id(q1);
		id2 = kfdsig_kfd_queue_id(q2);
		CHECK_EQ(gws(kfd, 999, 1, NULL), -EINVAL, "%s: unknown queue", spec);
		if (!rows[i].gws) {
			CHECK_EQ(gws(kfd, (uint32_t)id1, 1, NULL), -ENODEV, "%s: no GWS", spec);
		} else {
			CHECK_EQ(gws(kfd, (uint32_t)id1, 0, NULL), -EINVAL,
				 "%s: release with none held", spec);
			CHECK_EQ(gws(kfd, (uint32_t)id1, 64, &first), 0, "%s: alloc", spec);
			CHECK_EQ(first, 0u, "%s: first_gws", spec);
			CHECK_EQ(gws(kfd, (uint32_t)id2, 1, NULL), -EBUSY,
				 "%s: a second queue of the process", spec);
			CHECK_EQ(gws(kfd, (uint32_t)id1, 1, NULL), -EBUSY,
				 "%s: the same queue again", spec);
			CHECK_EQ(gws(kfd, (uint32_t)id1, 0, NULL), 0, "%s: release", spec);
			CHECK_EQ(gws(kfd, (uint32_t)id2, 1, NULL), 0, "%s: after the release",
				 spec);
			/* destroying the holder gives the GWS back */
			CHECK_EQ(kfdsig_kfd_queue_destroy(q2), 0, "%s: destroy", spec);
			q2 = NULL;
			CHECK_EQ(gws(kfd, (uint32_t)id1, 1, NULL), 0, "%s: after the holder died",
				 spec);
		}
		if (q2)
			kfdsig_kfd_queue_destroy(q2);
		kfdsig_kfd_queue_destroy(q1);
		kfdsig_kfd_close(kfd);
		kfdsig_emu_destroy(emu);
	}
	return t_result("kfd_gws");
}
