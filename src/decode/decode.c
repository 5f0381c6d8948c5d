/* SPDX-License-Identifier: MIT */
/*
 * The decoder core: one walk over a span of dwords, packet by packet,
 * shared by the one-shot kfdsig_decode() and the streaming decoder. The
 * engine parts (decode_pm4.c, decode_sdma.c) only ever see a packet through
 * a length-checked view: they are told how many dwords they may read and
 * say how long the packet is; the walk never steps past the data it has and
 * restarts on the next header after every packet. The helpers the engine
 * parts call back (findings, skipped runs) are in decode_util.c, so calls
 * run one way: decode.c -> engines -> decode_util.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/opts.h"
#include "decode/decode_internal.h"
#include "decode/lint_fast.h"

int kfdsig_packet_field(const struct kfdsig_packet *p, const char *name, uint32_t *v)
{
	if (!p || !name || !v)
		return -EINVAL;
	for (unsigned i = 0; p->desc && i < p->desc->nfields; i++) {
		const struct kfdsig_field *f = &p->desc->fields[i];

		if (strcmp(f->name, name))
			continue;
		if (f->dw >= p->avail)
			return -ENODATA;
		*v = kfdsig_field_get(f, p->dw);
		return 0;
	}
	return -ENOENT;
}

static void deliver(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	d->st.packets++;
	/* a skipped run longer than one piece keeps only its first piece */
	d->st.dwords += p->flags & KFDSIG_PACKET_SKIPPED ? p->ndw : p->avail;
	if (d->s.packet) {
		int r = d->s.packet(d->s.ctx, p);

		if (r) {
			d->stopped = r;
			return;
		}
	}
	if (p->flags & KFDSIG_PACKET_SKIPPED) {
		/* Never TRUNCATED: a run ends where the data ends. */
		add_finding(d, p->offset, KFDSIG_SEV_WARNING, "resync",
			    "%u dword(s) at dwords 0x%llx-0x%llx (bytes 0x%llx-0x%llx) do not "
			    "parse as %s packets (first 0x%08x): skipped; decoding resumes "
			    "at dword 0x%llx",
			    p->ndw, (unsigned long long)p->offset,
			    (unsigned long long)(p->offset + p->ndw - 1),
			    (unsigned long long)p->offset * 4,
			    (unsigned long long)(p->offset + p->ndw) * 4 - 1,
			    p->engine == KFDSIG_ENGINE_PM4    ? "PM4"
			    : p->engine == KFDSIG_ENGINE_SDMA ? "SDMA"
							      : "AQL",
			    p->opcode, (unsigned long long)(p->offset + p->ndw));
		return;
	}
	if (p->flags & KFDSIG_PACKET_TRUNCATED)
		add_finding(d, p->offset, KFDSIG_SEV_ERROR, "truncated",
			    "%s: the stream ends after %u of its %u dwords", p->name, p->avail,
			    p->ndw);
	if (p->flags & KFDSIG_PACKET_PARTIAL)
		add_finding(d, p->offset, KFDSIG_SEV_INFO, "partial",
			    "%s: %u dwords, longer than the %u-dword streaming window: only the "
			    "first %u are decoded",
			    p->name, p->ndw, KFDSIG_DECODE_WINDOW_DW, p->avail);
	if (d->o.engine == KFDSIG_ENGINE_PM4)
		pm4_check(d, p);
	else if (d->o.engine == KFDSIG_ENGINE_SDMA)
		sdma_check(d, p);
	else
		aql_check(d, p);
	if (d->o.flags & KFDSIG_DECODE_LINT)
		lint_packet(d, p);
}

static uint32_t identify(struct kfdsig_decoder *d, const uint32_t *dw, size_t avail, bool final,
			 struct kfdsig_packet *p)
{
	if (d->o.engine == KFDSIG_ENGINE_PM4)
		return pm4_identify(d, dw, avail, final, p);
	if (d->o.engine == KFDSIG_ENGINE_SDMA)
		return sdma_identify(d, dw, avail, final, p);
	return aql_identify(d, dw, avail, final, p);
}

/*
 * Decode the packets of dw[0..n) (stream offset @base). Without @final,
 * stop before a packet that is not complete and return the dwords used;
 * with it, report that packet as truncated and use everything.
 */
/* How many copies of the @len dwords at @p follow at dw[@pos..@n). */
static inline uint64_t run_length(const uint32_t *dw, size_t pos, size_t n, const uint32_t *p,
				  uint32_t len)
{
	size_t at = pos;

	/* most packets are followed by another kind: two dwords tell */
	if (at >= n || dw[at] != p[0] || (len > 1 && n - at > 1 && dw[at + 1] != p[1]))
		return 0;
	if (len == 1) {
		while (at < n && dw[at] == p[0])
			at++;
		return at - pos;
	}
	while (len <= n - at && memcmp(dw + at, p, (size_t)len * 4) == 0)
		at += len;
	return (at - pos) / len;
}

/* Report the skipped run held in d->run, if any. */
static void flush_run(struct kfdsig_decoder *d)
{
	struct kfdsig_packet p = d->run;

	if (!p.ndw)
		return;
	d->run.ndw = 0;
	p.dw = d->run_dw;
	deliver(d, &p);
}

/*
 * A SKIPPED piece @p: a piece of the full DECODE_UNKNOWN_RUN_MAX length
 * found no header and may go on in the next one, so it is held in d->run
 * and the run is reported once, as one packet, when it ends.
 */
static void skipped_piece(struct kfdsig_decoder *d, const struct kfdsig_packet *p)
{
	if (d->run.ndw && (d->run.offset + d->run.ndw != p->offset ||
			   d->run.ndw > UINT32_MAX - DECODE_UNKNOWN_RUN_MAX))
		flush_run(d);
	if (!d->run.ndw) {
		d->run = *p;
		memcpy(d->run_dw, p->dw, (size_t)p->avail * sizeof(*p->dw));
	} else {
		d->run.ndw += p->ndw;
	}
	if (p->ndw < DECODE_UNKNOWN_RUN_MAX)
		flush_run(d);
}

static size_t walk(struct kfdsig_decoder *d, const uint32_t *dw, size_t n, uint64_t base,
		   bool final)
{
	size_t pos = 0;

	while (pos < n && !d->stopped) {
		struct kfdsig_packet p;
		size_t left = n - pos;
		uint32_t len;

		if (d->o.engine != KFDSIG_ENGINE_AQL) {
			const struct pm4_hdr *e = &d->hdr[pm4_hdr_slot(dw[pos])];

			/* A header seen before: what identify() said then, and
			 * deliver() without the checks that find nothing. */
			if (e->len && e->h == dw[pos] && e->len <= left) {
				flush_run(d);
				p.offset = base + pos;
				p.ndw = p.avail = e->len;
				p.dw = dw + pos;
				p.desc = e->desc;
				p.name = e->name;
				p.opcode = e->opcode;
				p.sub_op = e->sub_op;
				p.flags = e->flags;
				p.engine = d->o.engine;
				pos += e->len;
				if (!e->quiet) {
					deliver(d, &p);
					continue;
				}
				d->st.packets++;
				d->st.dwords += p.avail;
				/* equal packets in a row that no rule looks at: one
				 * run() call for all of them */
				if (d->s.run && !((d->o.flags & KFDSIG_DECODE_LINT) && e->lint)) {
					uint64_t k = run_length(dw, pos, n, p.dw, e->len);

					if (k) {
						int r;

						pos += k * e->len;
						d->st.packets += k;
						d->st.dwords += k * e->len;
						r = d->s.run(d->s.ctx, &p, k + 1);
						if (r) {
							d->stopped = r;
							break;
						}
						continue;
					}
				}
				if (d->s.packet) {
					int r = d->s.packet(d->s.ctx, &p);

					if (r) {
						d->stopped = r;
						break;
					}
				}
				if (!(d->o.flags & KFDSIG_DECODE_LINT) || !e->lint)
					continue;
				if (d->o.engine == KFDSIG_ENGINE_SDMA)
					lint_packet(d, &p);
				else if (!lint_clean_fence(d, &p))
					lint_pm4_rules(d, &p);
				continue;
			}
		}
		memset(&p, 0, sizeof(p));
		p.engine = d->o.engine;
		p.offset = base + pos;
		p.dw = dw + pos;
		len = identify(d, dw + pos, left, final, &p);
		if (len == 0 || len > left) {
			if (!final)
				break;
			p.ndw = len ? len : (uint32_t)left;
			p.avail = (uint32_t)left;
			p.flags |= KFDSIG_PACKET_TRUNCATED;
			flush_run(d);
			deliver(d, &p);
			return n;
		}
		p.ndw = p.avail = len;
		pos += len;
		if (p.flags & KFDSIG_PACKET_SKIPPED) {
			skipped_piece(d, &p);
			continue;
		}
		flush_run(d);
		deliver(d, &p);
	}
	if (final && !d->stopped)
		flush_run(d);
	return pos;
}

#define DECODE_FLAGS                                                            \
	(KFDSIG_DECODE_LINT | KFDSIG_DECODE_SIGNAL_PAGE | KFDSIG_DECODE_USERQ | \
	 KFDSIG_DECODE_RING_POS)

/* The caller's options and sink as this library's structs (core/opts.h),
 * checked. */
static int read_args(const struct kfdsig_decode_opts *user_o,
		     const struct kfdsig_decode_sink *user_s, struct kfdsig_decode_opts *o,
		     struct kfdsig_decode_sink *s)
{
	int r;

	if (!user_o)
		return set_error(EINVAL, "no decode options");
	r = opts_copy(o, sizeof(*o), user_o, "kfdsig_decode_opts");
	if (!r)
		r = opts_copy(s, sizeof(*s), user_s, "kfdsig_decode_sink");
	if (r)
		return r;
	if (!o->target)
		return set_error(EINVAL, "no target in the decode options");
	if (o->engine != KFDSIG_ENGINE_PM4 && o->engine != KFDSIG_ENGINE_SDMA &&
	    o->engine != KFDSIG_ENGINE_AQL)
		return set_error(EINVAL, "unknown engine %d", (int)o->engine);
	if (o->pad_0 || o->pad_1)
		return set_error(EINVAL, "kfdsig_decode_opts.pad_0 and pad_1 must be 0");
	if (o->flags & ~DECODE_FLAGS)
		return set_error(EINVAL, "unknown decode flags 0x%x", o->flags & ~DECODE_FLAGS);
	if ((o->flags & (KFDSIG_DECODE_USERQ | KFDSIG_DECODE_RING_POS)) &&
	    o->engine != KFDSIG_ENGINE_PM4)
		return set_error(EINVAL, "the user-queue decode options are for PM4 rings");
	return 0;
}

static void init(struct kfdsig_decoder *d, const struct kfdsig_decode_opts *o,
		 const struct kfdsig_decode_sink *s)
{
	memset(d, 0, sizeof(*d));
	d->o = *o;
	d->s = *s;
	d->lint.num_xcc = o->num_xcc ? o->num_xcc : o->target->max_xcc;
}

static long result(const struct kfdsig_decoder *d, struct kfdsig_decode_stats *st)
{
	if (st)
		*st = d->st;
	if (d->stopped)
		return d->stopped;
	return (long)d->st.findings[KFDSIG_SEV_ERROR];
}

long kfdsig_decode(const struct kfdsig_decode_opts *o, const struct kfdsig_decode_sink *s,
		   const uint32_t *dw, size_t n, struct kfdsig_decode_stats *st)
{
	struct kfdsig_decode_opts oc;
	struct kfdsig_decode_sink sc;
	struct kfdsig_decoder d;
	int ret = read_args(o, s, &oc, &sc);

	if (ret)
		return ret;
	if (!dw && n)
		return set_error(EINVAL, "no dwords");
	init(&d, &oc, &sc);
	if (n)
		walk(&d, dw, n, 0, true);
	if ((d.o.flags & KFDSIG_DECODE_LINT) && !d.stopped)
		lint_finish(&d);
	return result(&d, st);
}

long kfdsig_lint(const struct kfdsig_decode_opts *o, const struct kfdsig_decode_sink *s,
		 const uint32_t *dw, size_t n, struct kfdsig_decode_stats *st)
{
	struct kfdsig_decode_opts lo;
	struct kfdsig_decode_sink sc;
	int ret = read_args(o, s, &lo, &sc);

	if (ret)
		return ret;
	lo.flags |= KFDSIG_DECODE_LINT;
	return kfdsig_decode(&lo, s, dw, n, st);
}

struct kfdsig_decoder *kfdsig_decoder_new(const struct kfdsig_decode_opts *o,
					  const struct kfdsig_decode_sink *s)
{
	struct kfdsig_decode_opts oc;
	struct kfdsig_decode_sink sc;
	struct kfdsig_decoder *d;

	if (read_args(o, s, &oc, &sc)) {
		errno = EINVAL;
		return NULL;
	}
	d = malloc(sizeof(*d));
	if (!d) {
		set_error(ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	init(d, &oc, &sc);
	d->win = malloc(KFDSIG_DECODE_WINDOW_DW * sizeof(uint32_t));
	if (!d->win) {
		free(d);
		set_error(ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	return d;
}

/* The window is full and holds the start of one packet longer than it:
 * decode what is there, then drop the rest of that packet as it comes. */
static void deliver_partial(struct kfdsig_decoder *d)
{
	struct kfdsig_packet p = { 0 };
	uint32_t len;

	p.engine = d->o.engine;
	p.offset = d->wbase;
	p.dw = d->win;
	len = identify(d, d->win, d->wlen, true, &p);
	if (len <= d->wlen) /* cannot happen: walk() would have used it */
		len = (uint32_t)d->wlen;
	p.ndw = len;
	p.avail = (uint32_t)d->wlen;
	p.flags |= KFDSIG_PACKET_PARTIAL;
	flush_run(d);
	deliver(d, &p);
	d->skip = len - d->wlen;
	d->st.dwords += d->skip;
	d->wbase += d->wlen;
	d->wlen = 0;
}

int kfdsig_decoder_feed(struct kfdsig_decoder *d, const uint32_t *dw, size_t n)
{
	if (!d || (!dw && n))
		return set_error(EINVAL, "no decoder or no dwords");
	while (n && !d->stopped) {
		size_t k, used;

		if (d->skip) {
			k = d->skip < n ? (size_t)d->skip : n;
			d->skip -= k;
			d->wbase += k;
			dw += k;
			n -= k;
			continue;
		}
		k = KFDSIG_DECODE_WINDOW_DW - d->wlen;
		if (k > n)
			k = n;
		memcpy(d->win + d->wlen, dw, k * sizeof(*dw));
		d->wlen += k;
		dw += k;
		n -= k;
		used = walk(d, d->win, d->wlen, d->wbase, false);
		if (used == 0 && d->wlen == KFDSIG_DECODE_WINDOW_DW) {
			deliver_partial(d);
			continue;
		}
		if (used < d->wlen)
			memmove(d->win, d->win + used, (d->wlen - used) * sizeof(*d->win));
		d->wlen -= used;
		d->wbase += used;
	}
	return d->stopped;
}

long kfdsig_decoder_finish(struct kfdsig_decoder *d, struct kfdsig_decode_stats *st)
{
	if (!d)
		return set_error(EINVAL, "no decoder");
	if (d->wlen && !d->stopped)
		walk(d, d->win, d->wlen, d->wbase, true);
	else if (!d->stopped)
		flush_run(d);
	d->wbase += d->wlen;
	d->wlen = 0;
	if (d->skip && !d->stopped) {
		/* The partial packet never got all its dwords. */
		add_finding(d, d->wbase, KFDSIG_SEV_ERROR, "truncated",
			    "the stream ends %llu dwords before the end of the last packet",
			    (unsigned long long)d->skip);
		d->st.dwords -= d->skip;
		d->skip = 0;
	}
	if ((d->o.flags & KFDSIG_DECODE_LINT) && !d->stopped)
		lint_finish(d);
	return result(d, st);
}

void kfdsig_decoder_free(struct kfdsig_decoder *d)
{
	if (!d)
		return;
	free(d->win);
	free(d);
}
