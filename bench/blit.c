/* SPDX-License-Identifier: MIT */
/*
 * The 64 MiB device-to-device blit on the emulated shader unit, one row per
 * family, against a host memcpy of 64 MiB measured in the same run: the
 * copy kernels of bench/kernels/blit.ll (from blit.cl) compiled by LLVM 22
 * (opt, llc -O3, ld.lld) for one target of each family and dispatched
 * through the public AQL API (kfdsig_aql_emit_dispatch(), an AQL queue of
 * the emulated KFD, the completion signal polled every millisecond):
 *
 *	blit_x4     one 16-byte element per work-item (global_load_dwordx4 /
 *	            global_store_dwordx4), 4 Mi work-items, workgroups of 256:
 *	            the row's figure
 *	blit_dword  one dword per work-item, 16 Mi work-items (as ROCclr's
 *	            copyBuffer on a dword-aligned copy)
 *
 *	bench_blit [-r ROUNDS] [TARGET-ROW ...]   (e.g. gfx1030 gfx1100w64)
 *
 * On the targets ROCr 5.2.3 knows (gfx803, gfx900, gfx90a, gfx1010,
 * gfx1030) the row also runs bench_hip_copy under `kfdsig exec --emulate`
 * when hipcc built it: hipMemcpy device to device through ROCclr's
 * copyBuffer kernel, the ratio to its own host memcpy in the same run.
 *
 * Rounds are interleaved (x4, dword, host memcpy), best of each; each copy
 * is checked against its source before a figure is printed. Per kernel:
 * the best wall time, its ratio to the best host memcpy (the figure), and
 * the ratio of the best CPU times of the process (every host thread of
 * the dispatch and the waiting one against the memcpy's), steadier than
 * the wall time when the machine is loaded. The load average is printed
 * before and after: the machine may be shared, so the ratios, not the
 * times, are the figures to compare. Prints figures; exit
 * 1 only when a dispatch fails or a copy is wrong, 77 without LLVM 22.
 */
#include <time.h>
#include <unistd.h>

#include "emu_sqk_util.h"

#define SZ (64u << 20)
#define WAIT_MS 600000

/* @rocr: a target ROCr 5.2.3 knows, where hipMemcpy runs (bench_hip_copy) */
struct row {
	const char *name, *spec, *mcpu, *attrs;
	bool rocr;
};

static const struct row rows[] = {
	{ "gfx803", "gfx803", "gfx803", "", true },
	{ "gfx900", "gfx900", "gfx900", "", true },
	{ "gfx90a", "gfx90a", "gfx90a", "", true },
	{ "gfx942", "gfx942", "gfx942", "", false },
	{ "gfx950", "gfx950", "gfx950", "", false },
	{ "gfx1010", "gfx1010", "gfx1010", "", true },
	{ "gfx1030", "gfx1030", "gfx1030", "", true },
	{ "gfx1100", "gfx1100", "gfx1100", "", false },
	{ "gfx1100w64", "gfx1100", "gfx1100", "+wavefrontsize64", false },
	{ "gfx1151", "gfx1151", "gfx1151", "", false },
	{ "gfx1201", "gfx1201", "gfx1201", "", false },
	{ "gfx1250", "gfx1250", "gfx1250", "", false },
};

static double clk(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now(void)
{
	return clk(CLOCK_MONOTONIC);
}

/* CPU time of the whole process: the dispatch's host threads and the
 * polling one (steadier than the wall time on a loaded machine). */
static double cpu(void)
{
	return clk(CLOCK_PROCESS_CPUTIME_ID);
}

static void loadavg(const char *when)
{
	FILE *f = fopen("/proc/loadavg", "r");
	char buf[128] = "?";

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	printf("load average %s: %s\n", when, buf);
}

/* One dispatch of @kernel copying SZ bytes from @src_va to @dst_va in
 * elements of @elem bytes, in workgroups of 256, waited for on its
 * completion signal every millisecond (krig_run()'s wait, polled less
 * often: the waiting thread takes no CPU from the dispatch's); its wall
 * time in *t, the process's CPU time in *c. 0, -EIO (the queue stopped),
 * -ETIMEDOUT. */
static int copy(struct krig *r, const char *kernel, uint32_t elem, uint64_t src_va, uint64_t dst_va,
		double *t, double *c)
{
	struct {
		uint64_t src, dst;
		uint32_t n;
	} args = { src_va, dst_va, SZ / elem };
	uint64_t kd_va = krig_kd(r, kernel), karg_va, sig_va;
	const uint8_t *kd = r->cpu + (kd_va - r->va);
	uint8_t *karg = krig_alloc(r, 512, &karg_va);
	int64_t *sig = krig_alloc(r, 64, &sig_va);
	uint32_t d[16] = { 0 }, lds, priv, exc;
	double t0, c0;

	memset(karg, 0, 512);
	memcpy(karg, &args, sizeof(args));
	memset(sig, 0, 64);
	sig[0] = 1; /* AMD_SIGNAL_KIND_USER (ROCr amd_hsa_signal.h) */
	sig[1] = 1;
	memcpy(&lds, kd, 4);
	memcpy(&priv, kd + 4, 4);
	{
		KFDSIG_OPTS(kfdsig_aql_dispatch, a, .dims = 1, .workgroup = { 256, 1, 1 },
			    .grid = { SZ / elem, 1, 1 }, .private_segment_size = priv,
			    .group_segment_size = lds, .kernel_object = kd_va,
			    .kernarg_address = karg_va, .completion_signal = sig_va);

		if (kfdsig_aql_emit_dispatch(d, &a,
					     KFDSIG_AQL_ACQUIRE(KFDSIG_AQL_SCOPE_SYSTEM) |
						     KFDSIG_AQL_RELEASE(KFDSIG_AQL_SCOPE_SYSTEM)) !=
		    64)
			return -EINVAL;
	}
	t0 = now(), c0 = cpu();
	if (kfdsig_kfd_queue_submit(r->q, d, 16, WAIT_MS) != 0)
		return -EIO;
	for (unsigned n = 0; __atomic_load_n(&sig[1], __ATOMIC_ACQUIRE) != 0; n++) {
		if (krig_halted(r, r->q, &exc))
			return -EIO;
		if (n > WAIT_MS)
			return -ETIMEDOUT;
		usleep(1000);
	}
	*t = now() - t0;
	*c = cpu() - c0;
	return 0;
}

/* The best wall and CPU times of one copy over the rounds. */
struct best {
	double wall, cpu;
};

static void keep_best(struct best *b, double t, double c)
{
	b->wall = t < b->wall ? t : b->wall;
	b->cpu = c < b->cpu ? c : b->cpu;
}

/* The buffers of a row: the source and the destination, their VAs. */
struct bufs {
	uint64_t src_va, dst_va;
	uint8_t *src, *dst;
};

/* One round of @kernel (elements of @elem bytes): the copy, checked against
 * its source, its times kept in @b, the destination cleared for the next
 * copy. 0, 1 (the copy differs from its source) or copy()'s error. */
static int round_of(struct krig *r, const struct row *w, const struct bufs *bf, const char *kernel,
		    uint32_t elem, struct best *b)
{
	double t, c;
	int rc = copy(r, kernel, elem, bf->src_va, bf->dst_va, &t, &c);

	if (!rc && memcmp(bf->src, bf->dst, SZ) != 0) {
		printf("%-11s FAIL: %s differs from its source\n", w->name, kernel);
		rc = 1;
	}
	if (!rc)
		keep_best(b, t, c);
	memset(bf->dst, 0, SZ);
	return rc;
}

/* A kernel's columns: its best wall time, its ratios to the host memcpy's
 * wall and CPU times. */
static void print_kernel(const struct best *k, const struct best *host)
{
	printf(" %7.1f ms %6.1fx %6.1fx |", k->wall * 1e3, k->wall / host->wall,
	       k->cpu / host->cpu);
}

static int run_row(const struct row *w, int rounds, uint8_t *h, uint8_t *h2)
{
	struct kco co;
	struct krig r;
	struct bufs bf;
	struct best x4 = { 1e9, 1e9 }, dw = { 1e9, 1e9 }, host = { 1e9, 1e9 };
	double t, c;
	int rc = 0;

	if (kco_build(KFDSIG_SOURCE_DIR "/bench/kernels/blit.ll", w->mcpu, w->attrs, 3, &co)) {
		printf("%-11s LLVM 22 failed to compile the kernels\n", w->name);
		return 1;
	}
	krig_open(&r, w->spec, 2ull * SZ + (2u << 20));
	krig_load(&r, &co);
	bf.src = krig_alloc(&r, SZ, &bf.src_va);
	bf.dst = krig_alloc(&r, SZ, &bf.dst_va);
	memcpy(bf.src, h, SZ);
	memset(bf.dst, 0, SZ); /* its pages present before the first copy */
	for (int i = 0; i < rounds && !rc; i++) {
		rc = round_of(&r, w, &bf, "blit_x4", 16, &x4);
		if (!rc)
			rc = round_of(&r, w, &bf, "blit_dword", 4, &dw);
		t = now(), c = cpu();
		memcpy(h2, h, SZ);
		t = now() - t, c = cpu() - c;
		keep_best(&host, t, c);
		bf.src[i] ^= 1, h[i] ^= 1; /* a different source each round */
	}
	if (rc < 0) {
		printf("%-11s FAIL: the dispatch %s (%d)\n", w->name,
		       rc == -EIO ? "stopped the queue" : "timed out", rc);
	} else if (!rc) {
		printf("%-11s", w->name);
		print_kernel(&x4, &host);
		print_kernel(&dw, &host);
		printf(" %5.1f ms %5.1f ms", host.wall * 1e3, host.cpu * 1e3);
	}
	fflush(stdout);
	krig_close(&r);
	kco_free(&co);
	return rc ? 1 : 0;
}

/* hipMemcpy device to device under `kfdsig exec --emulate` (bench_hip_copy:
 * ROCclr's copyBuffer kernel, its own host memcpy in the same run): the
 * column's text in @out. */
static void run_hip(const struct row *w, int rounds, char *out, size_t len)
{
	snprintf(out, len, " | %19s", w->rocr ? "(no hipcc build)" : "");
#if defined(KFDSIG_CLI_BUILD) && defined(KFDSIG_HIP_COPY)
	if (w->rocr && !access(KFDSIG_CLI_BUILD, X_OK) && !access(KFDSIG_HIP_COPY, X_OK)) {
		char cmd[1024], line[256];
		double d2d = 0, ratio = 0;
		FILE *f;

		snprintf(cmd, sizeof(cmd), "%s exec --emulate %s -- %s %d 2>&1", KFDSIG_CLI_BUILD,
			 w->spec, KFDSIG_HIP_COPY, rounds);
		f = popen(cmd, "r");
		while (f && fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "device-to-device / host memcpy:", 31))
				ratio = strtod(line + 31, NULL);
			else if (!strncmp(line, "device-to-device ", 17))
				d2d = strtod(line + 17, NULL);
		}
		if (f && pclose(f) == 0 && ratio > 0)
			snprintf(out, len, " | %7.1f ms %6.1fx", d2d, ratio);
		else
			snprintf(out, len, " | %19s", "FAIL");
	}
#else
	(void)rounds;
#endif
}

int main(int argc, char **argv)
{
	int rounds = 3, fail = 0, ai = 1;
	uint8_t *h = malloc(SZ), *h2 = malloc(SZ);

	if (argc > 2 && strcmp(argv[1], "-r") == 0) {
		rounds = atoi(argv[2]);
		ai = 3;
	}
	if (!h || !h2 || rounds < 1) {
		fprintf(stderr, "usage: bench_blit [-r ROUNDS] [ROW ...]\n");
		return 2;
	}
	if (!kco_llvm()) {
		printf("SKIP: no LLVM 22 in %s\n", KFDSIG_LLVM22_BIN);
		return 77;
	}
	for (size_t i = 0; i < SZ; i++)
		h[i] = (uint8_t)(i * 131 + (i >> 20));
	memset(h2, 0, SZ);
	printf("64 MiB device-to-device copy, LLVM 22 -O3 kernels through an AQL queue of the "
	       "emulated KFD, best of %d rounds\n",
	       rounds);
	loadavg("before");
	printf("%-11s %-24s | %-24s | %-17s | %s\n", "", "blit_x4 (16 B/work-item)",
	       "blit_dword (4 B/work-item)", "host memcpy", "hipMemcpy (ROCr)");
	printf("%-11s %10s %7s %6s | %10s %7s %6s | %8s %8s | %10s %7s\n", "row", "wall", "ratio",
	       "cpu", "wall", "ratio", "cpu", "wall", "cpu", "wall", "ratio");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		bool want = ai >= argc;

		for (int a = ai; a < argc; a++)
			want |= strcmp(argv[a], rows[i].name) == 0;
		if (want) {
			char hip[64];

			fail |= run_row(&rows[i], rounds, h, h2);
			run_hip(&rows[i], rounds, hip, sizeof(hip));
			printf("%s\n", hip);
			fflush(stdout);
		}
	}
	loadavg("after");
	free(h);
	free(h2);
	return fail;
}
