; SPDX-License-Identifier: MIT
; Uniform float arithmetic of test/emu_sqk_kernels.c, which LLVM 22 selects
; as scalar float operations on GFX11.5 and gfx12 (s_add_f32, s_fmac_f32,
; s_max_num_f32, s_floor_f32, s_cvt_*, s_cmp_*_f32, the f16 forms; gfx12's
; v_s_sqrt_f32): the
; values u[0..3] = { a, b, c, n (an i32) } are read once for the whole grid,
; and every work-item i stores the 16 results in out[16i .. 16i + 15],
; out[16i + 15] the lane's own x[i] times the first result.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @sfloat(ptr addrspace(1) %u, ptr addrspace(1) %x, ptr addrspace(1) %o, i32 %cnt) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %wgb = mul i32 %wg, 64
  %i = add i32 %wgb, %id
  %in = icmp ult i32 %i, %cnt
  br i1 %in, label %go, label %done

go:
  %pb = getelementptr float, ptr addrspace(1) %u, i32 1
  %pc = getelementptr float, ptr addrspace(1) %u, i32 2
  %pn = getelementptr i32, ptr addrspace(1) %u, i32 3
  %a = load float, ptr addrspace(1) %u
  %b = load float, ptr addrspace(1) %pb
  %c = load float, ptr addrspace(1) %pc
  %n = load i32, ptr addrspace(1) %pn
  ; r0 = a * b + 1.5, r1 = maxnum(r0, b) - a, r2 = floor(r1) + float(n)
  %m = fmul float %a, %b
  %r0 = fadd float %m, 1.5
  %mx = call float @llvm.maxnum.f32(float %r0, float %b)
  %r1 = fsub float %mx, %a
  %fl = call float @llvm.floor.f32(float %r1)
  %nf = sitofp i32 %n to float
  %r2 = fadd float %fl, %nf
  ; r3 = a < b ? 2 : 3, r4 = float(int(a * 3)), r5 = fma(a, b, c)
  %lt = fcmp olt float %a, %b
  %r3 = select i1 %lt, float 2.0, float 3.0
  %a3 = fmul float %a, 3.0
  %ai = fptosi float %a3 to i32
  %r4 = sitofp i32 %ai to float
  %r5 = call float @llvm.fma.f32(float %a, float %b, float %c)
  ; r6 = minnum(a, c) * 0.5, r7 = ceil(c) - trunc(b), r8 = rint(a) + uitofp(n)
  %mn = call float @llvm.minnum.f32(float %a, float %c)
  %r6 = fmul float %mn, 0.5
  %ce = call float @llvm.ceil.f32(float %c)
  %tr = call float @llvm.trunc.f32(float %b)
  %r7 = fsub float %ce, %tr
  %rn = call float @llvm.rint.f32(float %a)
  %nu = uitofp i32 %n to float
  %r8 = fadd float %rn, %nu
  ; r9 = float(fptoui(c)), r10 = the half sum of a and b, widened,
  ; r11 = the half product of b and c times 2, widened
  %cu = fptoui float %c to i32
  %r9 = uitofp i32 %cu to float
  %ha = fptrunc float %a to half
  %hb = fptrunc float %b to half
  %hc = fptrunc float %c to half
  %hs = fadd half %ha, %hb
  %r10 = fpext half %hs to float
  %hp = fmul half %hb, %hc
  %hp2 = fmul half %hp, 2.0
  %r11 = fpext half %hp2 to float
  ; r12 = (b unordered c or a >= c) ? 5 : 7, r13 = maxnum of the halves a and c,
  ; r14 = a / 4 - sqrt(|c|)
  %uo = fcmp uno float %b, %c
  %ge = fcmp oge float %a, %c
  %or = or i1 %uo, %ge
  %r12 = select i1 %or, float 5.0, float 7.0
  %hm = call half @llvm.maxnum.f16(half %ha, half %hc)
  %r13 = fpext half %hm to float
  %q = fmul float %a, 0.25
  %cab = call float @llvm.fabs.f32(float %c)
  %sq = call float @llvm.sqrt.f32(float %cab)
  %r14 = fsub float %q, %sq
  %xi = getelementptr float, ptr addrspace(1) %x, i32 %i
  %xv = load float, ptr addrspace(1) %xi
  %r15 = fmul float %xv, %r0
  %base = mul i32 %i, 16
  %p0 = getelementptr float, ptr addrspace(1) %o, i32 %base
  store float %r0, ptr addrspace(1) %p0
  %p1 = getelementptr float, ptr addrspace(1) %p0, i32 1
  store float %r1, ptr addrspace(1) %p1
  %p2 = getelementptr float, ptr addrspace(1) %p0, i32 2
  store float %r2, ptr addrspace(1) %p2
  %p3 = getelementptr float, ptr addrspace(1) %p0, i32 3
  store float %r3, ptr addrspace(1) %p3
  %p4 = getelementptr float, ptr addrspace(1) %p0, i32 4
  store float %r4, ptr addrspace(1) %p4
  %p5 = getelementptr float, ptr addrspace(1) %p0, i32 5
  store float %r5, ptr addrspace(1) %p5
  %p6 = getelementptr float, ptr addrspace(1) %p0, i32 6
  store float %r6, ptr addrspace(1) %p6
  %p7 = getelementptr float, ptr addrspace(1) %p0, i32 7
  store float %r7, ptr addrspace(1) %p7
  %p8 = getelementptr float, ptr addrspace(1) %p0, i32 8
  store float %r8, ptr addrspace(1) %p8
  %p9 = getelementptr float, ptr addrspace(1) %p0, i32 9
  store float %r9, ptr addrspace(1) %p9
  %p10 = getelementptr float, ptr addrspace(1) %p0, i32 10
  store float %r10, ptr addrspace(1) %p10
  %p11 = getelementptr float, ptr addrspace(1) %p0, i32 11
  store float %r11, ptr addrspace(1) %p11
  %p12 = getelementptr float, ptr addrspace(1) %p0, i32 12
  store float %r12, ptr addrspace(1) %p12
  %p13 = getelementptr float, ptr addrspace(1) %p0, i32 13
  store float %r13, ptr addrspace(1) %p13
  %p14 = getelementptr float, ptr addrspace(1) %p0, i32 14
  store float %r14, ptr addrspace(1) %p14
  %p15 = getelementptr float, ptr addrspace(1) %p0, i32 15
  store float %r15, ptr addrspace(1) %p15
  br label %done

done:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.floor.f32(float)
declare float @llvm.ceil.f32(float)
declare float @llvm.trunc.f32(float)
declare float @llvm.rint.f32(float)
declare float @llvm.fma.f32(float, float, float)
declare half @llvm.maxnum.f16(half, half)
declare float @llvm.fabs.f32(float)
declare float @llvm.sqrt.f32(float)
