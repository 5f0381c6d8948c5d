/* SPDX-License-Identifier: MIT */
/*
 * `kfdsig trace`'s reader: records (src/proto/trace.h) to text or JSON
 * Lines (docs/schema/trace.json), and the summary.
 *
 * A WAIT_EVENTS that may block comes as two records, its beginning and its
 * end: printed as strace prints a call another line interrupts, one line
 * "<unfinished>" when it starts and one "<... WAIT_EVENTS resumed>" when it
 * returns, so that a wait that never returns is seen. Every other call is
 * one line stamped with its return: a process's recorder takes that time
 * and writes the record under one lock, so its lines come in time order. The calls still in flight are kept with the last state
 * the recorder's watchdog reported, for the closing block.
 *
 * 64-bit values (addresses, offsets, sizes, ages) are JSON strings
 * "0x..." (a JSON number is a double to most readers: jq rounds above
 * 2^53); counts and durations are numbers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/kfd_ioctl.h>

#include "preload/trace_report.h"

#define NR_MAX 256

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
	/* the render node's (KFDSIG_TR_DRM): amdgpu_drm.h DRM_AMDGPU_USERQ*
	 * (DRM_COMMAND_BASE + 0x16..0x18) and drm.h DRM_IOCTL_SYNCOBJ_* */
	[0x56] = "DRM_AMDGPU_USERQ",
	[0x57] = "DRM_AMDGPU_USERQ_SIGNAL",
	[0x58] = "DRM_AMDGPU_USERQ_WAIT",
	[0xbf] = "SYNCOBJ_CREATE",
	[0xc0] = "SYNCOBJ_DESTROY",
	[0xc3] = "SYNCOBJ_WAIT",
	[0xca] = "SYNCOBJ_TIMELINE_WAIT",
	[0xcb] = "SYNCOBJ_QUERY",
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
	[KFDSIG_DET_LOST_WAIT] = "lost-wait",
	[KFDSIG_DET_DEAD_WAIT] = "dead-wait",
	[KFDSIG_DET_LOST_FENCE] = "lost-fence",
};
static const char *const classes[] = {
	[KFDSIG_CLASS_DEFAULT] = NULL,	      [KFDSIG_CLASS_POLLED] = "polled",
	[KFDSIG_CLASS_CPU_SET] = "cpu-set",   [KFDSIG_CLASS_NO_IRQ] = "no-interrupt",
	[KFDSIG_CLASS_OTHER_ID] = "other-id", [KFDSIG_CLASS_DESTROYED] = "destroyed",
	[KFDSIG_CLASS_NO_QUEUE] = "no-queue", [KFDSIG_CLASS_PROBED] = "probed",
};
enum { SEV_INFO, SEV_WARNING, SEV_ERROR };
static const char *const severities[] = { "info", "warning", "error" };

#define NAME(tab, i) ((size_t)(i) < sizeof(tab) / sizeof(tab[0]) && tab[i] ? tab[i] : "?")

/* How much a finding matters: an error is a signal lost or a queue that
 * failed; a warning, a pattern that wastes or risks one; information, what
 * a correct runtime does (a signal it polled). */
static int severity(const struct kfdsig_trace_finding *f)
{
	switch (f->detector) {
	case KFDSIG_DET_SLEPT_THROUGH:
	case KFDSIG_DET_QUEUE_ERROR:
	case KFDSIG_DET_LOST_WAIT:
	case KFDSIG_DET_LOST_FENCE:
		return SEV_ERROR;
	case KFDSIG_DET_DEAD_WAIT:
		return f->cls == KFDSIG_CLASS_DESTROYED ? SEV_ERROR : SEV_WARNING;
	case KFDSIG_DET_NO_WAITER:
		return SEV_INFO;
	default:
		return SEV_WARNING;
	}
}

/* The class of calls an ioctl number belongs to. */
static unsigned call_class(unsigned nr)
{
	switch (nr) {
	case 0x08 ... 0x0c: /* CREATE/DESTROY/SET/RESET/WAIT_EVENTS */
	case 0x57:
	case 0x58: /* the render node's USERQ_SIGNAL / USERQ_WAIT */
	case 0xbf:
	case 0xc0:
	case 0xc3:
	case 0xca:
	case 0xcb: /* syncobjs */
		return TRACE_CALLS_EVENTS;
	case 0x56: /* DRM_AMDGPU_USERQ */
	case 0x02:
	case 0x03:
	case 0x07:
	case 0x1a:
	case 0x1b:
	case 0x1e: /* queues, their CU mask, wave state, GWS */
		return TRACE_CALLS_QUEUES;
	case 0x04:
	case 0x06:
	case 0x11:
	case 0x14 ... 0x19:
	case 0x1c:
	case 0x1d:
	case 0x20:
	case 0x21:
	case 0x23:
	case 0x24: /* memory, apertures, VM, dma-buf, SVM */
		return TRACE_CALLS_MEMORY;
	case 0x0d ... 0x10:
	case 0x13:
	case 0x25:
	case 0x26: /* debugger interfaces, trap handler, runtime enable */
		return TRACE_CALLS_DEBUG;
	default:
		return TRACE_CALLS_OTHER;
	}
}

unsigned trace_report_calls(const char *list)
{
	static const struct {
		const char *name;
		unsigned mask;
	} names[] = { { "events", TRACE_CALLS_EVENTS }, { "queues", TRACE_CALLS_QUEUES },
		      { "memory", TRACE_CALLS_MEMORY }, { "debug", TRACE_CALLS_DEBUG },
		      { "other", TRACE_CALLS_OTHER },	{ "all", TRACE_CALLS_ALL } };
	unsigned mask = 0;
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		unsigned m = 0;

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len && !strncmp(p, names[i].name, len))
				m = names[i].mask;
		if (!m)
			return 0;
		mask |= m;
		p += len;
		if (*p)
			p++;
	}
	return mask;
}

struct ev_stat {
	int32_t pid;
	uint32_t id;
	uint64_t waits, wakes, timeouts, signals;
	uint64_t *sleeps; /* ns, one per wait */
	size_t nsleeps, cap;
};

/* A WAIT_EVENTS begun and not returned, and the last state the watchdog
 * reported of it (have_state). */
struct flight {
	struct kfdsig_trace_rec begin;
	struct kfdsig_trace_inflight state;
	bool have_state;
	bool at_exit; /* its process exited (normally) with the call in flight */
};

struct trace_report {
	struct trace_report_opts o;
	uint64_t last_t; /* the previous line's time (TRACE_TIME_DELTA) */
	uint64_t calls[NR_MAX], errors[NR_MAX], ns[NR_MAX];
	struct ev_stat *evs;
	size_t nev, cap;
	unsigned found[KFDSIG_DET_COUNT + 1], sev[3];
	unsigned processes; /* START records */
	char **messages;    /* the findings, for the summary */
	size_t nmsg, capmsg;
	struct flight *fl;
	size_t nfl, capfl;
	bool lost;   /* a lost wait was found */
	int werr;    /* the first write error's errno */
	size_t have; /* bytes in buf not taken yet */
	union {
		struct kfdsig_trace_rec rec[256];
		char bytes[256 * sizeof(struct kfdsig_trace_rec)];
	} buf;
};

struct trace_report *trace_report_new(const struct trace_report_opts *o)
{
	struct trace_report *rep = calloc(1, sizeof(*rep));

	if (!rep)
		return NULL;
	rep->o = *o;
	if (!rep->o.calls)
		rep->o.calls = TRACE_CALLS_ALL;
	rep->last_t = o->t0_ns;
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
	free(rep->fl);
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

unsigned trace_report_severity(const struct trace_report *rep, int sev)
{
	return sev >= 0 && sev < 3 ? rep->sev[sev] : 0;
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

/* The call in flight of thread @tid of @pid, or NULL. */
static struct flight *flight_of(struct trace_report *rep, int32_t pid, int32_t tid)
{
	for (size_t i = 0; i < rep->nfl; i++)
		if (rep->fl[i].begin.pid == pid && rep->fl[i].begin.tid == tid)
			return &rep->fl[i];
	return NULL;
}

static int flight_add(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	struct flight *f = flight_of(rep, r->pid, r->tid);

	if (!f) {
		if (rep->nfl == rep->capfl) {
			size_t cap = rep->capfl ? 2 * rep->capfl : 8;
			struct flight *n = realloc(rep->fl, cap * sizeof(*n));
			if (!n)
				return -ENOMEM;
			rep->fl = n;
			rep->capfl = cap;
		}
		f = &rep->fl[rep->nfl++];
	}
	*f = (struct flight){ .begin = *r };
	return 0;
}

static void flight_end(struct trace_report *rep, struct flight *f)
{
	*f = rep->fl[--rep->nfl];
}

/* A 64-bit value as JSON: a string "0x...", in one of 8 buffers used in
 * turn (one printf takes at most 8). */
static const char *hex(uint64_t v)
{
	static char b[8][24];
	static unsigned i;

	i = (i + 1) % 8;
	snprintf(b[i], sizeof(b[i]), "\"0x%" PRIx64 "\"", v);
	return b[i];
}

static void seconds(char *s, size_t n, uint64_t ns)
{
	snprintf(s, n, "%.3f s", (double)ns / 1e9);
}

/* The sentence a finding prints. */
static void finding_text(const struct kfdsig_trace_finding *f, char *s, size_t n)
{
	char age[32];

	seconds(age, sizeof(age), f->wait_ns);
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
		if (f->cls == KFDSIG_CLASS_POLLED)
			snprintf(s, n,
				 "signal polled: auto-reset event %u was set by an interrupt "
				 "while nobody slept on it and no wait consumed it (the runtime "
				 "read the signal's value instead, as ROCr's interrupt signals do)",
				 f->event_id);
		else
			snprintf(s, n,
				 "signal without waiter: auto-reset event %u was set by SET_EVENT "
				 "while nobody waited and no wait consumed it",
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
	case KFDSIG_DET_LOST_WAIT:
		if (f->cls == KFDSIG_CLASS_OTHER_ID)
			snprintf(s, n,
				 "lost wait: tid %d has waited %s on event %u, whose slot in the "
				 "signal page is written (0x%" PRIx64 "), but the last interrupt "
				 "named id %u (%s path) instead",
				 f->waiter_tid, age, f->event_id, f->slot, f->irq_id,
				 NAME(irq_paths, f->irq_path));
		else
			snprintf(s, n,
				 "lost wait: tid %d has waited %s on event %u, whose slot in the "
				 "signal page is written (0x%" PRIx64 "), but no interrupt set it",
				 f->waiter_tid, age, f->event_id, f->slot);
		break;
	case KFDSIG_DET_LOST_FENCE: {
		char fence[64] = "";

		if (f->queue_id != UINT32_MAX)
			snprintf(fence, sizeof(fence), " (user queue %u, fence %" PRIu64 ")",
				 f->queue_id, f->slot);
		snprintf(s, n,
			 "lost fence: tid %d has waited %s on syncobj %u%s%s, whose fences' seq64 "
			 "slots have passed them, but no interrupt woke it%s",
			 f->waiter_tid, age, f->event_id, f->count > 1 ? " and others" : "", fence,
			 f->cls == KFDSIG_CLASS_PROBED ? " (the tracer's look signalled them and "
							 "ended the wait)"
						       : "");
		break;
	}
	case KFDSIG_DET_DEAD_WAIT:
		if (f->cls == KFDSIG_CLASS_DESTROYED)
			snprintf(s, n,
				 "dead wait: event %u was destroyed while tid %d waited on it "
				 "(for %s)",
				 f->event_id, f->waiter_tid, age);
		else
			snprintf(s, n,
				 "dead wait: tid %d has waited %s on event %u and the process has "
				 "no queue left: nothing on the GPU can signal it",
				 f->waiter_tid, age, f->event_id);
		break;
	default:
		snprintf(s, n, "unknown detector %u", f->detector);
	}
}

/* The ioctl's name; a number this kfdsig does not know is named by it. */
static const char *ioctl_name(unsigned nr, char *b, size_t n)
{
	if (nr < NR_MAX && ioctl_names[nr])
		return ioctl_names[nr];
	snprintf(b, n, "IOCTL_0x%02x", nr & 0xff);
	return b;
}

static void stamp(struct trace_report *rep, uint64_t t, char *s, size_t n)
{
	switch (rep->o.time) {
	case TRACE_TIME_WALL:
	case TRACE_TIME_WALL_US: {
		int64_t w = (int64_t)t + rep->o.wall_ns;
		time_t sec = (time_t)(w / 1000000000);
		struct tm tm;

		localtime_r(&sec, &tm);
		if (rep->o.time == TRACE_TIME_WALL)
			strftime(s, n, "%H:%M:%S", &tm);
		else
			snprintf(s, n, "%02d:%02d:%02d.%06ld", tm.tm_hour, tm.tm_min, tm.tm_sec,
				 (long)(w % 1000000000) / 1000);
		break;
	}
	case TRACE_TIME_DELTA:
		snprintf(s, n, "%.6f", t > rep->last_t ? (double)(t - rep->last_t) / 1e9 : 0.0);
		break;
	default:
		snprintf(s, n, "%.6f", t > rep->o.t0_ns ? (double)(t - rep->o.t0_ns) / 1e9 : 0.0);
	}
}

/* The start of a line: @t is when what it tells happened. */
static void head_at(struct trace_report *rep, const struct kfdsig_trace_rec *r, uint64_t t,
		    const char *type)
{
	double rel = t > rep->o.t0_ns ? (double)(t - rep->o.t0_ns) / 1e9 : 0.0;
	char ts[40];

	if (rep->o.json) {
		if (rep->o.json_seq)
			fputc(0x1e, rep->o.out);
		fprintf(rep->o.out, "{\"type\": \"%s\", \"t\": %.6f", type, rel);
		if (rep->o.time != TRACE_TIME_START) {
			stamp(rep, t, ts, sizeof(ts));
			fprintf(rep->o.out, ", \"%s\": \"%s\"",
				rep->o.time == TRACE_TIME_DELTA ? "dt" : "wall", ts);
		}
		fprintf(rep->o.out, ", \"pid\": %d, \"tid\": %d", r->pid, r->tid);
	} else {
		stamp(rep, t, ts, sizeof(ts));
		fprintf(rep->o.out, "[pid %d tid %d] %s ", r->pid, r->tid, ts);
	}
	rep->last_t = t;
}

static void head(struct trace_report *rep, const struct kfdsig_trace_rec *r, const char *type)
{
	head_at(rep, r, r->t_ns, type);
}

static void ret_text(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	if (rep->o.json) {
		fprintf(rep->o.out, ", \"ret\": %d, \"dur_us\": %.3f", r->ret,
			(double)r->dur_ns / 1e3);
		return;
	}
	if (r->ret)
		fprintf(rep->o.out, " = -1 %s (%s)", strerrorname_np(-r->ret) ?: "?",
			strerror(-r->ret));
	else
		fprintf(rep->o.out, " = 0");
	fprintf(rep->o.out, " <%.1fus>", (double)r->dur_ns / 1e3);
}

static void print_ioctl(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	const struct kfdsig_trace_ioctl *io = &r->u.io;
	char nb[16];
	const char *name = ioctl_name(r->nr, nb, sizeof(nb));
	FILE *o = rep->o.out;

	head_at(rep, r, r->t_ns + r->dur_ns, "ioctl"); /* stamped at its return */
	if (rep->o.json)
		fprintf(o, ", \"ioctl\": \"%s\", \"nr\": %u", name, r->nr);
	else
		fprintf(o, "%s", name);
	if (io->flags & KFDSIG_TRACE_IO_UNREAD) {
		fprintf(o, rep->o.json ? ", \"undecoded\": true" : " <argument not readable>");
		ret_text(rep, r);
		return;
	}
	switch (r->nr) {
	case 0x08: /* CREATE_EVENT */
		if (rep->o.json)
			fprintf(o,
				", \"event_type\": \"%s\", \"auto_reset\": %s, \"event_id\": %u, "
				"\"page\": \"%s\", \"page_offset\": %s, \"page_addr\": %s",
				NAME(event_types, io->event_type),
				io->auto_reset ? "true" : "false", io->event_id,
				NAME(page_kinds, io->page), hex(io->page_offset),
				hex(io->page_addr));
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
		fprintf(o, rep->o.json ? ", \"event_id\": %u" : " id=%u", io->event_id);
		break;
	case 0x02:
	case 0x03:
	case 0x07: /* CREATE/DESTROY/UPDATE_QUEUE */
		if (rep->o.json) {
			fprintf(o, ", \"queue_id\": %u", io->queue_id);
			if (r->nr != 0x03)
				fprintf(o,
					", \"ring_base\": %s, \"ring_size\": %s, \"percentage\": "
					"%u, \"priority\": %u",
					hex(io->ring_base), hex(io->ring_size), io->percentage,
					io->priority);
			if (r->nr == 0x02)
				fprintf(o,
					", \"gpu_id\": %u, \"queue_type\": %u, "
					"\"doorbell_offset\": %s",
					io->gpu_id, io->queue_type, hex(io->doorbell_offset));
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

static void timeout_text(FILE *o, uint32_t ms)
{
	if (ms == UINT32_MAX)
		fprintf(o, "timeout=inf");
	else
		fprintf(o, "timeout=%u", ms);
}

/* The ids (with ages; @out: the ages returned too) of a WAIT_EVENTS. */
static void ids_text(FILE *o, const struct kfdsig_trace_wait *w, bool out)
{
	uint32_t n = w->n_events < KFDSIG_TRACE_WAIT_IDS ? w->n_events : KFDSIG_TRACE_WAIT_IDS;

	fprintf(o, "ids=[");
	for (uint32_t i = 0; i < n; i++) {
		fprintf(o, "%s%u", i ? " " : "", w->ids[i]);
		if (out && (w->age_in[i] || w->age_out[i]))
			fprintf(o, " age %" PRIu64 "->%" PRIu64, w->age_in[i], w->age_out[i]);
		else if (!out && w->age_in[i])
			fprintf(o, " age %" PRIu64, w->age_in[i]);
		if (out && (w->slot_set >> i) & 1)
			fprintf(o, " slot=set");
		if (i + 1 < n)
			fprintf(o, ",");
	}
	if (w->n_events > n)
		fprintf(o, ", ... %u in all", w->n_events);
	fprintf(o, "]");
}

static void events_json(FILE *o, const struct kfdsig_trace_wait *w, bool out)
{
	uint32_t n = w->n_events < KFDSIG_TRACE_WAIT_IDS ? w->n_events : KFDSIG_TRACE_WAIT_IDS;

	fprintf(o, ", \"ioctl\": \"WAIT_EVENTS\", \"events\": [");
	for (uint32_t i = 0; i < n; i++) {
		fprintf(o, "%s{\"id\": %u, \"age_in\": %s", i ? ", " : "", w->ids[i],
			hex(w->age_in[i]));
		if (out) {
			fprintf(o, ", \"age_out\": %s, \"slot\": ", hex(w->age_out[i]));
			if ((w->slot_known >> i) & 1)
				fprintf(o, "\"%s\"", (w->slot_set >> i) & 1 ? "set" : "clear");
			else
				fprintf(o, "null");
		}
		fprintf(o, "}");
	}
	fprintf(o, "], \"n_events\": %u, \"wait_all\": %s, \"timeout_ms\": %u", w->n_events,
		w->wait_all ? "true" : "false", w->timeout_ms);
}

static void print_wait_begin(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	FILE *o = rep->o.out;

	head(rep, r, "wait_begin");
	if (rep->o.json) {
		events_json(o, &r->u.wait, false);
		fprintf(o, "}\n");
		return;
	}
	fprintf(o, "WAIT_EVENTS ");
	ids_text(o, &r->u.wait, false);
	fprintf(o, " all=%u ", r->u.wait.wait_all);
	timeout_text(o, r->u.wait.timeout_ms);
	fprintf(o, " <unfinished ...>\n");
}

static void print_wait(struct trace_report *rep, const struct kfdsig_trace_rec *r, bool resumed)
{
	const struct kfdsig_trace_wait *w = &r->u.wait;
	FILE *o = rep->o.out;

	/* stamped when it returned, as every call but a wait_begin */
	head_at(rep, r, r->t_ns + r->dur_ns, "wait");
	if (rep->o.json) {
		events_json(o, w, true);
		fprintf(o,
			", \"result\": \"%s\", \"ret\": %d, \"slept_us\": %.3f, \"resumed\": "
			"%s}\n",
			r->ret ? "ERROR" : NAME(results, w->wait_result), r->ret,
			(double)r->dur_ns / 1e3, resumed ? "true" : "false");
		return;
	}
	if (resumed) {
		fprintf(o, "<... WAIT_EVENTS resumed> ");
		ids_text(o, w, true);
	} else {
		fprintf(o, "WAIT_EVENTS ");
		ids_text(o, w, true);
		fprintf(o, " all=%u ", w->wait_all);
		timeout_text(o, w->timeout_ms);
	}
	if (r->ret)
		ret_text(rep, r);
	else
		fprintf(o, " = 0 %s <slept %.1fus>", NAME(results, w->wait_result),
			(double)r->dur_ns / 1e3);
	fprintf(o, "\n");
}

/* What is known of event @i of a call in flight. */
static void event_state_text(FILE *o, const struct kfdsig_trace_inflight *s, uint32_t i)
{
	fprintf(o, "event %u: ", s->ids[i]);
	if (!((s->slot_known >> i) & 1))
		fprintf(o, "slot not readable");
	else if ((s->slot_set >> i) & 1)
		fprintf(o, "slot written (0x%" PRIx64 ")", s->slot_val[i]);
	else
		fprintf(o, "slot clear");
	if (!s->emulated)
		fprintf(o, ", interrupts not visible (real GPU)");
	else if ((s->irq_named >> i) & 1)
		fprintf(o, ", an interrupt set it during the call");
	else
		fprintf(o, ", no interrupt set it during the call");
	if ((s->dead >> i) & 1)
		fprintf(o, ", destroyed");
}

static void last_irq_text(FILE *o, const struct kfdsig_trace_inflight *s)
{
	if (!s->emulated)
		return;
	if (!s->irq_seq)
		fprintf(o, "no interrupt taken");
	else if (s->irq_path == 3)
		fprintf(o, "the last interrupt (#%" PRIu64 ") named id %u: dropped (%s)",
			s->irq_seq, s->irq_id, NAME(irq_drops, s->irq_drop));
	else
		fprintf(o, "the last interrupt (#%" PRIu64 ") named id %u: %s path", s->irq_seq,
			s->irq_id, NAME(irq_paths, s->irq_path));
}

static void state_json(FILE *o, const struct kfdsig_trace_inflight *s)
{
	uint32_t n = s->n_events < KFDSIG_TRACE_WAIT_IDS ? s->n_events : KFDSIG_TRACE_WAIT_IDS;

	fprintf(o, ", \"kfd\": \"%s\", \"live_queues\": %u, \"state\": [",
		s->emulated ? "emulated" : "real", s->live_queues);
	for (uint32_t i = 0; i < n; i++) {
		fprintf(o, "%s{\"id\": %u, \"slot\": ", i ? ", " : "", s->ids[i]);
		if (!((s->slot_known >> i) & 1))
			fprintf(o, "null");
		else
			fprintf(o, "\"%s\", \"slot_value\": %s",
				(s->slot_set >> i) & 1 ? "written" : "clear", hex(s->slot_val[i]));
		if (s->emulated)
			fprintf(o, ", \"interrupt\": %s",
				(s->irq_named >> i) & 1 ? "true" : "false");
		fprintf(o, ", \"destroyed\": %s}", (s->dead >> i) & 1 ? "true" : "false");
	}
	fprintf(o, "]");
	if (s->emulated && s->irq_seq)
		fprintf(o,
			", \"last_irq\": {\"irq\": %" PRIu64 ", \"id\": %u, \"path\": \"%s\", "
			"\"drop\": \"%s\"}",
			s->irq_seq, s->irq_id, NAME(irq_paths, s->irq_path),
			NAME(irq_drops, s->irq_drop));
}

static void print_inflight(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	const struct kfdsig_trace_inflight *s = &r->u.inflight;
	uint32_t n = s->n_events < KFDSIG_TRACE_WAIT_IDS ? s->n_events : KFDSIG_TRACE_WAIT_IDS;
	FILE *o = rep->o.out;

	head(rep, r, "in_flight");
	if (rep->o.json) {
		fprintf(o, ", \"ioctl\": \"WAIT_EVENTS\", \"age_s\": %.6f",
			(double)(r->t_ns - s->begin_ns) / 1e9);
		state_json(o, s);
		fprintf(o, "}\n");
		return;
	}
	fprintf(o, "WAIT_EVENTS in flight for %.3f s:", (double)(r->t_ns - s->begin_ns) / 1e9);
	for (uint32_t i = 0; i < n; i++) {
		fprintf(o, " ");
		event_state_text(o, s, i);
		fprintf(o, ";");
	}
	if (s->emulated) {
		fprintf(o, " ");
		last_irq_text(o, s);
	}
	fprintf(o, "\n");
}

/* The handles of a render-node call (the first 8 of n), "[1,2]" or
 * "[1, 2]" in JSON; with @points, "1:5" (TIMELINE_WAIT, QUERY). */
static void handles_text(FILE *o, const struct kfdsig_trace_drm *d, bool points, bool json)
{
	uint32_t k =
		d->n_handles < KFDSIG_TRACE_DRM_HANDLES ? d->n_handles : KFDSIG_TRACE_DRM_HANDLES;

	fputc('[', o);
	for (uint32_t i = 0; i < k; i++) {
		fprintf(o, "%s%u", i ? (json ? ", " : ",") : "", d->handles[i]);
		if (points && !json)
			fprintf(o, ":%" PRIu64, d->points[i]);
	}
	if (d->n_handles > k && !json)
		fprintf(o, ",...");
	fputc(']', o);
}

static void print_drm(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	const struct kfdsig_trace_drm *d = &r->u.drm;
	char nb[16];
	const char *name = ioctl_name(r->nr, nb, sizeof(nb));
	bool json = rep->o.json;
	double tmo = d->timeout_ns > (int64_t)r->t_ns
			     ? (double)((uint64_t)d->timeout_ns - r->t_ns) / 1e9
			     : 0.0;
	FILE *o = rep->o.out;

	head_at(rep, r, r->t_ns + r->dur_ns, "ioctl");
	if (json)
		fprintf(o, ", \"ioctl\": \"%s\", \"nr\": %u, \"device\": \"render\"", name, r->nr);
	else
		fprintf(o, "%s", name);
	if (d->io_flags & KFDSIG_TRACE_IO_UNREAD) {
		fprintf(o, json ? ", \"undecoded\": true" : " <argument not readable>");
		ret_text(rep, r);
		return;
	}
	switch (r->nr) {
	case 0x56: /* DRM_AMDGPU_USERQ */
		if (d->op == 1 && json)
			fprintf(o,
				", \"op\": \"create\", \"ip_type\": %u, \"doorbell\": %u, "
				"\"ring_va\": %s, \"ring_size\": %s, \"wptr_va\": %s, "
				"\"queue_id\": "
				"%u",
				d->ip_type, d->doorbell_offset, hex(d->ring_va), hex(d->ring_size),
				hex(d->wptr_va), d->queue_id);
		else if (d->op == 1)
			fprintf(o,
				" create ip=%s doorbell=%u ring=0x%" PRIx64 "+%" PRIu64
				" wptr=0x%" PRIx64 " -> queue=%u",
				d->ip_type == 0	  ? "gfx"
				: d->ip_type == 1 ? "compute"
				: d->ip_type == 2 ? "sdma"
						  : "?",
				d->doorbell_offset, d->ring_va, d->ring_size, d->wptr_va,
				d->queue_id);
		else
			fprintf(o, json ? ", \"op\": \"%s\", \"queue_id\": %u" : " %s queue=%u",
				d->op == 2 ? "free" : "?", d->queue_id);
		break;
	case 0x57: /* USERQ_SIGNAL */
		fprintf(o, json ? ", \"queue_id\": %u, \"syncobjs\": " : " queue=%u syncobjs=",
			d->queue_id);
		handles_text(o, d, false, json);
		fprintf(o, json ? ", \"fence\": %" PRIu64 : " fence=%" PRIu64, d->seq);
		break;
	case 0x58: /* USERQ_WAIT */
		fprintf(o, json ? ", \"queue_id\": %u, \"syncobjs\": " : " queue=%u syncobjs=",
			d->queue_id);
		handles_text(o, d, false, json);
		fprintf(o, json ? ", \"fences\": [" : " -> fences=[");
		for (uint32_t i = 0; i < d->n_fences && i < KFDSIG_TRACE_DRM_FENCES; i++)
			if (json)
				fprintf(o, "%s{\"va\": %s, \"value\": %" PRIu64 "}", i ? ", " : "",
					hex(d->fence_va[i]), d->fence_value[i]);
			else
				fprintf(o, "%s0x%" PRIx64 ":%" PRIu64, i ? "," : "", d->fence_va[i],
					d->fence_value[i]);
		fputc(']', o);
		break;
	case 0xbf: /* SYNCOBJ_CREATE */
		fprintf(o, json ? ", \"flags\": %u, \"handle\": %u" : " flags=0x%x -> handle=%u",
			d->flags, d->handles[0]);
		break;
	case 0xc0: /* SYNCOBJ_DESTROY */
		fprintf(o, json ? ", \"handle\": %u" : " handle=%u", d->handles[0]);
		break;
	case 0xc3: /* SYNCOBJ_WAIT */
	case 0xca: /* SYNCOBJ_TIMELINE_WAIT */
		fprintf(o, json ? ", \"syncobjs\": " : " handles=");
		handles_text(o, d, r->nr == 0xca, json);
		if (json && r->nr == 0xca) {
			fprintf(o, ", \"points\": [");
			for (uint32_t i = 0; i < d->n_handles && i < KFDSIG_TRACE_DRM_HANDLES; i++)
				fprintf(o, "%s%" PRIu64, i ? ", " : "", d->points[i]);
			fputc(']', o);
		}
		fprintf(o,
			json ? ", \"flags\": %u, \"timeout_s\": %.6f, \"first_signaled\": %u"
			     : " flags=0x%x timeout=%.3fs -> first=%u",
			d->flags, tmo, d->first_signaled);
		break;
	case 0xcb: /* SYNCOBJ_QUERY */
		fprintf(o, json ? ", \"syncobjs\": " : " -> ");
		handles_text(o, d, !json, json);
		if (json) {
			fprintf(o, ", \"points\": [");
			for (uint32_t i = 0; i < d->n_handles && i < KFDSIG_TRACE_DRM_HANDLES; i++)
				fprintf(o, "%s%" PRIu64, i ? ", " : "", d->points[i]);
			fputc(']', o);
		}
		break;
	default:
		break;
	}
	ret_text(rep, r);
}

static void print_finding(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	const struct kfdsig_trace_finding *f = &r->u.find;
	FILE *o = rep->o.out;
	char msg[400];

	finding_text(f, msg, sizeof(msg));
	head(rep, r, "finding");
	if (!rep->o.json) {
		fprintf(o, "!! %s: %s\n", severities[severity(f)], msg);
		return;
	}
	fprintf(o, ", \"detector\": \"%s\", \"severity\": \"%s\"", NAME(detectors, f->detector),
		severities[severity(f)]);
	if (f->cls && NAME(classes, f->cls)[0] != '?')
		fprintf(o, ", \"class\": \"%s\"", NAME(classes, f->cls));
	if (f->detector == KFDSIG_DET_LOST_FENCE) {
		fprintf(o, ", \"syncobj\": %u, \"syncobjs\": %" PRIu64, f->event_id, f->count);
		if (f->queue_id != UINT32_MAX)
			fprintf(o, ", \"queue_id\": %u, \"fence\": %" PRIu64, f->queue_id, f->slot);
	} else if (f->event_id != UINT32_MAX)
		fprintf(o, ", \"event_id\": %u", f->event_id);
	if (f->detector == KFDSIG_DET_STORM)
		fprintf(o, ", \"stale_age\": %s, \"real_age\": %s, \"count\": %" PRIu64,
			hex(f->stale_age), hex(f->real_age), f->count);
	if (f->detector == KFDSIG_DET_QUEUE_ERROR) {
		fprintf(o, ", \"gpu_id\": %u, \"va\": %s", f->gpu_id, hex(f->va));
		if (f->queue_id != UINT32_MAX)
			fprintf(o, ", \"queue_id\": %u", f->queue_id);
	}
	if (f->detector == KFDSIG_DET_LOST_WAIT || f->detector == KFDSIG_DET_DEAD_WAIT ||
	    f->detector == KFDSIG_DET_LOST_FENCE)
		fprintf(o, ", \"waiter_tid\": %d, \"wait_s\": %.6f", f->waiter_tid,
			(double)f->wait_ns / 1e9);
	if (f->detector == KFDSIG_DET_LOST_WAIT)
		fprintf(o, ", \"slot_value\": %s", hex(f->slot));
	if (f->cls == KFDSIG_CLASS_OTHER_ID)
		fprintf(o, ", \"irq_id\": %u, \"irq_path\": \"%s\"", f->irq_id,
			NAME(irq_paths, f->irq_path));
	fprintf(o, ", \"message\": \"%s\"}\n", msg);
}

static void print_other(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	FILE *o = rep->o.out;
	bool json = rep->o.json;

	switch (r->kind) {
	case KFDSIG_TR_START:
		head(rep, r, "start");
		fprintf(o, json ? ", \"comm\": \"" : "start comm=");
		for (const char *c = r->u.start.comm; *c && c < r->u.start.comm + 63; c++)
			fprintf(o,
				json && (*c == '"' || *c == '\\') ? "\\%c"
				: (unsigned char)*c < 0x20	  ? "?"
								  : "%c",
				*c);
		fprintf(o, json ? "\", \"ppid\": %d, \"kfd\": \"%s\"}\n" : " ppid=%d kfd=%s\n",
			r->u.start.ppid, r->u.start.emulated ? "emulated" : "real");
		break;
	case KFDSIG_TR_EXIT:
		head(rep, r, "exit");
		fprintf(o, json ? "}\n" : "exit\n");
		break;
	case KFDSIG_TR_MAP: {
		const struct kfdsig_trace_map *m = &r->u.map;
		head(rep, r, "mmap");
		if (json)
			fprintf(o,
				", \"offset\": %s, \"addr\": %s, \"len\": %s, \"signal_page\": "
				"%s}\n",
				hex(m->offset), hex(m->addr), hex(m->len),
				m->page ? "true" : "false");
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
						k ? (json ? ", " : ",") : "", q->events[k]);
		head(rep, r, "irq");
		if (json)
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
	default:
		break;
	}
}

static int keep_message(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	char msg[400], *m;
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
	len = asprintf(&m, "pid %d: %s: %s", r->pid, severities[severity(&r->u.find)], msg);
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
	case KFDSIG_TR_DRM:
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
		rep->sev[severity(&r->u.find)]++;
		if (r->u.find.detector == KFDSIG_DET_LOST_WAIT ||
		    r->u.find.detector == KFDSIG_DET_LOST_FENCE)
			rep->lost = true;
		return keep_message(rep, r);
	default:
		break;
	}
	return 0;
}

/* Is record @r printed under -e/--calls? */
static bool shown(const struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	switch (r->kind) {
	case KFDSIG_TR_IOCTL:
	case KFDSIG_TR_DRM:
		return rep->o.calls & call_class(r->nr);
	case KFDSIG_TR_WAIT:
	case KFDSIG_TR_WAIT_BEGIN:
	case KFDSIG_TR_INFLIGHT:
	case KFDSIG_TR_IRQ:
		return rep->o.calls & TRACE_CALLS_EVENTS;
	case KFDSIG_TR_MAP:
		return rep->o.calls & TRACE_CALLS_MEMORY;
	default:
		return true; /* processes and findings */
	}
}

int trace_report_record(struct trace_report *rep, const struct kfdsig_trace_rec *r)
{
	bool show;
	int ret;

	if (r->magic != KFDSIG_TRACE_MAGIC)
		return -EINVAL;
	show = (!rep->o.summary_only || r->kind == KFDSIG_TR_FINDING) && shown(rep, r);
	switch (r->kind) {
	case KFDSIG_TR_WAIT_BEGIN:
		ret = flight_add(rep, r);
		if (ret)
			return ret;
		if (show)
			print_wait_begin(rep, r);
		return 0;
	case KFDSIG_TR_INFLIGHT: {
		struct flight *f = flight_of(rep, r->pid, r->tid);
		if (f) {
			f->state = r->u.inflight;
			f->have_state = true;
		}
		if (show)
			print_inflight(rep, r);
		return 0;
	}
	case KFDSIG_TR_WAIT: {
		struct flight *f = flight_of(rep, r->pid, r->tid);
		if (show)
			print_wait(rep, r, f != NULL);
		if (f)
			flight_end(rep, f);
		break;
	}
	case KFDSIG_TR_IOCTL:
		if (show) {
			print_ioctl(rep, r);
			fprintf(rep->o.out, rep->o.json ? "}\n" : "\n");
		}
		break;
	case KFDSIG_TR_DRM:
		if (show) {
			print_drm(rep, r);
			fprintf(rep->o.out, rep->o.json ? "}\n" : "\n");
		}
		break;
	case KFDSIG_TR_FINDING:
		if (show)
			print_finding(rep, r);
		break;
	case KFDSIG_TR_EXIT:
		for (size_t i = 0; i < rep->nfl; i++)
			if (rep->fl[i].begin.pid == r->pid)
				rep->fl[i].at_exit = true;
		/* fall through */
	default:
		if (show)
			print_other(rep, r);
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
	/* what came is readable now (tail -f of -o FILE) */
	errno = 0;
	if (fflush(rep->o.out) && !rep->werr)
		rep->werr = errno ? errno : EIO;
	return 0;
}

int trace_report_write_error(const struct trace_report *rep)
{
	return rep->werr;
}

int trace_report_drain(struct trace_report *rep, int fd, pid_t child, int *status,
		       volatile int *stop, bool stop_on_lost)
{
	bool exited = false;
	int r;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n;

		if (stop && *stop && !exited)
			return 1;
		if (stop_on_lost && rep->lost && !exited)
			return 2;
		n = poll(&p, 1, exited ? 0 : 100);
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

void trace_report_in_flight(struct trace_report *rep)
{
	FILE *o = rep->o.out;
	struct timespec ts;
	uint64_t now;

	if (!rep->nfl)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!rep->o.json)
		fprintf(o, "\ncalls in flight: %zu\n", rep->nfl);
	for (size_t k = 0; k < rep->nfl; k++) {
		const struct flight *f = &rep->fl[k];
		const struct kfdsig_trace_wait *w = &f->begin.u.wait;
		uint64_t age = now > f->begin.t_ns ? now - f->begin.t_ns : 0;
		uint32_t n = f->state.n_events < KFDSIG_TRACE_WAIT_IDS ? f->state.n_events
								       : KFDSIG_TRACE_WAIT_IDS;

		if (rep->o.json) {
			if (rep->o.json_seq)
				fputc(0x1e, o);
			fprintf(o,
				"{\"type\": \"in_flight_at_end\", \"t\": %.6f, \"pid\": %d, "
				"\"tid\": %d, \"age_s\": %.6f",
				(double)(f->begin.t_ns - rep->o.t0_ns) / 1e9, f->begin.pid,
				f->begin.tid, (double)age / 1e9);
			events_json(o, w, false);
			fprintf(o, ", \"at_exit\": %s", f->at_exit ? "true" : "false");
			if (f->have_state)
				state_json(o, &f->state);
			fprintf(o, "}\n");
			continue;
		}
		fprintf(o, "  [pid %d tid %d] WAIT_EVENTS ", f->begin.pid, f->begin.tid);
		ids_text(o, w, false);
		fprintf(o, " all=%u ", w->wait_all);
		timeout_text(o, w->timeout_ms);
		fprintf(o, ": in flight for %.3f s\n", (double)age / 1e9);
		if (!f->have_state) {
			fprintf(o, "    nothing more known: the call was younger than half the "
				   "bound when last looked at\n");
			if (f->at_exit)
				fprintf(o, "    in flight when its process exited\n");
			continue;
		}
		for (uint32_t i = 0; i < n; i++) {
			fprintf(o, "    ");
			event_state_text(o, &f->state, i);
			fprintf(o, "\n");
		}
		if (f->state.emulated) {
			fprintf(o, "    ");
			last_irq_text(o, &f->state);
			fprintf(o, "\n");
		}
		/* ROCr's async events thread (Runtime::AsyncEventsLoop()) sleeps
		 * in WAIT_EVENTS until a signal it watches changes, and is still
		 * there when the process exits */
		if (f->at_exit && !f->state.slot_set)
			fprintf(o, "    idle when its process exited, nothing written: an event "
				   "loop's wait (as ROCr's async events thread), no finding\n");
	}
	fflush(o);
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

void trace_report_summary(struct trace_report *rep, int wstatus)
{
	FILE *o = rep->o.out;
	bool first = true;
	int status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	const char *sig = WIFSIGNALED(wstatus) ? sigabbrev_np(WTERMSIG(wstatus)) : NULL;
	char nb[16];

	for (size_t i = 0; i < rep->nev; i++)
		if (rep->evs[i].nsleeps)
			qsort(rep->evs[i].sleeps, rep->evs[i].nsleeps, sizeof(uint64_t), cmp_u64);
	if (rep->o.json) {
		if (rep->o.json_seq)
			fputc(0x1e, o);
		fprintf(o, "{\"type\": \"summary\", \"ioctls\": [");
		for (int nr = 0; nr < NR_MAX; nr++) {
			if (!rep->calls[nr])
				continue;
			fprintf(o,
				"%s{\"ioctl\": \"%s\", \"nr\": %d, \"calls\": %" PRIu64
				", \"errors\": %" PRIu64 ", \"total_us\": %.3f}",
				first ? "" : ", ", ioctl_name((unsigned)nr, nb, sizeof(nb)), nr,
				rep->calls[nr], rep->errors[nr], (double)rep->ns[nr] / 1e3);
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
		fprintf(o,
			"}, \"severity\": {\"error\": %u, \"warning\": %u, \"info\": %u}, "
			"\"in_flight\": %zu, \"processes\": %u, \"exit_status\": %d",
			rep->sev[SEV_ERROR], rep->sev[SEV_WARNING], rep->sev[SEV_INFO], rep->nfl,
			rep->processes, status);
		if (sig)
			fprintf(o, ", \"signal\": \"SIG%s\"", sig);
		fprintf(o, "}\n");
		errno = 0;
		if (fflush(o) && !rep->werr)
			rep->werr = errno ? errno : EIO;
		return;
	}
	fprintf(o, "\n%8s %8s %12s %10s  %s\n", "calls", "errors", "total(us)", "avg(us)", "ioctl");
	for (int nr = 0; nr < NR_MAX; nr++)
		if (rep->calls[nr])
			fprintf(o, "%8" PRIu64 " %8" PRIu64 " %12.1f %10.1f  %s\n", rep->calls[nr],
				rep->errors[nr], (double)rep->ns[nr] / 1e3,
				(double)rep->ns[nr] / 1e3 / (double)rep->calls[nr],
				ioctl_name((unsigned)nr, nb, sizeof(nb)));
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
	fprintf(o, "\nfindings: %u", trace_report_findings(rep, 0));
	if (trace_report_findings(rep, 0))
		fprintf(o, " (%u error, %u warning, %u info)", rep->sev[SEV_ERROR],
			rep->sev[SEV_WARNING], rep->sev[SEV_INFO]);
	fprintf(o, "\n");
	for (size_t i = 0; i < rep->nmsg; i++)
		fprintf(o, "  %s\n", rep->messages[i]);
	if (sig)
		fprintf(o, "killed by SIG%s%s (exit status %d)\n", sig,
			WCOREDUMP(wstatus) ? ", core dumped" : "", status);
	else
		fprintf(o, "exit status: %d\n", status);
	errno = 0;
	if (fflush(o) && !rep->werr)
		rep->werr = errno ? errno : EIO;
}
