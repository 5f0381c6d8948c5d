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

#include "rocr.h"

static void *storer(void *arg)
{
	hsa_signal_t *s = arg;

	usleep(20000);
	hsa_signal_store_screlease(*s, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	hsa_agent_t gpu = { 0 };
	hsa_signal_t sig;
	hsa_signal_value_t v;
	pthread_t th;
	double t0, dt;
	int r;

	r = rocr_start(argc > 1 ? argv[1] : NULL, &gpu);
	if (r)
		return r;

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
