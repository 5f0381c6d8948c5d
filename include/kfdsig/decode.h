/* SPDX-License-Identifier: MIT */
/*
 * Decoder and lint for PM4 and SDMA packet streams (ring dumps, IBs, or
 * kfdsig's own output).
 *
 * The decoder walks the stream through one bounds-checked cursor, takes
 * each packet's layout from the same tables the emitters use
 * (kfdsig_pm4_packet_desc(), kfdsig_sdma_packet_desc()), never trusts a
 * count beyond the data it has, and resynchronises on the next header
 * after every packet. Truncated packets, unknown opcodes and count
 * mismatches become findings, never crashes. Output goes to a sink: one
 * callback per packet and one per finding; kfdsig_format_*() turn them into
 * text or JSON.
 *
 * With KFDSIG_DECODE_LINT the decoder also checks every packet that raises
 * an interrupt against the rules KFD applies (cik_event_interrupt.c, kfd_int_process_v9/v10/v11.c, kfd_events.c) and
 * reports the rule each one breaks (see kfdsig-decode(1), LINT RULES, for the
 * list).
 */
#ifndef KFDSIG_DECODE_H
#define KFDSIG_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include <kfdsig/common.h>
#include <kfdsig/layout.h>
#include <kfdsig/target.h>

#ifdef __cplusplus
extern "C" {
#endif

enum kfdsig_engine {
	KFDSIG_ENGINE_PM4 = 0,
	KFDSIG_ENGINE_SDMA,
	/* AQL queue slots: 64-byte packets (16 dwords), see <kfdsig/aql.h>. */
	KFDSIG_ENGINE_AQL,
};

enum kfdsig_severity {
	KFDSIG_SEV_INFO = 0, /* worth knowing, legal */
	KFDSIG_SEV_WARNING,  /* probably not what was meant */
	KFDSIG_SEV_ERROR,    /* the kernel will not deliver / the stream is broken */
};

/* kfdsig_packet.flags */
#define KFDSIG_PACKET_UNKNOWN (1u << 0)	  /* no layout: desc is NULL */
#define KFDSIG_PACKET_TRUNCATED (1u << 1) /* the stream ends inside it */
#define KFDSIG_PACKET_PARTIAL \
	(1u << 2) /* longer than the streaming window:
					   * only the first avail dwords kept */
/* Dwords that do not parse as packets, skipped up to the next plausible
 * header (name "SKIPPED", also KFDSIG_PACKET_UNKNOWN): one run is one packet
 * whatever its length, reported once with a "resync" finding; for a long
 * run avail < ndw (only its first dwords are at dw). */
#define KFDSIG_PACKET_SKIPPED (1u << 3)

/* One decoded packet. Pointers are valid during the callback only. */
struct kfdsig_packet {
	uint64_t offset;		       /* dword offset of dw[0] in the stream */
	uint32_t ndw;			       /* dwords the packet spans */
	uint32_t avail;			       /* dwords readable at dw (<= ndw) */
	const uint32_t *dw;		       /* the packet, header first */
	const struct kfdsig_packet_desc *desc; /* field layout, NULL if unknown */
	const char *name;		       /* "RELEASE_MEM", "UNKNOWN", ... */
	uint32_t opcode;		       /* PM4 type-3 opcode or SDMA op */
	uint32_t sub_op;		       /* SDMA sub-op; PM4 packet type */
	uint32_t flags;			       /* KFDSIG_PACKET_* */
	enum kfdsig_engine engine;
};

/* One finding (decode problem or lint rule). */
struct kfdsig_finding {
	uint64_t offset; /* dword offset of the packet it is about */
	enum kfdsig_severity severity;
	const char *rule;    /* stable name: "ctxid-mismatch", "truncated", ... */
	const char *message; /* one line, valid during the callback only */
};

/* Callbacks; any may be NULL. A non-zero return stops the decoder,
 * which then returns that value from kfdsig_decode() / _feed(). */
/* Declare with KFDSIG_OPTS(kfdsig_decode_sink, name, ...) (common.h). */
struct kfdsig_decode_sink {
	size_t sz; /* sizeof(struct kfdsig_decode_sink) */
	void *ctx;
	int (*packet)(void *ctx, const struct kfdsig_packet *p);
	int (*finding)(void *ctx, const struct kfdsig_finding *f);
	/*
	 * (0.18) NULL, or called once for @n >= 2 equal packets in a row (the
	 * same dwords, such as one-dword NOP fillers) that raise no finding
	 * and that no lint rule looks at: @p is the first, packet k starts
	 * k * p->ndw dwords after it (p->dw + k * p->ndw is readable during
	 * the call). Without it each of them is a packet() call. Runs end
	 * where a kfdsig_decoder_feed() piece ends.
	 */
	int (*run)(void *ctx, const struct kfdsig_packet *p, uint64_t n);
};

/* kfdsig_decode_opts.flags */
#define KFDSIG_DECODE_LINT (1u << 0)	    /* check interrupt packets */
#define KFDSIG_DECODE_SIGNAL_PAGE (1u << 1) /* signal_page_va is valid */
/* (0.20) The stream is an amdgpu user-mode queue's ring (kfdsig/userq.h):
 * the lint applies the userq rules to fences instead of KFD's. */
#define KFDSIG_DECODE_USERQ (1u << 2)
/* (0.20) ring_pos is valid: the userq lint checks each trailer's value
 * against the ring position after it. */
#define KFDSIG_DECODE_RING_POS (1u << 3)

/* Declare with KFDSIG_OPTS(kfdsig_decode_opts, name, ...) (common.h). */
struct kfdsig_decode_opts {
	size_t sz; /* sizeof(struct kfdsig_decode_opts) */
	const struct kfdsig_target *target;
	enum kfdsig_engine engine;
	uint32_t flags;		 /* KFDSIG_DECODE_* */
	uint64_t signal_page_va; /* with KFDSIG_DECODE_SIGNAL_PAGE */
	/* XCCs of the KFD node the stream runs on (its topology num_xcc):
	 * each runs a PM4 ring, so the lint warns (xcc-duplicate-signal) on
	 * an interrupting fence no PRED_EXEC limits to one XCC. 0: the
	 * target's max_xcc (the most a node of it spans). */
	uint32_t num_xcc;
	uint32_t pad_0; /* must be 0 */
	/* (0.20) With KFDSIG_DECODE_RING_POS: the ring position (the queue's
	 * 64-bit dword write pointer) of the stream's first dword. */
	uint64_t ring_pos;
	/* (0.20) The GPU's MEC firmware version (the topology's fw_version),
	 * or 0 when unknown: the userq lint then warns on a
	 * PROTECTED_FENCE_SIGNAL for a firmware older than the one from which
	 * the kernel creates user queues (kfdsig_target.userq_mec_fw). */
	uint32_t mec_fw;
	uint32_t pad_1; /* must be 0 */
};

/* Running totals of a decoder. */
struct kfdsig_decode_stats {
	uint64_t packets;
	uint64_t dwords;
	uint64_t findings[3]; /* by enum kfdsig_severity */
};

/**
 * kfdsig_decode() - decode a whole stream held in memory.
 * @o:    engine, target, flags
 * @s:    where packets and findings go
 * @dw:   the stream, host-endian dwords
 * @n:    dwords in @dw
 * @st:   NULL, or filled with the totals
 *
 * Return: the number of error-level findings (0 for a clean stream), the
 * sink's non-zero return value if it stopped the walk (as is, so sinks
 * should return negative values), or -EINVAL for bad options (also a
 * zero sz, or set bytes beyond the structs this library knows, in @o or
 * @s).
 */
KFDSIG_API long kfdsig_decode(const struct kfdsig_decode_opts *o,
			      const struct kfdsig_decode_sink *s, const uint32_t *dw, size_t n,
			      struct kfdsig_decode_stats *st);

/**
 * kfdsig_lint() - kfdsig_decode() with KFDSIG_DECODE_LINT set: will the
 * kernel accept the interrupt packets of @dw as event signals?
 *
 * Return: as kfdsig_decode(); > 0 means at least one rule is broken at
 * error level.
 */
KFDSIG_API long kfdsig_lint(const struct kfdsig_decode_opts *o, const struct kfdsig_decode_sink *s,
			    const uint32_t *dw, size_t n, struct kfdsig_decode_stats *st);

struct kfdsig_decoder;

/**
 * kfdsig_decoder_new() - a streaming decoder: feed the stream in pieces of
 * any size; memory stays bounded (a window of KFDSIG_DECODE_WINDOW_DW
 * dwords) whatever the input size. A packet longer than the window is
 * reported with KFDSIG_PACKET_PARTIAL and its first dwords only.
 *
 * Return: the decoder, or NULL with errno EINVAL (bad options) or ENOMEM.
 */
KFDSIG_API struct kfdsig_decoder *kfdsig_decoder_new(const struct kfdsig_decode_opts *o,
						     const struct kfdsig_decode_sink *s);

/* Dwords a streaming decoder keeps at most (128 KiB): more than the
 * longest PM4 packet (16385 dwords) and the longest SDMA NOP. */
#define KFDSIG_DECODE_WINDOW_DW 32768u

/**
 * kfdsig_decoder_feed() - decode the next @n dwords of the stream.
 *
 * Return: 0, or the sink's non-zero return value (the decoder is then
 * stopped and ignores further input).
 */
KFDSIG_API int kfdsig_decoder_feed(struct kfdsig_decoder *d, const uint32_t *dw, size_t n);

/**
 * kfdsig_decoder_finish() - end of stream: report a trailing truncated
 * packet, and the totals.
 *
 * Return: as kfdsig_decode().
 */
KFDSIG_API long kfdsig_decoder_finish(struct kfdsig_decoder *d, struct kfdsig_decode_stats *st);

/** kfdsig_decoder_free() - release a decoder (NULL is fine). */
KFDSIG_API void kfdsig_decoder_free(struct kfdsig_decoder *d);

/**
 * kfdsig_packet_field() - value of the field called @name in @p.
 *
 * Return: 0 and *v set, -ENOENT when the layout has no such field, or
 * -ENODATA when the field lies beyond the dwords the packet has.
 */
KFDSIG_API int kfdsig_packet_field(const struct kfdsig_packet *p, const char *name, uint32_t *v);

/* kfdsig_format_packet_*() flags */
#define KFDSIG_FORMAT_RAW (1u << 0) /* add the raw dwords */

/**
 * kfdsig_format_packet_text() - one line (ending in '\n', plus a second
 * line of raw dwords with KFDSIG_FORMAT_RAW) describing @p, fields by name.
 * kfdsig_format_packet_json() - one JSON object (ending in '\n') with every
 * field as a number ("raw" array with KFDSIG_FORMAT_RAW).
 * kfdsig_format_finding_text() / _json() - the same for a finding.
 *
 * All four behave like snprintf(): they write at most @size bytes
 * including the terminating NUL.
 *
 * Return: the length the full text needs (excluding the NUL); when it is
 * >= @size the output was truncated.
 */
KFDSIG_API int kfdsig_format_packet_text(const struct kfdsig_packet *p, uint32_t flags, char *buf,
					 size_t size);
KFDSIG_API int kfdsig_format_packet_json(const struct kfdsig_packet *p, uint32_t flags, char *buf,
					 size_t size);
KFDSIG_API int kfdsig_format_finding_text(const struct kfdsig_finding *f, char *buf, size_t size);
KFDSIG_API int kfdsig_format_finding_json(const struct kfdsig_finding *f, char *buf, size_t size);

/*
 * A cache for formatting many packets fast: whole lines are kept by value,
 * with the numbers of plain-number dwords (addresses, data, context ids)
 * left as holes filled in each time, besides the text of each dword's
 * fields and of packet heads; the offset label is patched from the one
 * before. A ring of similar packets is mostly copied. About 11 MiB of
 * address space, touched as used (a ring of fences and fillers touches
 * well under 1 MiB). Not thread-safe: one cache per thread.
 *
 * kfdsig_format_cache_new() - Return: the cache, or NULL with errno ENOMEM.
 * kfdsig_format_cache_free() - release it (NULL is fine).
 * kfdsig_format_packet_text_cached() / _json_cached() - exactly what
 * kfdsig_format_packet_text() / _json() write (@c may be NULL).
 */
struct kfdsig_format_cache;
KFDSIG_API struct kfdsig_format_cache *kfdsig_format_cache_new(void);
KFDSIG_API void kfdsig_format_cache_free(struct kfdsig_format_cache *c);
KFDSIG_API int kfdsig_format_packet_text_cached(struct kfdsig_format_cache *c,
						const struct kfdsig_packet *p, uint32_t flags,
						char *buf, size_t size);
KFDSIG_API int kfdsig_format_packet_json_cached(struct kfdsig_format_cache *c,
						const struct kfdsig_packet *p, uint32_t flags,
						char *buf, size_t size);

/**
 * kfdsig_format_relabel() - the lines of equal packets at other offsets:
 * @line (@len bytes, as kfdsig_format_packet_text*() or _json*() wrote it
 * for a packet at stream offset @from) for the @n packets at @to, @to +
 * @stride, ... (@stride: the packet's ndw), each with its own offset label
 * and the rest of @line. This is how a run of equal packets
 * (kfdsig_decode_sink.run) is printed: the first formatted, the others
 * relabelled. Only whole lines are written, as many as fit in @size bytes
 * with the terminating NUL; *@done (if not NULL) is how many.
 *
 * Return: the bytes written (NUL excluded), or -EINVAL when @line does not
 * begin with the label of @from (text or JSON), or @buf is NULL or @size 0.
 */
KFDSIG_API long kfdsig_format_relabel(const char *line, size_t len, uint64_t from, uint64_t to,
				      uint64_t stride, uint64_t n, char *buf, size_t size,
				      uint64_t *done);

/** kfdsig_severity_name() - "info", "warning", "error"; "?" if out of range. */
KFDSIG_API const char *kfdsig_severity_name(enum kfdsig_severity s);

struct kfdsig_amd_signal;

/**
 * kfdsig_lint_amd_signal() - the lint rules of an AQL packet's completion
 * signal: will its completion store into the event's slot and interrupt
 * with the event id (kfdsig_amd_signal_check(), <kfdsig/aql.h>)?
 * @s:              the amd_signal_t the packet's completion_signal names
 * @signal_va:      its GPU address (named in each message)
 * @signal_page_va: the signal page, or 0 when unknown (then the mailbox is
 *                  not checked against the event's slot)
 * @offset:         dword offset of the packet, copied into each finding
 * @finding:        called once per finding, in rule order:
 *                  aql-signal-no-mailbox (warning), aql-signal-id-zero,
 *                  aql-signal-id-range, aql-signal-wrong-slot,
 *                  aql-signal-unaligned-mailbox (errors), aql-signal-kind
 *                  (warning); a non-zero return stops the rules
 * @ctx:            passed to @finding
 * Return: 0 when every finding was delivered (none: the completion wakes
 * the event), @finding's non-zero return if it stopped, or -EINVAL when @s
 * or @finding is NULL.
 */
KFDSIG_API int kfdsig_lint_amd_signal(const struct kfdsig_amd_signal *s, uint64_t signal_va,
				      uint64_t signal_page_va, uint64_t offset,
				      int (*finding)(void *ctx, const struct kfdsig_finding *f),
				      void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_DECODE_H */
