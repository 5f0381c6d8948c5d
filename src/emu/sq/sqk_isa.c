/* SPDX-License-Identifier: MIT */
/*
 * Families and the decoder of the kernel interpreter. Field layouts are our
 * reading of the AMD ISA manuals ("Vega Instruction Set Architecture",
 * "AMD Instinct MI200/MI300 ISA", "RDNA2 Instruction Set Architecture":
 * "Microcode Formats") and LLVM's AMDGPU encodings (SOPInstructions.td,
 * SMInstructions.td, VOPInstructions.td, VOP3PInstructions.td,
 * FLATInstructions.td, DSInstructions.td, BUFInstructions.td); each
 * family's opcodes are its table in sqk_tab.c. test/emu_sqk_encoding.c
 * checks the decoder against LLVM 22's llvm-objdump.
 */
#include <pthread.h>
#include <stdio.h>

#include "emu/sq/sqk_exec.h"

static const char *const names[K_COUNT] = {
	[K_INVALID] = "(invalid)",
#define X(n) [K_##n] = #n,
#include "emu/sq/sqk_ops.def"
#undef X
};

const char *sqk_op_name(unsigned op)
{
	return op < K_COUNT ? names[op] : "?";
}

static struct sqk_family fams[] = {
	{ .name = "gfx900", .tab = sqk_tab_gfx900, .gen = SQK_GEN_GFX9 },
	{ .name = "gfx906", .tab = sqk_tab_gfx906, .gen = SQK_GEN_GFX9 },
	{ .name = "gfx908", .tab = sqk_tab_gfx908, .gen = SQK_GEN_GFX9, .agprs = true },
	{ .name = "gfx90a",
	  .tab = sqk_tab_gfx90a,
	  .gen = SQK_GEN_GFX9,
	  .packed_tid = true,
	  .agprs = true,
	  .agpr_unified = true,
	  .dpp_newbcast = true,
	  .release_wb = true },
	{ .name = "gfx940",
	  .tab = sqk_tab_gfx940,
	  .gen = SQK_GEN_GFX9,
	  .packed_tid = true,
	  .agprs = true,
	  .agpr_unified = true,
	  .arch_scratch = true,
	  .dpp_newbcast = true,
	  .release_wb = true },
	{ .name = "gfx1030", .tab = sqk_tab_gfx1030, .gen = SQK_GEN_GFX10_3, .gfx10 = true },
	/* RDNA1: the gfx10 encodings of RDNA2 (RDNA1 ISA manual "Microcode
	 * Formats"); the opcodes differ in the tables (v_mac_f32, v_madak_f32,
	 * v_madmk_f32, v_mad_f32, v_mad_legacy_f32, v_mul_lo_i32 present;
	 * no dot operations on gfx1010, LLVM AMDGPU.td FeatureISAVersion10_1_0) */
	{ .name = "gfx1010", .tab = sqk_tab_gfx1010, .gen = SQK_GEN_GFX10, .gfx10 = true },
	{ .name = "gfx1011", .tab = sqk_tab_gfx1011, .gen = SQK_GEN_GFX10, .gfx10 = true },
	/* CDNA4: gfx940's encodings and register model (LLVM AMDGPU.td
	 * FeatureISAVersion9_5_Common: gfx940's features, FeatureGFX950Insts
	 * adding operations); its own table, in which the operations gfx950
	 * adds (v_prng_b32, v_bitop3, v_permlane*_swap, the scaled and packed
	 * conversions, the new dot and MFMA forms) have no row: illegal */
	{ .name = "gfx950",
	  .tab = sqk_tab_gfx950,
	  .gen = SQK_GEN_GFX9,
	  .packed_tid = true,
	  .agprs = true,
	  .agpr_unified = true,
	  .arch_scratch = true,
	  .dpp_newbcast = true,
	  .release_wb = true },
	/* RDNA3 / 3.5: RDNA semantics (gfx10), work-item ids packed in v0
	 * (LLVM AMDGPUUsage "Initial Kernel Execution State": GFX11 packs
	 * them as GFX90A does; AMDGPU.td FeaturePackedTID in GFX11) */
	{ .name = "gfx1100",
	  .tab = sqk_tab_gfx1100,
	  .gen = SQK_GEN_GFX11,
	  .gfx10 = true,
	  .packed_tid = true },
	/* GCN3 (GCN3 ISA manual "Microcode Formats"; LLVM VIInstrFormats.td):
	 * gfx9's layouts but SMEM without SOE (offset 20 bits), FLAT without
	 * segment and offset, no VOP3P; gfx801, gfx802 and gfx803 have the
	 * same opcodes as LLVM 22's disassembler reads them */
	{ .name = "gfx803", .tab = sqk_tab_gfx803, .gen = SQK_GEN_GFX8 },
	/* RDNA4: gfx11's SALU/VALU/DS layouts and operand codes, the gfx12
	 * memory layouts (sqk_dec_gfx11.c), work-item ids packed in v0 and
	 * the workgroup ids in ttmp9/ttmp7 (LLVM AMDGPU.td FeatureISAVersion12:
	 * FeaturePackedTID, FeatureArchitectedSGPRs); gfx1200 and gfx1201
	 * have the same opcodes as LLVM 22's disassembler reads them */
	{ .name = "gfx1200",
	  .tab = sqk_tab_gfx1200,
	  .gen = SQK_GEN_GFX12,
	  .gfx10 = true,
	  .packed_tid = true,
	  .release_wb = true },
	/* GC 12.5 (gfx1250): RDNA4's layouts with the 64-bit literal
	 * (sqk_dec_gfx11.c), wave32 only, work-item ids packed in v0 and the
	 * workgroup ids in ttmp9/ttmp7 (LLVM AMDGPU.td FeatureISAVersion12_50:
	 * FeaturePackedTID, FeatureArchitectedSGPRs); its own table */
	{ .name = "gfx1250",
	  .tab = sqk_tab_gfx1250,
	  .gen = SQK_GEN_GFX12_5,
	  .gfx10 = true,
	  .packed_tid = true,
	  .release_wb = true },
	/* RDNA3.5 (gfx1150, gfx1151): gfx1100's encodings and register
	 * model, its own table for the GFX11.5 additions, the scalar float
	 * operations among them (LLVM AMDGPU.td FeatureISAVersion11_5_Common:
	 * FeatureSALUFloatInsts, FeatureDPPSrc1SGPR, FeatureRequiredExportPriority) */
	{ .name = "gfx1150",
	  .tab = sqk_tab_gfx1150,
	  .gen = SQK_GEN_GFX11,
	  .gfx10 = true,
	  .packed_tid = true },
};

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void build(void)
{
	for (size_t i = 0; i < sizeof(fams) / sizeof(fams[0]); i++)
		for (const struct sqk_opent *e = fams[i].tab; e->enc != SQK_ENC_NONE; e++)
			fams[i].lookup[e->enc][e->opcode & 1023] = e->op;
}

/*
 * gfx_target_version to family (KFD topology; LLVM AMDGPUUsage processor
 * table): gfx900/902/904/909/90c share gfx900's encodings, gfx906 adds the
 * dot and fma ops, gfx908 the AGPRs, gfx90a the unified register file and
 * packed work-item ids, gfx940-942 (9.4.x) architected flat scratch;
 * gfx1030-1036 are RDNA2; gfx1010 is RDNA1 without the dot operations,
 * gfx1011 and gfx1012 add them (FeatureISAVersion10_1_1/10_1_2: the Dot1,
 * Dot2, Dot5, Dot6 features; gfx1012's opcodes are gfx1011's, as LLVM 22's
 * disassembler reads them); gfx950 (9.5.0) is gfx940 with more operations;
 * gfx1100-1103 and gfx1150/1151 are RDNA3/3.5; gfx1200 and gfx1201 RDNA4;
 * gfx1250 (GC 12.5.0, 120500) its own family; gfx801 (Carrizo), gfx802 (Tonga)
 * and gfx803 (Fiji, Polaris) are GCN3.
 */
const struct sqk_family *sqk_family_of(uint32_t v)
{
	pthread_once(&once, build);
	switch (v) {
	case 80001:
	case 80002:
	case 80003:
		return &fams[10];
	case 90000:
	case 90002:
	case 90004:
	case 90009:
	case 90012:
		return &fams[0];
	case 90006:
		return &fams[1];
	case 90008:
		return &fams[2];
	case 90010:
		return &fams[3];
	case 90400:
	case 90401:
	case 90402:
		return &fams[4];
	case 90500:
		return &fams[8];
	case 100100:
		return &fams[6];
	case 100101:
	case 100102:
		return &fams[7];
	default:
		if (v >= 100300 && v <= 100306)
			return &fams[5];
		/* gfx1100-1103 (Navi31-33, Phoenix); gfx1150/1151 (RDNA3.5,
		 * LLVM AMDGPUUsage: GFX11 with the GFX11.5 additions) */
		if (v >= 110000 && v <= 110003)
			return &fams[9];
		if (v == 110500 || v == 110501)
			return &fams[13];
		if (v == 120000 || v == 120001)
			return &fams[11];
		if (v == 120500)
			return &fams[12];
		return NULL;
	}
}

static inline int32_t sext(uint32_t v, unsigned bits)
{
	return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

/* A source that needs the literal dword. */
static bool lit_src(unsigned code)
{
	return code == SQK_LIT;
}

unsigned sqk_decode(const struct sqk_family *f, const uint32_t *w, unsigned avail,
		    struct sqk_insn *in)
{
	uint32_t w0 = w[0], w1 = avail > 1 ? w[1] : 0;
	unsigned size = 4;
	bool g10 = f->gfx10, g8 = f->gen == SQK_GEN_GFX8, need_lit = false;

	if (f->gen >= SQK_GEN_GFX11)
		return sqk_decode_gfx11(f, w, avail, in);
	memset(in, 0, sizeof(*in));
	in->w[0] = w0;
	in->saddr = 0xffff;
	in->soffset = 0xffff;
	if ((w0 >> 23) == 0x17d) { /* SOP1 */
		in->enc = SQK_SOP1;
		in->opcode = w0 >> 8 & 0xff;
		in->dst = w0 >> 16 & 0x7f;
		in->src[0] = w0 & 0xff;
		need_lit = lit_src(in->src[0]);
	} else if ((w0 >> 23) == 0x17e) { /* SOPC */
		in->enc = SQK_SOPC;
		in->opcode = w0 >> 16 & 0x7f;
		in->src[0] = w0 & 0xff;
		in->src[1] = w0 >> 8 & 0xff;
		need_lit = lit_src(in->src[0]) || lit_src(in->src[1]);
	} else if ((w0 >> 23) == 0x17f) { /* SOPP */
		in->enc = SQK_SOPP;
		in->opcode = w0 >> 16 & 0x7f;
		in->simm16 = w0 & 0xffff;
	} else if ((w0 >> 28) == 0xb) { /* SOPK */
		in->enc = SQK_SOPK;
		in->opcode = w0 >> 23 & 0x1f;
		in->dst = w0 >> 16 & 0x7f;
		in->simm16 = w0 & 0xffff;
	} else if ((w0 >> 30) == 2) { /* SOP2 */
		in->enc = SQK_SOP2;
		in->opcode = w0 >> 23 & 0x7f;
		in->dst = w0 >> 16 & 0x7f;
		in->src[0] = w0 & 0xff;
		in->src[1] = w0 >> 8 & 0xff;
		need_lit = lit_src(in->src[0]) || lit_src(in->src[1]);
	} else if ((w0 >> 25) == 0x3f) { /* VOP1 */
		in->enc = SQK_VOP1;
		in->opcode = w0 >> 9 & 0xff;
		in->dst = 256 + (w0 >> 17 & 0xff);
		in->src[0] = w0 & 0x1ff;
	} else if ((w0 >> 25) == 0x3e) { /* VOPC */
		in->enc = SQK_VOPC;
		in->opcode = w0 >> 17 & 0xff;
		in->src[0] = w0 & 0x1ff;
		in->src[1] = 256 + (w0 >> 9 & 0xff);
		in->dst = SQK_VCC;
	} else if ((w0 >> 31) == 0) { /* VOP2 */
		in->enc = SQK_VOP2;
		in->opcode = w0 >> 25 & 0x3f;
		in->dst = 256 + (w0 >> 17 & 0xff);
		in->src[0] = w0 & 0x1ff;
		in->src[1] = 256 + (w0 >> 9 & 0xff);
	} else {
		unsigned e6 = w0 >> 26;

		size = 8;
		if (avail < 2)
			return 0;
		in->w[1] = w1;
		if ((!g10 && e6 == 0x34) || (g10 && e6 == 0x35)) {
			if (!g10 && !g8 && (w0 >> 23 & 7) == 7) { /* gfx9 VOP3P: 0x1a7 */
				in->enc = SQK_VOP3P;
				in->opcode = w0 >> 16 & 0x7f;
			} else {
				in->enc = SQK_VOP3;
				in->opcode = w0 >> 16 & 0x3ff;
			}
		} else if (g10 && (w0 >> 24) == 0xcc) {
			in->enc = SQK_VOP3P;
			in->opcode = w0 >> 16 & 0x7f;
		}
		if (in->enc == SQK_VOP3 || in->enc == SQK_VOP3P) {
			in->dst = 256 + (w0 & 0xff);
			in->sdst = w0 >> 8 & 0x7f;
			in->clamp = w0 >> 15 & 1;
			in->src[0] = w1 & 0x1ff;
			in->src[1] = w1 >> 9 & 0x1ff;
			in->src[2] = w1 >> 18 & 0x1ff;
			in->neg = w1 >> 29 & 7;
			if (in->enc == SQK_VOP3) {
				in->abs = w0 >> 8 & 7;
				in->opsel = g8 ? 0 : w0 >> 11 & 0xf; /* GCN3: no OPSEL */
				in->omod = w1 >> 27 & 3;
			} else {
				in->neg_hi = w0 >> 8 & 7;
				in->opsel = w0 >> 11 & 7;
				in->opsel_hi = (w1 >> 27 & 3) | (w0 >> 14 & 1) << 2;
			}
			need_lit = g10 && (lit_src(in->src[0]) || lit_src(in->src[1]) ||
					   lit_src(in->src[2]));
		} else if ((!g10 && e6 == 0x30) || (g10 && e6 == 0x3d)) { /* SMEM */
			in->enc = SQK_SMEM;
			in->opcode = w0 >> 18 & 0xff;
			in->dst = w0 >> 6 & 0x7f;
			in->src[0] = (w0 & 0x3f) << 1; /* sbase pair */
			in->glc = w0 >> 16 & 1;
			if (g10) {
				in->offset = sext(w1 & 0x1fffff, 21);
				if ((w1 >> 25) != SQK_NULL10)
					in->soffset = w1 >> 25;
			} else if (g8) {
				/* GCN3 SMEM: IMM selects a 20-bit unsigned
				 * offset or an SGPR in OFFSET[7:0]; no SOE */
				if (w0 >> 17 & 1)
					in->offset = (int32_t)(w1 & 0xfffff);
				else
					in->soffset = w1 & 0xff;
			} else {
				bool imm = w0 >> 17 & 1, soe = w0 >> 14 & 1;

				if (imm)
					in->offset = (int32_t)(w1 & 0x1fffff);
				else if (!soe)
					in->soffset = w1 & 0xff;
				if (soe)
					in->soffset = w1 >> 25;
			}
		} else if (e6 == 0x37) { /* FLAT / GLOBAL / SCRATCH */
			/* GCN3 FLAT: no SEG (FLAT only) and no OFFSET */
			unsigned seg = g8 ? 0 : w0 >> 14 & 3, off = g10 ? SQK_NULL10 : 0x7f;

			in->enc = seg == 0 ? SQK_FLAT : seg == 1 ? SQK_SCRATCH : SQK_GLOBAL;
			if (seg == 3)
				in->enc = SQK_ENC_NONE;
			in->opcode = w0 >> 18 & 0x7f;
			in->glc = w0 >> 16 & 1;
			in->slc = w0 >> 17 & 1;
			if (g8)
				in->offset = 0;
			else if (g10)
				in->offset = seg ? sext(w0 & 0xfff, 12) : (int32_t)(w0 & 0x7ff);
			else
				in->offset = seg ? sext(w0 & 0x1fff, 13) : (int32_t)(w0 & 0xfff);
			in->vaddr = w1 & 0xff;
			in->vdata = w1 >> 8 & 0xff;
			in->dst = 256 + (w1 >> 24);
			in->acc = f->agpr_unified && (w1 >> 23 & 1);
			if (seg && (w1 >> 16 & 0x7f) != off &&
			    !(seg == 1 && (w1 >> 16 & 0x7f) == 0x7f))
				in->saddr = w1 >> 16 & 0x7f;
			if (seg == 1) {
				/* ST mode: saddr "off" as 0x7f on gfx10 and
				 * gfx940, and no vaddr (gfx940: SVE clear) */
				in->sve = f->arch_scratch && (w0 >> 13 & 1);
				if ((w1 >> 16 & 0x7f) == 0x7f && (g10 || f->arch_scratch))
					in->vaddr_off = !in->sve;
				if (f->arch_scratch && in->saddr != 0xffff && !in->sve)
					in->vaddr_off = true;
				if (!f->arch_scratch && in->saddr != 0xffff)
					in->vaddr_off = true;
			}
		} else if (e6 == 0x36) { /* DS */
			in->enc = SQK_DS;
			in->opcode = g10 ? (w0 >> 18 & 0xff) : (w0 >> 17 & 0xff);
			in->gds = g10 ? (w0 >> 17 & 1) : (w0 >> 16 & 1);
			in->offset0 = w0 & 0xff;
			in->offset1 = w0 >> 8 & 0xff;
			in->offset = (int32_t)(w0 & 0xffff);
			in->vaddr = w1 & 0xff;
			in->src[0] = w1 >> 8 & 0xff;  /* data0 */
			in->src[1] = w1 >> 16 & 0xff; /* data1 */
			in->dst = 256 + (w1 >> 24);
			in->acc = f->agpr_unified && (w0 >> 25 & 1);
		} else if (e6 == 0x38) { /* MUBUF */
			in->enc = SQK_MUBUF;
			in->opcode = (w0 >> 18 & 0x7f) | (g10 ? (w0 >> 25 & 1) << 7 : 0);
			in->offset = (int32_t)(w0 & 0xfff);
			in->offen = w0 >> 12 & 1;
			in->idxen = w0 >> 13 & 1;
			in->glc = w0 >> 14 & 1;
			in->slc = w0 >> 17 & 1;
			in->vaddr = w1 & 0xff;
			in->vdata = w1 >> 8 & 0xff;
			in->srsrc = (w1 >> 16 & 0x1f) << 2;
			in->soffset = w1 >> 24;
			in->acc = f->agpr_unified && (w1 >> 23 & 1);
		}
	}
	in->size = (uint8_t)size;
	/* VOP1/VOP2/VOPC: literal, SDWA, DPP */
	if (in->enc == SQK_VOP1 || in->enc == SQK_VOP2 || in->enc == SQK_VOPC) {
		unsigned s0 = in->src[0];

		if (s0 == SQK_LIT) {
			need_lit = true;
		} else if (s0 == 0xf9 || s0 == 0xfa || (g10 && (s0 == 0xe9 || s0 == 0xea))) {
			if (avail < 2)
				return 0;
			in->extw = w1;
			in->w[1] = w1;
			in->ext = s0 == 0xf9   ? SQK_EXT_SDWA
				  : s0 == 0xfa ? SQK_EXT_DPP
					       : SQK_EXT_DPP8;
			in->src[0] = (w1 & 0xff) | 256u;
			if (in->ext == SQK_EXT_SDWA && (w1 >> 23 & 1))
				in->src[0] = w1 & 0xff; /* s0: a scalar source */
			if (in->ext == SQK_EXT_SDWA && in->enc == SQK_VOPC && (w1 >> 15 & 1))
				in->dst = w1 >> 8 & 0x7f;
			in->size = 8;
		}
		/* v_madmk / v_madak / v_fmamk / v_fmaak carry a literal */
		if (in->enc == SQK_VOP2) {
			unsigned op = f->lookup[SQK_VOP2][in->opcode];

			if (op == K_v_madmk_f32 || op == K_v_madak_f32 || op == K_v_fmamk_f32 ||
			    op == K_v_fmaak_f32 || op == K_v_madmk_f16 || op == K_v_madak_f16 ||
			    op == K_v_fmamk_f16 || op == K_v_fmaak_f16)
				need_lit = true;
		}
	}
	if (in->enc == SQK_SOPK && f->lookup[SQK_SOPK][in->opcode] == K_s_setreg_imm32_b32)
		need_lit = true;
	if (need_lit) {
		unsigned k = in->size / 4;

		if (avail <= k)
			return 0;
		in->lit = w[k];
		in->w[k] = w[k];
		in->size += 4;
	}
	if (in->enc == SQK_ENC_NONE)
		return 0;
	in->op = f->lookup[in->enc][in->opcode & 1023];
	return in->size;
}

int sqk_fail(struct sqk_wave *w, const struct sqk_insn *in, int err, const char *why)
{
	struct sqk_result *res = w->r->res;
	static const char *const enc[SQK_NENC] = {
		"?",	   "SOP2", "SOPK",  "SOP1", "SOPC",  "SOPP", "SMEM",
		"VOP1",	   "VOP2", "VOPC",  "VOP3", "VOP3P", "FLAT", "GLOBAL",
		"SCRATCH", "DS",   "MUBUF", "VOPD", "VOPD3",
	};

	if (res->err || res->trapped)
		return res->err;
	res->err = err;
	res->pc = in ? in->pc : w->pc;
	if (in) {
		/* the instruction's own dwords (4 to 16 bytes with a
		 * literal), each as the ISA manual prints one */
		unsigned n = in->size >= 4 && in->size <= 16 ? in->size / 4 : 1;
		char words[48];

		snprintf(words, sizeof(words), "0x%08x", in->w[0]);
		for (unsigned i = 1; i < n; i++)
			snprintf(words + 10 + 11 * (i - 1), sizeof(words) - 10 - 11 * (i - 1),
				 " 0x%08x", in->w[i]);
		snprintf(res->msg, sizeof(res->msg), "%s %s at 0x%llx: %s (%s opcode %u)", why,
			 in->op ? sqk_op_name(in->op) : "unknown", (unsigned long long)in->pc,
			 words, enc[in->enc < SQK_NENC ? in->enc : 0], in->opcode);
	} else
		snprintf(res->msg, sizeof(res->msg), "%s at 0x%llx", why,
			 (unsigned long long)w->pc);
	if (sqk_trace)
		sqk_trace(res->msg);
	return err;
}

void (*sqk_trace)(const char *msg);

/* Inline float constants 240-248 (0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2*pi)). */
static const uint32_t fc32[9] = { 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
				  0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983 };
static const uint64_t fc64[9] = { 0x3fe0000000000000ull, 0xbfe0000000000000ull,
				  0x3ff0000000000000ull, 0xbff0000000000000ull,
				  0x4000000000000000ull, 0xc000000000000000ull,
				  0x4010000000000000ull, 0xc010000000000000ull,
				  0x3fc45f306dc9c882ull };

/*
 * A scalar source code the family can read. The ISA manuals' operand
 * tables ("SSRC0" / "Scalar operands"): 125 is NULL on RDNA (reserved
 * before), 209-234 are reserved (RDNA's DPP8 markers are taken by the
 * decoder), the aperture registers 235-238 are GFX9 on (GCN3 has none:
 * LLVM reads the apertures from the queue or the implicit arguments
 * there), 249 and 250 mark SDWA and DPP in the 32-bit VOP encodings only.
 * 239 (POPS_EXITING_WAVE_ID) and 254 (LDS_DIRECT) exist but are not
 * modelled: reading them would be a guess, so they are refused too.
 */
static bool scalar_code_ok(const struct sqk_family *f, unsigned c)
{
	if (c < SQK_NULL10 || c >= 256) /* SGPRs, VCC, TTMPs, M0; VGPRs */
		return true;
	if (c == SQK_NULL10)
		return f->gfx10;
	if (c <= 208) /* EXEC, inline integers */
		return true;
	if (c >= 235 && c <= 238) /* shared / private base and limit */
		return f->gen != SQK_GEN_GFX8;
	if (c >= 240 && c <= 248) /* inline floats */
		return true;
	if (c == SQK_LIT64) /* gfx1250's 64-bit literal (sqk_dec_gfx11.c) */
		return f->gen >= SQK_GEN_GFX12_5;
	return c >= 251; /* VCCZ, EXECZ, SCC, literal */
}

bool sqk_operands_ok(const struct sqk_family *f, const struct sqk_insn *in)
{
	for (unsigned i = 0; i < 3; i++) {
		if (!scalar_code_ok(f, in->src[i]))
			return false;
		/* VOP3 takes a literal from RDNA on (GFX9 ISA manual, VOP3:
		 * "literal constants are not supported") */
		if (in->src[i] == SQK_LIT && !f->gfx10 &&
		    (in->enc == SQK_VOP3 || in->enc == SQK_VOP3P))
			return false;
	}
	if ((in->enc == SQK_VOPD || in->enc == SQK_VOPD3) &&
	    (!scalar_code_ok(f, in->srcy[0]) || !scalar_code_ok(f, in->srcy[1]) ||
	     !scalar_code_ok(f, in->srcy[2])))
		return false;
	return (in->saddr == 0xffff || scalar_code_ok(f, in->saddr)) &&
	       (in->soffset == 0xffff || scalar_code_ok(f, in->soffset));
}

uint64_t sqk_sread_code(struct sqk_wave *w, const struct sqk_insn *in, unsigned code, bool b64,
			bool f64)
{
	const struct sqk_run *r = w->r;

	if (code < 124 || code == SQK_EXEC || code == SQK_EXEC + 1) {
		uint64_t v = w->s[code];

		if (b64 && code < 127)
			v |= (uint64_t)w->s[code + 1] << 32;
		return v;
	}
	if (code == SQK_M0)
		return w->s[SQK_M0];
	if (code == SQK_NULL10)
		return 0;
	if (code >= 128 && code <= 192)
		return code - 128;
	if (code >= 193 && code <= 208) {
		int64_t v = -(int64_t)(code - 192);

		return b64 ? (uint64_t)v : (uint32_t)v;
	}
	if (code >= 240 && code <= 248)
		return b64 ? fc64[code - 240] : fc32[code - 240];
	switch (code) {
	case 235: /* src_shared_base / limit, src_private_base / limit */
		return b64 ? r->d->shared_base : r->d->shared_base >> 32;
	case 236:
		return b64 ? (r->d->shared_base | 0xffffffffull) : r->d->shared_base >> 32;
	case 237:
		return b64 ? r->d->private_base : r->d->private_base >> 32;
	case 238:
		return b64 ? (r->d->private_base | 0xffffffffull) : r->d->private_base >> 32;
	case 251: /* vccz */
		return sqk_get_mask(w, SQK_VCC) == 0;
	case 252: /* execz */
		return sqk_exec(w) == 0;
	case 253:
		return w->scc;
	case SQK_LIT:
		return b64 && f64 ? (uint64_t)in->lit << 32 : in->lit;
	case SQK_LIT64:
		/* the whole operand of a 64-bit source; a 32-bit source
		 * reading it is no instruction LLVM encodes: refused */
		if (b64)
			return in->lit | (uint64_t)in->lit_hi << 32;
		sqk_fail(w, in, -ENOTSUP, "64-bit literal in a 32-bit operand");
		return 0;
	default:
		/* sqk_operands_ok() refused these at the fetch: a code
		 * reaching here is a decoder's mistake, never a value */
		sqk_fail(w, in, -ENOTSUP, "scalar operand not implemented");
		return 0;
	}
}

void sqk_swrite_code(struct sqk_wave *w, unsigned code, uint64_t v, bool b64)
{
	if (code == SQK_NULL10 && w->r->f->gfx10)
		return;
	if (code >= 128)
		return;
	w->s[code] = (uint32_t)v;
	if (b64 && code < 127)
		w->s[code + 1] = (uint32_t)(v >> 32);
}
