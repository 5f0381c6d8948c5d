/* SPDX-License-Identifier: MIT */
/*
 * The embedded stubs are what LLVM 22 makes of the sources today:
 *  1. running the generator again gives exactly src/shaders/stubs_gen.c;
 *  2. assembling and linking each target's source with llvm-mc / ld.lld
 *     gives exactly the code object the library returns for that target;
 *  3. the embedded source text is the source file.
 * Skips (77) only when the LLVM 22 tools are absent. When it fails after a
 * source change: cmake --build build --target kfdsig-shaders.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "shaders_common.h"

#ifndef KFDSIG_SOURCE_DIR
#error "KFDSIG_SOURCE_DIR must name the source tree"
#endif
#ifndef KFDSIG_CMAKE_COMMAND
#define KFDSIG_CMAKE_COMMAND "cmake"
#endif

static char tmp[] = "/tmp/kfdsig-fresh-XXXXXX";

static void compare_generated(void)
{
	char cmd[2048], path[512];
	uint8_t *fresh, *kept;
	size_t nf = 0, nk = 0;

	snprintf(cmd, sizeof(cmd),
		 "'%s' -DLLVM_BIN='%s' -DSRC_DIR='%s/src/shaders' -DOUT='%s/stubs_gen.c' "
		 "-DWORK='%s/work' -P '%s/src/shaders/gen_stubs.cmake'",
		 KFDSIG_CMAKE_COMMAND, KFDSIG_LLVM22_BIN, KFDSIG_SOURCE_DIR, tmp, tmp,
		 KFDSIG_SOURCE_DIR);
	CHECK_EQ(system(cmd), 0, "generator failed: %s", cmd);
	snprintf(path, sizeof(path), "%s/stubs_gen.c", tmp);
	fresh = t_read_file(path, &nf);
	kept = t_read_file(KFDSIG_SOURCE_DIR "/src/shaders/stubs_gen.c", &nk);
	CHECK(fresh && kept, "cannot read the generated files");
	if (fresh && kept) {
		size_t i = 0;

		while (i < nf && i < nk && fresh[i] == kept[i])
			i++;
		CHECK(nf == nk && i == nf,
		      "src/shaders/stubs_gen.c differs from a fresh generation at byte %zu "
		      "(regenerate: cmake --build build --target kfdsig-shaders)",
		      i);
	}
	free(fresh);
	free(kept);
}

static void compare_target(const struct kfdsig_target *t)
{
	struct kfdsig_shader_stub s;
	char cmd[4096], obj[512], co[512], src[512];
	uint8_t *bytes, *text;
	size_t n = 0, ns = 0;

	if (t_no_stub(t))
		return;
	if (kfdsig_shader_stub(t, KFDSIG_SHADER_CODE_OBJECT, &s)) {
		CHECK(0, "%s: no stub: %s", t->name, kfdsig_last_error());
		return;
	}
	snprintf(src, sizeof(src), "%s/src/shaders/%s", KFDSIG_SOURCE_DIR, s.source_name);
	snprintf(obj, sizeof(obj), "%s/%s.o", tmp, t->name);
	snprintf(co, sizeof(co), "%s/%s.co", tmp, t->name);
	/* the source names its processor KFDSIG_PROCESSOR (amdhsa.target) */
	snprintf(cmd, sizeof(cmd),
		 "sed 's/KFDSIG_PROCESSOR/%s/g' '%s' > '%s/%s.s' && "
		 "'%s/llvm-mc' -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj '%s/%s.s' -o '%s' "
		 "&& "
		 "'%s/ld.lld' -shared '%s' -o '%s'",
		 s.processor, src, tmp, t->name, KFDSIG_LLVM22_BIN, s.processor, tmp, t->name, obj,
		 KFDSIG_LLVM22_BIN, obj, co);
	CHECK_EQ(system(cmd), 0, "%s: %s", t->name, cmd);
	bytes = t_read_file(co, &n);
	CHECK(bytes, "%s: no output", t->name);
	if (bytes) {
		size_t i = 0;

		while (i < n && i < s.size && bytes[i] == s.bytes[i])
			i++;
		CHECK(n == s.size && i == n,
		      "%s: embedded code object (%zu bytes) differs from a fresh assembly "
		      "(%zu bytes) at byte %zu",
		      t->name, s.size, n, i);
	}
	text = t_read_file(src, &ns);
	CHECK(text && !strcmp((const char *)text, s.source), "%s: embedded source differs from %s",
	      t->name, src);
	free(bytes);
	free(text);
}

int main(void)
{
	char cmd[600];

	if (!t_have_llvm22()) {
		fprintf(stderr, "shaders_fresh: LLVM 22 not found in %s: skipped\n",
			KFDSIG_LLVM22_BIN);
		return T_EXIT_SKIP;
	}
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return T_EXIT_FAIL;
	}
	compare_generated();
	for (size_t i = 0; i < kfdsig_target_count(); i++)
		compare_target(kfdsig_target_at(i));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmp);
	return t_result("shaders_fresh");
}
