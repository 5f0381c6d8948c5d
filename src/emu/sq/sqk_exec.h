/* SPDX-License-Identifier: MIT */
/*
 * Wave state and the executors of the kernel interpreter (sqk_*.c).
 */
#ifndef KFDSIG_EMU_SQK_EXEC_H
#define KFDSIG_EMU_SQK_EXEC_H

#include <errno.h>
#include <math.h>
#include <string.h>

#include "emu/sq/sqk.h"

#define SQK_NV 512     /* VGPRs + AGPRs */
#define SQK_NV_SLACK 8 /* registers past the last, for multi-dword operands */
#define SQK_TLB 128    /* two ways per set (sqk_mem.c xl_miss()) */
#define SQK_BTLB 32    /* two ways per set (sqk_mem.c xl_block()) */

struct sqk_run;

/*
 * The release check (sqk_rel.c): a wave's wait counters as far as they
 * decide whether its stores were released at system scope before an
 * s_sendmsg(MSG_INTERRUPT). Each counter counts the operations issued on
 * it and how many of the oldest a wait has drained; a store is complete
 * when every counter it counts on has drained it. The wave's last stores
 * of each kind (by the counters they count on: those of a kind complete in
 * order) are kept in a ring.
 */
/* VM_CNT (gfx12 LOADCNT), LGKM_CNT (gfx12 KMCNT), VS_CNT (gfx12 STORECNT),
 * gfx12 DSCNT */
enum { SQK_CNT_VM = 0, SQK_CNT_LGKM, SQK_CNT_VS, SQK_CNT_DS, SQK_NCNT };
#define SQK_REL_RING 16
#define SQK_REL_WB 8
#define SQK_REL_SL 8

struct sqk_rel_store {
	uint64_t seq; /* its place on its counter */
	uint64_t idx; /* the wave's store count before it */
	uint64_t pc;
};

struct sqk_rel {
	uint64_t issued[SQK_NCNT], drained[SQK_NCNT];
	/* 1 + the place of the oldest out-of-order operation (SMEM) not
	 * drained, 0: none; only a wait for 0 drains it and what follows */
	uint64_t ooo[SQK_NCNT];
	uint64_t stores; /* stores issued */
	/* stores per kind: 0 a store or an atomic without return (the store
	 * counter), 1 an atomic returning data (VM) */
	uint64_t nst[2];
	uint64_t nwb;		     /* system-scope writebacks issued */
	uint64_t m0_next;	     /* the address after an SALU write of m0 */
	struct {		     /* system-scope writebacks (release_wb) */
		uint64_t seq, cover; /* place on its counter; stores before it */
		unsigned cnt;
	} wb[SQK_REL_WB];
	struct sqk_rel_store st[2][SQK_REL_RING];
	/* SGPRs a scalar load not yet waited for writes (a wait for 0 on its
	 * counter ends them): each load's registers and address, and the
	 * registers of them all */
	bool spending;
	unsigned nsl;
	struct {
		uint64_t m[2], pc;
	} sl[SQK_REL_SL];
	uint64_t um[2];
};

/* SQK_GWS_WAIT: in a GWS barrier or semaphore (sqk_gws.c) */
enum sqk_state { SQK_RUNNING = 0, SQK_BARRIER, SQK_DONE, SQK_GWS_WAIT };

struct sqk_wave {
	uint32_t s[136]; /* 128 + slack for multi-dword operands at the top */
	uint32_t *v;	 /* v[r * 64 + lane] */
	void *v_block;	 /* the allocation v starts in (sqk_wave.c ctx_new()) */
	uint64_t pc;
	bool scc;
	uint8_t lanes;
	uint8_t state;
	uint32_t mode; /* HW_REG_MODE image */
	bool gpr_idx;  /* gfx9 VGPR index mode (s_set_gpr_idx_on) */
	/* FLAT_SCRATCH, the base of the wave's private memory for SCRATCH
	 * and private-aperture FLAT accesses: gfx10 and later s_setreg
	 * HW_REG_FLAT_SCR_LO/HI (or set at launch with architected flat
	 * scratch); gfx9 keeps it in SGPRs 102-103 (sqk_flat_scratch()) */
	uint64_t flat_scratch;
	/* the lane's swizzled private memory of the access in progress:
	 * byte o at pbase + o / pes * pes * pstride + o % pes */
	uint64_t pbase;
	uint32_t pes, pstride;
	struct sqk_run *r;
	/* SQK_GWS_WAIT: the resource, its release count when the wave began
	 * to wait, its semaphore releases (sema_p), waiting in sema_p */
	uint64_t gws_gen, gws_release;
	uint8_t gws_rid;
	bool gws_p;
	/* trap handler (sqk_env.trap_base): TRAPSTS of the trap in
	 * progress, inside it, the wave-end trap taken */
	uint32_t trapsts;
	bool in_trap, end_trapped;
	/* an address watch hit reported late (sqk_watch.late): its TRAPSTS,
	 * instructions to run before the handler */
	uint32_t watch_late;
	uint8_t watch_skip;
	uint64_t group;	    /* the dispatch's flat workgroup index */
	bool bar_signalled; /* gfx12 s_barrier_signal -1 before its s_barrier_wait */
	struct sqk_rel rel; /* the release check (sqk_rel.c) */
};

/* The host threads of one dispatch on a queue with GWS, as the GWS wait
 * sees them (sqk_gws.c; every field under the GWS lock): a thread parks
 * while every live wave of its workgroup waits in GWS; one that has no
 * workgroup left is gone. */
#define SQK_GWS_THREADS 64
struct sqk_gws_waits {
	struct {
		const struct sqk_wave *waves;
		unsigned nw;
		bool parked, gone;
	} t[SQK_GWS_THREADS];
};

/* One dispatch in progress. */
struct sqk_run {
	const struct sqk_dispatch *d;
	const struct sqk_family *f;
	const struct sqk_env *env;
	struct sqk_result *res;
	uint8_t *lds;
	uint32_t lds_size;
	/* the dispatch's workgroups and how many run at once (host threads) */
	uint64_t groups;
	const unsigned *resident;
	struct sqk_gws_waits *gws_waits; /* with a GWS: the dispatch's threads */
	unsigned thread;		 /* this host thread's number in it */
	uint64_t tba;			 /* sqk_env.trap_base, 0: none */
	uint32_t wave_traps;		 /* sqk_env.wave_traps */
	unsigned nwatch;		 /* sqk_env.watches */
	struct sqk_watch watch[SQK_WATCHES];
	bool ftz32, ftz64; /* flush denormals (FLOAT_DENORM_MODE 0) */
	struct {
		uint64_t page;
		uint8_t *host;
		bool w;
	} tlb[SQK_TLB];
	struct { /* 64 KiB blocks one mapping holds, behind the TLB */
		uint64_t block;
		uint8_t *host;
		bool w;
	} btlb[SQK_BTLB];
};

/* Enter the trap handler (r->tba) for the instruction at @pc. */
static inline void sqk_trap_enter(struct sqk_wave *w, uint64_t pc, uint8_t trap_id, uint32_t sts)
{
	/* ttmp0 = PC[31:0], ttmp1 = PC[47:32] | trap id << 16
	 * (cwsr_trap_handler_gfx9.asm S_SAVE_PC_HI_TRAP_ID_MASK 0xff0000);
	 * ttmp0-15 are scalar operand codes 108-123 on GC 9-12 */
	w->s[108] = (uint32_t)pc;
	/* GC 12: the trap id in ttmp1[31:28] (cwsr_trap_handler_gfx12.asm
	 * S_SAVE_PC_HI_TRAP_ID_MASK 0xF0000000); GC 11 as GC 9/10
	 * (cwsr_trap_handler_gfx10.asm) */
	if (w->r->f->gen >= SQK_GEN_GFX12)
		w->s[109] = ((uint32_t)(pc >> 32) & 0xffff) | (uint32_t)(trap_id & 0xf) << 28;
	else
		w->s[109] = ((uint32_t)(pc >> 32) & 0xffff) | (uint32_t)trap_id << 16;
	w->trapsts |= sts;
	w->in_trap = true;
	w->pc = w->r->tba;
}

/* Wave-size helpers: EXEC and VCC as lane masks. */
static inline uint64_t sqk_mask(const struct sqk_wave *w)
{
	return w->lanes == 64 ? ~0ull : 0xffffffffull;
}

static inline uint64_t sqk_get_mask(const struct sqk_wave *w, unsigned reg)
{
	uint64_t m = w->s[reg];

	if (w->lanes == 64)
		m |= (uint64_t)w->s[reg + 1] << 32;
	return m;
}

static inline void sqk_set_mask(struct sqk_wave *w, unsigned reg, uint64_t m)
{
	w->s[reg] = (uint32_t)m;
	if (w->lanes == 64)
		w->s[reg + 1] = (uint32_t)(m >> 32);
}

static inline uint64_t sqk_exec(const struct sqk_wave *w)
{
	return sqk_get_mask(w, SQK_EXEC);
}

/* Architected flat scratch: the hardware sets FLAT_SCRATCH per wave and
 * gives no flat scratch init SGPRs (gfx940/gfx950; gfx11 on: LLVM
 * AMDGPU.td FeatureArchitectedFlatScratch in FeatureISAVersion11_Common). */
static inline bool sqk_arch_scratch(const struct sqk_family *f)
{
	return f->arch_scratch || f->gen >= SQK_GEN_GFX11;
}

/* FLAT_SCRATCH: on gfx9 without architected flat scratch the SGPR pair
 * 102-103 the kernel's prologue writes (AMDGPUUsage "Flat Scratch":
 * flat scratch init plus the wave offset; GFX9 ISA manual, scalar operand
 * codes FLAT_SCRATCH_LO/HI 102/103); elsewhere the wave's register. */
static inline uint64_t sqk_flat_scratch(const struct sqk_wave *w)
{
	if (w->r->f->gen == SQK_GEN_GFX9 && !w->r->f->arch_scratch)
		return w->s[102] | (uint64_t)w->s[103] << 32;
	return w->flat_scratch;
}

/* Stop the dispatch with @err and a message naming the instruction. */
/* sqk_gws.c: the GWS operations (GDS-only DS encodings); is a wave in
 * SQK_GWS_WAIT free to go on; park the thread whose @nw waves all wait
 * or are done until a GWS release or 2 ms (0), or fail the dispatch when
 * every thread of it is parked with no wave released (negative; @more:
 * workgroups of the dispatch not yet started); a thread with no
 * workgroup left is gone. */
int sqk_exec_gws(struct sqk_wave *w, const struct sqk_insn *in);
bool sqk_gws_released(const struct sqk_wave *w);
int sqk_gws_park(struct sqk_run *r, struct sqk_wave *waves, unsigned nw, bool more);
void sqk_gws_gone(struct sqk_run *r, unsigned thread);

int sqk_fail(struct sqk_wave *w, const struct sqk_insn *in, int err, const char *why);

/* Scalar operand read (32 or 64 bits). @f64: float inline constants and
 * literals of a 64-bit float operand. The registers below M0, EXEC, the
 * integer constants and the literal inline (sqk_sread()); the rest (EXEC's
 * high half alone, M0, null, float constants, apertures, the SCC, VCCZ and
 * EXECZ bits) out of line. */
uint64_t sqk_sread_code(struct sqk_wave *w, const struct sqk_insn *in, unsigned code, bool b64,
			bool f64);

/* Dwords of SGPRs a whole-dword scalar load writes (s_load_dword* and
 * s_buffer_load_dword*; gfx12's S_LOAD_B96 is the x3 form); 0 for any
 * other scalar memory operation. One table for the executor and the
 * release check. */
static inline unsigned sqk_smem_load_dwords(unsigned op)
{
	switch (op) {
	case K_s_load_dword:
	case K_s_buffer_load_dword:
		return 1;
	case K_s_load_dwordx2:
	case K_s_buffer_load_dwordx2:
		return 2;
	case K_s_load_dwordx3:
	case K_s_buffer_load_dwordx3:
		return 3;
	case K_s_load_dwordx4:
	case K_s_buffer_load_dwordx4:
		return 4;
	case K_s_load_dwordx8:
	case K_s_buffer_load_dwordx8:
		return 8;
	case K_s_load_dwordx16:
	case K_s_buffer_load_dwordx16:
		return 16;
	default:
		return 0;
	}
}

/* Whether @op is a scalar load of a byte or a half-word (gfx12 and later:
 * one SGPR, zero- or sign-extended). One list for the executor and the
 * release check. */
static inline bool sqk_smem_subdword(unsigned op)
{
	switch (op) {
	case K_s_load_u8:
	case K_s_load_i8:
	case K_s_load_u16:
	case K_s_load_i16:
	case K_s_buffer_load_u8:
	case K_s_buffer_load_i8:
	case K_s_buffer_load_u16:
	case K_s_buffer_load_i16:
		return true;
	default:
		return false;
	}
}

static inline __attribute__((always_inline)) uint64_t
sqk_sread(struct sqk_wave *w, const struct sqk_insn *in, unsigned code, bool b64, bool f64)
{
	/* the registers below M0 (SGPRs, FLAT_SCRATCH, XNACK_MASK, VCC,
	 * ttmps), EXEC, the integer constants and the literal inline, as
	 * sqk_sread_code() reads them */
	if (code < SQK_M0 || code == SQK_EXEC) {
		uint64_t v = w->s[code];

		if (b64)
			v |= (uint64_t)w->s[code + 1] << 32;
		return v;
	}
	if (code >= 128 && code <= 192)
		return code - 128;
	if (code >= 193 && code <= 208) {
		int64_t v = -(int64_t)(code - 192);

		return b64 ? (uint64_t)v : (uint32_t)v;
	}
	if (code == SQK_LIT)
		return b64 && f64 ? (uint64_t)in->lit << 32 : in->lit;
	return sqk_sread_code(w, in, code, b64, f64);
}

/* The address lane @l of a FLAT or GLOBAL instruction names before the
 * apertures: with an SADDR (GLOBAL; FLAT on gfx1250) the SGPR pair plus
 * the lane's 32-bit VGPR offset (times @nb, the element's size, with
 * gfx1250's scale_offset), else the lane's 64-bit VGPR pair; plus the
 * immediate offset. */
static inline uint64_t sqk_flat_addr(struct sqk_wave *w, const struct sqk_insn *in, unsigned l,
				     unsigned nb)
{
	const uint32_t *va = w->v + (size_t)in->vaddr * 64;
	uint64_t off = (uint64_t)(int64_t)in->offset;

	if (in->saddr != 0xffff)
		return sqk_sread(w, in, in->saddr, true, false) +
		       (uint64_t)va[l] * (in->scale ? nb : 1) + off;
	return (va[l] | (uint64_t)va[l + 64] << 32) + off;
}

/* Scalar destination write (32 or 64 bits): the registers below M0 inline
 * (a 64-bit write to s123 sets M0 too), the rest (M0, null, EXEC; the
 * constants take none) out of line. */
void sqk_swrite_code(struct sqk_wave *w, unsigned code, uint64_t v, bool b64);

static inline void sqk_swrite(struct sqk_wave *w, unsigned code, uint64_t v, bool b64)
{
	if (code < SQK_M0) {
		w->s[code] = (uint32_t)v;
		if (b64)
			w->s[code + 1] = (uint32_t)(v >> 32);
		return;
	}
	sqk_swrite_code(w, code, v, b64);
}

/* The vector ALU's lane loops (sqk_valu.c, sqk_valu_hot.c) in AVX2 too where the CPU has it (8 lanes per
 * instruction, 64-bit compares), chosen once at load time (GCC/clang
 * function multi-versioning, an ifunc). */
#ifndef __has_feature
#define __has_feature(x) 0
#endif
/* Not under the sanitizers: the resolver runs before their runtime is set
 * up (ThreadSanitizer crashes in it). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__) && \
	!defined(__SANITIZE_THREAD__) && !__has_feature(address_sanitizer) &&     \
	!__has_feature(thread_sanitizer) && !__has_feature(memory_sanitizer)
#define SQK_LANE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SQK_LANE_CLONES
#endif

/* An executor bound to a decoded instruction (the run loop's decode cache,
 * sqk_wave.c). It returns 0: done, the PC untouched (the loop moves it
 * past the instruction); 2: done, the PC set (a branch, a trap entered);
 * 1: the wave leaves the loop (barrier, end); negative: an error. */
typedef int (*sqk_exec_fn)(struct sqk_wave *w, const struct sqk_insn *in);

/* The vector ALU's hot executors (sqk_valu_hot.c): the one for @in, or NULL
 * (the instruction goes to sqk_exec_valu()). Each gives sqk_exec_valu()'s
 * results and hands the instruction to it when the wave is in index mode
 * or its EXEC does not cover every lane. */
sqk_exec_fn sqk_valu_hot(const struct sqk_family *f, const struct sqk_insn *in);

/* Vector memory's hot executors (sqk_mem.c): the one for @in (a GLOBAL or
 * FLAT load or store of whole dwords), or NULL (sqk_exec_mem()). Each
 * gives sqk_exec_mem()'s results and hands the instruction to it under a
 * partial EXEC, an address watch, or lanes not consecutive in one page. */
sqk_exec_fn sqk_mem_hot(const struct sqk_insn *in);

/* The scalar ALU's hot executors (sqk_salu.c): the one for @in (a move,
 * add, multiply, shift, logic op, compare, branch, s_and_saveexec or wait
 * writing no M0, NULL or EXEC destination), or NULL (sqk_exec_salu()). Each
 * gives sqk_exec_salu()'s results. */
sqk_exec_fn sqk_salu_hot(const struct sqk_insn *in);

/* Scalar memory's hot executors (sqk_salu.c): the one for @in (s_load_dword*,
 * not the buffer forms), or NULL (sqk_exec_smem()). Each gives
 * sqk_exec_smem()'s results and hands the instruction to it when the load
 * crosses a page or reaches M0. */
sqk_exec_fn sqk_smem_hot(const struct sqk_insn *in);

/* The vector ALU's fast path (sqk_valu.c): the integer instructions
 * compiled kernels run most (address arithmetic, moves, bounds compares)
 * under a full EXEC with no SDWA, DPP, index mode, clamp, output modifier
 * or (for the moves, whose VOP3 abs/neg touch the sign bit) source
 * modifiers, straight on the register columns. 0 done, -1 not taken (the
 * general path in sqk_exec_valu() takes it, with the same results).
 * Tests set sqk_valu_general_only to send everything the general way and
 * compare (test/emu_sqk_valu_fast.c). */
int sqk_exec_valu_fast(struct sqk_wave *w, const struct sqk_insn *in);
extern bool sqk_valu_general_only;

/* Tests set this to run every wave (sqk_wave.c "Replay": no wave without
 * effects is replayed). */
extern bool sqk_replay_off;

/* Executors: 0 to go on, 1 the wave left the run loop (barrier, end,
 * trap), negative: error (sqk_fail called). */
int sqk_exec_salu(struct sqk_wave *w, const struct sqk_insn *in);
int sqk_exec_smem(struct sqk_wave *w, const struct sqk_insn *in);
int sqk_exec_valu(struct sqk_wave *w, const struct sqk_insn *in);
/* GFX11.5 / gfx12 scalar float operations (sqk_valu.c: the vector unit's
 * float semantics on one value). */
int sqk_exec_salu_float(struct sqk_wave *w, const struct sqk_insn *in);
int sqk_exec_vopd(struct sqk_wave *w, const struct sqk_insn *in);
int sqk_exec_mem(struct sqk_wave *w, const struct sqk_insn *in);
int sqk_exec_ds(struct sqk_wave *w, const struct sqk_insn *in);

/* The release check (sqk_rel.c): what it notes of an instruction (its
 * struct sqk_insn.rc, 0: nothing; an s_waitcnt's counts in wvm and wlgkm),
 * set once when it is decoded; the
 * wave's counters at its start; note an instruction with rc before it
 * runs. */
uint8_t sqk_rel_class(const struct sqk_family *f, struct sqk_insn *in);
void sqk_rel_reset(struct sqk_wave *w);
void sqk_rel_note(struct sqk_wave *w, const struct sqk_insn *in);
/* The SGPRs @in reads, while a scalar load is not waited for (rel.spending). */
void sqk_rel_reads(struct sqk_wave *w, const struct sqk_insn *in);
/* The SGPRs sqk_rel_reads() looks at in @in, once per decoded instruction:
 * bit i SGPR i for i < 63, bit 63 SGPR 63 or any above it (below VCC). */
uint64_t sqk_rel_read_mask(const struct sqk_insn *in);
/* The SGPRs scalar loads not waited for may still write, in the same
 * form: where it meets an instruction's sqk_rel_read_mask(), the
 * instruction goes to sqk_rel_reads(). */
static inline uint64_t sqk_rel_pending_mask(const struct sqk_rel *r)
{
	return r->um[0] | (uint64_t)(r->um[1] != 0) << 63;
}

/* The kind of a vector memory operation (sqk_mem.c): 0 none, 1 load,
 * 2 store, 3 atomic, 4 cache write-back or invalidate. */
unsigned sqk_mem_kind(unsigned op);

/* GPU VM access (sqk_mem.c): copy, or NULL/-EFAULT after recording the
 * fault. */
int sqk_vm_read(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va, void *dst,
		uint32_t len);
int sqk_vm_write(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va, const void *src,
		 uint32_t len);
/* Host address of @va for a read that stays in its page, or NULL after
 * recording the fault (as sqk_vm_read()). */
const uint8_t *sqk_vm_page(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va);

/* A Fibonacci hash of a page or block number (6 bits), so that buffers a
 * multiple of the TLB's reach apart (a copy's source and destination) take
 * different sets. */
static inline unsigned sqk_tlb_hash(uint64_t key)
{
	return (unsigned)((key * 0x9e3779b97f4a7c15ull) >> 58);
}

/* The TLB entry of a page (struct sqk_run.tlb; sqk_mem.c): the first of
 * its set's two, where a new translation goes; the other is looked at on
 * a miss (sqk_mem.c xl_miss()). */
static inline unsigned sqk_tlb_index(uint64_t page)
{
	return sqk_tlb_hash(page) % (SQK_TLB / 2) * 2;
}

/* Host pointer for an atomic of @len bytes (naturally aligned). */
void *sqk_vm_ptr(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va, uint32_t len,
		 bool write);

/* LDS access of one lane (sqk_lds.c): out of range reads give 0, writes
 * are dropped. */
void sqk_lds_read(struct sqk_run *r, uint32_t addr, void *dst, uint32_t len);
void sqk_lds_write(struct sqk_run *r, uint32_t addr, const void *src, uint32_t len);
/* Atomic @op (an atomic's enum sqk_op kind, see sqk_atomic()) on @p. */
uint64_t sqk_atomic(unsigned kind, void *p, unsigned bytes, uint64_t data, uint64_t cmp);

/* Atomic kinds shared by DS, FLAT and MUBUF. */
enum sqk_akind {
	SQK_A_NONE = 0,
	SQK_A_SWAP,
	SQK_A_CMPSWAP,
	SQK_A_ADD,
	SQK_A_SUB,
	SQK_A_RSUB,
	SQK_A_SMIN,
	SQK_A_UMIN,
	SQK_A_SMAX,
	SQK_A_UMAX,
	SQK_A_AND,
	SQK_A_OR,
	SQK_A_XOR,
	SQK_A_INC,
	SQK_A_DEC,
	SQK_A_FADD,
	SQK_A_FMIN,
	SQK_A_FMAX,
};

/* Float helpers (sqk_valu.c). */
static inline float sqk_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static inline uint32_t sqk_u32(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
static inline double sqk_f64(uint64_t u)
{
	double f;
	memcpy(&f, &u, 8);
	return f;
}

/* IEEE minNum / maxNum with -0 below +0 (a NaN operand ignored, C's fmin
 * and fmax; the signed zeros, which they leave open, ordered as the ISA
 * manuals order them): the VALU's f16 min / max forms (their operands
 * converted to double, a signaling NaN already quiet) and the float
 * atomics. */
static inline double sqk_minz(double a, double b)
{
	return a == b ? (signbit(a) ? a : b) : fmin(a, b);
}

static inline double sqk_maxz(double a, double b)
{
	return a == b ? (signbit(a) ? b : a) : fmax(a, b);
}
static inline uint64_t sqk_u64(double f)
{
	uint64_t u;
	memcpy(&u, &f, 8);
	return u;
}

#endif
