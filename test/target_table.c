/* SPDX-License-Identifier: MIT */
/*
 * The generation table: every target the project promises, its
 * gfx_target_version (kfd_device.c kgd2kfd_probe()), the per-family facts of
 * kfd_device.c and the kfd_int_process_*.c handlers, lookups and their errors. Expectations are data here, not
 * read back from the table.
 */
#include <string.h>

#include "helpers.h"

static const struct {
	const char *name;
	uint32_t version;
	const char *family;
	const char *irq;
} expected[] = {
	{ "gfx801", 80001, "gfx8", "cik" },
	{ "gfx802", 80002, "gfx8", "cik" },
	{ "gfx803", 80003, "gfx8", "cik" },
	{ "gfx900", 90000, "gfx9", "v9" },
	{ "gfx902", 90002, "gfx9", "v9" },
	{ "gfx904", 90004, "gfx9", "v9" },
	{ "gfx906", 90006, "gfx9", "v9" },
	{ "gfx908", 90008, "gfx9", "v9" },
	{ "gfx909", 90009, "gfx9", "v9" },
	{ "gfx90a", 90010, "gfx90a", "v9" },
	{ "gfx90c", 90012, "gfx9", "v9" },
	{ "gfx940", 90400, "gfx94x", "v9_4_3" },
	{ "gfx941", 90401, "gfx94x", "v9_4_3" },
	{ "gfx942", 90402, "gfx94x", "v9_4_3" },
	{ "gfx950", 90500, "gfx94x", "v9_4_3" },
	{ "gfx1010", 100100, "gfx10.1", "v10" },
	{ "gfx1011", 100101, "gfx10.1", "v10" },
	{ "gfx1012", 100102, "gfx10.1", "v10" },
	{ "gfx1030", 100300, "gfx10.3", "v10" },
	{ "gfx1031", 100301, "gfx10.3", "v10" },
	{ "gfx1032", 100302, "gfx10.3", "v10" },
	{ "gfx1033", 100303, "gfx10.3", "v10" },
	{ "gfx1034", 100304, "gfx10.3", "v10" },
	{ "gfx1035", 100305, "gfx10.3", "v10" },
	{ "gfx1036", 100306, "gfx10.3", "v10" },
	{ "gfx1100", 110000, "gfx11", "v11" },
	{ "gfx1101", 110001, "gfx11", "v11" },
	{ "gfx1102", 110002, "gfx11", "v11" },
	{ "gfx1103", 110003, "gfx11", "v11" },
	{ "gfx1150", 110500, "gfx11", "v11" },
	{ "gfx1151", 110501, "gfx11", "v11" },
	/* GC 11.7.0 / 11.7.1: kgd2kfd_probe() 110700 / 110701, class v11. */
	{ "gfx1170", 110700, "gfx11", "v11" },
	{ "gfx1171", 110701, "gfx11", "v11" },
	{ "gfx1200", 120000, "gfx12", "v11" },
	{ "gfx1201", 120001, "gfx12", "v11" },
	/* GC 12.1.0: kgd2kfd_probe() 120500; event_interrupt_class_v12_1. */
	{ "gfx1250", 120500, "gfx12", "v12_1" },
};

/* Facts section 9: event-id bits per family (CP EOP, SDMA trap, SQ). */
static void check_family_facts(const struct kfdsig_target *t)
{
	const char *fam = kfdsig_family_name(t->family);
	int gfx8 = t->level == KFDSIG_GFX8;
	int gfx10 = t->level == KFDSIG_GFX10 || t->level == KFDSIG_GFX10_3;
	int gfx11p = t->level >= KFDSIG_GFX11;

	CHECK_EQ(t->cp_eop_id_bits, gfx8 ? 28 : 32, "%s eop bits", t->name);
	CHECK_EQ(t->sdma_trap_id_bits, 28, "%s sdma bits", t->name);
	CHECK_EQ(t->sq_msg_id_bits, gfx8 ? 8 : gfx10 ? 23 : 24, "%s sq bits", t->name);
	/* GC 12.1 has its own RELEASE_MEM bits (gfx_v12_1_pkt.h). */
	CHECK_EQ(t->pm4_fence,
		 gfx8					 ? KFDSIG_PM4_FENCE_VI
		 : t->level == KFDSIG_GFX9		 ? KFDSIG_PM4_FENCE_AI
		 : t->gc_ip[0] == 12 && t->gc_ip[1] == 1 ? KFDSIG_PM4_FENCE_GC12_1
							 : KFDSIG_PM4_FENCE_NV,
		 "%s pm4 form", t->name);
	CHECK_EQ(t->doorbell_size, gfx8 ? 4 : 8, "%s doorbell size", t->name);
	CHECK_EQ(t->doorbell_slice, gfx8 ? 4096 : 8192, "%s doorbell slice", t->name);
	CHECK_EQ(t->wptr_bits, gfx8 ? 32 : 64, "%s wptr bits", t->name);
	CHECK_EQ(t->drops_ctxid_bit24, gfx11p, "%s bit-24 drop", t->name);
	/* SDMA FENCE header: plain before SDMA 5, MTYPE from 5, v6 form from 6. */
	CHECK_EQ(t->sdma_fence_hdr,
		 t->sdma_ip[0] < 5   ? KFDSIG_SDMA_HDR_PLAIN
		 : t->sdma_ip[0] < 6 ? KFDSIG_SDMA_HDR_NV
				     : KFDSIG_SDMA_HDR_V6,
		 "%s sdma header (sdma %u)", t->name, t->sdma_ip[0]);
	CHECK(strlen(fam) > 0 && strcmp(fam, "?"), "%s family name", t->name);
	CHECK_EQ(t->eop_buffer_size, !strcmp(t->name, "gfx802") ? 0x8000 : 4096, "%s eop", t->name);
	/* gfx_target_version major is the GC major. */
	CHECK_EQ(t->gfx_target_version / 10000, t->gc_ip[0], "%s gc major", t->name);
}

static void check_ctx0_rule(void)
{
	const struct kfdsig_target *t;

	/* context_id_expected(): GC 9.0.1 from MEC 0x817a ... */
	t = kfdsig_target_by_name("gfx900");
	CHECK(kfdsig_target_drops_ctx0(t, 0x817a), "gfx900 fw 0x817a drops");
	CHECK(!kfdsig_target_drops_ctx0(t, 0x8179), "gfx900 fw 0x8179 keeps");
	/* ... 9.4.0 from 0x17a ... */
	t = kfdsig_target_by_name("gfx906");
	CHECK(kfdsig_target_drops_ctx0(t, 0x17a), "gfx906 fw 0x17a drops");
	CHECK(!kfdsig_target_drops_ctx0(t, 0x179), "gfx906 fw 0x179 keeps");
	/* ... GC >= 9.4.1 always ... */
	CHECK(kfdsig_target_drops_ctx0(kfdsig_target_by_name("gfx908"), 0), "gfx908 always");
	CHECK(kfdsig_target_drops_ctx0(kfdsig_target_by_name("gfx90a"), 0), "gfx90a always");
	CHECK(kfdsig_target_drops_ctx0(kfdsig_target_by_name("gfx942"), 0), "gfx942 always");
	/* ... and no such filter outside v9. */
	CHECK(!kfdsig_target_drops_ctx0(kfdsig_target_by_name("gfx803"), UINT32_MAX), "gfx8");
	CHECK(!kfdsig_target_drops_ctx0(kfdsig_target_by_name("gfx1030"), UINT32_MAX), "v10");
	CHECK(!kfdsig_target_drops_ctx0(kfdsig_target_by_name("gfx1100"), UINT32_MAX), "v11");
	CHECK(!kfdsig_target_drops_ctx0(kfdsig_target_by_name("gfx1250"), UINT32_MAX), "v12_1");
	CHECK(!kfdsig_target_drops_ctx0(NULL, 0), "NULL target");
}

/* GC 11.7: APUs (amdgpu_discovery.c AMD_IS_APU) on the v11 path, with no
 * user queues, that no LLVM before 23 accepts; every other target is known
 * to LLVM 22. */
static void check_gc117(void)
{
	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);
		bool gc117 = t->gc_ip[0] == 11 && t->gc_ip[1] == 7;

		CHECK_EQ(t->llvm_added_in, gc117 ? 23 : 0, "%s llvm_added_in", t->name);
		if (!gc117)
			continue;
		CHECK(t->apu, "%s is an APU", t->name);
		CHECK_EQ(t->gfx_target_version, 110700u + t->gc_ip[2], "%s version", t->name);
		CHECK_EQ(t->sdma_ip[0], 6, "%s sdma 6.x", t->name);
		CHECK_EQ(t->cwsr_vgpr_size, 0x40000, "%s vgpr bytes per CU", t->name);
		CHECK_EQ(t->userq_fwm_max, 4, "%s fwm entries", t->name);
		CHECK_EQ(t->userq_mec_fw + t->sdma_userq_fw, 0, "%s no user queues", t->name);
	}
}

static void check_lookups(void)
{
	const struct kfdsig_target *t;

	t = kfdsig_target_by_name("gfx90a:xnack-");
	CHECK(t && !strcmp(t->name, "gfx90a"), "feature suffix");
	t = kfdsig_target_by_name("GFX1100");
	CHECK(t && !strcmp(t->name, "gfx1100"), "upper case");

	errno = 0;
	CHECK(!kfdsig_target_by_name("gfx1300"), "unknown name");

	CHECK_EQ(errno, ENOENT, "unknown name errno");
	CHECK(strstr(kfdsig_last_error(), "gfx1300"), "reason names it: %s", kfdsig_last_error());
	errno = 0;
	CHECK(!kfdsig_target_by_name(""), "empty name");
	CHECK_EQ(errno, EINVAL, "empty name errno");
	errno = 0;
	CHECK(!kfdsig_target_by_name(NULL), "NULL name");
	CHECK_EQ(errno, EINVAL, "NULL name errno");
	/* gfx1251: no kgd2kfd_probe() row reports 120501 (docs/gc12_1.md). */
	CHECK(!kfdsig_target_by_name("gfx1251"), "gfx1251 has no row");
	CHECK(!kfdsig_target_by_name("gfx90a0000000000000000000000000000"), "long name");
	CHECK(!kfdsig_target_by_name("gfx9"), "prefix is not a name");
	errno = 0;
	CHECK(!kfdsig_target_by_version(0), "version 0");
	CHECK_EQ(errno, ENOENT, "version 0 errno");
	errno = 0;
	CHECK(!kfdsig_target_at(kfdsig_target_count()), "index out of range");
	CHECK_EQ(errno, ERANGE, "index errno");
	CHECK(!strcmp(kfdsig_family_name(KFDSIG_FAMILY_COUNT), "?"), "family out of range");
	CHECK(!strcmp(kfdsig_irq_class_name((enum kfdsig_irq_class)99), "?"), "irq out of range");
}

int main(void)
{
	size_t n = sizeof(expected) / sizeof(expected[0]);

	CHECK_EQ(kfdsig_target_count(), n, "table size");
	for (size_t i = 0; i < n; i++) {
		const struct kfdsig_target *t = kfdsig_target_by_name(expected[i].name);

		CHECK(t, "%s missing", expected[i].name);
		if (!t)
			continue;
		CHECK_EQ(t->gfx_target_version, expected[i].version, "%s version", t->name);
		/* GPUVM size: 40 bits on gfx8 (gmc_v8_0.c gmc_v8_0_sw_init), 48
		 * from gfx9 (gmc_v9_0.c .. gmc_v12_0.c *_sw_init), 57 on GC
		 * 12.1 (gmc_v12_0_sw_init, amdgpu_vm_adjust_size(..., 57)) */
		CHECK_EQ(t->va_bits,
			 expected[i].version < 90000	 ? 40
			 : expected[i].version == 120500 ? 57
							 : 48,
			 "%s VA bits", t->name);
		CHECK(!strcmp(kfdsig_family_name(t->family), expected[i].family), "%s family %s",
		      t->name, kfdsig_family_name(t->family));
		CHECK(!strcmp(kfdsig_irq_class_name(t->irq_class), expected[i].irq),
		      "%s irq class %s", t->name, kfdsig_irq_class_name(t->irq_class));
		CHECK(kfdsig_target_by_version(expected[i].version) == t, "%s by version", t->name);
		check_family_facts(t);
	}
	/* Ascending order, unique names and versions. */
	for (size_t i = 1; i < kfdsig_target_count(); i++)
		CHECK(kfdsig_target_at(i - 1)->gfx_target_version <
			      kfdsig_target_at(i)->gfx_target_version,
		      "order at %zu", i);
	/* The 64-dword SDMA minimum: gfx900-gfx904 and gfx90c only. */
	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);
		int min64 = !strcmp(t->name, "gfx900") || !strcmp(t->name, "gfx902") ||
			    !strcmp(t->name, "gfx904") || !strcmp(t->name, "gfx90c");

		CHECK_EQ(t->sdma_min_submit_dw, min64 ? 64 : 0, "%s sdma minimum", t->name);
	}
	check_ctx0_rule();
	check_gc117();
	check_lookups();
	CHECK_EQ(kfdsig_version(), KFDSIG_VERSION_NUMBER, "runtime version");
	return t_result("target_table");
}
