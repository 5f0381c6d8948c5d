/* SPDX-License-Identifier: MIT */
/*
 * AQL packet builders: barrier-AND / barrier-OR, kernel dispatch and the AMD
 * vendor-specific packet that runs a PM4 IB, plus publishing a packet in an
 * AQL ring. Layouts: HSA Platform System Architecture Specification 1.2,
 * section 2.9, and ROCR-Runtime hsa.h / amd_aql_queue.cpp (see
 * include/kfdsig/aql.h). Packets are built byte by byte, little-endian, so
 * the result does not depend on the host's struct layout.
 */
#include <errno.h>
#include <string.h>

#include <kfdsig/aql.h>

#include "aql/aql_internal.h"
#include "core/internal.h"
#include "core/opts.h"

/* PM4 type-3 header of INDIRECT_BUFFER (opcode 0x3f, 4 dwords: count 2);
 * IB_VALID is DW3 bit 23 (ROCr amd_aql_queue.cpp ExecutePM4 builds the same
 * four dwords with PM4_INDIRECT_BUFFER_DW3_IB_VALID). Written here, not
 * taken from src/pm4, so the AQL component stands alone. */
#define AQL_PM4_TYPE3 (3u << 30)
#define AQL_PM4_IT_INDIRECT_BUFFER 0x3fu
#define AQL_PM4_IB_VALID (1u << 23)

static void put16(uint8_t *p, unsigned int off, uint16_t v)
{
	p[off] = (uint8_t)v;
	p[off + 1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, unsigned int off, uint32_t v)
{
	for (unsigned int i = 0; i < 4; i++)
		p[off + i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, unsigned int off, uint64_t v)
{
	for (unsigned int i = 0; i < 8; i++)
		p[off + i] = (uint8_t)(v >> (8 * i));
}

int kfdsig_aql_header(unsigned int type, unsigned int ctl)
{
	if (type > KFDSIG_AQL_TYPE_BARRIER_OR)
		return set_error(EINVAL, "AQL packet type %u is not an HSA packet type (0..5)",
				 type);
	if (ctl & ~0x1f00u)
		return set_error(EINVAL,
				 "AQL control 0x%x has bits outside the barrier bit and "
				 "the fence scopes [12:8]",
				 ctl);
	if (((ctl >> KFDSIG_AQL_HDR_ACQUIRE_SHIFT) & 3u) > KFDSIG_AQL_SCOPE_SYSTEM ||
	    ((ctl >> KFDSIG_AQL_HDR_RELEASE_SHIFT) & 3u) > KFDSIG_AQL_SCOPE_SYSTEM)
		return set_error(EINVAL, "AQL fence scope 3 is reserved (0 none, 1 agent, "
					 "2 system)");
	return (int)((type << KFDSIG_AQL_HDR_TYPE_SHIFT) | ctl);
}

static int check_signal(const char *what, uint64_t va)
{
	if (va % KFDSIG_AMD_SIGNAL_ALIGN)
		return set_error(EINVAL,
				 "%s 0x%llx is not 64-byte aligned (amd_signal_t, "
				 "AMD_SIGNAL_ALIGN_BYTES)",
				 what, (unsigned long long)va);
	if (va >= AQL_VA_LIMIT)
		return set_error(EINVAL, "%s 0x%llx is beyond the %d-bit GPU address space", what,
				 (unsigned long long)va, AQL_VA_BITS);
	return 0;
}

int kfdsig_aql_emit_barrier(void *pkt, unsigned int type, const uint64_t *deps, unsigned int n_deps,
			    uint64_t completion_signal, unsigned int ctl)
{
	uint8_t p[KFDSIG_AQL_PACKET_SIZE] = { 0 };
	int hdr;

	if (!pkt)
		return set_error(EINVAL, "no packet buffer");
	if (type != KFDSIG_AQL_TYPE_BARRIER_AND && type != KFDSIG_AQL_TYPE_BARRIER_OR)
		return set_error(EINVAL, "AQL type %u is not a barrier (AND 3, OR 5)", type);
	if (n_deps > KFDSIG_AQL_BARRIER_DEPS)
		return set_error(EINVAL, "%u dependency signals: a barrier packet holds 5", n_deps);
	if (n_deps && !deps)
		return set_error(EINVAL, "no dependency signals given");
	hdr = kfdsig_aql_header(type, ctl);
	if (hdr < 0)
		return hdr;
	for (unsigned int i = 0; i < n_deps; i++) {
		if (check_signal("dependency signal", deps[i]))
			return -EINVAL;
		put64(p, KFDSIG_AQL_OFF_DEP_SIGNAL + 8 * i, deps[i]);
	}
	if (check_signal("completion signal", completion_signal))
		return -EINVAL;
	put16(p, 0, (uint16_t)hdr);
	put64(p, KFDSIG_AQL_OFF_COMPLETION_SIGNAL, completion_signal);
	memcpy(pkt, p, sizeof(p));
	return KFDSIG_AQL_PACKET_SIZE;
}

int kfdsig_aql_emit_dispatch(void *pkt, const struct kfdsig_aql_dispatch *user_d, unsigned int ctl)
{
	uint8_t p[KFDSIG_AQL_PACKET_SIZE] = { 0 };
	struct kfdsig_aql_dispatch dd;
	const struct kfdsig_aql_dispatch *d = &dd;
	int hdr;

	if (!pkt || !user_d)
		return set_error(EINVAL, "no packet buffer or dispatch");
	hdr = opts_copy(&dd, sizeof(dd), user_d, "kfdsig_aql_dispatch");
	if (hdr)
		return hdr;
	if (d->dims < 1 || d->dims > 3)
		return set_error(EINVAL, "dispatch dimensions %u: 1..3", d->dims);
	for (unsigned int i = 0; i < 3; i++) {
		if (!d->workgroup[i] || !d->grid[i])
			return set_error(EINVAL, "dispatch size 0 in dimension %u", i);
		/* HSA spec 2.9.6: sizes of unused dimensions must be 1. */
		if (i >= d->dims && (d->workgroup[i] != 1 || d->grid[i] != 1))
			return set_error(EINVAL,
					 "dimension %u is unused (dims %u): its sizes "
					 "must be 1",
					 i, d->dims);
	}
	if (!d->kernel_object || d->kernel_object % 64 || d->kernel_object >= AQL_VA_LIMIT)
		return set_error(EINVAL,
				 "kernel object 0x%llx: a kernel descriptor is non-zero "
				 "and 64-byte aligned (AMDGPUUsage, Kernel Descriptor)",
				 (unsigned long long)d->kernel_object);
	if (d->kernarg_address % 16 || d->kernarg_address >= AQL_VA_LIMIT)
		return set_error(EINVAL,
				 "kernarg address 0x%llx is not 16-byte aligned "
				 "(HSA spec 2.9.6)",
				 (unsigned long long)d->kernarg_address);
	if (d->pad_0)
		return set_error(EINVAL, "pad_0 of the dispatch must be 0");
	if (check_signal("completion signal", d->completion_signal))
		return -EINVAL;
	hdr = kfdsig_aql_header(KFDSIG_AQL_TYPE_KERNEL_DISPATCH, ctl);
	if (hdr < 0)
		return hdr;
	put16(p, 0, (uint16_t)hdr);
	put16(p, KFDSIG_AQL_OFF_SETUP, d->dims);
	for (unsigned int i = 0; i < 3; i++) {
		put16(p, KFDSIG_AQL_OFF_WORKGROUP + 2 * i, d->workgroup[i]);
		put32(p, KFDSIG_AQL_OFF_GRID + 4 * i, d->grid[i]);
	}
	put32(p, KFDSIG_AQL_OFF_PRIVATE_SIZE, d->private_segment_size);
	put32(p, KFDSIG_AQL_OFF_GROUP_SIZE, d->group_segment_size);
	put64(p, KFDSIG_AQL_OFF_KERNEL_OBJECT, d->kernel_object);
	put64(p, KFDSIG_AQL_OFF_KERNARG, d->kernarg_address);
	put64(p, KFDSIG_AQL_OFF_COMPLETION_SIGNAL, d->completion_signal);
	memcpy(pkt, p, sizeof(p));
	return KFDSIG_AQL_PACKET_SIZE;
}

int kfdsig_aql_emit_pm4_ib(void *pkt, uint64_t ib_va, uint32_t ib_dw, uint64_t completion_signal,
			   unsigned int ctl)
{
	uint8_t p[KFDSIG_AQL_PACKET_SIZE] = { 0 };
	int hdr;

	if (!pkt)
		return set_error(EINVAL, "no packet buffer");
	if (!ib_va || ib_va % 4 || ib_va >= AQL_VA_LIMIT)
		return set_error(EINVAL, "IB address 0x%llx: non-zero, 4-byte aligned, below 2^%d",
				 (unsigned long long)ib_va, AQL_VA_BITS);
	if (!ib_dw || ib_dw > KFDSIG_AQL_PM4_IB_MAX_DW)
		return set_error(EINVAL, "IB of %u dwords: 1..%u (20-bit IB_SIZE)", ib_dw,
				 KFDSIG_AQL_PM4_IB_MAX_DW);
	if (check_signal("completion signal", completion_signal))
		return -EINVAL;
	hdr = kfdsig_aql_header(KFDSIG_AQL_TYPE_VENDOR_SPECIFIC, ctl);
	if (hdr < 0)
		return hdr;
	put16(p, 0, (uint16_t)hdr);
	put16(p, KFDSIG_AQL_OFF_SETUP, KFDSIG_AQL_AMD_FORMAT_PM4_IB);
	/* type 3, count = dwords - 2 in [29:16], opcode in [15:8]. */
	put32(p, KFDSIG_AQL_OFF_IB_JUMP,
	      AQL_PM4_TYPE3 | (2u << 16) | (AQL_PM4_IT_INDIRECT_BUFFER << 8));
	put32(p, KFDSIG_AQL_OFF_IB_JUMP + 4, (uint32_t)ib_va);
	put32(p, KFDSIG_AQL_OFF_IB_JUMP + 8, (uint32_t)(ib_va >> 32) & 0xffffu);
	put32(p, KFDSIG_AQL_OFF_IB_JUMP + 12, ib_dw | AQL_PM4_IB_VALID);
	put32(p, KFDSIG_AQL_OFF_DW_REMAIN, KFDSIG_AQL_PM4_IB_DW_REMAIN);
	put64(p, KFDSIG_AQL_OFF_COMPLETION_SIGNAL, completion_signal);
	memcpy(pkt, p, sizeof(p));
	return KFDSIG_AQL_PACKET_SIZE;
}

int kfdsig_aql_ring_write(void *ring, uint32_t ring_packets, uint64_t write_index, const void *pkt)
{
	const uint8_t *src = pkt;
	uint8_t *slot;
	uint32_t first;

	if (!ring || !pkt)
		return set_error(EINVAL, "no ring or packet");
	if (!ring_packets || (ring_packets & (ring_packets - 1)))
		return set_error(EINVAL, "AQL ring of %u packets: a power of two", ring_packets);
	if ((uintptr_t)ring % KFDSIG_AQL_PACKET_SIZE)
		return set_error(EINVAL, "AQL ring is not 64-byte aligned");
	/* An INVALID header would never be processed and stall the queue; any
	 * other type is published as given (a packet processor stops the queue
	 * on one it does not know, which drivers may want to provoke). */
	if (src[0] == KFDSIG_AQL_TYPE_INVALID)
		return set_error(EINVAL, "an INVALID packet cannot be published");
	slot = (uint8_t *)ring + (write_index & (ring_packets - 1)) * KFDSIG_AQL_PACKET_SIZE;
	memcpy(slot + 4, src + 4, KFDSIG_AQL_PACKET_SIZE - 4);
	memcpy(&first, src, 4);
	/* Header last, release order: the body is visible before the header
	 * turns valid (ROCr AqlQueue stores the header atomically, release). */
	__atomic_store_n((uint32_t *)(void *)slot, first, __ATOMIC_RELEASE);
	return 0;
}
