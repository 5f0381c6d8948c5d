/* SPDX-License-Identifier: MIT */
/*
 * The GPU clock: AMDKFD_IOC_GET_CLOCK_COUNTERS and the conversion of GPU
 * counter ticks (what a PM4 RELEASE_MEM with DATA_SEL 3 writes) to
 * CLOCK_MONOTONIC nanoseconds.
 *
 * The kernel's handler (kfd_chardev.c kfd_ioctl_get_clock_counters, amdgpu-dkms 6.8.5
 * and mainline alike) reads the GPU counter through
 * amdgpu_amdkfd_get_gpu_clock_counter, then cpu_clock_counter =
 * ktime_get_raw_ns() (CLOCK_MONOTONIC_RAW), system_clock_counter =
 * ktime_get_boottime_ns() (CLOCK_BOOTTIME) and system_clock_freq = 1 GHz;
 * a gpu_id without a GPU gives a counter of 0 and success. It reports no
 * rate for the GPU counter, so the rate comes from two samples (the way
 * ROCr's profiler translates GPU timestamps into the host clock between two
 * hsaKmtGetClockCounters readings).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "kfd/kfd_priv.h"

__extension__ typedef __int128 i128; /* GCC and Clang on 64-bit hosts */

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

int kfdsig_kfd_clock_counters(struct kfdsig_kfd *kfd, uint32_t gpu_id,
			      struct kfdsig_clock_sample *out)
{
	struct kfd_ioctl_get_clock_counters_args a = { .gpu_id = gpu_id };
	int64_t raw0, mono, raw1;
	int r;

	if (!kfd || !out)
		return set_error(EINVAL, "no KFD handle or no sample to fill");
	if (!kfd_gpu_by_id(kfd, gpu_id))
		return set_error(ENOENT, "no GPU with gpu_id 0x%x", gpu_id);
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, AMDKFD_IOC_GET_CLOCK_COUNTERS, &a);
	if (r < 0)
		return set_error(-r, "AMDKFD_IOC_GET_CLOCK_COUNTERS (gpu_id 0x%x): %s", gpu_id,
				 strerror(-r));
	/* MONOTONIC between two RAW readings: the offset is good to the
	 * cost of one clock_gettime (vDSO, tens of ns). */
	raw0 = clock_ns(CLOCK_MONOTONIC_RAW);
	mono = clock_ns(CLOCK_MONOTONIC);
	raw1 = clock_ns(CLOCK_MONOTONIC_RAW);
	if (!a.gpu_clock_counter)
		return set_error(ENODEV, "GET_CLOCK_COUNTERS gave no GPU counter for gpu_id 0x%x",
				 gpu_id);
	out->gpu_ticks = a.gpu_clock_counter;
	out->raw_ns = a.cpu_clock_counter;
	out->boottime_ns = a.system_clock_counter;
	out->system_freq = a.system_clock_freq;
	out->mono_minus_raw_ns = mono - (raw0 + (raw1 - raw0) / 2);
	return 0;
}

int kfdsig_gpu_clock_calibrate(const struct kfdsig_clock_sample *a,
			       const struct kfdsig_clock_sample *b, struct kfdsig_gpu_clock *out)
{
	if (!a || !b || !out)
		return set_error(EINVAL, "calibration needs two samples and an output");
	if (b->gpu_ticks <= a->gpu_ticks || b->raw_ns <= a->raw_ns)
		return set_error(EINVAL,
				 "the second clock sample is not later than the first "
				 "(GPU %llu -> %llu ticks, CPU %llu -> %llu ns)",
				 (unsigned long long)a->gpu_ticks, (unsigned long long)b->gpu_ticks,
				 (unsigned long long)a->raw_ns, (unsigned long long)b->raw_ns);
	out->gpu0 = a->gpu_ticks;
	out->raw0 = a->raw_ns;
	out->gpu_span = b->gpu_ticks - a->gpu_ticks;
	out->raw_span = b->raw_ns - a->raw_ns;
	out->mono_minus_raw_ns = b->mono_minus_raw_ns;
	out->hz = (double)out->gpu_span * 1e9 / (double)out->raw_span;
	return 0;
}

int kfdsig_gpu_clock_to_ns(const struct kfdsig_gpu_clock *c, uint64_t ticks, uint64_t *mono_ns)
{
	i128 d, ns;

	if (!c || !mono_ns || !c->gpu_span || !c->raw_span)
		return set_error(EINVAL, "no calibrated GPU clock or no output");
	/* raw0 + (ticks - gpu0) * raw_span / gpu_span, rounded to nearest,
	 * in 128 bits: tick distances and spans both reach 2^40 and more. */
	d = (i128)ticks - (i128)c->gpu0;
	d *= c->raw_span;
	d += d < 0 ? -(i128)(c->gpu_span / 2) : (i128)(c->gpu_span / 2);
	ns = (i128)c->raw0 + d / (i128)c->gpu_span + c->mono_minus_raw_ns;
	if (ns < 0 || ns > (i128)INT64_MAX)
		return set_error(ERANGE,
				 "GPU counter %llu is %s CLOCK_MONOTONIC's range: not this "
				 "GPU's clock",
				 (unsigned long long)ticks, ns < 0 ? "before" : "beyond");
	*mono_ns = (uint64_t)ns;
	return 0;
}
