// SPDX-License-Identifier: MIT
// kfdsig signal stub, family gfx12 (gfx1200, gfx1201, gfx1250). Assembled with LLVM
// 22 llvm-mc + ld.lld; see README.md and docs/shader-stubs.md. Wave32.
//
// One wave stores the 64-bit value 1 into signal_page[event_id], makes the
// store visible at system scope, puts the full event id in m0 and raises
// s_sendmsg(MSG_INTERRUPT), which KFD decodes as SQ_INTERRUPT_MSG.
// Sources: LLVM AMDGPUUsage "Memory Model" (SIMemoryLegalizer.cpp) for the
// release, SIDefines.h SendMsg for the message, the kernel handler for m0.
// The metadata names its processor KFDSIG_PROCESSOR: gen_stubs.cmake puts the
// -mcpu there before assembling, giving the amdhsa.target LLVM 22 emits.
//   store    system-scope store: scope:SCOPE_SYS
//   release  SIGfx12CacheControl::insertRelease, system scope on GFX12.0:
//            global_wb scope:SCOPE_SYS, then s_wait_storecnt 0x0 [LLVM
//            SIMemoryLegalizer.cpp]. The "extra waits before system-scope
//            stores" have nothing to wait for here: the only earlier memory
//            access is the kernel-argument load, already waited for.
//   m0       whether gfx12 still needs a wait state between an m0 write and
//            s_sendmsg is UNVERIFIED: the stub keeps the s_nop 0
//   bits     m0[23:0] reach KFD (gfx12.0 uses the v11 handler, gfx1250
//            the v12_1 one: kfd_int_process_v12_1.c context_id0 & 0xffffff)
//   gfx1250  GC 12.1: llc -mcpu=gfx1250 (LLVM 22) emits this same release
//            (global_wb scope:SCOPE_SYS, s_wait_storecnt 0x0) for a
//            system-scope release fence, and llvm-mc encodes every
//            instruction here as for gfx1201
//   mode     llc for gfx1250 starts every kernel with s_setreg_imm32_b32
//            hwreg(HW_REG_WAVE_MODE, 25, 1), 1: LLVM PR 169016 "[AMDGPU]
//            Enable multi-group xnack replay in hardware (GFX1250)" sets the
//            MODE bit that makes the hardware replay several groups of
//            XNACK-retried memory instructions, matching the s_wait_xcnt the
//            compiler inserts for that mode. The stub does without: no
//            instruction overwrites a source of a memory instruction still
//            in flight (s[0:1] stays, v[0:3] are written before the store and
//            not after), so a replay in either mode re-runs it with the same
//            operands; and the family shares one code object (gen_stubs.cmake)
//            whose gfx12.0 form must not set a gfx1250 MODE bit
//   sendmsg  s_sendmsg is counted by KM_CNT (UNVERIFIED: no LLVM or
//            kernel source says)
//            the stub waits for it before s_endpgm, as kfdtest's trap
//            handler waits lgkmcnt(0) after its s_sendmsg: harmless if not needed

	.amdhsa_code_object_version 5
	.text

// Code-object form: kernel arguments {u64 slot_va; u32 event_id} at s[0:1].
	.globl	kfdsig_signal
	.p2align 8
	.type	kfdsig_signal,@function
kfdsig_signal:
	s_load_b64 s[2:3], s[0:1], 0x0	// slot address
	s_load_b32 s4, s[0:1], 0x8		// event id
	v_mov_b32 v0, 1				// value: 64-bit 1
	v_mov_b32 v1, 0
	s_wait_kmcnt 0x0
	v_mov_b32 v2, s2
	v_mov_b32 v3, s3
	global_store_b64 v[2:3], v[0:1], off scope:SCOPE_SYS
	global_wb scope:SCOPE_SYS
	s_wait_storecnt 0x0			// release: writeback complete
	s_mov_b32 m0, s4			// the full id, never id & 0xff
	s_nop 0					// m0 -> s_sendmsg hazard
	s_sendmsg sendmsg(MSG_INTERRUPT)
	s_wait_kmcnt 0x0			// message sent (see header)
	s_endpgm
.Lsignal_end:
	.size	kfdsig_signal, .Lsignal_end-kfdsig_signal

// Trap stub (KFDSIG_SHADER_TRAP): s_trap 3 = llvm.debugtrap (LLVM AMDGPUUsage
// "Trap Handler ABI"), which ROCr's trap handler reports to a debugger as
// EC_QUEUE_WAVE_TRAP: docs/shader-stubs.md "The trap stub" has the sources.
	.globl	kfdsig_trap
	.p2align 8
	.type	kfdsig_trap,@function
kfdsig_trap:
	s_trap 3				// llvm.debugtrap
	s_endpgm
.Ltrap_end:
	.size	kfdsig_trap, .Ltrap_end-kfdsig_trap
// s_code_end padding as after the raw stub (instruction prefetch)
	.rept 48
	s_code_end
	.endr

// Raw form: the slot address and event id are literal constants; the
// label after each instruction marks the end of its 4-byte literal.
	.globl	kfdsig_signal_raw
	.p2align 8
	.type	kfdsig_signal_raw,@function
kfdsig_signal_raw:
	v_mov_b32 v0, 1
	v_mov_b32 v1, 0
	v_mov_b32 v2, 0x12345678
kfdsig_patch_slot_lo:
	v_mov_b32 v3, 0x9abc
kfdsig_patch_slot_hi:
	global_store_b64 v[2:3], v[0:1], off scope:SCOPE_SYS
	global_wb scope:SCOPE_SYS
	s_wait_storecnt 0x0
	s_mov_b32 m0, 0xfff
kfdsig_patch_event_id:
	s_nop 0
	s_sendmsg sendmsg(MSG_INTERRUPT)
	s_wait_kmcnt 0x0			// message sent (see header)
	s_endpgm
.Lraw_end:
	.size	kfdsig_signal_raw, .Lraw_end-kfdsig_signal_raw
// Instruction prefetch reads past s_endpgm on gfx10 and later: end the
// code with 192 bytes (three 64-byte lines) of s_code_end, as LLVM
// codegen does. The raw blob includes them.
	.rept 48
	s_code_end
	.endr

	.rodata
	.p2align 6
	.amdhsa_kernel kfdsig_signal
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_system_sgpr_workgroup_id_x 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 5
		.amdhsa_reserve_vcc 0
		.amdhsa_wavefront_size32 1
	.end_amdhsa_kernel

	.p2align 6
	.amdhsa_kernel kfdsig_signal_raw
		.amdhsa_kernarg_size 0
		.amdhsa_system_sgpr_workgroup_id_x 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 1
		.amdhsa_reserve_vcc 0
		.amdhsa_wavefront_size32 1
	.end_amdhsa_kernel

	.p2align 6
	.amdhsa_kernel kfdsig_trap
		.amdhsa_kernarg_size 0
		.amdhsa_system_sgpr_workgroup_id_x 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 1
		.amdhsa_reserve_vcc 0
		.amdhsa_wavefront_size32 1
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--KFDSIG_PROCESSOR
amdhsa.kernels:
  - .name: kfdsig_signal
    .symbol: kfdsig_signal.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 5
    .vgpr_count: 4
    .max_flat_workgroup_size: 32
    .args:
      - { .name: slot_va, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: event_id, .offset: 8, .size: 4, .value_kind: by_value }
  - .name: kfdsig_signal_raw
    .symbol: kfdsig_signal_raw.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 1
    .vgpr_count: 4
    .max_flat_workgroup_size: 32
  - .name: kfdsig_trap
    .symbol: kfdsig_trap.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 1
    .vgpr_count: 4
    .max_flat_workgroup_size: 32
...
	.end_amdgpu_metadata
