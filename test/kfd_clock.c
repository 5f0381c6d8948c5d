/* SPDX-License-Identifier: MIT */
/*
 * The GPU clock through the backend against the emulated KFD:
 * AMDKFD_IOC_GET_CLOCK_COUNTERS (kfdsig_kfd_clock_counters) gives the
 * kernel's fields (kfd_chardev.c kfd_ioctl_get_clock_counters: GPU counter,
 * CLOCK_MONOTONIC_RAW ns, CLOCK_BOOTTIME ns, 1 GHz), the counter moves
 * forward at the emulated GPU's rate, and a timestamp the emulated CP
 * writes for kfdsig_pm4_emit_timestamp() converts (kfdsig_gpu_clock_to_ns)
 * to a CLOCK_MONOTONIC time between two host readings taken around the
 * submission. No figure here is a timing assertion: the bounds are
 * orderings of events, widened by the conversion's stated error.
 */
#include <time.h>
#include <unistd.h>

#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

#define WAIT_MS 5000
/* Conversion error allowance: one 10 ns tick, the RAW/MONOTONIC offset read
 * (a clock_gettime), the kernel's read gap; generous for slow sanitizers. */
#define SLACK_NS 20000ull

static uint64_t host_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Pure arithmetic of the conversion, with samples made up by hand. */
static void conversion_math(void)
{
	struct kfdsig_clock_sample a = { .gpu_ticks = 1000,
					 .raw_ns = 5000,
					 .mono_minus_raw_ns = 7 };
	struct kfdsig_clock_sample b = { .gpu_ticks = 2000,
					 .raw_ns = 15000,
					 .mono_minus_raw_ns = 100 };
	struct kfdsig_gpu_clock c;
	uint64_t ns = 0;

	CHECK_EQ(kfdsig_gpu_clock_calibrate(&a, &b, &c), 0, "calibrate");
	CHECK(c.hz > 99999999.0 && c.hz < 100000001.0, "10 ns per tick is 100 MHz: %f", c.hz);
	CHECK(!kfdsig_gpu_clock_to_ns(&c, 1500, &ns) && ns == 10100, "midpoint: %llu",
	      (unsigned long long)ns);
	CHECK(!kfdsig_gpu_clock_to_ns(&c, 1000, &ns) && ns == 5100, "first sample: %llu",
	      (unsigned long long)ns);
	CHECK(!kfdsig_gpu_clock_to_ns(&c, 500, &ns) && ns == 100, "before the samples: %llu",
	      (unsigned long long)ns);
	CHECK(!kfdsig_gpu_clock_to_ns(&c, 2500, &ns) && ns == 20100, "after the samples: %llu",
	      (unsigned long long)ns);
	/* 3 ticks per 7 ns: rounding to nearest */
	b.gpu_ticks = 1003;
	b.raw_ns = 5007;
	CHECK_EQ(kfdsig_gpu_clock_calibrate(&a, &b, &c), 0, "calibrate 3/7");
	CHECK(!kfdsig_gpu_clock_to_ns(&c, 1001, &ns) && ns == 5002 + 100, "1 tick = 2.33 ns: %llu",
	      (unsigned long long)ns);
	CHECK(!kfdsig_gpu_clock_to_ns(&c, 1002, &ns) && ns == 5005 + 100, "2 ticks = 4.67 ns: %llu",
	      (unsigned long long)ns);
	/* large spans do not overflow: a day of 100 MHz ticks */
	a = (struct kfdsig_clock_sample){ .gpu_ticks = 1ull << 40, .raw_ns = 1ull << 50 };
	b = a;
	b.gpu_ticks += 8640000000000ull;
	b.raw_ns += 86400000000000ull;
	CHECK_EQ(kfdsig_gpu_clock_calibrate(&a, &b, &c), 0, "calibrate a day");
	CHECK(!kfdsig_gpu_clock_to_ns(&c, a.gpu_ticks + 8640000000000ull * 2, &ns) &&
		      ns == a.raw_ns + 2 * 86400000000000ull,
	      "two days on: %llu", (unsigned long long)ns);
	/* refusals */
	CHECK_EQ(kfdsig_gpu_clock_calibrate(&b, &a, &c), -EINVAL, "samples swapped");
	CHECK_EQ(kfdsig_gpu_clock_calibrate(&a, &a, &c), -EINVAL, "the same sample twice");
	b = a;
	b.raw_ns += 10;
	CHECK_EQ(kfdsig_gpu_clock_calibrate(&a, &b, &c), -EINVAL, "GPU counter stood still");
	CHECK_EQ(kfdsig_gpu_clock_calibrate(NULL, &b, &c), -EINVAL, "NULL sample");
	CHECK_EQ(kfdsig_gpu_clock_to_ns(&(struct kfdsig_gpu_clock){ 0 }, 5, &ns), -EINVAL,
		 "uncalibrated");
	b.gpu_ticks += 10;
	CHECK_EQ(kfdsig_gpu_clock_calibrate(&a, &b, &c), 0, "calibrate");
	CHECK_EQ(kfdsig_gpu_clock_to_ns(&c, 5, NULL), -EINVAL, "NULL output");
	CHECK_EQ(kfdsig_gpu_clock_to_ns(&c, ~0ull, &ns), -ERANGE, "far future ticks");
}

static void sample(struct kfdsig_kfd *kfd, uint32_t gpu, struct kfdsig_clock_sample *s)
{
	uint64_t r0 = host_ns(CLOCK_MONOTONIC_RAW), b0 = host_ns(CLOCK_BOOTTIME);
	int r = kfdsig_kfd_clock_counters(kfd, gpu, s);
	uint64_t r1 = host_ns(CLOCK_MONOTONIC_RAW), b1 = host_ns(CLOCK_BOOTTIME);

	T_REQUIRE(r == 0, "GET_CLOCK_COUNTERS: %d", r);
	CHECK_EQ(s->system_freq, 1000000000ull, "system_clock_freq is 1 GHz (ns counters)");
	CHECK(s->raw_ns >= r0 && s->raw_ns <= r1, "cpu_clock_counter is CLOCK_MONOTONIC_RAW");
	CHECK(s->boottime_ns >= b0 && s->boottime_ns <= b1,
	      "system_clock_counter is CLOCK_BOOTTIME");
	CHECK(s->gpu_ticks != 0, "a GPU counter");
}

static void device(struct kfdsig_emu *emu, struct kfdsig_kfd *kfd, size_t i)
{
	const struct kfdsig_kfd_device *dev = kfdsig_kfd_device(kfd, i);
	const struct kfdsig_target *t = dev->target;
	struct kfdsig_clock_sample s0, s1, s2, s3;
	struct kfdsig_kfd_queue *q;
	const struct kfdsig_kfd_bo *bo;
	struct kfdsig_gpu_clock c;
	uint32_t d[KFDSIG_PM4_TIMESTAMP_MAX_DW];
	uint64_t h0, h1, ts, ns;
	int n;

	(void)emu;
	sample(kfd, dev->gpu_id, &s0);
	/* the counter is not any host clock's ns, and each GPU has its own */
	CHECK(s0.gpu_ticks > KFDSIG_EMU_GPU_CLOCK_EPOCH * (i + 1) &&
		      s0.gpu_ticks < KFDSIG_EMU_GPU_CLOCK_EPOCH * (i + 2),
	      "%s: ticks in the GPU's own epoch", t->name);
	usleep(20000);
	sample(kfd, dev->gpu_id, &s1);
	CHECK(s1.gpu_ticks > s0.gpu_ticks && s1.raw_ns > s0.raw_ns, "%s: monotonic", t->name);
	CHECK_EQ(kfdsig_gpu_clock_calibrate(&s0, &s1, &c), 0, "%s: calibrate", t->name);
	/* the rate is the emulated GPU's, not 1 GHz: within 0.1 % over 20 ms */
	CHECK(c.hz > KFDSIG_EMU_GPU_CLOCK_HZ * 0.999 && c.hz < KFDSIG_EMU_GPU_CLOCK_HZ * 1.001,
	      "%s: derived rate %.0f Hz", t->name, c.hz);

	/* a timestamp the CP writes between two host readings */
	T_REQUIRE(!kfdsig_kfd_alloc(kfd, dev->gpu_id, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) &&
			  !kfdsig_kfd_map(kfd, bo, &dev->gpu_id, 1),
		  "timestamp buffer");
	T_REQUIRE(!kfdsig_kfd_queue_create(kfd, dev->gpu_id, KFDSIG_QUEUE_PM4, NULL, &q), "queue");
	n = kfdsig_pm4_emit_timestamp(t, bo->va + 64, d, KFDSIG_PM4_TIMESTAMP_MAX_DW);
	CHECK(n > 0, "%s: emit", t->name);
	h0 = host_ns(CLOCK_MONOTONIC);
	CHECK(!kfdsig_kfd_queue_submit(q, d, (uint32_t)n, WAIT_MS), "submit");
	CHECK(!kfdsig_kfd_queue_wait_idle(q, WAIT_MS), "idle");
	h1 = host_ns(CLOCK_MONOTONIC);
	ts = __atomic_load_n((uint64_t *)((char *)bo->cpu + 64), __ATOMIC_ACQUIRE);
	CHECK(ts > s1.gpu_ticks, "%s: the CP wrote a later counter", t->name);
	usleep(20000);
	sample(kfd, dev->gpu_id, &s2);
	CHECK(s2.gpu_ticks > ts, "%s: GET_CLOCK_COUNTERS after the timestamp is later", t->name);

	/* interpolated between samples before and after */
	CHECK_EQ(kfdsig_gpu_clock_calibrate(&s1, &s2, &c), 0, "calibrate");
	CHECK(!kfdsig_gpu_clock_to_ns(&c, ts, &ns), "%s: convert", t->name);
	CHECK(ns + SLACK_NS >= h0 && ns <= h1 + SLACK_NS,
	      "%s: interpolated %llu outside the host readings %llu..%llu", t->name,
	      (unsigned long long)ns, (unsigned long long)h0, (unsigned long long)h1);
	/* extrapolated from two samples taken before the timestamp */
	CHECK_EQ(kfdsig_gpu_clock_calibrate(&s0, &s1, &c), 0, "calibrate");
	CHECK(!kfdsig_gpu_clock_to_ns(&c, ts, &ns), "%s: convert", t->name);
	CHECK(ns + SLACK_NS >= h0 && ns <= h1 + SLACK_NS,
	      "%s: extrapolated %llu outside the host readings %llu..%llu", t->name,
	      (unsigned long long)ns, (unsigned long long)h0, (unsigned long long)h1);
	/* the sample after converts to its own CLOCK_MONOTONIC time */
	sample(kfd, dev->gpu_id, &s3);
	CHECK(!kfdsig_gpu_clock_to_ns(&c, s3.gpu_ticks, &ns), "convert s3");
	CHECK(ns + SLACK_NS >= s3.raw_ns + (uint64_t)s3.mono_minus_raw_ns &&
		      ns <= s3.raw_ns + (uint64_t)s3.mono_minus_raw_ns + SLACK_NS,
	      "%s: a sample converts to itself", t->name);

	kfdsig_kfd_queue_destroy(q);
	kfdsig_kfd_free(kfd, bo);
}

int main(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a,gfx803,gfx1100");
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfd_ioctl_get_clock_counters_args raw = { .gpu_id = 0xdead };
	struct kfdsig_clock_sample s;

	conversion_math();
	for (size_t i = 0; i < kfdsig_kfd_device_count(kfd); i++)
		device(emu, kfd, i);
	/* unknown gpu_id: the library refuses it; the kernel (and the
	 * emulator) answer success with a GPU counter of 0 */
	CHECK_EQ(kfdsig_kfd_clock_counters(kfd, 0xdead, &s), -ENOENT, "unknown gpu_id");
	CHECK_EQ(kfdsig_kfd_clock_counters(kfd, t_gpu(kfd, 0), NULL), -EINVAL, "NULL sample");
	CHECK_EQ(kfdsig_kfd_clock_counters(NULL, 1, &s), -EINVAL, "NULL handle");
	CHECK_EQ(kfdsig_kfd_ioctl(kfd, AMDKFD_IOC_GET_CLOCK_COUNTERS, &raw), 0, "raw ioctl");
	CHECK_EQ(raw.gpu_clock_counter, 0, "no GPU behind the id: counter 0");
	CHECK_EQ(raw.system_clock_freq, 1000000000ull, "raw ioctl: 1 GHz");
	/* no VM needed: a fresh process can read the clock */
	kfdsig_kfd_close(kfd);
	kfd = t_open(emu);
	CHECK_EQ(kfdsig_kfd_clock_counters(kfd, t_gpu(kfd, 1), &s), 0, "before ACQUIRE_VM");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	return t_result("kfd_clock");
}
