/* SPDX-License-Identifier: MIT */
/*
 * PM4 packets that dispatch a compiled kernel (code object v4-v6) on a
 * compute queue: the wave state LLVM AMDGPUUsage "Initial Kernel Execution
 * State" describes, programmed through the registers the CP loads into a
 * wave (SET_SH_REG of the COMPUTE_* registers, then DISPATCH_DIRECT), as
 * the kernel's own compute dispatches do (gfx_v9_0.c
 * gfx_v9_0_do_edc_gpr_workarounds(), gfx_v10_0.c / gfx_v11_0.c GPR-init
 * dispatches) and Mesa radeonsi si_compute.c / radv for compute: NUM_THREAD
 * full and partial groups with PARTIAL_TG_EN, TMPRING_SIZE WAVES and
 * WAVESIZE, DISPATCH_SCRATCH_BASE on gfx11+. Register offsets and field
 * positions are the public ones in kfdsig/pm4.h (GC 12.1's TMPRING_SIZE
 * and RSRC3: pm4_sh_tmpring(), kfdsig_target.sh_compute_pgm_rsrc3).
 */
#include <errno.h>
#include <string.h>

#include "core/internal.h"
#include "core/opts.h"
#include "pm4/pm4_defs.h"

#define SH_HDR(nregs) (PM4_HDR(PM4_OP_SET_SH_REG, 1 + (nregs)) | PM4_HDR_SHADER_COMPUTE)
#define DISPATCH_HDR (PM4_HDR(PM4_OP_DISPATCH_DIRECT, 4) | PM4_HDR_SHADER_COMPUTE)

/* COMPUTE_PGM_RSRC2.USER_SGPR [5:1] (AMDGPUUsage compute_pgm_rsrc2). */
#define RSRC2_USER_SGPR(r) ((r) >> 1 & 31u)

/*
 * The private segment buffer V# (AMDGPUUsage "Private Segment Buffer": a
 * swizzled buffer resource over the queue's scratch, each work-item's
 * dwords interleaved with its wave's). Dword 3: ADD_TID_ENABLE [23],
 * INDEX_STRIDE [22:21] (3: 64, 2: 32 lanes), ELEMENT_SIZE [20:19] 1 (4
 * bytes), a 32-bit format and DST_SEL xyzw; the format bits beyond
 * ADD_TID_ENABLE and INDEX_STRIDE are not verified against hardware
 * (gfx10 moved the format field): a kernel addresses scratch through
 * ADD_TID and the stride only.
 */
#define SRD3_ADD_TID (1u << 23)
#define SRD3_INDEX_STRIDE(lanes) ((lanes) == 64 ? 3u << 21 : 2u << 21)
#define SRD3_ELEMENT_SIZE_4 (1u << 19)
#define SRD3_DST_SEL_XYZW (4u | 5u << 3 | 6u << 6 | 7u << 9)
#define SRD3_GFX9_FMT_32 (4u << 15 | 7u << 12)
#define SRD1_SWIZZLE_EN (1u << 31)

struct plan {
	struct kfdsig_pm4_kernel k;
	uint32_t rsrc1, rsrc2, rsrc3, priv, lds, tmpring, nuser, nwords;
	uint16_t props;
	uint64_t entry;
	uint32_t groups[3], partial[3];
	bool w32, scratch_base, partial_tg;
	uint32_t user[KFDSIG_PM4_USER_DATA_MAX];
};

static uint32_t rd32(const uint8_t *kd, unsigned off)
{
	uint32_t v;

	memcpy(&v, kd + off, 4);
	return v;
}

/* The user SGPRs the descriptor enables, in AMDGPUUsage order. */
static int user_sgprs(const struct kfdsig_target *t, struct plan *p, uint32_t lanes)
{
	const struct kfdsig_pm4_kernel *k = &p->k;
	uint32_t n = 0, *u = p->user;
	static const struct {
		uint16_t bit;
		uint8_t n;
		const char *what;
	} order[] = {
		{ KFDSIG_KD_SGPR_PRIVATE_SEGMENT_BUFFER, 4, "private segment buffer" },
		{ KFDSIG_KD_SGPR_DISPATCH_PTR, 2, "dispatch pointer" },
		{ KFDSIG_KD_SGPR_QUEUE_PTR, 2, "queue pointer" },
		{ KFDSIG_KD_SGPR_KERNARG_SEGMENT_PTR, 2, "kernarg segment pointer" },
		{ KFDSIG_KD_SGPR_DISPATCH_ID, 2, "dispatch id" },
		{ KFDSIG_KD_SGPR_FLAT_SCRATCH_INIT, 2, "flat scratch init" },
		{ KFDSIG_KD_SGPR_PRIVATE_SEGMENT_SIZE, 1, "private segment size" },
	};

	for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		uint64_t v = 0;

		if (!(p->props & order[i].bit))
			continue;
		if (unlikely(n + order[i].n > KFDSIG_PM4_USER_DATA_MAX))
			return set_error(EINVAL,
					 "the descriptor's user SGPRs exceed the %u user-data "
					 "registers",
					 KFDSIG_PM4_USER_DATA_MAX);
		switch (order[i].bit) {
		case KFDSIG_KD_SGPR_PRIVATE_SEGMENT_BUFFER:
			u[n] = (uint32_t)k->scratch_va;
			u[n + 1] = (uint32_t)(k->scratch_va >> 32 & 0xffff) |
				   (t->level < KFDSIG_GFX10 ? SRD1_SWIZZLE_EN : 0);
			u[n + 2] = k->scratch_size > 0xffffffffu ? 0xffffffffu
								 : (uint32_t)k->scratch_size;
			u[n + 3] = SRD3_ADD_TID | SRD3_INDEX_STRIDE(lanes) | SRD3_ELEMENT_SIZE_4 |
				   SRD3_DST_SEL_XYZW |
				   (t->level < KFDSIG_GFX10 ? SRD3_GFX9_FMT_32 : 0);
			n += 4;
			continue;
		case KFDSIG_KD_SGPR_DISPATCH_PTR:
			v = k->dispatch_va;
			break;
		case KFDSIG_KD_SGPR_QUEUE_PTR:
			v = k->queue_va;
			break;
		case KFDSIG_KD_SGPR_KERNARG_SEGMENT_PTR:
			v = k->kernarg_va;
			break;
		case KFDSIG_KD_SGPR_DISPATCH_ID:
			u[n] = (uint32_t)k->dispatch_id;
			u[n + 1] = (uint32_t)(k->dispatch_id >> 32);
			n += 2;
			continue;
		case KFDSIG_KD_SGPR_FLAT_SCRATCH_INIT:
			/* GFX9-GFX10.3: the scratch's base, to which the
			 * kernel's prologue adds its wave offset */
			v = k->scratch_va;
			break;
		case KFDSIG_KD_SGPR_PRIVATE_SEGMENT_SIZE:
			u[n++] = p->priv;
			continue;
		}
		/* the queue pointer may be 0: a PM4 queue has no amd_queue_t,
		 * and -O0 code asks for every pointer whether it reads it or
		 * not (flat scratch init: 0 without private memory) */
		if (unlikely(!v && order[i].bit != KFDSIG_KD_SGPR_FLAT_SCRATCH_INIT &&
			     order[i].bit != KFDSIG_KD_SGPR_QUEUE_PTR))
			return set_error(EINVAL, "the kernel asks for the %s: its address is 0",
					 order[i].what);
		if (unlikely((order[i].bit == KFDSIG_KD_SGPR_KERNARG_SEGMENT_PTR && (v & 15)) ||
			     (order[i].bit == KFDSIG_KD_SGPR_DISPATCH_PTR && (v & 63)) ||
			     (v >> 48)))
			return set_error(EINVAL, "%s 0x%llx: misaligned or beyond 2^48",
					 order[i].what, (unsigned long long)v);
		u[n] = (uint32_t)v;
		u[n + 1] = (uint32_t)(v >> 32);
		n += 2;
	}
	if (unlikely(n > RSRC2_USER_SGPR(p->rsrc2)))
		return set_error(EINVAL,
				 "the descriptor enables %u user SGPRs, its COMPUTE_PGM_RSRC2 "
				 "USER_SGPR_COUNT is %u",
				 n, RSRC2_USER_SGPR(p->rsrc2));
	/* preloaded kernel arguments (USER_SGPR_COUNT beyond them): the
	 * kernel's entry prologue loads them; the registers start at 0 */
	p->nuser = RSRC2_USER_SGPR(p->rsrc2);
	if (unlikely(p->nuser > KFDSIG_PM4_USER_DATA_MAX))
		return set_error(EINVAL, "USER_SGPR_COUNT %u exceeds the %u user-data registers",
				 p->nuser, KFDSIG_PM4_USER_DATA_MAX);
	for (; n < p->nuser; n++)
		u[n] = 0;
	return 0;
}

/*
 * Bytes of one COMPUTE_PGM_RSRC2.LDS_SIZE granule (LLVM AMDGPUUsage
 * compute_pgm_rsrc2 GRANULATED_LDS_SIZE): 128 dwords on GFX7 to GFX12,
 * 320 dwords on GFX950 (160 KiB of LDS), 512 dwords on GFX125* (320 KiB;
 * LLVM commit 5f38ae4a77d4 "update LDS block size for gfx1250").
 */
static uint32_t lds_granule(const struct kfdsig_target *t)
{
	if (t->pm4_fence == KFDSIG_PM4_FENCE_GC12_1)
		return 2048;
	if (t->gfx_target_version == 90500)
		return 1280;
	return KFDSIG_PM4_LDS_GRANULE;
}

static int plan(const struct kfdsig_target *t, const struct kfdsig_pm4_kernel *user, struct plan *p)
{
	const struct kfdsig_pm4_kernel *k = &p->k;
	const uint8_t *kd;
	uint32_t lanes, wg = 1, unit, wave_bytes;
	int64_t off;
	int r;

	memset(p, 0, sizeof(*p));
	if (unlikely(!t))
		return set_error(EINVAL, "no target");
	if (unlikely(!user))
		return set_error(EINVAL, "no kernel dispatch");
	r = opts_copy(&p->k, sizeof(p->k), user, "kfdsig_pm4_kernel");
	if (r)
		return r;
	if (unlikely(k->num_xcc > (t->max_xcc > 1 ? t->max_xcc : 1u)))
		return set_error(EINVAL, "%s: num_xcc %u, the target has at most %u XCCs", t->name,
				 k->num_xcc, t->max_xcc > 1 ? t->max_xcc : 1u);
	if (unlikely(!k->kd || !k->kd_va || (k->kd_va & 63) || (k->kd_va >> 48)))
		return set_error(EINVAL,
				 "kernel descriptor: host copy %p, address 0x%llx (needs both, "
				 "64-byte aligned, below 2^48)",
				 k->kd, (unsigned long long)k->kd_va);
	kd = k->kd;
	memcpy(&off, kd + KFDSIG_KD_ENTRY_BYTE_OFFSET, 8);
	memcpy(&p->props, kd + KFDSIG_KD_CODE_PROPERTIES, 2);
	p->rsrc1 = rd32(kd, KFDSIG_KD_PGM_RSRC1);
	p->rsrc2 = rd32(kd, KFDSIG_KD_PGM_RSRC2);
	p->rsrc3 = rd32(kd, KFDSIG_KD_PGM_RSRC3);
	p->entry = k->kd_va + (uint64_t)off;
	if (unlikely(!p->entry || (p->entry & 255) || (p->entry >> 48)))
		return set_error(EINVAL, "kernel entry 0x%llx: not 256-byte aligned below 2^48",
				 (unsigned long long)p->entry);
	p->w32 = (p->props & KFDSIG_KD_WAVEFRONT_SIZE32) != 0;
	if (unlikely(p->w32 && t->level < KFDSIG_GFX10))
		return set_error(EINVAL, "a wave32 kernel on %s (wave64 only before gfx10)",
				 t->name);
	lanes = p->w32 ? 32 : 64;
	for (int i = 0; i < 3; i++) {
		uint32_t g = k->grid[i], w = k->workgroup[i];

		if (unlikely(!g || !w))
			return set_error(EINVAL, "grid and workgroup sizes must be at least 1");
		wg *= w;
		p->groups[i] = g / w + (g % w != 0);
		p->partial[i] = g % w ? g % w : w;
		if (g % w)
			p->partial_tg = true;
	}
	if (unlikely(wg > 1024))
		return set_error(EINVAL, "workgroup of %u work-items (at most 1024)", wg);

	/* private segment: per work-item, a wave's share in the unit */
	p->priv = rd32(kd, KFDSIG_KD_PRIVATE_SEGMENT_FIXED_SIZE);
	if (k->private_segment_size > p->priv)
		p->priv = k->private_segment_size;
	p->priv = (p->priv + 3) & ~3u;
	if (p->priv) {
		/* Each XCC runs its share of a PM4 dispatch with its own SPI,
		 * whose wave slots (COMPUTE_TMPRING_SIZE.WAVES) start at the
		 * same scratch base: on several XCCs the waves of two XCCs
		 * would share memory. Runtimes that program these registers
		 * give each XCC its own slice under PRED_EXEC (tinygrad
		 * ops_amd.py: COMPUTE_DISPATCH_SCRATCH_BASE per xcc_id), which
		 * takes an indirect buffer; not emitted here: refused unless
		 * the node has one XCC (a CPX partition). */
		if (unlikely(t->max_xcc > 1 && k->num_xcc != 1))
			return set_error(ENOTSUP,
					 "%s: private memory on a PM4 dispatch needs a one-XCC "
					 "node (num_xcc = 1, a CPX partition; it is %u): the "
					 "XCCs would share the scratch's wave slots",
					 t->name, k->num_xcc);
		unit = KFDSIG_PM4_TMPRING_UNIT(t->level);
		wave_bytes = pm4_tmpring_wave_bytes(t->level, (uint64_t)p->priv * lanes);
		if (unlikely(wave_bytes / unit >= 1u << KFDSIG_PM4_TMPRING_WAVESIZE_BITS(t->level)))
			return set_error(EINVAL, "%u private bytes per work-item exceed WAVESIZE",
					 p->priv);
		if (unlikely(!k->scratch_va || (k->scratch_va & 255) || (k->scratch_va >> 48) ||
			     k->scratch_size < wave_bytes))
			return set_error(EINVAL,
					 "%u private bytes per work-item need a scratch of at "
					 "least %u bytes at a 256-byte aligned address (got "
					 "0x%llx, %llu bytes)",
					 p->priv, wave_bytes, (unsigned long long)k->scratch_va,
					 (unsigned long long)k->scratch_size);
		/* WAVES per shader engine from gfx11 on (pm4_tmpring_size()).
		 * Where each engine's slots lie in the scratch is not
		 * documented in those sources; the division bounds every
		 * layout that gives N engines N x WAVES slots of WAVESIZE from
		 * COMPUTE_DISPATCH_SCRATCH_BASE, which is the runtimes' sizing
		 * (scratch = WAVES x engines x WAVESIZE). Without the engine
		 * count (0) the waves of N engines could use N times the
		 * scratch on hardware: refused, as is a scratch below one wave
		 * per engine (WAVES 0 gives no wave a slot). */
		if (unlikely(t->level >= KFDSIG_GFX11 && !k->num_se))
			return set_error(EINVAL,
					 "%s: private memory needs kfdsig_pm4_kernel.num_se (the "
					 "node's shader engines): from gfx11 on "
					 "COMPUTE_TMPRING_SIZE.WAVES counts waves per engine",
					 t->name);
		p->tmpring = pm4_tmpring_size(t->level, k->scratch_size, wave_bytes, k->num_se);
		if (unlikely(!p->tmpring))
			return set_error(EINVAL,
					 "%s: a scratch of %llu bytes holds %llu waves of %u "
					 "bytes, below one per shader engine (%u)",
					 t->name, (unsigned long long)k->scratch_size,
					 (unsigned long long)(k->scratch_size / wave_bytes),
					 wave_bytes, k->num_se);
		/* architected flat scratch: the hardware starts FLAT_SCRATCH at
		 * COMPUTE_DISPATCH_SCRATCH_BASE plus the wave's slot on gfx11+
		 * and on the compute-only GC 9.4.3/9.5 (Mesa ac_gpu_info.c
		 * has_scratch_base_registers: gfx_level >= GFX11, or no
		 * graphics and family >= CHIP_GFX940, then R_00B840/R_00B844
		 * programmed as on gfx11; tinygrad ops_amd.py the same for
		 * gfx942 and gfx950; LLVM AMDGPUUsage "Flat Scratch": GFX940
		 * has architected flat scratch). TMPRING_SIZE keeps the gfx9
		 * layout there (Mesa ac_gpu_info.c: 1 KiB WAVESIZE granule
		 * below GFX11). GC 12.1 the same as gfx12: LLVM AMDGPU.td
		 * FeatureISAVersion12_50 has FeatureArchitectedFlatScratch
		 * (llc-22 -mcpu=gfx1250 asks for no flat scratch init), its
		 * map has DISPATCH_SCRATCH_BASE_LO/HI at 0x210/0x211
		 * (gc_12_1_0_offset.h regCOMPUTE_DISPATCH_SCRATCH_BASE_LO
		 * 0x1bb0) and TMPRING_SIZE the gfx12 fields in 256-byte units
		 * (gc_12_1_0_sh_mask.h WAVESIZE_MASK 0x3FFFF000; ROCr
		 * amd_aql_queue.cpp: 256 bytes from ISA major 11 on), at its
		 * own offset (pm4_sh_tmpring()). */
		p->scratch_base = t->level >= KFDSIG_GFX11 || t->family == KFDSIG_FAMILY_GFX94X;
	}

	/* group segment: RSRC2.LDS_SIZE in the target's granules */
	p->lds = rd32(kd, KFDSIG_KD_GROUP_SEGMENT_FIXED_SIZE);
	if (k->group_segment_size > p->lds)
		p->lds = k->group_segment_size;
	if (p->lds) {
		uint32_t gran = lds_granule(t), g = (p->lds + gran - 1) / gran;

		if (unlikely(g > KFDSIG_PM4_RSRC2_LDS_SIZE_MASK >> KFDSIG_PM4_RSRC2_LDS_SIZE_SHIFT))
			return set_error(EINVAL, "group segment of %u bytes exceeds LDS_SIZE",
					 p->lds);
		p->rsrc2 = (p->rsrc2 & ~KFDSIG_PM4_RSRC2_LDS_SIZE_MASK) |
			   g << KFDSIG_PM4_RSRC2_LDS_SIZE_SHIFT;
	}
	r = user_sgprs(t, p, lanes);
	if (r)
		return r;
	/* start, threads (2 + 6), pgm (4), rsrc1/2 (4), limits (3), tmpring
	 * (3), dispatch (5) */
	p->nwords = 8 + 4 + 4 + 3 + 3 + 5;
	if (t->sh_compute_pgm_rsrc3)
		p->nwords += 3;
	if (p->scratch_base)
		p->nwords += 4;
	if (p->nuser)
		p->nwords += 2 + p->nuser;
	return 0;
}

int kfdsig_pm4_kernel_dw(const struct kfdsig_target *t, const struct kfdsig_pm4_kernel *k)
{
	struct plan p;
	int r = plan(t, k, &p);

	return r ? r : (int)p.nwords;
}

int kfdsig_pm4_emit_kernel(const struct kfdsig_target *t, const struct kfdsig_pm4_kernel *k,
			   uint32_t *buf, size_t max_dw)
{
	struct plan p;
	uint32_t *o = buf;
	uint64_t pgm;
	int r = plan(t, k, &p);

	if (r)
		return r;
	if (unlikely(!buf || max_dw < p.nwords))
		return set_error(ENOSPC, "the dispatch needs %u dwords, the buffer has %zu",
				 p.nwords, buf ? max_dw : 0);

	*o++ = SH_HDR(6);
	*o++ = KFDSIG_PM4_SH_COMPUTE_START_X;
	*o++ = 0;
	*o++ = 0;
	*o++ = 0;
	for (int i = 0; i < 3; i++)
		*o++ = KFDSIG_PM4_NUM_THREAD(p.k.workgroup[i], p.partial[i]);

	pgm = p.entry >> 8;
	*o++ = SH_HDR(2);
	*o++ = KFDSIG_PM4_SH_COMPUTE_PGM_LO;
	*o++ = (uint32_t)pgm;
	*o++ = (uint32_t)(pgm >> 32) & 0xff;

	*o++ = SH_HDR(2);
	*o++ = KFDSIG_PM4_SH_COMPUTE_PGM_RSRC1;
	*o++ = p.rsrc1;
	*o++ = p.rsrc2;

	if (t->sh_compute_pgm_rsrc3) {
		*o++ = SH_HDR(1);
		*o++ = t->sh_compute_pgm_rsrc3;
		*o++ = p.rsrc3;
	}

	*o++ = SH_HDR(1);
	*o++ = KFDSIG_PM4_SH_COMPUTE_RESOURCE_LIMITS;
	*o++ = 0;

	*o++ = SH_HDR(1);
	*o++ = pm4_sh_tmpring(t);
	*o++ = p.tmpring;

	if (p.scratch_base) {
		*o++ = SH_HDR(2);
		*o++ = KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_LO;
		*o++ = (uint32_t)(p.k.scratch_va >> 8);
		*o++ = (uint32_t)(p.k.scratch_va >> 40);
	}

	if (p.nuser) {
		*o++ = SH_HDR(p.nuser);
		*o++ = KFDSIG_PM4_SH_COMPUTE_USER_DATA_0;
		for (uint32_t i = 0; i < p.nuser; i++)
			*o++ = p.user[i];
	}

	*o++ = DISPATCH_HDR;
	*o++ = p.groups[0];
	*o++ = p.groups[1];
	*o++ = p.groups[2];
	*o++ = KFDSIG_PM4_DI_COMPUTE_SHADER_EN | KFDSIG_PM4_DI_FORCE_START_AT_000 |
	       (p.partial_tg ? KFDSIG_PM4_DI_PARTIAL_TG_EN : 0) |
	       (p.w32 ? KFDSIG_PM4_DI_CS_W32_EN : 0);
	return (int)(o - buf);
}

int kfdsig_pm4_implicit_args(const struct kfdsig_pm4_kernel *user, void *dst, size_t len)
{
	struct kfdsig_pm4_kernel k;
	uint8_t *d = dst;
	uint16_t dims = 1;
	int r;

	if (unlikely(!user || !dst))
		return set_error(EINVAL, "no dispatch or no destination");
	r = opts_copy(&k, sizeof(k), user, "kfdsig_pm4_kernel");
	if (r)
		return r;
	if (unlikely(len < KFDSIG_IMPLICIT_ARGS_DISPATCH_BYTES))
		return set_error(EINVAL, "implicit arguments need %u bytes, %zu given",
				 KFDSIG_IMPLICIT_ARGS_DISPATCH_BYTES, len);
	for (int i = 0; i < 3; i++)
		if (unlikely(!k.grid[i] || !k.workgroup[i]))
			return set_error(EINVAL, "grid and workgroup sizes must be at least 1");
	for (int i = 0; i < 3; i++) {
		uint32_t blocks = k.grid[i] / k.workgroup[i];
		uint16_t gs = k.workgroup[i], rem = (uint16_t)(k.grid[i] % k.workgroup[i]);
		uint64_t zero = 0;

		memcpy(d + KFDSIG_IMPLICIT_BLOCK_COUNT + 4 * i, &blocks, 4);
		memcpy(d + KFDSIG_IMPLICIT_GROUP_SIZE + 2 * i, &gs, 2);
		memcpy(d + KFDSIG_IMPLICIT_REMAINDER + 2 * i, &rem, 2);
		memcpy(d + KFDSIG_IMPLICIT_GLOBAL_OFFSET + 8 * i, &zero, 8);
		if (k.grid[i] > 1)
			dims = (uint16_t)(i + 1);
	}
	memcpy(d + KFDSIG_IMPLICIT_GRID_DIMS, &dims, 2);
	if (k.private_aperture || k.shared_aperture) {
		uint32_t priv = (uint32_t)(k.private_aperture >> 32);
		uint32_t shared = (uint32_t)(k.shared_aperture >> 32);

		if (unlikely(len < KFDSIG_IMPLICIT_ARGS_APERTURE_BYTES))
			return set_error(
				EINVAL,
				"implicit arguments with the aperture bases need %u bytes, "
				"%zu given",
				KFDSIG_IMPLICIT_ARGS_APERTURE_BYTES, len);
		memcpy(d + KFDSIG_IMPLICIT_PRIVATE_BASE, &priv, 4);
		memcpy(d + KFDSIG_IMPLICIT_SHARED_BASE, &shared, 4);
	}
	return 0;
}
