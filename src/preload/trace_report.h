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

/* Records are printed to @out (with @summary_only the findings only), JSON Lines when
 * @json; times are relative to @t0_ns (CLOCK_MONOTONIC). NULL + errno. */
struct trace_report *trace_report_new(FILE *out, bool json, bool summary_only, uint64_t t0_ns);
void trace_report_free(struct trace_report *rep);

/* Take one record. Return: 0, -EINVAL (not a record), -ENOMEM. */
int trace_report_record(struct trace_report *rep, const struct kfdsig_trace_rec *r);

/* Read records from @fd until every writer has closed it or, once @child
 * has exited (its wait status in *status), until nothing more is ready.
 * Return: 0 or -errno. */
int trace_report_drain(struct trace_report *rep, int fd, pid_t child, int *status);

/* The summary: per ioctl calls, errors and time; per event waits, wakes,
 * timeouts, signals and sleep percentiles; the findings. @status: the
 * program's exit status. */
void trace_report_summary(struct trace_report *rep, int status);

/* Findings of detector @det so far (0: of all). */
unsigned trace_report_findings(const struct trace_report *rep, enum kfdsig_trace_detector det);

#endif
