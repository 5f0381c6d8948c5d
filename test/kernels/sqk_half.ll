; SPDX-License-Identifier: MIT
; 16-bit math for test/emu_sqk_kernels.c (written here as IR: LLVM 22 compiles
; it for gfx1100 as real true16, register halves v1.l/v1.h, and for gfx1200 as
; fake16): f16 mul/add/fma/sub/compare/select, f16<->f32 conversions, i16
; add/mul/sub/unsigned and signed compares/shift/select, one lane per item;
; and hmath2 below.
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

; hmath2: a lane's f16 from its neighbour in the quad (DPP quad_perm
; [1,0,3,2]: LLVM folds the move into the add, a 16-bit DPP form), maxnum /
; minnum, and f16 class tests (v_cmp_class_f16: snan|-0|+normal,
; +-inf, +-subnormal) of special values, one lane per item.
define amdgpu_kernel void @hmath2(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %e, ptr addrspace(1) %c, ptr addrspace(1) %k) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr half, ptr addrspace(1) %a, i32 %id
  %pb = getelementptr half, ptr addrspace(1) %b, i32 %id
  %pe = getelementptr half, ptr addrspace(1) %e, i32 %id
  %p = load half, ptr addrspace(1) %pa
  %q = load half, ptr addrspace(1) %pb
  %x = load half, ptr addrspace(1) %pe
  %pi = bitcast half %p to i16
  %pz = zext i16 %pi to i32
  %sh = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %pz, i32 177, i32 15, i32 15, i1 true)
  %st = trunc i32 %sh to i16
  %sw = bitcast i16 %st to half
  %s = fadd half %sw, %q
  %mx = call half @llvm.maxnum.f16(half %p, half %q)
  %mn = call half @llvm.minnum.f16(half %s, half %p)
  %df = fsub half %mx, %mn
  %pc = getelementptr half, ptr addrspace(1) %c, i32 %id
  store half %s, ptr addrspace(1) %pc
  %n2 = add i32 %id, 64
  %pc2 = getelementptr half, ptr addrspace(1) %c, i32 %n2
  store half %df, ptr addrspace(1) %pc2
  %c1 = call i1 @llvm.is.fpclass.f16(half %x, i32 289)
  %c2 = call i1 @llvm.is.fpclass.f16(half %x, i32 516)
  %c3 = call i1 @llvm.is.fpclass.f16(half %x, i32 144)
  %k1 = zext i1 %c1 to i32
  %k2 = zext i1 %c2 to i32
  %k3 = zext i1 %c3 to i32
  %k2s = shl i32 %k2, 1
  %k3s = shl i32 %k3, 2
  %ka = or i32 %k1, %k2s
  %kb = or i32 %ka, %k3s
  %pk = getelementptr i32, ptr addrspace(1) %k, i32 %id
  store i32 %kb, ptr addrspace(1) %pk
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare half @llvm.fma.f16(half, half, half)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i1 @llvm.is.fpclass.f16(half, i32)
declare half @llvm.maxnum.f16(half, half)
declare half @llvm.minnum.f16(half, half)
