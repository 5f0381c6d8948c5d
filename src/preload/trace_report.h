/* SPDX-License-Identifier: MIT */
/*
 * The reader's side of `kfdsig trace` (src/proto/trace.h): it takes the
 * records the recorders of the traced processes write, prints each (text
 * or JSON Lines) and keeps the counts of the summary printed at the end.
 * A static library of the CLI; the interposer does not carry it.
 */
#ifndef KFDSIG_PRELOAD_TRACE_REPORT_H
#define KFDSIG_PRELOAD_TRACE_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "proto/trace.h"

struct trace_report;

/* What each line is stamped with. */
enum trace_time {
	TRACE_TIME_START = 0, /* seconds since the trace started */
	TRACE_TIME_WALL,      /* the wall clock, HH:MM:SS */
	TRACE_TIME_WALL_US,   /* the wall clock, HH:MM:SS.uuuuuu */
	TRACE_TIME_DELTA,     /* seconds since the previous line */
};

/* The classes of calls -e/--calls selects (the summary counts them all). */
enum {
	TRACE_CALLS_EVENTS = 1u << 0, /* event ioctls, interrupts, calls in flight */
	TRACE_CALLS_QUEUES = 1u << 1,
	TRACE_CALLS_MEMORY = 1u << 2, /* memory ioctls and mappings */
	TRACE_CALLS_DEBUG = 1u << 3,
	TRACE_CALLS_OTHER = 1u << 4, /* the rest, unknown numbers included */
	TRACE_CALLS_ALL = 0x1f,
};

struct trace_report_opts {
	FILE *out;
	bool json, json_seq; /* JSON Lines; with json_seq an RS byte before each record */
	bool summary_only;   /* the findings and the summary only */
	enum trace_time time;
	unsigned calls;	 /* TRACE_CALLS_* (0: all) */
	uint64_t t0_ns;	 /* CLOCK_MONOTONIC when the trace started */
	int64_t wall_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC */
};

/* NULL + errno. */
struct trace_report *trace_report_new(const struct trace_report_opts *o);
void trace_report_free(struct trace_report *rep);

/* Parse an -e/--calls list ("events,queues", "all"): the mask, or 0. */
unsigned trace_report_calls(const char *list);

/* Take one record. Return: 0, -EINVAL (not a record), -ENOMEM. */
int trace_report_record(struct trace_report *rep, const struct kfdsig_trace_rec *r);

/* Read records from @fd until every writer has closed it or, once @child
 * has exited (its wait status in *status), until nothing more is ready;
 * or until *@stop is set (then 1, the child still running) or, with
 * @stop_on_lost, a lost wait is found (2). Return: 0, 1, 2 or -errno. */
int trace_report_drain(struct trace_report *rep, int fd, pid_t child, int *status,
		       volatile int *stop, bool stop_on_lost);

/* The closing block: every call still in flight, its age and what is
 * known of each event it waits on. */
void trace_report_in_flight(struct trace_report *rep);

/* The summary: per ioctl calls, errors and time; per event waits, wakes,
 * timeouts, signals and sleep percentiles; the findings. @wstatus: the
 * program's wait status. */
void trace_report_summary(struct trace_report *rep, int wstatus);

/* Findings of detector @det so far (0: of all). */
unsigned trace_report_findings(const struct trace_report *rep, enum kfdsig_trace_detector det);

/* The errno of the first failed write of the output (0: none). */
int trace_report_write_error(const struct trace_report *rep);

/* Findings of severity @sev (0 info, 1 warning, 2 error) so far. */
unsigned trace_report_severity(const struct trace_report *rep, int sev);

#endif
