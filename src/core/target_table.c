/* SPDX-License-Identifier: MIT */
/*
 * The generation table: the one place that maps a GPU target to the facts
 * that decide its encodings. Nothing else in kfdsig hard-codes a
 * per-generation fact; everything reads these records.
 *
 * Sources (the cite keys below name the kernel, LLVM or ROCr file read):
 *   [probe]  amdkfd kfd_device.c kgd2kfd_probe(): GC IP version ->
 *            gfx_target_version (kfd_device.c kgd2kfd_probe(), kfd_topology.c)
 *   [class]  amdkfd kfd_device.c kfd_device_info_set_event_interrupt_class()
 *            (kfd_device.c kfd_device_info_set_event_interrupt_class())
 *   [bits]   cik_event_interrupt.c, kfd_int_process_v9/v10/v11.c: the
 *            valid_id_bits passed to kfd_signal_event_interrupt()
 *   [ctx0]   kfd_int_process_v9.c context_id_expected()
 *   [bit24]  kfd_int_process_v11.c ISR, AMDGPU_FENCE_MES_QUEUE_FLAG (1.7)
 *   [fence]  gfx_v8_0.c / gfx_v9_0.c / gfx_v9_4_3.c / gfx_v10_0.c /
 *            gfx_v11_0.c / gfx_v12_0.c *_ring_emit_fence (gfx_v8_0.c gfx_v8_0_ring_emit_fence_compute(), kfd_pm4_headers_vi.h; soc15d.h, kfd_pm4_headers_ai.h, gfx_v9_0.c gfx_v9_0_ring_emit_fence(); nvd.h, gfx_v10_0.c / gfx_v11_0.c / gfx_v12_0.c *_ring_emit_fence())
 *   [sdma]   amdgpu_discovery.c amdgpu_discovery_set_sdma_ip_blocks(),
 *            vi.c (amdgpu_discovery.c amdgpu_discovery_set_sdma_ip_blocks(), vi.c); header forms from *_sdma_pkt_open.h
 *   [db]     kfd_device.c kfd_device_info_init(): doorbell_size 8 on SOC15,
 *            4 on CIK/VI; process slice = roundup(size * 1024, PAGE) (7.3)
 *   [eop]    kfd_queue.c: eop_buffer_size 0x8000 on Tonga, 4096 otherwise
 *            (kfd_chardev.c kfd_ioctl_create_queue(), kfd_queue.c)
 *   [cwsr]   kfd_queue.c kfd_get_vgpr_size_per_cu(): 0x80000 on gfx908/90a/
 *            942/950, 0x60000 on gfx1100/1101/1200/1201, else 0x40000 (7.2)
 *   [min64]  ROCr amd_blit_sdma.cpp: 64-dword minimum SDMA submission on
 *            ISA 9.0.0-9.0.4 and 9.0.12 (*_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp)
 *   [va]     GPU virtual address bits: gmc_v8_0.c gmc_v8_0_sw_init()
 *            amdgpu_vm_adjust_size(adev, 64, 9, 1, 40) ("Max GPUVM size ... is
 *            40 bits"); gmc_v9_0.c / gmc_v10_0.c / gmc_v11_0.c / gmc_v12_0.c
 *            *_sw_init() amdgpu_vm_adjust_size(..., 48)
 *   [rsrc3]  COMPUTE_PGM_RSRC3: register 0x2e2d on gfx90a/gfx94x (ROCR-Runtime
 *            kfdtest Dispatch.cpp, set for FAMILY_AL/FAMILY_AV only);
 *            0x2e28 on gfx10+ (Mesa sid.h R_00B8A0_COMPUTE_PGM_RSRC3, set
 *            from GFX10 on; gc_10_1_0_offset.h 0x1bc8 + GC base 0x1260);
 *            0x2e23 on GC 12.1 (gc_12_1_0_offset.h regCOMPUTE_PGM_RSRC3
 *            0x1bc3, same GC base: its 0x1bc8 is COMPUTE_RESTART_CG_TG_ID);
 *            none before. SET_SH_REG offsets are register - 0x2c00.
 *   [gc121]  GC 12.1 (docs/gc12_1.md): kfd_device.c kgd2kfd_probe() maps
 *            IP_VERSION(12, 1, 0) to 120500 (gfx1250) and
 *            kfd_device_info_set_event_interrupt_class() to
 *            event_interrupt_class_v12_1; kfd_int_process_v12_1.c
 *            event_interrupt_wq_v12_1(): CP EOP context_id0 32 bits, SDMA
 *            TRAP & 0xfffffff 28, SQ & 0xffffff 24; its ISR drops an EOP
 *            with AMDGPU_FENCE_MES_QUEUE_FLAG (bit 24) and has no ctx-0
 *            filter; gfx_v12_1.c gfx_v12_1_ring_emit_fence() with the
 *            gfx_v12_1_pkt.h RELEASE_MEM fields; SDMA 7.1.0
 *            (amdgpu_discovery.c, sdma_v7_1.c, v6-form FENCE header in
 *            sdma_v7_1_0_pkt_open.h); kfd_queue.c
 *            kfd_get_vgpr_size_per_cu() 0x80000, kfd_get_sgpr_size_per_cu()
 *            and kfd_get_hwreg_size_per_cu() 0x8000 for 120500; gmc_v12_0.c
 *            gmc_v12_0_sw_init() amdgpu_vm_adjust_size(..., 57) for GC
 *            12.1.0. The ISA is gfx12's (LLVM 22 assembles the gfx12 stub
 *            for gfx1250 to the same instructions), so the family is gfx12.
 *   [xcc]    XCCs per node: amdgpu aqua_vanjaram.c
 *            __aqua_vanjaram_get_xcc_per_xcp() (SPX: every XCC of the
 *            device in one partition); MI300X / MI325X / MI350X have 8
 *            XCCs, MI300A 6 (AMD CDNA 3 / CDNA 4 white papers), so 8 is the
 *            most one node spans. kfd_mqd_manager_v9.c init_mqd_v9_4_3()
 *            installs a PM4 queue's ring in the MQD of every XCC of the
 *            node (docs/multi-xcc.md). GC 12.1 (gfx1250) the same way:
 *            kfd_mqd_manager_v12_1.c init_mqd_v12_1() gives a PM4 queue an
 *            MQD per XCC (logical XCC 0, TG chunk 0, pm4_target_xcc), and
 *            gfx_v12_1_pkt.h ("drm/amdgpu: update cp cmd pkt for gfx v12_1
 *            v2", amd-gfx 2026-04-14) defines PACKET3_PRED_EXEC 0x23 with
 *            EXEC_COUNT [13:0] and VIRTUALXCCID_SELECT [31:24], GC 9.4.3's
 *            form. Its XCC count comes from IP discovery (no product table
 *            in the kernel); soc_v1_0.c puts 4 XCCs on an AID and
 *            kfd_device.c kfd_setup_interrupt_bitmap() serves XCCs 0-7 on
 *            IP_VERSION(12, 1, 0), so 8 is the most one node spans.
 *   [userq]  amdgpu user-mode queues. FENCE_WAIT_MULTI entries per packet:
 *            Mesa amdgpu_cs.cpp amdgpu_cs_add_userq_packets() splits a
 *            submission's waits into packets of 32 on a dGPU (dedicated
 *            VRAM) or GFX12 and of 4 otherwise (the gfx11 APUs); IGT
 *            tests/amdgpu amdgpu_fwm_test() uses 4 on FAMILY_GFX1150 and
 *            32 elsewhere. GFX/compute user queues: gfx_v11_0.c
 *            gfx_v11_0_sw_init() installs userq_mes_funcs for GC 11.0.0,
 *            11.0.2 and 11.0.3 from ME 2390, PFP 2530, MEC 2600 and MES
 *            120 firmware, and leaves GC 11.0.1 / 11.0.4 / 11.5.x
 *            disabled ("add firmware version checks here", if (0 && ...));
 *            gfx_v12_0.c gfx_v12_0_sw_init() for GC 12.0.x from ME 2780,
 *            PFP 2840, MEC 3050 and MES 123. SDMA user queues:
 *            sdma_v6_0.c sdma_v6_0_sw_init() from firmware 27 (6.0.0,
 *            6.0.3) and 23 (6.0.2), none on 6.0.1 / 6.1.x (commit
 *            2d41a4bfee6e, "PROTECTED_FENCE_SIGNAL commands causing
 *            register conflicts between MCU_DBG0 and MCU_DBG1", which
 *            unified the SDMA 6 protected-fence sub-op with SDMA 7's);
 *            sdma_v7_0.c sdma_v7_0_sw_init() from 7966358 (7.0.0, 7.0.1).
 *            GC 12.1 (gfx1250): no userq installation seen in the
 *            sources read, so no user-queue packets (UNVERIFIED; the
 *            emitters refuse it, the safe side).
 *   [gc117]  GC 11.7 (gfx1170, gfx1171): amd-gfx "[PATCH v2 1/5] drm/amdgpu:
 *            add support for GC IP version 11.7.0" (2026-06-30) and "[PATCH
 *            2/4] drm/amdgpu: add support for GC IP version 11.7.1"
 *            (2026-06-26): amdgpu_discovery.c adds both to the soc21 common,
 *            gmc_v11_0, gfx_v11_0 and mes_v11_0 blocks and sets AMD_IS_APU;
 *            kfd_device.c kgd2kfd_probe() maps them to 110700 / 110701 with
 *            gfx_v11_kfd2kgd, and kfd_device_info_set_event_interrupt_class()
 *            to event_interrupt_class_v11 (so the v11 id widths [bits] and
 *            the bit-24 drop [bit24]). A later patch of that series moves
 *            both to AMDGPU_FAMILY_GC_11_5_4 (adev->family only). Neither
 *            patch touches kfd_queue.c, so kfd_get_vgpr_size_per_cu()
 *            answers its default 0x40000. SDMA: an amd-gfx patch of
 *            2026-05-28 (Pratik Vishwakarma) that initializes SDMA IP
 *            6.4.0 drives it with sdma_v6_0.c and lists it in
 *            kfd_device_info_set_sdma_info(); that GC 11.7 carries SDMA
 *            6.4.0 is UNVERIFIED (no discovery table read): any SDMA 6.x
 *            takes the v6 FENCE header, so the packet form does not depend
 *            on it. No gfx_v11_0_sw_init() userq installation for GC 11.7
 *            in the patches: no GFX/SDMA user queues; FENCE_WAIT_MULTI
 *            entries 4 as on the other GC 11.5 APUs (Mesa splits by 4 off a
 *            dGPU; UNVERIFIED for 11.7, the smaller limit is the safe one).
 *            ISA: LLVM main's TargetParser has GK_GFX1170 / GK_GFX1171
 *            (ELF EF_AMDGPU_MACH_AMDGCN_GFX1170 0x5d, _GFX1171 0x5e); LLVM
 *            22's llc rejects -mcpu=gfx1170 ("not a recognized processor"),
 *            so the first release that accepts them is taken as 23.
 *   [llvm]   Targets LLVM no longer accepts: gfx940 and gfx941 left LLVM's
 *            processor list in February 2025 (llvm-project PRs 126762
 *            "clang", 126887 "docs" and the series they belong to, "gfx940
 *            and gfx941 are no longer supported"), after the release/20.x
 *            branch, so LLVM 21 is the first release without them. Checked
 *            with LLVM 22: `llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx940`
 *            (and gfx941) answers "'gfx940' is not a recognized processor";
 *            every other name of this table is accepted.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "core/internal.h"

/*
 * Per-family defaults. A target record is its family default plus what is
 * its own (name, versions, IP versions, ctx-0 firmware threshold, APU).
 */

/* gfx8: cik handler [class]; CP EOP 28, SDMA 28, SQ 8 bits [bits];
 * RELEASE_MEM has 7 dwords and no INT_CTXID [fence]; 4-byte doorbells and
 * 32-bit wrapped write pointers [db]; no ctx-0 filter in the CIK ISR. */
#define GFX8_DEFAULTS                                                                         \
	.level = KFDSIG_GFX8, .family = KFDSIG_FAMILY_GFX8, .irq_class = KFDSIG_IRQ_CIK,      \
	.cp_eop_id_bits = 28, .sdma_trap_id_bits = 28, .sq_msg_id_bits = 8,                   \
	.pm4_fence = KFDSIG_PM4_FENCE_VI, .sdma_fence_hdr = KFDSIG_SDMA_HDR_PLAIN,            \
	.doorbell_size = 4, .wptr_bits = 32, .doorbell_slice = 4096, .eop_buffer_size = 4096, \
	.ctx0_drop_mec_fw = KFDSIG_CTX0_NEVER_DROPPED, .drops_ctxid_bit24 = false,            \
	.cwsr_vgpr_size = 0x40000 /* [cwsr] */, .va_bits = 40 /* [va] */, .max_xcc = 1

/* gfx9: v9 handler [class]; CP EOP 32 (INT_CTXID), SDMA 28, SQ 24 bits
 * [bits]; RELEASE_MEM 8 dwords with TC bits [fence]; SDMA 4.x plain FENCE
 * header [sdma]; 8-byte doorbells, 64-bit monotonic pointers [db]. */
#define GFX9_DEFAULTS                                                                         \
	.level = KFDSIG_GFX9, .family = KFDSIG_FAMILY_GFX9, .irq_class = KFDSIG_IRQ_V9,       \
	.cp_eop_id_bits = 32, .sdma_trap_id_bits = 28, .sq_msg_id_bits = 24,                  \
	.pm4_fence = KFDSIG_PM4_FENCE_AI, .sdma_fence_hdr = KFDSIG_SDMA_HDR_PLAIN,            \
	.doorbell_size = 8, .wptr_bits = 64, .doorbell_slice = 8192, .eop_buffer_size = 4096, \
	.drops_ctxid_bit24 = false, .cwsr_vgpr_size = 0x40000 /* [cwsr] */,                   \
	.va_bits = 48 /* [va] */, .max_xcc = 1

/* gfx94x / gfx950: v9_4_3 handler (same bits as v9, node filter) [class];
 * context id 0 always dropped, GC >= 9.4.1 [ctx0]. */
#define GFX94X_DEFAULTS                                                                    \
	GFX9_DEFAULTS, .family = KFDSIG_FAMILY_GFX94X, .irq_class = KFDSIG_IRQ_V9_4_3,     \
		       .ctx0_drop_mec_fw = 0, .sh_compute_pgm_rsrc3 = 0x22d /* [rsrc3] */, \
		       .max_xcc = 8 /* [xcc] */

/* gfx10.x: v10 handler, SQ carries 23 bits, no ctx-0 filter [class][bits];
 * RELEASE_MEM with GCR bits [fence]; SDMA 5.x FENCE with MTYPE [sdma]. */
#define GFX10_DEFAULTS                                                                        \
	.level = KFDSIG_GFX10, .family = KFDSIG_FAMILY_GFX10_1, .irq_class = KFDSIG_IRQ_V10,  \
	.cp_eop_id_bits = 32, .sdma_trap_id_bits = 28, .sq_msg_id_bits = 23,                  \
	.pm4_fence = KFDSIG_PM4_FENCE_NV, .sdma_fence_hdr = KFDSIG_SDMA_HDR_NV,               \
	.doorbell_size = 8, .wptr_bits = 64, .doorbell_slice = 8192, .eop_buffer_size = 4096, \
	.ctx0_drop_mec_fw = KFDSIG_CTX0_NEVER_DROPPED, .drops_ctxid_bit24 = false,            \
	.sh_compute_pgm_rsrc3 = 0x228 /* [rsrc3] */, .cwsr_vgpr_size = 0x40000 /* [cwsr] */,  \
	.va_bits = 48 /* [va] */, .max_xcc = 1

#define GFX10_3_DEFAULTS GFX10_DEFAULTS, .level = KFDSIG_GFX10_3, .family = KFDSIG_FAMILY_GFX10_3

/* gfx11 and gfx12.0: v11 handler (gfx12.0 keeps it, "GFX12_TODO") [class];
 * SQ 24 bits [bits]; EOP context ids with bit 24 set are dropped [bit24];
 * SDMA 6.x/7.0 use the v6 packet header [sdma]. */
#define GFX11_DEFAULTS                                                                        \
	.level = KFDSIG_GFX11, .family = KFDSIG_FAMILY_GFX11, .irq_class = KFDSIG_IRQ_V11,    \
	.cp_eop_id_bits = 32, .sdma_trap_id_bits = 28, .sq_msg_id_bits = 24,                  \
	.pm4_fence = KFDSIG_PM4_FENCE_NV, .sdma_fence_hdr = KFDSIG_SDMA_HDR_V6,               \
	.doorbell_size = 8, .wptr_bits = 64, .doorbell_slice = 8192, .eop_buffer_size = 4096, \
	.ctx0_drop_mec_fw = KFDSIG_CTX0_NEVER_DROPPED, .drops_ctxid_bit24 = true,             \
	.sh_compute_pgm_rsrc3 = 0x228 /* [rsrc3] */, .cwsr_vgpr_size = 0x40000 /* [cwsr] */,  \
	.va_bits = 48 /* [va] */, .max_xcc = 1

#define GFX12_DEFAULTS GFX11_DEFAULTS, .level = KFDSIG_GFX12, .family = KFDSIG_FAMILY_GFX12

/* GC 12.1: gfx12 ISA, its own interrupt class and RELEASE_MEM form [gc121].
 * UNVERIFIED: AMDGPUUsage lists gfx1250 as an APU; the KFD device is a
 * data-centre part, apu stays false (it only sizes emulated memory). */
#define GC12_1_DEFAULTS                                                                      \
	GFX12_DEFAULTS, .irq_class = KFDSIG_IRQ_V12_1, .pm4_fence = KFDSIG_PM4_FENCE_GC12_1, \
			.cwsr_vgpr_size = 0x80000, .cwsr_sgpr_size = 0x8000,                 \
			.cwsr_hwreg_size = 0x8000, .va_bits = 57,                            \
			.sh_compute_pgm_rsrc3 = 0x223 /* [rsrc3] */

#define IP(a, b, c)     \
	{               \
		a, b, c \
	}

/* Sorted by gfx_target_version; kfdsig_target_at() relies on it. */
static const struct kfdsig_target targets[] = {
	/* gfx8 [probe]; SDMA 3.x for every KFD-supported gfx8 chip [sdma]
	 * (Polaris is 3.1 in vi.c, same packets). */
	{ GFX8_DEFAULTS, .name = "gfx801", .product = "Carrizo", .gfx_target_version = 80001,
	  .gc_ip = IP(8, 0, 1), .sdma_ip = IP(3, 0, 0), .apu = true },
	/* Tonga needs an 0x8000-byte EOP buffer [eop]. */
	{ GFX8_DEFAULTS, .name = "gfx802", .product = "Tonga", .gfx_target_version = 80002,
	  .gc_ip = IP(8, 0, 2), .sdma_ip = IP(3, 0, 0), .eop_buffer_size = 0x8000 },
	{ GFX8_DEFAULTS, .name = "gfx803", .product = "Fiji, Polaris10/11/12, VegaM",
	  .gfx_target_version = 80003, .gc_ip = IP(8, 0, 3), .sdma_ip = IP(3, 0, 0) },

	/* gfx9 [probe]. ctx-0 drop thresholds [ctx0]: GC 9.0.1 from MEC
	 * 0x817a; 9.1.0/9.2.1/9.2.2/9.3.0/9.4.0 from 0x17a; >= 9.4.1 always.
	 * 64-dword SDMA minimum on gfx900-gfx904 and gfx90c [min64]. */
	{ GFX9_DEFAULTS, .name = "gfx900", .product = "Vega10", .gfx_target_version = 90000,
	  .gc_ip = IP(9, 0, 1), .sdma_ip = IP(4, 0, 0), .ctx0_drop_mec_fw = 0x817a,
	  .sdma_min_submit_dw = 64 },
	{ GFX9_DEFAULTS, .name = "gfx902", .product = "Raven", .gfx_target_version = 90002,
	  .gc_ip = IP(9, 1, 0), .sdma_ip = IP(4, 1, 0), .ctx0_drop_mec_fw = 0x17a,
	  .sdma_min_submit_dw = 64, .apu = true },
	{ GFX9_DEFAULTS, .name = "gfx904", .product = "Vega12", .gfx_target_version = 90004,
	  .gc_ip = IP(9, 2, 1), .sdma_ip = IP(4, 0, 1), .ctx0_drop_mec_fw = 0x17a,
	  .sdma_min_submit_dw = 64 },
	{ GFX9_DEFAULTS, .name = "gfx906", .product = "Vega20 (MI50/MI60)",
	  .gfx_target_version = 90006, .gc_ip = IP(9, 4, 0), .sdma_ip = IP(4, 2, 0),
	  .ctx0_drop_mec_fw = 0x17a },
	{ GFX9_DEFAULTS, .cwsr_vgpr_size = 0x80000 /* [cwsr] */, .name = "gfx908",
	  .product = "Arcturus (MI100)", .gfx_target_version = 90008, .gc_ip = IP(9, 4, 1),
	  .sdma_ip = IP(4, 2, 2), .ctx0_drop_mec_fw = 0 },
	{ GFX9_DEFAULTS, .name = "gfx909", .product = "Raven2", .gfx_target_version = 90009,
	  .gc_ip = IP(9, 2, 2), .sdma_ip = IP(4, 1, 1), .ctx0_drop_mec_fw = 0x17a, .apu = true },
	/* Aldebaran: SDMA 4.4.0 driven by sdma_v4_0.c [sdma]. */
	{ GFX9_DEFAULTS, .cwsr_vgpr_size = 0x80000 /* [cwsr] */, .name = "gfx90a",
	  .product = "Aldebaran (MI200)", .family = KFDSIG_FAMILY_GFX90A,
	  .gfx_target_version = 90010, .gc_ip = IP(9, 4, 2), .sdma_ip = IP(4, 4, 0),
	  .ctx0_drop_mec_fw = 0, .sh_compute_pgm_rsrc3 = 0x22d },
	{ GFX9_DEFAULTS, .name = "gfx90c", .product = "Renoir", .gfx_target_version = 90012,
	  .gc_ip = IP(9, 3, 0), .sdma_ip = IP(4, 1, 2), .ctx0_drop_mec_fw = 0x17a,
	  .sdma_min_submit_dw = 64, .apu = true },
	/* GC 9.4.3 / 9.5.0: v9_4_3 class, SDMA 4.4.2 / 4.4.5 [class][sdma]. */
	{ GFX94X_DEFAULTS, .name = "gfx940", .product = "MI300 (early, APU)",
	  .gfx_target_version = 90400, .gc_ip = IP(9, 4, 3), .sdma_ip = IP(4, 4, 2), .apu = true,
	  .llvm_removed_in = 21 /* [llvm] */ },
	{ GFX94X_DEFAULTS, .name = "gfx941", .product = "MI300X (early)",
	  .gfx_target_version = 90401, .gc_ip = IP(9, 4, 3), .sdma_ip = IP(4, 4, 2),
	  .llvm_removed_in = 21 /* [llvm] */ },
	{ GFX94X_DEFAULTS, .cwsr_vgpr_size = 0x80000 /* [cwsr] */, .name = "gfx942",
	  .product = "MI300X, MI300A, MI325X", .gfx_target_version = 90402, .gc_ip = IP(9, 4, 3),
	  .sdma_ip = IP(4, 4, 2) },
	{ GFX94X_DEFAULTS, .cwsr_vgpr_size = 0x80000 /* [cwsr] */, .name = "gfx950",
	  .product = "MI350X, MI355X", .gfx_target_version = 90500, .gc_ip = IP(9, 5, 0),
	  .sdma_ip = IP(4, 4, 5) },

	/* gfx10.1 [probe], SDMA 5.0.x [sdma]. */
	{ GFX10_DEFAULTS, .name = "gfx1010", .product = "Navi10", .gfx_target_version = 100100,
	  .gc_ip = IP(10, 1, 0), .sdma_ip = IP(5, 0, 0) },
	{ GFX10_DEFAULTS, .name = "gfx1011", .product = "Navi12", .gfx_target_version = 100101,
	  .gc_ip = IP(10, 1, 2), .sdma_ip = IP(5, 0, 2) },
	{ GFX10_DEFAULTS, .name = "gfx1012", .product = "Navi14", .gfx_target_version = 100102,
	  .gc_ip = IP(10, 1, 1), .sdma_ip = IP(5, 0, 5) },

	/* gfx10.3 [probe], SDMA 5.2.x [sdma]. */
	{ GFX10_3_DEFAULTS, .name = "gfx1030", .product = "Navi21 (Sienna Cichlid)",
	  .gfx_target_version = 100300, .gc_ip = IP(10, 3, 0), .sdma_ip = IP(5, 2, 0) },
	{ GFX10_3_DEFAULTS, .name = "gfx1031", .product = "Navi22 (Navy Flounder)",
	  .gfx_target_version = 100301, .gc_ip = IP(10, 3, 2), .sdma_ip = IP(5, 2, 2) },
	{ GFX10_3_DEFAULTS, .name = "gfx1032", .product = "Navi23 (Dimgrey Cavefish)",
	  .gfx_target_version = 100302, .gc_ip = IP(10, 3, 4), .sdma_ip = IP(5, 2, 4) },
	{ GFX10_3_DEFAULTS, .name = "gfx1033", .product = "Van Gogh", .gfx_target_version = 100303,
	  .gc_ip = IP(10, 3, 1), .sdma_ip = IP(5, 2, 1), .apu = true },
	{ GFX10_3_DEFAULTS, .name = "gfx1034", .product = "Navi24 (Beige Goby)",
	  .gfx_target_version = 100304, .gc_ip = IP(10, 3, 5), .sdma_ip = IP(5, 2, 5) },
	{ GFX10_3_DEFAULTS, .name = "gfx1035", .product = "Rembrandt (Yellow Carp)",
	  .gfx_target_version = 100305, .gc_ip = IP(10, 3, 3), .sdma_ip = IP(5, 2, 3),
	  .apu = true },
	{ GFX10_3_DEFAULTS, .name = "gfx1036", .product = "Raphael, Mendocino",
	  .gfx_target_version = 100306, .gc_ip = IP(10, 3, 6), .sdma_ip = IP(5, 2, 6),
	  .apu = true },

	/* gfx11 [probe]: GC 11.0.3 is gfx1101 and 11.0.2 is gfx1102. */
	{ GFX11_DEFAULTS, .cwsr_vgpr_size = 0x60000 /* [cwsr] */, .name = "gfx1100",
	  .product = "Navi31", .gfx_target_version = 110000, .gc_ip = IP(11, 0, 0),
	  .sdma_ip = IP(6, 0, 0), .userq_fwm_max = 32, .userq_mec_fw = 2600,
	  .sdma_userq_fw = 27 /* [userq] */ },
	{ GFX11_DEFAULTS, .cwsr_vgpr_size = 0x60000 /* [cwsr] */, .name = "gfx1101",
	  .product = "Navi32", .gfx_target_version = 110001, .gc_ip = IP(11, 0, 3),
	  .sdma_ip = IP(6, 0, 3), .userq_fwm_max = 32, .userq_mec_fw = 2600,
	  .sdma_userq_fw = 27 /* [userq] */ },
	{ GFX11_DEFAULTS, .name = "gfx1102", .product = "Navi33", .gfx_target_version = 110002,
	  .gc_ip = IP(11, 0, 2), .sdma_ip = IP(6, 0, 2), .userq_fwm_max = 32, .userq_mec_fw = 2600,
	  .sdma_userq_fw = 23 /* [userq] */ },
	{ GFX11_DEFAULTS, .name = "gfx1103", .product = "Phoenix", .gfx_target_version = 110003,
	  .gc_ip = IP(11, 0, 1), .sdma_ip = IP(6, 0, 1), .apu = true, .userq_fwm_max = 4,
	  .userq_mec_fw = 0, .sdma_userq_fw = 0 /* [userq] */ },
	{ GFX11_DEFAULTS, .name = "gfx1150", .product = "Strix Point", .gfx_target_version = 110500,
	  .gc_ip = IP(11, 5, 0), .sdma_ip = IP(6, 1, 0), .apu = true, .userq_fwm_max = 4,
	  .userq_mec_fw = 0, .sdma_userq_fw = 0 /* [userq] */ },
	/* gfx1151: 0x60000 VGPR bytes per CU since kfd_queue.c
	 * kfd_get_vgpr_size_per_cu() gained 110501 ("Bump total memory
	 * availability for acquire checks on queue creation", Cc stable). */
	{ GFX11_DEFAULTS, .cwsr_vgpr_size = 0x60000, .name = "gfx1151", .product = "Strix Halo",
	  .gfx_target_version = 110501, .gc_ip = IP(11, 5, 1), .sdma_ip = IP(6, 1, 1), .apu = true,
	  .userq_fwm_max = 4, .userq_mec_fw = 0, .sdma_userq_fw = 0 /* [userq] */ },

	/* GC 11.7 [gc117]: gfx11 interrupt path and packets; code objects
	 * need an LLVM newer than 22 (llvm_added_in). */
	{ GFX11_DEFAULTS, .name = "gfx1170", .product = "GC 11.7.0 APU",
	  .gfx_target_version = 110700, .gc_ip = IP(11, 7, 0), .sdma_ip = IP(6, 4, 0), .apu = true,
	  .userq_fwm_max = 4, .userq_mec_fw = 0, .sdma_userq_fw = 0, .llvm_added_in = 23 },
	{ GFX11_DEFAULTS, .name = "gfx1171", .product = "GC 11.7.1 APU",
	  .gfx_target_version = 110701, .gc_ip = IP(11, 7, 1), .sdma_ip = IP(6, 4, 0), .apu = true,
	  .userq_fwm_max = 4, .userq_mec_fw = 0, .sdma_userq_fw = 0, .llvm_added_in = 23 },

	/* gfx12.0 [probe]; SDMA 7.0 uses sdma_v6_0_0_pkt_open.h [sdma]. */
	{ GFX12_DEFAULTS, .cwsr_vgpr_size = 0x60000 /* [cwsr] */, .name = "gfx1200",
	  .product = "Navi44", .gfx_target_version = 120000, .gc_ip = IP(12, 0, 0),
	  .sdma_ip = IP(7, 0, 0), .userq_fwm_max = 32, .userq_mec_fw = 3050,
	  .sdma_userq_fw = 7966358 /* [userq] */ },
	{ GFX12_DEFAULTS, .cwsr_vgpr_size = 0x60000 /* [cwsr] */, .name = "gfx1201",
	  .product = "Navi48", .gfx_target_version = 120001, .gc_ip = IP(12, 0, 1),
	  .sdma_ip = IP(7, 0, 1), .userq_fwm_max = 32, .userq_mec_fw = 3050,
	  .sdma_userq_fw = 7966358 /* [userq] */ },

	/* GC 12.1.0 [gc121]. No gfx1251 row: no kgd2kfd_probe() case
	 * reports 120501 (docs/gc12_1.md). */
	{ GC12_1_DEFAULTS, .name = "gfx1250", .product = "GC 12.1 data-centre (multi-XCC)",
	  .gfx_target_version = 120500, .gc_ip = IP(12, 1, 0), .sdma_ip = IP(7, 1, 0),
	  .max_xcc = 8 /* [xcc], GC 12.1 */ },
};

#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

size_t kfdsig_target_count(void)
{
	return NTARGETS;
}

const struct kfdsig_target *kfdsig_target_at(size_t i)
{
	if (i >= NTARGETS) {
		set_error(ERANGE, "target index %zu out of range (%zu targets)", i, NTARGETS);
		errno = ERANGE;
		return NULL;
	}
	return &targets[i];
}

const struct kfdsig_target *kfdsig_target_by_name(const char *name)
{
	char buf[16];
	size_t n;

	if (!name || !*name) {
		set_error(EINVAL, "empty target name");
		errno = EINVAL;
		return NULL;
	}
	/* "gfx90a:xnack-" names the same processor as "gfx90a". */
	n = strcspn(name, ":");
	if (n < sizeof(buf)) {
		for (size_t i = 0; i < n; i++)
			buf[i] = (char)tolower((unsigned char)name[i]);
		buf[n] = '\0';
		for (size_t i = 0; i < NTARGETS; i++)
			if (!strcmp(targets[i].name, buf))
				return &targets[i];
	}
	set_error(ENOENT, "unknown target '%.32s' (kfdsig targets lists the known ones)", name);
	errno = ENOENT;
	return NULL;
}

const struct kfdsig_target *kfdsig_target_by_version(uint32_t v)
{
	for (size_t i = 0; i < NTARGETS; i++)
		if (targets[i].gfx_target_version == v)
			return &targets[i];
	set_error(ENOENT, "no target has gfx_target_version %u", v);
	errno = ENOENT;
	return NULL;
}

bool kfdsig_target_drops_ctx0(const struct kfdsig_target *t, uint32_t mec_fw)
{
	if (!t || t->ctx0_drop_mec_fw == KFDSIG_CTX0_NEVER_DROPPED)
		return false;
	return mec_fw >= t->ctx0_drop_mec_fw;
}

const char *kfdsig_family_name(enum kfdsig_family f)
{
	static const char *const names[KFDSIG_FAMILY_COUNT] = {
		[KFDSIG_FAMILY_GFX8] = "gfx8",	     [KFDSIG_FAMILY_GFX9] = "gfx9",
		[KFDSIG_FAMILY_GFX90A] = "gfx90a",   [KFDSIG_FAMILY_GFX94X] = "gfx94x",
		[KFDSIG_FAMILY_GFX10_1] = "gfx10.1", [KFDSIG_FAMILY_GFX10_3] = "gfx10.3",
		[KFDSIG_FAMILY_GFX11] = "gfx11",     [KFDSIG_FAMILY_GFX12] = "gfx12",
	};
	return (unsigned)f < KFDSIG_FAMILY_COUNT ? names[f] : "?";
}

const char *kfdsig_irq_class_name(enum kfdsig_irq_class c)
{
	static const char *const names[] = { "cik", "v9", "v9_4_3", "v10", "v11", "v12_1" };
	return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

const char *kfdsig_pm4_fence_form_name(enum kfdsig_pm4_fence_form f)
{
	static const char *const names[] = { "vi-7dw", "ai-8dw", "nv-gcr-8dw", "gc12.1-8dw" };
	return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

const char *kfdsig_sdma_fence_hdr_name(enum kfdsig_sdma_fence_hdr h)
{
	static const char *const names[] = { "plain", "nv-mtype", "v6-mtype" };
	return (unsigned)h < sizeof(names) / sizeof(names[0]) ? names[h] : "?";
}
