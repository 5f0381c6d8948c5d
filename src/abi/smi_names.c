/* SPDX-License-Identifier: MIT */
/*
 * SMI event names: the event types of AMDKFD_IOC_SMI_EVENTS
 * (KFD_SMI_EVENT_* of kfd_ioctl.h; amdkfd kfd_smi_events.c), named as
 * kfdsig_smi_event_name() prints them and kfdsig_smi_event_by_name() reads
 * them. Part of libkfdsig; the emulator reads the names through the public
 * kfdsig_smi_event_by_name().
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>

#include <kfdsig/kfd.h>

#include "core/internal.h"

static const char *const smi_names[] = {
	[KFDSIG_SMI_VMFAULT] = "vmfault",
	[KFDSIG_SMI_THERMAL_THROTTLE] = "thermal_throttle",
	[KFDSIG_SMI_GPU_PRE_RESET] = "gpu_pre_reset",
	[KFDSIG_SMI_GPU_POST_RESET] = "gpu_post_reset",
	[KFDSIG_SMI_MIGRATE_START] = "migrate_start",
	[KFDSIG_SMI_MIGRATE_END] = "migrate_end",
	[KFDSIG_SMI_PAGE_FAULT_START] = "page_fault_start",
	[KFDSIG_SMI_PAGE_FAULT_END] = "page_fault_end",
	[KFDSIG_SMI_QUEUE_EVICTION] = "queue_eviction",
	[KFDSIG_SMI_QUEUE_RESTORE] = "queue_restore",
	[KFDSIG_SMI_UNMAP_FROM_GPU] = "unmap_from_gpu",
	[KFDSIG_SMI_PROCESS_START] = "process_start",
	[KFDSIG_SMI_PROCESS_END] = "process_end",
};

const char *kfdsig_smi_event_name(uint32_t type)
{
	if (type == KFDSIG_SMI_ALL_PROCESS)
		return "all_process";
	if (type < KFDSIG_ARRAY_SIZE(smi_names) && smi_names[type])
		return smi_names[type];
	return "?";
}

int kfdsig_smi_event_by_name(const char *name)
{
	char *end;
	unsigned long v;

	if (!name || !*name)
		return set_error(ENOENT, "empty SMI event name");
	for (size_t i = 1; i < KFDSIG_ARRAY_SIZE(smi_names); i++)
		if (smi_names[i] && !strcasecmp(name, smi_names[i]))
			return (int)i;
	if (!strcasecmp(name, "all_process") || !strcasecmp(name, "all-process"))
		return KFDSIG_SMI_ALL_PROCESS;
	v = strtoul(name, &end, 10);
	if (!*end && v >= 1 && v <= 64)
		return (int)v;
	return set_error(ENOENT, "unknown SMI event '%.32s'", name);
}
