/* SPDX-License-Identifier: MIT */
/* kfdsig bench --plot: the figures of every device drawn as one SVG
 * (bench_plot.c). bench.c adds each device's figures; the CLI creates,
 * writes and frees the plot. */
#ifndef KFDSIG_SUITE_BENCH_PLOT_H
#define KFDSIG_SUITE_BENCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The figures of every device drawn as one SVG. */
struct bench_plot;

/* NULL (errno ENOMEM) when out of memory. */
struct bench_plot *bench_plot_new(void);
/* Write the SVG. Return 0, or -EIO on a write error. */
int bench_plot_write(const struct bench_plot *p, FILE *f);
void bench_plot_free(struct bench_plot *p);

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
