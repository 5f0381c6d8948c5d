/* SPDX-License-Identifier: MIT */
/*
 * The bench harness behind `kfdsig bench`: what the interrupt path costs.
 *
 *  emit        CPU time to write one fence per engine (PM4 emit and the
 *              prepared template, SDMA, shader stub patch + dispatch)
 *  lookup      cost of one interrupt in the kernel's event lookup: the fast
 *              path against a wrong id and no id (both force the slot scan),
 *              with 1, 64 and 4095 live events (emulator: through the
 *              kernel entry point kfd_signal_event_interrupt)
 *  latency     signal -> the waiter's WAIT_EVENTS returns, min/p50/p99/max
 *              over N signals one at a time: host submit-to-wake (host
 *              clocks) for every path; for pm4 also GPU-to-wake, the wake-up
 *              minus a GPU clock timestamp (RELEASE_MEM DATA_SEL 3) taken
 *              right before the fence, converted with GET_CLOCK_COUNTERS.
 *              SDMA and shader paths have the host figure only.
 *  throughput  events per second for batches of 1, 64 and 4095 (signal the
 *              batch, wait for all, reset)
 *  irqs        interrupts per PM4 fence: unpredicated (once per XCC of a
 *              multi-XCC node) against kfdsig's (once), docs/multi-xcc.md
 *
 * Signals come from CPU SET_EVENT, under the emulator also from the
 * interrupt entry point, and from each engine's fence on a user queue
 * (engine.c); each figure's path says which.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_plot.h"
#include "case.h"
#include "core/escape.h"

/* One figure of the table. */
struct fig {
	const char *measure; /* emit, lookup, latency, throughput */
	char path[40];	     /* "pm4 emit", "fast path", "cpu-set-event" */
	uint32_t size;	     /* live events / batch, 0: none */
	const char *unit;    /* "ns/fence", "ns/interrupt", "us", "events/s" */
	bool dist;	     /* min/p50/p99/max, else value */
	double value, min, p50, p99, max;
	char na[320]; /* not measured: why (empty: measured) */
	char what[400];
	/* latency: every sample in ns, in submission order (NULL: none) */
	int64_t *samples;
	uint32_t nsamples;
};

struct bench {
	const struct suite_device *d;
	size_t index, ndev; /* for the progress line */
	struct kfdsig_kfd *kfd;
	const struct kfdsig_kfd_device *dev;
	int pasid;
	uint32_t count;
	struct fig *figs;
	size_t n, cap;
	int err;
	FILE *out;	/* the table or JSON */
	FILE *progress; /* the progress line (NULL: none) */
	bool no_time;	/* leave the timed figures' numbers out */
};

/* The progress line: which device and figure is being measured. */
static void progress(const struct bench *b, const char *measure, const char *path)
{
	if (!b->progress)
		return;
	if (measure)
		fprintf(b->progress, "\r\033[K[%zu/%zu] %s: %s %s", b->index + 1, b->ndev,
			b->d->label, measure, path);
	else
		fputs("\r\033[K", b->progress);
	fflush(b->progress);
}

/* A new figure of the table. Out of memory, the figure is measured into a
 * scratch slot that is never printed, and the run answers -ENOMEM. */
static struct fig *add(struct bench *b, const char *measure, const char *unit)
{
	static _Thread_local struct fig scratch;
	struct fig *f;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 32;

		f = realloc(b->figs, cap * sizeof(*f));
		if (!f) {
			b->err = -ENOMEM;
			f = &scratch;
			goto init;
		}
		b->figs = f;
		b->cap = cap;
	}
	f = &b->figs[b->n++];
init:
	memset(f, 0, sizeof(*f));
	f->measure = measure;
	f->unit = unit;
	return f;
}

static void set_na(struct fig *f, const char *why)
{
	snprintf(f->na, sizeof(f->na), "%s", why);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static volatile uint32_t sink;

/* ---- emission ----------------------------------------------------------- */

static void bench_emit(struct bench *b)
{
	const struct kfdsig_target *t = b->d->target;
	const uint64_t page = 0x7f0000000000ull;
	uint32_t iters = b->count * 100, buf[64];
	struct kfdsig_pm4_fence_tmpl tmpl;
	struct kfdsig_fence opt = { 0 };
	struct fig *f;
	uint64_t t0;
	int ndw = 0;

	progress(b, "emit", "every engine");
	for (int e = SUITE_ENGINE_PM4; e <= SUITE_ENGINE_SDMA; e++) {
		t0 = suite_now_ns();
		for (uint32_t i = 0; i < iters; i++) {
			uint32_t id = 1 + i % 4095;
			struct kfdsig_fence fe = { .slot_va = kfdsig_slot_va(page, id),
						   .event_id = id };

			ndw = kfdsig_emit_signal(t, suite_signal_engine(e), &fe, NULL, buf, 64);
			sink += buf[1];
		}
		f = add(b, "emit", "ns/fence");
		f->value = (double)(suite_now_ns() - t0) / iters;
		snprintf(f->path, sizeof(f->path), "%s emit", suite_engine_name(e));
		snprintf(f->what, sizeof(f->what),
			 "CPU time of %s for one fence (%d dwords) for %s, on the host CPU",
			 e == SUITE_ENGINE_PM4 ? "kfdsig_pm4_emit_fence" : "kfdsig_sdma_emit_fence",
			 ndw, t->name);
		if (ndw < 0)
			set_na(f, "the emitter refused the fence");
		if (e != SUITE_ENGINE_PM4)
			continue;
		if (kfdsig_pm4_fence_prepare(t, &opt, page, &tmpl) < 0) {
			f = add(b, "emit", "ns/fence");
			snprintf(f->path, sizeof(f->path), "pm4 template");
			snprintf(f->what, sizeof(f->what),
				 "CPU time of kfdsig_pm4_fence_write for one fence for %s",
				 t->name);
			set_na(f, "kfdsig_pm4_fence_prepare refused the options");
			continue;
		}
		t0 = suite_now_ns();
		for (uint32_t i = 0; i < iters; i++) {
			ndw = kfdsig_pm4_fence_write(&tmpl, buf, 64, 1 + i % 4095);
			sink += buf[1];
		}
		f = add(b, "emit", "ns/fence");
		f->value = (double)(suite_now_ns() - t0) / iters;
		snprintf(f->path, sizeof(f->path), "pm4 template");
		snprintf(
			f->what, sizeof(f->what),
			"CPU time of kfdsig_pm4_fence_write (template prepared once) for one fence "
			"(%d dwords) for %s, on the host CPU",
			ndw, t->name);
	}

	struct kfdsig_shader_stub s;
	f = add(b, "emit", "ns/fence");
	snprintf(f->path, sizeof(f->path), "shader patch+dispatch");
	snprintf(f->what, sizeof(f->what),
		 "CPU time to place and patch the raw stub and write its PM4 dispatch for %s",
		 t->name);
	if (kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &s) < 0) {
		set_na(f, "no shader stub for this target");
		return;
	}
	/* a host buffer standing for GPU memory at a fixed address */
	KFDSIG_OPTS(kfdsig_code_buf, cb, .size = s.size + KFDSIG_SHADER_CODE_ALIGN,
		    .va = 0x7f1000000000ull, .form = KFDSIG_SHADER_RAW);
	uint8_t *code = malloc(cb.size);
	if (!code) {
		set_na(f, "out of memory");
		return;
	}
	cb.cpu = code;
	t0 = suite_now_ns();
	for (uint32_t i = 0; i < iters; i++) {
		uint32_t id = 1 + i % 4095;
		struct kfdsig_fence fe = { .slot_va = kfdsig_slot_va(page, id), .event_id = id };

		cb.used = 0;
		ndw = kfdsig_shader_emit_signal(&s, &cb, &fe, buf, 64);
		sink += buf[1] + code[0];
	}
	f->value = (double)(suite_now_ns() - t0) / iters;
	snprintf(f->what, sizeof(f->what),
		 "CPU time to place the raw stub (copy, slot address, id; "
		 "kfdsig_shader_emit_signal) and write its PM4 dispatch (%d dwords) for %s, on "
		 "the host CPU",
		 ndw, t->name);
	if (ndw < 0)
		set_na(f, "the library refused the signal");
	free(code);
}

/* ---- kernel lookup: fast path against the scan ---------------------------- */

static void bench_lookup(struct bench *b)
{
	static const uint32_t lives[] = { 1, 64, 4095 };
	static const char *const kinds[] = { "fast path", "wrong id", "no id" };

	if (!b->d->emu) {
		struct fig *f = add(b, "lookup", "ns/interrupt");
		snprintf(f->path, sizeof(f->path), "all");
		snprintf(f->what, sizeof(f->what),
			 "cost of one interrupt in the kernel's event lookup on %s", b->d->label);
		set_na(f, "needs the emulator's interrupt entry point (or user queues)");
		return;
	}
	progress(b, "lookup", "fast path and scan");
	for (size_t l = 0; l < 3; l++) {
		struct kfdsig_kfd *kfd = NULL;
		struct kfdsig_event ev, last = { 0 };
		uint32_t live = lives[l], iters = b->count;
		int pasid;

		if (kfdsig_kfd_open(b->d->ops, &kfd) < 0) {
			b->err = -EIO;
			return;
		}
		pasid = kfdsig_emu_pasid_on(b->d->emu, kfdsig_kfd_fd(kfd), b->d->gpu_id);
		for (uint32_t i = 0; i < live; i++)
			if (kfdsig_kfd_event_create(kfd, KFDSIG_EVENT_SIGNAL, false, &ev) == 0)
				last = ev;
		for (int k = 0; k < 3; k++) {
			/* the signalled event is the last one: the scan walks the
			 * most; the wrong id names event 1's unsignalled slot (or
			 * id 4000 when 1 is the only one) */
			uint32_t id = k == 0 ? last.id : last.id == 1 ? 4000 : 1;
			uint32_t bits = k == 2 ? 0 : 32;
			int found = 0;
			uint64_t t0 = suite_now_ns();

			for (uint32_t i = 0; i < iters; i++) {
				__atomic_store_n(last.slot, 1, __ATOMIC_RELEASE);
				found += kfdsig_emu_signal_event_interrupt(b->d->emu, pasid, id,
									   bits);
			}
			struct fig *f = add(b, "lookup", "ns/interrupt");
			f->value = (double)(suite_now_ns() - t0) / iters;
			f->size = live;
			snprintf(f->path, sizeof(f->path), "%s", kinds[k]);
			snprintf(f->what, sizeof(f->what),
				 "emulated kfd_signal_event_interrupt (kernel %s) with %u live "
				 "events, one signalled slot, %s; %s",
				 b->d->profile, live,
				 k == 0	  ? "its full id"
				 : k == 1 ? "a full id naming an unsignalled slot"
					  : "no valid id bits",
				 found == (int)iters ? "found every time"
				 : found == 0	     ? "dropped every time (no scan)"
						     : "found some of the time");
		}
		kfdsig_kfd_close(kfd);
	}
}

/* ---- signal sources -------------------------------------------------------- */

/* The engine paths follow enum suite_engine from PATH_PM4 on. */
enum sig_path {
	PATH_CPU_SET = 0,
	PATH_EMU_IRQ,
	PATH_PM4,
	PATH_SDMA,
	PATH_SHADER,
	PATH_AQL,
	PATH_COUNT
};
static const char *const path_names[] = { "cpu-set-event", "emu-interrupt", "pm4",
					  "sdma",	   "shader",	    "aql" };
static const char *const path_how[] = {
	"AMDKFD_IOC_SET_EVENT from the CPU",
	"the slot store + the kernel entry point kfd_signal_event_interrupt",
	"a PM4 RELEASE_MEM fence submitted to a compute queue",
	"an SDMA FENCE+TRAP submitted to an SDMA queue",
	"a dispatched shader's s_sendmsg(MSG_INTERRUPT)",
	"an AQL barrier-AND packet completing an interrupt signal (gfx9+)",
};

/* Who signals: the CPU, the emulated kernel entry point, or an engine's
 * queue (engine.c) in a KFD process of its own. */
struct sigsrc {
	int path;
	struct suite_ctx ctx; /* ctx.kfd: the process */
	struct suite_queue *q;
	const char *why; /* not available */
};

static int src_open(struct bench *b, int path, struct sigsrc *s)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->ctx.d = b->d;
	s->ctx.engine = SUITE_ENGINE_NONE;
	if (kfdsig_kfd_open(b->d->ops, &s->ctx.kfd) < 0) {
		s->why = "cannot open KFD";
		return -EIO;
	}
	s->ctx.dev = kfdsig_kfd_device_by_gpu_id(s->ctx.kfd, b->d->gpu_id);
	s->ctx.t = b->d->target;
	if (b->d->emu)
		s->ctx.pasid =
			kfdsig_emu_pasid_on(b->d->emu, kfdsig_kfd_fd(s->ctx.kfd), b->d->gpu_id);
	return 0;
}

/* Engine paths open their queue once the events exist. */
static int src_queue(struct sigsrc *s, uint32_t ring)
{
	if (s->path < PATH_PM4)
		return 0;
	s->ctx.engine = s->path - PATH_PM4;
	if (suite_queue_open(&s->ctx, s->ctx.engine, ring, &s->q) != SUITE_PASS) {
		s->why = s->ctx.why;
		return -ENOTSUP;
	}
	return 0;
}

static int src_signal(struct bench *b, struct sigsrc *s, const struct kfdsig_event *ev)
{
	switch (s->path) {
	case PATH_CPU_SET:
		return kfdsig_kfd_event_set(s->ctx.kfd, ev->id);
	case PATH_EMU_IRQ:
		__atomic_store_n(ev->slot, ev->id, __ATOMIC_RELEASE);
		return kfdsig_emu_signal_event_interrupt(b->d->emu, s->ctx.pasid, ev->id, 32) == 1
			       ? 0
			       : -EIO;
	default:
		return suite_queue_signal(&s->ctx, s->q, ev->id, 0, 0) == SUITE_PASS ? 0 : -EIO;
	}
}

/* Engine paths: submit what src_signal() queued. */
static int src_commit(struct sigsrc *s)
{
	if (!s->q)
		return 0;
	return suite_queue_flush(&s->ctx, s->q) == SUITE_PASS ? 0 : -EIO;
}

static void src_close(struct sigsrc *s)
{
	suite_queue_close(s->q);
	kfdsig_kfd_close(s->ctx.kfd);
	s->q = NULL;
	s->ctx.kfd = NULL;
}

/* ---- interrupts per fence (multi-XCC nodes, docs/multi-xcc.md) ------------- */

/*
 * Interrupts one PM4 fence raises, from the event's age over @iters fences
 * each waited: the unpredicated fence a one-XCC GPU wants (once per XCC on
 * a multi-XCC node) and kfdsig's (kfdsig_emit_signal: predicated to XCC 0,
 * run from the submit's IB), the floor of the same run.
 */
static void bench_irqs(struct bench *b)
{
	static const char *const kinds[] = { "pm4 unpredicated", "pm4 kfdsig" };
	const uint32_t iters = 16;
	double floor = 0;

	for (int k = 1; k >= 0; k--) {
		struct fig *f = add(b, "irqs", "irq/fence");
		enum kfdsig_wait_result res;
		struct kfdsig_event ev;
		struct sigsrc s = { 0 };
		uint64_t age = 1, page_va, *page;
		uint32_t xccs;
		bool ok = true;

		snprintf(f->path, sizeof(f->path), "%s", kinds[k]);
		progress(b, "irqs", f->path);
		snprintf(f->what, sizeof(f->what),
			 "interrupts (event sets, from its age) per %s fence on %s",
			 k ? "kfdsig's" : "an unpredicated", b->d->label);
		if (src_open(b, PATH_PM4, &s) < 0 || !b->d->target || !s.ctx.dev ||
		    !kfdsig_kfd_has(s.ctx.kfd, KFDSIG_KFD_FEAT_EVENT_AGE) ||
		    kfdsig_kfd_event_create(s.ctx.kfd, KFDSIG_EVENT_SIGNAL, false, &ev) < 0 ||
		    kfdsig_kfd_signal_page(s.ctx.kfd, &page, &page_va) < 0 ||
		    src_queue(&s, 0) < 0) {
			set_na(f, s.why ? s.why : "needs a PM4 queue and event age (KFD 1.14)");
			src_close(&s);
			continue;
		}
		xccs = s.ctx.dev->num_xcc ? s.ctx.dev->num_xcc : 1;
		snprintf(f->what + strlen(f->what), sizeof(f->what) - strlen(f->what),
			 " (%u XCC(s) per node)", xccs);
		for (uint32_t i = 0; i < iters && ok; i++) {
			struct kfdsig_fence fe = { .slot_va = page_va + 8ull * ev.id,
						   .event_id = ev.id };
			uint32_t d[KFDSIG_SIGNAL_MAX_DW];
			int n = k ? kfdsig_emit_signal(b->d->target, KFDSIG_SIGNAL_PM4, &fe, NULL,
						       d, KFDSIG_SIGNAL_MAX_DW)
				  : kfdsig_pm4_emit_fence(b->d->target, &fe, d,
							  KFDSIG_SIGNAL_MAX_DW);

			ok = n > 0 && suite_queue_raw(&s.ctx, s.q, d, (uint32_t)n) == SUITE_PASS &&
			     suite_queue_flush(&s.ctx, s.q) == SUITE_PASS;
		}
		if (ok) {
			/* An idle queue can still owe interrupts: the read
			 * pointer passes a packet before its end-of-pipe
			 * interrupt. Count each new age until the fences'
			 * expected share (one per fence, per XCC unpredicated)
			 * or 2 s, then 10 ms more for any surplus. */
			struct kfdsig_wait_entry e = { .event_id = ev.id, .age = 1 };
			uint64_t want = 1 + (uint64_t)iters * (k ? 1 : xccs);
			uint64_t end = suite_now_ns() + 2000000000ull, now;

			while (age < want && (now = suite_now_ns()) < end &&
			       !kfdsig_kfd_wait(s.ctx.kfd, &e, 1, false,
						(uint32_t)((end - now) / 1000000 + 1), &res) &&
			       res == KFDSIG_WAIT_COMPLETE)
				age = e.age;
			while (age > 1 && !kfdsig_kfd_wait(s.ctx.kfd, &e, 1, false, 10, &res) &&
			       res == KFDSIG_WAIT_COMPLETE && e.age != age)
				age = e.age;
			ok = age > 1;
		}
		if (ok) {
			f->value = (double)(age - 1) / iters;
			if (k)
				floor = f->value;
			else if (floor > 0)
				snprintf(f->what + strlen(f->what),
					 sizeof(f->what) - strlen(f->what),
					 "; %.1fx kfdsig's fence, measured in this run",
					 f->value / floor);
		} else {
			set_na(f, "the fences did not signal");
			b->err = -EIO;
		}
		src_close(&s);
	}
}

/* ---- latency --------------------------------------------------------------- */

struct lat {
	struct kfdsig_kfd *kfd;
	struct kfdsig_event ev;
	uint32_t n;
	uint64_t *t1;
	volatile uint32_t ready, done;
	int err;
};

static void *lat_waiter(void *arg)
{
	struct lat *l = arg;

	for (uint32_t i = 0; i < l->n; i++) {
		struct kfdsig_wait_entry e = { .event_id = l->ev.id };
		enum kfdsig_wait_result res;

		__atomic_store_n(&l->ready, i + 1, __ATOMIC_RELEASE);
		if (kfdsig_kfd_wait(l->kfd, &e, 1, false, 5000, &res) < 0 ||
		    res != KFDSIG_WAIT_COMPLETE)
			l->err = -ETIMEDOUT;
		l->t1[i] = suite_now_ns();
		__atomic_store_n(&l->done, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * The GPU side of the PM4 latency: a RELEASE_MEM of the GPU clock counter
 * (kfdsig_pm4_emit_timestamp) right before each signalling fence, into a
 * buffer of its own; after the run the ticks convert to CLOCK_MONOTONIC
 * with two GET_CLOCK_COUNTERS samples taken before and after it.
 */
struct gpu_ts {
	const struct kfdsig_kfd_bo *bo;
	uint64_t *ticks; /* per signal */
	struct kfdsig_clock_sample s0;
	char na[160]; /* why there is no GPU figure (empty: there is) */
};

static void gpu_ts_open(struct sigsrc *s, struct gpu_ts *g, uint32_t n)
{
	uint32_t gpu = s->ctx.dev->gpu_id;
	int r;

	memset(g, 0, sizeof(*g));
	g->ticks = calloc(n, sizeof(*g->ticks));
	r = g->ticks ? kfdsig_kfd_alloc(s->ctx.kfd, gpu, 4096, KFDSIG_KFD_MEM_GTT_UNCACHED, &g->bo)
		     : -ENOMEM;
	if (!r)
		r = kfdsig_kfd_map(s->ctx.kfd, g->bo, &gpu, 1);
	if (r < 0) {
		snprintf(g->na, sizeof(g->na), "timestamp buffer: %s", kfdsig_last_error());
		return;
	}
	if (kfdsig_kfd_clock_counters(s->ctx.kfd, gpu, &g->s0) < 0)
		snprintf(g->na, sizeof(g->na), "GET_CLOCK_COUNTERS: %s", kfdsig_last_error());
}

/* Queue the timestamp in front of signal @i's fence. */
static int gpu_ts_queue(struct sigsrc *s, struct gpu_ts *g)
{
	uint32_t d[KFDSIG_PM4_TIMESTAMP_MAX_DW];
	int n;

	if (g->na[0])
		return 0;
	__atomic_store_n((uint64_t *)g->bo->cpu, 0, __ATOMIC_RELEASE);
	n = kfdsig_pm4_emit_timestamp(s->ctx.t, g->bo->va, d, KFDSIG_PM4_TIMESTAMP_MAX_DW);
	if (n < 0) {
		snprintf(g->na, sizeof(g->na), "timestamp packet: %s", kfdsig_last_error());
		return 0;
	}
	return suite_queue_raw(&s->ctx, s->q, d, (uint32_t)n) == SUITE_PASS ? 0 : -EIO;
}

/* Convert the ticks with samples before and after the run and turn @t1
 * (wake-up times) into GPU-to-wake-up latencies in ns; 0 or -errno with
 * g->na saying why. */
static int gpu_ts_finish(struct sigsrc *s, struct gpu_ts *g, const uint64_t *t1, int64_t *out,
			 uint32_t n, double *hz)
{
	struct kfdsig_clock_sample s1;
	struct kfdsig_gpu_clock c;

	if (g->na[0])
		return -EIO;
	if (kfdsig_kfd_clock_counters(s->ctx.kfd, s->ctx.dev->gpu_id, &s1) < 0 ||
	    kfdsig_gpu_clock_calibrate(&g->s0, &s1, &c) < 0) {
		snprintf(g->na, sizeof(g->na), "GPU clock calibration: %s", kfdsig_last_error());
		return -EIO;
	}
	*hz = c.hz;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t ns;

		if (!g->ticks[i] || kfdsig_gpu_clock_to_ns(&c, g->ticks[i], &ns) < 0) {
			snprintf(g->na, sizeof(g->na),
				 "signal %u: no usable GPU timestamp (counter %llu)", i,
				 (unsigned long long)g->ticks[i]);
			return -EIO;
		}
		out[i] = (int64_t)(t1[i] - ns);
	}
	return 0;
}

static void gpu_ts_close(struct sigsrc *s, struct gpu_ts *g)
{
	if (g->bo)
		kfdsig_kfd_free(s->ctx.kfd, g->bo);
	free(g->ticks);
}

static void bench_latency(struct bench *b, int path)
{
	struct lat l = { .n = b->count };
	uint64_t *t0 = calloc(b->count, sizeof(uint64_t));
	struct fig *f = add(b, "latency", "us");
	bool gpu_side = path == PATH_PM4;
	struct gpu_ts g = { .na = "setup failed" };
	int64_t *gl = NULL;
	double hz = 0;
	struct sigsrc s;
	pthread_t th;

	snprintf(f->path, sizeof(f->path), "%s", path_names[path]);
	progress(b, "latency", f->path);
	snprintf(f->what, sizeof(f->what),
		 "host time from %s to the return of the waiter's WAIT_EVENTS on %s",
		 path_how[path], b->d->label);
	f->dist = true;
	l.t1 = calloc(b->count, sizeof(uint64_t));
	if (!t0 || !l.t1 || src_open(b, path, &s) < 0) {
		set_na(f, "setup failed");
		b->err = -EIO;
		goto out;
	}
	l.kfd = s.ctx.kfd;
	if (kfdsig_kfd_event_create(l.kfd, KFDSIG_EVENT_SIGNAL, true, &l.ev) < 0) {
		set_na(f, "setup failed");
		b->err = -EIO;
		src_close(&s);
		goto out;
	}
	if (src_queue(&s, 0) < 0) {
		set_na(f, s.why);
		snprintf(g.na, sizeof(g.na), "%s", s.why);
		src_close(&s);
		goto out;
	}
	if (gpu_side)
		gpu_ts_open(&s, &g, b->count);
	if (pthread_create(&th, NULL, lat_waiter, &l)) {
		set_na(f, "cannot start the waiter");
		b->err = -EIO;
		gpu_ts_close(&s, &g);
		src_close(&s);
		goto out;
	}
	for (uint32_t i = 0; i < b->count; i++) {
		while (__atomic_load_n(&l.ready, __ATOMIC_ACQUIRE) < i + 1)
			;
		usleep(50); /* let the waiter go to sleep in WAIT_EVENTS */
		t0[i] = suite_now_ns();
		if ((gpu_side && gpu_ts_queue(&s, &g) < 0) || src_signal(b, &s, &l.ev) < 0 ||
		    src_commit(&s) < 0)
			l.err = -EIO;
		while (__atomic_load_n(&l.done, __ATOMIC_ACQUIRE) < i + 1)
			;
		/* the CP stored the counter before the fence's interrupt */
		if (gpu_side && !g.na[0])
			g.ticks[i] = __atomic_load_n((uint64_t *)g.bo->cpu, __ATOMIC_ACQUIRE);
	}
	pthread_join(th, NULL);
	if (gpu_side && !l.err) {
		gl = calloc(b->count, sizeof(*gl));
		if (!gl)
			snprintf(g.na, sizeof(g.na), "out of memory");
		else
			gpu_ts_finish(&s, &g, l.t1, gl, b->count, &hz);
	}
	gpu_ts_close(&s, &g);
	src_close(&s);
	if (l.err) {
		set_na(f, "a signal was lost (a wait timed out)");
		snprintf(g.na, sizeof(g.na), "a signal was lost (a wait timed out)");
		b->err = l.err;
		goto out;
	}
	for (uint32_t i = 0; i < b->count; i++)
		t0[i] = l.t1[i] - t0[i];
	f->samples = malloc(b->count * sizeof(*f->samples));
	if (f->samples) {
		for (uint32_t i = 0; i < b->count; i++)
			f->samples[i] = (int64_t)t0[i];
		f->nsamples = b->count;
	}
	qsort(t0, b->count, sizeof(*t0), cmp_u64);
	f->min = t0[0] / 1e3;
	f->p50 = t0[b->count / 2] / 1e3;
	f->p99 = t0[(b->count * 99) / 100 < b->count ? (b->count * 99) / 100 : b->count - 1] / 1e3;
	f->max = t0[b->count - 1] / 1e3;
	snprintf(f->what, sizeof(f->what),
		 "host submit-to-wake: host time from %s%s to the return of the waiter's "
		 "WAIT_EVENTS, %u signals one at a time, on %s (%s KFD)",
		 path_how[path],
		 gpu_side ? " (preceded by a timestamp RELEASE_MEM in the same submission)" : "",
		 b->count, b->d->label, b->d->emu ? "emulated" : "real");
out:
	if (gpu_side) {
		/* f is not used past this point: add() may move the table */
		f = add(b, "latency", "us");
		snprintf(f->path, sizeof(f->path), "pm4 gpu-to-wake");
		f->dist = true;
		snprintf(f->what, sizeof(f->what),
			 "GPU-to-wake: the waiter's wake-up (host CLOCK_MONOTONIC) minus the GPU "
			 "clock counter a RELEASE_MEM (DATA_SEL 3) stored right before the PM4 "
			 "fence, converted with GET_CLOCK_COUNTERS, on %s",
			 b->d->label);
		if (g.na[0] || !gl) {
			set_na(f, g.na[0] ? g.na : "setup failed");
		} else {
			f->samples = malloc(b->count * sizeof(*f->samples));
			if (f->samples) {
				memcpy(f->samples, gl, b->count * sizeof(*gl));
				f->nsamples = b->count;
			}
			qsort(gl, b->count, sizeof(*gl), cmp_i64);
			f->min = gl[0] / 1e3;
			f->p50 = gl[b->count / 2] / 1e3;
			f->p99 = gl[(b->count * 99) / 100 < b->count ? (b->count * 99) / 100
								     : b->count - 1] /
				 1e3;
			f->max = gl[b->count - 1] / 1e3;
			snprintf(
				f->what, sizeof(f->what),
				"GPU-to-wake: the waiter's wake-up (host CLOCK_MONOTONIC) minus "
				"the "
				"%s GPU clock counter a RELEASE_MEM (DATA_SEL 3) stored right "
				"before "
				"the PM4 fence, converted with two GET_CLOCK_COUNTERS samples "
				"(derived rate %.1f MHz), %u signals one at a time, on %s (%s KFD)",
				b->d->emu ? "emulated" : "real", hz / 1e6, b->count, b->d->label,
				b->d->emu ? "emulated" : "real");
		}
	}
	free(gl);
	free(t0);
	free(l.t1);
}

/* ---- throughput ------------------------------------------------------------ */

static void bench_throughput(struct bench *b, int path, uint32_t batch)
{
	struct kfdsig_wait_entry *e = calloc(batch, sizeof(*e));
	struct kfdsig_event *ev = calloc(batch, sizeof(*ev));
	uint32_t iters = (b->count * 64 + batch - 1) / batch;
	struct fig *f = add(b, "throughput", "events/s");
	enum kfdsig_wait_result res;
	struct sigsrc s = { 0 };
	uint64_t t0;

	char label[64];

	snprintf(f->path, sizeof(f->path), "%s", path_names[path]);
	/* the batch size tells the throughput rows apart */
	snprintf(label, sizeof(label), "throughput (batch %u)", batch);
	progress(b, label, f->path);
	snprintf(f->what, sizeof(f->what),
		 "events per second signalled by %s in batches of %u, wait for all, on %s",
		 path_how[path], batch, b->d->label);
	f->size = batch;
	if (path >= PATH_PM4 && iters > 64)
		iters = 64; /* engine rounds cost a submission each */
	if (!e || !ev || src_open(b, path, &s) < 0) {
		set_na(f, "setup failed");
		b->err = -EIO;
		goto out;
	}
	for (uint32_t i = 0; i < batch; i++) {
		if (kfdsig_kfd_event_create(s.ctx.kfd, KFDSIG_EVENT_SIGNAL, false, &ev[i]) < 0) {
			set_na(f, "cannot create the events");
			b->err = -ENOSPC;
			goto out;
		}
		e[i].event_id = ev[i].id;
	}
	/* room for a whole batch of the largest fence (a shader dispatch; on
	 * a multi-XCC target with its PRED_EXEC and in-ring IB, 39 dwords) */
	if (src_queue(&s, batch > 64 ? 2 * 1024 * 1024 : 0) < 0) {
		set_na(f, s.why);
		goto out;
	}
	t0 = suite_now_ns();
	for (uint32_t it = 0; it < iters; it++) {
		for (uint32_t i = 0; i < batch; i++)
			if (src_signal(b, &s, &ev[i]) < 0)
				goto lost;
		if (src_commit(&s) < 0)
			goto lost;
		if (kfdsig_kfd_wait(s.ctx.kfd, e, batch, true, 5000, &res) < 0 ||
		    res != KFDSIG_WAIT_COMPLETE)
			goto lost;
		for (uint32_t i = 0; i < batch; i++)
			kfdsig_kfd_event_reset(s.ctx.kfd, ev[i].id);
	}
	f->value = (double)batch * iters * 1e9 / (double)(suite_now_ns() - t0);
	snprintf(f->what, sizeof(f->what),
		 "events per second: %u events signalled by %s%s, wait for all, reset them; %u "
		 "rounds on %s (%s KFD)",
		 batch, path_how[path], path >= PATH_PM4 ? " (one submission per round)" : "",
		 iters, b->d->label, b->d->emu ? "emulated" : "real");
	goto out;
lost:
	set_na(f, "a signal was lost (wait-all did not complete)");
	b->err = -ETIMEDOUT;
out:
	src_close(&s);
	free(e);
	free(ev);
}

/* ---- output --------------------------------------------------------------- */

/* One number format for every row of a column: two decimals, wide enough
 * for a billion (events/s beside ns). */
#define NUM_W 13

static void print_num(FILE *out, double v)
{
	fprintf(out, " %*.2f", NUM_W, v);
}

/* A figure whose number is a time or a rate (every one but the interrupt
 * counts): what --no-time leaves out. */
static bool timed(const struct bench *b, const struct fig *f)
{
	return b->no_time && strcmp(f->measure, "irqs");
}

static void print_text(const struct bench *b)
{
	fprintf(b->out,
		"== %s: gpu_id 0x%x, %s KFD %u.%u, kernel %s; host clocks, %s GPU clock for pm4 "
		"gpu-to-wake%s\n",
		b->d->label, b->d->gpu_id, b->d->emu ? "emulated" : "real", b->d->kfd_major,
		b->d->kfd_minor, b->d->profile, b->d->emu ? "emulated" : "the",
		b->d->emu ? " (the emulator's cost, not a GPU's)" : "");
	fprintf(b->out, "%-10s %-22s %5s %*s %*s %*s %*s  %s\n", "measure", "path", "size", NUM_W,
		"value/p50", NUM_W, "min", NUM_W, "p99", NUM_W, "max", "unit");
	for (size_t i = 0; i < b->n; i++) {
		const struct fig *f = &b->figs[i];
		char size[12] = "-";

		if (f->size)
			snprintf(size, sizeof(size), "%u", f->size);
		fprintf(b->out, "%-10s %-22s %5s", f->measure, f->path, size);
		if (f->na[0]) {
			fprintf(b->out, " %*s %*s %*s %*s  %s: %s\n", NUM_W, "n/a", NUM_W, "",
				NUM_W, "", NUM_W, "", f->unit, f->na);
			continue;
		}
		if (timed(b, f)) {
			fprintf(b->out, " %*s %*s %*s %*s", NUM_W, "-", NUM_W, "-", NUM_W, "-",
				NUM_W, "-");
		} else if (f->dist) {
			print_num(b->out, f->p50);
			print_num(b->out, f->min);
			print_num(b->out, f->p99);
			print_num(b->out, f->max);
		} else {
			print_num(b->out, f->value);
			fprintf(b->out, " %*s %*s %*s", NUM_W, "-", NUM_W, "-", NUM_W, "-");
		}
		fprintf(b->out, "  %s\n", f->unit);
	}
	fprintf(b->out,
		"emit: CPU time of the library to write one fence into a buffer\n"
		"lookup: one interrupt through %s;\n"
		"  fast path = the event's full id, wrong id = a full id naming an unsignalled\n"
		"  slot, no id = no valid id bits (both force the slot scan); size = live\n"
		"  events, one signalled\n"
		"latency: host time from the signal to the return of the waiter's WAIT_EVENTS,\n"
		"  %u signals one at a time (host submit-to-wake); pm4 gpu-to-wake = the\n"
		"  wake-up minus the GPU clock a RELEASE_MEM stored right before the fence,\n"
		"  converted with GET_CLOCK_COUNTERS (sdma, shader: host time only)\n"
		"throughput: events/s signalling a batch of size events, then wait-all and reset\n"
		"paths: cpu-set-event = AMDKFD_IOC_SET_EVENT, emu-interrupt = slot store + the\n"
		"  kernel entry point, pm4/sdma/shader/aql = the engine's fence on a user "
		"queue\n\n",
		b->d->emu ? "the emulated kfd_signal_event_interrupt"
			  : "the kernel (emulator only)",
		b->count);
}

static void json_str(FILE *f, const char *s)
{
	esc_json_fputs(f, s);
}

static void json_num(FILE *out, const char *key, double v)
{
	fprintf(out, ", \"%s\": %.6g", key, v);
}

static void print_json(const struct bench *b, bool first)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct fig *f = &b->figs[i];

		fprintf(b->out, "%s\n  {\"device\": ", first && !i ? "" : ",");
		json_str(b->out, b->d->label);
		fprintf(b->out,
			", \"gpu_id\": %u, \"backend\": \"%s\", \"kfd_version\": \"%u.%u\", "
			"\"kernel\": ",
			b->d->gpu_id, b->d->emu ? "emulated" : "linux", b->d->kfd_major,
			b->d->kfd_minor);
		json_str(b->out, b->d->profile);
		fprintf(b->out, ", \"measure\": \"%s\", \"path\": ", f->measure);
		json_str(b->out, f->path);
		if (f->size)
			fprintf(b->out, ", \"size\": %u", f->size);
		else
			fprintf(b->out, ", \"size\": null");
		fprintf(b->out, ", \"unit\": \"%s\"", f->unit);
		if (f->na[0]) {
			fprintf(b->out, ", \"value\": null, \"not_measured\": ");
			json_str(b->out, f->na);
		} else if (timed(b, f)) {
			if (f->dist)
				fprintf(b->out, ", \"samples\": %u", b->count);
		} else if (f->dist) {
			json_num(b->out, "min", f->min);
			json_num(b->out, "p50", f->p50);
			json_num(b->out, "p99", f->p99);
			json_num(b->out, "max", f->max);
			fprintf(b->out, ", \"samples\": %u", b->count);
		} else {
			json_num(b->out, "value", f->value);
		}
		fprintf(b->out, ", \"what\": ");
		json_str(b->out, f->what);
		fprintf(b->out, "}");
	}
}

static void write_samples(FILE *f, const struct bench *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct fig *g = &b->figs[i];

		for (uint32_t k = 0; k < g->nsamples; k++)
			fprintf(f, "%s,%s,%u,%lld\n", b->d->label, g->path, k,
				(long long)g->samples[k]);
	}
}

static void bench_plot_add_device(struct bench_plot *bp, const struct bench *b)
{
	struct plot_fig *pf = calloc(b->n ? b->n : 1, sizeof(*pf));
	char title[200];

	if (!pf)
		return;
	for (size_t i = 0; i < b->n; i++) {
		const struct fig *f = &b->figs[i];

		pf[i] = (struct plot_fig){ .measure = f->measure,
					   .path = f->path,
					   .size = f->size,
					   .measured = !f->na[0],
					   .value = f->value,
					   .samples = f->samples,
					   .nsamples = f->nsamples };
	}
	snprintf(title, sizeof(title), "%s: gpu_id 0x%x, %s KFD %u.%u, kernel %s, %u samples",
		 b->d->label, b->d->gpu_id, b->d->emu ? "emulated" : "real", b->d->kfd_major,
		 b->d->kfd_minor, b->d->profile, b->count);
	bench_plot_add(bp, title, pf, b->n);
	free(pf);
}

int suite_bench(const struct suite_device *devs, size_t ndev, const struct suite_bench_opts *o,
		FILE *out)
{
	static const uint32_t batches[] = { 1, 64, 4095 };
	int err = 0;

	if (o->samples)
		fprintf(o->samples, "device,path,index,latency_ns\n");
	if (o->json)
		fprintf(out, "{\"count\": %u, \"figures\": [", o->count);
	for (size_t i = 0; i < ndev; i++) {
		struct bench b = { .d = &devs[i],
				   .count = o->count,
				   .index = i,
				   .ndev = ndev,
				   .out = out,
				   .progress = o->progress,
				   .no_time = o->no_time };

		bench_emit(&b);
		bench_lookup(&b);
		bench_irqs(&b);
		for (int p = 0; p < PATH_COUNT; p++) {
			if (p == PATH_EMU_IRQ && !b.d->emu)
				continue;
			bench_latency(&b, p);
			for (int k = 0; k < 3; k++)
				bench_throughput(&b, p, batches[k]);
		}
		progress(&b, NULL, NULL);
		if (o->json)
			print_json(&b, i == 0);
		else
			print_text(&b);
		if (o->samples)
			write_samples(o->samples, &b);
		if (o->plot)
			bench_plot_add_device(o->plot, &b);
		if (b.err)
			err = b.err;
		for (size_t k = 0; k < b.n; k++)
			free(b.figs[k].samples);
		free(b.figs);
	}
	if (o->json)
		fprintf(out, "\n]}\n");
	return err;
}
