/* SPDX-License-Identifier: MIT */
/*
 * kfdsig bench --plot FILE.svg: the bench figures as a hand-written SVG (no
 * library). Per device, five panels:
 *   latency CDF per path        (log-scale microseconds)
 *   latency histogram per path  (the same bins, fraction of the samples)
 *   lookup: fast path against the scan, per live-event count (ns/interrupt)
 *   throughput per path and batch size (events/s, log scale)
 *   pm4 timeline: submit -> GPU timestamp -> wake for the p10/p50/p90/p99
 *   signals of the host latency
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_plot.h"
#include "core/escape.h"

struct dev {
	char title[200];
	struct plot_fig *figs;
	size_t n;
};

struct bench_plot {
	struct dev *devs;
	size_t n;
};

static const char *const colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
				      "#9467bd", "#8c564b", "#e377c2", "#17becf" };
#define NCOLORS (sizeof(colors) / sizeof(colors[0]))

struct bench_plot *bench_plot_new(void)
{
	return calloc(1, sizeof(struct bench_plot));
}

int bench_plot_add(struct bench_plot *p, const char *title, const struct plot_fig *figs, size_t n)
{
	struct dev *d, *devs = realloc(p->devs, (p->n + 1) * sizeof(*devs));

	if (!devs)
		return -ENOMEM;
	p->devs = devs;
	d = &devs[p->n];
	memset(d, 0, sizeof(*d));
	snprintf(d->title, sizeof(d->title), "%s", title);
	d->figs = calloc(n ? n : 1, sizeof(*d->figs));
	if (!d->figs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		d->figs[i] = figs[i];
		d->figs[i].measure = strdup(figs[i].measure);
		d->figs[i].path = strdup(figs[i].path);
		d->figs[i].samples = NULL;
		if (figs[i].nsamples) {
			int64_t *s = malloc(figs[i].nsamples * sizeof(*s));

			if (s)
				memcpy(s, figs[i].samples, figs[i].nsamples * sizeof(*s));
			d->figs[i].samples = s;
			d->figs[i].nsamples = s ? figs[i].nsamples : 0;
		}
	}
	d->n = n;
	p->n++;
	return 0;
}

void bench_plot_free(struct bench_plot *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		for (size_t k = 0; k < p->devs[i].n; k++) {
			free((void *)p->devs[i].figs[k].measure);
			free((void *)p->devs[i].figs[k].path);
			free((void *)p->devs[i].figs[k].samples);
		}
		free(p->devs[i].figs);
	}
	free(p->devs);
	free(p);
}

static void text(FILE *f, double x, double y, const char *anchor, int size, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x, y, anchor,
		size);
	kfdsig_escape_fputs(f, KFDSIG_ESCAPE_XML, s);
	fputs("</text>\n", f);
}

/* A panel: frame and title; the plot area is x0..x0+w, y0..y0+h. */
static void frame(FILE *f, double x0, double y0, double w, double h, const char *title)
{
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafafa\" "
		"stroke=\"#888\"/>\n",
		x0, y0, w, h);
	text(f, x0 + w / 2, y0 - 8, "middle", 13, title);
}

static void fmt_num(char *b, size_t n, double v)
{
	if (v >= 1e6)
		snprintf(b, n, "%.0fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(b, n, "%.0fk", v / 1e3);
	else if (v >= 10)
		snprintf(b, n, "%.0f", v);
	else
		snprintf(b, n, "%.2g", v);
}

/* Log axis ticks (decades) along x or y. */
static void log_ticks(FILE *f, double x0, double y0, double w, double h, double lo, double hi,
		      bool xaxis, const char *unit)
{
	char b[32];

	for (double t = pow(10, floor(log10(lo))); t <= hi * 1.0001; t *= 10) {
		double r = (log10(t) - log10(lo)) / (log10(hi) - log10(lo));

		if (r < -1e-9 || r > 1 + 1e-9)
			continue;
		fmt_num(b, sizeof(b), t);
		if (xaxis) {
			double x = x0 + r * w;

			fprintf(f,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#ddd\"/>\n",
				x, y0, x, y0 + h);
			text(f, x, y0 + h + 14, "middle", 10, b);
		} else {
			double y = y0 + h - r * h;

			fprintf(f,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#ddd\"/>\n",
				x0, y, x0 + w, y);
			text(f, x0 - 4, y + 3, "end", 10, b);
		}
	}
	if (xaxis)
		text(f, x0 + w / 2, y0 + h + 28, "middle", 11, unit);
	else
		text(f, x0, y0 + h + 28, "start", 10, unit);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static void legend(FILE *f, double x, double y, int k, const char *label)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", x,
		y + k * 14, colors[k % NCOLORS]);
	text(f, x + 14, y + k * 14 + 9, "start", 10, label);
}

#define NBINS 40

/* Latency CDF and histogram of every measured latency path. */
static void latency_panels(FILE *f, const struct dev *d, double y0)
{
	const double w = 420, h = 220, xa = 60, xb = 560;
	double lo = INFINITY, hi = 0;
	int k = 0;

	for (size_t i = 0; i < d->n; i++) {
		const struct plot_fig *g = &d->figs[i];

		for (uint32_t s = 0; s < g->nsamples; s++) {
			double us = (double)g->samples[s] / 1e3;

			if (us <= 0)
				continue;
			lo = us < lo ? us : lo;
			hi = us > hi ? us : hi;
		}
	}
	frame(f, xa, y0, w, h, "latency CDF per path (signal to waiter's wake-up)");
	frame(f, xb, y0, w, h, "latency histogram per path (fraction of samples per bin)");
	if (!(hi > 0) || !isfinite(lo)) {
		text(f, xa + w / 2, y0 + h / 2, "middle", 12, "no latency samples");
		return;
	}
	lo = pow(10, floor(log10(lo)));
	hi = pow(10, ceil(log10(hi)));
	if (hi <= lo)
		hi = lo * 10;
	log_ticks(f, xa, y0, w, h, lo, hi, true, "microseconds (log)");
	log_ticks(f, xb, y0, w, h, lo, hi, true, "microseconds (log)");
	text(f, xa - 4, y0 + 10, "end", 10, "1");
	text(f, xa - 4, y0 + h, "end", 10, "0");
	for (size_t i = 0; i < d->n; i++) {
		const struct plot_fig *g = &d->figs[i];
		unsigned bins[NBINS] = { 0 };
		unsigned maxbin = 1;
		int64_t *s;

		if (!g->nsamples)
			continue;
		s = malloc(g->nsamples * sizeof(*s));
		if (!s)
			continue;
		memcpy(s, g->samples, g->nsamples * sizeof(*s));
		qsort(s, g->nsamples, sizeof(*s), cmp_i64);
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
			colors[k % NCOLORS]);
		for (uint32_t j = 0; j < g->nsamples; j++) {
			double us = (double)s[j] / 1e3, r;
			int b;

			us = us < lo ? lo : us > hi ? hi : us;
			r = (log10(us) - log10(lo)) / (log10(hi) - log10(lo));
			fprintf(f, "%.1f,%.1f ", xa + r * w, y0 + h - h * (j + 1.0) / g->nsamples);
			b = (int)(r * NBINS);
			bins[b >= NBINS ? NBINS - 1 : b]++;
		}
		fputs("\"/>\n", f);
		for (int b = 0; b < NBINS; b++)
			maxbin = bins[b] > maxbin ? bins[b] : maxbin;
		(void)maxbin;
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
			colors[k % NCOLORS]);
		for (int b = 0; b < NBINS; b++) {
			double y = y0 + h - h * bins[b] / (double)g->nsamples;

			fprintf(f, "%.1f,%.1f %.1f,%.1f ", xb + w * b / NBINS, y,
				xb + w * (b + 1) / NBINS, y);
		}
		fputs("\"/>\n", f);
		legend(f, xa + 8, y0 + 8, k, g->path);
		k++;
		free(s);
	}
}

/* Grouped bars: @groups along x, @series bars per group, values from @val
 * (NAN: not measured), log y axis. */
static void bars(FILE *f, double x0, double y0, double w, double h, const char *title,
		 const char *unit, size_t ngroups, const char *const *groups, size_t nseries,
		 const char *const *series, const double *val)
{
	double lo = INFINITY, hi = 0, gw = w / (double)ngroups;

	frame(f, x0, y0, w, h, title);
	for (size_t i = 0; i < ngroups * nseries; i++) {
		if (!(val[i] > 0))
			continue;
		lo = val[i] < lo ? val[i] : lo;
		hi = val[i] > hi ? val[i] : hi;
	}
	for (size_t s = 0; s < nseries; s++)
		legend(f, x0 + 8, y0 + 8, (int)s, series[s]);
	if (!(hi > 0)) {
		text(f, x0 + w / 2, y0 + h / 2, "middle", 12, "not measured");
		return;
	}
	lo = pow(10, floor(log10(lo)));
	hi = pow(10, ceil(log10(hi)));
	if (hi <= lo)
		hi = lo * 10;
	log_ticks(f, x0, y0, w, h, lo, hi, false, unit);
	for (size_t g = 0; g < ngroups; g++) {
		double bw = gw * 0.8 / (double)nseries;

		text(f, x0 + gw * (g + 0.5), y0 + h + 14, "middle", 10, groups[g]);
		for (size_t s = 0; s < nseries; s++) {
			double v = val[g * nseries + s], r, x = x0 + gw * g + gw * 0.1 + bw * s;

			if (!(v > 0))
				continue;
			r = (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
			fprintf(f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>%s %s: %.4g %s</title></rect>\n",
				x, y0 + h - r * h, bw * 0.9, r * h, colors[s % NCOLORS], groups[g],
				series[s], v, unit);
		}
	}
}

static const struct plot_fig *find(const struct dev *d, const char *measure, const char *path,
				   uint32_t size)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->figs[i].measure, measure) && !strcmp(d->figs[i].path, path) &&
		    d->figs[i].size == size)
			return &d->figs[i];
	return NULL;
}

static double value_of(const struct plot_fig *g)
{
	return g && g->measured ? g->value : NAN;
}

static void lookup_panel(FILE *f, const struct dev *d, double y0)
{
	static const char *const groups[] = { "1 live event", "64 live", "4095 live" };
	static const char *const series[] = { "fast path", "wrong id", "no id" };
	static const uint32_t lives[] = { 1, 64, 4095 };
	double val[9];

	for (size_t g = 0; g < 3; g++)
		for (size_t s = 0; s < 3; s++)
			val[g * 3 + s] = value_of(find(d, "lookup", series[s], lives[g]));
	bars(f, 60, y0, 420, 200, "kernel event lookup: fast path vs slot scan", "ns/interrupt", 3,
	     groups, 3, series, val);
}

#define MAX_PATHS 8

/* The paths of @measure in the device's figures, in their order. */
static size_t paths_of(const struct dev *d, const char *measure, const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n && n < MAX_PATHS; i++) {
		size_t j;

		if (strcmp(d->figs[i].measure, measure))
			continue;
		for (j = 0; j < n && strcmp(out[j], d->figs[i].path); j++)
			;
		if (j == n)
			out[n++] = d->figs[i].path;
	}
	return n;
}

static void throughput_panel(FILE *f, const struct dev *d, double y0)
{
	static const char *const series[] = { "batch 1", "batch 64", "batch 4095" };
	static const uint32_t batch[] = { 1, 64, 4095 };
	const char *paths[MAX_PATHS];
	double val[MAX_PATHS * 3];
	size_t n = paths_of(d, "throughput", paths); /* every path measured, aql too */

	for (size_t g = 0; g < n; g++)
		for (size_t s = 0; s < 3; s++)
			val[g * 3 + s] = value_of(find(d, "throughput", paths[g], batch[s]));
	bars(f, 560, y0, 420, 200, "throughput per path and batch size", "events/s", n, paths, 3,
	     series, val);
}

/* submit -> GPU timestamp -> wake for a few signals of the pm4 path: the
 * host latency is submit-to-wake, gpu-to-wake its tail; the difference is
 * submit to the GPU timestamp. */
static void timeline_panel(FILE *f, const struct dev *d, double y0)
{
	static const double pct[] = { 0.10, 0.50, 0.90, 0.99 };
	static const char *const names[] = { "p10", "p50", "p90", "p99" };
	const struct plot_fig *host = find(d, "latency", "pm4", 0);
	const struct plot_fig *gpu = find(d, "latency", "pm4 gpu-to-wake", 0);
	const double x0 = 60, w = 920, h = 130;
	uint32_t idx[4];
	double maxus = 0;
	int64_t *order;

	frame(f, x0, y0, w, h,
	      "pm4 timeline: submit -> GPU timestamp (RELEASE_MEM, DATA_SEL 3) -> waiter's "
	      "wake-up");
	if (!host || !gpu || !host->nsamples || host->nsamples != gpu->nsamples) {
		text(f, x0 + w / 2, y0 + h / 2, "middle", 12,
		     "no GPU timestamps on this device (pm4 gpu-to-wake not measured)");
		return;
	}
	/* the signals at the host latency's percentiles */
	order = malloc(host->nsamples * sizeof(*order));
	if (!order)
		return;
	memcpy(order, host->samples, host->nsamples * sizeof(*order));
	qsort(order, host->nsamples, sizeof(*order), cmp_i64);
	for (int k = 0; k < 4; k++) {
		int64_t want = order[(uint32_t)(pct[k] * (host->nsamples - 1))];

		idx[k] = 0;
		for (uint32_t i = 0; i < host->nsamples; i++)
			if (host->samples[i] == want) {
				idx[k] = i;
				break;
			}
		maxus = fmax(maxus, (double)host->samples[idx[k]] / 1e3);
	}
	free(order);
	if (!(maxus > 0))
		maxus = 1;
	for (int k = 0; k < 4; k++) {
		double total = (double)host->samples[idx[k]] / 1e3;
		double tail = (double)gpu->samples[idx[k]] / 1e3;
		double head = total - tail, y = y0 + 12 + k * 28;
		double sx = 60 + 60, sw = w - 420;
		char b[160];

		if (head < 0)
			head = 0; /* clock calibration error: draw from submit */
		if (tail > total)
			tail = total;
		text(f, x0 + 50, y + 13, "end", 11, names[k]);
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"16\" fill=\"%s\"/>\n"
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"16\" fill=\"%s\"/>\n",
			sx, y, sw * head / maxus, colors[0], sx + sw * head / maxus, y,
			sw * tail / maxus, colors[1]);
		snprintf(b, sizeof(b), "submit->GPU ts %.1f us, GPU ts->wake %.1f us", head, tail);
		text(f, sx + sw * (head + tail) / maxus + 6, y + 12, "start", 10, b);
	}
	legend(f, x0 + 8, y0 + h + 8, 0, "submit -> GPU timestamp");
	legend(f, x0 + 8, y0 + h + 8, 1, "GPU timestamp -> wake-up");
}

#define DEV_HEIGHT 780

int bench_plot_write(const struct bench_plot *p, FILE *f)
{
	double hgt = 40 + DEV_HEIGHT * (double)(p->n ? p->n : 1);

	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"%.0f\" "
		"viewBox=\"0 0 1000 %.0f\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		hgt, hgt);
	text(f, 500, 24, "middle", 16, "kfdsig bench");
	for (size_t i = 0; i < p->n; i++) {
		const struct dev *d = &p->devs[i];
		double y0 = 40 + DEV_HEIGHT * (double)i;

		text(f, 20, y0 + 16, "start", 14, d->title);
		latency_panels(f, d, y0 + 50);
		lookup_panel(f, d, y0 + 340);
		throughput_panel(f, d, y0 + 340);
		timeline_panel(f, d, y0 + 600);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
