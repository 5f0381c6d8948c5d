/* SPDX-License-Identifier: MIT */
/*
 * Shared start of the ROCr clients (rocr_signal, rocr_queue): hsa_init and
 * the GPU agent, skipping the targets ROCr 5.2.3 does not know.
 */
#ifndef KFDSIG_TEST_CLIENT_ROCR_H
#define KFDSIG_TEST_CLIENT_ROCR_H

#include <hsa/hsa.h>
#include <string.h>

#include "client.h"

static hsa_status_t rocr_find_gpu(hsa_agent_t a, void *data)
{
	hsa_device_type_t type;

	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
	    type == HSA_DEVICE_TYPE_GPU) {
		*(hsa_agent_t *)data = a;
		return HSA_STATUS_INFO_BREAK;
	}
	return HSA_STATUS_SUCCESS;
}

/* ROCr 5.2.3 (Debian 12) reports no GPU agent for these: its ISA registry
 * (core/runtime/isa.cc) predates them. Observed, not only read. */
static int rocr_newer_than(const char *t)
{
	return !strncmp(t, "gfx94", 5) || !strncmp(t, "gfx95", 5) || !strncmp(t, "gfx11", 5) ||
	       !strncmp(t, "gfx12", 5);
}

/* hsa_init and the GPU agent into *gpu: 0, 77 to skip (ROCr has no agent
 * for @target; hsa_shut_down done), 1 on failure. */
static int rocr_start(const char *target, hsa_agent_t *gpu)
{
	char name[64] = "";

	gpu->handle = 0;
	REQUIRE(hsa_init() == HSA_STATUS_SUCCESS, "hsa_init");
	hsa_iterate_agents(rocr_find_gpu, gpu);
	if (!gpu->handle && target && rocr_newer_than(target)) {
		printf("SKIP: ROCr 5.2.3 has no ISA for %s (no GPU agent)\n", target);
		hsa_shut_down();
		return 77;
	}
	REQUIRE(gpu->handle != 0, "a GPU agent");
	hsa_agent_get_info(*gpu, HSA_AGENT_INFO_NAME, name);
	printf("GPU agent %s\n", name);
	return 0;
}

#endif
