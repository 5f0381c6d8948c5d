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
 * then one panel comparing the devices: the median latency of each path.
 * Each panel is a <g class="panel" data-kind="..."> holding its frame, its
 * y ticks (class ytick), the y axis unit (class yunit) and its legend below
 * the frame (class legend), never over the data. Panels of one kind share
 * their axes across devices, so devices compare at a glance.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_plot.h"
#include "core/escape.h"

struct dev {
	char title[200];
	char label[64]; /* the title up to its ':' (the device) */
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
	snprintf(d->label, sizeof(d->label), "%.*s", (int)strcspn(title, ":"), title);
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
	esc_fputs(f, ESC_XML, s);
	fputs("</text>\n", f);
}

/* A panel: frame and title; the plot area is x0..x0+w, y0..y0+h. */
static void frame(FILE *f, const char *kind, double x0, double y0, double w, double h,
		  const char *title)
{
	fprintf(f, "<g class=\"panel\" data-kind=\"%s\">\n", kind);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafafa\" "
		"stroke=\"#888\"/>\n",
		x0, y0, w, h);
	text(f, x0 + w / 2, y0 - 8, "middle", 13, title);
}

static void panel_end(FILE *f)
{
	fputs("</g>\n", f);
}

/* The y axis unit, written up the left side of the panel. */
static void y_unit(FILE *f, double x0, double y0, double h, const char *unit)
{
	double x = x0 - 40, y = y0 + h / 2;

	fprintf(f,
		"<text class=\"yunit\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		"font-size=\"10\" transform=\"rotate(-90 %.1f %.1f)\">",
		x, y, x, y);
	esc_fputs(f, ESC_XML, unit);
	fputs("</text>\n", f);
}

static void y_tick(FILE *f, double x0, double y, double w, const char *label)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x0,
		y, x0 + w, y);
	fprintf(f,
		"<text class=\"ytick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">",
		x0 - 4, y + 3);
	esc_fputs(f, ESC_XML, label);
	fputs("</text>\n", f);
}

/* Linear y ticks 0, 0.25 .. 1 (fractions). */
static void frac_ticks(FILE *f, double x0, double y0, double w, double h)
{
	static const char *const lab[] = { "0", "0.25", "0.5", "0.75", "1" };

	for (int i = 0; i < 5; i++)
		y_tick(f, x0, y0 + h - h * i / 4.0, w, lab[i]);
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
			y_tick(f, x0, y0 + h - r * h, w, b);
		}
	}
	if (xaxis)
		text(f, x0 + w / 2, y0 + h + 28, "middle", 11, unit);
	else
		y_unit(f, x0, y0, h, unit);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Legend entry @k of a panel, in rows of three below its frame (x, y: the
 * legend's top left). */
#define LEGEND_COLS 3
#define LEGEND_ROW 14
static void legend(FILE *f, double x, double y, int k, const char *label)
{
	double lx = x + (k % LEGEND_COLS) * 140, ly = y + (k / LEGEND_COLS) * LEGEND_ROW;

	fprintf(f,
		"<rect class=\"legend\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" "
		"fill=\"%s\"/>\n",
		lx, ly, colors[k % NCOLORS]);
	fprintf(f,
		"<text class=\"legend\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\" "
		"font-size=\"10\">",
		lx + 14, ly + 9);
	esc_fputs(f, ESC_XML, label);
	fputs("</text>\n", f);
}

/* The shared axes: one range per panel kind over every device. */
struct ranges {
	double lat_lo, lat_hi; /* latency, microseconds */
	double lookup_lo, lookup_hi;
	double tput_lo, tput_hi;
};

static void decade_range(double *lo, double *hi)
{
	if (!(*hi > 0) || !isfinite(*lo)) {
		*lo = *hi = 0;
		return;
	}
	*lo = pow(10, floor(log10(*lo)));
	*hi = pow(10, ceil(log10(*hi)));
	if (*hi <= *lo)
		*hi = *lo * 10;
}

#define NBINS 40

/* Latency CDF and histogram of every measured latency path. */
static void latency_range(const struct dev *d, double *lo, double *hi)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct plot_fig *g = &d->figs[i];

		for (uint32_t s = 0; s < g->nsamples; s++) {
			double us = (double)g->samples[s] / 1e3;

			if (us <= 0)
				continue;
			*lo = us < *lo ? us : *lo;
			*hi = us > *hi ? us : *hi;
		}
	}
}

/* Latency CDF and histogram of every measured latency path, on the x range
 * every device shares. */
static void latency_panels(FILE *f, const struct dev *d, double y0, const struct ranges *rg)
{
	const double w = 420, h = 220, xa = 60, xb = 560;
	double lo = rg->lat_lo, hi = rg->lat_hi;
	int k = 0;

	if (!(hi > 0)) {
		frame(f, "latency-cdf", xa, y0, w, h,
		      "latency CDF per path (signal to waiter's wake-up)");
		frac_ticks(f, xa, y0, w, h);
		y_unit(f, xa, y0, h, "fraction of samples <= x");
		text(f, xa + w / 2, y0 + h / 2, "middle", 12, "no latency samples");
		panel_end(f);
		frame(f, "latency-histogram", xb, y0, w, h,
		      "latency histogram per path (fraction of samples per bin)");
		frac_ticks(f, xb, y0, w, h);
		y_unit(f, xb, y0, h, "fraction of samples");
		panel_end(f);
		return;
	}
	frame(f, "latency-cdf", xa, y0, w, h, "latency CDF per path (signal to waiter's wake-up)");
	log_ticks(f, xa, y0, w, h, lo, hi, true, "microseconds (log)");
	frac_ticks(f, xa, y0, w, h);
	y_unit(f, xa, y0, h, "fraction of samples <= x");
	for (size_t i = 0; i < d->n; i++) {
		const struct plot_fig *g = &d->figs[i];
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

			us = us < lo ? lo : us > hi ? hi : us;
			r = (log10(us) - log10(lo)) / (log10(hi) - log10(lo));
			fprintf(f, "%.1f,%.1f ", xa + r * w, y0 + h - h * (j + 1.0) / g->nsamples);
		}
		fputs("\"/>\n", f);
		legend(f, xa, y0 + h + 36, k, g->path);
		k++;
		free(s);
	}
	panel_end(f);
	frame(f, "latency-histogram", xb, y0, w, h,
	      "latency histogram per path (fraction of samples per bin)");
	log_ticks(f, xb, y0, w, h, lo, hi, true, "microseconds (log)");
	frac_ticks(f, xb, y0, w, h);
	y_unit(f, xb, y0, h, "fraction of samples");
	k = 0;
	for (size_t i = 0; i < d->n; i++) {
		const struct plot_fig *g = &d->figs[i];
		unsigned bins[NBINS] = { 0 };

		if (!g->nsamples)
			continue;
		for (uint32_t j = 0; j < g->nsamples; j++) {
			double us = (double)g->samples[j] / 1e3, r;
			int b;

			us = us < lo ? lo : us > hi ? hi : us;
			r = (log10(us) - log10(lo)) / (log10(hi) - log10(lo));
			b = (int)(r * NBINS);
			bins[b >= NBINS ? NBINS - 1 : b]++;
		}
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
			colors[k % NCOLORS]);
		for (int b = 0; b < NBINS; b++) {
			double y = y0 + h - h * bins[b] / (double)g->nsamples;

			fprintf(f, "%.1f,%.1f %.1f,%.1f ", xb + w * b / NBINS, y,
				xb + w * (b + 1) / NBINS, y);
		}
		fputs("\"/>\n", f);
		legend(f, xb, y0 + h + 36, k, g->path);
		k++;
	}
	panel_end(f);
}

/* Grouped bars: @groups along x, @series bars per group, values from @val
 * (NAN: not measured), log y axis. */
/* The decade range of @n values (0, 0 when none is positive). */
static void value_range(const double *val, size_t n, double *lo, double *hi)
{
	for (size_t i = 0; i < n; i++) {
		if (!(val[i] > 0))
			continue;
		*lo = val[i] < *lo ? val[i] : *lo;
		*hi = val[i] > *hi ? val[i] : *hi;
	}
}

/* Grouped bars on the log y range @lo..@hi (shared by the panels of
 * @kind; 0, 0: nothing measured). */
static void bars(FILE *f, const char *kind, double x0, double y0, double w, double h,
		 const char *title, const char *unit, size_t ngroups, const char *const *groups,
		 size_t nseries, const char *const *series, const double *val, double lo, double hi)
{
	double gw = w / (double)(ngroups ? ngroups : 1);

	frame(f, kind, x0, y0, w, h, title);
	for (size_t s = 0; s < nseries; s++)
		legend(f, x0, y0 + h + 34, (int)s, series[s]);
	if (!(hi > 0)) {
		y_tick(f, x0, y0 + h, w, "0");
		y_tick(f, x0, y0, w, "-");
		y_unit(f, x0, y0, h, unit);
		text(f, x0 + w / 2, y0 + h / 2, "middle", 12, "not measured");
		panel_end(f);
		return;
	}
	log_ticks(f, x0, y0, w, h, lo, hi, false, unit);
	for (size_t g = 0; g < ngroups; g++) {
		double bw = gw * 0.8 / (double)nseries;

		/* narrow groups: every other label a line lower, so they never meet */
		text(f, x0 + gw * (g + 0.5), y0 + h + 14 + (gw < 90 ? (double)(g % 2) * 11 : 0),
		     "middle", 10, groups[g]);
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
	panel_end(f);
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

static const char *const lookup_groups[] = { "1 live event", "64 live", "4095 live" };
static const char *const lookup_series[] = { "fast path", "wrong id", "no id" };

static void lookup_values(const struct dev *d, double *val)
{
	static const uint32_t lives[] = { 1, 64, 4095 };

	for (size_t g = 0; g < 3; g++)
		for (size_t s = 0; s < 3; s++)
			val[g * 3 + s] = value_of(find(d, "lookup", lookup_series[s], lives[g]));
}

static void lookup_panel(FILE *f, const struct dev *d, double y0, const struct ranges *rg)
{
	double val[9];

	lookup_values(d, val);
	bars(f, "lookup", 60, y0, 420, 200, "kernel event lookup: fast path vs slot scan",
	     "ns/interrupt (log)", 3, lookup_groups, 3, lookup_series, val, rg->lookup_lo,
	     rg->lookup_hi);
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

static const char *const tput_series[] = { "batch 1", "batch 64", "batch 4095" };

static size_t throughput_values(const struct dev *d, const char **paths, double *val)
{
	static const uint32_t batch[] = { 1, 64, 4095 };
	size_t n = paths_of(d, "throughput", paths); /* every path measured, aql too */

	for (size_t g = 0; g < n; g++)
		for (size_t s = 0; s < 3; s++)
			val[g * 3 + s] = value_of(find(d, "throughput", paths[g], batch[s]));
	return n;
}

static void throughput_panel(FILE *f, const struct dev *d, double y0, const struct ranges *rg)
{
	const char *paths[MAX_PATHS];
	double val[MAX_PATHS * 3];
	size_t n = throughput_values(d, paths, val);

	bars(f, "throughput", 560, y0, 420, 200, "throughput per path and batch size",
	     "events/s (log)", n, paths, 3, tput_series, val, rg->tput_lo, rg->tput_hi);
}

static int64_t median_ns(const struct plot_fig *g)
{
	int64_t *s, m;

	if (!g || !g->nsamples || !(s = malloc(g->nsamples * sizeof(*s))))
		return 0;
	memcpy(s, g->samples, g->nsamples * sizeof(*s));
	qsort(s, g->nsamples, sizeof(*s), cmp_i64);
	m = s[g->nsamples / 2];
	free(s);
	return m;
}

/* The latency paths of every device, in the order first seen. */
static size_t compare_paths(const struct bench_plot *p, const char **paths)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++) {
		const char *dp[MAX_PATHS];
		size_t m = paths_of(&p->devs[i], "latency", dp);

		for (size_t j = 0; j < m; j++) {
			size_t k;

			for (k = 0; k < n && strcmp(paths[k], dp[j]); k++)
				;
			if (k == n && n < MAX_PATHS)
				paths[n++] = dp[j];
		}
	}
	return n;
}

/* The devices side by side: the median latency of each path, one bar per
 * device (shown with two devices or more). One panel holds NCOLORS devices
 * (one colour each); more devices get more panels, all on one y axis. */
#define COMPARE_PANEL_HEIGHT 330
static void compare_panels(FILE *f, const struct bench_plot *p, double y0)
{
	const char *paths[MAX_PATHS];
	const char *names[NCOLORS];
	double *val, lo = INFINITY, hi = 0;
	size_t n = compare_paths(p, paths);
	size_t npanels = (p->n + NCOLORS - 1) / NCOLORS;

	val = calloc(n * p->n + 1, sizeof(*val));
	if (!val)
		return;
	for (size_t g = 0; g < n; g++)
		for (size_t i = 0; i < p->n; i++)
			val[g * p->n + i] =
				(double)median_ns(find(&p->devs[i], "latency", paths[g], 0)) / 1e3;
	value_range(val, n * p->n, &lo, &hi);
	decade_range(&lo, &hi);
	for (size_t k = 0; k < npanels; k++) {
		size_t first = k * NCOLORS;
		size_t nd = p->n - first < NCOLORS ? p->n - first : NCOLORS;
		double *pv = calloc(n * nd + 1, sizeof(*pv));
		char title[96];

		if (!pv)
			break;
		for (size_t i = 0; i < nd; i++)
			names[i] = p->devs[first + i].label;
		for (size_t g = 0; g < n; g++)
			for (size_t i = 0; i < nd; i++)
				pv[g * nd + i] = val[g * p->n + first + i];
		if (npanels > 1)
			snprintf(title, sizeof(title),
				 "devices compared (%zu-%zu of %zu): median latency per path",
				 first + 1, first + nd, p->n);
		else
			snprintf(title, sizeof(title), "devices compared: median latency per path");
		bars(f, "devices", 60, y0 + COMPARE_PANEL_HEIGHT * (double)k, 920, 200, title,
		     "microseconds (log)", n, paths, nd, names, pv, lo, hi);
		free(pv);
	}
	free(val);
}

/* submit -> GPU timestamp -> wake for a few signals of the pm4 path: the
 * host latency is submit-to-wake, gpu-to-wake its tail; the difference is
 * submit to the GPU timestamp. */
/* A linear x axis of microseconds from 0 to @max (a round number) under a
 * panel, the bars starting at @sx and @sw wide at @max. */
static void time_axis(FILE *f, double sx, double y0, double sw, double h, double max)
{
	double step = pow(10, floor(log10(max)));
	char b[32];

	while (max / step < 3)
		step /= 2;
	for (double t = 0; t <= max * 1.0001; t += step) {
		double x = sx + sw * t / max;

		fprintf(f,
			"<line class=\"xtick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#888\"/>\n",
			x, y0 + h, x, y0 + h + 4);
		fmt_num(b, sizeof(b), t);
		text(f, x, y0 + h + 14, "middle", 10, b);
	}
	text(f, sx + sw / 2, y0 + h + 28, "middle", 11, "microseconds from submit");
}

/* @v rounded up to 1, 2 or 5 times a power of ten. */
static double round_up(double v)
{
	double p = pow(10, floor(log10(v)));

	return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
}

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

	frame(f, "timeline", x0, y0, w, h,
	      "pm4 timeline: submit -> GPU timestamp (RELEASE_MEM, DATA_SEL 3) -> waiter's "
	      "wake-up");
	y_unit(f, x0 + 10, y0, h, "signal (host latency percentile)");
	if (!host || !gpu || !host->nsamples || host->nsamples != gpu->nsamples) {
		for (int k = 0; k < 4; k++)
			fprintf(f,
				"<text class=\"ytick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
				"font-size=\"11\">%s</text>\n",
				x0 + 50, y0 + 25 + k * 28, names[k]);
		text(f, x0 + w / 2, y0 + h / 2, "middle", 12,
		     "no GPU timestamps on this device (pm4 gpu-to-wake not measured)");
		panel_end(f);
		return;
	}
	/* the signals at the host latency's percentiles */
	order = malloc(host->nsamples * sizeof(*order));
	if (!order) {
		panel_end(f);
		return;
	}
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
	maxus = round_up(maxus);
	for (int k = 0; k < 4; k++) {
		double total = (double)host->samples[idx[k]] / 1e3;
		double tail = (double)gpu->samples[idx[k]] / 1e3;
		double head, y = y0 + 12 + k * 28;
		double sx = 60 + 60, sw = w - 420;
		char b[160];

		/* a clock calibration error can put the GPU timestamp before
		 * submit or after the wake-up: both bars stay within 0..total */
		if (total < 0)
			total = 0;
		if (tail > total)
			tail = total;
		if (tail < 0)
			tail = 0;
		head = total - tail;
		fprintf(f,
			"<text class=\"ytick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			"font-size=\"11\">%s</text>\n",
			x0 + 50, y + 13, names[k]);
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"16\" fill=\"%s\"/>\n"
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"16\" fill=\"%s\"/>\n",
			sx, y, sw * head / maxus, colors[0], sx + sw * head / maxus, y,
			sw * tail / maxus, colors[1]);
		snprintf(b, sizeof(b), "submit->GPU ts %.1f us, GPU ts->wake %.1f us", head, tail);
		text(f, sx + sw * (head + tail) / maxus + 6, y + 12, "start", 10, b);
	}
	time_axis(f, 60 + 60, y0, w - 420, h, maxus);
	legend(f, x0 + 60, y0 + h + 36, 0, "submit -> GPU timestamp");
	legend(f, x0 + 100, y0 + h + 36, 1, "GPU timestamp -> wake-up");
	panel_end(f);
}

#define DEV_HEIGHT 900
#define DEV_WIDTH 1000
/* Devices per column: librsvg, like most SVG renderers, refuses a canvas
 * above 32767 pixels on a side, so many devices (every emulated one) go
 * side by side in columns of at most this many. */
#define DEV_PER_COLUMN 24

int bench_plot_write(const struct bench_plot *p, FILE *f)
{
	size_t ncompare = p->n > 1 ? (p->n + NCOLORS - 1) / NCOLORS : 0;
	size_t cols = p->n > DEV_PER_COLUMN ? (p->n + DEV_PER_COLUMN - 1) / DEV_PER_COLUMN : 1;
	size_t rows = p->n ? (p->n + cols - 1) / cols : 1;
	double hgt = 40 + DEV_HEIGHT * (double)rows +
		     (ncompare ? 40 + COMPARE_PANEL_HEIGHT * (double)ncompare : 0);
	double wdt = DEV_WIDTH * (double)cols;
	struct ranges rg = { INFINITY, 0, INFINITY, 0, INFINITY, 0 };

	for (size_t i = 0; i < p->n; i++) {
		const char *paths[MAX_PATHS];
		double val[MAX_PATHS * 3];
		size_t n;

		latency_range(&p->devs[i], &rg.lat_lo, &rg.lat_hi);
		lookup_values(&p->devs[i], val);
		value_range(val, 9, &rg.lookup_lo, &rg.lookup_hi);
		n = throughput_values(&p->devs[i], paths, val);
		value_range(val, n * 3, &rg.tput_lo, &rg.tput_hi);
	}
	decade_range(&rg.lat_lo, &rg.lat_hi);
	decade_range(&rg.lookup_lo, &rg.lookup_hi);
	decade_range(&rg.tput_lo, &rg.tput_hi);

	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		wdt, hgt, wdt, hgt);
	text(f, 500, 24, "middle", 16, "kfdsig bench");
	for (size_t i = 0; i < p->n; i++) {
		const struct dev *d = &p->devs[i];
		double y0 = 40 + DEV_HEIGHT * (double)(i % rows);

		/* a column's devices drawn as the first column's, moved right */
		if (i / rows)
			fprintf(f, "<g class=\"column\" transform=\"translate(%.0f,0)\">\n",
				DEV_WIDTH * (double)(i / rows));
		text(f, 20, y0 + 16, "start", 14, d->title);
		latency_panels(f, d, y0 + 50, &rg);
		lookup_panel(f, d, y0 + 390, &rg);
		throughput_panel(f, d, y0 + 390, &rg);
		timeline_panel(f, d, y0 + 690);
		if (i / rows)
			fputs("</g>\n", f);
	}
	if (p->n > 1)
		compare_panels(f, p, 40 + DEV_HEIGHT * (double)rows + 40);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
