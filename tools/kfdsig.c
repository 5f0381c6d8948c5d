/* SPDX-License-Identifier: MIT */
/*
 * kfdsig: the command-line tool. A thin main over a command table; every
 * command lives in its own cmd_*.c and all the work is in the library.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct cmd cmds[] = {
	{ "targets", cmd_targets, "list the GPU targets and their signalling facts" },
	{ "emit", cmd_emit, "write a fence-with-interrupt packet sequence" },
	{ "decode", cmd_decode, "decode and lint a PM4 or SDMA packet stream" },
	{ "devices", cmd_devices, "list the KFD GPUs with their target and versions" },
	{ "smi", cmd_smi, "print KFD SMI events live" },
	{ "signal", cmd_signal, "make the GPU signal a KFD event and wait for it" },
	{ "shader", cmd_shader, "print a shader s_sendmsg signal stub (asm, bytes, code object)" },
	{ "test", cmd_test, "run the interrupt-path suite (PASS/FAIL/SKIP per case)" },
	{ "bench", cmd_bench,
	  "measure fence emission, the slow path, wake-up latency, throughput" },
	{ "exec", cmd_exec, "run a KFD client program on the emulated KFD (LD_PRELOAD)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: kfdsig [--version] [--help] [--emulate SPEC] COMMAND [ARGS]\n\n"
		   "Make AMD GPUs signal KFD events: emit, dump and check the packets that\n"
		   "write a KFD signal slot and raise the interrupt that wakes WAIT_EVENTS.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f,
		"\n'kfdsig COMMAND --help' describes a command. A command may be shortened\n"
		"to any unambiguous prefix.\n\n"
		"--emulate SPEC (or KFDSIG_EMULATE=SPEC) runs the KFD commands on an\n"
		"emulated KFD: SPEC = TARGET[,TARGET...][,kfd=1.N][,profile=v6.14][,privileged]\n");
}

int main(int argc, char **argv)
{
	const struct cmd *found = NULL;
	static char prog[64];
	size_t len;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* "kfdsig help CMD" is "kfdsig CMD --help". */
	if (!strcmp(argv[1], "help") && argc >= 3) {
		argv[1] = argv[2];
		argv[2] = (char *)"--help";
		argc = 3;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--emulate")) {
		if (argc < 4)
			return cli_usage_error("--emulate needs a SPEC and a command");
		setenv("KFDSIG_EMULATE", argv[2], 1);
		argv[2] = argv[0];
		argc -= 2;
		argv += 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("kfdsig %s (library %s)\n", KFDSIG_VERSION_STRING_HEADERS,
		       kfdsig_version_string());
		return 0;
	}
	len = strlen(argv[1]);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (!strcmp(cmds[i].name, argv[1])) {
			found = &cmds[i];
			break;
		}
		if (len && !strncmp(cmds[i].name, argv[1], len)) {
			if (found)
				return cli_usage_error("'%s' is ambiguous: %s or %s?", argv[1],
						       found->name, cmds[i].name);
			found = &cmds[i];
		}
	}
	if (!found)
		return cli_usage_error("unknown command '%s' (kfdsig --help lists them)", argv[1]);
	snprintf(prog, sizeof(prog), "kfdsig %s", found->name);
	cli_prog = prog;
	argv[1] = prog;
	return found->fn(argc - 1, argv + 1);
}
