/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's SMI injection (spec smi=EVENT[+EVENT...], emu_smi.c):
 * an event is raised for a client when its mask first enables it, once per
 * client, to that client alone, with the client's pid; the spec refuses
 * unknown events and ones without a line.
 */
#include <unistd.h>

#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

static struct kfdsig_emu *spec_emu(const char *spec)
{
	struct kfdsig_emu *emu = kfdsig_emu_create_from_spec(spec);

	T_REQUIRE(emu, "emu from '%s': %s", spec, kfdsig_last_error());
	return emu;
}

static void test_once_per_client(void)
{
	struct kfdsig_emu *emu = spec_emu("gfx90a,smi=thermal_throttle+vmfault+gpu_pre_reset");
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g = t_gpu(kfd, 0);
	struct kfdsig_smi *a = NULL, *b = NULL;
	struct kfdsig_smi_event e;

	/* client A asks for vmfault only: that one, with A's pid, nothing else */
	CHECK(kfdsig_smi_open(kfd, g, KFDSIG_SMI_MASK(KFDSIG_SMI_VMFAULT), &a) == 0, "open A");
	T_REQUIRE(a, "A");
	CHECK_EQ(kfdsig_smi_read(a, &e, 1000), 1, "A: injected vmfault");
	CHECK(e.type == KFDSIG_SMI_VMFAULT && e.pid == getpid(), "A: vmfault of its pid (%s)",
	      e.line);
	CHECK_EQ(kfdsig_smi_read(a, &e, 0), 0, "A: only what its mask enables");
	/* enabling thermal later raises it then; enabling again raises nothing */
	CHECK_EQ(kfdsig_smi_set_mask(a, KFDSIG_SMI_MASK(KFDSIG_SMI_VMFAULT) |
						KFDSIG_SMI_MASK(KFDSIG_SMI_THERMAL_THROTTLE)),
		 0, "A: add thermal");
	CHECK_EQ(kfdsig_smi_read(a, &e, 1000), 1, "A: injected thermal");
	CHECK(e.type == KFDSIG_SMI_THERMAL_THROTTLE && e.throttle_bitmask == 1 &&
		      e.throttle_counter == 1,
	      "A: thermal 1:1 (%s)", e.line);
	CHECK_EQ(kfdsig_smi_set_mask(a, 0), 0, "A: mask 0");
	CHECK_EQ(kfdsig_smi_set_mask(a, KFDSIG_SMI_MASK(KFDSIG_SMI_VMFAULT) |
						KFDSIG_SMI_MASK(KFDSIG_SMI_THERMAL_THROTTLE)),
		 0, "A: mask again");
	CHECK_EQ(kfdsig_smi_read(a, &e, 0), 0, "A: once per client, not per write");

	/* client B gets its own, and A does not get B's */
	CHECK(kfdsig_smi_open(kfd, g, KFDSIG_SMI_MASK(KFDSIG_SMI_GPU_PRE_RESET), &b) == 0,
	      "open B");
	T_REQUIRE(b, "B");
	CHECK_EQ(kfdsig_smi_read(b, &e, 1000), 1, "B: injected reset");
	CHECK(e.type == KFDSIG_SMI_GPU_PRE_RESET && e.reset_seq == 1 &&
		      !strcmp(e.reset_cause, "HANG"),
	      "B: reset 1 HANG (%s)", e.line);
	CHECK_EQ(kfdsig_smi_read(b, &e, 0), 0, "B: one line");
	CHECK_EQ(kfdsig_smi_set_mask(a, KFDSIG_SMI_MASK(KFDSIG_SMI_GPU_PRE_RESET)), 0,
		 "A: enables reset");
	CHECK_EQ(kfdsig_smi_read(a, &e, 1000), 1, "A: its own reset");
	CHECK_EQ(kfdsig_smi_read(b, &e, 0), 0, "B: not A's");
	kfdsig_smi_close(a);
	kfdsig_smi_close(b);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_none_without_knob(void)
{
	struct kfdsig_emu *emu = spec_emu("gfx90a");
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_smi *s = NULL;
	struct kfdsig_smi_event e;

	CHECK(kfdsig_smi_open(kfd, t_gpu(kfd, 0), ~0ull >> 1, &s) == 0, "open");
	T_REQUIRE(s, "smi");
	CHECK_EQ(kfdsig_smi_read(s, &e, 50), 0, "no smi=: no line");
	kfdsig_smi_close(s);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_spec_errors(void)
{
	static const char *const bad[] = {
		"gfx90a,smi=",	 "gfx90a,smi=bogus", "gfx90a,smi=all_process",
		"gfx90a,smi=65", "gfx90a,smi=20",    "gfx90a,smi=vmfault+nope"
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct kfdsig_emu *emu = kfdsig_emu_create_from_spec(bad[i]);

		CHECK(!emu && errno == EINVAL, "'%s' refused with EINVAL", bad[i]);
		CHECK(strstr(kfdsig_last_error(), "smi") || strstr(kfdsig_last_error(), "SMI"),
		      "'%s': reason names smi (%s)", bad[i], kfdsig_last_error());
		kfdsig_emu_destroy(emu);
	}
	kfdsig_emu_destroy(spec_emu("gfx90a,smi=2+process_end"));
}

int main(void)
{
	test_once_per_client();
	test_none_without_knob();
	test_spec_errors();
	return t_result("emu_smi_inject");
}
