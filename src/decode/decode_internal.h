/* SPDX-License-Identifier: MIT */
/* Internals shared by the decoder core, the engine parts and the lint. */
#ifndef KFDSIG_DECODE_INTERNAL_H
#define KFDSIG_DECODE_INTERNAL_H

#include <stdbool.h>

#include <kfdsig/decode.h>

#include "core/internal.h"
#include "core/layout.h"

/* Longest run of unknown one-dword headers merged into one UNKNOWN packet
 * (a fixed bound, so that every way of cutting the stream into pieces
 * gives the same packets). */
#define DECODE_UNKNOWN_RUN_MAX 1024u

/* A slot write seen since the last interrupt (lint). */
struct lint_write {
	bool valid;
	bool is64;
	bool sdma_lo; /* a single SDMA FENCE that a second may complete */
	uint64_t addr;
	uint64_t value;
	uint64_t offset; /* packet that wrote it */
};

struct lint_state {
	struct lint_write w;
};

struct kfdsig_decoder {
	struct kfdsig_decode_opts o;
	struct kfdsig_decode_sink s;
	struct kfdsig_decode_stats st;
	int stopped;
	/* streaming window */
	uint32_t *win;
	size_t wlen;
	uint64_t wbase; /* stream offset of win[0] */
	uint64_t skip;	/* dwords of a partial packet still to drop */
	struct lint_state lint;
};

/*
 * The bounds-checked read every engine part uses on a packet view of
 * @avail dwords: false (and *v = 0) past the end, never a read beyond it.
 */
static inline bool dw_at(const uint32_t *dw, size_t avail, size_t i, uint32_t *v)
{
	if (i >= avail) {
		*v = 0;
		return false;
	}
	*v = dw[i];
	return true;
}

/*
 * Engine part: identify the packet at dw[0] (@avail dwords readable,
 * @final when no more input will come). Fill p->name/desc/opcode/sub_op/
 * flags and return the packet length in dwords, or 0 when more input is
 * needed to know it (never when @final).
 */
uint32_t kfdsig_pm4_identify(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail,
			     bool final, struct kfdsig_packet *p);
uint32_t kfdsig_sdma_identify(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail,
			      bool final, struct kfdsig_packet *p);

/* Engine checks on a delivered packet (count mismatches, bad headers). */
void kfdsig_pm4_check(struct kfdsig_decoder *d, const struct kfdsig_packet *p);
void kfdsig_sdma_check(struct kfdsig_decoder *d, const struct kfdsig_packet *p);

/* Lint of a delivered packet. */
void kfdsig_lint_packet(struct kfdsig_decoder *d, const struct kfdsig_packet *p);

/* Report a finding through the sink. */
void kfdsig_finding(struct kfdsig_decoder *d, uint64_t offset, enum kfdsig_severity sev,
		    const char *rule, const char *fmt, ...) KFDSIG_PRINTF(5, 6);

/* Field value by name; false when absent (no such field or beyond avail). */
static inline bool pkt_get(const struct kfdsig_packet *p, const char *name, uint32_t *v)
{
	return kfdsig_packet_field(p, name, v) == 0;
}

#endif
