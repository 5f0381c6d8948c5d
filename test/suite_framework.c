/* SPDX-License-Identifier: MIT */
/*
 * The framework of `kfdsig test` (src/suite/runner.c) on cases of its
 * own: globs and engine lists, case selection, one fresh KFD process per
 * case, the exact row and summary text, the exact JSON, the return code,
 * and the standard SKIP reasons.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "suite/case.h"

static void test_glob(void)
{
	CHECK(suite_glob_match(NULL, "events.max"), "NULL matches everything");
	CHECK(suite_glob_match("events.*", "events.max"), "prefix glob");
	CHECK(!suite_glob_match("events.*", "wait.event-age"), "other group");
	CHECK(suite_glob_match("wait.*,events.max", "events.max"), "second of a list");
	CHECK(suite_glob_match("wait.*,events.max", "wait.timeout-zero"), "first of a list");
	CHECK(!suite_glob_match("wait.*,events.max", "events.max2"), "whole-name match");
	CHECK(suite_glob_match("*.pm4", "gpu.signal.pm4"), "suffix");
	CHECK(suite_glob_match("gpu.signal.[ps]*", "gpu.signal.sdma"), "bracket");
	CHECK(!suite_glob_match("gpu.signal.[ps]*", "gpu.signal.x"), "bracket miss");
	CHECK(suite_glob_match("irq.?ast-path", "irq.fast-path"), "?");
	CHECK(!suite_glob_match("", "events.max"), "empty glob matches nothing");
	CHECK(!suite_glob_match(",,", "events.max"), "empty items match nothing");
}

static void test_engines(void)
{
	unsigned m = 0;
	const char *bad = NULL;
	size_t len = 0;

	CHECK(suite_parse_engines("pm4,sdma", &m, &bad, &len) && m == 3, "pm4,sdma: %x", m);
	CHECK(suite_parse_engines("shader", &m, &bad, &len) && m == 4, "shader: %x", m);
	CHECK(!suite_parse_engines("pm4,gpu,sdma", &m, &bad, &len) && len == 3 &&
		      !strncmp(bad, "gpu", 3),
	      "unknown engine named");
	CHECK(!suite_parse_engines("", &m, &bad, &len), "empty list refused");
	CHECK(!suite_parse_engines("pm", &m, &bad, &len), "no prefixes");
	CHECK(!strcmp(suite_engine_name(SUITE_ENGINE_SDMA), "sdma"), "name");
	CHECK(suite_engine_name(SUITE_ENGINE_NONE) == NULL, "no engine: NULL");
}

/* Fake cases */
static unsigned runs;

static enum suite_result c_pass(struct suite_ctx *c)
{
	struct kfdsig_event ev;

	runs++;
	CHECK(c->kfd && c->dev && c->t, "the case gets a process, device and target");
	CHECK(c->dev->gpu_id == c->d->gpu_id, "the device of the row");
	CHECK(c->d->emu == NULL || c->pasid > 0, "a pasid under the emulator");
	/* a fresh process: the first event id is 1 in every case */
	CHECK(kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_SIGNAL, false, &ev) == 0 && ev.id == 1,
	      "fresh process per case (id %u)", ev.id);
	return SUITE_PASS;
}

static enum suite_result c_fail(struct suite_ctx *c)
{
	runs++;
	SUITE_CHECK(c, 1 + 1 == 3, "boom %d", 42);
	return SUITE_PASS;
}

static enum suite_result c_skip(struct suite_ctx *c)
{
	runs++;
	return suite_skip(c, "not \"today\"");
}

/* Through the engine layer: a PM4 queue signals an event. */
static enum suite_result c_queue(struct suite_ctx *c)
{
	struct suite_queue *q = NULL;
	struct kfdsig_event ev;
	enum kfdsig_wait_result res;
	enum suite_result r;

	runs++;
	if (suite_event(c, false, &ev))
		return SUITE_FAIL;
	r = suite_queue_open(c, SUITE_ENGINE_PM4, 0, &q);
	if (r == SUITE_PASS)
		r = suite_queue_signal(c, q, ev.id, 0, 0);
	if (r == SUITE_PASS)
		r = suite_queue_flush(c, q);
	suite_queue_close(q);
	if (r != SUITE_PASS)
		return r;
	SUITE_CHECK(c, suite_wait1(c, ev.id, NULL, 2000, &res) == 0 && res == KFDSIG_WAIT_COMPLETE,
		    "the PM4 fence did not wake event %u", ev.id);
	return SUITE_PASS;
}

/* The bound a case's waits get: its own, or kfdsig test -T's. */
static uint32_t bound_seen;

static enum suite_result c_bound(struct suite_ctx *c)
{
	bound_seen = suite_bound_ms(c, 1234);
	return SUITE_PASS;
}

static const struct suite_case fake[] = {
	{ "t.pass", "passes", NULL, SUITE_ENGINE_NONE, 0, c_pass },
	{ "t.fail", "fails", "says why", SUITE_ENGINE_NONE, 0, c_fail },
	{ "t.skip", "skips", NULL, SUITE_ENGINE_NONE, 0, c_skip },
	{ "t.eng.pm4", "pm4 only", NULL, SUITE_ENGINE_PM4, 0, c_pass },
	{ "t.eng.sdma", "sdma only", NULL, SUITE_ENGINE_SDMA, 0, c_pass },
	{ "t.emu", "emulator only", NULL, SUITE_ENGINE_NONE, SUITE_EMU_ONLY, c_pass },
	{ "t.queues", "needs queues", NULL, SUITE_ENGINE_NONE, SUITE_QUEUES, c_queue },
};
#define NFAKE (sizeof(fake) / sizeof(fake[0]))

static char *run_to_string(const struct suite_case *const *cs, size_t n,
			   const struct suite_device *d, size_t nd, bool json, int *ret,
			   struct suite_counts *cnt)
{
	struct suite_opts o = { .engines = SUITE_ENGINES_ALL,
				.json = json,
				.output = json ? SUITE_OUT_JSON : SUITE_OUT_TEXT };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = suite_run(cs, n, d, nd, &o, f, cnt);
	fclose(f);
	return buf;
}

static void test_select(void)
{
	const struct suite_case *all[NFAKE], *sel[NFAKE];
	struct suite_opts o = { .engines = SUITE_ENGINES_ALL };
	size_t n;

	for (size_t i = 0; i < NFAKE; i++)
		all[i] = &fake[i];
	n = suite_select(all, NFAKE, &o, sel, NFAKE);
	CHECK_EQ(n, NFAKE, "no filter: all");
	o.globs = "t.eng.*";
	o.engines = SUITE_ENGINE_BIT(SUITE_ENGINE_SDMA);
	n = suite_select(all, NFAKE, &o, sel, NFAKE);
	CHECK(n == 1 && sel[0] == &fake[4], "glob + engine: only t.eng.sdma (%zu)", n);
	o.globs = "t.p*,t.s*";
	n = suite_select(all, NFAKE, &o, sel, NFAKE);
	CHECK(n == 2 && sel[0] == &fake[0] && sel[1] == &fake[2], "comma globs, in order");
	o.globs = "nothing";
	CHECK_EQ(suite_select(all, NFAKE, &o, sel, NFAKE), 0, "no match");
}

static void test_run(struct kfdsig_emu *emu)
{
	struct suite_device d[2];
	const struct suite_case *cs[NFAKE];
	struct suite_counts cnt;
	char *out;
	int ret;

	memset(d, 0, sizeof(d));
	d[0].ops = kfdsig_emu_ops(emu);
	d[0].emu = emu;
	{
		struct kfdsig_kfd *kfd = NULL;
		CHECK(kfdsig_kfd_open(d[0].ops, &kfd) == 0, "open");
		d[0].gpu_id = kfdsig_kfd_device(kfd, 0)->gpu_id;
		d[0].target = kfdsig_kfd_device(kfd, 0)->target;
		kfdsig_kfd_close(kfd);
	}
	snprintf(d[0].label, sizeof(d[0].label), "gfx90a");
	d[0].kfd_major = 1;
	d[0].kfd_minor = 18;
	d[0].profile = "default";
	/* the same GPU seen as if it were hardware: emulator-only cases skip */
	d[1] = d[0];
	d[1].emu = NULL;
	snprintf(d[1].label, sizeof(d[1].label), "hw");
	d[1].profile = "linux 6.8";

	for (size_t i = 0; i < NFAKE; i++)
		cs[i] = &fake[i];
	runs = 0;
	out = run_to_string(cs, NFAKE, d, 2, false, &ret, &cnt);
	char want[2048];
	snprintf(want, sizeof(want),
		 "PASS  gfx90a    t.pass\n"
		 "FAIL  gfx90a    t.fail: boom 42\n"
		 "PASS  gfx90a    t.eng.pm4\n"
		 "PASS  gfx90a    t.eng.sdma\n"
		 "PASS  gfx90a    t.emu\n"
		 "PASS  gfx90a    t.queues\n"
		 "PASS  hw        t.pass\n"
		 "FAIL  hw        t.fail: boom 42\n"
		 "PASS  hw        t.eng.pm4\n"
		 "PASS  hw        t.eng.sdma\n"
		 "PASS  hw        t.queues\n"
		 /* skips: one line per reason, the cases and devices it covers */
		 "SKIP  t.skip on gfx90a, hw: not \"today\"\n"
		 "SKIP  t.emu on hw: drives the emulated kernel's interrupt entry point (run "
		 "with --emulate)\n"
		 "9 passed, 2 failed, 3 skipped\n");
	CHECK(out && !strcmp(out, want), "text rows:\n%s\nexpected:\n%s", out, want);
	CHECK_EQ(ret, 1, "a failure makes suite_run return 1");
	CHECK_EQ(runs, 13, "cases that ran (not the emulator-only one on hw)");
	free(out);

	/* only passing and skipping cases: 0 */
	const struct suite_case *ok[2] = { &fake[0], &fake[2] };
	out = run_to_string(ok, 2, d, 1, false, &ret, &cnt);
	CHECK(out && !strcmp(out, "PASS  gfx90a    t.pass\n"
				  "SKIP  t.skip on gfx90a: not \"today\"\n"
				  "1 passed, 0 failed, 1 skipped\n"),
	      "pass+skip: %s", out);
	CHECK_EQ(ret, 0, "skips do not fail the run");
	free(out);

	/* JSON, exactly */
	const struct suite_case *js[3] = { &fake[0], &fake[1], &fake[3] };
	out = run_to_string(js, 3, d, 1, true, &ret, &cnt);
	const char *want_json =
		"{\"devices\": [\n"
		"  {\"device\": 0, \"label\": \"gfx90a\", \"gpu_id\": %u, \"target\": \"gfx90a\", "
		"\"backend\": \"emulated\", \"kfd_version\": \"1.18\", \"kernel_profile\": "
		"\"default\"}\n"
		" ],\n"
		" \"results\": [\n"
		"  {\"device\": 0, \"label\": \"gfx90a\", \"case\": \"t.pass\", \"engine\": null, "
		"\"result\": \"PASS\", \"reason\": null},\n"
		"  {\"device\": 0, \"label\": \"gfx90a\", \"case\": \"t.fail\", \"engine\": null, "
		"\"result\": \"FAIL\", \"reason\": \"boom 42\"},\n"
		"  {\"device\": 0, \"label\": \"gfx90a\", \"case\": \"t.eng.pm4\", \"engine\": "
		"\"pm4\", \"result\": \"PASS\", \"reason\": null}\n"
		" ],\n"
		" \"summary\": {\"passed\": 2, \"failed\": 1, \"skipped\": 0}\n"
		"}\n";
	snprintf(want, sizeof(want), want_json, d[0].gpu_id);
	CHECK(out && !strcmp(out, want), "JSON:\n%s\nexpected:\n%s", out, want);
	CHECK_EQ(ret, 1, "JSON run with a failure returns 1");
	CHECK(cnt.passed == 2 && cnt.failed == 1 && cnt.skipped == 0, "counts");
	free(out);

	/* TAP 13 and JUnit, with durations */
	{
		const struct suite_case *tc[3] = { &fake[0], &fake[1], &fake[2] };
		struct suite_opts o = { .engines = SUITE_ENGINES_ALL,
					.output = SUITE_OUT_TAP,
					.times = true };
		char *jbuf = NULL;
		size_t len = 0, jlen = 0;
		FILE *f = open_memstream(&out, &len);

		o.junit = open_memstream(&jbuf, &jlen);
		ret = suite_run(tc, 3, d, 1, &o, f, &cnt);
		fclose(f);
		fclose(o.junit);
		CHECK(out && !strncmp(out,
				      "TAP version 13\n1..3\nok 1 - gfx90a t.pass\n  ---\n"
				      "  duration_ms: ",
				      51),
		      "TAP header and first point:\n%s", out);
		CHECK(out && strstr(out, "\nnot ok 2 - gfx90a t.fail\n  ---\n  message: \"boom "
					 "42\"\n  duration_ms: "),
		      "TAP failure with its message:\n%s", out);
		CHECK(out && strstr(out, "\nok 3 - gfx90a t.skip # SKIP not \"today\"\n"),
		      "TAP skip directive:\n%s", out);
		CHECK(jbuf && strstr(jbuf, "<testsuites name=\"kfdsig test\" tests=\"3\" "
					   "failures=\"1\" skipped=\"1\""),
		      "JUnit totals:\n%s", jbuf);
		CHECK(jbuf &&
			      strstr(jbuf, "<testcase classname=\"kfdsig.gfx90a\" name=\"t.fail\" "
					   "time=\"") &&
			      strstr(jbuf, "<failure message=\"boom 42\"/>") &&
			      strstr(jbuf, "<skipped message=\"not &quot;today&quot;\"/>"),
		      "JUnit cases:\n%s", jbuf);
		free(out);
		free(jbuf);

		/* text with durations: a column before the case name */
		o = (struct suite_opts){ .engines = SUITE_ENGINES_ALL, .times = true };
		f = open_memstream(&out, &len);
		suite_run(tc, 1, d, 1, &o, f, &cnt);
		fclose(f);
		CHECK(out && !strncmp(out, "PASS  gfx90a    ", 16) && strstr(out, " ms  t.pass\n"),
		      "text row with its duration: %s", out);
		free(out);
		/* JSON with durations */
		o.output = SUITE_OUT_JSON;
		f = open_memstream(&out, &len);
		suite_run(tc, 1, d, 1, &o, f, &cnt);
		fclose(f);
		CHECK(out && strstr(out, "\"reason\": null, \"duration_ms\": "),
		      "JSON duration_ms: %s", out);
		free(out);
	}
	{
		static const struct suite_case bc = { "t.bound",	 "bound", NULL,
						      SUITE_ENGINE_NONE, 0,	  c_bound };
		const struct suite_case *tc[1] = { &bc };
		struct suite_opts o = { .engines = SUITE_ENGINES_ALL };
		FILE *f = fopen("/dev/null", "w");

		suite_run(tc, 1, d, 1, &o, f, &cnt);
		CHECK_EQ(bound_seen, 1234, "no -T: the case's own bound");
		o.wait_ms = 77;
		suite_run(tc, 1, d, 1, &o, f, &cnt);
		CHECK_EQ(bound_seen, 77, "-T 77 bounds the case's waits");
		fclose(f);
	}
}

static void test_list(void)
{
	const struct suite_case *cs[2] = { &fake[1], &fake[6] };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	suite_list(cs, 2, false, f);
	fclose(f);
	CHECK(buf && !strcmp(buf, "t.fail                         fails\n"
				  "                               expects: says why\n"
				  "t.queues                       needs queues\n"),
	      "list text:\n%s", buf);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	suite_list(cs, 2, true, f);
	fclose(f);
	CHECK(buf && !strcmp(buf,
			     "[\n"
			     " {\"case\": \"t.fail\", \"engine\": null, \"needs\": null, "
			     "\"checks\": \"fails\", \"expects\": \"says why\"},\n"
			     " {\"case\": \"t.queues\", \"engine\": null, \"needs\": "
			     "\"user-queues\", \"checks\": \"needs queues\", \"expects\": null}\n"
			     "]\n"),
	      "list JSON:\n%s", buf);
	free(buf);
}

int main(void)
{
	struct kfdsig_emu *emu = kfdsig_emu_create_from_spec("gfx90a");

	test_glob();
	test_engines();
	test_select();
	test_list();
	CHECK(emu != NULL, "emulator: %s", kfdsig_last_error());
	if (emu)
		test_run(emu);
	kfdsig_emu_destroy(emu);
	return t_result("suite_framework");
}
