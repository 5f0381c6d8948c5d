/* SPDX-License-Identifier: MIT */
/*
 * The protocol between the in-process recorder of libkfdsig-preload.so
 * (src/preload/trace.c, trace_detect.c) and `kfdsig trace` (tools/cmd_trace.c,
 * which formats and sums up the records with src/preload/trace_report.c):
 * both sides include this header and nothing of each other.
 *
 * `kfdsig trace` starts the program with KFDSIG_TRACE_FD naming the write
 * end of a pipe. Every process of the program that loads the interposer
 * (children by fork and exec too) writes fixed-size binary records to it,
 * one write(2) each: a record is smaller than PIPE_BUF, so records of
 * concurrent processes and threads never interleave. The reader gets EOF
 * when the last of them has exited.
 *
 * Times are CLOCK_MONOTONIC nanoseconds, the same clock in every process.
 */
#ifndef KFDSIG_PROTO_TRACE_H
#define KFDSIG_PROTO_TRACE_H

#include <stdint.h>

#define KFDSIG_TRACE_FD_ENV "KFDSIG_TRACE_FD"
/* Test hook: the path of the interposer copy that traces over the real
 * backend (kfdsig_kfd_linux_ops()) while a later copy in LD_PRELOAD
 * emulates the KFD below it; every other copy in the process only
 * emulates. */
#define KFDSIG_TRACE_STACK_ENV "KFDSIG_TRACE_STACK"

#define KFDSIG_TRACE_MAGIC 0x4b545231u /* "KTR1" */
/* Event ids and ages carried per WAIT_EVENTS record; n_events says how
 * many the call had. */
#define KFDSIG_TRACE_WAIT_IDS 8

enum kfdsig_trace_kind {
	KFDSIG_TR_START = 1, /* a process loaded the recorder */
	KFDSIG_TR_IOCTL,     /* a KFD ioctl other than WAIT_EVENTS */
	KFDSIG_TR_WAIT,	     /* WAIT_EVENTS */
	KFDSIG_TR_MAP,	     /* an mmap of a KFD or render fd */
	KFDSIG_TR_IRQ,	     /* an interrupt the emulated KFD took */
	KFDSIG_TR_FINDING,   /* a detector fired */
	KFDSIG_TR_EXIT,	     /* a process that used the KFD exits */
};

enum kfdsig_trace_detector {
	KFDSIG_DET_STORM = 1,	  /* instant-return storm on a stale age */
	KFDSIG_DET_SLEPT_THROUGH, /* timed out with the slot signalled */
	KFDSIG_DET_NO_WAITER,	  /* auto-reset event signalled, nobody waited */
	KFDSIG_DET_NEVER_RESET,	  /* manual-reset event left signalled */
	KFDSIG_DET_QUEUE_ERROR,	  /* a queue's exception event fired */
	KFDSIG_DET_COUNT = KFDSIG_DET_QUEUE_ERROR,
};

/* The signal page as the records name it (KFDSIG_TR_IOCTL of CREATE_EVENT
 * and KFDSIG_TR_MAP). */
enum kfdsig_trace_page {
	KFDSIG_PAGE_NONE = 0,
	KFDSIG_PAGE_KERNEL, /* allocated by the KFD, mapped through /dev/kfd */
	KFDSIG_PAGE_USER,   /* the client's buffer, by its memory handle */
};

struct kfdsig_trace_ioctl {
	/* event ioctls */
	uint32_t event_id, event_type, auto_reset, page; /* page: enum kfdsig_trace_page */
	uint64_t page_offset; /* CREATE_EVENT: the handle in or the mmap offset out */
	uint64_t page_addr;   /* CREATE_EVENT: where this process maps the page (0: not yet) */
	/* queue ioctls */
	uint32_t queue_id, gpu_id, queue_type, percentage, priority, pad;
	uint64_t ring_base, ring_size, doorbell_offset;
};

struct kfdsig_trace_wait {
	uint32_t n_events, wait_all, timeout_ms, wait_result;
	/* Bit i: event i's slot in the signal page read signalled after a
	 * call that timed out (slot_known: it could be read). */
	uint32_t slot_set, slot_known;
	uint32_t ids[KFDSIG_TRACE_WAIT_IDS];
	uint64_t age_in[KFDSIG_TRACE_WAIT_IDS], age_out[KFDSIG_TRACE_WAIT_IDS];
};

struct kfdsig_trace_map {
	uint64_t offset, addr, len;
	uint32_t page; /* enum kfdsig_trace_page: this mapping is the signal page */
	uint32_t pad;
};

struct kfdsig_trace_irq {
	uint64_t seq;
	uint32_t gpu_id, source, client_id, source_id, ring_id, node_id, vmid;
	uint32_t context_id0, context_id1, id, valid_bits;
	uint32_t path, drop, nsignaled; /* enum kfdsig_emu_irq_path, _drop */
	uint32_t events[4];
};

struct kfdsig_trace_finding {
	uint32_t detector; /* enum kfdsig_trace_detector */
	uint32_t event_id, queue_id, gpu_id;
	uint64_t stale_age, real_age, count, slot, va;
};

struct kfdsig_trace_start {
	char comm[64]; /* argv[0], cut */
	int32_t ppid;
	uint32_t emulated; /* 1: the emulated KFD, 0: the real one */
};

struct kfdsig_trace_rec {
	uint32_t magic, kind; /* KFDSIG_TRACE_MAGIC, enum kfdsig_trace_kind */
	int32_t pid, tid;
	uint64_t t_ns;	 /* when the call began */
	uint64_t dur_ns; /* how long it took (WAIT_EVENTS: the time slept) */
	uint32_t nr;	 /* the ioctl's number (_IOC_NR) */
	int32_t ret;	 /* 0 or -errno */
	union {
		struct kfdsig_trace_ioctl io;
		struct kfdsig_trace_wait wait;
		struct kfdsig_trace_map map;
		struct kfdsig_trace_irq irq;
		struct kfdsig_trace_finding find;
		struct kfdsig_trace_start start;
	} u;
};

_Static_assert(sizeof(struct kfdsig_trace_rec) <= 512, "a record fits one atomic pipe write");

#endif
