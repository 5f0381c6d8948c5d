/* SPDX-License-Identifier: MIT */
/*
 * ROCr on the emulated KFD: hsa_init finds the GPU agent, an interrupt
 * signal (backed by a KFD event) is created, stored by another CPU thread
 * and waited with hsa_signal_wait_scacquire, which must return the stored
 * value well before its timeout.
 *
 *   rocr_signal TARGET   (TARGET: the emulated GPU, for the skip below)
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "client.h"

static hsa_status_t find_gpu(hsa_agent_t a, void *data)
{
	hsa_device_type_t type;

	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
	    type == HSA_DEVICE_TYPE_GPU) {
		*(hsa_agent_t *)data = a;
		return HSA_STATUS_INFO_BREAK;
	}
	return HSA_STATUS_SUCCESS;
}

static void *storer(void *arg)
{
	hsa_signal_t *s = arg;

	usleep(20000);
	hsa_signal_store_screlease(*s, 0);
	return NULL;
}

/* ROCr 5.2.3 (Debian 12) reports no GPU agent for these: its ISA registry
 * (core/runtime/isa.cc) predates them. Observed, not only read. */
static int newer_than_rocr(const char *t)
{
	return !strncmp(t, "gfx94", 5) || !strncmp(t, "gfx95", 5) || !strncmp(t, "gfx11", 5) ||
	       !strncmp(t, "gfx12", 5);
}

int main(int argc, char **argv)
{
	hsa_agent_t gpu = { 0 };
	hsa_signal_t sig;
	hsa_signal_value_t v;
	pthread_t th;
	double t0, dt;
	char name[64] = "";

	REQUIRE(hsa_init() == HSA_STATUS_SUCCESS, "hsa_init");
	hsa_iterate_agents(find_gpu, &gpu);
	if (!gpu.handle && argc > 1 && newer_than_rocr(argv[1])) {
		printf("SKIP: ROCr 5.2.3 has no ISA for %s (no GPU agent)\n", argv[1]);
		hsa_shut_down();
		return 77;
	}
	REQUIRE(gpu.handle != 0, "a GPU agent");
	hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name);
	printf("GPU agent %s\n", name);

	/* an interrupt signal: ROCr backs it with a KFD event */
	REQUIRE(hsa_amd_signal_create(1, 0, NULL, 0, &sig) == HSA_STATUS_SUCCESS, "signal");
	CHECK(hsa_signal_load_scacquire(sig) == 1, "initial value");
	/* nothing stored yet: a short wait times out with the value */
	v = hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_EQ, 0, 1000000,
				      HSA_WAIT_STATE_BLOCKED);
	CHECK(v == 1, "wait before the store returned %ld", (long)v);

	pthread_create(&th, NULL, storer, &sig);
	t0 = client_ms();
	/* timeout in the signal's timestamp units: generous; the wake must
	 * come within WAKE_BOUND_MS */
	v = hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
				      HSA_WAIT_STATE_BLOCKED);
	dt = client_ms() - t0;
	pthread_join(th, NULL);
	CHECK(v == 0, "woken with value %ld", (long)v);
	CHECK(dt < WAKE_BOUND_MS, "wake took %.1f ms", dt);

	CHECK(hsa_signal_destroy(sig) == HSA_STATUS_SUCCESS, "destroy");
	CHECK(hsa_shut_down() == HSA_STATUS_SUCCESS, "shut down");
	return client_done("rocr_signal");
}
