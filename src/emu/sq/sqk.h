/* SPDX-License-Identifier: MIT */
/*
 * The kernel interpreter of the emulated shader unit: runs compiled compute
 * kernels (what LLVM emits for AMDHSA code objects) on GCN3 (gfx801-803),
 * GCN5/CDNA (gfx900,
 * gfx906, gfx908, gfx90a, gfx940-942, gfx950, wave64), RDNA1 (gfx1010-1012),
 * RDNA2 (gfx1030-1036), RDNA3/3.5 (gfx1100-1103, gfx1150, gfx1151) and RDNA4
 * (gfx1200, gfx1201) (wave32 and wave64). Internal to libkfdsig (docs/emu-shader-unit.md).
 *
 * Files: sqk_isa.c (families, decode; the opcode tables are sqk_tab.c,
 * one per family; the gfx11 and gfx12 encodings sqk_dec_gfx11.c), sqk_salu.c (scalar ALU, branches, SMEM), sqk_valu.c
 * (vector ALU), sqk_mem.c (GPU VM access, FLAT/GLOBAL/SCRATCH/MUBUF),
 * sqk_lds.c (DS), sqk_wave.c (dispatch, workgroups, barriers, the run loop),
 * sqk_print.c (the instructions in llvm-objdump's syntax).
 */
#ifndef KFDSIG_EMU_SQK_H
#define KFDSIG_EMU_SQK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Instruction encodings. */
enum sqk_enc {
	SQK_ENC_NONE = 0,
	SQK_SOP2,
	SQK_SOPK,
	SQK_SOP1,
	SQK_SOPC,
	SQK_SOPP,
	SQK_SMEM,
	SQK_VOP1,
	SQK_VOP2,
	SQK_VOPC,
	SQK_VOP3,
	SQK_VOP3P,
	SQK_FLAT,
	SQK_GLOBAL,
	SQK_SCRATCH,
	SQK_DS,
	SQK_MUBUF,
	SQK_VOPD,  /* gfx11 dual issue: opcode X, or 32 + opcode Y */
	SQK_VOPD3, /* gfx1250 three-operand dual issue: opcode X, or 64 + opcode Y */
	SQK_NENC
};

/* Operations, by LLVM mnemonic. */
enum sqk_op {
	K_INVALID = 0,
#define X(n) K_##n,
#include "emu/sq/sqk_ops.def"
#undef X
	K_COUNT
};

/* gfx12's VOP3 operations with an SGPR destination (v_s_exp_f32 to
 * v_s_sqrt_f16, one block of sqk_ops.def) */
static inline bool sqk_op_v_s(unsigned op)
{
	return op >= K_v_s_exp_f32 && op <= K_v_s_sqrt_f16;
}

/* One row of a family's opcode table (sqk_tab.c). */
struct sqk_opent {
	uint8_t enc;
	uint16_t opcode;
	uint16_t op;
};

extern const struct sqk_opent sqk_tab_gfx900[], sqk_tab_gfx906[], sqk_tab_gfx908[],
	sqk_tab_gfx90a[], sqk_tab_gfx940[], sqk_tab_gfx1030[], sqk_tab_gfx1010[], sqk_tab_gfx1011[],
	sqk_tab_gfx950[], sqk_tab_gfx1100[], sqk_tab_gfx803[], sqk_tab_gfx1200[], sqk_tab_gfx1250[],
	sqk_tab_gfx1150[];
/* The true16 forms of the gfx11 and gfx12 tables (generated beside them):
 * per operation, the operands that are 16-bit register halves, bits 0-2 the
 * sources and 3 the destination (as VOP3 op_sel), 0: no true16 form. */
extern const uint8_t sqk_t16[K_COUNT];

/*
 * ISA generations, in order: what the decoder keys its field layouts and
 * operand codes on (one per "Microcode Formats" chapter of the ISA
 * manuals). A family's finer differences are its bools below.
 */
enum sqk_gen {
	SQK_GEN_GFX8 = 1, /* GCN3: gfx801-810 */
	SQK_GEN_GFX9,	  /* GCN5 / CDNA: gfx900-gfx950 */
	SQK_GEN_GFX10,	  /* RDNA1: gfx1010-1013 */
	SQK_GEN_GFX10_3,  /* RDNA2: gfx1030-1036 */
	SQK_GEN_GFX11,	  /* RDNA3 / 3.5 / GC 11.7: gfx1100-1171 */
	SQK_GEN_GFX12,	  /* RDNA4: gfx1200-1201 */
	SQK_GEN_GFX12_5,  /* GC 12.5 (gfx1250) */
};

/* A family: its table and the facts the decoder and the interpreter key on. */
struct sqk_family {
	const char *name;
	const struct sqk_opent *tab;
	enum sqk_gen gen;
	bool gfx10;	   /* RDNA layouts (VOP3 0x35, SMEM 0x3d, DS op at 18, null 125) */
	bool packed_tid;   /* work-item ids packed in v0 (gfx90a, gfx940) */
	bool agprs;	   /* accumulation VGPRs (gfx908 on) */
	bool agpr_unified; /* AGPRs after the VGPRs (gfx90a, gfx940): acc bit of memory ops */
	bool arch_scratch; /* architected flat scratch (gfx940): no flat scratch init SGPRs */
	bool dpp_newbcast; /* DPP row_newbcast (gfx90a, gfx940) */
	bool release_wb;   /* a system-scope release writes L2 back (sqk_rel.c) */
	uint16_t lookup[SQK_NENC][1024];
};

/* The family of a gfx_target_version (major*10000+minor*100+step), NULL:
 * the interpreter does not run it. */
const struct sqk_family *sqk_family_of(uint32_t gfx_target_version);

/* Mnemonic of an operation. */
const char *sqk_op_name(unsigned op);

/* Scalar operand codes. */
#define SQK_VCC 106
#define SQK_M0 124
#define SQK_NULL10 125 /* gfx10 */
#define SQK_EXEC 126
#define SQK_LIT 255
#define SQK_LIT64 254 /* gfx1250: a 64-bit literal, two dwords */

/* DPP / SDWA source forms. */
enum sqk_ext { SQK_EXT_NONE = 0, SQK_EXT_SDWA, SQK_EXT_DPP, SQK_EXT_DPP8 };

/* One decoded instruction. */
struct sqk_insn {
	uint64_t pc;
	uint32_t w[4];
	uint8_t size; /* bytes, literal included */
	uint8_t enc;
	uint16_t opcode;
	uint16_t op;	  /* enum sqk_op, K_INVALID: not implemented */
	uint16_t src[3];  /* operand codes: scalar 0-255, VGPR 256 + n */
	uint16_t dst;	  /* VGPR 256 + n, or scalar code */
	uint16_t sdst;	  /* VOP3b / VOPC-in-VOP3 scalar destination */
	uint32_t lit;	  /* literal */
	uint32_t lit_hi;  /* a 64-bit literal's high dword (gfx1250 lit64) */
	uint8_t abs, neg; /* VOP3 per-source bits */
	uint8_t neg_hi;	  /* VOP3P */
	uint8_t opsel, opsel_hi;
	bool clamp;
	uint8_t omod;
	uint8_t rc; /* what the release check notes of it (sqk_rel.c), 0: nothing */
	/* set with rc: s_waitcnt's vmcnt and lgkmcnt; the SGPRs a scalar
	 * load writes, from wlgkm to wvm; a vector memory access's counter
	 * (wvm) and whether it returns data (wlgkm) */
	uint8_t wvm, wlgkm;
	uint16_t simm16;
	int32_t offset; /* SMEM / FLAT / MUBUF / DS immediate offset */
	uint16_t soffset;
	uint8_t offset0, offset1;
	bool glc, slc, gds, offen, idxen, imm, acc;
	bool scale;	/* gfx1250 scale_offset: the VGPR offset times the data size */
	uint16_t saddr; /* FLAT saddr code, 0xffff: off */
	bool sve;	/* gfx940 scratch: vaddr used with saddr */
	bool vaddr_off; /* scratch ST mode: no vaddr */
	uint8_t vaddr, vdata, srsrc;
	uint8_t ext;   /* enum sqk_ext */
	uint32_t extw; /* the SDWA / DPP dword */
	/* VOPD, VOPD3: the Y half (the X half is op, src[], dst, neg) */
	uint16_t opy, srcy[3], dsty;
	uint8_t negy;	/* VOPD3: the Y half's neg bits */
	uint8_t bitop3; /* VOPD3 v_dual_bitop2_b32: its truth table */
};

/* Decode the instruction in @w (up to 3 dwords available: @avail). Return
 * the size in bytes, or 0 when the words are not an instruction of the
 * family (in->enc/opcode still say what was seen). */
unsigned sqk_decode(const struct sqk_family *f, const uint32_t *w, unsigned avail,
		    struct sqk_insn *in);

/* Whether every scalar operand code of @in is one the family can read (not
 * reserved, not an unmodelled source): the fetch refuses the rest as an
 * illegal instruction. */
bool sqk_operands_ok(const struct sqk_family *f, const struct sqk_insn *in);

/* The instruction as llvm-objdump (LLVM 22) prints it, mnemonic and
 * operands (sqk_print.c): the length written (truncated to @len - 1);
 * -ENOTSUP for an instruction or operand form the printer does not know
 * (what the signal stubs use it does), -EINVAL for bad arguments. */
int sqk_format(const struct sqk_family *f, const struct sqk_insn *in, char *buf, size_t len);

/* The counts an s_waitcnt simm16 names on generation @g (sqk_print.c). */
void sqk_waitcnt_fields(enum sqk_gen g, uint16_t simm16, unsigned *vm, unsigned *exp,
			unsigned *lgkm);

/* The RDNA3 and later encodings (SQK_GEN_GFX11 on; sqk_dec_gfx11.c), which
 * sqk_decode() hands on. */
unsigned sqk_decode_gfx11(const struct sqk_family *f, const uint32_t *w, unsigned avail,
			  struct sqk_insn *in);

/* An address watch point as amdkfd programs TCP_WATCHn (kfd_debug.c
 * kfd_dbg_trap_set_dev_address_watch(), the gfx9 kgd op
 * kgd_gfx_v9_set_address_watch()): @mode KFD_DBG_TRAP_ADDRESS_WATCH_MODE_*
 * (kfd_ioctl.h: 0 read, 1 nonread, 2 atomic, 3 all), @id 0-3. */
#define SQK_WATCHES 4
struct sqk_watch {
	uint64_t addr;
	uint32_t mask;
	uint8_t mode, id;
	/* without precise memory operations (the debugger's
	 * KFD_DBG_TRAP_FLAG_SINGLE_MEM_OP off): the exception is reported
	 * when the access returns, after the wave's next instruction here */
	bool late;
};

/* The memory, message and trap services of the emulated device. */
struct sqk_env {
	void *ctx;
	/* Host address of [va, va + len) in the GPU VM, or NULL: not all
	 * mapped in one host range (*ro false) or not writable for a write
	 * (*ro true). @len: up to 2 MiB, @va a multiple of it when it is
	 * more than 4 KiB (the interpreter asks for a 2 MiB block first,
	 * then a 64 KiB one, then its page). */
	void *(*xlate)(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro);
	/* s_sendmsg: message id, m0. Negative: stop the dispatch. */
	int (*message)(void *ctx, uint32_t msg, uint32_t m0);
	/* s_trap: 1 steps over it; 0 the wave stops (trapped); negative: error. */
	int (*trap)(void *ctx, uint8_t trap_id);
	/* true: stop now (the queue is stopping); polled between quanta. */
	bool (*stop)(void *ctx);
	/* GPU clock for s_memtime / s_memrealtime (may be NULL). */
	uint64_t (*clock)(void *ctx);
	/* The second-level trap handler the waves run as code (GC 9 to 12
	 * layouts), read once per dispatch; 0 (or NULL hook): none, and
	 * s_trap goes to .trap. With one, a trap enters it as the kernel's
	 * first-level CWSR handler leaves a wave there (ttmp0/1 the PC with
	 * the trap id in ttmp1[23:16], GC 12 [31:28]; TRAPSTS, GC 12
	 * EXCP_FLAG_PRIV, the cause) and s_rfe_b64
	 * returns; s_sendmsg inside it carries SQK_MSG_PRIV. */
	uint64_t (*trap_base)(void *ctx);
	/* SQK_WAVE_TRAP_START / _END: the traps on wave start and end
	 * enabled (a debugger's wave launch override), read once per
	 * dispatch. */
	uint32_t (*wave_traps)(void *ctx);
	/* The address watch points whose exception the debugger enabled,
	 * read once per dispatch with a trap handler: their number. A hit
	 * enters the handler after the access with TRAPSTS ADDR_WATCHn. */
	unsigned (*watches)(void *ctx, struct sqk_watch wp[SQK_WATCHES]);
	/* Optional: GC 12 HW_REG_HW_ID1 of the waves of workgroup @group
	 * (the dispatch's flat workgroup index): where the SPI placed it;
	 * NULL: the register is refused. */
	uint32_t (*hw_id1)(void *ctx, uint64_t group);
	/* MSG_GET_DOORBELL: the wave's queue's doorbell id. */
	uint32_t (*doorbell)(void *ctx);
	/* Optional: what the release check (sqk_rel.c) finds, as it finds
	 * it: SQK_CHECK_UNRELEASED, an s_sendmsg(MSG_INTERRUPT) at @pc sent
	 * while the wave's store at @store_pc was not released at system
	 * scope; SQK_CHECK_M0_HAZARD, an s_sendmsg at @pc right after an SALU
	 * write of m0 (gfx8/gfx9); SQK_CHECK_SGPR_UNWAITED, the instruction at
	 * @pc reads an SGPR the scalar load at @store_pc writes before a wait
	 * for it. Called before the message goes out (the instruction runs). */
	void (*check)(void *ctx, unsigned kind, uint64_t pc, uint64_t store_pc);
};

#define SQK_CHECK_UNRELEASED 1u
#define SQK_CHECK_M0_HAZARD 2u
#define SQK_CHECK_SGPR_UNWAITED 3u

/* s_sendmsg from inside the trap handler: the SQ interrupt's PRIV bit
 * (kfd_int_process_v9.c, context_id0[13]), or'ed into .message's msg. */
#define SQK_MSG_PRIV 0x100u
#define SQK_WAVE_TRAP_START 1u
#define SQK_WAVE_TRAP_END 2u

/* TRAPSTS bits of a trap's cause (GC 9/10): ADDR_WATCH0 EXCP[7], 1-3 in
 * EXCP_HI [14:12] (cwsr_trap_handler_gfx9.asm SQ_WAVE_TRAPSTS_EXCP_HI);
 * wave start and end: kfdtest's TrapHandlerIsa tests 0x1800000 before
 * GFX11; which of bits 23 and 24 is which is UNVERIFIED (start 23 here). */
#define SQK_TRAPSTS_WATCH0 (1u << 7)
#define SQK_TRAPSTS_WATCH1 (1u << 12)
#define SQK_TRAPSTS_WAVE_START (1u << 23)
#define SQK_TRAPSTS_WAVE_END (1u << 24)

/* A dispatch as the packet processor sets it up. */
struct sqk_dispatch {
	const struct sqk_family *fam;
	uint64_t entry;		      /* first instruction */
	uint32_t rsrc1, rsrc2, rsrc3; /* COMPUTE_PGM_RSRC1/2/3 */
	uint16_t props;		      /* kernel_code_properties (AQL); 0 for PM4 */
	bool aql;		      /* user SGPRs from the properties (else user_data) */
	bool wave32;
	uint32_t wg[3];	  /* workgroup size */
	uint32_t grid[3]; /* grid size in work-items */
	uint64_t kernarg, dispatch_ptr, queue_ptr, dispatch_id;
	uint16_t preload;		    /* kernarg preload: [6:0] dwords, [15:7] offset */
	const uint32_t *user_data;	    /* PM4: COMPUTE_USER_DATA_0..15 */
	uint32_t lds_bytes;		    /* group segment */
	uint32_t priv_bytes;		    /* private segment per work-item */
	uint64_t shared_base, private_base; /* flat apertures */
	/*
	 * Private memory lives in the scratch backing the queue holds (LLVM
	 * AMDGPUUsage "Private Segment", "Initial Kernel Execution State"):
	 * @scratch_waves wave slots (COMPUTE_TMPRING_SIZE.WAVES) of
	 * @scratch_wave_bytes (WAVESIZE in bytes) from @scratch_va;
	 * @scratch_bytes the backing's size (AQL: amd_queue_t
	 * scratch_backing_memory_byte_size; 0: unknown, PM4). A wave's slot
	 * offset is its private segment wave offset SGPR; architected flat
	 * scratch (gfx940, gfx11) starts FLAT_SCRATCH at @scratch_va plus it.
	 * @scratch_srd: the private segment buffer V# of an AQL wave.
	 */
	uint64_t scratch_va, scratch_bytes;
	uint32_t scratch_wave_bytes, scratch_waves;
	uint32_t scratch_srd[4];
	/* The GWS the queue holds (ALLOC_QUEUE_GWS; sqk_gws_new()), NULL:
	 * none, the ds_gws_* operations are illegal. Its workgroups then run
	 * all at once where they can (one host thread each). */
	struct sqk_gws *gws;
	/* One XCC's share of a dispatch split among the @parts XCCs of a
	 * node: of the workgroups in order (X fastest), chunks of @chunk
	 * taken by the XCCs in turn, this run the chunks from @part on,
	 * every @parts-th (sqk_share()); each workgroup keeps the ids of its
	 * place in the whole grid. @parts 0 or 1: the whole grid. */
	uint32_t parts, part, chunk;
};

/* The workgroups of @total that share @part of @d runs (all of them for
 * an unsplit dispatch). */
uint64_t sqk_share(const struct sqk_dispatch *d, uint64_t total);

/* The 64 GWS barrier/semaphore resources of a queue's GWS (sqk_gws.c),
 * kept across dispatches. */
struct sqk_gws;
struct sqk_gws *sqk_gws_new(void);
void sqk_gws_free(struct sqk_gws *g);

/* How a dispatch ended. */
struct sqk_result {
	int err; /* 0; -EFAULT fault; -ENOTSUP illegal instruction; -EINTR stopped; -EPROTO */
	bool trapped;
	uint8_t trap_id;
	uint64_t pc;
	uint64_t fault_va;
	bool fault_write, fault_ro;
	uint64_t insns; /* wave-instructions executed */
	uint64_t waves;
	uint64_t replayed; /* waves replayed, not run (sqk_wave.c "Replay") */
	unsigned threads;  /* host threads that ran the workgroups */
	char msg[200];
	/* The release check (sqk_rel.c), over every wave: s_sendmsg
	 * (MSG_INTERRUPT) messages, those sent while a store of their wave
	 * was not released at system scope and those right after an SALU
	 * write of m0 (gfx8/gfx9); the first of each (its message's and its
	 * store's addresses). */
	uint64_t interrupts, unreleased, m0_hazards;
	uint64_t unreleased_pc, unreleased_store_pc, m0_hazard_pc;
	/* reads of an SGPR before the wait for the scalar load writing it;
	 * the first's instruction and load */
	uint64_t sgpr_unwaited, sgpr_unwaited_pc, sgpr_unwaited_load_pc;
};

/* Run a dispatch to completion: every workgroup, in order (X fastest) on one
 * host thread, or taken in that order by several (sqk_wave.c: a dispatch
 * of 64 workgroups or more, one thread per online CPU, at most 8;
 * KFDSIG_EMU_SQ_THREADS=N sets the number). Return 0, or res->err; a
 * trapped wave returns 1 (res->trapped). With several threads, the failure
 * reported is that of the lowest workgroup that failed. */
int sqk_run(const struct sqk_dispatch *d, const struct sqk_env *env, struct sqk_result *res);

/* Trace hook for -v: called with each failure's message (may be NULL). */
extern void (*sqk_trace)(const char *msg);

#endif
