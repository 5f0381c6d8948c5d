// SPDX-License-Identifier: MIT
// kfdsig signal stub, family gfx8 (gfx801, gfx802, gfx803). Assembled with
// LLVM 22 llvm-mc + ld.lld; see README.md and docs/shader-stubs.md.
//
// One wave stores the 64-bit value 1 into signal_page[event_id], makes the
// store visible at system scope, puts the full event id in m0 and raises
// s_sendmsg(MSG_INTERRUPT), which KFD decodes as SQ_INTERRUPT_MSG.
// Sources: LLVM AMDGPUUsage "Memory Model" (SIMemoryLegalizer.cpp) for the
// release, SIDefines.h SendMsg for the message, the kernel handler for m0.
// The metadata names its processor KFDSIG_PROCESSOR: gen_stubs.cmake puts the
// -mcpu there before assembling, giving the amdhsa.target LLVM 22 emits.
//   store    gfx8 has no global_* instructions: flat_store_dwordx2
//   release  SIGfx6/Gfx7 insertRelease is waits only [LLVM
//            SIMemoryLegalizer.cpp]. A flat store counts on both vmcnt and
//            lgkmcnt, so wait for both (codegen waits vmcnt alone when it
//            knows the flat address is global: both is the safe choice).
//   m0       GFX6-9 hazard: one wait state between an SALU m0 write and
//            s_sendmsg [MESA aco_insert_NOPs.cpp] -> s_nop 0
//   bits     only m0[7:0] reach KFD (cik_event_interrupt.c, data & 0xff): its
//            partial-id walk (kfd_events.c lookup_signaled_event_by_partial_id)
//            wakes the first signalled event with the same low byte, so a wider
//            id wakes only while no lower id with its low byte is signalled
//   sendmsg  s_sendmsg is counted by LGKM_CNT (UNVERIFIED: no LLVM or
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
	s_load_dwordx2 s[2:3], s[0:1], 0x0	// slot address
	s_load_dword s4, s[0:1], 0x8		// event id
	v_mov_b32 v0, 1				// value: 64-bit 1
	v_mov_b32 v1, 0
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v2, s2
	v_mov_b32 v3, s3
	flat_store_dwordx2 v[2:3], v[0:1]
	s_waitcnt vmcnt(0) lgkmcnt(0)		// release: store complete
	s_mov_b32 m0, s4			// the full id, never id & 0xff
	s_nop 0					// m0 -> s_sendmsg hazard
	s_sendmsg sendmsg(MSG_INTERRUPT)
	s_waitcnt lgkmcnt(0)			// message sent (see header)
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
	flat_store_dwordx2 v[2:3], v[0:1]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_mov_b32 m0, 0xfff
kfdsig_patch_event_id:
	s_nop 0
	s_sendmsg sendmsg(MSG_INTERRUPT)
	s_waitcnt lgkmcnt(0)			// message sent (see header)
	s_endpgm
.Lraw_end:
	.size	kfdsig_signal_raw, .Lraw_end-kfdsig_signal_raw

	.rodata
	.p2align 6
	.amdhsa_kernel kfdsig_signal
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_system_sgpr_workgroup_id_x 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 5
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.p2align 6
	.amdhsa_kernel kfdsig_signal_raw
		.amdhsa_kernarg_size 0
		.amdhsa_system_sgpr_workgroup_id_x 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 1
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.p2align 6
	.amdhsa_kernel kfdsig_trap
		.amdhsa_kernarg_size 0
		.amdhsa_system_sgpr_workgroup_id_x 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 1
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
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
    .wavefront_size: 64
    .sgpr_count: 5
    .vgpr_count: 4
    .max_flat_workgroup_size: 64
    .args:
      - { .name: slot_va, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: event_id, .offset: 8, .size: 4, .value_kind: by_value }
  - .name: kfdsig_signal_raw
    .symbol: kfdsig_signal_raw.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 1
    .vgpr_count: 4
    .max_flat_workgroup_size: 64
  - .name: kfdsig_trap
    .symbol: kfdsig_trap.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 1
    .vgpr_count: 4
    .max_flat_workgroup_size: 64
...
	.end_amdgpu_metadata
