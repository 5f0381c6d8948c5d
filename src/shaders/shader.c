/* SPDX-License-Identifier: MIT */
/*
 * The embedded signal stubs (stubs_gen.c, generated from the *.s sources of
 * this directory with LLVM 22) and the helpers that fill in their slot
 * address and event id.
 *
 * The register values a dispatcher needs are read from the kernel
 * descriptors inside the embedded code objects, so they are exactly what
 * the assembler computed. Descriptor layout (LLVM AMDGPUUsage, "Kernel
 * Descriptor"): kernarg_size at byte 8, compute_pgm_rsrc3 at 44,
 * compute_pgm_rsrc1 at 48, compute_pgm_rsrc2 at 52, kernel_code_properties
 * at 56 (bit 10: ENABLE_WAVEFRONT_SIZE32). COMPUTE_PGM_RSRC2 bits 5:1 hold
 * USER_SGPR_COUNT.
 */
#include <errno.h>
#include <string.h>

#include "core/fence_check.h"
#include "core/internal.h"
#include "shaders/stubs_gen.h"

#define KD_KERNARG_SIZE 8
#define KD_RSRC3 44
#define KD_RSRC1 48
#define KD_RSRC2 52
#define KD_CODE_PROPERTIES 56
#define KD_WAVE32 (1u << 10)
#define RSRC2_USER_SGPR_COUNT(x) (((x) >> 1) & 0x1fu)

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static const struct stub_target *find_target(const struct kfdsig_target *t)
{
	for (unsigned i = 0; i < stub_ntargets; i++)
		if (!strcmp(stub_targets[i].name, t->name))
			return &stub_targets[i];
	return NULL;
}

static void read_kd(const uint8_t *kd, const struct kfdsig_target *t, struct kfdsig_shader_regs *r)
{
	r->kernarg_size = le32(kd + KD_KERNARG_SIZE);
	r->pgm_rsrc3 = le32(kd + KD_RSRC3);
	r->pgm_rsrc1 = le32(kd + KD_RSRC1);
	r->pgm_rsrc2 = le32(kd + KD_RSRC2);
	r->kernel_code_properties =
		(uint16_t)(kd[KD_CODE_PROPERTIES] | kd[KD_CODE_PROPERTIES + 1] << 8);
	r->has_rsrc3 = t->sh_compute_pgm_rsrc3 != 0;
	r->user_sgprs = (uint8_t)RSRC2_USER_SGPR_COUNT(r->pgm_rsrc2);
	r->wave_size = (r->kernel_code_properties & KD_WAVE32) ? 32 : 64;
}

int kfdsig_shader_stub(const struct kfdsig_target *t, enum kfdsig_shader_form form,
		       struct kfdsig_shader_stub *out)
{
	enum kfdsig_shader_form base = KFDSIG_SHADER_FORM(form);
	bool trap = ((unsigned)form & KFDSIG_SHADER_TRAP) != 0;
	const struct stub_target *st;
	const struct stub_family *f;

	if (unlikely(!t || !out))
		return set_error(EINVAL, "no target or no output");
	if (unlikely(base != KFDSIG_SHADER_CODE_OBJECT && base != KFDSIG_SHADER_RAW))
		return set_error(EINVAL, "unknown shader form %d", (int)form);
	st = find_target(t);
	if (unlikely(!st))
		return set_error(ENOENT, "no signal stub was assembled for %s", t->name);
	f = &stub_families[st->family];

	memset(out, 0, sizeof(*out));
	out->target = t;
	out->form = form;
	out->sq_id_bits = t->sq_msg_id_bits;
	out->elf_flags = st->e_flags;
	out->processor = st->processor;
	out->family = f->name;
	out->source_name = f->file;
	out->source = f->source;
	out->llvm_version = stub_llvm_version;
	for (int i = 0; i < KFDSIG_SHADER_NPATCH; i++)
		out->patch_offset[i] = KFDSIG_SHADER_NO_OFFSET;
	if (trap && base == KFDSIG_SHADER_CODE_OBJECT) {
		out->bytes = st->elf;
		out->size = f->elf_size;
		out->entry_offset = f->trap_entry;
		out->code_size = f->trap_insn_size;
		out->kd_offset = f->trap_kd;
		read_kd(st->elf + f->trap_kd, t, &out->regs);
	} else if (trap) {
		out->bytes = st->elf + f->trap_entry;
		out->size = f->trap_size;
		out->entry_offset = 0;
		out->code_size = f->trap_insn_size;
		out->kd_offset = KFDSIG_SHADER_NO_OFFSET;
		read_kd(st->elf + f->trap_kd, t, &out->regs);
	} else if (base == KFDSIG_SHADER_CODE_OBJECT) {
		out->bytes = st->elf;
		out->size = f->elf_size;
		out->entry_offset = f->co_entry;
		out->code_size = f->co_size;
		out->kd_offset = f->co_kd;
		read_kd(st->elf + f->co_kd, t, &out->regs);
	} else {
		out->bytes = st->elf + f->raw_entry;
		out->size = f->raw_size;
		out->entry_offset = 0;
		out->code_size = f->raw_insn_size;
		out->kd_offset = KFDSIG_SHADER_NO_OFFSET;
		for (int i = 0; i < KFDSIG_SHADER_NPATCH; i++)
			out->patch_offset[i] = f->patch[i];
		read_kd(st->elf + f->raw_kd, t, &out->regs);
	}
	return 0;
}

uint32_t kfdsig_shader_kfd_id(const struct kfdsig_target *t, uint32_t event_id)
{
	if (!t)
		return 0;
	if (t->sq_msg_id_bits >= 32)
		return event_id;
	return event_id & ((1u << t->sq_msg_id_bits) - 1);
}

/* Shared checks of the slot address and the event id (the fence rules:
 * id 1..4095, slot non-zero, 8-byte aligned, below 2^48). */
static int check_ids(const struct kfdsig_shader_stub *s, uint64_t slot_va, uint32_t event_id)
{
	struct kfdsig_fence f = { 0 };
	uint64_t value;
	int ret;

	f.slot_va = slot_va;
	f.event_id = event_id;
	ret = fence_check(s->target, &f, 0, 1, &value);
	if (ret)
		return ret;
	return kfdsig_shader_kfd_id(s->target, event_id) == event_id ? 0 : KFDSIG_SHADER_PARTIAL_ID;
}

int kfdsig_shader_patch(const struct kfdsig_shader_stub *s, void *code, size_t size,
			uint64_t slot_va, uint32_t event_id)
{
	uint8_t *p = code;
	int ret;

	if (unlikely(!s || !code || !s->target))
		return set_error(EINVAL, "no stub or no code buffer");
	if (unlikely(s->form != KFDSIG_SHADER_RAW))
		return set_error(EINVAL, "only a raw signal stub has literals to patch; a "
					 "code object takes kernel arguments "
					 "(kfdsig_shader_kernargs()), a trap stub nothing");
	if (unlikely(size < s->size))
		return set_error(ENOSPC,
				 "code buffer of %zu bytes is smaller than the "
				 "%zu-byte stub",
				 size, s->size);
	for (int i = 0; i < KFDSIG_SHADER_NPATCH; i++)
		if (unlikely(s->patch_offset[i] > s->size - 4))
			return set_error(EINVAL, "patch offset %u outside the stub",
					 s->patch_offset[i]);
	ret = check_ids(s, slot_va, event_id);
	if (ret < 0)
		return ret;
	put_le32(p + s->patch_offset[KFDSIG_SHADER_PATCH_SLOT_LO], (uint32_t)slot_va);
	put_le32(p + s->patch_offset[KFDSIG_SHADER_PATCH_SLOT_HI], (uint32_t)(slot_va >> 32));
	put_le32(p + s->patch_offset[KFDSIG_SHADER_PATCH_EVENT_ID], event_id);
	return ret;
}

int kfdsig_shader_kernargs(const struct kfdsig_shader_stub *s, void *kernarg, size_t size,
			   uint64_t slot_va, uint32_t event_id)
{
	uint8_t *p = kernarg;
	int ret;

	if (unlikely(!s || !kernarg || !s->target))
		return set_error(EINVAL, "no stub or no kernel-argument buffer");
	if (unlikely(s->form != KFDSIG_SHADER_CODE_OBJECT))
		return set_error(EINVAL, "a raw or trap stub takes no kernel arguments; "
					 "patch a raw one (kfdsig_shader_patch())");
	if (unlikely(size < KFDSIG_SHADER_KERNARG_SIZE))
		return set_error(ENOSPC,
				 "kernel-argument buffer of %zu bytes is smaller "
				 "than %u",
				 size, KFDSIG_SHADER_KERNARG_SIZE);
	ret = check_ids(s, slot_va, event_id);
	if (ret < 0)
		return ret;
	put_le32(p, (uint32_t)slot_va);
	put_le32(p + 4, (uint32_t)(slot_va >> 32));
	put_le32(p + 8, event_id);
	put_le32(p + 12, 0);
	return ret;
}
