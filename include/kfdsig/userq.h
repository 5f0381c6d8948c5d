/* SPDX-License-Identifier: MIT */
/*
 * amdgpu user-mode queue (userq) fences, GFX11 / GFX12: the packets a
 * program writes into its own ring on the render node, and the "end of
 * submission" sequence Mesa's radeonsi writes.
 *
 * A userq fence is not a KFD event. The queue's fence slot (seq64) is
 * owned by the kernel and only PROTECTED_FENCE_SIGNAL (PM4) or the SDMA
 * protected fence writes it; the CP's end-of-pipe interrupt names the
 * queue by its doorbell, and the kernel signals every dma_fence whose
 * sequence number the slot has passed. The RELEASE_MEM before it writes
 * the program's own user fence and raises no interrupt (INT_SEL 0).
 * Sequence numbers are ring positions: the dword write pointer (64-bit,
 * monotonic) after the packets. docs/fence-paths.md compares the two
 * paths.
 *
 * Every emitter refuses a target without user-queue packets
 * (kfdsig_target.userq_fwm_max == 0, or sdma_userq_fw == 0 for the SDMA
 * fence) with -ENOTSUP, a NULL argument with -EINVAL and a buffer too
 * small with -ENOSPC (nothing written then); the reason is in
 * kfdsig_last_error(). Nothing is printed.
 */
#ifndef KFDSIG_USERQ_H
#define KFDSIG_USERQ_H

#include <stddef.h>
#include <stdint.h>

#include <kfdsig/common.h>
#include <kfdsig/target.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opcodes (Mesa sid.h PKT3_PROTECTED_FENCE_SIGNAL / PKT3_FENCE_WAIT_MULTI,
 * nvd.h PACKET3_HDP_FLUSH). */
#define KFDSIG_PM4_OP_PROTECTED_FENCE_SIGNAL 0xd0u
#define KFDSIG_PM4_OP_FENCE_WAIT_MULTI 0xd1u
#define KFDSIG_PM4_OP_HDP_FLUSH 0x95u

/* Dwords of each packet. */
#define KFDSIG_USERQ_PROTECTED_SIGNAL_DW 2
#define KFDSIG_USERQ_HDP_FLUSH_DW 2
#define KFDSIG_USERQ_RELEASE_MEM_DW 8
/* The trailer: RELEASE_MEM to the user fence, then PROTECTED_FENCE_SIGNAL. */
#define KFDSIG_USERQ_TRAILER_DW (KFDSIG_USERQ_RELEASE_MEM_DW + KFDSIG_USERQ_PROTECTED_SIGNAL_DW)
/* FENCE_WAIT_MULTI: header, control, 4 dwords per entry. */
#define KFDSIG_USERQ_FWM_DW(entries) (2u + 4u * (entries))
/* The most entries any target takes in one FENCE_WAIT_MULTI
 * (kfdsig_target.userq_fwm_max is the target's own limit). */
#define KFDSIG_USERQ_FWM_MAX_ENTRIES 32u
/* The SDMA protected fence: one header dword. */
#define KFDSIG_USERQ_SDMA_PROTECTED_FENCE_DW 1
/* The INDIRECT_BUFFER of a submission (4 dwords). */
#define KFDSIG_USERQ_IB_DW 4
/* Longest IB a user-queue INDIRECT_BUFFER names (IB_SIZE, 20 bits). */
#define KFDSIG_USERQ_IB_MAX_DW 0xfffffu

/* FENCE_WAIT_MULTI control as Mesa writes it: the PFP waits
 * (ENGINE_SEL 1), preemptable, POLL_INTERVAL 4. */
#define KFDSIG_USERQ_FWM_POLL_INTERVAL 4u

/* One wait: until the 64 bits at @va reach @value (what the
 * DRM_AMDGPU_USERQ_WAIT ioctl returns, struct drm_amdgpu_userq_fence_info). */
struct kfdsig_userq_fence_ref {
	uint64_t va;
	uint64_t value;
};

/**
 * kfdsig_userq_fwm_max() - entries one FENCE_WAIT_MULTI may carry on @t.
 * Return: the count (4 or 32), -EINVAL (NULL), -ENOTSUP (no user queues).
 */
KFDSIG_API int kfdsig_userq_fwm_max(const struct kfdsig_target *t);

/**
 * kfdsig_userq_emit_protected_signal() - PROTECTED_FENCE_SIGNAL: the CP
 * writes the queue's kernel-owned fence slot with the ring position and
 * raises the end-of-pipe interrupt that names the queue's doorbell.
 * Return: KFDSIG_USERQ_PROTECTED_SIGNAL_DW, -EINVAL, -ENOTSUP, -ENOSPC.
 */
KFDSIG_API int kfdsig_userq_emit_protected_signal(const struct kfdsig_target *t, uint32_t *buf,
						  size_t max_dw);

/**
 * kfdsig_userq_emit_trailer() - the fence trailer: an 8-dword RELEASE_MEM
 * (CACHE_FLUSH_AND_INV_TS at end of pipe, GLM write-back and invalidate,
 * GL2 write-back, sequential, cache policy 3, DATA_SEL 64-bit, INT_SEL 0:
 * no interrupt, INT_CTXID 0) writing @value to the user fence at
 * @fence_va, then PROTECTED_FENCE_SIGNAL. @value should be the ring
 * position right after the trailer (kfdsig_userq_emit_submit() computes
 * it).
 * Return: KFDSIG_USERQ_TRAILER_DW, -EINVAL (@fence_va 0, unaligned or not
 * below 2^48), -ENOTSUP, -ENOSPC.
 */
KFDSIG_API int kfdsig_userq_emit_trailer(const struct kfdsig_target *t, uint64_t fence_va,
					 uint64_t value, uint32_t *buf, size_t max_dw);

/**
 * kfdsig_userq_emit_fence_wait_multi() - one FENCE_WAIT_MULTI: the CP
 * waits until every @refs[i].va holds at least @refs[i].value.
 * @n: 1 .. kfdsig_userq_fwm_max(@t)
 * Return: KFDSIG_USERQ_FWM_DW(@n), -EINVAL (NULL, @n 0 or above the
 * target's limit, an address 0, unaligned or not below 2^48), -ENOTSUP,
 * -ENOSPC.
 */
KFDSIG_API int kfdsig_userq_emit_fence_wait_multi(const struct kfdsig_target *t,
						  const struct kfdsig_userq_fence_ref *refs,
						  size_t n, uint32_t *buf, size_t max_dw);

/**
 * kfdsig_userq_emit_hdp_flush() - HDP_FLUSH: flush the host data path
 * before the IB runs (CPU writes to VRAM become visible to the GPU).
 * Return: KFDSIG_USERQ_HDP_FLUSH_DW, -EINVAL, -ENOTSUP, -ENOSPC.
 */
KFDSIG_API int kfdsig_userq_emit_hdp_flush(const struct kfdsig_target *t, uint32_t *buf,
					   size_t max_dw);

/**
 * kfdsig_userq_emit_sdma_protected_fence() - the SDMA queue's protected
 * fence (a FENCE header with the protected sub-op): the engine writes the
 * queue's kernel-owned fence slot. SDMA 6.0.0 / 6.0.2 / 6.0.3 / 7.0.x
 * (kfdsig_target.sdma_userq_fw).
 * Return: KFDSIG_USERQ_SDMA_PROTECTED_FENCE_DW, -EINVAL, -ENOTSUP, -ENOSPC.
 */
KFDSIG_API int kfdsig_userq_emit_sdma_protected_fence(const struct kfdsig_target *t, uint32_t *buf,
						      size_t max_dw);

/* kfdsig_userq_submit.flags: the queue is a GFX queue (the IB inherits
 * the VMID from the MQD through INHERIT_VMID_MQD_GFX); without it a
 * compute queue (VALID and INHERIT_VMID_MQD_COMPUTE). */
#define KFDSIG_USERQ_SUBMIT_GFX (1u << 0)

/* One submission's end. Declare with KFDSIG_OPTS(kfdsig_userq_submit, name, ...). */
struct kfdsig_userq_submit {
	size_t sz;	   /* sizeof(struct kfdsig_userq_submit) */
	uint64_t wptr;	   /* ring position (dwords) where the sequence starts */
	uint64_t fence_va; /* the queue's user fence (8-byte aligned) */
	uint64_t ib_va;	   /* the IB to run (4-byte aligned), or 0 for none */
	uint32_t ib_dw;	   /* its dwords, 1 .. KFDSIG_USERQ_IB_MAX_DW; 0 with ib_va 0 */
	uint32_t flags;	   /* KFDSIG_USERQ_SUBMIT_* */
	/* Waits first: FENCE_WAIT_MULTI packets of up to
	 * kfdsig_userq_fwm_max() entries each, as many as @nwaits needs. */
	const struct kfdsig_userq_fence_ref *waits;
	uint32_t nwaits;
	uint32_t pad_0; /* must be 0 */
};

/**
 * kfdsig_userq_submit_dw() - dwords kfdsig_userq_emit_submit() writes.
 * Return: the count, or its errors.
 */
KFDSIG_API int kfdsig_userq_submit_dw(const struct kfdsig_target *t,
				      const struct kfdsig_userq_submit *s);

/**
 * kfdsig_userq_emit_submit() - the end of a submission as radeonsi writes
 * it (Mesa amdgpu_cs.cpp amdgpu_cs_add_userq_packets()): the waits
 * (FENCE_WAIT_MULTI), HDP_FLUSH, the INDIRECT_BUFFER (when @s->ib_va),
 * then the trailer whose value is the ring position after it:
 * @s->wptr + the dwords written. The program then stores that position
 * in the queue's wptr and doorbell and calls DRM_AMDGPU_USERQ_SIGNAL.
 * @seq: NULL, or set to the fence's sequence number (that position)
 * Return: dwords written, -EINVAL, -ENOTSUP, -ENOSPC.
 */
KFDSIG_API int kfdsig_userq_emit_submit(const struct kfdsig_target *t,
					const struct kfdsig_userq_submit *s, uint32_t *buf,
					size_t max_dw, uint64_t *seq);

/*
 * The kernel side on a real GPU: the render node's user-queue ioctls
 * (DRM_AMDGPU_USERQ, USERQ_SIGNAL, USERQ_WAIT, Linux 6.16 and later), raw:
 * @fd is an open amdgpu render node (/dev/dri/renderD*); the caller owns
 * the buffer objects (ring, rptr, wptr, doorbell, the engine's MQD
 * buffers) and their GPU mappings. Engines: KFDSIG_USERQ_IP_*.
 */
#define KFDSIG_USERQ_IP_GFX 0u
#define KFDSIG_USERQ_IP_COMPUTE 1u
#define KFDSIG_USERQ_IP_SDMA 2u

/**
 * kfdsig_userq_probe() - which engines of the render node at @fd take user
 * queues: *@ip_mask gets 1 << KFDSIG_USERQ_IP_* for each (0 from a kernel
 * without user queues or with them disabled, the user_queue parameter).
 * Return: 0, -EINVAL (NULL @ip_mask), -EBADF, -ENOTTY (not an amdgpu
 * render node), or another errno of the INFO ioctl.
 */
KFDSIG_API int kfdsig_userq_probe(int fd, uint32_t *ip_mask);

/* One queue to create. Declare with KFDSIG_OPTS(kfdsig_userq_create_args, name, ...). */
struct kfdsig_userq_create_args {
	size_t sz;		  /* sizeof(struct kfdsig_userq_create_args) */
	uint32_t ip;		  /* KFDSIG_USERQ_IP_* */
	uint32_t flags;		  /* the uapi's: priority [1:0], secure bit 2 */
	uint32_t doorbell_handle; /* GEM handle of the doorbell BO */
	uint32_t doorbell_offset; /* the queue's doorbell (8-byte units) in it */
	uint64_t ring_va;	  /* the ring: 256-byte multiple of bytes */
	uint64_t ring_size;
	uint64_t rptr_va; /* 8 bytes each, 8-byte aligned */
	uint64_t wptr_va;
	/* GFX: shadow and CSA; compute: EOP (eop_va); SDMA: CSA (csa_va). */
	uint64_t shadow_va;
	uint64_t csa_va;
	uint64_t eop_va;
};

/**
 * kfdsig_userq_create() - DRM_AMDGPU_USERQ create; *@queue_id gets the
 * queue's id.
 * Return: 0, -EINVAL (a NULL or bad argument, checked before the ioctl:
 * unknown engine, unaligned addresses or sizes, the engine's MQD buffers
 * missing), or the ioctl's errno.
 */
KFDSIG_API int kfdsig_userq_create(int fd, const struct kfdsig_userq_create_args *a,
				   uint32_t *queue_id);

/** kfdsig_userq_free() - DRM_AMDGPU_USERQ free. Return: 0 or the ioctl's errno. */
KFDSIG_API int kfdsig_userq_free(int fd, uint32_t queue_id);

/**
 * kfdsig_userq_signal() - DRM_AMDGPU_USERQ_SIGNAL: a fence at the queue's
 * current wptr, attached to the @n syncobjs of @syncobjs (wait for them
 * with the DRM syncobj wait ioctls).
 * Return: 0, -EINVAL (@n without @syncobjs), or the ioctl's errno.
 */
KFDSIG_API int kfdsig_userq_signal(int fd, uint32_t queue_id, const uint32_t *syncobjs, uint32_t n);

/**
 * kfdsig_userq_wait() - DRM_AMDGPU_USERQ_WAIT: the {address, value} pairs
 * the queue @queue_id must wait for (FENCE_WAIT_MULTI,
 * kfdsig_userq_emit_submit()) before the @n syncobjs of @syncobjs are
 * signalled. @out has room for *@nout pairs; *@nout gets how many came.
 * Return: 0, -EINVAL, or the ioctl's errno.
 */
KFDSIG_API int kfdsig_userq_wait(int fd, uint32_t queue_id, const uint32_t *syncobjs, uint32_t n,
				 struct kfdsig_userq_fence_ref *out, uint32_t *nout);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_USERQ_H */
