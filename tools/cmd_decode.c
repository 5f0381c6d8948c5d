/* SPDX-License-Identifier: MIT */
/* kfdsig decode: decode (and lint) a PM4, SDMA or AQL packet stream. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* JSON or text, and the field cache, for the formatters (one decode per
 * process). */
static bool cur_json;
static struct kfdsig_format_cache *cur_cache;

static void help(FILE *f)
{
	fprintf(f,
		"usage: kfdsig decode -t T [-E pm4|sdma|aql] [-f text|json | -j]\n"
		"                     [-v] [--lint] [--signal-page ADDR] [--input-format F]\n"
		"                     [--rptr N --wptr N --units bytes|dwords] [--whole-ring]\n"
		"                     [--ring NAME] [--mem ADDR=FILE]... [--ib-depth N]\n"
		"                     [--userq [--ring-pos N] [--mec-fw N]]\n"
		"                     [--no-summary] [-o FILE] FILE|-\n\n"
		"Decode a PM4, SDMA or AQL packet stream (a ring dump, an IB, or kfdsig emit "
		"output)\n"
		"packet by packet, and with --lint check that its interrupt packets are event\n"
		"signals the kernel accepts. Bytes that do not parse are skipped up to the next\n"
		"plausible packet and reported once. Input streams: memory stays bounded.\n\n"
		"  -t, --target T        GPU target (kfdsig targets lists them)\n"
		"  -E, --engine E        pm4 (default), sdma, or aql (64-byte AQL queue slots;\n"
		"                        with --lint and --mem, completion signals are read\n"
		"                        from the images and checked)\n"
		"  -f, --format F        text (default): one line per packet, fields by name;\n"
		"                        json: the same as -j\n"
		"  -j, --json            JSON Lines: one object per line per packet and\n"
		"                        finding, as the stream is read (--json-seq: RFC 7464)\n"
		"  -v, --verbose         add each packet's raw dwords\n"
		"  -l, --lint            check interrupt packets against KFD's rules\n"
		"      --signal-page A   GPU address of the signal page (enables the slot,\n"
		"                        page and context-id-versus-slot rules)\n"
		"      --num-xcc N       XCCs of the KFD node (topology num_xcc; default the\n"
		"                        target's most, 8 on gfx94x): above 1 an unpredicated\n"
		"                        interrupt fence is a duplicate signal\n"
		"      --userq           the stream is an amdgpu user-mode queue ring (GFX11,\n"
		"                        GFX12): --lint checks its fences by the userq rules\n"
		"                        (no RELEASE_MEM interrupt, FENCE_WAIT_MULTI entries)\n"
		"                        instead of KFD's\n"
		"      --ring-pos N      with --userq --lint: the queue's write pointer (dwords)\n"
		"                        at the stream's first dword; each fence trailer must\n"
		"                        write the ring position after it\n"
		"      --mec-fw N        with --userq --lint: the GPU's MEC firmware version;\n"
		"                        below the kernel's user-queue minimum, a warning\n"
		"  -i, --input-format F  auto (default), bin, hex, xxd, xxd-e, hexdump (-C), od,\n"
		"                        umr, debugfs (amdgpu_ring_* file), devcoredump\n"
		"      --rptr N, --wptr N  decode only the live part of a ring, from rptr up\n"
		"                        to wptr, wrapping at its end; needs --units\n"
		"      --units U         bytes or dwords: the unit of --rptr/--wptr\n"
		"      --whole-ring      debugfs/devcoredump: the whole ring, not the window\n"
		"                        their header gives\n"
		"      --ring NAME       devcoredump: the ring to decode (needed when it holds\n"
		"                        several)\n"
		"      --mem ADDR=FILE   a memory image (binary) at GPU address ADDR; an\n"
		"                        INDIRECT_BUFFER inside one is decoded inline\n"
		"      --ib-depth N      nesting limit for IBs (default 4)\n"
		"      --no-summary      leave out the closing summary line\n"
		"  -o, --output FILE     write the decode there instead of stdout\n"
		"  FILE                  the stream, or - for standard input\n\n"
		"Offsets are labelled in dwords and bytes (hex).\n\n"
		"Exit status: 0 clean; 1 when an error-level finding exists (or I/O fails);\n"
		"2 for bad arguments or unreadable input (missing file, directory, no dwords,\n"
		"a token that is not a hex dword, a binary size not a multiple of 4).\n"
		"Global options (kfdsig --help): --emulate SPEC, -j/--json, --json-seq,\n"
		"-p/--pretty, -q/--quiet, before or after the command.\n");
}

#define OUT_CAP (1u << 20)
#define OUT_ROOM 65536u
#define MAX_MEM 16
#define MAX_NAMES 64

struct mem_image {
	uint64_t va;
	uint32_t *dw;
	size_t ndw;
};

struct dec_out {
	FILE *f;
	bool json;
	uint32_t fmt_flags;
	char *buf;
	size_t cap, len;
	size_t line_at; /* where out_packet() wrote the last line */
	bool failed;
	/* summary */
	struct {
		const char *name;
		uint64_t n;
	} names[MAX_NAMES];
	unsigned nnames, last;
	uint64_t other, packets, dwords, findings[3], skipped, skipped_dw;
	/* IBs */
	const struct kfdsig_decode_opts *o;
	struct mem_image mem[MAX_MEM];
	unsigned nmem, max_depth;
	uint64_t stack[16];
	int err; /* errno of the first failure */
};

/* One level of decoding: the ring/stream, or an IB inside it. */
struct frame {
	struct dec_out *out;
	unsigned depth;
	uint64_t ib_va;
	uint64_t base, ring_dw;		 /* offset labels: (base + offset) % ring_dw */
	uint64_t skipped_at, skipped_dw; /* the last SKIPPED packet (stream offsets) */
	bool plain; /* the stream itself: no IB prefix, no ring labels, no --mem */
};

/* The buffer to standard output with write(2), in one piece where it can
 * (stdio is never used for the stream itself). */
static void out_flush(struct dec_out *o)
{
	size_t done = 0;

	/* --pretty re-indents through a stdio filter installed on stdout
	 * (cli_json()): hand the buffer to it, write(2) would go around it. */
	if (cli_g.pretty) {
		if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len) {
			o->err = errno ? errno : EIO;
			o->failed = true;
		}
		o->len = 0;
		return;
	}
	if (o->len && fflush(o->f) == EOF && !o->failed) { /* nothing is there; be safe */
		o->err = errno ? errno : EIO;
		o->failed = true;
	}
	while (done < o->len && !o->failed) {
		ssize_t n = write(fileno(o->f), o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->err = n < 0 && errno ? errno : EIO;
			o->failed = true;
		} else {
			done += (size_t)n;
		}
	}
	o->len = 0;
}

/* Room for at least @n more bytes. */
static bool out_room(struct dec_out *o, size_t n)
{
	if (o->len + n <= o->cap)
		return true;
	out_flush(o);
	if (n > o->cap) {
		char *b = realloc(o->buf, n);

		if (!b) {
			o->failed = true;
			o->err = ENOMEM;
			return false;
		}
		o->buf = b;
		o->cap = n;
	}
	return true;
}

static void out_str(struct dec_out *o, const char *s, size_t n)
{
	if (out_room(o, n)) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	}
}

/* The prefix of a line inside an IB: indentation and the IB address. */
static void out_prefix(struct frame *fr)
{
	char tmp[96];
	int n;

	if (!fr->depth)
		return;
	if (fr->out->json)
		n = snprintf(tmp, sizeof(tmp), "{\"ib_depth\": %u, \"ib_va\": %llu, ", fr->depth,
			     (unsigned long long)fr->ib_va);
	else
		n = snprintf(tmp, sizeof(tmp), "%*s[ib 0x%llx] ", 2 * (int)fr->depth, "",
			     (unsigned long long)fr->ib_va);
	out_str(fr->out, tmp, (size_t)n);
}

/* Format with @fmt into the buffer (growing it once if it must). */
static void out_fmt(struct frame *fr, int (*fmt)(const void *, uint32_t, char *, size_t),
		    const void *arg)
{
	struct dec_out *o = fr->out;
	size_t skip = fr->depth && o->json ? 1 : 0; /* the '{' the prefix opened */
	int n;

	if (o->json && cli_g.json_seq)
		out_str(o, "\x1e", 1);
	out_prefix(fr);
	if (!out_room(o, OUT_ROOM))
		return;
	n = fmt(arg, o->fmt_flags, o->buf + o->len, o->cap - o->len);
	if (n < 0)
		return;
	if ((size_t)n >= o->cap - o->len) {
		if (!out_room(o, (size_t)n + 1))
			return;
		n = fmt(arg, o->fmt_flags, o->buf + o->len, o->cap - o->len);
	}
	if (skip)
		memmove(o->buf + o->len, o->buf + o->len + 1, (size_t)n - 1);
	o->len += (size_t)n - skip;
	if (o->len > o->cap - OUT_ROOM)
		out_flush(o);
}

static int fmt_packet(const void *p, uint32_t flags, char *b, size_t n)
{
	return cur_json ? kfdsig_format_packet_json_cached(cur_cache, p, flags, b, n)
			: kfdsig_format_packet_text_cached(cur_cache, p, flags, b, n);
}

static int fmt_finding(const void *f, uint32_t flags, char *b, size_t n)
{
	(void)flags;
	return cur_json ? kfdsig_format_finding_json(f, b, n) : kfdsig_format_finding_text(f, b, n);
}

static void count_name(struct dec_out *o, const char *name, uint64_t n)
{
	/* Names are the layout tables' strings: compare pointers first
	 * (on_packet() tries the last one counted before calling this). */
	for (unsigned i = 0; i < o->nnames; i++)
		if (o->names[i].name == name) {
			o->names[i].n += n;
			o->last = i;
			return;
		}
	for (unsigned i = 0; i < o->nnames; i++)
		if (!strcmp(o->names[i].name, name)) {
			o->names[i].n += n;
			return;
		}
	if (o->nnames < MAX_NAMES) {
		o->names[o->nnames].name = name;
		o->names[o->nnames++].n = n;
	} else {
		o->other += n;
	}
}

static uint64_t label(const struct frame *fr, uint64_t off)
{
	off += fr->base;
	return fr->ring_dw ? off % fr->ring_dw : off;
}

static int on_finding(void *ctx, const struct kfdsig_finding *f);
static int on_packet(void *ctx, const struct kfdsig_packet *p);

/* A note of the CLI itself (IB following), formatted as a finding. */
static void note(struct frame *fr, uint64_t off, const char *rule, const char *msg)
{
	struct kfdsig_finding f = { off, KFDSIG_SEV_INFO, rule, msg };

	fr->out->findings[KFDSIG_SEV_INFO]++;
	out_fmt(fr, fmt_finding, &f);
}

/* Follow an INDIRECT_BUFFER (PM4) or INDIRECT (SDMA) into a memory image. */
static void follow_ib(struct frame *fr, const struct kfdsig_packet *p, uint64_t off)
{
	struct dec_out *o = fr->out;
	uint32_t lo, hi, size;
	uint64_t va;
	char msg[160];

	if (!o->nmem || !p->desc || (p->flags & KFDSIG_PACKET_TRUNCATED))
		return;
	if (p->engine == KFDSIG_ENGINE_AQL) {
		/* AQL_PM4_IB: the IB holds PM4. */
		if (p->opcode != KFDSIG_AQL_TYPE_VENDOR_SPECIFIC ||
		    p->sub_op != KFDSIG_AQL_AMD_FORMAT_PM4_IB)
			return;
	} else if (p->engine == KFDSIG_ENGINE_PM4 ? p->sub_op != 3 || p->opcode != 0x3f
						  : p->opcode != 4) {
		return;
	}
	if (kfdsig_packet_field(p, "ib_base_lo", &lo) ||
	    kfdsig_packet_field(p, "ib_base_hi", &hi) || kfdsig_packet_field(p, "ib_size", &size))
		return;
	/* PM4 IB_BASE_LO bits 1:0 are the swap field (soc15d.h
	 * INDIRECT_BUFFER: dword-aligned base). */
	va = (uint64_t)hi << 32 | (lo & ~3u);
	for (unsigned i = 0; i < o->nmem; i++) {
		const struct mem_image *m = &o->mem[i];
		KFDSIG_OPTS(kfdsig_decode_sink, sink, .ctx = NULL, .packet = on_packet,
			    .finding = on_finding);
		struct frame sub = { o, fr->depth + 1, va, 0, 0, 0, 0, false };
		size_t first, n;

		if (va < m->va || va - m->va >= m->ndw * 4ull)
			continue;
		for (unsigned d = 0; d < fr->depth; d++)
			if (o->stack[d] == va) {
				snprintf(msg, sizeof(msg),
					 "IB at 0x%llx is already being decoded (a loop): not "
					 "followed",
					 (unsigned long long)va);
				note(fr, off, "ib-loop", msg);
				return;
			}
		if (fr->depth >= o->max_depth) {
			snprintf(msg, sizeof(msg), "IB at 0x%llx: nesting limit %u reached",
				 (unsigned long long)va, o->max_depth);
			note(fr, off, "ib-depth", msg);
			return;
		}
		first = (size_t)((va - m->va) / 4);
		n = size;
		if (n > m->ndw - first) {
			snprintf(msg, sizeof(msg),
				 "IB at 0x%llx: %u dwords, the image holds %zu of them",
				 (unsigned long long)va, size, m->ndw - first);
			note(fr, off, "ib-short", msg);
			n = m->ndw - first;
		}
		o->stack[fr->depth] = va;
		sink.ctx = &sub;
		if (p->engine == KFDSIG_ENGINE_AQL) {
			struct kfdsig_decode_opts po = *o->o;

			po.engine = KFDSIG_ENGINE_PM4;
			kfdsig_decode(&po, &sink, m->dw + first, n, NULL);
		} else {
			kfdsig_decode(o->o, &sink, m->dw + first, n, NULL);
		}
		return;
	}
	snprintf(msg, sizeof(msg), "IB at 0x%llx (%u dwords) is in no --mem image",
		 (unsigned long long)va, size);
	note(fr, off, "ib-outside", msg);
}

/* A finding of the CLI itself at any severity. */
static void cli_finding(struct frame *fr, uint64_t off, enum kfdsig_severity sev, const char *rule,
			const char *msg)
{
	struct kfdsig_finding f = { off, sev, rule, msg };

	fr->out->findings[sev]++;
	out_fmt(fr, fmt_finding, &f);
}

/* kfdsig_lint_amd_signal()'s findings, as the CLI's own. */
static int aql_signal_finding(void *ctx, const struct kfdsig_finding *f)
{
	cli_finding(ctx, f->offset, f->severity, f->rule, f->message);
	return 0;
}

/* --lint of an AQL packet's completion signal, read from a --mem image. */
static void lint_aql_signal(struct frame *fr, const struct kfdsig_packet *p, uint64_t off)
{
	struct dec_out *o = fr->out;
	struct kfdsig_amd_signal s;
	uint32_t lo, hi;
	uint64_t va, page = 0;
	char msg[160];

	if (!(o->o->flags & KFDSIG_DECODE_LINT) || p->opcode == KFDSIG_AQL_TYPE_INVALID ||
	    (p->flags & (KFDSIG_PACKET_TRUNCATED | KFDSIG_PACKET_UNKNOWN)) ||
	    kfdsig_packet_field(p, "completion_signal_lo", &lo) ||
	    kfdsig_packet_field(p, "completion_signal_hi", &hi))
		return;
	va = (uint64_t)hi << 32 | lo;
	if (!va)
		return;
	if (o->o->flags & KFDSIG_DECODE_SIGNAL_PAGE)
		page = o->o->signal_page_va;
	for (unsigned i = 0; i < o->nmem; i++) {
		const struct mem_image *m = &o->mem[i];

		if (va < m->va || va - m->va > m->ndw * 4ull ||
		    m->ndw * 4ull - (va - m->va) < sizeof(s))
			continue;
		memcpy(&s, (const uint8_t *)m->dw + (va - m->va), sizeof(s));
		kfdsig_lint_amd_signal(&s, va, page, off, aql_signal_finding, fr);
		return;
	}
	snprintf(msg, sizeof(msg), "completion signal 0x%llx is in no --mem image: not checked",
		 (unsigned long long)va);
	note(fr, off, "aql-signal-outside", msg);
}

/* The packet's line straight into the buffer: the path of every packet of
 * the stream itself (no IB prefix, no ring labels). */
static void out_line(struct dec_out *o, const struct kfdsig_packet *p)
{
	size_t room;
	int n;

	if (o->cap - o->len < OUT_ROOM)
		out_flush(o);
	room = o->cap - o->len;
	o->line_at = o->len;
	n = o->json ? kfdsig_format_packet_json_cached(cur_cache, p, o->fmt_flags, o->buf + o->len,
						       room)
		    : kfdsig_format_packet_text_cached(cur_cache, p, o->fmt_flags, o->buf + o->len,
						       room);
	if (n > 0 && (size_t)n < room)
		o->len += (size_t)n;
	else if (n > 0 && out_room(o, (size_t)n + 1)) {
		o->line_at = o->len;
		o->len += (size_t)fmt_packet(p, o->fmt_flags, o->buf + o->len, o->cap - o->len);
	}
}

static void out_packet(struct dec_out *o, const struct kfdsig_packet *p)
{
	if (o->json && cli_g.json_seq)
		out_str(o, "\x1e", 1);
	out_line(o, p);
}

/*
 * A run of @n equal packets of the stream itself (the decoder's run()):
 * the first formatted, the others its line with their offset labels
 * (kfdsig_format_relabel()); in an IB or a ring window, one at a time.
 */
/* The line of the last run's first packet: the next run of the same
 * packet (a ring's fillers after each fence) is relabelled whole. */
static struct {
	char line[1024];
	size_t len; /* 0: none */
	uint64_t offset;
	uint32_t dw[8], ndw;
	const char *name;
	const struct kfdsig_packet_desc *desc;
	enum kfdsig_engine engine;
} last_run;

static int on_run(void *ctx, const struct kfdsig_packet *p, uint64_t n)
{
	struct frame *fr = ctx;
	struct dec_out *o = fr->out;
	struct kfdsig_packet q = *p;
	uint64_t k = 0;

	if (!fr->plain) {
		for (k = 0; k < n; k++) {
			int r;

			q.offset = p->offset + k * p->ndw;
			q.dw = p->dw + k * p->ndw;
			r = on_packet(ctx, &q);
			if (r)
				return r;
		}
		return 0;
	}
	o->packets += n;
	o->dwords += n * p->avail;
	count_name(o, p->name ? p->name : "?", n);
	if (o->json && cli_g.json_seq) {
		last_run.len = 0; /* a record separator before each line */
	} else if (!(last_run.len && p->ndw == last_run.ndw && p->name == last_run.name &&
		     p->desc == last_run.desc && p->engine == last_run.engine &&
		     memcmp(p->dw, last_run.dw, p->ndw * 4) == 0)) {
		size_t len;

		out_packet(o, p);
		k = 1;
		len = o->len - o->line_at;
		last_run.len = 0;
		if (p->ndw <= 8 && len < sizeof(last_run.line)) {
			memcpy(last_run.line, o->buf + o->line_at, len);
			memcpy(last_run.dw, p->dw, p->ndw * 4);
			last_run.len = len;
			last_run.offset = p->offset;
			last_run.ndw = p->ndw;
			last_run.name = p->name;
			last_run.desc = p->desc;
			last_run.engine = p->engine;
		}
	}
	while (last_run.len && k < n && !o->failed) {
		uint64_t m = 0;
		long w;

		if (o->cap - o->len < OUT_ROOM)
			out_flush(o);
		w = kfdsig_format_relabel(last_run.line, last_run.len, last_run.offset,
					  p->offset + k * p->ndw, p->ndw, n - k, o->buf + o->len,
					  o->cap - o->len, &m);
		if (w < 0 || !m)
			break;
		o->len += (size_t)w;
		k += m;
	}
	for (; k < n && !o->failed; k++) { /* one at a time */
		q.offset = p->offset + k * p->ndw;
		q.dw = p->dw + k * p->ndw;
		out_packet(o, &q);
	}
	return o->failed ? -EIO : 0;
}

static int on_packet(void *ctx, const struct kfdsig_packet *p)
{
	struct frame *fr = ctx;
	struct dec_out *o = fr->out;
	struct kfdsig_packet q;

	if (fr->plain) {
		/* packets and their dwords apart from skipped ranges; a
		 * truncated packet: only what the input holds */
		if (!(p->flags & KFDSIG_PACKET_SKIPPED)) {
			o->packets++;
			o->dwords += p->avail;
			if (o->names[o->last].name == p->name && p->name)
				o->names[o->last].n++;
			else
				count_name(o, p->name ? p->name : "?", 1);
		} else {
			o->skipped++;
			o->skipped_dw += p->ndw;
			fr->skipped_at = p->offset;
			fr->skipped_dw = p->ndw;
		}
		out_packet(o, p);
		return o->failed ? -EIO : 0;
	}
	if (p->flags & KFDSIG_PACKET_SKIPPED) {
		o->skipped++;
		o->skipped_dw += p->ndw;
		fr->skipped_at = p->offset;
		fr->skipped_dw = p->ndw;
	} else {
		o->packets++;
		o->dwords += p->avail;
		count_name(o, p->name ? p->name : "?", 1);
	}
	if (fr->base || fr->ring_dw) {
		q = *p;
		q.offset = label(fr, p->offset);
		p = &q;
	}
	out_fmt(fr, fmt_packet, p);
	if (o->nmem)
		follow_ib(fr, p, p->offset);
	if (o->nmem && p->engine == KFDSIG_ENGINE_AQL)
		lint_aql_signal(fr, p, p->offset);
	return o->failed ? -EIO : 0;
}

static int on_finding(void *ctx, const struct kfdsig_finding *f)
{
	struct frame *fr = ctx;
	struct kfdsig_finding g = *f;
	char msg[256];

	if ((unsigned)f->severity < 3)
		fr->out->findings[f->severity]++;
	g.offset = label(fr, f->offset);
	/* The library's resync message quotes stream offsets; in a ring
	 * window say where the range is in the ring. */
	if ((fr->base || fr->ring_dw) && f->rule && !strcmp(f->rule, "resync") &&
	    fr->skipped_at == f->offset) {
		uint64_t last = label(fr, f->offset + fr->skipped_dw - 1);

		snprintf(msg, sizeof(msg),
			 "%llu dword(s) at ring dwords 0x%llx-0x%llx (bytes 0x%llx-0x%llx) do not "
			 "parse as packets: skipped; decoding resumes after them",
			 (unsigned long long)fr->skipped_dw, (unsigned long long)g.offset,
			 (unsigned long long)last, (unsigned long long)g.offset * 4,
			 (unsigned long long)last * 4 + 3);
		g.message = msg;
	}
	out_fmt(fr, fmt_finding, &g);
	return fr->out->failed ? -EIO : 0;
}

static void summary(struct dec_out *o, const char *window)
{
	char tmp[256];
	int n;

	if (o->json) {
		if (cli_g.json_seq)
			out_str(o, "\x1e", 1);
		n = snprintf(tmp, sizeof(tmp),
			     "{\"summary\": {\"packets\": %llu, \"dwords\": %llu, \"bytes\": %llu, "
			     "\"by_name\": {",
			     (unsigned long long)o->packets, (unsigned long long)o->dwords,
			     (unsigned long long)o->dwords * 4);
	} else {
		n = snprintf(tmp, sizeof(tmp), "summary: %llu packets, %llu dwords (%llu bytes)%s",
			     (unsigned long long)o->packets, (unsigned long long)o->dwords,
			     (unsigned long long)o->dwords * 4, window);
	}
	out_str(o, tmp, (size_t)n);
	for (unsigned i = 0; i < o->nnames; i++) {
		if (o->json)
			n = snprintf(tmp, sizeof(tmp), "%s\"%s\": %llu", i ? ", " : "",
				     o->names[i].name, (unsigned long long)o->names[i].n);
		else
			n = snprintf(tmp, sizeof(tmp), "%s%s %llu", i ? ", " : "; ",
				     o->names[i].name, (unsigned long long)o->names[i].n);
		out_str(o, tmp, (size_t)n);
	}
	if (o->other) {
		n = snprintf(tmp, sizeof(tmp), o->json ? ", \"other\": %llu" : ", other %llu",
			     (unsigned long long)o->other);
		out_str(o, tmp, (size_t)n);
	}
	if (o->json)
		n = snprintf(
			tmp, sizeof(tmp),
			"}, \"findings\": {\"error\": %llu, \"warning\": %llu, \"info\": %llu}, "
			"\"skipped_ranges\": %llu, \"skipped_dwords\": %llu}}\n",
			(unsigned long long)o->findings[2], (unsigned long long)o->findings[1],
			(unsigned long long)o->findings[0], (unsigned long long)o->skipped,
			(unsigned long long)o->skipped_dw);
	else
		n = snprintf(tmp, sizeof(tmp),
			     "; findings: %llu error, %llu warning, %llu info; skipped: %llu "
			     "range(s), %llu dwords\n",
			     (unsigned long long)o->findings[2], (unsigned long long)o->findings[1],
			     (unsigned long long)o->findings[0], (unsigned long long)o->skipped,
			     (unsigned long long)o->skipped_dw);
	out_str(o, tmp, (size_t)n);
}

/* Dwords collected in memory (ring windows need random access). */
struct collect {
	uint32_t *dw;
	size_t n, cap;
	bool nomem;
};

static int collect_fn(void *ctx, const uint32_t *dw, size_t n)
{
	struct collect *c = ctx;

	if (c->n + n > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 65536;
		uint32_t *p;

		while (cap < c->n + n)
			cap *= 2;
		p = realloc(c->dw, cap * sizeof(*p));
		if (!p) {
			c->nomem = true;
			return EXIT_FAILURE;
		}
		c->dw = p;
		c->cap = cap;
	}
	memcpy(c->dw + c->n, dw, n * sizeof(*dw));
	c->n += n;
	return 0;
}

static int feed_fn(void *ctx, const uint32_t *dw, size_t n)
{
	return kfdsig_decoder_feed(ctx, dw, n) ? EXIT_FAILURE : 0;
}

/* Read a --mem image: ADDR=FILE, a binary file of whole dwords. */
static int load_mem(struct dec_out *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct mem_image *m;
	char addr[64];
	FILE *f;
	long size;

	if (o->nmem == MAX_MEM)
		return cli_usage_error("--mem: at most %d images", MAX_MEM);
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(addr))
		return cli_usage_error("--mem: '%s' is not ADDR=FILE", arg);
	memcpy(addr, arg, (size_t)(eq - arg));
	addr[eq - arg] = '\0';
	m = &o->mem[o->nmem];
	if (!cli_parse_u64("--mem address", addr, UINT64_MAX, &m->va))
		return EXIT_USAGE;
	if (m->va & 3)
		return cli_usage_error("--mem: address 0x%llx is not dword-aligned",
				       (unsigned long long)m->va);
	f = fopen(eq + 1, "rb");
	if (!f)
		return cli_usage_error("--mem: cannot open '%s': %s", eq + 1, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return cli_usage_error("--mem: '%s' is not a regular file", eq + 1);
	}
	if (size % 4 || size == 0) {
		fclose(f);
		return cli_usage_error("--mem: '%s' is %ld bytes, not whole dwords", eq + 1, size);
	}
	m->ndw = (size_t)size / 4;
	m->dw = malloc((size_t)size);
	if (!m->dw || fread(m->dw, 4, m->ndw, f) != m->ndw) {
		fclose(f);
		free(m->dw);
		return cli_error("--mem: cannot read '%s'", eq + 1);
	}
	fclose(f);
	/* Host order from little-endian bytes. */
	for (size_t i = 0; i < m->ndw; i++) {
		const unsigned char *b = (const unsigned char *)&m->dw[i];

		m->dw[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			   (uint32_t)b[3] << 24;
	}
	o->nmem++;
	return 0;
}

/* A ring pointer in dwords from --rptr/--wptr and --units. */
static bool ring_ptr(const char *what, const char *s, int units, uint64_t *v)
{
	if (!cli_parse_u64(what, s, UINT64_MAX, v))
		return false;
	if (units == 1) {
		if (*v & 3) {
			cli_usage_error("%s: %s bytes is not a whole dword", what, s);
			return false;
		}
		*v /= 4;
	}
	return true;
}

enum {
	OPT_SIGNAL_PAGE = 256,
	OPT_RPTR,
	OPT_WPTR,
	OPT_UNITS,
	OPT_MEM,
	OPT_DEPTH,
	OPT_RING,
	OPT_WHOLE,
	OPT_NOSUM,
	OPT_NUM_XCC,
	OPT_USERQ,
	OPT_RING_POS,
	OPT_MEC_FW
};

const struct option cmd_decode_options[] = {
	{ "target", required_argument, NULL, 't' },
	{ "engine", required_argument, NULL, 'E' },
	{ "format", required_argument, NULL, 'f' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "lint", no_argument, NULL, 'l' },
	{ "signal-page", required_argument, NULL, OPT_SIGNAL_PAGE },
	{ "input", required_argument, NULL, 'i' },
	{ "input-format", required_argument, NULL, 'i' },
	{ "rptr", required_argument, NULL, OPT_RPTR },
	{ "wptr", required_argument, NULL, OPT_WPTR },
	{ "units", required_argument, NULL, OPT_UNITS },
	{ "mem", required_argument, NULL, OPT_MEM },
	{ "ib-depth", required_argument, NULL, OPT_DEPTH },
	{ "ring", required_argument, NULL, OPT_RING },
	{ "whole-ring", no_argument, NULL, OPT_WHOLE },
	{ "no-summary", no_argument, NULL, OPT_NOSUM },
	{ "num-xcc", required_argument, NULL, OPT_NUM_XCC },
	{ "userq", no_argument, NULL, OPT_USERQ },
	{ "ring-pos", required_argument, NULL, OPT_RING_POS },
	{ "mec-fw", required_argument, NULL, OPT_MEC_FW },
	{ "output", required_argument, NULL, 'o' },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_decode_shortopts[] = "t:E:f:vli:o:" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_decode_complete[] = {
	{ "target", "@target" },
	{ "engine", "pm4 sdma aql" },
	{ "format", "text json" },
	{ "input", "auto bin hex xxd xxd-e hexdump od umr debugfs devcoredump" },
	{ "input-format", "auto bin hex xxd xxd-e hexdump od umr debugfs devcoredump" },
	{ "units", "bytes dwords" },
	{ "mem", "@file" },
	{ "output", "@file" },
	{ "", "@file" },
	{ 0 },
};

/* What the command line asked for: decode_parse() fills it,
 * decode_validate() checks it, decode_run() does it. */
struct decode_args {
	struct dec_out out;		   /* formatter settings, --mem images */
	const char *mem_args[MAX_MEM + 1]; /* --mem ADDR=FILE, read by decode_run() */
	unsigned nmem_args;
	struct kfdsig_decode_opts o;
	int kind; /* enum kfdsig_decode_input_format */
	const char *target, *path, *rptr_s, *wptr_s, *ring_name;
	const char *output; /* -o FILE, else NULL: standard output */
	int units;	    /* 1 bytes, 2 dwords */
	bool whole, nosum;
	uint64_t rptr, wptr; /* dwords, from --rptr/--wptr */
};

/* The options into @a; return 0, or the exit code (-h: help printed, 0)
 * with *@done set. */
static int decode_parse(int argc, char **argv, struct decode_args *a, bool *done)
{
	uint64_t v;
	int c;

	*done = true;
	while ((c = cli_getopt(argc, argv, cmd_decode_shortopts, cmd_decode_options)) != -1) {
		switch (c) {
		case 't':
			a->target = optarg;
			break;
		case 'E':
			if (!strcmp(optarg, "pm4"))
				a->o.engine = KFDSIG_ENGINE_PM4;
			else if (!strcmp(optarg, "sdma"))
				a->o.engine = KFDSIG_ENGINE_SDMA;
			else if (!strcmp(optarg, "aql"))
				a->o.engine = KFDSIG_ENGINE_AQL;
			else
				return cli_usage_error(
					"--engine: '%s' is not one of pm4, sdma, aql", optarg);
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				cli_g.json = false;
			else if (!strcmp(optarg, "json"))
				cli_g.json = true;
			else
				return cli_usage_error("--format: '%s' is not one of text, json",
						       optarg);
			break;
		case 'v':
			a->out.fmt_flags |= KFDSIG_FORMAT_RAW;
			break;
		case 'l':
			a->o.flags |= KFDSIG_DECODE_LINT;
			break;
		case OPT_SIGNAL_PAGE:
			if (!cli_parse_u64("--signal-page", optarg, UINT64_MAX,
					   &a->o.signal_page_va))
				return EXIT_USAGE;
			a->o.flags |= KFDSIG_DECODE_SIGNAL_PAGE;
			break;
		case OPT_NUM_XCC:
			if (!cli_parse_u64("--num-xcc", optarg, 16, &v))
				return EXIT_USAGE;
			if (!v)
				return cli_usage_error("--num-xcc: 1 to 16");
			a->o.num_xcc = (uint32_t)v;
			break;
		case 'i':
			a->kind = kfdsig_decode_input_format_by_name(optarg);
			if (a->kind < 0)
				return cli_usage_error(
					"--input-format: '%s' is not one of auto, bin, "
					"hex, xxd, xxd-e, hexdump, od, umr, debugfs, "
					"devcoredump",
					optarg);
			break;
		case OPT_RPTR:
			a->rptr_s = optarg;
			break;
		case OPT_WPTR:
			a->wptr_s = optarg;
			break;
		case OPT_UNITS:
			if (!strcmp(optarg, "bytes"))
				a->units = 1;
			else if (!strcmp(optarg, "dwords"))
				a->units = 2;
			else
				return cli_usage_error("--units: '%s' is not one of bytes, dwords",
						       optarg);
			break;
		case OPT_MEM:
			if (a->nmem_args == MAX_MEM + 1)
				return cli_usage_error("--mem: at most %d images", MAX_MEM);
			a->mem_args[a->nmem_args++] = optarg;
			break;
		case OPT_DEPTH:
			if (!cli_parse_u64("--ib-depth", optarg, 15, &v))
				return EXIT_USAGE;
			a->out.max_depth = (unsigned)v;
			break;
		case OPT_RING:
			a->ring_name = optarg;
			break;
		case OPT_WHOLE:
			a->whole = true;
			break;
		case OPT_NOSUM:
			a->nosum = true;
			break;
		case OPT_USERQ:
			a->o.flags |= KFDSIG_DECODE_USERQ;
			break;
		case OPT_RING_POS:
			if (!cli_parse_u64("--ring-pos", optarg, UINT64_MAX, &a->o.ring_pos))
				return EXIT_USAGE;
			a->o.flags |= KFDSIG_DECODE_RING_POS;
			break;
		case OPT_MEC_FW:
			if (!cli_parse_range("--mec-fw", optarg, 1, UINT32_MAX, &v))
				return EXIT_USAGE;
			a->o.mec_fw = (uint32_t)v;
			break;
		case 'o':
			a->output = optarg;
			break;
		default:
			return cli_opt_default(c, help);
		}
	}
	*done = false;
	return 0;
}

/* The checks that need every option. */
static int decode_validate(int argc, char **argv, struct decode_args *a)
{
	if (!a->target)
		return cli_usage_error("--target is required (kfdsig targets lists them)");
	if (optind >= argc)
		return cli_usage_error("give the stream to decode: a FILE, or - for stdin");
	if (optind + 1 < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind + 1]);
	if ((a->o.flags & KFDSIG_DECODE_SIGNAL_PAGE) && !(a->o.flags & KFDSIG_DECODE_LINT))
		return cli_usage_error("--signal-page only matters with --lint");
	if ((a->o.flags & KFDSIG_DECODE_USERQ) && a->o.engine != KFDSIG_ENGINE_PM4)
		return cli_usage_error("--userq is for PM4 rings (-E pm4)");
	if ((a->o.flags & KFDSIG_DECODE_RING_POS) &&
	    (a->o.flags & (KFDSIG_DECODE_USERQ | KFDSIG_DECODE_LINT)) !=
		    (KFDSIG_DECODE_USERQ | KFDSIG_DECODE_LINT))
		return cli_usage_error("--ring-pos only matters with --userq --lint");
	if (a->o.mec_fw && (a->o.flags & (KFDSIG_DECODE_USERQ | KFDSIG_DECODE_LINT)) !=
				   (KFDSIG_DECODE_USERQ | KFDSIG_DECODE_LINT))
		return cli_usage_error("--mec-fw only matters with --userq --lint");
	if (!a->rptr_s != !a->wptr_s)
		return cli_usage_error("--rptr and --wptr go together");
	if (a->rptr_s && !a->units)
		return cli_usage_error("--rptr/--wptr need --units bytes or --units dwords");
	if (a->rptr_s && (!ring_ptr("--rptr", a->rptr_s, a->units, &a->rptr) ||
			  !ring_ptr("--wptr", a->wptr_s, a->units, &a->wptr)))
		return EXIT_USAGE;
	if (!(a->o.target = cli_target(a->target)))
		return EXIT_USAGE;
	a->path = argv[optind];
	/* -o: the file becomes standard output, before cli_json() puts a
	 * --pretty filter on it; write errors surface as on stdout. */
	if (a->output && strcmp(a->output, "-")) {
		int fd = open(a->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

		if (fd < 0)
			return cli_error("cannot open '%s' for writing: %s", a->output,
					 strerror(errno));
		fflush(stdout);
		if (dup2(fd, STDOUT_FILENO) < 0) {
			int e = errno;
			close(fd);
			return cli_error("cannot write to '%s': %s", a->output, strerror(e));
		}
		close(fd);
	}
	a->out.json = cli_json();
	a->out.f = stdout; /* with --pretty, the filter cli_json() put there */
	return 0;
}

/* Open the input; return 0, or the exit code after the message. */
static int decode_open(const char *path, FILE **inp)
{
	struct stat sb;
	FILE *in = NULL;

	if (!strcmp(path, "-")) {
		in = stdin;
	} else if (!(in = fopen(path, "rb"))) {
		return cli_usage_error("cannot open '%s': %s", path, strerror(errno));
	}
	/* fopen() takes a directory; reading it then fails. Say so up front:
	 * an unreadable input is a usage error (exit 2), not an I/O failure. */
	if (!fstat(fileno(in), &sb) && S_ISDIR(sb.st_mode)) {
		if (in != stdin)
			fclose(in);
		return cli_usage_error("cannot read '%s': it is a directory", path);
	}
	*inp = in;
	return 0;
}

/* The exit code of a failed kfdsig_decode_input_parse() (positive: a sink's). */
static int input_error(int r)
{
	if (r > 0)
		return r;
	if (r == -EIO)
		return cli_error("%s", kfdsig_last_error());
	if (r == -ENOMEM)
		return cli_error("out of memory");
	return cli_usage_error("%s", kfdsig_last_error());
}

static int decode_run(struct decode_args *a)
{
	struct dec_out *out = &a->out;
	struct kfdsig_decode_opts *o = &a->o;
	struct frame top = { out, 0, 0, 0, 0, 0, 0, false };
	KFDSIG_OPTS(kfdsig_decode_sink, sink, .ctx = &top, .packet = on_packet,
		    .finding = on_finding, .run = on_run);
	KFDSIG_OPTS(kfdsig_decode_input_opts, io, .ring_name = a->ring_name);
	struct kfdsig_decode_stats st = { 0 };
	struct collect col = { 0 };
	char bad_end[256] = "";
	struct kfdsig_decode_input_ring ring;
	const char *path = a->path;
	unsigned char head[4096];
	bool whole = a->whole, window = false;
	uint64_t rptr = a->rptr, wptr = a->wptr;
	char wdesc[128] = "";
	struct kfdsig_decoder *d = NULL;
	int kind = a->kind;
	size_t nhead;
	FILE *in = NULL;
	int ret;

	out->o = o;
	cur_json = out->json;
	ret = decode_open(path, &in);
	if (ret)
		return ret;
	nhead = fread(head, 1, sizeof(head), in);
	/* The --mem images are read once the input has begun to arrive: the
	 * program writing them may be the one writing the input, and writes
	 * them first (emit --signal-out | decode --mem ...=FILE -). */
	for (unsigned i = 0; i < a->nmem_args; i++) {
		ret = load_mem(out, a->mem_args[i]);
		if (ret) {
			if (in != stdin)
				fclose(in);
			return ret;
		}
	}
	if (kind == KFDSIG_DECODE_INPUT_AUTO)
		kind = kfdsig_decode_input_detect(head, nhead, in == stdin ? NULL : path);
	out->cap = OUT_CAP;
	out->buf = malloc(out->cap);
	cur_cache = kfdsig_format_cache_new(); /* NULL: formatted without it */
	window =
		a->rptr_s || kind == KFDSIG_DECODE_INPUT_UMR ||
		((kind == KFDSIG_DECODE_INPUT_DEBUGFS || kind == KFDSIG_DECODE_INPUT_DEVCOREDUMP) &&
		 !whole);
	if (out->buf && !window)
		d = kfdsig_decoder_new(o, &sink);
	if (!out->buf || (!window && !d)) {
		ret = cli_error("%s", out->buf ? kfdsig_last_error() : "out of memory");
		goto done;
	}
	top.plain = !out->nmem; /* until a ring window sets labels */
	io.format = (uint32_t)kind;
	if (window) {
		io.ctx = &col;
		io.dwords = collect_fn;
	} else {
		io.ctx = d;
		io.dwords = feed_fn;
	}
	ret = kfdsig_decode_input_parse(in, head, nhead, &io, &ring);
	if (col.nomem) {
		ret = cli_error("out of memory");
	} else if (ret < 0 && ret != -EIO && ret != -ENOMEM && !window) {
		/* A bad end (stray bytes): the packets before it were decoded;
		 * finish them and print the summary line, then refuse. */
		snprintf(bad_end, sizeof(bad_end), "%s", kfdsig_last_error());
		ret = 0;
	} else if (ret) {
		ret = input_error(ret);
	}
	if (ret)
		goto done;
	if (window) {
		if (kind == KFDSIG_DECODE_INPUT_UMR && !a->rptr_s) {
			/* UMR lists a part of the ring: decode it all, labelled
			 * with UMR's ring indexes. */
			whole = true;
		} else if (!a->rptr_s && (ring.flags & KFDSIG_DECODE_INPUT_RING_PTRS)) {
			rptr = ring.rptr;
			wptr = ring.wptr;
		} else if (!a->rptr_s) {
			wptr = rptr = 0; /* no pointers: the whole ring */
			whole = true;
		}
		if (!col.n) {
			ret = cli_usage_error("the ring holds no dwords: nothing to decode");
			goto done;
		}
		if (a->rptr_s && (rptr >= col.n || wptr >= col.n)) {
			/* A pointer counted past the ring's end (an unmasked
			 * write pointer) means a place in the ring only when
			 * the ring's size is a power of two, as amdgpu's are. */
			if (col.n & (col.n - 1)) {
				ret = cli_usage_error("--rptr/--wptr: %s beyond the %zu dword(s) "
						      "of the ring",
						      rptr >= col.n ? a->rptr_s : a->wptr_s, col.n);
				goto done;
			}
			cli_note("--rptr/--wptr beyond the ring's %zu dwords: taken modulo "
				 "its size (rptr 0x%llx, wptr 0x%llx)",
				 col.n, (unsigned long long)(rptr % col.n),
				 (unsigned long long)(wptr % col.n));
		}
		rptr %= col.n;
		wptr %= col.n;
		top.ring_dw = (ring.flags & KFDSIG_DECODE_INPUT_RING_INDEXED) ? 0 : col.n;
		top.base =
			whole ? ((ring.flags & KFDSIG_DECODE_INPUT_RING_INDEXED) ? ring.first_index
										 : 0)
			      : rptr;
		top.plain = !out->nmem && !top.ring_dw && !top.base;
		if (!whole)
			snprintf(wdesc, sizeof(wdesc), "; ring window dw 0x%llx..0x%llx of 0x%zx",
				 (unsigned long long)rptr, (unsigned long long)wptr, col.n);
		d = kfdsig_decoder_new(o, &sink);
		if (!d) {
			ret = cli_error("%s", kfdsig_last_error());
			goto done;
		}
		if (whole) {
			kfdsig_decoder_feed(d, col.dw, col.n);
		} else if (rptr <= wptr) {
			kfdsig_decoder_feed(d, col.dw + rptr, wptr - rptr);
		} else {
			kfdsig_decoder_feed(d, col.dw + rptr, col.n - rptr);
			kfdsig_decoder_feed(d, col.dw, wptr);
		}
	}
	kfdsig_decoder_finish(d, &st);
	if (out->failed) {
		ret = EXIT_FAILURE;
		goto done;
	}
	/* Nothing to decode is almost always the wrong file or a failed
	 * producer upstream of a pipe: say so rather than succeed silently
	 * (an empty ring window is a state, not an error). */
	if (!out->packets && !out->skipped && bad_end[0]) {
		out->len = 0;
		ret = cli_usage_error("%s", bad_end);
		goto done;
	}
	if (!out->packets && !out->skipped && !(window && !whole)) {
		out->len = 0;
		ret = cli_usage_error("%s%s%s holds no dwords: nothing to decode",
				      in == stdin ? "" : "'", in == stdin ? "standard input" : path,
				      in == stdin ? "" : "'");
		goto done;
	}
	if (!a->nosum)
		summary(out, wdesc);
	ret = out->findings[KFDSIG_SEV_ERROR] ? EXIT_FAILURE : 0;
	if (bad_end[0]) {
		out_flush(out);
		ret = cli_usage_error("%s", bad_end);
	}
done:
	out_flush(out);
	kfdsig_decoder_free(d);
	if (in != stdin)
		fclose(in);
	free(out->buf);
	kfdsig_format_cache_free(cur_cache);
	cur_cache = NULL;
	free(col.dw);
	if (out->failed || fflush(stdout) == EOF)
		return cli_error("write error: %s", strerror(out->failed && out->err ? out->err
							     : errno		     ? errno
										     : EIO));
	return ret;
}

int cmd_decode(int argc, char **argv)
{
	static struct decode_args a;
	bool done;
	int ret;

	memset(&a, 0, sizeof(a));
	a.o.sz = sizeof(a.o);
	a.out.f = stdout;
	a.out.max_depth = 4;
	ret = decode_parse(argc, argv, &a, &done);
	if (!done)
		ret = decode_validate(argc, argv, &a);
	if (!done && !ret)
		ret = decode_run(&a);
	for (unsigned i = 0; i < a.out.nmem; i++)
		free(a.out.mem[i].dw);
	return ret;
}
