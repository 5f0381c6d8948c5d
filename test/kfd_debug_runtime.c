/* SPDX-License-Identifier: MIT */
/*
 * AMDKFD_IOC_RUNTIME_ENABLE and the gating of the debugger interface, on
 * the emulated KFD through the library:
 *  - the topology's debug capability bits per GC version, as
 *    kfd_topology.c kfd_topology_set_capabilities() and
 *    kfd_topology_set_dbg_firmware_support() set them (numbers written
 *    out by hand from kfd_sysfs.h), none before KFD 1.13 or on gfx8;
 *  - the library refuses with -ENOTSUP before KFD 1.13 (the kfd= knob)
 *    and the emulated ioctl is unknown there (-ENOTTY);
 *  - runtime_enable(): -EBUSY when enabled, -EEXIST with queues, disable
 *    and enable again;
 *  - the handshake: under a debugger RUNTIME_ENABLE blocks until the
 *    debugger answers EC_PROCESS_RUNTIME (kfd_chardev.c runtime_enable(),
 *    kfd_dbg_send_exception_to_runtime() up(&runtime_enable_sema)), the
 *    debugger is told (dbg_fd, QUERY_DEBUG_EVENT, QUERY_EXCEPTION_INFO
 *    with the runtime info) and ENABLE reports the runtime's state.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "abi/kfd_ioctl.h"
#include "kfd_debug_util.h"

static uint32_t caps_of(const char *spec)
{
	struct kfdsig_emu *emu = t_emu(spec);
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t c = kfdsig_kfd_device(kfd, 0)->capability;

	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	return c;
}

/* The node's debug_prop from the emulated topology (sysfs properties). */
static long debug_prop_of(const char *spec)
{
	struct kfdsig_emu *emu = t_emu(spec);
	const struct kfdsig_kfd_ops *ops = kfdsig_emu_ops(emu);
	char path[512], key[64];
	long v = -1, x;
	FILE *f;

	/* node 0 is the CPU, node 1 the first GPU */
	snprintf(path, sizeof(path), "%s/class/kfd/kfd/topology/nodes/1/properties",
		 ops->sysfs_root);
	f = fopen(path, "re");
	while (f && fscanf(f, "%63s %ld", key, &x) == 2)
		if (!strcmp(key, "debug_prop"))
			v = x;
	if (f)
		fclose(f);
	kfdsig_emu_destroy(emu);
	return v;
}

#define DBG_BITS 0x00038000u /* TRAP_DEBUG_SUPPORT | _WAVE_LAUNCH_{TRAP_OVERRIDE,MODE} */
#define PRECISE 0x00040000u
#define FW 0x20000000u

/* The debugger's bits of the capability word: not the doorbell type
 * (bits 12-13, emu_topology.c checks it) nor the RAS bits. */
#define DBG_MASK 0xf00fc000u

static void test_caps(void)
{
	/* GC 9.4.2, MEC fw 0x200 >= 51: precise memory ops, firmware */
	CHECK_EQ(caps_of("gfx90a") & DBG_MASK, DBG_BITS | PRECISE | FW, "gfx90a");
	/* GC 9.0.1 needs MEC fw >= 459 + 32768: the emulated 0x200 is older */
	CHECK_EQ(caps_of("gfx900") & DBG_MASK, DBG_BITS, "gfx900");
	/* GC 10.3.0, fw >= 89 */
	CHECK_EQ(caps_of("gfx1030") & DBG_MASK, DBG_BITS | FW, "gfx1030");
	/* GC 8: kfd_topology_set_capabilities() is not called */
	CHECK_EQ(caps_of("gfx803") & DBG_MASK, 0, "gfx803");
	/* KFD 1.12: the bits came with the debugger API */
	CHECK_EQ(caps_of("gfx90a,kfd=1.12") & DBG_MASK, 0, "gfx90a on KFD 1.12");

	/* debug_prop: watch address mask bits, low in bits 0-3, high from
	 * bit 4 (kfd_topology.h HSA_DBG_WATCH_ADDR_MASK_*): GC 9 6 and 29,
	 * GC 9.4.3/9.4.4 7 and 30, GC 10+ 7 and 29; none on gfx8 */
	CHECK_EQ(debug_prop_of("gfx90a"), 6 | 29 << 4, "gfx90a debug_prop");
	CHECK_EQ(debug_prop_of("gfx942"), 7 | 30 << 4, "gfx942 (GC 9.4.3) debug_prop");
	CHECK_EQ(debug_prop_of("gfx1100"), 7 | 29 << 4, "gfx1100 debug_prop");
	CHECK_EQ(debug_prop_of("gfx803"), 0, "gfx803 debug_prop");
}

static void test_gating(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,kfd=1.12");
	struct kfdsig_kfd *kfd = t_open(emu);
	abi_runtime_enable_args a = { .mode_mask = 1 };
	struct kfdsig_dbg_event e;

	CHECK_EQ(kfdsig_kfd_runtime_enable(kfd, 0, 0, NULL), -ENOTSUP, "runtime enable on 1.12");
	CHECK_EQ(kfdsig_dbg_enable(kfd, getpid(), 0, 1, NULL), -ENOTSUP, "dbg enable on 1.12");
	CHECK_EQ(kfdsig_dbg_query_event(kfd, getpid(), 0, &e), -ENOTSUP, "query on 1.12");
	CHECK_EQ(kfdsig_dbg_supported(kfd, 0), -ENOTSUP, "not supported");
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, KFDSIG_AMDKFD_IOC_RUNTIME_ENABLE, &a), -ENOTTY,
		 "the emulated 1.12 kernel has no RUNTIME_ENABLE");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);

	emu = t_emu("gfx803");
	kfd = t_open(emu);
	CHECK_EQ(kfdsig_dbg_supported(kfd, 0), -ENOTSUP, "gfx8 has no debug support bits");
	CHECK_EQ(kfdsig_dbg_enable(kfd, getpid(), 0, 1, NULL), -ENOTSUP, "library refuses gfx8");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);

	emu = t_emu("gfx90a,gfx1100");
	kfd = t_open(emu);
	CHECK_EQ(kfdsig_dbg_supported(kfd, 0), 0, "supported on 1.18");
	CHECK_EQ(kfdsig_dbg_supported(kfd, 0x1), -ENOENT, "unknown gpu_id");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_enable_rules(void)
{
	struct drig r;

	d_open(&r, "gfx90a");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0x10, NULL), -EINVAL, "unknown flag");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, KFDSIG_RUNTIME_TTMP_SAVE, NULL), 0, "enable");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), -EBUSY, "enabled twice: -EBUSY");
	CHECK_EQ(kfdsig_kfd_runtime_disable(r.rt), 0, "disable");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), 0, "enable again");
	CHECK_EQ(kfdsig_kfd_runtime_disable(r.rt), 0, "disable again");
	d_queue(&r);
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), -EEXIST,
		 "a queue exists: -EEXIST (kfd_chardev.c runtime_enable)");
	d_close(&r);
}

struct enabler {
	struct kfdsig_kfd *kfd;
	int r;
	int done;
};

static void *enable_thread(void *arg)
{
	struct enabler *e = arg;

	e->r = kfdsig_kfd_runtime_enable(e->kfd, 0xabcd000, 0, NULL);
	__atomic_store_n(&e->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static bool joined(struct enabler *e, pthread_t t)
{
	uint64_t t0 = t_now_ms();

	while (!__atomic_load_n(&e->done, __ATOMIC_ACQUIRE))
		if (t_now_ms() - t0 > T_WAKE_MAX_MS)
			return false;
		else
			usleep(100);
	pthread_join(t, NULL);
	return true;
}

static void test_handshake(void)
{
	struct drig r;
	struct kfdsig_dbg_runtime_info ri = { 0 };
	struct kfdsig_dbg_event e;
	struct enabler en = { 0 };
	uint32_t size = sizeof(ri);
	pthread_t t;

	d_open(&r, "gfx90a");
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, KFDSIG_EC_MASK_PROCESS, r.dbgfd, &ri), 0,
		 "attach before the runtime: %s", kfdsig_last_error());
	CHECK_EQ(ri.runtime_state, KFDSIG_RUNTIME_DISABLED, "the runtime is not enabled yet");
	en.kfd = r.rt;
	T_REQUIRE(!pthread_create(&t, NULL, enable_thread, &en), "thread");
	CHECK(d_notified(&r), "the debugger is told of the runtime enable");
	usleep(20000); /* time to return, were it not waiting */
	CHECK(!__atomic_load_n(&en.done, __ATOMIC_ACQUIRE),
	      "RUNTIME_ENABLE waits for the debugger's answer");
	CHECK(!kfdsig_dbg_query_event(r.dbg, r.pid, 0, &e) &&
		      e.source == KFDSIG_DBG_SOURCE_PROCESS &&
		      e.exceptions == KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME),
	      "a process event: EC_PROCESS_RUNTIME");
	memset(&ri, 0, sizeof(ri));
	CHECK_EQ(kfdsig_dbg_query_exception_info(r.dbg, r.pid, 0, KFDSIG_EC_PROCESS_RUNTIME, true,
						 &ri, &size),
		 0, "QUERY_EXCEPTION_INFO");
	CHECK(size == sizeof(ri) && ri.r_debug == 0xabcd000 &&
		      ri.runtime_state == KFDSIG_RUNTIME_ENABLED,
	      "the runtime info: r_debug 0x%llx state %u", (unsigned long long)ri.r_debug,
	      ri.runtime_state);
	CHECK_EQ(kfdsig_dbg_query_event(r.dbg, r.pid, 0, &e), -EAGAIN, "cleared by the info query");
	CHECK_EQ(kfdsig_dbg_send_runtime_event(r.dbg, r.pid,
					       KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME), 0, 0),
		 0, "the debugger answers");
	CHECK(joined(&en, t), "RUNTIME_ENABLE returns after the answer");
	CHECK_EQ(en.r, 0, "runtime enabled");
	CHECK_EQ(kfdsig_kfd_runtime_enable(r.rt, 0, 0, NULL), -EBUSY, "and enabled once only");
	/* a second ENABLE reports the enabled runtime... after -EALREADY */
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, r.dbgfd, &ri), -EALREADY, "enabled twice");
	CHECK_EQ(kfdsig_dbg_disable(r.dbg, r.pid), 0, "detach");
	memset(&ri, 0, sizeof(ri));
	CHECK_EQ(kfdsig_dbg_enable(r.dbg, r.pid, 0, r.dbgfd, &ri), 0, "attach again");
	CHECK(ri.runtime_state == KFDSIG_RUNTIME_ENABLED && ri.r_debug == 0xabcd000,
	      "ENABLE reports the runtime");
	d_close(&r);
}

int main(void)
{
	test_caps();
	test_gating();
	test_enable_rules();
	test_handshake();
	return t_result("kfd_debug_runtime");
}
