; SPDX-License-Identifier: MIT
; Generated from sqk_kernels.cl: clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -nogpulib
;   -O1 -Xclang -disable-llvm-passes -S -emit-llvm (no target CPU: llc picks it)
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7"
target triple = "amdgcn-amd-amdhsa"

@reduce.s = internal addrspace(3) global [256 x i32] undef, align 4
@atom.lc = internal addrspace(3) global i32 undef, align 4
@.str = private unnamed_addr addrspace(4) constant [10 x i8] c"workgroup\00", align 1

; Function Attrs: convergent norecurse nounwind
define protected amdgpu_kernel void @vadd(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 {
  %5 = alloca ptr addrspace(1), align 8, addrspace(5)
  %6 = alloca ptr addrspace(1), align 8, addrspace(5)
  %7 = alloca ptr addrspace(1), align 8, addrspace(5)
  %8 = alloca i32, align 4, addrspace(5)
  %9 = alloca i32, align 4, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr addrspace(5) %6, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr addrspace(5) %7, align 8, !tbaa !9
  store i32 %3, ptr addrspace(5) %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %9) #6
  %10 = call i32 @gid() #7
  store i32 %10, ptr addrspace(5) %9, align 4, !tbaa !13
  %11 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %12 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %13 = icmp ult i32 %11, %12
  br i1 %13, label %14, label %33

14:                                               ; preds = %4
  %15 = load ptr addrspace(1), ptr addrspace(5) %5, align 8, !tbaa !9
  %16 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %17 = zext i32 %16 to i64
  %18 = getelementptr inbounds float, ptr addrspace(1) %15, i64 %17
  %19 = load float, ptr addrspace(1) %18, align 4, !tbaa !15
  %20 = load ptr addrspace(1), ptr addrspace(5) %6, align 8, !tbaa !9
  %21 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %22 = zext i32 %21 to i64
  %23 = getelementptr inbounds float, ptr addrspace(1) %20, i64 %22
  %24 = load float, ptr addrspace(1) %23, align 4, !tbaa !15
  %25 = call float @llvm.fmuladd.f32(float %24, float 2.500000e+00, float %19)
  %26 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %27 = uitofp i32 %26 to float
  %28 = fadd float %25, %27
  %29 = load ptr addrspace(1), ptr addrspace(5) %7, align 8, !tbaa !9
  %30 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %31 = zext i32 %30 to i64
  %32 = getelementptr inbounds float, ptr addrspace(1) %29, i64 %31
  store float %28, ptr addrspace(1) %32, align 4, !tbaa !15
  br label %33

33:                                               ; preds = %14, %4
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %9) #6
  ret void
}

; Function Attrs: argmemonly nocallback nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p5(i64 immarg, ptr addrspace(5) nocapture) #1

; Function Attrs: convergent norecurse nounwind
define internal i32 @gid() #2 {
  %1 = call i32 @llvm.amdgcn.workgroup.id.x()
  %2 = call i32 @wgsize() #7
  %3 = mul i32 %1, %2
  %4 = call i32 @llvm.amdgcn.workitem.id.x(), !range !17
  %5 = add i32 %3, %4
  ret i32 %5
}

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.fmuladd.f32(float, float, float) #3

; Function Attrs: argmemonly nocallback nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p5(i64 immarg, ptr addrspace(5) nocapture) #1

; Function Attrs: convergent norecurse nounwind
define protected amdgpu_kernel void @fmath(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 4 %2, ptr addrspace(1) noundef align 8 %3, i32 noundef %4) #0 !kernel_arg_addr_space !18 !kernel_arg_access_qual !19 !kernel_arg_type !20 !kernel_arg_base_type !21 !kernel_arg_type_qual !22 {
  %6 = alloca ptr addrspace(1), align 8, addrspace(5)
  %7 = alloca ptr addrspace(1), align 8, addrspace(5)
  %8 = alloca ptr addrspace(1), align 8, addrspace(5)
  %9 = alloca ptr addrspace(1), align 8, addrspace(5)
  %10 = alloca i32, align 4, addrspace(5)
  %11 = alloca i32, align 4, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %6, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr addrspace(5) %7, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr addrspace(5) %8, align 8, !tbaa !9
  store ptr addrspace(1) %3, ptr addrspace(5) %9, align 8, !tbaa !9
  store i32 %4, ptr addrspace(5) %10, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %11) #6
  %12 = call i32 @gid() #7
  store i32 %12, ptr addrspace(5) %11, align 4, !tbaa !13
  %13 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %14 = load i32, ptr addrspace(5) %10, align 4, !tbaa !13
  %15 = icmp ult i32 %13, %14
  br i1 %15, label %16, label %89

16:                                               ; preds = %5
  %17 = load ptr addrspace(1), ptr addrspace(5) %6, align 8, !tbaa !9
  %18 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %19 = zext i32 %18 to i64
  %20 = getelementptr inbounds float, ptr addrspace(1) %17, i64 %19
  %21 = load float, ptr addrspace(1) %20, align 4, !tbaa !15
  %22 = load ptr addrspace(1), ptr addrspace(5) %7, align 8, !tbaa !9
  %23 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %24 = zext i32 %23 to i64
  %25 = getelementptr inbounds float, ptr addrspace(1) %22, i64 %24
  %26 = load float, ptr addrspace(1) %25, align 4, !tbaa !15
  %27 = fdiv float %21, %26, !fpmath !23
  %28 = load ptr addrspace(1), ptr addrspace(5) %6, align 8, !tbaa !9
  %29 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %30 = zext i32 %29 to i64
  %31 = getelementptr inbounds float, ptr addrspace(1) %28, i64 %30
  %32 = load float, ptr addrspace(1) %31, align 4, !tbaa !15
  %33 = call float @llvm.fabs.f32(float %32)
  %34 = call float @llvm.sqrt.f32(float %33)
  %35 = fadd float %27, %34
  %36 = load ptr addrspace(1), ptr addrspace(5) %6, align 8, !tbaa !9
  %37 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %38 = zext i32 %37 to i64
  %39 = getelementptr inbounds float, ptr addrspace(1) %36, i64 %38
  %40 = load float, ptr addrspace(1) %39, align 4, !tbaa !15
  %41 = load ptr addrspace(1), ptr addrspace(5) %7, align 8, !tbaa !9
  %42 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %43 = zext i32 %42 to i64
  %44 = getelementptr inbounds float, ptr addrspace(1) %41, i64 %43
  %45 = load float, ptr addrspace(1) %44, align 4, !tbaa !15
  %46 = call float @llvm.fma.f32(float %40, float %45, float 1.000000e+00)
  %47 = fadd float %35, %46
  %48 = load ptr addrspace(1), ptr addrspace(5) %7, align 8, !tbaa !9
  %49 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %50 = zext i32 %49 to i64
  %51 = getelementptr inbounds float, ptr addrspace(1) %48, i64 %50
  %52 = load float, ptr addrspace(1) %51, align 4, !tbaa !15
  %53 = fmul float %52, 0x400A666660000000
  %54 = call float @llvm.floor.f32(float %53)
  %55 = fadd float %47, %54
  %56 = load ptr addrspace(1), ptr addrspace(5) %8, align 8, !tbaa !9
  %57 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %58 = zext i32 %57 to i64
  %59 = getelementptr inbounds float, ptr addrspace(1) %56, i64 %58
  store float %55, ptr addrspace(1) %59, align 4, !tbaa !15
  %60 = load ptr addrspace(1), ptr addrspace(5) %6, align 8, !tbaa !9
  %61 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %62 = zext i32 %61 to i64
  %63 = getelementptr inbounds float, ptr addrspace(1) %60, i64 %62
  %64 = load float, ptr addrspace(1) %63, align 4, !tbaa !15
  %65 = fpext float %64 to double
  %66 = load ptr addrspace(1), ptr addrspace(5) %7, align 8, !tbaa !9
  %67 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %68 = zext i32 %67 to i64
  %69 = getelementptr inbounds float, ptr addrspace(1) %66, i64 %68
  %70 = load float, ptr addrspace(1) %69, align 4, !tbaa !15
  %71 = fpext float %70 to double
  %72 = fdiv double %65, %71
  %73 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %74 = uitofp i32 %73 to double
  %75 = call double @llvm.fmuladd.f64(double %74, double 2.500000e-01, double %72)
  %76 = load ptr addrspace(1), ptr addrspace(5) %7, align 8, !tbaa !9
  %77 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %78 = zext i32 %77 to i64
  %79 = getelementptr inbounds float, ptr addrspace(1) %76, i64 %78
  %80 = load float, ptr addrspace(1) %79, align 4, !tbaa !15
  %81 = call float @llvm.fabs.f32(float %80)
  %82 = fpext float %81 to double
  %83 = call double @llvm.sqrt.f64(double %82)
  %84 = fadd double %75, %83
  %85 = load ptr addrspace(1), ptr addrspace(5) %9, align 8, !tbaa !9
  %86 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %87 = zext i32 %86 to i64
  %88 = getelementptr inbounds double, ptr addrspace(1) %85, i64 %87
  store double %84, ptr addrspace(1) %88, align 8, !tbaa !24
  br label %89

89:                                               ; preds = %16, %5
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %11) #6
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.fabs.f32(float) #3

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.sqrt.f32(float) #3

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.fma.f32(float, float, float) #3

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.floor.f32(float) #3

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare double @llvm.fmuladd.f64(double, double, double) #3

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare double @llvm.sqrt.f64(double) #3

; Function Attrs: convergent norecurse nounwind
define protected amdgpu_kernel void @imath(ptr addrspace(1) noundef align 8 %0, ptr addrspace(1) noundef align 8 %1, ptr addrspace(1) noundef align 8 %2, ptr addrspace(1) noundef align 4 %3, i32 noundef %4) #0 !kernel_arg_addr_space !18 !kernel_arg_access_qual !19 !kernel_arg_type !26 !kernel_arg_base_type !27 !kernel_arg_type_qual !22 {
  %6 = alloca ptr addrspace(1), align 8, addrspace(5)
  %7 = alloca ptr addrspace(1), align 8, addrspace(5)
  %8 = alloca ptr addrspace(1), align 8, addrspace(5)
  %9 = alloca ptr addrspace(1), align 8, addrspace(5)
  %10 = alloca i32, align 4, addrspace(5)
  %11 = alloca i32, align 4, addrspace(5)
  %12 = alloca i64, align 8, addrspace(5)
  %13 = alloca i64, align 8, addrspace(5)
  %14 = alloca i32, align 4, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %6, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr addrspace(5) %7, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr addrspace(5) %8, align 8, !tbaa !9
  store ptr addrspace(1) %3, ptr addrspace(5) %9, align 8, !tbaa !9
  store i32 %4, ptr addrspace(5) %10, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %11) #6
  %15 = call i32 @gid() #7
  store i32 %15, ptr addrspace(5) %11, align 4, !tbaa !13
  %16 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %17 = load i32, ptr addrspace(5) %10, align 4, !tbaa !13
  %18 = icmp ult i32 %16, %17
  br i1 %18, label %19, label %78

19:                                               ; preds = %5
  call void @llvm.lifetime.start.p5(i64 8, ptr addrspace(5) %12) #6
  %20 = load ptr addrspace(1), ptr addrspace(5) %6, align 8, !tbaa !9
  %21 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %22 = zext i32 %21 to i64
  %23 = getelementptr inbounds i64, ptr addrspace(1) %20, i64 %22
  %24 = load i64, ptr addrspace(1) %23, align 8, !tbaa !28
  store i64 %24, ptr addrspace(5) %12, align 8, !tbaa !28
  call void @llvm.lifetime.start.p5(i64 8, ptr addrspace(5) %13) #6
  %25 = load ptr addrspace(1), ptr addrspace(5) %7, align 8, !tbaa !9
  %26 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %27 = zext i32 %26 to i64
  %28 = getelementptr inbounds i64, ptr addrspace(1) %25, i64 %27
  %29 = load i64, ptr addrspace(1) %28, align 8, !tbaa !28
  %30 = or i64 %29, 1
  store i64 %30, ptr addrspace(5) %13, align 8, !tbaa !28
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %14) #6
  %31 = load i64, ptr addrspace(5) %12, align 8, !tbaa !28
  %32 = trunc i64 %31 to i32
  store i32 %32, ptr addrspace(5) %14, align 4, !tbaa !13
  %33 = load i64, ptr addrspace(5) %12, align 8, !tbaa !28
  %34 = mul i64 %33, -7046029254386353131
  %35 = load i64, ptr addrspace(5) %13, align 8, !tbaa !28
  %36 = udiv i64 %34, %35
  %37 = load i64, ptr addrspace(5) %12, align 8, !tbaa !28
  %38 = urem i64 %37, 1000003
  %39 = add i64 %36, %38
  %40 = load i64, ptr addrspace(5) %12, align 8, !tbaa !28
  %41 = load i64, ptr addrspace(5) %13, align 8, !tbaa !28
  %42 = and i64 %41, 63
  %43 = and i64 %42, 63
  %44 = lshr i64 %40, %43
  %45 = add i64 %39, %44
  %46 = load i64, ptr addrspace(5) %12, align 8, !tbaa !28
  %47 = sdiv i64 %46, -7
  %48 = add i64 %45, %47
  %49 = load ptr addrspace(1), ptr addrspace(5) %8, align 8, !tbaa !9
  %50 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %51 = zext i32 %50 to i64
  %52 = getelementptr inbounds i64, ptr addrspace(1) %49, i64 %51
  store i64 %48, ptr addrspace(1) %52, align 8, !tbaa !28
  %53 = load i32, ptr addrspace(5) %14, align 4, !tbaa !13
  %54 = sdiv i32 %53, 13
  %55 = load i32, ptr addrspace(5) %14, align 4, !tbaa !13
  %56 = srem i32 %55, 9
  %57 = sub nsw i32 %54, %56
  %58 = load i64, ptr addrspace(5) %12, align 8, !tbaa !28
  %59 = lshr i64 %58, 33
  %60 = trunc i64 %59 to i32
  %61 = load i32, ptr addrspace(5) %14, align 4, !tbaa !13
  %62 = ashr i32 %61, 3
  %63 = xor i32 %60, %62
  %64 = add nsw i32 %57, %63
  %65 = load i64, ptr addrspace(5) %12, align 8, !tbaa !28
  %66 = trunc i64 %65 to i32
  %67 = call i32 @llvm.ctpop.i32(i32 %66)
  %68 = add nsw i32 %64, %67
  %69 = load i64, ptr addrspace(5) %13, align 8, !tbaa !28
  %70 = trunc i64 %69 to i32
  %71 = or i32 %70, 1
  %72 = call i32 @llvm.ctlz.i32(i32 %71, i1 true)
  %73 = add nsw i32 %68, %72
  %74 = load ptr addrspace(1), ptr addrspace(5) %9, align 8, !tbaa !9
  %75 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %76 = zext i32 %75 to i64
  %77 = getelementptr inbounds i32, ptr addrspace(1) %74, i64 %76
  store i32 %73, ptr addrspace(1) %77, align 4, !tbaa !13
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %14) #6
  call void @llvm.lifetime.end.p5(i64 8, ptr addrspace(5) %13) #6
  call void @llvm.lifetime.end.p5(i64 8, ptr addrspace(5) %12) #6
  br label %78

78:                                               ; preds = %19, %5
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %11) #6
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare i32 @llvm.ctpop.i32(i32) #3

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare i32 @llvm.ctlz.i32(i32, i1 immarg) #3

; Function Attrs: convergent norecurse nounwind
define protected amdgpu_kernel void @reduce(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1) #0 !kernel_arg_addr_space !30 !kernel_arg_access_qual !31 !kernel_arg_type !32 !kernel_arg_base_type !33 !kernel_arg_type_qual !34 {
  %3 = alloca ptr addrspace(1), align 8, addrspace(5)
  %4 = alloca ptr addrspace(1), align 8, addrspace(5)
  %5 = alloca i32, align 4, addrspace(5)
  %6 = alloca i32, align 4, addrspace(5)
  %7 = alloca i32, align 4, addrspace(5)
  %8 = alloca i32, align 4, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %3, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr addrspace(5) %4, align 8, !tbaa !9
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %5) #6
  %9 = call i32 @llvm.amdgcn.workitem.id.x(), !range !17
  store i32 %9, ptr addrspace(5) %5, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %6) #6
  %10 = call i32 @llvm.amdgcn.workgroup.id.x()
  store i32 %10, ptr addrspace(5) %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %7) #6
  %11 = call i32 @wgsize() #7
  store i32 %11, ptr addrspace(5) %7, align 4, !tbaa !13
  %12 = load ptr addrspace(1), ptr addrspace(5) %3, align 8, !tbaa !9
  %13 = load i32, ptr addrspace(5) %6, align 4, !tbaa !13
  %14 = load i32, ptr addrspace(5) %7, align 4, !tbaa !13
  %15 = mul i32 %13, %14
  %16 = load i32, ptr addrspace(5) %5, align 4, !tbaa !13
  %17 = add i32 %15, %16
  %18 = zext i32 %17 to i64
  %19 = getelementptr inbounds i32, ptr addrspace(1) %12, i64 %18
  %20 = load i32, ptr addrspace(1) %19, align 4, !tbaa !13
  %21 = load i32, ptr addrspace(5) %5, align 4, !tbaa !13
  %22 = zext i32 %21 to i64
  %23 = getelementptr inbounds [256 x i32], ptr addrspace(3) @reduce.s, i64 0, i64 %22
  store i32 %20, ptr addrspace(3) %23, align 4, !tbaa !13
  call void @sync_group() #7
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %8) #6
  %24 = load i32, ptr addrspace(5) %7, align 4, !tbaa !13
  %25 = udiv i32 %24, 2
  store i32 %25, ptr addrspace(5) %8, align 4, !tbaa !13
  br label %26

26:                                               ; preds = %47, %2
  %27 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %28 = icmp ugt i32 %27, 0
  br i1 %28, label %30, label %29

29:                                               ; preds = %26
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %8) #6
  br label %50

30:                                               ; preds = %26
  %31 = load i32, ptr addrspace(5) %5, align 4, !tbaa !13
  %32 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %33 = icmp ult i32 %31, %32
  br i1 %33, label %34, label %46

34:                                               ; preds = %30
  %35 = load i32, ptr addrspace(5) %5, align 4, !tbaa !13
  %36 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %37 = add i32 %35, %36
  %38 = zext i32 %37 to i64
  %39 = getelementptr inbounds [256 x i32], ptr addrspace(3) @reduce.s, i64 0, i64 %38
  %40 = load i32, ptr addrspace(3) %39, align 4, !tbaa !13
  %41 = load i32, ptr addrspace(5) %5, align 4, !tbaa !13
  %42 = zext i32 %41 to i64
  %43 = getelementptr inbounds [256 x i32], ptr addrspace(3) @reduce.s, i64 0, i64 %42
  %44 = load i32, ptr addrspace(3) %43, align 4, !tbaa !13
  %45 = add i32 %44, %40
  store i32 %45, ptr addrspace(3) %43, align 4, !tbaa !13
  br label %46

46:                                               ; preds = %34, %30
  call void @sync_group() #7
  br label %47

47:                                               ; preds = %46
  %48 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %49 = lshr i32 %48, 1
  store i32 %49, ptr addrspace(5) %8, align 4, !tbaa !13
  br label %26, !llvm.loop !35

50:                                               ; preds = %29
  %51 = load i32, ptr addrspace(5) %5, align 4, !tbaa !13
  %52 = icmp eq i32 %51, 0
  br i1 %52, label %53, label %59

53:                                               ; preds = %50
  %54 = load i32, ptr addrspace(3) @reduce.s, align 4, !tbaa !13
  %55 = load ptr addrspace(1), ptr addrspace(5) %4, align 8, !tbaa !9
  %56 = load i32, ptr addrspace(5) %6, align 4, !tbaa !13
  %57 = zext i32 %56 to i64
  %58 = getelementptr inbounds i32, ptr addrspace(1) %55, i64 %57
  store i32 %54, ptr addrspace(1) %58, align 4, !tbaa !13
  br label %59

59:                                               ; preds = %53, %50
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %7) #6
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %6) #6
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %5) #6
  ret void
}

; Function Attrs: nounwind readnone speculatable willreturn
declare i32 @llvm.amdgcn.workitem.id.x() #4

; Function Attrs: nounwind readnone speculatable willreturn
declare i32 @llvm.amdgcn.workgroup.id.x() #4

; Function Attrs: convergent norecurse nounwind
define internal i32 @wgsize() #2 {
  %1 = call align 4 dereferenceable(64) ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %2 = getelementptr inbounds i16, ptr addrspace(4) %1, i64 2
  %3 = load i16, ptr addrspace(4) %2, align 2, !tbaa !37
  %4 = zext i16 %3 to i32
  ret i32 %4
}

; Function Attrs: convergent norecurse nounwind
define internal void @sync_group() #2 {
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  ret void
}

; Function Attrs: convergent norecurse nounwind
define protected amdgpu_kernel void @atom(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(1) noundef align 8 %2, i32 noundef %3) #0 !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !39 !kernel_arg_base_type !40 !kernel_arg_type_qual !41 {
  %5 = alloca ptr addrspace(1), align 8, addrspace(5)
  %6 = alloca ptr addrspace(1), align 8, addrspace(5)
  %7 = alloca ptr addrspace(1), align 8, addrspace(5)
  %8 = alloca i32, align 4, addrspace(5)
  %9 = alloca i32, align 4, addrspace(5)
  %10 = alloca i32, align 4, addrspace(5)
  %11 = alloca i32, align 4, addrspace(5)
  %12 = alloca i32, align 4, addrspace(5)
  %13 = alloca i32, align 4, addrspace(5)
  %14 = alloca i32, align 4, addrspace(5)
  %15 = alloca i32, align 4, addrspace(5)
  %16 = alloca i32, align 4, addrspace(5)
  %17 = alloca i64, align 8, addrspace(5)
  %18 = alloca i64, align 8, addrspace(5)
  %19 = alloca i32, align 4, addrspace(5)
  %20 = alloca i32, align 4, addrspace(5)
  %21 = alloca i32, align 4, addrspace(5)
  %22 = alloca i32, align 4, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %5, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr addrspace(5) %6, align 8, !tbaa !9
  store ptr addrspace(1) %2, ptr addrspace(5) %7, align 8, !tbaa !9
  store i32 %3, ptr addrspace(5) %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %9) #6
  %23 = call i32 @gid() #7
  store i32 %23, ptr addrspace(5) %9, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %10) #6
  %24 = call i32 @llvm.amdgcn.workitem.id.x(), !range !17
  store i32 %24, ptr addrspace(5) %10, align 4, !tbaa !13
  %25 = load i32, ptr addrspace(5) %10, align 4, !tbaa !13
  %26 = icmp eq i32 %25, 0
  br i1 %26, label %27, label %28

27:                                               ; preds = %4
  store i32 0, ptr addrspace(3) @atom.lc, align 4, !tbaa !13
  br label %28

28:                                               ; preds = %27, %4
  call void @sync_group() #7
  %29 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %30 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %31 = icmp ult i32 %29, %30
  br i1 %31, label %32, label %67

32:                                               ; preds = %28
  %33 = load ptr addrspace(1), ptr addrspace(5) %5, align 8, !tbaa !9
  %34 = getelementptr inbounds i32, ptr addrspace(1) %33, i64 0
  store i32 1, ptr addrspace(5) %11, align 4, !tbaa !13
  %35 = load i32, ptr addrspace(5) %11, align 4
  %36 = atomicrmw add ptr addrspace(1) %34, i32 %35 monotonic, align 4
  store i32 %36, ptr addrspace(5) %12, align 4
  %37 = load i32, ptr addrspace(5) %12, align 4, !tbaa !13
  %38 = load ptr addrspace(1), ptr addrspace(5) %6, align 8, !tbaa !9
  %39 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %40 = urem i32 %39, 16
  %41 = zext i32 %40 to i64
  %42 = getelementptr inbounds i32, ptr addrspace(1) %38, i64 %41
  %43 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  store i32 %43, ptr addrspace(5) %13, align 4, !tbaa !13
  %44 = load i32, ptr addrspace(5) %13, align 4
  %45 = atomicrmw add ptr addrspace(1) %42, i32 %44 monotonic, align 4
  store i32 %45, ptr addrspace(5) %14, align 4
  %46 = load i32, ptr addrspace(5) %14, align 4, !tbaa !13
  %47 = load ptr addrspace(1), ptr addrspace(5) %5, align 8, !tbaa !9
  %48 = getelementptr inbounds i32, ptr addrspace(1) %47, i64 2
  %49 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %50 = mul i32 %49, 7
  %51 = urem i32 %50, 1000
  store i32 %51, ptr addrspace(5) %15, align 4, !tbaa !13
  %52 = load i32, ptr addrspace(5) %15, align 4
  %53 = atomicrmw umax ptr addrspace(1) %48, i32 %52 monotonic, align 4
  store i32 %53, ptr addrspace(5) %16, align 4
  %54 = load i32, ptr addrspace(5) %16, align 4, !tbaa !13
  %55 = load ptr addrspace(1), ptr addrspace(5) %7, align 8, !tbaa !9
  %56 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %57 = zext i32 %56 to i64
  %58 = mul i64 %57, 100000
  store i64 %58, ptr addrspace(5) %17, align 8, !tbaa !28
  %59 = load i64, ptr addrspace(5) %17, align 8
  %60 = atomicrmw add ptr addrspace(1) %55, i64 %59 monotonic, align 8
  store i64 %60, ptr addrspace(5) %18, align 8
  %61 = load i64, ptr addrspace(5) %18, align 8, !tbaa !28
  %62 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %63 = and i32 %62, 3
  store i32 %63, ptr addrspace(5) %19, align 4, !tbaa !13
  %64 = load i32, ptr addrspace(5) %19, align 4
  %65 = atomicrmw add ptr addrspace(3) @atom.lc, i32 %64 monotonic, align 4
  store i32 %65, ptr addrspace(5) %20, align 4
  %66 = load i32, ptr addrspace(5) %20, align 4, !tbaa !13
  br label %67

67:                                               ; preds = %32, %28
  call void @sync_group() #7
  %68 = load i32, ptr addrspace(5) %10, align 4, !tbaa !13
  %69 = icmp eq i32 %68, 0
  br i1 %69, label %70, label %77

70:                                               ; preds = %67
  %71 = load ptr addrspace(1), ptr addrspace(5) %5, align 8, !tbaa !9
  %72 = getelementptr inbounds i32, ptr addrspace(1) %71, i64 1
  %73 = load i32, ptr addrspace(3) @atom.lc, align 4, !tbaa !13
  store i32 %73, ptr addrspace(5) %21, align 4, !tbaa !13
  %74 = load i32, ptr addrspace(5) %21, align 4
  %75 = atomicrmw add ptr addrspace(1) %72, i32 %74 monotonic, align 4
  store i32 %75, ptr addrspace(5) %22, align 4
  %76 = load i32, ptr addrspace(5) %22, align 4, !tbaa !13
  br label %77

77:                                               ; preds = %70, %67
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %10) #6
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %9) #6
  ret void
}

; Function Attrs: convergent norecurse nounwind
define protected amdgpu_kernel void @priv(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, i32 noundef %2) #0 !kernel_arg_addr_space !42 !kernel_arg_access_qual !43 !kernel_arg_type !44 !kernel_arg_base_type !45 !kernel_arg_type_qual !46 {
  %4 = alloca ptr addrspace(1), align 8, addrspace(5)
  %5 = alloca ptr addrspace(1), align 8, addrspace(5)
  %6 = alloca i32, align 4, addrspace(5)
  %7 = alloca [32 x i32], align 4, addrspace(5)
  %8 = alloca i32, align 4, addrspace(5)
  %9 = alloca i32, align 4, addrspace(5)
  %10 = alloca i32, align 4, addrspace(5)
  %11 = alloca i32, align 4, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %4, align 8, !tbaa !9
  store ptr addrspace(1) %1, ptr addrspace(5) %5, align 8, !tbaa !9
  store i32 %2, ptr addrspace(5) %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 128, ptr addrspace(5) %7) #6
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %8) #6
  %12 = call i32 @gid() #7
  store i32 %12, ptr addrspace(5) %8, align 4, !tbaa !13
  %13 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %14 = load i32, ptr addrspace(5) %6, align 4, !tbaa !13
  %15 = icmp uge i32 %13, %14
  br i1 %15, label %16, label %17

16:                                               ; preds = %3
  store i32 1, ptr addrspace(5) %9, align 4
  br label %62

17:                                               ; preds = %3
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %10) #6
  store i32 0, ptr addrspace(5) %10, align 4, !tbaa !13
  br label %18

18:                                               ; preds = %37, %17
  %19 = load i32, ptr addrspace(5) %10, align 4, !tbaa !13
  %20 = icmp ult i32 %19, 32
  br i1 %20, label %22, label %21

21:                                               ; preds = %18
  store i32 2, ptr addrspace(5) %9, align 4
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %10) #6
  br label %40

22:                                               ; preds = %18
  %23 = load ptr addrspace(1), ptr addrspace(5) %4, align 8, !tbaa !9
  %24 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %25 = zext i32 %24 to i64
  %26 = getelementptr inbounds i32, ptr addrspace(1) %23, i64 %25
  %27 = load i32, ptr addrspace(1) %26, align 4, !tbaa !13
  %28 = load i32, ptr addrspace(5) %10, align 4, !tbaa !13
  %29 = mul i32 %27, %28
  %30 = load i32, ptr addrspace(5) %10, align 4, !tbaa !13
  %31 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %32 = xor i32 %30, %31
  %33 = add i32 %29, %32
  %34 = load i32, ptr addrspace(5) %10, align 4, !tbaa !13
  %35 = zext i32 %34 to i64
  %36 = getelementptr inbounds [32 x i32], ptr addrspace(5) %7, i64 0, i64 %35
  store i32 %33, ptr addrspace(5) %36, align 4, !tbaa !13
  br label %37

37:                                               ; preds = %22
  %38 = load i32, ptr addrspace(5) %10, align 4, !tbaa !13
  %39 = add i32 %38, 1
  store i32 %39, ptr addrspace(5) %10, align 4, !tbaa !13
  br label %18, !llvm.loop !47

40:                                               ; preds = %21
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %11) #6
  %41 = load ptr addrspace(1), ptr addrspace(5) %4, align 8, !tbaa !9
  %42 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %43 = zext i32 %42 to i64
  %44 = getelementptr inbounds i32, ptr addrspace(1) %41, i64 %43
  %45 = load i32, ptr addrspace(1) %44, align 4, !tbaa !13
  %46 = urem i32 %45, 32
  store i32 %46, ptr addrspace(5) %11, align 4, !tbaa !13
  %47 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %48 = zext i32 %47 to i64
  %49 = getelementptr inbounds [32 x i32], ptr addrspace(5) %7, i64 0, i64 %48
  %50 = load i32, ptr addrspace(5) %49, align 4, !tbaa !13
  %51 = load i32, ptr addrspace(5) %11, align 4, !tbaa !13
  %52 = mul i32 %51, 7
  %53 = urem i32 %52, 32
  %54 = zext i32 %53 to i64
  %55 = getelementptr inbounds [32 x i32], ptr addrspace(5) %7, i64 0, i64 %54
  %56 = load i32, ptr addrspace(5) %55, align 4, !tbaa !13
  %57 = add i32 %50, %56
  %58 = load ptr addrspace(1), ptr addrspace(5) %5, align 8, !tbaa !9
  %59 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %60 = zext i32 %59 to i64
  %61 = getelementptr inbounds i32, ptr addrspace(1) %58, i64 %60
  store i32 %57, ptr addrspace(1) %61, align 4, !tbaa !13
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %11) #6
  store i32 0, ptr addrspace(5) %9, align 4
  br label %62

62:                                               ; preds = %40, %16
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %8) #6
  call void @llvm.lifetime.end.p5(i64 128, ptr addrspace(5) %7) #6
  %63 = load i32, ptr addrspace(5) %9, align 4
  switch i32 %63, label %65 [
    i32 0, label %64
    i32 1, label %64
  ]

64:                                               ; preds = %62, %62
  ret void

65:                                               ; preds = %62
  unreachable
}

; Function Attrs: convergent norecurse nounwind
define protected amdgpu_kernel void @poke(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !48 !kernel_arg_access_qual !49 !kernel_arg_type !50 !kernel_arg_base_type !51 !kernel_arg_type_qual !52 {
  %2 = alloca ptr addrspace(1), align 8, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %2, align 8, !tbaa !9
  %3 = load ptr addrspace(1), ptr addrspace(5) %2, align 8, !tbaa !9
  %4 = call i32 @gid() #7
  %5 = zext i32 %4 to i64
  %6 = getelementptr inbounds i32, ptr addrspace(1) %3, i64 %5
  store i32 1, ptr addrspace(1) %6, align 4, !tbaa !13
  ret void
}

; Function Attrs: convergent norecurse nounwind
define protected amdgpu_kernel void @ids(ptr addrspace(1) noundef align 4 %0) #0 !kernel_arg_addr_space !48 !kernel_arg_access_qual !49 !kernel_arg_type !50 !kernel_arg_base_type !51 !kernel_arg_type_qual !52 {
  %2 = alloca ptr addrspace(1), align 8, addrspace(5)
  %3 = alloca i32, align 4, addrspace(5)
  %4 = alloca i32, align 4, addrspace(5)
  %5 = alloca i32, align 4, addrspace(5)
  %6 = alloca i32, align 4, addrspace(5)
  %7 = alloca i32, align 4, addrspace(5)
  %8 = alloca i32, align 4, addrspace(5)
  %9 = alloca i32, align 4, addrspace(5)
  store ptr addrspace(1) %0, ptr addrspace(5) %2, align 8, !tbaa !9
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %3) #6
  %10 = call i32 @llvm.amdgcn.workitem.id.x(), !range !17
  store i32 %10, ptr addrspace(5) %3, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %4) #6
  %11 = call i32 @llvm.amdgcn.workitem.id.y(), !range !17
  store i32 %11, ptr addrspace(5) %4, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %5) #6
  %12 = call i32 @llvm.amdgcn.workitem.id.z(), !range !17
  store i32 %12, ptr addrspace(5) %5, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %6) #6
  %13 = call i32 @llvm.amdgcn.workgroup.id.x()
  store i32 %13, ptr addrspace(5) %6, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %7) #6
  %14 = call i32 @llvm.amdgcn.workgroup.id.y()
  store i32 %14, ptr addrspace(5) %7, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %8) #6
  %15 = call i32 @llvm.amdgcn.workgroup.id.z()
  store i32 %15, ptr addrspace(5) %8, align 4, !tbaa !13
  call void @llvm.lifetime.start.p5(i64 4, ptr addrspace(5) %9) #6
  %16 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %17 = mul i32 %16, 2
  %18 = load i32, ptr addrspace(5) %7, align 4, !tbaa !13
  %19 = add i32 %17, %18
  %20 = mul i32 %19, 2
  %21 = load i32, ptr addrspace(5) %6, align 4, !tbaa !13
  %22 = add i32 %20, %21
  %23 = mul i32 %22, 64
  %24 = load i32, ptr addrspace(5) %5, align 4, !tbaa !13
  %25 = mul i32 %24, 4
  %26 = load i32, ptr addrspace(5) %4, align 4, !tbaa !13
  %27 = add i32 %25, %26
  %28 = mul i32 %27, 4
  %29 = add i32 %23, %28
  %30 = load i32, ptr addrspace(5) %3, align 4, !tbaa !13
  %31 = add i32 %29, %30
  store i32 %31, ptr addrspace(5) %9, align 4, !tbaa !13
  %32 = load i32, ptr addrspace(5) %3, align 4, !tbaa !13
  %33 = load i32, ptr addrspace(5) %4, align 4, !tbaa !13
  %34 = shl i32 %33, 4
  %35 = or i32 %32, %34
  %36 = load i32, ptr addrspace(5) %5, align 4, !tbaa !13
  %37 = shl i32 %36, 8
  %38 = or i32 %35, %37
  %39 = load i32, ptr addrspace(5) %6, align 4, !tbaa !13
  %40 = shl i32 %39, 12
  %41 = or i32 %38, %40
  %42 = load i32, ptr addrspace(5) %7, align 4, !tbaa !13
  %43 = shl i32 %42, 16
  %44 = or i32 %41, %43
  %45 = load i32, ptr addrspace(5) %8, align 4, !tbaa !13
  %46 = shl i32 %45, 20
  %47 = or i32 %44, %46
  %48 = load ptr addrspace(1), ptr addrspace(5) %2, align 8, !tbaa !9
  %49 = load i32, ptr addrspace(5) %9, align 4, !tbaa !13
  %50 = zext i32 %49 to i64
  %51 = getelementptr inbounds i32, ptr addrspace(1) %48, i64 %50
  store i32 %47, ptr addrspace(1) %51, align 4, !tbaa !13
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %9) #6
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %8) #6
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %7) #6
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %6) #6
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %5) #6
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %4) #6
  call void @llvm.lifetime.end.p5(i64 4, ptr addrspace(5) %3) #6
  ret void
}

; Function Attrs: nounwind readnone speculatable willreturn
declare i32 @llvm.amdgcn.workitem.id.y() #4

; Function Attrs: nounwind readnone speculatable willreturn
declare i32 @llvm.amdgcn.workitem.id.z() #4

; Function Attrs: nounwind readnone speculatable willreturn
declare i32 @llvm.amdgcn.workgroup.id.y() #4

; Function Attrs: nounwind readnone speculatable willreturn
declare i32 @llvm.amdgcn.workgroup.id.z() #4

; Function Attrs: nounwind readnone speculatable willreturn
declare align 4 ptr addrspace(4) @llvm.amdgcn.dispatch.ptr() #4

; Function Attrs: convergent nounwind willreturn
declare void @llvm.amdgcn.s.barrier() #5

attributes #0 = { convergent norecurse nounwind "amdgpu-flat-work-group-size"="1,256" "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
attributes #1 = { argmemonly nocallback nofree nosync nounwind willreturn }
attributes #2 = { convergent norecurse nounwind "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nocallback nofree nosync nounwind readnone speculatable willreturn }
attributes #4 = { nounwind readnone speculatable willreturn }
attributes #5 = { convergent nounwind willreturn }
attributes #6 = { nounwind }
attributes #7 = { convergent }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 1}
!2 = !{i32 2, i32 0}
!3 = !{!"Debian clang version 15.0.6"}
!4 = !{i32 1, i32 1, i32 1, i32 0}
!5 = !{!"none", !"none", !"none", !"none"}
!6 = !{!"float*", !"float*", !"float*", !"u32"}
!7 = !{!"float*", !"float*", !"float*", !"uint"}
!8 = !{!"const", !"const", !"", !""}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !11, i64 0}
!17 = !{i32 0, i32 1024}
!18 = !{i32 1, i32 1, i32 1, i32 1, i32 0}
!19 = !{!"none", !"none", !"none", !"none", !"none"}
!20 = !{!"float*", !"float*", !"float*", !"double*", !"u32"}
!21 = !{!"float*", !"float*", !"float*", !"double*", !"uint"}
!22 = !{!"const", !"const", !"", !"", !""}
!23 = !{float 2.500000e+00}
!24 = !{!25, !25, i64 0}
!25 = !{!"double", !11, i64 0}
!26 = !{!"u64*", !"u64*", !"u64*", !"int*", !"u32"}
!27 = !{!"ulong*", !"ulong*", !"ulong*", !"int*", !"uint"}
!28 = !{!29, !29, i64 0}
!29 = !{!"long", !11, i64 0}
!30 = !{i32 1, i32 1}
!31 = !{!"none", !"none"}
!32 = !{!"u32*", !"u32*"}
!33 = !{!"uint*", !"uint*"}
!34 = !{!"const", !""}
!35 = distinct !{!35, !36}
!36 = !{!"llvm.loop.unroll.disable"}
!37 = !{!38, !38, i64 0}
!38 = !{!"short", !11, i64 0}
!39 = !{!"u32*", !"u32*", !"u64*", !"u32"}
!40 = !{!"uint*", !"uint*", !"ulong*", !"uint"}
!41 = !{!"", !"", !"", !""}
!42 = !{i32 1, i32 1, i32 0}
!43 = !{!"none", !"none", !"none"}
!44 = !{!"u32*", !"u32*", !"u32"}
!45 = !{!"uint*", !"uint*", !"uint"}
!46 = !{!"const", !"", !""}
!47 = distinct !{!47, !36}
!48 = !{i32 1}
!49 = !{!"none"}
!50 = !{!"u32*"}
!51 = !{!"uint*"}
!52 = !{!""}
