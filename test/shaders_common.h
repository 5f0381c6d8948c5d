/* SPDX-License-Identifier: MIT */
/*
 * Shared by the shader-stub tests: a minimal ELF64 reader (independent of
 * the generator, so it checks the offsets the library publishes) and the
 * LLVM 22 tool helpers. Static functions: each test uses what it needs.
 */
#ifndef KFDSIG_TEST_SHADERS_COMMON_H
#define KFDSIG_TEST_SHADERS_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

/* From the CMake cache setting KFDSIG_LLVM22_BIN (test/CMakeLists.txt). */
#ifndef KFDSIG_LLVM22_BIN
#error "KFDSIG_LLVM22_BIN must come from the CMake cache setting"
#endif

static inline uint64_t t_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* File offset of symbol @name in an ELF64 image (its value in *va), or -1. */
static inline long t_elf_symbol_va(const uint8_t *elf, size_t size, const char *name,
				   uint64_t *sym_size, uint64_t *va)
{
	uint64_t shoff;
	unsigned shentsize, shnum;

	if (size < 64 || memcmp(elf, "\177ELF", 4) || elf[4] != 2)
		return -1;
	shoff = t_le(elf + 0x28, 8);
	shentsize = (unsigned)t_le(elf + 0x3a, 2);
	shnum = (unsigned)t_le(elf + 0x3c, 2);
	if (shentsize != 64 || shoff + (uint64_t)shnum * 64 > size)
		return -1;
	for (unsigned i = 0; i < shnum; i++) {
		const uint8_t *sh = elf + shoff + i * 64;
		uint64_t off, sz, link;
		const uint8_t *strsh;

		if (t_le(sh + 4, 4) != 2) /* SHT_SYMTAB */
			continue;
		off = t_le(sh + 0x18, 8);
		sz = t_le(sh + 0x20, 8);
		link = t_le(sh + 0x28, 4);
		if (link >= shnum || off + sz > size)
			return -1;
		strsh = elf + shoff + link * 64;
		for (uint64_t s = off; s + 24 <= off + sz; s += 24) {
			uint64_t stroff = t_le(strsh + 0x18, 8) + t_le(elf + s, 4);
			unsigned shndx = (unsigned)t_le(elf + s + 6, 2);
			const uint8_t *sec;
			uint64_t value;

			if (stroff >= size || strcmp((const char *)elf + stroff, name))
				continue;
			if (shndx == 0 || shndx >= shnum)
				return -1;
			sec = elf + shoff + shndx * 64;
			value = t_le(elf + s + 8, 8);
			if (sym_size)
				*sym_size = t_le(elf + s + 16, 8);
			if (va)
				*va = value;
			/* file offset = value - sh_addr + sh_offset */
			return (long)(value - t_le(sec + 0x10, 8) + t_le(sec + 0x18, 8));
		}
	}
	return -1;
}

static inline long t_elf_symbol(const uint8_t *elf, size_t size, const char *name,
				uint64_t *sym_size)
{
	return t_elf_symbol_va(elf, size, name, sym_size, NULL);
}

/* 1 when the LLVM 22 tools are there, else 0 (the caller skips). */
static inline int t_have_llvm22(void)
{
	char cmd[512];
	char line[256];
	FILE *p;
	int ok = 0;

	snprintf(cmd, sizeof(cmd), "'%s/llvm-mc' --version 2>/dev/null", KFDSIG_LLVM22_BIN);
	if (access(KFDSIG_LLVM22_BIN "/llvm-mc", X_OK) ||
	    access(KFDSIG_LLVM22_BIN "/ld.lld", X_OK) ||
	    access(KFDSIG_LLVM22_BIN "/llvm-objdump", X_OK))
		return 0;
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, "LLVM version 22."))
			ok = 1;
	pclose(p);
	return ok;
}

static inline bool t_write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	bool ok;

	if (!f)
		return false;
	ok = fwrite(data, 1, n, f) == n;
	return fclose(f) == 0 && ok;
}

/* Read a whole file; NULL on error. */
static inline uint8_t *t_read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	if (buf) {
		buf[len] = 0;
		*n = (size_t)len;
	}
out:
	fclose(f);
	return buf;
}

#endif
