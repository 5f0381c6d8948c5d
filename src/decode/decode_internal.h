/* SPDX-License-Identifier: MIT */
/* Internals shared by the decoder core, the engine parts and the lint. */
#ifndef KFDSIG_DECODE_INTERNAL_H
#define KFDSIG_DECODE_INTERNAL_H

#include <stdbool.h>

#include <kfdsig/decode.h>

#include "core/internal.h"
#include "core/layout.h"

/* Longest run of dwords that do not parse merged into one SKIPPED packet
 * (a fixed bound, so that every way of cutting the stream into pieces
 * gives the same packets). */
#define DECODE_UNKNOWN_RUN_MAX 1024u

/* Answer of an engine's start check (may a packet start here?). */
enum start_ok {
	START_NO = 0,
	START_YES = 1,
	START_MORE = -1, /* more input is needed to tell */
};

/* A slot write seen since the last interrupt (lint). */
struct lint_write {
	bool valid;
	bool is64;
	bool sdma_lo; /* a single SDMA FENCE that a second may complete */
	uint64_t addr;
	uint64_t value;
	uint64_t offset; /* packet that wrote it */
};

/* Fields the lint reads, looked up once per layout (by index after). */
enum lint_field {
	LF_INT_SEL,
	LF_DATA_SEL,
	LF_ADDRESS_LO,
	LF_ADDRESS_HI,
	LF_DATA_LO,
	LF_DATA_HI,
	LF_INT_CTXID,
	LF_DST_SEL,
	LF_DST_ADDR_LO,
	LF_DST_ADDR_HI,
	LF_ADDR_LO,
	LF_ADDR_HI,
	LF_DATA,
	LF_COUNT
};

/* Where the fields the lint reads are in one layout: dword, shift and mask
 * (a field the layout lacks reads dword 0 with mask 0, and is not in
 * present). */
struct lint_layout {
	const struct kfdsig_packet_desc *desc;
	uint32_t need;	  /* dwords that hold every field present */
	uint32_t present; /* bit per enum lint_field */
	/* INT_SEL and DATA_SEL bits, and their value in a clean fence (after
	 * write confirm, 64-bit data); 0: no such fast check */
	uint32_t sel_mask, sel_clean;
	struct {
		uint32_t dw, shift, mask;
	} f[LF_COUNT];
};

#define LINT_LAYOUTS 4

struct lint_state {
	struct lint_write w;
	struct lint_layout lay[LINT_LAYOUTS];
	unsigned next_lay, last_lay;
	/* Multi-XCC (xcc-duplicate-signal): the node's XCCs, and the stream
	 * offset where the last PRED_EXEC's dwords end and whether it named
	 * one XCC. */
	uint32_t num_xcc;
	uint64_t pred_end;
	bool pred_one;
	/* User-mode queue rings: the last RELEASE_MEM (where it ends, its
	 * value), for the PROTECTED_FENCE_SIGNAL after it. */
	bool uq_rm_valid;
	uint64_t uq_rm_end, uq_rm_value;
};

/*
 * A PM4 or SDMA header identified before: a header that starts a packet
 * whatever follows it (PM4: a known opcode, or the type-2 filler; SDMA: a
 * known op other than WRITE) always gives the same length, layout and
 * name, so the walk takes those from here (len 0: empty). A decoder
 * decodes one engine: its entries are all of that engine.
 */
#define PM4_HDR_CACHE 64u

struct pm4_hdr {
	uint32_t h, len;
	const struct kfdsig_packet_desc *desc;
	const char *name;
	uint32_t opcode, sub_op, flags;
	bool quiet; /* pm4_check() / sdma_check() finds nothing in it */
	bool lint;  /* the lint reads it (lint_pm4_wants(), SDMA FENCE and TRAP) */
};

/* Multiplicative hashing: the top bits of the product depend on every
 * bit of the header (a fold of its bytes put SDMA's FENCE 0x5 and a NOP
 * of count 5, 0x50000, in one slot, which a fenced SDMA ring alternates). */
static inline unsigned pm4_hdr_slot(uint32_t h)
{
	return (h * 0x9e3779b1u) >> 26;
}

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
	/* a run of dwords that do not parse, longer than one skip_run()
	 * piece: reported as one SKIPPED packet when it ends (run.ndw 0: none) */
	struct kfdsig_packet run;
	uint32_t run_dw[DECODE_UNKNOWN_RUN_MAX]; /* its first piece */
	struct lint_state lint;
	struct pm4_hdr hdr[PM4_HDR_CACHE];
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
uint32_t pm4_identify(struct kfdsig_decoder *d, const uint32_t *dw, size_t avail, bool final,
		      struct kfdsig_packet *p);
uint32_t sdma_identify(struct kfdsig_decoder *d, const uint32_t *dw, size_t avail, bool final,
		       struct kfdsig_packet *p);
uint32_t aql_identify(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail, bool final,
		      struct kfdsig_packet *p);

/*
 * Engine part: may a packet start at dw[0]? Plausible headers only, plus
 * (for a header whose length the engine cannot check) a plausible header
 * right after it or the end of the stream.
 */
enum start_ok pm4_start_ok(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail,
			   bool final);
enum start_ok sdma_start_ok(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail,
			    bool final);

/*
 * A run of dwords from dw[0] that do not parse: mark @p as SKIPPED and
 * return its length (up to the next dword where @start_ok says yes, at
 * most DECODE_UNKNOWN_RUN_MAX), or 0 when more input is needed.
 */
uint32_t skip_run(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail, bool final,
		  struct kfdsig_packet *p,
		  enum start_ok (*start_ok)(const struct kfdsig_decoder *, const uint32_t *, size_t,
					    bool));

/* Engine checks on a delivered packet (count mismatches, bad headers). */
void pm4_check(struct kfdsig_decoder *d, const struct kfdsig_packet *p);
void sdma_check(struct kfdsig_decoder *d, const struct kfdsig_packet *p);
void aql_check(struct kfdsig_decoder *d, const struct kfdsig_packet *p);

/* Does the lint read this PM4 packet (a function of its header)? */
bool lint_pm4_wants(const struct kfdsig_packet *p);

/* Every lint rule on a complete PM4 packet lint_pm4_wants() (no
 * flags); lint_fast.h has the shortcut for the clean fence. */
void lint_pm4_rules(struct kfdsig_decoder *d, const struct kfdsig_packet *p);

/* Lint of a delivered packet, and the end-of-stream rules. */
void lint_packet(struct kfdsig_decoder *d, const struct kfdsig_packet *p);
void lint_finish(struct kfdsig_decoder *d);

/* Report a finding through the sink. */
void add_finding(struct kfdsig_decoder *d, uint64_t offset, enum kfdsig_severity sev,
		 const char *rule, const char *fmt, ...) KFDSIG_PRINTF(5, 6);

#endif
