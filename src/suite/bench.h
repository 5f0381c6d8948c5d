/* SPDX-License-Identifier: MIT */
/*
 * The bench harness behind `kfdsig bench` (bench.c), as the CLI calls it;
 * its SVG plot is bench_plot.h.
 */
#ifndef KFDSIG_SUITE_BENCH_H
#define KFDSIG_SUITE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "suite.h"

/* The figures of every device drawn as one SVG (bench_plot.h). */
struct bench_plot;

struct suite_bench_opts {
	uint32_t count;		 /* samples per latency figure (the others scale with it) */
	bool json;		 /* one JSON object instead of the table */
	FILE *samples;		 /* every raw latency sample as CSV (NULL: none) */
	struct bench_plot *plot; /* add every device's figures to it (NULL: none) */
	FILE *progress;		 /* a progress line naming the figure (NULL: none) */
	bool no_time;		 /* the times and rates left out of the table and JSON
		       * (reproducible output; --samples and --plot keep them) */
};

/* Measure every device of @devs and print its table (or the JSON) on @out.
 * Return 0, or the negative errno of the last measurement that failed (its
 * row says "n/a" and why; the other figures are printed all the same). */
int suite_bench(const struct suite_device *devs, size_t ndev, const struct suite_bench_opts *o,
		FILE *out);

#endif
