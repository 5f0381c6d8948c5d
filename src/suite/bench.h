/* SPDX-License-Identifier: MIT */
/*
 * The bench harness behind `kfdsig bench` (bench.c) and its SVG plot
 * (bench_plot.c), as the CLI calls them.
 */
#ifndef KFDSIG_SUITE_BENCH_H
#define KFDSIG_SUITE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "suite.h"

/* The figures of every device drawn as one SVG. */
struct bench_plot;

/* NULL (errno ENOMEM) when out of memory. */
struct bench_plot *bench_plot_new(void);
/* Write the SVG. Return 0, or -EIO on a write error. */
int bench_plot_write(const struct bench_plot *p, FILE *f);
void bench_plot_free(struct bench_plot *p);

struct suite_bench_opts {
	uint32_t count;		 /* samples per latency figure (the others scale with it) */
	bool json;		 /* one JSON object instead of the table */
	FILE *samples;		 /* every raw latency sample as CSV (NULL: none) */
	struct bench_plot *plot; /* add every device's figures to it (NULL: none) */
	FILE *progress;		 /* a progress line naming the figure (NULL: none) */
};

/* Measure every device of @devs and print its table (or the JSON) on @out.
 * Return 0, or the negative errno of the last measurement that failed (its
 * row says "n/a" and why; the other figures are printed all the same). */
int suite_bench(const struct suite_device *devs, size_t ndev, const struct suite_bench_opts *o,
		FILE *out);

#endif
