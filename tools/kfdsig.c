/* SPDX-License-Identifier: MIT */
/*
 * kfdsig: the command-line tool. A thin main over a command table; every
 * command lives in its own cmd_*.c and all the work is in the library.
 * Global options are parsed here, before the command, and again by each
 * command wherever they appear (cli.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A new command: one line here, CLI_CMD_DECLARE in cli.h, its cmd_*.c. */
static const struct cmd commands[] = {
	CLI_CMD(targets, "list the GPU targets and their signalling facts"),
	CLI_CMD(emit, "write a fence-with-interrupt packet sequence"),
	CLI_CMD(decode, "decode and lint a PM4, SDMA or AQL packet stream"),
	CLI_CMD(devices, "list the KFD GPUs with their target and versions"),
	CLI_CMD(smi, "print KFD SMI events live"),
	CLI_CMD(signal, "make the GPU signal a KFD event and wait for it"),
	CLI_CMD(shader, "print a shader s_sendmsg signal stub (asm, bytes, code object)"),
	CLI_CMD(test, "run the interrupt-path suite (PASS/FAIL/SKIP per case)"),
	CLI_CMD(bench, "measure fence emission, the slow path, wake-up latency, throughput"),
	CLI_CMD(completion, "print the bash completion script, or the command table"),
	CLI_CMD(exec, "run a KFD client program on the emulated KFD (LD_PRELOAD)"),
	CLI_CMD(debug, "debug a KFD process: print its queue exceptions as they arrive"),
	CLI_CMD(trace, "trace a program's KFD event traffic and catch lost and spinning waits"),
};

static void usage(FILE *f)
{
	fprintf(f, "usage: kfdsig [GLOBAL OPTIONS] COMMAND [ARGS]\n"
		   "       kfdsig help COMMAND | --version | --help\n\n"
		   "Make AMD GPUs signal KFD events: emit, dump and check the packets that\n"
		   "write a KFD signal slot and raise the interrupt that wakes WAIT_EVENTS.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < cli_ncmds; i++)
		fprintf(f, "  %-10s %s\n", cli_cmds[i].name, cli_cmds[i].summary);
	fprintf(f, "\n'kfdsig COMMAND --help' describes a command. A command may be shortened\n"
		   "to any unambiguous prefix.\n\n"
		   "global options (before or after the command):\n"
		   "      --emulate SPEC  run the KFD commands on an emulated KFD (also\n"
		   "                      KFDSIG_EMULATE=SPEC): SPEC = TARGET[,partition=\n"
		   "                      spx|dpx|tpx|qpx|cpx][,xcc=N][,TARGET...] or 'all'\n"
		   "                      (test, bench: every target)\n"
		   "                      [,kfd=1.N][,profile=v6.14|v7.1|v7.3][,privileged]\n"
		   "                      [,smi=EVENT[+EVENT...]] (SMI events raised when a\n"
		   "                      client enables them; kfdsig smi --help)\n"
		   "  -j, --json          JSON output: one document, or JSON Lines (one\n"
		   "                      record per line) for streamed output (decode, smi,\n"
		   "                      signal)\n"
		   "      --json-seq      streamed JSON as RFC 7464 records (RS before each)\n"
		   "  -p, --pretty        indented JSON (implies --json)\n"
		   "  -q, --quiet         no notes, banners or progress lines on stderr\n"
		   "  -h, --help          help; -V, --version: the versions\n"
		   "  --                  end of the options\n\n"
		   "Exit status: 0 on success; 1 when the command fails (each command's help\n"
		   "says when); 2 for bad arguments or input.\n");
}

static const struct option global_opts[] = {
	CLI_GLOBAL_LONGOPTS,
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

int main(int argc, char **argv)
{
	const struct cmd *found = NULL;
	static char prog[64];
	const char *name;
	size_t len;
	int c, r;

	cli_cmds = commands;
	cli_ncmds = sizeof(commands) / sizeof(commands[0]);
	/* "+": stop at the command; the command parses the rest. */
	opterr = 1;
	while ((c = getopt_long(argc, argv, "+" CLI_GLOBAL_SHORTOPTS "V", global_opts, NULL)) !=
	       -1) {
		if (cli_global_opt(c, optarg))
			continue;
		switch (c) {
		case 'h':
			usage(stdout);
			return cli_finish(0);
		case 'V':
			printf("kfdsig %s (library %s)\n", KFDSIG_VERSION_STRING_HEADERS,
			       kfdsig_version_string());
			return cli_finish(0);
		default:
			return cli_usage_error("see 'kfdsig --help'");
		}
	}
	if (cli_g.emulate && !*cli_g.emulate)
		return cli_usage_error("--emulate: empty SPEC (want TARGET[,TARGET...])");
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	argc -= optind - 1;
	argv += optind - 1;
	/* "kfdsig help CMD" is "kfdsig CMD --help". */
	if (!strcmp(argv[1], "help")) {
		if (argc < 3) {
			usage(stdout);
			return cli_finish(0);
		}
		argv[1] = argv[2];
		argv[2] = (char *)"--help";
		argc = 3;
	}
	name = argv[1];
	len = strlen(name);
	for (size_t i = 0; i < cli_ncmds && !found; i++)
		if (!strcmp(cli_cmds[i].name, name))
			found = &cli_cmds[i];
	/* a prefix: the one command it starts, or every command it could mean */
	for (size_t i = 0, n = 0; i < cli_ncmds && !found; i++) {
		char list[256] = "";
		size_t at = 0;

		if (!len || strncmp(cli_cmds[i].name, name, len))
			continue;
		for (size_t j = i; j < cli_ncmds; j++)
			if (!strncmp(cli_cmds[j].name, name, len))
				n++;
		if (n == 1) {
			found = &cli_cmds[i];
			break;
		}
		for (size_t j = i, k = 0; j < cli_ncmds; j++) {
			if (strncmp(cli_cmds[j].name, name, len))
				continue;
			k++;
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
					       k == 1	? ""
					       : k == n ? " or "
							: ", ",
					       cli_cmds[j].name);
			if (at >= sizeof(list))
				break;
		}
		return cli_usage_error("'%s' is ambiguous: %s?", name, list);
	}
	if (!found)
		return cli_usage_error("unknown command '%s' (kfdsig --help lists them)", name);
	snprintf(prog, sizeof(prog), "kfdsig %s", found->name);
	cli_prog = prog;
	argv[1] = prog;
	optind = 0; /* the command's getopt_long starts afresh */
	r = found->fn(argc - 1, argv + 1);
	return cli_finish(r);
}
