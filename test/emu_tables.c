/* SPDX-License-Identifier: MIT */
/*
 * The emulator's own generation tables (src/emu/emu_gen.c) against the
 * generation table the emitters read (src/core/target_table.c), for every
 * target: both are readings of the same kernel and LLVM sources, written
 * apart, so any difference means one of them is wrong. Also the emulator's
 * ctx-0 rule at the firmware thresholds, and unknown IP versions.
 */
#include <string.h>

#include "emu/emu_gen.h"
#include "emu/emu_xcc.h"
#include "helpers.h"

static bool fence_form_agrees(const struct kfdsig_target *t, const struct emu_gen *g)
{
	switch (t->pm4_fence) {
	case KFDSIG_PM4_FENCE_VI:
		return g->release_mem_dw == 7 && !g->release_mem_ctxid;
	case KFDSIG_PM4_FENCE_AI:
	case KFDSIG_PM4_FENCE_NV:
	case KFDSIG_PM4_FENCE_GC12_1:
		return g->release_mem_dw == 8 && g->release_mem_ctxid;
	}
	return false;
}

static bool sdma_form_agrees(const struct kfdsig_target *t, const struct emu_gen *g)
{
	static const uint8_t form[] = { [KFDSIG_SDMA_HDR_PLAIN] = EMU_SDMA_FORM_PLAIN,
					[KFDSIG_SDMA_HDR_NV] = EMU_SDMA_FORM_NV,
					[KFDSIG_SDMA_HDR_V6] = EMU_SDMA_FORM_V6 };

	return (unsigned)t->sdma_fence_hdr < sizeof(form) &&
	       g->sdma_forms == form[t->sdma_fence_hdr];
}

static void compare(const struct kfdsig_target *t)
{
	struct emu_gen g;
	const char *n = t->name;

	if (emu_gen_derive(&g, t->gc_ip, t->sdma_ip, t->gfx_target_version, 0, 0)) {
		CHECK(0, "%s: the emulator knows no GC %u.%u.%u: %s", n, t->gc_ip[0], t->gc_ip[1],
		      t->gc_ip[2], kfdsig_last_error());
		return;
	}
	CHECK_EQ(g.irq, t->irq_class, "%s: interrupt class (emu %s, table %s)", n,
		 kfdsig_irq_class_name(g.irq), kfdsig_irq_class_name(t->irq_class));
	CHECK_EQ(g.level, t->level, "%s: level", n);
	CHECK_EQ(g.family, t->family, "%s: family", n);
	CHECK_EQ(g.apu, t->apu, "%s: APU", n);
	CHECK_EQ(g.eop_bits, t->cp_eop_id_bits, "%s: CP EOP id bits", n);
	CHECK_EQ(g.sdma_bits, t->sdma_trap_id_bits, "%s: SDMA TRAP id bits", n);
	CHECK_EQ(g.sq_bits, t->sq_msg_id_bits, "%s: SQ message id bits", n);
	CHECK_EQ(g.ctx0_drop_mec_fw, t->ctx0_drop_mec_fw, "%s: ctx-0 drop MEC firmware", n);
	CHECK_EQ(g.drops_bit24, t->drops_ctxid_bit24, "%s: bit-24 drop", n);
	CHECK(fence_form_agrees(t, &g), "%s: RELEASE_MEM %u dwords (ctxid %d) vs form %s", n,
	      g.release_mem_dw, g.release_mem_ctxid, kfdsig_pm4_fence_form_name(t->pm4_fence));
	CHECK(sdma_form_agrees(t, &g), "%s: SDMA forms 0x%x vs header %s", n, g.sdma_forms,
	      kfdsig_sdma_fence_hdr_name(t->sdma_fence_hdr));
	CHECK_EQ(g.doorbell_size, t->doorbell_size, "%s: doorbell size", n);
	CHECK_EQ(g.wptr_bits, t->wptr_bits, "%s: write pointer bits", n);
	CHECK_EQ(g.doorbell_slice, t->doorbell_slice, "%s: doorbell slice", n);
	CHECK_EQ(g.eop_buffer_size, t->eop_buffer_size, "%s: EOP buffer size", n);
	CHECK_EQ(g.cwsr_vgpr_size, t->cwsr_vgpr_size, "%s: VGPR bytes per CU", n);
	CHECK_EQ(g.cwsr_sgpr_size, t->cwsr_sgpr_size ? t->cwsr_sgpr_size : 0x4000u,
		 "%s: SGPR bytes per CU", n);
	CHECK_EQ(g.cwsr_hwreg_size, t->cwsr_hwreg_size ? t->cwsr_hwreg_size : 0x1000u,
		 "%s: HWREG bytes per CU", n);
	CHECK_EQ(g.va_bits, t->va_bits, "%s: GPU VA bits", n);
	CHECK_EQ(emu_xcc_default(&g), t->max_xcc, "%s: XCCs of an SPX node (max_xcc)", n);

	/* The ctx-0 rule at its threshold, against kfdsig_target_drops_ctx0(). */
	for (int d = -1; d <= 1; d++) {
		uint32_t fw =
			t->ctx0_drop_mec_fw == KFDSIG_CTX0_NEVER_DROPPED || !t->ctx0_drop_mec_fw
				? 0x200u + (uint32_t)d
				: t->ctx0_drop_mec_fw + (uint32_t)d;
		g.mec_fw = fw;
		CHECK_EQ(emu_gen_drops_ctx0(&g), kfdsig_target_drops_ctx0(t, fw),
			 "%s: ctx-0 dropped at MEC 0x%x", n, fw);
	}
}

int main(void)
{
	struct emu_gen g;
	static const uint8_t bad_gc[3] = { 9, 9, 9 }, sdma4[3] = { 4, 0, 0 }, gc9[3] = { 9, 0, 1 };
	static const uint8_t bad_sdma[3] = { 1, 0, 0 };

	for (size_t i = 0; i < kfdsig_target_count(); i++)
		compare(kfdsig_target_at(i));
	/* Rows the emulator reads independently of the targets' records. */
	CHECK(emu_gen_derive(&g, gc9, sdma4, 90000, 0x817a, 0) == 0, "GC 9.0.1");
	CHECK(emu_gen_drops_ctx0(&g), "GC 9.0.1 MEC 0x817a drops ctx 0");
	g.mec_fw = 0x8179;
	CHECK(!emu_gen_drops_ctx0(&g), "GC 9.0.1 MEC 0x8179 keeps ctx 0");
	CHECK(emu_gen_derive(&g, bad_gc, sdma4, 0, 0, 0) == -ENOENT, "GC 9.9.9 refused");
	CHECK(strstr(kfdsig_last_error(), "9.9.9") != NULL, "error names it: %s",
	      kfdsig_last_error());
	CHECK(emu_gen_derive(&g, gc9, bad_sdma, 90000, 0, 0) == -ENOENT, "SDMA 1.0 refused");

	/* GC 12 HW_ID1 under a CU mask (4 SEs x 2 SAs x 7 WGPs): bit
	 * 2 * (wgp * 8 + sa * 4 + se) enables a WGP (mqd_symmetrically_map_
	 * cu_mask()); WGP_ID [13:10], SA_ID [16], SE_ID [20:18] */
	{
		static const struct {
			uint32_t mask[2], bits;
			uint64_t group;
			uint32_t id1;
		} hc[] = {
			{ { 0, 0 }, 0, 0, 0 },	      /* no mask: SE0 SA0 WGP0 */
			{ { 0, 0 }, 0, 1, 1u << 18 }, /* then SE1 */
			{ { 0, 0 }, 0, 4, 1u << 16 }, /* SA1 after the 4 SEs */
			{ { 0, 0 }, 0, 8, 1u << 10 }, /* WGP1 after the 8 SAs */
			{ { 0, 0 }, 0, 56, 0 },	      /* 56 WGPs, then again */
			{ { 0, 3u << 28 }, 64, 5, 3u << 10 | 1u << 16 | 2u << 18 }, /* bit 60 */
			{ { 3u << 2, 3u << 28 }, 64, 0, 1u << 18 }, /* bits 2 and 60 */
			{ { 3u << 2, 3u << 28 }, 64, 1, 3u << 10 | 1u << 16 | 2u << 18 },
			{ { 3u << 2, 3u << 28 }, 32, 1, 1u << 18 }, /* 32 bits: 60 cut */
		};

		for (size_t i = 0; i < sizeof(hc) / sizeof(hc[0]); i++)
			CHECK_EQ(emu_gen_hw_id1(hc[i].bits ? hc[i].mask : NULL, hc[i].bits, 4, 2, 7,
						hc[i].group),
				 hc[i].id1, "HW_ID1 case %zu", i);
	}
	return t_result("emu_tables");
}
