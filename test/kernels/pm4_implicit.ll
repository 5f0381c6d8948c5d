; SPDX-License-Identifier: MIT
; Written by hand for test/emu_pm4_kernels.c: a kernel that reads its
; sizes as a device library does under code object v5 (through the
; implicit-argument pointer, AMDGPUUsage "Code Object V5 Metadata"):
; local size = workgroup id < hidden_block_count_x ? hidden_group_size_x
; : hidden_remainder_x; groups = hidden_block_count_x + (remainder != 0);
; each work-item stores local size | groups << 12 | grid dims << 24 at its
; global id (computed from the group size). One explicit argument (8
; bytes): the implicit ones start at kernarg + 8.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @implicit(ptr addrspace(1) %out) #0 {
  %ia = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %gid = call i32 @llvm.amdgcn.workgroup.id.x()
  %lid = call i32 @llvm.amdgcn.workitem.id.x()
  %bc = load i32, ptr addrspace(4) %ia, align 4
  %gsp = getelementptr inbounds i8, ptr addrspace(4) %ia, i64 12
  %gs16 = load i16, ptr addrspace(4) %gsp, align 2
  %gs = zext i16 %gs16 to i32
  %remp = getelementptr inbounds i8, ptr addrspace(4) %ia, i64 18
  %rem16 = load i16, ptr addrspace(4) %remp, align 2
  %rem = zext i16 %rem16 to i32
  %dimp = getelementptr inbounds i8, ptr addrspace(4) %ia, i64 64
  %dim16 = load i16, ptr addrspace(4) %dimp, align 2
  %dim = zext i16 %dim16 to i32
  %full = icmp ult i32 %gid, %bc
  %ls = select i1 %full, i32 %gs, i32 %rem
  %hasrem = icmp ne i32 %rem, 0
  %extra = zext i1 %hasrem to i32
  %ng = add i32 %bc, %extra
  %base = mul i32 %gid, %gs
  %i = add i32 %base, %lid
  %ngs = shl i32 %ng, 12
  %dims = shl i32 %dim, 24
  %v0 = or i32 %ls, %ngs
  %v = or i32 %v0, %dims
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" "uniform-work-group-size"="false" }
