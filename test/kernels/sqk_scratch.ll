; SPDX-License-Identifier: MIT
; Private memory for emu_sqk_scratch.c, written by hand: each work-item
; stores 8 dwords of a pattern of its id into a private array (volatile:
; kept in scratch at every optimisation level), loads them back and stores
; their xor to out[id]; the test then reads the scratch on the CPU.
; @pflat stores through the array's flat (generic) address, passed
; through global memory so that the compiler keeps the FLAT access into
; the private aperture, and loads through the private one.
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @pstore(ptr addrspace(1) %out) {
entry:
  %a = alloca [8 x i32], align 4, addrspace(5)
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %hi = shl i32 %tid, 8
  %pat = or i32 %hi, -1526726656
  %p0 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 0
  %v0 = or i32 %pat, 0
  store volatile i32 %v0, ptr addrspace(5) %p0, align 4
  %p1 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 1
  %v1 = or i32 %pat, 1
  store volatile i32 %v1, ptr addrspace(5) %p1, align 4
  %p2 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 2
  %v2 = or i32 %pat, 2
  store volatile i32 %v2, ptr addrspace(5) %p2, align 4
  %p3 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 3
  %v3 = or i32 %pat, 3
  store volatile i32 %v3, ptr addrspace(5) %p3, align 4
  %p4 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 4
  %v4 = or i32 %pat, 4
  store volatile i32 %v4, ptr addrspace(5) %p4, align 4
  %p5 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 5
  %v5 = or i32 %pat, 5
  store volatile i32 %v5, ptr addrspace(5) %p5, align 4
  %p6 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 6
  %v6 = or i32 %pat, 6
  store volatile i32 %v6, ptr addrspace(5) %p6, align 4
  %p7 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 7
  %v7 = or i32 %pat, 7
  store volatile i32 %v7, ptr addrspace(5) %p7, align 4
  %l0 = load volatile i32, ptr addrspace(5) %p0, align 4
  %l1 = load volatile i32, ptr addrspace(5) %p1, align 4
  %x1 = xor i32 %l0, %l1
  %l2 = load volatile i32, ptr addrspace(5) %p2, align 4
  %x2 = xor i32 %x1, %l2
  %l3 = load volatile i32, ptr addrspace(5) %p3, align 4
  %x3 = xor i32 %x2, %l3
  %l4 = load volatile i32, ptr addrspace(5) %p4, align 4
  %x4 = xor i32 %x3, %l4
  %l5 = load volatile i32, ptr addrspace(5) %p5, align 4
  %x5 = xor i32 %x4, %l5
  %l6 = load volatile i32, ptr addrspace(5) %p6, align 4
  %x6 = xor i32 %x5, %l6
  %l7 = load volatile i32, ptr addrspace(5) %p7, align 4
  %x7 = xor i32 %x6, %l7
  %ext = zext i32 %tid to i64
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %ext
  store i32 %x7, ptr addrspace(1) %o, align 4
  ret void
}

define amdgpu_kernel void @pflat(ptr addrspace(1) %out, ptr addrspace(1) %ptrs) {
entry:
  %a = alloca [8 x i32], align 4, addrspace(5)
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %hi = shl i32 %tid, 8
  %pat = or i32 %hi, -1526726656
  %ext = zext i32 %tid to i64
  %slot = getelementptr inbounds ptr, ptr addrspace(1) %ptrs, i64 %ext
  %g = addrspacecast ptr addrspace(5) %a to ptr
  store volatile ptr %g, ptr addrspace(1) %slot, align 8
  %f = load volatile ptr, ptr addrspace(1) %slot, align 8
  %q0 = getelementptr inbounds [8 x i32], ptr %f, i32 0, i32 0
  %v0 = or i32 %pat, 0
  store volatile i32 %v0, ptr %q0, align 4
  %q1 = getelementptr inbounds [8 x i32], ptr %f, i32 0, i32 1
  %v1 = or i32 %pat, 1
  store volatile i32 %v1, ptr %q1, align 4
  %q2 = getelementptr inbounds [8 x i32], ptr %f, i32 0, i32 2
  %v2 = or i32 %pat, 2
  store volatile i32 %v2, ptr %q2, align 4
  %q3 = getelementptr inbounds [8 x i32], ptr %f, i32 0, i32 3
  %v3 = or i32 %pat, 3
  store volatile i32 %v3, ptr %q3, align 4
  %q4 = getelementptr inbounds [8 x i32], ptr %f, i32 0, i32 4
  %v4 = or i32 %pat, 4
  store volatile i32 %v4, ptr %q4, align 4
  %q5 = getelementptr inbounds [8 x i32], ptr %f, i32 0, i32 5
  %v5 = or i32 %pat, 5
  store volatile i32 %v5, ptr %q5, align 4
  %q6 = getelementptr inbounds [8 x i32], ptr %f, i32 0, i32 6
  %v6 = or i32 %pat, 6
  store volatile i32 %v6, ptr %q6, align 4
  %q7 = getelementptr inbounds [8 x i32], ptr %f, i32 0, i32 7
  %v7 = or i32 %pat, 7
  store volatile i32 %v7, ptr %q7, align 4
  %p0 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 0
  %l0 = load volatile i32, ptr addrspace(5) %p0, align 4
  %p1 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 1
  %l1 = load volatile i32, ptr addrspace(5) %p1, align 4
  %x1 = xor i32 %l0, %l1
  %p2 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 2
  %l2 = load volatile i32, ptr addrspace(5) %p2, align 4
  %x2 = xor i32 %x1, %l2
  %p3 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 3
  %l3 = load volatile i32, ptr addrspace(5) %p3, align 4
  %x3 = xor i32 %x2, %l3
  %p4 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 4
  %l4 = load volatile i32, ptr addrspace(5) %p4, align 4
  %x4 = xor i32 %x3, %l4
  %p5 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 5
  %l5 = load volatile i32, ptr addrspace(5) %p5, align 4
  %x5 = xor i32 %x4, %l5
  %p6 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 6
  %l6 = load volatile i32, ptr addrspace(5) %p6, align 4
  %x6 = xor i32 %x5, %l6
  %p7 = getelementptr inbounds [8 x i32], ptr addrspace(5) %a, i32 0, i32 7
  %l7 = load volatile i32, ptr addrspace(5) %p7, align 4
  %x7 = xor i32 %x6, %l7
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %ext
  store i32 %x7, ptr addrspace(1) %o, align 4
  ret void
}
