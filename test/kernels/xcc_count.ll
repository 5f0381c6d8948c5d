; SPDX-License-Identifier: MIT
; Every work-item adds 1 to count[(z * ny + y) * nx + x] for its workgroup id
; (x, y, z): each workgroup's counter ends at the work-items of one group
; times the times the group ran (test/emu_xcc_dispatch.c).
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @count(ptr addrspace(1) %c, i32 %nx, i32 %ny) {
  %x = call i32 @llvm.amdgcn.workgroup.id.x()
  %y = call i32 @llvm.amdgcn.workgroup.id.y()
  %z = call i32 @llvm.amdgcn.workgroup.id.z()
  %zn = mul i32 %z, %ny
  %zy = add i32 %zn, %y
  %row = mul i32 %zy, %nx
  %i = add i32 %row, %x
  %p = getelementptr i32, ptr addrspace(1) %c, i32 %i
  %old = atomicrmw add ptr addrspace(1) %p, i32 1 syncscope("agent") monotonic
  ret void
}

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
