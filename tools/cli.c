/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/escape.h"

const char *cli_prog = "kfdsig";
const struct cmd *cli_cmds;
size_t cli_ncmds;

static void vmsg(const char *fmt, va_list ap)
{
	char msg[1024];
	const unsigned char *p = (const unsigned char *)msg;
	size_t n;

	/* The message echoes what the user typed: a control byte (ESC would
	 * drive the terminal) or a byte that is not UTF-8 is written as \xNN */
	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "%s: ", cli_prog);
	for (n = strlen(msg); n;) {
		size_t len = esc_utf8_len(p, n);

		if (!len || (len == 1 && ((*p < 0x20 && *p != '\t') || *p == 0x7f))) {
			fprintf(stderr, "\\x%02x", *p);
			len = 1;
		} else {
			fwrite(p, 1, len, stderr);
		}
		p += len;
		n -= len;
	}
	fputc('\n', stderr);
}

/* An error: with --json one JSON object on stderr, {"error": "..."}. */
static void verr(const char *fmt, va_list ap)
{
	char msg[1024];

	if (!cli_g.json) {
		vmsg(fmt, ap);
		return;
	}
	vsnprintf(msg, sizeof(msg), fmt, ap);
	fputs("{\"error\": \"", stderr);
	esc_fputs(stderr, ESC_JSON, cli_prog);
	fputs(": ", stderr);
	esc_fputs(stderr, ESC_JSON, msg);
	fputs("\"}\n", stderr);
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(fmt, ap);
	va_end(ap);
	return EXIT_FAILURE;
}

/* @s within @min..@max; a refusal names @say_min..@say_max, the range that
 * matters to the user (cli_parse_event()). */
static bool parse_range(const char *what, const char *s, uint64_t min, uint64_t max,
			uint64_t say_min, uint64_t say_max, uint64_t *out)
{
	const char *digits = s;
	unsigned long long v;
	int base = 10;
	char *end;

	/* Decimal, or hexadecimal after 0x; a leading 0 is not octal ("010" is
	 * ten, as a person reading it expects). strtoull() would also skip
	 * white space and negate a '-', so "\t-2" would parse as 2^64 - 2:
	 * only digits are let through. */
	if (s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		digits = s + 2;
		base = 16;
	}
	if (s && s[0] == '-' && isdigit((unsigned char)s[1])) {
		cli_usage_error("%s %s: want %llu to %llu", what, s, (unsigned long long)say_min,
				(unsigned long long)say_max);
		return false;
	}
	if (!s ||
	    !(base == 16 ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits))) {
		cli_usage_error("%s: '%s' is not a number", what, s ? s : "");
		return false;
	}
	errno = 0;
	v = strtoull(digits, &end, base);
	if (errno == ERANGE && !*end) {
		cli_usage_error("%s %s: want %llu to %llu", what, s, (unsigned long long)say_min,
				(unsigned long long)say_max);
		return false;
	}
	if (errno || *end) {
		cli_usage_error("%s: '%s' is not a number", what, s);
		return false;
	}
	if (v < min || v > max) {
		cli_usage_error("%s %s: want %llu to %llu", what, s, (unsigned long long)say_min,
				(unsigned long long)say_max);
		return false;
	}
	*out = v;
	return true;
}

bool cli_parse_range(const char *what, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return parse_range(what, s, min, max, min, max, out);
}

bool cli_parse_event(const char *s, uint32_t *out)
{
	uint64_t v;

	if (!parse_range("--event", s, 0, UINT32_MAX, 1, 4095, &v))
		return false;
	*out = (uint32_t)v;
	return true;
}

bool cli_parse_u64(const char *what, const char *s, uint64_t max, uint64_t *out)
{
	return cli_parse_range(what, s, 0, max, out);
}

const struct kfdsig_target *cli_target(const char *name)
{
	const struct kfdsig_target *t = kfdsig_target_by_name(name);

	if (!t)
		cli_usage_error("%s", kfdsig_last_error());
	return t;
}

bool cli_parse_format(const char *s, enum cli_format *out)
{
	static const char *const names[] = {
		[FMT_HEX] = "hex",   [FMT_ANNOTATED] = "annotated",
		[FMT_JSON] = "json", [FMT_BIN] = "bin",
		[FMT_C] = "c",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum cli_format)i;
			return true;
		}
	}
	cli_usage_error("--format: '%s' is not one of hex, annotated, json, bin, c", s);
	return false;
}

FILE *cli_open_output(const char *path, bool binary)
{
	FILE *f;

	if (!path || !strcmp(path, "-")) {
		if (binary && isatty(STDOUT_FILENO)) {
			cli_usage_error(
				"refusing to write binary to a terminal; use -o FILE or a pipe");
			return NULL;
		}
		return stdout;
	}
	f = fopen(path, binary ? "wb" : "w");
	if (!f)
		cli_error("cannot open '%s' for writing: %s", path, strerror(errno));
	return f;
}

/* Why writing to @fd failed when the failing write was an earlier one
 * (errno long overwritten): a closed descriptor says so, else EIO. */
static int write_errno(int fd)
{
	return fd >= 0 && fcntl(fd, F_GETFD) < 0 && errno == EBADF ? EBADF : EIO;
}

int cli_close_output(FILE *f)
{
	int bad = ferror(f), fd = fileno(f);

	errno = 0;
	if (f == stdout)
		bad |= fflush(f);
	else
		bad |= fclose(f);
	if (bad)
		return cli_error("write error: %s",
				 strerror(errno ? errno : write_errno(f == stdout ? fd : -1)));
	return 0;
}

bool cli_write_le(FILE *f, const uint32_t *dw, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char b[4] = { (unsigned char)dw[i], (unsigned char)(dw[i] >> 8),
				       (unsigned char)(dw[i] >> 16), (unsigned char)(dw[i] >> 24) };
		if (fwrite(b, 1, 4, f) != 4)
			return false;
	}
	return true;
}

void cli_json_str(FILE *f, const char *s)
{
	esc_json_fputs(f, s);
}

struct cli_globals cli_g;

bool cli_global_opt(int c, const char *arg)
{
	switch (c) {
	case CLI_OPT_EMULATE:
		cli_g.emulate = arg;
		return true;
	case 'j':
		cli_g.json = true;
		return true;
	case CLI_OPT_JSON_SEQ:
		cli_g.json = cli_g.json_seq = true;
		return true;
	case 'p':
		cli_g.json = cli_g.pretty = true;
		return true;
	case 'q':
		cli_g.quiet = true;
		return true;
	}
	return false;
}

/* Options that take a value and may be given more than once: each adds one
 * (decode --mem ADDR=FILE, emit --wait ADDR=VALUE). Any other option with a value keeps one. */
static const char *const repeatable[] = { "mem", "wait" };

/* A second value of a single-valued option: say so (the last one silently
 * winning would run with what the user did not mean). Return false then. */
static bool once(int c, const char *arg, const struct option *longopts)
{
	static const char *first[CLI_OPT_KERNEL_PROFILE + 1];
	const struct option *o = NULL;
	char shortname[8] = "";

	for (const struct option *l = longopts; l->name; l++)
		if (l->val == c && !l->flag) {
			o = l;
			break;
		}
	if (!o || o->has_arg != required_argument || c < 0 || c > CLI_OPT_KERNEL_PROFILE)
		return true;
	for (size_t i = 0; i < sizeof(repeatable) / sizeof(repeatable[0]); i++)
		if (!strcmp(o->name, repeatable[i]))
			return true;
	if (c == CLI_OPT_EMULATE && cli_g.emulate && !first[c])
		first[c] = cli_g.emulate; /* given before the command */
	if (!first[c]) {
		first[c] = arg;
		return true;
	}
	if (c < 0x80 && isalnum(c))
		snprintf(shortname, sizeof(shortname), "-%c/", c);
	cli_usage_error("%s--%s given twice ('%s', then '%s'): give it once", shortname, o->name,
			first[c], arg);
	return false;
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	int c;

	/* Under --json getopt_long() must not print: the refusal is said
	 * here, as JSON (every error under -j is) */
	opterr = !cli_g.json;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == '?' && cli_g.json) {
			if (optopt)
				cli_usage_error("bad option or missing argument: -%c", optopt);
			else
				cli_usage_error("bad option or missing argument: %s",
						optind > 0 && optind <= argc ? argv[optind - 1]
									     : "?");
			return '?';
		}
		if (!once(c, optarg, longopts))
			return '?';
		if (!cli_global_opt(c, optarg))
			break;
	}
	return c;
}

int cli_opt_default(int c, void (*help)(FILE *f))
{
	if (c == 'h') {
		help(stdout);
		return 0;
	}
	return EXIT_USAGE; /* getopt_long() has said what was wrong */
}

int cli_no_operands(int argc, char **argv)
{
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);
	return 0;
}

void cli_note(const char *fmt, ...)
{
	va_list ap;

	if (cli_g.quiet)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void cli_help_exit(FILE *f, const char *what_fails)
{
	fprintf(f,
		"\nExit status: 0 on success; 1 %s; 2 for bad arguments or input.\n"
		"Global options (kfdsig --help): --emulate SPEC, -j/--json, --json-seq,\n"
		"-p/--pretty, -q/--quiet, before or after the command.\n",
		what_fails);
}

/*
 * --pretty: a filter on stdout that re-indents the compact JSON the
 * commands print, as it streams (JSON Lines stay one record per block).
 * Whitespace outside strings is dropped and regenerated.
 */
struct pretty {
	FILE *out;
	int depth;
	bool in_str, esc, open; /* open: a '{' or '[' waits for its first member */
	char open_ch;
};

static void pretty_nl(struct pretty *p, int depth)
{
	fputc('\n', p->out);
	for (int i = 0; i < depth; i++)
		fputs("  ", p->out);
}

static ssize_t pretty_write(void *cookie, const char *buf, size_t n)
{
	struct pretty *p = cookie;

	for (size_t i = 0; i < n; i++) {
		char ch = buf[i];

		if (p->in_str) {
			fputc(ch, p->out);
			if (p->esc)
				p->esc = false;
			else if (ch == '\\')
				p->esc = true;
			else if (ch == '"')
				p->in_str = false;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\r')
			continue;
		if (ch == '\n') {
			if (p->depth == 0 && !p->open)
				fputc('\n', p->out);
			continue;
		}
		if (p->open) {
			p->open = false;
			fputc(p->open_ch, p->out);
			if (ch == '}' || ch == ']') {
				fputc(ch, p->out);
				continue;
			}
			p->depth++;
			pretty_nl(p, p->depth);
		}
		switch (ch) {
		case '{':
		case '[':
			p->open = true;
			p->open_ch = ch;
			break;
		case '}':
		case ']':
			p->depth = p->depth > 0 ? p->depth - 1 : 0;
			pretty_nl(p, p->depth);
			fputc(ch, p->out);
			break;
		case ',':
			fputc(',', p->out);
			pretty_nl(p, p->depth);
			break;
		case ':':
			fputs(": ", p->out);
			break;
		case '"':
			p->in_str = true;
			fputc(ch, p->out);
			break;
		default:
			fputc(ch, p->out);
		}
	}
	if (fflush(p->out) || ferror(p->out)) {
		errno = errno ? errno : EIO;
		return -1; /* the cookie stream reports it to the command */
	}
	return (ssize_t)n;
}

static int pretty_close(void *cookie)
{
	struct pretty *p = cookie;

	return fclose(p->out);
}

static int pretty_keep(void *cookie)
{
	struct pretty *p = cookie;
	int r = fflush(p->out);

	free(p);
	return r;
}

FILE *cli_pretty_wrap(FILE *out)
{
	cookie_io_functions_t io = { .write = pretty_write, .close = pretty_keep };
	struct pretty *p = calloc(1, sizeof(*p));
	FILE *f;

	if (!p)
		return NULL;
	p->out = out;
	f = fopencookie(p, "w", io);
	if (!f)
		free(p);
	return f;
}

bool cli_json(void)
{
	static bool installed;

	if (!cli_g.json)
		return false;
	if (cli_g.pretty && !installed) {
		cookie_io_functions_t io = { .write = pretty_write, .close = pretty_close };
		static struct pretty state; /* lives until exit: no close at exit */
		struct pretty *p = &state;
		int fd = dup(STDOUT_FILENO);
		FILE *f;

		installed = true;
		if (fd < 0 || !(p->out = fdopen(fd, "w")))
			return true; /* compact, then */
		fflush(stdout);
		f = fopencookie(p, "w", io);
		if (f)
			stdout = f;
	}
	return true;
}

static int stdout_errno;	/* of the first failed cli_flush_stdout() */
static const char *stdout_name; /* cli_stdout_name() */

void cli_flush_stdout(void)
{
	errno = 0;
	if ((fflush(stdout) != 0 || ferror(stdout)) && !stdout_errno)
		stdout_errno = errno ? errno : write_errno(STDOUT_FILENO);
}

void cli_stdout_name(const char *name)
{
	stdout_name = name;
}

int cli_finish(int status)
{
	int bad;

	errno = 0;
	bad = fflush(stdout) != 0 || ferror(stdout);
	if (bad && !status) {
		int e = stdout_errno ? stdout_errno : errno ? errno : write_errno(STDOUT_FILENO);

		if (stdout_name)
			return cli_error("write error on '%s': %s", stdout_name, strerror(e));
		return cli_error("write error on standard output: %s", strerror(e));
	}
	return status;
}

void cli_json_record(FILE *f)
{
	if (cli_g.json_seq)
		fputc(0x1e, f);
}
