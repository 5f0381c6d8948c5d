/* SPDX-License-Identifier: MIT */
/*
 * The kernel interpreter's decoder against LLVM 22: instruction forms of
 * each family (test/kernels/sqk_forms_*.s, assembled by llvm-mc) and the
 * code LLVM 22 compiles from test/kernels/sqk_kernels.ll at -O0 and -O3
 * are disassembled by llvm-objdump; every instruction must decode to an
 * implemented operation of the same mnemonic (the _e32/_e64/_sdwa/_dpp
 * suffix aside) and size, and its destination register (VALU, SALU,
 * loads) must be the one llvm-objdump prints. sqk_all_<family>.s, which
 * the build writes with scripts/sq-gen-forms.py, hold one line for every
 * row of each family's opcode table: every row must have been decoded, so
 * that no implemented instruction goes unchecked. The signal stubs of the
 * library (src/shaders, each family's source assembled for its processor)
 * are checked the same way on every family the interpreter runs. Exit 77
 * without LLVM 22.
 */
#include <ctype.h>
#include <stdio.h>

#include "emu/sq/sqk.h"
#include "emu_sqk_util.h"
#include "shaders/stubs_gen.h"

static unsigned total, distinct_ops;
static bool seen[K_COUNT];

/* The rows of each family's table decoded (by encoding and opcode). */
#define NFAM 16
static const struct sqk_family *fams[NFAM];
static bool row_seen[NFAM][SQK_NENC][1024];

static unsigned fam_index(const struct sqk_family *f)
{
	unsigned i;

	for (i = 0; i < NFAM && fams[i] && fams[i] != f; i++)
		;
	T_REQUIRE(i < NFAM, "families");
	fams[i] = f;
	return i;
}

/* Every row of every family's table decoded at least once. */
static void check_rows(void)
{
	for (unsigned i = 0; i < NFAM && fams[i]; i++) {
		unsigned rows = 0, missed = 0;

		for (const struct sqk_opent *e = fams[i]->tab; e->enc != SQK_ENC_NONE; e++) {
			/* GCN VOP3 opcodes 0x380-0x3ff are the VOP3P space
			 * (encoding bits 31:23 = 0x1a7, LLVM SIInstrFormats.td /
			 * VOP3PInstructions.td for GFX9): the decoder reads those
			 * words as VOP3P (their own rows) */
			if (!fams[i]->gfx10 && e->enc == SQK_VOP3 && e->opcode >= 0x380)
				continue;
			rows++;
			if (!row_seen[i][e->enc][e->opcode & 1023]) {
				missed++;
				CHECK(0,
				      "%s: %s (encoding %u, opcode %u) is implemented but no test "
				      "instruction decoded to it",
				      fams[i]->name, sqk_op_name(e->op), e->enc, e->opcode);
			}
		}
		printf("%s: %u of %u table rows decoded\n", fams[i]->name, rows - missed, rows);
	}
}

/* RDNA renamed operations: LLVM's mnemonic -> the interpreter's name, as
 * scripts/sq-gen-forms.py writes them (sqk_alias_<family>.txt) */
static struct {
	char llvm[64], op[64];
} alias[1024];
static unsigned nalias;
static const struct sqk_family *alias_fam;

static void load_alias(const struct sqk_family *f);

static const char *canon(const struct sqk_family *f, const char *mn)
{
	load_alias(f);
	for (unsigned i = 0; i < nalias; i++)
		if (strcmp(alias[i].llvm, mn) == 0)
			return alias[i].op;
	return mn;
}

static void strip(char *m)
{
	static const char *const suf[] = { "_e32", "_e64", "_sdwa", "_dpp" };
	size_t n = strlen(m);

	for (size_t i = 0; i < 4; i++) {
		size_t k = strlen(suf[i]);

		if (n > k && strcmp(m + n - k, suf[i]) == 0) {
			m[n - k] = 0;
			return;
		}
	}
}

/* GCN3's carry-out adds are the gfx9 _co operations (LLVM prints them
 * v_add_u32 ... on gfx8: VOP2Instructions.td, the VI names). */
static void gfx8_name(const struct sqk_family *f, char *m, size_t n)
{
	static const char *const map[][2] = {
		{ "v_add_u32", "v_add_co_u32" },       { "v_sub_u32", "v_sub_co_u32" },
		{ "v_subrev_u32", "v_subrev_co_u32" }, { "v_addc_u32", "v_addc_co_u32" },
		{ "v_subb_u32", "v_subb_co_u32" },     { "v_subbrev_u32", "v_subbrev_co_u32" },
	};

	if (f->gen != SQK_GEN_GFX8)
		return;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(m, map[i][0]) == 0) {
			snprintf(m, n, "%s", map[i][1]);
			return;
		}
}

/* First operand as a register: 'v' or 's' and its (first) number; 0: none.
 * m0 and null are 's' with the codes the decoder gives them on every
 * generation (SQK_M0, SQK_NULL10: gfx11 encodes them the other way round). */
static char first_reg(const char *ops, unsigned *num)
{
	char c = ops[0];

	if (strncmp(ops, "m0", 2) == 0 && (ops[2] == ',' || ops[2] == 0 || ops[2] == ' ')) {
		*num = SQK_M0;
		return 's';
	}
	if (strncmp(ops, "null", 4) == 0 && (ops[4] == ',' || ops[4] == 0 || ops[4] == ' ')) {
		*num = SQK_NULL10;
		return 's';
	}

	if ((c != 'v' && c != 's') || !(isdigit((unsigned char)ops[1]) || ops[1] == '['))
		return 0;
	*num = (unsigned)strtoul(ops + (ops[1] == '[' ? 2 : 1), NULL, 10);
	return c;
}

static void check_dst(const struct sqk_insn *in, const char *ops, const char *where)
{
	unsigned num;
	char k = first_reg(ops, &num);
	const char *n = sqk_op_name(in->op);

	if (!k)
		return;
	switch (in->enc) {
	case SQK_VOP1:
	case SQK_VOP2:
	case SQK_VOP3:
	case SQK_VOP3P:
		if (k == 'v' && strncmp(n, "v_cmp", 5) != 0 && strstr(n, "readlane") == NULL &&
		    strstr(n, "readfirstlane") == NULL)
			CHECK(in->dst == 256 + num, "%s: %s destination v%u, decoded %u", where, n,
			      num, in->dst - 256);
		break;
	case SQK_SOP1:
	case SQK_SOP2: {
		/* the first source too: "sD, sA" */
		const char *a = strstr(ops, ", ");
		unsigned an;

		if (a && first_reg(a + 2, &an) == 's')
			CHECK(in->src[0] == an, "%s: %s source s%u, decoded %u", where, n, an,
			      in->src[0]);
	}
	/* fall through */
	case SQK_SOPK:
	case SQK_SMEM:
		/* the operand of these three is a source */
		if (k == 's' && strcmp(n, "s_setpc_b64") != 0 && strcmp(n, "s_rfe_b64") != 0 &&
		    strcmp(n, "s_set_gpr_idx_idx") != 0)
			CHECK(in->dst == num, "%s: %s destination s%u, decoded %u", where, n, num,
			      in->dst);
		break;
	case SQK_DS:
	case SQK_FLAT:
	case SQK_GLOBAL:
	case SQK_SCRATCH:
		if (k == 'v' && (strstr(n, "_load") || strstr(n, "_read") || strstr(n, "_rtn")))
			CHECK(in->dst == 256 + num, "%s: %s destination v%u, decoded %u", where, n,
			      num, in->dst - 256);
		break;
	default:
		break;
	}
}

/* The directory of a forms file: the build writes sqk_all_*.s. */
static const char *forms_dir(const char *file);

static void load_alias(const struct sqk_family *f)
{
	char path[512], a[64], b[64];
	FILE *fp;

	if (alias_fam == f)
		return;
	alias_fam = f;
	nalias = 0;
	if (!f->gfx10) /* RDNA only */
		return;
	snprintf(path, sizeof(path), "%s/sqk_alias_%s.txt", forms_dir("sqk_all_"), f->name);
	fp = fopen(path, "r");
	T_REQUIRE(fp, "%s", path);
	while (nalias < 1024 && fscanf(fp, "%63s %63s", a, b) == 2) {
		snprintf(alias[nalias].llvm, 64, "%s", a);
		snprintf(alias[nalias].op, 64, "%s", b);
		nalias++;
	}
	fclose(fp);
}

/* gfx11 memory operands: the immediate offset ("offset:N", or SMEM's
 * last operand), MUBUF's offen and idxen, as llvm-objdump prints them. */
static void check_mem11(const struct sqk_insn *in, const char *ops, const char *where)
{
	const char *o = strstr(ops, "offset:");
	long want = 0;
	bool have = false;

	if (in->enc == SQK_SMEM && !o) {
		const char *last = strrchr(ops, ',');
		char *e;

		if (last) {
			want = strtol(last + 2, &e, 0);
			have = e != last + 2 && (*e == 0 || *e == ' ');
		}
	} else if (o && (in->enc == SQK_SMEM || in->enc == SQK_FLAT || in->enc == SQK_GLOBAL ||
			 in->enc == SQK_SCRATCH || in->enc == SQK_MUBUF)) {
		want = strtol(o + 7, NULL, 0);
		have = true;
	} else if (!o && (in->enc == SQK_FLAT || in->enc == SQK_GLOBAL || in->enc == SQK_SCRATCH ||
			  in->enc == SQK_MUBUF)) {
		have = true; /* no offset printed: 0 */
	}
	if (have)
		CHECK(in->offset == want, "%s: offset %ld, decoded %d", where, want, in->offset);
	if (in->enc == SQK_MUBUF)
		CHECK(in->offen == (strstr(ops, "offen") != NULL) &&
			      in->idxen == (strstr(ops, "idxen") != NULL),
		      "%s: offen %d idxen %d decoded", where, in->offen, in->idxen);
}

/* One VOPD3 half's operands as llvm-objdump prints them ("v6, -v2, v3, s4",
 * "v[6:7], v[2:3], ..."): each register, its neg, and bitop2's table. */
static void check_vopd3_half(const char *ops, unsigned op, const uint16_t *src, unsigned dst,
			     unsigned neg, unsigned bitop3, const char *where, char half)
{
	char buf[256], *save = NULL;
	unsigned i = 0;

	snprintf(buf, sizeof(buf), "%s", ops);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save), i++) {
		unsigned num, code;
		bool ng;
		char k;

		while (*t == ' ')
			t++;
		if (strncmp(t, "bitop3:", 7) == 0) {
			CHECK(op == K_v_bitop2_b32 && strtoul(t + 7, NULL, 0) == bitop3,
			      "%s: %c bitop3 %s, decoded 0x%x", where, half, t + 7, bitop3);
			break;
		}
		ng = *t == '-';
		t += ng;
		/* "vcc_lo" and the bitop3 suffix after the last source */
		if (strncmp(t, "vcc_lo", 6) == 0)
			k = 's', num = SQK_VCC;
		else
			k = first_reg(t, &num);
		if (i == 0) {
			CHECK(k == 'v' && dst == 256 + num, "%s: %c destination %s, decoded v%u",
			      where, half, t, dst - 256);
			continue;
		}
		if (!k)
			continue; /* a constant */
		code = k == 'v' ? 256 + num : num;
		CHECK(i <= 3 && src[i - 1] == code, "%s: %c source %u %s, decoded %u", where, half,
		      i - 1, t, i <= 3 ? src[i - 1] : 0);
		CHECK(i <= 3 && (neg >> (i - 1) & 1) == ng, "%s: %c source %u neg %d, decoded %u",
		      where, half, i - 1, ng, neg);
	}
}

static void check_vopd3(const struct sqk_insn *in, const char *ops, const char *yops,
			const char *where)
{
	char xops[256];
	const char *sep = strstr(ops, " :: ");
	size_t n = sep ? (size_t)(sep - ops) : strlen(ops);

	snprintf(xops, sizeof(xops), "%.*s", (int)n, ops);
	check_vopd3_half(xops, in->op, in->src, in->dst, in->neg, 0, where, 'X');
	check_vopd3_half(yops, in->opy, in->srcy, in->dsty, in->negy, in->bitop3, where, 'Y');
}

/* Disassemble @obj and check every instruction. */
static void check_obj(const struct sqk_family *f, const char *obj, const char *what)
{
	char cmd[1024], line[1024];
	FILE *p;
	unsigned n = 0;

	/* gfx12, gfx12.5: the 16-bit operands read as the register halves they are
	 * (real-true16; v_mov_b16 has no other spelling there) */
	snprintf(cmd, sizeof(cmd), "%s/llvm-objdump -d%s '%s'", KFDSIG_LLVM22_BIN,
		 f->gen == SQK_GEN_GFX12 || f->gen == SQK_GEN_GFX12_5 ? " --mattr=+real-true16"
								      : "",
		 obj);
	p = popen(cmd, "r");
	T_REQUIRE(p, "objdump");
	while (fgets(line, sizeof(line), p)) {
		char *cm = strstr(line, "//"), *colon, mn[96], ops[512], where[1024];
		uint32_t w[3] = { 0 };
		unsigned nw = 0, size;
		struct sqk_insn in;
		char *s = line;

		if (line[0] != '\t' || !cm || !(colon = strstr(cm, ": ")))
			continue;
		for (char *h = colon + 2; nw < 3;) {
			char *e;
			unsigned long v = strtoul(h, &e, 16);

			if (e == h)
				break;
			w[nw++] = (uint32_t)v;
			h = e;
		}
		*cm = 0;
		while (*s == '\t' || *s == ' ')
			s++;
		if (sscanf(s, "%95s", mn) != 1)
			continue;
		s += strlen(mn);
		while (*s == ' ')
			s++;
		snprintf(ops, sizeof(ops), "%s", s);
		for (size_t k = strlen(ops); k && (ops[k - 1] == ' ' || ops[k - 1] == '\n'); k--)
			ops[k - 1] = 0;
		strip(mn);
		gfx8_name(f, mn, sizeof(mn));
		snprintf(where, sizeof(where), "%s %s: %s %s", f->name, what, mn, ops);
		size = sqk_decode(f, w, nw, &in);
		n++;
		total++;
		CHECK(size == 4 * nw, "%s: decoded %u bytes, llvm-objdump %u", where, size, 4 * nw);
		CHECK(in.op != K_INVALID, "%s: not implemented (%08x)", where, w[0]);
		if (size != 4 * nw || in.op == K_INVALID)
			continue;
		CHECK(strcmp(sqk_op_name(in.op), canon(f, mn)) == 0, "%s: decoded as %s", where,
		      sqk_op_name(in.op));
		check_dst(&in, ops, where);
		if (f->gen >= SQK_GEN_GFX11)
			check_mem11(&in, ops, where);
		if (in.enc == SQK_VOPD || in.enc == SQK_VOPD3) {
			/* the Y half after "::"; its opcode at [21:17]
			 * (the RDNA3 manual's VOPD format), row 32 + it;
			 * VOPD3's at [17:12], row 64 + it */
			char ym[96] = "";
			const char *y = strstr(ops, ":: ");

			if (y)
				sscanf(y + 3, "%95s", ym);
			strip(ym);
			CHECK(strcmp(sqk_op_name(in.opy), canon(f, ym)) == 0, "%s: Y decoded as %s",
			      where, sqk_op_name(in.opy));
			if (in.enc == SQK_VOPD)
				row_seen[fam_index(f)][SQK_VOPD][32 + (w[0] >> 17 & 0x1f)] = true;
			else
				row_seen[fam_index(f)][SQK_VOPD3][64 + (w[0] >> 12 & 0x3f)] = true;
			if (in.enc == SQK_VOPD3 && y)
				check_vopd3(&in, ops, y + 3 + strlen(ym), where);
		}
		if (!seen[in.op])
			seen[in.op] = true, distinct_ops++;
		row_seen[fam_index(f)][in.enc][in.opcode & 1023] = true;
	}
	pclose(p);
	CHECK(n > 0, "%s %s: instructions found", f->name, what);
}

static const char *forms_dir(const char *file)
{
#ifdef KFDSIG_SQK_FORMS_DIR
	if (strncmp(file, "sqk_all_", 8) == 0)
		return KFDSIG_SQK_FORMS_DIR;
#endif
	(void)file;
	return KFDSIG_SOURCE_DIR "/test/kernels";
}

static void forms(const struct sqk_family *f, const char *mcpu, const char *file)
{
	char cmd[1024], obj[] = "/tmp/kfdsig-sqk-forms-XXXXXX";
	int fd = mkstemp(obj);

	T_REQUIRE(fd >= 0, "temp");
	close(fd);
	/* gfx12's true16 forms are written with register halves, which
	 * llvm-mc reads there with real-true16 (the gfx11 default) */
	snprintf(cmd, sizeof(cmd),
		 "%s/llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=%s%s -filetype=obj '%s/%s' -o %s",
		 KFDSIG_LLVM22_BIN, mcpu,
		 strncmp(mcpu, "gfx12", 5) == 0 ? " -mattr=+real-true16" : "", forms_dir(file),
		 file, obj);
	T_REQUIRE(system(cmd) == 0, "assemble %s for %s", file, mcpu);
	check_obj(f, obj, file);
	unlink(obj);
}

static void kernels(const struct sqk_family *f, const char *mcpu, const char *attrs, int opt)
{
	char cmd[2048], dir[] = "/tmp/kfdsig-sqk-enc-XXXXXX", what[64];

	T_REQUIRE(mkdtemp(dir), "temp");
	snprintf(cmd, sizeof(cmd),
		 "%s/opt -O%d -mtriple=amdgcn-amd-amdhsa -mcpu=%s '%s/test/kernels/sqk_kernels.ll' "
		 "-o %s/k.bc && %s/llc -O%d -mtriple=amdgcn-amd-amdhsa -mcpu=%s %s%s "
		 "-filetype=obj %s/k.bc -o %s/k.o",
		 KFDSIG_LLVM22_BIN, opt ? 3 : 0, mcpu, KFDSIG_SOURCE_DIR, dir, KFDSIG_LLVM22_BIN,
		 opt, mcpu, *attrs ? "-mattr=" : "", attrs, dir, dir);
	T_REQUIRE(system(cmd) == 0, "compile for %s", mcpu);
	snprintf(cmd, sizeof(cmd), "%s/k.o", dir);
	snprintf(what, sizeof(what), "kernels -O%d%s%s", opt, *attrs ? " " : "", attrs);
	check_obj(f, cmd, what);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	T_REQUIRE(system(cmd) == 0, "cleanup");
}

/* The library's signal stubs, each family's source for its processor, on
 * the kernel interpreter's family of the first target built from it. */
static void stubs(void)
{
	unsigned checked = 0;

	for (unsigned i = 0; i < stub_nfamilies; i++) {
		const struct sqk_family *f = NULL;
		char obj[] = "/tmp/kfdsig-sqk-stub-XXXXXX", src[64], cmd[1024], what[80];
		FILE *fp;
		int fd;

		for (unsigned k = 0; k < stub_ntargets && !f; k++) {
			const struct kfdsig_target *t = kfdsig_target_by_name(stub_targets[k].name);

			if (stub_targets[k].family == i && t)
				f = sqk_family_of(t->gfx_target_version);
		}
		if (!f)
			continue; /* a family the interpreter does not run */
		fd = mkstemp(obj);
		T_REQUIRE(fd >= 0, "temp");
		close(fd);
		snprintf(src, sizeof(src), "%s.s", obj);
		fp = fopen(src, "w");
		T_REQUIRE(fp && fputs(stub_families[i].source, fp) >= 0, "write %s", src);
		fclose(fp);
		snprintf(cmd, sizeof(cmd),
			 "%s/llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj %s -o %s",
			 KFDSIG_LLVM22_BIN, stub_families[i].processor, src, obj);
		T_REQUIRE(system(cmd) == 0, "assemble %s", stub_families[i].file);
		snprintf(what, sizeof(what), "stub %s", stub_families[i].file);
		check_obj(f, obj, what);
		unlink(src);
		unlink(obj);
		checked++;
	}
	CHECK(checked >= 7, "stub families on the interpreter: %u", checked);
}

/*
 * Words that are instructions of other families but not of this one: the
 * decoder must leave them unimplemented (an illegal instruction when run),
 * never read them as some other operation. The words are llvm-mc's for
 * the family named in the comment.
 */
static void absent(void)
{
	static const struct {
		uint32_t gfxv;
		uint32_t w[2];
		const char *what;
	} t[] = {
		/* gfx1011: v_dot2_f32_f16 v2, v2, v4, v6 (VOP3P 19) */
		{ 100100, { 0xcc134002, 0x1c1a0902 }, "gfx1010 v_dot2_f32_f16" },
		/* gfx1011: v_dot2c_f32_f16 v2, v2, v3 (VOP2 2) */
		{ 100100, { 0x04040702, 0 }, "gfx1010 v_dot2c_f32_f16" },
		/* gfx1010: v_mac_f32 v1, v2, v3 (VOP2 31) */
		{ 100300, { 0x3e020702, 0 }, "gfx1030 v_mac_f32" },
		/* gfx950: v_prng_b32 v1, v2 (VOP1 0x58) */
		{ 90500, { 0x7e02b102, 0 }, "gfx950 v_prng_b32" },
		/* gfx950: v_cvt_pk_f16_f32 v1, v2, v3 (VOP3 0x267) */
		{ 90500, { 0xd2670001, 0x00020702 }, "gfx950 v_cvt_pk_f16_f32" },
		/* gfx950: v_bitop3_b32 v1, v2, v3, v4 bitop3:0x12 (VOP3 0x234) */
		{ 90500, { 0xd2340201, 0x44120702 }, "gfx950 v_bitop3_b32" },
		/* gfx950: v_dot2_f32_bf16 v1, v2, v3, v4 (VOP3P 0x1a) */
		{ 90500, { 0xd39a4001, 0x1c120702 }, "gfx950 v_dot2_f32_bf16" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const struct sqk_family *f = sqk_family_of(t[i].gfxv);
		struct sqk_insn in;

		T_REQUIRE(f, "family of %u", t[i].gfxv);
		sqk_decode(f, t[i].w, 2, &in);
		CHECK(in.op == K_INVALID, "%s: not an instruction of %s, decoded as %s", t[i].what,
		      f->name, sqk_op_name(in.op));
	}
}

/* GCN3 SMEM offsets (GCN3 ISA manual, SMEM: IMM selects OFFSET[19:0] or
 * the SGPR in OFFSET[7:0]), on llvm-mc's words for gfx803. */
static void gfx8_smem(void)
{
	const struct sqk_family *f = sqk_family_of(80003);
	/* s_load_dwordx4 s[4:7], s[2:3], s8 */
	static const uint32_t sreg[2] = { 0xc0080101, 0x00000008 };
	/* s_buffer_load_dwordx2 s[4:5], s[8:11], 0xfffff */
	static const uint32_t imm[2] = { 0xc0260104, 0x000fffff };
	struct sqk_insn in;

	T_REQUIRE(f, "gfx803 family");
	CHECK(sqk_decode(f, sreg, 2, &in) == 8 && in.soffset == 8 && in.offset == 0,
	      "gfx803 s_load_dwordx4 ..., s8: soffset %u offset %d", in.soffset, in.offset);
	CHECK(sqk_decode(f, imm, 2, &in) == 8 && in.offset == 0xfffff && in.soffset == 0xffff,
	      "gfx803 s_buffer_load_dwordx2 ..., 0xfffff: offset 0x%x soffset %u",
	      (unsigned)in.offset, in.soffset);
}

int main(void)
{
	static const struct {
		const char *mcpu;
		uint32_t gfxv;
		const char *forms[4];
		const char *attrs;
	} tg[] = {
		{ "gfx900", 90000, { "sqk_forms_gfx9.s", "sqk_all_gfx900.s" }, "" },
		{ "gfx906", 90006, { "sqk_forms_gfx9.s", "sqk_all_gfx906.s" }, "" },
		{ "gfx908", 90008, { "sqk_forms_gfx9.s", "sqk_all_gfx908.s" }, "" },
		{ "gfx90a",
		  90010,
		  { "sqk_forms_gfx9.s", "sqk_forms_gfx90a.s", "sqk_all_gfx90a.s" },
		  "" },
		{ "gfx942",
		  90402,
		  { "sqk_forms_gfx90a.s", "sqk_forms_gfx940.s", "sqk_all_gfx940.s" },
		  "" },
		{ "gfx1030", 100300, { "sqk_forms_gfx10.s", "sqk_all_gfx1030.s" }, "" },
		{ "gfx1030", 100300, { NULL }, "+wavefrontsize64" },
		{ "gfx1036", 100306, { "sqk_forms_gfx10.s" }, "" },
		{ "gfx1010", 100100, { "sqk_forms_gfx1010.s", "sqk_all_gfx1010.s" }, "" },
		{ "gfx1010", 100100, { NULL }, "+wavefrontsize64" },
		{ "gfx1011", 100101, { "sqk_forms_gfx10.s", "sqk_all_gfx1011.s" }, "" },
		{ "gfx1012", 100102, { NULL }, "" },
		{ "gfx803", 80003, { "sqk_forms_gfx8.s", "sqk_all_gfx803.s" }, "" },
		{ "gfx801", 80001, { NULL }, "" },
		{ "gfx802", 80002, { "sqk_forms_gfx8.s" }, "" },
		{ "gfx950",
		  90500,
		  { "sqk_forms_gfx90a.s", "sqk_forms_gfx940.s", "sqk_all_gfx950.s" },
		  "" },
		{ "gfx1100", 110000, { "sqk_forms_gfx11.s", "sqk_all_gfx1100.s" }, "" },
		{ "gfx1100", 110000, { NULL }, "+wavefrontsize64" },
		{ "gfx1150", 110500, { "sqk_forms_gfx11.s", "sqk_all_gfx1150.s" }, "" },
		{ "gfx1151", 110501, { NULL }, "" },
		{ "gfx1200", 120000, { "sqk_forms_gfx12.s", "sqk_all_gfx1200.s" }, "" },
		{ "gfx1200", 120000, { NULL }, "+wavefrontsize64" },
		{ "gfx1201", 120001, { NULL }, "" },
		{ "gfx1250", 120500, { "sqk_forms_gfx1250.s", "sqk_all_gfx1250.s" }, "" },
	};

	if (!kco_llvm() || access(KFDSIG_LLVM22_BIN "/llvm-mc", X_OK) != 0 ||
	    access(KFDSIG_LLVM22_BIN "/llvm-objdump", X_OK) != 0) {
		printf("SKIP: no LLVM 22 in %s\n", KFDSIG_LLVM22_BIN);
		return T_EXIT_SKIP;
	}
	for (size_t i = 0; i < sizeof(tg) / sizeof(tg[0]); i++) {
		const struct sqk_family *f = sqk_family_of(tg[i].gfxv);

		T_REQUIRE(f, "family of %s", tg[i].mcpu);
		for (int k = 0; k < 4 && tg[i].forms[k]; k++)
			forms(f, tg[i].mcpu, tg[i].forms[k]);
		kernels(f, tg[i].mcpu, tg[i].attrs, 0);
		kernels(f, tg[i].mcpu, tg[i].attrs, 3);
	}
	stubs();
	check_rows();
	absent();
	gfx8_smem();
	printf("%u instructions, %u distinct operations decoded as llvm-objdump reads them\n",
	       total, distinct_ops);
	return t_result("emu_sqk_encoding");
}
