/* SPDX-License-Identifier: MIT */
/*
 * The decoder's bottom layer: what decode.c, the engine parts
 * (decode_pm4.c, decode_sdma.c), lint.c and format.c all call and which
 * calls none of them: findings, skipped runs, severity names.
 */
#include <stdarg.h>
#include <stdio.h>

#include "decode/decode_internal.h"

void add_finding(struct kfdsig_decoder *d, uint64_t offset, enum kfdsig_severity sev,
		 const char *rule, const char *fmt, ...)
{
	struct kfdsig_finding f;
	char msg[256];
	va_list ap;
	int r;

	d->st.findings[sev]++;
	if (!d->s.finding || d->stopped)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	f.offset = offset;
	f.severity = sev;
	f.rule = rule;
	f.message = msg;
	r = d->s.finding(d->s.ctx, &f);
	if (r)
		d->stopped = r;
}

uint32_t skip_run(const struct kfdsig_decoder *d, const uint32_t *dw, size_t avail, bool final,
		  struct kfdsig_packet *p,
		  enum start_ok (*start_ok)(const struct kfdsig_decoder *, const uint32_t *, size_t,
					    bool))
{
	size_t i;

	p->name = "SKIPPED";
	p->desc = NULL;
	p->flags |= KFDSIG_PACKET_UNKNOWN | KFDSIG_PACKET_SKIPPED;
	dw_at(dw, avail, 0, &p->opcode);
	p->sub_op = 0;
	for (i = 1; i < DECODE_UNKNOWN_RUN_MAX; i++) {
		enum start_ok ok;

		if (i >= avail)
			return final ? (uint32_t)i : 0;
		ok = start_ok(d, dw + i, avail - i, final);
		if (ok == START_MORE)
			return 0;
		if (ok == START_YES)
			break;
	}
	return (uint32_t)i;
}

const char *kfdsig_severity_name(enum kfdsig_severity s)
{
	static const char *const names[] = { "info", "warning", "error" };

	return (unsigned)s < KFDSIG_ARRAY_SIZE(names) ? names[s] : "?";
}
