; SPDX-License-Identifier: MIT
; 16-bit math for test/emu_sqk_kernels.c (written here as IR: LLVM 22 compiles
; it for gfx1100 as real true16, register halves v1.l/v1.h, and for gfx1200 as
; fake16): f16 mul/add/fma/sub/compare/select, f16<->f32 conversions, i16
; add/mul/sub/unsigned and signed compares/shift/select, one lane per item.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @hmath(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %x, ptr addrspace(1) %y, ptr addrspace(1) %z, ptr addrspace(1) %f) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr half, ptr addrspace(1) %a, i32 %id
  %pb = getelementptr half, ptr addrspace(1) %b, i32 %id
  %p = load half, ptr addrspace(1) %pa
  %q = load half, ptr addrspace(1) %pb
  %m = fmul half %p, %q
  %s = fadd half %m, %p
  %r = call half @llvm.fma.f16(half %s, half %q, half 1.5)
  %lt = fcmp olt half %r, %q
  %d = fsub half %q, %p
  %sel = select i1 %lt, half %r, half %d
  %pc = getelementptr half, ptr addrspace(1) %c, i32 %id
  store half %sel, ptr addrspace(1) %pc
  %px = getelementptr i16, ptr addrspace(1) %x, i32 %id
  %py = getelementptr i16, ptr addrspace(1) %y, i32 %id
  %xs = load i16, ptr addrspace(1) %px
  %ys = load i16, ptr addrspace(1) %py
  %ad = add i16 %xs, %ys
  %mu = mul i16 %ad, %xs
  %ul = icmp ult i16 %xs, %ys
  %sb = sub i16 %xs, %ys
  %u2 = select i1 %ul, i16 %mu, i16 %sb
  %gt = icmp sgt i16 %xs, %ys
  %sh = ashr i16 %u2, 3
  %u3 = select i1 %gt, i16 %u2, i16 %sh
  %pz = getelementptr i16, ptr addrspace(1) %z, i32 %id
  store i16 %u3, ptr addrspace(1) %pz
  %pf = getelementptr float, ptr addrspace(1) %f, i32 %id
  %fv = load float, ptr addrspace(1) %pf
  %ext = fpext half %sel to float
  %sum = fadd float %fv, %ext
  store float %sum, ptr addrspace(1) %pf
  %pf2 = getelementptr float, ptr addrspace(1) %pf, i32 64
  %fv2 = load float, ptr addrspace(1) %pf2
  %tr = fptrunc float %fv2 to half
  %hh = fadd half %tr, %sel
  %pc2 = getelementptr half, ptr addrspace(1) %pc, i32 64
  store half %hh, ptr addrspace(1) %pc2
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare half @llvm.fma.f16(half, half, half)
