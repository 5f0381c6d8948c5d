; SPDX-License-Identifier: MIT
; Generated from blit.cl: clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -nogpulib
;   -O1 -Xclang -disable-llvm-passes -S -emit-llvm (no target CPU: llc picks it)
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: convergent norecurse nounwind
define protected amdgpu_kernel void @blit_x4(ptr addrspace(1) noundef align 16 %0, ptr addrspace(1) noundef align 16 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
  %4 = alloca ptr addrspace(1), align 8, addrspace(5)
  %5 = alloca ptr addrspace(1), align 8, addrspace(5)
  %6 = alloca i32, align 4, addrspace(5)
  %7 = alloca i32, align 4, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr addrspace(5) %5, align 8, !tbaa !9
  store i32 %2, ptr addrspace(5) %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %7) #4
  %8 = call i32 @gid() #5
  store i32 %8, ptr addrspace(5) %7, align 4, !tbaa !13
  %9 = load i32, ptr addrspace(5) %7, align 4, !tbaa !13
  %10 = load i32, ptr addrspace(5) %6, align 4, !tbaa !13
  %11 = icmp ult i32 %9, %10
  br i1 %11, label %12, label %22

12:                                               ; preds = %3
  %13 = load ptr addrspace(1), ptr addrspace(5) %4, align 8, !tbaa !9
  %14 = load i32, ptr addrspace(5) %7, align 4, !tbaa !13
  %15 = zext i32 %14 to i64
  %16 = getelementptr inbounds <4 x i32>, ptr addrspace(1) %13, i64 %15
  %17 = load <4 x i32>, ptr addrspace(1) %16, align 16, !tbaa !15
  %18 = load ptr addrspace(1), ptr addrspace(5) %5, align 8, !tbaa !9
  %19 = load i32, ptr addrspace(5) %7, align 4, !tbaa !13
  %20 = zext i32 %19 to i64
  %21 = getelementptr inbounds <4 x i32>, ptr addrspace(1) %18, i64 %20
  store <4 x i32> %17, ptr addrspace(1) %21, align 16, !tbaa !15
  br label %22

22:                                               ; preds = %12, %3
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %7) #4
  ret void
}

; Function Attrs: argmemonly nocallback nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p5(i64 immarg, ptr addrspace(5) nocapture) #1

; Function Attrs: convergent norecurse nounwind
define internal i32 @gid() #2 {
  %1 = alloca i32, align 4, addrspace(5)
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %1) #4
  %2 = call align 4 dereferenceable(64) ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %3 = getelementptr inbounds i16, ptr addrspace(4) %2, i64 2
  %4 = load i16, ptr addrspace(4) %3, align 2, !tbaa !16
  %5 = zext i16 %4 to i32
  store i32 %5, ptr addrspace(5) %1, align 4, !tbaa !13
  %6 = call i32 @llvm.amdgcn.workgroup.id.x()
  %7 = load i32, ptr addrspace(5) %1, align 4, !tbaa !13
  %8 = mul i32 %6, %7
  %9 = call i32 @llvm.amdgcn.workitem.id.x(), !range !18
  %10 = add i32 %8, %9
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %1) #4
  ret i32 %10
}

; Function Attrs: argmemonly nocallback nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p5(i64 immarg, ptr addrspace(5) nocapture) #1

; Function Attrs: convergent norecurse nounwind
define protected amdgpu_kernel void @blit_dword(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !19 !kernel_arg_base_type !20 !kernel_arg_type_qual !8 {
  %4 = alloca ptr addrspace(1), align 8, addrspace(5)
  %5 = alloca ptr addrspace(1), align 8, addrspace(5)
  %6 = alloca i32, align 4, addrspace(5)
  %7 = alloca i32, align 4, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr addrspace(5) %5, align 8, !tbaa !9
  store i32 %2, ptr addrspace(5) %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %7) #4
  %8 = call i32 @gid() #5
  store i32 %8, ptr addrspace(5) %7, align 4, !tbaa !13
  %9 = load i32, ptr addrspace(5) %7, align 4, !tbaa !13
  %10 = load i32, ptr addrspace(5) %6, align 4, !tbaa !13
  %11 = icmp ult i32 %9, %10
  br i1 %11, label %12, label %22

12:                                               ; preds = %3
  %13 = load ptr addrspace(1), ptr addrspace(5) %4, align 8, !tbaa !9
  %14 = load i32, ptr addrspace(5) %7, align 4, !tbaa !13
  %15 = zext i32 %14 to i64
  %16 = getelementptr inbounds i32, ptr addrspace(1) %13, i64 %15
  %17 = load i32, ptr addrspace(1) %16, align 4, !tbaa !13
  %18 = load ptr addrspace(1), ptr addrspace(5) %5, align 8, !tbaa !9
  %19 = load i32, ptr addrspace(5) %7, align 4, !tbaa !13
  %20 = zext i32 %19 to i64
  %21 = getelementptr inbounds i32, ptr addrspace(1) %18, i64 %20
  store i32 %17, ptr addrspace(1) %21, align 4, !tbaa !13
  br label %22

22:                                               ; preds = %12, %3
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %7) #4
  ret void
}

; Function Attrs: nounwind readnone speculatable willreturn
declare align 4 ptr addrspace(4) @llvm.amdgcn.dispatch.ptr() #3

; Function Attrs: nounwind readnone speculatable willreturn
declare i32 @llvm.amdgcn.workgroup.id.x() #3

; Function Attrs: nounwind readnone speculatable willreturn
declare i32 @llvm.amdgcn.workitem.id.x() #3

attributes #0 = { convergent norecurse nounwind "amdgpu-flat-work-group-size"="1,256" "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
attributes #1 = { argmemonly nocallback nofree nosync nounwind willreturn }
attributes #2 = { convergent norecurse nounwind "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nounwind readnone speculatable willreturn }
attributes #4 = { nounwind }
attributes #5 = { convergent }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 1}
!2 = !{i32 2, i32 0}
!3 = !{!"Debian clang version 15.0.6"}
!4 = !{i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none"}
!6 = !{!"uint4*", !"uint4*", !"u32"}
!7 = !{!"uint __attribute__((ext_vector_type(4)))*", !"uint __attribute__((ext_vector_type(4)))*", !"uint"}
!8 = !{!"const", !"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!11, !11, i64 0}
!16 = !{!17, !17, i64 0}
!17 = !{!"short", !11, i64 0}
!18 = !{i32 0, i32 1024}
!19 = !{!"u32*", !"u32*", !"u32"}
!20 = !{!"uint*", !"uint*", !"uint"}
