/* SPDX-License-Identifier: MIT */
/*
 * A judge of rocPRIM (Debian's librocprim-dev, header-only, built here by
 * hipcc), run under `kfdsig exec --emulate TARGET` (run-judge.sh): each
 * step named on the command line runs one device-wide algorithm over
 * inputs large enough to span many blocks, and compares every output
 * element with the host's computation:
 *   sort       radix_sort_keys, 32-bit unsigned keys, every bit
 *   pairs      radix_sort_pairs, keys with duplicates, values their index
 *              (a radix sort is stable: equal keys keep their order)
 *   inclusive  inclusive_scan with plus over ints (multi-block look-back)
 *   exclusive  exclusive_scan with plus and an initial value
 *   reduce     reduce with plus over ints, then with maximum
 *   histogram  histogram_even over floats, equal-width bins
 * The interfaces used are those rocPRIM's headers declare
 * (rocprim/device/device_*.hpp). Each step prints one line,
 * "STEP: W wrong of N"; the program exits 1 if any element differs, 2 on
 * a HIP or rocPRIM error.
 */
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define CHECK(x)                                                                   \
	do {                                                                       \
		hipError_t e_ = (x);                                               \
		if (e_ != hipSuccess) {                                            \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, \
				hipGetErrorString(e_));                            \
			exit(2);                                                   \
		}                                                                  \
	} while (0)

static unsigned rng_state = 12345u;

/* Numerical Recipes' 32-bit LCG: deterministic inputs, no library */
static unsigned next_u32(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return rng_state;
}

template <typename T> static T *to_device(const std::vector<T> &h)
{
	T *d;
	CHECK(hipMalloc(&d, h.size() * sizeof(T) + 1));
	CHECK(hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice));
	return d;
}

template <typename T> static std::vector<T> to_host(const T *d, size_t n)
{
	std::vector<T> h(n);
	CHECK(hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
	return h;
}

/* count the differing elements, name the first */
template <typename T>
static size_t compare(const char *step, const std::vector<T> &got, const std::vector<T> &want)
{
	size_t wrong = 0;

	for (size_t i = 0; i < want.size(); i++) {
		if (memcmp(&got[i], &want[i], sizeof(T)) == 0)
			continue;
		if (!wrong)
			fprintf(stderr, "%s: first difference at %zu: got %lld, want %lld\n", step,
				i, (long long)got[i], (long long)want[i]);
		wrong++;
	}
	printf("%s: %zu wrong of %zu\n", step, wrong, want.size());
	return wrong;
}

static void *temp_alloc(size_t bytes)
{
	void *p;
	CHECK(hipMalloc(&p, bytes ? bytes : 1));
	return p;
}

static size_t step_sort(void)
{
	const size_t n = 65536 + 77;
	std::vector<unsigned> keys(n);
	for (auto &k : keys)
		k = next_u32();
	unsigned *in = to_device(keys), *out = to_device(keys);
	size_t bytes = 0;
	CHECK(rocprim::radix_sort_keys(nullptr, bytes, in, out, n));
	void *tmp = temp_alloc(bytes);
	CHECK(rocprim::radix_sort_keys(tmp, bytes, in, out, n));
	CHECK(hipDeviceSynchronize());
	std::vector<unsigned> got = to_host(out, n);
	std::sort(keys.begin(), keys.end());
	CHECK(hipFree(tmp));
	CHECK(hipFree(in));
	CHECK(hipFree(out));
	return compare("sort", got, keys);
}

static size_t step_pairs(void)
{
	const size_t n = 50000;
	std::vector<unsigned> keys(n), vals(n);
	for (size_t i = 0; i < n; i++) {
		keys[i] = next_u32() % 1000; /* many equal keys */
		vals[i] = (unsigned)i;
	}
	unsigned *kin = to_device(keys), *kout = to_device(keys);
	unsigned *vin = to_device(vals), *vout = to_device(vals);
	size_t bytes = 0;
	CHECK(rocprim::radix_sort_pairs(nullptr, bytes, kin, kout, vin, vout, n));
	void *tmp = temp_alloc(bytes);
	CHECK(rocprim::radix_sort_pairs(tmp, bytes, kin, kout, vin, vout, n));
	CHECK(hipDeviceSynchronize());
	std::vector<unsigned> gk = to_host(kout, n), gv = to_host(vout, n);
	/* the host's stable sort of (key, index) */
	std::vector<unsigned> order(n);
	for (size_t i = 0; i < n; i++)
		order[i] = (unsigned)i;
	std::stable_sort(order.begin(), order.end(),
			 [&](unsigned a, unsigned b) { return keys[a] < keys[b]; });
	std::vector<unsigned> wk(n);
	for (size_t i = 0; i < n; i++)
		wk[i] = keys[order[i]];
	CHECK(hipFree(tmp));
	CHECK(hipFree(kin));
	CHECK(hipFree(kout));
	CHECK(hipFree(vin));
	CHECK(hipFree(vout));
	return compare("pairs.keys", gk, wk) + compare("pairs.values", gv, order);
}

static std::vector<int> small_ints(size_t n)
{
	std::vector<int> v(n);
	for (auto &x : v)
		x = (int)(next_u32() % 2001) - 1000;
	return v;
}

static size_t step_scan(bool inclusive)
{
	const size_t n = 100000 + 3;
	const int init = 17;
	std::vector<int> h = small_ints(n), want(n);
	int *in = to_device(h), *out = to_device(h);
	size_t bytes = 0;
	if (inclusive) {
		CHECK(rocprim::inclusive_scan(nullptr, bytes, in, out, n, rocprim::plus<int>()));
	} else {
		CHECK(rocprim::exclusive_scan(nullptr, bytes, in, out, init, n,
					      rocprim::plus<int>()));
	}
	void *tmp = temp_alloc(bytes);
	if (inclusive) {
		CHECK(rocprim::inclusive_scan(tmp, bytes, in, out, n, rocprim::plus<int>()));
	} else {
		CHECK(rocprim::exclusive_scan(tmp, bytes, in, out, init, n, rocprim::plus<int>()));
	}
	CHECK(hipDeviceSynchronize());
	std::vector<int> got = to_host(out, n);
	int acc = inclusive ? 0 : init;
	for (size_t i = 0; i < n; i++) {
		if (inclusive) {
			acc += h[i];
			want[i] = acc;
		} else {
			want[i] = acc;
			acc += h[i];
		}
	}
	CHECK(hipFree(tmp));
	CHECK(hipFree(in));
	CHECK(hipFree(out));
	return compare(inclusive ? "inclusive" : "exclusive", got, want);
}

static size_t step_reduce(void)
{
	const size_t n = 100000 + 5;
	std::vector<int> h = small_ints(n);
	int *in = to_device(h), *out;
	CHECK(hipMalloc(&out, 2 * sizeof(int)));
	size_t b1 = 0, b2 = 0;
	CHECK(rocprim::reduce(nullptr, b1, in, out, 0, n, rocprim::plus<int>()));
	CHECK(rocprim::reduce(nullptr, b2, in, out + 1, n, rocprim::maximum<int>()));
	void *tmp = temp_alloc(std::max(b1, b2));
	CHECK(rocprim::reduce(tmp, b1, in, out, 0, n, rocprim::plus<int>()));
	CHECK(rocprim::reduce(tmp, b2, in, out + 1, n, rocprim::maximum<int>()));
	CHECK(hipDeviceSynchronize());
	std::vector<int> got = to_host(out, 2), want(2);
	want[0] = 0;
	want[1] = h[0];
	for (int x : h) {
		want[0] += x;
		want[1] = std::max(want[1], x);
	}
	CHECK(hipFree(tmp));
	CHECK(hipFree(in));
	CHECK(hipFree(out));
	return compare("reduce", got, want);
}

static size_t step_histogram(void)
{
	const unsigned n = 100000, bins = 37;
	const float lo = -10.0f, hi = 30.0f;
	std::vector<float> h(n);
	/* integers and halves only: each sample's bin is exact in float */
	for (auto &x : h)
		x = (float)((int)(next_u32() % 100) - 30) * 0.5f;
	float *in = to_device(h);
	unsigned *hist;
	CHECK(hipMalloc(&hist, bins * sizeof(unsigned)));
	size_t bytes = 0;
	CHECK(rocprim::histogram_even(nullptr, bytes, in, n, hist, bins + 1, lo, hi));
	void *tmp = temp_alloc(bytes);
	CHECK(rocprim::histogram_even(tmp, bytes, in, n, hist, bins + 1, lo, hi));
	CHECK(hipDeviceSynchronize());
	std::vector<unsigned> got = to_host(hist, bins), want(bins, 0);
	/*
	 * bins + 1 levels evenly spaced from lo to hi: bin b holds
	 * [lo + b * w, lo + (b + 1) * w); samples outside [lo, hi) are not
	 * counted. Decided in double with the bin width 40/37, far from any
	 * edge for these samples.
	 */
	for (float x : h) {
		if (x < lo || x >= hi)
			continue;
		int b = (int)(((double)x - lo) * bins / (hi - lo));
		want[b]++;
	}
	CHECK(hipFree(tmp));
	CHECK(hipFree(in));
	CHECK(hipFree(hist));
	return compare("histogram", got, want);
}

int main(int argc, char **argv)
{
	size_t wrong = 0;

	setvbuf(stdout, NULL, _IOLBF, 0); /* each line out before a hang */
	if (argc < 2) {
		fprintf(stderr, "usage: %s sort|pairs|inclusive|exclusive|reduce|histogram...\n",
			argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "sort"))
			wrong += step_sort();
		else if (!strcmp(argv[i], "pairs"))
			wrong += step_pairs();
		else if (!strcmp(argv[i], "inclusive"))
			wrong += step_scan(true);
		else if (!strcmp(argv[i], "exclusive"))
			wrong += step_scan(false);
		else if (!strcmp(argv[i], "reduce"))
			wrong += step_reduce();
		else if (!strcmp(argv[i], "histogram"))
			wrong += step_histogram();
		else {
			fprintf(stderr, "unknown step '%s'\n", argv[i]);
			return 2;
		}
	}
	printf("done\n");
	return wrong ? 1 : 0;
}
