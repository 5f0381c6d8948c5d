/* SPDX-License-Identifier: MIT */
/*
 * Decoder throughput on a generated multi-megabyte mixed stream, per
 * engine: structured decode (packets to a counting sink, no text), the same
 * with lint, streamed in 64 KiB pieces, and text / JSON rendering of every
 * packet into a buffer (no I/O), each as MB/s of input and as a ratio to
 * the header-walk floor measured in the same run (a loop that only reads
 * each header's length: the least any decoder does). Then the CLI's own
 * path in-process on 64 MiB rings, and `kfdsig decode FILE > /dev/null`
 * itself on the same rings written to files (CPU time of the process, best
 * of five), each with the same floor. Goals: library decode >= 1 GB/s on
 * every engine; the CLI >= 300 MB/s text, >= 200 MB/s JSON, lint within
 * 1.2x of text, on every engine and ring shape. Prints figures; never a
 * pass/fail.
 *
 *   bench_decode_throughput [KFDSIG]   (the CLI to time: default the one
 *                                       built beside it, or $KFDSIG)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kfdsig/kfdsig.h>

#define STREAM_DW (2u << 20) /* 8 MiB */

static uint32_t rng = 1;
static uint32_t rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

static size_t make_stream(const struct kfdsig_target *t, enum kfdsig_engine e, uint32_t *s)
{
	size_t n = 0;

	while (n + 64 < STREAM_DW) {
		struct kfdsig_fence f = { 0 };
		uint32_t r = rnd() % 10;
		int k;

		f.event_id = 1 + rnd() % 4095;
		f.slot_va = 0x100000000ull + 8ull * f.event_id;
		if (r < 6) {
			k = e == KFDSIG_ENGINE_PM4 ? kfdsig_pm4_emit_fence(t, &f, s + n, 32)
						   : kfdsig_sdma_emit_fence(t, &f, s + n, 32);
			n += k > 0 ? (size_t)k : 0;
		} else if (r < 9) {
			s[n++] = e == KFDSIG_ENGINE_PM4 ? 0xffff1000 : 0;
		} else {
			k = 1 + rnd() % 16;
			s[n++] = e == KFDSIG_ENGINE_PM4 ? 0xc0001000 | (uint32_t)(k - 1) << 16
							: (uint32_t)k << 16;
			memset(s + n, 0, (size_t)k * 4);
			n += (size_t)k;
		}
	}
	return n;
}

/* CPU time of this thread (user and system): a run that another process
 * preempts is not charged for the time it waited, so best-of figures hold
 * on a shared machine. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct counter {
	unsigned long long packets, bytes;
	int mode; /* 0 count, 1 text, 2 json, 3 text cached, 4 json cached */
	struct kfdsig_format_cache *cache;
	char buf[4096];
	/* The CLI's path (cli_packet): a 1 MiB buffer written to /dev/null */
	char *obuf;
	size_t olen;
};

#define OBUF (1u << 20)

static int on_packet(void *ctx, const struct kfdsig_packet *p)
{
	struct counter *c = ctx;

	c->packets++;
	if (c->mode == 1)
		c->bytes += (unsigned)kfdsig_format_packet_text(p, 0, c->buf, sizeof(c->buf));
	else if (c->mode == 2)
		c->bytes += (unsigned)kfdsig_format_packet_json(p, 0, c->buf, sizeof(c->buf));
	else if (c->mode >= 3)
		c->bytes += (unsigned)(c->mode == 3 ? kfdsig_format_packet_text_cached
						    : kfdsig_format_packet_json_cached)(
			c->cache, p, 0, c->buf, sizeof(c->buf));
	return 0;
}

/* The floor: walk the stream by header lengths only (prefetching ahead,
 * as the decoder's window copy does in effect). */
static double walk_floor(enum kfdsig_engine e, const uint32_t *s, size_t n)
{
	double best = 1e9;
	volatile size_t sink = 0;

	for (int rep = 0; rep < 3; rep++) {
		double t0 = now();
		size_t pos = 0, count = 0;

		while (pos < n) {
			uint32_t h = s[pos], len;

			/* ahead of the walk: each header's address depends on the
			 * one before, so without this a ring bigger than the
			 * caches is a chain of memory latencies, not a walk */
			__builtin_prefetch(s + pos + 256);

			if (e == KFDSIG_ENGINE_PM4)
				len = (h >> 30) == 3 ? (((h >> 16) & 0x3fff) == 0x3fff
								? 1
								: ((h >> 16) & 0x3fff) + 2)
						     : 1;
			else
				len = (h & 0xff) == 0	? ((h >> 16) & 0x3fff) + 1
				      : (h & 0xff) == 5 ? 4
				      : (h & 0xff) == 6 ? 2
							: 1;
			pos += len;
			count++;
		}
		sink += count;
		if (now() - t0 < best)
			best = now() - t0;
	}
	(void)sink;
	return (double)n * 4 / best / 1e6;
}

static double run(const struct kfdsig_decode_opts *o, struct counter *c, const uint32_t *s,
		  size_t n, int stream)
{
	KFDSIG_OPTS(kfdsig_decode_sink, sink, .ctx = c, .packet = on_packet, .finding = NULL);
	double t0 = now(), best = 1e9;

	for (int rep = 0; rep < 5; rep++) { /* best of 5: the machine is shared */
		c->packets = c->bytes = 0;
		t0 = now();
		if (stream) {
			struct kfdsig_decoder *d = kfdsig_decoder_new(o, &sink);

			for (size_t i = 0; i < n; i += 16384)
				kfdsig_decoder_feed(d, s + i, n - i < 16384 ? n - i : 16384);
			kfdsig_decoder_finish(d, NULL);
			kfdsig_decoder_free(d);
		} else {
			kfdsig_decode(o, &sink, s, n, NULL);
		}
		if (now() - t0 < best)
			best = now() - t0;
	}
	return (double)n * 4 / best / 1e6;
}

/* The rings of the CLI path: what fills each 64-byte slot after a fence. */
enum ring_kind {
	RING_FILLERS,	/* PM4: fence + 0xFFFF1000 one-dword fillers (kfd_queue.c's padding) */
	RING_NOP_BURST, /* PM4: fence + one type-3 NOP with a body */
	RING_UNIQUE,	/* PM4: fillers, each fence with its own sequence number */
	RING_SDMA,	/* SDMA: fence + trap + a NOP burst (kfdsig_sdma_emit_nop) */
};

static const char *const ring_names[] = {
	"PM4 RELEASE_MEM + 8 one-dword fillers",
	"PM4 RELEASE_MEM + one 8-dword NOP",
	"PM4 as the first, each fence its own value",
	"SDMA fence + trap + NOP burst",
};

/* A @n-dword ring of 64-byte slots (the last slot may be cut short). */
static size_t make_ring(const struct kfdsig_target *t, enum ring_kind kind, uint32_t *s, size_t n)
{
	size_t k = 0;
	uint64_t seq = 1;

	while (k + 16 <= n) {
		struct kfdsig_fence f = { 0 };
		size_t at = k;
		int m;

		f.event_id = 1 + rnd() % 4095;
		f.slot_va = 0x100000000ull + 8ull * f.event_id;
		if (kind == RING_UNIQUE) {
			f.flags = KFDSIG_FENCE_VALUE;
			f.value = seq++;
		}
		m = kind == RING_SDMA ? kfdsig_sdma_emit_fence(t, &f, s + k, 16)
				      : kfdsig_pm4_emit_fence(t, &f, s + k, 16);
		k += m > 0 ? (size_t)m : 0;
		if (kind == RING_SDMA) {
			m = kfdsig_sdma_emit_nop(s + k, 16, at + 16 - k, KFDSIG_SDMA_NOP_BURST);
			k += m > 0 ? (size_t)m : 0;
		} else if (kind == RING_NOP_BURST) {
			/* PACKET3(NOP, count): count + 2 dwords in all */
			s[k] = 0xc0001000u | (uint32_t)(at + 16 - k - 2) << 16;
			memset(s + k + 1, 0, (at + 16 - k - 1) * 4);
			k = at + 16;
		} else {
			while (k < at + 16)
				s[k++] = 0xffff1000u;
		}
	}
	return k;
}

/* The CLI's output: a 1 MiB buffer written with write(2). */
static int out_fd = -1;

static int cli_packet(void *ctx, const struct kfdsig_packet *p)
{
	struct counter *c = ctx;
	int n;

	c->packets++;
	if (!c->mode)
		return 0;
	n = (c->mode == 3 ? kfdsig_format_packet_text_cached : kfdsig_format_packet_json_cached)(
		c->cache, p, 0, c->obuf + c->olen, OBUF - c->olen);
	if (n > 0 && (size_t)n < OBUF - c->olen)
		c->olen += (size_t)n;
	if (c->olen > OBUF - 65536) {
		if (write(out_fd, c->obuf, c->olen) < 0)
			c->bytes = 0;
		c->olen = 0;
	}
	return 0;
}

static double cli_run(const struct kfdsig_decode_opts *o, struct counter *c, const uint32_t *s,
		      size_t n)
{
	KFDSIG_OPTS(kfdsig_decode_sink, sink, .ctx = c, .packet = cli_packet, .finding = NULL);
	double best = 1e9;

	for (int rep = 0; rep < 3; rep++) {
		struct kfdsig_decoder *d = kfdsig_decoder_new(o, &sink);
		double t0 = now();

		/* the CLI feeds 16384 dwords at a time */
		for (size_t i = 0; i < n; i += 16384)
			kfdsig_decoder_feed(d, s + i, n - i < 16384 ? n - i : 16384);
		kfdsig_decoder_finish(d, NULL);
		if (c->olen && write(out_fd, c->obuf, c->olen) < 0)
			c->bytes = 0;
		c->olen = 0;
		if (now() - t0 < best)
			best = now() - t0;
		kfdsig_decoder_free(d);
	}
	return (double)n * 4 / best / 1e6;
}

/*
 * The CLI's path on 64 MiB rings (kfdsig decode FILE > /dev/null without
 * reading the file): streamed decoder, one kfdsig_format_cache, 1 MiB
 * buffered writes to /dev/null. Goals: text >= 300 MB/s, JSON >= 200.
 */
static void cli_path(void)
{
	size_t n = (64u << 20) / 4;
	uint32_t *s = malloc(n * 4);
	struct counter c = { 0 };

	c.obuf = malloc(OBUF);
	out_fd = open("/dev/null", O_WRONLY);
	if (!s || !c.obuf || out_fd < 0)
		return;
	printf("\nCLI path: 64 MiB rings, streamed, cached formatter, 1 MiB write(2)s to "
	       "/dev/null\n%-44s %10s %14s %14s %14s %14s %9s\n",
	       "ring (gfx90a)", "floor", "decode", "text", "json", "text+lint", "lint/dec");
	for (int kind = 0; kind < 4; kind++) {
		const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
		KFDSIG_OPTS(kfdsig_decode_opts, o);
		double floor, dec, text, json, lint, declint;
		size_t k = make_ring(t, (enum ring_kind)kind, s, n);

		o.target = t;
		o.engine = kind == RING_SDMA ? KFDSIG_ENGINE_SDMA : KFDSIG_ENGINE_PM4;
		floor = walk_floor(o.engine, s, k);
		c.cache = kfdsig_format_cache_new();
		if (!c.cache)
			break;
		c.mode = 0;
		dec = cli_run(&o, &c, s, k);
		c.mode = 3;
		text = cli_run(&o, &c, s, k);
		c.mode = 4;
		json = cli_run(&o, &c, s, k);
		o.flags = KFDSIG_DECODE_LINT;
		c.mode = 0;
		declint = cli_run(&o, &c, s, k);
		c.mode = 3;
		lint = cli_run(&o, &c, s, k);
		printf("%-44s %5.0f MB/s %5.0f (%4.1fx) %5.0f (%4.1fx) %5.0f (%4.1fx) %5.0f "
		       "(%4.1fx) %8.2fx\n",
		       ring_names[kind], floor, dec, floor / dec, text, floor / text, json,
		       floor / json, lint, floor / lint, dec / declint);
		kfdsig_format_cache_free(c.cache);
	}
	printf("(lint/dec: decode without and with lint, no text)\n");
	close(out_fd);
	free(c.obuf);
	free(s);
}

#define CLI_MAX_ARGS 8

/* CPU seconds (user + system) of `kfdsig decode ARGS FILE > /dev/null`;
 * @args ends with NULL, at most CLI_MAX_ARGS entries in all. */
static double cli_cpu(const char *kfdsig, const char *const args[CLI_MAX_ARGS], const char *file)
{
	const char *argv[CLI_MAX_ARGS + 4];
	struct rusage ru;
	int status, n = 0;
	pid_t pid;

	argv[n++] = kfdsig;
	argv[n++] = "decode";
	for (int i = 0; i < CLI_MAX_ARGS && args[i]; i++)
		argv[n++] = args[i];
	argv[n++] = file;
	argv[n] = NULL;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execv(kfdsig, (char *const *)argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) > 1)
		return -1;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

/*
 * The CLI process on the rings of cli_path(), written to a temporary file:
 * text, JSON and text with --lint, best of five runs each, interleaved.
 */
static void cli_process(const char *kfdsig)
{
	static const char *const modes[3][4] = {
		{ NULL },
		{ "-j", NULL },
		{ "--lint", NULL },
	};
	size_t n = (64u << 20) / 4;
	uint32_t *s = malloc(n * 4);
	char file[] = "/tmp/kfdsig-bench-ring-XXXXXX";

	if (!s)
		return;
	printf("\nkfdsig decode -t gfx90a [-E sdma] [-j|--lint] FILE > /dev/null (%s), 64 MiB "
	       "rings in a file,\nCPU time of the process, best of 5\n%-44s %10s %14s %14s "
	       "%14s %10s\n",
	       kfdsig, "ring (gfx90a)", "floor", "text", "json", "text+lint", "lint/text");
	for (int kind = 0; kind < 4; kind++) {
		const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
		size_t k = make_ring(t, (enum ring_kind)kind, s, n);
		double floor, best[3] = { 1e30, 1e30, 1e30 }, mb = (double)k * 4 / 1e6;
		int fd = mkstemp(file);
		bool ok = fd >= 0 && write(fd, s, k * 4) == (ssize_t)(k * 4);

		if (fd >= 0)
			close(fd);
		floor = walk_floor(kind == RING_SDMA ? KFDSIG_ENGINE_SDMA : KFDSIG_ENGINE_PM4, s,
				   k);
		for (int rep = 0; rep < 5 && ok; rep++)
			for (int m = 0; m < 3 && ok; m++) {
				const char *args[CLI_MAX_ARGS] = { "-t", "gfx90a" };
				int a = 2;
				double cpu;

				if (kind == RING_SDMA) {
					args[a++] = "-E";
					args[a++] = "sdma";
				}
				for (int i = 0; modes[m][i]; i++)
					args[a++] = modes[m][i];
				args[a] = NULL;
				cpu = cli_cpu(kfdsig, args, file);
				ok = cpu > 0;
				if (ok && cpu < best[m])
					best[m] = cpu;
			}
		unlink(file);
		memcpy(file + strlen(file) - 6, "XXXXXX", 6);
		if (!ok) {
			printf("%-44s (the CLI failed)\n", ring_names[kind]);
			continue;
		}
		printf("%-44s %5.0f MB/s %5.0f (%4.1fx) %5.0f (%4.1fx) %5.0f (%4.1fx) %9.2fx\n",
		       ring_names[kind], floor, mb / best[0], floor * best[0] / mb, mb / best[1],
		       floor * best[1] / mb, mb / best[2], floor * best[2] / mb, best[2] / best[0]);
	}
	printf("(lint/text: CPU time with --lint over without)\n");
	free(s);
}

int main(int argc, char **argv)
{
	const char *kfdsig = argc > 1 ? argv[1] : getenv("KFDSIG");
	static const char *const targets[] = { "gfx90a", "gfx1100" };
	uint32_t *s = malloc(STREAM_DW * 4);

	if (!s)
		return 1;
	printf("MB/s of input; (Nx) = how many times slower than the floor\n");
	printf("%-8s %-5s %6s %10s %14s %14s %14s %14s %14s %14s %14s %9s\n", "target", "eng",
	       "MiB", "floor", "decode", "+lint", "streamed", "text", "json", "text$", "json$",
	       "lint/dec");
	for (int ti = 0; ti < 2; ti++) {
		for (int e = 0; e < 2; e++) {
			const struct kfdsig_target *t = kfdsig_target_by_name(targets[ti]);
			KFDSIG_OPTS(kfdsig_decode_opts, o);
			struct counter c = { 0 };
			double floor, dec, lint, str, text, json, ctext, cjson;
			size_t n = make_stream(t, (enum kfdsig_engine)e, s);

			o.engine = (enum kfdsig_engine)e;
			o.target = t;
			floor = walk_floor((enum kfdsig_engine)e, s, n);
			dec = run(&o, &c, s, n, 0);
			str = run(&o, &c, s, n, 1);
			c.mode = 1;
			text = run(&o, &c, s, n, 0);
			c.mode = 2;
			json = run(&o, &c, s, n, 0);
			c.cache = kfdsig_format_cache_new();
			c.mode = 3;
			ctext = run(&o, &c, s, n, 0);
			c.mode = 4;
			cjson = run(&o, &c, s, n, 0);
			kfdsig_format_cache_free(c.cache);
			c.cache = NULL;
			c.mode = 0;
			o.flags = KFDSIG_DECODE_LINT;
			lint = run(&o, &c, s, n, 0);
			printf("%-8s %-5s %6.1f %5.0f MB/s %5.0f (%4.1fx) %5.0f (%4.1fx) %5.0f "
			       "(%4.1fx) %5.0f (%4.1fx) %5.0f (%4.1fx) %5.0f (%4.1fx) %5.0f "
			       "(%4.1fx) "
			       "%8.2fx\n",
			       targets[ti], e ? "sdma" : "pm4", n * 4 / 1048576.0, floor, dec,
			       floor / dec, lint, floor / lint, str, floor / str, text,
			       floor / text, json, floor / json, ctext, floor / ctext, cjson,
			       floor / cjson, dec / lint);
		}
	}
	free(s);
	printf("($ = with kfdsig_format_cache, as the CLI formats)\n");
	cli_path();
#ifdef KFDSIG_CLI_BUILD
	if (!kfdsig)
		kfdsig = KFDSIG_CLI_BUILD;
#endif
	if (kfdsig && !access(kfdsig, X_OK))
		cli_process(kfdsig);
	else
		printf("\n(no kfdsig CLI to time: pass its path)\n");
	return 0;
}
