; SPDX-License-Identifier: MIT
; A kernel that stores 1 at out[work-item id] (test/emu_sqk_vm_fault.c:
; pointed at memory no buffer backs, or a read-only buffer).
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @poke(ptr addrspace(1) %out) {
entry:
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 1, ptr addrspace(1) %p, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
