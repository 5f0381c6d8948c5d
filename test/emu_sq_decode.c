/* SPDX-License-Identifier: MIT */
/*
 * The shader unit's decoder and printer (sqk_isa.c, sqk_dec_gfx11.c,
 * sqk_print.c) against LLVM 22: assemble snippets covering every
 * instruction form the signal stubs use, and the real signal stubs, for
 * every family of the kernel interpreter (its first stub target's
 * processor), with llvm-mc; then for every instruction llvm-objdump
 * lists, the decoder must agree on the size and words, and the printer
 * must produce exactly llvm-objdump's mnemonic and operands. Other
 * instructions (ALU, loads, barriers, ...) the printer does not know must
 * be refused (-ENOTSUP), never printed differently from llvm-objdump.
 * Skips (77) without LLVM 22.
 */
#include "emu_sq_util.h"

/* Instructions every family's snippet holds, in its own syntax. */
static const char *const common_scalar = "s_nop 0\n"
					 "s_nop 7\n"
					 "s_mov_b32 s2, s4\n"
					 "s_mov_b32 m0, s4\n"
					 "s_mov_b32 m0, 0xfff\n"
					 "s_mov_b32 m0, 0x12345\n"
					 "s_mov_b32 s5, -16\n"
					 "s_mov_b32 s5, 64\n"
					 "s_mov_b32 s5, 0.5\n"
					 "s_mov_b32 s5, -4.0\n"
					 "s_mov_b32 s2, vcc_lo\n"
					 "s_mov_b32 s2, exec_hi\n"
					 "s_mov_b32 exec_lo, -1\n"
					 "s_mov_b32 s101, s0\n"
					 "s_mov_b64 s[2:3], s[4:5]\n"
					 "s_mov_b64 s[2:3], -1\n"
					 "s_mov_b64 exec, s[4:5]\n"
					 "s_movk_i32 s5, 0x1234\n"
					 "s_movk_i32 m0, 0xff\n"
					 "v_mov_b32 v1, -1\n"
					 "v_mov_b32 v1, v7\n"
					 "v_mov_b32 v2, 0x12345678\n"
					 "v_mov_b32 v3, 0x9abc\n"
					 "v_mov_b32 v5, s101\n"
					 "v_mov_b32 v255, 1.0\n"
					 "v_mov_b32_e64 v1, s2\n"
					 "v_mov_b32_e64 v1, v2\n"
					 "s_sendmsg sendmsg(MSG_INTERRUPT)\n"
					 "s_endpgm\n";

static const char *const gfx8_9_smem = "s_load_dword s4, s[0:1], 0x8\n"
				       "s_load_dwordx2 s[2:3], s[0:1], 0x0\n"
				       "s_load_dwordx4 s[4:7], s[2:3], 0x10\n"
				       "s_load_dwordx8 s[4:11], s[2:3], 0x10\n"
				       "s_load_dwordx16 s[4:19], s[2:3], 0xffff\n"
				       "s_load_dword s4, s[0:1], s5\n"
				       "s_load_dword s4, s[0:1], 0x8 glc\n"
				       "s_waitcnt vmcnt(0)\n"
				       "s_waitcnt lgkmcnt(0)\n"
				       "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
				       "s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)\n"
				       "s_waitcnt expcnt(0)\n"
				       "s_waitcnt 0xffff\n";

static const char *const gfx8_only = "flat_store_dword v[2:3], v0\n"
				     "flat_store_dwordx2 v[2:3], v[0:1]\n"
				     "flat_store_dwordx3 v[2:3], v[0:2]\n"
				     "flat_store_dwordx4 v[2:3], v[0:3] glc slc\n";

static const char *const gfx9_stores = "flat_store_dword v[2:3], v0\n"
				       "flat_store_dwordx2 v[2:3], v[0:1]\n"
				       "global_store_dword v[2:3], v0, off\n"
				       "global_store_dwordx2 v[2:3], v[0:1], off\n"
				       "global_store_dwordx3 v[2:3], v[0:2], off offset:-16\n"
				       "global_store_dwordx4 v[2:3], v[0:3], off offset:16\n"
				       "global_store_dword v2, v0, s[4:5] offset:16\n"
				       "s_waitcnt vmcnt(40)\n";

static const char *const gfx9_cpol = "global_store_dwordx2 v[2:3], v[0:1], off glc slc\n";
static const char *const gfx90a_cpol = "global_store_dwordx2 v[2:3], v[0:1], off glc slc scc\n"
				       "global_store_dwordx2 v[2:3], v[0:1], off glc scc\n"
				       "buffer_wbl2\n"
				       ".long 0xe0a0c000, 0x00000000\n";
static const char *const gfx940_cpol = "global_store_dwordx2 v[2:3], v[0:1], off sc0 sc1\n"
				       "global_store_dword v[2:3], v0, off sc0 nt sc1\n"
				       "buffer_wbl2 sc0 sc1\n"
				       "buffer_wbl2 sc1\n"
				       "buffer_wbl2\n";

static const char *const gfx10_only = "s_load_dword s4, s[0:1], 0x8\n"
				      "s_load_dwordx2 s[2:3], s[0:1], 0x0\n"
				      "s_load_dwordx4 s[4:7], s[2:3], 0x10\n"
				      "s_load_dwordx8 s[4:11], s[2:3], 0x10\n"
				      "s_load_dwordx16 s[4:19], s[2:3], 0x10\n"
				      "s_load_dword s4, s[0:1], s5\n"
				      "s_load_dword s4, s[0:1], 0x8 glc dlc\n"
				      "s_load_dword s4, s[0:1], 0x8 dlc\n"
				      "global_store_dword v[2:3], v0, off dlc\n"
				      "s_mov_b32 s105, s0\n"
				      "v_mov_b32_e64 v1, 0x1234\n"
				      "global_store_dword v[2:3], v0, off offset:-16\n"
				      "global_store_dwordx2 v[2:3], v[0:1], off\n"
				      "global_store_dwordx3 v[2:3], v[0:2], off\n"
				      "global_store_dwordx4 v[2:3], v[0:3], off glc slc dlc\n"
				      "global_store_dword v2, v0, s[4:5] offset:16\n"
				      "flat_store_dwordx2 v[2:3], v[0:1]\n"
				      "s_waitcnt_vscnt null, 0x0\n"
				      "s_waitcnt_vscnt null, 0x1\n"
				      "s_waitcnt vmcnt(0)\n"
				      "s_waitcnt lgkmcnt(0)\n"
				      "s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)\n"
				      "s_waitcnt 0xffff\n"
				      "s_code_end\n";

static const char *const gfx11_only = "s_load_b32 s4, s[0:1], 0x8\n"
				      "s_load_b64 s[2:3], s[0:1], 0x0\n"
				      "s_load_b128 s[4:7], s[2:3], 0x10\n"
				      "s_load_b256 s[4:11], s[2:3], 0x10\n"
				      "s_load_b512 s[4:19], s[2:3], 0x10\n"
				      "s_load_b32 s4, s[0:1], s5\n"
				      "s_load_b32 s4, s[0:1], 0x8 glc dlc\n"
				      "s_load_b32 s4, s[0:1], 0x8 glc\n"
				      "s_load_b64 s[4:5], s[0:1], 0x10 dlc\n"
				      "global_store_b32 v[2:3], v0, off slc\n"
				      "s_mov_b32 s105, s0\n"
				      "v_mov_b32_e64 v1, 0x1234\n"
				      "global_store_b32 v[2:3], v0, off offset:-16\n"
				      "global_store_b64 v[2:3], v[0:1], off\n"
				      "global_store_b96 v[2:3], v[0:2], off\n"
				      "global_store_b128 v[2:3], v[0:3], off glc slc dlc\n"
				      "global_store_b32 v2, v0, s[4:5] offset:16\n"
				      "flat_store_b64 v[2:3], v[0:1]\n"
				      "s_waitcnt_vscnt null, 0x0\n"
				      "s_waitcnt vmcnt(0)\n"
				      "s_waitcnt lgkmcnt(0)\n"
				      "s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)\n"
				      "s_waitcnt 0xffff\n"
				      "s_code_end\n";

static const char *const gfx12_only =
	"s_load_b32 s4, s[0:1], 0x8\n"
	"s_load_b64 s[2:3], s[0:1], 0x0\n"
	"s_load_b96 s[4:6], s[2:3], 0x10\n"
	"s_load_b128 s[4:7], s[2:3], 0x10\n"
	"s_load_b256 s[4:11], s[2:3], 0x10\n"
	"s_load_b512 s[4:19], s[2:3], 0x10\n"
	"s_load_b32 s4, s[0:1], -0x8\n"
	"s_load_b32 s4, s[0:1], s5 offset:0x10\n"
	"s_load_b64 s[4:5], s[2:3], 0x10 scope:SCOPE_SYS\n"
	"s_mov_b32 s105, s0\n"
	"v_mov_b32_e64 v1, 0x1234\n"
	"global_store_b32 v[2:3], v0, off offset:-16\n"
	"global_store_b64 v[2:3], v[0:1], off scope:SCOPE_SYS\n"
	"global_store_b96 v[2:3], v[0:2], off\n"
	"global_store_b128 v[2:3], v[0:3], off offset:4096\n"
	"global_store_b32 v2, v0, s[4:5] offset:16\n"
	"global_store_b64 v[2:3], v[0:1], off th:TH_STORE_NT scope:SCOPE_DEV\n"
	"flat_store_b64 v[2:3], v[0:1]\n"
	"global_wb\n"
	"global_wb scope:SCOPE_SE\n"
	"global_wb scope:SCOPE_SYS\n"
	"s_wait_loadcnt 0x0\n"
	"s_wait_storecnt 0x0\n"
	"s_wait_storecnt 0x3\n"
	"s_wait_dscnt 0x0\n"
	"s_wait_kmcnt 0x0\n"
	"s_code_end\n";

/* RDNA4's graphics counters (not on gfx1250: llvm-mc 22 refuses them) */
static const char *const gfx12_gfx_waits = "s_wait_samplecnt 0x0\n"
					   "s_wait_bvhcnt 0x0\n"
					   "s_wait_expcnt 0x0\n";

/* Instructions outside the printer's set, per family group: each is
 * refused or printed exactly as llvm-objdump prints it. */
static const char *const other_gfx8 = "s_add_u32 s0, s1, s2\n"
				      "s_cmp_eq_u32 s0, s1\n"
				      "v_add_f32 v0, v1, v2\n"
				      "flat_load_dword v0, v[2:3]\n"
				      "s_load_dword s4, s[0:1], ttmp0\n"
				      "s_mov_b32 s0, ttmp0\n"
				      "s_not_b32 s0, s1\n"
				      "s_barrier\n"
				      "ds_write_b32 v0, v1\n"
				      "v_cndmask_b32 v0, v1, v2, vcc\n"
				      "buffer_store_dword v0, off, s[0:3], 0\n"
				      "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)\n";
static const char *const other_gfx9 = "s_add_u32 s0, s1, s2\n"
				      "s_cmp_eq_u32 s0, s1\n"
				      "v_add_f32 v0, v1, v2\n"
				      "global_load_dword v0, v[2:3], off\n"
				      "scratch_store_dword off, v0, s0\n"
				      "s_not_b32 s0, s1\n"
				      "s_barrier\n"
				      "ds_write_b32 v0, v1\n"
				      "buffer_store_dword v0, off, s[0:3], 0\n"
				      "s_mov_b32 s0, ttmp0\n"
				      "s_mov_b32 s0, flat_scratch_lo\n"
				      ".long 0xd1410101, 0x00000102\n"; /* v_mov_b32_e64 with abs */
static const char *const other_gfx10 =
	"s_add_u32 s0, s1, s2\n"
	"v_add_f32 v0, v1, v2\n"
	"global_load_dword v0, v[2:3], off\n"
	"s_barrier\n"
	"buffer_store_dword v0, off, s[0:3], 0\n"
	"s_waitcnt_vscnt s3, 0x1\n"
	"v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
	".long 0xd5810101, 0x00000102\n"; /* v_mov_b32_e64 with abs */
static const char *const other_gfx11 = "s_add_u32 s0, s1, s2\n"
				       "v_add_f32 v0, v1, v2\n"
				       "global_load_b32 v0, v[2:3], off\n"
				       "s_barrier\n"
				       "buffer_store_b32 v0, off, s[0:3], 0\n"
				       "s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_DOORBELL)\n";
static const char *const other_gfx12 = "s_add_co_u32 s0, s1, s2\n"
				       "v_add_f32 v0, v1, v2\n"
				       "global_load_b32 v0, v[2:3], off\n"
				       "global_inv scope:SCOPE_SYS\n"
				       "s_barrier_wait 0xffff\n"
				       "scratch_store_b32 off, v0, s0\n"
				       "s_wait_loadcnt_dscnt 0x0\n"
				       "s_load_b32 s4, s[0:1], 0x8 th:TH_LOAD_NT\n";

/* The words at @addr of the object's text (up to 4), and how many. */
static unsigned words_at(const struct sqt_obj *o, uint64_t addr, uint32_t w[4])
{
	unsigned n = 0;

	memset(w, 0, 16);
	while (n < 4 && addr + 4u * (n + 1) <= o->size) {
		memcpy(&w[n], o->text + addr + 4u * n, 4);
		n++;
	}
	return n;
}

/* Walk the llvm-objdump listing of o; for each instruction line compare
 * with the decoder and printer. expect_ok: every line must decode and
 * print as llvm-objdump does; else each line is refused by the printer or
 * printed exactly (*refused counts the refusals). Returns the number of
 * lines checked. */
static int check_listing(const struct kfdsig_target *t, const struct sqt_obj *o, bool expect_ok,
			 const char *what, unsigned *refused)
{
	const struct sqk_family *f = sqk_family_of(t->gfx_target_version);
	int lines = 0;

	for (const char *l = o->dis; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		char line[512], text[512], mine[512];
		unsigned long long addr;
		uint32_t words[4], code[4];
		unsigned nw = 0, avail, r;
		struct sqk_insn in;
		char *cmt, *p;
		int pr;

		snprintf(line, sizeof(line), "%.*s", (int)n, l);
		l = nl ? nl + 1 : NULL;
		if (line[0] != '\t' || !(cmt = strstr(line, "//")))
			continue;
		*cmt = 0;
		snprintf(text, sizeof(text), "%s", line + 1);
		for (p = text + strlen(text); p > text && (p[-1] == ' ' || p[-1] == '\t');)
			*--p = 0;
		if (sscanf(cmt + 2, " %llx:", &addr) != 1)
			continue;
		p = strchr(cmt + 2, ':') + 1;
		for (char *tok = strtok(p, " "); tok && nw < 4; tok = strtok(NULL, " "))
			words[nw++] = (uint32_t)strtoul(tok, NULL, 16);
		lines++;
		avail = words_at(o, addr, code);
		r = f ? sqk_decode(f, code, avail, &in) : 0;
		if (!expect_ok) {
			if (!r)
				continue; /* not an instruction the decoder reads */
			pr = sqk_format(f, &in, mine, sizeof(mine));
			if (pr == -ENOTSUP) {
				(*refused)++;
				continue;
			}
			CHECK(pr > 0 && !strcmp(mine, text),
			      "%s %s at 0x%llx: printed '%s' (%d), llvm-objdump '%s'", t->name,
			      what, addr, mine, pr, text);
			continue;
		}
		CHECK(r > 0 && in.op != K_INVALID, "%s %s: '%s' at 0x%llx not decoded", t->name,
		      what, text, addr);
		if (!r)
			continue;
		CHECK_EQ(r, 4 * nw, "%s %s: size of '%s' at 0x%llx", t->name, what, text, addr);
		for (unsigned i = 0; i < nw && i < 4; i++)
			CHECK_EQ(in.w[i], words[i], "%s: word %u of '%s'", t->name, i, text);
		pr = sqk_format(f, &in, mine, sizeof(mine));
		CHECK(pr > 0 && !strcmp(mine, text),
		      "%s %s at 0x%llx: we print '%s' (%d), llvm-objdump '%s'", t->name, what, addr,
		      mine, pr, text);
		CHECK(pr < 0 || (size_t)pr == strlen(mine), "%s: length %d of '%s'", t->name, pr,
		      mine);
	}
	return lines;
}

static int check_text(const struct kfdsig_target *t, const char *mcpu, const char *text,
		      bool expect_ok, const char *what, unsigned *refused)
{
	struct sqt_obj o;
	int n;

	if (sqt_assemble(text, mcpu, &o)) {
		CHECK(0, "%s: could not assemble %s", mcpu, what);
		return 0;
	}
	n = check_listing(t, &o, expect_ok, what, refused);
	sqt_obj_free(&o);
	return n;
}

static unsigned dec(uint32_t gfxv, const uint32_t *w, unsigned n, struct sqk_insn *in)
{
	return sqk_decode(sqk_family_of(gfxv), w, n, in);
}

/* Field-level checks of decoded values (not only the printed text). */
static void check_fields(void)
{
	/* Hand-written encodings (LLVM 22 -show-encoding of the text). */
	const uint32_t mov_m0_gfx11[] = { 0xbefd00ff, 0x00000fff }; /* s_mov_b32 m0, 0xfff */
	const uint32_t mov_m0_gfx10[] = { 0xbefc03ff, 0x00000fff };
	const uint32_t wait_gfx9[] = { 0xbf8c0f70 }; /* s_waitcnt vmcnt(0) */
	const uint32_t store_gfx12[] = { 0xee06c07c, 0x000c0000, 0x00000002 };
	const uint32_t smem_gfx12[] = { 0xf4000100, 0xf8fffff8 }; /* s_load_b32 s4,s[0:1],-8 */
	const struct sqk_family *f12 = sqk_family_of(120000);
	struct sqk_insn in;
	unsigned vm, exp, lgkm;
	char text[128];

	CHECK_EQ(dec(110000, mov_m0_gfx11, 2, &in), 8, "gfx11 mov");
	CHECK_EQ(in.op, K_s_mov_b32, "gfx11 op");
	CHECK_EQ(in.dst, SQK_M0, "gfx11 m0 (operand 125) is the unit's m0");
	CHECK_EQ(in.lit, 0xfff, "literal");
	CHECK_EQ(dec(100100, mov_m0_gfx10, 2, &in), 8, "gfx10 mov");
	CHECK_EQ(in.dst, SQK_M0, "gfx10 m0 is operand 124");
	/* The gfx11 word on gfx10 is SOP1 op 0: not a move there. */
	dec(100100, mov_m0_gfx11, 2, &in);
	CHECK(in.op != K_s_mov_b32, "gfx10 SOP1 op 0 read as s_mov_b32");
	CHECK_EQ(dec(90000, wait_gfx9, 1, &in), 4, "gfx9 waitcnt");
	sqk_waitcnt_fields(SQK_GEN_GFX9, in.simm16, &vm, &exp, &lgkm);
	CHECK(vm == 0 && lgkm == 15 && exp == 7, "gfx9 vmcnt %u expcnt %u lgkmcnt %u", vm, exp,
	      lgkm);
	/* s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3): gfx9 0x0321, gfx10 0x0321,
	 * gfx11 0x0432 (the layouts of the ISA manuals' S_WAITCNT) */
	sqk_waitcnt_fields(SQK_GEN_GFX11, 0x0432, &vm, &exp, &lgkm);
	CHECK(vm == 1 && exp == 2 && lgkm == 3, "gfx11 waitcnt fields %u %u %u", vm, exp, lgkm);
	sqk_waitcnt_fields(SQK_GEN_GFX9, 0xc321, &vm, &exp, &lgkm);
	CHECK(vm == 49 && exp == 2 && lgkm == 3, "gfx9 vmcnt high bits %u %u %u", vm, exp, lgkm);
	sqk_waitcnt_fields(SQK_GEN_GFX8, 0xc321, &vm, &exp, &lgkm);
	CHECK_EQ(vm, 1, "gfx8 has no vmcnt high bits");
	sqk_waitcnt_fields(SQK_GEN_GFX10, 0x3f00, &vm, &exp, &lgkm);
	CHECK_EQ(lgkm, 63, "gfx10 lgkmcnt is 6 bits");
	CHECK_EQ(dec(120000, store_gfx12, 3, &in), 12, "gfx12 store");
	CHECK_EQ(in.op, K_global_store_dwordx2, "gfx12 store op");
	CHECK_EQ(in.vaddr, 2, "vaddr");
	CHECK_EQ(in.vdata, 0, "vdata");
	CHECK(sqk_format(f12, &in, text, sizeof(text)) > 0 &&
		      !strcmp(text, "global_store_b64 v[2:3], v[0:1], off scope:SCOPE_SYS"),
	      "gfx12 store printed '%s'", text);
	CHECK_EQ(sqk_format(f12, &in, text, 8), 7, "truncated to the buffer");
	CHECK(!strcmp(text, "global_"), "truncation: '%s'", text);
	CHECK_EQ(sqk_format(NULL, &in, text, sizeof(text)), -EINVAL, "NULL family");
	CHECK_EQ(sqk_format(f12, &in, text, 0), -EINVAL, "no room");
	CHECK_EQ(dec(120000, smem_gfx12, 2, &in), 8, "gfx12 smem");
	CHECK_EQ(in.offset, -8, "signed 24-bit offset");
	CHECK_EQ(in.dst, 4, "sdata");
	/* Truncated: the literal is not there. */
	CHECK_EQ(dec(110000, mov_m0_gfx11, 1, &in), 0, "cut literal");
	CHECK_EQ(dec(120000, store_gfx12, 2, &in), 0, "cut 96-bit store");
}

int main(void)
{
	char path[1200];
	bool found_stubs = false;
	const struct sqk_family *seen[32];
	unsigned nseen = 0;

	if (!sqt_have_llvm()) {
		fprintf(stderr, "SKIP: LLVM 22 tools not found in " SQT_LLVM "\n");
		return T_EXIT_SKIP;
	}
	check_fields();
	/* every family of the kernel interpreter the stubs are built for,
	 * with the processor and source of its first stub target */
	for (unsigned i = 0; i < stub_ntargets; i++) {
		const char *mcpu = stub_targets[i].processor;
		const char *src = stub_families[stub_targets[i].family].name;
		const struct kfdsig_target *t = kfdsig_target_by_name(stub_targets[i].name);
		const struct sqk_family *fam = t ? sqk_family_of(t->gfx_target_version) : NULL;
		enum kfdsig_gfx_level lv;
		char snippet[8192];
		const char *extra = "", *cpol = "", *refuse = NULL;
		unsigned refused = 0, k;
		int n;

		CHECK(fam != NULL, "%s: no family", stub_targets[i].name);
		if (!fam)
			continue;
		for (k = 0; k < nseen && seen[k] != fam; k++)
			;
		if (k < nseen || nseen == 32)
			continue;
		seen[nseen++] = fam;
		lv = t->level;
		if (lv == KFDSIG_GFX8) {
			extra = gfx8_only;
			refuse = other_gfx8;
		} else if (lv == KFDSIG_GFX9) {
			extra = gfx9_stores;
			cpol = t->family == KFDSIG_FAMILY_GFX90A   ? gfx90a_cpol
			       : t->family == KFDSIG_FAMILY_GFX94X ? gfx940_cpol
								   : gfx9_cpol;
			refuse = other_gfx9;
		} else if (lv <= KFDSIG_GFX10_3) {
			extra = gfx10_only;
			refuse = other_gfx10;
		} else if (lv == KFDSIG_GFX11) {
			extra = gfx11_only;
			refuse = other_gfx11;
		} else {
			extra = gfx12_only;
			refuse = other_gfx12;
		}
		snprintf(snippet, sizeof(snippet), "%s%s%s%s%s", common_scalar,
			 lv <= KFDSIG_GFX9 ? gfx8_9_smem : "", extra, cpol,
			 fam->gen == SQK_GEN_GFX12 ? gfx12_gfx_waits : "");
		n = check_text(t, mcpu, snippet, true, "snippet", &refused);
		CHECK(n >= 40, "%s: only %d snippet instructions checked", mcpu, n);
		n = check_text(t, mcpu, refuse, false, "other", &refused);
		CHECK(n >= 6 && refused >= 4, "%s: only %d other instructions, %u refused", mcpu, n,
		      refused);

		if (sqt_stub_path(src, path, sizeof(path))) {
			struct sqt_obj o;

			found_stubs = true;
			if (sqt_assemble_file(path, mcpu, &o)) {
				CHECK(0, "could not assemble %s", path);
				continue;
			}
			n = check_listing(t, &o, true, src, &refused);
			/* Two forms of 9-13 instructions + padding. */
			CHECK(n >= 20, "%s: only %d stub instructions checked", path, n);
			sqt_obj_free(&o);
		}
	}
	if (!found_stubs) {
		/* After the shader component is merged the stubs must be there. */
		snprintf(path, sizeof(path), "%s", sqt_stub_dir());
		struct stat st;

		CHECK(stat(path, &st) != 0, "%s exists but holds no stub sources", path);
		fprintf(stderr,
			"note: stub sources not found in %s; snippets only "
			"(set KFDSIG_STUB_DIR)\n",
			path);
	}
	CHECK(nseen >= 12, "only %u families checked", nseen);
	return t_result("emu_sq_decode");
}
