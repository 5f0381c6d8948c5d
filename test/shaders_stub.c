/* SPDX-License-Identifier: MIT */
/*
 * Shader stubs without LLVM: every target has both forms; the offsets the
 * library publishes match the ELF symbols (read here with an independent
 * ELF reader); the kernel descriptors say what the stubs need; patching
 * writes exactly the published bytes; bad input is refused.
 */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <string.h>

#include "helpers.h"
#include "shaders_common.h"

/* Placeholders of the raw sources (the .s files of src/shaders). */
#define PH_SLOT_LO 0x12345678u
#define PH_SLOT_HI 0x9abcu
#define PH_EVENT 0xfffu

/* Kernel descriptor fields (LLVM AMDGPUUsage "Kernel Descriptor"). */
#define KD_KERNARG_SIZE 8
#define KD_RSRC3 44
#define KD_RSRC1 48
#define KD_RSRC2 52
#define KD_PROPS 56
#define KD_PROP_KERNARG_PTR (1u << 3)
#define KD_PROP_WAVE32 (1u << 10)

static void check_target(const struct kfdsig_target *t)
{
	struct kfdsig_shader_stub co = { 0 }, raw = { 0 };
	uint64_t sym_va = 0, kd_va = 0;
	long sym, kd, raw_sym, rkd, lbl;
	uint64_t sz = 0, raw_len = 0;
	const uint8_t *k;
	bool gfx10plus = t->level >= KFDSIG_GFX10;

	if (t_no_stub(t))
		return;
	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_CODE_OBJECT, &co), 0, "%s co", t->name);
	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &raw), 0, "%s raw", t->name);
	if (!co.bytes || !raw.bytes)
		return;
	CHECK(!memcmp(co.bytes, "\177ELF", 4), "%s: code object is not an ELF", t->name);
	CHECK_EQ(t_le(co.bytes + 0x12, 2), 224, "%s e_machine EM_AMDGPU", t->name);
	CHECK_EQ(t_le(co.bytes + 0x30, 4), co.elf_flags, "%s e_flags", t->name);
	CHECK_EQ(co.sq_id_bits, t->sq_msg_id_bits, "%s", t->name);
	CHECK(!strncmp(co.llvm_version, "22.", 3), "%s: assembled by LLVM %s", t->name,
	      co.llvm_version);
	CHECK(co.source && strstr(co.source, "s_sendmsg sendmsg(MSG_INTERRUPT)"), "%s: source text",
	      t->name);

	/* Offsets versus the ELF symbol table. */
	sym = t_elf_symbol_va(co.bytes, co.size, "kfdsig_signal", &sz, &sym_va);
	kd = t_elf_symbol_va(co.bytes, co.size, "kfdsig_signal.kd", NULL, &kd_va);
	raw_sym = t_elf_symbol(co.bytes, co.size, "kfdsig_signal_raw", &raw_len);
	rkd = t_elf_symbol(co.bytes, co.size, "kfdsig_signal_raw.kd", NULL);
	CHECK(sym > 0 && kd > 0 && raw_sym > 0 && rkd > 0, "%s: symbols", t->name);
	if (sym <= 0 || kd <= 0 || raw_sym <= 0 || rkd <= 0)
		return;
	CHECK_EQ(co.entry_offset, sym, "%s co entry", t->name);
	CHECK_EQ(co.code_size, sz, "%s co code size", t->name);
	CHECK_EQ(co.kd_offset, kd, "%s kd", t->name);
	CHECK_EQ(co.entry_offset % KFDSIG_SHADER_CODE_ALIGN, 0, "%s entry aligned", t->name);
	CHECK(raw.bytes == co.bytes + raw_sym, "%s: raw blob is the raw kernel", t->name);
	CHECK_EQ(raw.code_size, raw_len, "%s raw code size", t->name);
	CHECK(raw.size >= raw.code_size, "%s raw size", t->name);
	/* gfx10+: 192 bytes of s_code_end padding after the kernel. */
	CHECK_EQ(raw.size - raw.code_size, gfx10plus ? 192 : 0, "%s raw padding", t->name);
	CHECK_EQ(raw.kd_offset, KFDSIG_SHADER_NO_OFFSET, "%s", t->name);
	for (int i = 0; i < KFDSIG_SHADER_NPATCH; i++)
		CHECK_EQ(co.patch_offset[i], KFDSIG_SHADER_NO_OFFSET, "%s co patch %d", t->name, i);
	lbl = t_elf_symbol(co.bytes, co.size, "kfdsig_patch_slot_lo", NULL);
	CHECK_EQ(raw.patch_offset[KFDSIG_SHADER_PATCH_SLOT_LO], lbl - 4 - raw_sym, "%s", t->name);
	lbl = t_elf_symbol(co.bytes, co.size, "kfdsig_patch_slot_hi", NULL);
	CHECK_EQ(raw.patch_offset[KFDSIG_SHADER_PATCH_SLOT_HI], lbl - 4 - raw_sym, "%s", t->name);
	lbl = t_elf_symbol(co.bytes, co.size, "kfdsig_patch_event_id", NULL);
	CHECK_EQ(raw.patch_offset[KFDSIG_SHADER_PATCH_EVENT_ID], lbl - 4 - raw_sym, "%s", t->name);
	CHECK_EQ(t_le(raw.bytes + raw.patch_offset[0], 4), PH_SLOT_LO, "%s", t->name);
	CHECK_EQ(t_le(raw.bytes + raw.patch_offset[1], 4), PH_SLOT_HI, "%s", t->name);
	CHECK_EQ(t_le(raw.bytes + raw.patch_offset[2], 4), PH_EVENT, "%s", t->name);

	/* Kernel descriptor of the kernel-argument form. */
	k = co.bytes + kd;
	CHECK_EQ(t_le(k + KD_KERNARG_SIZE, 4), 16, "%s kernarg size", t->name);
	CHECK(t_le(k + KD_PROPS, 2) & KD_PROP_KERNARG_PTR, "%s: kernarg pointer SGPRs", t->name);
	CHECK_EQ((t_le(k + KD_RSRC2, 4) >> 1) & 0x1f, 2, "%s user SGPRs", t->name);
	CHECK_EQ(!!(t_le(k + KD_PROPS, 2) & KD_PROP_WAVE32), gfx10plus, "%s wave32", t->name);
	CHECK_EQ(co.regs.pgm_rsrc1, t_le(k + KD_RSRC1, 4), "%s", t->name);
	CHECK_EQ(co.regs.pgm_rsrc2, t_le(k + KD_RSRC2, 4), "%s", t->name);
	CHECK_EQ(co.regs.pgm_rsrc3, t_le(k + KD_RSRC3, 4), "%s", t->name);
	CHECK_EQ(co.regs.user_sgprs, 2, "%s", t->name);
	CHECK_EQ(co.regs.kernarg_size, 16, "%s", t->name);
	CHECK_EQ(co.regs.wave_size, gfx10plus ? 32 : 64, "%s", t->name);
	CHECK_EQ(co.regs.has_rsrc3,
		 gfx10plus || t->family == KFDSIG_FAMILY_GFX90A ||
			 t->family == KFDSIG_FAMILY_GFX94X,
		 "%s has rsrc3", t->name);
	/* Kernel-code entry: offset from the KD to the code, in addresses. */
	CHECK_EQ((int64_t)t_le(k + 16, 8), (int64_t)(sym_va - kd_va),
		 "%s kernel_code_entry_byte_offset", t->name);

	/* Raw form: no kernel arguments, no user SGPRs. */
	k = co.bytes + rkd;
	CHECK_EQ(t_le(k + KD_KERNARG_SIZE, 4), 0, "%s raw kernarg size", t->name);
	CHECK_EQ((t_le(k + KD_RSRC2, 4) >> 1) & 0x1f, 0, "%s raw user SGPRs", t->name);
	CHECK_EQ(raw.regs.user_sgprs, 0, "%s", t->name);
	CHECK_EQ(raw.regs.pgm_rsrc1, t_le(k + KD_RSRC1, 4), "%s", t->name);
	CHECK_EQ(raw.regs.wave_size, gfx10plus ? 32 : 64, "%s", t->name);
	/* No scratch: PRIVATE_SEGMENT (SCRATCH_EN, rsrc2 bit 0) off. */
	CHECK_EQ(raw.regs.pgm_rsrc2 & 1, 0, "%s scratch", t->name);
	CHECK_EQ(co.regs.pgm_rsrc2 & 1, 0, "%s scratch", t->name);
}

/*
 * The code object carries the amdhsa.target metadata LLVM 22 emits
 * (AMDGPUUsage "Code Object V3 Metadata": the target id, here
 * "amdgcn-amd-amdhsa--<processor>"), as a msgpack key/value pair in the
 * AMDGPU note: fixstr "amdhsa.target" then fixstr of the target id.
 */
static void check_target_key(const struct kfdsig_target *t)
{
	static const char key[] = "amdhsa.target";
	struct kfdsig_shader_stub co;
	char tid[64];
	size_t kl = sizeof(key) - 1, tl;
	const uint8_t *p;

	if (t_no_stub(t))
		return;
	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_CODE_OBJECT, &co), 0, "%s co", t->name);
	tl = (size_t)snprintf(tid, sizeof(tid), "amdgcn-amd-amdhsa--%s", co.processor);
	p = memmem(co.bytes, co.size, key, kl);
	CHECK(p && p > co.bytes && p[-1] == (0xa0 | kl), "%s: no amdhsa.target key", t->name);
	if (!p || (size_t)(p - co.bytes) + kl + 1 + tl > co.size)
		return;
	CHECK(p[kl] == (0xa0 | tl) && !memcmp(p + kl + 1, tid, tl), "%s: amdhsa.target is not %s",
	      t->name, tid);
}

static void check_patch(const char *name, uint64_t slot, uint32_t id, int want)
{
	const struct kfdsig_target *t = kfdsig_target_by_name(name);
	struct kfdsig_shader_stub s;
	uint8_t buf[1024], orig[1024];
	size_t changed = 0;

	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &s), 0, "%s", name);
	CHECK(s.size + 16 <= sizeof(buf), "%s: stub size %zu", name, s.size);
	memset(buf, 0xa5, sizeof(buf));
	memcpy(buf, s.bytes, s.size);
	memcpy(orig, buf, sizeof(buf));
	CHECK_EQ(kfdsig_shader_patch(&s, buf, s.size, slot, id), want, "%s id %u", name, id);
	CHECK_EQ(t_le(buf + s.patch_offset[0], 4), (uint32_t)slot, "%s slot lo", name);
	CHECK_EQ(t_le(buf + s.patch_offset[1], 4), (uint32_t)(slot >> 32), "%s slot hi", name);
	/* The full id, never id & 0xff. */
	CHECK_EQ(t_le(buf + s.patch_offset[2], 4), id, "%s m0 literal", name);
	for (size_t i = 0; i < sizeof(buf); i++) {
		bool published = false;

		for (int k = 0; k < KFDSIG_SHADER_NPATCH; k++)
			if (i >= s.patch_offset[k] && i < s.patch_offset[k] + 4)
				published = true;
		if (buf[i] != orig[i]) {
			changed++;
			CHECK(published, "%s: byte %zu changed outside the patch offsets", name, i);
		}
	}
	CHECK(changed <= 12, "%s: %zu bytes changed", name, changed);
}

static void check_errors(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
	struct kfdsig_shader_stub raw, co;
	uint8_t buf[1024], orig[1024];
	uint8_t ka[16];

	CHECK_EQ(kfdsig_shader_stub(NULL, KFDSIG_SHADER_RAW, &raw), -EINVAL, "null target");
	CHECK_EQ(kfdsig_shader_stub(t, (enum kfdsig_shader_form)7, &raw), -EINVAL, "bad form");
	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, NULL), -EINVAL, "null out");
	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &raw), 0, "raw");
	CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_CODE_OBJECT, &co), 0, "co");
	memcpy(buf, raw.bytes, raw.size);
	memcpy(orig, buf, sizeof(orig));
	CHECK_EQ(kfdsig_shader_patch(&raw, buf, raw.size, 0x1000, 0), -EINVAL, "id 0");
	CHECK_EQ(kfdsig_shader_patch(&raw, buf, raw.size, 0x1000, 4096), -EINVAL, "id 4096");
	CHECK_EQ(kfdsig_shader_patch(&raw, buf, raw.size, 0, 5), -EINVAL, "slot 0");
	CHECK_EQ(kfdsig_shader_patch(&raw, buf, raw.size, 0x1004, 5), -EINVAL, "unaligned");
	CHECK_EQ(kfdsig_shader_patch(&raw, buf, raw.size, 0x1008 + 8 * 5, 5), -EINVAL,
		 "page not 4096-byte aligned");
	CHECK_EQ(kfdsig_shader_patch(&raw, buf, raw.size, 8 * 5, 5), -EINVAL, "page 0");
	CHECK_EQ(kfdsig_shader_patch(&raw, buf, raw.size, 1ull << 48, 5), -EINVAL, "2^48");
	CHECK_EQ(kfdsig_shader_patch(&raw, buf, raw.size - 1, 0x1000, 5), -ENOSPC, "small");
	CHECK_EQ(kfdsig_shader_patch(&raw, NULL, raw.size, 0x1000, 5), -EINVAL, "null");
	CHECK_EQ(kfdsig_shader_patch(&co, buf, sizeof(buf), 0x1000, 5), -EINVAL, "co patch");
	CHECK(!memcmp(buf, orig, raw.size), "a refused patch wrote");
	CHECK(kfdsig_last_error()[0], "no reason recorded");

	memset(ka, 0xee, sizeof(ka));
	CHECK_EQ(kfdsig_shader_kernargs(&raw, ka, 16, 0x1000, 5), -EINVAL, "raw kernargs");
	CHECK_EQ(kfdsig_shader_kernargs(&co, ka, 15, 0x1000, 5), -ENOSPC, "small kernargs");
	CHECK_EQ(kfdsig_shader_kernargs(&co, ka, 16, 0x1000, 0), -EINVAL, "kernargs id 0");
	CHECK_EQ(kfdsig_shader_kernargs(&co, ka, 16, 0x7f1234567000ull + 8 * 0xabc, 0xabc), 0,
		 "kernargs");
	CHECK_EQ(t_le(ka, 8), 0x7f1234567000ull + 8 * 0xabc, "kernarg slot");
	CHECK_EQ(kfdsig_shader_kernargs(&co, ka, 16, 0x7f1234567890ull, 0xabc), -EINVAL,
		 "kernargs: signal page not 4096-byte aligned");
	CHECK_EQ(t_le(ka + 8, 4), 0xabc, "kernarg id");
	CHECK_EQ(t_le(ka + 12, 4), 0, "kernarg pad");
}

int main(void)
{
	size_t n = kfdsig_target_count();

	for (size_t i = 0; i < n; i++) {
		check_target(kfdsig_target_at(i));
		check_target_key(kfdsig_target_at(i));
	}

	/* Full ids on every generation; wider than the SQ bits on gfx8 (8
	 * bits): accepted, reported partial, m0 still gets the full id. */
	check_patch("gfx900", 0x7f1234567000ull + 8 * 0xabc, 0xabc, 0);
	check_patch("gfx1012", 0x10000ull + 8 * 4095, 4095, 0);
	check_patch("gfx1201", 0xffffffff8000ull + 8, 1, 0);
	check_patch("gfx803", 0xf234567000ull + 8 * 255, 255, 0);
	check_patch("gfx803", 0xf234567000ull + 8 * 300, 300, KFDSIG_SHADER_PARTIAL_ID);
	check_patch("gfx801", 0x1000ull + 8 * 4095, 4095, KFDSIG_SHADER_PARTIAL_ID);
	/* gfx8: a slot at or above 2^40 is out of the GPU's reach */
	{
		const struct kfdsig_target *t = kfdsig_target_by_name("gfx803");
		struct kfdsig_shader_stub s;
		uint8_t buf[1024];

		CHECK_EQ(kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &s), 0, "gfx803 stub");
		memcpy(buf, s.bytes, s.size);
		CHECK_EQ(kfdsig_shader_patch(&s, buf, s.size, (1ull << 40) + 8 * 5, 5), -EINVAL,
			 "gfx803 slot beyond 2^40");
		CHECK(strstr(kfdsig_last_error(), "40-bit") != NULL, "reason: %s",
		      kfdsig_last_error());
	}
	CHECK_EQ(kfdsig_shader_kfd_id(kfdsig_target_by_name("gfx803"), 300), 44, "gfx8 partial");
	CHECK_EQ(kfdsig_shader_kfd_id(kfdsig_target_by_name("gfx1030"), 4095), 4095, "gfx10.3");
	CHECK_EQ(kfdsig_shader_kfd_id(kfdsig_target_by_name("gfx1030"), 0x900000), 0x100000,
		 "gfx10.3 23 bits");
	CHECK_EQ(kfdsig_shader_kfd_id(kfdsig_target_by_name("gfx942"), 0x1abcdef), 0xabcdef,
		 "gfx94x 24 bits");
	check_errors();
	return t_result("shaders_stub");
}
