; SPDX-License-Identifier: MIT
; LDS compare-and-swap of test/emu_sqk_kernels.c (LLVM 22: ds_cmpst_rtn_* on
; gfx9/gfx10, ds_cmpstore_rtn_* on gfx11 and later). Per workgroup of 64:
; slots[0..7] start 0; every work-item i tries cmpxchg(slots[i % 8], 0, i + 1)
; (one per slot succeeds: won[i] = 1 for it, else 0), then raises big[0]
; (64-bit, start 0) to x[i] with a cmpxchg loop (an atomic max); after a
; barrier out[8 * wg + k] = slots[k], out64[wg] = big[0].
target triple = "amdgcn-amd-amdhsa"

@slots = internal addrspace(3) global [8 x i32] poison, align 4
@big = internal addrspace(3) global i64 poison, align 8

define amdgpu_kernel void @lds_cas(ptr addrspace(1) %x, ptr addrspace(1) %won, ptr addrspace(1) %out, ptr addrspace(1) %out64) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %wgb = mul i32 %wg, 64
  %i = add i32 %wgb, %id
  %first = icmp ult i32 %id, 8
  br i1 %first, label %init, label %go0

init:
  %ps = getelementptr [8 x i32], ptr addrspace(3) @slots, i32 0, i32 %id
  store i32 0, ptr addrspace(3) %ps
  %z = icmp eq i32 %id, 0
  br i1 %z, label %init64, label %go0

init64:
  store i64 0, ptr addrspace(3) @big
  br label %go0

go0:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %k = and i32 %id, 7
  %pk = getelementptr [8 x i32], ptr addrspace(3) @slots, i32 0, i32 %k
  %new = add i32 %i, 1
  %r = cmpxchg ptr addrspace(3) %pk, i32 0, i32 %new monotonic monotonic
  %ok = extractvalue { i32, i1 } %r, 1
  %okz = zext i1 %ok to i32
  %pw = getelementptr i32, ptr addrspace(1) %won, i32 %i
  store i32 %okz, ptr addrspace(1) %pw
  %px = getelementptr i64, ptr addrspace(1) %x, i32 %i
  %v = load i64, ptr addrspace(1) %px
  %old0 = load atomic i64, ptr addrspace(3) @big monotonic, align 8
  br label %loop

loop:
  %old = phi i64 [ %old0, %go0 ], [ %seen, %loop ]
  %gt = icmp ugt i64 %v, %old
  %m = select i1 %gt, i64 %v, i64 %old
  %c = cmpxchg ptr addrspace(3) @big, i64 %old, i64 %m monotonic monotonic
  %seen = extractvalue { i64, i1 } %c, 0
  %done = extractvalue { i64, i1 } %c, 1
  br i1 %done, label %after, label %loop

after:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  br i1 %first, label %put, label %end

put:
  %s = load i32, ptr addrspace(3) %pk
  %ob = mul i32 %wg, 8
  %oi = add i32 %ob, %id
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %oi
  store i32 %s, ptr addrspace(1) %po
  %z2 = icmp eq i32 %id, 0
  br i1 %z2, label %put64, label %end

put64:
  %b = load i64, ptr addrspace(3) @big
  %pb = getelementptr i64, ptr addrspace(1) %out64, i32 %wg
  store i64 %b, ptr addrspace(1) %pb
  br label %end

end:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()
