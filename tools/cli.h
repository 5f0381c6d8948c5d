/* SPDX-License-Identifier: MIT */
/* Shared helpers of the kfdsig command-line tool. */
#ifndef KFDSIG_TOOLS_CLI_H
#define KFDSIG_TOOLS_CLI_H

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

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

extern const char *cli_prog; /* "kfdsig emit" while a command runs */

/* Print "kfdsig CMD: message" to stderr; return EXIT_USAGE / EXIT_FAILURE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse a whole unsigned number (decimal, 0x hex, 0 octal) into *out.
 * Return false (and print a usage error naming @what) when it is not one or
 * exceeds @max. */
bool cli_parse_u64(const char *what, const char *s, uint64_t max, uint64_t *out);

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

int cmd_targets(int argc, char **argv);
int cmd_emit(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_smi(int argc, char **argv);
int cmd_signal(int argc, char **argv);
int cmd_shader(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_exec(int argc, char **argv);

#endif
