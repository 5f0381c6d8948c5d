; SPDX-License-Identifier: MIT
; A kernel that signals a KFD event from a wave after real work
; (test/emu_sqk_kernels.c): every work-item adds the square of its input to
; out[0]; after the workgroup barrier, work-item 0 writes the event's slot
; in the signal page, releases it at system scope and sends MSG_INTERRUPT
; (s_sendmsg 1) with the event id in M0.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @signal(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %slot, i32 %id) {
entry:
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %x = load i32, ptr addrspace(1) %p, align 4
  %y = mul i32 %x, %x
  %old = atomicrmw add ptr addrspace(1) %out, i32 %y syncscope("agent") monotonic, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %first = icmp eq i32 %i, 0
  br i1 %first, label %send, label %done

send:
  %sum = load atomic i32, ptr addrspace(1) %out syncscope("agent") monotonic, align 4
  %s64 = zext i32 %sum to i64
  store atomic i64 %s64, ptr addrspace(1) %slot monotonic, align 8
  fence release
  call void @llvm.amdgcn.s.sendmsg(i32 1, i32 %id)
  br label %done

done:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.s.sendmsg(i32 immarg, i32)

; The same message with no release before it (test/emu_sqk_kernels.c):
; the shader unit's release check reports it.
define amdgpu_kernel void @signal_norel(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %slot, i32 %id) {
  store i64 1, ptr addrspace(1) %slot, align 8
  call void @llvm.amdgcn.s.sendmsg(i32 1, i32 %id)
  ret void
}
