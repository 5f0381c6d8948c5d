/* SPDX-License-Identifier: MIT */
/*
 * `kfdsig trace`'s reader: records (src/proto/trace.h) to text or JSON
 * Lines (docs/schema/trace.json), and the summary.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/kfd_ioctl.h>

#include "preload/trace_report.h"

#define NR_MAX 64

/* The KFD ioctls by number (include/uapi/linux/kfd_ioctl.h AMDKFD_IOC_*). */
static const char *const ioctl_names[NR_MAX] = {
	[0x01] = "GET_VERSION",
	[0x02] = "CREATE_QUEUE",
	[0x03] = "DESTROY_QUEUE",
	[0x04] = "SET_MEMORY_POLICY",
	[0x05] = "GET_CLOCK_COUNTERS",
	[0x06] = "GET_PROCESS_APERTURES",
	[0x07] = "UPDATE_QUEUE",
	[0x08] = "CREATE_EVENT",
	[0x09] = "DESTROY_EVENT",
	[0x0a] = "SET_EVENT",
	[0x0b] = "RESET_EVENT",
	[0x0c] = "WAIT_EVENTS",
	[0x0d] = "DBG_REGISTER",
	[0x0e] = "DBG_UNREGISTER",
	[0x0f] = "DBG_ADDRESS_WATCH",
	[0x10] = "DBG_WAVE_CONTROL",
	[0x11] = "SET_SCRATCH_BACKING_VA",
	[0x12] = "GET_TILE_CONFIG",
	[0x13] = "SET_TRAP_HANDLER",
	[0x14] = "GET_PROCESS_APERTURES_NEW",
	[0x15] = "ACQUIRE_VM",
	[0x16] = "ALLOC_MEMORY_OF_GPU",
	[0x17] = "FREE_MEMORY_OF_GPU",
	[0x18] = "MAP_MEMORY_TO_GPU",
	[0x19] = "UNMAP_MEMORY_FROM_GPU",
	[0x1a] = "SET_CU_MASK",
	[0x1b] = "GET_QUEUE_WAVE_STATE",
	[0x1c] = "GET_DMABUF_INFO",
	[0x1d] = "IMPORT_DMABUF",
	[0x1e] = "ALLOC_QUEUE_GWS",
	[0x1f] = "SMI_EVENTS",
	[0x20] = "SVM",
	[0x21] = "SET_XNACK_MODE",
	[0x22] = "CRIU_OP",
	[0x23] = "AVAILABLE_MEMORY",
	[0x24] = "EXPORT_DMABUF",
	[0x25] = "RUNTIME_ENABLE",
	[0x26] = "DBG_TRAP",
};

static const char *const event_types[] = { "SIGNAL",	    "NODECHANGE",  "DEVICESTATECHANGE",
					   "HW_EXCEPTION",  "SYSTEMEVENT", "DEBUG_EVENT",
					   "PROFILE_EVENT", "QUEUE_EVENT", "MEMORY" };
/* KFD_IOC_QUEUE_TYPE_*, and 1.17's SDMA_BY_ENG_ID */
static const char *const queue_types[] = { "COMPUTE", "SDMA", "COMPUTE_AQL", "SDMA_XGMI",
					   "SDMA_BY_ENG_ID" };
static const char *const results[] = { "COMPLETE", "TIMEOUT", "FAIL" };
static const char *const irq_sources[] = { "cp-eop", "sdma-trap", "sq-msg", "cp-bad-opcode" };
static const char *const irq_paths[] = { "fast",    "partial",	 "scan",
					 "dropped", "exception", "trusted" };
static const char *const irq_drops[] = { "none",       "ctx0",		 "bit24", "v6.14",
					 "no-process", "no-signal-page", "node" };
static const char *const page_kinds[] = { "none", "kernel", "user" };
static const char *const detectors[KFDSIG_DET_COUNT + 1] = {
	[KFDSIG_DET_STORM] = "storm",
	[KFDSIG_DET_SLEPT_THROUGH] = "slept-through",
	[KFDSIG_DET_NO_WAITER] = "no-waiter",
	[KFDSIG_DET_NEVER_RESET] = "never-reset",
	[KFDSIG_DET_QUEUE_ERROR] = "queue-error",
};

#define NAME(tab, i) ((size_t)(i) < sizeof(tab) / sizeof(tab[0]) && tab[i] ? tab[i] : "?")

struct ev_stat {
	int32_t pid;
	uint32_t id;
	uint64_t waits, wakes, timeouts, signals;
	uint64_t *sleeps; /* ns, one per wait */
	size_t nsleeps, cap;
};

struct trace_report {
	FILE *out;
	bool json, summary_only;
	uint64_t t0;
	uint64_t calls[NR_MAX], errors[NR_MAX], ns[NR_MAX];
	struct ev_stat *evs;
	size_t nev, cap;
	unsigned found[KFDSIG_DET_COUNT + 1];
	unsigned processes; /* START records */
	char **messages;    /* the findings, for the summary */
	size_t nmsg, capmsg;
	size_t have; /* bytes in buf not taken yet */
	union {
		struct kfdsig_trace_rec rec[256];
		char bytes[256 * sizeof(struct kfdsig_trace_rec)];
	} buf;
};

struct trace_report *trace_report_new(FILE *out, bool json, bool summary_only, uint64_t t0_ns)
{
	struct trace_report *rep = calloc(1, sizeof(*rep));

	if (!rep)
		return NULL;
	rep->out = out;
	rep->json = json;
	rep->summary_only = summary_only;
	rep->t0 = t0_ns;
	return rep;
}

void trace_report_free(struct trace_report *rep)
{
	if (!rep)
		return;
	for (size_t i = 0; i < rep->nev; i++)
		free(rep->evs[i].sleeps);
	for (size_t i = 0; i < rep->nmsg; i++)
		free(rep->messages[i]);
	free(rep->messages);
	free(rep->evs);
	free(rep);
}

unsigned trace_report_findings(const struct trace_report *rep, enum kfdsig_trace_detector det)
{
	unsigned n = 0;

	if ((unsigned)det <= KFDSIG_DET_COUNT && det)
		return rep->found[det];
	for (int i = 1; i <= KFDSIG_DET_COUNT; i++)
		n += rep->found[i];
	return n;
}

static struct ev_stat *ev_stat(struct trace_report *rep, int32_t pid, uint32_t id)
{
	for (size_t i = rep->nev; i-- > 0;)
		if (rep->evs[i].pid == pid && rep->evs[i].id == id)
			return &rep->evs[i];
	if (rep->nev == rep->cap) {
		size_t cap = rep->cap ? 2 * rep->cap : 64;
		struct ev_stat *n = realloc(rep->evs, cap * sizeof(*n));
		if (!n)
			return NULL;
		rep->evs = n;
		rep->cap = cap;
	}
	rep->evs[rep->nev] = (struct ev_stat){ .pid = pid, .id = id };
	return &rep->evs[rep->nev++];
}

static int add_sleep(struct ev_stat *e, uint64_t ns)
{
	if (e->nsleeps == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 16;
		uint64_t *n = realloc(e->sleeps, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		e->sleeps = n;
		e->cap = cap;
	}
	e->sleeps[e->nsleeps++] = ns;
	return 0;
}

/* The sentence a finding prints. */
static void finding_text(const struct kfdsig_trace_finding *f, char *s, size_t n)
{
	switch (f->detector) {
	case KFDSIG_DET_STORM:
		snprintf(s, n,
			 "instant-return storm: event %u: WAIT_EVENTS returned at once %" PRIu64
			 " times in a row passing the stale age %" PRIu64
			 " (the event's age is %" PRIu64 ")",
			 f->event_id, f->count, f->stale_age, f->real_age);
		break;
	case KFDSIG_DET_SLEPT_THROUGH:
		snprintf(s, n,
			 "slept through a signal: event %u: the wait timed out while the event's "
			 "slot in the signal page reads signalled (no interrupt set the event)",
			 f->event_id);
		break;
	case KFDSIG_DET_NO_WAITER:
		snprintf(s, n,
			 "signal without waiter: auto-reset event %u was signalled while nobody "
			 "waited and never consumed",
			 f->event_id);
		break;
	case KFDSIG_DET_NEVER_RESET:
		snprintf(s, n, "never reset: manual-reset event %u was left signalled",
			 f->event_id);
		break;
	case KFDSIG_DET_QUEUE_ERROR:
		if (f->event_id == UINT32_MAX)
			snprintf(s, n,
				 "queue error: queue %u on gpu 0x%x raised an exception "
				 "interrupt (CP bad opcode)",
				 f->queue_id, f->gpu_id);
		else if (f->queue_id == UINT32_MAX)
			snprintf(s, n,
				 "queue error: exception event %u fired on gpu 0x%x (va 0x%" PRIx64
				 "), no queue of this process on it",
				 f->event_id, f->gpu_id, f->va);
		else
			snprintf(s, n,
				 "queue error: queue %u on gpu 0x%x: exception event %u fired "
				 "(va 0x%" PRIx64 ")",
				 f->queue_id, f->gpu_id, f->event_id, f->va);
		break;
	default:
		snprintf(s, n, "unknown detector %u", f->detector);
	}
}

static void head(struct trace_report *rep, const struct kfdsig_trace_rec *r, const char *type)
{
	double t = r->t_ns > rep->t0 ? (double)(r->t_ns - rep->t0) / 1e9 : 0.0;

	if (rep->json)
		fprintf(rep->out, "{\"type\": \"%s\", \"t\": %.6f, \"pid\": %d, \"tid\": %d", type,
			t, r->pid, r->tid);
	else
		fprintf(rep->out, "[pid %d tid %d] %.6f ", r->pid, r->tid, t);
}

static void ret_text(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	if (rep->json) {
		fprintf(rep->out, ", \"ret\": %d, \"dur_us\": %.3f", r->ret,
			(double)r->dur_ns / 1e3);
		return;
	}
	if (r->ret)
		fprintf(rep->out, " = -1 %s (%s)", strerrorname_np(-r->ret) ?: "?",
			strerror(-r->ret));
	else
		fprintf(rep->out, " = 0");
	fprintf(rep->out, " <%.1fus>", (double)r->dur_ns / 1e3);
}

static void print_ioctl(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	const struct kfdsig_trace_ioctl *io = &r->u.io;
	const char *name = NAME(ioctl_names, r->nr);
	FILE *o = rep->out;

	head(rep, r, "ioctl");
	if (rep->json)
		fprintf(o, ", \"ioctl\": \"%s\", \"nr\": %u", name, r->nr);
	else
		fprintf(o, "%s", name);
	switch (r->nr) {
	case 0x08: /* CREATE_EVENT */
		if (rep->json)
			fprintf(o,
				", \"event_type\": \"%s\", \"auto_reset\": %s, \"event_id\": %u, "
				"\"page\": \"%s\", \"page_offset\": %" PRIu64
				", \"page_addr\": %" PRIu64,
				NAME(event_types, io->event_type),
				io->auto_reset ? "true" : "false", io->event_id,
				NAME(page_kinds, io->page), io->page_offset, io->page_addr);
		else {
			fprintf(o, " type=%s auto_reset=%u -> id=%u",
				NAME(event_types, io->event_type), io->auto_reset, io->event_id);
			if (io->page)
				fprintf(o, " signal_page=%s %s=0x%" PRIx64 " at 0x%" PRIx64,
					NAME(page_kinds, io->page),
					io->page == 2 ? "handle" : "offset", io->page_offset,
					io->page_addr);
		}
		break;
	case 0x09:
	case 0x0a:
	case 0x0b: /* DESTROY/SET/RESET_EVENT */
		fprintf(o, rep->json ? ", \"event_id\": %u" : " id=%u", io->event_id);
		break;
	case 0x02:
	case 0x03:
	case 0x07: /* CREATE/DESTROY/UPDATE_QUEUE */
		if (rep->json) {
			fprintf(o, ", \"queue_id\": %u", io->queue_id);
			if (r->nr != 0x03)
				fprintf(o,
					", \"ring_base\": %" PRIu64 ", \"ring_size\": %" PRIu64
					", \"percentage\": %u, \"priority\": %u",
					io->ring_base, io->ring_size, io->percentage, io->priority);
			if (r->nr == 0x02)
				fprintf(o,
					", \"gpu_id\": %u, \"queue_type\": %u, "
					"\"doorbell_offset\": "
					"%" PRIu64,
					io->gpu_id, io->queue_type, io->doorbell_offset);
		} else {
			if (r->nr == 0x02)
				fprintf(o, " gpu=0x%x type=%s", io->gpu_id,
					NAME(queue_types, io->queue_type));
			if (r->nr != 0x03)
				fprintf(o, " ring=0x%" PRIx64 "+%" PRIu64 " pct=%u prio=%u",
					io->ring_base, io->ring_size, io->percentage, io->priority);
			fprintf(o, r->nr == 0x02 ? " -> queue=%u" : " queue=%u", io->queue_id);
			if (r->nr == 0x02)
				fprintf(o, " doorbell=0x%" PRIx64, io->doorbell_offset);
		}
		break;
	default:
		break;
	}
	ret_text(rep, r);
}

static void print_wait(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	const struct kfdsig_trace_wait *w = &r->u.wait;
	uint32_t n = w->n_events < KFDSIG_TRACE_WAIT_IDS ? w->n_events : KFDSIG_TRACE_WAIT_IDS;
	FILE *o = rep->out;

	head(rep, r, "wait");
	if (rep->json) {
		fprintf(o, ", \"ioctl\": \"WAIT_EVENTS\", \"events\": [");
		for (uint32_t i = 0; i < n; i++) {
			fprintf(o,
				"%s{\"id\": %u, \"age_in\": %" PRIu64 ", \"age_out\": %" PRIu64
				", \"slot\": ",
				i ? ", " : "", w->ids[i], w->age_in[i], w->age_out[i]);
			if ((w->slot_known >> i) & 1)
				fprintf(o, "\"%s\"}", (w->slot_set >> i) & 1 ? "set" : "clear");
			else
				fprintf(o, "null}");
		}
		fprintf(o,
			"], \"n_events\": %u, \"wait_all\": %s, \"timeout_ms\": %u, \"result\": "
			"\"%s\", \"ret\": %d, \"slept_us\": %.3f}\n",
			w->n_events, w->wait_all ? "true" : "false", w->timeout_ms,
			r->ret ? "ERROR" : NAME(results, w->wait_result), r->ret,
			(double)r->dur_ns / 1e3);
		return;
	}
	fprintf(o, "WAIT_EVENTS ids=[");
	for (uint32_t i = 0; i < n; i++) {
		fprintf(o, "%s%u", i ? " " : "", w->ids[i]);
		if (w->age_in[i] || w->age_out[i])
			fprintf(o, " age %" PRIu64 "->%" PRIu64, w->age_in[i], w->age_out[i]);
		if ((w->slot_set >> i) & 1)
			fprintf(o, " slot=set");
		if (i + 1 < n)
			fprintf(o, ",");
	}
	if (w->n_events > n)
		fprintf(o, ", ... %u in all", w->n_events);
	fprintf(o, "] all=%u timeout=%u", w->wait_all, w->timeout_ms);
	if (r->ret)
		ret_text(rep, r);
	else
		fprintf(o, " -> %s slept=%.1fus", NAME(results, w->wait_result),
			(double)r->dur_ns / 1e3);
	fprintf(o, "\n");
}

static void print_other(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	FILE *o = rep->out;
	char msg[320];

	switch (r->kind) {
	case KFDSIG_TR_START:
		head(rep, r, "start");
		fprintf(o, rep->json ? ", \"comm\": \"" : "start comm=");
		for (const char *c = r->u.start.comm; *c && c < r->u.start.comm + 63; c++)
			fprintf(o,
				rep->json && (*c == '"' || *c == '\\') ? "\\%c"
				: (unsigned char)*c < 0x20	       ? "?"
								       : "%c",
				*c);
		fprintf(o, rep->json ? "\", \"ppid\": %d, \"kfd\": \"%s\"}\n" : " ppid=%d kfd=%s\n",
			r->u.start.ppid, r->u.start.emulated ? "emulated" : "real");
		break;
	case KFDSIG_TR_EXIT:
		head(rep, r, "exit");
		fprintf(o, rep->json ? "}\n" : "exit\n");
		break;
	case KFDSIG_TR_MAP: {
		const struct kfdsig_trace_map *m = &r->u.map;
		head(rep, r, "mmap");
		if (rep->json)
			fprintf(o,
				", \"offset\": %" PRIu64 ", \"addr\": %" PRIu64
				", \"len\": %" PRIu64 ", \"signal_page\": %s}\n",
				m->offset, m->addr, m->len, m->page ? "true" : "false");
		else
			fprintf(o, "mmap offset=0x%" PRIx64 " len=%" PRIu64 " -> 0x%" PRIx64 "%s\n",
				m->offset, m->len, m->addr, m->page ? " (signal page)" : "");
		break;
	}
	case KFDSIG_TR_IRQ: {
		const struct kfdsig_trace_irq *q = &r->u.irq;
		char set[64] = "";
		size_t len = 0;

		for (uint32_t k = 0; k < q->nsignaled && k < 4; k++)
			len += (size_t)snprintf(set + len, sizeof(set) - len, "%s%u",
						k ? (rep->json ? ", " : ",") : "", q->events[k]);
		head(rep, r, "irq");
		if (rep->json)
			fprintf(o,
				", \"irq\": %" PRIu64 ", \"gpu_id\": %u, \"source\": \"%s\", "
				"\"client_id\": %u, \"source_id\": %u, \"ring_id\": %u, "
				"\"node_id\": "
				"%u, \"vmid\": %u, \"context_id0\": %u, \"context_id1\": %u, "
				"\"id\": "
				"%u, \"valid_bits\": %u, \"path\": \"%s\", \"drop\": \"%s\", "
				"\"signaled\": %u, \"events\": [%s]}\n",
				q->seq, q->gpu_id, NAME(irq_sources, q->source), q->client_id,
				q->source_id, q->ring_id, q->node_id, q->vmid, q->context_id0,
				q->context_id1, q->id, q->valid_bits, NAME(irq_paths, q->path),
				NAME(irq_drops, q->drop), q->nsignaled, set);
		else {
			fprintf(o,
				"irq %s gpu=0x%x client=0x%02x src=%u ring=%u node=%u vmid=%u "
				"ctx=0x%08x/0x%08x -> id %u (%u bits): %s",
				NAME(irq_sources, q->source), q->gpu_id, q->client_id, q->source_id,
				q->ring_id, q->node_id, q->vmid, q->context_id0, q->context_id1,
				q->id, q->valid_bits, NAME(irq_paths, q->path));
			if (q->path == 3)
				fprintf(o, " (%s)\n", NAME(irq_drops, q->drop));
			else
				fprintf(o, ", set %s\n", q->nsignaled ? set : "none");
		}
		break;
	}
	case KFDSIG_TR_FINDING:
		finding_text(&r->u.find, msg, sizeof(msg));
		head(rep, r, "finding");
		if (rep->json) {
			const struct kfdsig_trace_finding *f = &r->u.find;
			fprintf(o, ", \"detector\": \"%s\"", NAME(detectors, f->detector));
			if (f->event_id != UINT32_MAX)
				fprintf(o, ", \"event_id\": %u", f->event_id);
			if (f->detector == KFDSIG_DET_STORM)
				fprintf(o,
					", \"stale_age\": %" PRIu64 ", \"real_age\": %" PRIu64
					", \"count\": %" PRIu64,
					f->stale_age, f->real_age, f->count);
			if (f->detector == KFDSIG_DET_QUEUE_ERROR) {
				fprintf(o, ", \"gpu_id\": %u, \"va\": %" PRIu64, f->gpu_id, f->va);
				if (f->queue_id != UINT32_MAX)
					fprintf(o, ", \"queue_id\": %u", f->queue_id);
			}
			fprintf(o, ", \"message\": \"%s\"}\n", msg);
		} else {
			fprintf(o, "!! %s\n", msg);
		}
		break;
	default:
		break;
	}
}

static int keep_message(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	char msg[320], *m;
	int len;

	finding_text(&r->u.find, msg, sizeof(msg));
	if (rep->nmsg == rep->capmsg) {
		size_t cap = rep->capmsg ? 2 * rep->capmsg : 8;
		char **n = realloc(rep->messages, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		rep->messages = n;
		rep->capmsg = cap;
	}
	len = asprintf(&m, "pid %d: %s", r->pid, msg);
	if (len < 0)
		return -ENOMEM;
	rep->messages[rep->nmsg++] = m;
	return 0;
}

/* The counts of the summary. */
static int account(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	switch (r->kind) {
	case KFDSIG_TR_IOCTL:
	case KFDSIG_TR_WAIT:
		if (r->nr < NR_MAX) {
			rep->calls[r->nr]++;
			rep->errors[r->nr] += r->ret != 0;
			rep->ns[r->nr] += r->dur_ns;
		}
		if (r->kind == KFDSIG_TR_IOCTL && r->nr == 0x0a && !r->ret) {
			struct ev_stat *e = ev_stat(rep, r->pid, r->u.io.event_id);
			if (!e)
				return -ENOMEM;
			e->signals++;
		}
		if (r->kind == KFDSIG_TR_WAIT && !r->ret) {
			const struct kfdsig_trace_wait *w = &r->u.wait;
			for (uint32_t i = 0; i < w->n_events && i < KFDSIG_TRACE_WAIT_IDS; i++) {
				struct ev_stat *e = ev_stat(rep, r->pid, w->ids[i]);
				if (!e || add_sleep(e, r->dur_ns))
					return -ENOMEM;
				e->waits++;
				e->wakes += w->wait_result == KFD_IOC_WAIT_RESULT_COMPLETE;
				e->timeouts += w->wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT;
			}
		}
		break;
	case KFDSIG_TR_IRQ:
		for (uint32_t k = 0; k < r->u.irq.nsignaled && k < 4; k++) {
			struct ev_stat *e = ev_stat(rep, r->pid, r->u.irq.events[k]);
			if (!e)
				return -ENOMEM;
			e->signals++;
		}
		break;
	case KFDSIG_TR_START:
		rep->processes++;
		break;
	case KFDSIG_TR_FINDING:
		if (r->u.find.detector >= 1 && r->u.find.detector <= KFDSIG_DET_COUNT)
			rep->found[r->u.find.detector]++;
		return keep_message(rep, r);
	default:
		break;
	}
	return 0;
}

int trace_report_record(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	if (r->magic != KFDSIG_TRACE_MAGIC)
		return -EINVAL;
	if (!rep->summary_only || r->kind == KFDSIG_TR_FINDING) {
		if (r->kind == KFDSIG_TR_IOCTL) {
			print_ioctl(rep, r);
			fprintf(rep->out, rep->json ? "}\n" : "\n");
		} else if (r->kind == KFDSIG_TR_WAIT) {
			print_wait(rep, r);
		} else {
			print_other(rep, r);
		}
	}
	return account(rep, r);
}

/* Read what is ready and take the whole records: 1 at EOF, 0, or -errno. */
static int read_some(struct trace_report *rep, int fd)
{
	const size_t size = sizeof(struct kfdsig_trace_rec);
	ssize_t n = read(fd, rep->buf.bytes + rep->have, sizeof(rep->buf) - rep->have);
	size_t whole;

	if (n == 0)
		return 1;
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	rep->have += (size_t)n;
	whole = rep->have / size;
	for (size_t i = 0; i < whole; i++) {
		int r = trace_report_record(rep, &rep->buf.rec[i]);
		if (r && r != -EINVAL)
			return r;
	}
	rep->have -= whole * size;
	memmove(rep->buf.bytes, rep->buf.bytes + whole * size, rep->have);
	return 0;
}

int trace_report_drain(struct trace_report *rep, int fd, pid_t child, int *status)
{
	bool exited = false;
	int r;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = poll(&p, 1, exited ? 0 : 100);

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0) {
			r = read_some(rep, fd);
			if (r < 0)
				return r;
			if (r == 1)
				break;
			continue;
		}
		if (exited)
			break; /* the program is gone, nothing is ready: its
				* children that keep the pipe are not waited for */
		if (waitpid(child, status, WNOHANG) == child)
			exited = true;
	}
	if (!exited && waitpid(child, status, 0) < 0)
		return -errno;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double pct_us(struct ev_stat *e, unsigned p)
{
	size_t i;

	if (!e->nsleeps)
		return 0;
	i = (e->nsleeps * p + 99) / 100;
	return (double)e->sleeps[i ? i - 1 : 0] / 1e3;
}

void trace_report_summary(struct trace_report *rep, int status)
{
	FILE *o = rep->out;
	bool first = true;

	for (size_t i = 0; i < rep->nev; i++)
		if (rep->evs[i].nsleeps)
			qsort(rep->evs[i].sleeps, rep->evs[i].nsleeps, sizeof(uint64_t), cmp_u64);
	if (rep->json) {
		fprintf(o, "{\"type\": \"summary\", \"ioctls\": [");
		for (int nr = 0; nr < NR_MAX; nr++) {
			if (!rep->calls[nr])
				continue;
			fprintf(o,
				"%s{\"ioctl\": \"%s\", \"calls\": %" PRIu64 ", \"errors\": %" PRIu64
				", \"total_us\": %.3f}",
				first ? "" : ", ", NAME(ioctl_names, nr), rep->calls[nr],
				rep->errors[nr], (double)rep->ns[nr] / 1e3);
			first = false;
		}
		fprintf(o, "], \"events\": [");
		for (size_t i = 0; i < rep->nev; i++) {
			struct ev_stat *e = &rep->evs[i];
			fprintf(o,
				"%s{\"pid\": %d, \"event_id\": %u, \"waits\": %" PRIu64
				", \"wakes\": %" PRIu64 ", \"timeouts\": %" PRIu64
				", \"signals\": %" PRIu64 ", \"p50_us\": %.3f, \"p99_us\": %.3f}",
				i ? ", " : "", e->pid, e->id, e->waits, e->wakes, e->timeouts,
				e->signals, pct_us(e, 50), pct_us(e, 99));
		}
		fprintf(o, "], \"findings\": {");
		for (int d = 1; d <= KFDSIG_DET_COUNT; d++)
			fprintf(o, "%s\"%s\": %u", d > 1 ? ", " : "", detectors[d], rep->found[d]);
		fprintf(o, "}, \"processes\": %u, \"exit_status\": %d}\n", rep->processes, status);
		fflush(o);
		return;
	}
	fprintf(o, "\n%8s %8s %12s %10s  %s\n", "calls", "errors", "total(us)", "avg(us)", "ioctl");
	for (int nr = 0; nr < NR_MAX; nr++)
		if (rep->calls[nr])
			fprintf(o, "%8" PRIu64 " %8" PRIu64 " %12.1f %10.1f  %s\n", rep->calls[nr],
				rep->errors[nr], (double)rep->ns[nr] / 1e3,
				(double)rep->ns[nr] / 1e3 / (double)rep->calls[nr],
				NAME(ioctl_names, nr));
	if (rep->nev) {
		fprintf(o, "\n%8s %8s %8s %8s %8s %8s %10s %10s\n", "pid", "event", "waits",
			"wakes", "timeouts", "signals", "p50(us)", "p99(us)");
		for (size_t i = 0; i < rep->nev; i++) {
			struct ev_stat *e = &rep->evs[i];
			fprintf(o,
				"%8d %8u %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64
				" %10.1f %10.1f\n",
				e->pid, e->id, e->waits, e->wakes, e->timeouts, e->signals,
				pct_us(e, 50), pct_us(e, 99));
		}
	}
	if (!rep->processes)
		fprintf(o, "\nno process made a KFD call through the interposer (a static or "
			   "set-user-ID program is not interposed)\n");
	fprintf(o, "\nfindings: %u\n", trace_report_findings(rep, 0));
	for (size_t i = 0; i < rep->nmsg; i++)
		fprintf(o, "  %s\n", rep->messages[i]);
	fprintf(o, "exit status: %d\n", status);
	fflush(o);
}
