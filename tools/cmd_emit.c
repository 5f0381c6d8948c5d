/* SPDX-License-Identifier: MIT */
/* kfdsig emit: write a fence-with-interrupt sequence in a chosen format. */
#include <getopt.h>
#include <inttypes.h>
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "cli.h"

/* An engine the command can emit for. */
struct engine {
	const char *name;
	int (*emit)(const struct kfdsig_target *t, const struct kfdsig_fence *f, uint32_t *buf,
		    size_t max_dw);
	/* Layout and length of the packet starting at dw[0] (n dwords left);
	 * return its length in dwords, or 0 when unknown. */
	unsigned (*packet)(const struct kfdsig_target *t, const uint32_t *dw, size_t n,
			   const struct kfdsig_packet_desc **desc);
};

static unsigned pm4_packet(const struct kfdsig_target *t, const uint32_t *dw, size_t n,
			   const struct kfdsig_packet_desc **desc)
{
	long len = kfdsig_pm4_packet_dw(dw, n);
	int op = kfdsig_pm4_opcode(dw[0]);

	*desc = op >= 0 ? kfdsig_pm4_packet_desc(t, (unsigned)op) : NULL;
	return len > 0 ? (unsigned)len : 0;
}

static unsigned sdma_packet(const struct kfdsig_target *t, const uint32_t *dw, size_t n,
			    const struct kfdsig_packet_desc **desc)
{
	long len = kfdsig_sdma_packet_dw(t, dw, n);

	*desc = kfdsig_sdma_packet_desc(t, dw[0] & 0xff, (dw[0] >> 8) & 0xff);
	return len > 0 ? (unsigned)len : 0;
}

/* aql: the signal the barrier packet completes, prepared by aql_emit(). */
static uint64_t aql_signal_va;
static struct kfdsig_amd_signal aql_signal;

static unsigned aql_packet(const struct kfdsig_target *t, const uint32_t *dw, size_t n,
			   const struct kfdsig_packet_desc **desc)
{
	(void)t;
	(void)n;
	*desc = kfdsig_aql_packet_desc(dw[0]);
	return KFDSIG_AQL_PACKET_SIZE / 4;
}

/* A barrier-AND packet (barrier bit, system-scope fences) whose completion
 * signal is an amd_signal_t pointing at the event's slot: what ROCr submits
 * for an interrupt signal. The slot then reads the event id. */
static int aql_emit(const struct kfdsig_target *t, const struct kfdsig_fence *f, uint32_t *buf,
		    size_t max_dw)
{
	bool bad = f->flags & KFDSIG_FENCE_DELIBERATELY_BAD;
	uint32_t id = f->flags & KFDSIG_FENCE_CTXID ? f->ctxid : f->event_id;
	uint64_t value = f->flags & KFDSIG_FENCE_VALUE ? f->value : 1;
	uint8_t pkt[KFDSIG_AQL_PACKET_SIZE];
	int r;

	(void)t;
	if (max_dw < KFDSIG_AQL_PACKET_SIZE / 4)
		return -ENOSPC;
	if (!bad) {
		/* The page is the slot less 8 * id; the CLI has checked that
		 * the context id, if given, is the event id. */
		if (kfdsig_amd_signal_prepare(&aql_signal, f->slot_va - 8ull * f->event_id,
					      f->event_id, (int64_t)value) < 0)
			return -EINVAL;
	} else {
		/* What kfdsig_amd_signal_prepare() refuses to build: any id
		 * (--ctxid) and any slot, for the kernel's drop paths. */
		memset(&aql_signal, 0, sizeof(aql_signal));
		aql_signal.kind = KFDSIG_AMD_SIGNAL_KIND_USER;
		aql_signal.value = (int64_t)value;
		aql_signal.event_mailbox_ptr = f->slot_va;
		aql_signal.event_id = id;
	}
	r = kfdsig_aql_emit_barrier(pkt, KFDSIG_AQL_TYPE_BARRIER_AND, NULL, 0, aql_signal_va,
				    KFDSIG_AQL_CTL_DEFAULT);
	if (r < 0)
		return r;
	memcpy(buf, pkt, sizeof(pkt));
	return KFDSIG_AQL_PACKET_SIZE / 4;
}

/* userq: the end of a user-mode queue submission (kfdsig/userq.h), from
 * these options (emit_userq()). */
#define USERQ_MAX_WAITS 64
static struct kfdsig_userq_submit userq_sub = { .sz = sizeof(struct kfdsig_userq_submit) };
static struct kfdsig_userq_fence_ref userq_waits[USERQ_MAX_WAITS];
static uint64_t userq_seq;

static const struct engine engines[] = {
	{ "pm4", kfdsig_pm4_emit_fence, pm4_packet },
	{ "sdma", kfdsig_sdma_emit_fence, sdma_packet },
	{ "aql", aql_emit, aql_packet },
	{ "userq", NULL, pm4_packet },
};

static bool is_userq(const struct engine *e)
{
	return !strcmp(e->name, "userq");
}

static void help(FILE *f)
{
	fprintf(f,
		"usage: kfdsig emit -t T -e N (--slot-va ADDR | --signal-page ADDR)\n"
		"                   [-E pm4|sdma|aql] [options] [-f FMT | -j] [-o FILE]\n"
		"       kfdsig emit -t T -E userq --fence-va ADDR [--wptr N] [--ib-va ADDR\n"
		"                   --ib-dw N] [--wait ADDR=VALUE]... [--gfx] [-f FMT | -j]\n\n"
		"Write the packets that store into event N's slot of the KFD signal page and\n"
		"raise the interrupt that wakes AMDKFD_IOC_WAIT_EVENTS.\n\n"
		"  -t, --target T        GPU target (kfdsig targets lists them), e.g. gfx90a\n"
		"  -E, --engine E        pm4 (default): RELEASE_MEM on a compute queue;\n"
		"                        sdma: FENCE + FENCE + TRAP on an SDMA queue;\n"
		"                        aql: a barrier-AND packet whose completion signal\n"
		"                        (--signal-va) stores the event id into the slot and\n"
		"                        interrupts with it;\n"
		"                        userq: the end of an amdgpu user-mode queue\n"
		"                        submission (GFX11, GFX12) as radeonsi writes it:\n"
		"                        FENCE_WAIT_MULTI, HDP_FLUSH, INDIRECT_BUFFER,\n"
		"                        RELEASE_MEM to the user fence (no interrupt),\n"
		"                        PROTECTED_FENCE_SIGNAL; no event\n"
		"      --fence-va ADDR   userq: the queue's user fence (8-byte aligned)\n"
		"      --wptr N          userq: the ring position (dwords) the sequence starts\n"
		"                        at (default 0); the fence value is the position\n"
		"                        after it\n"
		"      --ib-va ADDR, --ib-dw N  userq: the IB to run (default none)\n"
		"      --wait ADDR=VALUE userq: wait until the 64 bits at ADDR reach VALUE\n"
		"                        (repeatable, up to 64; FENCE_WAIT_MULTI packets of the\n"
		"                        target's size)\n"
		"      --gfx             userq: a GFX queue's IB (default: compute)\n"
		"      --signal-va ADDR  aql: GPU address of the amd_signal_t (64-byte aligned)\n"
		"      --xcc MASK        pm4 on a multi-XCC target (gfx940-942, gfx950, gfx1250):\n"
		"                        a PRED_EXEC first, so that only the XCCs of MASK\n"
		"                        (bit n: logical XCC n; 0x1 signals once) run the\n"
		"                        fence; it must run from an indirect buffer\n"
		"      --signal-out FILE aql: also write the amd_signal_t (64 bytes, binary);\n"
		"                        --value is its initial value, --ctxid its event id\n"
		"  -e, --event N         event id, 1..4095\n"
		"      --slot-va ADDR    GPU address of the slot itself\n"
		"      --signal-page ADDR  GPU address of the signal page; slot = ADDR + 8*N\n"
		"      --value V         value written (default 1; for pm4 on gfx8, whose\n"
		"                        packet has no INT_CTXID, the event id)\n"
		"      --32bit           32-bit write (the slot's high dword stays all-ones);\n"
		"                        for sdma the same as --one-fence\n"
		"      --one-fence       sdma: one FENCE (low dword) instead of two\n"
		"      --cache C         pm4: flush-inv (default), wb, none: end-of-pipe L2\n"
		"                        action (sdma has none)\n"
		"      --int-only        raise the interrupt without writing the slot (sdma:\n"
		"                        TRAP only)\n"
		"      --form F          pm4: release-mem (default), write-data (WRITE_DATA, then "
		"an\n"
		"                        interrupt-only RELEASE_MEM), event-write-eop (gfx8\n"
		"                        graphics rings)\n"
		"      --ctxid N         interrupt context id: INT_CTXID, or the sdma TRAP\n"
		"                        context (must equal the event id unless\n"
		"                        --deliberately-bad)\n"
		"      --deliberately-bad  emit what the checks refuse (id 0, a wrong context\n"
		"                        id, an unaligned address) to test the kernel's slow\n"
		"                        and drop paths\n"
		"      --pad-submit      sdma: append NOPs up to the target's minimum\n"
		"                        submission (64 dwords on gfx900-gfx904, gfx90c)\n"
		"      --burst-nop       sdma: pad with one burst NOP instead of one-dword\n"
		"                        NOPs (SDMA 3.x needs firmware feature version 20+)\n"
		"  -f, --format FMT      hex (default), annotated (every field of every dword),\n"
		"                        json (the same as -j), bin (little-endian bytes),\n"
		"                        c (a C array)\n"
		"  -j, --json            one JSON object: the dwords and every packet's fields\n"
		"  -o, --output FILE     write there instead of stdout\n");
	cli_help_exit(f, "when the output cannot be written");
}

static void print_field_value(FILE *f, const struct kfdsig_field *fld, uint32_t v)
{
	/* Addresses, written data and opcodes read best in hex; counts, ids
	 * and selectors in decimal. */
	bool hex = strstr(fld->name, "addr") || strstr(fld->name, "signal") ||
		   !strcmp(fld->name, "data") || !strncmp(fld->name, "data_lo", 7) ||
		   !strncmp(fld->name, "data_hi", 7) || !strcmp(fld->name, "opcode") ||
		   !strcmp(fld->name, "event_type");

	fprintf(f, hex ? "%s=0x%x" : "%s=%u", fld->name, v);
	if (v < fld->nvalues && fld->values[v])
		fprintf(f, " (%s)", fld->values[v]);
}

static void annotate(FILE *f, const struct engine *e, const struct kfdsig_target *t,
		     const uint32_t *dw, size_t n)
{
	size_t pos = 0;

	while (pos < n) {
		const struct kfdsig_packet_desc *d = NULL;
		unsigned len = e->packet(t, dw + pos, n - pos, &d);

		if (!len || len > n - pos)
			len = (unsigned)(n - pos);
		if (len == 1)
			fprintf(f, "%s  (dword %zu)\n", d ? d->name : "UNKNOWN", pos);
		else
			fprintf(f, "%s  (dwords %zu-%zu)\n", d ? d->name : "UNKNOWN", pos,
				pos + len - 1);
		for (unsigned i = 0; i < len; i++) {
			bool any = false;

			fprintf(f, "  [%u] 0x%08x ", i, dw[pos + i]);
			for (unsigned k = 0; d && k < d->nfields; k++) {
				if (d->fields[k].dw != i)
					continue;
				fputc(' ', f);
				print_field_value(f, &d->fields[k],
						  kfdsig_field_get(&d->fields[k], dw + pos));
				any = true;
			}
			if (!any)
				fprintf(f, " data=0x%x", dw[pos + i]);
			fputc('\n', f);
		}
		pos += len;
	}
}

static void print_json(FILE *f, const struct engine *e, const struct kfdsig_target *t,
		       const struct kfdsig_fence *fence, const uint32_t *dw, size_t n)
{
	size_t pos = 0;
	bool first = true;

	if (is_userq(e))
		fprintf(f,
			"{\"target\": \"%s\", \"engine\": \"userq\", \"fence_va\": %" PRIu64
			", \"wptr\": %" PRIu64 ", \"seq\": %" PRIu64 ", \"dwords\": [",
			t->name, userq_sub.fence_va, userq_sub.wptr, userq_seq);
	else
		fprintf(f,
			"{\"target\": \"%s\", \"engine\": \"%s\", \"event_id\": %u, "
			"\"slot_va\": %" PRIu64 ", \"dwords\": [",
			t->name, e->name, fence->event_id, fence->slot_va);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? ", " : "", dw[i]);
	fprintf(f, "], \"packets\": [");
	while (pos < n) {
		const struct kfdsig_packet_desc *d = NULL;
		unsigned len = e->packet(t, dw + pos, n - pos, &d);

		if (!len || len > n - pos)
			len = (unsigned)(n - pos);
		fprintf(f, "%s{\"name\": \"%s\", \"offset\": %zu, \"dwords\": %u, \"fields\": {",
			first ? "" : ", ", d ? d->name : "UNKNOWN", pos, len);
		for (unsigned k = 0; d && k < d->nfields; k++)
			fprintf(f, "%s\"%s\": %u", k ? ", " : "", d->fields[k].name,
				kfdsig_field_get(&d->fields[k], dw + pos));
		fprintf(f, "}}");
		first = false;
		pos += len;
	}
	fprintf(f, "]}\n");
}

static int write_output(FILE *f, enum cli_format fmt, const struct engine *e,
			const struct kfdsig_target *t, const struct kfdsig_fence *fence,
			const uint32_t *dw, size_t n)
{
	switch (fmt) {
	case FMT_HEX:
		for (size_t i = 0; i < n; i++)
			fprintf(f, "0x%08x\n", dw[i]);
		break;
	case FMT_ANNOTATED:
		if (is_userq(e))
			fprintf(f,
				"# %s userq submission end: user fence 0x%" PRIx64
				", ring position %" PRIu64 " to %" PRIu64 " (the fence value), "
				"%zu dwords\n",
				t->name, userq_sub.fence_va, userq_sub.wptr, userq_seq, n);
		else
			fprintf(f, "# %s %s fence: event %u, slot 0x%" PRIx64 ", %zu dwords\n",
				t->name, e->name, fence->event_id, fence->slot_va, n);
		annotate(f, e, t, dw, n);
		break;
	case FMT_JSON:
		print_json(f, e, t, fence, dw, n);
		break;
	case FMT_BIN:
		if (!cli_write_le(f, dw, n))
			return cli_error("write error: %s", strerror(errno ? errno : EIO));
		break;
	case FMT_C:
		if (is_userq(e))
			fprintf(f,
				"/* %s userq submission end: user fence 0x%" PRIx64
				", value %" PRIu64 " (kfdsig emit) */\n",
				t->name, userq_sub.fence_va, userq_seq);
		else
			fprintf(f,
				"/* %s %s fence: event %u, slot 0x%" PRIx64 " (kfdsig emit) */\n",
				t->name, e->name, fence->event_id, fence->slot_va);
		fprintf(f, "static const uint32_t kfdsig_fence_%s_%s[%zu] = {\n", t->name, e->name,
			n);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s0x%08x,%s", i % 4 ? " " : "\t", dw[i],
				(i % 4 == 3 || i == n - 1) ? "\n" : "");
		fprintf(f, "};\n");
		break;
	}
	return 0;
}

enum {
	OPT_SLOT_VA = 256,
	OPT_SIGNAL_PAGE,
	OPT_VALUE,
	OPT_32BIT,
	OPT_CACHE,
	OPT_INT_ONLY,
	OPT_FORM,
	OPT_CTXID,
	OPT_BAD,
	OPT_ONE_FENCE,
	OPT_PAD_SUBMIT,
	OPT_BURST_NOP,
	OPT_SIGNAL_VA,
	OPT_SIGNAL_OUT,
	OPT_XCC,
	OPT_FENCE_VA,
	OPT_WPTR,
	OPT_IB_VA,
	OPT_IB_DW,
	OPT_WAIT,
	OPT_GFX,
};

const struct option cmd_emit_options[] = {
	{ "target", required_argument, NULL, 't' },
	{ "engine", required_argument, NULL, 'E' },
	{ "event", required_argument, NULL, 'e' },
	{ "slot-va", required_argument, NULL, OPT_SLOT_VA },
	{ "signal-page", required_argument, NULL, OPT_SIGNAL_PAGE },
	{ "value", required_argument, NULL, OPT_VALUE },
	{ "32bit", no_argument, NULL, OPT_32BIT },
	{ "cache", required_argument, NULL, OPT_CACHE },
	{ "int-only", no_argument, NULL, OPT_INT_ONLY },
	{ "form", required_argument, NULL, OPT_FORM },
	{ "ctxid", required_argument, NULL, OPT_CTXID },
	{ "deliberately-bad", no_argument, NULL, OPT_BAD },
	{ "one-fence", no_argument, NULL, OPT_ONE_FENCE },
	{ "pad-submit", no_argument, NULL, OPT_PAD_SUBMIT },
	{ "burst-nop", no_argument, NULL, OPT_BURST_NOP },
	{ "signal-va", required_argument, NULL, OPT_SIGNAL_VA },
	{ "signal-out", required_argument, NULL, OPT_SIGNAL_OUT },
	{ "xcc", required_argument, NULL, OPT_XCC },
	{ "fence-va", required_argument, NULL, OPT_FENCE_VA },
	{ "wptr", required_argument, NULL, OPT_WPTR },
	{ "ib-va", required_argument, NULL, OPT_IB_VA },
	{ "ib-dw", required_argument, NULL, OPT_IB_DW },
	{ "wait", required_argument, NULL, OPT_WAIT },
	{ "gfx", no_argument, NULL, OPT_GFX },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_emit_shortopts[] = "t:E:e:f:o:" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_emit_complete[] = {
	{ "target", "@target" },
	{ "engine", "pm4 sdma aql userq" },
	{ "signal-out", "@file" },
	{ "cache", "flush-inv wb none" },
	{ "xcc", "0x1" },
	{ "form", "release-mem write-data event-write-eop" },
	{ "format", "hex annotated json bin c" },
	{ "output", "@file" },
	{ 0 },
};

/* What the command line asked for: emit_parse() fills it, emit_validate()
 * checks it, emit_run() does it. */
struct emit_args {
	const struct kfdsig_target *t;
	const struct engine *e;
	const char *target, *output, *signal_out;
	struct kfdsig_fence fence;
	enum cli_format fmt;
	bool fmt_given; /* -f on the command line */
	bool have_event, have_slot, have_page, have_signal_va, pad_submit;
	bool have_cache, have_form, have_xcc;
	bool have_userq_opt, have_fence_va;
	uint32_t nop_flags;
	uint64_t xcc_mask;
	uint64_t page;
};

/* The options into @a; return 0, or the exit code (-h: help printed, 0)
 * with *@done set. */
static int emit_parse(int argc, char **argv, struct emit_args *a, bool *done)
{
	struct kfdsig_fence *fence = &a->fence;
	uint64_t v;
	int c;

	*done = true;
	while ((c = cli_getopt(argc, argv, cmd_emit_shortopts, cmd_emit_options)) != -1) {
		switch (c) {
		case 't':
			a->target = optarg;
			break;
		case 'E':
			a->e = NULL;
			for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
				if (!strcmp(optarg, engines[i].name))
					a->e = &engines[i];
			if (!a->e)
				return cli_usage_error(
					"--engine: '%s' is not one of pm4, sdma, aql, userq",
					optarg);
			break;
		case OPT_SIGNAL_VA:
			if (!cli_parse_u64("--signal-va", optarg, UINT64_MAX, &aql_signal_va))
				return EXIT_USAGE;
			a->have_signal_va = true;
			break;
		case OPT_SIGNAL_OUT:
			a->signal_out = optarg;
			break;
		case 'e':
			if (!cli_parse_event(optarg, &fence->event_id))
				return EXIT_USAGE;
			a->have_event = true;
			break;
		case OPT_SLOT_VA:
			if (!cli_parse_u64("--slot-va", optarg, UINT64_MAX, &fence->slot_va))
				return EXIT_USAGE;
			a->have_slot = true;
			break;
		case OPT_SIGNAL_PAGE:
			if (!cli_parse_u64("--signal-page", optarg, UINT64_MAX, &a->page))
				return EXIT_USAGE;
			a->have_page = true;
			break;
		case OPT_VALUE:
			if (!cli_parse_u64("--value", optarg, UINT64_MAX, &fence->value))
				return EXIT_USAGE;
			fence->flags |= KFDSIG_FENCE_VALUE;
			break;
		case OPT_32BIT:
			fence->flags |= KFDSIG_FENCE_32BIT;
			break;
		case OPT_CACHE:
			if (!strcmp(optarg, "flush-inv"))
				fence->cache = KFDSIG_CACHE_FLUSH_INV;
			else if (!strcmp(optarg, "wb"))
				fence->cache = KFDSIG_CACHE_WB;
			else if (!strcmp(optarg, "none"))
				fence->cache = KFDSIG_CACHE_NONE;
			else
				return cli_usage_error(
					"--cache: '%s' is not one of flush-inv, wb, none", optarg);
			a->have_cache = true;
			break;
		case OPT_INT_ONLY:
			fence->flags |= KFDSIG_FENCE_INT_ONLY;
			break;
		case OPT_FORM:
			if (!strcmp(optarg, "release-mem"))
				fence->form = KFDSIG_PM4_RELEASE_MEM;
			else if (!strcmp(optarg, "write-data"))
				fence->form = KFDSIG_PM4_WRITE_DATA_INT;
			else if (!strcmp(optarg, "event-write-eop"))
				fence->form = KFDSIG_PM4_EVENT_WRITE_EOP;
			else
				return cli_usage_error("--form: '%s' is not one of release-mem, "
						       "write-data, event-write-eop",
						       optarg);
			a->have_form = true;
			break;
		case OPT_CTXID:
			if (!cli_parse_u64("--ctxid", optarg, UINT32_MAX, &v))
				return EXIT_USAGE;
			fence->ctxid = (uint32_t)v;
			fence->flags |= KFDSIG_FENCE_CTXID;
			break;
		case OPT_BAD:
			fence->flags |= KFDSIG_FENCE_DELIBERATELY_BAD;
			break;
		case OPT_XCC:
			if (!cli_parse_u64("--xcc", optarg, 0xff, &a->xcc_mask))
				return EXIT_USAGE;
			a->have_xcc = true;
			break;
		case OPT_ONE_FENCE:
			fence->flags |= KFDSIG_FENCE_SDMA_ONE_FENCE;
			break;
		case OPT_FENCE_VA:
			if (!cli_parse_u64("--fence-va", optarg, UINT64_MAX, &userq_sub.fence_va))
				return EXIT_USAGE;
			a->have_userq_opt = a->have_fence_va = true;
			break;
		case OPT_WPTR:
			if (!cli_parse_u64("--wptr", optarg, UINT64_MAX, &userq_sub.wptr))
				return EXIT_USAGE;
			a->have_userq_opt = true;
			break;
		case OPT_IB_VA:
			if (!cli_parse_u64("--ib-va", optarg, UINT64_MAX, &userq_sub.ib_va))
				return EXIT_USAGE;
			a->have_userq_opt = true;
			break;
		case OPT_IB_DW:
			if (!cli_parse_range("--ib-dw", optarg, 1, KFDSIG_USERQ_IB_MAX_DW, &v))
				return EXIT_USAGE;
			userq_sub.ib_dw = (uint32_t)v;
			a->have_userq_opt = true;
			break;
		case OPT_WAIT: {
			char *eq = strchr(optarg, '=');
			struct kfdsig_userq_fence_ref *w = &userq_waits[userq_sub.nwaits];

			if (userq_sub.nwaits == USERQ_MAX_WAITS)
				return cli_usage_error("--wait: at most %d", USERQ_MAX_WAITS);
			if (!eq)
				return cli_usage_error("--wait '%s': want ADDR=VALUE", optarg);
			*eq = '\0';
			if (!cli_parse_u64("--wait address", optarg, UINT64_MAX, &w->va) ||
			    !cli_parse_u64("--wait value", eq + 1, UINT64_MAX, &w->value))
				return EXIT_USAGE;
			userq_sub.nwaits++;
			a->have_userq_opt = true;
			break;
		}
		case OPT_GFX:
			userq_sub.flags |= KFDSIG_USERQ_SUBMIT_GFX;
			a->have_userq_opt = true;
			break;
		case OPT_PAD_SUBMIT:
			a->pad_submit = true;
			break;
		case OPT_BURST_NOP:
			a->nop_flags |= KFDSIG_SDMA_NOP_BURST;
			break;
		case 'f':
			if (!cli_parse_format(optarg, &a->fmt))
				return EXIT_USAGE;
			a->fmt_given = true;
			break;
		case 'o':
			a->output = optarg;
			break;
		default:
			return cli_opt_default(c, help);
		}
	}
	*done = false;
	return cli_no_operands(argc, argv);
}

/* -E userq: no event; the submission's options only. */
static int userq_validate(struct emit_args *a)
{
	const struct kfdsig_fence *f = &a->fence;

	if (a->have_event || a->have_slot || a->have_page || f->flags || a->have_cache ||
	    a->have_form || a->have_xcc || a->pad_submit || a->nop_flags || a->have_signal_va ||
	    a->signal_out)
		return cli_usage_error("-E userq writes a user-mode queue's fence, not a KFD "
				       "event: it takes --fence-va, --wptr, --ib-va, --ib-dw, "
				       "--wait and --gfx");
	if (!a->have_fence_va)
		return cli_usage_error("--fence-va is required for userq: the queue's user "
				       "fence");
	if (!(a->t = cli_target(a->target)))
		return EXIT_USAGE;
	userq_sub.waits = userq_waits;
	if (kfdsig_userq_submit_dw(a->t, &userq_sub) < 0)
		return cli_usage_error("%s", kfdsig_last_error());
	return 0;
}

/* The checks that need every option; the slot address from the page. */
static int emit_validate(struct emit_args *a)
{
	struct kfdsig_fence *fence = &a->fence;
	const char *e = a->e->name;

	/* -j is --format json: another --format with it is a contradiction */
	if (cli_json() && a->fmt_given && a->fmt != FMT_JSON)
		return cli_usage_error("--json and --format %s: choose one",
				       a->fmt == FMT_BIN	 ? "bin"
				       : a->fmt == FMT_C	 ? "c"
				       : a->fmt == FMT_ANNOTATED ? "annotated"
								 : "hex");
	if (a->fmt == FMT_JSON)
		cli_g.json = true;
	if (cli_json())
		a->fmt = FMT_JSON;
	if (!a->target)
		return cli_usage_error("--target is required (kfdsig targets lists them)");
	if (is_userq(a->e))
		return userq_validate(a);
	if (a->have_userq_opt)
		return cli_usage_error("--fence-va, --wptr, --ib-va, --ib-dw, --wait and --gfx "
				       "are userq options (-E userq)");
	if (!a->have_event)
		return cli_usage_error("--event is required");
	if (a->have_slot && a->have_page)
		return cli_usage_error("give --slot-va or --signal-page, not both");
	if (!a->have_slot && !a->have_page && !(fence->flags & KFDSIG_FENCE_INT_ONLY))
		return cli_usage_error("--slot-va or --signal-page is required");
	if (a->have_page) {
		if (a->page > UINT64_MAX - 8ull * fence->event_id)
			return cli_usage_error("--signal-page: page + 8 * event overflows");
		fence->slot_va = kfdsig_slot_va(a->page, fence->event_id);
	}
	if (!(a->t = cli_target(a->target)))
		return EXIT_USAGE;
	/* Options of the other engine: name the option, not a library flag. */
	if ((a->pad_submit || a->nop_flags) && strcmp(e, "sdma"))
		return cli_usage_error("--pad-submit and --burst-nop are sdma options");
	if ((fence->flags & KFDSIG_FENCE_SDMA_ONE_FENCE) && strcmp(e, "sdma"))
		return cli_usage_error("--one-fence is an sdma option (pm4: use --32bit)");
	if (a->have_cache && strcmp(e, "pm4"))
		return cli_usage_error("--cache is a pm4 option: the sdma FENCE has no "
				       "end-of-pipe cache action");
	if (a->have_form && strcmp(e, "pm4"))
		return cli_usage_error("--form is a pm4 option: sdma has one packet form");
	if (a->nop_flags && !a->pad_submit)
		return cli_usage_error("--burst-nop only shapes the --pad-submit padding");
	if (a->have_xcc && (strcmp(e, "pm4") || a->t->max_xcc < 2))
		return cli_usage_error("--xcc is for the pm4 fence of a multi-XCC target "
				       "(gfx940-942, gfx950, gfx1250)");
	if (a->have_xcc && (!a->xcc_mask || a->xcc_mask >> a->t->max_xcc))
		return cli_usage_error("--xcc 0x%llx: want 1 to 0x%x (bit n: logical XCC n)",
				       (unsigned long long)a->xcc_mask, (1u << a->t->max_xcc) - 1);
	if ((a->have_signal_va || a->signal_out) && strcmp(e, "aql"))
		return cli_usage_error("--signal-va and --signal-out are aql options");
	if (!strcmp(e, "aql")) {
		if (!a->have_signal_va)
			return cli_usage_error("--signal-va is required for aql: the GPU address "
					       "of the amd_signal_t the packet completes");
		/* The packet processor completes a signal at address 0 by
		 * no store and no interrupt (the lint's aql-no-signal). */
		if (!aql_signal_va && !(fence->flags & KFDSIG_FENCE_DELIBERATELY_BAD))
			return cli_usage_error("--signal-va 0: a packet without a completion "
					       "signal raises no interrupt (or "
					       "--deliberately-bad)");
		if (fence->flags & (KFDSIG_FENCE_32BIT | KFDSIG_FENCE_INT_ONLY))
			return cli_usage_error("--32bit and --int-only are not aql options: the "
					       "packet processor stores the 32-bit event id");
		if ((fence->flags & KFDSIG_FENCE_CTXID) && fence->ctxid != fence->event_id &&
		    !(fence->flags & KFDSIG_FENCE_DELIBERATELY_BAD))
			return cli_usage_error("--ctxid %u: the signal's event id must be the "
					       "event id %u (or --deliberately-bad)",
					       fence->ctxid, fence->event_id);
		/* As PM4 and SDMA: the target's GPU virtual address space
		 * (va_bits) decides, not the 57 bits an amd_signal_t can hold
		 * (AQL queues exist on every target, gfx8 included). */
		if (fence->flags & KFDSIG_FENCE_DELIBERATELY_BAD)
			return 0;
		if ((fence->slot_va + 7) >> a->t->va_bits)
			return cli_usage_error("slot address 0x%llx is beyond the %u-bit GPU "
					       "virtual address space of %s",
					       (unsigned long long)fence->slot_va, a->t->va_bits,
					       a->t->name);
		if ((aql_signal_va + 63) >> a->t->va_bits)
			return cli_usage_error("--signal-va 0x%llx is beyond the %u-bit GPU "
					       "virtual address space of %s",
					       (unsigned long long)aql_signal_va, a->t->va_bits,
					       a->t->name);
	}
	return 0;
}

static int emit_run(const struct emit_args *a)
{
	/* a userq submission: 16 FENCE_WAIT_MULTI of 4, HDP, IB, trailer */
	uint32_t buf[16 * KFDSIG_USERQ_FWM_DW(4) + 16];
	FILE *out;
	int n, ret = 0;

	/* Every XCC of the node runs a PM4 queue's ring (docs/multi-xcc.md). */
	if (!strcmp(a->e->name, "pm4") && a->t->max_xcc > 1 && !a->have_xcc)
		cli_note("%s: each XCC of a node (up to %u) runs this fence and signals the "
			 "event once (decode --lint: xcc-duplicate-signal); --xcc 0x1 "
			 "predicates it to XCC 0 (PRED_EXEC, run from an indirect buffer)",
			 a->t->name, a->t->max_xcc);
	if (a->have_xcc)
		n = kfdsig_pm4_emit_fence_xcc(a->t, &a->fence, (uint32_t)a->xcc_mask, buf,
					      sizeof(buf) / sizeof(buf[0]));
	else if (is_userq(a->e))
		n = kfdsig_userq_emit_submit(a->t, &userq_sub, buf, sizeof(buf) / sizeof(buf[0]),
					     &userq_seq);
	else
		n = a->e->emit(a->t, &a->fence, buf, sizeof(buf) / sizeof(buf[0]));
	if (n < 0)
		return cli_usage_error("%s", kfdsig_last_error());
	if (a->pad_submit) {
		int pad = kfdsig_sdma_pad_submit_dw(a->t, (size_t)n);

		if (pad < 0 ||
		    kfdsig_sdma_emit_nop(buf + n, sizeof(buf) / sizeof(buf[0]) - (size_t)n,
					 (size_t)pad, a->nop_flags) < 0)
			return cli_error("%s", kfdsig_last_error());
		n += pad;
	}

	/* A reader gone (decode refused its arguments) is a write error to
	 * report, not a silent death by SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	if (a->signal_out) {
		/* The amd_signal_t image (64 little-endian bytes), for
		 * kfdsig decode --engine aql --lint --mem SIGNAL_VA=FILE:
		 * written and closed before the packets, so that a decode
		 * reading the packets from a pipe finds it whole. */
		FILE *sf = cli_open_output(a->signal_out, true);

		if (!sf)
			return EXIT_FAILURE;
		if (!cli_write_le(sf, (const uint32_t *)(const void *)&aql_signal,
				  sizeof(aql_signal) / 4))
			ret = cli_error("write error: %s", strerror(errno ? errno : EIO));
		if (cli_close_output(sf))
			ret = EXIT_FAILURE;
		if (ret)
			return ret;
	}
	if (!(out = cli_open_output(a->output, a->fmt == FMT_BIN)))
		return a->fmt == FMT_BIN && !a->output ? EXIT_USAGE : EXIT_FAILURE;
	ret = write_output(out, a->fmt, a->e, a->t, &a->fence, buf, (size_t)n);
	if (cli_close_output(out))
		ret = EXIT_FAILURE;
	return ret;
}

int cmd_emit(int argc, char **argv)
{
	struct emit_args a = { .e = &engines[0], .fmt = FMT_HEX };
	bool done;
	int ret;

	ret = emit_parse(argc, argv, &a, &done);
	if (done || ret)
		return ret;
	ret = emit_validate(&a);
	if (ret)
		return ret;
	return emit_run(&a);
}
