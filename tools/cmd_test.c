/* SPDX-License-Identifier: MIT */
/* kfdsig test: the interrupt-path suite (src/suite/). */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "suite/suite.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: kfdsig test [-d N | -g GPU_ID] [--emulate TARGET[,TARGET...]|all]\n"
		"                   [-E pm4,sdma,shader,aql] [--case GLOB[,GLOB...]] [--list]\n"
		"                   [-f FMT | -j | --tap | --ktap] [-o FILE] [--junit FILE]\n"
		"                   [--no-time]\n"
		"                   [-T MS] [--kfd-version X.Y] [--kernel-profile NAME]\n\n"
		"Run the interrupt-path suite: named cases that each check one behaviour of\n"
		"the kernel's event path (event ids and limits, reset modes, wait-any/all,\n"
		"timeouts, event age, SMI, the interrupt entry point, and signals raised by\n"
		"the GPU's engines). Each case runs in a fresh KFD process on every device\n"
		"and prints one row: PASS or FAIL with the reason, and how long it took;\n"
		"skips follow, one line per reason with the cases and devices it covers.\n"
		"The last line is 'N passed, N failed, N skipped'.\n\n"
		"  --list              list the cases (what each checks, what it expects)\n"
		"  --case GLOB         only cases whose name matches (shell glob; comma list)\n"
		"  -E, --engine LIST   engine cases of these engines only: pm4, sdma, shader,\n"
		"                      aql (default all)\n"
		"  -d, --device N      only the N-th GPU (0-based)\n"
		"  -g, --gpu GPU_ID    only the GPU of this KFD gpu id (as signal and smi)\n"
		"  --emulate SPEC      the emulated KFD, one device per target; 'all' is every\n"
		"                      target of the generation table (also KFDSIG_EMULATE)\n"
		"  --kfd-version X.Y   emulator: report this KFD version (features above it "
		"absent)\n"
		"  --kernel-profile P  emulator: default, v6.14 (the v6.14-v6.18 drop), v7.1\n"
		"                      (GC 12.1 CP end-of-pipe id trusted; also mailbox-free)\n"
		"                      or v7.3 (no kernel-allocated signal page)\n"
		"  -f, --format F      text (default), json, tap or ktap: the same as -j,\n"
		"                      --tap, --ktap\n"
		"  -j, --json          one JSON object instead of rows (every result, with\n"
		"                      duration_ms)\n"
		"      --tap           TAP version 13: one test point per case and device\n"
		"      --ktap          KTAP version 1 (the kernel's): a test per device, its\n"
		"                      cases as subtests, '# SKIP reason' for skips\n"
		"      --junit FILE    also write a JUnit XML report to FILE\n"
		"  -o, --output FILE   write the report there instead of stdout\n"
		"      --no-time       leave the durations out (reproducible output)\n"
		"  -T, --timeout MS    bound each wait a case makes for something it expects\n"
		"                      (an event, a queue going idle, a debug notification)\n"
		"                      to MS milliseconds (default: each case's own, 1 to 5 s)\n\n"
		"Cases named irq.* drive the emulated kernel's interrupt entry point and\n"
		"are skipped on hardware; gpu.* cases raise it from user queues.\n");
	cli_help_exit(f, "when a case failed (or there is no KFD)");
}

enum { OPT_CASE = 256, OPT_LIST, OPT_TAP, OPT_KTAP, OPT_JUNIT, OPT_NO_TIME };

const struct option cmd_test_options[] = {
	CLI_SUITE_DEV_LONGOPTS,
	{ "engine", required_argument, NULL, 'E' },
	{ "case", required_argument, NULL, OPT_CASE },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "tap", no_argument, NULL, OPT_TAP },
	{ "ktap", no_argument, NULL, OPT_KTAP },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "no-time", no_argument, NULL, OPT_NO_TIME },
	{ "timeout", required_argument, NULL, 'T' },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_test_shortopts[] = CLI_SUITE_DEV_SHORTOPTS "E:f:o:T:" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_test_complete[] = {
	{ "engine", "pm4 sdma shader aql" },
	{ "format", "text json tap ktap" },
	{ "case", "@case" },
	{ "junit", "@file" },
	{ "output", "@file" },
	CLI_SUITE_DEV_COMPLETE,
	{ 0 },
};

int cmd_test(int argc, char **argv)
{
	struct suite_dev_opts dopt = { .device = -1, .prog = cli_prog };
	struct suite_opts sopt = { .engines = SUITE_ENGINES_ALL, .times = true };
	const char *junit = NULL, *output = NULL;
	FILE *out;
	bool tap = false, ktap = false;
	const struct suite_case *const *all;
	const struct suite_case **sel;
	struct suite_devset *devs;
	struct suite_counts cnt;
	bool list = false;
	size_t n, nsel;
	int c, r;

	while ((c = cli_getopt(argc, argv, cmd_test_shortopts, cmd_test_options)) != -1) {
		switch (c) {
		case 'E': {
			const char *bad;
			size_t len;
			if (!suite_parse_engines(optarg, &sopt.engines, &bad, &len))
				return cli_usage_error(
					"--engine: unknown engine '%.*s' (pm4, sdma, "
					"shader, aql)",
					(int)len, bad);
			break;
		}
		case OPT_CASE:
			sopt.globs = optarg;
			break;
		case OPT_LIST:
			list = true;
			break;
		case OPT_TAP:
			tap = true;
			break;
		case OPT_KTAP:
			ktap = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'f': /* the formats as other commands name them */
			if (!strcmp(optarg, "json"))
				cli_g.json = true;
			else if (!strcmp(optarg, "tap"))
				tap = true;
			else if (!strcmp(optarg, "ktap"))
				ktap = true;
			else if (strcmp(optarg, "text"))
				return cli_usage_error(
					"--format: '%s' is not one of text, json, tap, "
					"ktap",
					optarg);
			break;
		case OPT_JUNIT:
			junit = optarg;
			break;
		case OPT_NO_TIME:
			sopt.times = false;
			break;
		case 'T': {
			uint64_t ms;
			if (!cli_parse_u64("--timeout", optarg, 600000, &ms))
				return EXIT_USAGE;
			if (!ms)
				return cli_usage_error(
					"--timeout: 0 ms bounds no wait (1 to 600000)");
			sopt.wait_ms = (uint32_t)ms;
			break;
		}
		default: /* the device options, or cli_opt_default() */
			if ((r = cli_suite_dev_opt(c, optarg, &dopt, help)) >= 0)
				return r;
		}
	}
	if ((r = cli_no_operands(argc, argv)))
		return r;
	dopt.emulate = cli_g.emulate;
	sopt.json = cli_json();
	if (sopt.json + tap + ktap > 1)
		return cli_usage_error("--json, --tap and --ktap are three formats: choose one");
	sopt.output = sopt.json ? SUITE_OUT_JSON
		      : tap	? SUITE_OUT_TAP
		      : ktap	? SUITE_OUT_KTAP
				: SUITE_OUT_TEXT;

	all = suite_cases(&n);
	sel = calloc(n ? n : 1, sizeof(*sel));
	if (!sel)
		return cli_error("out of memory");
	nsel = suite_select(all, n, &sopt, sel, n);
	if (!nsel) {
		free(sel);
		return cli_usage_error("no case matches '%s'", sopt.globs ? sopt.globs : "*");
	}
	if (!(out = cli_open_output(output, false))) {
		free(sel);
		return EXIT_FAILURE;
	}
	if (list) {
		suite_list(sel, nsel, sopt.json, out);
		free(sel);
		return cli_close_output(out);
	}
	r = cli_suite_devices(&dopt, &devs);
	if (r) {
		if (out != stdout)
			fclose(out);
		free(sel);
		return r;
	}
	if (junit && !(sopt.junit = fopen(junit, "w"))) {
		cli_suite_devices_close(devs);
		if (out != stdout)
			fclose(out);
		free(sel);
		return cli_error("cannot open '%s' for writing: %s", junit, strerror(errno));
	}
	if (sopt.output == SUITE_OUT_TEXT) {
		fprintf(out, "kfdsig test: %zu case%s on %zu device%s (%s KFD %u.%u, kernel %s)\n",
			nsel, nsel == 1 ? "" : "s", devs->n, devs->n == 1 ? "" : "s",
			devs->dev[0].emu ? "emulated" : "real", devs->dev[0].kfd_major,
			devs->dev[0].kfd_minor, devs->dev[0].profile);
	}
	sopt.progress = isatty(STDERR_FILENO) && !cli_g.quiet;
	sopt.progress_out = stderr;
	r = suite_run(sel, nsel, devs->dev, devs->n, &sopt, out, &cnt);
	if (cli_close_output(out))
		r = 1;
	if (sopt.junit && fclose(sopt.junit)) {
		cli_error("write error on '%s'", junit);
		r = 1;
	}
	cli_suite_devices_close(devs);
	free(sel);
	return r ? EXIT_FAILURE : 0;
}
