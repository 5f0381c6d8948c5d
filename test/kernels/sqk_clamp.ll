; SPDX-License-Identifier: MIT
; Clamps of test/emu_sqk_kernels.c, as LLVM 22 selects them on gfx11
; (v_maxmin_f32, v_maxmin_i32, v_minmax_u32) and gfx12 (v_maxmin_num_f32):
; out[4i] = min(max(f[i], b.lo), b.hi), out[4i+1] the same within -2 and 3,
; out[4i+2] = smin(smax(int(f[i]), b.ilo), b.ihi), out[4i+3] =
; umax(umin(int(f[i]), b.ihi), b.ilo); b = { lo, hi, ilo, ihi }.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @clamp(ptr addrspace(1) %f, ptr addrspace(1) %o, ptr addrspace(1) %b, i32 %n) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %wgb = mul i32 %wg, 64
  %i = add i32 %wgb, %id
  %in = icmp ult i32 %i, %n
  br i1 %in, label %go, label %done

go:
  %pb1 = getelementptr float, ptr addrspace(1) %b, i32 1
  %pb2 = getelementptr i32, ptr addrspace(1) %b, i32 2
  %pb3 = getelementptr i32, ptr addrspace(1) %b, i32 3
  %lo = load float, ptr addrspace(1) %b
  %hi = load float, ptr addrspace(1) %pb1
  %ilo = load i32, ptr addrspace(1) %pb2
  %ihi = load i32, ptr addrspace(1) %pb3
  %pf = getelementptr float, ptr addrspace(1) %f, i32 %i
  %v = load float, ptr addrspace(1) %pf
  %m = call float @llvm.maxnum.f32(float %v, float %lo)
  %r = call float @llvm.minnum.f32(float %m, float %hi)
  %m2 = call float @llvm.maxnum.f32(float %v, float -2.0)
  %r2 = call float @llvm.minnum.f32(float %m2, float 3.0)
  %vi = fptosi float %v to i32
  %mi = call i32 @llvm.smax.i32(i32 %vi, i32 %ilo)
  %ri = call i32 @llvm.smin.i32(i32 %mi, i32 %ihi)
  %mu = call i32 @llvm.umin.i32(i32 %vi, i32 %ihi)
  %ru = call i32 @llvm.umax.i32(i32 %mu, i32 %ilo)
  %base = mul i32 %i, 4
  %p0 = getelementptr float, ptr addrspace(1) %o, i32 %base
  store float %r, ptr addrspace(1) %p0
  %b1 = add i32 %base, 1
  %p1 = getelementptr float, ptr addrspace(1) %o, i32 %b1
  store float %r2, ptr addrspace(1) %p1
  %b2 = add i32 %base, 2
  %p2 = getelementptr i32, ptr addrspace(1) %o, i32 %b2
  store i32 %ri, ptr addrspace(1) %p2
  %b3 = add i32 %base, 3
  %p3 = getelementptr i32, ptr addrspace(1) %o, i32 %b3
  store i32 %ru, ptr addrspace(1) %p3
  br label %done

done:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.minnum.f32(float, float)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
