/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the kfdsig command line: the input is an
 * argument vector (NUL-separated words) handed to the tool's own main() in
 * process, so the global grammar, every option table and every number,
 * target, format and emulation-spec parser of the commands below see
 * arbitrary words. The command word comes from an allow list (targets,
 * emit, decode, shader, devices and the help and version forms, each also
 * after a global --emulate SPEC): the others run the whole suite, wait for
 * events or run programs. Words holding a '/' become "-" (standard input,
 * /dev/null here) so no file outside the scratch directory the fuzzer runs
 * in is read or written. Standard output goes to /dev/null; run with
 * -close_fd_mask=2 to silence the tool's error messages as well.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int kfdsig_tool_main(int argc, char **argv); /* tools/kfdsig.c's main */

extern int optind;

#define MAX_ARGS 24

static const char *const commands[] = { "targets", "emit",   "decode",	  "shader", "devices",
					"help",	   "--help", "--version", "-h",	    "-V" };
#define NCMD (sizeof(commands) / sizeof(commands[0]))

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char *args[256], prefix[4200];
	char dir[] = "/tmp/kfdsig-cli-fuzz-XXXXXX", cwd[4096];
	int fd, n = 0;
	FILE *f;

	/* The fuzzer runs in a scratch directory: corpus paths become
	 * absolute and crash files go where it was started. */
	if (!getcwd(cwd, sizeof(cwd)) || *argc >= 250)
		abort();
	for (int i = 0; i < *argc; i++) {
		char *a = (*argv)[i], *abs;
		if (i && a[0] != '-' && (abs = realpath(a, NULL)))
			a = abs;
		args[n++] = a;
	}
	snprintf(prefix, sizeof(prefix), "-artifact_prefix=%s/", cwd);
	args[n++] = prefix;
	args[n] = NULL;
	*argc = n;
	*argv = args;
	/* a scratch working directory with one input file for decode */
	if (!mkdtemp(dir) || chdir(dir))
		abort();
	f = fopen("in.hex", "w");
	if (!f)
		abort();
	fputs("c0064900 00238514 42000000 00000028 00007f00 00000001 00000000 00000005\n", f);
	fclose(f);
	fd = open("/dev/null", O_RDWR);
	if (fd < 0 || dup2(fd, STDIN_FILENO) < 0 || dup2(fd, STDOUT_FILENO) < 0)
		abort();
	close(fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[4096];
	char *argv[MAX_ARGS + 4];
	int argc = 0, spec = 0; /* spec: argv index still waiting for a SPEC */
	size_t n, i = 0;

	if (size < 2)
		return 0;
	argv[argc++] = (char *)"kfdsig";
	if (data[0] & 0x80) { /* the global --emulate SPEC form */
		argv[argc++] = (char *)"--emulate";
		spec = argc++; /* the first word below */
	}
	argv[argc++] = (char *)commands[data[1] % NCMD];
	n = size - 2 < sizeof(buf) - 1 ? size - 2 : sizeof(buf) - 1;
	memcpy(buf, data + 2, n);
	buf[n] = 0;
	while (i <= n && argc < MAX_ARGS + 3) {
		char *w = buf + i;
		size_t len = strlen(w);

		if (strchr(w, '/'))
			w = (char *)"-";
		if (spec) {
			argv[spec] = w;
			spec = 0;
		} else {
			argv[argc++] = w;
		}
		i += len + 1;
	}
	if (spec)
		argv[spec] = (char *)"gfx90a";
	argv[argc] = NULL;
	unsetenv("KFDSIG_EMULATE");
	optind = 0; /* glibc: reinitialise getopt for a new vector */
	kfdsig_tool_main(argc, argv);
	fflush(stdout);
	return 0;
}
