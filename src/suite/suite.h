/* SPDX-License-Identifier: MIT */
/*
 * The interrupt-path suite behind `kfdsig test`, as the CLI calls it: the
 * devices to run on, the cases, the runner. The bench harness is bench.h;
 * what cases are written with is case.h.
 *
 * The suite prints its results on the FILE it is given; it never exits.
 * Errors come back as a status and a message for the caller to print.
 */
#ifndef KFDSIG_SUITE_SUITE_H
#define KFDSIG_SUITE_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <kfdsig/kfd.h>

enum suite_engine {
	SUITE_ENGINE_NONE = -1, /* the case does not use an engine */
	SUITE_ENGINE_PM4 = 0,	/* RELEASE_MEM on a compute queue */
	SUITE_ENGINE_SDMA,	/* FENCE + TRAP on an SDMA queue */
	SUITE_ENGINE_SHADER,	/* s_sendmsg(MSG_INTERRUPT) from a dispatched wave */
	SUITE_ENGINE_AQL,	/* barrier-AND with an interrupt signal on an AQL queue */
	SUITE_ENGINE_COUNT
};
#define SUITE_ENGINE_BIT(e) (1u << (e))
#define SUITE_ENGINES_ALL 0xfu

const char *suite_engine_name(int engine); /* "pm4", "sdma", "shader", "aql", NULL */
/* Parse "pm4,sdma" into a SUITE_ENGINE_BIT set. Return false on a bad name
 * (*bad points at it). */
bool suite_parse_engines(const char *list, unsigned *mask, const char **bad, size_t *badlen);

/* fnmatch()-style glob ('*', '?', '[...]'); a list of globs separated by
 * commas matches when any does. */
bool suite_glob_match(const char *globs, const char *name);

/* ---- devices (devices.c) -------------------------------------------------- */

#define SUITE_MAX_DEVICES 64

/* One device the suite runs on. */
struct suite_device {
	const struct kfdsig_kfd_ops *ops; /* opens a fresh KFD process per case */
	struct kfdsig_emu *emu;		  /* NULL on hardware */
	uint32_t gpu_id;
	const struct kfdsig_target *target; /* NULL: not in the generation table */
	char label[32];			    /* "gfx90a" */
	uint32_t kfd_major, kfd_minor;
	/* The kernel behaviour where kernels differ (kfd_events.c
	 * kfd_signal_event_interrupt() / lookup_signaled_event_by_partial_id()):
	 * known under the emulator, guessed from uname -r on hardware. */
	bool drops_wrong_id;
	const char *profile; /* "default", "v6.14", "v7.1", "v7.3", or "linux X.Y" */
};

struct suite_dev_opts {
	const char *emulate;	 /* --emulate SPEC (NULL: KFDSIG_EMULATE, then hardware) */
	int device;		 /* --device N, -1: all */
	uint32_t gpu_id;	 /* --gpu GPU_ID, 0: any */
	const char *kfd_version; /* --kfd-version X.Y (emulator only) */
	const char *profile;	 /* --kernel-profile NAME (emulator only) */
	const char *prog;	 /* "kfdsig test": names the notes on stderr */
};

/* Why suite_devices_open() failed. */
enum suite_dev_status {
	SUITE_DEV_OK = 0,
	SUITE_DEV_USAGE,  /* bad options or spec: the message in why */
	SUITE_DEV_FAILED, /* nothing to run on: the message in why */
	SUITE_DEV_NO_KFD, /* the real KFD did not open: kfdsig_last_error() says why */
};

struct suite_devset {
	struct suite_device dev[SUITE_MAX_DEVICES];
	size_t n;
	char release[96]; /* "linux 6.8.0-..." on hardware */
	char why[1024];	  /* the reason of a failed open */
};

/* Open every GPU of the real KFD, or one emulated KFD per target of the
 * spec. Return SUITE_DEV_OK, or the status with nothing left open. */
enum suite_dev_status suite_devices_open(struct suite_devset *s, const struct suite_dev_opts *o);
void suite_devices_close(struct suite_devset *s);

/* ---- cases and the runner (registry.c, runner.c) -------------------------- */

struct suite_case;

/* Every registered case, in order; the array lives for the program. */
const struct suite_case *const *suite_cases(size_t *n);
/* "events.max", "gpu.signal.pm4" */
const char *suite_case_name(const struct suite_case *cs);

enum suite_output { SUITE_OUT_TEXT, SUITE_OUT_JSON, SUITE_OUT_TAP, SUITE_OUT_KTAP };

struct suite_opts {
	const char *globs; /* NULL: every case */
	unsigned engines;  /* SUITE_ENGINE_BIT set */
	bool json;	   /* the same as output == SUITE_OUT_JSON (for --list) */
	enum suite_output output;
	bool times;	  /* per-case durations in the rows, JSON and TAP */
	uint32_t wait_ms; /* bound on each wait a case makes for an expected
			   * event (0: each case's own, 1 to 5 s) */
	FILE *junit;	  /* also write a JUnit XML report there (NULL: none) */
	bool progress;	  /* redraw a progress line on @progress_out */
	FILE *progress_out;
};

struct suite_counts {
	unsigned passed, failed, skipped;
};

/* The cases @o selects out of @cases (by glob and engine). */
size_t suite_select(const struct suite_case *const *cases, size_t n, const struct suite_opts *o,
		    const struct suite_case **out, size_t max);

/* Run @cases on every device, print rows (text or JSON) and the summary on
 * @out, count into @cnt. Return 0 when nothing failed, else 1. */
int suite_run(const struct suite_case *const *cases, size_t ncases, const struct suite_device *devs,
	      size_t ndev, const struct suite_opts *o, FILE *out, struct suite_counts *cnt);

/* Print the list of cases (text or JSON). */
void suite_list(const struct suite_case *const *cases, size_t n, bool json, FILE *out);

#endif
