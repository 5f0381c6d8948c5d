/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the emulated engines (issue 16): each input becomes
 * a ring for a PM4 or an SDMA queue of one of four emulated GPUs (gfx803,
 * gfx90a, gfx1100, and gfx942 in DPX, where 4 XCCs run a PM4 ring). The
 * first byte picks GPU, engine and form: raw (the bytes are the dwords) or
 * built (each step a packet of a kind the engine knows -- RELEASE_MEM,
 * EVENT_WRITE_EOP, WRITE_DATA, WAIT_REG_MEM, INDIRECT_BUFFER, SET_SH_REG +
 * DISPATCH_DIRECT of a shader made of fuzzer bytes run by the shader unit,
 * SDMA FENCE, TRAP, WRITE, COPY, POLL_REGMEM, TIMESTAMP -- with fuzzed
 * fields and addresses inside and outside the mapped buffers). A scratch
 * buffer (IB contents, shader code, data) is filled from the input too. The
 * queue runs for a bounded time (until it has consumed everything, stopped
 * on a bad packet or VM fault, made no progress for 2 ms, or 20 ms), then
 * is destroyed, which stops a poll that would never end. The engines must
 * never crash, touch memory outside the buffers (ASan/UBSan) or hang.
 *
 * Byte 0 bit 4 picks the kernel form instead: one dispatch of a compiled
 * kernel on the kernel interpreter of the shader unit (emu/sq/sqk.h) of
 * gfx900, gfx90a, gfx942 or gfx1030, through an AQL KERNEL_DISPATCH packet
 * (a kernel descriptor built from the input's fields) or a PM4
 * DISPATCH_DIRECT (SET_SH_REG of COMPUTE_PGM_*, NUM_THREAD_*, USER_DATA_*),
 * wave64 or wave32, with the input's ISA bytes as the code and its data as
 * kernel arguments and buffers (kernel_input() has the layout; seeds of
 * LLVM-assembled and LLVM-compiled kernels come from
 * scripts/fuzz-sq-seeds.py). A wave that never ends runs until the queue
 * is destroyed, as the other forms' endless polls do: each wave polls
 * the queue's stop every 256 instructions.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>

#include <kfdsig/kfdsig.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define NGPU 7 /* the first 4: packet forms; kernel form: KGPU */
#define SCRATCH (64 * 1024)
#define MAX_DW 1024

struct gpu {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	const struct kfdsig_target *t;
	uint32_t gpu_id;
	int pasid;
	const struct kfdsig_kfd_bo *scratch;
	struct kfdsig_event ev[4];
};

static struct gpu gpus[NGPU];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const specs[NGPU] = {
		"gfx803", "gfx90a", "gfx1100", "gfx942,partition=dpx", "gfx900", "gfx942", "gfx1030"
	};

	(void)argc;
	(void)argv;
	/* the completion poll below sleeps 20 us at a time: without this,
	 * the default 50 us timer slack makes each sleep 70 us or more */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	for (int i = 0; i < NGPU; i++) {
		struct gpu *g = &gpus[i];

		g->emu = kfdsig_emu_create_from_spec(specs[i]);
		if (!g->emu || kfdsig_kfd_open(kfdsig_emu_ops(g->emu), &g->kfd) < 0)
			abort();
		g->gpu_id = kfdsig_kfd_device(g->kfd, 0)->gpu_id;
		g->t = kfdsig_kfd_device(g->kfd, 0)->target;
		g->pasid = kfdsig_emu_pasid(g->emu, kfdsig_kfd_fd(g->kfd));
		for (int k = 0; k < 4; k++)
			if (kfdsig_kfd_event_create(g->kfd, KFDSIG_EVENT_SIGNAL, k & 1, &g->ev[k]))
				abort();
		if (kfdsig_kfd_alloc(g->kfd, g->gpu_id, SCRATCH, KFDSIG_KFD_MEM_GTT_UNCACHED,
				     &g->scratch) ||
		    kfdsig_kfd_map(g->kfd, g->scratch, NULL, 0))
			abort();
	}
	return 0;
}

static uint32_t hdr3(uint32_t op, uint32_t ndw)
{
	return (3u << 30) | (((ndw - 2) & 0x3fff) << 16) | (op << 8);
}

/* An address: an event slot, inside the scratch buffer, near its end, or
 * anything. */
static uint64_t addr(struct gpu *g, struct in *in)
{
	switch (take(in, 1) % 5) {
	case 0:
		return g->ev[take(in, 1) % 4].slot_va;
	case 1:
		return g->scratch->va + take(in, 2) % SCRATCH;
	case 2:
		return g->scratch->va + SCRATCH - take(in, 1) % 16;
	case 3:
		return take(in, 8);
	default:
		return g->scratch->va + (take(in, 2) % SCRATCH & ~7u);
	}
}

static uint32_t build_pm4(struct gpu *g, struct in *in, uint32_t *d)
{
	bool gfx8 = g->t->level == KFDSIG_GFX8;
	uint32_t n = 0;

	while (in->n && n + 16 < MAX_DW) {
		uint64_t a = addr(g, in);
		switch (take(in, 1) % 9) {
		case 0: /* RELEASE_MEM */
			d[n++] = hdr3(0x49, gfx8 ? 7 : 8);
			d[n++] = (uint32_t)take(in, 4);
			d[n++] = (uint32_t)take(in, 4);
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(a >> 32);
			d[n++] = (uint32_t)take(in, 4);
			d[n++] = (uint32_t)take(in, 4);
			if (!gfx8)
				d[n++] = (uint32_t)take(in, 4);
			break;
		case 1: /* EVENT_WRITE_EOP */
			d[n++] = hdr3(0x47, 6);
			d[n++] = (uint32_t)take(in, 4);
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(take(in, 4) & 0xffff0000u) |
				 (uint32_t)(a >> 32 & 0xffff);
			d[n++] = (uint32_t)take(in, 4);
			d[n++] = (uint32_t)take(in, 4);
			break;
		case 2: { /* WRITE_DATA */
			uint32_t k = 1 + (uint32_t)take(in, 1) % 6;
			d[n++] = hdr3(0x37, 4 + k);
			d[n++] = (uint32_t)take(in, 4);
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(a >> 32);
			for (uint32_t i = 0; i < k; i++)
				d[n++] = (uint32_t)take(in, 4);
			break;
		}
		case 3: /* WAIT_REG_MEM */
			d[n++] = hdr3(0x3c, 7);
			d[n++] = (uint32_t)take(in, 1);
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(a >> 32);
			d[n++] = (uint32_t)take(in, 4);
			d[n++] = (uint32_t)take(in, 4);
			d[n++] = (uint32_t)take(in, 1);
			break;
		case 4: /* INDIRECT_BUFFER into the scratch buffer */
			d[n++] = hdr3(0x3f, 4);
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(a >> 32) & 0xffff;
			d[n++] = (uint32_t)take(in, 2) % 2048;
			break;
		case 5: { /* SET_SH_REG PGM_LO/HI, USER_DATA, DISPATCH_DIRECT */
			uint64_t code =
				take(in, 1) % 4 ? g->scratch->va + (take(in, 1) % 64) * 256 : a;
			d[n++] = hdr3(0x76, 4);
			d[n++] = 0x20c;
			d[n++] = (uint32_t)(code >> 8);
			d[n++] = (uint32_t)(code >> 40) & 0xffff;
			d[n++] = hdr3(0x76, 4);
			d[n++] = 0x240;
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(a >> 32);
			d[n++] = hdr3(0x15, 5);
			d[n++] = 1 + (uint32_t)take(in, 1) % 2;
			d[n++] = 1;
			d[n++] = 1;
			d[n++] = (uint32_t)take(in, 4);
			break;
		}
		case 6: /* SET_SH_REG with a fuzzed offset and count */
			d[n++] = hdr3(0x76, 3);
			d[n++] = (uint32_t)take(in, 2);
			d[n++] = (uint32_t)take(in, 4);
			break;
		case 7: /* NOP of a fuzzed length */
			d[n++] = hdr3(0x10, 2 + (uint32_t)take(in, 1) % 8);
			for (uint32_t i = 0, k = (d[n - 1] >> 16 & 0x3fff) + 1; i < k; i++)
				d[n++] = (uint32_t)take(in, 4);
			break;
		default:
			d[n++] = (uint32_t)take(in, 4);
			break;
		}
	}
	return n;
}

static uint32_t build_sdma(struct gpu *g, struct in *in, uint32_t *d)
{
	uint32_t n = 0;

	while (in->n && n + 16 < MAX_DW) {
		uint64_t a = addr(g, in), b = addr(g, in);
		uint32_t sub = (uint32_t)take(in, 4) & 0xffff0000u;
		switch (take(in, 1) % 8) {
		case 0: /* FENCE */
			d[n++] = sub | 5;
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(a >> 32);
			d[n++] = (uint32_t)take(in, 4);
			break;
		case 1: /* TRAP */
			d[n++] = 6;
			d[n++] = (uint32_t)take(in, 4);
			break;
		case 2: { /* WRITE linear */
			uint32_t k = 1 + (uint32_t)take(in, 1) % 6;
			d[n++] = 2;
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(a >> 32);
			d[n++] = k - (g->t->sdma_ip[0] >= 4 ? 1 : 0);
			for (uint32_t i = 0; i < k; i++)
				d[n++] = (uint32_t)take(in, 4);
			break;
		}
		case 3: /* COPY linear */
			d[n++] = 1;
			d[n++] = (uint32_t)take(in, 2);
			d[n++] = 0;
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(a >> 32);
			d[n++] = (uint32_t)b;
			d[n++] = (uint32_t)(b >> 32);
			break;
		case 4: /* POLL_REGMEM */
			d[n++] = sub | 8;
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(a >> 32);
			d[n++] = (uint32_t)take(in, 4);
			d[n++] = (uint32_t)take(in, 4);
			d[n++] = (uint32_t)take(in, 4);
			break;
		case 5: /* TIMESTAMP */
			d[n++] = sub | 13;
			d[n++] = (uint32_t)a;
			d[n++] = (uint32_t)(a >> 32);
			break;
		case 6: /* NOP burst */
			d[n++] = ((uint32_t)take(in, 1) % 8) << 16;
			for (uint32_t i = 0, k = d[n - 1] >> 16; i < k; i++)
				d[n++] = 0;
			break;
		default:
			d[n++] = (uint32_t)take(in, 4);
			break;
		}
	}
	return n;
}

/* The kernel form's buffer layout (offsets into the scratch buffer). */
#define K_SIGNAL 0x0000 /* the AQL packet's completion signal (amd_signal_t) */
#define K_KD 0x1000	/* kernel descriptor; the code follows at K_KD + 256 */
#define K_CODE_MAX 0x2f00
#define K_KERNARG 0x4000		       /* 256 bytes */
#define K_OUT 0x8000			       /* zeroed */
#define K_IN 0xc000			       /* the input's data */
static const uint8_t kgpu[4] = { 4, 1, 5, 6 }; /* gfx900, gfx90a, gfx942, gfx1030 */

/*
 * The kernel form, after byte 0: a selector byte (bits 0-1 the GPU, bit 2
 * PM4 instead of AQL, bit 3 wave32), the workgroup size (X: 2 bytes, Y, Z:
 * 1 each), the workgroups in X (1 byte) and a partial last one (1 byte),
 * COMPUTE_PGM_RSRC1/2/3 (4 bytes each), kernel_code_properties and
 * kernarg_preload (2 each), private and group segment sizes (2 each), the
 * code's length (2 bytes), the code, then the data: the kernel arguments'
 * free bytes, then K_IN. The kernel arguments hold K_IN at 0, K_IN + 0x2000
 * at 8, K_OUT at 16, event 1's slot address at 64 and its id at 72; the
 * PM4 form's USER_DATA_0/1 hold the kernel arguments' address (as the
 * kernarg pointer does in s[0:1] for an AQL kernel with only that SGPR
 * enabled), USER_DATA_2/3 K_OUT. Returns the dwords of the ring in @d.
 */
static uint32_t kernel_input(struct gpu **gp, struct in *in, uint32_t *d, bool *aql)
{
	unsigned sel = (unsigned)take(in, 1);
	struct gpu *g = &gpus[kgpu[sel & 3]];
	bool pm4 = sel & 4, w32 = sel & 8;
	uint8_t *m = g->scratch->cpu;
	uint64_t va = g->scratch->va, kd = va + K_KD, karg = va + K_KERNARG;
	uint32_t wg[3], grid[3], rsrc1, rsrc2, rsrc3, code_len, n = 0;
	uint16_t props, preload, priv, lds;
	int64_t entry = 256;

	*gp = g;
	wg[0] = 1 + (uint32_t)take(in, 2) % 1024;
	wg[1] = 1 + (uint32_t)take(in, 1) % 4;
	wg[2] = 1 + (uint32_t)take(in, 1) % 2;
	grid[0] = wg[0] * (1 + (uint32_t)take(in, 1) % 4);
	grid[0] -= (uint32_t)take(in, 1) % wg[0];
	grid[1] = wg[1];
	grid[2] = wg[2];
	rsrc1 = (uint32_t)take(in, 4);
	rsrc2 = (uint32_t)take(in, 4);
	rsrc3 = (uint32_t)take(in, 4);
	props = (uint16_t)take(in, 2);
	preload = (uint16_t)take(in, 2);
	priv = (uint16_t)take(in, 2) % 1024;
	lds = (uint16_t)take(in, 2);
	code_len = (uint32_t)take(in, 2) % K_CODE_MAX;
	if (code_len > in->n)
		code_len = (uint32_t)in->n;
	memset(m, 0, SCRATCH);
	/* amd_signal_t: kind 1 (user) at 0, value 1 at 8 (ROCr amd_hsa_signal.h) */
	m[K_SIGNAL] = 1;
	m[K_SIGNAL + 8] = 1;
	/* kernel descriptor (AMDGPUUsage "Kernel Descriptor") */
	memcpy(m + K_KD, &lds, 2);
	memcpy(m + K_KD + 4, &priv, 2);
	memcpy(m + K_KD + 16, &entry, 8);
	memcpy(m + K_KD + 44, &rsrc3, 4);
	memcpy(m + K_KD + 48, &rsrc1, 4);
	memcpy(m + K_KD + 52, &rsrc2, 4);
	if (w32)
		props |= 1u << 10; /* enable_wavefront_size32 */
	memcpy(m + K_KD + 56, &props, 2);
	memcpy(m + K_KD + 58, &preload, 2);
	memcpy(m + K_KD + 256, in->p, code_len);
	in->p += code_len;
	in->n -= code_len;
	/* kernel arguments, then the data buffer */
	{
		size_t k = in->n < 256 ? in->n : 256;
		uint64_t a = va + K_IN, b = va + K_IN + 0x2000, o = va + K_OUT;
		uint64_t slot = g->ev[1].slot_va, id = g->ev[1].id;

		memcpy(m + K_KERNARG, in->p, k);
		in->p += k;
		in->n -= k;
		memcpy(m + K_KERNARG, &a, 8);
		memcpy(m + K_KERNARG + 8, &b, 8);
		memcpy(m + K_KERNARG + 16, &o, 8);
		memcpy(m + K_KERNARG + 64, &slot, 8);
		memcpy(m + K_KERNARG + 72, &id, 8);
		k = in->n < SCRATCH - K_IN ? in->n : SCRATCH - K_IN;
		memcpy(m + K_IN, in->p, k);
	}
	*aql = !pm4;
	if (!pm4) { /* KERNEL_DISPATCH, barrier, system acquire and release */
		uint64_t sig = va + K_SIGNAL;

		memset(d, 0, 64);
		d[0] = 0x1402u | (wg[2] > 1 ? 3u : wg[1] > 1 ? 2u : 1u) << 16;
		d[1] = wg[0] | wg[1] << 16;
		d[2] = wg[2];
		d[3] = grid[0];
		d[4] = grid[1];
		d[5] = grid[2];
		d[6] = priv;
		d[7] = lds;
		d[8] = (uint32_t)kd;
		d[9] = (uint32_t)(kd >> 32);
		d[10] = (uint32_t)karg;
		d[11] = (uint32_t)(karg >> 32);
		d[14] = (uint32_t)sig;
		d[15] = (uint32_t)(sig >> 32);
		return 16;
	}
	{
		uint64_t code = kd + 256, o = va + K_OUT;

		d[n++] = hdr3(0x76, 4); /* COMPUTE_PGM_LO/HI */
		d[n++] = 0x20c;
		d[n++] = (uint32_t)(code >> 8);
		d[n++] = (uint32_t)(code >> 40) & 0xffff;
		d[n++] = hdr3(0x76, 4); /* COMPUTE_PGM_RSRC1/2 */
		d[n++] = 0x212;
		d[n++] = rsrc1;
		d[n++] = rsrc2;
		d[n++] = hdr3(0x76, 5); /* COMPUTE_NUM_THREAD_X/Y/Z */
		d[n++] = 0x207;
		for (int i = 0; i < 3; i++)
			d[n++] = wg[i];
		d[n++] = hdr3(0x76, 6); /* COMPUTE_USER_DATA_0..3 */
		d[n++] = 0x240;
		d[n++] = (uint32_t)karg;
		d[n++] = (uint32_t)(karg >> 32);
		d[n++] = (uint32_t)o;
		d[n++] = (uint32_t)(o >> 32);
		d[n++] = hdr3(0x15, 5); /* DISPATCH_DIRECT, COMPUTE_SHADER_EN, CS_W32_EN */
		d[n++] = (grid[0] + wg[0] - 1) / wg[0];
		d[n++] = 1;
		d[n++] = 1;
		d[n++] = 1u | (w32 ? 1u << 15 : 0);
	}
	return n;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint32_t d[MAX_DW];
	struct in in = { data, size };
	unsigned mode = (unsigned)take(&in, 1);
	struct gpu *g = &gpus[mode % NGPU];
	bool sdma = (mode >> 2) & 1, raw = (mode >> 3) & 1, aql = false;
	struct kfdsig_kfd_queue *q = NULL;
	struct kfdsig_emu_queue_info info;
	uint32_t n, qid = 0;
	size_t fill;

	if (mode & 0x10) {
		n = kernel_input(&g, &in, d, &aql);
		sdma = false;
		goto submit;
	}
	/* the scratch buffer: IB contents, shader code, data */
	fill = take(&in, 2) % (in.n + 1);
	memset(g->scratch->cpu, 0, SCRATCH);
	memcpy(g->scratch->cpu, in.p, fill < SCRATCH ? fill : SCRATCH);
	if (raw) {
		n = (uint32_t)(in.n / 4 < MAX_DW ? in.n / 4 : MAX_DW);
		memcpy(d, in.p, (size_t)n * 4);
	} else {
		n = sdma ? build_sdma(g, &in, d) : build_pm4(g, &in, d);
	}
	if (!n)
		return 0;
submit:
	if (kfdsig_kfd_queue_create(g->kfd, g->gpu_id,
				    aql	   ? KFDSIG_QUEUE_AQL
				    : sdma ? KFDSIG_QUEUE_SDMA
					   : KFDSIG_QUEUE_PM4,
				    NULL, &q))
		abort();
	for (; qid < 32; qid++)
		if (!kfdsig_emu_queue_info(g->emu, g->pasid, qid, &info))
			break;
	if (!kfdsig_kfd_queue_submit(q, d, n, 5)) {
		/* a kernel consumes its one packet only at its end: 1 ms */
		int64_t idle = mode & 0x10 ? 1 : 2;
		int64_t now = now_ms(), end = now + 20, idle_end = now + idle;
		uint64_t seen = 0;

		/* until done, 20 ms, or 2 ms without a dword executed (a poll
		 * that never ends, a shader loop: waiting longer only costs
		 * executions, about 12% of inputs spent the whole 20 ms) */
		do {
			if (kfdsig_emu_queue_info(g->emu, g->pasid, qid, &info) || info.halted ||
			    info.consumed >= (aql ? n / 16 : n))
				break;
			if (info.consumed != seen) {
				seen = info.consumed;
				idle_end = now + idle;
			}
			usleep(20);
			now = now_ms();
		} while (now < end && now < idle_end);
	}
	kfdsig_kfd_queue_destroy(q); /* stops the engine wherever it is */
	return 0;
}
