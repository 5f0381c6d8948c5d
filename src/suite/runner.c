/* SPDX-License-Identifier: MIT */
/*
 * The suite runner: one fresh KFD process per case and device, one row per
 * case (PASS / FAIL reason / SKIP reason), the summary line
 * "N passed, N failed, N skipped", text or JSON, a progress line on a TTY.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "case.h"
#include "core/escape.h"

static const char *const engine_names[SUITE_ENGINE_COUNT] = { "pm4", "sdma", "shader", "aql" };

const char *suite_engine_name(int engine)
{
	if (engine < 0 || engine >= SUITE_ENGINE_COUNT)
		return NULL;
	return engine_names[engine];
}

bool suite_parse_engines(const char *list, unsigned *mask, const char **bad, size_t *badlen)
{
	const char *p = list;

	*mask = 0;
	while (p && *p) {
		size_t len = strcspn(p, ",");
		int found = -1;

		for (int e = 0; e < SUITE_ENGINE_COUNT; e++)
			if (len == strlen(engine_names[e]) && !strncmp(p, engine_names[e], len))
				found = e;
		if (found < 0) {
			*bad = p;
			*badlen = len;
			return false;
		}
		*mask |= SUITE_ENGINE_BIT(found);
		p += len;
		if (*p == ',')
			p++;
	}
	if (!*mask) {
		*bad = list ? list : "";
		*badlen = list ? strlen(list) : 0;
		return false;
	}
	return true;
}

bool suite_glob_match(const char *globs, const char *name)
{
	char one[256];
	const char *p = globs;

	if (!globs)
		return true;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len && len < sizeof(one)) {
			memcpy(one, p, len);
			one[len] = 0;
			if (!fnmatch(one, name, 0))
				return true;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

static enum suite_result vreason(struct suite_ctx *c, enum suite_result r, const char *fmt,
				 va_list ap)
{
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	return r;
}

enum suite_result suite_fail(struct suite_ctx *c, const char *fmt, ...)
{
	va_list ap;
	enum suite_result r;

	va_start(ap, fmt);
	r = vreason(c, SUITE_FAIL, fmt, ap);
	va_end(ap);
	return r;
}

enum suite_result suite_skip(struct suite_ctx *c, const char *fmt, ...)
{
	va_list ap;
	enum suite_result r;

	va_start(ap, fmt);
	r = vreason(c, SUITE_SKIP, fmt, ap);
	va_end(ap);
	return r;
}

enum suite_result suite_note(struct suite_ctx *c, const char *fmt, ...)
{
	va_list ap;
	enum suite_result r;

	va_start(ap, fmt);
	r = vreason(c, SUITE_PASS, fmt, ap);
	va_end(ap);
	return r;
}

uint64_t suite_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

size_t suite_select(const struct suite_case *const *cases, size_t n, const struct suite_opts *o,
		    const struct suite_case **out, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct suite_case *cs = cases[i];

		if (!suite_glob_match(o->globs, cs->name))
			continue;
		if (cs->engine >= 0 && !(o->engines & SUITE_ENGINE_BIT(cs->engine)))
			continue;
		if (k < max)
			out[k] = cs;
		k++;
	}
	return k;
}

enum suite_result suite_run_one(const struct suite_case *cs, const struct suite_device *d,
				uint32_t wait_ms, struct suite_ctx *c)
{
	enum suite_result r;
	int err;

	memset(c, 0, sizeof(*c));
	c->cs = cs;
	c->d = d;
	c->engine = cs->engine;
	c->wait_ms = wait_ms;
	if ((cs->flags & SUITE_EMU_ONLY) && !d->emu)
		return suite_skip(c, "drives the emulated kernel's interrupt entry point "
				     "(run with --emulate)");
	err = kfdsig_kfd_open(d->ops, &c->kfd);
	if (err < 0)
		return suite_fail(c, "cannot open KFD: %s", kfdsig_last_error());
	c->dev = kfdsig_kfd_device_by_gpu_id(c->kfd, d->gpu_id);
	if (!c->dev) {
		kfdsig_kfd_close(c->kfd);
		return suite_fail(c, "gpu_id 0x%x is gone from the topology", d->gpu_id);
	}
	c->t = c->dev->target;
	if (d->emu)
		c->pasid = kfdsig_emu_pasid_on(d->emu, kfdsig_kfd_fd(c->kfd), d->gpu_id);
	r = cs->run(c);
	kfdsig_kfd_close(c->kfd);
	c->kfd = NULL;
	if (r != SUITE_PASS && !c->why[0])
		snprintf(c->why, sizeof(c->why), "(no reason given)");
	return r;
}

static const char *const result_names[] = { "PASS", "FAIL", "SKIP" };

static void json_str(FILE *f, const char *s)
{
	esc_json_fputs(f, s);
}

static void json_str_or_null(FILE *f, const char *s)
{
	if (s)
		json_str(f, s);
	else
		fputs("null", f);
}

void suite_list(const struct suite_case *const *cases, size_t n, bool json, FILE *out)
{
	if (json)
		fputs("[", out);
	for (size_t i = 0; i < n; i++) {
		const struct suite_case *cs = cases[i];
		const char *needs = cs->flags & SUITE_QUEUES	 ? "user-queues"
				    : cs->flags & SUITE_EMU_ONLY ? "emulator"
								 : NULL;

		if (!json) {
			fprintf(out, "%-30s %s\n", cs->name, cs->checks);
			if (cs->expect)
				fprintf(out, "%-30s expects: %s\n", "", cs->expect);
			continue;
		}
		fprintf(out, "%s\n {\"case\": ", i ? "," : "");
		json_str(out, cs->name);
		fputs(", \"engine\": ", out);
		json_str_or_null(out, suite_engine_name(cs->engine));
		fputs(", \"needs\": ", out);
		json_str_or_null(out, needs);
		fputs(", \"checks\": ", out);
		json_str(out, cs->checks);
		fputs(", \"expects\": ", out);
		json_str_or_null(out, cs->expect);
		fputs("}", out);
	}
	if (json)
		fputs("\n]\n", out);
}

static void progress(const struct suite_opts *o, size_t done, size_t total, const char *dev,
		     const char *name)
{
	if (!o->progress || !o->progress_out)
		return;
	if (name)
		fprintf(o->progress_out, "\r\033[K[%zu/%zu] %s %s", done + 1, total, dev, name);
	else
		fputs("\r\033[K", o->progress_out);
	fflush(o->progress_out);
}

/* One row of a run, kept for the skip summary and the JUnit report. */
struct row {
	size_t dev;
	const struct suite_case *cs;
	enum suite_result r;
	char why[320];
	double ms;
};

static void xml_str(FILE *f, const char *s)
{
	esc_fputs(f, ESC_XML, s);
}

static void write_junit(FILE *f, const struct row *rows, size_t nrows,
			const struct suite_device *devs, size_t ndev,
			const struct suite_counts *cnt)
{
	double total = 0;

	for (size_t i = 0; i < nrows; i++)
		total += rows[i].ms;
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"kfdsig test\" tests=\"%zu\" failures=\"%u\" skipped=\"%u\" "
		"errors=\"0\" time=\"%.6f\">\n",
		nrows, cnt->failed, cnt->skipped, total / 1e3);
	for (size_t d = 0; d < ndev; d++) {
		unsigned n = 0, failed = 0, skipped = 0;
		double t = 0;

		for (size_t i = 0; i < nrows; i++) {
			if (rows[i].dev != d)
				continue;
			n++;
			failed += rows[i].r == SUITE_FAIL;
			skipped += rows[i].r == SUITE_SKIP;
			t += rows[i].ms;
		}
		fputs("  <testsuite name=\"", f);
		xml_str(f, devs[d].label);
		fprintf(f,
			"\" tests=\"%u\" failures=\"%u\" skipped=\"%u\" errors=\"0\" "
			"time=\"%.6f\">\n",
			n, failed, skipped, t / 1e3);
		for (size_t i = 0; i < nrows; i++) {
			const struct row *r = &rows[i];

			if (r->dev != d)
				continue;
			fputs("    <testcase classname=\"kfdsig.", f);
			xml_str(f, devs[d].label);
			fputs("\" name=\"", f);
			xml_str(f, r->cs->name);
			fprintf(f, "\" time=\"%.6f\"", r->ms / 1e3);
			if (r->r == SUITE_PASS && !r->why[0]) {
				fputs("/>\n", f);
				continue;
			}
			fputs(">\n      ", f);
			if (r->r == SUITE_PASS) {
				fputs("<system-out>", f);
				xml_str(f, r->why);
				fputs("</system-out>\n", f);
			} else {
				fputs(r->r == SUITE_FAIL ? "<failure message=\""
							 : "<skipped message=\"",
				      f);
				xml_str(f, r->why);
				fputs("\"/>\n", f);
			}
			fputs("    </testcase>\n", f);
		}
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}

/* Text output: the skips, one line per reason: the cases and devices it
 * covers. */
static void skip_summary(FILE *out, const struct row *rows, size_t nrows,
			 const struct suite_device *devs)
{
	bool *done = calloc(nrows ? nrows : 1, sizeof(*done));

	if (!done)
		return;
	for (size_t i = 0; i < nrows; i++) {
		unsigned n = 0;

		if (rows[i].r != SUITE_SKIP || done[i])
			continue;
		fputs("SKIP  ", out);
		/* the cases with this reason, each once, in order */
		for (size_t j = i; j < nrows; j++) {
			bool seen = false;

			if (rows[j].r != SUITE_SKIP || strcmp(rows[j].why, rows[i].why))
				continue;
			for (size_t k = i; k < j && !seen; k++)
				seen = rows[k].r == SUITE_SKIP &&
				       !strcmp(rows[k].why, rows[i].why) &&
				       rows[k].cs == rows[j].cs;
			if (!seen)
				fprintf(out, "%s%s", n++ ? ", " : "", rows[j].cs->name);
		}
		fputs(" on ", out);
		n = 0;
		for (size_t j = i; j < nrows; j++) {
			bool seen = false;

			if (rows[j].r != SUITE_SKIP || strcmp(rows[j].why, rows[i].why))
				continue;
			done[j] = true;
			for (size_t k = i; k < j && !seen; k++)
				seen = rows[k].r == SUITE_SKIP &&
				       !strcmp(rows[k].why, rows[i].why) &&
				       rows[k].dev == rows[j].dev;
			if (!seen)
				fprintf(out, "%s%s", n++ ? ", " : "", devs[rows[j].dev].label);
		}
		fprintf(out, ": %s\n", rows[i].why);
	}
	free(done);
}

/* A KTAP diagnostic line: "    # text", one line per line of @why. */
static void ktap_note(FILE *out, const char *why)
{
	fputs("    # ", out);
	for (const char *p = why; *p; p++)
		fputs(*p == '\n' ? "\n    # " : (char[]){ *p, 0 }, out);
	fputc('\n', out);
}

/* " # SKIP reason" on one line (TAP, KTAP: the directive ends the line). */
static void tap_skip(FILE *out, const char *why)
{
	fputs(" # SKIP ", out);
	for (const char *p = why; *p; p++)
		fputc(*p == '\n' ? ' ' : *p, out);
}

static void tap_yaml(FILE *out, const char *key, const char *val)
{
	fprintf(out, "  %s: ", key);
	json_str(out, val); /* a JSON string is a YAML flow scalar */
	fputc('\n', out);
}

int suite_run(const struct suite_case *const *cases, size_t ncases, const struct suite_device *devs,
	      size_t ndev, const struct suite_opts *o, FILE *out, struct suite_counts *cnt)
{
	size_t total = ncases * ndev, done = 0, nrows = 0;
	struct row *rows = calloc(total ? total : 1, sizeof(*rows));
	bool first = true;

	memset(cnt, 0, sizeof(*cnt));
	if (!rows) {
		fputs("kfdsig test: out of memory\n", stderr);
		return 1;
	}
	if (o->output == SUITE_OUT_TAP)
		fprintf(out, "TAP version 13\n1..%zu\n", total);
	/* KTAP version 1 (the kernel's Documentation/dev-tools/ktap.rst): a
	 * test per device, its cases as subtests, indented as KUnit does */
	if (o->output == SUITE_OUT_KTAP)
		fprintf(out, "KTAP version 1\n1..%zu\n", ndev);
	if (o->output == SUITE_OUT_JSON) {
		fputs("{\"devices\": [", out);
		for (size_t i = 0; i < ndev; i++) {
			const struct suite_device *d = &devs[i];
			fprintf(out, "%s\n  {\"device\": %zu, \"label\": ", i ? "," : "", i);
			json_str(out, d->label);
			fprintf(out, ", \"gpu_id\": %u, \"target\": ", d->gpu_id);
			json_str_or_null(out, d->target ? d->target->name : NULL);
			fprintf(out,
				", \"backend\": \"%s\", \"kfd_version\": \"%u.%u\", "
				"\"kernel_profile\": ",
				d->emu ? "emulated" : "linux", d->kfd_major, d->kfd_minor);
			json_str(out, d->profile ? d->profile : "?");
			fputs("}", out);
		}
		fputs("\n ],\n \"results\": [", out);
	}
	for (size_t di = 0; di < ndev; di++) {
		const struct suite_device *d = &devs[di];
		size_t dev_failed = 0, dev_skipped = 0;

		if (o->output == SUITE_OUT_KTAP) {
			fprintf(out, "    KTAP version 1\n    # Subtest: %s\n    1..%zu\n",
				d->label, ncases);
		}
		for (size_t i = 0; i < ncases; i++, done++) {
			const struct suite_case *cs = cases[i];
			struct row *row = &rows[nrows++];
			struct suite_ctx c;
			enum suite_result r;
			uint64_t t0;
			char ms[24] = "";

			progress(o, done, total, d->label, cs->name);
			t0 = suite_now_ns();
			r = suite_run_one(cs, d, o->wait_ms, &c);
			row->ms = (double)(suite_now_ns() - t0) / 1e6;
			progress(o, done, total, d->label, NULL);
			row->dev = di;
			row->cs = cs;
			row->r = r;
			snprintf(row->why, sizeof(row->why), "%s", c.why);
			if (r == SUITE_PASS)
				cnt->passed++;
			else if (r == SUITE_FAIL)
				cnt->failed++, dev_failed++;
			else
				cnt->skipped++, dev_skipped++;
			if (o->times)
				snprintf(ms, sizeof(ms), "%8.1f ms  ", row->ms);
			if (o->output == SUITE_OUT_JSON) {
				fprintf(out,
					"%s\n  {\"device\": %zu, \"label\": ", first ? "" : ",",
					di);
				json_str(out, d->label);
				fputs(", \"case\": ", out);
				json_str(out, cs->name);
				fputs(", \"engine\": ", out);
				json_str_or_null(out, suite_engine_name(cs->engine));
				fprintf(out, ", \"result\": \"%s\", \"reason\": ", result_names[r]);
				json_str_or_null(out, c.why[0] ? c.why : NULL);
				if (o->times)
					fprintf(out, ", \"duration_ms\": %.3f", row->ms);
				fputs("}", out);
			} else if (o->output == SUITE_OUT_KTAP) {
				if (r == SUITE_FAIL || (r == SUITE_PASS && c.why[0]))
					ktap_note(out, c.why);
				fprintf(out, "    %s %zu %s", r == SUITE_FAIL ? "not ok" : "ok",
					i + 1, cs->name);
				if (r == SUITE_SKIP)
					tap_skip(out, c.why);
				fputc('\n', out);
			} else if (o->output == SUITE_OUT_TAP) {
				fprintf(out, "%s %zu - %s %s", r == SUITE_FAIL ? "not ok" : "ok",
					done + 1, d->label, cs->name);
				if (r == SUITE_SKIP)
					tap_skip(out, c.why);
				fputc('\n', out);
				if (r != SUITE_SKIP && (c.why[0] || o->times)) {
					fputs("  ---\n", out);
					if (c.why[0])
						tap_yaml(out, r == SUITE_FAIL ? "message" : "note",
							 c.why);
					if (o->times)
						fprintf(out, "  duration_ms: %.3f\n", row->ms);
					fputs("  ...\n", out);
				}
			} else if (r == SUITE_SKIP) {
				/* summarised after the rows, one line per reason */
			} else if (r == SUITE_PASS && !c.why[0]) {
				fprintf(out, "PASS  %-9s %s%s\n", d->label, ms, cs->name);
			} else {
				fprintf(out, "%s  %-9s %s%s: %s\n", result_names[r], d->label, ms,
					cs->name, c.why);
			}
			first = false;
			fflush(out);
		}
		if (o->output == SUITE_OUT_KTAP) {
			fprintf(out, "%s %zu %s", dev_failed ? "not ok" : "ok", di + 1, d->label);
			if (ncases && dev_skipped == ncases)
				fputs(" # SKIP every case skipped", out);
			fputc('\n', out);
		}
	}
	if (o->output == SUITE_OUT_JSON) {
		fprintf(out,
			"\n ],\n \"summary\": {\"passed\": %u, \"failed\": %u, \"skipped\": "
			"%u}\n}\n",
			cnt->passed, cnt->failed, cnt->skipped);
	} else if (o->output == SUITE_OUT_TAP || o->output == SUITE_OUT_KTAP) {
		fprintf(out, "# %u passed, %u failed, %u skipped\n", cnt->passed, cnt->failed,
			cnt->skipped);
	} else {
		skip_summary(out, rows, nrows, devs);
		fprintf(out, "%u passed, %u failed, %u skipped\n", cnt->passed, cnt->failed,
			cnt->skipped);
	}
	if (o->junit)
		write_junit(o->junit, rows, nrows, devs, ndev, cnt);
	free(rows);
	return cnt->failed ? 1 : 0;
}

/* Helpers for cases */

enum suite_result suite_event(struct suite_ctx *c, bool auto_reset, struct kfdsig_event *ev)
{
	int r = kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_SIGNAL, auto_reset, ev);

	if (r < 0)
		return suite_fail(c, "CREATE_EVENT failed: %s (%s)", strerror(-r),
				  kfdsig_last_error());
	return SUITE_PASS;
}

int suite_wait1(struct suite_ctx *c, uint32_t id, uint64_t *age, uint32_t timeout_ms,
		enum kfdsig_wait_result *res)
{
	struct kfdsig_wait_entry e = { .event_id = id, .age = age ? *age : 0 };
	int r = kfdsig_kfd_wait(c->kfd, &e, 1, false, timeout_ms, res);

	if (age)
		*age = e.age;
	return r;
}

bool suite_signalled(struct suite_ctx *c, uint32_t id)
{
	enum kfdsig_wait_result res;

	return suite_wait1(c, id, NULL, 0, &res) == 0 && res == KFDSIG_WAIT_COMPLETE;
}

const char *suite_wait_result_name(enum kfdsig_wait_result r)
{
	switch (r) {
	case KFDSIG_WAIT_COMPLETE:
		return "COMPLETE";
	case KFDSIG_WAIT_TIMEOUT:
		return "TIMEOUT";
	case KFDSIG_WAIT_FAIL:
		return "FAIL";
	}
	return "?";
}

bool suite_has_age(const struct suite_ctx *c)
{
	return kfdsig_kfd_has(c->kfd, KFDSIG_KFD_FEAT_EVENT_AGE);
}
