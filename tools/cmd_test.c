/* SPDX-License-Identifier: MIT */
/* kfdsig test: the interrupt-path suite (cases in tools/suite/). */
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "suite/devices.h"
#include "suite/suite.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: kfdsig test [--device N | --emulate TARGET[,TARGET...]|all]\n"
		"                   [--engine pm4,sdma,shader] [--case GLOB[,GLOB...]] [--list]\n"
		"                   [--json] [--kfd-version X.Y] [--kernel-profile NAME]\n\n"
		"Run the interrupt-path suite: named cases that each check one behaviour of\n"
		"the kernel's event path (event ids and limits, reset modes, wait-any/all,\n"
		"timeouts, event age, SMI, the interrupt entry point, and signals raised by\n"
		"the GPU's engines). Each case runs in a fresh KFD process on every device\n"
		"and prints one row: PASS, FAIL with the reason, or SKIP with the reason.\n"
		"The last line is 'N passed, N failed, N skipped'.\n\n"
		"  --list              list the cases (what each checks, what it expects)\n"
		"  --case GLOB         only cases whose name matches (shell glob; comma list)\n"
		"  --engine LIST       engine cases of these engines only (default all)\n"
		"  --device N          only the N-th GPU (0-based)\n"
		"  --emulate SPEC      the emulated KFD, one device per target; 'all' is every\n"
		"                      target of the generation table (also KFDSIG_EMULATE)\n"
		"  --kfd-version X.Y   emulator: report this KFD version (features above it "
		"absent)\n"
		"  --kernel-profile P  emulator: default, or v6.14 (the v6.14-v6.18 drop)\n"
		"  --json              one JSON object instead of rows\n\n"
		"Cases named irq.* drive the emulated kernel's interrupt entry point and\n"
		"are skipped on hardware; gpu.* cases raise it from user queues.\n\n"
		"Exit status: 0 when nothing failed, 1 on any failure (or no KFD), 2 for bad\n"
		"arguments.\n");
}

int cmd_test(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "emulate", required_argument, NULL, 'E' },
		{ "engine", required_argument, NULL, 'e' },
		{ "case", required_argument, NULL, 'c' },
		{ "list", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "kfd-version", required_argument, NULL, 'k' },
		{ "kernel-profile", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct suite_dev_opts dopt = { .device = -1 };
	struct suite_opts sopt = { .engines = SUITE_ENGINES_ALL };
	const struct suite_case *const *all;
	const struct suite_case **sel;
	struct suite_devset *devs;
	struct suite_counts cnt;
	bool list = false;
	size_t n, nsel;
	uint64_t v;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (!cli_parse_u64("--device", optarg, 63, &v))
				return EXIT_USAGE;
			dopt.device = (int)v;
			break;
		case 'E':
			dopt.emulate = optarg;
			break;
		case 'e': {
			const char *bad;
			size_t len;
			if (!suite_parse_engines(optarg, &sopt.engines, &bad, &len))
				return cli_usage_error(
					"--engine: unknown engine '%.*s' (pm4, sdma, "
					"shader)",
					(int)len, bad);
			break;
		}
		case 'c':
			sopt.globs = optarg;
			break;
		case 'l':
			list = true;
			break;
		case 'j':
			sopt.json = true;
			break;
		case 'k':
			dopt.kfd_version = optarg;
			break;
		case 'p':
			dopt.profile = optarg;
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			return cli_usage_error("see 'kfdsig test --help'");
		}
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s'", argv[optind]);

	all = suite_cases(&n);
	sel = calloc(n ? n : 1, sizeof(*sel));
	if (!sel)
		return cli_error("out of memory");
	nsel = suite_select(all, n, &sopt, sel, n);
	if (!nsel) {
		free(sel);
		return cli_usage_error("no case matches '%s'", sopt.globs ? sopt.globs : "*");
	}
	if (list) {
		suite_list(sel, nsel, sopt.json, stdout);
		free(sel);
		return 0;
	}
	devs = calloc(1, sizeof(*devs));
	if (!devs) {
		free(sel);
		return cli_error("out of memory");
	}
	r = suite_devices_open(devs, &dopt);
	if (r) {
		free(devs);
		free(sel);
		return r;
	}
	if (!sopt.json) {
		printf("kfdsig test: %zu case%s on %zu device%s (%s KFD %u.%u, kernel %s)\n", nsel,
		       nsel == 1 ? "" : "s", devs->n, devs->n == 1 ? "" : "s",
		       devs->dev[0].emu ? "emulated" : "real", devs->dev[0].kfd_major,
		       devs->dev[0].kfd_minor, devs->dev[0].profile);
	}
	sopt.progress = isatty(STDERR_FILENO);
	sopt.progress_out = stderr;
	r = suite_run(sel, nsel, devs->dev, devs->n, &sopt, stdout, &cnt);
	suite_devices_close(devs);
	free(devs);
	free(sel);
	return r ? EXIT_FAILURE : 0;
}
