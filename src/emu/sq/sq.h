/* SPDX-License-Identifier: MIT */
/*
 * Emulated shader unit (SQ): runs one wave of a kfdsig signal stub.
 *
 * Internal to libkfdsig (not public API). The emulated CP hands it the
 * program (code buffer, its GPU VA, the entry VA), the initial SGPRs it
 * loaded from COMPUTE_USER_DATA, the wave size and callbacks that read and
 * write GPU virtual addresses. sq_run() decodes and executes the
 * wave until s_endpgm and reports, in program order, every memory access,
 * wait, cache writeback and s_sendmsg, with for each s_sendmsg the m0 value
 * and the SQ interrupt data the hardware puts in the IV (m0 cut to the
 * target's sq_msg_id_bits) and whether every earlier store was released at
 * system scope first.
 *
 * Only the instructions kfdsig's stubs use are implemented (see
 * docs/emu-shader-unit.md); anything else stops the wave with -ENOTSUP and
 * an error naming the instruction word(s) and address.
 *
 * Kept for gfx1250 only: the emulated CP runs it for the targets the kernel
 * interpreter (sqk.h) does not run, gfx1250 today; the kernel interpreter
 * runs every other target's stubs and its release check (sqk_rel.c) is
 * this unit's release model. It goes when gfx1250 decodes there.
 */
#ifndef KFDSIG_EMU_SQ_H
#define KFDSIG_EMU_SQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kfdsig/target.h>

#include "emu/emu_gen.h"

/* s_sendmsg message id that raises SQ_INTERRUPT_MSG (LLVM SIDefines.h SendMsg::ID_INTERRUPT). */
#define KFDSIG_SQ_MSG_INTERRUPT 1

/* Limits of one run. */
#define KFDSIG_SQ_MAX_EVENTS 64
#define KFDSIG_SQ_MAX_USER_SGPRS 16
#define KFDSIG_SQ_DEFAULT_MAX_INSNS 4096

struct sq_event;

/* Normalised memory scope of a store or a writeback. */
enum sq_scope {
	KFDSIG_SQ_SCOPE_CU = 0, /* default: no cache-policy bits */
	KFDSIG_SQ_SCOPE_SE,
	KFDSIG_SQ_SCOPE_DEV,
	KFDSIG_SQ_SCOPE_SYS,
};

/* What a decoded instruction does. */
enum sq_op {
	KFDSIG_SQ_OP_INVALID = 0,
	KFDSIG_SQ_OP_S_NOP,
	KFDSIG_SQ_OP_S_ENDPGM,
	KFDSIG_SQ_OP_S_CODE_END,
	KFDSIG_SQ_OP_S_WAITCNT,	      /* gfx8-gfx11 */
	KFDSIG_SQ_OP_S_WAITCNT_VSCNT, /* gfx10, gfx11 */
	KFDSIG_SQ_OP_S_WAIT_LOADCNT,  /* gfx12 s_wait_* */
	KFDSIG_SQ_OP_S_WAIT_STORECNT,
	KFDSIG_SQ_OP_S_WAIT_SAMPLECNT,
	KFDSIG_SQ_OP_S_WAIT_BVHCNT,
	KFDSIG_SQ_OP_S_WAIT_EXPCNT,
	KFDSIG_SQ_OP_S_WAIT_DSCNT,
	KFDSIG_SQ_OP_S_WAIT_KMCNT,
	KFDSIG_SQ_OP_S_SENDMSG,
	KFDSIG_SQ_OP_S_MOV_B32,
	KFDSIG_SQ_OP_S_MOV_B64,
	KFDSIG_SQ_OP_S_MOVK_I32,
	KFDSIG_SQ_OP_S_LOAD,	  /* SMEM s_load_dword{,xN} / s_load_bN */
	KFDSIG_SQ_OP_V_MOV_B32,	  /* VOP1 (e32) or VOP3 (e64) */
	KFDSIG_SQ_OP_STORE,	  /* FLAT/GLOBAL store, 1-4 dwords */
	KFDSIG_SQ_OP_BUFFER_WBL2, /* MUBUF, gfx90a and gfx94x */
	KFDSIG_SQ_OP_GLOBAL_WB,	  /* VGLOBAL, gfx12 */
	KFDSIG_SQ_OP_S_TRAP,	  /* SOPP s_trap: the wave stops (trap status) */
};

/* Hardware wait counters; a wait names a count for some of them. */
enum sq_counter {
	KFDSIG_SQ_CNT_VM = 0, /* vmcnt (gfx8-11 loads; gfx8/9 stores) */
	KFDSIG_SQ_CNT_EXP,
	KFDSIG_SQ_CNT_LGKM, /* lgkmcnt: SMEM, LDS/GDS, messages, flat */
	KFDSIG_SQ_CNT_VS,   /* vscnt: gfx10/gfx11 stores */
	KFDSIG_SQ_CNT_LOAD, /* gfx12 */
	KFDSIG_SQ_CNT_STORE,
	KFDSIG_SQ_CNT_SAMPLE,
	KFDSIG_SQ_CNT_BVH,
	KFDSIG_SQ_CNT_DS,
	KFDSIG_SQ_CNT_KM,
	KFDSIG_SQ_CNT_COUNT
};

/* Operand codes of scalar/vector sources beyond the raw 9-bit field. */
#define KFDSIG_SQ_OPND_NONE 0xffff

/* One decoded instruction. Operand fields hold raw operand codes (scalar
 * 0-255, VGPR 256 + n) so the formatter can print them as LLVM does. */
struct sq_insn {
	uint64_t pc;
	uint32_t words[4]; /* raw dwords, literal included */
	uint8_t size;	   /* bytes, literal included */
	const char *enc;   /* "SOPP", "SMEM", "VGLOBAL", ... */
	uint16_t opcode;   /* raw opcode field */
	enum sq_op op;

	uint16_t dst;  /* sdst / sdata / vdst (VGPR number) */
	uint16_t src0; /* source operand code */
	uint32_t literal;
	bool has_literal;
	bool e64;	 /* VOP3 form of v_mov_b32 */
	uint16_t simm16; /* SOPP / SOPK immediate */

	uint8_t ndw;		  /* dwords loaded, stored or moved */
	uint8_t sbase;		  /* SMEM: first SGPR of the base pair */
	int32_t offset;		  /* SMEM / FLAT immediate offset */
	uint16_t soffset;	  /* SMEM soffset operand code, or NONE */
	bool soffset_is_imm_slot; /* gfx8/9 imm=0: offset field is an SGPR */
	uint8_t vaddr, vdata;
	uint16_t saddr; /* FLAT saddr SGPR pair, or NONE ("off") */
	uint8_t seg;	/* FLAT segment: 0 flat, 1 scratch, 2 global */
	/* Cache policy as encoded: gfx8-11 GLC/SLC/DLC/SCC bits (gfx940
	 * SC0/NT/SC1 share the GLC/SLC/SCC positions); gfx12 th and scope. */
	bool glc, slc, dlc, scc;
	uint8_t th, scope;
	enum sq_scope mem_scope; /* normalised */

	int16_t wait[KFDSIG_SQ_CNT_COUNT]; /* count, or -1: not waited on */
};

/* Memory and message callbacks of the emulated device. */
struct sq_env {
	void *ctx;
	/* Read/write len bytes at GPU VA va; return 0, or a negative errno
	 * (-EFAULT) when the address is not mapped: the wave then stops with
	 * a memory fault. */
	int (*read)(void *ctx, uint64_t va, void *dst, uint32_t len);
	int (*write)(void *ctx, uint64_t va, const void *src, uint32_t len);
	/* Optional: called at each s_sendmsg, in program order, with the
	 * event just recorded. A negative return stops the wave with it. */
	int (*message)(void *ctx, const struct sq_event *ev);
	/* Optional: the trap handler, called at each s_trap with its event.
	 * 0 (or no hook): the wave stops there, sq_run() returns
	 * KFDSIG_SQ_TRAPPED; 1: the handler returned past the s_trap and the
	 * wave goes on (as the kernel's CWSR handler does with no second-level
	 * handler, and ROCr's for llvm.debugtrap with no debugger); negative:
	 * the wave stops with that error. */
	int (*trap)(void *ctx, const struct sq_event *ev);
};

/* The wave to run. */
struct sq_wave {
	const struct kfdsig_target *target;
	/* The program bytes, code_size of them, mapped at GPU VA code_va; or
	 * code NULL: instructions are fetched through env->read. */
	const void *code;
	size_t code_size;
	uint64_t code_va;
	uint64_t entry_va; /* first instruction (COMPUTE_PGM_LO/HI) */
	/* Initial SGPRs s[0 .. num_sgprs-1] (user SGPRs: kernarg pointer in
	 * s[0:1] for the kernel-argument stub form). */
	const uint32_t *sgprs;
	unsigned num_sgprs;
	unsigned wave_size; /* 64; or 32 on gfx10 and later */
	uint64_t exec;	    /* initial EXEC; 0 means all wave_size lanes */
	uint32_t max_insns; /* 0: KFDSIG_SQ_DEFAULT_MAX_INSNS */
};

enum sq_event_kind {
	KFDSIG_SQ_EV_LOAD = 0,	/* scalar load (SMEM) */
	KFDSIG_SQ_EV_STORE,	/* vector store (FLAT/GLOBAL) */
	KFDSIG_SQ_EV_WRITEBACK, /* buffer_wbl2 / global_wb */
	KFDSIG_SQ_EV_WAIT,
	KFDSIG_SQ_EV_MSG,  /* s_sendmsg */
	KFDSIG_SQ_EV_END,  /* s_endpgm */
	KFDSIG_SQ_EV_TRAP, /* s_trap: the wave stopped there */
};

/* sq_run() return value: the wave stopped at an s_trap (rep->trapped). */
#define KFDSIG_SQ_TRAPPED 1

/* One entry of the ordered event log. */
struct sq_event {
	enum sq_event_kind kind;
	uint64_t pc;
	/* LOAD / STORE: address of the first active lane, bytes per lane,
	 * first 8 bytes of its data (little endian), active lanes and the
	 * number of distinct write callbacks made (identical lanes merged). */
	uint64_t va;
	uint32_t bytes;
	uint64_t value;
	unsigned lanes, writes;
	/* STORE / WRITEBACK: normalised scope of the cache-policy bits. */
	enum sq_scope scope;
	/* WAIT: the counts waited for (-1: counter not waited on). */
	int16_t wait[KFDSIG_SQ_CNT_COUNT];
	/* MSG */
	uint16_t simm16;
	uint8_t msg_id;	  /* message type: simm16[3:0] (<gfx11), [7:0] */
	bool interrupt;	  /* msg_id == MSG_INTERRUPT */
	uint32_t m0;	  /* full m0 at the message */
	uint32_t sq_data; /* m0 cut to the target's sq_msg_id_bits */
	bool released;	  /* every earlier store released at system scope */
	int unreleased;	  /* event index of the first store that was not */
	bool m0_hazard;	  /* gfx8/9: SALU m0 write right before, no wait state */
	/* The IH ring entry's context words for this message (see
	 * sq_iv_context()). */
	uint32_t ctx0, ctx1;
	/* TRAP: the trap id, s_trap's simm16[7:0] (the 8-bit TRAP_ID the
	 * hardware puts in the saved PC_HI: ROCr trap_handler.s
	 * SQ_WAVE_PC_HI_TRAP_ID_SIZE). */
	uint8_t trap_id;
};

struct sq_report {
	unsigned nevents;
	struct sq_event ev[KFDSIG_SQ_MAX_EVENTS];
	unsigned insns;	 /* instructions executed */
	bool ended;	 /* reached s_endpgm */
	bool trapped;	 /* stopped at an s_trap (sq_run() returned KFDSIG_SQ_TRAPPED) */
	uint8_t trap_id; /* its trap id */
	uint64_t pc;	 /* s_endpgm's or s_trap's address, or the failing instruction's */
	/* On failure: the negative errno sq_run() returned and why. */
	int error;
	char msg[256];
	/* Memory fault (error == -EFAULT). */
	bool fault;
	bool fault_write;
	uint64_t fault_va;
};

/**
 * sq_decode() - decode the instruction at pc.
 * @t:    target whose encodings apply
 * @code: program bytes, mapped at code_va, code_size bytes long
 * @pc:   GPU VA of the instruction (4-byte aligned, inside the buffer)
 * @insn: the decoded instruction
 *
 * Return: the size in bytes (4 to 16); -ENOTSUP for an instruction this
 * unit does not implement (insn->words/size/enc still describe what was
 * seen), -EINVAL for bad arguments, -EFAULT when the instruction (or its
 * literal) runs past the buffer. The reason is in kfdsig_last_error().
 */
int sq_decode(const struct kfdsig_target *t, const void *code, size_t code_size, uint64_t code_va,
	      uint64_t pc, struct sq_insn *insn);

/**
 * sq_format() - print a decoded instruction the way llvm-objdump
 * (LLVM 22) prints it: mnemonic and operands, no encoding comment.
 *
 * Return: the length written (truncated to len - 1), or -EINVAL.
 */
int sq_format(const struct kfdsig_target *t, const struct sq_insn *insn, char *buf, size_t len);

/**
 * sq_run() - execute one wave until s_endpgm or an s_trap.
 * @w:   the wave (target, program, entry, initial SGPRs, wave size, EXEC)
 * @env: memory callbacks (read and write required), optional message and
 *       trap hooks
 * @rep: filled with the event log and the outcome (always, even on error)
 *
 * Return: 0 when the wave reached s_endpgm; KFDSIG_SQ_TRAPPED when it
 * stopped at an s_trap (rep->trapped, rep->trap_id, rep->pc: nothing after
 * the s_trap ran); -ENOTSUP for an unimplemented
 * instruction, -EFAULT for a memory fault (rep->fault_va; also an
 * instruction fetch when code is NULL), -EPROTO for a
 * program error (running off the code, s_code_end executed, an SGPR read
 * before the scalar load writing it was waited for), -E2BIG when the event
 * log is full, -ELOOP past max_insns, -EINVAL for bad arguments, or what the
 * message hook returned. rep->msg and kfdsig_last_error() say why, naming
 * the instruction and its address.
 */
int sq_run(const struct sq_wave *w, const struct sq_env *env, struct sq_report *rep);

/**
 * sq_iv_context() - the IV context words of an s_sendmsg interrupt.
 * @t:    target (its irq_class decides the layout)
 * @m0:   the wave's m0 at the message
 * @ctx0: context_id0 (IH ring entry dword 4)
 * @ctx1: context_id1 (dword 5)
 *
 * Builds SQ_INTERRUPT_WORD_WAVE_CTXID for a normal (PRIV = 0) wave with
 * ENCODING = 1 ("INST", s_sendmsg), all location fields (SE, SH, CU/WGP,
 * SIMD, wave) 0, as amdkfd's handlers decode it (kfd_int_process_v9.c, kfd_int_process_v10.c, kfd_int_process_v11.c): v9 and
 * v9_4_3 scatter m0[23:0] into ctx0[11:0], ctx0[31:28] and ctx1[7:0]
 * (KFD_CONTEXT_ID_GET_SQ_INT_DATA) with ENCODING at ctx0[27:26]; v10 puts
 * m0[22:0] in ctx0[22:0], v11 m0[23:0] in ctx0[23:0], both with ENCODING
 * at ctx1[7:6]. The CIK (gfx8) layout beyond the 8 bits the handler reads
 * is UNVERIFIED: ctx0 = m0[7:0], ctx1 = 0.
 *
 * Return: 0, or -EINVAL for a NULL argument.
 */
int sq_iv_context(const struct kfdsig_target *t, uint32_t m0, uint32_t *ctx0, uint32_t *ctx1);

/** sq_event_name() - "load", "store", "writeback", "wait", "msg", "end", "trap". */
const char *sq_event_name(enum sq_event_kind k);

/** sq_scope_name() - "cu", "se", "dev", "sys". */
const char *sq_scope_name(enum sq_scope s);

#endif /* KFDSIG_EMU_SQ_H */
