/* SPDX-License-Identifier: MIT */
/*
 * Shader signal stubs: a one-wave program that stores 1 into an event's slot
 * of the KFD signal page, makes the store visible at system scope, puts the
 * full event id in m0 and raises s_sendmsg(MSG_INTERRUPT), which KFD turns
 * into a signal of that event. Assembled with LLVM 22 for every generation
 * family and embedded in the library, in two forms:
 *
 *  - KFDSIG_SHADER_CODE_OBJECT: an AMDHSA code object (ELF, code object v5)
 *    whose kernel "kfdsig_signal" takes {u64 slot_va; u32 event_id} as
 *    kernel arguments; loadable by any HSA-style runtime, dispatchable on an
 *    AQL queue or, with kfdsig_pm4_emit_dispatch(), on a PM4 queue. The
 *    code object also holds "kfdsig_signal_raw", the raw form's kernel.
 *  - KFDSIG_SHADER_RAW: the instructions alone, with the slot address and
 *    event id as 32-bit literal constants at published byte offsets; patch
 *    a copy with kfdsig_shader_patch() and dispatch it without arguments.
 *
 * KFDSIG_SHADER_TRAP, OR'ed into either form, gives the trap stub instead:
 * "s_trap 3; s_endpgm" (llvm.debugtrap, LLVM AMDGPUUsage "Trap Handler ABI"),
 * the kernel "kfdsig_trap" of the same code object. Under a debugger that
 * enabled the KFD trap interface (AMDKFD_IOC_DBG_TRAP) the runtime's trap
 * handler reports it to KFD as EC_QUEUE_WAVE_TRAP on the wave's queue and
 * halts the wave; without one the wave steps over it. It takes no kernel
 * arguments and has nothing to patch.
 *
 * docs/shader-stubs.md describes the instruction sequences per family.
 */
#ifndef KFDSIG_SHADER_H
#define KFDSIG_SHADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kfdsig/common.h>
#include <kfdsig/pm4.h> /* kfdsig_pm4_emit_dispatch() */
#include <kfdsig/target.h>

#ifdef __cplusplus
extern "C" {
#endif

enum kfdsig_shader_form {
	KFDSIG_SHADER_CODE_OBJECT = 0, /* ELF code object, kernel arguments */
	KFDSIG_SHADER_RAW,	       /* instruction blob with literals */
	/* Flag OR'ed into a form: the trap stub (s_trap 3) instead of the
	 * signal stub; kfdsig_shader_stub.form keeps it. */
	KFDSIG_SHADER_TRAP = 0x100,
};

/* The form without KFDSIG_SHADER_TRAP. */
#define KFDSIG_SHADER_FORM(f) \
	((enum kfdsig_shader_form)((unsigned)(f) & ~(unsigned)KFDSIG_SHADER_TRAP))
/* The trap id the trap stub raises: llvm.debugtrap (LLVM AMDGPUUsage "Trap
 * Handler ABI"); ROCr's trap handler reports it as EC_QUEUE_WAVE_TRAP. */
#define KFDSIG_SHADER_TRAP_ID 3

/* Indices of kfdsig_shader_stub.patch_offset[]. */
enum kfdsig_shader_patch {
	KFDSIG_SHADER_PATCH_SLOT_LO = 0, /* slot address bits 31:0 */
	KFDSIG_SHADER_PATCH_SLOT_HI,	 /* slot address bits 63:32 */
	KFDSIG_SHADER_PATCH_EVENT_ID,	 /* the value moved into m0 */
	KFDSIG_SHADER_NPATCH
};

/* Offset value meaning "none in this form". */
#define KFDSIG_SHADER_NO_OFFSET UINT32_MAX
/* Kernel-argument block of the code-object form: u64 slot_va at 0, u32
 * event_id at 8, 4 bytes of padding. */
#define KFDSIG_SHADER_KERNARG_SIZE 16u
/* COMPUTE_PGM_LO holds address bits 47:8: code must be 256-byte aligned. */
#define KFDSIG_SHADER_CODE_ALIGN 256u
/* kfdsig_shader_patch() / kfdsig_shader_kernargs() return value when only
 * the low sq_id_bits of the event id reach KFD. */
#define KFDSIG_SHADER_PARTIAL_ID 1

/* What a dispatcher must program to run the stub (compute SH registers). */
struct kfdsig_shader_regs {
	uint32_t pgm_rsrc1;		 /* COMPUTE_PGM_RSRC1, from the kernel descriptor */
	uint32_t pgm_rsrc2;		 /* COMPUTE_PGM_RSRC2 */
	uint32_t pgm_rsrc3;		 /* COMPUTE_PGM_RSRC3 (only if has_rsrc3) */
	bool has_rsrc3;			 /* the generation has COMPUTE_PGM_RSRC3 */
	uint8_t user_sgprs;		 /* COMPUTE_USER_DATA_0.. read: 2 (kernarg address) or 0 */
	uint8_t wave_size;		 /* 64 (gfx8, gfx9) or 32 (gfx10 and later) */
	uint16_t kernel_code_properties; /* kernel descriptor word */
	uint32_t kernarg_size;		 /* bytes of kernel arguments: 16 or 0 */
};

struct kfdsig_shader_stub {
	const struct kfdsig_target *target;
	enum kfdsig_shader_form form;
	/* Code object: the whole ELF file image. Raw: the instructions, then
	 * (gfx10 and later) 192 bytes of s_code_end padding for the
	 * instruction prefetch; copy all @size bytes. */
	const uint8_t *bytes;
	size_t size;
	size_t entry_offset; /* first instruction of the kernel in @bytes */
	size_t code_size;    /* instruction bytes from entry_offset to s_endpgm */
	/* Code object: the kernel descriptor of "kfdsig_signal" (trap stub:
	 * "kfdsig_trap") in @bytes. Raw: KFDSIG_SHADER_NO_OFFSET. */
	uint32_t kd_offset;
	/* Raw: byte offsets in @bytes of the three 32-bit little-endian
	 * literals. Code object and trap stub: KFDSIG_SHADER_NO_OFFSET. */
	uint32_t patch_offset[KFDSIG_SHADER_NPATCH];
	struct kfdsig_shader_regs regs;
	/* m0 bits that reach KFD (target->sq_msg_id_bits): 8 on gfx8, 23 on
	 * gfx10.x, 24 otherwise. Wider ids arrive as a partial id. */
	uint8_t sq_id_bits;
	uint32_t elf_flags;	  /* code object e_flags (EF_AMDGPU_MACH ...) */
	const char *processor;	  /* LLVM processor assembled for, "gfx942" */
	const char *family;	  /* source family, "gfx94x" */
	const char *source_name;  /* "gfx94x.s" */
	const char *source;	  /* the assembly source, as assembled */
	const char *llvm_version; /* LLVM that assembled it, "22.1.8" */
};

/**
 * kfdsig_shader_stub() - the signal stub (or trap stub) of a target in a form.
 * @t:    target (kfdsig_target_by_name())
 * @form: KFDSIG_SHADER_CODE_OBJECT or KFDSIG_SHADER_RAW, optionally
 *        | KFDSIG_SHADER_TRAP for the trap stub
 * @out:  filled on success; its pointers reference static data
 *
 * Return: 0, or -EINVAL for a NULL argument or an unknown form, -ENOENT when
 * no stub was assembled for the target (reason in kfdsig_last_error()).
 */
KFDSIG_API int kfdsig_shader_stub(const struct kfdsig_target *t, enum kfdsig_shader_form form,
				  struct kfdsig_shader_stub *out);

/**
 * kfdsig_shader_kfd_id() - the event id KFD receives from s_sendmsg with
 * m0 = @event_id on @t: the low sq_msg_id_bits of it.
 *
 * Return: @event_id masked to the target's SQ id bits (0 for a NULL target).
 */
KFDSIG_API uint32_t kfdsig_shader_kfd_id(const struct kfdsig_target *t, uint32_t event_id);

/**
 * kfdsig_shader_patch() - write the slot address and event id into a copy
 * of a raw stub.
 * @s:        a KFDSIG_SHADER_RAW stub from kfdsig_shader_stub()
 * @code:     the caller's copy of s->bytes
 * @size:     bytes in @code, at least s->size
 * @slot_va:  GPU address of the slot: kfdsig_slot_va(page, event_id);
 *            non-zero, 8-byte aligned, below 2^48
 * @event_id: 1..4095; the full id goes into m0
 *
 * Writes exactly the 12 bytes at s->patch_offset[] and nothing else.
 *
 * Return: 0 when KFD receives the whole id; KFDSIG_SHADER_PARTIAL_ID when the
 * id is wider than s->sq_id_bits and KFD receives only its low bits: its
 * partial-id walk (kfd_events.c lookup_signaled_event_by_partial_id) then
 * takes the FIRST signalled event whose id has the same low bits (id mod 256,
 * + 256, + 512, ... on gfx8), so this event wakes only while no lower one of
 * them has a signalled slot; -EINVAL
 * for a code-object stub, a NULL pointer, an id outside 1..4095 or a bad
 * address; -ENOSPC when @size < s->size. Nothing is written on error.
 */
KFDSIG_API int kfdsig_shader_patch(const struct kfdsig_shader_stub *s, void *code, size_t size,
				   uint64_t slot_va, uint32_t event_id);

/**
 * kfdsig_shader_kernargs() - fill the kernel-argument block of a
 * code-object stub.
 * @s:        a KFDSIG_SHADER_CODE_OBJECT stub
 * @kernarg:  the caller's buffer, KFDSIG_SHADER_KERNARG_SIZE bytes
 * @size:     bytes in @kernarg
 * @slot_va:  as for kfdsig_shader_patch()
 * @event_id: as for kfdsig_shader_patch()
 *
 * Return: as kfdsig_shader_patch(); -EINVAL for a raw stub.
 */
KFDSIG_API int kfdsig_shader_kernargs(const struct kfdsig_shader_stub *s, void *kernarg,
				      size_t size, uint64_t slot_va, uint32_t event_id);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_SHADER_H */
