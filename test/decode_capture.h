/* SPDX-License-Identifier: MIT */
/*
 * A decode sink for tests: keeps every packet (first dwords copied) and
 * every finding, so tests can look fields and rules up afterwards.
 * Header-only: each test executable includes it once.
 */
#ifndef KFDSIG_TEST_DECODE_CAPTURE_H
#define KFDSIG_TEST_DECODE_CAPTURE_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define CAP_DW 64
#define CAP_MAX 4096

struct cap_pkt {
	struct kfdsig_packet p; /* p.dw points at dw below; p.avail clamped */
	uint32_t avail;		/* the decoder's avail */
	uint32_t dw[CAP_DW];
};

struct cap_finding {
	uint64_t offset;
	enum kfdsig_severity sev;
	char rule[32];
	char msg[256];
};

struct capture {
	struct cap_pkt *pkts;
	size_t npkts;
	struct cap_finding *finds;
	size_t nfinds;
};

static inline int cap_packet(void *ctx, const struct kfdsig_packet *p)
{
	struct capture *c = ctx;
	struct cap_pkt *k;

	if (c->npkts == CAP_MAX)
		return 0;
	k = &c->pkts[c->npkts++];
	k->p = *p;
	k->avail = p->avail;
	if (k->p.avail > CAP_DW)
		k->p.avail = CAP_DW;
	memcpy(k->dw, p->dw, k->p.avail * sizeof(uint32_t));
	k->p.dw = k->dw;
	return 0;
}

static inline int cap_finding(void *ctx, const struct kfdsig_finding *f)
{
	struct capture *c = ctx;
	struct cap_finding *k;

	if (c->nfinds == CAP_MAX)
		return 0;
	k = &c->finds[c->nfinds++];
	k->offset = f->offset;
	k->sev = f->severity;
	snprintf(k->rule, sizeof(k->rule), "%s", f->rule);
	snprintf(k->msg, sizeof(k->msg), "%s", f->message);
	return 0;
}

static inline void cap_init(struct capture *c)
{
	c->pkts = calloc(CAP_MAX, sizeof(*c->pkts));
	c->finds = calloc(CAP_MAX, sizeof(*c->finds));
	c->npkts = c->nfinds = 0;
	if (!c->pkts || !c->finds)
		exit(T_EXIT_FAIL);
}

static inline void cap_reset(struct capture *c)
{
	c->npkts = c->nfinds = 0;
}

static inline void cap_free(struct capture *c)
{
	free(c->pkts);
	free(c->finds);
}

static inline struct kfdsig_decode_sink cap_sink(struct capture *c)
{
	KFDSIG_OPTS(kfdsig_decode_sink, s, .ctx = c, .packet = cap_packet, .finding = cap_finding);

	return s;
}

/* Field @name of packet @i, or 0xdeadbeef (and a failed check) if absent. */
static inline uint32_t cap_field(const struct capture *c, size_t i, const char *name)
{
	uint32_t v = 0xdeadbeef;
	int r = -1;

	if (i < c->npkts)
		r = kfdsig_packet_field(&c->pkts[i].p, name, &v);
	CHECK(r == 0, "packet %zu (%s) has no field %s (%d)", i,
	      i < c->npkts ? c->pkts[i].p.name : "missing", name, r);
	return r == 0 ? v : 0xdeadbeef;
}

/* Number of findings named @rule (any severity when sev < 0). */
static inline size_t cap_count(const struct capture *c, const char *rule, int sev)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nfinds; i++)
		if (!strcmp(c->finds[i].rule, rule) && (sev < 0 || (int)c->finds[i].sev == sev))
			n++;
	return n;
}

static inline size_t cap_errors(const struct capture *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nfinds; i++)
		n += c->finds[i].sev == KFDSIG_SEV_ERROR;
	return n;
}

static inline void cap_dump(const struct capture *c)
{
	for (size_t i = 0; i < c->nfinds; i++)
		fprintf(stderr, "    finding @%llu %s[%s]: %s\n",
			(unsigned long long)c->finds[i].offset,
			kfdsig_severity_name(c->finds[i].sev), c->finds[i].rule, c->finds[i].msg);
}

static inline const struct kfdsig_target *T(const char *name)
{
	const struct kfdsig_target *t = kfdsig_target_by_name(name);

	if (!t) {
		fprintf(stderr, "target %s missing\n", name);
		exit(T_EXIT_FAIL);
	}
	return t;
}

/* Decode @n dwords one-shot into @c (cleared first); return the result. */
static inline long cap_decode(struct capture *c, const struct kfdsig_target *t,
			      enum kfdsig_engine e, uint32_t flags, uint64_t page,
			      const uint32_t *dw, size_t n)
{
	KFDSIG_OPTS(kfdsig_decode_opts, o);
	struct kfdsig_decode_sink s = cap_sink(c);

	o.engine = e;
	o.target = t;
	o.flags = flags;
	o.signal_page_va = page;
	cap_reset(c);
	return kfdsig_decode(&o, &s, dw, n, NULL);
}

#endif
