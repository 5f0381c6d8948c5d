/* SPDX-License-Identifier: MIT */
/* kfdsig bench: what the interrupt path costs (the harness is src/suite/bench.c). */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "suite/bench.h"
#include "suite/bench_plot.h"
#include "suite/suite.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: kfdsig bench [-d N] [--emulate TARGET[,TARGET...]|all] [-c N] [-j]\n"
		"                    [--samples FILE.csv] [--plot FILE.svg] [--no-time]\n"
		"                    [--kfd-version X.Y] [--kernel-profile NAME]\n\n"
		"Measure the interrupt path on each device:\n"
		"  emit        ns of CPU time to write one fence, per engine (PM4 emit and the\n"
		"              prepared template, SDMA, shader stub patch + dispatch packets)\n"
		"  lookup      ns per interrupt in the kernel's event lookup: fast path, wrong\n"
		"              id and no id (the slot scan), with 1, 64 and 4095 live events\n"
		"              (emulator only: the kernel entry point kfd_signal_event_interrupt)\n"
		"  latency     us from the signal to the waiter's return, min/p50/p99/max over\n"
		"              N signals one at a time; host submit-to-wake (host clocks) for\n"
		"              every path, and for pm4 also 'pm4 gpu-to-wake': the wake-up minus\n"
		"              the GPU clock a RELEASE_MEM stored right before the fence,\n"
		"              converted with GET_CLOCK_COUNTERS (sdma, shader: host time only)\n"
		"  throughput  events/s signalling batches of 1, 64 and 4095 events, then\n"
		"              wait-for-all and reset\n"
		"  irqs        interrupts per PM4 fence (from the event's age): unpredicated,\n"
		"              once per XCC of a multi-XCC node, against kfdsig's fence\n"
		"Signals come from CPU SET_EVENT (cpu-set-event) and, under the emulator, the\n"
		"interrupt entry point (emu-interrupt), and each engine's fence on a user\n"
		"queue (pm4, sdma, shader). Emulated figures use host clocks (and the emulated\n"
		"GPU's 100 MHz clock for pm4 gpu-to-wake) and measure the emulator, not a GPU.\n\n"
		"  -c, --count N       samples per latency figure (default 1000; the other\n"
		"                      figures scale with it)\n"
		"  -j, --json          one JSON object: every figure with device and meaning\n"
		"      --samples FILE  write every raw latency sample there as CSV:\n"
		"                      device,path,index,latency_ns (in submission order)\n"
		"      --plot FILE     draw an SVG: latency CDFs and histograms per path,\n"
		"                      the lookup fast path against the scan per live-event\n"
		"                      count, throughput per path and batch size, and the\n"
		"                      pm4 submit -> GPU timestamp -> wake timeline\n"
		"      --no-time       leave the times and rates out of the table and the\n"
		"                      JSON ('-'; the interrupt counts stay): reproducible\n"
		"                      output that lists what was measured\n"
		"  -d, --device N, -g, --gpu GPU_ID, --kfd-version X.Y, --kernel-profile NAME:\n"
		"                      as for kfdsig test\n"
		"On a terminal a progress line on stderr names the figure being measured\n"
		"(not with -q).\n");
	cli_help_exit(f, "when a measurement fails (or there is no KFD) or a file cannot\n"
			 "be written");
}

enum { OPT_SAMPLES = 256, OPT_PLOT, OPT_NO_TIME };

const struct option cmd_bench_options[] = {
	CLI_SUITE_DEV_LONGOPTS,
	{ "count", required_argument, NULL, 'c' },
	{ "samples", required_argument, NULL, OPT_SAMPLES },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "no-time", no_argument, NULL, OPT_NO_TIME },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_bench_shortopts[] = CLI_SUITE_DEV_SHORTOPTS "c:" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_bench_complete[] = {
	{ "samples", "@file" },
	{ "plot", "@file" },
	CLI_SUITE_DEV_COMPLETE,
	{ 0 },
};

int cmd_bench(int argc, char **argv)
{
	struct suite_dev_opts dopt = { .device = -1, .prog = cli_prog };
	struct suite_bench_opts bopt = { .count = 1000 };
	const char *samples_path = NULL, *plot_path = NULL;
	FILE *plot = NULL;
	struct suite_devset *devs;
	int c, r, err;
	uint64_t v;

	while ((c = cli_getopt(argc, argv, cmd_bench_shortopts, cmd_bench_options)) != -1) {
		switch (c) {
		case 'c':
			if (!cli_parse_range("--count", optarg, 1, 1000000, &v))
				return EXIT_USAGE;
			bopt.count = (uint32_t)v;
			break;
		case OPT_SAMPLES:
			samples_path = optarg;
			break;
		case OPT_PLOT:
			plot_path = optarg;
			break;
		case OPT_NO_TIME:
			bopt.no_time = true;
			break;
		default: /* the device options, or cli_opt_default() */
			if ((r = cli_suite_dev_opt(c, optarg, &dopt, help)) >= 0)
				return r;
		}
	}
	if ((r = cli_no_operands(argc, argv)))
		return r;
	dopt.emulate = cli_g.emulate;
	bopt.json = cli_json();
	r = cli_suite_devices(&dopt, &devs);
	if (r)
		return r;
	if (samples_path && !(bopt.samples = fopen(samples_path, "w"))) {
		r = cli_error("cannot open '%s' for writing: %s", samples_path, strerror(errno));
		goto out;
	}
	if (plot_path && (!(plot = fopen(plot_path, "w")) || !(bopt.plot = bench_plot_new()))) {
		r = cli_error("cannot open '%s' for writing: %s", plot_path, strerror(errno));
		goto out;
	}
	if (isatty(STDERR_FILENO) && !cli_g.quiet)
		bopt.progress = stderr;
	err = suite_bench(devs->dev, devs->n, &bopt, stdout);
	if (err)
		r = cli_error("a measurement failed: %s", strerror(-err));
	if (bopt.plot && bench_plot_write(bopt.plot, plot) < 0 && !r)
		r = cli_error("write error on '%s'", plot_path);
out:
	if (bopt.samples && fclose(bopt.samples) && !r)
		r = cli_error("write error on '%s'", samples_path);
	if (plot && fclose(plot) && !r)
		r = cli_error("write error on '%s'", plot_path);
	bench_plot_free(bopt.plot);
	cli_suite_devices_close(devs);
	return r;
}
