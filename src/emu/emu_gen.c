/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's own generation tables: GC IP version -> interrupt
 * handler class and ISA generation, handler class -> event-id bits per
 * interrupt source and drop rules, SDMA IP version -> packet forms, and the
 * queue facts KFD derives from the GC version. Keyed as amdkfd keys them
 * (KFD_GC_VERSION / KFD_SDMA_VERSION), written from the kernel sources
 * named on each row, independently of src/core/target_table.c (which the
 * emitters read); test/emu_tables.c compares the two for every target.
 */
#include <errno.h>
#include <string.h>

#include "emu/emu_gen.h"
#include "core/internal.h"

#define ANY 0xff
#define NEVER KFDSIG_CTX0_NEVER_DROPPED

/*
 * GC IP version -> handler class, ISA generation and the MEC firmware from
 * which the v9 ISR drops a CP end-of-pipe interrupt with context id 0.
 *
 * Class: amdkfd kfd_device.c kfd_device_info_set_event_interrupt_class()
 * (SOC15 devices) and kfd_device_info_init() (every non-SOC15 device, the
 * gfx7/gfx8 chips kgd2kfd_probe() keys on asic_type, gets
 * event_interrupt_class_cik). GC 12.0.x stays on the v11 class ("GFX12_TODO"
 * in that function).
 * ctx-0 threshold: kfd_int_process_v9.c context_id_expected(): 9.0.1 from
 * MEC 0x817a; 9.1.0, 9.2.1, 9.2.2, 9.3.0, 9.4.0 from 0x17a; otherwise
 * always when GC >= 9.4.1. Only event_interrupt_isr_v9() (and the v9_4_3
 * ISR that calls it) applies it; the cik, v10 and v11 ISRs never do.
 * ISA generation: LLVM AMDGPUUsage "Processors" table (gfx8xx GC 8, gfx90a
 * GC 9.4.2, gfx940-942 GC 9.4.3, gfx950 GC 9.5.0) and kgd2kfd_probe()'s GC
 * version -> gfx_target_version switch.
 */
static const struct gc_row {
	uint8_t maj, min, rev;
	enum kfdsig_irq_class irq;
	enum kfdsig_gfx_level level;
	enum kfdsig_family family;
	uint32_t ctx0_mec_fw;
} gc_rows[] = {
	{ 8, 0, ANY, KFDSIG_IRQ_CIK, KFDSIG_GFX8, KFDSIG_FAMILY_GFX8, NEVER },
	{ 9, 0, 1, KFDSIG_IRQ_V9, KFDSIG_GFX9, KFDSIG_FAMILY_GFX9, 0x817a },
	{ 9, 1, 0, KFDSIG_IRQ_V9, KFDSIG_GFX9, KFDSIG_FAMILY_GFX9, 0x17a },
	{ 9, 2, 1, KFDSIG_IRQ_V9, KFDSIG_GFX9, KFDSIG_FAMILY_GFX9, 0x17a },
	{ 9, 2, 2, KFDSIG_IRQ_V9, KFDSIG_GFX9, KFDSIG_FAMILY_GFX9, 0x17a },
	{ 9, 3, 0, KFDSIG_IRQ_V9, KFDSIG_GFX9, KFDSIG_FAMILY_GFX9, 0x17a },
	{ 9, 4, 0, KFDSIG_IRQ_V9, KFDSIG_GFX9, KFDSIG_FAMILY_GFX9, 0x17a },
	{ 9, 4, 1, KFDSIG_IRQ_V9, KFDSIG_GFX9, KFDSIG_FAMILY_GFX9, 0 },
	{ 9, 4, 2, KFDSIG_IRQ_V9, KFDSIG_GFX9, KFDSIG_FAMILY_GFX90A, 0 },
	{ 9, 4, 3, KFDSIG_IRQ_V9_4_3, KFDSIG_GFX9, KFDSIG_FAMILY_GFX94X, 0 },
	{ 9, 4, 4, KFDSIG_IRQ_V9_4_3, KFDSIG_GFX9, KFDSIG_FAMILY_GFX94X, 0 },
	{ 9, 5, 0, KFDSIG_IRQ_V9_4_3, KFDSIG_GFX9, KFDSIG_FAMILY_GFX94X, 0 },
	{ 10, 1, ANY, KFDSIG_IRQ_V10, KFDSIG_GFX10, KFDSIG_FAMILY_GFX10_1, NEVER },
	{ 10, 3, ANY, KFDSIG_IRQ_V10, KFDSIG_GFX10_3, KFDSIG_FAMILY_GFX10_3, NEVER },
	{ 11, 0, ANY, KFDSIG_IRQ_V11, KFDSIG_GFX11, KFDSIG_FAMILY_GFX11, NEVER },
	{ 11, 5, ANY, KFDSIG_IRQ_V11, KFDSIG_GFX11, KFDSIG_FAMILY_GFX11, NEVER },
	/* GC 11.7.0 / 11.7.1: kfd_device.c kgd2kfd_probe() takes them with
	 * gfx_v11_kfd2kgd and kfd_device_info_set_event_interrupt_class()
	 * gives them event_interrupt_class_v11 (amd-gfx "drm/amdgpu: add
	 * support for GC IP version 11.7.0" v2, 2026-06-30, and "... 11.7.1",
	 * 2026-06-26). Other revisions: no probe case, no row. */
	{ 11, 7, 0, KFDSIG_IRQ_V11, KFDSIG_GFX11, KFDSIG_FAMILY_GFX11, NEVER },
	{ 11, 7, 1, KFDSIG_IRQ_V11, KFDSIG_GFX11, KFDSIG_FAMILY_GFX11, NEVER },
	{ 12, 0, ANY, KFDSIG_IRQ_V11, KFDSIG_GFX12, KFDSIG_FAMILY_GFX12, NEVER },
	/* kfd_device_info_set_event_interrupt_class(): IP_VERSION(12, 1, 0)
	 * -> event_interrupt_class_v12_1 (no ctx-0 filter in its ISR). */
	{ 12, 1, 0, KFDSIG_IRQ_V12_1, KFDSIG_GFX12, KFDSIG_FAMILY_GFX12, NEVER },
};

/*
 * Handler class -> valid id bits passed to kfd_signal_event_interrupt()
 * per source, and the ISR's bit-24 rule:
 *   cik: cik_event_interrupt.c cik_event_interrupt_wq(): CP EOP and SDMA
 *        TRAP with ihre->data & 0xfffffff, 28; SQ message data & 0xff, 8.
 *   v9, v9_4_3: kfd_int_process_v9.c event_interrupt_wq_v9(): CP EOP
 *        context_id0, 32; SDMA TRAP context_id0 & 0xfffffff, 28; SQ
 *        KFD_CONTEXT_ID_GET_SQ_INT_DATA(ctx0, ctx1), 24.
 *   v10: kfd_int_process_v10.c event_interrupt_wq_v10(): 32, 28, and SQ
 *        context_id0 & 0x7fffff, 23.
 *   v11: kfd_int_process_v11.c event_interrupt_wq_v11(): 32, 28, SQ
 *        context_id0 & 0xffffff, 24; event_interrupt_isr_v11() drops a CP
 *        EOP whose context_id0 has AMDGPU_FENCE_MES_QUEUE_FLAG (bit 24,
 *        amdgpu_mes_ctx.h).
 *   v12_1: kfd_int_process_v12_1.c event_interrupt_wq_v12_1(): 32, 28, SQ
 *        context_id0 & 0xffffff, 24; event_interrupt_isr_v12_1() has the
 *        same bit-24 drop (and the node filter, emu_gc12_1.c).
 */
static const struct class_row {
	uint8_t eop, sdma, sq;
	bool bit24;
} class_rows[] = {
	[KFDSIG_IRQ_CIK] = { 28, 28, 8, false },     [KFDSIG_IRQ_V9] = { 32, 28, 24, false },
	[KFDSIG_IRQ_V9_4_3] = { 32, 28, 24, false }, [KFDSIG_IRQ_V10] = { 32, 28, 23, false },
	[KFDSIG_IRQ_V11] = { 32, 28, 24, true },     [KFDSIG_IRQ_V12_1] = { 32, 28, 24, true },
};

/*
 * SDMA IP major version -> FENCE header form and WRITE_LINEAR count:
 *   2.x, 3.x (sdma_v2_4.c, sdma_v3_0.c; vi_sdma_pkt_open.h / tonga_sdma_pkt_open.h):
 *        plain header, count = dwords (sdma_v3_0_vm_write_pte writes ndw);
 *   4.x (sdma_v4_0.c, vega10_sdma_pkt_open.h; also 4.4.x driven by
 *        sdma_v4_0.c / sdma_v4_4_2.c): plain header, count = dwords - 1
 *        (sdma_v4_0_vm_write_pte writes ndw - 1);
 *   5.x (sdma_v5_0.c / sdma_v5_2.c, navi10_sdma_pkt_open.h): FENCE header
 *        with mtype/gcc/sys/snp/gpa/l2_policy;
 *   6.x, 7.0 (sdma_v6_0.c / sdma_v7_0.c, sdma_v6_0_0_pkt_open.h): + llc_policy/cpv;
 *   7.1 (sdma_v7_1.c, sdma_v7_1_0_pkt_open.h: the same FENCE header bits).
 */
static const struct sdma_row {
	uint8_t maj;
	uint8_t forms;
	bool minus1;
} sdma_rows[] = {
	{ 2, EMU_SDMA_FORM_PLAIN, false }, { 3, EMU_SDMA_FORM_PLAIN, false },
	{ 4, EMU_SDMA_FORM_PLAIN, true },  { 5, EMU_SDMA_FORM_NV, true },
	{ 6, EMU_SDMA_FORM_V6, true },	   { 7, EMU_SDMA_FORM_V6, true },
};

/*
 * kfd_queue.c kfd_get_vgpr_size_per_cu(), keyed on gfx_target_version:
 * 0x80000 on 90008 (Arcturus), 90010 (Aldebaran), 90402 (Aqua Vanjaram),
 * 90500, 120500, 120501 (GFX_VERSION_GFX1250/1251); 0x60000 on 110000,
 * 110001, 110501 (gfx1151, added by "Bump total memory availability for
 * acquire checks on queue creation", Cc stable), 120000, 120001; 0x40000
 * otherwise, 110700 and 110701 among them (the GC 11.7 patches do not
 * touch kfd_queue.c). (Kernels that still probed gfx940/
 * gfx941 matched 904xx; those targets are gone and the table follows the
 * current kernel.)
 */
static uint32_t vgpr_size_per_cu(uint32_t gfxv)
{
	switch (gfxv) {
	case 90008:
	case 90010:
	case 90402:
	case 90500:
	case 120500:
	case 120501:
		return 0x80000;
	case 110000:
	case 110001:
	case 110501:
	case 120000:
	case 120001:
		return 0x60000;
	default:
		return 0x40000;
	}
}

/*
 * AMD_IS_APU in adev->flags, keyed as amdgpu sets it:
 *  - IP-discovery chips: amdgpu_discovery.c amdgpu_discovery_set_ip_blocks()
 *    sets it for GC 9.1.0, 9.2.2, 9.3.0, 10.1.3, 10.1.4, 10.3.1, 10.3.3,
 *    10.3.6, 10.3.7, 11.0.1, 11.0.4, 11.5.0-11.5.4, 11.5.6, 11.7.0 and
 *    11.7.1 (the GC 11.7.0 / 11.7.1 patches add both to that switch);
 *  - the older chips: amdgpu_drv.c pciidlist gives CHIP_CARRIZO (GC 8.0.1)
 *    and CHIP_STONEY (GC 8.1.0) AMD_IS_APU, as it does Raven and Renoir;
 *  - GC 9.4.3 is an APU (MI300A) or not (MI300X) by its package, which the
 *    GC version does not tell; kfd_device.c kgd2kfd_probe() names an APU of
 *    revision 0 gfx_target_version 90400 (gfx940), a dGPU of revision 0
 *    90401 and every later revision 90402, so only 90400 is known to be
 *    one (a 90402 device is taken as the MI300X, the safe choice: no
 *    carve-out, the dGPU's sensors).
 */
static bool is_apu(const uint8_t gc[3], uint32_t gfxv)
{
	static const uint8_t apus[][3] = {
		{ 8, 0, 1 },  { 8, 1, 0 },  { 9, 1, 0 },  { 9, 2, 2 },	{ 9, 3, 0 },  { 10, 1, 3 },
		{ 10, 1, 4 }, { 10, 3, 1 }, { 10, 3, 3 }, { 10, 3, 6 }, { 10, 3, 7 }, { 11, 0, 1 },
		{ 11, 0, 4 }, { 11, 5, 0 }, { 11, 5, 1 }, { 11, 5, 2 }, { 11, 5, 3 }, { 11, 5, 4 },
		{ 11, 5, 6 }, { 11, 7, 0 }, { 11, 7, 1 },
	};

	if (gc[0] == 9 && gc[1] == 4 && gc[2] == 3)
		return gfxv == 90400;
	for (size_t i = 0; i < sizeof(apus) / sizeof(apus[0]); i++)
		if (!memcmp(apus[i], gc, 3))
			return true;
	return false;
}

int emu_gen_derive(struct emu_gen *g, const uint8_t gc[3], const uint8_t sdma[3], uint32_t gfxv,
		   uint32_t mec_fw, uint32_t sdma_fw)
{
	const struct gc_row *row = NULL;
	const struct sdma_row *srow = NULL;
	const struct class_row *c;
	bool soc15;

	for (size_t i = 0; i < sizeof(gc_rows) / sizeof(gc_rows[0]) && !row; i++)
		if (gc_rows[i].maj == gc[0] && gc_rows[i].min == gc[1] &&
		    (gc_rows[i].rev == ANY || gc_rows[i].rev == gc[2]))
			row = &gc_rows[i];
	for (size_t i = 0; i < sizeof(sdma_rows) / sizeof(sdma_rows[0]) && !srow; i++)
		if (sdma_rows[i].maj == sdma[0])
			srow = &sdma_rows[i];
	if (!row || !srow)
		return set_error(ENOENT, "emulator: no KFD device has GC %u.%u.%u / SDMA %u.%u.%u",
				 gc[0], gc[1], gc[2], sdma[0], sdma[1], sdma[2]);
	memset(g, 0, sizeof(*g));
	memcpy(g->gc, gc, 3);
	memcpy(g->sdma, sdma, 3);
	g->gfxv = gfxv;
	g->mec_fw = mec_fw;
	g->sdma_fw = sdma_fw;
	g->level = row->level;
	g->family = row->family;
	g->apu = is_apu(gc, gfxv);
	g->irq = row->irq;
	c = &class_rows[row->irq];
	g->eop_bits = c->eop;
	g->sdma_bits = c->sdma;
	g->sq_bits = c->sq;
	g->drops_bit24 = c->bit24;
	g->ctx0_drop_mec_fw = row->ctx0_mec_fw;

	/* The CP's RELEASE_MEM: 6 body dwords on the gfx8 MEC (vi.h,
	 * gfx_v8_0_ring_emit_fence_compute writes PACKET3(RELEASE_MEM, 5)),
	 * 7 with INT_CTXID from gfx9 (soc15d.h / nvd.h,
	 * gfx_v9_0_ring_emit_fence writes PACKET3(RELEASE_MEM, 6)). */
	g->release_mem_ctxid = gc[0] >= 9;
	g->release_mem_dw = g->release_mem_ctxid ? 8 : 7;

	g->sdma_forms = srow->forms;
	g->sdma_count_minus1 = srow->minus1;

	/* kfd_device.c kfd_device_info_init(): SOC15 (GC >= 9) devices have
	 * 8-byte doorbells, older ones 4; kfd_doorbell.c
	 * kfd_doorbell_process_slice(): roundup(doorbell_size *
	 * KFD_MAX_NUM_OF_QUEUES_PER_PROCESS (1024), PAGE_SIZE). Write
	 * pointers: 32-bit and wrapped in the VI MQD (kfd_mqd_manager_vi.c),
	 * 64-bit and monotonic in the v9+ MQDs (kfd_mqd_manager_v9.c). */
	soc15 = gc[0] >= 9;
	g->doorbell_size = soc15 ? 8 : 4;
	g->wptr_bits = soc15 ? 64 : 32;
	g->doorbell_slice = ((uint32_t)g->doorbell_size * 1024 + 4095) & ~4095u;
	/* kfd_queue.c kfd_queue_ctx_save_restore_size(): Tonga (80002)
	 * needs an 0x8000-byte EOP buffer, every other device 4096. */
	g->eop_buffer_size = gfxv == 80002 ? 0x8000 : 4096;
	g->cwsr_vgpr_size = vgpr_size_per_cu(gfxv);
	/* kfd_queue.c kfd_get_sgpr_size_per_cu() / kfd_get_hwreg_size_per_cu():
	 * 0x8000 each on 120500 and 120501, else 0x4000 and 0x1000. */
	g->cwsr_sgpr_size = gfxv == 120500 || gfxv == 120501 ? 0x8000 : 0x4000;
	g->cwsr_hwreg_size = gfxv == 120500 || gfxv == 120501 ? 0x8000 : 0x1000;
	/* GPUVM size: gmc_v8_0.c gmc_v8_0_sw_init() amdgpu_vm_adjust_size(adev,
	 * 64, 9, 1, 40), 40 bits; gmc_v9_0.c .. gmc_v12_0.c *_sw_init() 48,
	 * except GC 12.1.0 in gmc_v12_0_sw_init(): amdgpu_vm_adjust_size(adev,
	 * 128 * 1024 * 1024, 9, 4, 57). */
	g->va_bits = gc[0] >= 9 ? 48 : 40;
	if (gc[0] == 12 && gc[1] == 1)
		g->va_bits = 57;
	return 0;
}

bool emu_gen_drops_ctx0(const struct emu_gen *g)
{
	if (g->ctx0_drop_mec_fw == NEVER)
		return false;
	return g->mec_fw >= g->ctx0_drop_mec_fw;
}

/*
 * kfd_topology.c kfd_topology_set_capabilities() (called from
 * kfd_topology_add_device() for GC >= 9.0.1 only; gfx7/8 nodes get no
 * debug bits) and kfd_topology_set_dbg_firmware_support():
 *   every GC >= 9.0.1: HSA_CAP_TRAP_DEBUG_SUPPORT,
 *     _WAVE_LAUNCH_TRAP_OVERRIDE_SUPPORTED, _WAVE_LAUNCH_MODE_SUPPORTED;
 *   GC 9.4.2 .. < 10 and GC >= 12.1: _PRECISE_MEMORY_OPERATIONS_SUPPORTED;
 *   debug_prop: watch address mask bits (kfd_topology.h
 *     HSA_DBG_WATCH_ADDR_MASK_*), low 6 and high 29 on GC 9, low 7 and
 *     high 30 on GC 9.4.3 and 9.4.4 (their own pair), low 7 and high 29
 *     on GC 10+; GC 9.5.0 gets the GC 9 pair: the kernel sources read
 *     for this name only 9.4.3 and 9.4.4 (UNVERIFIED for newer kernels);
 *   HSA_CAP_TRAP_DEBUG_FIRMWARE_SUPPORTED from the MEC firmware: GC 9.0.1
 *     >= 459 + 32768, 9.1-9.4.0 >= 459, 9.4.1 >= 60, 9.4.2 >= 51, 10.1.1/2/10
 *     >= 144, 10.3.0/1/2/4/5 >= 89, never on 10.1.3 and 10.3.3; GC 11 keys
 *     on the MES version, which the emulator does not model (taken as
 *     supported); every other GC is supported.
 * Bit values: kfd_sysfs.h.
 */
void emu_gen_debug_caps(const struct emu_gen *g, uint32_t *cap, uint32_t *debug_prop)
{
	uint32_t v = (uint32_t)g->gc[0] << 16 | (uint32_t)g->gc[1] << 8 | g->gc[2];
	uint32_t fw = g->mec_fw;
	bool fw_ok = true;

	*cap = 0;
	*debug_prop = 0;
	if (v < 0x090001)
		return;
	*cap = 0x00008000u | 0x00010000u | 0x00020000u;
	if ((v >= 0x090402 && v < 0x0a0000) || v >= 0x0c0100)
		*cap |= 0x00040000u; /* PRECISE_MEMORY_OPERATIONS */
	/* HSA_DBG_WATCH_ADDR_MASK_LO_BIT (bits 0-3), _HI_BIT (from bit 4) */
	if (v == 0x090403 || v == 0x090404)
		*debug_prop = 7u | (30u << 4);
	else
		*debug_prop = (g->gc[0] < 10 ? 6u : 7u) | (29u << 4);
	switch (v) {
	case 0x090001:
		fw_ok = fw >= 459 + 32768;
		break;
	case 0x090100:
	case 0x090201:
	case 0x090202:
	case 0x090300:
	case 0x090400:
		fw_ok = fw >= 459;
		break;
	case 0x090401:
		fw_ok = fw >= 60;
		break;
	case 0x090402:
		fw_ok = fw >= 51;
		break;
	case 0x0a010a:
	case 0x0a0102:
	case 0x0a0101:
		fw_ok = fw >= 144;
		break;
	case 0x0a0300:
	case 0x0a0302:
	case 0x0a0301:
	case 0x0a0304:
	case 0x0a0305:
		fw_ok = fw >= 89;
		break;
	case 0x0a0103:
	case 0x0a0303:
		fw_ok = false;
		break;
	default:
		break;
	}
	if (fw_ok)
		*cap |= 0x20000000u; /* HSA_CAP_TRAP_DEBUG_FIRMWARE_SUPPORTED */
}

/*
 * The capability bits every kernel sets on a GPU node, whatever the
 * debugger API version:
 *   doorbell type (HSA_CAP_DOORBELL_TYPE_TOTALBITS, bits 12-13):
 *     kfd_topology.c kfd_topology_add_device() switches on asic_type:
 *     CHIP_KAVERI, CHIP_HAWAII and CHIP_TONGA get HSA_CAP_DOORBELL_TYPE_PRE_1_0
 *     (0), CHIP_CARRIZO, FIJI, POLARIS10/11/12 and VEGAM get _1_0 (1), every
 *     GC >= 9.0.1 gets _2_0 (2) (in the default arm before the debugger
 *     API, in kfd_topology_set_capabilities() since);
 *   watch points (HSA_CAP_WATCH_POINTS_SUPPORTED 0x80 and
 *     HSA_CAP_WATCH_POINTS_TOTALBITS, bits 8-11): node_show() adds
 *     __ilog2_u32(num_of_watch_points) and kfd_device.c
 *     kfd_device_info_init() sets num_of_watch_points = 4 on every device,
 *     so TOTALBITS is 2 (ROCr reads 1 << TOTALBITS watch points);
 *   HSA_CAP_AQL_QUEUE_DOUBLE_MAP (0x4000): node_show() on CHIP_TONGA only.
 * gfx_target_version 80002 is Tonga, 80001 Carrizo, 80003 Fiji / Polaris
 * (kfd_device.c kfd_device_info_init(): the VI chips' gfx_target_version
 * is set per asic_type in kgd2kfd_probe()).
 */
uint32_t emu_gen_node_caps(const struct emu_gen *g)
{
	uint32_t doorbell = 2, cap;

	if (g->gc[0] < 9)
		doorbell = g->gfxv == 80002 ? 0 : 1;
	cap = doorbell << 12;
	cap |= 0x80u | (2u << 8);
	if (g->gfxv == 80002)
		cap |= 0x4000u;
	return cap;
}

/*
 * The GWS entries of a GPU (the topology's num_gws and what
 * ALLOC_QUEUE_GWS hands out; 0: none). kfd_device.c kfd_gws_init()
 * allocates the device's GWS under HWS (the emulator's scheduling) only
 * on SOC15 GPUs with MEC2 firmware that supports GWS barriers: GC 9.0.1
 * from 0x81b3 or any GC up to 9.4.0 from 0x1b3, 9.4.1 from 0x30, 9.4.2
 * from 0x28, 9.4.3 / 9.4.4 / 9.5.0 always, 10.3.x from 0x6b, 11.x with MES
 * scheduler 68 or later, 12.x always ("drm/amdkfd: enable cooperative
 * launch on gfx12", which sets gws_size 64). gws_size is 64 on gfx9,
 * gfx10 and gfx11 (gfx_v9_0.c, gfx_v10_0.c, gfx_v11_0.c
 * *_set_gds_init()); kfd_topology.c reports it as num_gws when the
 * device has GWS and runs HWS. GC 10.1 (Navi 1x) has none. The MEC2
 * firmware is taken as the MEC firmware the emulator reports (amdgpu
 * loads both from one image). The MES version is not modelled: GC 11 is
 * taken as without GWS (UNVERIFIED; the safe choice, as a program then
 * takes its path without cooperative launch).
 */
uint32_t emu_gen_gws_size(const struct emu_gen *g)
{
	uint32_t v = (uint32_t)g->gc[0] << 16 | (uint32_t)g->gc[1] << 8 | g->gc[2];
	uint32_t fw = g->mec_fw;
	bool has;

	if (g->gc[0] < 9)
		return 0;
	has = (v == 0x090001 && fw >= 0x81b3) || (v <= 0x090400 && fw >= 0x1b3) ||
	      (v == 0x090401 && fw >= 0x30) || (v == 0x090402 && fw >= 0x28) || v == 0x090403 ||
	      v == 0x090404 || v == 0x090500 || (v >= 0x0a0300 && v < 0x0b0000 && fw >= 0x6b) ||
	      v >= 0x0c0000;
	return has ? 64 : 0;
}

/*
 * The wave launch trap override a GPU takes, as its kfd2kgd table's
 * validate_trap_override_request() answers (kgd2kfd_probe() picks the table
 * by GC version): the traps of KFD_DBG_TRAP_MASK_* it supports, and which
 * override modes.
 *   GC 9.0-9.4.1 (kgd_gfx_v9_validate_trap_override_request(), also
 *   arcturus's), GC 10.1 and 10.3 (kgd_gfx_v10_...): DBG_ADDRESS_WATCH
 *   only, OR only (-EINVAL);
 *   GC 9.4.2 (kgd_aldebaran_...), GC 11 (kgd_gfx_v11_...): the FP and
 *   integer exceptions (0x7f), DBG_ADDRESS_WATCH, DBG_MEMORY_VIOLATION, OR
 *   or REPLACE (-EPERM); GC 11.0.4 and later add TRAP_ON_WAVE_START/_END;
 *   GC 9.4.3, 9.4.4, 9.5 (kgd_gfx_v9_4_3_...), GC 12.0 (kgd_gfx_v12_...),
 *   GC 12.1 (kgd_gfx_v12_1_...): those and TRAP_ON_WAVE_START/_END.
 * Below GC 9 there is no debugger (kfd_dbg_trap_enable() refuses the
 * process first); 0 and -EINVAL here.
 */
int emu_gen_trap_override(const struct emu_gen *g, uint32_t mode, uint32_t *supported)
{
	uint32_t v = (uint32_t)g->gc[0] << 16 | (uint32_t)g->gc[1] << 8 | g->gc[2];
	const uint32_t excp = 0x7fu | 0x80u | 0x100u, wave = 0xc0000000u;

	if (g->gc[0] < 9) {
		*supported = 0;
		return -EINVAL;
	}
	if (v <= 0x090401 || (g->gc[0] == 10)) {
		*supported &= 0x80u;
		return mode != 0 ? -EINVAL : 0; /* KFD_DBG_TRAP_OVERRIDE_OR */
	}
	if (v == 0x090402 || (g->gc[0] == 11 && v < 0x0b0004))
		*supported &= excp;
	else
		*supported &= excp | wave;
	return mode > 1 ? -EPERM : 0; /* OR 0, REPLACE 1 */
}

/*
 * GC 12 HW_ID1 of a wave of workgroup @group (emu_gen.h). The SPI places
 * workgroups only on the WGPs the queue's CU mask enables, mapped as
 * mqd_symmetrically_map_cu_mask() (kfd_mqd_manager.c) maps it from GC 10
 * on: CU pairs (one WGP), WGP outermost, then SA, then SE, so bit
 * 2 * (wgp * SAs * SEs + sa * SEs + se) enables WGP wgp of SA sa of SE se;
 * without a mask every WGP. Workgroup g gets the (g mod n)th enabled WGP
 * (one schedule of the hardware's). Fields (RDNA4 ISA manual HW_ID1,
 * kfdtest's out_data_t): WGP_ID [13:10], SA_ID [16], SE_ID [20:18]; wave
 * and SIMD ids 0. A mask enabling no WGP: 0 (on hardware no wave of the
 * queue starts; not modelled).
 */
uint32_t emu_gen_hw_id1(const uint32_t *mask, uint32_t bits, unsigned nse, unsigned nsa,
			unsigned nwgp, uint64_t group)
{
	uint64_t n = 0, k = 0;

	for (int pass = 0; pass < 2; pass++) {
		uint32_t i = 0;

		for (unsigned wgp = 0; wgp < nwgp; wgp++)
			for (unsigned sa = 0; sa < nsa; sa++)
				for (unsigned se = 0; se < nse; se++, i += 2) {
					if (mask && (i >= bits || !(mask[i / 32] >> (i % 32) & 3)))
						continue;
					if (pass && k-- == 0)
						return (uint32_t)wgp << 10 | (uint32_t)sa << 16 |
						       (uint32_t)se << 18;
					n++;
				}
		if (!n)
			return 0;
		k = group % n;
	}
	return 0;
}

/* The IV context words of an SQ interrupt from s_sendmsg (emu_gen.h). */
int emu_gen_sq_iv_context(const struct emu_gen *t, uint32_t m0, uint32_t *ctx0, uint32_t *ctx1)
{
	if (!t || !ctx0 || !ctx1)
		return set_error(EINVAL, "sq iv context: NULL argument");
	switch (t->irq) {
	case KFDSIG_IRQ_V9:
	case KFDSIG_IRQ_V9_4_3:
		/* kfd_int_process_v9.c: DATA ctx0[11:0], ENCODING ctx0[27:26],
		 * and the rest of the 24 bits in ctx0[31:28] and ctx1[7:0]. */
		*ctx0 = (m0 & 0xfff) | (1u << 26) | ((m0 & 0xf000) << 16);
		*ctx1 = (m0 >> 16) & 0xff;
		break;
	case KFDSIG_IRQ_V10:
		/* kfd_int_process_v10.c: DATA ctx0[22:0], ENCODING ctx1[7:6]. */
		*ctx0 = m0 & 0x7fffff;
		*ctx1 = 1u << 6;
		break;
	case KFDSIG_IRQ_V11:
	case KFDSIG_IRQ_V12_1:
		/* kfd_int_process_v11.c / _v12_1.c: DATA ctx0[23:0], ENCODING
		 * ctx1[7:6]. */
		*ctx0 = m0 & 0xffffff;
		*ctx1 = 1u << 6;
		break;
	default:
		/* cik_event_interrupt.c reads data & 0xff (UNVERIFIED beyond). */
		*ctx0 = m0 & 0xff;
		*ctx1 = 0;
		break;
	}
	return 0;
}
