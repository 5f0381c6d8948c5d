/* SPDX-License-Identifier: MIT */
/* kfdsig signal: make a GPU signal a KFD event and wait for it. */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "suite/userq_env.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: kfdsig signal [-E pm4|sdma|shader|aql] [-e ID] [-g GPU_ID] [-c N]\n"
		"                     [--ctxid N] [-T MS] [-j] [-v] [--no-time] [--emulate "
		"SPEC]\n"
		"       kfdsig signal --userq [-g GPU_ID] [-c N] [-T MS] [-j] [-v] [--no-time]\n\n"
		"Create signal events up to ID, put a fence-with-interrupt for event ID on a\n"
		"user queue of the GPU (kfdsig's PM4 or SDMA emitter, or the s_sendmsg shader\n"
		"stub dispatched on a PM4 queue), ring the doorbell and wait with\n"
		"AMDKFD_IOC_WAIT_EVENTS. Prints one line per signal: the result, the event\n"
		"age before and after, and the time from submission to wake-up.\n"
		"With --userq, the other fence path instead: a compute user queue on the\n"
		"GPU's render node (GFX11, GFX12.0), each submission ended by the userq fence\n"
		"(PROTECTED_FENCE_SIGNAL), attached to a syncobj by USERQ_SIGNAL and waited\n"
		"for with SYNCOBJ_WAIT; the line names the fence's sequence number.\n\n"
		"  -E, --engine E  pm4 (default), sdma, shader, or aql (a barrier-AND packet on\n"
		"                  an AQL queue completing an interrupt signal)\n"
		"  -e, --event ID  event id 1..4095 (default 1)\n"
		"  -g, --gpu GPU_ID  the GPU (default: the first kfdsig supports)\n"
		"  -c, --count N   signal N times (default 1)\n"
		"  --userq         signal through an amdgpu user queue's fence (not with -E,\n"
		"                  -e or --ctxid)\n"
		"  --ctxid N       put N in the interrupt instead of the event id (pm4:\n"
		"                  INT_CTXID, sdma: TRAP context) to see what the kernel\n"
		"                  does with a wrong one\n"
		"  -T, --timeout MS  how long to wait (default 2000)\n"
		"  -j, --json      JSON Lines: one object per signal (--json-seq: RFC 7464)\n"
		"  --no-time       leave the time out (reproducible output)\n"
		"  -v, --verbose   after each signal, the interrupts the emulated KFD's\n"
		"                  handler took: IH entry, the id it derived, the path\n"
		"                  (fast, partial, scan, dropped and why), events set\n"
		"  --emulate SPEC  use an emulated KFD (also KFDSIG_EMULATE=SPEC)\n");
	cli_help_exit(f, "when a signal did not wake the waiter (TIMEOUT, FAIL) or on\n"
			 "failure (no KFD, no such GPU)");
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* The packets of one signal; for the shader the stub, for aql the signal
 * goes to @code. */
static int build(enum kfdsig_signal_engine e, const struct kfdsig_target *t, uint64_t slot_va,
		 uint32_t id, const uint32_t *ctxid, const struct kfdsig_kfd_bo *code, uint32_t *dw,
		 size_t max)
{
	struct kfdsig_fence f = { .slot_va = slot_va, .event_id = id };
	KFDSIG_OPTS(kfdsig_code_buf, cb, .form = KFDSIG_SHADER_RAW);

	if (ctxid) { /* a deliberately wrong interrupt id */
		f.ctxid = *ctxid;
		f.flags = KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD;
		if (t->pm4_fence == KFDSIG_PM4_FENCE_VI && e == KFDSIG_SIGNAL_PM4) {
			/* gfx8 RELEASE_MEM has no INT_CTXID: the IV carries the
			 * written value, so write that instead */
			f.flags = KFDSIG_FENCE_VALUE | KFDSIG_FENCE_DELIBERATELY_BAD;
			f.value = *ctxid;
		}
	}
	if (code) { /* one signal at a time: the stub copy goes at the start */
		cb.cpu = code->cpu;
		cb.va = code->va;
		cb.size = code->size;
	}
	return kfdsig_emit_signal(t, e, &f, code ? &cb : NULL, dw, max);
}

/* The interrupts the emulated handler took since the last call. */
static void print_trace(struct cli_kfd *c, uint32_t gpu_id, bool json, uint64_t *seen)
{
	static const char *const src[] = { "cp-eop", "sdma-trap", "sq-msg", "cp-bad-opcode" };
	struct kfdsig_emu_irq_record recs[16];
	int pasid, n;

	if (!c->emu) {
		if (!*seen && json)
			cli_json_record(stdout);
		if (!*seen)
			printf(json ? "{\"irq_trace\": null}\n"
				    : "  irq trace: only the emulated KFD records interrupts\n");
		*seen = 1;
		return;
	}
	pasid = kfdsig_emu_pasid_on(c->emu, kfdsig_kfd_fd(c->kfd), gpu_id);
	n = kfdsig_emu_irq_trace(c->emu, pasid, recs, 16);
	for (int i = 0; i < n; i++) {
		const struct kfdsig_emu_irq_record *t = &recs[i];
		char set[64] = "";
		size_t len = 0;

		if (t->seq <= *seen)
			continue;
		*seen = t->seq;
		for (uint32_t k = 0; k < t->nsignaled && k < KFDSIG_EMU_IRQ_TRACE_EVENTS; k++)
			len += (size_t)snprintf(set + len, sizeof(set) - len, "%s%u",
						k ? (json ? ", " : ",") : "", t->events[k]);
		if (t->nsignaled > KFDSIG_EMU_IRQ_TRACE_EVENTS && !json)
			snprintf(set + len, sizeof(set) - len, ",...");
		if (json) {
			cli_json_record(stdout);
			printf("{\"irq\": %llu, \"source\": \"%s\", \"client_id\": %u, "
			       "\"source_id\": %u, \"ring_id\": %u, \"node_id\": %u, \"vmid\": %u, "
			       "\"pasid\": %d, \"context_id0\": %u, \"context_id1\": %u, \"id\": "
			       "%u, "
			       "\"valid_bits\": %u, \"path\": \"%s\", \"drop\": \"%s\", "
			       "\"signaled\": %u, \"events\": [%s]}\n",
			       (unsigned long long)t->seq, src[t->source], t->client_id,
			       t->source_id, t->ring_id, t->node_id, t->vmid, t->pasid,
			       t->context_id0, t->context_id1, t->id, t->valid_bits,
			       kfdsig_emu_irq_path_name(t->path), kfdsig_emu_irq_drop_name(t->drop),
			       t->nsignaled, set);
			continue;
		}
		printf("  irq %s: client 0x%02x src %u ring %u node %u vmid %u pasid 0x%x "
		       "ctx 0x%08x/0x%08x -> id %u (%u bits): %s",
		       src[t->source], t->client_id, t->source_id, t->ring_id, t->node_id, t->vmid,
		       (unsigned)t->pasid, t->context_id0, t->context_id1, t->id, t->valid_bits,
		       kfdsig_emu_irq_path_name(t->path));
		if (t->path == KFDSIG_EMU_PATH_DROPPED)
			printf(" (%s)", kfdsig_emu_irq_drop_name(t->drop));
		else
			printf(", set %s", t->nsignaled ? set : "none");
		printf("\n");
	}
}

enum { OPT_CTXID = 256, OPT_NO_TIME, OPT_USERQ };

const struct option cmd_signal_options[] = {
	{ "engine", required_argument, NULL, 'E' },
	{ "event", required_argument, NULL, 'e' },
	{ "gpu", required_argument, NULL, 'g' },
	{ "count", required_argument, NULL, 'c' },
	{ "ctxid", required_argument, NULL, OPT_CTXID },
	{ "timeout", required_argument, NULL, 'T' },
	{ "no-time", no_argument, NULL, OPT_NO_TIME },
	{ "userq", no_argument, NULL, OPT_USERQ },
	{ "verbose", no_argument, NULL, 'v' },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_signal_shortopts[] = "E:e:g:c:T:v" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_signal_complete[] = {
	{ "engine", "pm4 sdma shader aql" },
	{ 0 },
};

static const char *const engine_names[] = { "pm4", "sdma", "shader", "aql" };

/* What the command line asked for: signal_parse() fills it,
 * signal_validate() checks it, signal_run() does it. */
struct signal_args {
	enum kfdsig_signal_engine e;
	uint64_t id, count, gpu, ctxid, timeout;
	bool have_gpu, have_ctxid, no_time, verbose;
	bool userq, have_engine, have_event;
};

/* The options into @a; return 0, or the exit code (-h: help printed, 0)
 * with *@done set. */
static int signal_parse(int argc, char **argv, struct signal_args *a, bool *done)
{
	int opt;

	*done = true;
	while ((opt = cli_getopt(argc, argv, cmd_signal_shortopts, cmd_signal_options)) != -1) {
		switch (opt) {
		case 'E':
			a->have_engine = true;
			if (!strcmp(optarg, "pm4"))
				a->e = KFDSIG_SIGNAL_PM4;
			else if (!strcmp(optarg, "sdma"))
				a->e = KFDSIG_SIGNAL_SDMA;
			else if (!strcmp(optarg, "shader"))
				a->e = KFDSIG_SIGNAL_SHADER;
			else if (!strcmp(optarg, "aql"))
				a->e = KFDSIG_SIGNAL_AQL;
			else
				return cli_usage_error(
					"--engine: '%s' is not pm4, sdma, shader or aql", optarg);
			break;
		case 'e':
			/* 0 is reserved; the kernel looks up slots below 4096 */
			if (!cli_parse_range("--event", optarg, 1, 4095, &a->id))
				return EXIT_USAGE;
			a->have_event = true;
			break;
		case OPT_USERQ:
			a->userq = true;
			break;
		case 'g':
			if (!cli_parse_u64("--gpu", optarg, UINT32_MAX, &a->gpu))
				return EXIT_USAGE;
			a->have_gpu = true;
			break;
		case 'c':
			if (!cli_parse_range("--count", optarg, 1, 1000000, &a->count))
				return EXIT_USAGE;
			break;
		case OPT_NO_TIME:
			a->no_time = true;
			break;
		case 'v':
			a->verbose = true;
			break;
		case OPT_CTXID:
			if (!cli_parse_u64("--ctxid", optarg, UINT32_MAX, &a->ctxid))
				return EXIT_USAGE;
			a->have_ctxid = true;
			break;
		case 'T':
			if (!cli_parse_u64("--timeout", optarg, 600000, &a->timeout))
				return EXIT_USAGE;
			break;
		default:
			return cli_opt_default(opt, help);
		}
	}
	*done = false;
	return cli_no_operands(argc, argv);
}

static int signal_validate(const struct signal_args *a)
{
	if (a->userq && (a->have_engine || a->have_event || a->have_ctxid))
		return cli_usage_error("--userq: a user queue's fence has no %s",
				       a->have_engine  ? "engine choice (-E): it is the compute "
							 "queue's PROTECTED_FENCE_SIGNAL"
				       : a->have_event ? "KFD event (-e): it is a sequence number"
						       : "context id (--ctxid): its interrupt "
							 "names the queue's doorbell");
	if (a->have_ctxid && a->e == KFDSIG_SIGNAL_SHADER)
		return cli_usage_error("--ctxid: the shader's interrupt carries m0 = the event id");
	return 0;
}

/* What signal_setup() prepares on the KFD for the signals. */
struct signal_ctx {
	struct cli_kfd c;
	const struct kfdsig_kfd_device *dev;
	struct kfdsig_kfd_queue *q;
	const struct kfdsig_kfd_bo *code;
	struct kfdsig_event ev;
	uint64_t page_va, trace_seq;
	bool json;
};

/* The GPU, its VM, the event, the code buffer (shader, aql) and the queue;
 * return 0, or the exit code after the message. */
static int signal_setup(const struct signal_args *a, struct signal_ctx *x)
{
	struct cli_kfd *c = &x->c;
	enum kfdsig_signal_engine e = a->e;

	for (size_t i = 0; i < kfdsig_kfd_device_count(c->kfd) && !x->dev; i++) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(c->kfd, i);
		if (a->have_gpu ? d->gpu_id == a->gpu : d->target != NULL)
			x->dev = d;
	}
	if (!x->dev)
		return a->have_gpu
			       ? cli_error("no GPU with gpu_id %llu (kfdsig devices lists them)",
					   (unsigned long long)a->gpu)
			       : cli_error("no GPU kfdsig supports");
	if (!x->dev->target)
		return cli_error("gpu 0x%x: %s", x->dev->gpu_id, x->dev->note);
	if (kfdsig_kfd_acquire_vm(c->kfd, x->dev->gpu_id) < 0)
		return cli_error("%s", kfdsig_last_error());
	/* ids are handed out from 1 up: create events until ours exists */
	while (x->ev.id < a->id) {
		if (kfdsig_kfd_event_create(c->kfd, KFDSIG_EVENT_SIGNAL, true, &x->ev) < 0)
			return cli_error("%s", kfdsig_last_error());
	}
	if (x->ev.id != a->id || kfdsig_kfd_signal_page(c->kfd, NULL, &x->page_va) < 0)
		return cli_error("event %llu not available", (unsigned long long)a->id);
	if ((e == KFDSIG_SIGNAL_SHADER || e == KFDSIG_SIGNAL_AQL) &&
	    (kfdsig_kfd_alloc(c->kfd, x->dev->gpu_id, 64 * 1024, KFDSIG_KFD_MEM_GTT_UNCACHED,
			      &x->code) < 0 ||
	     kfdsig_kfd_map(c->kfd, x->code, NULL, 0) < 0))
		return cli_error("%s", kfdsig_last_error());
	if (kfdsig_kfd_queue_create(c->kfd, x->dev->gpu_id,
				    e == KFDSIG_SIGNAL_SDMA  ? KFDSIG_QUEUE_SDMA
				    : e == KFDSIG_SIGNAL_AQL ? KFDSIG_QUEUE_AQL
							     : KFDSIG_QUEUE_PM4,
				    NULL, &x->q) < 0)
		return cli_error("%s", kfdsig_last_error());
	return 0;
}

/* Signal number @k (from 0), wait for it, print the line; return 0, 1 for
 * a signal that did not arrive, or -1 after an error message (stop). */
static int signal_once(const struct signal_args *a, struct signal_ctx *x, uint64_t k)
{
	const struct kfdsig_kfd_device *dev = x->dev;
	struct kfdsig_wait_entry w = { .event_id = x->ev.id, .age = 0 };
	enum kfdsig_wait_result res;
	uint32_t cx = (uint32_t)a->ctxid;
	uint64_t before;
	struct timespec t0;
	uint32_t dw[64];
	double ms;
	int n, r;

	if (kfdsig_kfd_has(x->c.kfd, KFDSIG_KFD_FEAT_EVENT_AGE))
		w.age = k + 1;
	before = w.age;
	n = build(a->e, dev->target, x->page_va + 8 * a->id, (uint32_t)a->id,
		  a->have_ctxid ? &cx : NULL, x->code, dw, 64);
	if (n < 0) {
		cli_error("%s", kfdsig_last_error());
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (kfdsig_kfd_queue_submit(x->q, dw, (uint32_t)n, 1000) < 0) {
		cli_error("%s", kfdsig_last_error());
		return -1;
	}
	r = kfdsig_kfd_wait(x->c.kfd, &w, 1, false, (uint32_t)a->timeout, &res);
	ms = ms_since(&t0);
	if (x->json) {
		const char *result = r < 0			   ? "fail"
				     : res == KFDSIG_WAIT_COMPLETE ? "complete"
								   : "timeout";

		cli_json_record(stdout);
		printf("{\"gpu_id\": %u, \"target\": \"%s\", \"engine\": \"%s\", "
		       "\"event\": %llu, \"result\": \"%s\", \"age_before\": %llu, "
		       "\"age_after\": %llu",
		       dev->gpu_id, dev->target->name, engine_names[a->e],
		       (unsigned long long)a->id, result, (unsigned long long)before,
		       (unsigned long long)w.age);
		if (!a->no_time)
			printf(", \"ms\": %.3f", ms);
		printf("}\n");
	} else {
		const char *up = r < 0			       ? "FAIL"
				 : res == KFDSIG_WAIT_COMPLETE ? "COMPLETE"
							       : "TIMEOUT";

		printf("gpu 0x%04x %s %s event %llu: %s, age %llu -> %llu", dev->gpu_id,
		       dev->target->name, engine_names[a->e], (unsigned long long)a->id, up,
		       (unsigned long long)before, (unsigned long long)w.age);
		if (!a->no_time)
			printf(", %.3f ms", ms);
		printf("\n");
	}
	if (a->verbose)
		print_trace(&x->c, dev->gpu_id, x->json, &x->trace_seq);
	return r < 0 || res != KFDSIG_WAIT_COMPLETE;
}

/* --userq: a compute user queue on the render node, one submission and
 * one SYNCOBJ_WAIT per signal. */
static int signal_run_userq(const struct signal_args *a)
{
	struct cli_kfd c = { 0 };
	const struct kfdsig_kfd_device *dev = NULL;
	struct uq_env e;
	uint64_t seen = 0;
	uint32_t h;
	bool json = cli_json();
	int r, ret = 0;

	r = cli_kfd_open(cli_g.emulate, &c);
	if (r)
		return r;
	for (size_t i = 0; i < kfdsig_kfd_device_count(c.kfd) && !dev; i++) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(c.kfd, i);
		if (a->have_gpu ? d->gpu_id == a->gpu : d->target != NULL)
			dev = d;
	}
	if (!dev || !dev->target) {
		ret = !dev && a->have_gpu
			      ? cli_error("no GPU with gpu_id %llu (kfdsig devices lists them)",
					  (unsigned long long)a->gpu)
		      : dev ? cli_error("gpu 0x%x: %s", dev->gpu_id, dev->note)
			    : cli_error("no GPU kfdsig supports");
		cli_kfd_close(&c);
		return ret;
	}
	r = uq_env_open(&e, c.emu ? kfdsig_emu_ops(c.emu) : NULL, c.kfd, dev);
	if (!r)
		r = uq_env_queue(&e, 0);
	if (!r)
		r = uq_env_syncobj(&e, &h);
	if (r) {
		ret = cli_error("gpu 0x%x (%s): %s", dev->gpu_id, dev->target->name, e.why);
		uq_env_close(&e);
		cli_kfd_close(&c);
		return ret;
	}
	for (uint64_t k = 0; k < a->count; k++) {
		uint64_t seq = 0, ns = 0;
		const char *res;

		r = uq_env_submit(&e, 0, NULL, 0, h, &seq);
		if (!r)
			r = uq_env_sync_wait(&e, &h, 1, false, (uint32_t)a->timeout, NULL, &ns);
		if (r && r != -ETIME) {
			ret = cli_error("gpu 0x%x (%s): %s", dev->gpu_id, dev->target->name, e.why);
			break;
		}
		res = r ? "timeout" : "complete";
		if (json) {
			cli_json_record(stdout);
			printf("{\"gpu_id\": %u, \"target\": \"%s\", \"engine\": \"userq\", "
			       "\"fence\": %llu, \"result\": \"%s\"",
			       dev->gpu_id, dev->target->name, (unsigned long long)seq, res);
			if (!a->no_time)
				printf(", \"ms\": %.3f", (double)ns / 1e6);
			printf("}\n");
		} else {
			printf("gpu 0x%04x %s userq fence %llu: %s", dev->gpu_id, dev->target->name,
			       (unsigned long long)seq, r ? "TIMEOUT" : "COMPLETE");
			if (!a->no_time)
				printf(", %.3f ms", (double)ns / 1e6);
			printf("\n");
		}
		/* the userq handler wakes the waiter before amdkfd's handler
		 * has taken (and recorded) the same entry: wait for it */
		for (int i = 0; a->verbose && !r && c.emu && i < 500; i++) {
			struct kfdsig_emu_irq_record last;
			int pasid = kfdsig_emu_pasid_on(c.emu, kfdsig_kfd_fd(c.kfd), dev->gpu_id);

			if (kfdsig_emu_irq_trace(c.emu, pasid, &last, 1) == 1 && last.seq > seen)
				break;
			usleep(1000);
		}
		if (a->verbose)
			print_trace(&c, dev->gpu_id, json, &seen);
		if (r)
			ret = EXIT_FAILURE; /* a fence that did not arrive: go on */
	}
	uq_env_close(&e);
	cli_kfd_close(&c);
	if (ret)
		return ret;
	return cli_close_output(stdout);
}

static int signal_run(const struct signal_args *a)
{
	struct signal_ctx x = { 0 };
	bool setup_failed;
	int r, ret;

	x.json = cli_json();
	r = cli_kfd_open(cli_g.emulate, &x.c);
	if (r)
		return r;
	ret = signal_setup(a, &x);
	setup_failed = ret != 0;
	for (uint64_t k = 0; !setup_failed && k < a->count; k++) {
		int once = signal_once(a, &x, k);

		if (once)
			ret = EXIT_FAILURE; /* a signal that did not arrive: go on */
		if (once < 0)
			break;
	}
	if (x.q)
		kfdsig_kfd_queue_destroy(x.q);
	cli_kfd_close(&x.c);
	if (ret)
		return ret;
	return cli_close_output(stdout);
}

int cmd_signal(int argc, char **argv)
{
	struct signal_args a = { .e = KFDSIG_SIGNAL_PM4, .id = 1, .count = 1, .timeout = 2000 };
	bool done;
	int ret;

	ret = signal_parse(argc, argv, &a, &done);
	if (done || ret)
		return ret;
	ret = signal_validate(&a);
	if (ret)
		return ret;
	return a.userq ? signal_run_userq(&a) : signal_run(&a);
}
