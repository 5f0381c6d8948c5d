/* SPDX-License-Identifier: MIT */
/* Shared helpers of the kfdsig command-line tool. */
#ifndef KFDSIG_TOOLS_CLI_H
#define KFDSIG_TOOLS_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <kfdsig/kfdsig.h>

/* Exit codes: 0 success, 1 failure, 2 usage (bad arguments or input). */
#define EXIT_USAGE 2

#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)
#define KFDSIG_VERSION_STRING_HEADERS \
	CLI_STR(KFDSIG_VERSION_MAJOR) \
	"." CLI_STR(KFDSIG_VERSION_MINOR) "." CLI_STR(KFDSIG_VERSION_PATCH)

/*
 * One CLI grammar (bpftool's main.c is the model). Global options are
 * parsed once before the command and again, in any place, by every
 * command: --emulate[=]SPEC, -j/--json, --json-seq, -p/--pretty,
 * -q/--quiet, -h/--help, and "--" ends the options.
 *
 * A command is one entry of the table in kfdsig.c (CLI_CMD(name, summary))
 * and, in its cmd_NAME.c, four definitions declared by CLI_CMD_DECLARE:
 *   int cmd_NAME(int argc, char **argv);
 *   const struct option cmd_NAME_options[];   its getopt_long table, ending
 *                                            with CLI_GLOBAL_LONGOPTS, { 0 }
 *   const char cmd_NAME_shortopts[];          its short options, then
 *                                            CLI_GLOBAL_SHORTOPTS
 *   const struct cli_complete cmd_NAME_complete[];  what option values and
 *                                            operands complete to, { 0 }-ended
 * An option is one entry of cmd_NAME_options (plus one of
 * cmd_NAME_complete when its value can be completed): the bash completion
 * (kfdsig completion bash) and the man-page test read these tables.
 *
 * Short options mean one thing everywhere: -t target, -e event, -E engine,
 * -c count, -T timeout, -g gpu, -d device, -f format, -o output,
 * -v verbose, -l lint, -i input; -j json, -p pretty, -q quiet, -h help.
 */
struct cli_globals {
	const char *emulate; /* --emulate SPEC (NULL: KFDSIG_EMULATE, then /dev/kfd) */
	bool json;	     /* -j/--json (or --format json) */
	bool json_seq;	     /* --json-seq: RFC 7464 records for streamed output */
	bool pretty;	     /* -p/--pretty: indented JSON (implies --json) */
	bool quiet;	     /* -q/--quiet: no notes, progress or banners on stderr */
};
extern struct cli_globals cli_g;

/* getopt values of the global long-only options (above any short option
 * and any command's own OPT_* values). */
enum { CLI_OPT_EMULATE = 0x1000, CLI_OPT_JSON_SEQ, CLI_OPT_KFD_VERSION, CLI_OPT_KERNEL_PROFILE };

#define CLI_GLOBAL_LONGOPTS                                                                \
	{ "emulate", required_argument, NULL, CLI_OPT_EMULATE },                           \
		{ "json", no_argument, NULL, 'j' },                                        \
		{ "json-seq", no_argument, NULL, CLI_OPT_JSON_SEQ },                       \
		{ "pretty", no_argument, NULL, 'p' }, { "quiet", no_argument, NULL, 'q' }, \
	{                                                                                  \
		"help", no_argument, NULL, 'h'                                             \
	}
#define CLI_GLOBAL_SHORTOPTS "jpqh"
#define CLI_GLOBAL_NOPTS 6 /* entries of CLI_GLOBAL_LONGOPTS */

/* Take a global option out of a command's getopt loop: true when @c was one
 * (other than -h, which each command answers with its help). */
bool cli_global_opt(int c, const char *arg);

/*
 * The option loop every command runs, written once:
 *
 *	while ((c = cli_getopt(argc, argv, cmd_X_shortopts, cmd_X_options)) != -1) {
 *		switch (c) {
 *		... the command's own options ...
 *		default:
 *			return cli_opt_default(c, help);
 *		}
 *	}
 *	if ((r = cli_no_operands(argc, argv)))   (a command without operands)
 *		return r;
 *
 * cli_getopt(): getopt_long() with the global options taken (cli_global_opt());
 * the next option that is the command's own, or -1 after the last.
 * cli_opt_default(): -h prints @help on stdout and gives 0; any other value
 * (an unknown option or a missing value, which getopt_long() has reported)
 * gives EXIT_USAGE. The command returns what it gives.
 * cli_no_operands(): 0, or a usage error naming the first operand.
 */
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);
int cli_opt_default(int c, void (*help)(FILE *f));
int cli_no_operands(int argc, char **argv);

/* True when the command prints JSON; installs the --pretty filter on stdout
 * the first time. */
bool cli_json(void);
/* A stream that re-indents the compact JSON written to it (--pretty) into
 * @out; closing it flushes @out and leaves it open. NULL + errno. */
FILE *cli_pretty_wrap(FILE *out);
/* Start one record of a streamed JSON output (JSON Lines; an RS byte
 * first with --json-seq). */
void cli_json_record(FILE *f);
/* Print a note on stderr unless --quiet. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What a value completes to: space-separated words, or one of "@target"
 * (the generation table's names), "@case" (kfdsig test --list), "@file",
 * "@smi-event" (the SMI event names). opt: a long option's name, or "" for
 * the command's operands. */
struct cli_complete {
	const char *opt;
	const char *values;
};

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const struct option *options;
	const char *shortopts;
	const struct cli_complete *complete;
};

#define CLI_CMD_DECLARE(name)                              \
	int cmd_##name(int argc, char **argv);             \
	extern const struct option cmd_##name##_options[]; \
	extern const char cmd_##name##_shortopts[];        \
	extern const struct cli_complete cmd_##name##_complete[]
#define CLI_CMD(name, summary)                                                            \
	{                                                                                 \
#name, cmd_##name, summary, cmd_##name##_options, cmd_##name##_shortopts, \
			cmd_##name##_complete                                             \
	}

/* The command table: kfdsig.c's, set by main() before any command runs
 * (kept in cli.c so that the commands reading it, like completion, do not
 * depend on kfdsig.c, which depends on every command). */
extern const struct cmd *cli_cmds;
extern size_t cli_ncmds;

extern const char *cli_prog; /* "kfdsig emit" while a command runs */

/* Print "kfdsig CMD: message" to stderr; return EXIT_USAGE / EXIT_FAILURE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse a whole unsigned number (decimal, 0x hex, 0 octal) into *out.
 * Return false (and print a usage error naming @what) when it is not one or
 * exceeds @max. */
bool cli_parse_u64(const char *what, const char *s, uint64_t max, uint64_t *out);
/* cli_parse_u64() within @min..@max; every refusal in one style:
 * "--count -5: want 1 to 1000000". */
bool cli_parse_range(const char *what, const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* --event of emit and shader: any 32-bit id (the library refuses 0 and ids
 * from 4096 with the kernel's reason, or lets them through under
 * --deliberately-bad); a negative one names the ids the kernel signals. */
bool cli_parse_event(const char *s, uint32_t *out);

/* Look a target up; print the library's reason when unknown. */
const struct kfdsig_target *cli_target(const char *name);

/* Output formats shared by the emitters. */
enum cli_format { FMT_HEX, FMT_ANNOTATED, FMT_JSON, FMT_BIN, FMT_C };
bool cli_parse_format(const char *s, enum cli_format *out);

/* Open the output (NULL or "-" = stdout); binary output refuses a TTY. */
FILE *cli_open_output(const char *path, bool binary);
int cli_close_output(FILE *f);

/* Write dwords little-endian. Return false on I/O error. */
bool cli_write_le(FILE *f, const uint32_t *dw, size_t n);

/* Print a JSON string literal with escapes. */
void cli_json_str(FILE *f, const char *s);

/* KFD for a command: real, or emulated (--emulate SPEC / KFDSIG_EMULATE). */
struct cli_kfd {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
};
/* Return 0, or the exit code after printing the error. */
int cli_kfd_open(const char *emulate, struct cli_kfd *c);
void cli_kfd_close(struct cli_kfd *c);
/* kfdsig_kfd_open() failed on the real KFD: print its reason and how to
 * use --emulate instead; return EXIT_FAILURE. */
int cli_no_kfd_error(void);

/* The devices of kfdsig test and bench (src/suite/suite.h): allocate and
 * open them into *@out. Return 0, or the exit code after printing the
 * error. */
struct suite_dev_opts;
struct suite_devset;
int cli_suite_devices(const struct suite_dev_opts *o, struct suite_devset **out);

/* The device options of test and bench: -d/--device N, -g/--gpu GPU_ID,
 * --kfd-version X.Y, --kernel-profile NAME (their long options, short
 * options and completions below). cli_suite_dev_opt(), the default of the
 * option loop: -1 when @c was one of them (stored in @o: go on), else the
 * exit code (a usage error, or cli_opt_default(@c, @help)). */
#define CLI_SUITE_DEV_LONGOPTS                                                               \
	{ "device", required_argument, NULL, 'd' }, { "gpu", required_argument, NULL, 'g' }, \
		{ "kfd-version", required_argument, NULL, CLI_OPT_KFD_VERSION },             \
	{                                                                                    \
		"kernel-profile", required_argument, NULL, CLI_OPT_KERNEL_PROFILE            \
	}
#define CLI_SUITE_DEV_SHORTOPTS "d:g:"
#define CLI_SUITE_DEV_COMPLETE                                           \
	{ "kfd-version", "1.2 1.3 1.13 1.14 1.16 1.18" },                \
	{                                                                \
		"kernel-profile", "default v6.14 v7.1 v7.3 mailbox-free" \
	}
int cli_suite_dev_opt(int c, const char *arg, struct suite_dev_opts *o, void (*help)(FILE *f));
void cli_suite_devices_close(struct suite_devset *s);

CLI_CMD_DECLARE(targets);
CLI_CMD_DECLARE(emit);
CLI_CMD_DECLARE(decode);
CLI_CMD_DECLARE(devices);
CLI_CMD_DECLARE(smi);
CLI_CMD_DECLARE(signal);
CLI_CMD_DECLARE(shader);
CLI_CMD_DECLARE(test);
CLI_CMD_DECLARE(bench);
CLI_CMD_DECLARE(completion);
CLI_CMD_DECLARE(exec);
CLI_CMD_DECLARE(debug);
CLI_CMD_DECLARE(trace);

/* cmd_exec.c: set LD_PRELOAD and KFDSIG_EMULATE for a client of the
 * emulated KFD (@spec NULL: --emulate, KFDSIG_EMULATE, else gfx90a).
 * Return 0, or the exit code after printing the error. */
int cli_exec_env(const char *spec);

/* After the command: flush stdout (through the --pretty filter) and turn a
 * write error a command did not report into "write error" and exit 1.
 * Return the exit code. */
int cli_finish(int status);

/* Flush stdout now, keeping the errno of the first failed flush for
 * cli_finish()'s message (stdio does not keep it). For commands that write
 * records as they happen. */
void cli_flush_stdout(void);

/* What cli_finish() calls stdout in its write error: @name (a file -o
 * named, which a command put in stdout's place), NULL for "standard
 * output". The string must outlive the command. */
void cli_stdout_name(const char *name);

/* The EXIT STATUS paragraph every help ends with: @what_fails says when
 * the command exits 1. */
void cli_help_exit(FILE *f, const char *what_fails);

#endif
