/* SPDX-License-Identifier: MIT */
/*
 * Disassemble every target's embedded code object with LLVM 22
 * llvm-objdump and check both kernels instruction by instruction against
 * sequences written here by hand from LLVM AMDGPUUsage "Memory Model" (store of 1, the
 * family's release sequence, m0 = the full event id, the m0 hazard nop,
 * s_sendmsg with message 1, the wait for it, s_endpgm). The raw kernel is checked after
 * kfdsig_shader_patch() wrote slot 0xf234567960 and event id 300 into it,
 * so m0 must read 0x12c (not 300 & 0xff) on every target.
 * Skips (77) only when the LLVM 22 tools are absent.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "shaders_common.h"

#define EVENT 300u
/* event 300's slot of a page below 2^40 (gfx8 reaches it) */
#define SLOT (0xf234567000ull + 8 * EVENT)

struct family_seq {
	const char *family;
	const char *load_slot; /* kernel-argument loads (prefix match) */
	const char *load_id;
	const char *wait_args;
	const char *store;
	const char *release[3];	 /* NULL-terminated */
	const char *release_enc; /* encoding the first release insn must have, or NULL */
	const char *msg_wait;	 /* the wait for the message before s_endpgm */
};

/* Written from the facts: gfx8 flat store + vmcnt/lgkmcnt; gfx9 vmcnt;
 * gfx90a buffer_wbl2 with SC0|SC1 (encoding e0a0c000) + vmcnt; gfx94x
 * sc0 sc1 store + buffer_wbl2 sc0 sc1 + vmcnt; gfx10/11 vscnt; gfx12
 * SCOPE_SYS store + global_wb scope:SCOPE_SYS + storecnt. After s_sendmsg
 * every stub waits for the message: lgkmcnt(0), kmcnt on gfx12. */
static const struct family_seq seqs[] = {
	{ "gfx8",
	  "s_load_dwordx2 s[2:3], s[0:1], 0x0",
	  "s_load_dword s4, s[0:1], 0x8",
	  "s_waitcnt lgkmcnt(0)",
	  "flat_store_dwordx2 v[2:3], v[0:1]",
	  { "s_waitcnt vmcnt(0) lgkmcnt(0)" },
	  NULL,
	  "s_waitcnt lgkmcnt(0)" },
	{ "gfx9",
	  "s_load_dwordx2 s[2:3], s[0:1], 0x0",
	  "s_load_dword s4, s[0:1], 0x8",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_dwordx2 v[2:3], v[0:1], off",
	  { "s_waitcnt vmcnt(0)" },
	  NULL,
	  "s_waitcnt lgkmcnt(0)" },
	{ "gfx90a",
	  "s_load_dwordx2 s[2:3], s[0:1], 0x0",
	  "s_load_dword s4, s[0:1], 0x8",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_dwordx2 v[2:3], v[0:1], off",
	  { "buffer_wbl2", "s_waitcnt vmcnt(0)" },
	  "E0A0C000 00000000",
	  "s_waitcnt lgkmcnt(0)" },
	{ "gfx94x",
	  "s_load_dwordx2 s[2:3], s[0:1], 0x0",
	  "s_load_dword s4, s[0:1], 0x8",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_dwordx2 v[2:3], v[0:1], off sc0 sc1",
	  { "buffer_wbl2 sc0 sc1", "s_waitcnt vmcnt(0)" },
	  "E0A0C000 00000000",
	  "s_waitcnt lgkmcnt(0)" },
	{ "gfx10",
	  "s_load_dwordx2 s[2:3], s[0:1]",
	  "s_load_dword s4, s[0:1], 0x8",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_dwordx2 v[2:3], v[0:1], off",
	  { "s_waitcnt_vscnt null, 0x0" },
	  NULL,
	  "s_waitcnt lgkmcnt(0)" },
	{ "gfx11",
	  "s_load_b64 s[2:3], s[0:1]",
	  "s_load_b32 s4, s[0:1], 0x8",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_b64 v[2:3], v[0:1], off",
	  { "s_waitcnt_vscnt null, 0x0" },
	  NULL,
	  "s_waitcnt lgkmcnt(0)" },
	{ "gfx12",
	  "s_load_b64 s[2:3], s[0:1]",
	  "s_load_b32 s4, s[0:1], 0x8",
	  "s_wait_kmcnt 0x0",
	  "global_store_b64 v[2:3], v[0:1], off scope:SCOPE_SYS",
	  { "global_wb scope:SCOPE_SYS", "s_wait_storecnt 0x0" },
	  NULL,
	  "s_wait_kmcnt 0x0" },
};

#define MAXI 64
struct insn {
	char text[512]; /* normalised assembly */
	char enc[512];	/* encoding words as printed */
};
struct kernel {
	struct insn in[MAXI];
	int n;
};

static void normalise(char *s)
{
	char *w = s;
	bool space = false;

	while (*s && isspace((unsigned char)*s))
		s++;
	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			space = true;
			continue;
		}
		if (space && w != s)
			*w++ = ' ';
		space = false;
		*w++ = *s;
	}
	*w = 0;
}

/* Parse llvm-objdump -d output into the two kernels (up to s_endpgm). */
static void parse(FILE *f, struct kernel *co, struct kernel *raw)
{
	char line[512];
	struct kernel *cur = NULL;
	bool done_co = false, done_raw = false;

	while (fgets(line, sizeof(line), f)) {
		char *c;

		if (strstr(line, " <kfdsig_signal>:")) {
			cur = done_co ? NULL : co;
			continue;
		}
		if (strstr(line, " <kfdsig_signal_raw>:")) {
			cur = done_raw ? NULL : raw;
			continue;
		}
		/* patch labels are inside the raw kernel: keep cur */
		if (line[0] != '\t' || !cur || cur->n >= MAXI)
			continue;
		c = strstr(line, "//");
		if (c) {
			char *colon = strchr(c, ':');

			*c = 0;
			if (colon) {
				snprintf(cur->in[cur->n].enc, sizeof(cur->in[0].enc), "%s",
					 colon + 1);
				normalise(cur->in[cur->n].enc);
			}
		}
		snprintf(cur->in[cur->n].text, sizeof(cur->in[0].text), "%s", line);
		normalise(cur->in[cur->n].text);
		if (!strcmp(cur->in[cur->n].text, "s_endpgm")) {
			if (cur == co)
				done_co = true;
			else
				done_raw = true;
			cur->n++;
			cur = NULL;
			continue;
		}
		cur->n++;
	}
}

/* Compare @k with @want (entries ending in '*' match by prefix). */
static void expect(const char *what, const struct kernel *k, const char *const *want, int n,
		   const char *release_enc, int release_at)
{
	CHECK_EQ(k->n, n, "%s: instruction count", what);
	for (int i = 0; i < n && i < k->n; i++) {
		size_t len = strlen(want[i]);
		bool ok = want[i][len - 1] == '*' ? !strncmp(k->in[i].text, want[i], len - 1)
						  : !strcmp(k->in[i].text, want[i]);

		CHECK(ok, "%s: instruction %d is '%s', expected '%s'", what, i, k->in[i].text,
		      want[i]);
	}
	if (release_enc && release_at < k->n)
		CHECK(!strcmp(k->in[release_at].enc, release_enc),
		      "%s: release encoding '%s', expected '%s'", what, k->in[release_at].enc,
		      release_enc);
	/* s_sendmsg immediate = 1 (MSG_INTERRUPT), low 16 bits of its word. */
	if (k->n >= 3) {
		const char *enc = k->in[k->n - 3].enc;
		size_t l = strlen(enc);

		CHECK(l >= 4 && !strcmp(enc + l - 4, "0001"), "%s: s_sendmsg encoding '%s'", what,
		      enc);
	}
}

static void check_target(const struct kfdsig_target *t, const char *dir)
{
	const struct family_seq *q = NULL;
	struct kfdsig_shader_stub co, raw;
	struct kernel kco = { 0 }, kraw = { 0 };
	char path[512], cmd[1400], lo[64], hi[64], ls[96];
	const char *want[32];
	uint8_t *copy;
	FILE *f;
	int n, rel, ret;

	if (t_no_stub(t))
		return;
	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_CODE_OBJECT, &co), 0, "%s", t->name);
	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &raw), 0, "%s", t->name);
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		if (co.family && !strcmp(seqs[i].family, co.family))
			q = &seqs[i];
	CHECK(q, "%s: no expected sequence for family %s", t->name, co.family);
	if (!q)
		return;

	/* The code object with its raw kernel patched in place. */
	copy = malloc(co.size);
	if (!copy)
		return;
	memcpy(copy, co.bytes, co.size);
	ret = kfdsig_shader_patch(&raw, copy + (raw.bytes - co.bytes), raw.size, SLOT, EVENT);
	CHECK_EQ(ret, t->sq_msg_id_bits < 9 ? KFDSIG_SHADER_PARTIAL_ID : 0, "%s patch", t->name);
	snprintf(path, sizeof(path), "%s/%s.co", dir, t->name);
	CHECK(t_write_file(path, copy, co.size), "%s: write", t->name);
	free(copy);
	snprintf(cmd, sizeof(cmd), "'%s/llvm-objdump' -d --mcpu=%s '%s'", KFDSIG_LLVM22_BIN,
		 co.processor, path);
	f = popen(cmd, "r");
	CHECK(f, "%s: %s", t->name, cmd);
	if (!f)
		return;
	parse(f, &kco, &kraw);
	CHECK_EQ(pclose(f), 0, "%s: llvm-objdump failed", t->name);

	/* Kernel-argument form. */
	/* gfx10/11 print the zero offset as "null": prefix-match those. */
	snprintf(ls, sizeof(ls), "%s%s", q->load_slot, strstr(q->load_slot, "0x0") ? "" : "*");
	n = 0;
	want[n++] = ls;
	want[n++] = q->load_id;
	want[n++] = "v_mov_b32_e32 v0, 1";
	want[n++] = "v_mov_b32_e32 v1, 0";
	want[n++] = q->wait_args;
	want[n++] = "v_mov_b32_e32 v2, s2";
	want[n++] = "v_mov_b32_e32 v3, s3";
	want[n++] = q->store;
	rel = n;
	for (int i = 0; i < 3 && q->release[i]; i++)
		want[n++] = q->release[i];
	want[n++] = "s_mov_b32 m0, s4";
	want[n++] = "s_nop 0";
	want[n++] = "s_sendmsg sendmsg(MSG_INTERRUPT)";
	want[n++] = q->msg_wait;
	want[n++] = "s_endpgm";
	snprintf(path, sizeof(path), "%s kfdsig_signal", t->name);
	expect(path, &kco, want, n, q->release_enc, rel);

	/* Raw form, patched: literals carry the slot and the full id. */
	snprintf(lo, sizeof(lo), "v_mov_b32_e32 v2, 0x%x", (unsigned)(SLOT & 0xffffffffu));
	snprintf(hi, sizeof(hi), "v_mov_b32_e32 v3, 0x%x", (unsigned)(SLOT >> 32));
	n = 0;
	want[n++] = "v_mov_b32_e32 v0, 1";
	want[n++] = "v_mov_b32_e32 v1, 0";
	want[n++] = lo;
	want[n++] = hi;
	want[n++] = q->store;
	rel = n;
	for (int i = 0; i < 3 && q->release[i]; i++)
		want[n++] = q->release[i];
	want[n++] = "s_mov_b32 m0, 0x12c"; /* 300, the full id */
	want[n++] = "s_nop 0";
	want[n++] = "s_sendmsg sendmsg(MSG_INTERRUPT)";
	want[n++] = q->msg_wait;
	want[n++] = "s_endpgm";
	snprintf(path, sizeof(path), "%s kfdsig_signal_raw", t->name);
	expect(path, &kraw, want, n, q->release_enc, rel);
}

int main(void)
{
	char dir[] = "/tmp/kfdsig-disasm-XXXXXX";
	char cmd[128];

	if (!t_have_llvm22()) {
		fprintf(stderr, "shaders_disasm: LLVM 22 not found in %s: skipped\n",
			KFDSIG_LLVM22_BIN);
		return T_EXIT_SKIP;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return T_EXIT_FAIL;
	}
	for (size_t i = 0; i < kfdsig_target_count(); i++)
		check_target(kfdsig_target_at(i), dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return t_result("shaders_disasm");
}
