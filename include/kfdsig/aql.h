/* SPDX-License-Identifier: MIT */
/*
 * AQL (HSA Architected Queuing Language) packets and the AMD signal that
 * an AQL packet's completion_signal points at.
 *
 * When an AQL packet completes, the CP's packet processor decrements the
 * signal's value and, when event_mailbox_ptr is non-zero, stores event_id
 * at that address and raises an end-of-pipe interrupt whose context id is
 * event_id. ROCr's interrupt signals point the mailbox at the KFD event's
 * slot of the signal page and set event_id to the KFD event id
 * (ROCR-Runtime runtime/hsa-runtime/core/runtime/interrupt_signal.cpp,
 * InterruptSignal::InterruptSignal), so the slot reads the event id, which
 * is never all-ones, and the kernel's ISR wakes the event.
 *
 * Layouts are our own definitions of:
 *   HSA Platform System Architecture Specification 1.2, section 2.9
 *   ("Architected Queuing Language packets") and ROCR-Runtime
 *   runtime/hsa-runtime/inc/hsa.h (hsa_packet_header_t,
 *   hsa_kernel_dispatch_packet_t, hsa_barrier_and_packet_t,
 *   hsa_barrier_or_packet_t, hsa_fence_scope_t);
 *   ROCR-Runtime runtime/hsa-runtime/inc/amd_hsa_signal.h (amd_signal_t);
 *   ROCR-Runtime runtime/hsa-runtime/core/runtime/amd_aql_queue.cpp,
 *   AqlQueue::ExecutePM4 (the vendor-specific packet amd_aql_pm4_ib that
 *   runs a PM4 indirect buffer, format AMD_AQL_FORMAT_PM4_IB = 1).
 * Every multi-byte field is little-endian.
 *
 * Queue conventions (ROCr AqlQueue, HSA spec 2.8): a ring of 64-byte slots,
 * a power-of-two number of them; the write index counts packets and only
 * grows (slot = index % packets); a packet becomes visible when its header
 * (the first 16 bits, stored together with the next 16 as one 32-bit
 * store) changes from INVALID to its type, so the header is stored last,
 * with release order; the doorbell is 64 bits and takes the write index
 * after the last packet written.
 */
#ifndef KFDSIG_AQL_H
#define KFDSIG_AQL_H

#include <stddef.h>
#include <stdint.h>

#include <kfdsig/common.h>
#include <kfdsig/layout.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of one AQL packet (HSA spec 2.9: every packet is 64 bytes). */
#define KFDSIG_AQL_PACKET_SIZE 64u

/* hsa_packet_type_t (hsa.h). */
enum kfdsig_aql_type {
	KFDSIG_AQL_TYPE_VENDOR_SPECIFIC = 0,
	KFDSIG_AQL_TYPE_INVALID = 1,
	KFDSIG_AQL_TYPE_KERNEL_DISPATCH = 2,
	KFDSIG_AQL_TYPE_BARRIER_AND = 3,
	KFDSIG_AQL_TYPE_AGENT_DISPATCH = 4,
	KFDSIG_AQL_TYPE_BARRIER_OR = 5,
};

/* hsa_fence_scope_t (hsa.h). */
enum kfdsig_aql_scope {
	KFDSIG_AQL_SCOPE_NONE = 0,
	KFDSIG_AQL_SCOPE_AGENT = 1,
	KFDSIG_AQL_SCOPE_SYSTEM = 2,
};

/*
 * Header bit positions (hsa_packet_header_t): type [7:0], barrier [8],
 * acquire fence scope [10:9], release fence scope [12:11], [15:13] reserved.
 * The `ctl` argument of the builders is the header without its type:
 * KFDSIG_AQL_BARRIER | KFDSIG_AQL_ACQUIRE(scope) | KFDSIG_AQL_RELEASE(scope).
 */
#define KFDSIG_AQL_HDR_TYPE_SHIFT 0
#define KFDSIG_AQL_HDR_BARRIER_SHIFT 8
#define KFDSIG_AQL_HDR_ACQUIRE_SHIFT 9
#define KFDSIG_AQL_HDR_RELEASE_SHIFT 11
#define KFDSIG_AQL_BARRIER (1u << KFDSIG_AQL_HDR_BARRIER_SHIFT)
#define KFDSIG_AQL_ACQUIRE(scope) ((unsigned int)(scope) << KFDSIG_AQL_HDR_ACQUIRE_SHIFT)
#define KFDSIG_AQL_RELEASE(scope) ((unsigned int)(scope) << KFDSIG_AQL_HDR_RELEASE_SHIFT)
/* What ROCr's barrier packets for interrupt signals use: barrier bit,
 * system-scope acquire and release. */
#define KFDSIG_AQL_CTL_DEFAULT                                              \
	(KFDSIG_AQL_BARRIER | KFDSIG_AQL_ACQUIRE(KFDSIG_AQL_SCOPE_SYSTEM) | \
	 KFDSIG_AQL_RELEASE(KFDSIG_AQL_SCOPE_SYSTEM))

/* Dependency signals of one barrier-AND / barrier-OR packet (dep_signal[5]). */
#define KFDSIG_AQL_BARRIER_DEPS 5u
/* Vendor header (16 bits after the AQL header) of the PM4-IB packet:
 * AMD_AQL_FORMAT_PM4_IB (amd_aql_queue.cpp, AqlQueue::ExecutePM4). */
#define KFDSIG_AQL_AMD_FORMAT_PM4_IB 1u
/* dw_cnt_remain of the PM4-IB packet: the dwords of the slot after the
 * four-dword INDIRECT_BUFFER and this count (amd_aql_queue.cpp sets 0xA). */
#define KFDSIG_AQL_PM4_IB_DW_REMAIN 10u
/* IB_SIZE of INDIRECT_BUFFER is 20 bits (dwords). */
#define KFDSIG_AQL_PM4_IB_MAX_DW 0xfffffu

/*
 * amd_signal_t (amd_hsa_signal.h): 64 bytes, 64-byte aligned
 * (AMD_SIGNAL_ALIGN_BYTES). The packet processor decrements `value` when a
 * packet naming this signal completes and, when event_mailbox_ptr is not 0,
 * stores event_id (32 bits) there and interrupts with context id event_id.
 * Offsets: kind 0, value 8, event_mailbox_ptr 16, event_id 24, start_ts 32,
 * end_ts 40, queue_ptr 48.
 */
struct kfdsig_amd_signal {
	int64_t kind;		    /* KFDSIG_AMD_SIGNAL_KIND_* */
	int64_t value;		    /* (union with doorbell pointers) */
	uint64_t event_mailbox_ptr; /* GPU VA the event id is stored to, or 0 */
	uint32_t event_id;	    /* interrupt context id */
	uint32_t reserved1;
	uint64_t start_ts;  /* written by the CP when the packet starts */
	uint64_t end_ts;    /* ... and when it completes */
	uint64_t queue_ptr; /* amd_queue_t * of a doorbell signal, else 0 */
	uint32_t reserved3[2];
};

/* amd_signal_kind_t (amd_hsa_signal.h). */
#define KFDSIG_AMD_SIGNAL_KIND_INVALID 0
#define KFDSIG_AMD_SIGNAL_KIND_USER 1
#define KFDSIG_AMD_SIGNAL_KIND_DOORBELL (-1)
#define KFDSIG_AMD_SIGNAL_KIND_LEGACY_DOORBELL (-2)
#define KFDSIG_AMD_SIGNAL_ALIGN 64u

#ifndef __cplusplus
_Static_assert(sizeof(struct kfdsig_amd_signal) == 64, "amd_signal_t is 64 bytes");
_Static_assert(offsetof(struct kfdsig_amd_signal, value) == 8, "amd_signal_t.value");
_Static_assert(offsetof(struct kfdsig_amd_signal, event_mailbox_ptr) == 16,
	       "amd_signal_t.event_mailbox_ptr");
_Static_assert(offsetof(struct kfdsig_amd_signal, event_id) == 24, "amd_signal_t.event_id");
_Static_assert(offsetof(struct kfdsig_amd_signal, start_ts) == 32, "amd_signal_t.start_ts");
_Static_assert(offsetof(struct kfdsig_amd_signal, end_ts) == 40, "amd_signal_t.end_ts");
_Static_assert(offsetof(struct kfdsig_amd_signal, queue_ptr) == 48, "amd_signal_t.queue_ptr");
#endif

/* Byte offsets inside a 64-byte packet (HSA spec 2.9, hsa.h). */
#define KFDSIG_AQL_OFF_COMPLETION_SIGNAL 56u /* every packet type */
#define KFDSIG_AQL_OFF_DEP_SIGNAL 8u	     /* barrier: 5 x u64 */
#define KFDSIG_AQL_OFF_SETUP 2u		     /* dispatch setup / vendor header */
#define KFDSIG_AQL_OFF_WORKGROUP 4u	     /* dispatch: 3 x u16 */
#define KFDSIG_AQL_OFF_GRID 12u		     /* dispatch: 3 x u32 */
#define KFDSIG_AQL_OFF_PRIVATE_SIZE 24u
#define KFDSIG_AQL_OFF_GROUP_SIZE 28u
#define KFDSIG_AQL_OFF_KERNEL_OBJECT 32u
#define KFDSIG_AQL_OFF_KERNARG 40u
#define KFDSIG_AQL_OFF_IB_JUMP 4u    /* PM4-IB: 4 dwords of INDIRECT_BUFFER */
#define KFDSIG_AQL_OFF_DW_REMAIN 20u /* PM4-IB: dw_cnt_remain */

/* A kernel dispatch (hsa_kernel_dispatch_packet_t without its header).
 * Declare it with KFDSIG_OPTS(kfdsig_aql_dispatch, name, ...) so that @sz
 * is set (CONTRIBUTING.md, "ABI: room to grow"). */
struct kfdsig_aql_dispatch {
	size_t sz;	       /* sizeof(struct kfdsig_aql_dispatch) the caller was built with */
	uint16_t dims;	       /* 1..3 (setup bits [1:0]) */
	uint16_t workgroup[3]; /* unused dimensions must be 1 */
	uint32_t grid[3];      /* work-items; unused dimensions must be 1 */
	uint32_t private_segment_size;
	uint32_t group_segment_size;
	uint32_t pad_0;		    /* must be 0 */
	uint64_t kernel_object;	    /* kernel descriptor VA, 64-byte aligned */
	uint64_t kernarg_address;   /* 16-byte aligned, or 0 */
	uint64_t completion_signal; /* amd_signal_t VA, or 0 */
};

/**
 * kfdsig_aql_header() - the 16-bit AQL header of a packet of @type with @ctl.
 * @type: enum kfdsig_aql_type
 * @ctl:  KFDSIG_AQL_BARRIER | KFDSIG_AQL_ACQUIRE(s) | KFDSIG_AQL_RELEASE(s)
 * Return: the header (0..0xffff), or -EINVAL for an unknown type, a scope
 * above SYSTEM or bits outside [12:8] in @ctl.
 */
KFDSIG_API int kfdsig_aql_header(unsigned int type, unsigned int ctl);

/**
 * kfdsig_amd_signal_prepare() - make @s an interrupt signal for a KFD event.
 * @s:              the signal to fill (all 64 bytes are written)
 * @signal_page_va: GPU VA of the process's signal page (4096-byte aligned,
 *                  non-zero, below 2^57: the widest GPUVM, GC 12.1's)
 * @event_id:       KFD signal event id, 1..4095 (a slot of the page)
 * @value:          initial value; each completing packet decrements it
 *
 * kind = USER, mailbox = the event's slot (page + 8 * id), event_id = id:
 * what ROCr's InterruptSignal sets up for an event from
 * AMDKFD_IOC_CREATE_EVENT.
 * Return: 0, or -EINVAL (reason in kfdsig_last_error()).
 */
KFDSIG_API int kfdsig_amd_signal_prepare(struct kfdsig_amd_signal *s, uint64_t signal_page_va,
					 uint32_t event_id, int64_t value);

/* Findings of kfdsig_amd_signal_check() (a bit mask). */
#define KFDSIG_AMD_SIGNAL_NO_MAILBOX (1u << 0) /* mailbox 0: no interrupt */
#define KFDSIG_AMD_SIGNAL_ID_ZERO (1u << 1)    /* event id 0 */
#define KFDSIG_AMD_SIGNAL_ID_RANGE (1u << 2)   /* event id beyond the page */
#define KFDSIG_AMD_SIGNAL_WRONG_SLOT (1u << 3) /* mailbox is not the id's slot */
#define KFDSIG_AMD_SIGNAL_UNALIGNED (1u << 4)  /* mailbox not 8-byte aligned */
#define KFDSIG_AMD_SIGNAL_BAD_KIND (1u << 5)   /* kind is not USER */

/**
 * kfdsig_amd_signal_check() - will a completion with @s wake a KFD event?
 * @s:              the signal as the GPU will read it
 * @signal_page_va: the process's signal page, or 0 when unknown (the slot
 *                  check is then skipped)
 *
 * Return: 0 when the completion stores event_id into the event's slot and
 * interrupts with that id, else a mask of KFDSIG_AMD_SIGNAL_* findings
 * (never negative).
 */
KFDSIG_API unsigned int kfdsig_amd_signal_check(const struct kfdsig_amd_signal *s,
						uint64_t signal_page_va);

/**
 * kfdsig_aql_emit_barrier() - write a barrier-AND or barrier-OR packet.
 * @pkt:    64 bytes of caller's memory
 * @type:   KFDSIG_AQL_TYPE_BARRIER_AND or KFDSIG_AQL_TYPE_BARRIER_OR
 * @deps:   dependency signal VAs (0 = none), may be NULL when @n_deps is 0
 * @n_deps: 0..5
 * @completion_signal: amd_signal_t VA (64-byte aligned) or 0
 * @ctl:    header control bits (see kfdsig_aql_header())
 * Return: 64, or -EINVAL for a bad type, @ctl, count or unaligned signal.
 */
KFDSIG_API int kfdsig_aql_emit_barrier(void *pkt, unsigned int type, const uint64_t *deps,
				       unsigned int n_deps, uint64_t completion_signal,
				       unsigned int ctl);

/**
 * kfdsig_aql_emit_dispatch() - write a kernel dispatch packet.
 * Checks: dims 1..3; work-group and grid sizes non-zero, 1 in unused
 * dimensions (HSA spec 2.9.6); kernel_object non-zero and 64-byte aligned
 * (LLVM AMDGPUUsage "Kernel Descriptor": 64-byte aligned); kernarg_address
 * 16-byte aligned; completion signal 64-byte aligned; reserved zero.
 * Return: 64, or -EINVAL.
 */
KFDSIG_API int kfdsig_aql_emit_dispatch(void *pkt, const struct kfdsig_aql_dispatch *d,
					unsigned int ctl);

/**
 * kfdsig_aql_emit_pm4_ib() - write the AMD vendor-specific packet that runs
 * a PM4 indirect buffer (AMD_AQL_FORMAT_PM4_IB).
 * @ib_va: GPU VA of the IB, 4-byte aligned, non-zero, below 2^57 (GC 12.1's
 *         GPUVM; a 48-bit GPU reaches less)
 * @ib_dw: dwords of the IB, 1..KFDSIG_AQL_PM4_IB_MAX_DW
 *
 * The slot holds the 4-dword PM4 INDIRECT_BUFFER (type-3 header, opcode
 * 0x3f, count 2; base lo/hi; IB_SIZE | IB_VALID bit 23), dw_cnt_remain = 10
 * and a completion signal. ROCr uses this packet on gfx9 only
 * (AqlQueue::ExecutePM4); other generations' firmware is not known to take
 * it, so use it on gfx9 queues.
 * Return: 64, or -EINVAL.
 */
KFDSIG_API int kfdsig_aql_emit_pm4_ib(void *pkt, uint64_t ib_va, uint32_t ib_dw,
				      uint64_t completion_signal, unsigned int ctl);

/**
 * kfdsig_aql_ring_write() - publish one packet in an AQL ring.
 * @ring:        the ring (64-byte aligned), @ring_packets slots
 * @ring_packets: a power of two, at least 1
 * @write_index: the packet index to write (slot = index % ring_packets)
 * @pkt:         64-byte packet, its header not INVALID (other types, even
 *               unknown ones, are published as given)
 *
 * Copies bytes 4..63, then stores bytes 0..3 (header and setup) as one
 * 32-bit store with release order, so the packet processor never sees a
 * valid header before the body. The caller then stores write_index + 1 as
 * the queue's write index and rings the 64-bit doorbell with it.
 * Return: 0, or -EINVAL.
 */
KFDSIG_API int kfdsig_aql_ring_write(void *ring, uint32_t ring_packets, uint64_t write_index,
				     const void *pkt);

/**
 * kfdsig_aql_packet_desc() - field layout of an AQL packet whose header
 * dword (header and setup / vendor format) is @dw0, as the decoder shows it
 * (64-bit fields as _lo/_hi dwords).
 * Return: the layout (16 dwords), or NULL with errno = ENOENT for a type
 * above 5.
 */
KFDSIG_API const struct kfdsig_packet_desc *kfdsig_aql_packet_desc(uint32_t dw0);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_AQL_H */
