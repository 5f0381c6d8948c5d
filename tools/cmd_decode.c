/* SPDX-License-Identifier: MIT */
/* kfdsig decode: decode (and lint) a PM4 or SDMA packet stream. */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: kfdsig decode -t T [-E pm4|sdma] [-f text|json | -j]\n"
		"                     [-v] [--lint] [--signal-page ADDR] [--input auto|bin|hex]\n"
		"                     FILE|-\n\n"
		"Decode a PM4 or SDMA packet stream (a ring dump, an IB, or kfdsig emit output)\n"
		"packet by packet, and with --lint check that its interrupt packets are event\n"
		"signals the kernel accepts. Input streams: memory stays bounded.\n\n"
		"  -t, --target T        GPU target (kfdsig targets lists them)\n"
		"  -E, --engine E        pm4 (default) or sdma\n"
		"  -f, --format F        text (default): one line per packet, fields by name;\n"
		"                        json: the same as -j\n"
		"  -j, --json            JSON Lines: one object per line per packet and\n"
		"                        finding, as the stream is read (--json-seq: RFC 7464)\n"
		"  -v, --verbose         add each packet's raw dwords\n"
		"  -l, --lint            check interrupt packets against KFD's rules\n"
		"      --signal-page A   GPU address of the signal page (enables the slot,\n"
		"                        page and context-id-versus-slot rules)\n"
		"  -i, --input I         auto (default): hex text if the start is printable,\n"
		"                        else binary; bin: little-endian dwords; hex: dwords in\n"
		"                        hex, any number per line, with or without 0x,\n"
		"                        separated by spaces or commas, '#' comments\n"
		"  FILE                  the stream, or - for standard input\n\n"
		"Exit status: 0 clean; 1 when an error-level finding exists (or I/O fails);\n"
		"2 for bad arguments or unreadable input (missing file, directory, no dwords,\n"
		"a token that is not a hex dword, a binary size not a multiple of 4).\n"
		"Global options (kfdsig --help): --emulate SPEC, -j/--json, --json-seq,\n"
		"-p/--pretty, -q/--quiet, before or after the command.\n");
}

struct dec_out {
	FILE *f;
	bool json;
	uint32_t fmt_flags;
	char *buf;
	size_t size;
	bool failed;
};

static int emit_text(struct dec_out *o, int need, int (*fmt)(char *, size_t, const void *),
		     const void *arg)
{
	if (need < 0)
		return 0;
	if ((size_t)need >= o->size) {
		size_t size = (size_t)need + 1024;
		char *b = realloc(o->buf, size);

		if (!b) {
			o->failed = true;
			return -ENOMEM;
		}
		o->buf = b;
		o->size = size;
		need = fmt(o->buf, o->size, arg);
	}
	if (o->json)
		cli_json_record(o->f);
	if (fputs(o->buf, o->f) == EOF) {
		o->failed = true;
		return -EIO;
	}
	return 0;
}

static struct dec_out *cur_out;

static int fmt_packet(char *b, size_t n, const void *p)
{
	return cur_out->json ? kfdsig_format_packet_json(p, cur_out->fmt_flags, b, n)
			     : kfdsig_format_packet_text(p, cur_out->fmt_flags, b, n);
}

static int fmt_finding(char *b, size_t n, const void *f)
{
	return cur_out->json ? kfdsig_format_finding_json(f, b, n)
			     : kfdsig_format_finding_text(f, b, n);
}

static int on_packet(void *ctx, const struct kfdsig_packet *p)
{
	struct dec_out *o = ctx;

	cur_out = o;
	return emit_text(o, fmt_packet(o->buf, o->size, p), fmt_packet, p);
}

static int on_finding(void *ctx, const struct kfdsig_finding *f)
{
	struct dec_out *o = ctx;

	cur_out = o;
	return emit_text(o, fmt_finding(o->buf, o->size, f), fmt_finding, f);
}

enum input_kind { IN_AUTO, IN_BIN, IN_HEX };

/* Streaming hex-text parser: tokens may straddle read chunks. */
struct hex_parser {
	char tok[24];
	size_t ntok;
	bool comment;
	bool toolong;
	unsigned long line;
};

static bool hex_token(struct hex_parser *h, uint32_t *out)
{
	const char *s = h->tok;
	uint32_t v = 0;
	size_t n;

	h->tok[h->ntok] = '\0';
	n = h->ntok;
	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	/* Count by ntok, not strlen: a NUL byte inside a token is junk too. */
	if (h->toolong || n == 0 || n > 8)
		return false;
	for (; n; s++, n--) {
		int c = (unsigned char)*s, d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		v = v << 4 | (uint32_t)d;
	}
	*out = v;
	return true;
}

/* The token for a message: bytes that are not printable ASCII as \xNN, so
 * that binary junk cannot garble the terminal or cut the line. */
static const char *show_token(const struct hex_parser *h, char *out)
{
	char *o = out;

	for (size_t i = 0; i < h->ntok; i++) {
		unsigned char c = (unsigned char)h->tok[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			*o++ = (char)c;
		else
			o += sprintf(o, "\\x%02x", c);
	}
	*o = '\0';
	return out;
}

/* Parse @n bytes; append dwords to @dw (room for n/2+1). Return the count
 * or -1 on a bad token (message printed). */
static long hex_parse(struct hex_parser *h, const char *b, size_t n, uint32_t *dw, bool end)
{
	long k = 0;

	for (size_t i = 0; i <= n; i++) {
		int c = i < n ? (unsigned char)b[i] : (end ? '\n' : -1);

		if (c < 0)
			break;
		if (h->comment) {
			if (c == '\n') {
				h->comment = false;
				h->line++;
			}
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';' ||
		    c == '#') {
			if (h->ntok) {
				if (!hex_token(h, &dw[k])) {
					char shown[4 * sizeof(h->tok) + 1];

					cli_usage_error("input line %lu: '%s%s' is not a hex dword",
							h->line, show_token(h, shown),
							h->toolong ? "..." : "");
					return -1;
				}
				k++;
				h->ntok = 0;
				h->toolong = false;
			}
			if (c == '#')
				h->comment = true;
			if (c == '\n')
				h->line++;
			continue;
		}
		if (h->ntok < sizeof(h->tok) - 1)
			h->tok[h->ntok++] = (char)c;
		else
			h->toolong = true;
	}
	return k;
}

static bool looks_like_text(const unsigned char *b, size_t n)
{
	if (!n)
		return true;
	for (size_t i = 0; i < n; i++)
		if (!(b[i] == '\n' || b[i] == '\r' || b[i] == '\t' ||
		      (b[i] >= 0x20 && b[i] < 0x7f)))
			return false;
	return true;
}

#define CHUNK 65536

static int run(FILE *in, enum input_kind kind, struct kfdsig_decoder *d)
{
	static unsigned char bytes[CHUNK + 4];
	static uint32_t dw[CHUNK / 2 + 2];
	struct hex_parser hp = { .line = 1 };
	size_t carry = 0, n;
	bool first = true;

	for (;;) {
		n = fread(bytes + carry, 1, CHUNK, in);
		if (n == 0 && ferror(in))
			return cli_error("read error: %s", strerror(errno));
		if (first && kind == IN_AUTO)
			kind = looks_like_text(bytes, n < 4096 ? n : 4096) ? IN_HEX : IN_BIN;
		first = false;
		if (kind == IN_HEX) {
			long k = hex_parse(&hp, (const char *)bytes, n, dw, n == 0);

			if (k < 0)
				return EXIT_USAGE;
			if (kfdsig_decoder_feed(d, dw, (size_t)k))
				return EXIT_FAILURE;
		} else {
			size_t total = carry + n, nd = total / 4;

			for (size_t i = 0; i < nd; i++)
				dw[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 |
					(uint32_t)bytes[4 * i + 2] << 16 |
					(uint32_t)bytes[4 * i + 3] << 24;
			carry = total - nd * 4;
			memmove(bytes, bytes + nd * 4, carry);
			if (kfdsig_decoder_feed(d, dw, nd))
				return EXIT_FAILURE;
			if (n == 0 && carry)
				return cli_usage_error("input ends with %zu stray byte(s): binary "
						       "input must be whole little-endian dwords",
						       carry);
		}
		if (n == 0)
			return 0;
	}
}

enum { OPT_SIGNAL_PAGE = 256 };

const struct option cmd_decode_options[] = {
	{ "target", required_argument, NULL, 't' },
	{ "engine", required_argument, NULL, 'E' },
	{ "format", required_argument, NULL, 'f' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "lint", no_argument, NULL, 'l' },
	{ "signal-page", required_argument, NULL, OPT_SIGNAL_PAGE },
	{ "input", required_argument, NULL, 'i' },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_decode_shortopts[] = "t:E:f:vli:" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_decode_complete[] = {
	{ "target", "@target" },     { "engine", "pm4 sdma" }, { "format", "text json" },
	{ "input", "auto bin hex" }, { "", "@file" },	       { 0 },
};

int cmd_decode(int argc, char **argv)
{
	struct kfdsig_decode_opts o = { 0 };
	struct dec_out out = { .f = stdout };
	struct kfdsig_decode_sink sink = { &out, on_packet, on_finding };
	struct kfdsig_decode_stats st = { 0 };
	enum input_kind kind = IN_AUTO;
	const char *target = NULL, *path;
	struct kfdsig_decoder *d;
	struct stat sb;
	FILE *in;
	long errs;
	int c, ret;

	while ((c = getopt_long(argc, argv, cmd_decode_shortopts, cmd_decode_options, NULL)) !=
	       -1) {
		if (cli_global_opt(c, optarg))
			continue;
		switch (c) {
		case 't':
			target = optarg;
			break;
		case 'E':
			if (!strcmp(optarg, "pm4"))
				o.engine = KFDSIG_ENGINE_PM4;
			else if (!strcmp(optarg, "sdma"))
				o.engine = KFDSIG_ENGINE_SDMA;
			else
				return cli_usage_error("--engine: '%s' is not one of pm4, sdma",
						       optarg);
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
			out.fmt_flags |= KFDSIG_FORMAT_RAW;
			break;
		case 'l':
			o.flags |= KFDSIG_DECODE_LINT;
			break;
		case OPT_SIGNAL_PAGE:
			if (!cli_parse_u64("--signal-page", optarg, UINT64_MAX, &o.signal_page_va))
				return EXIT_USAGE;
			o.flags |= KFDSIG_DECODE_SIGNAL_PAGE;
			break;
		case 'i':
			if (!strcmp(optarg, "auto"))
				kind = IN_AUTO;
			else if (!strcmp(optarg, "bin"))
				kind = IN_BIN;
			else if (!strcmp(optarg, "hex"))
				kind = IN_HEX;
			else
				return cli_usage_error("--input: '%s' is not one of auto, bin, hex",
						       optarg);
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (cli_json())
		out.json = true;
	out.f = stdout;
	if (!target)
		return cli_usage_error("--target is required (kfdsig targets lists them)");
	if (optind >= argc)
		return cli_usage_error("give the stream to decode: a FILE, or - for stdin");
	if (optind + 1 < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind + 1]);
	if ((o.flags & KFDSIG_DECODE_SIGNAL_PAGE) && !(o.flags & KFDSIG_DECODE_LINT))
		return cli_usage_error("--signal-page only matters with --lint");
	if (!(o.target = cli_target(target)))
		return EXIT_USAGE;
	path = argv[optind];
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
	out.size = 4096;
	out.buf = malloc(out.size);
	d = out.buf ? kfdsig_decoder_new(&o, &sink) : NULL;
	if (!d) {
		ret = cli_error("%s", out.buf ? kfdsig_last_error() : "out of memory");
		free(out.buf);
		if (in != stdin)
			fclose(in);
		return ret;
	}
	ret = run(in, kind, d);
	/* After an input error, do not report the half-read tail as truncated. */
	errs = ret ? 0 : kfdsig_decoder_finish(d, &st);
	kfdsig_decoder_free(d);
	if (in != stdin)
		fclose(in);
	free(out.buf);
	if (fflush(stdout) == EOF || out.failed)
		return cli_error("write error");
	if (ret)
		return ret;
	/* Nothing to decode is almost always the wrong file or a failed
	 * producer upstream of a pipe: say so rather than succeed silently. */
	if (!st.packets)
		return cli_usage_error(
			"%s%s%s holds no dwords: nothing to decode", in == stdin ? "" : "'",
			in == stdin ? "standard input" : path, in == stdin ? "" : "'");
	return errs ? EXIT_FAILURE : 0;
}
