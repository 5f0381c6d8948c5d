/* SPDX-License-Identifier: MIT */
/* kfdsig bench --plot: the figures drawn as one SVG (bench_plot.c); the
 * plot's life cycle is in bench.h. */
#ifndef KFDSIG_SUITE_BENCH_PLOT_H
#define KFDSIG_SUITE_BENCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

/* One figure of `kfdsig bench`, as the plot needs it. */
struct plot_fig {
	const char *measure; /* "emit", "lookup", "latency", "throughput" */
	const char *path;    /* "fast path", "pm4", "pm4 gpu-to-wake" ... */
	uint32_t size;	     /* live events / batch size, 0: none */
	bool measured;
	double value;		/* lookup ns/interrupt, throughput events/s */
	const int64_t *samples; /* latency: ns per signal, submission order */
	uint32_t nsamples;
};

/* Copy one device's figures; @title describes the device. 0 or -ENOMEM. */
int bench_plot_add(struct bench_plot *p, const char *title, const struct plot_fig *figs, size_t n);

#endif
