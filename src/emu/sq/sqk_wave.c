/* SPDX-License-Identifier: MIT */
/*
 * Dispatch and the run loop of the kernel interpreter: the initial wave
 * state as the hardware sets it up (LLVM AMDGPUUsage "Initial Kernel
 * Execution State" and "Kernel Descriptor"): user SGPRs in their documented
 * order (private segment buffer, dispatch ptr, queue ptr, kernarg segment
 * ptr, dispatch id, flat scratch init, private segment size, then the
 * preloaded kernel arguments), then the system SGPRs at USER_SGPR_COUNT
 * (workgroup id X/Y/Z, workgroup info, private segment wave offset), the
 * work-item ids in v0-v2 (packed into v0 as X [9:0], Y [19:10], Z [29:20]
 * on gfx90a and gfx940), EXEC covering the wave's work-items and MODE from
 * COMPUTE_PGM_RSRC1's float modes. Workgroups run one after the other,
 * their waves round-robin in quanta; s_barrier holds a wave until every
 * wave of its workgroup that has not ended reaches it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "emu/sq/sqk_exec.h"

#define QUANTUM 4096
/* How often a wave looks at the queue's stop (destroy, suspend, a fault
 * elsewhere): a quantum of a whole workgroup is up to 16 x 4096
 * instructions, milliseconds of interpretation; this bounds a stop's
 * latency to STOP_POLL instructions at the cost of one load per poll. */
#define STOP_POLL 256
_Static_assert(QUANTUM % STOP_POLL == 0, "a quantum is whole polls");
#define DCACHE 4096

/* COMPUTE_PGM_RSRC2 and kernel_code_properties bits (AMDGPUUsage). */
#define RSRC2_PRIV_OFFSET (1u << 0)
#define RSRC2_USER_SGPR(r) ((r) >> 1 & 31)
#define RSRC2_TGID_X (1u << 7)
#define RSRC2_TGID_Y (1u << 8)
#define RSRC2_TGID_Z (1u << 9)
#define RSRC2_TG_INFO (1u << 10)
#define P_PRIV_BUF (1u << 0)
#define P_DISPATCH_PTR (1u << 1)
#define P_QUEUE_PTR (1u << 2)
#define P_KERNARG (1u << 3)
#define P_DISPATCH_ID (1u << 4)
#define P_FLAT_SCRATCH (1u << 5)
#define P_PRIV_SIZE (1u << 6)

/* A decoded instruction: its address + 1 (0: empty), the executor bound
 * to it (bind()), the SGPRs the release check looks at in it
 * (sqk_rel_read_mask()), the instruction; 128 bytes, so that the run loop
 * finds an entry with a shift. */
#define DENT_BYTES 128
_Static_assert(sizeof(struct sqk_insn) <= DENT_BYTES - 24, "a decoded instruction outgrew dent");
struct dent {
	uint64_t pc;
	sqk_exec_fn fn;
	uint64_t reads;
	struct sqk_insn in;
} __attribute__((aligned(DENT_BYTES)));
_Static_assert(sizeof(struct dent) == DENT_BYTES, "dent size");

/* What the host threads running one dispatch share. */
struct sqk_shared {
	const struct sqk_dispatch *d;
	uint32_t ng[3];	 /* workgroups in X, Y, Z */
	uint64_t total;	 /* workgroups in all */
	unsigned grab;	 /* workgroups a thread takes at once */
	int abort;	 /* a thread failed: the others stop (atomic) */
	uint64_t failed; /* the lowest workgroup that failed (atomic; ~0: none) */
	unsigned lanes, maxw;
	unsigned resident;		/* host threads running workgroups at once (atomic) */
	struct sqk_gws_waits gws_waits; /* with a GWS (sqk_gws.c) */
	uint64_t tba;			/* sqk_env.trap_base, GC 9 to 12 */
	uint32_t wave_traps;
	unsigned nwatch; /* sqk_env.watches, with tba only */
	struct sqk_watch watch[SQK_WATCHES];
	/* the next workgroup to start (atomic): in a cache line of its own,
	 * so that taking workgroups does not take the line of what every
	 * thread reads above from the others */
	_Alignas(64) uint64_t next;
};

/* A recorded wave without effects (see "Replay" below). */
struct replay {
	int state;	  /* 0 nothing recorded, 1 a wave recorded, -1 off */
	unsigned misses;  /* one-wave workgroups since the last replay */
	uint32_t dim[3];  /* the work-item layout of its workgroup */
	uint32_t nt;	  /* work-items of its workgroup */
	uint64_t insns;	  /* instructions it executed */
	uint64_t live[3]; /* bit i: it read s[i] before writing it */
	uint32_t s[136];  /* its initial SGPRs */
	uint64_t flat_scratch;
	uint32_t mode;
	uint64_t pc;
	/* the recording in progress: still without effects, the SGPRs read
	 * before written, the SGPRs written, the wave's start */
	bool pending, rec, bad;
	/* the last workgroup was replayed: its wave's slot is as it started */
	bool clean;
	uint64_t rlive[3], rdef[3];
	uint32_t ps[136];
	uint64_t pflat, ppc;
	uint32_t pmode;
};

/* One host thread's part: its own waves, LDS, decode cache, TLB, result. */
struct sqk_ctx {
	struct sqk_run r;
	struct sqk_wave *waves; /* sh->maxw of them */
	struct dent *dc;
	void *dc_mem; /* the allocation dc starts in */
	struct sqk_shared *sh;
	struct sqk_result res;
	uint64_t failed_wg; /* the workgroup that ended this thread with an error */
	struct replay rp;
	unsigned index; /* the host thread's number in the dispatch */
	int rc;
	pthread_t th;
};

/* True when the dispatch must stop: the queue says so, or another thread
 * of the dispatch failed. */
static bool stopping(const struct sqk_ctx *c)
{
	const struct sqk_env *env = c->r.env;

	return __atomic_load_n(&c->sh->abort, __ATOMIC_RELAXED) ||
	       (env->stop && env->stop(env->ctx));
}

static int exec_unimplemented(struct sqk_wave *w, const struct sqk_insn *in)
{
	return sqk_fail(w, in, -ENOTSUP, "unimplemented instruction");
}

/* The executor of a decoded instruction, chosen once when it enters the
 * decode cache: by its encoding, or one of the vector ALU's hot executors
 * (sqk_valu_hot.c), the scalar ALU's and scalar memory's (sqk_salu.c) or
 * vector memory's (sqk_mem.c). */
static sqk_exec_fn bind(const struct sqk_family *f, const struct sqk_insn *in)
{
	sqk_exec_fn hot;

	if (in->op == K_INVALID)
		return exec_unimplemented;
	switch (in->enc) {
	case SQK_SOP1:
	case SQK_SOP2:
	case SQK_SOPK:
	case SQK_SOPC:
	case SQK_SOPP:
		hot = sqk_salu_hot(in);
		return hot ? hot : sqk_exec_salu;
	case SQK_SMEM:
		hot = sqk_smem_hot(in);
		return hot ? hot : sqk_exec_smem;
	case SQK_VOP1:
	case SQK_VOP2:
	case SQK_VOPC:
	case SQK_VOP3:
	case SQK_VOP3P:
		hot = sqk_valu_hot(f, in);
		return hot ? hot : sqk_exec_valu;
	case SQK_VOPD:
	case SQK_VOPD3:
		return sqk_exec_vopd;
	case SQK_DS:
		return sqk_exec_ds;
	default:
		hot = sqk_mem_hot(in);
		return hot ? hot : sqk_exec_mem;
	}
}

/* An instruction not in the decode cache: fetched, decoded and checked
 * into its entry @e. */
static __attribute__((noinline, cold)) int fetch_miss(struct sqk_wave *w, struct sqk_ctx *c,
						      struct dent *e)
{
	uint32_t words[4] = { 0 };
	unsigned n = 0;

	/* up to four dwords (gfx1250: VOP3 with a 64-bit literal), as far as
	 * the code stays mapped */
	for (n = 0; n < 4; n++) {
		uint64_t va = w->pc + 4ull * n;
		bool ro = false;
		void *p = c->r.env->xlate(c->r.env->ctx, va & ~4095ull, 4096, false, &ro);

		if (!p)
			break;
		memcpy(&words[n], (uint8_t *)p + (va & 4095), 4);
	}
	if (!n) {
		c->r.res->fault_va = w->pc;
		return sqk_fail(w, NULL, -EFAULT, "instruction fetch fault");
	}
	if (!sqk_decode(c->r.f, words, n, &e->in)) {
		/* an instruction that runs past the mapped code (its words
		 * beyond, read as 0, complete one): a fetch fault where the
		 * mapping ends, not an illegal instruction */
		if (n < 4 && sqk_decode(c->r.f, words, 4, &e->in) && e->in.size > 4 * n) {
			c->r.res->fault_va = w->pc + 4ull * n;
			return sqk_fail(w, NULL, -EFAULT, "instruction fetch fault");
		}
		e->in.pc = w->pc;
		e->pc = 0;
		return sqk_fail(w, &e->in, -ENOTSUP, "illegal instruction");
	}
	if (!sqk_operands_ok(c->r.f, &e->in)) {
		e->in.pc = w->pc;
		e->pc = 0;
		return sqk_fail(w, &e->in, -ENOTSUP, "illegal operand");
	}
	e->in.pc = w->pc;
	e->in.rc = sqk_rel_class(c->r.f, &e->in);
	e->reads = sqk_rel_read_mask(&e->in);
	e->fn = bind(c->r.f, &e->in);
	e->pc = w->pc + 1;
	return 0;
}

/* The decode-cache entry of the instruction at @pc, or NULL (a miss:
 * fetch_miss()). */
static inline const struct dent *lookup(const struct sqk_ctx *c, uint64_t pc)
{
	const struct dent *e = &c->dc[(pc >> 2) % DCACHE];

	return __builtin_expect(e->pc == pc + 1, 1) ? e : NULL;
}

/*
 * Replay of waves without effects. A wave whose instructions are all
 * scalar and vector ALU work, waits and branches (no memory, LDS, GWS,
 * message, trap, hardware register, program counter or relative register
 * access) changes nothing but its own registers, which the next wave in its
 * slot starts from scratch; and the interpreter is deterministic: a wave
 * that starts in the state of one that ran to s_endpgm without effects does
 * the same instructions and ends the same way. So a host thread records the
 * run of a one-wave workgroup: the SGPRs read before they were written
 * (every scalar operand read as two dwords, SALU destinations read as well,
 * only s_mov_b32, s_movk_i32 and s_mov_b64 counted as writes: more reads
 * and fewer writes than the truth), and whether it stayed without effects.
 * A later one-wave workgroup with the same work-item layout (which fixes
 * EXEC and the VGPRs: zero but for the work-item ids) whose SGPRs hold the
 * same values there, as well as in FLAT_SCRATCH, XNACK_MASK, VCC, M0 and
 * EXEC (read implicitly), counts the recorded instructions and ends without
 * running them. A wave that touches a VGPR near the end of its grant (the
 * registers past it keep an older wave's values), or AGPRs, is not recorded.
 * Not with GWS or the debugger's wave start and end traps.
 */
bool sqk_replay_off;

#define RP_IMPURE 1u
#define RP_MOV1 2u /* writes one SGPR, reads none of its destination */
#define RP_MOV2 4u /* the same, two */
static uint8_t rp_class[K_COUNT];
static pthread_once_t rp_once = PTHREAD_ONCE_INIT;

static void rp_init(void)
{
	/* operations with an effect beyond the wave's registers, or reading
	 * state another wave of the same start sees differently (HW_ID,
	 * clocks), or addressing registers relative to M0 */
	static const char *const impure[] = {
		"s_getreg",  "s_setreg",  "s_setpc",  "s_swappc",  "s_rfe",	    "s_barrier",
		"s_sethalt", "s_sendmsg", "s_trap",   "s_icache",  "s_ttrace",	    "s_set_gpr_idx",
		"s_incperf", "s_decperf", "v_movrel", "v_accvgpr", "mfma",	    "smfmac",
		"wmma",	     "interp",	  "s_wakeup", "s_memtime", "s_memrealtime",
	};

	for (unsigned op = 1; op < K_COUNT; op++) {
		const char *n = sqk_op_name(op);

		for (size_t i = 0; n && i < sizeof(impure) / sizeof(impure[0]); i++)
			if (strstr(n, impure[i]))
				rp_class[op] |= RP_IMPURE;
	}
	rp_class[K_s_mov_b32] |= RP_MOV1;
	rp_class[K_s_movk_i32] |= RP_MOV1;
	rp_class[K_s_mov_b64] |= RP_MOV2;
}

/* VGPRs a wave is granted (COMPUTE_PGM_RSRC1.VGPRS, in 8s), those init_wave
 * zeroes. */
static unsigned granted_vgprs(const struct sqk_dispatch *d)
{
	unsigned nv = ((d->rsrc1 & 63) + 1) * 8;

	return nv > 256 ? 256 : nv;
}

static void rp_read(struct replay *rp, unsigned code)
{
	for (unsigned i = code; i < code + 2 && i < 136; i++)
		if (!(rp->rdef[i / 64] >> (i % 64) & 1))
			rp->rlive[i / 64] |= 1ull << (i % 64);
}

static void rp_write(struct replay *rp, unsigned code, unsigned n)
{
	for (unsigned i = code; i < code + n && i < 136; i++)
		rp->rdef[i / 64] |= 1ull << (i % 64);
}

/* Whether VGPR operand @code (256 + n) of @in lies well inside the grant:
 * @width dwords from it (VOP1/VOP2/VOPC up to 64-bit operands, VOP3 up to
 * v_mqsad_u32_u8's 128-bit ones, VOP3P a 32-dword matrix operand). */
static bool rp_vgpr_ok(unsigned code, unsigned width, unsigned nv)
{
	return code < 256 || code - 256 + width <= nv;
}

/* Note @in of the wave being recorded. */
static void rec_note(struct sqk_ctx *c, const struct sqk_insn *in)
{
	struct replay *rp = &c->rp;
	unsigned nv = granted_vgprs(c->r.d), width = in->enc == SQK_VOP3P  ? 32
						     : in->enc == SQK_VOP3 ? 4
									   : 2;
	uint8_t k;

	pthread_once(&rp_once, rp_init);
	k = in->op < K_COUNT ? rp_class[in->op] : RP_IMPURE;
	switch (in->enc) {
	case SQK_SOP1:
	case SQK_SOP2:
	case SQK_SOPK:
	case SQK_SOPC:
		for (int i = 0; i < 3; i++)
			if (in->src[i] < 128)
				rp_read(rp, in->src[i]);
		if (in->dst >= 128)
			k |= RP_IMPURE;
		else if (k & (RP_MOV1 | RP_MOV2))
			rp_write(rp, in->dst, k & RP_MOV2 ? 2 : 1);
		else
			rp_read(rp, in->dst);
		break;
	case SQK_SOPP:
		break;
	case SQK_VOPD:
		for (int i = 0; i < 2; i++) {
			if (in->srcy[i] < 128)
				rp_read(rp, in->srcy[i]);
			if (!rp_vgpr_ok(in->srcy[i], width, nv))
				k |= RP_IMPURE;
		}
		if (!rp_vgpr_ok(in->dsty, width, nv))
			k |= RP_IMPURE;
		/* fall through */
	case SQK_VOP1:
	case SQK_VOP2:
	case SQK_VOPC:
	case SQK_VOP3:
	case SQK_VOP3P:
		for (int i = 0; i < 3; i++) {
			if (in->src[i] < 128)
				rp_read(rp, in->src[i]);
			if (!rp_vgpr_ok(in->src[i], width, nv))
				k |= RP_IMPURE;
		}
		if (!rp_vgpr_ok(in->dst, width, nv) || in->acc)
			k |= RP_IMPURE;
		break;
	default: /* memory, LDS, GWS */
		k |= RP_IMPURE;
	}
	if (k & RP_IMPURE) {
		rp->bad = true;
		rp->rec = false;
	}
}

/* The SGPRs always compared: FLAT_SCRATCH, XNACK_MASK, VCC (102-107), M0
 * and EXEC (124-127; gfx11's M0 is 125), the slack past them. */
static bool rp_special(unsigned i)
{
	return (i >= 102 && i < 108) || i >= 124;
}

/* Whether the workgroup of one wave @w (its work-item layout @dim, @nt)
 * starts as the recorded one. */
static bool rp_match(const struct replay *rp, const struct sqk_wave *w, const uint32_t dim[3],
		     unsigned nt)
{
	if (rp->state != 1 || nt != rp->nt || memcmp(dim, rp->dim, sizeof(rp->dim)) ||
	    w->flat_scratch != rp->flat_scratch || w->mode != rp->mode || w->pc != rp->pc || w->scc)
		return false;
	for (unsigned i = 0; i < 136; i++)
		if (((rp->live[i / 64] >> (i % 64) & 1) || rp_special(i)) && w->s[i] != rp->s[i])
			return false;
	return true;
}

/* Before a one-wave workgroup runs: true, it is replayed (counted, not
 * run); false, it runs, recorded where that may still pay. */
static bool rp_begin(struct sqk_ctx *c, const struct sqk_wave *w, const uint32_t dim[3],
		     unsigned nt)
{
	struct replay *rp = &c->rp;

	rp->clean = false;
	if (rp->state < 0)
		return false;
	if (rp_match(rp, w, dim, nt)) {
		c->res.insns += rp->insns;
		c->res.replayed++;
		rp->clean = true;
		rp->misses = 0;
		return true;
	}
	/* a kernel whose waves do not repeat: stop recording them */
	if (++rp->misses > 16) {
		rp->state = -1;
		return false;
	}
	rp->pending = true;
	rp->rec = true;
	memcpy(rp->ps, w->s, sizeof(rp->ps));
	rp->pflat = w->flat_scratch;
	rp->ppc = w->pc;
	rp->pmode = w->mode;
	rp->bad = false;
	memset(rp->rlive, 0, sizeof(rp->rlive));
	memset(rp->rdef, 0, sizeof(rp->rdef));
	return false;
}

/* After a recorded workgroup ran (@rc): keep its wave if it ended without
 * effects. */
static void rp_end(struct sqk_ctx *c, const struct sqk_wave *w, const uint32_t dim[3], unsigned nt,
		   uint64_t insns, int rc)
{
	struct replay *rp = &c->rp;

	if (!rp->pending)
		return;
	rp->pending = false;
	rp->rec = false;
	if (rp->bad) {
		rp->state = -1;
		return;
	}
	if (rc || w->state != SQK_DONE || w->in_trap || w->trapsts)
		return;
	memcpy(rp->s, rp->ps, sizeof(rp->s));
	rp->flat_scratch = rp->pflat;
	rp->pc = rp->ppc;
	rp->mode = rp->pmode;
	memcpy(rp->dim, dim, sizeof(rp->dim));
	memcpy(rp->live, rp->rlive, sizeof(rp->live));
	rp->nt = nt;
	rp->insns = insns;
	rp->state = 1;
}

/* Run @w for up to QUANTUM instructions: 0 (quantum over), 1 (left the
 * loop: barrier or end), negative (error; -EINTR: the queue stops). The
 * stop is polled every STOP_POLL instructions. @slow: a recording of the
 * wave may be in progress (see "Replay"; one only starts before a
 * workgroup runs) or the dispatch has address watches (an executor of
 * vector memory may leave a hit to report later, w->watch_late): a
 * constant in each of run_wave()'s two copies of the loop, so that the
 * other copy tests neither. */
static inline __attribute__((always_inline)) int run_loop(struct sqk_wave *w, struct sqk_ctx *c,
							  const bool slow)
{
	unsigned n = 0; /* instructions run, added to the count once */
	int rc = 0;

	/* the PC in a register from one instruction to the next: the loop
	 * does not reload what it just stored (an executor returning 0 left
	 * it alone, sqk_exec_fn; any other return is a way out of the inner
	 * loop or sets w->pc, read again below) */
	uint64_t pc = w->pc;

	for (unsigned k = 0; k < QUANTUM; k += STOP_POLL) {
		for (unsigned j = 0; j < STOP_POLL; j++) {
			const struct dent *e = lookup(c, pc);
			const struct sqk_insn *in;

			if (__builtin_expect(!e, 0)) {
				struct dent *slot = &c->dc[(pc >> 2) % DCACHE];

				rc = fetch_miss(w, c, slot);
				if (rc < 0)
					goto out;
				e = slot;
			}
			in = &e->in;
			n++;
			if (slow && c->rp.rec)
				rec_note(c, in);
			/* what the release check notes (sqk_rel.c): a read
			 * of an SGPR a scalar load may still write looked
			 * at where the decoded reads meet the pending ones */
			if (__builtin_expect(w->rel.spending, 0) &&
			    (e->reads & sqk_rel_pending_mask(&w->rel)))
				sqk_rel_reads(w, in);
			if (in->rc)
				sqk_rel_note(w, in);
			rc = e->fn(w, in);
			if (__builtin_expect(rc == 0, 1)) {
				pc += in->size;
				w->pc = pc;
			} else if (rc == 1 || rc < 0) {
				goto out;
			} else {
				pc = w->pc;
			}
			rc = 0;
			/* an address watch hit reported late (sqk_mem.c) */
			if (slow && w->watch_late != 0 && !w->in_trap) {
				if (w->watch_skip)
					w->watch_skip--;
				else {
					sqk_trap_enter(w, pc, 0, w->watch_late);
					w->watch_late = 0;
					pc = w->pc;
				}
			}
		}
		if (stopping(c)) {
			rc = -EINTR;
			break;
		}
	}
out:
	c->r.res->insns += n;
	return rc;
}

static int run_wave(struct sqk_wave *w, struct sqk_ctx *c)
{
	if (__builtin_expect(c->rp.rec || c->r.nwatch, 0))
		return run_loop(w, c, true);
	return run_loop(w, c, false);
}

static uint32_t rsrc1_mode(const struct sqk_family *f, uint32_t rsrc1)
{
	uint32_t m = rsrc1 >> 12 & 0xff;

	if (f->gen < SQK_GEN_GFX12)
		m |= (rsrc1 >> 21 & 1) << 8 | (rsrc1 >> 23 & 1) << 9;
	return m;
}

/* Four 32-bit words (lanes of a register) at once. */
typedef uint32_t v4w __attribute__((vector_size(16), aligned(4), may_alias));

/* Zero @n words (a multiple of 8) in 16-byte stores: a wave's registers
 * are a few hundred bytes to a few KiB, where the C library's memset
 * takes `rep stos` with its start-up cost once per wave. */
static inline void zero_words(uint32_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 8) {
		*(v4w *)(p + i) = (v4w){ 0 };
		*(v4w *)(p + i + 4) = (v4w){ 0 };
	}
}

/* Zero @n vector registers from @v: their first @lanes lanes (a wave32
 * never reads lanes 32-63: every lane index it takes is modulo 32). */
static void zero_regs(uint32_t *v, unsigned n, unsigned lanes)
{
	if (lanes == 64)
		zero_words(v, (size_t)n * 64);
	else
		for (unsigned r = 0; r < n; r++)
			zero_words(v + (size_t)r * 64, 32);
}

static void init_wave(struct sqk_ctx *c, struct sqk_wave *w, unsigned wi, const uint32_t gid[3],
		      const uint32_t dim[3], unsigned nthreads)
{
	const struct sqk_dispatch *d = c->r.d;
	unsigned lanes = w->lanes, n = 0, nv = granted_vgprs(d), na = 0,
		 user = RSRC2_USER_SGPR(d->rsrc2);
	uint32_t *s = w->s;
	uint64_t woff = 0;

	/* AGPRs: gfx908 grants as many as VGPRs; gfx90a and gfx940 take them
	 * from the granted file after COMPUTE_PGM_RSRC3.ACCUM_OFFSET ((field
	 * + 1) * 4 VGPRs; LLVM AMDGPUUsage "compute_pgm_rsrc3 for GFX90A,
	 * GFX942"); no other family has any */
	if (c->r.f->agpr_unified) {
		unsigned acc = ((d->rsrc3 & 63) + 1) * 4;

		na = nv > acc ? nv - acc : 0;
	} else if (c->r.f->agprs) {
		na = nv;
	}
	/* the wave's scratch slot: one per wave resident at once (this host
	 * thread's waves after the other threads'), WAVESIZE bytes each */
	if (d->scratch_waves)
		woff = (uint64_t)(c->index * c->sh->maxw + wi) * d->scratch_wave_bytes;
	w->flat_scratch =
		sqk_arch_scratch(c->r.f) || c->r.f->gen == SQK_GEN_GFX8 ? d->scratch_va + woff : 0;
	zero_words(s, sizeof(w->s) / 4);
	/* a replayed wave of this layout left the slot's VGPRs and AGPRs as
	 * they start (it never ran): the ids below write them again */
	if (!(c->rp.clean && wi == 0 && nthreads == c->rp.nt &&
	      !memcmp(dim, c->rp.dim, sizeof(c->rp.dim)))) {
		zero_regs(w->v, nv, lanes);
		zero_regs(w->v + 256 * 64, na, lanes);
	}
	w->scc = false;
	/* a wave never starts in an earlier wave's VGPR index mode (nor could
	 * a replayed wave's start be the recorded one's) */
	w->gpr_idx = false;
	w->state = SQK_RUNNING;
	w->r = &c->r;
	if (d->aql) {
		uint16_t p = d->props;

		if (p & P_PRIV_BUF) { /* the queue's scratch V# */
			memcpy(&s[n], d->scratch_srd, 16);
			n += 4;
		}
		if (p & P_DISPATCH_PTR)
			s[n] = (uint32_t)d->dispatch_ptr,
			s[n + 1] = (uint32_t)(d->dispatch_ptr >> 32), n += 2;
		if (p & P_QUEUE_PTR)
			s[n] = (uint32_t)d->queue_ptr, s[n + 1] = (uint32_t)(d->queue_ptr >> 32),
			n += 2;
		if (p & P_KERNARG)
			s[n] = (uint32_t)d->kernarg, s[n + 1] = (uint32_t)(d->kernarg >> 32),
			n += 2;
		if (p & P_DISPATCH_ID)
			s[n] = (uint32_t)d->dispatch_id,
			s[n + 1] = (uint32_t)(d->dispatch_id >> 32), n += 2;
		/* flat scratch init: gfx9 on, the scratch's 64-bit base (the
		 * prologue adds the wave offset); gfx8 an offset and the
		 * work-item's size (AMDGPUUsage "Initial Kernel Execution
		 * State"; the emulator's gfx8 FLAT_SCRATCH is set at launch) */
		if ((p & P_FLAT_SCRATCH) && c->r.f->gen == SQK_GEN_GFX8)
			s[n] = 0, s[n + 1] = d->priv_bytes, n += 2;
		else if ((p & P_FLAT_SCRATCH) && !sqk_arch_scratch(c->r.f))
			s[n] = (uint32_t)d->scratch_va, s[n + 1] = (uint32_t)(d->scratch_va >> 32),
			n += 2;
		if (p & P_PRIV_SIZE)
			s[n++] = d->priv_bytes;
		/* preloaded kernel arguments follow (kernarg_preload) */
		for (unsigned i = 0; i < (d->preload & 0x7fu) && n < 32; i++, n++) {
			uint32_t v = 0;

			sqk_vm_read(w, NULL, d->kernarg + 4ull * ((d->preload >> 7) + i), &v, 4);
			s[n] = v;
		}
	} else {
		unsigned k = user ? user : 16;

		for (unsigned i = 0; i < k && i < 16; i++)
			s[i] = d->user_data[i];
		n = k;
	}
	if (user > n)
		n = user;
	if (d->aql || user)
		n = user;
	if (d->rsrc2 & RSRC2_TGID_X)
		s[n++] = gid[0];
	if (d->rsrc2 & RSRC2_TGID_Y)
		s[n++] = gid[1];
	if (d->rsrc2 & RSRC2_TGID_Z)
		s[n++] = gid[2];
	if (d->rsrc2 & RSRC2_TG_INFO)
		s[n++] = (nthreads + lanes - 1) / lanes;
	if (d->rsrc2 & RSRC2_PRIV_OFFSET)
		s[n++] = (uint32_t)woff;
	/* architected SGPRs (gfx12): the workgroup ids in ttmp9 (X) and
	 * ttmp7 (Y [15:0], Z [31:16]) whatever RSRC2 enables (LLVM
	 * AMDGPUUsage "Initial Kernel Execution State"; SIISelLowering reads
	 * them there on targets with FeatureArchitectedSGPRs) */
	if (c->r.f->gen >= SQK_GEN_GFX12) {
		s[108 + 9] = gid[0];
		s[108 + 7] = (gid[1] & 0xffff) | gid[2] << 16;
	}
	/* work-items of this wave */
	{
		uint64_t ex = 0;
		unsigned t = wi * lanes, x = t % dim[0], y = (t / dim[0]) % dim[1],
			 z = t / (dim[0] * dim[1]);
		bool packed = c->r.f->packed_tid;

		if (x + lanes <= dim[0] && t + lanes <= nthreads) {
			/* every lane live, in one row: x counts on, y and z
			 * stay (their registers are zero from above) */
			uint32_t yz = packed ? y << 10 | z << 20 : 0;

			v4w id = { x, x + 1, x + 2, x + 3 };

			for (unsigned l = 0; l < lanes; l += 4, id += 4)
				*(v4w *)(w->v + l) = id | yz;
			for (unsigned l = 0; l < lanes && !packed && (y || z); l++)
				w->v[64 + l] = y, w->v[128 + l] = z;
			ex = sqk_mask(w);
		} else {
			/* the first lane's ids divided out, the next ones
			 * counted on */
			for (unsigned l = 0; l < lanes; l++, t++) {
				if (l && ++x == dim[0]) {
					x = 0;
					if (++y == dim[1])
						y = 0, z++;
				}
				if (t >= nthreads)
					break;
				ex |= 1ull << l;
				if (packed) {
					w->v[l] = x | y << 10 | z << 20;
				} else {
					w->v[l] = x;
					w->v[64 + l] = y;
					w->v[128 + l] = z;
				}
			}
		}
		sqk_set_mask(w, SQK_EXEC, ex);
	}
	/* MODE: FP_ROUND [3:0], FP_DENORM [7:4], DX10_CLAMP [8], IEEE [9];
	 * gfx12 has neither of the last two: RSRC1 bits 21 and 23 are
	 * WG_RR_EN and DISABLE_PERF there (AMDGPUUsage compute_pgm_rsrc1) */
	w->mode = rsrc1_mode(c->r.f, d->rsrc1);
	w->pc = d->entry + ((d->preload & 0x7f) ? 256 : 0);
	w->trapsts = 0;
	w->in_trap = false;
	w->end_trapped = false;
	w->watch_late = 0;
	w->watch_skip = 0;
	w->bar_signalled = false;
	sqk_rel_reset(w);
	/* wave start trap: the handler runs before the first instruction
	 * and returns to it */
	if (c->r.tba && (c->r.wave_traps & SQK_WAVE_TRAP_START))
		sqk_trap_enter(w, w->pc, 0, SQK_TRAPSTS_WAVE_START);
}

static int run_group(struct sqk_ctx *c, unsigned nw)
{
	for (;;) {
		unsigned running = 0, barrier = 0, gws = 0;

		for (unsigned i = 0; i < nw; i++) {
			struct sqk_wave *w = &c->waves[i];

			if (w->state != SQK_RUNNING)
				continue;
			{
				int rc = run_wave(w, c);

				if (rc < 0)
					return rc;
			}
		}
		for (unsigned i = 0; i < nw; i++) {
			struct sqk_wave *w = &c->waves[i];

			/* released from a GWS barrier or semaphore (sqk_gws.c) */
			if (w->state == SQK_GWS_WAIT && sqk_gws_released(w))
				w->state = SQK_RUNNING;
			running += w->state == SQK_RUNNING;
			barrier += w->state == SQK_BARRIER;
			gws += w->state == SQK_GWS_WAIT;
		}
		if (!running && !barrier && !gws)
			return 0;
		if (!running && gws) { /* waits for other workgroups */
			if (stopping(c))
				return -EINTR;
			{
				int rc = sqk_gws_park(
					&c->r, c->waves, nw,
					__atomic_load_n(&c->sh->next, __ATOMIC_RELAXED) <
						c->sh->total);

				if (rc < 0)
					return rc;
			}
			continue;
		}
		if (!running) /* every live wave is at the barrier */
			for (unsigned i = 0; i < nw; i++)
				if (c->waves[i].state == SQK_BARRIER)
					c->waves[i].state = SQK_RUNNING;
		if (stopping(c))
			return -EINTR;
	}
}

/* A wave's VGPR file; the first @a-byte boundary (a power of two) at or
 * after @p. */
#define VFILE_BYTES ((size_t)(SQK_NV + SQK_NV_SLACK) * 64 * 4)
static uint8_t *align_up(void *p, uintptr_t a)
{
	return (uint8_t *)(((uintptr_t)p + a - 1) & ~(a - 1));
}

static void ctx_free(struct sqk_ctx *c)
{
	if (!c)
		return;
	if (c->waves)
		for (unsigned i = 0; i < c->sh->maxw; i++)
			free(c->waves[i].v_block);
	free(c->waves);
	free(c->dc_mem);
	free(c->r.lds);
	free(c);
}

static struct sqk_ctx *ctx_new(struct sqk_shared *sh, const struct sqk_env *env, unsigned index)
{
	const struct sqk_dispatch *d = sh->d;
	struct sqk_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->sh = sh;
	c->index = index;
	c->r.d = d;
	c->r.f = d->fam;
	c->r.env = env;
	c->r.res = &c->res;
	c->r.lds_size = d->lds_bytes;
	c->r.groups = sh->total;
	c->r.resident = &sh->resident;
	c->r.gws_waits = &sh->gws_waits;
	c->r.thread = index;
	c->r.tba = sh->tba;
	c->r.wave_traps = sh->wave_traps;
	c->r.nwatch = sh->nwatch;
	memcpy(c->r.watch, sh->watch, sizeof(c->r.watch));
	c->r.lds = calloc(1, d->lds_bytes ? d->lds_bytes : 4);
	c->rp.state = sqk_replay_off || d->gws || sh->wave_traps ? -1 : 0;
	c->waves = calloc(sh->maxw, sizeof(*c->waves));
	/* from the first boundary of their alignment in a calloc block
	 * (whose zero pages stay untouched until used): decode entries as
	 * struct dent declares them (two cache lines each, not three); the
	 * lane loops' 32-byte accesses to a register never straddle a line */
	c->dc_mem = calloc(DCACHE * sizeof(*c->dc) + DENT_BYTES, 1);
	if (!c->r.lds || !c->waves || !c->dc_mem)
		goto fail;
	c->dc = (struct dent *)align_up(c->dc_mem, DENT_BYTES);
	for (unsigned i = 0; i < sh->maxw; i++) {
		c->waves[i].v_block = calloc(VFILE_BYTES + 64, 1);
		if (!c->waves[i].v_block)
			goto fail;
		c->waves[i].v = (uint32_t *)align_up(c->waves[i].v_block, 64);
		c->waves[i].lanes = (uint8_t)sh->lanes;
		c->waves[i].r = &c->r;
	}
	return c;
fail:
	ctx_free(c);
	return NULL;
}

static bool split(const struct sqk_dispatch *d)
{
	return d->parts > 1 && d->chunk && d->part < d->parts;
}

uint64_t sqk_share(const struct sqk_dispatch *d, uint64_t total)
{
	uint64_t round, full, rest, first;

	if (!split(d))
		return total;
	round = (uint64_t)d->chunk * d->parts;
	full = total / round;
	rest = total % round;
	first = (uint64_t)d->part * d->chunk;
	rest = rest > first ? rest - first : 0;
	return full * d->chunk + (rest < d->chunk ? rest : d->chunk);
}

/* The @i-th workgroup of this share: its index in the whole grid. */
static uint64_t share_index(const struct sqk_dispatch *d, uint64_t i)
{
	if (!split(d))
		return i;
	return (i / d->chunk * d->parts + d->part) * d->chunk + i % d->chunk;
}

/* Take workgroups (X fastest, then Y, then Z) until none is left, the
 * dispatch stops or one of them fails. */
static int run_groups(struct sqk_ctx *c)
{
	struct sqk_shared *sh = c->sh;
	const struct sqk_dispatch *d = sh->d;

	uint64_t mine = 0, end = 0; /* the workgroups taken, not yet run */

	for (;;) {
		uint64_t idx;
		uint32_t gid[3], dim[3];
		unsigned nt, nw;
		int rc;

		/* the dispatch stops (its queue stopped, or a workgroup
		 * failed); after a failure this thread still runs the
		 * workgroups it took below the failed one, which taken one at
		 * a time would all have started before it (one of them may
		 * fail first in the grid's order) */
		if (__atomic_load_n(&sh->abort, __ATOMIC_ACQUIRE)) {
			uint64_t f = __atomic_load_n(&sh->failed, __ATOMIC_RELAXED);

			if (f == ~0ull || mine == end || mine >= sh->total ||
			    share_index(d, mine) >= f)
				return -EINTR;
		}
		if (mine == end) {
			mine = __atomic_fetch_add(&sh->next, sh->grab, __ATOMIC_RELAXED);
			end = mine + sh->grab;
		}
		idx = mine++;
		if (idx >= sh->total)
			return 0;
		idx = share_index(d, idx);
		gid[0] = (uint32_t)(idx % sh->ng[0]);
		gid[1] = (uint32_t)(idx / sh->ng[0] % sh->ng[1]);
		gid[2] = (uint32_t)(idx / sh->ng[0] / sh->ng[1]);
		for (int i = 0; i < 3; i++) {
			uint32_t left = d->grid[i] - gid[i] * d->wg[i];

			dim[i] = left < d->wg[i] ? left : d->wg[i];
		}
		nt = dim[0] * dim[1] * dim[2];
		nw = (nt + sh->lanes - 1) / sh->lanes;
		if (d->lds_bytes)
			memset(c->r.lds, 0, d->lds_bytes);
		for (unsigned i = 0; i < nw; i++) {
			init_wave(c, &c->waves[i], i, gid, dim, nt);
			c->waves[i].group = idx;
		}
		c->res.waves += nw;
		if (nw == 1 && rp_begin(c, &c->waves[0], dim, nt)) {
			rc = 0;
		} else {
			uint64_t before = c->res.insns;

			c->rp.clean = false;
			rc = run_group(c, nw);
			rp_end(c, &c->waves[0], dim, nt, c->res.insns - before, rc);
		}
		if (!rc && stopping(c))
			rc = -EINTR;
		if (!rc)
			continue;
		if (rc != -EINTR || c->res.err || c->res.trapped) {
			/* this workgroup failed */
			uint64_t f = __atomic_load_n(&sh->failed, __ATOMIC_RELAXED);

			while (idx < f &&
			       !__atomic_compare_exchange_n(&sh->failed, &f, idx, true,
							    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
				;
		} else if (__atomic_load_n(&sh->failed, __ATOMIC_RELAXED) != ~0ull) {
			/* stopped after another's failure: see above (its
			 * queue's stop, if that came too, stops the workgroups
			 * still to run here within their first poll) */
			continue;
		}
		c->failed_wg = idx;
		__atomic_store_n(&sh->abort, 1, __ATOMIC_RELEASE);
		return rc;
	}
}

/* run_groups(), then gone for the GWS wait */
static int run_thread(struct sqk_ctx *c)
{
	int rc = run_groups(c);

	if (c->sh->d->gws)
		sqk_gws_gone(&c->r, c->index);
	return rc;
}

static void *group_thread(void *arg)
{
	struct sqk_ctx *c = arg;

	c->rc = run_thread(c);
	return NULL;
}

/* Host threads for a dispatch of @groups workgroups: one for a small one
 * (the order of its workgroups, its faults and its traps as a single CU
 * would give them), else one per online CPU, at most SQK_MAX_THREADS.
 * KFDSIG_EMU_SQ_THREADS=N sets the number for every dispatch (above the
 * maximum: the maximum; not a positive number: as if unset). */
#define SQK_MAX_THREADS 8
#define SQK_PAR_GROUPS 64
static unsigned threads_for(uint64_t groups)
{
	const char *e = getenv("KFDSIG_EMU_SQ_THREADS");
	char *end;
	long n;

	if (e && *e) {
		n = strtol(e, &end, 10);
		if (!*end && n >= 1)
			return n > SQK_MAX_THREADS ? SQK_MAX_THREADS : (unsigned)n;
	}
	if (groups < SQK_PAR_GROUPS)
		return 1;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > SQK_MAX_THREADS ? SQK_MAX_THREADS : n > 1 ? (unsigned)n : 1;
}

/* A dispatch with GWS (a cooperative launch: its workgroups may wait for
 * each other at a GWS barrier) runs every workgroup at once, one host
 * thread each, up to SQK_GWS_THREADS (sqk_exec.h); a barrier in a bigger
 * one is refused (sqk_gws.c) instead of waiting forever. */

int sqk_run(const struct sqk_dispatch *d, const struct sqk_env *env, struct sqk_result *res)
{
	struct sqk_shared sh = { 0 };
	struct sqk_ctx *c[SQK_GWS_THREADS] = { NULL }, *bad = NULL;
	unsigned nthr, started = 1;
	uint64_t wgt;
	int rc = 0;

	if (!res)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	if (!d || !env || !env->xlate || !d->fam)
		return res->err = -EINVAL;
	/* wave32 exists from RDNA on (the RDNA1 ISA manual's "Wave32 and
	 * Wave64"; COMPUTE_DISPATCH_INITIATOR.CS_W32_EN first in
	 * gc_10_1_0_sh_mask.h): GCN and CDNA waves are 64 lanes, and the
	 * packet processor decides what a request for wave32 there means
	 * (emu_kernel.c), not the shader unit */
	if (d->wave32 && !d->fam->gfx10) {
		snprintf(res->msg, sizeof(res->msg), "wave32 on %s, which has wave64 only",
			 d->fam->name);
		return res->err = -EINVAL;
	}
	/* GC 12.5 (gfx1250) is wave32 only: LLVM's processor table
	 * (AMDGPUUsage) gives it no wavefrontsize64 feature, and LLVM drops
	 * a wave64 function compiled for it (AMDGPURemoveIncompatibleFunctions,
	 * llvm-project #153690 "gfx1250 only supports wave32"). What its
	 * packet processor does with a wave64 request (CS_W32_EN clear, a
	 * kernel descriptor without ENABLE_WAVEFRONT_SIZE32) is UNVERIFIED:
	 * the dispatch is refused (the CP's path for a dispatch it does not
	 * accept, emu_kernel.c run()), never run as 64 lanes. */
	if (!d->wave32 && d->fam->gen == SQK_GEN_GFX12_5) {
		snprintf(res->msg, sizeof(res->msg), "wave64 on %s, which has wave32 only",
			 d->fam->name);
		return res->err = -EINVAL;
	}
	sh.d = d;
	sh.failed = ~0ull;
	sh.lanes = d->wave32 ? 32 : 64;
	for (int i = 0; i < 3; i++) {
		if (!d->wg[i] || !d->grid[i])
			return res->err = -EINVAL;
		sh.ng[i] = (d->grid[i] + d->wg[i] - 1) / d->wg[i];
	}
	wgt = (uint64_t)d->wg[0] * d->wg[1] * d->wg[2];
	if (wgt > 1024)
		return res->err = -EINVAL;
	sh.maxw = (unsigned)((wgt + sh.lanes - 1) / sh.lanes);
	sh.total = sqk_share(d, (uint64_t)sh.ng[0] * sh.ng[1] * sh.ng[2]);
	if (!sh.total)
		return 0; /* an XCC with no workgroup of the dispatch */
	nthr = threads_for(sh.total);
	if (d->gws)
		nthr = sh.total < SQK_GWS_THREADS ? (unsigned)sh.total : SQK_GWS_THREADS;
	/* private memory: every wave resident at once needs its own slot
	 * of the scratch (the SPI launches a wave only into a free one);
	 * fewer host threads where the slots hold fewer workgroups. Slots
	 * the backing cannot hold, or a workgroup more waves than there
	 * are slots, make the dispatch a memory violation at the first
	 * byte beyond the backing, never memory of the emulator's own. */
	if (d->priv_bytes && d->scratch_waves) {
		uint64_t span = (uint64_t)d->scratch_waves * d->scratch_wave_bytes;

		if (sh.maxw > d->scratch_waves ||
		    (d->gws && (uint64_t)nthr * sh.maxw > d->scratch_waves) ||
		    (d->scratch_bytes && span > d->scratch_bytes)) {
			res->fault_va = d->scratch_va + (d->scratch_bytes && span > d->scratch_bytes
								 ? d->scratch_bytes
								 : span);
			res->fault_write = true;
			snprintf(res->msg, sizeof(res->msg),
				 "scratch of %u waves x %u bytes (%llu bytes of backing) cannot "
				 "hold the dispatch's waves (%u per workgroup)",
				 d->scratch_waves, d->scratch_wave_bytes,
				 (unsigned long long)d->scratch_bytes, sh.maxw);
			return res->err = -EFAULT;
		}
		if ((uint64_t)nthr * sh.maxw > d->scratch_waves)
			nthr = d->scratch_waves / sh.maxw;
	}
	sh.resident = nthr;
	/* several threads over many workgroups take up to 8 at a time (fewer
	 * trips to the counter they share, a cache line moving between CPUs
	 * each time); a GWS dispatch runs every workgroup at once, one each */
	sh.grab = 1;
	if (nthr > 1 && !d->gws) {
		uint64_t g = sh.total / ((uint64_t)nthr * 64);

		sh.grab = g > 8 ? 8 : g ? (unsigned)g : 1;
	}
	/* the trap handler as code: the GC 9 to 12 trap state (ttmp codes
	 * 108-123, the doorbell by s_sendmsg 10 or s_sendmsg_rtn_b32) */
	if (env->trap_base && d->fam->gen >= SQK_GEN_GFX9 && d->fam->gen <= SQK_GEN_GFX12)
		sh.tba = env->trap_base(env->ctx);
	if (sh.tba && env->wave_traps)
		sh.wave_traps = env->wave_traps(env->ctx);
	if (sh.tba && env->watches) {
		sh.nwatch = env->watches(env->ctx, sh.watch);
		if (sh.nwatch > SQK_WATCHES)
			sh.nwatch = SQK_WATCHES;
	}
	c[0] = ctx_new(&sh, env, 0);
	if (!c[0])
		return res->err = -ENOMEM;
	/* more threads where they can be had; fewer is no error */
	for (unsigned i = 1; i < nthr; i++) {
		c[i] = ctx_new(&sh, env, i);
		if (!c[i] || pthread_create(&c[i]->th, NULL, group_thread, c[i]) != 0) {
			ctx_free(c[i]);
			c[i] = NULL;
			__atomic_store_n(&sh.resident, i, __ATOMIC_RELEASE);
			break;
		}
		started++;
	}
	/* the threads never started are gone for the GWS wait */
	if (d->gws)
		for (unsigned i = started; i < SQK_GWS_THREADS; i++)
			sqk_gws_gone(&c[0]->r, i);
	c[0]->rc = run_thread(c[0]);
	for (unsigned i = 1; i < started; i++)
		pthread_join(c[i]->th, NULL);
	/* The result: counts summed; the failure (fault, illegal instruction,
	 * trap) of the lowest workgroup that failed, else a stop. */
	for (unsigned i = 0; i < started; i++) {
		const struct sqk_result *t = &c[i]->res;

		res->insns += t->insns;
		res->waves += t->waves;
		res->replayed += t->replayed;
		res->interrupts += t->interrupts;
		if (t->unreleased && !res->unreleased)
			res->unreleased_pc = t->unreleased_pc,
			res->unreleased_store_pc = t->unreleased_store_pc;
		res->unreleased += t->unreleased;
		if (t->m0_hazards && !res->m0_hazards)
			res->m0_hazard_pc = t->m0_hazard_pc;
		res->m0_hazards += t->m0_hazards;
		if (t->sgpr_unwaited && !res->sgpr_unwaited)
			res->sgpr_unwaited_pc = t->sgpr_unwaited_pc,
			res->sgpr_unwaited_load_pc = t->sgpr_unwaited_load_pc;
		res->sgpr_unwaited += t->sgpr_unwaited;
		if ((c[i]->res.err || c[i]->res.trapped) &&
		    (!bad || c[i]->failed_wg < bad->failed_wg))
			bad = c[i];
		if (c[i]->rc < 0 && !rc)
			rc = c[i]->rc;
	}
	if (bad) {
		struct sqk_result sum = *res;

		*res = bad->res;
		res->insns = sum.insns, res->waves = sum.waves, res->replayed = sum.replayed;
		res->interrupts = sum.interrupts, res->unreleased = sum.unreleased;
		res->unreleased_pc = sum.unreleased_pc;
		res->unreleased_store_pc = sum.unreleased_store_pc;
		res->m0_hazards = sum.m0_hazards, res->m0_hazard_pc = sum.m0_hazard_pc;
		res->sgpr_unwaited = sum.sgpr_unwaited;
		res->sgpr_unwaited_pc = sum.sgpr_unwaited_pc;
		res->sgpr_unwaited_load_pc = sum.sgpr_unwaited_load_pc;
		rc = bad->rc;
	}
	res->threads = started;
	if (rc == -EINTR && res->trapped)
		rc = 1;
	else if (rc < 0 && !res->err)
		res->err = rc;
	for (unsigned i = 0; i < started; i++)
		ctx_free(c[i]);
	return rc;
}
