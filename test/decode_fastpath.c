/* SPDX-License-Identifier: MIT */
/*
 * The fast output path writes exactly what the plain formatters write.
 *
 * kfdsig_format_packet_text_cached() / _json_cached() copy a packet's line
 * from a cache when an equal packet (but for its plain-number "hole"
 * dwords: addresses, data, context ids) was seen before, refill the hole
 * numbers, and write the text label by patching the last four digits of
 * the label before. Here every packet of streams with repeated and varied
 * packets is formatted both ways, text and JSON, with and without raw
 * dwords, at offsets placed so that the labels cross every width change
 * (6, 7, 8 hex digits; past 32 bits; bytes past 2^32 and wrapping) and
 * every 16-bit boundary, in steps of one packet and in jumps, each offset
 * sequence with its own cache (the label patch depends on the label
 * before). Then `kfdsig decode` itself (when built) must print, for a
 * stream with lint findings, what the plain formatters print.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "decode_capture.h"

/* Offset sequences: the packets' own offsets plus a base, or (jumps) a
 * running sum of pseudo-random steps. */
static const uint64_t bases[] = {
	0,
	0xfff0,		     /* dword label crosses 0x10000 */
	0x3ff0,		     /* byte label crosses 0x10000 */
	(1ull << 22) - 0x40, /* byte label 6 -> 7 digits */
	(1ull << 24) - 0x40, /* dword label 6 -> 7 digits */
	(1ull << 30) - 0x40, /* byte label 8 -> 9 digits (past 32 bits) */
	(1ull << 32) - 0x40, /* dword label 8 -> 9 digits */
	0x123456789abcull,   /* wide */
	(1ull << 62) - 0x40, /* byte label wraps (dw * 4 overflows) */
	UINT64_MAX - 0x2000, /* the last offsets */
};

#define NSEQ (sizeof(bases) / sizeof(bases[0]) + 1) /* + jumps */

struct cmp {
	struct kfdsig_format_cache *c[NSEQ];
	uint64_t jump; /* the jumps sequence's next offset */
	uint32_t rng;
	unsigned long packets, lines, diffs;
};

static char plain[1 << 14], fast[1 << 14];

static void compare(struct cmp *k, struct kfdsig_format_cache *c, const struct kfdsig_packet *p)
{
	for (uint32_t flags = 0; flags <= KFDSIG_FORMAT_RAW; flags += KFDSIG_FORMAT_RAW) {
		for (int json = 0; json < 2; json++) {
			int na = json ? kfdsig_format_packet_json(p, flags, plain, sizeof(plain))
				      : kfdsig_format_packet_text(p, flags, plain, sizeof(plain));
			int nb = json ? kfdsig_format_packet_json_cached(c, p, flags, fast,
									 sizeof(fast))
				      : kfdsig_format_packet_text_cached(c, p, flags, fast,
									 sizeof(fast));

			k->lines++;
			if (na == nb && !strcmp(plain, fast))
				continue;
			if (k->diffs++ < 5)
				fprintf(stderr, "offset 0x%llx %s flags %u:\nplain: %sfast:  %s\n",
					(unsigned long long)p->offset, json ? "json" : "text",
					flags, plain, fast);
		}
	}
}

static int on_packet(void *ctx, const struct kfdsig_packet *p)
{
	struct cmp *k = ctx;
	struct kfdsig_packet q = *p;

	for (size_t b = 0; b < NSEQ - 1; b++) {
		q.offset = bases[b] + p->offset;
		compare(k, k->c[b], &q);
	}
	/* Jumps: up to 2^18 dwords at a time, or the next packet. */
	k->rng = k->rng * 1103515245u + 12345u;
	k->jump += (k->rng >> 8) % 3 ? p->ndw : (k->rng >> 12) % (1u << 18);
	q.offset = k->jump;
	compare(k, k->c[NSEQ - 1], &q);
	k->packets++;
	return 0;
}

/* A stream: fences (a few slots, their own sequence numbers, now and then
 * an interrupt context id that does not name the slot: a lint error), runs
 * of fillers, NOPs with bodies, payload packets, a packet too long to keep,
 * and garbage (skipped, with a resync finding). */
static size_t make_stream(const struct kfdsig_target *t, enum kfdsig_engine e, uint32_t *s,
			  size_t max, uint32_t seed)
{
	uint32_t r = seed;
	size_t n = 0;

	while (n + 96 < max) {
		uint32_t what;
		int m;

		r = r * 1103515245u + 12345u;
		what = (r >> 8) % 16;
		if (what < 7) {
			struct kfdsig_fence f = { 0 };

			f.event_id = 1 + (r >> 4) % 5;
			f.slot_va = 0x100000000ull + 8ull * f.event_id;
			f.flags = KFDSIG_FENCE_VALUE;
			f.value = n;
			if ((r >> 16) % 8 == 0) {
				f.flags |= KFDSIG_FENCE_CTXID;
				f.ctxid = f.event_id + 1;
			}
			/* named fields that differ between otherwise equal
			 * fences: data_sel, int_sel, cache actions */
			if ((r >> 19) % 4 == 0)
				f.flags |= KFDSIG_FENCE_32BIT;
			if ((r >> 21) % 6 == 0)
				f.flags |= KFDSIG_FENCE_INT_ONLY;
			f.cache = (uint8_t)((r >> 23) % 2);
			m = e == KFDSIG_ENGINE_PM4 ? kfdsig_pm4_emit_fence(t, &f, s + n, 32)
						   : kfdsig_sdma_emit_fence(t, &f, s + n, 32);
			n += m > 0 ? (size_t)m : 0;
		} else if (what < 11) {
			for (uint32_t i = 0; i <= (r >> 20) % 9; i++)
				s[n++] = e == KFDSIG_ENGINE_PM4 ? 0xffff1000u : 0;
		} else if (what < 13) {
			uint32_t len = 1 + (r >> 12) % (what == 12 ? 40 : 6);

			/* a NOP with a body (PM4 count = len - 1; SDMA count) */
			s[n++] = e == KFDSIG_ENGINE_PM4 ? 0xc0001000u | (len - 1) << 16 : len << 16;
			for (uint32_t i = 0; i < len; i++)
				s[n++] = (r >> 3) % 3 ? 0 : r ^ i;
		} else if (what < 15 && e == KFDSIG_ENGINE_PM4) {
			/* WRITE_DATA to memory with 1..3 data dwords (payload) */
			uint32_t len = 1 + (r >> 14) % 3;

			s[n++] = 0xc0003700u | (len + 2) << 16;
			s[n++] = 5u << 8; /* DST_SEL memory */
			s[n++] = 0x1000u + (r & 0xff0);
			s[n++] = 1;
			for (uint32_t i = 0; i < len; i++)
				s[n++] = (r >> 20) % 2 ? 7 : r * (i + 3);
		} else {
			s[n++] = 0x12345678u ^ (r & 0xff); /* type 0: not a packet start */
		}
	}
	return n;
}

static void test_library(void)
{
	static const char *const targets[] = { "gfx803", "gfx90a", "gfx1100", "gfx1201" };
	static uint32_t s[24576];
	struct cmp k = { .rng = 5 };

	for (size_t i = 0; i < NSEQ; i++) {
		k.c[i] = kfdsig_format_cache_new();
		CHECK(k.c[i] != NULL, "cache %zu", i);
		if (!k.c[i])
			return;
	}
	for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
		for (int e = 0; e < 2; e++) {
			KFDSIG_OPTS(kfdsig_decode_opts, o);
			KFDSIG_OPTS(kfdsig_decode_sink, sink, .ctx = &k, .packet = on_packet,
				    .finding = NULL);
			size_t n;

			o.engine = (enum kfdsig_engine)e;
			o.target = T(targets[t]);
			o.flags = KFDSIG_DECODE_LINT;
			n = make_stream(o.target, o.engine, s, sizeof(s) / sizeof(s[0]),
					(uint32_t)(t * 2 + (size_t)e + 1));
			kfdsig_decode(&o, &sink, s, n, NULL);
			/* The same dwords with other packet flags (a hand-built
			 * packet may say anything). */
			for (uint32_t fl = 0; fl < 16; fl++) {
				struct kfdsig_packet q;
				struct capture cap;

				cap_init(&cap);
				cap_decode(&cap, o.target, o.engine, 0, 0, s, 64);
				q = cap.pkts[0].p;
				q.flags = fl;
				on_packet(&k, &q);
				cap_free(&cap);
			}
		}
	}
	CHECK(k.packets > 20000, "%lu packets compared", k.packets);
	CHECK(k.diffs == 0, "%lu of %lu lines differ", k.diffs, k.lines);
	for (size_t i = 0; i < NSEQ; i++)
		kfdsig_format_cache_free(k.c[i]);
}

/* What `kfdsig decode --no-summary` prints, from the plain formatters. */
struct expect {
	char *buf;
	size_t len, cap;
	bool json;
	unsigned long findings;
};

static void expect_add(struct expect *x, const char *s, int n)
{
	if (n < 0)
		return;
	if (x->len + (size_t)n + 1 > x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 1 << 20;
		char *b;

		while (cap < x->len + (size_t)n + 1)
			cap *= 2;
		b = realloc(x->buf, cap);
		if (!b)
			exit(T_EXIT_FAIL);
		x->buf = b;
		x->cap = cap;
	}
	memcpy(x->buf + x->len, s, (size_t)n);
	x->len += (size_t)n;
}

static int expect_packet(void *ctx, const struct kfdsig_packet *p)
{
	struct expect *x = ctx;
	int n = x->json ? kfdsig_format_packet_json(p, 0, plain, sizeof(plain))
			: kfdsig_format_packet_text(p, 0, plain, sizeof(plain));

	expect_add(x, plain, n);
	return 0;
}

static int expect_finding(void *ctx, const struct kfdsig_finding *f)
{
	struct expect *x = ctx;
	int n = x->json ? kfdsig_format_finding_json(f, plain, sizeof(plain))
			: kfdsig_format_finding_text(f, plain, sizeof(plain));

	x->findings++;
	expect_add(x, plain, n);
	return 0;
}

/* The whole of what @argv prints on standard output (NULL on failure). */
static char *run(char *const argv[], size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	int fd[2], status;
	pid_t pid;

	if (!buf || pipe(fd))
		return NULL;
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	for (;;) {
		ssize_t k;

		if (n == cap) {
			char *b = realloc(buf, cap *= 2);

			if (!b)
				exit(T_EXIT_FAIL);
			buf = b;
		}
		k = read(fd[0], buf + n, cap - n);
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > 1) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static void test_cli(const char *cli)
{
	static uint32_t s[1 << 18]; /* 1 MiB: several output buffers */
	char path[] = "/tmp/kfdsig-fastpath-XXXXXX";
	const struct kfdsig_target *t = T("gfx90a");
	size_t n = make_stream(t, KFDSIG_ENGINE_PM4, s, sizeof(s) / sizeof(s[0]), 99);
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");

	CHECK(f != NULL, "temporary file");
	if (!f)
		return;
	/* little-endian bytes, as kfdsig emit writes them */
	for (size_t i = 0; i < n; i++) {
		unsigned char b[4] = { (unsigned char)s[i], (unsigned char)(s[i] >> 8),
				       (unsigned char)(s[i] >> 16), (unsigned char)(s[i] >> 24) };

		fwrite(b, 1, 4, f);
	}
	fclose(f);
	for (int json = 0; json < 2; json++) {
		char *argv[] = { (char *)cli,	"decode",
				 "-t",		"gfx90a",
				 "--lint",	"--signal-page",
				 "0x100000000", "--no-summary",
				 "-f",		json ? "json" : "text",
				 path,		NULL };
		struct expect x = { .json = json };
		KFDSIG_OPTS(kfdsig_decode_opts, o);
		KFDSIG_OPTS(kfdsig_decode_sink, sink, .ctx = &x, .packet = expect_packet,
			    .finding = expect_finding);
		size_t len = 0;
		char *got;

		o.engine = KFDSIG_ENGINE_PM4;
		o.target = t;
		o.flags = KFDSIG_DECODE_LINT | KFDSIG_DECODE_SIGNAL_PAGE;
		o.signal_page_va = 0x100000000ull;
		kfdsig_decode(&o, &sink, s, n, NULL);
		CHECK(x.findings > 100, "%lu lint findings in the stream", x.findings);
		got = run(argv, &len);
		CHECK(got != NULL, "%s did not run", cli);
		if (got) {
			size_t i = 0;

			while (i < len && i < x.len && got[i] == x.buf[i])
				i++;
			CHECK(len == x.len && i == len,
			      "%s: kfdsig decode wrote %zu bytes, the plain formatters %zu; "
			      "first difference at byte %zu:\n got: %.200s\nwant: %.200s",
			      json ? "json" : "text", len, x.len, i, got + (i > 80 ? i - 80 : 0),
			      x.buf + (i > 80 ? i - 80 : 0));
		}
		free(got);
		free(x.buf);
	}
	unlink(path);
}

/* Set field @name of the layout @desc in the packet @pk. */
static void set_field(const struct kfdsig_packet_desc *desc, uint32_t *pk, const char *name,
		      uint32_t v)
{
	for (unsigned i = 0; i < desc->nfields; i++) {
		const struct kfdsig_field *f = &desc->fields[i];
		uint32_t mask = f->width >= 32 ? UINT32_MAX : (1u << f->width) - 1;

		if (strcmp(f->name, name))
			continue;
		pk[f->dw] = (pk[f->dw] & ~(mask << f->shift)) | (v & mask) << f->shift;
		return;
	}
	CHECK(0, "%s has no field %s", desc->name, name);
}

/*
 * The lint takes a shortcut for a fence whose header it has seen before and
 * that breaks no rule. A fence that looks clean but breaks one must give
 * the same findings every time it comes, not only the first (when the
 * header is new and every rule runs).
 */
static void test_lint_repeats(void)
{
	static const char *const targets[] = { "gfx90a", "gfx1100", "gfx1201" };
	static const struct {
		const char *field;
		uint32_t v;
		const char *field2;
		uint32_t v2;
		bool page_only; /* a rule that needs the signal page */
	} bad[] = {
		{ "address_lo", 0x28 + 4 },			  /* misaligned slot */
		{ "data_lo", UINT32_MAX, "data_hi", UINT32_MAX }, /* all-ones */
		{ "int_ctxid", 0 },
		{ "int_ctxid", 4096 },
		{ "int_ctxid", 1u << 24 | 5 },
		{ "int_ctxid", 6, NULL, 0, true },   /* slot 5 written */
		{ "address_hi", 2, NULL, 0, true },  /* outside the page */
		{ "address_lo", 0, "int_ctxid", 0 }, /* slot 0 */
		{ "address_lo", 0, NULL, 0, true },  /* slot 0, context 5 */
		{ "int_sel", 0 },		     /* a polling fence */
		{ "data_sel", 1 },		     /* 32-bit write */
	};
	struct capture cap;

	cap_init(&cap);
	for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
		const struct kfdsig_target *tg = T(targets[t]);
		const struct kfdsig_packet_desc *desc = kfdsig_pm4_packet_desc(tg, 0x49);

		for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
			for (int page = 0; page < 2; page++) {
				struct kfdsig_fence f = { 0 };
				uint32_t s[64], pk[16];
				size_t n = 0, per[4] = { 0 };
				int m;

				f.event_id = 5;
				f.slot_va = 0x100000000ull + 8 * 5;
				m = kfdsig_pm4_emit_fence(tg, &f, pk, 16);
				CHECK(m == 8 && desc, "%s fence", targets[t]);
				if (m != 8 || !desc)
					continue;
				/* a clean fence first (the header is then known) */
				memcpy(s, pk, 32);
				n = 8;
				set_field(desc, pk, bad[b].field, bad[b].v);
				if (bad[b].field2)
					set_field(desc, pk, bad[b].field2, bad[b].v2);
				for (int k = 0; k < 3; k++, n += 8)
					memcpy(s + n, pk, 32);
				cap_decode(&cap, tg, KFDSIG_ENGINE_PM4,
					   KFDSIG_DECODE_LINT |
						   (page ? KFDSIG_DECODE_SIGNAL_PAGE : 0),
					   0x100000000ull, s, n);
				for (size_t i = 0; i < cap.nfinds; i++)
					per[cap.finds[i].offset / 8 < 4 ? cap.finds[i].offset / 8
									: 0]++;
				CHECK(per[0] == 0, "%s: the clean fence has %zu findings",
				      targets[t], per[0]);
				CHECK((per[1] > 0 || (bad[b].page_only && !page)) &&
					      per[1] == per[2] && per[2] == per[3],
				      "%s %s=0x%x%s: findings per copy %zu, %zu, %zu", targets[t],
				      bad[b].field, bad[b].v, page ? " (signal page)" : "", per[1],
				      per[2], per[3]);
				/* and the same rules in the same order */
				for (size_t i = 0, j; i < cap.nfinds; i++) {
					if (cap.finds[i].offset / 8 != 1)
						continue;
					for (int k = 2; k <= 3; k++) {
						for (j = 0; j < cap.nfinds; j++)
							if (cap.finds[j].offset ==
								    cap.finds[i].offset +
									    8 * (k - 1) &&
							    !strcmp(cap.finds[j].rule,
								    cap.finds[i].rule) &&
							    !strcmp(cap.finds[j].msg,
								    cap.finds[i].msg))
								break;
						CHECK(j < cap.nfinds, "%s copy %d lacks %s: %s",
						      targets[t], k, cap.finds[i].rule,
						      cap.finds[i].msg);
					}
				}
			}
		}
	}
	cap_free(&cap);
}

/*
 * The decoder remembers what each PM4 header identified as. A header that
 * differs from a remembered one in any bit (predicate, shader type, the
 * reserved bits, the count) must decode as it does in a stream where
 * nothing is remembered: the same packets, the same findings.
 */
static void test_header_cache(void)
{
	const struct kfdsig_target *t = T("gfx90a");
	struct kfdsig_fence f = { 0 };
	uint32_t fence[16], warm[64], s[160];
	/* headers to warm the cache with, and variants of each */
	static const uint32_t fillers[] = { 0xffff1000u, 0x80000000u };
	static const uint32_t variants[] = { 0x1, 0x2, 0x4, 0x8, 0x10, 0x80, 0x10000, 0x40000000 };
	struct capture cold, hot;
	char a[4096], b[4096];
	int m;

	f.event_id = 7;
	f.slot_va = 0x100000000ull + 56;
	m = kfdsig_pm4_emit_fence(t, &f, fence, 16);
	CHECK(m == 8, "fence");
	cap_init(&cold);
	cap_init(&hot);
	for (int kind = 0; kind < 3; kind++) {
		uint32_t h = kind == 0 ? fence[0] : fillers[kind - 1];
		size_t len = kind == 0 ? 8 : 1, nw = 0;

		for (int k = 0; k < 4; k++, nw += len)
			memcpy(warm + nw, kind == 0 ? fence : &h, len * 4);
		for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
			size_t n = 0;

			/* the variant, its body, then a clean fence to end on */
			s[n++] = h ^ variants[v];
			for (size_t i = 1; i < len; i++)
				s[n++] = fence[i];
			memcpy(s + n, fence, 32);
			n += 8;
			cap_decode(&cold, t, KFDSIG_ENGINE_PM4, 0, 0, s, n);
			memmove(s + nw, s, n * 4);
			memcpy(s, warm, nw * 4);
			cap_decode(&hot, t, KFDSIG_ENGINE_PM4, 0, 0, s, n + nw);
			CHECK(hot.npkts == cold.npkts + 4 && hot.nfinds >= cold.nfinds,
			      "header 0x%08x after 0x%08x: %zu packets, %zu alone", h ^ variants[v],
			      h, hot.npkts - 4, cold.npkts);
			for (size_t i = 0; i < cold.npkts && i + 4 < hot.npkts; i++) {
				struct kfdsig_packet q = hot.pkts[i + 4].p;

				q.offset -= nw;
				kfdsig_format_packet_text(&cold.pkts[i].p, KFDSIG_FORMAT_RAW, a,
							  sizeof(a));
				kfdsig_format_packet_text(&q, KFDSIG_FORMAT_RAW, b, sizeof(b));
				CHECK(!strcmp(a, b),
				      "header 0x%08x after 0x%08x:\n alone: %s warm: %s",
				      h ^ variants[v], h, a, b);
			}
			for (size_t i = 0; i < cold.nfinds; i++) {
				size_t j = hot.nfinds - cold.nfinds + i;

				CHECK(j < hot.nfinds &&
					      !strcmp(cold.finds[i].rule, hot.finds[j].rule),
				      "header 0x%08x after 0x%08x: finding %s", h ^ variants[v], h,
				      cold.finds[i].rule);
			}
		}
	}
	cap_free(&cold);
	cap_free(&hot);
}

int main(void)
{
	test_library();
	test_lint_repeats();
	test_header_cache();
#ifdef KFDSIG_CLI_PATH
	test_cli(KFDSIG_CLI_PATH);
#endif
	return t_result("decode_fastpath");
}
