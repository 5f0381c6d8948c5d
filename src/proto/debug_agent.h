/* SPDX-License-Identifier: MIT */
/*
 * The protocol between the debug agent of libkfdsig-preload.so
 * (src/preload/debug_agent.c) and `kfdsig debug` (tools/cmd_debug.c): both
 * sides include this header and nothing of each other.
 *
 * The emulated KFD lives inside each client process (the interposer's own
 * emulator): no other process can reach it. So `kfdsig debug --emulate ...
 * -- COMMAND` starts COMMAND under the interposer with KFDSIG_DEBUG_AGENT
 * set to one end of a SOCK_SEQPACKET socket pair. At load the interposer
 * then opens the emulated KFD of that process and enables the debugger
 * interface on it from inside (DBG_TRAP ENABLE with pid = itself, which the
 * kernel allows: kfd_chardev.c kfd_ioctl_set_debug_trap() asks for the
 * ptrace relation only when the target is another process), then serves
 * requests of the debugger on a thread of its own, one message each way.
 * The first message is the agent's: a DBGA_READY response.
 */
#ifndef KFDSIG_PROTO_DEBUG_AGENT_H
#define KFDSIG_PROTO_DEBUG_AGENT_H

#include <stdint.h>

#include <kfdsig/debug.h>

#define KFDSIG_DEBUG_AGENT_ENV "KFDSIG_DEBUG_AGENT"

enum dbga_op {
	DBGA_READY = 1,	     /* agent -> debugger: ret = the ENABLE result */
	DBGA_WAIT_EVENT,     /* wait up to timeout_ms for dbg_fd, then QUERY_DEBUG_EVENT */
	DBGA_QUEUE_SNAPSHOT, /* GET_QUEUE_SNAPSHOT (mask cleared) */
	DBGA_DEVICE_SNAPSHOT,
	DBGA_SUSPEND, /* SUSPEND_QUEUES of ids[0..n) (mask cleared) */
	DBGA_RESUME,
	DBGA_SEND_RUNTIME, /* SEND_RUNTIME_EVENT of mask (gpu 0, queue 0) */
};

#define DBGA_MAX_IDS 64
#define DBGA_MAX_QUEUES 32
#define DBGA_MAX_DEVICES 16

struct dbga_req {
	uint32_t op; /* enum dbga_op */
	uint32_t n;
	int32_t timeout_ms;
	uint32_t pad;
	uint64_t mask;
	uint32_t ids[DBGA_MAX_IDS];
};

struct dbga_resp {
	uint32_t op;
	int32_t ret; /* 0 or what the call returned (-errno) */
	uint32_t pid;
	uint32_t n; /* entries of ids / q / d */
	struct kfdsig_dbg_event ev;
	struct kfdsig_dbg_runtime_info rinfo;
	uint32_t ids[DBGA_MAX_IDS];
	struct kfdsig_dbg_queue_entry q[DBGA_MAX_QUEUES];
	struct kfdsig_dbg_device_entry d[DBGA_MAX_DEVICES];
	char msg[256]; /* kfdsig_last_error() on failure */
};

#endif
